/* host_eval.c: evaluating host expressions far enough to specialise a
 * kernel (see host.h for what is understood).
 *
 * A name is looked up as Python would at the point of use: the names
 * bound while evaluating (lambda parameters, comprehension variables, the
 * parameters of a host function being called), then the last assignment
 * before the use in the same function, that function's parameters (their
 * value at the function's call sites in the file, else their default),
 * host functions, then the enclosing functions and the module, then the
 * module's imports; a name bound nowhere stands for itself (`torch`,
 * `min`). Lookups and calls are followed at most MAX_DEPTH levels, so
 * recursion and cycles end as HV_UNKNOWN. Integer arithmetic follows
 * Python (floor division, modulo with the divisor's sign). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "host.h"

enum { MAX_DEPTH = 12, MAX_CALL_SITES = 8, MAX_RANGE = 4096, MAX_EVALS = 200000 };

static HostVal unknown(void) { return (HostVal){.kind = HV_UNKNOWN}; }

static HostVal of_kind(HvKind k, MtSpan sp) { return (HostVal){.kind = (uint8_t)k, .span = sp}; }

static HostVal int_val(int64_t i, MtSpan sp)
{
    HostVal v = of_kind(HV_INT, sp);
    v.i = i;
    return v;
}

static HostVal float_val(double f, MtSpan sp)
{
    HostVal v = of_kind(HV_FLOAT, sp);
    v.f = f;
    return v;
}

static HostVal bool_val(bool b, MtSpan sp)
{
    HostVal v = of_kind(HV_BOOL, sp);
    v.i = b;
    return v;
}

static HostVal str_val(const char *s, HvKind k, MtSpan sp)
{
    HostVal v = of_kind(k, sp);
    v.s = s;
    return v;
}

static bool known(const HostVal *v) { return v->kind != HV_UNKNOWN; }
static bool number(const HostVal *v) { return v->kind == HV_INT || v->kind == HV_BOOL || v->kind == HV_FLOAT; }
static bool some_number(const HostVal *v) { return v->kind == HV_SOME_INT || v->kind == HV_SOME_FLOAT; }
static double as_double(const HostVal *v) { return v->kind == HV_FLOAT ? v->f : (double)v->i; }
static int truth(const HostVal *v);

/* ---- dtypes ---------------------------------------------------------------------------- */

/* torch's other names of element types (torch.half, x.long()); the
 * names the dtype table knows (float16, bfloat16, int8, bool, ...) are
 * looked up there. */
static const struct {
    const char *alias, *name;
} torch_aliases[] = {
    {"half", "float16"}, {"float", "float32"}, {"double", "float64"}, {"short", "int16"},
    {"int", "int32"},    {"long", "int64"},    {"char", "int8"},      {"byte", "uint8"},
};

/* The signature spelling ("fp16") of a torch, numpy or triton.language
 * dtype name, or NULL. */
static const char *dtype_sig(const char *py)
{
    for (size_t i = 0; i < sizeof torch_aliases / sizeof torch_aliases[0]; i++)
        if (!strcmp(torch_aliases[i].alias, py))
            py = torch_aliases[i].name;
    MtDtype d;
    return mt_dtype_parse(py, &d) ? mt_dtype_info(d)->sig : NULL;
}

static bool dtype_module(const char *path)
{
    return !strcmp(path, "torch") || !strcmp(path, "numpy") || !strcmp(path, "triton.language") ||
           !strcmp(path, "tl") || !strcmp(path, "np");
}

/* ---- names ---------------------------------------------------------------------------- */

static HostEnv deeper(const HostEnv *env, int32_t scope, uint32_t at)
{
    HostEnv e = {env->h, scope, at, NULL, 0, env->depth + 1};
    return e;
}

/* The value of assignment a (one item of a tuple target, if so). In the
 * host function being called, the call's arguments stay bound. */
static HostVal assigned(const HostEnv *env, const HostAssign *a)
{
    HostEnv e = deeper(env, a->scope, a->stmt);
    if (a->scope >= 0 && a->scope == env->scope) {
        e.binds = env->binds;
        e.nbinds = env->nbinds;
    }
    HostVal v = mt_host_eval_range(&e, a->rhs_from, a->rhs_to);
    if (a->item < 0)
        return v;
    if (v.kind == HV_LIST && v.shape)
        return of_kind(HV_SOME_INT, v.span);
    if (v.kind == HV_LIST && (uint32_t)a->item < v.n)
        return v.items[a->item];
    return unknown();
}

/* The last assignment of name in scope before token at, else the last one. */
static const HostAssign *assignment(const Host *h, const char *name, int32_t scope, uint32_t at)
{
    const HostAssign *before = NULL, *any = NULL;
    for (uint32_t i = 0; i < h->nassigns; i++) {
        const HostAssign *a = &h->assigns[i];
        if (a->scope != scope || strcmp(a->name, name))
            continue;
        any = a;
        if (a->stmt < at)
            before = a;
    }
    return before ? before : any;
}

/* A call's argument for parameter `index` / `name`, or NULL. */
static const MtNode *call_argument(const MtNode *call, uint32_t index, const char *name)
{
    for (uint32_t k = 0; k < call->u.call.nkw; k++)
        if (call->u.call.kw[k].name && !strcmp(call->u.call.kw[k].name, name))
            return call->u.call.kw[k].value;
    if (index < call->u.call.args.n && call->u.call.args.v[index]->kind != ND_UNSUPPORTED)
        return call->u.call.args.v[index];
    return NULL;
}

/* Parameter p of host function f: what its call sites in the file pass,
 * else its default. */
