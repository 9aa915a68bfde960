/* profiler.c: kernel timings through CUPTI's activity API, with CUDA
 * events as the fallback (see profiler.h for the contract).
 *
 * CUPTI delivers activity records in buffers it asks us for and hands back
 * through two callbacks, which carry no user pointer. The collector that
 * the callbacks fill therefore lives in `cupti` below, the one piece of
 * mutable process state in the runtime, and a deliberate one: CUPTI itself
 * is process-global (one activity configuration, one set of callbacks per
 * process), so a per-handle design would only pretend otherwise. The
 * library handle, its entry points and the callback registration are made
 * once (pthread_once); `session` serialises whole profiles; `mu` guards the
 * active collector against CUPTI's own thread, which may complete buffers
 * at any time. libcupti is never unloaded and cuptiFinalize is never
 * called: CUPTI stays attached once loaded, as it is meant to.
 *
 * A CUPTI profile: enable CONCURRENT_KERNEL records, run the warm-up,
 * synchronise and force-flush (warm-up records are dropped), run the
 * measured calls, synchronise and force-flush again (records kept), then
 * disable. The records are sorted by start time and, when each call
 * launched k kernels, summed k at a time. A count that is not a multiple of
 * the calls (records lost or stray kernels) makes the run unusable, and the
 * measurement is repeated with events rather than guessed at.
 */
#include "profiler.h"
#include "errbuf.h"

#include <cupti.h>
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Only start and end of kernel records are read. Their offsets have been
 * the same in every CUpti_ActivityKernel version from 4 to 10, so a
 * libcupti of another release than the headers still reads correctly. */
typedef CUpti_ActivityKernel10 KernelRecord;
_Static_assert(offsetof(KernelRecord, start) == 16 && offsetof(KernelRecord, end) == 24,
               "CUPTI kernel record layout changed");

#define CUPTI_FUNCS(X)                                        \
    X(GetResultString, cuptiGetResultString)                  \
    X(RegisterCallbacks, cuptiActivityRegisterCallbacks)      \
    X(Enable, cuptiActivityEnable)                            \
    X(Disable, cuptiActivityDisable)                          \
    X(FlushAll, cuptiActivityFlushAll)                        \
    X(GetNextRecord, cuptiActivityGetNextRecord)

typedef struct Span {
    uint64_t start, end;
} Span;

typedef struct Collector {
    Span *v;
    size_t n, cap;
    bool keep;                  /* false during warm-up: records are dropped */
    bool oom;
} Collector;

static struct {
    pthread_once_t once;
    pthread_mutex_t session;    /* one CUPTI profile at a time */
    pthread_mutex_t mu;         /* guards active (and its contents) */
    Collector *active;          /* NULL outside a profile: records are dropped */
    bool ok;                    /* loaded and callbacks registered */
    char why[224];              /* when !ok: what failed */
    struct {
#define FIELD(field, sym) __typeof__(sym) *field;
        CUPTI_FUNCS(FIELD)
#undef FIELD
    } fn;
} cupti = {
    .once = PTHREAD_ONCE_INIT,
    .session = PTHREAD_MUTEX_INITIALIZER,
    .mu = PTHREAD_MUTEX_INITIALIZER,
};

enum { BUFFER_SIZE = 1 << 20 }; /* ~4000 kernel records per buffer */

