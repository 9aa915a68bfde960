/* pyvalue.c: Python semantics of compile-time values.
 *
 * Constexprs, module constants, static loop counters and literals are
 * evaluated exactly as CPython would (int/float/bool arithmetic with floor
 * division, tuple concatenation, comparisons, truthiness), except that
 * integers are 64-bit: an overflow is a compile-time error instead of a
 * silently wrong bignum. Runtime values never reach these functions
 * except to be rejected with a precise message. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "fe.h"

const char *fv_kind_name(FValue v)
{
    switch ((FvKind)v.kind) {
    case FV_UNDEF: return "undefined value";
    case FV_NONE: return "None";
    case FV_BOOL: return "bool";
    case FV_INT: return "int";
    case FV_FLOAT: return "float";
    case FV_STR: return "str";
    case FV_TUPLE: return v.is_list ? "list" : "tuple";
    case FV_DTYPE: return "dtype";
    case FV_MODULE: return "module";
    case FV_FUNC: return "function";
    case FV_BUILTIN: return "builtin function";
    case FV_OPAQUE: return "host object";
    case FV_RANGE: return "range";
    case FV_SLICE: return "slice";
    case FV_EXPR: return "runtime value";
    case FV_METHOD: return "method";
    case FV_BLOCKPTR: return "block pointer";
    }
    return "value";
}

static void repr(MtBuf *b, FValue v)
{
    switch ((FvKind)v.kind) {
    case FV_NONE: mt_buf_puts(b, "None"); return;
    case FV_BOOL: mt_buf_puts(b, v.u.i ? "True" : "False"); return;
    case FV_INT:
        if (v.big)
            mt_buf_printf(b, "%llu", (unsigned long long)v.u.i);
        else
            mt_buf_printf(b, "%lld", (long long)v.u.i);
        return;
    case FV_FLOAT: {
        char s[32];
        mt_format_pyfloat(s, v.u.f);
        mt_buf_puts(b, s);
        return;
    }
    case FV_STR: mt_buf_printf(b, "'%s'", v.u.s); return;
    case FV_TUPLE:
        mt_buf_putc(b, v.is_list ? '[' : '(');
        for (uint32_t i = 0; i < v.u.tup.n; i++) {
            if (i)
                mt_buf_puts(b, ", ");
            repr(b, v.u.tup.v[i]);
        }
        if (!v.is_list && v.u.tup.n == 1)
            mt_buf_putc(b, ',');
        mt_buf_putc(b, v.is_list ? ']' : ')');
        return;
    case FV_DTYPE:
        if (mt_ty_is_scalar(v.u.dtype))
            mt_buf_printf(b, "tl.%s", mt_ty_info(v.u.dtype)->tl);
        else
            mt_ty_print(b, v.u.dtype);
        return;
    case FV_MODULE: mt_buf_printf(b, "<module '%s'>", v.u.s); return;
    case FV_FUNC: mt_buf_printf(b, "<jit function %s>", v.u.fn->name); return;
    case FV_BUILTIN: mt_buf_printf(b, "<built-in %s>", fe_builtin_name(v.u.builtin)); return;
    case FV_OPAQUE: mt_buf_puts(b, v.u.s); return;
    case FV_RANGE: mt_buf_puts(b, "range(...)"); return;
    case FV_SLICE: mt_buf_puts(b, ":"); return;
    case FV_EXPR: mt_buf_puts(b, "<runtime value>"); return;
    case FV_METHOD: mt_buf_printf(b, "<method %s>", v.u.method.name); return;
    case FV_BLOCKPTR: mt_buf_printf(b, "<block pointer of rank %d>", v.u.bp->rank); return;
    case FV_UNDEF: mt_buf_puts(b, "<undefined>"); return;
    }
}

const char *fv_repr(MtCtx *c, FValue v)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    repr(&b, v);
    return mt_buf_str(&b);
}

bool py_as_int128(FValue v, __int128 *out)
{
    if (v.kind != FV_INT && v.kind != FV_BOOL)
        return false;
    *out = v.big ? (__int128)(uint64_t)v.u.i : (__int128)v.u.i;
    return true;
}

FValue py_int128(Fe *fe, __int128 v, MtSpan sp)
{
    if (v >= INT64_MIN && v <= INT64_MAX)
        return fv_int((int64_t)v);
    if (v > INT64_MAX && v <= (__int128)UINT64_MAX) {
        FValue r = fv_int((int64_t)(uint64_t)v);
        r.big = true;
        return r;
    }
    fe_error(fe, sp, "E0312", "integer overflow in a compile-time expression (values must fit in 64 bits)");
    return fv_undef();
}

bool py_as_int(FValue v, int64_t *out)
{
    if ((v.kind == FV_INT && !v.big) || v.kind == FV_BOOL) {
        *out = v.u.i;
        return true;
    }
    return false;
}

bool py_as_double(FValue v, double *out)
{
    if (v.kind == FV_INT || v.kind == FV_BOOL) {
        *out = v.big ? (double)(uint64_t)v.u.i : (double)v.u.i;
        return true;
    }
    if (v.kind == FV_FLOAT) {
        *out = v.u.f;
        return true;
    }
    return false;
}

bool py_equal(FValue a, FValue b)
{
    double x, y;
    if (fv_is_number(a) && fv_is_number(b)) {
        if (a.kind != FV_FLOAT && b.kind != FV_FLOAT)
            return a.u.i == b.u.i && a.big == b.big;
        py_as_double(a, &x);
        py_as_double(b, &y);
        return x == y;
    }
    if (a.kind != b.kind)
        return false;
    switch ((FvKind)a.kind) {
    case FV_NONE: return true;
    case FV_STR: return strcmp(a.u.s, b.u.s) == 0;
    case FV_TUPLE:
        if (a.u.tup.n != b.u.tup.n || a.is_list != b.is_list)
            return false;
        for (uint32_t i = 0; i < a.u.tup.n; i++)
            if (!py_equal(a.u.tup.v[i], b.u.tup.v[i]))
                return false;
        return true;
    case FV_DTYPE: return a.u.dtype == b.u.dtype;
    case FV_MODULE:
    case FV_OPAQUE: return strcmp(a.u.s, b.u.s) == 0;
    case FV_FUNC: return a.u.fn == b.u.fn;
    case FV_BUILTIN: return a.u.builtin == b.u.builtin;
    case FV_EXPR: return a.u.e == b.u.e;
    default: return false;
    }
}

static FValue cerr(Fe *fe, MtSpan sp, const char *msg, FValue a, FValue b)
{
    fe_error(fe, sp, "E0312", "%s (operands %s and %s)", msg, fv_repr(fe->c, a), fv_repr(fe->c, b));
    return fv_undef();
}


static FValue tuple_concat(Fe *fe, FValue a, FValue b)
{
    FValue r = {.kind = FV_TUPLE, .is_list = a.is_list};
    r.u.tup.n = a.u.tup.n + b.u.tup.n;
    r.u.tup.v = mt_arena_alloc(&fe->c->arena, (r.u.tup.n + 1) * sizeof(FValue));
    memcpy(r.u.tup.v, a.u.tup.v, a.u.tup.n * sizeof(FValue));
    memcpy(r.u.tup.v + a.u.tup.n, b.u.tup.v, b.u.tup.n * sizeof(FValue));
    return r;
}

static __int128 floordiv128(__int128 a, __int128 b)
{
    __int128 q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

/* Python ints in [-2^63, 2^64): computed in 128 bits, range-checked. */
static FValue int_binop(Fe *fe, MtOp op, FValue a, FValue b, MtSpan sp)
{
    __int128 x, y, r;
    py_as_int128(a, &x);
    py_as_int128(b, &y);
    bool both_bool = a.kind == FV_BOOL && b.kind == FV_BOOL;
    switch (op) {
    case OP_PLUS: return py_int128(fe, x + y, sp);
    case OP_MINUS: return py_int128(fe, x - y, sp);
    case OP_STAR:
        if (__builtin_mul_overflow(x, y, &r))
            return cerr(fe, sp, "integer overflow in compile-time '*'", a, b);
        return py_int128(fe, r, sp);
    case OP_SLASH:
        if (y == 0)
            return cerr(fe, sp, "division by zero in compile-time expression", a, b);
        return fv_float((double)x / (double)y);
    case OP_DSLASH:
        if (y == 0)
            return cerr(fe, sp, "integer division by zero in compile-time expression", a, b);
        return py_int128(fe, floordiv128(x, y), sp);
    case OP_PERCENT:
        if (y == 0)
            return cerr(fe, sp, "integer modulo by zero in compile-time expression", a, b);
        return py_int128(fe, x - floordiv128(x, y) * y, sp);
    case OP_DSTAR:
        if (y < 0)
            return fv_float(pow((double)x, (double)y));
        r = 1;
        for (__int128 i = 0; i < y; i++)
            if (__builtin_mul_overflow(r, x, &r) || r > (__int128)UINT64_MAX || r < INT64_MIN)
                return cerr(fe, sp, "integer overflow in compile-time '**'", a, b);
        return py_int128(fe, r, sp);
    case OP_AMP: return both_bool ? fv_bool(x & y) : py_int128(fe, x & y, sp);
    case OP_VBAR: return both_bool ? fv_bool(x | y) : py_int128(fe, x | y, sp);
    case OP_CARET: return both_bool ? fv_bool(x ^ y) : py_int128(fe, x ^ y, sp);
    case OP_LSHIFT:
        if (y < 0)
            return cerr(fe, sp, "negative shift count", a, b);
        if (y >= 64 || (x != 0 && (x > ((__int128)UINT64_MAX >> y) || x < ((__int128)INT64_MIN >> y))))
            return cerr(fe, sp, "integer overflow in compile-time '<<'", a, b);
        return py_int128(fe, x * ((__int128)1 << y), sp);
    case OP_RSHIFT:
        if (y < 0)
            return cerr(fe, sp, "negative shift count", a, b);
        return py_int128(fe, y >= 64 ? (x < 0 ? -1 : 0) : x >> y, sp);
    default:
        return cerr(fe, sp, "unsupported operator on compile-time integers", a, b);
    }
}

