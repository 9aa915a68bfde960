/* read.c: the SSA text reader, the inverse of print.c (QBE's parse.c), and
 * the writer that adds the header line the reader needs.
 *
 * It exists so the verifier and the optimisation passes can be tested on
 * IR alone: a test states an input function and the expected output as
 * text. The reader is a one-token-lookahead scanner over lines; horizontal
 * whitespace between tokens is free, blank lines are skipped, and nesting
 * follows the braces of `for` lines. It checks syntax only. A %number may
 * be used before (or without) its definition and an operation may carry
 * any operand count, result or type: that is the malformed SSA verifier
 * tests need, and mt_verify is what rejects it. Numbers are kept exactly
 * as written (values are created on first mention and completed at their
 * definition), so printing reproduces the text.
 *
 * Errors: the first one is reported as E0511 at its line:col in the text,
 * registered as a file so the diagnostic renders with a caret, and the
 * reader returns NULL.
 */
#include "read.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

enum { MAX_NUM = 1 << 24 };   /* a larger %number is a typo, not a test */

typedef struct Carried {
    int64_t num;              /* the iter_arg's %number */
    uint32_t at, end;         /* its span in the text */
    MtVal init;
} Carried;

typedef struct Reader {
    MtCtx *c;
    MtFunc *f;
    uint32_t file;
    const char *s;            /* the registered copy of the text */
    uint32_t len, pos;
    bool err;                 /* an error was reported: unwind */
    MtVal *bynum;             /* %num -> its value; 0 = not met yet */
    uint8_t *defined;         /* %num has met its definition */
    uint32_t cap;
    int64_t maxnum;           /* largest %num met; -1 = none */
    MT_VEC(MtInst *) open;    /* fors and nests whose region is being read, innermost last */
} Reader;

