/* simulate.c: the kernel layer run on the CPU, a functional model of the
 * generated CUDA for tests without a GPU.
 *
 * Every thread of a block runs in lockstep, one statement at a time: a
 * statement runs for every active thread before the next starts, so a
 * warp shuffle reads its partner's value as it is at that statement, a
 * barrier is satisfied by construction, and shared memory is one array
 * per block. An atomic runs for one thread after the other, each seeing
 * the ones before it. Blocks run one after another, never interleaved: a
 * spin lock that each program takes and releases (the layer-norm
 * backward's) is free whenever a program comes to it, while a program
 * that waited for a later one would spin until cancelled. Control flow
 * keeps an active mask: an `if` runs its branches under the threads whose
 * condition held (or did not), a loop runs while any thread is still in
 * it. Values are held as int64 or double and
 * brought back to their dtype after every operation (integers wrap in
 * their width, floats round to their precision, f16 and bf16 to nearest
 * even), so results are what the GPU computes up to the rounding of
 * math functions. Memory accesses are bounds-checked against the
 * arguments; a fault stops the run with a diagnostic at the statement's
 * source range. It is slow (a tree walk per element per thread): for
 * small grids in tests. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api/compiled.h"
#include "kir.h"

typedef union Slot {
    int64_t i;
    double f;
} Slot;

typedef struct Buf {
    void *data;
    int64_t numel;
    MtDtype dt;
} Buf;

typedef struct Sim {
    MtCtx *c;
    const KFunc *f;
    uint32_t nthreads;
    uint32_t *off;            /* per variable: its first slot in a thread's storage */
    uint32_t nslots;          /* per thread */
    Slot *regs;               /* nthreads x nslots */
    Slot **shared;            /* per variable: a block's shared array */
    Slot *params;             /* per variable: a scalar parameter's value */
    Buf *bufs;                /* per variable: a pointer parameter's buffer */
    unsigned block[3];
    const KStmt *cur;
    bool fault;
} Sim;

static bool is_float(MtDtype dt) { return mt_dtype_info(dt)->cls == MT_DC_FLOAT; }

/* A value brought back into dt. */
static Slot fix(MtDtype dt, Slot v)
{
    const MtDtypeInfo *d = mt_dtype_info(dt);
    Slot r = v;
    switch (d->cls) {
    case MT_DC_BOOL: r.i = v.i != 0; break;
    case MT_DC_FLOAT:
        if (dt == MT_DT_F32)
            r.f = (float)v.f;
        else if (dt == MT_DT_F16)
            r.f = mt_f16_to_f32(mt_f32_to_f16((float)v.f));
        else if (dt == MT_DT_BF16)
            r.f = mt_bf16_to_f32(mt_f32_to_bf16((float)v.f));
        break;
    case MT_DC_SINT:
        if (d->bits < 64) {
            uint64_t m = (1ull << d->bits) - 1, u = (uint64_t)v.i & m;
            r.i = u >> (d->bits - 1) ? (int64_t)(u | ~m) : (int64_t)u;
        }
        break;
    case MT_DC_UINT:
        if (d->bits < 64)
            r.i = (int64_t)((uint64_t)v.i & ((1ull << d->bits) - 1));
        break;
    }
    return r;
}

static Slot convert(MtDtype to, MtDtype from, Slot v)
{
    Slot r;
    if (is_float(to) && !is_float(from))
        r.f = mt_dtype_info(from)->cls == MT_DC_UINT ? (double)(uint64_t)v.i : (double)v.i;
    else if (!is_float(to) && is_float(from)) {
        /* toward zero, saturating, NaN to 0 */
        double x = v.f;
        const MtDtypeInfo *d = mt_dtype_info(to);
        if (d->cls == MT_DC_BOOL) {
            r.i = x != 0;
            return r;
        }
        double lo = d->cls == MT_DC_UINT ? 0 : -ldexp(1, d->bits - 1);
        double hi = d->cls == MT_DC_UINT ? ldexp(1, d->bits) - 1 : ldexp(1, d->bits - 1) - 1;
        r.i = isnan(x) ? 0 : x <= lo ? (int64_t)lo : x >= hi ? (d->bits == 64 && d->cls == MT_DC_UINT ? -1 : (int64_t)hi) : (int64_t)x;
        return fix(to, r);
    } else {
        r = v;
    }
    return fix(to, r);
}

/* A fault: `what` ("load from x") at element index, in the current block. */
/* A float value as dtype dt rounded toward zero (tl.cast's rtz). */
static Slot round_toward_zero(MtDtype dt, double x)
{
    Slot r = {.f = x};
    if (isnan(x) || isinf(x))
        return fix(dt, r);
    if (dt == MT_DT_F32) {
        float f = (float)x;
        if (fabs((double)f) > fabs(x))
            f = nextafterf(f, 0.0f);
        r.f = f;
        return r;
    }
    if (dt == MT_DT_F16 || dt == MT_DT_BF16) {
        float f = (float)x;
        if (fabs((double)f) > fabs(x))
            f = nextafterf(f, 0.0f);
        uint16_t h = dt == MT_DT_F16 ? mt_f32_to_f16(f) : mt_f32_to_bf16(f);
        float back = dt == MT_DT_F16 ? mt_f16_to_f32(h) : mt_bf16_to_f32(h);
        if (fabsf(back) > fabsf(f) && (h & 0x7fff))
            h--;
        r.f = dt == MT_DT_F16 ? mt_f16_to_f32(h) : mt_bf16_to_f32(h);
        return r;
    }
    return fix(dt, r);
}

