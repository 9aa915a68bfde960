/* commands.c: workspace/executeCommand — the commands behind the code
 * lenses, so that they work in any client:
 *
 *   mytriton.showStages    {uri, kernel}        the kernel's SSA, layouts and CUDA as a
 *                                               read-only file the client is asked to show
 *                                               (window/showDocument), else a message
 *   mytriton.nextConfig    {uri, kernel}        compile the kernel for its next
 *                                               @triton.autotune config
 *   mytriton.selectConfig  {uri, kernel, index} ... for config `index` (0-based)
 *   mytriton.openDashboard {url}                open the dashboard in the browser
 *
 * Clients with their own stages view (the VS Code extension) say so with
 * initializationOptions.mytriton.clientCommands: ["mytriton.showStages"],
 * and the server leaves that command to them. A config choice lasts for
 * the session; after one, the document is analysed again at once and the
 * client is asked to refresh its lenses and inlay hints. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "server.h"
#include "text.h"

uint32_t mt_lsp_config_choice(const Server *s, const char *uri, const char *kernel)
{
    for (size_t i = 0; i < s->nchoices; i++)
        if (!strcmp(s->choices[i].uri, uri) && !strcmp(s->choices[i].kernel, kernel))
            return s->choices[i].index;
    return 0;
}

static void set_choice(Server *s, const char *uri, const char *kernel, uint32_t index)
{
    for (size_t i = 0; i < s->nchoices; i++)
        if (!strcmp(s->choices[i].uri, uri) && !strcmp(s->choices[i].kernel, kernel)) {
            s->choices[i].index = index;
            return;
        }
    ConfigChoice *v = realloc(s->choices, (s->nchoices + 1) * sizeof *v);
    if (!v)
        return;
    s->choices = v;
    ConfigChoice c = {strdup(uri), strdup(kernel), index};
    if (!c.uri || !c.kernel) {
        free(c.uri);
        free(c.kernel);
        return;
    }
    s->choices[s->nchoices++] = c;
}

void mt_lsp_choices_free(Server *s)
{
    for (size_t i = 0; i < s->nchoices; i++) {
        free(s->choices[i].uri);
        free(s->choices[i].kernel);
    }
    free(s->choices);
    s->choices = NULL;
    s->nchoices = 0;
}

static const char *const commands[] = {"mytriton.showStages", "mytriton.nextConfig", "mytriton.selectConfig",
                                       "mytriton.openDashboard"};

cJSON *mt_lsp_command_list(const Server *s)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (i != 0 || !s->client_stages)
            cJSON_AddItemToArray(a, cJSON_CreateString(commands[i]));
    return a;
}

void mt_lsp_send_request(Server *s, const char *method, cJSON *params)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "jsonrpc", "2.0");
    cJSON_AddNumberToObject(m, "id", (double)s->next_request++);
    cJSON_AddStringToObject(m, "method", method);
    if (params)
        cJSON_AddItemToObject(m, "params", params);
    mt_lsp_rpc_send(&s->rpc, m);
}

void mt_lsp_refresh_views(Server *s)
{
    if (s->lens_refresh)
        mt_lsp_send_request(s, "workspace/codeLens/refresh", NULL);
    if (s->inlay_refresh)
        mt_lsp_send_request(s, "workspace/inlayHint/refresh", NULL);
}

static void show_message(Server *s, int type, const char *text)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "type", type);
    cJSON_AddStringToObject(p, "message", text);
    mt_lsp_rpc_send(&s->rpc, mt_lsp_rpc_notification("window/showMessage", p));
}

/* The document and kernel named by the command's first argument. */
static Kernel *target(Server *s, const cJSON *arg, Doc **doc, RpcErr *err)
{
    const char *uri = mt_lsp_proto_str(arg, "uri"), *name = mt_lsp_proto_str(arg, "kernel");
    *doc = uri ? mt_lsp_docs_find(&s->docs, uri) : NULL;
    if (!uri || !name || !*doc) {
        err->code = RPC_INVALID_PARAMS;
        err->message = !uri || !name ? "expected the argument {uri, kernel}" : "document not open";
        return NULL;
    }
    mt_lsp_analyse(s, *doc);
    for (size_t i = 0; i < (*doc)->nkernels; i++)
        if (!strcmp((*doc)->kernels[i].info->name, name))
            return &(*doc)->kernels[i];
    err->code = RPC_INVALID_PARAMS;
    err->message = "no @triton.jit function of that name in this document";
    return NULL;
}

/* ---- stages ---------------------------------------------------------------------------- */

/* A folder for the stages files, made if needed: $XDG_CACHE_HOME/mytriton/stages,
 * else ~/.cache/mytriton/stages, else /tmp/mytriton/stages. */
static bool stages_dir(char *out, size_t n)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int w = xdg && *xdg ? snprintf(out, n, "%s/mytriton/stages", xdg)
            : home && *home ? snprintf(out, n, "%s/.cache/mytriton/stages", home)
                            : snprintf(out, n, "/tmp/mytriton/stages");
    if (w < 0 || (size_t)w >= n)
        return false;
    for (char *p = out + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        bool ok = mkdir(out, 0755) == 0 || errno == EEXIST;
        *p = '/';
        if (!ok)
            return false;
    }
    return mkdir(out, 0755) == 0 || errno == EEXIST;
}

