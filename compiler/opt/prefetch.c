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

/* Add carried slots: inits, region arguments, results and yield operands. */
static void add_slots(Pf *p, const MtVal *inits, const MtVal *next, MtInst *const *loads, uint32_t k)
{
    MtCtx *c = p->c;
    MtInst *loop = p->loop, *y = loop->loop->body.v[loop->loop->body.n - 1];
    MtForData *l = loop->loop;
    uint32_t n = l->ncarried;
    loop->args = mt_arena_grow(&c->arena, loop->args, loop->nargs, loop->nargs + k, sizeof *loop->args);
    y->args = mt_arena_grow(&c->arena, y->args, y->nargs, y->nargs + k, sizeof *y->args);
    l->iter_args = mt_arena_grow(&c->arena, l->iter_args, n + 1, n + k + 1, sizeof *l->iter_args);
    l->results = mt_arena_grow(&c->arena, l->results, n + 1, n + k + 1, sizeof *l->results);
    for (uint32_t j = 0; j < k; j++) {
        const MtType *t = loads[j]->ty;
        loop->args[loop->nargs++] = inits[j];
        y->args[y->nargs++] = next[j];
        MtVal a = mt_func_value(c, p->f, VK_ARG, t), r = mt_func_value(c, p->f, VK_RESULT, t);
        p->f->vals[a].def = p->f->vals[r].def = loop;
        p->f->vals[a].index = p->f->vals[r].index = n + j;
        l->iter_args[n + j] = a;
        l->results[n + j] = r;
        /* the body reads the carried tile instead of loading it */
        for (uint32_t i = 0; i + 1 < l->body.n; i++) {
            MtInst *in = l->body.v[i];
            for (uint32_t q = 0; q < in->nargs; q++)
                if (in->args[q] == loads[j]->dst)
                    in->args[q] = a;
        }
        for (uint32_t q = 0; q < n; q++)
            if (y->args[q] == loads[j]->dst)
                y->args[q] = a;
    }
    l->ncarried = n + k;
}

static void pipeline(MtCtx *c, MtFunc *f, MtRegion *parent, uint32_t where)
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

    /* the loads to move: their operands are recomputable ... */
    MtInst **loads = mt_arena_alloc(&c->arena, l->body.n * sizeof *loads);
    uint32_t nloads = 0;
    for (uint32_t i = 0; i < p.dot; i++) {
        MtInst *in = l->body.v[i];
        bool ok = in->op == OP_LOAD;
        for (uint32_t k = 0; ok && k < in->nargs; k++)
            ok = recomputable(&p, in->args[k], memo);
        if (!ok)
            continue;
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

    /* the first iteration's loads, before the loop */
    uint32_t ppos = where;
    Subst pro = subst(&p, parent, &ppos, loop->args[0]);
    for (uint32_t s = 0; s < l->ncarried; s++)
        pro.arg[s] = loop->args[2 + s];
    MtVal first_in = in_range(&p, &pro, pro.iv);
    MtVal *inits = mt_arena_alloc(&c->arena, nloads * sizeof *inits);
    for (uint32_t j = 0; j < nloads; j++)
        inits[j] = copy_inst(&p, &pro, loads[j], first_in)->dst;

    /* the next iteration's, before the dot: the current iteration's
     * values it reads are computed there too */
    uint32_t bpos = p.dot;
    Subst cur = subst(&p, &l->body, &bpos, l->iv);
    cur.in_body = cur.identity = true;
    for (uint32_t s = 0; s < l->ncarried; s++)
        cur.arg[s] = l->iter_args[s];
    MtVal step = mt_func_const(c, f, (MtConst){.kind = CST_INT, .i = l->step}, f->vals[l->iv].ty);
    MtVal ivs[2] = {l->iv, step};
    MtInst *add = mt_inst_new(c, f, NULL, OP_ADD, f->vals[l->iv].ty, ivs, 2, loop->span, loop->inl);
    insert(&p, &cur, add);
    Subst next = subst(&p, &l->body, &bpos, add->dst);
    next.in_body = true;
    next.from = &cur;
    MtVal next_in = in_range(&p, &next, next.iv);
    MtVal *nexts = mt_arena_alloc(&c->arena, nloads * sizeof *nexts);
    for (uint32_t j = 0; j < nloads; j++)
        nexts[j] = copy_inst(&p, &next, loads[j], next_in)->dst;
    add_slots(&p, inits, nexts, loads, nloads);
}

static void walk(MtCtx *c, MtFunc *f, MtRegion *r)
{
    for (uint32_t i = 0; i < r->n; i++) {
        MtInst *in = r->v[i];
        for (uint32_t k = 0; k < mt_inst_nregions(in); k++)
            walk(c, f, mt_inst_region(in, k));
        if (in->op == OP_FOR) {
            uint32_t before = r->n;
            pipeline(c, f, r, i);
            i += r->n - before;
        }
    }
}

void mt_prefetch(MtCtx *c, MtFunc *f)
{
    walk(c, f, &f->body);
    /* a carried value's next value computed before the dot and again at
     * its place is one value; the loads moved out are dead */
    mt_cse(c, f);
    mt_dce(c, f);
}
