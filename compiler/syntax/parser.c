/* parser.c: recursive descent over Python 3.12, kernels only.
 *
 * The parser works on the complete token stream of the file and does two
 * different jobs:
 *
 *  - At module level it is a tolerant walker. It never reports anything:
 *    host code may be any valid Python (or even invalid Python: that is
 *    the interpreter's business, not ours). It records the module-level
 *    bindings a kernel may read (imports, NAME = value, defs, classes) and
 *    finds the jit functions. Function bodies, classes and compound
 *    statements are skipped by their INDENT/DEDENT structure, without
 *    parsing what is inside.
 *
 *  - Inside a jit function it parses the whole statement and expression
 *    grammar of Python 3.12, so that valid Python never gets a generic
 *    syntax error: constructs a kernel cannot use come back as
 *    ND_UNSUPPORTED / ND_UNSUPPORTED_STMT nodes (with the construct's name
 *    and exact span) for the frontend to reject with a precise message.
 *
 * Error handling follows one rule: at most one error per statement. The
 * first error sets `err`; from then on every parse function returns at
 * once (with the shared `bad` node, never NULL), loops stop, and the
 * statement loop drops the statement and resynchronises at the next
 * NEWLINE (which the lexer only emits at bracket depth 0). A compound
 * statement whose header failed still has its indented block parsed, so
 * independent errors inside it are reported too. Errors the lexer already
 * reported are not reported again: the parser stays silent at a token
 * that carries a lexer diagnostic, and after a bracket that is never
 * closed (everything behind it is one broken logical line).
 *
 * Depth is bounded twice over. The parser's own recursion: nested
 * expressions and unary and `**` chains count against MAX_DEPTH, nested
 * blocks against MAX_BLOCKS; everything at module level and all the
 * skipping code is iterative. The depth of the tree it builds, which every
 * later pass walks recursively: shapes built in a loop that still nest in
 * the tree (a + b + c ..., f()()..., x.a.b..., long elif chains) count
 * against the same budgets, so no input gives a consumer a tree deeper
 * than a few hundred levels.
 *
 * Spans come from tokens, not from child nodes: a node spans from the
 * first token of its source text to the last, so `(a + b) * c` covers the
 * parentheses of its left operand even though the parenthesised node
 * itself (which keeps its inner span) does not.
 */
#include "parser.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

enum { MAX_DEPTH = 200, MAX_BLOCKS = 100 };

typedef MT_VEC(MtNode *) NodeVec;

/* A name bound by an import clause: `import a.b as x` binds x to "a.b". */
typedef struct Binding {
    const char *name;
    const char *target;
    MtSpan span;              /* the bound name as written */
    bool from;                /* from-import (GL_FROM) */
} Binding;

typedef MT_VEC(Binding) BindingVec;

typedef struct Parser {
    MtCtx *c;
    const MtToken *t;
    uint32_t n;               /* t[n - 1] is TK_EOF */
    uint32_t pos;
    const MtTokens *toks;
    bool quiet;               /* module-level values: no diagnostics at all */
    bool err;                 /* the current statement has an error */
    int depth;                /* expression nesting, <= MAX_DEPTH */
    int blocks;               /* block nesting, <= MAX_BLOCKS */
    uint32_t unclosed_off;    /* first bracket never closed, or UINT32_MAX */
    MT_VEC(uint32_t) lex_err; /* offsets of the lexer's diagnostics */
    MtNode *bad;              /* returned after an error */
    BindingVec imports;       /* every import of the file, for decorators */
    MT_VEC(const char *) wrapped; /* functions made jit by `f = triton.jit(f)` at module level */
    MT_VEC(MtGlobal) globals; /* module-level bindings in source order */
    MT_VEC(MtFuncDef *) funcs;
} Parser;

static MtNode *expression(Parser *p);
static MtNode *named_expression(Parser *p);
static MtNode *star_expressions(Parser *p);
static MtNode *star_named_expression(Parser *p);
static MtNode *yield_expr(Parser *p);
static MtNode *disjunction(Parser *p);
static MtNode *bitwise_or(Parser *p);
static MtNode *factor(Parser *p);
static MtNode *star_targets(Parser *p);
static void statement(Parser *p, NodeVec *out);
static void indented(Parser *p, NodeVec *out);
static uint32_t skip_block(Parser *p, uint32_t last);
static MtNodeList block(Parser *p, const char *what, uint32_t line);

/* ---- tokens ----------------------------------------------------------------- */

static const MtToken *tok(const Parser *p) { return &p->t[p->pos]; }

static const MtToken *peek(const Parser *p, uint32_t k)
{
    uint32_t i = p->pos + k;
    return &p->t[i < p->n ? i : p->n - 1];
}

static void next(Parser *p)
{
    if (p->pos + 1 < p->n)
        p->pos++;
}

static bool op_is(const MtToken *t, MtOp op) { return t->kind == TK_OP && t->op == op; }
static bool kw_is(const MtToken *t, MtKw kw) { return t->kind == TK_NAME && t->kw == kw; }
static bool is_op(const Parser *p, MtOp op) { return op_is(tok(p), op); }
static bool is_kw(const Parser *p, MtKw kw) { return kw_is(tok(p), kw); }
static bool is_name(const MtToken *t) { return t->kind == TK_NAME && t->kw == KW_NONE_; }
static bool is_soft(const MtToken *t, const char *word) { return is_name(t) && strcmp(t->text, word) == 0; }
static bool at_eof(const Parser *p) { return tok(p)->kind == TK_EOF; }

static bool accept_op(Parser *p, MtOp op)
{
    if (!is_op(p, op))
        return false;
    next(p);
    return true;
}

static bool accept_kw(Parser *p, MtKw kw)
{
    if (!is_kw(p, kw))
        return false;
    next(p);
    return true;
}

static bool is_open(const MtToken *t) { return op_is(t, OP_LPAR) || op_is(t, OP_LSQB) || op_is(t, OP_LBRACE); }
static bool is_close(const MtToken *t) { return op_is(t, OP_RPAR) || op_is(t, OP_RSQB) || op_is(t, OP_RBRACE); }

/* Can this token begin an expression? Used where an expression is
 * optional (after `return`, after a trailing comma). */
static bool starts_expression(const MtToken *t)
{
    switch (t->kind) {
    case TK_NAME:
        return t->kw == KW_NONE_ || t->kw == KW_TRUE || t->kw == KW_FALSE || t->kw == KW_NONE ||
               t->kw == KW_NOT || t->kw == KW_LAMBDA || t->kw == KW_AWAIT || t->kw == KW_YIELD;
    case TK_NUMBER:
    case TK_STRING:
        return true;
    case TK_OP:
        return t->op == OP_LPAR || t->op == OP_LSQB || t->op == OP_LBRACE || t->op == OP_MINUS ||
               t->op == OP_PLUS || t->op == OP_TILDE || t->op == OP_STAR || t->op == OP_ELLIPSIS;
    default:
        return false;
    }
}

/* ---- spans and nodes -------------------------------------------------------- */

/* From token `start` through the last consumed token. */
static MtSpan span_from(const Parser *p, uint32_t start)
{
    if (p->pos <= start) {
        MtSpan s = p->t[start].span;
        s.end = s.off;
        s.end_line = s.line;
        s.end_col = s.col;
        return s;
    }
    return mt_span_join(p->t[start].span, p->t[p->pos - 1].span);
}

static MtNode *new_node(Parser *p, MtNodeKind kind, MtSpan sp)
{
    MtNode *n = mt_arena_alloc(&p->c->arena, sizeof *n);
    n->kind = (uint16_t)kind;
    n->span = sp;
    return n;
}

static MtNode *unsupported(Parser *p, MtNodeKind kind, const char *what, MtSpan sp, MtNode *inner)
{
    MtNode *n = new_node(p, kind, sp);
    n->u.unsup.what = what;
    n->u.unsup.inner = inner;
    return n;
}

static MtNodeList to_list(NodeVec v) { return (MtNodeList){v.v, v.n}; }

static bool is_unsup(const MtNode *n, const char *what)
{
    return n->kind == ND_UNSUPPORTED && strcmp(n->u.unsup.what, what) == 0;
}

/* ---- errors ----------------------------------------------------------------- */

/* Is there a lexer diagnostic at `off` (or is it behind a bracket that is
 * never closed)? Then the parser's own error there would say the same. */
static bool lexer_reported(const Parser *p, uint32_t off)
{
    if (off > p->unclosed_off)
        return true;
    for (uint32_t i = 0; i < p->lex_err.n; i++)
        if (p->lex_err.v[i] == off)
            return true;
    return false;
}

/* Where an error "at token t" points: a NEWLINE (which sits after any
 * trailing comment) is replaced by the end of the token before it. */
static MtSpan error_span(const Parser *p, const MtToken *t)
{
    MtSpan s = t->span;
    if (t->kind == TK_NEWLINE && t > p->t) {
        const MtToken *prev = t - 1;
        if (prev->kind != TK_NEWLINE && prev->kind != TK_INDENT && prev->kind != TK_DEDENT &&
            prev->span.end_line == s.line) {
            s = prev->span;
            s.off = s.end;
            s.line = s.end_line;
            s.col = s.end_col;
        }
    }
    return s;
}

static void vreport(Parser *p, MtSpan sp, const char *code, const char *fmt, va_list ap)
{
    if (p->quiet || lexer_reported(p, sp.off))
        return;
    mt_vdiag(p->c, MT_SEV_ERROR, sp, code, fmt, ap);
}

/* Report without failing the statement (block-structure errors, after
 * which parsing continues normally). */
__attribute__((format(printf, 4, 5)))
static void report(Parser *p, MtSpan sp, const char *code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(p, sp, code, fmt, ap);
    va_end(ap);
}

/* The statement's first error: report it and fail the statement. */
__attribute__((format(printf, 4, 5)))
static void fail_span(Parser *p, MtSpan sp, const char *code, const char *fmt, ...)
{
    if (p->err)
        return;
    p->err = true;
    va_list ap;
    va_start(ap, fmt);
    vreport(p, sp, code, fmt, ap);
    va_end(ap);
}

/* How a message names a token: 'x', ')', end of line, ... */
static const char *describe(Parser *p, const MtToken *t)
{
    switch (t->kind) {
    case TK_NEWLINE: return "end of line";
    case TK_INDENT: return "an indented line";
    case TK_DEDENT: return "the end of the block";
    case TK_EOF: return "end of file";
    case TK_STRING: return "a string literal";
    default: return mt_sprintf(p->c, "'%.40s'", t->text);
    }
}

/* An error at the current token, right after a token the lexer flagged
 * (an unterminated string, a malformed number), is a consequence of
 * that one: it fails the statement without a message. */
static bool silent_here(Parser *p)
{
    if (!p->quiet && !(p->pos > 0 && lexer_reported(p, p->t[p->pos - 1].span.off)))
        return false;
    p->err = true;
    return true;
}

static MtNode *fail(Parser *p, const char *what)
{
    if (!silent_here(p))
        fail_span(p, error_span(p, tok(p)), "E0105", "%s, found %s", what, describe(p, tok(p)));
    return p->bad;
}

