/* check_sarif.c: `--format sarif`, SARIF 2.1.0 as GitHub code scanning
 * (github/codeql-action/upload-sarif) and other SARIF viewers read it.
 *
 * One run. tool.driver carries the whole rule catalogue (mt_rule_at, in
 * catalogue order, so a result's ruleIndex is its code's catalogue index)
 * with each rule's title, help text, helpUri (<docs-url>rules/<CODE>.md)
 * and default level (E and R codes error, W warning, I note). Each result
 * has ruleId, ruleIndex, level, message.text, one location whose
 * artifactLocation.uri is relative to the root with uriBaseId "%SRCROOT%"
 * (originalUriBaseIds says where that root was; a file outside the root
 * gets an absolute file: URI instead), the kernel as a logical location,
 * the compiler's notes as relatedLocations, and partialFingerprints
 * {"mytriton/v1": fingerprint} (check_report.c says how it is computed).
 *
 * Columns: SARIF's are 1-based with an exclusive end, like ours, but
 * SARIF counts characters (run.columnKind) where the compiler counts
 * bytes. Columns here are converted to Unicode code points and columnKind
 * says "unicodeCodePoints"; for ASCII lines the two agree. An internal
 * compiler error has no rule code: its ruleId is "internal-error", outside
 * the catalogue, so it has no ruleIndex. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "check_report.h"

static const char *rule_level(const char *code)
{
    return code[0] == 'W' ? "warning" : code[0] == 'I' ? "note" : "error";
}

static const char *level(MtSeverity s)
{
    return s == MT_SEV_ERROR ? "error" : s == MT_SEV_WARNING ? "warning" : "note";
}

static cJSON *text_obj(const char *text)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "text", text);
    return o;
}

/* Percent-encode everything but RFC 3986's unreserved characters and '/'. */
static char *uri_encode(CkReport *r, const char *prefix, const char *path)
{
    size_t n = strlen(prefix), len = strlen(path);
    char *out = ck_alloc(r, n + len * 3 + 1);
    memcpy(out, prefix, n);
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
            out[n++] = (char)*p;
        else
            n += (size_t)sprintf(out + n, "%%%02X", *p);
    }
    out[n] = 0;
    return out;
}

static cJSON *physical(CkReport *r, const CkFile *file, const CkLoc *l)
{
    cJSON *pl = cJSON_CreateObject();
    cJSON *art = cJSON_AddObjectToObject(pl, "artifactLocation");
    char *uri = file->in_root ? uri_encode(r, "", file->rel) : uri_encode(r, "file://", file->rel);
    cJSON_AddStringToObject(art, "uri", uri);
    free(uri);
    if (file->in_root)
        cJSON_AddStringToObject(art, "uriBaseId", "%SRCROOT%");
    if (l->line) {
        cJSON *reg = cJSON_AddObjectToObject(pl, "region");
        cJSON_AddNumberToObject(reg, "startLine", l->line);
        cJSON_AddNumberToObject(reg, "startColumn", l->ucol);
        cJSON_AddNumberToObject(reg, "endLine", l->end_line);
        cJSON_AddNumberToObject(reg, "endColumn", l->uend_col);
    }
    return pl;
}

static cJSON *rules_json(const CkOptions *o)
{
    cJSON *rules = cJSON_CreateArray();
    for (size_t i = 0; mt_rule_at(i); i++) {
        const MtRule *rule = mt_rule_at(i);
        cJSON *d = cJSON_CreateObject();
        cJSON_AddStringToObject(d, "id", rule->code);
        cJSON_AddStringToObject(d, "name", rule->name);
        cJSON_AddItemToObject(d, "shortDescription", text_obj(rule->title));
        cJSON_AddItemToObject(d, "fullDescription", text_obj(rule->help));
        size_t n = o->docs_url ? strlen(o->docs_url) + 32 : 0;
        char *uri = o->docs_url ? malloc(n) : NULL;
        if (uri) {
            snprintf(uri, n, "%srules/%s.md", o->docs_url, rule->code);
            cJSON_AddStringToObject(d, "helpUri", uri);
            free(uri);
        }
        cJSON *help = cJSON_AddObjectToObject(d, "help");
        cJSON_AddStringToObject(help, "text", rule->help);
        cJSON *cfg = cJSON_AddObjectToObject(d, "defaultConfiguration");
        cJSON_AddStringToObject(cfg, "level", rule_level(rule->code));
        cJSON_AddItemToArray(rules, d);
    }
    return rules;
}

