/* lower_atomic.c: tl.atomic_add / max / min / and / or / xor / xchg / cas
 * and tl.debug_barrier in the fast lowering.
 *
 * Every element of a block atomic is one atomic operation (KST_ATOMIC),
 * done by the thread that owns the element in the result's layout: of
 * the threads holding copies, the one whose broadcast lane and warp bits
 * are clear, as for stores. A scalar atomic (a scalar pointer) is done by
 * the program's first thread only: a spin lock taken by every thread of
 * a program would deadlock it. Masked-off elements touch nothing and give
 * 0, as on the interpreter. Where the result is used and other threads
 * hold copies of it (a replicated layout, a scalar), the owners write the
 * old values to shared memory and every thread reads its copies after a
 * barrier, so `while tl.atomic_cas(lock, 0, 1) == 1` tests the same value
 * in every thread of the program.
 *
 * Ordering. Each atomic carries its sem and scope to the backends (PTX
 * atom.sem.scope). Because one thread acts for the program (a scalar) or
 * for the elements it owns, the program's other threads are ordered
 * around it by barriers, as Triton's lowering does: a releasing atomic
 * (acq_rel, release) follows a barrier, so the accesses every thread made
 * before it happen before the release; an acquiring one (acq_rel,
 * acquire) is followed by a barrier, so every thread's later accesses
 * happen after the acquire (in PTX's memory model a barrier synchronises
 * the threads that meet at it, and causality order is transitive through
 * it and through the atomic's release and acquire). The layer-norm
 * backward's lock is then correct: the partial sums all threads store
 * before tl.atomic_xchg(lock, 0) are seen by the next program to take it.
 *
 * Dtypes. The language admits what Triton admits (mt_atomic_refusal);
 * this lowering maps each to one PTX atom: add on 32- and 64-bit
 * integers, f32, f64, f16 and bf16 (atom.add.noftz); max, min, and, or,
 * xor, xchg on 32- and 64-bit integers; cas on 16-, 32- and 64-bit
 * elements. Floats other than in add are integer views: xchg and cas
 * exchange bits, and max / min follow Triton (and the interpreter): a
 * value whose sign bit is clear is a signed max (min) of the bits, one
 * whose sign bit is set an unsigned min (max), two masked atomics of
 * which one acts. What the target lacks is E0603 naming the pair.
 *
 * requires: the result's home (lw_atomic_home) planned. */
#include "lower.h"

#include <string.h>

static bool is_block(const MtType *t) { return t && t->kind == TY_BLOCK; }

/* A barrier, unless the statement before is one (tl.debug_barrier before
 * a releasing atomic, as in the layer-norm backward). */
static void barrier(Lw *L)
{
    const KBlock *b = L->b.block;
    if (!b->n || b->v[b->n - 1]->kind != KST_BARRIER)
        k_barrier(&L->b);
}

static MtDtype pointee(const Lw *L, const MtInst *in)
{
    return (MtDtype)mt_ty_elem(mt_val_ty(L->f, in->args[0]))->elem->dtype;
}

static bool is_float(MtDtype dt) { return mt_dtype_info(dt)->cls == MT_DC_FLOAT; }

/* The integer of dt's width, signed or not. */
static MtDtype int_view(MtDtype dt, bool sign)
{
    switch (mt_dtype_info(dt)->size) {
    case 2: return sign ? MT_DT_I16 : MT_DT_U16;
    case 4: return sign ? MT_DT_I32 : MT_DT_U32;
    default: return sign ? MT_DT_I64 : MT_DT_U64;
    }
}

const char *lw_atomic_refusal(Lw *L, const MtInst *in)
{
    MtDtype dt = pointee(L, in);
    const char *why = NULL;
    if (L->sm < 70)
        why = "sm_70 or newer (PTX atom with memory semantics)";
    else if (in->op == OP_ATOMIC_ADD && dt == MT_DT_BF16 && L->sm < 90)
        why = "sm_90 or newer (atom.add.noftz.bf16)";
    if (!why)
        return NULL;
    return mt_sprintf(L->c, " on %s memory needs %s; this compile targets sm_%d", mt_dtype_info(dt)->ir, why, L->sm);
}

/* The layout an atomic runs in: a value operand's home of the result's
 * shape, else the pointer's, else the default of the shape. */
const MtLinear *lw_atomic_home(Lw *L, const MtInst *in)
{
    static const uint32_t prefer[] = {1, 2, 0};
    for (uint32_t k = 0; k < 3; k++) {
        MtVal v = in->args[prefer[k]];
        const MtType *t = v ? mt_val_ty(L->f, v) : NULL;
        if (v && L->home[v] && is_block(t) && t->rank == in->ty->rank &&
            !memcmp(t->shape, in->ty->shape, sizeof t->shape))
            return L->home[v];
    }
    int esize = (int)mt_dtype_info(pointee(L, in))->size;
    return lw_layout(L, mt_ll_default(in->ty->rank, in->ty->shape, esize, L->warps));
}

