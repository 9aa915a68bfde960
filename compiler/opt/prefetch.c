/* prefetch.c: loads of a tl.dot loop issued one iteration ahead, Triton's
 * software pipelining (num_stages) through registers, for the fast
 * lowering.
 *
 * In a runtime `for` whose body computes a tl.dot, a load whose address,
 * mask and other value are pure functions of the induction variable, the
 * carried values and values from outside the loop is computed for the
 * NEXT iteration before the dot, and carried:
 *
 *   for k in range(s, e, st) carry(p = p0, acc = a0) {
 *     x = load f(p, k), m(p, k)
 *     acc2 = dot(x, ...) + acc
 *     p2 = p + d
 *     yield p2, acc2
 *   }
 * becomes
 *   x0 = load f(p0, s), m(p0, s) & (s < e)
 *   for k in range(s, e, st) carry(p = p0, acc = a0, x = x0) {
 *     p2' = p + d                                   (recomputed before the dot)
 *     xn = load f(p2', k + st), m(p2', k + st) & (k + st < e)
 *     acc2 = dot(x, ...) + acc
 *     p2 = p + d
 *     yield p2, acc2, xn
 *   }
 *
 * so the next tiles are in flight from global memory while the current
 * one is multiplied. The added condition keeps the last iteration's
 * prefetch from touching memory the loop never reads; masked-off elements
 * take the load's `other` (they are never used). Loops whose bodies store,
 * run atomics or debug operations, or hold nested regions are left alone:
 * a load moved above a store could read memory before the store writes it.
 *
 * This runs on a copy of the optimised SSA (mt_func_clone): the
 * interpreter and `--emit ssa` keep the program as written. */
#include "opt/passes.h"
#include "kernel/lower.h"

#include <string.h>

typedef struct Pf {
    MtCtx *c;
    MtFunc *f;
    MtInst *loop;
    int32_t *at;              /* per value: index in the body of its definition, -1 outside */
    uint32_t dot;             /* the body's first tl.dot: the prefetches go before it */
    uint8_t *variant;         /* per value: 1 depends on the iteration, 2 does not, 0 not known yet */
} Pf;

/* A substitution: the induction variable and carried values of one
 * iteration, and the copies made under it. */
typedef struct Subst {
    MtVal iv;
    MtVal *arg;               /* per carried slot; 0: computed when first needed, from `from` */
    struct Subst *from;       /* the next iteration: the current one, whose yield it reads */
    MtVal *copy;              /* per value: its copy under this substitution, 0 none */
    bool in_body;             /* body values before the dot that do not vary can be used as they are */
    bool identity;            /* the current iteration: every body value before the dot is itself */
    MtRegion *into;           /* where copies go */
    uint32_t *pos;            /* ... at this index (advanced as copies are inserted) */
} Subst;

static bool side_effect(const MtInst *in)
{
    MtOpClass k = mt_op_class(in->op);
    return in->op == OP_STORE || k == OC_ATOMIC || k == OC_DEBUG || in->op == OP_ASSUME;
}

static bool carried_arg(const Pf *p, MtVal v)
{
    return p->f->vals[v].kind == VK_ARG && p->f->vals[v].def == p->loop;
}

/* Whether a body value can be recomputed anywhere: a pure, cheap-enough
 * instruction whose operands can be too. */
static bool recomputable(const Pf *p, MtVal v, uint8_t *memo)
{
    if (!v || p->at[v] < 0)
        return true;
    if (memo[v])
        return memo[v] == 1;
    const MtInst *in = p->f->vals[v].def;
    MtOpClass k = mt_op_class(in->op);
    bool ok = in->dst == v && (mt_op_info[in->op].flags & F_PURE) && !in->loop && !in->nest && k != OC_DOT &&
              k != OC_REDUCE && k != OC_SCAN && k != OC_COMBINE;
    for (uint32_t i = 0; ok && i < in->nargs; i++)
        ok = recomputable(p, in->args[i], memo);
    memo[v] = ok ? 1 : 2;
    return ok;
}

/* The carried slots a value reads (slots[s] = 1 where still 0). */
static void read_slots(const Pf *p, MtVal v, uint8_t *seen, uint8_t *slots)
{
    if (!v || seen[v])
        return;
    seen[v] = 1;
    if (carried_arg(p, v) && !slots[p->f->vals[v].index])
        slots[p->f->vals[v].index] = 1;
    if (p->at[v] < 0)
        return;
    const MtInst *in = p->f->vals[v].def;
    for (uint32_t i = 0; i < in->nargs; i++)
        read_slots(p, in->args[i], seen, slots);
}

/* Whether a value depends on the iteration (the induction variable or a
 * carried value). */
