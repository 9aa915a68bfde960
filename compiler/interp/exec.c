/* exec.c: running a plan over a launch grid, and mt_interpret.
 *
 * A launch checks its arguments and grid (R0703), builds the plan
 * (plan.c), gives every thread a frame of its own, and hands out program
 * instances in increasing linear order (x + gx * (y + gy * z), CUDA's
 * block order) in small chunks from one atomic counter. A thread sets up
 * its frame once -- constants, parameters, the launch-invariant values --
 * and then runs the main steps once per program instance it takes.
 *
 * Faults are deterministic whatever the number of threads: a thread that
 * faults lowers `stop_at` to its program and stops; no thread starts a
 * program at or past `stop_at`. Programs are handed out in order, so every
 * program below the lowest faulting one has run to completion, and the
 * reported fault (the lowest program's, its first faulting step, the first
 * faulting lane of that step) is the one a one-thread run reports.
 * Programs past it may have run and stored, as blocks past a trap may have
 * on a GPU.
 *
 * Threads touch nothing shared but the two counters, the plan (read-only)
 * and the argument buffers; the diagnostic is made after they are joined,
 * on the caller's thread, which alone uses the context.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/compiled.h"
#include "interp.h"

/* ---- steps ----------------------------------------------------------------------- */

/* Row r of operand i (for a step that is not flat), setting bit i of *sc
 * when that row is one element. */
static inline const char *row_of(const char *mem, const Step *s, int i, uint32_t r, unsigned *sc)
{
    const char *p = mem + s->a[i];
    switch (s->mode[i]) {
    case BC_FULL: return p + (size_t)r * s->cols * s->asz[i];
    case BC_ROW: return p;
    case BC_COL: *sc |= 1u << i; return p + (size_t)r * s->asz[i];
    default: *sc |= 1u << i; return p;
    }
}

static bool fail(Exec *x, FaultKind kind, const Step *s, uint32_t arg, int64_t index)
{
    x->fault.kind = kind;
    x->fault.in = s->in;
    x->fault.arg = arg;
    x->fault.index = index;
    memcpy(x->fault.pid, x->pid, sizeof x->pid);
    return false;
}

static int64_t *buffer_slot(char *mem, uint32_t off) { return (int64_t *)(void *)(mem + off) - 1; }

static bool step_binary(Exec *x, const Step *s)
{
    char *m = x->mem;
    if (s->flat) {
        if (s->kind == S_DIV)
            return s->u.div(m + s->out, m + s->a[0], m + s->a[1], s->n, s->sc) || fail(x, FAULT_DIV, s, 0, 0);
        s->u.bin(m + s->out, m + s->a[0], m + s->a[1], s->n, s->sc);
    } else {
        size_t row = (size_t)s->cols * s->osz;
        for (uint32_t r = 0; r < s->rows; r++) {
            unsigned sc = 0;
            const char *a = row_of(m, s, 0, r, &sc), *b = row_of(m, s, 1, r, &sc);
            if (s->kind != S_DIV)
                s->u.bin(m + s->out + r * row, a, b, s->cols, sc);
            else if (!s->u.div(m + s->out + r * row, a, b, s->cols, sc))
                return fail(x, FAULT_DIV, s, 0, 0);
        }
    }
    if (s->kind == S_ADDPTR)
        *buffer_slot(m, s->out) = *buffer_slot(m, s->a[0]);
    return true;
}

static void step_select(Exec *x, const Step *s)
{
    char *m = x->mem;
    if (s->flat) {
        if (s->kind == S_TERNARY)
            s->u.tern(m + s->out, m + s->a[0], m + s->a[1], m + s->a[2], s->n, s->sc);
        else
            s->u.sel(m + s->out, (const uint8_t *)(m + s->a[0]), m + s->a[1], m + s->a[2], s->n, s->sc);
        return;
    }
    size_t row = (size_t)s->cols * s->osz;
    for (uint32_t r = 0; r < s->rows; r++) {
        unsigned sc = 0;
        const char *c = row_of(m, s, 0, r, &sc), *a = row_of(m, s, 1, r, &sc), *b = row_of(m, s, 2, r, &sc);
        if (s->kind == S_TERNARY)
            s->u.tern(m + s->out + r * row, c, a, b, s->cols, sc);
        else
            s->u.sel(m + s->out + r * row, (const uint8_t *)c, a, b, s->cols, sc);
    }
}

