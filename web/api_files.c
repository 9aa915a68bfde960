/* api_files.c: GET /api/files (the kernels under the roots, for the
 * picker) and GET /api/file?path=P (one file's text and kernels: each
 * kernel's parameters, their defaults and its `# mytriton:` directive,
 * and the launch specs beside the file whose "source" is this file, which
 * pre-fill the launch panel). The signature and constexpr values the page
 * pre-fills come from the compile's discovery (discover.c), which follows
 * the text as it is edited. Only files under the roots are read
 * (roots.c). */
#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

enum { WEB_MAX_LISTED = 2000, WEB_MAX_SPECS = 200, WEB_MAX_SPEC_BYTES = 1 << 20 };

/* Launch specs (*.json) in the folder of `real` whose "source" names it:
 * [{"path", "kernel", "spec"}]. */
static cJSON *specs_beside(const WebRoots *roots, const char *real)
{
    cJSON *a = cJSON_CreateArray();
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", real);
    dirname(dir);
    DIR *d = opendir(dir);
    if (!d)
        return a;
    int seen = 0;
    for (struct dirent *e; (e = readdir(d)) && seen < WEB_MAX_SPECS;) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") || e->d_name[0] == '.')
            continue;
        seen++;
        char path[PATH_MAX * 2], spec_real[PATH_MAX], src_real[PATH_MAX], err[256];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (!mt_web_roots_resolve(roots, path, spec_real, err, sizeof err))
            continue;
        size_t len;
        char *text = mt_web_read_file(spec_real, WEB_MAX_SPEC_BYTES, &len, err, sizeof err);
        cJSON *spec = text ? cJSON_ParseWithLength(text, len) : NULL;
        free(text);
        const char *src = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(spec, "source"));
        char joined[PATH_MAX * 2];
        if (src)
            snprintf(joined, sizeof joined, "%s%s%s", src[0] == '/' ? "" : dir, src[0] == '/' ? "" : "/", src);
        if (!src || !realpath(joined, src_real) || strcmp(src_real, real)) {
            cJSON_Delete(spec);
            continue;
        }
        cJSON *o = cJSON_CreateObject();
        char *shown = mt_web_roots_display(roots, spec_real);
        cJSON_AddStringToObject(o, "path", shown ? shown : e->d_name);
        free(shown);
        const char *kernel = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(spec, "kernel"));
        if (kernel)
            cJSON_AddStringToObject(o, "kernel", kernel);
        else
            cJSON_AddNullToObject(o, "kernel");
        cJSON_AddItemToObject(o, "spec", spec);
        cJSON_AddItemToArray(a, o);
    }
    closedir(d);
    return a;
}

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
    cJSON_AddItemToObject(doc, "specs", specs_beside(&r->s->roots, real));
    mt_web_reply_json(r, 200, doc);
done:
    mt_ctx_free(c);
    free(shown);
    free(text);
}
