/* check_examples.c: every kernel in examples/ runs in the interpreter and
 * matches a reference computed here with plain C loops.
 *
 * Tolerances: elementwise kernels, matmuls written with * and + (and dot,
 * whose order is documented: each tile's sum over increasing k from 0.0f,
 * then added to the accumulator) and the tree reductions are compared bit
 * for bit against references that do the same float operations in the
 * same order -- the order is part of the semantics. Where a reference is
 * computed differently (in double, or left to right) the bound is stated
 * next to the comparison. expf is the C library's here and in the
 * interpreter, so kernels using tl.exp compare exactly too; against CUDA's
 * expf (2 ulp) they agree to within a few ulp (docs/interpreter.md).
 *
 * Sizes exercise the masked edges: n = 1000 with BLOCK 256, matrices whose
 * sides are not multiples of the tile, K not a multiple of BK, runtime
 * loops that run zero times. The last test makes sure no example kernel
 * is left out of this file.
 */
#include <dirent.h>

#include "exec_test.h"

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* The CUDA shared-memory reduction tree over a padded block. */
static float tree(const float *v, int n, char op)
{
    float *s = malloc((size_t)n * sizeof *s);
    memcpy(s, v, (size_t)n * sizeof *s);
    for (int stride = n / 2; stride > 0; stride >>= 1)
        for (int i = 0; i < stride; i++)
            s[i] = op == '+' ? s[i] + s[i + stride] : op == '>' ? fmaxf(s[i], s[i + stride]) : fminf(s[i], s[i + stride]);
    float r = s[0];
    free(s);
    return r;
}

static float *alloc_floats(size_t n, float fill)
{
    float *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = fill;
    return v;
}

/* ---- elementwise ------------------------------------------------------------------------ */

START_TEST(add_kernel_with_a_masked_tail)
{
    static const int sizes[] = {1000, 1, 256, 4097};
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        int n = sizes[t];
        MtCtx *c = mt_ctx_new(NULL);
        MtCompiled *k = compile_example(c, "add_kernel.py", "add_kernel", "*fp32,*fp32,*fp32,i32,256");
        float *x = random_floats((size_t)n, 1, -10.0f, 10.0f), *y = random_floats((size_t)n, 2, -10.0f, 10.0f);
        float *out = alloc_floats((size_t)n, -1.0f), *want = alloc_floats((size_t)n, 0.0f);
        for (int i = 0; i < n; i++)
            want[i] = x[i] + y[i];
        MtKernelArg args[] = {arr(x, (size_t)n), arr(y, (size_t)n), arr(out, (size_t)n), i32(n)};
        RUN_OK(c, k, cdiv(n, 256), 1, args, 2);
        assert_same_bits(out, want, (size_t)n, "add");
        free(x), free(y), free(out), free(want);
        mt_ctx_free(c);
    }
}
END_TEST

START_TEST(copy_kernel_copies_n_elements)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_example(c, "copy_kernel.py", "copy_kernel", "*fp32,*fp32,i32,128");
    int n = 1000;
    float *x = random_floats((size_t)n, 3, -1.0f, 1.0f), *out = alloc_floats((size_t)n, 0.0f);
    MtKernelArg args[] = {arr(x, (size_t)n), arr(out, (size_t)n), i32(n)};
    RUN_OK(c, k, cdiv(n, 128), 1, args, 1);
    assert_same_bits(out, x, (size_t)n, "copy");
    free(x), free(out);
    mt_ctx_free(c);
}
END_TEST