static FValue float_binop(Fe *fe, MtOp op, FValue a, FValue b, MtSpan sp)
{
    double x, y;
    py_as_double(a, &x);
    py_as_double(b, &y);
    switch (op) {
    case OP_PLUS: return fv_float(x + y);
    case OP_MINUS: return fv_float(x - y);
    case OP_STAR: return fv_float(x * y);
    case OP_SLASH:
        if (y == 0)
            return cerr(fe, sp, "float division by zero in compile-time expression", a, b);
        return fv_float(x / y);
    case OP_DSLASH:
        if (y == 0)
            return cerr(fe, sp, "float floor division by zero in compile-time expression", a, b);
        return fv_float(floor(x / y));
    case OP_PERCENT: {
        if (y == 0)
            return cerr(fe, sp, "float modulo by zero in compile-time expression", a, b);
        double m = fmod(x, y);
        if (m != 0 && ((m < 0) != (y < 0)))
            m += y;
        return fv_float(m);
    }
    case OP_DSTAR: return fv_float(pow(x, y));
    default:
        return cerr(fe, sp, "unsupported operator on compile-time floats", a, b);
    }
}

FValue py_binop(Fe *fe, MtOp op, FValue a, FValue b, MtSpan sp)
{
    if (a.kind == FV_UNDEF || b.kind == FV_UNDEF)
        return fv_undef();
    if (fv_is_number(a) && fv_is_number(b)) {
        if (a.kind == FV_FLOAT || b.kind == FV_FLOAT)
            return float_binop(fe, op, a, b, sp);
        return int_binop(fe, op, a, b, sp);
    }
    if (a.kind == FV_TUPLE && b.kind == FV_TUPLE && op == OP_PLUS && a.is_list == b.is_list)
        return tuple_concat(fe, a, b);
    if (op == OP_STAR && ((a.kind == FV_TUPLE && (b.kind == FV_INT || b.kind == FV_BOOL)) ||
                          (b.kind == FV_TUPLE && (a.kind == FV_INT || a.kind == FV_BOOL)))) {
        FValue t = a.kind == FV_TUPLE ? a : b;
        int64_t k = a.kind == FV_TUPLE ? b.u.i : a.u.i;
        FValue r = {.kind = FV_TUPLE, .is_list = t.is_list};
        if (k <= 0 || t.u.tup.n == 0)
            return r;
        if (k > 4096 || (uint64_t)k * t.u.tup.n > 65536)
            return cerr(fe, sp, "compile-time sequence repetition is too large", a, b);
        for (int64_t i = 0; i < k; i++)
            r = i ? tuple_concat(fe, r, t) : t;
        return r;
    }
    if (a.kind == FV_STR && b.kind == FV_STR && op == OP_PLUS)
        return (FValue){.kind = FV_STR, .u.s = mt_sprintf(fe->c, "%s%s", a.u.s, b.u.s)};
    fe_error(fe, sp, "E0312", "unsupported operand types for '%s': %s and %s", mt_op_text(op), fv_kind_name(a),
             fv_kind_name(b));
    return fv_undef();
}

