/* check_pointers.c: block pointers (tl.make_block_ptr, tl.advance,
 * boundary_check, padding_option) carried through runtime loops and
 * branches, loop-carried tuples and pointer blocks, the compiler hints
 * (multiple_of, max_contiguous, max_constancy, assume) and the cache /
 * eviction hints, on the interpreter against C references. */
#include "exec_test.h"

static const char *const SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def matmul_bp(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,\n"
    "              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):\n"
    "    pid_m = tl.program_id(0)\n"
    "    pid_n = tl.program_id(1)\n"
    "    a_bp = tl.make_block_ptr(base=a_ptr, shape=(M, K), strides=(sam, sak), offsets=(pid_m * BM, 0),\n"
    "                             block_shape=(BM, BK), order=(1, 0))\n"
    "    b_bp = tl.make_block_ptr(b_ptr, (K, N), (sbk, sbn), (0, pid_n * BN), (BK, BN), (1, 0))\n"
    "    acc = tl.zeros((BM, BN), dtype=tl.float32)\n"
    "    for k in range(0, K, BK):\n"
    "        a = tl.load(a_bp, boundary_check=(0, 1), padding_option='zero', cache_modifier='.cg')\n"
    "        b = tl.load(b_bp, boundary_check=(0, 1), eviction_policy='evict_last')\n"
    "        acc += tl.dot(a, b)\n"
    "        a_bp = tl.advance(a_bp, (0, BK))\n"
    "        b_bp = b_bp.advance((BK, 0))\n"
    "    c_bp = tl.make_block_ptr(base=c_ptr, shape=(M, N), strides=(scm, scn), offsets=(pid_m * BM, pid_n * BN),\n"
    "                             block_shape=(BM, BN), order=(1, 0))\n"
    "    tl.store(c_bp, acc, boundary_check=(0, 1))\n"
    "\n"
    "@triton.jit\n"
    "def padding(x, out, n):\n"
    "    bp = tl.make_block_ptr(x, (n,), (1,), (0,), (8,), (0,))\n"
    "    v = tl.load(bp, boundary_check=(0,), padding_option='nan')\n"
    "    w = tl.load(tl.advance(bp, (4,)), boundary_check=(0,), padding_option='zero')\n"
    "    tl.store(out + tl.arange(0, 8), v)\n"
    "    tl.store(out + 8 + tl.arange(0, 8), w)\n"
    "\n"
    "@triton.jit\n"
    "def carried(x, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    ptrs = x + offs\n"
    "    pair = (0.0, 1.0)\n"
    "    bp = tl.make_block_ptr(x, (n,), (1,), (0,), (BLOCK,), (0,))\n"
    "    for i in range(0, n // BLOCK):\n"
    "        v = tl.load(ptrs)\n"
    "        pair = (pair[0] + tl.sum(v, axis=0), pair[1] * 2.0)\n"
    "        ptrs += BLOCK\n"
    "        if i % 2 == 0:\n"
    "            bp = tl.advance(bp, (BLOCK,))\n"
    "    tl.store(out, pair[0])\n"
    "    tl.store(out + 1, pair[1])\n"
    "    tl.store(out + 2, tl.sum(tl.load(bp, boundary_check=(0,)), axis=0))\n"
    "\n"
    "@triton.jit\n"
    "def hints(x, out, n, BLOCK: tl.constexpr):\n"
    "    pid = tl.program_id(0)\n"
    "    start = tl.multiple_of(pid * BLOCK, BLOCK)\n"
    "    offs = tl.max_contiguous(tl.multiple_of(start + tl.arange(0, BLOCK), BLOCK), BLOCK)\n"
    "    k = tl.max_constancy(offs // BLOCK, BLOCK)\n"
    "    tl.assume(n > 0)\n"
    "    m = offs < n\n"
    "    tl.store(out + offs, tl.load(x + offs, mask=m) + k, mask=m, cache_modifier='.wb',\n"
    "             eviction_policy='evict_first')\n";

static MtCompiled *kern(MtCtx *c, const char *name, const char *sig) { return compile_text(c, "p.py", SRC, name, sig); }

START_TEST(block_pointer_matmul)
{
    enum { M = 19, N = 13, K = 21 };
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "matmul_bp", "*fp32,*fp32,*fp32,i32,i32,i32,i32,i32,i32,i32,i32,i32,16,8,8");
    float *a = random_floats(M * K, 1, -1, 1), *b = random_floats(K * N, 2, -1, 1), cc[M * N];
    MtKernelArg args[] = {arr(a, M * K), arr(b, K * N), arr(cc, M * N), i32(M), i32(N), i32(K),
                          i32(K), i32(1), i32(N), i32(1), i32(N), i32(1)};
    RUN_OK(c, k, (M + 15) / 16, (N + 7) / 8, args, 2);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int kk = 0; kk < K; kk++)
                s += (double)a[i * K + kk] * b[kk * N + j];
            ck_assert_msg(fabs(cc[i * N + j] - s) < 1e-5, "c[%d][%d] = %g, want %g", i, j, (double)cc[i * N + j], s);
        }
    free(a), free(b);
    mt_ctx_free(c);
}
END_TEST

