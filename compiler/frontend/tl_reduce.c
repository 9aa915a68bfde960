/* tl_reduce.c: the handlers of reductions, scans and shape operations:
 * tl.sum / max / min / argmax / argmin / xor_sum / reduce, tl.cumsum /
 * cumprod / associative_scan, tl.softmax, tl.expand_dims / reshape / view
 * / ravel / trans / permute / broadcast_to / broadcast, tl.zeros_like /
 * full_like.
 *
 * Triton's standard library semantics, spelled out as nodes:
 *  - axis=None reduces every element: the input is reshaped to one
 *    dimension first (and keep_dims gives a block of 1s of the input's
 *    rank);
 *  - tl.sum sums integers narrower than 32 bits as i32 (u32 when unsigned,
 *    bool included) unless dtype says otherwise; tl.max / tl.min compare bf16
 *    and anything narrower than 32 bits as f32 or i32; tl.cumsum sums bf16
 *    as f32 and narrow integers as i32/u32, tl.cumprod multiplies bf16 as f32;
 *  - tl.argmax / tl.argmin and max/min(return_indices=True) reduce (value,
 *    index) pairs with Triton's combine (value1 > value2, or equal values
 *    and index1 < index2 with tie_break_left), a tl.reduce of two operands;
 *  - tl.reduce / tl.associative_scan call the @jit combine function once,
 *    on placeholder scalars, inside the nest's region. */
#include <string.h>

#include "fe.h"

static MtExpr *cast_node(Fe *fe, MtExpr *x, const MtType *to, MtSpan sp)
{
    const MtType *t = fe_type(fe, x);
    if (!t || mt_ty_elem(t) == to)
        return x;
    MtExpr *e = fe_op(fe, OP_CAST, sp, 1);
    e->args[0] = x;
    e->attr.dtype = to;
    e->hidden = true;
    return e;
}

/* The runtime block argument of fname (at sp; the call at call), with its
 * type (E0408 otherwise: a compile-time value at the argument, a scalar
 * at the call). */
static MtExpr *block_arg2(Fe *fe, FValue v, MtSpan sp, MtSpan call, const char *fname, const MtType **ty)
{
    if (v.kind != FV_EXPR) {
        fe_error(fe, sp, "E0408", "%s needs a block, got %s %s", fname, fv_kind_name(v), fv_repr(fe->c, v));
        return NULL;
    }
    *ty = fe_type(fe, v.u.e);
    if (!*ty)
        return NULL;
    if (!mt_ty_is_block(*ty)) {
        fe_error(fe, call, "E0408", "%s needs a block, got %s", fname, mt_ty_str(fe->c, *ty));
        return NULL;
    }
    return v.u.e;
}

#define block_arg(fe, v, sp, fname, ty) block_arg2(fe, v, sp, call_sp, fname, ty)

/* An axis argument: a compile-time int, or None when allowed (*axis =
 * MT_AXIS_NONE). */
static bool axis_arg(Fe *fe, FValue v, MtSpan sp, bool allow_none, const char *what, int *axis)
{
    if (v.kind == FV_NONE && allow_none) {
        *axis = MT_AXIS_NONE;
        return true;
    }
    int64_t i;
    if (!fe_static_int(fe, v, sp, what, &i))
        return false;
    *axis = (int)i;
    return true;
}

static bool flag_arg(Fe *fe, const FeArgs *a, uint32_t i, bool *out)
{
    bool ok = true;
    *out = a->given[i] && a->v[i].kind != FV_NONE ? py_truth(fe, a->v[i], a->sp[i], &ok) : false;
    return ok;
}

static MtExpr *reshape_node(Fe *fe, MtExpr *x, int rank, const int32_t *shape, MtSpan sp)
{
    MtExpr *e = fe_op(fe, OP_RESHAPE, sp, 1);
    e->args[0] = x;
    e->attr.rank = rank;
    memcpy(e->attr.shape, shape, (size_t)rank * sizeof *shape);
    return e;
}

/* axis=None on a block of rank > 1: the elements as one dimension, and
 * axis 0 (Triton reshapes the input the same way). */