START_TEST(activations)
{
    int n = 1000;
    float *x = random_floats((size_t)n, 4, -8.0f, 8.0f);
    x[0] = NAN;
    x[1] = -0.0f;
    x[2] = 0.0f;
    x[3] = -INFINITY;
    x[4] = INFINITY;
    float *out = alloc_floats((size_t)n, 0.0f), *want = alloc_floats((size_t)n, 0.0f);
    MtCtx *c = mt_ctx_new(NULL);

    MtCompiled *k = compile_example(c, "activations.py", "relu_kernel", "*fp32,*fp32,i32,128");
    MtKernelArg args[] = {arr(x, (size_t)n), arr(out, (size_t)n), i32(n)};
    RUN_OK(c, k, cdiv(n, 128), 1, args, 2);
    for (int i = 0; i < n; i++)
        want[i] = (isnan(x[i]) || x[i] > 0.0f) ? x[i] : 0.0f; /* maximum(values, 0.0) */
    assert_same_bits(out, want, (size_t)n, "relu");
    ck_assert(isnan(out[0]));

    float slope = 0.01f;
    k = compile_example(c, "activations.py", "leaky_relu_kernel", "*fp32,*fp32,i32,fp32,128");
    MtKernelArg largs[] = {arr(x, (size_t)n), arr(out, (size_t)n), i32(n), f32(0.01)};
    RUN_OK(c, k, cdiv(n, 128), 1, largs, 2);
    for (int i = 0; i < n; i++)
        want[i] = x[i] > 0.0f ? x[i] : x[i] * slope;
    assert_same_bits(out, want, (size_t)n, "leaky_relu");

    k = compile_example(c, "activations.py", "sigmoid_kernel", "*fp32,*fp32,i32,128");
    RUN_OK(c, k, cdiv(n, 128), 1, args, 2);
    double *wd = malloc((size_t)n * sizeof *wd);
    for (int i = 0; i < n; i++) {
        want[i] = 1.0f / (1.0f + expf(-x[i]));
        wd[i] = 1.0 / (1.0 + exp(-(double)x[i]));
    }
    assert_same_bits(out, want, (size_t)n, "sigmoid");
    assert_close(out, wd, (size_t)n, 1e-6, 0.0, "sigmoid vs double"); /* expf + 2 roundings: < 1e-6 relative */
    free(wd);
    free(x), free(out), free(want);
    mt_ctx_free(c);
}
END_TEST

START_TEST(factories)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_example(c, "factories.py", "factories_kernel", "*fp32,8");
    float out[32];
    MtKernelArg args[] = {arr(out, 8)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 8; i++)
        ck_assert_float_eq(out[i], 2.5f);

    k = compile_example(c, "factories.py", "full_2d_kernel", "*fp32,fp32,4,8");
    MtKernelArg args2[] = {arr(out, 32), f32(-1.25)};
    RUN_OK(c, k, 1, 1, args2, 1);
    for (int i = 0; i < 32; i++)
        ck_assert_float_eq(out[i], -1.25f);
    mt_ctx_free(c);
}
END_TEST

START_TEST(tile_shape_stores_each_offset)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_example(c, "tile_shape.py", "tile_shape_kernel", "*fp32,i32,i32,16,32");
    int M = 10, N = 13;
    float *out = alloc_floats((size_t)(M * N), -1.0f);
    MtKernelArg args[] = {arr(out, (size_t)(M * N)), i32(M), i32(N)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < M * N; i++)
        ck_assert_float_eq(out[i], (float)i);
    free(out);
    mt_ctx_free(c);
}
END_TEST

/* ---- matrices ---------------------------------------------------------------------------- */

START_TEST(matrix_add_over_a_2d_grid)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_example(c, "matrix_add.py", "matrix_add_kernel", "*fp32,*fp32,*fp32,i32,256");
    int rows = 5, cols = 300;
    size_t n = (size_t)(rows * cols);
    float *x = random_floats(n, 5, -1.0f, 1.0f), *y = random_floats(n, 6, -1.0f, 1.0f);
    float *out = alloc_floats(n, 0.0f), *want = alloc_floats(n, 0.0f);
    for (size_t i = 0; i < n; i++)
        want[i] = x[i] + y[i];
    MtKernelArg args[] = {arr(x, n), arr(y, n), arr(out, n), i32(cols)};
    RUN_OK(c, k, rows, cdiv(cols, 256), args, 2);
    assert_same_bits(out, want, n, "matrix_add");
    free(x), free(y), free(out), free(want);
    mt_ctx_free(c);
}
END_TEST

