/* kcuda.c: the kernel layer printed as CUDA C++.
 *
 * A direct transcription: every kernel-layer statement becomes one
 * statement (marked with its source range, so tools can link CUDA lines
 * to Python lines), every expression a fully parenthesised C++ expression.
 * The dtype table gives the C++ types; f16 and bf16 are defined in the
 * source itself (khalf.c), with operators that round after each operation
 * (as the interpreter does) and math that goes through float. Integer arithmetic is C's on the dtype's type; float-to-integer
 * casts are the hardware's (toward zero, saturating, NaN to 0). */
#include <string.h>

#include "kcuda.h"

#include "addr.h"
#include "base/strbuf.h"
#include "emit.h"

typedef struct Pr {
    MtCtx *c;
    const KFunc *f;
    MtBuf *b;
    const char **names;       /* per variable: its C name */
    KcAddr addr;              /* offset variables declared as pointers (addr.c) */
    int indent;
} Pr;

static const char *ctype(MtDtype dt) { return mt_dtype_info(dt)->cuda; }

static bool is_half(MtDtype dt) { return dt == MT_DT_F16 || dt == MT_DT_BF16; }

static bool is_float(MtDtype dt) { return mt_dtype_info(dt)->cls == MT_DC_FLOAT; }

/* The conversions of khalf.c for a 16-bit float type. */
static const char *half_rn(MtDtype dt) { return dt == MT_DT_F16 ? "mt_f16_rn" : "mt_bf16_rn"; }
static const char *half_to_float(MtDtype dt) { return dt == MT_DT_F16 ? "mt_f16_to_f32" : "mt_bf16_to_f32"; }

static void expr(Pr *p, const KExpr *e);

static void literal(Pr *p, const KExpr *e)
{
    MtDtype dt = (MtDtype)e->dt;
    MtConst k = e->u.c;
    switch (mt_dtype_info(dt)->cls) {
    case MT_DC_BOOL:
        mt_buf_puts(p->b, (k.kind == CST_FLOAT ? k.f != 0 : k.i != 0) ? "true" : "false");
        return;
    case MT_DC_FLOAT:
        if (is_half(dt)) {
            mt_buf_printf(p->b, "%s(", half_rn(dt));
            cu_literal(p->b, k, &mt_ty_f32);
            mt_buf_putc(p->b, ')');
        } else if (dt == MT_DT_F64) {
            mt_buf_printf(p->b, "%.17g", k.kind == CST_FLOAT ? k.f : (double)k.i);
            if (k.kind == CST_FLOAT && k.f == (double)(int64_t)k.f)
                mt_buf_puts(p->b, ".0");
        } else {
            cu_literal(p->b, k, &mt_ty_f32);
        }
        return;
    case MT_DC_SINT:
    case MT_DC_UINT: {
        int64_t i = k.kind == CST_FLOAT ? (int64_t)k.f : k.i;
        if (dt == MT_DT_I32)
            mt_buf_printf(p->b, "%lld", (long long)i);
        else if (dt == MT_DT_I64)
            mt_buf_printf(p->b, "%lldLL", (long long)i);
        else if (dt == MT_DT_U32)
            mt_buf_printf(p->b, "%lluu", (unsigned long long)(uint32_t)i);
        else if (dt == MT_DT_U64)
            mt_buf_printf(p->b, "%lluull", (unsigned long long)i);
        else
            mt_buf_printf(p->b, "(%s)%lld", ctype(dt), (long long)i);
        return;
    }
    }
}

static void binary(Pr *p, const char *op, const KExpr *e)
{
    mt_buf_putc(p->b, '(');
    expr(p, e->a[0]);
    mt_buf_printf(p->b, " %s ", op);
    expr(p, e->a[1]);
    mt_buf_putc(p->b, ')');
}

/* f(args) computed in float for half types: mt_f16_rn(f(mt_f16_to_f32(x), ...)). */
static void call_via_float(Pr *p, const char *fn, const KExpr *e, int nargs)
{
    MtDtype dt = (MtDtype)e->dt;
    bool half = is_half(dt);
    if (half)
        mt_buf_printf(p->b, "%s(", half_rn(dt));
    mt_buf_printf(p->b, "%s(", fn);
    for (int i = 0; i < nargs; i++) {
        if (i)
            mt_buf_puts(p->b, ", ");
        if (half)
            mt_buf_printf(p->b, "%s(", half_to_float(dt));
        expr(p, e->a[i]);
        if (half)
            mt_buf_putc(p->b, ')');
    }
    mt_buf_putc(p->b, ')');
    if (half)
        mt_buf_putc(p->b, ')');
}

/* One conversion of tl.cast: floats round to nearest even (or toward zero
 * when mode says so), float to integer truncates toward zero and saturates
 * (NaN to 0) as a GPU's cvt.rzi.sat, integers wrap. */