static MtExpr *flatten_for_none(Fe *fe, MtExpr *x, const MtType *t, int *axis, MtSpan sp)
{
    if (*axis != MT_AXIS_NONE || t->rank == 1)
        return x;
    int32_t n = (int32_t)mt_ty_numel(t);
    *axis = 0;
    return reshape_node(fe, x, 1, &n, sp);
}

/* keep_dims with axis=None: a block of 1s of the input's rank. */
static FValue keep_all(Fe *fe, FValue r, int rank, MtSpan sp)
{
    if (r.kind != FV_EXPR)
        return r;
    int32_t ones[MT_MAX_RANK];
    for (int d = 0; d < rank; d++)
        ones[d] = 1;
    return fv_expr(reshape_node(fe, r.u.e, rank, ones, sp));
}

/* The dtype Triton's tl.sum / tl.cumsum compute in (_pick_sum_dtype). */
static const MtType *sum_type(const MtType *e)
{
    if (mt_ty_is_float(e) || mt_ty_bits(e) >= 32)
        return e;
    return mt_ty_is_signed(e) ? &mt_ty_i32 : mt_ty_scalar(MT_DT_U32);
}

/* tl.max / tl.min: bf16 and anything narrower than 32 bits as f32 or i32. */
static const MtType *minmax_type(const MtType *e)
{
    if (mt_ty_bits(e) >= 32)
        return e;
    return mt_ty_is_float(e) ? &mt_ty_f32 : &mt_ty_i32;
}

static FValue reduce_op(Fe *fe, MtOpcode op, MtExpr *x, int axis, bool keep, MtSpan sp)
{
    MtExpr *e = fe_op(fe, op, sp, 1);
    e->args[0] = x;
    e->attr.axis = axis;
    e->attr.flags = keep ? MT_KEEP_DIMS : 0;
    return fv_expr(e);
}

/* ---- tl.reduce / tl.associative_scan ------------------------------------------------------ */

typedef FValue (*CombineFn)(Fe *fe, void *ud, FValue *args, uint32_t n, MtSpan sp);

/* A nest of op over the n blocks xs (of one shape), whose combine region
 * `combine` fills from 2n placeholder scalars; returns the n results (a
 * tuple when n > 1), with hidden[i] marking results the caller drops. */
static FValue make_nest(Fe *fe, MtOpcode op, MtExpr *const *xs, uint32_t n, int axis, unsigned flags,
                        CombineFn combine, void *ud, MtSpan sp, const bool *hidden)
{
    MtExpr *e = fe_new(fe, EX_NEST, sp, n);
    e->op = (uint16_t)op;
    e->attr.axis = axis;
    e->attr.flags = (uint8_t)flags;
    MtExprNest *x = mt_arena_alloc(&fe->c->arena, sizeof *x);
    e->u.nest = x;
    x->node = e;
    x->nbodies = 1;
    MtExprBody *b = &x->body[0];
    b->nargs = 2 * n;
    b->arg = mt_arena_alloc(&fe->c->arena, (2 * n + 1) * sizeof *b->arg);
    FValue *args = mt_arena_alloc(&fe->c->arena, (2 * n + 1) * sizeof *args);
    for (uint32_t i = 0; i < n; i++) {
        e->args[i] = xs[i];
        const MtType *t = fe_type(fe, xs[i]);
        if (!t)
            return fv_undef();
        for (uint32_t k = 0; k < 2; k++) {
            MtExpr *p = fe_new(fe, EX_NEST_ARG, sp, 0);
            p->u.nslot.nest = x;
            p->u.nslot.body = 0;
            p->u.nslot.index = k * n + i;
            p->ty = mt_ty_elem(t);
            b->arg[k * n + i] = p;
            args[k * n + i] = fv_expr(p);
        }
    }
    Region inner = {.roots = &b->roots, .parent = fe->region};
    Region *saved = fe->region;
    fe->region = &inner;
    FValue r = combine(fe, ud, args, 2 * n, sp);
    fe->region = saved;
    if (r.kind == FV_UNDEF)
        return r;
    FValue one[1] = {r};
    FValue *rs = one;
    uint32_t nr = 1;
    if (r.kind == FV_TUPLE) {
        rs = r.u.tup.v;
        nr = r.u.tup.n;
    }
    if (nr != n) {
        fe_error(fe, sp, "E0408", "the combine function of %s returns %u value%s for %u operand%s",
                 mt_op_info[op].py, nr, nr == 1 ? "" : "s", n, n == 1 ? "" : "s");
        return fv_undef();
    }
    b->nyield = n;
    b->yield = mt_arena_alloc(&fe->c->arena, (n + 1) * sizeof *b->yield);
    for (uint32_t i = 0; i < n; i++)
        if (!(b->yield[i] = fe_to_expr(fe, rs[i], sp)))
            return fv_undef();
    x->nresults = n;
    x->result = mt_arena_alloc(&fe->c->arena, (n + 1) * sizeof *x->result);
    FValue out = {.kind = FV_TUPLE};
    out.u.tup.v = mt_arena_alloc(&fe->c->arena, (n + 1) * sizeof *out.u.tup.v);
    out.u.tup.n = n;
    for (uint32_t i = 0; i < n; i++) {
        MtExpr *res = fe_new(fe, EX_NEST_RESULT, sp, 0);
        res->u.nslot.nest = x;
        res->u.nslot.index = i;
        res->hidden = hidden && hidden[i];
        x->result[i] = res;
        out.u.tup.v[i] = fv_expr(res);
    }
    for (uint32_t i = 0; i < n; i++)
        if (!fe_type(fe, x->result[i]))
            return fv_undef();
    return n == 1 ? out.u.tup.v[0] : out;
}

