/* dashboard.h: how the tools find a running dashboard, as Jupyter's
 * runtime files do (compiler/api/dashboard_file.c).
 *
 * `mytriton serve` writes one small JSON file while it serves and removes
 * it when it stops cleanly:
 *
 *   $XDG_RUNTIME_DIR/mytriton/dashboard-<pid>.json    (else
 *   $XDG_CACHE_HOME/mytriton/runtime/, else ~/.cache/mytriton/runtime/)
 *
 *   {"version": 1, "url": "http://127.0.0.1:8765/", "pid": 4242,
 *    "roots": ["/home/me/kernels"]}
 *
 * `url` is the address it printed (with ?token=... when it needs one: the
 * file is the user's own, mode 0600, as Jupyter's are), `roots` the real
 * paths of the files and folders it serves. The language server's "Open
 * in dashboard" lens reads it (docs/lsp.md). A file whose process is gone
 * (a server that crashed) is stale: readers check the pid and ignore it.
 *
 * These are the file's rules in one place for both sides, the writer
 * (web/) and the reader (lsp/); the reading and writing of files, the
 * environment and the process check are theirs. */
#ifndef MYTRITON_DASHBOARD_H
#define MYTRITON_DASHBOARD_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

/* The folder of the runtime files from the environment's values (each
 * may be NULL or empty: not set): "<xdg_runtime_dir>/mytriton", else
 * "<xdg_cache_home>/mytriton/runtime", else "<home>/.cache/mytriton/runtime"
 * (relative values are ignored, as the XDG rules say). Its length, or 0
 * when none applies or it does not fit in cap. */
size_t mt_dashboard_runtime_dir(const char *xdg_runtime_dir, const char *xdg_cache_home, const char *home, char *out,
                                size_t cap);
/* "<dir>/dashboard-<pid>.json"; its length, or 0 when it does not fit. */
size_t mt_dashboard_runtime_path(const char *dir, long pid, char *out, size_t cap);
/* Whether a file name in that folder is a runtime file (dashboard-<digits>.json). */
bool mt_dashboard_runtime_name(const char *name);

/* The file's document. */
cJSON *mt_dashboard_runtime_doc(const char *url, long pid, const char *const *roots, size_t nroots);

typedef struct MtDashboardRuntime {
    const char *url;          /* points into the document */
    long pid;
    const cJSON *roots;       /* an array of strings */
} MtDashboardRuntime;

/* Read a parsed runtime file; false when it is not one (another version,
 * a field missing or of the wrong type). */
bool mt_dashboard_runtime_read(const cJSON *doc, MtDashboardRuntime *out);
/* Whether the dashboard serves `path` (a real path): it is one of the
 * roots or under one of them. */
bool mt_dashboard_serves(const MtDashboardRuntime *r, const char *path);

#endif
