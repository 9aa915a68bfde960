/* lower_shape.c: shape operations and compiler hints in the fast lowering.
 *
 * Most move no data: expand_dims and permute (tl.trans) relabel the
 * registers a thread already holds (the layout gains a size-1 dimension,
 * or its basis vectors swap components); broadcast_to copies registers
 * from the operand read in the projection of the result's layout; the
 * hints (tl.multiple_of, max_contiguous, max_constancy) pass their operand
 * through (axis.c reads their facts). Only reshape moves elements
 * between threads: through the shared pool, element i of the row-major
 * order of the operand becoming element i of the result's. */
#include "lower.h"

static bool is_hint(int op) { return mt_op_class(op) == OC_HINT; }

bool lw_shape_cheap(const Lw *L, const MtInst *in)
{
    MtVal x = in->args[0];
    bool cheap_operand = L->cheap[x] || L->f->vals[x].kind == VK_CONST ||
                         mt_val_ty(L->f, x)->kind != TY_BLOCK;
    switch (in->op) {
    case OP_EXPAND_DIMS:
    case OP_PERMUTE:
    case OP_BROADCAST: return cheap_operand;
    default: return is_hint(in->op) && cheap_operand;
    }
}

/* The layout the operand of a permute is read in for a result in ll. */
static MtLinear unpermute(const MtInst *in, const MtLinear *ll)
{
    int8_t inverse[MT_LL_MAX_RANK];
    for (int d = 0; d < in->attr.rank; d++)
        inverse[in->attr.shape[d]] = (int8_t)d;
    return mt_ll_permute(ll, inverse);
}

const MtLinear *lw_shape_home(Lw *L, const MtInst *in)
{
    const MtLinear *x = L->home[in->args[0]];
    if (!x)
        return lw_default_layout(L, in->ty);
    switch (in->op) {
    case OP_EXPAND_DIMS: return lw_layout(L, mt_ll_expand(x, in->attr.axis));
    case OP_PERMUTE: {
        int8_t order[MT_LL_MAX_RANK];
        for (int d = 0; d < in->attr.rank; d++)
            order[d] = (int8_t)in->attr.shape[d];
        return lw_layout(L, mt_ll_permute(x, order));
    }
    default: return is_hint(in->op) ? x : lw_default_layout(L, in->ty);
    }
}

LVal lw_shape(Lw *L, const MtInst *in, const MtLinear *ll)
{
    MtVal x = in->args[0];
    const MtType *xt = mt_val_ty(L->f, x);
    LVal r;
    switch (in->op) {
    case OP_EXPAND_DIMS:
        r = lw_get(L, x, lw_layout(L, mt_ll_slice(ll, in->attr.axis)));
        break;
    case OP_PERMUTE:
        r = lw_get(L, x, lw_layout(L, unpermute(in, ll)));
        break;
    case OP_BROADCAST: {
        if (xt->kind != TY_BLOCK)
            return lw_get(L, x, NULL);
        LVal src = lw_get(L, x, lw_layout(L, mt_ll_project(ll, xt->rank, xt->shape)));
        if (src.kind == LV_UNIFORM)
            return src;
        r = lw_new_regs(L, lw_dtype(in->ty), ll, "v");
        r.base = src.base;
        for (uint32_t k = 0; k < mt_ll_nregs(ll); k++)
            k_set(&L->b, r.regs, k_int(L->c, MT_DT_I32, k), lw_elem(L, &src, ll, k));
        return r;
    }
    case OP_RESHAPE: {
        LVal src = lw_get_any(L, x);
        if (src.kind == LV_UNIFORM)
            return src;
        r = lw_convert(L, &src, ll, lw_dtype(in->ty));
        r.base = src.base;
        return r;
    }
    default:   /* hints */
        return lw_get(L, x, xt->kind == TY_BLOCK ? ll : NULL);
    }
    if (r.kind == LV_REGS)
        r.ll = ll;
    return r;
}
