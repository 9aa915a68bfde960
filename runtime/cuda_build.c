/* cuda_build.c: NVRTC for a compiled kernel, with errors mapped back to
 * the Python source through the CUDA line map of the compiled result. */
#include "cuda_build.h"

#include <stdio.h>
#include <string.h>

const char *const mt_cuda_build_opts[] = {"--fmad=false"};
const size_t mt_cuda_build_nopts = sizeof mt_cuda_build_opts / sizeof mt_cuda_build_opts[0];

/* Line `n` (1-based) of text, into buf. */
static void cuda_line(const char *text, int n, char *buf, size_t len)
{
    const char *p = text;
    for (int i = 1; i < n && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    buf[0] = 0;
    if (!p)
        return;
    while (*p == ' ')
        p++;
    size_t l = strcspn(p, "\n");
    if (l >= len)
        l = len - 1;
    memcpy(buf, p, l);
    buf[l] = 0;
}

MtStatus mt_cuda_build(MtCtx *c, MtCompiled *k, MtKcache *cache, int sm, MtNvrtcOutput *out, MtKcacheHit *hit)
{
    const char *src = mt_compiled_text(c, k, MT_STAGE_CUDA);
    MtSpan none = {0};
    memset(out, 0, sizeof *out);
    if (!src) {
        mt_diag_add(c, MT_SEV_ERROR, none, "E0606", "the kernel was not compiled to CUDA");
        return MT_ERR_USAGE;
    }
    char name[256], err[1024];
    snprintf(name, sizeof name, "%s.cu", mt_compiled_kernel_name(k));
    MtStatus st = cache ? mt_kcache_compile(cache, src, name, sm, mt_cuda_build_opts, mt_cuda_build_nopts, out, hit,
                                            err, sizeof err)
                        : mt_nvrtc_compile(src, name, sm, mt_cuda_build_opts, mt_cuda_build_nopts, out, err, sizeof err);
    if (st == MT_OK)
        return MT_OK;
    int line = 0;
    char msg[512];
    if (st == MT_ERR_SOURCE && out->log && mt_nvrtc_first_error(out->log, &line, msg, sizeof msg)) {
        MtSpan sp;
        char text[256];
        cuda_line(src, line, text, sizeof text);
        if (line > 0 && mt_compiled_cuda_line_span(k, (uint32_t)line, &sp)) {
            const MtDiag *d = mt_diag_add(c, MT_SEV_ERROR, sp, "E0606",
                                          "NVRTC rejected the CUDA generated for this line (a mytriton bug): %s", msg);
            mt_diag_add_note(c, d, none, "generated %s:%d: %s", name, line, text);
        } else {
            mt_diag_add(c, MT_SEV_ERROR, none, "E0606", "NVRTC rejected %s:%d (a mytriton bug): %s; line: %s", name,
                        line, msg, text);
        }
    } else {
        mt_diag_add(c, MT_SEV_ERROR, none, "E0606", "%s", err);
    }
    mt_nvrtc_output_free(out);
    return st == MT_ERR_SOURCE ? MT_ERR_SOURCE : st;
}
