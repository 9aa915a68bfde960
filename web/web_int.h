/* web_int.h: what the dashboard server's files share. Not installed; the
 * public face is web.h. Non-static functions carry the mt_web_ prefix (the
 * server is linked into the same binary as the language server). */
#ifndef MT_WEB_INT_H
#define MT_WEB_INT_H

#include <cjson/cJSON.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "web.h"

struct MHD_Connection;
struct MHD_Daemon;
struct MHD_Response;

typedef struct WebHistory WebHistory;
typedef struct WebWorkers WebWorkers;
typedef struct WebJobs WebJobs;
typedef struct WebLimits WebLimits;
typedef struct MtKcache MtKcache;

/* ---- roots: the files the server may read -------------------------------- */

typedef struct WebRoot {
    char *real;               /* realpath of the root */
    bool is_dir;
} WebRoot;

typedef struct WebRoots {
    WebRoot *v;
    size_t n;
    char base[PATH_MAX];      /* the folder relative request paths start from (cwd at start) */
} WebRoots;

enum { WEB_MAX_SOURCE = 4 << 20 };  /* bytes of one kernel source file */

bool mt_web_roots_init(WebRoots *r, const char *const *paths, size_t n, char *err, size_t errlen);
void mt_web_roots_free(WebRoots *r);
/* Resolve a request's path (relative to base, or absolute) to a regular
 * file under one of the roots: real receives its realpath. false with a
 * message that never reveals anything outside the roots. */
bool mt_web_roots_resolve(const WebRoots *r, const char *path, char real[PATH_MAX], char *err, size_t errlen);
/* The path to show for a realpath under the roots: relative to base when
 * under it, else absolute. malloc'ed. */
char *mt_web_roots_display(const WebRoots *r, const char *real);
/* Every .py file under the roots that defines a jit function, with its
 * kernels: [{"path": ..., "kernels": [...]}], at most `limit` files. */
cJSON *mt_web_roots_list(const WebRoots *r, size_t limit);
/* Read a file resolved by mt_web_roots_resolve (at most WEB_MAX_SOURCE
 * bytes); malloc'ed and NUL-terminated, or NULL with a message. */
char *mt_web_read_file(const char *real, size_t max, size_t *len, char *err, size_t errlen);

/* ---- the server ----------------------------------------------------------------- */

struct MtWebServer {
    MtWebOptions opt;         /* the caller's, with defaults filled in; its strings outlive the server */
    struct MHD_Daemon *mhd;
    int listen_fd;
    int port;
    bool loopback;            /* bound to 127.0.0.0/8 or ::1 */
    char *token;              /* NULL: no token needed */
    char **hosts;             /* names accepted in the Host header (without port) */
    size_t nhosts;
    bool any_ip_host;         /* bound to a wildcard: any IP literal is accepted too */
    char url[512];
    WebRoots roots;
    char *data_dir;
    char *sass_tool;          /* resolved disassembler, or NULL */
    WebHistory *history;
    WebWorkers *workers;
    WebJobs *jobs;
    WebLimits *limits;        /* compile slots and watchdog */
    MtKcache *kcache;         /* NVRTC outputs, shared by the request threads */
    char *runtime_path;       /* the runtime file written (runtime_file.c), or NULL */
    atomic_bool stopping;
};

