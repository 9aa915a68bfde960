/* emit.h: the MLIR backend module's shared state and helpers.
 *
 * One Em builds one kernel: a builtin.module holding a gpu.module holding
 * the gpu.func of the kernel layer's KFunc. ir.c builds operations through
 * the C API (mlirOperationCreate: no text is parsed except the one dialect
 * enum attribute the C API has no constructor for, #nvvm<shfl_kind bfly>),
 * expr.c lowers expressions, stmt.c statements and control flow, text.c
 * prints a module with a source mark per line, pipeline.c runs MLIR's GPU
 * pipeline to PTX, entry.c is the module's entry point.
 *
 * Values of the kernel layer's variables: scalar locals and register
 * arrays are SSA values, not memory. `env` holds the current value of
 * every register (one slot per local, one per array element); an
 * assignment replaces the slot's value, and structured control flow
 * carries the slots a region assigns as scf.if results, scf.for iter_args
 * and scf.while arguments. A register array that some statement indexes
 * with a value known only at run time lives in memory instead (an
 * llvm.alloca, which LLVM's SROA promotes where it can), as CUDA does with
 * local arrays. Shared arrays are llvm.mlir.global symbols in address
 * space 3; global memory is reached through !llvm.ptr parameters. */
#ifndef MT_MLIR_EMIT_H
#define MT_MLIR_EMIT_H

#include <mlir-c/IR.h>
#include <stdarg.h>
#include <stdbool.h>

#include "mlir/plugin.h"

