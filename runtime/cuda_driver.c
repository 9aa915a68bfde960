/* cuda_driver.c: the Driver API through dlopen, launch checks and sticky
 * errors (see cuda_driver.h for the contract).
 *
 * Entry points. cuda.h renames many functions with #defines (cuMemAlloc ->
 * cuMemAlloc_v2, cuMemcpyHtoD -> cuMemcpyHtoD_v2, cuDevicePrimaryCtxRelease
 * -> _v2, cuEventElapsedTime -> _v2 in 12.8+, ...); a program linked
 * against libcuda gets the versioned symbol through that macro, and dlsym
 * must ask for the same versioned name, or it gets the legacy ABI (32-bit
 * sizes for cuMemAlloc, for one). The table below lists the names a C
 * programmer writes and lets cuda.h's own macros produce the symbol (the
 * SYMBOL stringification expands them first), and types each pointer with
 * __typeof__ of cuda.h's declaration, so symbol and signature cannot drift
 * apart. Per-thread-default-stream variants (_ptds/_ptsz) are not used:
 * everything runs on the legacy default stream. With the 13.0 headers the
 * table resolves cuDeviceTotalMem_v2, cuDevicePrimaryCtxRelease_v2,
 * cuMemAlloc_v2, cuMemFree_v2, cuMemcpyHtoD_v2, cuMemcpyDtoH_v2,
 * cuMemsetD8_v2, cuEventElapsedTime_v2 and cuEventDestroy_v2, and the
 * unversioned rest (cuLaunchKernel, cuModuleLoadData, cuCtxSynchronize,
 * ...). One entry has a fallback: cuEventElapsedTime_v2 is new in 12.8,
 * older drivers only export cuEventElapsedTime, with the same signature.
 * cuGetProcAddress would do this mapping too, but only once a driver is
 * loaded, and a table is easier to check against cuda.h.
 *
 * Process state: only what the dynamic loader and the driver hold. Each
 * mt_cuda_open dlopens the driver (the loader refcounts it) and resolves
 * its own table; cuInit is process-wide and idempotent; the primary
 * context is refcounted by the driver. The library is never dlclosed: the
 * driver starts threads at cuInit that outlive any one handle, and
 * unloading its code under them would crash the process at exit.
 */
#include "cuda_driver.h"
#include "errbuf.h"

#include <cuda.h>
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* X(field, symbol, fallback symbol or NULL) */
#define DRIVER_FUNCS(X)                                                   \
    X(Init, cuInit, NULL)                                             \
    X(DriverGetVersion, cuDriverGetVersion, NULL)                     \
    X(GetErrorName, cuGetErrorName, NULL)                             \
    X(GetErrorString, cuGetErrorString, NULL)                         \
    X(DeviceGetCount, cuDeviceGetCount, NULL)                         \
    X(DeviceGet, cuDeviceGet, NULL)                                   \
    X(DeviceGetName, cuDeviceGetName, NULL)                           \
    X(DeviceGetAttribute, cuDeviceGetAttribute, NULL)                 \
    X(DeviceTotalMem, cuDeviceTotalMem, NULL)                         \
    X(PrimaryCtxRetain, cuDevicePrimaryCtxRetain, NULL)               \
    X(PrimaryCtxRelease, cuDevicePrimaryCtxRelease, NULL)             \
    X(CtxSetCurrent, cuCtxSetCurrent, NULL)                           \
    X(CtxSynchronize, cuCtxSynchronize, NULL)                         \
    X(MemAlloc, cuMemAlloc, NULL)                                     \
    X(MemFree, cuMemFree, NULL)                                       \
    X(MemcpyHtoD, cuMemcpyHtoD, NULL)                                 \
    X(MemcpyDtoH, cuMemcpyDtoH, NULL)                                 \
    X(MemsetD8, cuMemsetD8, NULL)                                     \
    X(ModuleLoadData, cuModuleLoadData, NULL)                         \
    X(ModuleUnload, cuModuleUnload, NULL)                             \
    X(ModuleGetFunction, cuModuleGetFunction, NULL)                   \
    X(FuncGetAttribute, cuFuncGetAttribute, NULL)                     \
    X(FuncSetAttribute, cuFuncSetAttribute, NULL)                     \
    X(OccupancyMaxActiveBlocks, cuOccupancyMaxActiveBlocksPerMultiprocessor, NULL) \
    X(LaunchKernel, cuLaunchKernel, NULL)                             \
    X(EventCreate, cuEventCreate, NULL)                               \
    X(EventRecord, cuEventRecord, NULL)                               \
    X(EventSynchronize, cuEventSynchronize, NULL)                     \
    X(EventElapsedTime, cuEventElapsedTime, "cuEventElapsedTime")     \
    X(EventDestroy, cuEventDestroy, NULL)