static bool used_in(const MtRegion *r, MtVal v)
{
    for (uint32_t i = 0; i < r->n; i++) {
        const MtInst *in = r->v[i];
        for (uint32_t k = 0; k < in->nargs; k++)
            if (in->args[k] == v)
                return true;
        for (uint32_t k = 0; k < mt_inst_nregions(in); k++)
            if (used_in(mt_inst_region((MtInst *)in, k), v))
                return true;
    }
    return false;
}

/* n values of dt: a register array under ll, or a local when ll is NULL. */
typedef struct Vals {
    KVarId var;
    const MtLinear *ll;
} Vals;

static Vals storage(Lw *L, MtDtype dt, const MtLinear *ll, const char *prefix)
{
    Vals s = {k_var(L->c, L->kf, ll ? KV_REGS : KV_LOCAL, dt, ll ? mt_ll_nregs(ll) : 0, lw_name(L, prefix)), ll};
    k_decl(&L->b, s.var, NULL);
    return s;
}

static const KExpr *slot_index(Lw *L, const Vals *s, uint32_t k)
{
    return s->ll ? k_int(L->c, MT_DT_I32, k) : NULL;
}

static const KExpr *slot(Lw *L, const Vals *s, uint32_t k)
{
    return s->ll ? k_elem(L->c, L->kf, s->var, slot_index(L, s, k)) : k_ref(L->c, L->kf, s->var);
}

/* One element's operands, and the atomic's common fields. */
typedef struct Elem {
    KVarId ptr;
    const KExpr *index, *value, *cmp, *mask;
    const MtInst *in;
} Elem;

static void emit(Lw *L, const Elem *e, int op, MtDtype dt, const KExpr *value, const KExpr *cmp, const KExpr *mask,
                 const Vals *dst, uint32_t k)
{
    KAtomic a = {.ptr = e->ptr, .dst = dst->var, .index = e->index, .value = value, .cmp = cmp, .mask = mask,
                 .dst_index = slot_index(L, dst, k), .op = (uint16_t)op, .dt = (uint8_t)dt,
                 .sem = e->in->attr.sem, .scope = e->in->attr.scope};
    k_atomic(&L->b, &a);
}

/* Element k of the result, in res: one atomic, or for float max / min two
 * of the integer views, one per sign of the value. */
static void element(Lw *L, const Elem *e, MtDtype pdt, const Vals *res, uint32_t k, Vals views[2])
{
    MtCtx *c = L->c;
    int op = e->in->op;
    if (!is_float(pdt) || op == OP_ATOMIC_ADD) {
        emit(L, e, op, pdt, e->value, e->cmp, e->mask, res, k);
        return;
    }
    MtDtype sdt = int_view(pdt, true), udt = int_view(pdt, false);
    if (op == OP_ATOMIC_XCHG || op == OP_ATOMIC_CAS) {
        emit(L, e, op, udt, k_bitcast(c, udt, e->value), e->cmp ? k_bitcast(c, udt, e->cmp) : NULL, e->mask,
             &views[1], k);
        k_set(&L->b, res->var, slot_index(L, res, k), k_bitcast(c, pdt, slot(L, &views[1], k)));
        return;
    }
    /* max: signed max where the sign bit is clear, unsigned min where set;
     * min the other way round */
    const KExpr *bits = k_bitcast(c, sdt, e->value);
    const KExpr *neg = k_op(c, K_LT, sdt, bits, k_int(c, sdt, 0), NULL);
    const KExpr *pos = k_op(c, K_LNOT, MT_DT_I1, neg, NULL, NULL);
    bool max = op == OP_ATOMIC_MAX;
    emit(L, e, max ? OP_ATOMIC_MAX : OP_ATOMIC_MIN, sdt, bits, NULL,
         e->mask ? k_op(c, K_LAND, MT_DT_I1, e->mask, pos, NULL) : pos, &views[0], k);
    emit(L, e, max ? OP_ATOMIC_MIN : OP_ATOMIC_MAX, udt, k_bitcast(c, udt, e->value), NULL,
         e->mask ? k_op(c, K_LAND, MT_DT_I1, e->mask, neg, NULL) : neg, &views[1], k);
    const KExpr *old = k_op(c, K_SELECT, sdt, neg, k_bitcast(c, sdt, slot(L, &views[1], k)), slot(L, &views[0], k));
    k_set(&L->b, res->var, slot_index(L, res, k), k_bitcast(c, pdt, old));
}

