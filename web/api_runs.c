/* api_runs.c: running kernels, and the run history.
 *
 *   POST /api/uploads             an .npy input, stored by content hash
 *   POST /api/runs                check, record and queue a run; 202 {id}
 *   GET  /api/runs                the history, newest first
 *   GET  /api/runs/{id}           one run: request, source, result, outputs,
 *                                 the occupancy of a GPU run's blocks, and
 *                                 its bytes, FLOPs and rates (cost.c)
 *   DELETE /api/runs/{id}         forget a run and its files
 *   GET  /api/runs/{id}/outputs/{name}   an output array as .npy
 *
 * A run request names the kernel as /api/compile does and adds a launch
 * spec in the format of docs/launch-spec.md (grid, args, constexprs,
 * bytes, flops, tolerance) -- an array argument may also be {"upload":
 * ID} for an uploaded .npy -- plus "backend" (interp or cuda), "device",
 * "compare", "profile" and "keep_outputs". Before anything is queued the
 * spec is parsed by the runtime's own parser (errors name the spec field),
 * its signature derived as `mytriton run` derives it (the constexprs it
 * leaves out taken from the discovery, as the compile the page showed took
 * them), and the kernel compiled for it (errors come back as
 * diagnostics): a run that cannot start is refused at once rather than
 * failing in a worker.
 *
 * An accepted run gets a folder DATA/runs/ID holding kernel.py, spec.json
 * (which `mytriton run` can replay as it is), inputs/ (uploads, linked) and
 * outputs/ (the worker's .npy files, unless "keep_outputs" is false: the
 * ceilings' 2 GiB copy), a history row, and a job whose events the page
 * follows (events.c). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api.h"
#include "cost.h"
#include "history.h"
#include "jobs.h"
#include "launch_spec.h"
#include "npy.h"
#include "occupancy.h"
#include "runs.h"
#include "workers.h"

void mt_web_run_dir(const MtWebServer *s, int64_t id, char out[PATH_MAX])
{
    snprintf(out, PATH_MAX, "%s/runs/%lld", s->data_dir, (long long)id);
}

/* ---- uploads ------------------------------------------------------------------------ */

static bool upload_id_ok(const char *id)
{
    size_t n = strlen(id);
    if (n != 64)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!strchr("0123456789abcdef", id[i]))
            return false;
    return true;
}

static void upload_path(const MtWebServer *s, const char *id, char out[PATH_MAX])
{
    snprintf(out, PATH_MAX, "%s/uploads/%s.npy", s->data_dir, id);
}

void mt_web_api_upload(WebReq *r)
{
    char err[512];
    if (!r->upload_path || !r->len) {
        mt_web_reply_error(r, 400, "bad_upload", NULL, "the request body must be the bytes of a .npy file");
        return;
    }
    close(r->upload_fd);
    r->upload_fd = -1;
    MtNpyInfo info;
    if (mt_npy_read_header(r->upload_path, &info, err, sizeof err) != MT_OK) {
        const char *why = strstr(err, ": ");
        mt_web_reply_error(r, 422, "bad_npy", NULL, "not a usable .npy file%s", why ? why : err);
        return;
    }
    size_t len;
    char *bytes = mt_web_read_file(r->upload_path, r->s->opt.max_upload, &len, err, sizeof err);
    if (!bytes) {
        mt_web_reply_error(r, 500, "storage", NULL, "%s", err);
        return;
    }
    char sha[65], dest[PATH_MAX];
    mt_web_sha256_hex(bytes, len, sha);
    free(bytes);
    upload_path(r->s, sha, dest);
    if (rename(r->upload_path, dest)) {
        mt_web_reply_error(r, 500, "storage", NULL, "cannot keep the upload: %s", strerror(errno));
        return;
    }
    free(r->upload_path);
    r->upload_path = NULL;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "upload", sha);
    const MtDtypeInfo *di = mt_dtype_info(info.dtype);
    cJSON_AddStringToObject(doc, "dtype", di && di->numpy ? di->numpy : "?");
    cJSON *shape = cJSON_AddArrayToObject(doc, "shape");
    for (int d = 0; d < info.ndim; d++)
        cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)info.shape[d]));
    cJSON_AddNumberToObject(doc, "bytes", (double)len);
    mt_web_reply_json(r, 201, doc);
}

