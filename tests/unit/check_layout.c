/* check_layout.c: the CUDA layout model (layout.c) on the worked examples
 * of seed 002 and 000, and layout inference (assign.c) on SSA. */
#include <check.h>
#include <string.h>

#include "base/ctx.h"
#include "layout/assign.h"
#include "ssa/read.h"

static MtKernelLayout kernel2(int32_t o0, int32_t o1, int32_t t0, int32_t t1)
{
    MtKernelLayout k;
    int32_t o[2] = {o0, o1}, t[2] = {t0, t1};
    char err[128];
    ck_assert_msg(mt_kernel_layout(2, o, t, &k, err, sizeof err), "%s", err);
    return k;
}

START_TEST(kernel_layout_4x8)
{
    MtKernelLayout k = kernel2(4, 8, 4, 8);
    ck_assert_int_eq(k.rank, 2);
    ck_assert_int_eq(mt_kernel_layout_threads(&k), 32);
}
END_TEST

START_TEST(kernel_layout_64x64_over_8x32)
{
    MtKernelLayout k = kernel2(64, 64, 8, 32);
    ck_assert_int_eq(mt_kernel_layout_threads(&k), 256);
    MtRegisterLayout r;
    char err[128];
    int32_t o[2] = {64, 64}, t[2] = {8, 32};
    ck_assert(mt_register_layout(2, o, t, &r, err, sizeof err));
    ck_assert_int_eq(r.registers[0], 8);
    ck_assert_int_eq(r.registers[1], 2);
}
END_TEST

START_TEST(kernel_layout_rejects)
{
    MtKernelLayout k;
    char err[128];
    int32_t big[2] = {64, 32}, neg[2] = {4, 0}, o1[1] = {4};
    ck_assert(!mt_kernel_layout(2, big, big, &k, err, sizeof err));
    ck_assert_str_eq(err, "the thread shape needs 2048 threads per block; CUDA allows at most 1024");
    ck_assert(!mt_kernel_layout(2, neg, big, &k, err, sizeof err));
    ck_assert_str_eq(err, "the output tile shape dimensions must be positive, got 0 on axis 1");
    ck_assert(!mt_kernel_layout(3, big, big, &k, err, sizeof err));
    ck_assert_str_eq(err, "the output tile shape must have rank 1 or 2, got rank 3");
    ck_assert(mt_kernel_layout(1, o1, o1, &k, err, sizeof err));
    int32_t limit[1] = {1024}, over[1] = {1025};
    ck_assert(mt_kernel_layout(1, limit, limit, &k, err, sizeof err));
    ck_assert(!mt_kernel_layout(1, over, over, &k, err, sizeof err));
}
END_TEST

START_TEST(projection_full_row_column)
{
    MtKernelLayout k = kernel2(4, 8, 4, 8);
    MtTileLayout t;
    char err[128];
    int32_t full[2] = {4, 8}, col[2] = {4, 1}, row[2] = {1, 8};
    ck_assert(mt_tile_layout(&k, 2, full, 0, &t, err, sizeof err));
    ck_assert_int_eq(t.thread_axes[0], 0);
    ck_assert_int_eq(t.thread_axes[1], 1);
    ck_assert(mt_tile_layout(&k, 2, col, 0, &t, err, sizeof err));
    ck_assert_int_eq(t.thread_axes[0], 0);
    ck_assert_int_eq(t.thread_axes[1], MT_AXIS_BROADCAST);
    ck_assert(mt_tile_layout(&k, 2, row, 0, &t, err, sizeof err));
    ck_assert_int_eq(t.thread_axes[0], MT_AXIS_BROADCAST);
    ck_assert_int_eq(t.thread_axes[1], 1);
}
END_TEST

START_TEST(projection_keeps_degenerate_axis)
{
    /* thread shape (1, 8): a (1, 1) value whose axis 1 was inserted by
     * expand_dims keeps axis 0 mapped. */
    MtKernelLayout k = kernel2(1, 8, 1, 8);
    MtTileLayout t;
    char err[128];
    int32_t s[2] = {1, 1};
    ck_assert(mt_tile_layout(&k, 2, s, 1u << 1, &t, err, sizeof err));
    ck_assert_int_eq(t.thread_axes[0], 0);
    ck_assert_int_eq(t.thread_axes[1], MT_AXIS_BROADCAST);
}
END_TEST

