/* expr.c: expression-tree nodes and the printed form of constants. */
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

MtExpr *mt_expr_op(MtCtx *c, MtExprProgram *p, MtOpcode op, MtSpan span, uint32_t inl, uint32_t nargs)
{
    MtExpr *e = mt_expr_new(c, p, EX_OP, span, inl, nargs);
    e->op = (uint16_t)op;
    e->attr.axis = MT_AXIS_NONE;
    return e;
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
