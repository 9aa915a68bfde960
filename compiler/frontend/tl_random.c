/* tl_random.c: Triton's random numbers (triton/language/random.py), as the
 * same arithmetic on expression nodes, so the bits are Triton's.
 *
 * Philox 4x32 (or 4x64 for 64-bit offsets) with Triton's constants and
 * round structure: per round c0 = umulhi(B, c2) ^ c1 ^ k0, c2 =
 * umulhi(A, c0) ^ c3 ^ k1, c1 = B * c2, c3 = A * c0 (old values), then the
 * key is raised by KEY_A / KEY_B. randint4x runs it on the counter
 * (offset, 0, 0, 0) under the key (seed low, seed high); rand maps a draw
 * to [0, 1) by uint_to_uniform_float; randn is Box-Muller on two draws.
 * Everything here is wrapping unsigned arithmetic, casts, tl.where and
 * f32 math, which every backend already has: no operation of its own.
 *
 * The nodes an expansion makes are marked hidden (unused draws of
 * randint4x are not "computed but never used"), except the one result of
 * rand, randn and randint. */
#include "fe.h"

typedef struct Philox {
    uint64_t key_a, key_b, round_a, round_b;
} Philox;

static const Philox PHILOX32 = {0x9E3779B9u, 0xBB67AE85u, 0xD2511F53u, 0xCD9E8D57u};
static const Philox PHILOX64 = {0x9E3779B97F4A7C15u, 0xBB67AE8584CAA73Bu, 0xD2E7470EE14C6C93u,
                                0xCA5A826395121157u};

/* A Python int of up to 64 bits (u64 constants above INT64_MAX are "big"). */
static FValue uint_const(uint64_t v)
{
    FValue f = fv_int((int64_t)v);
    f.big = v > (uint64_t)INT64_MAX;
    return f;
}

static FValue tuple_of(Fe *fe, const FValue *items, uint32_t n)
{
    FValue t = {.kind = FV_TUPLE};
    t.u.tup.v = mt_arena_alloc(&fe->c->arena, (n + 1) * sizeof(FValue));
    t.u.tup.n = n;
    for (uint32_t i = 0; i < n; i++)
        t.u.tup.v[i] = items[i];
    return t;
}

static bool ok(FValue v) { return v.kind == FV_EXPR; }

/* v as a runtime value (Python numbers become constants of their natural type). */
static FValue tensor(Fe *fe, FValue v, MtSpan sp)
{
    MtExpr *e = fe_to_expr(fe, v, sp);
    return e ? fv_expr(e) : fv_undef();
}

static const MtType *elem_of(Fe *fe, FValue v)
{
    const MtType *t = ok(v) ? fe_type(fe, v.u.e) : NULL;
    return t ? mt_ty_elem(t) : NULL;
}

static FValue cast(Fe *fe, FValue v, MtDtype to, bool bitcast, MtSpan sp)
{
    MtExpr *e = ok(v) ? fe_cast(fe, v.u.e, mt_ty_scalar(to), MT_ROUND_RTNE, bitcast, sp) : NULL;
    return e ? fv_expr(e) : fv_undef();
}

static FValue bin(Fe *fe, MtOpcode op, FValue a, FValue b, MtSpan sp)
{
    if (a.kind == FV_UNDEF || b.kind == FV_UNDEF)
        return fv_undef();
    return fe_binary(fe, op, a, b, sp);
}

static FValue unary(Fe *fe, MtOpcode op, FValue x, MtSpan sp)
{
    if (!ok(x))
        return fv_undef();
    MtExpr *e = fe_op(fe, op, sp, 1);
    e->args[0] = x.u.e;
    return fv_expr(e);
}

/* n_rounds: a compile-time count of rounds. */
static bool rounds_arg(Fe *fe, const FeArgs *a, uint32_t i, int64_t *n)
{
    if (!fe_static_int(fe, a->v[i], a->sp[i], "n_rounds", n))
        return false;
    if (*n < 0 || *n > 64) {
        fe_error(fe, a->sp[i], "E0305", "n_rounds must be between 0 and 64, got %lld", (long long)*n);
        return false;
    }
    return true;
}

/* philox_impl(c0, c1, c2, c3, k0, k1, n_rounds): c[] in and out. */
static bool philox_rounds(Fe *fe, FValue c[4], FValue k0, FValue k1, int64_t n_rounds, MtSpan sp)
{
    const MtType *t = elem_of(fe, c[0]);
    if (!t)
        return false;
    const Philox *p = t == mt_ty_scalar(MT_DT_U32) ? &PHILOX32 : t == mt_ty_scalar(MT_DT_U64) ? &PHILOX64 : NULL;
    if (!p) {
        fe_error(fe, sp, "E0309", "static assertion failed: dtype not supported in philox_impl (%s; the counters "
                 "must be uint32 or uint64)", mt_ty_str(fe->c, t));
        return false;
    }
    FValue A = uint_const(p->round_a), B = uint_const(p->round_b);
    for (int64_t r = 0; r < n_rounds; r++) {
        FValue c0 = c[0], c2 = c[2];
        c[0] = bin(fe, OP_XOR, bin(fe, OP_XOR, bin(fe, OP_UMULHI, B, c2, sp), c[1], sp), k0, sp);
        c[2] = bin(fe, OP_XOR, bin(fe, OP_XOR, bin(fe, OP_UMULHI, A, c0, sp), c[3], sp), k1, sp);
        c[1] = bin(fe, OP_MUL, B, c2, sp);
        c[3] = bin(fe, OP_MUL, A, c0, sp);
        k0 = bin(fe, OP_ADD, k0, uint_const(p->key_a), sp);
        k1 = bin(fe, OP_ADD, k1, uint_const(p->key_b), sp);
    }
    return ok(c[0]) && ok(c[1]) && ok(c[2]) && ok(c[3]);
}

