/* ast.h: the syntax tree of kernels and of the module-level names they use.
 *
 * Only jit functions are parsed statement by statement; the rest of the
 * file (host code, classes, other functions) is tokenised and skipped, so
 * any valid Python around the kernels parses without diagnostics. The
 * module keeps the token stream, so tools that read host code (where a
 * kernel is launched, its autotune configs) parse the parts they need with
 * mt_parse_host_expr. Every node carries the source span it came from.
 *
 * Inside a kernel the parser accepts the whole Python expression and
 * statement grammar far enough to point at a construct the frontend then
 * rejects (ND_UNSUPPORTED, ND_WHILE, ...): a kernel never fails with a
 * generic syntax error on valid Python.
 *
 * Conventions the frontend can rely on:
 *  - A span covers the node's source text exactly, from its first token to
 *    its last (statements exclude the NEWLINE; compound statements end with
 *    their last body statement). Parentheses make no node: `(a)` is the
 *    ND_NAME with the span of `a`, but `(a + b) * c` spans from the '('.
 *    A parenthesised or bare tuple is ND_TUPLE (`()` included).
 *  - `x[:, None]` is ND_SUBSCRIPT whose index is ND_TUPLE(ND_SLICE with
 *    lo/hi/step NULL, ND_NONE); a single index `x[i]` / `x[a:b]` is the
 *    node itself, never a one-element tuple.
 *  - Call keywords are u.call.kw in source order, `name=value` with the
 *    span of both; `**d` is a keyword with name NULL whose value is
 *    ND_UNSUPPORTED "keyword unpacking"; `*a` is a positional argument
 *    ND_UNSUPPORTED "starred expression" (inner = a).
 *  - Adjacent string literals are one ND_STR; a docstring is an
 *    ND_EXPR_STMT holding an ND_STR.
 *  - ND_UNSUPPORTED what: "lambda", "list comprehension", "set
 *    comprehension", "dict comprehension", "generator expression", "dict
 *    display", "set display", "starred expression", "keyword unpacking",
 *    "assignment expression", "await expression", "yield expression",
 *    "f-string", "bytes literal", "complex literal". ND_UNSUPPORTED_STMT
 *    what: "del statement", "global statement", "nonlocal statement",
 *    "import statement", "raise statement", "with statement", "try
 *    statement", "function definition", "class definition", "async
 *    statement", "match statement", "type alias statement", "decorator"
 *    (a decorated nested def or class, spanning from its first '@').
 *    `inner` is the operand where there is one (starred, unpacking, await,
 *    yield, walrus value, lambda body), else NULL. A "dict display" keeps
 *    its entries in `items`, key and value alternating (the key NULL for a
 *    `**m` entry), for tools that read host code (autotune configs).
 *  - Statements with a syntax error are left out of the tree (the error is
 *    a diagnostic; mt_parse returns MT_ERR_SOURCE).
 */
#ifndef MT_AST_H
#define MT_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "token.h"

typedef enum MtNodeKind {
    /* expressions */
    ND_NAME,                  /* u.name */
    ND_INT,                   /* u.num.i (u.num.overflow: literal beyond int64) */
    ND_FLOAT,                 /* u.num.f */
    ND_STR,                   /* u.str */
    ND_TRUE,
    ND_FALSE,
    ND_NONE,
    ND_ELLIPSIS,
    ND_BINOP,                 /* u.bin: + - * / // % ** @ & | ^ << >> */
    ND_UNARY,                 /* u.un: - + ~ not */
    ND_BOOLOP,                /* u.list with u.boolop.op: and / or, >= 2 operands in u.list */
    ND_COMPARE,               /* u.cmp: a < b <= c ..., ops[i] between items[i] and items[i+1] */
    ND_CALL,                  /* u.call */
    ND_ATTR,                  /* u.attr: value.name */
    ND_SUBSCRIPT,             /* u.sub: value[index]; a tuple index is an ND_TUPLE */
    ND_SLICE,                 /* u.slice: lo:hi:step, any part NULL */
    ND_TUPLE,                 /* u.list */
    ND_LIST,                  /* u.list */
    ND_IFEXP,                 /* u.ifexp: body if test else orelse */
    ND_UNSUPPORTED,           /* u.unsup: parsed, but not kernel syntax (lambda, comprehension, ...) */

    /* statements */
    ND_EXPR_STMT,             /* u.expr */
    ND_ASSIGN,                /* u.assign: t1 = t2 = value */
    ND_AUGASSIGN,             /* u.aug: target op= value */
    ND_ANNASSIGN,             /* u.ann: target: annotation [= value] */
    ND_FOR,                   /* u.for_ */
    ND_IF,                    /* u.if_: elif chains nest in orelse */
    ND_WHILE,                 /* u.while_ (always rejected in kernels) */
    ND_RETURN,                /* u.expr (may be NULL) */
    ND_PASS,
    ND_BREAK,
    ND_CONTINUE,
    ND_ASSERT,                /* u.assert_ */
    ND_UNSUPPORTED_STMT,      /* u.unsup: with, try, del, global, import, nested def/class, ... */
    ND_KIND_COUNT_
} MtNodeKind;

typedef struct MtNode MtNode;

typedef struct MtNodeList {
    MtNode **v;
    uint32_t n;
} MtNodeList;

typedef struct MtKeyword {
    const char *name;         /* NULL for **kwargs (then an ND_UNSUPPORTED value) */
    MtSpan span;              /* name=value */
    MtNode *value;
} MtKeyword;