/* Loads and stores go row by row; operands: pointer 0, then (load) mask 1
 * and other 2, or (store) value 1 and mask 2. */
static bool step_memory(Exec *x, const Step *s)
{
    char *m = x->mem;
    bool load = s->kind == S_LOAD;
    uint32_t buf = (uint32_t)*buffer_slot(m, s->a[0]);
    const ArgBuf *ab = &x->args[buf];
    int mi = load ? 1 : 2, vi = load ? 2 : 1;
    MemRow row = {.n = s->cols};
    for (uint32_t r = 0; r < s->rows; r++) {
        unsigned sc = 0;
        row.off = (const int64_t *)(const void *)row_of(m, s, 0, r, &sc);
        row.mask = s->a[mi] != NO_OFF ? (const uint8_t *)row_of(m, s, mi, r, &sc) : NULL;
        row.val = s->a[vi] != NO_OFF ? row_of(m, s, vi, r, &sc) : NULL;
        row.off_sc = sc & 1u;
        row.mask_sc = sc & (1u << mi);
        row.val_sc = sc & (1u << vi);
        int64_t lane;
        if (load) {
            row.out = m + s->out + (size_t)r * s->cols * s->osz;
            lane = s->u.load(&row, ab->data, ab->numel);
        } else {
            lane = s->u.store(&row, ab->data, ab->numel);
        }
        if (lane >= 0)
            return fail(x, load ? FAULT_LOAD : FAULT_STORE, s, buf, row.off[row.off_sc ? 0 : lane]);
    }
    return true;
}

/* Atomics go row by row like stores; operands: pointer 0, value 1, mask 2
 * (atomic_cas: cmp 1, value 2). */
static bool step_atomic(Exec *x, const Step *s)
{
    char *m = x->mem;
    uint32_t buf = (uint32_t)*buffer_slot(m, s->a[0]);
    const ArgBuf *ab = &x->args[buf];
    bool cas = s->u.atomic.op == OP_ATOMIC_CAS;
    MemRow row = {.n = s->cols};
    for (uint32_t r = 0; r < s->rows; r++) {
        unsigned sc = 0;
        row.off = (const int64_t *)(const void *)row_of(m, s, 0, r, &sc);
        row.val = row_of(m, s, cas ? 2 : 1, r, &sc);
        row.cmp = cas ? row_of(m, s, 1, r, &sc) : NULL;
        row.mask = !cas && s->a[2] != NO_OFF ? (const uint8_t *)row_of(m, s, 2, r, &sc) : NULL;
        row.off_sc = sc & 1u;
        row.val_sc = sc & (cas ? 4u : 2u);
        row.cmp_sc = cas && (sc & 2u);
        row.mask_sc = !cas && (sc & 4u);
        row.out = m + s->out + (size_t)r * s->cols * s->osz;
        int64_t lane = mt_interp_atomic_row(&row, s->u.atomic.op, s->u.atomic.ek, ab->data, ab->numel);
        if (lane >= 0)
            return fail(x, FAULT_ATOMIC, s, buf, row.off[row.off_sc ? 0 : lane]);
    }
    return true;
}

static bool run_steps(Exec *x, const Step *steps, uint32_t begin, uint32_t end);

static void copy_all(char *m, const Copy *c, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        memcpy(m + c[i].dst, m + c[i].src, c[i].bytes);
}

