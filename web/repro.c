/* repro.c: GET /api/runs/{id}/repro -- one archive that reproduces a run
 * anywhere `mytriton` is installed, without the dashboard.
 *
 * mytriton-runID.tar (POSIX ustar, tar.c) holds, under mytriton-runID/:
 *   kernel.py         the source that ran
 *   spec.json         its launch spec with every input as a file:
 *                     {"npy": "inputs/NAME.npy"}
 *   inputs/NAME.npy   the inputs: uploads as they were, generated arrays
 *                     made here by the run library's own generator (the
 *                     same bytes the worker made from the same recipe)
 *   expected/NAME.npy every array as the run left it (the worker's dump)
 *   kernel.cu         the CUDA C++ the compiler generates for it
 *   README.md         what ran, and the exact command that runs it again
 *                     and checks its arrays against expected/:
 *                     cd mytriton-runID && mytriton run spec.json --expect expected
 * The archive is made in DATA/tmp and streamed from an unlinked file. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api.h"
#include "history.h"
#include "launch_spec.h"
#include "npy.h"
#include "runs.h"
#include "tar.h"

/* Generated inputs are made in memory, one at a time; their total is capped. */
#define REPRO_MAX_GENERATED ((size_t)4 << 30)

typedef struct Repro {
    WebReq *r;
    int64_t id;
    char dir[PATH_MAX];       /* the run's folder */
    char tmp[PATH_MAX];       /* DATA/tmp/repro-XXXXXX */
    char top[64];             /* the archive's folder */
    WebTar tar;
    cJSON *run;               /* the history's record */
    cJSON *spec;              /* spec.json, rewritten as it goes */
    MtLaunchSpec ls;
    char *readme;             /* grows */
    size_t readme_len;
} Repro;

static void say(Repro *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Repro *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *line = NULL;
    int n = vasprintf(&line, fmt, ap);
    va_end(ap);
    char *grown = n >= 0 ? realloc(p->readme, p->readme_len + (size_t)n + 1) : NULL;
    if (grown) {
        memcpy(grown + p->readme_len, line, (size_t)n + 1);
        p->readme = grown;
        p->readme_len += (size_t)n;
    }
    free(line);
}

static bool add(Repro *p, const char *rel, const char *path)
{
    char name[512];
    snprintf(name, sizeof name, "%s/%s", p->top, rel);
    return mt_web_tar_file(&p->tar, name, path);
}

static const char *text_of(const cJSON *o, const char *key)
{
    const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
    return v ? v : "";
}

/* A positive whole-number field (num_warps, num_stages, profile), else 0. */
static int count_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) && v->valueint > 0 ? v->valueint : 0;
}

/* inputs/: every array argument as a file; the spec names the files. */
static bool inputs(Repro *p)
{
    cJSON *args = cJSON_GetObjectItemCaseSensitive(p->spec, "args");
    size_t generated = 0;
    for (size_t i = 0; i < p->ls.nargs; i++) {
        const MtSpecArg *a = &p->ls.args[i];
        if (a->kind == MT_SPEC_ARG_SCALAR)
            continue;
        char rel[300], path[PATH_MAX + 300], err[512];
        snprintf(rel, sizeof rel, "inputs/%s.npy", a->name);
        if (a->kind == MT_SPEC_ARG_NPY) {
            say(p, "- `%s`: `%s` (uploaded)\n", a->name, rel);
            if (!add(p, rel, a->npy_path))
                return false;
        } else {
            int64_t numel;
            size_t nbytes;
            if (!mt_array_size(a->gen.dtype, a->gen.ndim, a->gen.shape, &numel, &nbytes) ||
                (generated += nbytes) > REPRO_MAX_GENERATED) {
                mt_web_reply_error(p->r, 413, "too_large", NULL,
                                   "the run's generated inputs hold more than %zu GiB: too many to archive",
                                   REPRO_MAX_GENERATED >> 30);
                return false;
            }
            char *recipe = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(args, a->name));
            say(p, "- `%s`: `%s`, generated from `%s`\n", a->name, rel, recipe ? recipe : "?");
            free(recipe);
            MtArray *arr = NULL;
            snprintf(path, sizeof path, "%s/%s.npy", p->tmp, a->name);
            if (mt_array_generate(&a->gen, &arr, err, sizeof err) != MT_OK ||
                mt_npy_write(path, arr, NULL, err, sizeof err) != MT_OK) {
                mt_array_free(arr);
                mt_web_reply_error(p->r, 500, "internal", NULL, "cannot make the input %s: %s", a->name, err);
                return false;
            }
            mt_array_free(arr);
            bool ok = add(p, rel, path);
            unlink(path);
            if (!ok)
                return false;
        }
        cJSON *npy = cJSON_CreateObject();
        cJSON_AddStringToObject(npy, "npy", rel);
        cJSON_ReplaceItemInObjectCaseSensitive(args, a->name, npy);
    }
    return true;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* expected/: the arrays as the run left them; how many. */
