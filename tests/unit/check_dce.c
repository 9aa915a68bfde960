/* check_dce.c: dead-code elimination (stores and kept values are the
 * roots; dead pure and F_DROP operations, dead loops and dead carried
 * slots go), then the whole pipeline: verify, fold, cse, dce with the
 * verifier and the dump hook after every pass, cancellation, and the
 * seeds' matmul_2d end to end. */
#include <check.h>

#include "../test_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt/passes.h"
#include "ssa/read.h"
#include "ssa/verify.h"

static char *slurp(const char *name)
{
    char rel[256];
    snprintf(rel, sizeof rel, "data/ssa/%s", name);
    return test_read_beside(__FILE__, rel);
}

static const char *first_msg(MtCtx *c) { return mt_diag_count(c) ? mt_diag_at(c, 0)->msg : "(none)"; }

static MtFunc *read_ok(MtCtx *c, const char *text)
{
    MtFunc *f = mt_ssa_read(c, text, "in.ssa");
    ck_assert_msg(f != NULL, "input does not read: %s", first_msg(c));
    return f;
}

static void check_dce(const char *in, const char *want)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, in);
    ck_assert_msg(mt_verify(c, f, "input"), "%s", first_msg(c));
    mt_dce(c, f);
    ck_assert_msg(mt_verify(c, f, "dce"), "%s", first_msg(c));
    ck_assert_str_eq(mt_ssa_write(c, f), want);
    mt_ctx_free(c);
}

#define H "kernel k(x: ptr<f32>, out: ptr<f32>, n: i32, K: i32)\n"

START_TEST(nests_live_or_die_whole)
{
    /* the unused reduce goes; the used one stays, with its region's dead
     * operation removed and its unused second result kept with it */
    check_dce(H "%0 = arange {start=0, end=8} : vector<8 x i32>\n"
                "%5 = reduce %0 {axis=0} combine(%1, %2) : i32 {\n"
                "  %3 = add %1, %2 : i32\n"
                "  %4 = mul %1, %2 : i32\n"
                "  yield %3\n"
                "}\n"
                "%11, %12 = reduce %0, %0 {axis=0} combine(%6, %7, %8, %9) : i32, i32 {\n"
                "  %10 = add %6, %8 : i32\n"
                "  %13 = sub %6, %8 : i32\n"
                "  yield %10, %7\n"
                "}\n"
                "%14 = addptr out, %11 : ptr<f32>\n"
                "store %14, 1.0, none\n",
              H "%0 = arange {start=0, end=8} : vector<8 x i32>\n"
                "%11, %12 = reduce %0, %0 {axis=0} combine(%6, %7, %8, %9) : i32, i32 {\n"
                "  %10 = add %6, %8 : i32\n"
                "  yield %10, %7\n"
                "}\n"
                "%14 = addptr out, %11 : ptr<f32>\n"
                "store %14, 1.0, none\n");
}
END_TEST

START_TEST(ifs_with_stores_stay_dead_ifs_go)
{
    check_dce(H "%0 = cmp_gt n, 0 : bool\n"
                "%3 = if %0 : i32 {\n"
                "  %1 = add n, 1 : i32\n"
                "  yield %1\n"
                "} else {\n"
                "  yield n\n"
                "}\n"
                "if %0 {\n"
                "  %4 = mul n, 2 : i32\n"
                "  %5 = addptr out, n : ptr<f32>\n"
                "  store %5, 1.0, none\n"
                "  yield\n"
                "} else {\n"
                "  yield\n"
                "}\n",
              H "%0 = cmp_gt n, 0 : bool\n"
                "if %0 {\n"
                "  %5 = addptr out, n : ptr<f32>\n"
                "  store %5, 1.0, none\n"
                "  yield\n"
                "} else {\n"
                "  yield\n"
                "}\n");
}
END_TEST

START_TEST(dead_operations_go_stores_stay)
{
    check_dce(H "%0 = program_id {axis=0} : i32\n"
                "%1 = mul %0, 4 : i32\n"
                "%2 = load x, none, none : f32\n"
                "%3 = empty {shape=(8,), dtype=f32} : vector<8 x f32>\n"
                "%4 = add %1, n : i32\n"
                "%5 = addptr out, %4 : ptr<f32>\n"
                "%6 = load %5, none, none : f32\n"
                "store %5, %6, none\n",
              H "%0 = program_id {axis=0} : i32\n"
                "%1 = mul %0, 4 : i32\n"
                "%4 = add %1, n : i32\n"
                "%5 = addptr out, %4 : ptr<f32>\n"
                "%6 = load %5, none, none : f32\n"
                "store %5, %6, none\n");
}
END_TEST

