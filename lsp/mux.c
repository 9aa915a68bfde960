/* mux.c: `mytriton lsp --with CMD...` -- mytriton and another language
 * server (the user's Python server) as one session, for clients that run
 * a single server per buffer (Emacs's eglot): mytriton beside pylsp or
 * pyright, not instead of them.
 *
 * The mux sits between the client and two peers: mytriton's own server
 * (mt_lsp_serve on a thread, over pipes) and CMD (a child process). One
 * thread polls the three inputs; every output goes through a queue written
 * as the peer can take it, so neither side can block the other.
 *
 *  - Client notifications go to both peers ($/cancelRequest with each
 *    peer's own id). Client requests go to each peer that can answer them
 *    (mytriton's methods to mytriton; everything to the other server, whose
 *    "method not found" is simply not merged; a command of
 *    workspace/executeCommand and the resolve requests to their owner);
 *    the client gets one reply once every peer asked has answered: the
 *    results merged by method (hover contents joined, completion items,
 *    code actions, lenses, hints, symbols, locations concatenated,
 *    anything else the first non-null result).
 *  - `initialize` goes to both, with the client's capabilities less
 *    positionEncodings (both peers then count UTF-16, as the client will);
 *    the capabilities returned are mytriton's plus the other's (the sync
 *    kind the smaller of the two, trigger characters and commands joined).
 *  - Peer requests to the client (workspace/configuration,
 *    client/registerCapability, ...) get ids of the mux's own; the reply
 *    goes back to the peer that asked, under its id.
 *  - textDocument/publishDiagnostics: the client replaces a document's
 *    diagnostics each time, so the mux keeps each peer's last set per
 *    document and sends both.
 *  - `shutdown` reaches both; after `exit` the mux waits (2 s at most) for
 *    the peers to end, then ends with status 0 after a shutdown, 1
 *    otherwise, as a server does. A peer that dies leaves the other one
 *    serving. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mytriton/lsp.h"
#include "server.h"
#include "text.h"

enum { MYTRITON, OTHER, NPEERS };

typedef struct Outq {
    int fd;
    char *buf;
    size_t len, cap;
} Outq;

typedef struct Peer {
    Rpc rpc;                  /* its output */
    Outq in;                  /* its input */
    bool open;                /* its output is still open */
    cJSON *diags;             /* uri -> its last diagnostics array */
} Peer;

typedef struct Pending {      /* a client request sent to the peers */
    cJSON *id;                /* the client's */
    char *method;
    int64_t sub[NPEERS];      /* its id at each peer; 0: not sent there */
    cJSON *reply[NPEERS];     /* each peer's response, once it came */
    struct Pending *next;
} Pending;

typedef struct Forward {      /* a peer's request to the client */
    int64_t id;               /* the id the client sees */
    int peer;
    cJSON *orig;              /* the peer's id */
    struct Forward *next;
} Forward;

typedef struct Mux {
    Rpc client;
    Outq out;                 /* to the client */
    Peer peer[NPEERS];
    Pending *pending;
    Forward *forwards;
    cJSON *commands;          /* mytriton's executeCommand commands (the rest are the other's) */
    int64_t next_id;
    bool shutdown, exiting;
} Mux;

/* ---- output queues ------------------------------------------------------------------ */

static void put(Outq *q, const char *s, size_t n)
{
    if (q->fd < 0)
        return;
    if (q->len + n > q->cap) {
        size_t cap = q->cap ? q->cap : 65536;
        while (cap < q->len + n)
            cap *= 2;
        char *b = realloc(q->buf, cap);
        if (!b)
            return;
        q->buf = b;
        q->cap = cap;
    }
    memcpy(q->buf + q->len, s, n);
    q->len += n;
}

static void queue(Outq *q, cJSON *msg)
{
    char *text = cJSON_PrintUnformatted(msg);
    cJSON_Delete(msg);
    if (!text)
        return;
    char head[64];
    int hn = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", strlen(text));
    put(q, head, (size_t)hn);
    put(q, text, strlen(text));
    cJSON_free(text);
}

