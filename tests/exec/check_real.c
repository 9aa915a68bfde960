/* check_real.c: what real kernel files do around and inside their jit
 * functions, the way the popular kernel libraries write them, compiled
 * from whole files (host code included) and run on the interpreter
 * against references computed here in C:
 *   - `f = triton.jit(f)` at module level;
 *   - libdevice functions imported at module level inside a host `if`
 *     (a version check) with a try / except ImportError inside it;
 *   - device functions that return a value are helpers, never kernels,
 *     even when nothing in the file calls them;
 *   - a number assigned in a kernel is a tensor (`zero = 0.0;
 *     zero.to(x.dtype)`), a dtype called on a value casts it
 *     (`tl.float32(0.0)`), shape () is a scalar (`tl.full((), ...)`);
 *   - dtype constexprs given as tl.float16 / torch.float32 (-D);
 *   - `out.dtype.element_ty` on a pointer computed from a parameter that
 *     no signature types (the editor's and `check`'s inference), and
 *     pointers whose loaded values are offsets or loop bounds typed *i32
 *     by that inference;
 *   - a runtime loop inside a runtime `if` carrying values made before
 *     the `if`; tl.extra.cuda.gdc_wait / gdc_launch_dependents. */
#include "exec_test.h"

static const char *const NORM_FILE =
    "import operator\n"
    "import torch\n"
    "import triton\n"
    "import triton.language as tl\n"
    "from mylib.utils import compare_version, pick_block\n"
    "\n"
    "if compare_version('triton', operator.ge, '3.0.0'):\n"
    "    try:\n"
    "        from triton.language.extra.libdevice import rsqrt\n"
    "    except ModuleNotFoundError:\n"
    "        from triton.language.extra.cuda.libdevice import rsqrt\n"
    "else:\n"
    "    from triton.language.math import rsqrt\n"
    "\n"
    "@triton.jit\n"
    "def leaky(x, slope):\n"
    "    zero = 0.0\n"
    "    return tl.where(x >= zero.to(x.dtype), x, x * slope)\n"
    "\n"
    "@triton.jit\n"
    "def unused_gelu(x):\n"
    "    return 0.5 * x * (1 + tl.erf(x * 0.7071067811865476))\n"
    "\n"
    "@triton.jit\n"
    "def norm_act_fwd(Y, X, W, stride, n_cols, eps, ACC_DTYPE: tl.constexpr, BLOCK: tl.constexpr):\n"
    "    row = tl.program_id(0)\n"
    "    cols = tl.arange(0, BLOCK)\n"
    "    mask = cols < n_cols\n"
    "    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(ACC_DTYPE)\n"
    "    acc = tl.full((), 0.0, ACC_DTYPE)\n"
    "    peak = tl.float32(-float('inf'))\n"
    "    acc += tl.sum(x * x, axis=0)\n"
    "    peak = tl.maximum(peak, tl.max(tl.abs(x), axis=0))\n"
    "    inv = rsqrt(acc / n_cols + eps)\n"
    "    w = tl.load(W + cols, mask=mask, other=0.0)\n"
    "    y = leaky(x * inv * w, 0.125) / peak\n"
    "    out = Y + row * stride\n"
    "    tl.store(out + cols, y.to(out.dtype.element_ty), mask=mask)\n"
    "\n"
    "class NormAct(torch.autograd.Function):\n"
    "    @staticmethod\n"
    "    def forward(ctx, x, w, eps):\n"
    "        n_rows, n_cols = x.shape\n"
    "        y = torch.empty_like(x)\n"
    "        norm_act_fwd[(n_rows,)](y, x, w, x.stride(0), n_cols, eps, ACC_DTYPE=tl.float32,\n"
    "                                BLOCK=pick_block(n_cols))\n"
    "        return y\n";

static MtModule *parse_ok(MtCtx *c, const char *path, const char *text)
{
    MtModule *m = NULL;
    ck_assert_msg(mt_parse(c, path, text, strlen(text), &m) == MT_OK, "parse: %s", all_diags(c));
    return m;
}

