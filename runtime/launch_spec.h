/* launch_spec.h: what `mytriton run` launches, and how.
 *
 * A launch is a kernel, its specialisation, a grid and the argument
 * buffers. A launch spec is that, written down as JSON (docs/launch-spec.md
 * has the format field by field):
 *
 *   {"source": "add_kernel.py", "kernel": "add_kernel",
 *    "grid": ["cdiv(n, BLOCK)"], "constexprs": {"BLOCK": 256},
 *    "args": {"x": {"npy": "x.npy"},
 *             "y": {"dtype": "float32", "shape": [1000], "init": "uniform"},
 *             "out": {"dtype": "float32", "shape": [1000], "init": "zeros"},
 *             "n": 1000}}
 *
 * The life of a spec:
 *   mt_launch_spec_load()       read and check it (nothing is loaded yet)
 *   mt_launch_spec_set()        --set NAME=VALUE overrides
 *   mt_launch_spec_signature()  the signature to compile with, when the
 *                               spec gives none
 *   mt_launch_bind()            against the compiled kernel's parameter
 *                               list: load or generate arrays, check every
 *                               argument's type, evaluate the grid
 * and the resulting MtLaunch is what the CPU interpreter and the GPU
 * runtime both take.
 *
 * Errors come back as MT_ERR_USAGE (the spec is wrong), MT_ERR_IO (a file
 * cannot be read) or MT_ERR_NOMEM, and as an MtSpecError: the field it is
 * about ("args.y.shape[0]"), what is wrong, and the one-line text
 *   args.y.shape[0]: expected a positive integer, got -3
 *   spec.json:3:12: invalid JSON near '}'
 * The run library (run.h) turns it into a diagnostic that points into the
 * spec's text. A failed call leaves its output empty (safe to free,
 * holding nothing).
 */
#ifndef MT_RUNTIME_LAUNCH_SPEC_H
#define MT_RUNTIME_LAUNCH_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "array.h"
#include "mytriton/mytriton.h"
#include "npy.h"

/* A scalar as the spec wrote it: 1000 is an INT, 1000.0 and 1e3 are FLOATs
 * (the JSON text decides, as Python's literal would), true is a BOOL, and
 * the strings "nan", "inf", "-inf" are FLOATs. A constexpr's value may
 * also be any other string: one that names a dtype as -D does
 * (mt_dtype_literal: "tl.float16", "torch.bfloat16") is a DTYPE, any
 * other a STR ("leaky_relu"). Arguments take numbers and bools only. */
typedef enum MtScalarKind {
    MT_SCALAR_INT,
    MT_SCALAR_FLOAT,
    MT_SCALAR_BOOL,
    MT_SCALAR_STR,            /* constexprs only */
    MT_SCALAR_DTYPE,          /* constexprs only */
} MtScalarKind;

typedef struct MtScalar {
    MtScalarKind kind;
    int64_t i;                /* INT: the value; BOOL: 0 or 1; otherwise 0 */
    double f;                 /* FLOAT: the value (maybe NaN or +-inf); INT, BOOL: (double)i; otherwise 0 */
    MtDtype dtype;            /* DTYPE */
    char *s;                  /* STR: the string (malloc'ed, owned by the spec); otherwise NULL */
} MtScalar;

typedef enum MtSpecArgKind {
    MT_SPEC_ARG_SCALAR,       /* "n": 1000 */
    MT_SPEC_ARG_NPY,          /* "x": {"npy": "x.npy"} */
    MT_SPEC_ARG_GENERATED,    /* "y": {"dtype": ..., "shape": ..., "init": ...} */
} MtSpecArgKind;

typedef struct MtSpecArg {
    char *name;
    MtSpecArgKind kind;
    MtScalar value;            /* SCALAR */
    char *npy;                /* NPY: the path as written in the spec */
    char *npy_path;           /* NPY: the path to open (relative ones joined to base_dir) */
    MtArrayGen gen;           /* GENERATED: the checked recipe */
} MtSpecArg;

typedef struct MtSpecConst {
    char *name;
    MtScalar value;
} MtSpecConst;

typedef struct MtLaunchSpec {
    char *path;               /* the spec file (mt_launch_spec_load), or NULL */
    char *text;               /* the spec's JSON text, as read */
    char *source;             /* as written, or NULL (the caller supplies the file) */
    char *source_path;        /* source joined to base_dir, or NULL */
    char *kernel;             /* NULL: the source's only kernel (the caller resolves it
                               * and may store the name here for messages) */
    char *signature;          /* NULL: derive with mt_launch_spec_signature() */
    char *grid[3];            /* expression text; integers are stored as "4" */
    int grid_dims;            /* 1..3 */
    MtSpecConst *constexprs;  /* in spec order */
    size_t nconstexprs;
    MtSpecArg *args;          /* in spec order */
    size_t nargs;
    char *bytes;              /* expression text, NULL when not given */
    char *flops;              /* expression text, NULL when not given */
    bool has_tolerance;
    double rtol, atol;        /* when has_tolerance; a missing one is 0 */
    char *base_dir;           /* folder relative paths start from; "" = current folder */
} MtLaunchSpec;

/* What is wrong with a spec, and where. Every function below that takes
 * one fills it on failure (it may be NULL). */
