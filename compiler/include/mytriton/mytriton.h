/* mytriton.h: the public interface of the mytriton compiler library.
 *
 * The library turns a Python file of Triton-style kernels into typed,
 * verified, optimised SSA (and, further down the pipeline, CUDA C++).
 * Every tool (CLI, language server, dashboard, CI checker) goes through
 * this header and nothing else.
 *
 * Contract:
 *  - Reentrant: all state hangs off an MtCtx. No globals, no printing, no
 *    exit(). Several contexts may be used on several threads at once.
 *  - Memory: everything a compilation produces (modules, stages, strings,
 *    diagnostics) lives in the context's arena and stays valid until
 *    mt_ctx_reset() or mt_ctx_free(). Nothing returned here is freed singly.
 *  - Errors: source errors are diagnostics (mt_diag_count / mt_diag_at),
 *    never aborts. Out of memory comes back as MT_ERR_NOMEM.
 *
 * Typical use:
 *     MtCtx *c = mt_ctx_new(NULL);
 *     MtModule *m;
 *     if (mt_parse(c, "add.py", text, len, &m) == MT_OK) {
 *         MtSpec spec = {.kernel = "add_kernel", .signature = "*fp32,*fp32,*fp32,i32,256"};
 *         MtCompiled *k;
 *         if (mt_compile(c, m, &spec, &k) == MT_OK)
 *             puts(mt_compiled_text(c, k, MT_STAGE_SSA));
 *     }
 *     for (size_t i = 0; i < mt_diag_count(c); i++) ... mt_diag_render(c, mt_diag_at(c, i)) ...
 *     mt_ctx_free(c);
 */
#ifndef MYTRITON_H
#define MYTRITON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- status ------------------------------------------------------------ */

typedef enum MtStatus {
    MT_OK = 0,
    MT_ERR_SOURCE,   /* the source has errors: see the diagnostics */
    MT_ERR_USAGE,    /* bad request: unknown kernel, malformed signature, ... (also a diagnostic) */
    MT_ERR_NOMEM,    /* an allocation failed; the context is still usable after a reset */
    MT_ERR_CUDA,     /* a CUDA / NVRTC call failed (runtime library) */
    MT_ERR_IO,       /* a file could not be read or written (runtime library) */
    MT_CANCELLED,    /* mt_ctx_cancel() was called during the compilation */
} MtStatus;

const char *mt_status_name(MtStatus s);

/* ---- element types (dtypes.def) ----------------------------------------- */

typedef enum MtDtype {
#define DTYPE(id, ir, sig, tl, numpy, npy, cuda, mlir, cls, bits, size, mant, rank) MT_DT_##id,
#include "dtypes.def"
#undef DTYPE
    MT_DTYPE_COUNT
} MtDtype;

typedef enum MtDtypeClass {
    MT_DC_BOOL,               /* i1 */
    MT_DC_SINT,               /* two's complement, signed */
    MT_DC_UINT,               /* unsigned */
    MT_DC_FLOAT,              /* IEEE binary floating point (bf16: the top half of an f32) */
} MtDtypeClass;

/* One row of dtypes.def; the column comments there say what each is. */
typedef struct MtDtypeInfo {
    const char *ir, *sig, *tl, *numpy, *npy, *cuda, *mlir;
    MtDtypeClass cls;
    uint8_t bits, size, mant, rank;
} MtDtypeInfo;

/* The row of d; NULL when d is out of range. */
const MtDtypeInfo *mt_dtype_info(MtDtype d);
/* A dtype from any of its spellings: the SSA ("f16"), signature ("fp16"),
 * triton.language ("float16", "tl.float16"), numpy ("float16") and .npy
 * ("<f2") names. false when none matches. */
bool mt_dtype_parse(const char *name, MtDtype *out);
/* A dtype written as a constexpr value, as a launch passes one: one
 * module prefix, `tl.`, `triton.language.` or `torch.`, then the
 * triton.language name (float16), the signature name (fp16), the SSA name
 * (f16) or numpy's (float16): tl.float16, tl.bfloat16,
 * triton.language.fp16, torch.float32, torch.bool. This is the one rule
 * every front door reads a dtype value by (mt_literal_parse below): a
 * signature entry (where a bare name, fp16 or float16, is a runtime
 * parameter's type instead), -D, the `# mytriton:` comment, the project
 * file and editor settings, a launch spec's constexprs, Python. */
bool mt_dtype_literal(const char *text, MtDtype *out);
/* Element i of an array of dtype d as a double (64-bit integers rounded
 * beyond 2^53), and a double stored into element i with the rules of a
 * cast: floats round to nearest even, integers truncate toward zero and
 * saturate at the type's range (a GPU's cvt.rzi.sat), NaN becomes 0, bool
 * is v != 0. */
double mt_dtype_get(MtDtype d, const void *base, size_t i);
void mt_dtype_set(MtDtype d, void *base, size_t i, double v);
/* IEEE half and bfloat16 bits to and from float, rounding to nearest even. */
float mt_f16_to_f32(uint16_t h);
uint16_t mt_f32_to_f16(float f);
float mt_bf16_to_f32(uint16_t h);
uint16_t mt_f32_to_bf16(float f);

/* ---- context ----------------------------------------------------------- */

