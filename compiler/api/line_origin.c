/* line_origin.c: which source range each line of a printed stage shows.
 *
 * The printers mark every line they write with the source range and inline
 * site of the node or operation on it (MtLineMarks, base/strbuf.h); the
 * CUDA emitter keeps the same two facts per generated line. This file turns
 * a mark into the public MtLineOrigin: the range, plus the chain of helper
 * calls it was inlined through, read from the context's inline-site table.
 * Nothing here reads printed text back. */
#include "compiled.h"

static const MtLineMark *find_mark(const MtLineMarks *m, uint32_t line)
{
    uint32_t lo = 0, hi = m->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->v[mid].line < line)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->n && m->v[lo].line == line ? &m->v[lo] : NULL;
}

static bool origin(MtCtx *c, MtSpan span, uint32_t inl, MtLineOrigin *out)
{
    if (!span.line)
        return false;
    out->span = span;
    out->calls = NULL;
    out->ncalls = 0;
    uint32_t depth = 0;
    for (uint32_t s = inl; s && s < c->inl.n && depth < 64; s = c->inl.v[s].parent)
        depth++;
    if (!depth)
        return true;
    MtSpan *calls = mt_arena_alloc(&c->arena, depth * sizeof *calls);
    for (uint32_t s = inl; out->ncalls < depth; s = c->inl.v[s].parent)
        calls[out->ncalls++] = c->inl.v[s].call;
    out->calls = calls;
    return true;
}

bool mt_compiled_line_origin(MtCtx *c, MtCompiled *k, MtStage stage, uint32_t line, MtLineOrigin *out)
{
    if (stage == MT_STAGE_CUDA && k->cuda && k->cuda->line_span) {
        /* the seed emitter's own per-line table (the fast lowering marks its lines) */
        if (line == 0 || line > k->cuda->nlines)
            return false;
        return origin(c, k->cuda->line_span[line], k->cuda->line_inl[line], out);
    }
    if ((unsigned)stage >= MT_STAGE_COUNT || !mt_compiled_text(c, k, stage))
        return false;
    const MtLineMark *m = find_mark(&k->marks[stage], line);
    return m && origin(c, m->span, m->inl, out);
}

bool mt_compiled_dump_line_origin(MtCtx *c, const MtCompiled *k, size_t i, uint32_t line, MtLineOrigin *out)
{
    if (i >= k->dumps.n)
        return false;
    const MtLineMark *m = find_mark(&k->dumps.v[i].marks, line);
    return m && origin(c, m->span, m->inl, out);
}
