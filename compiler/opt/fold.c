/* fold.c: constant folding, local simplification and loop-invariant
 * carried values.
 *
 * Folding evaluates an elementwise operation whose operands are all
 * constants (so it is scalar) the way the GPU would: in the operation's
 * computation type, integers with wrap-around in their width, floordiv
 * truncating toward zero and mod taking the dividend's sign (C and Triton
 * integer semantics), floats rounded once to their format (f16 and bf16
 * results of + - * / computed in double are exactly what the GPU gives),
 * conversions by Triton's cast rules. Like Lua's constfolding and QBE's
 * foldint it declines whatever should happen at run time instead: a NaN or
 * -0.0 result, a division by zero, INT_MIN / -1. Math functions and
 * bitcasts are not folded: a host libm need not agree with the device's
 * to the last bit.
 *
 * The local simplifications are exactly those the seeds' printed SSA
 * depends on, and no others: select on a constant condition picks its
 * operand (when that operand already has the result type), and for integer
 * results `add x, 0`, `sub x, 0`, `mul x, 1` become x with the constant on
 * the right only (the seeds keep `add 0, %3`) and x of the result type.
 *
 * A carried slot whose yield operand is its own region argument never
 * changes: its argument and result are the init value, and the slot goes.
 *
 * The rewrite is one forward walk with a replacement map (a removed
 * instruction's uses are redirected as they are met, which program order
 * guarantees comes after the definition), repeated until nothing changes:
 * dropping a slot replaces uses inside a body already walked.
 */
#include <math.h>
#include <stdint.h>

#include "opt/passes.h"
#include "ssa/num.h"

typedef struct Folder {
    MtCtx *c;
    MtFunc *f;
    MtVal *fwd;               /* per value: the value that replaces it, 0 = none */
    uint32_t nfwd;            /* values created during the pass are never replaced */
    bool changed;
} Folder;

static MtVal resolve(const Folder *F, MtVal v)
{
    while (v && v < F->nfwd && F->fwd[v])
        v = F->fwd[v];
    return v;
}

/* Integer operations in type t (wrap-around); false declines. */
static bool fold_int(int op, __int128 x, __int128 y, const MtType *t, __int128 *out)
{
    bool uns = mt_ty_is_unsigned(t);
    int bits = mt_ty_bits(t);
    switch (op) {
    case OP_ADD: *out = x + y; break;
    case OP_SUB: *out = x - y; break;
    case OP_MUL: *out = x * y; break;
    case OP_FLOORDIV:
    case OP_MOD:
        if (y == 0 || (!uns && y == -1 && x == -((__int128)1 << (bits - 1))))
            return false;
        *out = op == OP_FLOORDIV ? x / y : x % y;
        break;
    case OP_MAXIMUM: *out = x > y ? x : y; break;
    case OP_MINIMUM: *out = x < y ? x : y; break;
    case OP_AND: *out = x & y; break;
    case OP_OR: *out = x | y; break;
    case OP_XOR: *out = x ^ y; break;
    case OP_SHL: *out = y < 0 || y >= bits ? 0 : x * ((__int128)1 << y); break;
    case OP_SHR: *out = y < 0 || y >= bits ? (x < 0 ? -1 : 0) : x >> y; break;
    case OP_UMULHI: {
        unsigned __int128 m = ((unsigned __int128)1 << bits) - 1;
        *out = (__int128)((((unsigned __int128)x & m) * ((unsigned __int128)y & m)) >> bits);
        break;
    }
    case OP_NEG: *out = -x; break;
    case OP_NOT: *out = ~x; break;
    case OP_ABS: *out = x < 0 ? -x : x; break;
    default: return false;
    }
    *out = mt_num_wrap(*out, t);
    return true;
}

/* Float operations computed in double and rounded once to t (exact for
 * + - * / of f32 and narrower); NaN propagates through maximum/minimum,
 * which pick the right operand on ties as the CUDA lowering does. A NaN or
 * -0.0 result and a division by zero are left to run time. */
static bool fold_float(int op, double x, double y, const MtType *t, double *out)
{
    double r;
    switch (op) {
    case OP_ADD: r = x + y; break;
    case OP_SUB: r = x - y; break;
    case OP_MUL: r = x * y; break;
    case OP_DIV:
        if (y == 0)
            return false;
        r = x / y;
        break;
    case OP_MAXIMUM: r = isnan(x) || isnan(y) ? NAN : x > y ? x : y; break;
    case OP_MINIMUM: r = isnan(x) || isnan(y) ? NAN : x < y ? x : y; break;
    case OP_NEG: r = -x; break;
    case OP_ABS: r = fabs(x); break;
    default: return false;
    }
    *out = mt_float_round((MtDtype)t->dtype, r, false);
    return !isnan(*out) && !(*out == 0 && signbit(*out));
}

static bool fold_cmp(int op, MtNum x, MtNum y, bool *out)
{
    int c;
    if (x.flt) {
        if (isnan(x.f) || isnan(y.f)) {
            *out = op == OP_CMP_NE;
            return true;
        }
        c = (x.f > y.f) - (x.f < y.f);
    } else {
        c = (x.i > y.i) - (x.i < y.i);
    }
    switch (op) {
    case OP_CMP_LT: *out = c < 0; return true;
    case OP_CMP_LE: *out = c <= 0; return true;
    case OP_CMP_GT: *out = c > 0; return true;
    case OP_CMP_GE: *out = c >= 0; return true;
    case OP_CMP_EQ: *out = c == 0; return true;
    default: *out = c != 0; return true;
    }
}

