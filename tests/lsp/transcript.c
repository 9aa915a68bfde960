/* transcript.c: runs JSON-RPC transcripts against `mytriton lsp`
 * (clangd-lit style, but interactive: each expectation waits for the
 * server, so asynchronous diagnostics are tested without sleeps).
 *
 *   usage: lsp_transcript SERVER ROOT FILE.rpc...
 *
 * A transcript is a list of directives, one per line; a line starting
 * with white space continues the previous one; `#` lines are comments:
 *   send: JSON              frame and send a message
 *   send-bytes: "..."       frame and send a body given as a C string
 *                           (\r \n \t \\ \" \xHH), e.g. invalid UTF-8
 *   send-raw: "..."         send bytes as they are (broken framing)
 *   expect: JSON            a message matching JSON (see json_match: a
 *                           subset; "*" any value; "~text" a substring)
 *                           arrives; messages that do not match wait in
 *                           a pool for later expectations
 *   expect-not: JSON        no message received so far, nor within
 *                           300 ms, matches
 *   exit: N                 close the server's input; it exits with N
 *   server-args: ARG...     (first line only) arguments after `lsp`
 * Placeholders: %ROOT% (the source tree), %TEXT(path)% (a file of the
 * tree as a JSON string), %KERNELS(n)% (a generated file of about n lines
 * of kernels, as a JSON string). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"

typedef struct Line {
    int no;
    char *text;
} Line;

static int timeout_ms(void)
{
    const char *t = getenv("MT_LSP_TIMEOUT_MS");
    return t && atoi(t) > 0 ? atoi(t) : 20000;
}

static char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *b = malloc(cap);
    size_t r;
    while (b && (r = fread(b + len, 1, cap - len - 1, f)) > 0) {
        len += r;
        if (cap - len < 2048)
            b = realloc(b, cap *= 2);
    }
    fclose(f);
    if (b)
        b[len] = 0;
    if (n)
        *n = len;
    return b;
}

typedef struct Str {
    char *s;
    size_t n, cap;
} Str;

static void put(Str *s, const char *p, size_t n)
{
    if (s->n + n + 1 > s->cap) {
        while (s->n + n + 1 > s->cap)
            s->cap = s->cap ? s->cap * 2 : 1024;
        s->s = realloc(s->s, s->cap);
    }
    memcpy(s->s + s->n, p, n);
    s->n += n;
    s->s[s->n] = 0;
}

static void puts_(Str *s, const char *p) { put(s, p, strlen(p)); }

/* A generated file of kernels, n lines or a few more. */
static char *generated(int n)
{
    Str s = {0};
    puts_(&s, "import triton\nimport triton.language as tl\n\n");
    char buf[1024];
    for (int i = 0, lines = 3; lines < n; i++, lines += 9) {
        snprintf(buf, sizeof buf,
                 "\n# mytriton: BLOCK=%d\n@triton.jit\ndef kernel_%d(x, y, n, BLOCK: tl.constexpr):\n"
                 "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    mask = offs < n\n"
                 "    v = tl.load(x + offs, mask=mask, other=0.0)\n    tl.store(y + offs, v * %d.0, mask=mask)\n\n",
                 64 << (i % 4), i, i % 7 + 1);
        puts_(&s, buf);
    }
    return s.s;
}

/* Expand the placeholders of one directive's text. */
static char *expand(const char *root, const char *t)
{
    Str s = {0};
    puts_(&s, "");
    while (*t) {
        if (!strncmp(t, "%ROOT%", 6)) {
            puts_(&s, root);
            t += 6;
        } else if (!strncmp(t, "%TEXT(", 6) || !strncmp(t, "%KERNELS(", 9)) {
            bool text = t[1] == 'T';
            const char *a = t + (text ? 6 : 9);
            const char *e = strstr(a, ")%");
            if (!e) {
                put(&s, t++, 1);
                continue;
            }
            char *content;
            if (text) {
                char path[4096];
                snprintf(path, sizeof path, "%s/%.*s", root, (int)(e - a), a);
                content = read_file(path, NULL);
                if (!content) {
                    fprintf(stderr, "cannot read %s\n", path);
                    content = strdup("");
                }
            } else {
                content = generated(atoi(a));
            }
            cJSON *js = cJSON_CreateString(content);
            char *q = cJSON_PrintUnformatted(js);
            puts_(&s, q);
            cJSON_free(q);
            cJSON_Delete(js);
            free(content);
            t = e + 2;
        } else {
            put(&s, t++, 1);
        }
    }
    return s.s;
}