static bool varies(Pf *p, MtVal v)
{
    if (!v || p->f->vals[v].kind == VK_PARAM || p->f->vals[v].kind == VK_CONST)
        return false;
    if (v == p->loop->loop->iv || carried_arg(p, v))
        return true;
    if (p->at[v] < 0)
        return false;
    if (!p->variant[v]) {
        const MtInst *in = p->f->vals[v].def;
        bool any = false;
        for (uint32_t i = 0; !any && i < in->nargs; i++)
            any = varies(p, in->args[i]);
        p->variant[v] = any ? 1 : 2;
    }
    return p->variant[v] == 1;
}

static void insert(Pf *p, Subst *s, MtInst *in)
{
    MtRegion *r = s->into;
    mt_region_push(p->c, r, in);
    memmove(&r->v[*s->pos + 1], &r->v[*s->pos], (r->n - 1 - *s->pos) * sizeof *r->v);
    r->v[(*s->pos)++] = in;
}

static MtVal value(Pf *p, Subst *s, MtVal v);

/* A copy of in with its operands taken under s, inserted at s's place; a
 * load's mask gets `& extra_mask`. */
static MtInst *copy_inst(Pf *p, Subst *s, const MtInst *in, MtVal extra_mask)
{
    uint32_t n = in->nargs;
    MtVal *args = mt_arena_alloc(&p->c->arena, (n + 1) * sizeof *args);
    for (uint32_t i = 0; i < n; i++)
        args[i] = value(p, s, in->args[i]);
    if (extra_mask) {
        MtVal m = args[1];
        if (m) {
            MtVal both[2] = {m, extra_mask};
            MtInst *and = mt_inst_new(p->c, p->f, NULL, OP_AND, p->f->vals[m].ty, both, 2, in->span, in->inl);
            insert(p, s, and);
            m = and->dst;
        }
        args[1] = m ? m : extra_mask;
    }
    MtInst *copy = mt_inst_new(p->c, p->f, NULL, (MtOpcode)in->op, in->ty, args, n, in->span, in->inl);
    copy->attr = in->attr;
    insert(p, s, copy);
    return copy;
}

/* v as the substitution's iteration sees it, computed at its place. */
static MtVal value(Pf *p, Subst *s, MtVal v)
{
    const MtValue *x = &p->f->vals[v];
    if (!v || x->kind == VK_PARAM || x->kind == VK_CONST)
        return v;
    if (v == p->loop->loop->iv)
        return s->iv;
    if (carried_arg(p, v)) {
        if (!s->arg[x->index])
            s->arg[x->index] = value(p, s->from, ((const MtInst *)p->loop->loop->body.v[p->loop->loop->body.n - 1])
                                                     ->args[x->index]);
        return s->arg[x->index];
    }
    if (p->at[v] < 0)
        return v;
    if (s->in_body && (uint32_t)p->at[v] < p->dot && (s->identity || !varies(p, v)))
        return v;
    if (!s->copy[v])
        s->copy[v] = copy_inst(p, s, x->def, 0)->dst;
    return s->copy[v];
}

/* `a < stop` at s's place. */
static MtVal in_range(Pf *p, Subst *s, MtVal a)
{
    MtVal args[2] = {a, p->loop->args[1]};
    MtInst *in = mt_inst_new(p->c, p->f, NULL, OP_CMP_LT, &mt_ty_bool, args, 2, p->loop->span, p->loop->inl);
    insert(p, s, in);
    return in->dst;
}

static Subst subst(Pf *p, MtRegion *into, uint32_t *pos, MtVal iv)
{
    uint32_t n = p->loop->loop->ncarried;
    Subst s = {.iv = iv, .into = into, .pos = pos};
    s.arg = mt_arena_alloc(&p->c->arena, (n + 1) * sizeof *s.arg);
    s.copy = mt_arena_alloc(&p->c->arena, p->f->nvals * sizeof *s.copy);
    return s;
}

/* One carried slot more: its initial value and the value fed back (0:
 * set later); its index. */
static uint32_t add_slot(Pf *p, const MtType *t, MtVal init, MtVal next)
{
    MtCtx *c = p->c;
    MtInst *loop = p->loop, *y = loop->loop->body.v[loop->loop->body.n - 1];
    MtForData *l = loop->loop;
    uint32_t n = l->ncarried;
    loop->args = mt_arena_grow(&c->arena, loop->args, loop->nargs, loop->nargs + 1, sizeof *loop->args);
    y->args = mt_arena_grow(&c->arena, y->args, y->nargs, y->nargs + 1, sizeof *y->args);
    l->iter_args = mt_arena_grow(&c->arena, l->iter_args, n + 1, n + 2, sizeof *l->iter_args);
    l->results = mt_arena_grow(&c->arena, l->results, n + 1, n + 2, sizeof *l->results);
    loop->args[loop->nargs++] = init;
    y->args[y->nargs++] = next;
    MtVal a = mt_func_value(c, p->f, VK_ARG, t), r = mt_func_value(c, p->f, VK_RESULT, t);
    p->f->vals[a].def = p->f->vals[r].def = loop;
    p->f->vals[a].index = p->f->vals[r].index = n;
    l->iter_args[n] = a;
    l->results[n] = r;
    l->ncarried = n + 1;
    return n;
}