/* The user's combine function: a @jit function (or a tl builtin) called
 * with the placeholders. */
static FValue call_combine(Fe *fe, void *ud, FValue *args, uint32_t n, MtSpan sp)
{
    const FValue *fn = ud;
    MtSpan *spans = mt_arena_alloc(&fe->c->arena, (n + 1) * sizeof *spans);
    for (uint32_t i = 0; i < n; i++)
        spans[i] = sp;
    CallArgs ca = {.pos = args, .pos_span = spans, .npos = n};
    if (fn->kind == FV_FUNC)
        return fe_call_jit(fe, fn->u.fn, &ca, sp);
    return fe_call_builtin(fe, fn->u.builtin, &ca, sp);
}

/* The operands of tl.reduce / tl.associative_scan: one block or a tuple
 * of blocks of one shape. */
static uint32_t nest_operands(Fe *fe, FValue v, MtSpan sp, MtSpan call_sp, const char *fname, MtExpr ***out)
{
    FValue one[1] = {v};
    FValue *items = one;
    uint32_t n = 1;
    if (v.kind == FV_TUPLE) {
        items = v.u.tup.v;
        n = v.u.tup.n;
    }
    if (n == 0) {
        fe_error(fe, sp, "E0408", "%s needs at least one block", fname);
        return 0;
    }
    *out = mt_arena_alloc(&fe->c->arena, (n + 1) * sizeof **out);
    for (uint32_t i = 0; i < n; i++) {
        const MtType *t;
        if (!((*out)[i] = block_arg(fe, items[i], sp, fname, &t)))
            return 0;
    }
    return n;
}

static bool combine_arg(Fe *fe, FValue fn, MtSpan sp, const char *fname)
{
    if (fn.kind == FV_FUNC || fn.kind == FV_BUILTIN)
        return true;
    fe_error(fe, sp, "E0408", "%s combine_fn must be a @triton.jit function, got %s", fname, fv_kind_name(fn));
    return false;
}