/* A C-style quoted string -> bytes. */
static char *unquote(const char *t, size_t *n)
{
    while (isspace((unsigned char)*t))
        t++;
    if (*t != '"')
        return NULL;
    t++;
    Str s = {0};
    puts_(&s, "");
    for (; *t && *t != '"'; t++) {
        char ch = *t;
        if (ch == '\\' && t[1]) {
            t++;
            switch (*t) {
            case 'r': ch = '\r'; break;
            case 'n': ch = '\n'; break;
            case 't': ch = '\t'; break;
            case 'x': {
                char hex[3] = {t[1], t[2], 0};
                ch = (char)strtol(hex, NULL, 16);
                t += 2;
                break;
            }
            default: ch = *t; break;
            }
        }
        put(&s, &ch, 1);
    }
    *n = s.n;
    return s.s;
}

typedef struct Pool {
    cJSON *v[4096];
    int n;
} Pool;

static void dump_pool(const Pool *p)
{
    for (int i = 0; i < p->n; i++) {
        char *t = cJSON_PrintUnformatted(p->v[i]);
        fprintf(stderr, "    received: %.600s%s\n", t, strlen(t) > 600 ? "..." : "");
        cJSON_free(t);
    }
}

static int find_in_pool(Pool *p, const cJSON *want)
{
    char where[512];
    for (int i = 0; i < p->n; i++)
        if (json_match(want, p->v[i], where, sizeof where))
            return i;
    return -1;
}

static void drop(Pool *p, int i)
{
    cJSON_Delete(p->v[i]);
    memmove(p->v + i, p->v + i + 1, (size_t)(p->n - i - 1) * sizeof *p->v);
    p->n--;
}

static bool pull(Client *c, Pool *p, int ms)
{
    bool to;
    cJSON *m = client_recv(c, ms, &to);
    if (!m)
        return false;
    if (p->n == 4096)
        drop(p, 0);
    p->v[p->n++] = m;
    return true;
}

