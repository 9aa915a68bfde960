/* api_compile.c: POST /api/compile and POST /api/actions.
 *
 * /api/compile is what the page calls as the user types: it compiles the
 * editor's text for one kernel and answers with the compiler's JSON
 * document (mt_compile_json: kernels, signature, params, stages, source
 * map, layout, diagnostics; docs/json.md) extended for the page:
 *
 *   - diagnostics: each with "from"/"to" (the editor's UTF-16 offsets) and
 *     "fixes" (mt_query_fixes: title, preferred, edits as offsets + text);
 *   - "lines": per stage, per printed line, the source range it came from
 *     and the helper calls it was inlined through (mt_compiled_line_origin);
 *   - "passes": the SSA after each optimisation pass with its links and a
 *     diff to the SSA before it (when "passes": true);
 *   - "ptx" and "sass" (when asked for in "stages"): NVRTC's PTX and the
 *     disassembled cubin, linked through the generated CUDA;
 *   - "mlir" and "mlir-llvm" (when asked for): the MLIR code generator's
 *     module before and after MLIR's GPU lowering, linked to the source,
 *     from a compile of their own (stages.c);
 *   - "discovery": where each parameter's value or type comes from in
 *     the file (discover.c: the `# mytriton:` comment, the project file,
 *     launches, autotune configs, defaults), every autotune config when
 *     there are several, and whether the compile took it ("applied");
 *   - "kernel_info" (mt_query_kernel), "helpers", "timing".
 *
 * The compile takes the discovered specialisation unless the request
 * gives a "signature" (then exactly that, with its "defines").
 *
 * A source with errors is still a 200: the document carries the
 * diagnostics and whatever stages completed. Errors in the request itself
 * are 4xx with {"error": ...}.
 *
 * /api/actions answers the refactorings for a selection of a kernel that
 * compiles (mt_query_actions), in the same edit form. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "stages.h"

typedef struct Wanted {
    unsigned mask;            /* compiler stages (1 << MtStage) */
    bool ptx, sass, passes;
    bool mlir, mlir_llvm;     /* the MLIR code generator's stages (a compile of their own) */
    int last;                 /* the last compiler stage needed */
} Wanted;

static const char *const default_stages[] = {"expr", "ssa-raw", "ssa", "layout", "cuda"};

static bool wanted(WebReq *r, const cJSON *body, Wanted *w)
{
    memset(w, 0, sizeof *w);
    w->last = MT_STAGE_SSA;
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(body, "stages");
    const cJSON *passes = cJSON_GetObjectItemCaseSensitive(body, "passes");
    if (passes && !cJSON_IsBool(passes)) {
        mt_web_reply_error(r, 400, "bad_field", "passes", "passes must be true or false");
        return false;
    }
    w->passes = cJSON_IsTrue(passes);
    if (st && !cJSON_IsArray(st)) {
        mt_web_reply_error(r, 400, "bad_field", "stages", "stages must be an array of stage names");
        return false;
    }
    size_t n = st ? (size_t)cJSON_GetArraySize(st) : sizeof default_stages / sizeof *default_stages;
    for (size_t i = 0; i < n; i++) {
        const cJSON *e = st ? cJSON_GetArrayItem(st, (int)i) : NULL;
        const char *name = st ? cJSON_GetStringValue(e) : default_stages[i];
        int stage = name ? mt_stage_from_name(name) : -1;
        if (name && !strcmp(name, "ptx")) {
            w->ptx = true;
            stage = MT_STAGE_CUDA;
        } else if (name && !strcmp(name, "sass")) {
            w->ptx = w->sass = true;
            stage = MT_STAGE_CUDA;
        } else if (stage == MT_STAGE_MLIR || stage == MT_STAGE_MLIR_LLVM) {
            w->mlir = true;
            w->mlir_llvm |= stage == MT_STAGE_MLIR_LLVM;
            stage = MT_STAGE_SSA;
        } else if (stage < 0) {
            mt_web_reply_error(r, 400, "bad_field", "stages",
                               "unknown stage '%s' (stages: ast, expr, ssa-raw, ssa, layout, kernel, cuda, mlir, "
                               "mlir-llvm, ptx, sass)",
                               name ? name : "(not a string)");
            return false;
        } else {
            w->mask |= 1u << stage;
        }
        if (stage > w->last)
            w->last = stage;
    }
    return true;
}

static cJSON *edits_json(const MtQueryFix *f, const char *src, size_t len)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "title", f->title);
    cJSON_AddBoolToObject(o, "preferred", f->preferred);
    cJSON *edits = cJSON_AddArrayToObject(o, "edits");
    for (uint32_t i = 0; i < f->nedits; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "from", (double)mt_web_utf16_offset(src, len, f->edits[i].off));
        cJSON_AddNumberToObject(e, "to", (double)mt_web_utf16_offset(src, len, f->edits[i].end));
        cJSON_AddStringToObject(e, "insert", f->edits[i].text);
        cJSON_AddItemToArray(edits, e);
    }
    return o;
}

