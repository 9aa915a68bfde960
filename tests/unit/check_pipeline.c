/* check_pipeline.c: the stages of a tensor-core tl.dot's tiles in shared
 * memory (compiler/kernel/lower_pipe.c, compiler/opt/prefetch.c), as the
 * compile chooses them: num_stages stages copied with cp.async, waits that
 * leave num_stages - 2 tiles of each operand in flight, dynamic shared
 * memory past 48 KiB; and tiles the stages cannot hold (a column-major
 * operand) loaded one iteration ahead in registers, as with num_stages 2,
 * never several iterations' worth of registers. */
#include "../test_util.h"

/* The tutorial's loop, its accumulator updated by `acc = UPDATE`. */
#define MM(name, update)                                                                                         \
    "@triton.jit\n"                                                                                              \
    "def " name "(a, b, c, K, stride_am, stride_ak, stride_bk, BM: tl.constexpr, BN: tl.constexpr,\n"           \
    "       BK: tl.constexpr, P: tl.constexpr):\n"                                                              \
    "    rm = tl.arange(0, BM)\n"                                                                               \
    "    rn = tl.arange(0, BN)\n"                                                                               \
    "    rk = tl.arange(0, BK)\n"                                                                               \
    "    a_ptrs = a + rm[:, None] * stride_am + rk[None, :] * stride_ak\n"                                      \
    "    b_ptrs = b + rk[:, None] * stride_bk + rn[None, :]\n"                                                  \
    "    acc = tl.zeros((BM, BN), dtype=tl.float32)\n"                                                          \
    "    for k in range(0, tl.cdiv(K, BK)):\n"                                                                  \
    "        x = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)\n"                                   \
    "        y = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)\n"                                   \
    "        acc = " update "\n"                                                                                \
    "        a_ptrs += BK * stride_ak\n"                                                                        \
    "        b_ptrs += BK * stride_bk\n"                                                                        \
    "    tl.store(c + rm[:, None] * BN + rn[None, :], acc)\n"

static const char src[] = "import triton\n"
                          "import triton.language as tl\n"
                          "\n" MM("mm", "tl.dot(x, y, acc, input_precision=P)") "\n"
                          MM("mm_scaled", "acc * 0.5 + tl.dot(x, y, input_precision=P)");

typedef struct Out {
    char kernel[1 << 20];
    MtLaunchShape shape;
} Out;

/* The kernel layer's text and launch shape of kernel for sig on sm (0:
 * the default, 90). */
static void compile_kernel(const char *kernel, const char *sig, int num_stages, int sm, Out *o)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtSpec spec = {.kernel = kernel, .signature = sig, .last_stage = MT_STAGE_CUDA, .num_stages = num_stages, .sm = sm};
    MtCompiled *k = test_compile(c, src, &spec);
    test_copy_text(c, k, MT_STAGE_KERNEL, o->kernel, sizeof o->kernel);
    ck_assert(mt_compiled_launch_shape(k, &o->shape));
    mt_ctx_free(c);
}

static void compile(const char *sig, int num_stages, Out *o) { compile_kernel("mm", sig, num_stages, 0, o); }

/* unit inner strides, rows aligned: both tiles go through stages */
#define ROWS "*fp16:16,*fp16:16,*fp32:16,i32:16,i32:16,1,i32:16"

START_TEST(three_stages_by_default)
{
    static Out o;
    compile(ROWS ",128,128,32,\"ieee\"", 0, &o);
    /* two rings of three stages; each iteration waits for its tiles and
     * leaves the next iteration's two in flight */
    ck_assert_int_eq(test_count(o.kernel, "cp.async.wait 2\n"), 1);
    ck_assert_int_eq(test_count(o.kernel, "cp.async.wait 0\n"), 1);
    ck_assert_int_eq(test_count(o.kernel, "= cp.async16 a["), 3 * 4); /* two tiles before the loop, one in it */
    ck_assert_int_eq(test_count(o.kernel, "= cp.async16 b["), 3 * 4);
    /* the warpgroup's tensor cores read the stages in place: two 64-row
     * wgmmas a k-step of 16, after the wait and the barrier, without a
     * proxy fence (the copies are cp.async's, not stores) */
    ck_assert_int_eq(test_count(o.kernel, "wgmma.m64n128k16.f16 "), 2 * 2);
    ck_assert_int_eq(test_count(o.kernel, "fence.proxy.async\n"), 0);
    ck_assert_int_eq(test_count(o.kernel, "ldmatrix"), 0);
    /* into the carried accumulator in place, one iteration's products in
     * flight into the next, all of them waited for after the loop */
    ck_assert_int_eq(test_count(o.kernel, "wgmma.wait 1 "), 1);
    ck_assert_int_eq(test_count(o.kernel, "wgmma.wait 0 "), 1);
    /* so four stages of 128 x 32 + 32 x 128 halves, swizzled without pads:
     * 64 KiB, dynamic */
    ck_assert_int_eq(test_count(o.kernel, ", 1), 4), 0, add(stage"), 1); /* the counter wraps at 4 */
    ck_assert_uint_eq(o.shape.shared_bytes, 65536);
    ck_assert_uint_eq(o.shape.dynamic_shared_bytes, 65536);
}
END_TEST

START_TEST(a_dot_not_added_in_place_waits_for_itself)
{
    static Out o;
    compile_kernel("mm_scaled", ROWS ",128,128,32,\"ieee\"", 0, 0, &o);
    ck_assert_int_eq(test_count(o.kernel, "wgmma.m64n128k16.f16 "), 2 * 2);
    ck_assert_int_eq(test_count(o.kernel, "wgmma.wait 1 "), 0);
    ck_assert_int_eq(test_count(o.kernel, "wgmma.wait 0 "), 1);
    ck_assert_uint_eq(o.shape.shared_bytes, 49152); /* three stages */
}
END_TEST