START_TEST(matrix_add_2d_with_partial_tiles)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_example(c, "matrix_add_2d.py", "matrix_add_2d_kernel", "*fp32,*fp32,*fp32,i32,i32,16,32");
    int M = 37, N = 45;
    size_t n = (size_t)(M * N);
    float *x = random_floats(n, 7, -1.0f, 1.0f), *y = random_floats(n, 8, -1.0f, 1.0f);
    float *out = alloc_floats(n, 0.0f), *want = alloc_floats(n, 0.0f);
    for (size_t i = 0; i < n; i++)
        want[i] = x[i] + y[i];
    MtKernelArg args[] = {arr(x, n), arr(y, n), arr(out, n), i32(M), i32(N)};
    RUN_OK(c, k, cdiv(M, 16), cdiv(N, 32), args, 2);
    assert_same_bits(out, want, n, "matrix_add_2d");
    free(x), free(y), free(out), free(want);
    mt_ctx_free(c);
}
END_TEST

/* c[i][j] accumulated as acc = acc + a[i][k] * b[k][j] for k = 0..K-1 from 0.0f. */
static void matmul_ref(const float *a, const float *b, float *c, int M, int N, int K)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float acc = 0.0f;
            for (int kk = 0; kk < K; kk++) {
                float p = a[i * K + kk] * b[kk * N + j];
                acc = acc + p;
            }
            c[i * N + j] = acc;
        }
}

START_TEST(matmuls_with_scalar_broadcasts)
{
    MtCtx *c = mt_ctx_new(NULL);
    int M = 10, N = 13, K = 3;
    float *a = random_floats((size_t)(M * K), 9, -1.0f, 1.0f), *b = random_floats((size_t)(K * N), 10, -1.0f, 1.0f);
    float *out = alloc_floats((size_t)(M * N), 0.0f), *want = alloc_floats((size_t)(M * N), 0.0f);
    matmul_ref(a, b, want, M, N, K);

    /* rank-2 tiles, K unrolled at compile time */
    MtCompiled *k = compile_example(c, "matmul_2d.py", "matmul_2d_kernel", "*fp32,*fp32,*fp32,i32,i32,3,4,8");
    MtKernelArg args[] = {arr(a, (size_t)(M * K)), arr(b, (size_t)(K * N)), arr(out, (size_t)(M * N)), i32(M), i32(N)};
    RUN_OK(c, k, cdiv(M, 4), cdiv(N, 8), args, 2);
    assert_same_bits(out, want, (size_t)(M * N), "matmul_2d");

    /* one output row and BLOCK columns per program */
    memset(out, 0, (size_t)(M * N) * sizeof *out);
    k = compile_example(c, "naive_matmul.py", "naive_matmul_kernel", "*fp32,*fp32,*fp32,i32,3,4");
    MtKernelArg nargs[] = {arr(a, (size_t)(M * K)), arr(b, (size_t)(K * N)), arr(out, (size_t)(M * N)), i32(N)};
    RUN_OK(c, k, M, cdiv(N, 4), nargs, 2);
    assert_same_bits(out, want, (size_t)(M * N), "naive_matmul");
    free(a), free(b), free(out), free(want);
    mt_ctx_free(c);
}
END_TEST

START_TEST(matmul_2d_runtime_loop)
{
    static const int ks[] = {7, 1, 0, 33};
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        int M = 10, N = 13, K = ks[t];
        MtCtx *c = mt_ctx_new(NULL);
        MtCompiled *k = compile_example(c, "matmul_2d_runtime.py", "matmul_2d_runtime_kernel",
                                        "*fp32,*fp32,*fp32,i32,i32,i32,4,8");
        float *a = random_floats((size_t)(M * K), 11, -1.0f, 1.0f), *b = random_floats((size_t)(K * N), 12, -1.0f, 1.0f);
        float *out = alloc_floats((size_t)(M * N), -1.0f), *want = alloc_floats((size_t)(M * N), 0.0f);
        matmul_ref(a, b, want, M, N, K);
        MtKernelArg args[] = {arr(a, (size_t)(M * K)), arr(b, (size_t)(K * N)), arr(out, (size_t)(M * N)),
                              i32(M), i32(N), i32(K)};
        RUN_OK(c, k, cdiv(M, 4), cdiv(N, 8), args, 2);
        assert_same_bits(out, want, (size_t)(M * N), "matmul_2d_runtime");
        free(a), free(b), free(out), free(want);
        mt_ctx_free(c);
    }
}
END_TEST

