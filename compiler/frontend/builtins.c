/* builtins.c: the functions and constants a kernel can call or read.
 *
 * Everything is found by its canonical dotted path ("triton.language.load",
 * "math.pi", "builtins.range"); module aliases from the file's imports and
 * the `mytriton` package name are normalised to these paths first. The tl
 * functions build expression nodes; the Python and math builtins compute
 * compile-time values. Argument binding follows Python (positional, then
 * keywords, defaults), with Triton's parameter names. */
#include <math.h>
#include <string.h>

#include "fe.h"

typedef enum Builtin {
    B_PROGRAM_ID, B_ARANGE, B_LOAD, B_STORE, B_ZEROS, B_FULL, B_EMPTY, B_WHERE,
    B_MAXIMUM, B_MINIMUM, B_EXP, B_SUM, B_MAX, B_MIN, B_DOT, B_EXPAND_DIMS,
    B_STATIC_RANGE, B_TL_RANGE, B_CONSTEXPR, B_STATIC_ASSERT, B_STATIC_PRINT,
    B_CDIV, B_NEXT_POW2, B_DEVICE_PRINT, B_JIT,
    B_PY_RANGE, B_PY_LEN, B_PY_MIN, B_PY_MAX, B_PY_ABS, B_PY_INT, B_PY_FLOAT,
    B_PY_BOOL, B_PY_PRINT,
    B_MATH_SQRT, B_MATH_LOG, B_MATH_LOG2, B_MATH_EXP, B_MATH_FLOOR, B_MATH_CEIL,
    B_COUNT_
} Builtin;

typedef struct Entry {
    const char *path;
    int kind;                 /* FvKind: FV_BUILTIN, FV_DTYPE, FV_FLOAT, FV_MODULE */
    int builtin;
    double f;
} Entry;

enum { DT_I1 = 1, DT_I32, DT_F32 };

static const Entry entries[] = {
    {"triton", FV_MODULE, 0, 0},
    {"triton.language", FV_MODULE, 0, 0},
    {"triton.language.math", FV_MODULE, 0, 0},
    {"math", FV_MODULE, 0, 0},
    {"triton.jit", FV_BUILTIN, B_JIT, 0},
    {"triton.cdiv", FV_BUILTIN, B_CDIV, 0},
    {"triton.next_power_of_2", FV_BUILTIN, B_NEXT_POW2, 0},
    {"triton.language.program_id", FV_BUILTIN, B_PROGRAM_ID, 0},
    {"triton.language.arange", FV_BUILTIN, B_ARANGE, 0},
    {"triton.language.load", FV_BUILTIN, B_LOAD, 0},
    {"triton.language.store", FV_BUILTIN, B_STORE, 0},
    {"triton.language.zeros", FV_BUILTIN, B_ZEROS, 0},
    {"triton.language.full", FV_BUILTIN, B_FULL, 0},
    {"triton.language.empty", FV_BUILTIN, B_EMPTY, 0},
    {"triton.language.where", FV_BUILTIN, B_WHERE, 0},
    {"triton.language.maximum", FV_BUILTIN, B_MAXIMUM, 0},
    {"triton.language.minimum", FV_BUILTIN, B_MINIMUM, 0},
    {"triton.language.exp", FV_BUILTIN, B_EXP, 0},
    {"triton.language.math.exp", FV_BUILTIN, B_EXP, 0},
    {"triton.language.sum", FV_BUILTIN, B_SUM, 0},
    {"triton.language.max", FV_BUILTIN, B_MAX, 0},
    {"triton.language.min", FV_BUILTIN, B_MIN, 0},
    {"triton.language.dot", FV_BUILTIN, B_DOT, 0},
    {"triton.language.expand_dims", FV_BUILTIN, B_EXPAND_DIMS, 0},
    {"triton.language.static_range", FV_BUILTIN, B_STATIC_RANGE, 0},
    {"triton.language.range", FV_BUILTIN, B_TL_RANGE, 0},
    {"triton.language.constexpr", FV_BUILTIN, B_CONSTEXPR, 0},
    {"triton.language.static_assert", FV_BUILTIN, B_STATIC_ASSERT, 0},
    {"triton.language.static_print", FV_BUILTIN, B_STATIC_PRINT, 0},
    {"triton.language.cdiv", FV_BUILTIN, B_CDIV, 0},
    {"triton.language.device_print", FV_BUILTIN, B_DEVICE_PRINT, 0},
    {"triton.language.int1", FV_DTYPE, DT_I1, 0},
    {"triton.language.int32", FV_DTYPE, DT_I32, 0},
    {"triton.language.float32", FV_DTYPE, DT_F32, 0},
    {"builtins.range", FV_BUILTIN, B_PY_RANGE, 0},
    {"builtins.len", FV_BUILTIN, B_PY_LEN, 0},
    {"builtins.min", FV_BUILTIN, B_PY_MIN, 0},
    {"builtins.max", FV_BUILTIN, B_PY_MAX, 0},
    {"builtins.abs", FV_BUILTIN, B_PY_ABS, 0},
    {"builtins.int", FV_BUILTIN, B_PY_INT, 0},
    {"builtins.float", FV_BUILTIN, B_PY_FLOAT, 0},
    {"builtins.bool", FV_BUILTIN, B_PY_BOOL, 0},
    {"builtins.print", FV_BUILTIN, B_PY_PRINT, 0},
    {"math.sqrt", FV_BUILTIN, B_MATH_SQRT, 0},
    {"math.log", FV_BUILTIN, B_MATH_LOG, 0},
    {"math.log2", FV_BUILTIN, B_MATH_LOG2, 0},
    {"math.exp", FV_BUILTIN, B_MATH_EXP, 0},
    {"math.floor", FV_BUILTIN, B_MATH_FLOOR, 0},
    {"math.ceil", FV_BUILTIN, B_MATH_CEIL, 0},
    {"math.pi", FV_FLOAT, 0, 3.141592653589793},
    {"math.e", FV_FLOAT, 0, 2.718281828459045},
    {"math.tau", FV_FLOAT, 0, 6.283185307179586},
    {"math.inf", FV_FLOAT, 0, INFINITY},
    {"math.nan", FV_FLOAT, 0, NAN},
};

