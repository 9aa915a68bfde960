/* check_fold.c: constant folding, the seeds' local simplifications (and
 * only those), the run-time refusals, and loop-invariant carried values.
 * QBE style: each test is an input function and the exact printed
 * function after mt_fold, which must also verify. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/passes.h"
#include "ssa/read.h"
#include "ssa/verify.h"

static const char *first_msg(MtCtx *c) { return mt_diag_count(c) ? mt_diag_at(c, 0)->msg : "(none)"; }

static void check_fold(const char *in, const char *want)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = mt_ssa_read(c, in, "in.ssa");
    ck_assert_msg(f != NULL, "input does not read: %s", first_msg(c));
    ck_assert_msg(mt_verify(c, f, "input"), "%s", first_msg(c));
    mt_fold(c, f);
    ck_assert_msg(mt_verify(c, f, "fold"), "%s", first_msg(c));
    ck_assert_str_eq(mt_ssa_write(c, f), want);
    mt_ctx_free(c);
}

#define HI "kernel k(out: ptr<i32>, n: i32)\n"
#define HF "kernel k(out: ptr<f32>, s: f32)\n"
#define HB "kernel k(out: ptr<bool>, t: bool)\n"

START_TEST(integer_arithmetic)
{
    check_fold(HI "%0 = add 2, 3 : i32\n"
                  "%1 = mul %0, 4 : i32\n"
                  "%2 = sub %1, 30 : i32\n"
                  "%3 = addptr out, %2 : ptr<i32>\n"
                  "store %3, %1, none\n"
                  "%4 = maximum %2, 7 : i32\n"
                  "%5 = minimum %2, 7 : i32\n"
                  "%6 = add true, 1 : i32\n"
                  "%7 = mul false, 9 : i32\n"
                  "store out, %4, none\n"
                  "store out, %5, none\n"
                  "store out, %6, none\n"
                  "store out, %7, none\n",
               HI "%3 = addptr out, -10 : ptr<i32>\n"
                  "store %3, 20, none\n"
                  "store out, 7, none\n"
                  "store out, -10, none\n"
                  "store out, 2, none\n"
                  "store out, 0, none\n");
}
END_TEST

START_TEST(i32_wraps_around)
{
    check_fold(HI "%0 = add 2147483647, 1 : i32\n"
                  "%1 = mul 65536, 65536 : i32\n"
                  "%2 = sub -2147483648, 1 : i32\n"
                  "%3 = neg -2147483648 : i32\n"
                  "%4 = mul -2147483648, -1 : i32\n"
                  "store out, %0, none\nstore out, %1, none\nstore out, %2, none\n"
                  "store out, %3, none\nstore out, %4, none\n",
               HI "store out, -2147483648, none\nstore out, 0, none\nstore out, 2147483647, none\n"
                  "store out, -2147483648, none\nstore out, -2147483648, none\n");
}
END_TEST

START_TEST(floordiv_truncates_and_mod_takes_dividend_sign)
{
    check_fold(HI "%0 = floordiv -7, 2 : i32\n"
                  "%1 = mod -7, 2 : i32\n"
                  "%2 = floordiv 7, -2 : i32\n"
                  "%3 = mod 7, -2 : i32\n"
                  "%4 = floordiv 7, true : i32\n"
                  "store out, %0, none\nstore out, %1, none\nstore out, %2, none\n"
                  "store out, %3, none\nstore out, %4, none\n",
               HI "store out, -3, none\nstore out, -1, none\nstore out, -3, none\n"
                  "store out, 1, none\nstore out, 7, none\n");
}
END_TEST

START_TEST(integer_traps_are_left_to_run_time)
{
    const char *text = HI "%0 = floordiv 1, 0 : i32\n"
                          "%1 = mod 1, 0 : i32\n"
                          "%2 = floordiv -2147483648, -1 : i32\n"
                          "%3 = mod -2147483648, -1 : i32\n"
                          "%4 = mod 5, false : i32\n"
                          "%5 = div 1, 0 : f32\n"
                          "store out, %0, none\nstore out, %1, none\nstore out, %2, none\n"
                          "store out, %3, none\nstore out, %4, none\nstore out, %5, none\n";
    check_fold(text, text);
}
END_TEST

START_TEST(float_arithmetic_is_float32)
{
    check_fold(HF "%0 = add 0.1, 0.2 : f32\n"
                  "%1 = div 1, 3 : f32\n"
                  "%2 = add 16777217, 0.0 : f32\n"
                  "%3 = mul 1e+30, 1e+30 : f32\n"
                  "%4 = sub 2.5, 0.5 : f32\n"
                  "%5 = neg 2.5 : f32\n"
                  "%6 = div 7, 2 : f32\n"
                  "store out, %0, none\nstore out, %1, none\nstore out, %2, none\n"
                  "store out, %3, none\nstore out, %4, none\nstore out, %5, none\nstore out, %6, none\n",
               HF "store out, 0.30000001192092896, none\nstore out, 0.3333333432674408, none\n"
                  "store out, 16777216.0, none\nstore out, inf, none\nstore out, 2.0, none\n"
                  "store out, -2.5, none\nstore out, 3.5, none\n");
}
END_TEST

START_TEST(nan_and_negative_zero_are_left_to_run_time)
{
    const char *text = HF "%0 = mul -1.0, 0.0 : f32\n"
                          "%1 = neg 0.0 : f32\n"
                          "%2 = sub inf, inf : f32\n"
                          "%3 = add nan, 1.0 : f32\n"
                          "%4 = maximum nan, 1.0 : f32\n"
                          "%5 = div 1.0, 0.0 : f32\n"
                          "%6 = div 0.0, -1 : f32\n"
                          "%7 = maximum 0.0, -0.0 : f32\n"
                          "%8 = exp 0.0 : f32\n"
                          "store out, %0, none\nstore out, %1, none\nstore out, %2, none\n"
                          "store out, %3, none\nstore out, %4, none\nstore out, %5, none\n"
                          "store out, %6, none\nstore out, %7, none\nstore out, %8, none\n";
    check_fold(text, text);
}
END_TEST

START_TEST(float_extrema_pick_the_right_operand_on_ties)
{
    check_fold(HF "%0 = maximum -0.0, 0.0 : f32\n"
                  "%1 = minimum 0.0, 1 : f32\n"
                  "%2 = maximum 2, 1.5 : f32\n"
                  "store out, %0, none\nstore out, %1, none\nstore out, %2, none\n",
               HF "store out, 0.0, none\nstore out, 0.0, none\nstore out, 2.0, none\n");
}
END_TEST

START_TEST(comparisons)
{
    check_fold(HB "%0 = cmp_lt 1, 2 : bool\n"
                  "%1 = cmp_eq 1, 1.0 : bool\n"
                  "%2 = cmp_ne nan, nan : bool\n"
                  "%3 = cmp_ge true, 1 : bool\n"
                  "%4 = cmp_gt -1, 4294967 : bool\n"
                  "%5 = cmp_le 0.1, 0.1 : bool\n"
                  "store out, %0, none\nstore out, %1, none\nstore out, %2, none\n"
                  "store out, %3, none\nstore out, %4, none\nstore out, %5, none\n",
               HB "store out, true, none\nstore out, true, none\nstore out, true, none\n"
                  "store out, true, none\nstore out, false, none\nstore out, true, none\n");
}
END_TEST

START_TEST(bool_logic_and_bitwise_integers)
{
    check_fold("kernel k(out: ptr<i32>)\n"
               "%0 = and true, false : bool\n"
               "%1 = or true, false : bool\n"
               "%2 = xor true, true : bool\n"
               "%3 = not true : bool\n"
               "%4 = not 5 : i32\n"
               "%5 = and 6, 3 : i32\n"
               "%6 = or true, 4 : i32\n"
               "%7 = xor 5, -1 : i32\n"
               "store out, %0, none\nstore out, %1, none\nstore out, %2, none\nstore out, %3, none\n"
               "store out, %4, none\nstore out, %5, none\nstore out, %6, none\nstore out, %7, none\n",
               "kernel k(out: ptr<i32>)\n"
               "store out, false, none\nstore out, true, none\nstore out, false, none\nstore out, false, none\n"
               "store out, -6, none\nstore out, 2, none\nstore out, 5, none\nstore out, -6, none\n");
}
END_TEST

START_TEST(select_on_a_constant_condition)
{
    check_fold("kernel k(out: ptr<i32>, n: i32, m: i32)\n"
               "%0 = arange {start=0, end=8} : vector<8 x i32>\n"
               "%1 = select true, n, m : i32\n"
               "%2 = select false, n, m : i32\n"
               "%3 = select false, 1, 2.0 : f32\n"
               "%4 = select true, 1, 2.0 : f32\n"
               "%5 = select true, %0, 0 : vector<8 x i32>\n"
               "%6 = select true, 0, %0 : vector<8 x i32>\n"
               "%7 = cmp_lt n, m : bool\n"
               "%8 = select %7, n, m : i32\n"
               "%9 = addptr out, %5 : vector<8 x ptr<i32>>\n"
               "store out, %1, none\nstore out, %2, none\nstore out, %3, none\nstore out, %4, none\n"
               "store %9, %6, none\nstore out, %8, none\n",
               "kernel k(out: ptr<i32>, n: i32, m: i32)\n"
               "%0 = arange {start=0, end=8} : vector<8 x i32>\n"
               "%4 = select true, 1, 2.0 : f32\n"
               "%6 = select true, 0, %0 : vector<8 x i32>\n"
               "%7 = cmp_lt n, m : bool\n"
               "%8 = select %7, n, m : i32\n"
               "%9 = addptr out, %0 : vector<8 x ptr<i32>>\n"
               "store out, n, none\nstore out, m, none\nstore out, 2.0, none\nstore out, %4, none\n"
               "store %9, %6, none\nstore out, %8, none\n");
}
END_TEST

START_TEST(identities_only_with_the_constant_on_the_right)
{
    /* the seeds keep `add 0, %3` (long-row sum) and `addptr %2, 0` */
    check_fold("kernel k(out: ptr<i32>, n: i32)\n"
               "%0 = arange {start=0, end=4} : vector<4 x i32>\n"
               "%1 = add %0, 0 : vector<4 x i32>\n"
               "%2 = sub %1, 0 : vector<4 x i32>\n"
               "%3 = mul %2, 1 : vector<4 x i32>\n"
               "%4 = add 0, %3 : vector<4 x i32>\n"
               "%5 = mul 1, %4 : vector<4 x i32>\n"
               "%6 = sub 0, %5 : vector<4 x i32>\n"
               "%7 = mul %6, 0 : vector<4 x i32>\n"
               "%8 = addptr out, %7 : vector<4 x ptr<i32>>\n"
               "%9 = addptr %8, 0 : vector<4 x ptr<i32>>\n"
               "%10 = mul n, 1 : i32\n"
               "store %9, %10, none\n",
               "kernel k(out: ptr<i32>, n: i32)\n"
               "%0 = arange {start=0, end=4} : vector<4 x i32>\n"
               "%4 = add 0, %0 : vector<4 x i32>\n"
               "%5 = mul 1, %4 : vector<4 x i32>\n"
               "%6 = sub 0, %5 : vector<4 x i32>\n"
               "%7 = mul %6, 0 : vector<4 x i32>\n"
               "%8 = addptr out, %7 : vector<4 x ptr<i32>>\n"
               "%9 = addptr %8, 0 : vector<4 x ptr<i32>>\n"
               "store %9, n, none\n");
}
END_TEST

