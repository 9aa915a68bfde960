/* web.h: the mytriton dashboard as a library (mt_web), run by `mytriton
 * serve`, by the HTTP API tests and by the load benchmark.
 *
 * mt_web_start binds the address, starts libmicrohttpd's threads and
 * returns; requests are served on those threads until mt_web_stop. The
 * server reads and lists only the files under its roots, compiles on its
 * own threads (one MtCtx per request) and runs kernels in worker processes
 * (`mytriton worker`), so a kernel that crashes costs one request. The JSON
 * API is documented in docs/dashboard.md.
 *
 * Security: on a loopback address the server needs no token unless one is
 * given; on any other address it needs one: it makes one when asked to
 * (generate_token; mt_web_url shows it), and otherwise refuses to start. Every request's Host header must name
 * this server (DNS rebinding), a request with an Origin must come from it,
 * bodies and work have limits, and every response carries a
 * Content-Security-Policy. */
#ifndef MT_WEB_H
#define MT_WEB_H

#include <stdbool.h>
#include <stddef.h>

typedef struct MtWebOptions {
    const char *host;             /* address or name to bind; NULL: 127.0.0.1 */
    int port;                     /* 0: an ephemeral port (mt_web_port says which) */
    const char *token;            /* required on every request when set; NULL on loopback: none */
    bool generate_token;          /* no token on a non-loopback address: make one (else refuse to start) */
    const char *const *roots;     /* files and folders served; none: the current folder */
    size_t nroots;
    const char *const *allow_hosts; /* extra names accepted in the Host header */
    size_t nallow_hosts;
    const char *data_dir;         /* run history, uploads, ceilings; NULL: $XDG_DATA_HOME/mytriton/dashboard */
    const char *worker_exe;       /* the program run as `EXE worker`; NULL: this executable */
    int interp_workers;           /* concurrent interpreter runs; 0: 2 */
    double run_timeout_s;         /* per run, in its worker; 0: 120 */
    double compile_timeout_s;     /* per compile request; 0: 20 */
    size_t max_body;              /* JSON request bodies; 0: 4 MiB */
    size_t max_upload;            /* .npy uploads; 0: 512 MiB */
    const char *sass_tool;        /* nvdisasm or cuobjdump; NULL: $MYTRITON_NVDISASM, then PATH, then the CUDA toolkit */
    /* Write the runtime file editors find a running dashboard by
     * (mytriton/dashboard.h: $XDG_RUNTIME_DIR/mytriton/dashboard-PID.json)
     * while serving; mt_web_stop removes it. `mytriton serve` sets it. */
    bool runtime_file;
    /* Where the server's log lines go (one line, no newline); NULL: nowhere. */
    void (*log)(void *ud, const char *line);
    void *log_ud;
} MtWebOptions;

typedef struct MtWebServer MtWebServer;

/* Start serving. On failure returns NULL with a message in err (a bad
 * root, an address in use, a non-loopback address without a token, an
 * unusable data folder). */
MtWebServer *mt_web_start(const MtWebOptions *opt, char *err, size_t errlen);
/* The port bound (the ephemeral one when opt->port was 0). */
int mt_web_port(const MtWebServer *s);
/* The URL to open: http://HOST:PORT/, with ?token=... when one is needed. */
const char *mt_web_url(const MtWebServer *s);
/* The data folder in use. */
const char *mt_web_data_dir(const MtWebServer *s);
/* Stop accepting, end open event streams, wait for requests in progress,
 * stop the workers and free everything. */
void mt_web_stop(MtWebServer *s);

/* A new random token (32 hex digits from the system's random source) into
 * buf (at least 33 bytes); false when no randomness was available. */
bool mt_web_token_new(char *buf, size_t len);

#endif
