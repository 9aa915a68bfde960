/* lower.c: the typed expression tree -> typed SSA.
 *
 * Lowering walks the roots (stores and runtime loops) in program order and
 * lowers each depth-first, operands left to right, memoised per node, so a
 * value shared by several uses is lowered once, where it is first needed.
 * This order is what numbers the SSA values, and it reproduces the seed
 * documents' listings exactly:
 *   - binary ops lower lhs then rhs; loads lower pointer, mask, other;
 *   - a store lowers its VALUE first, then its pointer, then its mask;
 *   - a runtime loop lowers start, stop and the initial carried values,
 *     then the outer values its body captures, then numbers its induction
 *     variable and region arguments, lowers its body (the body's roots,
 *     then the yielded values), and numbers its results last.
 *
 * Memory order: loads are not roots, so a load whose value is only used
 * after a later store would otherwise be lowered after that store and
 * read the stored value. Before each root, loads created earlier in
 * program order that the root does not reach, but a later root does, are
 * lowered first (in creation order). Kernels whose stores come last (all
 * of the seeds' examples) are unaffected.
 *
 * A prefix analysis's kept values (prog->keep) are roots of their region
 * too, after its stores and loops; what they were lowered to becomes the
 * function's kept values (MtFunc.keep). */
#include <stdlib.h>

#include "lower.h"

enum { LOWERED = UINT32_MAX }; /* memo mark of stores and loops, which have no value */

typedef struct Low {
    MtCtx *c;
    MtExprProgram *p;
    MtFunc *f;
    MtVal *memo;              /* per expression id; LOWERED marks a lowered for */
    MtRegion *region;
    uint32_t *mark;           /* per expression id: reachability stamp */
    uint32_t stamp;
} Low;

static MtVal lower(Low *L, MtExpr *e);

static MtVal emit(Low *L, MtOpcode op, const MtExpr *e, const MtType *ty, const MtVal *args, uint32_t n)
{
    MtInst *in = mt_inst_new(L->c, L->f, L->region, op, ty, args, n, e->span, e->inl);
    return in->dst;
}

/* Pointer arithmetic: addptr base, offset (base first whatever the source
 * order); p - k becomes addptr p, -k. */
static MtVal lower_addptr(Low *L, MtExpr *e)
{
    MtVal a = lower(L, e->args[0]);
    MtVal b = lower(L, e->args[1]);
    bool ptr_left = mt_ty_is_ptr(e->args[0]->ty);
    MtVal ptr = ptr_left ? a : b, off = ptr_left ? b : a;
    if (e->op == OP_SUB) {
        MtVal na[1] = {off};
        off = emit(L, OP_NEG, e, mt_val_ty(L->f, off), na, 1);
    }
    MtVal args[2] = {ptr, off};
    return emit(L, OP_ADDPTR, e, e->ty, args, 2);
}

static void lower_roots(Low *L, const MtExprList *roots, MtExpr *const *yields, uint32_t nyields);

static void lower_loop(Low *L, MtExpr *e)
{
    MtExprLoop *l = e->u.loop;
    MtVal *ops = mt_arena_alloc(&L->c->arena, (e->nargs + 1) * sizeof *ops);
    for (uint32_t i = 0; i < e->nargs; i++)
        ops[i] = lower(L, e->args[i]);
    for (uint32_t i = 0; i < l->captures.n; i++)
        lower(L, l->captures.v[i]);
    MtInst *in = mt_for_new(L->c, L->f, L->region, ops, l->ncarried, l->step, l->dyn_step ? ops[e->nargs - 1] : 0,
                            e->span, e->inl);
    MtForData *fd = in->loop;
    L->memo[l->iv->id] = fd->iv;
    for (uint32_t i = 0; i < l->ncarried; i++)
        L->memo[l->arg[i]->id] = fd->iter_args[i];
    MtRegion *outer = L->region;
    L->region = &fd->body;
    lower_roots(L, &l->body, l->yield, l->ncarried);
    MtVal *ys = mt_arena_alloc(&L->c->arena, (l->ncarried + 1) * sizeof *ys);
    for (uint32_t i = 0; i < l->ncarried; i++)
        ys[i] = L->memo[l->yield[i]->id];
    mt_inst_new(L->c, L->f, L->region, OP_YIELD, NULL, ys, l->ncarried, e->span, e->inl);
    L->region = outer;
    mt_for_finish(L->c, L->f, in);
    for (uint32_t i = 0; i < l->ncarried; i++)
        L->memo[l->result[i]->id] = fd->results[i];
    L->memo[e->id] = LOWERED;
}

/* A nest (tl.reduce, tl.associative_scan): its operands, then its
 * region arguments, its region, and its results numbered last (as a
 * `for` numbers them). */
