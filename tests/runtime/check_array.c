/* check_array.c: generated arrays and the PCG32 stream behind them.
 *
 * The pinned values were computed by a separate Python implementation of
 * the algorithm in docs/launch-spec.md (integers exact, floats compared by
 * their bits), and the raw generator is checked against O'Neill's own
 * pcg32-demo output for pcg32_srandom_r(rng, 42, 54). A change to any step
 * of the recipe changes every generated input, and fails here first.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "array.h"

static char err[256];

static uint32_t bits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static MtArrayGen gen1(MtDtype dt, int64_t n, MtInit init) {
    MtArrayGen g = {.dtype = dt, .ndim = 1, .shape = {n}, .init = init};
    return g;
}

static MtArray *make(const MtArrayGen *g) {
    MtArray *a = NULL;
    ck_assert_int_eq(mt_array_generate(g, &a, err, sizeof err), MT_OK);
    return a;
}

static void expect_reject(const MtArrayGen *g, const char *msg) {
    ck_assert_int_eq(mt_array_gen_check(g, err, sizeof err), MT_ERR_USAGE);
    ck_assert_str_eq(err, msg);
    MtArray *a = (MtArray *)1;
    ck_assert_int_eq(mt_array_generate(g, &a, err, sizeof err), MT_ERR_USAGE);
    ck_assert_ptr_null(a);
    ck_assert_str_eq(err, msg);
}

START_TEST(pcg32_matches_oneill_reference) {
    /* pcg32_srandom_r(&rng, 42u, 54u) in pcg32-demo.c */
    MtPcg32 r = {.state = 0, .inc = (54u << 1) | 1};
    mt_pcg32_next(&r);
    r.state += 42;
    mt_pcg32_next(&r);
    static const uint32_t want[] = {0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e};
    for (int i = 0; i < 6; i++) ck_assert_uint_eq(mt_pcg32_next(&r), want[i]);
}
END_TEST

START_TEST(seeding_goes_through_splitmix64) {
    MtPcg32 r;
    mt_pcg32_seed(&r, 0);
    static const uint32_t want[] = {0x90644221, 0x4618e85f, 0x8f5bd9cd, 0xaf2c0306};
    for (int i = 0; i < 4; i++) ck_assert_uint_eq(mt_pcg32_next(&r), want[i]);
    MtPcg32 a, b;
    mt_pcg32_seed(&a, 1);
    mt_pcg32_seed(&b, 2);
    ck_assert_uint_ne(mt_pcg32_next(&a), mt_pcg32_next(&b));
    ck_assert_uint_eq(a.inc & 1, 1);
}
END_TEST

START_TEST(uniform_float32_first_values) {
    MtArrayGen g = gen1(MT_DT_F32, 4, MT_INIT_UNIFORM);
    g.a = -1, g.b = 1, g.seed = 1;
    MtArray *a = make(&g);
    const float *f = a->data;
    ck_assert_uint_eq(bits(f[0]), 3199654124u); /* -0.3571237325668335 */
    ck_assert_uint_eq(bits(f[1]), 3212629208u); /* -0.9876227378845215 */
    ck_assert_uint_eq(bits(f[2]), 1062153934u); /*  0.8093079328536987 */
    ck_assert_uint_eq(bits(f[3]), 3198203808u); /* -0.3139009475708008 */
    mt_array_free(a);
}
END_TEST

START_TEST(uniform_int32_first_values) {
    MtArrayGen g = gen1(MT_DT_I32, 10, MT_INIT_UNIFORM);
    g.a = -5, g.b = 5, g.seed = 7;
    MtArray *a = make(&g);
    static const int32_t want[] = {-5, 2, -2, 0, -4, 0, -2, -1, -3, 1};
    ck_assert_mem_eq(a->data, want, sizeof want);
    mt_array_free(a);
}
END_TEST

START_TEST(uniform_bool_first_values) {
    MtArrayGen g = gen1(MT_DT_I1, 10, MT_INIT_UNIFORM);
    g.seed = 3;
    MtArray *a = make(&g);
    static const unsigned char want[] = {1, 0, 1, 1, 0, 0, 0, 0, 0, 0};
    ck_assert_mem_eq(a->data, want, sizeof want);
    mt_array_free(a);
}
END_TEST

