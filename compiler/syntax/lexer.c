/* lexer.c: the whole file to Python 3.12 tokens, the way CPython's
 * tokenizer sees it.
 *
 * The lexer runs once over the entire file, host code included, because
 * the parser needs the block structure (NEWLINE / INDENT / DEDENT) of every
 * line to find the kernels and to skip everything else. It follows
 * CPython's rules so that any valid Python file tokenises without a
 * diagnostic: physical lines join inside brackets and after a backslash,
 * blank and comment-only lines produce no tokens, indentation is measured
 * with tabs to the next multiple of 8 (and checked against a tab-size-1
 * measure, which is how CPython detects a mix of tabs and spaces), and a
 * dedent must land on a level of the indentation stack.
 *
 * Errors are recorded and lexing continues, so the token stream is always
 * complete: a bad character becomes TK_ERROR, an unterminated string is
 * still a TK_STRING, a dedent to an unknown level opens a "phantom" level
 * (no INDENT token, and no DEDENT when it is popped) so that the lines
 * that follow it line up again. Bracket mismatches are reported here, as
 * CPython's tokenizer does: an unclosed bracket swallows every later line
 * into one logical line, so it must be reported even in host code, or the
 * kernels after it would silently disappear.
 *
 * Cost is linear in the file: every byte is looked at a bounded number of
 * times (an f-string whose fields do not close is rescanned once), and the
 * only allocations are one arena copy of each token's text, its decoded
 * string value, and the growth of the token and comment arrays.
 */
#include "lexer.h"

#include <stdlib.h>
#include <string.h>

/* f-strings nest inside f-string replacement fields; past this depth the
 * literal is treated as malformed instead of recursing further. */
enum { FSTRING_MAX_NEST = 200, TABSIZE = 8 };

typedef struct Indent {
    uint32_t col;             /* tabs to multiples of 8 */
    uint32_t alt;             /* tabs count 1: differs from col ordering = TabError */
    bool phantom;             /* opened by a bad dedent: no INDENT, no DEDENT */
} Indent;

typedef struct Bracket {
    uint8_t op;               /* OP_LPAR, OP_LSQB, OP_LBRACE */
    MtSpan span;
} Bracket;

/* A position in the file: byte offset and its 1-based line and column. */
typedef struct Pos {
    uint32_t off, line, col;
} Pos;

typedef struct Lexer {
    MtCtx *c;
    uint32_t file;
    const char *src;          /* NUL-terminated; src[len] == 0 */
    uint32_t len;
    uint32_t start;           /* 3 after a UTF-8 byte order mark, else 0 */
    uint32_t pos;
    uint32_t line;            /* line of pos */
    uint32_t bol;             /* offset where that line begins */
    bool line_has_tokens;     /* the logical line so far produced a token */
    MT_VEC(MtToken) toks;
    MT_VEC(MtComment) comments;
    MT_VEC(Indent) indents;
    MT_VEC(Bracket) brackets;
} Lexer;

static const char *const op_texts[OP_COUNT_] = {
    [OP_NONE_] = "",
    [OP_LPAR] = "(", [OP_RPAR] = ")", [OP_LSQB] = "[", [OP_RSQB] = "]",
    [OP_LBRACE] = "{", [OP_RBRACE] = "}", [OP_COLON] = ":", [OP_COMMA] = ",",
    [OP_SEMI] = ";", [OP_PERIOD] = ".", [OP_ELLIPSIS] = "...", [OP_ARROW] = "->",
    [OP_AT] = "@", [OP_WALRUS] = ":=", [OP_PLUS] = "+", [OP_MINUS] = "-",
    [OP_STAR] = "*", [OP_SLASH] = "/", [OP_DSLASH] = "//", [OP_PERCENT] = "%",
    [OP_DSTAR] = "**", [OP_AMP] = "&", [OP_VBAR] = "|", [OP_CARET] = "^",
    [OP_TILDE] = "~", [OP_LSHIFT] = "<<", [OP_RSHIFT] = ">>", [OP_LT] = "<",
    [OP_GT] = ">", [OP_LE] = "<=", [OP_GE] = ">=", [OP_EQ] = "==", [OP_NE] = "!=",
    [OP_ASSIGN] = "=", [OP_PLUS_EQ] = "+=", [OP_MINUS_EQ] = "-=",
    [OP_STAR_EQ] = "*=", [OP_SLASH_EQ] = "/=", [OP_DSLASH_EQ] = "//=",
    [OP_PERCENT_EQ] = "%=", [OP_DSTAR_EQ] = "**=", [OP_AMP_EQ] = "&=",
    [OP_VBAR_EQ] = "|=", [OP_CARET_EQ] = "^=", [OP_LSHIFT_EQ] = "<<=",
    [OP_RSHIFT_EQ] = ">>=", [OP_AT_EQ] = "@=",
};

const char *mt_op_text(MtOp op)
{
    return op > OP_NONE_ && op < OP_COUNT_ ? op_texts[op] : "?";
}

typedef struct Keyword {
    const char *text;
    uint8_t len;
    uint8_t kw;
} Keyword;