static MtNode *unexpected(Parser *p)
{
    if (!silent_here(p))
        fail_span(p, error_span(p, tok(p)), "E0105", "invalid syntax: unexpected %s", describe(p, tok(p)));
    return p->bad;
}

static bool expect_op(Parser *p, MtOp op, const char *what)
{
    if (p->err)
        return false;
    if (accept_op(p, op))
        return true;
    fail(p, what);
    return false;
}

/* `expected ':' after 'if' condition`: a missing colon is named by what
 * it should follow; the caret already shows what came instead. */
static bool expect_colon(Parser *p, const char *after)
{
    if (p->err)
        return false;
    if (accept_op(p, OP_COLON))
        return true;
    if (!silent_here(p))
        fail_span(p, error_span(p, tok(p)), "E0105", "expected ':' after %s", after);
    return false;
}

/* One more level of nesting in `*depth`, within `max`. Expressions and
 * blocks have separate budgets, so that a deep block still has room for
 * the expressions inside it. */
static bool enter_as(Parser *p, int *depth, int max, const char *what)
{
    if (p->err)
        return false;
    if (*depth >= max) {
        fail_span(p, error_span(p, tok(p)), "E0105", "%s nested too deeply", what);
        return false;
    }
    (*depth)++;
    return true;
}

static bool enter(Parser *p) { return enter_as(p, &p->depth, MAX_DEPTH, "expression"); }
static void leave(Parser *p) { p->depth--; }
static bool enter_block(Parser *p) { return enter_as(p, &p->blocks, MAX_BLOCKS, "block"); }
static void leave_block(Parser *p) { p->blocks--; }

/* Skip to the end of the logical line (its NEWLINE consumed). */
static void sync(Parser *p)
{
    while (!at_eof(p) && tok(p)->kind != TK_NEWLINE)
        next(p);
    if (tok(p)->kind == TK_NEWLINE)
        next(p);
}

/* ---- atoms ------------------------------------------------------------------ */

/* strings = STRING+ (adjacent literals are one value) */
static MtNode *strings(Parser *p)
{
    uint32_t start = p->pos;
    bool f = false, bytes = false, text = false;
    size_t len = 0;
    for (; tok(p)->kind == TK_STRING; next(p)) {
        f |= tok(p)->fstring;
        bytes |= tok(p)->bytes;
        text |= !tok(p)->bytes;
        len += tok(p)->str_len;
    }
    MtSpan sp = span_from(p, start);
    if (bytes && text) {
        fail_span(p, sp, "E0105", "cannot mix bytes and nonbytes literals");
        return p->bad;
    }
    if (f)
        return unsupported(p, ND_UNSUPPORTED, "f-string", sp, NULL);
    if (bytes)
        return unsupported(p, ND_UNSUPPORTED, "bytes literal", sp, NULL);
    MtNode *n = new_node(p, ND_STR, sp);
    char *s = mt_arena_alloc(&p->c->arena, len + 1);
    size_t k = 0;
    for (uint32_t i = start; i < p->pos; i++) {
        memcpy(s + k, p->t[i].str, p->t[i].str_len);
        k += p->t[i].str_len;
    }
    n->u.str.s = s;
    n->u.str.len = (uint32_t)len;
    return n;
}

/* NUMBER: an int or float literal; imaginary literals are unsupported */
static MtNode *number(Parser *p)
{
    const MtToken *t = tok(p);
    next(p);
    if (t->num_kind == 2)
        return unsupported(p, ND_UNSUPPORTED, "complex literal", t->span, NULL);
    MtNode *n = new_node(p, t->num_kind == 0 ? ND_INT : ND_FLOAT, t->span);
    n->u.num.i = t->num_kind == 0 ? t->ival : 0;
    n->u.num.f = t->fval;
    n->u.num.overflow = t->int_overflow;
    return n;
}

static bool starts_comprehension(const Parser *p)
{
    return is_kw(p, KW_FOR) || (is_kw(p, KW_ASYNC) && kw_is(peek(p, 1), KW_FOR));
}

/* for_if_clauses = (['async'] 'for' star_targets 'in' disjunction ('if' disjunction)*)+ */
static void comprehension_clauses(Parser *p)
{
    while (!p->err && starts_comprehension(p)) {
        accept_kw(p, KW_ASYNC);
        next(p);
        star_targets(p);
        if (!p->err && !accept_kw(p, KW_IN))
            fail(p, "expected 'in' after the comprehension target");
        disjunction(p);
        while (!p->err && accept_kw(p, KW_IF))
            disjunction(p);
    }
}

/* Items of a display after the first, up to (not including) `close`. */
static void display_items(Parser *p, NodeVec *items, MtOp close, const char *expected)
{
    while (!p->err && accept_op(p, OP_COMMA)) {
        if (is_op(p, close))
            break;
        mt_vec_push(&p->c->arena, items, star_named_expression(p));
    }
    if (!p->err && !is_op(p, close))
        fail(p, expected);
}

/* group = '(' (yield_expr | named_expression) ')'
 * tuple = '(' [star_named_expression ',' [star_named_expressions]] ')'
 * genexp = '(' named_expression for_if_clauses ')' */
static MtNode *paren(Parser *p)
{
    uint32_t start = p->pos;
    next(p);
    if (accept_op(p, OP_RPAR))
        return new_node(p, ND_TUPLE, span_from(p, start));
    if (is_kw(p, KW_YIELD)) {
        MtNode *y = yield_expr(p);
        expect_op(p, OP_RPAR, "expected ')'");
        return y;
    }
    MtNode *first = star_named_expression(p);
    if (p->err)
        return p->bad;
    if (starts_comprehension(p)) {
        comprehension_clauses(p);
        if (!expect_op(p, OP_RPAR, "expected ')' after the generator expression"))
            return p->bad;
        return unsupported(p, ND_UNSUPPORTED, "generator expression", span_from(p, start), NULL);
    }
    if (is_op(p, OP_COMMA)) {
        NodeVec items = {0};
        mt_vec_push(&p->c->arena, &items, first);
        display_items(p, &items, OP_RPAR, "expected ',' or ')'");
        if (p->err)
            return p->bad;
        next(p);
        MtNode *n = new_node(p, ND_TUPLE, span_from(p, start));
        n->u.list = to_list(items);
        return n;
    }
    if (!expect_op(p, OP_RPAR, "expected ',' or ')'"))
        return p->bad;
    if (is_unsup(first, "starred expression")) {
        fail_span(p, first->span, "E0105", "cannot use starred expression here");
        return p->bad;
    }
    return first;
}

/* list = '[' [star_named_expressions] ']' ; listcomp = '[' named_expression for_if_clauses ']' */
static MtNode *list_display(Parser *p)
{
    uint32_t start = p->pos;
    next(p);
    NodeVec items = {0};
    if (!is_op(p, OP_RSQB)) {
        MtNode *first = star_named_expression(p);
        if (!p->err && starts_comprehension(p)) {
            comprehension_clauses(p);
            if (!expect_op(p, OP_RSQB, "expected ']' after the list comprehension"))
                return p->bad;
            return unsupported(p, ND_UNSUPPORTED, "list comprehension", span_from(p, start), NULL);
        }
        mt_vec_push(&p->c->arena, &items, first);
        display_items(p, &items, OP_RSQB, "expected ',' or ']'");
    }
    if (!expect_op(p, OP_RSQB, "expected ',' or ']'"))
        return p->bad;
    MtNode *n = new_node(p, ND_LIST, span_from(p, start));
    n->u.list = to_list(items);
    return n;
}

/* dict = '{' [(expression ':' expression | '**' bitwise_or) (',' ...)* [',']] '}'
 * set = '{' star_named_expressions '}' ; dictcomp / setcomp: one item and for_if_clauses */
static MtNode *brace_display(Parser *p)
{
    uint32_t start = p->pos;
    next(p);
    const char *what = "dict display";
    NodeVec entries = {0}; /* a dict display's keys and values, alternating */
    if (!is_op(p, OP_RBRACE)) {
        bool dict;
        if (accept_op(p, OP_DSTAR)) {
            mt_vec_push(&p->c->arena, &entries, NULL);
            mt_vec_push(&p->c->arena, &entries, bitwise_or(p));
            dict = true;
        } else {
            MtNode *first = star_named_expression(p);
            dict = accept_op(p, OP_COLON);
            if (dict) {
                mt_vec_push(&p->c->arena, &entries, first);
                mt_vec_push(&p->c->arena, &entries, expression(p));
            }
        }
        if (!p->err && starts_comprehension(p)) {
            comprehension_clauses(p);
            what = dict ? "dict comprehension" : "set comprehension";
            entries.n = 0;
        } else {
            what = dict ? "dict display" : "set display";
            while (!p->err && accept_op(p, OP_COMMA) && !is_op(p, OP_RBRACE)) {
                if (dict && accept_op(p, OP_DSTAR)) {
                    mt_vec_push(&p->c->arena, &entries, NULL);
                    mt_vec_push(&p->c->arena, &entries, bitwise_or(p));
                } else if (dict) {
                    mt_vec_push(&p->c->arena, &entries, expression(p));
                    if (!p->err && !accept_op(p, OP_COLON))
                        fail(p, "expected ':' after the dictionary key");
                    mt_vec_push(&p->c->arena, &entries, expression(p));
                } else {
                    star_named_expression(p);
                }
            }
        }
    }
    if (!expect_op(p, OP_RBRACE, "expected ',' or '}'"))
        return p->bad;
    MtNode *n = unsupported(p, ND_UNSUPPORTED, what, span_from(p, start), NULL);
    n->u.unsup.items = to_list(entries);
    return n;
}

/* atom = NAME | 'True' | 'False' | 'None' | '...' | strings | NUMBER
 *      | group | tuple | genexp | list | listcomp | dict | set | dictcomp | setcomp */
static MtNode *atom(Parser *p)
{
    const MtToken *t = tok(p);
    switch (t->kind) {
    case TK_NAME: {
        MtNodeKind k = t->kw == KW_TRUE ? ND_TRUE : t->kw == KW_FALSE ? ND_FALSE : t->kw == KW_NONE ? ND_NONE : ND_NAME;
        if (t->kw != KW_NONE_ && k == ND_NAME)
            break;
        MtNode *n = new_node(p, k, t->span);
        if (k == ND_NAME)
            n->u.name = t->text;
        next(p);
        return n;
    }
    case TK_NUMBER:
        return number(p);
    case TK_STRING:
        return strings(p);
    case TK_OP:
        switch (t->op) {
        case OP_LPAR: return paren(p);
        case OP_LSQB: return list_display(p);
        case OP_LBRACE: return brace_display(p);
        case OP_ELLIPSIS:
            next(p);
            return new_node(p, ND_ELLIPSIS, t->span);
        default: break;
        }
        break;
    default:
        break;
    }
    return fail(p, "expected an expression");
}

/* ---- primaries -------------------------------------------------------------- */

/* arguments = arg (',' arg)* [','] | named_expression for_if_clauses
 * arg = '*' expression | '**' expression | NAME '=' expression | named_expression */
