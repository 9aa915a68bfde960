/* lower_pipe.c: the tiles of a tl.dot copied from global into shared
 * memory in stages (Triton's num_stages), without registers: the tiles
 * of a tensor-core dot, and the f32 tiles of a CUDA-core one.
 *
 * The prefetch pass (opt/prefetch.c) loads such a tile d iterations ahead
 * and carries it through d loop slots: the body's dot reads the first
 * (the head), each slot passes the next one's tile on, the last takes the
 * load of iteration k + d, and the first d iterations' loads come before
 * the loop. Here a chain of that shape becomes a ring of S = d + 1 stages
 * (d + 2 with a dot in flight, below) in shared memory, each holding its
 * tile as the dot reads it (lw_dot_operand_tile, lower_dot.c: row-major
 * with a padded pitch for mma.sync and for A on CUDA cores, as it is for
 * B on CUDA cores, wgmma's swizzled layout for the warpgroups, but for
 * a TF32 one's B, padded, which its threads read):
 *
 *   before the loop   barrier; for t < d: cp.async tile t -> stage t; commit
 *   each iteration    cp.async.wait (d - 1) * rings; barrier
 *                     cp.async tile k + d -> stage (s + d) % S; commit
 *                     the dot reads stage s
 *                     s = (s + 1) % S
 *   after the loop    cp.async.wait 0
 *
 * where s, the loop's stage counter, starts at 0. The wait at the top of
 * iteration k leaves the d - 1 later tiles in flight and lands tile k;
 * the barrier after it shows every thread's copies to every thread, the
 * warpgroups' tensor cores included (the copies are cp.async's, which
 * need no proxy fence before a wgmma reads them, as in Triton's and
 * CUTLASS's pipelines; a fence costs a MEMBAR.ALL.CTA an iteration), and
 * also ends the reads of iteration k - 1, whose stage the copy of tile
 * k + d then overwrites. A slot passing its tile on costs nothing: the
 * stage a slot names moves with s. A copy whose mask is off (the tile's
 * edge, or an iteration past the loop's end) writes zeros and reads
 * nothing, as the load's `other` of zero would give.
 *
 * A warpgroup dot (wgmma, lower_dot.c) that adds into a carried
 * accumulator in place leaves its products in flight at the end of an
 * iteration and the loop waits for them after it: a dot of halves waits
 * for the iteration before's after its own (wgmma.wait 1), a TF32 one for
 * all of them before it loads anew the registers its wgmmas read. Its
 * ring then has S = d + 2 stages, so that the stage a copy overwrites was
 * read two iterations before, by wgmmas that every warpgroup has waited
 * for by the barrier before the copy (when S stages fit 200 KiB; else
 * S = d + 1 and the dot waits for its own products).
 *
 * The stages outlive the uses of scratch memory in the loop, so they are
 * allocated below them (the pool's floor rises past them while the loop
 * runs, lw_shared_keep) and released after it.
 *
 * A chain qualifies when the head's one use is an operand of a dot that
 * reads stages (lw_dot_reads_stages; through the cast that widens a half
 * tile on tensor cores), every other slot's one use is the yield, the
 * loop's results for the slots are unused, and every load of it has an
 * `other` of zero (or none) and moves 4, 8 or 16 bytes per access in the
 * default layout of its tile. Other chains stay in registers, as the
 * prefetch pass left them. */
#include <math.h>

#include "lower.h"

static bool zero_const(const Lw *L, MtVal v)
{
    const MtValue *x = &L->f->vals[v];
    if (x->kind != VK_CONST)
        return false;
    return x->cst.kind == CST_FLOAT ? x->cst.f == 0.0 && !signbit(x->cst.f) : x->cst.i == 0;
}

/* Bytes per copy of a load into a stage: its default layout's accesses,
 * if cp.async can make them (4, 8 or 16 bytes, the rest 0) and its other
 * value is zero. */
