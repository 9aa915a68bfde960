/* check_cse.c: common subexpression elimination. What counts as the same
 * expression (commuted operands, constants by value, attributes, result
 * type), what is never merged (load, empty, store), and the scoping of
 * loop regions: outer values reach into bodies, nothing leaves a body or
 * crosses into a sibling. Each test: input, exact output, verified. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/passes.h"
#include "ssa/read.h"
#include "ssa/verify.h"

static const char *first_msg(MtCtx *c) { return mt_diag_count(c) ? mt_diag_at(c, 0)->msg : "(none)"; }

static void check_cse(const char *in, const char *want)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = mt_ssa_read(c, in, "in.ssa");
    ck_assert_msg(f != NULL, "input does not read: %s", first_msg(c));
    ck_assert_msg(mt_verify(c, f, "input"), "%s", first_msg(c));
    mt_cse(c, f);
    ck_assert_msg(mt_verify(c, f, "cse"), "%s", first_msg(c));
    ck_assert_str_eq(mt_ssa_write(c, f), want);
    mt_ctx_free(c);
}

#define H "kernel k(x: ptr<f32>, out: ptr<i32>, n: i32, m: i32, K: i32)\n"

START_TEST(duplicates_merge_into_the_first)
{
    check_cse(H "%0 = program_id {axis=0} : i32\n"
                "%1 = mul %0, 4 : i32\n"
                "%2 = program_id {axis=0} : i32\n"
                "%3 = mul %2, 4 : i32\n"
                "%4 = add %1, %3 : i32\n"
                "store out, %4, none\n",
              H "%0 = program_id {axis=0} : i32\n"
                "%1 = mul %0, 4 : i32\n"
                "%4 = add %1, %1 : i32\n"
                "store out, %4, none\n");
}
END_TEST

START_TEST(commutative_operands_in_either_order)
{
    check_cse(H "%0 = add n, m : i32\n"
                "%1 = add m, n : i32\n"
                "%2 = sub n, m : i32\n"
                "%3 = sub m, n : i32\n"
                "%4 = cmp_lt n, m : bool\n"
                "%5 = cmp_lt m, n : bool\n"
                "%6 = cmp_eq n, m : bool\n"
                "%7 = cmp_eq m, n : bool\n"
                "%8 = maximum n, m : i32\n"
                "%9 = maximum m, n : i32\n"
                "store out, %1, %7\nstore out, %3, %5\nstore out, %9, %4\nstore out, %2, %6\nstore out, %8, none\n"
                "store out, %0, none\n",
              H "%0 = add n, m : i32\n"
                "%2 = sub n, m : i32\n"
                "%3 = sub m, n : i32\n"
                "%4 = cmp_lt n, m : bool\n"
                "%5 = cmp_lt m, n : bool\n"
                "%6 = cmp_eq n, m : bool\n"
                "%8 = maximum n, m : i32\n"
                "%9 = maximum m, n : i32\n"
                "store out, %0, %6\nstore out, %3, %5\nstore out, %9, %4\nstore out, %2, %6\nstore out, %8, none\n"
                "store out, %0, none\n");
}
END_TEST

START_TEST(constants_compare_by_value_and_type)
{
    check_cse("kernel k(out: ptr<f32>, n: i32, s: f32)\n"
              "%0 = mul n, 3 : i32\n"
              "%1 = mul n, 3 : i32\n"
              "%2 = mul n, 3.0 : f32\n"
              "%3 = add s, 0.0 : f32\n"
              "%4 = add s, -0.0 : f32\n"
              "%5 = add s, 0.0 : f32\n"
              "%6 = cmp_eq n, 1 : bool\n"
              "%7 = cmp_eq n, true : bool\n"
              "%8 = add s, nan : f32\n"
              "%9 = add s, nan : f32\n"
              "store out, %1, %6\nstore out, %2, %7\nstore out, %3, none\nstore out, %4, none\n"
              "store out, %5, none\nstore out, %0, none\nstore out, %9, none\nstore out, %8, none\n",
              "kernel k(out: ptr<f32>, n: i32, s: f32)\n"
              "%0 = mul n, 3 : i32\n"
              "%2 = mul n, 3.0 : f32\n"
              "%3 = add s, 0.0 : f32\n"
              "%4 = add s, -0.0 : f32\n"
              "%6 = cmp_eq n, 1 : bool\n"
              "%7 = cmp_eq n, true : bool\n"
              "%8 = add s, nan : f32\n"
              "store out, %0, %6\nstore out, %2, %7\nstore out, %3, none\nstore out, %4, none\n"
              "store out, %3, none\nstore out, %0, none\nstore out, %8, none\nstore out, %8, none\n");
}
END_TEST

START_TEST(attributes_distinguish)
{
    check_cse("kernel k(out: ptr<f32>)\n"
              "%0 = program_id {axis=0} : i32\n"
              "%1 = program_id {axis=1} : i32\n"
              "%2 = arange {start=0, end=8} : vector<8 x i32>\n"
              "%3 = arange {start=8, end=16} : vector<8 x i32>\n"
              "%4 = arange {start=0, end=8} : vector<8 x i32>\n"
              "%5 = expand_dims %2 {axis=0} : block<1x8 x i32>\n"
              "%6 = expand_dims %4 {axis=1} : block<8x1 x i32>\n"
              "%7 = expand_dims %4 {axis=0} : block<1x8 x i32>\n"
              "%8 = zeros {shape=(8,), dtype=f32} : vector<8 x f32>\n"
              "%9 = zeros {shape=(8,), dtype=i32} : vector<8 x i32>\n"
              "%10 = zeros {shape=(8,), dtype=f32} : vector<8 x f32>\n"
              "%11 = full 1.0 {shape=(8,), dtype=f32} : vector<8 x f32>\n"
              "%12 = full 1.0 {shape=(8,), dtype=f32} : vector<8 x f32>\n"
              "%13 = full 2.0 {shape=(8,), dtype=f32} : vector<8 x f32>\n"
              "%14 = add %0, %1 : i32\n%15 = add %3, %14 : vector<8 x i32>\n%16 = add %5, %6 : block<8x8 x i32>\n"
              "%17 = add %7, %16 : block<8x8 x i32>\n%18 = add %8, %10 : vector<8 x f32>\n"
              "%19 = add %11, %12 : vector<8 x f32>\n%20 = add %13, %9 : vector<8 x f32>\n"
              "%21 = addptr out, %15 : vector<8 x ptr<f32>>\n"
              "store %21, %18, none\nstore %21, %19, none\nstore %21, %20, none\n"
              "%22 = addptr out, %17 : block<8x8 x ptr<f32>>\nstore %22, 0.0, none\n",
              "kernel k(out: ptr<f32>)\n"
              "%0 = program_id {axis=0} : i32\n"
              "%1 = program_id {axis=1} : i32\n"
              "%2 = arange {start=0, end=8} : vector<8 x i32>\n"
              "%3 = arange {start=8, end=16} : vector<8 x i32>\n"
              "%5 = expand_dims %2 {axis=0} : block<1x8 x i32>\n"
              "%6 = expand_dims %2 {axis=1} : block<8x1 x i32>\n"
              "%8 = zeros {shape=(8,), dtype=f32} : vector<8 x f32>\n"
              "%9 = zeros {shape=(8,), dtype=i32} : vector<8 x i32>\n"
              "%11 = full 1.0 {shape=(8,), dtype=f32} : vector<8 x f32>\n"
              "%13 = full 2.0 {shape=(8,), dtype=f32} : vector<8 x f32>\n"
              "%14 = add %0, %1 : i32\n%15 = add %3, %14 : vector<8 x i32>\n%16 = add %5, %6 : block<8x8 x i32>\n"
              "%17 = add %5, %16 : block<8x8 x i32>\n%18 = add %8, %8 : vector<8 x f32>\n"
              "%19 = add %11, %11 : vector<8 x f32>\n%20 = add %13, %9 : vector<8 x f32>\n"
              "%21 = addptr out, %15 : vector<8 x ptr<f32>>\n"
              "store %21, %18, none\nstore %21, %19, none\nstore %21, %20, none\n"
              "%22 = addptr out, %17 : block<8x8 x ptr<f32>>\nstore %22, 0.0, none\n");
}
END_TEST

START_TEST(loads_empties_and_stores_are_never_merged)
{
    const char *text = "kernel k(x: ptr<f32>, out: ptr<f32>)\n"
                       "%0 = load x, none, none : f32\n"
                       "%1 = load x, none, none : f32\n"
                       "store out, %0, none\n"
                       "store out, %0, none\n"
                       "%2 = empty {shape=(8,), dtype=f32} : vector<8 x f32>\n"
                       "%3 = empty {shape=(8,), dtype=f32} : vector<8 x f32>\n"
                       "%4 = add %2, %3 : vector<8 x f32>\n"
                       "%5 = add %1, %4 : vector<8 x f32>\n"
                       "%6 = arange {start=0, end=8} : vector<8 x i32>\n"
                       "%7 = addptr out, %6 : vector<8 x ptr<f32>>\n"
                       "store %7, %5, none\n";
    check_cse(text, text);
}
END_TEST

START_TEST(outer_values_reach_into_loop_bodies)
{
    check_cse(H "%0 = mul n, 4 : i32\n"
                "%6 = for %1 in range(0, K, 1) iter_args(%2 = 0) : i32 {\n"
                "  %3 = mul n, 4 : i32\n"
                "  %4 = add %3, %1 : i32\n"
                "  %5 = add %4, %2 : i32\n"
                "  %7 = add %3, %1 : i32\n"
                "  %8 = add %7, %5 : i32\n"
                "  yield %8\n"
                "}\n"
                "%9 = mul n, 4 : i32\n"
                "%10 = add %9, %6 : i32\n"
                "store out, %10, none\n",
              H "%0 = mul n, 4 : i32\n"
                "%6 = for %1 in range(0, K, 1) iter_args(%2 = 0) : i32 {\n"
                "  %4 = add %0, %1 : i32\n"
                "  %5 = add %4, %2 : i32\n"
                "  %8 = add %4, %5 : i32\n"
                "  yield %8\n"
                "}\n"
                "%10 = add %0, %6 : i32\n"
                "store out, %10, none\n");
}
END_TEST

START_TEST(body_values_do_not_leave_their_loop)
{
    const char *text = H "for %0 in range(0, K, 1) {\n"
                         "  %1 = mul n, m : i32\n"
                         "  store out, %1, none\n"
                         "  yield\n"
                         "}\n"
                         "for %2 in range(0, K, 1) {\n"
                         "  %3 = mul n, m : i32\n"
                         "  store out, %3, none\n"
                         "  yield\n"
                         "}\n"
                         "%4 = mul n, m : i32\n"
                         "store out, %4, none\n";
    check_cse(text, text);
}
END_TEST

START_TEST(nested_loops_see_their_enclosing_bodies_only)
{
    check_cse(H "for %0 in range(0, K, 1) {\n"
                "  %1 = mul %0, n : i32\n"
                "  for %2 in range(0, K, 1) {\n"
                "    %3 = mul %0, n : i32\n"
                "    %4 = add %3, %2 : i32\n"
                "    %5 = mul m, n : i32\n"
                "    store out, %4, none\n"
                "    store out, %5, none\n"
                "    yield\n"
                "  }\n"
                "  %6 = mul m, n : i32\n"
                "  %7 = mul n, %0 : i32\n"
                "  store out, %6, none\n"
                "  store out, %7, none\n"
                "  yield\n"
                "}\n",
              H "for %0 in range(0, K, 1) {\n"
                "  %1 = mul %0, n : i32\n"
                "  for %2 in range(0, K, 1) {\n"
                "    %4 = add %1, %2 : i32\n"
                "    %5 = mul m, n : i32\n"
                "    store out, %4, none\n"
                "    store out, %5, none\n"
                "    yield\n"
                "  }\n"
                "  %6 = mul m, n : i32\n"
                "  store out, %6, none\n"
                "  store out, %1, none\n"
                "  yield\n"
                "}\n");
}
END_TEST

START_TEST(loop_bounds_inits_and_yields_are_redirected)
{
    check_cse(H "%0 = add n, 1 : i32\n"
                "%1 = add n, 1 : i32\n"
                "%2 = add 1, n : i32\n"
                "%6 = for %3 in range(%1, %2, 1) iter_args(%4 = %1) : i32 {\n"
                "  %5 = add 1, n : i32\n"
                "  yield %5\n"
                "}\n"
                "store out, %6, none\n",
              H "%0 = add n, 1 : i32\n"
                "%6 = for %3 in range(%0, %0, 1) iter_args(%4 = %0) : i32 {\n"
                "  yield %0\n"
                "}\n"
                "store out, %6, none\n");
}
END_TEST

START_TEST(matmul_2d_duplicates_merge_into_the_first)
{
    /* the seeds' matmul_2d: every unrolled K step recomputes `mul %4, 3`
     * and `cmp_lt %4, M`, and the store mask recomputes both compares */
    check_cse("kernel k(a: ptr<f32>, c: ptr<f32>, M: i32, N: i32)\n"
              "%2 = arange {start=0, end=4} : vector<4 x i32>\n"
              "%4 = expand_dims %2 {axis=1} : block<4x1 x i32>\n"
              "%10 = expand_dims %2 {axis=0} : block<1x4 x i32>\n"
              "%13 = mul %4, 3 : block<4x1 x i32>\n"
              "%15 = addptr a, %13 : block<4x1 x ptr<f32>>\n"
              "%16 = cmp_lt %4, M : block<4x1 x bool>\n"
              "%17 = load %15, %16, 0.0 : block<4x1 x f32>\n"
              "%25 = mul %4, 3 : block<4x1 x i32>\n"
              "%26 = add %25, 1 : block<4x1 x i32>\n"
              "%27 = addptr a, %26 : block<4x1 x ptr<f32>>\n"
              "%28 = cmp_lt %4, M : block<4x1 x bool>\n"
              "%29 = load %27, %28, 0.0 : block<4x1 x f32>\n"
              "%35 = add %17, %29 : block<4x1 x f32>\n"
              "%49 = addptr c, %10 : block<1x4 x ptr<f32>>\n"
              "%50 = cmp_lt %4, M : block<4x1 x bool>\n"
              "%51 = cmp_lt %10, N : block<1x4 x bool>\n"
              "%52 = and %50, %51 : block<4x4 x bool>\n"
              "store %49, %35, %52\n",
              "kernel k(a: ptr<f32>, c: ptr<f32>, M: i32, N: i32)\n"
              "%2 = arange {start=0, end=4} : vector<4 x i32>\n"
              "%4 = expand_dims %2 {axis=1} : block<4x1 x i32>\n"
              "%10 = expand_dims %2 {axis=0} : block<1x4 x i32>\n"
              "%13 = mul %4, 3 : block<4x1 x i32>\n"
              "%15 = addptr a, %13 : block<4x1 x ptr<f32>>\n"
              "%16 = cmp_lt %4, M : block<4x1 x bool>\n"
              "%17 = load %15, %16, 0.0 : block<4x1 x f32>\n"
              "%26 = add %13, 1 : block<4x1 x i32>\n"
              "%27 = addptr a, %26 : block<4x1 x ptr<f32>>\n"
              "%29 = load %27, %16, 0.0 : block<4x1 x f32>\n"
              "%35 = add %17, %29 : block<4x1 x f32>\n"
              "%49 = addptr c, %10 : block<1x4 x ptr<f32>>\n"
              "%51 = cmp_lt %10, N : block<1x4 x bool>\n"
              "%52 = and %16, %51 : block<4x4 x bool>\n"
              "store %49, %35, %52\n");
}
END_TEST

