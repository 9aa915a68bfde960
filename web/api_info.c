/* api_info.c: GET /api/info -- what this dashboard can do, for the page to
 * set itself up: version, roots, backends (the GPU as the workers found
 * it), the element types from the compiler's dtype table, the stages, the
 * SASS tool (or how to get one) and the limits. */
#include <stdlib.h>

#include "api.h"
#include "workers.h"

static cJSON *dtypes(void)
{
    cJSON *a = cJSON_CreateArray();
    for (int d = 0; d < MT_DTYPE_COUNT; d++) {
        const MtDtypeInfo *di = mt_dtype_info((MtDtype)d);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", di->numpy ? di->numpy : di->tl);
        cJSON_AddStringToObject(o, "sig", di->sig);
        cJSON_AddNumberToObject(o, "size", di->size);
        cJSON_AddStringToObject(o, "class", di->cls == MT_DC_FLOAT  ? "float"
                                            : di->cls == MT_DC_BOOL ? "bool"
                                            : di->cls == MT_DC_SINT ? "signed"
                                                                    : "unsigned");
        cJSON_AddBoolToObject(o, "npy", di->npy != NULL);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

void mt_web_api_info(WebReq *r)
{
    MtWebServer *s = r->s;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "version", "0.1.0");
    cJSON *roots = cJSON_AddArrayToObject(doc, "roots");
    for (size_t i = 0; i < s->roots.n; i++) {
        char *shown = mt_web_roots_display(&s->roots, s->roots.v[i].real);
        cJSON_AddItemToArray(roots, cJSON_CreateString(shown ? shown : s->roots.v[i].real));
        free(shown);
    }
    cJSON_AddStringToObject(doc, "data_dir", s->data_dir);
    cJSON_AddBoolToObject(doc, "token_required", s->token != NULL);
    cJSON_AddItemToObject(doc, "backends", mt_web_workers_info(s->workers));
    cJSON_AddItemToObject(doc, "dtypes", dtypes());
    cJSON *stages = cJSON_AddArrayToObject(doc, "stages");
    for (int st = 0; st < MT_STAGE_COUNT; st++)
        cJSON_AddItemToArray(stages, cJSON_CreateString(mt_stage_name((MtStage)st)));
    cJSON_AddItemToArray(stages, cJSON_CreateString("ptx"));
    cJSON_AddItemToArray(stages, cJSON_CreateString("sass"));
    cJSON *sass = cJSON_AddObjectToObject(doc, "sass");
    if (s->sass_tool)
        cJSON_AddStringToObject(sass, "tool", s->sass_tool);
    else
        cJSON_AddNullToObject(sass, "tool");
    cJSON *lim = cJSON_AddObjectToObject(doc, "limits");
    cJSON_AddNumberToObject(lim, "max_body", (double)s->opt.max_body);
    cJSON_AddNumberToObject(lim, "max_upload", (double)s->opt.max_upload);
    cJSON_AddNumberToObject(lim, "max_source", WEB_MAX_SOURCE);
    cJSON_AddNumberToObject(lim, "run_timeout_s", s->opt.run_timeout_s);
    cJSON_AddNumberToObject(lim, "compile_timeout_s", s->opt.compile_timeout_s);
    mt_web_reply_json(r, 200, doc);
}