FValue b_reduce_fn(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const char *fname = fe_builtin_display(fe, bi);
    MtExpr **xs;
    uint32_t n = nest_operands(fe, a->v[0], a->sp[0], sp, fname, &xs);
    int axis;
    bool keep;
    if (!n || !axis_arg(fe, a->v[1], a->sp[1], true, "the reduction axis", &axis) ||
        !combine_arg(fe, a->v[2], a->sp[2], fname) || !flag_arg(fe, a, 3, &keep))
        return fv_undef();
    const MtType *t0 = fe_type(fe, xs[0]);
    bool none = axis == MT_AXIS_NONE;
    for (uint32_t i = 0; i < n; i++) {
        int ax = axis;
        xs[i] = flatten_for_none(fe, xs[i], fe_type(fe, xs[i]), &ax, sp);
    }
    if (none)
        axis = 0;
    FValue fn = a->v[2];
    FValue r = make_nest(fe, OP_REDUCE, xs, n, axis, keep && !none ? MT_KEEP_DIMS : 0, call_combine, &fn, sp, NULL);
    if (!keep || !none || r.kind == FV_UNDEF)
        return r;
    if (r.kind != FV_TUPLE)
        return keep_all(fe, r, t0->rank, sp);
    for (uint32_t i = 0; i < r.u.tup.n; i++)
        r.u.tup.v[i] = keep_all(fe, r.u.tup.v[i], t0->rank, sp);
    return r;
}

FValue b_scan_fn(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const char *fname = fe_builtin_display(fe, bi);
    MtExpr **xs;
    uint32_t n = nest_operands(fe, a->v[0], a->sp[0], sp, fname, &xs);
    int axis;
    bool reverse;
    if (!n || !axis_arg(fe, a->v[1], a->sp[1], false, "the scan axis", &axis) ||
        !combine_arg(fe, a->v[2], a->sp[2], fname) || !flag_arg(fe, a, 3, &reverse))
        return fv_undef();
    FValue fn = a->v[2];
    return make_nest(fe, OP_SCAN, xs, n, axis, reverse ? MT_REVERSE : 0, call_combine, &fn, sp, NULL);
}

/* ---- argmax / argmin --------------------------------------------------------------------- */

typedef struct ArgCombine {
    bool max;
    bool tie_left;
} ArgCombine;

/* Triton's _argmax_combine / _argmin_combine on (value1, index1, value2, index2). */
static FValue arg_combine(Fe *fe, void *ud, FValue *args, uint32_t n, MtSpan sp)
{
    const ArgCombine *c = ud;
    FValue v1 = args[0], i1 = args[1], v2 = args[2], i2 = args[3];
    FValue better = fe_binary(fe, c->max ? OP_CMP_GT : OP_CMP_LT, v1, v2, sp);
    if (c->tie_left) {
        FValue tie = fe_binary(fe, OP_AND, fe_binary(fe, OP_CMP_EQ, v1, v2, sp), fe_binary(fe, OP_CMP_LT, i1, i2, sp), sp);
        better = fe_binary(fe, OP_OR, better, tie, sp);
    }
    if (better.kind != FV_EXPR)
        return fv_undef();
    FValue out = {.kind = FV_TUPLE};
    out.u.tup.v = mt_arena_alloc(&fe->c->arena, 2 * sizeof *out.u.tup.v);
    out.u.tup.n = 2;
    for (int k = 0; k < 2; k++) {
        MtExpr *s = fe_op(fe, OP_SELECT, sp, 3);
        s->args[0] = better.u.e;
        s->args[1] = (k ? i1 : v1).u.e;
        s->args[2] = (k ? i2 : v2).u.e;
        out.u.tup.v[k] = fv_expr(s);
    }
    (void)n;
    return out;
}

