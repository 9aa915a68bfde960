/* print.c: layouts as text (`mytriton compile --emit layout`, hovers).
 *
 *   kernel layout: output tile (8, 8), threads (4, 8) = 32 per block, registers (2, 1)
 *   %8 = block<8x1 x i32>  thread axes (0, -), registers 2x1
 *   %18 = block<8x16 x f32>  staged: cooperative row-major over 32 threads, 4 per thread
 */
#include "assign.h"
#include "base/strbuf.h"

static void shape(MtBuf *b, int rank, const int32_t *s)
{
    if (rank == 1)
        mt_buf_printf(b, "(%d,)", s[0]);
    else
        mt_buf_printf(b, "(%d, %d)", s[0], s[1]);
}

static void describe(MtBuf *b, const MtValLayout *vl)
{
    switch ((MtValLayoutKind)vl->kind) {
    case VL_THREAD:
        mt_buf_puts(b, "thread axes (");
        for (int i = 0; i < vl->tile.rank; i++) {
            if (i)
                mt_buf_puts(b, ", ");
            if (vl->tile.thread_axes[i] == MT_AXIS_BROADCAST)
                mt_buf_putc(b, '-');
            else
                mt_buf_printf(b, "%d", vl->tile.thread_axes[i]);
        }
        if (vl->tile.rank == 1)
            mt_buf_putc(b, ',');
        mt_buf_putc(b, ')');
        if (vl->tile.rank == 2)
            mt_buf_printf(b, ", registers %dx%d", vl->regs[0], vl->regs[1]);
        else
            mt_buf_printf(b, ", registers %d", vl->regs[0]);
        break;
    case VL_TEMPLATE:
        mt_buf_puts(b, "coordinate vector, expanded into a row or column coordinate");
        break;
    case VL_STAGED:
        mt_buf_printf(b, "staged in shared memory: cooperative %s over %d threads, %d per thread",
                      vl->coop.order[0] == 1 ? "row-major" : "column-major", vl->coop.threads,
                      mt_coop_iterations(&vl->coop));
        break;
    case VL_TILE_ONLY:
        mt_buf_puts(b, "addresses a staged tile: evaluated inside the cooperative copy");
        break;
    case VL_UNIFORM:
        mt_buf_puts(b, "uniform scalar");
        break;
    case VL_NONE:
        mt_buf_puts(b, "not lowered");
        break;
    }
}

const char *mt_layout_describe(MtCtx *c, const MtLayoutInfo *li, const MtFunc *f, MtVal v)
{
    if (!li || !v || v >= li->nvals || !f->vals[v].ty || f->vals[v].ty->kind != TY_BLOCK)
        return NULL;
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    describe(&b, &li->vals[v]);
    return mt_buf_str(&b);
}

typedef struct Walk {
    MtBuf *b;
    const MtFunc *f;
    const char *(*describe)(void *ud, MtVal v);
    void *ud;
} Walk;

static void line(Walk *w, MtVal v, int indent)
{
    const MtValue *x = &w->f->vals[v];
    if (!x->ty || x->ty->kind != TY_BLOCK)
        return;
    if (x->def)
        mt_buf_mark(w->b, x->def->span, x->def->inl);
    mt_buf_indent(w->b, indent);
    mt_buf_printf(w->b, "%%%u = ", x->num);
    mt_ty_print(w->b, x->ty);
    mt_buf_puts(w->b, "  ");
    mt_buf_puts(w->b, w->describe(w->ud, v));
    mt_buf_putc(w->b, '\n');
}

static void region(Walk *w, const MtRegion *r, int indent)
{
    for (uint32_t i = 0; i < r->n; i++) {
        const MtInst *in = r->v[i];
        if (in->loop) {
            mt_buf_mark(w->b, in->span, in->inl);
            mt_buf_indent(w->b, indent);
            mt_buf_printf(w->b, "for %%%u {\n", w->f->vals[in->loop->iv].num);
            for (uint32_t k = 0; k < in->loop->ncarried; k++)
                line(w, in->loop->iter_args[k], indent + 2);
            region(w, &in->loop->body, indent + 2);
            mt_buf_mark(w->b, in->span, in->inl);
            mt_buf_indent(w->b, indent);
            mt_buf_puts(w->b, "}\n");
            for (uint32_t k = 0; k < in->loop->ncarried; k++)
                line(w, in->loop->results[k], indent);
        } else if (in->dst) {
            line(w, in->dst, indent);
        }
    }
}

void mt_layout_print_values(MtBuf *b, const MtFunc *f, const char *(*describe_fn)(void *ud, MtVal v), void *ud)
{
    Walk w = {b, f, describe_fn, ud};
    region(&w, &f->body, 0);
}

typedef struct Seed {
    MtCtx *c;
    const MtLayoutInfo *li;
} Seed;

static const char *seed_describe(void *ud, MtVal v)
{
    Seed *s = ud;
    MtBuf b;
    mt_buf_init(&b, &s->c->arena);
    describe(&b, &s->li->vals[v]);
    return mt_buf_str(&b);
}

const char *mt_layout_print(MtCtx *c, const MtFunc *f, const MtLayoutInfo *li, MtLineMarks *marks)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    mt_buf_record_marks(&b, marks);
    const MtKernelLayout *k = &li->kernel;
    mt_buf_puts(&b, "kernel layout: output tile ");
    shape(&b, k->rank, k->output);
    mt_buf_puts(&b, ", threads ");
    shape(&b, k->rank, k->threads);
    mt_buf_printf(&b, " = %d per block", mt_kernel_layout_threads(k));
    if (li->register_tiles) {
        mt_buf_puts(&b, ", registers ");
        shape(&b, k->rank, li->reg.registers);
        mt_buf_puts(&b, " per thread");
    }
    mt_buf_putc(&b, '\n');
    Seed s = {c, li};
    mt_layout_print_values(&b, f, seed_describe, &s);
    return mt_buf_str(&b);
}