/* The reference of norm_act_fwd for one row, in double. */
static void norm_act_row(const float *x, const float *w, int n, double eps, double *y)
{
    double ss = 0, peak = 0;
    for (int i = 0; i < n; i++) {
        ss += (double)x[i] * x[i];
        peak = fmax(peak, fabs(x[i]));
    }
    double inv = 1.0 / sqrt(ss / n + eps);
    for (int i = 0; i < n; i++) {
        double v = x[i] * inv * w[i];
        y[i] = (v >= 0 ? v : v * 0.125) / peak;
    }
}

START_TEST(library_norm_file_runs)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m = parse_ok(c, "norm_act.py", NORM_FILE);
    /* the two value-returning functions are helpers; one kernel is left */
    ck_assert(mt_query_is_helper(m, 0));
    ck_assert(mt_query_is_helper(m, 1));
    ck_assert(!mt_query_is_helper(m, 2));
    ck_assert(mt_query_returns_value(m, 1));
    MtDefine defs[] = {{"ACC_DTYPE", "tl.float32"}, {"BLOCK", "64"}};
    MtSpec spec = {.defines = defs, .ndefines = 2, .infer_params = true};
    MtCompiled *k = NULL;
    ck_assert_msg(mt_compile(c, m, &spec, &k) == MT_OK, "compile: %s", all_diags(c));

    enum { ROWS = 3, N = 50 };
    float *x = random_floats(ROWS * N, 7, -2.0f, 2.0f), *w = random_floats(N, 8, 0.5f, 1.5f);
    float y[ROWS * N];
    MtKernelArg args[] = {arr(y, ROWS * N), arr(x, ROWS * N), arr(w, N), i32(N), i32(N), f32(1e-5)};
    RUN_OK(c, k, ROWS, 1, args, 2);
    for (int r = 0; r < ROWS; r++) {
        double want[N];
        norm_act_row(x + r * N, w, N, 1e-5, want);
        assert_close(y + r * N, want, N, 1e-5, 1e-6, "y");
    }
    free(x);
    free(w);
    mt_ctx_free(c);
}
END_TEST

/* The same dtype constexpr spelled as torch does, and a bad one. */
START_TEST(dtype_values_for_constexprs)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m = parse_ok(c, "norm_act.py", NORM_FILE);
    MtDefine defs[] = {{"ACC_DTYPE", "torch.float32"}, {"BLOCK", "64"}};
    MtSpec spec = {.kernel = "norm_act_fwd", .signature = "*fp16,*fp16,*fp32,i32,i32,fp32", .defines = defs,
                   .ndefines = 2};
    MtCompiled *k = NULL;
    ck_assert_msg(mt_compile(c, m, &spec, &k) == MT_OK, "compile: %s", all_diags(c));
    mt_ctx_free(c);

    c = mt_ctx_new(NULL);
    m = parse_ok(c, "norm_act.py", NORM_FILE);
    defs[0].value = "tl.float33";
    ck_assert(mt_compile(c, m, &spec, &k) != MT_OK);
    ck_assert_msg(strstr(all_diags(c), "a dtype such as tl.float16") && strstr(all_diags(c), "E0303"), "%s",
                  all_diags(c));
    mt_ctx_free(c);
}
END_TEST

/* A kernel called with one value: tl.float16(x) rounds to f16, tl.int32
 * truncates, a 0-d zeros is 0 of its dtype; x.to on an assigned int. */
START_TEST(dtype_calls_and_scalar_shapes)
{
    static const char *const SRC = "import triton\n"
                                   "import triton.language as tl\n"
                                   "@triton.jit\n"
                                   "def k(x_ptr, out):\n"
                                   "    x = tl.load(x_ptr)\n"
                                   "    one = 1\n"
                                   "    z = tl.zeros((), tl.int64)\n"
                                   "    tl.static_assert(z.dtype == tl.int64)\n"
                                   "    tl.static_assert(one.to(tl.float16).dtype == tl.float16)\n"
                                   "    tl.static_assert(tl.full([], 3, tl.int8).dtype == tl.int8)\n"
                                   "    tl.store(out, tl.float16(x).to(tl.float32))\n"
                                   "    tl.store(out + 1, tl.int32(x).to(tl.float32))\n"
                                   "    tl.store(out + 2, (z + one).to(tl.float32))\n"
                                   "    tl.store(out + 3, tl.full((), 2.5, tl.float32) * one.to(tl.float32))\n";
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_text(c, "k.py", SRC, "k", "*fp32,*fp32");
    float x[1] = {3.14159265f}, out[4];
    MtKernelArg args[] = {arr(x, 1), arr(out, 4)};
    RUN_OK(c, k, 1, 1, args, 1);
    ck_assert_float_eq(out[0], 3.140625f); /* the nearest f16 */
    ck_assert_float_eq(out[1], 3.0f);
    ck_assert_float_eq(out[2], 1.0f);
    ck_assert_float_eq(out[3], 2.5f);
    mt_ctx_free(c);
}
END_TEST