/* (values, indices) of the maximum or minimum along axis. */
static FValue reduce_with_indices(Fe *fe, MtExpr *x, const MtType *t, int axis, bool max, bool tie_left, bool keep,
                                  bool want_value, MtSpan sp)
{
    if (t->elem == mt_ty_scalar(MT_DT_BF16))
        x = cast_node(fe, x, &mt_ty_f32, sp);
    bool none = axis == MT_AXIS_NONE;
    x = flatten_for_none(fe, x, t, &axis, sp);
    const MtType *xt = fe_type(fe, x);
    if (!xt)
        return fv_undef();
    if (axis < -xt->rank || axis >= xt->rank) {
        fe_error(fe, sp, "E0408", "tl.%s axis %d is out of range for %s", max ? "argmax" : "argmin", axis,
                 mt_ty_str(fe->c, xt));
        return fv_undef();
    }
    if (axis < 0)
        axis += xt->rank;
    /* index: arange(0, n) along the axis, broadcast to the input's shape */
    MtExpr *idx = fe_op(fe, OP_ARANGE, sp, 0);
    idx->attr.start = 0;
    idx->attr.end = xt->shape[axis];
    idx->hidden = true;
    if (xt->rank > 1) {
        for (int d = 0; d < xt->rank; d++) {
            if (d == axis)
                continue;
            MtExpr *ex = fe_op(fe, OP_EXPAND_DIMS, sp, 1);
            ex->args[0] = idx;
            ex->attr.axis = d;
            idx = ex;
        }
        MtExpr *bc = fe_op(fe, OP_BROADCAST, sp, 1);
        bc->args[0] = idx;
        bc->attr.rank = xt->rank;
        memcpy(bc->attr.shape, xt->shape, sizeof xt->shape);
        idx = bc;
    }
    MtExpr *xs[2] = {x, idx};
    ArgCombine c = {max, tie_left};
    bool hidden[2] = {!want_value, false};
    FValue r = make_nest(fe, OP_REDUCE, xs, 2, axis, keep && !none ? MT_KEEP_DIMS : 0, arg_combine, &c, sp, hidden);
    if (r.kind != FV_TUPLE || !keep || !none)
        return r;
    for (uint32_t i = 0; i < 2; i++)
        r.u.tup.v[i] = keep_all(fe, r.u.tup.v[i], t->rank, sp);
    return r;
}

FValue b_argminmax(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    MtSpan call_sp = sp;
    const char *fname = fe_builtin_display(fe, bi);
    const MtType *t;
    MtExpr *x = block_arg(fe, a->v[0], a->sp[0], fname, &t);
    int axis;
    bool tie, keep;
    if (!x || !axis_arg(fe, a->v[1], a->sp[1], true, "the reduction axis", &axis) || !flag_arg(fe, a, 3, &keep))
        return fv_undef();
    tie = true;
    if (a->given[2] && !flag_arg(fe, a, 2, &tie))
        return fv_undef();
    FValue r = reduce_with_indices(fe, x, t, axis, bi->op == OP_MAX, tie, keep, false, sp);
    return r.kind == FV_TUPLE ? r.u.tup.v[1] : r;
}

/* ---- sum, max, min, xor_sum -------------------------------------------------------------- */

FValue b_reduce(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    MtSpan call_sp = sp;
    const char *fname = fe_builtin_display(fe, bi);
    const MtType *t;
    MtExpr *x = block_arg(fe, a->v[0], a->sp[0], fname, &t);
    int axis;
    if (!x || !axis_arg(fe, a->v[1], a->sp[1], true, "the reduction axis", &axis))
        return fv_undef();
    MtOpcode op = (MtOpcode)bi->op;
    bool keep;
    uint32_t keep_at = op == OP_SUM || op == OP_XOR_SUM ? 2 : 4;
    if (!flag_arg(fe, a, keep_at, &keep))
        return fv_undef();
    const MtType *el = t->elem;
    if (op == OP_MAX || op == OP_MIN) {
        bool indices, tie = true;
        if (!flag_arg(fe, a, 2, &indices) || (a->given[3] && !flag_arg(fe, a, 3, &tie)))
            return fv_undef();
        if (indices)
            return reduce_with_indices(fe, x, t, axis, op == OP_MAX, tie, keep, true, sp);
        if (mt_ty_is_scalar(el))
            x = cast_node(fe, x, minmax_type(el), sp);
    } else if (op == OP_SUM) {
        const MtType *dt = NULL;
        if (a->v[3].kind != FV_NONE && !fe_dtype_arg(fe, a->v[3], a->sp[3], fname, &dt))
            return fv_undef();
        if (mt_ty_is_scalar(el))
            x = cast_node(fe, x, dt ? dt : sum_type(el), sp);
    } else if (!mt_ty_is_intlike(el)) {
        fe_error(fe, a->sp[0], "E0408", "tl.xor_sum needs integers, got %s", mt_ty_str(fe->c, t));
        return fv_undef();
    }
    bool none = axis == MT_AXIS_NONE;
    x = flatten_for_none(fe, x, t, &axis, sp);
    FValue r = reduce_op(fe, op, x, axis, keep && !(none && t->rank > 1), sp);
    return keep && none && t->rank > 1 ? keep_all(fe, r, t->rank, sp) : r;
}