static int cmp3(double x, double y) { return x < y ? -1 : x > y ? 1 : 0; }

FValue py_compare(Fe *fe, int op, bool negated, FValue a, FValue b, MtSpan sp)
{
    if (a.kind == FV_UNDEF || b.kind == FV_UNDEF)
        return fv_undef();
    if (op == -KW_IS) {
        bool same;
        if (a.kind == FV_NONE || b.kind == FV_NONE)
            same = a.kind == b.kind;
        else if (a.kind == FV_BOOL && b.kind == FV_BOOL)
            same = a.u.i == b.u.i;
        else if (a.kind == FV_EXPR || b.kind == FV_EXPR)
            same = a.kind == b.kind && a.u.e == b.u.e;
        else
            same = a.kind == b.kind && py_equal(a, b);
        return fv_bool(same != negated);
    }
    if (op == -KW_IN) {
        if (b.kind != FV_TUPLE) {
            fe_error(fe, sp, "E0312", "'in' needs a compile-time tuple or list on the right, got %s",
                     fv_kind_name(b));
            return fv_undef();
        }
        bool found = false;
        for (uint32_t i = 0; i < b.u.tup.n && !found; i++)
            found = py_equal(a, b.u.tup.v[i]);
        return fv_bool(found != negated);
    }
    if (op == OP_EQ || op == OP_NE) {
        bool eq = py_equal(a, b);
        return fv_bool(op == OP_EQ ? eq : !eq);
    }
    double x, y;
    int r;
    if (py_as_double(a, &x) && py_as_double(b, &y)) {
        __int128 p, q;
        if (py_as_int128(a, &p) && py_as_int128(b, &q))
            r = p < q ? -1 : p > q;
        else if (isnan(x) || isnan(y))
            return fv_bool(false);
        else
            r = cmp3(x, y);
    } else if (a.kind == FV_STR && b.kind == FV_STR) {
        r = strcmp(a.u.s, b.u.s);
        r = r < 0 ? -1 : r > 0;
    } else {
        fe_error(fe, sp, "E0312", "cannot order %s and %s with '%s'", fv_kind_name(a), fv_kind_name(b),
                 mt_op_text((MtOp)op));
        return fv_undef();
    }
    switch (op) {
    case OP_LT: return fv_bool(r < 0);
    case OP_LE: return fv_bool(r <= 0);
    case OP_GT: return fv_bool(r > 0);
    case OP_GE: return fv_bool(r >= 0);
    default: return fv_undef();
    }
}

