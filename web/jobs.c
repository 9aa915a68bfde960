/* jobs.c: the events of runs in progress.
 *
 * Each run gets a job: an append-only list of events, already framed for
 * Server-Sent Events ("event: NAME\ndata: JSON\n\n"), and a closed flag.
 * Readers (one per open event stream, on its connection's thread) read by
 * index and wait on one condition variable for news, so a page that
 * connects late still receives every event from the first, and any number
 * of pages can follow the same run. The job list is bounded: the oldest
 * closed jobs are dropped first. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jobs.h"

enum { WEB_MAX_JOBS = 256 };

typedef struct Job {
    int64_t id;
    char **events;
    size_t n, cap;
    bool closed;
} Job;

struct WebJobs {
    pthread_mutex_t lock;
    pthread_cond_t news;
    Job *v[WEB_MAX_JOBS];
    size_t n;
    bool shutdown;
};

WebJobs *mt_web_jobs_new(void)
{
    WebJobs *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    pthread_mutex_init(&j->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&j->news, &ca);
    pthread_condattr_destroy(&ca);
    return j;
}

static void job_free(Job *job)
{
    for (size_t i = 0; i < job->n; i++)
        free(job->events[i]);
    free(job->events);
    free(job);
}

void mt_web_jobs_shutdown(WebJobs *j)
{
    pthread_mutex_lock(&j->lock);
    j->shutdown = true;
    pthread_cond_broadcast(&j->news);
    pthread_mutex_unlock(&j->lock);
}

void mt_web_jobs_free(WebJobs *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->n; i++)
        job_free(j->v[i]);
    pthread_mutex_destroy(&j->lock);
    pthread_cond_destroy(&j->news);
    free(j);
}

static Job *find(WebJobs *j, int64_t id)
{
    for (size_t i = 0; i < j->n; i++)
        if (j->v[i]->id == id)
            return j->v[i];
    return NULL;
}

bool mt_web_job_open(WebJobs *j, int64_t id)
{
    Job *job = calloc(1, sizeof *job);
    if (!job)
        return false;
    job->id = id;
    pthread_mutex_lock(&j->lock);
    if (j->n == WEB_MAX_JOBS) {
        size_t drop = 0;
        while (drop < j->n && !j->v[drop]->closed)
            drop++;
        if (drop == j->n)
            drop = 0;   /* all running: forget the oldest anyway, its run is in the history */
        job_free(j->v[drop]);
        memmove(&j->v[drop], &j->v[drop + 1], (j->n - drop - 1) * sizeof *j->v);
        j->n--;
    }
    j->v[j->n++] = job;
    pthread_mutex_unlock(&j->lock);
    return true;
}

void mt_web_job_event(WebJobs *j, int64_t id, const char *event, cJSON *data)
{
    char *json = cJSON_PrintUnformatted(data);
    cJSON_Delete(data);
    if (!json)
        return;
    size_t n = strlen(event) + strlen(json) + 32;
    char *framed = malloc(n);
    if (framed)
        snprintf(framed, n, "event: %s\ndata: %s\n\n", event, json);
    cJSON_free(json);
    if (!framed)
        return;
    pthread_mutex_lock(&j->lock);
    Job *job = find(j, id);
    if (job && job->n == job->cap) {
        size_t cap = job->cap ? job->cap * 2 : 8;
        char **ne = realloc(job->events, cap * sizeof *ne);
        if (ne) {
            job->events = ne;
            job->cap = cap;
        }
    }
    if (job && job->n < job->cap && !job->closed) {
        job->events[job->n++] = framed;
        framed = NULL;
        pthread_cond_broadcast(&j->news);
    }
    pthread_mutex_unlock(&j->lock);
    free(framed);
}

void mt_web_job_close(WebJobs *j, int64_t id)
{
    pthread_mutex_lock(&j->lock);
    Job *job = find(j, id);
    if (job)
        job->closed = true;
    pthread_cond_broadcast(&j->news);
    pthread_mutex_unlock(&j->lock);
}

WebJobRead mt_web_job_read(WebJobs *j, int64_t id, size_t index, double wait_s, char **out)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += (time_t)wait_s;
    until.tv_nsec += (long)((wait_s - (double)(time_t)wait_s) * 1e9);
    if (until.tv_nsec >= 1000000000L)
        until.tv_sec++, until.tv_nsec -= 1000000000L;
    WebJobRead res;
    pthread_mutex_lock(&j->lock);
    for (;;) {
        Job *job = find(j, id);
        if (j->shutdown) {
            res = WEB_JOB_END;
            break;
        }
        if (!job) {
            res = WEB_JOB_UNKNOWN;
            break;
        }
        if (index < job->n) {
            *out = strdup(job->events[index]);
            res = *out ? WEB_JOB_EVENT : WEB_JOB_END;
            break;
        }
        if (job->closed) {
            res = WEB_JOB_END;
            break;
        }
        if (pthread_cond_timedwait(&j->news, &j->lock, &until)) {
            res = WEB_JOB_IDLE;
            break;
        }
    }
    pthread_mutex_unlock(&j->lock);
    return res;
}
