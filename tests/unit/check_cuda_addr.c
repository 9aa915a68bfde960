/* check_cuda_addr.c: how the CUDA printer addresses global memory
 * (compiler/cuda/addr.c, kcuda.c) and the contiguity facts that decide a
 * store's width (compiler/kernel/axis.c): offsets advanced through a loop
 * become pointers that the copies use as they are, offsets computed once
 * stay param[offset], and a unit stride written on the left (`stride *
 * offs`, specialised to 1) keeps the offsets contiguous. */
#include "../test_util.h"

static const char src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def mm(a, b, c, K, stride_am, stride_bk, stride_cm, stride_cn, BM: tl.constexpr, BN: tl.constexpr,\n"
    "       BK: tl.constexpr):\n"
    "    rm = tl.arange(0, BM)\n"
    "    rn = tl.arange(0, BN)\n"
    "    rk = tl.arange(0, BK)\n"
    "    a_ptrs = a + rm[:, None] * stride_am + rk[None, :]\n"
    "    b_ptrs = b + rk[:, None] * stride_bk + rn[None, :]\n"
    "    acc = tl.zeros((BM, BN), dtype=tl.float32)\n"
    "    for k in range(0, tl.cdiv(K, BK)):\n"
    "        x = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)\n"
    "        y = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)\n"
    "        acc = tl.dot(x, y, acc)\n"
    "        a_ptrs += BK\n"
    "        b_ptrs += BK * stride_bk\n"
    "    tl.store(c + stride_cm * rm[:, None] + stride_cn * rn[None, :], acc.to(tl.float16))\n"
    "\n"
    "@triton.jit\n"
    "def mm32(a, b, c, K, stride_am, stride_bk, stride_cm, stride_cn, BM: tl.constexpr, BN: tl.constexpr,\n"
    "         BK: tl.constexpr):\n"
    "    rm = tl.arange(0, BM)\n"
    "    rn = tl.arange(0, BN)\n"
    "    rk = tl.arange(0, BK)\n"
    "    acc = tl.zeros((BM, BN), dtype=tl.float32)\n"
    "    for k in range(0, tl.cdiv(K, BK)):\n"
    "        x = tl.load(a + rm[:, None] * stride_am + (k * BK + rk)[None, :])\n"
    "        y = tl.load(b + (k * BK + rk)[:, None] * stride_bk + rn[None, :])\n"
    "        acc += tl.dot(x, y)\n"
    "    tl.store(c + stride_cm * rm[:, None] + stride_cn * rn[None, :], acc)\n"
    "\n"
    "@triton.jit\n"
    "def add(x, y, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    m = offs < n\n"
    "    tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)\n";

static char cuda[1 << 20];

static const char *compile(const char *kernel, const char *sig, int num_warps)
{
    return test_stage_text(src, kernel, sig, num_warps, MT_STAGE_CUDA, cuda, sizeof cuda);
}

#define MM_SIG "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,1,128,128,32"

START_TEST(carried_offsets_become_pointers)
{
    const char *t = compile("mm", MM_SIG, 4);
    /* the tiles' copies read through pointers into a and b, advanced by
     * the loop, never a[offset] */
    ck_assert_int_gt(test_count(t, "cp.async.cg.shared.global"), 0);
    ck_assert_int_eq(test_count(t, "\"l\"(&a["), 0);
    ck_assert_int_eq(test_count(t, "\"l\"(&b["), 0);
    ck_assert_int_gt(test_count(t, "\"l\"(v"), 0);
    ck_assert_int_gt(test_count(t, "mt_f16 * c"), 1); /* the carried blocks */
    ck_assert_ptr_nonnull(strstr(t, "(a + "));   /* their first value */
}
END_TEST

START_TEST(swizzled_neighbours_share_a_shared_address)
{
    /* each of the three tiles (two before the loop, one in it): A's
     * 128 x 32 halves (64-byte swizzle) copied by 128 threads in four
     * rows 32 apart, one swizzled address and the others 2048 bytes
     * (1024 halves) on each; B's 32 x 128 (128-byte swizzle) in four rows
     * 8 apart, 1024 bytes (512 halves) on each */
    const char *t = compile("mm", MM_SIG, 4);
    ck_assert_int_eq(test_count(t, "cp.async.cg.shared.global"), 3 * (4 + 4));
    ck_assert_int_eq(test_count(t, ") + 512)]);"), 3);
    ck_assert_int_eq(test_count(t, ") + 1024)]);"), 3 + 3);
    ck_assert_int_eq(test_count(t, ") + 1536)]);"), 3);
    ck_assert_int_eq(test_count(t, ") + 2048)]);"), 3);
    ck_assert_int_eq(test_count(t, ") + 3072)]);"), 3);
}
END_TEST

START_TEST(offsets_used_once_stay_offsets)
{
    const char *t = compile("add", "*fp32:16,*fp32:16,*fp32:16,i32:16,1024", 4);
    ck_assert_int_eq(test_count(t, "float * "), 0);
    ck_assert_int_eq(test_count(t, "*(const uint4 *)&x["), 2);
    ck_assert_int_eq(test_count(t, "*(uint4 *)&out["), 2);
}
END_TEST

START_TEST(a_unit_stride_on_the_left_keeps_stores_wide)
{
    /* `stride_cn * rn` with stride_cn specialised to 1: the warpgroup
     * result's column pairs are stored as 4-byte pairs of halves */
    const char *t = compile("mm", MM_SIG, 4);
    ck_assert_int_eq(test_count(t, "*(unsigned int *)"), 64);
}
END_TEST

START_TEST(a_cuda_core_accumulator_is_stored_in_words)
{
    /* f32 tiles multiplied on CUDA cores: the loop's accumulator is stored
     * from its registers 4 bytes at a time, the same contiguous offsets
     * (lower_mem.c: vectors would bind those registers to aligned quads
     * through the loop) */
    const char *t = compile("mm32", "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,i32:16,1,64,64,32", 4);
    ck_assert_int_eq(test_count(t, "*(uint4 *)"), 0);
    ck_assert_int_eq(test_count(t, "*(uint2 *)"), 0);
    ck_assert_int_eq(test_count(t, "\n    *v"), 64 * 64 / 128); /* through the pointers of the epilogue */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cuda_addr");
    TCase *k = tcase_create("addresses");
    tcase_add_test(k, carried_offsets_become_pointers);
    tcase_add_test(k, swizzled_neighbours_share_a_shared_address);
    tcase_add_test(k, offsets_used_once_stay_offsets);
    tcase_add_test(k, a_unit_stride_on_the_left_keeps_stores_wide);
    tcase_add_test(k, a_cuda_core_accumulator_is_stored_in_words);
    suite_add_tcase(s, k);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