static MtNode *call(Parser *p, MtNode *fn, uint32_t start)
{
    next(p);
    NodeVec args = {0};
    MT_VEC(MtKeyword) kws = {0};
    bool seen_kw = false, seen_kwunpack = false;
    while (!p->err && !is_op(p, OP_RPAR)) {
        uint32_t a = p->pos;
        if (accept_op(p, OP_STAR)) {
            MtNode *v = expression(p);
            if (seen_kwunpack)
                fail_span(p, span_from(p, a), "E0105", "iterable argument unpacking follows keyword argument unpacking");
            mt_vec_push(&p->c->arena, &args, unsupported(p, ND_UNSUPPORTED, "starred expression", span_from(p, a), v));
        } else if (accept_op(p, OP_DSTAR)) {
            MtNode *v = expression(p);
            MtSpan sp = span_from(p, a);
            MtKeyword k = {NULL, sp, unsupported(p, ND_UNSUPPORTED, "keyword unpacking", sp, v)};
            mt_vec_push(&p->c->arena, &kws, k);
            seen_kwunpack = true;
        } else if (is_name(tok(p)) && op_is(peek(p, 1), OP_ASSIGN)) {
            const char *name = tok(p)->text;
            next(p);
            next(p);
            MtNode *v = expression(p);
            MtKeyword k = {name, span_from(p, a), v};
            mt_vec_push(&p->c->arena, &kws, k);
            seen_kw = true;
        } else {
            MtNode *v = named_expression(p);
            if (p->err)
                break;
            if (starts_comprehension(p)) {
                comprehension_clauses(p);
                v = unsupported(p, ND_UNSUPPORTED, "generator expression", span_from(p, a), NULL);
                if (!p->err && (args.n || kws.n || (is_op(p, OP_COMMA) && !op_is(peek(p, 1), OP_RPAR))))
                    fail_span(p, v->span, "E0105", "generator expression must be parenthesized");
            } else if (is_op(p, OP_ASSIGN)) {
                fail_span(p, span_from(p, a), "E0105", "expression cannot contain assignment, perhaps you meant \"==\"?");
            } else if (seen_kwunpack) {
                fail_span(p, v->span, "E0105", "positional argument follows keyword argument unpacking");
            } else if (seen_kw) {
                fail_span(p, v->span, "E0105", "positional argument follows keyword argument");
            }
            mt_vec_push(&p->c->arena, &args, v);
        }
        if (!accept_op(p, OP_COMMA))
            break;
    }
    if (!expect_op(p, OP_RPAR, "expected ',' or ')' in the argument list"))
        return p->bad;
    MtNode *n = new_node(p, ND_CALL, span_from(p, start));
    n->u.call.fn = fn;
    n->u.call.args = to_list(args);
    n->u.call.kw = kws.v;
    n->u.call.nkw = kws.n;
    return n;
}

/* slice = [expression] ':' [expression] [':' [expression]] | named_expression | '*' bitwise_or */
static MtNode *slice_item(Parser *p)
{
    uint32_t start = p->pos;
    if (accept_op(p, OP_STAR)) {
        MtNode *v = bitwise_or(p);
        return unsupported(p, ND_UNSUPPORTED, "starred expression", span_from(p, start), v);
    }
    MtNode *lo = NULL;
    if (!is_op(p, OP_COLON)) {
        lo = named_expression(p);
        if (p->err || !is_op(p, OP_COLON))
            return lo;
    }
    next(p);
    MtNode *hi = NULL, *step = NULL;
    if (!is_op(p, OP_COLON) && !is_op(p, OP_COMMA) && !is_op(p, OP_RSQB))
        hi = expression(p);
    if (!p->err && accept_op(p, OP_COLON) && !is_op(p, OP_COMMA) && !is_op(p, OP_RSQB))
        step = expression(p);
    MtNode *n = new_node(p, ND_SLICE, span_from(p, start));
    n->u.slice.lo = lo;
    n->u.slice.hi = hi;
    n->u.slice.step = step;
    return n;
}

/* subscript = primary '[' slices ']' ; slices = slice | slice (',' slice)* [','] */
static MtNode *subscript(Parser *p, MtNode *value, uint32_t start)
{
    next(p);
    uint32_t istart = p->pos;
    MtNode *index = slice_item(p);
    if (!p->err && is_op(p, OP_COMMA)) {
        NodeVec items = {0};
        mt_vec_push(&p->c->arena, &items, index);
        while (!p->err && accept_op(p, OP_COMMA) && !is_op(p, OP_RSQB))
            mt_vec_push(&p->c->arena, &items, slice_item(p));
        index = new_node(p, ND_TUPLE, span_from(p, istart));
        index->u.list = to_list(items);
    }
    if (!expect_op(p, OP_RSQB, "expected ',' or ']' in the subscript"))
        return p->bad;
    MtNode *n = new_node(p, ND_SUBSCRIPT, span_from(p, start));
    n->u.sub.value = value;
    n->u.sub.index = index;
    return n;
}

/* primary = atom ('.' NAME | '(' arguments ')' | '[' slices ']')* */
static MtNode *primary(Parser *p)
{
    uint32_t start = p->pos;
    MtNode *n = atom(p);
    int links = 0; /* each trailer nests the tree one level deeper */
    while (!p->err && (is_op(p, OP_PERIOD) || is_op(p, OP_LPAR) || is_op(p, OP_LSQB)) && enter(p)) {
        links++;
        if (accept_op(p, OP_PERIOD)) {
            if (!is_name(tok(p))) {
                fail(p, "expected an attribute name after '.'");
                break;
            }
            const MtToken *name = tok(p);
            next(p);
            MtNode *a = new_node(p, ND_ATTR, span_from(p, start));
            a->u.attr.value = n;
            a->u.attr.name = name->text;
            a->u.attr.name_span = name->span;
            n = a;
        } else if (is_op(p, OP_LPAR)) {
            n = call(p, n, start);
        } else {
            n = subscript(p, n, start);
        }
    }
    p->depth -= links;
    return p->err ? p->bad : n;
}

/* await_primary = 'await' primary | primary */
static MtNode *await_primary(Parser *p)
{
    uint32_t start = p->pos;
    if (!accept_kw(p, KW_AWAIT))
        return primary(p);
    MtNode *v = primary(p);
    return unsupported(p, ND_UNSUPPORTED, "await expression", span_from(p, start), v);
}

/* ---- operators -------------------------------------------------------------- */

/* power = await_primary ['**' factor] (right-associative through factor) */
static MtNode *power(Parser *p)
{
    uint32_t start = p->pos;
    MtNode *base = await_primary(p);
    if (p->err || !accept_op(p, OP_DSTAR))
        return base;
    if (!enter(p))
        return p->bad;
    MtNode *rhs = factor(p);
    leave(p);
    MtNode *n = new_node(p, ND_BINOP, span_from(p, start));
    n->u.bin.op = OP_DSTAR;
    n->u.bin.lhs = base;
    n->u.bin.rhs = rhs;
    return n;
}

/* factor = ('+' | '-' | '~') factor | power */
static MtNode *factor(Parser *p)
{
    const MtToken *t = tok(p);
    if (!(op_is(t, OP_PLUS) || op_is(t, OP_MINUS) || op_is(t, OP_TILDE)))
        return power(p);
    uint32_t start = p->pos;
    next(p);
    if (!enter(p))
        return p->bad;
    MtNode *v = factor(p);
    leave(p);
    MtNode *n = new_node(p, ND_UNARY, span_from(p, start));
    n->u.un.op = t->op;
    n->u.un.operand = v;
    return n;
}

/* The binary operator levels from loosest to tightest; all left-associative.
 * bitwise_or = bitwise_xor ('|' bitwise_xor)* ; ... ; term = factor (('*'|'/'|'//'|'%'|'@') factor)* */
static const MtOp binary_levels[][5] = {
    {OP_VBAR}, {OP_CARET}, {OP_AMP}, {OP_LSHIFT, OP_RSHIFT}, {OP_PLUS, OP_MINUS},
    {OP_STAR, OP_SLASH, OP_DSLASH, OP_PERCENT, OP_AT},
};
enum { NLEVELS = sizeof binary_levels / sizeof binary_levels[0] };

static bool in_level(const MtToken *t, int level)
{
    if (t->kind != TK_OP)
        return false;
    for (int i = 0; i < 5 && binary_levels[level][i]; i++)
        if (t->op == binary_levels[level][i])
            return true;
    return false;
}

static MtNode *binary(Parser *p, int level)
{
    if (level == NLEVELS)
        return factor(p);
    uint32_t start = p->pos;
    MtNode *lhs = binary(p, level + 1);
    int links = 0; /* each operator nests the tree one level deeper */
    while (!p->err && in_level(tok(p), level) && enter(p)) {
        links++;
        MtOp op = (MtOp)tok(p)->op;
        next(p);
        MtNode *rhs = binary(p, level + 1);
        MtNode *n = new_node(p, ND_BINOP, span_from(p, start));
        n->u.bin.op = op;
        n->u.bin.lhs = lhs;
        n->u.bin.rhs = rhs;
        lhs = n;
    }
    p->depth -= links;
    return p->err ? p->bad : lhs;
}

static MtNode *bitwise_or(Parser *p) { return binary(p, 0); }

/* compare_op = '<' | '>' | '==' | '>=' | '<=' | '!=' | 'in' | 'not' 'in' | 'is' | 'is' 'not'
 * Returns 0 when the current token is no comparison operator. */
static int compare_op(Parser *p, bool *negated)
{
    const MtToken *t = tok(p);
    *negated = false;
    if (t->kind == TK_OP && t->op >= OP_LT && t->op <= OP_NE) {
        next(p);
        return t->op;
    }
    if (kw_is(t, KW_IN)) {
        next(p);
        return -KW_IN;
    }
    if (kw_is(t, KW_NOT) && kw_is(peek(p, 1), KW_IN)) {
        next(p);
        next(p);
        *negated = true;
        return -KW_IN;
    }
    if (kw_is(t, KW_IS)) {
        next(p);
        *negated = accept_kw(p, KW_NOT);
        return -KW_IS;
    }
    return 0;
}

/* comparison = bitwise_or (compare_op bitwise_or)* */
static MtNode *comparison(Parser *p)
{
    uint32_t start = p->pos;
    MtNode *first = bitwise_or(p);
    if (p->err)
        return p->bad;
    bool neg;
    int op = compare_op(p, &neg);
    if (!op)
        return first;
    NodeVec items = {0};
    MT_VEC(int) ops = {0};
    MT_VEC(bool) negs = {0};
    mt_vec_push(&p->c->arena, &items, first);
    while (op && !p->err) {
        mt_vec_push(&p->c->arena, &ops, op);
        mt_vec_push(&p->c->arena, &negs, neg);
        mt_vec_push(&p->c->arena, &items, bitwise_or(p));
        op = p->err ? 0 : compare_op(p, &neg);
    }
    if (p->err)
        return p->bad;
    MtNode *n = new_node(p, ND_COMPARE, span_from(p, start));
    n->u.cmp.items = to_list(items);
    n->u.cmp.ops = ops.v;
    n->u.cmp.negated = negs.v;
    return n;
}

/* inversion = 'not' inversion | comparison */
static MtNode *inversion(Parser *p)
{
    if (!is_kw(p, KW_NOT))
        return comparison(p);
    uint32_t start = p->pos;
    next(p);
    if (!enter(p))
        return p->bad;
    MtNode *v = inversion(p);
    leave(p);
    MtNode *n = new_node(p, ND_UNARY, span_from(p, start));
    n->u.un.op = -1;
    n->u.un.operand = v;
    return n;
}

