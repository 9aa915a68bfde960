/* profiler.h: per-launch kernel durations, from CUPTI or CUDA events.
 *
 * mt_profile runs a caller-supplied launch function `warmup` times, then
 * `iters` times, and returns one duration per measured call, raw and in
 * launch order (the dashboard plots the samples), plus min/median/max.
 *
 * Timers:
 *  - "cupti": CUPTI's activity API (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
 *    records), the GPU's own start/end timestamps of each kernel: no host
 *    overhead, no launch latency. If one call launches k kernels, its
 *    sample is the sum of their durations.
 *  - "cuda-events": an event recorded before and after each call on the
 *    default stream. Used when CUPTI cannot be loaded or initialised (or
 *    returned no records); MtProfile.note says why. Samples include a
 *    little GPU front-end time around the kernel and have about 0.5 us
 *    resolution.
 * MYTRITON_PROFILER=events forces events; =cupti forbids the fallback (an
 * error instead); unset or "auto" tries CUPTI first.
 *
 * libcupti is loaded with dlopen on first use, like the driver, trying
 * "libcupti.so.13", "libcupti.so", then the same two names in
 * /usr/local/cuda/extras/CUPTI/lib64 and /usr/local/cuda/lib64. CUPTI is
 * process-global, so profiles are serialised: a second thread's
 * mt_profile waits for the first.
 */
#ifndef MT_RUNTIME_PROFILER_H
#define MT_RUNTIME_PROFILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda_driver.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct MtProfile {
    uint64_t *ns;               /* n = iters per-call kernel durations, launch order; heap */
    size_t n;
    uint64_t min_ns, median_ns, max_ns;
    double mean_ns;
    const char *timer;          /* "cupti" or "cuda-events" (static strings) */
    int kernels_per_launch;     /* CUPTI records per call (1 for a plain kernel); 0 for events */
    char note[256];             /* why events were used, or "" */
} MtProfile;

/* warmup >= 0 and iters >= 1 calls of launch(ud, ...); each call launches
 * its kernel(s) asynchronously and does not synchronise. On success *out owns
 * out->ns (free with mt_profile_free). A failing launch stops the run and
 * its message is returned. */
MtStatus mt_profile(MtCuda *cu, MtStatus (*launch)(void *ud, char *err, size_t errlen), void *ud,
                    int warmup, int iters, MtProfile *out, char *err, size_t errlen);
void mt_profile_free(MtProfile *p);

/* Load CUPTI if not yet loaded; false, with the reason in `why`, when it
 * cannot be used. Needs no GPU. */
bool mt_profile_cupti_available(char *why, size_t whylen);

#ifdef __cplusplus
}
#endif

#endif