/* A runtime loop inside a runtime `if` carrying a block made before the
 * `if` (grouped-GEMM kernels accumulate per expert this way): the block
 * is an outer value of the branch, lowered before it. range() ignores
 * flatten=, as Triton does. */
START_TEST(loop_in_branch_carries_an_outer_block)
{
    static const char *const SRC = "import triton\n"
                                   "import triton.language as tl\n"
                                   "@triton.jit\n"
                                   "def per_group(out, sizes, x, E: tl.constexpr, BM: tl.constexpr):\n"
                                   "    offs = tl.arange(0, BM)\n"
                                   "    m_end = 0\n"
                                   "    for e in range(E, flatten=True):\n"
                                   "        acc = tl.zeros((BM,), dtype=tl.float32)\n"
                                   "        pair = (acc, tl.load(x + offs))\n"
                                   "        m_start = m_end\n"
                                   "        m_size = tl.load(sizes + e)\n"
                                   "        m_end = m_start + m_size\n"
                                   "        if m_size > 0:\n"
                                   "            for t in range(0, m_size, 2):\n"
                                   "                acc += tl.load(x + m_start + t + offs)\n"
                                   "                pair = (pair[0] + 1.0, pair[1])\n"
                                   "        tl.store(out + e * BM + offs, acc + pair[0] * pair[1])\n";
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_text(c, "per_group.py", SRC, "per_group", "*fp32,*i32,*fp32,3,8");
    enum { E = 3, BM = 8 };
    int32_t sizes[E] = {5, 0, 4};
    float *x = random_floats(32, 11, -1.0f, 1.0f), out[E * BM];
    MtKernelArg args[] = {arr(out, E * BM), arr(sizes, E), arr(x, 32)};
    RUN_OK(c, k, 1, 1, args, 1);
    int start = 0;
    for (int e = 0; e < E; e++) {
        double want[BM];
        for (int i = 0; i < BM; i++) {
            double acc = 0, n = 0;
            for (int t = 0; t < sizes[e]; t += 2, n++)
                acc += x[start + t + i];
            want[i] = acc + n * x[i];
        }
        assert_close(out + e * BM, want, BM, 1e-6, 1e-6, "out");
        start += sizes[e];
    }
    free(x);
    mt_ctx_free(c);
}
END_TEST

/* No signature (check, the editor): a pointer whose loaded values are
 * offsets or loop bounds holds integers (*i32), not the default *fp32.
 * An embedding lookup and a per-row count, run with i32 inputs. */
START_TEST(index_pointers_are_integers_without_a_signature)
{
    static const char *const SRC = "import triton\n"
                                   "import triton.language as tl\n"
                                   "@triton.jit\n"
                                   "def embed(ids, weight, out, counts, x, D: tl.constexpr, R: tl.constexpr):\n"
                                   "    pid = tl.program_id(0)\n"
                                   "    cols = tl.arange(0, D)\n"
                                   "    row = tl.load(ids + pid)\n"
                                   "    w = tl.load(weight + row * D + cols)\n"
                                   "    acc = tl.zeros((D,), tl.float32)\n"
                                   "    for i in range(0, tl.load(counts + pid)):\n"
                                   "        acc += tl.load(x + tl.where(tl.load(x) > 0.5, i, 0))\n"
                                   "    tl.store(out + pid * D + cols, w + acc)\n";
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m = parse_ok(c, "embed.py", SRC);
    MtDefine defs[] = {{"D", "4"}, {"R", "3"}};
    MtSpec spec = {.defines = defs, .ndefines = 2, .infer_params = true};
    MtCompiled *k = NULL;
    ck_assert_msg(mt_compile(c, m, &spec, &k) == MT_OK, "compile: %s", all_diags(c));
    ck_assert_str_eq(mt_compiled_signature(c, k), "*i32,*fp32,*fp32,*i32,*fp32,4,3");
    int32_t ids[3] = {2, 0, 2}, counts[3] = {1, 3, 0};
    float weight[12], out[12], x[4] = {0.75f, 1.0f, 2.0f, 4.0f};
    for (int i = 0; i < 12; i++)
        weight[i] = (float)i * 0.5f;
    MtKernelArg args[] = {arr(ids, 3), arr(weight, 12), arr(out, 12), arr(counts, 3), arr(x, 4)};
    RUN_OK(c, k, 3, 1, args, 1);
    for (int r = 0; r < 3; r++)
        for (int j = 0; j < 4; j++) {
            double acc = 0;
            for (int i = 0; i < counts[r]; i++)
                acc += x[i];
            ck_assert_float_eq(out[r * 4 + j], (float)(weight[ids[r] * 4 + j] + acc));
        }
    mt_ctx_free(c);
}
END_TEST

