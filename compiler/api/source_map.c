/* source_map.c: which SSA operations each source line produced.
 *
 * Every instruction keeps the span of the expression it came from; an
 * instruction made inside an inlined helper belongs to the helper's line
 * and also to each call site up the inline chain, so hovering the call in
 * the kernel shows what the helper became there. */
#include <stdlib.h>

#include "base/strbuf.h"
#include "compiled.h"

typedef struct Acc {
    MtCtx *c;
    MT_VEC(MtLineOps) lines;
} Acc;

static MtLineOps *line_entry(Acc *a, uint32_t line)
{
    for (uint32_t i = 0; i < a->lines.n; i++)
        if (a->lines.v[i].line == line)
            return &a->lines.v[i];
    MtLineOps l = {.line = line};
    mt_vec_push(&a->c->arena, &a->lines, l);
    return &a->lines.v[a->lines.n - 1];
}

static void add(Acc *a, uint32_t line, const MtInst *in)
{
    if (!line)
        return;
    MtLineOps *l = line_entry(a, line);
    if (l->ops.n && l->ops.v[l->ops.n - 1] == in)
        return;
    mt_vec_push(&a->c->arena, &l->ops, in);
}

static void visit(MtInst *in, void *ud)
{
    Acc *a = ud;
    if (in->op == OP_YIELD)
        return;
    add(a, in->span.line, in);
    for (uint32_t s = in->inl, depth = 0; s && s < a->c->inl.n && depth < 64; depth++) {
        add(a, a->c->inl.v[s].call.line, in);
        s = a->c->inl.v[s].parent;
    }
}

static int by_line(const void *x, const void *y)
{
    uint32_t a = ((const MtLineOps *)x)->line, b = ((const MtLineOps *)y)->line;
    return a < b ? -1 : a > b;
}

MtLineOps *mt_source_map(MtCtx *c, MtCompiled *k, uint32_t *n)
{
    Acc a = {.c = c};
    *n = 0;
    if (!k->func || !k->optimized)
        return NULL;
    mt_func_walk(k->func, visit, &a);
    /* A body of `pass` has no operations: no array to sort (qsort's
     * pointer must not be NULL, even for zero elements). */
    if (a.lines.n > 1)
        qsort(a.lines.v, a.lines.n, sizeof *a.lines.v, by_line);
    *n = a.lines.n;
    return a.lines.v;
}

const char *mt_compiled_ops_for_line(MtCtx *c, MtCompiled *k, uint32_t line)
{
    uint32_t n;
    MtLineOps *lines = mt_source_map(c, k, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (lines[i].line != line)
            continue;
        MtBuf b;
        mt_buf_init(&b, &c->arena);
        for (uint32_t j = 0; j < lines[i].ops.n; j++) {
            const MtInst *in = lines[i].ops.v[j];
            if (in->op == OP_FOR) {
                /* Just the loop header, not its whole body. */
                MtBuf one;
                mt_buf_init(&one, &c->arena);
                mt_ssa_print_inst(&one, k->func, in, 0);
                const char *t = mt_buf_str(&one);
                const char *nl = t;
                while (*nl && *nl != '\n')
                    nl++;
                mt_buf_putn(&b, t, (size_t)(nl - t));
                mt_buf_putc(&b, '\n');
            } else {
                mt_ssa_print_inst(&b, k->func, in, 0);
            }
        }
        return mt_buf_str(&b);
    }
    return NULL;
}