static const char *cupti_result(CUptiResult r)
{
    const char *s = NULL;
    if (cupti.fn.GetResultString && cupti.fn.GetResultString(r, &s) == CUPTI_SUCCESS && s)
        return s;
    return "CUPTI_ERROR_UNKNOWN";
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    /* malloc's alignment (16) meets CUPTI's 8-byte requirement. A NULL
     * buffer makes CUPTI drop records, which the count check catches. */
    *buffer = malloc(BUFFER_SIZE);
    *size = *buffer ? BUFFER_SIZE : 0;
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                      size_t valid)
{
    pthread_mutex_lock(&cupti.mu);
    Collector *c = cupti.active;
    CUpti_Activity *rec = NULL;
    while (valid && cupti.fn.GetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        if (!c || !c->keep || (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
                               rec->kind != CUPTI_ACTIVITY_KIND_KERNEL))
            continue;
        const KernelRecord *k = (const KernelRecord *)rec;
        if (c->n == c->cap) {
            size_t cap = c->cap ? 2 * c->cap : 1024;
            Span *v = realloc(c->v, cap * sizeof *v);
            if (!v) {
                c->oom = true;
                continue;
            }
            c->v = v;
            c->cap = cap;
        }
        c->v[c->n++] = (Span){k->start, k->end};
    }
    pthread_mutex_unlock(&cupti.mu);
    free(buffer);
}

static void load_cupti(void)
{
    /* Versioned names first: runtime images often lack the unversioned
     * development symlink. */
    static const char *const names[] = {
        "libcupti.so.13",
        "libcupti.so",
        "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13",
        "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so",
        "/usr/local/cuda/lib64/libcupti.so.13",
        "/usr/local/cuda/lib64/libcupti.so",
    };
    void *h = NULL;
    char first[160] = "";
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !h; i++) {
        h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        const char *e = h ? NULL : dlerror();
        if (!h && !first[0])
            snprintf(first, sizeof first, "%s", e ? e : names[i]);
    }
    if (!h) {
        mt_errf(cupti.why, sizeof cupti.why,
                "libcupti could not be loaded (%s; also tried libcupti.so and the CUDA folders)",
                first);
        return;
    }
