/* expr.c: expression-tree nodes and the names of their operators. */
#include "expr.h"

#include <inttypes.h>
#include <string.h>

MtExpr *mt_expr_new(MtCtx *c, MtExprProgram *p, MtExprKind kind, MtSpan span, uint32_t inl, uint32_t nargs)
{
    MtExpr *e = mt_arena_alloc(&c->arena, sizeof *e);
    e->kind = (uint16_t)kind;
    e->id = p->nexprs++;
    e->span = span;
    e->inl = inl;
    e->nargs = nargs;
    if (nargs)
        e->args = mt_arena_alloc(&c->arena, nargs * sizeof *e->args);
    mt_expr_list_push(c, &p->all, e);
    return e;
}

void mt_expr_list_push(MtCtx *c, MtExprList *l, MtExpr *e)
{
    mt_vec_push(&c->arena, l, e);
}

static const char *const binop_names[BIN_COUNT_] = {
    [BIN_ADD] = "add", [BIN_SUB] = "sub", [BIN_MUL] = "mul", [BIN_DIV] = "div",
    [BIN_FLOORDIV] = "floordiv", [BIN_MOD] = "mod", [BIN_AND] = "and", [BIN_OR] = "or",
    [BIN_XOR] = "xor", [BIN_LT] = "cmp_lt", [BIN_LE] = "cmp_le", [BIN_GT] = "cmp_gt",
    [BIN_GE] = "cmp_ge", [BIN_EQ] = "cmp_eq", [BIN_NE] = "cmp_ne",
    [BIN_MAXIMUM] = "maximum", [BIN_MINIMUM] = "minimum",
};

static const char *const binop_symbols[BIN_COUNT_] = {
    [BIN_ADD] = "+", [BIN_SUB] = "-", [BIN_MUL] = "*", [BIN_DIV] = "/",
    [BIN_FLOORDIV] = "//", [BIN_MOD] = "%", [BIN_AND] = "&", [BIN_OR] = "|",
    [BIN_XOR] = "^", [BIN_LT] = "<", [BIN_LE] = "<=", [BIN_GT] = ">",
    [BIN_GE] = ">=", [BIN_EQ] = "==", [BIN_NE] = "!=",
    [BIN_MAXIMUM] = "tl.maximum", [BIN_MINIMUM] = "tl.minimum",
};

const char *mt_binop_name(MtBinOp op) { return op < BIN_COUNT_ ? binop_names[op] : "?"; }
const char *mt_binop_symbol(MtBinOp op) { return op < BIN_COUNT_ ? binop_symbols[op] : "?"; }

const char *mt_unop_name(MtUnOp op)
{
    switch (op) {
    case UN_NEG: return "neg";
    case UN_NOT: return "not";
    case UN_EXP: return "exp";
    default: return "?";
    }
}

const char *mt_reduce_name(MtReduceOp op)
{
    switch (op) {
    case RED_SUM: return "sum";
    case RED_MAX: return "max";
    case RED_MIN: return "min";
    }
    return "?";
}

void mt_const_print(MtBuf *b, MtConst k)
{
    switch (k.kind) {
    case CST_BOOL:
        mt_buf_puts(b, k.i ? "true" : "false");
        return;
    case CST_INT:
        mt_buf_printf(b, "%" PRId64, k.i);
        return;
    case CST_FLOAT: {
        char s[32];
        mt_format_pyfloat(s, k.f);
        mt_buf_puts(b, s);
        return;
    }
    }
}
