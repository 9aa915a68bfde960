/* compile.c: the public compile entry point and its result.
 *
 * mt_compile runs the pipeline for one kernel and one specialisation,
 * under the context's protected call:
 *
 *   frontend -> infer -> lower -> verify -> optimise (verify after each pass)
 *
 * and keeps every stage it reached in an MtCompiled, so tools can show the
 * stages that worked even when a later one failed. Printed stages are made
 * on demand, except the raw SSA, which optimisation rewrites in place and
 * is therefore printed as soon as it exists. */
#include <string.h>

#include "compiled.h"
#include "cuda/kcuda.h"
#include "frontend/frontend.h"
#include "kernel/lower.h"
#include "mlir/codegen.h"
#include "opt/passes.h"
#include "ssa/lower.h"
#include "ssa/verify.h"
#include "types/infer.h"

static const char *const stage_names[MT_STAGE_COUNT] = {
    [MT_STAGE_AST] = "ast",       [MT_STAGE_EXPR] = "expr", [MT_STAGE_SSA_RAW] = "ssa-raw",
    [MT_STAGE_SSA] = "ssa",       [MT_STAGE_LAYOUT] = "layout", [MT_STAGE_KERNEL] = "kernel",
    [MT_STAGE_CUDA] = "cuda",     [MT_STAGE_MLIR] = "mlir", [MT_STAGE_MLIR_LLVM] = "mlir-llvm",
};

static const char *const lowering_names[] = {[MT_LOWERING_SEED] = "seed", [MT_LOWERING_FAST] = "fast"};

const char *mt_lowering_name(MtLowering l)
{
    return l == MT_LOWERING_SEED || l == MT_LOWERING_FAST ? lowering_names[l] : "default";
}

int mt_lowering_from_name(const char *name)
{
    for (int i = MT_LOWERING_SEED; i <= MT_LOWERING_FAST; i++)
        if (!strcmp(lowering_names[i], name))
            return i;
    return -1;
}

const char *mt_stage_name(MtStage s) { return (unsigned)s < MT_STAGE_COUNT ? stage_names[s] : "?"; }

int mt_stage_from_name(const char *name)
{
    for (int i = 0; i < MT_STAGE_COUNT; i++)
        if (!strcmp(stage_names[i], name))
            return i;
    return -1;
}

typedef struct Job {
    const MtModule *m;
    const MtSpec *spec;
    MtSpan cut;               /* a prefix analysis: the whole compile's first error */
    MtCompiled **out;
} Job;

static bool wants_dump(const char *list, const char *pass)
{
    if (!list)
        return false;
    if (!strcmp(list, "all"))
        return true;
    size_t n = strlen(pass);
    for (const char *p = list; (p = strstr(p, pass)); p += n)
        if ((p == list || p[-1] == ',') && (p[n] == 0 || p[n] == ','))
            return true;
    return false;
}

typedef struct DumpCtx {
    MtCtx *c;
    MtCompiled *k;
    const char *list;
} DumpCtx;

static void on_pass(const char *pass, const MtFunc *f, void *ud)
{
    DumpCtx *d = ud;
    if (!wants_dump(d->list, pass))
        return;
    MtPassDump pd = {.pass = pass};
    pd.text = mt_ssa_print_marked(d->c, f, &pd.marks);
    mt_vec_push(&d->c->arena, &d->k->dumps, pd);
}

static const char *kernel_list(MtCtx *c, const MtModule *m)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    for (uint32_t i = 0; i < m->nfuncs; i++)
        mt_buf_printf(&b, "%s%s", i ? ", " : "", m->funcs[i]->name);
    return mt_buf_str(&b);
}

/* The kernel to compile: the named one, else the file's only jit function,
 * else its only jit function that no other one calls. */
static const MtFuncDef *find_kernel(MtCtx *c, const MtModule *m, const char *name)
{
    MtSpan none = {.file = m->file};
    if (name) {
        for (uint32_t i = 0; i < m->nfuncs; i++)
            if (!strcmp(m->funcs[i]->name, name))
                return m->funcs[i];
        mt_error(c, none, "E0313", "no @triton.jit function named '%s' in this file%s%s", name,
                 m->nfuncs ? " (kernels: " : "", m->nfuncs ? mt_sprintf(c, "%s)", kernel_list(c, m)) : "");
        return NULL;
    }
    if (m->nfuncs == 0) {
        mt_error(c, none, "E0313", "no @triton.jit kernels in this file");
        return NULL;
    }
    const MtFuncDef *only = NULL;
    uint32_t entries = 0;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (m->nfuncs == 1 || !mt_query_is_helper(m, i)) {
            only = m->funcs[i];
            entries++;
        }
    if (entries == 1)
        return only;
    mt_error(c, none, "E0313", "this file has %u kernels; choose one with --kernel (%s)", m->nfuncs,
             kernel_list(c, m));
    return NULL;
}