/* Hard keywords only: match, case, type and _ are soft keywords and stay
 * plain names (the parser recognises them by context). */
static const Keyword keywords[] = {
    {"False", 5, KW_FALSE}, {"None", 4, KW_NONE}, {"True", 4, KW_TRUE},
    {"and", 3, KW_AND}, {"as", 2, KW_AS}, {"assert", 6, KW_ASSERT},
    {"async", 5, KW_ASYNC}, {"await", 5, KW_AWAIT}, {"break", 5, KW_BREAK},
    {"class", 5, KW_CLASS}, {"continue", 8, KW_CONTINUE}, {"def", 3, KW_DEF},
    {"del", 3, KW_DEL}, {"elif", 4, KW_ELIF}, {"else", 4, KW_ELSE},
    {"except", 6, KW_EXCEPT}, {"finally", 7, KW_FINALLY}, {"for", 3, KW_FOR},
    {"from", 4, KW_FROM}, {"global", 6, KW_GLOBAL}, {"if", 2, KW_IF},
    {"import", 6, KW_IMPORT}, {"in", 2, KW_IN}, {"is", 2, KW_IS},
    {"lambda", 6, KW_LAMBDA}, {"nonlocal", 8, KW_NONLOCAL}, {"not", 3, KW_NOT},
    {"or", 2, KW_OR}, {"pass", 4, KW_PASS}, {"raise", 5, KW_RAISE},
    {"return", 6, KW_RETURN}, {"try", 3, KW_TRY}, {"while", 5, KW_WHILE},
    {"with", 4, KW_WITH}, {"yield", 5, KW_YIELD},
};

const char *mt_kw_text(MtKw kw)
{
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (keywords[i].kw == kw)
            return keywords[i].text;
    return "?";
}

static MtKw keyword_of(const char *s, uint32_t n)
{
    if (n < 2 || n > 8 || !((s[0] >= 'a' && s[0] <= 'z') || s[0] == 'F' || s[0] == 'N' || s[0] == 'T'))
        return KW_NONE_;
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if (keywords[i].len == n && memcmp(keywords[i].text, s, n) == 0)
            return (MtKw)keywords[i].kw;
    return KW_NONE_;
}

/* ---- characters and positions ---------------------------------------------- */

static char at(const Lexer *L, uint32_t i) { return i < L->len ? L->src[i] : 0; }

static bool is_name_start(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch >= 0x80;
}

static bool is_name_char(unsigned char ch) { return is_name_start(ch) || (ch >= '0' && ch <= '9'); }
static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }
static bool is_eol(char ch) { return ch == '\n' || ch == '\r'; }

static Pos here(const Lexer *L) { return (Pos){L->pos, L->line, L->pos - L->bol + 1}; }

static MtSpan span_between(const Lexer *L, Pos a, Pos b)
{
    return (MtSpan){.file = L->file, .off = a.off, .end = b.off, .line = a.line, .col = a.col,
                    .end_line = b.line, .end_col = b.col};
}

static MtSpan span_from(const Lexer *L, Pos a) { return span_between(L, a, here(L)); }

/* L->pos is at '\n', '\r' or "\r\n": step over it onto the next line. */
static void newline(Lexer *L)
{
    if (L->src[L->pos] == '\r' && at(L, L->pos + 1) == '\n')
        L->pos++;
    L->pos++;
    L->line++;
    L->bol = L->pos;
}

static MtToken *push_token(Lexer *L, MtTokKind kind, MtSpan sp)
{
    MtToken t = {0};
    t.kind = (uint8_t)kind;
    t.span = sp;
    t.len = sp.end - sp.off;
    t.text = mt_arena_strndup(&L->c->arena, L->src + sp.off, t.len);
    mt_vec_push(&L->c->arena, &L->toks, t);
    if (kind != TK_NEWLINE && kind != TK_INDENT && kind != TK_DEDENT && kind != TK_EOF)
        L->line_has_tokens = true;
    return &L->toks.v[L->toks.n - 1];
}

static void push_marker(Lexer *L, MtTokKind kind, Pos p) { push_token(L, kind, span_between(L, p, p)); }

/* ---- indentation ------------------------------------------------------------ */

/* At the start of a line outside brackets: measure the indentation and
 * emit INDENT / DEDENT. Blank and comment-only lines leave the stack
 * alone, as in CPython. */