static void cast(Pr *p, const KExpr *e)
{
    MtBuf *b = p->b;
    MtDtype to = (MtDtype)e->dt, from = (MtDtype)e->a[0]->dt;
    bool rtz = e->u.mode == MT_ROUND_RTZ;
    const KExpr *x = e->a[0];
    const MtDtypeInfo *ti = mt_dtype_info(to);
    if (ti->cls == MT_DC_BOOL) {
        mt_buf_puts(b, "(");
        if (is_half(from)) {
            mt_buf_printf(b, "%s(", half_to_float(from));
            expr(p, x);
            mt_buf_puts(b, ") != 0.0f)");
        } else {
            expr(p, x);
            mt_buf_puts(b, " != 0)");
        }
        return;
    }
    /* the source as float or double, when it is a float */
    const char *src_open = "", *src_close = "";
    if (is_half(from)) {
        src_open = mt_sprintf(p->c, "%s(", half_to_float(from));
        src_close = ")";
    }
    if (ti->cls == MT_DC_FLOAT) {
        if (is_half(to)) {
            mt_buf_printf(b, "%s_%s%s(%s%s", to == MT_DT_F16 ? "mt_f16" : "mt_bf16", rtz ? "rz" : "rn",
                          from == MT_DT_F64 ? "_f64" : "", from == MT_DT_F64 ? "" : "(float)", src_open);
            expr(p, x);
            mt_buf_printf(b, "%s)", src_close);
            return;
        }
        if (to == MT_DT_F32 && from == MT_DT_F64 && rtz)
            mt_buf_puts(b, "(__double2float_rz(");
        else
            mt_buf_printf(b, "((%s)(", ctype(to));
        mt_buf_puts(b, src_open);
        expr(p, x);
        mt_buf_printf(b, "%s))", src_close);
        return;
    }
    if (mt_dtype_info(from)->cls == MT_DC_FLOAT) {
        bool dbl = from == MT_DT_F64, sgn = ti->cls == MT_DC_SINT;
        const char *fn = ti->bits == 64 ? (sgn ? (dbl ? "__double2ll_rz" : "__float2ll_rz") : (dbl ? "__double2ull_rz" : "__float2ull_rz"))
                                         : (sgn ? (dbl ? "__double2int_rz" : "__float2int_rz") : (dbl ? "__double2uint_rz" : "__float2uint_rz"));
        if (ti->bits < 32) {
            /* saturate the 32-bit conversion to the narrow range */
            long long hi = sgn ? (1LL << (ti->bits - 1)) - 1 : (1LL << ti->bits) - 1, lo = sgn ? -(1LL << (ti->bits - 1)) : 0;
            mt_buf_printf(b, "((%s)%s(%s(%s", ctype(to), sgn ? "min(max" : "min", fn, src_open);
            expr(p, x);
            if (sgn)
                mt_buf_printf(b, "%s), %lld), %lld))", src_close, lo, hi);
            else
                mt_buf_printf(b, "%s), %lldu))", src_close, hi);
            return;
        }
        mt_buf_printf(b, "%s(%s", fn, src_open);
        expr(p, x);
        mt_buf_printf(b, "%s)", src_close);
        return;
    }
    mt_buf_printf(b, "((%s)", ctype(to));
    expr(p, x);
    mt_buf_putc(b, ')');
}

/* Reinterpreting bits between two types of one width. */
static void bitcast(Pr *p, const KExpr *e)
{
    MtDtype to = (MtDtype)e->dt, from = (MtDtype)e->a[0]->dt;
    unsigned size = mt_dtype_info(to)->size;
    const char *u = size == 8 ? "unsigned long long" : size == 4 ? "unsigned int" : size == 2 ? "unsigned short" : "unsigned char";
    const char *bits = NULL, *open = NULL;
    switch (from) {
    case MT_DT_F32: bits = "__float_as_uint("; break;
    case MT_DT_F64: bits = "(unsigned long long)__double_as_longlong("; break;
    case MT_DT_F16:
    case MT_DT_BF16: bits = "("; break;
    case MT_DT_I1:
    case MT_DT_I8:
    case MT_DT_I16:
    case MT_DT_I32:
    case MT_DT_I64:
    case MT_DT_U8:
    case MT_DT_U16:
    case MT_DT_U32:
    case MT_DT_U64:
    case MT_DTYPE_COUNT: bits = mt_sprintf(p->c, "(%s)(", u); break;
    }
    switch (to) {
    case MT_DT_F32: open = "__uint_as_float("; break;
    case MT_DT_F64: open = "__longlong_as_double((long long)"; break;
    case MT_DT_F16:
    case MT_DT_BF16: open = mt_sprintf(p->c, "%s{(unsigned short)", ctype(to)); break;
    case MT_DT_I1:
    case MT_DT_I8:
    case MT_DT_I16:
    case MT_DT_I32:
    case MT_DT_I64:
    case MT_DT_U8:
    case MT_DT_U16:
    case MT_DT_U32:
    case MT_DT_U64:
    case MT_DTYPE_COUNT: open = mt_sprintf(p->c, "((%s)", ctype(to)); break;
    }
    mt_buf_printf(p->b, "%s%s", open, bits);
    expr(p, e->a[0]);
    mt_buf_printf(p->b, "%s%s", is_half(from) ? ").bits" : ")", is_half(to) ? "}" : ")");
}

static const char *const math32[OPC_COUNT_] = {
#define MATH(id, name, nargs, dtypes, api, c32, c64, chalf, cuda32, cuda64, params, doc) [OP_##id] = cuda32,
#include "ssa/math.def"
#undef MATH
};
static const char *const math64[OPC_COUNT_] = {
#define MATH(id, name, nargs, dtypes, api, c32, c64, chalf, cuda32, cuda64, params, doc) [OP_##id] = cuda64,
#include "ssa/math.def"
#undef MATH
};