START_TEST(nothing_stored_nothing_kept)
{
    check_dce(H "%0 = zeros {shape=(4, 16), dtype=f32} : block<4x16 x f32>\n"
                "%1 = zeros {shape=(16, 8), dtype=f32} : block<16x8 x f32>\n"
                "%2 = dot %0, %1 : block<4x8 x f32>\n",
              H);
}
END_TEST

START_TEST(dead_loop_goes_whole)
{
    check_dce(H "%0 = add n, 1 : i32\n"
                "%5 = for %1 in range(0, %0, 1) iter_args(%2 = 0.0) : f32 {\n"
                "  %3 = load x, none, none : f32\n"
                "  %4 = add %2, %3 : f32\n"
                "  yield %4\n"
                "}\n"
                "store out, 1.0, none\n",
              H "store out, 1.0, none\n");
}
END_TEST

START_TEST(loop_with_a_store_stays_its_slots_go)
{
    check_dce(H "%0 = add n, 1 : i32\n"
                "%1 = mul n, 2 : i32\n"
                "%7 = for %2 in range(%0, K, 1) iter_args(%3 = %1) : i32 {\n"
                "  %4 = addptr out, %2 : ptr<f32>\n"
                "  store %4, 0.0, none\n"
                "  %5 = add %3, 1 : i32\n"
                "  yield %5\n"
                "}\n",
              H "%0 = add n, 1 : i32\n"
                "for %2 in range(%0, K, 1) {\n"
                "  %4 = addptr out, %2 : ptr<f32>\n"
                "  store %4, 0.0, none\n"
                "  yield\n"
                "}\n");
}
END_TEST

START_TEST(dead_slot_of_a_live_loop)
{
    check_dce(H "%1 = mul n, 3 : i32\n"
                "%8, %9 = for %0 in range(0, K, 1) iter_args(%2 = 0.0, %3 = %1) : f32, i32 {\n"
                "  %4 = addptr x, %0 : ptr<f32>\n"
                "  %5 = load %4, none, none : f32\n"
                "  %6 = add %2, %5 : f32\n"
                "  %7 = add %3, %0 : i32\n"
                "  yield %6, %7\n"
                "}\n"
                "store out, %8, none\n",
              H "%8 = for %0 in range(0, K, 1) iter_args(%2 = 0.0) : f32 {\n"
                "  %4 = addptr x, %0 : ptr<f32>\n"
                "  %5 = load %4, none, none : f32\n"
                "  %6 = add %2, %5 : f32\n"
                "  yield %6\n"
                "}\n"
                "store out, %8, none\n");
}
END_TEST

START_TEST(first_slot_dead_later_slots_renumbered)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%6, %7 = for %0 in range(0, K, 1) iter_args(%1 = 0, %2 = 0.0) : i32, f32 {\n"
                             "  %3 = add %1, 1 : i32\n"
                             "  %4 = load x, none, none : f32\n"
                             "  %5 = add %2, %4 : f32\n"
                             "  yield %3, %5\n"
                             "}\n"
                             "store out, %7, none\n");
    mt_dce(c, f);
    ck_assert_msg(mt_verify(c, f, "dce"), "%s", first_msg(c));
    ck_assert_str_eq(mt_ssa_write(c, f), H "%7 = for %0 in range(0, K, 1) iter_args(%2 = 0.0) : f32 {\n"
                                           "  %4 = load x, none, none : f32\n"
                                           "  %5 = add %2, %4 : f32\n"
                                           "  yield %5\n"
                                           "}\n"
                                           "store out, %7, none\n");
    MtForData *l = f->body.v[0]->loop;
    ck_assert_uint_eq(mt_val(f, l->iter_args[0])->index, 0);
    ck_assert_uint_eq(mt_val(f, l->results[0])->index, 0);
    mt_ctx_free(c);
}
END_TEST

START_TEST(live_region_argument_keeps_its_slot)
{
    /* the result is unused, but the argument feeds a store in the body:
     * the slot stays, and with it the yield operand's computation */
    const char *text = H "%6 = for %0 in range(0, K, 1) iter_args(%1 = 1.0) : f32 {\n"
                         "  %2 = addptr out, %0 : ptr<f32>\n"
                         "  store %2, %1, none\n"
                         "  %3 = load x, none, none : f32\n"
                         "  %4 = mul %1, %3 : f32\n"
                         "  yield %4\n"
                         "}\n";
    check_dce(text, text);
}
END_TEST

