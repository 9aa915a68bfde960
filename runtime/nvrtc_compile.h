/* nvrtc_compile.h: CUDA C++ -> PTX and cubin with NVRTC, in one compile.
 *
 * The CUDA backend emits one CUDA C++ translation unit per specialised
 * kernel; this module turns it into the two artefacts the tools need: PTX
 * (`mytriton compile --emit ptx`, the dashboard's PTX view) and a cubin for
 * sm_XX (`--emit cubin`, and what the Driver API loads). No GPU or driver is
 * involved, so this runs in CI and in the LSP.
 *
 * One compile gives both: NVRTC 12 and later, asked for a real architecture
 * (`--gpu-architecture=sm_90`), keeps the PTX it generated on the way to the
 * cubin, so nvrtcGetPTX and nvrtcGetCUBIN both answer after a single
 * nvrtcCompileProgram. A second compile for compute_XX would double the cost
 * for the same PTX text. If a future NVRTC stopped returning one of the two,
 * mt_nvrtc_compile fails loudly rather than returning half an output.
 *
 * Thread-safe: each call owns its nvrtcProgram; nothing is shared.
 */
#ifndef MT_RUNTIME_NVRTC_COMPILE_H
#define MT_RUNTIME_NVRTC_COMPILE_H

#include <stdbool.h>
#include <stddef.h>

#include <mytriton/mytriton.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Everything one compile produced; heap-owned, freed by mt_nvrtc_output_free.
 * After a failed compile only `log` may be set (the NVRTC log, for display). */
typedef struct MtNvrtcOutput {
    char *ptx;          /* NUL-terminated PTX text, or NULL */
    size_t ptx_len;     /* bytes, without the NUL */
    void *cubin;        /* ELF image for sm_XX, or NULL */
    size_t cubin_len;
    char *log;          /* NUL-terminated NVRTC log ("" when NVRTC said nothing), or NULL */
    size_t log_len;
    int sm;             /* the architecture it was compiled for, e.g. 90 */
} MtNvrtcOutput;

/* The options every compile gets, before the caller's: `-default-device`
 * (kernels need no __device__ on helpers), `--std=c++17`, `-lineinfo` (so
 * profilers and compute-sanitizer can map SASS back to generated lines). */
extern const char *const mt_nvrtc_default_opts[];
extern const size_t mt_nvrtc_ndefault_opts;

/* Compile `src` (named `program_name` in the log, e.g. "add_kernel.cu") for
 * sm_<sm>. `extra_opts` are appended after the defaults (`-DBLOCK=256`,
 * `--use_fast_math`, ...); they may not name an architecture
 * (`--gpu-architecture`, `-arch`): that is `sm`'s job, and two would make
 * the cache key lie. On success fills *out (caller frees) and returns MT_OK.
 * On a compile error returns MT_ERR_SOURCE; `err` holds
 * "nvrtcCompileProgram(<name>): NVRTC_ERROR_COMPILATION" followed by the log,
 * and out->log the whole log. Other failures are MT_ERR_USAGE (bad
 * arguments), MT_ERR_NOMEM or MT_ERR_CUDA, each with a message naming the
 * failing call and the program. */
MtStatus mt_nvrtc_compile(const char *src, const char *program_name, int sm,
                          const char *const *extra_opts, size_t nopts,
                          MtNvrtcOutput *out, char *err, size_t errlen);

/* Free what *out holds and zero it; safe on a zeroed or already-freed output. */
void mt_nvrtc_output_free(MtNvrtcOutput *out);

/* The linked NVRTC's version (e.g. 13, 0). Part of the compile-cache key. */
MtStatus mt_nvrtc_version(int *major, int *minor);

/* Find the first error in an NVRTC log. Log lines look like
 *   add_kernel.cu(12): error: identifier "x" is undefined
 * (also "catastrophic error", "fatal error", and option errors with no
 * line, "nvrtc: error: invalid value for --gpu-architecture (-arch)").
 * Sets *line to the 1-based line in the generated source (0 when the error
 * has none) and copies the message after "error: " into msg (truncated to
 * msglen). Returns false when the log holds no error. */
bool mt_nvrtc_first_error(const char *log, int *line, char *msg, size_t msglen);

#ifdef __cplusplus
}
#endif

#endif
