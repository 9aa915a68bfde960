/* attrs.c: attributes and methods of runtime values and of type objects,
 * as kernels use them for introspection at compile time.
 *
 * A runtime value (a Triton tensor) has its type only through inference,
 * so asking for `x.dtype` types x now (mt_infer_expr). What Triton's
 * tensor and dtype objects answer:
 *   x.dtype   the element type: tl.float16, or a pointer type for a block
 *             of pointers (x.dtype.element_ty is the pointee)
 *   x.type    the whole type: a block type (x.type.element_ty, .shape,
 *             .scalar) or the scalar / pointer type itself
 *   x.shape   a list of ints ([] for a scalar), x.numel an int
 *   x.T       x transposed
 *   x.<m>(...) the tensor methods of builtins.def (x.to(tl.float32), x.sum(1))
 * and type objects answer name, primitive_bitwidth, int_bitwidth,
 * fp_mantissa_width, element_ty, scalar, shape, numel and the predicates
 * is_fp16() ... is_uint64(), is_floating(), is_int(), is_int_signed(),
 * is_int_unsigned(), is_bool(), is_ptr(), is_block(), ...
 * Types compare with == (tl.float16 == x.dtype), as in Python. */
#include <string.h>

#include "fe.h"
#include "types/infer.h"

const MtType *fe_type(Fe *fe, MtExpr *e) { return mt_infer_expr(fe->c, fe->prog, e); }

static FValue dtype_value(const MtType *t)
{
    FValue v = {.kind = FV_DTYPE};
    v.u.dtype = t;
    return v;
}

static FValue shape_list(Fe *fe, const MtType *t)
{
    FValue l = {.kind = FV_TUPLE, .is_list = true};
    int rank = mt_ty_rank(t);
    l.u.tup.n = (uint32_t)rank;
    l.u.tup.v = mt_arena_alloc(&fe->c->arena, (rank + 1) * sizeof(FValue));
    for (int i = 0; i < rank; i++)
        l.u.tup.v[i] = fv_int(t->shape[i]);
    return l;
}

static FValue method(Fe *fe, FValue self, const char *name, MtSpan sp)
{
    FValue m = {.kind = FV_METHOD};
    m.u.method.self = mt_arena_alloc(&fe->c->arena, sizeof *m.u.method.self);
    *m.u.method.self = self;
    m.u.method.name = name;
    m.u.method.span = sp;
    return m;
}

/* Triton's dtype.name: "fp16", "bf16", "fp32" for floats, "int32", "uint8", "int1" otherwise. */
static const char *triton_name(const MtType *t)
{
    return mt_ty_is_float(t) ? mt_ty_info(t)->sig : mt_ty_info(t)->tl;
}

/* Type predicates, by name: whether t answers true. */
static bool predicate(const MtType *t, const char *name, bool *known)
{
    *known = true;
    bool scalar = mt_ty_is_scalar(t);
    if (!strncmp(name, "is_", 3) && scalar) {
        /* is_fp16, is_bf16, is_fp32, is_fp64, is_int1, is_int8, ..., is_uint64 */
        const char *what = name + 3;
        for (int d = 0; d < MT_DTYPE_COUNT; d++) {
            const MtDtypeInfo *r = mt_dtype_info((MtDtype)d);
            if (!strcmp(what, mt_ty_is_float(mt_ty_scalar((MtDtype)d)) ? r->sig : r->tl))
                return t->dtype == d;
        }
    }
    if (!strcmp(name, "is_floating") || !strcmp(name, "is_standard_floating"))
        return scalar && mt_ty_is_float(t);
    if (!strcmp(name, "is_int"))
        return scalar && mt_ty_is_intlike(t);
    if (!strcmp(name, "is_int_signed"))
        return scalar && mt_ty_is_signed(t);
    if (!strcmp(name, "is_int_unsigned"))
        return scalar && mt_ty_is_unsigned(t);
    if (!strcmp(name, "is_bool"))
        return scalar && mt_ty_is_bool(t);
    if (!strcmp(name, "is_ptr"))
        return t->kind == TY_PTR;
    if (!strcmp(name, "is_block"))
        return t->kind == TY_BLOCK;
    if (!strcmp(name, "is_const") || !strncmp(name, "is_fp8", 6))
        return false;
    if (scalar && !strncmp(name, "is_", 3))
        return false;
    *known = false;
    return false;
}