/* The body reads the carried tile `a` instead of loading it. */
static void read_carried(Pf *p, const MtInst *load, MtVal a, uint32_t nslots)
{
    MtForData *l = p->loop->loop;
    MtInst *y = l->body.v[l->body.n - 1];
    for (uint32_t i = 0; i + 1 < l->body.n; i++) {
        MtInst *in = l->body.v[i];
        for (uint32_t q = 0; q < in->nargs; q++)
            if (in->args[q] == load->dst)
                in->args[q] = a;
    }
    for (uint32_t q = 0; q < nslots; q++)
        if (y->args[q] == load->dst)
            y->args[q] = a;
}

/* Whether a load's tile is only an operand of a tl.dot that can read it
 * from shared memory (mt_staged_dot_operand): the fast lowering copies
 * such tiles straight into stages, so they may be loaded further ahead at
 * no cost in registers. */
static bool feeds_stages(const Pf *p, const MtInst *load, const uint32_t *uses)
{
    int operand;
    MtVal widened;
    return mt_staged_dot_operand(p->f, &p->loop->loop->body, load->dst, uses, &operand, &widened) != NULL;
}

/* The shared memory the fast lowering may give the stages of a loop's
 * tiles (the H100's and H200's opt-in limit is 227 KiB; what
 * is left serves the kernel's other uses of shared memory). */
enum { STAGE_BYTES_MAX = 160 * 1024 };

/* `iv + t * step` at s's place. */
static MtVal iteration(Pf *p, Subst *s, MtVal iv, uint32_t t)
{
    MtForData *l = p->loop->loop;
    MtVal step = mt_func_const(p->c, p->f, (MtConst){.kind = CST_INT, .i = l->step * (int64_t)t}, p->f->vals[l->iv].ty);
    MtVal ivs[2] = {iv, step};
    MtInst *add = mt_inst_new(p->c, p->f, NULL, OP_ADD, p->f->vals[l->iv].ty, ivs, 2, p->loop->span, p->loop->inl);
    insert(p, s, add);
    return add->dst;
}

