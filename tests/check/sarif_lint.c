/* sarif_lint.c: the structural rules tests/check holds `mytriton check
 * --format sarif` to, whether or not the official schema is at hand
 * (validate_sarif.sh adds the schema where it can get it).
 *
 *   sarif_lint FILE                 check FILE; print "ok: N results, M rules"
 *   sarif_lint --fingerprints FILE  print "ruleId fingerprint" per result
 *   sarif_lint --lines FILE         print "ruleId uri:startLine" per result
 *
 * Rules: $schema and version "2.1.0"; exactly one run; tool.driver with
 * name, version, informationUri and a rules array that is the compiler's
 * whole catalogue in order (id, name, shortDescription.text,
 * fullDescription.text, helpUri ending in rules/<id>.md, a valid
 * defaultConfiguration.level); every result with ruleId, a ruleIndex whose
 * rule has that id, a valid level, a non-empty message.text, one location
 * whose artifactLocation.uri is relative (no scheme, no leading '/') with
 * uriBaseId %SRCROOT% declared in originalUriBaseIds, a region with
 * 1-based startLine/startColumn and an end not before the start;
 * relatedLocations with ids, messages and the same kind of location; and
 * partialFingerprints["mytriton/v1"] of 32 hex digits. Exit 1 on the first
 * broken rule, naming it. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mytriton/mytriton.h"

static const char *file_name;

static void broken(const char *what, long index)
{
    if (index >= 0)
        printf("SARIF rule broken in %s (result %ld): %s\n", file_name, index, what);
    else
        printf("SARIF rule broken in %s: %s\n", file_name, what);
    exit(1);
}

static const cJSON *get(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);
    return cJSON_IsString(v) && v->valuestring[0] ? v->valuestring : NULL;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static bool level_ok(const char *l)
{
    return l && (!strcmp(l, "error") || !strcmp(l, "warning") || !strcmp(l, "note") || !strcmp(l, "none"));
}

static void check_location(const cJSON *pl, long i)
{
    const cJSON *art = get(pl, "artifactLocation");
    const char *uri = str(art, "uri");
    if (!uri)
        broken("physicalLocation.artifactLocation.uri is missing", i);
    if (uri[0] == '/' || strstr(uri, "://") || strchr(uri, ':'))
        broken("artifactLocation.uri is not relative", i);
    const char *base = str(art, "uriBaseId");
    if (!base || strcmp(base, "%SRCROOT%"))
        broken("artifactLocation.uriBaseId is not %SRCROOT%", i);
    const cJSON *reg = get(pl, "region");
    if (!reg)
        broken("physicalLocation.region is missing", i);
    double sl = num(reg, "startLine"), sc = num(reg, "startColumn"), el = num(reg, "endLine"),
           ec = num(reg, "endColumn");
    if (sl < 1 || sc < 1 || el < 1 || ec < 1)
        broken("region lines and columns must be 1-based numbers", i);
    if (el < sl || (el == sl && ec < sc))
        broken("region ends before it starts", i);
}

static bool hex32(const char *s)
{
    if (!s || strlen(s) != 32)
        return false;
    for (; *s; s++)
        if (!strchr("0123456789abcdef", *s))
            return false;
    return true;
}

int main(int argc, char **argv)
{
    int mode = 0;
    if (argc == 3 && !strcmp(argv[1], "--fingerprints"))
        mode = 1;
    else if (argc == 3 && !strcmp(argv[1], "--lines"))
        mode = 2;
    else if (argc != 2) {
        fprintf(stderr, "usage: sarif_lint [--fingerprints|--lines] FILE.sarif\n");
        return 2;
    }
    file_name = argv[argc - 1];
    FILE *f = fopen(file_name, "rb");
    if (!f) {
        perror(file_name);
        return 2;
    }
    static char buf[1 << 24];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    cJSON *root = cJSON_Parse(buf);
    if (!root)
        broken("not JSON", -1);

    if (!str(root, "$schema"))
        broken("$schema is missing", -1);
    if (!str(root, "version") || strcmp(str(root, "version"), "2.1.0"))
        broken("version is not \"2.1.0\"", -1);
    const cJSON *runs = get(root, "runs");
    if (!cJSON_IsArray(runs) || cJSON_GetArraySize(runs) != 1)
        broken("there must be exactly one run", -1);
    const cJSON *run = cJSON_GetArrayItem(runs, 0);
    const cJSON *driver = get(get(run, "tool"), "driver");
    if (!str(driver, "name") || !str(driver, "version") || !str(driver, "informationUri"))
        broken("tool.driver needs name, version and informationUri", -1);
    const cJSON *rules = get(driver, "rules");
    int nrules = cJSON_GetArraySize(rules);
    for (int i = 0; mt_rule_at((size_t)i) || i < nrules; i++) {
        const MtRule *want = mt_rule_at((size_t)i);
        const cJSON *r = cJSON_GetArrayItem(rules, i);
        if (!want || !r)
            broken("the rules are not the compiler's catalogue", -1);
        const char *id = str(r, "id");
        if (!id || strcmp(id, want->code))
            broken("the rules are not in catalogue order", -1);
        if (!str(r, "name") || !str(get(r, "shortDescription"), "text") || !str(get(r, "fullDescription"), "text"))
            broken("a rule lacks name, shortDescription or fullDescription", -1);
        const char *help = str(r, "helpUri");
        char tail[32];
        snprintf(tail, sizeof tail, "rules/%s.md", id);
        if (!help || strlen(help) < strlen(tail) || strcmp(help + strlen(help) - strlen(tail), tail) ||
            !strstr(help, "://"))
            broken("a rule's helpUri is not an absolute link to docs/rules/<id>.md", -1);
        if (!level_ok(str(get(r, "defaultConfiguration"), "level")))
            broken("a rule's defaultConfiguration.level is invalid", -1);
    }
    if (!str(get(get(run, "originalUriBaseIds"), "%SRCROOT%"), "uri"))
        broken("originalUriBaseIds does not declare %SRCROOT%", -1);

    const cJSON *results = get(run, "results");
    if (!cJSON_IsArray(results))
        broken("run.results is missing", -1);
    long i = 0;
    const cJSON *res;
    cJSON_ArrayForEach(res, results)
    {
        const char *rule = str(res, "ruleId");
        if (!rule)
            broken("ruleId is missing", i);
        double idx = num(res, "ruleIndex");
        const cJSON *r = cJSON_GetArrayItem(rules, (int)idx);
        if (idx < 0 || !r || !str(r, "id") || strcmp(str(r, "id"), rule))
            broken("ruleIndex does not point at the rule with this ruleId", i);
        if (!level_ok(str(res, "level")))
            broken("level is invalid", i);
        if (!str(get(res, "message"), "text"))
            broken("message.text is missing", i);
        const cJSON *locs = get(res, "locations");
        if (cJSON_GetArraySize(locs) != 1)
            broken("a result needs exactly one location", i);
        const cJSON *pl = get(cJSON_GetArrayItem(locs, 0), "physicalLocation");
        check_location(pl, i);
        const cJSON *rel;
        int expect_id = 1;
        cJSON_ArrayForEach(rel, get(res, "relatedLocations"))
        {
            if (num(rel, "id") != expect_id++ || !str(get(rel, "message"), "text"))
                broken("relatedLocations need ids 1, 2, ... and messages", i);
            check_location(get(rel, "physicalLocation"), i);
        }
        const char *fp = str(get(res, "partialFingerprints"), "mytriton/v1");
        if (!hex32(fp))
            broken("partialFingerprints[\"mytriton/v1\"] is not 32 hex digits", i);
        if (mode == 1)
            printf("%s %s\n", rule, fp);
        if (mode == 2)
            printf("%s %s:%.0f\n", rule, str(get(pl, "artifactLocation"), "uri"), num(get(pl, "region"), "startLine"));
        i++;
    }
    if (mode == 0)
        printf("ok: %s: %ld results, %d rules\n", file_name, i, nrules);
    cJSON_Delete(root);
    return 0;
}
