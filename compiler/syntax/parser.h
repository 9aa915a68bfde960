/* parser.h: recursive descent over Python 3, kernels only (see ast.h). */
#ifndef MT_PARSER_H
#define MT_PARSER_H

#include "ast.h"
#include "lexer.h"

/* Parse file `file` into a module. Syntax errors inside jit functions are
 * E01xx diagnostics (the parser recovers at the next statement); nothing
 * outside jit functions is ever reported except tokenizer errors. */
MtModule *mt_parse_module(MtCtx *c, uint32_t file, const MtTokens *toks);

/* Tokens [from, to) of m's token stream (host code: a launch, a decorator,
 * the right-hand side of an assignment) parsed as an expression or a bare
 * tuple, with no diagnostics at all; NULL unless they parse and cover
 * exactly that range. */
MtNode *mt_parse_host_expr(MtCtx *c, const MtModule *m, uint32_t from, uint32_t to);

#endif
