/* host.c: an index of the host code around the kernels (see host.h).
 *
 * One pass over the module's token stream finds every `def` and `class`
 * at the start of a statement and the token range of its body (the
 * INDENT ... DEDENT block after the header's ':', or the rest of the line
 * for `def f(): return x`); a second pass finds the simple assignments of
 * every statement outside jit functions and class bodies. The lexer
 * emits NEWLINE only outside brackets, so a logical line is the tokens up
 * to the next NEWLINE. Nothing here reports: host code may be anything. */
#include <string.h>

#include "host.h"

static const MtToken *tk(const Host *h, uint32_t i) { return &h->m->toks[i]; }
static bool op_at(const Host *h, uint32_t i, MtOp op) { return tk(h, i)->kind == TK_OP && tk(h, i)->op == op; }
static bool kw_at(const Host *h, uint32_t i, MtKw kw) { return tk(h, i)->kind == TK_NAME && tk(h, i)->kw == kw; }
static bool name_at(const Host *h, uint32_t i) { return tk(h, i)->kind == TK_NAME && tk(h, i)->kw == KW_NONE_; }
static bool is_open(const Host *h, uint32_t i)
{
    return op_at(h, i, OP_LPAR) || op_at(h, i, OP_LSQB) || op_at(h, i, OP_LBRACE);
}
static bool is_close(const Host *h, uint32_t i)
{
    return op_at(h, i, OP_RPAR) || op_at(h, i, OP_RSQB) || op_at(h, i, OP_RBRACE);
}

/* The last token, EOF, is never passed. */
static uint32_t last(const Host *h) { return h->m->ntoks - 1; }

uint32_t mt_host_close(const Host *h, uint32_t t)
{
    if (!is_open(h, t))
        return t;
    int depth = 0;
    for (uint32_t i = t; i < last(h); i++) {
        depth += is_open(h, i) - is_close(h, i);
        if (depth == 0)
            return i;
    }
    return t;
}

uint32_t mt_host_line_end(const Host *h, uint32_t t)
{
    while (t < last(h) && tk(h, t)->kind != TK_NEWLINE)
        t++;
    return t;
}