/* ---- cumsum, cumprod ----------------------------------------------------------------------- */

FValue b_scan(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    MtSpan call_sp = sp;
    const char *fname = fe_builtin_display(fe, bi);
    const MtType *t;
    MtExpr *x = block_arg(fe, a->v[0], a->sp[0], fname, &t);
    int axis;
    bool reverse;
    if (!x || !axis_arg(fe, a->v[1], a->sp[1], false, "the scan axis", &axis) || !flag_arg(fe, a, 2, &reverse))
        return fv_undef();
    const MtType *el = t->elem;
    if (el == mt_ty_scalar(MT_DT_BF16))
        el = &mt_ty_f32;
    if (bi->op == OP_CUMSUM) {
        const MtType *dt = NULL;
        if (a->v[3].kind != FV_NONE && !fe_dtype_arg(fe, a->v[3], a->sp[3], fname, &dt))
            return fv_undef();
        if (mt_ty_is_scalar(el))
            el = dt ? dt : sum_type(el);
    }
    if (mt_ty_is_scalar(el))
        x = cast_node(fe, x, el, sp);
    MtExpr *e = fe_op(fe, (MtOpcode)bi->op, sp, 1);
    e->args[0] = x;
    e->attr.axis = axis;
    e->attr.flags = reverse ? MT_REVERSE : 0;
    return fv_expr(e);
}

/* ---- softmax ----------------------------------------------------------------------------- */

/* Triton's standard library: z = x - max(x, dim, keep_dims); num = exp(z);
 * den = sum(num, dim, keep_dims); fdiv(num, den). */
FValue b_softmax(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    MtSpan call_sp = sp;
    const MtType *t;
    MtExpr *x = block_arg(fe, a->v[0], a->sp[0], "tl.softmax", &t);
    int dim;
    bool keep;
    if (!x || !axis_arg(fe, a->v[1], a->sp[1], true, "the softmax dim", &dim) || !flag_arg(fe, a, 2, &keep))
        return fv_undef();
    if (dim == MT_AXIS_NONE)
        dim = 0;
    MtExpr *mx = cast_node(fe, x, minmax_type(t->elem), sp);
    FValue m = reduce_op(fe, OP_MAX, mx, dim, keep, sp);
    FValue z = fe_binary(fe, OP_SUB, fv_expr(x), m, sp);
    if (z.kind != FV_EXPR)
        return z;
    MtExpr *num = fe_op(fe, OP_EXP, sp, 1);
    num->args[0] = z.u.e;
    const MtType *nt = fe_type(fe, num);
    if (!nt)
        return fv_undef();
    MtExpr *sx = cast_node(fe, num, sum_type(nt->elem), sp);
    FValue den = reduce_op(fe, OP_SUM, sx, dim, keep, sp);
    MtExpr *d = fe_op(fe, OP_FDIV, sp, 2);
    d->args[0] = num;
    d->args[1] = den.u.e;
    return fv_expr(d);
}

/* ---- shapes -------------------------------------------------------------------------------- */

/* Triton's _unwrap_iterable: f(x, 2, 3) and f(x, (2, 3)) alike. */
static FValue unwrap(FValue v)
{
    if (v.kind == FV_TUPLE && v.u.tup.n == 1 && v.u.tup.v[0].kind == FV_TUPLE)
        return v.u.tup.v[0];
    return v;
}

