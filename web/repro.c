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
 *   kernel.ptx        NVRTC's PTX of it, and kernel.cubin for the run's GPU
 *                     (sm_90 for an interpreter run): what the run library loads
 *   launch.c          a standalone C launcher (CUDA Driver API and libc only):
 *                     the template web/repro/launch.c completed with the run's
 *                     facts -- the kernel's name, its runtime parameters in
 *                     order with their dtypes (arrays from inputs/, scalars
 *                     as the bytes the kernel takes), the grid evaluated from
 *                     the spec, the block, the shared memory, the tolerance --
 *                     taken from the compiled kernel and the spec, not from
 *                     the generated CUDA's text
 *   README.md         what ran, and the exact command that runs it again
 *                     and checks its arrays against expected/:
 *                     cd mytriton-runID && mytriton run spec.json --expect expected
 *                     and how to build and run launch.c
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
#include "cuda_build.h"
#include "grid.h"
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
    bool launcher;            /* launch.c is in the archive */
    char no_launcher[640];    /* else why not */
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

/* ---- launch.c: the standalone launcher ------------------------------------------------------- */

extern const WebAsset mt_web_repro_files[];

/* What the grid expressions read: the spec's integer scalars and the
 * kernel's specialised integer values (as mt_launch_bind reads them). */
typedef struct GridNames {
    const MtLaunchSpec *ls;
    MtCompiled *k;
} GridNames;

static int grid_name(void *ud, const char *name, int64_t *value)
{
    const GridNames *g = ud;
    for (size_t i = 0; i < g->ls->nargs; i++) {
        const MtSpecArg *a = &g->ls->args[i];
        if (strcmp(a->name, name))
            continue;
        if (a->kind != MT_SPEC_ARG_SCALAR || a->value.kind == MT_SCALAR_FLOAT)
            return MT_GRID_NOT_INT;
        *value = a->value.i;
        return MT_GRID_FOUND;
    }
    for (size_t i = 0; i < mt_compiled_param_count(g->k); i++) {
        const MtKernelParam *p = mt_compiled_param(g->k, i);
        if (p->type || strcmp(p->name, name))
            continue;
        if (!strcmp(p->value, "True") || !strcmp(p->value, "False")) {
            *value = p->value[0] == 'T';
            return MT_GRID_FOUND;
        }
        char *end;
        long long v = strtoll(p->value, &end, 10);
        if (end == p->value || *end)
            return MT_GRID_NOT_INT;
        *value = v;
        return MT_GRID_FOUND;
    }
    return MT_GRID_UNKNOWN;
}

static const MtSpecArg *spec_arg(const MtLaunchSpec *ls, const char *name)
{
    for (size_t i = 0; i < ls->nargs; i++)
        if (!strcmp(ls->args[i].name, name))
            return &ls->args[i];
    return NULL;
}

/* A scalar as the kernel's parameter of dtype dt takes it: its bytes,
 * little-endian, in a uint64_t. */
static uint64_t scalar_bits(MtDtype dt, const MtScalar *v)
{
    const MtDtypeInfo *d = mt_dtype_info(dt);
    if (d->cls == MT_DC_BOOL)
        return v->kind == MT_SCALAR_FLOAT ? v->f != 0 : v->i != 0;
    unsigned char b[8] = {0};
    if (d->cls == MT_DC_FLOAT) {
        mt_dtype_set(dt, b, 0, v->f);
    } else {
        uint64_t u = (uint64_t)(v->kind == MT_SCALAR_FLOAT ? (int64_t)v->f : v->i);
        for (unsigned i = 0; i < d->size; i++)
            b[i] = (unsigned char)(u >> (8 * i));
    }
    uint64_t bits = 0;
    for (unsigned i = 0; i < 8; i++)
        bits |= (uint64_t)b[i] << (8 * i);
    return bits;
}

static double number_at(const cJSON *o, const char *a, const char *b, double dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, a), b);
    return cJSON_IsNumber(v) ? v->valuedouble : dflt;
}

/* launch.c for the compiled kernel k (built for sm_<sm>): the template
 * with the run's facts in place of its marker; NULL with why. */
