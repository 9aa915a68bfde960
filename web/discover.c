/* discover.c: the specialisation a request compiles when it names none,
 * found as the language server and `mytriton check` find it (the
 * compiler's mt_discover; docs/lsp.md, "Specialisation without a launch"),
 * and what the page is told of it.
 *
 * Each parameter takes, highest first: the `# mytriton:` comment's sig=,
 * the project file's kernel signature; the request's "defines" (they rank
 * as -D does, above the file: the user typed them into the page); the
 * comment's NAME=VALUE; the project file's kernel constexprs; the first
 * launch of the kernel (in its file, else in the other files of its
 * folder); the autotune config the request's "config" picks (the first by
 * default); heuristics; defaults; the project file's top-level constexprs.
 * A request that gives a "signature" is compiled with exactly that (and
 * its defines), as before: the discovery is still reported, marked as not
 * applied, so the page can say what the file would give.
 *
 * Beside the file, and only under the roots (nothing outside them is ever
 * read, roots.c): the project file mytriton.json of the file's folder or
 * the nearest parent folder that has one, and, when the kernel has no
 * launch in its own file, the other .py files of its folder that name it
 * (a package whose ops.py launches the kernels of kernels.py). Those are
 * parsed into the request's context only when they parse cleanly, so
 * their diagnostics never reach the page's list. A source posted without
 * a path under the roots (the scratch file) is discovered from its text
 * alone.
 *
 * The project file follows the language server's rules, one copy of them
 * (mytriton/project.h, docs/lsp.md); a file that breaks them is ignored
 * with the reason reported. */
#include <dirent.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "mytriton/project.h"

enum {
    MAX_GIVEN = 64,           /* values from the request and the project file */
    MAX_VALUE = 128,          /* bytes of one formatted value */
    MAX_PACKAGE_FILES = 32,   /* other modules of the folder searched for launches */
    MAX_PACKAGE_BYTES = 1 << 20,
    MAX_PROJECT_BYTES = 1 << 20,
};

/* What the discovery is given beside the file. */
typedef struct Input {
    MtDiscoverOptions opt;
    MtGiven given[MAX_GIVEN];
    char values[MAX_GIVEN][MAX_VALUE];
    cJSON *project;           /* the parsed project file (owns the strings given[] points into) */
} Input;

/* ---- the project file --------------------------------------------------------------------- */

/* The mytriton.json of the file's folder or the nearest parent that has
 * one under the roots; parsed into in->project, or NULL with d->project
 * naming it and d->project_error saying why when it cannot be used. */
static void project_file(MtWebServer *s, const char *real, Input *in, WebDiscovery *d)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", real);
    for (char *slash; (slash = strrchr(dir, '/')) != NULL;) {
        *slash = 0;
        char cand[PATH_MAX + 16], found[PATH_MAX], err[512];
        snprintf(cand, sizeof cand, "%s/mytriton.json", dir[0] ? dir : "");
        if (!mt_web_roots_resolve(&s->roots, cand, found, err, sizeof err))
            continue;
        d->project = mt_web_roots_display(&s->roots, found);
        size_t len;
        char *text = mt_web_read_file(found, MAX_PROJECT_BYTES, &len, err, sizeof err);
        const char *end = NULL;
        in->project = text ? cJSON_ParseWithLengthOpts(text, len, &end, false) : NULL;
        char why[640];
        const char *where = "";
        const char *problem = !text ? err : !in->project ? "invalid JSON" : mt_project_problem(in->project, &where);
        if (problem) {
            long line = 1;
            for (const char *p = text; text && end && p < end; p++)
                line += *p == '\n';
            if (!text)
                snprintf(why, sizeof why, "%s", problem);
            else if (!in->project)
                snprintf(why, sizeof why, "line %ld: %s", line, problem);
            else
                snprintf(why, sizeof why, "%s%s%s", where, *where ? ": " : "", problem);
            d->project_error = strdup(why);
            cJSON_Delete(in->project);
            in->project = NULL;
        }
        free(text);
        return;
    }
}

static void give(Input *in, const char *name, const char *value, const char *origin, MtGivenTier tier)
{
    size_t i = in->opt.ngiven;
    if (i >= MAX_GIVEN || !name || !value)
        return;
    in->given[i] = (MtGiven){name, value, origin, tier};
    in->opt.ngiven = i + 1;
}