uint32_t mt_host_token_at(const Host *h, uint32_t off)
{
    uint32_t lo = 0, hi = last(h);
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (tk(h, mid)->span.off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool stmt_start(const Host *h, uint32_t i)
{
    if (i == 0)
        return true;
    uint8_t k = tk(h, i - 1)->kind;
    return k == TK_NEWLINE || k == TK_INDENT || k == TK_DEDENT;
}

/* The body of the compound statement whose header's ':' is token colon:
 * [from, to). */
static void block_range(const Host *h, uint32_t colon, uint32_t *from, uint32_t *to)
{
    uint32_t i = colon + 1;
    if (tk(h, i)->kind != TK_NEWLINE || tk(h, i + 1)->kind != TK_INDENT) {
        *from = i;
        *to = mt_host_line_end(h, i);
        return;
    }
    *from = i + 2;
    int depth = 0;
    for (i = i + 1; i < last(h); i++) {
        if (tk(h, i)->kind == TK_INDENT)
            depth++;
        else if (tk(h, i)->kind == TK_DEDENT && --depth == 0)
            break;
    }
    *to = i;
}

uint32_t mt_host_header_colon(const Host *h, uint32_t t)
{
    for (uint32_t i = t; i < last(h) && tk(h, i)->kind != TK_NEWLINE; i++) {
        if (is_open(h, i))
            i = mt_host_close(h, i);
        else if (op_at(h, i, OP_COLON))
            return i;
    }
    return 0;
}

/* Parameters between the brackets at tokens [open, close]. */
static void parameters(Host *h, HostFunc *f, uint32_t open, uint32_t close)
{
    MT_VEC(HostParam) ps = {0};
    for (uint32_t i = open + 1; i < close;) {
        while (i < close && (op_at(h, i, OP_STAR) || op_at(h, i, OP_DSTAR) || op_at(h, i, OP_SLASH)))
            i++;
        uint32_t end = i;
        while (end < close && !op_at(h, end, OP_COMMA))
            end = is_open(h, end) ? mt_host_close(h, end) + 1 : end + 1;
        if (i < end && name_at(h, i)) {
            HostParam p = {.name = tk(h, i)->text};
            for (uint32_t k = i + 1; k < end; k++)
                if (op_at(h, k, OP_ASSIGN)) {
                    p.default_from = k + 1;
                    p.default_to = end;
                    break;
                }
            mt_vec_push(&h->c->arena, &ps, p);
        }
        i = end + 1;
    }
    f->params = ps.v;
    f->nparams = ps.n;
}

typedef struct Range {
    uint32_t from, to;
} Range;

typedef MT_VEC(Range) Ranges;

static bool is_jit_def(const Host *h, uint32_t def)
{
    for (uint32_t i = 0; i < h->m->nfuncs; i++)
        if (h->m->funcs[i]->def_span.off == tk(h, def)->span.off)
            return true;
    return false;
}

static void find_defs(Host *h, Ranges *classes)
{
    MT_VEC(HostFunc) fs = {0};
    for (uint32_t i = 0; i + 1 < last(h); i++) {
        if (!stmt_start(h, i))
            continue;
        uint32_t d = kw_at(h, i, KW_ASYNC) ? i + 1 : i;
        bool def = kw_at(h, d, KW_DEF), cls = kw_at(h, d, KW_CLASS);
        if ((!def && !cls) || !name_at(h, d + 1))
            continue;
        uint32_t colon = mt_host_header_colon(h, d);
        if (!colon)
            continue;
        uint32_t from, to;
        block_range(h, colon, &from, &to);
        if (cls) {
            mt_vec_push(&h->c->arena, classes, ((Range){from, to}));
            continue;
        }
        if (is_jit_def(h, d)) {
            for (uint32_t k = d; k < to; k++)
                h->in_kernel[k] = 1;
            continue;
        }
        HostFunc f = {.name = tk(h, d + 1)->text, .def_tok = d, .body_from = from, .body_to = to, .parent = -1};
        if (op_at(h, d + 2, OP_LPAR))
            parameters(h, &f, d + 2, mt_host_close(h, d + 2));
        mt_vec_push(&h->c->arena, &fs, f);
    }
    h->funcs = fs.v;
    h->nfuncs = fs.n;
    for (uint32_t i = 0; i < h->nfuncs; i++)
        h->funcs[i].parent = mt_host_scope_of(h, h->funcs[i].def_tok);
}

int32_t mt_host_scope_of(const Host *h, uint32_t t)
{
    int32_t best = -1;
    for (uint32_t i = 0; i < h->nfuncs; i++) {
        const HostFunc *f = &h->funcs[i];
        if (t >= f->body_from && t < f->body_to && (best < 0 || f->body_from >= h->funcs[best].body_from))
            best = (int32_t)i;
    }
    return best;
}

int32_t mt_host_find_func(const Host *h, const char *name, int32_t scope)
{
    for (;;) {
        for (uint32_t i = 0; i < h->nfuncs; i++)
            if (h->funcs[i].parent == scope && !strcmp(h->funcs[i].name, name))
                return (int32_t)i;
        if (scope < 0)
            return -1;
        scope = h->funcs[scope].parent;
    }
}

static bool in_class_body(const Host *h, const Ranges *classes, uint32_t t, int32_t scope)
{
    for (uint32_t i = 0; i < classes->n; i++)
        if (t >= classes->v[i].from && t < classes->v[i].to &&
            (scope < 0 || classes->v[i].from > h->funcs[scope].body_from))
            return true;
    return false;
}

/* The names of a target list [from, to): NAME, NAME: T, or A, B / (A, B). */
typedef MT_VEC(HostAssign) Assigns;

static void targets(Host *h, uint32_t from, uint32_t to, uint32_t stmt, uint32_t rhs_from, uint32_t rhs_to,
                    int32_t scope, Assigns *out)
{
    if (from < to && (op_at(h, from, OP_LPAR) || op_at(h, from, OP_LSQB)) && mt_host_close(h, from) == to - 1) {
        from++;
        to--;
    }
    bool tuple = false;
    for (uint32_t i = from; i < to; i++)
        tuple |= op_at(h, i, OP_COMMA);
    if (!tuple) {
        if (name_at(h, from) && (from + 1 == to || op_at(h, from + 1, OP_COLON))) {
            HostAssign a = {tk(h, from)->text, scope, stmt, rhs_from, rhs_to, -1};
            mt_vec_push(&h->c->arena, out, a);
        }
        return;
    }
    int32_t item = 0;
    for (uint32_t i = from; i < to; i++) {
        if (name_at(h, i) && (i + 1 == to || op_at(h, i + 1, OP_COMMA))) {
            HostAssign a = {tk(h, i)->text, scope, stmt, rhs_from, rhs_to, item};
            mt_vec_push(&h->c->arena, out, a);
        }
        if (op_at(h, i, OP_COMMA))
            item++;
    }
}

static void find_assignments(Host *h, const Ranges *classes)
{
    Assigns as = {0};
    for (uint32_t s = 0; s + 1 < last(h); s++) {
        if (!stmt_start(h, s) || h->in_kernel[s] || !(name_at(h, s) || op_at(h, s, OP_LPAR) || op_at(h, s, OP_LSQB)))
            continue;
        int32_t scope = mt_host_scope_of(h, s);
        if (in_class_body(h, classes, s, scope))
            continue;
        uint32_t e = mt_host_line_end(h, s);
        MT_VEC(uint32_t) eqs = {0};
        for (uint32_t i = s; i < e; i++) {
            if (is_open(h, i))
                i = mt_host_close(h, i);
            else if (kw_at(h, i, KW_LAMBDA))
                break;
            else if (op_at(h, i, OP_ASSIGN))
                mt_vec_push(&h->c->arena, &eqs, i);
        }
        for (uint32_t k = 0; k < eqs.n; k++)
            targets(h, k ? eqs.v[k - 1] + 1 : s, eqs.v[k], s, eqs.v[eqs.n - 1] + 1, e, scope, &as);
    }
    h->assigns = as.v;
    h->nassigns = as.n;
}

static void find_launches(Host *h)
{
    MT_VEC(HostLaunch) ls = {0};
    for (uint32_t i = 0; i + 2 < last(h); i++) {
        if (!name_at(h, i) || h->in_kernel[i] || !op_at(h, i + 1, OP_LSQB))
            continue;
        uint32_t close = mt_host_close(h, i + 1);
        if (close == i + 1 || !op_at(h, close + 1, OP_LPAR))
            continue;
        uint32_t from = i;
        while (from >= 2 && op_at(h, from - 1, OP_PERIOD) && name_at(h, from - 2))
            from -= 2;
        HostLaunch l = {tk(h, i)->text, i, from, mt_host_close(h, close + 1) + 1};
        mt_vec_push(&h->c->arena, &ls, l);
    }
    h->launches = ls.v;
    h->nlaunches = ls.n;
}

Host *mt_host_index(MtCtx *c, const MtModule *m)
{
    if (m->host)
        return m->host;
    Host *h = mt_arena_alloc(&c->arena, sizeof *h);
    h->c = c;
    h->m = m;
    h->in_kernel = mt_arena_alloc(&c->arena, m->ntoks + 1);
    if (m->ntoks >= 2) {
        Ranges classes = {0};
        find_defs(h, &classes);
        find_assignments(h, &classes);
        find_launches(h);
    }
    ((MtModule *)m)->host = h; /* a cache in the module's own arena: the module stays what it was */
    return h;
}

bool mt_host_path_is(const char *path, const char *name)
{
    size_t n = strlen(path), k = strlen(name);
    return n >= k && !strcmp(path + n - k, name) && (n == k || path[n - k - 1] == '.');
}
