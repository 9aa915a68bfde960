/* check_run.c: compile every kernel of every file, as the CI gate sees it.
 *
 * For each file: parse it once (a file that does not parse yields its
 * syntax errors as one "(parse)" result and nothing else; a file without
 * jit functions yields nothing). Then, for each jit function that is a
 * kernel rather than a helper, compile the one specialisation the
 * compiler's discovery finds (mt_discover, as the editor does): a launch
 * spec beside the file (STEM.KERNEL.json, else STEM.json), the -D values
 * that name one of its parameters, the `# mytriton:` comment, the
 * kernel's launches in its file (else in the other checked files of its
 * folder that name it), its autotune configs, heuristics and defaults --
 * through the verifier and the CUDA lowering, and with --nvrtc through
 * NVRTC too.
 *
 * Each kernel gets a fresh parse in a reset context, for two reasons: the
 * compiler reports a diagnostic once per context (so a helper's error
 * would otherwise be charged to the first kernel that inlines it only),
 * and the error limit is per context. Diagnostics are copied out of the
 * arena into the report before the next reset.
 *
 * Kernel or helper: the rule of `mytriton compile` (mt_query_is_helper) —
 * a jit function that another jit function of the file calls is a helper
 * (and a file with a single jit function has no helpers). A jit function
 * that returns a value is a device function: never checked on its own,
 * even alone in its file (`mytriton compile` still says E0204 when asked
 * to compile one as a kernel). A file whose jit
 * functions all call one another (recursion, an error) has every function
 * checked. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_report.h"
#include "cli.h"
#include "cuda_build.h"
#include "launch_spec.h"

typedef struct Kernel {
    char *name;
    uint32_t line;
    MtGiven *given;          /* the -D values naming one of its parameters */
    size_t ngiven;
} Kernel;

/* ---- copying diagnostics out ---------------------------------------------- */

/* The code-point column of byte column `col` of the line holding byte `off`. */
static uint32_t cp_col(const char *t, size_t len, uint32_t off, uint32_t col)
{
    if (!col || off > len || col - 1 > off)
        return col;
    uint32_t n = 1;
    for (size_t i = off - (col - 1); i < off; i++)
        n += ((unsigned char)t[i] & 0xC0) != 0x80;
    return n;
}

static CkLoc loc_of(MtCtx *c, MtSpan sp)
{
    CkLoc l = {0};
    size_t len;
    const char *t = sp.file && sp.line ? mt_file_text(c, sp.file, &len) : NULL;
    if (!t)
        return l;
    l.line = sp.line;
    l.col = sp.col ? sp.col : 1;
    l.end_line = sp.end_line ? sp.end_line : sp.line;
    l.end_col = sp.end_line ? sp.end_col : l.col;
    l.ucol = cp_col(t, len, sp.off, l.col);
    l.uend_col = sp.end_line ? cp_col(t, len, sp.end, l.end_col) : l.ucol;
    return l;
}

/* The flagged line with white space trimmed and collapsed. */
static char *line_text(CkReport *r, MtCtx *c, MtSpan sp)
{
    size_t len;
    const char *t = sp.file && sp.line ? mt_file_text(c, sp.file, &len) : NULL;
    if (!t || !sp.col || sp.off > len || sp.col - 1 > sp.off)
        return ck_strdup(r, "");
    size_t s = sp.off - (sp.col - 1), e = s;
    while (e < len && t[e] != '\n' && t[e] != '\r')
        e++;
    char *out = ck_alloc(r, e - s + 1);
    size_t k = 0;
    bool space = false;
    for (size_t i = s; i < e; i++) {
        if (t[i] == ' ' || t[i] == '\t' || t[i] == '\f' || t[i] == '\v') {
            space = k > 0;
            continue;
        }
        if (space)
            out[k++] = ' ';
        space = false;
        out[k++] = t[i];
    }
    char *clean = ck_utf8_clean(r, out, k);
    free(out);
    return clean;
}