/* disjunction = conjunction ('or' conjunction)* ; conjunction = inversion ('and' inversion)* */
static MtNode *boolop(Parser *p, MtKw op)
{
    uint32_t start = p->pos;
    MtNode *first = op == KW_OR ? boolop(p, KW_AND) : inversion(p);
    if (p->err || !is_kw(p, op))
        return p->err ? p->bad : first;
    NodeVec items = {0};
    mt_vec_push(&p->c->arena, &items, first);
    while (!p->err && accept_kw(p, op))
        mt_vec_push(&p->c->arena, &items, op == KW_OR ? boolop(p, KW_AND) : inversion(p));
    if (p->err)
        return p->bad;
    MtNode *n = new_node(p, ND_BOOLOP, span_from(p, start));
    n->u.boolop.op = op;
    n->u.boolop.items = to_list(items);
    return n;
}

static MtNode *disjunction(Parser *p) { return boolop(p, KW_OR); }

/* lambdef = 'lambda' [lambda_params] ':' expression
 * lambda_params = (NAME ['=' expression] | '*' [NAME] | '**' NAME | '/') (',' ...)* */
static MtNode *lambdef(Parser *p)
{
    uint32_t start = p->pos;
    next(p);
    while (!p->err && !is_op(p, OP_COLON)) {
        if (accept_op(p, OP_STAR)) {
            if (is_name(tok(p)))
                next(p);
        } else if (!accept_op(p, OP_SLASH)) { /* '/' ends the positional-only parameters */
            accept_op(p, OP_DSTAR);
            if (!is_name(tok(p))) {
                fail(p, "expected a lambda parameter");
                break;
            }
            next(p);
            if (accept_op(p, OP_ASSIGN))
                expression(p);
        }
        if (!accept_op(p, OP_COMMA))
            break;
    }
    if (!expect_colon(p, "the lambda parameters"))
        return p->bad;
    MtNode *body = expression(p);
    return unsupported(p, ND_UNSUPPORTED, "lambda", span_from(p, start), body);
}

/* expression = disjunction ['if' disjunction 'else' expression] | lambdef */
static MtNode *expression(Parser *p)
{
    if (!enter(p))
        return p->bad;
    uint32_t start = p->pos;
    MtNode *n;
    if (is_kw(p, KW_LAMBDA)) {
        n = lambdef(p);
    } else {
        n = disjunction(p);
        if (!p->err && accept_kw(p, KW_IF)) {
            MtNode *test = disjunction(p);
            if (!p->err && !accept_kw(p, KW_ELSE))
                fail(p, "expected 'else' after 'if' expression");
            MtNode *orelse = expression(p);
            MtNode *e = new_node(p, ND_IFEXP, span_from(p, start));
            e->u.ifexp.test = test;
            e->u.ifexp.body = n;
            e->u.ifexp.orelse = orelse;
            n = e;
        }
    }
    leave(p);
    return p->err ? p->bad : n;
}

/* named_expression = NAME ':=' expression | expression */
static MtNode *named_expression(Parser *p)
{
    if (!is_name(tok(p)) || !op_is(peek(p, 1), OP_WALRUS))
        return expression(p);
    uint32_t start = p->pos;
    next(p);
    next(p);
    MtNode *v = expression(p);
    return unsupported(p, ND_UNSUPPORTED, "assignment expression", span_from(p, start), v);
}

/* star_named_expression = '*' bitwise_or | named_expression */
static MtNode *star_named_expression(Parser *p)
{
    uint32_t start = p->pos;
    if (!accept_op(p, OP_STAR))
        return named_expression(p);
    MtNode *v = bitwise_or(p);
    return unsupported(p, ND_UNSUPPORTED, "starred expression", span_from(p, start), v);
}

/* star_expression = '*' bitwise_or | expression */
static MtNode *star_expression(Parser *p)
{
    uint32_t start = p->pos;
    if (!accept_op(p, OP_STAR))
        return expression(p);
    MtNode *v = bitwise_or(p);
    return unsupported(p, ND_UNSUPPORTED, "starred expression", span_from(p, start), v);
}

/* A comma-separated sequence: one item is itself, several (or one with a
 * trailing comma) are a tuple without parentheses. */
static MtNode *sequence(Parser *p, MtNode *(*item)(Parser *p))
{
    uint32_t start = p->pos;
    MtNode *first = item(p);
    if (p->err || !is_op(p, OP_COMMA))
        return first;
    NodeVec items = {0};
    mt_vec_push(&p->c->arena, &items, first);
    while (!p->err && accept_op(p, OP_COMMA) && starts_expression(tok(p)) && !is_kw(p, KW_YIELD))
        mt_vec_push(&p->c->arena, &items, item(p));
    if (p->err)
        return p->bad;
    MtNode *n = new_node(p, ND_TUPLE, span_from(p, start));
    n->u.list = to_list(items);
    return n;
}

/* star_expressions = star_expression (',' star_expression)* [','] */
static MtNode *star_expressions(Parser *p) { return sequence(p, star_expression); }

/* star_target = '*' bitwise_or | bitwise_or ; star_targets = star_target (',' star_target)* [','] */
static MtNode *star_target(Parser *p)
{
    uint32_t start = p->pos;
    if (!accept_op(p, OP_STAR))
        return bitwise_or(p);
    MtNode *v = bitwise_or(p);
    return unsupported(p, ND_UNSUPPORTED, "starred expression", span_from(p, start), v);
}

static MtNode *star_targets(Parser *p) { return sequence(p, star_target); }

/* yield_expr = 'yield' 'from' expression | 'yield' [star_expressions] */
static MtNode *yield_expr(Parser *p)
{
    uint32_t start = p->pos;
    next(p);
    MtNode *v = NULL;
    if (accept_kw(p, KW_FROM))
        v = expression(p);
    else if (starts_expression(tok(p)) && !is_kw(p, KW_YIELD))
        v = star_expressions(p);
    if (p->err)
        return p->bad;
    return unsupported(p, ND_UNSUPPORTED, "yield expression", span_from(p, start), v);
}

/* ---- assignment targets ----------------------------------------------------- */

static const char *target_name(const MtNode *n)
{
    switch (n->kind) {
    case ND_CALL: return "function call";
    case ND_INT: case ND_FLOAT: case ND_STR: case ND_ELLIPSIS: return "literal";
    case ND_TRUE: return "True";
    case ND_FALSE: return "False";
    case ND_NONE: return "None";
    case ND_COMPARE: return "comparison";
    case ND_IFEXP: return "conditional expression";
    case ND_UNSUPPORTED:
        return strcmp(n->u.unsup.what, "assignment expression") == 0 ? "named expression" : n->u.unsup.what;
    default: return "expression";
    }
}

/* target = NAME | primary '.' NAME | primary '[' slices ']' | '(' targets ')' | '[' targets ']' | '*' target */
static bool check_target(Parser *p, const MtNode *n)
{
    switch (n->kind) {
    case ND_NAME:
    case ND_ATTR:
    case ND_SUBSCRIPT:
        return true;
    case ND_TUPLE:
    case ND_LIST:
        for (uint32_t i = 0; i < n->u.list.n; i++)
            if (!check_target(p, n->u.list.v[i]))
                return false;
        return true;
    default:
        if (is_unsup(n, "starred expression") && n->u.unsup.inner)
            return check_target(p, n->u.unsup.inner);
        fail_span(p, n->span, "E0105", "cannot assign to %s", target_name(n));
        return false;
    }
}


/* ---- statements ------------------------------------------------------------- */

static MtOp augmented_op(MtOp op)
{
    switch (op) {
    case OP_PLUS_EQ: return OP_PLUS;
    case OP_MINUS_EQ: return OP_MINUS;
    case OP_STAR_EQ: return OP_STAR;
    case OP_SLASH_EQ: return OP_SLASH;
    case OP_DSLASH_EQ: return OP_DSLASH;
    case OP_PERCENT_EQ: return OP_PERCENT;
    case OP_DSTAR_EQ: return OP_DSTAR;
    case OP_AMP_EQ: return OP_AMP;
    case OP_VBAR_EQ: return OP_VBAR;
    case OP_CARET_EQ: return OP_CARET;
    case OP_LSHIFT_EQ: return OP_LSHIFT;
    case OP_RSHIFT_EQ: return OP_RSHIFT;
    case OP_AT_EQ: return OP_AT;
    default: return OP_NONE_;
    }
}

static MtNode *rhs(Parser *p) { return is_kw(p, KW_YIELD) ? yield_expr(p) : star_expressions(p); }

/* assignment = (star_targets '=')+ (yield_expr | star_expressions)
 *            | single_target ':' expression ['=' annotated_rhs]
 *            | single_target augassign (yield_expr | star_expressions)
 * expr_stmt = star_expressions | yield_expr */
static MtNode *assignment_or_expr(Parser *p)
{
    uint32_t start = p->pos;
    MtNode *first = rhs(p);
    if (p->err)
        return p->bad;
    bool several = first->kind == ND_TUPLE || first->kind == ND_LIST;
    if (accept_op(p, OP_COLON)) {
        if (several)
            fail_span(p, first->span, "E0105", "only single target (not tuple) can be annotated");
        if (several || !check_target(p, first))
            return p->bad;
        MtNode *ann = expression(p);
        MtNode *value = NULL;
        if (!p->err && accept_op(p, OP_ASSIGN))
            value = rhs(p);
        MtNode *n = new_node(p, ND_ANNASSIGN, span_from(p, start));
        n->u.ann.target = first;
        n->u.ann.annotation = ann;
        n->u.ann.value = value;
        return n;
    }
    if (is_op(p, OP_ASSIGN)) {
        NodeVec targets = {0};
        MtNode *value = first;
        while (!p->err && accept_op(p, OP_ASSIGN)) {
            if (!check_target(p, value))
                return p->bad;
            mt_vec_push(&p->c->arena, &targets, value);
            value = rhs(p);
        }
        MtNode *n = new_node(p, ND_ASSIGN, span_from(p, start));
        n->u.assign.targets = to_list(targets);
        n->u.assign.value = value;
        return n;
    }
    MtOp aug = tok(p)->kind == TK_OP ? augmented_op((MtOp)tok(p)->op) : OP_NONE_;
    if (aug != OP_NONE_) {
        if (several)
            fail_span(p, first->span, "E0105", "'%s' is an illegal expression for augmented assignment",
                      first->kind == ND_LIST ? "list" : "tuple");
        if (several || !check_target(p, first))
            return p->bad;
        next(p);
        MtNode *value = rhs(p);
        MtNode *n = new_node(p, ND_AUGASSIGN, span_from(p, start));
        n->u.aug.target = first;
        n->u.aug.op = aug;
        n->u.aug.value = value;
        return n;
    }
    MtNode *n = new_node(p, ND_EXPR_STMT, span_from(p, start));
    n->u.expr = first;
    return n;
}

/* del / global / nonlocal / import / raise / type: skipped to the end of
 * the simple statement (';' or NEWLINE outside brackets). */
