/* fuzz_util.c: the fuzz targets' watchdog and tiny-grid interpreter run
 * (fuzz.h). Test-harness code: one watchdog thread per process, started
 * on first use. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz.h"

typedef struct Watchdog {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool started;
    MtCtx *ctx;               /* what to cancel, or NULL when unarmed */
    struct timespec deadline;
} Watchdog;

static Watchdog dog = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, NULL, {0, 0}};

static void *watch(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&dog.mu);
    for (;;) {
        if (!dog.ctx) {
            pthread_cond_wait(&dog.cv, &dog.mu);
            continue;
        }
        if (pthread_cond_timedwait(&dog.cv, &dog.mu, &dog.deadline) != 0 && dog.ctx) {
            mt_ctx_cancel(dog.ctx);
            dog.ctx = NULL;
        }
    }
    return NULL;
}

void fuzz_watch(MtCtx *c, unsigned ms)
{
    pthread_mutex_lock(&dog.mu);
    if (!dog.started) {
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        dog.started = pthread_create(&t, &attr, watch, NULL) == 0;
        pthread_attr_destroy(&attr);
    }
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    now.tv_sec += ms / 1000;
    now.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (now.tv_nsec >= 1000000000L) {
        now.tv_sec++;
        now.tv_nsec -= 1000000000L;
    }
    dog.deadline = now;
    dog.ctx = c;
    pthread_cond_signal(&dog.cv);
    pthread_mutex_unlock(&dog.mu);
}

void fuzz_unwatch(void)
{
    pthread_mutex_lock(&dog.mu);
    dog.ctx = NULL;
    pthread_cond_signal(&dog.cv);
    pthread_mutex_unlock(&dog.mu);
}

enum { FUZZ_NUMEL = 256, FUZZ_MAX_ELEM = 8 };

void fuzz_interpret(MtCtx *c, MtCompiled *k)
{
    size_t np = mt_compiled_param_count(k), nargs = 0;
    MtKernelArg *args = calloc(np + 1, sizeof *args);
    if (!args)
        return;
    for (size_t i = 0; i < np; i++) {
        const MtKernelParam *p = mt_compiled_param(k, i);
        if (!p->type)
            continue;
        MtKernelArg *a = &args[nargs++];
        if (p->type[0] == '*') {
            /* Room for the widest element type; bytes of 1 are a true
             * bool, a small int and a tiny float alike. */
            a->data = malloc(FUZZ_NUMEL * FUZZ_MAX_ELEM);
            if (a->data)
                memset(a->data, 1, FUZZ_NUMEL * FUZZ_MAX_ELEM);
            a->numel = a->data ? FUZZ_NUMEL : 0;
        } else {
            a->i = 100;
            a->f = 1.5;
        }
    }
    const int64_t grid[3] = {2, 1, 1};
    MtInterpOptions opt = {.threads = 1};
    mt_interpret(c, k, grid, args, nargs, &opt);
    for (size_t i = 0; i < nargs; i++)
        free(args[i].data);
    free(args);
}