static void add_finding(CkReport *r, MtCtx *c, const MtDiag *d, size_t file, long result, MtSpan fallback,
                        bool color)
{
    ck_reserve(r, (void **)&r->findings, &r->capfindings, r->nfindings + 1, sizeof *r->findings);
    CkFinding *f = &r->findings[r->nfindings++];
    MtSpan sp = d->span.line ? d->span : fallback;
    f->sev = d->sev == MT_SEV_NOTE ? MT_SEV_INFO : d->sev;
    f->code = d->code ? ck_strdup(r, d->code) : NULL;
    f->msg = ck_utf8_clean(r, d->msg, strlen(d->msg));
    f->file = file;
    f->result = result;
    f->loc = loc_of(c, sp);
    f->line_text = line_text(r, c, sp);
    const char *text = mt_diag_render(c, d, color);
    f->rendered = ck_utf8_clean(r, text, strlen(text));
    f->notes = ck_alloc(r, (d->nnotes + 1) * sizeof *f->notes);
    for (uint32_t i = 0; i < d->nnotes; i++) {
        f->notes[i].loc = loc_of(c, d->notes[i].span);
        f->notes[i].msg = ck_utf8_clean(r, d->notes[i].msg, strlen(d->notes[i].msg));
    }
    f->nnotes = d->nnotes;
}

static long add_result(CkReport *r, size_t file, const char *kernel, uint32_t line)
{
    ck_reserve(r, (void **)&r->results, &r->capresults, r->nresults + 1, sizeof *r->results);
    CkResult *res = &r->results[r->nresults];
    res->file = file;
    res->kernel = kernel ? ck_strdup(r, kernel) : NULL;
    res->line = line;
    res->status = CK_FAILED;
    return (long)r->nresults++;
}

/* ---- where the specialisation comes from ------------------------------------- */

/* The signature of a launch spec beside the kernel's file: STEM.KERNEL.json,
 * else STEM.json when it names this kernel or none (what `mytriton run`
 * would compile). malloc'ed, with *origin the spec's file name; NULL when
 * there is none. A spec that does not load or fit is named in a warning
 * and not used. */
static char *spec_signature(const char *path, const MtKernelInfo *info, char **origin)
{
    size_t n = strlen(path);
    if (n < 3 || strcmp(path + n - 3, ".py"))
        return NULL;
    for (int named = 1; named >= 0; named--) {
        char *spec_path = malloc(n + strlen(info->name) + 8);
        if (!spec_path)
            return NULL;
        snprintf(spec_path, n + strlen(info->name) + 8, "%.*s%s%s.json", (int)(n - 3), path, named ? "." : "",
                 named ? info->name : "");
        /* Only a probe: mt_launch_spec_load refuses a FIFO or a folder
         * without opening it for reading. */
        if (access(spec_path, F_OK) != 0) {
            free(spec_path);
            continue;
        }
        MtLaunchSpec spec = {0};
        MtSpecError e;
        char *sig = NULL;
        bool loaded = mt_launch_spec_load(spec_path, &spec, &e) == MT_OK;
        if (!loaded || (spec.kernel && strcmp(spec.kernel, info->name)) ||
            mt_launch_spec_signature(&spec, info, &sig, &e) != MT_OK) {
            if (!loaded || !spec.kernel || !strcmp(spec.kernel, info->name))
                cli_warn("%s: not used for '%s': %s", spec_path, info->name, e.text);
            sig = NULL;
        }
        mt_launch_spec_free(&spec);
        if (sig) {
            const char *base = strrchr(spec_path, '/');
            *origin = strdup(base ? base + 1 : spec_path);
            free(spec_path);
            return sig;
        }
        free(spec_path);
    }
    return NULL;
}

static bool same_folder(const char *a, const char *b)
{
    const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
    size_t na = sa ? (size_t)(sa - a) : 0, nb = sb ? (size_t)(sb - b) : 0;
    return na == nb && !strncmp(a, b, na);
}

/* The other checked files of the kernel's folder that name it, parsed into
 * c: where a package launches a kernel defined in another module. */
static size_t package_modules(CkReport *r, MtCtx *c, size_t fi, const char *kernel, const MtModule ***out)
{
    const MtModule **mods = ck_alloc(r, (r->nfiles + 1) * sizeof *mods);
    size_t n = 0;
    for (size_t i = 0; i < r->nfiles; i++) {
        if (i == fi || !same_folder(r->files[i].path, r->files[fi].path))
            continue;
        size_t len;
        char *text = cli_read_file(r->files[i].path, MT_FILE_SOURCE, &len);
        MtModule *m = NULL;
        if (text && strstr(text, kernel) && mt_parse(c, r->files[i].path, text, len, &m) == MT_ERR_NOMEM)
            ck_oom(r);
        free(text);
        if (m)
            mods[n++] = m;
    }
    *out = mods;
    return n;
}