/* The owners' old values to every thread holding copies, through the
 * shared pool (a barrier before the atomics began this use of it). */
static void share(Lw *L, const Vals *res, MtDtype dt, const KExpr *own)
{
    MtCtx *c = L->c;
    const MtLinear *ll = res->ll;
    uint32_t n = ll ? mt_ll_nregs(ll) : 1, numel = 1;
    for (int d = 0; ll && d < ll->rank; d++)
        numel *= (uint32_t)ll->shape[d];
    const KExpr *base;
    KVarId sm = lw_shared(L, dt, numel, "atom_smem", &base);
    KStmt *s = k_stmt(&L->b, KST_IF);
    s->u.if_.cond = own;
    KBlock *outer = L->b.block;
    L->b.block = &s->u.if_.then;
    for (uint32_t k = 0; k < n; k++)
        k_set(&L->b, sm, k_add(c, base, ll ? lw_position(L, ll, k) : k_int(c, MT_DT_I32, 0)), slot(L, res, k));
    L->b.block = outer;
    k_barrier(&L->b);
    for (uint32_t k = 0; k < n; k++)
        k_set(&L->b, res->var, slot_index(L, res, k),
              k_elem(c, L->kf, sm, k_add(c, base, ll ? lw_position(L, ll, k) : k_int(c, MT_DT_I32, 0))));
}

void lw_atomic(Lw *L, const MtInst *in)
{
    MtCtx *c = L->c;
    MtDtype pdt = pointee(L, in);
    const MtLinear *ll = is_block(in->ty) ? L->home[in->dst] : NULL;
    bool cas = in->op == OP_ATOMIC_CAS;
    /* operands first: fetching them may convert layouts through the pool */
    LVal ptr = lw_operand(L, in, 0, ll);
    LVal val = lw_operand(L, in, cas ? 2 : 1, ll);
    LVal cmp = cas ? lw_operand(L, in, 1, ll) : (LVal){0};
    LVal mask = !cas && in->args[2] ? lw_operand(L, in, 2, ll) : (LVal){0};
    const KExpr *own = ll ? lw_owner(L, ll)
                          : k_op(c, K_LAND, MT_DT_I1, k_op(c, K_EQ, MT_DT_I32, L->lane, k_int(c, MT_DT_I32, 0), NULL),
                                 k_op(c, K_EQ, MT_DT_I32, L->warp, k_int(c, MT_DT_I32, 0), NULL), NULL);
    MtMemSem sem = (MtMemSem)in->attr.sem;
    bool releases = sem == MT_SEM_ACQ_REL || sem == MT_SEM_RELEASE;
    bool acquires = sem == MT_SEM_ACQ_REL || sem == MT_SEM_ACQUIRE;
    bool shared = own && in->dst && used_in(&L->f->body, in->dst);
    if (shared)
        lw_scratch_begin(L);
    if (releases || shared)
        barrier(L);
    Vals res = storage(L, pdt, ll, ll ? "v" : "s");
    Vals views[2] = {{0}};
    if (is_float(pdt) && in->op != OP_ATOMIC_ADD) {
        if (in->op == OP_ATOMIC_MAX || in->op == OP_ATOMIC_MIN)
            views[0] = storage(L, int_view(pdt, true), ll, "atom");
        views[1] = storage(L, int_view(pdt, false), ll, "atom");
    }
    uint32_t n = ll ? mt_ll_nregs(ll) : 1;
    for (uint32_t k = 0; k < n; k++) {
        Elem e = {.ptr = ptr.base, .in = in};
        e.index = lw_elem(L, &ptr, ll, k);
        e.value = k_cast(c, pdt, lw_elem(L, &val, ll, k));
        e.cmp = cas ? k_cast(c, pdt, lw_elem(L, &cmp, ll, k)) : NULL;
        e.mask = mask.kind ? k_cast(c, MT_DT_I1, lw_elem(L, &mask, ll, k)) : NULL;
        if (own)
            e.mask = e.mask ? k_op(c, K_LAND, MT_DT_I1, own, e.mask, NULL) : own;
        element(L, &e, pdt, &res, k, views);
    }
    if (shared)
        share(L, &res, pdt, own);
    else if (acquires)
        barrier(L);
    if (ll)
        L->val[in->dst] = (LVal){.kind = LV_REGS, .regs = res.var, .ll = ll};
    else
        L->val[in->dst] = (LVal){.kind = LV_UNIFORM, .u = k_ref(c, L->kf, res.var)};
}

/* tl.debug_barrier: every thread of the program waits for the others. */
void lw_debug_barrier(Lw *L) { barrier(L); }
