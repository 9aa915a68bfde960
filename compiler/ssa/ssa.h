/* ssa.h: typed SSA with structured `for` regions.
 *
 * A function is a region (an ordered list of instructions); a `for`
 * instruction owns a nested region whose last instruction is `yield`.
 * There are no basic blocks, branches or phis: loop-carried values are
 * region arguments (iter_args) fed by `yield`, as in MLIR's scf.for.
 *
 * Operands are MtVal handles, indices into fn->vals (QBE's Ref): index 0
 * means "none" (an absent mask / other). A value is a kernel parameter, a
 * constant, an instruction result, a loop induction variable, a region
 * argument or a loop result. Every value that is printed as %N keeps the
 * number N it got when it was created, so optimisation leaves gaps, as in
 * the seeds ("SSA IDs are stable debug names").
 *
 *   %5 = for %0 in range(0, K, 1) iter_args(%1 = 0.0) : f32 {
 *     %2 = addptr x, %0 : ptr<f32>
 *     %3 = load %2, none, none : f32
 *     %4 = add %1, %3 : f32
 *     yield %4
 *   }
 *   store out, %5, none
 */
#ifndef MT_SSA_H
#define MT_SSA_H

#include <stdbool.h>
#include <stdint.h>

#include "base/ctx.h"
#include "ssa/ops.h"
#include "types/type.h"

typedef uint32_t MtVal;       /* index into fn->vals; 0 = none */

typedef enum MtValKind {
    VK_NONE,                  /* slot 0 */
    VK_PARAM,                 /* printed by name */
    VK_CONST,                 /* printed inline: 256, 0.0, -inf, true */
    VK_INST,                  /* result of a single-result instruction */
    VK_IV,                    /* loop induction variable */
    VK_ARG,                   /* region argument (iter_arg) */
    VK_RESULT,                /* result of a for */
} MtValKind;

typedef struct MtInst MtInst;

typedef struct MtValue {
    uint8_t kind;             /* MtValKind */
    const MtType *ty;
    uint32_t num;             /* the printed %num (INST, IV, ARG, RESULT) */
    uint32_t index;           /* PARAM: parameter index; ARG/RESULT: carried slot */
    const char *name;         /* PARAM */
    uint32_t div;             /* PARAM: known to be a multiple of this (1, or 16 from a signature's ":16") */
    MtConst cst;              /* CONST */
    MtInst *def;              /* INST: defining instruction; IV/ARG/RESULT: the for */
} MtValue;

typedef struct MtRegion {
    MtInst **v;
    uint32_t n, cap;
} MtRegion;

typedef struct MtForData {
    int64_t step;             /* positive constant (when not dyn_step) */
    bool dyn_step;            /* the step is a runtime value: the for's last operand */
    MtVal iv;                 /* of the bounds' integer type (i32, or i64, ...) */
    MtVal *iter_args;         /* ncarried region arguments */
    MtVal *results;           /* ncarried results */
    uint32_t ncarried;
    MtRegion body;            /* ends with a yield of ncarried values */
} MtForData;

/* A region with arguments, owned by a structured operation other than
 * `for`: its instructions end with the region's terminator (yield, or
 * condition in a while's first region). */
typedef struct MtBody {
    MtVal *args;              /* region arguments (VK_ARG; `index` is the position) */
    uint32_t nargs;
    MtRegion insts;
} MtBody;

/* The regions and results of a structured operation (nests):
 *   reduce %x... {axis}: body[0] = combine(acc..., x...) -> yield n values;
 *                        results: the reduced blocks
 *   scan %x... {axis}:   the same, results of the operands' shapes
 *   if %c:               body[0] then, body[1] else, no arguments, each ends
 *                        with a yield of the results
 *   while %init...:      body[0] (arguments: the carried values) ends with
 *                        `condition %c, %v...`: when %c is false the loop
 *                        ends with results %v..., else body[1] (arguments:
 *                        %v...) runs and yields the next carried values
 * The results are VK_RESULT values numbered after the regions. */
typedef struct MtNest {
    MtBody body[2];
    uint32_t nbodies;
    MtVal *results;
    uint32_t nresults;
} MtNest;

struct MtInst {
    uint16_t op;              /* MtOpcode */
    const MtType *ty;         /* result type (NULL: no result) */
    MtVal dst;                /* result value (0: none; a FOR's results are in loop, a nest's in nest) */
    MtVal *args;
    uint32_t nargs;           /* LOAD: ptr, mask|0, other|0; STORE: ptr, value, mask|0; FOR: start, stop, inits...,
                               * step (a runtime step only) */
    MtAttrs attr;
    MtForData *loop;          /* FOR */
    MtNest *nest;             /* REDUCE, SCAN, IF, WHILE */
    MtSpan span;              /* source range of the expression that produced it */
    uint32_t inl;             /* inline site, as in MtExpr */
};

typedef struct MtFunc {
    const char *name;
    MtValue *vals;            /* vals[0] is VK_NONE */
    uint32_t nvals, capvals;
    MtVal *params;            /* VK_PARAM per runtime parameter, in order */
    uint32_t nparams;
    MtRegion body;
    uint32_t next_num;        /* next %num to hand out */
    /* Values the function keeps although no store needs them: what the
     * statements of a kernel's prefix bound (the editor's analysis of the
     * part before an error, compiler/api/prefix.c). DCE treats them as
     * used; fold and CSE forward them to what replaces them. Empty for a
     * whole kernel. */
    MT_VEC(MtVal) keep;
} MtFunc;