/* philox(seed, c0, c1, c2, c3, n_rounds): the key from the seed (its two
 * 32-bit halves, or the seed and 0 for 64-bit counters), counters
 * reinterpreted as unsigned. */
static bool philox(Fe *fe, FValue seed, FValue c[4], int64_t n_rounds, MtSpan sp)
{
    seed = tensor(fe, seed, sp);
    const MtType *st = elem_of(fe, seed);
    for (int i = 0; i < 4; i++)
        c[i] = tensor(fe, c[i], sp);
    const MtType *ct = elem_of(fe, c[0]);
    if (!st || !ct)
        return false;
    if (!mt_ty_is_intlike(st) || mt_ty_is_bool(st)) {
        fe_error(fe, sp, "E0309", "static assertion failed: the philox seed must be an integer, got %s",
                 mt_ty_str(fe->c, st));
        return false;
    }
    seed = cast(fe, seed, MT_DT_U64, false, sp);
    FValue lo, hi;
    MtDtype int_dtype;
    if (mt_ty_bits(ct) == 32) {
        int_dtype = MT_DT_U32;
        hi = cast(fe, bin(fe, OP_AND, bin(fe, OP_SHR, seed, fv_int(32), sp), fv_int(0xffffffff), sp), MT_DT_U32,
                  false, sp);
        lo = cast(fe, bin(fe, OP_AND, seed, fv_int(0xffffffff), sp), MT_DT_U32, false, sp);
    } else if (mt_ty_bits(ct) == 64) {
        int_dtype = MT_DT_U64;
        MtExpr *z = fe_op(fe, OP_ZEROS, sp, 0);
        z->attr.rank = 1;
        z->attr.shape[0] = 1;
        z->attr.dtype = mt_ty_scalar(MT_DT_U64);
        hi = fv_expr(z);
        lo = seed;
    } else {
        fe_error(fe, sp, "E0309", "static assertion failed: bitwidth not supported in philox (%s; the offsets must "
                 "be 32- or 64-bit integers)", mt_ty_str(fe->c, ct));
        return false;
    }
    for (int i = 0; i < 4; i++)
        c[i] = cast(fe, c[i], int_dtype, true, sp);
    return philox_rounds(fe, c, lo, hi, n_rounds, sp);
}

/* randint4x(seed, offset, n_rounds): philox on (offset, 0, 0, 0). */
static bool randint4x(Fe *fe, FValue seed, FValue offset, int64_t n_rounds, MtSpan sp, FValue c[4])
{
    offset = tensor(fe, offset, sp);
    FValue zero = bin(fe, OP_MUL, offset, fv_int(0), sp);
    c[0] = offset;
    c[1] = c[2] = c[3] = zero;
    return ok(zero) && philox(fe, seed, c, n_rounds, sp);
}

/* uint_to_uniform_float(x): a draw to [0, 1) in f32. */
static FValue to_uniform(Fe *fe, FValue x, MtSpan sp)
{
    x = tensor(fe, x, sp);
    const MtType *t = elem_of(fe, x);
    if (!t)
        return fv_undef();
    FValue scale;
    if (t == mt_ty_scalar(MT_DT_U32) || t == &mt_ty_i32) {
        x = cast(fe, x, MT_DT_I32, true, sp);
        scale = fv_float(4.6566127342e-10);
    } else if (t == mt_ty_scalar(MT_DT_U64) || t == mt_ty_scalar(MT_DT_I64)) {
        x = cast(fe, x, MT_DT_I64, true, sp);
        scale = fv_float(1.0842020432385337e-19);
    } else {
        fe_error(fe, sp, "E0309", "static assertion failed: uint_to_uniform_float takes 32- or 64-bit integers, "
                 "got %s", mt_ty_str(fe->c, t));
        return fv_undef();
    }
    FValue neg = bin(fe, OP_SUB, unary(fe, OP_NEG, x, sp), fv_int(1), sp);
    FValue lt = bin(fe, OP_CMP_LT, x, fv_int(0), sp);
    if (!ok(neg) || !ok(lt))
        return fv_undef();
    MtExpr *w = fe_op(fe, OP_SELECT, sp, 3);
    w->args[0] = lt.u.e;
    w->args[1] = neg.u.e;
    w->args[2] = x.u.e;
    return bin(fe, OP_MUL, fv_expr(w), scale, sp);
}

