/* check_json.c: `--format json`, the whole report as one document for
 * scripts and dashboards:
 *
 *   {"version": 1, "tool": {"name", "version"},
 *    "summary": {"files", "kernels", "checked", "skipped", "errors",
 *                "warnings", "infos", "suppressed"},
 *    "files": [{"path", "diagnostics": [...],            file-level ones
 *               "kernels": [{"name", "signature", "line", "status",
 *                            "diagnostics": [...]}]}]}
 *
 * A diagnostic has the fields of the compiler's JSON export (severity,
 * code, message, file, kernel, range with 1-based lines and 1-based byte
 * columns, end exclusive, notes) plus its fingerprint. Paths are relative
 * to the root. Suppressed findings are counted, not listed. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "check_report.h"

static cJSON *range_json(const CkLoc *l)
{
    cJSON *r = cJSON_CreateObject();
    cJSON *s = cJSON_AddObjectToObject(r, "start");
    cJSON_AddNumberToObject(s, "line", l->line);
    cJSON_AddNumberToObject(s, "col", l->col);
    cJSON *e = cJSON_AddObjectToObject(r, "end");
    cJSON_AddNumberToObject(e, "line", l->end_line);
    cJSON_AddNumberToObject(e, "col", l->end_col);
    return r;
}

static cJSON *finding_json(const CkReport *r, const CkFinding *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "severity", mt_severity_name(f->sev));
    if (f->code)
        cJSON_AddStringToObject(o, "code", f->code);
    cJSON_AddStringToObject(o, "message", f->msg);
    cJSON_AddStringToObject(o, "file", r->files[f->file].rel);
    const char *kernel = f->result >= 0 ? r->results[f->result].kernel : NULL;
    if (kernel)
        cJSON_AddStringToObject(o, "kernel", kernel);
    if (f->loc.line)
        cJSON_AddItemToObject(o, "range", range_json(&f->loc));
    cJSON *notes = cJSON_AddArrayToObject(o, "notes");
    for (uint32_t i = 0; i < f->nnotes; i++) {
        cJSON *n = cJSON_CreateObject();
        cJSON_AddStringToObject(n, "message", f->notes[i].msg);
        if (f->notes[i].loc.line)
            cJSON_AddItemToObject(n, "range", range_json(&f->notes[i].loc));
        cJSON_AddItemToArray(notes, n);
    }
    cJSON_AddStringToObject(o, "fingerprint", f->fingerprint);
    return o;
}

static const char *status_name(CkStatus s)
{
    return s == CK_PASSED ? "passed" : s == CK_SKIPPED ? "skipped" : "failed";
}

void ck_format_json(CkReport *r, const CkOptions *o, FILE *out)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON *tool = cJSON_AddObjectToObject(root, "tool");
    cJSON_AddStringToObject(tool, "name", "mytriton");
    cJSON_AddStringToObject(tool, "version", CK_TOOL_VERSION);
    CkCounts n = ck_counts(r);
    cJSON *sum = cJSON_AddObjectToObject(root, "summary");
    cJSON_AddNumberToObject(sum, "files", (double)n.files);
    cJSON_AddNumberToObject(sum, "kernels", (double)n.kernels);
    cJSON_AddNumberToObject(sum, "checked", (double)n.checked);
    cJSON_AddNumberToObject(sum, "skipped", (double)n.skipped);
    cJSON_AddNumberToObject(sum, "errors", (double)n.errors);
    cJSON_AddNumberToObject(sum, "warnings", (double)n.warnings);
    cJSON_AddNumberToObject(sum, "infos", (double)n.infos);
    cJSON_AddNumberToObject(sum, "suppressed", (double)n.suppressed);
    cJSON *files = cJSON_AddArrayToObject(root, "files");
    for (size_t fi = 0; fi < r->nfiles; fi++) {
        cJSON *fo = cJSON_CreateObject();
        cJSON_AddStringToObject(fo, "path", r->files[fi].rel);
        cJSON *fdiags = cJSON_AddArrayToObject(fo, "diagnostics");
        cJSON *kernels = cJSON_AddArrayToObject(fo, "kernels");
        for (size_t i = 0; i < r->nfindings; i++) {
            const CkFinding *f = &r->findings[i];
            if (f->file == fi && !f->suppressed && (f->result < 0 || !r->results[f->result].kernel))
                cJSON_AddItemToArray(fdiags, finding_json(r, f));
        }
        for (size_t ri = 0; ri < r->nresults; ri++) {
            const CkResult *res = &r->results[ri];
            if (res->file != fi || !res->kernel)
                continue;
            cJSON *ko = cJSON_CreateObject();
            cJSON_AddStringToObject(ko, "name", res->kernel);
            if (res->signature)
                cJSON_AddStringToObject(ko, "signature", res->signature);
            cJSON_AddNumberToObject(ko, "line", res->line);
            cJSON_AddStringToObject(ko, "status", status_name(ck_status(r, ri)));
            cJSON *kd = cJSON_AddArrayToObject(ko, "diagnostics");
            for (size_t i = 0; i < r->nfindings; i++)
                if (r->findings[i].result == (long)ri && !r->findings[i].suppressed)
                    cJSON_AddItemToArray(kd, finding_json(r, &r->findings[i]));
            cJSON_AddItemToArray(kernels, ko);
        }
        cJSON_AddItemToArray(files, fo);
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        ck_oom(r);
    fprintf(out, "%s\n", text);
    cJSON_free(text);
}
