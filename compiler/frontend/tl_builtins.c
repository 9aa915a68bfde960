/* tl_builtins.c: the handlers of the triton.language functions (rows of
 * builtins.def). Each gets its arguments bound to Triton's parameter
 * names, checks what must be known at compile time (shapes, axes, dtypes)
 * and builds expression nodes for the rest; type rules are type
 * inference's job (types/infer.c), not theirs. */
#include <string.h>

#include "fe.h"
#include "types/infer.h"

bool fe_static_int(Fe *fe, FValue v, MtSpan sp, const char *what, int64_t *out)
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

static MtExpr *opt_expr(Fe *fe, FValue v, MtSpan sp)
{
    return v.kind == FV_NONE ? NULL : fe_to_expr(fe, v, sp);
}

/* A node of op over the bound arguments 0..n-1, all runtime values or numbers. */
static FValue op_node(Fe *fe, MtOpcode op, const FeArgs *a, uint32_t n, MtSpan sp)
{
    MtExpr *args[3];
    for (uint32_t i = 0; i < n; i++)
        if (!(args[i] = fe_to_expr(fe, a->v[i], a->sp[i])))
            return fv_undef();
    MtExpr *e = fe_op(fe, op, sp, n);
    for (uint32_t i = 0; i < n; i++)
        e->args[i] = args[i];
    return fv_expr(e);
}