static void rerr(Reader *r, uint32_t off, uint32_t end, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void rerr(Reader *r, uint32_t off, uint32_t end, const char *fmt, ...)
{
    if (r->err)
        return;
    r->err = true;
    MtBuf b;
    mt_buf_init(&b, &r->c->arena);
    va_list ap;
    va_start(ap, fmt);
    mt_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    mt_error(r->c, mt_span_of(r->c, r->file, off, end), "E0511", "%s", mt_buf_str(&b));
}

/* ---- characters and tokens ------------------------------------------------------ */

static int peek(const Reader *r) { return r->pos < r->len ? (unsigned char)r->s[r->pos] : -1; }

static bool is_digit(int ch) { return ch >= '0' && ch <= '9'; }
static bool is_id0(int ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_'; }
static bool is_id(int ch) { return is_id0(ch) || is_digit(ch); }

static void ws(Reader *r)
{
    while (peek(r) == ' ' || peek(r) == '\t')
        r->pos++;
}

/* End of the token at pos, for error spans. */
static uint32_t tok_end(const Reader *r)
{
    uint32_t p = r->pos;
    if (p >= r->len || r->s[p] == '\n')
        return p;
    if (!is_id((unsigned char)r->s[p]) && r->s[p] != '%' && r->s[p] != '-')
        return p + 1;
    p++;
    while (p < r->len && (is_id((unsigned char)r->s[p]) || r->s[p] == '.'))
        p++;
    return p;
}

static bool accept(Reader *r, char ch)
{
    ws(r);
    if (peek(r) != ch)
        return false;
    r->pos++;
    return true;
}

static void expect(Reader *r, char ch, const char *what)
{
    if (!r->err && !accept(r, ch))
        rerr(r, r->pos, tok_end(r), "expected %s", what);
}

/* Consume the identifier `w` if it comes next. */
static bool word(Reader *r, const char *w)
{
    ws(r);
    size_t n = strlen(w);
    if (r->len - r->pos < n || memcmp(r->s + r->pos, w, n) != 0)
        return false;
    if (r->pos + n < r->len && is_id((unsigned char)r->s[r->pos + n]))
        return false;
    r->pos += (uint32_t)n;
    return true;
}

static const char *ident(Reader *r)
{
    ws(r);
    if (!is_id0(peek(r)))
        return NULL;
    uint32_t at = r->pos;
    while (is_id(peek(r)))
        r->pos++;
    return mt_arena_strndup(&r->c->arena, r->s + at, r->pos - at);
}

static void expect_eol(Reader *r)
{
    ws(r);
    if (r->err)
        return;
    if (peek(r) == '\n')
        r->pos++;
    else if (peek(r) != -1)
        rerr(r, r->pos, tok_end(r), "expected the end of the line");
}

/* integer = "-"? digit+ */
static int64_t integer(Reader *r, int64_t lo, int64_t hi, const char *what)
{
    ws(r);
    uint32_t at = r->pos;
    if (peek(r) == '-')
        r->pos++;
    if (!is_digit(peek(r))) {
        r->pos = at;
        rerr(r, at, tok_end(r), "expected %s", what);
        return 0;
    }
    while (is_digit(peek(r)))
        r->pos++;
    const char *t = mt_arena_strndup(&r->c->arena, r->s + at, r->pos - at);
    errno = 0;
    long long v = strtoll(t, NULL, 10);
    if (errno || v < lo || v > hi) {
        rerr(r, at, r->pos, "expected %s, got %s", what, t);
        return 0;
    }
    return v;
}

/* "%" digit+ */
static int64_t number(Reader *r)
{
    ws(r);
    uint32_t at = r->pos;
    if (!accept(r, '%') || !is_digit(peek(r))) {
        rerr(r, at, tok_end(r), "expected a %%number");
        return 0;
    }
    return integer(r, 0, MAX_NUM, mt_sprintf(r->c, "a value number up to %d", MAX_NUM));
}

/* ---- types ------------------------------------------------------------------ */

static bool scalar(const MtType *t) { return t->kind == TY_SCALAR; }

/* type = scalar | "ptr<" type ">" | "vector<" N " x " type ">" | "block<" M ("x" N)+ " x " type ">"
 * scalar = "bool" | "i8" | ... | "u64" | "f16" | "bf16" | "f32" | "f64" (dtypes.def's SSA spellings) */
static const MtType *type(Reader *r)
{
    ws(r);
    uint32_t at = r->pos;
    for (int d = 0; d < MT_DTYPE_COUNT; d++)
        if (word(r, mt_dtype_info((MtDtype)d)->ir))
            return mt_ty_scalar((MtDtype)d);
    if (word(r, "ptr")) {
        expect(r, '<', "'<'");
        const MtType *t = r->err ? NULL : type(r);
        if (r->err)
            return NULL;
        if (!scalar(t)) {
            rerr(r, at, r->pos, "pointers point to scalars");
            return NULL;
        }
        expect(r, '>', "'>'");
        return r->err ? NULL : mt_ty_ptr(r->c, t);
    }
    bool vec = word(r, "vector");
    if (!vec && !word(r, "block")) {
        rerr(r, at, tok_end(r), "expected a type");
        return NULL;
    }
    expect(r, '<', "'<'");
    int32_t shape[MT_MAX_RANK];
    int rank = 0;
    while (!r->err) {
        if (rank == MT_MAX_RANK) {
            rerr(r, at, r->pos, "blocks have at most %d dimensions", MT_MAX_RANK);
            return NULL;
        }
        shape[rank++] = (int32_t)integer(r, 1, INT32_MAX, "a positive block dimension");
        expect(r, 'x', "'x'");
        ws(r);
        if (!is_digit(peek(r)))
            break;
    }
    const MtType *e = r->err ? NULL : type(r);
    if (r->err)
        return NULL;
    if (vec ? rank != 1 : rank < 2) {
        rerr(r, at, r->pos, vec ? "vector types have one dimension" : "block types have two or more dimensions");
        return NULL;
    }
    if (!scalar(e) && e->kind != TY_PTR) {
        rerr(r, at, r->pos, "block elements are scalars or pointers");
        return NULL;
    }
    expect(r, '>', "'>'");
    return r->err ? NULL : mt_ty_block(r->c, e, rank, shape);
}

/* ---- values ------------------------------------------------------------------ */

/* The value named %num, created (untyped) on first mention. */
static MtVal use_num(Reader *r, int64_t num)
{
    if (r->err)
        return 0;
    uint32_t n = (uint32_t)num;
    if (n >= r->cap) {
        uint32_t cap = r->cap ? r->cap : 64;
        while (cap <= n)
            cap *= 2;
        r->bynum = mt_arena_grow(&r->c->arena, r->bynum, r->cap, cap, sizeof *r->bynum);
        r->defined = mt_arena_grow(&r->c->arena, r->defined, r->cap, cap, sizeof *r->defined);
        r->cap = cap;
    }
    if (!r->bynum[n]) {
        r->bynum[n] = mt_func_value(r->c, r->f, VK_INST, NULL);
        r->f->vals[r->bynum[n]].num = n;
        if (num > r->maxnum)
            r->maxnum = num;
    }
    return r->bynum[n];
}

static const char *const kind_names[] = {
    [VK_INST] = "an instruction result", [VK_IV] = "an induction variable",
    [VK_ARG] = "a region argument", [VK_RESULT] = "a loop result",
};

/* %num defined by `def` as a value of `kind`. A second definition of the
 * same kind is kept for the verifier to report; of another kind it cannot
 * be represented. */
static MtVal def_num(Reader *r, int64_t num, uint32_t at, uint32_t end, MtValKind kind, const MtType *ty,
                     MtInst *def)
{
    MtVal x = use_num(r, num);
    if (r->err)
        return 0;
    MtValue *val = &r->f->vals[x];
    if (r->defined[num]) {
        if (val->kind != kind)
            rerr(r, at, end, "%%%u is already defined as %s", val->num, kind_names[val->kind]);
        return x;
    }
    r->defined[num] = 1;
    val->kind = (uint8_t)kind;
    val->ty = ty;
    val->def = def;
    return x;
}

/* A constant of its natural type, or of the type written after it
 * without a space (`1.5:f16`, a Python scalar that took an operation's type). */
static MtVal constant(Reader *r, MtConstKind kind, int64_t i, double d)
{
    MtConst k = {.kind = (uint8_t)kind, .i = i, .f = d};
    const MtType *ty = mt_const_natural_type(k);
    if (peek(r) == ':') {
        r->pos++;
        ty = type(r);
        if (r->err)
            return 0;
        if (!scalar(ty)) {
            rerr(r, r->pos, r->pos, "a constant's type is a scalar type");
            return 0;
        }
    }
    return mt_func_const(r->c, r->f, k, ty);
}

/* literal = "-"? ("inf" | digit+ ("." digit*)? ([eE] [+-]? digit+)?) (":" scalar)? */
static MtVal literal(Reader *r)
{
    uint32_t at = r->pos;
    bool neg = peek(r) == '-';
    if (neg)
        r->pos++;
    if (word(r, "inf") && r->pos == at + 3 + neg)
        return constant(r, CST_FLOAT, 0, neg ? -HUGE_VAL : HUGE_VAL);
    r->pos = at + neg;
    bool flt = false;
    if (!is_digit(peek(r))) {
        rerr(r, at, tok_end(r), "expected a number");
        return 0;
    }
    while (is_digit(peek(r)))
        r->pos++;
    if (peek(r) == '.') {
        flt = true;
        r->pos++;
        while (is_digit(peek(r)))
            r->pos++;
    }
    if (peek(r) == 'e' || peek(r) == 'E') {
        flt = true;
        r->pos++;
        if (peek(r) == '+' || peek(r) == '-')
            r->pos++;
        if (!is_digit(peek(r))) {
            rerr(r, at, tok_end(r), "malformed number");
            return 0;
        }
        while (is_digit(peek(r)))
            r->pos++;
    }
    if (is_id(peek(r)) || peek(r) == '.') {
        rerr(r, at, tok_end(r), "malformed number");
        return 0;
    }
    const char *t = mt_arena_strndup(&r->c->arena, r->s + at, r->pos - at);
    if (flt)
        return constant(r, CST_FLOAT, 0, strtod(t, NULL));
    errno = 0;
    if (!neg) {
        unsigned long long u = strtoull(t, NULL, 10);
        if (!errno && u > (unsigned long long)INT64_MAX)
            return constant(r, CST_UINT, (int64_t)u, 0);
    }
    errno = 0;
    long long v = strtoll(t, NULL, 10);
    if (errno) {
        rerr(r, at, r->pos, "integer constant %s does not fit in 64 bits", t);
        return 0;
    }
    return constant(r, CST_INT, v, 0);
}

/* operand = "%" N | param | literal | "none" | "true" | "false" | "nan"
 * (0 for none, and 0 with r->err set on an error) */
static MtVal operand(Reader *r)
{
    ws(r);
    uint32_t at = r->pos;
    int ch = peek(r);
    if (ch == '%')
        return use_num(r, number(r));
    if (ch == '-' || is_digit(ch))
        return literal(r);
    const char *name = ident(r);
    if (!name) {
        rerr(r, at, tok_end(r), "expected an operand");
        return 0;
    }
    if (!strcmp(name, "none"))
        return 0;
    if (!strcmp(name, "true") || !strcmp(name, "false"))
        return constant(r, CST_BOOL, name[0] == 't', 0);
    if (!strcmp(name, "inf"))
        return constant(r, CST_FLOAT, 0, HUGE_VAL);
    if (!strcmp(name, "nan"))
        return constant(r, CST_FLOAT, 0, NAN);
    for (uint32_t i = 0; i < r->f->nparams; i++)
        if (!strcmp(r->f->vals[r->f->params[i]].name, name))
            return r->f->params[i];
    rerr(r, at, r->pos, "unknown name '%s': not a parameter of the kernel", name);
    return 0;
}

/* ---- lines ------------------------------------------------------------------- */

static MtRegion *current(Reader *r)
{
    if (!r->open.n)
        return &r->f->body;
    MtInst *in = r->open.v[r->open.n - 1];
    return in->loop ? &in->loop->body : &in->nest->body[in->nest->nbodies - 1].insts;
}

static void key(Reader *r, const char *k)
{
    ws(r);
    if (r->err)
        return;
    if (!word(r, k)) {
        rerr(r, r->pos, tok_end(r), "expected '%s='", k);
        return;
    }
    expect(r, '=', "'='");
}

/* shape = "(" (N ("," N)* ","?)? ")" */
static void shape(Reader *r, MtAttrs *a)
{
    expect(r, '(', "'(' starting a shape");
    while (!r->err) {
        if (accept(r, ')'))
            return;
        if (a->rank == MT_MAX_RANK) {
            rerr(r, r->pos, tok_end(r), "shapes have at most %d dimensions", MT_MAX_RANK);
            return;
        }
        a->shape[a->rank++] = (int32_t)integer(r, INT32_MIN, INT32_MAX, "a dimension");
        if (!accept(r, ',')) {
            expect(r, ')', "')' closing the shape");
            return;
        }
    }
}

/* "{axis=" N (", keep_dims")? (", reverse")? "}", the opening brace read */
static void axis_attrs(Reader *r, MtInst *in)
{
    key(r, "axis");
    in->attr.axis = (int)integer(r, INT32_MIN, INT32_MAX, "an axis");
    while (!r->err && accept(r, ',')) {
        if (word(r, "keep_dims"))
            in->attr.flags |= MT_KEEP_DIMS;
        else if (word(r, "reverse"))
            in->attr.flags |= MT_REVERSE;
        else
            rerr(r, r->pos, tok_end(r), "expected 'keep_dims' or 'reverse'");
    }
}

/* Two hex digits as a byte value; 256 when they are not. */
static unsigned hex2(const char *p)
{
    unsigned v = 0;
    for (int i = 0; i < 2; i++) {
        char ch = p[i];
        unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0')
                     : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10)
                     : ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10) : 256;
        if (d == 256)
            return 256;
        v = v * 16 + d;
    }
    return v;
}

