/* addr.c: which offset variables of the kernel layer the CUDA printer
 * declares as pointers.
 *
 * The kernel layer addresses global memory as param[offset], the offset
 * a 64-bit integer, often a register array carried through a loop and
 * advanced there (a pointer block's `p += BK * stride`). Printed as it
 * is, every access computes param + offset * size afresh, and NVRTC
 * keeps both the carried offsets and those products: in a pipelined
 * tl.dot loop about six instructions a copy where a carried address
 * needs two. So an i64 scalar or register array that is only ever
 *   - the one pointer term of the index of an access to one parameter P
 *     (x + i or x - i, i free of such variables: a load, a store, a
 *     vector access or a cp.async of P), or
 *   - the one pointer term of the value assigned to another such
 *     variable of the same P,
 * and is assigned only by declarations and assignments, becomes a `T *`
 * into P when it is assigned from, or to, another such variable (a
 * carried block, a pointer advanced): an assignment whose value has no
 * pointer term becomes P + value, an access P[x + i] becomes *(x + i).
 * C's pointer arithmetic counts elements of T, as the offsets do, so
 * every address is the one the offsets gave. Anything else keeps the
 * variable an integer: the rules are checked until no variable changes.
 * A load inside an expression is an access of its own. */
#include "addr.h"

typedef struct An {
    const KFunc *f;
    KVarId *param;            /* per variable: a candidate's parameter (0: not known yet) */
    bool *cand;               /* per variable: still a candidate */
    bool *linked;             /* per variable: assigned from, or to, another candidate */
    bool changed;
} An;

static void reject(An *a, KVarId v)
{
    if (a->cand[v]) {
        a->cand[v] = false;
        a->changed = true;
    }
}

static bool refers(const KExpr *e) { return e->op == K_VAR || e->op == K_ELEM; }

static void access(An *a, KVarId ptr, const KExpr *index);

/* e is a value (not an address): every candidate it refers to is no
 * longer one, but for the indices of the loads in it, which are
 * accesses. */
static void use(An *a, const KExpr *e)
{
    if (!e)
        return;
    if (e->op == K_LOAD)
        access(a, e->u.var, e->a[0]);
    else if (refers(e))
        reject(a, e->u.var);
    for (int i = e->op == K_LOAD; i < e->nargs; i++)
        use(a, e->a[i]);
}

/* The loads in e, an index or a value whose pointer term is allowed. */
static void loads_in(An *a, const KExpr *e)
{
    if (e->op == K_LOAD) {
        use(a, e);
        return;
    }
    for (int i = 0; i < e->nargs; i++)
        loads_in(a, e->a[i]);
}

/* The number of candidate pointer terms of e (at most one is allowed),
 * the term in *x; -1 when a candidate appears anywhere else in e. */
static int terms(const bool *cand, const KExpr *e, KVarId *x)
{
    if (refers(e) && cand[e->u.var]) {
        if (e->op == K_ELEM && terms(cand, e->a[0], x) != 0)
            return -1;
        *x = e->u.var;
        return 1;
    }
    KVarId y = 0;
    int l, r;
    switch ((KOp)e->op) {
    case K_ADD:
        l = terms(cand, e->a[0], x);
        r = terms(cand, e->a[1], &y);
        if (l < 0 || r < 0)
            return -1;
        if (r)
            *x = y;
        return l + r;
    case K_SUB:
        l = terms(cand, e->a[0], x);
        return l < 0 || terms(cand, e->a[1], &y) != 0 ? -1 : l;
    case K_CAST:
        if (e->dt == MT_DT_I64 && e->a[0]->dt == MT_DT_I64)
            return terms(cand, e->a[0], x);
        break;
    case K_LOAD: return 0; /* a value read from memory (its index is an access of its own) */
    default: break;
    }
    for (int i = 0; i < e->nargs; i++)
        if (terms(cand, e->a[i], &y) != 0)
            return -1;
    return 0;
}

/* Variable x is to point into parameter p. */
static void bind(An *a, KVarId x, KVarId p)
{
    if (!a->param[x]) {
        a->param[x] = p;
        a->changed = true;
    } else if (a->param[x] != p) {
        reject(a, x);
    }
}

/* The index of an access to variable ptr. */
static void access(An *a, KVarId ptr, const KExpr *index)
{
    KVarId x = 0;
    const KVar *v = k_var_at(a->f, ptr);
    int n = terms(a->cand, index, &x);
    if (n == 1 && v->kind == KV_PARAM && v->ptr) {
        bind(a, x, ptr);
        loads_in(a, index);
    } else if (n) {
        use(a, index);
    } else {
        loads_in(a, index);
    }
}

