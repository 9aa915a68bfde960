/* run_result.c: what a worker's final answer means for the run.
 *
 * The worker answers {"id": N, "result": RESULT} or {"id": N, "error":
 * ERROR} (docs/dashboard.md, "Worker protocol"). RESULT is the run
 * library's result document; the history keeps all of it, and lists show
 * its status ("ok", or "mismatch" when outputs failed a comparison) and one
 * time: the median of the profiled launches when there are some, else the
 * run's own time. ERROR is a message, optionally with the spec field or
 * source range it applies to. When the worker gave no answer at all (it
 * crashed, hung, or never started) the supervisor's message is the error. */
#include <stdlib.h>
#include <string.h>

#include "runs.h"

static double number_at(const cJSON *o, const char *a, const char *b)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, a);
    if (b)
        v = cJSON_GetObjectItemCaseSensitive(v, b);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

void mt_web_run_outcome(const cJSON *final, const char *error, WebRunOutcome *o)
{
    memset(o, 0, sizeof *o);
    o->status = "error";
    o->time_ms = -1;
    if (!final) {
        o->error = strdup(error ? error : "the worker gave no answer");
        return;
    }
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(final, "error");
    if (err) {
        const char *msg = cJSON_IsString(err) ? err->valuestring
                                              : cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(err, "message"));
        o->error = strdup(msg ? msg : "the worker reported an error");
        o->result = final;
        return;
    }
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(final, "result");
    o->result = res;
    const char *status = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(res, "status"));
    o->status = status && !strcmp(status, "mismatch") ? "mismatch" : status && !strcmp(status, "error") ? "error" : "ok";
    const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(res, "error"));
    if (msg)
        o->error = strdup(msg);
    double median = number_at(res, "profile", "median_ms");
    o->time_ms = median >= 0 ? median : number_at(res, "time_ms", NULL);
}

void mt_web_run_outcome_free(WebRunOutcome *o)
{
    free(o->error);
    o->error = NULL;
}
