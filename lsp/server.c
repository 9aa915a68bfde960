/* server.c: the session — lifecycle, the message queue, dispatch.
 *
 * One thread. Input is read into a queue before any request runs (every
 * message already available, without blocking), so a $/cancelRequest
 * that arrives before its request has run marks it, and the request is
 * answered with RequestCancelled instead of running. Edits only mark a
 * document dirty; when the queue is empty and no input is waiting, dirty
 * documents are analysed and their diagnostics published. A request that
 * needs an analysis runs it first. So a burst of didChange notifications
 * compiles once, and a compile never delays a message already received.
 *
 * Lifecycle (LSP 3.17): requests before `initialize` get
 * ServerNotInitialized, notifications then are dropped; after `shutdown`
 * requests get InvalidRequest; `exit` ends the session with status 0 after
 * a shutdown, 1 without one (end of input counts as exit). Any message the
 * framing or JSON parser rejects gets a ParseError reply with a null id,
 * unknown requests MethodNotFound, unknown notifications are ignored. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mytriton/lsp.h"
#include "server.h"

typedef struct Msg {
    cJSON *json;              /* NULL: a framing or parse error to answer */
    bool cancelled;
    struct Msg *next;
} Msg;

typedef struct Queue {
    Msg *head, *tail;
} Queue;

static void send(Server *s, cJSON *m) { mt_lsp_rpc_send(&s->rpc, m); }

static void enqueue(Queue *q, cJSON *json)
{
    Msg *m = calloc(1, sizeof *m);
    if (!m) {
        cJSON_Delete(json);
        return;
    }
    m->json = json;
    if (q->tail)
        q->tail->next = m;
    else
        q->head = m;
    q->tail = m;
}

static bool same_id(const cJSON *a, const cJSON *b)
{
    if (cJSON_IsNumber(a) && cJSON_IsNumber(b))
        return a->valuedouble == b->valuedouble;
    return cJSON_IsString(a) && cJSON_IsString(b) && !strcmp(a->valuestring, b->valuestring);
}

/* A cancel marks a queued request; one that already ran is left alone. */
static void mark_cancelled(Queue *q, const cJSON *msg)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(msg, "params"), "id");
    for (Msg *m = q->head; m; m = m->next)
        if (m->json && cJSON_GetObjectItemCaseSensitive(m->json, "method") &&
            same_id(cJSON_GetObjectItemCaseSensitive(m->json, "id"), id))
            m->cancelled = true;
}

/* Read one message into the queue (blocking); false at end of input. */
static bool read_one(Server *s, Queue *q)
{
    char *body;
    RpcRead r = mt_lsp_rpc_read(&s->rpc, &body);
    if (r == RPC_EOF)
        return false;
    cJSON *json = r == RPC_MESSAGE ? cJSON_Parse(body) : NULL;
    free(body);
    if (json && !strcmp(mt_lsp_proto_str(json, "method") ? mt_lsp_proto_str(json, "method") : "", "$/cancelRequest")) {
        mark_cancelled(q, json);
        cJSON_Delete(json);
        return true;
    }
    enqueue(q, json);
    return true;
}

/* ---- settings -------------------------------------------------------------------------- */

static void mark_all_dirty(Server *s)
{
    for (size_t i = 0; i < s->docs.n; i++)
        s->docs.v[i]->dirty = true;
}

static void request_configuration(Server *s)
{
    if (!s->config_pull)
        return;
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "jsonrpc", "2.0");
    s->config_request = s->next_request++;
    cJSON_AddNumberToObject(m, "id", (double)s->config_request);
    cJSON_AddStringToObject(m, "method", "workspace/configuration");
    cJSON *p = cJSON_AddObjectToObject(m, "params");
    cJSON *items = cJSON_AddArrayToObject(p, "items");
    cJSON *it = cJSON_CreateObject();
    cJSON_AddStringToObject(it, "section", "mytriton");
    cJSON_AddItemToArray(items, it);
    send(s, m);
}