/* Write what the fd takes now. A peer that is gone drops its queue. */
static void flush(Outq *q)
{
    size_t done = 0;
    while (done < q->len) {
        ssize_t w = write(q->fd, q->buf + done, q->len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (w <= 0) {
            done = q->len;
            break;
        }
        done += (size_t)w;
    }
    memmove(q->buf, q->buf + done, q->len - done);
    q->len -= done;
}

/* ---- the peers ------------------------------------------------------------------------ */

typedef struct Thread {
    int in, out;
    MtLspOptions opt;
} Thread;

static void *serve_thread(void *ud)
{
    Thread *t = ud;
    mt_lsp_serve(t->in, t->out, &t->opt);
    close(t->out); /* the mux sees the end of its output */
    close(t->in);
    return NULL;
}

static void nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

static pid_t spawn(char *const argv[], int *in, int *out)
{
    int a[2], b[2];
    if (pipe(a) || pipe(b))
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(a[0], STDIN_FILENO);
        dup2(b[1], STDOUT_FILENO);
        close(a[0]);
        close(a[1]);
        close(b[0]);
        close(b[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "mytriton lsp: cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(a[0]);
    close(b[1]);
    if (pid < 0) {
        close(a[1]);
        close(b[0]);
        return -1;
    }
    fcntl(a[1], F_SETFD, FD_CLOEXEC);
    fcntl(b[0], F_SETFD, FD_CLOEXEC);
    *in = a[1];
    *out = b[0];
    return pid;
}

/* ---- routing -------------------------------------------------------------------------- */

static const char *str(const cJSON *o, const char *k) { return mt_lsp_proto_str(o, k); }

static bool mytriton_command(const Mux *x, const char *cmd)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, x->commands)
    {
        if (cJSON_IsString(c) && cmd && !strcmp(c->valuestring, cmd))
            return true;
    }
    return false;
}

/* The methods mytriton answers (server.c's routes). */
static bool mytriton_method(const char *m)
{
    static const char *const known[] = {
        "initialize",           "shutdown",           "textDocument/hover",          "textDocument/definition",
        "textDocument/documentSymbol", "textDocument/completion", "textDocument/signatureHelp",
        "textDocument/codeAction", "textDocument/codeLens", "textDocument/inlayHint", "workspace/executeCommand",
        "mytriton/stages",
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(known[i], m))
            return true;
    return false;
}

static cJSON *with_id(const cJSON *msg, int64_t id)
{
    cJSON *m = cJSON_Duplicate(msg, true);
    cJSON_ReplaceItemInObject(m, "id", cJSON_CreateNumber((double)id));
    return m;
}

/* Whether any peer needs no more: every one asked has answered. */
static bool complete(const Pending *p)
{
    for (int i = 0; i < NPEERS; i++)
        if (p->sub[i] && !p->reply[i])
            return false;
    return true;
}

static const cJSON *result_of(const cJSON *reply)
{
    return reply && !cJSON_GetObjectItemCaseSensitive(reply, "error") ? cJSON_GetObjectItemCaseSensitive(reply, "result")
                                                                       : NULL;
}

/* An array of the items of a result that is an array, a CompletionList,
 * or one object (a Location); NULL for null. */
static cJSON *items_of(const cJSON *r, bool *incomplete)
{
    if (!r || cJSON_IsNull(r))
        return NULL;
    if (cJSON_IsArray(r))
        return cJSON_Duplicate(r, true);
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(r, "items");
    if (cJSON_IsArray(items)) {
        *incomplete |= cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "isIncomplete"));
        return cJSON_Duplicate(items, true);
    }
    cJSON *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, cJSON_Duplicate(r, true));
    return a;
}

/* The text of hover contents (MarkupContent, MarkedString or an array of them). */
static void hover_text(const cJSON *c, Text *t, bool *markdown)
{
    if (cJSON_IsString(c)) {
        mt_lsp_text_puts(t, c->valuestring);
    } else if (cJSON_IsArray(c)) {
        const cJSON *it;
        cJSON_ArrayForEach(it, c)
        {
            if (t->n)
                mt_lsp_text_puts(t, "\n\n");
            hover_text(it, t, markdown);
        }
    } else if (str(c, "kind")) { /* MarkupContent */
        *markdown |= !strcmp(str(c, "kind"), "markdown");
        mt_lsp_text_puts(t, str(c, "value") ? str(c, "value") : "");
    } else if (str(c, "value")) { /* MarkedString {language, value} */
        *markdown = true;
        mt_lsp_text_printf(t, "```%s\n%s\n```", str(c, "language") ? str(c, "language") : "", str(c, "value"));
    }
}

