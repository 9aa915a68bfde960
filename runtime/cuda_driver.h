/* cuda_driver.h: the CUDA Driver API, loaded at run time.
 *
 * libcuda.so.1 is opened with dlopen on mt_cuda_open, never linked, so every
 * mytriton binary starts, compiles and interprets on machines with no
 * NVIDIA driver; there, mt_cuda_open fails with one clear message and the
 * caller falls back to the interpreter.
 *
 * An MtCuda is one device's primary context plus the resolved entry points,
 * the device's limits, and the record of a "sticky" error. Launches are
 * checked against the device and kernel limits before the driver is called,
 * so a bad block size is reported as such and not as an opaque
 * CUDA_ERROR_INVALID_VALUE. After an error that poisons the context
 * (illegal address, launch failure, ...) every later call on the handle is
 * refused with a message naming the error and the kernel, instead of
 * returning garbage from a dead context.
 *
 * Threads: the driver is thread-safe, but an MtCuda is not: use it from one
 * thread at a time. Its context is made current on the opening thread;
 * another thread calls mt_cuda_make_current before its first call.
 *
 * Every call returns an MtStatus and, on failure, a message in the caller's
 * buffer naming the driver call and the kernel or object involved, e.g.
 * "cuLaunchKernel(add_kernel): CUDA_ERROR_INVALID_VALUE: invalid argument".
 */
#ifndef MT_RUNTIME_CUDA_DRIVER_H
#define MT_RUNTIME_CUDA_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mytriton/mytriton.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct MtCuda MtCuda;
typedef struct MtCudaModule MtCudaModule;
typedef struct MtCudaFunc MtCudaFunc;
typedef struct MtCudaEvent MtCudaEvent;
typedef uint64_t MtDevPtr;              /* a CUdeviceptr */

typedef struct MtCudaDeviceInfo {
    char name[256];
    int ordinal;                        /* 0, or MYTRITON_DEVICE */
    int cc_major, cc_minor;             /* compute capability, 9.0 on H100/H200 */
    int sm_count;
    size_t total_mem;                   /* bytes */
    int max_threads_per_block;
    int max_block[3];                   /* per-dimension block limits */
    int max_grid[3];
    int smem_per_block;                 /* default limit, bytes (48 KiB) */
    int smem_per_block_optin;           /* with the opt-in attribute (227 KiB on sm_90) */
    int smem_per_sm;
    int regs_per_block;
    int regs_per_sm;                    /* the occupancy limits (web/occupancy.c) */
    int threads_per_sm;
    int blocks_per_sm;
    int smem_reserved_per_block;        /* bytes the driver keeps per block (1 KiB from sm_80) */
    int warp_size;
    int l2_bytes;
    int driver_version;                 /* cuDriverGetVersion: 13000 for CUDA 13.0 */
} MtCudaDeviceInfo;

/* What the driver says about a loaded kernel (cuFuncGetAttribute). */
typedef struct MtCudaFuncInfo {
    int num_regs;                       /* registers per thread */
    int static_smem;                    /* bytes of __shared__ declared in the kernel */
    int local_bytes;                    /* spill/stack per thread */
    int max_threads_per_block;          /* limit for this kernel (registers can lower it) */
    int ptx_version, binary_version;    /* e.g. 90, 90 */
} MtCudaFuncInfo;

/* ---- handle --------------------------------------------------------------- */

/* Load the driver, cuInit, pick device MYTRITON_DEVICE (default 0), retain
 * its primary context and make it current. Environment:
 * MYTRITON_LIBCUDA names another driver library to dlopen (tests use a
 * missing name to see the no-driver path on a GPU machine). Without a
 * driver the message is "no CUDA driver: libcuda.so.1 could not be loaded
 * (<dlerror>); GPU execution needs an NVIDIA driver — use --backend interp". */
MtStatus mt_cuda_open(MtCuda **out, char *err, size_t errlen);
/* Release the primary context. The library stays loaded: see cuda_driver.c. */
void mt_cuda_close(MtCuda *cu);
MtStatus mt_cuda_make_current(MtCuda *cu, char *err, size_t errlen);
const MtCudaDeviceInfo *mt_cuda_device_info(const MtCuda *cu);

/* The sticky error's message, or NULL while the context is healthy. */
const char *mt_cuda_sticky_error(const MtCuda *cu);
/* Whether a CUresult leaves the context unusable (CUDA_ERROR_ILLEGAL_ADDRESS,
 * _LAUNCH_FAILED, _ILLEGAL_INSTRUCTION, _MISALIGNED_ADDRESS,
 * _HARDWARE_STACK_ERROR, ...). */
