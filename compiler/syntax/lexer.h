/* lexer.h: tokenise a whole file as Python 3. */
#ifndef MT_LEXER_H
#define MT_LEXER_H

#include "base/ctx.h"
#include "token.h"

typedef struct MtTokens {
    MtToken *v;
    uint32_t n;               /* includes the final TK_EOF */
    MtComment *comments;
    uint32_t ncomments;
} MtTokens;

/* Tokenise file `file` (registered with mt_ctx_add_file). Errors become
 * E01xx diagnostics; the token stream is always complete (TK_ERROR marks a
 * bad character, an unterminated string still yields a TK_STRING) and ends
 * with NEWLINE, DEDENTs and EOF as CPython's does. */
MtTokens mt_lex(MtCtx *c, uint32_t file);

#endif
