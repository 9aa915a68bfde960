/* verify.c: the SSA checker (QBE's ssacheck), run after lowering and after
 * every optimisation pass.
 *
 * It is deliberately independent of type inference: every rule below is
 * re-derived from the op table, the attributes and the operand types, so a
 * pass that rewrites the IR into something the inference would never have
 * produced is caught here, at the span of the instruction it broke. The
 * walk follows program order and keeps a scope of visible values: params
 * and constants are visible everywhere, an instruction result from its
 * definition to the end of its region (nested regions included), a loop's
 * induction variable and region arguments inside its body only, and its
 * results after the `for` in the enclosing region. A kept value
 * (MtFunc.keep) must be defined somewhere.
 *
 * Codes: E0501 definitions and scoping, E0502 result declarations, E0503
 * operand types, E0504 broadcasting, E0505 pointers/loads/stores, E0506
 * loop regions, E0507 factories, E0508 dot, E0509 reductions, E0510
 * attributes. One instruction reports its first type error only; its
 * result is still defined so that a single mistake does not cascade into
 * "used before definition" reports further down.
 *
 * Nothing is trusted before it is checked: handles are range-checked,
 * types may be NULL or malformed, regions may lack their yield or even
 * contain themselves (a `for` met twice is reported and not entered).
 */
#include "verify.h"

#include <inttypes.h>
#include <stdarg.h>

#include "base/strbuf.h"

enum { SCOPE_UNSEEN, SCOPE_OPEN, SCOPE_CLOSED };

typedef struct Verifier {
    MtCtx *c;
    const MtFunc *f;
    const char *stage;        /* message prefix "after <stage>: ", or NULL */
    uint32_t nerr;
    uint8_t *scope;           /* per value: SCOPE_* */
    uint8_t *defined;         /* per value: a definition has been met */
    uint8_t *has_def;         /* per value: defined somewhere in f (pre-pass) */
    MtVal *bynum;             /* open addressing: %num -> value defined with it */
    uint32_t bynum_mask;
    MT_VEC(MtVal) open;       /* values defined in the open regions, innermost last */
    MT_VEC(const MtInst *) loops; /* fors met so far: a second meeting is a cycle */
} Verifier;