START_TEST(projection_rejects_unmappable)
{
    MtKernelLayout k = kernel2(4, 8, 4, 8);
    MtTileLayout t;
    char err[128];
    int32_t s[2] = {4, 3};
    ck_assert(!mt_tile_layout(&k, 2, s, 0, &t, err, sizeof err));
    ck_assert_str_eq(err, "logical axis 1 of size 3 cannot be projected onto thread axis 1 of size 8");
    int32_t r1[1] = {4};
    ck_assert(!mt_tile_layout(&k, 1, r1, 0, &t, err, sizeof err));
    ck_assert_str_eq(err, "a rank-1 tile cannot be projected onto a rank-2 thread shape");
}
END_TEST

START_TEST(cooperative_a_4x16)
{
    MtCoopLayout c;
    char err[128];
    int32_t s[2] = {4, 16}, xy[2];
    int64_t lin;
    ck_assert(mt_coop_layout(2, s, 32, NULL, &c, err, sizeof err));
    ck_assert_int_eq(c.order[0], 1);
    ck_assert_int_eq(c.order[1], 0);
    ck_assert_int_eq(mt_coop_size(&c), 64);
    ck_assert_int_eq(mt_coop_iterations(&c), 2);
    static const int expect[4][4] = {{0, 0, 0, 0}, {0, 1, 2, 0}, {31, 0, 1, 15}, {31, 1, 3, 15}};
    for (int i = 0; i < 4; i++) {
        ck_assert(mt_coop_linear(&c, expect[i][0], expect[i][1], &lin, err, sizeof err));
        ck_assert(mt_coop_coords(&c, lin, xy, err, sizeof err));
        ck_assert_int_eq(xy[0], expect[i][2]);
        ck_assert_int_eq(xy[1], expect[i][3]);
    }
}
END_TEST

START_TEST(cooperative_b_16x8)
{
    MtCoopLayout c;
    char err[128];
    int32_t s[2] = {16, 8}, xy[2];
    int64_t lin;
    ck_assert(mt_coop_layout(2, s, 32, NULL, &c, err, sizeof err));
    ck_assert_int_eq(mt_coop_iterations(&c), 4);
    for (int it = 0; it < 4; it++) {
        ck_assert(mt_coop_linear(&c, 0, it, &lin, err, sizeof err));
        ck_assert_int_eq(lin, 32 * it);
        ck_assert(mt_coop_coords(&c, lin, xy, err, sizeof err));
        ck_assert_int_eq(xy[0], 4 * it);
        ck_assert_int_eq(xy[1], 0);
    }
    /* every element covered exactly once */
    int seen[128] = {0};
    for (int t = 0; t < 32; t++)
        for (int it = 0; it < 4; it++) {
            ck_assert(mt_coop_linear(&c, t, it, &lin, err, sizeof err));
            ck_assert(mt_coop_coords(&c, lin, xy, err, sizeof err));
            seen[xy[0] * 8 + xy[1]]++;
        }
    for (int i = 0; i < 128; i++)
        ck_assert_int_eq(seen[i], 1);
}
END_TEST

