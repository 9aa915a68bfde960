/* check_compare.c: tolerance comparison, checksums, previews and the float
 * formatting they print with. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "array.h"
#include "compare.h"

static MtArray *f32(int ndim, const int64_t *shape, const float *v) {
    MtArray *a = mt_array_new(MT_DT_F32, ndim, shape);
    memcpy(a->data, v, a->nbytes);
    return a;
}

START_TEST(equal_arrays_match) {
    int64_t shape[1] = {4};
    const float v[4] = {1, -2, NAN, INFINITY};
    MtArray *a = f32(1, shape, v), *b = f32(1, shape, v);
    MtCompareResult r;
    ck_assert(mt_array_compare(a, b, 0, 0, &r));
    ck_assert(r.ok);
    ck_assert_str_eq(r.error, "");
    ck_assert_int_eq(r.mismatches, 0);
    ck_assert_int_eq(r.first, -1);
    ck_assert_double_eq(r.max_abs_err, 0);
    ck_assert_double_eq(r.max_rel_err, 0);
    mt_array_free(a);
    mt_array_free(b);
}
END_TEST

START_TEST(tolerance_is_atol_plus_rtol_times_want) {
    int64_t shape[1] = {3};
    const float want[3] = {100, 1, 0};
    const float got[3] = {100.5f, 1.25f, 0.0625f};
    MtArray *g = f32(1, shape, got), *w = f32(1, shape, want);
    MtCompareResult r;
    /* 0.5 <= 0.1 + 0.01 * 100 passes; 0.25 > 0.1 + 0.01 fails; 0.0625 <= 0.1 passes */
    ck_assert(!mt_array_compare(g, w, 0.01, 0.1, &r));
    ck_assert_int_eq(r.mismatches, 1);
    ck_assert_int_eq(r.first, 1);
    ck_assert_double_eq(r.first_got, 1.25);
    ck_assert_double_eq(r.first_want, 1);
    ck_assert_double_eq_tol(r.max_abs_err, 0.5, 1e-9);
    ck_assert_double_eq_tol(r.max_rel_err, 0.25, 1e-9); /* want == 0 is left out */
    ck_assert(mt_array_compare(g, w, 0.3, 0.1, &r));
    mt_array_free(g);
    mt_array_free(w);
}
END_TEST

START_TEST(nan_and_infinity_rules) {
    int64_t shape[1] = {4};
    const float want[4] = {NAN, INFINITY, -INFINITY, 1};
    const float got[4] = {NAN, -INFINITY, -INFINITY, NAN};
    MtArray *g = f32(1, shape, got), *w = f32(1, shape, want);
    MtCompareResult r;
    ck_assert(!mt_array_compare(g, w, 1, 1, &r));
    ck_assert_int_eq(r.mismatches, 2);
    ck_assert_int_eq(r.first, 1);
    ck_assert(isinf(r.max_abs_err));
    mt_array_free(g);
    mt_array_free(w);
}
END_TEST

START_TEST(first_mismatch_has_its_multi_index) {
    int64_t shape[3] = {2, 3, 4};
    MtArray *g = mt_array_new(MT_DT_I32, 3, shape), *w = mt_array_new(MT_DT_I32, 3, shape);
    ((int32_t *)g->data)[17] = 5;  /* 17 = 1*12 + 1*4 + 1 */
    ((int32_t *)g->data)[23] = -1;
    MtCompareResult r;
    ck_assert(!mt_array_compare(g, w, 0, 0, &r));
    ck_assert_int_eq(r.mismatches, 2);
    ck_assert_int_eq(r.first, 17);
    ck_assert_int_eq(r.ndim, 3);
    ck_assert_int_eq(r.first_index[0], 1);
    ck_assert_int_eq(r.first_index[1], 1);
    ck_assert_int_eq(r.first_index[2], 1);
    ck_assert_double_eq(r.first_got, 5);
    ck_assert_double_eq(r.first_want, 0);
    ck_assert_double_eq(r.max_abs_err, 5);
    ck_assert(mt_array_compare(g, w, 0, 5, &r));
    mt_array_free(g);
    mt_array_free(w);
}
END_TEST

START_TEST(dtype_and_shape_must_agree) {
    int64_t s1[1] = {10}, s2[2] = {10, 2};
    MtArray *a = mt_array_new(MT_DT_F32, 1, s1), *b = mt_array_new(MT_DT_I32, 1, s1), *c = mt_array_new(MT_DT_F32, 2, s2);
    MtCompareResult r;
    ck_assert(!mt_array_compare(a, b, 0, 0, &r));
    ck_assert_str_eq(r.error, "dtype mismatch: got float32, want int32");
    ck_assert(!mt_array_compare(a, c, 0, 0, &r));
    ck_assert_str_eq(r.error, "shape mismatch: got (10,), want (10, 2)");
    ck_assert_int_eq(r.first, -1);
    mt_array_free(a);
    mt_array_free(b);
    mt_array_free(c);
}
END_TEST

