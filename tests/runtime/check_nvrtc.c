/* check_nvrtc.c: NVRTC compilation without a GPU: PTX and cubin from one
 * compile, the log and its first error mapped to a line, and option
 * handling (defaults, caller options, refused architecture options).
 * LeakSanitizer needs no suppression here: NVRTC 13 leaves nothing behind
 * that it reports. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "nvrtc_compile.h"

static const char *vadd_src =
    "extern \"C\" __global__ void vadd(const float *x, const float *y, float *out, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        out[i] = x[i] + y[i];\n"
    "}\n";

START_TEST(vector_add_gives_ptx_and_cubin)
{
    MtNvrtcOutput out;
    char err[512] = "";
    ck_assert_int_eq(mt_nvrtc_compile(vadd_src, "vadd.cu", 90, NULL, 0, &out, err, sizeof err), MT_OK);
    ck_assert_ptr_nonnull(out.ptx);
    ck_assert_uint_gt(out.ptx_len, 0);
    ck_assert_uint_eq(strlen(out.ptx), out.ptx_len);
    ck_assert_ptr_nonnull(strstr(out.ptx, ".visible .entry vadd("));
    ck_assert_ptr_nonnull(strstr(out.ptx, ".target sm_90"));
    ck_assert_ptr_nonnull(out.cubin);
    ck_assert_uint_gt(out.cubin_len, 4);
    ck_assert_int_eq(memcmp(out.cubin, "\x7f" "ELF", 4), 0);
    ck_assert_ptr_nonnull(out.log);
    ck_assert_int_eq(out.sm, 90);
    mt_nvrtc_output_free(&out);
    ck_assert_ptr_null(out.ptx);
    mt_nvrtc_output_free(&out); /* idempotent */
}
END_TEST

START_TEST(compile_error_keeps_log_and_maps_line)
{
    const char *bad =
        "extern \"C\" __global__ void broken(float *out)\n"
        "{\n"
        "    out[0] = undefined_name + 1.0f;\n"
        "}\n";
    MtNvrtcOutput out;
    char err[2048] = "";
    ck_assert_int_eq(mt_nvrtc_compile(bad, "broken.cu", 90, NULL, 0, &out, err, sizeof err),
                     MT_ERR_SOURCE);
    ck_assert_msg(strncmp(err, "nvrtcCompileProgram(broken.cu): NVRTC_ERROR_COMPILATION\n", 56) == 0,
                  "message: %s", err);
    ck_assert_ptr_nonnull(strstr(err, "broken.cu(3): error"));
    ck_assert_ptr_null(out.ptx);
    ck_assert_ptr_null(out.cubin);
    ck_assert_ptr_nonnull(out.log);
    ck_assert_ptr_nonnull(strstr(out.log, "undefined_name"));

    int line = -1;
    char msg[256];
    ck_assert(mt_nvrtc_first_error(out.log, &line, msg, sizeof msg));
    ck_assert_int_eq(line, 3);
    ck_assert_msg(strstr(msg, "undefined_name") && strstr(msg, "undefined"), "msg: %s", msg);
    mt_nvrtc_output_free(&out);
}
END_TEST

START_TEST(first_error_parses_log_shapes)
{
    int line = -1;
    char msg[64];
    const char *log =
        "k.cu(2): warning #177-D: variable \"unused\" was declared but never referenced\n"
        "k.cu(17): error: expected a \";\"\n"
        "k.cu(20): error: second error\n";
    ck_assert(mt_nvrtc_first_error(log, &line, msg, sizeof msg));
    ck_assert_int_eq(line, 17);
    ck_assert_str_eq(msg, "expected a \";\"");

    ck_assert(mt_nvrtc_first_error("k.cu(4): catastrophic error: cannot open source file \"x.h\"\r\n",
                                   &line, msg, sizeof msg));
    ck_assert_int_eq(line, 4);
    ck_assert_str_eq(msg, "cannot open source file \"x.h\"");

    ck_assert(mt_nvrtc_first_error("nvrtc: error: invalid value for --gpu-architecture (-arch)\n",
                                   &line, msg, sizeof msg));
    ck_assert_int_eq(line, 0);
    ck_assert_str_eq(msg, "invalid value for --gpu-architecture (-arch)");

    /* "my_error: " is not the word "error". */
    ck_assert(!mt_nvrtc_first_error("k.cu(1): warning: my_error: x\n", &line, msg, sizeof msg));
    ck_assert_int_eq(line, 0);
    ck_assert_str_eq(msg, "");
    ck_assert(!mt_nvrtc_first_error("", &line, msg, sizeof msg));
    ck_assert(!mt_nvrtc_first_error(NULL, &line, msg, sizeof msg));

    char small[8];
    ck_assert(mt_nvrtc_first_error("a.cu(9): error: a long message here", &line, small, sizeof small));
    ck_assert_int_eq(line, 9);
    ck_assert_str_eq(small, "a long ");
}
END_TEST

