/* jsonrpc.c: the LSP base protocol on file descriptors.
 *
 * Input is buffered; a message is a header block (Content-Length is the
 * only header that matters; Content-Type is accepted and ignored) and a
 * body. Framing errors never end the session: a header block without a
 * usable Content-Length is dropped, an oversized body is skipped, and
 * garbage before a header is discarded up to the next header, each
 * reported once as RPC_BAD_FRAME so the server can answer with a parse
 * error. Output is framed in one write sequence per message. */
#include "jsonrpc.h"

#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "documents.h"

enum { HEADER_MAX = 16384 };

void mt_lsp_rpc_init(Rpc *r, int in, int out)
{
    memset(r, 0, sizeof *r);
    r->in = in;
    r->out = out;
}

void mt_lsp_rpc_free(Rpc *r)
{
    free(r->buf);
    r->buf = NULL;
    r->len = r->cap = 0;
}

/* Read what is available into the buffer (one read call). */
static bool fill(Rpc *r)
{
    if (r->eof)
        return false;
    if (r->cap - r->len < 65536) {
        size_t cap = r->cap ? r->cap * 2 : 131072;
        char *b = realloc(r->buf, cap);
        if (!b)
            return false;
        r->buf = b;
        r->cap = cap;
    }
    ssize_t n;
    do
        n = read(r->in, r->buf + r->len, r->cap - r->len - 1);
    while (n < 0 && errno == EINTR);
    if (n <= 0) {
        r->eof = true;
        return false;
    }
    r->len += (size_t)n;
    return true;
}

static void consume(Rpc *r, size_t n)
{
    memmove(r->buf, r->buf + n, r->len - n);
    r->len -= n;
}

/* Drop bytes of a skipped body that are already buffered. */
static void skip_buffered(Rpc *r)
{
    size_t n = r->skip < r->len ? r->skip : r->len;
    consume(r, n);
    r->skip -= n;
}

static const char *find_header_end(const char *s, size_t n, size_t *term)
{
    for (size_t i = 0; i + 1 < n; i++) {
        if (s[i] == '\n' && s[i + 1] == '\n') {
            *term = 2;
            return s + i;
        }
        if (i + 3 < n && !memcmp(s + i, "\r\n\r\n", 4)) {
            *term = 4;
            return s + i;
        }
    }
    return NULL;
}

/* Content-Length of a header block; -1 if missing or malformed. */
static long long content_length(const char *h, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t e = i;
        while (e < n && h[e] != '\n')
            e++;
        if (e - i > 15 && !strncasecmp(h + i, "Content-Length:", 15)) {
            const char *p = h + i + 15;
            while (p < h + e && (*p == ' ' || *p == '\t'))
                p++;
            if (p == h + e || !isdigit((unsigned char)*p))
                return -1;
            long long v = 0;
            while (p < h + e && isdigit((unsigned char)*p) && v < (1LL << 40))
                v = v * 10 + (*p++ - '0');
            while (p < h + e && (*p == ' ' || *p == '\t' || *p == '\r'))
                p++;
            return p == h + e ? v : -1;
        }
        i = e + 1;
    }
    return -1;
}

/* Position of the next "Content-Length" after the start, or 0. */
static size_t next_header(const Rpc *r)
{
    for (size_t i = 1; i + 14 <= r->len; i++)
        if (!strncasecmp(r->buf + i, "Content-Length", 14))
            return i;
    return 0;
}

