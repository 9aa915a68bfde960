/* grid.c: the grid-expression evaluator (grammar and semantics in grid.h).
 *
 * One recursive-descent pass evaluates as it parses; there is no tree. The
 * same pass with `eval` off is the syntax check, so the two can never
 * disagree about what parses. The first error wins: it is recorded with its
 * column, and every rule returns as soon as `failed` is set.
 */
#include "grid.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define MAX_NAME 128

typedef struct Parser {
    const char *s, *p;        /* the whole expression, the cursor */
    MtGridLookup lookup;
    void *ud;
    bool eval;                /* false: syntax check, values are meaningless */
    bool failed;
    char *err;
    size_t errlen;
} Parser;

/* Record the first error: "<what> at column C in \"<expr>\"". */
__attribute__((format(printf, 3, 4)))
static int64_t fail_at(Parser *ps, const char *at, const char *fmt, ...) {
    if (ps->failed) return 0;
    ps->failed = true;
    if (!ps->err || !ps->errlen) return 0;
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (*at)
        snprintf(ps->err, ps->errlen, "%s at column %d in \"%s\"", what, (int)(at - ps->s) + 1, ps->s);
    else
        snprintf(ps->err, ps->errlen, "%s in \"%s\"", what, ps->s);
    return 0;
}

static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static void skip_space(Parser *ps) {
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r') ps->p++;
}

/* Length of the token at p, for "unexpected '...'" messages. */
static int token_len(const char *p) {
    const char *q = p;
    if (is_alpha(*q) || is_digit(*q)) {
        while (is_alpha(*q) || is_digit(*q)) q++;
        return (int)(q - p);
    }
    if ((p[0] == '/' && p[1] == '/') || (p[0] == '*' && p[1] == '*')) return 2;
    return 1;
}

static int64_t unexpected(Parser *ps) {
    if (!*ps->p) return fail_at(ps, ps->p, "unexpected end of expression");
    if (ps->p[0] == '/' && ps->p[1] != '/')
        return fail_at(ps, ps->p, "'/' is float division; use '//'");
    return fail_at(ps, ps->p, "unexpected '%.*s'", token_len(ps->p), ps->p);
}

static bool eat(Parser *ps, const char *tok) {
    skip_space(ps);
    size_t n = strlen(tok);
    if (strncmp(ps->p, tok, n) != 0) return false;
    ps->p += n;
    return true;
}

/* Python's floor division and modulo; callers have excluded b == 0. */
static bool floordiv(int64_t a, int64_t b, int64_t *q) {
    if (a == INT64_MIN && b == -1) return false;
    int64_t t = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) t--;
    *q = t;
    return true;
}

static int64_t pymod(int64_t a, int64_t b) {
    if (b == -1) return 0;    /* INT64_MIN % -1 is undefined in C */
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}

static int64_t expr(Parser *ps);

/* NAME "(" expr "," expr ")"   with NAME one of cdiv, max, min */
static int64_t call(Parser *ps, const char *name, const char *at) {
    bool cdiv = strcmp(name, "cdiv") == 0 || strcmp(name, "triton.cdiv") == 0;
    bool is_max = strcmp(name, "max") == 0;
    if (!cdiv && !is_max && strcmp(name, "min") != 0)
        return fail_at(ps, at, "unknown function '%s' (cdiv, max and min are known)", name);
    eat(ps, "(");
    int64_t a = expr(ps);
    if (ps->failed) return 0;
    skip_space(ps);
    if (!eat(ps, ",")) {
        if (*ps->p == ')') return fail_at(ps, at, "%s() takes 2 arguments, got 1", name);
        return unexpected(ps);
    }
    int64_t b = expr(ps);
    if (ps->failed) return 0;
    skip_space(ps);
    if (*ps->p == ',') return fail_at(ps, at, "%s() takes 2 arguments, got more", name);
    if (!eat(ps, ")")) return unexpected(ps);
    if (!ps->eval) return 0;
    if (!cdiv) return is_max ? (a > b ? a : b) : (a < b ? a : b);
    int64_t sum, q;
    if (b == 0) return fail_at(ps, at, "division by zero");
    if (__builtin_add_overflow(a, b, &sum) || __builtin_sub_overflow(sum, 1, &sum) ||
        !floordiv(sum, b, &q))
        return fail_at(ps, at, "integer overflow");
    return q;
}

