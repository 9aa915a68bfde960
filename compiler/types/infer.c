/* infer.c: type inference over the expression tree, with Triton's typing
 * rules (its semantic.py: computation types, weak Python scalars, casts).
 *
 * Every node reachable from the roots gets its type: the element type by
 * the operation's rule, the shape by broadcasting its operands. The rules
 * follow Triton:
 *  - binary arithmetic, comparisons and bitwise operations compute in
 *    Triton's computation type (mt_ty_computation); a Python scalar (an
 *    EX_CONST) is weakly typed: of a kind no higher than the other
 *    operand's (bool < integer < float) it takes that operand's type, and
 *    such a constant is given that type here when the operation's
 *    operands would otherwise promote to something else (`x_f16 + 1.5`
 *    stays f16, `x_i8 + 1` stays i8). A negative scalar with an unsigned
 *    type, or a scalar out of an integer type's range, is an error;
 *  - `/` gives a float (f32 for integers), `//` takes integers, `%` takes
 *    integers or floats; `/ // %` compute f16/bf16 in f32 and refuse
 *    integers of different signedness;
 *  - pointer + integer (any width) is a pointer;
 *  - casts produce their target type; loads the pointee; stores convert.
 * Each rule violation is reported once, at the node's source range,
 * naming the operation and the operand types; a node whose operands
 * failed gets no type and no further message (MtExpr.failed), so one
 * mistake gives one error however often the node is asked about.
 *
 * The frontend asks for types while it runs (`x.dtype`, `if x.dtype ==
 * tl.float16:`, a cast to the same type that makes no node) through
 * mt_infer_expr; mt_infer then types what is left once the tree is
 * complete.
 *
 * Parameters without a type (no signature entry) are typed from their
 * use, as the frontend builds loads and stores: a parameter that addresses
 * a tl.load / tl.store (the leftmost parameter of the address's `+` chain,
 * followed through loop-carried values) is *fp32, others i32. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "infer.h"

typedef struct Inf {
    MtCtx *c;
    MtExprProgram *p;
    uint32_t depth;           /* infer_node calls in progress */
} Inf;

/* How deep a value's operands may nest. Compile-time loops unroll into
 * chains (`for i in range(N): acc += ...` is N additions deep); typing,
 * lowering and printing follow them recursively, so a chain deeper than
 * this is an error rather than a stack overflow (found by fuzz_compile
 * and fuzz_launch). */
enum { MAX_EXPR_DEPTH = 4096 };

