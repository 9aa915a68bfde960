/* run.h: running a launch, as a library.
 *
 * One call does what `mytriton run` does: read a launch spec (or take one
 * as text, or take a kernel already compiled and bound), apply overrides,
 * compile the kernel, bind its arguments, run it on the CPU interpreter or
 * the GPU, compare the outputs with saved references (--expect) or with
 * the interpreter (--compare), time it (--profile), save the arrays
 * (--dump), and hand back everything as one MtRunResult: the kernel and
 * its signature, the grid, timings, the device, every array argument
 * (dtype, shape, summary statistics, hash, comparisons), and the
 * diagnostics. mt_run_result_json() gives its JSON form (docs/runtime.md
 * has the schema), which `mytriton run --format json` prints and
 * `mytriton worker` answers with. The CLI and the dashboard (through the
 * worker) run launches through here; none prints while running. The
 * Python package's `kernel[grid](...)` does not: a launch there is one
 * call from Python on arrays it already holds, so it binds and launches
 * directly (python/src: mt_interpret on the CPU, mt_cuda_launch_stream on
 * the GPU), and its errors become Python exceptions.
 *
 *     MtRunRequest req = {.spec_path = "examples/add_kernel.json"};
 *     MtRunOptions opt = {.backend = MT_RUN_INTERP};
 *     MtRunResult *r = mt_run(&req, &opt);
 *     for (size_t i = 0; i < r->ndiags; i++) fputs(r->diags[i].rendered, stderr);
 *     char *json = mt_run_result_json(r, true);
 *     ...
 *     free(json);
 *     mt_run_result_free(r);
 *
 * Errors. Everything that goes wrong is an MtRunDiag in the result, in one
 * model: a severity, a rule code (docs/rules/: R0701-R0707, W0804, W0805,
 * or the compiler's codes for the kernel's source), the message, and
 * where it applies: a file and a range in it (the kernel source for
 * compile errors and faults; the launch spec for a wrong field, located in
 * the spec's text), and the spec field path ("args.x.shape[0]"). Each is
 * also rendered the way the compiler renders its diagnostics:
 *
 *     spec.json:6:5: error: args.x: float32 array expected for parameter x (*fp32), got int32 [R0704]
 *      6 |     "x": {"dtype": "int32", "shape": [1000]},
 *        |     ^~~
 *
 * The outcome sums it up, and maps one to one to `mytriton`'s exit status
 * (docs/cli.md): MT_RUN_OK 0, MT_RUN_MISMATCH and MT_RUN_FAILED 1,
 * MT_RUN_TROUBLE 2.
 *
 * Threads: a call uses no global state but the CUDA driver's and CUPTI's
 * (the profiler serialises itself); calls may run on several threads,
 * each with its own request. Nothing is written but --dump's files and the
 * kernel cache.
 */
#ifndef MT_RUNTIME_RUN_H
#define MT_RUNTIME_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare.h"
#include "kcache.h"
#include "launch_spec.h"
#include "mytriton/mytriton.h"
#include "npy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- what to run -------------------------------------------------------------- */

/* A launch spec and the kernel's source. Every field may be left zero but
 * one of spec_path and spec_json. */
typedef struct MtRunRequest {
    const char *spec_path;    /* read the spec from this file; with spec_json: its name in messages */
    const char *spec_json;    /* the spec's text itself */
    const char *base_dir;     /* with spec_json: where its relative paths start (NULL: the current folder) */
    /* The kernel's source, instead of the spec's "source": its text (an
     * editor's buffer, source_path naming it) or a file to read. */
    const char *source_text;
    size_t source_len;
    const char *source_path;
    const char *const *sets;  /* "NAME=VALUE" overrides of scalars and constexprs (--set), in order */
    size_t nsets;
} MtRunRequest;

typedef enum MtRunBackend {
    MT_RUN_INTERP,            /* the CPU interpreter */
    MT_RUN_CUDA,              /* the GPU: NVRTC (cached) and the Driver API */
} MtRunBackend;

