/* check_report.h: what `mytriton check` collects, and the small files that
 * collect, filter and print it.
 *
 * The pipeline of cmd_check.c is
 *
 *   check_scan.c      paths -> the .py files to check (sorted, relative URIs)
 *   check_run.c       each file -> its kernels -> one compilation per kernel
 *                     specialisation -> findings (diagnostics copied out of
 *                     the compiler's arena) and per-kernel results
 *   check_report.c    the report's storage, fingerprints, counts, escaping
 *   check_baseline.c  --write-baseline / --baseline (fingerprint sets)
 *   check_text.c check_json.c check_sarif.c check_junit.c check_github.c
 *                     one output format each
 *
 * Everything in a CkReport is heap-owned by the report (ck_report_free), so
 * a compilation context can be reset between kernels. Out of memory
 * anywhere in the collection longjmps back to cmd_check (ck_oom), which
 * reports it and returns: the library's "one protected call" rule, applied
 * to the command. */
#ifndef MT_CLI_CHECK_REPORT_H
#define MT_CLI_CHECK_REPORT_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fileio.h"
#include "mytriton/mytriton.h"

/* The tool's version as SARIF and JSON report it; `mytriton --version`
 * prints the same number (tests/check compares the two). */
#define CK_TOOL_VERSION MT_VERSION
/* The partialFingerprints key (and the baseline's format tag). */
#define CK_FINGERPRINT_KEY "mytriton/v1"

/* A source range. Lines are 1-based; line 0 means "no position". Columns
 * are 1-based with an exclusive end, counted twice: in bytes (the
 * compiler's MtSpan, used by text and json) and in Unicode code points
 * (SARIF's unicodeCodePoints column kind and GitHub's annotations). */
typedef struct CkLoc {
    uint32_t line, col, end_line, end_col;
    uint32_t ucol, uend_col;
} CkLoc;

typedef struct CkNote {
    CkLoc loc;
    char *msg;
} CkNote;

typedef struct CkFinding {
    MtSeverity sev;          /* error, warning or info (notes ride along in `notes`) */
    char *code;              /* rule code; NULL for an internal compiler error */
    char *msg;
    size_t file;             /* index into CkReport.files */
    long result;             /* index into CkReport.results */
    CkLoc loc;
    char *rendered;          /* compiler-style text with the caret line and the notes */
    char *fingerprint;       /* 32 lower-case hex digits, see ck_fingerprint_all */
    char *line_text;         /* the flagged line, whitespace-normalised ("" without a line) */
    CkNote *notes;
    uint32_t nnotes;
    bool suppressed;         /* its fingerprint is in the --baseline */
} CkFinding;

typedef enum CkStatus { CK_PASSED, CK_FAILED, CK_SKIPPED } CkStatus;

/* One compiled kernel specialisation, or (kernel == NULL) a file that did
 * not parse, so every error has a test case in JUnit. */
typedef struct CkResult {
    size_t file;
    char *kernel;
    char *signature;         /* the resolved specialisation; NULL when unknown */
    uint32_t line;           /* line of the kernel's name */
    CkStatus status;
} CkResult;

typedef struct CkFile {
    char *path;              /* as found from the command line: what text output shows */
    char *rel;               /* relative to the root, '/'-separated; absolute when outside it */
    bool in_root;
} CkFile;

typedef struct CkReport {
    CkFile *files;
    size_t nfiles, capfiles;
    CkResult *results;
    size_t nresults, capresults;
    CkFinding *findings;
    size_t nfindings, capfindings;
    char *root;              /* absolute, no trailing slash */
    size_t nsuppressed;
    jmp_buf *oom;            /* where ck_oom jumps */
} CkReport;

typedef struct CkCounts {
    size_t files, kernels, checked, skipped, errors, warnings, infos, suppressed;
} CkCounts;