/* Offsets and fixes on each diagnostic of the document (same order as the
 * context's). */
static void decorate_diags(MtCtx *c, const MtModule *m, cJSON *doc, const char *src, size_t len)
{
    cJSON *diags = cJSON_GetObjectItemCaseSensitive(doc, "diagnostics");
    size_t i = 0;
    for (cJSON *d = diags ? diags->child : NULL; d && i < mt_diag_count(c); d = d->next, i++) {
        const MtDiag *md = mt_diag_at(c, i);
        if (md->span.file) {
            cJSON_AddNumberToObject(d, "from", (double)mt_web_utf16_offset(src, len, md->span.off));
            cJSON_AddNumberToObject(d, "to", (double)mt_web_utf16_offset(src, len, md->span.end));
        }
        const MtRule *rule = md->code ? mt_rule_find(md->code) : NULL;
        if (rule)
            cJSON_AddStringToObject(d, "rule", rule->title);
        const MtQueryFix *fixes = NULL;
        size_t nf = m ? mt_query_fixes(c, m, md, &fixes) : 0;
        cJSON *fa = cJSON_AddArrayToObject(d, "fixes");
        for (size_t f = 0; f < nf; f++)
            cJSON_AddItemToArray(fa, edits_json(&fixes[f], src, len));
    }
}

static void add_helpers(const MtModule *m, cJSON *doc)
{
    cJSON *kernels = cJSON_GetObjectItemCaseSensitive(doc, "kernels");
    size_t i = 0;
    for (cJSON *k = kernels ? kernels->child : NULL; k; k = k->next, i++)
        cJSON_AddBoolToObject(k, "helper", mt_query_is_helper(m, i));
}

static void add_kernel_info(MtCompiled *k, cJSON *doc)
{
    MtQueryKernel q;
    if (!mt_query_kernel(k, &q))
        return;
    cJSON *o = cJSON_AddObjectToObject(doc, "kernel_info");
    cJSON_AddNumberToObject(o, "threads", q.threads);
    cJSON_AddNumberToObject(o, "rank", q.rank);
    cJSON_AddItemToObject(o, "tile", cJSON_CreateIntArray((const int[]){q.tile[0], q.tile[1]}, q.rank ? q.rank : 1));
    cJSON_AddItemToObject(o, "thread_shape",
                          cJSON_CreateIntArray((const int[]){q.thread_shape[0], q.thread_shape[1]}, q.rank ? q.rank : 1));
    cJSON_AddNumberToObject(o, "elements_per_thread", (double)q.elements_per_thread);
    cJSON_AddNumberToObject(o, "shared_bytes", (double)q.shared_bytes);
    cJSON_AddBoolToObject(o, "register_tiles", q.register_tiles);
}

