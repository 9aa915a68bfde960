/* fe.h: internals of the frontend (AST -> expression tree).
 *
 * The frontend is an abstract interpreter of the kernel's Python: it runs
 * the statements once, evaluating everything known at compile time as
 * Python would (constexprs, module constants, static loops, `if` on
 * constants, helper calls) and building expression nodes for runtime
 * values. A value is an FValue: a Python object known now (int, float,
 * tuple, dtype, module, function, ...) or a runtime expression (FV_EXPR).
 *
 * Files: frontend.c (entry, statements, loops, helper inlining),
 * eval.c (expressions), builtins.c (tl.* and Python builtins),
 * pyvalue.c (Python semantics of compile-time values), specialize.c
 * (signature, -D, defaults, directives), expr_print.c (--emit expr).
 */
#ifndef MT_FE_H
#define MT_FE_H

#include "base/ctx.h"
#include "expr.h"
#include "frontend.h"
#include "syntax/ast.h"

typedef enum FvKind {
    FV_UNDEF,                 /* no value (a failed evaluation; errors already reported) */
    FV_NONE,
    FV_BOOL,                  /* u.i */
    FV_INT,                   /* u.i; with `big`, the bits of a value in [2^63, 2^64) */
    FV_FLOAT,                 /* u.f */
    FV_STR,                   /* u.s */
    FV_TUPLE,                 /* u.tup (is_list for list displays) */
    FV_DTYPE,                 /* u.dtype: a Triton type object: tl.float16 (a scalar type), a pointer type
                               * (x.dtype of a pointer block), a block type (x.type) */
    FV_MODULE,                /* u.s: canonical dotted path ("triton.language", "math", "numpy") */
    FV_FUNC,                  /* u.fn: a jit function of this file */
    FV_BUILTIN,               /* u.builtin: a tl / triton / Python / math function (builtins.def) */
    FV_OPAQUE,                /* u.s: a name from host code (numpy.float32, a class, ...) */
    FV_RANGE,                 /* u.range: range() / tl.static_range() / tl.range() object */
    FV_SLICE,                 /* the `:` of x[:, None] */
    FV_EXPR,                  /* u.e: a runtime value */
    FV_METHOD,                /* u.method: a bound method (x.to, dtype.is_fp16), called next */
    FV_BLOCKPTR,              /* u.bp: tl.make_block_ptr's block pointer (its parts are values) */
} FvKind;

typedef enum RangeKind { RANGE_PY, RANGE_STATIC, RANGE_TL } RangeKind;

typedef struct FValue FValue;
typedef struct FeBuiltin FeBuiltin;
typedef struct FeBlockPtr FeBlockPtr;
struct FValue {
    uint8_t kind;             /* FvKind */
    bool is_list;
    bool big;                 /* FV_INT: u.i holds a value beyond INT64_MAX (a u64 constant) */
    union {
        int64_t i;
        double f;
        const char *s;
        struct { FValue *v; uint32_t n; } tup;
        const MtType *dtype;
        const MtFuncDef *fn;
        const FeBuiltin *builtin;
        MtExpr *e;
        struct { FValue *bounds; uint8_t kind; MtSpan span; } range; /* bounds[3] = start, stop, step */
        struct { FValue *self; const char *name; MtSpan span; } method;
        const FeBlockPtr *bp;
    } u;
};

/* A block pointer (tl.make_block_ptr): a compile-time structure of values.
 * Loads and stores through it become ordinary pointer blocks and masks
 * (frontend), so the IR never sees one; in runtime loops and branches its
 * runtime parts are carried one by one. */
struct FeBlockPtr {
    int rank;
    FValue base;              /* a scalar pointer */
    FValue shape[MT_MAX_RANK], strides[MT_MAX_RANK], offsets[MT_MAX_RANK]; /* numbers or runtime scalars */
    int32_t block[MT_MAX_RANK]; /* block_shape, compile-time */
    int32_t order[MT_MAX_RANK]; /* compile-time; a layout hint */
};

/* A name binding in a scope. A name first assigned inside a runtime loop
 * leaves a tombstone in the enclosing scope (loop_local) so a later use
 * gets a precise error rather than "undefined". */
