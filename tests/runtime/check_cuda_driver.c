/* check_cuda_driver.c: the Driver API loader on any machine. Without a
 * driver (CI) mt_cuda_open must fail with the one documented message; with
 * one it must open device 0 and report sane limits. A missing library is
 * also forced through MYTRITON_LIBCUDA so the no-driver path is checked on
 * GPU machines too. The profiler's driver-free parts (loading CUPTI,
 * argument checks) are here as well, being the timing half of the same
 * layer. Launches, sticky errors and timings need a GPU and live in
 * tests/gpu/. */
#include <check.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_driver.h"
#include "profiler.h"

static const char *tail_msg =
    "; GPU execution needs an NVIDIA driver \xe2\x80\x94 use --backend interp";

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

START_TEST(missing_driver_gives_one_clear_message)
{
    setenv("MYTRITON_LIBCUDA", "libcuda-missing-for-mytriton-test.so.1", 1);
    MtCuda *cu = (MtCuda *)1;
    char err[512] = "";
    ck_assert_int_eq(mt_cuda_open(&cu, err, sizeof err), MT_ERR_CUDA);
    ck_assert_ptr_null(cu);
    const char *head = "no CUDA driver: libcuda-missing-for-mytriton-test.so.1 could not be loaded (";
    ck_assert_msg(strncmp(err, head, strlen(head)) == 0, "message: %s", err);
    ck_assert_msg(ends_with(err, tail_msg), "message: %s", err);
    /* dlerror's reason sits between the parentheses. */
    ck_assert_ptr_nonnull(strstr(err, "cannot open shared object file"));
}
END_TEST

START_TEST(default_open_matches_the_machine)
{
    unsetenv("MYTRITON_LIBCUDA");
    unsetenv("MYTRITON_DEVICE");
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    MtCuda *cu = NULL;
    char err[512] = "";
    MtStatus st = mt_cuda_open(&cu, err, sizeof err);
    if (!h) {
        /* This machine has no driver: the documented message, nothing else. */
        ck_assert_int_eq(st, MT_ERR_CUDA);
        ck_assert_ptr_null(cu);
        const char *head = "no CUDA driver: libcuda.so.1 could not be loaded (";
        ck_assert_msg(strncmp(err, head, strlen(head)) == 0, "message: %s", err);
        ck_assert_msg(ends_with(err, tail_msg), "message: %s", err);
        return;
    }
    if (st != MT_OK) {
        /* A driver but no usable device (a container without the GPU, say):
         * the message names the failing driver call. */
        const char *req = getenv("MYTRITON_REQUIRE_CUDA");
        ck_assert_msg(!(req && strcmp(req, "1") == 0), "MYTRITON_REQUIRE_CUDA=1: %s", err);
        ck_assert_msg(strncmp(err, "cu", 2) == 0, "message: %s", err);
        return;
    }
    const MtCudaDeviceInfo *in = mt_cuda_device_info(cu);
    ck_assert_ptr_nonnull(in);
    ck_assert_int_gt((int)strlen(in->name), 0);
    ck_assert_int_eq(in->ordinal, 0);
    ck_assert_int_ge(in->cc_major, 5);
    ck_assert_int_gt(in->sm_count, 0);
    ck_assert_uint_gt(in->total_mem, (size_t)1 << 30);
    ck_assert_int_eq(in->max_threads_per_block, 1024);
    ck_assert_int_eq(in->max_block[0], 1024);
    ck_assert_int_eq(in->max_block[2], 64);
    ck_assert_int_ge(in->max_grid[0], 65535);
    ck_assert_int_eq(in->max_grid[1], 65535);
    ck_assert_int_eq(in->smem_per_block, 48 * 1024);
    ck_assert_int_ge(in->smem_per_block_optin, in->smem_per_block);
    ck_assert_int_eq(in->warp_size, 32);
    ck_assert_int_ge(in->driver_version, 12000);
    ck_assert_ptr_null(mt_cuda_sticky_error(cu));
    mt_cuda_close(cu);
}
END_TEST