static void give_project_values(Input *in, const cJSON *values, MtGivenTier tier)
{
    const cJSON *v;
    cJSON_ArrayForEach(v, values)
    {
        size_t i = in->opt.ngiven;
        if (i < MAX_GIVEN && v->string)
            give(in, v->string, mt_project_value_literal(v, in->values[i], sizeof in->values[i]), "mytriton.json",
                 tier);
    }
}

/* ---- the package ------------------------------------------------------------------------------- */

/* The other .py files of the folder of `real` (under the roots) that name
 * `kernel` and parse cleanly, parsed into c. malloc'ed array. */
static size_t package_modules(MtWebServer *s, MtCtx *c, const char *real, const char *kernel, const MtModule ***out)
{
    *out = NULL;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", real);
    dirname(dir);
    DIR *dh = opendir(dir);
    const MtModule **mods = dh ? calloc(MAX_PACKAGE_FILES + 1, sizeof *mods) : NULL;
    size_t n = 0, looked = 0;
    for (struct dirent *e; mods && looked < 4 * MAX_PACKAGE_FILES && n < MAX_PACKAGE_FILES && (e = readdir(dh));) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".py") || e->d_name[0] == '.')
            continue;
        looked++;
        char path[PATH_MAX * 2], found[PATH_MAX], err[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (!mt_web_roots_resolve(&s->roots, path, found, err, sizeof err) || !strcmp(found, real))
            continue;
        size_t tlen;
        char *text = mt_web_read_file(found, MAX_PACKAGE_BYTES, &tlen, err, sizeof err);
        MtCtx *scratch = text && strstr(text, kernel) ? mt_ctx_new(NULL) : NULL;
        MtModule *m = NULL;
        if (scratch && mt_parse(scratch, found, text, tlen, &m) == MT_OK && !mt_diag_count(scratch) &&
            mt_parse(c, found, text, tlen, &m) == MT_OK && m)
            mods[n++] = m;
        mt_ctx_free(scratch);
        free(text);
    }
    if (dh)
        closedir(dh);
    if (!n) {
        free(mods);
        return 0;
    }
    *out = mods;
    return n;
}

/* ---- discovering ------------------------------------------------------------------------------- */

/* The kernel a request names, or the file's only entry kernel (as
 * mt_compile picks it); NULL when it cannot be told. */
static const char *kernel_name(const MtModule *m, const WebKernelReq *q)
{
    if (q->kernel)
        return mt_module_find_kernel(m, q->kernel) ? q->kernel : NULL;
    size_t n = mt_module_kernel_count(m);
    const char *only = NULL;
    for (size_t i = 0; i < n; i++)
        if (n == 1 || !mt_query_is_helper(m, i)) {
            if (only)
                return NULL;
            only = mt_module_kernel(m, i)->name;
        }
    return only;
}

void mt_web_discover(MtWebServer *s, MtCtx *c, const MtModule *m, const WebKernelReq *q, WebDiscovery *d)
{
    memset(d, 0, sizeof *d);
    d->applied = !q->signature;
    const char *kernel = m ? kernel_name(m, q) : NULL;
    if (!kernel)
        return;
    Input *in = calloc(1, sizeof *in);
    if (!in)
        return;
    in->opt.given = in->given;
    in->opt.config = q->config;
    for (size_t i = 0; i < q->ndefines; i++)
        give(in, q->defines[i].name, q->defines[i].value, "the dashboard", MT_GIVEN_OVERRIDE);
    if (q->real)
        project_file(s, q->real, in, d);
    const cJSON *entry = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(in->project, "kernels"),
                                                          kernel);
    const cJSON *sig = cJSON_GetObjectItemCaseSensitive(entry, "signature");
    if (cJSON_IsString(sig)) {
        in->opt.signature = sig->valuestring;
        in->opt.signature_origin = "mytriton.json";
    }
    give_project_values(in, cJSON_GetObjectItemCaseSensitive(entry, "constexprs"), MT_GIVEN_KERNEL);
    give_project_values(in, cJSON_GetObjectItemCaseSensitive(in->project, "constexprs"), MT_GIVEN_FALLBACK);

    const MtModule **package = NULL;
    if (mt_discover(c, m, kernel, &in->opt, &d->dsc) != MT_OK)
        d->dsc = NULL;
    if (d->dsc && !d->dsc->nlaunches && q->real) {
        in->opt.nothers = package_modules(s, c, q->real, kernel, &package);
        in->opt.others = package;
        if (in->opt.nothers && mt_discover(c, m, kernel, &in->opt, &d->dsc) != MT_OK)
            d->dsc = NULL;
    }
    /* Every config's values, for the page's choice: one discovery each. */
    uint32_t n = d->dsc ? d->dsc->nconfigs : 0;
    if (n > WEB_MAX_CONFIGS)
        n = WEB_MAX_CONFIGS;
    if (n > 1 && (d->configs = calloc(n, sizeof *d->configs)) != NULL) {
        d->nconfigs = n;
        for (uint32_t i = 0; i < n; i++) {
            const MtDiscovery *other = d->dsc;
            MtDiscoverOptions opt = in->opt;
            opt.config = i;
            if (i != d->dsc->config && mt_discover(c, m, kernel, &opt, &other) != MT_OK)
                other = NULL;
            d->configs[i].text = other ? other->config_text : NULL;
            d->configs[i].span = other ? other->config_span : (MtSpan){0};
        }
    }
    free(package);
    cJSON_Delete(in->project);
    free(in);
}