static void lower_nest(Low *L, MtExpr *e)
{
    MtExprNest *x = e->u.nest;
    MtVal *ops = mt_arena_alloc(&L->c->arena, (e->nargs + 1) * sizeof *ops);
    for (uint32_t i = 0; i < e->nargs; i++)
        ops[i] = lower(L, e->args[i]);
    for (uint32_t i = 0; i < x->captures.n; i++)
        lower(L, x->captures.v[i]);
    uint32_t nargs[2] = {0, 0}, total = 0;
    for (uint32_t k = 0; k < x->nbodies; k++)
        total += nargs[k] = x->body[k].nargs;
    const MtType **tys = mt_arena_alloc(&L->c->arena, (total + 1) * sizeof *tys);
    for (uint32_t k = 0, t = 0; k < x->nbodies; k++)
        for (uint32_t i = 0; i < x->body[k].nargs; i++)
            tys[t++] = x->body[k].arg[i]->ty;
    MtInst *in = mt_nest_new(L->c, L->f, L->region, (MtOpcode)e->op, ops, e->nargs, x->nbodies, nargs, tys, e->span,
                             e->inl);
    in->attr = e->attr;
    MtRegion *outer = L->region;
    for (uint32_t k = 0; k < x->nbodies; k++) {
        MtExprBody *b = &x->body[k];
        for (uint32_t i = 0; i < b->nargs; i++)
            L->memo[b->arg[i]->id] = in->nest->body[k].args[i];
        L->region = &in->nest->body[k].insts;
        lower_roots(L, &b->roots, b->yield, b->nyield);
        MtVal *ys = mt_arena_alloc(&L->c->arena, (b->nyield + 1) * sizeof *ys);
        for (uint32_t i = 0; i < b->nyield; i++)
            ys[i] = L->memo[b->yield[i]->id];
        bool cond = e->op == OP_WHILE && k == 0;
        mt_inst_new(L->c, L->f, L->region, cond ? OP_CONDITION : OP_YIELD, NULL, ys, b->nyield, e->span, e->inl);
    }
    L->region = outer;
    const MtType **rt = mt_arena_alloc(&L->c->arena, (x->nresults + 1) * sizeof *rt);
    for (uint32_t i = 0; i < x->nresults; i++)
        rt[i] = x->result[i]->ty;
    mt_nest_finish(L->c, L->f, in, rt, x->nresults);
    for (uint32_t i = 0; i < x->nresults; i++)
        L->memo[x->result[i]->id] = in->nest->results[i];
    L->memo[e->id] = LOWERED;
}

/* An EX_OP node: its operands left to right (a store's value first, as
 * the seeds number it), then the instruction with the node's attributes. */
static MtVal lower_op(Low *L, MtExpr *e)
{
    if (mt_op_class(e->op) == OC_ARITH && mt_ty_is_ptr(e->ty))
        return lower_addptr(L, e);
    MtVal fixed[3] = {0};
    MtVal *a = e->nargs > 3 ? mt_arena_alloc(&L->c->arena, e->nargs * sizeof *a) : fixed; /* device_print */
    if (e->op == OP_STORE) {
        a[1] = lower(L, e->args[1]);
        a[0] = lower(L, e->args[0]);
        a[2] = e->args[2] ? lower(L, e->args[2]) : 0;
        mt_inst_new(L->c, L->f, L->region, OP_STORE, NULL, a, 3, e->span, e->inl);
        return LOWERED;
    }
    for (uint32_t i = 0; i < e->nargs; i++)
        a[i] = e->args[i] ? lower(L, e->args[i]) : 0;
    const MtType *ty = e->ty && e->ty->kind == TY_VOID ? NULL : e->ty; /* assume: no result */
    MtInst *in = mt_inst_new(L->c, L->f, L->region, (MtOpcode)e->op, ty, a, e->nargs, e->span, e->inl);
    in->attr = e->attr;
    if (!ty)
        return LOWERED;
    if (in->attr.axis == MT_AXIS_NONE && (mt_op_class(e->op) == OC_REDUCE || mt_op_class(e->op) == OC_SCAN))
        in->attr.axis = 0; /* a rank-1 block without an axis */
    return in->dst;
}

static MtVal lower(Low *L, MtExpr *e)
{
    if (L->memo[e->id])
        return L->memo[e->id];
    MtVal v = 0;
    switch ((MtExprKind)e->kind) {
    case EX_PARAM:
    case EX_LOOP_IV:
    case EX_LOOP_ARG:
    case EX_NEST_ARG:
    case EX_KIND_COUNT_:
        /* parameters are bound at entry, loop values by their loop */
        mt_ice(L->c, e->span, "lowering met an unbound parameter or loop value");
    case EX_CONST:
        v = mt_func_const(L->c, L->f, e->u.cst, e->ty);
        break;
    case EX_OP:
        v = lower_op(L, e);
        break;
    case EX_FOR:
        lower_loop(L, e);
        return LOWERED;
    case EX_LOOP_RESULT:
        lower(L, e->u.slot.loop->node);
        return L->memo[e->id];
    case EX_NEST:
        lower_nest(L, e);
        return LOWERED;
    case EX_NEST_RESULT:
        lower(L, e->u.nslot.nest->node);
        return L->memo[e->id];
    }
    L->memo[e->id] = v;
    return v;
}