FValue py_unary(Fe *fe, int op, FValue a, MtSpan sp)
{
    if (a.kind == FV_UNDEF)
        return fv_undef();
    if (op == -1) {
        bool ok;
        bool t = py_truth(fe, a, sp, &ok);
        return ok ? fv_bool(!t) : fv_undef();
    }
    if (a.kind == FV_FLOAT) {
        if (op == OP_MINUS)
            return fv_float(-a.u.f);
        if (op == OP_PLUS)
            return a;
    } else if (a.kind == FV_INT || a.kind == FV_BOOL) {
        __int128 x;
        py_as_int128(a, &x);
        if (op == OP_MINUS)
            return py_int128(fe, -x, sp);
        if (op == OP_PLUS)
            return py_int128(fe, x, sp);
        if (op == OP_TILDE)
            return py_int128(fe, ~x, sp);
    }
    fe_error(fe, sp, "E0312", "bad operand type for unary '%s': %s", mt_op_text((MtOp)op), fv_kind_name(a));
    return fv_undef();
}

bool py_truth(Fe *fe, FValue v, MtSpan sp, bool *ok)
{
    *ok = true;
    switch ((FvKind)v.kind) {
    case FV_NONE: return false;
    case FV_BOOL:
    case FV_INT: return v.u.i != 0;
    case FV_FLOAT: return v.u.f != 0;
    case FV_STR: return v.u.s[0] != 0;
    case FV_TUPLE: return v.u.tup.n != 0;
    case FV_EXPR:
        fe_error(fe, sp, "E0206",
                 "the truth value of a runtime value is not known at compile time; use & | ~ on comparisons "
                 "(each in parentheses), or tl.where(...) to select values");
        *ok = false;
        return false;
    case FV_UNDEF:
        *ok = false;
        return false;
    default: return true;
    }
}

