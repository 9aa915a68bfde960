/* http_client.h: a small HTTP client over libcurl for the dashboard's
 * tests and load benchmark: one request, its status, headers and body. */
#ifndef MT_TEST_HTTP_CLIENT_H
#define MT_TEST_HTTP_CLIENT_H

#include <cjson/cJSON.h>
#include <stddef.h>

typedef struct HttpResp {
    long status;              /* 0: the request failed (message in body) */
    char *body;               /* NUL-terminated, malloc'ed */
    size_t len;
    char *headers;            /* the raw header block, NUL-terminated */
    double seconds;           /* total time */
} HttpResp;

/* `headers` is NULL or a NULL-terminated list of "Name: value" lines. A
 * NULL body sends none; chunked sends it without a Content-Length. */
HttpResp http_request(const char *method, const char *url, const char *body, size_t len,
                      const char *const *headers, int chunked);
void http_free(HttpResp *r);
/* The value of a response header (case-insensitive name), malloc'ed, or NULL. */
char *http_header(const HttpResp *r, const char *name);
/* GET/POST helpers returning the parsed JSON body (or NULL) and the status. */
cJSON *http_get_json(const char *url, long *status);
cJSON *http_post_json(const char *url, const char *body, long *status);
/* Read an event stream until its `done` event (or timeout_s): the text read. */
char *http_events(const char *url, double timeout_s);

#endif