/* Programmatic dependent launch hints (Triton's tutorial 11): no
 * operation here, since grids never overlap; the kernel runs as written. */
START_TEST(gdc_hints_run_as_no_operations)
{
    static const char *const SRC = "import triton\n"
                                   "import triton.language as tl\n"
                                   "@triton.jit\n"
                                   "def add(x, y, out, n, BLOCK: tl.constexpr, USE_GDC: tl.constexpr):\n"
                                   "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                                   "    mask = offs < n\n"
                                   "    if USE_GDC:\n"
                                   "        tl.extra.cuda.gdc_wait()\n"
                                   "    a = tl.load(x + offs, mask=mask)\n"
                                   "    b = tl.load(y + offs, mask=mask)\n"
                                   "    if USE_GDC:\n"
                                   "        tl.extra.cuda.gdc_launch_dependents()\n"
                                   "    tl.store(out + offs, a + b, mask=mask)\n";
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_text(c, "add.py", SRC, "add", "*fp32,*fp32,*fp32,i32,8,True");
    float x[10], y[10], out[10];
    for (int i = 0; i < 10; i++) {
        x[i] = (float)i;
        y[i] = 0.5f * (float)i;
    }
    MtKernelArg args[] = {arr(x, 10), arr(y, 10), arr(out, 10), i32(10)};
    RUN_OK(c, k, 2, 1, args, 2);
    for (int i = 0; i < 10; i++)
        ck_assert_float_eq(out[i], 1.5f * (float)i);
    mt_ctx_free(c);
}
END_TEST

/* `f = triton.jit(f)` at module level makes f a jit function, as the
 * decorator does; the helper wrapped that way is inlined. */
START_TEST(jit_applied_by_assignment)
{
    static const char *const SRC = "import triton\n"
                                   "import triton.language as tl\n"
                                   "def twice(x):\n"
                                   "    return x * 2\n"
                                   "def scale(x_ptr, out, n, BLOCK: tl.constexpr):\n"
                                   "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                                   "    x = tl.load(x_ptr + offs, mask=offs < n)\n"
                                   "    tl.store(out + offs, twice(x) + 1, mask=offs < n)\n"
                                   "twice = triton.jit(twice)\n"
                                   "scale = triton.jit(scale, do_not_specialize=['n'])\n";
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_text(c, "scale.py", SRC, NULL, "*fp32,*fp32,i32,4");
    float x[6] = {1, 2, 3, 4, 5, 6}, out[6];
    MtKernelArg args[] = {arr(x, 6), arr(out, 6), i32(6)};
    RUN_OK(c, k, 2, 1, args, 1);
    for (int i = 0; i < 6; i++)
        ck_assert_float_eq(out[i], 2 * x[i] + 1);
    mt_ctx_free(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("real");
    TCase *t = tcase_create("real");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, library_norm_file_runs);
    tcase_add_test(t, dtype_values_for_constexprs);
    tcase_add_test(t, dtype_calls_and_scalar_shapes);
    tcase_add_test(t, loop_in_branch_carries_an_outer_block);
    tcase_add_test(t, index_pointers_are_integers_without_a_signature);
    tcase_add_test(t, gdc_hints_run_as_no_operations);
    tcase_add_test(t, jit_applied_by_assignment);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