/* A missing or malformed specialisation (E0302, E0303) is the caller's
 * mistake, not the source's: the CLI exits 2 for it. */
static bool only_usage_errors(const MtCtx *c, uint32_t first)
{
    uint32_t seen = 0;
    for (uint32_t i = 0; i < c->diags.n; i++) {
        const MtDiag *d = &c->diags.v[i]->d;
        if (d->sev != MT_SEV_ERROR)
            continue;
        if (seen++ < first)
            continue;
        if (!d->code || (strcmp(d->code, "E0302") && strcmp(d->code, "E0303")))
            return false;
    }
    return seen > first;
}

/* The CUDA source of the kernel layer with its per-line source ranges
 * (the same facts the seed emitter records line by line). */
static MtCudaSource *cuda_source(MtCtx *c, const char *text, const MtLineMarks *marks)
{
    MtCudaSource *src = mt_arena_alloc(&c->arena, sizeof *src);
    src->text = text;
    uint32_t lines = 1;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    src->nlines = lines;
    src->line_span = mt_arena_alloc(&c->arena, (lines + 1) * sizeof *src->line_span);
    src->line_inl = mt_arena_alloc(&c->arena, (lines + 1) * sizeof *src->line_inl);
    for (uint32_t i = 0; i < marks->n; i++)
        if (marks->v[i].line <= lines) {
            src->line_span[marks->v[i].line] = marks->v[i].span;
            src->line_inl[marks->v[i].line] = marks->v[i].inl;
        }
    return src;
}

static MtStatus run(MtCtx *c, void *ud)
{
    Job *j = ud;
    const MtSpec *spec = j->spec;
    int last = spec->last_stage > MT_STAGE_AST ? spec->last_stage : MT_STAGE_SSA;
    const MtFuncDef *fn = find_kernel(c, j->m, spec->kernel);
    if (!fn)
        return MT_ERR_USAGE;
    MtCompiled *k = mt_arena_alloc(&c->arena, sizeof *k);
    *j->out = k;
    k->fn = fn;
    k->m = j->m;
    k->cut = j->cut;
    c->kernel = fn->name;
    k->codegen = spec->codegen == MT_CODEGEN_MLIR ? MT_CODEGEN_MLIR : MT_CODEGEN_CUDA;
    if (k->codegen == MT_CODEGEN_MLIR && spec->lowering == MT_LOWERING_SEED) {
        mt_error(c, fn->def_span, "E1005",
                 "the MLIR backend builds the fast lowering's kernel layer: --codegen mlir takes --lowering fast");
        return MT_ERR_USAGE;
    }

    bool needs_value;
    uint32_t errors = c->nerrors;
    k->prog = mt_frontend(c, j->m, fn, spec, j->cut.off, &needs_value);
    if (!k->prog)
        return needs_value || only_usage_errors(c, errors) ? MT_ERR_USAGE : MT_ERR_SOURCE;
    if (k->prog->partial) {
        /* Types for what the frontend could evaluate, so that an editor
         * still shows them around the error; inference's own findings on
         * an incomplete kernel would repeat or follow from the errors
         * already reported, so they are dropped. */
        uint32_t ndiags = c->diags.n, nerrors = c->nerrors;
        mt_infer(c, k->prog);
        mt_diag_truncate(c, ndiags, nerrors);
        return only_usage_errors(c, errors) ? MT_ERR_USAGE : MT_ERR_SOURCE;
    }
    if (!mt_infer(c, k->prog)) {
        k->prog->partial = true;
        return MT_ERR_SOURCE;
    }
    if (mt_cancelled(c))
        return MT_CANCELLED;
    if (last < MT_STAGE_SSA_RAW)
        return MT_OK;

    k->func = mt_lower(c, k->prog);
    k->text[MT_STAGE_SSA_RAW] = mt_ssa_print_marked(c, k->func, &k->marks[MT_STAGE_SSA_RAW]);
    if (!mt_verify(c, k->func, "lowering"))
        return MT_ERR_SOURCE;
    if (last < MT_STAGE_SSA)
        return MT_OK;

    DumpCtx d = {c, k, spec->dump_passes};
    MtStatus st = mt_optimize(c, k->func, spec->dump_passes ? on_pass : NULL, &d);
    if (st != MT_OK)
        return st;
    k->optimized = true;
    if (c->nerrors != errors)
        return MT_ERR_SOURCE;
    if (last < MT_STAGE_LAYOUT)
        return MT_OK;

    k->lowering = spec->lowering == MT_LOWERING_SEED ? MT_LOWERING_SEED : MT_LOWERING_FAST;
    if (k->lowering == MT_LOWERING_FAST) {
        int sm = spec->sm ? spec->sm : 90;
        MtKernelOptions ko = {.num_warps = spec->num_warps, .sm = sm,
                              .tensor_cores = k->codegen == MT_CODEGEN_CUDA && sm >= 80};
        /* the interpreter and the SSA stage keep the program as written */
        MtFunc *kf = k->func;
        bool lowered = false;
        if (spec->num_stages != 1) {
            /* num_stages tiles of a tensor-core dot in shared memory:
             * loaded num_stages - 1 iterations ahead (Triton's default 3) */
            int stages = spec->num_stages ? spec->num_stages : 3;
            kf = mt_func_clone(c, k->func);
            mt_prefetch(c, kf, ko.tensor_cores ? (uint32_t)stages - 1 : 1);
            if (!mt_verify(c, kf, "prefetch"))
                return MT_ERR_SOURCE;
            /* tiles loaded further ahead than the lowering could stage
             * them would be held in registers, once per iteration ahead:
             * then they go one iteration ahead, as every other load */
            if (stages > 2 && ko.tensor_cores) {
                k->kernel = mt_kernel_lower(c, kf, &ko);
                lowered = !k->kernel || !k->kernel->chained_registers;
                if (!lowered) {
                    kf = mt_func_clone(c, k->func);
                    mt_prefetch(c, kf, 1);
                    if (!mt_verify(c, kf, "prefetch"))
                        return MT_ERR_SOURCE;
                }
            }
        }
        if (!lowered)
            k->kernel = mt_kernel_lower(c, kf, &ko);
        if (!k->kernel)
            return MT_ERR_SOURCE;
        if (last < MT_STAGE_CUDA)
            return MT_OK;
        k->cuda = cuda_source(c, mt_kir_cuda(c, k->kernel, &k->marks[MT_STAGE_CUDA]), &k->marks[MT_STAGE_CUDA]);
        k->cuda->shared_bytes = k->kernel->shared_bytes;
        if (k->codegen != MT_CODEGEN_MLIR || last < MT_STAGE_MLIR)
            return MT_OK;
        return mt_mlir_stages(c, k, last, spec->sm ? spec->sm : 90);
    }
    k->layout = mt_layout_assign(c, k->func);
    if (!k->layout)
        return MT_ERR_SOURCE;
    if (last < MT_STAGE_CUDA)
        return MT_OK;
    k->cuda = mt_cuda_emit(c, k->func, k->layout);
    return k->cuda ? MT_OK : MT_ERR_SOURCE;
}

