/* run_json.c: the JSON form of an MtRunResult (docs/runtime.md has the
 * schema, field by field). Numbers that JSON cannot hold (NaN, +-inf)
 * are the strings "nan", "inf", "-inf", as in launch specs; a 64-bit hash
 * is 16 hex digits; absent things are null. */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "run_internal.h"

static void num(cJSON *o, const char *key, double v)
{
    if (isfinite(v))
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddStringToObject(o, key, isnan(v) ? "nan" : v < 0 ? "-inf" : "inf");
}

static void str(cJSON *o, const char *key, const char *s)
{
    if (s)
        cJSON_AddStringToObject(o, key, s);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *int_list(const int64_t *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; a && i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber((double)v[i]));
    return a;
}

static cJSON *check_json(const MtRunCheck *c)
{
    if (!c->done)
        return cJSON_CreateNull();
    const MtCompareResult *r = &c->r;
    cJSON *o = cJSON_CreateObject();
    str(o, "reference", c->reference);
    cJSON_AddBoolToObject(o, "ok", r->ok);
    str(o, "error", r->error[0] ? r->error : NULL);
    cJSON_AddNumberToObject(o, "mismatches", (double)r->mismatches);
    num(o, "max_abs_err", r->max_abs_err);
    num(o, "max_rel_err", r->max_rel_err);
    if (r->first >= 0 && !r->error[0]) {
        cJSON_AddItemToObject(o, "first_index", r->ndim ? int_list(r->first_index, r->ndim)
                                                        : int_list(&r->first, 1));
        num(o, "got", r->first_got);
        num(o, "want", r->first_want);
    } else {
        cJSON_AddNullToObject(o, "first_index");
    }
    return o;
}

static cJSON *array_json(const MtRunArray *a)
{
    cJSON *o = cJSON_CreateObject();
    char hex[24];
    str(o, "name", a->name);
    str(o, "type", a->type);
    str(o, "dtype", mt_dtype_name(a->dtype));
    cJSON_AddItemToObject(o, "shape", int_list(a->shape, a->ndim));
    cJSON_AddNumberToObject(o, "numel", (double)a->numel);
    cJSON_AddNumberToObject(o, "bytes", (double)a->nbytes);
    str(o, "input", a->input);
    cJSON_AddBoolToObject(o, "written", a->written);
    cJSON *s = cJSON_AddObjectToObject(o, "stats");
    num(s, "sum", a->stats.sum);
    num(s, "min", a->stats.min);
    num(s, "max", a->stats.max);
    num(s, "mean", a->stats.mean);
    cJSON_AddNumberToObject(s, "nans", (double)a->stats.nans);
    cJSON_AddNumberToObject(s, "infs", (double)a->stats.infs);
    snprintf(hex, sizeof hex, "%016" PRIx64, a->stats.fnv1a);
    cJSON_AddStringToObject(o, "fnv1a", hex);
    cJSON_AddStringToObject(o, "preview", a->preview);
    cJSON_AddItemToObject(o, "expect", check_json(&a->expect));
    cJSON_AddItemToObject(o, "compare", check_json(&a->compare));
    str(o, "dumped", a->dumped);
    return o;
}

static cJSON *diag_json(const MtRunDiag *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "severity", mt_severity_name(d->severity));
    str(o, "code", d->code);
    str(o, "message", d->message);
    str(o, "file", d->file);
    str(o, "field", d->field);
    if (d->line) {
        cJSON_AddNumberToObject(o, "line", d->line);
        cJSON_AddNumberToObject(o, "col", d->col);
        cJSON_AddNumberToObject(o, "end_line", d->end_line);
        cJSON_AddNumberToObject(o, "end_col", d->end_col);
    } else {
        cJSON_AddNullToObject(o, "line");
    }
    str(o, "rendered", d->rendered);
    return o;
}

static cJSON *profile_json(const MtRunResult *r)
{
    if (!r->profiled)
        return cJSON_CreateNull();
    const MtRunProfile *p = &r->profile;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "launches", (double)p->n);
    cJSON_AddStringToObject(o, "timer", p->timer);
    str(o, "note", p->note[0] ? p->note : NULL);
    cJSON_AddNumberToObject(o, "min_ns", (double)p->min_ns);
    cJSON_AddNumberToObject(o, "median_ns", (double)p->median_ns);
    cJSON_AddNumberToObject(o, "max_ns", (double)p->max_ns);
    num(o, "mean_ns", p->mean_ns);
    cJSON *samples = cJSON_AddArrayToObject(o, "samples_ns");
    for (size_t i = 0; samples && p->ns && i < p->n; i++)
        cJSON_AddItemToArray(samples, cJSON_CreateNumber((double)p->ns[i]));
    if (r->bytes >= 0)
        num(o, "gbps", p->gbps);
    else
        cJSON_AddNullToObject(o, "gbps");
    if (r->flops >= 0)
        num(o, "gflops", p->gflops);
    else
        cJSON_AddNullToObject(o, "gflops");
    return o;
}

