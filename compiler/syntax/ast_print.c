/* ast_print.c: the syntax tree of one jit function as text, for
 * `mytriton compile --emit ast` and golden tests.
 *
 * One node per line, children indented by two spaces under their parent:
 *
 *     FunctionDef add_kernel @3:1-9:47
 *       param BLOCK: tl.constexpr @3:30-3:49
 *       Assign @4:5-4:60
 *         target Name offsets @4:5-4:12
 *         BinOp + @4:15-4:60
 *
 * A line is [role] Kind [data] @line:col-line:col, with the kind named as
 * mt_node_kind_name() names it, the data a node's key content (a name, an
 * operator, a literal in Python repr, an unsupported construct's name) and
 * the span half-open in columns, as MtSpan stores it. A role says what a
 * child is where its position does not (target, test, iter, annotation,
 * lo/hi/step, msg, keyword NAME); statement bodies get a `body` or
 * `orelse` header line. Parameters are listed with their annotation and
 * default as written in the source.
 *
 * The text is arena-allocated: like every allocating library call, it
 * must run under mt_protect (the CLI's compile path does).
 */
#include "ast.h"
#include "base/ctx.h"
#include "base/strbuf.h"

static void print_node(MtBuf *b, const MtNode *n, int depth, const char *role);

static void put_span(MtBuf *b, MtSpan s)
{
    mt_buf_printf(b, " @%u:%u-%u:%u\n", s.line, s.col, s.end_line, s.end_col);
}

static void put_source(MtBuf *b, const MtCtx *c, MtSpan s)
{
    const MtFile *f = mt_ctx_file(c, s.file);
    if (f && s.off <= s.end && s.end <= f->len)
        mt_buf_putn(b, f->text + s.off, s.end - s.off);
}

/* A string value in Python-repr-like form: double quotes, C escapes for
 * control characters, UTF-8 left as is. */
static void put_string(MtBuf *b, const char *s, uint32_t n)
{
    mt_buf_putc(b, '"');
    for (uint32_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        switch (ch) {
        case '"': mt_buf_puts(b, "\\\""); break;
        case '\\': mt_buf_puts(b, "\\\\"); break;
        case '\n': mt_buf_puts(b, "\\n"); break;
        case '\t': mt_buf_puts(b, "\\t"); break;
        case '\r': mt_buf_puts(b, "\\r"); break;
        default:
            if (ch < 0x20 || ch == 0x7F)
                mt_buf_printf(b, "\\x%02x", ch);
            else
                mt_buf_putc(b, (char)ch);
        }
    }
    mt_buf_putc(b, '"');
}

static const char *compare_text(int op, bool negated)
{
    if (op == -KW_IN)
        return negated ? "not in" : "in";
    if (op == -KW_IS)
        return negated ? "is not" : "is";
    return mt_op_text((MtOp)op);
}

/* The head of a node's line: role, kind and key data. */
static void put_head(MtBuf *b, const MtNode *n, int depth, const char *role)
{
    mt_buf_indent(b, 2 * depth);
    if (role)
        mt_buf_printf(b, "%s ", role);
    mt_buf_puts(b, mt_node_kind_name((MtNodeKind)n->kind));
    char num[32];
    switch (n->kind) {
    case ND_NAME: mt_buf_printf(b, " %s", n->u.name); break;
    case ND_INT:
        if (n->u.num.overflow)
            mt_buf_puts(b, " (beyond int64)");
        else
            mt_buf_printf(b, " %lld", (long long)n->u.num.i);
        break;
    case ND_FLOAT:
        mt_format_pyfloat(num, n->u.num.f);
        mt_buf_printf(b, " %s", num);
        break;
    case ND_STR:
        mt_buf_putc(b, ' ');
        put_string(b, n->u.str.s, n->u.str.len);
        break;
    case ND_BINOP: mt_buf_printf(b, " %s", mt_op_text(n->u.bin.op)); break;
    case ND_UNARY: mt_buf_printf(b, " %s", n->u.un.op == -1 ? "not" : mt_op_text((MtOp)n->u.un.op)); break;
    case ND_BOOLOP: mt_buf_printf(b, " %s", mt_kw_text(n->u.boolop.op)); break;
    case ND_COMPARE:
        for (uint32_t i = 0; i + 1 < n->u.cmp.items.n; i++)
            mt_buf_printf(b, "%s%s", i ? ", " : " ", compare_text(n->u.cmp.ops[i], n->u.cmp.negated[i]));
        break;
    case ND_ATTR: mt_buf_printf(b, " %s", n->u.attr.name); break;
    case ND_UNSUPPORTED:
    case ND_UNSUPPORTED_STMT: mt_buf_printf(b, " %s", n->u.unsup.what); break;
    case ND_AUGASSIGN: mt_buf_printf(b, " %s=", mt_op_text(n->u.aug.op)); break;
    case ND_IF:
        if (n->u.if_.elif)
            mt_buf_puts(b, " elif");
        break;
    default: break;
    }
    put_span(b, n->span);
}

static void print_opt(MtBuf *b, const MtNode *n, int depth, const char *role)
{
    if (n)
        print_node(b, n, depth, role);
}

static void print_list(MtBuf *b, MtNodeList l, int depth, const char *role)
{
    for (uint32_t i = 0; i < l.n; i++)
        print_node(b, l.v[i], depth, role);
}

