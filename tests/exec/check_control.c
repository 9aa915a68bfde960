/* check_control.c: runtime control flow on the interpreter against
 * references computed here in C: if / elif / else with values and stores
 * in the branches, conditional expressions, early returns in kernels and
 * in helpers (with values), while loops, runtime loop steps (positive,
 * negative constants, runtime values), i64 induction variables,
 * tl.num_programs, loop-carried pointer blocks, induction variables
 * reassigned in the body, and branches inside loops
 * and loops inside branches. */
#include "exec_test.h"

static const char *const SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def branches(x, out, n, BLOCK: tl.constexpr):\n"
    "    pid = tl.program_id(0)\n"
    "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
    "    v = tl.load(x + offs)\n"
    "    s = tl.sum(v, axis=0)\n"
    "    k = 0\n"
    "    if s > 10.0:\n"
    "        w = v * 2.0\n"
    "        k = 1\n"
    "    elif s > 0.0:\n"
    "        w = v + 1.0\n"
    "        tl.store(out + BLOCK * 4 + pid, 7.0)\n"
    "    else:\n"
    "        w = -v\n"
    "        k = 3\n"
    "    tl.store(out + offs, w + k)\n"
    "    c = 1.5 if pid == 1 else 2.5\n"
    "    tl.store(out + BLOCK * 4 + 8 + pid, c)\n"
    "\n"
    "@triton.jit\n"
    "def clamp_helper(v, lo):\n"
    "    if v < lo:\n"
    "        return lo\n"
    "    if v > 100.0:\n"
    "        return 100.0\n"
    "    return v * 1.0\n"
    "\n"
    "@triton.jit\n"
    "def early(x, out, n, BLOCK: tl.constexpr):\n"
    "    pid = tl.program_id(0)\n"
    "    if pid * BLOCK >= n:\n"
    "        return\n"
    "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
    "    m = offs < n\n"
    "    v = tl.load(x + offs, mask=m, other=0.0)\n"
    "    t = clamp_helper(tl.sum(v, axis=0), -3.0)\n"
    "    tl.store(out + offs, v + t, mask=m)\n"
    "\n"
    "@triton.jit\n"
    "def whiles(x, out, n):\n"
    "    i = 0\n"
    "    acc = 0.0\n"
    "    while i < n:\n"
    "        acc += tl.load(x + i)\n"
    "        i += 3\n"
    "    p = x\n"
    "    steps = 0\n"
    "    while tl.load(p) < 50.0:\n"
    "        p += 1\n"
    "        steps += 1\n"
    "    tl.store(out, acc)\n"
    "    tl.store(out + 1, steps.to(tl.float32))\n"
    "\n"
    "@triton.jit\n"
    "def steps(out, n, stride, big):\n"
    "    a = 0\n"
    "    for i in range(0, n, stride):\n"
    "        a += i\n"
    "    b = 0\n"
    "    for j in range(n, 0, -3):\n"
    "        b += j\n"
    "    c = 0\n"
    "    for q in range(big, big + 4):\n"
    "        tl.static_assert(q.dtype == tl.int64)\n"
    "        c += (q - big).to(tl.int32)\n"
    "    tl.store(out, a)\n"
    "    tl.store(out + 1, b)\n"
    "    tl.store(out + 2, c)\n"
    "    tl.store(out + 3, tl.num_programs(0) * 10 + tl.num_programs(1))\n"
    "\n"
    "@triton.jit\n"
    "def nested(x, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    ptrs = x + offs\n"
    "    acc = tl.zeros((BLOCK,), tl.float32)\n"
    "    for i in range(0, n):\n"
    "        v = tl.load(ptrs)\n"
    "        if i % 2 == 0:\n"
    "            acc += v\n"
    "        else:\n"
    "            acc -= v\n"
    "        ptrs += BLOCK\n"
    "    if n > 2:\n"
    "        for j in range(3):\n"
    "            acc = acc * 2.0\n"
    "    tl.store(out + offs, acc)\n"
    "\n"
    "@triton.jit\n"
    "def rebind_iv(out, n):\n"
    "    acc = 0\n"
    "    for i in range(0, n, 2):\n"
    "        i = tl.multiple_of(i, 2)\n"
    "        acc += i\n"
    "        i = i + 1\n"
    "        acc += i * 100\n"
    "    outer = 0\n"
    "    for j in range(3):\n"
    "        for q in range(2):\n"
    "            j = j + 10\n"
    "        outer += j\n"
    "    tl.store(out, acc)\n"
    "    tl.store(out + 1, outer)\n";

