/* ceilings.c: the roofline's ceilings, measured on the device.
 *
 *   GET  /api/ceilings?device=N   the device's cached ceilings (or null) and
 *                                 the two kernels that measure them
 *   POST /api/ceilings            {"device", "copy_run", "fma_run"}: compute
 *                                 the ceilings from two finished runs of
 *                                 those kernels and cache them
 *
 * The ceilings are what two small mytriton kernels reach on the device,
 * never datasheet figures: a copy kernel (copy bandwidth, GB/s) and a
 * kernel of fp32 fused multiply-adds in a loop (TFLOP/s), each sized for
 * the device (ceiling_kernels.c), each figure the compiler's exact count
 * over the run's best profiled launch. The page runs them like any other
 * kernel -- POST /api/runs on the device's GPU queue, with progress and a
 * worker process each -- and then posts the two run ids here. This file
 * checks that those runs are exactly these kernels with these signatures
 * and the specs built for that device, ran on it and were profiled, and
 * keeps the figures in DATA/ceilings/<sha256 of the device name>.json
 * (written atomically, one file per device; a newer measurement replaces
 * it).
 *
 * Without a GPU the GET answers 503 "no_gpu" with the probe's reason (and
 * still lists the kernels); the page shows the message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "ceiling_kernels.h"
#include "cost.h"
#include "history.h"
#include "workers.h"

/* GPU `device` as the probe found it: its name and the facts its
 * measuring launches are sized by. false after replying 503 (no GPU,
 * still probing) or 404 (no such device). */
static bool find_device(WebReq *r, int device, char **name, WebCeilingDevice *facts)
{
    cJSON *info = mt_web_workers_info(r->s->workers);
    const cJSON *cuda = cJSON_GetObjectItemCaseSensitive(info, "cuda");
    const char *state = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cuda, "state"));
    *name = NULL;
    if (!state || strcmp(state, "ready")) {
        const char *reason = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cuda, "reason"));
        bool probing = state && !strcmp(state, "probing");
        cJSON *doc = cJSON_CreateObject();
        cJSON *e = cJSON_AddObjectToObject(doc, "error");
        cJSON_AddStringToObject(e, "code", probing ? "probing" : "no_gpu");
        char msg[1024];
        snprintf(msg, sizeof msg,
                 probing ? "the server is still looking for GPUs: try again in a moment"
                         : "the roofline's ceilings are measured on a GPU, and this server has none (%s)",
                 reason ? reason : "no device");
        cJSON_AddStringToObject(e, "message", msg);
        cJSON_AddItemToObject(doc, "kernels", mt_web_ceiling_kernels_json(NULL));
        mt_web_reply_json(r, 503, doc);
        goto done;
    }
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(cuda, "devices"))
    {
        const cJSON *ord = cJSON_GetObjectItemCaseSensitive(d, "ordinal");
        const char *n = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "name"));
        if (cJSON_IsNumber(ord) && ord->valueint == device && n) {
            const cJSON *sms = cJSON_GetObjectItemCaseSensitive(d, "sm_count");
            const cJSON *mem = cJSON_GetObjectItemCaseSensitive(d, "memory_bytes");
            facts->sm_count = cJSON_IsNumber(sms) ? sms->valueint : 0;
            facts->memory_bytes = cJSON_IsNumber(mem) ? mem->valuedouble : 0;
            *name = strdup(n);
            goto done;
        }
    }
    mt_web_reply_error(r, 404, "not_found", "device", "there is no GPU %d on this server", device);
done:
    cJSON_Delete(info);
    return *name != NULL;
}

static void cache_path(const MtWebServer *s, const char *name, char out[PATH_MAX])
{
    char sha[65];
    mt_web_sha256_hex(name, strlen(name), sha);
    snprintf(out, PATH_MAX, "%s/ceilings/%s.json", s->data_dir, sha);
}

void mt_web_api_ceilings(WebReq *r)
{
    const char *arg = mt_web_arg(r, "device");
    char *end = NULL;
    long device = arg ? strtol(arg, &end, 10) : 0;
    if (arg && (!*arg || *end || device < 0 || device > 63)) {
        mt_web_reply_error(r, 400, "bad_field", "device", "device must be a GPU number from 0");
        return;
    }
    char *name;
    WebCeilingDevice facts;
    if (!find_device(r, (int)device, &name, &facts))
        return;
    char path[PATH_MAX], err[256];
    cache_path(r->s, name, path);
    size_t len;
    char *text = mt_web_read_file(path, 1 << 20, &len, err, sizeof err);
    cJSON *cached = text ? cJSON_Parse(text) : NULL;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "device", (double)device);
    cJSON_AddStringToObject(doc, "name", name);
    cJSON_AddItemToObject(doc, "ceilings", cached ? cached : cJSON_CreateNull());
    cJSON_AddItemToObject(doc, "kernels", mt_web_ceiling_kernels_json(&facts));
    mt_web_reply_json(r, 200, doc);
    free(text);
    free(name);
}

static const char *text_at(const cJSON *o, const char *key)
{
    const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
    return v ? v : "";
}

/* Whether run (a history record) is kernel k as it measures the device
 * named `name`: its source, its signature, the spec built for the device,
 * finished ok on that GPU; NULL, or why not. */