START_TEST(identities_only_for_i32_results_of_the_same_type)
{
    const char *text = "kernel k(out: ptr<f32>, s: f32, t: bool, n: i32)\n"
                       "%0 = add s, 0 : f32\n"
                       "%1 = add s, 0.0 : f32\n"
                       "%2 = mul s, 1 : f32\n"
                       "%3 = add t, 0 : i32\n"
                       "%4 = arange {start=0, end=4} : vector<4 x i32>\n"
                       "%5 = add %4, false : vector<4 x i32>\n"
                       "%6 = mul %5, true : vector<4 x i32>\n"
                       "%7 = add %6, n : vector<4 x i32>\n"
                       "store out, %0, none\nstore out, %1, none\nstore out, %2, none\nstore out, %3, none\n"
                       "%8 = addptr out, %7 : vector<4 x ptr<f32>>\n"
                       "store %8, 0.0, none\n";
    check_fold(text, text);
}
END_TEST

START_TEST(folds_inside_loop_bodies)
{
    check_fold("kernel k(x: ptr<f32>, out: ptr<f32>, K: i32)\n"
               "%7 = for %0 in range(0, K, 1) iter_args(%1 = 0.0) : f32 {\n"
               "  %2 = mul 2, 3 : i32\n"
               "  %3 = add %0, %2 : i32\n"
               "  %4 = addptr x, %3 : ptr<f32>\n"
               "  %5 = load %4, none, none : f32\n"
               "  %6 = add %1, %5 : f32\n"
               "  for %8 in range(%2, K, 1) {\n"
               "    %9 = sub %8, 0 : i32\n"
               "    %10 = add %9, %2 : i32\n"
               "    %11 = addptr out, %10 : ptr<f32>\n"
               "    store %11, %6, none\n"
               "    yield\n"
               "  }\n"
               "  yield %6\n"
               "}\n"
               "store out, %7, none\n",
               "kernel k(x: ptr<f32>, out: ptr<f32>, K: i32)\n"
               "%7 = for %0 in range(0, K, 1) iter_args(%1 = 0.0) : f32 {\n"
               "  %3 = add %0, 6 : i32\n"
               "  %4 = addptr x, %3 : ptr<f32>\n"
               "  %5 = load %4, none, none : f32\n"
               "  %6 = add %1, %5 : f32\n"
               "  for %8 in range(6, K, 1) {\n"
               "    %10 = add %8, 6 : i32\n"
               "    %11 = addptr out, %10 : ptr<f32>\n"
               "    store %11, %6, none\n"
               "    yield\n"
               "  }\n"
               "  yield %6\n"
               "}\n"
               "store out, %7, none\n");
}
END_TEST

