/* fold.c: constant folding, local simplification and loop-invariant
 * carried values.
 *
 * Folding evaluates an elementwise operation whose operands are all
 * constants (so it is scalar) the way the GPU would: integers in i32 with
 * wrap-around, floordiv truncating toward zero and mod taking the
 * dividend's sign (C and Triton integer semantics), floats in float32 with
 * operands and result rounded to float. Like Lua's constfolding and QBE's
 * foldint it declines whatever should happen at run time instead: a NaN or
 * -0.0 result, a division by zero, INT_MIN / -1. exp is not folded: a host
 * libm need not agree with the device's to the last bit.
 *
 * The local simplifications are exactly those the seeds' printed SSA
 * depends on, and no others: select on a constant condition picks its
 * operand (when that operand already has the result type), and for i32
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

static int64_t ival(const MtValue *v) { return v->cst.kind == CST_FLOAT ? 0 : v->cst.i; }
static float fval(const MtValue *v) { return v->cst.kind == CST_FLOAT ? (float)v->cst.f : (float)v->cst.i; }

/* i32 operations with wrap-around; false declines. */
static bool fold_int(int op, int32_t x, int32_t y, int32_t *out)
{
    uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
    switch (op) {
    case OP_ADD: *out = (int32_t)(ux + uy); return true;
    case OP_SUB: *out = (int32_t)(ux - uy); return true;
    case OP_MUL: *out = (int32_t)(ux * uy); return true;
    case OP_FLOORDIV:
    case OP_MOD:
        if (y == 0 || (x == INT32_MIN && y == -1))
            return false;
        *out = op == OP_FLOORDIV ? x / y : x % y;
        return true;
    case OP_MAXIMUM: *out = x > y ? x : y; return true;
    case OP_MINIMUM: *out = x < y ? x : y; return true;
    case OP_AND: *out = x & y; return true;
    case OP_OR: *out = x | y; return true;
    case OP_XOR: *out = x ^ y; return true;
    case OP_NEG: *out = (int32_t)(0u - ux); return true;
    case OP_NOT: *out = ~x; return true;
    default: return false;
    }
}

/* float32 operations; NaN propagates through maximum/minimum, which pick
 * the right operand on ties as the CUDA lowering does. */
static bool fold_float(int op, float x, float y, float *out)
{
    switch (op) {
    case OP_ADD: *out = x + y; break;
    case OP_SUB: *out = x - y; break;
    case OP_MUL: *out = x * y; break;
    case OP_DIV:
        if (y == 0)
            return false;
        *out = x / y;
        break;
    case OP_MAXIMUM: *out = isnan(x) || isnan(y) ? NAN : x > y ? x : y; break;
    case OP_MINIMUM: *out = isnan(x) || isnan(y) ? NAN : x < y ? x : y; break;
    case OP_NEG: *out = -x; break;
    default: return false;
    }
    return !isnan(*out) && !(*out == 0 && signbit(*out));
}

static bool fold_cmp(int op, const MtValue *a, const MtValue *b, bool *out)
{
    int c;
    if (a->ty == &mt_ty_f32 || b->ty == &mt_ty_f32) {
        float x = fval(a), y = fval(b);
        switch (op) {
        case OP_CMP_LT: *out = x < y; return true;
        case OP_CMP_LE: *out = x <= y; return true;
        case OP_CMP_GT: *out = x > y; return true;
        case OP_CMP_GE: *out = x >= y; return true;
        case OP_CMP_EQ: *out = x == y; return true;
        default: *out = x != y; return true;
        }
    }
    int64_t x = ival(a), y = ival(b);
    c = (x > y) - (x < y);
    switch (op) {
    case OP_CMP_LT: *out = c < 0; return true;
    case OP_CMP_LE: *out = c <= 0; return true;
    case OP_CMP_GT: *out = c > 0; return true;
    case OP_CMP_GE: *out = c >= 0; return true;
    case OP_CMP_EQ: *out = c == 0; return true;
    default: *out = c != 0; return true;
    }
}

/* The constant an all-constant scalar operation evaluates to, or 0. */
static MtVal fold_const(Folder *F, const MtInst *in)
{
    const MtValue *a = mt_val(F->f, in->args[0]);
    const MtValue *b = in->nargs > 1 ? mt_val(F->f, in->args[1]) : a;
    const MtType *rk = in->ty;
    MtConst k = {0};
    switch (in->op) {
    case OP_CMP_LT:
    case OP_CMP_LE:
    case OP_CMP_GT:
    case OP_CMP_GE:
    case OP_CMP_EQ:
    case OP_CMP_NE: {
        bool r;
        if (rk != &mt_ty_bool || !fold_cmp(in->op, a, b, &r))
            return 0;
        k.kind = CST_BOOL;
        k.i = r;
        break;
    }
    case OP_AND:
    case OP_OR:
    case OP_XOR:
    case OP_NOT:
        if (rk == &mt_ty_bool) {
            int64_t x = ival(a) != 0, y = ival(b) != 0;
            k.kind = CST_BOOL;
            k.i = in->op == OP_AND ? x & y : in->op == OP_OR ? x | y : in->op == OP_XOR ? x ^ y : !x;
            break;
        }
        if (rk != &mt_ty_i32)
            return 0;
        int32_t bits;
        if (!fold_int(in->op, (int32_t)ival(a), (int32_t)ival(b), &bits))
            return 0;
        k.kind = CST_INT;
        k.i = bits;
        break;
    default:
        if (rk == &mt_ty_i32) {
            int32_t r;
            if (!fold_int(in->op, (int32_t)ival(a), (int32_t)ival(b), &r))
                return 0;
            k.kind = CST_INT;
            k.i = r;
        } else if (rk == &mt_ty_f32) {
            float r;
            if (!fold_float(in->op, fval(a), fval(b), &r))
                return 0;
            k.kind = CST_FLOAT;
            k.f = r;
        } else {
            return 0;
        }
        break;
    }
    return mt_func_const(F->c, F->f, k, rk);
}

static bool is_int_const(const MtFunc *f, MtVal v, int64_t want)
{
    return mt_val_is_const(f, v) && f->vals[v].cst.kind == CST_INT && f->vals[v].cst.i == want;
}

/* What `in` reduces to: a constant, one of its operands, or 0 (kept). */
static MtVal simplify(Folder *F, const MtInst *in)
{
    const MtFunc *f = F->f;
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
    if (mt_ty_elem(in->ty) != &mt_ty_i32 || mt_val_ty(f, in->args[0]) != in->ty)
        return 0;
    if ((in->op == OP_ADD || in->op == OP_SUB) && is_int_const(f, in->args[1], 0))
        return in->args[0];
    if (in->op == OP_MUL && is_int_const(f, in->args[1], 1))
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
}
