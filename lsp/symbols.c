/* symbols.c: textDocument/documentSymbol and textDocument/definition.
 *
 * Symbols are the file's jit functions, kernels and helpers (a helper is
 * one that another jit function calls), with their parameters as
 * children; clients without hierarchical support get the flat
 * SymbolInformation list. Definitions come from mt_query_definition: the
 * binding a name sees (an assignment of the same function, a parameter, a
 * loop target), else a module-level constant, import or jit function. */
#include <string.h>

#include "server.h"

enum { SK_FUNCTION = 12, SK_VARIABLE = 13, SK_CONSTANT = 14 };

static cJSON *symbol(Server *s, Doc *d, const char *name, const char *detail, int kind, MtSpan range, MtSpan sel)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", name);
    if (detail)
        cJSON_AddStringToObject(o, "detail", detail);
    cJSON_AddNumberToObject(o, "kind", kind);
    cJSON_AddItemToObject(o, "range", mt_lsp_proto_span(s, d, range));
    cJSON_AddItemToObject(o, "selectionRange", mt_lsp_proto_span(s, d, sel));
    return o;
}

cJSON *mt_lsp_handle_document_symbol(Server *s, const cJSON *params, RpcErr *err)
{
    Doc *d = mt_lsp_proto_doc(s, params, err);
    if (!d)
        return err->code ? NULL : cJSON_CreateArray();
    mt_lsp_analyse(s, d);
    cJSON *out = cJSON_CreateArray();
    for (size_t i = 0; i < d->nkernels; i++) {
        const Kernel *k = &d->kernels[i];
        const MtKernelInfo *ki = k->info;
        const char *detail = k->helper ? "helper" : "kernel";
        if (!s->hierarchical_symbols) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", ki->name);
            cJSON_AddNumberToObject(o, "kind", SK_FUNCTION);
            cJSON_AddItemToObject(o, "location", mt_lsp_proto_location(s, d, ki->span));
            cJSON_AddStringToObject(o, "containerName", detail);
            cJSON_AddItemToArray(out, o);
            continue;
        }
        cJSON *o = symbol(s, d, ki->name, detail, SK_FUNCTION, ki->span, ki->name_span);
        cJSON *children = cJSON_AddArrayToObject(o, "children");
        for (uint32_t p = 0; p < ki->nparams; p++) {
            const MtParamInfo *pi = &ki->params[p];
            cJSON_AddItemToArray(children, symbol(s, d, pi->name, pi->constexpr_ ? "tl.constexpr" : pi->annotation,
                                                  pi->constexpr_ ? SK_CONSTANT : SK_VARIABLE, pi->span, pi->span));
        }
        cJSON_AddItemToArray(out, o);
    }
    return out;
}

cJSON *mt_lsp_handle_definition(Server *s, const cJSON *params, RpcErr *err)
{
    Doc *d = mt_lsp_proto_doc(s, params, err);
    uint32_t off;
    if (!d || !mt_lsp_proto_offset(s, d, cJSON_GetObjectItemCaseSensitive(params, "position"), &off, err))
        return NULL;
    mt_lsp_analyse(s, d);
    MtQueryDef def;
    if (!d->m || !mt_query_definition(d->m, off, &def) || def.kind == MT_DEF_NONE || !def.def.line)
        return cJSON_CreateNull();
    return mt_lsp_proto_location(s, d, def.def);
}