void mt_web_api_compile(WebReq *r)
{
    cJSON *body = mt_web_body_json(r);
    if (!body)
        return;
    WebKernelReq q;
    Wanted w;
    MtCtx *c = NULL;
    cJSON *ptx = NULL, *sass = NULL;
    WebDiscovery dv = {0};
    if (!mt_web_kernel_req(r, body, &q) || !wanted(r, body, &w))
        goto done;
    if (!(c = mt_ctx_new(NULL))) {
        mt_web_reply_error(r, 500, "internal", NULL, "out of memory");
        goto done;
    }
    double t0 = mt_web_now();
    MtModule *m;
    bool clean;
    if (!mt_web_parse_kernel(r, c, &q, &m, &clean))
        goto done;
    MtCompiled *k = NULL;
    MtStatus st = clean ? MT_OK : MT_ERR_SOURCE;
    double compile_ms = 0, nvrtc_ms = 0;
    if (clean) {
        mt_web_compile_begin(r->s, c);
        mt_web_discover(r->s, c, m, &q, &dv);
        MtSpec spec = mt_web_discovered_spec(&q, &dv);
        spec.last_stage = w.last;
        spec.sm = q.sm;
        spec.dump_passes = w.passes ? "all" : NULL;
        spec.lowering = q.lowering;
        spec.num_warps = q.num_warps;
        spec.num_stages = q.num_stages;
        st = mt_compile(c, m, &spec, &k);
        compile_ms = (mt_web_now() - t0) * 1e3;
        if (st == MT_OK && w.ptx) {
            double t1 = mt_web_now();
            ptx = mt_web_nvrtc_stages(r->s, c, k, q.sm, w.sass, q.source, q.len, &sass);
            nvrtc_ms = (mt_web_now() - t1) * 1e3;
        }
        mt_web_compile_end(r->s, c);
    }
    if (st == MT_CANCELLED) {
        mt_web_reply_error(r, 503, "timeout", NULL,
                           "the compile took longer than %.0f s and was stopped (start the dashboard with a larger "
                           "--compile-timeout to allow more)",
                           r->s->opt.compile_timeout_s);
        goto done;
    }
    if (st == MT_ERR_NOMEM) {
        mt_web_reply_error(r, 500, "internal", NULL, "out of memory");
        goto done;
    }
    cJSON *doc = cJSON_Parse(mt_compile_json(c, m, k, w.mask));
    if (!doc) {
        mt_web_reply_error(r, 500, "internal", NULL, "out of memory");
        goto done;
    }
    if (m)
        add_helpers(m, doc);
    decorate_diags(c, m, doc, q.source, q.len);
    cJSON *found = mt_web_discovery_json(c, m, &dv, q.source, q.len);
    if (found)
        cJSON_AddItemToObject(doc, "discovery", found);
    if (k) {
        cJSON *lines = cJSON_AddObjectToObject(doc, "lines");
        for (int s = 0; s < MT_STAGE_COUNT; s++)
            if ((w.mask & (1u << s)) && s != MT_STAGE_AST) {
                cJSON *l = mt_web_stage_lines(c, k, (MtStage)s, q.source, q.len);
                if (l)
                    cJSON_AddItemToObject(lines, mt_stage_name((MtStage)s), l);
            }
        if (w.passes)
            cJSON_AddItemToObject(doc, "passes", mt_web_passes_json(c, k, q.source, q.len));
        add_kernel_info(k, doc);
    }
    if (ptx)
        cJSON_AddItemToObject(doc, "ptx", ptx);
    if (sass)
        cJSON_AddItemToObject(doc, "sass", sass);
    if (st == MT_OK && w.mlir)
        mt_web_mlir_stages(r->s, c, k, &q, w.mlir_llvm, doc);
    ptx = sass = NULL;
    char sha[65];
    mt_web_sha256_hex(q.source, q.len, sha);
    cJSON_AddStringToObject(doc, "source_sha256", sha);
    cJSON *timing = cJSON_AddObjectToObject(doc, "timing");
    cJSON_AddNumberToObject(timing, "compile_ms", compile_ms);
    cJSON_AddNumberToObject(timing, "nvrtc_ms", nvrtc_ms);
    cJSON_AddNumberToObject(timing, "total_ms", (mt_web_now() - t0) * 1e3);
    mt_web_reply_json(r, 200, doc);
done:
    cJSON_Delete(ptx);
    cJSON_Delete(sass);
    mt_web_discovery_free(&dv);
    mt_web_kernel_req_free(&q);
    mt_ctx_free(c);
    cJSON_Delete(body);
}

static bool offset_field(WebReq *r, const cJSON *body, const char *name, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(body, name);
    if (!cJSON_IsNumber(v) || v->valuedouble < 0) {
        mt_web_reply_error(r, 400, "bad_field", name, "%s must be a non-negative offset (UTF-16 code units)", name);
        return false;
    }
    *out = v->valuedouble;
    return true;
}

void mt_web_api_actions(WebReq *r)
{
    cJSON *body = mt_web_body_json(r);
    if (!body)
        return;
    WebKernelReq q;
    MtCtx *c = NULL;
    double from, to;
    if (!mt_web_kernel_req(r, body, &q) || !offset_field(r, body, "from", &from) || !offset_field(r, body, "to", &to))
        goto done;
    if (!(c = mt_ctx_new(NULL))) {
        mt_web_reply_error(r, 500, "internal", NULL, "out of memory");
        goto done;
    }
    MtModule *m;
    bool clean;
    if (!mt_web_parse_kernel(r, c, &q, &m, &clean))
        goto done;
    cJSON *doc = cJSON_CreateObject();
    cJSON *actions = cJSON_AddArrayToObject(doc, "actions");
    MtCompiled *k = NULL;
    WebDiscovery dv = {0};
    if (clean) {
        mt_web_compile_begin(r->s, c);
        mt_web_discover(r->s, c, m, &q, &dv);
        MtSpec spec = mt_web_discovered_spec(&q, &dv);
        spec.last_stage = MT_STAGE_SSA;
        spec.lowering = q.lowering;
        spec.num_warps = q.num_warps;
        spec.num_stages = q.num_stages;
        MtStatus st = mt_compile(c, m, &spec, &k);
        mt_web_compile_end(r->s, c);
        if (st != MT_OK)
            k = NULL;
    }
    if (k) {
        size_t off = mt_web_byte_offset(q.source, q.len, (size_t)from);
        size_t end = mt_web_byte_offset(q.source, q.len, (size_t)(to > from ? to : from));
        const MtQueryFix *fixes = NULL;
        size_t n = mt_query_actions(c, k, (uint32_t)off, (uint32_t)end, &fixes);
        for (size_t i = 0; i < n; i++)
            cJSON_AddItemToArray(actions, edits_json(&fixes[i], q.source, q.len));
    }
    mt_web_discovery_free(&dv);
    mt_web_reply_json(r, 200, doc);
done:
    mt_web_kernel_req_free(&q);
    mt_ctx_free(c);
    cJSON_Delete(body);
}