FValue b_expand_dims(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    MtExpr *x = fe_to_expr(fe, a->v[0], a->sp[0]);
    const MtType *t = x ? fe_type(fe, x) : NULL;
    if (!t)
        return fv_undef();
    FValue ax = a->v[1];
    FValue one[1] = {ax};
    FValue *items = ax.kind == FV_TUPLE ? ax.u.tup.v : one;
    uint32_t n = ax.kind == FV_TUPLE ? ax.u.tup.n : 1;
    int rank = mt_ty_rank(t) + (int)n;
    int axes[MT_MAX_RANK + 8];
    if (n > MT_MAX_RANK) {
        fe_error(fe, a->sp[1], "E0415", "tl.expand_dims would give rank %d; blocks have at most %d dimensions", rank,
                 MT_MAX_RANK);
        return fv_undef();
    }
    for (uint32_t i = 0; i < n; i++) {
        int64_t v;
        if (!fe_static_int(fe, items[i], a->sp[1], "tl.expand_dims axis", &v))
            return fv_undef();
        if (v < -rank || v >= rank) {
            fe_error(fe, a->sp[1], "E0407", "tl.expand_dims axis %lld is out of range for a result of rank %d",
                     (long long)v, rank);
            return fv_undef();
        }
        axes[i] = (int)(v < 0 ? v + rank : v);
        for (uint32_t k = 0; k < i; k++)
            if (axes[k] == axes[i]) {
                fe_error(fe, a->sp[1], "E0407", "tl.expand_dims axes repeat %d", axes[i]);
                return fv_undef();
            }
    }
    /* in increasing order, as Triton inserts them */
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t k = i; k > 0 && axes[k - 1] > axes[k]; k--) {
            int tmp = axes[k];
            axes[k] = axes[k - 1];
            axes[k - 1] = tmp;
        }
    for (uint32_t i = 0; i < n; i++) {
        MtExpr *e = fe_op(fe, OP_EXPAND_DIMS, sp, 1);
        e->attr.axis = axes[i];
        e->args[0] = x;
        x = e;
    }
    return fv_expr(x);
}

FValue b_reshape(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const char *fname = fe_builtin_display(fe, bi);
    MtExpr *x = fe_to_expr(fe, a->v[0], a->sp[0]);
    int rank;
    int32_t shape[MT_MAX_RANK];
    if (!x || !fe_shape_arg(fe, unwrap(a->v[1]), a->sp[1], fname, &rank, shape))
        return fv_undef();
    return fv_expr(reshape_node(fe, x, rank, shape, sp));
}

FValue b_ravel(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    MtExpr *x = fe_to_expr(fe, a->v[0], a->sp[0]);
    const MtType *t = x ? fe_type(fe, x) : NULL;
    if (!t)
        return fv_undef();
    int32_t n = (int32_t)mt_ty_numel(t);
    return fv_expr(reshape_node(fe, x, 1, &n, sp));
}

/* tl.trans (op 1: no dims is a transpose) and tl.permute. */
FValue b_permute(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const char *fname = fe_builtin_display(fe, bi);
    MtExpr *x = fe_to_expr(fe, a->v[0], a->sp[0]);
    if (!x)
        return fv_undef();
    FValue dims = unwrap(a->v[1]);
    MtExpr *e = fe_op(fe, OP_PERMUTE, sp, 1);
    e->args[0] = x;
    if (dims.kind == FV_TUPLE && dims.u.tup.n == 0 && bi->op == 1) {
        e->attr.rank = 2;
        e->attr.shape[0] = 1;
        e->attr.shape[1] = 0;
        return fv_expr(e);
    }
    FValue one[1] = {dims};
    FValue *items = dims.kind == FV_TUPLE ? dims.u.tup.v : one;
    uint32_t n = dims.kind == FV_TUPLE ? dims.u.tup.n : 1;
    if (n > MT_MAX_RANK) {
        fe_error(fe, a->sp[1], "E0418", "%s order has %u entries; blocks have at most %d dimensions", fname, n,
                 MT_MAX_RANK);
        return fv_undef();
    }
    for (uint32_t i = 0; i < n; i++) {
        int64_t d;
        if (!fe_static_int(fe, items[i], a->sp[1], "a dimension", &d))
            return fv_undef();
        e->attr.shape[i] = (int32_t)d;
    }
    e->attr.rank = (int)n;
    return fv_expr(e);
}

static MtExpr *broadcast_node(Fe *fe, MtExpr *x, int rank, const int32_t *shape, MtSpan sp)
{
    MtExpr *e = fe_op(fe, OP_BROADCAST, sp, 1);
    e->args[0] = x;
    e->attr.rank = rank;
    memcpy(e->attr.shape, shape, (size_t)rank * sizeof *shape);
    return e;
}