static void indentation(Lexer *L)
{
    uint32_t col = 0, alt = 0;
    for (;; L->pos++) {
        char ch = at(L, L->pos);
        if (ch == ' ') {
            col++;
            alt++;
        } else if (ch == '\t') {
            col = (col / TABSIZE + 1) * TABSIZE;
            alt++;
        } else if (ch == '\f') {
            col = alt = 0;
        } else {
            break;
        }
    }
    char ch = at(L, L->pos);
    if (L->pos >= L->len || ch == '#' || is_eol(ch))
        return;

    Pos p = here(L);
    Indent *top = &L->indents.v[L->indents.n - 1];
    bool tab_error = false;
    if (col == top->col) {
        tab_error = alt != top->alt;
    } else if (col > top->col) {
        tab_error = alt <= top->alt;
        Indent in = {col, alt, false};
        mt_vec_push(&L->c->arena, &L->indents, in);
        push_marker(L, TK_INDENT, p);
    } else {
        while (L->indents.n > 1 && col < L->indents.v[L->indents.n - 1].col) {
            if (!L->indents.v[L->indents.n - 1].phantom)
                push_marker(L, TK_DEDENT, p);
            L->indents.n--;
        }
        top = &L->indents.v[L->indents.n - 1];
        if (col != top->col) {
            mt_error(L->c, span_between(L, p, p), "E0104", "unindent does not match any outer indentation level");
            Indent in = {col, alt, true};
            mt_vec_push(&L->c->arena, &L->indents, in);
        } else {
            tab_error = alt != top->alt;
        }
    }
    if (tab_error)
        mt_error(L->c, span_between(L, p, p), "E0104", "inconsistent use of tabs and spaces in indentation");
}

/* ---- comments --------------------------------------------------------------- */

static void comment(Lexer *L)
{
    Pos p = here(L);
    bool own = true;
    for (uint32_t i = L->bol > L->start ? L->bol : L->start; i < p.off; i++)
        if (L->src[i] != ' ' && L->src[i] != '\t' && L->src[i] != '\f')
            own = false;
    while (L->pos < L->len && !is_eol(L->src[L->pos]))
        L->pos++;
    MtComment cm = {span_from(L, p), mt_arena_strndup(&L->c->arena, L->src + p.off + 1, L->pos - p.off - 1), own};
    mt_vec_push(&L->c->arena, &L->comments, cm);
}

/* ---- numbers ---------------------------------------------------------------- */

static bool digit_in_base(char ch, int base)
{
    switch (base) {
    case 2: return ch == '0' || ch == '1';
    case 8: return ch >= '0' && ch <= '7';
    case 10: return is_digit(ch);
    default: return is_digit(ch) || ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f');
    }
}

static int digit_value(char ch) { return is_digit(ch) ? ch - '0' : (ch | 0x20) - 'a' + 10; }

/* digit (["_"] digit)*, starting at a digit. Returns false (with *p at the
 * offending '_') when an underscore is not followed by a digit. */
static bool digit_run(const Lexer *L, uint32_t *p, int base)
{
    for (;;) {
        while (digit_in_base(at(L, *p), base))
            (*p)++;
        if (at(L, *p) != '_')
            return true;
        if (!digit_in_base(at(L, *p + 1), base))
            return false;
        (*p)++;
    }
}

/* CPython's verify_end_of_number: a number directly followed by a name
 * character is an error, except before the keywords that can follow a
 * number in valid code (`1if x else 2`, `0x1for`, `1or 2`, ...). */
static bool name_may_follow_number(const Lexer *L, uint32_t p)
{
    static const char *const ok[] = {"and", "else", "for", "if", "in", "is", "not", "or"};
    unsigned char ch = (unsigned char)at(L, p);
    if (!is_name_char(ch) || ch >= 0x80)
        return true;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        size_t n = strlen(ok[i]);
        if (p + n <= L->len && memcmp(L->src + p, ok[i], n) == 0)
            return true;
    }
    return false;
}

/* Literal text without '_' separators (and without a trailing j), in
 * `buf` when it fits, otherwise in the arena. */
static const char *clean_digits(Lexer *L, uint32_t from, uint32_t to, char *buf, size_t cap)
{
    size_t n = to - from;
    char *d = n < cap ? buf : mt_arena_alloc(&L->c->arena, n + 1);
    size_t k = 0;
    for (uint32_t i = from; i < to; i++)
        if (L->src[i] != '_' && (L->src[i] | 0x20) != 'j')
            d[k++] = L->src[i];
    d[k] = 0;
    return d;
}

static void int_value(Lexer *L, MtToken *t, uint32_t from, uint32_t to, int base)
{
    uint64_t v = 0;
    double f = 0;
    bool over = false;
    for (uint32_t i = from; i < to; i++) {
        char ch = L->src[i];
        if (ch == '_')
            continue;
        int d = digit_value(ch);
        f = f * base + d;
        if (v > (uint64_t)(INT64_MAX - d) / (uint64_t)base)
            over = true;
        else
            v = v * (uint64_t)base + (uint64_t)d;
    }
    t->int_overflow = over;
    t->ival = over ? INT64_MAX : (int64_t)v;
    if (!over) {
        t->fval = (double)t->ival;
    } else if (base == 10) {
        char buf[64];
        t->fval = strtod(clean_digits(L, from, to, buf, sizeof buf), NULL);
    } else {
        t->fval = f;
    }
}