static uint32_t copy_bytes(Lw *L, const MtInst *load)
{
    if (load->op != OP_LOAD || !load->ty || load->ty->kind != TY_BLOCK || load->ty->rank != 2)
        return 0;
    if (load->args[2] && !zero_const(L, load->args[2]))
        return 0;
    uint32_t esize = (uint32_t)mt_dtype_info(lw_dtype(load->ty))->size;
    uint32_t bytes = lw_vector_width(L, lw_default_layout(L, load->ty), esize, load->args[0], load->args[1],
                                     load->args[2], load->ty) *
                     esize;
    return bytes == 4 || bytes == 8 || bytes == 16 ? bytes : 0;
}

/* Whether iter arg `head` of loop starts a chain (as the file's comment
 * says): the bytes its loads copy at a time (0: no chain); its slots and
 * depth, the dot and the operand of it it is, and the cast that widens it
 * for the dot (0: none), which the dot makes unnecessary. */
static uint32_t chain(Lw *L, const MtInst *loop, MtVal head, uint32_t *slots, uint32_t *depth, const MtInst **dot,
                      int *operand, MtVal *widened)
{
    const MtForData *l = loop->loop;
    const MtRegion *body = &l->body;
    const MtInst *y = body->v[body->n - 1];
    const MtInst *u = mt_staged_dot_operand(L->f, body, head, L->uses, operand, widened);
    MtDtype dt;
    if (!u || !lw_dot_reads_stages(L, u, &dt))
        return 0;
    *dot = u;
    uint32_t n = 0;
    MtVal v = head;
    while (L->f->vals[v].kind == VK_ARG && L->f->vals[v].def == loop) {
        uint32_t s = L->f->vals[v].index;
        if (n == MT_NUM_STAGES_MAX || (n && L->uses[v] != 1) || L->uses[l->results[s]])
            return 0;
        slots[n++] = s;
        v = y->args[s];
    }
    /* v: the load of iteration k + n, in the body */
    const MtInst *last = L->def[v];
    if (!n || !last || last->op != OP_LOAD || mt_region_only_user(body, v, L->uses) != y)
        return 0;
    uint32_t bytes = copy_bytes(L, last);
    for (uint32_t t = 0; t < n && bytes; t++) {
        MtVal init = loop->args[2 + slots[t]];
        const MtInst *first = L->def[init];
        if (!first || L->uses[init] != 1 || copy_bytes(L, first) != bytes || first->ty != last->ty)
            bytes = 0;
    }
    *depth = n;
    return lw_dtype(last->ty) == dt ? bytes : 0;
}

/* Whether a carried block passes to another slot of its loop and is held
 * in registers (no ring took it). */
static bool chained_registers(const Lw *L, const MtInst *loop)
{
    const MtForData *l = loop->loop;
    const MtInst *y = l->body.v[l->body.n - 1];
    for (uint32_t s = 0; s < l->ncarried; s++) {
        const MtValue *next = &L->f->vals[y->args[s]];
        if (next->kind == VK_ARG && next->def == loop && next->ty->kind == TY_BLOCK && !L->tile_of[l->iter_args[s]])
            return true;
    }
    return false;
}

/* The carried accumulator a warpgroup dot of the loop adds into in place
 * (0: none): acc = acc + tl.dot(a, b) with acc an argument of the loop
 * whose one use is the add, the sum's one use the yield into acc's slot,
 * both in the dot's layout. */
static MtVal in_place_acc(Lw *L, const MtInst *loop, const MtInst *dot)
{
    const MtForData *l = loop->loop;
    const MtInst *sum = L->sum_of[dot->dst], *y = l->body.v[l->body.n - 1];
    if (!lw_dot_on_warpgroups(L, dot) || !sum)
        return 0;
    MtVal acc = sum->args[sum->args[0] == dot->dst];
    const MtValue *x = &L->f->vals[acc];
    if (x->kind != VK_ARG || x->def != loop || L->uses[acc] != 1 || L->uses[sum->dst] != 1 ||
        y->args[x->index] != sum->dst || !L->home[acc] || !mt_ll_equal(L->home[acc], L->home[dot->dst]))
        return 0;
    return acc;
}

/* The stages' bytes with a dot in flight, at most: what an H100's or
 * H200's block may opt into is 227 KiB, and the rest serves the kernel's
 * other uses of shared memory (the prefetch pass keeps the others' to
 * 160 KiB). */
enum { IN_FLIGHT_STAGES_MAX = 200 * 1024 };