FValue b_broadcast_to(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const char *fname = fe_builtin_display(fe, bi);
    MtExpr *x = fe_to_expr(fe, a->v[0], a->sp[0]);
    int rank;
    int32_t shape[MT_MAX_RANK];
    if (!x || !fe_shape_arg(fe, unwrap(a->v[1]), a->sp[1], fname, &rank, shape))
        return fv_undef();
    return fv_expr(broadcast_node(fe, x, rank, shape, sp));
}

/* tl.broadcast(a, b): both to their common shape (a scalar stays one). */
FValue b_broadcast(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    MtExpr *x = fe_to_expr(fe, a->v[0], a->sp[0]), *y = fe_to_expr(fe, a->v[1], a->sp[1]);
    const MtType *tx = x ? fe_type(fe, x) : NULL, *ty = y ? fe_type(fe, y) : NULL;
    if (!tx || !ty)
        return fv_undef();
    int rank;
    int32_t shape[MT_MAX_RANK];
    if (!mt_broadcast(tx, ty, &rank, shape)) {
        fe_error(fe, sp, "E0402", "tl.broadcast: %s and %s do not broadcast", mt_ty_str(fe->c, tx),
                 mt_ty_str(fe->c, ty));
        return fv_undef();
    }
    MtExpr *r[2] = {x, y};
    const MtType *ts[2] = {tx, ty};
    for (int i = 0; i < 2 && rank; i++) {
        int32_t full[MT_MAX_RANK];
        int lead = rank - mt_ty_rank(ts[i]);
        for (int d = 0; d < rank; d++)
            full[d] = d < lead ? 1 : ts[i]->shape[d - lead];
        if (lead && mt_ty_rank(ts[i]))
            r[i] = reshape_node(fe, r[i], rank, full, sp);
        r[i] = broadcast_node(fe, r[i], rank, shape, sp);
    }
    FValue out = {.kind = FV_TUPLE};
    out.u.tup.v = mt_arena_alloc(&fe->c->arena, 2 * sizeof *out.u.tup.v);
    out.u.tup.n = 2;
    out.u.tup.v[0] = fv_expr(r[0]);
    out.u.tup.v[1] = fv_expr(r[1]);
    return out;
}

/* tl.zeros_like / tl.full_like: a factory of the input's shape and type. */
static FValue like(Fe *fe, FValue in, MtSpan isp, FValue fill, const MtType *dtype, MtSpan sp, const char *fname)
{
    MtExpr *x = fe_to_expr(fe, in, isp);
    const MtType *t = x ? fe_type(fe, x) : NULL;
    if (!t)
        return fv_undef();
    if (!mt_ty_is_block(t)) {
        fe_error(fe, isp, "E0409", "%s needs a block, got %s", fname, mt_ty_str(fe->c, t));
        return fv_undef();
    }
    MtExpr *f = NULL;
    if (fill.kind != FV_UNDEF) {
        double v;
        const MtType *dt = dtype ? dtype : t->elem;
        if (fv_is_number(fill) && py_as_double(fill, &v))
            fill = mt_ty_is_float(dt) ? fv_float(v) : mt_ty_is_bool(dt) ? fv_bool(v != 0)
                   : fill.kind == FV_FLOAT ? fv_int((int64_t)v) : fill;
        if (!(f = fe_to_expr(fe, fill, sp)))
            return fv_undef();
    }
    MtExpr *e = fe_op(fe, f ? OP_FULL : OP_ZEROS, sp, f ? 1 : 0);
    e->attr.rank = t->rank;
    memcpy(e->attr.shape, t->shape, sizeof t->shape);
    e->attr.dtype = dtype ? dtype : t->elem;
    if (f)
        e->args[0] = f;
    return fv_expr(e);
}

FValue b_zeros_like(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    return like(fe, a->v[0], a->sp[0], (FValue){.kind = FV_UNDEF}, NULL, sp, "tl.zeros_like");
}

FValue b_full_like(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const MtType *dt = NULL;
    if (a->v[2].kind != FV_NONE && !fe_dtype_arg(fe, a->v[2], a->sp[2], "tl.full_like", &dt))
        return fv_undef();
    return like(fe, a->v[0], a->sp[0], a->v[1], dt, sp, "tl.full_like");
}
