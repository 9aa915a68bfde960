/* gpu_test.h: what every GPU test program shares: open the device or skip,
 * fail with a located message, and build a kernel from CUDA source for the
 * device in hand (NVRTC for its sm_XX, then cuModuleLoadData).
 *
 * Skip protocol (CTest SKIP_RETURN_CODE 77): with no usable device a test
 * prints "SKIP: no CUDA device (<why>)" and exits 77, except under
 * MYTRITON_REQUIRE_CUDA=1 (the GPU machine's run), where that is a failure.
 * These are programs, not library code: printing and exit() are their job. */
#ifndef MT_TESTS_GPU_TEST_H
#define MT_TESTS_GPU_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_driver.h"
#include "nvrtc_compile.h"

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);    \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static inline MtCuda *gpu_open_or_skip(void)
{
    MtCuda *cu = NULL;
    char err[512] = "";
    if (mt_cuda_open(&cu, err, sizeof err) == MT_OK)
        return cu;
    const char *req = getenv("MYTRITON_REQUIRE_CUDA");
    if (req && strcmp(req, "1") == 0) {
        fprintf(stderr, "FAIL: MYTRITON_REQUIRE_CUDA=1 but no CUDA device (%s)\n", err);
        exit(1);
    }
    printf("SKIP: no CUDA device (%s)\n", err);
    exit(77);
}

static inline int gpu_sm(const MtCuda *cu)
{
    const MtCudaDeviceInfo *in = mt_cuda_device_info(cu);
    return in->cc_major * 10 + in->cc_minor;
}

/* Compile `src` for the device, load it and look up `symbol`. */
static inline MtCudaFunc *gpu_build(MtCuda *cu, const char *src, const char *name,
                                    const char *symbol, MtCudaModule **mod)
{
    MtNvrtcOutput out;
    char err[4096] = "";
    MtStatus st = mt_nvrtc_compile(src, name, gpu_sm(cu), NULL, 0, &out, err, sizeof err);
    CHECK(st == MT_OK, "%s", err);
    CHECK(mt_cuda_module_load(cu, out.cubin, name, mod, err, sizeof err) == MT_OK, "%s", err);
    mt_nvrtc_output_free(&out);
    MtCudaFunc *fn = NULL;
    CHECK(mt_cuda_module_function(cu, *mod, symbol, &fn, err, sizeof err) == MT_OK, "%s", err);
    return fn;
}

#endif