START_TEST(cooperative_tail_lanes_and_errors)
{
    MtCoopLayout c;
    char err[128];
    int32_t s[2] = {2, 3}, xy[2];
    int64_t lin;
    ck_assert(mt_coop_layout(2, s, 32, NULL, &c, err, sizeof err));
    ck_assert_int_eq(mt_coop_iterations(&c), 1);
    ck_assert(mt_coop_linear(&c, 7, 0, &lin, err, sizeof err));
    ck_assert(!mt_coop_contains(&c, lin));
    ck_assert(!mt_coop_coords(&c, lin, xy, err, sizeof err));
    ck_assert_str_eq(err, "linear index 7 is outside the 6-element tile");
    ck_assert(!mt_coop_linear(&c, 32, 0, &lin, err, sizeof err));
    ck_assert_str_eq(err, "thread index 32 is out of range for 32 threads");
    ck_assert(!mt_coop_linear(&c, 0, 1, &lin, err, sizeof err));
    ck_assert_str_eq(err, "iteration 1 is out of range (1 iterations per thread)");
    int8_t bad[2] = {1, 1};
    ck_assert(!mt_coop_layout(2, s, 32, bad, &c, err, sizeof err));
    ck_assert_str_eq(err, "a cooperative order must be a permutation of the logical axes");
    ck_assert(!mt_coop_layout(2, s, 1025, NULL, &c, err, sizeof err));
    ck_assert_str_eq(err, "threads per block must be between 1 and 1024, got 1025");
}
END_TEST

START_TEST(register_tiles)
{
    MtRegisterLayout r;
    char err[128];
    int32_t o[2] = {8, 8}, t[2] = {4, 8}, th[2] = {3, 5}, rg[2] = {1, 0}, lg[2];
    ck_assert(mt_register_layout(2, o, t, &r, err, sizeof err));
    ck_assert_int_eq(r.registers[0], 2);
    ck_assert_int_eq(r.registers[1], 1);
    mt_register_logical(&r, th, rg, lg);
    ck_assert_int_eq(lg[0], 7); /* 3 + 1 * 4: two rows four apart */
    ck_assert_int_eq(lg[1], 5);
    int32_t o16[2] = {16, 16};
    ck_assert(mt_register_layout(2, o16, t, &r, err, sizeof err));
    ck_assert_int_eq(r.registers[0], 4);
    ck_assert_int_eq(r.registers[1], 2);
    int32_t odd[2] = {6, 8};
    ck_assert(!mt_register_layout(2, odd, t, &r, err, sizeof err));
    ck_assert_str_eq(err, "output axis 0 of size 6 is not divisible by thread axis 0 of size 4");
}
END_TEST

START_TEST(dot_policy)
{
    int32_t t[2];
    mt_dot_thread_shape((int32_t[2]){8, 8}, t);
    ck_assert(t[0] == 4 && t[1] == 8);
    mt_dot_thread_shape((int32_t[2]){16, 16}, t);
    ck_assert(t[0] == 4 && t[1] == 8);
    mt_dot_thread_shape((int32_t[2]){4, 8}, t);
    ck_assert(t[0] == 4 && t[1] == 8);
    mt_dot_thread_shape((int32_t[2]){2, 2}, t);
    ck_assert(t[0] == 2 && t[1] == 2);
    mt_dot_thread_shape((int32_t[2]){64, 64}, t);
    ck_assert(t[0] == 4 && t[1] == 8);
}
END_TEST

/* ---- inference on SSA --------------------------------------------------------------------- */

static MtLayoutInfo *infer(MtCtx *c, const char *text, const MtFunc **f)
{
    MtFunc *fn = mt_ssa_read(c, text, "test.ssa");
    ck_assert_ptr_nonnull(fn);
    *f = fn;
    return mt_layout_assign(c, fn);
}

static MtStatus run_infer(MtCtx *c, void *ud)
{
    void **io = ud;
    const MtFunc *f;
    io[1] = infer(c, io[0], &f);
    io[2] = (void *)f;
    return MT_OK;
}

static MtLayoutInfo *protected_infer(MtCtx *c, const char *text, const MtFunc **f)
{
    void *io[3] = {(void *)text, NULL, NULL};
    ck_assert_int_eq(mt_protect(c, run_infer, io), MT_OK);
    *f = io[2];
    return io[1];
}