typedef struct MtRunOptions {
    MtRunBackend backend;
    int threads;              /* interpreter threads; 0: up to one per core, fewer for small launches */
    bool compare;             /* CUDA: also run the interpreter on the same inputs and compare every array */
    int profile;              /* CUDA: time this many launches after 3 warm-up ones (CUPTI, else events); 0: none */
    int lowering;             /* MT_LOWERING_* (0: the default): the GPU's code, and the layout that says
                               * how many CUDA threads a program takes */
    int num_warps;            /* warps per program for the fast lowering; 0: chosen from the block sizes */
    int num_stages;           /* the fast lowering's software pipelining (MtSpec.num_stages); 0: the default */
    int codegen;              /* CUDA: MT_CODEGEN_* (0: CUDA C++ and NVRTC; MLIR: MLIR's GPU pipeline) */
    const char *ptx_path;     /* CUDA with MT_CODEGEN_MLIR: run this PTX, made earlier for the kernel */
    const char *expect_dir;   /* compare every array that has EXPECT_DIR/NAME.npy; NULL: none */
    const char *dump_dir;     /* write every array to DUMP_DIR/NAME.npy after the run; NULL: none */
    bool has_rtol, has_atol;  /* tolerances for both checks: these, else the spec's, else 1e-5 and 1e-6 */
    double rtol, atol;
    bool keep_arrays;         /* keep each array's data after the run in the result (MtRunArray.array) */
    MtKcache *cache;          /* the kernel cache to use; NULL: the default one, opened for the call */
} MtRunOptions;

/* ---- what came of it ------------------------------------------------------------ */

typedef enum MtRunOutcome {
    MT_RUN_OK,                /* ran; every check passed */
    MT_RUN_MISMATCH,          /* ran; an array differs from its reference (--expect, --compare) */
    MT_RUN_FAILED,            /* the inputs are wrong: the spec, the source, a runtime fault, a kernel the GPU rejects */
    MT_RUN_TROUBLE,           /* could not run as asked: a file, an option, no GPU, no memory */
} MtRunOutcome;

/* "ok", "mismatch", "failed", "trouble"; and the exit status of each. */
const char *mt_run_outcome_name(MtRunOutcome o);
int mt_run_exit_status(MtRunOutcome o);

typedef struct MtRunDiag {
    MtSeverity severity;
    const char *code;         /* rule code (docs/rules/), e.g. "R0704"; NULL for none */
    char *message;            /* what is wrong, without the location */
    char *file;               /* the file it is about (the spec, the kernel source), or NULL */
    char *field;              /* the spec field path ("args.x", "grid[0]"), or NULL */
    uint32_t line, col;       /* its place in `file` (1-based, columns in bytes); 0 when not known */
    uint32_t end_line, end_col; /* exclusive end */
    char *rendered;           /* "file:line:col: error: [field: ]message [CODE]", the line and a caret, '\n'-ended */
    char *rendered_color;     /* the same with terminal colours */
} MtRunDiag;

/* A comparison of one array with a reference. */
typedef struct MtRunCheck {
    bool done;                /* the array was compared */
    char *reference;          /* what it was compared with: EXPECT_DIR/NAME.npy, or "interp" */
    MtCompareResult r;        /* r.ok; otherwise the mismatch: counts, largest errors, first index */
} MtRunCheck;

typedef struct MtRunArray {
    char *name;               /* the parameter */
    char *type;               /* its kernel type, "*fp32" */
    MtDtype dtype;
    int ndim;
    int64_t shape[MT_ARRAY_MAX_DIMS];
    int64_t numel;
    size_t nbytes;
    char *input;              /* the .npy file it was read from, or NULL (generated, or the caller's) */
    bool written;             /* the run changed its bytes */
    MtArrayStats stats;       /* after the run: sum, min, max, mean, NaNs, infinities, FNV-1a hash */
    char preview[256];        /* "[1.0, 2.0, 3.0, ..., 999.0]" */
    MtRunCheck expect;        /* against EXPECT_DIR/NAME.npy */
    MtRunCheck compare;       /* the GPU's against the interpreter's */
    char *dumped;             /* the file --dump wrote, or NULL */
    MtArray *array;           /* its data after the run (MtRunOptions.keep_arrays), owned by the result */
} MtRunArray;

