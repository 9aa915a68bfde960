/* query.c: what an editor asks of a parsed module and a compiled kernel.
 *
 * The language server never sees the syntax tree, the expression tree or
 * the SSA; it asks here, by byte offset. Three kinds of question:
 *
 *  - names (syntax only): which binding a name at an offset refers to. A
 *    jit function's bindings are its parameters and every target of an
 *    assignment or `for`, in source order; a use refers to the last one
 *    that precedes it, which is what the frontend's straight-line run of
 *    the body binds (a runtime loop's carried names keep one type, so the
 *    binding before the loop describes them too). Then module-level names.
 *  - values (needs a typed expression tree): expression nodes keep the
 *    span of the source expression that made them, so the value of a name
 *    is the node whose span is its binding's right-hand side, and the
 *    value at a position is the innermost typed node around it. The SSA
 *    instruction and the CUDA layout of a node are found the same way, by
 *    span and type, after optimisation.
 *  - edits: mechanical fixes for diagnostics whose repair follows from
 *    the syntax (parentheses, & for `and`, a power-of-two arange) and
 *    refactorings of loads and stores (mask=, other=).
 *
 * Everything that allocates runs under mt_protect, like every library
 * entry point. Results live in the context's arena. */
#include <stdlib.h>
#include <string.h>

#include "compiled.h"

/* ---- bindings of one jit function ---------------------------------------------------- */

typedef struct Bind {
    const char *name;
    MtQueryDefKind kind;
    MtSpan def;               /* the target name */
    MtSpan value;             /* right-hand side (zero when unknown) */
    uint32_t from;            /* byte offset from which uses see it */
} Bind;

typedef MT_VEC(Bind) Binds;

/* Bindings are collected into a fixed-size scratch array when no arena is
 * at hand (mt_query_definition takes a const module and no context). */
typedef struct BindSet {
    MtCtx *c;                 /* NULL: fixed storage only */
    Binds v;
    Bind fixed[256];
    uint32_t nfixed;
} BindSet;

static void push_bind(BindSet *s, Bind b)
{
    if (s->c) {
        mt_vec_push(&s->c->arena, &s->v, b);
    } else if (s->nfixed < sizeof s->fixed / sizeof s->fixed[0]) {
        s->fixed[s->nfixed++] = b;
    }
}

static Bind *bind_list(BindSet *s, uint32_t *n)
{
    *n = s->c ? s->v.n : s->nfixed;
    return s->c ? s->v.v : s->fixed;
}

static const MtSpan no_span;

static void bind_target(BindSet *s, const MtNode *t, const MtNode *value, MtSpan value_span, MtQueryDefKind kind,
                        uint32_t from)
{
    if (t->kind == ND_NAME) {
        Bind b = {t->u.name, kind, t->span, value_span, from};
        push_bind(s, b);
        return;
    }
    if (t->kind != ND_TUPLE && t->kind != ND_LIST)
        return;
    /* `a, b = x, y`: each name gets its element; otherwise the whole value. */
    bool split = value && (value->kind == ND_TUPLE || value->kind == ND_LIST) && value->u.list.n == t->u.list.n;
    for (uint32_t i = 0; i < t->u.list.n; i++)
        bind_target(s, t->u.list.v[i], split ? value->u.list.v[i] : NULL,
                    split ? value->u.list.v[i]->span : kind == MT_DEF_LOOP ? value_span : no_span, kind, from);
}

static void bind_block(BindSet *s, const MtNodeList *body)
{
    for (uint32_t i = 0; i < body->n; i++) {
        const MtNode *st = body->v[i];
        switch ((MtNodeKind)st->kind) {
        case ND_ASSIGN:
            for (uint32_t t = 0; t < st->u.assign.targets.n; t++)
                bind_target(s, st->u.assign.targets.v[t], st->u.assign.value, st->u.assign.value->span,
                            MT_DEF_LOCAL, st->span.end);
            break;
        case ND_AUGASSIGN:
            /* The frontend gives the combined value the statement's span. */
            bind_target(s, st->u.aug.target, NULL, st->span, MT_DEF_LOCAL, st->span.end);
            break;
        case ND_ANNASSIGN:
            if (st->u.ann.value)
                bind_target(s, st->u.ann.target, st->u.ann.value, st->u.ann.value->span, MT_DEF_LOCAL, st->span.end);
            break;
        case ND_FOR:
            bind_target(s, st->u.for_.target, NULL, st->u.for_.iter->span, MT_DEF_LOOP, st->u.for_.target->span.off);
            bind_block(s, &st->u.for_.body);
            bind_block(s, &st->u.for_.orelse);
            break;
        case ND_IF:
            bind_block(s, &st->u.if_.body);
            bind_block(s, &st->u.if_.orelse);
            break;
        case ND_WHILE:
            bind_block(s, &st->u.while_.body);
            bind_block(s, &st->u.while_.orelse);
            break;
        default:
            break;
        }
    }
}