static cJSON *device_json(const MtRunDevice *d)
{
    if (!d->used)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    char cc[16];
    cJSON_AddStringToObject(o, "name", d->name);
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    cJSON_AddStringToObject(o, "compute_capability", cc);
    cJSON_AddNumberToObject(o, "sm_count", d->sm_count);
    cJSON_AddNumberToObject(o, "memory_bytes", (double)d->memory);
    cJSON_AddNumberToObject(o, "driver_version", d->driver_version);
    if (d->cubin) {
        cJSON_AddNumberToObject(o, "registers", d->registers);
        cJSON_AddNumberToObject(o, "shared_bytes", d->shared_bytes);
        cJSON_AddNumberToObject(o, "local_bytes", d->local_bytes);
        cJSON_AddNumberToObject(o, "max_threads_per_block", d->max_threads_per_block);
        if (d->blocks_per_sm > 0)
            cJSON_AddNumberToObject(o, "blocks_per_sm", d->blocks_per_sm);
        else
            cJSON_AddNullToObject(o, "blocks_per_sm");
    }
    str(o, "code", d->code);
    str(o, "cubin", d->cubin);
    return o;
}

char *mt_run_result_json(const MtRunResult *r, bool pretty)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "outcome", mt_run_outcome_name(r->outcome));
    cJSON_AddNumberToObject(o, "exit_status", mt_run_exit_status(r->outcome));
    cJSON_AddBoolToObject(o, "ran", r->ran);
    str(o, "spec", r->spec_path);
    str(o, "source", r->source_path);
    str(o, "kernel", r->kernel);
    if (r->printed)
        str(o, "printed", r->printed);
    str(o, "signature", r->signature);
    cJSON_AddStringToObject(o, "backend", r->backend == MT_RUN_CUDA ? "cuda" : "interp");
    if (r->grid_dims) {
        cJSON_AddItemToObject(o, "grid", int_list(r->grid, 3));
        cJSON_AddNumberToObject(o, "programs", (double)r->programs);
    } else {
        cJSON_AddNullToObject(o, "grid");
        cJSON_AddNullToObject(o, "programs");
    }
    if (r->cuda_threads) {
        cJSON_AddNumberToObject(o, "cuda_threads", r->cuda_threads);
        cJSON_AddNumberToObject(o, "programs_per_block", r->programs_per_block);
    } else {
        cJSON_AddNullToObject(o, "cuda_threads");
        cJSON_AddNullToObject(o, "programs_per_block");
    }
    if (r->backend == MT_RUN_INTERP && r->grid_dims) {
        cJSON_AddNumberToObject(o, "threads", r->threads);
        cJSON_AddBoolToObject(o, "threads_auto", r->threads_auto);
    }
    cJSON *t = cJSON_AddObjectToObject(o, "times_ms");
    num(t, "compile", r->compile_ms);
    num(t, "bind", r->bind_ms);
    num(t, "run", r->run_ms);
    num(t, "total", r->total_ms);
    if (r->bytes >= 0)
        cJSON_AddNumberToObject(o, "bytes", (double)r->bytes);
    else
        cJSON_AddNullToObject(o, "bytes");
    if (r->flops >= 0)
        cJSON_AddNumberToObject(o, "flops", (double)r->flops);
    else
        cJSON_AddNullToObject(o, "flops");
    cJSON_AddItemToObject(o, "profile", profile_json(r));
    cJSON_AddItemToObject(o, "device", device_json(&r->device));
    cJSON *tol = cJSON_AddObjectToObject(o, "tolerance");
    num(tol, "rtol", r->rtol);
    num(tol, "atol", r->atol);
    cJSON *arrays = cJSON_AddArrayToObject(o, "arrays");
    for (size_t i = 0; arrays && i < r->narrays; i++)
        cJSON_AddItemToArray(arrays, array_json(&r->arrays[i]));
    cJSON *checks = cJSON_AddObjectToObject(o, "checks");
    cJSON_AddNumberToObject(checks, "expected", r->expected);
    cJSON_AddNumberToObject(checks, "compared", r->compared);
    cJSON_AddNumberToObject(checks, "mismatches", r->mismatches);
    cJSON *diags = cJSON_AddArrayToObject(o, "diagnostics");
    for (size_t i = 0; diags && i < r->ndiags; i++)
        cJSON_AddItemToArray(diags, diag_json(&r->diags[i]));
    char *text = pretty ? cJSON_Print(o) : cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}
