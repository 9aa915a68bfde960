/* cmd_compile.c: `mytriton compile` — compile one kernel for one
 * specialisation and print the requested stages.
 *
 *   mytriton compile FILE.py|SPEC.json [--kernel NAME] [--signature SIG] [-D NAME=VALUE]...
 *                    [--emit ast|expr|ssa-raw|ssa[,...]] [--format text|json]
 *                    [-o OUT] [-d PASS[,PASS...]|all] [--color auto|always|never]
 *
 * Exit status (cli.h): 0 success, 1 errors in the source, 2 bad options,
 * an unreadable source or an unwritable output. The output never
 * replaces the source (`-o k.py` for k.py is refused). */
#include <getopt.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cuda_build.h"
#include "launch_spec.h"

/* Beyond the compiler's stages: NVRTC's outputs. */
enum { EMIT_PTX = 1u << 16, EMIT_CUBIN = 1u << 17 };

static const char help[] =
    "usage: mytriton compile FILE.py|SPEC.json [options]\n"
    "\n"
    "Compile a @triton.jit kernel of FILE.py (\"-\" reads stdin) and print its stages. A launch\n"
    "spec (SPEC.json, docs/launch-spec.md) names the source, the kernel and its specialisation:\n"
    "the kernel `mytriton run SPEC.json` launches.\n"
    "\n"
    "  -k, --kernel NAME        the kernel to compile (needed when the file has several)\n"
    "  -s, --signature SIG      Triton-AOT-style signature, e.g. '*fp32,*fp32,*fp32,i32,256'\n"
    "  -D NAME=VALUE            a constexpr (or any parameter) value; repeatable\n"
    "  -e, --emit STAGES        comma-separated: ast, expr, ssa-raw, ssa, layout, kernel, cuda, mlir,\n"
    "                           mlir-llvm, ptx, cubin (default ssa; ptx and cubin compile the CUDA with\n"
    "                           NVRTC, or the MLIR through MLIR's GPU pipeline with --codegen mlir)\n"
    "      --codegen cuda|mlir  from the kernel to PTX through CUDA C++ and NVRTC (default) or through\n"
    "                           MLIR (implies --lowering fast; mlir and mlir-llvm imply --codegen mlir)\n"
    "      --lowering fast|seed the fast lowering (default) or the seed documents' CUDA lowering\n"
    "      --num-warps N        warps per program for the fast lowering (default: from the block sizes)\n"
    "      --num-stages N       software pipelining of tl.dot loops for the fast lowering: 1 loads each\n"
    "                           tile in its own iteration; N (default 3) keeps N stages of tensor-core\n"
    "                           tiles in shared memory, every other load one iteration ahead\n"
    "      --arch sm_XX         CUDA architecture for ptx/cubin (default sm_90)\n"
    "  -f, --format text|json   json: every requested stage, diagnostics and source map\n"
    "  -o, --output FILE        write the output to FILE instead of stdout\n"
    "  -d PASSES                print the SSA after these passes (fold,cse,dce or all) to stderr\n"
    "      --color WHEN         colour diagnostics: auto (default), always, never\n"
    "      --diagnostics FORM   full (default) or short: 'error E0401 5:9-5:14: message'\n"
    "  -h, --help               this help\n"
    "\n"
    "Without a signature, parameters used as load/store addresses are *fp32 and other\n"
    "runtime parameters i32; constexprs come from -D, a `# mytriton: NAME=VALUE` comment\n"
    "above the kernel, or their default values.\n"
    "\n"
    "Exit status: 0 success, 1 errors in the source, 2 bad options, an unreadable source\n"
    "or an unwritable output.\n";

static bool parse_emit(const char *arg, unsigned *mask)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (!strcmp(tok, "ptx") || !strcmp(tok, "cubin")) {
            *mask |= tok[0] == 'p' ? EMIT_PTX : EMIT_CUBIN;
            continue;
        }
        int s = mt_stage_from_name(tok);
        if (s < 0) {
            cli_error("unknown stage '%s' (stages: ast, expr, ssa-raw, ssa, layout, kernel, cuda, mlir, mlir-llvm, "
                      "ptx, cubin)",
                      tok);
            return false;
        }
        *mask |= 1u << s;
    }
    return true;
}

/* MT_ERR_USAGE from the compiler is a bad --kernel or --signature. */
static int exit_of(MtStatus st)
{
    switch (st) {
    case MT_OK: return EXIT_OK;
    case MT_ERR_SOURCE: case MT_ERR_CUDA: return EXIT_ERRORS;
    default: return EXIT_TROUBLE;
    }
}