/* ---- starting a run ----------------------------------------------------------------------- */

typedef struct RunOpts {
    const char *backend;
    int device;               /* -1 for the interpreter */
    bool compare;
    int profile;
    bool keep_outputs;        /* the worker writes every array to the run's outputs/ */
} RunOpts;

static bool run_opts(WebReq *r, const cJSON *body, RunOpts *o)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(body, "backend");
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(body, "device");
    const cJSON *cmp = cJSON_GetObjectItemCaseSensitive(body, "compare");
    const cJSON *prof = cJSON_GetObjectItemCaseSensitive(body, "profile");
    const cJSON *keep = cJSON_GetObjectItemCaseSensitive(body, "keep_outputs");
    o->backend = b ? cJSON_GetStringValue(b) : "interp";
    if (!o->backend || (strcmp(o->backend, "interp") && strcmp(o->backend, "cuda"))) {
        mt_web_reply_error(r, 400, "bad_field", "backend", "backend must be \"interp\" or \"cuda\"");
        return false;
    }
    bool cuda = !strcmp(o->backend, "cuda");
    o->device = cuda ? 0 : -1;
    if (dev && (!cJSON_IsNumber(dev) || dev->valuedouble < 0 || dev->valuedouble > 63 ||
                dev->valuedouble != (int)dev->valuedouble)) {
        mt_web_reply_error(r, 400, "bad_field", "device", "device must be a GPU number from 0");
        return false;
    }
    if (dev && cuda)
        o->device = dev->valueint;
    if (cmp && !cJSON_IsBool(cmp)) {
        mt_web_reply_error(r, 400, "bad_field", "compare", "compare must be true or false");
        return false;
    }
    o->compare = cJSON_IsTrue(cmp);
    if (keep && !cJSON_IsBool(keep)) {
        mt_web_reply_error(r, 400, "bad_field", "keep_outputs", "keep_outputs must be true or false");
        return false;
    }
    o->keep_outputs = !cJSON_IsFalse(keep);
    o->profile = 0;
    if (prof && (!cJSON_IsNumber(prof) || prof->valuedouble < 0 || prof->valuedouble > 100000 ||
                 prof->valuedouble != (int)prof->valuedouble)) {
        mt_web_reply_error(r, 400, "bad_field", "profile", "profile must be a number of launches from 0 to 100000");
        return false;
    }
    if (prof)
        o->profile = prof->valueint;
    if ((o->compare || o->profile) && !cuda) {
        mt_web_reply_error(r, 400, "bad_field", o->compare ? "compare" : "profile",
                           "compare and profile need the cuda backend (the interpreter is the reference)");
        return false;
    }
    return true;
}

/* A define (a Python literal, read by -D's rule) as a spec constexpr:
 * numbers and bools as JSON's, a dtype by its name ("tl.float16"), a
 * string as a JSON string, which the spec reads back by the same rule
 * (docs/launch-spec.md). NULL for None and for what is no literal (the
 * compile reports those). */
static cJSON *define_as_constexpr(const char *text)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtLiteral lit;
    cJSON *v = NULL;
    if (c && mt_literal_parse(c, text, &lit)) {
        char name[40];
        switch (lit.kind) {
        case MT_LITERAL_BOOL: v = cJSON_CreateBool(lit.i != 0); break;
        case MT_LITERAL_INT:
        case MT_LITERAL_FLOAT: v = cJSON_Parse(text); break;
        case MT_LITERAL_STR: v = cJSON_CreateString(lit.s); break;
        case MT_LITERAL_DTYPE:
            snprintf(name, sizeof name, "tl.%s", mt_dtype_info(lit.dtype)->tl);
            v = cJSON_CreateString(name);
            break;
        case MT_LITERAL_NONE: break;
        }
    }
    mt_ctx_free(c);
    return v;
}

/* The spec as the worker will read it: the page's spec, the kernel's
 * constexprs from "defines" where the spec has none, and every
 * {"upload": ID} as {"npy": PATH} (absolute for now, see link_uploads). */