/* ---- memory order --------------------------------------------------------------------- */

/* Mark what e reaches that is not lowered yet (loop bodies excluded: their
 * nodes are created after the loop and reached only through its roots). */
static void reach(Low *L, MtExpr *e, uint32_t stamp)
{
    if (!e || L->memo[e->id] || L->mark[e->id] == stamp)
        return;
    L->mark[e->id] = stamp;
    for (uint32_t i = 0; i < e->nargs; i++)
        reach(L, e->args[i], stamp);
    if (e->kind == EX_FOR)
        for (uint32_t i = 0; i < e->u.loop->captures.n; i++)
            reach(L, e->u.loop->captures.v[i], stamp);
    if (e->kind == EX_LOOP_RESULT)
        reach(L, e->u.slot.loop->node, stamp);
    if (e->kind == EX_NEST_RESULT)
        reach(L, e->u.nslot.nest->node, stamp);
    if (e->kind == EX_NEST)
        for (uint32_t i = 0; i < e->u.nest->captures.n; i++)
            reach(L, e->u.nest->captures.v[i], stamp);
}

static void collect_loads(Low *L, MtExpr *e, uint32_t stamp, uint32_t skip, uint32_t before, MtExprList *out)
{
    if (!e || L->memo[e->id] || L->mark[e->id] == stamp || L->mark[e->id] == skip)
        return;
    L->mark[e->id] = stamp;
    if (e->kind == EX_OP && e->op == OP_LOAD && e->id < before)
        mt_expr_list_push(L->c, out, e);
    for (uint32_t i = 0; i < e->nargs; i++)
        collect_loads(L, e->args[i], stamp, skip, before, out);
    if (e->kind == EX_FOR)
        for (uint32_t i = 0; i < e->u.loop->captures.n; i++)
            collect_loads(L, e->u.loop->captures.v[i], stamp, skip, before, out);
    if (e->kind == EX_LOOP_RESULT)
        collect_loads(L, e->u.slot.loop->node, stamp, skip, before, out);
    if (e->kind == EX_NEST_RESULT)
        collect_loads(L, e->u.nslot.nest->node, stamp, skip, before, out);
    if (e->kind == EX_NEST)
        for (uint32_t i = 0; i < e->u.nest->captures.n; i++)
            collect_loads(L, e->u.nest->captures.v[i], stamp, skip, before, out);
}

static int by_id(const void *a, const void *b)
{
    uint32_t x = (*(MtExpr *const *)a)->id, y = (*(MtExpr *const *)b)->id;
    return x < y ? -1 : x > y;
}

static void flush_loads(Low *L, const MtExprList *roots, uint32_t k, MtExpr *const *yields, uint32_t nyields)
{
    uint32_t here = ++L->stamp;
    reach(L, roots->v[k], here);
    uint32_t later = ++L->stamp;
    MtExprList loads = {0};
    for (uint32_t j = k + 1; j < roots->n; j++)
        collect_loads(L, roots->v[j], later, here, roots->v[k]->id, &loads);
    for (uint32_t j = 0; j < nyields; j++)
        collect_loads(L, yields[j], later, here, roots->v[k]->id, &loads);
    if (loads.n > 1)
        qsort(loads.v, loads.n, sizeof *loads.v, by_id);
    for (uint32_t i = 0; i < loads.n; i++)
        lower(L, loads.v[i]);
}

static void lower_roots(Low *L, const MtExprList *roots, MtExpr *const *yields, uint32_t nyields)
{
    for (uint32_t k = 0; k < roots->n; k++) {
        flush_loads(L, roots, k, yields, nyields);
        lower(L, roots->v[k]);
    }
    for (uint32_t i = 0; i < nyields; i++)
        lower(L, yields[i]);
}

MtFunc *mt_lower(MtCtx *c, MtExprProgram *p)
{
    Low L = {.c = c, .p = p};
    L.f = mt_func_new(c, p->kernel);
    L.memo = mt_arena_alloc(&c->arena, (p->nexprs + 1) * sizeof *L.memo);
    L.mark = mt_arena_alloc(&c->arena, (p->nexprs + 1) * sizeof *L.mark);
    L.region = &L.f->body;
    for (uint32_t i = 0; i < p->nparams; i++) {
        MtVal v = mt_func_param(c, L.f, p->params[i]->u.param.name, p->params[i]->u.param.ty);
        L.f->vals[v].div = p->params[i]->u.param.div ? p->params[i]->u.param.div : 1;
        L.memo[p->params[i]->id] = v;
    }
    lower_roots(&L, &p->roots, NULL, 0);
    for (uint32_t i = 0; i < p->keep.n; i++) {
        MtVal v = L.memo[p->keep.v[i]->id];
        if (v && v != LOWERED)
            mt_vec_push(&c->arena, &L.f->keep, v);
    }
    return L.f;
}
