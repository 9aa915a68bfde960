/* run.c: running a launch (run.h). mt_run prepares: the spec (read, then
 * overridden), the source (parsed), the kernel (picked, specialised,
 * compiled once: through its CUDA layout when it has one, so the result
 * can say how many CUDA threads a program takes), the launch (bound).
 * execute() then runs it on the interpreter or the GPU (with the
 * interpreter beside it for --compare), and finish() summarises every
 * array, checks them against --expect's references and writes --dump's
 * files. Every problem becomes a diagnostic of the result (run_diag.c);
 * nothing prints. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuda_build.h"
#include "cuda_run.h"
#include "fileio.h"
#include "run_internal.h"

typedef struct Run {
    const MtRunOptions *o;
    char *ptx;                /* the text of o->ptx_path */
    MtCuda *cu;               /* the GPU, opened before anything is compiled for it */
    MtRunResult *r;
    const MtLaunchSpec *spec; /* the spec, or NULL (mt_run_launch without one) */
    MtCtx *c;
    MtCompiled *k;
    MtLaunch *launch;
    MtKernelArg *args;
    MtFileSet inputs;         /* what --dump must not replace */
    bool has_layout;
    MtQueryKernel layout;
    double t0;
} Run;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Where a spec field is. */
static RunWhere at_field(const Run *run, const char *field)
{
    RunWhere w = {0};
    if (run->spec && run->spec->path) {
        w.file = run->spec->path;
        w.text = run->spec->text;
    }
    w.field = field;
    return w;
}

static void nomem(Run *run) { run_diag(run->r, MT_RUN_TROUBLE, MT_SEV_ERROR, NULL, (RunWhere){0}, "out of memory"); }

/* A spec error: the field, or (I/O) a file it names that cannot be read. */
static void spec_error(Run *run, const MtSpecError *e)
{
    if (e->status == MT_ERR_NOMEM) {
        nomem(run);
        return;
    }
    bool io = e->status == MT_ERR_IO;
    run_diag(run->r, io ? MT_RUN_TROUBLE : MT_RUN_FAILED, MT_SEV_ERROR, io ? RUN_FILE : RUN_BAD_SPEC,
             at_field(run, e->field), "%s", e->msg);
}

/* ---- preparing: spec, source, kernel, launch ------------------------------------------ */

typedef struct Prepared {
    MtLaunchSpec spec;
    char *text;               /* the kernel source */
    size_t len;
    const char *source_path;
    MtModule *m;
    const MtKernelInfo *kinfo;
    char *signature;
    MtLaunch launch;
} Prepared;

static bool load_spec(Run *run, const MtRunRequest *req, Prepared *p)
{
    MtSpecError e;
    MtStatus st;
    if (req->spec_json) {
        st = mt_launch_spec_parse(req->spec_json, req->base_dir, &p->spec, &e);
        if (!st && req->spec_path && !(p->spec.path = strdup(req->spec_path)))
            st = MT_ERR_NOMEM;
    } else {
        st = mt_launch_spec_load(req->spec_path, &p->spec, &e);
    }
    if (st) {
        if (e.status == MT_ERR_IO || !req->spec_path) {
            /* fileio's message names the file already. */
            run_diag(run->r, e.status == MT_ERR_IO ? MT_RUN_TROUBLE : MT_RUN_FAILED, MT_SEV_ERROR,
                     e.status == MT_ERR_IO ? RUN_FILE : RUN_BAD_SPEC, (RunWhere){0}, "%s", e.text);
        } else {
            /* The text of a spec that failed to parse is not kept: read it again to point into it. */
            char *text = NULL;
            size_t len;
            if (!req->spec_json)
                mt_file_read(req->spec_path, MT_FILE_SPEC, &text, &len, NULL, 0);
            RunWhere w = {req->spec_path, req->spec_json ? req->spec_json : text, e.field, e.line, e.col};
            run_diag(run->r, MT_RUN_FAILED, MT_SEV_ERROR, RUN_BAD_SPEC, w, "%s", e.msg);
            free(text);
        }
        return false;
    }
    run->spec = &p->spec;
    if (p->spec.path && !(run->r->spec_path = strdup(p->spec.path))) {
        nomem(run);
        return false;
    }
    for (size_t i = 0; i < req->nsets; i++) {
        if (mt_launch_spec_set(&p->spec, req->sets[i], &e) != MT_OK) {
            run_diag(run->r, MT_RUN_TROUBLE, MT_SEV_ERROR, NULL, (RunWhere){0}, "--set %s", e.text);
            return false;
        }
    }
    return mt_fileset_add(&run->inputs, p->spec.path) || (nomem(run), false);
}

