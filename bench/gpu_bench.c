/* gpu_bench.c: mytriton's own kernels on the GPU, timed with CUPTI: vector
 * add of 2^28 elements, row softmax of 16384x1024, and fp32 matmul of
 * 1024^3 and 4096^3 (examples/dot.py's tl.dot kernel), each with the seed
 * and the fast lowering, and the fast lowering's cases again through the
 * MLIR code generator (rows "mlir": same kernel layer, PTX from MLIR's GPU
 * pipeline, side by side with the CUDA C++ rows "fast"). Each case
 * compiles the example from source (the
 * signature marks the device buffers and the sizes as multiples of 16, as
 * the runtime does), fills device buffers with random data, and prints
 * the median kernel time over the iterations with the achieved GB/s or
 * TFLOP/s, as a table and as one JSON object per line (for
 * bench/compare_gpu.py, which runs Triton and PyTorch on the same
 * problems). Without a GPU it prints a skip line and exits 0.
 *
 *   gpu_bench [EXAMPLES_DIR] [ITERS] [--mlir-ptx DIR]
 *   gpu_bench [EXAMPLES_DIR] --make-mlir-ptx DIR
 *
 * The GPU machine has no MLIR: --make-mlir-ptx writes the MLIR cases' PTX
 * to DIR (no GPU needed), and --mlir-ptx runs the MLIR rows from there
 * (without it they compile through the MLIR backend, or are skipped with
 * the reason when it is unavailable).
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

typedef struct Case {
    const char *name, *file, *kernel;
    const char *signature;    /* the runtime parameters, with :16 hints */
    const char *defines[3][2];
    int64_t m, n, k;          /* problem sizes (meaning per case) */
    bool report;              /* the configuration compare_gpu.py tabulates */
} Case;

/* A device buffer of `count` uniform random floats. */
static bool random_buffer(MtCuda *cu, int64_t count, uint64_t seed, MtDevPtr *out, char *err, size_t errlen)
{
    MtArrayGen g = {.dtype = MT_DT_F32, .ndim = 1, .shape = {count}, .init = MT_INIT_UNIFORM, .a = -1, .b = 1,
                    .seed = seed};
    MtArray *a;
    if (mt_array_generate(&g, &a, err, errlen) != MT_OK)
        return false;
    bool ok = mt_cuda_alloc(cu, a->nbytes, out, err, errlen) == MT_OK &&
              mt_cuda_memcpy_htod(cu, *out, a->data, a->nbytes, err, errlen) == MT_OK;
    mt_array_free(a);
    return ok;
}

/* DIR/<case>.ptx for the MLIR code generator's PTX of a case. */
static void ptx_path(const char *ptx_dir, const Case *cs, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s-%lld-%s-%s-%s.ptx", ptx_dir, cs->name, (long long)cs->m, cs->defines[0][1],
             cs->defines[1][1] ? cs->defines[1][1] : "", cs->defines[2][1] ? cs->defines[2][1] : "");
}

/* Compile a case: the kernel, and its PTX/cubin for sm (through `cache`;
 * with ptx_dir, the MLIR code generator's PTX read from there and checked). */
static bool build_case(MtCtx *c, const char *dir, const Case *cs, int lowering, int codegen, const char *ptx_dir,
                       MtKcache *cache, int sm, MtCompiled **k, MtNvrtcOutput *out)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/%s", dir, cs->file);
    size_t len;
    char *text = bench_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "gpu_bench: cannot read %s\n", path);
        return false;
    }
    MtModule *m;
    MtDefine defs[3];
    size_t nd = 0;
    for (; nd < 3 && cs->defines[nd][0]; nd++)
        defs[nd] = (MtDefine){cs->defines[nd][0], cs->defines[nd][1]};
    bool given = codegen == MT_CODEGEN_MLIR && ptx_dir;
    MtSpec spec = {.kernel = cs->kernel,
                   .signature = cs->signature,
                   .defines = defs,
                   .ndefines = nd,
                   .last_stage = codegen == MT_CODEGEN_MLIR && !given ? MT_STAGE_MLIR : MT_STAGE_CUDA,
                   .lowering = lowering,
                   .codegen = codegen};
    memset(out, 0, sizeof *out);
    bool ok = mt_parse(c, path, text, len, &m) == MT_OK && mt_compile(c, m, &spec, k) == MT_OK;
    free(text);
    if (ok && given) {
        ptx_path(ptx_dir, cs, path, sizeof path);
        ok = mt_file_read(path, MT_FILE_PTX, &out->ptx, &out->ptx_len, err, sizeof err) == MT_OK;
        if (!ok)
            fprintf(stderr, "gpu_bench: %s\n", err);
        ok = ok && mt_cuda_ptx_check(c, *k, sm, out->ptx, path) == MT_OK;
    } else if (ok) {
        ok = mt_cuda_build(c, *k, cache, sm, out, NULL) == MT_OK;
    }
    for (size_t i = 0; !ok && i < mt_diag_count(c); i++)
        fprintf(stderr, "%s\n", mt_diag_render(c, mt_diag_at(c, i), false));
    return ok;
}