static HostVal parameter(const HostEnv *env, int32_t f, uint32_t p)
{
    const Host *h = env->h;
    const HostFunc *fn = &h->funcs[f];
    const HostParam *prm = &fn->params[p];
    uint32_t sites = 0;
    for (uint32_t i = 1; i + 1 < h->m->ntoks && sites < MAX_CALL_SITES; i++) {
        const MtToken *t = &h->m->toks[i];
        const MtToken *prev = &h->m->toks[i - 1];
        if (t->kind != TK_NAME || strcmp(t->text, fn->name) || h->in_kernel[i] ||
            (prev->kind == TK_OP && prev->op == OP_PERIOD) || (prev->kind == TK_NAME && prev->kw == KW_DEF))
            continue;
        const MtToken *open = &h->m->toks[i + 1];
        if (open->kind != TK_OP || open->op != OP_LPAR)
            continue;
        sites++;
        uint32_t close = mt_host_close(h, i + 1);
        const MtNode *call = mt_parse_host_expr(h->c, h->m, i, close + 1);
        const MtNode *arg = call && call->kind == ND_CALL ? call_argument(call, p, prm->name) : NULL;
        if (!arg)
            continue;
        HostEnv e = deeper(env, mt_host_scope_of(h, i), i);
        HostVal v = mt_host_eval(&e, arg);
        if (known(&v))
            return v;
    }
    if (prm->default_from < prm->default_to) {
        HostEnv e = deeper(env, fn->parent, fn->def_tok);
        return mt_host_eval_range(&e, prm->default_from, prm->default_to);
    }
    return unknown();
}

static HostVal lookup(const HostEnv *env, const char *name, MtSpan sp)
{
    for (uint32_t i = env->nbinds; i-- > 0;)
        if (!strcmp(env->binds[i].name, name))
            return env->binds[i].v;
    if (env->depth > MAX_DEPTH)
        return unknown();
    const Host *h = env->h;
    uint32_t at = env->at;
    for (int32_t scope = env->scope;;) {
        const HostAssign *a = assignment(h, name, scope, at);
        if (a)
            return assigned(env, a);
        if (scope >= 0) {
            const HostFunc *fn = &h->funcs[scope];
            for (uint32_t p = 0; p < fn->nparams; p++)
                if (!strcmp(fn->params[p].name, name))
                    return parameter(env, scope, p);
        }
        int32_t f = mt_host_find_func(h, name, scope);
        if (f >= 0 && (scope < 0 || h->funcs[f].parent == scope)) {
            HostVal v = of_kind(HV_FUNC, sp);
            v.i = f;
            return v;
        }
        if (scope < 0)
            break;
        at = h->funcs[scope].def_tok;
        scope = h->funcs[scope].parent;
    }
    const MtGlobal *g = mt_module_global(h->m, name);
    if (g && (g->kind == GL_MODULE || g->kind == GL_FROM))
        return str_val(g->target, HV_MODULE, sp);
    if (g)
        return unknown();
    return str_val(name, HV_MODULE, sp);
}

/* ---- calls ------------------------------------------------------------------------------ */

typedef struct Args {
    const HostVal *pos;
    uint32_t npos;
    const MtNode *call;
    const HostEnv *env;
} Args;

static const MtNode *kw_node(const Args *a, const char *name)
{
    for (uint32_t k = 0; k < a->call->u.call.nkw; k++)
        if (a->call->u.call.kw[k].name && !strcmp(a->call->u.call.kw[k].name, name))
            return a->call->u.call.kw[k].value;
    return NULL;
}

static HostVal kw(const Args *a, const char *name)
{
    const MtNode *n = a->call ? kw_node(a, name) : NULL;
    return n ? mt_host_eval(a->env, n) : unknown();
}

static const char *dtype_of(const HostVal *v)
{
    if (v->kind == HV_DTYPE)
        return v->s;
    if (v->kind == HV_STR)
        return dtype_sig(v->s);
    return NULL;
}

static HostVal tensor(const char *sig, MtSpan sp) { return sig ? str_val(sig, HV_TENSOR, sp) : unknown(); }

/* torch.X(...) and numpy.X(...) that make arrays; NULL: not a factory. */
static const char *factory_dtype(const Args *a, const char *lib, const char *fn)
{
    HostVal d = kw(a, "dtype");
    if (dtype_of(&d))
        return dtype_of(&d);
    static const char *const like[] = {"empty_like", "zeros_like", "ones_like", "full_like", "rand_like",
                                       "randn_like", "from_numpy", "asarray", "array", "ascontiguousarray"};
    for (size_t i = 0; i < sizeof like / sizeof like[0]; i++)
        if (!strcmp(fn, like[i]))
            return a->npos && a->pos[0].kind == HV_TENSOR ? a->pos[0].s : NULL;
    bool numpy = !strcmp(lib, "numpy");
    static const char *const floats[] = {"empty", "zeros", "ones", "rand", "randn", "empty_strided",
                                         "random", "uniform", "normal", "standard_normal"};
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++)
        if (!strcmp(fn, floats[i]))
            return numpy ? "fp64" : "fp32";
    if (!strcmp(fn, "randint") || !strcmp(fn, "randperm"))
        return "i64";
    if (!strcmp(fn, "full") && a->npos > 1)
        return a->pos[1].kind == HV_FLOAT ? (numpy ? "fp64" : "fp32") : a->pos[1].kind == HV_BOOL ? "i1" : "i64";
    if (!strcmp(fn, "arange") || !strcmp(fn, "linspace")) {
        bool f = !strcmp(fn, "linspace");
        for (uint32_t i = 0; i < a->npos; i++)
            f |= a->pos[i].kind == HV_FLOAT;
        return f ? (numpy ? "fp64" : "fp32") : "i64";
    }
    return NULL;
}