static void verr(Verifier *v, MtSpan sp, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void verr(Verifier *v, MtSpan sp, const char *code, const char *fmt, ...)
{
    MtBuf b;
    mt_buf_init(&b, &v->c->arena);
    if (v->stage)
        mt_buf_printf(&b, "after %s: ", v->stage);
    va_list ap;
    va_start(ap, fmt);
    mt_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    mt_error(v->c, sp, code, "%s", mt_buf_str(&b));
    v->nerr++;
}

/* ---- types ------------------------------------------------------------------ */

/* The element types of dtypes.def. */
static bool is_scalar(const MtType *t) { return t && t->kind == TY_SCALAR && t->dtype < MT_DTYPE_COUNT; }

static bool is_ptr(const MtType *t) { return t && t->kind == TY_PTR && is_scalar(t->elem); }

static bool ty_valid(const MtType *t)
{
    if (!t)
        return false;
    switch ((MtTypeKind)t->kind) {
    case TY_SCALAR:
        return is_scalar(t);
    case TY_PTR:
        return is_scalar(t->elem);
    case TY_BLOCK:
        if (t->rank < 1 || t->rank > MT_MAX_RANK)
            return false;
        for (int i = 0; i < t->rank; i++)
            if (t->shape[i] <= 0)
                return false;
        return is_scalar(t->elem) || is_ptr(t->elem);
    default:
        return false;
    }
}

static const char *tystr(Verifier *v, const MtType *t)
{
    if (!t)
        return "<no type>";
    if (!ty_valid(t))
        return "<malformed type>";
    return mt_ty_str(v->c, t);
}

static bool is_num(const MtType *e) { return is_scalar(e); }
static bool is_int(const MtType *e) { return is_scalar(e) && mt_ty_is_intlike(e); }
static bool is_float(const MtType *e) { return is_scalar(e) && mt_ty_is_float(e); }

/* ---- values ----------------------------------------------------------------- */

/* "an induction variable": a value kind with its article. */
static const char *kind_name(int kind)
{
    switch (kind) {
    case VK_PARAM: return "a parameter";
    case VK_CONST: return "a constant";
    case VK_INST: return "an instruction result";
    case VK_IV: return "an induction variable";
    case VK_ARG: return "a region argument";
    case VK_RESULT: return "a loop result";
    default: return "an empty value slot";
    }
}

static const char *vname(Verifier *v, MtVal x)
{
    const MtValue *val = &v->f->vals[x];
    if (val->kind == VK_PARAM)
        return val->name ? val->name : "<unnamed parameter>";
    if (val->kind == VK_CONST) {
        MtBuf b;
        mt_buf_init(&b, &v->c->arena);
        mt_const_print(&b, val->cst);
        return mt_buf_str(&b);
    }
    return mt_sprintf(v->c, "%%%u", val->num);
}

static const char *opname(const MtInst *in) { return mt_op_info[in->op].text; }

/* Operand i of `in`: present (unless optional), in range, visible here and
 * of a well-formed type. */
static bool check_use(Verifier *v, const MtInst *in, uint32_t i, bool optional)
{
    MtVal x = in->args[i];
    const char *op = opname(in);
    if (!x) {
        if (!optional)
            verr(v, in->span, "E0501", "%s operand %u is none", op, i + 1);
        return optional;
    }
    if (x >= v->f->nvals) {
        verr(v, in->span, "E0501", "%s operand %u refers to value #%u, but the function has %u values", op,
             i + 1, x, v->f->nvals);
        return false;
    }
    const MtValue *val = &v->f->vals[x];
    switch (val->kind) {
    case VK_PARAM:
        if (!is_scalar(val->ty) && !is_ptr(val->ty)) {
            verr(v, in->span, "E0503", "%s operand %u: parameter %s has type %s; parameters are scalars or pointers",
                 op, i + 1, vname(v, x), tystr(v, val->ty));
            return false;
        }
        return true;
    case VK_CONST: {
        /* a Python scalar may take any numeric type, but a float never an integer one */
        bool ok = is_scalar(val->ty) && val->cst.kind <= CST_UINT &&
                  (val->cst.kind != CST_FLOAT || mt_ty_is_float(val->ty));
        if (!ok) {
            verr(v, in->span, "E0503", "%s operand %u: constant %s has type %s, which a %s constant cannot have", op,
                 i + 1, vname(v, x), tystr(v, val->ty),
                 val->cst.kind == CST_FLOAT ? "float" : val->cst.kind <= CST_UINT ? "Python" : "malformed");
            return false;
        }
        return true;
    }
    case VK_INST:
    case VK_IV:
    case VK_ARG:
    case VK_RESULT:
        break;
    default:
        verr(v, in->span, "E0501", "%s operand %u refers to value #%u, %s", op, i + 1, x, kind_name(val->kind));
        return false;
    }
    switch (v->scope[x]) {
    case SCOPE_OPEN:
        /* an ill-typed definition was reported where it was defined */
        return ty_valid(val->ty);
    case SCOPE_CLOSED:
        verr(v, in->span, "E0501", "%s operand %u (%s) is used outside the loop body that defines it", op, i + 1,
             vname(v, x));
        return false;
    default:
        verr(v, in->span, "E0501", v->has_def[x] ? "%s operand %u (%s) is used before its definition"
                                                  : "%s operand %u (%s) is never defined",
             op, i + 1, vname(v, x));
        return false;
    }
}

/* `in` defines x (its `what`: "result", "iter_arg", ...) as a value of
 * kind `kind`; `code` is reported for a wrong handle or kind. */
static bool define(Verifier *v, const MtInst *in, MtVal x, int kind, const char *what, const char *code)
{
    const char *op = opname(in);
    if (!x) {
        verr(v, in->span, code, "%s has no %s value", op, what);
        return false;
    }
    if (x >= v->f->nvals) {
        verr(v, in->span, code, "%s %s refers to value #%u, but the function has %u values", op, what, x,
             v->f->nvals);
        return false;
    }
    const MtValue *val = &v->f->vals[x];
    if (val->kind != kind) {
        verr(v, in->span, code, "%s %s %s is %s, not %s", op, what, vname(v, x), kind_name(val->kind),
             kind_name(kind));
        return false;
    }
    if (v->defined[x]) {
        verr(v, in->span, "E0501", "%s defines %s a second time", op, vname(v, x));
        return false;
    }
    v->defined[x] = 1;
    v->scope[x] = SCOPE_OPEN;
    mt_vec_push(&v->c->arena, &v->open, x);
    bool ok = true;
    if (val->def != in) {
        verr(v, in->span, "E0501", "%s %s %s does not link back to its defining %s", op, what, vname(v, x), op);
        ok = false;
    }
    if (val->num >= v->f->next_num) {
        verr(v, in->span, "E0501", "%s %s %s is numbered at or past the function's next number %%%u", op, what,
             vname(v, x), v->f->next_num);
        ok = false;
    }
    uint32_t h = (val->num * 2654435761u) & v->bynum_mask;
    while (v->bynum[h] && v->f->vals[v->bynum[h]].num != val->num)
        h = (h + 1) & v->bynum_mask;
    if (v->bynum[h]) {
        verr(v, in->span, "E0501", "%s %s %s reuses the number of another value", op, what, vname(v, x));
        ok = false;
    } else {
        v->bynum[h] = x;
    }
    if (!ty_valid(val->ty)) {
        verr(v, in->span, "E0502", "%s %s %s has %s", op, what, vname(v, x),
             val->ty ? "a malformed type" : "no type");
        ok = false;
    }
    return ok;
}

static void close_scope(Verifier *v, uint32_t mark)
{
    while (v->open.n > mark)
        v->scope[v->open.v[--v->open.n]] = SCOPE_CLOSED;
}

/* ---- result and operand rules -------------------------------------------------- */

/* Reports "<op> requires <what>, got <type> [as operand i]" unless ok. */
static bool require(Verifier *v, const MtInst *in, const char *code, bool ok, const char *what, uint32_t i)
{
    if (ok)
        return true;
    const char *t = tystr(v, mt_val_ty(v->f, in->args[i]));
    if (in->nargs == 1)
        verr(v, in->span, code, "%s requires %s, got %s", opname(in), what, t);
    else
        verr(v, in->span, code, "%s requires %s, got %s as operand %u", opname(in), what, t, i + 1);
    return false;
}

static const MtType *arg_ty(Verifier *v, const MtInst *in, uint32_t i) { return mt_val_ty(v->f, in->args[i]); }

static const MtType *arg_elem(Verifier *v, const MtInst *in, uint32_t i) { return mt_ty_elem(arg_ty(v, in, i)); }

/* Broadcast shape of the present operands into rank/shape. */
static bool broadcast(Verifier *v, const MtInst *in, const char *code, int *rank, int32_t shape[MT_MAX_RANK])
{
    MtType acc = mt_ty_i32;
    for (uint32_t i = 0; i < in->nargs; i++) {
        if (!in->args[i])
            continue;
        int r;
        int32_t s[MT_MAX_RANK];
        if (!mt_broadcast(&acc, arg_ty(v, in, i), &r, s)) {
            MtBuf b;
            mt_buf_init(&b, &v->c->arena);
            for (uint32_t k = 0, n = 0; k < in->nargs; k++)
                if (in->args[k])
                    mt_buf_printf(&b, "%s%s (operand %u)", n++ ? ", " : "", tystr(v, arg_ty(v, in, k)), k + 1);
            verr(v, in->span, code, "%s operands do not broadcast: %s", opname(in), mt_buf_str(&b));
            return false;
        }
        acc.kind = r ? TY_BLOCK : TY_SCALAR;
        acc.rank = (uint8_t)r;
        for (int d = 0; d < r; d++)
            acc.shape[d] = s[d];
    }
    *rank = acc.rank;
    for (int d = 0; d < acc.rank; d++)
        shape[d] = acc.shape[d];
    return true;
}

/* The declared result type must be `elem` with the broadcast shape: a shape
 * difference is reported as shape_code, an element one as elem_code. */
static void check_result(Verifier *v, const MtInst *in, const char *elem_code, const char *shape_code,
                         const MtType *elem, int rank, const int32_t *shape)
{
    const MtType *want = mt_ty_block(v->c, elem, rank, shape);
    if (in->ty == want)
        return;
    bool same_shape = mt_ty_rank(in->ty) == rank;
    for (int d = 0; same_shape && d < rank; d++)
        same_shape = in->ty->shape[d] == shape[d];
    if (!same_shape)
        verr(v, in->span, shape_code, "%s result type is %s, but its operands broadcast to %s", opname(in),
             tystr(v, in->ty), mt_ty_str(v->c, want));
    else
        verr(v, in->span, elem_code, "%s result type is %s, expected %s", opname(in), tystr(v, in->ty),
             mt_ty_str(v->c, want));
}

static void check_exact(Verifier *v, const MtInst *in, const char *code, const MtType *want)
{
    if (in->ty != want)
        verr(v, in->span, code, "%s result type is %s, expected %s", opname(in), tystr(v, in->ty),
             mt_ty_str(v->c, want));
}

static const char *const numeric_operands = "numeric operands";

/* Both operands of a binary op pass `ok` (E0503). */
static bool operands(Verifier *v, const MtInst *in, bool (*ok)(const MtType *), const char *what)
{
    return require(v, in, "E0503", ok(arg_elem(v, in, 0)), what, 0) &&
           require(v, in, "E0503", ok(arg_elem(v, in, 1)), what, 1);
}

static bool is_divmod(int op) { return op == OP_DIV || op == OP_FLOORDIV || op == OP_MOD; }

/* The type a binary operation of class ARITH, BITWISE or COMPARE computes
 * in (Triton's computation type of its operands' types), or NULL after a
 * report. */
static const MtType *binary_type(Verifier *v, const MtInst *in)
{
    const MtType *a = arg_elem(v, in, 0), *b = arg_elem(v, in, 1);
    bool bitwise = mt_op_class(in->op) == OC_BITWISE || in->op == OP_FLOORDIV || in->op == OP_UMULHI;
    if (!operands(v, in, bitwise ? is_int : is_num, bitwise ? "integer or bool operands" : numeric_operands))
        return NULL;
    const MtType *ct = mt_ty_computation(a, false, b, false, is_divmod(in->op));
    if (!ct)
        verr(v, in->span, "E0503", "%s requires operands of the same signedness, got %s and %s", opname(in),
             tystr(v, a), tystr(v, b));
    return ct;
}

/* The element type of an F_ELEM op's result, or NULL after a report. */
static const MtType *elementwise_result(Verifier *v, const MtInst *in, const char **code)
{
    const char *c = "E0503";
    const MtType *a = arg_elem(v, in, 0);
    const MtType *b = in->nargs > 1 ? arg_elem(v, in, 1) : NULL;
    const MtType *res;
    switch (mt_op_class(in->op)) {
    case OC_MATH:
        for (uint32_t i = 0; i < in->nargs; i++)
            if (!require(v, in, c, is_float(arg_elem(v, in, i)), "float operands", i))
                return NULL;
        res = a;
        for (uint32_t i = 1; i < in->nargs; i++)
            res = mt_ty_promote(res, arg_elem(v, in, i));
        return res;
    case OC_CAST:
        if (!require(v, in, c, is_num(a), "a numeric operand", 0))
            return NULL;
        if (!is_scalar(in->attr.dtype)) {
            verr(v, in->span, "E0510", "%s has no target type", opname(in));
            return NULL;
        }
        if (in->op == OP_BITCAST && mt_ty_bits(a) != mt_ty_bits(in->attr.dtype)) {
            verr(v, in->span, "E0503", "bitcast requires types of the same width, got %s to %s", tystr(v, a),
                 tystr(v, in->attr.dtype));
            return NULL;
        }
        return in->attr.dtype;
    case OC_UNARY:
        if (!require(v, in, c, is_num(a), "a numeric operand", 0))
            return NULL;
        if (in->op == OP_NOT && !require(v, in, c, is_int(a), "a bool or integer operand", 0))
            return NULL;
        return a;
    case OC_COMPARE:
        return binary_type(v, in) ? &mt_ty_bool : NULL;
    case OC_BITWISE:
        return binary_type(v, in);
    case OC_ARITH:
        if (!(res = binary_type(v, in)))
            return NULL;
        if (in->op == OP_DIV && !mt_ty_is_float(res))
            return &mt_ty_f32;
        if (in->op == OP_FLOORDIV && !require(v, in, c, !mt_ty_is_float(res), "integer operands", 0))
            return NULL;
        if (in->op == OP_UMULHI && !(res->dtype == MT_DT_I32 || res->dtype == MT_DT_I64 ||
                                     res->dtype == MT_DT_U32 || res->dtype == MT_DT_U64)) {
            verr(v, in->span, c, "umulhi requires 32- or 64-bit integers, got %s and %s", tystr(v, a), tystr(v, b));
            return NULL;
        }
        return res;
    case OC_SELECT: {
        const MtType *e = arg_elem(v, in, 2);
        if (!require(v, in, c, a == &mt_ty_bool, "a bool condition", 0))
            return NULL;
        if (b->kind == TY_PTR || e->kind == TY_PTR) {
            if (b != e || !is_ptr(b)) {
                verr(v, in->span, c, "select requires two values of one pointer type, got %s and %s", tystr(v, b),
                     tystr(v, e));
                return NULL;
            }
            return b;
        }
        if (!require(v, in, c, is_num(b), "numeric values", 1) || !require(v, in, c, is_num(e), "numeric values", 2))
            return NULL;
        return mt_ty_promote(b, e);
    }
    case OC_PTR:
        *code = "E0505";
        if (!require(v, in, "E0505", is_ptr(a), "a pointer", 0) ||
            !require(v, in, "E0505", is_int(b), "an integer offset", 1))
            return NULL;
        return a;
    default:
        return NULL;
    }
}

/* F_ELEM ops: operand element rules (E0503, addptr E0505), broadcasting
 * (E0504), then the result element (E0502, addptr E0505). */
static void check_elementwise(Verifier *v, const MtInst *in)
{
    const char *code = "E0502";
    const MtType *res = elementwise_result(v, in, &code);
    if (!res)
        return;
    int rank;
    int32_t shape[MT_MAX_RANK];
    if (!broadcast(v, in, "E0504", &rank, shape))
        return;
    check_result(v, in, code, "E0504", res, rank, shape);
}

static void check_load(Verifier *v, const MtInst *in)
{
    if (!require(v, in, "E0505", is_ptr(arg_elem(v, in, 0)), "a pointer", 0))
        return;
    if (in->args[1] && !require(v, in, "E0505", arg_elem(v, in, 1) == &mt_ty_bool, "a bool mask", 1))
        return;
    if (in->args[2] && !require(v, in, "E0505", is_num(arg_elem(v, in, 2)), "a numeric other value", 2))
        return;
    int rank;
    int32_t shape[MT_MAX_RANK];
    if (broadcast(v, in, "E0505", &rank, shape))
        check_result(v, in, "E0505", "E0505", arg_elem(v, in, 0)->elem, rank, shape);
}

static void check_store(Verifier *v, const MtInst *in)
{
    int rank;
    int32_t shape[MT_MAX_RANK];
    if (require(v, in, "E0505", is_ptr(arg_elem(v, in, 0)), "a pointer", 0) &&
        require(v, in, "E0505", is_num(arg_elem(v, in, 1)), "a numeric value", 1) &&
        (!in->args[2] || require(v, in, "E0505", arg_elem(v, in, 2) == &mt_ty_bool, "a bool mask", 2)))
        broadcast(v, in, "E0505", &rank, shape);
}

/* atomic_*: pointer, value (cas: cmp, value), mask; the old values as the result. */
static void check_atomic(Verifier *v, const MtInst *in)
{
    bool cas = in->op == OP_ATOMIC_CAS;
    int rank;
    int32_t shape[MT_MAX_RANK];
    if (!require(v, in, "E0505", is_ptr(arg_elem(v, in, 0)), "a pointer", 0) ||
        !require(v, in, "E0505", is_num(arg_elem(v, in, 1)), "a numeric value", 1) ||
        (in->args[2] && !require(v, in, "E0505", cas ? is_num(arg_elem(v, in, 2)) : arg_elem(v, in, 2) == &mt_ty_bool,
                                 cas ? "a numeric value" : "a bool mask", 2)) ||
        !broadcast(v, in, "E0505", &rank, shape))
        return;
    const MtType *pt = arg_elem(v, in, 0)->elem;
    const char *why = mt_atomic_refusal(in->op, pt);
    if (why) {
        verr(v, in->span, "E0505", "%s on %s memory: it takes %s", opname(in), mt_ty_str(v->c, pt), why);
        return;
    }
    if (in->attr.sem >= MT_SEM_COUNT_ || in->attr.scope >= MT_SCOPE_COUNT_) {
        verr(v, in->span, "E0510", "%s has an invalid memory semantics or scope", opname(in));
        return;
    }
    check_result(v, in, "E0502", "E0504", pt, rank, shape);
}

/* device_print: numbers; device_assert: a bool or integer condition and a
 * bool mask that broadcast together. */
static void check_debug(Verifier *v, const MtInst *in)
{
    int rank;
    int32_t shape[MT_MAX_RANK];
    for (uint32_t i = 0; i < in->nargs; i++) {
        if (!in->args[i])
            continue;
        const MtType *t = arg_elem(v, in, i);
        bool mask = in->op == OP_DEVICE_ASSERT && i == 1;
        if (!require(v, in, "E0503", mask ? t == &mt_ty_bool : is_num(t) && !(in->op == OP_DEVICE_ASSERT && is_float(t)),
                     mask ? "a bool mask" : in->op == OP_DEVICE_ASSERT ? "a bool or integer condition" : "numbers", i))
            return;
    }
    if (in->op == OP_DEVICE_ASSERT)
        broadcast(v, in, "E0504", &rank, shape);
}

/* The operand of a reduction or scan along attr.axis: a block whose axis
 * exists (and, for reductions, has a power-of-two length). */
static bool axis_operand(Verifier *v, const MtInst *in, const MtType *t, bool pow2)
{
    if (!require(v, in, "E0509", t->kind == TY_BLOCK, "a block", 0))
        return false;
    int axis = in->attr.axis;
    if (axis < 0 || axis >= t->rank) {
        verr(v, in->span, "E0510", "%s axis %d is out of range for %s", opname(in), axis, tystr(v, t));
        return false;
    }
    if (pow2 && (t->shape[axis] & (t->shape[axis] - 1))) {
        if (t->rank == 1)
            verr(v, in->span, "E0509", "%s requires a power-of-two width, got %s", opname(in), tystr(v, t));
        else
            verr(v, in->span, "E0509", "%s requires a power-of-two length along axis %d, got %s", opname(in), axis,
                 tystr(v, t));
        return false;
    }
    return true;
}

/* The type of reducing t along in's axis: the axis removed (kept as 1
 * with keep_dims); a rank-1 block reduces to a scalar. */
static const MtType *reduced_type(Verifier *v, const MtInst *in, const MtType *t)
{
    int32_t shape[MT_MAX_RANK];
    int rank = 0;
    for (int d = 0; d < t->rank; d++)
        if (d != in->attr.axis)
            shape[rank++] = t->shape[d];
        else if (in->attr.flags & MT_KEEP_DIMS)
            shape[rank++] = 1;
    return rank ? mt_ty_block(v->c, t->elem, rank, shape) : t->elem;
}

static void check_reduce(Verifier *v, const MtInst *in)
{
    const MtType *t = arg_ty(v, in, 0);
    if (!axis_operand(v, in, t, true))
        return;
    bool xor = in->op == OP_XOR_SUM;
    if (!require(v, in, "E0509", xor ? is_int(t->elem) : is_num(t->elem) && !mt_ty_is_bool(t->elem),
                 xor ? "integer elements" : "numeric elements", 0))
        return;
    check_exact(v, in, "E0509", reduced_type(v, in, t));
}

static void check_scan(Verifier *v, const MtInst *in)
{
    const MtType *t = arg_ty(v, in, 0);
    if (!axis_operand(v, in, t, false) ||
        !require(v, in, "E0509", is_num(t->elem) && !mt_ty_is_bool(t->elem), "numeric elements", 0))
        return;
    check_exact(v, in, "E0509", t);
}

static void check_factory(Verifier *v, const MtInst *in)
{
    const char *op = opname(in);
    const MtAttrs *a = &in->attr;
    if (a->rank < 1 || a->rank > MT_MAX_RANK) {
        verr(v, in->span, "E0507", "%s rank must be 1 to %d, got %d", op, MT_MAX_RANK, a->rank);
        return;
    }
    for (int d = 0; d < a->rank; d++) {
        if (a->shape[d] <= 0) {
            MtBuf b;
            mt_buf_init(&b, &v->c->arena);
            mt_shape_print(&b, a->rank, a->shape);
            verr(v, in->span, "E0507", "%s shape %s has a non-positive dimension", op, mt_buf_str(&b));
            return;
        }
    }
    if (!is_scalar(a->dtype)) {
        verr(v, in->span, "E0507", "%s dtype must be a scalar type, got %s", op, tystr(v, a->dtype));
        return;
    }
    if (in->op == OP_FULL && !require(v, in, "E0507", is_scalar(arg_ty(v, in, 0)), "a scalar fill value", 0))
        return;
    check_exact(v, in, "E0507", mt_ty_block(v->c, a->dtype, a->rank, a->shape));
}

static void check_dot(Verifier *v, const MtInst *in)
{
    const MtType *a = arg_ty(v, in, 0), *b = arg_ty(v, in, 1);
    for (uint32_t i = 0; i < 2; i++) {
        const MtType *t = i ? b : a;
        if (!require(v, in, "E0508", t->kind == TY_BLOCK && t->rank == 2 && t->elem == &mt_ty_f32,
                     "a rank-2 f32 block", i))
            return;
    }
    if (a->shape[1] != b->shape[0]) {
        verr(v, in->span, "E0508", "dot inner dimensions differ: %s and %s", tystr(v, a), tystr(v, b));
        return;
    }
    int32_t mn[2] = {a->shape[0], b->shape[1]};
    check_exact(v, in, "E0508", mt_ty_block(v->c, &mt_ty_f32, 2, mn));
}

static void check_expand_dims(Verifier *v, const MtInst *in)
{
    const MtType *t = arg_ty(v, in, 0);
    int rank = mt_ty_rank(t);
    if (!require(v, in, "E0503", rank < MT_MAX_RANK, "a block of rank below the maximum", 0))
        return;
    if (in->attr.axis < 0 || in->attr.axis > rank) {
        verr(v, in->span, "E0510", "expand_dims axis must be 0 to %d, got %d", rank, in->attr.axis);
        return;
    }
    int32_t shape[MT_MAX_RANK];
    for (int d = 0, k = 0; d <= rank; d++)
        shape[d] = d == in->attr.axis ? 1 : t->shape[k++];
    check_exact(v, in, "E0502", mt_ty_block(v->c, mt_ty_elem(t), rank + 1, shape));
}

/* reshape, permute, broadcast: the result is a block of the operand's
 * element type, whose shape the operation determines. */
static void check_shape_op(Verifier *v, const MtInst *in)
{
    const MtType *t = arg_ty(v, in, 0), *r = in->ty;
    if (!require(v, in, "E0503", is_num(mt_ty_elem(t)) || is_ptr(mt_ty_elem(t)), "a numeric or pointer operand", 0))
        return;
    if (r->kind != TY_BLOCK || r->elem != mt_ty_elem(t)) {
        verr(v, in->span, "E0502", "%s result type is %s; expected a block of %s", opname(in), tystr(v, r),
             tystr(v, mt_ty_elem(t)));
        return;
    }
    switch (in->op) {
    case OP_RESHAPE:
        if (mt_ty_numel(t) != mt_ty_numel(r))
            verr(v, in->span, "E0502", "reshape of %s to %s changes the number of elements", tystr(v, t), tystr(v, r));
        return;
    case OP_PERMUTE: {
        int n = in->attr.rank;
        bool seen[MT_MAX_RANK] = {false};
        bool ok = t->kind == TY_BLOCK && n == t->rank;
        for (int d = 0; ok && d < n; d++) {
            int k = in->attr.shape[d];
            ok = k >= 0 && k < n && !seen[k];
            if (ok)
                seen[k] = true;
        }
        if (!ok) {
            MtBuf b;
            mt_buf_init(&b, &v->c->arena);
            mt_shape_print(&b, n, in->attr.shape);
            verr(v, in->span, "E0510", "permute order %s is not a permutation of the dimensions of %s",
                 mt_buf_str(&b), tystr(v, t));
            return;
        }
        int32_t shape[MT_MAX_RANK];
        for (int d = 0; d < n; d++)
            shape[d] = t->shape[in->attr.shape[d]];
        check_exact(v, in, "E0502", mt_ty_block(v->c, t->elem, n, shape));
        return;
    }
    default: { /* OP_BROADCAST: a scalar to any shape, a block to one of its rank */
        bool ok = t->kind != TY_BLOCK || t->rank == r->rank;
        for (int d = 0; ok && t->kind == TY_BLOCK && d < t->rank; d++)
            ok = t->shape[d] == r->shape[d] || t->shape[d] == 1;
        if (!ok)
            verr(v, in->span, "E0504", "broadcast of %s to %s: dimensions of size 1 may grow, others must match",
                 tystr(v, t), tystr(v, r));
        return;
    }
    }
}

static void check_arange(Verifier *v, const MtInst *in)
{
    int64_t s = in->attr.start, e = in->attr.end;
    if (s < 0 || s >= e) {
        verr(v, in->span, "E0510", "arange requires 0 <= start < end, got start=%" PRId64 ", end=%" PRId64, s, e);
        return;
    }
    if (e - s > INT32_MAX || ((e - s) & (e - s - 1))) {
        verr(v, in->span, "E0510", "arange length %" PRId64 " is not a power of two", e - s);
        return;
    }
    int32_t n = (int32_t)(e - s);
    check_exact(v, in, "E0510", mt_ty_block(v->c, &mt_ty_i32, 1, &n));
}

static void check_types(Verifier *v, const MtInst *in)
{
    unsigned flags = mt_op_info[in->op].flags;
    if (flags & F_ELEM) {
        check_elementwise(v, in);
        return;
    }
    switch (in->op) {
    case OP_PROGRAM_ID:
    case OP_NUM_PROGRAMS:
        if (in->attr.axis < 0 || in->attr.axis > 2)
            verr(v, in->span, "E0510", "%s axis must be 0, 1 or 2, got %d", opname(in), in->attr.axis);
        else
            check_exact(v, in, "E0510", &mt_ty_i32);
        return;
    case OP_ARANGE: check_arange(v, in); return;
    case OP_LOAD: check_load(v, in); return;
    case OP_STORE: check_store(v, in); return;
    case OP_ATOMIC_ADD:
    case OP_ATOMIC_MAX:
    case OP_ATOMIC_MIN:
    case OP_ATOMIC_AND:
    case OP_ATOMIC_OR:
    case OP_ATOMIC_XOR:
    case OP_ATOMIC_XCHG:
    case OP_ATOMIC_CAS: check_atomic(v, in); return;
    case OP_DEVICE_PRINT:
    case OP_DEVICE_ASSERT: check_debug(v, in); return;
    case OP_SUM:
    case OP_MAX:
    case OP_MIN:
    case OP_XOR_SUM: check_reduce(v, in); return;
    case OP_CUMSUM:
    case OP_CUMPROD: check_scan(v, in); return;
    case OP_EXPAND_DIMS: check_expand_dims(v, in); return;
    case OP_RESHAPE:
    case OP_PERMUTE:
    case OP_BROADCAST: check_shape_op(v, in); return;
    case OP_ZEROS:
    case OP_FULL:
    case OP_EMPTY: check_factory(v, in); return;
    case OP_DOT: check_dot(v, in); return;
    case OP_MULTIPLE_OF:
    case OP_MAX_CONTIGUOUS:
    case OP_MAX_CONSTANCY: {
        const MtType *t = arg_ty(v, in, 0);
        int rank = mt_ty_rank(t);
        if (!require(v, in, "E0503", is_int(mt_ty_elem(t)), "integer operands", 0))
            return;
        if (in->attr.rank != (rank ? rank : 1)) {
            verr(v, in->span, "E0510", "%s takes one value per dimension of %s, got %d", opname(in), tystr(v, t),
                 in->attr.rank);
            return;
        }
        for (int d = 0; d < in->attr.rank; d++)
            if (in->attr.shape[d] < 1) {
                verr(v, in->span, "E0510", "%s values must be positive, got %d", opname(in), in->attr.shape[d]);
                return;
            }
        check_exact(v, in, "E0502", t);
        return;
    }
    case OP_ASSUME:
        require(v, in, "E0503", arg_ty(v, in, 0) == &mt_ty_bool, "a scalar bool", 0);
        return;
    default: return;
    }
}

/* ---- regions ------------------------------------------------------------------ */

static bool has_result(int op)
{
    return op != OP_STORE && op != OP_YIELD && op != OP_FOR && op != OP_CONDITION && op != OP_ASSUME &&
           mt_op_class(op) != OC_DEBUG && !mt_op_is_nest(op);
}

static void check_region(Verifier *v, const MtRegion *r, const MtInst *loop, MtSpan where);

/* The carried-value bookkeeping of a `for`; its operands were checked. */
static void check_for(Verifier *v, const MtInst *in, bool args_ok)
{
    const MtForData *l = in->loop;
    for (uint32_t i = 0; i < v->loops.n; i++) {
        if (v->loops.v[i] == in) {
            verr(v, in->span, "E0506", "for appears twice in the function");
            return;
        }
    }
    mt_vec_push(&v->c->arena, &v->loops, in);
    uint32_t n = l->ncarried;
    uint32_t want = 2 + n + (l->dyn_step ? 1 : 0);
    if (in->nargs != want) {
        verr(v, in->span, "E0506", "for has %u operands, expected %u (start, stop%s and one init per carried value)",
             in->nargs, want, l->dyn_step ? ", the step" : "");
        args_ok = false;
    }
    if (n && (!l->iter_args || !l->results)) {
        verr(v, in->span, "E0506", "for carries %u value%s but has no iter_args or results", n, n == 1 ? "" : "s");
        return;
    }
    if (!l->dyn_step && l->step <= 0)
        verr(v, in->span, "E0506", "for step must be positive, got %" PRId64, l->step);
    /* the bounds (and a runtime step) are integer scalars of the induction variable's type */
    const MtType *ivt = args_ok ? arg_ty(v, in, 0) : NULL;
    if (!ivt || !is_int(ivt) || mt_ty_is_bool(ivt))
        ivt = &mt_ty_i32;
    for (uint32_t i = 0; args_ok && i < 2u + (l->dyn_step ? 1u : 0u); i++) {
        const MtType *t = arg_ty(v, in, i < 2 ? i : 2 + n);
        if (t != ivt)
            verr(v, in->span, "E0506", "for %s must be a scalar %s, got %s", i == 0 ? "start" : i == 1 ? "stop" : "step",
                 tystr(v, ivt), tystr(v, t));
    }

    uint32_t mark = v->open.n;
    if (define(v, in, l->iv, VK_IV, "induction variable", "E0506") && mt_val_ty(v->f, l->iv) != ivt)
        verr(v, in->span, "E0506", "for induction variable %s has type %s, expected %s", vname(v, l->iv),
             tystr(v, mt_val_ty(v->f, l->iv)), tystr(v, ivt));
    bool *arg_ok = mt_arena_alloc(&v->c->arena, (n + 1) * sizeof *arg_ok);
    for (uint32_t i = 0; i < n; i++) {
        MtVal a = l->iter_args[i];
        if (!define(v, in, a, VK_ARG, "iter_arg", "E0506"))
            continue;
        arg_ok[i] = true;
        const char *an = vname(v, a);
        const MtType *at = mt_val_ty(v->f, a);
        if (v->f->vals[a].index != i)
            verr(v, in->span, "E0506", "for iter_arg %s is bound to slot %u, but is iter_arg %u", an,
                 v->f->vals[a].index, i);
        if (args_ok && at != arg_ty(v, in, 2 + i))
            verr(v, in->span, "E0506", "for iter_arg %s has type %s, but its init value %s has type %s", an,
                 tystr(v, at), vname(v, in->args[2 + i]), tystr(v, arg_ty(v, in, 2 + i)));
    }

    check_region(v, &l->body, in, in->span);
    const MtRegion *body = &l->body;
    const MtInst *y = body->n && body->v ? body->v[body->n - 1] : NULL;
    if (!body->n) {
        verr(v, in->span, "E0506", "for body is empty; it must end with yield");
    } else if (!y || y->op != OP_YIELD) {
        verr(v, in->span, "E0506", "for body must end with yield");
    } else if (y->nargs != n) {
        verr(v, y->span, "E0506", "yield has %u operand%s, but its for carries %u value%s", y->nargs,
             y->nargs == 1 ? "" : "s", n, n == 1 ? "" : "s");
    } else {
        for (uint32_t i = 0; i < n; i++) {
            MtVal x = y->args ? y->args[i] : 0;
            if (!arg_ok[i] || !x || x >= v->f->nvals || !ty_valid(v->f->vals[x].ty))
                continue;
            if (v->f->vals[x].ty != mt_val_ty(v->f, l->iter_args[i]))
                verr(v, y->span, "E0506", "yield operand %u (%s) has type %s, but iter_arg %s has type %s", i + 1,
                     vname(v, x), tystr(v, v->f->vals[x].ty), vname(v, l->iter_args[i]),
                     tystr(v, mt_val_ty(v->f, l->iter_args[i])));
        }
    }
    close_scope(v, mark);

    for (uint32_t i = 0; i < n; i++) {
        MtVal res = l->results[i];
        if (!define(v, in, res, VK_RESULT, "result", "E0506"))
            continue;
        if (v->f->vals[res].index != i)
            verr(v, in->span, "E0506", "for result %s is bound to slot %u, but is result %u", vname(v, res),
                 v->f->vals[res].index, i);
        if (arg_ok[i] && mt_val_ty(v->f, res) != mt_val_ty(v->f, l->iter_args[i]))
            verr(v, in->span, "E0506", "for result %s has type %s, but iter_arg %s has type %s", vname(v, res),
                 tystr(v, mt_val_ty(v->f, res)), vname(v, l->iter_args[i]),
                 tystr(v, mt_val_ty(v->f, l->iter_args[i])));
    }
}

/* A region's terminator: its last instruction must be a yield of the
 * types in want (NULL entries: not checked). */
static void check_yield(Verifier *v, const MtInst *in, const MtRegion *body, const char *what,
                        const MtType *const *want, uint32_t n)
{
    const MtInst *y = body->n && body->v ? body->v[body->n - 1] : NULL;
    if (!y || y->op != OP_YIELD) {
        verr(v, in->span, "E0506", "%s %s must end with yield", opname(in), what);
        return;
    }
    if (y->nargs != n) {
        verr(v, y->span, "E0506", "yield has %u operand%s, but %s %s yields %u value%s", y->nargs,
             y->nargs == 1 ? "" : "s", opname(in), what, n, n == 1 ? "" : "s");
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        MtVal x = y->args ? y->args[i] : 0;
        if (!want[i] || !x || x >= v->f->nvals || !ty_valid(v->f->vals[x].ty))
            continue;
        if (v->f->vals[x].ty != want[i])
            verr(v, y->span, "E0506", "yield operand %u (%s) has type %s, expected %s", i + 1, vname(v, x),
                 tystr(v, v->f->vals[x].ty), tystr(v, want[i]));
    }
}

/* The combine region of reduce and scan: scalar operations only. */
static void check_combine_body(Verifier *v, const MtInst *in, const MtRegion *r)
{
    for (uint32_t i = 0; i + 1 < r->n; i++) {
        const MtInst *x = r->v[i];
        if (!x)
            continue;
        if (x->loop || x->nest || !(mt_op_info[x->op].flags & F_PURE) || (x->ty && x->ty->kind != TY_SCALAR)) {
            verr(v, x->span, "E0506", "%s in the combine region of %s: a combine region computes on scalars only",
                 opname(x), opname(in));
            return;
        }
    }
}

static void check_if(Verifier *v, const MtInst *in, bool args_ok)
{
    const MtNest *x = in->nest;
    if (in->nargs != 1 || x->nbodies != 2 || x->body[0].nargs || x->body[1].nargs || (x->nresults && !x->results)) {
        verr(v, in->span, "E0506", "if needs one condition operand and two regions without arguments");
        return;
    }
    if (args_ok && arg_ty(v, in, 0) != &mt_ty_bool)
        verr(v, in->span, "E0506", "if condition must be a scalar bool, got %s", tystr(v, arg_ty(v, in, 0)));
    uint32_t n = x->nresults;
    const MtType **want = mt_arena_alloc(&v->c->arena, (n + 1) * sizeof *want);
    for (uint32_t i = 0; i < n; i++)
        want[i] = x->results[i] < v->f->nvals && ty_valid(v->f->vals[x->results[i]].ty) ? v->f->vals[x->results[i]].ty
                                                                                         : NULL;
    for (uint32_t k = 0; k < 2; k++) {
        uint32_t mark = v->open.n;
        check_region(v, &x->body[k].insts, in, in->span);
        check_yield(v, in, &x->body[k].insts, k ? "else region" : "then region", want, n);
        close_scope(v, mark);
    }
    for (uint32_t i = 0; i < n; i++)
        define(v, in, x->results[i], VK_RESULT, "result", "E0506");
}

/* while: the carried values' inits, the condition region (arguments: the
 * carried values; ends with `condition %c, %v...`), the body (arguments:
 * the forwarded values; yields the next carried values) and the results
 * (the forwarded values' types). */
static void check_while(Verifier *v, const MtInst *in, bool args_ok)
{
    const MtNest *x = in->nest;
    uint32_t n = in->nargs;
    if (x->nbodies != 2 || x->body[0].nargs != n || x->body[1].nargs != x->nresults || !x->body[0].args ||
        (x->nresults && (!x->results || !x->body[1].args))) {
        verr(v, in->span, "E0506", "while needs a condition region with one argument per carried value and a body "
             "with one argument per result");
        return;
    }
    uint32_t m = x->nresults;
    uint32_t mark = v->open.n;
    const MtType **carried = mt_arena_alloc(&v->c->arena, (n + 1) * sizeof *carried);
    for (uint32_t i = 0; i < n; i++) {
        MtVal a = x->body[0].args[i];
        carried[i] = NULL;
        if (!define(v, in, a, VK_ARG, "region argument", "E0506"))
            continue;
        carried[i] = mt_val_ty(v->f, a);
        if (args_ok && carried[i] != arg_ty(v, in, i))
            verr(v, in->span, "E0506", "while region argument %s has type %s, but its init value has type %s",
                 vname(v, a), tystr(v, carried[i]), tystr(v, arg_ty(v, in, i)));
    }
    const MtRegion *cr = &x->body[0].insts;
    check_region(v, cr, in, in->span);
    const MtInst *c = cr->n && cr->v ? cr->v[cr->n - 1] : NULL;
    const MtType **fwd = mt_arena_alloc(&v->c->arena, (m + 1) * sizeof *fwd);
    for (uint32_t i = 0; i < m; i++)
        fwd[i] = x->results[i] < v->f->nvals && ty_valid(v->f->vals[x->results[i]].ty) ? v->f->vals[x->results[i]].ty
                                                                                        : NULL;
    if (!c || c->op != OP_CONDITION) {
        verr(v, in->span, "E0506", "while condition region must end with condition");
    } else if (c->nargs != m + 1) {
        verr(v, c->span, "E0506", "condition has %u operands, but its while has %u results (and the condition)",
             c->nargs, m);
    } else {
        MtVal cv = c->args ? c->args[0] : 0;
        if (cv && cv < v->f->nvals && ty_valid(v->f->vals[cv].ty) && v->f->vals[cv].ty != &mt_ty_bool)
            verr(v, c->span, "E0506", "condition must be a scalar bool, got %s", tystr(v, v->f->vals[cv].ty));
        for (uint32_t i = 0; i < m; i++) {
            MtVal f = c->args[1 + i];
            if (f && f < v->f->nvals && fwd[i] && ty_valid(v->f->vals[f].ty) && v->f->vals[f].ty != fwd[i])
                verr(v, c->span, "E0506", "condition operand %u (%s) has type %s, but the while's result has type %s",
                     i + 2, vname(v, f), tystr(v, v->f->vals[f].ty), tystr(v, fwd[i]));
        }
    }
    close_scope(v, mark);
    mark = v->open.n;
    for (uint32_t i = 0; i < m; i++) {
        MtVal a = x->body[1].args[i];
        if (define(v, in, a, VK_ARG, "region argument", "E0506") && fwd[i] && mt_val_ty(v->f, a) != fwd[i])
            verr(v, in->span, "E0506", "while body argument %s has type %s, expected %s", vname(v, a),
                 tystr(v, mt_val_ty(v->f, a)), tystr(v, fwd[i]));
    }
    check_region(v, &x->body[1].insts, in, in->span);
    check_yield(v, in, &x->body[1].insts, "body", carried, n);
    close_scope(v, mark);
    for (uint32_t i = 0; i < m; i++)
        define(v, in, x->results[i], VK_RESULT, "result", "E0506");
}

/* reduce and scan: operands of one shape, the combine region's arguments
 * (the accumulated values, then the next ones: one of each operand's
 * element type), its yield, and the results. */
static void check_nest(Verifier *v, const MtInst *in, bool args_ok)
{
    const MtNest *x = in->nest;
    uint32_t n = in->nargs;
    if (x->nbodies != 1 || x->body[0].nargs != 2 * n || x->nresults != n || !x->results || !x->body[0].args) {
        verr(v, in->span, "E0506", "%s over %u operand%s needs one region with %u arguments and %u results", opname(in),
             n, n == 1 ? "" : "s", 2 * n, n);
        return;
    }
    const MtType *t0 = NULL;
    for (uint32_t i = 0; args_ok && i < n; i++) {
        const MtType *t = arg_ty(v, in, i);
        if (!require(v, in, "E0509", t->kind == TY_BLOCK && (is_num(t->elem) || is_ptr(t->elem)), "blocks", i))
            args_ok = false;
        else if (i && !mt_ty_same_shape(t, t0)) {
            verr(v, in->span, "E0509", "%s operands differ in shape: %s and %s", opname(in), tystr(v, t0), tystr(v, t));
            args_ok = false;
        }
        if (!i)
            t0 = t;
    }
    if (args_ok && !axis_operand(v, in, t0, in->op == OP_REDUCE))
        args_ok = false;
    const MtType **elems = mt_arena_alloc(&v->c->arena, (n + 1) * sizeof *elems);
    for (uint32_t i = 0; i < n; i++)
        elems[i] = args_ok ? mt_ty_elem(arg_ty(v, in, i)) : NULL;
    uint32_t mark = v->open.n;
    for (uint32_t i = 0; i < 2 * n; i++) {
        MtVal a = x->body[0].args[i];
        if (!define(v, in, a, VK_ARG, "region argument", "E0506") || !args_ok)
            continue;
        if (mt_val_ty(v->f, a) != elems[i % n])
            verr(v, in->span, "E0506", "%s region argument %s has type %s, expected %s", opname(in), vname(v, a),
                 tystr(v, mt_val_ty(v->f, a)), tystr(v, elems[i % n]));
    }
    check_region(v, &x->body[0].insts, in, in->span);
    check_combine_body(v, in, &x->body[0].insts);
    check_yield(v, in, &x->body[0].insts, "combine region", elems, n);
    close_scope(v, mark);
    for (uint32_t i = 0; i < n; i++) {
        MtVal res = x->results[i];
        if (!define(v, in, res, VK_RESULT, "result", "E0506") || !args_ok)
            continue;
        const MtType *want = in->op == OP_REDUCE ? reduced_type(v, in, arg_ty(v, in, i)) : arg_ty(v, in, i);
        if (mt_val_ty(v->f, res) != want)
            verr(v, in->span, "E0509", "%s result %s has type %s, expected %s", opname(in), vname(v, res),
                 tystr(v, mt_val_ty(v->f, res)), tystr(v, want));
    }
}

static void check_inst(Verifier *v, const MtInst *in, const MtInst *loop, bool last)
{
    if (in->op >= OPC_COUNT_) {
        verr(v, in->span, "E0503", "unknown opcode %u", in->op);
        return;
    }
    const char *op = opname(in);
    int want = mt_op_info[in->op].nargs;
    if (in->nargs && !in->args) {
        verr(v, in->span, "E0501", "%s has %u operands but no operand list", op, in->nargs);
        return;
    }
    if (in->op == OP_YIELD) {
        if (!loop)
            verr(v, in->span, "E0506", "yield outside a region");
        else if (!last)
            verr(v, in->span, "E0506", "yield must be the last instruction of its region");
    }
    if ((in->op == OP_FOR) != (in->loop != NULL))
        verr(v, in->span, "E0506", in->loop ? "%s carries a loop region" : "%s has no loop region", op);
    if (in->op == OP_CONDITION) {
        if (!loop || loop->op != OP_WHILE)
            verr(v, in->span, "E0506", "condition outside the first region of a while");
        else if (!last)
            verr(v, in->span, "E0506", "condition must be the last instruction of its region");
    }
    if (mt_op_is_nest(in->op) != (in->nest != NULL)) {
        verr(v, in->span, "E0506", in->nest ? "%s carries regions" : "%s has no region", op);
        return;
    }

    bool ok = true;
    if (want >= 0 && in->nargs != (uint32_t)want) {
        verr(v, in->span, "E0503", "%s takes %d operands, got %u", op, want, in->nargs);
        ok = false;
    } else {
        for (uint32_t i = 0; i < in->nargs; i++) {
            bool optional = (in->op == OP_LOAD && i > 0) || (in->op == OP_STORE && i == 2) ||
                            (mt_op_class(in->op) == OC_ATOMIC && in->op != OP_ATOMIC_CAS && i == 2) ||
                            (in->op == OP_DEVICE_ASSERT && i == 1);
            ok &= check_use(v, in, i, optional);
        }
    }

    if (in->op == OP_FOR && in->loop) {
        if (in->ty || in->dst)
            verr(v, in->span, "E0502", "for must not declare a result type or value; its results are in the loop");
        check_for(v, in, ok);
        return;
    }
    if (in->nest) {
        if (in->ty || in->dst)
            verr(v, in->span, "E0502", "%s must not declare a result type or value; its results are its own", op);
        if (in->op == OP_IF)
            check_if(v, in, ok);
        else if (in->op == OP_WHILE)
            check_while(v, in, ok);
        else
            check_nest(v, in, ok);
        return;
    }
    if (!has_result(in->op)) {
        if (in->ty || in->dst) {
            verr(v, in->span, "E0502", "%s must not have a result", op);
            ok = false;
        }
    } else if (!in->dst) {
        verr(v, in->span, "E0502", "%s has no result value", op);
        ok = false;
    } else if (!define(v, in, in->dst, VK_INST, "result", "E0502")) {
        ok = false;
    } else if (!ty_valid(in->ty)) {
        verr(v, in->span, "E0502", "%s declares %s result type", op, in->ty ? "a malformed" : "no");
        ok = false;
    } else if (mt_val_ty(v->f, in->dst) != in->ty) {
        verr(v, in->span, "E0502", "%s declares result type %s, but its result %s has type %s", op,
             tystr(v, in->ty), vname(v, in->dst), tystr(v, mt_val_ty(v->f, in->dst)));
        ok = false;
    }
    if (ok)
        check_types(v, in);
}

static void check_region(Verifier *v, const MtRegion *r, const MtInst *loop, MtSpan where)
{
    uint32_t mark = v->open.n;
    if (r->n && !r->v) {
        verr(v, where, "E0501", "region has %u instructions but no instruction list", r->n);
        return;
    }
    for (uint32_t i = 0; i < r->n; i++) {
        if (!r->v[i])
            verr(v, where, "E0501", "region holds a null instruction at position %u", i + 1);
        else
            check_inst(v, r->v[i], loop, i + 1 == r->n);
    }
    close_scope(v, mark);
}

/* Mark every value some instruction defines, so that a use before the
 * definition can be told from a use of a value defined nowhere. */
static void collect_defs(Verifier *v, const MtRegion *r)
{
    if (r->n && !r->v)
        return;
    for (uint32_t i = 0; i < r->n; i++) {
        const MtInst *in = r->v[i];
        if (!in)
            continue;
        if (in->dst < v->f->nvals)
            v->has_def[in->dst] = 1;
        if (in->nest) {
            const MtNest *x = in->nest;
            for (uint32_t k = 0; k < x->nbodies && k < 2; k++) {
                for (uint32_t j = 0; j < x->body[k].nargs && x->body[k].args; j++)
                    if (x->body[k].args[j] < v->f->nvals)
                        v->has_def[x->body[k].args[j]] = 1;
                collect_defs(v, &x->body[k].insts);
            }
            for (uint32_t j = 0; j < x->nresults && x->results; j++)
                if (x->results[j] < v->f->nvals)
                    v->has_def[x->results[j]] = 1;
            continue;
        }
        const MtForData *l = in->loop;
        if (!l)
            continue;
        bool seen = false;
        for (uint32_t k = 0; k < v->loops.n && !seen; k++)
            seen = v->loops.v[k] == in;
        if (seen)
            continue;
        mt_vec_push(&v->c->arena, &v->loops, in);
        if (l->iv < v->f->nvals)
            v->has_def[l->iv] = 1;
        for (uint32_t k = 0; k < l->ncarried && l->iter_args && l->results; k++) {
            if (l->iter_args[k] < v->f->nvals)
                v->has_def[l->iter_args[k]] = 1;
            if (l->results[k] < v->f->nvals)
                v->has_def[l->results[k]] = 1;
        }
        collect_defs(v, &l->body);
    }
}

bool mt_verify(MtCtx *c, const MtFunc *f, const char *stage)
{
    Verifier v = {.c = c, .f = f, .stage = stage};
    MtSpan none = {0};
    if (!f || !f->vals || !f->nvals) {
        verr(&v, none, "E0501", "function has no value table");
        return false;
    }
    uint32_t n = f->nvals;
    v.scope = mt_arena_alloc(&c->arena, n);
    v.defined = mt_arena_alloc(&c->arena, n);
    v.has_def = mt_arena_alloc(&c->arena, n);
    uint32_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    v.bynum = mt_arena_alloc(&c->arena, cap * sizeof *v.bynum);
    v.bynum_mask = cap - 1;
    collect_defs(&v, &f->body);
    v.loops.n = 0;
    check_region(&v, &f->body, NULL, none);
    for (uint32_t i = 0; i < f->keep.n; i++) {
        MtVal k = f->keep.v[i];
        if (!k || k >= n)
            verr(&v, none, "E0501", "kept value %u is out of range", k);
        else if (f->vals[k].kind != VK_PARAM && f->vals[k].kind != VK_CONST && !v.has_def[k])
            verr(&v, none, "E0501", "kept value %%%u is defined nowhere", f->vals[k].num);
    }
    return v.nerr == 0;
}
