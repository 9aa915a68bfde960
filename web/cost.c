/* cost.c: the bytes and FLOPs of a run, and its achieved rates.
 *
 * The compiler counts one program instance of the kernel (mt_query_cost:
 * loads, stores, atomics, FLOPs, loops multiplied by the trip counts the
 * launch's scalar values give); this file gives it the run's values, takes
 * the run's programs from the grid the worker launched, multiplies, and
 * divides by the median profiled launch. Nothing is typed by the kernel's
 * author: the spec's own "bytes" and "flops" (docs/launch-spec.md) only
 * override the compiler's totals when a spec gives them -- for a kernel
 * whose loops depend on the data or on tl.program_id (the compiler then
 * counts per iteration), or to count the unique bytes a kernel that
 * re-reads tiles (a matmul) takes from DRAM rather than every byte its
 * programs request.
 *
 * A stored run is counted when it is read (GET /api/runs/ID, the
 * ceilings): its source compiled again through the SSA with the signature
 * it ran with, a few milliseconds, and the same SSA the worker ran (for
 * the same compiler). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "cost.h"
#include "mytriton/cost.h"
#include "runs.h"

static cJSON *counts_json(MtCounts k)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "load_bytes", (double)k.load_bytes);
    cJSON_AddNumberToObject(o, "store_bytes", (double)k.store_bytes);
    cJSON_AddNumberToObject(o, "bytes", (double)k.load_bytes + (double)k.store_bytes);
    cJSON_AddNumberToObject(o, "flops", (double)k.flops);
    return o;
}

/* The launch's scalar arguments as the compiler takes them. */
static size_t scalar_values(const MtLaunchSpec *ls, MtCostValue *v, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; ls && i < ls->nargs && n < cap; i++) {
        const MtSpecArg *a = &ls->args[i];
        if (a->kind != MT_SPEC_ARG_SCALAR)
            continue;
        if (a->value.kind == MT_SCALAR_FLOAT)
            v[n++] = (MtCostValue){.name = a->name, .flt = true, .f = a->value.f};
        else if (a->value.kind == MT_SCALAR_INT || a->value.kind == MT_SCALAR_BOOL)
            v[n++] = (MtCostValue){.name = a->name, .i = a->value.i};
    }
    return n;
}

/* The grid the run launched (result.grid: three numbers), into grid;
 * its programs, or 0 when the result has no such grid. */
static double result_grid(const cJSON *result, int64_t grid[3])
{
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(result, "grid");
    double programs = cJSON_IsArray(g) && cJSON_GetArraySize(g) ? 1 : 0;
    for (int d = 0; d < 3; d++) {
        const cJSON *x = cJSON_GetArrayItem(g, d);
        bool ok = cJSON_IsNumber(x) && x->valuedouble >= 1;
        grid[d] = ok ? (int64_t)x->valuedouble : 0;
        if (ok)
            programs *= x->valuedouble;
        else if (x)
            programs = 0;
    }
    return programs;
}

/* A total: the spec's count when the result carries one (>= 0), else the
 * compiler's per program times the programs when both are known. */
static void total(cJSON *o, const char *key, const cJSON *result, double per_program, bool known, double programs)
{
    char from[32];
    snprintf(from, sizeof from, "%s_from", key);
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(result, key);
    if (cJSON_IsNumber(spec) && spec->valuedouble >= 0) {
        cJSON_AddNumberToObject(o, key, spec->valuedouble);
        cJSON_AddStringToObject(o, from, "spec");
    } else if (known && programs > 0) {
        cJSON_AddNumberToObject(o, key, per_program * programs);
        cJSON_AddStringToObject(o, from, "compiler");
    } else {
        cJSON_AddNullToObject(o, key);
        cJSON_AddNullToObject(o, from);
    }
}

/* count / ns (bytes per ns is GB/s) scaled, or null. */
static void rate(cJSON *o, const char *key, const cJSON *count, double median_ns, double scale)
{
    if (cJSON_IsNumber(count) && median_ns > 0)
        cJSON_AddNumberToObject(o, key, count->valuedouble / median_ns * scale);
    else
        cJSON_AddNullToObject(o, key);
}