/* A kernel skipped for want of a value (I0901): say which values compile
 * it, as a note on its first I0901. */
static void suggest_values(MtCtx *c, const MtModule *m, const MtDiscovery *dsc, size_t first, int sm)
{
    for (size_t i = first; dsc && i < mt_diag_count(c); i++) {
        const MtDiag *d = mt_diag_at(c, i);
        const MtQueryFix *fix;
        if (!d->code || strcmp(d->code, "I0901"))
            continue;
        if (mt_discover_fix(c, m, dsc, d, sm, &fix) && fix->nedits) {
            const char *t = fix->edits[0].text;
            bool fresh = strstr(t, "# mytriton:") != NULL; /* a new comment, or items for the existing one */
            t += strspn(t, " \t");
            mt_diag_add_note(c, d, d->span,
                             fresh ? "`%.*s` above the kernel compiles it%s%s%s"
                                   : "adding `%.*s` to its `# mytriton:` comment compiles it%s%s%s",
                             (int)strcspn(t, "\n"), t, fix->guess ? " (guessed: " : "", fix->guess ? fix->guess : "",
                             fix->guess ? ", which the file does not show)" : "");
        }
        return;
    }
}

/* ---- compiling ------------------------------------------------------------ */

static void check_kernel(CkReport *r, const CkOptions *o, MtCtx *c, MtKcache *cache, size_t fi, const char *text,
                         size_t len, const Kernel *k)
{
    mt_ctx_reset(c);
    long ri = add_result(r, fi, k->name, k->line);
    MtModule *m = NULL;
    MtStatus st = mt_parse(c, r->files[fi].path, text, len, &m);
    const MtKernelInfo *info = m ? mt_module_find_kernel(m, k->name) : NULL;
    const MtDiscovery *dsc = NULL;
    char *origin = NULL, *spec_sig = st == MT_OK && info ? spec_signature(r->files[fi].path, info, &origin) : NULL;
    if (st == MT_OK) {
        MtDiscoverOptions opt = {.signature = spec_sig, .signature_origin = origin, .given = k->given,
                                 .ngiven = k->ngiven};
        st = mt_discover(c, m, k->name, &opt, &dsc);
        if (st == MT_OK && !dsc->nlaunches) {
            const MtModule **others;
            opt.nothers = package_modules(r, c, fi, k->name, &others);
            opt.others = others;
            if (opt.nothers)
                st = mt_discover(c, m, k->name, &opt, &dsc);
            free(others);
        }
    }
    free(spec_sig);
    free(origin);
    /* The file's parse diagnostics were reported once already, and the
     * other modules' are theirs. */
    size_t first = mt_diag_count(c);
    MtCompiled *kc = NULL;
    if (st == MT_OK) {
        MtSpec spec = dsc->spec;
        spec.last_stage = o->codegen == MT_CODEGEN_MLIR ? MT_STAGE_MLIR_LLVM : MT_STAGE_CUDA;
        spec.sm = o->sm;
        spec.codegen = o->codegen;
        st = mt_compile(c, m, &spec, &kc);
    }
    if (st == MT_OK && o->nvrtc) {
        MtNvrtcOutput nv = {0};
        st = mt_cuda_build(c, kc, cache, o->sm, &nv, NULL);
        mt_nvrtc_output_free(&nv);
    }
    if (st == MT_ERR_NOMEM)
        ck_oom(r);
    MtSpan at = info ? info->name_span : (MtSpan){0};
    suggest_values(c, m, dsc, first, o->sm);
    bool errors = false, needs_value = false;
    for (size_t i = first; i < mt_diag_count(c); i++) {
        const MtDiag *d = mt_diag_at(c, i);
        /* Which parameter types were inferred is for an editor's eyes, not
         * a CI report. */
        if (d->code && !strcmp(d->code, "I0902"))
            continue;
        errors |= d->sev == MT_SEV_ERROR;
        needs_value |= d->code && !strcmp(d->code, "I0901");
        add_finding(r, c, d, fi, ri, at, o->color);
    }
    CkResult *res = &r->results[ri];
    const char *sig = kc ? mt_compiled_signature(c, kc) : NULL;
    res->signature = sig ? ck_strdup(r, sig) : NULL;
    res->status = errors ? CK_FAILED : st == MT_OK ? CK_PASSED : needs_value ? CK_SKIPPED : CK_FAILED;
}

