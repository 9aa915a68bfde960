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
};

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