/* ---- building ------------------------------------------------------------- */

MtFunc *mt_func_new(MtCtx *c, const char *name);
MtVal mt_func_param(MtCtx *c, MtFunc *f, const char *name, const MtType *ty);
MtVal mt_func_const(MtCtx *c, MtFunc *f, MtConst k, const MtType *ty);
/* A new numbered value of kind VK_INST/IV/ARG/RESULT (num = next_num++). */
MtVal mt_func_value(MtCtx *c, MtFunc *f, MtValKind kind, const MtType *ty);
/* A new instruction appended to region r. If ty is non-NULL a result
 * value is created (numbered) and stored in inst->dst. */
MtInst *mt_inst_new(MtCtx *c, MtFunc *f, MtRegion *r, MtOpcode op, const MtType *ty,
                    const MtVal *args, uint32_t nargs, MtSpan span, uint32_t inl);
/* A new `for` instruction appended to r, with its induction variable (of
 * the type of start) and region arguments numbered now; results are
 * numbered by mt_for_finish after the body, as the seeds number them. A
 * runtime step is step_val (then `step` is unused), else 0. */
MtInst *mt_for_new(MtCtx *c, MtFunc *f, MtRegion *r, const MtVal *start_stop_inits, uint32_t ncarried,
                   int64_t step, MtVal step_val, MtSpan span, uint32_t inl);
void mt_for_finish(MtCtx *c, MtFunc *f, MtInst *loop);
/* A new structured operation (REDUCE, SCAN) appended to r, with nbodies
 * regions whose arguments (nargs[k] of them, of types argtys, all regions'
 * concatenated) are numbered now; mt_nest_finish numbers its results,
 * after the regions. */
MtInst *mt_nest_new(MtCtx *c, MtFunc *f, MtRegion *r, MtOpcode op, const MtVal *args, uint32_t nargs,
                    uint32_t nbodies, const uint32_t *nbody_args, const MtType *const *argtys, MtSpan span,
                    uint32_t inl);
void mt_nest_finish(MtCtx *c, MtFunc *f, MtInst *in, const MtType *const *tys, uint32_t n);
/* The region an instruction owns by index: a for's body (0), a nest's bodies. */
static inline uint32_t mt_inst_nregions(const MtInst *in) { return in->loop ? 1 : in->nest ? in->nest->nbodies : 0; }
static inline MtRegion *mt_inst_region(MtInst *in, uint32_t k)
{
    return in->loop ? &in->loop->body : &in->nest->body[k].insts;
}
void mt_region_push(MtCtx *c, MtRegion *r, MtInst *in);

static inline MtValue *mt_val(const MtFunc *f, MtVal v) { return &f->vals[v]; }
static inline const MtType *mt_val_ty(const MtFunc *f, MtVal v) { return f->vals[v].ty; }
static inline bool mt_val_is_const(const MtFunc *f, MtVal v) { return v && f->vals[v].kind == VK_CONST; }
/* Whether v is the integer constant `want` (not a float that equals it). */
static inline bool mt_val_is_int(const MtFunc *f, MtVal v, int64_t want)
{
    return mt_val_is_const(f, v) && f->vals[v].cst.kind == CST_INT && f->vals[v].cst.i == want &&
           !mt_ty_is_float(f->vals[v].ty);
}

/* ---- printing --------------------------------------------------------------- */

/* The seeds' SSA text. */
const char *mt_ssa_print(MtCtx *c, const MtFunc *f);
/* The same, marking each line with its instruction's source range
 * (marks may be NULL). */
const char *mt_ssa_print_marked(MtCtx *c, const MtFunc *f, MtLineMarks *marks);
void mt_ssa_print_inst(MtBuf *b, const MtFunc *f, const MtInst *in, int indent);
void mt_ssa_print_operand(MtBuf *b, const MtFunc *f, MtVal v);

/* ---- utilities for passes --------------------------------------------------- */

/* Call fn on every instruction, nested regions included, in program order
 * (a for before its body). */
void mt_func_walk(MtFunc *f, void (*fn)(MtInst *in, void *ud), void *ud);
/* Replace every use of `from` by `to` (nested regions included). */
void mt_func_replace_uses(MtFunc *f, MtVal from, MtVal to);
/* Use counts of every value (array of nvals), nested regions included. */
uint32_t *mt_func_use_counts(MtCtx *c, const MtFunc *f);
/* The instruction of region r (not its nested regions) that uses v, when
 * that is v's one use (uses: mt_func_use_counts); NULL otherwise. */
const MtInst *mt_region_only_user(const MtRegion *r, MtVal v, const uint32_t *uses);
/* A deep copy of f whose values keep their numbers (ssa/clone.c). */
MtFunc *mt_func_clone(MtCtx *c, const MtFunc *f);
/* Remove carried slot i of a `for` (its init operand, region argument,
 * yield operand and result together) and renumber the later slots. The
 * caller has already redirected every use of the argument and result. */
void mt_for_remove_slot(MtFunc *f, MtInst *loop, uint32_t i);

#endif