/* string = '"' (char | '\\"' | '\\\\' | '\\n' | '\\x' HEX HEX)* '"' */
static const char *string(Reader *r)
{
    ws(r);
    uint32_t at = r->pos;
    if (r->err || !accept(r, '"')) {
        if (!r->err)
            rerr(r, at, tok_end(r), "expected a string in double quotes");
        return NULL;
    }
    MtBuf b;
    mt_buf_init(&b, &r->c->arena);
    while (r->pos < r->len && r->s[r->pos] != '"' && r->s[r->pos] != '\n') {
        char ch = r->s[r->pos++];
        if (ch != '\\') {
            mt_buf_putc(&b, ch);
            continue;
        }
        char e = r->pos < r->len ? r->s[r->pos++] : 0;
        unsigned v;
        if (e == '"' || e == '\\')
            mt_buf_putc(&b, e);
        else if (e == 'n')
            mt_buf_putc(&b, '\n');
        else if (e == 'x' && r->pos + 2 <= r->len && (v = hex2(r->s + r->pos)) > 0 && v < 256) {
            mt_buf_putc(&b, (char)v);
            r->pos += 2;
        } else {
            rerr(r, r->pos - 2, r->pos, "unknown escape in a string (\\\", \\\\, \\n, \\xNN)");
            return NULL;
        }
    }
    if (r->pos >= r->len || r->s[r->pos] != '"') {
        rerr(r, at, r->pos, "unterminated string");
        return NULL;
    }
    r->pos++;
    return mt_buf_str(&b);
}