static void plan_loop(Lw *L, const MtInst *loop)
{
    MtCtx *c = L->c;
    const MtForData *l = loop->loop;
    LPipe *p = NULL;
    uint32_t slots[MT_NUM_STAGES_MAX];
    for (uint32_t s = 0; s < l->ncarried; s++) {
        uint32_t depth;
        int operand;
        const MtInst *dot;
        MtVal head = l->iter_args[s], widened;
        uint32_t bytes = chain(L, loop, head, slots, &depth, &dot, &operand, &widened);
        if (!bytes || (p && depth != p->depth))
            continue;
        if (widened)
            L->fused[widened] = 1;
        if (!p) {
            p = mt_arena_alloc(&c->arena, sizeof *p);
            p->loop = loop;
            p->depth = depth;
            p->acc = in_place_acc(L, loop, dot);
            p->stages = depth + (p->acc ? 2 : 1);
            p->next = L->pipes;
            L->pipes = p;
        } else if (p->acc && in_place_acc(L, loop, dot) != p->acc) {
            /* rings feeding another dot: its reads are not covered by the wait */
            p->acc = 0;
            p->stages = depth + 1;
        }
        LRing *r = mt_arena_alloc(&c->arena, sizeof *r);
        const MtInst *last = L->def[l->body.v[l->body.n - 1]->args[slots[depth - 1]]];
        r->pipe = p;
        r->dt = lw_dtype(last->ty);
        r->bytes = bytes;
        r->tile = lw_dot_operand_tile(L, dot, operand);
        r->stage_elems = lw_tile_elems(&r->tile);
        r->next = p->rings;
        p->rings = r;
        p->nrings++;
        /* the tiles: iteration t's (t < depth) in slot t and before the loop,
         * iteration k + depth's in the body */
        for (uint32_t t = 0; t <= depth; t++) {
            LTile *x = mt_arena_alloc(&c->arena, sizeof *x);
            x->ring = r;
            x->pos = t;
            if (t < depth) {
                L->tile_of[l->iter_args[slots[t]]] = x;
                L->tile_of[loop->args[2 + slots[t]]] = x;
            } else {
                L->tile_of[last->dst] = x;
            }
        }
    }
    /* the stage a dot in flight needs besides, when the pool has room */
    uint64_t bytes = 0;
    for (LRing *r = p ? p->rings : NULL; r; r = r->next)
        bytes += (uint64_t)r->stage_elems * mt_dtype_info(r->dt)->size;
    if (p && p->acc && bytes * p->stages > IN_FLIGHT_STAGES_MAX) {
        p->acc = 0;
        p->stages = p->depth + 1;
    }
}

static void plan_region(Lw *L, const MtRegion *r)
{
    for (uint32_t i = 0; i < r->n; i++) {
        const MtInst *in = r->v[i];
        for (uint32_t k = 0; k < mt_inst_nregions(in); k++)
            plan_region(L, mt_inst_region((MtInst *)in, k));
        if (in->op == OP_FOR) {
            if (L->tensor_cores)
                plan_loop(L, in);
            L->kf->chained_registers |= chained_registers(L, in);
        }
    }
}

void lw_plan_pipes(Lw *L) { plan_region(L, &L->f->body); }

LPipe *lw_pipe_accumulating(Lw *L, const MtInst *dot)
{
    const MtInst *sum = L->sum_of[dot->dst];
    if (!sum)
        return NULL;
    MtVal acc = sum->args[sum->args[0] == dot->dst];
    for (LPipe *p = L->pipes; p; p = p->next)
        if (p->acc && p->acc == acc)
            return p;
    return NULL;
}

LPipe *lw_pipe_of(Lw *L, const MtInst *loop)
{
    for (LPipe *p = L->pipes; p; p = p->next)
        if (p->loop == loop)
            return p;
    return NULL;
}

/* The element of stage `stage` (an i32 expression) where ring r's tile starts. */
static const KExpr *stage_at(Lw *L, const LRing *r, const KExpr *stage)
{
    return k_add(L->c, r->share, k_mul(L->c, stage, k_int(L->c, MT_DT_I32, r->stage_elems)));
}

