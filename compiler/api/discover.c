/* discover.c: the specialisation of a kernel, found in the file itself
 * (mt_discover; the contract is in mytriton.h).
 *
 * Each parameter takes the first of, in order: a signature entry (the
 * `# mytriton:` comment's sig=, else the tool's), a tool value above the
 * file (-D), the comment's NAME=VALUE, a tool value for this kernel (the
 * project file), the first launch of the kernel in host code (its file,
 * then the other modules of its package), the chosen config of its
 * @triton.autotune, its @triton.heuristics, its default, a tool value
 * below the file (project-wide, editor settings). Runtime parameters take
 * types only from signatures and launches; a launch type this compiler
 * cannot compile yet (fp16 before the dtype work) is recorded but left
 * out, and the parameter is inferred from its use.
 *
 * The result is an MtSpec for mt_compile: the signature carries the
 * runtime types (and the signature entries given), the defines carry
 * every value that is not a default; the frontend applies defaults and
 * reports I0901 for the tl.constexpr parameters still without a value.
 * mt_discover_fix (query_specialise.c) then proposes values for those
 * that compile. */
#include <string.h>

#include "base/strbuf.h"
#include "host.h"

typedef struct Disc {
    MtCtx *c;
    const MtModule *m;
    const MtFuncDef *fn;
    const MtKernelInfo *info;
    const MtDiscoverOptions *opt;
    Host *host;
    MtFound *found;
    HostVal *vals;            /* per parameter: its value as host code sees it (heuristics read these) */
    MtDiscovery *out;
} Disc;

const char *mt_origin_name(MtOrigin o)
{
    switch (o) {
    case MT_ORIGIN_NONE: return "none";
    case MT_ORIGIN_SIGNATURE: return "signature";
    case MT_ORIGIN_OVERRIDE: return "override";
    case MT_ORIGIN_DIRECTIVE: return "comment";
    case MT_ORIGIN_GIVEN: return "given";
    case MT_ORIGIN_LAUNCH: return "launch";
    case MT_ORIGIN_AUTOTUNE: return "autotune";
    case MT_ORIGIN_HEURISTICS: return "heuristics";
    case MT_ORIGIN_DEFAULT: return "default";
    case MT_ORIGIN_FALLBACK: return "fallback";
    }
    return "?";
}

static bool unset(const MtFound *f) { return f->origin == MT_ORIGIN_NONE; }

/* ---- values as text ---------------------------------------------------------------------- */

/* A Python literal as a host value (signature entries, comment and tool
 * values, so that heuristics can read them), read by the rule the
 * compiler reads them by (mt_literal_parse); HV_UNKNOWN if it is not one. */
static HostVal literal_value(MtCtx *c, const char *text)
{
    HostVal v = {.kind = HV_UNKNOWN};
    MtLiteral lit;
    if (!mt_literal_parse(c, text, &lit))
        return v;
    switch (lit.kind) {
    case MT_LITERAL_NONE: v.kind = HV_NONE; break;
    case MT_LITERAL_BOOL: v.kind = HV_BOOL; v.i = lit.i; break;
    case MT_LITERAL_INT:
        v.kind = lit.big ? HV_SOME_INT : HV_INT; /* a u64 above INT64_MAX: an int, not a host int64 */
        v.i = lit.i;
        break;
    case MT_LITERAL_FLOAT: v.kind = HV_FLOAT; v.f = lit.f; break;
    case MT_LITERAL_STR: v.kind = HV_STR; v.s = lit.s; break;
    case MT_LITERAL_DTYPE: v.kind = HV_DTYPE; v.s = mt_dtype_info(lit.dtype)->sig; break;
    }
    return v;
}

/* ---- types this compiler can compile ------------------------------------------------------ */

/* Whether mt_compile accepts `type` as a signature entry: asked of the
 * compiler itself, on a one-line kernel in a scratch context, once per
 * module. */
static bool type_supported(Disc *d, const char *type)
{
    Host *h = d->host;
    for (uint32_t i = 0; i < h->nprobes; i++)
        if (!strcmp(h->probes[i].type, type))
            return h->probes[i].ok;
    static const char probe[] = "import triton\n@triton.jit\ndef probe(p):\n    pass\n";
    MtCtx *s = mt_ctx_new(NULL);
    MtModule *m;
    MtCompiled *k;
    MtSpec spec = {.kernel = "probe", .signature = type, .last_stage = MT_STAGE_EXPR};
    bool ok = s && mt_parse(s, "probe.py", probe, sizeof probe - 1, &m) == MT_OK &&
              mt_compile(s, m, &spec, &k) == MT_OK;
    if (!s)
        mt_throw(d->c, MT_ERR_NOMEM);
    mt_ctx_free(s);
    if (h->nprobes < sizeof h->probes / sizeof h->probes[0])
        h->probes[h->nprobes++] = (struct HostProbe){mt_arena_strdup(&d->c->arena, type), ok};
    return ok;
}

