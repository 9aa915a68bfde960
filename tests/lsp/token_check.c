/* token_check.c: the every-token check (clangd --check style).
 *
 *   usage: lsp_token_check SERVER FILE.py...
 *
 * Opens each file in one server session and, at the start of every token
 * (and one past the end of each line), asks for a hover, the inlay hints
 * of the line and the code actions of the token. Fails on any error
 * response, a result of the wrong shape, a missing response, or a server
 * that stops; prints the request counts and the slowest request. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "client.h"

static long long now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    if (b)
        b[n] = 0;
    fclose(f);
    return b;
}

typedef struct Stats {
    long requests, failures;
    long long slowest_us;
    char slowest[256];
} Stats;

/* Send a request and wait for its response; true when it is a result of
 * the expected shape. */
static bool call(Client *c, Stats *st, int id, const char *method, cJSON *params, int shape, const char *what)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "jsonrpc", "2.0");
    cJSON_AddNumberToObject(m, "id", id);
    cJSON_AddStringToObject(m, "method", method);
    cJSON_AddItemToObject(m, "params", params);
    char *t = cJSON_PrintUnformatted(m);
    cJSON_Delete(m);
    long long t0 = now_us();
    bool ok = client_send(c, t);
    cJSON_free(t);
    st->requests++;
    while (ok) {
        bool to;
        cJSON *r = client_recv(c, 20000, &to);
        if (!r) {
            fprintf(stderr, "FAIL %s %s: %s\n", what, method, to ? "no response in 20 s" : "the server exited");
            st->failures++;
            return false;
        }
        const cJSON *rid = cJSON_GetObjectItemCaseSensitive(r, "id");
        if (!cJSON_IsNumber(rid) || rid->valueint != id || cJSON_GetObjectItemCaseSensitive(r, "method")) {
            cJSON_Delete(r);
            continue; /* a notification (diagnostics) */
        }
        long long dt = now_us() - t0;
        if (dt > st->slowest_us) {
            st->slowest_us = dt;
            snprintf(st->slowest, sizeof st->slowest, "%s at %s", method, what);
        }
        const cJSON *res = cJSON_GetObjectItemCaseSensitive(r, "result");
        bool good = res && !cJSON_GetObjectItemCaseSensitive(r, "error") &&
                    (shape == cJSON_Array ? cJSON_IsArray(res) : cJSON_IsNull(res) || cJSON_IsObject(res));
        if (!good) {
            char *rt = cJSON_PrintUnformatted(r);
            fprintf(stderr, "FAIL %s %s: %.400s\n", what, method, rt);
            cJSON_free(rt);
            st->failures++;
        }
        cJSON_Delete(r);
        return good;
    }
    fprintf(stderr, "FAIL %s %s: cannot send (the server stopped reading)\n", what, method);
    st->failures++;
    return false;
}

static cJSON *pos(int line, int ch)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "line", line);
    cJSON_AddNumberToObject(p, "character", ch);
    return p;
}

static cJSON *doc_params(const char *uri)
{
    cJSON *p = cJSON_CreateObject();
    cJSON *td = cJSON_AddObjectToObject(p, "textDocument");
    cJSON_AddStringToObject(td, "uri", uri);
    return p;
}

static cJSON *range(int l0, int c0, int l1, int c1)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddItemToObject(r, "start", pos(l0, c0));
    cJSON_AddItemToObject(r, "end", pos(l1, c1));
    return r;
}

static int kind(char ch)
{
    if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n')
        return 0;
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
        (unsigned char)ch >= 0x80)
        return 1;
    return 2 + ch; /* each punctuation character is its own token */
}