/* A shape: a positive int or a non-empty tuple/list of positive ints. */
bool fe_shape_arg(Fe *fe, FValue v, MtSpan sp, const char *fname, int *rank, int32_t *shape)
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
        fe_error(fe, sp, "E0415", "%s shape %s has rank %u; blocks have at most %d dimensions", fname,
                 fv_repr(fe->c, v), n, MT_MAX_RANK);
        return false;
    }
    for (uint32_t i = 0; i < n; i++) {
        int64_t d;
        if (items[i].kind == FV_BOOL) {
            fe_error(fe, sp, "E0409", "%s shape %s: block dimensions must be positive integers, not bools", fname,
                     fv_repr(fe->c, v));
            return false;
        }
        if (!fe_static_int(fe, items[i], sp, "a block dimension", &d))
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

bool fe_dtype_arg(Fe *fe, FValue v, MtSpan sp, const char *fname, const MtType **out)
{
    if (v.kind == FV_DTYPE && mt_ty_is_scalar(v.u.dtype)) {
        *out = v.u.dtype;
        return true;
    }
    fe_error(fe, sp, "E0409", "%s dtype must be a tl dtype such as tl.float16 or tl.int64, got %s", fname,
             fv_repr(fe->c, v));
    return false;
}

/* A load or store address based on a parameter without a type (editor
 * mode): the parameter is a pointer, *fp32 unless a signature says more. */
bool fe_mark_pointer(Fe *fe, MtExpr *ptr)
{
    MtExpr *bp = mt_expr_base_param(ptr);
    if (!bp || !fe->prog->inferred[bp->u.param.index])
        return false;
    fe->addresses[bp->u.param.index] = true;
    if (!bp->u.param.ty)
        bp->u.param.ty = mt_ty_ptr(fe->c, &mt_ty_f32);
    else if (!mt_ty_is_ptr(bp->u.param.ty))
        fe->retype_pointers = true; /* typed as i32 by an earlier question: run again (frontend.c) */
    return true;
}

/* The first parameter guessed to be a pointer (editor mode: *fp32 from its
 * use) that e's value comes from, through at most `*budget` nodes, or
 * NULL: a dtype complaint about e rests on that guess. */
static const MtExpr *guessed_pointer(const Fe *fe, const MtExpr *e, int *budget)
{
    if (!e || --*budget < 0)
        return NULL;
    if (e->kind == EX_PARAM) {
        uint32_t i = e->u.param.index;
        bool guessed = fe->prog->inferred && i < fe->prog->nparams && fe->prog->inferred[i];
        return guessed && e->u.param.ty && mt_ty_is_ptr(e->u.param.ty) ? e : NULL;
    }
    if (e->kind == EX_LOOP_ARG || e->kind == EX_LOOP_RESULT)
        return guessed_pointer(fe, e->u.slot.loop->node->args[2 + e->u.slot.index], budget);
    for (uint32_t i = 0; i < e->nargs; i++) {
        const MtExpr *p = guessed_pointer(fe, e->args[i], budget);
        if (p)
            return p;
    }
    return NULL;
}

/* d (about the dtypes of x and y) rests on a guessed pointer type: say
 * so, and record it as the fact "guessed_dtype" (the parameter's position
 * in the kernel's list), for the fix that tries other dtypes. */
static void note_guessed_dtype(Fe *fe, MtDiagRec *d, const MtExpr *x, const MtExpr *y)
{
    int budget = 512;
    const MtExpr *p = guessed_pointer(fe, x, &budget);
    if (!p)
        p = guessed_pointer(fe, y, &budget);
    if (!d || !p)
        return;
    mt_note(fe->c, d, p->span, "'%s' is %s only because its type was inferred from its use; a signature "
            "entry (`# mytriton: sig=...`) gives its real type", p->u.param.name, mt_ty_str(fe->c, p->u.param.ty));
    for (uint32_t i = 0; i < fe->prog->nsig; i++)
        if (fe->prog->sig_param[i] == p)
            mt_diag_set_fact(fe->c, d, "guessed_dtype", i);
}

FValue b_program_id(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    int64_t i;
    const char *fname = fe_builtin_display(fe, bi);
    if (!fe_static_int(fe, a->v[0], a->sp[0], mt_sprintf(fe->c, "%s axis", fname), &i))
        return fv_undef();
    if (i < 0 || i > 2) {
        fe_error(fe, a->sp[0], "E0305", "%s axis must be 0, 1 or 2, got %lld", fname, (long long)i);
        return fv_undef();
    }
    MtExpr *e = fe_op(fe, bi->op ? (MtOpcode)bi->op : OP_PROGRAM_ID, sp, 0);
    e->attr.axis = (int)i;
    return fv_expr(e);
}

FValue b_arange(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    int64_t start, end;
    for (int i = 0; i < 2; i++)
        if (a->v[i].kind == FV_BOOL) {
            fe_error(fe, a->sp[i], "E0413", "tl.arange bounds must be integers, not bools (got %s)",
                     fv_repr(fe->c, a->v[i]));
            return fv_undef();
        }
    if (!fe_static_int(fe, a->v[0], a->sp[0], "tl.arange start", &start) ||
        !fe_static_int(fe, a->v[1], a->sp[1], "tl.arange end", &end))
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
        MtDiagRec *d = fe_error(fe, sp, "E0413",
                                "tl.arange(%lld, %lld) has length %lld, which is not a power of two; use "
                                "tl.arange(%lld, %lld) and mask the tail",
                                (long long)start, (long long)end, (long long)len, (long long)start,
                                (long long)(start + p2));
        mt_diag_set_fact(fe->c, d, "arange_start", start);
        mt_diag_set_fact(fe->c, d, "arange_padded_end", start + p2);
        return fv_undef();
    }
    if (len > (1 << 24) || start < INT32_MIN || end > INT32_MAX) {
        fe_error(fe, sp, "E0413", "tl.arange(%lld, %lld) is too large", (long long)start, (long long)end);
        return fv_undef();
    }
    MtExpr *e = fe_op(fe, OP_ARANGE, sp, 0);
    e->attr.start = start;
    e->attr.end = end;
    return fv_expr(e);
}

FValue b_load(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    if (!fe_cache_hints(fe, a, 5, 6, "tl.load"))
        return fv_undef();
    MtExpr *ptr, *mask, *other;
    if (a->v[0].kind == FV_BLOCKPTR) {
        if (!fe_blockptr_load(fe, a, sp, &ptr, &mask, &other))
            return fv_undef();
    } else {
        if (a->given[3] && !(a->v[3].kind == FV_TUPLE && a->v[3].u.tup.n == 0)) {
            fe_error(fe, a->sp[3], "E0406", "tl.load(boundary_check=...) needs a block pointer (tl.make_block_ptr); "
                     "mask a pointer block instead");
            return fv_undef();
        }
        ptr = fe_to_expr(fe, a->v[0], a->sp[0]);
        mask = opt_expr(fe, a->v[1], a->sp[1]);
        other = opt_expr(fe, a->v[2], a->sp[2]);
        if (!ptr || (a->v[1].kind != FV_NONE && !mask) || (a->v[2].kind != FV_NONE && !other))
            return fv_undef();
    }
    fe_mark_pointer(fe, ptr);
    MtExpr *e = fe_op(fe, OP_LOAD, sp, 3);
    e->args[0] = ptr;
    e->args[1] = mask;
    e->args[2] = other;
    return fv_expr(e);
}

