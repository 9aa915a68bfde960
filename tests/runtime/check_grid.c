/* check_grid.c: grid expressions -- Python's arithmetic, names, the three
 * functions, and an exact message (with its column) for each error. */
#include <check.h>
#include <string.h>

#include "grid.h"

static char err[256];

/* n = 1000, BLOCK = 256, neg = -7, eps is a float, flag = 1 */
static int names(void *ud, const char *name, int64_t *value) {
    (void)ud;
    static const struct { const char *name; int64_t v; } known[] = {
        {"n", 1000}, {"BLOCK", 256}, {"neg", -7}, {"flag", 1}, {"big", INT64_MAX}, {"small", INT64_MIN},
        {"lambdax", 5},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(name, known[i].name)) {
            *value = known[i].v;
            return MT_GRID_FOUND;
        }
    return strcmp(name, "eps") ? MT_GRID_UNKNOWN : MT_GRID_NOT_INT;
}

static int64_t eval(const char *e) {
    int64_t v = -12345;
    MtStatus st = mt_grid_eval(e, names, NULL, &v, err, sizeof err);
    ck_assert_msg(st == MT_OK, "%s: %s", e, err);
    return v;
}

static void expect_error(const char *e, const char *msg) {
    int64_t v = 99;
    ck_assert_int_eq(mt_grid_eval(e, names, NULL, &v, err, sizeof err), MT_ERR_USAGE);
    ck_assert_str_eq(err, msg);
    ck_assert_int_eq(v, 99); /* untouched */
}

START_TEST(integers_and_names) {
    ck_assert_int_eq(eval("4"), 4);
    ck_assert_int_eq(eval("  n  "), 1000);
    ck_assert_int_eq(eval("1_000_000"), 1000000);
    ck_assert_int_eq(eval("9223372036854775807"), INT64_MAX);
}
END_TEST

START_TEST(precedence_is_pythons) {
    ck_assert_int_eq(eval("1 + 2 * 3"), 7);
    ck_assert_int_eq(eval("(1 + 2) * 3"), 9);
    ck_assert_int_eq(eval("10 - 4 - 3"), 3);
    ck_assert_int_eq(eval("100 // 10 // 3"), 3);
    ck_assert_int_eq(eval("-2 * 3"), -6);
    ck_assert_int_eq(eval("- -5"), 5);
    ck_assert_int_eq(eval("+5 % 3"), 2);
    ck_assert_int_eq(eval("2 * n // BLOCK + 1"), 8);
}
END_TEST

START_TEST(floor_division_and_modulo_follow_python) {
    ck_assert_int_eq(eval("7 // 2"), 3);
    ck_assert_int_eq(eval("-7 // 2"), -4);
    ck_assert_int_eq(eval("7 // -2"), -4);
    ck_assert_int_eq(eval("-7 // -2"), 3);
    ck_assert_int_eq(eval("-7 % 2"), 1);
    ck_assert_int_eq(eval("7 % -2"), -1);
    ck_assert_int_eq(eval("-7 % -2"), -1);
    ck_assert_int_eq(eval("neg % 3"), 2);
    ck_assert_int_eq(eval("small % -1"), 0);
}
END_TEST

START_TEST(functions) {
    ck_assert_int_eq(eval("cdiv(n, BLOCK)"), 4);
    ck_assert_int_eq(eval("cdiv(1024, 256)"), 4);
    ck_assert_int_eq(eval("triton.cdiv(1025, 256)"), 5);
    ck_assert_int_eq(eval("cdiv(0, 256)"), 0);
    ck_assert_int_eq(eval("max(n, 2 * BLOCK)"), 1000);
    ck_assert_int_eq(eval("min(n, 2 * BLOCK)"), 512);
    ck_assert_int_eq(eval("max(1, min(neg, 0))"), 1);
    ck_assert_int_eq(eval("cdiv(n, BLOCK) * cdiv(n, 64)"), 64);
}
END_TEST

START_TEST(meta_subscripts_read_names) {
    ck_assert_int_eq(eval("triton.cdiv(n, meta['BLOCK'])"), 4);
    ck_assert_int_eq(eval("meta[\"BLOCK\"] // 2"), 128);
}
END_TEST

START_TEST(unknown_names_and_non_integers) {
    expect_error("cdiv(n, BLOK)", "unknown name 'BLOK' at column 9 in \"cdiv(n, BLOK)\"");
    expect_error("n * eps", "'eps' is not an integer at column 5 in \"n * eps\"");
    expect_error("meta['NOPE']", "unknown name 'NOPE' at column 7 in \"meta['NOPE']\"");
    expect_error("ceil(n)", "unknown function 'ceil' (cdiv, max and min are known) at column 1 in \"ceil(n)\"");
    expect_error("triton.next_power_of_2(n)",
                 "unknown function 'triton.next_power_of_2' (cdiv, max and min are known) at column 1 in "
                 "\"triton.next_power_of_2(n)\"");
    int64_t v;
    ck_assert_int_eq(mt_grid_eval("n", NULL, NULL, &v, err, sizeof err), MT_ERR_USAGE);
    ck_assert_str_eq(err, "unknown name 'n' at column 1 in \"n\"");
}
END_TEST

START_TEST(division_by_zero) {
    expect_error("n // 0", "division by zero at column 3 in \"n // 0\"");
    expect_error("n % (BLOCK - 256)", "division by zero at column 3 in \"n % (BLOCK - 256)\"");
    expect_error("cdiv(n, 0)", "division by zero at column 1 in \"cdiv(n, 0)\"");
}
END_TEST