static cJSON *merge_hover(const cJSON *a, const cJSON *b)
{
    if (!a || cJSON_IsNull(a))
        return b ? cJSON_Duplicate(b, true) : cJSON_CreateNull();
    if (!b || cJSON_IsNull(b))
        return cJSON_Duplicate(a, true);
    Text t = {0};
    bool md = false;
    hover_text(cJSON_GetObjectItemCaseSensitive(a, "contents"), &t, &md);
    mt_lsp_text_puts(&t, md ? "\n\n---\n\n" : "\n\n");
    hover_text(cJSON_GetObjectItemCaseSensitive(b, "contents"), &t, &md);
    cJSON *h = cJSON_CreateObject();
    cJSON *c = cJSON_AddObjectToObject(h, "contents");
    cJSON_AddStringToObject(c, "kind", md ? "markdown" : "plaintext");
    cJSON_AddStringToObject(c, "value", mt_lsp_text_str(&t));
    mt_lsp_text_free(&t);
    return h;
}

/* One result for the client from the peers' replies. */
static cJSON *merge(const char *method, const cJSON *a, const cJSON *b)
{
    if (!strcmp(method, "textDocument/hover"))
        return merge_hover(a, b);
    static const char *const lists[] = {
        "textDocument/completion", "textDocument/codeAction", "textDocument/codeLens", "textDocument/inlayHint",
        "textDocument/definition", "textDocument/declaration", "textDocument/references",
        "textDocument/implementation", "textDocument/typeDefinition", "textDocument/documentSymbol",
        "textDocument/documentHighlight", "textDocument/foldingRange", "workspace/symbol",
    };
    bool list = false;
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        list |= !strcmp(lists[i], method);
    if (!list || !a || !b || cJSON_IsNull(a) || cJSON_IsNull(b))
        return cJSON_Duplicate(a && !cJSON_IsNull(a) ? a : b ? b : a, true);
    bool incomplete = false;
    cJSON *x = items_of(a, &incomplete), *y = items_of(b, &incomplete);
    /* Document symbols come hierarchical or flat: never both in one list. */
    bool mixed = !strcmp(method, "textDocument/documentSymbol") && cJSON_GetArraySize(x) && cJSON_GetArraySize(y) &&
                 !cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(x, 0), "location") !=
                     !cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(y, 0), "location");
    cJSON *it;
    while (!mixed && y && (it = cJSON_DetachItemFromArray(y, 0)) != NULL)
        cJSON_AddItemToArray(x, it);
    cJSON_Delete(y);
    if (strcmp(method, "textDocument/completion"))
        return x;
    cJSON *cl = cJSON_CreateObject();
    cJSON_AddBoolToObject(cl, "isIncomplete", incomplete);
    cJSON_AddItemToObject(cl, "items", x);
    return cl;
}

/* The capabilities mytriton's reply announces, plus the other server's. */
static void merge_initialize(Mux *x, cJSON *a, const cJSON *b)
{
    cJSON *ca = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(a, "result"), "capabilities");
    const cJSON *cb = cJSON_GetObjectItemCaseSensitive(result_of(b), "capabilities");
    if (!ca)
        return;
    /* Which commands are mytriton's, before the lists are joined. */
    cJSON_Delete(x->commands);
    x->commands = cJSON_Duplicate(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(ca, "executeCommandProvider"), "commands"),
        true);
    const cJSON *it;
    cJSON_ArrayForEach(it, cb)
    {
        if (!cJSON_GetObjectItemCaseSensitive(ca, it->string))
            cJSON_AddItemToObject(ca, it->string, cJSON_Duplicate(it, true));
    }
    const cJSON *sb = cJSON_GetObjectItemCaseSensitive(cb, "textDocumentSync");
    int kind = cJSON_IsNumber(sb) ? sb->valueint : (int)mt_lsp_proto_int(sb, "change", 2);
    if (kind == 1) /* the other takes whole texts only: so will the client send them */
        cJSON_ReplaceItemInObject(cJSON_GetObjectItemCaseSensitive(ca, "textDocumentSync"), "change",
                                  cJSON_CreateNumber(1));
    static const char *const triggers[][2] = {{"completionProvider", "triggerCharacters"},
                                              {"signatureHelpProvider", "triggerCharacters"},
                                              {"executeCommandProvider", "commands"}};
    for (size_t i = 0; i < 3; i++) {
        cJSON *to = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(ca, triggers[i][0]),
                                                     triggers[i][1]);
        const cJSON *from = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cb, triggers[i][0]),
                                                             triggers[i][1]);
        cJSON_ArrayForEach(it, from)
        {
            bool seen = false;
            const cJSON *t;
            cJSON_ArrayForEach(t, to) seen |= cJSON_Compare(t, it, true);
            if (to && !seen)
                cJSON_AddItemToArray(to, cJSON_Duplicate(it, true));
        }
    }
    cJSON *info = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(a, "result"), "serverInfo");
    const char *other = str(cJSON_GetObjectItemCaseSensitive(result_of(b), "serverInfo"), "name");
    if (info && other) {
        char name[256];
        snprintf(name, sizeof name, "mytriton+%.200s", other);
        cJSON_ReplaceItemInObject(info, "name", cJSON_CreateString(name));
    }
}

