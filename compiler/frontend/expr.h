/* expr.h: the expression tree (a DAG) that the frontend builds from a
 * kernel's AST for one specialisation.
 *
 * The frontend evaluates everything that is known at compile time
 * (constexprs, module constants, static loops, helper inlining, `if` on
 * constants) and leaves a graph of runtime values: nodes are shared where a
 * Python name is reused, exactly as the seeds' symbolic values are. The
 * side effects form the root list in program order: stores and runtime
 * loops. Loads and pure values are reached from the roots.
 *
 * Nodes are untyped when built; types/infer.c fills `ty` for every node
 * reachable from the roots (and reports every type error with the span of
 * the node). SSA lowering then walks the roots depth-first.
 */
#ifndef MT_EXPR_H
#define MT_EXPR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/ctx.h"
#include "base/strbuf.h"
#include "ssa/ops.h"
#include "types/type.h"

typedef enum MtExprKind {
    EX_PARAM,                 /* runtime kernel parameter: u.param */
    EX_CONST,                 /* u.cst */
    EX_OP,                    /* op (MtOpcode) with attr over args: every operation of ops.def that is
                               * not a region (a STORE is a root; a LOAD's args are ptr, mask|NULL,
                               * other|NULL; a STORE's ptr, value, mask|NULL) */
    EX_FOR,                   /* root; u.loop; args: start, stop, init... */
    EX_LOOP_IV,               /* induction variable of u.loop */
    EX_LOOP_ARG,              /* region argument u.slot.index of u.slot.loop */
    EX_LOOP_RESULT,           /* result u.slot.index of u.slot.loop (after the loop) */
    EX_NEST,                  /* u.nest: op (REDUCE, SCAN) with regions; args: its operands */
    EX_NEST_ARG,              /* region argument u.nslot.index of body u.nslot.body of u.nslot.nest */
    EX_NEST_RESULT,           /* result u.nslot.index of u.nslot.nest */
    EX_KIND_COUNT_
} MtExprKind;

typedef struct MtExpr MtExpr;
typedef struct MtExprLoop MtExprLoop;
typedef struct MtExprNest MtExprNest;

typedef struct MtExprList {
    MtExpr **v;
    uint32_t n, cap;
} MtExprList;

struct MtExpr {
    uint16_t kind;            /* MtExprKind */
    uint16_t op;              /* EX_OP: MtOpcode */
    uint32_t id;              /* creation order, for printing ("e12") */
    MtSpan span;              /* the source expression that made it */
    uint32_t inl;             /* inline site (ctx->inl) of the helper it was created in, 0 = kernel */
    const MtType *ty;         /* NULL until infer.c (a constant may be given its type when it is made) */
    bool failed;              /* inference reported an error here or below: no type, no second report */
    bool hidden;              /* made by an expansion (a library function, an implicit conversion), not written
                               * by the user: never "computed but never used" */
    MtExpr **args;
    uint32_t nargs;
    MtAttrs attr;             /* EX_OP */
    union {
        struct {
            const char *name;
            uint32_t index;
            const MtType *ty;                         /* NULL: infer from use */
            uint32_t div;                             /* a signature's ":16": a multiple of 16 (else 1) */
        } param;
        MtConst cst;
        MtExprLoop *loop;                             /* FOR, LOOP_IV */
        struct { MtExprLoop *loop; uint32_t index; } slot; /* LOOP_ARG, LOOP_RESULT */
        MtExprNest *nest;                             /* NEST */
        struct { MtExprNest *nest; uint32_t body, index; } nslot; /* NEST_ARG, NEST_RESULT */
    } u;
};

/* One region of a nest: its arguments, its side effects (roots) and the
 * values it ends with. */
typedef struct MtExprBody {
    uint32_t nargs;
    MtExpr **arg;             /* EX_NEST_ARG per region argument */
    MtExprList roots;         /* stores and loops inside, program order */
    uint32_t nyield;
    MtExpr **yield;
} MtExprBody;