static const char *display(Fe *fe, const char *path)
{
    if (!strncmp(path, "triton.language.", 16))
        return mt_sprintf(fe->c, "tl.%s", path + 16);
    if (!strncmp(path, "builtins.", 9))
        return path + 9;
    return path;
}

const char *fe_builtin_name(int builtin)
{
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
        if (entries[i].kind == FV_BUILTIN && entries[i].builtin == builtin)
            return entries[i].path;
    return "?";
}

FValue fe_resolve_path(Fe *fe, const char *path)
{
    if (!strncmp(path, "mytriton", 8) && (path[8] == 0 || path[8] == '.'))
        path = mt_sprintf(fe->c, "triton%s", path + 8);
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        const Entry *en = &entries[i];
        if (strcmp(en->path, path) != 0)
            continue;
        FValue v = {.kind = (uint8_t)en->kind};
        switch (en->kind) {
        case FV_MODULE: v.u.s = en->path; break;
        case FV_BUILTIN: v.u.builtin = en->builtin; break;
        case FV_FLOAT: v.u.f = en->f; break;
        case FV_DTYPE:
            v.u.dtype = en->builtin == DT_I1 ? &mt_ty_bool : en->builtin == DT_I32 ? &mt_ty_i32 : &mt_ty_f32;
            break;
        }
        return v;
    }
    FValue v = {.kind = FV_OPAQUE};
    v.u.s = display(fe, path);
    return v;
}

/* ---- argument binding ------------------------------------------------------------------ */

enum { MAX_PARAMS = 10 };

typedef struct Bound {
    FValue v[MAX_PARAMS];
    MtSpan sp[MAX_PARAMS];
    bool given[MAX_PARAMS];
} Bound;

/* Bind a call's arguments to `names` (Triton's parameter names); the first
 * `required` are mandatory. */
static bool bind(Fe *fe, const CallArgs *a, const char *fname, const char *const *names, int n, int required,
                 Bound *b, MtSpan sp)
{
    memset(b, 0, sizeof *b);
    if (a->npos > (uint32_t)n) {
        fe_error(fe, a->pos_span[n], "E0305", "%s takes at most %d positional argument%s, got %u", fname, n,
                 n == 1 ? "" : "s", a->npos);
        return false;
    }
    for (uint32_t i = 0; i < a->npos; i++) {
        b->v[i] = a->pos[i];
        b->sp[i] = a->pos_span[i];
        b->given[i] = true;
    }
    for (uint32_t k = 0; k < a->nkw; k++) {
        if (!a->kw_name[k]) {
            fe_error(fe, a->kw_span[k], "E0203", "keyword unpacking (**kwargs) is not supported in kernels");
            return false;
        }
        int j = -1;
        for (int i = 0; i < n; i++)
            if (!strcmp(names[i], a->kw_name[k]))
                j = i;
        if (j < 0) {
            fe_error(fe, a->kw_span[k], "E0305", "%s got an unexpected keyword argument '%s'", fname, a->kw_name[k]);
            return false;
        }
        if (b->given[j]) {
            fe_error(fe, a->kw_span[k], "E0305", "%s got multiple values for argument '%s'", fname, names[j]);
            return false;
        }
        b->v[j] = a->kw[k];
        b->sp[j] = a->kw_span[k];
        b->given[j] = true;
    }
    for (int i = 0; i < required; i++)
        if (!b->given[i]) {
            fe_error(fe, sp, "E0305", "%s missing required argument '%s'", fname, names[i]);
            return false;
        }
    for (int i = 0; i < n; i++)
        if (!b->given[i]) {
            b->v[i] = fv_none();
            b->sp[i] = sp;
        }
    return true;
}

