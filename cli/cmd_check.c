/* cmd_check.c: `mytriton check` — the CI gate. Finds the kernels in files
 * and folders, compiles every specialisation the sources resolve through
 * the verifier and the CUDA lowering (and NVRTC with --nvrtc; the MLIR
 * backend with --codegen mlir), and reports
 * in the format a CI system reads.
 *
 *   mytriton check [PATH...] [--format text|json|sarif|junit|github] [-o FILE]
 *                  [--nvrtc] [--codegen cuda|mlir] [--arch sm_XX] [-D NAME=VALUE]... [--baseline FILE]
 *                  [--write-baseline FILE] [--root DIR] [--docs-url URL] [--color WHEN]
 *                  [--fail-on-skipped]
 *
 * Exit 0 when no error remains after the baseline (warnings and infos are
 * fine), 1 with errors (or, with --fail-on-skipped, a kernel that could not
 * be specialised), 2 for bad options, unreadable inputs or an unwritable
 * report (cli.h). With
 * --write-baseline the findings are recorded and the run exits 0: they are
 * the baseline. docs/ci.md is the user's guide; check_report.h maps the
 * files that do the work. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_report.h"
#include "cli.h"

static const char help[] =
    "usage: mytriton check [PATH...] [options]\n"
    "\n"
    "Compile every @triton.jit kernel in the given files and folders (default: the\n"
    "current folder; folders are searched for *.py, skipping hidden folders,\n"
    "__pycache__, node_modules and build*) and report every diagnostic. Helpers\n"
    "called by another jit function are checked through their callers. Each kernel\n"
    "is specialised as the file says: a launch spec beside it (FILE.KERNEL.json or\n"
    "FILE.json), -D values, a `# mytriton: NAME=VALUE` comment above it, its launches\n"
    "(kernel[grid](..., BLOCK=1024)) in its file or its folder, its @triton.autotune\n"
    "configs (the first), @triton.heuristics and defaults; one that cannot be is\n"
    "reported as skipped (I0901).\n"
    "\n"
    "  -f, --format FORMAT      text (default), json, sarif, junit or github\n"
    "  -o, --output FILE        write the report to FILE instead of stdout\n"
    "  -D NAME=VALUE            a value for every kernel parameter of that name; repeatable\n"
    "      --nvrtc              also compile the generated CUDA with NVRTC (with --codegen mlir:\n"
    "                           the MLIR through MLIR's GPU pipeline to PTX)\n"
    "      --codegen cuda|mlir  mlir: also build every kernel through the MLIR backend (implies the\n"
    "                           fast lowering) and report its diagnostics (E10xx)\n"
    "      --arch sm_XX         CUDA architecture for the layouts and NVRTC (default sm_90)\n"
    "      --baseline FILE      do not report (or fail on) the findings recorded in FILE\n"
    "      --write-baseline FILE  record the current errors and warnings in FILE; exit 0\n"
    "      --root DIR           report paths relative to DIR (default: the git work\n"
    "                           tree's top, else the current folder)\n"
    "      --docs-url URL       where docs/ is published, for rule links (default:\n"
    "                           $MYTRITON_DOCS_URL; without either, no links)\n"
    "      --color WHEN         colour the text format: auto (default), always, never\n"
    "      --fail-on-skipped    a kernel that cannot be specialised fails the run\n"
    "  -h, --help               this help\n"
    "\n"
    "Exit status: 0 no errors (warnings and infos allowed), 1 errors (or a skipped\n"
    "kernel with --fail-on-skipped), 2 bad options, an unreadable input or an\n"
    "unwritable report.\n"
    "With --format github, the job summary goes to $GITHUB_STEP_SUMMARY (or stderr).\n";

typedef enum { FMT_TEXT, FMT_JSON, FMT_SARIF, FMT_JUNIT, FMT_GITHUB } Format;

static int parse_format(const char *s)
{
    static const char *const names[] = {"text", "json", "sarif", "junit", "github"};
    for (int i = 0; i < 5; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

/* The docs URL with a trailing slash (heap), or NULL when neither
 * --docs-url nor $MYTRITON_DOCS_URL says where docs/ is published: the
 * reports then carry the rules' help text without links. */