START_TEST(mma_sync_before_sm90_reads_padded_stages)
{
    static Out o;
    compile_kernel("mm", ROWS ",128,128,32,\"ieee\"", 0, 80, &o);
    ck_assert_int_eq(test_count(o.kernel, "cp.async.wait 2\n"), 1);
    ck_assert_int_eq(test_count(o.kernel, "wgmma"), 0);
    ck_assert_int_gt(test_count(o.kernel, "ldmatrix.x4.f16"), 0);
    /* 3 x (128 x 40 + 32 x 136) halves: past 48 KiB, so dynamic */
    ck_assert_uint_eq(o.shape.shared_bytes, 56832);
    ck_assert_uint_eq(o.shape.dynamic_shared_bytes, 56832);
}
END_TEST

#define TF32_ROWS "*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,1,i32:16"

START_TEST(tf32_operands_take_stages_too)
{
    /* f32 tiles of a TF32 dot are operands without a cast: both rings */
    static Out o;
    compile(TF32_ROWS ",64,64,32,\"tf32\"", 0, &o);
    ck_assert_int_eq(test_count(o.kernel, "cp.async.wait 2\n"), 1);
    /* the dot takes a warpgroup: 8 KiB a tile, 4 copies a thread, three tiles */
    ck_assert_uint_eq(o.shape.threads, 128);
    ck_assert_int_eq(test_count(o.kernel, "= cp.async16 a["), 3 * 4);
    ck_assert_int_eq(test_count(o.kernel, "= cp.async16 b["), 3 * 4);
}
END_TEST

START_TEST(tf32_on_the_warpgroups_runs_transposed)
{
    /* C^T = B^T A^T: B^T's fragments read from its stage into registers
     * (4 values of each of 2 x 64 rows a k-step of 8), A's stage read by
     * the tensor core K-major. The products stay in flight into the next
     * iteration, which waits for them before it loads the registers anew
     * (two 8-byte reads a k-step for each 64 rows); the loop waits after it */
    static Out o;
    compile(TF32_ROWS ",128,128,32,\"tf32\"", 0, &o);
    ck_assert_int_eq(test_count(o.kernel, "wgmma.m64n128k8.tf32 "), 4 * 2);
    ck_assert_int_eq(test_count(o.kernel, "] k-major swizzle 128 sbo 1024"), 4 * 2);
    ck_assert_int_eq(test_count(o.kernel, "wgmma.commit"), 1);
    ck_assert_int_eq(test_count(o.kernel, "wgmma.wait 0 "), 2);
    ck_assert_int_eq(test_count(o.kernel, " more\n  f32 fa"), 1);
    ck_assert_int_eq(test_count(o.kernel, "= load2 stage"), 4 * 2 * 2);
    ck_assert_int_eq(test_count(o.kernel, "fence.proxy.async\n"), 0);
    /* four stages (one in flight) of A 128 x 32 swizzled and B 32 x (128 + 8) padded */
    ck_assert_uint_eq(o.shape.shared_bytes, 4 * (128 * 32 + 32 * 136) * 4);
    /* a dot not added in place waits for its own */
    compile_kernel("mm_scaled", TF32_ROWS ",128,128,32,\"tf32\"", 0, 0, &o);
    ck_assert_int_eq(test_count(o.kernel, "wgmma.wait 0 "), 1);
    ck_assert_int_eq(test_count(o.kernel, " more"), 0);
    /* before sm_90, mma.sync m16n8k8 from the same stages, A padded too */
    compile_kernel("mm", TF32_ROWS ",128,128,32,\"tf32\"", 0, 80, &o);
    ck_assert_int_eq(test_count(o.kernel, "wgmma"), 0);
    ck_assert_int_gt(test_count(o.kernel, "mma.m16n8k8.tf32 "), 0);
}
END_TEST

START_TEST(num_stages_sets_the_depth)
{
    static Out o;
    compile(ROWS ",64,64,32,\"ieee\"", 4, &o);
    ck_assert_int_eq(test_count(o.kernel, "cp.async.wait 4\n"), 1); /* (4 - 2) tiles of each of two operands */
    compile(ROWS ",64,64,32,\"ieee\"", 2, &o);
    ck_assert_int_eq(test_count(o.kernel, "cp.async.wait 0\n"), 2); /* in the loop and after it */
    ck_assert_uint_eq(o.shape.dynamic_shared_bytes, 0);
}
END_TEST

START_TEST(tiles_the_stages_cannot_hold_go_one_ahead)
{
    /* A's inner stride is a runtime value: its tile is loaded element by
     * element, B's still goes through stages; A is then one iteration
     * ahead in registers, and so is B (num_stages 2's kernel) */
    static Out deep, two;
    compile("*fp16:16,*fp16:16,*fp32:16,i32:16,i32:16,i32,i32:16,64,64,32,\"ieee\"", 0, &deep);
    compile("*fp16:16,*fp16:16,*fp32:16,i32:16,i32:16,i32,i32:16,64,64,32,\"ieee\"", 2, &two);
    ck_assert_str_eq(deep.kernel, two.kernel);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pipeline");
    TCase *t = tcase_create("stages");
    tcase_add_test(t, three_stages_by_default);
    tcase_add_test(t, a_dot_not_added_in_place_waits_for_itself);
    tcase_add_test(t, mma_sync_before_sm90_reads_padded_stages);
    tcase_add_test(t, tf32_operands_take_stages_too);
    tcase_add_test(t, tf32_on_the_warpgroups_runs_transposed);
    tcase_add_test(t, num_stages_sets_the_depth);
    tcase_add_test(t, tiles_the_stages_cannot_hold_go_one_ahead);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
