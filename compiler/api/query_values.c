/* query_values.c: the value at a position of a compiled kernel (needs a
 * typed expression tree), every assignment's value, and the kernel
 * summary.
 *
 * Expression nodes keep the span of the source expression that made them,
 * so the value of a name is the node whose span is its binding's
 * right-hand side, and the value at a position is the innermost typed node
 * around it. The SSA instruction and the layout of a node are found the
 * same way, by span and type, after optimisation. Everything that
 * allocates runs under mt_protect, like every library entry point;
 * results live in the context's arena. */
#include <stdlib.h>
#include <string.h>

#include "query.h"

/* ---- values ------------------------------------------------------------------------------- */

typedef struct InstSearch {
    MtSpan span;
    const MtType *ty;
    const MtExprLoop *loop;   /* looking for this loop's `for` instead */
    MtInst *hit;
} InstSearch;

static void find_inst(MtInst *in, void *ud)
{
    InstSearch *s = ud;
    if (s->loop) {
        if (in->op == OP_FOR && mt_query_same_range(in->span, s->loop->span))
            s->hit = in;
        return;
    }
    if (in->ty && in->ty == s->ty && mt_query_same_range(in->span, s->span))
        s->hit = in;
}

static const char *first_line(MtCtx *c, const char *t)
{
    size_t n = strcspn(t, "\n");
    return mt_arena_strndup(&c->arena, t, n);
}

static const char *inst_text(MtCtx *c, const MtFunc *f, const MtInst *in)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    mt_ssa_print_inst(&b, f, in, 0);
    return first_line(c, mt_buf_str(&b));
}

static const char *value_layout(MtCtx *c, const MtCompiled *k, MtVal v)
{
    if ((!k->layout && !k->kernel) || !v)
        return NULL;
    const MtType *ty = mt_val_ty(k->func, v);
    if (ty && ty->kind != TY_BLOCK)
        return "uniform: one scalar, the same in every thread of the block";
    return mt_compiled_layout_describe(c, k, v);
}

/* The optimised SSA and the layout of an expression node. */
static void node_ssa(MtCtx *c, MtCompiled *k, const MtExpr *e, MtQueryValue *out)
{
    if (!k->func || !k->optimized)
        return;
    InstSearch s = {e->span, e->ty, NULL, NULL};
    if (e->kind == EX_LOOP_IV || e->kind == EX_LOOP_ARG || e->kind == EX_LOOP_RESULT)
        s.loop = e->kind == EX_LOOP_IV ? e->u.loop : e->u.slot.loop;
    mt_func_walk(k->func, find_inst, &s);
    if (!s.hit)
        return;
    out->ssa = inst_text(c, k->func, s.hit);
    MtVal v = s.hit->dst;
    if (s.loop && s.hit->loop) {
        const MtForData *l = s.hit->loop;
        uint32_t i = e->kind == EX_LOOP_IV ? 0 : e->u.slot.index;
        v = e->kind == EX_LOOP_IV ? l->iv : i < l->ncarried ? (e->kind == EX_LOOP_ARG ? l->iter_args[i] : l->results[i]) : 0;
    }
    out->layout = value_layout(c, k, v);
}

/* How hover names what computed a node: an operator or math function by
 * its SSA name ("add", "exp"), a tl function by its call. */
static const char *op_what(MtCtx *c, const MtExpr *e)
{
    switch (e->op) {
    case OP_PROGRAM_ID: return mt_sprintf(c, "tl.program_id(%d)", e->attr.axis);
    case OP_ARANGE: return mt_sprintf(c, "tl.arange(%lld, %lld)", (long long)e->attr.start, (long long)e->attr.end);
    case OP_EXPAND_DIMS: return "expand_dims";
    default: break;
    }
    switch (mt_op_class(e->op)) {
    case OC_ARITH:
    case OC_BITWISE:
    case OC_COMPARE:
    case OC_UNARY:
    case OC_MATH:
        return mt_op_info[e->op].text;
    default:
        return mt_op_info[e->op].py;
    }
}

static const char *node_what(MtCtx *c, const MtExpr *e)
{
    switch ((MtExprKind)e->kind) {
    case EX_PARAM: return "parameter";
    case EX_CONST: return "constant";
    case EX_OP: return op_what(c, e);
    case EX_FOR: return "runtime loop";
    case EX_LOOP_IV: return "loop variable";
    case EX_LOOP_ARG: return "loop-carried value";
    case EX_LOOP_RESULT: return "loop result";
    case EX_NEST: return mt_op_info[e->op].py;
    case EX_NEST_ARG: return "combine argument";
    case EX_NEST_RESULT: return mt_sprintf(c, "%s result", mt_op_info[e->u.nslot.nest->node->op].py);
    case EX_KIND_COUNT_: break;
    }
    return "value";
}

