/* host.h: the host code around the kernels, as the specialisation
 * discovery reads it (host.c builds the model, host_eval.c evaluates).
 *
 * The parser keeps only the kernels as syntax trees; host code is the
 * module's token stream. host.c indexes it once per discovery: the host
 * functions (any `def` that is not a jit function, methods included) with
 * their parameters, defaults and body ranges, and every simple assignment
 * `NAME = expr` / `A, B = expr` / `NAME: T = expr` with the scope it binds
 * in (a host function, or the module: top-level statements, `if __name__
 * == "__main__":` blocks and the like). Expressions are parsed on demand
 * with mt_parse_host_expr.
 *
 * host_eval.c evaluates host expressions far enough to specialise a kernel:
 * Python numbers, strings, lists, tuples and dicts, `triton.Config`,
 * lambdas and host functions (called with their arguments bound; a
 * `return` under `if`s whose conditions are known false is skipped),
 * `filter`, a Config's `.kwargs` and options, the target's backend
 * (`...get_current_target().backend` is "cuda": mytriton targets CUDA), the
 * dtype of tensors made by torch / numpy factories and conversions, and
 * the fact that `x.stride(0)` or `a.shape[1]` is an integer whose value is
 * unknown. Anything else is HV_UNKNOWN; evaluation never fails or reports. */
#ifndef MT_API_HOST_H
#define MT_API_HOST_H

#include "base/ctx.h"
#include "syntax/parser.h"

typedef struct HostParam {
    const char *name;
    uint32_t default_from, default_to; /* token range of the default value; from == to: none */
} HostParam;

typedef struct HostFunc {
    const char *name;
    uint32_t def_tok;         /* the `def` token */
    uint32_t body_from, body_to; /* token range of the body */
    HostParam *params;
    uint32_t nparams;
    int32_t parent;           /* enclosing host function (a method's class is skipped), or -1 */
} HostFunc;

typedef struct HostAssign {
    const char *name;
    int32_t scope;            /* host function index, or -1 for module level */
    uint32_t stmt;            /* first token of the statement */
    uint32_t rhs_from, rhs_to; /* token range of the value */
    int32_t item;             /* A, B = rhs: the target's position; -1 for a single name */
} HostAssign;

/* `NAME[...](...)` or `a.b.NAME[...](...)` outside jit functions: a
 * kernel launch when NAME is a kernel. */
typedef struct HostLaunch {
    const char *name;
    uint32_t name_tok;
    uint32_t from, to;        /* token range of the whole call */
} HostLaunch;

typedef struct Host {
    MtCtx *c;
    const MtModule *m;
    HostFunc *funcs;
    uint32_t nfuncs;
    HostAssign *assigns;
    uint32_t nassigns;
    HostLaunch *launches;     /* in source order */
    uint32_t nlaunches;
    uint8_t *in_kernel;       /* per token: inside a jit function */
    /* Signature types asked of the compiler (discover.c), kept with the
     * module so its kernels ask once. */
    struct HostProbe {
        const char *type;
        bool ok;
    } probes[16];
    uint32_t nprobes;
    /* Evaluations so far: host code can make lookups branch at every
     * level (names whose values name other names), so the depth limit
     * alone bounds the time only exponentially; past a budget every
     * value is unknown. */
    uint32_t evals;
} Host;

/* The index of m's host code (arena-owned), made once per module. */
Host *mt_host_index(MtCtx *c, const MtModule *m);
/* Token index of the first token at or after byte offset off. */
uint32_t mt_host_token_at(const Host *h, uint32_t off);
/* The innermost host function whose body holds token t, or -1. */
int32_t mt_host_scope_of(const Host *h, uint32_t t);
/* The host function of that name visible from scope (itself nested there
 * or at module level), or -1. */
int32_t mt_host_find_func(const Host *h, const char *name, int32_t scope);
/* End of the logical line starting at token t (its NEWLINE), skipping
 * bracketed parts. */
uint32_t mt_host_line_end(const Host *h, uint32_t t);
/* The token closing the bracket opened at token t (t itself when t opens
 * nothing or the bracket is never closed). */
