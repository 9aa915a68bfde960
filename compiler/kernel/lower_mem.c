/* lower_mem.c: tl.load and tl.store in the fast lowering.
 *
 * A pointer block is the parameter it points into plus int64 element
 * offsets in registers; a load reads base[offset] for every register of
 * its layout where its mask holds (and takes `other` elsewhere, without
 * touching memory), a store writes every element once: of the threads
 * that hold the same element (a replicated layout), only the owner
 * stores. A store of a value computed elsewhere takes the value's layout,
 * so that the value stays where it is and only addresses are recomputed. */
#include <string.h>

#include "lower.h"

static bool is_block(const MtType *t) { return t && t->kind == TY_BLOCK; }

/* The operand of `in` in layout ll (projected to its shape), or uniform. */
static LVal operand(Lw *L, const MtInst *in, uint32_t i, const MtLinear *ll)
{
    const MtType *t = mt_val_ty(L->f, in->args[i]);
    const MtLinear *as = ll && is_block(t) ? lw_layout(L, mt_ll_project(ll, t->rank, t->shape)) : NULL;
    return lw_get(L, in->args[i], as);
}

void lw_load(Lw *L, const MtInst *in)
{
    MtCtx *c = L->c;
    MtDtype dt = lw_dtype(in->ty);
    const MtLinear *ll = is_block(in->ty) ? L->home[in->dst] : NULL;
    LVal ptr = operand(L, in, 0, ll);
    LVal mask = in->args[1] ? operand(L, in, 1, ll) : (LVal){0};
    LVal other = in->args[2] ? operand(L, in, 2, ll) : (LVal){0};
    const KExpr *zero = k_int(c, dt, 0);
    if (!ll) {
        const KExpr *v = k_load(c, L->kf, ptr.base, ptr.u, 1, 0);
        if (in->args[1])
            v = k_op(c, K_SELECT, dt, mask.u, v, in->args[2] ? k_cast(c, dt, other.u) : zero);
        KVarId s = k_var(c, L->kf, KV_LOCAL, dt, 0, lw_name(L, "s"));
        k_decl(&L->b, s, v);
        L->val[in->dst] = (LVal){.kind = LV_UNIFORM, .u = k_ref(c, L->kf, s)};
        return;
    }
    LVal r = lw_new_regs(L, dt, ll, "v");
    for (uint32_t k = 0; k < mt_ll_nregs(ll); k++) {
        const KExpr *v = k_load(c, L->kf, ptr.base, lw_elem(L, &ptr, ll, k), 1, 0);
        if (in->args[1])
            v = k_op(c, K_SELECT, dt, lw_elem(L, &mask, ll, k), v,
                     in->args[2] ? k_cast(c, dt, lw_elem(L, &other, ll, k)) : zero);
        k_set(&L->b, r.regs, k_int(c, MT_DT_I32, k), v);
    }
    L->val[in->dst] = r;
}

/* The layout a store runs in: its value's home when the value has the
 * store's shape, else its pointer's, else the default of the shape. */
static const MtLinear *store_layout(Lw *L, const MtInst *in, const MtType *shape)
{
    static const uint32_t prefer[] = {1, 0}; /* the value, then the pointer */
    for (uint32_t k = 0; k < 2; k++) {
        MtVal v = in->args[prefer[k]];
        const MtType *t = mt_val_ty(L->f, v);
        if (L->home[v] && is_block(t) && t->rank == shape->rank && !memcmp(t->shape, shape->shape, sizeof t->shape))
            return L->home[v];
    }
    int esize = mt_ty_info(mt_ty_elem(mt_val_ty(L->f, in->args[0]))->elem)->size;
    return lw_layout(L, mt_ll_default(shape->rank, shape->shape, esize, L->warps));
}

void lw_store(Lw *L, const MtInst *in)
{
    MtCtx *c = L->c;
    const MtFunc *f = L->f;
    MtDtype dt = (MtDtype)mt_ty_elem(mt_val_ty(f, in->args[0]))->elem->dtype;
    /* The shape every operand broadcasts to. */
    const MtType *shape = NULL;
    for (uint32_t i = 0; i < 3; i++)
        if (in->args[i] && is_block(mt_val_ty(f, in->args[i])) &&
            (!shape || mt_ty_numel(mt_val_ty(f, in->args[i])) > mt_ty_numel(shape)))
            shape = mt_val_ty(f, in->args[i]);
    const MtLinear *ll = shape ? store_layout(L, in, shape) : NULL;
    LVal ptr = operand(L, in, 0, ll), val = operand(L, in, 1, ll);
    LVal mask = in->args[2] ? operand(L, in, 2, ll) : (LVal){0};
    /* Replicated elements are stored by one thread; a scalar store by one
     * thread of the program. */
    const KExpr *own = ll ? lw_owner(L, ll) : NULL;
    if (!ll)
        own = k_op(c, K_LAND, MT_DT_I1, k_op(c, K_EQ, MT_DT_I32, L->lane, k_int(c, MT_DT_I32, 0), NULL),
                   k_op(c, K_EQ, MT_DT_I32, L->warp, k_int(c, MT_DT_I32, 0), NULL), NULL);
    uint32_t n = ll ? mt_ll_nregs(ll) : 1;
    KBlock *outer = L->b.block;
    if (own) {
        KStmt *s = k_stmt(&L->b, KST_IF);
        s->u.if_.cond = own;
        L->b.block = &s->u.if_.then;
    }
    for (uint32_t k = 0; k < n; k++) {
        const KExpr *m = in->args[2] ? lw_elem(L, &mask, ll, k) : NULL;
        k_store(&L->b, ptr.base, lw_elem(L, &ptr, ll, k), k_cast(c, dt, lw_elem(L, &val, ll, k)), m, 1);
    }
    L->b.block = outer;
}
