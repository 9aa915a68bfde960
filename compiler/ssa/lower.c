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
 * of the seeds' examples) are unaffected. */
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

static MtInst *emit_inst(Low *L, MtOpcode op, const MtExpr *e, const MtVal *args, uint32_t n)
{
    return mt_inst_new(L->c, L->f, L->region, op, e->ty, args, n, e->span, e->inl);
}

static const MtOpcode binop_opcode[BIN_COUNT_] = {
    [BIN_ADD] = OP_ADD, [BIN_SUB] = OP_SUB, [BIN_MUL] = OP_MUL, [BIN_DIV] = OP_DIV,
    [BIN_FLOORDIV] = OP_FLOORDIV, [BIN_MOD] = OP_MOD, [BIN_AND] = OP_AND, [BIN_OR] = OP_OR,
    [BIN_XOR] = OP_XOR, [BIN_LT] = OP_CMP_LT, [BIN_LE] = OP_CMP_LE, [BIN_GT] = OP_CMP_GT,
    [BIN_GE] = OP_CMP_GE, [BIN_EQ] = OP_CMP_EQ, [BIN_NE] = OP_CMP_NE,
    [BIN_MAXIMUM] = OP_MAXIMUM, [BIN_MINIMUM] = OP_MINIMUM,
};

static MtVal lower_binary(Low *L, MtExpr *e)
{
    MtVal a = lower(L, e->args[0]);
    MtVal b = lower(L, e->args[1]);
    if (!mt_ty_is_ptr(e->ty)) {
        MtVal args[2] = {a, b};
        return emit(L, binop_opcode[e->op], e, e->ty, args, 2);
    }
    /* Pointer arithmetic: addptr base, offset (base first whatever the
     * source order); p - k becomes addptr p, -k. */
    bool ptr_left = mt_ty_is_ptr(e->args[0]->ty);
    MtVal ptr = ptr_left ? a : b, off = ptr_left ? b : a;
    if (e->op == BIN_SUB) {
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
    MtInst *in = mt_for_new(L->c, L->f, L->region, ops, l->ncarried, l->step, e->span, e->inl);
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

static MtVal lower(Low *L, MtExpr *e)
{
    if (L->memo[e->id])
        return L->memo[e->id];
    MtVal v = 0;
    MtVal a[3] = {0};
    switch ((MtExprKind)e->kind) {
    case EX_PARAM:
    case EX_LOOP_IV:
    case EX_LOOP_ARG:
    case EX_KIND_COUNT_:
        /* parameters are bound at entry, loop values by their loop */
        mt_ice(L->c, e->span, "lowering met an unbound parameter or loop value");
    case EX_CONST:
        v = mt_func_const(L->c, L->f, e->u.cst, e->ty);
        break;
    case EX_PROGRAM_ID: {
        MtInst *in = emit_inst(L, OP_PROGRAM_ID, e, NULL, 0);
        in->attr.axis = e->u.axis;
        v = in->dst;
        break;
    }
    case EX_ARANGE: {
        MtInst *in = emit_inst(L, OP_ARANGE, e, NULL, 0);
        in->attr.start = e->u.range.start;
        in->attr.end = e->u.range.end;
        v = in->dst;
        break;
    }
    case EX_BINARY:
        v = lower_binary(L, e);
        break;
    case EX_UNARY:
        a[0] = lower(L, e->args[0]);
        v = emit(L, e->op == UN_NEG ? OP_NEG : e->op == UN_NOT ? OP_NOT : OP_EXP, e, e->ty, a, 1);
        break;
    case EX_WHERE:
        for (int i = 0; i < 3; i++)
            a[i] = lower(L, e->args[i]);
        v = emit(L, OP_SELECT, e, e->ty, a, 3);
        break;
    case EX_LOAD:
        for (int i = 0; i < 3; i++)
            a[i] = e->args[i] ? lower(L, e->args[i]) : 0;
        v = emit(L, OP_LOAD, e, e->ty, a, 3);
        break;
    case EX_STORE:
        a[1] = lower(L, e->args[1]);
        a[0] = lower(L, e->args[0]);
        a[2] = e->args[2] ? lower(L, e->args[2]) : 0;
        mt_inst_new(L->c, L->f, L->region, OP_STORE, NULL, a, 3, e->span, e->inl);
        v = LOWERED;
        break;
    case EX_REDUCE:
        a[0] = lower(L, e->args[0]);
        v = emit(L, e->op == RED_SUM ? OP_SUM : e->op == RED_MAX ? OP_MAX : OP_MIN, e, e->ty, a, 1);
        break;
    case EX_EXPAND_DIMS: {
        a[0] = lower(L, e->args[0]);
        MtInst *in = emit_inst(L, OP_EXPAND_DIMS, e, a, 1);
        in->attr.axis = e->u.axis;
        v = in->dst;
        break;
    }
    case EX_FACTORY: {
        uint32_t n = e->op == FAC_FULL ? 1 : 0;
        if (n)
            a[0] = lower(L, e->args[0]);
        MtInst *in = emit_inst(L, e->op == FAC_ZEROS ? OP_ZEROS : e->op == FAC_FULL ? OP_FULL : OP_EMPTY, e, a, n);
        in->attr.rank = e->u.factory.rank;
        for (int i = 0; i < e->u.factory.rank; i++)
            in->attr.shape[i] = e->u.factory.shape[i];
        in->attr.dtype = e->u.factory.dtype;
        v = in->dst;
        break;
    }
    case EX_DOT:
        a[0] = lower(L, e->args[0]);
        a[1] = lower(L, e->args[1]);
        v = emit(L, OP_DOT, e, e->ty, a, 2);
        break;
    case EX_FOR:
        lower_loop(L, e);
        return LOWERED;
    case EX_LOOP_RESULT:
        lower(L, e->u.slot.loop->node);
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
}

static void collect_loads(Low *L, MtExpr *e, uint32_t stamp, uint32_t skip, uint32_t before, MtExprList *out)
{
    if (!e || L->memo[e->id] || L->mark[e->id] == stamp || L->mark[e->id] == skip)
        return;
    L->mark[e->id] = stamp;
    if (e->kind == EX_LOAD && e->id < before)
        mt_expr_list_push(L->c, out, e);
    for (uint32_t i = 0; i < e->nargs; i++)
        collect_loads(L, e->args[i], stamp, skip, before, out);
    if (e->kind == EX_FOR)
        for (uint32_t i = 0; i < e->u.loop->captures.n; i++)
            collect_loads(L, e->u.loop->captures.v[i], stamp, skip, before, out);
    if (e->kind == EX_LOOP_RESULT)
        collect_loads(L, e->u.slot.loop->node, stamp, skip, before, out);
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
    for (uint32_t i = 0; i < p->nparams; i++)
        L.memo[p->params[i]->id] = mt_func_param(c, L.f, p->params[i]->u.param.name, p->params[i]->u.param.ty);
    lower_roots(&L, &p->roots, NULL, 0);
    return L.f;
}