static HostVal module_call(const Args *a, const char *path, MtSpan sp)
{
    if (mt_host_path_is(path, "Config")) {
        HostVal v = of_kind(HV_CONFIG, sp);
        v.node = a->call;
        HostVal d = a->npos ? a->pos[0] : kw(a, "kwargs");
        uint32_t nmeta = d.kind == HV_DICT ? d.n : 0, nkw = a->call ? a->call->u.call.nkw : 0;
        v.items = mt_arena_alloc(&a->env->h->c->arena, (2 * (nmeta + nkw) + 1) * sizeof *v.items);
        for (uint32_t i = 0; i < 2 * nmeta; i++)
            v.items[i] = d.items[i];
        v.n = v.i = nmeta;
        for (uint32_t k = 0; k < nkw; k++) {
            const MtKeyword *w = &a->call->u.call.kw[k];
            if (!w->name || !strcmp(w->name, "kwargs"))
                continue;
            v.items[2 * v.n] = str_val(w->name, HV_STR, w->span);
            v.items[2 * v.n + 1] = mt_host_eval(a->env, w->value);
            v.n++;
        }
        return v;
    }
    const HostVal *x = a->npos ? &a->pos[0] : NULL;
    const HostVal *y = a->npos > 1 ? &a->pos[1] : NULL;
    if (mt_host_path_is(path, "next_power_of_2") && x) {
        if (x->kind != HV_INT)
            return some_number(x) ? of_kind(HV_SOME_INT, sp) : unknown();
        int64_t p = 1;
        while (p < x->i && p < ((int64_t)1 << 62))
            p <<= 1;
        return int_val(p, sp);
    }
    if (mt_host_path_is(path, "cdiv") && y) {
        if (x->kind == HV_INT && y->kind == HV_INT && y->i > 0)
            return int_val((x->i + y->i - 1) / y->i, sp);
        return (known(x) && known(y)) ? of_kind(HV_SOME_INT, sp) : unknown();
    }
    if ((!strcmp(path, "min") || !strcmp(path, "max")) && a->npos >= 2) {
        bool all = true, some = false;
        for (uint32_t i = 0; i < a->npos; i++) {
            all &= number(&a->pos[i]);
            some |= some_number(&a->pos[i]) || number(&a->pos[i]);
        }
        if (!all)
            return some ? of_kind(HV_SOME_INT, sp) : unknown();
        HostVal best = a->pos[0];
        for (uint32_t i = 1; i < a->npos; i++)
            if (path[1] == 'i' ? as_double(&a->pos[i]) < as_double(&best) : as_double(&a->pos[i]) > as_double(&best))
                best = a->pos[i];
        return best;
    }
    if (!strcmp(path, "int") && x)
        return number(x) ? int_val((int64_t)as_double(x), sp) : some_number(x) ? of_kind(HV_SOME_INT, sp) : unknown();
    if (!strcmp(path, "float") && x)
        return number(x) ? float_val(as_double(x), sp) : some_number(x) ? of_kind(HV_SOME_FLOAT, sp) : unknown();
    if (!strcmp(path, "len") && x)
        return x->kind == HV_LIST && !x->shape ? int_val(x->n, sp) : of_kind(HV_SOME_INT, sp);
    if ((!strcmp(path, "list") || !strcmp(path, "tuple")) && x)
        return *x;
    if (!strcmp(path, "range") && x) {
        int64_t lo = 0, hi = x->i, step = 1;
        if (y) {
            lo = x->i;
            hi = y->i;
        }
        if (a->npos > 2)
            step = a->pos[2].i;
        bool ints = x->kind == HV_INT && (!y || y->kind == HV_INT) && (a->npos < 3 || a->pos[2].kind == HV_INT);
        if (!ints || step == 0 || (hi - lo) / step > MAX_RANGE)
            return unknown();
        HostVal v = of_kind(HV_LIST, sp);
        uint32_t n = hi > lo && step > 0 ? (uint32_t)((hi - lo + step - 1) / step)
                     : hi < lo && step < 0 ? (uint32_t)((lo - hi - step - 1) / -step) : 0;
        v.items = mt_arena_alloc(&a->env->h->c->arena, (n + 1) * sizeof *v.items);
        for (uint32_t i = 0; i < n; i++)
            v.items[i] = int_val(lo + (int64_t)i * step, sp);
        v.n = n;
        return v;
    }
    if (!strcmp(path, "filter") && y && y->kind == HV_LIST && !y->shape) {
        HostVal v = of_kind(HV_LIST, sp);
        v.items = mt_arena_alloc(&a->env->h->c->arena, (y->n + 1) * sizeof *v.items);
        for (uint32_t i = 0; i < y->n; i++) {
            HostVal keep = x->kind == HV_NONE ? y->items[i] : mt_host_call(a->env, x, &y->items[i], 1);
            int t = truth(&keep);
            if (t < 0)
                return unknown();
            if (t)
                v.items[v.n++] = y->items[i];
        }
        return v;
    }
    /* mytriton targets CUDA: `is_hip()` / `is_cuda()` helpers ask this. */
    if (mt_host_path_is(path, "get_current_target"))
        return str_val("triton.target", HV_MODULE, sp);
    const char *dot = strrchr(path, '.');
    if (!dot)
        return unknown();
    const char *fn = dot + 1;
    bool torch = !strncmp(path, "torch.", 6), numpy = !strncmp(path, "numpy.", 6);
    if (torch || numpy) {
        const char *d = factory_dtype(a, torch ? "torch" : "numpy", fn);
        if (d)
            return tensor(d, sp);
        if (x && x->kind == HV_TENSOR)
            return *x; /* torch.matmul(a, b), np.transpose(a), ...: like the first operand */
    }
    return unknown();
}