/* Read an identifier (with the one dotted name, triton.cdiv) into buf. */
static bool name(Parser *ps, char *buf) {
    const char *start = ps->p;
    while (is_alpha(*ps->p) || is_digit(*ps->p)) ps->p++;
    if (ps->p - start == 6 && strncmp(start, "triton", 6) == 0 && ps->p[0] == '.' && is_alpha(ps->p[1])) {
        ps->p++;
        while (is_alpha(*ps->p) || is_digit(*ps->p)) ps->p++;
    }
    size_t n = (size_t)(ps->p - start);
    if (n >= MAX_NAME) {
        fail_at(ps, start, "name '%.20s...' is too long", start);
        return false;
    }
    memcpy(buf, start, n);
    buf[n] = 0;
    return true;
}

static int64_t lookup(Parser *ps, const char *nm, const char *at) {
    if (!ps->eval) return 0;
    int64_t v = 0;
    int r = ps->lookup ? ps->lookup(ps->ud, nm, &v) : MT_GRID_UNKNOWN;
    if (r == MT_GRID_FOUND) return v;
    if (r == MT_GRID_NOT_INT) return fail_at(ps, at, "'%s' is not an integer", nm);
    return fail_at(ps, at, "unknown name '%s'", nm);
}

/* "meta" "[" STRING "]", the cursor just after "meta" */
static int64_t meta(Parser *ps) {
    eat(ps, "[");
    skip_space(ps);
    char q = *ps->p;
    if (q != '\'' && q != '"') return unexpected(ps);
    ps->p++;
    char buf[MAX_NAME];
    const char *key = ps->p;
    if (!is_alpha(*ps->p)) return unexpected(ps);
    if (!name(ps, buf)) return 0;
    if (*ps->p != q) return unexpected(ps);
    ps->p++;
    if (!eat(ps, "]")) return unexpected(ps);
    return lookup(ps, buf, key);
}

/* primary = INT | NAME | NAME "(" ... ")" | "(" expr ")" | meta[...] */
static int64_t primary(Parser *ps) {
    skip_space(ps);
    const char *at = ps->p;
    if (is_digit(*ps->p)) {
        uint64_t v = 0;
        bool big = false;
        while (is_digit(*ps->p) || (*ps->p == '_' && is_digit(ps->p[1]) && ps->p > at)) {
            if (*ps->p == '_') {
                ps->p++;
                continue;
            }
            unsigned d = (unsigned)(*ps->p++ - '0');
            if (v > ((uint64_t)INT64_MAX - d) / 10) big = true;
            else v = v * 10 + d;
        }
        if (is_alpha(*ps->p)) return unexpected(ps);
        if (big) return fail_at(ps, at, "integer %.*s is too large", (int)(ps->p - at), at);
        return (int64_t)v;
    }
    if (is_alpha(*ps->p)) {
        char buf[MAX_NAME];
        if (!name(ps, buf)) return 0;
        skip_space(ps);
        if (*ps->p == '(') return call(ps, buf, at);
        if (*ps->p == '[' && strcmp(buf, "meta") == 0) return meta(ps);
        return lookup(ps, buf, at);
    }
    if (*ps->p == '(') {
        ps->p++;
        int64_t v = expr(ps);
        if (ps->failed) return 0;
        if (!eat(ps, ")")) return unexpected(ps);
        return v;
    }
    return unexpected(ps);
}

/* unary = ("-" | "+") unary | primary */
static int64_t unary(Parser *ps) {
    skip_space(ps);
    const char *at = ps->p;
    if (eat(ps, "-")) {
        int64_t v = unary(ps);
        if (ps->failed || !ps->eval) return 0;
        if (v == INT64_MIN) return fail_at(ps, at, "integer overflow");
        return -v;
    }
    if (eat(ps, "+")) return unary(ps);
    return primary(ps);
}

/* term = unary (("*" | "//" | "%") unary)* */
static int64_t term(Parser *ps) {
    int64_t v = unary(ps);
    while (!ps->failed) {
        skip_space(ps);
        const char *at = ps->p;
        int op;
        if (at[0] == '*' && at[1] != '*') op = '*';
        else if (at[0] == '/' && at[1] == '/') op = '/';
        else if (at[0] == '%') op = '%';
        else break;
        ps->p += op == '/' ? 2 : 1;
        int64_t r = unary(ps);
        if (ps->failed || !ps->eval) continue;
        if (op == '*') {
            if (__builtin_mul_overflow(v, r, &v)) return fail_at(ps, at, "integer overflow");
        } else if (r == 0) {
            return fail_at(ps, at, "division by zero");
        } else if (op == '%') {
            v = pymod(v, r);
        } else if (!floordiv(v, r, &v)) {
            return fail_at(ps, at, "integer overflow");
        }
    }
    return v;
}