/* A reply from the client to one of our requests. */
static void on_response(Server *s, const cJSON *msg)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
    if (!cJSON_IsNumber(id) || (int64_t)id->valuedouble != s->config_request)
        return;
    s->config_request = -1;
    const cJSON *result = cJSON_GetObjectItemCaseSensitive(msg, "result");
    if (cJSON_IsArray(result) && cJSON_GetArraySize(result) > 0) {
        mt_lsp_settings_apply(&s->settings, cJSON_GetArrayItem(result, 0));
        mark_all_dirty(s);
    }
}

/* ---- lifecycle ---------------------------------------------------------------------------- */

static bool client_offers(const cJSON *caps, const char *path0, const char *path1, const char *path2)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(caps, path0);
    if (path1)
        v = cJSON_GetObjectItemCaseSensitive(v, path1);
    if (path2)
        v = cJSON_GetObjectItemCaseSensitive(v, path2);
    return cJSON_IsTrue(v);
}

static bool offers_string(const cJSON *arr, const char *s)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, arr)
    {
        if (cJSON_IsString(it) && !strcmp(it->valuestring, s))
            return true;
    }
    return false;
}

static cJSON *initialize(Server *s, const cJSON *params, RpcErr *err)
{
    if (s->initialized) {
        err->code = RPC_INVALID_REQUEST;
        err->message = "initialize was already called";
        return NULL;
    }
    const cJSON *caps = cJSON_GetObjectItemCaseSensitive(params, "capabilities");
    const cJSON *general = cJSON_GetObjectItemCaseSensitive(caps, "general");
    s->enc = offers_string(cJSON_GetObjectItemCaseSensitive(general, "positionEncodings"), "utf-8") ? ENC_UTF8
                                                                                                  : ENC_UTF16;
    const cJSON *td = cJSON_GetObjectItemCaseSensitive(caps, "textDocument");
    const cJSON *hover = cJSON_GetObjectItemCaseSensitive(td, "hover");
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(hover, "contentFormat");
    s->markdown = !cJSON_IsArray(fmt) || offers_string(fmt, "markdown");
    s->hierarchical_symbols = client_offers(td, "documentSymbol", "hierarchicalDocumentSymbolSupport", NULL);
    s->config_pull = client_offers(caps, "workspace", "configuration", NULL);
    s->watch_registration = client_offers(caps, "workspace", "didChangeWatchedFiles", "dynamicRegistration");
    s->show_document = client_offers(caps, "window", "showDocument", "support");
    s->lens_refresh = client_offers(caps, "workspace", "codeLens", "refreshSupport");
    s->inlay_refresh = client_offers(caps, "workspace", "inlayHint", "refreshSupport");
    const cJSON *opts = cJSON_GetObjectItemCaseSensitive(params, "initializationOptions");
    const cJSON *inner = cJSON_GetObjectItemCaseSensitive(opts, "mytriton");
    s->client_stages = offers_string(cJSON_GetObjectItemCaseSensitive(cJSON_IsObject(inner) ? inner : opts,
                                                                       "clientCommands"),
                                     "mytriton.showStages");
    mt_lsp_settings_apply(&s->settings, opts);
    s->initialized = true;

    cJSON *r = cJSON_CreateObject();
    cJSON *c = cJSON_AddObjectToObject(r, "capabilities");
    cJSON_AddStringToObject(c, "positionEncoding", s->enc == ENC_UTF8 ? "utf-8" : "utf-16");
    cJSON *sync = cJSON_AddObjectToObject(c, "textDocumentSync");
    cJSON_AddBoolToObject(sync, "openClose", true);
    cJSON_AddNumberToObject(sync, "change", 2); /* incremental */
    cJSON_AddBoolToObject(c, "hoverProvider", true);
    cJSON_AddBoolToObject(c, "definitionProvider", true);
    cJSON_AddBoolToObject(c, "documentSymbolProvider", true);
    cJSON *comp = cJSON_AddObjectToObject(c, "completionProvider");
    cJSON *trig = cJSON_AddArrayToObject(comp, "triggerCharacters");
    cJSON_AddItemToArray(trig, cJSON_CreateString("."));
    cJSON *sh = cJSON_AddObjectToObject(c, "signatureHelpProvider");
    cJSON *st = cJSON_AddArrayToObject(sh, "triggerCharacters");
    cJSON_AddItemToArray(st, cJSON_CreateString("("));
    cJSON_AddItemToArray(st, cJSON_CreateString(","));
    cJSON *ca = cJSON_AddObjectToObject(c, "codeActionProvider");
    cJSON *kinds = cJSON_AddArrayToObject(ca, "codeActionKinds");
    cJSON_AddItemToArray(kinds, cJSON_CreateString("quickfix"));
    cJSON_AddItemToArray(kinds, cJSON_CreateString("refactor.rewrite"));
    cJSON *cl = cJSON_AddObjectToObject(c, "codeLensProvider");
    cJSON_AddBoolToObject(cl, "resolveProvider", false);
    cJSON_AddBoolToObject(c, "inlayHintProvider", true);
    cJSON *ec = cJSON_AddObjectToObject(c, "executeCommandProvider");
    cJSON_AddItemToObject(ec, "commands", mt_lsp_command_list(s));
    cJSON *ex = cJSON_AddObjectToObject(c, "experimental");
    cJSON_AddBoolToObject(ex, "mytritonStages", true);
    cJSON *info = cJSON_AddObjectToObject(r, "serverInfo");
    cJSON_AddStringToObject(info, "name", "mytriton");
    cJSON_AddStringToObject(info, "version", "0.1.0");
    return r;
}