static void pipeline(MtCtx *c, MtFunc *f, MtRegion *parent, uint32_t where, uint32_t ahead)
{
    MtInst *loop = parent->v[where];
    MtForData *l = loop->loop;
    if (l->dyn_step || l->body.n < 2)
        return;
    Pf p = {c, f, loop, NULL, UINT32_MAX, NULL};
    for (uint32_t i = 0; i + 1 < l->body.n; i++) {
        const MtInst *in = l->body.v[i];
        if (in->loop || in->nest || side_effect(in))
            return;
        if (in->op == OP_DOT && p.dot == UINT32_MAX)
            p.dot = i;
    }
    if (p.dot == UINT32_MAX)
        return;
    p.at = mt_arena_alloc(&c->arena, f->nvals * sizeof *p.at);
    p.variant = mt_arena_alloc(&c->arena, f->nvals);
    for (uint32_t v = 0; v < f->nvals; v++)
        p.at[v] = -1;
    for (uint32_t i = 0; i < l->body.n; i++)
        if (l->body.v[i]->dst)
            p.at[l->body.v[i]->dst] = (int32_t)i;
    uint8_t *memo = mt_arena_alloc(&c->arena, f->nvals), *seen = mt_arena_alloc(&c->arena, f->nvals);
    uint8_t *slots = mt_arena_alloc(&c->arena, l->ncarried + 1);
    const MtInst *y = l->body.v[l->body.n - 1];
    uint32_t *uses = mt_func_use_counts(c, f);

    /* the loads to move: their operands are recomputable ... */
    MtInst **loads = mt_arena_alloc(&c->arena, l->body.n * sizeof *loads);
    uint32_t *depth = mt_arena_alloc(&c->arena, l->body.n * sizeof *depth);
    uint32_t nloads = 0;
    uint64_t stage_bytes = 0;
    for (uint32_t i = 0; i < p.dot; i++) {
        MtInst *in = l->body.v[i];
        bool ok = in->op == OP_LOAD;
        for (uint32_t k = 0; ok && k < in->nargs; k++)
            ok = recomputable(&p, in->args[k], memo);
        if (!ok)
            continue;
        depth[nloads] = feeds_stages(&p, in, uses) ? ahead : 1;
        if (depth[nloads] > 1)
            stage_bytes += (uint64_t)mt_ty_numel(in->ty) * (uint64_t)mt_ty_info(mt_ty_elem(in->ty))->size;
        loads[nloads++] = in;
        for (uint32_t k = 0; k < in->nargs; k++)
            read_slots(&p, in->args[k], seen, slots);
    }
    if (!nloads)
        return;
    /* ... and so are the next values of the carried values they read,
     * and of those these read */
    for (bool more = true; more;) {
        more = false;
        for (uint32_t s = 0; s < l->ncarried; s++)
            if (slots[s] == 1) {
                slots[s] = 2;
                more = true;
                if (!recomputable(&p, y->args[s], memo))
                    return;
                read_slots(&p, y->args[s], seen, slots);
            }
    }
    /* the staged tiles go `deep` iterations ahead, as many as their
     * stages (one more than that) fit in STAGE_BYTES_MAX */
    uint32_t deep = ahead;
    while (deep > 1 && stage_bytes * (deep + 1) > STAGE_BYTES_MAX)
        deep--;
    for (uint32_t j = 0; j < nloads; j++)
        if (depth[j] > 1)
            depth[j] = deep;
    uint32_t most = 1;
    for (uint32_t j = 0; j < nloads; j++)
        most = depth[j] > most ? depth[j] : most;

    /* the first iterations' loads, before the loop, iteration by iteration */
    uint32_t ppos = where, nslots = l->ncarried;
    Subst *pro = mt_arena_alloc(&c->arena, most * sizeof *pro);
    MtVal *inits = mt_arena_alloc(&c->arena, (size_t)nloads * most * sizeof *inits);
    for (uint32_t t = 0; t < most; t++) {
        MtVal iv = t ? iteration(&p, &pro[0], loop->args[0], t) : loop->args[0];
        pro[t] = subst(&p, parent, &ppos, iv);
        if (t)
            pro[t].from = &pro[t - 1];
        else
            for (uint32_t s = 0; s < nslots; s++)
                pro[0].arg[s] = loop->args[2 + s];
        MtVal in = in_range(&p, &pro[t], iv);
        for (uint32_t j = 0; j < nloads; j++)
            if (t < depth[j])
                inits[j * most + t] = copy_inst(&p, &pro[t], loads[j], in)->dst;
    }

    /* iteration k + t * step's, before the dot, for the loads t ahead:
     * the values of iterations k .. k + t they read are computed there too */
    uint32_t bpos = p.dot;
    Subst *it = mt_arena_alloc(&c->arena, (most + 1) * sizeof *it);
    it[0] = subst(&p, &l->body, &bpos, l->iv);
    it[0].in_body = it[0].identity = true;
    for (uint32_t s = 0; s < nslots; s++)
        it[0].arg[s] = l->iter_args[s];
    MtVal *nexts = mt_arena_alloc(&c->arena, nloads * sizeof *nexts);
    for (uint32_t t = 1; t <= most; t++) {
        MtVal iv = iteration(&p, &it[0], l->iv, t);
        it[t] = subst(&p, &l->body, &bpos, iv);
        it[t].in_body = true;
        it[t].from = &it[t - 1];
        MtVal in = in_range(&p, &it[t], iv);
        for (uint32_t j = 0; j < nloads; j++)
            if (depth[j] == t)
                nexts[j] = copy_inst(&p, &it[t], loads[j], in)->dst;
    }

    /* a load t ahead is carried through t slots: the body reads the
     * first, each passes the next one's value on, the last takes the load */
    for (uint32_t j = 0; j < nloads; j++) {
        uint32_t first = l->ncarried;
        for (uint32_t t = 0; t < depth[j]; t++)
            add_slot(&p, loads[j]->ty, inits[j * most + t], 0);
        MtInst *yield = l->body.v[l->body.n - 1];
        for (uint32_t t = 0; t + 1 < depth[j]; t++)
            yield->args[first + t] = l->iter_args[first + t + 1];
        yield->args[first + depth[j] - 1] = nexts[j];
        read_carried(&p, loads[j], l->iter_args[first], nslots);
    }
}

static void walk(MtCtx *c, MtFunc *f, MtRegion *r, uint32_t ahead)
{
    for (uint32_t i = 0; i < r->n; i++) {
        MtInst *in = r->v[i];
        for (uint32_t k = 0; k < mt_inst_nregions(in); k++)
            walk(c, f, mt_inst_region(in, k), ahead);
        if (in->op == OP_FOR) {
            uint32_t before = r->n;
            pipeline(c, f, r, i, ahead);
            i += r->n - before;
        }
    }
}

void mt_prefetch(MtCtx *c, MtFunc *f, uint32_t ahead)
{
    walk(c, f, &f->body, ahead > 1 ? ahead : 1);
    /* a carried value's next value computed before the dot and again at
     * its place is one value; the loads moved out are dead */
    mt_cse(c, f);
    mt_dce(c, f);
}
