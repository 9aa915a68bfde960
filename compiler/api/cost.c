/* cost.c: mt_query_cost, the bytes and FLOPs of one program instance
 * (mytriton/cost.h states the counting rule; docs/dashboard.md says it in
 * words).
 *
 * The count walks the optimised SSA once, region by region: each region's
 * counts are the sum of its instructions', a `for` multiplies its body's
 * by its trip count, an `if` takes the branch its condition picks (or the
 * larger). Trip counts and conditions are read from constants only, so to
 * know the ones that depend on the launch, the launch's scalar values
 * (and grid sizes, for tl.num_programs) are substituted into a copy of the
 * SSA and the compiler's constant folder runs over it: a bound such as
 * cdiv(K, BLOCK_K) folds to a number exactly as the folder folds any other
 * expression, with the folder's integer semantics, and what does not fold
 * (tl.program_id, a loaded value) stays unknown, with the reason found by
 * following the bound's operands. The kernel's own SSA is never changed.
 *
 * The FLOP rule is by the op table's typing class (ops.def's cls column),
 * with two exceptions by opcode: the fused multiply-adds (2 each) and an
 * addition of a tl.dot result (the dot's accumulation, already in its
 * 2*M*N*K). */
#include <string.h>

#include "compiled.h"
#include "mytriton/cost.h"
#include "opt/passes.h"

typedef struct Counter {
    MtCtx *c;
    const MtFunc *f;          /* the SSA counted: the kernel's, or its copy with the launch's values folded in */
    MtCost *out;
    MT_VEC(MtCostLoop) loops;
} Counter;

/* ---- saturating counts ------------------------------------------------------------------ */