/* A method of a tensor: conversions change the element type, everything
 * else (cuda, contiguous, view(shape), T, ...) keeps it. */
static HostVal tensor_method(const Args *a, const HostVal *t, const char *name, MtSpan sp)
{
    if (!a->npos && dtype_sig(name)) /* x.half(), x.long(), x.bfloat16() */
        return tensor(dtype_sig(name), sp);
    if (!strcmp(name, "to") || !strcmp(name, "type") || !strcmp(name, "view") || !strcmp(name, "astype")) {
        HostVal d = kw(a, "dtype");
        for (uint32_t i = 0; i < a->npos && !dtype_of(&d); i++)
            d = a->pos[i];
        return tensor(dtype_of(&d) ? dtype_of(&d) : t->s, sp);
    }
    if (!strcmp(name, "stride") || !strcmp(name, "numel") || !strcmp(name, "dim") || !strcmp(name, "element_size") ||
        !strcmp(name, "data_ptr") || (!strcmp(name, "size") && a->npos))
        return of_kind(HV_SOME_INT, sp);
    if (!strcmp(name, "size")) {
        HostVal v = of_kind(HV_LIST, sp);
        v.shape = true;
        return v;
    }
    if (!strcmp(name, "item") || !strcmp(name, "tolist"))
        return unknown();
    HostVal v = *t;
    v.span = sp;
    return v;
}

/* The first token of the logical line holding token t (not before from). */
static uint32_t line_start(const Host *h, uint32_t t, uint32_t from)
{
    while (t > from) {
        uint8_t k = h->m->toks[t - 1].kind;
        if (k == TK_NEWLINE || k == TK_INDENT || k == TK_DEDENT)
            break;
        t--;
    }
    return t;
}

/* The condition of the `if` header at token s, at that point of e's
 * function: 1 true, 0 false, -1 unknown. */
static int if_holds(const HostEnv *e, uint32_t s)
{
    uint32_t colon = mt_host_header_colon(e->h, s);
    if (!colon)
        return -1;
    HostEnv at = *e;
    at.at = s;
    HostVal c = mt_host_eval_range(&at, s + 1, colon);
    return truth(&c);
}

/* Whether the `return` at token t of fn may run: false only when an
 * enclosing `if` (or the `if` it ends, `if COND: return X`) has a
 * condition known to be false. Other compound statements, `elif` and
 * `else` tell nothing. */
static bool reachable(const HostEnv *e, const HostFunc *fn, uint32_t t)
{
    const Host *h = e->h;
    uint32_t s = line_start(h, t, fn->body_from);
    const MtToken *first = &h->m->toks[s];
    if (s != t && first->kind == TK_NAME && first->kw == KW_IF && mt_host_header_colon(h, s) + 1 == t &&
        if_holds(e, s) == 0)
        return false;
    uint32_t col = first->span.col, base = h->m->toks[fn->body_from].span.col;
    for (uint32_t u = s; u > fn->body_from && col > base;) {
        u = line_start(h, u - 1, fn->body_from);
        const MtToken *k = &h->m->toks[u];
        if (k->kind == TK_NEWLINE || k->kind == TK_INDENT || k->kind == TK_DEDENT || k->span.col >= col)
            continue;
        col = k->span.col;
        if (k->kind == TK_NAME && k->kw == KW_IF && if_holds(e, u) == 0)
            return false;
    }
    return true;
}

/* Call host function f, or the lambda at node lam, with the call's arguments. */
static HostVal call_function(const Args *a, int32_t f, const MtNode *lam, MtSpan sp)
{
    const HostEnv *env = a->env;
    const Host *h = env->h;
    if (env->depth > MAX_DEPTH)
        return unknown();
    MT_VEC(HostBind) bs = {0};
    if (lam) {
        uint32_t t = mt_host_token_at(h, lam->span.off) + 1, i = 0;
        for (; t < h->m->ntoks && !(h->m->toks[t].kind == TK_OP && h->m->toks[t].op == OP_COLON); t++) {
            const MtToken *tok = &h->m->toks[t];
            if (tok->kind == TK_NAME && tok->kw == KW_NONE_ && i < a->npos) {
                HostBind b = {tok->text, a->pos[i++]};
                mt_vec_push(&h->c->arena, &bs, b);
            }
            if (tok->kind == TK_OP && tok->op == OP_ASSIGN)
                break; /* defaults are not evaluated */
        }
        HostEnv e = {h, env->scope, env->at, bs.v, bs.n, env->depth + 1};
        return mt_host_eval(&e, lam->u.unsup.inner);
    }
    const HostFunc *fn = &h->funcs[f];
    for (uint32_t p = 0; p < fn->nparams; p++) {
        HostVal v = p < a->npos ? a->pos[p] : kw(a, fn->params[p].name);
        if (!known(&v) && fn->params[p].default_from < fn->params[p].default_to) {
            HostEnv d = deeper(env, fn->parent, fn->def_tok);
            v = mt_host_eval_range(&d, fn->params[p].default_from, fn->params[p].default_to);
        }
        HostBind b = {fn->params[p].name, v};
        mt_vec_push(&h->c->arena, &bs, b);
    }
    /* The first `return` of the body itself (not of a nested function)
     * that its enclosing `if`s do not rule out. */
    for (uint32_t t = fn->body_from; t < fn->body_to; t++) {
        const MtToken *tok = &h->m->toks[t];
        if (tok->kind != TK_NAME || tok->kw != KW_RETURN || mt_host_scope_of(h, t) != f)
            continue;
        HostEnv e = {h, f, t, bs.v, bs.n, env->depth + 1};
        if (!reachable(&e, fn, t))
            continue;
        HostVal v = mt_host_eval_range(&e, t + 1, mt_host_line_end(h, t));
        v.span = sp;
        return v;
    }
    return unknown();
}

