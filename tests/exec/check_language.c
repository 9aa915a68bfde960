/* check_language.c: the rest of Triton's API that real kernels use (issue
 * 12), on the interpreter, against references computed here in C:
 * Python's min() and max() on runtime values (tl.minimum / tl.maximum, as
 * Triton's code generator maps them) and tl.dot on f16 and bf16 operands
 * (accumulated in f32). */
#include "exec_test.h"

static const char *const SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def clip(x_ptr, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    x = tl.load(x_ptr + offs, mask=offs < n)\n"
    "    y = min(max(x, -1.0), 1.0)\n"
    "    z = max(x, 0.5, y)\n"
    "    tl.store(out + offs * 2, y, mask=offs < min(n, BLOCK))\n"
    "    tl.store(out + offs * 2 + 1, z, mask=offs < min(n, BLOCK))\n"
    "\n"
    "@triton.jit\n"
    "def dot16(a, b, acc, c, h, M: tl.constexpr, K: tl.constexpr, N: tl.constexpr):\n"
    "    m = tl.arange(0, M)\n"
    "    k = tl.arange(0, K)\n"
    "    n = tl.arange(0, N)\n"
    "    x = tl.load(a + m[:, None] * K + k[None, :])\n"
    "    y = tl.load(b + k[:, None] * N + n[None, :])\n"
    "    z = tl.load(acc + m[:, None] * N + n[None, :])\n"
    "    r = tl.dot(x, y, z)\n"
    "    tl.static_assert(r.dtype == tl.float32)\n"
    "    tl.store(c + m[:, None] * N + n[None, :], r)\n"
    "    tl.store(h + m[:, None] * N + n[None, :], tl.dot(x, y, out_dtype=tl.float16))\n"
    "\n"
    "@triton.jit\n"
    "def dot_mixed(a, b, c):\n"
    "    i = tl.arange(0, 16)\n"
    "    x = tl.load(a + i[:, None] * 16 + i[None, :])\n"
    "    y = tl.load(b + i[:, None] * 16 + i[None, :])\n"
    "    tl.store(c + i[:, None] * 16 + i[None, :], tl.dot(x, y))\n"
    "\n"
    "@triton.jit\n"
    "def dot_bf16_out(a, c):\n"
    "    i = tl.arange(0, 16)\n"
    "    x = tl.load(a + i[:, None] * 16 + i[None, :])\n"
    "    tl.store(c + i[:, None] * 16 + i[None, :], tl.dot(x, x, out_dtype=tl.bfloat16))\n";

static MtCompiled *compile_src(MtCtx *c, const char *kernel, const char *sig)
{
    return compile_text(c, "language.py", SRC, kernel, sig);
}

START_TEST(python_min_max_on_runtime_values)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_src(c, "clip", "*fp32,*fp32,i32,16");
    float x[16], out[32];
    for (int i = 0; i < 16; i++)
        x[i] = -2.0f + 0.25f * (float)i;
    MtKernelArg args[] = {arr(x, 16), arr(out, 32), i32(12)};
    memset(out, 0, sizeof out);
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 16; i++) {
        float y = i < 12 ? fminf(fmaxf(x[i], -1.0f), 1.0f) : 0.0f;
        float z = i < 12 ? fmaxf(fmaxf(x[i], 0.5f), y) : 0.0f;
        ck_assert_msg(out[2 * i] == y && out[2 * i + 1] == z, "lane %d: got %g %g, want %g %g", i,
                      (double)out[2 * i], (double)out[2 * i + 1], (double)y, (double)z);
    }
    mt_ctx_free(c);
}
END_TEST

/* bf16 bits of a float that bf16 represents exactly */
static uint16_t bf16_of(float f) { return (uint16_t)(bits_of(f) >> 16); }

/* f16 and bf16 operands are exact in f32, products too, and the sums of
 * these small integers and halves are exact: the results are the
 * reference's bit for bit, whatever the summation order. */
static void check_dot16(const char *sig, bool bf16)
{
    enum { M = 16, K = 32, N = 16 };
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_src(c, "dot16", sig);
    uint16_t a[M * K], b[K * N];
    float af[M * K], bf[K * N], acc[M * N], out[M * N];
    _Float16 h[M * N];
    for (int i = 0; i < M * K; i++) {
        af[i] = (float)((i * 7) % 11 - 5) * 0.5f;
        a[i] = bf16 ? bf16_of(af[i]) : ({ _Float16 v = (_Float16)af[i]; uint16_t u; memcpy(&u, &v, 2); u; });
    }
    for (int i = 0; i < K * N; i++) {
        bf[i] = (float)((i * 5) % 9 - 4);
        b[i] = bf16 ? bf16_of(bf[i]) : ({ _Float16 v = (_Float16)bf[i]; uint16_t u; memcpy(&u, &v, 2); u; });
    }
    for (int i = 0; i < M * N; i++)
        acc[i] = (float)i * 0.25f;
    MtKernelArg args[] = {arr(a, M * K), arr(b, K * N), arr(acc, M * N), arr(out, M * N), arr(h, M * N)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float s = 0;
            for (int t = 0; t < K; t++)
                s += af[i * K + t] * bf[t * N + j];
            ck_assert_msg(out[i * N + j] == acc[i * N + j] + s, "%s c[%d][%d]: got %g, want %g", sig, i, j,
                          (double)out[i * N + j], (double)(acc[i * N + j] + s));
            ck_assert_msg((float)h[i * N + j] == (float)(_Float16)s, "%s h[%d][%d]: got %g, want %g", sig, i, j,
                          (double)h[i * N + j], (double)s);
        }
    mt_ctx_free(c);
}

START_TEST(dot_of_f16_accumulates_in_f32) { check_dot16("*fp16,*fp16,*fp32,*fp32,*fp16,16,32,16", false); }
END_TEST

START_TEST(dot_of_bf16_accumulates_in_f32) { check_dot16("*bf16,*bf16,*fp32,*fp32,*fp16,16,32,16", true); }
END_TEST

START_TEST(dot_dtype_errors)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m = NULL;
    MtCompiled *k = NULL;
    ck_assert_int_eq(mt_parse(c, "language.py", SRC, strlen(SRC), &m), MT_OK);
    MtSpec spec = {.kernel = "dot_mixed", .signature = "*fp16,*fp32,*fp32"};
    ck_assert_int_ne(mt_compile(c, m, &spec, &k), MT_OK);
    ck_assert_msg(strstr(all_diags(c), "tl.dot operands must have one dtype") && strstr(all_diags(c), "E0410"), "%s",
                  all_diags(c));
    spec.kernel = "dot_bf16_out";
    spec.signature = "*bf16,*fp32";
    ck_assert_int_ne(mt_compile(c, m, &spec, &k), MT_OK);
    ck_assert_msg(strstr(all_diags(c), "out_dtype must be tl.float32 or tl.float16, got tl.bfloat16 (use"), "%s",
                  all_diags(c));
    mt_ctx_free(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("language");
    TCase *t = tcase_create("language");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, python_min_max_on_runtime_values);
    tcase_add_test(t, dot_of_f16_accumulates_in_f32);
    tcase_add_test(t, dot_of_bf16_accumulates_in_f32);
    tcase_add_test(t, dot_dtype_errors);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