/* A structured operation with regions other than `for`:
 *  - tl.reduce and tl.associative_scan (one combine region: arguments
 *    acc..., x...; yields one value per operand). Pure: lowered where its
 *    results are first needed; its region computes from its arguments.
 *  - a runtime `if` (args: the condition; then and else regions without
 *    arguments, yielding the values of the names either branch assigns):
 *    a root, like a loop;
 *  - a `while` (args: the carried values' inits; the condition region
 *    yields the condition then the carried values, the body region takes
 *    them and yields the next ones): a root. */
struct MtExprNest {
    MtExpr *node;             /* the EX_NEST node */
    uint32_t nbodies;
    MtExprBody body[2];
    uint32_t nresults;
    MtExpr **result;          /* EX_NEST_RESULT */
    const char **names;       /* if, while: the variable each result (carried value) is */
    MtExprList captures;      /* if, while: outer values the regions read, lowered before it */
};

/* A runtime `for` loop: a structured region with loop-carried values. */
struct MtExprLoop {
    MtExpr *node;             /* the EX_FOR node (start, stop, inits... in its args; then a runtime step) */
    int64_t step;             /* positive compile-time step (unless dyn_step) */
    bool dyn_step;            /* the step is a runtime value, the node's last argument */
    const char *iv_name;
    MtExpr *iv;               /* EX_LOOP_IV */
    uint32_t ncarried;
    const char **names;       /* carried variable names */
    MtExpr **arg;             /* EX_LOOP_ARG per carried value (its value at iteration start) */
    MtExpr **yield;           /* value at the end of the body */
    MtExpr **result;          /* EX_LOOP_RESULT per carried value */
    MtExprList captures;      /* outer values read by the body, lowered before the loop */
    MtExprList body;          /* roots inside the body: stores and nested loops, program order */
    MtSpan span;              /* the `for` statement header */
};

/* The frontend's result for one specialised kernel. */
typedef struct MtExprProgram {
    const char *kernel;
    MtExpr **params;          /* EX_PARAM per runtime parameter, in order */
    uint32_t nparams;
    /* Every kernel parameter as the launch sees it: runtime ones get their
     * `type` once inference has typed them, specialised ones a `value`. */
    MtKernelParam *sig;
    MtExpr **sig_param;       /* per sig entry: its EX_PARAM, or NULL when specialised */
    uint32_t nsig;
    MtExprList roots;         /* stores and loops in program order (and, in a prefix analysis, kept values) */
    MtExprList all;           /* every node, in creation order (all[i]->id == i) */
    bool report_inferred;     /* say which parameter types came from their use (I0902) */
    /* The frontend or type inference stopped at errors: the tree holds the
     * nodes of what could be evaluated (and typed), for editors' queries;
     * it is never lowered. */
    bool partial;
    /* A prefix analysis (mt_frontend's cut): the values its statements
     * left bound, each also a root of the region it was bound in (the
     * kernel's, or a runtime loop body's), so that it is lowered there and
     * kept (MtFunc.keep) although no store reads it. Empty otherwise. */
    MtExprList keep;
    bool *inferred;           /* per runtime parameter: its type comes from its use */
    uint32_t nexprs;          /* ids handed out */
} MtExprProgram;

MtExpr *mt_expr_new(MtCtx *c, MtExprProgram *p, MtExprKind kind, MtSpan span, uint32_t inl, uint32_t nargs);
/* An EX_OP node of opcode op. */
MtExpr *mt_expr_op(MtCtx *c, MtExprProgram *p, MtOpcode op, MtSpan span, uint32_t inl, uint32_t nargs);
void mt_expr_list_push(MtCtx *c, MtExprList *l, MtExpr *e);

/* Print the typed tree (`--emit expr`): the nodes reachable from the roots
 * in depth-first lowering order, one per line, with their types. Each line
 * is marked with its node's source range when `marks` is not NULL. */
const char *mt_expr_print(MtCtx *c, const MtExprProgram *p, MtLineMarks *marks);

#endif