FValue b_store(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    if (!fe_cache_hints(fe, a, 4, 5, "tl.store"))
        return fv_undef();
    MtExpr *ptr, *mask;
    if (a->v[0].kind == FV_BLOCKPTR) {
        if (!fe_blockptr_store(fe, a, sp, &ptr, &mask))
            return fv_undef();
    } else {
        if (a->given[3] && !(a->v[3].kind == FV_TUPLE && a->v[3].u.tup.n == 0)) {
            fe_error(fe, a->sp[3], "E0406", "tl.store(boundary_check=...) needs a block pointer "
                     "(tl.make_block_ptr); mask a pointer block instead");
            return fv_undef();
        }
        ptr = fe_to_expr(fe, a->v[0], a->sp[0]);
        mask = opt_expr(fe, a->v[2], a->sp[2]);
        if (!ptr || (a->v[2].kind != FV_NONE && !mask))
            return fv_undef();
    }
    MtExpr *val = fe_to_expr(fe, a->v[1], a->sp[1]);
    if (!val)
        return fv_undef();
    fe_mark_pointer(fe, ptr);
    MtExpr *e = fe_op(fe, OP_STORE, sp, 3);
    e->args[0] = ptr;
    e->args[1] = val;
    e->args[2] = mask;
    fe_add_root(fe, e);
    return fv_none();
}

/* tl.zeros(shape, dtype), tl.full(shape, value, dtype), tl.empty(shape, dtype) */
FValue b_factory(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const char *fname = fe_builtin_display(fe, bi);
    int rank;
    int32_t shape[MT_MAX_RANK];
    const MtType *dtype;
    uint32_t dt = bi->op == OP_FULL ? 2 : 1;
    FValue shp = a->v[0];
    bool scalar = shp.kind == FV_TUPLE && shp.u.tup.n == 0;
    if ((!scalar && !fe_shape_arg(fe, shp, a->sp[0], fname, &rank, shape)) ||
        !fe_dtype_arg(fe, a->v[dt], a->sp[dt], fname, &dtype))
        return fv_undef();
    if (scalar) {
        /* shape () is a scalar of the dtype (Triton's 0-d tensor) */
        FValue v = bi->op == OP_FULL ? a->v[1] : fv_int(0);
        if (!fv_is_number(v) && v.kind != FV_EXPR) {
            fe_error(fe, a->sp[1], "E0409", "tl.full fill value must be a number or a runtime scalar, got %s",
                     fv_kind_name(v));
            return fv_undef();
        }
        MtExpr *x = fe_to_expr(fe, v, bi->op == OP_FULL ? a->sp[1] : sp);
        MtExpr *e = x ? fe_cast(fe, x, dtype, MT_ROUND_RTNE, false, sp) : NULL;
        return e ? fv_expr(e) : fv_undef();
    }
    MtExpr *fill = NULL;
    if (bi->op == OP_FULL) {
        FValue v = a->v[1];
        if (fv_is_number(v)) {
            /* Convert a compile-time fill value to the dtype now, as
             * tl.full does: full(shape, 2, tl.float32) fills 2.0. */
            double f;
            py_as_double(v, &f);
            if (mt_ty_is_float(dtype))
                v = fv_float(f);
            else if (mt_ty_is_bool(dtype))
                v = fv_bool(f != 0);
            else
                v = fv_int(v.kind == FV_FLOAT ? (int64_t)f : v.u.i);
        } else if (v.kind != FV_EXPR) {
            fe_error(fe, a->sp[1], "E0409", "tl.full fill value must be a number or a runtime scalar, got %s",
                     fv_kind_name(v));
            return fv_undef();
        }
        fill = fe_to_expr(fe, v, a->sp[1]);
        if (!fill)
            return fv_undef();
    }
    MtExpr *e = fe_op(fe, (MtOpcode)bi->op, sp, fill ? 1 : 0);
    e->attr.rank = rank;
    memcpy(e->attr.shape, shape, sizeof shape);
    e->attr.dtype = dtype;
    if (fill)
        e->args[0] = fill;
    return fv_expr(e);
}

FValue b_where(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp) { return op_node(fe, OP_SELECT, a, 3, sp); }

