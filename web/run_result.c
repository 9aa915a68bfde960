/* run_result.c: what a worker's final answer means for the run.
 *
 * The worker (`mytriton worker`, docs/runtime.md) answers
 * {"id": N, "ok": true, "result": RESULT} or
 * {"id": N, "ok": false, "error": {"code", "message"}}. RESULT is the run
 * library's result document (mt_run_result_json); the history keeps all of
 * it. Its "outcome" gives the run's status: "ok", "mismatch" (an output
 * failed its comparison), or "error" for "failed" and "trouble" (the spec
 * or the launch was wrong: the first error diagnostic is the message).
 * Lists show one time: the median of the profiled launches when there are
 * some, else the run's own time (times_ms.run). When the worker gave no
 * answer at all (it crashed, hung, or never started) the supervisor's
 * message is the error. */
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

/* The first error diagnostic of a result, rendered (with its place) when
 * the run library rendered it. */
static const char *first_error(const cJSON *res)
{
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(res, "diagnostics"))
    {
        const char *sev = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "severity"));
        if (!sev || strcmp(sev, "error"))
            continue;
        const char *text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "rendered"));
        return text ? text : cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "message"));
    }
    return NULL;
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
    const char *outcome = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(res, "outcome"));
    if (outcome && !strcmp(outcome, "ok")) {
        o->status = "ok";
    } else if (outcome && !strcmp(outcome, "mismatch")) {
        o->status = "mismatch";
    } else {
        const char *msg = first_error(res);
        o->error = strdup(msg ? msg : outcome ? "the run did not complete" : "the worker's result has no outcome");
    }
    double median_ns = number_at(res, "profile", "median_ns");
    o->time_ms = median_ns >= 0 ? median_ns / 1e6 : number_at(res, "times_ms", "run");
}

void mt_web_run_outcome_free(WebRunOutcome *o)
{
    free(o->error);
    o->error = NULL;
}
