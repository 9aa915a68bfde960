/* expr.c: expression-tree nodes and the printed form of constants. */
#include "expr.h"

#include <inttypes.h>
#include <math.h>
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
    case CST_UINT:
        mt_buf_printf(b, "%" PRIu64, (uint64_t)k.i);
        return;
    case CST_FLOAT: {
        char s[32];
        mt_format_pyfloat(s, k.f);
        mt_buf_puts(b, s);
        return;
    }
    }
}

const MtType *mt_const_natural_type(MtConst k)
{
    switch ((MtConstKind)k.kind) {
    case CST_BOOL: return &mt_ty_bool;
    case CST_INT:
        if (k.i >= INT32_MIN && k.i <= INT32_MAX)
            return &mt_ty_i32;
        return mt_ty_scalar(k.i > 0 && k.i <= (int64_t)UINT32_MAX ? MT_DT_U32 : MT_DT_I64);
    case CST_UINT: return mt_ty_scalar(MT_DT_U64);
    case CST_FLOAT: {
        double a = fabs(k.f);
        bool f32 = isinf(a) || a == 0 || isnan(a) || (a >= 0x1p-126 && a <= (2 - 0x1p-23) * 0x1p127);
        return f32 ? &mt_ty_f32 : mt_ty_scalar(MT_DT_F64);
    }
    }
    return &mt_ty_i32;
}

bool mt_attrs_equal(const MtAttrs *a, const MtAttrs *b)
{
    return a->axis == b->axis && a->start == b->start && a->end == b->end && a->rank == b->rank &&
           !memcmp(a->shape, b->shape, sizeof a->shape) && a->dtype == b->dtype && a->mode == b->mode &&
           a->flags == b->flags && a->sem == b->sem && a->scope == b->scope &&
           (a->text == b->text || (a->text && b->text && !strcmp(a->text, b->text)));
}