static bool load_source(Run *run, const MtRunRequest *req, Prepared *p)
{
    p->source_path = req->source_path ? req->source_path : p->spec.source_path;
    if (req->source_text) {
        p->len = req->source_len;
        if (!(p->text = malloc(p->len + 1))) {
            nomem(run);
            return false;
        }
        memcpy(p->text, req->source_text, p->len);
        p->text[p->len] = 0;
        if (!p->source_path)
            p->source_path = "<source>";
    } else {
        if (!p->source_path) {
            run_diag(run->r, MT_RUN_FAILED, MT_SEV_ERROR, RUN_BAD_SPEC, at_field(run, "source"),
                     "missing (the kernel's .py file, relative to the spec)");
            return false;
        }
        char msg[1024];
        MtStatus st = mt_file_read(p->source_path, MT_FILE_SOURCE, &p->text, &p->len, msg, sizeof msg);
        if (st) {
            run_diag(run->r, MT_RUN_TROUBLE, MT_SEV_ERROR, RUN_FILE, at_field(run, "source"), "%s", msg);
            return false;
        }
        if (!mt_fileset_add(&run->inputs, p->source_path)) {
            nomem(run);
            return false;
        }
    }
    if (!(run->r->source_path = strdup(p->source_path))) {
        nomem(run);
        return false;
    }
    return true;
}

/* "a, b, c": the file's kernels (jit functions that no other one calls),
 * or all of its jit functions; returns how many were listed. */
static size_t kernel_names(const MtModule *m, bool helpers_too, char *buf, size_t n, const MtKernelInfo **last)
{
    size_t at = 0, count = 0;
    buf[0] = 0;
    for (size_t i = 0; i < mt_module_kernel_count(m); i++) {
        if (!helpers_too && mt_query_is_helper(m, i))
            continue;
        if (at < n)
            at += (size_t)snprintf(buf + at, n - at, "%s%s", count ? ", " : "", mt_module_kernel(m, i)->name);
        *last = mt_module_kernel(m, i);
        count++;
    }
    return count;
}

static bool parse_and_pick(Run *run, Prepared *p)
{
    size_t from = mt_diag_count(run->c);
    MtStatus st = mt_parse(run->c, p->source_path, p->text, p->len, &p->m);
    if (st != MT_OK) {
        run_diags_from_ctx(run->r, run->c, from);
        if (st == MT_ERR_NOMEM)
            nomem(run);
        return false;
    }
    char names[1024];
    const MtKernelInfo *only = NULL;
    if (p->spec.kernel) {
        if (!(p->kinfo = mt_module_find_kernel(p->m, p->spec.kernel))) {
            size_t n = kernel_names(p->m, true, names, sizeof names, &only);
            run_diag(run->r, MT_RUN_FAILED, MT_SEV_ERROR, RUN_BAD_SPEC, at_field(run, "kernel"),
                     "no @triton.jit function named '%s' in %s (%s%s)", p->spec.kernel, p->source_path,
                     n ? "jit functions: " : "it has none", names);
            return false;
        }
    } else {
        size_t n = kernel_names(p->m, false, names, sizeof names, &only);
        if (n != 1) {
            if (n)
                run_diag(run->r, MT_RUN_FAILED, MT_SEV_ERROR, RUN_BAD_SPEC, at_field(run, "kernel"),
                         "missing, and %s has several kernels (%s): name one", p->source_path, names);
            else
                run_diag(run->r, MT_RUN_FAILED, MT_SEV_ERROR, RUN_BAD_SPEC, at_field(run, "source"),
                         "%s has no @triton.jit kernels", p->source_path);
            return false;
        }
        p->kinfo = only;
    }
    if (!(run->r->kernel = strdup(p->kinfo->name))) {
        nomem(run);
        return false;
    }
    return true;
}

/* Compile once, through the CUDA stage for the GPU and through the
 * layouts for the interpreter (to say how many CUDA threads a program
 * takes). A kernel the CUDA backend cannot lay out still runs on the
 * interpreter: it is compiled again, in a fresh context, through SSA. */
/* --ptx: read it, and check it was made for this kernel (the
 * architecture is checked once the GPU is open). */