typedef struct Binding {
    const char *name;
    FValue v;
    bool loop_local;          /* a tombstone: defined only inside the runtime loop (or branch) at loop_span */
    bool branch_local;        /* ... the runtime `if` (one branch only) */
    MtSpan loop_span;
} Binding;

typedef struct Scope Scope;
struct Scope {
    MT_VEC(Binding) names;
    Scope *parent;            /* enclosing scope of the same function, NULL at function level */
    MtExprLoop *loop;         /* the runtime loop whose body this scope is, or NULL */
    MtExprList *captures;     /* a runtime loop's or if's or while's: outer runtime values read inside */
};

/* A statement list being executed and the next statement in it: the
 * continuation an early `return` in a runtime `if` moves into a branch.
 * A barrier (body NULL) stands for what cannot be moved: the rest of a
 * compile-time loop, or a runtime `if` whose branches do not return. */
typedef struct Cont {
    const MtNodeList *body;
    uint32_t next;
} Cont;

typedef struct Frame Frame;
struct Frame {
    const MtFuncDef *fn;
    Scope *scope;             /* innermost scope */
    uint32_t cont_base;       /* this frame's first entry of Fe.conts */
    uint32_t inl;             /* inline site of this call (0 = the kernel) */
    Frame *caller;
    bool returned;            /* a `return` has run: skip the rest */
    FValue ret;
    MtSpan ret_span;
    int runtime_loops;        /* runtime loops open in this frame */
};

/* Where nodes with side effects go: the kernel's root list or a loop body. */
typedef struct Region Region;
struct Region {
    MtExprList *roots;
    Region *parent;
};

typedef struct Fe {
    MtCtx *c;
    const MtModule *m;
    const MtSpec *spec;
    MtExprProgram *prog;
    Frame *frame;
    Region *region;
    int depth;                /* inline depth */
    int unrolled;             /* static loop iterations so far (budget) */
    MT_VEC(const char *) evaluating_globals; /* cycle guard for module constants */
    /* Editor mode: a parameter typed i32 by a question about its type
     * (x.dtype) turned out to address memory; frontend.c runs the kernel
     * again with it a pointer from the start. */
    bool retype_pointers;
    MtExpr *dtype_of;         /* the value of the last x.dtype / x.type: x.dtype.element_ty makes x a pointer */
    const bool *pointers;     /* the second run: per runtime parameter, it addresses memory */
    const bool *int_pointers; /* the second run: per runtime parameter, a pointer to indices (*i32) */
    MT_VEC(const char *) pointer_names; /* parameters the kernel asks p.dtype.element_ty of: pointers */
    MT_VEC(Cont) conts;       /* the statement lists being executed, innermost last */
    bool *addresses;          /* per runtime parameter: a load or store address is based on it */
    /* A prefix analysis: the kernel's own statements run up to this byte
     * offset of its file, the first error of a whole compile (0: all of
     * them). See frontend.c. */
    uint32_t cut;
} Fe;

enum { FE_MAX_INLINE_DEPTH = 64, FE_MAX_UNROLL = 16384 };

/* ---- values ---------------------------------------------------------------- */

static inline FValue fv_undef(void) { FValue v = {.kind = FV_UNDEF}; return v; }
static inline FValue fv_none(void) { FValue v = {.kind = FV_NONE}; return v; }
static inline FValue fv_int(int64_t i) { FValue v = {.kind = FV_INT}; v.u.i = i; return v; }
static inline FValue fv_bool(bool b) { FValue v = {.kind = FV_BOOL}; v.u.i = b; return v; }
static inline FValue fv_float(double f) { FValue v = {.kind = FV_FLOAT}; v.u.f = f; return v; }
static inline FValue fv_expr(MtExpr *e) { FValue v = {.kind = FV_EXPR}; v.u.e = e; return v; }
static inline bool fv_is_number(FValue v) { return v.kind == FV_BOOL || v.kind == FV_INT || v.kind == FV_FLOAT; }

/* "int", "float", "tuple", "runtime value", ... for messages. */
const char *fv_kind_name(FValue v);
/* Python repr of a compile-time value ("256", "True", "(1, 2)"). */
const char *fv_repr(MtCtx *c, FValue v);

