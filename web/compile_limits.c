/* compile_limits.c: how much compiling the server does at once, and for how long.
 *
 * Compiles run on the connections' own threads, but at most `slots` at a
 * time (twice the cores, at least 4): the others wait their turn, so a
 * burst of requests queues instead of thrashing. Each running compile is
 * watched: past opt.compile_timeout_s the watchdog thread calls
 * mt_ctx_cancel on its context, and the compile stops at its next pass
 * boundary with MT_CANCELLED (the request gets a clear error). Cancel is
 * only ever called under the lock, between begin and end, so it never
 * touches a context that has been freed. */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "api.h"
#include "compile_limits.h"

typedef struct Watched {
    MtCtx *c;                 /* NULL: slot free */
    double deadline;
} Watched;

struct WebLimits {
    pthread_mutex_t lock;
    pthread_cond_t slot_free;
    pthread_cond_t wake;      /* the watchdog: a new deadline, or stop */
    Watched *v;
    int slots;
    double timeout_s;
    bool stop;
    pthread_t thread;
};

static void *watchdog(void *arg)
{
    WebLimits *l = arg;
    pthread_mutex_lock(&l->lock);
    while (!l->stop) {
        double now = mt_web_now(), next = now + 3600;
        for (int i = 0; i < l->slots; i++) {
            if (!l->v[i].c)
                continue;
            if (l->v[i].deadline <= now) {
                mt_ctx_cancel(l->v[i].c);
                l->v[i].deadline = now + 3600;  /* cancelled once */
            } else if (l->v[i].deadline < next) {
                next = l->v[i].deadline;
            }
        }
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double wait = next - now;
        ts.tv_sec += (time_t)wait;
        ts.tv_nsec += (long)((wait - (double)(time_t)wait) * 1e9);
        if (ts.tv_nsec >= 1000000000L)
            ts.tv_sec++, ts.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&l->wake, &l->lock, &ts);
    }
    pthread_mutex_unlock(&l->lock);
    return NULL;
}

WebLimits *mt_web_limits_new(int slots, double timeout_s)
{
    WebLimits *l = calloc(1, sizeof *l);
    if (!l || !(l->v = calloc((size_t)slots, sizeof *l->v))) {
        free(l);
        return NULL;
    }
    l->slots = slots;
    l->timeout_s = timeout_s;
    pthread_mutex_init(&l->lock, NULL);
    pthread_cond_init(&l->slot_free, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&l->wake, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&l->thread, NULL, watchdog, l)) {
        free(l->v);
        free(l);
        return NULL;
    }
    return l;
}

void mt_web_limits_free(WebLimits *l)
{
    if (!l)
        return;
    pthread_mutex_lock(&l->lock);
    l->stop = true;
    pthread_cond_signal(&l->wake);
    pthread_mutex_unlock(&l->lock);
    pthread_join(l->thread, NULL);
    pthread_mutex_destroy(&l->lock);
    pthread_cond_destroy(&l->slot_free);
    pthread_cond_destroy(&l->wake);
    free(l->v);
    free(l);
}

void mt_web_compile_begin(MtWebServer *s, MtCtx *c)
{
    WebLimits *l = s->limits;
    pthread_mutex_lock(&l->lock);
    for (;;) {
        for (int i = 0; i < l->slots; i++) {
            if (!l->v[i].c) {
                l->v[i].c = c;
                l->v[i].deadline = mt_web_now() + l->timeout_s;
                pthread_cond_signal(&l->wake);
                pthread_mutex_unlock(&l->lock);
                return;
            }
        }
        pthread_cond_wait(&l->slot_free, &l->lock);
    }
}

void mt_web_compile_end(MtWebServer *s, MtCtx *c)
{
    WebLimits *l = s->limits;
    pthread_mutex_lock(&l->lock);
    for (int i = 0; i < l->slots; i++)
        if (l->v[i].c == c)
            l->v[i].c = NULL;
    pthread_cond_signal(&l->slot_free);
    pthread_mutex_unlock(&l->lock);
}
