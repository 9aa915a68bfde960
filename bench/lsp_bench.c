/* lsp_bench.c: language server latency on a 500-line file with 10 kernels.
 *
 *   lsp_bench [ROUNDS]
 *
 * Runs the server (mt_lsp_serve) on a thread over two pipes and drives it
 * as an editor does: didOpen, then ROUNDS edits (didChange of one
 * constant) each timed until the publishDiagnostics of that version
 * arrives, and ROUNDS hovers on names spread over the file, each timed
 * until its response. Prints the median, 90th percentile and maximum
 * against the targets (20 ms from an edit to its diagnostics, 5 ms for a
 * hover). Every kernel is compiled through the CUDA lowering on each
 * edit, as in the editor. Two files: one whose kernels carry `# mytriton:`
 * comments, a tutorial-style one without them, where every edit also
 * runs the discovery over host code (launches with torch tensors, autotune
 * configs), and the annotated one with a type error near the end of each
 * kernel, where every edit also runs the prefix analysis of each kernel
 * (docs/lsp.md). Not a test: it always exits 0 unless the session breaks. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "mytriton/lsp.h"

enum { KERNELS = 10, BODY = 39 };

/* The three files. */
typedef enum FileKind { ANNOTATED, TUTORIAL, BROKEN } FileKind;

typedef struct Pipe {
    int server_in, server_out; /* the server's ends */
    int to, from;              /* ours */
} Pipe;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *serve(void *ud)
{
    Pipe *p = ud;
    mt_lsp_serve(p->server_in, p->server_out, NULL);
    close(p->server_out);
    return NULL;
}

static void send_json(Pipe *p, cJSON *m)
{
    char *t = cJSON_PrintUnformatted(m);
    cJSON_Delete(m);
    char head[64];
    int hn = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", strlen(t));
    if (write(p->to, head, (size_t)hn) != hn || write(p->to, t, strlen(t)) != (ssize_t)strlen(t)) {
        fprintf(stderr, "lsp_bench: the server stopped reading\n");
        exit(1);
    }
    cJSON_free(t);
}

/* Read one message (blocking). */
static cJSON *recv_json(Pipe *p)
{
    char head[256];
    size_t n = 0;
    while (n < sizeof head - 1) {
        if (read(p->from, head + n, 1) != 1)
            return NULL;
        n++;
        if (n >= 4 && !memcmp(head + n - 4, "\r\n\r\n", 4))
            break;
    }
    head[n] = 0;
    const char *cl = strstr(head, "Content-Length:");
    size_t len = cl ? strtoul(cl + 15, NULL, 10) : 0;
    char *body = malloc(len + 1);
    for (size_t got = 0; got < len;) {
        ssize_t r = read(p->from, body + got, len - got);
        if (r <= 0) {
            free(body);
            return NULL;
        }
        got += (size_t)r;
    }
    body[len] = 0;
    cJSON *j = cJSON_Parse(body);
    free(body);
    return j;
}

static cJSON *message(const char *method, int id)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "jsonrpc", "2.0");
    if (id)
        cJSON_AddNumberToObject(m, "id", id);
    cJSON_AddStringToObject(m, "method", method);
    return m;
}

/* Wait for the response with this id, or (id 0) the diagnostics of this version. */
static cJSON *await(Pipe *p, int id, int version)
{
    for (;;) {
        cJSON *m = recv_json(p);
        if (!m) {
            fprintf(stderr, "lsp_bench: the server closed its output\n");
            exit(1);
        }
        const cJSON *mid = cJSON_GetObjectItemCaseSensitive(m, "id");
        const cJSON *method = cJSON_GetObjectItemCaseSensitive(m, "method");
        if (id && cJSON_IsNumber(mid) && mid->valueint == id && !method)
            return m;
        if (!id && cJSON_IsString(method) && !strcmp(method->valuestring, "textDocument/publishDiagnostics")) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(m, "params"), "version");
            if (cJSON_IsNumber(v) && v->valueint == version)
                return m;
        }
        cJSON_Delete(m);
    }
}

typedef struct Hover {
    int line, character;
} Hover;

/* A 500-line file: 10 kernels of elementwise chains, masks and maxima,
 * specialised by `# mytriton:` comments, or (tutorial) by autotune configs
 * and launches in host code at the end of the file. */
static char *make_file(FileKind kind, Hover *hovers, int *nhovers, int *edit_line)
{
    bool tutorial = kind == TUTORIAL;
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap);
    int line = 0;
    *nhovers = 0;