static int run_case(MtCuda *cu, MtKcache *cache, const char *dir, const Case *cs, int lowering, int codegen,
                    const char *ptx_dir, int iters)
{
    char err[1024];
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k;
    MtNvrtcOutput out = {0};
    const MtCudaDeviceInfo *dev = mt_cuda_device_info(cu);
    int rc = 1;
    MtCudaModule *mod = NULL;
    MtCudaFunc *fn;
    MtDevPtr bufs[3] = {0};
    if (!build_case(c, dir, cs, lowering, codegen, ptx_dir, cache, dev->cc_major * 10 + dev->cc_minor, &k, &out))
        goto done;
    /* the MLIR code generator's PTX has no cubin: the driver compiles it */
    if (mt_cuda_module_load(cu, out.cubin_len ? out.cubin : (const void *)out.ptx, cs->kernel, &mod, err,
                            sizeof err) != MT_OK ||
        mt_cuda_module_function(cu, mod, cs->kernel, &fn, err, sizeof err) != MT_OK)
        goto fail;

    MtLaunchShape shape;
    mt_compiled_launch_shape(k, &shape);
    unsigned grid[3] = {1, 1, 1}, block[3] = {shape.threads, 1, 1};
    void *params[12];
    int32_t ints[3], grid_ints[3];
    size_t nparams;
    double bytes = 0, flops = 0;
    if (!strcmp(cs->name, "vector_add")) {
        int64_t n = cs->m;
        for (int i = 0; i < 3; i++)
            if (!random_buffer(cu, n, (uint64_t)i, &bufs[i], err, sizeof err))
                goto fail;
        ints[0] = (int32_t)n;
        void *p[] = {&bufs[0], &bufs[1], &bufs[2], &ints[0]};
        memcpy(params, p, sizeof p);
        nparams = 4;
        grid[0] = (unsigned)(n / 1024);
        bytes = 12.0 * (double)n;
    } else if (!strcmp(cs->name, "softmax")) {
        int64_t rows = cs->m, cols = cs->n;
        for (int i = 0; i < 2; i++)
            if (!random_buffer(cu, rows * cols, (uint64_t)i, &bufs[i], err, sizeof err))
                goto fail;
        ints[0] = (int32_t)cols;
        void *p[] = {&bufs[0], &bufs[1], &ints[0]};
        memcpy(params, p, sizeof p);
        nparams = 3;
        grid[0] = (unsigned)rows;
        bytes = 8.0 * (double)(rows * cols);
    } else {
        int64_t mm = cs->m, nn = cs->n, kk = cs->k;
        if (!random_buffer(cu, mm * kk, 0, &bufs[0], err, sizeof err) ||
            !random_buffer(cu, kk * nn, 1, &bufs[1], err, sizeof err) ||
            !random_buffer(cu, mm * nn, 2, &bufs[2], err, sizeof err))
            goto fail;
        ints[0] = (int32_t)mm;
        ints[1] = (int32_t)nn;
        ints[2] = (int32_t)kk;
        void *p[] = {&bufs[0], &bufs[1], &bufs[2], &ints[0], &ints[1], &ints[2]};
        memcpy(params, p, sizeof p);
        nparams = 6;
        int64_t bm = atoll(cs->defines[0][1]), bn = atoll(cs->defines[1][1]);
        grid[0] = (unsigned)((mm + bm - 1) / bm);
        grid[1] = (unsigned)((nn + bn - 1) / bn);
        flops = 2.0 * (double)mm * (double)nn * (double)kk;
    }
    for (int d = 0; d < 3; d++) {
        grid_ints[d] = (int32_t)grid[d];
        if (shape.grid_params)
            params[nparams + (size_t)d] = &grid_ints[d];
    }
    grid[0] = (grid[0] + shape.programs_per_block - 1) / shape.programs_per_block;
    MtProfile prof;
    if (mt_cuda_profile_launch(cu, fn, cs->kernel, grid, block, params, 3, iters, &prof, err, sizeof err) != MT_OK)
        goto fail;
    double ms = (double)prof.median_ns / 1e6;
    double gbps = bytes ? bytes / (ms * 1e-3) / 1e9 : 0, tflops = flops ? flops / (ms * 1e-3) / 1e12 : 0;
    char config[64] = "";
    if (cs->name[0] == 'm')
        snprintf(config, sizeof config, "%lld^3 %sx%sx%s", (long long)cs->m, cs->defines[0][1], cs->defines[1][1],
                 cs->defines[2][1]);
    const char *lname = codegen == MT_CODEGEN_MLIR ? "mlir" : mt_lowering_name((MtLowering)lowering);
    printf("%-12s %-4s %-20s %10.4f ms  %9.1f GB/s  %8.3f TFLOP/s  threads %d  regs %d  (%s)\n", cs->name, lname,
           config, ms, gbps, tflops, block[0], mt_cuda_func_info(fn)->num_regs, prof.timer);
    if (cs->report)
        printf("{\"impl\": \"mytriton-%s\", \"case\": \"%s%s\", \"ms\": %.6f, \"gbps\": %.2f, \"tflops\": %.4f}\n",
               lname, cs->name, cs->name[0] == 'm' ? (cs->m == 1024 ? "_1024" : "_4096") : "", ms, gbps, tflops);
    mt_profile_free(&prof);
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "gpu_bench: %s: %s\n", cs->name, err);
done:
    for (int i = 0; i < 3; i++)
        if (bufs[i])
            mt_cuda_free(cu, bufs[i], err, sizeof err);
    if (mod)
        mt_cuda_module_unload(cu, mod, err, sizeof err);
    mt_nvrtc_output_free(&out);
    mt_ctx_free(c);
    return rc;
}