static cJSON *build_spec(WebReq *r, const cJSON *body, const WebKernelReq *q)
{
    const cJSON *in = cJSON_GetObjectItemCaseSensitive(body, "spec");
    if (!cJSON_IsObject(in)) {
        mt_web_reply_error(r, 400, "bad_field", "spec",
                           "spec must be a launch spec object: {\"grid\": [...], \"args\": {...}} (docs/launch-spec.md)");
        return NULL;
    }
    static const char *const set_here[] = {"source", "kernel", "signature"};
    for (size_t i = 0; i < sizeof set_here / sizeof *set_here; i++) {
        if (cJSON_GetObjectItemCaseSensitive(in, set_here[i])) {
            char field[32];
            snprintf(field, sizeof field, "spec.%s", set_here[i]);
            mt_web_reply_error(r, 400, "bad_field", field,
                               "%s comes from the request's own \"%s\" field, not from the spec", field, set_here[i]);
            return NULL;
        }
    }
    cJSON *spec = cJSON_Duplicate(in, true);
    if (q->ndefines) {
        cJSON *ce = cJSON_GetObjectItemCaseSensitive(spec, "constexprs");
        if (!ce)
            ce = cJSON_AddObjectToObject(spec, "constexprs");
        for (size_t i = 0; cJSON_IsObject(ce) && i < q->ndefines; i++) {
            if (cJSON_GetObjectItemCaseSensitive(ce, q->defines[i].name))
                continue;
            cJSON *v = define_as_constexpr(q->defines[i].value);
            if (v)
                cJSON_AddItemToObject(ce, q->defines[i].name, v);
        }
    }
    cJSON *args = cJSON_GetObjectItemCaseSensitive(spec, "args");
    for (cJSON *a = cJSON_IsObject(args) ? args->child : NULL; a; a = a->next) {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "upload"));
        if (!cJSON_IsObject(a) || !cJSON_GetObjectItemCaseSensitive(a, "upload"))
            continue;
        char field[160], path[PATH_MAX];
        snprintf(field, sizeof field, "spec.args.%.100s.upload", a->string);
        upload_path(r->s, id ? id : "", path);
        if (!id || !upload_id_ok(id) || access(path, R_OK) || cJSON_GetArraySize(a) != 1) {
            mt_web_reply_error(r, 400, "bad_field", field,
                               "%s must be the id POST /api/uploads returned, alone in its object", field);
            cJSON_Delete(spec);
            return NULL;
        }
        cJSON *npy = cJSON_CreateObject();
        cJSON_AddStringToObject(npy, "npy", path);
        npy->string = strdup(a->string);
        cJSON_ReplaceItemViaPointer(args, a, npy);
        a = npy;
    }
    return spec;
}

/* Replace the absolute upload paths by links in the run's inputs/. */
static bool link_uploads(cJSON *spec, const char *dir, char *err, size_t errlen)
{
    cJSON *args = cJSON_GetObjectItemCaseSensitive(spec, "args");
    char inputs[PATH_MAX + 16];
    snprintf(inputs, sizeof inputs, "%s/inputs", dir);
    for (cJSON *a = cJSON_IsObject(args) ? args->child : NULL; a; a = a->next) {
        cJSON *npy = cJSON_GetObjectItemCaseSensitive(a, "npy");
        if (!cJSON_IsString(npy) || npy->valuestring[0] != '/')
            continue;
        if (!mt_web_mkdirs(inputs, err, errlen))
            return false;
        char dest[PATH_MAX * 2], rel[300];
        snprintf(rel, sizeof rel, "inputs/%.200s.npy", a->string);
        snprintf(dest, sizeof dest, "%s/%s", dir, rel);
        if (link(npy->valuestring, dest) && symlink(npy->valuestring, dest)) {
            snprintf(err, errlen, "cannot add the input %s to the run: %s", rel, strerror(errno));
            return false;
        }
        cJSON_SetValuestring(npy, rel);
    }
    return true;
}

typedef struct RunCtx {
    MtWebServer *s;
    int64_t id;
} RunCtx;