/* tl.dot tiles: for each K tile, t = sum over its k of a * b from 0.0f
 * (masked elements are 0.0), then acc = acc + t. */
static void dot_ref(const float *a, const float *b, float *c, int M, int N, int K, int BK)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float acc = 0.0f;
            for (int k0 = 0; k0 < K; k0 += BK) {
                float t = 0.0f;
                for (int kk = k0; kk < k0 + BK; kk++) {
                    float av = kk < K ? a[i * K + kk] : 0.0f, bv = kk < K ? b[kk * N + j] : 0.0f;
                    float p = av * bv;
                    t = t + p;
                }
                acc = acc + t;
            }
            c[i * N + j] = acc;
        }
}

START_TEST(dot_matmul_with_partial_edge_tiles)
{
    static const int shapes[][3] = {{37, 29, 45}, {16, 16, 16}, {5, 3, 0}, {1, 1, 1}, {8, 9, 17}};
    for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++) {
        int M = shapes[t][0], N = shapes[t][1], K = shapes[t][2];
        MtCtx *c = mt_ctx_new(NULL);
        MtCompiled *k = compile_example(c, "dot.py", "matmul_kernel", "*fp32,*fp32,*fp32,i32,i32,i32,8,8,16");
        float *a = random_floats((size_t)(M * K), 13, -1.0f, 1.0f), *b = random_floats((size_t)(K * N), 14, -1.0f, 1.0f);
        float *out = alloc_floats((size_t)(M * N), -1.0f), *want = alloc_floats((size_t)(M * N), 0.0f);
        dot_ref(a, b, want, M, N, K, 16);
        MtKernelArg args[] = {arr(a, (size_t)(M * K)), arr(b, (size_t)(K * N)), arr(out, (size_t)(M * N)),
                              i32(M), i32(N), i32(K)};
        RUN_OK(c, k, cdiv(M, 8), cdiv(N, 8), args, 2);
        assert_same_bits(out, want, (size_t)(M * N), "matmul (dot)");
        /* and against the exact product: float sums of K terms of size <= 1
         * are within K * 2^-23 of it */
        double *wd = malloc((size_t)(M * N + 1) * sizeof *wd);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double s = 0;
                for (int kk = 0; kk < K; kk++)
                    s += (double)a[i * K + kk] * b[kk * N + j];
                wd[i * N + j] = s;
            }
        assert_close(out, wd, (size_t)(M * N), 0.0, (K + 1) * 1.2e-7, "matmul vs double");
        free(wd);
        free(a), free(b), free(out), free(want);
        mt_ctx_free(c);
    }

    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_example(c, "dot.py", "dot_shapes_kernel", "*fp32,4,16,8");
    float out[32];
    memset(out, 0xff, sizeof out);
    MtKernelArg args[] = {arr(out, 32)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 32; i++)
        ck_assert_uint_eq(bits_of(out[i]), 0); /* zeros @ zeros: +0.0 */
    mt_ctx_free(c);
}
END_TEST

/* ---- reductions ---------------------------------------------------------------------------- */

/* One row per program, padded to BLOCK lanes with `pad`, reduced by the tree. */
static void row_ref(const float *x, float *out, int rows, int cols, int block, float pad, char op)
{
    float *lanes = malloc((size_t)block * sizeof *lanes);
    for (int r = 0; r < rows; r++) {
        for (int l = 0; l < block; l++)
            lanes[l] = l < cols ? x[r * cols + l] : pad;
        out[r] = tree(lanes, block, op);
    }
    free(lanes);
}