/* expr = term (("+" | "-") term)* */
static int64_t expr(Parser *ps) {
    int64_t v = term(ps);
    while (!ps->failed) {
        skip_space(ps);
        const char *at = ps->p;
        if (*at != '+' && *at != '-') break;
        ps->p++;
        int64_t r = term(ps);
        if (ps->failed || !ps->eval) continue;
        bool over = *at == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v);
        if (over) return fail_at(ps, at, "integer overflow");
    }
    return v;
}

/* Append n bytes of s to buf (capacity cap, length *at), escaped for a
 * JSON string when `json`; stops short rather than overflow, and keeps
 * buf NUL-terminated. */
static void append(char *buf, size_t cap, size_t *at, const char *s, size_t n, bool json) {
    for (size_t i = 0; i < n; i++) {
        bool esc = json && (s[i] == '"' || s[i] == '\\');
        if (*at + 1 + esc >= cap) break;
        if (esc) buf[(*at)++] = '\\';
        buf[(*at)++] = s[i];
    }
    buf[*at] = 0;
}

/* A pasted Triton grid, `lambda meta: (triton.cdiv(n, meta['BLOCK']),)`
 * or a tuple `(cdiv(n, 64), 4)`: say what to write instead, the
 * lambda's body as one entry per axis, ready to paste into the spec. */
static bool grid_hint(const char *text, char *err, size_t errlen) {
    const char *p = text;
    while (*p == ' ' || *p == '\t') p++;
    bool lambda = strncmp(p, "lambda", 6) == 0 && !is_alpha(p[6]) && !is_digit(p[6]);
    if (lambda) {
        const char *colon = strchr(p, ':');
        if (!colon) return false;
        p = colon + 1;
    }
    while (*p == ' ' || *p == '\t') p++;
    const char *end = p + strlen(p);
    while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n')) end--;
    /* The axes: a parenthesised tuple's items, split at top-level commas. */
    const char *items[4];
    size_t lens[4], n = 0;
    bool tuple = end - p >= 2 && *p == '(' && end[-1] == ')';
    if (tuple) {
        int depth = 0;
        const char *start = p + 1;
        tuple = false;
        for (const char *q = p + 1; q < end - 1 && n < 4; q++) {
            depth += (*q == '(' || *q == '[') - (*q == ')' || *q == ']');
            if (depth < 0) return false;
            if (*q == ',' && depth == 0) {
                items[n] = start, lens[n++] = (size_t)(q - start);
                start = q + 1;
                tuple = true;
            }
        }
        if (!tuple) return false;
        while (*start == ' ') start++;
        if (start < end - 1 && n < 4) items[n] = start, lens[n++] = (size_t)(end - 1 - start);
    } else {
        if (!lambda) return false;
        items[0] = p, lens[0] = (size_t)(end - p), n = 1;
    }
    char axes[512];
    size_t at = 0;
    append(axes, sizeof axes, &at, "[", 1, false);
    for (size_t i = 0; i < n && i < 3; i++) {
        while (lens[i] && *items[i] == ' ') items[i]++, lens[i]--;
        if (i) append(axes, sizeof axes, &at, ", ", 2, false);
        append(axes, sizeof axes, &at, "\"", 1, false);
        append(axes, sizeof axes, &at, items[i], lens[i], true);
        append(axes, sizeof axes, &at, "\"", 1, false);
    }
    append(axes, sizeof axes, &at, "]", 1, false);
    if (err && errlen)
        snprintf(err, errlen, "%s: write %s", lambda ? "a grid entry is the body of Triton's grid lambda, not the "
                 "lambda" : "a grid entry is one axis, not a tuple of them", axes);
    return true;
}

static MtStatus run(const char *text, MtGridLookup lk, void *ud, bool eval, int64_t *out, char *err,
                    size_t errlen) {
    Parser ps = {.s = text, .p = text, .lookup = lk, .ud = ud, .eval = eval, .err = err, .errlen = errlen};
    skip_space(&ps);
    if (!*ps.p) {
        if (err && errlen) snprintf(err, errlen, "empty expression");
        return MT_ERR_USAGE;
    }
    if (grid_hint(text, err, errlen)) return MT_ERR_USAGE;
    int64_t v = expr(&ps);
    skip_space(&ps);
    if (!ps.failed && *ps.p) unexpected(&ps);
    if (ps.failed) return MT_ERR_USAGE;
    if (out) *out = v;
    return MT_OK;
}

MtStatus mt_grid_eval(const char *expr_text, MtGridLookup lk, void *ud, int64_t *out, char *err,
                      size_t errlen) {
    return run(expr_text, lk, ud, true, out, err, errlen);
}

MtStatus mt_grid_check(const char *expr_text, char *err, size_t errlen) {
    return run(expr_text, NULL, NULL, false, NULL, err, errlen);
}
