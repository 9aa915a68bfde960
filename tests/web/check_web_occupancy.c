/* check_web_occupancy.c: the dashboard's occupancy calculation
 * (web/occupancy.c) against figures worked out by hand from NVIDIA's
 * occupancy rules, on the limits an H100/H200 (compute capability 9.0)
 * reports: 65536 registers per SM and per block, 2048 threads, 32 blocks,
 * 228 KiB of shared memory per SM and 1 KiB reserved per block; the
 * architectural limits used without a GPU; and which figure a GPU run
 * shows (the driver's, else the calculation's). */
#include <check.h>
#include <stdlib.h>

#include "occupancy.h"

static const WebSmLimits h100 = {.cc_major = 9,
                                 .warp_size = 32,
                                 .regs_per_sm = 65536,
                                 .regs_per_block = 65536,
                                 .threads_per_sm = 2048,
                                 .blocks_per_sm = 32,
                                 .smem_per_sm = 233472,
                                 .smem_reserved_per_block = 1024};

static void expect(int threads, int regs, int smem, int blocks, double fraction, const char *limit)
{
    WebOccupancy o;
    ck_assert_msg(mt_web_occupancy(&h100, threads, regs, smem, &o), "%d threads, %d registers, %d B: refused",
                  threads, regs, smem);
    ck_assert_msg(o.blocks_per_sm == blocks, "%d threads, %d registers, %d B: %d blocks, wanted %d", threads, regs,
                  smem, o.blocks_per_sm, blocks);
    ck_assert_double_eq_tol(o.fraction, fraction, 1e-9);
    ck_assert_str_eq(o.limit, limit);
    ck_assert_int_eq(o.warps_per_sm, blocks * ((threads + 31) / 32));
    ck_assert_int_eq(o.max_warps_per_sm, 64);
}

START_TEST(threads_limit)
{
    expect(128, 32, 0, 16, 1.0, "threads");   /* 2048 / 128; registers allow 16 as well (1024 per warp) */
    expect(128, 16, 0, 16, 1.0, "threads");
    expect(96, 16, 0, 21, 63.0 / 64, "threads"); /* 3 warps per block: 64 / 3 */
}
END_TEST

START_TEST(register_limit)
{
    expect(256, 64, 0, 4, 0.5, "registers");   /* 2048 per warp: 8 warps per sub-partition, 32 per SM */
    expect(128, 40, 0, 12, 0.75, "registers"); /* 1280 per warp: 12 warps per sub-partition, 48 per SM */
    expect(128, 33, 0, 12, 0.75, "registers"); /* 33 x 32 = 1056, rounded up to 1280 */
    expect(128, 255, 0, 2, 0.125, "registers"); /* 8160 -> 8192 per warp: 2 per sub-partition */
}
END_TEST

START_TEST(shared_memory_limit)
{
    expect(128, 16, 49152, 4, 0.25, "shared memory"); /* 48 KiB + 1 KiB = 50176 B: 4 blocks in 228 KiB */
    expect(128, 16, 100, 16, 1.0, "threads");         /* 1124 -> 1152 B: 202 blocks' worth */
    expect(128, 16, 8000, 16, 1.0, "threads");        /* 9024 -> 9088 B: 25 blocks */
    expect(64, 16, 8000, 25, 50.0 / 64, "shared memory");
}
END_TEST

START_TEST(block_limit)
{
    expect(32, 16, 0, 32, 0.5, "blocks per SM");
    expect(1, 0, 0, 32, 0.5, "blocks per SM");
}
END_TEST

START_TEST(blocks_that_cannot_run)
{
    WebOccupancy o;
    /* 1024 threads x 72 registers: 2304 per warp x 32 warps > 65536 per block */
    ck_assert(!mt_web_occupancy(&h100, 1024, 72, 0, &o));
    ck_assert_str_eq(o.limit, "registers");
    ck_assert(!mt_web_occupancy(&h100, 128, 16, 233472, &o));
    ck_assert_str_eq(o.limit, "shared memory");
    WebSmLimits none = {0};
    ck_assert(!mt_web_occupancy(&none, 128, 16, 0, &o));
    /* 1024 threads x 64 registers: exactly the block's 65536 */
    expect(1024, 64, 0, 1, 0.5, "registers");
}
END_TEST