/* Caller-supplied allocator (Lua style). realloc(ud, NULL, 0, n) allocates,
 * realloc(ud, p, old, 0) frees. NULL means malloc/free. */
typedef struct MtAlloc {
    void *(*realloc)(void *ud, void *ptr, size_t old_size, size_t new_size);
    void *ud;
} MtAlloc;

typedef struct MtCtx MtCtx;

MtCtx *mt_ctx_new(const MtAlloc *alloc);
void mt_ctx_free(MtCtx *c);
/* Drop every module, stage, string and diagnostic; keep the first arena
 * chunk for reuse. The LSP calls this before every recompilation. */
void mt_ctx_reset(MtCtx *c);
/* Ask a compilation running on another thread to stop at the next pass
 * boundary (it returns MT_CANCELLED). Cleared by mt_ctx_reset(). */
void mt_ctx_cancel(MtCtx *c);

/* ---- source positions and diagnostics ----------------------------------- */

/* A half-open byte range of one file plus its 1-based line/column form.
 * Columns count bytes. Every token, AST node, expression node and SSA
 * instruction carries one. */
typedef struct MtSpan {
    uint32_t file;            /* index into the context's file table; 0 = no file */
    uint32_t off, end;        /* byte offsets, [off, end) */
    uint32_t line, col;       /* 1-based start */
    uint32_t end_line, end_col; /* 1-based, exclusive end column */
} MtSpan;

typedef enum MtSeverity {
    MT_SEV_ERROR,
    MT_SEV_WARNING,
    MT_SEV_INFO,
    MT_SEV_NOTE,
} MtSeverity;

typedef struct MtNote {
    MtSpan span;
    const char *msg;
} MtNote;

/* A fact a diagnostic carries as data, for tools (quick fixes, JSON
 * consumers): nothing ever parses a message back. Names in use:
 *   E0413 "arange_start", "arange_padded_end": the tl.arange that would
 *         do, tl.arange(start, padded_end) with a power-of-two length;
 *   E0410 "guessed_dtype": the dtype rule failed on a pointer parameter
 *         whose type was inferred from its use (*fp32), at this position
 *         of the kernel's parameter list (0-based). */
typedef struct MtDiagFact {
    const char *name;
    int64_t value;
} MtDiagFact;

typedef struct MtDiag {
    MtSeverity sev;
    const char *code;         /* stable rule code, e.g. "E0401"; see docs/rules/ */
    MtSpan span;
    const char *msg;
    const char *kernel;       /* kernel being compiled when raised, or NULL */
    const MtNote *notes;      /* e.g. "in helper called from here" */
    uint32_t nnotes;
    const MtDiagFact *facts;
    uint32_t nfacts;
} MtDiag;

/* "error", "warning", "info", "note". */
const char *mt_severity_name(MtSeverity s);

size_t mt_diag_count(const MtCtx *c);
const MtDiag *mt_diag_at(const MtCtx *c, size_t i);
size_t mt_error_count(const MtCtx *c);
/* The fact called name of d, into *out; false when d has none. */
bool mt_diag_fact(const MtDiag *d, const char *name, int64_t *out);

/* Add a diagnostic from outside the compiler (the runtime reports NVRTC
 * and launch problems this way, so every tool renders them alike). The
 * returned diagnostic can take notes. */