static int64_t sat_add(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

static int64_t sat_mul(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

static void add_counts(MtCounts *a, MtCounts b)
{
    a->load_bytes = sat_add(a->load_bytes, b.load_bytes);
    a->store_bytes = sat_add(a->store_bytes, b.store_bytes);
    a->flops = sat_add(a->flops, b.flops);
}

static MtCounts times(MtCounts a, int64_t n)
{
    return (MtCounts){sat_mul(a.load_bytes, n), sat_mul(a.store_bytes, n), sat_mul(a.flops, n)};
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static MtCounts larger(MtCounts a, MtCounts b)
{
    return (MtCounts){max64(a.load_bytes, b.load_bytes), max64(a.store_bytes, b.store_bytes), max64(a.flops, b.flops)};
}

/* ---- constants --------------------------------------------------------------------------- */

static bool const_int(const MtFunc *f, MtVal v, int64_t *out)
{
    if (!mt_val_is_const(f, v))
        return false;
    MtConst k = f->vals[v].cst;
    if (k.kind != CST_INT && k.kind != CST_BOOL)
        return false;
    *out = k.i;
    return true;
}

/* Why value v (a loop bound, a step, a condition) is not a constant: what
 * it depends on, found by following its operands. */
static const char *why_unknown(Counter *C, MtVal v, int depth)
{
    const MtValue *x = &C->f->vals[v];
    if (depth > 64)
        return NULL;
    switch (x->kind) {
    case VK_PARAM: return mt_sprintf(C->c, "reads %s, which the launch does not give", x->name);
    case VK_IV: return "changes with an enclosing loop's variable";
    case VK_ARG:
    case VK_RESULT: return "depends on a value a loop carries";
    case VK_INST: break;
    default: return NULL;
    }
    const MtInst *in = x->def;
    if (in->op == OP_PROGRAM_ID)
        return "depends on tl.program_id";
    if (in->op == OP_NUM_PROGRAMS)
        return "depends on tl.num_programs, and the grid is not given";
    if (in->op == OP_LOAD || mt_op_class(in->op) == OC_ATOMIC)
        return "depends on a value loaded from memory";
    for (uint32_t i = 0; i < in->nargs; i++) {
        const char *why = in->args[i] ? why_unknown(C, in->args[i], depth + 1) : NULL;
        if (why)
            return why;
    }
    return NULL;
}

static const char *bound_reason(Counter *C, const char *what, MtVal v)
{
    const char *why = why_unknown(C, v, 0);
    return mt_sprintf(C->c, "its %s %s", what, why ? why : "is not a compile-time integer");
}

/* The trip count of a `for`, or -1 with *why set. */
static int64_t trip_count(Counter *C, const MtInst *in, const char **why)
{
    const MtForData *l = in->loop;
    int64_t start, stop, step = l->step;
    if (!const_int(C->f, in->args[0], &start)) {
        *why = bound_reason(C, "start", in->args[0]);
        return -1;
    }
    if (!const_int(C->f, in->args[1], &stop)) {
        *why = bound_reason(C, "end", in->args[1]);
        return -1;
    }
    if (l->dyn_step && !const_int(C->f, in->args[in->nargs - 1], &step)) {
        *why = bound_reason(C, "step", in->args[in->nargs - 1]);
        return -1;
    }
    if (step == 0) {
        *why = "its step is 0";
        return -1;
    }
    __int128 span = step > 0 ? (__int128)stop - start : (__int128)start - stop;
    __int128 by = step > 0 ? step : -(__int128)step;
    __int128 n = span > 0 ? (span + by - 1) / by : 0;
    return n > INT64_MAX ? INT64_MAX : (int64_t)n;
}

/* ---- what one instruction costs ----------------------------------------------------------- */

static int64_t numel(const MtType *t) { return t ? mt_ty_numel(t) : 0; }

/* Bytes of `n` elements of what pointer type t points at. */
static int64_t access_bytes(const MtType *ptr, int64_t n)
{
    const MtType *pointee = mt_ty_elem(ptr)->elem;
    return sat_mul(n, mt_ty_is_scalar(pointee) ? mt_ty_info(pointee)->size : 0);
}

/* The bytes an access moves, given its mask (0: none): a constant mask
 * moves all or nothing; any other makes the count an upper bound. */
static int64_t masked_bytes(Counter *C, MtVal mask, int64_t bytes)
{
    int64_t on;
    if (!mask)
        return bytes;
    if (const_int(C->f, mask, &on))
        return on ? bytes : 0;
    C->out->masked = true;
    return bytes;
}

static bool float_result(const MtInst *in) { return in->ty && mt_ty_is_float(mt_ty_elem(in->ty)); }

static bool from_dot(const MtFunc *f, MtVal v)
{
    const MtValue *x = &f->vals[v];
    return x->kind == VK_INST && x->def->op == OP_DOT;
}

static MtCounts region_counts(Counter *C, const MtRegion *r);

/* The combine function of a tl.reduce / tl.associative_scan, applied
 * `n` times. */
static MtCounts combine(Counter *C, const MtInst *in, int64_t n)
{
    return times(region_counts(C, &in->nest->body[0].insts), n);
}

/* Reductions over n elements into m: n - m operations; scans of rows of
 * length L: n - n / L. */
static int64_t reduce_ops(const MtFunc *f, const MtInst *in, const MtType *result)
{
    return numel(mt_val_ty(f, in->args[0])) - numel(result);
}

static int64_t scan_ops(const MtFunc *f, const MtInst *in)
{
    const MtType *t = mt_val_ty(f, in->args[0]);
    int64_t n = numel(t);
    int axis = in->attr.axis;
    int64_t len = t->kind == TY_BLOCK && axis >= 0 && axis < t->rank ? t->shape[axis] : n;
    return len > 0 ? n - n / len : 0;
}

static MtCounts loop_counts(Counter *C, const MtInst *in)
{
    const char *why = NULL;
    int64_t trips = trip_count(C, in, &why);
    if (trips == 0)
        return (MtCounts){0};
    uint32_t at = C->loops.n;
    if (trips < 0)
        mt_vec_push(&C->c->arena, &C->loops, ((MtCostLoop){.span = in->span, .why = why}));
    MtCounts body = region_counts(C, &in->loop->body);
    if (trips > 0)
        return times(body, trips);
    C->loops.v[at].per_iteration = body;
    return body;
}

static MtCounts nest_counts(Counter *C, const MtInst *in)
{
    const MtNest *n = in->nest;
    int64_t cond;
    switch (in->op) {
    case OP_IF:
        if (const_int(C->f, in->args[0], &cond)) {
            if (cond)
                return region_counts(C, &n->body[0].insts);
            return n->nbodies > 1 ? region_counts(C, &n->body[1].insts) : (MtCounts){0};
        }
        C->out->branches = true;
        return n->nbodies < 2 ? region_counts(C, &n->body[0].insts)
                              : larger(region_counts(C, &n->body[0].insts), region_counts(C, &n->body[1].insts));
    case OP_WHILE: {
        uint32_t at = C->loops.n;
        mt_vec_push(&C->c->arena, &C->loops,
                    ((MtCostLoop){.span = in->span, .why = "a while loop: it runs until its condition is false"}));
        MtCounts body = region_counts(C, &n->body[0].insts);
        if (n->nbodies > 1)
            add_counts(&body, region_counts(C, &n->body[1].insts));
        C->loops.v[at].per_iteration = body;
        return body;
    }
    case OP_REDUCE: return combine(C, in, reduce_ops(C->f, in, mt_val_ty(C->f, n->results[0])));
    case OP_SCAN: return combine(C, in, scan_ops(C->f, in));
    default: return (MtCounts){0};
    }
}

static MtCounts inst_counts(Counter *C, const MtInst *in)
{
    const MtFunc *f = C->f;
    MtCounts k = {0};
    if (in->op == OP_FOR)
        return loop_counts(C, in);
    if (in->nest)
        return nest_counts(C, in);
    switch (mt_op_class(in->op)) {
    case OC_MEMORY:
        if (in->op == OP_LOAD)
            k.load_bytes = masked_bytes(C, in->args[1], access_bytes(mt_val_ty(f, in->args[0]), numel(in->ty)));
        else
            k.store_bytes = masked_bytes(C, in->args[2], access_bytes(mt_val_ty(f, in->args[0]),
                                                                      numel(mt_val_ty(f, in->args[0]))));
        break;
    case OC_ATOMIC: {
        const MtType *ptr = mt_val_ty(f, in->args[0]);
        int64_t n = max64(numel(ptr), numel(in->ty));
        k.load_bytes = k.store_bytes =
            masked_bytes(C, in->op == OP_ATOMIC_CAS ? 0 : in->args[2], access_bytes(ptr, n));
        break;
    }
    case OC_ARITH:
        if (float_result(in) && !(in->op == OP_ADD && (from_dot(f, in->args[0]) || from_dot(f, in->args[1]))))
            k.flops = numel(in->ty);
        break;
    case OC_MATH:
        if (float_result(in))
            k.flops = sat_mul(numel(in->ty), in->op == OP_FMA || in->op == OP_FMA_RN ? 2 : 1);
        break;
    case OC_REDUCE:
        if (float_result(in))
            k.flops = reduce_ops(f, in, in->ty);
        break;
    case OC_SCAN:
        if (float_result(in))
            k.flops = scan_ops(f, in);
        break;
    case OC_DOT: {
        const MtType *a = mt_val_ty(f, in->args[0]);
        k.flops = sat_mul(sat_mul(2, numel(in->ty)), a->kind == TY_BLOCK ? a->shape[a->rank - 1] : 1);
        break;
    }
    default: break;
    }
    return k;
}

static MtCounts region_counts(Counter *C, const MtRegion *r)
{
    MtCounts sum = {0};
    for (uint32_t i = 0; i < r->n; i++)
        add_counts(&sum, inst_counts(C, r->v[i]));
    return sum;
}

/* ---- the launch's values, folded in ------------------------------------------------------- */

static const MtCostValue *value_of(const MtCostInput *in, const char *name)
{
    for (size_t i = 0; in && i < in->nvalues; i++)
        if (in->values[i].name && !strcmp(in->values[i].name, name))
            return &in->values[i];
    return NULL;
}

/* Value x as a constant of parameter type t; false when it does not fit
 * the type's kind (a float for an integer parameter). */
static bool as_const(const MtCostValue *x, const MtType *t, MtConst *out)
{
    if (mt_ty_is_float(t)) {
        *out = (MtConst){.kind = CST_FLOAT, .f = x->flt ? x->f : (double)x->i};
        return true;
    }
    if (x->flt || !mt_ty_is_scalar(t))
        return false;
    *out = (MtConst){.kind = mt_ty_is_bool(t) ? CST_BOOL : CST_INT, .i = mt_ty_is_bool(t) ? x->i != 0 : x->i};
    return true;
}

typedef struct Grid {
    MtCtx *c;
    MtFunc *f;
    const int64_t *grid;
} Grid;

static void fold_num_programs(MtInst *in, void *ud)
{
    Grid *g = ud;
    int axis = in->attr.axis;
    if (in->op != OP_NUM_PROGRAMS || axis < 0 || axis > 2 || g->grid[axis] <= 0)
        return;
    MtVal v = mt_func_const(g->c, g->f, (MtConst){.kind = CST_INT, .i = g->grid[axis]}, in->ty);
    mt_func_replace_uses(g->f, in->dst, v);
}

/* k's SSA with the launch's values folded in (a copy), or k's own when
 * the launch gives nothing. */
static const MtFunc *with_values(MtCtx *c, const MtFunc *kf, const MtCostInput *in)
{
    if (!in || (!in->nvalues && !in->grid[0] && !in->grid[1] && !in->grid[2]))
        return kf;
    MtFunc *f = mt_func_clone(c, kf);
    for (uint32_t i = 0; i < f->nparams; i++) {
        const MtValue *p = &f->vals[f->params[i]];
        const MtCostValue *x = value_of(in, p->name);
        MtConst k;
        if (x && as_const(x, p->ty, &k))
            mt_func_replace_uses(f, f->params[i], mt_func_const(c, f, k, p->ty));
    }
    Grid g = {c, f, in->grid};
    mt_func_walk(f, fold_num_programs, &g);
    mt_fold(c, f);
    return f;
}

typedef struct CostJob {
    MtCompiled *k;
    const MtCostInput *in;
    MtCost *out;
} CostJob;

static MtStatus cost_job(MtCtx *c, void *ud)
{
    CostJob *j = ud;
    Counter C = {.c = c, .f = with_values(c, j->k->func, j->in), .out = j->out};
    j->out->per_program = region_counts(&C, &C.f->body);
    j->out->loops = C.loops.v;
    j->out->nloops = C.loops.n;
    return MT_OK;
}

bool mt_query_cost(MtCtx *c, MtCompiled *k, const MtCostInput *in, MtCost *out)
{
    memset(out, 0, sizeof *out);
    if (!k || !k->func || mt_compiled_partial(k))
        return false;
    CostJob j = {k, in, out};
    return mt_protect(c, cost_job, &j) == MT_OK;
}
