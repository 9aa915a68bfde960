/* tl_blockptr.c: block pointers, memory-access hints and the compiler
 * hints of tl (multiple_of, max_contiguous, max_constancy, assume).
 *
 * A block pointer (tl.make_block_ptr) never reaches the IR: it is a
 * compile-time structure of values (FeBlockPtr), tl.advance adds to its
 * offsets, and a tl.load / tl.store through it becomes an ordinary block
 * of pointers,
 *     base + sum over d of (offsets[d] + arange(0, block[d])) * strides[d]
 * (each term expanded along its dimension, in i64 as Triton computes
 * them), with a mask for the dimensions of boundary_check:
 *     0 <= offsets[d] + arange(0, block[d]) < shape[d]
 * and `other` from padding_option ("zero" or "" gives 0, "nan" NaN). In
 * runtime loops its runtime parts are carried one by one (frontend.c). */
#include <math.h>
#include <string.h>

#include "fe.h"

/* A tuple (or a single value) of n entries, each checked by `ok`. */
static bool tuple_arg(Fe *fe, FValue v, MtSpan sp, const char *what, uint32_t *n, FValue *out)
{
    FValue one[1] = {v};
    FValue *items = v.kind == FV_TUPLE ? v.u.tup.v : one;
    uint32_t k = v.kind == FV_TUPLE ? v.u.tup.n : 1;
    if (k == 0 || k > MT_MAX_RANK) {
        fe_error(fe, sp, "E0406", "tl.make_block_ptr %s needs 1 to %d entries, got %u", what, MT_MAX_RANK, k);
        return false;
    }
    for (uint32_t i = 0; i < k; i++) {
        if (items[i].kind != FV_EXPR && items[i].kind != FV_INT && items[i].kind != FV_BOOL) {
            fe_error(fe, sp, "E0406", "tl.make_block_ptr %s entries are integers, got %s", what,
                     fv_kind_name(items[i]));
            return false;
        }
        out[i] = items[i];
    }
    *n = k;
    return true;
}

static bool static_ints(Fe *fe, FValue v, MtSpan sp, const char *what, uint32_t want, int32_t *out)
{
    FValue one[1] = {v};
    FValue *items = v.kind == FV_TUPLE ? v.u.tup.v : one;
    uint32_t k = v.kind == FV_TUPLE ? v.u.tup.n : 1;
    if (k != want) {
        fe_error(fe, sp, "E0406", "tl.make_block_ptr %s has %u entries, but the pointer has rank %u", what, k, want);
        return false;
    }
    for (uint32_t i = 0; i < k; i++) {
        int64_t x;
        if (!fe_static_int(fe, items[i], sp, what, &x))
            return false;
        out[i] = (int32_t)x;
    }
    return true;
}

FValue b_make_block_ptr(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    FeBlockPtr *bp = mt_arena_alloc(&fe->c->arena, sizeof *bp);
    MtExpr *base = fe_to_expr(fe, a->v[0], a->sp[0]);
    if (base)
        fe_mark_pointer(fe, base); /* `base=Q + off` makes an untyped Q a pointer, as a load's address */
    const MtType *bt = base ? fe_type(fe, base) : NULL;
    if (!bt)
        return fv_undef();
    if (bt->kind != TY_PTR) {
        fe_error(fe, a->sp[0], "E0406", "tl.make_block_ptr base must be a scalar pointer, got %s",
                 mt_ty_str(fe->c, bt));
        return fv_undef();
    }
    bp->base = fv_expr(base);
    uint32_t n[3];
    if (!tuple_arg(fe, a->v[1], a->sp[1], "shape", &n[0], bp->shape) ||
        !tuple_arg(fe, a->v[2], a->sp[2], "strides", &n[1], bp->strides) ||
        !tuple_arg(fe, a->v[3], a->sp[3], "offsets", &n[2], bp->offsets))
        return fv_undef();
    if (n[1] != n[0] || n[2] != n[0]) {
        fe_error(fe, sp, "E0406", "tl.make_block_ptr shape, strides and offsets differ in length (%u, %u, %u)", n[0],
                 n[1], n[2]);
        return fv_undef();
    }
    bp->rank = (int)n[0];
    if (!static_ints(fe, a->v[4], a->sp[4], "block_shape", n[0], bp->block) ||
        !static_ints(fe, a->v[5], a->sp[5], "order", n[0], bp->order))
        return fv_undef();
    for (int d = 0; d < bp->rank; d++)
        if (bp->block[d] <= 0 || (bp->block[d] & (bp->block[d] - 1))) {
            fe_error(fe, a->sp[4], "E0406", "tl.make_block_ptr block_shape entries must be powers of two, got %d",
                     bp->block[d]);
            return fv_undef();
        }
    return (FValue){.kind = FV_BLOCKPTR, .u.bp = bp};
}