typedef struct Driver {
#define FIELD(field, sym, fallback) __typeof__(sym) *field;
    DRIVER_FUNCS(FIELD)
#undef FIELD
} Driver;

static const struct {
    const char *sym, *fallback;
    size_t offset;
} driver_syms[] = {
#define STRINGIFY(x) #x
#define SYMBOL(name) STRINGIFY(name) /* expands cuda.h's #define first */
#define ENTRY(field, sym, fallback) {SYMBOL(sym), fallback, offsetof(Driver, field)},
    DRIVER_FUNCS(ENTRY)
#undef ENTRY
#undef SYMBOL
#undef STRINGIFY
};

struct MtCudaFunc {
    CUfunction fn;
    char *symbol;
    MtCudaFuncInfo info;
    int dyn_smem_limit;         /* current CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */
    MtCudaFunc *next;
};

struct MtCudaModule {
    CUmodule mod;
    char *name;
    MtCudaFunc *funcs;
};

struct MtCuda {
    Driver d;
    CUdevice dev;
    CUcontext ctx;
    MtCudaDeviceInfo info;
    CUresult sticky;            /* CUDA_SUCCESS while the context is healthy */
    char sticky_msg[320];
    char last_kernel[128];      /* blamed for asynchronous faults */
};

bool mt_cuda_result_is_sticky(int r)
{
    /* The errors cuda.h documents as leaving the process in an
     * inconsistent state, where "any further CUDA work will return the
     * same error". */
    switch (r) {
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_NVLINK_UNCORRECTABLE:
    case CUDA_ERROR_CONTAINED:
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_TENSOR_MEMORY_LEAK:
    case CUDA_ERROR_EXTERNAL_DEVICE:
        return true;
    default:
        return false;
    }
}

static const char *result_name(const MtCuda *cu, CUresult r)
{
    const char *s = NULL;
    if (cu->d.GetErrorName(r, &s) != CUDA_SUCCESS || !s)
        return "CUDA_ERROR_UNRECOGNIZED";
    return s;
}

static const char *result_string(const MtCuda *cu, CUresult r)
{
    const char *s = NULL;
    if (cu->d.GetErrorString(r, &s) != CUDA_SUCCESS || !s)
        return "unrecognized error code";
    return s;
}

/* Turn a driver result into a status and message: "call(subject): NAME:
 * text". A sticky result also poisons the handle. */
static MtStatus check(MtCuda *cu, CUresult r, const char *call, const char *subject, char *err,
                      size_t errlen)
{
    if (r == CUDA_SUCCESS)
        return MT_OK;
    const char *name = result_name(cu, r);
    if (mt_cuda_result_is_sticky(r)) {
        cu->sticky = r;
        snprintf(cu->sticky_msg, sizeof cu->sticky_msg,
                 "CUDA context is unusable after %s in %s; restart the process", name,
                 cu->last_kernel[0] ? cu->last_kernel : call);
        mt_errf(err, errlen, "%s(%s): %s: %s; the CUDA context is now unusable", call, subject,
                name, result_string(cu, r));
        return MT_ERR_CUDA;
    }
    mt_errf(err, errlen, "%s(%s): %s: %s", call, subject, name, result_string(cu, r));
    return r == CUDA_ERROR_OUT_OF_MEMORY ? MT_ERR_NOMEM : MT_ERR_CUDA;
}

