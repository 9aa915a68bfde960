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
 * carried block, a pointer advanced): an assignment whose value has no pointer term becomes
 * P + value, an access P[x + i] becomes *(x + i). C's pointer
 * arithmetic counts elements of T, as the offsets do, so every address
 * is the one the offsets gave. Anything else keeps the variable an
 * integer: the rules are checked until no variable changes. */
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

/* Every candidate e refers to is no longer one. */
static void reject_all(An *a, const KExpr *e)
{
    if (!e)
        return;
    if (refers(e))
        reject(a, e->u.var);
    for (int i = 0; i < e->nargs; i++)
        reject_all(a, e->a[i]);
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
    if (n == 1 && v->kind == KV_PARAM && v->ptr)
        bind(a, x, ptr);
    else if (n)
        reject_all(a, index);
}

/* var (or var[index]) = value. */
static void assign(An *a, KVarId var, const KExpr *index, const KExpr *value)
{
    reject_all(a, index);
    if (!value)
        return;
    KVarId x = 0;
    int n = terms(a->cand, value, &x);
    if (!a->cand[var] || n < 0 || n > 1) {
        reject(a, var);
        reject_all(a, value);
    } else if (n == 1) {
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
        reject_all(a, s->u.store.value);
        reject_all(a, s->u.store.mask);
        return;
    case KST_VLOAD:
    case KST_VSTORE:
        access(a, s->u.vec.ptr, s->u.vec.index);
        reject(a, s->u.vec.var);
        reject_all(a, s->u.vec.mask);
        for (unsigned i = 0; s->u.vec.other && i < s->u.vec.vec; i++)
            reject_all(a, s->u.vec.other[i]);
        return;
    case KST_IF:
        reject_all(a, s->u.if_.cond);
        block(a, &s->u.if_.then);
        block(a, &s->u.if_.els);
        return;
    case KST_FOR:
        reject(a, s->u.for_.iv);
        reject_all(a, s->u.for_.start);
        reject_all(a, s->u.for_.stop);
        block(a, &s->u.for_.body);
        return;
    case KST_WHILE:
        reject_all(a, s->u.while_.cond);
        block(a, &s->u.while_.body);
        return;
    case KST_LDMATRIX:
        reject(a, s->u.ldm.dst);
        reject_all(a, s->u.ldm.row_at);
        return;
    case KST_MMA:
        reject(a, s->u.mma.acc);
        reject_all(a, s->u.mma.index);
        return;
    case KST_ATOMIC: {
        const KAtomic *x = &s->u.atomic;
        reject(a, x->dst);
        const KExpr *e[] = {x->index, x->value, x->cmp, x->mask, x->dst_index};
        for (size_t i = 0; i < sizeof e / sizeof *e; i++)
            reject_all(a, e[i]);
        return;
    }
    case KST_CP_ASYNC:
        access(a, s->u.cp.ptr, s->u.cp.index);
        reject_all(a, s->u.cp.smem_at);
        reject_all(a, s->u.cp.mask);
        return;
    case KST_WGMMA:
        reject(a, s->u.wg.acc);
        reject_all(a, s->u.wg.a_at);
        reject_all(a, s->u.wg.b_at);
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

/* Loads inside expressions are accesses too; their uses elsewhere were
 * checked by the statements that hold them. */
static void loads(An *a, const KExpr *e)
{
    if (!e)
        return;
    if (e->op == K_LOAD)
        access(a, e->u.var, e->a[0]);
    for (int i = 0; i < e->nargs; i++)
        if (e->op != K_LOAD || i)
            loads(a, e->a[i]);
}

static void block_loads(An *a, const KBlock *b);

static void stmt_loads(An *a, const KStmt *s)
{
    switch ((KStmtKind)s->kind) {
    case KST_DECL:
    case KST_SET:
        loads(a, s->u.set.index);
        loads(a, s->u.set.value);
        return;
    case KST_STORE:
        loads(a, s->u.store.value);
        loads(a, s->u.store.mask);
        return;
    case KST_IF:
        loads(a, s->u.if_.cond);
        block_loads(a, &s->u.if_.then);
        block_loads(a, &s->u.if_.els);
        return;
    case KST_FOR:
        block_loads(a, &s->u.for_.body);
        return;
    case KST_WHILE:
        loads(a, s->u.while_.cond);
        block_loads(a, &s->u.while_.body);
        return;
    default: return;
    }
}

static void block_loads(An *a, const KBlock *b)
{
    for (uint32_t i = 0; i < b->n; i++)
        stmt_loads(a, b->v[i]);
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
            for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
                block(&a, parts[i]);
                block_loads(&a, parts[i]);
            }
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