START_TEST(live_result_keeps_its_init)
{
    const char *text = H "%0 = load x, none, none : f32\n"
                         "%1 = mul %0, 2.0 : f32\n"
                         "%5 = for %2 in range(0, K, 1) iter_args(%3 = %1) : f32 {\n"
                         "  %4 = add %3, 1.0 : f32\n"
                         "  yield %4\n"
                         "}\n"
                         "store out, %5, none\n";
    check_dce(text, text);
}
END_TEST

START_TEST(dead_inner_loop_in_a_live_outer_loop)
{
    check_dce(H "%8 = for %0 in range(0, K, 1) iter_args(%1 = 0.0) : f32 {\n"
                "  %6 = for %2 in range(%0, K, 1) iter_args(%3 = %1) : f32 {\n"
                "    %4 = load x, none, none : f32\n"
                "    %5 = add %3, %4 : f32\n"
                "    yield %5\n"
                "  }\n"
                "  %7 = add %1, 1.0 : f32\n"
                "  yield %7\n"
                "}\n"
                "store out, %8, none\n",
              H "%8 = for %0 in range(0, K, 1) iter_args(%1 = 0.0) : f32 {\n"
                "  %7 = add %1, 1.0 : f32\n"
                "  yield %7\n"
                "}\n"
                "store out, %8, none\n");
}
END_TEST

START_TEST(store_in_an_inner_loop_keeps_both_loops)
{
    check_dce(H "%0 = add n, 1 : i32\n"
                "%9 = for %1 in range(0, K, 1) iter_args(%2 = 0) : i32 {\n"
                "  %3 = mul %1, n : i32\n"
                "  for %4 in range(0, %0, 1) {\n"
                "    %5 = add %3, %4 : i32\n"
                "    %6 = addptr out, %5 : ptr<f32>\n"
                "    store %6, 0.0, none\n"
                "    yield\n"
                "  }\n"
                "  %7 = add %2, 1 : i32\n"
                "  yield %7\n"
                "}\n",
              H "%0 = add n, 1 : i32\n"
                "for %1 in range(0, K, 1) {\n"
                "  %3 = mul %1, n : i32\n"
                "  for %4 in range(0, %0, 1) {\n"
                "    %5 = add %3, %4 : i32\n"
                "    %6 = addptr out, %5 : ptr<f32>\n"
                "    store %6, 0.0, none\n"
                "    yield\n"
                "  }\n"
                "  yield\n"
                "}\n");
}
END_TEST

START_TEST(seed_listings_have_no_dead_code)
{
    const char *files[] = {"add_kernel.ssa", "softmax.ssa", "matrix_add_2d.ssa", "runtime_sum.ssa",
                           "two_carried.ssa", "nested_loops.ssa", "matmul_2d.opt.ssa"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *text = slurp(files[i]);
        check_dce(text, text);
        free(text);
    }
}
END_TEST

/* ---- the pipeline ----------------------------------------------------------------- */

typedef struct Trace {
    char passes[64];
    char last[4096];
    bool corrupt_after_fold;  /* make fold's output invalid, as a broken pass would */
    MtCtx *cancel;            /* cancel this context after the pass cancel_after */
    const char *cancel_after;
} Trace;

static void record(const char *pass, const MtFunc *f, void *ud)
{
    Trace *t = ud;
    strcat(t->passes, pass);
    strcat(t->passes, " ");
    if (t->corrupt_after_fold && !strcmp(pass, "fold"))
        ((MtFunc *)f)->body.v[0]->args[0] = 0;
    if (t->cancel && !strcmp(pass, t->cancel_after))
        mt_ctx_cancel(t->cancel);
    MtCtx *c = mt_ctx_new(NULL);
    snprintf(t->last, sizeof t->last, "%s", mt_ssa_print(c, f));
    mt_ctx_free(c);
}

START_TEST(pass_names)
{
    size_t n = 0;
    const char *const *names = mt_pass_names(&n);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(names[0], "fold");
    ck_assert_str_eq(names[1], "cse");
    ck_assert_str_eq(names[2], "dce");
}
END_TEST