static void expr(Pr *p, const KExpr *e)
{
    MtBuf *b = p->b;
    MtDtype dt = (MtDtype)e->dt;
    switch ((KOp)e->op) {
    case K_CONST: literal(p, e); return;
    case K_VAR: mt_buf_puts(b, p->names[e->u.var]); return;
    case K_ELEM:
        mt_buf_printf(b, "%s[", p->names[e->u.var]);
        expr(p, e->a[0]);
        mt_buf_putc(b, ']');
        return;
    case K_SPECIAL: {
        static const char *const sp[] = {"threadIdx.x", "blockIdx.x", "blockIdx.y", "blockIdx.z", "(threadIdx.x & 31)",
                                          "(threadIdx.x >> 5)"};
        mt_buf_printf(b, "(int)%s", sp[e->u.special]);
        return;
    }
    case K_NEG:
        mt_buf_puts(b, "(-");
        expr(p, e->a[0]);
        mt_buf_putc(b, ')');
        return;
    case K_BNOT:
    case K_LNOT:
        mt_buf_puts(b, e->op == K_BNOT ? "(~" : "(!");
        expr(p, e->a[0]);
        mt_buf_putc(b, ')');
        return;
    case K_ABS:
        if (is_float(dt)) {
            call_via_float(p, dt == MT_DT_F64 ? "fabs" : "fabsf", e, 1);
        } else {
            mt_buf_puts(b, "(");
            expr(p, e->a[0]);
            mt_buf_puts(b, " < 0 ? -");
            expr(p, e->a[0]);
            mt_buf_puts(b, " : ");
            expr(p, e->a[0]);
            mt_buf_puts(b, ")");
        }
        return;
    case K_ADD: binary(p, "+", e); return;
    case K_SUB: binary(p, "-", e); return;
    case K_MUL: binary(p, "*", e); return;
    case K_DIV: binary(p, "/", e); return;
    case K_REM:
        if (is_float(dt))
            call_via_float(p, dt == MT_DT_F64 ? "fmod" : "fmodf", e, 2);
        else
            binary(p, "%", e);
        return;
    case K_BAND: binary(p, "&", e); return;
    case K_BOR: binary(p, "|", e); return;
    case K_BXOR: binary(p, "^", e); return;
    case K_SHL: binary(p, "<<", e); return;
    case K_SHR: binary(p, ">>", e); return;
    case K_LAND: binary(p, "&&", e); return;
    case K_LOR: binary(p, "||", e); return;
    case K_LT: binary(p, "<", e); return;
    case K_LE: binary(p, "<=", e); return;
    case K_GT: binary(p, ">", e); return;
    case K_GE: binary(p, ">=", e); return;
    case K_EQ: binary(p, "==", e); return;
    case K_NE: binary(p, "!=", e); return;
    case K_MAX:
    case K_MIN: {
        /* floats: a NaN in a wins, equal values give b (the seeds' rule) */
        const char *rel = e->op == K_MAX ? ">" : "<";
        mt_buf_puts(b, "((");
        if (is_float(dt)) {
            expr(p, e->a[0]);
            mt_buf_puts(b, " != ");
            expr(p, e->a[0]);
            mt_buf_puts(b, " || ");
        }
        expr(p, e->a[0]);
        mt_buf_printf(b, " %s ", rel);
        expr(p, e->a[1]);
        mt_buf_puts(b, ") ? ");
        expr(p, e->a[0]);
        mt_buf_puts(b, " : ");
        expr(p, e->a[1]);
        mt_buf_putc(b, ')');
        return;
    }
    case K_FMAX:
    case K_FMIN:
        call_via_float(p, e->op == K_FMAX ? (dt == MT_DT_F64 ? "fmax" : "fmaxf") : (dt == MT_DT_F64 ? "fmin" : "fminf"),
                       e, 2);
        return;
    case K_FMA: call_via_float(p, dt == MT_DT_F64 ? "fma" : "__fmaf_rn", e, 3); return;
    case K_SELECT:
        mt_buf_putc(b, '(');
        expr(p, e->a[0]);
        mt_buf_puts(b, " ? ");
        expr(p, e->a[1]);
        mt_buf_puts(b, " : ");
        expr(p, e->a[2]);
        mt_buf_putc(b, ')');
        return;
    case K_CAST: cast(p, e); return;
    case K_BITCAST: bitcast(p, e); return;
    case K_UMULHI: {
        bool wide = mt_dtype_info(dt)->size == 8;
        const char *u = wide ? "unsigned long long" : "unsigned int";
        mt_buf_printf(b, "((%s)%s((%s)", ctype(dt), wide ? "__umul64hi" : "__umulhi", u);
        expr(p, e->a[0]);
        mt_buf_printf(b, ", (%s)", u);
        expr(p, e->a[1]);
        mt_buf_puts(b, "))");
        return;
    }
    case K_MATH:
        if (is_half(dt) && e->u.math == OP_FMA) /* one rounding to the half type (khalf.c) */
            call_via_float(p, "mt_fmaf_odd", e, e->nargs);
        else
            call_via_float(p, dt == MT_DT_F64 ? math64[e->u.math] : math32[e->u.math], e, e->nargs);
        return;
    case K_LOAD:
        if (kc_pointer_term(&p->addr, e->a[0])) {
            mt_buf_puts(b, "(*");
            expr(p, e->a[0]);
            mt_buf_putc(b, ')');
            return;
        }
        mt_buf_printf(b, "%s[", p->names[e->u.var]);
        expr(p, e->a[0]);
        mt_buf_putc(b, ']');
        return;
    case K_SHFL_XOR:
        if (is_half(dt)) {
            /* a 16-bit float moves as its bits */
            mt_buf_printf(b, "%s{(unsigned short)__shfl_xor_sync(0xffffffffu, (unsigned)(", ctype(dt));
            expr(p, e->a[0]);
            mt_buf_printf(b, ").bits, %u)}", e->u.lane_mask);
            return;
        }
        mt_buf_puts(b, "__shfl_xor_sync(0xffffffffu, ");
        expr(p, e->a[0]);
        mt_buf_printf(b, ", %u)", e->u.lane_mask);
        return;
    case K_COUNT_: break;
    }
    mt_buf_puts(b, "/*?*/0");
}

/* ---- vector accesses: raw words of 2 to 16 bytes ------------------------------------ */

static const char *raw_type(unsigned bytes)
{
    return bytes == 16 ? "uint4" : bytes == 8 ? "uint2" : bytes == 4 ? "unsigned int" : "unsigned short";
}

/* The 32-bit word w of raw value t (or t itself below 4 bytes). */
static const char *word(MtCtx *c, unsigned bytes, unsigned w)
{
    static const char *const xyzw = "xyzw";
    return bytes >= 8 ? mt_sprintf(c, "mt_v.%c", xyzw[w]) : "mt_v";
}

