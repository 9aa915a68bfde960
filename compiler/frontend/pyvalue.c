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
    case FV_STR: {
        size_t n = mt_literal_quote(NULL, 0, v.u.s);
        char *q = mt_arena_alloc(b->ar, n + 1);
        mt_literal_quote(q, n + 1, v.u.s);
        mt_buf_putn(b, q, n);
        return;
    }
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

static int hex_digit(char ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                                             : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

/* Code point u as UTF-8 into s; false for a surrogate or beyond U+10FFFF. */
static bool put_utf8(char *s, size_t *k, uint32_t u)
{
    if (u < 0x80) {
        s[(*k)++] = (char)u;
    } else if (u < 0x800) {
        s[(*k)++] = (char)(0xc0 | u >> 6);
        s[(*k)++] = (char)(0x80 | (u & 0x3f));
    } else if (u < 0x10000) {
        if (u >= 0xd800 && u < 0xe000)
            return false;
        s[(*k)++] = (char)(0xe0 | u >> 12);
        s[(*k)++] = (char)(0x80 | ((u >> 6) & 0x3f));
        s[(*k)++] = (char)(0x80 | (u & 0x3f));
    } else if (u < 0x110000) {
        s[(*k)++] = (char)(0xf0 | u >> 18);
        s[(*k)++] = (char)(0x80 | ((u >> 12) & 0x3f));
        s[(*k)++] = (char)(0x80 | ((u >> 6) & 0x3f));
        s[(*k)++] = (char)(0x80 | (u & 0x3f));
    } else {
        return false;
    }
    return true;
}

/* A quoted string literal 'text' or "text" with Python's escapes (\\ \'
 * \" \n \t \r \a \b \f \v, octal \ooo, \xHH, \uHHHH, \UHHHHHHHH; an
 * unknown escape keeps its backslash, as Python does), so that repr() of
 * a str reads back. A NUL character is refused: the value is a C string.
 * The buffer is large enough: no escape decodes to more bytes than it
 * spells. */
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
        if (ch != '\\') {
            s[k++] = ch;
            continue;
        }
        if (i + 2 >= n)
            return false; /* a backslash escaping the closing quote */
        ch = text[++i];
        static const char simple[] = "\\\\''\"\"n\nt\tr\ra\ab\bf\fv\v";
        const char *e = strchr(simple, ch);
        if (e && (e - simple) % 2 == 0) {
            s[k++] = e[1];
        } else if (ch >= '0' && ch <= '7') {
            uint32_t v = 0;
            for (int d = 0; d < 3 && i + 1 < n && text[i] >= '0' && text[i] <= '7'; d++)
                v = v * 8 + (uint32_t)(text[i++] - '0');
            i--;
            if (!v || !put_utf8(s, &k, v))
                return false;
        } else if (ch == 'x' || ch == 'u' || ch == 'U') {
            int digits = ch == 'x' ? 2 : ch == 'u' ? 4 : 8;
            uint32_t v = 0;
            for (int d = 0; d < digits; d++) {
                int h = i + 1 + 1 < n ? hex_digit(text[i + 1]) : -1;
                if (h < 0)
                    return false;
                v = v * 16 + (uint32_t)h;
                i++;
            }
            if (!v || !put_utf8(s, &k, v))
                return false;
        } else {
            s[k++] = '\\';
            s[k++] = ch;
        }
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
    size_t len = strlen(text);
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
        len--;
    if (len >= sizeof buf)
        return false;
    memcpy(buf, text, len);
    buf[len] = 0;
    /* A dtype, as a launch passes one (X_dtype=tl.float32, torch.float16). */
    MtDtype d;
    if (mt_dtype_literal(buf, &d)) {
        *out = (FValue){.kind = FV_DTYPE, .u.dtype = &mt_ty_scalars[d]};
        return true;
    }
    for (const char *p = text; p < text + len; p++)
        if (*p != '_')
            buf[n++] = *p;
    buf[n] = 0;
    if (!strcmp(buf, "None")) {
        *out = fv_none();
        return true;
    }
    if (!strcmp(buf, "True") || !strcmp(buf, "False")) {
        *out = fv_bool(buf[0] == 'T');
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

/* ---- constexpr values as text: the public form (mytriton.h) ---------------------------- */

bool mt_literal_parse(MtCtx *c, const char *text, MtLiteral *out)
{
    memset(out, 0, sizeof *out);
    if (!text)
        return false;
    MtCtx *scratch = c ? NULL : mt_ctx_new(NULL);
    if (!c && !scratch)
        return false;
    FValue v;
    bool ok = py_parse_literal(c ? c : scratch, text, &v);
    if (ok) {
        switch ((FvKind)v.kind) {
        case FV_NONE: out->kind = MT_LITERAL_NONE; break;
        case FV_BOOL: out->kind = MT_LITERAL_BOOL; break;
        case FV_INT: out->kind = MT_LITERAL_INT; break;
        case FV_FLOAT: out->kind = MT_LITERAL_FLOAT; break;
        case FV_STR: out->kind = MT_LITERAL_STR; break;
        case FV_DTYPE: out->kind = MT_LITERAL_DTYPE; break;
        default: ok = false; break;
        }
        if (v.kind == FV_BOOL || v.kind == FV_INT) {
            out->i = v.u.i;
            out->big = v.big;
            out->f = v.big ? (double)(uint64_t)v.u.i : (double)v.u.i;
        } else if (v.kind == FV_FLOAT) {
            out->f = v.u.f;
        } else if (v.kind == FV_STR) {
            out->s = c ? v.u.s : NULL;
        } else if (v.kind == FV_DTYPE) {
            out->dtype = v.u.dtype->dtype;
        }
    }
    mt_ctx_free(scratch);
    return ok;
}

size_t mt_literal_quote(char *out, size_t cap, const char *s)
{
    size_t k = 0;
#define PUT(ch)                                                                                                        \
    do {                                                                                                               \
        if (k + 1 < cap)                                                                                               \
            out[k] = (ch);                                                                                             \
        k++;                                                                                                           \
    } while (0)
    PUT('\'');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        static const char hex[] = "0123456789abcdef";
        const char *esc = *p == '\\' ? "\\\\" : *p == '\'' ? "\\'" : *p == '\n' ? "\\n" : *p == '\t' ? "\\t"
                        : *p == '\r' ? "\\r" : NULL;
        if (esc) {
            PUT(esc[0]);
            PUT(esc[1]);
        } else if (*p < 0x20 || *p == 0x7f) {
            PUT('\\');
            PUT('x');
            PUT(hex[*p >> 4]);
            PUT(hex[*p & 15]);
        } else {
            PUT((char)*p);
        }
    }
    PUT('\'');
#undef PUT
    if (cap)
        out[k < cap ? k : cap - 1] = 0;
    return k;
}

size_t mt_literal_from_text(char *out, size_t cap, const char *text)
{
    MtLiteral lit;
    if (!mt_literal_parse(NULL, text, &lit))
        return mt_literal_quote(out, cap, text);
    size_t n = strlen(text);
    if (cap) {
        size_t k = n < cap ? n : cap - 1;
        memcpy(out, text, k);
        out[k] = 0;
    }
    return n;
}