typedef struct MtRunProfile {
    size_t n;                 /* timed launches */
    uint64_t *ns;             /* each one's kernel time, launch order */
    uint64_t min_ns, median_ns, max_ns;
    double mean_ns;
    char timer[16];           /* "cupti" or "cuda-events" */
    char note[256];           /* why events were used, or "" */
    double gbps, gflops;      /* from the spec's bytes and flops over the median; 0 when not given */
} MtRunProfile;

typedef struct MtRunDevice {
    bool used;                /* the run was on a GPU */
    char name[256];
    int cc_major, cc_minor;
    int sm_count;
    uint64_t memory;          /* bytes */
    int driver_version;       /* 13000 for CUDA 13.0 */
    int registers;            /* per thread, of the loaded kernel (cuFuncGetAttribute) */
    int shared_bytes;         /* static shared memory per block */
    int local_bytes;          /* local memory per thread (stack, spills) */
    int max_threads_per_block; /* the loaded kernel's limit */
    int blocks_per_sm;        /* resident blocks per SM (cuOccupancyMaxActiveBlocksPerMultiprocessor); 0: unknown */
    const char *code;         /* what was loaded: "cubin", or "MLIR ptx" */
    const char *cubin;        /* where it came from: "compiled", "memory cache", "disk cache", or the --ptx file */
} MtRunDevice;

typedef struct MtRunResult {
    MtRunOutcome outcome;
    bool ran;                 /* the kernel ran to the end (the arrays below are its results) */
    char *spec_path;          /* the spec's file, or NULL */
    char *source_path;        /* the kernel's source */
    char *kernel;             /* its name, once known */
    char *signature;          /* the resolved specialisation, once compiled */
    MtRunBackend backend;
    int64_t grid[3];          /* once bound */
    int grid_dims;
    int64_t programs;
    int cuda_threads;         /* CUDA threads per program (the kernel's layout); 0 without a layout */
    int programs_per_block;   /* programs one CUDA block runs (the fast lowering packs small ones); 1 otherwise */
    int threads;              /* interpreter: the most threads it uses (the request, or min(cores, programs)) */
    bool threads_auto;        /* the interpreter chose (fewer for small launches) */
    double compile_ms, bind_ms, run_ms, total_ms;
    int64_t bytes, flops;     /* the spec's counts; -1 when not given */
    bool profiled;
    MtRunProfile profile;
    MtRunDevice device;
    MtRunArray *arrays;       /* every array argument, in kernel order */
    size_t narrays;
    double rtol, atol;        /* the tolerances both checks used */
    int expected;             /* arrays compared with --expect */
    int compared;             /* arrays compared with the interpreter */
    int mismatches;           /* arrays that differ, over both checks */
    MtRunDiag *diags;         /* errors and warnings, in the order they arose */
    size_t ndiags;
    char *printed;            /* the interpreter's tl.device_print lines, in program order; NULL: none */
} MtRunResult;

/* ---- running ------------------------------------------------------------------- */

/* Read the spec, apply req->sets, read and parse the source, pick the
 * kernel (the spec's, or the file's only one), derive the signature,
 * compile (through CUDA for the GPU), bind the arguments, and run as
 * opt says. NULL only when memory runs out for the result itself. */
MtRunResult *mt_run(const MtRunRequest *req, const MtRunOptions *opt);

/* Run a kernel the caller compiled (through MT_STAGE_SSA, or
 * MT_STAGE_CUDA for the GPU) in context c with a launch it bound (the
 * arrays are the caller's and hold the results afterwards). `spec` (may be
 * NULL) gives tolerances and names the spec in messages. */
MtRunResult *mt_run_launch(MtCtx *c, MtCompiled *k, MtLaunch *launch, const MtLaunchSpec *spec,
                           const MtRunOptions *opt);

/* The result as JSON (docs/runtime.md): a malloc'ed string, NULL when out
 * of memory. `pretty`: indented over several lines; else one line (the
 * worker's protocol). */
char *mt_run_result_json(const MtRunResult *r, bool pretty);

void mt_run_result_free(MtRunResult *r);

#ifdef __cplusplus
}
#endif

#endif