/* tl.maximum, tl.minimum */
FValue b_minmax(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    return fe_binary(fe, (MtOpcode)bi->op, a->v[0], a->v[1], sp);
}

/* tl.clamp(x, min, max): minimum(maximum(x, min), max) on floats, as
 * Triton's clampf; maximum and minimum propagate NaN. */
FValue b_clamp(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    FValue lo = fe_binary(fe, OP_MAXIMUM, a->v[0], a->v[1], sp);
    if (lo.kind != FV_EXPR)
        return fv_undef();
    FValue r = fe_binary(fe, OP_MINIMUM, lo, a->v[2], sp);
    const MtType *t = r.kind == FV_EXPR ? fe_type(fe, r.u.e) : NULL;
    if (!t)
        return fv_undef();
    if (!mt_ty_is_float(mt_ty_elem(t))) {
        fe_error(fe, sp, "E0405", "tl.clamp needs float operands, got %s (use tl.minimum and tl.maximum)",
                 mt_ty_str(fe->c, t));
        return fv_undef();
    }
    return r;
}

/* tl.sigmoid(x) = 1 / (1 + exp(-x)), as Triton's standard library writes it. */
FValue b_sigmoid(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    MtExpr *x = fe_to_expr(fe, a->v[0], a->sp[0]);
    if (!x)
        return fv_undef();
    MtExpr *neg = fe_op(fe, OP_NEG, sp, 1);
    neg->args[0] = x;
    MtExpr *e = fe_op(fe, OP_EXP, sp, 1);
    e->args[0] = neg;
    FValue d = fe_binary(fe, OP_ADD, fv_int(1), fv_expr(e), sp);
    return d.kind == FV_EXPR ? fe_binary(fe, OP_DIV, fv_int(1), d, sp) : d;
}

/* The math.def functions, tl.abs, tl.umulhi: one node over the arguments. */
FValue b_elementwise(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    return op_node(fe, (MtOpcode)bi->op, a, (uint32_t)mt_op_info[bi->op].nargs, sp);
}

/* A hidden conversion of x to f32 (a tl.dot operand of a 16-bit float type). */
static MtExpr *to_f32(Fe *fe, MtExpr *x, MtSpan sp)
{
    MtExpr *e = fe_op(fe, OP_CAST, sp, 1);
    e->args[0] = x;
    e->attr.dtype = &mt_ty_f32;
    e->attr.mode = MT_ROUND_RTNE;
    e->hidden = true;
    return e;
}

/* tl.dot's input_precision / allow_tf32 for f32 operands: "ieee" (and
 * mytriton's default: Triton's is "tf32"), "tf32" (or allow_tf32=True),
 * or one of the multi-pass emulations, computed in full fp32 (W0802).
 * Returns false after an error. */
static bool dot_precision(Fe *fe, const FeArgs *a, uint8_t *out)
{
    static const char *const full[] = {"tf32x3", "bf16x3", "bf16x6"};
    *out = MT_DOT_IEEE;
    if (a->given[3] && a->given[4] && a->v[3].kind != FV_NONE && a->v[4].kind != FV_NONE) {
        fe_error(fe, a->sp[4], "E0410", "tl.dot takes input_precision or allow_tf32, not both (allow_tf32 is the old "
                 "spelling of input_precision=\"tf32\")");
        return false;
    }
    if (a->given[4] && a->v[4].kind != FV_NONE) {
        bool ok, on = py_truth(fe, a->v[4], a->sp[4], &ok);
        if (!ok)
            return false;
        *out = on ? MT_DOT_TF32 : MT_DOT_IEEE;
        return true;
    }
    if (a->v[3].kind == FV_NONE)
        return true;
    if (a->v[3].kind != FV_STR) {
        fe_error(fe, a->sp[3], "E0410", "tl.dot input_precision must be a string (\"ieee\", \"tf32\", ...), got %s",
                 fv_repr(fe->c, a->v[3]));
        return false;
    }
    const char *p = a->v[3].u.s;
    if (!strcmp(p, "ieee"))
        return true;
    if (!strcmp(p, "tf32")) {
        *out = MT_DOT_TF32;
        return true;
    }
    for (size_t i = 0; i < sizeof full / sizeof full[0]; i++)
        if (!strcmp(p, full[i])) {
            mt_diag(fe->c, MT_SEV_WARNING, a->sp[3], "W0802",
                    "input_precision=\"%s\" is computed in full fp32 (\"ieee\"), which is at least as accurate", p);
            return true;
        }
    fe_error(fe, a->sp[3], "E0410", "tl.dot input_precision \"%s\" is not one of \"ieee\", \"tf32\", \"tf32x3\", "
             "\"bf16x3\", \"bf16x6\"", p);
    return false;
}