HostVal mt_host_call(const HostEnv *env, const HostVal *f, const HostVal *args, uint32_t nargs)
{
    Args a = {args, nargs, NULL, env};
    if (f->kind == HV_FUNC)
        return call_function(&a, (int32_t)f->i, NULL, f->span);
    if (f->kind == HV_LAMBDA)
        return call_function(&a, -1, f->node, f->span);
    return unknown();
}

static HostVal call(const HostEnv *env, const MtNode *n)
{
    const MtNode *fn = n->u.call.fn;
    HostVal *pos = mt_arena_alloc(&env->h->c->arena, (n->u.call.args.n + 1) * sizeof *pos);
    for (uint32_t i = 0; i < n->u.call.args.n; i++)
        pos[i] = mt_host_eval(env, n->u.call.args.v[i]);
    Args a = {pos, n->u.call.args.n, n, env};
    if (fn->kind == ND_ATTR) {
        HostVal recv = mt_host_eval(env, fn->u.attr.value);
        if (recv.kind == HV_TENSOR)
            return tensor_method(&a, &recv, fn->u.attr.name, n->span);
        if (recv.kind == HV_MODULE)
            return module_call(&a, mt_sprintf(env->h->c, "%s.%s", recv.s, fn->u.attr.name), n->span);
        return unknown();
    }
    HostVal f = mt_host_eval(env, fn);
    if (f.kind == HV_MODULE)
        return module_call(&a, f.s, n->span);
    if (f.kind == HV_FUNC)
        return call_function(&a, (int32_t)f.i, NULL, n->span);
    if (f.kind == HV_LAMBDA)
        return call_function(&a, -1, f.node, n->span);
    return unknown();
}

/* ---- operators ------------------------------------------------------------------------- */

static int64_t floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static HostVal binop(const HostEnv *env, MtOp op, HostVal x, HostVal y, MtSpan sp)
{
    if (x.kind == HV_TENSOR || y.kind == HV_TENSOR)
        return x.kind == HV_TENSOR ? x : y;
    if (x.kind == HV_STR && y.kind == HV_STR && op == OP_PLUS)
        return str_val(mt_sprintf(env->h->c, "%s%s", x.s, y.s), HV_STR, sp);
    bool xs = some_number(&x) || number(&x), ys = some_number(&y) || number(&y);
    if (!xs || !ys)
        return unknown();
    bool fl = x.kind == HV_FLOAT || y.kind == HV_FLOAT || x.kind == HV_SOME_FLOAT || y.kind == HV_SOME_FLOAT ||
              op == OP_SLASH;
    if (some_number(&x) || some_number(&y))
        return of_kind(fl ? HV_SOME_FLOAT : HV_SOME_INT, sp);
    if (fl) {
        double a = as_double(&x), b = as_double(&y);
        switch (op) {
        case OP_PLUS: return float_val(a + b, sp);
        case OP_MINUS: return float_val(a - b, sp);
        case OP_STAR: return float_val(a * b, sp);
        case OP_SLASH: return b != 0 ? float_val(a / b, sp) : unknown();
        case OP_DSLASH: return b != 0 ? float_val(floor(a / b), sp) : unknown();
        case OP_DSTAR: return float_val(pow(a, b), sp);
        default: return unknown();
        }
    }
    int64_t a = x.i, b = y.i;
    switch (op) {
    case OP_PLUS: return int_val(a + b, sp);
    case OP_MINUS: return int_val(a - b, sp);
    case OP_STAR: return int_val(a * b, sp);
    case OP_DSLASH: return b ? int_val(floordiv(a, b), sp) : unknown();
    case OP_PERCENT: return b ? int_val(a - floordiv(a, b) * b, sp) : unknown();
    case OP_DSTAR: {
        if (b < 0 || b > 62)
            return unknown();
        int64_t r = 1;
        for (int64_t i = 0; i < b; i++)
            r *= a;
        return int_val(r, sp);
    }
    case OP_LSHIFT: return b >= 0 && b < 63 ? int_val(a << b, sp) : unknown();
    case OP_RSHIFT: return b >= 0 && b < 63 ? int_val(a >> b, sp) : unknown();
    case OP_AMP: return int_val(a & b, sp);
    case OP_VBAR: return int_val(a | b, sp);
    case OP_CARET: return int_val(a ^ b, sp);
    default: return unknown();
    }
}

/* Python truth of a known value: 1 true, 0 false, -1 unknown. */
static int truth(const HostVal *v)
{
    switch (v->kind) {
    case HV_NONE: return 0;
    case HV_BOOL:
    case HV_INT: return v->i != 0;
    case HV_FLOAT: return v->f != 0;
    case HV_STR: return v->s[0] != 0;
    case HV_LIST: return v->shape ? -1 : v->n != 0;
    case HV_DICT: return v->n != 0;
    default: return -1;
    }
}