static cJSON *shutdown_request(Server *s, const cJSON *params, RpcErr *err)
{
    s->shutdown = true;
    return cJSON_CreateNull();
}

/* After `initialized`: watch mytriton.json where the client can, and pull
 * the settings. */
static void initialized(Server *s)
{
    if (s->watch_registration) {
        cJSON *p = cJSON_CreateObject();
        cJSON *regs = cJSON_AddArrayToObject(p, "registrations");
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "id", "mytriton.json");
        cJSON_AddStringToObject(r, "method", "workspace/didChangeWatchedFiles");
        cJSON *opts = cJSON_AddObjectToObject(r, "registerOptions");
        cJSON *watchers = cJSON_AddArrayToObject(opts, "watchers");
        cJSON *w = cJSON_CreateObject();
        cJSON_AddStringToObject(w, "globPattern", "**/mytriton.json");
        cJSON_AddItemToArray(watchers, w);
        cJSON_AddItemToArray(regs, r);
        mt_lsp_send_request(s, "client/registerCapability", p);
    }
    request_configuration(s);
}

/* ---- notifications ---------------------------------------------------------------------- */

/* A project file was created, changed or deleted: read it again. */
static void did_change_watched_files(Server *s)
{
    mt_lsp_project_free(&s->project);
    mark_all_dirty(s);
}

static void did_open(Server *s, const cJSON *params)
{
    const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
    const char *uri = mt_lsp_proto_str(td, "uri");
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(td, "text");
    if (!uri || !cJSON_IsString(text))
        return;
    mt_lsp_docs_open(&s->docs, uri, text->valuestring, strlen(text->valuestring), mt_lsp_proto_int(td, "version", 0));
}

static void did_change(Server *s, const cJSON *params)
{
    RpcErr err = {0};
    Doc *d = mt_lsp_proto_doc(s, params, &err);
    if (!d)
        return;
    const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
    d->version = mt_lsp_proto_int(td, "version", d->version);
    const cJSON *ch;
    cJSON_ArrayForEach(ch, cJSON_GetObjectItemCaseSensitive(params, "contentChanges"))
    {
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(ch, "text");
        if (!cJSON_IsString(text))
            continue;
        const cJSON *range = cJSON_GetObjectItemCaseSensitive(ch, "range");
        size_t len = strlen(text->valuestring);
        if (!range) {
            mt_lsp_doc_set_text(d, text->valuestring, len);
            continue;
        }
        uint32_t off, end;
        if (mt_lsp_proto_offset(s, d, cJSON_GetObjectItemCaseSensitive(range, "start"), &off, &err) &&
            mt_lsp_proto_offset(s, d, cJSON_GetObjectItemCaseSensitive(range, "end"), &end, &err))
            mt_lsp_doc_edit(d, off, end, text->valuestring, len);
    }
}