START_TEST(dot_is_pure)
{
    check_cse("kernel k()\n"
              "%0 = zeros {shape=(4, 16), dtype=f32} : block<4x16 x f32>\n"
              "%1 = zeros {shape=(16, 8), dtype=f32} : block<16x8 x f32>\n"
              "%2 = dot %0, %1 : block<4x8 x f32>\n"
              "%3 = dot %0, %1 : block<4x8 x f32>\n"
              "%4 = add %2, %3 : block<4x8 x f32>\n",
              "kernel k()\n"
              "%0 = zeros {shape=(4, 16), dtype=f32} : block<4x16 x f32>\n"
              "%1 = zeros {shape=(16, 8), dtype=f32} : block<16x8 x f32>\n"
              "%2 = dot %0, %1 : block<4x8 x f32>\n"
              "%4 = add %2, %2 : block<4x8 x f32>\n");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cse");
    TCase *eq = tcase_create("equality");
    tcase_add_test(eq, duplicates_merge_into_the_first);
    tcase_add_test(eq, commutative_operands_in_either_order);
    tcase_add_test(eq, constants_compare_by_value_and_type);
    tcase_add_test(eq, attributes_distinguish);
    tcase_add_test(eq, loads_empties_and_stores_are_never_merged);
    tcase_add_test(eq, matmul_2d_duplicates_merge_into_the_first);
    tcase_add_test(eq, dot_is_pure);
    suite_add_tcase(s, eq);
    TCase *sc = tcase_create("scoping");
    tcase_add_test(sc, outer_values_reach_into_loop_bodies);
    tcase_add_test(sc, body_values_do_not_leave_their_loop);
    tcase_add_test(sc, nested_loops_see_their_enclosing_bodies_only);
    tcase_add_test(sc, loop_bounds_inits_and_yields_are_redirected);
    suite_add_tcase(s, sc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