void mt_web_log(MtWebServer *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The runtime file editors find the dashboard by (runtime_file.c): written
 * when opt.runtime_file is set (a failure is logged, never fatal), removed. */
void mt_web_runtime_file_write(MtWebServer *s);
void mt_web_runtime_file_remove(MtWebServer *s);

/* ---- one request ----------------------------------------------------------------- */

enum { WEB_MAX_PARAMS = 3 };

typedef struct WebRoute WebRoute;

typedef struct WebReq {
    MtWebServer *s;
    struct MHD_Connection *conn;
    const WebRoute *route;
    const char *method;
    char *url;                /* the path, decoded */
    const char *nonce;        /* style nonce of the page being served, else NULL */
    char *params[WEB_MAX_PARAMS]; /* path segments matched by {…} in the route */
    /* body: JSON requests are collected in memory, uploads go to a file */
    char *body;
    size_t len, cap;
    int upload_fd;            /* -1 unless the route takes an upload */
    char *upload_path;
    bool too_big;
    /* the reply */
    struct MHD_Response *resp;
    unsigned status;
} WebReq;

typedef void (*WebHandler)(WebReq *r);

enum {
    WEB_BODY_NONE,            /* no body expected */
    WEB_BODY_JSON,            /* a JSON document, at most opt.max_body */
    WEB_BODY_UPLOAD,          /* raw bytes to a file, at most opt.max_upload */
};

struct WebRoute {
    const char *method;
    const char *pattern;      /* "/api/runs/{}/outputs/{}": {} matches one segment */
    WebHandler handler;
    int body;
};

/* The route for a method and path, with its {} segments (malloc'ed, URL
 * decoded by libmicrohttpd already) in params; NULL when none matches.
 * *path_known is set when the path exists for some other method. */
const WebRoute *mt_web_route(const char *method, const char *path, char *params[WEB_MAX_PARAMS], bool *path_known);

/* A query-string argument, or NULL. */
const char *mt_web_arg(WebReq *r, const char *name);
/* A request header, or NULL. */
const char *mt_web_header(WebReq *r, const char *name);
/* The body parsed as JSON; on failure replies 400 and returns NULL. */
cJSON *mt_web_body_json(WebReq *r);

/* ---- replies (reply.c): each sets r->resp once -------------------------------------- */

void mt_web_reply_json(WebReq *r, unsigned status, cJSON *doc);   /* takes doc */
/* {"error": {"code": CODE, "message": ..., "field": FIELD?}} */
void mt_web_reply_error(WebReq *r, unsigned status, const char *code, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void mt_web_reply_bytes(WebReq *r, unsigned status, const char *type, const void *data, size_t len, bool copy);
/* A file download: `name` is offered as the file name. Takes fd. */
void mt_web_reply_file(WebReq *r, int fd, size_t len, const char *type, const char *name);
/* Any response built by the caller (taken), with the usual headers. */
void mt_web_reply_response(WebReq *r, unsigned status, struct MHD_Response *resp, const char *type);
/* Headers every response carries (CSP, nosniff, ...). */
void mt_web_secure_headers(struct MHD_Response *resp, const char *nonce);

/* ---- the guard (guard.c) ----------------------------------------------------------- */

/* Whether the request may proceed: Host names this server, Origin (when
 * sent) is this server, and the token matches (header, cookie or ?token=).
 * On refusal replies (403/401) and returns false. */
bool mt_web_guard(WebReq *r);
/* Whether a bound address is loopback. */
bool mt_web_addr_is_loopback(const void *sockaddr);

/* ---- embedded page (assets.c) ----------------------------------------------------------- */

typedef struct WebAsset {
    const char *path;         /* "/", "/app.js", ... */
    const char *type;
    const unsigned char *data;
    size_t len;
} WebAsset;

const WebAsset *mt_web_asset(const char *path);
void mt_web_serve_asset(WebReq *r);

/* ---- utilities ------------------------------------------------------------------------ */

/* Byte offset -> UTF-16 code-unit offset (the page's editor positions), and back. */
size_t mt_web_utf16_offset(const char *text, size_t len, size_t byte_off);
size_t mt_web_byte_offset(const char *text, size_t len, size_t utf16_off);
/* {"line":..,"col":..,"end_line":..,"end_col":..,"from":..,"to":..}: a span with
 * its UTF-16 document offsets. */
cJSON *mt_web_span_json(const char *text, size_t len, uint32_t off, uint32_t end, uint32_t line, uint32_t col,
                        uint32_t end_line, uint32_t end_col);
/* Create folders along path (mode 0700). */
bool mt_web_mkdirs(const char *path, char *err, size_t errlen);
/* Write a file atomically (temporary file in the same folder, then rename). */
bool mt_web_write_file(const char *path, const void *data, size_t len, char *err, size_t errlen);
/* Lower-case hex SHA-256 of data. */
void mt_web_sha256_hex(const void *data, size_t len, char hex[65]);
double mt_web_now(void);  /* monotonic seconds */

#endif
