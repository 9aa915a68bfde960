/* events.c: GET /api/events/{id} -- a run's progress as Server-Sent Events.
 *
 * The page opens an EventSource per run and is told, as it happens:
 *   queued {"position": N}          waiting for a worker (or the GPU)
 *   started {"backend", "worker"}   a worker took it
 *   progress {...}                  what the worker reports on the way
 *   done {"status", "error"?}       finished: fetch /api/runs/{id}
 * A stream opened after the run ended (or after the server restarted)
 * gets the one `done` event from the history. The stream is a
 * libmicrohttpd callback response on the connection's own thread: it
 * waits for news (jobs.c) and sends a comment line every 15 s while
 * there is none, so proxies keep the connection and a closed page is
 * noticed. */
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "history.h"
#include "jobs.h"

typedef struct Stream {
    MtWebServer *s;
    int64_t id;
    size_t index;             /* next event to read */
    char *pending;            /* framed text not yet sent */
    size_t off;
    bool last;                /* pending is the final text */
} Stream;

static const char keepalive[] = ": keep-alive\n\n";

static ssize_t reader(void *cls, uint64_t pos, char *buf, size_t max)
{
    Stream *st = cls;
    (void)pos;
    while (!st->pending) {
        if (st->last || atomic_load(&st->s->stopping))
            return MHD_CONTENT_READER_END_OF_STREAM;
        char *ev = NULL;
        switch (mt_web_job_read(st->s->jobs, st->id, st->index, 15.0, &ev)) {
        case WEB_JOB_EVENT:
            st->pending = ev;
            st->index++;
            break;
        case WEB_JOB_IDLE:
            st->pending = strdup(keepalive);
            if (!st->pending)
                return MHD_CONTENT_READER_END_WITH_ERROR;
            break;
        case WEB_JOB_END:
        case WEB_JOB_UNKNOWN:
            return MHD_CONTENT_READER_END_OF_STREAM;
        }
        st->off = 0;
    }
    size_t left = strlen(st->pending) - st->off;
    size_t n = left < max ? left : max;
    memcpy(buf, st->pending + st->off, n);
    st->off += n;
    if (st->off == strlen(st->pending)) {
        free(st->pending);
        st->pending = NULL;
    }
    return (ssize_t)n;
}

static void stream_free(void *cls)
{
    Stream *st = cls;
    free(st->pending);
    free(st);
}

/* The final event of a run that is no longer in memory. */
static char *done_from_history(MtWebServer *s, int64_t id)
{
    cJSON *run = mt_web_history_get(s->history, id, false);
    if (!run)
        return NULL;
    cJSON *data = cJSON_CreateObject();
    cJSON *status = cJSON_GetObjectItemCaseSensitive(run, "status");
    cJSON_AddStringToObject(data, "status", cJSON_GetStringValue(status) ? status->valuestring : "unknown");
    cJSON *error = cJSON_GetObjectItemCaseSensitive(run, "error");
    if (cJSON_IsString(error))
        cJSON_AddStringToObject(data, "error", error->valuestring);
    cJSON_Delete(run);
    char *json = cJSON_PrintUnformatted(data);
    cJSON_Delete(data);
    if (!json)
        return NULL;
    size_t n = strlen(json) + 32;
    char *framed = malloc(n);
    if (framed)
        snprintf(framed, n, "event: done\ndata: %s\n\n", json);
    cJSON_free(json);
    return framed;
}

void mt_web_api_events(WebReq *r)
{
    char *end;
    long long id = strtoll(r->params[0], &end, 10);
    if (*end || id <= 0) {
        mt_web_reply_error(r, 404, "not_found", NULL, "no run %s", r->params[0]);
        return;
    }
    Stream *st = calloc(1, sizeof *st);
    if (!st) {
        mt_web_reply_error(r, 500, "internal", NULL, "out of memory");
        return;
    }
    st->s = r->s;
    st->id = id;
    char *probe = NULL;
    WebJobRead known = mt_web_job_read(r->s->jobs, id, 0, 0, &probe);
    free(probe);
    if (known == WEB_JOB_UNKNOWN) {
        st->pending = done_from_history(r->s, id);
        st->last = true;
        if (!st->pending) {
            free(st);
            mt_web_reply_error(r, 404, "not_found", NULL, "no run %lld", id);
            return;
        }
    }
    struct MHD_Response *resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, reader, st, stream_free);
    if (!resp) {
        stream_free(st);
        mt_web_reply_error(r, 500, "internal", NULL, "out of memory");
        return;
    }
    MHD_add_response_header(resp, "X-Accel-Buffering", "no");
    mt_web_reply_response(r, 200, resp, "text/event-stream");
}