static MtDiagRec *err(Inf *in, const MtExpr *e, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static MtDiagRec *err(Inf *in, const MtExpr *e, const char *code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    MtDiagRec *d = mt_vdiag(in->c, MT_SEV_ERROR, e->span, code, fmt, ap);
    va_end(ap);
    mt_note_inline(in->c, d, e->inl);
    return d;
}

static const char *ts(Inf *in, const MtType *t) { return mt_ty_str(in->c, t); }

/* ---- parameter types from use ------------------------------------------------------ */

MtExpr *mt_expr_base_param(MtExpr *e)
{
    for (int depth = 0; e && depth < 1000; depth++) {
        if (e->kind == EX_PARAM)
            return e;
        if (e->kind == EX_LOOP_ARG || e->kind == EX_LOOP_RESULT) {
            /* `a_ptrs += BLOCK_K * stride` in a loop: what a_ptrs held before it */
            e = e->u.slot.loop->node->args[2 + e->u.slot.index];
            continue;
        }
        if (e->kind == EX_OP && (e->op == OP_ADD || e->op == OP_SUB)) {
            MtExpr *l = mt_expr_base_param(e->args[0]);
            if (l)
                return l;
            if (e->op == OP_SUB)
                return NULL;
            e = e->args[1];
            continue;
        }
        return NULL;
    }
    return NULL;
}

/* The first parameter with a guessed type that an address is computed
 * from (through `+`, `-`, the values of tl.where, expand_dims and
 * loop-carried values, a few levels deep), or NULL. */
static const MtExpr *guessed_param(const Inf *in, const MtExpr *e, int depth)
{
    if (!e || depth > 8)
        return NULL;
    uint32_t first = 0;
    switch (e->kind) {
    case EX_PARAM:
        return e->u.param.index < in->p->nparams && in->p->inferred && in->p->inferred[e->u.param.index] ? e
                                                                                                          : NULL;
    case EX_LOOP_ARG:
    case EX_LOOP_RESULT: return guessed_param(in, e->u.slot.loop->node->args[2 + e->u.slot.index], depth + 1);
    case EX_OP:
        if (e->op == OP_SELECT)
            first = 1;
        else if (e->op != OP_ADD && e->op != OP_SUB && e->op != OP_ADDPTR && e->op != OP_EXPAND_DIMS)
            return NULL;
        break;
    default: return NULL;
    }
    for (uint32_t i = first; i < e->nargs; i++) {
        const MtExpr *p = guessed_param(in, e->args[i], depth + 1);
        if (p)
            return p;
    }
    return NULL;
}

/* A message about an address that rests on a guessed parameter type says
 * so: the fix is a signature, not the kernel. */
static void note_guessed(Inf *in, MtDiagRec *d, const MtExpr *addr)
{
    const MtExpr *p = d ? guessed_param(in, addr, 0) : NULL;
    if (p)
        mt_note(in->c, d, p->span, "'%s' is %s only because its type was inferred from its use; a signature "
                "entry gives its real type", p->u.param.name, ts(in, p->u.param.ty));
}

/* ---- rules ---------------------------------------------------------------------------- */

static bool numeric(const MtType *t) { return mt_ty_is_scalar(mt_ty_elem(t)); }

static const MtType *shaped(Inf *in, const MtExpr *e, const MtType *elem, const MtType *a, const MtType *b,
                            const char *opname)
{
    int rank;
    int32_t shape[MT_MAX_RANK];
    if (!mt_broadcast(a, b, &rank, shape)) {
        err(in, e, "E0402", "cannot broadcast %s and %s in %s", ts(in, a), ts(in, b), opname);
        return NULL;
    }
    return mt_ty_block(in->c, elem, rank, shape);
}

/* How messages name an operation: '+' for an operator, tl.maximum for a function. */
static const char *op_desc(Inf *in, int op)
{
    return mt_op_is_symbol(op) ? mt_sprintf(in->c, "'%s'", mt_op_info[op].py) : mt_op_info[op].py;
}

static bool is_weak(const MtExpr *e) { return e->kind == EX_CONST; }

/* The integer value of a constant, widened so that u64 values compare right. */
static __int128 const_int(MtConst k)
{
    switch ((MtConstKind)k.kind) {
    case CST_UINT: return (__int128)(uint64_t)k.i;
    case CST_FLOAT: return (__int128)k.f;
    case CST_BOOL:
    case CST_INT: break;
    }
    return k.i;
}

static bool const_negative(MtConst k) { return k.kind == CST_FLOAT ? k.f < 0 : const_int(k) < 0; }

static const char *const_str(Inf *in, MtConst k)
{
    MtBuf b;
    mt_buf_init(&b, &in->c->arena);
    mt_const_print(&b, k);
    return mt_buf_str(&b);
}

/* A Python scalar operand of an operation computing in `ct`: Triton's
 * range checks, then the constant retyped to ct when the SSA's own
 * promotion of its default type with `other` would not give ct. */
static bool weak_operand(Inf *in, MtExpr *e, uint32_t i, const MtType *ct, const MtType *other, bool div_or_mod)
{
    MtExpr *k = e->args[i];
    MtConst v = k->u.cst;
    if (mt_ty_is_intlike(ct) && !mt_ty_is_bool(ct) && v.kind != CST_FLOAT) {
        if (const_negative(v) && mt_ty_is_unsigned(ct)) {
            err(in, e, "E0414",
                "%s between the unsigned %s and the negative constant %s; convert one of them explicitly",
                op_desc(in, e->op), ts(in, ct), const_str(in, v));
            return false;
        }
        int bits = mt_ty_bits(ct);
        __int128 x = const_int(v);
        __int128 lo = mt_ty_is_unsigned(ct) ? 0 : -((__int128)1 << (bits - 1));
        __int128 hi = mt_ty_is_unsigned(ct) ? ((__int128)1 << bits) - 1 : ((__int128)1 << (bits - 1)) - 1;
        if (x < lo || x > hi) {
            err(in, e, "E0414", "integer constant %s does not fit in %s", const_str(in, v), ts(in, ct));
            return false;
        }
    }
    if (mt_ty_computation(k->ty, false, other, false, div_or_mod) != ct) {
        MtExpr *t = mt_expr_new(in->c, in->p, EX_CONST, k->span, k->inl, 0);
        t->u.cst = v;
        t->ty = ct;
        e->args[i] = t;
    }
    return true;
}

static bool is_divmod(int op) { return op == OP_DIV || op == OP_FLOORDIV || op == OP_MOD; }

/* The computation type of a binary (or select's value) pair of operands
 * i and j of e, retyping weak constants; NULL after an error. */
static const MtType *computation(Inf *in, MtExpr *e, uint32_t i, uint32_t j, const char *od)
{
    const MtType *a = mt_ty_elem(e->args[i]->ty), *b = mt_ty_elem(e->args[j]->ty);
    bool wa = is_weak(e->args[i]), wb = is_weak(e->args[j]);
    bool dm = is_divmod(e->op);
    const MtType *ct = mt_ty_computation(a, wa, b, wb, dm);
    if (!ct) {
        err(in, e, "E0401",
            "%s cannot combine %s and %s: they differ in signedness, which is unlikely to give a useful answer; "
            "convert one of them (x.to(tl.int32))",
            od, ts(in, e->args[i]->ty), ts(in, e->args[j]->ty));
        return NULL;
    }
    if (wa != wb) {
        if (wa && !weak_operand(in, e, i, ct, b, dm))
            return NULL;
        if (wb && !weak_operand(in, e, j, ct, a, dm))
            return NULL;
    }
    return ct;
}

static const MtType *infer_pointer_arith(Inf *in, MtExpr *e, const MtType *a, const MtType *b, const char *od)
{
    bool pa = mt_ty_is_ptr(a), pb = mt_ty_is_ptr(b);
    const MtType *ptr = pa ? a : b, *off = pa ? b : a;
    if ((e->op == OP_ADD || (e->op == OP_SUB && pa)) && !(pa && pb)) {
        if (!mt_ty_is_intlike(mt_ty_elem(off))) {
            err(in, e, "E0403", "pointer offset must be an integer, got %s in %s %s %s", ts(in, off), ts(in, a), od,
                ts(in, b));
            return NULL;
        }
        return shaped(in, e, mt_ty_elem(ptr), a, b, od);
    }
    err(in, e, "E0403", "invalid pointer arithmetic: %s %s %s (pointers can only be offset by integers)", ts(in, a),
        od, ts(in, b));
    return NULL;
}

static const MtType *infer_binary(Inf *in, MtExpr *e)
{
    int op = e->op;
    const char *od = op_desc(in, op);
    const MtType *a = e->args[0]->ty, *b = e->args[1]->ty;
    if (mt_ty_is_ptr(a) || mt_ty_is_ptr(b)) {
        if (mt_op_class(op) == OC_ARITH)
            return infer_pointer_arith(in, e, a, b, od);
        err(in, e, "E0401", "%s cannot combine %s and %s", od, ts(in, a), ts(in, b));
        return NULL;
    }
    if (!numeric(a) || !numeric(b)) {
        err(in, e, "E0401", "%s cannot combine %s and %s", od, ts(in, a), ts(in, b));
        return NULL;
    }
    const MtType *ea = mt_ty_elem(a), *eb = mt_ty_elem(b);
    switch (op) {
    case OP_MAXIMUM:
    case OP_MINIMUM:
        if (mt_ty_is_bool(ea) && mt_ty_is_bool(eb)) {
            err(in, e, "E0401", "%s cannot combine two bool operands (%s and %s); compare or convert them first", od,
                ts(in, a), ts(in, b));
            return NULL;
        }
        break;
    case OP_FLOORDIV:
    case OP_AND:
    case OP_OR:
    case OP_XOR:
    case OP_SHL:
    case OP_SHR:
        if (mt_ty_is_float(ea) || mt_ty_is_float(eb)) {
            err(in, e, "E0401", "%s needs %s operands, got %s and %s", od,
                op == OP_FLOORDIV || op == OP_SHL || op == OP_SHR ? "integer" : "bool or integer", ts(in, a),
                ts(in, b));
            return NULL;
        }
        break;
    default:
        break;
    }
    const MtType *ct = computation(in, e, 0, 1, od);
    if (!ct)
        return NULL;
    const MtType *elem = ct;
    switch (op) {
    case OP_DIV:
        elem = mt_ty_is_float(ct) ? ct : &mt_ty_f32;
        break;
    case OP_UMULHI:
        if (ct->dtype != MT_DT_I32 && ct->dtype != MT_DT_I64 && ct->dtype != MT_DT_U32 && ct->dtype != MT_DT_U64) {
            err(in, e, "E0405", "tl.umulhi needs 32- or 64-bit integers, got %s and %s", ts(in, a), ts(in, b));
            return NULL;
        }
        break;
    default:
        if (mt_op_class(op) == OC_COMPARE)
            elem = &mt_ty_bool;
        break;
    }
    return shaped(in, e, elem, a, b, od);
}

static const MtType *infer_unary(Inf *in, MtExpr *e, const MtType *a)
{
    const MtType *el = mt_ty_elem(a);
    if (!numeric(a)) {
        err(in, e, "E0401", "%s cannot apply to %s", op_desc(in, e->op), ts(in, a));
        return NULL;
    }
    switch (e->op) {
    case OP_NEG:
        return a; /* Triton's 0 - x in the operand's type (-x of a bool is x) */
    case OP_NOT:
        if (!mt_ty_is_float(el))
            return a;
        err(in, e, "E0401", "'~' needs a bool or integer operand, got %s", ts(in, a));
        return NULL;
    default: /* OP_ABS */
        return a;
    }
}

/* The math.def operand dtypes, by row. */
typedef enum MathDtypes { MD_F32_F64, MD_F32, MD_FLOAT } MathDtypes;

static const uint8_t math_dtypes[OPC_COUNT_] = {
#define MATH(id, name, nargs, dtypes, api, c32, c64, chalf, cuda32, cuda64, params, doc) [OP_##id] = MD_##dtypes,
#include "ssa/math.def"
#undef MATH
};

static bool math_accepts(int op, const MtType *t)
{
    switch ((MathDtypes)math_dtypes[op]) {
    case MD_F32_F64: return t->dtype == MT_DT_F32 || t->dtype == MT_DT_F64;
    case MD_F32: return t->dtype == MT_DT_F32;
    case MD_FLOAT: return mt_ty_is_float(t);
    }
    return false;
}

static const char *math_wants(int op)
{
    switch ((MathDtypes)math_dtypes[op]) {
    case MD_F32_F64: return "f32 or f64";
    case MD_F32: return "f32";
    case MD_FLOAT: return "a float type";
    }
    return "?";
}

static bool convert_operand(Inf *in, MtExpr *e, uint32_t i, const MtType *to);

/* math.def functions: operands legalised to one computation type, as
 * Triton's binary_op_type_legalization does pairwise (weak Python scalars
 * adopt the others' type, integers convert to the float type), which the
 * row must accept; every operand is then converted to it. */
static const MtType *infer_math(Inf *in, MtExpr *e)
{
    const char *name = mt_op_info[e->op].py;
    for (uint32_t i = 0; i < e->nargs; i++)
        if (!numeric(e->args[i]->ty)) {
            err(in, e, "E0405", "%s needs %s, got %s", name, math_wants(e->op), ts(in, e->args[i]->ty));
            return NULL;
        }
    const MtType *strong = NULL, *weak = NULL;
    for (uint32_t i = 0; i < e->nargs; i++) {
        const MtType **acc = is_weak(e->args[i]) ? &weak : &strong;
        const MtType *t = mt_ty_elem(e->args[i]->ty);
        const MtType *ct = *acc ? mt_ty_computation(*acc, false, t, false, false) : t;
        if (!ct) {
            err(in, e, "E0405", "%s cannot combine %s and %s", name, ts(in, *acc), ts(in, t));
            return NULL;
        }
        *acc = ct;
    }
    const MtType *ct = strong && weak ? mt_ty_computation(strong, false, weak, true, false) : strong ? strong : weak;
    if (!ct) {
        err(in, e, "E0405", "%s cannot combine %s and %s", name, ts(in, strong), ts(in, weak));
        return NULL;
    }
    if (!math_accepts(e->op, ct)) {
        err(in, e, "E0405", "%s needs %s, got %s; convert first (x.to(tl.float32))", name, math_wants(e->op),
            ts(in, e->nargs == 1 ? e->args[0]->ty : ct));
        return NULL;
    }
    for (uint32_t i = 0; i < e->nargs; i++) {
        MtExpr *k = e->args[i];
        if (mt_ty_elem(k->ty) == ct)
            continue;
        if (is_weak(k)) {
            MtExpr *t = mt_expr_new(in->c, in->p, EX_CONST, k->span, k->inl, 0);
            t->u.cst = k->u.cst;
            t->ty = ct;
            e->args[i] = t;
        } else if (!convert_operand(in, e, i, ct)) {
            return NULL;
        }
    }
    const MtType *t = mt_ty_with_shape(in->c, ct, e->args[0]->ty);
    for (uint32_t i = 1; t && i < e->nargs; i++)
        t = shaped(in, e, ct, t, e->args[i]->ty, name);
    return t;
}

static const MtType *infer_cast(Inf *in, MtExpr *e, const MtType *a)
{
    const MtType *to = e->attr.dtype;
    const MtType *from = mt_ty_elem(a);
    if (!numeric(a)) {
        err(in, e, "E0417", "cannot convert %s to %s", ts(in, a), ts(in, to));
        return NULL;
    }
    if (e->op == OP_BITCAST && mt_ty_bits(from) != mt_ty_bits(to)) {
        err(in, e, "E0417", "cannot bitcast %s (%d bits) to %s (%d bits): the widths differ", ts(in, from),
            mt_ty_bits(from), ts(in, to), mt_ty_bits(to));
        return NULL;
    }
    if (e->op == OP_CAST && e->attr.mode == MT_ROUND_RTZ &&
        !(mt_ty_is_float(from) && mt_ty_is_float(to) && mt_ty_bits(to) < mt_ty_bits(from))) {
        err(in, e, "E0417",
            "fp_downcast_rounding applies only to conversions to a narrower float, not %s to %s", ts(in, from),
            ts(in, to));
        return NULL;
    }
    return mt_ty_with_shape(in->c, to, a);
}

static const MtType *broadcast3(Inf *in, const MtExpr *e, const MtType *elem, const MtType *a, const MtType *b,
                                const MtType *c, const char *what)
{
    const MtType *t = shaped(in, e, elem, a, b, what);
    if (t && c)
        t = shaped(in, e, elem, t, c, what);
    return t;
}

static const MtType *infer_node(Inf *in, MtExpr *e);

/* A cast of operand i of e to `to` (keeping its shape), inferred now. */
static bool convert_operand(Inf *in, MtExpr *e, uint32_t i, const MtType *to)
{
    MtExpr *x = e->args[i];
    MtExpr *c = mt_expr_op(in->c, in->p, OP_CAST, x->span, x->inl, 1);
    c->args[0] = x;
    c->attr.dtype = to;
    e->args[i] = c;
    return infer_node(in, c) != NULL;
}

static const MtType *infer_select(Inf *in, MtExpr *e)
{
    const MtType *c = e->args[0]->ty, *a = e->args[1]->ty, *b = e->args[2]->ty;
    if (!numeric(c)) {
        err(in, e, "E0404", "tl.where condition must be bool, got %s", ts(in, c));
        return NULL;
    }
    if (!mt_ty_is_bool(mt_ty_elem(c))) {
        /* Triton converts the condition (x != 0) */
        if (!convert_operand(in, e, 0, &mt_ty_bool))
            return NULL;
        c = e->args[0]->ty;
    }
    const MtType *elem;
    if (mt_ty_is_ptr(a) || mt_ty_is_ptr(b)) {
        if (mt_ty_elem(a) != mt_ty_elem(b)) {
            err(in, e, "E0401", "tl.where cannot select between %s and %s", ts(in, a), ts(in, b));
            return NULL;
        }
        elem = mt_ty_elem(a);
    } else if (!numeric(a) || !numeric(b)) {
        err(in, e, "E0401", "tl.where cannot select between %s and %s", ts(in, a), ts(in, b));
        return NULL;
    } else if (!(elem = computation(in, e, 1, 2, "tl.where"))) {
        return NULL;
    }
    return broadcast3(in, e, elem, c, e->args[1]->ty, e->args[2]->ty, "tl.where");
}

static const MtType *infer_load(Inf *in, MtExpr *e, const MtType **ta)
{
    if (!mt_ty_is_ptr(ta[0])) {
        note_guessed(in, err(in, e, "E0406", "tl.load needs a pointer, got %s", ts(in, ta[0])), e->args[0]);
        return NULL;
    }
    if (ta[1] && !mt_ty_is_bool(mt_ty_elem(ta[1]))) {
        err(in, e, "E0404", "tl.load mask must be bool, got %s", ts(in, ta[1]));
        return NULL;
    }
    if (ta[2] && !numeric(ta[2])) {
        err(in, e, "E0406", "tl.load other must be a number, got %s", ts(in, ta[2]));
        return NULL;
    }
    return broadcast3(in, e, mt_ty_elem(ta[0])->elem, ta[0], ta[1] ? ta[1] : ta[0], ta[2], "tl.load");
}

static const MtType *infer_store(Inf *in, MtExpr *e, const MtType **ta)
{
    if (!mt_ty_is_ptr(ta[0])) {
        note_guessed(in, err(in, e, "E0406", "tl.store needs a pointer, got %s", ts(in, ta[0])), e->args[0]);
        return NULL;
    }
    if (!numeric(ta[1])) {
        err(in, e, "E0406", "tl.store value must be a number or a block of numbers, got %s", ts(in, ta[1]));
        return NULL;
    }
    if (ta[2] && !mt_ty_is_bool(mt_ty_elem(ta[2]))) {
        err(in, e, "E0404", "tl.store mask must be bool, got %s", ts(in, ta[2]));
        return NULL;
    }
    return broadcast3(in, e, &mt_ty_i32, ta[0], ta[1], ta[2], "tl.store") ? &mt_ty_void : NULL;
}

/* tl.atomic_*: a pointer (block) into memory of a type the operation
 * takes, as Triton's atom_red_typechecking_impl; the value is converted to
 * the pointee type (as a store's). The result is the old values. */
static const MtType *infer_atomic(Inf *in, MtExpr *e, const MtType **ta)
{
    const char *name = mt_op_info[e->op].py;
    if (!mt_ty_is_ptr(ta[0])) {
        note_guessed(in, err(in, e, "E0406", "%s needs a pointer, got %s", name, ts(in, ta[0])), e->args[0]);
        return NULL;
    }
    const MtType *pt = mt_ty_elem(ta[0])->elem;
    bool cas = e->op == OP_ATOMIC_CAS;
    const char *why = mt_atomic_refusal(e->op, pt);
    if (why) {
        err(in, e, "E0406", "%s does not support %s memory; it takes %s", name, mt_ty_str(in->c, pt), why);
        return NULL;
    }
    for (uint32_t i = 1; i < 3; i++) {
        bool mask = !cas && i == 2;
        if (!ta[i] || (mask ? mt_ty_is_bool(mt_ty_elem(ta[i])) : numeric(ta[i])))
            continue;
        err(in, e, mask ? "E0404" : "E0406", "%s %s must be %s, got %s", name,
            mask ? "mask" : cas && i == 1 ? "cmp" : "value", mask ? "bool" : "a number or a block of numbers",
            ts(in, ta[i]));
        return NULL;
    }
    return broadcast3(in, e, pt, ta[0], ta[1], ta[2], name);
}

/* debug_barrier, device_print (numbers), device_assert (a bool or
 * integer condition, a bool mask broadcastable to it): no value. */
static const MtType *infer_debug(Inf *in, MtExpr *e, const MtType **ta)
{
    for (uint32_t i = 0; i < e->nargs; i++) {
        if (!ta[i])
            continue;
        bool mask = e->op == OP_DEVICE_ASSERT && i == 1;
        bool ok = mask ? mt_ty_is_bool(mt_ty_elem(ta[i]))
                       : numeric(ta[i]) && (e->op != OP_DEVICE_ASSERT || !mt_ty_is_float(mt_ty_elem(ta[i])));
        if (!ok) {
            err(in, e, mask ? "E0404" : "E0406", "%s %s must be %s, got %s", mt_op_info[e->op].py,
                mask ? "mask" : e->op == OP_DEVICE_ASSERT ? "condition" : "values",
                mask ? "bool" : e->op == OP_DEVICE_ASSERT ? "a bool or an integer" : "numbers", ts(in, ta[i]));
            return NULL;
        }
    }
    if (e->op == OP_DEVICE_ASSERT && ta[1] && !broadcast3(in, e, &mt_ty_bool, ta[0], ta[1], NULL, "tl.device_assert"))
        return NULL;
    return &mt_ty_void;
}

/* Normalise e's axis (negative counts from the end) for a rank-`rank`
 * operand; E0408 (what) when it is out of range. */
static bool norm_axis(Inf *in, MtExpr *e, int rank, const char *code, const char *name, const MtType *t)
{
    int axis = e->attr.axis;
    if (axis == MT_AXIS_NONE && rank == 1)
        return true; /* a rank-1 block without an axis: axis 0 (kept as written for --emit expr) */
    if (axis < -rank || axis >= rank) {
        err(in, e, code, "%s axis %d is out of range for %s (axes -%d to %d)", name, axis, ts(in, t), rank, rank - 1);
        return false;
    }
    e->attr.axis = axis < 0 ? axis + rank : axis;
    return true;
}

/* A block reduced along e's axis (the axis kept as 1 with keep_dims). */
static const MtType *reduced(Inf *in, const MtExpr *e, const MtType *t)
{
    int32_t shape[MT_MAX_RANK];
    int rank = 0, axis = e->attr.axis == MT_AXIS_NONE ? 0 : e->attr.axis;
    for (int d = 0; d < t->rank; d++)
        if (d != axis)
            shape[rank++] = t->shape[d];
        else if (e->attr.flags & MT_KEEP_DIMS)
            shape[rank++] = 1;
    return rank ? mt_ty_block(in->c, t->elem, rank, shape) : t->elem;
}

/* The block operand of a reduction or scan along an axis (E0408). */
static bool axis_block(Inf *in, MtExpr *e, const MtType *t, const char *name, bool pow2)
{
    if (!mt_ty_is_block(t)) {
        err(in, e, "E0408", "%s needs a block, got %s", name, ts(in, t));
        return false;
    }
    if (!norm_axis(in, e, t->rank, "E0408", name, t))
        return false;
    int axis = e->attr.axis == MT_AXIS_NONE ? 0 : e->attr.axis;
    int32_t w = t->shape[axis];
    if (pow2 && (w & (w - 1))) {
        if (t->rank == 1)
            err(in, e, "E0408", "%s needs a power-of-two width, got %s", name, ts(in, t));
        else
            err(in, e, "E0408", "%s needs a power-of-two length along axis %d, got %s", name, axis, ts(in, t));
        return false;
    }
    return true;
}

static const MtType *infer_reduce(Inf *in, MtExpr *e, const MtType **ta)
{
    const char *name = mt_op_info[e->op].py;
    if (!axis_block(in, e, ta[0], name, true))
        return NULL;
    bool xor = e->op == OP_XOR_SUM;
    if (!numeric(ta[0]) || (xor ? mt_ty_is_float(ta[0]->elem) : mt_ty_is_bool(ta[0]->elem))) {
        err(in, e, "E0408", xor ? "%s needs integer elements, got %s" : "%s needs numeric elements, got %s", name,
            ts(in, ta[0]));
        return NULL;
    }
    return reduced(in, e, ta[0]);
}

static const MtType *infer_scan(Inf *in, MtExpr *e, const MtType **ta)
{
    const char *name = mt_op_info[e->op].py;
    if (!axis_block(in, e, ta[0], name, false))
        return NULL;
    if (!numeric(ta[0]) || mt_ty_is_bool(ta[0]->elem)) {
        err(in, e, "E0408", "%s needs numeric elements, got %s", name, ts(in, ta[0]));
        return NULL;
    }
    return ta[0];
}

static const char *shape_str(Inf *in, int rank, const int32_t *shape)
{
    MtBuf b;
    mt_buf_init(&b, &in->c->arena);
    mt_shape_print(&b, rank, shape);
    return mt_buf_str(&b);
}

/* expand_dims, reshape, permute, broadcast_to (E0407 for expand_dims,
 * E0418 for the others). */
static const MtType *infer_shape(Inf *in, MtExpr *e, const MtType **ta)
{
    const MtType *t = ta[0];
    const char *name = mt_op_info[e->op].py;
    int rank = mt_ty_rank(t);
    if (!numeric(t) && !mt_ty_is_ptr(t)) {
        err(in, e, e->op == OP_EXPAND_DIMS ? "E0407" : "E0418", "%s needs a block, got %s", name, ts(in, t));
        return NULL;
    }
    const MtType *el = mt_ty_elem(t);
    int32_t shape[MT_MAX_RANK];
    switch (e->op) {
    case OP_EXPAND_DIMS: {
        if (rank >= MT_MAX_RANK) {
            err(in, e, "E0415", "tl.expand_dims of %s would have rank %d; blocks have at most %d dimensions",
                ts(in, t), rank + 1, MT_MAX_RANK);
            return NULL;
        }
        int axis = e->attr.axis;
        if (axis < -(rank + 1) || axis > rank) {
            err(in, e, "E0407", "tl.expand_dims axis %d is out of range for %s (axes -%d to %d)", axis, ts(in, t),
                rank + 1, rank);
            return NULL;
        }
        e->attr.axis = axis < 0 ? axis + rank + 1 : axis;
        for (int d = 0, k = 0; d <= rank; d++)
            shape[d] = d == e->attr.axis ? 1 : t->shape[k++];
        return mt_ty_block(in->c, el, rank + 1, shape);
    }
    case OP_RESHAPE: {
        int64_t n = 1;
        for (int d = 0; d < e->attr.rank; d++)
            n *= e->attr.shape[d];
        if (n != mt_ty_numel(t)) {
            err(in, e, "E0418", "cannot reshape %s (%lld elements) to %s (%lld elements)", ts(in, t),
                (long long)mt_ty_numel(t), shape_str(in, e->attr.rank, e->attr.shape), (long long)n);
            return NULL;
        }
        return mt_ty_block(in->c, el, e->attr.rank, e->attr.shape);
    }
    case OP_PERMUTE: {
        bool seen[MT_MAX_RANK] = {false};
        bool ok = rank > 0 && e->attr.rank == rank;
        for (int d = 0; ok && d < rank; d++) {
            int k = e->attr.shape[d] < 0 ? e->attr.shape[d] + rank : e->attr.shape[d];
            ok = k >= 0 && k < rank && !seen[k];
            if (ok) {
                seen[k] = true;
                e->attr.shape[d] = k;
                shape[d] = t->shape[k];
            }
        }
        if (!ok) {
            err(in, e, "E0418", "%s order %s is not a permutation of the %d dimensions of %s", name,
                shape_str(in, e->attr.rank, e->attr.shape), rank, ts(in, t));
            return NULL;
        }
        return mt_ty_block(in->c, el, rank, shape);
    }
    default: { /* OP_BROADCAST */
        bool ok = rank == 0 || rank == e->attr.rank;
        for (int d = 0; ok && rank && d < rank; d++)
            ok = t->shape[d] == e->attr.shape[d] || t->shape[d] == 1;
        if (!ok) {
            err(in, e, "E0418", "cannot broadcast %s to %s: the ranks must match and only dimensions of size 1 may "
                "grow", ts(in, t), shape_str(in, e->attr.rank, e->attr.shape));
            return NULL;
        }
        return mt_ty_block(in->c, el, e->attr.rank, e->attr.shape);
    }
    }
}

static const MtType *infer_factory(Inf *in, MtExpr *e, const MtType **ta)
{
    if (e->op == OP_ARANGE) {
        int32_t n = (int32_t)(e->attr.end - e->attr.start);
        return mt_ty_block(in->c, &mt_ty_i32, 1, &n);
    }
    if (e->op == OP_FULL && (mt_ty_is_block(ta[0]) || !numeric(ta[0]))) {
        err(in, e, "E0409", "tl.full fill value must be a scalar number, got %s", ts(in, ta[0]));
        return NULL;
    }
    return mt_ty_block(in->c, e->attr.dtype, e->attr.rank, e->attr.shape);
}

static const MtType *infer_dot(Inf *in, MtExpr *e, const MtType **ta)
{
    if (!mt_ty_is_block(ta[0]) || !mt_ty_is_block(ta[1]) || ta[0]->rank != 2 || ta[1]->rank != 2 ||
        ta[0]->elem != &mt_ty_f32 || ta[1]->elem != &mt_ty_f32) {
        err(in, e, "E0410", "tl.dot needs two rank-2 blocks of f32 (or both f16, or both bf16), got %s and %s", ts(in, ta[0]), ts(in, ta[1]));
        return NULL;
    }
    if (ta[0]->shape[1] != ta[1]->shape[0]) {
        err(in, e, "E0410", "tl.dot inner dimensions differ: %s x %s ([M, K] x [K, N] needs equal K)", ts(in, ta[0]),
            ts(in, ta[1]));
        return NULL;
    }
    int32_t shape[2] = {ta[0]->shape[0], ta[1]->shape[1]};
    return mt_ty_block(in->c, &mt_ty_f32, 2, shape);
}

/* EX_OP nodes, by the class of their operation (ops.def). */
static const MtType *infer_op(Inf *in, MtExpr *e, const MtType **ta)
{
    switch (mt_op_class(e->op)) {
    case OC_INDEX: return &mt_ty_i32;
    case OC_ARITH:
    case OC_BITWISE:
    case OC_COMPARE: return infer_binary(in, e);
    case OC_UNARY: return infer_unary(in, e, ta[0]);
    case OC_MATH: return infer_math(in, e);
    case OC_CAST: return infer_cast(in, e, ta[0]);
    case OC_SELECT: return infer_select(in, e);
    case OC_MEMORY: return e->op == OP_LOAD ? infer_load(in, e, ta) : infer_store(in, e, ta);
    case OC_REDUCE: return infer_reduce(in, e, ta);
    case OC_SCAN: return infer_scan(in, e, ta);
    case OC_SHAPE: return infer_shape(in, e, ta);
    case OC_COMBINE:
    case OC_FACTORY: return infer_factory(in, e, ta);
    case OC_DOT: return infer_dot(in, e, ta);
    case OC_HINT: return e->op == OP_ASSUME ? &mt_ty_void : ta[0];
    case OC_ATOMIC: return infer_atomic(in, e, ta);
    case OC_DEBUG: return infer_debug(in, e, ta);
    case OC_PTR:
    case OC_CONTROL: break;
    }
    mt_ice(in->c, e->span, "type inference met an operation the frontend does not build");
}

static bool infer_args(Inf *in, MtExpr *e, const MtType **tys)
{
    bool ok = true;
    for (uint32_t i = 0; i < e->nargs; i++) {
        tys[i] = e->args[i] ? infer_node(in, e->args[i]) : NULL;
        ok &= !e->args[i] || tys[i];
    }
    return ok;
}

/* A runtime loop's induction variable type: the promotion of its bounds
 * and runtime step (integer scalars; Python numbers adopt it), i32 when
 * they are all Python numbers. report: E0411 for bad bounds. */
static const MtType *loop_iv_type(Inf *in, MtExprLoop *l, bool report)
{
    MtExpr *e = l->node;
    uint32_t nb = l->dyn_step ? 3 : 2, at[3] = {0, 1, e->nargs - 1};
    static const char *const what[3] = {"start", "stop", "step"};
    const MtType *ivt = NULL;
    bool ok = true;
    for (uint32_t k = 0; k < nb; k++) {
        const MtType *t = infer_node(in, e->args[at[k]]);
        if (!t)
            return NULL;
        if (mt_ty_is_block(t) || !mt_ty_is_intlike(t)) {
            if (report)
                err(in, e, "E0411", "runtime range bounds must be integer scalars, got %s for the %s", ts(in, t),
                    what[k]);
            ok = false;
            continue;
        }
        if (mt_ty_is_bool(t) || (is_weak(e->args[at[k]]) && mt_ty_bits(t) <= 32))
            continue;
        const MtType *p = ivt ? mt_ty_computation(ivt, false, t, false, false) : t;
        if (!p) {
            if (report)
                err(in, e, "E0411", "runtime range bounds differ in signedness (%s and %s)", ts(in, ivt), ts(in, t));
            return NULL;
        }
        ivt = p;
    }
    return !ok ? NULL : ivt ? ivt : &mt_ty_i32;
}

static const MtType *infer_loop(Inf *in, MtExpr *e, const MtType **tys)
{
    MtExprLoop *l = e->u.loop;
    bool ok = true;
    uint32_t nb = l->dyn_step ? 3 : 2, at[3] = {0, 1, e->nargs - 1};
    const MtType *ivt = loop_iv_type(in, l, true);
    if (!ivt)
        return NULL;
    for (uint32_t k = 0; k < nb; k++)
        if (tys[at[k]] != ivt) {
            if (is_weak(e->args[at[k]])) {
                MtExpr *c = mt_expr_new(in->c, in->p, EX_CONST, e->args[at[k]]->span, e->args[at[k]]->inl, 0);
                c->u.cst = e->args[at[k]]->u.cst;
                c->ty = ivt;
                e->args[at[k]] = c;
            } else if (!convert_operand(in, e, at[k], ivt)) {
                return NULL;
            }
        }
    l->iv->ty = ivt;
    for (uint32_t i = 0; i < l->ncarried; i++) {
        l->arg[i]->ty = tys[2 + i];
        l->result[i]->ty = tys[2 + i];
    }
    for (uint32_t i = 0; i < l->body.n; i++)
        ok &= infer_node(in, l->body.v[i]) != NULL;
    for (uint32_t i = 0; i < l->ncarried; i++) {
        const MtType *yt = l->yield[i] ? infer_node(in, l->yield[i]) : NULL;
        if (!yt) {
            ok = false;
        } else if (yt != tys[2 + i]) {
            MtDiagRec *d = err(in, e, "E0412",
                               "loop-carried variable '%s' is %s before the loop but %s at the end of the body; "
                               "initialise it with the type it has in the loop%s",
                               l->names[i], ts(in, tys[2 + i]), ts(in, yt),
                               mt_ty_is_block(yt) && !mt_ty_is_block(tys[2 + i]) ? " (e.g. with tl.zeros)" : "");
            mt_note(in->c, d, l->yield[i]->span, "'%s' gets its %s value here", l->names[i], ts(in, yt));
            ok = false;
        }
    }
    return ok ? &mt_ty_void : NULL;
}

/* tl.reduce / tl.associative_scan: operands of one shape, the combine
 * region's arguments (typed by the frontend: the operands' element types,
 * twice) and its yields of those types; the results. */
/* A runtime if: a scalar bool condition, both regions' effects and
 * yields, of one type per result. */
static const MtType *infer_if(Inf *in, MtExpr *e, const MtType **ta)
{
    MtExprNest *x = e->u.nest;
    if (ta[0] != &mt_ty_bool) {
        err(in, e, "E0202", "the condition of a runtime `if` must be a scalar, got %s", ts(in, ta[0]));
        return NULL;
    }
    bool ok = true;
    for (uint32_t k = 0; k < 2; k++)
        for (uint32_t i = 0; i < x->body[k].roots.n; i++)
            ok &= infer_node(in, x->body[k].roots.v[i]) != NULL;
    for (uint32_t i = 0; i < x->nresults; i++) {
        const MtType *a = x->body[0].yield[i] ? infer_node(in, x->body[0].yield[i]) : NULL;
        const MtType *b = x->body[1].yield[i] ? infer_node(in, x->body[1].yield[i]) : NULL;
        if (!a || !b) {
            ok = false;
        } else if (a != b) {
            MtDiagRec *d = err(in, e, "E0419",
                               "'%s' is %s after the then branch but %s after the else branch; a name a runtime "
                               "`if` assigns must have one type on both paths",
                               x->names[i], ts(in, a), ts(in, b));
            mt_note(in->c, d, x->body[0].yield[i]->span, "the %s value", ts(in, a));
            mt_note(in->c, d, x->body[1].yield[i]->span, "the %s value", ts(in, b));
            ok = false;
        } else {
            x->result[i]->ty = a;
        }
    }
    return ok ? &mt_ty_void : NULL;
}

/* A while: the carried values' types (the placeholders', from their
 * inits), a scalar bool condition, and a body yielding the same types. */
static const MtType *infer_while(Inf *in, MtExpr *e, const MtType **ta)
{
    MtExprNest *x = e->u.nest;
    bool ok = true;
    for (uint32_t i = 0; i < e->nargs; i++) {
        x->body[0].arg[i]->ty = ta[i];
        x->body[1].arg[i]->ty = ta[i];
        x->result[i]->ty = ta[i];
    }
    for (uint32_t i = 0; i < x->body[0].roots.n; i++)
        ok &= infer_node(in, x->body[0].roots.v[i]) != NULL;
    const MtType *c = x->body[0].yield && x->body[0].yield[0] ? infer_node(in, x->body[0].yield[0]) : NULL;
    if (c && c != &mt_ty_bool) {
        err(in, e, "E0202", "the condition of a `while` must be a scalar, got %s", ts(in, c));
        ok = false;
    }
    ok &= c != NULL;
    for (uint32_t i = 0; i < x->body[1].roots.n; i++)
        ok &= infer_node(in, x->body[1].roots.v[i]) != NULL;
    for (uint32_t i = 0; i < e->nargs; i++) {
        const MtType *yt = x->body[1].yield && x->body[1].yield[i] ? infer_node(in, x->body[1].yield[i]) : NULL;
        if (!yt) {
            ok = false;
        } else if (yt != ta[i]) {
            MtDiagRec *d = err(in, e, "E0412",
                               "loop-carried variable '%s' is %s before the loop but %s at the end of the body; "
                               "initialise it with the type it has in the loop",
                               x->names[i], ts(in, ta[i]), ts(in, yt));
            mt_note(in->c, d, x->body[1].yield[i]->span, "'%s' gets its %s value here", x->names[i], ts(in, yt));
            ok = false;
        }
    }
    return ok ? &mt_ty_void : NULL;
}

static const MtType *infer_nest(Inf *in, MtExpr *e, const MtType **ta)
{
    MtExprNest *x = e->u.nest;
    if (e->op == OP_IF)
        return infer_if(in, e, ta);
    if (e->op == OP_WHILE)
        return infer_while(in, e, ta);
    const char *name = mt_op_info[e->op].py;
    uint32_t n = e->nargs;
    for (uint32_t i = 0; i < n; i++) {
        if (!mt_ty_is_block(ta[i]) || (!numeric(ta[i]) && !mt_ty_is_ptr(ta[i]))) {
            err(in, e, "E0408", "%s needs blocks, got %s", name, ts(in, ta[i]));
            return NULL;
        }
        if (i && !mt_ty_same_shape(ta[i], ta[0])) {
            err(in, e, "E0408", "%s operands must have one shape, got %s and %s", name, ts(in, ta[0]), ts(in, ta[i]));
            return NULL;
        }
    }
    if (!axis_block(in, e, ta[0], name, e->op == OP_REDUCE))
        return NULL;
    MtExprBody *b = &x->body[0];
    bool ok = true;
    for (uint32_t i = 0; i < b->roots.n; i++)
        ok &= infer_node(in, b->roots.v[i]) != NULL;
    for (uint32_t i = 0; i < b->nyield; i++) {
        const MtType *want = mt_ty_elem(ta[i]);
        const MtType *yt = b->yield[i] ? infer_node(in, b->yield[i]) : NULL;
        if (!yt) {
            ok = false;
        } else if (yt != want) {
            MtDiagRec *d = err(in, e, "E0408",
                               "the combine function of %s returns %s as its value %u, but the operand's elements "
                               "are %s; return values of the elements' types (convert with .to())",
                               name, ts(in, yt), i + 1, ts(in, want));
            mt_note(in->c, d, b->yield[i]->span, "returned here");
            ok = false;
        }
    }
    if (!ok)
        return NULL;
    for (uint32_t i = 0; i < x->nresults; i++)
        x->result[i]->ty = e->op == OP_REDUCE ? reduced(in, e, ta[i]) : ta[i];
    return &mt_ty_void;
}

static const MtType *infer_node_in(Inf *in, MtExpr *e);

static const MtType *infer_node(Inf *in, MtExpr *e)
{
    if (e->ty)
        return e->ty;
    if (e->failed)
        return NULL;
    if (in->depth >= MAX_EXPR_DEPTH) {
        err(in, e, "E0308", "this value is computed from a chain of more than %d nested operations (a "
            "compile-time loop unrolled into one expression); use tl.range(...) for a loop that should stay a loop",
            MAX_EXPR_DEPTH);
        e->failed = true;
        return NULL;
    }
    in->depth++;
    const MtType *t = infer_node_in(in, e);
    in->depth--;
    return t;
}

static const MtType *infer_node_in(Inf *in, MtExpr *e)
{
    const MtType *tys[8 + 2] = {0};
    const MtType **ta = e->nargs <= 8 ? tys : mt_arena_alloc(&in->c->arena, e->nargs * sizeof *ta);
    if (e->kind != EX_FOR && e->kind != EX_LOOP_RESULT && e->kind != EX_NEST_RESULT && !infer_args(in, e, ta)) {
        e->failed = true;
        return NULL;
    }
    const MtType *t = NULL;
    switch ((MtExprKind)e->kind) {
    case EX_PARAM:
        t = e->u.param.ty ? e->u.param.ty : &mt_ty_i32;
        e->u.param.ty = t;
        break;
    case EX_CONST:
        t = mt_const_natural_type(e->u.cst);
        break;
    case EX_LOOP_IV:
        t = loop_iv_type(in, e->u.loop, false);
        break;
    case EX_OP:
        t = infer_op(in, e, ta);
        break;
    case EX_FOR:
        if (infer_args(in, e, ta))
            t = infer_loop(in, e, ta);
        break;
    case EX_LOOP_ARG:
        /* asked while the body is built (x.dtype, a block pointer's access):
         * the type of its initial value, which the loop must keep (E0412) */
        t = infer_node(in, e->u.slot.loop->node->args[2 + e->u.slot.index]);
        break;
    case EX_LOOP_RESULT:
        if (infer_node(in, e->u.slot.loop->node))
            t = e->u.slot.loop->result[e->u.slot.index]->ty;
        break;
    case EX_NEST:
        t = infer_nest(in, e, ta);
        break;
    case EX_NEST_ARG:
        t = e->u.nslot.nest->body[e->u.nslot.body].arg[e->u.nslot.index]->ty;
        if (!t)
            mt_ice(in->c, e->span, "a region argument without a type");
        break;
    case EX_NEST_RESULT:
        if (infer_node(in, e->u.nslot.nest->node))
            t = e->u.nslot.nest->result[e->u.nslot.index]->ty;
        break;
    case EX_KIND_COUNT_:
        break;
    }
    e->ty = t;
    e->failed = !t;
    return t;
}

const MtType *mt_infer_expr(MtCtx *c, MtExprProgram *p, MtExpr *e)
{
    Inf in = {.c = c, .p = p};
    return infer_node(&in, e);
}

/* Nodes made from the same source by the same operation (instances of one
 * expression), in a sortable form. */
typedef struct Instance {
    uint32_t off, end, kind, op;
} Instance;

static Instance instance_of(const MtExpr *e) { return (Instance){e->span.off, e->span.end, e->kind, e->op}; }

static int by_instance(const void *a, const void *b)
{
    const Instance *x = a, *y = b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->op < y->op ? -1 : x->op > y->op;
}

static bool is_used_instance(const MtExpr *e, const Instance *used, size_t n)
{
    Instance key = instance_of(e);
    return bsearch(&key, used, n, sizeof *used, by_instance) != NULL;
}

/* Values computed but used by nothing: worth a warning, once per
 * outermost unused expression (its operands are not reported again). A
 * source expression that a static loop unrolled (or inlining repeated) is
 * used when any of its instances is: `p += n` in the last iteration of a
 * tl.static_range loop feeds nothing, but the same line fed the next
 * iteration every other time. */
static void warn_unused(Inf *in)
{
    MtExprProgram *p = in->p;
    uint8_t *used = mt_arena_alloc(&in->c->arena, p->nexprs + 1);
    for (uint32_t i = 0; i < p->all.n; i++) {
        MtExpr *e = p->all.v[i];
        for (uint32_t k = 0; k < e->nargs; k++)
            if (e->args[k])
                used[e->args[k]->id] = 1;
        if (e->kind == EX_FOR) {
            MtExprLoop *l = e->u.loop;
            for (uint32_t k = 0; k < l->ncarried; k++)
                if (l->yield[k])
                    used[l->yield[k]->id] = 1;
            for (uint32_t k = 0; k < l->body.n; k++)
                used[l->body.v[k]->id] = 1;
        }
        if (e->kind == EX_NEST)
            for (uint32_t r = 0; r < e->u.nest->nbodies; r++) {
                MtExprBody *b = &e->u.nest->body[r];
                for (uint32_t k = 0; k < b->nyield; k++)
                    if (b->yield[k])
                        used[b->yield[k]->id] = 1;
                for (uint32_t k = 0; k < b->roots.n; k++)
                    used[b->roots.v[k]->id] = 1;
            }
    }
    for (uint32_t i = 0; i < p->roots.n; i++)
        used[p->roots.v[i]->id] = 1;
    Instance *used_inst = mt_arena_alloc(&in->c->arena, (p->all.n + 1) * sizeof *used_inst);
    size_t nused = 0;
    for (uint32_t i = 0; i < p->all.n; i++)
        if (used[p->all.v[i]->id])
            used_inst[nused++] = instance_of(p->all.v[i]);
    qsort(used_inst, nused, sizeof *used_inst, by_instance);
    for (uint32_t i = 0; i < p->all.n; i++) {
        MtExpr *e = p->all.v[i];
        if (used[e->id] || !e->ty || e->kind == EX_PARAM || e->kind == EX_CONST || e->kind == EX_LOOP_IV ||
            e->kind == EX_LOOP_ARG || e->kind == EX_LOOP_RESULT || e->kind == EX_NEST ||
            e->kind == EX_NEST_ARG || e->hidden ||
            is_used_instance(e, used_inst, nused))
            continue;
        MtDiagRec *d = mt_diag(in->c, MT_SEV_WARNING, e->span, "W0803", "value computed but never used");
        mt_note_inline(in->c, d, e->inl);
    }
}

/* W0801: tl.empty has undefined contents, so every use reads garbage. */
static void warn_empty_reads(Inf *in)
{
    MtExprProgram *p = in->p;
    for (uint32_t i = 0; i < p->all.n; i++) {
        MtExpr *e = p->all.v[i];
        for (uint32_t k = 0; k < e->nargs; k++) {
            MtExpr *a = e->args[k];
            if (!a || a->kind != EX_OP || a->op != OP_EMPTY)
                continue;
            MtDiagRec *d = mt_diag(in->c, MT_SEV_WARNING, e->span, "W0801",
                                   "this reads a tl.empty block, whose contents are undefined; use tl.zeros or "
                                   "tl.full");
            mt_note(in->c, d, a->span, "the tl.empty block");
            mt_note_inline(in->c, d, e->inl);
        }
    }
}

/* I0902, for editors and CI: which parameter types came from their use. */
static void report_inferred(Inf *in, const bool *inferred)
{
    MtExprProgram *p = in->p;
    MtBuf b;
    mt_buf_init(&b, &in->c->arena);
    MtSpan first = {0};
    for (uint32_t i = 0; i < p->nparams; i++) {
        if (!inferred[i])
            continue;
        if (!first.line)
            first = p->params[i]->span;
        mt_buf_printf(&b, "%s%s: %s", b.n ? ", " : "", p->params[i]->u.param.name,
                      mt_ty_sig(p->params[i]->u.param.ty));
    }
    if (first.line)
        mt_diag(in->c, MT_SEV_INFO, first, "I0902",
                "parameter types inferred from their use: %s (a signature or a `# mytriton: signature=...` "
                "comment fixes them)",
                mt_buf_str(&b));
}

bool mt_infer(MtCtx *c, MtExprProgram *p)
{
    Inf in = {.c = c, .p = p};
    uint32_t errors = c->nerrors;
    for (uint32_t i = 0; i < p->nparams; i++)
        infer_node(&in, p->params[i]);
    for (uint32_t i = 0; i < p->roots.n; i++)
        infer_node(&in, p->roots.v[i]);
    /* Values nothing uses get no code, but their type errors are still
     * errors in the source (and an editor shows them). */
    for (uint32_t i = 0; i < p->all.n; i++)
        infer_node(&in, p->all.v[i]);
    bool ok = c->nerrors == errors;
    for (uint32_t i = 0; ok && i < p->all.n; i++)
        ok = !p->all.v[i]->failed;
    if (ok) {
        warn_unused(&in);
        warn_empty_reads(&in);
        if (p->report_inferred)
            report_inferred(&in, p->inferred);
    }
    for (uint32_t i = 0; i < p->nsig; i++)
        if (p->sig_param[i])
            p->sig[i].type = mt_ty_sig(p->sig_param[i]->u.param.ty);
    return ok;
}
