/* history.h: the run history, in SQLite (history.c). */
#ifndef MT_WEB_HISTORY_H
#define MT_WEB_HISTORY_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct WebHistory WebHistory;

/* What is known of a run when it is queued. */
typedef struct WebRunRecord {
    const char *path;         /* the file's shown path */
    const char *kernel;
    const char *source;       /* the text run (stored once per distinct text) */
    const char *source_sha256;
    const char *signature;    /* as compiled */
    const char *backend;      /* "interp" or "cuda" */
    bool compare;
    int profile;              /* launches timed, 0: none */
    const char *request;      /* the request's JSON (spec, inputs, options) */
} WebRunRecord;

/* Open (creating) DIR/history.sqlite3. Runs a previous server left queued
 * or running are marked failed ("the server stopped"). */
WebHistory *mt_web_history_open(const char *dir, char *err, size_t errlen);
void mt_web_history_close(WebHistory *h);

/* A new run, status "queued"; its id, or 0 with a message. */
int64_t mt_web_history_add(WebHistory *h, const WebRunRecord *rec, char *err, size_t errlen);
/* Status "running" (and the device it runs on). */
void mt_web_history_started(WebHistory *h, int64_t id, const char *device);
/* Final status ("ok", "mismatch", "error"), the time to show (ms, < 0:
 * none), the error text (NULL: none) and the worker's result (NULL: none). */
void mt_web_history_finish(WebHistory *h, int64_t id, const char *status, double time_ms, const char *error,
                           const cJSON *result);

/* One run: id, created (ISO 8601), status, path, kernel, source_sha256,
 * signature, backend, compare, profile, device, time_ms, error; with
 * `full` also source, request and result (parsed). NULL when unknown. */
cJSON *mt_web_history_get(WebHistory *h, int64_t id, bool full);
/* The newest runs first, at most `limit`, older than `before` (0: any),
 * of `kernel` only when given. */
cJSON *mt_web_history_list(WebHistory *h, int limit, int64_t before, const char *kernel);
bool mt_web_history_delete(WebHistory *h, int64_t id);

#endif
