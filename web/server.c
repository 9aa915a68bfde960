/* server.c: the dashboard's HTTP server on libmicrohttpd.
 *
 * The listening socket is bound here (getaddrinfo, so a name, an IPv4 or
 * an IPv6 address works, and port 0 gives an ephemeral port) and handed to
 * libmicrohttpd, which runs one thread per connection: a compile runs on
 * its connection's thread with a context of its own, and an event stream
 * may block its thread waiting for news without holding up anything else.
 * The number of connections is bounded.
 *
 * A request goes through on_request in three steps, as libmicrohttpd
 * calls it: first with the headers only (the guard checks Host, Origin and
 * the token, the route is looked up, a declared body over the limit is
 * refused before it is read), then once per piece of body (kept in memory
 * for JSON, written to a file for uploads, counted and dropped past the
 * limit), then once more when the body is complete, when the handler runs
 * and its reply is queued. on_completed frees the request. */
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "history.h"
#include "jobs.h"
#include "kcache.h"
#include "compile_limits.h"
#include "stages.h"
#include "web_int.h"
#include "workers.h"

void mt_web_log(MtWebServer *s, const char *fmt, ...)
{
    if (!s->opt.log)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    s->opt.log(s->opt.log_ud, line);
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    MtWebServer *s = cls;
    if (!s->opt.log)
        return;
    char line[1024];
    vsnprintf(line, sizeof line, fmt, ap);
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = 0;
    s->opt.log(s->opt.log_ud, line);
}

const char *mt_web_arg(WebReq *r, const char *name)
{
    return MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, name);
}

const char *mt_web_header(WebReq *r, const char *name)
{
    return MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, name);
}

cJSON *mt_web_body_json(WebReq *r)
{
    if (!r->body || !r->len) {
        mt_web_reply_error(r, 400, "bad_json", NULL, "the request needs a JSON body");
        return NULL;
    }
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(r->body, r->len, &end, false);
    while (doc && end && end < r->body + r->len && strchr(" \t\r\n", *end))
        end++;
    if (doc && end && end < r->body + r->len) {
        cJSON_Delete(doc);       /* something after the document */
        doc = NULL;
    }
    if (!doc) {
        size_t at = end && end >= r->body ? (size_t)(end - r->body) : 0;
        uint32_t line = 1, col = 1;
        for (size_t i = 0; i < at && i < r->len; i++, col++)
            if (r->body[i] == '\n')
                line++, col = 0;
        mt_web_reply_error(r, 400, "bad_json", NULL, "invalid JSON at line %u, column %u of the request body", line,
                           col);
        return NULL;
    }
    if (!cJSON_IsObject(doc)) {
        cJSON_Delete(doc);
        mt_web_reply_error(r, 400, "bad_json", NULL, "the request body must be a JSON object");
        return NULL;
    }
    return doc;
}

/* ---- requests ------------------------------------------------------------------------ */

static void req_free(WebReq *r)
{
    for (int i = 0; i < WEB_MAX_PARAMS; i++)
        free(r->params[i]);
    free(r->body);
    free(r->url);
    if (r->upload_fd >= 0)
        close(r->upload_fd);
    if (r->upload_path) {
        unlink(r->upload_path);
        free(r->upload_path);
    }
    if (r->resp)
        MHD_destroy_response(r->resp);
    free(r);
}

static enum MHD_Result queue(WebReq *r)
{
    if (!r->resp)
        mt_web_reply_error(r, 500, "internal", NULL, "the handler gave no reply");
    if (!r->resp)
        return MHD_NO;
    enum MHD_Result ok = MHD_queue_response(r->conn, r->status, r->resp);
    MHD_destroy_response(r->resp);
    r->resp = NULL;
    return ok;
}

static const char *content_length_text(WebReq *r) { return mt_web_header(r, MHD_HTTP_HEADER_CONTENT_LENGTH); }

static size_t body_limit(const WebReq *r)
{
    return r->route && r->route->body == WEB_BODY_UPLOAD ? r->s->opt.max_upload : r->s->opt.max_body;
}

