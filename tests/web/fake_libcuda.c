/* fake_libcuda.c: a stand-in libcuda.so.1 for testing the repro archive's
 * launch.c on a machine without a GPU (check_web_api.c, check_launcher).
 *
 * It answers the Driver API calls launch.c makes, with host memory for
 * device memory and one "GPU" of compute capability $FAKE_CUDA_CC (default
 * 8.0, so that launch.c loads kernel.ptx rather than the sm_90 cubin). It
 * runs no kernel: cuLaunchKernel checks the launch against the .entry of
 * the PTX it was given -- the number of parameters and, for each, that a
 * pointer parameter received one of its allocations -- and writes what it
 * got to $FAKE_CUDA_LOG:
 *
 *   launch add_kernel grid 4 1 1 block 128 1 1 shared 0 params 7
 *   param 0 ptr 4000 bytes
 *   param 3 4 e8030000
 *
 * (scalars as their bytes in hex). The arrays come back as they went in. */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ALLOCS = 256, MAX_PARAMS = 64 };

static struct {
    void *p;
    size_t n;
} allocs[MAX_ALLOCS];
static int nallocs;
static char *ptx;            /* the module's text */
static char entry[128];      /* the kernel it was asked for */

CUresult cuInit(unsigned int flags)
{
    (void)flags;
    return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult r, const char **s)
{
    *s = r == CUDA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE" : "CUDA_ERROR_UNKNOWN";
    return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult r, const char **s)
{
    *s = r == CUDA_ERROR_INVALID_VALUE ? "invalid argument (the fake driver's check)" : "unknown error";
    return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *v)
{
    *v = 13000;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *n)
{
    *n = 1;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *d, int ordinal)
{
    *d = ordinal;
    return ordinal == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice d)
{
    (void)d;
    snprintf(name, (size_t)len, "Fake GPU");
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
    (void)d;
    const char *cc = getenv("FAKE_CUDA_CC");
    int major = 8, minor = 0;
    if (cc)
        sscanf(cc, "%d.%d", &major, &minor);
    *v = a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? major
         : a == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR ? minor : 0;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
    (void)d;
    *c = (CUcontext)(uintptr_t)0x1;
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext c)
{
    (void)c;
    return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void) { return CUDA_SUCCESS; }

CUresult cuModuleLoadData(CUmodule *m, const void *image)
{
    if (memcmp(image, "\x7f" "ELF", 4) == 0)
        return CUDA_ERROR_NO_BINARY_FOR_GPU;   /* a cubin: not for this "GPU" */
    free(ptx);
    ptx = strdup(image);
    *m = (CUmodule)(uintptr_t)0x2;
    return CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned int n, CUjit_option *o, void **v)
{
    (void)n, (void)o, (void)v;
    return cuModuleLoadData(m, image);
}

CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
    (void)m;
    char want[160];
    snprintf(want, sizeof want, ".entry %s(", name);
    if (!ptx || !strstr(ptx, want))
        return CUDA_ERROR_NOT_FOUND;
    snprintf(entry, sizeof entry, "%s", name);
    *f = (CUfunction)(uintptr_t)0x3;
    return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v)
{
    (void)f;
    return a == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES && v > 0 && v <= 227 * 1024 ? CUDA_SUCCESS
                                                                                           : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemAlloc(CUdeviceptr *d, size_t n)
{
    if (nallocs == MAX_ALLOCS)
        return CUDA_ERROR_OUT_OF_MEMORY;
    allocs[nallocs].p = calloc(1, n);
    allocs[nallocs].n = n;
    *d = (CUdeviceptr)(uintptr_t)allocs[nallocs++].p;
    return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoD(CUdeviceptr d, const void *h, size_t n)
{
    memcpy((void *)(uintptr_t)d, h, n);
    return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoH(void *h, CUdeviceptr d, size_t n)
{
    memcpy(h, (const void *)(uintptr_t)d, n);
    return CUDA_SUCCESS;
}

/* The byte size of each .param of the entry, from its PTX declaration. */
static int param_sizes(size_t *size)
{
    char want[160];
    snprintf(want, sizeof want, ".entry %s(", entry);
    const char *p = strstr(ptx, want), *end = p ? strchr(p, ')') : NULL;
    int n = 0;
    while (p && end && (p = strstr(p, ".param")) && p < end && n < MAX_PARAMS) {
        const char *line_end = strchr(p, '\n');
        char decl[160];
        snprintf(decl, sizeof decl, "%.*s", (int)(line_end ? line_end - p : 100), p);
        const char *br = strchr(decl, '[');
        if (br)
            size[n] = (size_t)atoi(br + 1);
        else if (strstr(decl, "64"))
            size[n] = 8;
        else if (strstr(decl, "32"))
            size[n] = 4;
        else if (strstr(decl, "16"))
            size[n] = 2;
        else
            size[n] = 1;
        n++;
        p += 6;
    }
    return n;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, CUstream s, void **params, void **extra)
{
    (void)f, (void)s, (void)extra;
    size_t size[MAX_PARAMS];
    int n = param_sizes(size);
    const char *path = getenv("FAKE_CUDA_LOG");
    FILE *log = path ? fopen(path, "w") : stderr;
    if (!log)
        return CUDA_ERROR_UNKNOWN;
    fprintf(log, "launch %s grid %u %u %u block %u %u %u shared %u params %d\n", entry, gx, gy, gz, bx, by, bz, shared,
            n);
    CUresult r = CUDA_SUCCESS;
    for (int i = 0; i < n; i++) {
        if (!params[i]) {
            fprintf(log, "param %d missing\n", i);
            r = CUDA_ERROR_INVALID_VALUE;
            continue;
        }
        if (size[i] == 8) {
            uint64_t v;
            memcpy(&v, params[i], 8);
            int k = 0;
            while (k < nallocs && (uint64_t)(uintptr_t)allocs[k].p != v)
                k++;
            if (k < nallocs) {
                fprintf(log, "param %d ptr %zu bytes\n", i, allocs[k].n);
                continue;
            }
        }
        fprintf(log, "param %d %zu ", i, size[i]);
        for (size_t b = 0; b < size[i]; b++)
            fprintf(log, "%02x", ((const unsigned char *)params[i])[b]);
        fputc('\n', log);
    }
    if (log != stderr)
        fclose(log);
    return r;
}