START_TEST(overflow) {
    expect_error("big + 1", "integer overflow at column 5 in \"big + 1\"");
    expect_error("small - 1", "integer overflow at column 7 in \"small - 1\"");
    expect_error("big * 2", "integer overflow at column 5 in \"big * 2\"");
    expect_error("-small", "integer overflow at column 1 in \"-small\"");
    expect_error("small // -1", "integer overflow at column 7 in \"small // -1\"");
    expect_error("cdiv(big, 2)", "integer overflow at column 1 in \"cdiv(big, 2)\"");
    expect_error("99999999999999999999", "integer 99999999999999999999 is too large at column 1 in \"99999999999999999999\"");
}
END_TEST

START_TEST(syntax_errors) {
    expect_error("n)", "unexpected ')' at column 2 in \"n)\"");
    expect_error("n BLOCK", "unexpected 'BLOCK' at column 3 in \"n BLOCK\"");
    expect_error("n +", "unexpected end of expression in \"n +\"");
    expect_error("(n", "unexpected end of expression in \"(n\"");
    expect_error("n / 2", "'/' is float division; use '//' at column 3 in \"n / 2\"");
    expect_error("n ** 2", "unexpected '**' at column 3 in \"n ** 2\"");
    expect_error("2n", "unexpected 'n' at column 2 in \"2n\"");
    expect_error("cdiv(n)", "cdiv() takes 2 arguments, got 1 at column 1 in \"cdiv(n)\"");
    expect_error("max(1, 2, 3)", "max() takes 2 arguments, got more at column 1 in \"max(1, 2, 3)\"");
    expect_error("n $ 2", "unexpected '$' at column 3 in \"n $ 2\"");
    expect_error("   ", "empty expression");
}
END_TEST

/* A Triton grid pasted as it is gets what to write instead. */
START_TEST(pasted_lambdas_and_tuples_get_a_hint) {
    expect_error("lambda meta: (triton.cdiv(n, meta['BLOCK']),)",
                 "a grid entry is the body of Triton's grid lambda, not the lambda: write "
                 "[\"triton.cdiv(n, meta['BLOCK'])\"]");
    expect_error("lambda META: (cdiv(n, META[\"BM\"]), cdiv(n, META[\"BN\"]))",
                 "a grid entry is the body of Triton's grid lambda, not the lambda: write "
                 "[\"cdiv(n, META[\\\"BM\\\"])\", \"cdiv(n, META[\\\"BN\\\"])\"]");
    expect_error("lambda meta: cdiv(n, 256)",
                 "a grid entry is the body of Triton's grid lambda, not the lambda: write [\"cdiv(n, 256)\"]");
    expect_error("(cdiv(n, 64), 4)", "a grid entry is one axis, not a tuple of them: write [\"cdiv(n, 64)\", \"4\"]");
    ck_assert_int_eq(mt_grid_check("lambda meta: (n,)", err, sizeof err), MT_ERR_USAGE);
    /* A hint longer than the message holds is cut, never overflows (found
     * by fuzz_launch: tests/fuzz/regressions/launch/grid-hint-overflow). */
    char longer[1200];
    memset(longer, '\\', sizeof longer);
    memcpy(longer, "(a", 2);
    memcpy(longer + sizeof longer - 6, ", 4)", 5);
    int64_t v = 0;
    ck_assert_int_eq(mt_grid_eval(longer, names, NULL, &v, err, sizeof err), MT_ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(err, "a grid entry is one axis, not a tuple of them: write [\"a\\\\"));
    /* Parentheses that are not a tuple still evaluate. */
    ck_assert_int_eq(eval("(n + 24) // (BLOCK)"), 4);
    ck_assert_int_eq(eval("(max(n, 2))"), 1000);
    ck_assert_int_eq(eval("lambdax"), 5);
}
END_TEST

START_TEST(check_is_syntax_only) {
    ck_assert_int_eq(mt_grid_check("cdiv(n, BLOCK) // (X - X)", err, sizeof err), MT_OK);
    ck_assert_int_eq(mt_grid_check("cdiv(n, BLOCK", err, sizeof err), MT_ERR_USAGE);
    ck_assert_str_eq(err, "unexpected end of expression in \"cdiv(n, BLOCK\"");
    ck_assert_int_eq(mt_grid_check("floor(n)", err, sizeof err), MT_ERR_USAGE);
    ck_assert_str_eq(err, "unknown function 'floor' (cdiv, max and min are known) at column 1 in \"floor(n)\"");
}
END_TEST

static Suite *grid_suite(void) {
    Suite *s = suite_create("grid");
    TCase *t = tcase_create("grid");
    tcase_add_test(t, integers_and_names);
    tcase_add_test(t, precedence_is_pythons);
    tcase_add_test(t, pasted_lambdas_and_tuples_get_a_hint);
    tcase_add_test(t, floor_division_and_modulo_follow_python);
    tcase_add_test(t, functions);
    tcase_add_test(t, meta_subscripts_read_names);
    tcase_add_test(t, unknown_names_and_non_integers);
    tcase_add_test(t, division_by_zero);
    tcase_add_test(t, overflow);
    tcase_add_test(t, syntax_errors);
    tcase_add_test(t, check_is_syntax_only);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(grid_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