/* ---- pyvalue.c: Python semantics of compile-time values -------------------- */

/* Evaluate `a op b` on compile-time values (op: MtOp of a binary operator or
 * comparison); reports E0312 on failure. */
FValue py_binop(Fe *fe, MtOp op, FValue a, FValue b, MtSpan sp);
FValue py_compare(Fe *fe, int op, bool negated, FValue a, FValue b, MtSpan sp);
FValue py_unary(Fe *fe, int op, FValue a, MtSpan sp);
/* Python truth value; reports E0206 for runtime values. */
bool py_truth(Fe *fe, FValue v, MtSpan sp, bool *ok);
bool py_as_int(FValue v, int64_t *out);
/* A compile-time int or bool as a 128-bit integer (u64 values included). */
bool py_as_int128(FValue v, __int128 *out);
/* The int v, or E0312 at sp when it is outside [-2^63, 2^64). */
FValue py_int128(Fe *fe, __int128 v, MtSpan sp);
bool py_as_double(FValue v, double *out);
bool py_equal(FValue a, FValue b);
/* Parse a Python literal ("256", "1e-5", "True", "None", "-3", "'relu'") as used in
 * signatures and defines. */
bool py_parse_literal(MtCtx *c, const char *text, FValue *out);

/* ---- eval.c ---------------------------------------------------------------------- */

FValue fe_eval(Fe *fe, const MtNode *n);
/* A runtime expression for v (compile-time numbers become constants);
 * reports E0416 and returns NULL for non-numbers. */
MtExpr *fe_to_expr(Fe *fe, FValue v, MtSpan sp);
MtExpr *fe_new(Fe *fe, MtExprKind kind, MtSpan sp, uint32_t nargs);
FValue fe_binary(Fe *fe, MtOpcode op, FValue a, FValue b, MtSpan sp);
/* A new EX_OP node of op at sp in the current frame. */
MtExpr *fe_op(Fe *fe, MtOpcode op, MtSpan sp, uint32_t nargs);
/* `a op b` for a Python binary operator: folded when both are known at
 * compile time, a node otherwise. */