START_TEST(store_rooted_ignores_internal_blocks)
{
    MtCtx *c = mt_ctx_new(NULL);
    const MtFunc *f;
    MtLayoutInfo *li = protected_infer(c,
                                       "kernel k(out: ptr<f32>)\n"
                                       "%0 = zeros {shape=(2, 3), dtype=f32} : block<2x3 x f32>\n"
                                       "%1 = arange {start=0, end=4} : vector<4 x i32>\n"
                                       "%2 = expand_dims %1 {axis=1} : block<4x1 x i32>\n"
                                       "%3 = arange {start=0, end=8} : vector<8 x i32>\n"
                                       "%4 = expand_dims %3 {axis=0} : block<1x8 x i32>\n"
                                       "%5 = add %2, %4 : block<4x8 x i32>\n"
                                       "%6 = addptr out, %5 : block<4x8 x ptr<f32>>\n"
                                       "store %6, 1.0, none\n",
                                       &f);
    ck_assert_ptr_nonnull(li);
    ck_assert_int_eq(li->kernel.output[0], 4);
    ck_assert_int_eq(li->kernel.output[1], 8);
    ck_assert_int_eq(mt_kernel_layout_threads(&li->kernel), 32);
    mt_ctx_free(c);
}
END_TEST

START_TEST(reduction_keeps_thread_width)
{
    MtCtx *c = mt_ctx_new(NULL);
    const MtFunc *f;
    MtLayoutInfo *li = protected_infer(c,
                                       "kernel k(x: ptr<f32>, out: ptr<f32>)\n"
                                       "%0 = arange {start=0, end=4} : vector<4 x i32>\n"
                                       "%1 = addptr x, %0 : vector<4 x ptr<f32>>\n"
                                       "%2 = load %1, none, none : vector<4 x f32>\n"
                                       "%3 = sum %2 : f32\n"
                                       "store out, %3, none\n",
                                       &f);
    ck_assert_ptr_nonnull(li);
    ck_assert_int_eq(li->kernel.rank, 1);
    ck_assert_int_eq(li->kernel.output[0], 1);
    ck_assert_int_eq(li->kernel.threads[0], 4);
    mt_ctx_free(c);
}
END_TEST

START_TEST(mixed_store_ranks_rejected)
{
    MtCtx *c = mt_ctx_new(NULL);
    const MtFunc *f;
    MtLayoutInfo *li = protected_infer(c,
                                       "kernel k(out: ptr<f32>)\n"
                                       "%0 = arange {start=0, end=4} : vector<4 x i32>\n"
                                       "%1 = addptr out, %0 : vector<4 x ptr<f32>>\n"
                                       "store %1, 1.0, none\n"
                                       "%2 = expand_dims %0 {axis=1} : block<4x1 x i32>\n"
                                       "%3 = addptr out, %2 : block<4x1 x ptr<f32>>\n"
                                       "store %3, 2.0, none\n",
                                       &f);
    ck_assert_ptr_null(li);
    ck_assert_int_eq(mt_diag_count(c), 1);
    const MtDiag *d = mt_diag_at(c, mt_diag_count(c) - 1);
    ck_assert_str_eq(d->code, "E0601");
    ck_assert_str_eq(d->msg, "stores disagree on the output tile: (4, 1) here, (4,) elsewhere (rank-1 and rank-2 "
                             "stores cannot share one kernel)");
    mt_ctx_free(c);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("layout");
    TCase *t = tcase_create("model");
    tcase_add_test(t, kernel_layout_4x8);
    tcase_add_test(t, kernel_layout_64x64_over_8x32);
    tcase_add_test(t, kernel_layout_rejects);
    tcase_add_test(t, projection_full_row_column);
    tcase_add_test(t, projection_keeps_degenerate_axis);
    tcase_add_test(t, projection_rejects_unmappable);
    tcase_add_test(t, cooperative_a_4x16);
    tcase_add_test(t, cooperative_b_16x8);
    tcase_add_test(t, cooperative_tail_lanes_and_errors);
    tcase_add_test(t, register_tiles);
    tcase_add_test(t, dot_policy);
    suite_add_tcase(s, t);
    TCase *i = tcase_create("inference");
    tcase_add_test(i, store_rooted_ignores_internal_blocks);
    tcase_add_test(i, reduction_keeps_thread_width);
    tcase_add_test(i, mixed_store_ranks_rejected);
    suite_add_tcase(s, i);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