static int expected(Repro *p)
{
    char dir[PATH_MAX + 16];
    snprintf(dir, sizeof dir, "%s/outputs", p->dir);
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    char *names[256];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && len < 200 && !strcmp(e->d_name + len - 4, ".npy") && e->d_name[0] != '.')
            if ((names[n] = strdup(e->d_name)))
                n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        char rel[256], path[PATH_MAX * 2];
        snprintf(rel, sizeof rel, "expected/%s", names[i]);
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        add(p, rel, path);
        free(names[i]);
    }
    return (int)n;
}

/* kernel.cu, when the kernel compiles to CUDA with the run's signature
 * and the lowering options of its request. */
static void cuda_source(Repro *p, const char *source, const cJSON *req)
{
    const char *lowering = text_of(req, "lowering");
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    MtCompiled *k = NULL;
    if (!c)
        return;
    MtSpec spec = {.kernel = text_of(p->run, "kernel"),
                   .signature = text_of(p->run, "signature"),
                   .last_stage = MT_STAGE_CUDA,
                   .lowering = *lowering ? mt_lowering_from_name(lowering) : 0,
                   .num_warps = count_of(req, "num_warps"),
                   .num_stages = count_of(req, "num_stages")};
    if (mt_parse(c, "kernel.py", source, strlen(source), &m) == MT_OK) {
        mt_web_compile_begin(p->r->s, c);
        MtStatus st = mt_compile(c, m, &spec, &k);
        mt_web_compile_end(p->r->s, c);
        const char *cu = st == MT_OK ? mt_compiled_text(c, k, MT_STAGE_CUDA) : NULL;
        if (cu) {
            char name[128];
            snprintf(name, sizeof name, "%s/kernel.cu", p->top);
            mt_web_tar_bytes(&p->tar, name, cu, strlen(cu));
            say(p, "- `kernel.cu`: the CUDA C++ mytriton generates for it (%s lowering)\n",
                mt_lowering_name(spec.lowering ? (MtLowering)spec.lowering : MT_LOWERING_FAST));
        }
    }
    mt_ctx_free(c);
}

/* The command that runs it again, as the run was asked for. */
static void command(Repro *p, char *out, size_t len, bool expect)
{
    const cJSON *req = cJSON_GetObjectItemCaseSensitive(p->run, "request");
    const char *backend = text_of(p->run, "backend");
    const char *lowering = text_of(req, "lowering");
    int warps = count_of(req, "num_warps"), stages = count_of(req, "num_stages"), profile = count_of(p->run, "profile");
    const cJSON *compare = cJSON_GetObjectItemCaseSensitive(p->run, "compare");
    size_t at = (size_t)snprintf(out, len, "mytriton run spec.json");
    if (!strcmp(backend, "cuda")) {
        at += (size_t)snprintf(out + at, len - at, " --backend cuda");
        if (*lowering)
            at += (size_t)snprintf(out + at, len - at, " --lowering %s", lowering);
        if (warps)
            at += (size_t)snprintf(out + at, len - at, " --num-warps %d", warps);
        if (stages)
            at += (size_t)snprintf(out + at, len - at, " --num-stages %d", stages);
        if (cJSON_IsTrue(compare))
            at += (size_t)snprintf(out + at, len - at, " --compare interp");
        if (profile)
            at += (size_t)snprintf(out + at, len - at, " --profile %d", profile);
    }
    if (expect)
        snprintf(out + at, len - at, " --expect expected");
}