/* One of n names; its index. */
static uint8_t one_of(Reader *r, const char *const *names, uint8_t n, const char *what)
{
    for (uint8_t i = 0; i < n && !r->err; i++)
        if (word(r, names[i]))
            return i;
    if (!r->err)
        rerr(r, r->pos, tok_end(r), "expected %s", what);
    return 0;
}

/* "{sem=" SEM ", scope=" SCOPE "}", the opening brace read */
static void atomic_attrs(Reader *r, MtInst *in)
{
    key(r, "sem");
    in->attr.sem = one_of(r, mt_mem_sem_names, MT_SEM_COUNT_, "acq_rel, acquire, release or relaxed");
    expect(r, ',', "','");
    key(r, "scope");
    in->attr.scope = one_of(r, mt_mem_scope_names, MT_SCOPE_COUNT_, "gpu, cta or sys");
}

/* attrs = "{axis=" N "}" | "{start=" N ", end=" N "}" | "{shape=" shape ", dtype=" type "}"
 *       | "{rounding=rtz}" (a cast toward zero) | "{precision=tf32}" (a dot) | "{order=" shape "}"
 *       | "{sem=" SEM ", scope=" SCOPE "}" (atomics)
 *       | "{prefix=" string (", hex")? "}" (device_print) | "{msg=" string "}" (device_assert)
 *       | "{axis=" N (", keep_dims")? (", reverse")? "}" (reductions and scans; optional on a
 *         reduction of a rank-1 block, whose axis is 0) */
static void attrs(Reader *r, MtInst *in)
{
    const char *op = mt_op_info[in->op].text;
    int cls = mt_op_class(in->op);
    bool want = in->op == OP_PROGRAM_ID || in->op == OP_NUM_PROGRAMS || in->op == OP_EXPAND_DIMS ||
                in->op == OP_ARANGE || in->op == OP_ZEROS || in->op == OP_FULL || in->op == OP_EMPTY ||
                in->op == OP_PERMUTE || cls == OC_SCAN || cls == OC_COMBINE ||
                (cls == OC_HINT && in->op != OP_ASSUME) || cls == OC_ATOMIC || in->op == OP_DEVICE_PRINT ||
                in->op == OP_DEVICE_ASSERT;
    bool optional = in->op == OP_CAST || in->op == OP_DOT || cls == OC_REDUCE;
    ws(r);
    uint32_t at = r->pos;
    if (!accept(r, '{')) {
        if (want)
            rerr(r, at, tok_end(r), "%s needs its attributes {...}", op);
        return;
    }
    if (!want && !optional) {
        rerr(r, at, at + 1, "%s takes no attributes", op);
        return;
    }
    if (cls == OC_REDUCE || cls == OC_SCAN || cls == OC_COMBINE) {
        axis_attrs(r, in);
        expect(r, '}', "'}' closing the attributes");
        return;
    }
    if (in->op == OP_DEVICE_PRINT || in->op == OP_DEVICE_ASSERT) {
        key(r, in->op == OP_DEVICE_PRINT ? "prefix" : "msg");
        in->attr.text = string(r);
        if (in->op == OP_DEVICE_PRINT && !r->err && accept(r, ',')) {
            if (!word(r, "hex"))
                rerr(r, r->pos, tok_end(r), "expected 'hex'");
            in->attr.flags |= MT_HEX;
        }
        expect(r, '}', "'}' closing the attributes");
        return;
    }
    if (cls == OC_ATOMIC) {
        atomic_attrs(r, in);
        expect(r, '}', "'}' closing the attributes");
        return;
    }
    switch (in->op) {
    case OP_PERMUTE:
        key(r, "order");
        shape(r, &in->attr);
        break;
    case OP_MULTIPLE_OF:
    case OP_MAX_CONTIGUOUS:
    case OP_MAX_CONSTANCY:
        key(r, "values");
        shape(r, &in->attr);
        break;
    case OP_CAST:
        key(r, "rounding");
        if (!r->err && !word(r, "rtz"))
            rerr(r, r->pos, tok_end(r), "expected 'rtz' (to nearest even is the default and is not written)");
        in->attr.mode = MT_ROUND_RTZ;
        break;
    case OP_DOT:
        key(r, "precision");
        if (!r->err && !word(r, "tf32"))
            rerr(r, r->pos, tok_end(r), "expected 'tf32' (ieee is the default and is not written)");
        in->attr.mode = MT_DOT_TF32;
        break;
    case OP_PROGRAM_ID:
    case OP_NUM_PROGRAMS:
    case OP_EXPAND_DIMS:
        key(r, "axis");
        in->attr.axis = (int)integer(r, INT32_MIN, INT32_MAX, "an axis");
        break;
    case OP_ARANGE:
        key(r, "start");
        in->attr.start = integer(r, INT64_MIN, INT64_MAX, "a start");
        expect(r, ',', "','");
        key(r, "end");
        in->attr.end = integer(r, INT64_MIN, INT64_MAX, "an end");
        break;
    default:
        key(r, "shape");
        shape(r, &in->attr);
        expect(r, ',', "','");
        key(r, "dtype");
        if (!r->err)
            in->attr.dtype = type(r);
        break;
    }
    expect(r, '}', "'}' closing the attributes");
}

