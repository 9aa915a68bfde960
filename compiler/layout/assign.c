/* assign.c: layout inference for a kernel's SSA (seed 002, ver12-16).
 *
 *  1. The output tile comes from what the kernel makes observable: the
 *     block operands of its stores (pointer, value and mask, nested loops
 *     included), broadcast together. No block store: the scalar tile (1,).
 *  2. The thread shape equals the output tile for elementwise kernels;
 *     reductions keep the width of the vector they reduce (one thread per
 *     lane of the shared-memory tree), and tl.dot kernels use the dot
 *     policy (at most 32 threads, a register tile per thread).
 *  3. Each tl.dot operand must be computable at any tile element from
 *     loads, aranges and scalars (a canonical masked matrix tile load is):
 *     it is staged into shared memory cooperatively, and the values that
 *     only feed it are evaluated inside the copy loop instead of per
 *     thread.
 *  4. Every other block value is projected onto the threads (with
 *     registers when the output is larger than the thread shape); rank-1
 *     vectors of a rank-2 kernel are coordinate templates that expand_dims
 *     turns into row or column coordinates.
 */
#include "assign.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct As {
    MtCtx *c;
    const MtFunc *f;
    MtLayoutInfo *li;
    /* output tile */
    int out_rank;
    int32_t out[MT_LAYOUT_MAX_RANK];
    const MtInst *out_from;
    bool out_bad;
    /* reductions */
    int32_t red_width;
    const MtInst *red_from;
    bool red_bad;
    MT_VEC(const MtInst *) dots;
    uint8_t *in_slice;        /* per value: a block value that addresses a staged tile */
    uint8_t *slice_ok;        /* per value: 0 unknown, 1 coordinate-computable, 2 not */
    uint8_t *needed;          /* per value: must be lowered per thread */
    bool failed;
} As;

static const char *ts(As *a, const MtType *t) { return mt_ty_str(a->c, t); }

