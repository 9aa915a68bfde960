/* cmd_run.c: `mytriton run` -- run one launch described by a launch spec.
 *
 *   mytriton run SPEC.json [--backend interp|cuda] [--dump DIR] [--expect DIR]
 *                [--rtol R] [--atol A] [--set NAME=VALUE]... [--threads N]
 *                [--compare interp] [--profile N] [--lowering fast|seed] [--num-warps N] [--num-stages N]
 *                [--codegen cuda|mlir] [--ptx FILE]
 *                [--format text|json] [--color WHEN]
 *
 * The run itself is the runtime's (runtime/run.h: spec, source, compile,
 * bind, interpreter or GPU, --compare, --profile, --expect, --dump); this
 * file reads the options and prints the result: a summary on stdout
 * (the kernel, the grid, the run, one line per array, then the profile,
 * --compare and --expect lines) and the diagnostics on stderr, or the
 * result's JSON form on stdout (--format json, docs/runtime.md).
 *
 * Exit status (cli.h): 0 success; 1 a wrong spec, a compile error, a
 * runtime fault, a mismatch; 2 bad options, an unreadable input, an
 * unwritable output, no CUDA device.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "run.h"

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
    "      --lowering NAME   with --backend cuda: fast (default) or seed (the seed documents' lowering)\n"
    "      --num-warps N     warps per program for the fast lowering\n"
    "      --num-stages N    software pipelining of tl.dot loops for the fast lowering: 1 off; N (default\n"
    "                        3) stages of tensor-core tiles in shared memory, other loads one ahead\n"
    "      --codegen G       with --backend cuda: cuda (CUDA C++ and NVRTC, default) or mlir (MLIR's GPU\n"
    "                        pipeline; implies --lowering fast)\n"
    "      --ptx FILE        with --codegen mlir: run this PTX, made earlier by `mytriton compile SPEC.json\n"
    "                        --codegen mlir --emit ptx -o FILE` (on a machine without MLIR)\n"
    "      --set NAME=VALUE  override a scalar argument or a constexpr; repeatable\n"
    "      --dump DIR        write every array argument after the run to DIR/NAME.npy\n"
    "      --expect DIR      compare every array that has DIR/NAME.npy; exit 1 on a mismatch\n"
    "      --rtol R          relative tolerance for --expect (default: the spec's, else 1e-5)\n"
    "      --atol A          absolute tolerance for --expect (default: the spec's, else 1e-6)\n"
    "  -f, --format FORMAT   text (default) or json: the whole result as one JSON document\n"
    "      --color WHEN      colour diagnostics: auto (default), always, never\n"
    "  -h, --help            this help\n"
    "\n"
    "An element matches when |got - want| <= atol + rtol * |want| (NaN matches NaN).\n"
    "Exit status: 0 success, 1 spec/compile/runtime error or mismatch, 2 bad options, an\n"
    "unreadable input, an unwritable output or no CUDA device.\n";

typedef struct Options {
    MtRunRequest req;
    MtRunOptions run;
    const char **sets;
    const char *color;
    bool json;
} Options;

static bool parse_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return *s && !*end && !errno && *out >= 0;
}

static bool parse_count(const char *s, long lo, long hi, int *out)
{
    char *end;
    long n = strtol(s, &end, 10);
    if (!*s || *end || n < lo || n > hi)
        return false;
    *out = (int)n;
    return true;
}

/* 0 to continue, -1 after --help, else the exit status. */
static int parse_options(int argc, char **argv, Options *o)
{
    enum { OPT_SET = 256, OPT_DUMP, OPT_EXPECT, OPT_RTOL, OPT_ATOL, OPT_COLOR, OPT_COMPARE, OPT_PROFILE, OPT_LOWERING,
           OPT_WARPS, OPT_STAGES, OPT_CODEGEN, OPT_PTX };
    static const struct option opts[] = {
        {"backend", required_argument, 0, 'b'}, {"threads", required_argument, 0, 't'},
        {"set", required_argument, 0, OPT_SET},  {"dump", required_argument, 0, OPT_DUMP},
        {"expect", required_argument, 0, OPT_EXPECT}, {"rtol", required_argument, 0, OPT_RTOL},
        {"atol", required_argument, 0, OPT_ATOL}, {"color", required_argument, 0, OPT_COLOR},
        {"compare", required_argument, 0, OPT_COMPARE}, {"profile", required_argument, 0, OPT_PROFILE},
        {"lowering", required_argument, 0, OPT_LOWERING}, {"num-warps", required_argument, 0, OPT_WARPS},
        {"codegen", required_argument, 0, OPT_CODEGEN}, {"ptx", required_argument, 0, OPT_PTX},
        {"num-stages", required_argument, 0, OPT_STAGES}, {"format", required_argument, 0, 'f'},
        {"help", no_argument, 0, 'h'},           {0, 0, 0, 0},
    };
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, ":b:t:f:h", opts, NULL)) != -1) {
        switch (ch) {
        case 'b':
            if (strcmp(optarg, "interp") && strcmp(optarg, "cuda")) {
                cli_error("unknown backend '%s' (backends: interp, cuda)", optarg);
                return EXIT_TROUBLE;
            }
            o->run.backend = strcmp(optarg, "cuda") ? MT_RUN_INTERP : MT_RUN_CUDA;
            break;
        case 't':
            if (!parse_count(optarg, 0, 4096, &o->run.threads)) {
                cli_error("--threads expects a number from 0 to 4096, got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            break;
        case 'f':
            if (strcmp(optarg, "text") && strcmp(optarg, "json")) {
                cli_error("--format must be text or json");
                return EXIT_TROUBLE;
            }
            o->json = !strcmp(optarg, "json");
            break;
        case OPT_SET: o->sets[o->req.nsets++] = optarg; break;
        case OPT_DUMP: o->run.dump_dir = optarg; break;
        case OPT_EXPECT: o->run.expect_dir = optarg; break;
        case OPT_RTOL:
        case OPT_ATOL: {
            double v;
            if (!parse_number(optarg, &v)) {
                cli_error("--%s expects a non-negative number, got '%s'", ch == OPT_RTOL ? "rtol" : "atol", optarg);
                return EXIT_TROUBLE;
            }
            if (ch == OPT_RTOL)
                o->run.rtol = v, o->run.has_rtol = true;
            else
                o->run.atol = v, o->run.has_atol = true;
            break;
        }
        case OPT_COLOR: o->color = optarg; break;
        case OPT_COMPARE:
            if (strcmp(optarg, "interp")) {
                cli_error("--compare takes 'interp', got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            o->run.compare = true;
            break;
        case OPT_PROFILE:
            if (!parse_count(optarg, 1, 100000, &o->run.profile)) {
                cli_error("--profile expects a number of launches from 1 to 100000, got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            break;
        case OPT_LOWERING:
            if ((o->run.lowering = mt_lowering_from_name(optarg)) < 0) {
                cli_error("--lowering must be seed or fast, got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            break;
        case OPT_CODEGEN:
            if ((o->run.codegen = mt_codegen_from_name(optarg)) < 0) {
                cli_error("--codegen must be cuda or mlir, got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            break;
        case OPT_PTX: o->run.ptx_path = optarg; break;
        case OPT_WARPS:
            if (!parse_count(optarg, 1, 32, &o->run.num_warps) || (o->run.num_warps & (o->run.num_warps - 1))) {
                cli_error("--num-warps takes a power of two from 1 to 32, got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            break;
        case OPT_STAGES:
            if (!cli_parse_num_stages(optarg, &o->run.num_stages))
                return EXIT_TROUBLE;
            break;
        case 'h': fputs(help, stdout); return -1;
        default: return cli_option_error(ch, argv, help);
        }
    }
    if (optind != argc - 1) {
        cli_error("expected one SPEC.json");
        fprintf(stderr, "\n%s", help);
        return EXIT_TROUBLE;
    }
    o->req.spec_path = argv[optind];
    o->req.sets = o->sets;
    return 0;
}

/* ---- the text form ----------------------------------------------------------------- */

static void shape_text(const MtRunArray *a, char *buf, size_t n)
{
    size_t at = (size_t)snprintf(buf, n, "%s[", mt_dtype_name(a->dtype));
    for (int d = 0; d < a->ndim && at < n; d++)
        at += (size_t)snprintf(buf + at, n - at, "%s%" PRId64, d ? ", " : "", a->shape[d]);
    if (at < n)
        snprintf(buf + at, n - at, "]");
}

/* Column widths of the array lines: names and shapes. */
static void widths(const MtRunResult *r, int *name, int *shape)
{
    *name = 4;
    *shape = 8;
    for (size_t i = 0; i < r->narrays; i++) {
        char buf[128];
        shape_text(&r->arrays[i], buf, sizeof buf);
        if ((int)strlen(r->arrays[i].name) > *name)
            *name = (int)strlen(r->arrays[i].name);
        if ((int)strlen(buf) > *shape)
            *shape = (int)strlen(buf);
    }
}

static void summary(const MtRunResult *r)
{
    printf("kernel   %s  (%s, signature %s)\n", r->kernel, r->source_path, r->signature);
    printf("grid     (%" PRId64 ", %" PRId64 ", %" PRId64 ") = %" PRId64 " program%s", r->grid[0], r->grid[1],
           r->grid[2], r->programs, r->programs == 1 ? "" : "s");
    if (r->cuda_threads && r->programs_per_block > 1)
        printf(" x %d CUDA thread%s, %d programs per block\n", r->cuda_threads, r->cuda_threads == 1 ? "" : "s",
               r->programs_per_block);
    else if (r->cuda_threads)
        printf(" x %d CUDA thread%s\n", r->cuda_threads, r->cuda_threads == 1 ? "" : "s");
    else
        printf(" (no CUDA layout)\n");
    if (r->device.used)
        printf("run      cuda on %s, %d registers, %d B shared, %s %s%s, %.3f ms\n", r->device.name,
               r->device.registers, r->device.shared_bytes, r->device.code,
               strstr(r->device.cubin, " cache") ? "from the " : "", r->device.cubin, r->run_ms);
    else
        printf("run      interp, %s%d thread%s, %.3f ms\n", r->threads_auto && r->threads > 1 ? "up to " : "",
               r->threads, r->threads == 1 ? "" : "s", r->run_ms);
    int nw, sw;
    widths(r, &nw, &sw);
    for (size_t i = 0; i < r->narrays; i++) {
        const MtRunArray *a = &r->arrays[i];
        char shape[128];
        shape_text(a, shape, sizeof shape);
        printf("%-*s  %-*s  sum %-13.7g fnv1a %016" PRIx64 "  %s\n", nw, a->name, sw, shape, a->stats.sum,
               a->stats.fnv1a, a->preview);
    }
}

static void profile(const MtRunResult *r)
{
    const MtRunProfile *p = &r->profile;
    printf("profile  %zu launches (%s): min %.2f us, median %.2f us, max %.2f us", p->n, p->timer,
           (double)p->min_ns / 1e3, (double)p->median_ns / 1e3, (double)p->max_ns / 1e3);
    if (r->bytes >= 0 && p->gbps > 0)
        printf(", %.1f GB/s", p->gbps);
    if (r->flops >= 0 && p->gflops > 0)
        printf(", %.2f GFLOP/s", p->gflops);
    printf("\n");
    if (p->note[0])
        printf("profile  note: %s\n", p->note);
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

/* One line per checked array: "expect   out  ok: ..." / "compare  out  cuda = interp: ...". */
static void check_lines(const MtRunResult *r, bool gpu_vs_interp)
{
    int w, sw;
    widths(r, &w, &sw);
    const char *what = gpu_vs_interp ? "compare" : "expect ";
    for (size_t i = 0; i < r->narrays; i++) {
        const MtRunArray *a = &r->arrays[i];
        const MtRunCheck *c = gpu_vs_interp ? &a->compare : &a->expect;
        if (!c->done)
            continue;
        const MtCompareResult *cr = &c->r;
        if (cr->ok) {
            printf("%s  %-*s %s: max abs err %.3g, max rel err %.3g\n", what, w, a->name,
                   gpu_vs_interp ? "cuda = interp" : "ok", cr->max_abs_err, cr->max_rel_err);
        } else if (cr->error[0]) {
            printf("%s  %-*s MISMATCH: %s\n", what, w, a->name, cr->error);
        } else {
            char idx[256], got[32], want[32];
            index_text(cr, idx, sizeof idx);
            mt_format_float(got, cr->first_got, a->dtype == MT_DT_F32);
            mt_format_float(want, cr->first_want, a->dtype == MT_DT_F32);
            printf("%s  %-*s MISMATCH: %" PRId64 " of %" PRId64 " elements; max abs err %.3g, max rel err %.3g; "
                   "first at %s: %s %s, %s %s\n",
                   what, w, a->name, cr->mismatches, a->numel, cr->max_abs_err, cr->max_rel_err, idx,
                   gpu_vs_interp ? "cuda" : "got", got, gpu_vs_interp ? "interp" : "want", want);
        }
    }
}

static void print_text(const MtRunResult *r, bool color)
{
    /* Diagnostics in a file read like the compiler's; the others are the
     * command's own messages. */
    for (size_t i = 0; i < r->ndiags; i++) {
        const MtRunDiag *d = &r->diags[i];
        if (d->file)
            fputs(color ? d->rendered_color : d->rendered, stderr);
        else if (d->severity == MT_SEV_WARNING)
            cli_warn("%s%s%s%s", d->message, d->code ? " [" : "", d->code ? d->code : "", d->code ? "]" : "");
        else
            cli_error("%s%s%s%s", d->message, d->code ? " [" : "", d->code ? d->code : "", d->code ? "]" : "");
    }
    if (r->printed)
        fputs(r->printed, stdout); /* tl.device_print's lines, even from a run that stopped at a fault */
    if (!r->ran)
        return; /* nothing to summarise */
    summary(r);
    if (r->profiled)
        profile(r);
    if (r->compared) {
        check_lines(r, true);
        bool bad = false;
        for (size_t i = 0; i < r->narrays; i++)
            bad |= r->arrays[i].compare.done && !r->arrays[i].compare.r.ok;
        printf("compare  %s (rtol %g, atol %g)\n", bad ? "mismatch" : "cuda and interp agree", r->rtol, r->atol);
    }
    if (r->expected) {
        check_lines(r, false);
        bool bad = false;
        for (size_t i = 0; i < r->narrays; i++)
            bad |= r->arrays[i].expect.done && !r->arrays[i].expect.r.ok;
        if (bad)
            printf("expect   mismatch (rtol %g, atol %g)\n", r->rtol, r->atol);
        else
            printf("expect   %d array%s (rtol %g, atol %g)\n", r->expected, r->expected == 1 ? " matches" : "s match",
                   r->rtol, r->atol);
    }
}

int cmd_run(int argc, char **argv)
{
    Options o = {0};
    if (!(o.sets = calloc((size_t)argc + 1, sizeof *o.sets))) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    int rc = parse_options(argc, argv, &o);
    if (rc) {
        free(o.sets);
        return rc < 0 ? EXIT_OK : rc;
    }
    MtRunResult *r = mt_run(&o.req, &o.run);
    free(o.sets);
    if (!r) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    if (o.json) {
        char *doc = mt_run_result_json(r, true);
        if (!doc) {
            cli_error("out of memory");
            rc = EXIT_TROUBLE;
        } else {
            printf("%s\n", doc);
            free(doc);
        }
    } else {
        print_text(r, cli_color(o.color));
    }
    if (!rc)
        rc = mt_run_exit_status(r->outcome);
    mt_run_result_free(r);
    return rc;
}
