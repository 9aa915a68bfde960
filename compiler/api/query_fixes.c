/* query_fixes.c: mechanical fixes for diagnostics whose repair follows
 * from the syntax: parentheses around comparisons (E0207), & | ~ for
 * `and`, `or`, `not` and chained comparisons (E0206), a power-of-two
 * tl.arange (E0413, from the diagnostic's facts: never from its wording).
 * Runs under mt_protect; results live in the context's arena. */
#include <string.h>

#include "query.h"

/* ---- fixes ---------------------------------------------------------------------------------- */

void mt_query_add_fix(MtCtx *c, MtQueryFixes *fx, const char *title, const MtDiag *d, bool preferred, uint32_t off,
                      uint32_t end, const char *text)
{
    MtQueryEdit *e = mt_arena_alloc(&c->arena, sizeof *e);
    e->off = off;
    e->end = end;
    e->text = text;
    MtQueryFix f = {title, d, preferred, e, 1, NULL};
    mt_vec_push(&c->arena, fx, f);
}

static bool balanced(const char *s, size_t n)
{
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        depth += s[i] == '(' || s[i] == '[';
        depth -= s[i] == ')' || s[i] == ']';
        if (depth < 0)
            return false;
    }
    return depth == 0;
}

static bool is_bitop(const MtNode *n)
{
    return n->kind == ND_BINOP && (n->u.bin.op == OP_AMP || n->u.bin.op == OP_VBAR);
}

typedef struct Chain {
    MtCtx *c;
    const char *text;         /* file text */
    MtBuf out;
    uint32_t group;           /* start offset of the current group */
    bool compare;             /* the current group holds a comparison */
    bool ok;
} Chain;

static void close_group(Chain *ch, uint32_t end)
{
    size_t n = end > ch->group ? end - ch->group : 0;
    if (!balanced(ch->text + ch->group, n))
        ch->ok = false;
    if (ch->compare)
        mt_buf_putc(&ch->out, '(');
    mt_buf_putn(&ch->out, ch->text + ch->group, n);
    if (ch->compare)
        mt_buf_putc(&ch->out, ')');
}

/* Split the & / | chain inside a comparison operand into groups. */
static void split_bitops(Chain *ch, const MtNode *n, bool last_compare)
{
    if (!is_bitop(n))
        return;
    split_bitops(ch, n->u.bin.lhs, last_compare);
    const MtNode *l = n->u.bin.lhs;
    while (is_bitop(l))
        l = l->u.bin.rhs;
    close_group(ch, l->span.end);
    mt_buf_printf(&ch->out, " %s ", mt_op_text(n->u.bin.op));
    const MtNode *r = n->u.bin.rhs;
    while (is_bitop(r))
        r = r->u.bin.lhs;
    ch->group = r->span.off;
    ch->compare = false;
    split_bitops(ch, n->u.bin.rhs, last_compare);
}

/* E0207: `a < b & c < d` -> `(a < b) & (c < d)`. */
static void fix_precedence(MtCtx *c, const char *text, const MtNode *cmp, const MtDiag *d, MtQueryFixes *fx)
{
    Chain ch = {.c = c, .text = text, .group = cmp->span.off, .ok = true};
    mt_buf_init(&ch.out, &c->arena);
    const MtNodeList *it = &cmp->u.cmp.items;
    for (uint32_t i = 1; i < it->n; i++) {
        ch.compare = true; /* items[i-1] op items[i] joins the group */
        if (i + 1 < it->n)
            split_bitops(&ch, it->v[i], false);
    }
    ch.compare = true;
    close_group(&ch, cmp->span.end);
    if (ch.ok)
        mt_query_add_fix(c, fx, "Add parentheses around each comparison", d, true, cmp->span.off, cmp->span.end,
                mt_buf_str(&ch.out));
}

static bool simple_operand(const MtNode *n)
{
    return n->kind == ND_NAME || n->kind == ND_CALL || n->kind == ND_ATTR || n->kind == ND_SUBSCRIPT ||
           n->kind == ND_INT || n->kind == ND_FLOAT || n->kind == ND_TRUE || n->kind == ND_FALSE;
}