bool mt_cuda_result_is_sticky(int cuda_result);

/* ---- memory --------------------------------------------------------------- */

MtStatus mt_cuda_alloc(MtCuda *cu, size_t bytes, MtDevPtr *out, char *err, size_t errlen);
MtStatus mt_cuda_free(MtCuda *cu, MtDevPtr p, char *err, size_t errlen);
MtStatus mt_cuda_memcpy_htod(MtCuda *cu, MtDevPtr dst, const void *src, size_t bytes,
                             char *err, size_t errlen);
MtStatus mt_cuda_memcpy_dtoh(MtCuda *cu, void *dst, MtDevPtr src, size_t bytes,
                             char *err, size_t errlen);
MtStatus mt_cuda_memset(MtCuda *cu, MtDevPtr dst, unsigned char value, size_t bytes,
                        char *err, size_t errlen);

/* ---- modules and kernels ---------------------------------------------------- */

/* Load a cubin (or NUL-terminated PTX, which the driver JITs) with
 * cuModuleLoadData; `name` names it in messages. */
MtStatus mt_cuda_module_load(MtCuda *cu, const void *image, const char *name,
                             MtCudaModule **out, char *err, size_t errlen);
/* Unload the module and free the MtCudaFunc handles taken from it. */
MtStatus mt_cuda_module_unload(MtCuda *cu, MtCudaModule *m, char *err, size_t errlen);
/* Look up a kernel by its symbol (an extern "C" name, or the mangled one).
 * The handle belongs to the module; asking twice returns the same one. */
MtStatus mt_cuda_module_function(MtCuda *cu, MtCudaModule *m, const char *symbol,
                                 MtCudaFunc **out, char *err, size_t errlen);
const MtCudaFuncInfo *mt_cuda_func_info(const MtCudaFunc *fn);
/* The most blocks of `block_threads` threads (and `dynamic_smem` bytes of
 * dynamic shared memory) of fn that one SM holds at once, as the driver
 * computes it (cuOccupancyMaxActiveBlocksPerMultiprocessor: the kernel's
 * registers, shared memory and the SM's limits). */
MtStatus mt_cuda_occupancy(MtCuda *cu, const MtCudaFunc *fn, int block_threads, size_t dynamic_smem, int *blocks,
                           char *err, size_t errlen);

/* Launch on the default stream, asynchronously. `kernel_name` names the
 * kernel in messages (the source-level name; NULL uses the symbol). Before
 * the driver is called: every grid and block dimension >= 1 and within the
 * device limits, the block's thread count within the device's and this
 * kernel's maximum, static + dynamic shared memory within the opt-in limit.
 * Dynamic shared memory above the default 48 KiB is opted into
 * (cuFuncSetAttribute) on the kernel's first such launch. */
MtStatus mt_cuda_launch(MtCuda *cu, MtCudaFunc *fn, const char *kernel_name,
                        const unsigned grid[3], const unsigned block[3], unsigned shared_bytes,
                        void **params, char *err, size_t errlen);
/* The same on `stream` (a CUstream; NULL: the default stream), for
 * callers that order kernels on their own streams (the Python package
 * launches on torch's current stream). */
MtStatus mt_cuda_launch_stream(MtCuda *cu, MtCudaFunc *fn, const char *kernel_name, const unsigned grid[3],
                               const unsigned block[3], unsigned shared_bytes, void *stream, void **params,
                               char *err, size_t errlen);
/* Wait for all work; an asynchronous kernel fault surfaces here and names
 * the last kernel launched. */
MtStatus mt_cuda_synchronize(MtCuda *cu, char *err, size_t errlen);

/* ---- events (the timing fallback) --------------------------------------------- */

MtStatus mt_cuda_event_create(MtCuda *cu, MtCudaEvent **out, char *err, size_t errlen);
MtStatus mt_cuda_event_record(MtCuda *cu, MtCudaEvent *ev, char *err, size_t errlen);
/* Wait for `end`, then the milliseconds between the two records. */
MtStatus mt_cuda_event_elapsed(MtCuda *cu, MtCudaEvent *start, MtCudaEvent *end, float *ms,
                               char *err, size_t errlen);
void mt_cuda_event_destroy(MtCuda *cu, MtCudaEvent *ev);

#ifdef __cplusplus
}
#endif

#endif