static MtDiagRec *err(As *a, const MtInst *in, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static MtDiagRec *err(As *a, const MtInst *in, const char *code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    MtDiagRec *d = mt_vdiag(a->c, MT_SEV_ERROR, in->span, code, fmt, ap);
    va_end(ap);
    mt_note_inline(a->c, d, in->inl);
    a->failed = true;
    return d;
}

static void shape_str(char *buf, size_t n, int rank, const int32_t *s)
{
    if (rank == 1)
        snprintf(buf, n, "(%d,)", s[0]);
    else
        snprintf(buf, n, "(%d, %d)", s[0], s[1]);
}

/* ---- 1. the output tile, reductions and dots ------------------------------------------ */

static void add_store_shape(As *a, const MtInst *in, const MtType *t)
{
    if (a->out_bad || !t || t->kind != TY_BLOCK)
        return;
    if (!a->out_rank) {
        a->out_rank = t->rank;
        memcpy(a->out, t->shape, sizeof a->out);
        a->out_from = in;
        return;
    }
    char s1[32], s2[32];
    shape_str(s1, sizeof s1, a->out_rank, a->out);
    shape_str(s2, sizeof s2, t->rank, t->shape);
    if (t->rank != a->out_rank) {
        MtDiagRec *d = err(a, in, "E0601", "stores disagree on the output tile: %s here, %s elsewhere (rank-1 and "
                           "rank-2 stores cannot share one kernel)", s2, s1);
        mt_note(a->c, d, a->out_from->span, "a store of shape %s", s1);
        a->out_bad = true;
        return;
    }
    for (int i = 0; i < t->rank; i++) {
        if (t->shape[i] == a->out[i] || t->shape[i] == 1)
            continue;
        if (a->out[i] == 1 && t->rank == 2) {
            a->out[i] = t->shape[i];
            continue;
        }
        MtDiagRec *d = err(a, in, "E0601", "stores disagree on the output tile: %s here, %s elsewhere", s2, s1);
        mt_note(a->c, d, a->out_from->span, "a store of shape %s", s1);
        a->out_bad = true;
        return;
    }
}

static void scan(MtInst *in, void *ud)
{
    As *a = ud;
    const MtFunc *f = a->f;
    switch (in->op) {
    case OP_STORE:
        for (uint32_t i = 0; i < 3; i++)
            if (in->args[i])
                add_store_shape(a, in, f->vals[in->args[i]].ty);
        break;
    case OP_SUM:
    case OP_MAX:
    case OP_MIN: {
        int32_t w = f->vals[in->args[0]].ty->shape[0];
        if (!a->red_width) {
            a->red_width = w;
            a->red_from = in;
        } else if (w != a->red_width && !a->red_bad) {
            MtDiagRec *d = err(a, in, "E0604", "reductions of different widths (%d here, %d elsewhere) cannot share "
                               "one CUDA block", w, a->red_width);
            mt_note(a->c, d, a->red_from->span, "a reduction of width %d", a->red_width);
            a->red_bad = true;
        }
        break;
    }
    case OP_DOT:
        mt_vec_push(&a->c->arena, &a->dots, in);
        break;
    default:
        break;
    }
}

static bool kernel_layout(As *a)
{
    MtLayoutInfo *li = a->li;
    int rank = a->out_rank ? a->out_rank : 1;
    int32_t out[2] = {a->out_rank ? a->out[0] : 1, a->out_rank == 2 ? a->out[1] : 1};
    int32_t threads[2] = {out[0], out[1]};
    char s[32];
    if (a->dots.n) {
        const MtType *dt = a->f->vals[a->dots.v[0]->dst].ty;
        if (rank != 2 || out[0] != dt->shape[0] || out[1] != dt->shape[1]) {
            shape_str(s, sizeof s, rank, out);
            err(a, a->dots.v[0], "E0601", "the tl.dot result %s must be the kernel's output tile, but the stores "
                "write %s", ts(a, dt), s);
            return false;
        }
        for (uint32_t i = 1; i < a->dots.n; i++) {
            const MtType *t = a->f->vals[a->dots.v[i]->dst].ty;
            if (t != dt) {
                err(a, a->dots.v[i], "E0601", "tl.dot results of different shapes (%s and %s) in one kernel",
                    ts(a, t), ts(a, dt));
                return false;
            }
        }
        if (a->red_width) {
            err(a, a->red_from, "E0603", "reductions in a tl.dot kernel are not supported by the CUDA backend");
            return false;
        }
        mt_dot_thread_shape(out, threads);
    } else if (a->red_width) {
        if (rank == 2) {
            err(a, a->red_from, "E0603", "reductions in a kernel that stores rank-2 tiles are not supported by the "
                "CUDA backend");
            return false;
        }
        if (out[0] != 1 && out[0] != a->red_width) {
            shape_str(s, sizeof s, rank, out);
            err(a, a->red_from, "E0604", "the reduction over %d lanes does not match the output tile %s: a "
                "reduction needs one thread per lane", a->red_width, s);
            return false;
        }
        threads[0] = a->red_width;
    }
    char msg[160];
    if (!mt_kernel_layout(rank, out, threads, &li->kernel, msg, sizeof msg)) {
        shape_str(s, sizeof s, rank, out);
        const MtInst *at = a->out_from ? a->out_from : a->red_from;
        MtSpan sp = at ? at->span : (MtSpan){0};
        MtDiagRec *d = mt_error(a->c, sp, "E0602", "%s (output tile %s); use smaller block sizes", msg, s);
        if (at)
            mt_note_inline(a->c, d, at->inl);
        a->failed = true;
        return false;
    }
    mt_register_layout(rank, out, threads, &li->reg, msg, sizeof msg);
    for (int i = 0; i < rank; i++)
        li->register_tiles |= li->reg.registers[i] > 1;
    return true;
}

/* ---- 2. staged tl.dot operands -------------------------------------------------------- */

static bool is_block(const As *a, MtVal v) { return v && a->f->vals[v].ty->kind == TY_BLOCK; }

/* Whether v can be evaluated at any tile coordinate from aranges and
 * scalars; marks the block values it needs. `culprit` gets the first
 * instruction that cannot. */
static bool coordinate_computable(As *a, MtVal v, const MtInst **culprit)
{
    if (!is_block(a, v))
        return true; /* scalars are uniform: lowered before the copy */
    if (a->slice_ok[v])
        return a->slice_ok[v] == 1;
    const MtValue *x = &a->f->vals[v];
    bool ok = false;
    if (x->kind == VK_INST) {
        const MtInst *in = x->def;
        unsigned fl = mt_op_info[in->op].flags;
        if (in->op == OP_ARANGE || in->op == OP_EXPAND_DIMS || in->op == OP_ZEROS || in->op == OP_FULL ||
            in->op == OP_LOAD || (fl & F_ELEM)) {
            ok = true;
            for (uint32_t i = 0; i < in->nargs && ok; i++)
                ok = coordinate_computable(a, in->args[i], culprit);
        } else if (!*culprit) {
            *culprit = in;
        }
    } else if (!*culprit) {
        *culprit = x->def;
    }
    a->slice_ok[v] = ok ? 1 : 2;
    if (ok)
        a->in_slice[v] = 1;
    return ok;
}

static bool stage_operand(As *a, const MtInst *dot, int k)
{
    MtVal v = dot->args[k];
    const MtValue *x = &a->f->vals[v];
    const char *which = k ? "second" : "first";
    const MtInst *culprit = NULL;
    if (!coordinate_computable(a, v, &culprit)) {
        MtDiagRec *d = mt_error(a->c, culprit ? culprit->span : dot->span, "E0605",
                                "the %s tl.dot operand must be computable at every tile element from loads, aranges "
                                "and scalars, as a canonical matrix tile load is (tl.load(base + rows * stride + cols, "
                                "mask=..., other=0.0)); this '%s' is not",
                                which, culprit ? mt_op_info[culprit->op].text : "value");
        mt_note(a->c, d, dot->span, "the tl.dot it feeds");
        a->failed = true;
        return false;
    }
    MtValLayout *vl = &a->li->vals[v];
    vl->kind = VL_STAGED;
    char msg[128];
    mt_coop_layout(2, x->ty->shape, mt_kernel_layout_threads(&a->li->kernel), NULL, &vl->coop, msg, sizeof msg);
    return true;
}

/* A value is lowered per thread when something observable needs it:
 * stores, loop bounds, initial and yielded carried values, and everything
 * those read, except a dot's operands, which are staged instead. */
static void need(As *a, MtVal v)
{
    if (!v || a->needed[v])
        return;
    a->needed[v] = 1;
    const MtValue *x = &a->f->vals[v];
    if (x->kind != VK_INST || x->def->op == OP_DOT)
        return;
    for (uint32_t i = 0; i < x->def->nargs; i++)
        need(a, x->def->args[i]);
}

static void mark_needed(As *a, const MtRegion *r)
{
    for (uint32_t i = 0; i < r->n; i++) {
        const MtInst *in = r->v[i];
        if (in->op == OP_STORE || in->op == OP_YIELD || in->op == OP_FOR)
            for (uint32_t k = 0; k < in->nargs; k++)
                need(a, in->args[k]);
        if (in->loop)
            mark_needed(a, &in->loop->body);
    }
}

/* A loop result lives in its region argument's variable, so a needed
 * result needs the argument (and the other way round). */
static void need_carried(As *a, const MtRegion *r)
{
    for (uint32_t i = 0; i < r->n; i++) {
        const MtForData *l = r->v[i]->loop;
        if (!l)
            continue;
        for (uint32_t k = 0; k < l->ncarried; k++)
            if (a->needed[l->results[k]] || a->needed[l->iter_args[k]]) {
                need(a, l->results[k]);
                need(a, l->iter_args[k]);
            }
        need_carried(a, &l->body);
    }
}

/* ---- 3. per-value layouts ---------------------------------------------------------------- */

static bool template_ok(As *a, MtVal v)
{
    const MtValue *x = &a->f->vals[v];
    if (x->kind != VK_INST)
        return false;
    const MtInst *in = x->def;
    if (in->op == OP_ARANGE)
        return true;
    if (!(mt_op_info[in->op].flags & F_ELEM) || in->op == OP_ADDPTR)
        return false;
    for (uint32_t i = 0; i < in->nargs; i++)
        if (is_block(a, in->args[i]) && a->li->vals[in->args[i]].kind != VL_TEMPLATE)
            return false;
    return true;
}

static void assign_value(As *a, MtVal v, const MtInst *at)
{
    MtLayoutInfo *li = a->li;
    MtValLayout *vl = &li->vals[v];
    const MtType *t = a->f->vals[v].ty;
    if (!t)
        return;
    if (vl->kind == VL_STAGED) {
        if (a->needed[v])
            err(a, at, "E0605", "a tl.dot operand is staged through shared memory and cannot also be used "
                "elsewhere; load the tile a second time for the other use");
        return;
    }
    if (t->kind != TY_BLOCK) {
        vl->kind = VL_UNIFORM;
        return;
    }
    if (!a->needed[v]) {
        vl->kind = a->in_slice[v] ? VL_TILE_ONLY : VL_NONE;
        return;
    }
    const MtKernelLayout *k = &li->kernel;
    /* The shape per-thread values tile: the thread shape of a rank-1
     * kernel (a reduction's lanes may outnumber its output), the output
     * tile of a rank-2 one (registers cover the rest). */
    const int32_t *tile = k->rank == 1 ? k->threads : k->output;
    char s[32], msg[160];
    shape_str(s, sizeof s, k->rank, tile);
    if (k->rank == 2 && t->rank == 1) {
        if (!template_ok(a, v)) {
            err(a, at, "E0601", "a rank-1 %s in a kernel of rank-2 tiles can only be an arange-based coordinate "
                "expanded with [:, None] or [None, :]", ts(a, t));
            return;
        }
        vl->kind = VL_TEMPLATE;
        return;
    }
    unsigned bmask = 0;
    if (at && at->op == OP_EXPAND_DIMS && at->dst == v)
        bmask = 1u << at->attr.axis;
    if (t->rank != k->rank) {
        err(a, at, "E0601", "%s does not fit a kernel whose blocks are %s", ts(a, t), s);
        return;
    }
    for (int i = 0; i < t->rank; i++)
        if (t->shape[i] != 1 && t->shape[i] != tile[i]) {
            err(a, at, "E0601", "%s does not fit the kernel's %s %s: each dimension must equal the tile's or be 1",
                ts(a, t), k->rank == 1 ? "thread block" : "output tile", s);
            return;
        }
    /* Project onto the tile; register tiles project the same way with the
     * thread shape standing in for the output. */
    MtKernelLayout proj = *k;
    memcpy(proj.threads, tile, sizeof proj.threads);
    if (!mt_tile_layout(&proj, t->rank, t->shape, bmask, &vl->tile, msg, sizeof msg)) {
        err(a, at, "E0601", "%s: %s", ts(a, t), msg);
        return;
    }
    vl->kind = VL_THREAD;
    for (int i = 0; i < MT_LAYOUT_MAX_RANK; i++)
        vl->regs[i] = i < t->rank && vl->tile.thread_axes[i] != MT_AXIS_BROADCAST ? li->reg.registers[i] : 1;
}

static void assign_region(As *a, const MtRegion *r)
{
    for (uint32_t i = 0; i < r->n && !a->failed; i++) {
        const MtInst *in = r->v[i];
        if (in->loop) {
            for (uint32_t k = 0; k < in->loop->ncarried; k++)
                assign_value(a, in->loop->iter_args[k], in);
            a->li->vals[in->loop->iv].kind = VL_UNIFORM;
            assign_region(a, &in->loop->body);
            for (uint32_t k = 0; k < in->loop->ncarried; k++)
                assign_value(a, in->loop->results[k], in);
        } else if (in->dst) {
            assign_value(a, in->dst, in);
        }
    }
}

MtLayoutInfo *mt_layout_assign(MtCtx *c, const MtFunc *f)
{
    if (!mt_layout_supported(c, f))
        return NULL;
    As a = {.c = c, .f = f};
    MtLayoutInfo *li = mt_arena_alloc(&c->arena, sizeof *li);
    a.li = li;
    li->nvals = f->nvals;
    li->vals = mt_arena_alloc(&c->arena, (f->nvals + 1) * sizeof *li->vals);
    a.in_slice = mt_arena_alloc(&c->arena, f->nvals + 1);
    a.slice_ok = mt_arena_alloc(&c->arena, f->nvals + 1);
    a.needed = mt_arena_alloc(&c->arena, f->nvals + 1);
    mt_func_walk((MtFunc *)f, scan, &a);
    if (a.failed || !kernel_layout(&a))
        return NULL;
    li->dots = a.dots.v;
    li->ndots = a.dots.n;
    for (uint32_t i = 0; i < a.dots.n; i++)
        if (!stage_operand(&a, a.dots.v[i], 0) || !stage_operand(&a, a.dots.v[i], 1))
            return NULL;
    mark_needed(&a, &f->body);
    need_carried(&a, &f->body);
    for (uint32_t i = 0; i < f->nparams; i++)
        li->vals[f->params[i]].kind = VL_UNIFORM;
    for (uint32_t v = 1; v < f->nvals; v++)
        if (f->vals[v].kind == VK_CONST)
            li->vals[v].kind = VL_UNIFORM;
    assign_region(&a, &f->body);
    return a.failed ? NULL : li;
}
