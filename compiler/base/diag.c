/* diag.c: the one diagnostic type of every stage, the rule catalogue, and
 * the compiler-style rendering with a source line and a caret. */
#include <stdio.h>
#include <string.h>

#include "ctx.h"
#include "strbuf.h"

static const MtRule rules[] = {
#define RULE(code, name, title, help) {code, name, title, help},
#include "diags.def"
#undef RULE
    {NULL, NULL, NULL, NULL},
};

const MtRule *mt_rule_at(size_t i)
{
    return i < sizeof rules / sizeof rules[0] - 1 ? &rules[i] : NULL;
}

const MtRule *mt_rule_find(const char *code)
{
    if (!code)
        return NULL;
    for (const MtRule *r = rules; r->code; r++)
        if (strcmp(r->code, code) == 0)
            return r;
    return NULL;
}

/* The same diagnostic at the same place (a statement inside an unrolled
 * loop, say) is reported once per kernel: a helper's error reached from
 * two kernels compiled in one context (an editor's file) is each one's,
 * with its own call site, for the prefix analysis to cut at; the
 * language server merges them when it publishes. */
static MtDiagRec *find_same(MtCtx *c, MtSeverity sev, MtSpan sp, const char *code, const char *msg)
{
    for (uint32_t i = c->diags.n; i-- > 0;) {
        MtDiagRec *d = c->diags.v[i];
        bool kernel = d->d.kernel == c->kernel || (d->d.kernel && c->kernel && !strcmp(d->d.kernel, c->kernel));
        if (kernel && d->d.sev == sev && d->d.span.file == sp.file && d->d.span.off == sp.off &&
            d->d.span.end == sp.end && (d->d.code == code || (d->d.code && code && !strcmp(d->d.code, code))) &&
            !strcmp(d->d.msg, msg))
            return d;
    }
    return NULL;
}

MtDiagRec *mt_vdiag(MtCtx *c, MtSeverity sev, MtSpan sp, const char *code, const char *fmt, va_list ap)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    mt_buf_vprintf(&b, fmt, ap);
    MtDiagRec *same = find_same(c, sev, sp, code, mt_buf_str(&b));
    if (same) {
        /* Notes added to the returned record must not pile up on the
         * original: hand back a detached copy. A repeated error still
         * counts: each phase decides whether it failed by comparing
         * nerrors before and after, and a second kernel that inlines the
         * same broken helper must not go on to lower it. */
        if (sev == MT_SEV_ERROR)
            c->nerrors++;
        MtDiagRec *scratch = mt_arena_alloc(&c->arena, sizeof *scratch);
        scratch->d = same->d;
        return scratch;
    }
    MtDiagRec *d = mt_arena_alloc(&c->arena, sizeof *d);
    d->d.sev = sev;
    d->d.code = code;
    d->d.span = sp;
    d->d.msg = mt_buf_str(&b);
    d->d.kernel = c->kernel;
    if (sev == MT_SEV_ERROR) {
        if (c->nerrors >= MT_MAX_ERRORS) {
            c->nerrors++;
            return d; /* scratch: not recorded */
        }
        c->nerrors++;
    }
    mt_vec_push(&c->arena, &c->diags, d);
    return d;
}

MtDiagRec *mt_diag(MtCtx *c, MtSeverity sev, MtSpan sp, const char *code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    MtDiagRec *d = mt_vdiag(c, sev, sp, code, fmt, ap);
    va_end(ap);
    return d;
}

const MtDiag *mt_diag_add(MtCtx *c, MtSeverity sev, MtSpan span, const char *code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    MtDiagRec *d = mt_vdiag(c, sev, span, code, fmt, ap);
    va_end(ap);
    return &d->d;
}

void mt_diag_add_note(MtCtx *c, const MtDiag *d, MtSpan span, const char *fmt, ...)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    va_list ap;
    va_start(ap, fmt);
    mt_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    mt_note(c, (MtDiagRec *)d, span, "%s", mt_buf_str(&b)); /* d is the first member of its record */
}

void mt_note(MtCtx *c, MtDiagRec *d, MtSpan sp, const char *fmt, ...)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    va_list ap;
    va_start(ap, fmt);
    mt_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    MtNote n = {sp, mt_buf_str(&b)};
    mt_vec_push(&c->arena, &d->notes, n);
    d->d.notes = d->notes.v;
    d->d.nnotes = d->notes.n;
}

void mt_diag_set_fact(MtCtx *c, MtDiagRec *d, const char *name, int64_t value)
{
    MtDiagFact f = {name, value};
    mt_vec_push(&c->arena, &d->facts, f);
    d->d.facts = d->facts.v;
    d->d.nfacts = d->facts.n;
}

bool mt_diag_fact(const MtDiag *d, const char *name, int64_t *out)
{
    for (uint32_t i = 0; d && i < d->nfacts; i++)
        if (!strcmp(d->facts[i].name, name)) {
            *out = d->facts[i].value;
            return true;
        }
    return false;
}