START_TEST(invariant_carried_value_becomes_its_init)
{
    check_fold("kernel k(x: ptr<f32>, out: ptr<f32>, K: i32)\n"
               "%6, %7 = for %0 in range(0, K, 1) iter_args(%1 = 0.0, %2 = 5) : f32, i32 {\n"
               "  %3 = addptr x, %2 : ptr<f32>\n"
               "  %4 = load %3, none, none : f32\n"
               "  %5 = add %1, %4 : f32\n"
               "  yield %5, %2\n"
               "}\n"
               "%8 = addptr out, %7 : ptr<f32>\n"
               "store %8, %6, none\n",
               "kernel k(x: ptr<f32>, out: ptr<f32>, K: i32)\n"
               "%6 = for %0 in range(0, K, 1) iter_args(%1 = 0.0) : f32 {\n"
               "  %3 = addptr x, 5 : ptr<f32>\n"
               "  %4 = load %3, none, none : f32\n"
               "  %5 = add %1, %4 : f32\n"
               "  yield %5\n"
               "}\n"
               "%8 = addptr out, 5 : ptr<f32>\n"
               "store %8, %6, none\n");
}
END_TEST

START_TEST(invariance_found_by_simplification_then_folded)
{
    /* yield %4 = add %2, 0 is yield %2: the slot goes, %2 becomes 5, and
     * the next round folds mul 5, 2 in the body already walked */
    check_fold("kernel k(out: ptr<i32>, K: i32, n: i32)\n"
               "%7, %8, %9 = for %0 in range(0, K, 1) iter_args(%1 = n, %2 = 5, %3 = 0) : i32, i32, i32 {\n"
               "  %4 = add %2, 0 : i32\n"
               "  %5 = mul %2, 2 : i32\n"
               "  %6 = add %3, %5 : i32\n"
               "  yield %1, %4, %6\n"
               "}\n"
               "%10 = add %7, %8 : i32\n"
               "%11 = addptr out, %10 : ptr<i32>\n"
               "store %11, %9, none\n",
               "kernel k(out: ptr<i32>, K: i32, n: i32)\n"
               "%9 = for %0 in range(0, K, 1) iter_args(%3 = 0) : i32 {\n"
               "  %6 = add %3, 10 : i32\n"
               "  yield %6\n"
               "}\n"
               "%10 = add n, 5 : i32\n"
               "%11 = addptr out, %10 : ptr<i32>\n"
               "store %11, %9, none\n");
}
END_TEST

