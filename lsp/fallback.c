/* fallback.c: the last good analysis of a document, shown on the lines
 * that did not change while the current text has errors.
 *
 * Typing passes through broken states (an unclosed bracket makes the
 * whole kernel unparsable; a half-typed name fails the frontend). The
 * compiler keeps a partial analysis around errors in a body, but a parse
 * error leaves nothing. So each document keeps a second analysis, the
 * most recent one in which every kernel compiled to a complete typed tree:
 * when an analysis is good it becomes the fallback (its context swaps
 * with the fallback's, so a document never holds more than two).
 *
 * A position maps between the two texts when it lies on a line that did
 * not change: before the first changed line, or after the last one
 * (counted from the end). Hover and inlay hints ask the fallback for a
 * kernel that has no complete analysis now, and map what it answers back;
 * anything on a changed line is left out. */
#include <stdlib.h>
#include <string.h>

#include "server.h"

/* Every kernel that is not a helper has a complete typed analysis. */
static bool good(const Doc *d)
{
    if (!d->m || !d->nkernels)
        return false;
    for (size_t i = 0; i < d->nkernels; i++) {
        const Kernel *k = &d->kernels[i];
        if (!k->helper && (!k->k || mt_compiled_partial(k->k) || !mt_compiled_signature(d->ctx, k->k)))
            return false;
    }
    return true;
}

void mt_lsp_keep_good(Doc *d)
{
    if (!good(d))
        return;
    MtCtx *ctx = d->good.ctx;
    mt_lsp_kernels_free(d->good.kernels, d->good.nkernels);
    d->good = (Analysis){d->ctx, d->m, d->kernels, d->nkernels};
    d->ctx = ctx ? ctx : mt_ctx_new(NULL);
    d->m = NULL;
    d->kernels = NULL;
    d->nkernels = 0;
    if (!d->ctx) { /* out of memory: keep analysing into the good context, without a fallback */
        d->ctx = d->good.ctx;
        d->good = (Analysis){0};
    }
}

void mt_lsp_map_texts(Doc *d)
{
    d->map_valid = false;
    if (!d->good.m || !d->good.nkernels)
        return;
    size_t olen;
    const char *old = mt_file_text(d->good.ctx, d->good.kernels[0].info->span.file, &olen);
    if (!old)
        return;
    size_t n = olen < d->len ? olen : d->len, p = 0, q = 0;
    while (p < n && old[p] == d->text[p])
        p++;
    while (p > 0 && old[p - 1] != '\n') /* the start of the first changed line */
        p--;
    while (q < n - p && old[olen - 1 - q] == d->text[d->len - 1 - q])
        q++;
    while (q > 0 && old[olen - q] != '\n') /* after the last changed line's end */
        q--;
    d->map_prefix = (uint32_t)p;
    d->map_suffix = (uint32_t)q;
    d->map_old_len = olen;
    d->map_valid = true;
}

bool mt_lsp_to_good(const Doc *d, uint32_t off, uint32_t *old)
{
    if (!d->map_valid)
        return false;
    if (off < d->map_prefix) {
        *old = off;
        return true;
    }
    if (off >= d->len - d->map_suffix && d->map_suffix) {
        *old = (uint32_t)(off - d->len + d->map_old_len);
        return true;
    }
    return false;
}

bool mt_lsp_from_good(const Doc *d, uint32_t old, uint32_t *off)
{
    if (!d->map_valid)
        return false;
    if (old < d->map_prefix) {
        *off = old;
        return true;
    }
    if (old >= d->map_old_len - d->map_suffix && d->map_suffix) {
        *off = (uint32_t)(old - d->map_old_len + d->len);
        return true;
    }
    return false;
}

Kernel *mt_lsp_good_kernel(Doc *d, const Kernel *now)
{
    if (!d->map_valid || !now || (now->k && !mt_compiled_partial(now->k) && mt_compiled_signature(d->ctx, now->k)))
        return NULL;
    for (size_t i = 0; i < d->good.nkernels; i++)
        if (!strcmp(d->good.kernels[i].info->name, now->info->name) && d->good.kernels[i].k)
            return &d->good.kernels[i];
    return NULL;
}

void mt_lsp_analysis_free(Analysis *a)
{
    mt_ctx_free(a->ctx);
    mt_lsp_kernels_free(a->kernels, a->nkernels);
    *a = (Analysis){0};
}