/* Every entry point but close starts here. */
static bool refuse(const MtCuda *cu, const char *call, char *err, size_t errlen)
{
    if (!cu) {
        mt_errf(err, errlen, "%s: no CUDA handle", call);
        return true;
    }
    if (cu->sticky != CUDA_SUCCESS) {
        mt_errf(err, errlen, "%s", cu->sticky_msg);
        return true;
    }
    return false;
}

/* ---- open / close ------------------------------------------------------------ */

/* MYTRITON_DEVICE, checked before the driver is touched so that a typo is
 * reported as such even on a machine without one. */
static MtStatus device_ordinal(int *ordinal, char *err, size_t errlen)
{
    const char *v = getenv("MYTRITON_DEVICE");
    *ordinal = 0;
    if (!v || !*v)
        return MT_OK;
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || *end || n < 0 || n > 1023) {
        mt_errf(err, errlen, "MYTRITON_DEVICE='%s' is not a device number (0, 1, ...)", v);
        return MT_ERR_USAGE;
    }
    *ordinal = (int)n;
    return MT_OK;
}

static MtStatus load_driver(Driver *d, char *err, size_t errlen)
{
    const char *lib = getenv("MYTRITON_LIBCUDA");
    if (!lib || !*lib)
        lib = "libcuda.so.1";
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        mt_errf(err, errlen,
                "no CUDA driver: %s could not be loaded (%s); GPU execution needs an NVIDIA "
                "driver \xe2\x80\x94 use --backend interp",
                lib, why ? why : "unknown reason");
        return MT_ERR_CUDA;
    }
    for (size_t i = 0; i < sizeof driver_syms / sizeof driver_syms[0]; i++) {
        void *p = dlsym(h, driver_syms[i].sym);
        if (!p && driver_syms[i].fallback)
            p = dlsym(h, driver_syms[i].fallback);
        if (!p) {
            mt_errf(err, errlen,
                    "CUDA driver %s lacks %s: the driver is older than this build needs (CUDA 12 "
                    "or later)", lib, driver_syms[i].sym);
            return MT_ERR_CUDA;
        }
        /* POSIX guarantees that dlsym's object pointer converts to a
         * function pointer; memcpy says so without a cast warning. */
        memcpy((char *)d + driver_syms[i].offset, &p, sizeof p);
    }
    return MT_OK;
}

static int attr(MtCuda *cu, CUdevice_attribute a)
{
    int v = 0;
    if (cu->d.DeviceGetAttribute(&v, a, cu->dev) != CUDA_SUCCESS)
        return 0;
    return v;
}

