/* print.c: the SSA text format of the seed documents.
 *
 *   %3 = add %1, %2 : vector<256 x i32>
 *   %6 = load %4, %5, 0.0 : vector<256 x f32>
 *   store %10, %9, %5
 *   %0 = zeros {shape=(8,), dtype=f32} : vector<8 x f32>
 *   %5 = for %0 in range(0, K, 1) iter_args(%1 = 0.0) : f32 { ... }
 *
 * Parameters print by name, constants inline (Python spelling), absent
 * operands as "none". Nested regions indent by two spaces. */
#include <inttypes.h>

#include "base/strbuf.h"
#include "ssa.h"

void mt_ssa_print_operand(MtBuf *b, const MtFunc *f, MtVal v)
{
    if (!v) {
        mt_buf_puts(b, "none");
        return;
    }
    const MtValue *x = &f->vals[v];
    switch (x->kind) {
    case VK_PARAM:
        mt_buf_puts(b, x->name);
        return;
    case VK_CONST:
        mt_const_print(b, x->cst);
        if (x->ty != mt_const_natural_type(x->cst)) {
            /* a Python scalar that took an operation's type: 1.5:f16 */
            mt_buf_putc(b, ':');
            mt_ty_print(b, x->ty);
        }
        return;
    default:
        mt_buf_printf(b, "%%%u", x->num);
    }
}

static void print_args(MtBuf *b, const MtFunc *f, const MtVal *args, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            mt_buf_puts(b, ", ");
        mt_ssa_print_operand(b, f, args[i]);
    }
}

static void print_region(MtBuf *b, const MtFunc *f, const MtRegion *r, int indent);

static void print_for(MtBuf *b, const MtFunc *f, const MtInst *in, int indent)
{
    const MtForData *l = in->loop;
    mt_buf_mark(b, in->span, in->inl);
    mt_buf_indent(b, indent);
    for (uint32_t i = 0; i < l->ncarried; i++)
        mt_buf_printf(b, i ? ", %%%u" : "%%%u", f->vals[l->results[i]].num);
    if (l->ncarried)
        mt_buf_puts(b, " = ");
    mt_buf_printf(b, "for %%%u in range(", f->vals[l->iv].num);
    mt_ssa_print_operand(b, f, in->args[0]);
    mt_buf_puts(b, ", ");
    mt_ssa_print_operand(b, f, in->args[1]);
    if (l->dyn_step) {
        mt_buf_puts(b, ", ");
        mt_ssa_print_operand(b, f, in->args[2 + l->ncarried]);
        mt_buf_putc(b, ')');
    } else {
        mt_buf_printf(b, ", %" PRId64 ")", l->step);
    }
    if (l->ncarried) {
        mt_buf_puts(b, " iter_args(");
        for (uint32_t i = 0; i < l->ncarried; i++) {
            if (i)
                mt_buf_puts(b, ", ");
            mt_buf_printf(b, "%%%u = ", f->vals[l->iter_args[i]].num);
            mt_ssa_print_operand(b, f, in->args[2 + i]);
        }
        mt_buf_puts(b, ") : ");
        for (uint32_t i = 0; i < l->ncarried; i++) {
            if (i)
                mt_buf_puts(b, ", ");
            mt_ty_print(b, f->vals[l->results[i]].ty);
        }
    }
    mt_buf_puts(b, " {\n");
    print_region(b, f, &l->body, indent + 2);
    mt_buf_mark(b, in->span, in->inl);
    mt_buf_indent(b, indent);
    mt_buf_puts(b, "}\n");
}

/* " {axis=N, keep_dims, reverse}" */
static void print_axis(MtBuf *b, const MtInst *in)
{
    mt_buf_printf(b, " {axis=%d", in->attr.axis);
    if (in->attr.flags & MT_KEEP_DIMS)
        mt_buf_puts(b, ", keep_dims");
    if (in->attr.flags & MT_REVERSE)
        mt_buf_puts(b, ", reverse");
    mt_buf_putc(b, '}');
}

/* %r... = reduce %x... {axis=N} combine(%a..., %b...) : types {
 *   ...
 *   yield ...
 * } */