cJSON *mt_web_cost_json(MtCtx *c, MtCompiled *k, const MtLaunchSpec *ls, const cJSON *result)
{
    MtCostValue values[64];
    MtCostInput in = {.values = values, .nvalues = scalar_values(ls, values, 64)};
    double programs = result_grid(result, in.grid);
    MtCost cost;
    if (!mt_query_cost(c, k, &in, &cost)) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "unavailable", "the kernel has no SSA to count");
        return o;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "per_program", counts_json(cost.per_program));
    cJSON_AddBoolToObject(o, "masked", cost.masked);
    cJSON_AddBoolToObject(o, "branches", cost.branches);
    cJSON *loops = cJSON_AddArrayToObject(o, "loops");
    for (uint32_t i = 0; i < cost.nloops; i++) {
        const MtCostLoop *l = &cost.loops[i];
        size_t len;
        const char *text = mt_file_text(c, l->span.file, &len);
        cJSON *j = cJSON_CreateObject();
        cJSON_AddItemToObject(j, "span", mt_web_span_json(text, len, l->span.off, l->span.end, l->span.line,
                                                          l->span.col, l->span.end_line, l->span.end_col));
        cJSON_AddStringToObject(j, "why", l->why);
        cJSON_AddItemToObject(j, "per_iteration", counts_json(l->per_iteration));
        cJSON_AddItemToArray(loops, j);
    }
    if (programs > 0)
        cJSON_AddNumberToObject(o, "programs", programs);
    else
        cJSON_AddNullToObject(o, "programs");
    bool counted = cost.nloops == 0;
    total(o, "bytes", result, (double)cost.per_program.load_bytes + (double)cost.per_program.store_bytes, counted,
          programs);
    total(o, "flops", result, (double)cost.per_program.flops, counted, programs);
    cJSON_AddBoolToObject(o, "exact", counted && !cost.masked && !cost.branches && programs > 0);
    const cJSON *median = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(result, "profile"),
                                                           "median_ns");
    double ns = cJSON_IsNumber(median) ? median->valuedouble : 0;
    rate(o, "gbps", cJSON_GetObjectItemCaseSensitive(o, "bytes"), ns, 1);
    rate(o, "tflops", cJSON_GetObjectItemCaseSensitive(o, "flops"), ns, 1e-3);
    return o;
}

/* {"unavailable": WHY DETAIL} */
static cJSON *unavailable(const char *why, const char *detail)
{
    cJSON *o = cJSON_CreateObject();
    size_t n = strlen(why) + strlen(detail) + 1;
    char *msg = malloc(n);
    if (msg)
        snprintf(msg, n, "%s%s", why, detail);
    cJSON_AddStringToObject(o, "unavailable", msg ? msg : why);
    free(msg);
    return o;
}

cJSON *mt_web_run_cost(MtWebServer *s, int64_t id, const cJSON *run)
{
    const char *source = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(run, "source"));
    const char *kernel = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(run, "kernel"));
    const char *signature = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(run, "signature"));
    if (!source || !kernel || !signature)
        return unavailable("the run has no source, kernel or signature", "");
    char path[PATH_MAX + 16];
    mt_web_run_dir(s, id, path);
    strcat(path, "/spec.json");
    MtLaunchSpec ls = {0};
    MtSpecError se;
    if (mt_launch_spec_load(path, &ls, &se) != MT_OK)
        return unavailable("the run's spec cannot be read: ", se.text);
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    MtCompiled *k = NULL;
    cJSON *o;
    if (!c) {
        o = unavailable("out of memory", "");
    } else if (mt_parse(c, "kernel.py", source, strlen(source), &m) != MT_OK) {
        o = unavailable("the run's source does not parse", "");
    } else {
        MtSpec spec = {.kernel = kernel, .signature = signature, .last_stage = MT_STAGE_SSA};
        mt_web_compile_begin(s, c);
        MtStatus st = mt_compile(c, m, &spec, &k);
        mt_web_compile_end(s, c);
        o = st == MT_OK ? mt_web_cost_json(c, k, &ls, cJSON_GetObjectItemCaseSensitive(run, "result"))
                        : unavailable("the kernel does not compile with the run's signature: ", mt_status_name(st));
    }
    mt_ctx_free(c);
    mt_launch_spec_free(&ls);
    return o;
}