/* Nodes like e (same range, kind and operator): one per unrolled
 * iteration or inlined call. */
static uint32_t count_like(const MtExprProgram *p, const MtExpr *e)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->all.n; i++) {
        const MtExpr *x = p->all.v[i];
        n += x->ty && x->kind == e->kind && x->op == e->op && mt_query_same_range(x->span, e->span);
    }
    return n;
}

/* The last typed node made for exactly this range: the outermost one,
 * since an operation is created after its operands. */
static const MtExpr *node_for(const MtExprProgram *p, MtSpan sp)
{
    const MtExpr *best = NULL;
    for (uint32_t i = 0; i < p->all.n; i++) {
        const MtExpr *e = p->all.v[i];
        if (e->ty && e->ty != &mt_ty_void && mt_query_same_range(e->span, sp))
            best = e;
    }
    return best;
}

static void fill_node(MtCtx *c, MtCompiled *k, const MtExpr *e, bool ssa, MtQueryValue *out)
{
    out->value_span = e->span;
    out->type = mt_ty_str(c, e->ty);
    out->what = node_what(c, e);
    out->instances = count_like(k->prog, e);
    if (e->kind == EX_CONST) {
        MtBuf b;
        mt_buf_init(&b, &c->arena);
        mt_const_print(&b, e->u.cst);
        out->value = mt_buf_str(&b);
    }
    if (ssa)
        node_ssa(c, k, e, out);
}

static const char *source_of(MtCtx *c, MtSpan sp, size_t max)
{
    const MtFile *f = mt_ctx_file(c, sp.file);
    if (!f || sp.end <= sp.off || sp.end > f->len)
        return NULL;
    size_t n = sp.end - sp.off;
    if (n > max)
        return mt_sprintf(c, "%.*s...", (int)max, f->text + sp.off);
    return mt_arena_strndup(&c->arena, f->text + sp.off, n);
}

/* Whether function f of the module contributed nodes to k: k's own
 * function, or a helper inlined into it. */
static bool in_kernel(const MtCompiled *k, const MtFuncDef *f)
{
    if (f == k->fn)
        return true;
    for (uint32_t i = 0; i < k->prog->all.n; i++) {
        const MtExpr *e = k->prog->all.v[i];
        if (e->inl && e->span.off >= f->span.off && e->span.end <= f->span.end)
            return true;
    }
    return false;
}

/* The value of an inlined helper call: the last node made inside the
 * inline site of that call (what the helper returned, as a rule). */
static const MtExpr *call_result(MtCtx *c, const MtExprProgram *p, MtSpan sp)
{
    const MtExpr *best = NULL;
    for (uint32_t i = 0; i < p->all.n; i++) {
        const MtExpr *e = p->all.v[i];
        if (e->ty && e->ty != &mt_ty_void && e->inl && e->inl < c->inl.n && mt_query_same_range(c->inl.v[e->inl].call, sp))
            best = e;
    }
    return best;
}

/* The node a binding's value range made; a value that is itself a name
 * (`y = x`) is followed to that name's binding, a helper call to what the
 * helper returned. */
const MtExpr *mt_query_value_node(MtCtx *c, const MtCompiled *k, MtSpan sp, int depth)
{
    const MtExpr *e = node_for(k->prog, sp);
    if (!e && sp.line)
        e = call_result(c, k->prog, sp);
    if (e || !sp.line || depth > 8)
        return e;
    BindSet s = {.c = c};
    MtQueryDef d;
    if (!mt_query_def_at(&s, k->m, sp.off, &d) || !mt_query_same_range(d.use, sp))
        return NULL;
    if (d.kind == MT_DEF_PARAM || d.kind == MT_DEF_LOOP)
        return node_for(k->prog, d.def);
    return d.kind == MT_DEF_LOCAL ? mt_query_value_node(c, k, d.value, depth + 1) : NULL;
}

/* What a helper's parameter is bound to at the first call inlined into
 * k: the argument's value (or the default's). */