static bool build(Repro *p, int fd)
{
    char path[PATH_MAX + 32], err[512];
    size_t len;
    snprintf(path, sizeof path, "%s/spec.json", p->dir);
    char *text = mt_web_read_file(path, 16 << 20, &len, err, sizeof err);
    MtSpecError se;
    if (!text || !(p->spec = cJSON_Parse(text)) || mt_launch_spec_parse(text, p->dir, &p->ls, &se) != MT_OK) {
        mt_web_reply_error(p->r, 500, "storage", NULL, "run %lld's spec cannot be read back: %s", (long long)p->id,
                           text ? se.text : err);
        free(text);
        return false;
    }
    free(text);
    const char *source = text_of(p->run, "source");
    mt_web_tar_begin(&p->tar, fd);
    say(p, "# mytriton run %lld: %s\n\n", (long long)p->id, text_of(p->run, "kernel"));
    say(p, "Exported by the mytriton dashboard. The run: `%s` from `%s`, signature `%s`, backend %s%s%s, "
           "status **%s**%s%s, created %s.\n\n",
        text_of(p->run, "kernel"), text_of(p->run, "path"), text_of(p->run, "signature"), text_of(p->run, "backend"),
        *text_of(p->run, "device") ? " on " : "", text_of(p->run, "device"), text_of(p->run, "status"),
        *text_of(p->run, "error") ? ": " : "", text_of(p->run, "error"), text_of(p->run, "created"));
    say(p, "## Files\n\n- `kernel.py`: the kernel's source as it ran\n"
           "- `spec.json`: the launch spec (docs/launch-spec.md), every input a file\n");
    char name[128];
    snprintf(name, sizeof name, "%s/kernel.py", p->top);
    mt_web_tar_bytes(&p->tar, name, source, strlen(source));
    if (!inputs(p))
        return false;
    int nexpected = expected(p);
    if (nexpected)
        say(p, "- `expected/`: the %d arrays as the run left them\n", nexpected);
    cuda_source(p, source, cJSON_GetObjectItemCaseSensitive(p->run, "request"));
    char cmd[512];
    command(p, cmd, sizeof cmd, nexpected > 0);
    say(p, "\n## Run it again\n\n```sh\ncd %s\n%s\n```\n\n", p->top, cmd);
    say(p, "%s",
        nexpected ? "`--expect expected` compares every array with its file in `expected/` (the spec's tolerance, "
                    "else rtol 1e-5, atol 1e-6) and exits 1 on a mismatch. "
                  : "The run left no arrays to compare with. ");
    say(p, "`mytriton run --help` lists the options (`--backend interp` runs it on the CPU interpreter, "
           "`--dump DIR` writes the arrays after the run).\n");
    char *spec_text = cJSON_Print(p->spec);
    snprintf(name, sizeof name, "%s/spec.json", p->top);
    if (spec_text)
        mt_web_tar_bytes(&p->tar, name, spec_text, strlen(spec_text));
    free(spec_text);
    snprintf(name, sizeof name, "%s/README.md", p->top);
    if (p->readme)
        mt_web_tar_bytes(&p->tar, name, p->readme, p->readme_len);
    if (!spec_text || !p->readme || !mt_web_tar_end(&p->tar)) {
        mt_web_reply_error(p->r, 500, "storage", NULL, "cannot write the archive: %s",
                           p->tar.failed ? p->tar.err : "out of memory");
        return false;
    }
    return true;
}

void mt_web_api_run_repro(WebReq *r)
{
    char *end;
    long long id = strtoll(r->params[0], &end, 10);
    if (*end || id <= 0) {
        mt_web_reply_error(r, 404, "not_found", NULL, "no run %s", r->params[0]);
        return;
    }
    Repro p = {.r = r, .id = id};
    p.run = mt_web_history_get(r->s->history, id, true);
    const char *status = text_of(p.run, "status");
    char err[512], tarpath[PATH_MAX + 16];
    int fd = -1;
    if (!p.run) {
        mt_web_reply_error(r, 404, "not_found", NULL, "no run %lld", id);
        goto done;
    }
    if (!strcmp(status, "queued") || !strcmp(status, "running")) {
        mt_web_reply_error(r, 409, "busy", NULL, "run %lld has not finished yet", id);
        goto done;
    }
    mt_web_run_dir(r->s, id, p.dir);
    snprintf(p.top, sizeof p.top, "mytriton-run%lld", id);
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s/tmp", r->s->data_dir);
    if (!mt_web_mkdirs(parent, err, sizeof err)) {
        mt_web_reply_error(r, 500, "storage", NULL, "%s", err);
        goto done;
    }
    snprintf(p.tmp, sizeof p.tmp, "%s/tmp/repro-XXXXXX", r->s->data_dir);
    if (!mkdtemp(p.tmp)) {
        p.tmp[0] = 0;
        mt_web_reply_error(r, 500, "storage", NULL, "cannot make a temporary folder: %s", strerror(errno));
        goto done;
    }
    snprintf(tarpath, sizeof tarpath, "%s/archive.tar", p.tmp);
    fd = open(tarpath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        mt_web_reply_error(r, 500, "storage", NULL, "cannot make the archive: %s", strerror(errno));
        goto done;
    }
    unlink(tarpath);
    if (!build(&p, fd))
        goto done;
    off_t len = lseek(fd, 0, SEEK_CUR);
    lseek(fd, 0, SEEK_SET);
    char file[96];
    snprintf(file, sizeof file, "%s.tar", p.top);
    mt_web_reply_file(r, fd, (size_t)len, "application/x-tar", file);
    fd = -1;
done:
    if (fd >= 0)
        close(fd);
    if (p.tmp[0])
        rmdir(p.tmp);
    mt_launch_spec_free(&p.ls);
    cJSON_Delete(p.spec);
    cJSON_Delete(p.run);
    free(p.readme);
}