START_TEST(matmul_2d_end_to_end)
{
    char *in = slurp("matmul_2d.ssa"), *want = slurp("matmul_2d.opt.ssa");
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, in);
    Trace t = {0};
    ck_assert_int_eq(mt_optimize(c, f, record, &t), MT_OK);
    ck_assert_uint_eq(mt_diag_count(c), 0);
    ck_assert_str_eq(t.passes, "fold cse dce ");
    ck_assert_str_eq(mt_ssa_write(c, f), want);
    ck_assert_str_eq(t.last, mt_ssa_print(c, f));
    mt_ctx_free(c);
    free(in);
    free(want);
}
END_TEST

START_TEST(loops_are_optimised_too)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = mul n, 4 : i32\n"
                             "%9, %10 = for %1 in range(0, K, 1) iter_args(%2 = 0.0, %3 = 7) : f32, i32 {\n"
                             "  %4 = mul n, 4 : i32\n"
                             "  %5 = add %4, %1 : i32\n"
                             "  %6 = addptr x, %5 : ptr<f32>\n"
                             "  %7 = load %6, none, none : f32\n"
                             "  %8 = add %2, %7 : f32\n"
                             "  %11 = add %3, 0 : i32\n"
                             "  yield %8, %11\n"
                             "}\n"
                             "%12 = addptr out, %10 : ptr<f32>\n"
                             "%13 = add %0, 0 : i32\n"
                             "store %12, %9, none\n");
    ck_assert_int_eq(mt_optimize(c, f, NULL, NULL), MT_OK);
    ck_assert_str_eq(mt_ssa_write(c, f), H "%0 = mul n, 4 : i32\n"
                                           "%9 = for %1 in range(0, K, 1) iter_args(%2 = 0.0) : f32 {\n"
                                           "  %5 = add %0, %1 : i32\n"
                                           "  %6 = addptr x, %5 : ptr<f32>\n"
                                           "  %7 = load %6, none, none : f32\n"
                                           "  %8 = add %2, %7 : f32\n"
                                           "  yield %8\n"
                                           "}\n"
                                           "%12 = addptr out, 7 : ptr<f32>\n"
                                           "store %12, %9, none\n");
    mt_ctx_free(c);
}
END_TEST

/* The value printed %num, for keeping it. */
static MtVal val_num(const MtFunc *f, uint32_t num)
{
    for (MtVal v = 1; v < f->nvals; v++)
        if (f->vals[v].kind != VK_PARAM && f->vals[v].kind != VK_CONST && f->vals[v].num == num)
            return v;
    ck_abort_msg("no %%%u", num);
    return 0;
}

START_TEST(kept_values_survive_and_follow_their_replacements)
{
    /* No store at all (a prefix analysis): what is kept stays, with what
     * computes it; a kept value that fold or CSE replaces is kept as its
     * replacement; the rest goes. */
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = mul n, 4 : i32\n"
                             "%1 = mul n, 4 : i32\n"
                             "%2 = add %1, 0 : i32\n"
                             "%3 = sub n, 1 : i32\n"
                             "%7 = for %4 in range(0, K, 1) iter_args(%5 = 0.0) : f32 {\n"
                             "  %6 = add %5, 1.0 : f32\n"
                             "  %8 = mul %6, 2.0 : f32\n"
                             "  yield %6\n"
                             "}\n");
    MtVal kept[] = {val_num(f, 2), val_num(f, 8)};
    for (size_t i = 0; i < 2; i++)
        mt_vec_push(&c->arena, &f->keep, kept[i]);
    ck_assert_int_eq(mt_optimize(c, f, NULL, NULL), MT_OK);
    ck_assert_str_eq(mt_ssa_write(c, f), H "%0 = mul n, 4 : i32\n"
                                           "%7 = for %4 in range(0, K, 1) iter_args(%5 = 0.0) : f32 {\n"
                                           "  %6 = add %5, 1.0 : f32\n"
                                           "  %8 = mul %6, 2.0 : f32\n"
                                           "  yield %6\n"
                                           "}\n");
    ck_assert_uint_eq(f->keep.n, 2);
    ck_assert_uint_eq(f->keep.v[0], val_num(f, 0));
    ck_assert_uint_eq(f->keep.v[1], val_num(f, 8));
    /* without them, nothing is left */
    f->keep.n = 0;
    mt_dce(c, f);
    ck_assert_str_eq(mt_ssa_write(c, f), H);
    mt_ctx_free(c);
}
END_TEST