FValue b_advance(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    if (a->v[0].kind != FV_BLOCKPTR) {
        fe_error(fe, a->sp[0], "E0406", "tl.advance needs a block pointer (tl.make_block_ptr), got %s",
                 fv_kind_name(a->v[0]));
        return fv_undef();
    }
    const FeBlockPtr *old = a->v[0].u.bp;
    FValue offs[MT_MAX_RANK];
    uint32_t n;
    if (!tuple_arg(fe, a->v[1], a->sp[1], "offsets", &n, offs))
        return fv_undef();
    if ((int)n != old->rank) {
        fe_error(fe, a->sp[1], "E0406", "tl.advance offsets have %u entries, but the block pointer has rank %d", n,
                 old->rank);
        return fv_undef();
    }
    FeBlockPtr *bp = mt_arena_alloc(&fe->c->arena, sizeof *bp);
    *bp = *old;
    for (int d = 0; d < bp->rank; d++) {
        bp->offsets[d] = fv_is_number(bp->offsets[d]) && fv_is_number(offs[d])
                             ? py_binop(fe, OP_PLUS, bp->offsets[d], offs[d], sp)
                             : fe_binary(fe, OP_ADD, bp->offsets[d], offs[d], sp);
        if (bp->offsets[d].kind == FV_UNDEF)
            return fv_undef();
    }
    return (FValue){.kind = FV_BLOCKPTR, .u.bp = bp};
}

/* An i64 runtime value of v (a number or a runtime integer). */
static FValue as_i64(Fe *fe, FValue v, MtSpan sp)
{
    MtExpr *e = fe_to_expr(fe, v, sp);
    const MtType *t = e ? fe_type(fe, e) : NULL;
    if (!t)
        return fv_undef();
    if (t == mt_ty_scalar(MT_DT_I64))
        return fv_expr(e);
    MtExpr *c = fe_op(fe, OP_CAST, sp, 1);
    c->args[0] = e;
    c->attr.dtype = mt_ty_scalar(MT_DT_I64);
    c->hidden = true;
    return fv_expr(c);
}

/* (offsets[d] + arange(0, block[d])) expanded along dimension d of rank. */
static FValue coord(Fe *fe, const FeBlockPtr *bp, int d, MtSpan sp)
{
    MtExpr *r = fe_op(fe, OP_ARANGE, sp, 0);
    r->attr.start = 0;
    r->attr.end = bp->block[d];
    r->hidden = true;
    FValue c = fe_binary(fe, OP_ADD, bp->offsets[d], fv_expr(r), sp);
    for (int k = 0; k < bp->rank && c.kind == FV_EXPR; k++) {
        if (k == d)
            continue;
        MtExpr *e = fe_op(fe, OP_EXPAND_DIMS, sp, 1);
        e->args[0] = c.u.e;
        e->attr.axis = k;
        e->hidden = true;
        c = fv_expr(e);
    }
    return c;
}

