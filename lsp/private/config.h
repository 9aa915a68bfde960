/* config.h: where a kernel's specialisation comes from in the editor.
 *
 * Two sources beside the file itself (which the compiler's discovery
 * reads: the `# mytriton:` comment, launches, autotune configs,
 * heuristics, defaults): the project file `mytriton.json` found in the
 * document's folder or the nearest parent, and the editor's settings (the
 * "mytriton" section of the client's configuration). docs/lsp.md gives
 * the format and the order of precedence. */
#ifndef MT_LSP_CONFIG_H
#define MT_LSP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "mytriton/mytriton.h"

/* How the parameter types inferred from their use (I0902) are shown. */
typedef enum InferredTypes { INFERRED_HINT, INFERRED_DIAGNOSTIC, INFERRED_OFF } InferredTypes;

/* What a hover adds of the MLIR its line became (the setting hoverMlir):
 * nothing, the mlir stage, or the mlir stage and the mlir-llvm stage. */
typedef enum HoverMlir { HOVER_MLIR_OFF, HOVER_MLIR_ON, HOVER_MLIR_LLVM } HoverMlir;

/* The last answer of a dashboard address, kept a few seconds so that code
 * lens requests, which ask on every edit, wait on at most one short
 * connect (config.c). */
enum { DASHBOARD_CHECKS = 8 };
typedef struct DashboardCheck {
    char *url;
    double at;                /* CLOCK_MONOTONIC seconds */
    bool up;
} DashboardCheck;

typedef struct Settings {
    cJSON *constexprs;        /* object NAME -> value, lowest precedence; NULL if none */
    int last_stage;           /* MT_STAGE_SSA, MT_STAGE_LAYOUT or MT_STAGE_CUDA */
    bool inlay_hints;
    bool code_lens;
    InferredTypes inferred_types;
    HoverMlir hover_mlir;     /* compiled on the first hover that wants it, not on each edit (mlir.c) */
    char *rules_url;          /* base of the rule pages, ending in '/'; NULL: the server's default */
    char *dashboard_url;      /* the dashboard's address, for the "Open in dashboard" lens; NULL: a running
                               * `mytriton serve` of the document's folder, found by its runtime file */
    DashboardCheck checks[DASHBOARD_CHECKS]; /* not settings: what the addresses answered lately */
} Settings;

void mt_lsp_settings_init(Settings *s);
/* Apply the "mytriton" section of the client's settings (or an object
 * that holds it under "mytriton"). Unknown keys are ignored; a value of
 * the wrong type keeps the previous setting. */
void mt_lsp_settings_apply(Settings *s, const cJSON *section);
void mt_lsp_settings_free(Settings *s);

/* The running dashboard to open document `path` in, as the page's address
 * the lens appends "#file=..." to (malloc'ed), or NULL when none runs: the
 * configured dashboardUrl when it accepts a connection; without one, a
 * `mytriton serve` whose runtime file (mytriton/dashboard.h) names a live
 * process, a root that holds the document, and an address that accepts a
 * connection. */
char *mt_lsp_dashboard_for(Settings *s, const char *path);

/* The parsed project file of one folder tree, cached by path and mtime. */
typedef struct Project {
    char *path;               /* the mytriton.json in use, or NULL */
    cJSON *root;              /* NULL when absent or invalid */
    char *error;              /* why the file was rejected or partly ignored, or NULL */
    struct timespec mtime;
    long long size;
} Project;

/* Find and load the project file for a document path (cached in *p:
 * reloaded only when the file found or its mtime changes). */
const Project *mt_lsp_project_for(Project *p, const char *doc_path);
void mt_lsp_project_free(Project *p);

/* What the editor gives mt_discover for one kernel (docs/lsp.md has the
 * order). Strings point into the settings, the project file and the
 * struct: the discovery copies what it keeps. */
enum { DISCOVER_MAX_GIVEN = 64 };
typedef struct DiscoverInput {
    MtDiscoverOptions opt;
    MtGiven given[DISCOVER_MAX_GIVEN];
    char values[DISCOVER_MAX_GIVEN][128]; /* formatted numbers, quoted strings */
} DiscoverInput;

void mt_lsp_discover_input(DiscoverInput *in, const MtKernelInfo *k, const Project *p, const Settings *s,
                           uint32_t config);

#endif