static char *launcher(Repro *p, MtCompiled *k, int sm, char *why, size_t whylen)
{
    const WebAsset *tpl = NULL;
    for (const WebAsset *a = mt_web_repro_files; a->path && !tpl; a++)
        if (!strcmp(a->path, "launch.c"))
            tpl = a;
    const char *mark = tpl ? strstr((const char *)tpl->data, "/*@RUN@*/") : NULL;
    MtLaunchShape shape;
    if (!mark || !mt_compiled_launch_shape(k, &shape)) {
        snprintf(why, whylen, "%s", mark ? "the kernel has no CUDA launch shape" : "the launcher template is missing");
        return NULL;
    }
    /* The program grid, as the run evaluated it. */
    int64_t programs[3] = {1, 1, 1};
    GridNames names = {&p->ls, k};
    for (int d = 0; d < p->ls.grid_dims; d++) {
        char msg[512];
        if (mt_grid_eval(p->ls.grid[d], grid_name, &names, &programs[d], msg, sizeof msg) != MT_OK ||
            programs[d] < 1 || programs[d] > (d ? 65535 : INT32_MAX)) {
            snprintf(why, whylen, "its grid[%d] (%s) does not evaluate to a launchable size: %s", d, p->ls.grid[d],
                     programs[d] < 1 ? "not a positive number" : msg);
            return NULL;
        }
    }
    unsigned ppb = shape.programs_per_block ? shape.programs_per_block : 1;
    uint64_t blocks = ((uint64_t)programs[0] + ppb - 1) / ppb;
    const cJSON *result = cJSON_GetObjectItemCaseSensitive(p->run, "result");
    double rtol = number_at(result, "tolerance", "rtol", p->ls.has_tolerance ? p->ls.rtol : 1e-5);
    double atol = number_at(result, "tolerance", "atol", p->ls.has_tolerance ? p->ls.atol : 1e-6);

    /* The runtime parameters in the kernel's order, and their dtypes. */
    MtDtype used[MT_DTYPE_COUNT];
    size_t nused = 0, nargs = 0;
    char *args_text = NULL, *out = NULL;
    size_t args_len = 0, out_len = 0;
    FILE *a = open_memstream(&args_text, &args_len);
    if (!a) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    bool ok = true;
    for (size_t i = 0; i < mt_compiled_param_count(k) && ok; i++) {
        const MtKernelParam *kp = mt_compiled_param(k, i);
        if (!kp->type)
            continue;
        bool ptr = kp->type[0] == '*';
        MtDtype dt;
        const MtSpecArg *sa = spec_arg(&p->ls, kp->name);
        if (!mt_dtype_parse(kp->type + ptr, &dt)) {
            snprintf(why, whylen, "parameter %s has type %s, which the launcher cannot pass", kp->name, kp->type);
            ok = false;
        } else if (!sa || ptr != (sa->kind != MT_SPEC_ARG_SCALAR)) {
            snprintf(why, whylen, "the spec gives parameter %s (%s) %s", kp->name, kp->type,
                     !sa ? "no argument" : ptr ? "a scalar" : "an array");
            ok = false;
        }
        if (!ok)
            break;
        size_t idx = 0;
        while (idx < nused && used[idx] != dt)
            idx++;
        if (idx == nused)
            used[nused++] = dt;
        if (ptr) {
            fprintf(a, "    {\"%s\", %zu, 1, 0}, /* %s %s: inputs/%s.npy */\n", kp->name, idx, kp->type, kp->name,
                    kp->name);
        } else {
            char value[48];
            if (sa->value.kind == MT_SCALAR_FLOAT)
                mt_format_float(value, sa->value.f, false);
            else if (sa->value.kind == MT_SCALAR_BOOL)
                snprintf(value, sizeof value, "%s", sa->value.i ? "True" : "False");
            else
                snprintf(value, sizeof value, "%lld", (long long)sa->value.i);
            fprintf(a, "    {\"%s\", %zu, 0, 0x%llxull}, /* %s %s = %s */\n", kp->name, idx,
                    (unsigned long long)scalar_bits(dt, &sa->value), kp->type, kp->name, value);
        }
        nargs++;
    }
    if (fclose(a) || !args_text)
        ok = false, snprintf(why, whylen, "out of memory");
    if (!ok) {
        free(args_text);
        return NULL;
    }
    FILE *f = open_memstream(&out, &out_len);
    if (!f) {
        free(args_text);
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    const cJSON *req = cJSON_GetObjectItemCaseSensitive(p->run, "request");
    const char *lowering = text_of(req, "lowering");
    fwrite(tpl->data, 1, (size_t)(mark - (const char *)tpl->data), f);
    fprintf(f, "/* Run %lld of the mytriton dashboard: %s from %s, signature %s, backend %s, %s lowering. */\n",
            (long long)p->id, text_of(p->run, "kernel"), text_of(p->run, "path"), text_of(p->run, "signature"),
            text_of(p->run, "backend"), *lowering ? lowering : "fast");
    fprintf(f, "static const char kernel_name[] = \"%s\";\n", mt_compiled_kernel_name(k));
    fprintf(f, "static const int kernel_sm = %d;        /* kernel.cubin's architecture (sm_%d); kernel.ptx "
               "serves any other */\n", sm, sm);
    fprintf(f, "static const long long programs[3] = {%lld, %lld, %lld}; /* the run's grid of program instances */\n",
            (long long)programs[0], (long long)programs[1], (long long)programs[2]);
    fprintf(f, "static const unsigned grid[3] = {%llu, %lld, %lld};  /* CUDA blocks: %u program%s per block along x */\n",
            (unsigned long long)blocks, (long long)programs[1], (long long)programs[2], ppb, ppb == 1 ? "" : "s");
    fprintf(f, "static const unsigned block[3] = {%u, 1, 1};  /* CUDA threads per block */\n", shape.threads);
    if (shape.dynamic_shared_bytes)
        fprintf(f, "static const unsigned dynamic_shared_bytes = %llu; /* the kernel's shared pool, declared extern: "
                   "over the 48 KiB a block may declare statically */\n", (unsigned long long)shape.dynamic_shared_bytes);
    else
        fprintf(f, "static const unsigned dynamic_shared_bytes = 0; /* the kernel's own __shared__ arrays: %llu bytes, "
                   "static */\n", (unsigned long long)shape.shared_bytes);
    fprintf(f, "static const int grid_params = %d;  /* 1: the kernel takes the program grid as three trailing "
               "ints */\n", shape.grid_params ? 1 : 0);
    char r[32], t[32];
    fprintf(f, "static const double run_rtol = %s, run_atol = %s; /* the run's tolerance */\n",
            mt_format_float(r, rtol, false), mt_format_float(t, atol, false));
    fprintf(f, "static const Dtype dtypes[] = {\n");
    for (size_t i = 0; i < nused; i++) {
        const MtDtypeInfo *d = mt_dtype_info(used[i]);
        char kind = used[i] == MT_DT_BF16 ? 'B' : d->cls == MT_DC_BOOL ? 'b' : d->cls == MT_DC_SINT ? 'i'
                    : d->cls == MT_DC_UINT ? 'u' : 'f';
        fprintf(f, "    {\"%s\", \"%s\", %u, '%c'},\n", mt_dtype_name(used[i]), d->npy ? d->npy + 1 : "f4",
                (unsigned)d->size, kind);
    }
    if (!nused)
        fprintf(f, "    {\"float32\", \"f4\", 4, 'f'}, /* unused: the kernel has no runtime parameter */\n");
    fprintf(f, "};\n#define NARGS %zu\nstatic const Arg args[] = {\n%s", nargs, args_text);
    if (!nargs)
        fprintf(f, "    {\"\", 0, 0, 0}, /* unused: the kernel has no runtime parameter */\n");
    fprintf(f, "};\n");
    fputs(mark + strlen("/*@RUN@*/"), f);
    free(args_text);
    if (fclose(f) || !out) {
        free(out);
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    return out;
}

/* The architecture to build for: the GPU's the run ran on, else sm_90. */
static int run_sm(const Repro *p)
{
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(p->run, "result"), "device");
    const char *cc = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(dev, "compute_capability"));
    int major, minor;
    if (!strcmp(text_of(p->run, "backend"), "cuda") && cc && sscanf(cc, "%d.%d", &major, &minor) == 2 &&
        major * 10 + minor >= 50 && major * 10 + minor < 200)
        return major * 10 + minor;
    return 90;
}