MtStatus mt_compile_until(MtCtx *c, const MtModule *m, const MtSpec *spec, MtSpan cut, MtCompiled **out)
{
    static const MtSpec defaults = {0};
    *out = NULL;
    uint32_t ndiags = c->diags.n;
    Job j = {m, spec ? spec : &defaults, cut, out};
    MtStatus st = mt_protect(c, run, &j);
    c->kernel = NULL;
    if (st != MT_OK && *out)
        (*out)->first_error = mt_first_error(c, *out, ndiags);
    return st;
}

MtStatus mt_compile(MtCtx *c, const MtModule *m, const MtSpec *spec, MtCompiled **out)
{
    return mt_compile_until(c, m, spec, (MtSpan){0}, out);
}

const char *mt_compiled_kernel_name(const MtCompiled *k) { return k->fn->name; }

const char *mt_compiled_text(MtCtx *c, MtCompiled *k, MtStage stage)
{
    if ((unsigned)stage >= MT_STAGE_COUNT)
        return NULL;
    if (k->text[stage])
        return k->text[stage];
    switch (stage) {
    case MT_STAGE_AST:
        k->text[stage] = mt_ast_print(c, k->fn);
        break;
    case MT_STAGE_EXPR:
        if (k->prog && !k->prog->partial)
            k->text[stage] = mt_expr_print(c, k->prog, &k->marks[stage]);
        break;
    case MT_STAGE_SSA:
        if (k->optimized)
            k->text[stage] = mt_ssa_print_marked(c, k->func, &k->marks[stage]);
        break;
    case MT_STAGE_LAYOUT:
        if (k->layout)
            k->text[stage] = mt_layout_print(c, k->func, k->layout, &k->marks[stage]);
        else if (k->kernel)
            k->text[stage] = mt_kir_layout_print(c, k->kernel, k->func, &k->marks[stage]);
        break;
    case MT_STAGE_KERNEL:
        if (k->kernel)
            k->text[stage] = mt_kir_print(c, k->kernel, &k->marks[stage]);
        break;
    case MT_STAGE_CUDA:
        if (k->cuda)
            k->text[stage] = k->cuda->text;
        break;
    default:
        break;
    }
    return k->text[stage];
}

