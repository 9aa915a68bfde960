/* check_lexer.c: the Python 3.12 tokenizer (syntax/lexer.c).
 *
 * Token streams are compared as compact text, "NAME(x) OP(=) NUMBER(1)
 * NEWLINE EOF", and diagnostics as "E0104 3:5-3:5 message" lines, so
 * every test pins kinds, texts, exact spans and exact messages. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/ctx.h"
#include "base/strbuf.h"
#include "syntax/lexer.h"

typedef struct Lexed {
    MtCtx *c;
    MtTokens t;
} Lexed;

typedef struct Job {
    const char *src;
    size_t len;
    MtTokens t;
} Job;

static MtStatus lex_job(MtCtx *c, void *ud)
{
    Job *j = ud;
    j->t = mt_lex(c, mt_ctx_add_file(c, "t.py", j->src, j->len));
    return MT_OK;
}

static Lexed lexn(const char *src, size_t len)
{
    Lexed l = {mt_ctx_new(NULL), {0}};
    Job j = {src, len, {0}};
    ck_assert_int_eq(mt_protect(l.c, lex_job, &j), MT_OK);
    l.t = j.t;
    return l;
}

static Lexed lex(const char *src) { return lexn(src, strlen(src)); }

static const char *const kind_names[] = {"EOF", "NEWLINE", "INDENT", "DEDENT", "NAME",
                                         "NUMBER", "STRING", "OP", "ERROR"};

/* Every token as KIND or KIND(text), space-separated. */
static const char *toks(Lexed *l)
{
    MtBuf b;
    mt_buf_init(&b, &l->c->arena);
    for (uint32_t i = 0; i < l->t.n; i++) {
        const MtToken *t = &l->t.v[i];
        mt_buf_printf(&b, "%s%s", i ? " " : "", kind_names[t->kind]);
        if (t->kind >= TK_NAME)
            mt_buf_printf(&b, "(%s)", t->text);
    }
    return mt_buf_str(&b);
}

static const char *span_text(Lexed *l, MtSpan s)
{
    return mt_sprintf(l->c, "%u:%u-%u:%u", s.line, s.col, s.end_line, s.end_col);
}

/* Every token's span, space-separated. */
static const char *spans(Lexed *l)
{
    MtBuf b;
    mt_buf_init(&b, &l->c->arena);
    for (uint32_t i = 0; i < l->t.n; i++)
        mt_buf_printf(&b, "%s%s", i ? " " : "", span_text(l, l->t.v[i].span));
    return mt_buf_str(&b);
}

static const char *diags(Lexed *l)
{
    MtBuf b;
    mt_buf_init(&b, &l->c->arena);
    for (size_t i = 0; i < mt_diag_count(l->c); i++) {
        const MtDiag *d = mt_diag_at(l->c, i);
        mt_buf_printf(&b, "%s %s %s\n", d->code, span_text(l, d->span), d->msg);
    }
    return mt_buf_str(&b);
}

static const MtToken *first(Lexed *l, MtTokKind kind)
{
    for (uint32_t i = 0; i < l->t.n; i++)
        if (l->t.v[i].kind == kind)
            return &l->t.v[i];
    ck_abort_msg("no token of kind %s", kind_names[kind]);
    return NULL;
}

/* ---- tokens and spans -------------------------------------------------------- */