/* Element i of dtype dt from the raw value t. */
static const char *from_bits(MtCtx *c, MtDtype dt, unsigned bytes, unsigned i)
{
    unsigned size = mt_dtype_info(dt)->size;
    if (size == 8) {
        const char *v = mt_sprintf(c, "((unsigned long long)%s | ((unsigned long long)%s << 32))", word(c, bytes, 2 * i),
                                   word(c, bytes, 2 * i + 1));
        return dt == MT_DT_F64 ? mt_sprintf(c, "__longlong_as_double((long long)%s)", v) : mt_sprintf(c, "(%s)%s", ctype(dt), v);
    }
    if (size == 4)
        return dt == MT_DT_F32 ? mt_sprintf(c, "__uint_as_float(%s)", word(c, bytes, i))
                               : mt_sprintf(c, "(%s)%s", ctype(dt), word(c, bytes, i));
    unsigned per = 4 / size;
    const char *bits = mt_sprintf(c, "((%s >> %u) & %s)", word(c, bytes, i / per), (i % per) * 8 * size,
                                  size == 2 ? "0xffffu" : "0xffu");
    if (bytes == 2)
        bits = "mt_v";
    switch (dt) {
    case MT_DT_F16:
    case MT_DT_BF16: return mt_sprintf(c, "%s{(unsigned short)%s}", ctype(dt), bits);
    case MT_DT_I1: return mt_sprintf(c, "(%s != 0)", bits);
    case MT_DT_I8:
    case MT_DT_I16:
    case MT_DT_I32:
    case MT_DT_I64:
    case MT_DT_U8:
    case MT_DT_U16:
    case MT_DT_U32:
    case MT_DT_U64:
    case MT_DT_F32:
    case MT_DT_F64:
    case MT_DTYPE_COUNT: break;
    }
    return mt_sprintf(c, "(%s)%s", ctype(dt), bits);
}

