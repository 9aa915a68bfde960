/* check_math.c: the math functions (math.def) on the interpreter: every
 * row on f32 and f64 against the C library function it names, argument
 * order and arity included; f16 and bf16 fma and fdiv rounded once from
 * the exact result; tl.clamp, tl.sigmoid, propagate_nan; the spellings
 * (tl., tl.math., libdevice under its import paths, imports inside
 * try/except, tensor methods); and the dtype errors Triton raises. */
#include <float.h>

#include "exec_test.h"

typedef struct MathCase {
    const char *call;         /* the kernel's spelling, on operands x, y, z */
    int nargs;
    float (*f1)(float);
    double (*d1)(double);
    float (*f2)(float, float);
    double (*d2)(double, double);
    float (*f3)(float, float, float);
    double (*d3)(double, double, double);
    double lo, hi;            /* operand range */
    bool f32_only;
} MathCase;

static float my_rsqrtf(float x) { return (float)(1.0 / sqrt((double)x)); }
static double my_rsqrt(double x) { return 1.0 / sqrt(x); }
static float my_rcbrtf(float x) { return (float)(1.0 / cbrt((double)x)); }
static double my_rcbrt(double x) { return 1.0 / cbrt(x); }
static float my_divf(float x, float y) { return x / y; }
static double my_div(double x, double y) { return x / y; }
static float my_exp10f(float x) { return (float)pow(10.0, (double)x); }
static double my_exp10(double x) { return pow(10.0, x); }
static float my_lgammaf(float x) { int s; return lgammaf_r(x, &s); }
static double my_lgamma(double x) { int s; return lgamma_r(x, &s); }

/* last: the row takes f32 only */
#define U(call, f, d, lo, hi, f32) {call, 1, f, d, NULL, NULL, NULL, NULL, lo, hi, f32}
#define B(call, f, d, lo, hi, f32) {call, 2, NULL, NULL, f, d, NULL, NULL, lo, hi, f32}
#define T(call, f, d, lo, hi, f32) {call, 3, NULL, NULL, NULL, NULL, f, d, lo, hi, f32}

static const MathCase cases[] = {
    U("tl.exp(x)", expf, exp, -10, 10, 0),
    U("tl.exp2(x)", exp2f, exp2, -10, 10, 0),
    U("tl.log(x)", logf, log, 0.01, 100, 0),
    U("tl.log2(x)", log2f, log2, 0.01, 100, 0),
    U("tl.sin(x)", sinf, sin, -10, 10, 0),
    U("tl.cos(x)", cosf, cos, -10, 10, 0),
    U("tl.sqrt(x)", sqrtf, sqrt, 0, 100, 0),
    U("tl.sqrt_rn(x)", sqrtf, sqrt, 0, 100, 1),
    U("tl.rsqrt(x)", my_rsqrtf, my_rsqrt, 0.01, 100, 0),
    U("tl.erf(x)", erff, erf, -3, 3, 0),
    U("tl.floor(x)", floorf, floor, -10, 10, 0),
    U("tl.ceil(x)", ceilf, ceil, -10, 10, 0),
    U("tl.math.exp(x)", expf, exp, -10, 10, 0),
    U("x.exp()", expf, exp, -10, 10, 0),
    U("x.sqrt()", sqrtf, sqrt, 0, 100, 0),
    U("libdevice.exp(x)", expf, exp, -10, 10, 0),
    U("libdevice.tanh(x)", tanhf, tanh, -5, 5, 0),
    U("libdevice.sinh(x)", sinhf, sinh, -5, 5, 0),
    U("libdevice.cosh(x)", coshf, cosh, -5, 5, 0),
    U("libdevice.tan(x)", tanf, tan, -1.5, 1.5, 0),
    U("libdevice.asin(x)", asinf, asin, -1, 1, 0),
    U("libdevice.acos(x)", acosf, acos, -1, 1, 0),
    U("libdevice.atan(x)", atanf, atan, -10, 10, 0),
    U("libdevice.asinh(x)", asinhf, asinh, -10, 10, 0),
    U("libdevice.acosh(x)", acoshf, acosh, 1, 10, 0),
    U("libdevice.atanh(x)", atanhf, atanh, -0.99, 0.99, 0),
    U("libdevice.expm1(x)", expm1f, expm1, -1, 1, 0),
    U("libdevice.exp10(x)", my_exp10f, my_exp10, -5, 5, 0),
    U("libdevice.log10(x)", log10f, log10, 0.01, 100, 0),
    U("libdevice.log1p(x)", log1pf, log1p, -0.5, 10, 0),
    U("libdevice.cbrt(x)", cbrtf, cbrt, -10, 10, 0),
    U("libdevice.rcbrt(x)", my_rcbrtf, my_rcbrt, 0.1, 10, 0),
    U("libdevice.erfc(x)", erfcf, erfc, -3, 3, 0),
    U("libdevice.lgamma(x)", my_lgammaf, my_lgamma, 0.1, 10, 0),
    U("libdevice.tgamma(x)", tgammaf, tgamma, 0.1, 10, 0),
    U("libdevice.trunc(x)", truncf, trunc, -10, 10, 0),
    U("libdevice.round(x)", roundf, round, -10, 10, 0),
    U("libdevice.rint(x)", rintf, rint, -10, 10, 0),
    U("libdevice.nearbyint(x)", nearbyintf, nearbyint, -10, 10, 0),
    U("libdevice.fast_expf(x)", expf, exp, -10, 10, 1),
    U("libdevice.fast_logf(x)", logf, log, 0.01, 100, 1),
    B("tl.div_rn(x, y)", my_divf, my_div, 0.5, 10, 1),
    B("tl.fdiv(x, y)", my_divf, my_div, 0.5, 10, 0),
    B("libdevice.atan2(x, y)", atan2f, atan2, -5, 5, 0),
    B("libdevice.pow(x, y)", powf, pow, 0.1, 3, 0),
    B("libdevice.hypot(x, y)", hypotf, hypot, -5, 5, 0),
    B("libdevice.fmod(x, y)", fmodf, fmod, 0.5, 10, 0),
    B("libdevice.remainder(x, y)", remainderf, remainder, 0.5, 10, 0),
    B("libdevice.copysign(x, y)", copysignf, copysign, -5, 5, 0),
    B("libdevice.fdim(x, y)", fdimf, fdim, -5, 5, 0),
    B("libdevice.fmax(x, y)", fmaxf, fmax, -5, 5, 0),
    B("libdevice.fmin(x, y)", fminf, fmin, -5, 5, 0),
    B("libdevice.nextafter(x, y)", nextafterf, nextafter, -5, 5, 0),
    B("libdevice.fast_dividef(x, y)", my_divf, my_div, 0.5, 10, 1),
    T("tl.fma(x, y, z)", fmaf, fma, -5, 5, 0),
    T("libdevice.fma_rn(x, y, z)", fmaf, fma, -5, 5, 0),
};
enum { NCASES = sizeof cases / sizeof cases[0], N = 64 };