typedef struct Res {
    int64_t num;
    uint32_t at, end;
} Res;

/* for = "for %" N " in range(" operand ", " operand ", " N ")"
 *       (" iter_args(" %A " = " operand ("," ...)* ") : " type ("," type)*)? " {" */
static void for_line(Reader *r, uint32_t at, const Res *res, uint32_t nres)
{
    ws(r);
    uint32_t ivat = r->pos;
    int64_t iv = number(r);
    uint32_t ivend = r->pos;
    if (!r->err && (!word(r, "in") || !word(r, "range")))
        rerr(r, r->pos, tok_end(r), "expected 'in range('");
    expect(r, '(', "'('");
    MtVal bounds[2] = {0, 0};
    for (int i = 0; i < 2 && !r->err; i++) {
        bounds[i] = operand(r);
        expect(r, ',', "','");
    }
    int64_t step = 0;
    MtVal step_val = 0;
    ws(r);
    if (!r->err && (peek(r) == '%' || is_id0(peek(r))))
        step_val = operand(r); /* a runtime step */
    else if (!r->err)
        step = integer(r, INT64_MIN, INT64_MAX, "a step");
    expect(r, ')', "')'");
    MT_VEC(Carried) car = {0};
    MT_VEC(const MtType *) tys = {0};
    if (!r->err && word(r, "iter_args")) {
        expect(r, '(', "'('");
        while (!r->err) {
            Carried k;
            ws(r);
            k.at = r->pos;
            k.num = number(r);
            k.end = r->pos;
            expect(r, '=', "'='");
            k.init = r->err ? 0 : operand(r);
            mt_vec_push(&r->c->arena, &car, k);
            if (!accept(r, ','))
                break;
        }
        expect(r, ')', "')'");
        expect(r, ':', "':' and the carried types");
        while (!r->err) {
            const MtType *t = type(r);
            mt_vec_push(&r->c->arena, &tys, t);
            if (!accept(r, ','))
                break;
        }
        if (!r->err && tys.n != car.n)
            rerr(r, at, r->pos, "for carries %u value%s but declares %u type%s", car.n, car.n == 1 ? "" : "s", tys.n,
                 tys.n == 1 ? "" : "s");
    }
    if (!r->err && nres != car.n)
        rerr(r, at, r->pos, "for defines %u result%s but carries %u value%s", nres, nres == 1 ? "" : "s", car.n,
             car.n == 1 ? "" : "s");
    expect(r, '{', "'{' opening the loop body");
    uint32_t end = r->pos;
    expect_eol(r);
    if (r->err)
        return;

    uint32_t n = car.n;
    MtInst *in = mt_arena_alloc(&r->c->arena, sizeof *in);
    MtForData *l = mt_arena_alloc(&r->c->arena, sizeof *l);
    in->op = OP_FOR;
    in->span = mt_span_of(r->c, r->file, at, end);
    in->loop = l;
    in->nargs = 2 + n + (step_val != 0);
    in->args = mt_arena_alloc(&r->c->arena, in->nargs * sizeof *in->args);
    in->args[0] = bounds[0];
    in->args[1] = bounds[1];
    if (step_val)
        in->args[2 + n] = step_val;
    l->step = step;
    l->dyn_step = step_val != 0;
    l->ncarried = n;
    /* the induction variable has the bounds' type (i32 unless start says otherwise) */
    const MtType *ivt = bounds[0] ? mt_val_ty(r->f, bounds[0]) : NULL;
    if (!ivt || !mt_ty_is_scalar(ivt) || !mt_ty_is_intlike(ivt) || mt_ty_is_bool(ivt))
        ivt = &mt_ty_i32;
    l->iv = def_num(r, iv, ivat, ivend, VK_IV, ivt, in);
    l->iter_args = mt_arena_alloc(&r->c->arena, (n + 1) * sizeof *l->iter_args);
    l->results = mt_arena_alloc(&r->c->arena, (n + 1) * sizeof *l->results);
    for (uint32_t i = 0; i < n && !r->err; i++) {
        in->args[2 + i] = car.v[i].init;
        l->iter_args[i] = def_num(r, car.v[i].num, car.v[i].at, car.v[i].end, VK_ARG, tys.v[i], in);
        l->results[i] = def_num(r, res[i].num, res[i].at, res[i].end, VK_RESULT, tys.v[i], in);
        if (!r->err) {
            r->f->vals[l->iter_args[i]].index = i;
            r->f->vals[l->results[i]].index = i;
        }
    }
    if (r->err)
        return;
    mt_region_push(r->c, current(r), in);
    mt_vec_push(&r->c->arena, &r->open, in);
}