/* (s + t) % S of the loop's stage counter, as a select: s < S and t < S. */
static const KExpr *stage_after(Lw *L, const LPipe *p, uint32_t t)
{
    MtCtx *c = L->c;
    const KExpr *s = k_ref(c, L->kf, p->stage);
    if (!t)
        return s;
    const KExpr *sum = k_add(c, s, k_int(c, MT_DT_I32, t));
    return k_op(c, K_SELECT, MT_DT_I32, k_op(c, K_LT, MT_DT_I32, sum, k_int(c, MT_DT_I32, p->stages), NULL), sum,
                k_add(c, s, k_int(c, MT_DT_I32, (int64_t)t - p->stages)));
}

void lw_pipe_load(Lw *L, const MtInst *in)
{
    MtCtx *c = L->c;
    const LTile *x = L->tile_of[in->dst];
    LRing *r = x->ring;
    LPipe *p = r->pipe;
    if (!p->allocated) {
        /* earlier uses of scratch memory are read before the stages are written */
        k_barrier(&L->b);
        p->floor = L->scratch_floor;
        for (LRing *q = p->rings; q; q = q->next)
            q->smem = lw_shared_keep(L, q->dt, p->stages * q->stage_elems, lw_tile_align(&q->tile), "stage",
                                     &q->share);
        p->allocated = true;
    }
    const MtLinear *ll = lw_default_layout(L, in->ty);
    uint32_t vec = r->bytes / (uint32_t)mt_dtype_info(r->dt)->size;
    LVal ptr = lw_operand(L, in, 0, ll);
    LVal mask = in->args[1] ? lw_operand(L, in, 1, ll) : (LVal){0};
    const KExpr *at = stage_at(L, r, x->pos < p->depth ? k_int(c, MT_DT_I32, x->pos) : stage_after(L, p, p->depth));
    for (uint32_t k = 0; k < mt_ll_nregs(ll); k += vec) {
        const KExpr *row = lw_coord(L, ll, 0, k), *col = lw_coord(L, ll, 1, k);
        k_cp_async(&L->b, r->smem, lw_tile_index(L, &r->tile, at, row, col), ptr.base,
                   lw_elem(L, &ptr, ll, k), (int)r->bytes, in->args[1] ? lw_elem(L, &mask, ll, k) : NULL);
    }
    k_cp_commit(&L->b);
}

void lw_pipe_enter(Lw *L, LPipe *p)
{
    p->stage = k_var(L->c, L->kf, KV_LOCAL, MT_DT_I32, 0, lw_name(L, "stage"));
    k_decl(&L->b, p->stage, k_int(L->c, MT_DT_I32, 0));
}

LVal lw_pipe_value(Lw *L, const LPipe *p, MtVal arg)
{
    const LTile *x = L->tile_of[arg];
    const LRing *r = x->ring;
    return (LVal){.kind = LV_STAGED, .smem = r->smem, .at = stage_at(L, r, stage_after(L, p, x->pos)), .tile = r->tile};
}

void lw_pipe_iteration(Lw *L, const LPipe *p)
{
    k_cp_wait(&L->b, (p->depth - 1) * p->nrings);
    k_barrier(&L->b);
}

void lw_pipe_advance(Lw *L, const LPipe *p)
{
    MtCtx *c = L->c;
    const KExpr *next = k_add(c, k_ref(c, L->kf, p->stage), k_int(c, MT_DT_I32, 1));
    k_set(&L->b, p->stage, NULL,
          k_op(c, K_SELECT, MT_DT_I32, k_op(c, K_EQ, MT_DT_I32, next, k_int(c, MT_DT_I32, p->stages), NULL),
               k_int(c, MT_DT_I32, 0), next));
}

void lw_pipe_leave(Lw *L, const LPipe *p)
{
    /* copies past the loop's end (zeros) land before the stages' bytes
     * serve anything else, and the last iteration's wgmmas before the
     * accumulator is read */
    k_cp_wait(&L->b, 0);
    if (p->acc_regs) {
        KStmt *s = k_stmt(&L->b, KST_WGMMA_WAIT);
        s->u.wg.acc = p->acc_regs;
    }
    L->scratch_floor = p->floor;
}