/* `a and b` -> `(a) & (b)`, `not a` -> `~(a)`, `a < b < c` -> `(a < b) & (b < c)`. */
static bool render_logic(MtBuf *b, const char *text, const MtNode *n)
{
    if (n->kind == ND_BOOLOP) {
        const char *op = n->u.boolop.op == KW_AND ? " & " : " | ";
        for (uint32_t i = 0; i < n->u.boolop.items.n; i++) {
            const MtNode *it = n->u.boolop.items.v[i];
            if (i)
                mt_buf_puts(b, op);
            bool paren = !simple_operand(it);
            if (paren)
                mt_buf_putc(b, '(');
            if (!render_logic(b, text, it))
                return false;
            if (paren)
                mt_buf_putc(b, ')');
        }
        return true;
    }
    if (n->kind == ND_UNARY && n->u.un.op == -1) {
        const MtNode *x = n->u.un.operand;
        bool paren = !simple_operand(x);
        mt_buf_puts(b, paren ? "~(" : "~");
        if (!render_logic(b, text, x))
            return false;
        if (paren)
            mt_buf_putc(b, ')');
        return true;
    }
    if (n->kind == ND_COMPARE && n->u.cmp.items.n > 2) {
        for (uint32_t i = 0; i + 1 < n->u.cmp.items.n; i++) {
            int op = n->u.cmp.ops[i];
            if (op <= 0 || n->u.cmp.negated[i])
                return false;
            const MtNode *l = n->u.cmp.items.v[i], *r = n->u.cmp.items.v[i + 1];
            mt_buf_printf(b, "%s(", i ? " & " : "");
            mt_buf_putn(b, text + l->span.off, l->span.end - l->span.off);
            mt_buf_printf(b, " %s ", mt_op_text((MtOp)op));
            mt_buf_putn(b, text + r->span.off, r->span.end - r->span.off);
            mt_buf_putc(b, ')');
        }
        return true;
    }
    if (!balanced(text + n->span.off, n->span.end - n->span.off))
        return false;
    mt_buf_putn(b, text + n->span.off, n->span.end - n->span.off);
    return true;
}

static void fix_logic(MtCtx *c, const char *text, const MtNode *n, const MtDiag *d, MtQueryFixes *fx)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    if (!render_logic(&b, text, n))
        return;
    const char *title = n->kind == ND_BOOLOP ? (n->u.boolop.op == KW_AND ? "Use & instead of 'and'" : "Use | instead of 'or'")
                        : n->kind == ND_UNARY ? "Use ~ instead of 'not'"
                                              : "Split the chained comparison with &";
    mt_query_add_fix(c, fx, title, d, true, n->span.off, n->span.end, mt_buf_str(&b));
}

/* The name a module-level `import triton` binds, or NULL. */
static const char *triton_alias(const MtModule *m)
{
    for (uint32_t i = 0; i < m->nglobals; i++)
        if (m->globals[i].kind == GL_MODULE && m->globals[i].target && !strcmp(m->globals[i].target, "triton"))
            return m->globals[i].name;
    return NULL;
}

/* E0413: the diagnostic's facts give the padded range, tl.arange(start,
 * padded_end). */
static void fix_arange(MtCtx *c, const MtModule *m, const char *text, const MtNode *call, const MtDiag *d, MtQueryFixes *fx)
{
    const MtNode *end = mt_query_call_arg(call, 1, "end");
    const MtNode *start = mt_query_call_arg(call, 0, "start");
    int64_t s, e;
    if (!mt_diag_fact(d, "arange_start", &s) || !mt_diag_fact(d, "arange_padded_end", &e) || !end || !start)
        return;
    const char *tri = triton_alias(m);
    const char *title = mt_sprintf(c, "Pad the range to %lld elements (then mask the tail)", (long long)(e - s));
    if (end->kind != ND_INT && s == 0 && tri) {
        const char *inner = mt_arena_strndup(&c->arena, text + end->span.off, end->span.end - end->span.off);
        mt_query_add_fix(c, fx, title, d, true, end->span.off, end->span.end,
                mt_sprintf(c, "%s.next_power_of_2(%s)", tri, inner));
        return;
    }
    mt_query_add_fix(c, fx, title, d, true, end->span.off, end->span.end, mt_sprintf(c, "%lld", (long long)e));
}

typedef struct FixJob {
    const MtModule *m;
    const MtDiag *d;
    MtQueryFixes out;
} FixJob;

static MtStatus fix_job(MtCtx *c, void *ud)
{
    FixJob *j = ud;
    const MtDiag *d = j->d;
    const MtFile *f = mt_ctx_file(c, j->m->file);
    if (!f || d->span.file != j->m->file || d->span.end > f->len)
        return MT_OK;
    const char *text = f->text;
    if (!strcmp(d->code, "E0207")) {
        const MtNode *n = mt_query_node_at(j->m, d->span, ND_COMPARE);
        if (n)
            fix_precedence(c, text, n, d, &j->out);
    } else if (!strcmp(d->code, "E0206")) {
        const MtNode *n = mt_query_node_at(j->m, d->span, ND_BOOLOP);
        if (!n)
            n = mt_query_node_at(j->m, d->span, ND_UNARY);
        if (!n)
            n = mt_query_node_at(j->m, d->span, ND_COMPARE);
        if (n)
            fix_logic(c, text, n, d, &j->out);
    } else if (!strcmp(d->code, "E0413")) {
        const MtNode *n = mt_query_node_at(j->m, d->span, ND_CALL);
        if (n)
            fix_arange(c, j->m, text, n, d, &j->out);
    }
    return MT_OK;
}

size_t mt_query_fixes(MtCtx *c, const MtModule *m, const MtDiag *d, const MtQueryFix **out)
{
    *out = NULL;
    if (!m || !d || !d->code)
        return 0;
    FixJob j = {m, d, {0}};
    if (mt_protect(c, fix_job, &j) != MT_OK)
        return 0;
    *out = j.out.v;
    return j.out.n;
}