/* --make-mlir-ptx: the MLIR cases' PTX for sm_90, written to ptx_dir. */
static int make_mlir_ptx(const char *dir, const Case *cases, size_t n, const char *ptx_dir)
{
    int failures = 0;
    if (mkdir(ptx_dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "gpu_bench: cannot create %s: %s\n", ptx_dir, strerror(errno));
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        MtCtx *c = mt_ctx_new(NULL);
        MtCompiled *k;
        MtNvrtcOutput out;
        char path[1024];
        ptx_path(ptx_dir, &cases[i], path, sizeof path);
        FILE *fp = NULL;
        bool ok = build_case(c, dir, &cases[i], MT_LOWERING_FAST, MT_CODEGEN_MLIR, NULL, NULL, 90, &k, &out) &&
                  (fp = fopen(path, "w")) && fwrite(out.ptx, 1, out.ptx_len, fp) == out.ptx_len;
        if (fp && fclose(fp) != 0)
            ok = false;
        printf("%s %s\n", ok ? "wrote" : "FAILED", path);
        failures += !ok;
        mt_nvrtc_output_free(&out);
        mt_ctx_free(c);
    }
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *dir = "examples", *ptx_dir = NULL, *make_dir = NULL;
    int iters = 20, pos = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--mlir-ptx") && i + 1 < argc)
            ptx_dir = argv[++i];
        else if (!strcmp(argv[i], "--make-mlir-ptx") && i + 1 < argc)
            make_dir = argv[++i];
        else if (pos++ == 0)
            dir = argv[i];
        else
            iters = atoi(argv[i]);
    }