MtSpec mt_web_discovered_spec(const WebKernelReq *q, const WebDiscovery *d)
{
    if (!q->signature && d->dsc)
        return d->dsc->spec;
    /* A signature given, or nothing to discover: the request as it is (the
     * compile then says what is wrong with the kernel's name). */
    return (MtSpec){.kernel = q->kernel,
                    .signature = q->signature,
                    .defines = q->defines,
                    .ndefines = q->ndefines,
                    .infer_params = !q->signature};
}

void mt_web_discovery_free(WebDiscovery *d)
{
    free(d->configs);
    free(d->project);
    free(d->project_error);
    memset(d, 0, sizeof *d);
}

/* ---- what the page is told --------------------------------------------------------------------- */

/* Where a value came from, in words (the language server's inlay
 * tooltips say the same). */
static char *note(const MtFound *f)
{
    char *t = NULL;
    int n;
    if (f->unsupported_type)
        n = asprintf(&t, "inferred from its use: %s passes %s (%s), which mytriton cannot compile yet", f->where,
                     f->detail ? f->detail : "it", f->unsupported_type);
    else if (f->origin == MT_ORIGIN_NONE && f->constexpr_)
        n = asprintf(&t, "no value: not given by a launch, an autotune config, a default or a `# mytriton:` comment");
    else if (f->origin == MT_ORIGIN_NONE)
        n = asprintf(&t, "inferred from its use (no launch shows its type)");
    else if (f->origin == MT_ORIGIN_DEFAULT)
        n = asprintf(&t, "from its default");
    else
        n = asprintf(&t, "from %s%s%s%s%s%s", f->where ? f->where : mt_origin_name(f->origin), f->detail ? ": " : "",
                     f->detail ? f->detail : "", f->seen ? " (" : "", f->seen ? f->seen : "", f->seen ? ")" : "");
    return n < 0 ? NULL : t;
}

/* A span of the source (with the editor's offsets), or of another file of
 * the package (its path and lines only); NULL for none. */
static cJSON *span_json(MtCtx *c, MtSpan sp, uint32_t file, const char *src, size_t len)
{
    if (!sp.line)
        return NULL;
    bool here = sp.file == file;
    cJSON *o = mt_web_span_json(here ? src : NULL, len, sp.off, sp.end, sp.line, sp.col, sp.end_line, sp.end_col);
    if (!here) {
        const char *path = mt_file_path(c, sp.file);
        cJSON_AddStringToObject(o, "file", path ? path : "?");
    }
    return o;
}

static void add_str(cJSON *o, const char *key, const char *v)
{
    if (v)
        cJSON_AddStringToObject(o, key, v);
}

