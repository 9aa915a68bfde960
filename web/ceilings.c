/* ceilings.c: the roofline's ceilings, measured on the device.
 *
 *   GET  /api/ceilings?device=N   the device's cached ceilings (or null) and
 *                                 the two kernels that measure them
 *   POST /api/ceilings            {"device", "copy_run", "fma_run"}: compute
 *                                 the ceilings from two finished runs of
 *                                 those kernels and cache them
 *
 * The ceilings are what two small mytriton kernels reach on the device,
 * never datasheet figures: a copy kernel (copy bandwidth, GB/s: 8 bytes
 * per element over the median of the profiled launches) and a kernel of
 * fp32 fused multiply-adds in a loop (16 independent chains per thread: 4
 * FLOPs per element per iteration, TFLOP/s). The page runs them like any
 * other kernel -- POST /api/runs on the device's GPU queue, with progress
 * and a worker process each -- and then posts the two run ids here. This
 * file checks that those runs are exactly these kernels with these specs,
 * ran on that device and were profiled, and keeps the figures in
 * DATA/ceilings/<sha256 of the device name>.json (written atomically, one
 * file per device; a newer measurement replaces it).
 *
 * Without a GPU the GET answers 503 "no_gpu" with the probe's reason (and
 * still lists the kernels); the page shows the message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "history.h"
#include "workers.h"

typedef struct CeilingKernel {
    const char *name;         /* "copy" | "fma" */
    const char *kernel;
    const char *source;
    const char *spec;         /* the launch spec, JSON */
} CeilingKernel;

static const CeilingKernel kernels[] = {
    {"copy", "copy_kernel",
     "\"\"\"The copy ceiling: every element read once and written once (n is a multiple of BLOCK).\"\"\"\n"
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "\n"
     "@triton.jit\n"
     "def copy_kernel(x, out, BLOCK: tl.constexpr):\n"
     "    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
     "    tl.store(out + offsets, tl.load(x + offsets))\n",
     "{\"grid\": [32768], \"constexprs\": {\"BLOCK\": 1024},"
     " \"args\": {\"x\": {\"dtype\": \"float32\", \"shape\": [33554432], \"init\": \"arange\"},"
     " \"out\": {\"dtype\": \"float32\", \"shape\": [33554432], \"init\": \"zeros\"}},"
     " \"bytes\": 268435456}"},
    {"fma", "fma_kernel",
     "\"\"\"The fp32 ceiling: two chains of fused multiply-adds per element, `iters` times.\"\"\"\n"
     "import triton\n"
     "import triton.language as tl\n"
     "\n"
     "\n"
     "@triton.jit\n"
     "def fma_kernel(x, out, iters, BLOCK: tl.constexpr):\n"
     "    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
     "    a = tl.load(x + offsets)\n"
     "    b = a + 1.0\n"
     "    for i in range(iters):\n"
     "        a = tl.fma(a, 0.999, 0.001)\n"
     "        b = tl.fma(b, 0.999, 0.001)\n"
     "    tl.store(out + offsets, a + b)\n",
     "{\"grid\": [4096], \"constexprs\": {\"BLOCK\": 1024},"
     " \"args\": {\"x\": {\"dtype\": \"float32\", \"shape\": [4194304], \"init\": \"uniform\"},"
     " \"out\": {\"dtype\": \"float32\", \"shape\": [4194304], \"init\": \"zeros\"}, \"iters\": 4096},"
     " \"flops\": 68719476736}"},
};

enum { NKERNELS = sizeof kernels / sizeof *kernels };

static cJSON *kernels_json(void)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < NKERNELS; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", kernels[i].name);
        cJSON_AddStringToObject(o, "kernel", kernels[i].kernel);
        cJSON_AddStringToObject(o, "source", kernels[i].source);
        cJSON_AddItemToObject(o, "spec", cJSON_Parse(kernels[i].spec));
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

/* The name of GPU `device` as the probe found it; NULL after replying 503
 * (no GPU, still probing) or 404 (no such device). */
static char *device_name(WebReq *r, int device)
{
    cJSON *info = mt_web_workers_info(r->s->workers);
    const cJSON *cuda = cJSON_GetObjectItemCaseSensitive(info, "cuda");
    const char *state = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cuda, "state"));
    char *name = NULL;
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
        cJSON_AddItemToObject(doc, "kernels", kernels_json());
        mt_web_reply_json(r, 503, doc);
        goto done;
    }
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(cuda, "devices"))
    {
        const cJSON *ord = cJSON_GetObjectItemCaseSensitive(d, "ordinal");
        const char *n = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "name"));
        if (cJSON_IsNumber(ord) && ord->valueint == device && n) {
            name = strdup(n);
            goto done;
        }
    }
    mt_web_reply_error(r, 404, "not_found", "device", "there is no GPU %d on this server", device);