static void bind_function(BindSet *s, const MtFuncDef *f)
{
    for (uint32_t i = 0; i < f->nparams; i++) {
        Bind b = {f->params[i].name, MT_DEF_PARAM, f->params[i].name_span,
                  f->params[i].default_ ? f->params[i].default_->span : no_span, 0};
        push_bind(s, b);
    }
    bind_block(s, &f->body);
}

static bool contains(MtSpan sp, uint32_t off) { return sp.line && off >= sp.off && off < sp.end; }
static bool same_range(MtSpan a, MtSpan b) { return a.file == b.file && a.off == b.off && a.end == b.end; }

static int func_at(const MtModule *m, uint32_t off)
{
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (off >= m->funcs[i]->span.off && off < m->funcs[i]->span.end)
            return (int)i;
    return -1;
}

typedef struct NameSearch {
    uint32_t off;
    const MtNode *hit;
} NameSearch;

static bool find_name(const MtNode *n, void *ud)
{
    NameSearch *s = ud;
    if (!contains(n->span, s->off))
        return true; /* a parenthesised child may lie outside its parent's span; keep looking */
    if (n->kind == ND_NAME)
        s->hit = n;
    return true;
}

/* The binding that a use of `name` at `off` sees. */
static const Bind *resolve(Bind *v, uint32_t n, const char *name, uint32_t off)
{
    const Bind *best = NULL;
    for (uint32_t i = 0; i < n; i++) {
        if (strcmp(v[i].name, name))
            continue;
        if (contains(v[i].def, off))
            return &v[i];
        if (v[i].from <= off && (!best || v[i].from >= best->from))
            best = &v[i];
    }
    return best;
}

static bool global_def(const MtModule *m, const char *name, MtQueryDef *out)
{
    const MtGlobal *g = mt_module_global(m, name);
    if (!g)
        return false;
    switch (g->kind) {
    case GL_JIT:
        out->kind = MT_DEF_FUNCTION;
        out->def = g->fn->name_span;
        out->value = g->fn->span;
        return true;
    case GL_MODULE:
    case GL_FROM:
        out->kind = MT_DEF_IMPORT;
        out->def = g->span;
        return true;
    case GL_VALUE:
    case GL_OTHER:
        out->kind = MT_DEF_GLOBAL;
        out->def = g->span;
        out->value = g->value ? g->value->span : no_span;
        return true;
    }
    return false;
}

static bool definition(BindSet *s, const MtModule *m, uint32_t off, MtQueryDef *out)
{
    memset(out, 0, sizeof *out);
    out->func = UINT32_MAX;
    int fi = func_at(m, off);
    if (fi < 0)
        return false;
    const MtFuncDef *f = m->funcs[fi];
    out->func = (uint32_t)fi;
    if (contains(f->name_span, off)) {
        out->kind = MT_DEF_FUNCTION;
        out->name = f->name;
        out->use = out->def = f->name_span;
        out->value = f->span;
        return true;
    }
    bind_function(s, f);
    uint32_t n;
    Bind *v = bind_list(s, &n);
    NameSearch ns = {off, NULL};
    mt_ast_walk_body(f, find_name, &ns);
    const char *name = ns.hit ? ns.hit->u.name : NULL;
    MtSpan use = ns.hit ? ns.hit->span : no_span;
    for (uint32_t i = 0; !name && i < n; i++)
        if (v[i].kind == MT_DEF_PARAM && contains(v[i].def, off)) {
            name = v[i].name;
            use = v[i].def;
        }
    if (!name)
        return false;
    out->name = name;
    out->use = use;
    const Bind *b = resolve(v, n, name, off);
    if (b) {
        out->kind = b->kind;
        out->def = b->def;
        out->value = b->value;
        return true;
    }
    if (global_def(m, name, out))
        return true;
    out->kind = MT_DEF_NONE;
    return true;
}

bool mt_query_definition(const MtModule *m, uint32_t off, MtQueryDef *out)
{
    BindSet s = {0};
    return m && definition(&s, m, off, out);
}

/* ---- helpers and kernels --------------------------------------------------------------- */

typedef struct CallSearch {
    const char *name;
    bool found;
} CallSearch;

static bool find_call(const MtNode *n, void *ud)
{
    CallSearch *s = ud;
    if (n->kind == ND_CALL && n->u.call.fn->kind == ND_NAME && !strcmp(n->u.call.fn->u.name, s->name))
        s->found = true;
    return !s->found;
}