START_TEST(row_reductions)
{
    MtCtx *c = mt_ctx_new(NULL);
    int rows = 6, cols = 5;
    float x[30];
    Rng rng = {15};
    for (int i = 0; i < 30; i++)
        x[i] = rng_float(&rng, -100.0f, 100.0f);
    /* row 1 holds a NaN, row 2 is all NaN, row 3 mixes infinities */
    x[5 + 1] = NAN;
    for (int i = 0; i < 5; i++)
        x[10 + i] = NAN;
    x[15] = INFINITY;
    x[16] = -INFINITY;
    float out[6], want[6];

    MtCompiled *k = compile_example(c, "row_reductions.py", "row_sum_kernel", "*fp32,*fp32,i32,8");
    MtKernelArg args[] = {arr(x, 30), arr(out, 6), i32(cols)};
    RUN_OK(c, k, rows, 1, args, 2);
    row_ref(x, want, rows, cols, 8, 0.0f, '+');
    assert_same_bits(out, want, 6, "row_sum");
    double sum0 = 0;
    for (int i = 0; i < 5; i++)
        sum0 += x[i];
    ck_assert(fabs(out[0] - sum0) <= 4 * 100 * 6e-8); /* 5 terms of size <= 100 */
    ck_assert(isnan(out[1]) && isnan(out[3]));        /* NaN, and inf + -inf */

    /* tl.max / tl.min reduce with fmaxf / fminf, which drop a NaN operand:
     * a row's NaNs are ignored, and even an all-NaN row gives the padding
     * lanes' -inf (max) or +inf (min), not NaN */
    k = compile_example(c, "row_reductions.py", "row_max_kernel", "*fp32,*fp32,i32,8");
    RUN_OK(c, k, rows, 1, args, 2);
    row_ref(x, want, rows, cols, 8, -INFINITY, '>');
    assert_same_bits(out, want, 6, "row_max");
    float m1 = -INFINITY;
    for (int i = 5; i < 10; i++)
        if (!isnan(x[i]) && x[i] > m1)
            m1 = x[i];
    ck_assert_float_eq(out[1], m1);
    ck_assert(isinf(out[2]) && out[2] < 0);
    ck_assert(isinf(out[3]) && out[3] > 0);

    k = compile_example(c, "row_reductions.py", "row_min_kernel", "*fp32,*fp32,i32,8");
    RUN_OK(c, k, rows, 1, args, 2);
    row_ref(x, want, rows, cols, 8, INFINITY, '<');
    assert_same_bits(out, want, 6, "row_min");
    ck_assert(isinf(out[2]) && out[2] > 0);

    /* a row as wide as the block, and one much wider than it is long */
    int wide = 1000;
    float *xw = random_floats((size_t)(3 * wide), 16, -1.0f, 1.0f), ow[3], ww[3];
    k = compile_example(c, "row_reductions.py", "row_sum_kernel", "*fp32,*fp32,i32,1024");
    MtKernelArg wargs[] = {arr(xw, (size_t)(3 * wide)), arr(ow, 3), i32(wide)};
    RUN_OK(c, k, 3, 1, wargs, 2);
    row_ref(xw, ww, 3, wide, 1024, 0.0f, '+');
    assert_same_bits(ow, ww, 3, "row_sum 1000 wide");
    free(xw);
    mt_ctx_free(c);
}
END_TEST

START_TEST(long_row_sum_for_several_widths)
{
    static const int widths[][2] = {{10, 4}, {1000, 64}, {4097, 256}, {3, 4}};
    for (size_t t = 0; t < sizeof widths / sizeof widths[0]; t++) {
        int ncols = widths[t][0], block = widths[t][1], rows = 7;
        char sig[64];
        snprintf(sig, sizeof sig, "*fp32,*fp32,%d,%d", ncols, block);
        MtCtx *c = mt_ctx_new(NULL);
        MtCompiled *k = compile_example(c, "long_row_sum.py", "long_row_sum_kernel", sig);
        float *x = random_floats((size_t)(rows * ncols), 17, -1.0f, 1.0f), out[7], want[7];
        double wd[7];
        MtKernelArg args[] = {arr(x, (size_t)(rows * ncols)), arr(out, 7)};
        RUN_OK(c, k, rows, 1, args, 2);
        float *lanes = malloc((size_t)block * sizeof *lanes);
        for (int r = 0; r < rows; r++) {
            /* each lane sums its strided columns (0.0 + v0 + v1 + ...), then the tree */
            for (int l = 0; l < block; l++) {
                float p = 0.0f;
                for (int start = 0; start < ncols; start += block)
                    p = p + (start + l < ncols ? x[r * ncols + start + l] : 0.0f);
                lanes[l] = p;
            }
            want[r] = tree(lanes, block, '+');
            wd[r] = 0;
            for (int i = 0; i < ncols; i++)
                wd[r] += x[r * ncols + i];
        }
        assert_same_bits(out, want, 7, "long_row_sum");
        assert_close(out, wd, 7, 0.0, ncols * 1.2e-7, "long_row_sum vs double"); /* terms of size <= 1 */
        free(lanes);
        free(x);
        mt_ctx_free(c);
    }
}
END_TEST

