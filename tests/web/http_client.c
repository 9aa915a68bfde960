/* http_client.c: see http_client.h. */
#include "http_client.h"

#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct Buf {
    char *s;
    size_t n;
    int stop_at_done;         /* event streams: stop once "event: done" has been read */
} Buf;

static size_t take(char *data, size_t size, size_t n, void *ud)
{
    Buf *b = ud;
    size_t k = size * n;
    char *ns = realloc(b->s, b->n + k + 1);
    if (!ns)
        return 0;
    b->s = ns;
    memcpy(b->s + b->n, data, k);
    b->n += k;
    b->s[b->n] = 0;
    if (b->stop_at_done) {
        char *done = strstr(b->s, "event: done\n");
        if (done && strstr(done, "\n\n"))
            return 0;  /* ends the transfer (CURLE_WRITE_ERROR): the stream is complete */
    }
    return k;
}

typedef struct Body {
    const char *p;
    size_t left;
} Body;

static size_t give(char *out, size_t size, size_t n, void *ud)
{
    Body *b = ud;
    size_t k = size * n < b->left ? size * n : b->left;
    memcpy(out, b->p, k);
    b->p += k;
    b->left -= k;
    return k;
}

HttpResp http_request(const char *method, const char *url, const char *body, size_t len,
                      const char *const *headers, int chunked)
{
    HttpResp r = {0};
    Buf out = {0}, hdr = {0};
    CURL *c = curl_easy_init();
    struct curl_slist *list = NULL;
    for (size_t i = 0; headers && headers[i]; i++)
        list = curl_slist_append(list, headers[i]);
    if (body && !headers)
        list = curl_slist_append(list, "Content-Type: application/json");
    list = curl_slist_append(list, "Expect:");
    Body b = {body, len};
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, take);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &out);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, take);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &hdr);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, 120L);
    curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
    if (body) {
        curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(c, CURLOPT_READFUNCTION, give);
        curl_easy_setopt(c, CURLOPT_READDATA, &b);
        if (!chunked)
            curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)len);
        else
            list = curl_slist_append(list, "Transfer-Encoding: chunked");
        curl_easy_setopt(c, CURLOPT_HTTPHEADER, list);
    }
    CURLcode rc = curl_easy_perform(c);
    if (rc == CURLE_OK) {
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r.status);
    } else {
        free(out.s);
        out.s = strdup(curl_easy_strerror(rc));
        out.n = strlen(out.s);
    }
    curl_easy_getinfo(c, CURLINFO_TOTAL_TIME, &r.seconds);
    curl_slist_free_all(list);
    curl_easy_cleanup(c);
    r.body = out.s ? out.s : strdup("");
    r.len = out.n;
    r.headers = hdr.s ? hdr.s : strdup("");
    return r;
}

void http_free(HttpResp *r)
{
    free(r->body);
    free(r->headers);
    memset(r, 0, sizeof *r);
}

char *http_header(const HttpResp *r, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = r->headers; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len > n && p[n] == ':' && !strncasecmp(p, name, n)) {
            const char *v = p + n + 1;
            while (*v == ' ')
                v++;
            size_t vl = (size_t)(p + len - v);
            while (vl && (v[vl - 1] == '\r' || v[vl - 1] == ' '))
                vl--;
            return strndup(v, vl);
        }
        p += len + (nl ? 1 : 0);
    }
    return NULL;
}

cJSON *http_get_json(const char *url, long *status)
{
    HttpResp r = http_request("GET", url, NULL, 0, NULL, 0);
    *status = r.status;
    cJSON *doc = cJSON_Parse(r.body);
    http_free(&r);
    return doc;
}

cJSON *http_post_json(const char *url, const char *body, long *status)
{
    HttpResp r = http_request("POST", url, body, strlen(body), NULL, 0);
    *status = r.status;
    cJSON *doc = cJSON_Parse(r.body);
    http_free(&r);
    return doc;
}

char *http_events(const char *url, double timeout_s)
{
    Buf out = {0, 0, 1};
    CURL *c = curl_easy_init();
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, take);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &out);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)(timeout_s * 1000));
    curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
    curl_easy_perform(c);
    curl_easy_cleanup(c);
    return out.s ? out.s : strdup("");
}