/* kernel.cu, kernel.ptx, kernel.cubin and launch.c, when the kernel
 * compiles to CUDA with the run's signature (and NVRTC takes it). */
static void compiled_files(Repro *p, const char *source, const cJSON *req)
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
    int sm = run_sm(p);
    char name[128], why[600] = "";
    if (mt_parse(c, "kernel.py", source, strlen(source), &m) == MT_OK) {
        mt_web_compile_begin(p->r->s, c);
        MtStatus st = mt_compile(c, m, &spec, &k);
        const char *cu = st == MT_OK ? mt_compiled_text(c, k, MT_STAGE_CUDA) : NULL;
        MtNvrtcOutput nv = {0};
        if (cu) {
            snprintf(name, sizeof name, "%s/kernel.cu", p->top);
            mt_web_tar_bytes(&p->tar, name, cu, strlen(cu));
            say(p, "- `kernel.cu`: the CUDA C++ mytriton generates for it (%s lowering)\n",
                mt_lowering_name(spec.lowering ? (MtLowering)spec.lowering : MT_LOWERING_FAST));
            st = mt_cuda_build(c, k, p->r->s->kcache, sm, &nv, NULL);
            if (st != MT_OK || !nv.ptx)
                snprintf(why, sizeof why, "NVRTC did not compile kernel.cu for sm_%d%s%s", sm,
                         mt_error_count(c) ? ": " : "", mt_error_count(c) ? mt_diag_render(c, mt_diag_at(c, 0), false) : "");
        } else {
            snprintf(why, sizeof why, "the kernel does not compile to CUDA with the run's signature");
        }
        mt_web_compile_end(p->r->s, c);
        char *text = !why[0] ? launcher(p, k, sm, why, sizeof why) : NULL;
        if (text) {
            snprintf(name, sizeof name, "%s/kernel.ptx", p->top);
            mt_web_tar_bytes(&p->tar, name, nv.ptx, nv.ptx_len);
            say(p, "- `kernel.ptx`: NVRTC's PTX of `kernel.cu`, which the driver compiles for any GPU%s\n",
                nv.cubin_len ? "" : " (what `launch.c` loads)");
            if (nv.cubin_len) {
                snprintf(name, sizeof name, "%s/kernel.cubin", p->top);
                mt_web_tar_bytes(&p->tar, name, nv.cubin, nv.cubin_len);
                say(p, "- `kernel.cubin`: the same for sm_%d, what the run library loads (and `launch.c` on such a "
                       "GPU)\n", sm);
            }
            snprintf(name, sizeof name, "%s/launch.c", p->top);
            mt_web_tar_bytes(&p->tar, name, text, strlen(text));
            say(p, "- `launch.c`: a standalone C launcher (the CUDA Driver API and libc only) that runs the kernel "
                   "with the run's inputs, grid and arguments and compares the arrays with `expected/`\n");
            free(text);
            p->launcher = true;
        } else if (why[0]) {
            snprintf(p->no_launcher, sizeof p->no_launcher, "%s", why);
        }
        mt_nvrtc_output_free(&nv);
    } else {
        snprintf(p->no_launcher, sizeof p->no_launcher, "kernel.py does not parse");
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
    compiled_files(p, source, cJSON_GetObjectItemCaseSensitive(p->run, "request"));
    char cmd[512];
    command(p, cmd, sizeof cmd, nexpected > 0);
    say(p, "\n## Run it again\n\n```sh\ncd %s\n%s\n```\n\n", p->top, cmd);
    say(p, "%s",
        nexpected ? "`--expect expected` compares every array with its file in `expected/` (the spec's tolerance, "
                    "else rtol 1e-5, atol 1e-6) and exits 1 on a mismatch. "
                  : "The run left no arrays to compare with. ");
    say(p, "`mytriton run --help` lists the options (`--backend interp` runs it on the CPU interpreter, "
           "`--dump DIR` writes the arrays after the run).\n");
    if (p->launcher)
        say(p, "\n## Without mytriton: `launch.c`\n\n"
               "`launch.c` needs only a C compiler, the CUDA headers, the NVIDIA driver and a GPU. It loads "
               "`kernel.cubin` on a GPU of its architecture, else `kernel.ptx`; reads `inputs/`; launches the kernel "
               "as the run did; writes every array to `outputs/`; and compares each with `expected/` (the run's "
               "tolerance). It prints one line and exits 0 when every array matches, 1 when one differs, 2 on an "
               "error (no driver or GPU, a CUDA call that fails, a file it cannot read: each named).\n\n"
               "```sh\ncd %s\ncc launch.c -I/usr/local/cuda/include -lcuda -o launch\n./launch\n```\n\n"
               "`./launch --device 1` runs on another GPU. Where the driver's `libcuda.so` is not on the linker's "
               "path, add `-L/usr/local/cuda/lib64/stubs` (the toolkit's stub, for linking only: the program loads "
               "the driver's `libcuda.so.1` when it runs).\n",
            p->top);
    else
        say(p, "\nNo standalone launcher (`launch.c`): %s.\n", p->no_launcher[0] ? p->no_launcher : "unknown");
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