/* pair_uniform_to_normal(u1, u2): Box-Muller. */
static bool to_normal(Fe *fe, FValue u1, FValue u2, MtSpan sp, FValue out[2])
{
    u1 = bin(fe, OP_MAXIMUM, fv_float(1.0e-7), u1, sp);
    FValue th = bin(fe, OP_MUL, fv_float(6.283185307179586), u2, sp);
    FValue r = unary(fe, OP_SQRT, bin(fe, OP_MUL, fv_float(-2.0), unary(fe, OP_LOG, u1, sp), sp), sp);
    out[0] = bin(fe, OP_MUL, r, unary(fe, OP_COS, th, sp), sp);
    out[1] = bin(fe, OP_MUL, r, unary(fe, OP_SIN, th, sp), sp);
    return ok(out[0]) && ok(out[1]);
}

/* Mark the nodes made since `first` hidden, but `keep`. */
static FValue expansion(Fe *fe, uint32_t first, FValue keep)
{
    for (uint32_t i = first; i < fe->prog->all.n; i++)
        fe->prog->all.v[i]->hidden = true;
    if (ok(keep))
        keep.u.e->hidden = false;
    return keep;
}

static FValue expansion4(Fe *fe, uint32_t first, bool good, const FValue c[4])
{
    expansion(fe, first, fv_undef());
    return good ? tuple_of(fe, c, 4) : fv_undef();
}

FValue b_randint4x(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    int64_t n;
    uint32_t first = fe->prog->all.n;
    FValue c[4];
    bool good = rounds_arg(fe, a, 2, &n) && randint4x(fe, a->v[0], a->v[1], n, sp, c);
    return expansion4(fe, first, good, c);
}

FValue b_randint(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    int64_t n;
    uint32_t first = fe->prog->all.n;
    FValue c[4];
    if (!rounds_arg(fe, a, 2, &n) || !randint4x(fe, a->v[0], a->v[1], n, sp, c))
        return expansion(fe, first, fv_undef());
    return expansion(fe, first, c[0]);
}

FValue b_rand(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    int64_t n;
    uint32_t first = fe->prog->all.n;
    FValue c[4];
    if (!rounds_arg(fe, a, 2, &n) || !randint4x(fe, a->v[0], a->v[1], n, sp, c))
        return expansion(fe, first, fv_undef());
    return expansion(fe, first, to_uniform(fe, c[0], sp));
}

FValue b_rand4x(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    int64_t n;
    uint32_t first = fe->prog->all.n;
    FValue c[4];
    bool good = rounds_arg(fe, a, 2, &n) && randint4x(fe, a->v[0], a->v[1], n, sp, c);
    for (int i = 0; good && i < 4; i++)
        good = ok(c[i] = to_uniform(fe, c[i], sp));
    return expansion4(fe, first, good, c);
}

FValue b_randn(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    int64_t n;
    uint32_t first = fe->prog->all.n;
    FValue c[4], z[2];
    if (!rounds_arg(fe, a, 2, &n) || !randint4x(fe, a->v[0], a->v[1], n, sp, c) ||
        !to_normal(fe, to_uniform(fe, c[0], sp), to_uniform(fe, c[1], sp), sp, z))
        return expansion(fe, first, fv_undef());
    return expansion(fe, first, z[0]);
}

FValue b_randn4x(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    int64_t n;
    uint32_t first = fe->prog->all.n;
    FValue c[4];
    bool good = rounds_arg(fe, a, 2, &n) && randint4x(fe, a->v[0], a->v[1], n, sp, c);
    for (int i = 0; good && i < 4; i++)
        good = ok(c[i] = to_uniform(fe, c[i], sp));
    good = good && to_normal(fe, c[0], c[1], sp, c) && to_normal(fe, c[2], c[3], sp, c + 2);
    return expansion4(fe, first, good, c);
}

FValue b_philox(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    int64_t n;
    uint32_t first = fe->prog->all.n;
    FValue c[4] = {a->v[1], a->v[2], a->v[3], a->v[4]};
    bool good = rounds_arg(fe, a, 5, &n) && philox(fe, a->v[0], c, n, sp);
    return expansion4(fe, first, good, c);
}

FValue b_philox_impl(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    int64_t n;
    uint32_t first = fe->prog->all.n;
    FValue c[4];
    for (int i = 0; i < 4; i++)
        c[i] = tensor(fe, a->v[i], a->sp[i]);
    bool good = rounds_arg(fe, a, 6, &n) && philox_rounds(fe, c, a->v[4], a->v[5], n, sp);
    return expansion4(fe, first, good, c);
}

FValue b_uint_to_uniform_float(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    uint32_t first = fe->prog->all.n;
    return expansion(fe, first, to_uniform(fe, a->v[0], a->sp[0]));
}

FValue b_pair_uniform_to_normal(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    uint32_t first = fe->prog->all.n;
    FValue z[2];
    bool good = to_normal(fe, a->v[0], a->v[1], sp, z);
    expansion(fe, first, fv_undef());
    return good ? tuple_of(fe, z, 2) : fv_undef();
}