static void did_close(Server *s, const cJSON *params)
{
    const char *uri = mt_lsp_proto_str(cJSON_GetObjectItemCaseSensitive(params, "textDocument"), "uri");
    if (!uri)
        return;
    mt_lsp_docs_close(&s->docs, uri);
    /* Clear what the client shows for it. */
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "uri", uri);
    cJSON_AddArrayToObject(p, "diagnostics");
    send(s, mt_lsp_rpc_notification("textDocument/publishDiagnostics", p));
}

static void did_change_configuration(Server *s, const cJSON *params)
{
    const cJSON *settings = cJSON_GetObjectItemCaseSensitive(params, "settings");
    if (cJSON_IsObject(settings) && cJSON_GetObjectItemCaseSensitive(settings, "mytriton"))
        mt_lsp_settings_apply(&s->settings, settings);
    else
        request_configuration(s); /* the pull model: settings is null or empty */
    mark_all_dirty(s);
}

/* ---- dispatch ----------------------------------------------------------------------------- */

typedef struct Route {
    const char *method;
    Handler fn;
} Route;

static const Route routes[] = {
    {"initialize", initialize},
    {"shutdown", shutdown_request},
    {"textDocument/hover", mt_lsp_handle_hover},
    {"textDocument/definition", mt_lsp_handle_definition},
    {"textDocument/documentSymbol", mt_lsp_handle_document_symbol},
    {"textDocument/completion", mt_lsp_handle_completion},
    {"textDocument/signatureHelp", mt_lsp_handle_signature_help},
    {"textDocument/codeAction", mt_lsp_handle_code_action},
    {"textDocument/codeLens", mt_lsp_handle_code_lens},
    {"textDocument/inlayHint", mt_lsp_handle_inlay_hint},
    {"workspace/executeCommand", mt_lsp_handle_execute_command},
    {"mytriton/stages", mt_lsp_handle_stages},
};

static void notify(Server *s, const char *method, const cJSON *params)
{
    if (!strcmp(method, "exit")) {
        s->exiting = true;
        return;
    }
    if (!s->initialized || s->shutdown)
        return;
    if (!strcmp(method, "textDocument/didOpen"))
        did_open(s, params);
    else if (!strcmp(method, "textDocument/didChange"))
        did_change(s, params);
    else if (!strcmp(method, "textDocument/didClose"))
        did_close(s, params);
    else if (!strcmp(method, "workspace/didChangeConfiguration"))
        did_change_configuration(s, params);
    else if (!strcmp(method, "workspace/didChangeWatchedFiles"))
        did_change_watched_files(s);
    else if (!strcmp(method, "initialized"))
        initialized(s);
}

static void request(Server *s, const char *method, const cJSON *id, const cJSON *params, bool cancelled)
{
    if (cancelled) {
        send(s, mt_lsp_rpc_error(id, RPC_REQUEST_CANCELLED, "request cancelled"));
        return;
    }
    if (!s->initialized && strcmp(method, "initialize")) {
        send(s, mt_lsp_rpc_error(id, RPC_SERVER_NOT_INITIALIZED, "the server is not initialized"));
        return;
    }
    if (s->shutdown) {
        send(s, mt_lsp_rpc_error(id, RPC_INVALID_REQUEST, "the server is shutting down"));
        return;
    }
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
        if (strcmp(routes[i].method, method))
            continue;
        if (cJSON_IsNull(params))
            params = NULL; /* "params": null, as for shutdown: no parameters */
        if (params && !cJSON_IsObject(params) && !cJSON_IsArray(params)) {
            send(s, mt_lsp_rpc_error(id, RPC_INVALID_PARAMS, "params must be an object"));
            return;
        }
        RpcErr err = {0};
        cJSON *r = routes[i].fn(s, params, &err);
        send(s, err.code ? mt_lsp_rpc_error(id, err.code, err.message) : mt_lsp_rpc_result(id, r ? r : cJSON_CreateNull()));
        if (err.code)
            cJSON_Delete(r);
        return;
    }
    char msg[256];
    snprintf(msg, sizeof msg, "unknown method '%.200s'", method);
    send(s, mt_lsp_rpc_error(id, RPC_METHOD_NOT_FOUND, msg));
}