/* First call: headers only. A reply set here ends the request. */
static void begin(WebReq *r, const char *url, const char *method)
{
    if (!mt_web_guard(r))
        return;
    bool known = false;
    r->route = mt_web_route(method, url, r->params, &known);
    if (!r->route) {
        if (known)
            mt_web_reply_error(r, 405, "method_not_allowed", NULL, "%s is not allowed on %s", method, url);
        else if (!strncmp(url, "/api/", 5))
            mt_web_reply_error(r, 404, "not_found", NULL, "no such endpoint: %s %s", method, url);
        return;         /* not an API path: the page's assets, found or not, below */
    }
    const char *cl = content_length_text(r);
    if (cl) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(cl, &end, 10);
        if (errno || *end || n > body_limit(r)) {
            mt_web_reply_error(r, 413, "too_large", NULL, "the request body is larger than the limit of %zu bytes",
                               body_limit(r));
            return;
        }
        if (n && r->route->body == WEB_BODY_NONE) {
            mt_web_reply_error(r, 400, "unexpected_body", NULL, "%s %s takes no request body", method, url);
            return;
        }
    }
    if (r->route->body == WEB_BODY_UPLOAD) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/uploads/.incoming-XXXXXX", r->s->data_dir);
        char err[256];
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s/uploads", r->s->data_dir);
        if (!mt_web_mkdirs(dir, err, sizeof err) || (r->upload_fd = mkstemp(path)) < 0) {
            mt_web_reply_error(r, 500, "storage", NULL, "cannot store the upload in %s: %s", dir, strerror(errno));
            return;
        }
        r->upload_path = strdup(path);
    }
}

static void take_body(WebReq *r, const char *data, size_t n)
{
    if (r->too_big || r->len + n > body_limit(r)) {
        r->too_big = true;
        return;
    }
    if (r->upload_fd >= 0) {
        for (size_t done = 0; done < n;) {
            ssize_t w = write(r->upload_fd, data + done, n - done);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                r->too_big = true;  /* the disk refused: reported as a storage error below */
                close(r->upload_fd);
                r->upload_fd = -2;
                return;
            }
            done += (size_t)w;
        }
        r->len += n;
        return;
    }
    if (r->len + n + 1 > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + n + 1)
            cap *= 2;
        char *nb = realloc(r->body, cap);
        if (!nb) {
            r->too_big = true;
            return;
        }
        r->body = nb;
        r->cap = cap;
    }
    memcpy(r->body + r->len, data, n);
    r->len += n;
    r->body[r->len] = 0;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    MtWebServer *s = cls;
    WebReq *r = *con_cls;
    (void)version;
    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r)
            return MHD_NO;
        r->s = s;
        r->conn = conn;
        r->method = method;
        r->upload_fd = -1;
        *con_cls = r;
        if (!(r->url = strdup(url)))
            return MHD_NO;
        begin(r, url, method);
        return r->resp ? queue(r) : MHD_YES;
    }
    if (*upload_data_size) {
        take_body(r, upload_data, *upload_data_size);
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (r->too_big) {
        if (r->upload_fd == -2)
            mt_web_reply_error(r, 507, "storage", NULL, "the upload could not be written to the data folder");
        else
            mt_web_reply_error(r, 413, "too_large", NULL, "the request body is larger than the limit of %zu bytes",
                               body_limit(r));
    } else if (r->route) {
        r->route->handler(r);
    } else {
        mt_web_serve_asset(r);
    }
    return queue(r);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode toe)
{
    (void)cls, (void)conn, (void)toe;
    if (*con_cls)
        req_free(*con_cls);
    *con_cls = NULL;
}

/* ---- binding ----------------------------------------------------------------------------- */