#define RESOLVE(field, sym)                                                           \
    {                                                                                 \
        void *p = dlsym(h, #sym);                                                     \
        if (!p) {                                                                     \
            mt_errf(cupti.why, sizeof cupti.why, "libcupti lacks %s", #sym);          \
            return;                                                                   \
        }                                                                             \
        memcpy(&cupti.fn.field, &p, sizeof p);                                        \
    }
    CUPTI_FUNCS(RESOLVE)
#undef RESOLVE
    CUptiResult r = cupti.fn.RegisterCallbacks(buffer_requested, buffer_completed);
    if (r != CUPTI_SUCCESS) {
        mt_errf(cupti.why, sizeof cupti.why, "cuptiActivityRegisterCallbacks: %s", cupti_result(r));
        return;
    }
    cupti.ok = true;
}

bool mt_profile_cupti_available(char *why, size_t whylen)
{
    pthread_once(&cupti.once, load_cupti);
    if (!cupti.ok)
        mt_errf(why, whylen, "%s", cupti.why);
    return cupti.ok;
}

void mt_profile_free(MtProfile *p)
{
    if (!p)
        return;
    free(p->ns);
    memset(p, 0, sizeof *p);
}

static MtStatus run_launches(MtStatus (*launch)(void *, char *, size_t), void *ud, int count,
                             char *err, size_t errlen)
{
    for (int i = 0; i < count; i++) {
        MtStatus st = launch(ud, err, errlen);
        if (st != MT_OK)
            return st;
    }
    return MT_OK;
}

static int by_start(const void *a, const void *b)
{
    const Span *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Profile with CUPTI. Returns MT_OK with *unusable false on success; sets
 * *unusable (and `why`) when CUPTI could not time the run, so the caller
 * can fall back; any other status is a launch or driver failure. */
static MtStatus run_cupti(MtCuda *cu, MtStatus (*launch)(void *, char *, size_t), void *ud,
                          int warmup, int iters, MtProfile *out, bool *unusable, char *why,
                          size_t whylen, char *err, size_t errlen)
{
    *unusable = false;
    if (!mt_profile_cupti_available(why, whylen)) {
        *unusable = true;
        return MT_OK;
    }
    pthread_mutex_lock(&cupti.session);
    Collector c = {0};
    pthread_mutex_lock(&cupti.mu);
    cupti.active = &c;
    pthread_mutex_unlock(&cupti.mu);

    MtStatus st = MT_OK;
    CUptiResult r = cupti.fn.Enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    if (r != CUPTI_SUCCESS) {
        mt_errf(why, whylen, "cuptiActivityEnable(CONCURRENT_KERNEL): %s", cupti_result(r));
        *unusable = true;
        goto detach;
    }
    if ((st = run_launches(launch, ud, warmup, err, errlen)) != MT_OK ||
        (st = mt_cuda_synchronize(cu, err, errlen)) != MT_OK)
        goto disable;
    cupti.fn.FlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    pthread_mutex_lock(&cupti.mu);
    c.keep = true;
    c.n = 0;
    pthread_mutex_unlock(&cupti.mu);
    if ((st = run_launches(launch, ud, iters, err, errlen)) != MT_OK ||
        (st = mt_cuda_synchronize(cu, err, errlen)) != MT_OK)
        goto disable;
    r = cupti.fn.FlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    if (r != CUPTI_SUCCESS) {
        mt_errf(why, whylen, "cuptiActivityFlushAll: %s", cupti_result(r));
        *unusable = true;
    }
disable:
    pthread_mutex_lock(&cupti.mu);
    c.keep = false;
    pthread_mutex_unlock(&cupti.mu);
    cupti.fn.Disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cupti.fn.FlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
detach:
    pthread_mutex_lock(&cupti.mu);
    cupti.active = NULL;
    pthread_mutex_unlock(&cupti.mu);
    pthread_mutex_unlock(&cupti.session);

    if (st == MT_OK && !*unusable) {
        if (c.oom) {
            mt_errf(err, errlen, "mt_profile: out of memory collecting CUPTI records");
            st = MT_ERR_NOMEM;
        } else if (c.n == 0 || c.n % (size_t)iters != 0) {
            mt_errf(why, whylen, "CUPTI returned %zu kernel records for %d calls", c.n, iters);
            *unusable = true;
        } else {
            qsort(c.v, c.n, sizeof *c.v, by_start);
            size_t k = c.n / (size_t)iters;
            for (size_t i = 0; i < (size_t)iters; i++) {
                uint64_t sum = 0;
                for (size_t j = 0; j < k; j++) {
                    const Span *s = &c.v[i * k + j];
                    sum += s->end > s->start ? s->end - s->start : 0;
                }
                out->ns[i] = sum;
            }
            out->timer = "cupti";
            out->kernels_per_launch = (int)k;
        }
    }
    free(c.v);
    return st;
}

static MtStatus run_events(MtCuda *cu, MtStatus (*launch)(void *, char *, size_t), void *ud,
                           int warmup, int iters, MtProfile *out, char *err, size_t errlen)
{
    MtCudaEvent **ev = calloc(2 * (size_t)iters, sizeof *ev);
    if (!ev) {
        mt_errf(err, errlen, "mt_profile: out of memory for %d event pairs", iters);
        return MT_ERR_NOMEM;
    }
    MtStatus st = MT_OK;
    for (int i = 0; i < 2 * iters && st == MT_OK; i++)
        st = mt_cuda_event_create(cu, &ev[i], err, errlen);
    if (st == MT_OK)
        st = run_launches(launch, ud, warmup, err, errlen);
    if (st == MT_OK)
        st = mt_cuda_synchronize(cu, err, errlen);
    for (int i = 0; i < iters && st == MT_OK; i++) {
        if ((st = mt_cuda_event_record(cu, ev[2 * i], err, errlen)) != MT_OK ||
            (st = launch(ud, err, errlen)) != MT_OK)
            break;
        st = mt_cuda_event_record(cu, ev[2 * i + 1], err, errlen);
    }
    for (int i = 0; i < iters && st == MT_OK; i++) {
        float ms = 0;
        st = mt_cuda_event_elapsed(cu, ev[2 * i], ev[2 * i + 1], &ms, err, errlen);
        out->ns[i] = ms > 0 ? (uint64_t)llround((double)ms * 1e6) : 0;
    }
    for (int i = 0; i < 2 * iters; i++)
        mt_cuda_event_destroy(cu, ev[i]);
    free(ev);
    if (st == MT_OK) {
        out->timer = "cuda-events";
        out->kernels_per_launch = 0;
    }
    return st;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static MtStatus summarise(MtProfile *p, char *err, size_t errlen)
{
    uint64_t *sorted = malloc(p->n * sizeof *sorted);
    if (!sorted) {
        mt_errf(err, errlen, "mt_profile: out of memory");
        return MT_ERR_NOMEM;
    }
    memcpy(sorted, p->ns, p->n * sizeof *sorted);
    qsort(sorted, p->n, sizeof *sorted, by_value);
    p->min_ns = sorted[0];
    p->max_ns = sorted[p->n - 1];
    p->median_ns = p->n % 2 ? sorted[p->n / 2] : (sorted[p->n / 2 - 1] + sorted[p->n / 2]) / 2;
    double sum = 0;
    for (size_t i = 0; i < p->n; i++)
        sum += (double)p->ns[i];
    p->mean_ns = sum / (double)p->n;
    free(sorted);
    return MT_OK;
}

MtStatus mt_profile(MtCuda *cu, MtStatus (*launch)(void *ud, char *err, size_t errlen), void *ud,
                    int warmup, int iters, MtProfile *out, char *err, size_t errlen)
{
    if (!out) {
        mt_errf(err, errlen, "mt_profile: no output");
        return MT_ERR_USAGE;
    }
    memset(out, 0, sizeof *out);
    if (!cu || !launch || warmup < 0 || iters < 1) {
        mt_errf(err, errlen, "mt_profile: needs a CUDA handle, a launch function, warmup >= 0 and "
                "iters >= 1 (got warmup %d, iters %d)", warmup, iters);
        return MT_ERR_USAGE;
    }
    const char *mode = getenv("MYTRITON_PROFILER");
    if (!mode || !*mode)
        mode = "auto";
    bool events = strcmp(mode, "events") == 0 || strcmp(mode, "cuda-events") == 0;
    bool cupti_only = strcmp(mode, "cupti") == 0;
    if (!events && !cupti_only && strcmp(mode, "auto") != 0) {
        mt_errf(err, errlen, "MYTRITON_PROFILER='%s': expected auto, cupti or events", mode);
        return MT_ERR_USAGE;
    }
    out->ns = calloc((size_t)iters, sizeof *out->ns);
    if (!out->ns) {
        mt_errf(err, errlen, "mt_profile: out of memory for %d samples", iters);
        return MT_ERR_NOMEM;
    }
    out->n = (size_t)iters;

    MtStatus st = MT_OK;
    if (events) {
        mt_errf(out->note, sizeof out->note, "MYTRITON_PROFILER=%s", mode);
    } else {
        bool unusable = false;
        char why[224] = "";
        st = run_cupti(cu, launch, ud, warmup, iters, out, &unusable, why, sizeof why, err, errlen);
        if (st == MT_OK && unusable) {
            if (cupti_only) {
                mt_errf(err, errlen, "mt_profile: MYTRITON_PROFILER=cupti, but %s", why);
                st = MT_ERR_CUDA;
            } else {
                mt_errf(out->note, sizeof out->note, "CUPTI unavailable: %s; timed with CUDA events",
                        why);
                events = true;
            }
        }
    }
    if (st == MT_OK && events)
        st = run_events(cu, launch, ud, warmup, iters, out, err, errlen);
    if (st == MT_OK)
        st = summarise(out, err, errlen);
    if (st != MT_OK)
        mt_profile_free(out);
    return st;
}
