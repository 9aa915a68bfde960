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
#include "types/type.h"

typedef enum MtExprKind {
    EX_PARAM,                 /* runtime kernel parameter: u.param */
    EX_CONST,                 /* u.cst */
    EX_PROGRAM_ID,            /* u.axis */
    EX_ARANGE,                /* u.range */
    EX_BINARY,                /* op (MtBinOp): args[0] op args[1] */
    EX_UNARY,                 /* op (MtUnOp): op args[0] */
    EX_WHERE,                 /* args: cond, a, b */
    EX_LOAD,                  /* args: ptr, mask (NULL), other (NULL) */
    EX_STORE,                 /* root; args: ptr, value, mask (NULL) */
    EX_REDUCE,                /* op (MtReduceOp), u.axis, args[0] */
    EX_EXPAND_DIMS,           /* u.axis, args[0] */
    EX_FACTORY,               /* op (MtFactoryKind), u.factory; args[0] = fill value for full */
    EX_DOT,                   /* args: a, b */
    EX_FOR,                   /* root; u.loop; args: start, stop, init... */
    EX_LOOP_IV,               /* induction variable of u.loop */
    EX_LOOP_ARG,              /* region argument u.slot.index of u.slot.loop */
    EX_LOOP_RESULT,           /* result u.slot.index of u.slot.loop (after the loop) */
    EX_KIND_COUNT_
} MtExprKind;

typedef enum MtBinOp {
    BIN_ADD, BIN_SUB, BIN_MUL, BIN_DIV, BIN_FLOORDIV, BIN_MOD,
    BIN_AND, BIN_OR, BIN_XOR,
    BIN_LT, BIN_LE, BIN_GT, BIN_GE, BIN_EQ, BIN_NE,
    BIN_MAXIMUM, BIN_MINIMUM,
    BIN_COUNT_
} MtBinOp;

typedef enum MtUnOp {
    UN_NEG,                   /* -x */
    UN_NOT,                   /* ~x: bitwise / logical not */
    UN_EXP,                   /* tl.exp */
    UN_COUNT_
} MtUnOp;

typedef enum MtReduceOp { RED_SUM, RED_MAX, RED_MIN } MtReduceOp;

enum { MT_AXIS_NONE = -100 };   /* EX_REDUCE without an axis argument */

typedef enum MtFactoryKind { FAC_ZEROS, FAC_FULL, FAC_EMPTY } MtFactoryKind;

typedef enum MtConstKind { CST_BOOL, CST_INT, CST_FLOAT } MtConstKind;

/* A compile-time scalar as it appears in IR (Python int/float/bool). */
typedef struct MtConst {
    uint8_t kind;             /* MtConstKind */
    int64_t i;                /* CST_BOOL (0/1), CST_INT */
    double f;                 /* CST_FLOAT */
} MtConst;

typedef struct MtExpr MtExpr;
typedef struct MtExprLoop MtExprLoop;

typedef struct MtExprList {
    MtExpr **v;
    uint32_t n, cap;
} MtExprList;

struct MtExpr {
    uint16_t kind;            /* MtExprKind */
    uint16_t op;              /* BINARY: MtBinOp, UNARY: MtUnOp, REDUCE: MtReduceOp, FACTORY: MtFactoryKind */
    uint32_t id;              /* creation order, for printing ("e12") */
    MtSpan span;              /* the source expression that made it */
    uint32_t inl;             /* inline site (ctx->inl) of the helper it was created in, 0 = kernel */
    const MtType *ty;         /* NULL until infer.c */
    MtExpr **args;
    uint32_t nargs;
    union {
        struct { const char *name; uint32_t index; const MtType *ty; } param; /* ty NULL: infer from use */
        MtConst cst;
        int axis;                                     /* PROGRAM_ID, EXPAND_DIMS, REDUCE (-1 = none given) */
        struct { int64_t start, end; } range;         /* ARANGE */
        struct {                                      /* FACTORY */
            uint8_t rank;
            int32_t shape[MT_MAX_RANK];
            const MtType *dtype;                      /* scalar element type */
        } factory;
        MtExprLoop *loop;                             /* FOR, LOOP_IV */
        struct { MtExprLoop *loop; uint32_t index; } slot; /* LOOP_ARG, LOOP_RESULT */
    } u;
};

/* A runtime `for` loop: a structured region with loop-carried values. */
struct MtExprLoop {
    MtExpr *node;             /* the EX_FOR node (start/stop/inits in its args) */
    int64_t step;             /* positive compile-time step */
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
    MtExprList roots;         /* stores and loops in program order */
    MtExprList all;           /* every node, in creation order (all[i]->id == i) */
    bool report_inferred;     /* say which parameter types came from their use (I0902) */
    uint32_t nexprs;          /* ids handed out */
} MtExprProgram;

MtExpr *mt_expr_new(MtCtx *c, MtExprProgram *p, MtExprKind kind, MtSpan span, uint32_t inl, uint32_t nargs);
void mt_expr_list_push(MtCtx *c, MtExprList *l, MtExpr *e);

/* A constant as IR prints it: 256, 0.0, -inf, 1e-05, true. */
void mt_const_print(MtBuf *b, MtConst k);

const char *mt_binop_name(MtBinOp op);   /* SSA spelling: "add", "cmp_lt", "maximum", ... */
const char *mt_binop_symbol(MtBinOp op); /* Python spelling: "+", "<", "tl.maximum", ... */
const char *mt_unop_name(MtUnOp op);     /* "neg", "not", "exp" */
const char *mt_reduce_name(MtReduceOp op); /* "sum", "max", "min" */

/* Print the typed tree (`--emit expr`): the nodes reachable from the roots
 * in depth-first lowering order, one per line, with their types. */
const char *mt_expr_print(MtCtx *c, const MtExprProgram *p);

#endif
