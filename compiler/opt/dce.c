/* dce.c: dead-code elimination by mark and sweep over values.
 *
 * Stores, atomics, debug operations and assume are the side effects, so
 * they are the roots (an atomic stays even when its old values are unused),
 * with the function's kept values (MtFunc.keep). Liveness flows
 * from a live value to what computes it: an instruction result to the
 * operands; a loop result or region argument of slot i to yield operand i
 * and init i (the two values that can reach it); and any live value
 * defined in a body, or a store there, to its `for`, which then needs its
 * bounds. A loop's liveness is recorded on its induction variable, which
 * exists exactly as long as the loop does.
 *
 * The sweep removes every pure or F_DROP operation whose result is dead,
 * every loop with nothing live in it, and, in the loops that stay, every
 * carried slot whose region argument and result are both dead: init,
 * iter_arg, yield operand and result go together. The slot's yield operand
 * was never marked through it, so what computes only that value is swept
 * with it.
 */
#include "opt/passes.h"

/* A nest (reduce, scan, if, while) and the loop and nest around it. */
typedef struct NestInfo {
    MtInst *in;
    MtInst *loop;             /* the for whose body holds it, NULL at top level */
    MtInst *parent;           /* the nest whose region holds it, NULL if none inside that loop */
    bool live;
} NestInfo;

typedef struct Dce {
    MtFunc *f;
    MtInst **def;             /* per value: defining instruction, or the for / nest of an iv/arg/result */
    MtInst **encl;            /* per value: the for whose body defines it, NULL at top level */
    uint8_t *live;            /* per value; on an iv: its loop is live */
    MT_VEC(MtVal) work;
    MT_VEC(NestInfo) nests;
} Dce;

static void mark(MtCtx *c, Dce *d, MtVal v)
{
    if (!v || d->live[v] || d->f->vals[v].kind == VK_PARAM || d->f->vals[v].kind == VK_CONST)
        return;
    d->live[v] = 1;
    mt_vec_push(&c->arena, &d->work, v);
}

static void mark_loop(MtCtx *c, Dce *d, const MtInst *loop)
{
    if (loop)
        mark(c, d, loop->loop->iv);
}

static NestInfo *nest_info(Dce *d, const MtInst *in)
{
    for (uint32_t i = 0; i < d->nests.n; i++)
        if (d->nests.v[i].in == in)
            return &d->nests.v[i];
    return NULL;
}

/* A nest is live as a whole: its operands, every value its regions end
 * with, and what encloses it. */
static void mark_nest(MtCtx *c, Dce *d, const MtInst *in)
{
    NestInfo *ni = in ? nest_info(d, in) : NULL;
    if (!ni || ni->live)
        return;
    ni->live = true;
    for (uint32_t k = 0; k < in->nargs; k++)
        mark(c, d, in->args[k]);
    for (uint32_t b = 0; b < in->nest->nbodies; b++) {
        const MtRegion *r = &in->nest->body[b].insts;
        const MtInst *t = r->v[r->n - 1];
        for (uint32_t k = 0; k < t->nargs; k++)
            mark(c, d, t->args[k]);
    }
    mark_loop(c, d, ni->loop);
    mark_nest(c, d, ni->parent);
}

/* Record definitions, enclosing loops and nests; side effects are the
 * roots (one inside a nest makes the nest live). */