static void on_queued(void *ud, int position)
{
    RunCtx *rc = ud;
    cJSON *ev = cJSON_CreateObject();
    cJSON_AddNumberToObject(ev, "position", position);
    mt_web_job_event(rc->s->jobs, rc->id, "queued", ev);
}

static void on_started(void *ud, const char *worker)
{
    RunCtx *rc = ud;
    mt_web_history_started(rc->s->history, rc->id, worker);
    cJSON *ev = cJSON_CreateObject();
    cJSON_AddStringToObject(ev, "worker", worker);
    mt_web_job_event(rc->s->jobs, rc->id, "started", ev);
}

static void on_progress(void *ud, cJSON *event)
{
    RunCtx *rc = ud;
    mt_web_job_event(rc->s->jobs, rc->id, "progress", event);
}

static void on_done(void *ud, cJSON *final, const char *error)
{
    RunCtx *rc = ud;
    WebRunOutcome o;
    mt_web_run_outcome(final, error, &o);
    mt_web_history_finish(rc->s->history, rc->id, o.status, o.time_ms, o.error, o.result);
    cJSON *ev = cJSON_CreateObject();
    cJSON_AddStringToObject(ev, "status", o.status);
    if (o.error)
        cJSON_AddStringToObject(ev, "error", o.error);
    mt_web_job_event(rc->s->jobs, rc->id, "done", ev);
    mt_web_job_close(rc->s->jobs, rc->id);
    mt_web_log(rc->s, "run %lld: %s%s%s", (long long)rc->id, o.status, o.error ? ": " : "", o.error ? o.error : "");
    mt_web_run_outcome_free(&o);
    cJSON_Delete(final);
    free(rc);
}

/* Compile the kernel for the spec, as the worker will; on errors replies
 * 422 with the diagnostics. The compiled signature goes into *sig. */
static bool check_compiles(WebReq *r, const WebKernelReq *q, const MtLaunchSpec *ls, const RunOpts *o, char **sig,
                           char **kernel)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    bool clean, ok = false;
    if (!c) {
        mt_web_reply_error(r, 500, "internal", NULL, "out of memory");
        return false;
    }
    if (!mt_web_parse_kernel(r, c, q, &m, &clean))
        goto done;
    const MtKernelInfo *ki = q->kernel ? mt_module_find_kernel(m, q->kernel) : NULL;
    for (size_t i = 0; !ki && clean && i < mt_module_kernel_count(m); i++)
        if (!mt_query_is_helper(m, i))
            ki = ki ? NULL : mt_module_kernel(m, i);
    char *derived = NULL;
    if (clean && !ki) {
        mt_web_reply_error(r, 400, "bad_field", "kernel", "%s has several kernels (or none): name one in \"kernel\"",
                           q->path);
        goto done;
    }
    MtSpecError se;
    if (clean && !q->signature && mt_launch_spec_signature(ls, ki, &derived, &se) != MT_OK) {
        mt_web_reply_error(r, 400, "bad_spec", "spec", "%s", se.text);
        goto done;
    }
    MtCompiled *k = NULL;
    MtStatus st = MT_ERR_SOURCE;
    if (clean) {
        mt_web_compile_begin(r->s, c);
        /* The constexprs the spec leaves out are the ones the page showed
         * for the compile: the discovery's. */
        WebDiscovery dv;
        WebKernelReq named = *q; /* the kernel found above, by name */
        named.kernel = (char *)ki->name;
        mt_web_discover(r->s, c, m, &named, &dv);
        if (!q->signature && dv.dsc) {
            char *filled = mt_web_discovered_signature(ki, &dv, derived);
            free(derived);
            derived = filled;
        }
        MtSpec spec = {.kernel = ki->name,
                       .signature = q->signature ? q->signature : derived && *derived ? derived : NULL,
                       .last_stage = strcmp(o->backend, "cuda") ? MT_STAGE_SSA : MT_STAGE_CUDA,
                       .lowering = q->lowering,
                       .num_warps = q->num_warps,
                       .num_stages = q->num_stages};
        st = mt_compile(c, m, &spec, &k);
        mt_web_compile_end(r->s, c);
        mt_web_discovery_free(&dv);
    }
    free(derived);
    if (st != MT_OK) {
        cJSON *doc = cJSON_Parse(mt_compile_json(c, m, k, 0));
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "code", "compile");
        cJSON_AddStringToObject(e, "message",
                                mt_error_count(c) ? mt_diag_render(c, mt_diag_at(c, 0), false)
                                                  : "the kernel did not compile");
        cJSON_AddItemToObject(doc, "error", e);
        mt_web_reply_json(r, 422, doc);
        goto done;
    }
    *sig = strdup(mt_compiled_signature(c, k));
    *kernel = strdup(mt_compiled_kernel_name(k));
    ok = *sig && *kernel;
