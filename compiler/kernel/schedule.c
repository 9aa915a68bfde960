/* schedule.c: global loads issued as early as their operands allow.
 *
 * Lowering emits a thread's statements in the SSA's order, so a load
 * written after some arithmetic waits for it: layer norm's `w` and `b`
 * rows are loaded only once `1 / tl.sqrt(var + eps)` is known, although
 * their addresses are ready right after the reduction's last barrier.
 * NVRTC does not move loads across the branches of an IEEE division or
 * square root (their slow paths are calls), and ptxas schedules within
 * basic blocks, so the latency of those loads (hundreds of cycles, from
 * L2 at best) adds to the arithmetic's instead of hiding under it.
 *
 * This pass moves, within each statement list, every global load and
 * the declarations and assignments that compute its operands to just
 * after the last statement it depends on:
 *   - a statement that writes a variable it reads, or reads or writes
 *     one it writes (register arrays and locals count as one variable
 *     each; all shared memory counts as one, since views share bytes);
 *   - a barrier, a store, an atomic, control flow, or any statement of
 *     the asynchronous copy and tensor-core families: nothing moves
 *     across those, so memory order is kept whole;
 *   - the statement moved before it, so moved loads keep their order.
 * Statements only change places within one list, never enter or leave a
 * loop or a branch, and every statement still runs exactly once, after
 * everything it reads: the kernel computes what it computed before. */
#include <string.h>

#include "kir.h"

enum { SHARED_MEM = 0 };      /* the slot of all shared memory in the tables (KVarId 0 is never a variable) */

typedef struct Sched {
    const KFunc *f;
    /* per variable (and SHARED_MEM), for the list being scheduled: the
     * position after which a reader of it may go (its last writer) and
     * after which a writer may go (its last reader or writer); positions
     * count the list's statements from 1, 0 is the list's start */
    uint32_t *after_write, *after_access;
    uint32_t *stamp;          /* which list the two entries belong to */
    uint32_t *needed;         /* the list in which a moved statement reads or writes
                               * the variable: its declaration and what computes it
                               * move too */
    uint32_t list;
    /* the effects of one statement */
    MT_VEC(KVarId) reads, writes;
    bool fixed;               /* a statement nothing crosses */
    bool global_load;
    bool collective;          /* a warp shuffle: stays where it is */
    MtCtx *c;
} Sched;

static void note(Sched *s, bool write, KVarId v)
{
    if (s->f->vars.v[v].kind == KV_SHARED)
        v = SHARED_MEM;
    mt_vec_push(&s->c->arena, write ? &s->writes : &s->reads, v);
}

static void expr(Sched *s, const KExpr *e)
{
    if (!e)
        return;
    if (e->op == K_VAR || e->op == K_ELEM)
        note(s, false, e->u.var);
    else if (e->op == K_LOAD)
        s->global_load = true;
    else if (e->op == K_SHFL_XOR)
        s->collective = true;
    for (int i = 0; i < e->nargs; i++)
        expr(s, e->a[i]);
}

/* What statement t reads and writes, into s. */
static void effects(Sched *s, const KStmt *t)
{
    s->reads.n = s->writes.n = 0;
    s->fixed = s->global_load = s->collective = false;
    switch ((KStmtKind)t->kind) {
    case KST_DECL:
    case KST_SET:
        note(s, true, t->u.set.var);
        expr(s, t->u.set.index);
        expr(s, t->u.set.value);
        return;
    case KST_VLOAD:
        note(s, true, t->u.vec.var);
        if (s->f->vars.v[t->u.vec.ptr].kind == KV_SHARED)
            note(s, false, t->u.vec.ptr);
        else
            s->global_load = true;
        expr(s, t->u.vec.index);
        expr(s, t->u.vec.mask);
        for (unsigned i = 0; t->u.vec.other && i < t->u.vec.vec; i++)
            expr(s, t->u.vec.other[i]);
        return;
    case KST_BLANK: return;
    default: s->fixed = true; return;
    }
}

static bool movable(const Sched *s) { return !s->fixed && !s->collective; }

/* Whether a movable statement writes a variable a moved one reads or
 * writes (declares it, or computes an operand). */
static bool feeds(const Sched *s)
{
    for (uint32_t i = 0; i < s->writes.n; i++)
        if (s->writes.v[i] != SHARED_MEM && s->needed[s->writes.v[i]] == s->list)
            return true;
    return false;
}

