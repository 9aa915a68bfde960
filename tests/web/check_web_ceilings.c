/* check_web_ceilings.c: the roofline's measuring kernels without a GPU
 * (web/ceiling_kernels.c, web/cost.c): the launch built for a device (an
 * H200's 132 SMs and 141 GiB; a small GPU; a probe without the facts),
 * the compiler's exact counts of those launches, and the ceiling a
 * finished run gives (the count over the best launch, not the median;
 * refused without a profile or an exact count). What the kernels reach on
 * a GPU is gpu.web_fault's. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "ceiling_kernels.h"
#include "cost.h"

static const WebCeilingDevice h200 = {.sm_count = 132, .memory_bytes = 150754820096.0};

static double grid0(const cJSON *spec) { return cJSON_GetArrayItem(cJSON_GetObjectItem(spec, "grid"), 0)->valuedouble; }

static double shape0(const cJSON *spec, const char *arg)
{
    const cJSON *a = cJSON_GetObjectItem(cJSON_GetObjectItem(spec, "args"), arg);
    return cJSON_GetArrayItem(cJSON_GetObjectItem(a, "shape"), 0)->valuedouble;
}

START_TEST(copy_is_sized_past_l2_and_within_memory)
{
    cJSON *spec = mt_web_ceiling_spec(WEB_CEIL_COPY, &h200);
    ck_assert_double_eq(shape0(spec, "x"), 268435456);   /* 2^28 fp32 each way: 2 GiB moved a launch */
    ck_assert_double_eq(shape0(spec, "out"), 268435456);
    ck_assert_double_eq(grid0(spec), 268435456 / 4096);
    cJSON_Delete(spec);
    /* an 8 GiB GPU: both arrays within 1 GiB, so 2^27 elements */
    WebCeilingDevice small = {.sm_count = 20, .memory_bytes = 8589934592.0};
    spec = mt_web_ceiling_spec(WEB_CEIL_COPY, &small);
    ck_assert_double_eq(shape0(spec, "x"), 134217728);
    cJSON_Delete(spec);
    /* no memory figure: no spec */
    WebCeilingDevice unknown = {0};
    ck_assert_ptr_null(mt_web_ceiling_spec(WEB_CEIL_COPY, &unknown));
    ck_assert_ptr_null(mt_web_ceiling_spec(WEB_CEIL_FMA, &unknown));
    ck_assert_ptr_null(mt_web_ceiling_spec(WEB_CEIL_FMA, NULL));
}
END_TEST

START_TEST(fma_gives_every_sm_the_same_work)
{
    cJSON *spec = mt_web_ceiling_spec(WEB_CEIL_FMA, &h200);
    ck_assert_double_eq(grid0(spec), 132 * 64);
    ck_assert_double_eq(shape0(spec, "out"), 132 * 64 * 1024);
    ck_assert_double_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(spec, "args"), "iters")->valuedouble, 256);
    cJSON_Delete(spec);
}
END_TEST

/* The count the ceiling divides is the compiler's, for the launch built:
 * exact (no masks, the loop's trip count from the spec's iters). */
static cJSON *compiler_cost(WebCeilingKind kind, const char *result)
{
    const WebCeilingKernel *k = &mt_web_ceiling_kernels[kind];
    cJSON *spec = mt_web_ceiling_spec(kind, &h200);
    char *text = cJSON_PrintUnformatted(spec);
    MtLaunchSpec ls;
    MtSpecError se;
    ck_assert_msg(mt_launch_spec_parse(text, NULL, &ls, &se) == MT_OK, "%s", se.text);
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    MtCompiled *ck;
    ck_assert_int_eq(mt_parse(c, "k.py", k->source, strlen(k->source), &m), MT_OK);
    MtSpec s = {.kernel = k->kernel, .signature = k->signature};
    ck_assert_int_eq(mt_compile(c, m, &s, &ck), MT_OK);
    cJSON *res = cJSON_Parse(result);
    cJSON *cost = mt_web_cost_json(c, ck, &ls, res);
    cJSON_Delete(res);
    mt_ctx_free(c);
    mt_launch_spec_free(&ls);
    cJSON_free(text);
    cJSON_Delete(spec);
    return cost;
}

