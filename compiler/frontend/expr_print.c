/* expr_print.c: the expression tree as text (`mytriton compile --emit expr`).
 *
 * One line per node, in the depth-first order lowering will use, written
 * in the kernel language's own terms so it reads as "what the frontend
 * understood": compile-time values are already folded in, static loops
 * unrolled, helpers inlined, names resolved.
 *
 *   kernel add_kernel(x: *fp32, y: *fp32, out: *fp32, n: i32, BLOCK=256)
 *   e4 = tl.program_id(0) : i32  @4:15
 *   e5 = e4 * 256 : i32  @4:15
 *   ...
 *   tl.store(e12, e11, mask=e7)  @9:5
 *
 * Parameters print by name, constants inline, other nodes as e<id> (their
 * creation order). */
#include "base/strbuf.h"
#include "expr.h"

typedef struct Pr {
    MtCtx *c;
    MtBuf *b;
    uint8_t *done;
} Pr;

static void ref(Pr *p, const MtExpr *e)
{
    if (!e) {
        mt_buf_puts(p->b, "None");
        return;
    }
    switch (e->kind) {
    case EX_PARAM:
        mt_buf_puts(p->b, e->u.param.name);
        return;
    case EX_CONST: {
        MtConst k = e->u.cst;
        if (k.kind == CST_BOOL)
            mt_buf_puts(p->b, k.i ? "True" : "False");
        else
            mt_const_print(p->b, k);
        return;
    }
    default:
        mt_buf_printf(p->b, "e%u", e->id);
    }
}

static void loc(Pr *p, const MtExpr *e)
{
    mt_buf_mark(p->b, e->span, e->inl);
    if (e->ty && e->ty->kind != TY_VOID) {
        mt_buf_puts(p->b, " : ");
        mt_ty_print(p->b, e->ty);
    }
    mt_buf_printf(p->b, "  @%u:%u\n", e->span.line, e->span.col);
}

/* An operation in the kernel language's own spelling: operators infix
 * or prefix, functions as calls with their compile-time arguments. */
static void op(Pr *p, const MtExpr *e)
{
    MtBuf *b = p->b;
    const char *py = mt_op_info[e->op].py;
    switch (e->op) {
    case OP_PROGRAM_ID:
        mt_buf_printf(b, "%s(%d)", py, e->attr.axis);
        return;
    case OP_ARANGE:
        mt_buf_printf(b, "%s(%lld, %lld)", py, (long long)e->attr.start, (long long)e->attr.end);
        return;
    case OP_EXPAND_DIMS:
        ref(p, e->args[0]);
        mt_buf_puts(b, e->attr.axis == 0 ? "[None, :]" : "[:, None]");
        return;
    case OP_ZEROS:
    case OP_FULL:
    case OP_EMPTY:
        mt_buf_printf(b, "%s(", py);
        mt_shape_print(b, e->attr.rank, e->attr.shape);
        if (e->op == OP_FULL) {
            mt_buf_puts(b, ", ");
            ref(p, e->args[0]);
        }
        mt_buf_printf(b, ", tl.%s)", mt_ty_info(e->attr.dtype)->tl);
        return;
    case OP_CAST:
    case OP_BITCAST:
        mt_buf_printf(b, "%s(", py);
        ref(p, e->args[0]);
        mt_buf_printf(b, ", tl.%s%s%s)", mt_ty_info(e->attr.dtype)->tl, e->op == OP_BITCAST ? ", bitcast=True" : "",
                      e->attr.mode == MT_ROUND_RTZ ? ", fp_downcast_rounding='rtz'" : "");
        return;
    case OP_LOAD:
    case OP_STORE: {
        static const char *const load_kw[] = {"", ", mask=", ", other="}, *const store_kw[] = {"", ", ", ", mask="};
        mt_buf_printf(b, "%s(", py);
        for (uint32_t i = 0; i < e->nargs; i++)
            if (e->args[i]) {
                mt_buf_puts(b, (e->op == OP_LOAD ? load_kw : store_kw)[i]);
                ref(p, e->args[i]);
            }
        mt_buf_putc(b, ')');
        return;
    }
    default:
        break;
    }
    if (mt_op_is_symbol(e->op)) {
        if (e->nargs == 1)
            mt_buf_puts(b, py);
        ref(p, e->args[0]);
        if (e->nargs == 2) {
            mt_buf_printf(b, " %s ", py);
            ref(p, e->args[1]);
        }
        return;
    }
    mt_buf_printf(b, "%s(", py);
    for (uint32_t i = 0; i < e->nargs; i++) {
        if (i)
            mt_buf_puts(b, ", ");
        ref(p, e->args[i]);
    }
    if ((mt_op_class(e->op) == OC_REDUCE || mt_op_class(e->op) == OC_SCAN) && e->attr.axis != MT_AXIS_NONE)
        mt_buf_printf(b, ", axis=%d", e->attr.axis);
    if (e->attr.flags & MT_KEEP_DIMS)
        mt_buf_puts(b, ", keep_dims=True");
    if (e->attr.flags & MT_REVERSE)
        mt_buf_puts(b, ", reverse=True");
    if (e->op == OP_PERMUTE || e->op == OP_RESHAPE || e->op == OP_BROADCAST || mt_op_class(e->op) == OC_HINT) {
        mt_buf_puts(b, ", ");
        mt_shape_print(b, e->attr.rank, e->attr.shape);
    }
    mt_buf_putc(b, ')');
}

