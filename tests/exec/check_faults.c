/* check_faults.c: runtime faults are diagnostics, not crashes. Each path
 * (an unmasked load past the end, a store under a mask that lets one lane
 * too many through, a negative offset, integer // and % by zero, a fault
 * inside an inlined helper, a fault in a rank-2 grid) asserts the whole
 * message, the code, the line:col of the load/store/division and the
 * rendered caret line; the reported fault is the lowest program's whatever
 * the number of threads. */
#include "exec_test.h"

static const char *const SRC =
    "import triton\n"                                                        /* 1 */
    "import triton.language as tl\n"                                         /* 2 */
    "\n"                                                                     /* 3 */
    "@triton.jit\n"                                                          /* 4 */
    "def copy_nomask(x, out, BLOCK: tl.constexpr):\n"                        /* 5 */
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"            /* 6 */
    "    tl.store(out + offs, tl.load(x + offs))\n"                          /* 7 */
    "\n"                                                                     /* 8 */
    "@triton.jit\n"                                                          /* 9 */
    "def wrong_mask(x, out, n, BLOCK: tl.constexpr):\n"                      /* 10 */
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"            /* 11 */
    "    v = tl.load(x + offs, mask=offs < n, other=0.0)\n"                  /* 12 */
    "    tl.store(out + offs, v, mask=offs <= n)\n"                          /* 13 */
    "\n"                                                                     /* 14 */
    "@triton.jit\n"                                                          /* 15 */
    "def shift(x, out, n, BLOCK: tl.constexpr):\n"                           /* 16 */
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"            /* 17 */
    "    mask = offs < n\n"                                                  /* 18 */
    "    tl.store(out + offs, tl.load(x + offs - 1, mask=mask), mask=mask)\n" /* 19 */
    "\n"                                                                     /* 20 */
    "@triton.jit\n"                                                          /* 21 */
    "def divide(a, b, out, n, BLOCK: tl.constexpr):\n"                       /* 22 */
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"            /* 23 */
    "    mask = offs < n\n"                                                  /* 24 */
    "    x = tl.load(a + offs, mask=mask, other=1)\n"                        /* 25 */
    "    y = tl.load(b + offs, mask=mask, other=1)\n"                        /* 26 */
    "    tl.store(out + offs, x // y, mask=mask)\n"                          /* 27 */
    "    tl.store(out + n + offs, x % y, mask=mask)\n"                       /* 28 */
    "\n"                                                                     /* 29 */
    "@triton.jit\n"                                                          /* 30 */
    "def gather(x, idx, out, n, BLOCK: tl.constexpr):\n"                     /* 31 */
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"            /* 32 */
    "    mask = offs < n\n"                                                  /* 33 */
    "    j = tl.load(idx + offs, mask=mask, other=0)\n"                      /* 34 */
    "    tl.store(out + offs, tl.load(x + j, mask=mask), mask=mask)\n"       /* 35 */
    "\n"                                                                     /* 36 */
    "@triton.jit\n"                                                          /* 37 */
    "def at(p, i):\n"                                                        /* 38 */
    "    return tl.load(p + i)\n"                                            /* 39 */
    "\n"                                                                     /* 40 */
    "@triton.jit\n"                                                          /* 41 */
    "def via_helper(x, out, BLOCK: tl.constexpr):\n"                         /* 42 */
    "    i = tl.arange(0, BLOCK)\n"                                          /* 43 */
    "    tl.store(out + i, at(x, i + 1))\n"                                  /* 44 */
    "\n"                                                                     /* 45 */
    "@triton.jit\n"                                                          /* 46 */
    "def scalar_div(out, a, b):\n"                                           /* 47 */
    "    tl.store(out, a // b)\n"                                            /* 48 */
    "\n"                                                                     /* 49 */
    "@triton.jit\n"                                                          /* 50 */
    "def tiles(out, M, N, BM: tl.constexpr, BN: tl.constexpr):\n"            /* 51 */
    "    rm = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]\n"           /* 52 */
    "    rn = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]\n"           /* 53 */
    "    tl.store(out + rm * N + rn, rm + rn, mask=(rm < M) & (rn <= N))\n"  /* 54 */
    "\n"                                                                     /* 55 */
    "@triton.jit\n"                                                          /* 56 */
    "def scalar_mod(out, a, b):\n"                                           /* 57 */
    "    tl.store(out, a % b)\n";                                            /* 58 */

static MtCompiled *kern(MtCtx *c, const char *name, const char *sig) { return compile_text(c, "t.py", SRC, name, sig); }

