/* analysis.c: turning a document's text into diagnostics and compiled
 * kernels.
 *
 * The whole file is parsed once; then every jit function that no other
 * one calls is compiled (helpers are compiled inlined into their callers,
 * so their errors appear with a note at the call site) for the
 * specialisation the compiler's discovery finds (the `# mytriton:`
 * comment, the project file, the kernel's launches, autotune configs,
 * heuristics and defaults, the settings), through the CUDA lowering so
 * type, verifier, layout and lowering errors all show. A kernel with a parse error inside it is not compiled: the
 * parse error is the one to fix first. A kernel whose compile stops at an
 * error before its SSA or layouts also gets the prefix analysis of the
 * statements before that error (mt_compile_prefix), which hovers on those
 * lines answer from. Everything lands in the
 * document's context, reset first, so the analysis of a document costs
 * one arena and no frees. The server analyses lazily: edits only mark the
 * document dirty, and the analysis runs when the input queue is empty or
 * a request needs it, so a burst of keystrokes compiles once. */
#include <stdlib.h>
#include <string.h>

#include "server.h"

static bool is_parse_error(const MtDiag *g)
{
    return g->sev == MT_SEV_ERROR && !g->kernel;
}

bool mt_lsp_parse_error_in(const Doc *d, uint32_t off, uint32_t end)
{
    for (size_t i = 0; i < mt_diag_count(d->ctx); i++) {
        const MtDiag *g = mt_diag_at(d->ctx, i);
        if (is_parse_error(g) && mt_lsp_diag_in_doc(d, g) && g->span.off >= off && g->span.off < end)
            return true;
    }
    return false;
}

/* The end of the indented block that a function's span ends in: the
 * parser leaves a statement with a syntax error out of the span, but the
 * lines after it that are still indented (or blank) are the function's. */
static uint32_t block_end(const Doc *d, uint32_t end)
{
    uint32_t l = mt_lsp_doc_line_of(d, end) + 1;
    for (; l < d->nlines; l++) {
        char ch = d->text[d->lines[l]];
        if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r' && ch != '#')
            break;
    }
    return l < d->nlines ? d->lines[l] : (uint32_t)d->len;
}

void mt_lsp_analyse(Server *s, Doc *d)
{
    if (!d->dirty)
        return;
    d->dirty = false;
    d->published = false;
    mt_lsp_keep_good(d);
    mt_ctx_reset(d->ctx);
    d->m = NULL;
    mt_lsp_kernels_free(d->kernels, d->nkernels);
    d->kernels = NULL;
    d->nkernels = 0;
    free(d->config_error);
    d->config_error = NULL;

    MtModule *m = NULL;
    MtStatus st = mt_parse(d->ctx, d->path, d->text, d->len, &m);
    if (!m || st == MT_ERR_NOMEM)
        return;
    d->m = m;
    size_t n = mt_module_kernel_count(m);
    d->kernels = calloc(n ? n : 1, sizeof *d->kernels);
    if (!d->kernels)
        return;
    d->nkernels = n;
    const Project *p = mt_lsp_project_for(&s->project, d->path);
    if (p->error)
        d->config_error = strdup(p->error);
    for (size_t i = 0; i < n; i++) {
        d->kernels[i].info = mt_module_kernel(m, i);
        d->kernels[i].helper = mt_query_is_helper(m, i);
    }
    const MtModule **package = NULL;
    size_t npackage = 0;
    bool looked = false;
    for (size_t i = 0; i < n; i++) {
        Kernel *k = &d->kernels[i];
        if (k->helper || mt_lsp_parse_error_in(d, k->info->span.off, block_end(d, k->info->span.end)))
            continue;
        DiscoverInput in;
        mt_lsp_discover_input(&in, k->info, p, &s->settings, mt_lsp_config_choice(s, d->uri, k->info->name));
        if (mt_discover(d->ctx, m, k->info->name, &in.opt, &k->disc) != MT_OK)
            continue;
        if (!k->disc->nlaunches) { /* launched from another module of the package? */
            if (!looked)
                npackage = mt_lsp_package_modules(s, d, &package);
            looked = true;
            in.opt.others = package;
            in.opt.nothers = npackage;
            if (npackage && mt_discover(d->ctx, m, k->info->name, &in.opt, &k->disc) != MT_OK)
                continue;
        }
        MtSpec spec = k->disc->spec;
        spec.last_stage = s->settings.last_stage;
        k->compiled = true;
        k->status = mt_compile(d->ctx, m, &spec, &k->k);
        if (k->status == MT_ERR_SOURCE && k->k) {
            /* hovers show the SSA and layouts of a line, nothing later */
            spec.last_stage = spec.last_stage > MT_STAGE_LAYOUT ? MT_STAGE_LAYOUT : spec.last_stage;
            mt_compile_prefix(d->ctx, k->k, &spec, &k->prefix);
        }
    }
    free(package);
    mt_lsp_map_texts(d);
}

const MtFound *mt_lsp_found_at(const Doc *d, uint32_t off, const Kernel **kernel)
{
    for (size_t i = 0; i < d->nkernels; i++) {
        const Kernel *k = &d->kernels[i];
        if (!k->disc || off < k->info->span.off || off >= k->info->span.end)
            continue;
        for (uint32_t p = 0; p < k->info->nparams; p++) {
            MtSpan sp = k->info->params[p].span;
            if (off >= sp.off && off < sp.off + strlen(k->info->params[p].name)) {
                *kernel = k;
                return &k->disc->params[p];
            }
        }
    }
    return NULL;
}

const MtFound *mt_lsp_found_named(const Kernel *k, const char *name)
{
    for (uint32_t p = 0; k && k->disc && p < k->disc->nparams; p++)
        if (!strcmp(k->disc->params[p].name, name))
            return &k->disc->params[p];
    return NULL;
}

Kernel *mt_lsp_kernel_at(Doc *d, uint32_t off)
{
    for (size_t i = 0; i < d->nkernels; i++)
        if (off >= d->kernels[i].info->span.off && off < block_end(d, d->kernels[i].info->span.end))
            return &d->kernels[i];
    return NULL;
}

Kernel *mt_lsp_kernel_with_value(Doc *d, uint32_t off, MtQueryValue *v)
{
    Kernel *own = mt_lsp_kernel_at(d, off);
    if (own && own->k && mt_query_value_at(d->ctx, own->k, off, v))
        return own;
    for (size_t i = 0; i < d->nkernels; i++) {
        Kernel *k = &d->kernels[i];
        if (k != own && k->k && mt_query_value_at(d->ctx, k->k, off, v))
            return k;
    }
    return NULL;
}