/* tl.dot(input, other, acc, input_precision, allow_tf32, max_num_imprecise_acc, out_dtype).
 * f16 and bf16 operands (both of one type, as Triton requires) are
 * converted to f32, exactly, and multiplied there: Triton's fp32
 * accumulation. out_dtype=tl.float16 on f16 operands rounds the f32 result
 * to f16 (Triton accumulates in f16 there). f32 operands are multiplied in
 * full f32, or in TF32 when the precision options ask for it. */
FValue b_dot(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    uint8_t precision;
    if (!dot_precision(fe, a, &precision))
        return fv_undef();
    MtExpr *x = fe_to_expr(fe, a->v[0], a->sp[0]), *y = fe_to_expr(fe, a->v[1], a->sp[1]);
    const MtType *tx = x ? fe_type(fe, x) : NULL, *ty = y ? fe_type(fe, y) : NULL;
    if (!tx || !ty)
        return fv_undef();
    const MtType *ex = mt_ty_elem(tx), *ey = mt_ty_elem(ty);
    bool half = (ex == mt_ty_scalar(MT_DT_F16) || ex == mt_ty_scalar(MT_DT_BF16)) && ex == ey;
    /* Triton's result type: f16 for f16 operands with out_dtype=tl.float16,
     * f32 otherwise (out_dtype is ignored for f32 and bf16 operands). */
    const MtType *out = &mt_ty_f32;
    if (a->given[6] && !(a->v[6].kind == FV_DTYPE && (a->v[6].u.dtype == &mt_ty_f32 ||
                                                      a->v[6].u.dtype == mt_ty_scalar(MT_DT_F16)))) {
        fe_error(fe, a->sp[6], "E0410", "tl.dot out_dtype must be tl.float32 or tl.float16, got %s%s",
                 fv_repr(fe->c, a->v[6]),
                 a->v[6].kind == FV_DTYPE && a->v[6].u.dtype == mt_ty_scalar(MT_DT_BF16)
                     ? " (use out_dtype=tl.float32 and convert with .to(tl.bfloat16))"
                     : "");
        return fv_undef();
    }
    if (a->given[6] && ex == mt_ty_scalar(MT_DT_F16) && ey == ex)
        out = a->v[6].u.dtype;
    if (half) {
        x = to_f32(fe, x, a->sp[0]);
        y = to_f32(fe, y, a->sp[1]);
    } else if (ex != ey && mt_ty_is_float(ex) && mt_ty_is_float(ey)) {
        note_guessed_dtype(fe,
                           fe_error(fe, sp, "E0410",
                                    "tl.dot operands must have one dtype, got %s and %s (convert one with .to())",
                                    mt_ty_str(fe->c, tx), mt_ty_str(fe->c, ty)),
                           x, y);
        return fv_undef();
    }
    MtExpr *d = fe_op(fe, OP_DOT, sp, 2);
    d->args[0] = x;
    d->args[1] = y;
    d->attr.mode = half ? MT_DOT_IEEE : precision;
    if (out != &mt_ty_f32) {
        MtExpr *c = fe_op(fe, OP_CAST, sp, 1);
        c->args[0] = d;
        c->attr.dtype = out;
        c->attr.mode = MT_ROUND_RTNE;
        d = c;
    }
    if (a->v[2].kind == FV_NONE)
        return fv_expr(d);
    /* tl.dot(a, b, acc) accumulates: acc + a @ b. */
    return fe_binary(fe, OP_ADD, a->v[2], fv_expr(d), sp);
}

/* range(stop), range(start, stop[, step]) in all three spellings. */
static FValue make_range(Fe *fe, const FeArgs *a, RangeKind kind, MtSpan sp)
{
    FValue r = {.kind = FV_RANGE};
    r.u.range.bounds = mt_arena_alloc(&fe->c->arena, 3 * sizeof(FValue));
    if (a->v[1].kind != FV_NONE) {
        r.u.range.bounds[0] = a->v[0];
        r.u.range.bounds[1] = a->v[1];
    } else {
        r.u.range.bounds[0] = fv_int(0);
        r.u.range.bounds[1] = a->v[0];
    }
    r.u.range.bounds[2] = a->v[2].kind != FV_NONE ? a->v[2] : fv_int(1);
    r.u.range.kind = (uint8_t)kind;
    r.u.range.span = sp;
    return r;
}