/* Exactly one diagnostic: code, message, position and the rendered form. */
static void expect_fault(MtCtx *c, MtStatus st, const char *code, const char *msg, uint32_t line, uint32_t col,
                         const char *caret_line)
{
    ck_assert_msg(st == MT_ERR_SOURCE, "status %s: %s", mt_status_name(st), all_diags(c));
    ck_assert_uint_eq(mt_diag_count(c), 1);
    const MtDiag *d = mt_diag_at(c, 0);
    ck_assert_str_eq(d->code, code);
    ck_assert_str_eq(d->msg, msg);
    ck_assert_uint_eq(d->span.line, line);
    ck_assert_uint_eq(d->span.col, col);
    ck_assert_ptr_nonnull(d->kernel);
    char head[512];
    snprintf(head, sizeof head, "t.py:%u:%u: error: %s [%s]\n", line, col, msg, code);
    const char *r = mt_diag_render(c, d, false);
    ck_assert_msg(strncmp(r, head, strlen(head)) == 0, "rendered:\n%s\nexpected it to start with:\n%s", r, head);
    ck_assert_msg(strstr(r, caret_line) != NULL, "rendered:\n%s\nlacks the line %s", r, caret_line);
}

START_TEST(unmasked_load_past_the_end)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "copy_nomask", "*fp32,*fp32,64");
    float x[100] = {0}, out[128];
    MtKernelArg args[] = {arr(x, 100), arr(out, 128)};
    MtStatus st = run(c, k, 2, 1, args, 2, 1);
    expect_fault(c, st, "R0701",
                 "out-of-bounds load in copy_nomask: program (1, 0, 0) reads x[100], but x has 100 elements", 7, 26,
                 "    tl.store(out + offs, tl.load(x + offs))");
    ck_assert_str_eq(mt_diag_at(c, 0)->kernel, "copy_nomask");
    mt_ctx_free(c);
}
END_TEST

START_TEST(store_whose_mask_lets_one_lane_too_many_through)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "wrong_mask", "*fp32,*fp32,i32,256");
    float x[1000] = {0}, out[1000];
    MtKernelArg args[] = {arr(x, 1000), arr(out, 1000), i32(1000)};
    MtStatus st = run(c, k, 4, 1, args, 3, 2);
    expect_fault(c, st, "R0701",
                 "out-of-bounds store in wrong_mask: program (3, 0, 0) writes out[1000], but out has 1000 elements",
                 13, 5, "    tl.store(out + offs, v, mask=offs <= n)");
    mt_ctx_free(c);
}
END_TEST

START_TEST(negative_offset)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "shift", "*i32,*i32,i32,32");
    int32_t x[40] = {0}, out[40];
    MtKernelArg args[] = {arr(x, 40), arr(out, 40), i32(40)};
    MtStatus st = run(c, k, 2, 1, args, 3, 1);
    expect_fault(c, st, "R0701",
                 "out-of-bounds load in shift: program (0, 0, 0) reads x[-1], but x has 40 elements", 19, 26,
                 "    tl.store(out + offs, tl.load(x + offs - 1, mask=mask), mask=mask)");
    mt_ctx_free(c);
}
END_TEST

START_TEST(integer_division_and_modulo_by_zero)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "divide", "*i32,*i32,*i32,i32,8");
    int32_t a[20], b[20], out[40];
    for (int i = 0; i < 20; i++) {
        a[i] = i - 10;
        b[i] = i == 13 ? 0 : 3;
    }
    MtKernelArg args[] = {arr(a, 20), arr(b, 20), arr(out, 40), i32(20)};
    MtStatus st = run(c, k, 3, 1, args, 4, 2);
    expect_fault(c, st, "R0702", "integer division by zero in divide at t.py:27:26, program (1, 0, 0)", 27, 26,
                 "    tl.store(out + offs, x // y, mask=mask)");
    /* masked-off lanes divide by their `other` (1), not by garbage: with no
     * zero divisor inside the mask the run succeeds */
    mt_ctx_reset(c);
    k = kern(c, "divide", "*i32,*i32,*i32,i32,8");
    b[13] = -3;
    RUN_OK(c, k, 3, 1, args, 1);
    for (int i = 0; i < 20; i++) {
        ck_assert_int_eq(out[i], a[i] / b[i]);
        ck_assert_int_eq(out[20 + i], a[i] % b[i]);
    }

    /* scalar operands, // and % each */
    mt_ctx_reset(c);
    k = kern(c, "scalar_div", "*i32,i32,i32");
    int32_t r = 0;
    MtKernelArg sargs[] = {arr(&r, 1), i32(7), i32(0)};
    st = run(c, k, 1, 1, sargs, 3, 1);
    expect_fault(c, st, "R0702", "integer division by zero in scalar_div at t.py:48:19, program (0, 0, 0)", 48, 19,
                 "    tl.store(out, a // b)");
    mt_ctx_reset(c);
    k = kern(c, "scalar_mod", "*i32,i32,i32");
    st = run(c, k, 1, 1, sargs, 3, 1);
    expect_fault(c, st, "R0702", "integer division by zero in scalar_mod at t.py:58:19, program (0, 0, 0)", 58, 19,
                 "    tl.store(out, a % b)");
    ck_assert_int_eq(r, 0); /* nothing was stored */
    mt_ctx_free(c);
}
END_TEST