/* nest = op operands attrs " combine(" %A ("," %A)* ") : " type ("," type)* " {"
 * (reduce, scan: the region's arguments are the accumulated values then
 * the next ones, of the operands' element types) */
static void nest_line(Reader *r, uint32_t at, MtOpcode op, const Res *res, uint32_t nres)
{
    MT_VEC(MtVal) args = {0};
    do {
        MtVal x = operand(r);
        mt_vec_push(&r->c->arena, &args, x);
    } while (!r->err && accept(r, ','));
    MtInst *in = mt_arena_alloc(&r->c->arena, sizeof *in);
    in->op = (uint16_t)op;
    in->nargs = args.n;
    in->args = args.v;
    attrs(r, in);
    if (!r->err && !word(r, "combine"))
        rerr(r, r->pos, tok_end(r), "expected 'combine(' and the region's arguments");
    expect(r, '(', "'('");
    MT_VEC(Res) rargs = {0};
    while (!r->err) {
        Res x;
        ws(r);
        x.at = r->pos;
        x.num = number(r);
        x.end = r->pos;
        mt_vec_push(&r->c->arena, &rargs, x);
        if (!accept(r, ','))
            break;
    }
    expect(r, ')', "')'");
    expect(r, ':', "':' and the result types");
    MT_VEC(const MtType *) tys = {0};
    while (!r->err) {
        const MtType *t = type(r);
        mt_vec_push(&r->c->arena, &tys, t);
        if (!accept(r, ','))
            break;
    }
    if (!r->err && (tys.n != nres || rargs.n != 2 * args.n))
        rerr(r, at, r->pos, "%s over %u operand%s defines %u result%s with %u type%s and %u region argument%s",
             mt_op_info[op].text, args.n, args.n == 1 ? "" : "s", nres, nres == 1 ? "" : "s", tys.n,
             tys.n == 1 ? "" : "s", rargs.n, rargs.n == 1 ? "" : "s");
    expect(r, '{', "'{' opening the combine region");
    uint32_t end = r->pos;
    expect_eol(r);
    if (r->err)
        return;
    in->span = mt_span_of(r->c, r->file, at, end);
    MtNest *x = mt_arena_alloc(&r->c->arena, sizeof *x);
    in->nest = x;
    x->nbodies = 1;
    x->body[0].nargs = rargs.n;
    x->body[0].args = mt_arena_alloc(&r->c->arena, (rargs.n + 1) * sizeof *x->body[0].args);
    for (uint32_t i = 0; i < rargs.n && !r->err; i++) {
        const MtType *et = args.v[i % args.n] ? mt_ty_elem(mt_val_ty(r->f, args.v[i % args.n])) : NULL;
        x->body[0].args[i] = def_num(r, rargs.v[i].num, rargs.v[i].at, rargs.v[i].end, VK_ARG, et, in);
        if (!r->err)
            r->f->vals[x->body[0].args[i]].index = i;
    }
    x->nresults = nres;
    x->results = mt_arena_alloc(&r->c->arena, (nres + 1) * sizeof *x->results);
    for (uint32_t i = 0; i < nres && !r->err; i++) {
        x->results[i] = def_num(r, res[i].num, res[i].at, res[i].end, VK_RESULT, tys.v[i], in);
        if (!r->err)
            r->f->vals[x->results[i]].index = i;
    }
    if (r->err)
        return;
    mt_region_push(r->c, current(r), in);
    mt_vec_push(&r->c->arena, &r->open, in);
}

/* The result types after ':' (none when the line goes on with '{'). */
static void result_types(Reader *r, void *out_)
{
    MT_VEC(const MtType *) *out = out_;
    if (!accept(r, ':'))
        return;
    while (!r->err) {
        const MtType *t = type(r);
        mt_vec_push(&r->c->arena, out, t);
        if (!accept(r, ','))
            break;
    }
}

static MtInst *nest_inst(Reader *r, MtOpcode op, uint32_t at, MtVal *args, uint32_t nargs)
{
    MtInst *in = mt_arena_alloc(&r->c->arena, sizeof *in);
    in->op = (uint16_t)op;
    in->nargs = nargs;
    in->args = args;
    in->span = mt_span_of(r->c, r->file, at, r->pos);
    in->nest = mt_arena_alloc(&r->c->arena, sizeof *in->nest);
    in->nest->nbodies = 1;
    return in;
}

static void nest_results(Reader *r, MtInst *in, const Res *res, uint32_t nres, const MtType *const *tys)
{
    MtNest *x = in->nest;
    x->nresults = nres;
    x->results = mt_arena_alloc(&r->c->arena, (nres + 1) * sizeof *x->results);
    for (uint32_t i = 0; i < nres && !r->err; i++) {
        x->results[i] = def_num(r, res[i].num, res[i].at, res[i].end, VK_RESULT, tys[i], in);
        if (!r->err)
            r->f->vals[x->results[i]].index = i;
    }
}