/* The bits of a value of dtype dt, and a value from bits. */
static uint64_t bits_of(MtDtype dt, Slot v)
{
    switch (dt) {
    case MT_DT_F32: {
        float f = (float)v.f;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    case MT_DT_F64: {
        uint64_t u;
        memcpy(&u, &v.f, 8);
        return u;
    }
    case MT_DT_F16: return mt_f32_to_f16((float)v.f);
    case MT_DT_BF16: return mt_f32_to_bf16((float)v.f);
    case MT_DT_I1:
    case MT_DT_I8:
    case MT_DT_I16:
    case MT_DT_I32:
    case MT_DT_I64:
    case MT_DT_U8:
    case MT_DT_U16:
    case MT_DT_U32:
    case MT_DT_U64:
    case MT_DTYPE_COUNT: break;
    }
    unsigned bits = mt_dtype_info(dt)->bits;
    return bits >= 64 ? (uint64_t)v.i : (uint64_t)v.i & ((1ull << bits) - 1);
}

static Slot from_bits(MtDtype dt, uint64_t u)
{
    Slot r = {0};
    switch (dt) {
    case MT_DT_F32: {
        uint32_t w = (uint32_t)u;
        float f;
        memcpy(&f, &w, 4);
        r.f = f;
        return r;
    }
    case MT_DT_F64: memcpy(&r.f, &u, 8); return r;
    case MT_DT_F16: r.f = mt_f16_to_f32((uint16_t)u); return r;
    case MT_DT_BF16: r.f = mt_bf16_to_f32((uint16_t)u); return r;
    case MT_DT_I1:
    case MT_DT_I8:
    case MT_DT_I16:
    case MT_DT_I32:
    case MT_DT_I64:
    case MT_DT_U8:
    case MT_DT_U16:
    case MT_DT_U32:
    case MT_DT_U64:
    case MT_DTYPE_COUNT: break;
    }
    r.i = (int64_t)u;
    return fix(dt, r);
}

static void fault(Sim *s, const char *what, int64_t index)
{
    if (s->fault)
        return;
    s->fault = true;
    MtSpan sp = s->cur ? s->cur->span : (MtSpan){0};
    mt_diag(s->c, MT_SEV_ERROR, sp, "R0701", "kernel simulator: %s at element %lld is out of bounds (block %u,%u,%u)",
            what, (long long)index, s->block[0], s->block[1], s->block[2]);
}

static Slot *var_slot(Sim *s, uint32_t t, KVarId v, int64_t index)
{
    const KVar *x = &s->f->vars.v[v];
    switch ((KVarKind)x->kind) {
    case KV_SHARED:
        if (index < 0 || index >= x->n) {
            fault(s, mt_sprintf(s->c, "shared array %s", x->name), index);
            return &s->shared[v][0];
        }
        return &s->shared[v][index];
    case KV_REGS:
        if (index < 0 || index >= x->n) {
            fault(s, mt_sprintf(s->c, "register array %s", x->name), index);
            index = 0;
        }
        return &s->regs[(size_t)t * s->nslots + s->off[v] + (uint64_t)index];
    case KV_PARAM: return &s->params[v];
    case KV_LOCAL: break;
    }
    return &s->regs[(size_t)t * s->nslots + s->off[v]];
}

static Slot eval(Sim *s, uint32_t t, const KExpr *e);

/* mt_fmaf_odd of the generated CUDA (khalf.c), tl.fma of 16-bit operands:
 * a * b + c rounded to odd in float (toward zero, the last bit set when
 * inexact), which fix() then rounds once to the half type. From the
 * double rounded to odd: rounding to odd twice is rounding to odd once. */
static double fmaf_odd(double a, double b, double c)
{
    double d = mt_fma_odd(a, b, c);
    float t = (float)d;
    if (isfinite(d) && (double)t != d) {
        if (fabs((double)t) > fabs(d))
            t = nextafterf(t, 0.0f);
        uint32_t u;
        memcpy(&u, &t, sizeof u);
        u |= 1;
        memcpy(&t, &u, sizeof t);
    }
    return t;
}

static Slot mathfn(int op, MtDtype dt, const Slot *a)
{
    Slot r;
    bool f64 = dt == MT_DT_F64;
    if (op == OP_FMA && (dt == MT_DT_F16 || dt == MT_DT_BF16)) {
        r.f = fmaf_odd(a[0].f, a[1].f, a[2].f);
        return r;
    }
    switch (op) {
#define MATH(id, name, nargs, dtypes, api, c32, c64, chalf, cuda32, cuda64, params, doc) \
    case OP_##id: r.f = f64 ? MATH_CALL_##nargs(c64, a) : MATH_CALL_##nargs(c32, a); break;
#define MATH_CALL_1(fn, a) (double)fn((f64 ? a[0].f : (float)a[0].f))
#define MATH_CALL_2(fn, a) (double)fn((f64 ? a[0].f : (float)a[0].f), (f64 ? a[1].f : (float)a[1].f))
#define MATH_CALL_3(fn, a) \
    (double)fn((f64 ? a[0].f : (float)a[0].f), (f64 ? a[1].f : (float)a[1].f), (f64 ? a[2].f : (float)a[2].f))
#include "ssa/math.def"
#undef MATH
#undef MATH_CALL_1
#undef MATH_CALL_2
#undef MATH_CALL_3
    default: r.f = NAN; break;
    }
    return r;
}

static Slot load(Sim *s, KVarId v, int64_t index)
{
    Buf *b = &s->bufs[v];
    Slot r = {0};
    if (index < 0 || index >= b->numel) {
        fault(s, mt_sprintf(s->c, "load from %s", s->f->vars.v[v].name), index);
        return r;
    }
    double x = mt_dtype_get(b->dt, b->data, (size_t)index);
    if (is_float(b->dt))
        r.f = x;
    else if (b->dt == MT_DT_I64 || b->dt == MT_DT_U64)
        memcpy(&r.i, (char *)b->data + (size_t)index * 8, 8);
    else
        r.i = (int64_t)x;
    return r;
}

static Slot eval(Sim *s, uint32_t t, const KExpr *e)
{
    MtDtype dt = (MtDtype)e->dt;
    Slot r = {0}, a[3] = {{0}};
    switch ((KOp)e->op) {
    case K_CONST:
        if (is_float(dt))
            r.f = e->u.c.kind == CST_FLOAT ? e->u.c.f : (double)e->u.c.i;
        else
            r.i = e->u.c.kind == CST_FLOAT ? (int64_t)e->u.c.f : e->u.c.i;
        return fix(dt, r);
    case K_VAR: return *var_slot(s, t, e->u.var, 0);
    case K_ELEM: return *var_slot(s, t, e->u.var, eval(s, t, e->a[0]).i);
    case K_SPECIAL:
        switch ((KSpecial)e->u.special) {
        case KS_TID: r.i = t; break;
        case KS_BID_X: r.i = s->block[0]; break;
        case KS_BID_Y: r.i = s->block[1]; break;
        case KS_BID_Z: r.i = s->block[2]; break;
        case KS_LANE: r.i = t & 31; break;
        case KS_WARP: r.i = t >> 5; break;
        }
        return r;
    case K_LOAD: return load(s, e->u.var, eval(s, t, e->a[0]).i);
    case K_SHFL_XOR: return eval(s, t ^ e->u.lane_mask, e->a[0]);
    case K_CAST:
        if (e->u.mode == MT_ROUND_RTZ && is_float(dt) && is_float((MtDtype)e->a[0]->dt))
            return round_toward_zero(dt, eval(s, t, e->a[0]).f);
        return convert(dt, (MtDtype)e->a[0]->dt, eval(s, t, e->a[0]));
    case K_BITCAST: return from_bits(dt, bits_of((MtDtype)e->a[0]->dt, eval(s, t, e->a[0])));
    case K_SELECT: return eval(s, t, e->a[0]).i ? eval(s, t, e->a[1]) : eval(s, t, e->a[2]);
    case K_LAND: return (Slot){.i = eval(s, t, e->a[0]).i && eval(s, t, e->a[1]).i};
    case K_LOR: return (Slot){.i = eval(s, t, e->a[0]).i || eval(s, t, e->a[1]).i};
    default: break;
    }
    for (int i = 0; i < e->nargs; i++)
        a[i] = eval(s, t, e->a[i]);
    if (e->op >= K_LT && e->op <= K_NE) {
        bool f = is_float((MtDtype)e->u.cmp_dt), u = mt_dtype_info((MtDtype)e->u.cmp_dt)->cls == MT_DC_UINT;
        int c = f ? (a[0].f < a[1].f ? -1 : a[0].f > a[1].f ? 1 : 0)
                  : u ? ((uint64_t)a[0].i < (uint64_t)a[1].i ? -1 : (uint64_t)a[0].i > (uint64_t)a[1].i)
                      : (a[0].i < a[1].i ? -1 : a[0].i > a[1].i);
        bool unordered = f && (isnan(a[0].f) || isnan(a[1].f));
        switch ((KOp)e->op) {
        case K_LT: r.i = !unordered && c < 0; break;
        case K_LE: r.i = !unordered && c <= 0; break;
        case K_GT: r.i = !unordered && c > 0; break;
        case K_GE: r.i = !unordered && c >= 0; break;
        case K_EQ: r.i = !unordered && c == 0; break;
        default: r.i = unordered || c != 0; break;
        }
        return r;
    }
    bool f = is_float(dt), u = mt_dtype_info(dt)->cls == MT_DC_UINT;
    switch ((KOp)e->op) {
    case K_NEG: if (f) r.f = -a[0].f; else r.i = (int64_t)(0 - (uint64_t)a[0].i); break;
    case K_BNOT: r.i = ~a[0].i; break;
    case K_LNOT: r.i = !a[0].i; break;
    case K_ABS: if (f) r.f = fabs(a[0].f); else r.i = a[0].i < 0 ? -a[0].i : a[0].i; break;
    case K_ADD: if (f) r.f = a[0].f + a[1].f; else r.i = (int64_t)((uint64_t)a[0].i + (uint64_t)a[1].i); break;
    case K_SUB: if (f) r.f = a[0].f - a[1].f; else r.i = (int64_t)((uint64_t)a[0].i - (uint64_t)a[1].i); break;
    case K_MUL: if (f) r.f = a[0].f * a[1].f; else r.i = (int64_t)((uint64_t)a[0].i * (uint64_t)a[1].i); break;
    case K_DIV:
        if (f)
            r.f = a[0].f / a[1].f;
        else if (!a[1].i)
            r.i = -1;
        else
            r.i = u ? (int64_t)((uint64_t)a[0].i / (uint64_t)a[1].i) : a[1].i == -1 ? -a[0].i : a[0].i / a[1].i;
        break;
    case K_REM:
        if (f)
            r.f = fmod(a[0].f, a[1].f);
        else if (!a[1].i)
            r.i = a[0].i;
        else
            r.i = u ? (int64_t)((uint64_t)a[0].i % (uint64_t)a[1].i) : a[1].i == -1 ? 0 : a[0].i % a[1].i;
        break;
    case K_BAND: r.i = a[0].i & a[1].i; break;
    case K_BOR: r.i = a[0].i | a[1].i; break;
    case K_BXOR: r.i = a[0].i ^ a[1].i; break;
    case K_SHL:
    case K_SHR: {
        /* PTX clamps the amount to the width: all bits shifted out */
        unsigned bits = mt_dtype_info(dt)->bits;
        uint64_t n = (uint64_t)a[1].i >= bits ? bits : (uint64_t)a[1].i;
        uint64_t x = bits_of(dt, a[0]);
        if (e->op == K_SHL)
            r.i = n >= 64 ? 0 : (int64_t)(x << n);
        else if (u || !(x >> (bits - 1) & 1))
            r.i = n >= 64 ? 0 : (int64_t)(x >> n);
        else
            r.i = n >= bits ? -1 : a[0].i >> n;
        break;
    }
    case K_UMULHI: {
        unsigned bits = mt_dtype_info(dt)->bits;
        uint64_t x = bits_of(dt, a[0]), y = bits_of(dt, a[1]);
        if (bits == 64)
            r.i = (int64_t)(uint64_t)(((unsigned __int128)x * y) >> 64);
        else
            r.i = (int64_t)((x * y) >> 32);
        break;
    }
    case K_MAX:
        if (f)
            r = (isnan(a[0].f) || a[0].f > a[1].f) ? a[0] : a[1];
        else
            r = (u ? (uint64_t)a[0].i > (uint64_t)a[1].i : a[0].i > a[1].i) ? a[0] : a[1];
        break;
    case K_MIN:
        if (f)
            r = (isnan(a[0].f) || a[0].f < a[1].f) ? a[0] : a[1];
        else
            r = (u ? (uint64_t)a[0].i < (uint64_t)a[1].i : a[0].i < a[1].i) ? a[0] : a[1];
        break;
    case K_FMAX: r.f = fmax(a[0].f, a[1].f); break;
    case K_FMIN: r.f = fmin(a[0].f, a[1].f); break;
    case K_FMA: r.f = dt == MT_DT_F64 ? fma(a[0].f, a[1].f, a[2].f) : (double)fmaf((float)a[0].f, (float)a[1].f, (float)a[2].f); break;
    case K_MATH: r = mathfn(e->u.math, dt, a); break;
    default: break;
    }
    return fix(dt, r);
}

static void store(Sim *s, KVarId v, int64_t index, Slot val)
{
    Buf *b = &s->bufs[v];
    if (index < 0 || index >= b->numel) {
        fault(s, mt_sprintf(s->c, "store to %s", s->f->vars.v[v].name), index);
        return;
    }
    if (b->dt == MT_DT_I64 || b->dt == MT_DT_U64)
        memcpy((char *)b->data + (size_t)index * 8, &val.i, 8);
    else
        mt_dtype_set(b->dt, b->data, (size_t)index, is_float(b->dt) ? val.f : (double)val.i);
}

static void run_block(Sim *s, const KBlock *blk, const uint8_t *active);

/* The new value of an atomic's element from its old one (KAtomic). */
static Slot atomic_combine(const KAtomic *a, Slot old, Slot v, Slot cmp)
{
    MtDtype dt = (MtDtype)a->dt;
    bool f = is_float(dt), u = mt_dtype_info(dt)->cls == MT_DC_UINT;
    Slot r = v;
    switch (a->op) {
    case OP_ATOMIC_ADD:
        if (f)
            r.f = old.f + v.f;
        else
            r.i = (int64_t)((uint64_t)old.i + (uint64_t)v.i);
        break;
    case OP_ATOMIC_MAX:
    case OP_ATOMIC_MIN: {
        bool greater = u ? (uint64_t)v.i > (uint64_t)old.i : v.i > old.i;
        r = greater == (a->op == OP_ATOMIC_MAX) ? v : old;
        break;
    }
    case OP_ATOMIC_AND: r.i = old.i & v.i; break;
    case OP_ATOMIC_OR: r.i = old.i | v.i; break;
    case OP_ATOMIC_XOR: r.i = old.i ^ v.i; break;
    case OP_ATOMIC_CAS: r = bits_of(dt, old) == bits_of(dt, cmp) ? v : old; break;
    default: break; /* xchg */
    }
    return fix(dt, r);
}

/* Thread t's atomic: the element's bits read as dt, replaced by the
 * combined value's, the old value into dst (0 where the mask is false). */
static void run_atomic(Sim *s, uint32_t t, const KAtomic *a)
{
    MtDtype dt = (MtDtype)a->dt;
    Slot old = {0};
    if (!a->mask || eval(s, t, a->mask).i) {
        Buf *b = &s->bufs[a->ptr];
        int64_t at = eval(s, t, a->index).i;
        if (at < 0 || at >= b->numel) {
            fault(s, mt_sprintf(s->c, "atomic on %s", s->f->vars.v[a->ptr].name), at);
            return;
        }
        size_t es = mt_dtype_info(b->dt)->size;
        uint64_t bits = 0;
        memcpy(&bits, (char *)b->data + (size_t)at * es, es); /* little-endian: the low bytes */
        old = from_bits(dt, bits);
        Slot v = eval(s, t, a->value), cmp = a->cmp ? eval(s, t, a->cmp) : (Slot){0};
        uint64_t next = bits_of(dt, atomic_combine(a, old, v, cmp));
        memcpy((char *)b->data + (size_t)at * es, &next, es);
    }
    *var_slot(s, t, a->dst, a->dst_index ? eval(s, t, a->dst_index).i : 0) = old;
}

/* A half's bits (f16 or bf16) from a slot's value, and back. */
static uint32_t half_bits(MtDtype dt, double v)
{
    return dt == MT_DT_BF16 ? mt_f32_to_bf16((float)v) : mt_f32_to_f16((float)v);
}

static double half_value(MtDtype dt, uint32_t bits)
{
    return dt == MT_DT_BF16 ? mt_bf16_to_f32((uint16_t)bits) : mt_f16_to_f32((uint16_t)bits);
}

/* ldmatrix for thread t: from each matrix j, the two elements of its row
 * (lane / 4) at columns 2 (lane % 4) and + 1 -- with trans, of rows
 * 2 (lane % 4) and + 1 at column lane / 4 -- each row at the address the
 * lane 8j + row of this warp gives. */
static void run_ldmatrix(Sim *s, uint32_t t, const KStmt *st)
{
    uint32_t lane = t & 31, warp0 = t - lane;
    MtDtype dt = (MtDtype)st->u.ldm.dt;
    for (uint32_t j = 0; j < st->u.ldm.count && !s->fault; j++) {
        uint32_t packed = 0;
        for (uint32_t e = 0; e < 2; e++) {
            uint32_t row = st->u.ldm.trans ? 2 * (lane & 3) + e : lane >> 2;
            uint32_t col = st->u.ldm.trans ? lane >> 2 : 2 * (lane & 3) + e;
            int64_t at = eval(s, warp0 + 8 * j + row, st->u.ldm.row_at).i + col;
            packed |= half_bits(dt, var_slot(s, t, st->u.ldm.smem, at)->f) << (16 * e);
        }
        var_slot(s, t, st->u.ldm.dst, st->u.ldm.first + j)->i = packed;
    }
}

/* Element [r][k] of a warp's A fragment, or [k][c] of its B fragment
 * (KST_MMA's layouts), read from the lane of warp warp0 that holds it. */
static double fragment(Sim *s, uint32_t warp0, const KStmt *st, bool is_a, uint32_t rc, uint32_t k)
{
    bool tf32 = st->u.mma.in_dt == MT_DT_F32;
    uint32_t kq = tf32 ? 4 : 8, lane = tf32 ? k % 4 : (k % 8) / 2;
    lane += is_a ? (rc % 8) * 4 : rc * 4;
    uint32_t reg = is_a ? rc / 8 + 2 * (k / kq) : k / kq;
    const Slot *x = var_slot(s, warp0 + lane, is_a ? st->u.mma.a : st->u.mma.b,
                             (is_a ? st->u.mma.a_first : st->u.mma.b_first) + reg);
    if (tf32)
        return x->f;
    return half_value((MtDtype)st->u.mma.in_dt, ((uint32_t)x->i >> (16 * (k % 2))) & 0xffffu);
}

/* mma.sync for thread t: its four accumulators, each a sum over k in
 * order with one f32 rounding per step (the tensor core's internal order
 * and rounding differ in the last bits), of the warp's fragments. */
static void run_mma(Sim *s, uint32_t t, const KStmt *st)
{
    int64_t index = eval(s, t, st->u.mma.index).i;
    uint32_t lane = t & 31, warp0 = t - lane, g = lane >> 2, col = (lane & 3) * 2;
    for (uint32_t i = 0; i < 4 && !s->fault; i++) {
        uint32_t row = g + (i >> 1) * 8, n = col + (i & 1);
        Slot *acc = var_slot(s, t, st->u.mma.acc, index + i);
        for (uint32_t k = 0; k < (uint32_t)k_mma_k(st) && !s->fault; k++) {
            double x = fragment(s, warp0, st, true, row, k), y = fragment(s, warp0, st, false, n, k);
            acc->f = fix(MT_DT_F32, (Slot){.f = acc->f + x * y}).f;
        }
    }
}

/* x with the 13 low bits of its mantissa dropped: the TF32 value the
 * tensor core takes of an f32 (NaN stays NaN). */
static double tf32_bits(double x)
{
    float f = (float)x;
    if (isnan(f))
        return x;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    u &= 0xffffe000u;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Element [r][c] (r < rows of the 64 x K A or the K x n B) of a wgmma
 * operand in shared memory, found as the hardware finds it: the
 * canonical layout's byte address (KST_WGMMA's rule) on the pool,
 * swizzled, then the element of the shared array there. */
static double wgmma_shared(Sim *s, uint32_t t, const KStmt *st, bool is_a, uint32_t r, uint32_t c)
{
    KVarId v = is_a ? st->u.wg.a : st->u.wg.b;
    const KVar *x = &s->f->vars.v[v];
    uint64_t e = mt_dtype_info((MtDtype)x->dt)->size, w = is_a ? st->u.wg.a_swizzle : st->u.wg.b_swizzle;
    uint64_t start = x->offset + (uint64_t)eval(s, t, is_a ? st->u.wg.a_at : st->u.wg.b_at).i * e;
    uint64_t at = is_a               ? start + (r / 8) * st->u.wg.a_sbo + (r % 8) * w + c * e
                  : st->u.wg.b_k_major ? start + (c / 8) * st->u.wg.b_sbo + (c % 8) * w + r * e
                                       : start + (c * e / w) * st->u.wg.b_lbo + (c * e % w) + (r / 8) * st->u.wg.b_sbo +
                                             (r % 8) * w;
    at ^= ((at >> 7) & (w / 16 - 1)) << 4;
    if (at < x->offset || (at - x->offset) % e) {
        fault(s, mt_sprintf(s->c, "wgmma operand in %s", x->name), (int64_t)at);
        return 0;
    }
    return var_slot(s, t, v, (int64_t)((at - x->offset) / e))->f;
}

/* Element [r][k] of a wgmma's A held in registers by the warpgroup of
 * thread t (KST_WGMMA's rule). */
static double wgmma_register(Sim *s, uint32_t t, const KStmt *st, uint32_t r, uint32_t k)
{
    uint32_t holder = t - t % 128 + 32 * (r / 16) + 4 * (r % 8) + k % 4;
    return var_slot(s, holder, st->u.wg.a, st->u.wg.a_first + (r % 16) / 8 + 2 * (k / 4))->f;
}

/* wgmma for thread t: its n / 2 accumulators, each a sum over k in order
 * with one f32 rounding per step, of its warpgroup's operands (TF32 ones
 * as the tensor core takes them). */
static void run_wgmma(Sim *s, uint32_t t, const KStmt *st)
{
    uint32_t w = (t / 32) % 4, lane = t % 32;
    bool tf32 = st->u.wg.in_dt == MT_DT_F32;
    for (uint32_t i = 0; i < st->u.wg.n / 2u && !s->fault; i++) {
        uint32_t row = 16 * w + lane / 4 + 8 * ((i / 2) % 2), col = 8 * (i / 4) + 2 * (lane % 4) + i % 2;
        Slot *acc = var_slot(s, t, st->u.wg.acc, st->u.wg.acc_first + i);
        for (uint32_t k = 0; k < (uint32_t)k_wgmma_k(st) && !s->fault; k++) {
            double a = st->u.wg.a_in_regs ? wgmma_register(s, t, st, row, k) : wgmma_shared(s, t, st, true, row, k);
            double b = wgmma_shared(s, t, st, false, k, col);
            if (tf32)
                a = tf32_bits(a), b = tf32_bits(b);
            acc->f = fix(MT_DT_F32, (Slot){.f = acc->f + a * b}).f;
        }
    }
}

static void run_stmt(Sim *s, const KStmt *st, const uint8_t *active)
{
    uint32_t n = s->nthreads;
    s->cur = st;
    switch ((KStmtKind)st->kind) {
    case KST_DECL:
        if (!st->u.set.value)
            return;
        /* fall through */
    case KST_SET: {
        /* read every thread's value before writing any (shuffles) */
        Slot *vals = malloc(n * sizeof *vals);
        int64_t *idx = malloc(n * sizeof *idx);
        for (uint32_t t = 0; t < n; t++)
            if (active[t]) {
                vals[t] = eval(s, t, st->u.set.value);
                idx[t] = st->u.set.index ? eval(s, t, st->u.set.index).i : 0;
            }
        for (uint32_t t = 0; t < n && !s->fault; t++)
            if (active[t])
                *var_slot(s, t, st->u.set.var, idx[t]) = vals[t];
        free(vals);
        free(idx);
        return;
    }
    case KST_STORE:
        for (uint32_t t = 0; t < n && !s->fault; t++)
            if (active[t] && (!st->u.store.mask || eval(s, t, st->u.store.mask).i))
                store(s, st->u.store.ptr, eval(s, t, st->u.store.index).i, eval(s, t, st->u.store.value));
        return;
    case KST_VLOAD:
        for (uint32_t t = 0; t < n && !s->fault; t++) {
            if (!active[t])
                continue;
            bool on = !st->u.vec.mask || eval(s, t, st->u.vec.mask).i;
            int64_t at = eval(s, t, st->u.vec.index).i;
            if (on && at % st->u.vec.vec)
                fault(s, mt_sprintf(s->c, "misaligned %u-wide load from %s", st->u.vec.vec,
                                    s->f->vars.v[st->u.vec.ptr].name), at);
            bool shared = s->f->vars.v[st->u.vec.ptr].kind == KV_SHARED;
            for (uint32_t i = 0; i < st->u.vec.vec && !s->fault; i++) {
                Slot v = {0};
                if (on)
                    v = shared ? *var_slot(s, t, st->u.vec.ptr, at + i) : load(s, st->u.vec.ptr, at + i);
                else if (st->u.vec.other)
                    v = eval(s, t, st->u.vec.other[i]);
                *var_slot(s, t, st->u.vec.var, st->u.vec.first + i) = v;
            }
        }
        return;
    case KST_VSTORE:
        for (uint32_t t = 0; t < n && !s->fault; t++) {
            if (!active[t] || (st->u.vec.mask && !eval(s, t, st->u.vec.mask).i))
                continue;
            int64_t at = eval(s, t, st->u.vec.index).i;
            if (at % st->u.vec.vec)
                fault(s, mt_sprintf(s->c, "misaligned %u-wide store to %s", st->u.vec.vec,
                                    s->f->vars.v[st->u.vec.ptr].name), at);
            for (uint32_t i = 0; i < st->u.vec.vec && !s->fault; i++)
                store(s, st->u.vec.ptr, at + i, *var_slot(s, t, st->u.vec.var, st->u.vec.first + i));
        }
        return;
    case KST_IF: {
        uint8_t *yes = malloc(n), *no = malloc(n);
        for (uint32_t t = 0; t < n; t++) {
            bool c = active[t] && eval(s, t, st->u.if_.cond).i;
            yes[t] = c;
            no[t] = active[t] && !c;
        }
        run_block(s, &st->u.if_.then, yes);
        run_block(s, &st->u.if_.els, no);
        free(yes);
        free(no);
        return;
    }
    case KST_FOR: {
        uint8_t *in = malloc(n);
        for (uint32_t t = 0; t < n; t++)
            if ((in[t] = active[t]))
                *var_slot(s, t, st->u.for_.iv, 0) = eval(s, t, st->u.for_.start);
        for (;;) {
            bool any = false;
            for (uint32_t t = 0; t < n; t++)
                if (in[t]) {
                    in[t] = var_slot(s, t, st->u.for_.iv, 0)->i < eval(s, t, st->u.for_.stop).i;
                    any |= in[t];
                }
            if (!any || s->fault || mt_cancelled(s->c))
                break;
            run_block(s, &st->u.for_.body, in);
            for (uint32_t t = 0; t < n; t++)
                if (in[t])
                    var_slot(s, t, st->u.for_.iv, 0)->i += st->u.for_.step;
        }
        free(in);
        return;
    }
    case KST_WHILE: {
        uint8_t *in = malloc(n);
        memcpy(in, active, n);
        for (;;) {
            bool any = false;
            for (uint32_t t = 0; t < n; t++)
                if (in[t]) {
                    in[t] = eval(s, t, st->u.while_.cond).i != 0;
                    any |= in[t];
                }
            if (!any || s->fault || mt_cancelled(s->c))
                break;
            run_block(s, &st->u.while_.body, in);
        }
        free(in);
        return;
    }
    case KST_LDMATRIX:
        for (uint32_t t = 0; t < n && !s->fault; t++)
            if (active[t])
                run_ldmatrix(s, t, st);
        return;
    case KST_MMA:
        for (uint32_t t = 0; t < n && !s->fault; t++)
            if (active[t])
                run_mma(s, t, st);
        return;
    case KST_WGMMA:
        /* lockstep: the product lands at once (fences and waits have nothing to do) */
        for (uint32_t t = 0; t < n && !s->fault; t++)
            if (active[t])
                run_wgmma(s, t, st);
        return;
    case KST_ATOMIC:
        /* one thread after the other: each sees the ones before it */
        for (uint32_t t = 0; t < n && !s->fault; t++)
            if (active[t])
                run_atomic(s, t, &st->u.atomic);
        return;
    case KST_CP_ASYNC:
        /* lockstep: the copy lands at once (a wait has nothing left to do) */
        for (uint32_t t = 0; t < n && !s->fault; t++) {
            if (!active[t])
                continue;
            bool on = !st->u.cp.mask || eval(s, t, st->u.cp.mask).i;
            int64_t at = eval(s, t, st->u.cp.index).i, to = eval(s, t, st->u.cp.smem_at).i;
            uint32_t elems = st->u.cp.bytes / (uint32_t)mt_dtype_info((MtDtype)s->f->vars.v[st->u.cp.smem].dt)->size;
            if ((on && at % elems) || to % elems)
                fault(s, mt_sprintf(s->c, "misaligned %u-byte cp.async from %s", st->u.cp.bytes,
                                    s->f->vars.v[st->u.cp.ptr].name), on && at % elems ? at : to);
            for (uint32_t i = 0; i < elems && !s->fault; i++)
                *var_slot(s, t, st->u.cp.smem, to + i) = on ? load(s, st->u.cp.ptr, at + i) : (Slot){0};
        }
        return;
    case KST_CP_COMMIT:
    case KST_CP_WAIT:
    case KST_PROXY_FENCE:
    case KST_WGMMA_FENCE:
    case KST_WGMMA_COMMIT:
    case KST_WGMMA_WAIT:
    case KST_BARRIER:
    case KST_BLANK:
        return;
    }
}

static void run_block(Sim *s, const KBlock *blk, const uint8_t *active)
{
    for (uint32_t i = 0; i < blk->n && !s->fault; i++)
        run_stmt(s, blk->v[i], active);
}

MtStatus mt_simulate(MtCtx *c, MtCompiled *k, const int64_t grid[3], const MtKernelArg *args, size_t nargs)
{
    const KFunc *f = k->kernel;
    if (!f) {
        mt_diag(c, MT_SEV_ERROR, (MtSpan){0}, "R0703",
                "the kernel simulator runs the fast lowering's kernel layer: compile with lowering fast through "
                "the CUDA stage");
        return MT_ERR_USAGE;
    }
    Sim s = {.c = c, .f = f, .nthreads = f->threads};
    uint32_t nv = f->vars.n;
    s.off = calloc(nv, sizeof *s.off);
    s.shared = calloc(nv, sizeof *s.shared);
    s.params = calloc(nv, sizeof *s.params);
    s.bufs = calloc(nv, sizeof *s.bufs);
    for (uint32_t v = 1; v < nv; v++) {
        const KVar *x = &f->vars.v[v];
        if (x->kind == KV_LOCAL || x->kind == KV_REGS) {
            s.off[v] = s.nslots;
            s.nslots += x->kind == KV_REGS ? x->n : 1;
        } else if (x->kind == KV_SHARED) {
            s.shared[v] = calloc(x->n ? x->n : 1, sizeof(Slot));
        }
    }
    /* runtime parameters, then the program grid */
    size_t runtime = f->params.n - 3;
    MtStatus st = MT_OK;
    if (nargs != runtime) {
        mt_diag(c, MT_SEV_ERROR, (MtSpan){0}, "R0703", "%s takes %zu runtime arguments, got %zu", f->name, runtime,
                nargs);
        st = MT_ERR_USAGE;
    }
    for (size_t i = 0; i < runtime && st == MT_OK; i++) {
        KVarId v = f->params.v[i];
        const KVar *x = &f->vars.v[v];
        if (x->ptr)
            s.bufs[v] = (Buf){args[i].data, (int64_t)args[i].numel, (MtDtype)x->dt};
        else if (is_float((MtDtype)x->dt))
            s.params[v].f = (double)(float)args[i].f;
        else
            s.params[v].i = args[i].i;
    }
    for (int d = 0; d < 3; d++)
        s.params[f->params.v[runtime + d]].i = grid[d];
    s.regs = calloc((size_t)s.nthreads * (s.nslots ? s.nslots : 1), sizeof(Slot));
    uint8_t *all = malloc(s.nthreads);
    memset(all, 1, s.nthreads);
    int64_t bx = (grid[0] + f->programs_per_block - 1) / f->programs_per_block;
    for (int64_t z = 0; z < grid[2] && st == MT_OK && !s.fault; z++)
        for (int64_t y = 0; y < grid[1] && !s.fault; y++)
            for (int64_t x = 0; x < bx && !s.fault; x++) {
                s.block[0] = (unsigned)x;
                s.block[1] = (unsigned)y;
                s.block[2] = (unsigned)z;
                run_block(&s, &f->prologue, all);
                run_block(&s, &f->body, all);
            }
    if (s.fault)
        st = MT_ERR_SOURCE;
    else if (mt_cancelled(c))
        st = MT_CANCELLED;
    for (uint32_t v = 1; v < nv; v++)
        free(s.shared[v]);
    free(s.off);
    free(s.shared);
    free(s.params);
    free(s.bufs);
    free(s.regs);
    free(all);
    return st;
}