START_TEST(swapped_carried_values_are_not_invariant)
{
    const char *text = "kernel k(out: ptr<i32>, K: i32)\n"
                       "%3, %4 = for %0 in range(0, K, 1) iter_args(%1 = 1, %2 = 2) : i32, i32 {\n"
                       "  yield %2, %1\n"
                       "}\n"
                       "store out, %3, none\n"
                       "store out, %4, none\n";
    check_fold(text, text);
}
END_TEST

START_TEST(seed_listings_are_fixed_points)
{
    /* the seeds print these after optimisation: fold must not touch them */
    const char *listings[] = {
        "kernel long_row_sum_kernel(x: ptr<f32>, out: ptr<f32>)\n"
        "%0 = program_id {axis=0} : i32\n"
        "%1 = mul %0, 10 : i32\n"
        "%3 = arange {start=0, end=4} : vector<4 x i32>\n"
        "%4 = add 0, %3 : vector<4 x i32>\n"
        "%5 = cmp_lt %4, 10 : vector<4 x bool>\n"
        "%6 = addptr x, %1 : ptr<f32>\n"
        "%7 = addptr %6, %4 : vector<4 x ptr<f32>>\n"
        "%8 = load %7, %5, 0.0 : vector<4 x f32>\n"
        "%9 = add 0.0, %8 : vector<4 x f32>\n"
        "%10 = sum %9 : f32\n"
        "%11 = addptr out, %0 : ptr<f32>\n"
        "%12 = cmp_lt %3, 1 : vector<4 x bool>\n"
        "store %11, %10, %12\n",
    };
    for (size_t i = 0; i < sizeof listings / sizeof listings[0]; i++)
        check_fold(listings[i], listings[i]);
}
END_TEST