static MtCompiled *kern(MtCtx *c, const char *name, const char *sig) { return compile_text(c, "c.py", SRC, name, sig); }

START_TEST(if_elif_else)
{
    enum { B = 8 };
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "branches", "*fp32,*fp32,i32,8");
    float x[3 * B], out[4 * B + 16] = {0};
    for (int i = 0; i < B; i++) {
        x[i] = 2.0f;            /* sum 16: then */
        x[B + i] = 0.5f;        /* sum 4: elif */
        x[2 * B + i] = -1.0f;   /* sum -8: else */
    }
    MtKernelArg a[] = {arr(x, 3 * B), arr(out, sizeof out / sizeof out[0]), i32(3 * B)};
    RUN_OK(c, k, 3, 1, a, 2);
    for (int i = 0; i < B; i++) {
        ck_assert_float_eq(out[i], 2.0f * 2 + 1);
        ck_assert_float_eq(out[B + i], 0.5f + 1 + 0);
        ck_assert_float_eq(out[2 * B + i], 1.0f + 3);
    }
    ck_assert_float_eq(out[4 * B + 0], 0.0f);
    ck_assert_float_eq(out[4 * B + 1], 7.0f); /* the store in the elif branch */
    ck_assert_float_eq(out[4 * B + 2], 0.0f);
    ck_assert_float_eq(out[4 * B + 8], 2.5f);
    ck_assert_float_eq(out[4 * B + 9], 1.5f);
    ck_assert_float_eq(out[4 * B + 10], 2.5f);
    mt_ctx_free(c);
}
END_TEST

START_TEST(early_returns)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "early", "*fp32,*fp32,i32,16");
    float x[40], out[40];
    for (int i = 0; i < 40; i++) {
        x[i] = i < 16 ? -1.0f : i < 32 ? 10.0f : 0.25f;
        out[i] = 99.0f;
    }
    MtKernelArg a[] = {arr(x, 40), arr(out, 40), i32(40)};
    RUN_OK(c, k, 5, 1, a, 2); /* programs 3 and 4 return early: they would read past the end */
    for (int i = 0; i < 40; i++) {
        float s = i < 16 ? -16.0f : i < 32 ? 160.0f : 2.0f;
        float t = s < -3.0f ? -3.0f : s > 100.0f ? 100.0f : s;
        ck_assert_float_eq(out[i], x[i] + t);
    }
    mt_ctx_free(c);
}
END_TEST

START_TEST(while_loops)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "whiles", "*fp32,*fp32,i32");
    float x[20], out[2];
    for (int i = 0; i < 20; i++)
        x[i] = (float)(i * 7 % 13);
    x[11] = 60.0f;
    MtKernelArg a[] = {arr(x, 20), arr(out, 2), i32(20)};
    RUN_OK(c, k, 1, 1, a, 1);
    float acc = 0;
    for (int i = 0; i < 20; i += 3)
        acc += x[i];
    ck_assert_float_eq(out[0], acc);
    ck_assert_float_eq(out[1], 11.0f);
    mt_ctx_free(c);
}
END_TEST

START_TEST(loop_steps_and_types)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "steps", "*i32,i32,i32,i64");
    int32_t out[4];
    MtKernelArg a[] = {arr(out, 4), i32(20), i32(6), i32((int64_t)1 << 40)};
    int64_t grid[3] = {1, 3, 1};
    ck_assert_int_eq(mt_interpret(c, k, grid, a, 4, &(MtInterpOptions){.threads = 1}), MT_OK);
    ck_assert_int_eq(out[0], 0 + 6 + 12 + 18);
    int b = 0;
    for (int j = 20; j > 0; j -= 3)
        b += j;
    ck_assert_int_eq(out[1], b);
    ck_assert_int_eq(out[2], 0 + 1 + 2 + 3);
    ck_assert_int_eq(out[3], 1 * 10 + 3);
    mt_ctx_free(c);
}
END_TEST