static MtNode *skip_simple(Parser *p, const char *what)
{
    uint32_t start = p->pos;
    int depth = 0;
    while (!at_eof(p) && tok(p)->kind != TK_NEWLINE && !(depth == 0 && is_op(p, OP_SEMI))) {
        depth += is_open(tok(p)) - (is_close(tok(p)) && depth > 0);
        next(p);
    }
    return unsupported(p, ND_UNSUPPORTED_STMT, what, span_from(p, start), NULL);
}

/* `type X = ...` / `type X[T] = ...`: the soft keyword `type` starts a
 * type alias only when a name and '=' or '[' follow. */
static bool at_type_alias(const Parser *p)
{
    return is_soft(tok(p), "type") && is_name(peek(p, 1)) &&
           (op_is(peek(p, 2), OP_ASSIGN) || op_is(peek(p, 2), OP_LSQB));
}

/* simple_stmt = assignment | star_expressions | 'return' [star_expressions] | 'pass' | 'break'
 *             | 'continue' | 'assert' expression [',' expression] | yield_expr
 *             | del_stmt | global_stmt | nonlocal_stmt | import_stmt | raise_stmt | type_alias */
static MtNode *simple_stmt(Parser *p)
{
    const MtToken *t = tok(p);
    uint32_t start = p->pos;
    if (t->kind == TK_NAME) {
        switch (t->kw) {
        case KW_PASS: next(p); return new_node(p, ND_PASS, t->span);
        case KW_BREAK: next(p); return new_node(p, ND_BREAK, t->span);
        case KW_CONTINUE: next(p); return new_node(p, ND_CONTINUE, t->span);
        case KW_RETURN: {
            next(p);
            MtNode *v = starts_expression(tok(p)) ? star_expressions(p) : NULL;
            MtNode *n = new_node(p, ND_RETURN, span_from(p, start));
            n->u.expr = v;
            return n;
        }
        case KW_ASSERT: {
            next(p);
            MtNode *test = expression(p), *msg = NULL;
            if (!p->err && accept_op(p, OP_COMMA))
                msg = expression(p);
            MtNode *n = new_node(p, ND_ASSERT, span_from(p, start));
            n->u.assert_.test = test;
            n->u.assert_.msg = msg;
            return n;
        }
        case KW_DEL: return skip_simple(p, "del statement");
        case KW_GLOBAL: return skip_simple(p, "global statement");
        case KW_NONLOCAL: return skip_simple(p, "nonlocal statement");
        case KW_IMPORT: case KW_FROM: return skip_simple(p, "import statement");
        case KW_RAISE: return skip_simple(p, "raise statement");
        default: break;
        }
        if (at_type_alias(p))
            return skip_simple(p, "type alias statement");
    }
    return assignment_or_expr(p);
}

/* After a statement's error: skip the rest of its line and, when an
 * indented block follows (the line was meant to open one), parse that
 * block too, reporting its own errors but keeping nothing. */
static void drop_line(Parser *p)
{
    sync(p);
    p->err = false;
    if (tok(p)->kind == TK_INDENT) {
        NodeVec discard = {0};
        if (enter_block(p)) {
            indented(p, &discard);
            leave_block(p);
        } else {
            skip_block(p, p->pos);
        }
    }
    p->err = false;
}

/* simple_stmts = simple_stmt (';' simple_stmt)* [';'] NEWLINE */
static void simple_stmts(Parser *p, NodeVec *out)
{
    for (;;) {
        p->err = false;
        MtNode *s = simple_stmt(p);
        if (!p->err && !is_op(p, OP_SEMI) && tok(p)->kind != TK_NEWLINE)
            unexpected(p);
        if (p->err) {
            drop_line(p);
            return;
        }
        mt_vec_push(&p->c->arena, out, s);
        if (accept_op(p, OP_SEMI) && tok(p)->kind != TK_NEWLINE)
            continue;
        next(p); /* NEWLINE */
        return;
    }
}

/* Skip an indented block, from its INDENT through the matching DEDENT.
 * Returns the index of its last token that is not NEWLINE / INDENT /
 * DEDENT, or `last` when there is none. */
static uint32_t skip_block(Parser *p, uint32_t last)
{
    uint32_t depth = 0;
    do {
        MtTokKind k = (MtTokKind)tok(p)->kind;
        if (k == TK_INDENT)
            depth++;
        else if (k == TK_DEDENT)
            depth--;
        else if (k != TK_NEWLINE)
            last = p->pos;
        next(p);
    } while (depth > 0 && !at_eof(p));
    return last;
}

/* Skip one clause of a compound statement: its header line (with any
 * inline body) and its indented block. Returns the index of the clause's
 * last token that is not NEWLINE / INDENT / DEDENT. */
static uint32_t skip_clause(Parser *p)
{
    uint32_t last = p->pos;
    while (!at_eof(p) && tok(p)->kind != TK_NEWLINE) {
        last = p->pos;
        next(p);
    }
    if (tok(p)->kind == TK_NEWLINE)
        next(p);
    return tok(p)->kind == TK_INDENT ? skip_block(p, last) : last;
}

/* A compound statement kernels do not support, skipped whole: with, try
 * (and its except / else / finally clauses), def, class, async, match. */
static MtNode *skip_compound(Parser *p, uint32_t start, const char *what)
{
    bool is_try = is_kw(p, KW_TRY);
    bool is_loop = is_kw(p, KW_ASYNC) && kw_is(peek(p, 1), KW_FOR);
    uint32_t last = skip_clause(p);
    while ((is_try && (is_kw(p, KW_EXCEPT) || is_kw(p, KW_ELSE) || is_kw(p, KW_FINALLY))) ||
           (is_loop && is_kw(p, KW_ELSE)))
        last = skip_clause(p);
    return unsupported(p, ND_UNSUPPORTED_STMT, what, mt_span_join(p->t[start].span, p->t[last].span), NULL);
}

/* `match` is a soft keyword: it starts a match statement when its logical
 * line ends with ':' and an indented block follows. */
static bool at_match(const Parser *p)
{
    if (!is_soft(tok(p), "match") || op_is(peek(p, 1), OP_ASSIGN) || op_is(peek(p, 1), OP_PERIOD))
        return false;
    uint32_t i = p->pos;
    while (i + 1 < p->n && p->t[i + 1].kind != TK_NEWLINE)
        i++;
    return op_is(&p->t[i], OP_COLON) && i + 2 < p->n && p->t[i + 2].kind == TK_INDENT;
}

/* A compound statement's span: from its first token through the last
 * statement of its last non-empty body (or its header's ':'). */
static MtSpan compound_span(const Parser *p, uint32_t start, uint32_t colon, MtNodeList body, MtNodeList orelse)
{
    MtSpan end = orelse.n ? orelse.v[orelse.n - 1]->span
                 : body.n ? body.v[body.n - 1]->span
                          : p->t[colon].span;
    return mt_span_join(p->t[start].span, end);
}

/* After an error in a compound statement's header (already reported):
 * skip the header line, parse its block so that independent errors in it
 * are reported (keeping nothing), and the same for the continuation
 * clauses (else, and elif when `elif_ok`) so they do not read as stray
 * statements. The statement is dropped: returns NULL. */
static MtNode *drop_compound(Parser *p, bool elif_ok)
{
    for (;;) {
        drop_line(p);
        if (!is_kw(p, KW_ELSE) && !(elif_ok && is_kw(p, KW_ELIF)))
            return NULL;
    }
}

/* else_block = 'else' ':' block */
static MtNodeList else_block(Parser *p, uint32_t *colon)
{
    uint32_t line = tok(p)->span.line;
    next(p);
    *colon = p->pos;
    if (!expect_colon(p, "'else'")) {
        drop_compound(p, false);
        return (MtNodeList){0};
    }
    return block(p, "'else' statement", line);
}

/* if_stmt = 'if' named_expression ':' block ('elif' named_expression ':' block)* ['else' ':' block]
 * The chain is built iteratively; each elif is an ND_IF (elif = true) in
 * the orelse of the one before. */
static MtNode *if_chain(Parser *p, int *links)
{
    MtNode *head = NULL, *prev = NULL;
    uint32_t colon = p->pos;
    MT_VEC(uint32_t) starts = {0};
    NodeVec chain = {0};
    do {
        const MtToken *kw = tok(p);
        bool elif = kw_is(kw, KW_ELIF);
        if (elif) { /* each elif nests the tree one level deeper */
            if (p->blocks >= MAX_BLOCKS) {
                fail_span(p, kw->span, "E0105", "too many 'elif' branches");
                return drop_compound(p, true);
            }
            p->blocks++;
            (*links)++;
        }
        mt_vec_push(&p->c->arena, &starts, p->pos);
        next(p);
        MtNode *test = named_expression(p);
        colon = p->pos;
        if (!expect_colon(p, elif ? "'elif' condition" : "'if' condition"))
            return drop_compound(p, true);
        MtNode *n = new_node(p, ND_IF, kw->span);
        n->u.if_.test = test;
        n->u.if_.elif = elif;
        n->u.if_.body = block(p, elif ? "'elif' statement" : "'if' statement", kw->span.line);
        if (prev) {
            MtNode **one = mt_arena_alloc(&p->c->arena, sizeof *one);
            one[0] = n;
            prev->u.if_.orelse = (MtNodeList){one, 1};
        } else {
            head = n;
        }
        mt_vec_push(&p->c->arena, &chain, n);
        prev = n;
    } while (is_kw(p, KW_ELIF));
    MtNodeList orelse = {0};
    if (is_kw(p, KW_ELSE)) {
        orelse = else_block(p, &colon);
        prev->u.if_.orelse = orelse;
    }
    /* Every link ends where the whole chain ends. */
    MtSpan end = orelse.n ? orelse.v[orelse.n - 1]->span
                 : prev->u.if_.body.n ? prev->u.if_.body.v[prev->u.if_.body.n - 1]->span
                                      : p->t[colon].span;
    for (uint32_t i = 0; i < chain.n; i++)
        chain.v[i]->span = mt_span_join(p->t[starts.v[i]].span, end);
    return head;
}

/* The block budget the elif links took is given back after the chain. */
static MtNode *if_stmt(Parser *p)
{
    int links = 0;
    MtNode *n = if_chain(p, &links);
    p->blocks -= links;
    return n;
}

/* for_stmt = 'for' star_targets 'in' star_expressions ':' block ['else' ':' block] */
static MtNode *for_stmt(Parser *p)
{
    uint32_t start = p->pos;
    const MtToken *kw = tok(p);
    next(p);
    MtNode *target = star_targets(p);
    if (!p->err && check_target(p, target) && !accept_kw(p, KW_IN))
        fail(p, "expected 'in' after the 'for' target");
    MtNode *iter = p->err ? p->bad : star_expressions(p);
    uint32_t colon = p->pos;
    if (!expect_colon(p, "'for' statement"))
        return drop_compound(p, false);
    MtNode *n = new_node(p, ND_FOR, kw->span);
    n->u.for_.kw_span = kw->span;
    n->u.for_.target = target;
    n->u.for_.iter = iter;
    n->u.for_.body = block(p, "'for' statement", kw->span.line);
    if (is_kw(p, KW_ELSE))
        n->u.for_.orelse = else_block(p, &colon);
    n->span = compound_span(p, start, colon, n->u.for_.body, n->u.for_.orelse);
    return n;
}