START_TEST(a_kept_value_defined_nowhere_is_an_error)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = mul n, 4 : i32\n");
    MtVal v = val_num(f, 0);
    mt_vec_push(&c->arena, &f->keep, v);
    f->body.n = 0;
    ck_assert(!mt_verify(c, f, "test"));
    ck_assert_str_eq(mt_diag_at(c, 0)->msg, "after test: kept value %0 is defined nowhere");
    mt_ctx_free(c);
}
END_TEST

START_TEST(invalid_lowering_stops_before_the_passes)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = add x, 1 : i32\n");
    Trace t = {0};
    ck_assert_int_eq(mt_optimize(c, f, record, &t), MT_ERR_SOURCE);
    ck_assert_str_eq(t.passes, "");
    ck_assert_uint_eq(mt_diag_count(c), 1);
    ck_assert_str_eq(mt_diag_at(c, 0)->code, "E0503");
    ck_assert_str_eq(mt_diag_at(c, 0)->msg,
                     "after lowering: add requires numeric operands, got ptr<f32> as operand 1");
    mt_ctx_free(c);
}
END_TEST

START_TEST(broken_pass_output_is_caught_after_that_pass)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = add n, 1 : i32\n%1 = addptr out, %0 : ptr<f32>\nstore %1, 1.0, none\n");
    Trace t = {.corrupt_after_fold = true};
    ck_assert_int_eq(mt_optimize(c, f, record, &t), MT_ERR_SOURCE);
    ck_assert_str_eq(t.passes, "fold ");
    ck_assert_uint_eq(mt_diag_count(c), 1);
    ck_assert_str_eq(mt_diag_at(c, 0)->code, "E0501");
    ck_assert_str_eq(mt_diag_at(c, 0)->msg, "after fold: add operand 1 is none");
    ck_assert_uint_eq(mt_diag_at(c, 0)->span.line, 2);
    mt_ctx_free(c);
}
END_TEST

START_TEST(cancelled_before_any_pass)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = add n, 1 : i32\n");
    mt_ctx_cancel(c);
    Trace t = {0};
    ck_assert_int_eq(mt_optimize(c, f, record, &t), MT_CANCELLED);
    ck_assert_str_eq(t.passes, "");
    ck_assert_uint_eq(f->body.n, 1);
    mt_ctx_free(c);
}
END_TEST

START_TEST(cancelled_between_passes)
{
    MtCtx *c = mt_ctx_new(NULL);
    const char *text = H "%0 = add n, 1 : i32\n%1 = add n, 1 : i32\n%2 = mul 2, 3 : i32\n";
    MtFunc *f = read_ok(c, text);
    Trace t = {.cancel = c, .cancel_after = "cse"};
    ck_assert_int_eq(mt_optimize(c, f, record, &t), MT_CANCELLED);
    ck_assert_str_eq(t.passes, "fold cse ");
    ck_assert_str_eq(mt_ssa_write(c, f), H "%0 = add n, 1 : i32\n");
    mt_ctx_free(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dce");
    TCase *d = tcase_create("dce");
    tcase_add_test(d, dead_operations_go_stores_stay);
    tcase_add_test(d, nests_live_or_die_whole);
    tcase_add_test(d, ifs_with_stores_stay_dead_ifs_go);
    tcase_add_test(d, nothing_stored_nothing_kept);
    tcase_add_test(d, dead_loop_goes_whole);
    tcase_add_test(d, loop_with_a_store_stays_its_slots_go);
    tcase_add_test(d, dead_slot_of_a_live_loop);
    tcase_add_test(d, first_slot_dead_later_slots_renumbered);
    tcase_add_test(d, live_region_argument_keeps_its_slot);
    tcase_add_test(d, live_result_keeps_its_init);
    tcase_add_test(d, dead_inner_loop_in_a_live_outer_loop);
    tcase_add_test(d, store_in_an_inner_loop_keeps_both_loops);
    tcase_add_test(d, seed_listings_have_no_dead_code);
    suite_add_tcase(s, d);
    TCase *p = tcase_create("pipeline");
    tcase_add_test(p, pass_names);
    tcase_add_test(p, matmul_2d_end_to_end);
    tcase_add_test(p, loops_are_optimised_too);
    tcase_add_test(p, kept_values_survive_and_follow_their_replacements);
    tcase_add_test(p, a_kept_value_defined_nowhere_is_an_error);
    tcase_add_test(p, invalid_lowering_stops_before_the_passes);
    tcase_add_test(p, broken_pass_output_is_caught_after_that_pass);
    tcase_add_test(p, cancelled_before_any_pass);
    tcase_add_test(p, cancelled_between_passes);
    suite_add_tcase(s, p);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