static const MtExpr *helper_argument(MtCtx *c, const MtCompiled *k, const MtFuncDef *f, const char *name)
{
    uint32_t index = 0;
    while (index < f->nparams && strcmp(f->params[index].name, name))
        index++;
    if (index == f->nparams)
        return NULL;
    for (uint32_t s = 1; s < c->inl.n; s++) {
        if (strcmp(c->inl.v[s].callee, f->name))
            continue;
        const MtNode *call = mt_query_node_at(k->m, c->inl.v[s].call, ND_CALL);
        const MtNode *arg = call ? mt_query_call_arg(call, index, name) : NULL;
        const MtExpr *e = arg ? mt_query_value_node(c, k, arg->span, 0) : NULL;
        if (e)
            return e;
    }
    return NULL;
}

static bool name_value(MtCtx *c, MtCompiled *k, const MtFuncDef *f, const MtQueryDef *d, MtQueryValue *out)
{
    out->name = d->name;
    out->span = d->use;
    out->value_span = d->value;
    switch (d->kind) {
    case MT_DEF_PARAM:
        if (f != k->fn) {
            out->what = "helper parameter";
            const MtExpr *e = helper_argument(c, k, f, d->name);
            if (e) {
                fill_node(c, k, e, true, out);
                out->what = "helper parameter";
            }
            return true;
        }
        for (uint32_t i = 0; i < k->prog->nsig; i++) {
            if (strcmp(k->prog->sig[i].name, d->name))
                continue;
            if (k->prog->sig[i].value) {
                out->what = "constexpr";
                out->value = k->prog->sig[i].value;
                return true;
            }
            if (k->prog->sig_param[i]) {
                fill_node(c, k, k->prog->sig_param[i], true, out);
                out->what = "parameter";
                out->value_span = d->def;
                return true;
            }
        }
        out->what = "parameter";
        return true;
    case MT_DEF_LOCAL:
    case MT_DEF_LOOP: {
        const MtExpr *e = d->kind == MT_DEF_LOOP ? node_for(k->prog, d->def) : mt_query_value_node(c, k, d->value, 0);
        if (e) {
            fill_node(c, k, e, true, out);
            return true;
        }
        out->what = d->kind == MT_DEF_LOOP ? "compile-time loop variable" : "compile-time value";
        if (d->kind == MT_DEF_LOCAL && d->value.line)
            out->value = source_of(c, d->value, 60);
        return true;
    }
    case MT_DEF_GLOBAL:
        out->what = "module constant";
        out->value = d->value.line ? source_of(c, d->value, 60) : NULL;
        return true;
    case MT_DEF_FUNCTION:
        out->what = "jit function";
        return true;
    case MT_DEF_IMPORT:
        out->what = "module";
        return true;
    case MT_DEF_NONE:
        return false;
    }
    return false;
}

typedef struct ValueJob {
    MtCompiled *k;
    uint32_t off;
    MtQueryValue *out;
    bool found;
} ValueJob;

static MtStatus value_job(MtCtx *c, void *ud)
{
    ValueJob *j = ud;
    MtCompiled *k = j->k;
    const MtModule *m = k->m;
    int fi = mt_query_func_at(m, j->off);
    if (fi < 0 || !in_kernel(k, m->funcs[fi]))
        return MT_OK;
    BindSet s = {.c = c};
    MtQueryDef d;
    if (mt_query_def_at(&s, m, j->off, &d) && d.kind != MT_DEF_NONE) {
        j->found = name_value(c, k, m->funcs[fi], &d, j->out);
        return MT_OK;
    }
    const MtExpr *best = NULL;
    for (uint32_t i = 0; i < k->prog->all.n; i++) {
        const MtExpr *e = k->prog->all.v[i];
        if (!e->ty || e->ty == &mt_ty_void || e->span.file != m->file || !mt_query_contains(e->span, j->off))
            continue;
        uint32_t w = e->span.end - e->span.off, bw = best ? best->span.end - best->span.off : UINT32_MAX;
        if (w <= bw)
            best = e;
    }
    if (!best)
        return MT_OK;
    j->out->span = best->span;
    fill_node(c, k, best, true, j->out);
    j->found = true;
    return MT_OK;
}

bool mt_query_value_at(MtCtx *c, MtCompiled *k, uint32_t off, MtQueryValue *out)
{
    memset(out, 0, sizeof *out);
    if (!k || !k->prog)
        return false;
    ValueJob j = {k, off, out, false};
    if (mt_protect(c, value_job, &j) != MT_OK)
        return false;
    return j.found;
}

typedef struct AssignJob {
    MtCompiled *k;
    MT_VEC(MtQueryValue) out;
} AssignJob;

