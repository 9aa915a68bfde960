/* check_cubin_info.c: a kernel's resources read from NVRTC's cubin
 * (cubin_info.c) without a GPU: the static shared memory and launch
 * bounds the source declares, and the registers and stack frame ptxas
 * reports for the same PTX (`ptxas -v`, run here as the test's oracle
 * when the toolkit has it; the product never reads that text). A cubin it
 * does not understand, a truncated one, or a kernel it lacks give false. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cubin_info.h"
#include "nvrtc_compile.h"

static const char src[] =
    "extern \"C\" __global__ void __launch_bounds__(128) reduce(const float *x, float *out, int n)\n"
    "{\n"
    "    __shared__ float buf[256];\n"
    "    int i = blockIdx.x * 128 + threadIdx.x;\n"
    "    buf[threadIdx.x] = i < n ? x[i] : 0.0f;\n"
    "    buf[threadIdx.x + 128] = i + 128 < n ? x[i + 128] * 2.0f : 0.0f;\n"
    "    __syncthreads();\n"
    "    for (int s = 128; s > 0; s >>= 1) {\n"
    "        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (threadIdx.x == 0) out[blockIdx.x] = buf[0];\n"
    "}\n"
    "extern \"C\" __global__ void spill(const int *idx, float *out)\n"
    "{\n"
    "    float a[64];\n"
    "    for (int k = 0; k < 64; k++) a[k] = out[k];\n"
    "    for (int j = 0; j < 8; j++) a[idx[j] & 63] += 1.0f;\n"
    "    out[threadIdx.x] = a[idx[threadIdx.x] & 63];\n"
    "}\n";

static MtNvrtcOutput out;

static void setup(void)
{
    char err[2048];
    ck_assert_msg(mt_nvrtc_compile(src, "resources.cu", 90, NULL, 0, &out, err, sizeof err) == MT_OK, "%s", err);
}

static void teardown(void) { mt_nvrtc_output_free(&out); }

/* What `ptxas -v` says of kernel `name` compiled from NVRTC's PTX: false
 * when there is no ptxas. */
static bool ptxas_says(const char *name, int *regs, int *smem, int *frame)
{
    const char *ptxas = access("/usr/local/cuda/bin/ptxas", X_OK) ? "ptxas" : "/usr/local/cuda/bin/ptxas";
    char ptx[] = "/tmp/mt_cubin_XXXXXX";
    int fd = mkstemp(ptx);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, out.ptx, out.ptx_len), (ssize_t)out.ptx_len);
    close(fd);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s -v -arch=sm_90a %s -o /dev/null 2>&1", ptxas, ptx);
    FILE *p = popen(cmd, "r");
    char line[512];
    bool in = false, found = false;
    *smem = *frame = 0;
    while (p && fgets(line, sizeof line, p)) {
        char fn[128];
        if (sscanf(line, "ptxas info : Function properties for %127s", fn) == 1 ||
            sscanf(line, "ptxas info    : Function properties for %127s", fn) == 1)
            in = !strcmp(fn, name);
        else if (in && strstr(line, "bytes stack frame"))
            sscanf(line, " %d bytes stack frame", frame);
        else if (in && strstr(line, "Used ")) {
            found = sscanf(strstr(line, "Used "), "Used %d registers", regs) == 1;
            const char *s = strstr(line, "bytes smem");
            if (s) {
                while (s > line && s[-1] == ' ')
                    s--;
                while (s > line && s[-1] >= '0' && s[-1] <= '9')
                    s--;
                *smem = atoi(s);
            }
            in = false;
        }
    }
    int rc = p ? pclose(p) : -1;
    unlink(ptx);
    return rc == 0 && found;
}

START_TEST(resources_are_what_the_source_declares_and_ptxas_reports)
{
    MtCubinResources r;
    ck_assert(mt_cubin_resources(out.cubin, out.cubin_len, "reduce", &r));
    ck_assert_int_eq(r.shared_bytes, 256 * 4);
    ck_assert_int_eq(r.max_threads_per_block, 128);
    ck_assert_int_gt(r.registers, 0);
    MtCubinResources s;
    ck_assert(mt_cubin_resources(out.cubin, out.cubin_len, "spill", &s));
    ck_assert_int_eq(s.shared_bytes, 0);
    ck_assert_int_eq(s.max_threads_per_block, 0);
    ck_assert_int_ge(s.local_bytes, 64 * 4); /* the indexed array lives in the stack frame */
    int regs, smem, frame;
    if (!ptxas_says("reduce", &regs, &smem, &frame)) {
        fprintf(stderr, "check_cubin_info: no ptxas to compare with: registers not checked against it\n");
        return;
    }
    ck_assert_int_eq(r.registers, regs);
    ck_assert_int_eq(r.shared_bytes, smem);
    ck_assert_int_eq(r.local_bytes, frame);
    ck_assert(ptxas_says("spill", &regs, &smem, &frame));
    ck_assert_int_eq(s.registers, regs);
    ck_assert_int_eq(s.local_bytes, frame);
}
END_TEST

START_TEST(what_is_not_a_cubin_of_the_kernel_gives_nothing)
{
    MtCubinResources r;
    ck_assert(!mt_cubin_resources(out.cubin, out.cubin_len, "absent", &r));
    ck_assert(!mt_cubin_resources(out.ptx, out.ptx_len, "reduce", &r));
    ck_assert(!mt_cubin_resources(NULL, 0, "reduce", &r));
    /* every truncation of the image is refused or read within bounds */
    for (size_t n = 0; n < out.cubin_len; n += n < 256 ? 1 : 97)
        if (mt_cubin_resources(out.cubin, n, "reduce", &r))
            ck_assert_int_gt(r.registers, 0);
    /* a corrupted section table is refused, not followed */
    unsigned char *bad = malloc(out.cubin_len);
    memcpy(bad, out.cubin, out.cubin_len);
    memset(bad + 0x28, 0xff, 8); /* e_shoff */
    ck_assert(!mt_cubin_resources(bad, out.cubin_len, "reduce", &r));
    free(bad);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cubin_info");
    TCase *t = tcase_create("cubin_info");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, resources_are_what_the_source_declares_and_ptxas_reports);
    tcase_add_test(t, what_is_not_a_cubin_of_the_kernel_gives_nothing);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