START_TEST(limits_from_the_probe)
{
    cJSON *d = cJSON_Parse("{\"cc\": \"9.0\", \"warp_size\": 32, \"regs_per_sm\": 65536, \"regs_per_block\": 65536, "
                           "\"threads_per_sm\": 2048, \"blocks_per_sm\": 32, \"smem_per_sm\": 233472, "
                           "\"smem_reserved_per_block\": 1024}");
    WebSmLimits l;
    ck_assert(mt_web_sm_limits(d, &l));
    ck_assert_int_eq(l.cc_major, 9);
    ck_assert_int_eq(l.smem_per_sm, 233472);
    cJSON_DeleteItemFromObject(d, "blocks_per_sm");
    ck_assert(!mt_web_sm_limits(d, &l));
    cJSON_Delete(d);
}
END_TEST

/* Without a GPU, the compile's target gives the limits: sm_90's are the
 * H100's above. */
START_TEST(architectural_limits_of_the_target)
{
    WebSmLimits l;
    ck_assert(mt_web_sm_limits_for_arch(90, &l));
    ck_assert_mem_eq(&l, &h100, sizeof l);
    ck_assert(mt_web_sm_limits_for_arch(86, &l));
    ck_assert_int_eq(l.threads_per_sm, 1536);
    ck_assert_int_eq(l.blocks_per_sm, 16);
    ck_assert(!mt_web_sm_limits_for_arch(91, &l));
}
END_TEST

static const char *text(const cJSON *o, const char *k) { return cJSON_GetStringValue(cJSON_GetObjectItem(o, k)); }
static int num(const cJSON *o, const char *k) { return cJSON_GetObjectItem(o, k)->valueint; }

/* A GPU run: the driver's figure first, explained by the calculation's
 * breakdown where they agree; the calculation alone when the driver said
 * nothing; nothing without the device's limits or the driver. */
START_TEST(runs_prefer_the_drivers_figure)
{
    cJSON *o = mt_web_run_occupancy(&h100, 128, 40, 0, 12);
    ck_assert_str_eq(text(o, "source"), "driver");
    ck_assert_int_eq(num(o, "blocks_per_sm"), 12);
    ck_assert_int_eq(num(o, "warps_per_sm"), 48);
    ck_assert_str_eq(text(o, "limit"), "registers");
    ck_assert_int_eq(num(cJSON_GetObjectItem(o, "by"), "registers"), 12);
    ck_assert_ptr_null(cJSON_GetObjectItem(o, "calculated_blocks_per_sm"));
    cJSON_Delete(o);
    /* the driver knows better (a carveout the calculation does not model): its count, no limit named */
    o = mt_web_run_occupancy(&h100, 128, 40, 0, 10);
    ck_assert_int_eq(num(o, "blocks_per_sm"), 10);
    ck_assert_double_eq_tol(cJSON_GetObjectItem(o, "fraction")->valuedouble, 40.0 / 64, 1e-9);
    ck_assert_int_eq(num(o, "calculated_blocks_per_sm"), 12);
    ck_assert_ptr_null(cJSON_GetObjectItem(o, "limit"));
    cJSON_Delete(o);
    o = mt_web_run_occupancy(&h100, 128, 40, 0, 0);
    ck_assert_str_eq(text(o, "source"), "calculated");
    ck_assert_int_eq(num(o, "blocks_per_sm"), 12);
    cJSON_Delete(o);
    o = mt_web_run_occupancy(NULL, 128, 40, 0, 7);
    ck_assert_str_eq(text(o, "source"), "driver");
    ck_assert_int_eq(num(o, "blocks_per_sm"), 7);
    ck_assert_ptr_null(cJSON_GetObjectItem(o, "fraction"));
    cJSON_Delete(o);
    o = mt_web_run_occupancy(NULL, 128, 40, 0, 0);
    ck_assert_ptr_nonnull(text(o, "unavailable"));
    cJSON_Delete(o);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("web_occupancy");
    TCase *t = tcase_create("occupancy");
    tcase_add_test(t, threads_limit);
    tcase_add_test(t, register_limit);
    tcase_add_test(t, shared_memory_limit);
    tcase_add_test(t, block_limit);
    tcase_add_test(t, blocks_that_cannot_run);
    tcase_add_test(t, limits_from_the_probe);
    tcase_add_test(t, architectural_limits_of_the_target);
    tcase_add_test(t, runs_prefer_the_drivers_figure);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