done:
    cJSON_Delete(info);
    return name;
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
    char *name = device_name(r, (int)device);
    if (!name)
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
    cJSON_AddItemToObject(doc, "kernels", kernels_json());
    mt_web_reply_json(r, 200, doc);
    free(text);
    free(name);
}

static const char *text_at(const cJSON *o, const char *key)
{
    const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
    return v ? v : "";
}

/* One measuring run, checked: a finished, profiled run of kernels[k] with
 * its own spec, on the GPU named `name`. Its median launch time (ns) and
 * the spec's count (bytes or flops), or false after replying. */
static bool measured_run(WebReq *r, const cJSON *body, const char *field, size_t k, int device, const char *name,
                         double *median_ns, double *count, cJSON *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(body, field);
    if (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble != (double)(int64_t)v->valuedouble) {
        mt_web_reply_error(r, 400, "bad_field", field, "%s must be the id of a finished run of the %s kernel", field,
                           kernels[k].name);
        return false;
    }
    int64_t id = (int64_t)v->valuedouble;
    cJSON *run = mt_web_history_get(r->s->history, id, true);
    if (!run) {
        mt_web_reply_error(r, 404, "not_found", field, "no run %lld", (long long)id);
        return false;
    }
    char sha[65];
    mt_web_sha256_hex(kernels[k].source, strlen(kernels[k].source), sha);
    const cJSON *req = cJSON_GetObjectItemCaseSensitive(run, "request");
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(run, "result");
    const cJSON *prof = cJSON_GetObjectItemCaseSensitive(res, "profile");
    const cJSON *med = cJSON_GetObjectItemCaseSensitive(prof, "median_ns");
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(req, "device");
    const char *ran_on = text_at(cJSON_GetObjectItemCaseSensitive(res, "device"), "name");
    cJSON *want = cJSON_Parse(kernels[k].spec);
    const char *why = NULL;
    if (strcmp(text_at(run, "status"), "ok"))
        why = "did not finish ok";
    else if (strcmp(text_at(run, "source_sha256"), sha) ||
             !cJSON_Compare(cJSON_GetObjectItemCaseSensitive(req, "spec"), want, true))
        why = "is not the measuring kernel with its spec (GET /api/ceilings lists both)";
    else if (strcmp(text_at(run, "backend"), "cuda") ||
             (dev ? !cJSON_IsNumber(dev) || dev->valueint != device : device != 0) || strcmp(ran_on, name))
        why = "did not run on this GPU";
    else if (!cJSON_IsNumber(med) || med->valuedouble <= 0)
        why = "was not profiled (give \"profile\": a number of launches)";
    if (why) {
        mt_web_reply_error(r, 422, "bad_run", field, "run %lld %s", (long long)id, why);
        cJSON_Delete(want);
        cJSON_Delete(run);
        return false;
    }
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(want, k == 0 ? "bytes" : "flops");
    *count = c->valuedouble;
    *median_ns = med->valuedouble;
    cJSON *m = cJSON_AddObjectToObject(out, kernels[k].name);
    cJSON_AddNumberToObject(m, "run", (double)id);
    cJSON_AddNumberToObject(m, "median_ns", *median_ns);
    cJSON_AddNumberToObject(m, k == 0 ? "bytes" : "flops", *count);
    cJSON_AddItemToObject(m, "launches", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(prof, "launches"), true));
    cJSON_AddItemToObject(m, "timer", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(prof, "timer"), true));
    cJSON_Delete(want);
    cJSON_Delete(run);
    return true;
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
    if (!(name = device_name(r, device)))
        goto done;
    c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "device", name);
    double copy_ns, bytes, fma_ns, flops;
    if (!measured_run(r, body, "copy_run", 0, device, name, &copy_ns, &bytes, c) ||
        !measured_run(r, body, "fma_run", 1, device, name, &fma_ns, &flops, c))
        goto done;
    cJSON_AddNumberToObject(c, "copy_gbs", bytes / copy_ns);
    cJSON_AddNumberToObject(c, "fp32_tflops", flops / fma_ns / 1e3);
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
    mt_web_log(r->s, "ceilings of %s: copy %.1f GB/s, fp32 %.2f TFLOP/s", name, bytes / copy_ns, flops / fma_ns / 1e3);
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