struct MtNode {
    uint16_t kind;            /* MtNodeKind */
    MtSpan span;
    union {
        const char *name;                             /* ND_NAME */
        struct { int64_t i; double f; bool overflow; } num; /* ND_INT, ND_FLOAT */
        struct { const char *s; uint32_t len; } str;  /* ND_STR (adjacent literals joined) */
        struct { MtOp op; MtNode *lhs, *rhs; } bin;   /* ND_BINOP */
        struct { int op; MtNode *operand; } un;       /* ND_UNARY: OP_MINUS OP_PLUS OP_TILDE, or KW_NOT as -1 */
        struct { MtKw op; MtNodeList items; } boolop; /* ND_BOOLOP: KW_AND / KW_OR */
        MtNodeList list;                              /* ND_TUPLE, ND_LIST */
        struct {                                      /* ND_COMPARE */
            MtNodeList items;                         /* n >= 2 */
            int *ops;                                 /* n-1: OP_LT.. OP_NE, or -KW_IS, -KW_IN; */
            bool *negated;                            /* n-1: `is not` / `not in` */
        } cmp;
        struct {                                      /* ND_CALL */
            MtNode *fn;
            MtNodeList args;                          /* positional (a *arg is ND_UNSUPPORTED) */
            MtKeyword *kw;
            uint32_t nkw;
        } call;
        struct { MtNode *value; const char *name; MtSpan name_span; } attr; /* ND_ATTR */
        struct { MtNode *value, *index; } sub;        /* ND_SUBSCRIPT */
        struct { MtNode *lo, *hi, *step; } slice;     /* ND_SLICE */
        struct { MtNode *test, *body, *orelse; } ifexp; /* ND_IFEXP */
        struct { const char *what; MtNode *inner; MtNodeList items; } unsup; /* ND_UNSUPPORTED(_STMT): "lambda", "with statement", ... */

        MtNode *expr;                                 /* ND_EXPR_STMT, ND_RETURN */
        struct { MtNodeList targets; MtNode *value; } assign; /* ND_ASSIGN */
        struct { MtNode *target; MtOp op; MtNode *value; } aug; /* ND_AUGASSIGN: op is the binary op (OP_PLUS...) */
        struct { MtNode *target, *annotation, *value; } ann; /* ND_ANNASSIGN (value may be NULL) */
        struct { MtNode *target, *iter; MtNodeList body, orelse; MtSpan kw_span; } for_; /* ND_FOR */
        struct { MtNode *test; MtNodeList body, orelse; bool elif; } if_; /* ND_IF; orelse of an elif chain holds one ND_IF with elif = true */
        struct { MtNode *test; MtNodeList body, orelse; } while_; /* ND_WHILE */
        struct { MtNode *test, *msg; } assert_;       /* ND_ASSERT */
    } u;
};

typedef enum MtParamKind {
    PARAM_NORMAL,
    PARAM_VARARGS,            /* *args */
    PARAM_KWARGS,             /* **kwargs */
    PARAM_KWONLY,             /* after * or *args */
} MtParamKind;

typedef struct MtParam {
    const char *name;
    MtSpan span;              /* the whole `name: ann = default` */
    MtSpan name_span;
    MtParamKind kind;
    MtNode *annotation;       /* NULL if none */
    MtNode *default_;         /* NULL if none */
} MtParam;

/* A function decorated with a jit decorator (kernel or helper). */
typedef struct MtFuncDef {
    const char *name;
    MtSpan span;              /* decorators through the end of the body */
    MtSpan name_span;
    MtSpan def_span;          /* the `def name(...)` header line */
    MtParam *params;
    uint32_t nparams;
    MtNodeList body;
    const char *directive;    /* text after `# mytriton:` in the comment block above, or NULL */
    MtSpan directive_span;
} MtFuncDef;

typedef enum MtGlobalKind {
    GL_MODULE,                /* import a.b [as x]; `target` is the dotted module path */
    GL_FROM,                  /* from a.b import c [as x]; `target` is "a.b.c" */
    GL_VALUE,                 /* NAME = expr / NAME: ann = expr; `value` parsed (NULL if it did not parse) */
    GL_JIT,                   /* a jit function; `fn` */
    GL_OTHER,                 /* any other def / class / unparsable binding: not usable from kernels */
} MtGlobalKind;

/* A module-level binding; the last one of a name in the file wins, as it
 * would when the kernel runs after the module has been executed. */
typedef struct MtGlobal {
    const char *name;
    MtGlobalKind kind;
    MtSpan span;
    const char *target;
    MtNode *value;
    MtFuncDef *fn;
} MtGlobal;

struct MtModule {
    uint32_t file;
    const MtToken *toks;      /* the whole file's tokens, TK_EOF last: host code for mt_parse_host_expr */
    uint32_t ntoks;
    MtGlobal *globals;
    uint32_t nglobals;
    MtFuncDef **funcs;        /* jit functions in source order */
    uint32_t nfuncs;
    MtKernelInfo *infos;      /* public view of funcs, same order */
    void *host;               /* api/host.c's index of the host code, made on first use (same arena) */
};

const char *mt_node_kind_name(MtNodeKind k);
/* Look up a module-level name (NULL if none). */
const MtGlobal *mt_module_global(const MtModule *m, const char *name);
/* Visit n and every node below it in pre-order; fn returns false to skip
 * a node's children. mt_ast_walk_body visits a function's parameter
 * annotations, defaults and body. */
typedef bool (*MtAstVisit)(const MtNode *n, void *ud);
void mt_ast_walk(const MtNode *n, MtAstVisit fn, void *ud);
void mt_ast_walk_body(const MtFuncDef *f, MtAstVisit fn, void *ud);

/* Print a function's syntax tree (`--emit ast`): one node per line,
 * indented, with its line:col-line:col span. */
const char *mt_ast_print(MtCtx *c, const MtFuncDef *fn);

#endif