static void node(Pr *p, const MtExpr *e, int indent);

static void body_of(Pr *p, const MtExpr *e, int indent)
{
    const MtExprLoop *l = e->u.loop;
    for (uint32_t i = 0; i < l->body.n; i++)
        node(p, l->body.v[i], indent);
    for (uint32_t i = 0; i < l->ncarried; i++)
        node(p, l->yield[i], indent);
    for (uint32_t i = 0; i < l->ncarried; i++) {
        mt_buf_mark(p->b, e->span, e->inl);
        mt_buf_indent(p->b, indent);
        mt_buf_printf(p->b, "yield %s = ", l->names[i]);
        ref(p, l->yield[i]);
        mt_buf_putc(p->b, '\n');
    }
}

static void loop(Pr *p, const MtExpr *e, int indent)
{
    const MtExprLoop *l = e->u.loop;
    for (uint32_t i = 0; i < e->nargs; i++)
        node(p, e->args[i], indent);
    for (uint32_t i = 0; i < l->captures.n; i++)
        node(p, l->captures.v[i], indent);
    p->done[l->iv->id] = 1;
    for (uint32_t i = 0; i < l->ncarried; i++)
        p->done[l->arg[i]->id] = 1;
    mt_buf_indent(p->b, indent);
    mt_buf_printf(p->b, "for %s = e%u in range(", l->iv_name, l->iv->id);
    ref(p, e->args[0]);
    mt_buf_puts(p->b, ", ");
    ref(p, e->args[1]);
    if (l->dyn_step) {
        mt_buf_puts(p->b, ", ");
        ref(p, e->args[e->nargs - 1]);
        mt_buf_putc(p->b, ')');
    } else {
        mt_buf_printf(p->b, ", %lld)", (long long)l->step);
    }
    if (l->ncarried) {
        mt_buf_puts(p->b, " carry(");
        for (uint32_t i = 0; i < l->ncarried; i++) {
            mt_buf_printf(p->b, "%s%s: e%u = ", i ? ", " : "", l->names[i], l->arg[i]->id);
            ref(p, e->args[2 + i]);
        }
        mt_buf_putc(p->b, ')');
    }
    if (l->captures.n) {
        mt_buf_puts(p->b, " captures(");
        for (uint32_t i = 0; i < l->captures.n; i++) {
            if (i)
                mt_buf_puts(p->b, ", ");
            ref(p, l->captures.v[i]);
        }
        mt_buf_putc(p->b, ')');
    }
    mt_buf_mark(p->b, e->span, e->inl);
    mt_buf_printf(p->b, " {  @%u:%u\n", e->span.line, e->span.col);
    body_of(p, e, indent + 2);
    mt_buf_mark(p->b, e->span, e->inl);
    mt_buf_indent(p->b, indent);
    mt_buf_puts(p->b, "}");
    for (uint32_t i = 0; i < l->ncarried; i++) {
        mt_buf_printf(p->b, "%s%s: e%u", i ? ", " : " -> ", l->names[i], l->result[i]->id);
        p->done[l->result[i]->id] = 1;
    }
    mt_buf_putc(p->b, '\n');
}