/* if = "if" operand (":" type ("," type)*)? "{" */
static void if_line(Reader *r, uint32_t at, const Res *res, uint32_t nres)
{
    MtVal *cond = mt_arena_alloc(&r->c->arena, sizeof *cond);
    *cond = operand(r);
    MT_VEC(const MtType *) tys = {0};
    if (!r->err)
        result_types(r, &tys);
    if (!r->err && tys.n != nres)
        rerr(r, at, r->pos, "if defines %u result%s with %u type%s", nres, nres == 1 ? "" : "s", tys.n,
             tys.n == 1 ? "" : "s");
    expect(r, '{', "'{' opening the then region");
    expect_eol(r);
    if (r->err)
        return;
    MtInst *in = nest_inst(r, OP_IF, at, cond, 1);
    nest_results(r, in, res, nres, tys.v);
    if (r->err)
        return;
    mt_region_push(r->c, current(r), in);
    mt_vec_push(&r->c->arena, &r->open, in);
}

/* "(" %A = operand ("," ...)* ")" or "(" %A ("," %A)* ")": region arguments */
static void region_args(Reader *r, MtInst *in, uint32_t k, bool with_init, MtVal **inits, const MtType *const *tys,
                        uint32_t ntys)
{
    MT_VEC(Res) as = {0};
    MT_VEC(MtVal) vals = {0};
    expect(r, '(', "'(' and the region's arguments");
    if (!r->err && !accept(r, ')')) {
        while (!r->err) {
            Res x;
            ws(r);
            x.at = r->pos;
            x.num = number(r);
            x.end = r->pos;
            mt_vec_push(&r->c->arena, &as, x);
            if (with_init) {
                expect(r, '=', "'='");
                MtVal v = r->err ? 0 : operand(r);
                mt_vec_push(&r->c->arena, &vals, v);
            }
            if (!accept(r, ','))
                break;
        }
        expect(r, ')', "')'");
    }
    if (r->err)
        return;
    MtBody *b = &in->nest->body[k];
    b->nargs = as.n;
    b->args = mt_arena_alloc(&r->c->arena, (as.n + 1) * sizeof *b->args);
    for (uint32_t i = 0; i < as.n && !r->err; i++) {
        b->args[i] = def_num(r, as.v[i].num, as.v[i].at, as.v[i].end, VK_ARG, i < ntys ? tys[i] : NULL, in);
        if (!r->err)
            r->f->vals[b->args[i]].index = i;
    }
    if (inits)
        *inits = vals.v;
}

/* while = "while" region_args_with_inits (":" types)? "{" */
static void while_line(Reader *r, uint32_t at, const Res *res, uint32_t nres)
{
    MtInst *in = nest_inst(r, OP_WHILE, at, NULL, 0);
    uint32_t mark = r->pos;
    /* the types come after the arguments: read ahead for them */
    int depth = 0;
    while (r->pos < r->len && r->s[r->pos] != '\n') {
        depth += r->s[r->pos] == '(';
        depth -= r->s[r->pos] == ')';
        r->pos++;
        if (!depth && r->s[r->pos - 1] == ')')
            break;
    }
    MT_VEC(const MtType *) tys = {0};
    result_types(r, &tys);
    uint32_t after = r->pos;
    r->pos = mark;
    MtVal *inits = NULL;
    region_args(r, in, 0, true, &inits, tys.v, tys.n);
    if (r->err)
        return;
    r->pos = after;
    in->args = inits;
    in->nargs = in->nest->body[0].nargs;
    if (tys.n != nres || tys.n != in->nargs)
        rerr(r, at, r->pos, "while carries %u value%s, defines %u result%s and %u type%s", in->nargs,
             in->nargs == 1 ? "" : "s", nres, nres == 1 ? "" : "s", tys.n, tys.n == 1 ? "" : "s");
    expect(r, '{', "'{' opening the condition region");
    expect_eol(r);
    if (r->err)
        return;
    nest_results(r, in, res, nres, tys.v);
    if (r->err)
        return;
    mt_region_push(r->c, current(r), in);
    mt_vec_push(&r->c->arena, &r->open, in);
}

static MtOpcode opcode(const char *name)
{
    for (int op = 0; op < OPC_COUNT_; op++)
        if (!strcmp(mt_op_info[op].text, name))
            return (MtOpcode)op;
    return OPC_COUNT_;
}

