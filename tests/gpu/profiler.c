/* profiler.c (gpu): mt_profile returns `iters` positive raw samples and
 * consistent min <= median <= max with the timer that MYTRITON_PROFILER
 * asks for: "cupti" must really use CUPTI (no silent fallback), "events"
 * must use CUDA events and say so. Under CUPTI, a call that launches two
 * kernels must be recognised as such, and a failing launch must stop the
 * profile with its own message. CTest runs this program once per timer. */
#include <stdint.h>

#include "gpu_test.h"
#include "profiler.h"

static const char *src =
    "extern \"C\" __global__ void add_kernel(const float *x, const float *y, float *out, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        out[i] = x[i] + y[i];\n"
    "}\n";

typedef struct {
    MtCuda *cu;
    MtCudaFunc *fn;
    MtDevPtr x, y, out;
    int n;
    int kernels;        /* launches per call */
    int fail_after;     /* > 0: the call with this number fails */
    int calls;
} Launch;

static MtStatus launch(void *ud, char *err, size_t errlen)
{
    Launch *l = ud;
    if (l->fail_after && ++l->calls == l->fail_after) {
        snprintf(err, errlen, "launch callback: planned failure at call %d", l->calls);
        return MT_ERR_USAGE;
    }
    unsigned grid[3] = {(unsigned)(l->n + 255) / 256, 1, 1}, block[3] = {256, 1, 1};
    void *params[] = {&l->x, &l->y, &l->out, &l->n};
    for (int k = 0; k < l->kernels; k++) {
        MtStatus st = mt_cuda_launch(l->cu, l->fn, "add_kernel", grid, block, 0, params, err, errlen);
        if (st != MT_OK)
            return st;
    }
    return MT_OK;
}

static void check_profile(const MtProfile *p, int iters, const char *want_timer)
{
    CHECK(p->n == (size_t)iters, "n = %zu", p->n);
    CHECK(want_timer == NULL || strcmp(p->timer, want_timer) == 0, "timer %s, note '%s'", p->timer,
          p->note);
    for (size_t i = 0; i < p->n; i++)
        CHECK(p->ns[i] > 0, "sample %zu is 0", i);
    CHECK(p->min_ns > 0 && p->min_ns <= p->median_ns && p->median_ns <= p->max_ns, "%llu %llu %llu",
          (unsigned long long)p->min_ns, (unsigned long long)p->median_ns,
          (unsigned long long)p->max_ns);
    CHECK(p->mean_ns >= (double)p->min_ns && p->mean_ns <= (double)p->max_ns, "mean %g", p->mean_ns);
    /* A 48 MiB add moves at a few TB/s: microseconds, not seconds. */
    CHECK(p->median_ns < 100u * 1000 * 1000, "median %llu ns", (unsigned long long)p->median_ns);
}

int main(void)
{
    MtCuda *cu = gpu_open_or_skip();
    const char *mode = getenv("MYTRITON_PROFILER");
    const char *want = NULL;
    if (mode && strcmp(mode, "cupti") == 0)
        want = "cupti";
    else if (mode && strcmp(mode, "events") == 0)
        want = "cuda-events";

    char err[1024];
    MtCudaModule *mod;
    Launch l = {.cu = cu, .n = 1 << 22, .kernels = 1};
    l.fn = gpu_build(cu, src, "add_kernel.cu", "add_kernel", &mod);
    size_t bytes = (size_t)l.n * sizeof(float);
    CHECK(mt_cuda_alloc(cu, bytes, &l.x, err, sizeof err) == MT_OK, "%s", err);
    CHECK(mt_cuda_alloc(cu, bytes, &l.y, err, sizeof err) == MT_OK, "%s", err);
    CHECK(mt_cuda_alloc(cu, bytes, &l.out, err, sizeof err) == MT_OK, "%s", err);
    CHECK(mt_cuda_memset(cu, l.x, 0, bytes, err, sizeof err) == MT_OK, "%s", err);
    CHECK(mt_cuda_memset(cu, l.y, 0, bytes, err, sizeof err) == MT_OK, "%s", err);

    int iters = 50;
    MtProfile p;
    MtStatus st = mt_profile(cu, launch, &l, 5, iters, &p, err, sizeof err);
    CHECK(st == MT_OK, "%s", err);
    check_profile(&p, iters, want);
    printf("timer %s%s%s: %d samples, min %.2f us, median %.2f us, max %.2f us (%.0f GB/s at the median)\n",
           p.timer, p.note[0] ? ", note: " : "", p.note, iters, p.min_ns / 1e3, p.median_ns / 1e3,
           p.max_ns / 1e3, 3.0 * (double)bytes / (double)p.median_ns);
    if (want && strcmp(want, "cuda-events") == 0)
        CHECK(strstr(p.note, "MYTRITON_PROFILER=events"), "note '%s'", p.note);
    if (strcmp(p.timer, "cupti") == 0) {
        CHECK(p.kernels_per_launch == 1, "%d", p.kernels_per_launch);
        uint64_t one = p.median_ns;
        mt_profile_free(&p);
        l.kernels = 2;
        CHECK(mt_profile(cu, launch, &l, 2, 20, &p, err, sizeof err) == MT_OK, "%s", err);
        check_profile(&p, 20, "cupti");
        CHECK(p.kernels_per_launch == 2, "%d", p.kernels_per_launch);
        printf("two kernels per call: median %.2f us (one: %.2f us)\n", p.median_ns / 1e3, one / 1e3);
        CHECK(p.median_ns > one, "two kernels took no longer than one");
        l.kernels = 1;
    }
    mt_profile_free(&p);

    /* A failing launch ends the profile with its message. */
    l.fail_after = 3;
    st = mt_profile(cu, launch, &l, 1, 10, &p, err, sizeof err);
    CHECK(st == MT_ERR_USAGE && strstr(err, "planned failure at call 3"), "%d %s", (int)st, err);
    CHECK(p.ns == NULL && p.n == 0, "samples left after a failure");
    l.fail_after = 0;
    /* The profiler leaves CUPTI detached: a later profile works. */
    CHECK(mt_profile(cu, launch, &l, 0, 3, &p, err, sizeof err) == MT_OK, "%s", err);
    check_profile(&p, 3, want);
    mt_profile_free(&p);
    CHECK(mt_profile(cu, launch, &l, 0, 0, &p, err, sizeof err) == MT_ERR_USAGE, "iters 0 accepted");

    mt_cuda_free(cu, l.x, err, sizeof err);
    mt_cuda_free(cu, l.y, err, sizeof err);
    mt_cuda_free(cu, l.out, err, sizeof err);
    CHECK(mt_cuda_module_unload(cu, mod, err, sizeof err) == MT_OK, "%s", err);
    mt_cuda_close(cu);
    printf("profiler (%s): ok\n", mode ? mode : "auto");
    return 0;
}