/* a <op> b for known scalars: 1, 0, or -1 when it cannot be told. */
static int compare(int op, const HostVal *a, const HostVal *b)
{
    int c;
    if (number(a) && number(b)) {
        double x = as_double(a), y = as_double(b);
        c = x < y ? -1 : x > y;
    } else if (a->kind == HV_STR && b->kind == HV_STR) {
        c = strcmp(a->s, b->s);
        c = c < 0 ? -1 : c > 0;
    } else if (a->kind == HV_NONE || b->kind == HV_NONE) {
        if (!known(a) || !known(b))
            return -1;
        c = a->kind == b->kind ? 0 : 1;
        if (op != OP_EQ && op != OP_NE && op != -KW_IS)
            return -1;
    } else {
        return -1;
    }
    switch (op) {
    case OP_LT: return c < 0;
    case OP_LE: return c <= 0;
    case OP_GT: return c > 0;
    case OP_GE: return c >= 0;
    case OP_EQ:
    case -KW_IS: return c == 0;
    case OP_NE: return c != 0;
    default: return -1;
    }
}

static HostVal subscript(const HostEnv *env, const MtNode *n)
{
    HostVal v = mt_host_eval(env, n->u.sub.value);
    if (v.kind == HV_TENSOR)
        return v;
    if (v.kind == HV_LIST && v.shape)
        return of_kind(HV_SOME_INT, n->span);
    HostVal k = mt_host_eval(env, n->u.sub.index);
    if ((v.kind == HV_DICT || v.kind == HV_CONFIG) && k.kind == HV_STR) {
        const HostVal *e = mt_host_dict_get(&v, k.s);
        return e ? *e : unknown();
    }
    if (v.kind == HV_LIST && k.kind == HV_INT) {
        int64_t i = k.i < 0 ? k.i + v.n : k.i;
        return i >= 0 && i < v.n ? v.items[i] : unknown();
    }
    return unknown();
}

static HostVal list_of(const HostEnv *env, const MtNodeList *l, MtSpan sp)
{
    HostVal v = of_kind(HV_LIST, sp);
    v.items = mt_arena_alloc(&env->h->c->arena, (l->n + 1) * sizeof *v.items);
    for (uint32_t i = 0; i < l->n; i++)
        v.items[v.n++] = mt_host_eval(env, l->v[i]);
    return v;
}

static HostVal dict_of(const HostEnv *env, const MtNode *n)
{
    const MtNodeList *it = &n->u.unsup.items;
    HostVal v = of_kind(HV_DICT, n->span);
    v.items = mt_arena_alloc(&env->h->c->arena, (it->n + 1) * sizeof *v.items);
    for (uint32_t i = 0; i + 1 < it->n; i += 2) {
        if (!it->v[i]) /* **m: its entries first, as Python merges them */
            continue;
        v.items[2 * v.n] = mt_host_eval(env, it->v[i]);
        v.items[2 * v.n + 1] = mt_host_eval(env, it->v[i + 1]);
        v.n++;
    }
    return v;
}

static HostVal attribute(const HostEnv *env, const MtNode *n)
{
    HostVal v = mt_host_eval(env, n->u.attr.value);
    const char *name = n->u.attr.name;
    if (v.kind == HV_MODULE && !strcmp(v.s, "triton.target")) {
        if (!strcmp(name, "backend"))
            return str_val("cuda", HV_STR, n->span);
        return unknown();
    }
    if (v.kind == HV_CONFIG) {
        if (!strcmp(name, "kwargs")) {
            HostVal d = of_kind(HV_DICT, n->span);
            d.items = v.items;
            d.n = (uint32_t)v.i;
            return d;
        }
        for (uint32_t i = (uint32_t)v.i; i < v.n; i++)
            if (v.items[2 * i].kind == HV_STR && !strcmp(v.items[2 * i].s, name))
                return v.items[2 * i + 1];
        /* triton.Config's defaults */
        if (!strcmp(name, "num_warps"))
            return int_val(4, n->span);
        if (!strcmp(name, "num_stages"))
            return int_val(3, n->span);
        if (!strcmp(name, "num_ctas"))
            return int_val(1, n->span);
        return unknown();
    }
    if (v.kind == HV_MODULE) {
        if (dtype_module(v.s) && dtype_sig(name))
            return str_val(dtype_sig(name), HV_DTYPE, n->span);
        return str_val(mt_sprintf(env->h->c, "%s.%s", v.s, name), HV_MODULE, n->span);
    }
    if (v.kind == HV_TENSOR) {
        if (!strcmp(name, "dtype"))
            return str_val(v.s, HV_DTYPE, n->span);
        if (!strcmp(name, "shape")) {
            HostVal s = of_kind(HV_LIST, n->span);
            s.shape = true;
            return s;
        }
        if (!strcmp(name, "T") || !strcmp(name, "mT"))
            return v;
    }
    return unknown();
}