static long rule_index(const char *code)
{
    for (size_t i = 0; code && mt_rule_at(i); i++)
        if (!strcmp(mt_rule_at(i)->code, code))
            return (long)i;
    return -1;
}

static cJSON *result_json(CkReport *r, const CkFinding *f)
{
    cJSON *res = cJSON_CreateObject();
    long idx = rule_index(f->code);
    cJSON_AddStringToObject(res, "ruleId", f->code ? f->code : "internal-error");
    if (idx >= 0)
        cJSON_AddNumberToObject(res, "ruleIndex", (double)idx);
    cJSON_AddStringToObject(res, "level", level(f->sev));
    cJSON_AddItemToObject(res, "message", text_obj(f->msg));
    const CkFile *file = &r->files[f->file];
    const CkResult *kr = f->result >= 0 ? &r->results[f->result] : NULL;
    cJSON *locs = cJSON_AddArrayToObject(res, "locations");
    cJSON *loc = cJSON_CreateObject();
    cJSON_AddItemToObject(loc, "physicalLocation", physical(r, file, &f->loc));
    if (kr && kr->kernel) {
        cJSON *logical = cJSON_AddArrayToObject(loc, "logicalLocations");
        cJSON *ll = cJSON_CreateObject();
        cJSON_AddStringToObject(ll, "name", kr->kernel);
        cJSON_AddStringToObject(ll, "kind", "function");
        cJSON_AddItemToArray(logical, ll);
    }
    cJSON_AddItemToArray(locs, loc);
    if (f->nnotes) {
        cJSON *rel = cJSON_AddArrayToObject(res, "relatedLocations");
        for (uint32_t i = 0; i < f->nnotes; i++) {
            cJSON *rl = cJSON_CreateObject();
            cJSON_AddNumberToObject(rl, "id", i + 1);
            cJSON_AddItemToObject(rl, "physicalLocation", physical(r, file, &f->notes[i].loc));
            cJSON_AddItemToObject(rl, "message", text_obj(f->notes[i].msg));
            cJSON_AddItemToArray(rel, rl);
        }
    }
    cJSON *fps = cJSON_AddObjectToObject(res, "partialFingerprints");
    cJSON_AddStringToObject(fps, CK_FINGERPRINT_KEY, f->fingerprint);
    if (kr && kr->kernel) {
        cJSON *props = cJSON_AddObjectToObject(res, "properties");
        cJSON_AddStringToObject(props, "kernel", kr->kernel);
        if (kr->signature)
            cJSON_AddStringToObject(props, "signature", kr->signature);
    }
    return res;
}

void ck_format_sarif(CkReport *r, const CkOptions *o, FILE *out)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    cJSON_AddStringToObject(root, "version", "2.1.0");
    cJSON *runs = cJSON_AddArrayToObject(root, "runs");
    cJSON *run = cJSON_CreateObject();
    cJSON_AddItemToArray(runs, run);
    cJSON *driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "tool"), "driver");
    cJSON_AddStringToObject(driver, "name", "mytriton");
    cJSON_AddStringToObject(driver, "version", CK_TOOL_VERSION);
    cJSON_AddStringToObject(driver, "semanticVersion", CK_TOOL_VERSION);
    if (o->docs_url)
        cJSON_AddStringToObject(driver, "informationUri", o->docs_url);
    cJSON_AddItemToObject(driver, "rules", rules_json(o));

    char *base = uri_encode(r, "file://", r->root);
    size_t blen = strlen(base);
    char *slash = ck_alloc(r, blen + 2);
    snprintf(slash, blen + 2, "%s%s", base, blen && base[blen - 1] == '/' ? "" : "/");
    cJSON *ids = cJSON_AddObjectToObject(run, "originalUriBaseIds");
    cJSON_AddStringToObject(cJSON_AddObjectToObject(ids, "%SRCROOT%"), "uri", slash);
    free(base);
    free(slash);
    cJSON_AddStringToObject(run, "columnKind", "unicodeCodePoints");

    cJSON *results = cJSON_AddArrayToObject(run, "results");
    size_t *idx;
    size_t n = ck_visible(r, false, &idx);
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(results, result_json(r, &r->findings[idx[i]]));
    free(idx);
    cJSON *props = cJSON_AddObjectToObject(run, "properties");
    cJSON_AddNumberToObject(props, "suppressedByBaseline", (double)r->nsuppressed);

    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        ck_oom(r);
    fprintf(out, "%s\n", text);
    cJSON_free(text);
}