START_TEST(the_lowest_faulting_program_is_reported_whatever_the_threads)
{
    int n = 64 * 16;
    float *x = random_floats((size_t)n, 3, 0.0f, 1.0f);
    int32_t *idx = malloc((size_t)n * sizeof *idx);
    float *out = malloc((size_t)n * sizeof *out);
    for (int i = 0; i < n; i++)
        idx[i] = n - 1 - i;
    idx[63 * 16 + 2] = n + 5; /* programs 63, 40 and 5 fault */
    idx[40 * 16 + 9] = -7;
    idx[5 * 16 + 11] = n + 1;
    idx[5 * 16 + 12] = n + 2;
    for (int threads = 1; threads <= 4; threads++) {
        for (int rep = 0; rep < 5; rep++) {
            MtCtx *c = mt_ctx_new(NULL);
            MtCompiled *k = kern(c, "gather", "*fp32,*i32,*fp32,i32,16");
            MtKernelArg args[] = {arr(x, (size_t)n), arr(idx, (size_t)n), arr(out, (size_t)n), i32(n)};
            MtStatus st = run(c, k, 64, 1, args, 4, threads);
            expect_fault(c, st, "R0701",
                         "out-of-bounds load in gather: program (5, 0, 0) reads x[1025], but x has 1024 elements", 35,
                         26, "    tl.store(out + offs, tl.load(x + j, mask=mask), mask=mask)");
            mt_ctx_free(c);
        }
    }
    free(x);
    free(idx);
    free(out);
}
END_TEST

START_TEST(a_fault_in_a_helper_notes_the_call_site)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "via_helper", "*fp32,*fp32,8");
    float x[8] = {0}, out[8];
    MtKernelArg args[] = {arr(x, 8), arr(out, 8)};
    MtStatus st = run(c, k, 1, 1, args, 2, 1);
    expect_fault(c, st, "R0701", "out-of-bounds load in via_helper: program (0, 0, 0) reads x[8], but x has 8 elements",
                 39, 12, "    return tl.load(p + i)");
    const MtDiag *d = mt_diag_at(c, 0);
    ck_assert_uint_ge(d->nnotes, 1);
    ck_assert_uint_eq(d->notes[0].span.line, 44);
    ck_assert_ptr_nonnull(strstr(d->notes[0].msg, "at"));
    mt_ctx_free(c);
}
END_TEST

START_TEST(rank2_tiles_report_both_program_axes)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "tiles", "*i32,i32,i32,4,8");
    int M = 10, N = 13;
    int32_t *out = malloc((size_t)M * N * sizeof *out);
    MtKernelArg args[] = {arr(out, (size_t)(M * N)), i32(M), i32(N)};
    /* rn <= N lets column 13 through: in row 0 that is element 13, in
     * bounds; the last row's column 13 is element 130 == M * N */
    MtStatus st = run(c, k, 3, 2, args, 3, 2);
    expect_fault(c, st, "R0701",
                 "out-of-bounds store in tiles: program (2, 1, 0) writes out[130], but out has 130 elements", 54, 5,
                 "    tl.store(out + rm * N + rn, rm + rn, mask=(rm < M) & (rn <= N))");
    free(out);
    mt_ctx_free(c);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("faults");
    TCase *tc = tcase_create("faults");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, unmasked_load_past_the_end);
    tcase_add_test(tc, store_whose_mask_lets_one_lane_too_many_through);
    tcase_add_test(tc, negative_offset);
    tcase_add_test(tc, integer_division_and_modulo_by_zero);
    tcase_add_test(tc, the_lowest_faulting_program_is_reported_whatever_the_threads);
    tcase_add_test(tc, a_fault_in_a_helper_notes_the_call_site);
    tcase_add_test(tc, rank2_tiles_report_both_program_axes);
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
