/* request.c: the part of a request that names a kernel specialisation,
 * shared by compile, actions and runs:
 *
 *   {"source": "...", "path": "examples/add_kernel.py", "kernel": "add_kernel",
 *    "signature": "*fp32,*fp32,*fp32,i32,256", "defines": {"BLOCK": 256}, "config": 1,
 *    "sm": 90, "lowering": "seed" | "fast", "num_warps": 4, "num_stages": 2}
 *
 * "source" is the editor's text; without it "path" is read from the roots.
 * With it, "path" still says where the file lives when it names one under
 * the roots (the discovery then reads the project file and the package
 * beside it). Every field is checked for its type, and a bad one is
 * answered with a 400 naming the field. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"

static bool opt_string(WebReq *r, const cJSON *body, const char *name, char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(body, name);
    *out = NULL;
    if (!v || cJSON_IsNull(v))
        return true;
    if (!cJSON_IsString(v)) {
        mt_web_reply_error(r, 400, "bad_field", name, "%s must be a string", name);
        return false;
    }
    if (!(*out = strdup(v->valuestring))) {
        mt_web_reply_error(r, 500, "internal", NULL, "out of memory");
        return false;
    }
    return true;
}

/* A whole number of `what` from 1 to hi, or absent (*out stays 0). */
static bool opt_count(WebReq *r, const cJSON *body, const char *name, const char *what, int hi, int *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(body, name);
    if (!v || cJSON_IsNull(v))
        return true;
    if (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble > hi || v->valuedouble != (int)v->valuedouble) {
        mt_web_reply_error(r, 400, "bad_field", name, "%s must be a number of %s from 1 to %d", name, what, hi);
        return false;
    }
    *out = v->valueint;
    return true;
}

/* A define's value as a Python literal: 256, 1e-05, True; a string is
 * its text when that reads as a literal ("'relu'", "tl.float16", "1e-5"),
 * otherwise the string quoted ("leaky_relu"), as in the project file
 * (mt_literal_from_text). */
static char *literal(const cJSON *v)
{
    char buf[64];
    if (cJSON_IsBool(v))
        return strdup(cJSON_IsTrue(v) ? "True" : "False");
    if (cJSON_IsString(v)) {
        size_t n = mt_literal_from_text(NULL, 0, v->valuestring);
        char *s = malloc(n + 1);
        if (s)
            mt_literal_from_text(s, n + 1, v->valuestring);
        return s;
    }
    if (v->valuedouble == (double)(long long)v->valuedouble && v->valuedouble > -1e15 && v->valuedouble < 1e15)
        snprintf(buf, sizeof buf, "%lld", (long long)v->valuedouble);
    else
        snprintf(buf, sizeof buf, "%.17g", v->valuedouble);
    return strdup(buf);
}

static bool defines(WebReq *r, const cJSON *body, WebKernelReq *q)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(body, "defines");
    if (!d || cJSON_IsNull(d))
        return true;
    if (!cJSON_IsObject(d)) {
        mt_web_reply_error(r, 400, "bad_field", "defines", "defines must be an object: {\"BLOCK\": 256}");
        return false;
    }
    size_t n = (size_t)cJSON_GetArraySize(d);
    if (!(q->defines = calloc(n + 1, sizeof *q->defines)))
        return false;
    for (const cJSON *v = d->child; v; v = v->next) {
        if (!cJSON_IsNumber(v) && !cJSON_IsString(v) && !cJSON_IsBool(v)) {
            char field[160];
            snprintf(field, sizeof field, "defines.%.100s", v->string);
            mt_web_reply_error(r, 400, "bad_field", field, "%s must be a number, a boolean or a Python literal",
                               field);
            return false;
        }
        MtDefine *def = &q->defines[q->ndefines++];
        def->name = strdup(v->string);
        def->value = literal(v);
        if (!def->name || !def->value) {
            mt_web_reply_error(r, 500, "internal", NULL, "out of memory");
            return false;
        }
    }
    return true;
}