#define EMIT(...)                                                                                                     \
    do {                                                                                                              \
        n += (size_t)snprintf(s + n, cap - n, __VA_ARGS__);                                                           \
        line++;                                                                                                       \
    } while (0)
    EMIT("\"\"\"Benchmark file: ten kernels, five hundred lines.\"\"\"\n");
    EMIT("import torch\n");
    EMIT("import triton\n");
    EMIT("import triton.language as tl\n");
    for (int k = 0; k < KERNELS; k++) {
        EMIT("\n");
        EMIT("\n");
        if (!tutorial)
            EMIT("# mytriton: BLOCK=%d\n", 128 << (k % 3));
        else if (k % 2)
            EMIT("@triton.autotune(configs=[triton.Config({'BLOCK': %d}, num_warps=4), triton.Config({'BLOCK': 64})], "
                 "key=['n'])\n",
                 128 << (k % 3));
        EMIT("@triton.jit\n");
        EMIT("def kernel_%d(x, y, out, n, BLOCK: tl.constexpr):\n", k);
        EMIT("    pid = tl.program_id(0)\n");
        hovers[(*nhovers)++] = (Hover){line, 5};
        EMIT("    offs = pid * BLOCK + tl.arange(0, BLOCK)\n");
        EMIT("    mask = offs < n\n");
        EMIT("    a = tl.load(x + offs, mask=mask, other=0.0)\n");
        EMIT("    b = tl.load(y + offs, mask=mask, other=0.0)\n");
        EMIT("    t0 = a * %d.0 + b\n", k + 1);
        for (int i = 1; i < BODY; i++) {
            if (k == KERNELS / 2 && i == BODY / 2)
                *edit_line = line;
            if (i % 9 == 0)
                hovers[(*nhovers)++] = (Hover){line, 5};
            if (kind == BROKEN && i == BODY - 5)
                EMIT("    t%d = t%d + x\n", i, i - 1); /* a block plus a pointer: E0403 */
            else if (i % 5 == 0)
                EMIT("    t%d = tl.maximum(t%d, a) - %d.5\n", i, i - 1, i);
            else if (i % 7 == 0)
                EMIT("    t%d = tl.where(mask, t%d * 0.5, b)\n", i, i - 1);
            else
                EMIT("    t%d = t%d * 1.%02d + %s\n", i, i - 1, i, i % 2 ? "a" : "b");
        }
        EMIT("    tl.store(out + offs, t%d, mask=mask)\n", BODY - 1);
    }
    if (tutorial) {
        EMIT("\n");
        EMIT("\n");
        EMIT("def run_all(n):\n");
        EMIT("    x = torch.randn(n, device='cuda', dtype=torch.float32)\n");
        EMIT("    y = torch.rand_like(x)\n");
        EMIT("    out = torch.empty_like(x)\n");
        for (int k = 0; k < KERNELS; k++)
            EMIT("    kernel_%d[(triton.cdiv(n, 128),)](x, y, out, n%s)\n", k,
                 k % 2 ? "" : k % 4 ? ", BLOCK=256" : ", BLOCK=128");
    }
#undef EMIT
    return s;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *what, double *v, int n, double target)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    double med = v[n / 2], p90 = v[(n * 9) / 10], max = v[n - 1];
    printf("%-32s median %7.2f ms  p90 %7.2f ms  max %7.2f ms  (target %.0f ms: %s)\n", what, med, p90, max, target,
           p90 <= target ? "met" : "MISSED");
}