static bool run_file(const char *server, const char *root, const char *path)
{
    size_t size;
    char *src = read_file(path, &size);
    if (!src) {
        fprintf(stderr, "%s: cannot read\n", path);
        return false;
    }
    /* Join continuation lines into directives. */
    Line *lines = calloc(size + 2, sizeof *lines);
    int nl = 0, no = 0;
    for (char *p = src; *p;) {
        char *e = strchr(p, '\n');
        if (e)
            *e = 0;
        no++;
        if ((*p == ' ' || *p == '\t') && nl && p[strspn(p, " \t")]) {
            Str s = {0};
            puts_(&s, lines[nl - 1].text);
            puts_(&s, " ");
            puts_(&s, p + strspn(p, " \t"));
            free(lines[nl - 1].text);
            lines[nl - 1].text = s.s;
        } else if (*p && *p != '#') {
            lines[nl].no = no;
            lines[nl++].text = strdup(p);
        }
        if (!e)
            break;
        p = e + 1;
    }

    /* `server-args: ARG...` (the first directive, if any): arguments after
     * `lsp`, split at spaces, placeholders expanded. */
    char *args[16] = {0}, *argtext = NULL;
    if (nl && !strncmp(lines[0].text, "server-args:", 12)) {
        argtext = expand(root, lines[0].text + 12);
        int k = 0;
        for (char *tok = strtok(argtext, " "); tok && k < 15; tok = strtok(NULL, " "))
            args[k++] = tok;
        free(lines[0].text);
        memmove(lines, lines + 1, (size_t)--nl * sizeof *lines);
    }
    Client c;
    bool started = client_start(&c, server, args);
    free(argtext);
    if (!started) {
        fprintf(stderr, "%s: cannot start %s\n", path, server);
        return false;
    }
    Pool pool = {0};
    bool ok = true, exited = false;
    int tmo = timeout_ms();
    for (int i = 0; i < nl && ok; i++) {
        char *d = expand(root, lines[i].text);
        char *colon = strchr(d, ':');
        if (!colon) {
            fprintf(stderr, "%s:%d: not a directive: %s\n", path, lines[i].no, d);
            ok = false;
            free(d);
            break;
        }
        *colon = 0;
        const char *arg = colon + 1;
        if (!strcmp(d, "send") || !strcmp(d, "send-bytes") || !strcmp(d, "send-raw")) {
            bool sent;
            if (!strcmp(d, "send")) {
                cJSON *j = cJSON_Parse(arg);
                if (!j) {
                    fprintf(stderr, "%s:%d: the message to send is not JSON\n", path, lines[i].no);
                    ok = false;
                    free(d);
                    break;
                }
                char *t = cJSON_PrintUnformatted(j);
                sent = client_send(&c, t);
                cJSON_free(t);
                cJSON_Delete(j);
            } else {
                size_t n;
                char *bytes = unquote(arg, &n);
                if (!bytes) {
                    fprintf(stderr, "%s:%d: expected a quoted string\n", path, lines[i].no);
                    ok = false;
                    free(d);
                    break;
                }
                if (!strcmp(d, "send-raw")) {
                    sent = client_send_raw(&c, bytes, n);
                } else {
                    char head[64];
                    int hn = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", n);
                    sent = client_send_raw(&c, head, (size_t)hn) && client_send_raw(&c, bytes, n);
                }
                free(bytes);
            }
            if (!sent) {
                fprintf(stderr, "%s:%d: the server stopped reading (crashed?)\n", path, lines[i].no);
                ok = false;
            }
        } else if (!strcmp(d, "expect") || !strcmp(d, "expect-not")) {
            cJSON *want = cJSON_Parse(arg);
            if (!want) {
                fprintf(stderr, "%s:%d: the expectation is not JSON\n", path, lines[i].no);
                ok = false;
                free(d);
                break;
            }
            if (!strcmp(d, "expect")) {
                int at;
                while ((at = find_in_pool(&pool, want)) < 0 && pull(&c, &pool, tmo))
                    ;
                if (at < 0) {
                    fprintf(stderr, "%s:%d: no message matched\n    expected: %s\n", path, lines[i].no, arg);
                    char where[512] = "";
                    if (pool.n)
                        json_match(want, pool.v[pool.n - 1], where, sizeof where);
                    if (where[0])
                        fprintf(stderr, "    last message differs at %s\n", where);
                    dump_pool(&pool);
                    if (!client_alive(&c))
                        fprintf(stderr, "    the server is no longer running\n");
                    ok = false;
                } else {
                    drop(&pool, at);
                }
            } else {
                while (pull(&c, &pool, 300))
                    ;
                if (find_in_pool(&pool, want) >= 0) {
                    fprintf(stderr, "%s:%d: an unexpected message arrived\n    pattern: %s\n", path, lines[i].no,
                            arg);
                    dump_pool(&pool);
                    ok = false;
                }
            }
            cJSON_Delete(want);
        } else if (!strcmp(d, "exit")) {
            int want = atoi(arg);
            int got = client_finish(&c, tmo);
            exited = true;
            if (got != want) {
                fprintf(stderr, "%s:%d: the server exited with %d, expected %d\n", path, lines[i].no, got, want);
                ok = false;
            }
        } else {
            fprintf(stderr, "%s:%d: unknown directive '%s'\n", path, lines[i].no, d);
            ok = false;
        }
        free(d);
    }
    if (!exited)
        client_finish(&c, 2000);
    for (int i = 0; i < pool.n; i++)
        cJSON_Delete(pool.v[i]);
    for (int i = 0; i < nl; i++)
        free(lines[i].text);
    free(lines);
    free(src);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: lsp_transcript SERVER ROOT FILE.rpc...\n");
        return 2;
    }
    int failed = 0, passed = 0;
    for (int i = 3; i < argc; i++) {
        const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
        if (run_file(argv[1], argv[2], argv[i])) {
            printf("PASS %s\n", name);
            passed++;
        } else {
            printf("FAIL %s\n", name);
            failed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