static int bind_listen(MtWebServer *s, const char *host, int port, char *err, size_t errlen)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
    struct addrinfo *res = NULL;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    int rc = getaddrinfo(host, service, &hints, &res);
    if (rc) {
        snprintf(err, errlen, "cannot resolve --host %s: %s", host, gai_strerror(rc));
        return -1;
    }
    int fd = -1, last_errno = 0;
    for (struct addrinfo *a = res; a; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            last_errno = errno;
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && listen(fd, 128) == 0) {
            s->loopback = mt_web_addr_is_loopback(a->ai_addr);
            break;
        }
        last_errno = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        snprintf(err, errlen, "cannot listen on %s port %d: %s%s", host, port, strerror(last_errno),
                 last_errno == EADDRINUSE ? " (choose another with --port, or --port 0 for any free one)" : "");
        return -1;
    }
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
        s->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                                 : ((struct sockaddr_in *)&ss)->sin_port);
    if (ss.ss_family == AF_INET6)
        s->any_ip_host = !memcmp(&((struct sockaddr_in6 *)&ss)->sin6_addr, &in6addr_any, sizeof in6addr_any);
    else
        s->any_ip_host = ((struct sockaddr_in *)&ss)->sin_addr.s_addr == htonl(INADDR_ANY);
    return fd;
}

static bool add_host(MtWebServer *s, const char *name)
{
    char **nh = realloc(s->hosts, (s->nhosts + 1) * sizeof *nh);
    if (!nh)
        return false;
    s->hosts = nh;
    if (!(s->hosts[s->nhosts] = strdup(name)))
        return false;
    s->nhosts++;
    return true;
}

/* Names the Host header may carry: the loopback names, the bound host, the
 * machine's name when bound to a wildcard, and --allow-host names. */
static bool collect_hosts(MtWebServer *s, const char *host)
{
    static const char *const local[] = {"localhost", "127.0.0.1", "[::1]"};
    for (size_t i = 0; i < sizeof local / sizeof *local; i++)
        if (!add_host(s, local[i]))
            return false;
    if (strchr(host, ':') && host[0] != '[') {
        char v6[300];
        snprintf(v6, sizeof v6, "[%s]", host);
        if (!add_host(s, v6))
            return false;
    } else if (!add_host(s, host)) {
        return false;
    }
    char name[256];
    if (s->any_ip_host && gethostname(name, sizeof name) == 0) {
        name[sizeof name - 1] = 0;
        if (!add_host(s, name))
            return false;
    }
    for (size_t i = 0; i < s->opt.nallow_hosts; i++)
        if (!add_host(s, s->opt.allow_hosts[i]))
            return false;
    return true;
}

static char *default_data_dir(void)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    char path[PATH_MAX];
    if (xdg && *xdg == '/')
        snprintf(path, sizeof path, "%s/mytriton/dashboard", xdg);
    else if (home && *home)
        snprintf(path, sizeof path, "%s/.local/share/mytriton/dashboard", home);
    else
        snprintf(path, sizeof path, ".mytriton-dashboard");
    return strdup(path);
}

static void defaults(MtWebOptions *o)
{
    if (!o->host)
        o->host = "127.0.0.1";
    if (o->interp_workers <= 0)
        o->interp_workers = 2;
    if (o->run_timeout_s <= 0)
        o->run_timeout_s = 120;
    if (o->compile_timeout_s <= 0)
        o->compile_timeout_s = 20;
    if (!o->max_body)
        o->max_body = 4 << 20;
    if (!o->max_upload)
        o->max_upload = (size_t)512 << 20;
}

static void make_url(MtWebServer *s)
{
    char name[256] = "127.0.0.1", shown[300];
    const char *host = s->opt.host;
    if (s->any_ip_host && !s->loopback && gethostname(name, sizeof name) == 0)
        name[sizeof name - 1] = 0;
    if (s->any_ip_host)
        host = name;
    if (strchr(host, ':') && host[0] != '[')
        snprintf(shown, sizeof shown, "[%s]", host);
    else
        snprintf(shown, sizeof shown, "%s", host);
    snprintf(s->url, sizeof s->url, "http://%s:%d/%s%s", shown, s->port, s->token ? "?token=" : "",
             s->token ? s->token : "");
}

