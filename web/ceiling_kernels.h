/* ceiling_kernels.h: the two kernels that measure a device's roofline
 * ceilings, the launch each runs with on a given device, and the ceiling
 * a finished run of one gives (ceiling_kernels.c). */
#ifndef MT_WEB_CEILING_KERNELS_H
#define MT_WEB_CEILING_KERNELS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum WebCeilingKind { WEB_CEIL_COPY, WEB_CEIL_FMA, WEB_CEIL_COUNT } WebCeilingKind;

typedef struct WebCeilingKernel {
    const char *name;         /* "copy" | "fma" */
    const char *kernel;       /* the jit function */
    const char *source;
    const char *signature;    /* with the pointers' :16 hints, so that the fast lowering vectorises */
    const char *count;        /* the cost the ceiling divides by the time: "bytes" | "flops" */
    const char *figure;       /* the ceiling's key in the cache: "copy_gbs" | "fp32_tflops" */
} WebCeilingKernel;

extern const WebCeilingKernel mt_web_ceiling_kernels[WEB_CEIL_COUNT];

/* What a launch is sized by: the probe's facts of the device. */
typedef struct WebCeilingDevice {
    int sm_count;
    double memory_bytes;
} WebCeilingDevice;

/* The launch spec of kernel `kind` on device d: the copy moves the
 * largest power of two of fp32 elements up to 2^28 each way that keeps
 * both arrays within an eighth of the device's memory, 4096 per program;
 * the FMA kernel runs 64 programs per SM. NULL when d lacks the facts. */
cJSON *mt_web_ceiling_spec(WebCeilingKind kind, const WebCeilingDevice *d);

/* [{"name", "kernel", "source", "signature", "count", "spec"}] for
 * GET /api/ceilings; "spec" only with a device (d may be NULL). */
cJSON *mt_web_ceiling_kernels_json(const WebCeilingDevice *d);

/* The ceiling a finished, profiled run of kernel `kind` gives: the run's
 * exact count (cost: mt_web_run_cost's, from the compiler) over its best
 * launch (the least of the profiled launch times), in GB/s for the copy,
 * TFLOP/s for the FMA kernel; its figures go into `out` ({"run",
 * "best_ns", "median_ns", "bytes" | "flops", "launches", "timer"}). false
 * with *why when the run cannot give one. */
bool mt_web_ceiling_figure(WebCeilingKind kind, int64_t id, const cJSON *run, const cJSON *cost, double *value,
                           cJSON *out, const char **why);

#endif