bool mt_query_is_helper(const MtModule *m, size_t i)
{
    if (!m || i >= m->nfuncs)
        return false;
    CallSearch s = {m->funcs[i]->name, false};
    for (uint32_t j = 0; j < m->nfuncs && !s.found; j++)
        if (j != i)
            mt_ast_walk_body(m->funcs[j], find_call, &s);
    return s.found;
}

/* ---- values ------------------------------------------------------------------------------- */

typedef struct InstSearch {
    MtSpan span;
    const MtType *ty;
    const MtExprLoop *loop;   /* looking for this loop's `for` instead */
    MtInst *hit;
} InstSearch;

static void find_inst(MtInst *in, void *ud)
{
    InstSearch *s = ud;
    if (s->loop) {
        if (in->op == OP_FOR && same_range(in->span, s->loop->span))
            s->hit = in;
        return;
    }
    if (in->ty && in->ty == s->ty && same_range(in->span, s->span))
        s->hit = in;
}

static const char *first_line(MtCtx *c, const char *t)
{
    size_t n = strcspn(t, "\n");
    return mt_arena_strndup(&c->arena, t, n);
}

static const char *inst_text(MtCtx *c, const MtFunc *f, const MtInst *in)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    mt_ssa_print_inst(&b, f, in, 0);
    return first_line(c, mt_buf_str(&b));
}

static const char *value_layout(MtCtx *c, const MtCompiled *k, MtVal v)
{
    if ((!k->layout && !k->kernel) || !v)
        return NULL;
    const MtType *ty = mt_val_ty(k->func, v);
    if (ty && ty->kind != TY_BLOCK)
        return "uniform: one scalar, the same in every thread of the block";
    return mt_compiled_layout_describe(c, k, v);
}

/* The optimised SSA and the layout of an expression node. */
static void node_ssa(MtCtx *c, MtCompiled *k, const MtExpr *e, MtQueryValue *out)
{
    if (!k->func || !k->optimized)
        return;
    InstSearch s = {e->span, e->ty, NULL, NULL};
    if (e->kind == EX_LOOP_IV || e->kind == EX_LOOP_ARG || e->kind == EX_LOOP_RESULT)
        s.loop = e->kind == EX_LOOP_IV ? e->u.loop : e->u.slot.loop;
    mt_func_walk(k->func, find_inst, &s);
    if (!s.hit)
        return;
    out->ssa = inst_text(c, k->func, s.hit);
    MtVal v = s.hit->dst;
    if (s.loop && s.hit->loop) {
        const MtForData *l = s.hit->loop;
        uint32_t i = e->kind == EX_LOOP_IV ? 0 : e->u.slot.index;
        v = e->kind == EX_LOOP_IV ? l->iv : i < l->ncarried ? (e->kind == EX_LOOP_ARG ? l->iter_args[i] : l->results[i]) : 0;
    }
    out->layout = value_layout(c, k, v);
}

/* How hover names what computed a node: an operator or math function by
 * its SSA name ("add", "exp"), a tl function by its call. */
static const char *op_what(MtCtx *c, const MtExpr *e)
{
    switch (e->op) {
    case OP_PROGRAM_ID: return mt_sprintf(c, "tl.program_id(%d)", e->attr.axis);
    case OP_ARANGE: return mt_sprintf(c, "tl.arange(%lld, %lld)", (long long)e->attr.start, (long long)e->attr.end);
    case OP_EXPAND_DIMS: return "expand_dims";
    default: break;
    }
    switch (mt_op_class(e->op)) {
    case OC_ARITH:
    case OC_BITWISE:
    case OC_COMPARE:
    case OC_UNARY:
    case OC_MATH:
        return mt_op_info[e->op].text;
    default:
        return mt_op_info[e->op].py;
    }
}

static const char *node_what(MtCtx *c, const MtExpr *e)
{
    switch ((MtExprKind)e->kind) {
    case EX_PARAM: return "parameter";
    case EX_CONST: return "constant";
    case EX_OP: return op_what(c, e);
    case EX_FOR: return "runtime loop";
    case EX_LOOP_IV: return "loop variable";
    case EX_LOOP_ARG: return "loop-carried value";
    case EX_LOOP_RESULT: return "loop result";
    case EX_NEST: return mt_op_info[e->op].py;
    case EX_NEST_ARG: return "combine argument";
    case EX_NEST_RESULT: return mt_sprintf(c, "%s result", mt_op_info[e->u.nslot.nest->node->op].py);
    case EX_KIND_COUNT_: break;
    }
    return "value";
}