RpcRead mt_lsp_rpc_read(Rpc *r, char **body)
{
    *body = NULL;
    for (;;) {
        if (r->skip) {
            skip_buffered(r);
            if (r->skip) {
                if (!fill(r))
                    return RPC_EOF;
                continue;
            }
        }
        size_t term;
        const char *he = r->len ? find_header_end(r->buf, r->len, &term) : NULL;
        if (!he) {
            if (r->len > HEADER_MAX) {
                /* Garbage: keep only what may start the next header. */
                size_t next = next_header(r);
                consume(r, next ? next : r->len - 16);
                return RPC_BAD_FRAME;
            }
            if (!fill(r))
                return RPC_EOF;
            continue;
        }
        size_t hlen = (size_t)(he - r->buf);
        long long n = content_length(r->buf, hlen);
        if (n < 0) {
            /* Not a header block: drop it, or the garbage before a real header. */
            size_t next = next_header(r);
            consume(r, next && next < hlen + term ? next : hlen + term);
            return RPC_BAD_FRAME;
        }
        size_t start = hlen + term;
        if (n > RPC_MAX_MESSAGE) {
            consume(r, start);
            r->skip = (size_t)n;
            skip_buffered(r);
            return RPC_BAD_FRAME;
        }
        while (r->len < start + (size_t)n)
            if (!fill(r))
                return RPC_EOF;
        char *b = malloc((size_t)n + 1);
        if (!b)
            return RPC_EOF;
        memcpy(b, r->buf + start, (size_t)n);
        b[n] = 0;
        consume(r, start + (size_t)n);
        *body = b;
        return RPC_MESSAGE;
    }
}

bool mt_lsp_rpc_ready(Rpc *r)
{
    size_t term;
    if (r->len && find_header_end(r->buf, r->len, &term))
        return true;
    if (r->eof)
        return r->len > 0;
    struct pollfd p = {.fd = r->in, .events = POLLIN};
    return poll(&p, 1, 0) > 0;
}

/* Replace every byte that does not start a valid UTF-8 sequence by U+FFFD. */
static char *repair_utf8(const char *s, size_t *len)
{
    size_t n = strlen(s), o = 0;
    char *out = malloc(3 * n + 1);
    if (!out)
        return NULL;
    for (size_t i = 0; i < n;) {
        const unsigned char *p = (const unsigned char *)s + i;
        unsigned units;
        size_t k = mt_lsp_utf8_char(p, n - i, &units);
        if (*p < 0x80 || k > 1) {
            memcpy(out + o, p, k);
            o += k;
        } else {
            memcpy(out + o, "\xef\xbf\xbd", 3);
            o += 3;
        }
        i += k;
    }
    out[o] = 0;
    *len = o;
    return out;
}

static bool write_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        s += w;
        n -= (size_t)w;
    }
    return true;
}

bool mt_lsp_rpc_send(Rpc *r, cJSON *msg)
{
    char *text = cJSON_PrintUnformatted(msg);
    cJSON_Delete(msg);
    if (!text)
        return false;
    size_t len;
    char *clean = repair_utf8(text, &len);
    cJSON_free(text);
    if (!clean)
        return false;
    char head[64];
    int hn = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", len);
    bool ok = write_all(r->out, head, (size_t)hn) && write_all(r->out, clean, len);
    free(clean);
    return ok;
}

cJSON *mt_lsp_rpc_result(const cJSON *id, cJSON *result)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "jsonrpc", "2.0");
    cJSON_AddItemToObject(m, "id", id ? cJSON_Duplicate(id, true) : cJSON_CreateNull());
    cJSON_AddItemToObject(m, "result", result ? result : cJSON_CreateNull());
    return m;
}

cJSON *mt_lsp_rpc_error(const cJSON *id, int code, const char *message)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "jsonrpc", "2.0");
    cJSON_AddItemToObject(m, "id", id ? cJSON_Duplicate(id, true) : cJSON_CreateNull());
    cJSON *e = cJSON_AddObjectToObject(m, "error");
    cJSON_AddNumberToObject(e, "code", code);
    cJSON_AddStringToObject(e, "message", message);
    return m;
}

cJSON *mt_lsp_rpc_notification(const char *method, cJSON *params)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "jsonrpc", "2.0");
    cJSON_AddStringToObject(m, "method", method);
    if (params)
        cJSON_AddItemToObject(m, "params", params);
    return m;
}