/* The bits of a value of dtype dt (C expression text) as an unsigned word. */
static const char *to_bits(MtCtx *c, MtDtype dt, const char *x)
{
    switch (dt) {
    case MT_DT_F32: return mt_sprintf(c, "__float_as_uint(%s)", x);
    case MT_DT_F64: return mt_sprintf(c, "(unsigned long long)__double_as_longlong(%s)", x);
    case MT_DT_F16:
    case MT_DT_BF16: return mt_sprintf(c, "(unsigned)(%s).bits", x);
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
    unsigned size = mt_dtype_info(dt)->size;
    return mt_sprintf(c, size == 8 ? "(unsigned long long)%s" : size == 4 ? "(unsigned)%s" : size == 2 ? "(unsigned)(unsigned short)%s" : "(unsigned)(unsigned char)%s", x);
}

/* The raw value holding the elements vals[0..vec) of dt. */
static const char *pack(MtCtx *c, MtDtype dt, unsigned vec, const char *const *vals)
{
    unsigned size = mt_dtype_info(dt)->size, bytes = vec * size;
    unsigned nw = bytes < 4 ? 1 : bytes / 4;
    const char *w[4];
    for (unsigned k = 0; k < nw; k++) {
        if (size == 8) {
            const char *b = to_bits(c, dt, vals[k / 2]);
            w[k] = mt_sprintf(c, k % 2 ? "(unsigned)(%s >> 32)" : "(unsigned)%s", b);
            continue;
        }
        if (size == 4) {
            w[k] = to_bits(c, dt, vals[k]);
            continue;
        }
        unsigned per = 4 / size;
        MtBuf b;
        mt_buf_init(&b, &c->arena);
        mt_buf_putc(&b, '(');
        for (unsigned j = 0; j < per && k * per + j < vec; j++)
            mt_buf_printf(&b, "%s(%s << %u)", j ? " | " : "", to_bits(c, dt, vals[k * per + j]), j * 8 * size);
        mt_buf_putc(&b, ')');
        w[k] = mt_buf_str(&b);
    }
    if (bytes == 16)
        return mt_sprintf(c, "make_uint4(%s, %s, %s, %s)", w[0], w[1], w[2], w[3]);
    if (bytes == 8)
        return mt_sprintf(c, "make_uint2(%s, %s)", w[0], w[1]);
    return bytes == 2 ? mt_sprintf(c, "(unsigned short)%s", w[0]) : w[0];
}

static const char *expr_text(Pr *p, const KExpr *e)
{
    MtBuf b;
    mt_buf_init(&b, &p->c->arena);
    MtBuf *saved = p->b;
    p->b = &b;
    expr(p, e);
    p->b = saved;
    return mt_buf_str(&b);
}

/* The address of element `index` of global array ptr: &ptr[index], or
 * the index itself where it is a pointer (addr.c). */
static const char *address(Pr *p, KVarId ptr, const KExpr *index)
{
    const char *i = expr_text(p, index);
    return kc_pointer_term(&p->addr, index) ? i : mt_sprintf(p->c, "&%s[%s]", p->names[ptr], i);
}

/* The value assigned to var: P + value where var points into P and the
 * value is an offset. */
static void assigned(Pr *p, KVarId var, const KExpr *value)
{
    bool offset = p->addr.ptr[var] && !kc_pointer_term(&p->addr, value);
    if (offset)
        mt_buf_printf(p->b, "(%s + ", p->names[p->addr.param[var]]);
    expr(p, value);
    if (offset)
        mt_buf_putc(p->b, ')');
}

static void line_start(Pr *p, const KStmt *s);

/* { uint4 t = mask ? *(const uint4 *)&x[i] : make_uint4(others); v[0] = ...; } */
static void vector_access(Pr *p, const KStmt *s)
{
    MtCtx *c = p->c;
    MtBuf *b = p->b;
    const KVar *v = k_var_at(p->f, s->u.vec.var);
    MtDtype dt = (MtDtype)v->dt;
    unsigned vec = s->u.vec.vec, bytes = vec * mt_dtype_info(dt)->size;
    const char *at = address(p, s->u.vec.ptr, s->u.vec.index), *var = p->names[s->u.vec.var], *raw = raw_type(bytes);
    line_start(p, s);
    if (s->kind == KST_VSTORE) {
        const char **vals = mt_arena_alloc(&c->arena, vec * sizeof *vals);
        for (unsigned i = 0; i < vec; i++)
            vals[i] = mt_sprintf(c, "%s[%u]", var, s->u.vec.first + i);
        if (s->u.vec.mask)
            mt_buf_printf(b, "if (%s) ", expr_text(p, s->u.vec.mask));
        mt_buf_printf(b, "*(%s *)%s = %s;\n", raw, at, pack(c, dt, vec, vals));
        return;
    }
    mt_buf_printf(b, "{ %s mt_v = ", raw);
    const char *load = mt_sprintf(c, "*(const %s *)%s", raw, at);
    if (s->u.vec.mask) {
        const char **others = mt_arena_alloc(&c->arena, vec * sizeof *others);
        for (unsigned i = 0; i < vec; i++)
            others[i] = expr_text(p, s->u.vec.other ? s->u.vec.other[i] : k_int(c, dt, 0));
        mt_buf_printf(b, "%s ? %s : %s", expr_text(p, s->u.vec.mask), load, pack(c, dt, vec, others));
    } else {
        mt_buf_puts(b, load);
    }
    mt_buf_puts(b, ";");
    for (unsigned i = 0; i < vec; i++)
        mt_buf_printf(b, " %s[%u] = %s;", var, s->u.vec.first + i, from_bits(c, dt, bytes, i));
    mt_buf_puts(b, " }\n");
}

static void line_start(Pr *p, const KStmt *s)
{
    mt_buf_indent(p->b, 4 * p->indent);
    if (s)
        mt_buf_mark(p->b, s->span, s->inl);
}

static void block(Pr *p, const KBlock *blk);

/* A local's C type: its dtype's, or a pointer into its parameter. */
static const char *var_type(Pr *p, KVarId v)
{
    KVarId param = p->addr.param[v];
    if (param)
        return mt_sprintf(p->c, "%s *", ctype((MtDtype)k_var_at(p->f, param)->dt));
    return ctype((MtDtype)k_var_at(p->f, v)->dt);
}

static void decl(Pr *p, const KStmt *s)
{
    const KVar *v = k_var_at(p->f, s->u.set.var);
    const char *name = p->names[s->u.set.var];
    switch ((KVarKind)v->kind) {
    case KV_SHARED:
        mt_buf_printf(p->b, "%s *const %s = (%s *)(mt_smem + %u); /* [%u] */\n", ctype((MtDtype)v->dt), name,
                      ctype((MtDtype)v->dt), v->offset, v->n);
        return;
    case KV_REGS:
        mt_buf_printf(p->b, "%s %s[%u];\n", var_type(p, s->u.set.var), name, v->n);
        return;
    case KV_LOCAL:
    case KV_PARAM:
        mt_buf_printf(p->b, "%s %s", var_type(p, s->u.set.var), name);
        if (s->u.set.value) {
            mt_buf_puts(p->b, " = ");
            assigned(p, s->u.set.var, s->u.set.value);
        }
        mt_buf_puts(p->b, ";\n");
        return;
    }
}

/* One warp's 16 x 8 tile through mma.sync: the thread's fragments are
 * 32-bit pairs of halves read from the shared operands (A row-major, B
 * transposed), the accumulators read and written in place. */
/* ldmatrix: the lane's row address in the shared window, then the
 * fragments (a memory clobber orders it after the stores before it). */
/* Opens a block with `mt_sa`, the 32-bit shared-memory address of
 * smem[at], for the PTX instruction on the next line to use and close. */
static void shared_address(Pr *p, const KStmt *s, KVarId smem, const KExpr *at)
{
    line_start(p, s);
    mt_buf_printf(p->b, "{ unsigned mt_sa = (unsigned)__cvta_generic_to_shared(&%s[%s]);\n", p->names[smem],
                  expr_text(p, at));
    line_start(p, NULL);
}

static void ldmatrix(Pr *p, const KStmt *s)
{
    MtBuf *b = p->b;
    const char *dst = p->names[s->u.ldm.dst];
    unsigned f = s->u.ldm.first;
    shared_address(p, s, s->u.ldm.smem, s->u.ldm.row_at);
    if (s->u.ldm.count == 4)
        mt_buf_printf(b,
                      "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x4%s.shared.b16 {%%0, %%1, %%2, %%3}, [%%4];\" : "
                      "\"=r\"(%s[%u]), \"=r\"(%s[%u]), \"=r\"(%s[%u]), \"=r\"(%s[%u]) : \"r\"(mt_sa) : \"memory\"); }\n",
                      s->u.ldm.trans ? ".trans" : "", dst, f, dst, f + 1, dst, f + 2, dst, f + 3);
    else
        mt_buf_printf(b,
                      "  asm volatile(\"ldmatrix.sync.aligned.m8n8.x2%s.shared.b16 {%%0, %%1}, [%%2];\" : \"=r\"(%s[%u]), "
                      "\"=r\"(%s[%u]) : \"r\"(mt_sa) : \"memory\"); }\n",
                      s->u.ldm.trans ? ".trans" : "", dst, f, dst, f + 1);
}

/* cp.async: .cg (through L2 only) for 16 bytes, .ca for 4 and 8; a
 * source size of 0 when the mask is off fills the bytes with zeros and
 * reads nothing. */
static void cp_async(Pr *p, const KStmt *s)
{
    MtBuf *b = p->b;
    shared_address(p, s, s->u.cp.smem, s->u.cp.smem_at);
    unsigned n = s->u.cp.bytes;
    mt_buf_printf(b, "  asm volatile(\"cp.async.%s.shared.global [%%0], [%%1], %u, %%2;\" :: \"r\"(mt_sa), \"l\"(%s), "
                     "\"r\"(",
                  n == 16 ? "cg" : "ca", n, address(p, s->u.cp.ptr, s->u.cp.index));
    if (s->u.cp.mask)
        mt_buf_printf(b, "(%s) ? %uu : 0u", expr_text(p, s->u.cp.mask), n);
    else
        mt_buf_printf(b, "%uu", n);
    mt_buf_puts(b, ") : \"memory\"); }\n");
}

/* mma.sync on register fragments (TF32 ones hold floats: their bits). */
static void mma(Pr *p, const KStmt *s)
{
    MtBuf *b = p->b;
    const char *acc = p->names[s->u.mma.acc], *index = expr_text(p, s->u.mma.index);
    const char *a = p->names[s->u.mma.a], *bf = p->names[s->u.mma.b];
    bool tf32 = s->u.mma.in_dt == MT_DT_F32;
    const char *ty = tf32 ? "tf32" : s->u.mma.in_dt == MT_DT_BF16 ? "bf16" : "f16";
    const char *bits = tf32 ? "__float_as_uint" : "";
    unsigned fa = s->u.mma.a_first, fb = s->u.mma.b_first;
    line_start(p, s);
    mt_buf_printf(b,
                  "asm(\"mma.sync.aligned.m16n8k%d.row.col.f32.%s.%s.f32 {%%0,%%1,%%2,%%3}, {%%4,%%5,%%6,%%7}, "
                  "{%%8,%%9}, {%%0,%%1,%%2,%%3};\"\n",
                  k_mma_k(s), ty, ty);
    line_start(p, NULL);
    mt_buf_printf(b, "    : \"+f\"(%s[%s]), \"+f\"(%s[%s + 1]), \"+f\"(%s[%s + 2]), \"+f\"(%s[%s + 3])\n", acc, index,
                  acc, index, acc, index, acc, index);
    line_start(p, NULL);
    mt_buf_printf(b,
                  "    : \"r\"(%s(%s[%u])), \"r\"(%s(%s[%u])), \"r\"(%s(%s[%u])), \"r\"(%s(%s[%u])), \"r\"(%s(%s[%u])), "
                  "\"r\"(%s(%s[%u])));\n",
                  bits, a, fa, bits, a, fa + 1, bits, a, fa + 2, bits, a, fa + 3, bits, bf, fb, bits, bf, fb + 1);
}

/* wgmma's descriptor of a tile in shared memory: its start address and
 * byte offsets in 16-byte units, the swizzle mode in the top two bits. */
static const char wgmma_desc_fn[] =
    "static __device__ __forceinline__ unsigned long long mt_wgmma_desc(const void *p, unsigned lbo, unsigned sbo,\n"
    "                                                                   unsigned long long mode) {\n"
    "    unsigned a = (unsigned)__cvta_generic_to_shared(p);\n"
    "    return (unsigned long long)((a & 0x3FFFF) >> 4) | (unsigned long long)(lbo >> 4) << 16 |\n"
    "           (unsigned long long)(sbo >> 4) << 32 | mode << 62;\n"
    "}\n";

/* The descriptor's swizzle mode for a width of W bytes. */
static unsigned swizzle_mode(unsigned w) { return w == 128 ? 1 : w == 64 ? 2 : 3; }

/* One warpgroup's wgmma: n / 2 accumulators in place, scale-d true
 * (accumulate). Halves: the descriptors of A (K-major: its leading
 * offset unused, 16) and of B (N-major: the transpose bit). TF32: A's
 * four registers, as raw f32 bits, and B's descriptor (K-major; TF32
 * takes no transpose bits). */
static void wgmma(Pr *p, const KStmt *s)
{
    MtBuf *b = p->b;
    unsigned n = s->u.wg.n, regs = n / 2, first = s->u.wg.acc_first;
    const char *acc = p->names[s->u.wg.acc];
    bool rs = s->u.wg.a_in_regs;
    const char *ty = s->u.wg.in_dt == MT_DT_F32 ? "tf32" : s->u.wg.in_dt == MT_DT_BF16 ? "bf16" : "f16";
    line_start(p, s);
    mt_buf_puts(b, "{ ");
    if (!rs) {
        mt_buf_printf(b, "const unsigned long long mt_da = mt_wgmma_desc(&%s[%s], 16u, %uu, %uull);\n",
                      p->names[s->u.wg.a], expr_text(p, s->u.wg.a_at), s->u.wg.a_sbo, swizzle_mode(s->u.wg.a_swizzle));
        line_start(p, NULL);
        mt_buf_puts(b, "  ");
    }
    mt_buf_printf(b, "const unsigned long long mt_db = mt_wgmma_desc(&%s[%s], %uu, %uu, %uull);\n",
                  p->names[s->u.wg.b], expr_text(p, s->u.wg.b_at), s->u.wg.b_k_major ? 16u : s->u.wg.b_lbo,
                  s->u.wg.b_sbo, swizzle_mode(s->u.wg.b_swizzle));
    line_start(p, NULL);
    mt_buf_printf(b, "  asm volatile(\"{ .reg .pred p; setp.ne.b32 p, 1, 0; wgmma.mma_async.sync.aligned.m64n%uk%d.f32.%s.%s {",
                  n, k_wgmma_k(s), ty, ty);
    for (unsigned i = 0; i < regs; i++)
        mt_buf_printf(b, "%s%%%u", i ? "," : "", i);
    if (rs)
        mt_buf_printf(b, "}, {%%%u,%%%u,%%%u,%%%u}, %%%u, p, 1, 1; }\"\n", regs, regs + 1, regs + 2, regs + 3, regs + 4);
    else
        mt_buf_printf(b, "}, %%%u, %%%u, p, 1, 1, 0, 1; }\"\n", regs, regs + 1);
    line_start(p, NULL);
    mt_buf_puts(b, "    :");
    for (unsigned i = 0; i < regs; i++) {
        if (i && i % 8 == 0) {
            mt_buf_putc(b, '\n');
            line_start(p, NULL);
            mt_buf_puts(b, "     ");
        }
        mt_buf_printf(b, "%s \"+f\"(%s[%u])", i ? "," : "", acc, first + i);
    }
    mt_buf_puts(b, "\n");
    line_start(p, NULL);
    if (rs) {
        const char *fa = p->names[s->u.wg.a];
        unsigned f = s->u.wg.a_first;
        mt_buf_printf(b, "    : \"r\"(__float_as_uint(%s[%u])), \"r\"(__float_as_uint(%s[%u])), \"r\"(__float_as_uint(%s[%u])), "
                      "\"r\"(__float_as_uint(%s[%u])), \"l\"(mt_db) : \"memory\"); }\n",
                      fa, f, fa, f + 1, fa, f + 2, fa, f + 3);
    } else {
        mt_buf_puts(b, "    : \"l\"(mt_da), \"l\"(mt_db) : \"memory\"); }\n");
    }
}

/* An empty asm that reads and writes every accumulator: the compiler may
 * not move their uses across the wgmma statement it goes with. */
static void wgmma_pin(Pr *p, KVarId acc)
{
    MtBuf *b = p->b;
    unsigned n = k_var_at(p->f, acc)->n;
    for (unsigned i = 0; i < n; i += 8) {
        line_start(p, NULL);
        mt_buf_puts(b, "asm volatile(\"\" :");
        for (unsigned j = i; j < n && j < i + 8; j++)
            mt_buf_printf(b, "%s \"+f\"(%s[%u])", j > i ? "," : "", p->names[acc], j);
        mt_buf_puts(b, " :: \"memory\");\n");
    }
}

/* After the last wait (no more wgmmas into them), each accumulator plus
 * -0.0 (__fadd_rn, which the compiler keeps): the same value, but ptxas
 * (CUDA 13.0, C7514 in `ptxas -v`) serialises every wgmma of a kernel
 * whose accumulators are read by inline PTX without such an instruction
 * in between (the f16 rounding of khalf.c is one), waiting after each. */
static void wgmma_release(Pr *p, KVarId acc)
{
    MtBuf *b = p->b;
    const char *name = p->names[acc];
    unsigned n = k_var_at(p->f, acc)->n;
    for (unsigned i = 0; i < n; i += 4) {
        line_start(p, NULL);
        for (unsigned j = i; j < n && j < i + 4; j++)
            mt_buf_printf(b, "%s%s[%u] = __fadd_rn(%s[%u], -0.0f);", j > i ? " " : "", name, j, name, j);
        mt_buf_putc(b, '\n');
    }
}

/* PTX's atom operation and type for an atomic on memory viewed as dt:
 * add.u32, max.s64, and.b32, exch.b64, cas.b16, add.noftz.bf16. */
static const char *atom_op(MtCtx *c, int op, MtDtype dt)
{
    static const char *const name[OPC_COUNT_] = {
        [OP_ATOMIC_ADD] = "add", [OP_ATOMIC_MAX] = "max", [OP_ATOMIC_MIN] = "min",   [OP_ATOMIC_AND] = "and",
        [OP_ATOMIC_OR] = "or",   [OP_ATOMIC_XOR] = "xor", [OP_ATOMIC_XCHG] = "exch", [OP_ATOMIC_CAS] = "cas",
    };
    const MtDtypeInfo *d = mt_dtype_info(dt);
    const char *kind = "b";
    if (is_float(dt))
        kind = is_half(dt) ? "noftz." : "f";
    else if (op == OP_ATOMIC_ADD)
        kind = "u";
    else if (op == OP_ATOMIC_MAX || op == OP_ATOMIC_MIN)
        kind = d->cls == MT_DC_SINT ? "s" : "u";
    if (is_half(dt))
        return mt_sprintf(c, "%s.%s%s", name[op], kind, dt == MT_DT_F16 ? "f16" : "bf16");
    return mt_sprintf(c, "%s.%s%u", name[op], kind, d->bits);
}

/* The inline-asm constraint of a dt operand, and its C++ value or lvalue. */
static const char *atom_constraint(MtDtype dt)
{
    unsigned size = mt_dtype_info(dt)->size;
    return size == 2 ? "h" : size == 4 ? (dt == MT_DT_F32 ? "f" : "r") : (dt == MT_DT_F64 ? "d" : "l");
}

static const char *atom_operand(Pr *p, MtDtype dt, const char *text)
{
    return is_half(dt) ? mt_sprintf(p->c, "(%s).bits", text) : text;
}

/* asm volatile("atom.acq_rel.gpu.add.u32 %0, [%1], %2;" : "=r"(dst) : "l"(ptr + index), "r"(value) : "memory");
 * under `if (mask) ... else dst = 0;` */
static void atomic(Pr *p, const KStmt *s)
{
    MtBuf *b = p->b;
    const KAtomic *a = &s->u.atomic;
    MtDtype dt = (MtDtype)a->dt;
    const char *dst = p->names[a->dst];
    if (a->dst_index)
        dst = mt_sprintf(p->c, "%s[%s]", dst, expr_text(p, a->dst_index));
    const char *con = atom_constraint(dt);
    line_start(p, s);
    if (a->mask)
        mt_buf_printf(b, "if (%s) ", expr_text(p, a->mask));
    /* Triton's sem and scope spellings are PTX's qualifiers */
    mt_buf_printf(b, "asm volatile(\"atom.%s.%s.%s %%0, [%%1], %%2%s;\" : \"=%s\"(%s) : \"l\"(%s + %s), ",
                  mt_mem_sem_names[a->sem], mt_mem_scope_names[a->scope], atom_op(p->c, a->op, dt),
                  a->cmp ? ", %3" : "", con, atom_operand(p, dt, dst), p->names[a->ptr], expr_text(p, a->index));
    if (a->cmp)
        mt_buf_printf(b, "\"%s\"(%s), ", con, atom_operand(p, dt, expr_text(p, a->cmp)));
    mt_buf_printf(b, "\"%s\"(%s) : \"memory\");", con, atom_operand(p, dt, expr_text(p, a->value)));
    if (a->mask)
        mt_buf_printf(b, " else %s = %s;", dst, expr_text(p, k_int(p->c, dt, 0)));
    mt_buf_putc(b, '\n');
}

/* One PTX instruction that orders memory: asm volatile("ptx" ::: "memory"). */
static void ptx_line(Pr *p, const KStmt *s, const char *ptx)
{
    line_start(p, s);
    mt_buf_printf(p->b, "asm volatile(\"%s\" ::: \"memory\");\n", ptx);
}

static void stmt(Pr *p, const KStmt *s)
{
    MtBuf *b = p->b;
    switch ((KStmtKind)s->kind) {
    case KST_DECL:
        line_start(p, s);
        decl(p, s);
        return;
    case KST_SET:
        line_start(p, s);
        mt_buf_puts(b, p->names[s->u.set.var]);
        if (s->u.set.index) {
            mt_buf_putc(b, '[');
            expr(p, s->u.set.index);
            mt_buf_putc(b, ']');
        }
        mt_buf_puts(b, " = ");
        assigned(p, s->u.set.var, s->u.set.value);
        mt_buf_puts(b, ";\n");
        return;
    case KST_STORE:
        line_start(p, s);
        if (s->u.store.mask) {
            mt_buf_puts(b, "if (");
            expr(p, s->u.store.mask);
            mt_buf_puts(b, ") ");
        }
        if (kc_pointer_term(&p->addr, s->u.store.index))
            mt_buf_printf(b, "*%s = ", expr_text(p, s->u.store.index));
        else
            mt_buf_printf(b, "%s[%s] = ", p->names[s->u.store.ptr], expr_text(p, s->u.store.index));
        expr(p, s->u.store.value);
        mt_buf_puts(b, ";\n");
        return;
    case KST_VLOAD:
    case KST_VSTORE:
        vector_access(p, s);
        return;
    case KST_IF:
        line_start(p, s);
        mt_buf_puts(b, "if (");
        expr(p, s->u.if_.cond);
        mt_buf_puts(b, ") {\n");
        p->indent++;
        block(p, &s->u.if_.then);
        p->indent--;
        if (s->u.if_.els.n) {
            line_start(p, NULL);
            mt_buf_puts(b, "} else {\n");
            p->indent++;
            block(p, &s->u.if_.els);
            p->indent--;
        }
        line_start(p, NULL);
        mt_buf_puts(b, "}\n");
        return;
    case KST_FOR: {
        const char *iv = p->names[s->u.for_.iv];
        if (s->u.for_.unroll) {
            line_start(p, s);
            if (s->u.for_.unroll < 0)
                mt_buf_puts(b, "#pragma unroll\n");
            else
                mt_buf_printf(b, "#pragma unroll %d\n", s->u.for_.unroll);
        }
        line_start(p, s);
        mt_buf_printf(b, "for (int %s = ", iv);
        expr(p, s->u.for_.start);
        mt_buf_printf(b, "; %s < ", iv);
        expr(p, s->u.for_.stop);
        mt_buf_printf(b, "; %s += %lld) {\n", iv, (long long)s->u.for_.step);
        p->indent++;
        block(p, &s->u.for_.body);
        p->indent--;
        line_start(p, NULL);
        mt_buf_puts(b, "}\n");
        return;
    }
    case KST_WHILE:
        line_start(p, s);
        mt_buf_puts(b, "while (");
        expr(p, s->u.while_.cond);
        mt_buf_puts(b, ") {\n");
        p->indent++;
        block(p, &s->u.while_.body);
        p->indent--;
        line_start(p, NULL);
        mt_buf_puts(b, "}\n");
        return;
    case KST_BARRIER:
        line_start(p, s);
        /* programs of one warp synchronise their warp only */
        mt_buf_puts(b, p->f->threads / p->f->programs_per_block <= 32 ? "__syncwarp();\n" : "__syncthreads();\n");
        return;
    case KST_LDMATRIX:
        ldmatrix(p, s);
        return;
    case KST_MMA:
        mma(p, s);
        return;
    case KST_CP_ASYNC:
        cp_async(p, s);
        return;
    case KST_CP_COMMIT:
        ptx_line(p, s, "cp.async.commit_group;");
        return;
    case KST_CP_WAIT:
        ptx_line(p, s, mt_sprintf(p->c, "cp.async.wait_group %u;", s->u.pending));
        return;
    case KST_PROXY_FENCE:
        ptx_line(p, s, "fence.proxy.async.shared::cta;");
        return;
    case KST_WGMMA:
        wgmma(p, s);
        return;
    case KST_WGMMA_FENCE:
        wgmma_pin(p, s->u.wg.acc);
        ptx_line(p, s, "wgmma.fence.sync.aligned;");
        return;
    case KST_WGMMA_COMMIT:
        ptx_line(p, s, "wgmma.commit_group.sync.aligned;");
        return;
    case KST_WGMMA_WAIT:
        ptx_line(p, s, mt_sprintf(p->c, "wgmma.wait_group.sync.aligned %u;", s->u.wg.pending));
        wgmma_pin(p, s->u.wg.acc);
        if (!s->u.wg.pending && !s->u.wg.more)
            wgmma_release(p, s->u.wg.acc);
        return;
    case KST_ATOMIC:
        atomic(p, s);
        return;
    case KST_BLANK:
        mt_buf_putc(b, '\n');
        return;
    }
}

static void block(Pr *p, const KBlock *blk)
{
    for (uint32_t i = 0; i < blk->n; i++)
        stmt(p, blk->v[i]);
}

const char *mt_kir_cuda(MtCtx *c, const KFunc *f, MtLineMarks *marks)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    if (marks)
        mt_buf_record_marks(&b, marks);
    Pr p = {.c = c, .f = f, .b = &b, .addr = kc_pointer_vars(c, f), .indent = 1};
    p.names = mt_arena_alloc(&c->arena, (f->vars.n + 1) * sizeof *p.names);
    for (uint32_t v = 1; v < f->vars.n; v++) {
        const KVar *x = &f->vars.v[v];
        p.names[v] = x->kind == KV_PARAM && strncmp(x->name, "mt_", 3) ? cu_param_name(c, x->name) : x->name;
    }
    kc_half_types(&b, f->uses_f16, f->uses_bf16);
    if (f->uses_wgmma)
        mt_buf_puts(&b, wgmma_desc_fn);
    mt_buf_printf(&b, "extern \"C\" __global__ void __launch_bounds__(%u)\n%s(", f->threads, f->name);
    for (uint32_t i = 0; i < f->params.n; i++) {
        const KVar *x = k_var_at(f, f->params.v[i]);
        mt_buf_printf(&b, "%s%s%s %s", i ? ", " : "", ctype((MtDtype)x->dt), x->ptr ? "*" : "",
                      p.names[f->params.v[i]]);
    }
    mt_buf_puts(&b, ") {\n");
    if (f->dynamic_shared)
        mt_buf_printf(&b, "    extern __shared__ __align__(%u) unsigned char mt_smem[]; /* %llu bytes at launch */\n",
                      f->shared_align, (unsigned long long)f->shared_bytes);
    else if (f->shared_bytes)
        mt_buf_printf(&b, "    __shared__ __align__(%u) unsigned char mt_smem[%llu];\n", f->shared_align,
                      (unsigned long long)f->shared_bytes);
    block(&p, &f->shared);
    block(&p, &f->prologue);
    block(&p, &f->body);
    mt_buf_puts(&b, "}\n");
    return mt_buf_str(&b);
}