/* The pointer block and mask of an access through bp; false after an error. */
static bool lower_access(Fe *fe, const FeBlockPtr *bp, FValue check, MtSpan csp, MtSpan sp, MtExpr **ptr,
                         MtExpr **mask)
{
    bool checked[MT_MAX_RANK] = {false};
    FValue one[1] = {check};
    FValue *items = check.kind == FV_TUPLE ? check.u.tup.v : one;
    uint32_t n = check.kind == FV_TUPLE ? check.u.tup.n : check.kind == FV_NONE ? 0 : 1;
    for (uint32_t i = 0; i < n; i++) {
        int64_t d;
        if (!fe_static_int(fe, items[i], csp, "a boundary_check dimension", &d))
            return false;
        if (d < 0 || d >= bp->rank) {
            fe_error(fe, csp, "E0406", "boundary_check dimension %lld is out of range for a block pointer of rank %d",
                     (long long)d, bp->rank);
            return false;
        }
        checked[d] = true;
    }
    FValue p = bp->base, m = fv_none();
    for (int d = 0; d < bp->rank; d++) {
        FValue c = coord(fe, bp, d, sp);
        FValue off = fe_binary(fe, OP_MUL, as_i64(fe, c, sp), as_i64(fe, bp->strides[d], sp), sp);
        p = fe_binary(fe, OP_ADD, p, off, sp);
        if (checked[d]) {
            FValue in = fe_binary(fe, OP_AND, fe_binary(fe, OP_CMP_GE, c, fv_int(0), sp),
                                  fe_binary(fe, OP_CMP_LT, as_i64(fe, c, sp), as_i64(fe, bp->shape[d], sp), sp), sp);
            m = m.kind == FV_NONE ? in : fe_binary(fe, OP_AND, m, in, sp);
        }
        if (p.kind != FV_EXPR || (checked[d] && m.kind != FV_EXPR))
            return false;
    }
    *ptr = p.u.e;
    *mask = m.kind == FV_EXPR ? m.u.e : NULL;
    return true;
}

/* Triton's checks of the cache and eviction hints (accepted, no effect). */
bool fe_cache_hints(Fe *fe, const FeArgs *a, int cache, int evict, const char *fname)
{
    static const char *const caches[] = {"", ".ca", ".cg", ".cv", ".wb", ".cs", ".wt"};
    static const char *const evicts[] = {"", "evict_normal", "evict_first", "evict_last", "no_allocate"};
    const char *const *sets[2] = {caches, evicts};
    size_t sizes[2] = {sizeof caches / sizeof *caches, sizeof evicts / sizeof *evicts};
    int at[2] = {cache, evict};
    for (int k = 0; k < 2; k++) {
        FValue v = a->v[at[k]];
        if (!a->given[at[k]] || v.kind == FV_NONE)
            continue;
        bool ok = v.kind == FV_STR;
        if (ok) {
            ok = false;
            for (size_t i = 0; i < sizes[k] && !ok; i++)
                ok = !strcmp(v.u.s, sets[k][i]);
        }
        if (!ok) {
            fe_error(fe, a->sp[at[k]], "E0406", "%s %s must be one of %s, got %s", fname,
                     k ? "eviction_policy" : "cache_modifier",
                     k ? "'', 'evict_normal', 'evict_first', 'evict_last', 'no_allocate'"
                       : "'', '.ca', '.cg', '.cv', '.wb', '.cs', '.wt'",
                     fv_repr(fe->c, v));
            return false;
        }
    }
    return true;
}

/* tl.load through a block pointer: pointer, mask=None, other=None,
 * boundary_check=(), padding_option='' */
bool fe_blockptr_load(Fe *fe, const FeArgs *a, MtSpan sp, MtExpr **ptr, MtExpr **mask, MtExpr **other)
{
    const FeBlockPtr *bp = a->v[0].u.bp;
    if (a->v[1].kind != FV_NONE || a->v[2].kind != FV_NONE) {
        fe_error(fe, a->given[1] ? a->sp[1] : a->sp[2], "E0406",
                 "tl.load through a block pointer takes boundary_check and padding_option, not mask or other");
        return false;
    }
    FValue pad = a->v[4];
    if (pad.kind != FV_STR || (strcmp(pad.u.s, "") && strcmp(pad.u.s, "zero") && strcmp(pad.u.s, "nan"))) {
        fe_error(fe, a->sp[4], "E0406", "padding_option must be '', 'zero' or 'nan', got %s", fv_repr(fe->c, pad));
        return false;
    }
    if (!lower_access(fe, bp, a->v[3], a->sp[3], sp, ptr, mask))
        return false;
    *other = NULL;
    if (*mask)
        *other = fe_to_expr(fe, !strcmp(pad.u.s, "nan") ? fv_float(NAN) : fv_int(0), sp);
    return true;
}

