/* gpu_bench.c: mytriton's kernels on the GPU, timed with CUPTI.
 *
 * The kernels are bench/kernels.py's, the same source bench/compare_gpu.py
 * runs through Triton. Each row of the comparison (a problem and its size,
 * e.g. "softmax 65536x128") has one or more configurations (block sizes,
 * warps); every configuration is compiled from source with the fast
 * lowering (the signature marks device buffers and sizes as multiples of
 * 16 and unit strides as 1, as the launchers specialise them), run on
 * random data, and timed over the iterations; the median kernel time and
 * the achieved GB/s or TFLOP/s are printed, as a table and as one JSON
 * object per line for compare_gpu.py, which keeps each row's best
 * configuration. The seed lowering runs the rows it can compile (its
 * reference figures), and the MLIR code generator every fast case (rows
 * "mlir": the same kernel layer, PTX from MLIR's GPU pipeline). Without a
 * GPU it prints a skip line and exits 0.
 *
 *   gpu_bench [KERNELS_PY] [ITERS] [--mlir-ptx DIR] [--only WORD[,WORD...]]
 *   gpu_bench [KERNELS_PY] --make-mlir-ptx DIR
 *
 * The GPU machine has no MLIR: --make-mlir-ptx writes the MLIR cases' PTX
 * to DIR (no GPU needed), and --mlir-ptx runs the MLIR rows from there
 * (without it they compile through the MLIR backend, or are skipped with
 * the reason when it is unavailable). --only keeps the rows whose name
 * contains one of the WORDs.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "array.h"
#include "bench_util.h"
#include "cuda_run.h"
#include "fileio.h"

typedef enum Problem { P_COPY, P_ADD, P_SOFTMAX, P_LAYER_NORM, P_MATMUL } Problem;

typedef struct Case {
    const char *row;          /* the comparison's row */
    Problem problem;
    MtDtype dt;               /* the inputs' element type */
    int64_t m, n, k;          /* elements; rows x columns; M, N, K */
    int32_t block[3];         /* BLOCK; or BM, BN, BK */
    int num_warps;            /* 0: the lowering's choice */
    const char *precision;    /* matmul: tl.dot's input_precision */
    int num_stages;           /* 0: the default (3) */
} Case;

static const char *const kernel_name[] = {
    [P_COPY] = "copy_kernel", [P_ADD] = "add_kernel", [P_SOFTMAX] = "softmax_kernel",
    [P_LAYER_NORM] = "layer_norm_kernel", [P_MATMUL] = "matmul_kernel"};

