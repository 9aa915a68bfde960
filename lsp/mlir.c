/* mlir.c: the MLIR a source line became, for hovers (the setting
 * hoverMlir).
 *
 * The analysis compiles every kernel through the CUDA code generator on
 * each edit. The MLIR stages stay off that path: the backend is a module
 * loaded on demand (about 0.1 s, once per process) and building a
 * kernel's module costs tens of milliseconds. Nor can the analysis itself
 * use the MLIR code generator: its kernel layer is not the CUDA one (no
 * tensor cores), and the lenses and layouts describe the CUDA one. So the
 * first hover that wants a kernel's MLIR compiles the kernel once more,
 * with MT_CODEGEN_MLIR, for the specialisation the analysis found, and
 * the result stays with that analysis's kernel (Kernel.mlir) until the
 * next analysis replaces it: later hovers on the kernel's lines cost a
 * lookup. The compile runs in a context of its own, the analysed text
 * parsed again, so the analysis's diagnostics stay as they were published
 * (the compile repeats the kernel's warnings, and its E1001 is no fault
 * of the file). The lines come from the compiler's line marks
 * (mt_compiled_stage_for_line), never from reading the printed text. */
#include <stdlib.h>

#include "server.h"

static const MtDiag *first_error(const MtCtx *c)
{
    for (size_t i = 0; i < mt_diag_count(c); i++)
        if (mt_diag_at(c, i)->sev == MT_SEV_ERROR)
            return mt_diag_at(c, i);
    return NULL;
}

/* Compile k through `last` into k->mlir (its context reused). */
static void compile_mlir(MtCtx *ctx, Kernel *k, int last)
{
    KernelMlir *x = &k->mlir;
    if (x->ctx)
        mt_ctx_reset(x->ctx);
    else if (!(x->ctx = mt_ctx_new(NULL)))
        return;
    x->k = NULL;
    x->why = NULL;
    x->last_stage = last;
    size_t len;
    uint32_t file = k->info->span.file;
    const char *text = mt_file_text(ctx, file, &len);
    MtModule *m = NULL;
    if (!text || mt_parse(x->ctx, mt_file_path(ctx, file), text, len, &m) == MT_ERR_NOMEM || !m) {
        x->why = first_error(x->ctx);
        return;
    }
    MtSpec spec = k->disc->spec;
    spec.codegen = MT_CODEGEN_MLIR;
    spec.last_stage = last;
    MtCompiled *ck = NULL;
    if (mt_compile(x->ctx, m, &spec, &ck) == MT_OK)
        x->k = ck;
    else
        x->why = first_error(x->ctx);
}

const KernelMlir *mt_lsp_kernel_mlir(MtCtx *ctx, Kernel *k, int last)
{
    if (!k->disc || (last != MT_STAGE_MLIR && last != MT_STAGE_MLIR_LLVM))
        return NULL;
    /* made again only when a later stage is asked for (the setting changed) */
    if (!k->mlir.ctx || k->mlir.last_stage < last)
        compile_mlir(ctx, k, last);
    return k->mlir.ctx ? &k->mlir : NULL;
}

void mt_lsp_kernels_free(Kernel *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        mt_ctx_free(v[i].mlir.ctx);
    free(v);
}
