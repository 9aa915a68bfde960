/* query_specialise.c: the fix for I0901, a specialisation that compiles
 * (mt_discover_fix; the contract is in mytriton.h).
 *
 * Every tl.constexpr that the discovery left without a value gets one,
 * chosen by compiling the kernel in a scratch context: the names say what
 * a parameter is likely for (a flag, a group size, a stage count, else a
 * tile), tiles are powers of two from 128 down (the largest that fits),
 * then the other choice for flags, groups and stages. A candidate compiles
 * when it goes through the layouts, or fails only with E0603 (a construct
 * the fast lowering cannot lower yet, which the interpreter runs).
 *
 * Without a launch that shows their dtype, pointer parameters are typed
 * from their use, as *fp32. A kernel that computes in half precision
 * (fused attention: `p.to(tl.float16)` meets a loaded block in tl.dot)
 * then fails a dtype rule because of that guess, whatever the values: the
 * frontend gives such an error the fact "guessed_dtype". The candidate is
 * then compiled again with those pointers as *fp16, then *bf16, and the
 * first that compiles is proposed with a `sig=` entry for each of them,
 * the fix saying that their dtype is a guess (MtQueryFix.guess). So a
 * candidate costs at most three compiles, and only a dtype failure pays
 * for the other two. */
#include <string.h>

#include "base/strbuf.h"
#include "query.h"

typedef enum Guess { GUESS_TILE, GUESS_GROUP, GUESS_FLAG, GUESS_STAGES } Guess;

/* What a tl.constexpr is likely for, from its name: a flag, a group size,
 * a pipelining depth or stage selector (num_stages, STAGE), a tile. */
static Guess guess(const char *name)
{
    static const char *const flags[] = {"EVEN", "HAS_", "IS_", "USE_", "ENABLE", "WITH_", "DO_", "NEED"};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (!strncmp(name, flags[i], strlen(flags[i])))
            return GUESS_FLAG;
    if (strstr(name, "STAGE") || strstr(name, "stage"))
        return GUESS_STAGES;
    return strstr(name, "GROUP") ? GUESS_GROUP : GUESS_TILE;
}

/* Whether a compile that ended with st, its diagnostics from index `from`
 * on, passes: no error, or only E0603 (the values are right; the lowering
 * is not there yet). */
static bool passes(const MtCtx *s, MtStatus st, size_t from)
{
    if (st == MT_OK)
        return true;
    size_t errors = 0;
    for (size_t i = from; i < mt_diag_count(s); i++) {
        const MtDiag *d = mt_diag_at(s, i);
        if (d->sev != MT_SEV_ERROR)
            continue;
        if (!d->code || strcmp(d->code, "E0603"))
            return false;
        errors++;
    }
    return st == MT_ERR_SOURCE && errors > 0;
}

/* Whether an error from index `from` on failed a dtype rule on a pointer
 * whose type was guessed. */
static bool guessed_dtype(const MtCtx *s, size_t from)
{
    int64_t at;
    for (size_t i = from; i < mt_diag_count(s); i++)
        if (mt_diag_at(s, i)->sev == MT_SEV_ERROR && mt_diag_fact(mt_diag_at(s, i), "guessed_dtype", &at))
            return true;
    return false;
}

/* One candidate, compiled in a scratch context. */
typedef struct Trial {
    MtCtx *c;                 /* the document's context: the results live there */
    const MtModule *m;        /* the document's module */
    const MtDiscovery *dsc;
    const MtDefine *extra;    /* the candidate values */
    size_t nextra;
    int sm;
    bool retype;              /* pointers typed from their use may take another dtype */
    bool ok;                  /* out: it compiles */
    MtDtype elem;             /* out, when nguessed: what the guessed pointers point to */
    uint32_t *guessed;        /* out: those parameters (positions in the kernel's list), room for all */
    uint32_t nguessed;
} Trial;

static const MtDtype other_elems[] = {MT_DT_F16, MT_DT_BF16};