/* The -D values that name a parameter of `info`, above everything but a
 * signature; marks them used. */
static size_t kernel_defines(CkReport *r, const CkOptions *o, const MtKernelInfo *info, bool *used, MtGiven **out)
{
    MtGiven *v = ck_alloc(r, (o->ndefines + 1) * sizeof *v);
    size_t n = 0;
    for (size_t d = 0; d < o->ndefines; d++)
        for (uint32_t p = 0; p < info->nparams; p++)
            if (!strcmp(info->params[p].name, o->defines[d].name)) {
                v[n++] = (MtGiven){o->defines[d].name, o->defines[d].value, "-D", MT_GIVEN_OVERRIDE};
                used[d] = true;
                break;
            }
    *out = v;
    return n;
}

static void check_file(CkReport *r, const CkOptions *o, MtCtx *c, MtKcache *cache, size_t fi, const char *text,
                       size_t len, bool *used)
{
    mt_ctx_reset(c);
    MtModule *m = NULL;
    MtStatus st = mt_parse(c, r->files[fi].path, text, len, &m);
    if (st == MT_ERR_NOMEM)
        ck_oom(r);
    long parse = st == MT_OK ? -1 : add_result(r, fi, NULL, 0);
    for (size_t i = 0; i < mt_diag_count(c); i++) {
        add_finding(r, c, mt_diag_at(c, i), fi, parse, (MtSpan){0}, o->color);
        if (parse >= 0 && !r->results[parse].line)
            r->results[parse].line = r->findings[r->nfindings - 1].loc.line; /* the first error's */
    }
    if (st != MT_OK)
        return;

    size_t n = mt_module_kernel_count(m), nk = 0;
    Kernel *ks = ck_alloc(r, (n + 1) * sizeof *ks);
    for (int all = 0; all < 2 && nk == 0; all++) {
        for (size_t i = 0; i < n; i++) {
            const MtKernelInfo *info = mt_module_kernel(m, i);
            bool seen = false;
            for (size_t j = 0; j < nk; j++)
                seen |= !strcmp(ks[j].name, info->name);
            if (seen || mt_query_returns_value(m, i) || (!all && n > 1 && mt_query_is_helper(m, i)))
                continue;
            ks[nk].name = ck_strdup(r, info->name);
            ks[nk].line = info->name_span.line;
            ks[nk].ngiven = kernel_defines(r, o, info, used, &ks[nk].given);
            nk++;
        }
        if (n == 0)
            break;
    }
    for (size_t i = 0; i < nk; i++) {
        check_kernel(r, o, c, cache, fi, text, len, &ks[i]);
        free(ks[i].name);
        free(ks[i].given);
    }
    free(ks);
}

bool ck_run(CkReport *r, const CkOptions *o)
{
    MtCtx *c = mt_ctx_new(NULL);
    if (!c)
        ck_oom(r);
    MtKcache *cache = o->nvrtc ? mt_kcache_open(NULL) : NULL;
    bool *used = ck_alloc(r, (o->ndefines + 1) * sizeof *used);
    bool ok = true;
    for (size_t fi = 0; fi < r->nfiles && ok; fi++) {
        size_t len;
        char *text = cli_read_file(r->files[fi].path, MT_FILE_SOURCE, &len);
        if (!text) {
            ok = false;
            break;
        }
        check_file(r, o, c, cache, fi, text, len, used);
        free(text);
    }
    for (size_t d = 0; d < o->ndefines && ok; d++)
        if (!used[d])
            cli_warn("-D %s names no parameter of any kernel checked", o->defines[d].name);
    free(used);
    cli_cache_warning(cache);
    mt_kcache_close(cache);
    mt_ctx_free(c);
    return ok;
}