typedef struct MtSpecError {
    MtStatus status;          /* what the call returned */
    char field[160];          /* the spec field: "args.y.shape[0]", "grid[1]", "kernel", "args"; "" when the
                               * problem is the whole spec (or not in the spec: a --set assignment) */
    int line, col;            /* a JSON syntax error's position in the text (1-based); 0 otherwise */
    char msg[768];            /* what is wrong, without the location */
    char text[1024];          /* the one-line form: "[path:][line:col: | field: ]msg" */
} MtSpecError;

/* Parse and check a spec. `base_dir` (NULL = current folder) is where
 * relative paths start. Nothing is opened: npy files are read by
 * mt_launch_bind(). JSON syntax errors say "LINE:COL: invalid JSON ...". */
MtStatus mt_launch_spec_parse(const char *json_text, const char *base_dir, MtLaunchSpec *spec, MtSpecError *e);
/* Read `path` (fileio.h: a regular file of at most 4 MiB) and parse it
 * with its folder as base_dir. The error's text starts with the path:
 * "spec.json:3:12: invalid JSON ...", "spec.json: grid: ...". */
MtStatus mt_launch_spec_load(const char *path, MtLaunchSpec *spec, MtSpecError *e);
void mt_launch_spec_free(MtLaunchSpec *spec);

/* Apply "NAME=VALUE": VALUE is an integer, a float, true/false (or
 * True/False), nan, inf or -inf, or, for a constexpr, a dtype or a quoted
 * string written as for -D (tl.float16, 'leaky_relu'; mt_literal_parse).
 * NAME replaces a scalar argument's value or a constexpr's; a name the
 * spec lacks is added as a constexpr (as -D does), so a default can be
 * overridden without editing the spec. An array argument cannot be set. */
MtStatus mt_launch_spec_set(MtLaunchSpec *spec, const char *assignment, MtSpecError *e);

/* The signature to compile with: spec->signature when given; otherwise one
 * entry per parameter of `kernel` -- a constexpr takes its value from the
 * spec's constexprs (or a scalar argument of that name) as a Python
 * literal (256, True, 'leaky_relu', tl.float16), or is left empty so the
 * compiler uses its default; an array argument gives *fp32, *i32 or
 * *i1 by dtype (npy files' headers are read for it); an integer gives i32, a
 * float fp32, a bool i1; a constexpr naming a runtime parameter specialises
 * it. Empty entries at the end are dropped. On MT_OK *out is a malloc'ed
 * string; MT_ERR_IO when an npy file cannot be read, MT_ERR_USAGE when the
 * spec does not fit the kernel (*out NULL, with a message). */
MtStatus mt_launch_spec_signature(const MtLaunchSpec *spec, const MtKernelInfo *kernel, char **out, MtSpecError *e);

typedef enum MtArgKind {
    MT_ARG_ARRAY,             /* a pointer parameter: *fp32, *fp16, *i64, ... */
    MT_ARG_I32,               /* an integer scalar of any width (dtype says which) */
    MT_ARG_F32,               /* a float scalar of any width (dtype says which) */
    MT_ARG_I1,
} MtArgKind;

typedef struct MtLaunchArg {
    char *name;
    char *type;               /* the parameter's type: "*fp32" "*bf16" "*i64" "i32" "u64" "fp16" "i1" ... */
    MtArgKind kind;
    MtDtype dtype;            /* the array's element type, or the scalar's type */
    MtArray *array;           /* ARRAY: owned by the launch */
    int64_t ival;             /* I32: the value (a u64 above INT64_MAX as its bits); I1: 0 or 1 */
    double fval;              /* F32: the value (round it to the dtype to pass it) */
    char *npy_path;           /* ARRAY read from a file: the path read; NULL when generated */
} MtLaunchArg;

typedef struct MtLaunch {
    int64_t grid[3];          /* entries past grid_dims are 1 */
    int grid_dims;
    MtLaunchArg *args;        /* one per runtime parameter, in kernel order */
    size_t nargs;
    int64_t bytes, flops;     /* evaluated counts; -1 when the spec gives none */
} MtLaunch;

/* Bind a spec to a compiled kernel's parameters: params[i] is
 * *mt_compiled_param(k, i) for i < mt_compiled_param_count(k), copied into
 * an array by the caller. Runtime parameters (with a `type`) get an
 * argument each, arrays loaded or generated here; specialised ones (with a
 * `value`) are readable by the grid, and a spec argument naming one must
 * agree with its value. Grid, bytes and flops expressions read integer
 * scalar arguments and specialised values. Messages name the kernel from
 * spec->kernel ("the kernel" when NULL). On failure `out` holds nothing. */
MtStatus mt_launch_bind(const MtLaunchSpec *spec, const MtKernelParam *params, size_t nparams,
                        MtLaunch *out, MtSpecError *e);
void mt_launch_free(MtLaunch *launch);

/* A scalar argument as its kernel parameter takes it: the bytes of its
 * dtype (an i64 8, an fp16 2, a bool 1), little-endian, in the low bytes
 * of *slot (the rest zero), which cuLaunchKernel's parameter array then
 * points at. */
void mt_launch_arg_bytes(const MtLaunchArg *a, uint64_t *slot);

/* Whether the launch reaches more elements than an i32 offset can: its
 * programs (grid[0] x grid[1] x grid[2]) times the elements each one
 * owns (`per_program`, the kernel's output tile) beyond 2^31 - 1. Offsets
 * computed in i32, such as tl.program_id(0) * BLOCK, then wrap to negative
 * values. When so, msg gets a sentence saying it (for a warning). */
bool mt_launch_i32_overflow(const MtLaunch *launch, int64_t per_program, char *msg, size_t msglen);

#endif