/* Nodes like e (same range, kind and operator): one per unrolled
 * iteration or inlined call. */
static uint32_t count_like(const MtExprProgram *p, const MtExpr *e)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->all.n; i++) {
        const MtExpr *x = p->all.v[i];
        n += x->ty && x->kind == e->kind && x->op == e->op && same_range(x->span, e->span);
    }
    return n;
}

/* The last typed node made for exactly this range: the outermost one,
 * since an operation is created after its operands. */
static const MtExpr *node_for(const MtExprProgram *p, MtSpan sp)
{
    const MtExpr *best = NULL;
    for (uint32_t i = 0; i < p->all.n; i++) {
        const MtExpr *e = p->all.v[i];
        if (e->ty && e->ty != &mt_ty_void && same_range(e->span, sp))
            best = e;
    }
    return best;
}

static void fill_node(MtCtx *c, MtCompiled *k, const MtExpr *e, bool ssa, MtQueryValue *out)
{
    out->value_span = e->span;
    out->type = mt_ty_str(c, e->ty);
    out->what = node_what(c, e);
    out->instances = count_like(k->prog, e);
    if (e->kind == EX_CONST) {
        MtBuf b;
        mt_buf_init(&b, &c->arena);
        mt_const_print(&b, e->u.cst);
        out->value = mt_buf_str(&b);
    }
    if (ssa)
        node_ssa(c, k, e, out);
}

static const char *source_of(MtCtx *c, MtSpan sp, size_t max)
{
    const MtFile *f = mt_ctx_file(c, sp.file);
    if (!f || sp.end <= sp.off || sp.end > f->len)
        return NULL;
    size_t n = sp.end - sp.off;
    if (n > max)
        return mt_sprintf(c, "%.*s...", (int)max, f->text + sp.off);
    return mt_arena_strndup(&c->arena, f->text + sp.off, n);
}

/* Whether function f of the module contributed nodes to k: k's own
 * function, or a helper inlined into it. */
static bool in_kernel(const MtCompiled *k, const MtFuncDef *f)
{
    if (f == k->fn)
        return true;
    for (uint32_t i = 0; i < k->prog->all.n; i++) {
        const MtExpr *e = k->prog->all.v[i];
        if (e->inl && e->span.off >= f->span.off && e->span.end <= f->span.end)
            return true;
    }
    return false;
}

/* The value of an inlined helper call: the last node made inside the
 * inline site of that call (what the helper returned, as a rule). */
static const MtExpr *call_result(MtCtx *c, const MtExprProgram *p, MtSpan sp)
{
    const MtExpr *best = NULL;
    for (uint32_t i = 0; i < p->all.n; i++) {
        const MtExpr *e = p->all.v[i];
        if (e->ty && e->ty != &mt_ty_void && e->inl && e->inl < c->inl.n && same_range(c->inl.v[e->inl].call, sp))
            best = e;
    }
    return best;
}

/* The node a binding's value range made; a value that is itself a name
 * (`y = x`) is followed to that name's binding, a helper call to what the
 * helper returned. */
static const MtExpr *value_node(MtCtx *c, const MtCompiled *k, MtSpan sp, int depth)
{
    const MtExpr *e = node_for(k->prog, sp);
    if (!e && sp.line)
        e = call_result(c, k->prog, sp);
    if (e || !sp.line || depth > 8)
        return e;
    BindSet s = {.c = c};
    MtQueryDef d;
    if (!definition(&s, k->m, sp.off, &d) || !same_range(d.use, sp))
        return NULL;
    if (d.kind == MT_DEF_PARAM || d.kind == MT_DEF_LOOP)
        return node_for(k->prog, d.def);
    return d.kind == MT_DEF_LOCAL ? value_node(c, k, d.value, depth + 1) : NULL;
}

static const MtNode *node_at(const MtModule *m, MtSpan sp, int kind);
static const MtNode *call_arg(const MtNode *call, uint32_t pos, const char *kw);

/* What a helper's parameter is bound to at the first call inlined into
 * k: the argument's value (or the default's). */
static const MtExpr *helper_argument(MtCtx *c, const MtCompiled *k, const MtFuncDef *f, const char *name)
{
    uint32_t index = 0;
    while (index < f->nparams && strcmp(f->params[index].name, name))
        index++;
    if (index == f->nparams)
        return NULL;
    for (uint32_t s = 1; s < c->inl.n; s++) {
        if (strcmp(c->inl.v[s].callee, f->name))
            continue;
        const MtNode *call = node_at(k->m, c->inl.v[s].call, ND_CALL);
        const MtNode *arg = call ? call_arg(call, index, name) : NULL;
        const MtExpr *e = arg ? value_node(c, k, arg->span, 0) : NULL;
        if (e)
            return e;
    }
    return NULL;
}