static bool complete(const MtCompiled *k) { return k->prog && !k->prog->partial; }

bool mt_compiled_partial(const MtCompiled *k) { return k->prog && k->prog->partial; }

const char *mt_compiled_layout_describe(MtCtx *c, const MtCompiled *k, MtVal v)
{
    if (k->kernel)
        return mt_kir_layout_describe(c, k->kernel, k->func, v);
    if (k->layout && v < k->layout->nvals && k->layout->vals[v].kind != VL_NONE)
        return mt_layout_describe(c, k->layout, k->func, v);
    return NULL;
}

size_t mt_compiled_param_count(const MtCompiled *k) { return complete(k) ? k->prog->nsig : 0; }

const MtKernelParam *mt_compiled_param(const MtCompiled *k, size_t i)
{
    return complete(k) && i < k->prog->nsig ? &k->prog->sig[i] : NULL;
}

const char *mt_compiled_signature(MtCtx *c, const MtCompiled *k)
{
    if (!complete(k))
        return NULL;
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    for (uint32_t i = 0; i < k->prog->nsig; i++) {
        const MtKernelParam *p = &k->prog->sig[i];
        const MtExpr *e = k->prog->sig_param[i];
        mt_buf_printf(&b, "%s%s", i ? "," : "", p->value ? p->value : p->type ? p->type : "?");
        /* a divisibility hint is part of the specialisation: a replay without it loses the vector accesses */
        if (!p->value && e && e->u.param.div > 1)
            mt_buf_printf(&b, ":%u", e->u.param.div);
    }
    return mt_buf_str(&b);
}

const char *mt_compiled_respec(MtCtx *c, const MtCompiled *k, const MtType *elem)
{
    if (!k->prog)
        return NULL;
    const MtExprProgram *p = k->prog;
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    for (uint32_t i = 0; i < p->nsig; i++) {
        const MtExpr *e = p->sig_param[i];
        mt_buf_puts(&b, i ? "," : "");
        if (p->sig[i].value) {
            if (p->sig[i].value[mt_unquoted_span(p->sig[i].value, ",")])
                return NULL;
            mt_buf_puts(&b, p->sig[i].value);
            continue;
        }
        const MtType *ty = e ? e->u.param.ty : NULL;
        bool inferred = e && p->inferred[e->u.param.index];
        if (inferred && ty && !mt_ty_is_ptr(ty))
            continue; /* no use made it a pointer (that use may lie after an error): inferred again */
        if (!ty)
            return NULL;
        if (elem && inferred && ty->elem == &mt_ty_f32)
            ty = mt_ty_ptr(c, elem);
        const char *t = mt_ty_sig(ty);
        if (!strcmp(t, "?"))
            return NULL;
        mt_buf_puts(&b, t);
        if (e->u.param.div > 1)
            mt_buf_printf(&b, ":%u", e->u.param.div);
    }
    return mt_buf_str(&b);
}

size_t mt_compiled_dump_count(const MtCompiled *k) { return k->dumps.n; }

const char *mt_compiled_dump(const MtCompiled *k, size_t i, const char **pass)
{
    if (i >= k->dumps.n)
        return NULL;
    if (pass)
        *pass = k->dumps.v[i].pass;
    return k->dumps.v[i].text;
}

int mt_compiled_threads(const MtCompiled *k)
{
    if (k->kernel)
        return (int)k->kernel->threads;
    return k->layout ? mt_kernel_layout_threads(&k->layout->kernel) : 0;
}

bool mt_compiled_launch_shape(const MtCompiled *k, MtLaunchShape *out)
{
    memset(out, 0, sizeof *out);
    if (!k->cuda)
        return false;
    if (k->kernel) {
        out->threads = k->kernel->threads;
        out->programs_per_block = k->kernel->programs_per_block;
        out->shared_bytes = k->kernel->shared_bytes;
        out->dynamic_shared_bytes = k->kernel->dynamic_shared ? k->kernel->shared_bytes : 0;
        out->grid_params = true;
        return true;
    }
    out->threads = (uint32_t)mt_kernel_layout_threads(&k->layout->kernel);
    out->programs_per_block = 1;
    out->shared_bytes = k->cuda->shared_bytes;
    return true;
}

bool mt_compiled_cuda_line_span(const MtCompiled *k, uint32_t cuda_line, MtSpan *out)
{
    if (!k->cuda || cuda_line == 0 || cuda_line > k->cuda->nlines || !k->cuda->line_span[cuda_line].line)
        return false;
    *out = k->cuda->line_span[cuda_line];
    return true;
}
