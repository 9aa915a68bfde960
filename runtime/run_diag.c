/* run_diag.c: the run library's one error model (run.h): every problem is
 * an MtRunDiag, rendered by the compiler's own renderer so that a launch
 * spec's field reads like a kernel's error. A diagnostic about the spec
 * registers the spec's text as the file of a scratch context (mt_parse
 * reads JSON as the Python expression it nearly is; what it thinks of it
 * is discarded), adds the diagnostic there with the field's range, and
 * keeps the rendered text. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_locate.h"
#include "run_internal.h"

void run_raise(MtRunResult *r, MtRunOutcome o)
{
    static const int rank[] = {[MT_RUN_OK] = 0, [MT_RUN_MISMATCH] = 1, [MT_RUN_FAILED] = 2, [MT_RUN_TROUBLE] = 3};
    if (rank[o] > rank[r->outcome])
        r->outcome = o;
}

static MtRunDiag *new_diag(MtRunResult *r)
{
    MtRunDiag *v = realloc(r->diags, (r->ndiags + 1) * sizeof *v);
    if (!v)
        return NULL;
    r->diags = v;
    MtRunDiag *d = &v[r->ndiags++];
    memset(d, 0, sizeof *d);
    return d;
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

/* Line and column (1-based, bytes) of offset `off` in text. */
static void position(const char *text, uint32_t off, uint32_t *line, uint32_t *col)
{
    *line = 1;
    uint32_t bol = 0;
    for (uint32_t i = 0; i < off && text[i]; i++)
        if (text[i] == '\n')
            (*line)++, bol = i + 1;
    *col = off - bol + 1;
}

/* The offset of line:col in text. */
static uint32_t offset_of(const char *text, int line, int col)
{
    uint32_t off = 0;
    for (int l = 1; l < line && text[off]; off++)
        if (text[off] == '\n')
            l++;
    for (int c = 1; c < col && text[off] && text[off] != '\n'; c++)
        off++;
    return off;
}

/* Render `d` (its message with the field in front) through a scratch
 * context holding w.text as w.file; without a text, without a file. */
static void render(MtRunDiag *d, RunWhere w)
{
    MtCtx *c = mt_ctx_new(NULL);
    if (!c)
        return;
    MtSpan span = {0};
    if (w.file && w.text) {
        MtModule *m;
        mt_parse(c, w.file, w.text, strlen(w.text), &m);
        for (uint32_t i = 1; mt_file_path(c, i); i++)
            if (!strcmp(mt_file_path(c, i), w.file))
                span.file = i;
        uint32_t off, end;
        bool at = false;
        if (w.line > 0) {
            off = offset_of(w.text, w.line, w.col);
            end = w.text[off] && w.text[off] != '\n' ? off + 1 : off;
            at = true;
        } else if (w.field) {
            at = mt_json_locate(w.text, w.field, &off, &end);
        }
        if (span.file && at) {
            span.off = off, span.end = end;
            position(w.text, off, &span.line, &span.col);
            position(w.text, end, &span.end_line, &span.end_col);
            d->line = span.line, d->col = span.col, d->end_line = span.end_line, d->end_col = span.end_col;
        }
    }
    const MtDiag *cd = mt_diag_add(c, d->severity, span, d->code, "%s%s%s", d->field ? d->field : "",
                                   d->field ? ": " : "", d->message);
    if (cd) {
        d->rendered = dup_or_null(mt_diag_render(c, cd, false));
        d->rendered_color = dup_or_null(mt_diag_render(c, cd, true));
    }
    mt_ctx_free(c);
}

void run_diag(MtRunResult *r, MtRunOutcome o, MtSeverity sev, const char *code, RunWhere w, const char *fmt, ...)
{
    run_raise(r, o);
    MtRunDiag *d = new_diag(r);
    if (!d)
        return;
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    d->severity = sev;
    d->code = code;
    d->message = strdup(msg);
    d->file = dup_or_null(w.file);
    d->field = w.field && *w.field ? strdup(w.field) : NULL;
    if (d->message)
        render(d, w);
}

void run_diags_from_ctx(MtRunResult *r, MtCtx *c, size_t from)
{
    for (size_t i = from; i < mt_diag_count(c); i++) {
        const MtDiag *cd = mt_diag_at(c, i);
        if (cd->sev == MT_SEV_INFO)
            continue; /* hints for editors, not for a run */
        if (cd->sev == MT_SEV_ERROR)
            run_raise(r, MT_RUN_FAILED);
        MtRunDiag *d = new_diag(r);
        if (!d)
            return;
        d->severity = cd->sev;
        const MtRule *rule = cd->code ? mt_rule_find(cd->code) : NULL;
        d->code = rule ? rule->code : NULL; /* the catalogue's string outlives c */
        d->message = strdup(cd->msg);
        d->file = dup_or_null(mt_file_path(c, cd->span.file));
        d->line = cd->span.line, d->col = cd->span.col;
        d->end_line = cd->span.end_line, d->end_col = cd->span.end_col;
        d->rendered = dup_or_null(mt_diag_render(c, cd, false));
        d->rendered_color = dup_or_null(mt_diag_render(c, cd, true));
    }
}