static char *docs_url(const char *given)
{
    const char *env = getenv("MYTRITON_DOCS_URL");
    const char *u = given ? given : env && *env ? env : NULL;
    if (!u)
        return NULL;
    size_t n = strlen(u);
    char *s = malloc(n + 2);
    if (s)
        snprintf(s, n + 2, "%s%s", u, n && u[n - 1] == '/' ? "" : "/");
    return s;
}

static bool want_color(const char *mode, Format fmt, const char *output)
{
    if (fmt != FMT_TEXT || (mode && !strcmp(mode, "never")))
        return false;
    if (mode && !strcmp(mode, "always"))
        return true;
    const char *nc = getenv("NO_COLOR");
    return (!output || !strcmp(output, "-")) && isatty(1) && !(nc && *nc);
}

static bool emit(CkReport *r, const CkOptions *o, Format fmt, const char *output, const MtFileSet *inputs)
{
    CkOut out;
    if (!ck_out_open(&out))
        ck_oom(r);
    FILE *summary = NULL;
    switch (fmt) {
    case FMT_TEXT: ck_format_text(r, o, out.f); break;
    case FMT_JSON: ck_format_json(r, o, out.f); break;
    case FMT_SARIF: ck_format_sarif(r, o, out.f); break;
    case FMT_JUNIT: ck_format_junit(r, o, out.f); break;
    case FMT_GITHUB: {
        const char *path = getenv("GITHUB_STEP_SUMMARY");
        summary = path && *path ? fopen(path, "a") : NULL;
        if (path && *path && !summary)
            cli_warn("cannot append to $GITHUB_STEP_SUMMARY (%s); writing the summary here", path);
        ck_format_github(r, o, out.f, summary ? summary : stderr);
        break;
    }
    }
    bool ok = ck_out_close(&out) && cli_write_output(output, out.buf, out.len, inputs);
    if (summary && fclose(summary) != 0) {
        cli_error("cannot write $GITHUB_STEP_SUMMARY");
        ok = false;
    }
    free(out.buf);
    return ok;
}

static int run(CkReport *r, CkOptions *o, char **paths, int npaths, const char *root, Format fmt,
               const char *output, const char *baseline, const char *write_baseline)
{
    if (!ck_scan(r, paths, npaths, root) || !ck_run(r, o))
        return EXIT_TROUBLE;
    ck_fingerprint_all(r);
    if (baseline && !ck_baseline_apply(r, baseline))
        return EXIT_TROUBLE;
    /* The report and the baseline never replace a source or the baseline read. */
    MtFileSet inputs = {0};
    bool ok = mt_fileset_add(&inputs, baseline);
    for (size_t i = 0; ok && i < r->nfiles; i++)
        ok = mt_fileset_add(&inputs, r->files[i].path);
    if (!ok)
        ck_oom(r);
    ok = !write_baseline || ck_baseline_write(r, write_baseline, &inputs);
    ok = ok && emit(r, o, fmt, output, &inputs);
    mt_fileset_free(&inputs);
    if (!ok)
        return EXIT_TROUBLE;
    if (write_baseline)
        return EXIT_OK;
    bool failed = ck_counts(r).errors > 0;
    size_t skipped = 0;
    for (size_t i = 0; i < r->nresults; i++) {
        failed |= ck_status(r, i) == CK_FAILED;
        skipped += ck_status(r, i) == CK_SKIPPED;
    }
    if (skipped && o->fail_on_skipped) {
        cli_error("%zu kernel%s could not be specialised and --fail-on-skipped is set (see I0901 above)", skipped,
                  skipped == 1 ? "" : "s");
        failed = true;
    }
    return failed ? EXIT_ERRORS : EXIT_OK;
}

/* The report's one protected call: ck_oom lands here. */
static int protected_run(CkOptions *o, char **paths, int npaths, const char *root, Format fmt, const char *output,
                         const char *baseline, const char *write_baseline)
{
    CkReport r = {0};
    jmp_buf oom;
    r.oom = &oom;
    if (setjmp(oom)) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    int rc = run(&r, o, paths, npaths, root, fmt, output, baseline, write_baseline);
    ck_report_free(&r);
    return rc;
}