static void number(Lexer *L)
{
    Pos p = here(L);
    uint32_t q = L->pos;
    const char *err = NULL;
    const char *kind = "decimal";
    int base = 10;
    uint8_t num_kind = 0;
    char lo1 = (char)(at(L, q + 1) | 0x20);

    if (at(L, q) == '0' && (lo1 == 'x' || lo1 == 'o' || lo1 == 'b')) {
        base = lo1 == 'x' ? 16 : lo1 == 'o' ? 8 : 2;
        kind = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
        q += 2;
        if (at(L, q) == '_')
            q++;
        if (!digit_in_base(at(L, q), base)) {
            if (is_digit(at(L, q)))
                err = mt_sprintf(L->c, "invalid digit '%c' in %s literal", at(L, q), kind);
            else
                err = mt_sprintf(L->c, "invalid %s literal: '%.2s' must be followed by a digit", kind, L->src + p.off);
        } else if (!digit_run(L, &q, base)) {
            err = mt_sprintf(L->c, "invalid %s literal: '_' must be followed by a digit", kind);
        } else if (is_digit(at(L, q))) {
            err = mt_sprintf(L->c, "invalid digit '%c' in %s literal", at(L, q), kind);
        }
    } else {
        bool leading_zero_error = false;
        if (at(L, q) != '.') {
            bool zero = at(L, q) == '0';
            uint32_t start = q;
            if (!digit_run(L, &q, 10))
                err = "invalid decimal literal: '_' must be followed by a digit";
            if (zero)
                for (uint32_t i = start; i < q; i++)
                    if (L->src[i] != '0' && L->src[i] != '_')
                        leading_zero_error = true;
        }
        if (!err && at(L, q) == '.') {
            num_kind = 1;
            q++;
            if (is_digit(at(L, q)) && !digit_run(L, &q, 10))
                err = "invalid decimal literal: '_' must be followed by a digit";
        }
        if (!err && (at(L, q) | 0x20) == 'e') {
            uint32_t e = q + 1;
            if (at(L, e) == '+' || at(L, e) == '-')
                e++;
            if (is_digit(at(L, e))) {
                num_kind = 1;
                q = e;
                if (!digit_run(L, &q, 10))
                    err = "invalid decimal literal: '_' must be followed by a digit";
            } else if (e != q + 1 || !name_may_follow_number(L, q)) {
                err = "invalid decimal literal: the exponent has no digits";
            }
        }
        if (!err && (at(L, q) | 0x20) == 'j') {
            num_kind = 2;
            kind = "imaginary";
            q++;
        }
        if (!err && leading_zero_error && num_kind == 0)
            err = "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers";
    }
    if (!err && !name_may_follow_number(L, q))
        err = mt_sprintf(L->c, "invalid %s literal: unexpected '%c' after the number", kind, at(L, q));

    uint32_t end = q;
    if (err) /* the rest of the malformed literal belongs to it: no second error */
        while (is_name_char((unsigned char)at(L, q)))
            q++;
    L->pos = q;
    MtToken *t = push_token(L, TK_NUMBER, span_from(L, p));
    t->num_kind = num_kind;
    if (err) {
        mt_error(L->c, t->span, "E0103", "%s", err);
        return;
    }
    if (num_kind == 0) {
        int_value(L, t, base == 10 ? p.off : p.off + 2, end, base);
    } else {
        char buf[64];
        t->fval = strtod(clean_digits(L, p.off, end, buf, sizeof buf), NULL);
    }
}

/* ---- strings ---------------------------------------------------------------- */

enum { STR_RAW = 1, STR_BYTES = 2, STR_F = 4 };

/* The n letters at s as STR_* flags, or -1 when they are not a Python
 * string prefix (then they are an ordinary name before a string). */
static int string_prefix(const char *s, uint32_t n)
{
    if (n > 2)
        return -1;
    int flags = 0;
    bool u = false;
    for (uint32_t i = 0; i < n; i++) {
        int bit;
        switch (s[i] | 0x20) {
        case 'r': bit = STR_RAW; break;
        case 'b': bit = STR_BYTES; break;
        case 'f': bit = STR_F; break;
        case 'u': bit = 0; u = true; break;
        default: return -1;
        }
        if (bit && (flags & bit))
            return -1;
        flags |= bit;
    }
    if (u && n != 1)
        return -1;
    if ((flags & STR_BYTES) && (flags & STR_F))
        return -1;
    return flags;
}

static bool skip_body(Lexer *L, char q, bool triple, int flags, int nest);

/* At a quote inside an f-string replacement field: skip that string. */
static bool skip_nested_string(Lexer *L, int flags, int nest)
{
    char q = L->src[L->pos];
    bool triple = at(L, L->pos + 1) == q && at(L, L->pos + 2) == q;
    L->pos += triple ? 3 : 1;
    return skip_body(L, q, triple, flags, nest + 1);
}

static bool closes(const Lexer *L, char q, bool triple)
{
    return L->src[L->pos] == q && (!triple || (at(L, L->pos + 1) == q && at(L, L->pos + 2) == q));
}

static bool skip_field(Lexer *L, char q, bool triple, int nest);

/* The format spec after ':' in a replacement field: literal text with
 * nested fields (`{x:{width}}`), up to the closing '}'. */
