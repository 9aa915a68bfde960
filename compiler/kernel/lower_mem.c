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

LVal lw_operand(Lw *L, const MtInst *in, uint32_t i, const MtLinear *ll)
{
    const MtType *t = mt_val_ty(L->f, in->args[i]);
    const MtLinear *as = ll && is_block(t) ? lw_layout(L, mt_ll_project(ll, t->rank, t->shape)) : NULL;
    return lw_get(L, in->args[i], as);
}

/* How many consecutive registers of ll (from register 0 up) hold
 * consecutive elements along the last dimension. */
static uint32_t register_run(const MtLinear *ll)
{
    int last = ll->rank - 1;
    uint32_t run = 1;
    for (int i = 0; i < ll->nreg; i++) {
        bool along = ll->reg[i][last] == (int32_t)run;
        for (int d = 0; d < last; d++)
            along &= ll->reg[i][d] == 0;
        if (!along)
            break;
        run *= 2;
    }
    return run;
}

uint32_t lw_vector_width(Lw *L, const MtLinear *ll, uint32_t esize, MtVal p, MtVal mask, MtVal other,
                         const MtType *shape)
{
    if (!ll || !ll->rank)
        return 1;
    int last = ll->rank - 1;
    uint32_t v = register_run(ll);
    while (v > 1 && v * esize > 16)
        v /= 2;
    int32_t contig = L->axis[p].contig[last], align = L->axis[p].div[last];
    const MtType *pt = mt_val_ty(L->f, p);
    if (pt->kind != TY_BLOCK || pt->rank != shape->rank || pt->shape[last] != shape->shape[last])
        return 1;
    while (v > 1 && ((int32_t)v > contig || align < (int32_t)(v * esize)))
        v /= 2;
    MtVal also[2] = {mask, other};
    for (int i = 0; i < 2; i++)
        if (also[i] && L->f->vals[also[i]].kind != VK_CONST) {
            const MtType *t = mt_val_ty(L->f, also[i]);
            int32_t k = t->kind == TY_BLOCK && t->rank == shape->rank ? L->axis[also[i]].cnst[last] : 1 << 30;
            if (t->kind == TY_BLOCK && t->rank == shape->rank && t->shape[last] == 1)
                k = 1 << 30;
            while (v > 1 && (int32_t)v > k)
                v /= 2;
        }
    return v;
}

void lw_load(Lw *L, const MtInst *in)
{
    if (L->tile_of[in->dst]) {
        lw_pipe_load(L, in);
        return;
    }
    MtCtx *c = L->c;
    MtDtype dt = lw_dtype(in->ty);
    const MtLinear *ll = is_block(in->ty) ? L->home[in->dst] : NULL;
    LVal ptr = lw_operand(L, in, 0, ll);
    LVal mask = in->args[1] ? lw_operand(L, in, 1, ll) : (LVal){0};
    LVal other = in->args[2] ? lw_operand(L, in, 2, ll) : (LVal){0};
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
    uint32_t vec = lw_vector_width(L, ll, mt_dtype_info(dt)->size, in->args[0], in->args[1], in->args[2], in->ty);
    if (vec > 1 && ptr.kind == LV_REGS) {
        for (uint32_t k = 0; k < mt_ll_nregs(ll); k += vec) {
            const KExpr **others = NULL;
            if (in->args[2]) {
                others = mt_arena_alloc(&c->arena, vec * sizeof *others);
                for (uint32_t i = 0; i < vec; i++)
                    others[i] = k_cast(c, dt, lw_elem(L, &other, ll, k + i));
            }
            k_vload(&L->b, r.regs, k, ptr.base, lw_elem(L, &ptr, ll, k), (int)vec,
                    in->args[1] ? lw_elem(L, &mask, ll, k) : NULL, others);
        }
        L->val[in->dst] = r;
        return;
    }
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

/* Whether v is what a loop's CUDA-core tl.dot accumulated (acc =
 * tl.dot(a, b, acc), or acc + tl.dot(a, b)), held in the registers the
 * loop carried. Stored as vectors, those registers must sit in aligned
 * quads through the whole loop, which ptxas then schedules worse: the
 * tutorial's fp32 4096^3 ran 43.4 TFLOP/s with 16-byte stores from them
 * against 45.2 with 4-byte ones (H200, one run). */
static bool cuda_core_accumulator(Lw *L, MtVal v)
{
    const MtValue *x = &L->f->vals[v];
    if (x->kind != VK_RESULT || !x->def || x->def->op != OP_FOR)
        return false;
    const MtForData *l = x->def->loop;
    const MtInst *d = L->def[l->body.v[l->body.n - 1]->args[x->index]];
    if (d && d->op == OP_ADD)
        for (int i = 0; i < 2 && d->op != OP_DOT; i++)
            if (L->def[d->args[i]] && L->def[d->args[i]]->op == OP_DOT)
                d = L->def[d->args[i]];
    MtDtype half;
    return d && d->op == OP_DOT && !lw_dot_on_tensor_cores(L, d, &half);
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
    LVal ptr = lw_operand(L, in, 0, ll), val = lw_operand(L, in, 1, ll);
    LVal mask = in->args[2] ? lw_operand(L, in, 2, ll) : (LVal){0};
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
    uint32_t vec = ll && !cuda_core_accumulator(L, in->args[1])
                       ? lw_vector_width(L, ll, mt_dtype_info(dt)->size, in->args[0], in->args[2], 0, shape)
                       : 1;
    if (vec > 1 && ptr.kind == LV_REGS) {
        /* the values, converted, in registers of the store's layout */
        LVal v = val;
        if (val.kind != LV_REGS || !mt_ll_equal(val.ll, ll) || lw_dtype(mt_val_ty(f, in->args[1])) != dt) {
            v = lw_new_regs(L, dt, ll, "v");
            for (uint32_t k = 0; k < n; k++)
                k_set(&L->b, v.regs, k_int(c, MT_DT_I32, k), k_cast(c, dt, lw_elem(L, &val, ll, k)));
        }
        for (uint32_t k = 0; k < n; k += vec)
            k_vstore(&L->b, ptr.base, lw_elem(L, &ptr, ll, k), v.regs, k, (int)vec,
                     in->args[2] ? lw_elem(L, &mask, ll, k) : NULL);
    } else {
        for (uint32_t k = 0; k < n; k++) {
            const KExpr *m = in->args[2] ? lw_elem(L, &mask, ll, k) : NULL;
            k_store(&L->b, ptr.base, lw_elem(L, &ptr, ll, k), k_cast(c, dt, lw_elem(L, &val, ll, k)), m, 1);
        }
    }
    L->b.block = outer;
}
