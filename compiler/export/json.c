/* json.c: every stage of a compilation as one JSON document (cJSON).
 *
 * This is the only file of the compiler that includes cJSON. The shape is
 * documented in docs/json.md; positions are 1-based lines and 1-based byte
 * columns with exclusive ends, like MtSpan. */
#include <cjson/cJSON.h>
#include <string.h>

#include "api/compiled.h"

static cJSON *range_json(MtSpan sp)
{
    cJSON *r = cJSON_CreateObject();
    cJSON *s = cJSON_AddObjectToObject(r, "start");
    cJSON_AddNumberToObject(s, "line", sp.line);
    cJSON_AddNumberToObject(s, "col", sp.col);
    cJSON *e = cJSON_AddObjectToObject(r, "end");
    cJSON_AddNumberToObject(e, "line", sp.end_line);
    cJSON_AddNumberToObject(e, "col", sp.end_col);
    return r;
}

static cJSON *diag_json(const MtCtx *c, const MtDiag *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "severity", mt_severity_name(d->sev));
    if (d->code)
        cJSON_AddStringToObject(o, "code", d->code);
    cJSON_AddStringToObject(o, "message", d->msg);
    const char *path = mt_file_path(c, d->span.file);
    if (path)
        cJSON_AddStringToObject(o, "file", path);
    if (d->kernel)
        cJSON_AddStringToObject(o, "kernel", d->kernel);
    cJSON_AddItemToObject(o, "range", range_json(d->span));
    cJSON *notes = cJSON_AddArrayToObject(o, "notes");
    for (uint32_t i = 0; i < d->nnotes; i++) {
        cJSON *n = cJSON_CreateObject();
        cJSON_AddStringToObject(n, "message", d->notes[i].msg);
        const char *np = mt_file_path(c, d->notes[i].span.file);
        if (np)
            cJSON_AddStringToObject(n, "file", np);
        cJSON_AddItemToObject(n, "range", range_json(d->notes[i].span));
        cJSON_AddItemToArray(notes, n);
    }
    if (d->nfacts) {
        cJSON *facts = cJSON_AddObjectToObject(o, "facts");
        for (uint32_t i = 0; i < d->nfacts; i++)
            cJSON_AddNumberToObject(facts, d->facts[i].name, (double)d->facts[i].value);
    }
    return o;
}