static bool name_value(MtCtx *c, MtCompiled *k, const MtFuncDef *f, const MtQueryDef *d, MtQueryValue *out)
{
    out->name = d->name;
    out->span = d->use;
    out->value_span = d->value;
    switch (d->kind) {
    case MT_DEF_PARAM:
        if (f != k->fn) {
            out->what = "helper parameter";
            const MtExpr *e = helper_argument(c, k, f, d->name);
            if (e) {
                fill_node(c, k, e, true, out);
                out->what = "helper parameter";
            }
            return true;
        }
        for (uint32_t i = 0; i < k->prog->nsig; i++) {
            if (strcmp(k->prog->sig[i].name, d->name))
                continue;
            if (k->prog->sig[i].value) {
                out->what = "constexpr";
                out->value = k->prog->sig[i].value;
                return true;
            }
            if (k->prog->sig_param[i]) {
                fill_node(c, k, k->prog->sig_param[i], true, out);
                out->what = "parameter";
                out->value_span = d->def;
                return true;
            }
        }
        out->what = "parameter";
        return true;
    case MT_DEF_LOCAL:
    case MT_DEF_LOOP: {
        const MtExpr *e = d->kind == MT_DEF_LOOP ? node_for(k->prog, d->def) : value_node(c, k, d->value, 0);
        if (e) {
            fill_node(c, k, e, true, out);
            return true;
        }
        out->what = d->kind == MT_DEF_LOOP ? "compile-time loop variable" : "compile-time value";
        if (d->kind == MT_DEF_LOCAL && d->value.line)
            out->value = source_of(c, d->value, 60);
        return true;
    }
    case MT_DEF_GLOBAL:
        out->what = "module constant";
        out->value = d->value.line ? source_of(c, d->value, 60) : NULL;
        return true;
    case MT_DEF_FUNCTION:
        out->what = "jit function";
        return true;
    case MT_DEF_IMPORT:
        out->what = "module";
        return true;
    case MT_DEF_NONE:
        return false;
    }
    return false;
}

typedef struct ValueJob {
    MtCompiled *k;
    uint32_t off;
    MtQueryValue *out;
    bool found;
} ValueJob;

static MtStatus value_job(MtCtx *c, void *ud)
{
    ValueJob *j = ud;
    MtCompiled *k = j->k;
    const MtModule *m = k->m;
    int fi = func_at(m, j->off);
    if (fi < 0 || !in_kernel(k, m->funcs[fi]))
        return MT_OK;
    BindSet s = {.c = c};
    MtQueryDef d;
    if (definition(&s, m, j->off, &d) && d.kind != MT_DEF_NONE) {
        j->found = name_value(c, k, m->funcs[fi], &d, j->out);
        return MT_OK;
    }
    const MtExpr *best = NULL;
    for (uint32_t i = 0; i < k->prog->all.n; i++) {
        const MtExpr *e = k->prog->all.v[i];
        if (!e->ty || e->ty == &mt_ty_void || e->span.file != m->file || !contains(e->span, j->off))
            continue;
        uint32_t w = e->span.end - e->span.off, bw = best ? best->span.end - best->span.off : UINT32_MAX;
        if (w <= bw)
            best = e;
    }
    if (!best)
        return MT_OK;
    j->out->span = best->span;
    fill_node(c, k, best, true, j->out);
    j->found = true;
    return MT_OK;
}

bool mt_query_value_at(MtCtx *c, MtCompiled *k, uint32_t off, MtQueryValue *out)
{
    memset(out, 0, sizeof *out);
    if (!k || !k->prog)
        return false;
    ValueJob j = {k, off, out, false};
    if (mt_protect(c, value_job, &j) != MT_OK)
        return false;
    return j.found;
}

typedef struct AssignJob {
    MtCompiled *k;
    MT_VEC(MtQueryValue) out;
} AssignJob;

static int by_offset(const void *x, const void *y)
{
    uint32_t a = ((const MtQueryValue *)x)->span.off, b = ((const MtQueryValue *)y)->span.off;
    return a < b ? -1 : a > b;
}

