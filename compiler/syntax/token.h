/* token.h: Python 3 tokens. The lexer turns a whole file into these, with
 * NEWLINE / INDENT / DEDENT for the block structure, exactly as CPython's
 * tokenizer does (comments and blank lines produce no tokens; comments are
 * kept in a side list for `# mytriton:` directives). */
#ifndef MT_TOKEN_H
#define MT_TOKEN_H

#include <stdbool.h>
#include <stdint.h>

#include "mytriton/mytriton.h"

typedef enum MtTokKind {
    TK_EOF,
    TK_NEWLINE,
    TK_INDENT,
    TK_DEDENT,
    TK_NAME,                  /* identifiers and keywords (see kw) */
    TK_NUMBER,                /* int, float or imaginary literal */
    TK_STRING,                /* one string literal (adjacent ones are separate tokens) */
    TK_OP,                    /* operators and delimiters (see op) */
    TK_ERROR,                 /* a bad character; the lexer already reported it */
} MtTokKind;

/* Keywords (and the soft keywords we care about), for TK_NAME. */
typedef enum MtKw {
    KW_NONE_ = 0,             /* not a keyword */
    KW_FALSE, KW_NONE, KW_TRUE, KW_AND, KW_AS, KW_ASSERT, KW_ASYNC, KW_AWAIT,
    KW_BREAK, KW_CLASS, KW_CONTINUE, KW_DEF, KW_DEL, KW_ELIF, KW_ELSE,
    KW_EXCEPT, KW_FINALLY, KW_FOR, KW_FROM, KW_GLOBAL, KW_IF, KW_IMPORT,
    KW_IN, KW_IS, KW_LAMBDA, KW_NONLOCAL, KW_NOT, KW_OR, KW_PASS, KW_RAISE,
    KW_RETURN, KW_TRY, KW_WHILE, KW_WITH, KW_YIELD,
} MtKw;

/* Operators and delimiters, for TK_OP. */
typedef enum MtOp {
    OP_NONE_ = 0,
    OP_LPAR, OP_RPAR, OP_LSQB, OP_RSQB, OP_LBRACE, OP_RBRACE,
    OP_COLON, OP_COMMA, OP_SEMI, OP_PERIOD, OP_ELLIPSIS, OP_ARROW, OP_AT, OP_WALRUS,
    OP_PLUS, OP_MINUS, OP_STAR, OP_SLASH, OP_DSLASH, OP_PERCENT, OP_DSTAR,
    OP_AMP, OP_VBAR, OP_CARET, OP_TILDE, OP_LSHIFT, OP_RSHIFT,
    OP_LT, OP_GT, OP_LE, OP_GE, OP_EQ, OP_NE,
    OP_ASSIGN,
    /* augmented assignments: OP_PLUS_EQ - OP_PLUS == OP_xxx_EQ - OP_xxx is not assumed */
    OP_PLUS_EQ, OP_MINUS_EQ, OP_STAR_EQ, OP_SLASH_EQ, OP_DSLASH_EQ, OP_PERCENT_EQ,
    OP_DSTAR_EQ, OP_AMP_EQ, OP_VBAR_EQ, OP_CARET_EQ, OP_LSHIFT_EQ, OP_RSHIFT_EQ, OP_AT_EQ,
    OP_COUNT_
} MtOp;

typedef struct MtToken {
    uint8_t kind;             /* MtTokKind */
    uint8_t kw;               /* MtKw for TK_NAME */
    uint8_t op;               /* MtOp for TK_OP */
    uint8_t num_kind;         /* TK_NUMBER: 0 int, 1 float, 2 imaginary */
    bool int_overflow;        /* TK_NUMBER int that does not fit int64 */
    bool fstring;             /* TK_STRING with an f prefix */
    bool bytes;               /* TK_STRING with a b prefix */
    MtSpan span;
    const char *text;         /* source text of the token (arena copy), NAME spelled here */
    uint32_t len;
    int64_t ival;             /* TK_NUMBER int */
    double fval;              /* TK_NUMBER float (and int, converted) */
    const char *str;          /* TK_STRING: decoded value (escapes applied; f-strings raw) */
    uint32_t str_len;
} MtToken;

typedef struct MtComment {
    MtSpan span;
    const char *text;         /* without the leading '#' */
    bool own_line;            /* nothing but whitespace before it on its line */
} MtComment;

const char *mt_op_text(MtOp op);
const char *mt_kw_text(MtKw kw);

#endif
