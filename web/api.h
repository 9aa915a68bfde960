/* api.h: the JSON API's handlers, one per endpoint of routes.c, and the
 * request pieces several of them read. docs/dashboard.md describes each. */
#ifndef MT_WEB_API_H
#define MT_WEB_API_H

#include "mytriton/mytriton.h"
#include "web_int.h"

void mt_web_api_info(WebReq *r);             /* api_info.c */
void mt_web_api_files(WebReq *r);            /* api_files.c */
void mt_web_api_file(WebReq *r);
void mt_web_api_compile(WebReq *r);          /* api_compile.c */
void mt_web_api_actions(WebReq *r);
void mt_web_api_upload(WebReq *r);           /* api_runs.c */
void mt_web_api_run_start(WebReq *r);
void mt_web_api_runs(WebReq *r);
void mt_web_api_run_get(WebReq *r);
void mt_web_api_run_delete(WebReq *r);
void mt_web_api_run_output(WebReq *r);
void mt_web_api_run_repro(WebReq *r);        /* repro.c */
void mt_web_api_events(WebReq *r);           /* events.c */
void mt_web_api_ceilings(WebReq *r);         /* ceilings.c */
void mt_web_api_ceilings_measure(WebReq *r);

/* What names a kernel specialisation in a request (request.c):
 * {"source" | "path", "kernel", "signature", "defines", "config", "sm", "lowering", "num_warps", "num_stages"}. */
typedef struct WebKernelReq {
    char *source;             /* the text to compile (the body's, or the file's) */
    size_t len;
    char *path;               /* label for diagnostics: the file's shown path, or "untitled.py" */
    char *real;               /* the realpath of "path" when it names a file under the roots, else NULL:
                               * where the discovery looks for the project file and the package */
    char *kernel;             /* NULL: the file's only kernel */
    char *signature;          /* NULL: discovered (discover.c), the defines ranking above the file */
    MtDefine *defines;
    size_t ndefines;
    uint32_t config;          /* which @triton.autotune config the discovery takes (0: the first) */
    int sm;                   /* CUDA architecture for PTX/cubin; 90 */
    int lowering;             /* MtLowering: "lowering": "seed" | "fast" */
    int num_warps;            /* fast lowering: warps per program; 0: chosen */
    int num_stages;           /* fast lowering: MtSpec.num_stages (1: no pipelining); 0: the default */
} WebKernelReq;

/* Read the fields above from body; on a bad field replies 400 (naming the
 * field) and returns false. A "path" without "source" reads the file
 * (under the roots only). */
bool mt_web_kernel_req(WebReq *r, const cJSON *body, WebKernelReq *out);
void mt_web_kernel_req_free(WebKernelReq *q);

/* Parse q->source into c: *m gets the module (partial after syntax
 * errors, NULL when none could be made) and *clean whether it parsed
 * without errors. A clean file that lacks q->kernel is answered with a 404
 * listing its jit functions; then (and when out of memory) it returns
 * false, having replied. */
bool mt_web_parse_kernel(WebReq *r, MtCtx *c, const WebKernelReq *q, MtModule **m, bool *clean);

/* ---- the specialisation discovery (discover.c) ---- */

enum { WEB_MAX_CONFIGS = 64 };  /* autotune configs listed for the page */

typedef struct WebConfig {
    const char *text;         /* "BLOCK_SIZE_M=128, ..." (arena-owned), NULL when unreadable */
    MtSpan span;              /* its triton.Config(...) */
} WebConfig;

typedef struct WebDiscovery {
    const MtDiscovery *dsc;   /* NULL: no kernel to discover (none named and several, or a file that did not parse) */
    bool applied;             /* the compile takes its spec: the request gave no "signature" */
    WebConfig *configs;       /* every autotune config (at most WEB_MAX_CONFIGS) when there are several; malloc'ed */
    uint32_t nconfigs;
    char *project;            /* the project file used (its shown path), or NULL */
    char *project_error;      /* why it was ignored, or NULL */
} WebDiscovery;

/* Discover the specialisation of q's kernel in m (parsed into c from
 * q->source), with q's defines above the file, the project file and the
 * package beside q->real. Never replies; d->dsc stays NULL when there is
 * nothing to discover. Free with mt_web_discovery_free. */
void mt_web_discover(MtWebServer *s, MtCtx *c, const MtModule *m, const WebKernelReq *q, WebDiscovery *d);
/* The spec to compile (stage, sm, lowering left for the caller): the
 * discovery's, or q's signature and defines when it gives a signature. */
MtSpec mt_web_discovered_spec(const WebKernelReq *q, const WebDiscovery *d);
/* {"kernel", "applied", "signature", "params": [...], "missing", "launches",
 * "launch", "configs", "nconfigs", "config", "project"} (docs/dashboard.md),
 * or NULL without a discovery. */
cJSON *mt_web_discovery_json(MtCtx *c, const MtModule *m, const WebDiscovery *d, const char *src, size_t len);
/* A run's signature: `derived` (from its launch spec) with every empty
 * tl.constexpr entry filled with the discovered value (not defaults: the
 * compiler applies those). malloc'ed. */
char *mt_web_discovered_signature(const MtKernelInfo *ki, const WebDiscovery *d, const char *derived);
void mt_web_discovery_free(WebDiscovery *d);

/* Compile slots: at most a few compiles run at once (the rest wait), each
 * cancelled past opt.compile_timeout_s. */
void mt_web_compile_begin(MtWebServer *s, MtCtx *c);
void mt_web_compile_end(MtWebServer *s, MtCtx *c);

#endif
