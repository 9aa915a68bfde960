/* cuda_build.c: PTX and a cubin for a compiled kernel, through the
 * compile cache: NVRTC for the CUDA code generator, with errors mapped
 * back to the Python source through the CUDA line map of the compiled
 * result; MLIR's GPU pipeline for the MLIR code generator (PTX only: the
 * driver compiles it when the module is loaded). */
#include "cuda_build.h"

#include <stdio.h>
#include <stdlib.h>
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

/* ---- the MLIR code generator ---------------------------------------------------- */

bool mt_cuda_ptx_origin(MtCtx *c, MtCompiled *k, int sm, char *buf, size_t len)
{
    const char *kir = mt_compiled_text(c, k, MT_STAGE_KERNEL);
    if (!kir)
        return false;
    uint8_t d[32];
    char hex[65];
    mt_sha256(kir, strlen(kir), d);
    mt_sha256_hex(d, hex);
    int n = snprintf(buf, len, "// mytriton: %s, kernel layer sha256 %s, sm_%d, codegen mlir", mt_compiled_kernel_name(k),
                     hex, sm);
    return n > 0 && (size_t)n < len;
}

typedef struct MlirJob {
    MtCtx *c;
    MtCompiled *k;
    int sm;
    const char *origin, *version;
} MlirJob;

/* The MLIR backend's PTX, its first line saying what it was made from. */
static MtStatus mlir_build(void *ud, MtNvrtcOutput *out, char *err, size_t errlen)
{
    MlirJob *j = ud;
    const char *ptx;
    memset(out, 0, sizeof *out);
    if (mt_compiled_mlir_ptx(j->c, j->k, j->sm, &ptx) != MT_OK) {
        snprintf(err, errlen, "%s: MLIR's GPU pipeline failed (see the diagnostics)", mt_compiled_kernel_name(j->k));
        return MT_ERR_SOURCE;
    }
    size_t n = strlen(j->origin) + strlen(j->version) + strlen(ptx) + 8;
    if (!(out->ptx = malloc(n)) || !(out->log = calloc(1, 1))) {
        mt_nvrtc_output_free(out);
        snprintf(err, errlen, "%s: out of memory", mt_compiled_kernel_name(j->k));
        return MT_ERR_NOMEM;
    }
    out->ptx_len = (size_t)snprintf(out->ptx, n, "%s (%s)\n%s", j->origin, j->version, ptx);
    out->sm = j->sm;
    return MT_OK;
}

static MtStatus mlir_cuda_build(MtCtx *c, MtCompiled *k, MtKcache *cache, int sm, MtNvrtcOutput *out,
                                MtKcacheHit *hit)
{
    MtSpan none = {0};
    const char *mlir = mt_compiled_text(c, k, MT_STAGE_MLIR);
    char origin[256], err[1024];
    if (!mlir || !mt_cuda_ptx_origin(c, k, sm, origin, sizeof origin)) {
        if (!mt_error_count(c))
            mt_diag_add(c, MT_SEV_ERROR, none, "E1001", "the kernel was not compiled to MLIR");
        return MT_ERR_USAGE;
    }
    const char *version = mt_mlir_version(c), *pipeline = mt_mlir_pipeline(c, sm);
    if (!version || !pipeline) {
        const char *why = NULL;
        mt_mlir_available(c, &why);
        mt_diag_add(c, MT_SEV_ERROR, none, "E1001", "the MLIR backend is not available: %s", why ? why : "?");
        return MT_ERR_USAGE;
    }
    /* the key: what decides the PTX */
    uint8_t key[32];
    MtSha256 s;
    mt_sha256_init(&s);
    const char *fields[] = {"mytriton-mlir-ptx 1", origin, mlir, pipeline, version};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
        mt_sha256_update(&s, fields[i], strlen(fields[i]) + 1);
    mt_sha256_final(&s, key);
    MlirJob j = {c, k, sm, origin, version};
    MtStatus st = mt_kcache_build(cache, key, sm, mt_compiled_kernel_name(k), mlir_build, &j, out, hit, err, sizeof err);
    if (st != MT_OK && st != MT_ERR_SOURCE)
        mt_diag_add(c, MT_SEV_ERROR, none, "E1004", "%s", err);
    return st;
}

MtStatus mt_cuda_ptx_check(MtCtx *c, MtCompiled *k, int sm, const char *ptx, const char *path)
{
    char origin[256];
    MtSpan none = {0};
    if (!mt_cuda_ptx_origin(c, k, sm, origin, sizeof origin)) {
        mt_diag_add(c, MT_SEV_ERROR, none, "E1006", "%s: the kernel was not compiled with the fast lowering", path);
        return MT_ERR_USAGE;
    }
    /* sm 0: everything up to the architecture (checked before a device is open) */
    size_t n = sm > 0 ? strlen(origin) : (size_t)(strstr(origin, ", sm_") - origin), first = strcspn(ptx, "\n");
    if (strncmp(ptx, origin, n) != 0) {
        const MtDiag *d = mt_diag_add(c, MT_SEV_ERROR, none, "E1006",
                                      "%s was not made for this kernel: make it again with `mytriton compile SPEC "
                                      "--codegen mlir --emit ptx -o %s`",
                                      path, path);
        mt_diag_add_note(c, d, none, "it says: %.*s", (int)(first < 300 ? first : 300), ptx);
        mt_diag_add_note(c, d, none, "this run: %.*s", (int)n, origin);
        return MT_ERR_SOURCE;
    }
    return MT_OK;
}

/* ---- the CUDA code generator ---------------------------------------------------- */

MtStatus mt_cuda_build(MtCtx *c, MtCompiled *k, MtKcache *cache, int sm, MtNvrtcOutput *out, MtKcacheHit *hit)
{
    memset(out, 0, sizeof *out);
    if (mt_compiled_codegen(k) == MT_CODEGEN_MLIR)
        return mlir_cuda_build(c, k, cache, sm, out, hit);
    const char *src = mt_compiled_text(c, k, MT_STAGE_CUDA);
    MtSpan none = {0};
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
