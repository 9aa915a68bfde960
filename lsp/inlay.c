/* inlay.c: textDocument/inlayHint.
 *
 *  - After each assigned name, its type and shape (`offsets: vector<256 x
 *    i32> = ...`). Names in a helper get the types of the first kernel
 *    that inlines it.
 *  - On a kernel's parameters, what the compile used where the source
 *    does not say it: the type of an unannotated runtime parameter
 *    (`a_ptr: *fp32`, inferred from its use or seen at a launch) and the
 *    value of a tl.constexpr without a default (`BLOCK: tl.constexpr = 128`,
 *    from a launch or an autotune config), each with a tooltip saying where
 *    it came from. These replace the I0902 diagnostic unless the setting
 *    mytriton.inferredTypes asks for it ("diagnostic") or for nothing
 *    ("off").
 * A kernel without a complete analysis now (a parse error while typing)
 * keeps the hints of the last good analysis on the lines that did not
 * change (fallback.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"
#include "text.h"

static cJSON *hint(Server *s, Doc *d, uint32_t at, const char *label, int kind, bool pad_left, const char *tooltip)
{
    cJSON *h = cJSON_CreateObject();
    cJSON_AddItemToObject(h, "position", mt_lsp_proto_position(s, d, at));
    cJSON_AddStringToObject(h, "label", label);
    cJSON_AddNumberToObject(h, "kind", kind);
    if (tooltip)
        cJSON_AddStringToObject(h, "tooltip", tooltip);
    cJSON_AddBoolToObject(h, pad_left ? "paddingLeft" : "paddingRight", true);
    return h;
}

/* Where a parameter's type or value came from, for a tooltip. */
static void origin_words(const MtFound *f, Text *t)
{
    if (f->unsupported_type)
        mt_lsp_text_printf(t, "inferred from its use: %s passes %s (%s), which mytriton cannot compile yet", f->where,
                           f->detail ? f->detail : "it", f->unsupported_type);
    else if (f->origin == MT_ORIGIN_NONE)
        mt_lsp_text_puts(t, "inferred from its use");
    else
        mt_lsp_text_printf(t, "from %s%s%s%s%s%s", f->where ? f->where : mt_origin_name(f->origin), f->detail ? ": " : "",
                           f->detail ? f->detail : "", f->seen ? " (" : "", f->seen ? f->seen : "", f->seen ? ")" : "");
}

/* A hint's place in the current text: analyses of the fallback map back
 * (false: its line changed). */
static bool place(Doc *d, bool fallback, uint32_t at, uint32_t *out)
{
    if (!fallback) {
        *out = at;
        return true;
    }
    return mt_lsp_from_good(d, at, out);
}

typedef struct Placed {
    uint32_t v[4096];
    size_t n;
} Placed;

/* Whether a hint is already at `at` (else remember it). */
static bool seen(Placed *p, uint32_t at)
{
    for (size_t q = 0; q < p->n; q++)
        if (p->v[q] == at)
            return true;
    if (p->n < sizeof p->v / sizeof p->v[0])
        p->v[p->n++] = at;
    return false;
}

static void parameter_hints(Server *s, Doc *d, const Kernel *k, bool fallback, uint32_t off, uint32_t end,
                            Placed *placed, cJSON *out)
{
    for (uint32_t i = 0; i < k->disc->nparams && i < k->info->nparams; i++) {
        const MtParamInfo *pi = &k->info->params[i];
        const MtFound *f = &k->disc->params[i];
        /* The compiled parameter when the analysis is complete, else what
         * the discovery found. */
        const MtKernelParam *cp = mt_compiled_param(k->k, i);
        const char *type = cp ? cp->type : f->type, *value = cp ? cp->value : f->value;
        uint32_t name_end, param_end;
        if (!place(d, fallback, pi->span.off + (uint32_t)strlen(pi->name), &name_end) ||
            !place(d, fallback, pi->span.end, &param_end) || param_end < off || name_end > end)
            continue;
        Text tip = {0};
        origin_words(f, &tip);
        char label[160];
        if (type && !pi->annotation && s->settings.inferred_types == INFERRED_HINT && !seen(placed, name_end)) {
            snprintf(label, sizeof label, ": %s", type);
            cJSON_AddItemToArray(out, hint(s, d, name_end, label, 1, false, mt_lsp_text_str(&tip)));
        } else if (value && !pi->default_text && f->origin != MT_ORIGIN_NONE && !seen(placed, param_end)) {
            snprintf(label, sizeof label, "= %s", value);
            cJSON_AddItemToArray(out, hint(s, d, param_end, label, 2, true, mt_lsp_text_str(&tip)));
        }
        mt_lsp_text_free(&tip);
    }
}

/* The type of each assigned name of k (an analysis of the current text,
 * or the fallback's). */
static void assignment_hints(Server *s, Doc *d, MtCtx *ctx, Kernel *k, bool fallback, uint32_t off, uint32_t end,
                             Placed *placed, cJSON *out)
{
    const MtQueryValue *v;
    size_t n = mt_query_assignments(ctx, k->k, &v);
    for (size_t j = 0; j < n; j++) {
        uint32_t at;
        if (!v[j].type || !place(d, fallback, v[j].span.end, &at) || at < off || at > end || seen(placed, at))
            continue;
        char label[160];
        snprintf(label, sizeof label, ": %s", v[j].type);
        cJSON_AddItemToArray(out, hint(s, d, at, label, 1, false, fallback ? "from the last analysis without errors"
                                                                          : NULL));
    }
}

cJSON *mt_lsp_handle_inlay_hint(Server *s, const cJSON *params, RpcErr *err)
{
    Doc *d = mt_lsp_proto_doc(s, params, err);
    const cJSON *range = cJSON_GetObjectItemCaseSensitive(params, "range");
    uint32_t off, end;
    if (!d || !mt_lsp_proto_offset(s, d, cJSON_GetObjectItemCaseSensitive(range, "start"), &off, err) ||
        !mt_lsp_proto_offset(s, d, cJSON_GetObjectItemCaseSensitive(range, "end"), &end, err))
        return NULL;
    mt_lsp_analyse(s, d);
    cJSON *out = cJSON_CreateArray();
    if (!s->settings.inlay_hints)
        return out;
    Placed *placed = calloc(1, sizeof *placed);
    if (!placed)
        return out;
    for (size_t i = 0; i < d->nkernels; i++) {
        Kernel *k = &d->kernels[i];
        if (k->disc)
            parameter_hints(s, d, k, false, off, end, placed, out);
        if (k->k)
            assignment_hints(s, d, d->ctx, k, false, off, end, placed, out);
        /* Lines the current analysis cannot answer (a parse error, the
         * statements that depend on a failed one): the last good one. */
        Kernel *g = mt_lsp_good_kernel(d, k);
        if (g && g->disc)
            parameter_hints(s, d, g, true, off, end, placed, out);
        if (g)
            assignment_hints(s, d, d->good.ctx, g, true, off, end, placed, out);
    }
    free(placed);
    return out;
}