static void finish(Mux *x, Pending *p)
{
    cJSON *a = p->reply[MYTRITON], *b = p->reply[OTHER];
    cJSON *reply;
    if (!strcmp(p->method, "initialize") && a) {
        merge_initialize(x, a, b);
        reply = cJSON_Duplicate(a, true);
    } else if (result_of(a) || result_of(b)) {
        reply = mt_lsp_rpc_result(p->id, merge(p->method, result_of(a), result_of(b)));
    } else { /* both failed (or the only one asked): its error */
        reply = cJSON_Duplicate(a ? a : b, true);
        if (!reply)
            reply = mt_lsp_rpc_error(p->id, RPC_INTERNAL_ERROR, "no language server answered");
    }
    cJSON_ReplaceItemInObject(reply, "id", cJSON_Duplicate(p->id, true));
    queue(&x->out, reply);
}

static void drop_pending(Mux *x, Pending *p)
{
    for (Pending **pp = &x->pending; *pp; pp = &(*pp)->next)
        if (*pp == p) {
            *pp = p->next;
            break;
        }
    cJSON_Delete(p->id);
    free(p->method);
    for (int i = 0; i < NPEERS; i++)
        cJSON_Delete(p->reply[i]);
    free(p);
}

/* A peer ended: what it owed is answered without it. */
static void peer_gone(Mux *x, int who)
{
    x->peer[who].open = false;
    for (Pending *p = x->pending, *next; p; p = next) {
        next = p->next;
        if (p->sub[who] && !p->reply[who]) {
            p->sub[who] = 0;
            if (complete(p)) {
                finish(x, p);
                drop_pending(x, p);
            }
        }
    }
}

static void publish(Mux *x, const cJSON *params, int who)
{
    const char *uri = str(params, "uri");
    if (!uri)
        return;
    cJSON *mine = x->peer[who].diags;
    cJSON_DeleteItemFromObjectCaseSensitive(mine, uri);
    cJSON_AddItemToObject(mine, uri,
                          cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(params, "diagnostics"), true));
    cJSON *out = cJSON_Duplicate(params, true);
    cJSON *all = cJSON_CreateArray();
    for (int i = 0; i < NPEERS; i++) {
        const cJSON *d;
        cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(x->peer[i].diags, uri))
            cJSON_AddItemToArray(all, cJSON_Duplicate(d, true));
    }
    cJSON_ReplaceItemInObject(out, "diagnostics", all);
    queue(&x->out, mt_lsp_rpc_notification("textDocument/publishDiagnostics", out));
}

static void from_peer(Mux *x, int who, cJSON *m)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
    const char *method = str(m, "method");
    if (id && !method) { /* a reply to a request the mux sent */
        for (Pending *p = x->pending; p; p = p->next)
            if (cJSON_IsNumber(id) && p->sub[who] == (int64_t)id->valuedouble && !p->reply[who]) {
                p->reply[who] = m;
                if (complete(p)) {
                    finish(x, p);
                    drop_pending(x, p);
                }
                return;
            }
        cJSON_Delete(m);
        return;
    }
    if (id) { /* a request to the client, under an id of the mux's */
        Forward *f = calloc(1, sizeof *f);
        if (f) {
            *f = (Forward){x->next_id++, who, cJSON_Duplicate(id, true), x->forwards};
            x->forwards = f;
            queue(&x->out, with_id(m, f->id));
        }
        cJSON_Delete(m);
        return;
    }
    if (method && !strcmp(method, "textDocument/publishDiagnostics"))
        publish(x, cJSON_GetObjectItemCaseSensitive(m, "params"), who);
    else
        queue(&x->out, cJSON_Duplicate(m, true));
    cJSON_Delete(m);
}