static MtStatus assign_job(MtCtx *c, void *ud)
{
    AssignJob *j = ud;
    MtCompiled *k = j->k;
    for (uint32_t fi = 0; fi < k->m->nfuncs; fi++) {
        const MtFuncDef *f = k->m->funcs[fi];
        if (!in_kernel(k, f))
            continue;
        BindSet s = {.c = c};
        bind_block(&s, &f->body);
        for (uint32_t i = 0; i < s.v.n; i++) {
            const Bind *b = &s.v.v[i];
            const MtExpr *e = b->kind == MT_DEF_LOOP ? node_for(k->prog, b->def) : value_node(c, k, b->value, 0);
            bool seen = false;
            for (uint32_t q = 0; q < j->out.n && !seen; q++)
                seen = same_range(j->out.v[q].span, b->def);
            if (!e || seen)
                continue;
            MtQueryValue v = {.span = b->def, .name = b->name};
            fill_node(c, k, e, false, &v);
            mt_vec_push(&c->arena, &j->out, v);
        }
    }
    if (j->out.n)
        qsort(j->out.v, j->out.n, sizeof *j->out.v, by_offset);
    return MT_OK;
}

size_t mt_query_assignments(MtCtx *c, MtCompiled *k, const MtQueryValue **out)
{
    *out = NULL;
    if (!k || !k->prog)
        return 0;
    AssignJob j = {.k = k};
    if (mt_protect(c, assign_job, &j) != MT_OK)
        return 0;
    *out = j.out.v;
    return j.out.n;
}

/* ---- kernel summary ---------------------------------------------------------------------- */

/* The largest block a store of r writes, for the fast lowering's summary. */
static void largest_store(const MtFunc *f, const MtRegion *r, const MtType **best)
{
    for (uint32_t i = 0; i < r->n; i++) {
        const MtInst *in = r->v[i];
        if (in->loop)
            largest_store(f, &in->loop->body, best);
        if (in->op != OP_STORE)
            continue;
        for (uint32_t a = 0; a < in->nargs; a++) {
            const MtType *t = in->args[a] ? mt_val_ty(f, in->args[a]) : NULL;
            if (t && t->kind == TY_BLOCK && (!*best || mt_ty_numel(t) > mt_ty_numel(*best)))
                *best = t;
        }
    }
}

static bool fast_kernel(const MtCompiled *k, MtQueryKernel *out)
{
    const KFunc *kf = k->kernel;
    int per = (int)(kf->threads / kf->programs_per_block);
    out->threads = (int)kf->threads;
    out->programs_per_block = (int)kf->programs_per_block;
    const MtType *t = NULL;
    largest_store(k->func, &k->func->body, &t);
    out->rank = t ? t->rank : 1;
    out->tile[0] = t ? t->shape[0] : 1;
    out->tile[1] = t && t->rank > 1 ? t->shape[1] : 0;
    out->thread_shape[0] = per;
    int64_t numel = t ? mt_ty_numel(t) : 1;
    out->elements_per_thread = (numel + per - 1) / per;
    out->register_tiles = out->elements_per_thread > 1;
    out->shared_bytes = (int64_t)kf->shared_bytes;
    return true;
}

bool mt_query_kernel(const MtCompiled *k, MtQueryKernel *out)
{
    memset(out, 0, sizeof *out);
    out->shared_bytes = -1;
    if (k && k->kernel)
        return fast_kernel(k, out);
    if (!k || !k->layout)
        return false;
    out->programs_per_block = 1;
    const MtKernelLayout *kl = &k->layout->kernel;
    out->threads = mt_kernel_layout_threads(kl);
    out->rank = kl->rank;
    int64_t numel = 1;
    for (int i = 0; i < kl->rank && i < 2; i++) {
        out->tile[i] = kl->output[i];
        out->thread_shape[i] = kl->threads[i];
        numel *= kl->output[i];
    }
    out->elements_per_thread = out->threads ? (numel + out->threads - 1) / out->threads : 0;
    out->register_tiles = k->layout->register_tiles;
    if (k->cuda)
        out->shared_bytes = (int64_t)k->cuda->shared_bytes;
    return true;
}

/* ---- fixes ---------------------------------------------------------------------------------- */

typedef MT_VEC(MtQueryFix) Fixes;

typedef struct NodeSearch {
    MtSpan span;
    int kind;                 /* -1: any */
    const MtNode *hit;
} NodeSearch;

static bool find_node(const MtNode *n, void *ud)
{
    NodeSearch *s = ud;
    if (same_range(n->span, s->span) && (s->kind < 0 || n->kind == s->kind) && !s->hit)
        s->hit = n;
    return !s->hit;
}

static const MtNode *node_at(const MtModule *m, MtSpan sp, int kind)
{
    NodeSearch s = {sp, kind, NULL};
    for (uint32_t i = 0; i < m->nfuncs && !s.hit; i++)
        if (sp.off >= m->funcs[i]->span.off && sp.end <= m->funcs[i]->span.end)
            mt_ast_walk_body(m->funcs[i], find_node, &s);
    return s.hit;
}

