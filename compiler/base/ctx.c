/* ctx.c: context lifetime, the protected call, and the file table. */
#include "ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

static void on_oom(void *ud) { mt_throw((MtCtx *)ud, MT_ERR_NOMEM); }

MtCtx *mt_ctx_new(const MtAlloc *alloc)
{
    MtCtx *c = alloc && alloc->realloc ? alloc->realloc(alloc->ud, NULL, 0, sizeof *c) : malloc(sizeof *c);
    if (!c)
        return NULL;
    memset(c, 0, sizeof *c);
    if (alloc && alloc->realloc) {
        c->alloc = *alloc;
        c->has_alloc = true;
    }
    mt_arena_init(&c->arena, c->has_alloc ? &c->alloc : NULL, on_oom, c);
    atomic_init(&c->cancel, false);
    return c;
}

void mt_ctx_free(MtCtx *c)
{
    if (!c)
        return;
    mt_arena_free(&c->arena);
    if (c->has_alloc)
        c->alloc.realloc(c->alloc.ud, c, sizeof *c, 0);
    else
        free(c);
}

void mt_ctx_reset(MtCtx *c)
{
    mt_arena_reset(&c->arena);
    memset(&c->files, 0, sizeof c->files);
    memset(&c->diags, 0, sizeof c->diags);
    memset(&c->inl, 0, sizeof c->inl);
    c->types = NULL;
    c->nerrors = 0;
    c->kernel = NULL;
    c->jmp = NULL;
    atomic_store(&c->cancel, false);
}

void mt_ctx_cancel(MtCtx *c) { atomic_store(&c->cancel, true); }
bool mt_cancelled(MtCtx *c) { return atomic_load(&c->cancel); }

typedef struct Protected {
    jmp_buf jb;
    volatile MtStatus st;
} Protected;

MtStatus mt_protect(MtCtx *c, MtStatus (*fn)(MtCtx *c, void *ud), void *ud)
{
    Protected p;
    jmp_buf *saved = c->jmp;
    c->jmp = &p.jb;
    p.st = MT_OK;
    if (setjmp(p.jb) == 0)
        p.st = fn(c, ud);
    c->jmp = saved;
    return p.st;
}

_Noreturn void mt_throw(MtCtx *c, MtStatus st)
{
    if (!c->jmp)
        abort(); /* a library entry point forgot mt_protect: a bug */
    Protected *p = (Protected *)c->jmp; /* jb is the first member */
    p->st = st;
    longjmp(*c->jmp, 1);
}

const char *mt_status_name(MtStatus s)
{
    switch (s) {
    case MT_OK: return "ok";
    case MT_ERR_SOURCE: return "source error";
    case MT_ERR_USAGE: return "usage error";
    case MT_ERR_NOMEM: return "out of memory";
    case MT_ERR_CUDA: return "CUDA error";
    case MT_ERR_IO: return "I/O error";
    case MT_CANCELLED: return "cancelled";
    }
    return "unknown status";
}

/* ---- files ---------------------------------------------------------------- */

/* Line ends as Python's: \n, \r\n, or a lone \r. */
static bool line_end(const char *text, size_t i, size_t len)
{
    return text[i] == '\n' || (text[i] == '\r' && (i + 1 == len || text[i + 1] != '\n'));
}

uint32_t mt_ctx_add_file(MtCtx *c, const char *path, const char *text, size_t len)
{
    if (c->files.n == 0) {
        MtFile dummy = {0};
        mt_vec_push(&c->arena, &c->files, dummy);
    }
    MtFile f = {0};
    f.path = mt_arena_strdup(&c->arena, path ? path : "<input>");
    f.text = mt_arena_strndup(&c->arena, text, len);
    f.len = len;
    uint32_t nl = 1;
    for (size_t i = 0; i < len; i++)
        nl += line_end(text, i, len);
    f.line_off = mt_arena_alloc(&c->arena, (nl + 1) * sizeof *f.line_off);
    f.nlines = 0;
    f.line_off[f.nlines++] = 0;
    for (size_t i = 0; i < len; i++)
        if (line_end(text, i, len))
            f.line_off[f.nlines++] = (uint32_t)(i + 1);
    mt_vec_push(&c->arena, &c->files, f);
    return c->files.n - 1;
}

const MtFile *mt_ctx_file(const MtCtx *c, uint32_t file)
{
    return file && file < c->files.n ? &c->files.v[file] : NULL;
}

const char *mt_file_path(const MtCtx *c, uint32_t file)
{
    const MtFile *f = mt_ctx_file(c, file);
    return f ? f->path : NULL;
}

const char *mt_file_text(const MtCtx *c, uint32_t file, size_t *len)
{
    const MtFile *f = mt_ctx_file(c, file);
    if (len)
        *len = f ? f->len : 0;
    return f ? f->text : NULL;
}

static void line_col(const MtFile *f, uint32_t off, uint32_t *line, uint32_t *col)
{
    uint32_t lo = 0, hi = f->nlines;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (f->line_off[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    *line = lo + 1;
    *col = off - f->line_off[lo] + 1;
}

MtSpan mt_span_of(const MtCtx *c, uint32_t file, uint32_t off, uint32_t end)
{
    MtSpan s = {.file = file, .off = off, .end = end};
    const MtFile *f = mt_ctx_file(c, file);
    if (!f)
        return s;
    line_col(f, off, &s.line, &s.col);
    line_col(f, end, &s.end_line, &s.end_col);
    return s;
}

MtSpan mt_span_join(MtSpan a, MtSpan b)
{
    if (!a.line)
        return b;
    if (!b.line)
        return a;
    MtSpan s = a;
    if (b.off < a.off) {
        s.off = b.off;
        s.line = b.line;
        s.col = b.col;
    }
    if (b.end > a.end) {
        s.end = b.end;
        s.end_line = b.end_line;
        s.end_col = b.end_col;
    }
    return s;
}

char *mt_sprintf(MtCtx *c, const char *fmt, ...)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    va_list ap;
    va_start(ap, fmt);
    mt_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    return (char *)mt_buf_str(&b);
}