uint32_t mt_inline_push(MtCtx *c, MtSpan call, const char *callee, uint32_t parent)
{
    if (c->inl.n == 0) {
        MtInlineSite dummy = {0};
        mt_vec_push(&c->arena, &c->inl, dummy);
    }
    MtInlineSite s = {call, callee, parent};
    mt_vec_push(&c->arena, &c->inl, s);
    return c->inl.n - 1;
}

void mt_note_inline(MtCtx *c, MtDiagRec *d, uint32_t inl)
{
    for (int depth = 0; inl && inl < c->inl.n && depth < 32; depth++) {
        const MtInlineSite *s = &c->inl.v[inl];
        mt_note(c, d, s->call, "in '%s', inlined from this call", s->callee);
        inl = s->parent;
    }
}

_Noreturn void mt_ice(MtCtx *c, MtSpan sp, const char *what)
{
    mt_error(c, sp, NULL, "internal compiler error: %s; please report this kernel", what);
    mt_throw(c, MT_ERR_SOURCE);
}

size_t mt_diag_count(const MtCtx *c) { return c->diags.n; }
const MtDiag *mt_diag_at(const MtCtx *c, size_t i) { return i < c->diags.n ? &c->diags.v[i]->d : NULL; }
size_t mt_error_count(const MtCtx *c) { return c->nerrors; }

void mt_diag_truncate(MtCtx *c, uint32_t ndiags, uint32_t nerrors)
{
    if (ndiags < c->diags.n)
        c->diags.n = ndiags;
    c->nerrors = nerrors;
}

/* ---- rendering -------------------------------------------------------------- */

const char *mt_severity_name(MtSeverity s)
{
    switch (s) {
    case MT_SEV_ERROR: return "error";
    case MT_SEV_WARNING: return "warning";
    case MT_SEV_INFO: return "info";
    case MT_SEV_NOTE: return "note";
    }
    return "error";
}

static const char *sev_color(MtSeverity s)
{
    switch (s) {
    case MT_SEV_ERROR: return "\033[1;31m";
    case MT_SEV_WARNING: return "\033[1;35m";
    case MT_SEV_INFO: return "\033[1;36m";
    case MT_SEV_NOTE: return "\033[1;36m";
    }
    return "";
}

static void render_one(MtCtx *c, MtBuf *b, MtSeverity sev, MtSpan sp, const char *msg, const char *code, bool color)
{
    const MtFile *f = mt_ctx_file(c, sp.file);
    if (color)
        mt_buf_puts(b, "\033[1m");
    if (f && sp.line)
        mt_buf_printf(b, "%s:%u:%u: ", f->path, sp.line, sp.col);
    else if (f)
        mt_buf_printf(b, "%s: ", f->path);
    if (color)
        mt_buf_printf(b, "%s%s:\033[0m\033[1m ", sev_color(sev), mt_severity_name(sev));
    else
        mt_buf_printf(b, "%s: ", mt_severity_name(sev));
    mt_buf_puts(b, msg);
    if (code)
        mt_buf_printf(b, " [%s]", code);
    if (color)
        mt_buf_puts(b, "\033[0m");
    mt_buf_putc(b, '\n');
    if (!f || !sp.line || sp.line > f->nlines)
        return;

    const char *ls = f->text + f->line_off[sp.line - 1];
    const char *le = ls;
    while (*le && *le != '\n' && *le != '\r')
        le++;
    int w = snprintf(NULL, 0, "%u", sp.line);
    mt_buf_printf(b, " %u | ", sp.line);
    mt_buf_putn(b, ls, (size_t)(le - ls));
    mt_buf_putc(b, '\n');
    mt_buf_indent(b, w + 1);
    mt_buf_puts(b, " | ");
    uint32_t col = sp.col ? sp.col : 1;
    for (uint32_t i = 1; i < col && ls + i - 1 < le; i++)
        mt_buf_putc(b, ls[i - 1] == '\t' ? '\t' : ' ');
    uint32_t len = 1;
    if (sp.end_line == sp.line && sp.end_col > col)
        len = sp.end_col - col;
    else if (sp.end_line > sp.line)
        len = (uint32_t)(le - ls) >= col ? (uint32_t)(le - ls) - col + 1 : 1;
    if (color)
        mt_buf_puts(b, sev_color(sev));
    mt_buf_putc(b, '^');
    for (uint32_t i = 1; i < len; i++)
        mt_buf_putc(b, '~');
    if (color)
        mt_buf_puts(b, "\033[0m");
    mt_buf_putc(b, '\n');
}

const char *mt_diag_render(MtCtx *c, const MtDiag *d, bool color)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    render_one(c, &b, d->sev, d->span, d->msg, d->code, color);
    for (uint32_t i = 0; i < d->nnotes; i++)
        render_one(c, &b, MT_SEV_NOTE, d->notes[i].span, d->notes[i].msg, NULL, color);
    return mt_buf_str(&b);
}