static bool load_ptx(Run *run)
{
    char msg[1024];
    size_t len;
    if (mt_file_read(run->o->ptx_path, MT_FILE_PTX, &run->ptx, &len, msg, sizeof msg) != MT_OK) {
        run_diag(run->r, MT_RUN_TROUBLE, MT_SEV_ERROR, RUN_FILE, (RunWhere){0}, "--ptx %s", msg);
        return false;
    }
    size_t from = mt_diag_count(run->c);
    if (mt_cuda_ptx_check(run->c, run->k, 0, run->ptx, run->o->ptx_path) != MT_OK) {
        run_diags_from_ctx(run->r, run->c, from);
        return false;
    }
    return true;
}

static bool compile(Run *run, Prepared *p)
{
    MtSpecError e;
    if (mt_launch_spec_signature(&p->spec, p->kinfo, &p->signature, &e) != MT_OK) {
        spec_error(run, &e);
        return false;
    }
    bool cuda = run->o->backend == MT_RUN_CUDA;
    /* The MLIR code generator's PTX comes from its module (unless given:
     * then it is checked against the kernel layer). */
    int last = !cuda ? MT_STAGE_LAYOUT
               : run->o->codegen == MT_CODEGEN_MLIR && !run->o->ptx_path ? MT_STAGE_MLIR
                                                                          : MT_STAGE_CUDA;
    MtSpec cs = {.kernel = p->kinfo->name,
                 .signature = *p->signature ? p->signature : NULL,
                 .last_stage = last,
                 .lowering = run->o->lowering,
                 .num_warps = run->o->num_warps,
                 .num_stages = run->o->num_stages,
                 .codegen = run->o->codegen};
    double t0 = now_ms();
    MtStatus st = mt_compile(run->c, p->m, &cs, &run->k);
    if (st == MT_ERR_SOURCE && !cuda) {
        MtCtx *fresh = mt_ctx_new(NULL);
        MtModule *m;
        const MtKernelInfo *ki = NULL;
        cs.last_stage = MT_STAGE_SSA;
        if (!fresh || mt_parse(fresh, p->source_path, p->text, p->len, &m) != MT_OK ||
            !(ki = mt_module_find_kernel(m, p->kinfo->name))) {
            mt_ctx_free(fresh);
        } else {
            mt_ctx_free(run->c);
            run->c = fresh;
            p->m = m;
            p->kinfo = ki;
            cs.kernel = ki->name; /* the old name went with the old context */
            st = mt_compile(run->c, p->m, &cs, &run->k);
        }
    }
    run->r->compile_ms = now_ms() - t0;
    if (st != MT_OK) {
        run_diags_from_ctx(run->r, run->c, 0);
        if (st != MT_ERR_SOURCE)
            run_diag(run->r, st == MT_ERR_NOMEM ? MT_RUN_TROUBLE : MT_RUN_FAILED, MT_SEV_ERROR, NULL,
                     (RunWhere){0}, "compiling %s failed: %s", p->kinfo->name, mt_status_name(st));
        return false;
    }
    run_diags_from_ctx(run->r, run->c, 0); /* warnings */
    if (run->o->ptx_path && !load_ptx(run))
        return false;
    run->has_layout = mt_query_kernel(run->k, &run->layout) && run->layout.threads > 0;
    const char *sig = mt_compiled_signature(run->c, run->k);
    if (!(run->r->signature = strdup(sig ? sig : ""))) {
        nomem(run);
        return false;
    }
    return true;
}

static bool bind(Run *run, Prepared *p)
{
    size_t np = mt_compiled_param_count(run->k);
    MtKernelParam *params = calloc(np + 1, sizeof *params);
    if (!params) {
        nomem(run);
        return false;
    }
    for (size_t i = 0; i < np; i++)
        params[i] = *mt_compiled_param(run->k, i);
    MtSpecError e;
    double t0 = now_ms();
    MtStatus st = mt_launch_bind(&p->spec, params, np, &p->launch, &e);
    run->r->bind_ms = now_ms() - t0;
    free(params);
    if (st) {
        spec_error(run, &e);
        return false;
    }
    run->launch = &p->launch;
    for (size_t i = 0; i < p->launch.nargs; i++)
        if (!mt_fileset_add(&run->inputs, p->launch.args[i].npy_path)) {
            nomem(run);
            return false;
        }
    return true;
}