/* Where a client request goes. */
static void route(Mux *x, const cJSON *m, const char *method, bool *to)
{
    const char *cmd = str(cJSON_GetObjectItemCaseSensitive(m, "params"), "command");
    size_t n = strlen(method);
    if (!strcmp(method, "workspace/executeCommand")) {
        to[MYTRITON] = mytriton_command(x, cmd);
        to[OTHER] = !to[MYTRITON];
    } else if (n > 8 && !strcmp(method + n - 8, "/resolve")) {
        to[OTHER] = true; /* mytriton resolves nothing */
    } else {
        to[MYTRITON] = mytriton_method(method);
        to[OTHER] = strncmp(method, "mytriton/", 9) != 0;
    }
    to[OTHER] &= x->peer[OTHER].open;
}

static void from_client(Mux *x, cJSON *m)
{
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
    const char *method = str(m, "method");
    if (id && !method) { /* the client's reply to a peer's request */
        for (Forward **fp = &x->forwards; *fp; fp = &(*fp)->next) {
            Forward *f = *fp;
            if (cJSON_IsNumber(id) && f->id == (int64_t)id->valuedouble) {
                cJSON *r = cJSON_Duplicate(m, true);
                cJSON_ReplaceItemInObject(r, "id", f->orig);
                queue(&x->peer[f->peer].in, r);
                *fp = f->next;
                free(f);
                break;
            }
        }
        return;
    }
    if (!method) {
        queue(&x->peer[MYTRITON].in, cJSON_Duplicate(m, true)); /* malformed: mytriton answers it */
        return;
    }
    if (!id) { /* a notification: to both, a cancel under each peer's id */
        if (!strcmp(method, "exit"))
            x->exiting = true;
        if (!strcmp(method, "$/cancelRequest")) {
            const cJSON *cid = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(m, "params"), "id");
            for (Pending *p = x->pending; p; p = p->next)
                if (cJSON_Compare(p->id, cid, true))
                    for (int i = 0; i < NPEERS; i++)
                        if (p->sub[i]) {
                            cJSON *c = cJSON_CreateObject();
                            cJSON_AddNumberToObject(c, "id", (double)p->sub[i]);
                            queue(&x->peer[i].in, mt_lsp_rpc_notification("$/cancelRequest", c));
                        }
            return;
        }
        for (int i = 0; i < NPEERS; i++)
            queue(&x->peer[i].in, cJSON_Duplicate(m, true));
        return;
    }
    bool to[NPEERS] = {false, false};
    if (!strcmp(method, "initialize") || !strcmp(method, "shutdown")) {
        to[MYTRITON] = true;
        to[OTHER] = x->peer[OTHER].open;
        x->shutdown |= !strcmp(method, "shutdown");
    } else {
        route(x, m, method, to);
    }
    Pending *p = calloc(1, sizeof *p);
    if (!p)
        return;
    p->id = cJSON_Duplicate(id, true);
    p->method = strdup(method);
    for (int i = 0; i < NPEERS; i++) {
        if (!to[i])
            continue;
        p->sub[i] = x->next_id++;
        cJSON *fwd = with_id(m, p->sub[i]);
        if (!strcmp(method, "initialize")) /* both count UTF-16, as the client then will */
            cJSON_DeleteItemFromObjectCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(
                    cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(fwd, "params"), "capabilities"),
                    "general"),
                "positionEncodings");
        queue(&x->peer[i].in, fwd);
    }
    p->next = x->pending;
    x->pending = p;
    if (complete(p)) { /* nobody to ask */
        queue(&x->out, mt_lsp_rpc_error(id, RPC_METHOD_NOT_FOUND, "no language server handles this method"));
        drop_pending(x, p);
    }
}