const MtDiag *mt_diag_add(MtCtx *c, MtSeverity sev, MtSpan span, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void mt_diag_add_note(MtCtx *c, const MtDiag *d, MtSpan span, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The rule catalogue: every code the compiler can emit, with a title and a
 * one-paragraph explanation (the LSP shows it on hover, `check` exports it
 * to SARIF). Returns NULL past the end / for an unknown code. */
typedef struct MtRule {
    const char *code;
    const char *name;         /* kebab-case short name, e.g. "type-mismatch" */
    const char *title;
    const char *help;
} MtRule;
const MtRule *mt_rule_at(size_t i);
const MtRule *mt_rule_find(const char *code);

/* Path and text of a file registered by mt_parse (index from MtSpan.file). */
const char *mt_file_path(const MtCtx *c, uint32_t file);
const char *mt_file_text(const MtCtx *c, uint32_t file, size_t *len);

/* Render a diagnostic the way compilers do:
 *   file:line:col: error: message [E0401]
 *     12 |     x = a + b
 *        |         ^~~~~
 *   file:line:col: note: ...
 * Returns an arena-owned string. */
const char *mt_diag_render(MtCtx *c, const MtDiag *d, bool color);

/* ---- parsing: file -> module -> kernels -------------------------------- */

typedef struct MtModule MtModule;

/* Tokenise the whole file as Python 3 and parse every kernel
 * (`@triton.jit`, `@mytriton.jit`, `@jit`, aliases followed) and the
 * module-level names kernels may use. `text` is copied into the arena. */
MtStatus mt_parse(MtCtx *c, const char *path, const char *text, size_t len, MtModule **out);

typedef struct MtParamInfo {
    const char *name;
    bool constexpr_;          /* annotated tl.constexpr */
    const char *annotation;   /* source text of the annotation, or NULL */
    const char *default_text; /* source text of the default value, or NULL */
    MtSpan span;
} MtParamInfo;

typedef struct MtKernelInfo {
    const char *name;
    MtSpan span;              /* the whole `def` including decorators */
    MtSpan name_span;
    const MtParamInfo *params;
    uint32_t nparams;
    /* `# mytriton: BLOCK=256 sig=*fp32,...` comment directly above the
     * decorators, or NULL. */
    const char *directive;
    MtSpan directive_span;
} MtKernelInfo;

/* Functions decorated with a jit decorator, in source order. A helper is a
 * jit function too: any of them can be compiled as a kernel. */
size_t mt_module_kernel_count(const MtModule *m);
const MtKernelInfo *mt_module_kernel(const MtModule *m, size_t i);
const MtKernelInfo *mt_module_find_kernel(const MtModule *m, const char *name);

/* ---- constexpr values as text (frontend/pyvalue.c) ---------------------- */

typedef enum MtLiteralKind {
    MT_LITERAL_NONE,          /* None */
    MT_LITERAL_BOOL,
    MT_LITERAL_INT,
    MT_LITERAL_FLOAT,
    MT_LITERAL_STR,
    MT_LITERAL_DTYPE,
} MtLiteralKind;

typedef struct MtLiteral {
    MtLiteralKind kind;
    int64_t i;                /* BOOL: 0 or 1; INT: the value (with big: a u64 above INT64_MAX, as its bits) */
    bool big;
    double f;                 /* FLOAT: the value; INT, BOOL: (double)i */
    MtDtype dtype;            /* DTYPE */
    const char *s;            /* STR: the string, escapes decoded (arena-owned; NULL when c was NULL) */
} MtLiteral;

/* A constexpr value's text, read as every front door reads it (-D, a
 * signature's value entries, the `# mytriton:` comment): None, True,
 * False, an integer (decimal, 0x, 0o, 0b, with underscores), a float
 * (1e-5, inf, -inf, nan), a quoted string ('relu' or "relu", with
 * Python's escapes, so repr() of any str reads back) or a dtype
 * (mt_dtype_literal). false when it is none of these. With c NULL the
 * text is only checked. */
bool mt_literal_parse(MtCtx *c, const char *text, MtLiteral *out);
/* s as a Python string literal that mt_literal_parse reads back as s:
 * single-quoted, with \\, \', \n, \t, \r and \xHH for the other control
 * characters (UTF-8 bytes pass as they are). Writes at most cap bytes
 * (NUL included) and returns the length of the whole literal, as
 * snprintf does. */
size_t mt_literal_quote(char *out, size_t cap, const char *s);
/* A JSON string that stands for a constexpr's literal (a project file's
 * or the editor settings' constexprs, the dashboard's defines) as that
 * literal: the text itself when it reads as one (mt_literal_parse:
 * "1e-5", "'relu'", "tl.float16"), otherwise the text quoted
 * ("leaky_relu" -> 'leaky_relu'), so a string constexpr needs no Python
 * quotes inside JSON. Writes and returns as mt_literal_quote. */
size_t mt_literal_from_text(char *out, size_t cap, const char *text);

/* ---- compilation ------------------------------------------------------ */

typedef struct MtDefine {
    const char *name;
    const char *value;        /* Python literal (mt_literal_parse): 256, 1e-5, True, None, 'relu', tl.float16 */
} MtDefine;

/* A specialisation request. Every field may be left zero. */
typedef struct MtSpec {
    const char *kernel;       /* NULL: the module's only kernel */
    /* Triton-AOT-style positional signature, "*fp16:16,*fp32,i64,256":
     * pointers and scalars of any dtype (`*fp16`, `*bf16`, `*i8`, `u32`,
     * `fp64`, ...) with an optional divisibility hint (`:16`), a literal for
     * a constexpr (or any parameter to specialise on it): `256`, `True`,
     * `'relu'`, a dtype `tl.float16` (mt_literal_parse). Entries are split
     * at commas outside quotes. May be shorter than the parameter list;
     * NULL: none. */
    const char *signature;
    const MtDefine *defines;  /* named constexprs (-D NAME=VALUE) */
    size_t ndefines;
    /* Without a signature, infer the types of unannotated parameters from
     * their use (pointers from loads/stores, otherwise i32) and take
     * constexprs from defaults and the kernel's `# mytriton:` directive.
     * The editor and the CI checker set this. */
    bool infer_params;
    /* The last MtStage to run; 0 (or MT_STAGE_AST) means MT_STAGE_SSA. The
     * AST is always available. */
    int last_stage;
    /* CUDA target for the layout/CUDA stages, e.g. 90 for sm_90. 0 = 90. */
    int sm;
    /* Keep the SSA after these optimisation passes ("fold,cse", "all"),
     * for mt_compiled_dump (the CLI's -d). NULL: none. */
    const char *dump_passes;
    /* How the kernel becomes CUDA (MtLowering); 0: the default. */
    int lowering;
    /* Warps per program instance for the fast lowering; 0: chosen from
     * the kernel's block sizes. */
    int num_warps;
    /* Software pipelining stages for the fast lowering, as Triton's
     * num_stages: 1 issues each loop iteration's loads in that iteration;
     * N >= 2 (0: 3, Triton's default) keeps N shared-memory stages of a
     * tensor-core tl.dot's tiles, N - 1 iterations ahead, and issues the
     * other loads feeding a tl.dot one iteration ahead. */
    int num_stages;
    /* How the kernel becomes PTX (MtCodegen); 0: the default. */
    int codegen;
} MtSpec;

/* The most num_stages the front doors (the CLI, the worker, the
 * dashboard) accept. */
#define MT_NUM_STAGES_MAX 8

/* The lowerings from SSA to the GPU. The seed lowering is the seed
 * documents' (one element per thread, shared-memory reduction trees, at
 * most 32 threads per tl.dot) and prints exactly their CUDA; the fast
 * lowering distributes blocks over warps in linear layouts through the
 * kernel layer (MT_STAGE_KERNEL). */
typedef enum MtLowering {
    MT_LOWERING_DEFAULT,      /* fast */
    MT_LOWERING_SEED,
    MT_LOWERING_FAST,
} MtLowering;
const char *mt_lowering_name(MtLowering l);   /* "seed", "fast" */
int mt_lowering_from_name(const char *name);  /* -1 if unknown */

/* The code generators from the kernel to PTX. CUDA C++ goes through NVRTC
 * (the runtime library); MLIR builds the fast lowering's kernel layer as
 * MLIR (gpu, arith, math, scf, llvm and nvvm dialects) and runs MLIR's GPU
 * pipeline to PTX (docs/mlir-backend.md). MLIR implies the fast lowering:
 * the two code generators print the same kernel layer, so they agree on
 * layouts and launch shape. */
typedef enum MtCodegen {
    MT_CODEGEN_DEFAULT,       /* CUDA */
    MT_CODEGEN_CUDA,
    MT_CODEGEN_MLIR,
} MtCodegen;
const char *mt_codegen_name(MtCodegen g);     /* "cuda", "mlir" */
int mt_codegen_from_name(const char *name);   /* -1 if unknown */

typedef enum MtStage {
    MT_STAGE_AST,             /* the kernel's syntax tree */
    MT_STAGE_EXPR,            /* typed expression tree after specialisation */
    MT_STAGE_SSA_RAW,         /* typed SSA as lowered, verified */
    MT_STAGE_SSA,             /* optimised SSA, verified after every pass */
    MT_STAGE_LAYOUT,          /* CUDA tile layouts of every block value */
    MT_STAGE_KERNEL,          /* the kernel layer: what one thread of a block runs (fast lowering) */
    MT_STAGE_CUDA,            /* CUDA C++ source */
    MT_STAGE_MLIR,            /* the kernel layer as MLIR (codegen mlir): gpu, arith, math, scf, llvm, nvvm */
    MT_STAGE_MLIR_LLVM,       /* that module after MLIR's GPU lowering passes: the llvm and nvvm dialects */
    MT_STAGE_COUNT
} MtStage;

const char *mt_stage_name(MtStage s);   /* "ast", "expr", "ssa-raw", ... */
int mt_stage_from_name(const char *name); /* -1 if unknown */

typedef struct MtCompiled MtCompiled;

/* Compile one kernel of `m` for `spec`. On MT_OK `*out` holds every stage
 * up to spec->last_stage. On MT_ERR_SOURCE, `*out` may still hold the
 * stages that completed before the failing one (so tools can show them),
 * and, when the kernel's body has errors, a partial analysis: the types of
 * every expression the frontend could evaluate, before and after the
 * error, which the queries (mt_query_value_at, mt_query_assignments)
 * answer from (mt_compiled_partial). */
MtStatus mt_compile(MtCtx *c, const MtModule *m, const MtSpec *spec, MtCompiled **out);
/* Whether k holds only a partial analysis (errors in the kernel's body):
 * the expression stage, the parameters and the signature are then absent. */
bool mt_compiled_partial(const MtCompiled *k);

/* The prefix analysis of a kernel whose compile `failed` before its SSA
 * or layouts (an editor's hovers on the lines before an error): the
 * kernel's statements before its first error (in a loop or `if` that
 * holds the error, the statements of its body before it), compiled for
 * the same specialisation (the whole compile's parameter types, values
 * and spec) into *out, with every value they bind kept through
 * optimisation as if something used it. Its diagnostics are dropped.
 * Returns that compile's status; MT_OK with *out NULL when there is
 * nothing to add: `failed` has its SSA and layouts (or spec stops before
 * them), its first error is not inside the kernel's statements, or
 * nothing before it computes a value. */
MtStatus mt_compile_prefix(MtCtx *c, const MtCompiled *failed, const MtSpec *spec, MtCompiled **out);
/* The line of the error a prefix analysis stops before; 0 for a kernel
 * compiled whole. */
uint32_t mt_compiled_prefix_line(const MtCompiled *k);

/* Printed form of a stage; NULL if that stage did not run. Arena-owned. */
const char *mt_compiled_text(MtCtx *c, MtCompiled *k, MtStage stage);
const char *mt_compiled_kernel_name(const MtCompiled *k);

/* Threads per CUDA block (flat, blockDim.x) of the kernel layout; 0 when
 * the layout stage did not run. */
int mt_compiled_threads(const MtCompiled *k);

/* How to launch the generated CUDA for a grid of program instances. */
typedef struct MtLaunchShape {
    uint32_t threads;         /* CUDA threads per block (blockDim.x) */
    uint32_t programs_per_block; /* program instances along grid x one block runs: the CUDA grid's x is
                                  * ceil(programs / this) */
    uint64_t shared_bytes;    /* shared memory per block: the kernel's pool */
    uint64_t dynamic_shared_bytes; /* what to pass at launch as dynamic shared memory: the pool when it is
                                    * over the 48 KiB a block may declare statically (the kernel declares
                                    * it extern), else 0 */
    bool grid_params;         /* the kernel takes the program grid (x, y, z) as three trailing i32 parameters */
} MtLaunchShape;
/* false when the CUDA stage did not run. */
bool mt_compiled_launch_shape(const MtCompiled *k, MtLaunchShape *out);
/* The source range of the operation that produced line `cuda_line`
 * (1-based) of the generated CUDA; false for lines no operation made. */
bool mt_compiled_cuda_line_span(const MtCompiled *k, uint32_t cuda_line, MtSpan *out);

/* The code generator k was compiled for (never MT_CODEGEN_DEFAULT). */
MtCodegen mt_compiled_codegen(const MtCompiled *k);

/* The MLIR backend. It is a module of its own, loaded the first time it is
 * needed, so a build or a machine without MLIR still runs everything else.
 * Whether it can run here (*why, arena-owned: the reason it cannot);
 * its MLIR version ("MLIR 22.1.8"), NULL when unavailable; and the pass
 * pipeline that makes PTX for sm_<sm> from the MT_STAGE_MLIR module (with
 * that module, what a cached PTX depends on), NULL when unavailable. */
bool mt_mlir_available(MtCtx *c, const char **why);
const char *mt_mlir_version(MtCtx *c);
const char *mt_mlir_pipeline(MtCtx *c, int sm);
/* PTX for sm_<sm> through MLIR's GPU pipeline, for k compiled with
 * MT_CODEGEN_MLIR (through MT_STAGE_CUDA at least); also makes the
 * MT_STAGE_MLIR_LLVM text. Failures are diagnostics (E1001 when the
 * backend is unavailable); *ptx is arena-owned. */
MtStatus mt_compiled_mlir_ptx(MtCtx *c, MtCompiled *k, int sm, const char **ptx);

/* SSA snapshots after the passes named in spec->dump_passes, in order. */
size_t mt_compiled_dump_count(const MtCompiled *k);
const char *mt_compiled_dump(const MtCompiled *k, size_t i, const char **pass);

/* Where a line of a printed stage came from: the source range of the
 * expression node or operation it shows and, for one made inside an
 * inlined helper, the calls it was inlined through, innermost first (the
 * call in the kernel's own body last). The dashboard links stage lines and
 * source lines both ways with it. */
typedef struct MtLineOrigin {
    MtSpan span;
    const MtSpan *calls;      /* arena-owned; NULL when ncalls is 0 */
    uint32_t ncalls;
} MtLineOrigin;

/* The origin of line `line` (1-based) of mt_compiled_text(c, k, stage)
 * for MT_STAGE_EXPR, MT_STAGE_SSA_RAW, MT_STAGE_SSA, MT_STAGE_LAYOUT and
 * MT_STAGE_CUDA (making the text if it was not made yet); false for lines
 * no operation made (headers, the CUDA prologue) and for stages that did
 * not run. A `for` loop's closing line belongs to the loop. */
bool mt_compiled_line_origin(MtCtx *c, MtCompiled *k, MtStage stage, uint32_t line, MtLineOrigin *out);
/* What source line `line` of the kernel's file became in a printed stage:
 * its lines whose origin starts on that line or was inlined through a call
 * on it, in printed order, without their indentation (a region's closing
 * brace left out). For hovers: e.g. MT_STAGE_MLIR of a kernel compiled
 * with MT_CODEGEN_MLIR. Every stage whose printer marks its lines (expr,
 * the SSA stages, layout, kernel, the fast lowering's CUDA, mlir,
 * mlir-llvm); NULL when the line made none (or the stage did not run).
 * Arena-owned. */
const char *mt_compiled_stage_for_line(MtCtx *c, MtCompiled *k, MtStage stage, uint32_t line);
/* The same for line `line` of mt_compiled_dump(k, i, NULL). */
bool mt_compiled_dump_line_origin(MtCtx *c, const MtCompiled *k, size_t i, uint32_t line, MtLineOrigin *out);

/* The resolved specialisation, as a signature string every later tool can
 * replay ("*fp32,*fp32,*fp32,i32,256"), divisibility hints included
 * ("*fp32:16"). */
const char *mt_compiled_signature(MtCtx *c, const MtCompiled *k);

/* The specialised parameter list: what a launch must pass. Runtime
 * parameters have a `type`; specialised ones (constexprs and signature
 * literals) have a `value` and are not passed at launch. */
typedef struct MtKernelParam {
    const char *name;
    const char *type;         /* "*fp32" "*fp16" "*i64" "i32" "fp32" "i1" ... (dtypes.def's sig column, "*" for a
                               * pointer); NULL when specialised */
    const char *value;        /* Python literal of the specialised value ("256", "True", "'relu'"); NULL for runtime */
} MtKernelParam;
size_t mt_compiled_param_count(const MtCompiled *k);
const MtKernelParam *mt_compiled_param(const MtCompiled *k, size_t i);

/* Source map: the SSA ops (printed, one per line) a source line produced,
 * after optimisation. Arena-owned, NULL when the line produced none. */
const char *mt_compiled_ops_for_line(MtCtx *c, MtCompiled *k, uint32_t line);

/* The stages in stage_mask (bit 1 << MtStage), the kernels of the module,
 * the diagnostics so far and the source map as one JSON document: the
 * contract of `--format json`, the LSP and the dashboard (docs/json.md).
 * m and k may be NULL (a file that did not parse, a failed compile): the
 * document then carries what is known. Arena-owned. */
const char *mt_compile_json(MtCtx *c, const MtModule *m, MtCompiled *k, unsigned stage_mask);

/* ---- the kernel language's builtins ------------------------------------------ */

/* The names a kernel can use besides its own (the triton.language API,
 * triton.cdiv, Python's builtins, the math module), as the compiler binds
 * them: for completion, signature help and hover docs. */
typedef enum MtApiKind {
    MT_API_MODULE,
    MT_API_FUNCTION,
    MT_API_DTYPE,             /* tl.float16, ... */
    MT_API_CONSTANT,          /* math.pi, ... */
} MtApiKind;

typedef struct MtApiEntry {
    const char *path;         /* canonical dotted path: "triton.language.load" */
    const char *name;         /* as kernels usually spell it: "tl.load", "range", "math.pi" */
    MtApiKind kind;
    const char *params;       /* functions: Triton's parameter list "pointer, mask=None, ..."; NULL: varargs */
    const char *returns;      /* what it gives, in words */
    const char *doc;          /* one paragraph */
    const char *param_docs;   /* "name: what it takes" lines, newline-separated; "" when none */
} MtApiEntry;

size_t mt_api_count(void);
const MtApiEntry *mt_api_at(size_t i);
/* By path or by name ("tl.exp"; tl.math and libdevice paths find the math
 * functions); NULL when unknown. */
const MtApiEntry *mt_api_find(const char *path_or_name);

/* ---- queries for editors ------------------------------------------------- */

/* What the language server asks of a parsed module and a compiled kernel:
 * where a name is defined, the type, SSA and layout behind a source
 * position, the assigned names' types, a kernel's resource summary, and
 * mechanical fixes. Positions are byte offsets into the file given to
 * mt_parse; strings are arena-owned. */

typedef enum MtQueryDefKind {
    MT_DEF_NONE,
    MT_DEF_LOCAL,             /* assigned in the jit function (`x = ...`, `x += ...`, a tuple target) */
    MT_DEF_PARAM,             /* a parameter of the jit function */
    MT_DEF_LOOP,              /* the target of a `for` */
    MT_DEF_GLOBAL,            /* a module-level constant */
    MT_DEF_FUNCTION,          /* a jit function of the file */
    MT_DEF_IMPORT,            /* a module-level import */
} MtQueryDefKind;

typedef struct MtQueryDef {
    MtQueryDefKind kind;
    const char *name;
    MtSpan use;               /* the name at the queried offset */
    MtSpan def;               /* the defining name (target, parameter, `def` name, global) */
    MtSpan value;             /* what it is bound to: the right-hand side, default, iterable; zero if none */
    uint32_t func;            /* index (mt_module_kernel) of the jit function holding use, or UINT32_MAX */
} MtQueryDef;

/* The definition of the name at byte offset `off`: inside a jit function
 * the last binding before the use in source order (then its parameters),
 * then module-level names. false when `off` is not on a name. */
bool mt_query_definition(const MtModule *m, uint32_t off, MtQueryDef *out);

/* Whether jit function i is a helper: another jit function of the file
 * calls it, so it is compiled inlined into its callers, not on its own. */
bool mt_query_is_helper(const MtModule *m, size_t i);
/* Whether jit function i returns a value (`return x`): a device function,
 * never a kernel (Triton kernels return nothing); also a helper. */
bool mt_query_returns_value(const MtModule *m, size_t i);

/* The value behind a source position of a compiled kernel (its own body
 * or a helper inlined into it). */
typedef struct MtQueryValue {
    MtSpan span;              /* the expression, or the name when `name` is set */
    MtSpan value_span;        /* the expression that computed the value */
    const char *name;         /* the name queried, or NULL for an expression */
    const char *type;         /* "vector<256 x i32>", "ptr<f32>"; NULL for compile-time values */
    const char *value;        /* a compile-time value ("256"), or NULL */
    const char *what;         /* "parameter", "constexpr", "tl.load", "add", "loop variable", ... */
    const char *ssa;          /* the optimised SSA instruction computing it, or NULL (folded away, no SSA) */
    const char *layout;       /* its CUDA layout in words, or NULL (no layout stage) */
    uint32_t instances;       /* expression nodes the range made (unrolled loops, repeated inlining) */
} MtQueryValue;

/* At byte offset `off`: on a name, what the name is bound to; elsewhere,
 * the innermost typed expression whose range contains `off`. false when
 * nothing there has a value (or k has no typed expression tree). */
bool mt_query_value_at(MtCtx *c, MtCompiled *k, uint32_t off, MtQueryValue *out);

/* Every name the kernel (and the helpers inlined into it) assigns a
 * runtime value, in source order, each once: span is the target name. */
size_t mt_query_assignments(MtCtx *c, MtCompiled *k, const MtQueryValue **out);

/* What is known of a kernel before running it. */
typedef struct MtQueryKernel {
    int threads;              /* threads per CUDA block; 0 when the layout stage did not run */
    int programs_per_block;   /* program instances one block runs (fast lowering; 1 with the seed's) */
    int rank;                 /* of the output tile; 0 without a layout */
    int32_t tile[2];          /* logical output tile (the largest block a store writes) */
    int32_t thread_shape[2];  /* physical thread shape (seed lowering; the fast one: threads per program) */
    int64_t elements_per_thread; /* output elements each thread owns */
    int64_t shared_bytes;     /* __shared__ arrays of the generated CUDA; -1 without CUDA */
    bool register_tiles;      /* some axis has more than one register per thread */
} MtQueryKernel;
bool mt_query_kernel(const MtCompiled *k, MtQueryKernel *out);

/* A mechanical source edit: replace bytes [off, end) by text. */
typedef struct MtQueryEdit {
    uint32_t off, end;
    const char *text;
} MtQueryEdit;

typedef struct MtQueryFix {
    const char *title;
    const MtDiag *diag;       /* the diagnostic it fixes, or NULL for a refactoring */
    bool preferred;           /* the obvious fix (editors may apply it on save) */
    const MtQueryEdit *edits;
    uint32_t nedits;
    /* What the fix had to guess because the file does not show it, in
     * words ("Q, K, V and Out point to fp16"; the title says it too), or
     * NULL. */
    const char *guess;
} MtQueryFix;

/* Fixes for diagnostic d of module m: parentheses around comparisons
 * (E0207), & / | for and / or (E0206), a power-of-two tl.arange (E0413).
 * The fix for I0901 (a value that compiles) is mt_discover_fix. */
size_t mt_query_fixes(MtCtx *c, const MtModule *m, const MtDiag *d, const MtQueryFix **out);

/* Refactorings for the calls overlapping [off, end) of a compiled kernel:
 * add `other=` to a masked tl.load, add `mask=` (and `other=`) with a
 * Boolean name of a fitting shape to a tl.load / tl.store without one. */
size_t mt_query_actions(MtCtx *c, MtCompiled *k, uint32_t off, uint32_t end, const MtQueryFix **out);

/* ---- specialisation discovery (api/discover.c) ------------------------------ */

/* A kernel is compiled for one specialisation. Editors and CI have no
 * launch to take it from, so mt_discover reads it from the file itself:
 * the `# mytriton:` comment above the kernel, the values a tool gives
 * (project file, -D, editor settings), the kernel's launches in host code
 * (`kernel[grid](x, y, out, n, BLOCK_SIZE=1024)`: constexpr keywords, and
 * the dtype of each tensor argument where its making can be seen, e.g.
 * `torch.empty(..., dtype=torch.float16)` or `x.half()`), the configs of
 * its @triton.autotune (the first, or the one asked for), its
 * @triton.heuristics where they can be evaluated, and parameter defaults.
 * Every value records where it came from. */

/* Where a parameter's value or type came from, highest precedence first. */
typedef enum MtOrigin {
    MT_ORIGIN_NONE,           /* nothing: a runtime type inferred from use, or a constexpr without a value (I0901) */
    MT_ORIGIN_SIGNATURE,      /* a signature entry: the comment's sig=, else the tool's signature */
    MT_ORIGIN_OVERRIDE,       /* a value the tool gives above the file (-D) */
    MT_ORIGIN_DIRECTIVE,      /* the `# mytriton: NAME=VALUE` comment above the kernel */
    MT_ORIGIN_GIVEN,          /* a value the tool gives for this kernel (the project file's kernel entry) */
    MT_ORIGIN_LAUNCH,         /* a launch of the kernel: a keyword or argument, or an argument's dtype */
    MT_ORIGIN_AUTOTUNE,       /* a triton.Config of the kernel's @triton.autotune */
    MT_ORIGIN_HEURISTICS,     /* the kernel's @triton.heuristics */
    MT_ORIGIN_DEFAULT,        /* the parameter's default value */
    MT_ORIGIN_FALLBACK,       /* a value the tool gives below the file (project-wide values, editor settings) */
} MtOrigin;

/* "signature", "-D"-like tiers have no fixed word: "launch", "autotune",
 * "heuristics", "default", ... */
const char *mt_origin_name(MtOrigin o);

typedef enum MtGivenTier {
    MT_GIVEN_OVERRIDE,        /* above the comment and the file (-D) */
    MT_GIVEN_KERNEL,          /* below the comment, above launches and configs (a project file's kernel entry) */
    MT_GIVEN_FALLBACK,        /* below defaults, tl.constexpr parameters only (project-wide values, editor settings) */
} MtGivenTier;

typedef struct MtGiven {
    const char *name;
    const char *value;        /* a Python literal: 128, 0.5, True, 'relu' */
    const char *origin;       /* where the tool got it, for hover: "-D", "mytriton.json", "the editor settings" */
    MtGivenTier tier;
} MtGiven;

typedef struct MtDiscoverOptions {
    const char *signature;    /* the tool's signature for this kernel (a project file's), or NULL */
    const char *signature_origin;
    const MtGiven *given;
    size_t ngiven;
    uint32_t config;          /* which @triton.autotune config to use: 0 the first (clamped to the last) */
    /* Other parsed modules of the same package (in the same context),
     * searched for launches after the kernel's own file. */
    const MtModule *const *others;
    size_t nothers;
} MtDiscoverOptions;

typedef struct MtFound {
    const char *name;         /* the parameter */
    bool constexpr_;
    MtOrigin origin;
    const char *value;        /* the value it is specialised to (Python literal), or NULL: a runtime parameter */
    const char *type;         /* a runtime parameter's type as compiled ("*fp32"), or NULL: inferred from use */
    /* A type the source gives that this compiler cannot compile yet
     * ("*fp16" from `torch.float16`): the parameter is then inferred from
     * use instead. NULL otherwise. */
    const char *unsupported_type;
    const char *where;        /* what gave it, in words: "the launch at line 88", "autotune config 1 of 3" */
    const char *detail;       /* what the source says there: "BLOCK_SIZE=1024", the argument "c", or NULL */
    const char *seen;         /* what a launch argument is: "a tensor of fp16", "an int"; NULL for values */
    MtSpan span;              /* that source (the keyword, the argument, the config entry, the default) */
} MtFound;

typedef struct MtDiscovery {
    const char *kernel;
    const MtFound *params;    /* one per kernel parameter, in order */
    uint32_t nparams;
    uint32_t nmissing;        /* tl.constexpr parameters nothing gave a value */
    uint32_t nlaunches;       /* launches of the kernel found */
    MtSpan launch;            /* the one used (the first), when nlaunches */
    uint32_t nconfigs;        /* triton.Config entries of its @triton.autotune (0: none, or not readable) */
    uint32_t config;          /* the one used */
    MtSpan config_span;       /* its triton.Config(...) call, when it can be pointed at */
    const char *config_text;  /* "BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, ...", when nconfigs */
    MtSpec spec;              /* for mt_compile: kernel, signature, defines, infer_params (set the stage and sm) */
} MtDiscovery;

/* Discover the specialisation of kernel `kernel` (a name from
 * mt_module_kernel) of m. Never reports: a launch or a config that cannot
 * be read gives nothing. Arena-owned. */
MtStatus mt_discover(MtCtx *c, const MtModule *m, const char *kernel, const MtDiscoverOptions *opt,
                     const MtDiscovery **out);

/* The fix for I0901: values for every tl.constexpr parameter the
 * discovery left without one, chosen so that the kernel compiles through
 * the CUDA layout (tile sizes are powers of two, the largest tried first),
 * added to the kernel's `# mytriton:` comment (or a new one). When the
 * candidates fail a dtype rule only because pointer parameters were typed
 * *fp32 from their use (the fact "guessed_dtype"), those pointers are
 * tried as *fp16, then *bf16, and the first that compiles is added as a
 * `sig=` item, the fix's `guess` naming them. Compiles the kernel a few
 * times in a scratch context (query_specialise.c). 0 when nothing is
 * missing or no candidate compiles; the fix's diag is d. */
size_t mt_discover_fix(MtCtx *c, const MtModule *m, const MtDiscovery *dsc, const MtDiag *d, int sm,
                       const MtQueryFix **out);

/* ---- the CPU interpreter -------------------------------------------------- */

/* One runtime argument of a launch, in the order of the kernel's runtime
 * parameters (mt_compiled_param entries with a `type`). */
typedef struct MtKernelArg {
    void *data;               /* pointer parameters: host buffer of float / int32_t / bool (1 byte) elements */
    size_t numel;             /* pointer parameters: number of elements (accesses are bounds-checked) */
    const char *name;         /* for messages; NULL: the parameter's name */
    int64_t i;                /* i32 and i1 scalars */
    double f;                 /* fp32 scalars (rounded to float) */
} MtKernelArg;

typedef struct MtInterpOptions {
    int threads;              /* program instances run on this many threads; 0 = one per core */
    /* tl.device_print's lines (`pid (0, 0, 0) idx (3) x: 1.500000`), given
     * once when the launch ends, in program order whatever the threads
     * (lines of a program in the order it printed them); NULL: dropped. */
    void (*print)(void *ud, const char *text, size_t len);
    void *print_ud;
} MtInterpOptions;

/* Run a compiled kernel (compiled through MT_STAGE_SSA) on the CPU for
 * every program instance of grid[0] x grid[1] x grid[2], with the
 * semantics of the CUDA backend. A runtime fault (an out-of-bounds load,
 * store or atomic, an integer division by zero, a failed tl.device_assert:
 * R0708) stops the run and becomes an error
 * diagnostic at the faulting operation's source range naming the kernel,
 * the program id, the argument and the element index; MT_ERR_SOURCE is
 * returned. Arrays are modified in place by stores. */
MtStatus mt_interpret(MtCtx *c, MtCompiled *k, const int64_t grid[3], const MtKernelArg *args, size_t nargs,
                      const MtInterpOptions *opt);

/* Run the kernel layer of k (compiled with MT_LOWERING_FAST through
 * MT_STAGE_CUDA) on the CPU: every thread of every block in lockstep, a
 * functional model of the generated CUDA (shuffles, shared memory,
 * layouts) for tests without a GPU. Same arguments as mt_interpret;
 * out-of-bounds accesses are R0701 at the operation's source range. Slow:
 * meant for small grids. */
MtStatus mt_simulate(MtCtx *c, MtCompiled *k, const int64_t grid[3], const MtKernelArg *args, size_t nargs);

#ifdef __cplusplus
}
#endif
#endif
