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
    if (e->ty && e->ty->kind != TY_VOID) {
        mt_buf_puts(p->b, " : ");
        mt_ty_print(p->b, e->ty);
    }
    mt_buf_printf(p->b, "  @%u:%u\n", e->span.line, e->span.col);
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
    mt_buf_printf(p->b, ", %lld)", (long long)l->step);
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
    mt_buf_printf(p->b, " {  @%u:%u\n", e->span.line, e->span.col);
    body_of(p, e, indent + 2);
    mt_buf_indent(p->b, indent);
    mt_buf_puts(p->b, "}");
    for (uint32_t i = 0; i < l->ncarried; i++) {
        mt_buf_printf(p->b, "%s%s: e%u", i ? ", " : " -> ", l->names[i], l->result[i]->id);
        p->done[l->result[i]->id] = 1;
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
    if (e->kind == EX_LOOP_RESULT) {
        p->done[e->id] = 0;
        node(p, e->u.slot.loop->node, indent);
        return;
    }
    if (e->kind == EX_STORE) {
        node(p, e->args[1], indent);
        node(p, e->args[0], indent);
        node(p, e->args[2], indent);
    } else {
        for (uint32_t i = 0; i < e->nargs; i++)
            node(p, e->args[i], indent);
    }
    MtBuf *b = p->b;
    mt_buf_indent(b, indent);
    if (e->kind != EX_STORE)
        mt_buf_printf(b, "e%u = ", e->id);
    switch ((MtExprKind)e->kind) {
    case EX_PROGRAM_ID:
        mt_buf_printf(b, "tl.program_id(%d)", e->u.axis);
        break;
    case EX_ARANGE:
        mt_buf_printf(b, "tl.arange(%lld, %lld)", (long long)e->u.range.start, (long long)e->u.range.end);
        break;
    case EX_BINARY:
        if (e->op == BIN_MAXIMUM || e->op == BIN_MINIMUM) {
            mt_buf_printf(b, "%s(", mt_binop_symbol((MtBinOp)e->op));
            ref(p, e->args[0]);
            mt_buf_puts(b, ", ");
            ref(p, e->args[1]);
            mt_buf_putc(b, ')');
        } else {
            ref(p, e->args[0]);
            mt_buf_printf(b, " %s ", mt_binop_symbol((MtBinOp)e->op));
            ref(p, e->args[1]);
        }
        break;
    case EX_UNARY:
        mt_buf_puts(b, e->op == UN_NEG ? "-" : e->op == UN_NOT ? "~" : "tl.exp(");
        ref(p, e->args[0]);
        if (e->op == UN_EXP)
            mt_buf_putc(b, ')');
        break;
    case EX_WHERE:
        mt_buf_puts(b, "tl.where(");
        ref(p, e->args[0]);
        mt_buf_puts(b, ", ");
        ref(p, e->args[1]);
        mt_buf_puts(b, ", ");
        ref(p, e->args[2]);
        mt_buf_putc(b, ')');
        break;
    case EX_LOAD:
        mt_buf_puts(b, "tl.load(");
        ref(p, e->args[0]);
        if (e->args[1]) {
            mt_buf_puts(b, ", mask=");
            ref(p, e->args[1]);
        }
        if (e->args[2]) {
            mt_buf_puts(b, ", other=");
            ref(p, e->args[2]);
        }
        mt_buf_putc(b, ')');
        break;
    case EX_STORE:
        mt_buf_puts(b, "tl.store(");
        ref(p, e->args[0]);
        mt_buf_puts(b, ", ");
        ref(p, e->args[1]);
        if (e->args[2]) {
            mt_buf_puts(b, ", mask=");
            ref(p, e->args[2]);
        }
        mt_buf_putc(b, ')');
        break;
    case EX_REDUCE:
        mt_buf_printf(b, "tl.%s(", mt_reduce_name((MtReduceOp)e->op));
        ref(p, e->args[0]);
        if (e->u.axis != MT_AXIS_NONE)
            mt_buf_printf(b, ", axis=%d", e->u.axis);
        mt_buf_putc(b, ')');
        break;
    case EX_EXPAND_DIMS:
        ref(p, e->args[0]);
        mt_buf_puts(b, e->u.axis == 0 ? "[None, :]" : "[:, None]");
        break;
    case EX_FACTORY:
        mt_buf_printf(b, "tl.%s(", e->op == FAC_ZEROS ? "zeros" : e->op == FAC_FULL ? "full" : "empty");
        mt_shape_print(b, e->u.factory.rank, e->u.factory.shape);
        if (e->op == FAC_FULL) {
            mt_buf_puts(b, ", ");
            ref(p, e->args[0]);
        }
        mt_buf_printf(b, ", %s)", e->u.factory.dtype == &mt_ty_bool  ? "tl.int1"
                                  : e->u.factory.dtype == &mt_ty_i32 ? "tl.int32"
                                                                       : "tl.float32");
        break;
    case EX_DOT:
        mt_buf_puts(b, "tl.dot(");
        ref(p, e->args[0]);
        mt_buf_puts(b, ", ");
        ref(p, e->args[1]);
        mt_buf_putc(b, ')');
        break;
    default:
        mt_buf_puts(b, "?");
        break;
    }
    loc(p, e);
}

const char *mt_expr_print(MtCtx *c, const MtExprProgram *prog)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
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