START_TEST(normal_first_values) {
    MtArrayGen g = gen1(MT_DT_F32, 4, MT_INIT_NORMAL);
    g.a = 0, g.b = 1;
    MtArray *a = make(&g);
    const float *f = a->data;
    ck_assert_uint_eq(bits(f[0]), 0xbe2362c8); /* -0.15955650806427002 */
    ck_assert_uint_eq(bits(f[1]), 0x3f8773e2); /*  1.0582239627838135 */
    ck_assert_uint_eq(bits(f[2]), 0xbedd4de0); /* -0.4322347640991211 */
    ck_assert_uint_eq(bits(f[3]), 0xbf7c7f76); /* -0.986319899559021 */
    mt_array_free(a);

    g.a = 10, g.b = 0.5, g.seed = 5;
    a = make(&g);
    f = a->data;
    ck_assert_uint_eq(bits(f[0]), 0x411c17f5); /*  9.75584888458252 */
    ck_assert_uint_eq(bits(f[3]), 0x411e0b01); /*  9.877686500549316 */
    mt_array_free(a);
}
END_TEST

START_TEST(normal_odd_length_is_a_prefix) {
    MtArrayGen g4 = gen1(MT_DT_F32, 4, MT_INIT_NORMAL), g3 = gen1(MT_DT_F32, 3, MT_INIT_NORMAL);
    g4.b = g3.b = 1;
    MtArray *a = make(&g4), *b = make(&g3);
    ck_assert_mem_eq(a->data, b->data, 12);
    mt_array_free(a);
    mt_array_free(b);
}
END_TEST

START_TEST(uniform_stays_in_range) {
    MtArrayGen g = gen1(MT_DT_F32, 100000, MT_INIT_UNIFORM);
    g.a = 2, g.b = 3, g.seed = 11;
    MtArray *a = make(&g);
    const float *f = a->data;
    double sum = 0;
    for (int64_t k = 0; k < a->numel; k++) {
        ck_assert(f[k] >= 2.0f && f[k] < 3.0f);
        sum += f[k];
    }
    ck_assert(fabs(sum / 100000 - 2.5) < 0.01);
    mt_array_free(a);

    MtArrayGen gi = gen1(MT_DT_I32, 10000, MT_INIT_UNIFORM);
    gi.a = INT32_MIN, gi.b = INT32_MAX; /* the widest bound, 2^32 - 1 */
    a = make(&gi);
    mt_array_free(a);
    gi.a = 0, gi.b = 3;
    a = make(&gi);
    int seen[3] = {0};
    for (int64_t k = 0; k < a->numel; k++) {
        int32_t v = ((int32_t *)a->data)[k];
        ck_assert(v >= 0 && v < 3);
        seen[v]++;
    }
    ck_assert(seen[0] > 3000 && seen[1] > 3000 && seen[2] > 3000);
    mt_array_free(a);
}
END_TEST

START_TEST(zeros_ones_arange_constant) {
    MtArrayGen g = {.dtype = MT_DT_F32, .ndim = 2, .shape = {2, 3}, .init = MT_INIT_ARANGE};
    MtArray *a = make(&g);
    static const float af[] = {0, 1, 2, 3, 4, 5};
    ck_assert_mem_eq(a->data, af, sizeof af);
    mt_array_free(a);

    g.dtype = MT_DT_I32;
    a = make(&g);
    static const int32_t ai[] = {0, 1, 2, 3, 4, 5};
    ck_assert_mem_eq(a->data, ai, sizeof ai);
    mt_array_free(a);

    g.dtype = MT_DT_I1;
    a = make(&g);
    static const unsigned char ab[] = {0, 1, 1, 1, 1, 1};
    ck_assert_mem_eq(a->data, ab, sizeof ab);
    mt_array_free(a);

    g.init = MT_INIT_ONES;
    g.dtype = MT_DT_I32;
    a = make(&g);
    for (int k = 0; k < 6; k++) ck_assert_int_eq(((int32_t *)a->data)[k], 1);
    mt_array_free(a);

    g.init = MT_INIT_ZEROS;
    g.dtype = MT_DT_F32;
    a = make(&g);
    for (int k = 0; k < 6; k++) ck_assert_uint_eq(bits(((float *)a->data)[k]), 0);
    mt_array_free(a);

    g.init = MT_INIT_CONSTANT;
    g.a = NAN;
    a = make(&g);
    ck_assert(isnan(((float *)a->data)[5]));
    mt_array_free(a);

    g.dtype = MT_DT_I32;
    g.a = -7;
    a = make(&g);
    ck_assert_int_eq(((int32_t *)a->data)[4], -7);
    mt_array_free(a);

    MtArrayGen s = {.dtype = MT_DT_I1, .ndim = 0, .init = MT_INIT_CONSTANT, .a = 1};
    a = make(&s);
    ck_assert_int_eq(a->numel, 1);
    ck_assert_int_eq(*(unsigned char *)a->data, 1);
    mt_array_free(a);
}
END_TEST