/* while_stmt = 'while' named_expression ':' block ['else' ':' block] */
static MtNode *while_stmt(Parser *p)
{
    uint32_t start = p->pos;
    const MtToken *kw = tok(p);
    next(p);
    MtNode *test = named_expression(p);
    uint32_t colon = p->pos;
    if (!expect_colon(p, "'while' condition"))
        return drop_compound(p, false);
    MtNode *n = new_node(p, ND_WHILE, kw->span);
    n->u.while_.test = test;
    n->u.while_.body = block(p, "'while' statement", kw->span.line);
    if (is_kw(p, KW_ELSE))
        n->u.while_.orelse = else_block(p, &colon);
    n->span = compound_span(p, start, colon, n->u.while_.body, n->u.while_.orelse);
    return n;
}

/* INDENT statement* DEDENT, appended to `out`. */
static void indented(Parser *p, NodeVec *out)
{
    next(p);
    while (!at_eof(p) && tok(p)->kind != TK_DEDENT)
        statement(p, out);
    if (tok(p)->kind == TK_DEDENT)
        next(p);
}

/* statement = compound_stmt | simple_stmts
 * compound_stmt = if_stmt | for_stmt | while_stmt | with | try | def | class | async | match | decorated */
static void statement(Parser *p, NodeVec *out)
{
    p->err = false;
    const MtToken *t = tok(p);
    uint32_t start = p->pos;
    MtNode *s = NULL;
    bool compound = true;
    if (t->kind == TK_INDENT) {
        report(p, t->span, "E0104", "unexpected indent");
        if (enter_block(p)) {
            indented(p, out);
            leave_block(p);
        } else {
            skip_block(p, p->pos);
        }
        p->err = false;
        return;
    }
    if (t->kind == TK_NEWLINE) {
        next(p);
        return;
    }
    if (op_is(t, OP_AT)) {
        while (is_op(p, OP_AT))
            skip_clause(p);
        if (is_kw(p, KW_DEF) || is_kw(p, KW_CLASS) || is_kw(p, KW_ASYNC))
            s = skip_compound(p, start, "decorator");
        else
            s = unsupported(p, ND_UNSUPPORTED_STMT, "decorator", span_from(p, start), NULL);
    } else if (t->kind == TK_NAME) {
        switch (t->kw) {
        case KW_IF: s = if_stmt(p); break;
        case KW_FOR: s = for_stmt(p); break;
        case KW_WHILE: s = while_stmt(p); break;
        case KW_WITH: s = skip_compound(p, start, "with statement"); break;
        case KW_TRY: s = skip_compound(p, start, "try statement"); break;
        case KW_DEF: s = skip_compound(p, start, "function definition"); break;
        case KW_CLASS: s = skip_compound(p, start, "class definition"); break;
        case KW_ASYNC: s = skip_compound(p, start, "async statement"); break;
        default:
            if (at_match(p))
                s = skip_compound(p, start, "match statement");
            else
                compound = false;
            break;
        }
    } else {
        compound = false;
    }
    if (compound) {
        if (s)
            mt_vec_push(&p->c->arena, out, s);
        p->err = false;
        return;
    }
    simple_stmts(p, out);
}

/* block = NEWLINE INDENT statement+ DEDENT | simple_stmts */
static MtNodeList block(Parser *p, const char *what, uint32_t line)
{
    NodeVec v = {0};
    if (p->err)
        return to_list(v);
    if (tok(p)->kind != TK_NEWLINE) {
        simple_stmts(p, &v);
        p->err = false;
        return to_list(v);
    }
    next(p);
    if (tok(p)->kind != TK_INDENT) {
        report(p, tok(p)->span, "E0104", "expected an indented block after %s on line %u", what, line);
        return to_list(v);
    }
    if (!enter_block(p)) {
        skip_block(p, p->pos);
        p->err = false;
        return to_list(v);
    }
    indented(p, &v);
    leave_block(p);
    p->err = false;
    return to_list(v);
}

/* ---- jit functions ---------------------------------------------------------- */

static int by_name_then_position(const void *a, const void *b)
{
    const MtParam *x = *(const MtParam *const *)a, *y = *(const MtParam *const *)b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x < y ? -1 : x > y);
}

/* The first parameter (in source order) whose name an earlier one has,
 * or NULL: sorted, so a def with thousands of parameters stays cheap. */
static const MtParam *duplicate_param(Parser *p, const MtParam *v, uint32_t n)
{
    if (n < 2)
        return NULL;
    const MtParam **sorted = mt_arena_alloc(&p->c->arena, n * sizeof *sorted);
    for (uint32_t i = 0; i < n; i++)
        sorted[i] = &v[i];
    qsort(sorted, n, sizeof *sorted, by_name_then_position);
    const MtParam *dup = NULL;
    for (uint32_t i = 1; i < n; i++)
        if (strcmp(sorted[i - 1]->name, sorted[i]->name) == 0 && (!dup || sorted[i] < dup))
            dup = sorted[i];
    return dup;
}

/* parameters = param (',' param)* [',']
 * param = NAME [':' expression] ['=' expression] | '*' [NAME [':' star_expression]]
 *       | '**' NAME [':' expression] | '/' */
static void parameters(Parser *p, MtFuncDef *fn)
{
    MT_VEC(MtParam) v = {0};
    MtParamKind kind = PARAM_NORMAL;
    bool seen_default = false, seen_star = false, seen_kwargs = false, seen_slash = false, bare_star = false;
    const MtToken *bare = NULL;
    while (!p->err && !is_op(p, OP_RPAR)) {
        uint32_t start = p->pos;
        const MtToken *t = tok(p);
        if (seen_kwargs) {
            fail(p, "expected ')' after the var-keyword parameter");
            break;
        }
        if (op_is(t, OP_SLASH)) {
            if (v.n == 0 || seen_slash || seen_star)
                fail_span(p, t->span, "E0105", v.n == 0 ? "at least one argument must precede /"
                                                        : seen_slash ? "/ may appear only once"
                                                                     : "/ must be ahead of *");
            seen_slash = true;
            next(p);
        } else if (op_is(t, OP_STAR) && (op_is(peek(p, 1), OP_COMMA) || op_is(peek(p, 1), OP_RPAR))) {
            if (seen_star)
                fail_span(p, t->span, "E0105", "* argument may appear only once");
            seen_star = bare_star = true;
            bare = t;
            kind = PARAM_KWONLY;
            next(p);
        } else {
            MtParamKind k = kind;
            if (accept_op(p, OP_STAR)) {
                if (seen_star)
                    fail_span(p, t->span, "E0105", "* argument may appear only once");
                k = PARAM_VARARGS;
                seen_star = true;
                kind = PARAM_KWONLY;
            } else if (accept_op(p, OP_DSTAR)) {
                k = PARAM_KWARGS;
                seen_kwargs = true;
            }
            if (p->err)
                break;
            if (!is_name(tok(p))) {
                fail(p, "expected a parameter name");
                break;
            }
            MtParam prm = {.name = tok(p)->text, .name_span = tok(p)->span, .kind = k};
            next(p);
            if (!p->err && accept_op(p, OP_COLON))
                prm.annotation = k == PARAM_VARARGS && is_op(p, OP_STAR) ? star_expression(p) : expression(p);
            if (!p->err && is_op(p, OP_ASSIGN)) {
                if (k == PARAM_VARARGS || k == PARAM_KWARGS)
                    fail_span(p, tok(p)->span, "E0105", "var-%s argument cannot have default value",
                              k == PARAM_VARARGS ? "positional" : "keyword");
                next(p);
                prm.default_ = expression(p);
                seen_default |= k == PARAM_NORMAL;
            } else if (!p->err && k == PARAM_NORMAL && seen_default) {
                fail_span(p, prm.name_span, "E0105", "parameter without a default follows parameter with a default");
            }
            if (k == PARAM_KWONLY)
                bare_star = false;
            prm.span = span_from(p, start);
            mt_vec_push(&p->c->arena, &v, prm);
        }
        if (!accept_op(p, OP_COMMA))
            break;
    }
    if (!p->err && bare_star)
        fail_span(p, bare->span, "E0105", "named arguments must follow bare *");
    const MtParam *dup = p->err ? NULL : duplicate_param(p, v.v, v.n);
    if (dup)
        fail_span(p, dup->name_span, "E0105", "duplicate argument '%s' in function definition", dup->name);
    fn->params = v.v;
    fn->nparams = v.n;
}

/* Skip a bracketed group starting at an opening bracket. */
static void skip_brackets(Parser *p)
{
    int depth = 0;
    do {
        depth += is_open(tok(p)) - is_close(tok(p));
        next(p);
    } while (depth > 0 && !at_eof(p) && tok(p)->kind != TK_NEWLINE);
}

static bool directive_comment(const MtComment *cm, const char **text, size_t *len)
{
    const char *s = cm->text;
    while (*s == ' ' || *s == '\t')
        s++;
    if (strncmp(s, "mytriton:", 9) != 0)
        return false;
    s += 9;
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    *text = s;
    *len = n;
    return true;
}

/* `# mytriton: ...` lines in the comment block directly above token `at`
 * (the first decorator, or the def). */
static void directive(Parser *p, MtFuncDef *fn, const MtToken *at)
{
    const MtComment *cm = p->toks->comments;
    uint32_t lo = 0, hi = p->toks->ncomments; /* first comment at or after `at` */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (cm[mid].span.off < at->span.off)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint32_t first = lo, line = at->span.line;
    while (first > 0 && cm[first - 1].own_line && cm[first - 1].span.line + 1 == line) {
        first--;
        line--;
    }
    MtBuf b;
    mt_buf_init(&b, &p->c->arena);
    bool any = false;
    for (uint32_t i = first; i < lo; i++) {
        const char *s;
        size_t n;
        if (!directive_comment(&cm[i], &s, &n))
            continue;
        if (any)
            mt_buf_putc(&b, ' ');
        mt_buf_putn(&b, s, n);
        fn->directive_span = any ? mt_span_join(fn->directive_span, cm[i].span) : cm[i].span;
        any = true;
    }
    if (any)
        fn->directive = mt_buf_str(&b);
}

/* funcdef = decorators 'def' NAME [type_params] '(' [parameters] ')' ['->' expression] ':' block
 * `start` is the first decorator; p->pos is at 'def'. */
static MtFuncDef *funcdef(Parser *p, uint32_t start)
{
    MtFuncDef *fn = mt_arena_alloc(&p->c->arena, sizeof *fn);
    const MtToken *def = tok(p);
    uint32_t def_pos = p->pos;
    directive(p, fn, &p->t[start]);
    p->err = false;
    next(p);
    fn->name = tok(p)->text;
    fn->name_span = tok(p)->span;
    next(p);
    if (is_op(p, OP_LSQB))
        skip_brackets(p);
    if (expect_op(p, OP_LPAR, "expected '(' after the function name"))
        parameters(p, fn);
    expect_op(p, OP_RPAR, "expected ',' or ')' in the parameter list");
    if (!p->err && accept_op(p, OP_ARROW))
        expression(p);
    uint32_t colon = p->pos;
    if (expect_colon(p, "the function signature")) {
        fn->def_span = mt_span_join(def->span, p->t[colon].span);
        fn->body = block(p, "function definition", def->span.line);
    } else {
        /* A broken header: the indented body is still the function's. */
        NodeVec body = {0};
        fn->def_span = span_from(p, def_pos);
        sync(p);
        p->err = false;
        if (tok(p)->kind == TK_INDENT)
            indented(p, &body);
        fn->body = to_list(body);
    }
    p->err = false;
    MtSpan end = fn->body.n ? fn->body.v[fn->body.n - 1]->span : fn->def_span;
    fn->span = mt_span_join(p->t[start].span, end);
    return fn;
}