done:
    mt_ctx_free(c);
    return ok;
}

static char *request_record(const cJSON *body)
{
    cJSON *copy = cJSON_Duplicate(body, true);
    cJSON_DeleteItemFromObjectCaseSensitive(copy, "source");
    char *text = cJSON_PrintUnformatted(copy);
    cJSON_Delete(copy);
    return text;
}

void mt_web_api_run_start(WebReq *r)
{
    cJSON *body = mt_web_body_json(r);
    if (!body)
        return;
    WebKernelReq q;
    RunOpts o;
    cJSON *spec = NULL;
    MtLaunchSpec ls = {0};
    char *sig = NULL, *kernel = NULL, *spec_text = NULL, *request = NULL, err[1024], base[PATH_MAX];
    if (!mt_web_kernel_req(r, body, &q) || !run_opts(r, body, &o) || !(spec = build_spec(r, body, &q)))
        goto done;
    spec_text = cJSON_PrintUnformatted(spec);
    snprintf(base, sizeof base, "%s/uploads", r->s->data_dir);
    MtSpecError se;
    if (!spec_text || mt_launch_spec_parse(spec_text, base, &ls, &se) != MT_OK) {
        mt_web_reply_error(r, 400, "bad_spec", "spec", "spec: %s", spec_text ? se.text : "out of memory");
        goto done;
    }
    if (!check_compiles(r, &q, &ls, &o, &sig, &kernel))
        goto done;
    cJSON_AddStringToObject(spec, "source", "kernel.py");
    cJSON_AddStringToObject(spec, "kernel", kernel);
    cJSON_AddStringToObject(spec, "signature", sig);
    char sha[65];
    mt_web_sha256_hex(q.source, q.len, sha);
    request = request_record(body);
    WebRunRecord rec = {.path = q.path,
                        .kernel = kernel,
                        .source = q.source,
                        .source_sha256 = sha,
                        .signature = sig,
                        .backend = o.backend,
                        .compare = o.compare,
                        .profile = o.profile,
                        .request = request ? request : "{}"};
    int64_t id = mt_web_history_add(r->s->history, &rec, err, sizeof err);
    if (!id) {
        mt_web_reply_error(r, 500, "storage", NULL, "%s", err);
        goto done;
    }
    char dir[PATH_MAX], path[PATH_MAX + 32];
    mt_web_run_dir(r->s, id, dir);
    free(spec_text);
    spec_text = NULL;
    snprintf(path, sizeof path, "%s/kernel.py", dir);
    bool stored = mt_web_mkdirs(dir, err, sizeof err) && mt_web_write_file(path, q.source, q.len, err, sizeof err) &&
                  link_uploads(spec, dir, err, sizeof err) && (spec_text = cJSON_Print(spec)) != NULL;
    snprintf(path, sizeof path, "%s/spec.json", dir);
    if (!stored || !mt_web_write_file(path, spec_text, strlen(spec_text), err, sizeof err)) {
        mt_web_history_finish(r->s->history, id, "error", -1, err, NULL);
        mt_web_reply_error(r, 500, "storage", NULL, "%s", err);
        goto done;
    }
    cJSON *req = cJSON_CreateObject();
    cJSON_AddNumberToObject(req, "id", (double)id);
    cJSON_AddStringToObject(req, "spec", path);
    cJSON_AddStringToObject(req, "backend", o.backend);
    cJSON_AddBoolToObject(req, "compare", o.compare);
    cJSON_AddNumberToObject(req, "profile", o.profile);
    if (q.lowering)
        cJSON_AddStringToObject(req, "lowering", mt_lowering_name((MtLowering)q.lowering));
    if (q.num_warps)
        cJSON_AddNumberToObject(req, "num_warps", q.num_warps);
    if (q.num_stages)
        cJSON_AddNumberToObject(req, "num_stages", q.num_stages);
    snprintf(path, sizeof path, "%s/outputs", dir);
    if (o.keep_outputs)
        cJSON_AddStringToObject(req, "dump", path);
    RunCtx *rc = malloc(sizeof *rc);
    if (rc) {
        rc->s = r->s;
        rc->id = id;
    }
    mt_web_job_open(r->s->jobs, id);
    WebTask t = {.id = id, .device = o.device, .request = req, .queued = on_queued, .started = on_started,
                 .progress = on_progress, .done = on_done, .ud = rc};
    if (!rc || !mt_web_workers_submit(r->s->workers, &t, err, sizeof err)) {
        free(rc);
        cJSON_Delete(req);
        mt_web_history_finish(r->s->history, id, "error", -1, rc ? err : "out of memory", NULL);
        mt_web_job_close(r->s->jobs, id);
        mt_web_reply_error(r, 503, "unavailable", "backend", "%s", rc ? err : "out of memory");
        goto done;
    }
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "id", (double)id);
    char url[64];
    snprintf(url, sizeof url, "/api/events/%lld", (long long)id);
    cJSON_AddStringToObject(doc, "events", url);
    cJSON_AddStringToObject(doc, "signature", sig);
    mt_web_reply_json(r, 202, doc);