static MtStatus trial(MtCtx *s, void *ud)
{
    Trial *t = ud;
    size_t len;
    const char *text = mt_file_text(t->c, t->m->file, &len);
    MtModule *m;
    if (mt_parse(s, mt_file_path(t->c, t->m->file), text, len, &m) == MT_ERR_NOMEM || !m)
        return MT_ERR_NOMEM;
    const MtSpec *base = &t->dsc->spec;
    MtDefine *defs = mt_arena_alloc(&s->arena, (base->ndefines + t->nextra + 1) * sizeof *defs);
    memcpy(defs, base->defines, base->ndefines * sizeof *defs);
    memcpy(defs + base->ndefines, t->extra, t->nextra * sizeof *defs);
    MtSpec spec = *base;
    spec.defines = defs;
    spec.ndefines = base->ndefines + t->nextra;
    spec.last_stage = MT_STAGE_LAYOUT;
    spec.sm = t->sm;
    size_t from = mt_diag_count(s);
    MtCompiled *k;
    MtStatus st = mt_compile(s, m, &spec, &k);
    if ((t->ok = passes(s, st, from)) || !t->retype || !k || !guessed_dtype(s, from))
        return MT_OK;
    for (size_t e = 0; e < sizeof other_elems / sizeof other_elems[0]; e++) {
        MtSpec typed = spec;
        if (!(typed.signature = mt_compiled_respec(s, k, mt_ty_scalar(other_elems[e]))))
            return MT_OK;
        from = mt_diag_count(s);
        MtCompiled *tk;
        if (!passes(s, mt_compile(s, m, &typed, &tk), from))
            continue;
        /* the parameters respec retyped: runtime pointers to f32 typed from their use */
        t->ok = true;
        t->elem = other_elems[e];
        for (uint32_t i = 0; i < k->prog->nsig && i < t->dsc->nparams; i++) {
            const MtExpr *p = k->prog->sig_param[i];
            if (p && k->prog->inferred[p->u.param.index] && mt_ty_is_ptr(p->u.param.ty) &&
                p->u.param.ty->elem == &mt_ty_f32)
                t->guessed[t->nguessed++] = i;
        }
        return MT_OK;
    }
    return MT_OK;
}

static bool compiles(Trial *t)
{
    MtCtx *s = mt_ctx_new(NULL);
    if (!s)
        mt_throw(t->c, MT_ERR_NOMEM);
    MtStatus st = mt_protect(s, trial, t);
    mt_ctx_free(s);
    if (st == MT_ERR_NOMEM)
        mt_throw(t->c, MT_ERR_NOMEM);
    return t->ok;
}

/* Whether the kernel's `# mytriton:` comment gives a signature entry: a
 * second sig= item would not merge with it, so no dtype is guessed. */
static bool comment_signature(const MtDiscovery *dsc, const MtKernelInfo *info)
{
    for (uint32_t i = 0; i < dsc->nparams; i++)
        if (dsc->params[i].origin == MT_ORIGIN_SIGNATURE && info->directive &&
            dsc->params[i].span.off == info->directive_span.off && dsc->params[i].span.line)
            return true;
    return false;
}

typedef struct FixJob {
    const MtModule *m;
    const MtDiscovery *dsc;
    const MtDiag *diag;
    int sm;
    MtQueryFix *fix;          /* set when a specialisation compiles */
} FixJob;