START_TEST(runtime_sum_loops_k_times)
{
    static const int ks[] = {0, 1, 5, 100};
    float *x = random_floats(100, 18, -1.0f, 1.0f);
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        MtCtx *c = mt_ctx_new(NULL);
        MtCompiled *k = compile_example(c, "runtime_sum.py", "runtime_sum_kernel", "*fp32,*fp32,i32");
        float out = -1.0f, want = 0.0f;
        for (int i = 0; i < ks[t]; i++)
            want = want + x[i];
        MtKernelArg args[] = {arr(x, 100), arr(&out, 1), i32(ks[t])};
        RUN_OK(c, k, 1, 1, args, 1);
        ck_assert_msg(bits_of(out) == bits_of(want), "K=%d: got %g, want %g", ks[t], (double)out, (double)want);
        mt_ctx_free(c);
    }
    free(x);
}
END_TEST

/* ---- softmax ---------------------------------------------------------------------------------- */

/* Reference: the max left to right, numerators with expf like the kernel,
 * the denominator summed in double. */
static void softmax_ref(const float *x, double *want, int rows, int cols)
{
    for (int r = 0; r < rows; r++) {
        const float *v = x + (size_t)r * cols;
        float m = -INFINITY;
        for (int i = 0; i < cols; i++)
            m = isnan(v[i]) || v[i] <= m ? m : v[i];
        double den = 0;
        for (int i = 0; i < cols; i++)
            den += expf(v[i] - m);
        for (int i = 0; i < cols; i++)
            want[(size_t)r * cols + i] = expf(v[i] - m) / den;
    }
}

static void run_softmax(const float *x, float *out, int rows, int cols, int block)
{
    char sig[64];
    snprintf(sig, sizeof sig, "*fp32,*fp32,i32,%d", block);
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_example(c, "softmax.py", "softmax_kernel", sig);
    size_t n = (size_t)rows * cols;
    MtKernelArg args[] = {arr((void *)x, n), arr(out, n), i32(cols)};
    RUN_OK(c, k, rows, 1, args, 2);
    mt_ctx_free(c);
}

START_TEST(softmax_odd_sizes)
{
    int rows = 127, cols = 513;
    size_t n = (size_t)rows * cols;
    float *x = random_floats(n, 19, -30.0f, 30.0f), *out = alloc_floats(n, 0.0f);
    double *want = malloc(n * sizeof *want);
    run_softmax(x, out, rows, cols, 1024);
    softmax_ref(x, want, rows, cols);
    /* tree sum of <= 1024 terms in [0, 1] (7 * 2^-24 relative at most over
     * ~10 levels) plus the division: 2e-6 relative covers it */
    assert_close(out, want, n, 2e-6, 0.0, "softmax 127x513");
    for (int r = 0; r < rows; r++) {
        double s = 0;
        for (int i = 0; i < cols; i++)
            s += out[(size_t)r * cols + i];
        ck_assert(fabs(s - 1.0) < 1e-5);
    }
    free(x), free(out), free(want);
}
END_TEST

START_TEST(softmax_single_column_and_large_values)
{
    float one[5] = {3.0f, -1e30f, 0.0f, 88.0f, -0.0f}, o1[5];
    run_softmax(one, o1, 5, 1, 1);
    for (int i = 0; i < 5; i++)
        ck_assert_float_eq(o1[i], 1.0f);
    run_softmax(one, o1, 5, 1, 8);
    for (int i = 0; i < 5; i++)
        ck_assert_float_eq(o1[i], 1.0f);

    /* exp(1001) overflows float; subtracting the row max keeps it finite */
    float big[6] = {1000.0f, 1001.0f, 999.0f, -1000.0f, -1001.0f, -999.0f}, ob[6];
    double wb[6];
    run_softmax(big, ob, 2, 3, 4);
    softmax_ref(big, wb, 2, 3);
    assert_close(ob, wb, 6, 2e-6, 0.0, "softmax large");
    ck_assert(fabs(ob[0] - 0.24472847) < 1e-6);
    ck_assert(fabs(ob[1] - 0.66524096) < 1e-6);
    ck_assert(fabs(ob[2] - 0.09003057) < 1e-6);
}
END_TEST