static const char *const HEADER =
    "import triton\n"
    "import triton.language as tl\n"
    "from triton.language.extra import libdevice\n"
    "\n";

static const char *case_source(const MathCase *m)
{
    static char buf[1024];
    snprintf(buf, sizeof buf,
             "%s@triton.jit\n"
             "def k(a, b, c, out):\n"
             "    i = tl.arange(0, %d)\n"
             "    x = tl.load(a + i)\n"
             "    y = tl.load(b + i)\n"
             "    z = tl.load(c + i)\n"
             "    tl.store(out + i, %s)\n",
             HEADER, N, m->call);
    return buf;
}

START_TEST(every_row_runs_its_c_function)
{
    const MathCase *m = &cases[_i];
    for (int wide = 0; wide < (m->f32_only ? 1 : 2); wide++) {
        MtCtx *c = mt_ctx_new(NULL);
        MtCompiled *k = compile_text(c, "m.py", case_source(m), "k",
                                     wide ? "*fp64,*fp64,*fp64,*fp64" : "*fp32,*fp32,*fp32,*fp32");
        Rng r = {(uint64_t)_i * 7 + 1};
        double dv[3][N], dout[N];
        float fv[3][N], fout[N];
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < N; i++) {
                dv[j][i] = m->lo + (m->hi - m->lo) * rng_float(&r, 0, 1);
                fv[j][i] = (float)dv[j][i];
            }
        MtKernelArg args[4];
        for (int j = 0; j < 3; j++)
            args[j] = wide ? arr(dv[j], N) : arr(fv[j], N);
        args[3] = wide ? arr(dout, N) : arr(fout, N);
        RUN_OK(c, k, 1, 1, args, 1);
        for (int i = 0; i < N; i++) {
            if (wide) {
                double x = dv[0][i], y = dv[1][i], z = dv[2][i];
                double want = m->nargs == 1 ? m->d1(x) : m->nargs == 2 ? m->d2(x, y) : m->d3(x, y, z);
                ck_assert_msg(memcmp(&want, &dout[i], 8) == 0 || (isnan(want) && isnan(dout[i])),
                              "%s f64 lane %d: got %.17g, want %.17g", m->call, i, dout[i], want);
            } else {
                float x = fv[0][i], y = fv[1][i], z = fv[2][i];
                float want = m->nargs == 1 ? m->f1(x) : m->nargs == 2 ? m->f2(x, y) : m->f3(x, y, z);
                ck_assert_msg(bits_of(want) == bits_of(fout[i]) || (isnan(want) && isnan(fout[i])),
                              "%s f32 lane %d: got %.9g, want %.9g", m->call, i, (double)fout[i], (double)want);
            }
        }
        mt_ctx_free(c);
    }
}
END_TEST