static MtStatus fix_job(MtCtx *c, void *ud)
{
    FixJob *j = ud;
    const MtDiscovery *dsc = j->dsc;
    const MtKernelInfo *info = mt_module_find_kernel(j->m, dsc->kernel);
    MtDefine *extra = mt_arena_alloc(&c->arena, (dsc->nparams + 1) * sizeof *extra);
    size_t n = 0;
    for (uint32_t i = 0; i < dsc->nparams; i++)
        if (dsc->params[i].constexpr_ && dsc->params[i].origin == MT_ORIGIN_NONE)
            extra[n++].name = dsc->params[i].name;
    if (!n || !info)
        return MT_OK;
    static const char *const tiles[] = {"128", "64", "32", "16", "8", "4", "2", "1"};
    uint32_t *guessed = mt_arena_alloc(&c->arena, (dsc->nparams + 1) * sizeof *guessed);
    Trial t = {c, j->m, dsc, extra, n, j->sm, !comment_signature(dsc, info), false, MT_DT_F32, guessed, 0};
    bool found = false;
    for (int flag = 0; flag < 2 && !found; flag++)
        for (size_t v = 0; v < sizeof tiles / sizeof tiles[0] && !found; v++) {
            for (size_t i = 0; i < n; i++) {
                Guess g = guess(extra[i].name);
                extra[i].value = g == GUESS_FLAG     ? (flag ? "True" : "False")
                                 : g == GUESS_GROUP  ? (flag ? "1" : "8")
                                 : g == GUESS_STAGES ? (flag ? "2" : "1")
                                                     : tiles[v];
            }
            found = compiles(&t);
        }
    if (!found)
        return MT_OK;
    MtBuf items, names;
    mt_buf_init(&items, &c->arena);
    mt_buf_init(&names, &c->arena);
    for (size_t i = 0; i < n; i++)
        mt_buf_printf(&items, "%s%s=%s", i ? " " : "", extra[i].name, extra[i].value);
    /* sig=*fp16,*fp16,*fp16,,,*fp16: an entry for each guessed pointer */
    const char *ptr = mt_ty_sig(mt_ty_ptr(c, mt_ty_scalar(t.elem)));
    for (uint32_t g = 0, pos = 0; g < t.nguessed; g++, pos++) {
        mt_buf_puts(&items, g ? "," : " sig=");
        for (; pos < t.guessed[g]; pos++)
            mt_buf_putc(&items, ',');
        mt_buf_puts(&items, ptr);
        mt_buf_printf(&names, "%s%s", !g ? "" : g + 1 == t.nguessed ? " and " : ", ", dsc->params[t.guessed[g]].name);
    }
    size_t len;
    const char *text = mt_file_text(c, j->m->file, &len);
    MtQueryEdit *e = mt_arena_alloc(&c->arena, sizeof *e);
    if (info->directive) {
        uint32_t end = info->directive_span.end;
        while (end > info->directive_span.off && (text[end - 1] == '\n' || text[end - 1] == '\r'))
            end--;
        *e = (MtQueryEdit){end, end, mt_sprintf(c, " %s", mt_buf_str(&items))};
    } else {
        uint32_t line = info->span.off, ind;
        while (line > 0 && text[line - 1] != '\n' && text[line - 1] != '\r')
            line--;
        for (ind = line; text[ind] == ' ' || text[ind] == '\t'; ind++)
            ;
        *e = (MtQueryEdit){line, line, mt_sprintf(c, "%.*s# mytriton: %s\n", (int)(ind - line), text + line,
                                                  mt_buf_str(&items))};
    }
    MtQueryFix *f = j->fix = mt_arena_alloc(&c->arena, sizeof *f);
    f->guess = t.nguessed ? mt_sprintf(c, "%s point%s to %s", mt_buf_str(&names), t.nguessed == 1 ? "s" : "",
                                       mt_ty_sig(mt_ty_scalar(t.elem)))
                          : NULL;
    f->title = mt_sprintf(c, "Specialise with `# mytriton: %s` (compiles%s%s)", mt_buf_str(&items),
                          f->guess ? "; guessed: " : "", f->guess ? f->guess : "");
    f->diag = j->diag;
    f->preferred = true;
    f->edits = e;
    f->nedits = 1;
    return MT_OK;
}

size_t mt_discover_fix(MtCtx *c, const MtModule *m, const MtDiscovery *dsc, const MtDiag *d, int sm,
                       const MtQueryFix **out)
{
    *out = NULL;
    if (!m || !dsc || !dsc->nmissing)
        return 0;
    FixJob j = {m, dsc, d, sm, NULL};
    if (mt_protect(c, fix_job, &j) != MT_OK || !j.fix)
        return 0;
    *out = j.fix;
    return 1;
}