done:
    mt_launch_spec_free(&ls);
    cJSON_Delete(spec);
    free(spec_text);
    free(request);
    free(sig);
    free(kernel);
    mt_web_kernel_req_free(&q);
    cJSON_Delete(body);
}

/* ---- the history ------------------------------------------------------------------------------ */

static bool run_id(WebReq *r, int64_t *id)
{
    char *end;
    long long v = strtoll(r->params[0], &end, 10);
    if (*end || v <= 0) {
        mt_web_reply_error(r, 404, "not_found", NULL, "no run %s", r->params[0]);
        return false;
    }
    *id = v;
    return true;
}

void mt_web_api_runs(WebReq *r)
{
    const char *limit = mt_web_arg(r, "limit"), *before = mt_web_arg(r, "before"), *kernel = mt_web_arg(r, "kernel");
    int n = limit ? atoi(limit) : 100;
    if (n < 1 || n > 1000)
        n = 100;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddItemToObject(doc, "runs",
                          mt_web_history_list(r->s->history, n, before ? strtoll(before, NULL, 10) : 0, kernel));
    mt_web_reply_json(r, 200, doc);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* [{"name", "bytes", "url"}] for the run's outputs/ *.npy */
static cJSON *outputs(const MtWebServer *s, int64_t id)
{
    char dir[PATH_MAX + 16];
    mt_web_run_dir(s, id, dir);
    strcat(dir, "/outputs");
    cJSON *a = cJSON_CreateArray();
    DIR *d = opendir(dir);
    if (!d)
        return a;
    char *names[256];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".npy") && e->d_name[0] != '.')
            if ((names[n] = strdup(e->d_name)))
                n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        char path[PATH_MAX * 2], url[PATH_MAX];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        names[i][strlen(names[i]) - 4] = 0;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", names[i]);
        if (!stat(path, &st))
            cJSON_AddNumberToObject(o, "bytes", (double)st.st_size);
        snprintf(url, sizeof url, "/api/runs/%lld/outputs/%s.npy", (long long)id, names[i]);
        cJSON_AddStringToObject(o, "url", url);
        cJSON_AddItemToArray(a, o);
        free(names[i]);
    }
    return a;
}

/* The occupancy of a GPU run's blocks: the driver's resident blocks when
 * the run reports them, with the breakdown by resource calculated from the
 * registers and shared memory its kernel was loaded with and the limits
 * the GPU probe read for the device of the same name (occupancy.c); NULL
 * for runs that were not on a GPU. */
