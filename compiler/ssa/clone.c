/* clone.c: a deep copy of an SSA function that keeps every value's number,
 * so that facts computed on the copy (layouts, the kernel layer's homes)
 * index the original's values too. Transformations that only one consumer
 * wants (the fast lowering's load prefetching) run on a copy, and the
 * optimised SSA that `--emit ssa`, the interpreter and the editor see stays
 * as it was. */
#include "ssa/ssa.h"

#include <string.h>

typedef struct Cloner {
    MtCtx *c;
    MtFunc *to;
} Cloner;

static MtVal *copy_vals(MtCtx *c, const MtVal *v, uint32_t n)
{
    MtVal *out = mt_arena_alloc(&c->arena, (n + 1) * sizeof *out);
    if (n)
        memcpy(out, v, n * sizeof *out);
    return out;
}

static void copy_region(Cloner *k, const MtRegion *from, MtRegion *to);

/* Point the copied values an instruction defines at its copy. */
static void own(Cloner *k, const MtInst *in, MtInst *copy)
{
    MtValue *vals = k->to->vals;
    if (copy->dst)
        vals[copy->dst].def = copy;
    if (in->loop) {
        vals[in->loop->iv].def = copy;
        for (uint32_t i = 0; i < in->loop->ncarried; i++)
            vals[in->loop->iter_args[i]].def = vals[in->loop->results[i]].def = copy;
    }
    if (in->nest) {
        for (uint32_t b = 0; b < in->nest->nbodies; b++)
            for (uint32_t i = 0; i < in->nest->body[b].nargs; i++)
                vals[in->nest->body[b].args[i]].def = copy;
        for (uint32_t i = 0; i < in->nest->nresults; i++)
            vals[in->nest->results[i]].def = copy;
    }
}

static MtInst *copy_inst(Cloner *k, const MtInst *in)
{
    MtCtx *c = k->c;
    MtInst *copy = mt_arena_alloc(&c->arena, sizeof *copy);
    *copy = *in;
    copy->args = in->nargs ? copy_vals(c, in->args, in->nargs) : NULL;
    if (in->loop) {
        MtForData *l = mt_arena_alloc(&c->arena, sizeof *l);
        *l = *in->loop;
        l->iter_args = copy_vals(c, in->loop->iter_args, l->ncarried);
        l->results = copy_vals(c, in->loop->results, l->ncarried);
        l->body = (MtRegion){0};
        copy_region(k, &in->loop->body, &l->body);
        copy->loop = l;
    }
    if (in->nest) {
        MtNest *n = mt_arena_alloc(&c->arena, sizeof *n);
        *n = *in->nest;
        for (uint32_t b = 0; b < n->nbodies; b++) {
            n->body[b].args = copy_vals(c, in->nest->body[b].args, n->body[b].nargs);
            n->body[b].insts = (MtRegion){0};
            copy_region(k, &in->nest->body[b].insts, &n->body[b].insts);
        }
        n->results = copy_vals(c, in->nest->results, n->nresults);
        copy->nest = n;
    }
    own(k, in, copy);
    return copy;
}

static void copy_region(Cloner *k, const MtRegion *from, MtRegion *to)
{
    for (uint32_t i = 0; i < from->n; i++)
        mt_region_push(k->c, to, copy_inst(k, from->v[i]));
}

MtFunc *mt_func_clone(MtCtx *c, const MtFunc *f)
{
    MtFunc *g = mt_arena_alloc(&c->arena, sizeof *g);
    *g = *f;
    g->vals = mt_arena_alloc(&c->arena, f->capvals * sizeof *g->vals);
    memcpy(g->vals, f->vals, f->nvals * sizeof *g->vals);
    g->params = copy_vals(c, f->params, f->nparams);
    g->keep.v = copy_vals(c, f->keep.v, f->keep.n);
    g->keep.cap = f->keep.n;
    g->body = (MtRegion){0};
    Cloner k = {c, g};
    copy_region(&k, &f->body, &g->body);
    return g;
}