static const char *const HALF_SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def fma_div(a, b, c, out, q):\n"
    "    i = tl.arange(0, 8)\n"
    "    x = tl.load(a + i)\n"
    "    y = tl.load(b + i)\n"
    "    z = tl.load(c + i)\n"
    "    tl.store(out + i, tl.fma(x, y, z))\n"
    "    tl.store(q + i, tl.fdiv(x, y))\n";

/* bf16: x * y = 1.125 + 2^-8 is halfway between two bf16 values; z = 2^-100
 * decides the rounding. A double fma would lose z and round to even. */
START_TEST(bf16_fma_rounds_once)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_text(c, "h.py", HALF_SRC, "fma_div", "*bf16,*bf16,*bf16,*bf16,*bf16");
    float xs[8] = {1.0625f, 1.0625f, 3.0f, -2.5f, 1e30f, 0.1f, 7.0f, -0.0f};
    float ys[8] = {1.0625f, 1.0625f, 0.1f, 4.0f, 1e10f, 0.2f, 3.0f, 1.0f};
    float zs[8] = {0x1p-100f, -0x1p-100f, 1.0f, 0.5f, 1.0f, -0.02f, 0.0f, 0.0f};
    uint16_t a[8], b[8], cz[8], out[8], q[8];
    for (int i = 0; i < 8; i++) {
        a[i] = mt_f32_to_bf16(xs[i]);
        b[i] = mt_f32_to_bf16(ys[i]);
        cz[i] = mt_f32_to_bf16(zs[i]);
    }
    MtKernelArg args[] = {arr(a, 8), arr(b, 8), arr(cz, 8), arr(out, 8), arr(q, 8)};
    RUN_OK(c, k, 1, 1, args, 1);
    ck_assert_uint_eq(out[0], 0x3f91); /* 1.1328125: rounded up by the tiny z */
    ck_assert_uint_eq(out[1], 0x3f90); /* 1.125 */
    for (int i = 2; i < 8; i++) {
        double x = mt_bf16_to_f32(a[i]), y = mt_bf16_to_f32(b[i]), z = mt_bf16_to_f32(cz[i]);
        /* these products and sums are exact in double */
        ck_assert_msg(out[i] == mt_f32_to_bf16((float)(x * y + z)) || isinf(x * y),
                      "lane %d: got 0x%04x", i, out[i]);
        ck_assert_uint_eq(q[i], mt_f32_to_bf16((float)(x / y)) /* float has 24 >= 2*8+2 bits */);
    }
    mt_ctx_free(c);
}
END_TEST

START_TEST(f16_fma_and_fdiv_round_once)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_text(c, "h.py", HALF_SRC, "fma_div", "*fp16,*fp16,*fp16,*fp16,*fp16");
    Rng r = {42};
    uint16_t a[8], b[8], cz[8], out[8], q[8];
    for (int i = 0; i < 8; i++) {
        a[i] = mt_f32_to_f16(rng_float(&r, -100, 100));
        b[i] = mt_f32_to_f16(rng_float(&r, -100, 100));
        cz[i] = mt_f32_to_f16(rng_float(&r, -1, 1) * (i < 4 ? 1e-3f : 1e3f));
    }
    MtKernelArg args[] = {arr(a, 8), arr(b, 8), arr(cz, 8), arr(out, 8), arr(q, 8)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 8; i++) {
        double x = mt_f16_to_f32(a[i]), y = mt_f16_to_f32(b[i]), z = mt_f16_to_f32(cz[i]);
        /* x * y + z of f16 values this size is exact in double, and so is its float rounding's error */
        double exact = x * y + z;
        uint16_t want = mt_f32_to_f16((float)exact);
        if ((double)(float)exact != exact) /* break a double rounding tie by hand */
            want = mt_f32_to_f16(nextafterf((float)exact, exact > (double)(float)exact ? INFINITY : -INFINITY));
        ck_assert_msg(out[i] == want || out[i] == mt_f32_to_f16((float)exact), "lane %d: got 0x%04x want 0x%04x", i,
                      out[i], want);
        ck_assert_uint_eq(q[i], mt_f32_to_f16((float)(x / y)));
    }
    mt_ctx_free(c);
}
END_TEST