/* ---- running -------------------------------------------------------------------- */

static bool make_args(Run *run)
{
    const MtLaunch *l = run->launch;
    if (!(run->args = calloc(l->nargs + 1, sizeof *run->args))) {
        nomem(run);
        return false;
    }
    for (size_t i = 0; i < l->nargs; i++) {
        const MtLaunchArg *a = &l->args[i];
        MtKernelArg *ka = &run->args[i];
        ka->name = a->name;
        if (a->kind == MT_ARG_ARRAY) {
            ka->data = a->array->data;
            ka->numel = (size_t)a->array->numel;
        } else if (a->kind == MT_ARG_F32) {
            ka->f = a->fval;
        } else {
            ka->i = a->ival;
        }
    }
    return true;
}

/* What is known before the run: grid, programs, threads, counts; the
 * i32 overflow the grid makes likely (named now, since it would surface
 * as an out-of-bounds access at a negative index, or not at all on a GPU). */
static void describe_launch(Run *run)
{
    MtRunResult *r = run->r;
    const MtLaunch *l = run->launch;
    memcpy(r->grid, l->grid, sizeof r->grid);
    r->grid_dims = l->grid_dims;
    r->programs = l->grid[0] * l->grid[1] * l->grid[2];
    r->bytes = l->bytes;
    r->flops = l->flops;
    r->programs_per_block = run->has_layout && run->layout.programs_per_block > 1 ? run->layout.programs_per_block : 1;
    r->cuda_threads = run->has_layout ? run->layout.threads / r->programs_per_block : 0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    r->threads_auto = run->o->threads <= 0;
    r->threads = run->o->threads > 0 ? run->o->threads : cores > 0 ? (int)cores : 1;
    if (r->threads > r->programs)
        r->threads = (int)r->programs;
    char msg[512];
    if (run->has_layout) {
        int64_t per_program = run->layout.tile[0] * (run->layout.rank > 1 ? run->layout.tile[1] : 1);
        if (mt_launch_i32_overflow(l, per_program, msg, sizeof msg))
            run_diag(r, MT_RUN_OK, MT_SEV_WARNING, RUN_I32, at_field(run, "grid"), "%s", msg);
    }
}

/* The interpreter's device_print lines, kept in the result. */
static void keep_printed(void *ud, const char *text, size_t len)
{
    MtRunResult *r = ud;
    free(r->printed);
    r->printed = malloc(len + 1);
    if (r->printed) {
        memcpy(r->printed, text, len);
        r->printed[len] = 0;
    }
}

static bool interpret(Run *run, const MtKernelArg *args)
{
    MtInterpOptions io = {.threads = run->o->threads, .print = keep_printed, .print_ud = run->r};
    size_t from = mt_diag_count(run->c);
    MtStatus st = mt_interpret(run->c, run->k, run->launch->grid, args, run->launch->nargs, &io);
    if (st == MT_OK)
        return true;
    run_diags_from_ctx(run->r, run->c, from);
    if (mt_diag_count(run->c) == from)
        run_diag(run->r, st == MT_ERR_NOMEM ? MT_RUN_TROUBLE : MT_RUN_FAILED, MT_SEV_ERROR, NULL, (RunWhere){0},
                 "the interpreter stopped: %s", mt_status_name(st));
    return false;
}

/* The interpreter on copies of the launch's arrays, taken before the GPU
 * run changes them: the reference of --compare. */
static bool interpret_copy(Run *run, MtArray **copies)
{
    const MtLaunch *l = run->launch;
    MtKernelArg *args = calloc(l->nargs + 1, sizeof *args);
    if (!args) {
        nomem(run);
        return false;
    }
    for (size_t i = 0; i < l->nargs; i++) {
        args[i] = run->args[i];
        const MtArray *a = l->args[i].array;
        if (l->args[i].kind != MT_ARG_ARRAY)
            continue;
        if (!(copies[i] = mt_array_new(a->dtype, a->ndim, a->shape))) {
            free(args);
            nomem(run);
            return false;
        }
        memcpy(copies[i]->data, a->data, a->nbytes);
        args[i].data = copies[i]->data;
    }
    bool ok = interpret(run, args);
    free(args);
    return ok;
}