static void print_nest(MtBuf *b, const MtFunc *f, const MtInst *in, int indent)
{
    const MtNest *x = in->nest;
    mt_buf_mark(b, in->span, in->inl);
    mt_buf_indent(b, indent);
    for (uint32_t i = 0; i < x->nresults; i++)
        mt_buf_printf(b, i ? ", %%%u" : "%%%u", f->vals[x->results[i]].num);
    if (x->nresults)
        mt_buf_puts(b, " = ");
    mt_buf_puts(b, mt_op_info[in->op].text);
    mt_buf_putc(b, ' ');
    print_args(b, f, in->args, in->nargs);
    print_axis(b, in);
    mt_buf_puts(b, " combine(");
    for (uint32_t i = 0; i < x->body[0].nargs; i++)
        mt_buf_printf(b, i ? ", %%%u" : "%%%u", f->vals[x->body[0].args[i]].num);
    mt_buf_puts(b, ") : ");
    for (uint32_t i = 0; i < x->nresults; i++) {
        if (i)
            mt_buf_puts(b, ", ");
        mt_ty_print(b, f->vals[x->results[i]].ty);
    }
    mt_buf_puts(b, " {\n");
    print_region(b, f, &x->body[0].insts, indent + 2);
    mt_buf_mark(b, in->span, in->inl);
    mt_buf_indent(b, indent);
    mt_buf_puts(b, "}\n");
}

static void print_results(MtBuf *b, const MtFunc *f, const MtNest *x)
{
    for (uint32_t i = 0; i < x->nresults; i++)
        mt_buf_printf(b, i ? ", %%%u" : "%%%u", f->vals[x->results[i]].num);
    if (x->nresults)
        mt_buf_puts(b, " = ");
}

static void print_types(MtBuf *b, const MtFunc *f, const MtNest *x)
{
    for (uint32_t i = 0; i < x->nresults; i++) {
        mt_buf_puts(b, i ? ", " : " : ");
        mt_ty_print(b, f->vals[x->results[i]].ty);
    }
}

static void print_close(MtBuf *b, const MtInst *in, int indent, const char *then)
{
    mt_buf_mark(b, in->span, in->inl);
    mt_buf_indent(b, indent);
    mt_buf_puts(b, then);
}

/* %r... = if %c : types {  ...  yield ...  } else {  ...  yield ...  } */
static void print_if(MtBuf *b, const MtFunc *f, const MtInst *in, int indent)
{
    const MtNest *x = in->nest;
    mt_buf_mark(b, in->span, in->inl);
    mt_buf_indent(b, indent);
    print_results(b, f, x);
    mt_buf_puts(b, "if ");
    mt_ssa_print_operand(b, f, in->args[0]);
    print_types(b, f, x);
    mt_buf_puts(b, " {\n");
    print_region(b, f, &x->body[0].insts, indent + 2);
    print_close(b, in, indent, "} else {\n");
    print_region(b, f, &x->body[1].insts, indent + 2);
    print_close(b, in, indent, "}\n");
}

/* %r... = while (%a = init, ...) : types {  ...  condition %c, %v...  } do (%b, ...) {  ...  yield ...  } */
static void print_while(MtBuf *b, const MtFunc *f, const MtInst *in, int indent)
{
    const MtNest *x = in->nest;
    mt_buf_mark(b, in->span, in->inl);
    mt_buf_indent(b, indent);
    print_results(b, f, x);
    mt_buf_puts(b, "while (");
    for (uint32_t i = 0; i < x->body[0].nargs; i++) {
        mt_buf_printf(b, "%s%%%u = ", i ? ", " : "", f->vals[x->body[0].args[i]].num);
        mt_ssa_print_operand(b, f, in->args[i]);
    }
    mt_buf_putc(b, ')');
    print_types(b, f, x);
    mt_buf_puts(b, " {\n");
    print_region(b, f, &x->body[0].insts, indent + 2);
    print_close(b, in, indent, "} do (");
    for (uint32_t i = 0; i < x->body[1].nargs; i++)
        mt_buf_printf(b, i ? ", %%%u" : "%%%u", f->vals[x->body[1].args[i]].num);
    mt_buf_puts(b, ") {\n");
    print_region(b, f, &x->body[1].insts, indent + 2);
    print_close(b, in, indent, "}\n");
}

/* A string attribute in double quotes: \" \\ \n and \xNN for other control characters. */
static void print_string(MtBuf *b, const char *s)
{
    mt_buf_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            mt_buf_printf(b, "\\%c", *p);
        else if (*p == '\n')
            mt_buf_puts(b, "\\n");
        else if (*p < 0x20 || *p == 0x7f)
            mt_buf_printf(b, "\\x%02x", *p);
        else
            mt_buf_putc(b, (char)*p);
    }
    mt_buf_putc(b, '"');
}