START_TEST(softmax_rows_with_infinities_and_nan)
{
    float x[4][3] = {
        {-INFINITY, 0.0f, 1.0f},        /* a -inf element has probability 0 */
        {-INFINITY, -INFINITY, -INFINITY}, /* -inf - -inf is NaN: the whole row is NaN */
        {1.0f, NAN, 2.0f},              /* the max ignores the NaN; its numerator poisons the sum */
        {INFINITY, 0.0f, 1.0f},         /* inf - inf is NaN as well */
    };
    float out[12];
    run_softmax(&x[0][0], out, 4, 3, 4);
    ck_assert_float_eq(out[0], 0.0f);
    ck_assert(fabs(out[1] - 0.26894142) < 1e-6 && fabs(out[2] - 0.73105858) < 1e-6);
    for (int i = 3; i < 12; i++)
        ck_assert_msg(isnan(out[i]), "out[%d] = %g, want nan", i, (double)out[i]);
}
END_TEST

/* GELU on fp16 computed in f32: the interpreter computes each f32
 * operation as C does here, so the fp16 results are identical. */
START_TEST(gelu_on_fp16)
{
    MtCtx *c = mt_ctx_new(NULL);
    int n = 3000;
    float *xf = random_floats((size_t)n, 9, -6.0f, 6.0f);
    uint16_t *x = malloc((size_t)n * 2), *out = malloc((size_t)n * 2);
    for (int i = 0; i < n; i++)
        x[i] = mt_f32_to_f16(xf[i]);
    MtKernelArg args[] = {arr(x, (size_t)n), arr(out, (size_t)n), i32(n)};
    for (int form = 0; form < 2; form++) {
        MtCompiled *k = compile_example(c, "gelu.py", form ? "gelu_tanh_kernel" : "gelu_erf_kernel",
                                        "*fp16,*fp16,i32,1024");
        RUN_OK(c, k, cdiv(n, 1024), 1, args, 2);
        for (int i = 0; i < n; i++) {
            float v = mt_f16_to_f32(x[i]), y;
            if (form) {
                float inner = 0.7978845608028654f * (v + 0.044715f * v * v * v);
                y = 0.5f * v * (1.0f + tanhf(inner));
            } else {
                y = 0.5f * v * (1.0f + erff(v * 0.7071067811865476f));
            }
            ck_assert_msg(out[i] == mt_f32_to_f16(y), "gelu %s [%d] of %g: got 0x%04x want 0x%04x",
                          form ? "tanh" : "erf", i, (double)v, out[i], mt_f32_to_f16(y));
        }
    }
    free(xf), free(x), free(out);
    mt_ctx_free(c);
}
END_TEST

/* Row-wise argmax over tiles of rows (masked columns read -inf) and the
 * fp32 cumulative sum of an fp16 row. */
