/* cmd_run.c: `mytriton run` -- run one launch described by a launch spec.
 *
 *   mytriton run SPEC.json [--backend interp|cuda] [--dump DIR] [--expect DIR]
 *                [--rtol R] [--atol A] [--set NAME=VALUE]... [--threads N]
 *                [--compare interp] [--profile N]
 *
 * The spec (runtime/launch_spec.h, docs/launch-spec.md) names the kernel
 * source, the kernel, its specialisation, the grid and the arguments. A
 * run loads it, applies --set, parses the source, derives the signature
 * when the spec has none, compiles through SSA, binds the arguments
 * (loading or generating the arrays, evaluating the grid) and runs the
 * kernel in the CPU interpreter, or on the GPU (NVRTC cubin from the
 * cache, Driver API launch; --compare interp also runs the interpreter on
 * a copy of the inputs and reports the difference per array; --profile N
 * times N launches with CUPTI). Then, in this order: --dump writes every
 * array argument to DIR/NAME.npy, --expect compares every array that has a
 * DIR/NAME.npy, and a short summary goes to stdout.
 *
 * Nothing is written unless the run succeeded, and --dump never replaces
 * an input of the run (the spec, the source, an `npy` argument, a
 * reference of --expect; --dump and --expect naming one folder is
 * refused). Exit status (cli.h): 0 success; 1 a wrong spec, a compile
 * error, a runtime fault, a mismatch; 2 bad options, an unreadable input,
 * an unwritable output, no CUDA device.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "compare.h"
#include "cuda_run.h"
#include "launch_spec.h"

static const char help[] =
    "usage: mytriton run SPEC.json [options]\n"
    "\n"
    "Run the launch a spec describes (docs/launch-spec.md) and summarise its arrays.\n"
    "\n"
    "  -b, --backend NAME    interp (default: the CPU interpreter) or cuda\n"
    "  -t, --threads N       interpreter threads; 0 (default): up to one per core, fewer for small launches\n"
    "      --compare interp  with --backend cuda: also run the interpreter on the same inputs and report\n"
    "                        the difference per array (exit 1 beyond the tolerance)\n"
    "      --profile N       with --backend cuda: time N launches (CUPTI, else CUDA events) after warm-up\n"
    "      --lowering L      with --backend cuda: seed (default) or fast\n"
    "      --codegen G       with --backend cuda: cuda (CUDA C++ and NVRTC, default) or mlir (MLIR's GPU\n"
    "                        pipeline; implies --lowering fast)\n"
    "      --ptx FILE        with --codegen mlir: run this PTX, made earlier by `mytriton compile SPEC.json\n"
    "                        --codegen mlir --emit ptx -o FILE` (on a machine without MLIR)\n"
    "      --num-warps N     warps per program for the fast lowering\n"
    "      --set NAME=VALUE  override a scalar argument or a constexpr; repeatable\n"
    "      --dump DIR        write every array argument after the run to DIR/NAME.npy\n"
    "      --expect DIR      compare every array that has DIR/NAME.npy; exit 1 on a mismatch\n"
    "      --rtol R          relative tolerance for --expect (default: the spec's, else 1e-5)\n"
    "      --atol A          absolute tolerance for --expect (default: the spec's, else 1e-6)\n"
    "      --color WHEN      colour diagnostics: auto (default), always, never\n"
    "  -h, --help            this help\n"
    "\n"
    "An element matches when |got - want| <= atol + rtol * |want| (NaN matches NaN).\n"
    "Exit status: 0 success, 1 spec/compile/runtime error or mismatch, 2 bad options, an\n"
    "unreadable input, an unwritable output or no CUDA device.\n";

typedef struct Options {
    const char *spec;
    const char *backend;
    const char *dump, *expect;
    const char *color;
    char **sets;
    int nsets;
    int threads;
    bool compare;             /* --compare interp */
    int profile;              /* --profile N */
    int lowering;             /* --lowering (MtLowering) */
    int num_warps;            /* --num-warps */
    int codegen;              /* --codegen (MtCodegen) */
    const char *ptx;          /* --ptx FILE */
    bool has_rtol, has_atol;
    double rtol, atol;
} Options;

static bool parse_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return *s && !*end && !errno && *out >= 0;
}