START_TEST(branches_in_loops_and_loops_in_branches)
{
    enum { B = 4 };
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "nested", "*fp32,*fp32,i32,4");
    float x[5 * B], out[B];
    for (int i = 0; i < 5 * B; i++)
        x[i] = (float)i;
    for (int n = 2; n <= 5; n += 3) {
        MtKernelArg a[] = {arr(x, 5 * B), arr(out, B), i32(n)};
        RUN_OK(c, k, 1, 1, a, 1);
        for (int j = 0; j < B; j++) {
            float acc = 0;
            for (int i = 0; i < n; i++)
                acc = i % 2 == 0 ? acc + x[i * B + j] : acc - x[i * B + j];
            if (n > 2)
                acc *= 8.0f;
            ck_assert_float_eq(out[j], acc);
        }
    }
    mt_ctx_free(c);
}
END_TEST

/* A runtime loop's induction variable reassigned in the body (as Triton's
 * fused-attention tutorial does: `start_n = tl.multiple_of(start_n,
 * BLOCK_N)`) holds the new value for the rest of the iteration; the next
 * iteration starts from the loop's value. An outer loop's variable
 * reassigned in an inner loop is carried by the inner loop. */
START_TEST(induction_variable_reassigned)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "rebind_iv", "*i32,i32");
    int32_t out[2];
    MtKernelArg a[] = {arr(out, 2), i32(5)};
    RUN_OK(c, k, 1, 1, a, 1);
    ck_assert_int_eq(out[0], (0 + 100) + (2 + 300) + (4 + 500));
    ck_assert_int_eq(out[1], 20 + 21 + 22);
    mt_ctx_free(c);
}
END_TEST

static void expect_error(const char *body, const char *code, const char *text)
{
    char src[2048];
    snprintf(src, sizeof src,
             "import triton\nimport triton.language as tl\n@triton.jit\ndef k(x, o, n):\n"
             "    i = tl.arange(0, 8)\n    v = tl.load(x + i)\n%s",
             body);
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    ck_assert_int_eq(mt_parse(c, "e.py", src, strlen(src), &m), MT_OK);
    MtSpec spec = {.signature = "*fp32,*fp32,i32"};
    MtCompiled *k;
    ck_assert_int_ne(mt_compile(c, m, &spec, &k), MT_OK);
    const char *d = all_diags(c);
    ck_assert_msg(strstr(d, code) && strstr(d, text), "want %s '%s', got %s", code, text, d);
    mt_ctx_free(c);
}

START_TEST(errors)
{
    expect_error("    if v > 0.0:\n        v = v + 1.0\n    tl.store(o + i, v)\n", "E0202",
                 "the condition of a runtime `if` must be a scalar");
    expect_error("    if n > 0:\n        w = v\n    else:\n        w = 1\n    tl.store(o + i, w)\n", "E0419",
                 "'w' is vector<8 x f32> after the then branch but i32 after the else branch");
    expect_error("    if n > 0:\n        w = v\n    tl.store(o + i, w)\n", "E0310",
                 "'w' is defined only in one branch of the runtime `if` above");
    expect_error("    for j in range(n):\n        if j > 2:\n            return\n    tl.store(o + i, v)\n", "E0204",
                 "`return` inside a runtime `if` within a runtime loop is not supported");
    expect_error("    s = 0\n    while n > s:\n        s = s + 0.5\n    tl.store(o, s)\n", "E0412",
                 "loop-carried variable 's' is i32 before the loop but f32 at the end of the body");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("control");
    TCase *t = tcase_create("control");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, if_elif_else);
    tcase_add_test(t, early_returns);
    tcase_add_test(t, while_loops);
    tcase_add_test(t, loop_steps_and_types);
    tcase_add_test(t, branches_in_loops_and_loops_in_branches);
    tcase_add_test(t, induction_variable_reassigned);
    tcase_add_test(t, errors);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