START_TEST(simple_statement_tokens_and_spans)
{
    Lexed l = lex("x = a.b(1)\n");
    ck_assert_str_eq(toks(&l), "NAME(x) OP(=) NAME(a) OP(.) NAME(b) OP(() NUMBER(1) OP()) NEWLINE EOF");
    ck_assert_str_eq(spans(&l), "1:1-1:2 1:3-1:4 1:5-1:6 1:6-1:7 1:7-1:8 1:8-1:9 1:9-1:10 1:10-1:11 1:11-1:11 2:1-2:1");
    ck_assert_uint_eq(l.t.v[0].span.off, 0);
    ck_assert_uint_eq(l.t.v[0].span.end, 1);
    ck_assert_uint_eq(l.t.v[7].span.off, 9);
    ck_assert_uint_eq(l.t.v[7].len, 1);
    ck_assert_uint_eq(l.t.v[8].span.off, 10); /* NEWLINE sits on the '\n' */
    ck_assert_str_eq(diags(&l), "");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(byte_order_mark_is_skipped)
{
    Lexed l = lex("\xEF\xBB\xBFimport triton\n");
    ck_assert_str_eq(toks(&l), "NAME(import) NAME(triton) NEWLINE EOF");
    ck_assert_str_eq(span_text(&l, l.t.v[0].span), "1:4-1:10"); /* offsets stay file offsets */
    ck_assert_uint_eq(l.t.v[0].span.off, 3);
    ck_assert_str_eq(diags(&l), "");
    mt_ctx_free(l.c);

    l = lex("\xEF\xBB\xBF# mytriton: BLOCK=64\n");
    ck_assert_uint_eq(l.t.ncomments, 1);
    ck_assert(l.t.comments[0].own_line);
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(empty_and_comment_only_files)
{
    Lexed l = lex("");
    ck_assert_str_eq(toks(&l), "EOF");
    ck_assert_str_eq(spans(&l), "1:1-1:1");
    mt_ctx_free(l.c);

    l = lex("# only a comment\n\n   \n# another");
    ck_assert_str_eq(toks(&l), "EOF");
    ck_assert_uint_eq(l.t.ncomments, 2);
    ck_assert_str_eq(l.t.comments[0].text, " only a comment");
    ck_assert_str_eq(l.t.comments[1].text, " another");
    ck_assert_str_eq(span_text(&l, l.t.comments[1].span), "4:1-4:10");
    ck_assert_str_eq(spans(&l), "4:10-4:10");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(keywords_and_soft_keywords)
{
    Lexed l = lex("if None match case type _ await lambda True Falsey\n");
    const MtKw want[] = {KW_IF, KW_NONE, KW_NONE_, KW_NONE_, KW_NONE_, KW_NONE_, KW_AWAIT, KW_LAMBDA, KW_TRUE, KW_NONE_};
    for (int i = 0; i < 10; i++) {
        ck_assert_int_eq(l.t.v[i].kind, TK_NAME);
        ck_assert_int_eq(l.t.v[i].kw, want[i]);
    }
    ck_assert_str_eq(mt_kw_text(KW_NONLOCAL), "nonlocal");
    ck_assert_str_eq(mt_kw_text(KW_FALSE), "False");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(every_operator_round_trips)
{
    for (int op = OP_NONE_ + 1; op < OP_COUNT_; op++) {
        const char *text = mt_op_text((MtOp)op);
        Lexed l = lex(text);
        ck_assert_msg(l.t.v[0].kind == TK_OP && l.t.v[0].op == op, "operator %s", text);
        ck_assert_str_eq(l.t.v[0].text, text);
        ck_assert_uint_eq(l.t.v[0].len, strlen(text));
        mt_ctx_free(l.c);
    }
    ck_assert_str_eq(mt_op_text(OP_DSLASH_EQ), "//=");
}
END_TEST

START_TEST(operators_longest_match)
{
    Lexed l = lex("a**=b//=c>>=d<<=e...->:=!=**//->=<>\n");
    ck_assert_str_eq(toks(&l), "NAME(a) OP(**=) NAME(b) OP(//=) NAME(c) OP(>>=) NAME(d) OP(<<=) NAME(e) "
                               "OP(...) OP(->) OP(:=) OP(!=) OP(**) OP(//) OP(->) OP(=) OP(<) OP(>) NEWLINE EOF");
    ck_assert_int_eq(l.t.v[9].op, OP_ELLIPSIS);
    ck_assert_int_eq(l.t.v[11].op, OP_WALRUS);
    ck_assert_str_eq(diags(&l), "");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(utf8_identifiers)
{
    Lexed l = lex("caf\xc3\xa9 = \xce\xb1\xce\xb2 + x\xe2\x82\x81\n");
    ck_assert_str_eq(toks(&l), "NAME(caf\xc3\xa9) OP(=) NAME(\xce\xb1\xce\xb2) OP(+) NAME(x\xe2\x82\x81) NEWLINE EOF");
    ck_assert_str_eq(span_text(&l, l.t.v[0].span), "1:1-1:6"); /* columns count bytes */
    ck_assert_str_eq(span_text(&l, l.t.v[2].span), "1:9-1:13");
    ck_assert_str_eq(diags(&l), "");
    mt_ctx_free(l.c);
}
END_TEST

/* ---- lines and indentation --------------------------------------------------- */

START_TEST(indent_and_dedent)
{
    Lexed l = lex("if x:\n    if y:\n        a\n\n    # note\n    b\nc\n");
    ck_assert_str_eq(toks(&l), "NAME(if) NAME(x) OP(:) NEWLINE INDENT NAME(if) NAME(y) OP(:) NEWLINE "
                               "INDENT NAME(a) NEWLINE DEDENT NAME(b) NEWLINE DEDENT NAME(c) NEWLINE EOF");
    ck_assert_str_eq(span_text(&l, l.t.v[4].span), "2:5-2:5");   /* INDENT: zero-width at the line's first token */
    ck_assert_str_eq(span_text(&l, l.t.v[12].span), "6:5-6:5");  /* DEDENT at `b` */
    ck_assert_str_eq(span_text(&l, l.t.v[15].span), "7:1-7:1");
    ck_assert_str_eq(diags(&l), "");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(dedent_several_levels_and_at_eof)
{
    Lexed l = lex("a:\n b:\n  c:\n   d\ne\n f");
    ck_assert_str_eq(toks(&l), "NAME(a) OP(:) NEWLINE INDENT NAME(b) OP(:) NEWLINE INDENT NAME(c) OP(:) NEWLINE "
                               "INDENT NAME(d) NEWLINE DEDENT DEDENT DEDENT NAME(e) NEWLINE INDENT NAME(f) "
                               "NEWLINE DEDENT EOF");
    /* unterminated last line: NEWLINE, DEDENT and EOF sit at the end of the file */
    ck_assert_str_eq(span_text(&l, l.t.v[l.t.n - 3].span), "6:3-6:3");
    ck_assert_str_eq(span_text(&l, l.t.v[l.t.n - 1].span), "6:3-6:3");
    ck_assert_str_eq(diags(&l), "");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(unindent_mismatch_is_E0104_once)
{
    Lexed l = lex("if x:\n        a = 1\n    b = 2\n    c = 3\nd = 4\n");
    ck_assert_str_eq(diags(&l), "E0104 3:5-3:5 unindent does not match any outer indentation level\n");
    /* the bad level is adopted silently: c lines up with b, d closes it */
    ck_assert_str_eq(toks(&l), "NAME(if) NAME(x) OP(:) NEWLINE INDENT NAME(a) OP(=) NUMBER(1) NEWLINE DEDENT "
                               "NAME(b) OP(=) NUMBER(2) NEWLINE NAME(c) OP(=) NUMBER(3) NEWLINE "
                               "NAME(d) OP(=) NUMBER(4) NEWLINE EOF");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(tabs_advance_to_multiples_of_8)
{
    Lexed l = lex("if x:\n\ta\n\tif y:\n\t\tb\n\tc\n");
    ck_assert_str_eq(diags(&l), "");
    ck_assert_str_eq(toks(&l), "NAME(if) NAME(x) OP(:) NEWLINE INDENT NAME(a) NEWLINE NAME(if) NAME(y) OP(:) NEWLINE "
                               "INDENT NAME(b) NEWLINE DEDENT NAME(c) NEWLINE DEDENT EOF");
    mt_ctx_free(l.c);

    /* "  \t" is column 8 like "\t", so these lines are one block */
    l = lex("if x:\n\ta\n  \tb\n");
    ck_assert_str_eq(toks(&l), "NAME(if) NAME(x) OP(:) NEWLINE INDENT NAME(a) NEWLINE NAME(b) NEWLINE DEDENT EOF");
    ck_assert_str_eq(diags(&l), "E0104 3:4-3:4 inconsistent use of tabs and spaces in indentation\n");
    mt_ctx_free(l.c);

    /* eight spaces equal one tab only when counted with tab size 8 */
    l = lex("if x:\n\ta\n        b\n");
    ck_assert_str_eq(diags(&l), "E0104 3:9-3:9 inconsistent use of tabs and spaces in indentation\n");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(brackets_join_lines)
{
    Lexed l = lex("x = (1,\n  2,   # two\n      [3,\n 4])\ny\n");
    ck_assert_str_eq(toks(&l), "NAME(x) OP(=) OP(() NUMBER(1) OP(,) NUMBER(2) OP(,) OP([) NUMBER(3) OP(,) "
                               "NUMBER(4) OP(]) OP()) NEWLINE NAME(y) NEWLINE EOF");
    ck_assert_str_eq(span_text(&l, l.t.v[10].span), "4:2-4:3");
    ck_assert_str_eq(span_text(&l, l.t.v[13].span), "4:5-4:5");
    ck_assert_uint_eq(l.t.ncomments, 1);
    ck_assert(!l.t.comments[0].own_line);
    ck_assert_str_eq(diags(&l), "");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(backslash_continuation)
{
    Lexed l = lex("if a and \\\n        b:\n    x = 1 + \\\n2\n");
    ck_assert_str_eq(toks(&l), "NAME(if) NAME(a) NAME(and) NAME(b) OP(:) NEWLINE INDENT NAME(x) OP(=) NUMBER(1) "
                               "OP(+) NUMBER(2) NEWLINE DEDENT EOF");
    ck_assert_str_eq(span_text(&l, l.t.v[3].span), "2:9-2:10");
    ck_assert_str_eq(diags(&l), "");
    mt_ctx_free(l.c);

    l = lex("x = 1 \\ 2\n");
    ck_assert_str_eq(toks(&l), "NAME(x) OP(=) NUMBER(1) ERROR(\\) NUMBER(2) NEWLINE EOF");
    ck_assert_str_eq(diags(&l), "E0101 1:7-1:8 unexpected character after line continuation character\n");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(crlf_and_cr_line_ends)
{
    Lexed l = lex("a = 1\r\nif b:\r\n    c = \"\"\"x\r\ny\"\"\"\r\n");
    ck_assert_str_eq(toks(&l), "NAME(a) OP(=) NUMBER(1) NEWLINE NAME(if) NAME(b) OP(:) NEWLINE INDENT NAME(c) OP(=) "
                               "STRING(\"\"\"x\r\ny\"\"\") NEWLINE DEDENT EOF");
    ck_assert_str_eq(span_text(&l, l.t.v[3].span), "1:6-1:6");
    const MtToken *s = first(&l, TK_STRING);
    ck_assert_str_eq(span_text(&l, s->span), "3:9-4:5");
    ck_assert_str_eq(s->str, "x\ny"); /* Python reads \r\n as \n */
    mt_ctx_free(l.c);

    l = lex("a = 1\rif b:\r    c\r");
    ck_assert_str_eq(toks(&l), "NAME(a) OP(=) NUMBER(1) NEWLINE NAME(if) NAME(b) OP(:) NEWLINE INDENT NAME(c) "
                               "NEWLINE DEDENT EOF");
    ck_assert_str_eq(span_text(&l, l.t.v[9].span), "3:5-3:6");
    ck_assert_str_eq(diags(&l), "");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(comments_are_recorded_not_tokens)
{
    Lexed l = lex("# mytriton: BLOCK=256\nx = 1  # trailing\n    # indented own line\ny\n");
    ck_assert_str_eq(toks(&l), "NAME(x) OP(=) NUMBER(1) NEWLINE NAME(y) NEWLINE EOF");
    ck_assert_uint_eq(l.t.ncomments, 3);
    ck_assert_str_eq(l.t.comments[0].text, " mytriton: BLOCK=256");
    ck_assert(l.t.comments[0].own_line);
    ck_assert_str_eq(span_text(&l, l.t.comments[0].span), "1:1-1:22");
    ck_assert_str_eq(l.t.comments[1].text, " trailing");
    ck_assert(!l.t.comments[1].own_line);
    ck_assert_str_eq(span_text(&l, l.t.comments[1].span), "2:8-2:18");
    ck_assert(l.t.comments[2].own_line);
    /* NEWLINE comes after the trailing comment, at the line end */
    ck_assert_str_eq(span_text(&l, l.t.v[3].span), "2:18-2:18");
    mt_ctx_free(l.c);
}
END_TEST

/* ---- numbers ---------------------------------------------------------------- */

START_TEST(numbers)
{
    Lexed l = lex("1_000 0x1F 0o17 0b101 0X_ff 00 0_0 1e-3 1_000.5e+2 1E5 1. .5 012.5 1j 2.5J 0j\n");
    static const struct { const char *text; int kind; int64_t i; double f; } want[] = {
        {"1_000", 0, 1000, 1000.0}, {"0x1F", 0, 31, 31.0}, {"0o17", 0, 15, 15.0}, {"0b101", 0, 5, 5.0},
        {"0X_ff", 0, 255, 255.0}, {"00", 0, 0, 0.0}, {"0_0", 0, 0, 0.0}, {"1e-3", 1, 0, 1e-3},
        {"1_000.5e+2", 1, 0, 100050.0}, {"1E5", 1, 0, 1e5}, {"1.", 1, 0, 1.0}, {".5", 1, 0, 0.5},
        {"012.5", 1, 0, 12.5}, {"1j", 2, 0, 1.0}, {"2.5J", 2, 0, 2.5}, {"0j", 2, 0, 0.0},
    };
    for (int i = 0; i < 16; i++) {
        const MtToken *t = &l.t.v[i];
        ck_assert_int_eq(t->kind, TK_NUMBER);
        ck_assert_str_eq(t->text, want[i].text);
        ck_assert_int_eq(t->num_kind, want[i].kind);
        if (want[i].kind == 0)
            ck_assert_int_eq(t->ival, want[i].i);
        ck_assert_double_eq(t->fval, want[i].f);
        ck_assert(!t->int_overflow);
    }
    ck_assert_str_eq(diags(&l), "");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(integer_overflow_is_flagged_not_reported)
{
    Lexed l = lex("9223372036854775807 9223372036854775808 99999999999999999999 0xFFFFFFFFFFFFFFFFFF\n");
    ck_assert(!l.t.v[0].int_overflow);
    ck_assert_int_eq(l.t.v[0].ival, INT64_MAX);
    for (int i = 1; i < 4; i++) {
        ck_assert(l.t.v[i].int_overflow);
        ck_assert_int_eq(l.t.v[i].ival, INT64_MAX);
    }
    ck_assert_double_eq(l.t.v[1].fval, 9223372036854775808.0);
    ck_assert_double_eq(l.t.v[2].fval, 1e20);
    ck_assert_double_eq(l.t.v[3].fval, 4722366482869645213695.0);
    ck_assert_str_eq(diags(&l), "");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(number_errors)
{
    static const struct { const char *src, *diag, *tokens; } cases[] = {
        {"012", "E0103 1:1-1:4 leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers\n",
         "NUMBER(012)"},
        {"1__0", "E0103 1:1-1:5 invalid decimal literal: '_' must be followed by a digit\n", "NUMBER(1__0)"},
        {"1_", "E0103 1:1-1:3 invalid decimal literal: '_' must be followed by a digit\n", "NUMBER(1_)"},
        {"1.5_", "E0103 1:1-1:5 invalid decimal literal: '_' must be followed by a digit\n", "NUMBER(1.5_)"},
        {"0x", "E0103 1:1-1:3 invalid hexadecimal literal: '0x' must be followed by a digit\n", "NUMBER(0x)"},
        {"0B", "E0103 1:1-1:3 invalid binary literal: '0B' must be followed by a digit\n", "NUMBER(0B)"},
        {"0x1_", "E0103 1:1-1:5 invalid hexadecimal literal: '_' must be followed by a digit\n", "NUMBER(0x1_)"},
        {"1e", "E0103 1:1-1:3 invalid decimal literal: the exponent has no digits\n", "NUMBER(1e)"},
        {"1e+", "E0103 1:1-1:3 invalid decimal literal: the exponent has no digits\n", "NUMBER(1e) OP(+)"},
        {"0b2", "E0103 1:1-1:4 invalid digit '2' in binary literal\n", "NUMBER(0b2)"},
        {"0b102", "E0103 1:1-1:6 invalid digit '2' in binary literal\n", "NUMBER(0b102)"},
        {"0o8", "E0103 1:1-1:4 invalid digit '8' in octal literal\n", "NUMBER(0o8)"},
        {"0x1g", "E0103 1:1-1:5 invalid hexadecimal literal: unexpected 'g' after the number\n", "NUMBER(0x1g)"},
        {"1abc", "E0103 1:1-1:5 invalid decimal literal: unexpected 'a' after the number\n", "NUMBER(1abc)"},
        {"1jx", "E0103 1:1-1:4 invalid imaginary literal: unexpected 'x' after the number\n", "NUMBER(1jx)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Lexed l = lex(cases[i].src);
        ck_assert_str_eq(diags(&l), cases[i].diag);
        ck_assert_str_eq(toks(&l), mt_sprintf(l.c, "%s NEWLINE EOF", cases[i].tokens));
        mt_ctx_free(l.c);
    }
}
END_TEST

START_TEST(numbers_next_to_other_tokens)
{
    /* 1.2.3 is two numbers; keywords may follow a number directly */
    Lexed l = lex("1.2.3 1if x else 2 0x1for 1or 2 1else\n");
    ck_assert_str_eq(toks(&l), "NUMBER(1.2) NUMBER(.3) NUMBER(1) NAME(if) NAME(x) NAME(else) NUMBER(2) "
                               "NUMBER(0x1f) NAME(or) NUMBER(1) NAME(or) NUMBER(2) NUMBER(1) NAME(else) NEWLINE EOF");
    ck_assert_str_eq(diags(&l), "");
    mt_ctx_free(l.c);
}
END_TEST

/* ---- strings ---------------------------------------------------------------- */

START_TEST(string_prefixes)
{
    static const struct { const char *src; bool f, b; const char *value; } cases[] = {
        {"'a'", 0, 0, "a"}, {"\"a\"", 0, 0, "a"}, {"r'\\n'", 0, 0, "\\n"}, {"R'\\n'", 0, 0, "\\n"},
        {"u'\\n'", 0, 0, "\n"}, {"U'x'", 0, 0, "x"}, {"b'\\n'", 0, 1, "\n"}, {"B'x'", 0, 1, "x"},
        {"br'\\n'", 0, 1, "\\n"}, {"rb'\\n'", 0, 1, "\\n"}, {"Br'x'", 0, 1, "x"}, {"bR'x'", 0, 1, "x"},
        {"RB'x'", 0, 1, "x"}, {"rB'x'", 0, 1, "x"}, {"f'{x}'", 1, 0, "{x}"}, {"F'{x}'", 1, 0, "{x}"},
        {"fr'{x}\\n'", 1, 0, "{x}\\n"}, {"rf'x'", 1, 0, "x"}, {"Rf'x'", 1, 0, "x"}, {"fR'x'", 1, 0, "x"},
        {"FR'x'", 1, 0, "x"}, {"rF'x'", 1, 0, "x"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Lexed l = lex(cases[i].src);
        ck_assert_msg(l.t.n == 3 && l.t.v[0].kind == TK_STRING, "%s is one string", cases[i].src);
        ck_assert_str_eq(l.t.v[0].text, cases[i].src);
        ck_assert_int_eq(l.t.v[0].fstring, cases[i].f);
        ck_assert_int_eq(l.t.v[0].bytes, cases[i].b);
        ck_assert_str_eq(l.t.v[0].str, cases[i].value);
        ck_assert_uint_eq(l.t.v[0].str_len, strlen(cases[i].value));
        ck_assert_str_eq(diags(&l), "");
        mt_ctx_free(l.c);
    }
    /* not prefixes: a name followed by a string */
    Lexed l = lex("ub'x' bu'x' ur'x' rr'x' bf'x'\n");
    ck_assert_str_eq(toks(&l), "NAME(ub) STRING('x') NAME(bu) STRING('x') NAME(ur) STRING('x') NAME(rr) STRING('x') "
                               "NAME(bf) STRING('x') NEWLINE EOF");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(string_escapes)
{
    Lexed l = lex("'\\\\ \\' \\\" \\n \\t \\r \\a \\b \\f \\v \\0 \\101 \\777 \\x41 \\u00e9 \\U0001F600 "
                  "\\N{BULLET} \\q \\\n.'");
    const MtToken *t = &l.t.v[0];
    static const char want[] = "\\ ' \" \n \t \r \a \b \f \v \0 A \xc7\xbf A \xc3\xa9 \xf0\x9f\x98\x80 "
                               "\\N{BULLET} \\q .";
    ck_assert_uint_eq(t->str_len, sizeof want - 1);
    ck_assert_mem_eq(t->str, want, sizeof want - 1);
    ck_assert_str_eq(span_text(&l, t->span), "1:1-2:3");
    ck_assert_str_eq(diags(&l), "");
    mt_ctx_free(l.c);

    /* bytes: \x and octal give raw bytes, \u and \N are no escapes */
    l = lex("b'\\xff\\377\\u00e9\\N{X}'");
    ck_assert_uint_eq(l.t.v[0].str_len, 2 + 6 + 5);
    ck_assert_mem_eq(l.t.v[0].str, "\xff\xff\\u00e9\\N{X}", 13);
    mt_ctx_free(l.c);

    /* raw: backslashes stay, an escaped quote does not end the string */
    l = lex("r'a\\'b\\\\' r\"\\\"\"");
    ck_assert_str_eq(l.t.v[0].str, "a\\'b\\\\");
    ck_assert_str_eq(l.t.v[1].str, "\\\"");
    ck_assert_str_eq(diags(&l), "");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(invalid_escapes_are_E0107)
{
    Lexed l = lex("a = '\\xZ' + '\\u12' + '\\U00110000' + '\\N' + '\\N{X'\n");
    ck_assert_str_eq(diags(&l), "E0107 1:6-1:8 truncated \\xXX escape\n"
                                "E0107 1:14-1:18 truncated \\uXXXX escape\n"
                                "E0107 1:23-1:33 illegal Unicode character: code point above U+10FFFF\n"
                                "E0107 1:38-1:40 malformed \\N character escape: expected '{'\n"
                                "E0107 1:45-1:49 malformed \\N character escape: missing '}'\n");
    ck_assert_str_eq(l.t.v[2].str, "\\xZ");
    mt_ctx_free(l.c);

    /* positions inside a multi-line literal count lines as the lexer does, "\r" included */
    l = lex("x = \"\"\"a\r\r b \\xZ\"\"\"\r");
    ck_assert_str_eq(diags(&l), "E0107 3:4-3:6 truncated \\xXX escape\n");
    mt_ctx_free(l.c);

    l = lex("a = '\\xZ' + '\\u12' + '\\U00110000' + '\\N' + '\\N{X'\n");
    ck_assert_str_eq(toks(&l), "NAME(a) OP(=) STRING('\\xZ') OP(+) STRING('\\u12') OP(+) STRING('\\U00110000') "
                               "OP(+) STRING('\\N') OP(+) STRING('\\N{X') NEWLINE EOF");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(triple_quoted_strings)
{
    /* the first closing triple quote ends the literal: """"q""" holds "q */
    Lexed l = lex("x = '''a\n'b' \"c\"\n''' + \"\"\"\"q\"\"\" \ny\n");
    ck_assert_str_eq(toks(&l), "NAME(x) OP(=) STRING('''a\n'b' \"c\"\n''') OP(+) STRING(\"\"\"\"q\"\"\") "
                               "NEWLINE NAME(y) NEWLINE EOF");
    ck_assert_str_eq(l.t.v[2].str, "a\n'b' \"c\"\n");
    ck_assert_str_eq(span_text(&l, l.t.v[2].span), "1:5-3:4");
    ck_assert_str_eq(l.t.v[4].str, "\"q");
    ck_assert_str_eq(diags(&l), "");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(fstrings_nested_quotes_and_specs)
{
    static const char *const ok[] = {
        "f'{x}'", "f\"{x!r:>{width}.{prec}}\"", "f'{\"nested\"}'", "f\"{\"same quote\"}\"",
        "f\"{ {'a': 1}['a'] }\"", "f'{{literal}} {x!r} }}'", "f\"{f\"{f\"{1}\"}\"}\"", "f'{x=}'",
        "f'{a!=b}'", "f'\\{x}'", "f'\\N{BULLET} {x}'", "f'{x:{\"}\"}}'", "f'''{\n  x  # comment\n}'''",
        "f\"{', '.join([\n    'a',  # first\n    'b',\n])}\"", "rf'\\{x}\\\\'", "f'{\"\"\"tri\"ple\"\"\"}'",
        "f'{(lambda: 1)()}'", "f'{x:=10}'",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        Lexed l = lex(ok[i]);
        ck_assert_msg(l.t.n == 3 && l.t.v[0].kind == TK_STRING && l.t.v[0].fstring, "%s is one f-string", ok[i]);
        ck_assert_str_eq(l.t.v[0].text, ok[i]);
        ck_assert_str_eq(diags(&l), "");
        mt_ctx_free(l.c);
    }
    Lexed l = lex("f\"{x!r:>{w}}\" + 1");
    ck_assert_str_eq(l.t.v[0].str, "{x!r:>{w}}");
    ck_assert_str_eq(toks(&l), "STRING(f\"{x!r:>{w}}\") OP(+) NUMBER(1) NEWLINE EOF");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(unterminated_single_quoted_string)
{
    Lexed l = lex("a = 'abc\nb = 1\nc = f\"{x\nd = 2\n");
    ck_assert_str_eq(diags(&l), "E0102 1:5-1:9 unterminated string literal\n"
                                "E0102 3:6-3:9 unterminated string literal\n");
    ck_assert_str_eq(toks(&l), "NAME(a) OP(=) STRING('abc) NEWLINE NAME(b) OP(=) NUMBER(1) NEWLINE "
                               "NAME(c) OP(=) STRING(f\"{x) NEWLINE NAME(d) OP(=) NUMBER(2) NEWLINE EOF");
    ck_assert_str_eq(l.t.v[2].str, "abc");
    ck_assert_str_eq(span_text(&l, l.t.v[10].span), "3:5-3:9"); /* the token includes the prefix */
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(unterminated_string_ends_its_logical_line)
{
    /* the swallowed ')' does not leave the rest of the file inside brackets */
    Lexed l = lex("x = f(a, \"abc)\nif y:\n    z = [1]\n");
    ck_assert_str_eq(diags(&l), "E0102 1:10-1:15 unterminated string literal\n");
    ck_assert_str_eq(toks(&l), "NAME(x) OP(=) NAME(f) OP(() NAME(a) OP(,) STRING(\"abc)) NEWLINE NAME(if) NAME(y) OP(:) "
                               "NEWLINE INDENT NAME(z) OP(=) OP([) NUMBER(1) OP(]) NEWLINE DEDENT EOF");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(unterminated_triple_quoted_string)
{
    Lexed l = lex("x = 1\ny = \"\"\"never\nclosed\n");
    ck_assert_str_eq(diags(&l), "E0102 2:5-4:1 unterminated triple-quoted string literal\n");
    ck_assert_str_eq(toks(&l), "NAME(x) OP(=) NUMBER(1) NEWLINE NAME(y) OP(=) STRING(\"\"\"never\nclosed\n) "
                               "NEWLINE EOF");
    ck_assert_str_eq(l.t.v[6].str, "never\nclosed\n");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(fstring_field_never_closed)
{
    Lexed l = lex("x = f\"{y\" + 1\n");
    ck_assert_str_eq(diags(&l), "E0107 1:5-1:10 f-string: expecting '}'\n");
    ck_assert_str_eq(toks(&l), "NAME(x) OP(=) STRING(f\"{y\") OP(+) NUMBER(1) NEWLINE EOF");
    mt_ctx_free(l.c);
}
END_TEST

/* ---- bad characters and brackets --------------------------------------------- */

START_TEST(invalid_characters_are_E0101)
{
    Lexed l = lex("a $ b ? c ` d ! e != f \x01\n");
    ck_assert_str_eq(toks(&l), "NAME(a) ERROR($) NAME(b) ERROR(?) NAME(c) ERROR(`) NAME(d) ERROR(!) NAME(e) OP(!=) "
                               "NAME(f) ERROR(\x01) NEWLINE EOF");
    ck_assert_str_eq(diags(&l), "E0101 1:3-1:4 invalid character '$' (U+0024)\n"
                                "E0101 1:7-1:8 invalid character '?' (U+003F)\n"
                                "E0101 1:11-1:12 invalid character '`' (U+0060)\n"
                                "E0101 1:15-1:16 invalid character '!' (U+0021)\n"
                                "E0101 1:24-1:25 invalid non-printable character U+0001\n");
    mt_ctx_free(l.c);

    l = lexn("a\0b", 3);
    ck_assert_str_eq(toks(&l), "NAME(a) ERROR() NAME(b) NEWLINE EOF");
    ck_assert_str_eq(diags(&l), "E0101 1:2-1:3 invalid non-printable character U+0000\n");
    mt_ctx_free(l.c);
}
END_TEST

START_TEST(bracket_errors)
{
    Lexed l = lex("a = (1,\n  2]\nb = )\nc = [1}\n");
    ck_assert_str_eq(diags(&l), "E0105 2:4-2:5 closing parenthesis ']' does not match opening parenthesis '(' on line 1\n"
                                "E0105 3:5-3:6 unmatched ')'\n"
                                "E0105 4:7-4:8 closing parenthesis '}' does not match opening parenthesis '['\n");
    /* each mismatched closer still closes: the lines stay separate */
    ck_assert_str_eq(toks(&l), "NAME(a) OP(=) OP(() NUMBER(1) OP(,) NUMBER(2) OP(]) NEWLINE NAME(b) OP(=) OP()) NEWLINE "
                               "NAME(c) OP(=) OP([) NUMBER(1) OP(}) NEWLINE EOF");
    mt_ctx_free(l.c);

    l = lex("x = f(a,\n      [b,\ny = 1\n");
    ck_assert_str_eq(diags(&l), "E0106 2:7-2:8 '[' was never closed\n");
    ck_assert_str_eq(toks(&l), "NAME(x) OP(=) NAME(f) OP(() NAME(a) OP(,) OP([) NAME(b) OP(,) NAME(y) OP(=) NUMBER(1) "
                               "NEWLINE EOF");
    mt_ctx_free(l.c);
}
END_TEST

/* ---- scale ------------------------------------------------------------------ */

/* 10,000 lines of kernel-like code lex completely and without a
 * diagnostic. How fast, and with how much memory per source byte, is
 * bench/source_bench's job (docs/benchmarks.md): no timing here. */
START_TEST(ten_thousand_lines_lex_completely)
{
    static const char unit[] =
        "    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # where\n"
        "    mask = (offsets < n) & (offsets >= 0)\n"
        "    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)\n"
        "    s = f\"{x!r:>10}\" + 'text' + \"\"\"doc\"\"\"\n"
        "    if x:\n"
        "        y = [1_000, 0x1F, 1e-3, 2.5j]\n"
        "\n"
        "def k(a, b):\n"
        "    return a ** b // 3\n"
        "    pass\n";
    size_t n = sizeof unit - 1, lines = 10000 / 10;
    char *src = malloc(n * lines + 1);
    for (size_t i = 0; i < lines; i++)
        memcpy(src + i * n, unit, n);
    src[n * lines] = 0;
    Lexed l = lexn(src, n * lines);
    ck_assert_uint_eq(mt_diag_count(l.c), 0);
    ck_assert_uint_eq(l.t.n, lines * 99 + 3); /* + the first INDENT, the last DEDENT, EOF */
    mt_ctx_free(l.c);
    free(src);
}
END_TEST

static Suite *lexer_suite(void)
{
    Suite *s = suite_create("lexer");
    TCase *tc = tcase_create("lexer");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, simple_statement_tokens_and_spans);
    tcase_add_test(tc, byte_order_mark_is_skipped);
    tcase_add_test(tc, empty_and_comment_only_files);
    tcase_add_test(tc, keywords_and_soft_keywords);
    tcase_add_test(tc, every_operator_round_trips);
    tcase_add_test(tc, operators_longest_match);
    tcase_add_test(tc, utf8_identifiers);
    tcase_add_test(tc, indent_and_dedent);
    tcase_add_test(tc, dedent_several_levels_and_at_eof);
    tcase_add_test(tc, unindent_mismatch_is_E0104_once);
    tcase_add_test(tc, tabs_advance_to_multiples_of_8);
    tcase_add_test(tc, brackets_join_lines);
    tcase_add_test(tc, backslash_continuation);
    tcase_add_test(tc, crlf_and_cr_line_ends);
    tcase_add_test(tc, comments_are_recorded_not_tokens);
    tcase_add_test(tc, numbers);
    tcase_add_test(tc, integer_overflow_is_flagged_not_reported);
    tcase_add_test(tc, number_errors);
    tcase_add_test(tc, numbers_next_to_other_tokens);
    tcase_add_test(tc, string_prefixes);
    tcase_add_test(tc, string_escapes);
    tcase_add_test(tc, invalid_escapes_are_E0107);
    tcase_add_test(tc, triple_quoted_strings);
    tcase_add_test(tc, fstrings_nested_quotes_and_specs);
    tcase_add_test(tc, unterminated_single_quoted_string);
    tcase_add_test(tc, unterminated_string_ends_its_logical_line);
    tcase_add_test(tc, unterminated_triple_quoted_string);
    tcase_add_test(tc, fstring_field_never_closed);
    tcase_add_test(tc, invalid_characters_are_E0101);
    tcase_add_test(tc, bracket_errors);
    tcase_add_test(tc, ten_thousand_lines_lex_completely);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lexer_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