/* Options that shape collection and output. */
typedef struct CkOptions {
    const MtDefine *defines;
    size_t ndefines;
    int sm;                  /* NVRTC / layout target, e.g. 90 */
    bool nvrtc;
    bool fail_on_skipped;    /* a kernel that cannot be specialised fails the run */
    int codegen;             /* MtCodegen: --codegen mlir checks the MLIR backend too */
    bool color;              /* text format only */
    const char *docs_url;    /* where docs/ is published, ending with '/'; NULL: unknown (no links) */
} CkOptions;

/* ---- check_report.c ---- */
_Noreturn void ck_oom(CkReport *r);
void *ck_alloc(CkReport *r, size_t n);
char *ck_strdup(CkReport *r, const char *s);
char *ck_strndup(CkReport *r, const char *s, size_t n);
/* Grow *v (elements of size `size`) so that it holds at least `need`. */
void ck_reserve(CkReport *r, void **v, size_t *cap, size_t need, size_t size);
/* A copy of s with invalid UTF-8 replaced by U+FFFD, so every format can
 * carry compiler messages that quote arbitrary source bytes. */
char *ck_utf8_clean(CkReport *r, const char *s, size_t n);
void ck_report_free(CkReport *r);
size_t ck_add_file(CkReport *r, const char *path, const char *rel, bool in_root);
/* Give each finding its fingerprint (after all findings are in). */
void ck_fingerprint_all(CkReport *r);
CkCounts ck_counts(const CkReport *r);
/* A result's status once the baseline has spoken: a kernel whose every
 * error is suppressed passes. */
CkStatus ck_status(const CkReport *r, size_t result);
/* "3 files, 12 kernels checked, 2 skipped: 1 error, 0 warnings" and, with
 * a baseline, " (4 suppressed by the baseline)". Heap string. */
char *ck_summary_line(CkReport *r);
/* Findings in output order, without suppressed ones: a heap array of
 * indexes (errors first when errors_first). Returns the count. */
size_t ck_visible(CkReport *r, bool errors_first, size_t **out);
/* "name[signature]" / "name[?]" / "(parse)": a result's test-case name. */
char *ck_result_name(CkReport *r, const CkResult *res);
/* Write bytes with a memstream-backed buffer; true on success. */
typedef struct CkOut {
    FILE *f;
    char *buf;
    size_t len;
} CkOut;
bool ck_out_open(CkOut *o);
/* Close the stream; the text stays in o->buf (free it). */
bool ck_out_close(CkOut *o);

/* ---- check_scan.c ---- */
/* Add every file the paths name (folders recursively: *.py, skipping
 * hidden folders, __pycache__, node_modules and build*), sorted by
 * relative path and without duplicates. root: NULL = the enclosing git
 * work tree's top, else the current folder. False after printing why. */
bool ck_scan(CkReport *r, char **paths, int npaths, const char *root);

/* ---- check_run.c ---- */
/* Parse and compile every file of the report; false when a file could not
 * be read (after printing why). */
bool ck_run(CkReport *r, const CkOptions *o);

/* ---- check_baseline.c ---- */
/* Record the findings in `path`, which must not be one of `inputs`. */
bool ck_baseline_write(CkReport *r, const char *path, const MtFileSet *inputs);
/* Mark the findings whose fingerprints the baseline holds. */
bool ck_baseline_apply(CkReport *r, const char *path);

/* ---- the formats: each writes the whole report to `out` ---- */
void ck_format_text(CkReport *r, const CkOptions *o, FILE *out);
void ck_format_json(CkReport *r, const CkOptions *o, FILE *out);
void ck_format_sarif(CkReport *r, const CkOptions *o, FILE *out);
void ck_format_junit(CkReport *r, const CkOptions *o, FILE *out);
/* Workflow commands to `out`; the Markdown job summary to `summary`. */
void ck_format_github(CkReport *r, const CkOptions *o, FILE *out, FILE *summary);

#endif