static FValue dtype_attr(Fe *fe, const MtType *t, const char *name, MtSpan sp)
{
    bool known;
    predicate(t, name, &known);
    if (known)
        return method(fe, dtype_value(t), name, sp);
    bool scalar = mt_ty_is_scalar(t);
    if (!strcmp(name, "element_ty") && (t->kind == TY_PTR || t->kind == TY_BLOCK))
        return dtype_value(t->elem);
    if (!strcmp(name, "element_ty") && fe->dtype_of && fe_mark_pointer(fe, fe->dtype_of))
        return dtype_value(&mt_ty_f32); /* p.dtype.element_ty: p is a pointer; the frontend runs again */
    if (!strcmp(name, "scalar"))
        return dtype_value(mt_ty_elem(t));
    if (!strcmp(name, "shape") && t->kind == TY_BLOCK)
        return shape_list(fe, t);
    if (!strcmp(name, "numel") && t->kind == TY_BLOCK)
        return fv_int(mt_ty_numel(t));
    if (!strcmp(name, "name") && scalar)
        return (FValue){.kind = FV_STR, .u.s = triton_name(t)};
    if (!strcmp(name, "primitive_bitwidth") && (scalar || t->kind == TY_PTR))
        return fv_int(mt_ty_bits(t));
    if (!strcmp(name, "int_bitwidth") && scalar && mt_ty_is_intlike(t))
        return fv_int(mt_ty_bits(t));
    if (!strcmp(name, "fp_mantissa_width") && scalar && mt_ty_is_float(t))
        return fv_int(mt_ty_info(t)->mant);
    if (!strcmp(name, "with_element_ty"))
        return method(fe, dtype_value(t), name, sp);
    fe_error(fe, sp, "E0304", "type %s has no attribute '%s' in kernels", mt_ty_str(fe->c, t), name);
    return fv_undef();
}

static FValue tensor_attr(Fe *fe, FValue v, const char *name, MtSpan sp)
{
    if (fe_tensor_method(name))
        return method(fe, v, name, sp);
    const MtType *t = fe_type(fe, v.u.e);
    if (!t)
        return fv_undef();
    if (!strcmp(name, "dtype") || !strcmp(name, "type")) {
        fe->dtype_of = v.u.e;
        return dtype_value(name[0] == 'd' ? mt_ty_elem(t) : t);
    }
    if (!strcmp(name, "shape"))
        return shape_list(fe, t);
    if (!strcmp(name, "numel"))
        return fv_int(mt_ty_numel(t));
    if (!strcmp(name, "T")) {
        /* the transpose of a rank-2 block */
        if (mt_ty_rank(t) != 2) {
            fe_error(fe, sp, "E0418", ".T transposes rank-2 blocks, got %s; use tl.permute", mt_ty_str(fe->c, t));
            return fv_undef();
        }
        MtExpr *e = fe_op(fe, OP_PERMUTE, sp, 1);
        e->args[0] = v.u.e;
        e->attr.rank = 2;
        e->attr.shape[0] = 1;
        e->attr.shape[1] = 0;
        return fv_expr(e);
    }
    fe_error(fe, sp, "E0304",
             "a runtime value (%s) has no attribute '%s' in kernels; see docs/language.md for the tensor methods "
             "and attributes mytriton supports",
             mt_ty_str(fe->c, t), name);
    return fv_undef();
}

FValue fe_value_attr(Fe *fe, FValue v, const char *name, MtSpan sp)
{
    if (v.kind == FV_DTYPE)
        return dtype_attr(fe, v.u.dtype, name, sp);
    if (v.kind == FV_BLOCKPTR) {
        if (!strcmp(name, "advance"))
            return method(fe, v, name, sp);
        fe_error(fe, sp, "E0304", "a block pointer has no attribute '%s' in kernels (it has advance)", name);
        return fv_undef();
    }
    return tensor_attr(fe, v, name, sp);
}

static bool no_args(Fe *fe, const CallArgs *a, const char *name, MtSpan sp)
{
    if (!a->npos && !a->nkw)
        return true;
    fe_error(fe, sp, "E0305", "%s() takes no arguments", name);
    return false;
}

FValue fe_call_method(Fe *fe, FValue m, const CallArgs *a, MtSpan sp)
{
    FValue self = *m.u.method.self;
    const char *name = m.u.method.name;
    if (self.kind == FV_DTYPE) {
        const MtType *t = self.u.dtype;
        if (!strcmp(name, "with_element_ty")) {
            if (a->npos != 1 || a->nkw || a->pos[0].kind != FV_DTYPE || !mt_ty_is_scalar(a->pos[0].u.dtype)) {
                fe_error(fe, sp, "E0305", "with_element_ty() takes one scalar dtype");
                return fv_undef();
            }
            return dtype_value(mt_ty_with_shape(fe->c, a->pos[0].u.dtype, t));
        }
        bool known;
        bool yes = predicate(t, name, &known);
        return no_args(fe, a, name, sp) ? fv_bool(yes) : fv_undef();
    }
    /* x.name(args) is tl.<name>(x, args) */
    const FeBuiltin *bi = fe_tensor_method(name);
    CallArgs b = *a;
    b.npos = a->npos + 1;
    b.pos = mt_arena_alloc(&fe->c->arena, (b.npos + 1) * sizeof *b.pos);
    b.pos_span = mt_arena_alloc(&fe->c->arena, (b.npos + 1) * sizeof *b.pos_span);
    b.pos[0] = self;
    b.pos_span[0] = m.u.method.span;
    memcpy(b.pos + 1, a->pos, a->npos * sizeof *a->pos);
    memcpy(b.pos_span + 1, a->pos_span, a->npos * sizeof *a->pos_span);
    return fe_call_builtin(fe, bi, &b, sp);
}