bool mt_web_kernel_req(WebReq *r, const cJSON *body, WebKernelReq *q)
{
    memset(q, 0, sizeof *q);
    q->sm = 90;
    char *path;
    if (!opt_string(r, body, "source", &q->source) || !opt_string(r, body, "path", &path) ||
        !opt_string(r, body, "kernel", &q->kernel) || !opt_string(r, body, "signature", &q->signature) ||
        !defines(r, body, q))
        return false;
    const cJSON *sm = cJSON_GetObjectItemCaseSensitive(body, "sm");
    if (sm && !cJSON_IsNull(sm)) {
        if (!cJSON_IsNumber(sm) || sm->valuedouble < 50 || sm->valuedouble > 200 ||
            sm->valuedouble != (int)sm->valuedouble) {
            mt_web_reply_error(r, 400, "bad_field", "sm", "sm must be a CUDA architecture number such as 90");
            free(path);
            return false;
        }
        q->sm = sm->valueint;
    }
    char *lowering;
    if (!opt_string(r, body, "lowering", &lowering)) {
        free(path);
        return false;
    }
    int l = lowering ? mt_lowering_from_name(lowering) : MT_LOWERING_DEFAULT;
    free(lowering);
    if (l < 0) {
        mt_web_reply_error(r, 400, "bad_field", "lowering", "lowering must be \"seed\" or \"fast\"");
        free(path);
        return false;
    }
    q->lowering = l;
    const cJSON *config = cJSON_GetObjectItemCaseSensitive(body, "config");
    if (config && !cJSON_IsNull(config)) {
        if (!cJSON_IsNumber(config) || config->valuedouble < 0 || config->valuedouble > 4095 ||
            config->valuedouble != (int)config->valuedouble) {
            mt_web_reply_error(r, 400, "bad_field", "config",
                               "config must be the number of an autotune config, from 0 (the first)");
            free(path);
            return false;
        }
        q->config = (uint32_t)config->valueint;
    }
    if (!opt_count(r, body, "num_warps", "warps", 32, &q->num_warps) ||
        !opt_count(r, body, "num_stages", "stages", MT_NUM_STAGES_MAX, &q->num_stages)) {
        free(path);
        return false;
    }
    if (q->kernel && !*q->kernel) {
        free(q->kernel);
        q->kernel = NULL;
    }
    if (q->signature && !*q->signature) {
        free(q->signature);
        q->signature = NULL;
    }
    if (q->source) {
        q->len = strlen(q->source);
        if (q->len > WEB_MAX_SOURCE) {
            mt_web_reply_error(r, 413, "too_large", "source", "the source has %zu bytes, more than the limit of %d",
                               q->len, WEB_MAX_SOURCE);
            free(path);
            return false;
        }
        char real[PATH_MAX], ignored[256];
        if (path && mt_web_roots_resolve(&r->s->roots, path, real, ignored, sizeof ignored))
            q->real = strdup(real);
        q->path = path ? path : strdup("untitled.py");
        return q->path != NULL;
    }
    if (!path) {
        mt_web_reply_error(r, 400, "bad_field", "source", "give the kernel's \"source\" or a \"path\" to read");
        return false;
    }
    char real[PATH_MAX], err[512];
    if (!mt_web_roots_resolve(&r->s->roots, path, real, err, sizeof err)) {
        mt_web_reply_error(r, 404, "not_found", "path", "%s", err);
        free(path);
        return false;
    }
    free(path);
    if (!(q->source = mt_web_read_file(real, WEB_MAX_SOURCE, &q->len, err, sizeof err))) {
        mt_web_reply_error(r, 422, "unreadable", "path", "%s", err);
        return false;
    }
    q->path = mt_web_roots_display(&r->s->roots, real);
    q->real = strdup(real);
    return q->path != NULL;
}

void mt_web_kernel_req_free(WebKernelReq *q)
{
    free(q->source);
    free(q->path);
    free(q->real);
    free(q->kernel);
    free(q->signature);
    for (size_t i = 0; i < q->ndefines; i++) {
        free((char *)q->defines[i].name);
        free((char *)q->defines[i].value);
    }
    free(q->defines);
    memset(q, 0, sizeof *q);
}

bool mt_web_parse_kernel(WebReq *r, MtCtx *c, const WebKernelReq *q, MtModule **m, bool *clean)
{
    MtStatus st = mt_parse(c, q->path, q->source, q->len, m);
    *clean = st == MT_OK;
    if (st == MT_ERR_NOMEM) {
        mt_web_reply_error(r, 500, "internal", NULL, "out of memory");
        return false;
    }
    if (!*clean || !q->kernel || mt_module_find_kernel(*m, q->kernel))
        return true;
    char names[1024] = "";
    size_t at = 0;
    for (size_t i = 0; i < mt_module_kernel_count(*m) && at < sizeof names; i++)
        at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", i ? ", " : "", mt_module_kernel(*m, i)->name);
    mt_web_reply_error(r, 404, "unknown_kernel", "kernel", "no @triton.jit function named '%s' in %s (%s%s)", q->kernel,
                       q->path, at ? "jit functions: " : "it has none", names);
    return false;
}