START_TEST(the_compiler_counts_the_ceiling_launches_exactly)
{
    cJSON *cost = compiler_cost(WEB_CEIL_COPY, "{\"grid\": [65536, 1, 1]}");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cost, "exact")));
    ck_assert_double_eq(cJSON_GetObjectItem(cost, "bytes")->valuedouble, 2147483648.0);
    ck_assert_double_eq(cJSON_GetObjectItem(cost, "flops")->valuedouble, 0);
    cJSON_Delete(cost);
    cost = compiler_cost(WEB_CEIL_FMA, "{\"grid\": [8448, 1, 1]}");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cost, "exact")));
    /* a element: * 1e-9, three adds, 256 x 4 x 4 fmas, the final three adds */
    ck_assert_double_eq(cJSON_GetObjectItem(cost, "flops")->valuedouble, 8448.0 * 1024 * (1 + 3 + 256 * 32 + 3));
    ck_assert_double_eq(cJSON_GetObjectItem(cost, "bytes")->valuedouble, 8448.0 * 1024 * 4);
    cJSON_Delete(cost);
}
END_TEST

/* A run's ceiling: the exact count over the best (least) launch time. */
START_TEST(the_ceiling_is_the_count_over_the_best_launch)
{
    cJSON *run = cJSON_Parse("{\"result\": {\"profile\": {\"min_ns\": 500000, \"median_ns\": 600000, \"launches\": "
                             "50, \"timer\": \"cupti\"}}}");
    cJSON *cost = cJSON_Parse("{\"exact\": true, \"bytes\": 2147483648, \"bytes_from\": \"compiler\", \"flops\": 0, "
                              "\"flops_from\": \"compiler\"}");
    cJSON *out = cJSON_CreateObject();
    double gbs;
    const char *why = NULL;
    ck_assert(mt_web_ceiling_figure(WEB_CEIL_COPY, 7, run, cost, &gbs, out, &why));
    ck_assert_double_eq_tol(gbs, 2147483648.0 / 500000, 1e-9); /* 4295 GB/s, not the median's 3579 */
    const cJSON *m = cJSON_GetObjectItem(out, "copy");
    ck_assert_double_eq(cJSON_GetObjectItem(m, "run")->valuedouble, 7);
    ck_assert_double_eq(cJSON_GetObjectItem(m, "best_ns")->valuedouble, 500000);
    ck_assert_double_eq(cJSON_GetObjectItem(m, "median_ns")->valuedouble, 600000);
    ck_assert_double_eq(cJSON_GetObjectItem(m, "bytes")->valuedouble, 2147483648.0);
    /* TFLOP/s for the FMA kernel */
    cJSON_ReplaceItemInObject(cost, "flops", cJSON_CreateNumber(7.0e10));
    double tf;
    ck_assert(mt_web_ceiling_figure(WEB_CEIL_FMA, 8, run, cost, &tf, out, &why));
    ck_assert_double_eq_tol(tf, 7.0e10 / 500000 / 1e3, 1e-9);
    /* an upper bound, the spec's count, no profile: no ceiling */
    cJSON_ReplaceItemInObject(cost, "exact", cJSON_CreateFalse());
    ck_assert(!mt_web_ceiling_figure(WEB_CEIL_COPY, 7, run, cost, &gbs, out, &why));
    ck_assert_str_eq(why, "has no exact count from the compiler");
    cJSON_ReplaceItemInObject(cost, "exact", cJSON_CreateTrue());
    cJSON_ReplaceItemInObject(cost, "bytes_from", cJSON_CreateString("spec"));
    ck_assert(!mt_web_ceiling_figure(WEB_CEIL_COPY, 7, run, cost, &gbs, out, &why));
    cJSON_Delete(run);
    run = cJSON_Parse("{\"result\": {\"profile\": null}}");
    ck_assert(!mt_web_ceiling_figure(WEB_CEIL_FMA, 8, run, cost, &tf, out, &why));
    ck_assert_ptr_nonnull(strstr(why, "not profiled"));
    cJSON_Delete(run);
    cJSON_Delete(cost);
    cJSON_Delete(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("web_ceilings");
    TCase *t = tcase_create("ceilings");
    tcase_add_test(t, copy_is_sized_past_l2_and_within_memory);
    tcase_add_test(t, fma_gives_every_sm_the_same_work);
    tcase_add_test(t, the_compiler_counts_the_ceiling_launches_exactly);
    tcase_add_test(t, the_ceiling_is_the_count_over_the_best_launch);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