static bool skip_spec(Lexer *L, char q, bool triple, int nest)
{
    while (L->pos < L->len) {
        char ch = L->src[L->pos];
        if (ch == '}') {
            L->pos++;
            return true;
        }
        if (ch == '{') {
            L->pos++;
            if (!skip_field(L, q, triple, nest))
                return false;
        } else if (closes(L, q, triple) || (is_eol(ch) && !triple)) {
            return false;
        } else if (is_eol(ch)) {
            newline(L);
        } else {
            L->pos += ch == '\\' && L->pos + 1 < L->len && !is_eol(L->src[L->pos + 1]) ? 2 : 1;
        }
    }
    return false;
}

/* A replacement field after its '{': an expression with its own brackets
 * and string literals of any quote (Python 3.12 lets a field reuse the
 * enclosing quote), then an optional !conversion and :spec, then '}'. */
static bool skip_field(Lexer *L, char q, bool triple, int nest)
{
    if (nest > FSTRING_MAX_NEST)
        return false;
    int depth = 0;
    while (L->pos < L->len) {
        unsigned char ch = (unsigned char)L->src[L->pos];
        if (ch == '\'' || ch == '"') {
            if (!skip_nested_string(L, 0, nest))
                return false;
        } else if (is_name_start(ch)) {
            uint32_t s = L->pos;
            while (is_name_char((unsigned char)at(L, L->pos)))
                L->pos++;
            char nq = at(L, L->pos);
            int fl = string_prefix(L->src + s, L->pos - s);
            if ((nq == '\'' || nq == '"') && fl >= 0 && !skip_nested_string(L, fl, nest))
                return false;
        } else if (ch == '(' || ch == '[' || ch == '{') {
            depth++;
            L->pos++;
        } else if (ch == ')' || ch == ']') {
            depth -= depth > 0;
            L->pos++;
        } else if (ch == '}') {
            L->pos++;
            if (depth == 0)
                return true;
            depth--;
        } else if (depth == 0 && ch == '!' && at(L, L->pos + 1) != '=') {
            L->pos++;
            while (is_name_char((unsigned char)at(L, L->pos)))
                L->pos++;
        } else if (depth == 0 && ch == ':') {
            L->pos++;
            return skip_spec(L, q, triple, nest);
        } else if (ch == '#') {
            while (L->pos < L->len && !is_eol(L->src[L->pos]))
                L->pos++;
        } else if (is_eol(ch)) {
            newline(L);
        } else if (ch == '\\' && is_eol(at(L, L->pos + 1))) {
            L->pos++;
            newline(L);
        } else {
            L->pos++;
        }
    }
    return false;
}

/* The body of a string after its opening quote(s), through the closing
 * quote(s). Returns false, with pos at the end of the line (single quotes)
 * or of the file (triple quotes), when the literal does not terminate. */
static bool skip_body(Lexer *L, char q, bool triple, int flags, int nest)
{
    bool fstr = flags & STR_F;
    while (L->pos < L->len) {
        char ch = L->src[L->pos];
        if (ch == q) {
            if (closes(L, q, triple)) {
                L->pos += triple ? 3 : 1;
                return true;
            }
            L->pos++;
        } else if (ch == '\\') {
            L->pos++;
            char nx = at(L, L->pos);
            if (is_eol(nx)) {
                newline(L);
            } else if (fstr && (nx == '{' || nx == '}')) {
                /* `\{` is no escape: the brace still opens a field */
            } else if (fstr && !(flags & STR_RAW) && nx == 'N' && at(L, L->pos + 1) == '{') {
                while (L->pos < L->len && L->src[L->pos] != '}' && !is_eol(L->src[L->pos]))
                    L->pos++;
                L->pos += L->pos < L->len && L->src[L->pos] == '}';
            } else if (L->pos < L->len) {
                L->pos++;
            }
        } else if (is_eol(ch)) {
            if (!triple)
                return false;
            newline(L);
        } else if (fstr && ch == '{') {
            if (at(L, L->pos + 1) == '{') {
                L->pos += 2;
            } else {
                L->pos++;
                if (!skip_field(L, q, triple, nest))
                    return false;
            }
        } else {
            L->pos++;
        }
    }
    return false;
}