static uint32_t entry(const Sched *s, const uint32_t *table, KVarId v)
{
    return s->stamp[v] == s->list ? table[v] : 0;
}

static void touch(Sched *s, KVarId v)
{
    if (s->stamp[v] != s->list) {
        s->stamp[v] = s->list;
        s->after_write[v] = s->after_access[v] = 0;
    }
}

static void block(Sched *s, KBlock *b);

static void nested(Sched *s, KStmt *t)
{
    switch ((KStmtKind)t->kind) {
    case KST_IF:
        block(s, &t->u.if_.then);
        block(s, &t->u.if_.els);
        return;
    case KST_FOR: block(s, &t->u.for_.body); return;
    case KST_WHILE: block(s, &t->u.while_.body); return;
    default: return;
    }
}

/* Reorders one list, after the lists inside its statements. A statement
 * that stays is appended at the next position; a moved one goes into the
 * group of moved statements after the position its dependencies give,
 * behind those already there. */
static void block(Sched *s, KBlock *b)
{
    uint32_t n = b->n;
    for (uint32_t i = 0; i < n; i++)
        nested(s, b->v[i]);
    if (!n)
        return;
    s->list++;
    bool *moved = mt_arena_alloc(&s->c->arena, n * sizeof *moved);
    for (uint32_t i = n; i-- > 0;) {
        effects(s, b->v[i]);
        moved[i] = movable(s) && (s->global_load || feeds(s));
        for (uint32_t r = 0; moved[i] && r < s->reads.n; r++)
            s->needed[s->reads.v[r]] = s->list;
        for (uint32_t r = 0; moved[i] && r < s->writes.n; r++)
            s->needed[s->writes.v[r]] = s->list;
    }
    /* group[p]: the moved statements that go after position p */
    MT_VEC(KStmt *) *group = mt_arena_alloc(&s->c->arena, (n + 1) * sizeof *group);
    memset(group, 0, (n + 1) * sizeof *group);
    KStmt **stays = mt_arena_alloc(&s->c->arena, n * sizeof *stays);
    uint32_t nstays = 0, fence = 0, last_moved = 0;
    for (uint32_t i = 0; i < n; i++) {
        KStmt *t = b->v[i];
        effects(s, t);
        uint32_t at;
        if (moved[i]) {
            at = fence > last_moved ? fence : last_moved;
            for (uint32_t r = 0; r < s->reads.n; r++) {
                uint32_t w = entry(s, s->after_write, s->reads.v[r]);
                at = w > at ? w : at;
            }
            for (uint32_t r = 0; r < s->writes.n; r++) {
                uint32_t w = entry(s, s->after_access, s->writes.v[r]);
                at = w > at ? w : at;
            }
            mt_vec_push(&s->c->arena, &group[at], t);
            last_moved = at;
        } else {
            stays[nstays++] = t;
            at = nstays;
            if (s->fixed)
                fence = at;
        }
        for (uint32_t r = 0; r < s->reads.n; r++) {
            touch(s, s->reads.v[r]);
            uint32_t *a = &s->after_access[s->reads.v[r]];
            *a = at > *a ? at : *a;
        }
        for (uint32_t r = 0; r < s->writes.n; r++) {
            touch(s, s->writes.v[r]);
            s->after_write[s->writes.v[r]] = s->after_access[s->writes.v[r]] = at;
        }
    }
    uint32_t k = 0;
    for (uint32_t p = 0; p <= nstays; p++) {
        if (p)
            b->v[k++] = stays[p - 1];
        for (uint32_t j = 0; j < group[p].n; j++)
            b->v[k++] = group[p].v[j];
    }
}

void k_schedule_loads(MtCtx *c, KFunc *f)
{
    uint32_t n = f->vars.n;
    Sched s = {.f = f, .c = c};
    s.after_write = mt_arena_alloc(&c->arena, n * sizeof *s.after_write);
    s.after_access = mt_arena_alloc(&c->arena, n * sizeof *s.after_access);
    s.stamp = mt_arena_alloc(&c->arena, n * sizeof *s.stamp);
    s.needed = mt_arena_alloc(&c->arena, n * sizeof *s.needed);
    memset(s.stamp, 0, n * sizeof *s.stamp);
    memset(s.needed, 0, n * sizeof *s.needed);
    block(&s, &f->prologue);
    block(&s, &f->body);
}
