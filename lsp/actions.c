/* actions.c: textDocument/codeAction.
 *
 * Quick fixes come from the compiler, one set per diagnostic on the
 * lines of the requested range: parentheses around comparisons (E0207),
 * & | ~ for and/or/not (E0206), a power-of-two tl.arange (E0413)
 * (mt_query_fixes), and `# mytriton:` values that compile for a kernel
 * whose tl.constexpr parameters nothing gave a value (I0901,
 * mt_discover_fix).
 * Refactorings of the loads and stores in the range (mask=, other=) come
 * from the compiled kernels (mt_query_actions). Every action carries its
 * edit, so no resolve step is needed; context.only filters by kind. */
#include <string.h>

#include "server.h"

static bool kind_wanted(const cJSON *only, const char *kind)
{
    if (!cJSON_IsArray(only) || !cJSON_GetArraySize(only))
        return true;
    const cJSON *it;
    cJSON_ArrayForEach(it, only)
    {
        if (!cJSON_IsString(it))
            continue;
        size_t n = strlen(it->valuestring);
        if (!strncmp(kind, it->valuestring, n) && (kind[n] == 0 || kind[n] == '.'))
            return true;
    }
    return false;
}

static cJSON *action(Server *s, Doc *d, const MtQueryFix *f, const char *kind, const MtDiag *g)
{
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "title", f->title);
    cJSON_AddStringToObject(a, "kind", kind);
    if (g) {
        cJSON *ds = cJSON_AddArrayToObject(a, "diagnostics");
        cJSON_AddItemToArray(ds, mt_lsp_diag_to_lsp(s, d, g));
    }
    if (f->preferred)
        cJSON_AddBoolToObject(a, "isPreferred", true);
    cJSON *edit = cJSON_AddObjectToObject(a, "edit");
    cJSON *changes = cJSON_AddObjectToObject(edit, "changes");
    cJSON *edits = cJSON_AddArrayToObject(changes, d->uri);
    for (uint32_t i = 0; i < f->nedits; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddItemToObject(e, "range", mt_lsp_proto_range(s, d, f->edits[i].off, f->edits[i].end));
        cJSON_AddStringToObject(e, "newText", f->edits[i].text);
        cJSON_AddItemToArray(edits, e);
    }
    return a;
}

static bool seen_title(const cJSON *out, const char *title, uint32_t at, uint32_t *offs, size_t n)
{
    size_t i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, out)
    {
        if (i < n && offs[i] == at && !strcmp(mt_lsp_proto_str(it, "title"), title))
            return true;
        i++;
    }
    return false;
}

/* The quick fixes of g: I0901's comes from the kernel's discovery (values
 * that compile), the others from the compiler's fixes. */
static size_t fixes(Server *s, Doc *d, const MtDiag *g, const MtQueryFix **fx)
{
    if (g->code && !strcmp(g->code, "I0901")) {
        for (size_t k = 0; k < d->nkernels; k++)
            if (d->kernels[k].disc && g->kernel && !strcmp(d->kernels[k].info->name, g->kernel))
                return mt_discover_fix(d->ctx, d->m, d->kernels[k].disc, g, 0, fx);
        return 0;
    }
    return mt_query_fixes(d->ctx, d->m, g, fx);
}

cJSON *mt_lsp_handle_code_action(Server *s, const cJSON *params, RpcErr *err)
{
    Doc *d = mt_lsp_proto_doc(s, params, err);
    const cJSON *range = cJSON_GetObjectItemCaseSensitive(params, "range");
    uint32_t off, end;
    if (!d || !mt_lsp_proto_offset(s, d, cJSON_GetObjectItemCaseSensitive(range, "start"), &off, err) ||
        !mt_lsp_proto_offset(s, d, cJSON_GetObjectItemCaseSensitive(range, "end"), &end, err))
        return NULL;
    if (end < off)
        end = off;
    mt_lsp_analyse(s, d);
    const cJSON *only = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(params, "context"), "only");
    cJSON *out = cJSON_CreateArray();
    if (!d->m)
        return out;
    uint32_t offs[256];
    size_t nout = 0;

    if (kind_wanted(only, "quickfix")) {
        /* A diagnostic anywhere on the lines of the range: editors ask with
         * the cursor, often at the start of the line. */
        uint32_t line_off = d->lines[mt_lsp_doc_line_of(d, off)];
        uint32_t last = mt_lsp_doc_line_of(d, end);
        uint32_t line_end = last + 1 < d->nlines ? d->lines[last + 1] : (uint32_t)d->len;
        for (size_t i = 0; i < mt_diag_count(d->ctx); i++) {
            const MtDiag *g = mt_diag_at(d->ctx, i);
            if (!mt_lsp_diag_in_doc(d, g) || !g->span.line || g->span.off >= line_end || g->span.end < line_off)
                continue;
            const MtQueryFix *fx;
            size_t n = fixes(s, d, g, &fx);
            for (size_t j = 0; j < n; j++) {
                uint32_t at = fx[j].nedits ? fx[j].edits[0].off : 0;
                if (seen_title(out, fx[j].title, at, offs, nout))
                    continue;
                cJSON_AddItemToArray(out, action(s, d, &fx[j], "quickfix", g));
                if (nout < 256)
                    offs[nout++] = at;
            }
        }
    }
    if (kind_wanted(only, "refactor.rewrite")) {
        for (size_t i = 0; i < d->nkernels; i++) {
            if (!d->kernels[i].k)
                continue;
            const MtQueryFix *fx;
            size_t n = mt_query_actions(d->ctx, d->kernels[i].k, off, end, &fx);
            for (size_t j = 0; j < n; j++) {
                uint32_t at = fx[j].nedits ? fx[j].edits[0].off : 0;
                if (seen_title(out, fx[j].title, at, offs, nout))
                    continue;
                cJSON_AddItemToArray(out, action(s, d, &fx[j], "refactor.rewrite", NULL));
                if (nout < 256)
                    offs[nout++] = at;
            }
        }
    }
    return out;
}