static bool static_int(Fe *fe, FValue v, MtSpan sp, const char *what, int64_t *out)
{
    if (v.kind == FV_INT || v.kind == FV_BOOL) {
        *out = v.u.i;
        return true;
    }
    if (v.kind == FV_EXPR)
        fe_error(fe, sp, "E0306", "%s must be a compile-time integer (a literal, a tl.constexpr parameter or a "
                 "module constant), got a runtime value", what);
    else if (v.kind != FV_UNDEF)
        fe_error(fe, sp, "E0306", "%s must be a compile-time integer, got %s %s", what, fv_kind_name(v),
                 fv_repr(fe->c, v));
    return false;
}

static bool is_pow2(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

/* A shape: a positive int or a non-empty tuple/list of positive ints. */
static bool shape_arg(Fe *fe, FValue v, MtSpan sp, const char *fname, int *rank, int32_t *shape)
{
    FValue one[1];
    FValue *items = one;
    uint32_t n = 1;
    if (v.kind == FV_TUPLE) {
        items = v.u.tup.v;
        n = v.u.tup.n;
    } else {
        one[0] = v;
    }
    if (n == 0) {
        fe_error(fe, sp, "E0409", "%s shape must not be empty", fname);
        return false;
    }
    if (n > MT_MAX_RANK) {
        fe_error(fe, sp, "E0415", "%s shape %s has rank %u; blocks have rank 1 or 2", fname, fv_repr(fe->c, v), n);
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        int64_t d;
        if (!static_int(fe, items[i], sp, "a block dimension", &d))
            return false;
        if (d <= 0 || d > (1 << 24)) {
            fe_error(fe, sp, "E0409", "%s shape %s: dimensions must be positive (and at most 2^24)", fname,
                     fv_repr(fe->c, v));
            return false;
        }
        shape[i] = (int32_t)d;
    }
    *rank = (int)n;
    return true;
}

static bool dtype_arg(Fe *fe, FValue v, MtSpan sp, const char *fname, const MtType **out)
{
    if (v.kind == FV_DTYPE) {
        *out = v.u.dtype;
        return true;
    }
    fe_error(fe, sp, "E0409", "%s dtype must be tl.int1, tl.int32 or tl.float32, got %s", fname, fv_repr(fe->c, v));
    return false;
}

static MtExpr *opt_expr(Fe *fe, FValue v, MtSpan sp)
{
    return v.kind == FV_NONE ? NULL : fe_to_expr(fe, v, sp);
}

/* ---- tl functions ---------------------------------------------------------------------- */

static FValue make_range(Fe *fe, const Bound *b, RangeKind kind, MtSpan sp)
{
    FValue r = {.kind = FV_RANGE};
    r.u.range.bounds = mt_arena_alloc(&fe->c->arena, 3 * sizeof(FValue));
    if (b->given[1] && b->v[1].kind != FV_NONE) {
        r.u.range.bounds[0] = b->v[0];
        r.u.range.bounds[1] = b->v[1];
    } else {
        r.u.range.bounds[0] = fv_int(0);
        r.u.range.bounds[1] = b->v[0];
    }
    r.u.range.bounds[2] = b->given[2] && b->v[2].kind != FV_NONE ? b->v[2] : fv_int(1);
    r.u.range.kind = (uint8_t)kind;
    r.u.range.span = sp;
    return r;
}

static FValue factory(Fe *fe, MtFactoryKind kind, const Bound *b, MtSpan sp, const char *fname)
{
    int rank;
    int32_t shape[MT_MAX_RANK];
    const MtType *dtype;
    int dt = kind == FAC_FULL ? 2 : 1;
    if (!shape_arg(fe, b->v[0], b->sp[0], fname, &rank, shape) || !dtype_arg(fe, b->v[dt], b->sp[dt], fname, &dtype))
        return fv_undef();
    MtExpr *fill = NULL;
    if (kind == FAC_FULL) {
        FValue v = b->v[1];
        if (fv_is_number(v)) {
            /* Convert a compile-time fill value to the dtype now, as
             * tl.full does: full(shape, 2, tl.float32) fills 2.0. */
            double f;
            py_as_double(v, &f);
            if (dtype == &mt_ty_f32)
                v = fv_float(f);
            else if (dtype == &mt_ty_i32)
                v = fv_int(v.kind == FV_FLOAT ? (int64_t)f : v.u.i);
            else
                v = fv_bool(f != 0);
        } else if (v.kind != FV_EXPR) {
            fe_error(fe, b->sp[1], "E0409", "tl.full fill value must be a number or a runtime scalar, got %s",
                     fv_kind_name(v));
            return fv_undef();
        }
        fill = fe_to_expr(fe, v, b->sp[1]);
        if (!fill)
            return fv_undef();
    }
    MtExpr *e = fe_new(fe, EX_FACTORY, sp, fill ? 1 : 0);
    e->op = (uint16_t)kind;
    e->u.factory.rank = (uint8_t)rank;
    memcpy(e->u.factory.shape, shape, sizeof shape);
    e->u.factory.dtype = dtype;
    if (fill)
        e->args[0] = fill;
    return fv_expr(e);
}

static FValue reduce(Fe *fe, MtReduceOp op, const CallArgs *a, MtSpan sp, const char *fname)
{
    static const char *const names[] = {"input", "axis", "keep_dims", "return_indices", "return_indices_tie_break_left"};
    Bound b;
    if (!bind(fe, a, fname, names, op == RED_SUM ? 3 : 5, 1, &b, sp))
        return fv_undef();
    if (b.v[0].kind != FV_EXPR) {
        fe_error(fe, b.sp[0], "E0408", "%s needs a block, got %s %s", fname, fv_kind_name(b.v[0]), fv_repr(fe->c, b.v[0]));
        return fv_undef();
    }
    int64_t axis = MT_AXIS_NONE;
    if (b.v[1].kind != FV_NONE && !static_int(fe, b.v[1], b.sp[1], "the reduction axis", &axis))
        return fv_undef();
    bool ok;
    if (b.given[2] && py_truth(fe, b.v[2], b.sp[2], &ok) && ok) {
        fe_error(fe, b.sp[2], "E0408", "%s(keep_dims=True) is not supported", fname);
        return fv_undef();
    }
    if (op != RED_SUM && b.given[3] && py_truth(fe, b.v[3], b.sp[3], &ok) && ok) {
        fe_error(fe, b.sp[3], "E0408", "%s(return_indices=True) is not supported", fname);
        return fv_undef();
    }
    MtExpr *e = fe_new(fe, EX_REDUCE, sp, 1);
    e->op = (uint16_t)op;
    e->u.axis = (int)axis;
    e->args[0] = b.v[0].u.e;
    return fv_expr(e);
}

static FValue tl_load(Fe *fe, const CallArgs *a, MtSpan sp)
{
    static const char *const names[] = {"pointer", "mask", "other", "boundary_check", "padding_option",
                                        "cache_modifier", "eviction_policy", "volatile"};
    Bound b;
    if (!bind(fe, a, "tl.load", names, 8, 1, &b, sp))
        return fv_undef();
    if (b.given[3] && !(b.v[3].kind == FV_TUPLE && b.v[3].u.tup.n == 0)) {
        fe_error(fe, b.sp[3], "E0406", "tl.load(boundary_check=...) needs block pointers, which mytriton does not "
                 "support; use a mask");
        return fv_undef();
    }
    MtExpr *ptr = fe_to_expr(fe, b.v[0], b.sp[0]);
    MtExpr *mask = opt_expr(fe, b.v[1], b.sp[1]);
    MtExpr *other = opt_expr(fe, b.v[2], b.sp[2]);
    if (!ptr || (b.v[1].kind != FV_NONE && !mask) || (b.v[2].kind != FV_NONE && !other))
        return fv_undef();
    MtExpr *e = fe_new(fe, EX_LOAD, sp, 3);
    e->args[0] = ptr;
    e->args[1] = mask;
    e->args[2] = other;
    return fv_expr(e);
}

static FValue tl_store(Fe *fe, const CallArgs *a, MtSpan sp)
{
    static const char *const names[] = {"pointer", "value", "mask", "boundary_check", "cache_modifier",
                                        "eviction_policy"};
    Bound b;
    if (!bind(fe, a, "tl.store", names, 6, 2, &b, sp))
        return fv_undef();
    if (b.given[3] && !(b.v[3].kind == FV_TUPLE && b.v[3].u.tup.n == 0)) {
        fe_error(fe, b.sp[3], "E0406", "tl.store(boundary_check=...) needs block pointers, which mytriton does not "
                 "support; use a mask");
        return fv_undef();
    }
    MtExpr *ptr = fe_to_expr(fe, b.v[0], b.sp[0]);
    MtExpr *val = fe_to_expr(fe, b.v[1], b.sp[1]);
    MtExpr *mask = opt_expr(fe, b.v[2], b.sp[2]);
    if (!ptr || !val || (b.v[2].kind != FV_NONE && !mask))
        return fv_undef();
    MtExpr *e = fe_new(fe, EX_STORE, sp, 3);
    e->args[0] = ptr;
    e->args[1] = val;
    e->args[2] = mask;
    fe_add_root(fe, e);
    return fv_none();
}

static FValue tl_dot(Fe *fe, const CallArgs *a, MtSpan sp)
{
    static const char *const names[] = {"input", "other", "acc", "input_precision", "allow_tf32",
                                        "max_num_imprecise_acc", "out_dtype"};
    Bound b;
    if (!bind(fe, a, "tl.dot", names, 7, 2, &b, sp))
        return fv_undef();
    bool ok;
    if ((b.v[3].kind == FV_STR && strcmp(b.v[3].u.s, "ieee") != 0) ||
        (b.given[4] && py_truth(fe, b.v[4], b.sp[4], &ok) && ok))
        mt_diag(fe->c, MT_SEV_WARNING, b.given[3] ? b.sp[3] : b.sp[4], "W0802",
                "mytriton computes tl.dot in full fp32 on CUDA cores; the TF32 precision option is ignored");
    if (b.given[6] && !(b.v[6].kind == FV_DTYPE && b.v[6].u.dtype == &mt_ty_f32)) {
        fe_error(fe, b.sp[6], "E0410", "tl.dot out_dtype must be tl.float32");
        return fv_undef();
    }
    MtExpr *x = fe_to_expr(fe, b.v[0], b.sp[0]);
    MtExpr *y = fe_to_expr(fe, b.v[1], b.sp[1]);
    if (!x || !y)
        return fv_undef();
    MtExpr *e = fe_new(fe, EX_DOT, sp, 2);
    e->args[0] = x;
    e->args[1] = y;
    if (b.v[2].kind == FV_NONE)
        return fv_expr(e);
    /* tl.dot(a, b, acc) accumulates: acc + a @ b. */
    return fe_binary(fe, BIN_ADD, b.v[2], fv_expr(e), sp);
}

static FValue tl_arange(Fe *fe, const CallArgs *a, MtSpan sp)
{
    static const char *const names[] = {"start", "end"};
    Bound b;
    int64_t start, end;
    if (!bind(fe, a, "tl.arange", names, 2, 2, &b, sp) || !static_int(fe, b.v[0], b.sp[0], "tl.arange start", &start) ||
        !static_int(fe, b.v[1], b.sp[1], "tl.arange end", &end))
        return fv_undef();
    if (end <= start) {
        fe_error(fe, sp, "E0413", "tl.arange(%lld, %lld) is empty: end must be greater than start", (long long)start,
                 (long long)end);
        return fv_undef();
    }
    int64_t len = end - start, p2 = 1;
    while (p2 < len && p2 < ((int64_t)1 << 40))
        p2 <<= 1;
    if (!is_pow2(len)) {
        fe_error(fe, sp, "E0413",
                 "tl.arange(%lld, %lld) has length %lld, which is not a power of two; use tl.arange(%lld, %lld) "
                 "and mask the tail",
                 (long long)start, (long long)end, (long long)len, (long long)start, (long long)(start + p2));
        return fv_undef();
    }
    if (len > (1 << 24) || start < INT32_MIN || end > INT32_MAX) {
        fe_error(fe, sp, "E0413", "tl.arange(%lld, %lld) is too large", (long long)start, (long long)end);
        return fv_undef();
    }
    MtExpr *e = fe_new(fe, EX_ARANGE, sp, 0);
    e->u.range.start = start;
    e->u.range.end = end;
    return fv_expr(e);
}

static FValue elementwise2(Fe *fe, MtBinOp op, const CallArgs *a, MtSpan sp, const char *fname)
{
    static const char *const names[] = {"x", "y", "propagate_nan"};
    Bound b;
    if (!bind(fe, a, fname, names, 3, 2, &b, sp))
        return fv_undef();
    return fe_binary(fe, op, b.v[0], b.v[1], sp);
}

/* ---- compile-time builtins ---------------------------------------------------------------------- */

static FValue py_minmax(Fe *fe, const CallArgs *a, MtSpan sp, bool is_max)
{
    FValue *items = a->pos;
    uint32_t n = a->npos;
    if (n == 1 && a->pos[0].kind == FV_TUPLE) {
        items = a->pos[0].u.tup.v;
        n = a->pos[0].u.tup.n;
    }
    if (n == 0 || a->nkw) {
        fe_error(fe, sp, "E0305", "%s() needs at least one argument and no keywords", is_max ? "max" : "min");
        return fv_undef();
    }
    FValue best = items[0];
    for (uint32_t i = 0; i < n; i++) {
        if (items[i].kind == FV_EXPR) {
            fe_error(fe, sp, "E0304", "Python's %s() needs compile-time values; use %s for runtime values",
                     is_max ? "max" : "min", is_max ? "tl.maximum(a, b)" : "tl.minimum(a, b)");
            return fv_undef();
        }
        if (i) {
            FValue gt = py_compare(fe, OP_GT, false, items[i], best, sp);
            if (gt.kind == FV_UNDEF)
                return gt;
            if (gt.u.i == is_max)
                best = items[i];
        }
    }
    return best;
}

static FValue py_float(Fe *fe, FValue v, MtSpan sp)
{
    double f;
    if (py_as_double(v, &f))
        return fv_float(f);
    if (v.kind == FV_STR) {
        char buf[32];
        size_t n = 0;
        for (const char *p = v.u.s; *p && n + 1 < sizeof buf; p++)
            if (*p != ' ')
                buf[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
        buf[n] = 0;
        const char *s = buf[0] == '+' || buf[0] == '-' ? buf + 1 : buf;
        double sign = buf[0] == '-' ? -1 : 1;
        if (!strcmp(s, "inf") || !strcmp(s, "infinity"))
            return fv_float(sign * INFINITY);
        if (!strcmp(s, "nan"))
            return fv_float(NAN);
        FValue lit;
        if (py_parse_literal(fe->c, v.u.s, &lit) && py_as_double(lit, &f))
            return fv_float(f);
        fe_error(fe, sp, "E0312", "could not convert string to float: '%s'", v.u.s);
        return fv_undef();
    }
    fe_error(fe, sp, "E0306", "float() needs a compile-time number or string, got %s", fv_kind_name(v));
    return fv_undef();
}

static FValue math1(Fe *fe, int builtin, const CallArgs *a, MtSpan sp)
{
    double x;
    if (a->npos != 1 || a->nkw || !py_as_double(a->pos[0], &x)) {
        fe_error(fe, sp, "E0306", "%s() needs one compile-time number", fe_builtin_name(builtin));
        return fv_undef();
    }
    switch (builtin) {
    case B_MATH_SQRT: return fv_float(sqrt(x));
    case B_MATH_LOG: return fv_float(log(x));
    case B_MATH_LOG2: return fv_float(log2(x));
    case B_MATH_EXP: return fv_float(exp(x));
    case B_MATH_FLOOR: return fv_int((int64_t)floor(x));
    default: return fv_int((int64_t)ceil(x));
    }
}

static FValue cdiv(Fe *fe, const CallArgs *a, MtSpan sp)
{
    static const char *const names[] = {"x", "div"};
    Bound b;
    if (!bind(fe, a, "cdiv", names, 2, 2, &b, sp))
        return fv_undef();
    if (b.v[0].kind != FV_EXPR && b.v[1].kind != FV_EXPR) {
        FValue s = py_binop(fe, OP_PLUS, b.v[0], b.v[1], sp);
        s = py_binop(fe, OP_MINUS, s, fv_int(1), sp);
        return py_binop(fe, OP_DSLASH, s, b.v[1], sp);
    }
    FValue s = fe_binary(fe, BIN_ADD, b.v[0], b.v[1], sp);
    s = fe_binary(fe, BIN_SUB, s, fv_int(1), sp);
    return fe_binary(fe, BIN_FLOORDIV, s, b.v[1], sp);
}

FValue fe_call_builtin(Fe *fe, int builtin, const CallArgs *a, MtSpan sp)
{
    static const char *const range_names[] = {"start", "stop", "step", "num_stages", "loop_unroll_factor",
                                              "disallow_acc_multi_buffer", "flatten", "warp_specialize"};
    static const char *const one[] = {"input"};
    static const char *const axis_names[] = {"axis"};
    static const char *const where_names[] = {"condition", "x", "y"};
    static const char *const zeros_names[] = {"shape", "dtype"};
    static const char *const full_names[] = {"shape", "value", "dtype"};
    static const char *const expand_names[] = {"input", "axis"};
    static const char *const assert_names[] = {"cond", "msg"};
    Bound b;
    int64_t i;
    switch ((Builtin)builtin) {
    case B_PROGRAM_ID:
        if (!bind(fe, a, "tl.program_id", axis_names, 1, 1, &b, sp) ||
            !static_int(fe, b.v[0], b.sp[0], "tl.program_id axis", &i))
            return fv_undef();
        if (i < 0 || i > 2) {
            fe_error(fe, b.sp[0], "E0305", "tl.program_id axis must be 0, 1 or 2, got %lld", (long long)i);
            return fv_undef();
        } else {
            MtExpr *e = fe_new(fe, EX_PROGRAM_ID, sp, 0);
            e->u.axis = (int)i;
            return fv_expr(e);
        }
    case B_ARANGE: return tl_arange(fe, a, sp);
    case B_LOAD: return tl_load(fe, a, sp);
    case B_STORE: return tl_store(fe, a, sp);
    case B_ZEROS:
        if (!bind(fe, a, "tl.zeros", zeros_names, 2, 2, &b, sp))
            return fv_undef();
        return factory(fe, FAC_ZEROS, &b, sp, "tl.zeros");
    case B_EMPTY:
        if (!bind(fe, a, "tl.empty", zeros_names, 2, 2, &b, sp))
            return fv_undef();
        return factory(fe, FAC_EMPTY, &b, sp, "tl.empty");
    case B_FULL:
        if (!bind(fe, a, "tl.full", full_names, 3, 3, &b, sp))
            return fv_undef();
        return factory(fe, FAC_FULL, &b, sp, "tl.full");
    case B_WHERE: {
        if (!bind(fe, a, "tl.where", where_names, 3, 3, &b, sp))
            return fv_undef();
        MtExpr *c = fe_to_expr(fe, b.v[0], b.sp[0]), *x = fe_to_expr(fe, b.v[1], b.sp[1]),
               *y = fe_to_expr(fe, b.v[2], b.sp[2]);
        if (!c || !x || !y)
            return fv_undef();
        MtExpr *e = fe_new(fe, EX_WHERE, sp, 3);
        e->args[0] = c;
        e->args[1] = x;
        e->args[2] = y;
        return fv_expr(e);
    }
    case B_MAXIMUM: return elementwise2(fe, BIN_MAXIMUM, a, sp, "tl.maximum");
    case B_MINIMUM: return elementwise2(fe, BIN_MINIMUM, a, sp, "tl.minimum");
    case B_EXP: {
        static const char *const x_names[] = {"x"};
        if (!bind(fe, a, "tl.exp", x_names, 1, 1, &b, sp))
            return fv_undef();
        MtExpr *x = fe_to_expr(fe, b.v[0], b.sp[0]);
        if (!x)
            return fv_undef();
        MtExpr *e = fe_new(fe, EX_UNARY, sp, 1);
        e->op = UN_EXP;
        e->args[0] = x;
        return fv_expr(e);
    }
    case B_SUM: return reduce(fe, RED_SUM, a, sp, "tl.sum");
    case B_MAX: return reduce(fe, RED_MAX, a, sp, "tl.max");
    case B_MIN: return reduce(fe, RED_MIN, a, sp, "tl.min");
    case B_DOT: return tl_dot(fe, a, sp);
    case B_EXPAND_DIMS: {
        if (!bind(fe, a, "tl.expand_dims", expand_names, 2, 2, &b, sp) ||
            !static_int(fe, b.v[1], b.sp[1], "tl.expand_dims axis", &i))
            return fv_undef();
        MtExpr *x = fe_to_expr(fe, b.v[0], b.sp[0]);
        if (!x)
            return fv_undef();
        MtExpr *e = fe_new(fe, EX_EXPAND_DIMS, sp, 1);
        e->u.axis = (int)i;
        e->args[0] = x;
        return fv_expr(e);
    }
    case B_STATIC_RANGE:
        if (!bind(fe, a, "tl.static_range", range_names, 3, 1, &b, sp))
            return fv_undef();
        return make_range(fe, &b, RANGE_STATIC, sp);
    case B_TL_RANGE:
        if (!bind(fe, a, "tl.range", range_names, 8, 1, &b, sp))
            return fv_undef();
        return make_range(fe, &b, RANGE_TL, sp);
    case B_PY_RANGE:
        if (a->nkw) {
            fe_error(fe, sp, "E0305", "range() takes no keyword arguments");
            return fv_undef();
        }
        if (!bind(fe, a, "range", range_names, 3, 1, &b, sp))
            return fv_undef();
        return make_range(fe, &b, RANGE_PY, sp);
    case B_CONSTEXPR:
        if (!bind(fe, a, "tl.constexpr", one, 1, 1, &b, sp))
            return fv_undef();
        if (b.v[0].kind == FV_EXPR) {
            fe_error(fe, b.sp[0], "E0306", "tl.constexpr() needs a compile-time value");
            return fv_undef();
        }
        return b.v[0];
    case B_STATIC_ASSERT: {
        if (!bind(fe, a, "tl.static_assert", assert_names, 2, 1, &b, sp))
            return fv_undef();
        if (b.v[0].kind == FV_EXPR) {
            fe_error(fe, b.sp[0], "E0306", "tl.static_assert needs a compile-time condition");
            return fv_undef();
        }
        bool ok;
        bool t = py_truth(fe, b.v[0], b.sp[0], &ok);
        if (ok && !t)
            fe_error(fe, sp, "E0309", "static assertion failed%s%s", b.v[1].kind == FV_STR ? ": " : "",
                     b.v[1].kind == FV_STR ? b.v[1].u.s : "");
        return fv_none();
    }
    case B_STATIC_PRINT: {
        MtBuf out;
        mt_buf_init(&out, &fe->c->arena);
        for (uint32_t k = 0; k < a->npos; k++) {
            if (k)
                mt_buf_putc(&out, ' ');
            mt_buf_puts(&out, a->pos[k].kind == FV_STR ? a->pos[k].u.s : fv_repr(fe->c, a->pos[k]));
        }
        mt_diag(fe->c, MT_SEV_INFO, sp, NULL, "static_print: %s", mt_buf_str(&out));
        return fv_none();
    }
    case B_CDIV: return cdiv(fe, a, sp);
    case B_NEXT_POW2: {
        if (!bind(fe, a, "triton.next_power_of_2", one, 1, 1, &b, sp) ||
            !static_int(fe, b.v[0], b.sp[0], "triton.next_power_of_2 argument", &i))
            return fv_undef();
        int64_t p = 1;
        while (p < i && p < ((int64_t)1 << 62))
            p <<= 1;
        return fv_int(p);
    }
    case B_DEVICE_PRINT:
    case B_PY_PRINT:
        fe_error(fe, sp, "E0304", "printing from a kernel is not supported; use tl.static_print for compile-time "
                 "values, or the interpreter (mytriton run --backend interp) to inspect results");
        return fv_undef();
    case B_JIT:
        fe_error(fe, sp, "E0307", "triton.jit cannot be called inside a kernel");
        return fv_undef();
    case B_PY_LEN:
        if (a->npos == 1 && !a->nkw && a->pos[0].kind == FV_TUPLE)
            return fv_int(a->pos[0].u.tup.n);
        if (a->npos == 1 && !a->nkw && a->pos[0].kind == FV_STR)
            return fv_int((int64_t)strlen(a->pos[0].u.s));
        fe_error(fe, sp, "E0306", "len() needs a compile-time tuple, list or string");
        return fv_undef();
    case B_PY_MIN: return py_minmax(fe, a, sp, false);
    case B_PY_MAX: return py_minmax(fe, a, sp, true);
    case B_PY_ABS:
        if (a->npos == 1 && !a->nkw && fv_is_number(a->pos[0]))
            return a->pos[0].kind == FV_FLOAT ? fv_float(fabs(a->pos[0].u.f))
                                              : fv_int(a->pos[0].u.i < 0 ? -a->pos[0].u.i : a->pos[0].u.i);
        fe_error(fe, sp, "E0304", "abs() needs one compile-time number");
        return fv_undef();
    case B_PY_INT:
        if (a->npos == 1 && !a->nkw && fv_is_number(a->pos[0]))
            return fv_int(a->pos[0].kind == FV_FLOAT ? (int64_t)a->pos[0].u.f : a->pos[0].u.i);
        if (a->npos == 1 && !a->nkw && a->pos[0].kind == FV_STR) {
            FValue lit;
            if (py_parse_literal(fe->c, a->pos[0].u.s, &lit) && lit.kind == FV_INT)
                return lit;
        }
        fe_error(fe, sp, "E0306", "int() needs one compile-time number or integer string");
        return fv_undef();
    case B_PY_FLOAT:
        if (a->npos != 1 || a->nkw) {
            fe_error(fe, sp, "E0305", "float() takes exactly one argument");
            return fv_undef();
        }
        return py_float(fe, a->pos[0], sp);
    case B_PY_BOOL: {
        if (a->npos != 1 || a->nkw) {
            fe_error(fe, sp, "E0305", "bool() takes exactly one argument");
            return fv_undef();
        }
        bool ok;
        bool t = py_truth(fe, a->pos[0], a->pos_span[0], &ok);
        return ok ? fv_bool(t) : fv_undef();
    }
    case B_MATH_SQRT:
    case B_MATH_LOG:
    case B_MATH_LOG2:
    case B_MATH_EXP:
    case B_MATH_FLOOR:
    case B_MATH_CEIL:
        return math1(fe, builtin, a, sp);
    case B_COUNT_:
        break;
    }
    return fv_undef();
}