static void dispatch(Server *s, const Msg *m)
{
    const cJSON *j = m->json;
    if (!j) {
        send(s, mt_lsp_rpc_error(NULL, RPC_PARSE_ERROR, "parse error: not a JSON-RPC message"));
        return;
    }
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "id");
    const cJSON *method = cJSON_GetObjectItemCaseSensitive(j, "method");
    bool valid_id = !id || cJSON_IsNumber(id) || cJSON_IsString(id) || cJSON_IsNull(id);
    if (!cJSON_IsObject(j) || !valid_id || (method && !cJSON_IsString(method))) {
        send(s, mt_lsp_rpc_error(valid_id ? id : NULL, RPC_INVALID_REQUEST, "invalid request"));
        return;
    }
    if (!method) {
        if (id && (cJSON_GetObjectItemCaseSensitive(j, "result") || cJSON_GetObjectItemCaseSensitive(j, "error")))
            on_response(s, j);
        else
            send(s, mt_lsp_rpc_error(id, RPC_INVALID_REQUEST, "invalid request: no method"));
        return;
    }
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(j, "params");
    if (id)
        request(s, method->valuestring, id, params, m->cancelled);
    else
        notify(s, method->valuestring, params);
}

/* Analyse and publish every document whose diagnostics are out of date. */
static void publish(Server *s)
{
    for (size_t i = 0; i < s->docs.n; i++) {
        Doc *d = s->docs.v[i];
        if (!d->dirty && d->published)
            continue;
        mt_lsp_analyse(s, d);
        d->published = true;
        send(s, mt_lsp_rpc_notification("textDocument/publishDiagnostics", mt_lsp_diag_publish(s, d)));
    }
}

int mt_lsp_serve(int in_fd, int out_fd, const MtLspOptions *opt)
{
    if (opt && opt->with && opt->with[0])
        return mt_lsp_serve_with(in_fd, out_fd, opt);
    Server s = {0};
    mt_lsp_rpc_init(&s.rpc, in_fd, out_fd);
    mt_lsp_settings_init(&s.settings);
    s.rules_url = opt ? opt->rules_url : NULL;
    s.next_request = 1;
    s.config_request = -1;
    Queue q = {0};
    bool open = true;
    while (!s.exiting) {
        /* Take in every message already sent. */
        while (open && mt_lsp_rpc_ready(&s.rpc))
            open = read_one(&s, &q);
        if (!q.head) {
            if (!open)
                break;
            /* Idle: bring the diagnostics up to date, then wait. */
            if (s.initialized && !s.shutdown)
                publish(&s);
            open = read_one(&s, &q);
            continue;
        }
        Msg *m = q.head;
        q.head = m->next;
        if (!q.head)
            q.tail = NULL;
        dispatch(&s, m);
        cJSON_Delete(m->json);
        free(m);
    }
    for (Msg *m = q.head; m;) {
        Msg *next = m->next;
        cJSON_Delete(m->json);
        free(m);
        m = next;
    }
    int status = s.shutdown ? 0 : 1; /* exit (or end of input) after shutdown */
    mt_lsp_docs_free(&s.docs);
    mt_lsp_settings_free(&s.settings);
    mt_lsp_project_free(&s.project);
    mt_lsp_choices_free(&s);
    mt_lsp_rpc_free(&s.rpc);
    return status;
}
