/* check_launch_shape.c: the warps the fast lowering chooses when the
 * launch gives none (compiler/kernel/lower.c, launch_shape): about two
 * 16-byte vectors a thread for elementwise blocks, about 32 accumulators
 * a thread for a tl.dot on CUDA cores and 128 for one on tensor cores (the
 * H200's measurements, docs/cuda-backend.md), 1 to 8 warps, one-warp
 * programs four to a block; num_warps overrides. */
#include "../test_util.h"

static const char src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def add(x, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(out + offs, tl.load(x + offs, mask=offs < n) + 1.0, mask=offs < n)\n"
    "\n"
    "@triton.jit\n"
    "def mm(a, b, c, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):\n"
    "    rm = tl.arange(0, BM)\n"
    "    rn = tl.arange(0, BN)\n"
    "    rk = tl.arange(0, BK)\n"
    "    x = tl.load(a + rm[:, None] * BK + rk[None, :])\n"
    "    y = tl.load(b + rk[:, None] * BN + rn[None, :])\n"
    "    tl.store(c + rm[:, None] * BN + rn[None, :], tl.dot(x, y))\n";

/* The launch shape of kernel `name` for `sig` (num_warps 0: chosen). */
static MtLaunchShape shape_of(const char *name, const char *sig, int num_warps)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtSpec spec = {.kernel = name, .signature = sig, .last_stage = MT_STAGE_CUDA, .num_warps = num_warps};
    MtLaunchShape s;
    ck_assert(mt_compiled_launch_shape(test_compile(c, src, &spec), &s));
    mt_ctx_free(c);
    return s;
}

START_TEST(elementwise_blocks_take_two_vectors_a_thread)
{
    ck_assert_uint_eq(shape_of("add", "*fp32:16,*fp32:16,i32,1024", 0).threads, 128);
    ck_assert_uint_eq(shape_of("add", "*fp32:16,*fp32:16,i32,8192", 0).threads, 256); /* 8 warps at most */
    MtLaunchShape small = shape_of("add", "*fp32:16,*fp32:16,i32,64", 0);
    ck_assert_uint_eq(small.threads, 128); /* one warp a program, four programs a block */
    ck_assert_uint_eq(small.programs_per_block, 4);
}
END_TEST

START_TEST(cuda_core_dots_take_32_accumulators_a_thread)
{
    ck_assert_uint_eq(shape_of("mm", "*fp32,*fp32,*fp32,64,128,32", 0).threads, 256);
    ck_assert_uint_eq(shape_of("mm", "*fp32,*fp32,*fp32,64,64,32", 0).threads, 128);
    ck_assert_uint_eq(shape_of("mm", "*fp32,*fp32,*fp32,128,128,32", 0).threads, 256); /* 8 warps at most */
}
END_TEST

START_TEST(tensor_core_dots_take_128_accumulators_a_thread)
{
    ck_assert_uint_eq(shape_of("mm", "*fp16,*fp16,*fp32,128,128,32", 0).threads, 128);
    ck_assert_uint_eq(shape_of("mm", "*bf16,*bf16,*fp32,128,256,32", 0).threads, 256);
    /* 32 accumulators a thread on sm_90: wgmma needs a warpgroup of 4 warps */
    ck_assert_uint_eq(shape_of("mm", "*fp16,*fp16,*fp32,64,64,32", 0).threads, 128);
    MtLaunchShape one = shape_of("mm", "*fp16,*fp16,*fp32,32,64,32", 0);
    ck_assert_uint_eq(one.threads / one.programs_per_block, 32);
}
END_TEST

START_TEST(num_warps_overrides_the_choice)
{
    ck_assert_uint_eq(shape_of("mm", "*fp32,*fp32,*fp32,64,128,32", 4).threads, 128);
    ck_assert_uint_eq(shape_of("mm", "*fp16,*fp16,*fp32,128,128,32", 8).threads, 256);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("launch_shape");
    TCase *t = tcase_create("warps");
    tcase_add_test(t, elementwise_blocks_take_two_vectors_a_thread);
    tcase_add_test(t, cuda_core_dots_take_32_accumulators_a_thread);
    tcase_add_test(t, tensor_core_dots_take_128_accumulators_a_thread);
    tcase_add_test(t, num_warps_overrides_the_choice);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