#define ADD_SIG "*fp32:16,*fp32:16,*fp32:16,i32:16"
#define SOFTMAX_SIG "*fp32:16,*fp32:16,i32:16"
#define MM_SIG "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16"
    const Case seed_cases[] = {
        {"vector_add", "add_kernel.py", "add_kernel", ADD_SIG, {{"BLOCK", "1024"}}, (int64_t)1 << 28, 0, 0, true},
        {"softmax", "softmax.py", "softmax_kernel", SOFTMAX_SIG, {{"BLOCK", "1024"}}, 16384, 1024, 0, true},
        {"matmul", "dot.py", "matmul_kernel", MM_SIG, {{"BM", "32"}, {"BN", "32"}, {"BK", "32"}}, 1024, 1024, 1024, true},
        {"matmul", "dot.py", "matmul_kernel", MM_SIG, {{"BM", "32"}, {"BN", "32"}, {"BK", "32"}}, 4096, 4096, 4096, true},
    };
    const Case fast_cases[] = {
        {"vector_add", "add_kernel.py", "add_kernel", ADD_SIG, {{"BLOCK", "1024"}}, (int64_t)1 << 28, 0, 0, true},
        {"softmax", "softmax.py", "softmax_kernel", SOFTMAX_SIG, {{"BLOCK", "1024"}}, 16384, 1024, 0, true},
        {"matmul", "dot.py", "matmul_kernel", MM_SIG, {{"BM", "64"}, {"BN", "64"}, {"BK", "32"}}, 1024, 1024, 1024, false},
        {"matmul", "dot.py", "matmul_kernel", MM_SIG, {{"BM", "128"}, {"BN", "128"}, {"BK", "32"}}, 1024, 1024, 1024, true},
        {"matmul", "dot.py", "matmul_kernel", MM_SIG, {{"BM", "128"}, {"BN", "128"}, {"BK", "32"}}, 4096, 4096, 4096, true},
        {"matmul", "dot.py", "matmul_kernel", MM_SIG, {{"BM", "128"}, {"BN", "128"}, {"BK", "16"}}, 4096, 4096, 4096, false},
        {"matmul", "dot.py", "matmul_kernel", MM_SIG, {{"BM", "64"}, {"BN", "128"}, {"BK", "32"}}, 4096, 4096, 4096, false},
    };
    if (make_dir)
        return make_mlir_ptx(dir, fast_cases, sizeof fast_cases / sizeof fast_cases[0], make_dir);
    char err[512];
    MtCuda *cu;
    if (mt_cuda_open(&cu, err, sizeof err) != MT_OK) {
        printf("SKIP: gpu_bench needs a GPU: %s\n", err);
        return 0;
    }
    printf("mytriton on %s (CUPTI kernel time, median of %d)\n", mt_cuda_device_info(cu)->name, iters);
    MtKcache *cache = mt_kcache_open(NULL);
    int failures = 0;
    for (size_t i = 0; i < sizeof seed_cases / sizeof seed_cases[0]; i++)
        failures += run_case(cu, cache, dir, &seed_cases[i], MT_LOWERING_SEED, MT_CODEGEN_CUDA, NULL, iters);
    /* each fast case through CUDA C++ and through MLIR, side by side */
    MtCtx *probe = mt_ctx_new(NULL);
    const char *why = NULL;
    bool mlir = ptx_dir || mt_mlir_available(probe, &why);
    if (!mlir)
        printf("mlir rows skipped: %s (give --mlir-ptx DIR made by --make-mlir-ptx)\n", why);
    mt_ctx_free(probe);
    for (size_t i = 0; i < sizeof fast_cases / sizeof fast_cases[0]; i++) {
        failures += run_case(cu, cache, dir, &fast_cases[i], MT_LOWERING_FAST, MT_CODEGEN_CUDA, NULL, iters);
        if (mlir)
            failures += run_case(cu, cache, dir, &fast_cases[i], MT_LOWERING_FAST, MT_CODEGEN_MLIR, ptx_dir, iters);
    }
    mt_kcache_close(cache);
    mt_cuda_close(cu);
    return failures ? 1 : 0;
}