START_TEST(row_argmax_and_cumsum)
{
    MtCtx *c = mt_ctx_new(NULL);
    int rows = 11, cols = 50;
    float *x = random_floats((size_t)rows * cols, 31, -3.0f, 3.0f);
    x[2 * cols + 7] = x[2 * cols + 9] = 10.0f; /* a tie: the first wins */
    int32_t idx[11];
    MtCompiled *k = compile_example(c, "row_ops.py", "row_argmax_kernel", "*fp32,*i32,i32,i32,i32,4,64");
    MtKernelArg a1[] = {arr(x, (size_t)rows * cols), arr(idx, (size_t)rows), i32(rows), i32(cols), i32(cols)};
    RUN_OK(c, k, cdiv(rows, 4), 1, a1, 2);
    for (int r = 0; r < rows; r++) {
        int best = 0;
        for (int j = 1; j < cols; j++)
            if (x[r * cols + j] > x[r * cols + best])
                best = j;
        ck_assert_int_eq(idx[r], best);
    }
    ck_assert_int_eq(idx[2], 7);
    uint16_t *h = malloc((size_t)rows * cols * 2);
    float *out = malloc((size_t)rows * cols * 4);
    for (int i = 0; i < rows * cols; i++)
        h[i] = mt_f32_to_f16(x[i]);
    k = compile_example(c, "row_ops.py", "row_cumsum_kernel", "*fp16,*fp32,i32,64");
    MtKernelArg a2[] = {arr(h, (size_t)rows * cols), arr(out, (size_t)rows * cols), i32(cols)};
    RUN_OK(c, k, rows, 1, a2, 2);
    for (int r = 0; r < rows; r++) {
        float s = 0;
        for (int j = 0; j < cols; j++) {
            s = j ? s + mt_f16_to_f32(h[r * cols + j]) : mt_f16_to_f32(h[r * cols + j]);
            ck_assert_float_eq(out[r * cols + j], s);
        }
    }
    free(x), free(h), free(out);
    mt_ctx_free(c);
}
END_TEST

/* ---- coverage of examples/ -------------------------------------------------------------------- */

static const char *const covered[] = {
    "relu_kernel", "leaky_relu_kernel", "sigmoid_kernel", "add_kernel", "copy_kernel", "dot_shapes_kernel",
    "matmul_kernel", "factories_kernel", "full_2d_kernel", "long_row_sum_kernel", "matmul_2d_kernel",
    "matmul_2d_runtime_kernel", "matrix_add_kernel", "matrix_add_2d_kernel", "naive_matmul_kernel",
    "row_sum_kernel", "row_max_kernel", "row_min_kernel", "runtime_sum_kernel", "softmax_kernel",
    "tile_shape_kernel", "gelu_erf_kernel", "gelu_tanh_kernel", "row_argmax_kernel", "row_cumsum_kernel",
};

static bool is_helper(const char *name) { return !strcmp(name, "sigmoid"); }

START_TEST(every_example_kernel_is_tested_here)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/examples", MT_SOURCE_DIR);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".py"))
            continue;
        files++;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n;
        char *text = read_text(path, &n);
        MtCtx *c = mt_ctx_new(NULL);
        MtModule *m;
        ck_assert_msg(mt_parse(c, path, text, n, &m) == MT_OK, "%s: %s", path, all_diags(c));
        for (size_t i = 0; i < mt_module_kernel_count(m); i++) {
            const char *name = mt_module_kernel(m, i)->name;
            bool found = is_helper(name);
            for (size_t j = 0; j < sizeof covered / sizeof covered[0] && !found; j++)
                found = !strcmp(covered[j], name);
            ck_assert_msg(found, "%s: kernel %s has no execution test in check_examples.c", e->d_name, name);
        }
        mt_ctx_free(c);
        free(text);
    }
    closedir(d);
    ck_assert_int_ge(files, 15);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("examples");
    TCase *tc = tcase_create("examples");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, add_kernel_with_a_masked_tail);
    tcase_add_test(tc, copy_kernel_copies_n_elements);
    tcase_add_test(tc, activations);
    tcase_add_test(tc, factories);
    tcase_add_test(tc, tile_shape_stores_each_offset);
    tcase_add_test(tc, matrix_add_over_a_2d_grid);
    tcase_add_test(tc, matrix_add_2d_with_partial_tiles);
    tcase_add_test(tc, matmuls_with_scalar_broadcasts);
    tcase_add_test(tc, matmul_2d_runtime_loop);
    tcase_add_test(tc, dot_matmul_with_partial_edge_tiles);
    tcase_add_test(tc, row_reductions);
    tcase_add_test(tc, long_row_sum_for_several_widths);
    tcase_add_test(tc, runtime_sum_loops_k_times);
    tcase_add_test(tc, softmax_odd_sizes);
    tcase_add_test(tc, softmax_single_column_and_large_values);
    tcase_add_test(tc, softmax_rows_with_infinities_and_nan);
    tcase_add_test(tc, gelu_on_fp16);
    tcase_add_test(tc, row_argmax_and_cumsum);
    tcase_add_test(tc, every_example_kernel_is_tested_here);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
