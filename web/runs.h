/* runs.h: run folders and what a worker's answer means (run_result.c). */
#ifndef MT_WEB_RUNS_H
#define MT_WEB_RUNS_H

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdint.h>

#include "web_int.h"

/* DATA/runs/ID */
void mt_web_run_dir(const MtWebServer *s, int64_t id, char out[PATH_MAX]);

/* A run's end, for the history and the page. */
typedef struct WebRunOutcome {
    const char *status;       /* "ok", "mismatch" or "error" */
    char *error;              /* malloc'ed message, or NULL */
    double time_ms;           /* the time to show in lists, < 0: none */
    const cJSON *result;      /* the worker's result document (inside `final`), or NULL */
} WebRunOutcome;

/* Read a worker's final line (or the supervisor's error when there is
 * none) into an outcome. */
void mt_web_run_outcome(const cJSON *final, const char *error, WebRunOutcome *o);
void mt_web_run_outcome_free(WebRunOutcome *o);

#endif