cJSON *mt_web_discovery_json(MtCtx *c, const MtModule *m, const WebDiscovery *d, const char *src, size_t len)
{
    const MtDiscovery *dsc = d->dsc;
    if (!dsc)
        return NULL;
    const MtKernelInfo *ki = mt_module_find_kernel(m, dsc->kernel);
    uint32_t file = ki ? ki->span.file : 0;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kernel", dsc->kernel);
    cJSON_AddBoolToObject(o, "applied", d->applied);
    if (dsc->spec.signature)
        cJSON_AddStringToObject(o, "signature", dsc->spec.signature);
    else
        cJSON_AddNullToObject(o, "signature");
    cJSON *ps = cJSON_AddArrayToObject(o, "params");
    for (uint32_t i = 0; i < dsc->nparams; i++) {
        const MtFound *f = &dsc->params[i];
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "name", f->name);
        cJSON_AddBoolToObject(p, "constexpr", f->constexpr_);
        cJSON_AddStringToObject(p, "origin", mt_origin_name(f->origin));
        add_str(p, "value", f->value);
        add_str(p, "type", f->type);
        add_str(p, "unsupported_type", f->unsupported_type);
        add_str(p, "where", f->where);
        add_str(p, "detail", f->detail);
        add_str(p, "seen", f->seen);
        cJSON *sp = span_json(c, f->span, file, src, len);
        if (sp)
            cJSON_AddItemToObject(p, "span", sp);
        char *words = note(f);
        add_str(p, "note", words);
        free(words);
        cJSON_AddItemToArray(ps, p);
    }
    cJSON_AddNumberToObject(o, "missing", dsc->nmissing);
    cJSON_AddNumberToObject(o, "launches", dsc->nlaunches);
    cJSON *launch = dsc->nlaunches ? span_json(c, dsc->launch, file, src, len) : NULL;
    if (launch)
        cJSON_AddItemToObject(o, "launch", launch);
    else
        cJSON_AddNullToObject(o, "launch");
    cJSON *cs = cJSON_AddArrayToObject(o, "configs");
    if (d->nconfigs)
        for (uint32_t i = 0; i < d->nconfigs; i++) {
            cJSON *e = cJSON_CreateObject();
            add_str(e, "text", d->configs[i].text);
            cJSON *sp = span_json(c, d->configs[i].span, file, src, len);
            if (sp)
                cJSON_AddItemToObject(e, "span", sp);
            cJSON_AddItemToArray(cs, e);
        }
    else if (dsc->nconfigs == 1) {
        cJSON *e = cJSON_CreateObject();
        add_str(e, "text", dsc->config_text);
        cJSON *sp = span_json(c, dsc->config_span, file, src, len);
        if (sp)
            cJSON_AddItemToObject(e, "span", sp);
        cJSON_AddItemToArray(cs, e);
    }
    cJSON_AddNumberToObject(o, "nconfigs", dsc->nconfigs);
    if (dsc->nconfigs)
        cJSON_AddNumberToObject(o, "config", dsc->config);
    else
        cJSON_AddNullToObject(o, "config");
    if (d->project) {
        cJSON *pj = cJSON_AddObjectToObject(o, "project");
        cJSON_AddStringToObject(pj, "path", d->project);
        add_str(pj, "error", d->project_error);
    } else {
        cJSON_AddNullToObject(o, "project");
    }
    return o;
}

/* ---- runs -------------------------------------------------------------------------------------- */

char *mt_web_discovered_signature(const MtKernelInfo *ki, const WebDiscovery *d, const char *derived)
{
    const MtDiscovery *dsc = d->dsc;
    size_t n = ki->nparams, cap = 1;
    const char **entries = calloc(n + 1, sizeof *entries);
    char *copy = strdup(derived ? derived : "");
    if (!entries || !copy) {
        free(entries);
        free(copy);
        return NULL;
    }
    char *p = copy;
    for (size_t i = 0; i < n && p; i++) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = 0;
        entries[i] = p;
        p = comma ? comma + 1 : NULL;
    }
    for (size_t i = 0; i < n; i++) {
        const MtFound *f = dsc && dsc->nparams == n ? &dsc->params[i] : NULL;
        if ((!entries[i] || !*entries[i]) && f && f->constexpr_ && f->value && f->origin != MT_ORIGIN_NONE &&
            f->origin != MT_ORIGIN_DEFAULT)
            entries[i] = f->value;
        cap += (entries[i] ? strlen(entries[i]) : 0) + 1;
    }
    char *out = malloc(cap);
    size_t at = 0, keep = 0;
    for (size_t i = 0; out && i < n; i++) {
        at += (size_t)snprintf(out + at, cap - at, "%s%s", i ? "," : "", entries[i] ? entries[i] : "");
        if (entries[i] && *entries[i])
            keep = at;
    }
    if (out)
        out[keep] = 0;
    free(entries);
    free(copy);
    return out;
}