/* A statement body under a `body` / `orelse` header line. */
static void print_block(MtBuf *b, MtNodeList l, int depth, const char *header)
{
    if (!l.n && header[0] == 'o')
        return;
    mt_buf_indent(b, 2 * depth);
    mt_buf_printf(b, "%s\n", header);
    print_list(b, l, depth + 1, NULL);
}

static void print_node(MtBuf *b, const MtNode *n, int depth, const char *role)
{
    put_head(b, n, depth, role);
    int d = depth + 1;
    switch (n->kind) {
    case ND_BINOP:
        print_node(b, n->u.bin.lhs, d, NULL);
        print_node(b, n->u.bin.rhs, d, NULL);
        break;
    case ND_UNARY: print_node(b, n->u.un.operand, d, NULL); break;
    case ND_BOOLOP: print_list(b, n->u.boolop.items, d, NULL); break;
    case ND_COMPARE: print_list(b, n->u.cmp.items, d, NULL); break;
    case ND_TUPLE:
    case ND_LIST: print_list(b, n->u.list, d, NULL); break;
    case ND_CALL:
        print_node(b, n->u.call.fn, d, NULL);
        print_list(b, n->u.call.args, d, NULL);
        for (uint32_t i = 0; i < n->u.call.nkw; i++) {
            const MtKeyword *k = &n->u.call.kw[i];
            mt_buf_indent(b, 2 * d);
            mt_buf_printf(b, "keyword %s", k->name ? k->name : "**");
            put_span(b, k->span);
            print_node(b, k->value, d + 1, NULL);
        }
        break;
    case ND_ATTR: print_node(b, n->u.attr.value, d, NULL); break;
    case ND_SUBSCRIPT:
        print_node(b, n->u.sub.value, d, NULL);
        print_node(b, n->u.sub.index, d, NULL);
        break;
    case ND_SLICE:
        print_opt(b, n->u.slice.lo, d, "lo");
        print_opt(b, n->u.slice.hi, d, "hi");
        print_opt(b, n->u.slice.step, d, "step");
        break;
    case ND_IFEXP:
        print_node(b, n->u.ifexp.body, d, "body");
        print_node(b, n->u.ifexp.test, d, "test");
        print_node(b, n->u.ifexp.orelse, d, "orelse");
        break;
    case ND_UNSUPPORTED:
    case ND_UNSUPPORTED_STMT: print_opt(b, n->u.unsup.inner, d, NULL); break;
    case ND_EXPR_STMT:
    case ND_RETURN: print_opt(b, n->u.expr, d, NULL); break;
    case ND_ASSIGN:
        print_list(b, n->u.assign.targets, d, "target");
        print_node(b, n->u.assign.value, d, NULL);
        break;
    case ND_AUGASSIGN:
        print_node(b, n->u.aug.target, d, "target");
        print_node(b, n->u.aug.value, d, NULL);
        break;
    case ND_ANNASSIGN:
        print_node(b, n->u.ann.target, d, "target");
        print_node(b, n->u.ann.annotation, d, "annotation");
        print_opt(b, n->u.ann.value, d, NULL);
        break;
    case ND_FOR:
        print_node(b, n->u.for_.target, d, "target");
        print_node(b, n->u.for_.iter, d, "iter");
        print_block(b, n->u.for_.body, d, "body");
        print_block(b, n->u.for_.orelse, d, "orelse");
        break;
    case ND_IF:
        print_node(b, n->u.if_.test, d, "test");
        print_block(b, n->u.if_.body, d, "body");
        print_block(b, n->u.if_.orelse, d, "orelse");
        break;
    case ND_WHILE:
        print_node(b, n->u.while_.test, d, "test");
        print_block(b, n->u.while_.body, d, "body");
        print_block(b, n->u.while_.orelse, d, "orelse");
        break;
    case ND_ASSERT:
        print_node(b, n->u.assert_.test, d, "test");
        print_opt(b, n->u.assert_.msg, d, "msg");
        break;
    default: break;
    }
}

static const char *param_prefix(MtParamKind k)
{
    return k == PARAM_VARARGS ? "*" : k == PARAM_KWARGS ? "**" : "";
}

const char *mt_ast_print(MtCtx *c, const MtFuncDef *fn)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    mt_buf_printf(&b, "FunctionDef %s", fn->name);
    put_span(&b, fn->span);
    if (fn->directive) {
        mt_buf_printf(&b, "  directive %s", fn->directive);
        put_span(&b, fn->directive_span);
    }
    for (uint32_t i = 0; i < fn->nparams; i++) {
        const MtParam *prm = &fn->params[i];
        mt_buf_printf(&b, "  param %s%s", param_prefix(prm->kind), prm->name);
        if (prm->annotation) {
            mt_buf_puts(&b, ": ");
            put_source(&b, c, prm->annotation->span);
        }
        if (prm->default_) {
            mt_buf_puts(&b, " = ");
            put_source(&b, c, prm->default_->span);
        }
        if (prm->kind == PARAM_KWONLY)
            mt_buf_puts(&b, " (keyword-only)");
        put_span(&b, prm->span);
    }
    print_list(&b, fn->body, 1, NULL);
    return mt_buf_str(&b);
}