static bool check_file(Client *c, Stats *st, const char *path, int *id)
{
    char *text = read_file(path);
    if (!text) {
        fprintf(stderr, "FAIL cannot read %s\n", path);
        return false;
    }
    char abs[4096], uri[4200];
    if (!realpath(path, abs))
        snprintf(abs, sizeof abs, "%s", path);
    snprintf(uri, sizeof uri, "file://%s", abs);
    cJSON *open = cJSON_CreateObject();
    cJSON_AddStringToObject(open, "jsonrpc", "2.0");
    cJSON_AddStringToObject(open, "method", "textDocument/didOpen");
    cJSON *p = cJSON_AddObjectToObject(open, "params");
    cJSON *td = cJSON_AddObjectToObject(p, "textDocument");
    cJSON_AddStringToObject(td, "uri", uri);
    cJSON_AddStringToObject(td, "languageId", "python");
    cJSON_AddNumberToObject(td, "version", 1);
    cJSON_AddStringToObject(td, "text", text);
    char *t = cJSON_PrintUnformatted(open);
    cJSON_Delete(open);
    client_send(c, t);
    cJSON_free(t);

    long before = st->failures;
    int line = 0, col = 0; /* col in UTF-16 units; the examples are ASCII but count properly anyway */
    for (const char *q = text;; q++) {
        bool start = *q && kind(*q) && (q == text || kind(q[-1]) != kind(*q) || kind(*q) > 1);
        bool eol = !*q || *q == '\n';
        if (start || eol) {
            char what[4400];
            snprintf(what, sizeof what, "%s:%d:%d", path, line + 1, col + 1);
            cJSON *hp = doc_params(uri);
            cJSON_AddItemToObject(hp, "position", pos(line, col));
            call(c, st, ++*id, "textDocument/hover", hp, cJSON_Object, what);
            cJSON *ip = doc_params(uri);
            cJSON_AddItemToObject(ip, "range", range(line, 0, line + 1, 0));
            call(c, st, ++*id, "textDocument/inlayHint", ip, cJSON_Array, what);
            cJSON *ap = doc_params(uri);
            cJSON_AddItemToObject(ap, "range", range(line, col, line, col + 1));
            cJSON *ctx = cJSON_AddObjectToObject(ap, "context");
            cJSON_AddArrayToObject(ctx, "diagnostics");
            call(c, st, ++*id, "textDocument/codeAction", ap, cJSON_Array, what);
        }
        if (!*q || !client_alive(c))
            break;
        if (*q == '\n') {
            line++;
            col = 0;
        } else if (((unsigned char)*q & 0xc0) != 0x80) {
            col += ((unsigned char)*q & 0xf8) == 0xf0 ? 2 : 1;
        }
    }
    cJSON *close = cJSON_CreateObject();
    cJSON_AddStringToObject(close, "jsonrpc", "2.0");
    cJSON_AddStringToObject(close, "method", "textDocument/didClose");
    cJSON_AddItemToObject(close, "params", doc_params(uri));
    t = cJSON_PrintUnformatted(close);
    cJSON_Delete(close);
    client_send(c, t);
    cJSON_free(t);
    free(text);
    return st->failures == before;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: lsp_token_check SERVER FILE.py...\n");
        return 2;
    }
    Client c;
    if (!client_start(&c, argv[1], NULL)) {
        fprintf(stderr, "cannot start %s\n", argv[1]);
        return 1;
    }
    Stats st = {0};
    int id = 0;
    call(&c, &st, ++id, "initialize", cJSON_Parse("{\"capabilities\":{}}"), cJSON_Object, "initialize");
    client_send(&c, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
    int bad = 0;
    for (int i = 2; i < argc; i++)
        bad += !check_file(&c, &st, argv[i], &id);
    call(&c, &st, ++id, "shutdown", NULL, cJSON_Object, "shutdown");
    client_send(&c, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    int status = client_finish(&c, 20000);
    if (status != 0) {
        fprintf(stderr, "FAIL the server exited with %d after shutdown + exit\n", status);
        st.failures++;
    }
    printf("%ld requests over %d files, slowest %.2f ms (%s)\n", st.requests, argc - 2, st.slowest_us / 1000.0,
           st.slowest);
    printf("%d passed, %d failed\n", argc - 2 - bad, bad);
    return st.failures ? 1 : 0;
}
