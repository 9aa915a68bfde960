/* ceiling_kernels.c: the kernels that measure the roofline's ceilings,
 * sized for the device they run on.
 *
 * Copy bandwidth: every element read once and written once, as 16-byte
 * vector accesses (the pointers' :16 hints let the fast lowering prove the
 * alignment; 4096 elements a program, 16 per thread), over arrays far past
 * the L2 cache (the H200's is 60 MB): 2^28 fp32 elements each way, 2 GiB
 * in all, or fewer on a device whose memory is smaller (both arrays within
 * an eighth of it). The first version of this kernel (2^25 elements,
 * 268 MB a launch, scalar accesses for want of the hints, the median
 * launch) measured 3567 GB/s on an H200 where vector add reached 3835.
 *
 * FP32 rate: four chains of fused multiply-adds per element, each four
 * deep per loop iteration (a static range), so a thread of the fast
 * lowering's 128 (8 elements each) has 32 independent chains and 128 FMAs
 * per iteration -- enough to hide the FMA latency with one warp per
 * sub-partition and to make the loop's own instructions a few percent;
 * 64 programs per SM, so every SM gets the same work whatever its
 * occupancy; no loads (the values start from the element index), one
 * store at the end.
 *
 * The ceiling is a rate of the run's best launch (the least of the
 * profiled times: a ceiling is what the device can do, not what it
 * usually does), and the count it divides comes from the compiler
 * (mt_web_run_cost), exact for both kernels: no masks, no loops whose trip
 * count is not known. */
#include <stdio.h>
#include <string.h>

#include "ceiling_kernels.h"

const WebCeilingKernel mt_web_ceiling_kernels[WEB_CEIL_COUNT] = {
    [WEB_CEIL_COPY] = {"copy", "copy_kernel",
                       "\"\"\"The copy ceiling: every element read once and written once (n is a multiple of "
                       "BLOCK).\"\"\"\n"
                       "import triton\n"
                       "import triton.language as tl\n"
                       "\n"
                       "\n"
                       "@triton.jit\n"
                       "def copy_kernel(x, out, BLOCK: tl.constexpr):\n"
                       "    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                       "    tl.store(out + offsets, tl.load(x + offsets))\n",
                       "*fp32:16,*fp32:16,4096", "bytes", "copy_gbs"},
    [WEB_CEIL_FMA] = {"fma", "fma_kernel",
                      "\"\"\"The fp32 ceiling: four chains of fused multiply-adds per element, 16 FMAs an "
                      "iteration.\"\"\"\n"
                      "import triton\n"
                      "import triton.language as tl\n"
                      "\n"
                      "\n"
                      "@triton.jit\n"
                      "def fma_kernel(out, iters, BLOCK: tl.constexpr):\n"
                      "    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                      "    a = offsets.to(tl.float32) * 1e-9\n"
                      "    b = a + 0.25\n"
                      "    c = a + 0.5\n"
                      "    d = a + 0.75\n"
                      "    for i in range(iters):\n"
                      "        for j in tl.static_range(4):\n"
                      "            a = tl.fma(a, 0.999, 0.001)\n"
                      "            b = tl.fma(b, 0.999, 0.001)\n"
                      "            c = tl.fma(c, 0.999, 0.001)\n"
                      "            d = tl.fma(d, 0.999, 0.001)\n"
                      "    tl.store(out + offsets, a + b + c + d)\n",
                      "*fp32:16,i32,1024", "flops", "fp32_tflops"},
};

enum {
    COPY_BLOCK = 4096,        /* the copy signature's BLOCK */
    FMA_BLOCK = 1024,         /* the FMA signature's BLOCK */
    FMA_PROGRAMS_PER_SM = 64,
    FMA_ITERS = 256,          /* 64 x 1024 x 256 x 32 FLOPs an SM: about 1 ms on an H200 */
};
static const int64_t copy_max_elements = (int64_t)1 << 28;

static cJSON *array(int64_t n, const char *init)
{
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "dtype", "float32");
    cJSON *shape = cJSON_AddArrayToObject(a, "shape");
    cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)n));
    cJSON_AddStringToObject(a, "init", init);
    return a;
}

static cJSON *launch(int64_t programs, cJSON **args)
{
    cJSON *spec = cJSON_CreateObject();
    cJSON *grid = cJSON_AddArrayToObject(spec, "grid");
    cJSON_AddItemToArray(grid, cJSON_CreateNumber((double)programs));
    *args = cJSON_AddObjectToObject(spec, "args");
    return spec;
}

cJSON *mt_web_ceiling_spec(WebCeilingKind kind, const WebCeilingDevice *d)
{
    cJSON *args;
    if (!d)
        return NULL;
    if (kind == WEB_CEIL_COPY) {
        int64_t n = copy_max_elements;
        while (n > COPY_BLOCK && (double)n * 2 * 4 > d->memory_bytes / 8)
            n /= 2;
        if ((double)n * 2 * 4 > d->memory_bytes / 8)
            return NULL;
        cJSON *spec = launch(n / COPY_BLOCK, &args);
        cJSON_AddItemToObject(args, "x", array(n, "arange"));
        cJSON_AddItemToObject(args, "out", array(n, "zeros"));
        return spec;
    }
    if (d->sm_count < 1)
        return NULL;
    int64_t programs = (int64_t)d->sm_count * FMA_PROGRAMS_PER_SM;
    cJSON *spec = launch(programs, &args);
    cJSON_AddItemToObject(args, "out", array(programs * FMA_BLOCK, "zeros"));
    cJSON_AddNumberToObject(args, "iters", FMA_ITERS);
    return spec;
}

cJSON *mt_web_ceiling_kernels_json(const WebCeilingDevice *d)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < WEB_CEIL_COUNT; i++) {
        const WebCeilingKernel *k = &mt_web_ceiling_kernels[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", k->name);
        cJSON_AddStringToObject(o, "kernel", k->kernel);
        cJSON_AddStringToObject(o, "source", k->source);
        cJSON_AddStringToObject(o, "signature", k->signature);
        cJSON_AddStringToObject(o, "count", k->count);
        cJSON *spec = mt_web_ceiling_spec((WebCeilingKind)i, d);
        if (spec)
            cJSON_AddItemToObject(o, "spec", spec);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static double number(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

bool mt_web_ceiling_figure(WebCeilingKind kind, int64_t id, const cJSON *run, const cJSON *cost, double *value,
                           cJSON *out, const char **why)
{
    const WebCeilingKernel *k = &mt_web_ceiling_kernels[kind];
    const cJSON *prof = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(run, "result"), "profile");
    char from[32];
    snprintf(from, sizeof from, "%s_from", k->count);
    const char *source = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cost, from));
    double best = number(prof, "min_ns"), count = number(cost, k->count);
    if (best <= 0) {
        *why = "was not profiled (give \"profile\": a number of launches)";
        return false;
    }
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cost, "exact")) || !source || strcmp(source, "compiler") ||
        count <= 0) {
        *why = "has no exact count from the compiler";
        return false;
    }
    *value = count / best * (kind == WEB_CEIL_FMA ? 1e-3 : 1);
    cJSON *m = cJSON_AddObjectToObject(out, k->name);
    cJSON_AddNumberToObject(m, "run", (double)id);
    cJSON_AddNumberToObject(m, "best_ns", best);
    cJSON_AddNumberToObject(m, "median_ns", number(prof, "median_ns"));
    cJSON_AddNumberToObject(m, k->count, count);
    cJSON_AddItemToObject(m, "launches", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(prof, "launches"), true));
    cJSON_AddItemToObject(m, "timer", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(prof, "timer"), true));
    return true;
}
