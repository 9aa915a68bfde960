/* compiled.h: what mt_compile keeps of one kernel compilation. */
#ifndef MT_COMPILED_H
#define MT_COMPILED_H

#include "cuda/emit.h"
#include "frontend/expr.h"
#include "kernel/kir.h"
#include "layout/assign.h"
#include "ssa/ssa.h"
#include "syntax/ast.h"

typedef struct MtPassDump {
    const char *pass;
    const char *text;
    MtLineMarks marks;        /* source range per printed line */
} MtPassDump;

struct MtCompiled {
    const MtModule *m;
    const MtFuncDef *fn;
    /* The typed expression tree; NULL when specialisation failed, partial
     * (prog->partial) when the frontend or inference stopped at errors:
     * then only the queries read it, and the public accessors of the
     * expression stage and the parameters answer as if it were absent. */
    MtExprProgram *prog;
    MtFunc *func;             /* SSA (optimised once `optimized`); NULL before lowering */
    bool optimized;
    MtLayoutInfo *layout;     /* NULL before the layout stage */
    KFunc *kernel;            /* the fast lowering's kernel layer; NULL before it (or with the seed lowering) */
    MtCudaSource *cuda;       /* NULL before the CUDA stage */
    int lowering;             /* MtLowering used (never DEFAULT) */
    int codegen;              /* MtCodegen used (never DEFAULT) */
    const char *mlir_ptx;     /* PTX from the MLIR backend, once asked for (mt_compiled_mlir_ptx) */
    const char *text[MT_STAGE_COUNT]; /* printed stages, made on demand */
    MtLineMarks marks[MT_STAGE_COUNT]; /* source range per printed line, made with the text */
    MT_VEC(MtPassDump) dumps;
    /* Where the compile's first error lies in the kernel's own statements
     * (the error's range, or the call of the helper it was raised in);
     * zero when it compiled or when no error lies there. */
    MtSpan first_error;
    /* A prefix analysis (mt_compile_prefix): the first error of the whole
     * compile, which it stops before; zero for a whole kernel. */
    MtSpan cut;
};

/* mt_compile, or with a nonzero `cut` (a whole compile's first_error) the
 * prefix analysis of the statements before it (prefix.c). */
MtStatus mt_compile_until(MtCtx *c, const MtModule *m, const MtSpec *spec, MtSpan cut, MtCompiled **out);

/* The first error of the diagnostics from index `from` on (those of k's
 * compile) in k's statements: MtCompiled.first_error (prefix.c). */
MtSpan mt_first_error(const MtCtx *c, const MtCompiled *k, uint32_t from);

/* A positional signature that compiles k's kernel again as k was: every
 * parameter's value or type (with its divisibility hint), from partial
 * trees too, except the runtime parameters typed i32 only for want of a
 * use as a pointer (the use may lie after an error): their entries are
 * empty, so they are inferred again. With `elem`, the pointers typed
 * *fp32 only because of their use point to elem instead. NULL when an
 * entry cannot be written (a parameter without a type, a value with a
 * comma). In the arena. */
const char *mt_compiled_respec(MtCtx *c, const MtCompiled *k, const MtType *elem);

/* Value v's layout in words with whichever lowering compiled k; NULL when
 * there is no layout stage or v has no block layout. */
const char *mt_compiled_layout_describe(MtCtx *c, const MtCompiled *k, MtVal v);

/* One source line's share of the optimised SSA. */
typedef struct MtLineOps {
    uint32_t line;
    MT_VEC(const MtInst *) ops;
} MtLineOps;

/* The source map: for each source line of the kernel's file (and the
 * lines of helper call sites), the optimised SSA instructions it produced,
 * in program order. Sorted by line. */
MtLineOps *mt_source_map(MtCtx *c, MtCompiled *k, uint32_t *n);

#endif