static void put_utf8(char *d, uint32_t *k, uint32_t cp)
{
    if (cp < 0x80) {
        d[(*k)++] = (char)cp;
    } else if (cp < 0x800) {
        d[(*k)++] = (char)(0xC0 | (cp >> 6));
        d[(*k)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        d[(*k)++] = (char)(0xE0 | (cp >> 12));
        d[(*k)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        d[(*k)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        d[(*k)++] = (char)(0xF0 | (cp >> 18));
        d[(*k)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        d[(*k)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        d[(*k)++] = (char)(0x80 | (cp & 0x3F));
    }
}

/* Exactly n hex digits at s[i..], or -1. */
static long hex_run(const Lexer *L, uint32_t i, uint32_t end, int n)
{
    long v = 0;
    for (int k = 0; k < n; k++) {
        char ch = i + (uint32_t)k < end ? L->src[i + (uint32_t)k] : 0;
        if (!digit_in_base(ch, 16))
            return -1;
        v = v * 16 + digit_value(ch);
    }
    return v;
}

/* The position of `off`, counting lines from `p` (an earlier position)
 * the way the lexer does, "\r" and "\r\n" included. */
static Pos pos_after(const Lexer *L, Pos p, uint32_t off)
{
    uint32_t bol = p.off - (p.col - 1);
    for (uint32_t i = p.off; i < off; i++) {
        char ch = L->src[i];
        if (ch == '\n' || (ch == '\r' && at(L, i + 1) != '\n')) {
            p.line++;
            bol = i + 1;
        }
    }
    return (Pos){off, p.line, off - bol + 1};
}

/* `*at` is a position at or before `from`, advanced to it: errors come
 * in source order, so the literal is scanned once however many there are. */
static void escape_error(Lexer *L, Pos *at, uint32_t from, uint32_t to, const char *msg)
{
    *at = pos_after(L, *at, from);
    mt_error(L->c, span_between(L, *at, pos_after(L, *at, to)), "E0107", "%s", msg);
}

/* The value of the literal body [body, to): escapes decoded unless raw,
 * and "\r\n" / "\r" read as "\n", as Python reads source files. Every
 * escape decodes to at most as many bytes as it is written with. */
static void decode(Lexer *L, MtToken *t, Pos body, uint32_t to, int flags)
{
    uint32_t from = body.off;
    char *d = mt_arena_alloc(&L->c->arena, to - from + 1);
    uint32_t k = 0;
    bool raw = flags & STR_RAW, bytes = flags & STR_BYTES;
    for (uint32_t i = from; i < to;) {
        char ch = L->src[i];
        if (ch == '\r') {
            d[k++] = '\n';
            i += i + 1 < to && L->src[i + 1] == '\n' ? 2 : 1;
            continue;
        }
        if (ch != '\\' || raw || i + 1 >= to) {
            if (raw && ch == '\\' && i + 1 < to) { /* an escaped quote or backslash stays two characters */
                d[k++] = ch;
                ch = L->src[++i];
                if (ch == '\r')
                    continue;
            }
            d[k++] = ch;
            i++;
            continue;
        }
        char e = L->src[i + 1];
        uint32_t esc = i;
        i += 2;
        switch (e) {
        case '\n': break;
        case '\r': i += i < to && L->src[i] == '\n'; break;
        case '\\': d[k++] = '\\'; break;
        case '\'': d[k++] = '\''; break;
        case '"': d[k++] = '"'; break;
        case 'n': d[k++] = '\n'; break;
        case 't': d[k++] = '\t'; break;
        case 'r': d[k++] = '\r'; break;
        case 'a': d[k++] = '\a'; break;
        case 'b': d[k++] = '\b'; break;
        case 'f': d[k++] = '\f'; break;
        case 'v': d[k++] = '\v'; break;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
            uint32_t v = (uint32_t)(e - '0');
            for (int n = 1; n < 3 && i < to && L->src[i] >= '0' && L->src[i] <= '7'; n++)
                v = v * 8 + (uint32_t)(L->src[i++] - '0');
            if (bytes)
                d[k++] = (char)(v & 0xFF);
            else
                put_utf8(d, &k, v);
            break;
        }
        case 'x': case 'u': case 'U': {
            int n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            if (bytes && e != 'x') {
                d[k++] = '\\';
                d[k++] = e;
                break;
            }
            long v = hex_run(L, i, to, n);
            if (v < 0) {
                uint32_t end = i;
                while (end < to && end < i + (uint32_t)n && digit_in_base(L->src[end], 16))
                    end++;
                escape_error(L, &body, esc, end, mt_sprintf(L->c, "truncated \\%c%.*s escape", e, n, "XXXXXXXX"));
                d[k++] = '\\';
                d[k++] = e;
                break;
            }
            if (v > 0x10FFFF) {
                escape_error(L, &body, esc, i + (uint32_t)n, "illegal Unicode character: code point above U+10FFFF");
                v = 0xFFFD;
            }
            i += (uint32_t)n;
            if (bytes)
                d[k++] = (char)v;
            else
                put_utf8(d, &k, (uint32_t)v);
            break;
        }
        case 'N':
            d[k++] = '\\';
            d[k++] = 'N';
            if (bytes)
                break;
            if (i >= to || L->src[i] != '{') {
                escape_error(L, &body, esc, i, "malformed \\N character escape: expected '{'");
                break;
            }
            while (i < to && L->src[i] != '}')
                d[k++] = L->src[i++];
            if (i >= to) {
                escape_error(L, &body, esc, i, "malformed \\N character escape: missing '}'");
                break;
            }
            d[k++] = L->src[i++];
            break;
        default:
            d[k++] = '\\';
            i--; /* the character after the backslash is copied as is */
            break;
        }
    }
    d[k] = 0;
    t->str = d;
    t->str_len = k;
}

/* A string literal: `prefix` letters start at p and the opening quote is
 * at L->pos. */
static void string(Lexer *L, Pos p, int flags)
{
    Pos quote = here(L);
    char q = L->src[L->pos];
    bool triple = at(L, L->pos + 1) == q && at(L, L->pos + 2) == q;
    uint32_t open = triple ? 3 : 1;
    L->pos += open;
    bool ok = skip_body(L, q, triple, flags, 0);
    bool malformed_field = false;
    if (!ok && (flags & STR_F)) {
        /* A field that never closes: rescan as a plain literal, which ends
         * at the first unescaped closing quote. */
        L->pos = quote.off + open;
        L->line = quote.line;
        L->bol = quote.off - (quote.col - 1);
        ok = skip_body(L, q, triple, flags & ~STR_F, 0);
        malformed_field = ok;
    }
    MtToken *t = push_token(L, TK_STRING, span_from(L, p));
    t->fstring = (flags & STR_F) != 0;
    t->bytes = (flags & STR_BYTES) != 0;
    uint32_t body = quote.off + open;
    uint32_t end = ok ? L->pos - open : L->pos;
    if (flags & STR_F) {
        t->str = mt_arena_strndup(&L->c->arena, L->src + body, end - body);
        t->str_len = end - body;
    } else {
        decode(L, t, pos_after(L, quote, body), end, flags);
    }
    if (malformed_field) {
        mt_error(L->c, t->span, "E0107", "f-string: expecting '}'");
    } else if (!ok) {
        mt_error(L->c, span_from(L, quote), "E0102", triple ? "unterminated triple-quoted string literal"
                                                             : "unterminated string literal");
        /* The closing brackets of this line were swallowed with it: end the
         * logical line here instead of joining every later line to it (the
         * open brackets all belong to this logical line). */
        if (!triple)
            L->brackets.n = 0;
    }
}

/* ---- operators -------------------------------------------------------------- */

/* The longest operator at L->pos, with its length, or OP_NONE_. */
static MtOp operator(const Lexer *L, uint32_t *n)
{
    char c0 = L->src[L->pos], c1 = at(L, L->pos + 1), c2 = c1 ? at(L, L->pos + 2) : 0;
    *n = 1;
#define TWO(ch, op2) if (c1 == (ch)) { *n = 2; return (op2); }
    switch (c0) {
    case '(': return OP_LPAR;
    case ')': return OP_RPAR;
    case '[': return OP_LSQB;
    case ']': return OP_RSQB;
    case '{': return OP_LBRACE;
    case '}': return OP_RBRACE;
    case ',': return OP_COMMA;
    case ';': return OP_SEMI;
    case '~': return OP_TILDE;
    case ':': TWO('=', OP_WALRUS) return OP_COLON;
    case '.':
        if (c1 == '.' && c2 == '.') {
            *n = 3;
            return OP_ELLIPSIS;
        }
        return OP_PERIOD;
    case '-': TWO('>', OP_ARROW) TWO('=', OP_MINUS_EQ) return OP_MINUS;
    case '+': TWO('=', OP_PLUS_EQ) return OP_PLUS;
    case '%': TWO('=', OP_PERCENT_EQ) return OP_PERCENT;
    case '&': TWO('=', OP_AMP_EQ) return OP_AMP;
    case '|': TWO('=', OP_VBAR_EQ) return OP_VBAR;
    case '^': TWO('=', OP_CARET_EQ) return OP_CARET;
    case '@': TWO('=', OP_AT_EQ) return OP_AT;
    case '=': TWO('=', OP_EQ) return OP_ASSIGN;
    case '!': TWO('=', OP_NE) return OP_NONE_;
    case '*':
        if (c1 == '*') {
            *n = c2 == '=' ? 3 : 2;
            return c2 == '=' ? OP_DSTAR_EQ : OP_DSTAR;
        }
        TWO('=', OP_STAR_EQ) return OP_STAR;
    case '/':
        if (c1 == '/') {
            *n = c2 == '=' ? 3 : 2;
            return c2 == '=' ? OP_DSLASH_EQ : OP_DSLASH;
        }
        TWO('=', OP_SLASH_EQ) return OP_SLASH;
    case '<':
        if (c1 == '<') {
            *n = c2 == '=' ? 3 : 2;
            return c2 == '=' ? OP_LSHIFT_EQ : OP_LSHIFT;
        }
        TWO('=', OP_LE) return OP_LT;
    case '>':
        if (c1 == '>') {
            *n = c2 == '=' ? 3 : 2;
            return c2 == '=' ? OP_RSHIFT_EQ : OP_RSHIFT;
        }
        TWO('=', OP_GE) return OP_GT;
    default: return OP_NONE_;
    }
#undef TWO
}

static char bracket_char(uint8_t op) { return op == OP_LPAR ? '(' : op == OP_LSQB ? '[' : '{'; }

static void track_bracket(Lexer *L, MtToken *t)
{
    if (t->op == OP_LPAR || t->op == OP_LSQB || t->op == OP_LBRACE) {
        Bracket b = {t->op, t->span};
        mt_vec_push(&L->c->arena, &L->brackets, b);
        return;
    }
    if (t->op != OP_RPAR && t->op != OP_RSQB && t->op != OP_RBRACE)
        return;
    if (L->brackets.n == 0) {
        mt_error(L->c, t->span, "E0105", "unmatched '%s'", t->text);
        return;
    }
    Bracket *b = &L->brackets.v[--L->brackets.n];
    uint8_t want = b->op == OP_LPAR ? OP_RPAR : b->op == OP_LSQB ? OP_RSQB : OP_RBRACE;
    if (t->op == want)
        return;
    if (b->span.line == t->span.line)
        mt_error(L->c, t->span, "E0105", "closing parenthesis '%s' does not match opening parenthesis '%c'",
                 t->text, bracket_char(b->op));
    else
        mt_error(L->c, t->span, "E0105", "closing parenthesis '%s' does not match opening parenthesis '%c' on line %u",
                 t->text, bracket_char(b->op), b->span.line);
}

static void invalid_char(Lexer *L)
{
    Pos p = here(L);
    unsigned char ch = (unsigned char)L->src[L->pos++];
    MtToken *t = push_token(L, TK_ERROR, span_from(L, p));
    if (ch < 0x20 || ch == 0x7F)
        mt_error(L->c, t->span, "E0101", "invalid non-printable character U+%04X", ch);
    else
        mt_error(L->c, t->span, "E0101", "invalid character '%c' (U+%04X)", ch, ch);
}

/* A backslash outside a string: a line continuation when the line ends
 * right after it. */
static void backslash(Lexer *L)
{
    if (is_eol(at(L, L->pos + 1))) {
        L->pos++;
        newline(L);
        return;
    }
    if (L->pos + 1 >= L->len) {
        L->pos++;
        return;
    }
    Pos p = here(L);
    L->pos++;
    MtToken *t = push_token(L, TK_ERROR, span_from(L, p));
    mt_error(L->c, t->span, "E0101", "unexpected character after line continuation character");
}

static void name_or_string(Lexer *L)
{
    Pos p = here(L);
    while (is_name_char((unsigned char)at(L, L->pos)))
        L->pos++;
    char q = at(L, L->pos);
    if (q == '\'' || q == '"') {
        int flags = string_prefix(L->src + p.off, L->pos - p.off);
        if (flags >= 0) {
            string(L, p, flags);
            return;
        }
    }
    MtToken *t = push_token(L, TK_NAME, span_from(L, p));
    t->kw = (uint8_t)keyword_of(t->text, t->len);
}

MtTokens mt_lex(MtCtx *c, uint32_t file)
{
    const MtFile *f = mt_ctx_file(c, file);
    Lexer L = {.c = c, .file = file, .src = f ? f->text : "", .len = f ? (uint32_t)f->len : 0, .line = 1};
    if (L.len >= 3 && memcmp(L.src, "\xEF\xBB\xBF", 3) == 0)
        L.pos = L.start = 3; /* a UTF-8 byte order mark is not part of the source */
    /* Python source averages 6-10 bytes per token: one allocation of
     * about the right size, instead of a doubling array that allocates
     * (and zeroes) twice the final size. */
    L.toks.cap = L.len / 5 + 64;
    L.toks.v = mt_arena_alloc(&c->arena, L.toks.cap * sizeof *L.toks.v);
    Indent base = {0, 0, false};
    mt_vec_push(&c->arena, &L.indents, base);
    bool bol = true;

    for (;;) {
        if (bol && L.brackets.n == 0)
            indentation(&L);
        bol = false;
        while (L.pos < L.len && (L.src[L.pos] == ' ' || L.src[L.pos] == '\t' || L.src[L.pos] == '\f'))
            L.pos++;
        if (L.pos >= L.len)
            break;
        unsigned char ch = (unsigned char)L.src[L.pos];
        if (ch == '#') {
            comment(&L);
        } else if (is_eol((char)ch)) {
            if (L.brackets.n == 0) {
                if (L.line_has_tokens)
                    push_marker(&L, TK_NEWLINE, here(&L));
                L.line_has_tokens = false;
                bol = true;
            }
            newline(&L);
        } else if (ch == '\\') {
            backslash(&L);
        } else if (is_name_start(ch)) {
            name_or_string(&L);
        } else if (is_digit((char)ch) || (ch == '.' && is_digit(at(&L, L.pos + 1)))) {
            number(&L);
        } else if (ch == '\'' || ch == '"') {
            string(&L, here(&L), 0);
        } else {
            uint32_t n;
            MtOp op = operator(&L, &n);
            if (op == OP_NONE_) {
                invalid_char(&L);
                continue;
            }
            Pos p = here(&L);
            L.pos += n;
            MtToken *t = push_token(&L, TK_OP, span_from(&L, p));
            t->op = (uint8_t)op;
            track_bracket(&L, t);
        }
    }

    Pos end = here(&L);
    if (L.brackets.n) {
        Bracket *b = &L.brackets.v[L.brackets.n - 1];
        mt_error(c, b->span, "E0106", "'%c' was never closed", bracket_char(b->op));
    }
    if (L.line_has_tokens)
        push_marker(&L, TK_NEWLINE, end);
    for (uint32_t i = L.indents.n; i-- > 1;)
        if (!L.indents.v[i].phantom)
            push_marker(&L, TK_DEDENT, end);
    push_marker(&L, TK_EOF, end);
    return (MtTokens){L.toks.v, L.toks.n, L.comments.v, L.comments.n};
}
