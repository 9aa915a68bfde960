/* stage_lines.c: the lines of a printed stage that a source line made.
 *
 * An editor's hover shows what a Python line becomes in a later stage (the
 * kernel layer, CUDA, MLIR). Every printer marks each line with the source
 * range and inline site of what it shows (MtLineMarks); this collects the
 * marked lines whose range starts on the asked line, or that were inlined
 * through a helper call on it, in printed order. A region's closing line
 * carries the region's mark for the printers that put the operation's
 * location there; lines that are only a closing brace are left out. Facts
 * come from the marks, never from reading the text. */
#include "compiled.h"

static bool on_line(const MtCtx *c, const MtLineMark *m, uint32_t file, uint32_t line)
{
    if (m->span.file == file && m->span.line == line)
        return true;
    for (uint32_t s = m->inl, depth = 0; s && s < c->inl.n && depth < 64; s = c->inl.v[s].parent, depth++)
        if (c->inl.v[s].call.file == file && c->inl.v[s].call.line == line)
            return true;
    return false;
}

const char *mt_compiled_stage_for_line(MtCtx *c, MtCompiled *k, MtStage stage, uint32_t line)
{
    if ((unsigned)stage >= MT_STAGE_COUNT)
        return NULL;
    const char *text = mt_compiled_text(c, k, stage);
    if (!text)
        return NULL;
    const MtLineMarks *marks = &k->marks[stage];
    uint32_t file = k->m->file;
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    bool any = false;
    const char *p = text;
    uint32_t at = 1, mi = 0;
    while (*p && mi < marks->n) {
        const char *nl = p;
        while (*nl && *nl != '\n')
            nl++;
        while (mi < marks->n && marks->v[mi].line < at)
            mi++;
        if (mi < marks->n && marks->v[mi].line == at && on_line(c, &marks->v[mi], file, line)) {
            const char *t = p;
            while (t < nl && *t == ' ')
                t++;
            if (!(t + 1 == nl && *t == '}')) {
                mt_buf_putn(&b, t, (size_t)(nl - t));
                mt_buf_putc(&b, '\n');
                any = true;
            }
        }
        p = *nl ? nl + 1 : nl;
        at++;
    }
    return any ? mt_buf_str(&b) : NULL;
}