/* ---- the comment, signatures and tool values ---------------------------------------------- */

static int param_index(const Disc *d, const char *name)
{
    for (uint32_t i = 0; i < d->info->nparams; i++)
        if (!strcmp(d->info->params[i].name, name))
            return (int)i;
    return -1;
}

static void set_value(Disc *d, int i, MtOrigin o, const char *value, const char *where, MtSpan sp)
{
    MtFound *f = &d->found[i];
    f->origin = o;
    f->value = value;
    f->where = where;
    f->span = sp;
    d->vals[i] = literal_value(d->c, value);
}

/* Entries of a signature for the parameters still unset. */
static void signature(Disc *d, const char *sig, const char *where, MtSpan sp)
{
    uint32_t i = 0;
    for (const char *p = sig; i < d->info->nparams; i++) {
        size_t n = mt_unquoted_span(p, ","), skip = strspn(p, " \t");
        skip = skip < n ? skip : n;
        while (n > skip && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        const char *e = mt_arena_strndup(&d->c->arena, p + skip, n - skip);
        n = mt_unquoted_span(p, ",");
        if (*e && unset(&d->found[i])) {
            HostVal v = literal_value(d->c, e);
            if (v.kind != HV_UNKNOWN) {
                set_value(d, (int)i, MT_ORIGIN_SIGNATURE, e, where, sp);
            } else {
                d->found[i].origin = MT_ORIGIN_SIGNATURE;
                d->found[i].type = e;
                d->found[i].where = where;
                d->found[i].span = sp;
            }
        }
        if (!p[n])
            break;
        p += n + 1;
    }
}

static void given(Disc *d, MtGivenTier tier, MtOrigin o)
{
    for (size_t g = 0; g < d->opt->ngiven; g++) {
        const MtGiven *v = &d->opt->given[g];
        int i = v->tier == tier ? param_index(d, v->name) : -1;
        if (i < 0 || !unset(&d->found[i]) || (tier == MT_GIVEN_FALLBACK && !d->found[i].constexpr_))
            continue;
        const char *value = mt_arena_strdup(&d->c->arena, v->value);
        set_value(d, i, o, value, mt_arena_strdup(&d->c->arena, v->origin ? v->origin : "the tool"), (MtSpan){0});
        d->found[i].detail = mt_sprintf(d->c, "%s=%s", v->name, value);
    }
}

/* `# mytriton: NAME=VALUE ... sig=...`: items separated by spaces or
 * commas; its signature (a signature outranks everything) or its values. */
static void directive(Disc *d, bool sig)
{
    const char *s = d->info->directive;
    MtSpan sp = d->info->directive_span;
    for (const char *p = s; p && *p;) {
        p += strspn(p, " \t,");
        size_t len = mt_unquoted_span(p, " \t");
        const char *eq = memchr(p, '=', len);
        if (eq && eq > p) {
            const char *name = mt_arena_strndup(&d->c->arena, p, (size_t)(eq - p));
            size_t vl = len - (size_t)(eq + 1 - p);
            while (vl && eq[vl] == ',')
                vl--;
            const char *value = mt_arena_strndup(&d->c->arena, eq + 1, vl);
            if (!strcmp(name, "sig") || !strcmp(name, "signature")) {
                if (sig)
                    signature(d, value, "the `# mytriton:` comment", sp);
            } else if (!sig) {
                int i = param_index(d, name);
                if (i >= 0 && unset(&d->found[i])) {
                    set_value(d, i, MT_ORIGIN_DIRECTIVE, value, "the `# mytriton:` comment", sp);
                    d->found[i].detail = mt_sprintf(d->c, "%s=%s", name, value);
                }
            }
        }
        p += len;
    }
}

/* ---- launches ------------------------------------------------------------------------------ */

static const char *line_words(const Disc *d, const Host *h, MtSpan sp)
{
    if (h->m == d->m)
        return mt_sprintf(d->c, "line %u", sp.line);
    const char *path = mt_file_path(d->c, sp.file);
    const char *base = path ? strrchr(path, '/') : NULL;
    return mt_sprintf(d->c, "%s:%u", base ? base + 1 : path ? path : "?", sp.line);
}

/* The first launch of the kernel in h's module; *count is raised by
 * every launch seen. */
static const MtNode *find_launch(const Disc *d, const Host *h, uint32_t *count, HostEnv *env)
{
    const MtNode *first = NULL;
    for (uint32_t i = 0; i < h->nlaunches; i++) {
        const HostLaunch *l = &h->launches[i];
        if (strcmp(l->name, d->fn->name))
            continue;
        const MtNode *call = mt_parse_host_expr(d->c, h->m, l->from, l->to);
        if (!call || call->kind != ND_CALL)
            continue;
        (*count)++;
        if (!first) {
            first = call;
            *env = (HostEnv){h, mt_host_scope_of(h, l->name_tok), l->name_tok, NULL, 0, 0};
        }
    }
    return first;
}

static const char *source_text(const Disc *d, MtSpan sp)
{
    size_t len;
    const char *text = mt_file_text(d->c, sp.file, &len);
    if (!text || sp.end > len || sp.end < sp.off)
        return NULL;
    return mt_arena_strndup(&d->c->arena, text + sp.off, sp.end - sp.off);
}

/* Parameter i receives `arg` (a keyword when kw) at the launch. */
static void launch_argument(Disc *d, const HostEnv *env, int i, const MtNode *arg, const char *where)
{
    MtFound *f = &d->found[i];
    HostVal v = mt_host_eval(env, arg);
    d->vals[i] = v;
    if (!unset(f))
        return;
    const char *text = source_text(d, arg->span);
    if (f->constexpr_) {
        const char *lit = mt_host_literal(d->c, &v);
        if (!lit)
            return;
        set_value(d, i, MT_ORIGIN_LAUNCH, lit, where, arg->span);
        d->vals[i] = v;
        f->detail = mt_sprintf(d->c, "%s=%s", f->name, text ? text : lit);
        return;
    }
    const char *type = mt_host_sig_type(d->c, &v);
    if (!type)
        return;
    f->detail = text;
    f->seen = mt_host_describe(d->c, &v);
    f->where = where;
    f->span = arg->span;
    if (!type_supported(d, type)) {
        f->unsupported_type = type;
        return;
    }
    f->origin = MT_ORIGIN_LAUNCH;
    f->type = type;
}

static void launch(Disc *d, const Host *h, const MtNode *call, const HostEnv *env)
{
    const char *where = mt_sprintf(d->c, "the launch at %s", line_words(d, h, call->span));
    d->out->launch = call->span;
    for (uint32_t a = 0; a < call->u.call.args.n && a < d->info->nparams; a++) {
        if (call->u.call.args.v[a]->kind == ND_UNSUPPORTED)
            break; /* *args: the positions after it are not known */
        launch_argument(d, env, (int)a, call->u.call.args.v[a], where);
    }
    for (uint32_t k = 0; k < call->u.call.nkw; k++) {
        const MtKeyword *kw = &call->u.call.kw[k];
        int i = kw->name ? param_index(d, kw->name) : -1;
        if (i >= 0)
            launch_argument(d, env, i, kw->value, where);
    }
}

/* ---- decorators ---------------------------------------------------------------------------- */

/* The decorator calls above the kernel whose callee ends in `name`. */
static const MtNode *decorator(const Disc *d, const char *name, HostEnv *env)
{
    const Host *h = d->host;
    const MtToken *t = h->m->toks;
    uint32_t def = mt_host_token_at(h, d->fn->def_span.off);
    for (uint32_t i = mt_host_token_at(h, d->fn->span.off); i < def; i++) {
        if (t[i].kind != TK_OP || t[i].op != OP_AT)
            continue;
        uint32_t end = mt_host_line_end(h, i);
        const MtNode *n = mt_parse_host_expr(d->c, h->m, i + 1, end);
        *env = (HostEnv){h, -1, i, NULL, 0, 0};
        const char *path = n && n->kind == ND_CALL ? mt_host_callee_path(env, n) : NULL;
        if (path && mt_host_path_is(path, name))
            return n;
        i = end;
    }
    return NULL;
}

static const MtNode *argument(const MtNode *call, uint32_t index, const char *name)
{
    for (uint32_t k = 0; k < call->u.call.nkw; k++)
        if (call->u.call.kw[k].name && !strcmp(call->u.call.kw[k].name, name))
            return call->u.call.kw[k].value;
    return index < call->u.call.args.n ? call->u.call.args.v[index] : NULL;
}

/* "BLOCK_SIZE_M=128, ..., num_warps=8" for a config. */
static const char *config_text(Disc *d, const HostVal *cfg)
{
    MtBuf b;
    mt_buf_init(&b, &d->c->arena);
    for (uint32_t i = 0; i < cfg->n; i++) {
        const char *lit = mt_host_literal(d->c, &cfg->items[2 * i + 1]);
        if (cfg->items[2 * i].kind == HV_STR)
            mt_buf_printf(&b, "%s%s=%s", b.n ? ", " : "", cfg->items[2 * i].s, lit ? lit : "?");
    }
    return mt_buf_str(&b);
}

static void autotune(Disc *d)
{
    HostEnv env;
    const MtNode *call = decorator(d, "autotune", &env);
    const MtNode *arg = call ? argument(call, 0, "configs") : NULL;
    if (!arg)
        return;
    HostVal list = mt_host_eval(&env, arg);
    if (list.kind != HV_LIST || list.shape)
        return;
    uint32_t n = 0;
    for (uint32_t i = 0; i < list.n; i++)
        n += list.items[i].kind == HV_CONFIG;
    if (!n)
        return;
    uint32_t want = d->opt->config < n ? d->opt->config : n - 1, seen = 0;
    const HostVal *cfg = NULL;
    for (uint32_t i = 0; i < list.n && !cfg; i++)
        if (list.items[i].kind == HV_CONFIG && seen++ == want)
            cfg = &list.items[i];
    MtDiscovery *out = d->out;
    out->nconfigs = n;
    out->config = want;
    out->config_span = cfg->span;
    out->config_text = config_text(d, cfg);
    const char *where = mt_sprintf(d->c, "autotune config %u of %u", want + 1, n);
    for (uint32_t i = 0; i < (uint32_t)cfg->i; i++) {
        const HostVal *k = &cfg->items[2 * i], *v = &cfg->items[2 * i + 1];
        int p = k->kind == HV_STR ? param_index(d, k->s) : -1;
        const char *lit = mt_host_literal(d->c, v);
        if (p < 0 || !unset(&d->found[p]) || !lit)
            continue;
        set_value(d, p, MT_ORIGIN_AUTOTUNE, lit, where, v->span);
        d->vals[p] = *v;
        d->found[p].detail = mt_sprintf(d->c, "%s=%s", k->s, lit);
    }
}

/* `args` for a heuristic: every parameter's value as far as it is known. */
static HostVal heuristic_args(Disc *d)
{
    HostVal a = {.kind = HV_DICT};
    a.items = mt_arena_alloc(&d->c->arena, (2 * d->info->nparams + 1) * sizeof *a.items);
    for (uint32_t i = 0; i < d->info->nparams; i++) {
        a.items[2 * a.n] = (HostVal){.kind = HV_STR, .s = d->info->params[i].name};
        a.items[2 * a.n + 1] = d->vals[i];
        a.n++;
    }
    return a;
}

static void heuristics(Disc *d)
{
    HostEnv env;
    const MtNode *call = decorator(d, "heuristics", &env);
    const MtNode *arg = call ? argument(call, 0, "values") : NULL;
    HostVal dict = arg ? mt_host_eval(&env, arg) : (HostVal){.kind = HV_UNKNOWN};
    if (dict.kind != HV_DICT)
        return;
    HostVal args = heuristic_args(d);
    for (uint32_t i = 0; i < dict.n; i++) {
        const HostVal *k = &dict.items[2 * i], *fn = &dict.items[2 * i + 1];
        int p = k->kind == HV_STR ? param_index(d, k->s) : -1;
        if (p < 0 || !unset(&d->found[p]))
            continue;
        HostVal v = mt_host_call(&env, fn, &args, 1);
        const char *lit = mt_host_literal(d->c, &v);
        if (!lit)
            continue;
        set_value(d, p, MT_ORIGIN_HEURISTICS, lit, "@triton.heuristics", fn->span);
        d->vals[p] = v;
        d->found[p].detail = mt_sprintf(d->c, "%s=%s", k->s, lit);
    }
}

/* Defaults: the frontend applies them; heuristics can read them. */
static void defaults(Disc *d, bool assign)
{
    for (uint32_t i = 0; i < d->fn->nparams; i++) {
        const MtNode *dv = d->fn->params[i].default_;
        if (!dv)
            continue;
        if (!assign) {
            if (d->vals[i].kind == HV_UNKNOWN) {
                HostEnv env = {d->host, -1, mt_host_token_at(d->host, dv->span.off), NULL, 0, 0};
                d->vals[i] = mt_host_eval(&env, dv);
            }
            continue;
        }
        MtFound *f = &d->found[i];
        if (!unset(f))
            continue;
        f->origin = MT_ORIGIN_DEFAULT;
        f->where = "its default";
        f->span = dv->span;
        if (f->constexpr_)
            f->value = d->info->params[i].default_text;
    }
}

/* ---- the spec ---------------------------------------------------------------------------------- */

static void build_spec(Disc *d)
{
    MtSpec *spec = &d->out->spec;
    spec->kernel = d->fn->name;
    spec->infer_params = true;
    uint32_t n = d->info->nparams, nentries = 0;
    const char **entries = mt_arena_alloc(&d->c->arena, (n + 1) * sizeof *entries);
    MtDefine *defs = mt_arena_alloc(&d->c->arena, (n + 1) * sizeof *defs);
    for (uint32_t i = 0; i < n; i++) {
        const MtFound *f = &d->found[i];
        entries[i] = f->type && f->origin != MT_ORIGIN_NONE ? f->type
                     : f->origin == MT_ORIGIN_SIGNATURE ? f->value : NULL;
        if (entries[i])
            nentries = i + 1;
        else if (f->value && f->origin != MT_ORIGIN_DEFAULT)
            defs[spec->ndefines++] = (MtDefine){f->name, f->value};
    }
    MtBuf sig;
    mt_buf_init(&sig, &d->c->arena);
    for (uint32_t i = 0; i < nentries; i++)
        mt_buf_printf(&sig, "%s%s", i ? "," : "", entries[i] ? entries[i] : "");
    spec->signature = nentries ? mt_buf_str(&sig) : NULL;
    spec->defines = defs;
}

typedef struct Job {
    const MtModule *m;
    const char *kernel;
    const MtDiscoverOptions *opt;
    const MtDiscovery **out;
} Job;

static MtStatus discover(MtCtx *c, void *ud)
{
    Job *j = ud;
    Disc d = {.c = c, .m = j->m, .opt = j->opt};
    for (uint32_t i = j->m->nfuncs; i-- > 0 && !d.fn;)
        if (!strcmp(j->m->funcs[i]->name, j->kernel)) {
            d.fn = j->m->funcs[i];
            d.info = &j->m->infos[i];
        }
    if (!d.fn)
        return MT_ERR_USAGE;
    uint32_t n = d.info->nparams;
    d.out = mt_arena_alloc(&c->arena, sizeof *d.out);
    d.found = mt_arena_alloc(&c->arena, (n + 1) * sizeof *d.found);
    d.vals = mt_arena_alloc(&c->arena, (n + 1) * sizeof *d.vals);
    d.host = mt_host_index(c, j->m);
    d.host->evals = 0; /* each kernel's discovery has the whole budget */
    for (uint32_t i = 0; i < n; i++) {
        d.found[i].name = d.info->params[i].name;
        d.found[i].constexpr_ = d.info->params[i].constexpr_;
    }
    directive(&d, true);
    if (j->opt->signature)
        signature(&d, mt_arena_strdup(&c->arena, j->opt->signature),
                  mt_arena_strdup(&c->arena, j->opt->signature_origin ? j->opt->signature_origin : "the tool's signature"),
                  (MtSpan){0});
    given(&d, MT_GIVEN_OVERRIDE, MT_ORIGIN_OVERRIDE);
    directive(&d, false);
    given(&d, MT_GIVEN_KERNEL, MT_ORIGIN_GIVEN);

    HostEnv env;
    const MtNode *call = find_launch(&d, d.host, &d.out->nlaunches, &env);
    const Host *where = d.host;
    for (size_t o = 0; o < j->opt->nothers; o++) {
        Host *h = mt_host_index(c, j->opt->others[o]);
        HostEnv e;
        const MtNode *other = find_launch(&d, h, &d.out->nlaunches, &e);
        if (!call && other) {
            call = other;
            env = e;
            where = h;
        }
    }
    if (call)
        launch(&d, where, call, &env);
    autotune(&d);
    defaults(&d, false);
    heuristics(&d);
    defaults(&d, true);
    given(&d, MT_GIVEN_FALLBACK, MT_ORIGIN_FALLBACK);
    for (uint32_t i = 0; i < n; i++)
        d.out->nmissing += d.found[i].constexpr_ && unset(&d.found[i]);
    d.out->kernel = d.fn->name;
    d.out->params = d.found;
    d.out->nparams = n;
    build_spec(&d);
    *j->out = d.out;
    return MT_OK;
}

MtStatus mt_discover(MtCtx *c, const MtModule *m, const char *kernel, const MtDiscoverOptions *opt,
                     const MtDiscovery **out)
{
    static const MtDiscoverOptions none = {0};
    *out = NULL;
    if (!m || !kernel)
        return MT_ERR_USAGE;
    Job j = {m, kernel, opt ? opt : &none, out};
    return mt_protect(c, discover, &j);
}