static int by_offset(const void *x, const void *y)
{
    uint32_t a = ((const MtQueryValue *)x)->span.off, b = ((const MtQueryValue *)y)->span.off;
    return a < b ? -1 : a > b;
}

static MtStatus assign_job(MtCtx *c, void *ud)
{
    AssignJob *j = ud;
    MtCompiled *k = j->k;
    for (uint32_t fi = 0; fi < k->m->nfuncs; fi++) {
        const MtFuncDef *f = k->m->funcs[fi];
        if (!in_kernel(k, f))
            continue;
        BindSet s = {.c = c};
        mt_query_bind_block(&s, &f->body);
        for (uint32_t i = 0; i < s.v.n; i++) {
            const Bind *b = &s.v.v[i];
            const MtExpr *e = b->kind == MT_DEF_LOOP ? node_for(k->prog, b->def) : mt_query_value_node(c, k, b->value, 0);
            bool seen = false;
            for (uint32_t q = 0; q < j->out.n && !seen; q++)
                seen = mt_query_same_range(j->out.v[q].span, b->def);
            if (!e || seen)
                continue;
            MtQueryValue v = {.span = b->def, .name = b->name};
            fill_node(c, k, e, false, &v);
            mt_vec_push(&c->arena, &j->out, v);
        }
    }
    if (j->out.n)
        qsort(j->out.v, j->out.n, sizeof *j->out.v, by_offset);
    return MT_OK;
}

size_t mt_query_assignments(MtCtx *c, MtCompiled *k, const MtQueryValue **out)
{
    *out = NULL;
    if (!k || !k->prog)
        return 0;
    AssignJob j = {.k = k};
    if (mt_protect(c, assign_job, &j) != MT_OK)
        return 0;
    *out = j.out.v;
    return j.out.n;
}

/* ---- kernel summary ---------------------------------------------------------------------- */

/* The largest block a store of r writes, for the fast lowering's summary. */
static void largest_store(const MtFunc *f, const MtRegion *r, const MtType **best)
{
    for (uint32_t i = 0; i < r->n; i++) {
        const MtInst *in = r->v[i];
        if (in->loop)
            largest_store(f, &in->loop->body, best);
        if (in->op != OP_STORE)
            continue;
        for (uint32_t a = 0; a < in->nargs; a++) {
            const MtType *t = in->args[a] ? mt_val_ty(f, in->args[a]) : NULL;
            if (t && t->kind == TY_BLOCK && (!*best || mt_ty_numel(t) > mt_ty_numel(*best)))
                *best = t;
        }
    }
}

static bool fast_kernel(const MtCompiled *k, MtQueryKernel *out)
{
    const KFunc *kf = k->kernel;
    int per = (int)(kf->threads / kf->programs_per_block);
    out->threads = (int)kf->threads;
    out->programs_per_block = (int)kf->programs_per_block;
    const MtType *t = NULL;
    largest_store(k->func, &k->func->body, &t);
    out->rank = t ? t->rank : 1;
    out->tile[0] = t ? t->shape[0] : 1;
    out->tile[1] = t && t->rank > 1 ? t->shape[1] : 0;
    out->thread_shape[0] = per;
    int64_t numel = t ? mt_ty_numel(t) : 1;
    out->elements_per_thread = (numel + per - 1) / per;
    out->register_tiles = out->elements_per_thread > 1;
    out->shared_bytes = (int64_t)kf->shared_bytes;
    return true;
}

bool mt_query_kernel(const MtCompiled *k, MtQueryKernel *out)
{
    memset(out, 0, sizeof *out);
    out->shared_bytes = -1;
    if (k && k->kernel)
        return fast_kernel(k, out);
    if (!k || !k->layout)
        return false;
    out->programs_per_block = 1;
    const MtKernelLayout *kl = &k->layout->kernel;
    out->threads = mt_kernel_layout_threads(kl);
    out->rank = kl->rank;
    int64_t numel = 1;
    for (int i = 0; i < kl->rank && i < 2; i++) {
        out->tile[i] = kl->output[i];
        out->thread_shape[i] = kl->threads[i];
        numel *= kl->output[i];
    }
    out->elements_per_thread = out->threads ? (numel + out->threads - 1) / out->threads : 0;
    out->register_tiles = k->layout->register_tiles;
    if (k->cuda)
        out->shared_bytes = (int64_t)k->cuda->shared_bytes;
    return true;
}
