/* cse.c: common subexpression elimination of pure operations.
 *
 * Two instructions are the same expression when their op is F_PURE and
 * they agree on opcode, operands (in either order for F_COMMUTE ops),
 * attributes and result type; constants compare by kind, type and value
 * (bit pattern for floats, so 0.0 and -0.0 stay apart), since every
 * occurrence of a literal is its own value. The later one is removed and
 * its uses go to the first. load and empty (F_DROP) are never merged: two
 * loads may see different memory, two empties are two buffers.
 *
 * Scoping follows the regions. An instruction may be replaced by an earlier
 * one of its own region, or of an enclosing region that precedes the
 * enclosing `for` (that value dominates every iteration); never by one
 * inside a sibling or nested loop, whose values do not exist outside it.
 * The available expressions form a scoped hash table (a stack of entries
 * chained per bucket): entering a body marks the stack, leaving it pops
 * back and restores the bucket heads, as scoped symbol tables do.
 */
#include <string.h>

#include "opt/passes.h"

typedef struct Entry {
    const MtInst *in;
    uint32_t hash;
    uint32_t prev;            /* older entry of the same bucket + 1, 0 = none */
} Entry;

typedef struct Cse {
    MtCtx *c;
    MtFunc *f;
    MtVal *fwd;               /* per value: the earlier value it was merged into */
    uint32_t *bucket;         /* newest entry + 1 per bucket */
    uint32_t mask;
    MT_VEC(Entry) avail;      /* available expressions, innermost scope last */
} Cse;

static uint32_t mix(uint32_t h, uint64_t x)
{
    h ^= (uint32_t)x + 0x9e3779b9u + (h << 6) + (h >> 2);
    h ^= (uint32_t)(x >> 32) + 0x9e3779b9u + (h << 6) + (h >> 2);
    return h;
}

static uint32_t operand_hash(const MtFunc *f, MtVal v)
{
    const MtValue *x = &f->vals[v];
    if (x->kind != VK_CONST)
        return mix(1, v);
    uint64_t bits;
    memcpy(&bits, &x->cst.f, sizeof bits);
    return mix(mix(mix(2, x->cst.kind), (uint64_t)x->cst.i), bits);
}

static bool same_operand(const MtFunc *f, MtVal a, MtVal b)
{
    if (a == b)
        return true;
    if (!mt_val_is_const(f, a) || !mt_val_is_const(f, b))
        return false;
    const MtValue *x = &f->vals[a], *y = &f->vals[b];
    return x->ty == y->ty && x->cst.kind == y->cst.kind && x->cst.i == y->cst.i &&
           memcmp(&x->cst.f, &y->cst.f, sizeof x->cst.f) == 0;
}

static uint32_t inst_hash(const MtFunc *f, const MtInst *in)
{
    uint32_t h = mix(mix(mix(in->op, (uintptr_t)in->ty), (uint64_t)in->attr.start), (uint64_t)in->attr.end);
    h = mix(mix(mix(h, (uint32_t)in->attr.axis), (uint32_t)in->attr.shape[0]), (uint32_t)in->attr.shape[1]);
    h = mix(mix(mix(h, (uintptr_t)in->attr.dtype), in->attr.mode), in->attr.flags);
    uint32_t ops = 0;
    for (uint32_t i = 0; i < in->nargs; i++) {
        uint32_t oh = operand_hash(f, in->args[i]);
        ops = mt_op_info[in->op].flags & F_COMMUTE ? ops + oh : mix(ops, oh);
    }
    return mix(h, ops);
}

static bool same_inst(const MtFunc *f, const MtInst *a, const MtInst *b)
{
    if (a->op != b->op || a->ty != b->ty || a->nargs != b->nargs || !mt_attrs_equal(&a->attr, &b->attr))
        return false;
    bool ordered = true;
    for (uint32_t i = 0; i < a->nargs && ordered; i++)
        ordered = same_operand(f, a->args[i], b->args[i]);
    if (ordered)
        return true;
    return (mt_op_info[a->op].flags & F_COMMUTE) && a->nargs == 2 && same_operand(f, a->args[0], b->args[1]) &&
           same_operand(f, a->args[1], b->args[0]);
}

static void cse_region(Cse *s, MtRegion *r)
{
    uint32_t mark = s->avail.n;
    uint32_t out = 0;
    for (uint32_t i = 0; i < r->n; i++) {
        MtInst *in = r->v[i];
        for (uint32_t k = 0; k < in->nargs; k++)
            if (in->args[k] && s->fwd[in->args[k]])
                in->args[k] = s->fwd[in->args[k]];
        r->v[out++] = in;
        if (in->loop) {
            cse_region(s, &in->loop->body);
            continue;
        }
        if (in->nest) {
            for (uint32_t k = 0; k < in->nest->nbodies; k++)
                cse_region(s, &in->nest->body[k].insts);
            continue;
        }
        if (!(mt_op_info[in->op].flags & F_PURE) || !in->dst)
            continue;
        uint32_t h = inst_hash(s->f, in);
        uint32_t e = s->bucket[h & s->mask];
        while (e && (s->avail.v[e - 1].hash != h || !same_inst(s->f, s->avail.v[e - 1].in, in)))
            e = s->avail.v[e - 1].prev;
        if (e) {
            s->fwd[in->dst] = s->avail.v[e - 1].in->dst;
            out--;
            continue;
        }
        Entry ent = {in, h, s->bucket[h & s->mask]};
        mt_vec_push(&s->c->arena, &s->avail, ent);
        s->bucket[h & s->mask] = s->avail.n;
    }
    r->n = out;
    while (s->avail.n > mark) {
        const Entry *ent = &s->avail.v[--s->avail.n];
        s->bucket[ent->hash & s->mask] = ent->prev;
    }
}

/* requires: verified SSA; preserves: regions, carried slots, value
 * numbers of the instructions kept; breaks: nothing (merged results are
 * unused afterwards) */
void mt_cse(MtCtx *c, MtFunc *f)
{
    Cse s = {.c = c, .f = f};
    uint32_t cap = 64;
    while (cap < f->nvals)
        cap *= 2;
    s.mask = cap - 1;
    s.bucket = mt_arena_alloc(&c->arena, cap * sizeof *s.bucket);
    s.fwd = mt_arena_alloc(&c->arena, f->nvals * sizeof *s.fwd);
    cse_region(&s, &f->body);
    for (uint32_t i = 0; i < f->keep.n; i++)
        if (f->keep.v[i] && s.fwd[f->keep.v[i]])
            f->keep.v[i] = s.fwd[f->keep.v[i]];
}