uint32_t mt_host_close(const Host *h, uint32_t t);
/* The ':' ending the compound statement header that starts at token t
 * (outside brackets), or 0. */
uint32_t mt_host_header_colon(const Host *h, uint32_t t);

typedef enum HvKind {
    HV_UNKNOWN,
    HV_NONE,
    HV_BOOL,                  /* i */
    HV_INT,                   /* i */
    HV_FLOAT,                 /* f */
    HV_STR,                   /* s */
    HV_SOME_INT,              /* an integer whose value is not known here (x.stride(0), a.shape[1]) */
    HV_SOME_FLOAT,            /* a float whose value is not known here */
    HV_LIST,                  /* items[0..n): a list or tuple (shape: items SOME_INT, n 0 = unknown length) */
    HV_DICT,                  /* items[0..2n): key, value pairs */
    HV_TENSOR,                /* s: element type in signature spelling ("fp16") */
    HV_DTYPE,                 /* s: the same spelling, for torch.float16 / tl.float16 / np.float32 */
    HV_MODULE,                /* s: dotted path ("torch", "triton.language", "numpy.random") */
    HV_CONFIG,                /* items: n key, value pairs, the first i the meta-parameters, then the options
                                 (num_warps=...); node: the triton.Config call */
    HV_FUNC,                  /* i: host function index */
    HV_LAMBDA,                /* node: the lambda; i: token of its first parameter name */
} HvKind;

typedef struct HostVal HostVal;
struct HostVal {
    uint8_t kind;             /* HvKind */
    bool shape;               /* HV_LIST: a tensor's .shape (items are SOME_INT) */
    int64_t i;
    double f;
    const char *s;
    HostVal *items;
    uint32_t n;
    const MtNode *node;
    MtSpan span;              /* the source the value was read from */
};

/* A name bound while evaluating (lambda and comprehension variables, the
 * parameters of a host function being called). */
typedef struct HostBind {
    const char *name;
    HostVal v;
} HostBind;

typedef struct HostEnv {
    const Host *h;
    int32_t scope;            /* host function, or -1: module level */
    uint32_t at;              /* token of the use: the last assignment before it wins */
    const HostBind *binds;
    uint32_t nbinds;
    int depth;                /* calls and name lookups followed so far */
} HostEnv;

HostVal mt_host_eval(const HostEnv *env, const MtNode *n);
/* Call f (a host function or a lambda) with positional arguments. */
HostVal mt_host_call(const HostEnv *env, const HostVal *f, const HostVal *args, uint32_t nargs);
/* Parse and evaluate tokens [from, to) in env. */
HostVal mt_host_eval_range(const HostEnv *env, uint32_t from, uint32_t to);
/* d[key] of an HV_DICT or HV_CONFIG with string keys; NULL if absent. */
const HostVal *mt_host_dict_get(const HostVal *d, const char *key);
/* The elements of a list comprehension node, at most max of them;
 * HV_LIST (n 0 when it cannot be expanded). */
HostVal mt_host_comprehension(const HostEnv *env, const MtNode *n, uint32_t max);
/* A known scalar as a Python literal ("128", "0.5", "True", "'relu'"),
 * or NULL. */
const char *mt_host_literal(MtCtx *c, const HostVal *v);
/* The signature type a launch argument passes ("*fp16", "i32", "fp32",
 * "i1"), or NULL when it cannot be seen. */
const char *mt_host_sig_type(MtCtx *c, const HostVal *v);
/* What a value is, in a few words, for hover: "torch.float16 tensor",
 * "int", "128". */
const char *mt_host_describe(MtCtx *c, const HostVal *v);
/* Whether a dotted callee ends with `.name` or is `name` itself. */
bool mt_host_path_is(const char *path, const char *name);
/* The dotted path of a callee or decorator (`triton.autotune`) resolved
 * through the module's imports; NULL for anything but a dotted name. */
const char *mt_host_callee_path(const HostEnv *env, const MtNode *fn);

#endif