static MtStatus read_info(MtCuda *cu, char *err, size_t errlen)
{
    MtCudaDeviceInfo *in = &cu->info;
    MtStatus st;
    char subj[32];
    snprintf(subj, sizeof subj, "device %d", in->ordinal);
    if ((st = check(cu, cu->d.DeviceGetName(in->name, sizeof in->name, cu->dev),
                    "cuDeviceGetName", subj, err, errlen)) != MT_OK)
        return st;
    size_t mem = 0;
    if ((st = check(cu, cu->d.DeviceTotalMem(&mem, cu->dev), "cuDeviceTotalMem_v2", subj, err,
                    errlen)) != MT_OK)
        return st;
    in->total_mem = mem;
    if ((st = check(cu, cu->d.DriverGetVersion(&in->driver_version), "cuDriverGetVersion", subj,
                    err, errlen)) != MT_OK)
        return st;
    in->cc_major = attr(cu, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    in->cc_minor = attr(cu, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    in->sm_count = attr(cu, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    in->max_threads_per_block = attr(cu, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    in->max_block[0] = attr(cu, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
    in->max_block[1] = attr(cu, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
    in->max_block[2] = attr(cu, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
    in->max_grid[0] = attr(cu, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
    in->max_grid[1] = attr(cu, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
    in->max_grid[2] = attr(cu, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
    in->smem_per_block = attr(cu, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    in->smem_per_block_optin = attr(cu, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    in->smem_per_sm = attr(cu, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    in->regs_per_block = attr(cu, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    in->regs_per_sm = attr(cu, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    in->threads_per_sm = attr(cu, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    in->blocks_per_sm = attr(cu, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
    in->smem_reserved_per_block = attr(cu, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
    in->warp_size = attr(cu, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    in->l2_bytes = attr(cu, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    if (in->smem_per_block_optin < in->smem_per_block)
        in->smem_per_block_optin = in->smem_per_block;
    if (in->max_threads_per_block <= 0 || in->max_grid[0] <= 0) {
        mt_errf(err, errlen, "cuDeviceGetAttribute(device %d): the driver reported no launch limits",
                in->ordinal);
        return MT_ERR_CUDA;
    }
    return MT_OK;
}

MtStatus mt_cuda_open(MtCuda **out, char *err, size_t errlen)
{
    if (!out) {
        mt_errf(err, errlen, "mt_cuda_open: no output handle");
        return MT_ERR_USAGE;
    }
    *out = NULL;
    int ordinal;
    MtStatus st = device_ordinal(&ordinal, err, errlen);
    if (st != MT_OK)
        return st;
    MtCuda *cu = calloc(1, sizeof *cu);
    if (!cu) {
        mt_errf(err, errlen, "mt_cuda_open: out of memory");
        return MT_ERR_NOMEM;
    }
    cu->info.ordinal = ordinal;
    char subj[32];
    snprintf(subj, sizeof subj, "device %d", ordinal);
    int count = 0;
    if ((st = load_driver(&cu->d, err, errlen)) != MT_OK ||
        (st = check(cu, cu->d.Init(0), "cuInit", "0", err, errlen)) != MT_OK ||
        (st = check(cu, cu->d.DeviceGetCount(&count), "cuDeviceGetCount", "", err, errlen)) != MT_OK)
        goto fail;
    if (ordinal >= count) {
        mt_errf(err, errlen, "MYTRITON_DEVICE=%d, but the driver sees %d device%s", ordinal, count,
                count == 1 ? "" : "s");
        st = MT_ERR_USAGE;
        goto fail;
    }
    if ((st = check(cu, cu->d.DeviceGet(&cu->dev, ordinal), "cuDeviceGet", subj, err, errlen)) != MT_OK ||
        (st = read_info(cu, err, errlen)) != MT_OK ||
        (st = check(cu, cu->d.PrimaryCtxRetain(&cu->ctx, cu->dev), "cuDevicePrimaryCtxRetain", subj,
                    err, errlen)) != MT_OK)
        goto fail;
    if ((st = check(cu, cu->d.CtxSetCurrent(cu->ctx), "cuCtxSetCurrent", subj, err, errlen)) != MT_OK) {
        cu->d.PrimaryCtxRelease(cu->dev);
        goto fail;
    }
    *out = cu;
    return MT_OK;
fail:
    free(cu);
    return st;
}

void mt_cuda_close(MtCuda *cu)
{
    if (!cu)
        return;
    /* Unbind before the release, so this thread does not keep a context
     * the driver may destroy; both work on a poisoned context too. */
    cu->d.CtxSetCurrent(NULL);
    cu->d.PrimaryCtxRelease(cu->dev);
    free(cu);
}

MtStatus mt_cuda_make_current(MtCuda *cu, char *err, size_t errlen)
{
    if (refuse(cu, "cuCtxSetCurrent", err, errlen))
        return MT_ERR_CUDA;
    return check(cu, cu->d.CtxSetCurrent(cu->ctx), "cuCtxSetCurrent", cu->info.name, err, errlen);
}

const MtCudaDeviceInfo *mt_cuda_device_info(const MtCuda *cu) { return cu ? &cu->info : NULL; }

const char *mt_cuda_sticky_error(const MtCuda *cu)
{
    return cu && cu->sticky != CUDA_SUCCESS ? cu->sticky_msg : NULL;
}

/* ---- memory ------------------------------------------------------------------ */

MtStatus mt_cuda_alloc(MtCuda *cu, size_t bytes, MtDevPtr *out, char *err, size_t errlen)
{
    if (refuse(cu, "cuMemAlloc_v2", err, errlen))
        return MT_ERR_CUDA;
    char subj[48];
    snprintf(subj, sizeof subj, "%zu bytes", bytes);
    CUdeviceptr p = 0;
    MtStatus st = check(cu, cu->d.MemAlloc(&p, bytes), "cuMemAlloc_v2", subj, err, errlen);
    *out = st == MT_OK ? (MtDevPtr)p : 0;
    return st;
}

MtStatus mt_cuda_free(MtCuda *cu, MtDevPtr p, char *err, size_t errlen)
{
    if (refuse(cu, "cuMemFree_v2", err, errlen))
        return MT_ERR_CUDA;
    if (!p)
        return MT_OK;
    char subj[32];
    snprintf(subj, sizeof subj, "0x%llx", (unsigned long long)p);
    return check(cu, cu->d.MemFree((CUdeviceptr)p), "cuMemFree_v2", subj, err, errlen);
}

MtStatus mt_cuda_memcpy_htod(MtCuda *cu, MtDevPtr dst, const void *src, size_t bytes, char *err,
                             size_t errlen)
{
    if (refuse(cu, "cuMemcpyHtoD_v2", err, errlen))
        return MT_ERR_CUDA;
    char subj[48];
    snprintf(subj, sizeof subj, "%zu bytes", bytes);
    return check(cu, cu->d.MemcpyHtoD((CUdeviceptr)dst, src, bytes), "cuMemcpyHtoD_v2", subj, err,
                 errlen);
}

MtStatus mt_cuda_memcpy_dtoh(MtCuda *cu, void *dst, MtDevPtr src, size_t bytes, char *err,
                             size_t errlen)
{
    if (refuse(cu, "cuMemcpyDtoH_v2", err, errlen))
        return MT_ERR_CUDA;
    char subj[48];
    snprintf(subj, sizeof subj, "%zu bytes", bytes);
    return check(cu, cu->d.MemcpyDtoH(dst, (CUdeviceptr)src, bytes), "cuMemcpyDtoH_v2", subj, err,
                 errlen);
}

MtStatus mt_cuda_memset(MtCuda *cu, MtDevPtr dst, unsigned char value, size_t bytes, char *err,
                        size_t errlen)
{
    if (refuse(cu, "cuMemsetD8_v2", err, errlen))
        return MT_ERR_CUDA;
    char subj[48];
    snprintf(subj, sizeof subj, "%zu bytes", bytes);
    return check(cu, cu->d.MemsetD8((CUdeviceptr)dst, value, bytes), "cuMemsetD8_v2", subj, err,
                 errlen);
}

/* ---- modules and kernels ----------------------------------------------------------- */

MtStatus mt_cuda_module_load(MtCuda *cu, const void *image, const char *name, MtCudaModule **out,
                             char *err, size_t errlen)
{
    const char *nm = name && *name ? name : "module";
    *out = NULL;
    if (refuse(cu, "cuModuleLoadData", err, errlen))
        return MT_ERR_CUDA;
    if (!image) {
        mt_errf(err, errlen, "cuModuleLoadData(%s): no image", nm);
        return MT_ERR_USAGE;
    }
    MtCudaModule *m = calloc(1, sizeof *m);
    if (!m || !(m->name = strdup(nm))) {
        free(m);
        mt_errf(err, errlen, "cuModuleLoadData(%s): out of memory", nm);
        return MT_ERR_NOMEM;
    }
    CUresult r = cu->d.ModuleLoadData(&m->mod, image);
    MtStatus st = check(cu, r, "cuModuleLoadData", nm, err, errlen);
    if (st != MT_OK) {
        if (r == CUDA_ERROR_NO_BINARY_FOR_GPU || r == CUDA_ERROR_INVALID_IMAGE) {
            size_t n = err ? strlen(err) : 0;
            if (err && n < errlen)
                snprintf(err + n, errlen - n, " (the device is sm_%d%d; was the cubin built for it?)",
                         cu->info.cc_major, cu->info.cc_minor);
        }
        free(m->name);
        free(m);
        return st;
    }
    *out = m;
    return MT_OK;
}

MtStatus mt_cuda_module_unload(MtCuda *cu, MtCudaModule *m, char *err, size_t errlen)
{
    if (!m)
        return MT_OK;
    MtStatus st = MT_OK;
    /* A poisoned context cannot unload; the host side is freed regardless. */
    if (!refuse(cu, "cuModuleUnload", err, errlen))
        st = check(cu, cu->d.ModuleUnload(m->mod), "cuModuleUnload", m->name, err, errlen);
    else
        st = MT_ERR_CUDA;
    for (MtCudaFunc *f = m->funcs, *next; f; f = next) {
        next = f->next;
        free(f->symbol);
        free(f);
    }
    free(m->name);
    free(m);
    return st;
}

static int func_attr(MtCuda *cu, CUfunction f, CUfunction_attribute a)
{
    int v = 0;
    if (cu->d.FuncGetAttribute(&v, a, f) != CUDA_SUCCESS)
        return 0;
    return v;
}

MtStatus mt_cuda_module_function(MtCuda *cu, MtCudaModule *m, const char *symbol, MtCudaFunc **out,
                                 char *err, size_t errlen)
{
    *out = NULL;
    if (refuse(cu, "cuModuleGetFunction", err, errlen))
        return MT_ERR_CUDA;
    if (!m || !symbol) {
        mt_errf(err, errlen, "cuModuleGetFunction(%s): no module or no symbol", symbol ? symbol : "?");
        return MT_ERR_USAGE;
    }
    for (MtCudaFunc *f = m->funcs; f; f = f->next) {
        if (strcmp(f->symbol, symbol) == 0) {
            *out = f;
            return MT_OK;
        }
    }
    CUfunction fn;
    CUresult r = cu->d.ModuleGetFunction(&fn, m->mod, symbol);
    MtStatus st = check(cu, r, "cuModuleGetFunction", symbol, err, errlen);
    if (st != MT_OK) {
        if (r == CUDA_ERROR_NOT_FOUND) {
            size_t n = err ? strlen(err) : 0;
            if (err && n < errlen)
                snprintf(err + n, errlen - n, " in %s (C++ names are mangled unless declared extern \"C\")",
                         m->name);
        }
        return st;
    }
    MtCudaFunc *f = calloc(1, sizeof *f);
    if (!f || !(f->symbol = strdup(symbol))) {
        free(f);
        mt_errf(err, errlen, "cuModuleGetFunction(%s): out of memory", symbol);
        return MT_ERR_NOMEM;
    }
    f->fn = fn;
    f->info.num_regs = func_attr(cu, fn, CU_FUNC_ATTRIBUTE_NUM_REGS);
    f->info.static_smem = func_attr(cu, fn, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    f->info.local_bytes = func_attr(cu, fn, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    f->info.max_threads_per_block = func_attr(cu, fn, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    f->info.ptx_version = func_attr(cu, fn, CU_FUNC_ATTRIBUTE_PTX_VERSION);
    f->info.binary_version = func_attr(cu, fn, CU_FUNC_ATTRIBUTE_BINARY_VERSION);
    f->dyn_smem_limit = func_attr(cu, fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
    if (f->info.max_threads_per_block <= 0)
        f->info.max_threads_per_block = cu->info.max_threads_per_block;
    f->next = m->funcs;
    m->funcs = f;
    *out = f;
    return MT_OK;
}

const MtCudaFuncInfo *mt_cuda_func_info(const MtCudaFunc *fn) { return fn ? &fn->info : NULL; }

MtStatus mt_cuda_occupancy(MtCuda *cu, const MtCudaFunc *fn, int block_threads, size_t dynamic_smem, int *blocks,
                           char *err, size_t errlen)
{
    *blocks = 0;
    if (refuse(cu, "cuOccupancyMaxActiveBlocksPerMultiprocessor", err, errlen))
        return MT_ERR_CUDA;
    return check(cu, cu->d.OccupancyMaxActiveBlocks(blocks, fn->fn, block_threads, dynamic_smem),
                 "cuOccupancyMaxActiveBlocksPerMultiprocessor", fn->symbol, err, errlen);
}

/* The checks cuLaunchKernel would otherwise answer with a bare
 * CUDA_ERROR_INVALID_VALUE. Returns true (and the message) on a violation. */
static bool bad_launch(const MtCuda *cu, const MtCudaFunc *fn, const char *kname,
                       const unsigned grid[3], const unsigned block[3], unsigned shared,
                       char *err, size_t errlen)
{
    static const char dim[3] = {'x', 'y', 'z'};
    const MtCudaDeviceInfo *in = &cu->info;
    for (int i = 0; i < 3; i++) {
        if (grid[i] < 1 || block[i] < 1) {
            mt_errf(err, errlen,
                    "%s: grid %ux%ux%u, block %ux%ux%u: %s.%c = 0; every dimension must be at "
                    "least 1; cuLaunchKernel not called",
                    kname, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                    grid[i] < 1 ? "grid" : "block", dim[i]);
            return true;
        }
    }
    /* The thread count first: it is the limit people hit (1025 threads is
     * "too many threads", not "block.x too large"). */
    unsigned long long threads = (unsigned long long)block[0] * block[1] * block[2];
    if (threads > (unsigned long long)in->max_threads_per_block) {
        mt_errf(err, errlen,
                "%s: block %ux%ux%u has %llu threads, more than the %d per block that %s allows; "
                "cuLaunchKernel not called",
                kname, block[0], block[1], block[2], threads, in->max_threads_per_block, in->name);
        return true;
    }
    for (int i = 0; i < 3; i++) {
        if (block[i] > (unsigned)in->max_block[i]) {
            mt_errf(err, errlen,
                    "%s: block %ux%ux%u: block.%c = %u is outside 1..%d on %s; cuLaunchKernel not called",
                    kname, block[0], block[1], block[2], dim[i], block[i], in->max_block[i], in->name);
            return true;
        }
        if (grid[i] > (unsigned)in->max_grid[i]) {
            mt_errf(err, errlen,
                    "%s: grid %ux%ux%u: grid.%c = %u is outside 1..%d on %s; cuLaunchKernel not called",
                    kname, grid[0], grid[1], grid[2], dim[i], grid[i], in->max_grid[i], in->name);
            return true;
        }
    }
    if (threads > (unsigned long long)fn->info.max_threads_per_block) {
        mt_errf(err, errlen,
                "%s: block %ux%ux%u has %llu threads, but this kernel allows at most %d (it uses %d "
                "registers per thread); cuLaunchKernel not called",
                kname, block[0], block[1], block[2], threads, fn->info.max_threads_per_block,
                fn->info.num_regs);
        return true;
    }
    unsigned long long smem = (unsigned long long)shared + (unsigned)fn->info.static_smem;
    if (smem > (unsigned long long)in->smem_per_block_optin) {
        mt_errf(err, errlen,
                "%s: %u bytes of dynamic + %d of static shared memory exceed the %d bytes per block "
                "of %s; cuLaunchKernel not called",
                kname, shared, fn->info.static_smem, in->smem_per_block_optin, in->name);
        return true;
    }
    return false;
}

MtStatus mt_cuda_launch(MtCuda *cu, MtCudaFunc *fn, const char *kernel_name,
                        const unsigned grid[3], const unsigned block[3], unsigned shared_bytes,
                        void **params, char *err, size_t errlen)
{
    return mt_cuda_launch_stream(cu, fn, kernel_name, grid, block, shared_bytes, NULL, params, err, errlen);
}

MtStatus mt_cuda_launch_stream(MtCuda *cu, MtCudaFunc *fn, const char *kernel_name, const unsigned grid[3],
                               const unsigned block[3], unsigned shared_bytes, void *stream, void **params,
                               char *err, size_t errlen)
{
    if (refuse(cu, "cuLaunchKernel", err, errlen))
        return MT_ERR_CUDA;
    if (!fn || !grid || !block) {
        mt_errf(err, errlen, "cuLaunchKernel(%s): no kernel, grid or block",
                kernel_name ? kernel_name : "?");
        return MT_ERR_USAGE;
    }
    const char *kname = kernel_name && *kernel_name ? kernel_name : fn->symbol;
    if (bad_launch(cu, fn, kname, grid, block, shared_bytes, err, errlen))
        return MT_ERR_USAGE;
    if ((int)shared_bytes > fn->dyn_smem_limit) {
        /* Past the default 48 KiB a kernel must opt in; do it once, for
         * the largest size asked so far. */
        MtStatus st = check(cu, cu->d.FuncSetAttribute(fn->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                       (int)shared_bytes),
                            "cuFuncSetAttribute", kname, err, errlen);
        if (st != MT_OK)
            return st;
        fn->dyn_smem_limit = (int)shared_bytes;
    }
    size_t n = strlen(kname);
    if (n >= sizeof cu->last_kernel)
        n = sizeof cu->last_kernel - 1;
    memcpy(cu->last_kernel, kname, n);
    cu->last_kernel[n] = '\0';
    CUresult r = cu->d.LaunchKernel(fn->fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                    shared_bytes, (CUstream)stream, params, NULL);
    if (r == CUDA_SUCCESS)
        return MT_OK;
    return check(cu, r, "cuLaunchKernel", kname, err, errlen);
}

MtStatus mt_cuda_synchronize(MtCuda *cu, char *err, size_t errlen)
{
    if (refuse(cu, "cuCtxSynchronize", err, errlen))
        return MT_ERR_CUDA;
    CUresult r = cu->d.CtxSynchronize();
    if (r == CUDA_SUCCESS)
        return MT_OK;
    char subj[160];
    if (cu->last_kernel[0])
        snprintf(subj, sizeof subj, "after %s", cu->last_kernel);
    else
        snprintf(subj, sizeof subj, "no kernel launched");
    return check(cu, r, "cuCtxSynchronize", subj, err, errlen);
}

/* ---- events ---------------------------------------------------------------------- */

MtStatus mt_cuda_event_create(MtCuda *cu, MtCudaEvent **out, char *err, size_t errlen)
{
    *out = NULL;
    if (refuse(cu, "cuEventCreate", err, errlen))
        return MT_ERR_CUDA;
    CUevent ev;
    MtStatus st = check(cu, cu->d.EventCreate(&ev, CU_EVENT_DEFAULT), "cuEventCreate", "timing", err,
                        errlen);
    if (st == MT_OK)
        *out = (MtCudaEvent *)ev;
    return st;
}

MtStatus mt_cuda_event_record(MtCuda *cu, MtCudaEvent *ev, char *err, size_t errlen)
{
    if (refuse(cu, "cuEventRecord", err, errlen))
        return MT_ERR_CUDA;
    return check(cu, cu->d.EventRecord((CUevent)ev, NULL), "cuEventRecord", "default stream", err,
                 errlen);
}

MtStatus mt_cuda_event_elapsed(MtCuda *cu, MtCudaEvent *start, MtCudaEvent *end, float *ms,
                               char *err, size_t errlen)
{
    *ms = 0;
    if (refuse(cu, "cuEventElapsedTime", err, errlen))
        return MT_ERR_CUDA;
    char subj[160];
    snprintf(subj, sizeof subj, "after %s", cu->last_kernel[0] ? cu->last_kernel : "no kernel");
    MtStatus st = check(cu, cu->d.EventSynchronize((CUevent)end), "cuEventSynchronize", subj, err,
                        errlen);
    if (st != MT_OK)
        return st;
    return check(cu, cu->d.EventElapsedTime(ms, (CUevent)start, (CUevent)end), "cuEventElapsedTime",
                 subj, err, errlen);
}

void mt_cuda_event_destroy(MtCuda *cu, MtCudaEvent *ev)
{
    if (cu && ev)
        cu->d.EventDestroy((CUevent)ev);
}