int cmd_compile(int argc, char **argv)
{
    static const struct option opts[] = {
        {"kernel", required_argument, 0, 'k'}, {"signature", required_argument, 0, 's'},
        {"emit", required_argument, 0, 'e'},   {"format", required_argument, 0, 'f'},
        {"output", required_argument, 0, 'o'}, {"color", required_argument, 0, 'C'},
        {"diagnostics", required_argument, 0, 'G'}, {"arch", required_argument, 0, 'A'},
        {"lowering", required_argument, 0, 'L'}, {"num-warps", required_argument, 0, 'W'},
        {"codegen", required_argument, 0, 'g'}, {"num-stages", required_argument, 0, 'S'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0},
    };
    MtSpec spec = {0};
    MtDefine defines[64];
    unsigned emit = 0;
    const char *format = "text", *output = NULL, *color = NULL;
    bool short_diags = false;
    int ch;
    optind = 1;
    while ((ch = getopt_long(argc, argv, ":k:s:D:e:f:o:d:h", opts, NULL)) != -1) {
        switch (ch) {
        case 'k': spec.kernel = optarg; break;
        case 's': spec.signature = optarg; break;
        case 'D':
            if (spec.ndefines == sizeof defines / sizeof defines[0] || !cli_parse_define(optarg, &defines[spec.ndefines])) {
                cli_error("-D expects NAME=VALUE, got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            spec.ndefines++;
            break;
        case 'e':
            if (!parse_emit(optarg, &emit))
                return EXIT_TROUBLE;
            break;
        case 'f':
            if (strcmp(optarg, "text") && strcmp(optarg, "json")) {
                cli_error("--format must be text or json");
                return EXIT_TROUBLE;
            }
            format = optarg;
            break;
        case 'o': output = optarg; break;
        case 'd': spec.dump_passes = optarg; break;
        case 'C': color = optarg; break;
        case 'A':
            if (sscanf(optarg, "sm_%d", &spec.sm) != 1 || spec.sm < 50 || spec.sm > 200) {
                cli_error("--arch expects sm_XX (e.g. sm_90), got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            break;
        case 'L':
            if ((spec.lowering = mt_lowering_from_name(optarg)) < 0) {
                cli_error("--lowering must be seed or fast, got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            break;
        case 'g':
            if ((spec.codegen = mt_codegen_from_name(optarg)) < 0) {
                cli_error("--codegen must be cuda or mlir, got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            break;
        case 'W':
            if (sscanf(optarg, "%d", &spec.num_warps) != 1 || spec.num_warps < 1 || spec.num_warps > 32 ||
                (spec.num_warps & (spec.num_warps - 1))) {
                cli_error("--num-warps takes a power of two from 1 to 32, got '%s'", optarg);
                return EXIT_TROUBLE;
            }
            break;
        case 'S':
            if (!cli_parse_num_stages(optarg, &spec.num_stages))
                return EXIT_TROUBLE;
            break;
        case 'G':
            if (strcmp(optarg, "full") && strcmp(optarg, "short")) {
                cli_error("--diagnostics must be full or short");
                return EXIT_TROUBLE;
            }
            short_diags = !strcmp(optarg, "short");
            break;
        case 'h': fputs(help, stdout); return EXIT_OK;
        default: return cli_option_error(ch, argv, help);
        }
    }
    if (optind != argc - 1) {
        cli_error("expected one FILE.py or SPEC.json");
        fprintf(stderr, "\n%s", help);
        return EXIT_TROUBLE;
    }
    const char *path = argv[optind];
    size_t plen = strlen(path);
    bool from_spec = plen > 5 && !strcmp(path + plen - 5, ".json");
    if (from_spec && (spec.kernel || spec.signature || spec.ndefines)) {
        cli_error("%s names the kernel and its specialisation: drop --kernel, --signature and -D", path);
        return EXIT_TROUBLE;
    }
    spec.defines = defines;
    if (!emit)
        emit = 1u << MT_STAGE_SSA;
    if (emit & (1u << MT_STAGE_MLIR | 1u << MT_STAGE_MLIR_LLVM)) {
        if (spec.codegen == MT_CODEGEN_CUDA) {
            cli_error("--emit mlir and mlir-llvm are the MLIR code generator's stages: drop --codegen cuda");
            return EXIT_TROUBLE;
        }
        spec.codegen = MT_CODEGEN_MLIR;
    }
    bool mlir = spec.codegen == MT_CODEGEN_MLIR;
    if (mlir && (emit & EMIT_CUBIN)) {
        cli_error("--codegen mlir makes PTX, which the driver compiles when it loads it: emit ptx (ptxas -arch=sm_XX "
                  "FILE.ptx makes a cubin of it)");
        return EXIT_TROUBLE;
    }
    int last = emit & (EMIT_PTX | EMIT_CUBIN) ? (mlir ? MT_STAGE_MLIR : MT_STAGE_CUDA) : 0;
    for (int s = 0; s < MT_STAGE_COUNT; s++)
        if ((emit & (1u << s)) && s > last)
            last = s;
    spec.last_stage = last < MT_STAGE_SSA ? MT_STAGE_SSA : last;
    bool json = !strcmp(format, "json");

    MtLaunchSpec ls = {0};
    char *spec_sig = NULL;
    if (from_spec) {
        MtSpecError se;
        MtStatus lst = mt_launch_spec_load(path, &ls, &se);
        if (lst != MT_OK || !ls.source_path) {
            cli_error("%s", lst != MT_OK ? se.text : "the spec names no source");
            mt_launch_spec_free(&ls);
            return lst == MT_ERR_USAGE || lst == MT_OK ? EXIT_ERRORS : EXIT_TROUBLE;
        }
    }
    const char *source = from_spec ? ls.source_path : path;
    size_t len;
    char *text = cli_read_file(source, MT_FILE_SOURCE, &len);
    if (!text) {
        mt_launch_spec_free(&ls);
        return EXIT_TROUBLE;
    }
    MtFileSet inputs = {0};
    MtCtx *c = mt_ctx_new(NULL);
    if (!c || !mt_fileset_add(&inputs, source) || (from_spec && !mt_fileset_add(&inputs, path))) {
        free(text);
        mt_ctx_free(c);
        mt_fileset_free(&inputs);
        mt_launch_spec_free(&ls);
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    MtModule *m = NULL;
    MtCompiled *k = NULL;
    MtStatus st = mt_parse(c, strcmp(source, "-") ? source : "<stdin>", text, len, &m);
    free(text);
    if (st == MT_OK && from_spec) {
        /* the spec's kernel, else the file's only kernel (a jit function no other one calls) */
        const MtKernelInfo *ki = ls.kernel ? mt_module_find_kernel(m, ls.kernel) : NULL;
        for (size_t i = 0; !ls.kernel && i < mt_module_kernel_count(m); i++)
            if (!mt_query_is_helper(m, i))
                ki = ki ? NULL : mt_module_kernel(m, i);
        MtSpecError se;
        if (!ki) {
            cli_error("%s: kernel: %s", path, ls.kernel ? "no such @triton.jit function in the source"
                                                        : "missing, and the source has several kernels: name one");
            st = MT_ERR_USAGE;
        } else if (mt_launch_spec_signature(&ls, ki, &spec_sig, &se) != MT_OK) {
            cli_error("%s: %s", path, se.text);
            st = MT_ERR_USAGE;
        } else {
            spec.kernel = ki->name;
            spec.signature = *spec_sig ? spec_sig : NULL;
        }
    }
    if (st == MT_OK)
        st = mt_compile(c, m, &spec, &k);
    MtNvrtcOutput nv = {0};
    if (st == MT_OK && (emit & (EMIT_PTX | EMIT_CUBIN))) {
        MtKcache *cache = mt_kcache_open(NULL);
        st = mt_cuda_build(c, k, cache, spec.sm ? spec.sm : 90, &nv, NULL);
        cli_cache_warning(cache);
        mt_kcache_close(cache);
    }

    int rc = exit_of(st);
    if (json) {
        const char *doc = mt_compile_json(c, m, k, emit);
        if (!cli_write_output(output, doc, strlen(doc), &inputs))
            rc = EXIT_TROUBLE;
        else if (!output)
            putchar('\n');
    } else {
        if (short_diags)
            cli_print_diags_short(c);
        else
            cli_print_diags(c, cli_color(color));
        for (size_t i = 0; k && i < mt_compiled_dump_count(k); i++) {
            const char *pass;
            const char *d = mt_compiled_dump(k, i, &pass);
            fprintf(stderr, "// SSA after %s\n%s", pass, d);
        }
        if (st == MT_OK && (emit & EMIT_CUBIN)) {
            if (!output && isatty(1)) {
                cli_error("a cubin is binary; write it with -o FILE");
                rc = EXIT_TROUBLE;
            } else if (!cli_write_output(output, nv.cubin, nv.cubin_len, &inputs)) {
                rc = EXIT_TROUBLE;
            }
        } else if (st == MT_OK) {
            int nstages = __builtin_popcount(emit);
            char *out = NULL;
            size_t outlen = 0;
            FILE *mem = open_memstream(&out, &outlen);
            for (int s = 0; s < MT_STAGE_COUNT && mem; s++) {
                if (!(emit & (1u << s)))
                    continue;
                const char *t = mt_compiled_text(c, k, (MtStage)s);
                if (!t) {   /* the kernel layer exists with the fast lowering only */
                    cli_error("--emit %s: this compilation makes no %s stage (it needs --lowering fast)",
                              mt_stage_name((MtStage)s), mt_stage_name((MtStage)s));
                    rc = EXIT_TROUBLE;
                    continue;
                }
                if (nstages > 1)
                    fprintf(mem, "// ---- %s ----\n", mt_stage_name((MtStage)s));
                fputs(t, mem);
            }
            if (emit & EMIT_PTX) {
                if (nstages > 1)
                    fprintf(mem, "// ---- ptx ----\n");
                fputs(nv.ptx, mem);
            }
            if (!mem || fclose(mem) != 0) {
                cli_error("out of memory");
                rc = EXIT_TROUBLE;
            } else if (!cli_write_output(output, out, outlen, &inputs)) {
                rc = EXIT_TROUBLE;
            }
            free(out);
        }
    }
    mt_nvrtc_output_free(&nv);
    mt_ctx_free(c);
    mt_fileset_free(&inputs);
    free(spec_sig);
    mt_launch_spec_free(&ls);
    return rc;
}