static cJSON *params_json(const MtKernelInfo *ki)
{
    cJSON *a = cJSON_CreateArray();
    for (uint32_t i = 0; i < ki->nparams; i++) {
        const MtParamInfo *p = &ki->params[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", p->name);
        cJSON_AddBoolToObject(o, "constexpr", p->constexpr_);
        if (p->annotation)
            cJSON_AddStringToObject(o, "annotation", p->annotation);
        if (p->default_text)
            cJSON_AddStringToObject(o, "default", p->default_text);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static void add_compiled(MtCtx *c, cJSON *root, MtCompiled *k, unsigned mask)
{
    cJSON_AddStringToObject(root, "kernel", mt_compiled_kernel_name(k));
    const char *sig = mt_compiled_signature(c, k);
    if (sig)
        cJSON_AddStringToObject(root, "signature", sig);
    cJSON *params = cJSON_AddArrayToObject(root, "params");
    for (size_t i = 0; i < mt_compiled_param_count(k); i++) {
        const MtKernelParam *p = mt_compiled_param(k, i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", p->name);
        if (p->type)
            cJSON_AddStringToObject(o, "type", p->type);
        if (p->value)
            cJSON_AddStringToObject(o, "value", p->value);
        cJSON_AddItemToArray(params, o);
    }
    cJSON *stages = cJSON_AddObjectToObject(root, "stages");
    for (int s = 0; s < MT_STAGE_COUNT; s++) {
        if (!(mask & (1u << s)))
            continue;
        const char *t = mt_compiled_text(c, k, (MtStage)s);
        if (t)
            cJSON_AddStringToObject(stages, mt_stage_name((MtStage)s), t);
    }
    uint32_t n;
    MtLineOps *lines = mt_source_map(c, k, &n);
    cJSON *map = cJSON_AddArrayToObject(root, "source_map");
    for (uint32_t i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "line", lines[i].line);
        const char *text = mt_compiled_ops_for_line(c, k, lines[i].line);
        cJSON *ops = cJSON_AddArrayToObject(o, "ops");
        for (const char *p = text; p && *p;) {
            const char *nl = strchr(p, '\n');
            size_t len = nl ? (size_t)(nl - p) : strlen(p);
            char *one = mt_arena_strndup(&c->arena, p, len);
            cJSON_AddItemToArray(ops, cJSON_CreateString(one));
            p += len + (nl ? 1 : 0);
        }
        cJSON_AddItemToArray(map, o);
    }
    if (k->cuda) {
        /* CUDA line -> source line, for every generated line an operation made */
        cJSON *cmap = cJSON_AddArrayToObject(root, "cuda_line_map");
        for (uint32_t line = 1; line <= k->cuda->nlines; line++) {
            MtSpan sp;
            if (!mt_compiled_cuda_line_span(k, line, &sp))
                continue;
            cJSON *pair = cJSON_CreateObject();
            cJSON_AddNumberToObject(pair, "cuda_line", line);
            cJSON_AddNumberToObject(pair, "line", sp.line);
            cJSON_AddNumberToObject(pair, "col", sp.col);
            cJSON_AddItemToArray(cmap, pair);
        }
    }
    if (k->layout || k->kernel) {
        cJSON *lay = cJSON_AddObjectToObject(root, "layout");
        cJSON_AddStringToObject(lay, "lowering", mt_lowering_name((MtLowering)k->lowering));
        if (k->layout) {
            const MtKernelLayout *kl = &k->layout->kernel;
            cJSON_AddItemToObject(lay, "output_tile", cJSON_CreateIntArray((const int *)kl->output, kl->rank));
            cJSON_AddItemToObject(lay, "threads", cJSON_CreateIntArray((const int *)kl->threads, kl->rank));
            cJSON_AddNumberToObject(lay, "threads_per_block", mt_kernel_layout_threads(kl));
            cJSON_AddItemToObject(lay, "registers",
                                  cJSON_CreateIntArray((const int *)k->layout->reg.registers, kl->rank));
        } else {
            const KFunc *kf = k->kernel;
            cJSON_AddNumberToObject(lay, "threads_per_block", kf->threads);
            cJSON_AddNumberToObject(lay, "programs_per_block", kf->programs_per_block);
            cJSON_AddNumberToObject(lay, "warps_per_program", kf->threads / kf->programs_per_block / 32);
            cJSON_AddNumberToObject(lay, "shared_bytes", (double)kf->shared_bytes);
        }
        cJSON *vals = cJSON_AddArrayToObject(lay, "values");
        for (MtVal v = 1; v < k->func->nvals; v++) {
            const char *d = mt_compiled_layout_describe(c, k, v);
            if (!d)
                continue;
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "value", k->func->vals[v].num);
            cJSON_AddStringToObject(o, "type", mt_ty_str(c, k->func->vals[v].ty));
            cJSON_AddStringToObject(o, "layout", d);
            const MtInst *def = k->func->vals[v].def;
            if (def && def->span.line)
                cJSON_AddNumberToObject(o, "line", def->span.line);
            cJSON_AddItemToArray(vals, o);
        }
    }
    if (mt_compiled_dump_count(k)) {
        cJSON *dumps = cJSON_AddArrayToObject(root, "dumps");
        for (size_t i = 0; i < mt_compiled_dump_count(k); i++) {
            const char *pass;
            const char *text = mt_compiled_dump(k, i, &pass);
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "pass", pass);
            cJSON_AddStringToObject(o, "ssa", text);
            cJSON_AddItemToArray(dumps, o);
        }
    }
}

const char *mt_compile_json(MtCtx *c, const MtModule *m, MtCompiled *k, unsigned mask)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "version", 1);
    if (m) {
        const char *path = mt_file_path(c, m->file);
        if (path)
            cJSON_AddStringToObject(root, "file", path);
        cJSON *kernels = cJSON_AddArrayToObject(root, "kernels");
        for (size_t i = 0; i < mt_module_kernel_count(m); i++) {
            const MtKernelInfo *ki = mt_module_kernel(m, i);
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", ki->name);
            cJSON_AddItemToObject(o, "range", range_json(ki->span));
            cJSON_AddItemToObject(o, "params", params_json(ki));
            if (ki->directive)
                cJSON_AddStringToObject(o, "directive", ki->directive);
            cJSON_AddItemToArray(kernels, o);
        }
    }
    cJSON_AddStringToObject(root, "status", mt_error_count(c) ? "error" : "ok");
    if (k)
        add_compiled(c, root, k, mask);
    cJSON *diags = cJSON_AddArrayToObject(root, "diagnostics");
    for (size_t i = 0; i < mt_diag_count(c); i++)
        cJSON_AddItemToArray(diags, diag_json(c, mt_diag_at(c, i)));
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    if (!text)
        mt_throw(c, MT_ERR_NOMEM);
    char *out = mt_arena_strdup(&c->arena, text);
    cJSON_free(text);
    return out;
}