static void profile_into(MtRunResult *r, const MtProfile *p)
{
    MtRunProfile *q = &r->profile;
    q->n = p->n;
    if ((q->ns = malloc((p->n ? p->n : 1) * sizeof *q->ns)))
        memcpy(q->ns, p->ns, p->n * sizeof *q->ns);
    q->min_ns = p->min_ns, q->median_ns = p->median_ns, q->max_ns = p->max_ns, q->mean_ns = p->mean_ns;
    snprintf(q->timer, sizeof q->timer, "%s", p->timer ? p->timer : "");
    snprintf(q->note, sizeof q->note, "%s", p->note);
    double s = (double)p->median_ns * 1e-9;
    q->gbps = r->bytes >= 0 && s > 0 ? (double)r->bytes / s / 1e9 : 0;
    q->gflops = r->flops >= 0 && s > 0 ? (double)r->flops / s / 1e9 : 0;
    r->profiled = true;
}

static bool run_cuda(Run *run, MtArray **ref)
{
    MtRunResult *r = run->r;
    char err[1024];
    MtCuda *cu = run->cu;
    bool ok = !run->o->compare || interpret_copy(run, ref);
    MtKcache *cache = run->o->cache ? run->o->cache : mt_kcache_open(NULL);
    if (ok) {
        MtCudaRunOptions copt = {.profile_iters = run->o->profile, .ptx = run->ptx};
        MtCudaRunResult res;
        size_t from = mt_diag_count(run->c);
        const MtCudaDeviceInfo *info = mt_cuda_device_info(cu);
        if (run->ptx &&
            mt_cuda_ptx_check(run->c, run->k, info->cc_major * 10 + info->cc_minor, run->ptx, run->o->ptx_path) != MT_OK) {
            run_diags_from_ctx(r, run->c, from);
            if (!run->o->cache)
                mt_kcache_close(cache);
            return false;
        }
        double t0 = now_ms();
        MtStatus st = mt_cuda_run(run->c, run->k, run->launch, cu, cache, &copt, &res, err, sizeof err);
        r->run_ms = now_ms() - t0;
        const MtCudaDeviceInfo *dev = mt_cuda_device_info(cu);
        MtRunDevice *d = &r->device;
        d->used = true;
        snprintf(d->name, sizeof d->name, "%s", dev->name);
        d->cc_major = dev->cc_major, d->cc_minor = dev->cc_minor, d->sm_count = dev->sm_count;
        d->memory = dev->total_mem, d->driver_version = dev->driver_version;
        if (st != MT_OK) {
            run_diags_from_ctx(r, run->c, from);
            if (st != MT_ERR_SOURCE)
                run_diag(r, st == MT_ERR_NOMEM ? MT_RUN_TROUBLE : MT_RUN_FAILED, MT_SEV_ERROR,
                         st == MT_ERR_NOMEM ? NULL : RUN_CUDA, (RunWhere){0}, "%s", err);
            ok = false;
        } else {
            static const char *const hits[] = {"compiled", "memory cache", "disk cache"};
            d->registers = res.registers, d->shared_bytes = res.shared_bytes, d->local_bytes = res.local_bytes;
            d->max_threads_per_block = res.max_threads_per_block, d->blocks_per_sm = res.blocks_per_sm;
            d->code = mt_compiled_codegen(run->k) == MT_CODEGEN_MLIR ? "MLIR ptx" : "cubin";
            d->cubin = run->o->ptx_path ? run->o->ptx_path : hits[res.cache];
            if (res.profiled)
                profile_into(r, &res.profile);
            mt_cuda_run_result_free(&res);
        }
    }
    char warning[1024];
    if (mt_kcache_warning(cache, warning, sizeof warning))
        run_diag(r, MT_RUN_OK, MT_SEV_WARNING, RUN_CACHE, (RunWhere){0}, "%s", warning);
    if (!run->o->cache)
        mt_kcache_close(cache);
    return ok;
}

/* ---- after the run: summaries, --compare, --expect, --dump -------------------------- */

/* DIR/NAME.npy ("out/" gives out/x.npy, not out//x.npy). */
static char *array_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 8;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s.npy", dir, *dir && dir[strlen(dir) - 1] == '/' ? "" : "/", name);
    return p;
}

static void tolerances(const Run *run)
{
    const MtRunOptions *o = run->o;
    bool spec_tol = run->spec && run->spec->has_tolerance;
    run->r->rtol = o->has_rtol ? o->rtol : spec_tol ? run->spec->rtol : 1e-5;
    run->r->atol = o->has_atol ? o->atol : spec_tol ? run->spec->atol : 1e-6;
}

