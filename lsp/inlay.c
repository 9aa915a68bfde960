/* inlay.c: textDocument/inlayHint — the type and shape of each assigned
 * name, after the name (`offsets: vector<256 x i32> = ...`). Names in a
 * helper get the types of the first kernel that inlines it. */
#include <stdio.h>
#include <string.h>

#include "server.h"

cJSON *mt_lsp_handle_inlay_hint(Server *s, const cJSON *params, RpcErr *err)
{
    Doc *d = mt_lsp_proto_doc(s, params, err);
    const cJSON *range = cJSON_GetObjectItemCaseSensitive(params, "range");
    uint32_t off, end;
    if (!d || !mt_lsp_proto_offset(s, d, cJSON_GetObjectItemCaseSensitive(range, "start"), &off, err) ||
        !mt_lsp_proto_offset(s, d, cJSON_GetObjectItemCaseSensitive(range, "end"), &end, err))
        return NULL;
    mt_lsp_analyse(s, d);
    cJSON *out = cJSON_CreateArray();
    if (!s->settings.inlay_hints)
        return out;
    uint32_t placed[4096];
    size_t nplaced = 0;
    for (size_t i = 0; i < d->nkernels; i++) {
        if (!d->kernels[i].k)
            continue;
        const MtQueryValue *v;
        size_t n = mt_query_assignments(d->ctx, d->kernels[i].k, &v);
        for (size_t j = 0; j < n; j++) {
            uint32_t at = v[j].span.end;
            bool dup = at < off || at > end || !v[j].type;
            for (size_t q = 0; q < nplaced && !dup; q++)
                dup = placed[q] == at;
            if (dup)
                continue;
            if (nplaced < sizeof placed / sizeof placed[0])
                placed[nplaced++] = at;
            cJSON *h = cJSON_CreateObject();
            cJSON_AddItemToObject(h, "position", mt_lsp_proto_position(s, d, at));
            char label[160];
            snprintf(label, sizeof label, ": %s", v[j].type);
            cJSON_AddStringToObject(h, "label", label);
            cJSON_AddNumberToObject(h, "kind", 1); /* InlayHintKind.Type */
            cJSON_AddBoolToObject(h, "paddingRight", true);
            cJSON_AddItemToArray(out, h);
        }
    }
    return out;
}