START_TEST(bad_device_variable_is_a_usage_error)
{
    const char *bad[] = {"abc", "-1", "1x", "99999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("MYTRITON_DEVICE", bad[i], 1);
        MtCuda *cu = NULL;
        char err[256] = "";
        ck_assert_int_eq(mt_cuda_open(&cu, err, sizeof err), MT_ERR_USAGE);
        ck_assert_ptr_null(cu);
        ck_assert_msg(strstr(err, "MYTRITON_DEVICE='") && strstr(err, bad[i]), "%s", err);
    }
}
END_TEST

START_TEST(sticky_results_are_the_fatal_ones)
{
    /* cuda.h values: these poison the context... */
    const int sticky[] = {214, 220, 226, 700, 702, 710, 714, 715, 716, 717, 718, 719, 721, 911};
    for (size_t i = 0; i < sizeof sticky / sizeof sticky[0]; i++)
        ck_assert_msg(mt_cuda_result_is_sticky(sticky[i]), "%d", sticky[i]);
    /* ...these do not: success, invalid value, out of memory, not found,
     * out of resources, no binary for GPU. */
    const int benign[] = {0, 1, 2, 500, 701, 209};
    for (size_t i = 0; i < sizeof benign / sizeof benign[0]; i++)
        ck_assert_msg(!mt_cuda_result_is_sticky(benign[i]), "%d", benign[i]);
}
END_TEST

START_TEST(null_handle_is_refused_politely)
{
    char err[128] = "";
    unsigned g[3] = {1, 1, 1}, b[3] = {32, 1, 1};
    ck_assert_int_ne(mt_cuda_launch(NULL, NULL, "k", g, b, 0, NULL, err, sizeof err), MT_OK);
    ck_assert_str_eq(err, "cuLaunchKernel: no CUDA handle");
    MtDevPtr p = 1;
    ck_assert_int_ne(mt_cuda_alloc(NULL, 16, &p, err, sizeof err), MT_OK);
    ck_assert_str_eq(err, "cuMemAlloc_v2: no CUDA handle");
    ck_assert_int_ne(mt_cuda_synchronize(NULL, err, sizeof err), MT_OK);
    ck_assert_ptr_null(mt_cuda_device_info(NULL));
    ck_assert_ptr_null(mt_cuda_sticky_error(NULL));
    ck_assert_ptr_null(mt_cuda_func_info(NULL));
    mt_cuda_close(NULL);
    ck_assert_int_eq(mt_cuda_open(NULL, err, sizeof err), MT_ERR_USAGE);
}
END_TEST

START_TEST(cupti_loads_without_a_gpu)
{
    /* The toolkit ships libcupti; loading it and registering the buffer
     * callbacks needs no device. Where it is missing, the reason names it. */
    char why[256] = "";
    bool ok = mt_profile_cupti_available(why, sizeof why);
    if (!ok)
        ck_assert_msg(strstr(why, "libcupti") || strstr(why, "cupti"), "why: %s", why);
    /* The answer is cached for the process. */
    char again[256] = "";
    ck_assert_int_eq(mt_profile_cupti_available(again, sizeof again), ok);
}
END_TEST

static MtStatus never_called(void *ud, char *err, size_t errlen)
{
    ck_abort_msg("launch called");
    return MT_OK;
}

START_TEST(profile_arguments_are_checked)
{
    MtProfile p;
    char err[256] = "";
    memset(&p, 0xab, sizeof p);
    ck_assert_int_eq(mt_profile(NULL, never_called, NULL, 1, 10, &p, err, sizeof err), MT_ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(err, "needs a CUDA handle"));
    ck_assert_ptr_null(p.ns);
    ck_assert_uint_eq(p.n, 0);
    ck_assert_int_eq(mt_profile(NULL, never_called, NULL, 1, 10, NULL, err, sizeof err), MT_ERR_USAGE);
    mt_profile_free(NULL);
    mt_profile_free(&p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cuda_driver");
    TCase *tc = tcase_create("driver");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, missing_driver_gives_one_clear_message);
    tcase_add_test(tc, default_open_matches_the_machine);
    tcase_add_test(tc, bad_device_variable_is_a_usage_error);
    tcase_add_test(tc, sticky_results_are_the_fatal_ones);
    tcase_add_test(tc, null_handle_is_refused_politely);
    suite_add_tcase(s, tc);
    TCase *prof = tcase_create("profiler");
    tcase_add_test(prof, cupti_loads_without_a_gpu);
    tcase_add_test(prof, profile_arguments_are_checked);
    suite_add_tcase(s, prof);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