int cmd_check(int argc, char **argv)
{
    enum { OPT_NVRTC = 256, OPT_ARCH, OPT_BASELINE, OPT_WRITE_BASELINE, OPT_ROOT, OPT_DOCS, OPT_COLOR, OPT_SKIPPED,
           OPT_CODEGEN };
    static const struct option opts[] = {
        {"format", required_argument, 0, 'f'},
        {"output", required_argument, 0, 'o'},
        {"nvrtc", no_argument, 0, OPT_NVRTC},
        {"fail-on-skipped", no_argument, 0, OPT_SKIPPED},
        {"codegen", required_argument, 0, OPT_CODEGEN},
        {"arch", required_argument, 0, OPT_ARCH},
        {"baseline", required_argument, 0, OPT_BASELINE},
        {"write-baseline", required_argument, 0, OPT_WRITE_BASELINE},
        {"root", required_argument, 0, OPT_ROOT},
        {"docs-url", required_argument, 0, OPT_DOCS},
        {"color", required_argument, 0, OPT_COLOR},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    MtDefine *defines = calloc((size_t)argc + 1, sizeof *defines);
    if (!defines) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    CkOptions o = {.defines = defines, .sm = 90};
    Format fmt = FMT_TEXT;
    const char *output = NULL, *baseline = NULL, *write_baseline = NULL, *root = NULL, *docs = NULL,
               *color = NULL;
    int ch, rc = -1;
    optind = 1;
    while (rc < 0 && (ch = getopt_long(argc, argv, ":f:o:D:h", opts, NULL)) != -1) {
        switch (ch) {
        case 'f': {
            int f = parse_format(optarg);
            if (f < 0) {
                cli_error("--format must be text, json, sarif, junit or github");
                rc = EXIT_TROUBLE;
            }
            fmt = (Format)f;
            break;
        }
        case 'o': output = optarg; break;
        case 'D':
            if (!cli_parse_define(optarg, &defines[o.ndefines])) {
                cli_error("-D expects NAME=VALUE, got '%s'", optarg);
                rc = EXIT_TROUBLE;
            }
            o.ndefines++;
            break;
        case OPT_NVRTC: o.nvrtc = true; break;
        case OPT_SKIPPED: o.fail_on_skipped = true; break;
        case OPT_CODEGEN:
            if ((o.codegen = mt_codegen_from_name(optarg)) < 0) {
                cli_error("--codegen must be cuda or mlir, got '%s'", optarg);
                rc = EXIT_TROUBLE;
            }
            break;
        case OPT_ARCH:
            if (sscanf(optarg, "sm_%d", &o.sm) != 1 || o.sm < 50 || o.sm > 200) {
                cli_error("--arch expects sm_XX (e.g. sm_90), got '%s'", optarg);
                rc = EXIT_TROUBLE;
            }
            break;
        case OPT_BASELINE: baseline = optarg; break;
        case OPT_WRITE_BASELINE: write_baseline = optarg; break;
        case OPT_ROOT: root = optarg; break;
        case OPT_DOCS: docs = optarg; break;
        case OPT_COLOR:
            if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never")) {
                cli_error("--color must be auto, always or never");
                rc = EXIT_TROUBLE;
            }
            color = optarg;
            break;
        case 'h':
            fputs(help, stdout);
            rc = EXIT_OK;
            break;
        default:
            rc = cli_option_error(ch, argv, help);
        }
    }
    if (rc >= 0) {
        free(defines);
        return rc;
    }
    if (o.codegen == MT_CODEGEN_MLIR) {
        MtCtx *c = mt_ctx_new(NULL);
        const char *why = NULL;
        bool ok = c && mt_mlir_available(c, &why);
        if (!ok)
            cli_error("--codegen mlir: the MLIR backend is not available: %s", why ? why : "out of memory");
        mt_ctx_free(c);
        if (!ok) {
            free(defines);
            return EXIT_TROUBLE;
        }
    }
    char *url = docs_url(docs);
    o.docs_url = url;
    o.color = want_color(color, fmt, output);
    rc = protected_run(&o, argv + optind, argc - optind, root, fmt, output, baseline, write_baseline);
    free(url);
    free(defines);
    return rc;
}