/* A quoted string literal 'text' or "text" (escapes \\ \' \" \n \t). */
static bool parse_string(MtCtx *c, const char *text, FValue *out)
{
    size_t n = strlen(text);
    while (n && (text[n - 1] == ' ' || text[n - 1] == '\t'))
        n--;
    if (n < 2 || text[n - 1] != text[0])
        return false;
    char *s = mt_arena_alloc(&c->arena, n);
    size_t k = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        char ch = text[i];
        if (ch == text[0])
            return false;
        if (ch == '\\' && i + 2 < n) {
            ch = text[++i];
            ch = ch == 'n' ? '\n' : ch == 't' ? '\t' : ch;
        }
        s[k++] = ch;
    }
    s[k] = 0;
    *out = (FValue){.kind = FV_STR, .u.s = s};
    return true;
}

bool py_parse_literal(MtCtx *c, const char *text, FValue *out)
{
    char buf[128];
    size_t n = 0;
    while (*text == ' ' || *text == '\t')
        text++;
    if (*text == '\'' || *text == '"')
        return parse_string(c, text, out);
    for (const char *p = text; *p && n + 1 < sizeof buf; p++)
        if (*p != '_')
            buf[n++] = *p;
    while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
        n--;
    buf[n] = 0;
    if (!strcmp(buf, "None")) {
        *out = fv_none();
        return true;
    }
    if (!strcmp(buf, "True") || !strcmp(buf, "False")) {
        *out = fv_bool(buf[0] == 'T');
        return true;
    }
    /* A dtype, as a launch passes one (X_dtype=tl.float32, torch.float16). */
    const char *dt = buf;
    static const char *const prefixes[] = {"triton.language.", "tl.", "torch."};
    for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++)
        if (!strncmp(dt, prefixes[k], strlen(prefixes[k])))
            dt += strlen(prefixes[k]);
    MtDtype d;
    if (dt != buf && mt_dtype_parse(dt, &d)) {
        *out = (FValue){.kind = FV_DTYPE, .u.dtype = &mt_ty_scalars[d]};
        return true;
    }
    if (n == 0)
        return false;
    char *end;
    const char *digits = buf[0] == '-' || buf[0] == '+' ? buf + 1 : buf;
    bool isint = true;
    int base = 10;
    if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
        base = 16;
    else if (digits[0] == '0' && (digits[1] == 'o' || digits[1] == 'O'))
        base = 8;
    else if (digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B'))
        base = 2;
    const char *body = base == 10 ? digits : digits + 2;
    if (!*body)
        return false;
    for (const char *p = body; *p; p++)
        if (!(base == 16 ? ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F'))
                         : (*p >= '0' && *p < '0' + (base == 10 ? 10 : base))))
            isint = false;
    if (isint) {
        errno = 0;
        unsigned long long v = strtoull(body, &end, base);
        if (*end || errno == ERANGE || (buf[0] == '-' && v > (unsigned long long)INT64_MAX + 1))
            return false;
        *out = fv_int(buf[0] == '-' ? (int64_t)(0 - v) : (int64_t)v);
        out->big = buf[0] != '-' && v > (unsigned long long)INT64_MAX;
        return true;
    }
    if (!strcmp(digits, "inf") || !strcmp(digits, "nan")) {
        double v = digits[0] == 'i' ? INFINITY : NAN;
        *out = fv_float(buf[0] == '-' ? -v : v);
        return true;
    }
    double v = strtod(buf, &end);
    if (*end || end == buf)
        return false;
    *out = fv_float(v);
    return true;
}