/* A growable heap string. */
typedef struct Str {
    char *s;
    size_t n, cap;
    bool oom;
} Str;
void str_add(Str *s, const char *p, size_t n);
void str_printf(Str *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void str_free(Str *s);

/* A location the backend made, and the statement it stands for. */
typedef struct LocRec {
    MlirLocation loc;
    MtSpan span;
    uint32_t inl;
} LocRec;

typedef struct Em {
    MlirContext ctx;
    const MtMlirRequest *req;
    const KFunc *f;
    MlirModule module;
    MlirBlock gpu_body;           /* the gpu.module's block: symbol declarations */
    MlirBlock entry;              /* the kernel's entry block: constants are hoisted here */
    MlirOperation last_const;     /* the last hoisted constant (insertion point), or null */
    MlirBlock block;              /* where new operations go */
    MlirLocation loc;             /* the current statement's location */
    MlirLocation unknown;
    /* variables */
    MlirValue *param;             /* per variable: a parameter's block argument */
    uint32_t *slot;               /* per variable: first env slot (locals, register arrays in SSA) */
    uint32_t nslots;
    MlirValue *env;               /* per slot: current value, or null before the first assignment */
    uint8_t *slot_dt;             /* per slot: its MtDtype */
    KVarId *slot_var;             /* per slot: its variable */
    MlirValue *mem;               /* per variable: an alloca for a register array kept in memory */
    bool *in_memory;
    /* symbols declared in the gpu.module: libdevice functions */
    char **decls;
    uint32_t ndecls;
    MlirAttribute shfl_bfly;      /* #nvvm<shfl_kind bfly>, made on first use */
    /* locations and diagnostics */
    LocRec *locs;
    uint32_t nlocs, caplocs;
    uint32_t last_stmt;           /* the latest statement location in locs */
    MtMlirResult *out;
    bool failed;
} Em;

/* ---- diagnostics (entry.c) ---------------------------------------------------- */

void em_diag(Em *e, const char *code, MtSpan span, uint32_t inl, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* E1002 at the current statement: a construct the backend cannot lower. */
void em_unsupported(Em *e, const char *what);
/* The statement behind a location the backend made; false for others. */
bool em_loc_find(const Em *e, MlirLocation loc, MtSpan *span, uint32_t *inl);
/* The location of a statement (file range, inside its inline call sites). */
MlirLocation em_stmt_loc(Em *e, MtSpan span, uint32_t inl);
/* `loc` named (NameLoc): the printer shows values made there as %name. */
MlirLocation em_named_loc(Em *e, const char *name, MlirLocation loc);
/* The name of slot s: its variable's, with the element index for arrays. */
void em_slot_name(const Em *e, uint32_t s, char *buf, size_t len);

/* ---- building operations (ir.c) -------------------------------------------------- */

MlirType ty_of(Em *e, MtDtype dt);          /* the value's type: i1 for bool */
MlirType ty_mem(Em *e, MtDtype dt);         /* its type in memory: i8 for bool */
MlirType ty_int(Em *e, unsigned bits);
MlirType ty_ptr(Em *e, unsigned addrspace);
bool dt_is_float(MtDtype dt);
bool dt_is_half(MtDtype dt);
bool dt_is_unsigned(MtDtype dt);            /* unsigned integers and bool */
unsigned dt_bits(MtDtype dt);

MlirNamedAttribute named(Em *e, const char *name, MlirAttribute a);
MlirAttribute attr_i64(Em *e, int64_t v);
MlirAttribute attr_i32(Em *e, int32_t v);
MlirAttribute attr_str(Em *e, const char *s);
MlirAttribute attr_i32s(Em *e, int n, const int32_t *v);

/* Create an operation at the current location and append it to e->block. */
MlirOperation op_make(Em *e, const char *name, int nres, const MlirType *res, int nopd, const MlirValue *opd,
                      int nattr, const MlirNamedAttribute *attrs, int nreg, MlirRegion *regions);
MlirValue op_value(Em *e, const char *name, MlirType res, int nopd, const MlirValue *opd, int nattr,
                   const MlirNamedAttribute *attrs);
MlirValue op1(Em *e, const char *name, MlirType res, MlirValue a);
MlirValue op2(Em *e, const char *name, MlirType res, MlirValue a, MlirValue b);
/* A region of one block with these arguments; *block receives the block. */
MlirRegion region_new(Em *e, int nargs, const MlirType *types, MlirBlock *block);

/* Constants, hoisted to the top of the kernel and shared. */
MlirValue c_int(Em *e, MtDtype dt, int64_t v);
MlirValue c_intw(Em *e, unsigned bits, int64_t v);
MlirValue c_float(Em *e, MtDtype dt, double v);
MlirValue c_zero(Em *e, MtDtype dt);
MlirValue c_attr(Em *e, MlirType t, MlirAttribute a);

/* arith.cmpi / arith.cmpf predicates by name. */
MlirValue cmp_i(Em *e, const char *pred, MlirValue a, MlirValue b);
MlirValue cmp_f(Em *e, const char *pred, MlirValue a, MlirValue b);
MlirValue select_v(Em *e, MlirValue c, MlirValue a, MlirValue b);

/* Value conversions with the kernel layer's (CUDA's) rules. */
MlirValue conv(Em *e, MlirValue v, MtDtype from, MtDtype to);
MlirValue to_bool(Em *e, MlirValue v, MtDtype from);
/* A call of a libdevice function (__nv_<name>), declared on first use. */
MlirValue call_libdevice(Em *e, const char *name, MlirType res, int n, const MlirValue *args);
/* llvm.call_intrinsic of an LLVM intrinsic the dialect has no op for. */
MlirValue call_intrinsic(Em *e, const char *name, MlirType res, int n, const MlirValue *args);

/* Memory. */
MlirValue gep(Em *e, MlirValue base, MlirType elem, MlirType ptr_ty, bool array, MlirValue index);
MlirValue load_v(Em *e, MlirType t, MlirValue ptr, unsigned align);
void store_v(Em *e, MlirValue v, MlirValue ptr, unsigned align);

/* ---- expressions (expr.c) -------------------------------------------------------- */

MlirValue ex(Em *e, const KExpr *x);
/* An expression converted to dt. */
MlirValue ex_as(Em *e, const KExpr *x, MtDtype dt);
/* Whether evaluating x may fault (it reads global memory): such operands
 * of select, && and || are evaluated only when chosen, as in C. */
bool ex_may_fault(const KExpr *x);
/* The address of element `index` of a pointer parameter or a shared or
 * in-memory register array. */
MlirValue elem_addr(Em *e, KVarId v, MlirValue index, MtDtype index_dt);

/* ---- atomics (atomic.c) ------------------------------------------------------------ */

/* The old value of a KST_ATOMIC (0 where its mask is false). */
MlirValue em_atomic(Em *e, const KAtomic *a);

/* ---- statements (stmt.c) ----------------------------------------------------------- */

/* The module for e->f; false after a diagnostic. */
bool em_build(Em *e);

/* ---- text (text.c) ----------------------------------------------------------------- */

/* The module printed, with the source mark of every line whose operation
 * the backend made. */
bool em_print(Em *e, MlirOperation op, MtMlirText *out);

/* ---- pipeline (pipeline.c) ----------------------------------------------------------- */

void em_pipeline_text(int sm, const char *toolkit, char *buf, size_t len);
/* The CUDA toolkit folder for libdevice: `requested`, else $CUDA_HOME,
 * $CUDA_PATH, the toolkit CMake found, /usr/local/cuda. */
const char *em_toolkit(const char *requested);
/* The GPU lowering passes (to the LLVM and NVVM dialects), in place. */
bool em_lower(Em *e);
/* gpu-module-to-binary to PTX (heap string in *ptx). */
bool em_ptx(Em *e, char **ptx);

#endif