static void add_fix(MtCtx *c, Fixes *fx, const char *title, const MtDiag *d, bool preferred, uint32_t off,
                    uint32_t end, const char *text)
{
    MtQueryEdit *e = mt_arena_alloc(&c->arena, sizeof *e);
    e->off = off;
    e->end = end;
    e->text = text;
    MtQueryFix f = {title, d, preferred, e, 1};
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
static void fix_precedence(MtCtx *c, const char *text, const MtNode *cmp, const MtDiag *d, Fixes *fx)
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
        add_fix(c, fx, "Add parentheses around each comparison", d, true, cmp->span.off, cmp->span.end,
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

static void fix_logic(MtCtx *c, const char *text, const MtNode *n, const MtDiag *d, Fixes *fx)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    if (!render_logic(&b, text, n))
        return;
    const char *title = n->kind == ND_BOOLOP ? (n->u.boolop.op == KW_AND ? "Use & instead of 'and'" : "Use | instead of 'or'")
                        : n->kind == ND_UNARY ? "Use ~ instead of 'not'"
                                              : "Split the chained comparison with &";
    add_fix(c, fx, title, d, true, n->span.off, n->span.end, mt_buf_str(&b));
}

/* The name a module-level `import triton` binds, or NULL. */
static const char *triton_alias(const MtModule *m)
{
    for (uint32_t i = 0; i < m->nglobals; i++)
        if (m->globals[i].kind == GL_MODULE && m->globals[i].target && !strcmp(m->globals[i].target, "triton"))
            return m->globals[i].name;
    return NULL;
}

static const MtNode *call_arg(const MtNode *call, uint32_t pos, const char *kw)
{
    if (pos < call->u.call.args.n)
        return call->u.call.args.v[pos];
    for (uint32_t i = 0; i < call->u.call.nkw; i++)
        if (call->u.call.kw[i].name && !strcmp(call->u.call.kw[i].name, kw))
            return call->u.call.kw[i].value;
    return NULL;
}

/* E0413: the message proposes `tl.arange(start, start + 2^k)`. */
static void fix_arange(MtCtx *c, const MtModule *m, const char *text, const MtNode *call, const MtDiag *d, Fixes *fx)
{
    const char *use = strstr(d->msg, "use tl.arange(");
    const MtNode *end = call_arg(call, 1, "end");
    const MtNode *start = call_arg(call, 0, "start");
    if (!use || !end || !start)
        return;
    char *p;
    long long s = strtoll(use + 14, &p, 10);
    if (*p != ',')
        return;
    long long e = strtoll(p + 1, NULL, 10);
    const char *tri = triton_alias(m);
    const char *title = mt_sprintf(c, "Pad the range to %lld elements (then mask the tail)", e - s);
    if (end->kind != ND_INT && s == 0 && tri) {
        const char *inner = mt_arena_strndup(&c->arena, text + end->span.off, end->span.end - end->span.off);
        add_fix(c, fx, title, d, true, end->span.off, end->span.end,
                mt_sprintf(c, "%s.next_power_of_2(%s)", tri, inner));
        return;
    }
    add_fix(c, fx, title, d, true, end->span.off, end->span.end, mt_sprintf(c, "%lld", e));
}

typedef struct FixJob {
    const MtModule *m;
    const MtDiag *d;
    Fixes out;
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
        const MtNode *n = node_at(j->m, d->span, ND_COMPARE);
        if (n)
            fix_precedence(c, text, n, d, &j->out);
    } else if (!strcmp(d->code, "E0206")) {
        const MtNode *n = node_at(j->m, d->span, ND_BOOLOP);
        if (!n)
            n = node_at(j->m, d->span, ND_UNARY);
        if (!n)
            n = node_at(j->m, d->span, ND_COMPARE);
        if (n)
            fix_logic(c, text, n, d, &j->out);
    } else if (!strcmp(d->code, "E0413")) {
        const MtNode *n = node_at(j->m, d->span, ND_CALL);
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

/* ---- load / store refactorings -------------------------------------------------------------- */

static const char *zero_of(const MtType *ptr)
{
    const MtType *e = mt_ty_elem(ptr);
    const MtType *pointee = e->kind == TY_PTR ? e->elem : e;
    return pointee == &mt_ty_f32 ? "0.0" : pointee == &mt_ty_bool ? "False" : "0";
}

/* Where to insert a keyword argument: before the call's closing
 * parenthesis, after a comma if the arguments lack a trailing one. */
static bool insertion(const char *text, const MtNode *call, uint32_t *at, const char **sep)
{
    uint32_t end = call->span.end;
    if (end == 0 || text[end - 1] != ')')
        return false;
    uint32_t p = end - 1;
    while (p > call->span.off && (text[p - 1] == ' ' || text[p - 1] == '\n' || text[p - 1] == '\t' || text[p - 1] == '\r'))
        p--;
    *at = p;
    *sep = text[p - 1] == ',' || text[p - 1] == '(' ? (text[p - 1] == ',' ? " " : "") : ", ";
    return true;
}

/* Names bound before `call` in its function to a Boolean block that
 * broadcasts to the pointer's shape. */
static uint32_t mask_names(MtCtx *c, MtCompiled *k, const MtFuncDef *f, const MtNode *call, const MtType *ptr,
                           const char **names, uint32_t max)
{
    BindSet s = {.c = c};
    bind_function(&s, f);
    uint32_t n = 0;
    for (uint32_t i = s.v.n; i-- > 0 && n < max;) {
        const Bind *b = &s.v.v[i];
        if (b->kind != MT_DEF_LOCAL || b->from > call->span.off || resolve(s.v.v, s.v.n, b->name, call->span.off) != b)
            continue;
        const MtExpr *e = value_node(c, k, b->value, 0);
        int rank;
        int32_t shape[MT_MAX_RANK];
        if (!e || mt_ty_elem(e->ty) != &mt_ty_bool || !mt_ty_is_block(e->ty) || !mt_broadcast(e->ty, ptr, &rank, shape))
            continue;
        if (rank != mt_ty_rank(ptr) || memcmp(shape, ptr->shape, (size_t)rank * sizeof *shape))
            continue;
        names[n++] = b->name;
    }
    return n;
}

typedef struct ActionJob {
    MtCompiled *k;
    uint32_t off, end;
    Fixes out;
} ActionJob;

static void memory_actions(MtCtx *c, ActionJob *j, const MtExpr *e, const char *text)
{
    bool load = e->op == OP_LOAD;
    const MtNode *call = node_at(j->k->m, e->span, ND_CALL);
    int fi = func_at(j->k->m, e->span.off);
    if (!call || fi < 0)
        return;
    const MtType *ptr = e->args[0]->ty;
    bool has_mask = call_arg(call, load ? 1 : 2, "mask") != NULL;
    bool has_other = load && call_arg(call, 2, "other") != NULL;
    uint32_t at;
    const char *sep;
    if (!insertion(text, call, &at, &sep))
        return;
    if (has_mask && load && !has_other) {
        const char *z = zero_of(ptr);
        add_fix(c, &j->out, mt_sprintf(c, "Add other=%s (masked-off lanes are undefined without it)", z), NULL, false,
                at, at, mt_sprintf(c, "%sother=%s", sep, z));
        return;
    }
    if (has_mask || !mt_ty_is_block(ptr))
        return;
    const char *names[3];
    uint32_t n = mask_names(c, j->k, j->k->m->funcs[fi], call, ptr, names, 3);
    for (uint32_t i = 0; i < n; i++) {
        const char *title = load ? mt_sprintf(c, "Add mask=%s, other=%s to this tl.load", names[i], zero_of(ptr))
                                 : mt_sprintf(c, "Add mask=%s to this tl.store", names[i]);
        const char *ins = load && !has_other ? mt_sprintf(c, "%smask=%s, other=%s", sep, names[i], zero_of(ptr))
                                             : mt_sprintf(c, "%smask=%s", sep, names[i]);
        add_fix(c, &j->out, title, NULL, false, at, at, ins);
    }
}

static MtStatus action_job(MtCtx *c, void *ud)
{
    ActionJob *j = ud;
    const MtFile *f = mt_ctx_file(c, j->k->m->file);
    if (!f)
        return MT_OK;
    MtSpan seen = {0};
    for (uint32_t i = 0; i < j->k->prog->all.n; i++) {
        const MtExpr *e = j->k->prog->all.v[i];
        if (e->kind != EX_OP || (e->op != OP_LOAD && e->op != OP_STORE) || !e->ty || e->span.file != j->k->m->file ||
            e->span.end > f->len || e->span.off > j->end || e->span.end < j->off || same_range(e->span, seen))
            continue;
        if (!e->args[0] || !e->args[0]->ty)
            continue;
        seen = e->span;
        memory_actions(c, j, e, f->text);
    }
    return MT_OK;
}

size_t mt_query_actions(MtCtx *c, MtCompiled *k, uint32_t off, uint32_t end, const MtQueryFix **out)
{
    *out = NULL;
    if (!k || !k->prog)
        return 0;
    ActionJob j = {k, off, end, {0}};
    if (mt_protect(c, action_job, &j) != MT_OK)
        return 0;
    *out = j.out.v;
    return j.out.n;
}