void mt_ssa_print_inst(MtBuf *b, const MtFunc *f, const MtInst *in, int indent)
{
    if (in->op == OP_FOR) {
        print_for(b, f, in, indent);
        return;
    }
    if (in->nest && in->op == OP_IF) {
        print_if(b, f, in, indent);
        return;
    }
    if (in->nest && in->op == OP_WHILE) {
        print_while(b, f, in, indent);
        return;
    }
    if (in->nest) {
        print_nest(b, f, in, indent);
        return;
    }
    mt_buf_mark(b, in->span, in->inl);
    mt_buf_indent(b, indent);
    if (in->dst)
        mt_buf_printf(b, "%%%u = ", f->vals[in->dst].num);
    mt_buf_puts(b, mt_op_info[in->op].text);
    if (in->nargs) {
        mt_buf_putc(b, ' ');
        print_args(b, f, in->args, in->nargs);
    }
    switch (in->op) {
    case OP_PROGRAM_ID:
    case OP_NUM_PROGRAMS:
        mt_buf_printf(b, " {axis=%d}", in->attr.axis);
        break;
    case OP_CAST:
        if (in->attr.mode == MT_ROUND_RTZ)
            mt_buf_puts(b, " {rounding=rtz}");
        break;
    case OP_EXPAND_DIMS:
        mt_buf_printf(b, " {axis=%d}", in->attr.axis);
        break;
    case OP_DOT:
        if (in->attr.mode == MT_DOT_TF32)
            mt_buf_puts(b, " {precision=tf32}");
        break;
    case OP_SUM:
    case OP_MAX:
    case OP_MIN:
    case OP_XOR_SUM:
        /* a rank-1 block reduces along its only axis: nothing to print (the seeds' form) */
        if (mt_ty_rank(mt_val_ty(f, in->args[0])) > 1 || in->attr.flags)
            print_axis(b, in);
        break;
    case OP_CUMSUM:
    case OP_CUMPROD:
        print_axis(b, in);
        break;
    case OP_MULTIPLE_OF:
    case OP_MAX_CONTIGUOUS:
    case OP_MAX_CONSTANCY:
        mt_buf_puts(b, " {values=");
        mt_shape_print(b, in->attr.rank, in->attr.shape);
        mt_buf_putc(b, '}');
        break;
    case OP_PERMUTE:
        mt_buf_puts(b, " {order=");
        mt_shape_print(b, in->attr.rank, in->attr.shape);
        mt_buf_putc(b, '}');
        break;
    case OP_ARANGE:
        mt_buf_printf(b, " {start=%" PRId64 ", end=%" PRId64 "}", in->attr.start, in->attr.end);
        break;
    case OP_ZEROS:
    case OP_FULL:
    case OP_EMPTY:
        mt_buf_puts(b, " {shape=");
        mt_shape_print(b, in->attr.rank, in->attr.shape);
        mt_buf_puts(b, ", dtype=");
        mt_ty_print(b, in->attr.dtype);
        mt_buf_putc(b, '}');
        break;
    case OP_DEVICE_PRINT:
        mt_buf_puts(b, " {prefix=");
        print_string(b, in->attr.text);
        mt_buf_puts(b, in->attr.flags & MT_HEX ? ", hex}" : "}");
        break;
    case OP_DEVICE_ASSERT:
        mt_buf_puts(b, " {msg=");
        print_string(b, in->attr.text);
        mt_buf_putc(b, '}');
        break;
    default:
        if (mt_op_class(in->op) == OC_ATOMIC)
            mt_buf_printf(b, " {sem=%s, scope=%s}", mt_mem_sem_names[in->attr.sem], mt_mem_scope_names[in->attr.scope]);
        break;
    }
    if (in->ty) {
        mt_buf_puts(b, " : ");
        mt_ty_print(b, in->ty);
    }
    mt_buf_putc(b, '\n');
}

static void print_region(MtBuf *b, const MtFunc *f, const MtRegion *r, int indent)
{
    for (uint32_t i = 0; i < r->n; i++)
        mt_ssa_print_inst(b, f, r->v[i], indent);
}

const char *mt_ssa_print_marked(MtCtx *c, const MtFunc *f, MtLineMarks *marks)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    mt_buf_record_marks(&b, marks);
    print_region(&b, f, &f->body, 0);
    return mt_buf_str(&b);
}

const char *mt_ssa_print(MtCtx *c, const MtFunc *f) { return mt_ssa_print_marked(c, f, NULL); }
