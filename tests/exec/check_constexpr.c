/* check_constexpr.c: compile-time Python inside kernels, evaluated at
 * specialisation time as CPython would: type() compared with `is` and `==`,
 * isinstance() (bool is an int), over each kind of constexpr value. Each
 * case compiles the kernel for one value and runs it on the interpreter. */
#include "exec_test.h"

static const char *const SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def typed(out, VALUE: tl.constexpr):\n"
    "    tl.store(out, 1.0 if type(VALUE) is bool else 2.0)\n"
    "    tl.store(out + 1, 1.0 if type(VALUE) == int else 2.0)\n"
    "    tl.store(out + 2, 1.0 if isinstance(VALUE, float) else 2.0)\n"
    "    tl.store(out + 3, 1.0 if isinstance(VALUE, int) else 2.0)\n"
    "    tl.store(out + 4, 1.0 if isinstance(VALUE, (str, tuple)) else 2.0)\n"
    "    tl.store(out + 5, 1.0 if type(VALUE) is not float else 2.0)\n";

/* Run `typed` for VALUE = literal and compare out[0..5] with want (1 or 2). */
static void check_value(const char *literal, const char *want)
{
    MtCtx *c = mt_ctx_new(NULL);
    char sig[64];
    snprintf(sig, sizeof sig, "*fp32,%s", literal);
    MtCompiled *k = compile_text(c, "typed.py", SRC, "typed", sig);
    float out[6] = {0};
    MtKernelArg args[] = {arr(out, 6)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 6; i++)
        ck_assert_msg(out[i] == (float)(want[i] - '0'), "VALUE=%s: out[%d] = %g, want %c", literal, i, out[i],
                      want[i]);
    mt_ctx_free(c);
}

START_TEST(type_of_a_bool)
{
    check_value("True", "122121");
}
END_TEST

START_TEST(type_of_an_int)
{
    check_value("7", "212121");
}
END_TEST

START_TEST(type_of_a_float)
{
    check_value("2.5", "221222");
}
END_TEST

START_TEST(isinstance_rejects_what_is_not_a_type)
{
    MtCtx *c = mt_ctx_new(NULL);
    const char *src = "import triton\nimport triton.language as tl\n@triton.jit\n"
                      "def k(out, V: tl.constexpr):\n    tl.store(out, 1.0 if isinstance(V, 3) else 2.0)\n";
    MtModule *m;
    ck_assert_int_eq(mt_parse(c, "k.py", src, strlen(src), &m), MT_OK);
    MtSpec spec = {.kernel = "k", .signature = "*fp32,1"};
    MtCompiled *k;
    ck_assert_int_eq(mt_compile(c, m, &spec, &k), MT_ERR_SOURCE);
    ck_assert_str_eq(mt_diag_at(c, 0)->code, "E0306");
    mt_ctx_free(c);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("constexpr");
    TCase *tc = tcase_create("python");
    tcase_add_test(tc, type_of_a_bool);
    tcase_add_test(tc, type_of_an_int);
    tcase_add_test(tc, type_of_a_float);
    tcase_add_test(tc, isinstance_rejects_what_is_not_a_type);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