/* e7, e8 = tl.reduce(e3, e4, axis=1) combine(e9, e10, e11, e12) { ... yield e13, e14 } */
static void nest(Pr *p, const MtExpr *e, int indent)
{
    const MtExprNest *x = e->u.nest;
    for (uint32_t i = 0; i < e->nargs; i++)
        node(p, e->args[i], indent);
    for (uint32_t k = 0; k < x->nbodies; k++)
        for (uint32_t i = 0; i < x->body[k].nargs; i++)
            p->done[x->body[k].arg[i]->id] = 1;
    mt_buf_indent(p->b, indent);
    for (uint32_t i = 0; i < x->nresults; i++) {
        mt_buf_printf(p->b, "%se%u", i ? ", " : "", x->result[i]->id);
        p->done[x->result[i]->id] = 1;
    }
    bool control = e->op == OP_IF || e->op == OP_WHILE;
    mt_buf_printf(p->b, "%s%s(", x->nresults ? " = " : "", mt_op_info[e->op].py);
    for (uint32_t i = 0; i < e->nargs; i++) {
        ref(p, e->args[i]);
        if (!control || i + 1 < e->nargs)
            mt_buf_puts(p->b, ", ");
    }
    if (control)
        mt_buf_putc(p->b, ')');
    else
        mt_buf_printf(p->b, "axis=%d%s%s)", e->attr.axis, e->attr.flags & MT_KEEP_DIMS ? ", keep_dims=True" : "",
                      e->attr.flags & MT_REVERSE ? ", reverse=True" : "");
    static const char *const region_names[2][2] = {{" then(", " else("}, {" cond(", " do("}};
    for (uint32_t k = 0; k < x->nbodies; k++) {
        const MtExprBody *b = &x->body[k];
        mt_buf_puts(p->b, control ? region_names[e->op == OP_WHILE][k] : " combine(");
        for (uint32_t i = 0; i < b->nargs; i++)
            mt_buf_printf(p->b, "%se%u", i ? ", " : "", b->arg[i]->id);
        mt_buf_mark(p->b, e->span, e->inl);
        mt_buf_printf(p->b, ") {  @%u:%u\n", e->span.line, e->span.col);
        for (uint32_t i = 0; i < b->roots.n; i++)
            node(p, b->roots.v[i], indent + 2);
        for (uint32_t i = 0; i < b->nyield; i++)
            node(p, b->yield[i], indent + 2);
        mt_buf_mark(p->b, e->span, e->inl);
        mt_buf_indent(p->b, indent + 2);
        mt_buf_puts(p->b, "yield ");
        for (uint32_t i = 0; i < b->nyield; i++) {
            if (i)
                mt_buf_puts(p->b, ", ");
            ref(p, b->yield[i]);
        }
        mt_buf_putc(p->b, '\n');
        mt_buf_indent(p->b, indent);
        mt_buf_putc(p->b, '}');
    }
    mt_buf_putc(p->b, '\n');
}

static void node(Pr *p, const MtExpr *e, int indent)
{
    if (!e || e->kind == EX_PARAM || e->kind == EX_CONST || p->done[e->id])
        return;
    p->done[e->id] = 1;
    if (e->kind == EX_FOR) {
        loop(p, e, indent);
        return;
    }
    if (e->kind == EX_NEST) {
        nest(p, e, indent);
        return;
    }
    if (e->kind == EX_NEST_RESULT) {
        p->done[e->id] = 0;
        node(p, e->u.nslot.nest->node, indent);
        return;
    }
    if (e->kind == EX_LOOP_RESULT) {
        p->done[e->id] = 0;
        node(p, e->u.slot.loop->node, indent);
        return;
    }
    bool store = e->kind == EX_OP && e->op == OP_STORE;
    if (store) {
        node(p, e->args[1], indent);
        node(p, e->args[0], indent);
        node(p, e->args[2], indent);
    } else {
        for (uint32_t i = 0; i < e->nargs; i++)
            node(p, e->args[i], indent);
    }
    mt_buf_indent(p->b, indent);
    if (!store && !(e->ty && e->ty->kind == TY_VOID))
        mt_buf_printf(p->b, "e%u = ", e->id);
    if (e->kind == EX_OP)
        op(p, e);
    else
        mt_buf_puts(p->b, "?");
    loc(p, e);
}

const char *mt_expr_print(MtCtx *c, const MtExprProgram *prog, MtLineMarks *marks)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    mt_buf_record_marks(&b, marks);
    Pr p = {.c = c, .b = &b};
    p.done = mt_arena_alloc(&c->arena, prog->nexprs + 1);
    mt_buf_printf(&b, "kernel %s(", prog->kernel);
    for (uint32_t i = 0; i < prog->nsig; i++) {
        const MtKernelParam *k = &prog->sig[i];
        if (i)
            mt_buf_puts(&b, ", ");
        if (k->value)
            mt_buf_printf(&b, "%s=%s", k->name, k->value);
        else
            mt_buf_printf(&b, "%s: %s", k->name, k->type ? k->type : "?");
    }
    mt_buf_puts(&b, ")\n");
    for (uint32_t i = 0; i < prog->roots.n; i++)
        node(&p, prog->roots.v[i], 0);
    return mt_buf_str(&b);
}
