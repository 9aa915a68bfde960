/* workers.h: kernel runs in supervised worker processes (workers.c). */
#ifndef MT_WEB_WORKERS_H
#define MT_WEB_WORKERS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "web_int.h"

typedef struct WebWorkers WebWorkers;

/* One run for a worker. The callbacks run on the worker's supervising
 * thread; `done` is called exactly once, with the worker's result document
 * (taken) or NULL and an error message. */
typedef struct WebTask {
    int64_t id;
    int device;               /* -1: the interpreter queue; else the GPU queue of that device */
    cJSON *request;           /* the request line's document (taken) */
    void (*queued)(void *ud, int position);  /* tasks ahead of it; called before any other */
    void (*started)(void *ud, const char *worker);
    void (*progress)(void *ud, cJSON *event);          /* taken */
    void (*done)(void *ud, cJSON *result, const char *error);
    void *ud;
} WebTask;

/* Start the pools: opt.interp_workers interpreter slots, and one GPU slot
 * per device found by a probe process (`EXE serve --probe-devices`), which
 * runs in the background. Worker processes start when first needed. */
WebWorkers *mt_web_workers_new(MtWebServer *s, char *err, size_t errlen);
/* Kill every worker, fail every queued task, join the threads. */
void mt_web_workers_free(WebWorkers *w);

/* Queue a task (copied); false (and nothing called) when its queue does
 * not exist: no such device, or the GPU probe found none. */
bool mt_web_workers_submit(WebWorkers *w, const WebTask *t, char *err, size_t errlen);

/* {"interp": {"workers": N}, "cuda": {"state": "probing" | "ready" |
 * "unavailable", "devices": [...], "reason": ...}} */
cJSON *mt_web_workers_info(WebWorkers *w);

#endif