START_TEST(matmul_2d_add_zero_is_removed)
{
    /* the seeds' matmul_2d: `%14 = add %13, 0` goes, its use becomes %13;
     * `mul %11, 0.0` (f32) and `mul 0, N` (constant on the left) stay */
    check_fold("kernel k(a: ptr<f32>, M: i32, N: i32)\n"
               "%0 = arange {start=0, end=4} : vector<4 x i32>\n"
               "%4 = expand_dims %0 {axis=1} : block<4x1 x i32>\n"
               "%11 = mul %4, N : block<4x1 x i32>\n"
               "%12 = mul %11, 0.0 : block<4x1 x f32>\n"
               "%13 = mul %4, 3 : block<4x1 x i32>\n"
               "%14 = add %13, 0 : block<4x1 x i32>\n"
               "%15 = addptr a, %14 : block<4x1 x ptr<f32>>\n"
               "%18 = mul 0, N : i32\n"
               "%19 = addptr %15, %18 : block<4x1 x ptr<f32>>\n"
               "store %19, %12, none\n",
               "kernel k(a: ptr<f32>, M: i32, N: i32)\n"
               "%0 = arange {start=0, end=4} : vector<4 x i32>\n"
               "%4 = expand_dims %0 {axis=1} : block<4x1 x i32>\n"
               "%11 = mul %4, N : block<4x1 x i32>\n"
               "%12 = mul %11, 0.0 : block<4x1 x f32>\n"
               "%13 = mul %4, 3 : block<4x1 x i32>\n"
               "%15 = addptr a, %13 : block<4x1 x ptr<f32>>\n"
               "%18 = mul 0, N : i32\n"
               "%19 = addptr %15, %18 : block<4x1 x ptr<f32>>\n"
               "store %19, %12, none\n");
}
END_TEST

