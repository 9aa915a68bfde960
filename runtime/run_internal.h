/* run_internal.h: what the files of the run library share (run.c runs,
 * run_diag.c records diagnostics, run_json.c writes the JSON form). Not
 * part of run.h's interface. */
#ifndef MT_RUNTIME_RUN_INTERNAL_H
#define MT_RUNTIME_RUN_INTERNAL_H

#include "run.h"

/* Where a diagnostic applies. Every field may be zero. */
typedef struct RunWhere {
    const char *file;         /* the file it is about */
    const char *text;         /* that file's text, to point into (the launch spec's) */
    const char *field;        /* a spec field path: located in `text` when it can be */
    int line, col;            /* a position in `text` instead of a field (a JSON syntax error) */
} RunWhere;

/* The rule codes the run library raises (docs/rules/). */
#define RUN_BAD_SPEC "R0704"   /* a launch spec field, or a file it names, is wrong */
#define RUN_FILE "R0705"       /* a file cannot be read or written */
#define RUN_NO_GPU "R0706"     /* no CUDA driver or device */
#define RUN_CUDA "R0707"       /* a CUDA call failed while running the kernel */
#define RUN_I32 "W0804"        /* the grid reaches past i32 offsets */
#define RUN_CACHE "W0805"      /* the kernel cache cannot be written */

/* Record a diagnostic (rendered like the compiler's: when `where` has a
 * text, the line and a caret under the field) and raise the outcome to
 * at least `o` (errors; warnings pass MT_RUN_OK). */
__attribute__((format(printf, 6, 7)))
void run_diag(MtRunResult *r, MtRunOutcome o, MtSeverity sev, const char *code, RunWhere where, const char *fmt,
              ...);
/* Record the compiler's diagnostics of c from index `from` on (source
 * errors, runtime faults, NVRTC failures, warnings; not the editors'
 * infos) and raise the outcome to MT_RUN_FAILED when one is an error. */
void run_diags_from_ctx(MtRunResult *r, MtCtx *c, size_t from);
/* Raise the outcome: the worst one wins (trouble > failed > mismatch > ok). */
void run_raise(MtRunResult *r, MtRunOutcome o);

#endif
