/* infer.c: type inference over the expression tree.
 *
 * Every node reachable from the roots gets its type: element type by the
 * operation's rule (numeric promotion bool < i32 < f32, comparisons give
 * bool, `/` gives f32, pointer + i32 gives a pointer), shape by
 * broadcasting its operands. Each rule violation is reported once, at the
 * node's source range, naming the operation and the operand types; a
 * node whose operands failed gets no type and no further message, so one
 * mistake gives one error.
 *
 * Parameters without a type (no signature entry) are typed first from
 * their use: a parameter that addresses a tl.load / tl.store (the leftmost
 * parameter of the address's `+` chain, followed through loop-carried
 * values) is *fp32, others i32. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "infer.h"

typedef struct Inf {
    MtCtx *c;
    MtExprProgram *p;
    uint8_t *seen;            /* per node id: visited by the parameter pre-pass */
    const bool *inferred;     /* per runtime parameter: its type was guessed from its use */
} Inf;

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

/* The parameter that a pointer expression is based on: the leftmost
 * parameter of its `+` / `-` chain, followed through loop-carried values
 * (`a_ptrs += BLOCK_K * stride` in a runtime loop is based on what
 * a_ptrs held before the loop). */
static MtExpr *base_param(MtExpr *e)
{
    for (int depth = 0; e && depth < 1000; depth++) {
        if (e->kind == EX_PARAM)
            return e;
        if (e->kind == EX_LOOP_ARG || e->kind == EX_LOOP_RESULT) {
            e = e->u.slot.loop->node->args[2 + e->u.slot.index];
            continue;
        }
        if (e->kind == EX_OP && (e->op == OP_ADD || e->op == OP_SUB)) {
            MtExpr *l = base_param(e->args[0]);
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
    case EX_PARAM: return e->u.param.index < in->p->nparams && in->inferred[e->u.param.index] ? e : NULL;
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

static void mark_pointers(Inf *in, MtExpr *e)
{
    if (!e || in->seen[e->id])
        return;
    in->seen[e->id] = 1;
    if (e->kind == EX_OP && (e->op == OP_LOAD || e->op == OP_STORE)) {
        MtExpr *bp = base_param(e->args[0]);
        if (bp && !bp->u.param.ty)
            bp->u.param.ty = mt_ty_ptr(in->c, &mt_ty_f32);
    }
    for (uint32_t i = 0; i < e->nargs; i++)
        mark_pointers(in, e->args[i]);
    if (e->kind == EX_FOR) {
        MtExprLoop *l = e->u.loop;
        for (uint32_t i = 0; i < l->body.n; i++)
            mark_pointers(in, l->body.v[i]);
        for (uint32_t i = 0; i < l->ncarried; i++)
            mark_pointers(in, l->yield[i]);
    }
}

/* ---- rules ---------------------------------------------------------------------------- */

static bool numeric(const MtType *t)
{
    const MtType *e = mt_ty_elem(t);
    return e == &mt_ty_bool || e == &mt_ty_i32 || e == &mt_ty_f32;
}

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

static const MtType *arith_elem(const MtType *a, const MtType *b)
{
    const MtType *p = mt_ty_promote(mt_ty_elem(a), mt_ty_elem(b));
    return p && p == &mt_ty_bool ? &mt_ty_i32 : p;
}

/* How messages name an operation: '+' for an operator, tl.maximum for a function. */
static const char *op_desc(Inf *in, int op)
{
    return mt_op_is_symbol(op) ? mt_sprintf(in->c, "'%s'", mt_op_info[op].py) : mt_op_info[op].py;
}

static const MtType *infer_binary(Inf *in, MtExpr *e, const MtType *a, const MtType *b)
{
    int op = e->op;
    const char *od = op_desc(in, op);
    bool pa = mt_ty_is_ptr(a), pb = mt_ty_is_ptr(b);
    if (pa || pb) {
        const MtType *ptr = pa ? a : b, *off = pa ? b : a;
        if ((op == OP_ADD || (op == OP_SUB && pa)) && !(pa && pb)) {
            if (mt_ty_elem(off) != &mt_ty_i32 && mt_ty_elem(off) != &mt_ty_bool) {
                err(in, e, "E0403", "pointer offset must be i32, got %s in %s %s %s", ts(in, off), ts(in, a), od,
                    ts(in, b));
                return NULL;
            }
            return shaped(in, e, mt_ty_elem(ptr), a, b, od);
        }
        err(in, e, "E0403", "invalid pointer arithmetic: %s %s %s (pointers can only be offset by i32 values)",
            ts(in, a), od, ts(in, b));
        return NULL;
    }
    if (!numeric(a) || !numeric(b)) {
        err(in, e, "E0401", "%s cannot combine %s and %s", od, ts(in, a), ts(in, b));
        return NULL;
    }
    const MtType *ea = mt_ty_elem(a), *eb = mt_ty_elem(b), *elem;
    switch (op) {
    case OP_MAXIMUM:
    case OP_MINIMUM:
        if (ea == &mt_ty_bool && eb == &mt_ty_bool) {
            err(in, e, "E0401", "%s cannot combine two bool operands (%s and %s); compare or convert them first", od,
                ts(in, a), ts(in, b));
            return NULL;
        }
        elem = arith_elem(a, b);
        break;
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
        elem = arith_elem(a, b);
        break;
    case OP_DIV:
        elem = &mt_ty_f32;
        break;
    case OP_FLOORDIV:
    case OP_MOD:
        if (ea == &mt_ty_f32 || eb == &mt_ty_f32) {
            err(in, e, "E0401", "%s needs integer operands, got %s and %s", od, ts(in, a), ts(in, b));
            return NULL;
        }
        elem = &mt_ty_i32;
        break;
    case OP_AND:
    case OP_OR:
    case OP_XOR:
        if (ea == &mt_ty_f32 || eb == &mt_ty_f32) {
            err(in, e, "E0401", "%s needs bool or integer operands, got %s and %s", od, ts(in, a), ts(in, b));
            return NULL;
        }
        elem = ea == &mt_ty_bool && eb == &mt_ty_bool ? &mt_ty_bool : &mt_ty_i32;
        break;
    default:
        elem = &mt_ty_bool;
        break;
    }
    return shaped(in, e, elem, a, b, od);
}

static const MtType *infer_unary(Inf *in, MtExpr *e, const MtType *a)
{
    const MtType *el = mt_ty_elem(a);
    switch (e->op) {
    case OP_NEG:
        if (el == &mt_ty_i32 || el == &mt_ty_f32)
            return a;
        if (el == &mt_ty_bool)
            return mt_ty_with_shape(in->c, &mt_ty_i32, a);
        err(in, e, "E0401", "unary '-' cannot apply to %s", ts(in, a));
        return NULL;
    case OP_NOT:
        if (el == &mt_ty_i32 || el == &mt_ty_bool)
            return a;
        err(in, e, "E0401", "'~' needs a bool or integer operand, got %s", ts(in, a));
        return NULL;
    default:
        break;
    }
    return NULL;
}

/* math.def functions: f32 operands. */
static const MtType *infer_math(Inf *in, MtExpr *e, const MtType **ta)
{
    for (uint32_t i = 0; i < e->nargs; i++)
        if (mt_ty_elem(ta[i]) != &mt_ty_f32) {
            err(in, e, "E0405", "%s needs f32, got %s; convert integers first (x * 1.0)", mt_op_info[e->op].py,
                ts(in, ta[i]));
            return NULL;
        }
    const MtType *t = ta[0];
    for (uint32_t i = 1; t && i < e->nargs; i++)
        t = shaped(in, e, &mt_ty_f32, t, ta[i], mt_op_info[e->op].py);
    return t;
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

static bool infer_args(Inf *in, MtExpr *e, const MtType **tys)
{
    bool ok = true;
    for (uint32_t i = 0; i < e->nargs; i++) {
        tys[i] = e->args[i] ? infer_node(in, e->args[i]) : NULL;
        ok &= !e->args[i] || tys[i];
    }
    return ok;
}

static const MtType *infer_loop(Inf *in, MtExpr *e, const MtType **tys)
{
    MtExprLoop *l = e->u.loop;
    bool ok = true;
    for (int i = 0; i < 2; i++)
        if (tys[i] != &mt_ty_i32 && tys[i] != &mt_ty_bool) {
            err(in, e, "E0411", "runtime range bounds must be i32 scalars, got %s for the %s", ts(in, tys[i]),
                i ? "stop" : "start");
            ok = false;
        }
    l->iv->ty = &mt_ty_i32;
    for (uint32_t i = 0; i < l->ncarried; i++) {
        l->arg[i]->ty = tys[2 + i];
        l->result[i]->ty = tys[2 + i];
    }
    for (uint32_t i = 0; i < l->body.n; i++)
        ok &= infer_node(in, l->body.v[i]) != NULL;
    for (uint32_t i = 0; i < l->ncarried; i++) {
        const MtType *yt = infer_node(in, l->yield[i]);
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

static const MtType *infer_select(Inf *in, MtExpr *e, const MtType **ta)
{
    if (mt_ty_elem(ta[0]) != &mt_ty_bool) {
        err(in, e, "E0404", "tl.where condition must be bool, got %s", ts(in, ta[0]));
        return NULL;
    }
    if (!numeric(ta[1]) || !numeric(ta[2])) {
        err(in, e, "E0401", "tl.where cannot select between %s and %s", ts(in, ta[1]), ts(in, ta[2]));
        return NULL;
    }
    return broadcast3(in, e, mt_ty_promote(mt_ty_elem(ta[1]), mt_ty_elem(ta[2])), ta[0], ta[1], ta[2], "tl.where");
}

static const MtType *infer_load(Inf *in, MtExpr *e, const MtType **ta)
{
    if (!mt_ty_is_ptr(ta[0])) {
        note_guessed(in, err(in, e, "E0406", "tl.load needs a pointer, got %s", ts(in, ta[0])), e->args[0]);
        return NULL;
    }
    if (ta[1] && mt_ty_elem(ta[1]) != &mt_ty_bool) {
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
    if (ta[2] && mt_ty_elem(ta[2]) != &mt_ty_bool) {
        err(in, e, "E0404", "tl.store mask must be bool, got %s", ts(in, ta[2]));
        return NULL;
    }
    return broadcast3(in, e, &mt_ty_i32, ta[0], ta[1], ta[2], "tl.store") ? &mt_ty_void : NULL;
}

static const MtType *infer_reduce(Inf *in, MtExpr *e, const MtType **ta)
{
    const char *name = mt_op_info[e->op].py;
    if (!mt_ty_is_block(ta[0])) {
        err(in, e, "E0408", "%s needs a block, got %s", name, ts(in, ta[0]));
        return NULL;
    }
    if (ta[0]->rank != 1) {
        err(in, e, "E0408", "%s over a rank-%d block (%s) is not supported yet; reduce rank-1 blocks", name,
            ta[0]->rank, ts(in, ta[0]));
        return NULL;
    }
    if (e->attr.axis != MT_AXIS_NONE && e->attr.axis != 0 && e->attr.axis != -1) {
        err(in, e, "E0408", "%s axis %d is out of range for the rank-1 block %s", name, e->attr.axis, ts(in, ta[0]));
        return NULL;
    }
    int32_t w = ta[0]->shape[0];
    if (w & (w - 1)) {
        err(in, e, "E0408", "%s needs a power-of-two width, got %s", name, ts(in, ta[0]));
        return NULL;
    }
    if (ta[0]->elem != &mt_ty_i32 && ta[0]->elem != &mt_ty_f32) {
        err(in, e, "E0408", "%s needs i32 or f32 elements, got %s", name, ts(in, ta[0]));
        return NULL;
    }
    return ta[0]->elem;
}

static const MtType *infer_expand_dims(Inf *in, MtExpr *e, const MtType **ta)
{
    if (!mt_ty_is_block(ta[0]) || ta[0]->rank != 1) {
        err(in, e, "E0407", "expanding a dimension needs a rank-1 block (blocks have at most 2 dimensions), got %s",
            ts(in, ta[0]));
        return NULL;
    }
    int axis = e->attr.axis < 0 ? e->attr.axis + 2 : e->attr.axis;
    if (axis != 0 && axis != 1) {
        err(in, e, "E0407", "expand_dims axis %d is out of range for %s", e->attr.axis, ts(in, ta[0]));
        return NULL;
    }
    e->attr.axis = axis;
    int32_t shape[2] = {axis == 0 ? 1 : ta[0]->shape[0], axis == 0 ? ta[0]->shape[0] : 1};
    return mt_ty_block(in->c, ta[0]->elem, 2, shape);
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
        err(in, e, "E0410", "tl.dot needs two rank-2 f32 blocks, got %s and %s", ts(in, ta[0]), ts(in, ta[1]));
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
    case OC_COMPARE: return infer_binary(in, e, ta[0], ta[1]);
    case OC_UNARY: return infer_unary(in, e, ta[0]);
    case OC_MATH: return infer_math(in, e, ta);
    case OC_SELECT: return infer_select(in, e, ta);
    case OC_MEMORY: return e->op == OP_LOAD ? infer_load(in, e, ta) : infer_store(in, e, ta);
    case OC_REDUCE: return infer_reduce(in, e, ta);
    case OC_SHAPE: return infer_expand_dims(in, e, ta);
    case OC_FACTORY: return infer_factory(in, e, ta);
    case OC_DOT: return infer_dot(in, e, ta);
    case OC_PTR:
    case OC_CONTROL: break;
    }
    mt_ice(in->c, e->span, "type inference met an operation the frontend does not build");
}

static const MtType *infer_node(Inf *in, MtExpr *e)
{
    if (e->ty)
        return e->ty;
    const MtType *tys[8 + 2] = {0};
    const MtType **ta = e->nargs <= 8 ? tys : mt_arena_alloc(&in->c->arena, e->nargs * sizeof *ta);
    if (e->kind != EX_FOR && e->kind != EX_LOOP_RESULT && !infer_args(in, e, ta))
        return NULL;
    const MtType *t = NULL;
    switch ((MtExprKind)e->kind) {
    case EX_PARAM:
        t = e->u.param.ty ? e->u.param.ty : &mt_ty_i32;
        e->u.param.ty = t;
        break;
    case EX_CONST:
        if (e->u.cst.kind == CST_INT) {
            if (e->u.cst.i < INT32_MIN || e->u.cst.i > INT32_MAX) {
                err(in, e, "E0414", "integer constant %lld does not fit in i32", (long long)e->u.cst.i);
                return NULL;
            }
            t = &mt_ty_i32;
        } else {
            t = e->u.cst.kind == CST_BOOL ? &mt_ty_bool : &mt_ty_f32;
        }
        break;
    case EX_LOOP_IV:
        t = &mt_ty_i32;
        break;
    case EX_OP:
        t = infer_op(in, e, ta);
        break;
    case EX_FOR:
        if (!infer_args(in, e, ta))
            return NULL;
        t = infer_loop(in, e, ta);
        break;
    case EX_LOOP_ARG:
        t = e->u.slot.loop->arg[e->u.slot.index]->ty;
        break;
    case EX_LOOP_RESULT:
        if (!infer_node(in, e->u.slot.loop->node))
            return NULL;
        t = e->u.slot.loop->result[e->u.slot.index]->ty;
        break;
    case EX_KIND_COUNT_:
        break;
    }
    e->ty = t;
    return t;
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
            e->kind == EX_LOOP_ARG || e->kind == EX_LOOP_RESULT ||
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
    in.seen = mt_arena_alloc(&c->arena, p->nexprs + 1);
    bool *inferred = mt_arena_alloc(&c->arena, p->nparams + 1);
    for (uint32_t i = 0; i < p->nparams; i++)
        inferred[i] = !p->params[i]->u.param.ty;
    in.inferred = inferred;
    for (uint32_t i = 0; i < p->roots.n; i++)
        mark_pointers(&in, p->roots.v[i]);
    for (uint32_t i = 0; i < p->nparams; i++)
        if (!p->params[i]->u.param.ty)
            p->params[i]->u.param.ty = &mt_ty_i32;
    uint32_t errors = c->nerrors;
    for (uint32_t i = 0; i < p->nparams; i++)
        infer_node(&in, p->params[i]);
    for (uint32_t i = 0; i < p->roots.n; i++)
        infer_node(&in, p->roots.v[i]);
    /* Values nothing uses get no code, but their type errors are still
     * errors in the source (and an editor shows them). */
    for (uint32_t i = 0; i < p->all.n; i++)
        infer_node(&in, p->all.v[i]);
    if (c->nerrors == errors) {
        warn_unused(&in);
        warn_empty_reads(&in);
        if (p->report_inferred)
            report_inferred(&in, inferred);
    }
    for (uint32_t i = 0; i < p->nsig; i++)
        if (p->sig_param[i])
            p->sig[i].type = mt_ty_sig(p->sig_param[i]->u.param.ty);
    return c->nerrors == errors;
}
