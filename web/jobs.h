/* jobs.h: runs in progress and the events they report (jobs.c), read by
 * the page through Server-Sent Events (events.c). */
#ifndef MT_WEB_JOBS_H
#define MT_WEB_JOBS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct WebJobs WebJobs;

WebJobs *mt_web_jobs_new(void);
/* Wake every reader and make them end (the server is stopping). */
void mt_web_jobs_shutdown(WebJobs *j);
void mt_web_jobs_free(WebJobs *j);

/* Start recording events for run `id` (finished jobs beyond the most
 * recent few hundred are forgotten; their runs stay in the history). */
bool mt_web_job_open(WebJobs *j, int64_t id);
/* Append an event: `event` is its SSE name, `data` its JSON (taken). */
void mt_web_job_event(WebJobs *j, int64_t id, const char *event, cJSON *data);
/* The last event was sent: readers end after it. */
void mt_web_job_close(WebJobs *j, int64_t id);

typedef enum WebJobRead {
    WEB_JOB_EVENT,            /* *out holds the next event, SSE-framed (malloc'ed) */
    WEB_JOB_IDLE,             /* nothing new within the wait */
    WEB_JOB_END,              /* the job is closed and every event was read, or shutdown */
    WEB_JOB_UNKNOWN,          /* no such job in memory */
} WebJobRead;

/* Event number `index` (0-based) of job id, waiting up to wait_s for it. */
WebJobRead mt_web_job_read(WebJobs *j, int64_t id, size_t index, double wait_s, char **out);

#endif