static cJSON *run_occupancy(MtWebServer *s, const cJSON *result)
{
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(result, "device");
    const cJSON *regs = cJSON_GetObjectItemCaseSensitive(dev, "registers");
    const cJSON *smem = cJSON_GetObjectItemCaseSensitive(dev, "shared_bytes");
    const cJSON *blocks = cJSON_GetObjectItemCaseSensitive(dev, "blocks_per_sm");
    const cJSON *threads = cJSON_GetObjectItemCaseSensitive(result, "cuda_threads");
    const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(dev, "name"));
    if (!cJSON_IsNumber(regs) || !cJSON_IsNumber(smem) || !cJSON_IsNumber(threads) || !name)
        return NULL;
    cJSON *info = mt_web_workers_info(s->workers);
    WebSmLimits l;
    bool known = false;
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(info, "cuda"), "devices"))
    {
        const char *n = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "name"));
        if (n && !strcmp(n, name) && (known = mt_web_sm_limits(d, &l)))
            break;
    }
    cJSON_Delete(info);
    return mt_web_run_occupancy(known ? &l : NULL, threads->valueint, regs->valueint, smem->valueint,
                                cJSON_IsNumber(blocks) ? blocks->valueint : 0);
}

void mt_web_api_run_get(WebReq *r)
{
    int64_t id;
    if (!run_id(r, &id))
        return;
    cJSON *run = mt_web_history_get(r->s->history, id, true);
    if (!run) {
        mt_web_reply_error(r, 404, "not_found", NULL, "no run %lld", (long long)id);
        return;
    }
    cJSON_AddItemToObject(run, "outputs", outputs(r->s, id));
    cJSON *occ = run_occupancy(r->s, cJSON_GetObjectItemCaseSensitive(run, "result"));
    if (occ)
        cJSON_AddItemToObject(run, "occupancy", occ);
    cJSON_AddItemToObject(run, "cost", mt_web_run_cost(r->s, id, run));
    mt_web_reply_json(r, 200, run);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

void mt_web_api_run_delete(WebReq *r)
{
    int64_t id;
    if (!run_id(r, &id))
        return;
    cJSON *run = mt_web_history_get(r->s->history, id, false);
    const char *status = run ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(run, "status")) : NULL;
    bool busy = status && (!strcmp(status, "queued") || !strcmp(status, "running"));
    cJSON_Delete(run);
    if (busy) {
        mt_web_reply_error(r, 409, "busy", NULL, "run %lld has not finished yet", (long long)id);
        return;
    }
    if (!mt_web_history_delete(r->s->history, id)) {
        mt_web_reply_error(r, 404, "not_found", NULL, "no run %lld", (long long)id);
        return;
    }
    char dir[PATH_MAX];
    mt_web_run_dir(r->s, id, dir);
    nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "deleted", (double)id);
    mt_web_reply_json(r, 200, doc);
}

/* An argument name: what a Python identifier may hold. */
static bool plain_name(const char *s)
{
    if (!*s || strlen(s) > 128)
        return false;
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
            return false;
    return true;
}

void mt_web_api_run_output(WebReq *r)
{
    int64_t id;
    if (!run_id(r, &id))
        return;
    char name[160];
    snprintf(name, sizeof name, "%s", r->params[1]);
    size_t len = strlen(name);
    if (len > 4 && !strcmp(name + len - 4, ".npy"))
        name[len - 4] = 0;
    if (!plain_name(name)) {
        mt_web_reply_error(r, 404, "not_found", NULL, "no output '%s'", r->params[1]);
        return;
    }
    char path[PATH_MAX + 200], file[200];
    mt_web_run_dir(r->s, id, path);
    size_t at = strlen(path);
    snprintf(path + at, sizeof path - at, "/outputs/%s.npy", name);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        mt_web_reply_error(r, 404, "not_found", NULL, "run %lld has no output '%s'", (long long)id, name);
        return;
    }
    snprintf(file, sizeof file, "run%lld_%s.npy", (long long)id, name);
    mt_web_reply_file(r, fd, (size_t)st.st_size, "application/octet-stream", file);
}