/* line = "}" | (results "=")? (for | op operands? attrs? (":" type)?) */
static void line(Reader *r)
{
    ws(r);
    uint32_t at = r->pos;
    if (accept(r, '}')) {
        if (!r->open.n) {
            rerr(r, at, at + 1, "'}' without an open region");
            return;
        }
        MtInst *top = r->open.v[r->open.n - 1];
        if (top->op == OP_IF && top->nest->nbodies == 1 && word(r, "else")) {
            expect(r, '{', "'{' opening the else region");
            top->nest->nbodies = 2;
        } else if (top->op == OP_WHILE && top->nest->nbodies == 1 && word(r, "do")) {
            const MtType **tys = mt_arena_alloc(&r->c->arena, (top->nargs + 1) * sizeof *tys);
            for (uint32_t i = 0; i < top->nargs; i++)
                tys[i] = top->nest->nresults > i ? mt_val_ty(r->f, top->nest->results[i]) : NULL;
            region_args(r, top, 1, false, NULL, tys, top->nargs);
            expect(r, '{', "'{' opening the loop body");
            top->nest->nbodies = 2;
        } else {
            r->open.n--;
        }
        expect_eol(r);
        return;
    }
    MT_VEC(Res) res = {0};
    if (peek(r) == '%') {
        do {
            Res x;
            ws(r);
            x.at = r->pos;
            x.num = number(r);
            x.end = r->pos;
            mt_vec_push(&r->c->arena, &res, x);
        } while (!r->err && accept(r, ','));
        expect(r, '=', "'='");
    }
    if (r->err)
        return;
    if (word(r, "for")) {
        for_line(r, at, res.v, res.n);
        return;
    }
    if (word(r, "if")) {
        if_line(r, at, res.v, res.n);
        return;
    }
    if (word(r, "while")) {
        while_line(r, at, res.v, res.n);
        return;
    }
    uint32_t opat = r->pos;
    const char *name = ident(r);
    MtOpcode op = name ? opcode(name) : OPC_COUNT_;
    if (op == OPC_COUNT_) {
        r->pos = opat;
        rerr(r, opat, tok_end(r), name ? "unknown operation '%s'" : "expected an operation%s", name ? name : "");
        return;
    }
    if (mt_op_class(op) == OC_COMBINE) {
        nest_line(r, at, op, res.v, res.n);
        return;
    }
    if (res.n > 1) {
        rerr(r, at, r->pos, "%s defines one value; only for, if, while, reduce and scan define several", name);
        return;
    }
    MT_VEC(MtVal) args = {0};
    ws(r);
    if (peek(r) != '\n' && peek(r) != -1 && peek(r) != '{' && peek(r) != ':') {
        do {
            MtVal x = operand(r);
            mt_vec_push(&r->c->arena, &args, x);
        } while (!r->err && accept(r, ','));
    }
    if (r->err)
        return;
    MtInst *in = mt_arena_alloc(&r->c->arena, sizeof *in);
    in->op = (uint16_t)op;
    in->nargs = args.n;
    in->args = args.v;
    attrs(r, in);
    if (!r->err && accept(r, ':'))
        in->ty = type(r);
    if (!r->err && in->ty && mt_op_class(op) == OC_CAST)
        in->attr.dtype = mt_ty_elem(in->ty); /* the target is the result's element type */
    uint32_t end = r->pos;
    expect_eol(r);
    if (r->err)
        return;
    in->span = mt_span_of(r->c, r->file, at, end);
    if (res.n)
        in->dst = def_num(r, res.v[0].num, res.v[0].at, res.v[0].end, VK_INST, in->ty, in);
    mt_region_push(r->c, current(r), in);
}

/* header = "kernel" name "(" (param ":" type ("," param ":" type)*)? ")" */
static void header(Reader *r)
{
    ws(r);
    const char *name = word(r, "kernel") ? ident(r) : NULL;
    if (!name) {
        rerr(r, r->pos, tok_end(r), "expected the header 'kernel name(param: type, ...)'");
        return;
    }
    r->f->name = name;
    expect(r, '(', "'(' opening the parameter list");
    if (!r->err && !accept(r, ')')) {
        while (!r->err) {
            ws(r);
            uint32_t at = r->pos;
            const char *p = ident(r);
            if (!p) {
                rerr(r, at, tok_end(r), "expected a parameter name");
                return;
            }
            if (!strcmp(p, "none") || !strcmp(p, "true") || !strcmp(p, "false")) {
                rerr(r, at, r->pos, "'%s' is a reserved operand name", p);
                return;
            }
            for (uint32_t i = 0; i < r->f->nparams; i++) {
                if (!strcmp(r->f->vals[r->f->params[i]].name, p)) {
                    rerr(r, at, r->pos, "duplicate parameter '%s'", p);
                    return;
                }
            }
            expect(r, ':', "':' and the parameter type");
            ws(r);
            uint32_t tat = r->pos;
            const MtType *t = r->err ? NULL : type(r);
            if (r->err)
                return;
            if (!scalar(t) && t->kind != TY_PTR) {
                rerr(r, tat, r->pos, "parameters are scalars or pointers");
                return;
            }
            mt_func_param(r->c, r->f, p, t);
            if (!accept(r, ','))
                break;
        }
        expect(r, ')', "')' closing the parameter list");
    }
    expect_eol(r);
}

MtFunc *mt_ssa_read(MtCtx *c, const char *text, const char *name_for_diags)
{
    size_t len = strlen(text);
    Reader r = {.c = c, .maxnum = -1};
    r.file = mt_ctx_add_file(c, name_for_diags, text, len);
    r.s = mt_ctx_file(c, r.file)->text;
    if (len >= UINT32_MAX) {
        rerr(&r, 0, 0, "SSA text is too long");
        return NULL;
    }
    r.len = (uint32_t)len;
    r.f = mt_func_new(c, NULL);
    header(&r);
    while (!r.err && r.pos < r.len) {
        ws(&r);
        if (peek(&r) == '\n')
            r.pos++;
        else if (peek(&r) != -1)
            line(&r);
    }
    if (!r.err && r.open.n)
        rerr(&r, r.len, r.len, "missing '}' closing the %s on line %u", mt_op_info[r.open.v[r.open.n - 1]->op].text,
             r.open.v[r.open.n - 1]->span.line);
    if (r.err)
        return NULL;
    r.f->next_num = (uint32_t)(r.maxnum + 1);
    return r.f;
}

const char *mt_ssa_write(MtCtx *c, const MtFunc *f)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    mt_buf_printf(&b, "kernel %s(", f->name ? f->name : "kernel");
    for (uint32_t i = 0; i < f->nparams; i++) {
        const MtValue *p = &f->vals[f->params[i]];
        mt_buf_printf(&b, "%s%s: ", i ? ", " : "", p->name);
        mt_ty_print(&b, p->ty);
    }
    mt_buf_puts(&b, ")\n");
    mt_buf_puts(&b, mt_ssa_print(c, f));
    return mt_buf_str(&b);
}