/* 0 to continue, else the exit status. */
static int parse_options(int argc, char **argv, Options *o)
{
    enum { OPT_SET = 256, OPT_DUMP, OPT_EXPECT, OPT_RTOL, OPT_ATOL, OPT_COLOR, OPT_COMPARE, OPT_PROFILE, OPT_LOWERING,
           OPT_WARPS, OPT_CODEGEN, OPT_PTX };
    static const struct option opts[] = {
        {"backend", required_argument, 0, 'b'}, {"threads", required_argument, 0, 't'},
        {"set", required_argument, 0, OPT_SET},  {"dump", required_argument, 0, OPT_DUMP},
        {"expect", required_argument, 0, OPT_EXPECT}, {"rtol", required_argument, 0, OPT_RTOL},
        {"atol", required_argument, 0, OPT_ATOL}, {"color", required_argument, 0, OPT_COLOR},
        {"compare", required_argument, 0, OPT_COMPARE}, {"profile", required_argument, 0, OPT_PROFILE},
        {"lowering", required_argument, 0, OPT_LOWERING}, {"num-warps", required_argument, 0, OPT_WARPS},
        {"codegen", required_argument, 0, OPT_CODEGEN}, {"ptx", required_argument, 0, OPT_PTX},
        {"help", no_argument, 0, 'h'},           {0, 0, 0, 0},
    };
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, ":b:t:h", opts, NULL)) != -1) {
        switch (ch) {
        case 'b':
            if (strcmp(optarg, "interp") && strcmp(optarg, "cuda")) {
                cli_error("unknown backend '%s' (backends: interp, cuda)", optarg);
                return EXIT_TROUBLE;
            }
            o->backend = optarg;
            break;
        case 't': {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (!*optarg || *end || n < 0 || n > 4096) {
                cli_error("--threads expects a number from 0 to 4096, got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            o->threads = (int)n;
            break;
        }
        case OPT_SET: o->sets[o->nsets++] = optarg; break;
        case OPT_DUMP: o->dump = optarg; break;
        case OPT_EXPECT: o->expect = optarg; break;
        case OPT_RTOL:
        case OPT_ATOL: {
            double v;
            if (!parse_number(optarg, &v)) {
                cli_error("--%s expects a non-negative number, got '%s'", ch == OPT_RTOL ? "rtol" : "atol", optarg);
                return EXIT_TROUBLE;
            }
            if (ch == OPT_RTOL)
                o->rtol = v, o->has_rtol = true;
            else
                o->atol = v, o->has_atol = true;
            break;
        }
        case OPT_COLOR: o->color = optarg; break;
        case OPT_COMPARE:
            if (strcmp(optarg, "interp")) {
                cli_error("--compare takes 'interp', got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            o->compare = true;
            break;
        case OPT_LOWERING:
            if ((o->lowering = mt_lowering_from_name(optarg)) < 0) {
                cli_error("--lowering must be seed or fast, got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            break;
        case OPT_CODEGEN:
            if ((o->codegen = mt_codegen_from_name(optarg)) < 0) {
                cli_error("--codegen must be cuda or mlir, got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            break;
        case OPT_PTX: o->ptx = optarg; break;
        case OPT_WARPS:
            if (sscanf(optarg, "%d", &o->num_warps) != 1 || o->num_warps < 1 || o->num_warps > 32 ||
                (o->num_warps & (o->num_warps - 1))) {
                cli_error("--num-warps takes a power of two from 1 to 32, got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            break;
        case OPT_PROFILE: {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (!*optarg || *end || n < 1 || n > 100000) {
                cli_error("--profile expects a number of launches from 1 to 100000, got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            o->profile = (int)n;
            break;
        }
        case 'h': fputs(help, stdout); return -1;
        default: return cli_option_error(ch, argv, help);
        }
    }
    if (optind != argc - 1) {
        cli_error("expected one SPEC.json");
        fprintf(stderr, "\n%s", help);
        return EXIT_TROUBLE;
    }
    o->spec = argv[optind];
    if ((o->compare || o->profile || o->codegen || o->ptx) && strcmp(o->backend, "cuda")) {
        cli_error("--compare, --profile, --codegen and --ptx need --backend cuda");
        return EXIT_TROUBLE;
    }
    if (o->ptx && o->codegen != MT_CODEGEN_MLIR) {
        cli_error("--ptx runs PTX made by the MLIR code generator: add --codegen mlir");
        return EXIT_TROUBLE;
    }
    if (o->dump && o->expect && mt_same_file(o->dump, o->expect)) {
        cli_error("--dump %s and --expect %s are the same folder: the dump would replace the reference arrays it "
                  "is compared with; dump to another folder", o->dump, o->expect);
        return EXIT_TROUBLE;
    }
    return 0;
}

/* ---- compiling the spec's kernel ---------------------------------------------------- */

typedef struct Run {
    const Options *o;
    MtLaunchSpec spec;
    MtCtx *c;
    char *text;               /* the kernel source */
    size_t len;
    MtModule *m;
    const MtKernelInfo *kinfo;
    char *signature;
    MtCompiled *k;
    MtLaunch launch;
    MtKernelArg *args;
    bool color;
    MtFileSet inputs;         /* what --dump must not replace */
    char *ptx;                /* --ptx FILE's text */
    bool has_layout;          /* the kernel has a CUDA layout: */
    MtQueryKernel layout;
} Run;

/* "a, b, c": the file's kernels (jit functions that no other one calls),
 * or all of its jit functions; returns how many were listed. */
static size_t kernel_names(const MtModule *m, bool helpers_too, char *buf, size_t n, const MtKernelInfo **last)
{
    size_t at = 0, count = 0;
    buf[0] = 0;
    for (size_t i = 0; i < mt_module_kernel_count(m); i++) {
        if (!helpers_too && mt_query_is_helper(m, i))
            continue;
        if (at < n)
            at += (size_t)snprintf(buf + at, n - at, "%s%s", count ? ", " : "", mt_module_kernel(m, i)->name);
        *last = mt_module_kernel(m, i);
        count++;
    }
    return count;
}

static int load_source(Run *r)
{
    const char *spec = r->o->spec;
    if (!r->spec.source_path) {
        cli_error("%s: source: missing (the kernel's .py file, relative to the spec)", spec);
        return EXIT_ERRORS;
    }
    char err[1024];
    MtStatus st = mt_file_read(r->spec.source_path, MT_FILE_SOURCE, &r->text, &r->len, err, sizeof err);
    if (st) {
        cli_error("%s: source: %s", spec, err);
        return EXIT_TROUBLE;
    }
    if (!mt_fileset_add(&r->inputs, r->spec.source_path)) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    if (mt_parse(r->c, r->spec.source_path, r->text, r->len, &r->m) != MT_OK) {
        cli_print_diags(r->c, r->color);
        return EXIT_ERRORS;
    }
    char names[1024];
    const MtKernelInfo *only = NULL;
    if (r->spec.kernel) {
        if (!(r->kinfo = mt_module_find_kernel(r->m, r->spec.kernel))) {
            size_t n = kernel_names(r->m, true, names, sizeof names, &only);
            cli_error("%s: kernel: no @triton.jit function named '%s' in %s (%s%s)", spec, r->spec.kernel,
                      r->spec.source_path, n ? "jit functions: " : "it has none", names);
            return EXIT_ERRORS;
        }
    } else {
        size_t n = kernel_names(r->m, false, names, sizeof names, &only);
        if (n != 1) {
            if (n)
                cli_error("%s: kernel: missing, and %s has several kernels (%s): name one", spec,
                          r->spec.source_path, names);
            else
                cli_error("%s: source: %s has no @triton.jit kernels", spec, r->spec.source_path);
            return EXIT_ERRORS;
        }
        r->kinfo = only;
    }
    return 0;
}

static int compile_and_bind(Run *r)
{
    const char *spec = r->o->spec;
    char err[1024];
    MtStatus st = mt_launch_spec_signature(&r->spec, r->kinfo, &r->signature, err, sizeof err);
    if (st) {
        cli_error("%s: %s", spec, err);
        return st == MT_ERR_USAGE ? EXIT_ERRORS : EXIT_TROUBLE;
    }
    /* the MLIR code generator's PTX is keyed by its module; given PTX is checked against the kernel layer */
    int last = !strcmp(r->o->backend, "cuda") ? MT_STAGE_CUDA : MT_STAGE_SSA;
    if (r->o->codegen == MT_CODEGEN_MLIR && !r->o->ptx)
        last = MT_STAGE_MLIR;
    MtSpec cs = {.kernel = r->kinfo->name,
                 .signature = *r->signature ? r->signature : NULL,
                 .last_stage = last,
                 .lowering = r->o->lowering,
                 .num_warps = r->o->num_warps,
                 .codegen = r->o->codegen};
    if (mt_compile(r->c, r->m, &cs, &r->k) != MT_OK) {
        cli_print_diags(r->c, r->color);
        return EXIT_ERRORS;
    }
    size_t np = mt_compiled_param_count(r->k);
    MtKernelParam *params = calloc(np + 1, sizeof *params);
    if (!params) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    for (size_t i = 0; i < np; i++)
        params[i] = *mt_compiled_param(r->k, i);
    st = mt_launch_bind(&r->spec, params, np, &r->launch, err, sizeof err);
    free(params);
    if (st != MT_OK) {
        cli_error("%s: %s", spec, err);
        return st == MT_ERR_IO || st == MT_ERR_NOMEM ? EXIT_TROUBLE : EXIT_ERRORS;
    }
    if (!(r->args = calloc(r->launch.nargs + 1, sizeof *r->args))) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    for (size_t i = 0; i < r->launch.nargs; i++) {
        const MtLaunchArg *a = &r->launch.args[i];
        MtKernelArg *ka = &r->args[i];
        ka->name = a->name;
        if (a->kind == MT_ARG_ARRAY) {
            ka->data = a->array->data;
            ka->numel = (size_t)a->array->numel;
            if (!mt_fileset_add(&r->inputs, a->npy_path)) {
                cli_error("out of memory");
                return EXIT_TROUBLE;
            }
        } else if (a->kind == MT_ARG_F32) {
            ka->f = a->fval;
        } else {
            ka->i = a->ival;
        }
    }
    return 0;
}

/* The kernel's CUDA layout (threads per block, output tile), from a
 * compile of its own (the interpreter does not need the layout, and a
 * kernel the CUDA backend cannot lay out still runs here): false when
 * there is none. */
static bool kernel_layout(const Run *r, MtQueryKernel *q)
{
    MtCtx *c = mt_ctx_new(NULL);
    if (!c)
        return false;
    MtModule *m;
    MtCompiled *k = NULL;
    MtSpec cs = {.kernel = r->kinfo->name,
                 .signature = *r->signature ? r->signature : NULL,
                 .last_stage = MT_STAGE_LAYOUT,
                 .lowering = r->o->lowering,
                 .num_warps = r->o->num_warps,
                 .codegen = r->o->codegen};
    bool ok = mt_parse(c, r->spec.source_path, r->text, r->len, &m) == MT_OK && mt_compile(c, m, &cs, &k) == MT_OK &&
              mt_query_kernel(k, q) && q->threads > 0;
    mt_ctx_free(c);
    return ok;
}

/* Before the run: name an i32 overflow the grid makes likely, since it
 * would otherwise surface as an out-of-bounds access at a negative index
 * (or silently on the GPU). */
static void check_i32_offsets(Run *r)
{
    char msg[512];
    if (!r->has_layout)
        return;
    int64_t per_program = r->layout.tile[0] * (r->layout.rank > 1 ? r->layout.tile[1] : 1);
    if (mt_launch_i32_overflow(&r->launch, per_program, msg, sizeof msg))
        cli_warn("%s: %s", r->o->spec, msg);
}

/* ---- after the run ---------------------------------------------------------------------- */

static void shape_text(const MtArray *a, char *buf, size_t n)
{
    size_t at = (size_t)snprintf(buf, n, "%s[", mt_dtype_name(a->dtype));
    for (int d = 0; d < a->ndim && at < n; d++)
        at += (size_t)snprintf(buf + at, n - at, "%s%" PRId64, d ? ", " : "", a->shape[d]);
    if (at < n)
        snprintf(buf + at, n - at, "]");
}

/* Column widths of the array lines: names and shapes. */
static void widths(const MtLaunch *l, int *name, int *shape)
{
    *name = 4;
    *shape = 8;
    for (size_t i = 0; i < l->nargs; i++) {
        if (l->args[i].kind != MT_ARG_ARRAY)
            continue;
        char buf[128];
        shape_text(l->args[i].array, buf, sizeof buf);
        if ((int)strlen(l->args[i].name) > *name)
            *name = (int)strlen(l->args[i].name);
        if ((int)strlen(buf) > *shape)
            *shape = (int)strlen(buf);
    }
}

/* "2 threads", or "up to 2 threads" when the interpreter chooses (it
 * starts fewer for small launches). */
static void threads_text(int requested, int64_t programs, char *buf, size_t n)
{
    long t = requested > 0 ? requested : sysconf(_SC_NPROCESSORS_ONLN);
    if (t < 1)
        t = 1;
    if (t > programs)
        t = (long)programs;
    snprintf(buf, n, "%s%ld thread%s", requested > 0 || t == 1 ? "" : "up to ", t, t == 1 ? "" : "s");
}

static void summary(const Run *r, double ms, const char *backend_line)
{
    const MtLaunch *l = &r->launch;
    int64_t programs = l->grid[0] * l->grid[1] * l->grid[2];
    int per_block = r->has_layout && r->layout.programs_per_block > 1 ? r->layout.programs_per_block : 1;
    int cuda = r->has_layout ? r->layout.threads / per_block : 0;
    printf("kernel   %s  (%s, signature %s)\n", r->kinfo->name, r->spec.source_path, mt_compiled_signature(r->c, r->k));
    printf("grid     (%" PRId64 ", %" PRId64 ", %" PRId64 ") = %" PRId64 " program%s", l->grid[0], l->grid[1],
           l->grid[2], programs, programs == 1 ? "" : "s");
    if (cuda && per_block > 1)
        printf(" x %d CUDA thread%s, %d programs per block\n", cuda, cuda == 1 ? "" : "s", per_block);
    else if (cuda)
        printf(" x %d CUDA thread%s\n", cuda, cuda == 1 ? "" : "s");
    else
        printf(" (no CUDA layout)\n");
    if (backend_line) {
        printf("run      %s, %.3f ms\n", backend_line, ms);
    } else {
        char threads[64];
        threads_text(r->o->threads, programs, threads, sizeof threads);
        printf("run      interp, %s, %.3f ms\n", threads, ms);
    }
    int nw, sw;
    widths(l, &nw, &sw);
    for (size_t i = 0; i < l->nargs; i++) {
        const MtLaunchArg *a = &l->args[i];
        if (a->kind != MT_ARG_ARRAY)
            continue;
        char shape[128], preview[256];
        shape_text(a->array, shape, sizeof shape);
        MtChecksum cs = mt_array_checksum(a->array);
        mt_array_preview(a->array, preview, sizeof preview);
        printf("%-*s  %-*s  sum %-13.7g fnv1a %016" PRIx64 "  %s\n", nw, a->name, sw, shape, cs.sum, cs.fnv1a, preview);
    }
}

static bool make_dir(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return false;
        *p = '/';
    }
    return mkdir(path, 0777) == 0 || errno == EEXIST;
}

/* DIR/NAME.npy ("out/" gives out/x.npy, not out//x.npy). */
static void array_path(const char *dir, const char *name, char *buf, size_t n)
{
    size_t len = strlen(dir);
    snprintf(buf, n, "%s%s%s.npy", dir, len && dir[len - 1] == '/' ? "" : "/", name);
}

static int dump(const Run *r, const char *dir)
{
    if (!make_dir(dir)) {
        cli_error("--dump: cannot create %s: %s", dir, strerror(errno));
        return EXIT_TROUBLE;
    }
    mt_tmp_sweep(dir);
    for (size_t i = 0; i < r->launch.nargs; i++) {
        const MtLaunchArg *a = &r->launch.args[i];
        if (a->kind != MT_ARG_ARRAY)
            continue;
        char path[4096], err[1024];
        array_path(dir, a->name, path, sizeof path);
        if (mt_npy_write(path, a->array, &r->inputs, err, sizeof err) != MT_OK) {
            cli_error("--dump: %s", err);
            return EXIT_TROUBLE;
        }
    }
    return EXIT_OK;
}

static void index_text(const MtCompareResult *cr, char *buf, size_t n)
{
    size_t at = (size_t)snprintf(buf, n, "[");
    for (int d = 0; d < cr->ndim && at < n; d++)
        at += (size_t)snprintf(buf + at, n - at, "%s%" PRId64, d ? ", " : "", cr->first_index[d]);
    if (cr->ndim == 0 && at < n)
        at += (size_t)snprintf(buf + at, n - at, "%" PRId64, cr->first);
    if (at < n)
        snprintf(buf + at, n - at, "]");
}

/* --rtol/--atol, else the spec's tolerance, else 1e-5 and 1e-6. */
static void tolerances(const Run *r, double *rtol, double *atol)
{
    const Options *o = r->o;
    *rtol = o->has_rtol ? o->rtol : r->spec.has_tolerance ? r->spec.rtol : 1e-5;
    *atol = o->has_atol ? o->atol : r->spec.has_tolerance ? r->spec.atol : 1e-6;
}

static int expect(Run *r, const char *dir)
{
    double rtol, atol;
    tolerances(r, &rtol, &atol);
    int rc = EXIT_OK, checked = 0, w, sw;
    widths(&r->launch, &w, &sw);
    for (size_t i = 0; i < r->launch.nargs; i++) {
        const MtLaunchArg *a = &r->launch.args[i];
        if (a->kind != MT_ARG_ARRAY)
            continue;
        char path[4096], err[1024];
        array_path(dir, a->name, path, sizeof path);
        if (access(path, F_OK) != 0)
            continue;
        MtArray *want = NULL;
        MtStatus st = mt_npy_read(path, &want, err, sizeof err);
        if (st != MT_OK) {
            cli_error("--expect: %s", err);
            return st == MT_ERR_USAGE ? EXIT_ERRORS : EXIT_TROUBLE;
        }
        if (!mt_fileset_add(&r->inputs, path)) {
            mt_array_free(want);
            cli_error("out of memory");
            return EXIT_TROUBLE;
        }
        MtCompareResult cr;
        checked++;
        if (mt_array_compare(a->array, want, rtol, atol, &cr)) {
            printf("expect   %-*s ok: max abs err %.3g, max rel err %.3g\n", w, a->name, cr.max_abs_err, cr.max_rel_err);
        } else if (cr.error[0]) {
            printf("expect   %-*s MISMATCH: %s\n", w, a->name, cr.error);
            rc = EXIT_ERRORS;
        } else {
            char idx[256], got[32], wnt[32];
            index_text(&cr, idx, sizeof idx);
            mt_format_float(got, cr.first_got, a->array->dtype == MT_DT_F32);
            mt_format_float(wnt, cr.first_want, a->array->dtype == MT_DT_F32);
            printf("expect   %-*s MISMATCH: %" PRId64 " of %" PRId64 " elements; max abs err %.3g, max rel err %.3g; "
                   "first at %s: got %s, want %s\n",
                   w, a->name, cr.mismatches, a->array->numel, cr.max_abs_err, cr.max_rel_err, idx, got, wnt);
            rc = EXIT_ERRORS;
        }
        mt_array_free(want);
    }
    if (!checked) {
        cli_error("--expect: %s holds no NAME.npy for any array argument", dir);
        return EXIT_TROUBLE;
    }
    if (rc == EXIT_OK)
        printf("expect   %d array%s (rtol %g, atol %g)\n", checked, checked == 1 ? " matches" : "s match", rtol, atol);
    else
        printf("expect   mismatch (rtol %g, atol %g)\n", rtol, atol);
    return rc;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Once the run has succeeded: --expect, then --dump (also after a
 * mismatch, to look at what came out; never over a reference --expect
 * read, which is an input of the run). */
static int after_run(Run *r)
{
    int rc = r->o->expect ? expect(r, r->o->expect) : EXIT_OK;
    if (rc != EXIT_TROUBLE && r->o->dump) {
        int drc = dump(r, r->o->dump);
        if (drc)
            rc = drc;
    }
    return rc;
}

/* The interpreter on copies of the launch's arrays (taken before the GPU
 * run changes them); the copies are the reference for --compare. */
static int interpret_copy(Run *r, MtArray **copies)
{
    MtKernelArg *args = calloc(r->launch.nargs + 1, sizeof *args);
    if (!args)
        return EXIT_ERRORS;
    for (size_t i = 0; i < r->launch.nargs; i++) {
        args[i] = r->args[i];
        const MtArray *a = r->launch.args[i].array;
        if (r->launch.args[i].kind != MT_ARG_ARRAY)
            continue;
        copies[i] = mt_array_new(a->dtype, a->ndim, a->shape);
        if (!copies[i]) {
            free(args);
            return EXIT_ERRORS;
        }
        memcpy(copies[i]->data, a->data, a->nbytes);
        args[i].data = copies[i]->data;
    }
    MtInterpOptions io = {.threads = r->o->threads};
    MtStatus st = mt_interpret(r->c, r->k, r->launch.grid, args, r->launch.nargs, &io);
    free(args);
    if (st != MT_OK) {
        cli_print_diags(r->c, r->color);
        cli_error("--compare: the interpreter run failed");
        return EXIT_ERRORS;
    }
    return EXIT_OK;
}

static int compare_with(const Run *r, MtArray **ref)
{
    double rtol, atol;
    tolerances(r, &rtol, &atol);
    int rc = EXIT_OK, w, sw;
    widths(&r->launch, &w, &sw);
    for (size_t i = 0; i < r->launch.nargs; i++) {
        const MtLaunchArg *a = &r->launch.args[i];
        if (a->kind != MT_ARG_ARRAY)
            continue;
        MtCompareResult cr;
        if (mt_array_compare(a->array, ref[i], rtol, atol, &cr)) {
            printf("compare  %-*s cuda = interp: max abs err %.3g, max rel err %.3g\n", w, a->name, cr.max_abs_err,
                   cr.max_rel_err);
            continue;
        }
        char idx[256], got[32], want[32];
        index_text(&cr, idx, sizeof idx);
        mt_format_float(got, cr.first_got, a->array->dtype == MT_DT_F32);
        mt_format_float(want, cr.first_want, a->array->dtype == MT_DT_F32);
        printf("compare  %-*s MISMATCH: %" PRId64 " of %" PRId64 " elements; max abs err %.3g, max rel err %.3g; "
               "first at %s: cuda %s, interp %s\n",
               w, a->name, cr.mismatches, a->array->numel, cr.max_abs_err, cr.max_rel_err, idx, got, want);
        rc = EXIT_ERRORS;
    }
    printf("compare  %s (rtol %g, atol %g)\n", rc ? "mismatch" : "cuda and interp agree", rtol, atol);
    return rc;
}

static void print_profile(const Run *r, const MtCudaRunResult *res)
{
    const MtProfile *p = &res->profile;
    double med_s = (double)p->median_ns * 1e-9;
    printf("profile  %zu launches (%s): min %.2f us, median %.2f us, max %.2f us", p->n, p->timer,
           (double)p->min_ns / 1e3, (double)p->median_ns / 1e3, (double)p->max_ns / 1e3);
    if (r->launch.bytes >= 0 && med_s > 0)
        printf(", %.1f GB/s", (double)r->launch.bytes / med_s / 1e9);
    if (r->launch.flops >= 0 && med_s > 0)
        printf(", %.2f GFLOP/s", (double)r->launch.flops / med_s / 1e9);
    printf("\n");
    if (p->note[0])
        printf("profile  note: %s\n", p->note);
}

static int run_cuda(Run *r)
{
    char err[1024];
    MtCuda *cu;
    if (mt_cuda_open(&cu, err, sizeof err) != MT_OK) {
        cli_error("%s", err);
        return EXIT_TROUBLE;
    }
    MtArray **ref = calloc(r->launch.nargs + 1, sizeof *ref);
    int rc = ref ? EXIT_OK : EXIT_ERRORS;
    if (!rc && r->o->compare)
        rc = interpret_copy(r, ref);
    MtKcache *cache = mt_kcache_open(NULL);
    MtCudaRunOptions opt = {.profile_iters = r->o->profile};
    MtCudaRunResult res;
    if (!rc && r->ptx) {
        const MtCudaDeviceInfo *dev = mt_cuda_device_info(cu);
        if (mt_cuda_ptx_check(r->c, r->k, dev->cc_major * 10 + dev->cc_minor, r->ptx, r->o->ptx) != MT_OK) {
            cli_print_diags(r->c, r->color);
            rc = EXIT_ERRORS;
        }
        opt.ptx = r->ptx;
    }
    if (!rc) {
        double t0 = now_ms();
        MtStatus st = mt_cuda_run(r->c, r->k, &r->launch, cu, cache, &opt, &res, err, sizeof err);
        double ms = now_ms() - t0;
        if (st != MT_OK) {
            cli_print_diags(r->c, r->color);
            cli_error("%s", err);
            rc = st == MT_ERR_NOMEM || st == MT_ERR_IO ? EXIT_TROUBLE : EXIT_ERRORS;
        } else {
            char line[512];
            static const char *const hits[] = {"compiled", "from the memory cache", "from the disk cache"};
            bool mlir = mt_compiled_codegen(r->k) == MT_CODEGEN_MLIR;
            snprintf(line, sizeof line, "cuda on %s, %d registers, %d B shared, %s %s", mt_cuda_device_info(cu)->name,
                     res.registers, res.shared_bytes, mlir ? "MLIR ptx" : "cubin",
                     r->o->ptx ? r->o->ptx : hits[res.cache]);
            summary(r, ms, line);
            if (res.profiled)
                print_profile(r, &res);
            mt_cuda_run_result_free(&res);
            if (r->o->compare)
                rc = compare_with(r, ref);
            if (!rc)
                rc = after_run(r);
        }
    }
    for (size_t i = 0; ref && i < r->launch.nargs; i++)
        mt_array_free(ref[i]);
    free(ref);
    cli_cache_warning(cache);
    mt_kcache_close(cache);
    mt_cuda_close(cu);
    return rc;
}

static int run_launch(Run *r)
{
    const Options *o = r->o;
    char err[1024];
    MtStatus st = mt_launch_spec_load(o->spec, &r->spec, err, sizeof err);
    if (st != MT_OK) {
        cli_error("%s", err);
        return st == MT_ERR_USAGE ? EXIT_ERRORS : EXIT_TROUBLE;
    }
    for (int i = 0; i < o->nsets; i++) {
        if (mt_launch_spec_set(&r->spec, o->sets[i], err, sizeof err) != MT_OK) {
            cli_error("--set %s", err);
            return EXIT_TROUBLE;
        }
    }
    if (!(r->c = mt_ctx_new(NULL)) || !mt_fileset_add(&r->inputs, o->spec)) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    int rc = load_source(r);
    if (!rc)
        rc = compile_and_bind(r);
    if (rc)
        return rc;
    if (o->ptx) {
        /* made for this kernel? (the architecture is checked once the GPU is open) */
        size_t len;
        if (mt_file_read(o->ptx, MT_FILE_PTX, &r->ptx, &len, err, sizeof err) != MT_OK) {
            cli_error("--ptx %s", err);
            return EXIT_TROUBLE;
        }
        if (mt_cuda_ptx_check(r->c, r->k, 0, r->ptx, o->ptx) != MT_OK) {
            cli_print_diags(r->c, r->color);
            return EXIT_ERRORS;
        }
    }
    r->has_layout = kernel_layout(r, &r->layout);
    check_i32_offsets(r);
    if (!strcmp(o->backend, "cuda"))
        return run_cuda(r);

    MtInterpOptions io = {.threads = o->threads};
    double t0 = now_ms();
    st = mt_interpret(r->c, r->k, r->launch.grid, r->args, r->launch.nargs, &io);
    double ms = now_ms() - t0;
    if (st != MT_OK) {
        cli_print_diags(r->c, r->color);
        if (!mt_diag_count(r->c))
            cli_error("%s", mt_status_name(st));
        return st == MT_ERR_NOMEM ? EXIT_TROUBLE : EXIT_ERRORS;
    }
    summary(r, ms, NULL);
    return after_run(r);
}

int cmd_run(int argc, char **argv)
{
    Options o = {.backend = "interp"};
    char **sets = calloc((size_t)argc + 1, sizeof *sets);
    if (!sets) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    o.sets = sets;
    int rc = parse_options(argc, argv, &o);
    if (rc) {
        free(sets);
        return rc < 0 ? EXIT_OK : rc;
    }
    Run r = {.o = &o, .color = cli_color(o.color)};
    rc = run_launch(&r);
    free(r.args);
    free(r.ptx);
    mt_launch_free(&r.launch);
    free(r.signature);
    free(r.text);
    mt_ctx_free(r.c);
    mt_launch_spec_free(&r.spec);
    mt_fileset_free(&r.inputs);
    free(sets);
    return rc;
}