/* var (or var[index]) = value. */
static void assign(An *a, KVarId var, const KExpr *index, const KExpr *value)
{
    use(a, index);
    if (!value)
        return;
    KVarId x = 0;
    int n = terms(a->cand, value, &x);
    if (!a->cand[var] || n < 0 || n > 1) {
        reject(a, var);
        use(a, value);
        return;
    }
    loads_in(a, value);
    if (n == 1) {
        /* both point into the same parameter, once one of them is known to */
        KVarId p = a->param[var] ? a->param[var] : a->param[x];
        if (p) {
            bind(a, var, p);
            bind(a, x, p);
        }
        if (!a->cand[var] || !a->cand[x]) {
            reject(a, var);
            reject(a, x);
        }
        a->linked[var] = a->linked[x] = true;
    }
}

static void block(An *a, const KBlock *b);

static void stmt(An *a, const KStmt *s)
{
    switch ((KStmtKind)s->kind) {
    case KST_DECL:
    case KST_SET: assign(a, s->u.set.var, s->u.set.index, s->u.set.value); return;
    case KST_STORE:
        access(a, s->u.store.ptr, s->u.store.index);
        use(a, s->u.store.value);
        use(a, s->u.store.mask);
        return;
    case KST_VLOAD:
    case KST_VSTORE:
        access(a, s->u.vec.ptr, s->u.vec.index);
        reject(a, s->u.vec.var);
        use(a, s->u.vec.mask);
        for (unsigned i = 0; s->u.vec.other && i < s->u.vec.vec; i++)
            use(a, s->u.vec.other[i]);
        return;
    case KST_IF:
        use(a, s->u.if_.cond);
        block(a, &s->u.if_.then);
        block(a, &s->u.if_.els);
        return;
    case KST_FOR:
        reject(a, s->u.for_.iv);
        use(a, s->u.for_.start);
        use(a, s->u.for_.stop);
        block(a, &s->u.for_.body);
        return;
    case KST_WHILE:
        use(a, s->u.while_.cond);
        block(a, &s->u.while_.body);
        return;
    case KST_LDMATRIX:
        reject(a, s->u.ldm.dst);
        use(a, s->u.ldm.row_at);
        return;
    case KST_MMA:
        reject(a, s->u.mma.acc);
        use(a, s->u.mma.index);
        return;
    case KST_ATOMIC: {
        const KAtomic *x = &s->u.atomic;
        reject(a, x->dst);
        const KExpr *e[] = {x->index, x->value, x->cmp, x->mask, x->dst_index};
        for (size_t i = 0; i < sizeof e / sizeof *e; i++)
            use(a, e[i]);
        return;
    }
    case KST_CP_ASYNC:
        access(a, s->u.cp.ptr, s->u.cp.index);
        use(a, s->u.cp.smem_at);
        use(a, s->u.cp.mask);
        return;
    case KST_WGMMA:
        reject(a, s->u.wg.acc);
        use(a, s->u.wg.a_at);
        use(a, s->u.wg.b_at);
        return;
    case KST_BARRIER:
    case KST_CP_COMMIT:
    case KST_CP_WAIT:
    case KST_PROXY_FENCE:
    case KST_WGMMA_FENCE:
    case KST_WGMMA_COMMIT:
    case KST_WGMMA_WAIT:
    case KST_BLANK: return;
    }
}

static void block(An *a, const KBlock *b)
{
    for (uint32_t i = 0; i < b->n; i++)
        stmt(a, b->v[i]);
}

KcAddr kc_pointer_vars(MtCtx *c, const KFunc *f)
{
    uint32_t n = f->vars.n;
    An a = {.f = f, .param = mt_arena_alloc(&c->arena, n * sizeof *a.param),
            .cand = mt_arena_alloc(&c->arena, n * sizeof *a.cand),
            .linked = mt_arena_alloc(&c->arena, n * sizeof *a.linked)};
    for (uint32_t v = 0; v < n; v++) {
        const KVar *x = &f->vars.v[v];
        a.param[v] = 0;
        a.linked[v] = false;
        a.cand[v] = v && (x->kind == KV_LOCAL || x->kind == KV_REGS) && x->dt == MT_DT_I64;
    }
    const KBlock *parts[] = {&f->shared, &f->prologue, &f->body};
    bool again = true;
    while (again) {
        do {
            a.changed = false;
            for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
                block(&a, parts[i]);
        } while (a.changed);
        /* a candidate that no access binds to a parameter stays an
         * integer, and so does one that takes no part in pointer
         * arithmetic (offsets computed once and used once gain nothing) */
        again = false;
        for (uint32_t v = 1; v < n; v++)
            if (a.cand[v] && (!a.param[v] || !a.linked[v])) {
                a.cand[v] = false;
                again = true;
            }
    }
    for (uint32_t v = 1; v < n; v++)
        if (!a.cand[v])
            a.param[v] = 0;
    return (KcAddr){.param = a.param, .ptr = a.cand};
}

bool kc_pointer_term(const KcAddr *m, const KExpr *e)
{
    KVarId x = 0;
    return terms(m->ptr, e, &x) == 1;
}