START_TEST(new_constants_are_typed_by_kind)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = mt_ssa_read(c,
                            "kernel k(out: ptr<f32>)\n"
                            "%0 = add 1, 2 : i32\n%1 = cmp_lt 1, 2 : bool\n%2 = add 1, 2.5 : f32\n"
                            "store out, %0, none\nstore out, %1, none\nstore out, %2, none\n",
                            "k.ssa");
    ck_assert_ptr_nonnull(f);
    mt_fold(c, f);
    ck_assert_uint_eq(f->body.n, 3);
    const MtValue *i = mt_val(f, f->body.v[0]->args[1]), *b = mt_val(f, f->body.v[1]->args[1]),
                  *x = mt_val(f, f->body.v[2]->args[1]);
    ck_assert_int_eq(i->kind, VK_CONST);
    ck_assert_int_eq(i->cst.kind, CST_INT);
    ck_assert_ptr_eq(i->ty, &mt_ty_i32);
    ck_assert_int_eq(b->cst.kind, CST_BOOL);
    ck_assert_ptr_eq(b->ty, &mt_ty_bool);
    ck_assert_int_eq(x->cst.kind, CST_FLOAT);
    ck_assert_ptr_eq(x->ty, &mt_ty_f32);
    ck_assert_double_eq(x->cst.f, 3.5);
    mt_ctx_free(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fold");
    TCase *k = tcase_create("constants");
    tcase_add_test(k, integer_arithmetic);
    tcase_add_test(k, i32_wraps_around);
    tcase_add_test(k, floordiv_truncates_and_mod_takes_dividend_sign);
    tcase_add_test(k, integer_traps_are_left_to_run_time);
    tcase_add_test(k, float_arithmetic_is_float32);
    tcase_add_test(k, nan_and_negative_zero_are_left_to_run_time);
    tcase_add_test(k, float_extrema_pick_the_right_operand_on_ties);
    tcase_add_test(k, comparisons);
    tcase_add_test(k, bool_logic_and_bitwise_integers);
    tcase_add_test(k, new_constants_are_typed_by_kind);
    suite_add_tcase(s, k);
    TCase *simp = tcase_create("simplify");
    tcase_add_test(simp, select_on_a_constant_condition);
    tcase_add_test(simp, identities_only_with_the_constant_on_the_right);
    tcase_add_test(simp, identities_only_for_i32_results_of_the_same_type);
    tcase_add_test(simp, seed_listings_are_fixed_points);
    tcase_add_test(simp, matmul_2d_add_zero_is_removed);
    suite_add_tcase(s, simp);
    TCase *loops = tcase_create("loops");
    tcase_add_test(loops, folds_inside_loop_bodies);
    tcase_add_test(loops, invariant_carried_value_becomes_its_init);
    tcase_add_test(loops, invariance_found_by_simplification_then_folded);
    tcase_add_test(loops, swapped_carried_values_are_not_invariant);
    suite_add_tcase(s, loops);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