static cJSON *show_stages(Server *s, const cJSON *arg, RpcErr *err)
{
    Doc *d;
    Kernel *k = target(s, arg, &d, err);
    if (!k)
        return NULL;
    Text t = {0};
    const char *sig = k->k ? mt_compiled_signature(d->ctx, k->k) : NULL;
    mt_lsp_text_printf(&t, "// %s(%s) from %s\n", k->info->name, sig ? sig : "...", d->path);
    for (size_t i = 0; i < mt_diag_count(d->ctx); i++) {
        const MtDiag *g = mt_diag_at(d->ctx, i);
        if (g->sev <= MT_SEV_WARNING && g->kernel && !strcmp(g->kernel, k->info->name) && mt_lsp_diag_in_doc(d, g))
            mt_lsp_text_printf(&t, "// %u:%u: %s: %s [%s]\n", g->span.line, g->span.col, mt_severity_name(g->sev),
                               g->msg, g->code ? g->code : "");
    }
    static const MtStage shown[] = {MT_STAGE_SSA, MT_STAGE_LAYOUT, MT_STAGE_CUDA};
    for (size_t i = 0; i < 3; i++) {
        const char *text = k->k ? mt_compiled_text(d->ctx, k->k, shown[i]) : NULL;
        if (text)
            mt_lsp_text_printf(&t, "\n// ---- %s ----\n%s", mt_stage_name(shown[i]), text);
    }
    if (k->helper)
        mt_lsp_text_puts(&t, "\n// a helper: open the stages of a kernel that calls it\n");
    char dir[4096], path[4300];
    FILE *f = NULL;
    if (stages_dir(dir, sizeof dir)) {
        snprintf(path, sizeof path, "%s/%s.mlir", dir, k->info->name);
        f = fopen(path, "w");
    }
    bool written = f && fwrite(mt_lsp_text_str(&t), 1, t.n, f) == t.n;
    if (f && fclose(f) != 0)
        written = false;
    mt_lsp_text_free(&t);
    if (!written) {
        err->code = RPC_REQUEST_FAILED;
        err->message = "cannot write the stages file (set XDG_CACHE_HOME to a writable folder)";
        return NULL;
    }
    char *uri = mt_lsp_path_to_uri(path);
    if (s->show_document && uri) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "uri", uri);
        cJSON_AddBoolToObject(p, "takeFocus", false);
        mt_lsp_send_request(s, "window/showDocument", p);
    } else {
        char msg[4400];
        snprintf(msg, sizeof msg, "mytriton: the stages of %s are in %s", k->info->name, path);
        show_message(s, 3, msg);
    }
    cJSON *r = cJSON_CreateObject();
    if (uri)
        cJSON_AddStringToObject(r, "uri", uri);
    free(uri);
    return r;
}

/* ---- autotune configs -------------------------------------------------------------------- */

static cJSON *pick_config(Server *s, const cJSON *arg, bool next, RpcErr *err)
{
    Doc *d;
    Kernel *k = target(s, arg, &d, err);
    if (!k)
        return NULL;
    uint32_t n = k->disc ? k->disc->nconfigs : 0;
    if (n == 0) {
        err->code = RPC_INVALID_PARAMS;
        err->message = "this kernel has no @triton.autotune configs that can be read";
        return NULL;
    }
    int64_t index = next ? (int64_t)(k->disc->config + 1) % n : mt_lsp_proto_int(arg, "index", -1);
    if (index < 0 || index >= n) {
        err->code = RPC_INVALID_PARAMS;
        err->message = "index must be a config number from 0 to the number of configs - 1";
        return NULL;
    }
    set_choice(s, d->uri, k->info->name, (uint32_t)index);
    d->dirty = true;
    mt_lsp_analyse(s, d);
    d->published = true;
    mt_lsp_rpc_send(&s->rpc, mt_lsp_rpc_notification("textDocument/publishDiagnostics", mt_lsp_diag_publish(s, d)));
    mt_lsp_refresh_views(s);
    return cJSON_CreateNull();
}

static cJSON *open_dashboard(Server *s, const cJSON *arg, RpcErr *err)
{
    const char *url = mt_lsp_proto_str(arg, "url");
    if (!url) {
        err->code = RPC_INVALID_PARAMS;
        err->message = "expected the argument {url}";
        return NULL;
    }
    if (!s->show_document) {
        char msg[2200];
        snprintf(msg, sizeof msg, "mytriton: open %.2000s in a browser", url);
        show_message(s, 3, msg);
        return cJSON_CreateNull();
    }
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "uri", url);
    cJSON_AddBoolToObject(p, "external", true);
    mt_lsp_send_request(s, "window/showDocument", p);
    return cJSON_CreateNull();
}

cJSON *mt_lsp_handle_execute_command(Server *s, const cJSON *params, RpcErr *err)
{
    const char *cmd = mt_lsp_proto_str(params, "command");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
    const cJSON *arg = cJSON_IsArray(args) ? cJSON_GetArrayItem(args, 0) : NULL;
    if (cmd && !strcmp(cmd, "mytriton.showStages") && !s->client_stages)
        return show_stages(s, arg, err);
    if (cmd && !strcmp(cmd, "mytriton.nextConfig"))
        return pick_config(s, arg, true, err);
    if (cmd && !strcmp(cmd, "mytriton.selectConfig"))
        return pick_config(s, arg, false, err);
    if (cmd && !strcmp(cmd, "mytriton.openDashboard"))
        return open_dashboard(s, arg, err);
    err->code = RPC_INVALID_PARAMS;
    err->message = "unknown command (the server runs mytriton.showStages, mytriton.nextConfig, "
                   "mytriton.selectConfig and mytriton.openDashboard)";
    return NULL;
}