static bool summarise(Run *run, const uint64_t *before)
{
    MtRunResult *r = run->r;
    const MtLaunch *l = run->launch;
    for (size_t i = 0; i < l->nargs; i++)
        r->narrays += l->args[i].kind == MT_ARG_ARRAY;
    if (r->narrays && !(r->arrays = calloc(r->narrays, sizeof *r->arrays))) {
        r->narrays = 0;
        nomem(run);
        return false;
    }
    size_t k = 0;
    for (size_t i = 0; i < l->nargs; i++) {
        const MtLaunchArg *a = &l->args[i];
        if (a->kind != MT_ARG_ARRAY)
            continue;
        MtRunArray *ra = &r->arrays[k++];
        const MtArray *x = a->array;
        ra->name = strdup(a->name);
        ra->type = strdup(a->type ? a->type : "");
        ra->input = a->npy_path ? strdup(a->npy_path) : NULL;
        ra->dtype = x->dtype, ra->ndim = x->ndim, ra->numel = x->numel, ra->nbytes = x->nbytes;
        memcpy(ra->shape, x->shape, sizeof ra->shape);
        ra->stats = mt_array_stats(x);
        ra->written = before && ra->stats.fnv1a != before[i];
        mt_array_preview(x, ra->preview, sizeof ra->preview);
        if (!ra->name || !ra->type || (a->npy_path && !ra->input)) {
            nomem(run);
            return false;
        }
    }
    return true;
}

static void compare_with(Run *run, MtArray **ref)
{
    MtRunResult *r = run->r;
    const MtLaunch *l = run->launch;
    size_t k = 0;
    for (size_t i = 0; i < l->nargs; i++) {
        if (l->args[i].kind != MT_ARG_ARRAY)
            continue;
        MtRunCheck *c = &r->arrays[k++].compare;
        c->done = true;
        c->reference = strdup("interp");
        r->compared++;
        if (!mt_array_compare(l->args[i].array, ref[i], r->rtol, r->atol, &c->r)) {
            r->mismatches++;
            run_raise(r, MT_RUN_MISMATCH);
        }
    }
}

static void expect(Run *run)
{
    MtRunResult *r = run->r;
    const MtLaunch *l = run->launch;
    const char *dir = run->o->expect_dir;
    size_t k = 0;
    for (size_t i = 0; i < l->nargs; i++) {
        if (l->args[i].kind != MT_ARG_ARRAY)
            continue;
        MtRunArray *ra = &r->arrays[k++];
        char *path = array_path(dir, l->args[i].name);
        if (!path) {
            nomem(run);
            return;
        }
        if (access(path, F_OK) != 0) {
            free(path);
            continue;
        }
        MtArray *want = NULL;
        char err[1024];
        MtStatus st = mt_npy_read(path, &want, err, sizeof err);
        if (st != MT_OK || !mt_fileset_add(&run->inputs, path)) {
            if (st == MT_OK)
                nomem(run);
            else
                run_diag(r, st == MT_ERR_USAGE ? MT_RUN_FAILED : MT_RUN_TROUBLE, MT_SEV_ERROR,
                         st == MT_ERR_USAGE ? RUN_BAD_SPEC : RUN_FILE, (RunWhere){0}, "--expect: %s", err);
            free(path);
            mt_array_free(want);
            return;
        }
        ra->expect.done = true;
        ra->expect.reference = path;
        r->expected++;
        if (!mt_array_compare(l->args[i].array, want, r->rtol, r->atol, &ra->expect.r)) {
            r->mismatches++;
            run_raise(r, MT_RUN_MISMATCH);
        }
        mt_array_free(want);
    }
    if (!r->expected)
        run_diag(r, MT_RUN_TROUBLE, MT_SEV_ERROR, NULL, (RunWhere){0},
                 "--expect: %s holds no NAME.npy for any array argument", dir);
}