FValue b_static_range(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    return make_range(fe, a, RANGE_STATIC, sp);
}

FValue b_tl_range(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp) { return make_range(fe, a, RANGE_TL, sp); }

FValue b_py_range(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    /* Triton ignores range()'s keywords (flatten=, num_stages=, ...); the
     * bounds are never keywords, as in Python */
    for (uint32_t i = 0; i < a->call->nkw; i++) {
        const char *k = a->call->kw_name[i];
        if (!strcmp(k, "arg1") || !strcmp(k, "arg2") || !strcmp(k, "step")) {
            fe_error(fe, a->call->kw_span[i], "E0305", "range() takes its bounds and step by position, not as '%s='",
                     k);
            return fv_undef();
        }
    }
    return make_range(fe, a, RANGE_PY, sp);
}

FValue b_constexpr(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    if (a->v[0].kind == FV_EXPR) {
        fe_error(fe, a->sp[0], "E0306", "tl.constexpr() needs a compile-time value");
        return fv_undef();
    }
    return a->v[0];
}

FValue b_static_assert(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    if (a->v[0].kind == FV_EXPR) {
        fe_error(fe, a->sp[0], "E0306", "tl.static_assert needs a compile-time condition");
        return fv_undef();
    }
    bool ok;
    bool t = py_truth(fe, a->v[0], a->sp[0], &ok);
    bool msg = a->given[1] && a->v[1].kind == FV_STR;
    if (ok && !t)
        fe_error(fe, sp, "E0309", "static assertion failed%s%s", msg ? ": " : "", msg ? a->v[1].u.s : "");
    return fv_none();
}

FValue b_static_print(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const CallArgs *c = a->call;
    MtBuf out;
    mt_buf_init(&out, &fe->c->arena);
    for (uint32_t k = 0; k < c->npos; k++) {
        if (k)
            mt_buf_putc(&out, ' ');
        mt_buf_puts(&out, c->pos[k].kind == FV_STR ? c->pos[k].u.s : fv_repr(fe->c, c->pos[k]));
    }
    mt_diag(fe->c, MT_SEV_INFO, sp, NULL, "static_print: %s", mt_buf_str(&out));
    return fv_none();
}

FValue b_jit(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    fe_error(fe, sp, "E0307", "triton.jit cannot be called inside a kernel");
    return fv_undef();
}

/* tl.cast(input, dtype, fp_downcast_rounding=None, bitcast=False) and x.to(...) */
FValue b_cast(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const MtType *to;
    if (!fe_dtype_arg(fe, a->v[1], a->sp[1], "tl.cast", &to))
        return fv_undef();
    uint8_t mode = MT_ROUND_RTNE;
    FValue r = a->v[2];
    if (r.kind == FV_STR && !strcmp(r.u.s, "rtz")) {
        mode = MT_ROUND_RTZ;
    } else if (r.kind != FV_NONE && !(r.kind == FV_STR && !strcmp(r.u.s, "rtne"))) {
        fe_error(fe, a->sp[2], "E0417", "fp_downcast_rounding must be 'rtne' or 'rtz', got %s", fv_repr(fe->c, r));
        return fv_undef();
    }
    bool ok, bitcast = py_truth(fe, a->v[3], a->sp[3], &ok);
    if (!ok)
        return fv_undef();
    MtExpr *x = fe_to_expr(fe, a->v[0], a->sp[0]);
    MtExpr *e = x ? fe_cast(fe, x, to, mode, bitcast, sp) : NULL;
    return e ? fv_expr(e) : fv_undef();
}

MtExpr *fe_cast(Fe *fe, MtExpr *x, const MtType *to, uint8_t mode, bool bitcast, MtSpan sp)
{
    const MtType *from = fe_type(fe, x);
    if (!from)
        return NULL;
    if (mt_ty_elem(from) == to)
        return x; /* Triton returns the input itself */
    MtExpr *e = fe_op(fe, bitcast ? OP_BITCAST : OP_CAST, sp, 1);
    e->args[0] = x;
    e->attr.dtype = to;
    e->attr.mode = mode;
    return e;
}
