/* protocol.c: reading LSP parameters (documents, positions) and writing
 * LSP structures (positions, ranges, locations) in the session's
 * position encoding. Every handler goes through here, so a bad position or
 * a missing member is answered the same way everywhere: InvalidParams for
 * malformed parameters, an empty result for a document that is not open. */
#include <math.h>
#include <string.h>

#include "server.h"

int64_t mt_lsp_proto_int(const cJSON *o, const char *name, int64_t def)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || fabs(v->valuedouble) > 9e15)
        return def;
    return (int64_t)v->valuedouble;
}

const char *mt_lsp_proto_str(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

Doc *mt_lsp_proto_doc(Server *s, const cJSON *params, RpcErr *err)
{
    const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
    const char *uri = mt_lsp_proto_str(td, "uri");
    if (!uri) {
        err->code = RPC_INVALID_PARAMS;
        err->message = "missing textDocument.uri";
        return NULL;
    }
    return mt_lsp_docs_find(&s->docs, uri);
}

bool mt_lsp_proto_offset(Server *s, const Doc *d, const cJSON *pos, uint32_t *off, RpcErr *err)
{
    int64_t line = mt_lsp_proto_int(pos, "line", -1), ch = mt_lsp_proto_int(pos, "character", -1);
    if (!cJSON_IsObject(pos) || !mt_lsp_doc_offset(d, s->enc, line, ch, off)) {
        err->code = RPC_INVALID_PARAMS;
        err->message = "invalid position: expected {line, character} with non-negative integers";
        return false;
    }
    return true;
}

cJSON *mt_lsp_proto_position(const Server *s, const Doc *d, uint32_t off)
{
    uint32_t line, ch;
    mt_lsp_doc_position(d, s->enc, off, &line, &ch);
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "line", line);
    cJSON_AddNumberToObject(p, "character", ch);
    return p;
}

cJSON *mt_lsp_proto_range(const Server *s, const Doc *d, uint32_t off, uint32_t end)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddItemToObject(r, "start", mt_lsp_proto_position(s, d, off));
    cJSON_AddItemToObject(r, "end", mt_lsp_proto_position(s, d, end < off ? off : end));
    return r;
}

cJSON *mt_lsp_proto_span(const Server *s, const Doc *d, MtSpan sp)
{
    if (!sp.line)
        return mt_lsp_proto_range(s, d, 0, 0);
    return mt_lsp_proto_range(s, d, sp.off, sp.end);
}

cJSON *mt_lsp_proto_location(const Server *s, const Doc *d, MtSpan sp)
{
    cJSON *l = cJSON_CreateObject();
    cJSON_AddStringToObject(l, "uri", d->uri);
    cJSON_AddItemToObject(l, "range", mt_lsp_proto_span(s, d, sp));
    return l;
}