static void dump(Run *run)
{
    MtRunResult *r = run->r;
    const MtLaunch *l = run->launch;
    const char *dir = run->o->dump_dir;
    char err[1024];
    if (mt_make_dirs(dir, 0777, err, sizeof err) != MT_OK) {
        run_diag(r, MT_RUN_TROUBLE, MT_SEV_ERROR, RUN_FILE, (RunWhere){0}, "--dump: %s", err);
        return;
    }
    mt_tmp_sweep(dir);
    size_t k = 0;
    for (size_t i = 0; i < l->nargs; i++) {
        if (l->args[i].kind != MT_ARG_ARRAY)
            continue;
        MtRunArray *ra = &r->arrays[k++];
        char *path = array_path(dir, l->args[i].name);
        if (!path) {
            nomem(run);
            return;
        }
        if (mt_npy_write(path, l->args[i].array, &run->inputs, err, sizeof err) != MT_OK) {
            run_diag(r, MT_RUN_TROUBLE, MT_SEV_ERROR, RUN_FILE, (RunWhere){0}, "--dump: %s", err);
            free(path);
            return;
        }
        ra->dumped = path;
    }
}

static void keep_arrays(Run *run)
{
    const MtLaunch *l = run->launch;
    size_t k = 0;
    for (size_t i = 0; i < l->nargs; i++) {
        if (l->args[i].kind != MT_ARG_ARRAY)
            continue;
        const MtArray *x = l->args[i].array;
        MtArray *copy = mt_array_new(x->dtype, x->ndim, x->shape);
        if (!copy) {
            nomem(run);
            return;
        }
        memcpy(copy->data, x->data, x->nbytes);
        run->r->arrays[k++].array = copy;
    }
}

/* Run the bound launch and check what came out. */
static void execute(Run *run)
{
    MtRunResult *r = run->r;
    const MtLaunch *l = run->launch;
    if (!make_args(run))
        return;
    describe_launch(run);
    tolerances(run);
    uint64_t *before = calloc(l->nargs + 1, sizeof *before);
    MtArray **ref = calloc(l->nargs + 1, sizeof *ref);
    if (!before || !ref) {
        free(before);
        free(ref);
        nomem(run);
        return;
    }
    for (size_t i = 0; i < l->nargs; i++)
        if (l->args[i].kind == MT_ARG_ARRAY)
            before[i] = mt_array_stats(l->args[i].array).fnv1a;
    bool ok;
    if (run->o->backend == MT_RUN_CUDA) {
        ok = run_cuda(run, ref);
    } else {
        double t0 = now_ms();
        ok = interpret(run, run->args);
        r->run_ms = now_ms() - t0;
    }
    /* Nothing is checked or written after a failed run. */
    r->ran = ok;
    if (ok && summarise(run, before)) {
        if (run->o->backend == MT_RUN_CUDA && run->o->compare)
            compare_with(run, ref);
        if (run->o->expect_dir)
            expect(run);
        if (run->o->dump_dir && r->outcome != MT_RUN_TROUBLE)
            dump(run);
        if (run->o->keep_arrays)
            keep_arrays(run);
    }
    for (size_t i = 0; i < l->nargs; i++)
        mt_array_free(ref[i]);
    free(ref);
    free(before);
}

/* ---- the calls ------------------------------------------------------------------ */

static MtRunResult *new_result(const MtRunOptions *o)
{
    MtRunResult *r = calloc(1, sizeof *r);
    if (r) {
        r->backend = o->backend;
        r->bytes = r->flops = -1;
    }
    return r;
}

/* The GPU, for --backend cuda: opened first, so that a machine without
 * one says so (R0706) before the kernel is compiled for it. */
static bool open_gpu(Run *run)
{
    char err[1024];
    if (run->o->backend != MT_RUN_CUDA || mt_cuda_open(&run->cu, err, sizeof err) == MT_OK)
        return true;
    run_diag(run->r, MT_RUN_TROUBLE, MT_SEV_ERROR, RUN_NO_GPU, (RunWhere){0}, "%s", err);
    return false;
}

/* Refused before anything runs: --dump over --expect's folder. */
static bool check_options(Run *run)
{
    const MtRunOptions *o = run->o;
    if (o->dump_dir && o->expect_dir && mt_same_file(o->dump_dir, o->expect_dir)) {
        run_diag(run->r, MT_RUN_TROUBLE, MT_SEV_ERROR, NULL, (RunWhere){0},
                 "--dump %s and --expect %s are the same folder: the dump would replace the reference arrays it "
                 "is compared with; dump to another folder",
                 o->dump_dir, o->expect_dir);
        return false;
    }
    if ((o->compare || o->profile || o->codegen || o->ptx_path) && o->backend != MT_RUN_CUDA) {
        run_diag(run->r, MT_RUN_TROUBLE, MT_SEV_ERROR, NULL, (RunWhere){0},
                 "--compare, --profile, --codegen and --ptx need --backend cuda");
        return false;
    }
    if (o->ptx_path && o->codegen != MT_CODEGEN_MLIR) {
        run_diag(run->r, MT_RUN_TROUBLE, MT_SEV_ERROR, NULL, (RunWhere){0},
                 "--ptx runs PTX made by the MLIR code generator: add --codegen mlir");
        return false;
    }
    return true;
}