/* ---- module level ----------------------------------------------------------- */

static void add_global(Parser *p, const char *name, MtGlobalKind kind, MtSpan sp)
{
    MtGlobal g = {.name = name, .kind = kind, .span = sp};
    mt_vec_push(&p->c->arena, &p->globals, g);
}

/* Can a statement begin right after token t? `import` and `from` there
 * start an import statement (not `yield from` or `raise ... from`). */
static bool is_stmt_boundary(const MtToken *t)
{
    return t->kind == TK_NEWLINE || t->kind == TK_INDENT || t->kind == TK_DEDENT || op_is(t, OP_SEMI) ||
           op_is(t, OP_COLON);
}

/* End of the simple statement starting at token i: its ';' or NEWLINE. */
static uint32_t stmt_end(const Parser *p, uint32_t i)
{
    int depth = 0;
    for (; i + 1 < p->n; i++) {
        const MtToken *t = &p->t[i];
        if (t->kind == TK_NEWLINE || (depth == 0 && op_is(t, OP_SEMI)))
            break;
        depth += is_open(t) - (is_close(t) && depth > 0);
    }
    return i;
}

/* dotted_name = NAME ('.' NAME)*, read from token *i into the arena. */
static const char *dotted_name(Parser *p, uint32_t *i, uint32_t end, MtBuf *b)
{
    if (*i >= end || !is_name(&p->t[*i]))
        return NULL;
    mt_buf_puts(b, p->t[(*i)++].text);
    while (*i + 1 < end && op_is(&p->t[*i], OP_PERIOD) && is_name(&p->t[*i + 1])) {
        mt_buf_putc(b, '.');
        mt_buf_puts(b, p->t[*i + 1].text);
        *i += 2;
    }
    return mt_buf_str(b);
}

/* import_name = 'import' dotted_as_names
 * import_from = 'from' ('.' | '...')* [dotted_name] 'import' ('*' | '(' import_as_names ')' | import_as_names)
 * Appends what the statement in tokens [i, end) binds; stops quietly at
 * anything malformed. */
static void import_bindings(Parser *p, uint32_t i, uint32_t end, BindingVec *out)
{
    if (kw_is(&p->t[i], KW_IMPORT)) {
        for (i++; i < end;) {
            MtBuf b;
            mt_buf_init(&b, &p->c->arena);
            uint32_t first = i;
            const char *path = dotted_name(p, &i, end, &b);
            if (!path)
                return;
            Binding bd = {p->t[first].text, p->t[first].text, p->t[first].span, false};
            if (i + 1 < end && kw_is(&p->t[i], KW_AS) && is_name(&p->t[i + 1])) {
                bd = (Binding){p->t[i + 1].text, path, p->t[i + 1].span, false};
                i += 2;
            }
            mt_vec_push(&p->c->arena, out, bd);
            if (i >= end || !op_is(&p->t[i], OP_COMMA))
                return;
            i++;
        }
        return;
    }
    MtBuf mod;
    mt_buf_init(&mod, &p->c->arena);
    for (i++; i < end && (op_is(&p->t[i], OP_PERIOD) || op_is(&p->t[i], OP_ELLIPSIS)); i++)
        mt_buf_puts(&mod, p->t[i].text);
    bool relative = mod.n > 0;
    dotted_name(p, &i, end, &mod);
    if (!mod.n || i >= end || !kw_is(&p->t[i], KW_IMPORT))
        return;
    for (i++; i < end && !op_is(&p->t[i], OP_RPAR);) {
        if (op_is(&p->t[i], OP_LPAR) || op_is(&p->t[i], OP_COMMA)) {
            i++;
            continue;
        }
        if (!is_name(&p->t[i]))
            return;
        const MtToken *name = &p->t[i++];
        const char *target = relative && mod.s[mod.n - 1] == '.' ? mt_sprintf(p->c, "%s%s", mod.s, name->text)
                                                                  : mt_sprintf(p->c, "%s.%s", mod.s, name->text);
        Binding bd = {name->text, target, name->span, true};
        if (i + 1 < end && kw_is(&p->t[i], KW_AS) && is_name(&p->t[i + 1])) {
            bd.name = p->t[i + 1].text;
            bd.span = p->t[i + 1].span;
            i += 2;
        }
        mt_vec_push(&p->c->arena, out, bd);
    }
}

/* Every import statement of the file, wherever it is (inside `try:`,
 * functions, ...): decorators resolve through all of them. */
static void collect_imports(Parser *p)
{
    for (uint32_t i = 0; i + 1 < p->n; i++) {
        const MtToken *t = &p->t[i];
        if ((kw_is(t, KW_IMPORT) || kw_is(t, KW_FROM)) && (i == 0 || is_stmt_boundary(&p->t[i - 1])))
            import_bindings(p, i, stmt_end(p, i), &p->imports);
    }
}

static bool is_jit_path(const char *s) { return strcmp(s, "triton.jit") == 0 || strcmp(s, "mytriton.jit") == 0; }

/* decorator = '@' dotted_name ['(' ... ')'] NEWLINE, in tokens [i, end).
 * A jit decorator resolves through the imports to triton.jit or
 * mytriton.jit; a head name no import binds stands for itself, so
 * `@triton.jit` and a bare `@jit` work without an import. */
static bool is_jit_decorator(Parser *p, uint32_t i, uint32_t end)
{
    MtBuf b;
    mt_buf_init(&b, &p->c->arena);
    const char *head = p->t[i].text;
    if (!dotted_name(p, &i, end, &b))
        return false;
    if (i < end && op_is(&p->t[i], OP_LPAR)) {
        int depth = 0;
        do {
            depth += is_open(&p->t[i]) - is_close(&p->t[i]);
            i++;
        } while (depth > 0 && i < end);
    }
    if (i != end)
        return false;
    const char *rest = b.s + strlen(head);
    bool bound = false;
    for (uint32_t k = 0; k < p->imports.n; k++) {
        const Binding *bd = &p->imports.v[k];
        if (strcmp(bd->name, head) != 0)
            continue;
        bound = true;
        if (is_jit_path(mt_sprintf(p->c, "%s%s", bd->target, rest)))
            return true;
    }
    return !bound && (is_jit_path(b.s) || strcmp(b.s, "jit") == 0);
}

/* `NAME = triton.jit(FN)` (any jit spelling, with or without keyword
 * arguments after FN) in tokens [s, e): FN's token, else NULL. */
static const MtToken *jit_wrap(Parser *p, uint32_t s, uint32_t e)
{
    if (e < s + 6 || !is_name(&p->t[s]) || !op_is(&p->t[s + 1], OP_ASSIGN) || !op_is(&p->t[e - 1], OP_RPAR))
        return NULL;
    uint32_t open = s + 2;
    while (open < e && !op_is(&p->t[open], OP_LPAR))
        open++;
    if (open + 2 >= e || !is_name(&p->t[open + 1]) ||
        !(op_is(&p->t[open + 2], OP_RPAR) || op_is(&p->t[open + 2], OP_COMMA)) || !is_jit_decorator(p, s + 2, e))
        return NULL;
    return &p->t[open + 1];
}

/* Every `f = triton.jit(f)` of the file: its def is a jit function. */
static void collect_wrapped(Parser *p)
{
    for (uint32_t i = 0; i + 1 < p->n; i++) {
        if (!(i == 0 || p->t[i - 1].kind == TK_NEWLINE || p->t[i - 1].kind == TK_DEDENT))
            continue;
        const MtToken *fn = jit_wrap(p, i, stmt_end(p, i));
        if (fn)
            mt_vec_push(&p->c->arena, &p->wrapped, fn->text);
    }
}

static bool is_wrapped(const Parser *p, const char *name)
{
    for (uint32_t i = 0; i < p->wrapped.n; i++)
        if (!strcmp(p->wrapped.v[i], name))
            return true;
    return false;
}

/* Tokens [from, to) parsed by `rule` without diagnostics; NULL unless
 * it parses and covers exactly that range. */
static MtNode *quiet_parse(Parser *p, uint32_t from, uint32_t to, MtNode *(*rule)(Parser *p))
{
    if (from >= to)
        return NULL;
    uint32_t save = p->pos;
    p->pos = from;
    p->quiet = true;
    p->err = false;
    MtNode *n = rule(p);
    bool ok = !p->err && p->pos == to;
    p->pos = save;
    p->quiet = false;
    p->err = false;
    return ok ? n : NULL;
}

/* Names bound by an unpacking target (a, (b, *c)) = ...: GL_OTHER. */
static void bind_names(Parser *p, const MtNode *n)
{
    if (!n)
        return;
    if (n->kind == ND_NAME) {
        add_global(p, n->u.name, GL_OTHER, n->span);
    } else if (n->kind == ND_TUPLE || n->kind == ND_LIST) {
        for (uint32_t i = 0; i < n->u.list.n; i++)
            bind_names(p, n->u.list.v[i]);
    } else if (is_unsup(n, "starred expression")) {
        bind_names(p, n->u.unsup.inner);
    }
}

static void add_value(Parser *p, const MtNode *target, MtNode *value)
{
    if (target && target->kind == ND_NAME) {
        add_global(p, target->u.name, GL_VALUE, target->span);
        p->globals.v[p->globals.n - 1].value = value;
    } else {
        bind_names(p, target);
    }
}

/* One simple statement at module level, tokens [s, e): record what it binds. */
static void module_binding(Parser *p, uint32_t s, uint32_t e)
{
    const MtToken *t0 = &p->t[s];
    if (kw_is(t0, KW_IMPORT) || kw_is(t0, KW_FROM)) {
        BindingVec v = {0};
        import_bindings(p, s, e, &v);
        for (uint32_t i = 0; i < v.n; i++) {
            add_global(p, v.v[i].name, v.v[i].from ? GL_FROM : GL_MODULE, v.v[i].span);
            p->globals.v[p->globals.n - 1].target = v.v[i].target;
        }
        return;
    }
    const MtToken *wrapped = jit_wrap(p, s, e);
    if (wrapped && !strcmp(wrapped->text, t0->text))
        return; /* f = triton.jit(f): f stays the jit function */
    uint32_t save = p->pos;
    p->pos = s;
    bool alias = at_type_alias(p);
    p->pos = save;
    if (alias) {
        add_global(p, p->t[s + 1].text, GL_OTHER, p->t[s + 1].span);
        return;
    }
    /* `=` outside brackets split targets from the value; a lambda's
     * default values come after its keyword and are not split. */
    MT_VEC(uint32_t) eqs = {0};
    uint32_t colon = 0, aug = 0;
    int depth = 0;
    for (uint32_t i = s; i < e; i++) {
        const MtToken *t = &p->t[i];
        depth += is_open(t) - (is_close(t) && depth > 0);
        if (depth)
            continue;
        if (kw_is(t, KW_LAMBDA))
            break;
        if (op_is(t, OP_ASSIGN))
            mt_vec_push(&p->c->arena, &eqs, i);
        else if (op_is(t, OP_COLON) && !colon && !eqs.n)
            colon = i;
        else if (t->kind == TK_OP && augmented_op((MtOp)t->op) != OP_NONE_ && !aug && !eqs.n)
            aug = i;
    }
    if (colon) {
        MtNode *target = quiet_parse(p, s, colon, star_targets);
        if (eqs.n && target && target->kind == ND_NAME)
            add_value(p, target, quiet_parse(p, eqs.v[0] + 1, e, rhs));
        return;
    }
    if (aug) {
        MtNode *target = quiet_parse(p, s, aug, star_targets);
        if (target && target->kind == ND_NAME)
            add_global(p, target->u.name, GL_OTHER, target->span);
        return;
    }
    if (!eqs.n)
        return;
    MtNode *value = quiet_parse(p, eqs.v[eqs.n - 1] + 1, e, rhs);
    for (uint32_t k = 0; k < eqs.n; k++)
        add_value(p, quiet_parse(p, k ? eqs.v[k - 1] + 1 : s, eqs.v[k], star_targets), value);
}