START_TEST(init_names) {
    static const char *const names[] = {"zeros", "ones", "arange", "constant", "uniform", "normal"};
    for (int i = 0; i < 6; i++) {
        ck_assert_str_eq(mt_init_name((MtInit)i), names[i]);
        ck_assert_int_eq(mt_init_from_name(names[i]), i);
    }
    ck_assert_int_eq(mt_init_from_name("randn"), -1);
}
END_TEST

START_TEST(rejects_bad_recipes) {
    MtArrayGen g = gen1(MT_DT_F32, 4, MT_INIT_UNIFORM);
    g.a = 2, g.b = 1;
    expect_reject(&g, "low (2) must be below high (1)");
    g.a = 0, g.b = 1e300;
    expect_reject(&g, "high 1e+300 is out of float32 range");

    g = gen1(MT_DT_I32, 4, MT_INIT_UNIFORM);
    g.a = 0.5, g.b = 3;
    expect_reject(&g, "low 0.5 is not an int32 value");
    g.a = 0, g.b = 3000000000.0;
    expect_reject(&g, "high 3000000000 is not an int32 value");

    g = gen1(MT_DT_I32, 4, MT_INIT_NORMAL);
    g.b = 1;
    expect_reject(&g, "init 'normal' needs a float array (float16, bfloat16, float32, float64), not int32");
    g.dtype = MT_DT_F32;
    g.b = -1;
    expect_reject(&g, "std -1 must be finite and not negative");
    g.a = INFINITY, g.b = 1;
    expect_reject(&g, "mean inf is not a finite float32");

    g = gen1(MT_DT_I32, 4, MT_INIT_CONSTANT);
    g.a = 1.5;
    expect_reject(&g, "value 1.5 is not an int32 value");
    g.dtype = MT_DT_I1;
    g.a = 2;
    expect_reject(&g, "value 2 is not a bool (0 or 1)");
    g.dtype = MT_DT_F32;
    g.a = -1e39;
    expect_reject(&g, "value -1e+39 is out of float32 range");

    g = gen1(MT_DT_I32, 2147483649LL, MT_INIT_ARANGE);
    expect_reject(&g, "arange: 2147483649 elements count past the int32 range");

    MtArrayGen s = {.dtype = MT_DT_F32, .ndim = 2, .shape = {4, -2}};
    expect_reject(&s, "shape[1]: negative dimension -2");
    s.shape[1] = INT64_MAX;
    expect_reject(&s, "shape: the array's size overflows");
    s.ndim = 9;
    expect_reject(&s, "shape: 9 dimensions; at most 8 are supported");
}
END_TEST

static Suite *array_suite(void) {
    Suite *s = suite_create("array");
    TCase *t = tcase_create("array");
    tcase_add_test(t, pcg32_matches_oneill_reference);
    tcase_add_test(t, seeding_goes_through_splitmix64);
    tcase_add_test(t, uniform_float32_first_values);
    tcase_add_test(t, uniform_int32_first_values);
    tcase_add_test(t, uniform_bool_first_values);
    tcase_add_test(t, normal_first_values);
    tcase_add_test(t, normal_odd_length_is_a_prefix);
    tcase_add_test(t, uniform_stays_in_range);
    tcase_add_test(t, zeros_ones_arange_constant);
    tcase_add_test(t, init_names);
    tcase_add_test(t, rejects_bad_recipes);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(array_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
