/* lens.c: textDocument/codeLens.
 *
 * Above each kernel, what is known before running it: threads per CUDA
 * block, output elements per thread and shared memory (mt_query_kernel),
 * or why it did not compile; and a lens that opens its stages. The lens
 * command, mytriton.showStages {uri, kernel}, is implemented by the editor
 * integrations (editors/), which ask the server for mytriton/stages. */
#include <stdio.h>
#include <string.h>

#include "server.h"

static cJSON *lens(Server *s, Doc *d, const Kernel *k, const char *title)
{
    cJSON *l = cJSON_CreateObject();
    cJSON_AddItemToObject(l, "range", mt_lsp_proto_span(s, d, k->info->name_span));
    cJSON *cmd = cJSON_AddObjectToObject(l, "command");
    cJSON_AddStringToObject(cmd, "title", title);
    cJSON_AddStringToObject(cmd, "command", "mytriton.showStages");
    cJSON *args = cJSON_AddArrayToObject(cmd, "arguments");
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "uri", d->uri);
    cJSON_AddStringToObject(a, "kernel", k->info->name);
    cJSON_AddItemToArray(args, a);
    return l;
}

/* Why a kernel has no layout: the parameters that still need a value, or
 * its error count. */
static void failure(const Doc *d, const Kernel *k, char *buf, size_t n)
{
    size_t errors = 0, len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < mt_diag_count(d->ctx); i++) {
        const MtDiag *g = mt_diag_at(d->ctx, i);
        if (!g->kernel || strcmp(g->kernel, k->info->name))
            continue;
        if (g->code && !strcmp(g->code, "I0901") && len < n) {
            int w = snprintf(buf + len, n - len, "%s%.*s", len ? ", " : "needs a value for ",
                             (int)(g->span.end - g->span.off), d->text + g->span.off);
            len += w > 0 ? (size_t)w : 0;
        }
        errors += g->sev == MT_SEV_ERROR;
    }
    if (!len)
        snprintf(buf, n, errors ? "does not compile: %zu error%s" : "not compiled", errors, errors == 1 ? "" : "s");
}

cJSON *mt_lsp_handle_code_lens(Server *s, const cJSON *params, RpcErr *err)
{
    Doc *d = mt_lsp_proto_doc(s, params, err);
    if (!d)
        return NULL;
    mt_lsp_analyse(s, d);
    cJSON *out = cJSON_CreateArray();
    if (!s->settings.code_lens)
        return out;
    for (size_t i = 0; i < d->nkernels; i++) {
        const Kernel *k = &d->kernels[i];
        char title[256];
        MtQueryKernel q;
        if (k->helper)
            snprintf(title, sizeof title, "helper: inlined into its callers");
        else if (k->k && mt_query_kernel(k->k, &q))
            snprintf(title, sizeof title, "%d threads/block | %lld element%s/thread | %lld B shared%s", q.threads,
                     (long long)q.elements_per_thread, q.elements_per_thread == 1 ? "" : "s",
                     (long long)(q.shared_bytes < 0 ? 0 : q.shared_bytes), q.register_tiles ? " | register tiles" : "");
        else if (k->k && k->status == MT_OK)
            snprintf(title, sizeof title, "compiled to %s (set mytriton.stage to \"cuda\" for threads and shared memory)",
                     mt_stage_name((MtStage)s->settings.last_stage));
        else
            failure(d, k, title, sizeof title);
        cJSON_AddItemToArray(out, lens(s, d, k, title));
        cJSON_AddItemToArray(out, lens(s, d, k, "Show stages"));
    }
    return out;
}
