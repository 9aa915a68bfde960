/* config.h: where a kernel's specialisation comes from in the editor.
 *
 * Three sources beside the source file itself (the `# mytriton:`
 * directive above a kernel and Python default values, which the compiler
 * reads): the project file `mytriton.json` found in the document's folder
 * or the nearest parent, and the editor's settings (the "mytriton"
 * section of the client's configuration). docs/lsp.md gives the format
 * and the order of precedence. */
#ifndef MT_LSP_CONFIG_H
#define MT_LSP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "mytriton/mytriton.h"

typedef struct Settings {
    cJSON *constexprs;        /* object NAME -> value, lowest precedence; NULL if none */
    int last_stage;           /* MT_STAGE_SSA, MT_STAGE_LAYOUT or MT_STAGE_CUDA */
    bool inlay_hints;
    bool code_lens;
    char *rules_url;          /* base of the rule pages, ending in '/'; NULL: the server's default */
} Settings;

void mt_lsp_settings_init(Settings *s);
/* Apply the "mytriton" section of the client's settings (or an object
 * that holds it under "mytriton"). Unknown keys are ignored; a value of
 * the wrong type keeps the previous setting. */
void mt_lsp_settings_apply(Settings *s, const cJSON *section);
void mt_lsp_settings_free(Settings *s);

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

/* The specification for one kernel. Strings point into the settings, the
 * project file and the struct itself: keep all three alive while
 * compiling. */
enum { SPEC_MAX_DEFINES = 64 };
typedef struct KernelSpec {
    MtSpec spec;
    MtDefine defines[SPEC_MAX_DEFINES];
    char values[SPEC_MAX_DEFINES][40]; /* formatted numbers */
} KernelSpec;

void mt_lsp_kernel_spec(KernelSpec *ks, const MtKernelInfo *k, const Project *p, const Settings *s);

#endif