FValue fe_eval_binop(Fe *fe, MtOp op, FValue a, FValue b, MtSpan sp);
/* Evaluate a module-level name (lazily, once per use). */
FValue fe_global(Fe *fe, const char *name, MtSpan sp, bool *found);
FValue fe_lookup(Fe *fe, const char *name, MtSpan sp);
void fe_assign(Fe *fe, const char *name, FValue v);
/* Report an error at sp with notes for the inline chain of the current frame. */
MtDiagRec *fe_error(Fe *fe, MtSpan sp, const char *code, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* ---- builtins.c ------------------------------------------------------------------ */

typedef struct CallArgs {
    const MtNode *call;       /* the ND_CALL, for spans */
    FValue *pos;
    MtSpan *pos_span;
    uint32_t npos;
    const char **kw_name;
    FValue *kw;
    MtSpan *kw_span;
    uint32_t nkw;
} CallArgs;

enum { FE_MAX_PARAMS = 12 };

/* A call's arguments bound to a builtin's parameters (builtins.def):
 * v[i] is parameter i's value, its default when not given. Raw handlers
 * (params NULL) read `call` instead. */
typedef struct FeArgs {
    const CallArgs *call;
    uint32_t n;
    const char *names[FE_MAX_PARAMS];
    FValue v[FE_MAX_PARAMS];
    MtSpan sp[FE_MAX_PARAMS];
    bool given[FE_MAX_PARAMS];
} FeArgs;

typedef FValue (*FeHandler)(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp);

/* A function row of builtins.def. */
struct FeBuiltin {
    int id;                   /* BuiltinId */
    const char *path;         /* canonical dotted path */
    const char *params;       /* Triton's parameter list, NULL for raw handlers */
    FeHandler handler;
    int op;                   /* MtOpcode for the generic handlers */
};

/* Resolve a dotted path ("triton.language.load", "math.pi") to a value:
 * a builtin, a dtype, a constant or a (sub)module; FV_OPAQUE if unknown. */
FValue fe_resolve_path(Fe *fe, const char *path);
bool fe_is_module(const char *path);
FValue fe_call_builtin(Fe *fe, const FeBuiltin *bi, const CallArgs *a, MtSpan sp);
/* The function row of the tensor method x.name(...), or NULL. */
const FeBuiltin *fe_tensor_method(const char *name);
const char *fe_builtin_name(const FeBuiltin *bi);      /* its path */
const char *fe_builtin_display(Fe *fe, const FeBuiltin *bi); /* "tl.load", "range" */

/* ---- tl_builtins.c, py_builtins.c: helpers shared by the handlers ---------------- */

/* The handlers of builtins.def's functions: bound ones get the arguments
 * by parameter position, raw ones (params NULL) the call as written. */
#define FN(id, mod, name, params, handler, op, ret, doc, pdoc) \
    FValue b_##handler(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp);
#define MODULE(mod)
#define CONST(mod, name, value)
#define MEMBER(name, fn)
#include "builtins.def"
#undef MODULE
#undef FN
#undef CONST
#undef MEMBER

/* A dtype argument (tl.float16, ...); E0409 naming fname otherwise. */
bool fe_dtype_arg(Fe *fe, FValue v, MtSpan sp, const char *fname, const MtType **out);
/* x converted to element type `to` as tl.cast does (x itself when it has
 * that type already); NULL after a type error in x. */
MtExpr *fe_cast(Fe *fe, MtExpr *x, const MtType *to, uint8_t mode, bool bitcast, MtSpan sp);
/* A load, store or atomic address based on a parameter without a type
 * (editor mode): the parameter is a pointer (*fp32 unless a signature says more); whether ptr is based on one. */
bool fe_mark_pointer(Fe *fe, MtExpr *ptr);
/* Per runtime parameter of a first run's tree: an untyped pointer whose
 * loaded values are used as offsets or loop bounds, so *i32; NULL if none
 * (index_loads.c). */
bool *fe_index_pointers(MtCtx *c, const MtExprProgram *p);
/* A compile-time integer (or bool) argument; E0306 otherwise. */
bool fe_static_int(Fe *fe, FValue v, MtSpan sp, const char *what, int64_t *out);
/* tl_blockptr.c: accesses through block pointers (pointer block, mask,
 * other), the cache / eviction hint checks. */
bool fe_blockptr_load(Fe *fe, const FeArgs *a, MtSpan sp, MtExpr **ptr, MtExpr **mask, MtExpr **other);
bool fe_blockptr_store(Fe *fe, const FeArgs *a, MtSpan sp, MtExpr **ptr, MtExpr **mask);
bool fe_cache_hints(Fe *fe, const FeArgs *a, int cache, int evict, const char *fname);
/* A block shape: a positive int or a non-empty tuple/list of them (E0409, E0415). */
bool fe_shape_arg(Fe *fe, FValue v, MtSpan sp, const char *fname, int *rank, int32_t *shape);

/* ---- attrs.c: attributes and methods of runtime values and type objects ------------- */

/* The type of runtime value e now (types/infer.c), or NULL after an error. */
const MtType *fe_type(Fe *fe, MtExpr *e);
/* v.name for a runtime value or a type object (FV_EXPR, FV_DTYPE). */
FValue fe_value_attr(Fe *fe, FValue v, const char *name, MtSpan sp);
/* Call a bound method (FV_METHOD). */
FValue fe_call_method(Fe *fe, FValue m, const CallArgs *a, MtSpan sp);

/* ---- frontend.c ------------------------------------------------------------------ */

FValue fe_call_jit(Fe *fe, const MtFuncDef *fn, const CallArgs *a, MtSpan sp);
/* `a if cond else b` with a runtime condition t. */
FValue fe_runtime_ifexp(Fe *fe, const MtNode *n, FValue t);
void fe_add_root(Fe *fe, MtExpr *e);

/* ---- specialize.c ------------------------------------------------------------------ */

/* Bind every kernel parameter in the frame's scope (runtime parameters as
 * EX_PARAM nodes, specialised ones as compile-time values). Returns false
 * when a value is missing or malformed (diagnostics reported). */
bool fe_specialize(Fe *fe, const MtFuncDef *kernel);

#endif
