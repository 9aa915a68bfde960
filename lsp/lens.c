/* lens.c: textDocument/codeLens.
 *
 * Above each kernel, what is known before running it: threads per CUDA
 * block, output elements per thread and shared memory (mt_query_kernel),
 * or why it did not compile; a lens that opens its stages; for a kernel
 * with several @triton.autotune configs, the config compiled and a lens
 * that moves to the next; while a dashboard runs (the setting
 * mytriton.dashboardUrl when it answers, else a `mytriton serve` of the
 * document's folder: config.c), a lens that opens the kernel in it. The
 * commands run in the editor
 * integrations (mytriton.showStages, which asks for mytriton/stages) or,
 * in any client, through workspace/executeCommand (commands.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"
#include "text.h"

/* A lens on the kernel's name running `command` with {uri, kernel} (or
 * {url} for the dashboard). */
static cJSON *lens(Server *s, Doc *d, const Kernel *k, const char *title, const char *command, const char *url)
{
    cJSON *l = cJSON_CreateObject();
    cJSON_AddItemToObject(l, "range", mt_lsp_proto_span(s, d, k->info->name_span));
    cJSON *cmd = cJSON_AddObjectToObject(l, "command");
    cJSON_AddStringToObject(cmd, "title", title);
    cJSON_AddStringToObject(cmd, "command", command);
    cJSON *args = cJSON_AddArrayToObject(cmd, "arguments");
    cJSON *a = cJSON_CreateObject();
    if (url) {
        cJSON_AddStringToObject(a, "url", url);
    } else {
        cJSON_AddStringToObject(a, "uri", d->uri);
        cJSON_AddStringToObject(a, "kernel", k->info->name);
    }
    cJSON_AddItemToArray(args, a);
    return l;
}

/* The dashboard's address of a kernel: <base>#file=PATH&kernel=NAME,
 * percent-encoded (malloc'ed); base is the page's address
 * (mt_lsp_dashboard_for). */
static char *dashboard_link(const char *base, const Doc *d, const Kernel *k)
{
    char *file = mt_lsp_path_to_uri(d->path); /* file://... : its path part is encoded */
    Text t = {0};
    mt_lsp_text_printf(&t, "%s#file=", base);
    for (const char *p = file ? file + 7 : d->path; *p; p++) {
        if (*p == '&' || *p == '#' || *p == '=' || *p == '+')
            mt_lsp_text_printf(&t, "%%%02X", (unsigned char)*p);
        else
            mt_lsp_text_putn(&t, p, 1);
    }
    mt_lsp_text_printf(&t, "&kernel=%s", k->info->name);
    free(file);
    char *out = t.failed ? NULL : strdup(mt_lsp_text_str(&t));
    mt_lsp_text_free(&t);
    return out;
}

/* Why a kernel has no layout: the parameters that still need a value, or
 * its error count. */
static void failure(const Doc *d, const Kernel *k, char *buf, size_t n)
{
    size_t errors = 0, len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < mt_diag_count(d->ctx); i++) {
        const MtDiag *g = mt_diag_at(d->ctx, i);
        if (!g->kernel || strcmp(g->kernel, k->info->name) || !mt_lsp_diag_in_doc(d, g))
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
    char *dashboard = d->nkernels ? mt_lsp_dashboard_for(&s->settings, d->path) : NULL;
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
        cJSON_AddItemToArray(out, lens(s, d, k, title, "mytriton.showStages", NULL));
        cJSON_AddItemToArray(out, lens(s, d, k, "Show stages", "mytriton.showStages", NULL));
        if (k->disc && k->disc->nconfigs > 1) {
            snprintf(title, sizeof title, "autotune config %u/%u: %.160s | next", k->disc->config + 1,
                     k->disc->nconfigs, k->disc->config_text);
            cJSON_AddItemToArray(out, lens(s, d, k, title, "mytriton.nextConfig", NULL));
        }
        if (dashboard && !k->helper) {
            char *url = dashboard_link(dashboard, d, k);
            if (url)
                cJSON_AddItemToArray(out, lens(s, d, k, "Open in dashboard", "mytriton.openDashboard", url));
            free(url);
        }
    }
    free(dashboard);
    return out;
}
