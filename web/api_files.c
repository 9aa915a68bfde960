/* api_files.c: GET /api/files (the kernels under the roots, for the
 * picker) and GET /api/file?path=P (one file's text and kernels, with what
 * the editor needs to pre-fill a specialisation: each kernel's parameters,
 * their defaults and its `# mytriton:` directive). Only files under the
 * roots are read (roots.c). */
#include <stdlib.h>
#include <string.h>

#include "api.h"

enum { WEB_MAX_LISTED = 2000 };

void mt_web_api_files(WebReq *r)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddItemToObject(doc, "files", mt_web_roots_list(&r->s->roots, WEB_MAX_LISTED));
    mt_web_reply_json(r, 200, doc);
}

void mt_web_api_file(WebReq *r)
{
    const char *path = mt_web_arg(r, "path");
    char real[PATH_MAX], err[512];
    if (!path) {
        mt_web_reply_error(r, 400, "bad_field", "path", "give the file as ?path=...");
        return;
    }
    if (!mt_web_roots_resolve(&r->s->roots, path, real, err, sizeof err)) {
        mt_web_reply_error(r, 404, "not_found", "path", "%s", err);
        return;
    }
    size_t len;
    char *text = mt_web_read_file(real, WEB_MAX_SOURCE, &len, err, sizeof err);
    if (!text) {
        mt_web_reply_error(r, 422, "unreadable", "path", "%s", err);
        return;
    }
    char *shown = mt_web_roots_display(&r->s->roots, real);
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m = NULL;
    if (!shown || !c) {
        mt_web_reply_error(r, 500, "internal", NULL, "out of memory");
        goto done;
    }
    mt_parse(c, shown, text, len, &m);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "path", shown);
    cJSON_AddStringToObject(doc, "source", text);
    char sha[65];
    mt_web_sha256_hex(text, len, sha);
    cJSON_AddStringToObject(doc, "source_sha256", sha);
    cJSON *ks = cJSON_AddArrayToObject(doc, "kernels");
    for (size_t i = 0; i < mt_module_kernel_count(m); i++) {
        const MtKernelInfo *ki = mt_module_kernel(m, i);
        cJSON *k = cJSON_CreateObject();
        cJSON_AddStringToObject(k, "name", ki->name);
        cJSON_AddNumberToObject(k, "line", ki->name_span.line);
        cJSON_AddBoolToObject(k, "helper", mt_query_is_helper(m, i));
        if (ki->directive)
            cJSON_AddStringToObject(k, "directive", ki->directive);
        cJSON *ps = cJSON_AddArrayToObject(k, "params");
        for (uint32_t p = 0; p < ki->nparams; p++) {
            const MtParamInfo *pi = &ki->params[p];
            cJSON *po = cJSON_CreateObject();
            cJSON_AddStringToObject(po, "name", pi->name);
            cJSON_AddBoolToObject(po, "constexpr", pi->constexpr_);
            if (pi->annotation)
                cJSON_AddStringToObject(po, "annotation", pi->annotation);
            if (pi->default_text)
                cJSON_AddStringToObject(po, "default", pi->default_text);
            cJSON_AddItemToArray(ps, po);
        }
        cJSON_AddItemToArray(ks, k);
    }
    mt_web_reply_json(r, 200, doc);
done:
    mt_ctx_free(c);
    free(shown);
    free(text);
}