/* Open one file, edit and hover it ROUNDS times, close it. */
static void run_file(Pipe *p, FileKind kind, int rounds)
{
    Hover hovers[64];
    int nhovers, edit_line = 0;
    char *text = make_file(kind, hovers, &nhovers, &edit_line);
    int lines = 0;
    for (const char *q = text; *q; q++)
        lines += *q == '\n';
    static const char *const uris[] = {"file:///bench/kernels.py", "file:///bench/tutorial.py",
                                       "file:///bench/broken.py"};
    static const char *const titles[] = {"annotated: `# mytriton:` comments",
                                         "tutorial-style: launches and autotune configs, no mytriton comments",
                                         "annotated, a type error near the end of every kernel (prefix analysis)"};
    const char *uri = uris[kind];
    printf("%s\n", titles[kind]);

    double t0 = now_ms();
    cJSON *open = message("textDocument/didOpen", 0);
    cJSON *op = cJSON_AddObjectToObject(open, "params");
    cJSON *td = cJSON_AddObjectToObject(op, "textDocument");
    cJSON_AddStringToObject(td, "uri", uri);
    cJSON_AddStringToObject(td, "languageId", "python");
    cJSON_AddNumberToObject(td, "version", 1);
    cJSON_AddStringToObject(td, "text", text);
    send_json(p, open);
    cJSON *first = await(p, 0, 1);
    double open_ms = now_ms() - t0;
    int ndiags = cJSON_GetArraySize(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(first, "params"), "diagnostics"));
    cJSON_Delete(first);
    printf("  file: %d lines, %d kernels; didOpen -> diagnostics %.2f ms (%d diagnostics)\n", lines, KERNELS, open_ms,
           ndiags);

    double *change = malloc((size_t)rounds * sizeof *change), *hover = malloc((size_t)rounds * sizeof *hover);
    for (int r = 0; r < rounds; r++) {
        /* Replace the constant at the start of "1.NN" with another digit pair. */
        cJSON *ch = message("textDocument/didChange", 0);
        cJSON *cp = cJSON_AddObjectToObject(ch, "params");
        cJSON *ctd = cJSON_AddObjectToObject(cp, "textDocument");
        cJSON_AddStringToObject(ctd, "uri", uri);
        cJSON_AddNumberToObject(ctd, "version", r + 2);
        cJSON *changes = cJSON_AddArrayToObject(cp, "contentChanges");
        cJSON *c = cJSON_CreateObject();
        char range[160], digits[8];
        snprintf(range, sizeof range,
                 "{\"start\":{\"line\":%d,\"character\":18},\"end\":{\"line\":%d,\"character\":20}}", edit_line,
                 edit_line);
        snprintf(digits, sizeof digits, "%02d", r % 100);
        cJSON_AddItemToObject(c, "range", cJSON_Parse(range));
        cJSON_AddStringToObject(c, "text", digits);
        cJSON_AddItemToArray(changes, c);
        double s = now_ms();
        send_json(p, ch);
        cJSON_Delete(await(p, 0, r + 2));
        change[r] = now_ms() - s;

        const Hover *h = &hovers[r % nhovers];
        cJSON *hv = message("textDocument/hover", 1000 + r);
        char params[256];
        snprintf(params, sizeof params,
                 "{\"textDocument\":{\"uri\":\"%s\"},\"position\":{\"line\":%d,\"character\":%d}}", uri, h->line,
                 h->character);
        cJSON_AddItemToObject(hv, "params", cJSON_Parse(params));
        s = now_ms();
        send_json(p, hv);
        cJSON *res = await(p, 1000 + r, 0);
        hover[r] = now_ms() - s;
        if (r == 0) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(res, "result"), "contents"), "value");
            printf("  first hover (line %d): %.60s...\n", h->line + 1, cJSON_IsString(v) ? v->valuestring : "(none)");
        }
        cJSON_Delete(res);
    }
    report("  didChange -> publishDiagnostics", change, rounds, 20);
    report("  hover", hover, rounds, 5);
    cJSON *close_msg = message("textDocument/didClose", 0);
    cJSON *cl = cJSON_AddObjectToObject(close_msg, "params");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(cl, "textDocument"), "uri", uri);
    send_json(p, close_msg);
    free(change);
    free(hover);
    free(text);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 && atoi(argv[1]) > 0 ? atoi(argv[1]) : 50;
    int a[2], b[2];
    if (pipe(a) || pipe(b))
        return 1;
    Pipe p = {.server_in = a[0], .to = a[1], .from = b[0], .server_out = b[1]};
    pthread_t th;
    pthread_create(&th, NULL, serve, &p);

    cJSON *init = message("initialize", 1);
    cJSON_AddItemToObject(init, "params", cJSON_Parse("{\"capabilities\":{}}"));
    send_json(&p, init);
    cJSON_Delete(await(&p, 1, 0));
    send_json(&p, message("initialized", 0));
    run_file(&p, ANNOTATED, rounds);
    run_file(&p, TUTORIAL, rounds);
    run_file(&p, BROKEN, rounds);

    send_json(&p, message("shutdown", 2));
    cJSON_Delete(await(&p, 2, 0));
    send_json(&p, message("exit", 0));
    close(p.to);
    pthread_join(th, NULL);
    return 0;
}