/* for / with at module level: their targets are bound (GL_OTHER); the
 * header is [s, e) up to the logical line's end. */
static void module_compound_targets(Parser *p, uint32_t s, uint32_t e)
{
    if (kw_is(&p->t[s], KW_FOR)) {
        int depth = 0;
        for (uint32_t i = s + 1; i < e; i++) {
            depth += is_open(&p->t[i]) - (is_close(&p->t[i]) && depth > 0);
            if (depth == 0 && kw_is(&p->t[i], KW_IN)) {
                bind_names(p, quiet_parse(p, s + 1, i, star_targets));
                return;
            }
        }
        return;
    }
    for (uint32_t i = s + 1; i + 1 < e; i++) {
        if (!kw_is(&p->t[i], KW_AS))
            continue;
        uint32_t j = i + 1;
        if (is_open(&p->t[j])) {
            int depth = 0;
            do {
                depth += is_open(&p->t[j]) - is_close(&p->t[j]);
                j++;
            } while (depth > 0 && j < e);
        } else {
            while (j < e && !op_is(&p->t[j], OP_COMMA) && !op_is(&p->t[j], OP_COLON) && !op_is(&p->t[j], OP_RPAR))
                j++;
        }
        bind_names(p, quiet_parse(p, i + 1, j, star_target));
    }
}

/* decorated = ('@' decorator NEWLINE)+ (funcdef | async funcdef | classdef)
 * funcdef at module level: a jit function is parsed; any other is skipped. */
static void module_def(Parser *p)
{
    uint32_t start = p->pos;
    bool jit = false;
    while (is_op(p, OP_AT)) {
        uint32_t e = stmt_end(p, p->pos);
        if (p->pos + 1 < e)
            jit |= is_jit_decorator(p, p->pos + 1, e);
        p->pos = e;
        if (tok(p)->kind == TK_NEWLINE)
            next(p);
    }
    const MtToken *kw = tok(p);
    if (kw_is(kw, KW_DEF) && is_name(peek(p, 1)) && (jit || is_wrapped(p, peek(p, 1)->text))) {
        MtFuncDef *fn = funcdef(p, start);
        add_global(p, fn->name, GL_JIT, fn->name_span);
        p->globals.v[p->globals.n - 1].fn = fn;
        mt_vec_push(&p->c->arena, &p->funcs, fn);
        return;
    }
    const MtToken *name = kw_is(kw, KW_ASYNC) ? peek(p, 2) : peek(p, 1);
    bool binds = kw_is(kw, KW_DEF) || kw_is(kw, KW_CLASS) || (kw_is(kw, KW_ASYNC) && kw_is(peek(p, 1), KW_DEF));
    if (binds && is_name(name))
        add_global(p, name->text, GL_OTHER, name->span);
    if (binds || start != p->pos)
        skip_clause(p);
}

/* The imports of a try / except / else / finally clause in tokens
 * [s, e), as libraries write them for optional modules:
 *     try:
 *         from triton.language.extra.cuda import libdevice
 *     except ImportError:
 *         from triton.language.math import libdevice
 * bind their names, except names the try body bound (globals [g0, g1)):
 * its import is the one that succeeds with a current Triton. */
static void clause_imports(Parser *p, uint32_t s, uint32_t e, uint32_t g0, uint32_t g1)
{
    for (uint32_t i = s + 1; i < e; i++) {
        const MtToken *t = &p->t[i];
        if (!(kw_is(t, KW_IMPORT) || kw_is(t, KW_FROM)) || !is_stmt_boundary(&p->t[i - 1]))
            continue;
        BindingVec v = {0};
        uint32_t end = stmt_end(p, i);
        import_bindings(p, i, end, &v);
        for (uint32_t k = 0; k < v.n; k++) {
            bool shadowed = false;
            for (uint32_t g = g0; g < g1 && !shadowed; g++)
                shadowed = !strcmp(p->globals.v[g].name, v.v[k].name);
            if (shadowed)
                continue;
            add_global(p, v.v[k].name, v.v[k].from ? GL_FROM : GL_MODULE, v.v[k].span);
            p->globals.v[p->globals.n - 1].target = v.v[k].target;
        }
        i = end;
    }
}

static void module_level(Parser *p)
{
    while (!at_eof(p)) {
        const MtToken *t = tok(p);
        if (t->kind == TK_NEWLINE || t->kind == TK_DEDENT) {
            next(p);
        } else if (t->kind == TK_INDENT) {
            skip_block(p, p->pos);
        } else if (op_is(t, OP_AT) || kw_is(t, KW_DEF) || kw_is(t, KW_CLASS) ||
                   (kw_is(t, KW_ASYNC) && kw_is(peek(p, 1), KW_DEF))) {
            module_def(p);
        } else if (kw_is(t, KW_FOR) || kw_is(t, KW_WITH)) {
            module_compound_targets(p, p->pos, stmt_end(p, p->pos));
            skip_clause(p);
        } else if (kw_is(t, KW_TRY)) {
            uint32_t s = p->pos, g0 = p->globals.n;
            skip_clause(p);
            clause_imports(p, s, p->pos, g0, g0);
            uint32_t g1 = p->globals.n;
            while (!at_eof(p) && (is_kw(p, KW_EXCEPT) || is_kw(p, KW_ELSE) || is_kw(p, KW_FINALLY))) {
                s = p->pos;
                skip_clause(p);
                clause_imports(p, s, p->pos, g0, g1);
            }
        } else if (kw_is(t, KW_IF)) {
            /* The host condition is unknown here: as for try / except, the
             * imports of every branch bind, the first branch's winning. */
            uint32_t s = p->pos, g0 = p->globals.n;
            skip_clause(p);
            clause_imports(p, s, p->pos, g0, g0);
            uint32_t g1 = p->globals.n;
            while (!at_eof(p) && (is_kw(p, KW_ELIF) || is_kw(p, KW_ELSE))) {
                s = p->pos;
                skip_clause(p);
                clause_imports(p, s, p->pos, g0, g1);
            }
        } else if (kw_is(t, KW_ELIF) || kw_is(t, KW_ELSE) || kw_is(t, KW_WHILE) || kw_is(t, KW_ASYNC) ||
                   at_match(p)) {
            skip_clause(p);
        } else {
            while (!at_eof(p) && tok(p)->kind != TK_NEWLINE) {
                uint32_t s = p->pos, e = stmt_end(p, s);
                module_binding(p, s, e);
                p->pos = e;
                accept_op(p, OP_SEMI);
            }
            if (tok(p)->kind == TK_NEWLINE)
                next(p);
        }
    }
}

/* ---- the module ------------------------------------------------------------- */

/* The first bracket that is never closed (the lexer reported it). */
static uint32_t first_unclosed(const Parser *p)
{
    MT_VEC(uint32_t) stack = {0};
    for (uint32_t i = 0; i < p->n; i++) {
        if (is_open(&p->t[i]))
            mt_vec_push(&p->c->arena, &stack, i);
        else if (is_close(&p->t[i]) && stack.n)
            stack.n--;
    }
    return stack.n ? p->t[stack.v[0]].span.off : UINT32_MAX;
}

static uint32_t hash_name(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* Keep the last binding of every name, in the order of those bindings. */
static void last_bindings(Parser *p, MtModule *m)
{
    uint32_t n = p->globals.n, cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    uint32_t *slot = mt_arena_alloc(&p->c->arena, cap * sizeof *slot); /* index + 1; 0 = empty */
    bool *keep = mt_arena_alloc(&p->c->arena, (n ? n : 1) * sizeof *keep);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t h = hash_name(p->globals.v[i].name) & (cap - 1);
        while (slot[h] && strcmp(p->globals.v[slot[h] - 1].name, p->globals.v[i].name) != 0)
            h = (h + 1) & (cap - 1);
        if (slot[h])
            keep[slot[h] - 1] = false;
        slot[h] = i + 1;
        keep[i] = true;
    }
    m->globals = mt_arena_alloc(&p->c->arena, (n ? n : 1) * sizeof *m->globals);
    for (uint32_t i = 0; i < n; i++)
        if (keep[i])
            m->globals[m->nglobals++] = p->globals.v[i];
}

MtModule *mt_parse_module(MtCtx *c, uint32_t file, const MtTokens *toks)
{
    Parser p = {.c = c, .t = toks->v, .n = toks->n, .toks = toks};
    MtModule *m = mt_arena_alloc(&c->arena, sizeof *m);
    m->file = file;
    if (!toks->n)
        return m;
    p.bad = new_node(&p, ND_NONE, toks->v[0].span);
    for (uint32_t i = 0; i < c->diags.n; i++)
        if (c->diags.v[i]->d.span.file == file)
            mt_vec_push(&c->arena, &p.lex_err, c->diags.v[i]->d.span.off);
    p.unclosed_off = first_unclosed(&p);
    collect_imports(&p);
    collect_wrapped(&p);
    module_level(&p);
    last_bindings(&p, m);
    m->funcs = p.funcs.v;
    m->nfuncs = p.funcs.n;
    m->toks = toks->v;
    m->ntoks = toks->n;
    return m;
}

MtNode *mt_parse_host_expr(MtCtx *c, const MtModule *m, uint32_t from, uint32_t to)
{
    if (!m->ntoks || to > m->ntoks - 1 || from >= to)
        return NULL;
    /* The range alone, ended like a line, so that nothing after it (the
     * `if` of a comprehension, say) is read as part of the expression. */
    uint32_t n = to - from;
    MtToken *t = mt_arena_alloc(&c->arena, (n + 2) * sizeof *t);
    memcpy(t, m->toks + from, n * sizeof *t);
    t[n] = t[n - 1];
    t[n].kind = TK_NEWLINE;
    t[n].span.off = t[n].span.end;
    t[n + 1] = t[n];
    t[n + 1].kind = TK_EOF;
    Parser p = {.c = c, .t = t, .n = n + 2, .unclosed_off = UINT32_MAX};
    p.bad = new_node(&p, ND_NONE, t[0].span);
    return quiet_parse(&p, 0, n, star_expressions);
}
