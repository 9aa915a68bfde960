/* assets.c: the page, served from the arrays embedded at build time
 * (web/tools/embed.c over static/dist/).
 *
 * index.html carries `{{nonce}}` where the page needs this response's
 * style nonce (the editor creates its style sheets at run time, and the
 * Content-Security-Policy admits them by that nonce only). A visit with
 * ?token=T (the URL `mytriton serve` prints) is answered with a redirect
 * to the same page without it, setting the token as an HttpOnly,
 * SameSite=Strict cookie, so the token leaves the address bar and the
 * page's own requests carry it. */
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "web_int.h"

extern const WebAsset mt_web_assets[];

const WebAsset *mt_web_asset(const char *path)
{
    if (!strcmp(path, "/index.html"))
        path = "/";
    for (const WebAsset *a = mt_web_assets; a->path; a++)
        if (!strcmp(a->path, path))
            return a;
    return NULL;
}

bool mt_web_token_new(char *buf, size_t len)
{
    unsigned char raw[16];
    if (len < 2 * sizeof raw + 1 || getrandom(raw, sizeof raw, 0) != (ssize_t)sizeof raw)
        return false;
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(buf + 2 * i, 3, "%02x", raw[i]);
    return true;
}

/* index.html with every {{nonce}} replaced. */
static char *with_nonce(const WebAsset *a, const char *nonce, size_t *len)
{
    static const char mark[] = "{{nonce}}";
    size_t count = 0;
    for (const char *p = (const char *)a->data; (p = strstr(p, mark)); p += sizeof mark - 1)
        count++;
    size_t n = a->len + count * strlen(nonce);
    char *out = malloc(n + 1), *o = out;
    if (!out)
        return NULL;
    const char *p = (const char *)a->data;
    for (const char *q; (q = strstr(p, mark)); p = q + sizeof mark - 1) {
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        o += sprintf(o, "%s", nonce);
    }
    o += sprintf(o, "%s", p);
    *len = (size_t)(o - out);
    return out;
}

void mt_web_serve_asset(WebReq *r)
{
    if (strcmp(r->method, "GET") && strcmp(r->method, "HEAD")) {
        mt_web_reply_error(r, 405, "method_not_allowed", NULL, "only GET is allowed here");
        return;
    }
    const char *path = r->url;
    const WebAsset *a = mt_web_asset(path);
    if (!a) {
        mt_web_reply_error(r, 404, "not_found", NULL, "no such page: %s", path);
        return;
    }
    if (r->s->token && mt_web_arg(r, "token") && !strcmp(a->path, "/")) {
        mt_web_reply_bytes(r, 303, "text/plain", "", 0, false);
        char cookie[200];
        snprintf(cookie, sizeof cookie, "mytriton_token=%s; Path=/; HttpOnly; SameSite=Strict", r->s->token);
        MHD_add_response_header(r->resp, MHD_HTTP_HEADER_SET_COOKIE, cookie);
        MHD_add_response_header(r->resp, MHD_HTTP_HEADER_LOCATION, "/");
        return;
    }
    if (strcmp(a->path, "/")) {
        mt_web_reply_bytes(r, 200, a->type, a->data, a->len, false);
        return;
    }
    char nonce[40];
    size_t len;
    char *page = mt_web_token_new(nonce, sizeof nonce) ? with_nonce(a, nonce, &len) : NULL;
    if (!page) {
        mt_web_reply_error(r, 500, "internal", NULL, "cannot make the page (no randomness or memory)");
        return;
    }
    r->nonce = nonce;         /* the page's policy admits its nonce for styles */
    mt_web_reply_bytes(r, 200, a->type, page, len, true);
    r->nonce = NULL;
    free(page);
}