MtWebServer *mt_web_start(const MtWebOptions *opt, char *err, size_t errlen)
{
    MtWebServer *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->opt = *opt;
    defaults(&s->opt);
    s->listen_fd = -1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (!(s->limits = mt_web_limits_new(cpus > 2 ? (int)cpus * 2 : 4, s->opt.compile_timeout_s)) ||
        !(s->kcache = mt_kcache_open(NULL))) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    static const char *const here[] = {"."};
    if (!mt_web_roots_init(&s->roots, opt->nroots ? opt->roots : here, opt->nroots ? opt->nroots : 1, err, errlen))
        goto fail;
    s->data_dir = opt->data_dir ? strdup(opt->data_dir) : default_data_dir();
    if (!s->data_dir || !mt_web_mkdirs(s->data_dir, err, errlen))
        goto fail;
    if ((s->listen_fd = bind_listen(s, s->opt.host, opt->port, err, errlen)) < 0)
        goto fail;
    if (opt->token && *opt->token) {
        s->token = strdup(opt->token);
    } else if (!s->loopback) {
        char made[40];
        if (!s->opt.generate_token) {
            snprintf(err, errlen, "%s is not a loopback address: the dashboard needs a token there (--token T)",
                     s->opt.host);
            goto fail;
        }
        if (!mt_web_token_new(made, sizeof made) || !(s->token = strdup(made))) {
            snprintf(err, errlen, "cannot make a token (no randomness); give one with --token");
            goto fail;
        }
    }
    if (!collect_hosts(s, s->opt.host)) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    make_url(s);
    s->sass_tool = mt_web_find_sass_tool(opt->sass_tool);
    if (!(s->history = mt_web_history_open(s->data_dir, err, errlen)))
        goto fail;
    if (!(s->jobs = mt_web_jobs_new()))
        goto fail;
    if (!(s->workers = mt_web_workers_new(s, err, errlen)))
        goto fail;
    s->mhd = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL, 0, NULL, NULL, on_request,
        s, MHD_OPTION_LISTEN_SOCKET, s->listen_fd, MHD_OPTION_NOTIFY_COMPLETED, on_completed, s,
        MHD_OPTION_EXTERNAL_LOGGER, mhd_log, s, MHD_OPTION_CONNECTION_LIMIT, (unsigned)512,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)120, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 << 10),
        MHD_OPTION_END);
    if (!s->mhd) {
        snprintf(err, errlen, "libmicrohttpd could not start on port %d", s->port);
        goto fail;
    }
    s->listen_fd = -1;    /* libmicrohttpd closes it when it stops */
    mt_web_log(s, "serving %zu root%s on %s", s->roots.n, s->roots.n == 1 ? "" : "s", s->url);
    mt_web_runtime_file_write(s);
    return s;
fail:
    mt_web_stop(s);
    return NULL;
}

int mt_web_port(const MtWebServer *s) { return s->port; }
const char *mt_web_url(const MtWebServer *s) { return s->url; }
const char *mt_web_data_dir(const MtWebServer *s) { return s->data_dir; }

void mt_web_stop(MtWebServer *s)
{
    if (!s)
        return;
    atomic_store(&s->stopping, true);
    mt_web_runtime_file_remove(s);
    if (s->jobs)
        mt_web_jobs_shutdown(s->jobs);    /* wakes event streams so their threads end */
    if (s->mhd)
        MHD_stop_daemon(s->mhd);
    if (s->listen_fd >= 0)
        close(s->listen_fd);
    mt_web_workers_free(s->workers);
    mt_web_jobs_free(s->jobs);
    mt_web_history_close(s->history);
    mt_web_roots_free(&s->roots);
    for (size_t i = 0; i < s->nhosts; i++)
        free(s->hosts[i]);
    free(s->hosts);
    free(s->token);
    free(s->data_dir);
    free(s->sass_tool);
    mt_web_limits_free(s->limits);
    if (s->kcache)
        mt_kcache_close(s->kcache);
    free(s);
}