/* The type an operation computes in, from its operand types. */
static const MtType *compute_type(const MtFunc *f, const MtInst *in)
{
    const MtType *a = mt_val_ty(f, in->args[0]);
    if (in->nargs == 1)
        return mt_op_class(in->op) == OC_CAST ? a : in->ty;
    return mt_ty_computation(a, false, mt_val_ty(f, in->args[1]), false,
                             in->op == OP_DIV || in->op == OP_FLOORDIV || in->op == OP_MOD);
}

/* The constant an all-constant scalar operation evaluates to, or 0. */
static MtVal fold_const(Folder *F, const MtInst *in)
{
    const MtType *rk = in->ty, *ct = compute_type(F->f, in);
    int cls = mt_op_class(in->op);
    if (!ct || in->op == OP_BITCAST || cls == OC_MATH)
        return 0;
    MtNum x = mt_num_of_const(mt_val(F->f, in->args[0])->cst, mt_val_ty(F->f, in->args[0]));
    MtNum y = in->nargs > 1 ? mt_num_of_const(mt_val(F->f, in->args[1])->cst, mt_val_ty(F->f, in->args[1])) : x;
    MtNum r = {.flt = mt_ty_is_float(rk)};
    if (cls == OC_CAST) {
        r = mt_num_convert(x, rk);
        if (r.flt && (isnan(r.f) || (r.f == 0 && signbit(r.f))))
            return 0;
        return mt_func_const(F->c, F->f, mt_num_const(r, rk), rk);
    }
    if (in->op == OP_DIV && !mt_ty_is_float(ct))
        ct = rk; /* integers divide in f32 */
    x = mt_num_convert(x, ct);
    y = mt_num_convert(y, ct);
    if (cls == OC_COMPARE) {
        bool b;
        if (!fold_cmp(in->op, x, y, &b))
            return 0;
        r.i = b;
    } else if (mt_ty_is_float(ct)) {
        if (!fold_float(in->op, x.f, y.f, ct, &r.f))
            return 0;
    } else if (!fold_int(in->op, x.i, y.i, ct, &r.i)) {
        return 0;
    }
    r = mt_num_convert(r, rk);
    return mt_func_const(F->c, F->f, mt_num_const(r, rk), rk);
}

/* What `in` reduces to: a constant, one of its operands, or 0 (kept). */
static MtVal simplify(Folder *F, const MtInst *in)
{
    const MtFunc *f = F->f;
    if (mt_op_class(in->op) == OC_SHAPE && in->op != OP_EXPAND_DIMS && mt_val_ty(f, in->args[0]) == in->ty)
        return in->args[0]; /* a reshape or broadcast to the same shape, an identity permutation */
    if (!(mt_op_info[in->op].flags & F_ELEM) || in->op == OP_ADDPTR)
        return 0;
    if (in->op == OP_SELECT) {
        if (!mt_val_is_const(f, in->args[0]) || f->vals[in->args[0]].cst.kind != CST_BOOL)
            return 0;
        MtVal pick = f->vals[in->args[0]].cst.i ? in->args[1] : in->args[2];
        return mt_val_ty(f, pick) == in->ty ? pick : 0;
    }
    bool all_const = true;
    for (uint32_t i = 0; i < in->nargs; i++)
        all_const &= mt_val_is_const(f, in->args[i]);
    if (all_const)
        return mt_ty_is_scalar(in->ty) ? fold_const(F, in) : 0;
    if (!mt_ty_is_intlike(mt_ty_elem(in->ty)) || mt_ty_is_bool(mt_ty_elem(in->ty)) ||
        mt_val_ty(f, in->args[0]) != in->ty)
        return 0;
    if ((in->op == OP_ADD || in->op == OP_SUB) && mt_val_is_int(f, in->args[1], 0))
        return in->args[0];
    if (in->op == OP_MUL && mt_val_is_int(f, in->args[1], 1))
        return in->args[0];
    return 0;
}

/* Slots whose yield operand is their own region argument carry the init
 * value through every iteration. */
static void drop_invariant_slots(Folder *F, MtInst *in)
{
    MtForData *l = in->loop;
    const MtInst *y = l->body.v[l->body.n - 1];
    for (uint32_t i = 0; i < l->ncarried;) {
        if (y->args[i] != l->iter_args[i]) {
            i++;
            continue;
        }
        MtVal init = in->args[2 + i];
        F->fwd[l->iter_args[i]] = init;
        F->fwd[l->results[i]] = init;
        mt_for_remove_slot(F->f, in, i);
        F->changed = true;
    }
}

static void fold_region(Folder *F, MtRegion *r)
{
    uint32_t out = 0;
    for (uint32_t i = 0; i < r->n; i++) {
        MtInst *in = r->v[i];
        for (uint32_t k = 0; k < in->nargs; k++)
            in->args[k] = resolve(F, in->args[k]);
        if (in->op == OP_FOR) {
            fold_region(F, &in->loop->body);
            drop_invariant_slots(F, in);
        } else if (in->nest) {
            for (uint32_t k = 0; k < in->nest->nbodies; k++)
                fold_region(F, &in->nest->body[k].insts);
        } else if (in->dst) {
            MtVal to = simplify(F, in);
            if (to) {
                F->fwd[in->dst] = to;
                F->changed = true;
                continue;
            }
        }
        r->v[out++] = in;
    }
    r->n = out;
}

/* requires: verified SSA; preserves: regions, value numbers, carried-slot
 * order of the slots kept; breaks: nothing (removed values are unused) */
void mt_fold(MtCtx *c, MtFunc *f)
{
    Folder F = {.c = c, .f = f, .nfwd = f->nvals};
    F.fwd = mt_arena_alloc(&c->arena, f->nvals * sizeof *F.fwd);
    do {
        F.changed = false;
        fold_region(&F, &f->body);
    } while (F.changed);
    for (uint32_t i = 0; i < f->keep.n; i++)
        f->keep.v[i] = resolve(&F, f->keep.v[i]);
}
