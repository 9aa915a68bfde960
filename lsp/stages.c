/* stages.c: the custom request mytriton/stages.
 *
 *   params: {textDocument: {uri}, kernel?: name, position?: Position}
 *   result: the mt_compile_json document of that kernel (docs/json.md):
 *           {kernel, signature, params, stages: {ast, expr, ssa-raw, ssa,
 *           layout, cuda}, source_map, diagnostics, ...} plus "uri".
 *
 * The kernel is the named one, else the one at the position, else the
 * file's only kernel. A helper is compiled on its own for this (in a
 * scratch context) since the analysis only compiles it inlined. The
 * diagnostics are the kernel's own and the file's parse errors. */
#include <stdlib.h>
#include <string.h>

#include "server.h"

enum { ALL_STAGES = (1u << MT_STAGE_AST) | (1u << MT_STAGE_EXPR) | (1u << MT_STAGE_SSA_RAW) |
                    (1u << MT_STAGE_SSA) | (1u << MT_STAGE_LAYOUT) | (1u << MT_STAGE_CUDA) | (1u << MT_STAGE_MLIR) };

static Kernel *pick(Server *s, Doc *d, const cJSON *params, RpcErr *err)
{
    const char *name = mt_lsp_proto_str(params, "kernel");
    if (name) {
        for (size_t i = 0; i < d->nkernels; i++)
            if (!strcmp(d->kernels[i].info->name, name))
                return &d->kernels[i];
        err->code = RPC_INVALID_PARAMS;
        err->message = "no @triton.jit function of that name in this document";
        return NULL;
    }
    const cJSON *pos = cJSON_GetObjectItemCaseSensitive(params, "position");
    uint32_t off;
    if (pos) {
        if (!mt_lsp_proto_offset(s, d, pos, &off, err))
            return NULL;
        Kernel *k = mt_lsp_kernel_at(d, off);
        if (k)
            return k;
    }
    Kernel *only = NULL;
    size_t n = 0;
    for (size_t i = 0; i < d->nkernels; i++)
        if (!d->kernels[i].helper) {
            only = &d->kernels[i];
            n++;
        }
    if (n == 1)
        return only;
    err->code = RPC_INVALID_PARAMS;
    err->message = n ? "this document has several kernels: give \"kernel\" or a \"position\" inside one"
                     : "this document has no kernels";
    return NULL;
}

/* Keep the kernel's diagnostics and the file's own (parse) ones. */
static void filter_diags(cJSON *doc, const char *kernel)
{
    cJSON *diags = cJSON_GetObjectItemCaseSensitive(doc, "diagnostics");
    for (cJSON *it = diags ? diags->child : NULL; it;) {
        cJSON *next = it->next;
        const char *k = mt_lsp_proto_str(it, "kernel");
        if (k && strcmp(k, kernel))
            cJSON_Delete(cJSON_DetachItemViaPointer(diags, it));
        it = next;
    }
}

static cJSON *helper_stages(Server *s, Doc *d, const Kernel *k)
{
    MtCtx *c = mt_ctx_new(NULL);
    if (!c)
        return NULL;
    MtModule *m;
    cJSON *out = NULL;
    mt_parse(c, d->path, d->text, d->len, &m);
    DiscoverInput in;
    const MtDiscovery *disc;
    if (m) {
        mt_lsp_discover_input(&in, k->info, mt_lsp_project_for(&s->project, d->path), &s->settings, 0);
        if (mt_discover(c, m, k->info->name, &in.opt, &disc) == MT_OK) {
            MtSpec spec = disc->spec;
            spec.last_stage = s->settings.last_stage;
            MtCompiled *ck;
            mt_compile(c, m, &spec, &ck);
            out = cJSON_Parse(mt_compile_json(c, m, ck, ALL_STAGES));
        }
    }
    mt_ctx_free(c);
    return out;
}

cJSON *mt_lsp_handle_stages(Server *s, const cJSON *params, RpcErr *err)
{
    Doc *d = mt_lsp_proto_doc(s, params, err);
    if (!d) {
        if (!err->code) {
            err->code = RPC_INVALID_PARAMS;
            err->message = "document not open";
        }
        return NULL;
    }
    mt_lsp_analyse(s, d);
    Kernel *k = pick(s, d, params, err);
    if (!k)
        return NULL;
    cJSON *doc = k->helper ? helper_stages(s, d, k) : cJSON_Parse(mt_compile_json(d->ctx, d->m, k->k, ALL_STAGES));
    if (!doc) {
        err->code = RPC_REQUEST_FAILED;
        err->message = "the kernel's stages could not be produced";
        return NULL;
    }
    if (!cJSON_GetObjectItemCaseSensitive(doc, "kernel"))
        cJSON_AddStringToObject(doc, "kernel", k->info->name);
    filter_diags(doc, k->info->name);
    cJSON_AddStringToObject(doc, "uri", d->uri);
    return doc;
}