static void scan(MtCtx *c, Dce *d, MtRegion *r, MtInst *loop, MtInst *nest)
{
    for (uint32_t i = 0; i < r->n; i++) {
        MtInst *in = r->v[i];
        if (in->dst) {
            d->def[in->dst] = in;
            d->encl[in->dst] = loop;
        }
        if (in->op == OP_STORE || in->op == OP_ASSUME || mt_op_class(in->op) == OC_ATOMIC ||
            mt_op_class(in->op) == OC_DEBUG) {
            for (uint32_t k = 0; k < in->nargs; k++)
                mark(c, d, in->args[k]);
            mark_loop(c, d, loop);
            mark_nest(c, d, nest);
        }
        if (in->nest) {
            /* results and region arguments lead to the nest */
            NestInfo ni = {in, loop, nest, false};
            mt_vec_push(&c->arena, &d->nests, ni);
            MtNest *x = in->nest;
            for (uint32_t k = 0; k < x->nresults; k++) {
                d->def[x->results[k]] = in;
                d->encl[x->results[k]] = loop;
            }
            for (uint32_t b = 0; b < x->nbodies; b++) {
                for (uint32_t k = 0; k < x->body[b].nargs; k++) {
                    d->def[x->body[b].args[k]] = in;
                    d->encl[x->body[b].args[k]] = loop;
                }
                scan(c, d, &x->body[b].insts, loop, in);
            }
            continue;
        }
        if (in->op != OP_FOR)
            continue;
        MtForData *l = in->loop;
        d->def[l->iv] = in;
        d->encl[l->iv] = loop;
        for (uint32_t k = 0; k < l->ncarried; k++) {
            d->def[l->iter_args[k]] = d->def[l->results[k]] = in;
            d->encl[l->iter_args[k]] = in;
            d->encl[l->results[k]] = loop;
        }
        scan(c, d, &l->body, in, NULL);
    }
}

static void propagate(MtCtx *c, Dce *d)
{
    while (d->work.n) {
        MtVal v = d->work.v[--d->work.n];
        const MtInst *in = d->def[v];
        const MtForData *l = in->loop;
        if (in->nest && (d->f->vals[v].kind == VK_RESULT || d->f->vals[v].kind == VK_ARG)) {
            mark_nest(c, d, in);
            continue;
        }
        switch (d->f->vals[v].kind) {
        case VK_INST:
            for (uint32_t k = 0; k < in->nargs; k++)
                mark(c, d, in->args[k]);
            mark_loop(c, d, d->encl[v]);
            break;
        case VK_IV:
            mark(c, d, in->args[0]);
            mark(c, d, in->args[1]);
            if (l->dyn_step)
                mark(c, d, in->args[2 + l->ncarried]);
            mark_loop(c, d, d->encl[v]);
            break;
        default: { /* VK_ARG, VK_RESULT */
            uint32_t i = d->f->vals[v].index;
            mark(c, d, l->body.v[l->body.n - 1]->args[i]);
            mark(c, d, in->args[2 + i]);
            mark_loop(c, d, in);
            break;
        }
        }
    }
}

static void sweep(Dce *d, MtRegion *r)
{
    uint32_t out = 0;
    for (uint32_t i = 0; i < r->n; i++) {
        MtInst *in = r->v[i];
        if (in->op == OP_FOR) {
            MtForData *l = in->loop;
            if (!d->live[l->iv])
                continue;
            sweep(d, &l->body);
            for (uint32_t k = l->ncarried; k-- > 0;)
                if (!d->live[l->iter_args[k]] && !d->live[l->results[k]])
                    mt_for_remove_slot(d->f, in, k);
        } else if (in->nest) {
            NestInfo *ni = nest_info(d, in);
            if (!ni || !ni->live)
                continue;
            for (uint32_t b = 0; b < in->nest->nbodies; b++)
                sweep(d, &in->nest->body[b].insts);
        } else if (in->dst && (mt_op_info[in->op].flags & (F_PURE | F_DROP)) && !d->live[in->dst]) {
            continue;
        }
        r->v[out++] = in;
    }
    r->n = out;
}

/* requires: verified SSA; preserves: stores and their order, value numbers
 * of what is kept; breaks: nothing (removed values have no uses left) */
void mt_dce(MtCtx *c, MtFunc *f)
{
    Dce d = {.f = f};
    d.def = mt_arena_alloc(&c->arena, f->nvals * sizeof *d.def);
    d.encl = mt_arena_alloc(&c->arena, f->nvals * sizeof *d.encl);
    d.live = mt_arena_alloc(&c->arena, f->nvals);
    scan(c, &d, &f->body, NULL, NULL);
    for (uint32_t i = 0; i < f->keep.n; i++)
        mark(c, &d, f->keep.v[i]);
    propagate(c, &d);
    sweep(&d, &f->body);
}