/* tl.store through a block pointer: pointer, value, mask=None, boundary_check=() */
bool fe_blockptr_store(Fe *fe, const FeArgs *a, MtSpan sp, MtExpr **ptr, MtExpr **mask)
{
    if (a->v[2].kind != FV_NONE) {
        fe_error(fe, a->sp[2], "E0406", "tl.store through a block pointer takes boundary_check, not mask");
        return false;
    }
    return lower_access(fe, a->v[0].u.bp, a->v[3], a->sp[3], sp, ptr, mask);
}

/* ---- compiler hints ------------------------------------------------------------------------ */

/* tl.multiple_of / max_contiguous / max_constancy(input, values): the
 * input, marked with a fact the GPU lowering may use (vectorisation). */
FValue b_hint(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const char *fname = fe_builtin_display(fe, bi);
    MtExpr *x = fe_to_expr(fe, a->v[0], a->sp[0]);
    const MtType *t = x ? fe_type(fe, x) : NULL;
    if (!t)
        return fv_undef();
    if (!mt_ty_is_intlike(mt_ty_elem(t)) || mt_ty_is_bool(mt_ty_elem(t))) {
        fe_error(fe, a->sp[0], "E0406", "%s applies to integers, got %s", fname, mt_ty_str(fe->c, t));
        return fv_undef();
    }
    FValue one[1] = {a->v[1]};
    FValue *items = a->v[1].kind == FV_TUPLE ? a->v[1].u.tup.v : one;
    uint32_t n = a->v[1].kind == FV_TUPLE ? a->v[1].u.tup.n : 1;
    uint32_t rank = (uint32_t)mt_ty_rank(t);
    if (n != (rank ? rank : 1)) {
        fe_error(fe, a->sp[1], "E0406", "%s takes one value per dimension of %s, got %u", fname, mt_ty_str(fe->c, t),
                 n);
        return fv_undef();
    }
    MtExpr *e = fe_op(fe, (MtOpcode)bi->op, sp, 1);
    e->args[0] = x;
    e->attr.rank = (int)n;
    for (uint32_t i = 0; i < n; i++) {
        int64_t v;
        if (!fe_static_int(fe, items[i], a->sp[1], mt_sprintf(fe->c, "a %s value", fname), &v))
            return fv_undef();
        if (v < 1 || v > INT32_MAX) {
            fe_error(fe, a->sp[1], "E0406", "%s values must be positive, got %lld", fname, (long long)v);
            return fv_undef();
        }
        e->attr.shape[i] = (int32_t)v;
    }
    return fv_expr(e);
}

/* tl.assume(cond): a fact for the compiler (the interpreter does not check it). */
FValue b_assume(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    if (a->v[0].kind != FV_EXPR) {
        bool ok;
        if (py_truth(fe, a->v[0], a->sp[0], &ok) || !ok)
            return fv_none();
        fe_error(fe, a->sp[0], "E0309", "tl.assume of a compile-time false condition");
        return fv_undef();
    }
    const MtType *t = fe_type(fe, a->v[0].u.e);
    if (!t)
        return fv_undef();
    if (t != &mt_ty_bool) {
        fe_error(fe, a->sp[0], "E0406", "tl.assume needs a scalar bool condition, got %s", mt_ty_str(fe->c, t));
        return fv_undef();
    }
    MtExpr *e = fe_op(fe, OP_ASSUME, sp, 1);
    e->args[0] = a->v[0].u.e;
    fe_add_root(fe, e);
    return fv_none();
}