HostVal mt_host_eval(const HostEnv *env, const MtNode *n)
{
    Host *h = (Host *)env->h; /* the index is the discovery's own: counting is its only change */
    if (!n || env->depth > MAX_DEPTH || ++h->evals > MAX_EVALS)
        return unknown();
    switch ((MtNodeKind)n->kind) {
    case ND_INT: return n->u.num.overflow ? of_kind(HV_SOME_INT, n->span) : int_val(n->u.num.i, n->span);
    case ND_FLOAT: return float_val(n->u.num.f, n->span);
    case ND_STR: return str_val(n->u.str.s, HV_STR, n->span);
    case ND_TRUE: return bool_val(true, n->span);
    case ND_FALSE: return bool_val(false, n->span);
    case ND_NONE: return of_kind(HV_NONE, n->span);
    case ND_NAME: {
        HostVal v = lookup(env, n->u.name, n->span);
        if (v.kind != HV_MODULE && v.kind != HV_FUNC)
            return v;
        v.span = n->span;
        return v;
    }
    case ND_ATTR: return attribute(env, n);
    case ND_CALL: return call(env, n);
    case ND_SUBSCRIPT: return subscript(env, n);
    case ND_TUPLE:
    case ND_LIST: return list_of(env, &n->u.list, n->span);
    case ND_BINOP: return binop(env, n->u.bin.op, mt_host_eval(env, n->u.bin.lhs), mt_host_eval(env, n->u.bin.rhs), n->span);
    case ND_UNARY: {
        HostVal x = mt_host_eval(env, n->u.un.operand);
        if (n->u.un.op == -1)
            return truth(&x) < 0 ? unknown() : bool_val(!truth(&x), n->span);
        if (n->u.un.op == OP_MINUS && x.kind == HV_INT)
            return int_val(-x.i, n->span);
        if (n->u.un.op == OP_MINUS && x.kind == HV_FLOAT)
            return float_val(-x.f, n->span);
        if (n->u.un.op == OP_TILDE && x.kind == HV_INT)
            return int_val(~x.i, n->span);
        return n->u.un.op == OP_PLUS ? x : some_number(&x) ? x : unknown();
    }
    case ND_COMPARE: {
        HostVal a = mt_host_eval(env, n->u.cmp.items.v[0]);
        for (uint32_t i = 0; i + 1 < n->u.cmp.items.n; i++) {
            HostVal b = mt_host_eval(env, n->u.cmp.items.v[i + 1]);
            int r = compare(n->u.cmp.ops[i], &a, &b);
            if (r < 0)
                return unknown();
            if (n->u.cmp.negated[i])
                r = !r;
            if (!r)
                return bool_val(false, n->span);
            a = b;
        }
        return bool_val(true, n->span);
    }
    case ND_BOOLOP: {
        HostVal v = unknown();
        for (uint32_t i = 0; i < n->u.boolop.items.n; i++) {
            v = mt_host_eval(env, n->u.boolop.items.v[i]);
            int t = truth(&v);
            if (t < 0)
                return unknown();
            if ((n->u.boolop.op == KW_AND) != (t == 1))
                return v;
        }
        return v;
    }
    case ND_IFEXP: {
        HostVal t = mt_host_eval(env, n->u.ifexp.test);
        int b = truth(&t);
        return b < 0 ? unknown() : mt_host_eval(env, b ? n->u.ifexp.body : n->u.ifexp.orelse);
    }
    case ND_UNSUPPORTED:
        if (!strcmp(n->u.unsup.what, "dict display"))
            return dict_of(env, n);
        if (!strcmp(n->u.unsup.what, "lambda")) {
            HostVal v = of_kind(HV_LAMBDA, n->span);
            v.node = n;
            return v;
        }
        if (!strcmp(n->u.unsup.what, "list comprehension"))
            return mt_host_comprehension(env, n, MAX_RANGE);
        return unknown();
    default: return unknown();
    }
}

HostVal mt_host_eval_range(const HostEnv *env, uint32_t from, uint32_t to)
{
    if (env->depth > MAX_DEPTH)
        return unknown();
    return mt_host_eval(env, mt_parse_host_expr(env->h->c, env->h->m, from, to));
}

const HostVal *mt_host_dict_get(const HostVal *d, const char *key)
{
    uint32_t n = d->kind == HV_CONFIG ? (uint32_t)d->i : d->n;
    for (uint32_t i = 0; i < n; i++)
        if (d->items[2 * i].kind == HV_STR && !strcmp(d->items[2 * i].s, key))
            return &d->items[2 * i + 1];
    return NULL;
}

/* ---- comprehensions ------------------------------------------------------------------------ */

typedef struct Clause {
    bool cond;                /* `if COND` (else `for TARGET in ITER`) */
    uint32_t target_from, target_to, from, to;
} Clause;

typedef struct Comp {
    const HostEnv *env;
    uint32_t elt_from, elt_to;
    Clause *clauses;
    uint32_t nclauses;
    MT_VEC(HostBind) binds;
    MT_VEC(HostVal) out;
    uint32_t max;
    bool failed;
} Comp;

/* Bind a `for` target (NAME, or NAME, NAME / (NAME, NAME)) to v. */
static bool bind_target(Comp *cp, const Clause *cl, HostVal v)
{
    const Host *h = cp->env->h;
    uint32_t item = 0;
    bool tuple = false;
    for (uint32_t t = cl->target_from; t < cl->target_to; t++)
        tuple |= h->m->toks[t].kind == TK_OP && h->m->toks[t].op == OP_COMMA;
    for (uint32_t t = cl->target_from; t < cl->target_to; t++) {
        const MtToken *tok = &h->m->toks[t];
        if (tok->kind == TK_OP && tok->op == OP_COMMA)
            item++;
        if (tok->kind != TK_NAME || tok->kw != KW_NONE_)
            continue;
        HostBind b = {tok->text, v};
        if (tuple) {
            if (v.kind != HV_LIST || item >= v.n)
                return false;
            b.v = v.items[item];
        }
        mt_vec_push(&h->c->arena, &cp->binds, b);
    }
    return true;
}