/* An integer of kind ek at p, widened (signed or not) to 128 bits. */
static __int128 int_at(const char *p, uint8_t ek)
{
    double d = mt_dtype_get((MtDtype)ek, p, 0);
    switch ((MtDtype)ek) {
    case MT_DT_I64: {
        int64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    case MT_DT_U64: {
        uint64_t v;
        memcpy(&v, p, 8);
        return v;
    }
    case MT_DT_I1:
    case MT_DT_I8:
    case MT_DT_I16:
    case MT_DT_I32:
    case MT_DT_U8:
    case MT_DT_U16:
    case MT_DT_U32:
    case MT_DT_F16:
    case MT_DT_BF16:
    case MT_DT_F32:
    case MT_DT_F64:
    case MT_DTYPE_COUNT: break;
    }
    return (__int128)(int64_t)d; /* narrower integers are exact in a double */
}

/* The loop runs iv = start, start + step, ... while iv < stop, in the
 * induction variable's type (a step of 0 or less runs no iteration: a GPU
 * loop with such a step would not end). */
static bool step_for(Exec *x, const Step *steps, const Step *s)
{
    char *m = x->mem;
    uint8_t k = s->u.loop.ivk;
    __int128 start = int_at(m + s->a[0], k), stop = int_at(m + s->a[1], k);
    __int128 step = s->a[2] != NO_OFF ? int_at(m + s->a[2], k) : s->u.loop.step;
    size_t es = mt_interp_esize(k);
    copy_all(m, s->u.loop.init, s->u.loop.ncopies);
    if (step <= 0)
        stop = start;
    for (__int128 iv = start; iv < stop; iv += step) {
        if (atomic_load_explicit(x->cancel, memory_order_relaxed))
            return fail(x, FAULT_CANCELLED, s, 0, 0);
        uint64_t v = (uint64_t)iv;
        memcpy(m + s->u.loop.iv, &v, es); /* little-endian: the low bytes */
        if (!run_steps(x, steps, s->u.loop.body, s->next))
            return false;
    }
    for (uint32_t i = 0; i < s->u.loop.ncopies; i++) {
        const Copy *c = &s->u.loop.result[i];
        memcpy(m + c->dst, m + c->src, c->bytes);
    }
    return true;
}

static bool step_while(Exec *x, const Step *steps, const Step *s)
{
    char *m = x->mem;
    uint32_t here = (uint32_t)(s - steps);
    copy_all(m, s->u.wloop.init, s->u.wloop.ninit);
    for (;;) {
        if (atomic_load_explicit(x->cancel, memory_order_relaxed))
            return fail(x, FAULT_CANCELLED, s, 0, 0);
        if (!run_steps(x, steps, here + 1, s->u.wloop.body))
            return false;
        if (!m[s->a[0]]) {
            copy_all(m, s->u.wloop.result, s->u.wloop.nfwd);
            return true;
        }
        copy_all(m, s->u.wloop.fwd, s->u.wloop.nfwd);
        if (!run_steps(x, steps, s->u.wloop.body, s->next))
            return false;
    }
}

static void step_yield(Exec *x, const Step *s)
{
    char *m = x->mem;
    const Copy *c = s->u.yield.copies;
    uint32_t n = s->u.yield.ncopies;
    if (s->u.yield.staging == NO_OFF) {
        copy_all(m, c, n);
        return;
    }
    char *stage = m + s->u.yield.staging;
    size_t at = 0;
    for (uint32_t i = 0; i < n; at += c[i++].bytes)
        memcpy(stage + at, m + c[i].src, c[i].bytes);
    at = 0;
    for (uint32_t i = 0; i < n; at += c[i++].bytes)
        memcpy(m + c[i].dst, stage + at, c[i].bytes);
}

static bool run_step(Exec *x, const Step *steps, const Step *s)
{
    char *m = x->mem;
    switch ((StepKind)s->kind) {
    case S_BINARY:
    case S_DIV:
    case S_ADDPTR: return step_binary(x, s);
    case S_UNARY: s->u.un(m + s->out, m + s->a[0], s->n); return true;
    case S_SELECT:
    case S_TERNARY: step_select(x, s); return true;
    case S_LOAD:
    case S_STORE: return step_memory(x, s);
    case S_ATOMIC: return step_atomic(x, s);
    case S_PRINT: mt_interp_print(x, s); return true;
    case S_ASSERT: {
        int64_t lane = mt_interp_assert(x, s);
        return lane < 0 || fail(x, FAULT_ASSERT, s, 0, lane);
    }
    case S_REDUCE:
        s->u.red.fn(m + s->out, m + s->a[0], m + s->a[1], s->u.red.outer, s->u.red.n, s->u.red.inner);
        return true;
    case S_SCAN:
        s->u.scan.fn(m + s->out, m + s->a[0], s->u.scan.outer, s->u.scan.n, s->u.scan.inner, s->u.scan.reverse);
        return true;
    case S_COPY:
        mt_interp_copy(m + s->out, m + s->a[0], s->u.copy.n, s->u.copy.ss, s->osz);
        if (s->u.copy.ptr)
            *buffer_slot(m, s->out) = *buffer_slot(m, s->a[0]);
        return true;
    case S_DOT:
        mt_interp_dot((float *)(void *)(m + s->out), (const float *)(void *)(m + s->a[0]),
                      (const float *)(void *)(m + s->a[1]), s->rows, s->u.dot.k, s->cols, s->u.dot.tf32);
        return true;
    case S_PROGRAM_ID: memcpy(m + s->out, &x->pid[s->u.axis], 4); return true;
    case S_NUM_PROGRAMS: memcpy(m + s->out, &x->grid[s->u.axis], 4); return true;
    case S_ARANGE: mt_interp_arange((int32_t *)(void *)(m + s->out), s->u.start, s->n); return true;
    case S_ZEROS: memset(m + s->out, 0, (size_t)s->n * s->osz); return true;
    case S_FILL: {
        uint64_t pattern = s->u.pattern; /* little-endian: its low bytes are the element */
        const void *v = s->a[0] != NO_OFF ? (const void *)(m + s->a[0]) : &pattern;
        mt_interp_fill(m + s->out, v, s->osz, s->n);
        return true;
    }
    case S_FOR: return step_for(x, steps, s);
    case S_IF: {
        uint32_t here = (uint32_t)(s - steps);
        return m[s->a[0]] ? run_steps(x, steps, here + 1, s->u.branch.mid)
                          : run_steps(x, steps, s->u.branch.mid, s->next);
    }
    case S_WHILE: return step_while(x, steps, s);
    case S_YIELD: step_yield(x, s); return true;
    }
    return true;
}

static bool run_steps(Exec *x, const Step *steps, uint32_t begin, uint32_t end)
{
    for (uint32_t i = begin; i < end;) {
        const Step *s = &steps[i];
        if (!run_step(x, steps, s))
            return false;
        i = s->next;
    }
    return true;
}

/* ---- program instances on threads --------------------------------------------------- */

typedef struct Launch {
    const Plan *p;
    const MtKernelArg *args;
    const ArgBuf *bufs;
    int64_t gx, gy, total, chunk;
    _Atomic int64_t next;     /* the next program to hand out */
    _Atomic int64_t stop_at;  /* the lowest program that faulted so far (total: none) */
    const _Atomic bool *cancel;
} Launch;

typedef struct Worker {
    Launch *L;
    void *block;              /* the frame's allocation */
    Exec x;
    PrintOut out;             /* its device_print lines */
    Fault fault;              /* this worker's fault (its lowest program's), kind FAULT_NONE if none */
    pthread_t thread;
    bool started;
} Worker;

/* Constants, parameters and the launch-invariant values: once per frame. */
static bool frame_setup(Worker *w)
{
    const Plan *p = w->L->p;
    char *m = w->x.mem;
    memset(m, 0, p->frame_size);
    for (uint32_t i = 0; i < p->npresets; i++)
        memcpy(m + p->presets[i].off, p->presets[i].bytes, p->presets[i].size);
    for (uint32_t i = 0; i < p->nparams; i++) {
        const ParamSlot *ps = &p->params[i];
        const MtKernelArg *a = &w->L->args[ps->index];
        if (ps->ek == EK_PTR) {
            *buffer_slot(m, ps->off) = ps->index; /* offset 0 from the memset */
        } else if (mt_ty_is_float(mt_ty_scalar((MtDtype)ps->ek))) {
            mt_dtype_set((MtDtype)ps->ek, m + ps->off, 0, a->f);
        } else {
            uint64_t bits = ps->ek == MT_DT_I1 ? a->i != 0 : (uint64_t)a->i;
            memcpy(m + ps->off, &bits, mt_interp_esize(ps->ek)); /* little-endian: the low bytes */
        }
    }
    return run_steps(&w->x, p->init, 0, p->ninit);
}

/* stop_at = min(stop_at, program) */
static void lower_stop(Launch *L, int64_t program)
{
    int64_t cur = atomic_load(&L->stop_at);
    while (program < cur && !atomic_compare_exchange_weak(&L->stop_at, &cur, program)) {
    }
}

static void *worker_main(void *ud)
{
    Worker *w = ud;
    Launch *L = w->L;
    const Plan *p = L->p;
    if (!frame_setup(w)) {
        w->fault = w->x.fault;
        lower_stop(L, 0);
        return NULL;
    }
    for (;;) {
        int64_t first = atomic_fetch_add(&L->next, L->chunk);
        if (first >= L->total)
            return NULL;
        int64_t end = first + L->chunk < L->total ? first + L->chunk : L->total;
        for (int64_t pid = first; pid < end; pid++) {
            if (pid >= atomic_load_explicit(&L->stop_at, memory_order_relaxed))
                return NULL;
            w->x.pid[0] = (int32_t)(pid % L->gx);
            w->x.pid[1] = (int32_t)(pid / L->gx % L->gy);
            w->x.pid[2] = (int32_t)(pid / L->gx / L->gy);
            w->x.program = pid;
            bool cancelled = atomic_load_explicit(L->cancel, memory_order_relaxed);
            if (cancelled || !run_steps(&w->x, p->main, 0, p->nmain)) {
                w->fault = w->x.fault;
                if (cancelled)
                    w->fault.kind = FAULT_CANCELLED;
                w->fault.program = pid;
                lower_stop(L, w->fault.kind == FAULT_CANCELLED ? 0 : pid);
                return NULL;
            }
        }
    }
}

/* ---- launch checks and reports -------------------------------------------------------- */

static const char *param_name(const MtFunc *f, const MtKernelArg *args, uint32_t i)
{
    return args && args[i].name ? args[i].name : f->vals[f->params[i]].name;
}

typedef struct Job {
    const MtFunc *f;
    const char *kernel;
    MtSpan where;
    const int64_t *grid;
    const MtKernelArg *args;
    size_t nargs;
    const MtInterpOptions *opt;
} Job;

static void launch_error(MtCtx *c, const Job *j, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void launch_error(MtCtx *c, const Job *j, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mt_vdiag(c, MT_SEV_ERROR, j->where, "R0703", fmt, ap);
    va_end(ap);
}

/* R0703 for every argument or grid dimension the kernel cannot run with. */
static bool check_launch(MtCtx *c, const Job *j, int64_t *total)
{
    const MtFunc *f = j->f;
    uint32_t errors = c->nerrors;
    if (j->nargs != f->nparams) {
        MtBuf b;
        mt_buf_init(&b, &c->arena);
        for (uint32_t i = 0; i < f->nparams; i++)
            mt_buf_printf(&b, "%s%s", i ? ", " : "", f->vals[f->params[i]].name);
        launch_error(c, j, "%s takes %u runtime argument%s (%s), got %zu", j->kernel, f->nparams,
                     f->nparams == 1 ? "" : "s", mt_buf_str(&b), j->nargs);
        return false;
    }
    for (uint32_t i = 0; i < f->nparams; i++) {
        const MtType *t = f->vals[f->params[i]].ty;
        const MtKernelArg *a = &j->args[i];
        const char *name = param_name(f, j->args, i);
        if (t->kind == TY_PTR) {
            if (!a->data && a->numel)
                launch_error(c, j, "argument %s: no buffer for its %zu elements", name, a->numel);
            else if (a->numel > (size_t)INT64_MAX)
                launch_error(c, j, "argument %s: %zu elements is too many", name, a->numel);
        } else if (mt_ty_is_float(t)) {
            double max = t->dtype == MT_DT_F16 ? 65504.0 : t->dtype == MT_DT_BF16 ? 0x1.fep127 : t->dtype == MT_DT_F32 ? FLT_MAX : DBL_MAX;
            if (isfinite(a->f) && fabs(a->f) > max)
                launch_error(c, j, "argument %s: %g is outside the %s range", name, a->f, mt_ty_info(t)->sig);
        } else if (mt_ty_is_bool(t)) {
            if (a->i != 0 && a->i != 1)
                launch_error(c, j, "argument %s: i1 takes 0 or 1, got %" PRId64, name, a->i);
        } else if (mt_ty_bits(t) < 64) {
            int bits = mt_ty_bits(t);
            int64_t lo = mt_ty_is_unsigned(t) ? 0 : -((int64_t)1 << (bits - 1));
            int64_t hi = mt_ty_is_unsigned(t) ? ((int64_t)1 << bits) - 1 : ((int64_t)1 << (bits - 1)) - 1;
            if (a->i < lo || a->i > hi)
                launch_error(c, j, "argument %s: %" PRId64 " does not fit in %s", name, a->i, mt_ty_info(t)->sig);
        }
    }
    const int64_t *g = j->grid;
    for (int d = 0; d < 3; d++)
        if (g[d] < 1 || g[d] > INT32_MAX)
            launch_error(c, j, "grid dimension %d of (%" PRId64 ", %" PRId64 ", %" PRId64
                               ") is %" PRId64 "; it must be between 1 and %d",
                         d, g[0], g[1], g[2], g[d], INT32_MAX);
    if (c->nerrors != errors)
        return false;
    if (g[0] * g[1] > INT64_MAX / g[2]) {
        launch_error(c, j, "grid (%" PRId64 ", %" PRId64 ", %" PRId64 ") has too many program instances", g[0],
                     g[1], g[2]);
        return false;
    }
    *total = g[0] * g[1] * g[2];
    return true;
}

static void report(MtCtx *c, const Job *j, const Fault *ft)
{
    const MtInst *in = ft->in;
    const char *saved = c->kernel;
    c->kernel = j->kernel;
    MtDiagRec *d;
    if (ft->kind == FAULT_ASSERT) {
        const char *path = mt_file_path(c, in->span.file);
        d = mt_error(c, in->span, "R0708", "device assertion failed in %s at %s:%u:%u, program (%d, %d, %d), element %" PRId64 "%s%s",
                     j->kernel, path ? path : "<unknown>", in->span.line, in->span.col, ft->pid[0], ft->pid[1],
                     ft->pid[2], ft->index, in->attr.text && *in->attr.text ? ": " : "",
                     in->attr.text ? in->attr.text : "");
    } else if (ft->kind == FAULT_DIV) {
        const char *path = mt_file_path(c, in->span.file);
        d = mt_error(c, in->span, "R0702", "integer division by zero in %s at %s:%u:%u, program (%d, %d, %d)",
                     j->kernel, path ? path : "<unknown>", in->span.line, in->span.col, ft->pid[0], ft->pid[1],
                     ft->pid[2]);
    } else {
        const char *name = param_name(j->f, j->args, ft->arg);
        size_t numel = j->args[ft->arg].numel;
        bool load = ft->kind == FAULT_LOAD, atomic = ft->kind == FAULT_ATOMIC;
        d = mt_error(c, in->span, "R0701",
                     "out-of-bounds %s in %s: program (%d, %d, %d) %s %s[%" PRId64 "], but %s has %zu element%s",
                     load ? "load" : atomic ? mt_op_info[in->op].text : "store", j->kernel, ft->pid[0], ft->pid[1],
                     ft->pid[2], load ? "reads" : atomic ? "updates" : "writes", name, ft->index, name, numel,
                     numel == 1 ? "" : "s");
    }
    mt_note_inline(c, d, in->inl);
    c->kernel = saved;
}

/* ---- the launch ------------------------------------------------------------------------- */

static void *raw_alloc(MtCtx *c, size_t n)
{
    return c->has_alloc ? c->alloc.realloc(c->alloc.ud, NULL, 0, n) : malloc(n);
}

static void raw_free(MtCtx *c, void *p, size_t n)
{
    if (!p)
        return;
    if (c->has_alloc)
        c->alloc.realloc(c->alloc.ud, p, n, 0);
    else
        free(p);
}

/* Starting a thread costs from tens of microseconds to milliseconds (in a
 * virtual machine), so without an explicit count a launch gets one thread
 * per MIN_WORK elements of work, up to one per core. */
enum { MIN_WORK = 1 << 17 };

static int thread_count(const MtInterpOptions *opt, const Plan *p, int64_t total)
{
    long n = opt && opt->threads > 0 ? opt->threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (!opt || opt->threads <= 0) {
        double work = (double)total * (double)p->work / MIN_WORK;
        if (work < (double)n)
            n = (long)work;
    }
    if (n < 1)
        n = 1;
    if (n > 256)
        n = 256;
    return (int)(n < total ? n : total);
}

typedef struct Part {
    int64_t program;
    const char *text;
    size_t len;
} Part;

static int by_program(const void *a, const void *b)
{
    int64_t x = ((const Part *)a)->program, y = ((const Part *)b)->program;
    return x < y ? -1 : x > y;
}

/* Every worker's device_print lines, in program order, to opt->print once. */
static void deliver_prints(MtCtx *c, const MtInterpOptions *opt, const Worker *w, int n)
{
    size_t nparts = 0, total = 0;
    bool truncated = false;
    for (int i = 0; i < n; i++) {
        nparts += w[i].out.nchunks;
        total += w[i].out.len;
        truncated |= w[i].out.truncated;
    }
    if (!opt || !opt->print || (!nparts && !truncated))
        return;
    Part *parts = mt_arena_alloc(&c->arena, (nparts + 1) * sizeof *parts);
    size_t k = 0;
    for (int i = 0; i < n; i++)
        for (size_t p = 0; p < w[i].out.nchunks; p++) {
            const PrintOut *o = &w[i].out;
            size_t end = p + 1 < o->nchunks ? o->chunks[p + 1].at : o->len;
            parts[k++] = (Part){o->chunks[p].program, o->text + o->chunks[p].at, end - o->chunks[p].at};
        }
    qsort(parts, nparts, sizeof *parts, by_program);
    static const char note[] = "... (device_print output cut: a thread printed 16 MiB)\n";
    char *text = mt_arena_alloc(&c->arena, total + sizeof note);
    size_t at = 0;
    for (size_t p = 0; p < nparts; p++) {
        memcpy(text + at, parts[p].text, parts[p].len);
        at += parts[p].len;
    }
    if (truncated) {
        memcpy(text + at, note, sizeof note - 1);
        at += sizeof note - 1;
    }
    text[at] = 0;
    opt->print(opt->print_ud, text, at);
}

static MtStatus launch(MtCtx *c, void *ud)
{
    Job *j = ud;
    int64_t total;
    if (!check_launch(c, j, &total))
        return MT_ERR_USAGE;
    Plan p;
    if (!mt_interp_plan(c, j->f, &p)) {
        launch_error(c, j, "%s needs %zu bytes for the values of one program instance; the interpreter allows %llu",
                     j->kernel, p.frame_size, (unsigned long long)MT_INTERP_FRAME_LIMIT);
        return MT_ERR_USAGE;
    }
    ArgBuf *bufs = mt_arena_alloc(&c->arena, (j->nargs + 1) * sizeof *bufs);
    for (size_t i = 0; i < j->nargs; i++)
        bufs[i] = (ArgBuf){j->args[i].data, (int64_t)j->args[i].numel};

    int nthreads = thread_count(j->opt, &p, total);
    Launch L = {.p = &p, .args = j->args, .bufs = bufs, .gx = j->grid[0], .gy = j->grid[1], .total = total,
                .cancel = &c->cancel};
    int64_t chunk = total / ((int64_t)nthreads * 16);
    L.chunk = chunk < 1 ? 1 : chunk > 64 ? 64 : chunk;
    atomic_init(&L.next, 0);
    atomic_init(&L.stop_at, total);

    Worker *w = mt_arena_alloc(&c->arena, (size_t)nthreads * sizeof *w);
    size_t bytes = p.frame_size + 64;
    int ready = 0;
    for (; ready < nthreads; ready++) {
        if (!(w[ready].block = raw_alloc(c, bytes)))
            break;
        w[ready].L = &L;
        w[ready].x.mem = (char *)(((uintptr_t)w[ready].block + 63) & ~(uintptr_t)63);
        w[ready].x.args = bufs;
        for (int d = 0; d < 3; d++)
            w[ready].x.grid[d] = (int32_t)j->grid[d];
        w[ready].x.cancel = &c->cancel;
        w[ready].out = (PrintOut){0};
        w[ready].x.out = &w[ready].out;
    }
    MtStatus st = MT_OK;
    if (ready < nthreads) {
        st = MT_ERR_NOMEM;
    } else {
        for (int i = 1; i < nthreads; i++)
            w[i].started = pthread_create(&w[i].thread, NULL, worker_main, &w[i]) == 0;
        worker_main(&w[0]);
        for (int i = 1; i < nthreads; i++)
            if (w[i].started)
                pthread_join(w[i].thread, NULL);
        /* a thread that could not start leaves its share to the others */
    }
    deliver_prints(c, j->opt, w, ready);
    const Fault *first = NULL;
    for (int i = 0; i < ready; i++) {
        raw_free(c, w[i].block, bytes);
        free(w[i].out.text);
        free(w[i].out.chunks);
        if (w[i].fault.kind == FAULT_CANCELLED)
            st = MT_CANCELLED;
        else if (w[i].fault.kind != FAULT_NONE && (!first || w[i].fault.program < first->program))
            first = &w[i].fault;
    }
    if (st != MT_OK)
        return st;
    if (first) {
        report(c, j, first);
        return MT_ERR_SOURCE;
    }
    return MT_OK;
}

MtStatus mt_interp_func(MtCtx *c, const MtFunc *f, const char *kernel, MtSpan where, const int64_t grid[3],
                        const MtKernelArg *args, size_t nargs, const MtInterpOptions *opt)
{
    Job j = {f, kernel ? kernel : f->name, where, grid, args, nargs, opt};
    return mt_protect(c, launch, &j);
}

static MtStatus not_compiled(MtCtx *c, void *ud)
{
    (void)ud;
    mt_error(c, (MtSpan){0}, "R0703", "mt_interpret needs a kernel compiled through the ssa stage");
    return MT_ERR_USAGE;
}

MtStatus mt_interpret(MtCtx *c, MtCompiled *k, const int64_t grid[3], const MtKernelArg *args, size_t nargs,
                      const MtInterpOptions *opt)
{
    if (!k || !k->func || !k->optimized)
        return mt_protect(c, not_compiled, NULL);
    MtSpan where = k->fn ? k->fn->name_span : (MtSpan){0};
    return mt_interp_func(c, k->func, k->fn ? k->fn->name : k->func->name, where, grid, args, nargs, opt);
}
