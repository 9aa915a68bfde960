/* reply.c: building responses. Every response carries the same security
 * headers: a Content-Security-Policy that allows only this server's own
 * scripts and connections (styles also from a per-page nonce, for the
 * editor's generated style sheets), no framing, no MIME sniffing, no
 * referrer. API responses are never cached. */
#include <microhttpd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "web_int.h"

void mt_web_secure_headers(struct MHD_Response *resp, const char *nonce)
{
    char csp[512];
    snprintf(csp, sizeof csp,
             "default-src 'none'; script-src 'self'; style-src 'self'%s%s%s; img-src 'self' data: blob:; "
             "font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
             nonce ? " 'nonce-" : "", nonce ? nonce : "", nonce ? "'" : "");
    MHD_add_response_header(resp, "Content-Security-Policy", csp);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "X-Frame-Options", "DENY");
    MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(resp, "Cross-Origin-Opener-Policy", "same-origin");
    MHD_add_response_header(resp, "Cross-Origin-Resource-Policy", "same-origin");
}

void mt_web_reply_response(WebReq *r, unsigned status, struct MHD_Response *resp, const char *type)
{
    if (!resp)
        return;
    if (r->resp)
        MHD_destroy_response(r->resp);
    if (type)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    mt_web_secure_headers(resp, r->nonce);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    r->resp = resp;
    r->status = status;
}

void mt_web_reply_bytes(WebReq *r, unsigned status, const char *type, const void *data, size_t len, bool copy)
{
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(len, (void *)data, copy ? MHD_RESPMEM_MUST_COPY : MHD_RESPMEM_PERSISTENT);
    mt_web_reply_response(r, status, resp, type);
}

void mt_web_reply_json(WebReq *r, unsigned status, cJSON *doc)
{
    char *text = doc ? cJSON_PrintUnformatted(doc) : NULL;
    cJSON_Delete(doc);
    if (!text) {
        static const char oom[] = "{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}";
        mt_web_reply_bytes(r, 500, "application/json", oom, sizeof oom - 1, false);
        return;
    }
    struct MHD_Response *resp = MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_FREE);
    if (!resp)
        free(text);
    mt_web_reply_response(r, status, resp, "application/json");
}

void mt_web_reply_error(WebReq *r, unsigned status, const char *code, const char *field, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cJSON *doc = cJSON_CreateObject();
    cJSON *e = cJSON_AddObjectToObject(doc, "error");
    cJSON_AddStringToObject(e, "code", code);
    cJSON_AddStringToObject(e, "message", msg);
    if (field)
        cJSON_AddStringToObject(e, "field", field);
    mt_web_reply_json(r, status, doc);
}

void mt_web_reply_file(WebReq *r, int fd, size_t len, const char *type, const char *name)
{
    struct MHD_Response *resp = MHD_create_response_from_fd(len, fd);
    if (!resp) {
        close(fd);
        mt_web_reply_error(r, 500, "internal", NULL, "out of memory");
        return;
    }
    char disp[400];
    snprintf(disp, sizeof disp, "attachment; filename=\"%s\"", name);
    MHD_add_response_header(resp, "Content-Disposition", disp);
    mt_web_reply_response(r, 200, resp, type);
}