static const char *const MISC_SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "try:\n"
    "    from triton.language.extra.cuda import libdevice\n"
    "except ImportError:\n"
    "    from triton.language.math import libdevice\n"
    "from triton.language.extra.cuda.libdevice import tanh\n"
    "\n"
    "@triton.jit\n"
    "def misc(a, out):\n"
    "    i = tl.arange(0, 8)\n"
    "    x = tl.load(a + i)\n"
    "    tl.store(out + i * 6 + 0, tl.clamp(x, -1.0, 2.0))\n"
    "    tl.store(out + i * 6 + 1, tl.sigmoid(x))\n"
    "    tl.store(out + i * 6 + 2, tl.maximum(x, 0.0, propagate_nan=tl.PropagateNan.ALL))\n"
    "    tl.store(out + i * 6 + 3, tanh(x) - libdevice.tanh(x) + tl.extra.cuda.libdevice.tanh(x))\n"
    "    tl.store(out + i * 6 + 4, libdevice.pow(x, 2))\n"
    "    tl.store(out + i * 6 + 5, tl.fma(x, 2, 1))\n"
    "\n"
    "@triton.jit\n"
    "def weak(a, out):\n"
    "    x = tl.load(a)\n"
    "    tl.static_assert(libdevice.pow(x, 2.0).dtype == tl.float64)\n"
    "    tl.static_assert(tl.fma(x, 1, 2.5).dtype == tl.float64)\n"
    "    tl.store(out, libdevice.pow(x, 2.0))\n";

START_TEST(clamp_sigmoid_and_spellings)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_text(c, "m.py", MISC_SRC, "misc", "*fp32,*fp32");
    float x[8] = {-3.0f, -1.0f, -0.25f, 0.0f, 0.5f, 1.75f, 4.0f, NAN}, out[48];
    MtKernelArg args[] = {arr(x, 8), arr(out, 48)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 8; i++) {
        float v = x[i];
        if (isnan(v)) {
            for (int j = 0; j < 6; j++)
                ck_assert_msg(isnan(out[i * 6 + j]), "op %d of NaN: %g", j, (double)out[i * 6 + j]);
            continue;
        }
        float want[6] = {v < -1.0f ? -1.0f : v > 2.0f ? 2.0f : v, 1.0f / (1.0f + expf(-v)), v > 0.0f ? v : 0.0f,
                         tanhf(v) - tanhf(v) + tanhf(v), powf(v, 2.0f), fmaf(v, 2.0f, 1.0f)};
        for (int j = 0; j < 6; j++)
            ck_assert_msg(bits_of(out[i * 6 + j]) == bits_of(want[j]), "lane %d op %d: got %.9g want %.9g", i, j,
                          (double)out[i * 6 + j], (double)want[j]);
    }
    compile_text(c, "m.py", MISC_SRC, "weak", "*fp64,*fp64");
    mt_ctx_free(c);
}
END_TEST

static void expect_error(const char *src, const char *sig, const char *code, const char *text)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    ck_assert_int_eq(mt_parse(c, "e.py", src, strlen(src), &m), MT_OK);
    MtSpec spec = {.signature = sig};
    MtCompiled *k;
    ck_assert_int_ne(mt_compile(c, m, &spec, &k), MT_OK);
    const char *d = all_diags(c);
    ck_assert_msg(strstr(d, code) && strstr(d, text), "want %s '%s', got %s", code, text, d);
    mt_ctx_free(c);
}

#define KERNEL(body)                                                                                          \
    "import triton\nimport triton.language as tl\nfrom triton.language.extra import libdevice\n"             \
    "@triton.jit\ndef k(a, out):\n    x = tl.load(a)\n" body

START_TEST(dtype_errors_as_triton)
{
    expect_error(KERNEL("    tl.store(out, tl.sqrt(x))\n"), "*fp16,*fp16", "E0405", "tl.sqrt needs f32 or f64, got f16");
    expect_error(KERNEL("    tl.store(out, libdevice.tanh(x))\n"), "*i32,*fp32", "E0405",
                 "libdevice.tanh needs f32 or f64, got i32");
    expect_error(KERNEL("    tl.store(out, tl.div_rn(x, x))\n"), "*fp64,*fp64", "E0405", "tl.div_rn needs f32, got f64");
    expect_error(KERNEL("    tl.store(out, tl.clamp(x, 0, 1))\n"), "*i32,*i32", "E0405", "tl.clamp needs float operands");
    expect_error(KERNEL("    tl.store(out, x ** 2)\n"), "*fp32,*fp32", "E0401", "'**' is not supported on runtime values");
    expect_error(KERNEL("    tl.store(out, tl.sigmoid(x))\n"), "*fp16,*fp16", "E0405", "needs f32 or f64, got f16");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("math");
    TCase *t = tcase_create("math");
    tcase_set_timeout(t, 60);
    tcase_add_loop_test(t, every_row_runs_its_c_function, 0, NCASES);
    tcase_add_test(t, bf16_fma_rounds_once);
    tcase_add_test(t, f16_fma_and_fdiv_round_once);
    tcase_add_test(t, clamp_sigmoid_and_spellings);
    tcase_add_test(t, dtype_errors_as_triton);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
