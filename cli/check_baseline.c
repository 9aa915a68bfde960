/* check_baseline.c: adopt the gate on a code base that already has
 * findings, and fail only on new ones.
 *
 * `--write-baseline FILE` records the fingerprint of every current error
 * and warning (infos never fail a run, so they are not recorded), with its
 * rule, file, kernel and message so that a reviewer can read the file.
 * Entries are sorted by fingerprint and the JSON is printed the same way
 * every time, so a re-written baseline only changes where findings did.
 * `--baseline FILE` marks the findings whose fingerprint the file holds as
 * suppressed: they leave every output and the exit status, and the reports
 * say how many there were. Fingerprints ignore line numbers (see
 * check_report.c), so moving code does not resurrect a baselined finding;
 * changing the flagged line itself does, which is the point. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "check_report.h"
#include "cli.h"

static int cmp_fp(const void *a, const void *b)
{
    const CkFinding *x = *(const CkFinding *const *)a, *y = *(const CkFinding *const *)b;
    return strcmp(x->fingerprint, y->fingerprint);
}

bool ck_baseline_write(CkReport *r, const char *path, const MtFileSet *inputs)
{
    const CkFinding **v = ck_alloc(r, (r->nfindings + 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; i < r->nfindings; i++)
        if (r->findings[i].sev == MT_SEV_ERROR || r->findings[i].sev == MT_SEV_WARNING)
            v[n++] = &r->findings[i];
    qsort(v, n, sizeof *v, cmp_fp);

    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddStringToObject(root, "fingerprint", CK_FINGERPRINT_KEY);
    cJSON *list = cJSON_AddArrayToObject(root, "findings");
    for (size_t i = 0; i < n; i++) {
        const CkFinding *f = v[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "fingerprint", f->fingerprint);
        cJSON_AddStringToObject(o, "rule", f->code ? f->code : "");
        cJSON_AddStringToObject(o, "file", r->files[f->file].rel);
        const char *kernel = f->result >= 0 ? r->results[f->result].kernel : NULL;
        if (kernel)
            cJSON_AddStringToObject(o, "kernel", kernel);
        cJSON_AddStringToObject(o, "message", f->msg);
        cJSON_AddItemToArray(list, o);
    }
    free(v);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        ck_oom(r);
    size_t len = strlen(text);
    char *withnl = ck_alloc(r, len + 2);
    memcpy(withnl, text, len);
    withnl[len] = '\n';
    cJSON_free(text);
    bool ok = cli_write_output(path, withnl, len + 1, inputs);
    free(withnl);
    if (ok)
        cli_error("wrote %zu finding%s to the baseline %s", n, n == 1 ? "" : "s", path);
    return ok;
}

bool ck_baseline_apply(CkReport *r, const char *path)
{
    size_t len;
    char *text = cli_read_file(path, MT_FILE_BASELINE, &len);
    if (!text)
        return false;
    cJSON *root = cJSON_ParseWithLength(text, len);
    free(text);
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "findings");
    const cJSON *key = cJSON_GetObjectItemCaseSensitive(root, "fingerprint");
    if (!cJSON_IsArray(list) || !cJSON_IsString(key)) {
        cli_error("%s is not a baseline written by --write-baseline", path);
        cJSON_Delete(root);
        return false;
    }
    if (strcmp(key->valuestring, CK_FINGERPRINT_KEY)) {
        cli_error("%s holds %s fingerprints; this mytriton computes %s (write it again)", path, key->valuestring,
                  CK_FINGERPRINT_KEY);
        cJSON_Delete(root);
        return false;
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, list)
    {
        const cJSON *fp = cJSON_GetObjectItemCaseSensitive(e, "fingerprint");
        if (!cJSON_IsString(fp))
            continue;
        for (size_t i = 0; i < r->nfindings; i++) {
            CkFinding *f = &r->findings[i];
            if (!f->suppressed && f->sev != MT_SEV_INFO && !strcmp(f->fingerprint, fp->valuestring)) {
                f->suppressed = true;
                r->nsuppressed++;
            }
        }
    }
    cJSON_Delete(root);
    return true;
}