START_TEST(stats_are_sum_range_counts_and_fnv1a) {
    MtArray *e = mt_array_new(MT_DT_I1, 1, (int64_t[]){0});
    MtArrayStats c = mt_array_stats(e);
    ck_assert_double_eq(c.sum, 0);
    ck_assert(isnan(c.mean));
    ck_assert_uint_eq(c.fnv1a, 0xcbf29ce484222325ull); /* FNV-1a offset basis: no bytes */
    mt_array_free(e);

    MtArray *a = mt_array_new(MT_DT_I1, 1, (int64_t[]){1});
    ((unsigned char *)a->data)[0] = 1;
    c = mt_array_stats(a);
    ck_assert_double_eq(c.sum, 1);
    ck_assert_uint_eq(c.fnv1a, 0xaf63bc4c8601b62cull); /* FNV-1a 64 of the byte 0x01 */
    mt_array_free(a);

    int64_t shape[1] = {3};
    const float v[3] = {1.5f, -0.5f, 2};
    MtArray *f = f32(1, shape, v);
    c = mt_array_stats(f);
    ck_assert_double_eq(c.sum, 3);
    ck_assert_double_eq(c.min, -0.5);
    ck_assert_double_eq(c.max, 2);
    ck_assert_double_eq(c.mean, 1);
    ck_assert_int_eq(c.nans + c.infs, 0);
    ((float *)f->data)[0] = 1.5000001f;
    ck_assert_uint_ne(mt_array_stats(f).fnv1a, c.fnv1a);
    /* NaN poisons the sum but not the range; infinities count */
    ((float *)f->data)[0] = NAN;
    ((float *)f->data)[2] = -INFINITY;
    c = mt_array_stats(f);
    ck_assert(isnan(c.sum));
    ck_assert_double_eq(c.max, -0.5);
    ck_assert(isinf(c.min) && c.min < 0);
    ck_assert_int_eq(c.nans, 1);
    ck_assert_int_eq(c.infs, 1);
    mt_array_free(f);
}
END_TEST

START_TEST(preview_shows_ends) {
    char buf[128];
    MtArrayGen g = {.dtype = MT_DT_F32, .ndim = 1, .shape = {1000}, .init = MT_INIT_ARANGE};
    MtArray *a;
    ck_assert_int_eq(mt_array_generate(&g, &a, buf, sizeof buf), MT_OK);
    ck_assert_str_eq(mt_array_preview(a, buf, sizeof buf), "[0.0, 1.0, 2.0, ..., 997.0, 998.0, 999.0]");
    ck_assert_str_eq(mt_array_preview(a, buf, 12), "[0.0, 1.0, ");
    mt_array_free(a);

    int64_t shape[1] = {4};
    const float v[4] = {0.1f, -1e-7f, NAN, -INFINITY};
    a = f32(1, shape, v);
    ck_assert_str_eq(mt_array_preview(a, buf, sizeof buf), "[0.1, -1e-07, nan, -inf]");
    mt_array_free(a);

    MtArray *b = mt_array_new(MT_DT_I1, 2, (int64_t[]){1, 2});
    ((unsigned char *)b->data)[1] = 1;
    ck_assert_str_eq(mt_array_preview(b, buf, sizeof buf), "[False, True]");
    mt_array_free(b);

    MtArray *i = mt_array_new(MT_DT_I32, 0, NULL);
    *(int32_t *)i->data = -42;
    ck_assert_str_eq(mt_array_preview(i, buf, sizeof buf), "-42");
    mt_array_free(i);

    MtArray *e = mt_array_new(MT_DT_I32, 1, (int64_t[]){0});
    ck_assert_str_eq(mt_array_preview(e, buf, sizeof buf), "[]");
    mt_array_free(e);
}
END_TEST

START_TEST(format_float_is_python_repr) {
    char out[32];
    ck_assert_str_eq(mt_format_float(out, 1000, false), "1000.0");
    ck_assert_str_eq(mt_format_float(out, 0.1, false), "0.1");
    ck_assert_str_eq(mt_format_float(out, 1e-5, false), "1e-05");
    ck_assert_str_eq(mt_format_float(out, 0.0001, false), "0.0001");
    ck_assert_str_eq(mt_format_float(out, 1e16, false), "1e+16");
    ck_assert_str_eq(mt_format_float(out, 1234567890123456.0, false), "1234567890123456.0");
    ck_assert_str_eq(mt_format_float(out, -0.0, false), "-0.0");
    ck_assert_str_eq(mt_format_float(out, 0.1 + 0.2, false), "0.30000000000000004");
    ck_assert_str_eq(mt_format_float(out, 1.5e-7, false), "1.5e-07");
    ck_assert_str_eq(mt_format_float(out, (float)0.1, true), "0.1");
    ck_assert_str_eq(mt_format_float(out, (float)0.1, false), "0.10000000149011612");
    ck_assert_str_eq(mt_format_float(out, 16777217.0, true), "16777216.0");
    ck_assert_str_eq(mt_format_float(out, -INFINITY, true), "-inf");
}
END_TEST

static Suite *compare_suite(void) {
    Suite *s = suite_create("compare");
    TCase *t = tcase_create("compare");
    tcase_add_test(t, equal_arrays_match);
    tcase_add_test(t, tolerance_is_atol_plus_rtol_times_want);
    tcase_add_test(t, nan_and_infinity_rules);
    tcase_add_test(t, first_mismatch_has_its_multi_index);
    tcase_add_test(t, dtype_and_shape_must_agree);
    tcase_add_test(t, stats_are_sum_range_counts_and_fnv1a);
    tcase_add_test(t, preview_shows_ends);
    tcase_add_test(t, format_float_is_python_repr);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(compare_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
