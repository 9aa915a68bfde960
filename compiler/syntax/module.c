/* module.c: the public parsing entry point and the kernel table.
 *
 * mt_parse registers the file, tokenises it, parses it, and derives the
 * public MtKernelInfo view of every jit function (parameter names, which
 * are constexprs, annotation and default source text, the `# mytriton:`
 * directive). It is a library entry point, so everything runs under
 * mt_protect: an allocation failure anywhere in the lexer or parser comes
 * back as MT_ERR_NOMEM instead of unwinding into the caller.
 */
#include <string.h>

#include "parser.h"

typedef struct ParseJob {
    const char *path;
    const char *text;
    size_t len;
    MtModule *m;
} ParseJob;

/* The source text of a span, as an arena string. */
static const char *source_text(MtCtx *c, MtSpan sp)
{
    const MtFile *f = mt_ctx_file(c, sp.file);
    if (!f || sp.end < sp.off || sp.end > f->len)
        return NULL;
    return mt_arena_strndup(&c->arena, f->text + sp.off, sp.end - sp.off);
}

static bool is_dotted_name(const MtNode *n)
{
    while (n->kind == ND_ATTR)
        n = n->u.attr.value;
    return n->kind == ND_NAME;
}

/* `constexpr`, `tl.constexpr`, `triton.language.constexpr`, any dotted
 * name ending in `.constexpr`, or the same written as a string annotation
 * ("tl.constexpr"). */
static bool constexpr_annotation(const MtNode *a)
{
    if (!a)
        return false;
    if (a->kind == ND_NAME)
        return strcmp(a->u.name, "constexpr") == 0;
    if (a->kind == ND_ATTR)
        return strcmp(a->u.attr.name, "constexpr") == 0 && is_dotted_name(a);
    if (a->kind == ND_STR) {
        const char *s = a->u.str.s;
        size_t n = a->u.str.len;
        return (n == 9 && strcmp(s, "constexpr") == 0) || (n > 10 && strcmp(s + n - 10, ".constexpr") == 0);
    }
    return false;
}

static void kernel_infos(MtCtx *c, MtModule *m)
{
    m->infos = mt_arena_alloc(&c->arena, (m->nfuncs ? m->nfuncs : 1) * sizeof *m->infos);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const MtFuncDef *fn = m->funcs[i];
        MtKernelInfo *k = &m->infos[i];
        MtParamInfo *ps = mt_arena_alloc(&c->arena, (fn->nparams ? fn->nparams : 1) * sizeof *ps);
        for (uint32_t j = 0; j < fn->nparams; j++) {
            const MtParam *prm = &fn->params[j];
            ps[j].name = prm->name;
            ps[j].span = prm->span;
            ps[j].constexpr_ = constexpr_annotation(prm->annotation);
            ps[j].annotation = prm->annotation ? source_text(c, prm->annotation->span) : NULL;
            ps[j].default_text = prm->default_ ? source_text(c, prm->default_->span) : NULL;
        }
        k->name = fn->name;
        k->span = fn->span;
        k->name_span = fn->name_span;
        k->params = ps;
        k->nparams = fn->nparams;
        k->directive = fn->directive;
        k->directive_span = fn->directive_span;
    }
}

static MtStatus parse_job(MtCtx *c, void *ud)
{
    ParseJob *job = ud;
    uint32_t file = mt_ctx_add_file(c, job->path, job->text, job->len);
    MtTokens toks = mt_lex(c, file);
    job->m = mt_parse_module(c, file, &toks);
    kernel_infos(c, job->m);
    return MT_OK;
}

MtStatus mt_parse(MtCtx *c, const char *path, const char *text, size_t len, MtModule **out)
{
    if (out)
        *out = NULL;
    if (len >= UINT32_MAX) {
        mt_error(c, (MtSpan){0}, "E0108", "%s: source file too large (%zu bytes; the limit is 4 GiB)",
                 path ? path : "<input>", len);
        return MT_ERR_SOURCE;
    }
    ParseJob job = {path, text ? text : "", text ? len : 0, NULL};
    uint32_t errors = c->nerrors;
    MtStatus st = mt_protect(c, parse_job, &job);
    if (st != MT_OK)
        return st;
    if (out)
        *out = job.m;
    return c->nerrors > errors ? MT_ERR_SOURCE : MT_OK;
}

size_t mt_module_kernel_count(const MtModule *m) { return m ? m->nfuncs : 0; }

const MtKernelInfo *mt_module_kernel(const MtModule *m, size_t i)
{
    return m && i < m->nfuncs ? &m->infos[i] : NULL;
}

/* The last jit function of that name: it is the one a later `def`
 * rebinds, as Python would. */
const MtKernelInfo *mt_module_find_kernel(const MtModule *m, const char *name)
{
    if (!m || !name)
        return NULL;
    for (uint32_t i = m->nfuncs; i-- > 0;)
        if (strcmp(m->infos[i].name, name) == 0)
            return &m->infos[i];
    return NULL;
}
