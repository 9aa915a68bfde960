/* check_run.c: the run library (runtime/run.h) as a program would call
 * it: a spec file, a spec and a source given as text, a kernel compiled
 * and bound by the caller; the result's fields, its diagnostics (codes,
 * fields, positions, rendering), its JSON form, and the outcome of each
 * kind of failure. Also the locator that points diagnostics into a spec
 * (runtime/json_locate.h). */
#include <check.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../test_util.h"
#include "json_locate.h"
#include "run.h"

static void setup(void) { test_tmp_setup("mt_run"); }
static void teardown(void) { test_tmp_teardown(); }
static const char *tmp(const char *name) { return test_tmp(name); }

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static const char add_py[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "\n"
    "@triton.jit\n"
    "def add_kernel(x, y, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)\n";

static const char add_json[] =
    "{\"source\": \"add.py\", \"grid\": [\"cdiv(n, BLOCK)\"], \"constexprs\": {\"BLOCK\": 64},\n"
    " \"args\": {\"x\": {\"dtype\": \"float32\", \"shape\": [100], \"init\": \"arange\"},\n"
    "          \"y\": {\"dtype\": \"float32\", \"shape\": [100], \"init\": \"ones\"},\n"
    "          \"out\": {\"dtype\": \"float32\", \"shape\": [100], \"init\": \"zeros\"}, \"n\": 100}}\n";

/* A folder of plain files, and the files. */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char p[600];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (e->d_name[0] != '.')
            unlink(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

static MtRunResult *run_file(const char *spec, const MtRunOptions *opt)
{
    MtRunRequest req = {.spec_path = spec};
    MtRunResult *r = mt_run(&req, opt);
    ck_assert_ptr_nonnull(r);
    return r;
}

static const MtRunArray *array(const MtRunResult *r, const char *name)
{
    for (size_t i = 0; i < r->narrays; i++)
        if (!strcmp(r->arrays[i].name, name))
            return &r->arrays[i];
    ck_abort_msg("no array %s", name);
    return NULL;
}

START_TEST(runs_a_spec_file)
{
    put(tmp("add.py"), add_py);
    put(tmp("add.json"), add_json);
    MtRunOptions opt = {.threads = 1};
    MtRunResult *r = run_file(tmp("add.json"), &opt);
    ck_assert_int_eq(r->outcome, MT_RUN_OK);
    ck_assert(r->ran);
    ck_assert_str_eq(r->kernel, "add_kernel");
    ck_assert_str_eq(r->signature, "*fp32:16,*fp32:16,*fp32:16,i32,64"); /* the arrays' alignment hints kept */
    ck_assert_str_eq(r->spec_path, tmp("add.json"));
    ck_assert_int_eq(r->grid[0], 2);
    ck_assert_int_eq(r->programs, 2);
    ck_assert(r->cuda_threads > 0 && r->cuda_threads <= 64); /* the layout decides (the fast lowering: fewer) */
    ck_assert_int_eq(r->threads, 1);
    ck_assert_uint_eq(r->narrays, 3);
    ck_assert_uint_eq(r->ndiags, 0);
    const MtRunArray *out = array(r, "out");
    ck_assert(out->written);
    ck_assert(!array(r, "x")->written);
    /* out = arange + 1: 1 .. 100 */
    ck_assert_double_eq(out->stats.sum, 5050);
    ck_assert_double_eq(out->stats.min, 1);
    ck_assert_double_eq(out->stats.max, 100);
    ck_assert_double_eq(out->stats.mean, 50.5);
    ck_assert_str_eq(out->preview, "[1.0, 2.0, 3.0, ..., 98.0, 99.0, 100.0]");
    ck_assert_ptr_null(out->array); /* not kept unless asked */
    mt_run_result_free(r);
}
END_TEST

START_TEST(runs_a_spec_and_source_given_as_text)
{
    MtRunRequest req = {.spec_json = "{\"grid\": [1], \"args\": {\"x\": {\"dtype\": \"float32\", \"shape\": [4], "
                                     "\"init\": \"ones\"}, \"y\": {\"dtype\": \"float32\", \"shape\": [4]}, "
                                     "\"out\": {\"dtype\": \"float32\", \"shape\": [4]}, \"n\": 4, \"BLOCK\": 4}}",
                        .source_text = add_py,
                        .source_len = sizeof add_py - 1,
                        .source_path = "editor.py"};
    MtRunOptions opt = {.keep_arrays = true};
    MtRunResult *r = mt_run(&req, &opt);
    ck_assert_int_eq(r->outcome, MT_RUN_OK);
    ck_assert_str_eq(r->source_path, "editor.py");
    ck_assert_ptr_null(r->spec_path);
    const MtRunArray *out = array(r, "out");
    ck_assert_ptr_nonnull(out->array);
    ck_assert(((float *)out->array->data)[3] == 1.0f);
    mt_run_result_free(r);
}
END_TEST

START_TEST(a_wrong_field_is_a_located_diagnostic)
{
    put(tmp("add.py"), add_py);
    put(tmp("bad.json"), "{\"source\": \"add.py\", \"grid\": [1], \"signature\": \"*fp32,*fp32,*fp32,i32,4\",\n"
                         " \"args\": {\"x\": {\"dtype\": \"int32\", \"shape\": [4]}, \"y\": {\"dtype\": \"float32\", "
                         "\"shape\": [4]}, \"out\": {\"dtype\": \"float32\", \"shape\": [4]}, \"n\": 4}}\n");
    MtRunResult *r = run_file(tmp("bad.json"), NULL);
    ck_assert_int_eq(r->outcome, MT_RUN_FAILED);
    ck_assert_int_eq(mt_run_exit_status(r->outcome), 1);
    ck_assert(!r->ran);
    ck_assert_uint_eq(r->ndiags, 1);
    const MtRunDiag *d = &r->diags[0];
    ck_assert_int_eq(d->severity, MT_SEV_ERROR);
    ck_assert_str_eq(d->code, "R0704");
    ck_assert_str_eq(d->field, "args.x");
    ck_assert_str_eq(d->file, tmp("bad.json"));
    ck_assert_str_eq(d->message, "float32 array expected for parameter x (*fp32), got int32");
    ck_assert_uint_eq(d->line, 2);
    ck_assert_uint_eq(d->col, 11);
    ck_assert_uint_eq(d->end_col, 14);
    char want[1024];
    snprintf(want, sizeof want,
             "%s:2:11: error: args.x: float32 array expected for parameter x (*fp32), got int32 [R0704]\n"
             " 2 |  \"args\": {\"x\": {\"dtype\": \"int32\", \"shape\": [4]}, \"y\": {\"dtype\": \"float32\", \"shape\": "
             "[4]}, \"out\": {\"dtype\": \"float32\", \"shape\": [4]}, \"n\": 4}}\n"
             "   |           ^~~\n",
             tmp("bad.json"));
    ck_assert_str_eq(d->rendered, want);
    ck_assert_ptr_nonnull(strstr(d->rendered_color, "\x1b["));
    mt_run_result_free(r);
}
END_TEST

START_TEST(each_failure_has_its_outcome)
{
    put(tmp("add.py"), add_py);
    put(tmp("add.json"), add_json);
    /* a file that cannot be read: trouble, R0705 */
    MtRunResult *r = run_file(tmp("absent.json"), NULL);
    ck_assert_int_eq(r->outcome, MT_RUN_TROUBLE);
    ck_assert_str_eq(r->diags[0].code, "R0705");
    ck_assert_ptr_null(r->diags[0].file);
    mt_run_result_free(r);
    /* a source error: failed, with the compiler's diagnostic and code */
    put(tmp("bad.py"), "import triton\n\n@triton.jit\ndef add_kernel(x):\n    tl.store(x, 1.0 // 2)\n");
    put(tmp("src.json"), "{\"source\": \"bad.py\", \"grid\": [1], \"args\": {\"x\": {\"dtype\": \"float32\", \"shape\": [1]}}}");
    r = run_file(tmp("src.json"), NULL);
    ck_assert_int_eq(r->outcome, MT_RUN_FAILED);
    ck_assert_uint_ge(r->ndiags, 1);
    ck_assert_str_eq(r->diags[0].file, tmp("bad.py"));
    ck_assert_uint_eq(r->diags[0].line, 5);
    mt_run_result_free(r);
    /* a runtime fault: failed, R0701 at the source line */
    put(tmp("oob.json"), "{\"source\": \"add.py\", \"grid\": [2], \"args\": {\"x\": {\"dtype\": \"float32\", \"shape\": [4]},"
                         " \"y\": {\"dtype\": \"float32\", \"shape\": [4]}, \"out\": {\"dtype\": \"float32\", \"shape\": [4]},"
                         " \"n\": 8, \"BLOCK\": 4}}");
    r = run_file(tmp("oob.json"), NULL);
    ck_assert_int_eq(r->outcome, MT_RUN_FAILED);
    ck_assert_str_eq(r->diags[0].code, "R0701");
    ck_assert_uint_eq(r->diags[0].line, 9);
    ck_assert(!r->ran);
    mt_run_result_free(r);
    /* no GPU here (or a GPU: then it runs) */
    MtRunOptions cuda = {.backend = MT_RUN_CUDA};
    r = run_file(tmp("add.json"), &cuda);
    if (r->outcome != MT_RUN_OK) {
        ck_assert_int_eq(r->outcome, MT_RUN_TROUBLE);
        ck_assert_str_eq(r->diags[r->ndiags - 1].code, "R0706");
    }
    mt_run_result_free(r);
    /* options that need the GPU, and --set errors: trouble */
    MtRunOptions compare = {.compare = true};
    r = run_file(tmp("add.json"), &compare);
    ck_assert_int_eq(r->outcome, MT_RUN_TROUBLE);
    ck_assert_str_eq(r->diags[0].message, "--compare, --profile, --codegen and --ptx need --backend cuda");
    mt_run_result_free(r);
    const char *sets[] = {"x=1"};
    MtRunRequest req = {.spec_path = tmp("add.json"), .sets = sets, .nsets = 1};
    r = mt_run(&req, NULL);
    ck_assert_int_eq(r->outcome, MT_RUN_TROUBLE);
    ck_assert_str_eq(r->diags[0].message, "--set x=1: argument 'x' is an array; only scalars and constexprs can be set");
    mt_run_result_free(r);
}
END_TEST

START_TEST(expect_dump_and_mismatch)
{
    put(tmp("add.py"), add_py);
    put(tmp("add.json"), add_json);
    MtRunOptions dump = {.dump_dir = tmp("ref")};
    MtRunResult *r = run_file(tmp("add.json"), &dump);
    ck_assert_int_eq(r->outcome, MT_RUN_OK);
    ck_assert_str_eq(array(r, "out")->dumped, tmp("ref/out.npy"));
    mt_run_result_free(r);
    /* n = 50: out differs from the reference past 50 */
    const char *sets[] = {"n=50"};
    MtRunRequest req = {.spec_path = tmp("add.json"), .sets = sets, .nsets = 1};
    MtRunOptions expect = {.expect_dir = tmp("ref"), .has_rtol = true, .has_atol = true};
    r = mt_run(&req, &expect);
    ck_assert_int_eq(r->outcome, MT_RUN_MISMATCH);
    ck_assert_int_eq(mt_run_exit_status(r->outcome), 1);
    ck_assert_int_eq(r->expected, 3);
    ck_assert_int_eq(r->mismatches, 1);
    const MtRunArray *out = array(r, "out");
    ck_assert(out->expect.done && !out->expect.r.ok);
    ck_assert_int_eq(out->expect.r.mismatches, 50);
    ck_assert_int_eq(out->expect.r.first, 50);
    ck_assert(array(r, "x")->expect.r.ok);
    mt_run_result_free(r);
    /* --dump and --expect naming one folder: refused before anything runs */
    char ref[256], ref_slash[260];
    snprintf(ref, sizeof ref, "%s", tmp("ref"));
    snprintf(ref_slash, sizeof ref_slash, "%s/", ref);
    MtRunOptions both = {.expect_dir = ref, .dump_dir = ref_slash};
    r = run_file(tmp("add.json"), &both);
    ck_assert_int_eq(r->outcome, MT_RUN_TROUBLE);
    ck_assert(!r->ran);
    mt_run_result_free(r);
    remove_dir(tmp("ref"));
}
END_TEST

START_TEST(a_kernel_compiled_and_bound_by_the_caller)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    ck_assert_int_eq(mt_parse(c, "add.py", add_py, sizeof add_py - 1, &m), MT_OK);
    MtSpec spec = {.kernel = "add_kernel", .signature = "*fp32,*fp32,*fp32,i32,16"};
    MtCompiled *k;
    ck_assert_int_eq(mt_compile(c, m, &spec, &k), MT_OK);
    MtLaunchSpec ls;
    MtSpecError e;
    ck_assert_int_eq(mt_launch_spec_parse("{\"grid\": [2], \"args\": {\"x\": {\"dtype\": \"float32\", \"shape\": [32], "
                                          "\"init\": \"ones\"}, \"y\": {\"dtype\": \"float32\", \"shape\": [32], "
                                          "\"init\": \"ones\"}, \"out\": {\"dtype\": \"float32\", \"shape\": [32]}, "
                                          "\"n\": 32}, \"tolerance\": {\"rtol\": 0.5}}",
                                          NULL, &ls, &e),
                     MT_OK);
    MtKernelParam params[5];
    for (size_t i = 0; i < mt_compiled_param_count(k); i++)
        params[i] = *mt_compiled_param(k, i);
    MtLaunch l;
    ck_assert_int_eq(mt_launch_bind(&ls, params, mt_compiled_param_count(k), &l, &e), MT_OK);
    MtRunResult *r = mt_run_launch(c, k, &l, &ls, NULL);
    ck_assert_int_eq(r->outcome, MT_RUN_OK);
    ck_assert_str_eq(r->kernel, "add_kernel");
    ck_assert_double_eq(r->rtol, 0.5); /* the spec's tolerance */
    ck_assert_double_eq(array(r, "out")->stats.sum, 64);
    /* the launch holds the results */
    ck_assert(((float *)l.args[2].array->data)[31] == 2.0f);
    mt_run_result_free(r);
    mt_launch_free(&l);
    mt_launch_spec_free(&ls);
    mt_ctx_free(c);
}
END_TEST

static const cJSON *get(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    ck_assert_msg(v != NULL, "no '%s'", key);
    return v;
}

/* tests/runtime/data/act_cast.json: a dtype constexpr ("tl.float16")
 * selects the cast and a string constexpr ("leaky_relu") the activation;
 * --set overrides both with -D's spelling. Each run is checked against C. */
static void data_path(char *out, size_t n, const char *name)
{
    const char *slash = strrchr(__FILE__, '/');
    snprintf(out, n, "%.*s/data/%s", slash ? (int)(slash - __FILE__) : 1, slash ? __FILE__ : ".", name);
}

static float act_cast_ref(float v, MtDtype dt, const char *activation)
{
    if (!strcmp(activation, "leaky_relu"))
        v = v >= 0 ? v : v * 0.125f;
    else if (!strcmp(activation, "relu"))
        v = v > 0 ? v : 0.0f;
    return dt == MT_DT_F16 ? mt_f16_to_f32(mt_f32_to_f16(v)) : dt == MT_DT_BF16 ? mt_bf16_to_f32(mt_f32_to_bf16(v)) : v;
}

static void check_act_cast(const char *const *sets, size_t nsets, const char *signature, MtDtype dt,
                           const char *activation)
{
    char spec[600];
    data_path(spec, sizeof spec, "act_cast.json");
    MtRunRequest req = {.spec_path = spec, .sets = sets, .nsets = nsets};
    MtRunOptions opt = {.threads = 2, .keep_arrays = true};
    MtRunResult *r = mt_run(&req, &opt);
    ck_assert_ptr_nonnull(r);
    ck_assert_msg(r->outcome == MT_RUN_OK, "%s", r->ndiags ? r->diags[0].rendered : "?");
    ck_assert_str_eq(r->signature, signature);
    ck_assert_int_eq(r->grid[0], 4);
    const float *x = array(r, "x")->array->data, *out = array(r, "out")->array->data;
    int negative = 0;
    for (int i = 0; i < 200; i++) {
        float want = act_cast_ref(x[i], dt, activation);
        negative += x[i] < 0;
        ck_assert_msg(out[i] == want, "%s: out[%d] = %.9g, want %.9g (x = %.9g)", signature, i, out[i], want, x[i]);
    }
    ck_assert_int_gt(negative, 50); /* the activation is seen */
    mt_run_result_free(r);
}

START_TEST(runs_a_spec_with_dtype_and_string_constexprs)
{
    check_act_cast(NULL, 0, "*fp32:16,*fp32:16,i32,tl.float16,'leaky_relu',64", MT_DT_F16, "leaky_relu");
    const char *relu[] = {"ACTIVATION='relu'", "DTYPE=torch.bfloat16"};
    check_act_cast(relu, 2, "*fp32:16,*fp32:16,i32,tl.bfloat16,'relu',64", MT_DT_BF16, "relu");
    const char *none[] = {"ACTIVATION=\"none\"", "DTYPE=tl.float32"};
    check_act_cast(none, 2, "*fp32:16,*fp32:16,i32,tl.float32,'none',64", MT_DT_F32, "none");

    /* a bad value is located at its field in the spec */
    put(tmp("act_cast.py"), "");
    put(tmp("bad.json"), "{\"source\": \"act_cast.py\", \"grid\": [1],\n \"constexprs\": {\"DTYPE\": null}}\n");
    MtRunResult *r = run_file(tmp("bad.json"), NULL);
    ck_assert_int_eq(r->outcome, MT_RUN_FAILED);
    ck_assert_str_eq(r->diags[0].code, "R0704");
    ck_assert_str_eq(r->diags[0].field, "constexprs.DTYPE");
    ck_assert_uint_eq(r->diags[0].line, 2);
    ck_assert_uint_eq(r->diags[0].col, 26); /* the value */
    mt_run_result_free(r);
}
END_TEST

START_TEST(json_form)
{
    put(tmp("add.py"), add_py);
    put(tmp("add.json"), add_json);
    MtRunResult *r = run_file(tmp("add.json"), NULL);
    char *text = mt_run_result_json(r, false);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_null(strchr(text, '\n')); /* one line */
    cJSON *j = cJSON_Parse(text);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(get(j, "outcome")->valuestring, "ok");
    ck_assert_int_eq(get(j, "exit_status")->valueint, 0);
    ck_assert_str_eq(get(j, "kernel")->valuestring, "add_kernel");
    ck_assert_int_eq(cJSON_GetArraySize(get(j, "grid")), 3);
    ck_assert(cJSON_IsNull(get(j, "profile")));
    ck_assert(cJSON_IsNull(get(j, "device")));
    const cJSON *out = cJSON_GetArrayItem(get(j, "arrays"), 2);
    ck_assert_str_eq(get(out, "name")->valuestring, "out");
    ck_assert_str_eq(get(out, "dtype")->valuestring, "float32");
    ck_assert_int_eq(get(get(out, "stats"), "sum")->valueint, 5050);
    ck_assert_int_eq((int)strlen(get(out, "fnv1a")->valuestring), 16);
    ck_assert(cJSON_IsTrue(get(out, "written")));
    ck_assert(cJSON_IsNull(get(out, "expect")));
    ck_assert_int_eq(cJSON_GetArraySize(get(j, "diagnostics")), 0);
    cJSON_Delete(j);
    free(text);
    mt_run_result_free(r);

    /* numbers JSON cannot hold are strings; diagnostics carry their place */
    put(tmp("nan.json"), "{\"source\": \"add.py\", \"grid\": [1], \"args\": {\"x\": {\"dtype\": \"float32\", \"shape\": [4],"
                         " \"init\": \"constant\", \"value\": \"nan\"}, \"y\": {\"dtype\": \"float32\", \"shape\": [4]},"
                         " \"out\": {\"dtype\": \"float32\", \"shape\": [4]}, \"n\": 4, \"BLOCK\": 4}}");
    r = run_file(tmp("nan.json"), NULL);
    text = mt_run_result_json(r, true);
    j = cJSON_Parse(text);
    const cJSON *x = cJSON_GetArrayItem(get(j, "arrays"), 0);
    ck_assert_str_eq(get(get(x, "stats"), "sum")->valuestring, "nan");
    ck_assert_int_eq(get(get(x, "stats"), "nans")->valueint, 4);
    cJSON_Delete(j);
    free(text);
    mt_run_result_free(r);

    r = run_file(tmp("absent.json"), NULL);
    text = mt_run_result_json(r, false);
    j = cJSON_Parse(text);
    ck_assert_str_eq(get(j, "outcome")->valuestring, "trouble");
    ck_assert_int_eq(get(j, "exit_status")->valueint, 2);
    const cJSON *d = cJSON_GetArrayItem(get(j, "diagnostics"), 0);
    ck_assert_str_eq(get(d, "severity")->valuestring, "error");
    ck_assert_str_eq(get(d, "code")->valuestring, "R0705");
    ck_assert(cJSON_IsNull(get(d, "line")));
    cJSON_Delete(j);
    free(text);
    mt_run_result_free(r);
}
END_TEST

START_TEST(locate_fields_in_json_text)
{
    static const char text[] = "{\"grid\": [\"cdiv(n, B)\", 4],\n \"args\": {\"x\": {\"npy\": \"x.npy\"},\n"
                               "  \"y\": {\"shape\": [3, -1]}, \"n\": 7}, \"kernel\": \"k\"}";
    uint32_t off, end;
    ck_assert(mt_json_locate(text, "grid[0]", &off, &end));
    ck_assert_int_eq(strncmp(text + off, "\"cdiv(n, B)\"", end - off), 0);
    ck_assert(mt_json_locate(text, "grid[1]", &off, &end));
    ck_assert_int_eq(strncmp(text + off, "4", end - off), 0);
    ck_assert(mt_json_locate(text, "args.x", &off, &end)); /* an object: its key */
    ck_assert_int_eq(strncmp(text + off, "\"x\"", end - off), 0);
    ck_assert(mt_json_locate(text, "args.x.npy", &off, &end));
    ck_assert_int_eq(strncmp(text + off, "\"x.npy\"", end - off), 0);
    ck_assert(mt_json_locate(text, "args.y.shape[1]", &off, &end));
    ck_assert_int_eq(strncmp(text + off, "-1", end - off), 0);
    ck_assert(mt_json_locate(text, "args.n", &off, &end));
    ck_assert_int_eq(strncmp(text + off, "7", end - off), 0);
    ck_assert(mt_json_locate(text, "kernel", &off, &end));
    ck_assert_int_eq(strncmp(text + off, "\"k\"", end - off), 0);
    ck_assert(!mt_json_locate(text, "grid[2]", &off, &end));
    ck_assert(!mt_json_locate(text, "args.z", &off, &end));
    ck_assert(!mt_json_locate(text, "tolerance", &off, &end));
    ck_assert(!mt_json_locate(text, "", &off, &end));
    ck_assert(!mt_json_locate("{\"a\": [1, 2", "a[1]", &off, &end) || off > 0);
    ck_assert(!mt_json_locate("not json", "a", &off, &end));
}
END_TEST

static Suite *run_suite(void)
{
    Suite *s = suite_create("run");
    TCase *tc = tcase_create("run");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, runs_a_spec_file);
    tcase_add_test(tc, runs_a_spec_and_source_given_as_text);
    tcase_add_test(tc, runs_a_spec_with_dtype_and_string_constexprs);
    tcase_add_test(tc, a_wrong_field_is_a_located_diagnostic);
    tcase_add_test(tc, each_failure_has_its_outcome);
    tcase_add_test(tc, expect_dump_and_mismatch);
    tcase_add_test(tc, a_kernel_compiled_and_bound_by_the_caller);
    tcase_add_test(tc, json_form);
    tcase_add_test(tc, locate_fields_in_json_text);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(run_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