static const char *not_the_kernel(const cJSON *run, WebCeilingKind k, int device, const char *name,
                                  const WebCeilingDevice *facts)
{
    const WebCeilingKernel *ck = &mt_web_ceiling_kernels[k];
    char sha[65];
    mt_web_sha256_hex(ck->source, strlen(ck->source), sha);
    const cJSON *req = cJSON_GetObjectItemCaseSensitive(run, "request");
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(run, "result");
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(req, "device");
    const char *ran_on = text_at(cJSON_GetObjectItemCaseSensitive(res, "device"), "name");
    cJSON *want = mt_web_ceiling_spec(k, facts);
    const char *why = NULL;
    if (strcmp(text_at(run, "status"), "ok"))
        why = "did not finish ok";
    else if (strcmp(text_at(run, "source_sha256"), sha) || strcmp(text_at(run, "signature"), ck->signature) ||
             !want || !cJSON_Compare(cJSON_GetObjectItemCaseSensitive(req, "spec"), want, true))
        why = "is not the measuring kernel with its signature and this device's spec (GET /api/ceilings lists "
              "both)";
    else if (strcmp(text_at(run, "backend"), "cuda") ||
             (dev ? !cJSON_IsNumber(dev) || dev->valueint != device : device != 0) || strcmp(ran_on, name))
        why = "did not run on this GPU";
    cJSON_Delete(want);
    return why;
}

/* One measuring run, checked and turned into its ceiling (recorded in
 * `out`); false after replying. */
static bool measured_run(WebReq *r, const cJSON *body, const char *field, WebCeilingKind k, int device,
                         const char *name, const WebCeilingDevice *facts, double *value, cJSON *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(body, field);
    if (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble != (double)(int64_t)v->valuedouble) {
        mt_web_reply_error(r, 400, "bad_field", field, "%s must be the id of a finished run of the %s kernel", field,
                           mt_web_ceiling_kernels[k].name);
        return false;
    }
    int64_t id = (int64_t)v->valuedouble;
    cJSON *run = mt_web_history_get(r->s->history, id, true);
    if (!run) {
        mt_web_reply_error(r, 404, "not_found", field, "no run %lld", (long long)id);
        return false;
    }
    const char *why = not_the_kernel(run, k, device, name, facts);
    cJSON *cost = why ? NULL : mt_web_run_cost(r->s, id, run);
    bool ok = !why && mt_web_ceiling_figure(k, id, run, cost, value, out, &why);
    if (!ok)
        mt_web_reply_error(r, 422, "bad_run", field, "run %lld %s", (long long)id, why);
    cJSON_Delete(cost);
    cJSON_Delete(run);
    return ok;
}

void mt_web_api_ceilings_measure(WebReq *r)
{
    cJSON *body = mt_web_body_json(r);
    if (!body)
        return;
    const cJSON *dv = cJSON_GetObjectItemCaseSensitive(body, "device");
    char *name = NULL, *text = NULL;
    cJSON *c = NULL;
    if (dv && (!cJSON_IsNumber(dv) || dv->valuedouble < 0 || dv->valuedouble > 63 ||
               dv->valuedouble != (int)dv->valuedouble)) {
        mt_web_reply_error(r, 400, "bad_field", "device", "device must be a GPU number from 0");
        goto done;
    }
    int device = dv ? dv->valueint : 0;
    WebCeilingDevice facts;
    if (!find_device(r, device, &name, &facts))
        goto done;
    c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "device", name);
    double figure[WEB_CEIL_COUNT];
    static const char *const fields[WEB_CEIL_COUNT] = {[WEB_CEIL_COPY] = "copy_run", [WEB_CEIL_FMA] = "fma_run"};
    for (int k = 0; k < WEB_CEIL_COUNT; k++)
        if (!measured_run(r, body, fields[k], (WebCeilingKind)k, device, name, &facts, &figure[k], c))
            goto done;
    for (int k = 0; k < WEB_CEIL_COUNT; k++)
        cJSON_AddNumberToObject(c, mt_web_ceiling_kernels[k].figure, figure[k]);
    char when[32];
    time_t t = time(NULL);
    struct tm tm;
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
    cJSON_AddStringToObject(c, "measured", when);
    char path[PATH_MAX], dir[PATH_MAX + 16], err[512];
    snprintf(dir, sizeof dir, "%s/ceilings", r->s->data_dir);
    cache_path(r->s, name, path);
    if (!(text = cJSON_Print(c)) || !mt_web_mkdirs(dir, err, sizeof err) ||
        !mt_web_write_file(path, text, strlen(text), err, sizeof err)) {
        mt_web_reply_error(r, 500, "storage", NULL, "cannot keep the ceilings: %s", text ? err : "out of memory");
        goto done;
    }
    mt_web_log(r->s, "ceilings of %s: copy %.1f GB/s, fp32 %.2f TFLOP/s", name, figure[WEB_CEIL_COPY],
               figure[WEB_CEIL_FMA]);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddItemToObject(doc, "ceilings", c);
    c = NULL;
    mt_web_reply_json(r, 201, doc);
done:
    cJSON_Delete(c);
    free(text);
    free(name);
    cJSON_Delete(body);
}