START_TEST(boundary_check_padding)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "padding", "*fp32,*fp32,i32");
    float x[6] = {1, 2, 3, 4, 5, 6}, out[16];
    MtKernelArg args[] = {arr(x, 6), arr(out, 16), i32(6)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 8; i++) {
        if (i < 6)
            ck_assert_float_eq(out[i], x[i]);
        else
            ck_assert(isnan(out[i]));
        ck_assert_float_eq(out[8 + i], i + 4 < 6 ? x[i + 4] : 0.0f);
    }
    mt_ctx_free(c);
}
END_TEST

START_TEST(carried_tuples_pointers_block_pointers)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "carried", "*fp32,*fp32,i32,4");
    float x[20], out[3];
    for (int i = 0; i < 20; i++)
        x[i] = (float)i;
    MtKernelArg args[] = {arr(x, 20), arr(out, 3), i32(20)};
    RUN_OK(c, k, 1, 1, args, 1);
    ck_assert_float_eq(out[0], 190.0f);
    ck_assert_float_eq(out[1], 32.0f);
    /* 5 iterations, advanced on i = 0, 2, 4: offset 12 */
    ck_assert_float_eq(out[2], 12 + 13 + 14 + 15);
    mt_ctx_free(c);
}
END_TEST

START_TEST(hints_keep_values)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "hints", "*fp32,*fp32,i32,8");
    float x[20], out[20];
    for (int i = 0; i < 20; i++)
        x[i] = (float)i * 0.5f;
    MtKernelArg args[] = {arr(x, 20), arr(out, 20), i32(20)};
    RUN_OK(c, k, 3, 1, args, 2);
    for (int i = 0; i < 20; i++)
        ck_assert_float_eq(out[i], x[i] + (float)(i / 8));
    mt_ctx_free(c);
}
END_TEST

static void expect_error(const char *body, const char *code, const char *text)
{
    char src[2048];
    snprintf(src, sizeof src,
             "import triton\nimport triton.language as tl\n@triton.jit\ndef k(x, o, n):\n"
             "    i = tl.arange(0, 8)\n%s",
             body);
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    ck_assert_int_eq(mt_parse(c, "e.py", src, strlen(src), &m), MT_OK);
    MtSpec spec = {.signature = "*fp32,*fp32,i32"};
    MtCompiled *k;
    ck_assert_int_ne(mt_compile(c, m, &spec, &k), MT_OK);
    const char *d = all_diags(c);
    ck_assert_msg(strstr(d, code) && strstr(d, text), "want %s '%s', got %s", code, text, d);
    mt_ctx_free(c);
}

START_TEST(errors)
{
    expect_error("    tl.store(o + i, tl.load(x + i, cache_modifier='.xx'))\n", "E0406",
                 "tl.load cache_modifier must be one of");
    expect_error("    tl.store(o + i, tl.load(x + i), eviction_policy='evict_some')\n", "E0406",
                 "tl.store eviction_policy must be one of");
    expect_error("    bp = tl.make_block_ptr(x, (n,), (1,), (0,), (6,), (0,))\n", "E0406",
                 "block_shape entries must be powers of two");
    expect_error("    bp = tl.make_block_ptr(x, (n,), (1,), (0,), (8,), (0,))\n"
                 "    tl.store(o + i, tl.load(bp, boundary_check=(1,)))\n",
                 "E0406", "boundary_check dimension 1 is out of range");
    expect_error("    bp = tl.make_block_ptr(x, (n,), (1,), (0,), (8,), (0,))\n"
                 "    tl.store(o + i, tl.load(bp, mask=i < n))\n",
                 "E0406", "takes boundary_check and padding_option, not mask or other");
    expect_error("    tl.store(o + i, tl.multiple_of(tl.load(x + i), 8))\n", "E0406", "tl.multiple_of applies to integers");
    expect_error("    tl.store(o + i, tl.load(x + tl.multiple_of(i, (8, 8))))\n", "E0406",
                 "tl.multiple_of takes one value per dimension");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pointers");
    TCase *t = tcase_create("pointers");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, block_pointer_matmul);
    tcase_add_test(t, boundary_check_padding);
    tcase_add_test(t, carried_tuples_pointers_block_pointers);
    tcase_add_test(t, hints_keep_values);
    tcase_add_test(t, errors);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