/* The rows, each with the configurations tried. */
static const Case cases[] = {
    {"copy 2^28 fp32", P_COPY, MT_DT_F32, 1 << 28, 0, 0, {1024}, 0, NULL, 0},
    {"vector_add 2^28 fp32", P_ADD, MT_DT_F32, 1 << 28, 0, 0, {1024}, 0, NULL, 0},
    {"vector_add 2^28 fp32", P_ADD, MT_DT_F32, 1 << 28, 0, 0, {2048}, 0, NULL, 0},
    {"softmax 16384x1024", P_SOFTMAX, MT_DT_F32, 16384, 1024, 0, {1024}, 0, NULL, 0},
    {"softmax 65536x128", P_SOFTMAX, MT_DT_F32, 65536, 128, 0, {128}, 0, NULL, 0},
    {"softmax 4096x4096", P_SOFTMAX, MT_DT_F32, 4096, 4096, 0, {4096}, 0, NULL, 0},
    {"softmax 4096x4096", P_SOFTMAX, MT_DT_F32, 4096, 4096, 0, {4096}, 16, NULL, 0},
    {"layer_norm 8192x4096", P_LAYER_NORM, MT_DT_F32, 8192, 4096, 0, {4096}, 0, NULL, 0},
    {"layer_norm 8192x4096", P_LAYER_NORM, MT_DT_F32, 8192, 4096, 0, {4096}, 16, NULL, 0},
    {"matmul 1024^3 fp32", P_MATMUL, MT_DT_F32, 1024, 1024, 1024, {64, 64, 32}, 0, "ieee", 0},
    {"matmul 1024^3 fp32", P_MATMUL, MT_DT_F32, 1024, 1024, 1024, {64, 64, 32}, 2, "ieee", 0},
    {"matmul 1024^3 fp32", P_MATMUL, MT_DT_F32, 1024, 1024, 1024, {128, 128, 32}, 0, "ieee", 0},
    {"matmul 1024^3 fp32", P_MATMUL, MT_DT_F32, 1024, 1024, 1024, {128, 64, 32}, 4, "ieee", 0},
    {"matmul 1024^3 fp32", P_MATMUL, MT_DT_F32, 1024, 1024, 1024, {64, 128, 32}, 4, "ieee", 0},
    {"matmul 1024^3 fp32", P_MATMUL, MT_DT_F32, 1024, 1024, 1024, {64, 64, 32}, 4, "ieee", 0},
    {"matmul 1024^3 fp32", P_MATMUL, MT_DT_F32, 1024, 1024, 1024, {64, 64, 32}, 8, "ieee", 0},
    {"matmul 1024^3 fp32", P_MATMUL, MT_DT_F32, 1024, 1024, 1024, {128, 64, 32}, 8, "ieee", 0},
    {"matmul 1024^3 fp32", P_MATMUL, MT_DT_F32, 1024, 1024, 1024, {64, 128, 32}, 8, "ieee", 0},
    {"matmul 1024^3 fp32", P_MATMUL, MT_DT_F32, 1024, 1024, 1024, {64, 64, 32}, 4, "ieee", 4},
    {"matmul 1024^3 fp32", P_MATMUL, MT_DT_F32, 1024, 1024, 1024, {64, 64, 16}, 2, "ieee", 4},
    {"matmul 1024^3 fp32", P_MATMUL, MT_DT_F32, 1024, 1024, 1024, {64, 64, 32}, 4, "ieee", 2},
    {"matmul 1024^3 fp32", P_MATMUL, MT_DT_F32, 1024, 1024, 1024, {32, 64, 32}, 2, "ieee", 0},
    {"matmul 1024^3 fp32", P_MATMUL, MT_DT_F32, 1024, 1024, 1024, {64, 32, 32}, 2, "ieee", 0},
    {"matmul 1024^3 fp32", P_MATMUL, MT_DT_F32, 1024, 1024, 1024, {32, 64, 32}, 4, "ieee", 0},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {128, 128, 32}, 0, "ieee", 0},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {128, 128, 16}, 0, "ieee", 0},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {128, 64, 32}, 4, "ieee", 0},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {64, 128, 32}, 4, "ieee", 0},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {128, 64, 16}, 4, "ieee", 0},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {64, 64, 32}, 2, "ieee", 0},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {64, 64, 32}, 4, "ieee", 0},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {128, 64, 32}, 8, "ieee", 0},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {64, 128, 32}, 8, "ieee", 0},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {128, 128, 32}, 8, "ieee", 4},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {128, 128, 16}, 8, "ieee", 4},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {128, 64, 32}, 4, "ieee", 4},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {128, 256, 16}, 8, "ieee", 3},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {64, 128, 32}, 4, "ieee", 4},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {64, 128, 32}, 4, "ieee", 2},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {64, 128, 16}, 4, "ieee", 0},
    {"matmul 4096^3 fp32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {64, 256, 32}, 8, "ieee", 0},
    {"matmul 4096^3 tf32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {128, 128, 32}, 4, "tf32", 0},
    {"matmul 4096^3 tf32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {128, 128, 32}, 4, "tf32", 4},
    {"matmul 4096^3 tf32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {128, 128, 32}, 8, "tf32", 0},
    {"matmul 4096^3 tf32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {128, 128, 64}, 8, "tf32", 0},
    {"matmul 4096^3 tf32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {128, 256, 32}, 8, "tf32", 0},
    {"matmul 4096^3 tf32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {128, 256, 32}, 8, "tf32", 4},
    {"matmul 4096^3 tf32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {256, 128, 32}, 8, "tf32", 0},
    {"matmul 4096^3 tf32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {256, 128, 32}, 8, "tf32", 4},
    {"matmul 4096^3 tf32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {64, 128, 32}, 4, "tf32", 0},
    {"matmul 4096^3 tf32", P_MATMUL, MT_DT_F32, 4096, 4096, 4096, {128, 64, 32}, 4, "tf32", 0},
    {"matmul 4096^3 fp16", P_MATMUL, MT_DT_F16, 4096, 4096, 4096, {128, 128, 32}, 4, "ieee", 0},
    {"matmul 4096^3 fp16", P_MATMUL, MT_DT_F16, 4096, 4096, 4096, {128, 128, 32}, 8, "ieee", 0},
    {"matmul 4096^3 fp16", P_MATMUL, MT_DT_F16, 4096, 4096, 4096, {128, 256, 32}, 8, "ieee", 0},
    {"matmul 4096^3 fp16", P_MATMUL, MT_DT_F16, 4096, 4096, 4096, {128, 128, 64}, 8, "ieee", 0},
    {"matmul 4096^3 fp16", P_MATMUL, MT_DT_F16, 4096, 4096, 4096, {64, 128, 32}, 4, "ieee", 0},
    {"matmul 4096^3 fp16", P_MATMUL, MT_DT_F16, 4096, 4096, 4096, {128, 128, 64}, 4, "ieee", 0},
    {"matmul 4096^3 fp16", P_MATMUL, MT_DT_F16, 4096, 4096, 4096, {128, 256, 64}, 8, "ieee", 0},
    {"matmul 4096^3 fp16", P_MATMUL, MT_DT_F16, 4096, 4096, 4096, {256, 128, 64}, 8, "ieee", 0},
    {"matmul 4096^3 fp16", P_MATMUL, MT_DT_F16, 4096, 4096, 4096, {128, 128, 32}, 4, "ieee", 2},
    {"matmul 4096^3 fp16", P_MATMUL, MT_DT_F16, 4096, 4096, 4096, {128, 128, 32}, 4, "ieee", 4},
    {"matmul 4096^3 fp16", P_MATMUL, MT_DT_F16, 4096, 4096, 4096, {128, 256, 32}, 8, "ieee", 4},
    {"matmul 4096^3 bf16", P_MATMUL, MT_DT_BF16, 4096, 4096, 4096, {128, 128, 32}, 4, "ieee", 0},
    {"matmul 4096^3 bf16", P_MATMUL, MT_DT_BF16, 4096, 4096, 4096, {128, 128, 32}, 8, "ieee", 0},
    {"matmul 4096^3 bf16", P_MATMUL, MT_DT_BF16, 4096, 4096, 4096, {128, 256, 32}, 8, "ieee", 0},
    {"matmul 4096^3 bf16", P_MATMUL, MT_DT_BF16, 4096, 4096, 4096, {128, 128, 64}, 8, "ieee", 0},
    {"matmul 4096^3 bf16", P_MATMUL, MT_DT_BF16, 4096, 4096, 4096, {128, 128, 64}, 4, "ieee", 0},
    {"matmul 4096^3 bf16", P_MATMUL, MT_DT_BF16, 4096, 4096, 4096, {128, 256, 64}, 8, "ieee", 0},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

static const char *sig_dtype(MtDtype dt) { return dt == MT_DT_F16 ? "fp16" : dt == MT_DT_BF16 ? "bf16" : "fp32"; }

/* The case's signature: its runtime parameters with the launchers' hints,
 * then its constexprs. */
static void signature(const Case *cs, char *buf, size_t len)
{
    const char *t = sig_dtype(cs->dt);
    switch (cs->problem) {
    case P_COPY: snprintf(buf, len, "*%s:16,*%s:16,i32:16,%d", t, t, cs->block[0]); break;
    case P_ADD: snprintf(buf, len, "*%s:16,*%s:16,*%s:16,i32:16,%d", t, t, t, cs->block[0]); break;
    case P_SOFTMAX: snprintf(buf, len, "*%s:16,*%s:16,i32:16,%d", t, t, cs->block[0]); break;
    case P_LAYER_NORM: snprintf(buf, len, "*%s:16,*%s:16,*%s:16,*%s:16,i32:16,fp32,%d", t, t, t, t, cs->block[0]); break;
    case P_MATMUL:
        snprintf(buf, len, "*%s:16,*%s:16,*%s:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,1,i32:16,1,%d,%d,%d,8,\"%s\"", t, t,
                 t, cs->block[0], cs->block[1], cs->block[2], cs->precision);
        break;
    }
}

/* "128x128x32 w8" */
static void config(const Case *cs, char *buf, size_t len)
{
    int n = cs->problem == P_MATMUL ? snprintf(buf, len, "%dx%dx%d", cs->block[0], cs->block[1], cs->block[2])
                                    : snprintf(buf, len, "BLOCK %d", cs->block[0]);
    if (cs->num_warps)
        n += snprintf(buf + n, len - (size_t)n, " w%d", cs->num_warps);
    if (cs->num_stages)
        snprintf(buf + n, len - (size_t)n, " s%d", cs->num_stages);
}

/* DIR/<row>-<config>.ptx for the MLIR code generator's PTX of a case. */
static void ptx_path(const char *ptx_dir, const Case *cs, char *buf, size_t len)
{
    char cfg[64];
    config(cs, cfg, sizeof cfg);
    int n = snprintf(buf, len, "%s/%s-%s.ptx", ptx_dir, cs->row, cfg);
    for (int i = (int)strlen(ptx_dir) + 1; i < n && (size_t)i < len; i++)
        if (buf[i] == ' ' || buf[i] == '^')
            buf[i] = '_';
}

/* Compile a case: the kernel, and its PTX/cubin for sm (through `cache`;
 * with ptx_dir, the MLIR code generator's PTX read from there and checked). */
static bool build_case(MtCtx *c, const char *path, const Case *cs, int lowering, int codegen, const char *ptx_dir,
                       MtKcache *cache, int sm, MtCompiled **k, MtNvrtcOutput *out)
{
    char sig[256], err[1024];
    size_t len;
    char *text = bench_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "gpu_bench: cannot read %s\n", path);
        return false;
    }
    signature(cs, sig, sizeof sig);
    bool given = codegen == MT_CODEGEN_MLIR && ptx_dir;
    MtSpec spec = {.kernel = kernel_name[cs->problem],
                   .signature = sig,
                   .last_stage = codegen == MT_CODEGEN_MLIR && !given ? MT_STAGE_MLIR : MT_STAGE_CUDA,
                   .lowering = lowering,
                   .num_warps = lowering == MT_LOWERING_SEED ? 0 : cs->num_warps,
                   .num_stages = lowering == MT_LOWERING_SEED ? 0 : cs->num_stages,
                   .codegen = codegen};
    memset(out, 0, sizeof *out);
    MtModule *m;
    bool ok = mt_parse(c, path, text, len, &m) == MT_OK && mt_compile(c, m, &spec, k) == MT_OK;
    free(text);
    if (ok && given) {
        char ptx[1024];
        ptx_path(ptx_dir, cs, ptx, sizeof ptx);
        ok = mt_file_read(ptx, MT_FILE_PTX, &out->ptx, &out->ptx_len, err, sizeof err) == MT_OK;
        if (!ok)
            fprintf(stderr, "gpu_bench: %s\n", err);
        ok = ok && mt_cuda_ptx_check(c, *k, sm, out->ptx, ptx) == MT_OK;
    } else if (ok) {
        ok = mt_cuda_build(c, *k, cache, sm, out, NULL) == MT_OK;
    }
    return ok;
}

/* The first error of a failed compile, on one line. */
static const char *first_error(MtCtx *c)
{
    for (size_t i = 0; i < mt_diag_count(c); i++) {
        const MtDiag *d = mt_diag_at(c, i);
        if (d->sev == MT_SEV_ERROR)
            return d->msg;
    }
    return "no diagnostic";
}

/* A device buffer of `count` uniform random values of dt in [-1, 1). */
static bool random_buffer(MtCuda *cu, MtDtype dt, int64_t count, uint64_t seed, MtDevPtr *out, char *err,
                          size_t errlen)
{
    MtArrayGen g = {.dtype = dt, .ndim = 1, .shape = {count}, .init = MT_INIT_UNIFORM, .a = -1, .b = 1, .seed = seed};
    MtArray *a;
    if (mt_array_generate(&g, &a, err, errlen) != MT_OK)
        return false;
    bool ok = mt_cuda_alloc(cu, a->nbytes, out, err, errlen) == MT_OK &&
              mt_cuda_memcpy_htod(cu, *out, a->data, a->nbytes, err, errlen) == MT_OK;
    mt_array_free(a);
    return ok;
}

/* Buffers, parameters, grid and the work of one launch of a case. */
typedef struct Launch {
    MtDevPtr bufs[4];
    size_t nbufs;
    void *params[20];
    size_t nparams;
    int32_t ints[9];
    float eps;
    unsigned grid[3];
    double bytes, flops;
} Launch;

static bool buffers(MtCuda *cu, Launch *l, MtDtype dt, const int64_t *counts, size_t n, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        if (!random_buffer(cu, dt, counts[i], (uint64_t)i, &l->bufs[i], err, errlen))
            return false;
        l->nbufs = i + 1;
        l->params[l->nparams++] = &l->bufs[i];
    }
    return true;
}

static void ints(Launch *l, const int64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        l->ints[i] = (int32_t)v[i];
        l->params[l->nparams++] = &l->ints[i];
    }
}

static bool setup(MtCuda *cu, const Case *cs, Launch *l, char *err, size_t errlen)
{
    memset(l, 0, sizeof *l);
    l->grid[1] = l->grid[2] = 1;
    double esize = (double)mt_dtype_info(cs->dt)->size;
    int64_t m = cs->m, n = cs->n, k = cs->k;
    switch (cs->problem) {
    case P_COPY:
    case P_ADD: {
        int64_t counts[3] = {m, m, m};
        size_t nb = cs->problem == P_COPY ? 2 : 3;
        if (!buffers(cu, l, cs->dt, counts, nb, err, errlen))
            return false;
        ints(l, &m, 1);
        l->grid[0] = (unsigned)((m + cs->block[0] - 1) / cs->block[0]);
        l->bytes = esize * (double)nb * (double)m;
        return true;
    }
    case P_SOFTMAX:
    case P_LAYER_NORM: {
        int64_t counts[4] = {m * n, m * n, n, n};
        size_t nb = cs->problem == P_SOFTMAX ? 2 : 4;
        if (!buffers(cu, l, cs->dt, counts, nb, err, errlen))
            return false;
        ints(l, &n, 1);
        if (cs->problem == P_LAYER_NORM) {
            l->eps = 1e-5f;
            l->params[l->nparams++] = &l->eps;
        }
        l->grid[0] = (unsigned)m;
        l->bytes = esize * 2.0 * (double)(m * n);
        return true;
    }
    case P_MATMUL: {
        int64_t counts[3] = {m * k, k * n, m * n};
        if (!buffers(cu, l, cs->dt, counts, 3, err, errlen))
            return false;
        /* M, N, K, stride_am, stride_bk, stride_cm (the unit strides are constants) */
        int64_t v[6] = {m, n, k, k, n, n};
        ints(l, v, 6);
        l->grid[0] = (unsigned)(((m + cs->block[0] - 1) / cs->block[0]) * ((n + cs->block[1] - 1) / cs->block[1]));
        l->flops = 2.0 * (double)m * (double)n * (double)k;
        return true;
    }
    }
    return false;
}

static int run_case(MtCuda *cu, MtKcache *cache, const char *path, const Case *cs, int lowering, int codegen,
                    const char *ptx_dir, int iters)
{
    char err[1024] = "", cfg[64];
    const char *lname = codegen == MT_CODEGEN_MLIR ? "mlir" : mt_lowering_name((MtLowering)lowering);
    config(cs, cfg, sizeof cfg);
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k;
    MtNvrtcOutput out = {0};
    const MtCudaDeviceInfo *dev = mt_cuda_device_info(cu);
    int rc = 1;
    MtCudaModule *mod = NULL;
    MtCudaFunc *fn;
    Launch l = {0};
    const char *name = kernel_name[cs->problem];
    if (!build_case(c, path, cs, lowering, codegen, ptx_dir, cache, dev->cc_major * 10 + dev->cc_minor, &k, &out)) {
        /* the seed lowering does not reach every kernel: a row it cannot
         * compile is a note, not a failure */
        printf("%-22s %-4s %-16s not compiled: %s\n", cs->row, lname, cfg, first_error(c));
        rc = lowering == MT_LOWERING_SEED ? 0 : 1;
        goto done;
    }
    /* the MLIR code generator's PTX has no cubin: the driver compiles it */
    if (mt_cuda_module_load(cu, out.cubin_len ? out.cubin : (const void *)out.ptx, name, &mod, err, sizeof err) !=
            MT_OK ||
        mt_cuda_module_function(cu, mod, name, &fn, err, sizeof err) != MT_OK || !setup(cu, cs, &l, err, sizeof err))
        goto fail;
    MtLaunchShape shape;
    mt_compiled_launch_shape(k, &shape);
    unsigned block[3] = {shape.threads, 1, 1};
    int32_t grid_ints[3];
    for (int d = 0; d < 3; d++) {
        grid_ints[d] = (int32_t)l.grid[d];
        if (shape.grid_params)
            l.params[l.nparams + (size_t)d] = &grid_ints[d];
    }
    l.grid[0] = (l.grid[0] + shape.programs_per_block - 1) / shape.programs_per_block;
    MtProfile prof;
    if (mt_cuda_profile_launch(cu, fn, name, l.grid, block, (unsigned)shape.dynamic_shared_bytes, l.params, 3, iters, &prof, err, sizeof err) != MT_OK)
        goto fail;
    double ms = (double)prof.median_ns / 1e6;
    double gbps = l.bytes ? l.bytes / (ms * 1e-3) / 1e9 : 0, tflops = l.flops ? l.flops / (ms * 1e-3) / 1e12 : 0;
    const MtCudaFuncInfo *fi = mt_cuda_func_info(fn);
    printf("%-22s %-4s %-16s %9.4f ms %9.1f GB/s %8.2f TFLOP/s  threads %4d  regs %3d  shared %6d B  (%s)\n", cs->row,
           lname, cfg, ms, gbps, tflops, block[0], fi->num_regs, fi->static_smem + (int)shape.dynamic_shared_bytes, prof.timer);
    printf("{\"impl\": \"mytriton-%s\", \"row\": \"%s\", \"config\": \"%s\", \"ms\": %.6f, \"gbps\": %.2f, "
           "\"tflops\": %.4f}\n",
           lname, cs->row, cfg, ms, gbps, tflops);
    mt_profile_free(&prof);
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "gpu_bench: %s %s: %s\n", cs->row, cfg, err);
done:
    for (size_t i = 0; i < l.nbufs; i++)
        mt_cuda_free(cu, l.bufs[i], err, sizeof err);
    if (mod)
        mt_cuda_module_unload(cu, mod, err, sizeof err);
    mt_nvrtc_output_free(&out);
    mt_ctx_free(c);
    return rc;
}

/* Whether --only keeps a row: none given, or the row's name contains one
 * of its comma-separated words. */
static bool selected(const char *row, const char *only)
{
    if (!only)
        return true;
    for (const char *w = only; *w;) {
        size_t n = strcspn(w, ",");
        for (const char *r = row; n && *r; r++)
            if (!strncmp(r, w, n))
                return true;
        w += n + (w[n] == ',');
    }
    return false;
}

/* --make-mlir-ptx: the MLIR cases' PTX for sm_90, written to ptx_dir. */
static int make_mlir_ptx(const char *path, const char *ptx_dir, const char *only)
{
    int failures = 0;
    if (mkdir(ptx_dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "gpu_bench: cannot create %s: %s\n", ptx_dir, strerror(errno));
        return 1;
    }
    for (size_t i = 0; i < NCASES; i++) {
        if (!selected(cases[i].row, only))
            continue;
        MtCtx *c = mt_ctx_new(NULL);
        MtCompiled *k;
        MtNvrtcOutput out;
        char ptx[1024];
        ptx_path(ptx_dir, &cases[i], ptx, sizeof ptx);
        FILE *fp = NULL;
        bool built = build_case(c, path, &cases[i], MT_LOWERING_FAST, MT_CODEGEN_MLIR, NULL, NULL, 90, &k, &out);
        bool ok = built && (fp = fopen(ptx, "w")) && fwrite(out.ptx, 1, out.ptx_len, fp) == out.ptx_len;
        if (fp && fclose(fp) != 0)
            ok = false;
        if (ok)
            printf("wrote %s\n", ptx);
        else
            printf("FAILED %s: %s\n", ptx, built ? strerror(errno) : first_error(c));
        failures += !ok;
        mt_nvrtc_output_free(&out);
        mt_ctx_free(c);
    }
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *path = "bench/kernels.py", *ptx_dir = NULL, *make_dir = NULL, *only = NULL;
    int iters = 20, pos = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--mlir-ptx") && i + 1 < argc)
            ptx_dir = argv[++i];
        else if (!strcmp(argv[i], "--make-mlir-ptx") && i + 1 < argc)
            make_dir = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (pos++ == 0)
            path = argv[i];
        else
            iters = atoi(argv[i]);
    }
    if (make_dir)
        return make_mlir_ptx(path, make_dir, only);
    char err[512];
    MtCuda *cu;
    if (mt_cuda_open(&cu, err, sizeof err) != MT_OK) {
        printf("SKIP: gpu_bench needs a GPU: %s\n", err);
        return 0;
    }
    printf("mytriton on %s (CUPTI kernel time, median of %d)\n", mt_cuda_device_info(cu)->name, iters);
    MtKcache *cache = mt_kcache_open(NULL);
    MtCtx *probe = mt_ctx_new(NULL);
    const char *why = NULL;
    bool mlir = ptx_dir || mt_mlir_available(probe, &why);
    if (!mlir)
        printf("mlir rows skipped: %s (give --mlir-ptx DIR made by --make-mlir-ptx)\n", why);
    mt_ctx_free(probe);
    int failures = 0;
    for (size_t i = 0; i < NCASES; i++) {
        const Case *cs = &cases[i];
        if (!selected(cs->row, only))
            continue;
        /* the seed lowering once per row, with the row's first configuration */
        if (i == 0 || strcmp(cases[i - 1].row, cs->row))
            failures += run_case(cu, cache, path, cs, MT_LOWERING_SEED, MT_CODEGEN_CUDA, NULL, iters);
        failures += run_case(cu, cache, path, cs, MT_LOWERING_FAST, MT_CODEGEN_CUDA, NULL, iters);
        if (mlir)
            failures += run_case(cu, cache, path, cs, MT_LOWERING_FAST, MT_CODEGEN_MLIR, ptx_dir, iters);
    }
    mt_kcache_close(cache);
    mt_cuda_close(cu);
    return failures ? 1 : 0;
}
