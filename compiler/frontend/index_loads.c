/* index_loads.c: which untyped pointer parameters hold integers.
 *
 * Without a signature (the editor, `mytriton check`), a parameter that
 * addresses memory is taken for *fp32. Embedding, cross-entropy and
 * routing kernels load indices and use them as offsets
 * (`w = tl.load(W + tl.load(ids + offs) * stride)`) or as loop bounds; a
 * float there is never valid Triton, so such a parameter is an integer
 * pointer (*i32). This scan finds them in a first run's tree: the loads
 * whose values reach an address offset or a runtime loop's bounds through
 * integer-preserving operations (arithmetic, bitwise, shape ops, hints,
 * tl.where's values, reductions), never through a cast or a comparison,
 * where a float is legitimate. */
#include "fe.h"
#include "types/infer.h"

typedef struct Scan {
    const MtExprProgram *p;
    uint8_t *seen;            /* per node id */
    bool *ints;               /* per runtime parameter */
    bool any;
} Scan;

/* The untyped parameter a float load reads through, marked an integer pointer. */
static void mark_load(Scan *s, MtExpr *load)
{
    MtExpr *bp = mt_expr_base_param(load->args[0]);
    if (!bp || bp->u.param.index >= s->p->nparams || !s->p->inferred[bp->u.param.index])
        return;
    const MtType *t = bp->u.param.ty;
    if (t && mt_ty_is_ptr(t) && mt_ty_is_float(t->elem)) {
        s->ints[bp->u.param.index] = true;
        s->any = true;
    }
}

/* e must be an integer: so must the loads it is computed from. */
static void integer_value(Scan *s, MtExpr *e, int depth)
{
    if (!e || depth > 32 || s->seen[e->id])
        return;
    s->seen[e->id] = 1;
    if (e->kind != EX_OP)
        return;
    if (e->op == OP_LOAD) {
        mark_load(s, e);
        return;
    }
    uint32_t first = 0;
    switch (mt_op_class((MtOpcode)e->op)) {
    case OC_ARITH:
    case OC_BITWISE:
    case OC_UNARY:
    case OC_SHAPE:
    case OC_HINT:
    case OC_REDUCE:
    case OC_SCAN:
        break;
    case OC_SELECT:
        first = 1; /* the condition may compare floats */
        break;
    default:
        return;
    }
    for (uint32_t i = first; i < e->nargs; i++)
        integer_value(s, e->args[i], depth + 1);
}

/* Whether e is a pointer (or pointer block): by its type when inference
 * asked for it, else by the parameter it is computed from. */
static bool pointer(MtExpr *e)
{
    if (e->ty)
        return mt_ty_is_ptr(e->ty);
    MtExpr *bp = mt_expr_base_param(e);
    return bp && bp->u.param.ty && mt_ty_is_ptr(bp->u.param.ty);
}

/* An address: its pointer part is walked as an address, the rest is an offset. */
static void address(Scan *s, MtExpr *e, int depth)
{
    if (!e || depth > 32)
        return;
    if (e->kind == EX_OP && (e->op == OP_ADD || e->op == OP_SUB || e->op == OP_ADDPTR)) {
        for (uint32_t i = 0; i < e->nargs; i++) {
            MtExpr *a = e->args[i];
            if (pointer(a))
                address(s, a, depth + 1);
            else
                integer_value(s, a, depth + 1);
        }
    } else if (e->kind == EX_OP && (e->op == OP_EXPAND_DIMS || e->op == OP_BROADCAST || e->op == OP_RESHAPE ||
                                    mt_op_class((MtOpcode)e->op) == OC_HINT)) {
        address(s, e->args[0], depth + 1);
    } else if (e->kind == EX_OP && e->op == OP_SELECT) {
        address(s, e->args[1], depth + 1);
        address(s, e->args[2], depth + 1);
    }
}

bool *fe_index_pointers(MtCtx *c, const MtExprProgram *p)
{
    if (!p || !p->inferred || !p->nparams)
        return NULL;
    Scan s = {p, mt_arena_alloc(&c->arena, p->nexprs + 1), mt_arena_alloc(&c->arena, p->nparams * sizeof(bool)),
              false};
    for (uint32_t i = 0; i < p->all.n; i++) {
        MtExpr *e = p->all.v[i];
        if (e->kind == EX_OP && (e->op == OP_LOAD || e->op == OP_STORE ||
                                 mt_op_class((MtOpcode)e->op) == OC_ATOMIC))
            address(&s, e->args[0], 0);
        else if (e->kind == EX_FOR)
            for (uint32_t k = 0; k < 2; k++)
                integer_value(&s, e->args[k], 0);
    }
    return s.any ? s.ints : NULL;
}