MtRunResult *mt_run(const MtRunRequest *req, const MtRunOptions *opt)
{
    static const MtRunOptions defaults = {0};
    const MtRunOptions *o = opt ? opt : &defaults;
    MtRunResult *r = new_result(o);
    if (!r)
        return NULL;
    Run run = {.o = o, .r = r, .t0 = now_ms()};
    Prepared p = {0};
    if (!req->spec_path && !req->spec_json)
        run_diag(r, MT_RUN_TROUBLE, MT_SEV_ERROR, NULL, (RunWhere){0}, "no launch spec (a file or its text)");
    else if (check_options(&run) && load_spec(&run, req, &p) && open_gpu(&run) && load_source(&run, req, &p)) {
        if (!(run.c = mt_ctx_new(NULL)))
            nomem(&run);
        else if (parse_and_pick(&run, &p) && compile(&run, &p) && bind(&run, &p))
            execute(&run);
    }
    r->total_ms = now_ms() - run.t0;
    free(run.args);
    free(run.ptx);
    mt_cuda_close(run.cu);
    mt_fileset_free(&run.inputs);
    mt_launch_free(&p.launch);
    free(p.signature);
    free(p.text);
    mt_launch_spec_free(&p.spec);
    mt_ctx_free(run.c);
    return r;
}

MtRunResult *mt_run_launch(MtCtx *c, MtCompiled *k, MtLaunch *launch, const MtLaunchSpec *spec,
                           const MtRunOptions *opt)
{
    static const MtRunOptions defaults = {0};
    const MtRunOptions *o = opt ? opt : &defaults;
    MtRunResult *r = new_result(o);
    if (!r)
        return NULL;
    Run run = {.o = o, .r = r, .spec = spec, .c = c, .k = k, .launch = launch, .t0 = now_ms()};
    const char *name = mt_compiled_kernel_name(k), *sig = mt_compiled_signature(c, k);
    if (!(r->kernel = strdup(name ? name : "")) || !(r->signature = strdup(sig ? sig : "")))
        nomem(&run);
    else if (check_options(&run) && open_gpu(&run)) {
        run.has_layout = mt_query_kernel(k, &run.layout) && run.layout.threads > 0;
        if (spec && !mt_fileset_add(&run.inputs, spec->path))
            nomem(&run);
        for (size_t i = 0; i < launch->nargs && r->outcome == MT_RUN_OK; i++)
            if (!mt_fileset_add(&run.inputs, launch->args[i].npy_path))
                nomem(&run);
        if (r->outcome == MT_RUN_OK)
            execute(&run);
    }
    r->total_ms = now_ms() - run.t0;
    free(run.args);
    mt_cuda_close(run.cu);
    mt_fileset_free(&run.inputs);
    return r;
}

/* ---- the result ------------------------------------------------------------------- */

const char *mt_run_outcome_name(MtRunOutcome o)
{
    static const char *const names[] = {"ok", "mismatch", "failed", "trouble"};
    return (unsigned)o < sizeof names / sizeof names[0] ? names[o] : "?";
}

int mt_run_exit_status(MtRunOutcome o)
{
    static const int status[] = {0, 1, 1, 2};
    return (unsigned)o < sizeof status / sizeof status[0] ? status[o] : 2;
}

void mt_run_result_free(MtRunResult *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->narrays; i++) {
        MtRunArray *a = &r->arrays[i];
        free(a->name);
        free(a->type);
        free(a->input);
        free(a->expect.reference);
        free(a->compare.reference);
        free(a->dumped);
        mt_array_free(a->array);
    }
    free(r->arrays);
    for (size_t i = 0; i < r->ndiags; i++) {
        MtRunDiag *d = &r->diags[i];
        free(d->message);
        free(d->file);
        free(d->field);
        free(d->rendered);
        free(d->rendered_color);
    }
    free(r->diags);
    free(r->profile.ns);
    free(r->spec_path);
    free(r->source_path);
    free(r->kernel);
    free(r->signature);
    free(r->printed);
    free(r);
}