static void expand(Comp *cp, uint32_t k)
{
    if (cp->failed || cp->out.n >= cp->max)
        return;
    HostEnv env = *cp->env;
    env.binds = cp->binds.v;
    env.nbinds = cp->binds.n;
    if (k == cp->nclauses) {
        HostVal v = mt_host_eval_range(&env, cp->elt_from, cp->elt_to);
        mt_vec_push(&cp->env->h->c->arena, &cp->out, v);
        return;
    }
    const Clause *cl = &cp->clauses[k];
    HostVal it = mt_host_eval_range(&env, cl->from, cl->to);
    if (cl->cond) {
        int t = truth(&it);
        if (t != 0)
            expand(cp, k + 1); /* an unknown condition keeps the element */
        return;
    }
    if (it.kind != HV_LIST || it.shape) {
        cp->failed = true;
        return;
    }
    for (uint32_t i = 0; i < it.n && !cp->failed; i++) {
        uint32_t mark = cp->binds.n;
        if (!bind_target(cp, cl, it.items[i])) {
            cp->failed = true;
            return;
        }
        expand(cp, k + 1);
        cp->binds.n = mark;
    }
}

HostVal mt_host_comprehension(const HostEnv *env, const MtNode *n, uint32_t max)
{
    const Host *h = env->h;
    HostVal none = of_kind(HV_LIST, n->span);
    uint32_t open = mt_host_token_at(h, n->span.off), close = mt_host_close(h, open);
    if (close == open || env->depth > MAX_DEPTH)
        return none;
    Comp cp = {.env = env, .elt_from = open + 1, .max = max};
    for (uint32_t i = 0; i < env->nbinds; i++) /* the names bound around it stay visible */
        mt_vec_push(&h->c->arena, &cp.binds, env->binds[i]);
    MT_VEC(Clause) cls = {0};
    uint32_t end = close;
    for (uint32_t t = open + 1; t < close; t++) {
        const MtToken *tok = &h->m->toks[t];
        if (tok->kind == TK_OP && (tok->op == OP_LPAR || tok->op == OP_LSQB || tok->op == OP_LBRACE)) {
            t = mt_host_close(h, t);
            continue;
        }
        if (tok->kind != TK_NAME || (tok->kw != KW_FOR && tok->kw != KW_IF && tok->kw != KW_IN))
            continue;
        if (cls.n == 0 && tok->kw != KW_FOR)
            continue; /* an `if` inside the element (x if c else y) */
        if (cls.n == 0)
            cp.elt_to = t;
        else if (tok->kw != KW_IN && cls.v[cls.n - 1].to == 0)
            cls.v[cls.n - 1].to = t;
        if (tok->kw == KW_FOR) {
            Clause c = {.target_from = t + 1};
            mt_vec_push(&h->c->arena, &cls, c);
        } else if (tok->kw == KW_IN && cls.n && !cls.v[cls.n - 1].cond && !cls.v[cls.n - 1].target_to) {
            cls.v[cls.n - 1].target_to = t;
            cls.v[cls.n - 1].from = t + 1;
        } else if (tok->kw == KW_IF) {
            Clause c = {.cond = true, .from = t + 1};
            mt_vec_push(&h->c->arena, &cls, c);
        }
    }
    if (!cls.n)
        return none;
    if (cls.v[cls.n - 1].to == 0)
        cls.v[cls.n - 1].to = end;
    for (uint32_t i = 0; i < cls.n; i++)
        if (!cls.v[i].cond && !cls.v[i].target_to)
            return none;
    cp.clauses = cls.v;
    cp.nclauses = cls.n;
    expand(&cp, 0);
    if (cp.failed)
        return none;
    none.items = cp.out.v;
    none.n = cp.out.n;
    return none;
}

/* ---- results -------------------------------------------------------------------------------- */

const char *mt_host_literal(MtCtx *c, const HostVal *v)
{
    switch (v->kind) {
    case HV_INT: return mt_sprintf(c, "%lld", (long long)v->i);
    case HV_BOOL: return v->i ? "True" : "False";
    case HV_NONE: return "None";
    case HV_FLOAT: {
        char buf[32];
        mt_format_pyfloat(buf, v->f);
        return mt_sprintf(c, "%s", buf);
    }
    case HV_STR: {
        size_t n = mt_literal_quote(NULL, 0, v->s);
        char *q = mt_arena_alloc(&c->arena, n + 1);
        mt_literal_quote(q, n + 1, v->s);
        return q;
    }
    case HV_DTYPE: {
        /* tl.float16: the spelling the compiler reads as a dtype value */
        MtDtype d;
        return mt_dtype_parse(v->s, &d) ? mt_sprintf(c, "tl.%s", mt_dtype_info(d)->tl) : NULL;
    }
    default: return NULL;
    }
}

const char *mt_host_sig_type(MtCtx *c, const HostVal *v)
{
    switch (v->kind) {
    case HV_TENSOR: return mt_sprintf(c, "*%s", v->s);
    case HV_INT: return v->i >= INT32_MIN && v->i <= INT32_MAX ? "i32" : "i64";
    case HV_SOME_INT: return "i32";
    case HV_FLOAT:
    case HV_SOME_FLOAT: return "fp32";
    case HV_BOOL: return "i1";
    default: return NULL;
    }
}

const char *mt_host_describe(MtCtx *c, const HostVal *v)
{
    switch (v->kind) {
    case HV_TENSOR: return mt_sprintf(c, "a tensor of %s", v->s);
    case HV_SOME_INT: return "an int";
    case HV_SOME_FLOAT: return "a float";
    case HV_DTYPE: return v->s;
    default: return mt_host_literal(c, v);
    }
}

const char *mt_host_callee_path(const HostEnv *env, const MtNode *fn)
{
    if (fn->kind == ND_CALL)
        fn = fn->u.call.fn;
    HostVal v = mt_host_eval(env, fn);
    return v.kind == HV_MODULE ? v.s : NULL;
}