START_TEST(caller_options_reach_nvrtc)
{
    const char *src =
        "extern \"C\" __global__ void fill(int *out) { out[threadIdx.x] = FILL_VALUE; }\n";
    const char *opts[] = {"-DFILL_VALUE=12345"};
    MtNvrtcOutput out;
    char err[1024] = "";
    ck_assert_int_eq(mt_nvrtc_compile(src, "fill.cu", 90, opts, 1, &out, err, sizeof err), MT_OK);
    ck_assert_ptr_nonnull(strstr(out.ptx, "12345"));
    mt_nvrtc_output_free(&out);

    /* Without the definition the source does not compile: the option was
     * what made the difference. */
    ck_assert_int_eq(mt_nvrtc_compile(src, "fill.cu", 90, NULL, 0, &out, err, sizeof err),
                     MT_ERR_SOURCE);
    mt_nvrtc_output_free(&out);
}
END_TEST

START_TEST(default_options_apply)
{
    /* -default-device: `helper` has no __device__; --std=c++17: if constexpr;
     * -lineinfo: the PTX carries .loc/.file directives. */
    const char *src =
        "template <int N> int helper(int x) { if constexpr (N > 1) return x * N; else return x; }\n"
        "extern \"C\" __global__ void k(int *out) { out[threadIdx.x] = helper<3>(threadIdx.x); }\n";
    MtNvrtcOutput out;
    char err[2048] = "";
    ck_assert_msg(mt_nvrtc_compile(src, "k.cu", 90, NULL, 0, &out, err, sizeof err) == MT_OK,
                  "%s", err);
    ck_assert_ptr_nonnull(strstr(out.ptx, ".loc"));
    ck_assert_ptr_nonnull(strstr(out.ptx, "k.cu"));
    mt_nvrtc_output_free(&out);

    ck_assert_uint_eq(mt_nvrtc_ndefault_opts, 3);
    ck_assert_str_eq(mt_nvrtc_default_opts[0], "-default-device");
}
END_TEST

START_TEST(architecture_options_are_refused)
{
    const char *bad[][1] = {{"--gpu-architecture=sm_80"}, {"-arch=sm_80"}, {"-arch"}};
    for (size_t i = 0; i < 3; i++) {
        MtNvrtcOutput out;
        char err[256] = "";
        ck_assert_int_eq(mt_nvrtc_compile(vadd_src, "vadd.cu", 90, bad[i], 1, &out, err, sizeof err),
                         MT_ERR_USAGE);
        ck_assert_msg(strstr(err, "pass it as sm instead") && strstr(err, "vadd.cu"), "%s", err);
        ck_assert_ptr_null(out.log); /* NVRTC never ran */
    }
    /* A look-alike that is not an architecture option passes through. */
    const char *ok[] = {"-arch-like-macro-is-not-an-option"};
    MtNvrtcOutput out;
    char err[1024] = "";
    ck_assert_int_ne(mt_nvrtc_compile(vadd_src, "vadd.cu", 90, ok, 1, &out, err, sizeof err),
                     MT_OK); /* NVRTC itself rejects the unknown option */
    ck_assert_ptr_null(strstr(err, "pass it as sm"));
    mt_nvrtc_output_free(&out);
}
END_TEST

START_TEST(bad_options_and_arguments)
{
    MtNvrtcOutput out;
    char err[1024] = "";
    const char *opts[] = {"--no-such-option"};
    ck_assert_int_eq(mt_nvrtc_compile(vadd_src, "vadd.cu", 90, opts, 1, &out, err, sizeof err),
                     MT_ERR_USAGE);
    ck_assert_msg(strstr(err, "nvrtcCompileProgram(vadd.cu): NVRTC_ERROR_INVALID_OPTION"), "%s", err);
    mt_nvrtc_output_free(&out);

    ck_assert_int_ne(mt_nvrtc_compile(vadd_src, "vadd.cu", 12, NULL, 0, &out, err, sizeof err), MT_OK);
    ck_assert_ptr_nonnull(strstr(err, "vadd.cu"));
    mt_nvrtc_output_free(&out);

    ck_assert_int_eq(mt_nvrtc_compile(NULL, "none.cu", 90, NULL, 0, &out, err, sizeof err), MT_ERR_USAGE);
    ck_assert_str_eq(err, "mt_nvrtc_compile(none.cu): no source");
    ck_assert_int_eq(mt_nvrtc_compile(vadd_src, "vadd.cu", 90, NULL, 2, &out, err, sizeof err),
                     MT_ERR_USAGE);
    const char *holes[] = {"-DA=1", NULL};
    ck_assert_int_eq(mt_nvrtc_compile(vadd_src, "vadd.cu", 90, holes, 2, &out, err, sizeof err),
                     MT_ERR_USAGE);
    ck_assert_str_eq(err, "mt_nvrtc_compile(vadd.cu): option 1 is NULL");
}
END_TEST

START_TEST(version_is_reported)
{
    int major = 0, minor = -1;
    ck_assert_int_eq(mt_nvrtc_version(&major, &minor), MT_OK);
    ck_assert_int_ge(major, 12);
    ck_assert_int_ge(minor, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nvrtc");
    TCase *tc = tcase_create("compile");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, vector_add_gives_ptx_and_cubin);
    tcase_add_test(tc, compile_error_keeps_log_and_maps_line);
    tcase_add_test(tc, first_error_parses_log_shapes);
    tcase_add_test(tc, caller_options_reach_nvrtc);
    tcase_add_test(tc, default_options_apply);
    tcase_add_test(tc, architecture_options_are_refused);
    tcase_add_test(tc, bad_options_and_arguments);
    tcase_add_test(tc, version_is_reported);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