/* Read every message the input holds. */
static bool drain(Mux *x, Rpc *r, int who)
{
    do {
        char *body;
        RpcRead st = mt_lsp_rpc_read(r, &body);
        if (st == RPC_EOF)
            return false;
        cJSON *m = body ? cJSON_Parse(body) : NULL;
        free(body);
        if (!m) {
            if (who < 0)
                queue(&x->out, mt_lsp_rpc_error(NULL, RPC_PARSE_ERROR, "parse error: not a JSON-RPC message"));
            continue;
        }
        if (who < 0) {
            from_client(x, m);
            cJSON_Delete(m);
        } else {
            from_peer(x, who, m);
        }
    } while (mt_lsp_rpc_ready(r) && !r->eof);
    return true;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int mt_lsp_serve_with(int in_fd, int out_fd, const MtLspOptions *opt)
{
    Mux x = {.next_id = 1};
    mt_lsp_rpc_init(&x.client, in_fd, -1);
    x.out.fd = out_fd;
    nonblocking(out_fd);
    int a_in[2], a_out[2];
    if (pipe(a_in) || pipe(a_out))
        return 1;
    Thread t = {a_in[0], a_out[1], {opt->rules_url, NULL}};
    pthread_t th;
    if (pthread_create(&th, NULL, serve_thread, &t))
        return 1;
    int b_in = -1, b_out = -1;
    pid_t child = spawn(opt->with, &b_in, &b_out);
    mt_lsp_rpc_init(&x.peer[MYTRITON].rpc, a_out[0], -1);
    x.peer[MYTRITON].in.fd = a_in[1];
    x.peer[MYTRITON].open = true;
    mt_lsp_rpc_init(&x.peer[OTHER].rpc, b_out, -1);
    x.peer[OTHER].in.fd = b_in;
    x.peer[OTHER].open = child > 0;
    nonblocking(a_in[1]);
    if (b_in >= 0)
        nonblocking(b_in);
    for (int i = 0; i < NPEERS; i++)
        x.peer[i].diags = cJSON_CreateObject();
    if (child <= 0)
        fprintf(stderr, "mytriton lsp: cannot start '%s'; serving mytriton alone\n", opt->with[0]);

    bool client_open = true;
    double deadline = 0;
    while (x.peer[MYTRITON].open || x.peer[OTHER].open) {
        if (x.exiting && !deadline)
            deadline = now() + 2;
        if (deadline && now() > deadline)
            break;
        struct pollfd fds[6];
        int n = 0, who[6];
        Outq *outs[3] = {&x.out, &x.peer[MYTRITON].in, &x.peer[OTHER].in};
        if (client_open && !x.exiting) {
            fds[n] = (struct pollfd){x.client.in, POLLIN, 0};
            who[n++] = -1;
        }
        for (int i = 0; i < NPEERS; i++)
            if (x.peer[i].open) {
                fds[n] = (struct pollfd){x.peer[i].rpc.in, POLLIN, 0};
                who[n++] = i;
            }
        for (int i = 0; i < 3; i++)
            if (outs[i]->len && outs[i]->fd >= 0) {
                fds[n] = (struct pollfd){outs[i]->fd, POLLOUT, 0};
                who[n++] = 10 + i;
            }
        if (poll(fds, (nfds_t)n, deadline ? 100 : -1) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < n; i++) {
            if (!fds[i].revents)
                continue;
            if (who[i] >= 10) {
                flush(outs[who[i] - 10]);
            } else if (who[i] < 0) {
                if (!drain(&x, &x.client, -1)) {
                    client_open = false;
                    x.exiting = true; /* end of input counts as exit */
                    for (int k = 0; k < NPEERS; k++)
                        queue(&x.peer[k].in, mt_lsp_rpc_notification("exit", NULL));
                }
            } else if (!drain(&x, &x.peer[who[i]].rpc, who[i])) {
                peer_gone(&x, who[i]);
            }
        }
        if (x.exiting) { /* what is queued goes out before the mux ends */
            for (int i = 0; i < 3; i++)
                if (outs[i]->len)
                    flush(outs[i]);
        }
    }
    flush(&x.out);
    if (child > 0) {
        close(b_in);
        x.peer[OTHER].in.fd = -1;
        if (waitpid(child, NULL, WNOHANG) == 0) {
            kill(child, SIGTERM);
            waitpid(child, NULL, 0);
        }
    }
    close(a_in[1]);
    pthread_join(th, NULL);
    close(a_out[0]);
    if (b_out >= 0)
        close(b_out);
    for (Pending *p = x.pending; p;) {
        Pending *next = p->next;
        drop_pending(&x, p);
        p = next;
    }
    for (Forward *f = x.forwards; f;) {
        Forward *next = f->next;
        cJSON_Delete(f->orig);
        free(f);
        f = next;
    }
    for (int i = 0; i < NPEERS; i++) {
        cJSON_Delete(x.peer[i].diags);
        mt_lsp_rpc_free(&x.peer[i].rpc);
        free(x.peer[i].in.buf);
    }
    free(x.out.buf);
    cJSON_Delete(x.commands);
    mt_lsp_rpc_free(&x.client);
    return x.shutdown ? 0 : 1;
}
