/* fuzz_compile.c: a source file through every stage.
 *
 * The input is a Python file. It is parsed; each of its first jit
 * functions is compiled with the editor's settings (parameter types
 * inferred from use, constexprs from defaults and `# mytriton:`
 * comments) through the CUDA stage, exported as the JSON document of
 * `--format json` (stages, diagnostics, source map), queried the way the
 * language server queries it (values at a few offsets, assignments, the
 * kernel summary, fixes and refactorings), and, when it compiled, run in
 * the interpreter on a tiny grid. Every diagnostic is rendered. Anything
 * but a clean return (a sanitizer report, a crash, a leak, a hang the
 * watchdog cannot stop) is a bug. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

enum { MAX_KERNELS = 4, MAX_SOURCE = 1 << 16, WATCHDOG_MS = 2000 };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static void query(MtCtx *c, const MtModule *m, MtCompiled *k, size_t len)
{
    MtQueryValue v;
    for (uint32_t off = 0; off < len; off += len / 7 + 1)
        mt_query_value_at(c, k, off, &v);
    const MtQueryValue *as;
    mt_query_assignments(c, k, &as);
    MtQueryKernel qk;
    mt_query_kernel(k, &qk);
    const MtQueryFix *fixes;
    mt_query_actions(c, k, 0, (uint32_t)len, &fixes);
    (void)m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_SOURCE)
        return 0;
    MtCtx *c = mt_ctx_new(NULL);
    if (!c)
        return 0;
    fuzz_watch(c, WATCHDOG_MS);
    MtModule *m = NULL;
    mt_parse(c, "fuzz.py", (const char *)data, size, &m);
    for (size_t i = 0; m && i < mt_module_kernel_count(m) && i < MAX_KERNELS; i++) {
        const MtKernelInfo *ki = mt_module_kernel(m, i);
        MtQueryDef def;
        mt_query_definition(m, ki->name_span.off, &def);
        mt_query_is_helper(m, i);
        MtSpec spec = {.kernel = ki->name, .infer_params = true, .last_stage = MT_STAGE_CUDA, .dump_passes = "all"};
        MtCompiled *k = NULL;
        MtStatus st = mt_compile(c, m, &spec, &k);
        mt_compile_json(c, m, k, ~0u);
        if (k) {
            for (int s = 0; s < MT_STAGE_COUNT; s++)
                mt_compiled_text(c, k, (MtStage)s);
            mt_compiled_signature(c, k);
            for (uint32_t line = 1; line < 8; line++)
                mt_compiled_ops_for_line(c, k, line);
            query(c, m, k, size);
        }
        if (st == MT_OK)
            fuzz_interpret(c, k);
    }
    if (!m)
        mt_compile_json(c, NULL, NULL, ~0u);
    for (size_t i = 0; i < mt_diag_count(c); i++) {
        const MtDiag *d = mt_diag_at(c, i);
        mt_diag_render(c, d, i & 1);
        const MtQueryFix *fixes;
        if (m)
            mt_query_fixes(c, m, d, &fixes);
    }
    fuzz_unwatch();
    mt_ctx_free(c);
    return 0;
}
