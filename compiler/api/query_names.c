/* query_names.c: which binding a name at an offset refers to (syntax only).
 *
 * The language server never sees the syntax tree, the expression tree or
 * the SSA; it asks the mt_query_* functions, by byte offset. This file
 * answers the questions about names. A jit function's bindings are its
 * parameters and every target of an assignment or `for`, in source order;
 * a use refers to the last one that precedes it, which is what the
 * frontend's straight-line run of the body binds (a runtime loop's carried
 * names keep one type, so the binding before the loop describes them too).
 * Then module-level names. Also: whether a jit function is a helper, and
 * the syntax lookups the other query files share. */
#include <string.h>

#include "query.h"

/* ---- bindings of one jit function ---------------------------------------------------- */

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

void mt_query_bind_block(BindSet *s, const MtNodeList *body)
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
            mt_query_bind_block(s, &st->u.for_.body);
            mt_query_bind_block(s, &st->u.for_.orelse);
            break;
        case ND_IF:
            mt_query_bind_block(s, &st->u.if_.body);
            mt_query_bind_block(s, &st->u.if_.orelse);
            break;
        case ND_WHILE:
            mt_query_bind_block(s, &st->u.while_.body);
            mt_query_bind_block(s, &st->u.while_.orelse);
            break;
        default:
            break;
        }
    }
}

void mt_query_bind_function(BindSet *s, const MtFuncDef *f)
{
    for (uint32_t i = 0; i < f->nparams; i++) {
        Bind b = {f->params[i].name, MT_DEF_PARAM, f->params[i].name_span,
                  f->params[i].default_ ? f->params[i].default_->span : no_span, 0};
        push_bind(s, b);
    }
    mt_query_bind_block(s, &f->body);
}

int mt_query_func_at(const MtModule *m, uint32_t off)
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
    if (!mt_query_contains(n->span, s->off))
        return true; /* a parenthesised child may lie outside its parent's span; keep looking */
    if (n->kind == ND_NAME)
        s->hit = n;
    return true;
}

/* The binding that a use of `name` at `off` sees. */
const Bind *mt_query_resolve(Bind *v, uint32_t n, const char *name, uint32_t off)
{
    const Bind *best = NULL;
    for (uint32_t i = 0; i < n; i++) {
        if (strcmp(v[i].name, name))
            continue;
        if (mt_query_contains(v[i].def, off))
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

bool mt_query_def_at(BindSet *s, const MtModule *m, uint32_t off, MtQueryDef *out)
{
    memset(out, 0, sizeof *out);
    out->func = UINT32_MAX;
    int fi = mt_query_func_at(m, off);
    if (fi < 0)
        return false;
    const MtFuncDef *f = m->funcs[fi];
    out->func = (uint32_t)fi;
    if (mt_query_contains(f->name_span, off)) {
        out->kind = MT_DEF_FUNCTION;
        out->name = f->name;
        out->use = out->def = f->name_span;
        out->value = f->span;
        return true;
    }
    mt_query_bind_function(s, f);
    uint32_t n;
    Bind *v = bind_list(s, &n);
    NameSearch ns = {off, NULL};
    mt_ast_walk_body(f, find_name, &ns);
    const char *name = ns.hit ? ns.hit->u.name : NULL;
    MtSpan use = ns.hit ? ns.hit->span : no_span;
    for (uint32_t i = 0; !name && i < n; i++)
        if (v[i].kind == MT_DEF_PARAM && mt_query_contains(v[i].def, off)) {
            name = v[i].name;
            use = v[i].def;
        }
    if (!name)
        return false;
    out->name = name;
    out->use = use;
    const Bind *b = mt_query_resolve(v, n, name, off);
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
    return m && mt_query_def_at(&s, m, off, out);
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

static bool find_value_return(const MtNode *n, void *ud)
{
    bool *found = ud;
    if (n->kind == ND_RETURN && n->u.expr && n->u.expr->kind != ND_NONE)
        *found = true;
    return !*found;
}

bool mt_query_returns_value(const MtModule *m, size_t i)
{
    bool found = false;
    if (m && i < m->nfuncs)
        mt_ast_walk_body(m->funcs[i], find_value_return, &found);
    return found;
}

bool mt_query_is_helper(const MtModule *m, size_t i)
{
    if (!m || i >= m->nfuncs)
        return false;
    if (mt_query_returns_value(m, i))
        return true;
    CallSearch s = {m->funcs[i]->name, false};
    for (uint32_t j = 0; j < m->nfuncs && !s.found; j++)
        if (j != i)
            mt_ast_walk_body(m->funcs[j], find_call, &s);
    return s.found;
}

/* ---- syntax lookups ---------------------------------------------------------------------- */

typedef struct NodeSearch {
    MtSpan span;
    int kind;                 /* -1: any */
    const MtNode *hit;
} NodeSearch;

static bool find_node(const MtNode *n, void *ud)
{
    NodeSearch *s = ud;
    if (mt_query_same_range(n->span, s->span) && (s->kind < 0 || n->kind == s->kind) && !s->hit)
        s->hit = n;
    return !s->hit;
}

const MtNode *mt_query_node_at(const MtModule *m, MtSpan sp, int kind)
{
    NodeSearch s = {sp, kind, NULL};
    for (uint32_t i = 0; i < m->nfuncs && !s.hit; i++)
        if (sp.off >= m->funcs[i]->span.off && sp.end <= m->funcs[i]->span.end)
            mt_ast_walk_body(m->funcs[i], find_node, &s);
    return s.hit;
}

const MtNode *mt_query_call_arg(const MtNode *call, uint32_t pos, const char *kw)
{
    if (pos < call->u.call.args.n)
        return call->u.call.args.v[pos];
    for (uint32_t i = 0; i < call->u.call.nkw; i++)
        if (call->u.call.kw[i].name && !strcmp(call->u.call.kw[i].name, kw))
            return call->u.call.kw[i].value;
    return NULL;
}
