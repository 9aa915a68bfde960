/* lsp_diag.c: compiler diagnostics as LSP Diagnostics.
 *
 * The only place where an MtDiag becomes LSP: 0-based ranges in the
 * session's encoding, severity (error, warning, information for I0901,
 * hint for I0902 (published only when the settings ask: it is an inlay
 * hint on each parameter otherwise) and notes), the stable rule code with a link to its page, notes as
 * related information (the call site of an inlined helper, the loop that
 * defines a name), and the "unnecessary" tag for unused values. A helper
 * inlined into several kernels reports the same error once per kernel;
 * those are merged, keeping the first one's notes. */
#include <stdio.h>
#include <string.h>

#include "server.h"

static int severity(MtSeverity sev)
{
    switch (sev) {
    case MT_SEV_ERROR: return 1;
    case MT_SEV_WARNING: return 2;
    case MT_SEV_INFO: return 3;
    case MT_SEV_NOTE: return 4;
    }
    return 1;
}

static const char *rules_url(const Server *s)
{
    return s->settings.rules_url ? s->settings.rules_url : s->rules_url;
}

static void add_code(Server *s, cJSON *o, const char *code)
{
    cJSON_AddStringToObject(o, "code", code);
    const char *base = rules_url(s);
    if (!base)
        return;
    char href[2048];
    snprintf(href, sizeof href, "%s%s.md", base, code);
    cJSON *cd = cJSON_AddObjectToObject(o, "codeDescription");
    cJSON_AddStringToObject(cd, "href", href);
}

cJSON *mt_lsp_diag_to_lsp(Server *s, Doc *d, const MtDiag *g)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "range", mt_lsp_proto_span(s, d, g->span));
    /* I0902 (parameter types inferred from use) is true of nearly every
     * kernel in the editor: a hint, not an entry in the problems list. */
    bool ambient = g->code && !strcmp(g->code, "I0902");
    cJSON_AddNumberToObject(o, "severity", ambient ? 4 : severity(g->sev));
    if (g->code)
        add_code(s, o, g->code);
    cJSON_AddStringToObject(o, "source", "mytriton");
    cJSON_AddStringToObject(o, "message", g->msg);
    if (g->code && !strcmp(g->code, "W0803")) {
        cJSON *tags = cJSON_AddArrayToObject(o, "tags");
        cJSON_AddItemToArray(tags, cJSON_CreateNumber(1)); /* DiagnosticTag.Unnecessary */
    }
    if (g->nnotes) {
        cJSON *rel = cJSON_AddArrayToObject(o, "relatedInformation");
        for (uint32_t i = 0; i < g->nnotes; i++) {
            cJSON *r = cJSON_CreateObject();
            cJSON_AddItemToObject(r, "location", mt_lsp_proto_location(s, d, g->notes[i].span));
            cJSON_AddStringToObject(r, "message", g->notes[i].msg);
            cJSON_AddItemToArray(rel, r);
        }
    }
    return o;
}

bool mt_lsp_diag_shown(const Server *s, const Doc *d, const MtDiag *g)
{
    /* Inferred parameter types are inlay hints on the parameters unless
     * the settings ask for the diagnostic; another module of the package
     * was read for its launches only. */
    return (!g->code || strcmp(g->code, "I0902") || s->settings.inferred_types == INFERRED_DIAGNOSTIC) &&
           mt_lsp_diag_in_doc(d, g);
}

static bool same_diag(const MtDiag *a, const MtDiag *b)
{
    return a->sev == b->sev && a->span.off == b->span.off && a->span.end == b->span.end &&
           (a->code == b->code || (a->code && b->code && !strcmp(a->code, b->code))) && !strcmp(a->msg, b->msg);
}

cJSON *mt_lsp_diag_publish(Server *s, Doc *d)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "uri", d->uri);
    cJSON_AddNumberToObject(p, "version", (double)d->version);
    cJSON *arr = cJSON_AddArrayToObject(p, "diagnostics");
    if (d->config_error) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "range", mt_lsp_proto_range(s, d, 0, 0));
        cJSON_AddNumberToObject(o, "severity", 1);
        add_code(s, o, "E0303");
        cJSON_AddStringToObject(o, "source", "mytriton");
        cJSON_AddStringToObject(o, "message", d->config_error);
        cJSON_AddItemToArray(arr, o);
    }
    size_t n = mt_diag_count(d->ctx);
    for (size_t i = 0; i < n; i++) {
        const MtDiag *g = mt_diag_at(d->ctx, i);
        if (!mt_lsp_diag_shown(s, d, g))
            continue;
        bool dup = false;
        for (size_t j = 0; j < i && !dup; j++)
            dup = same_diag(mt_diag_at(d->ctx, j), g);
        if (!dup)
            cJSON_AddItemToArray(arr, mt_lsp_diag_to_lsp(s, d, g));
    }
    return p;
}
