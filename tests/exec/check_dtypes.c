/* check_dtypes.c: the element types beyond bool, i32 and f32 on the
 * interpreter, one rule per test, against references computed here in C:
 * f16 and bf16 arithmetic rounded once per operation, integers wrapping in
 * their width (i8, u32, i64, u64), Triton's computation types (weak Python
 * scalars included), casts (saturation, NaN, rounding modes, bitcasts),
 * shifts, umulhi, abs, unsigned comparisons and division, 64-bit pointer
 * offsets, and scalar parameters of every kind. */
#include <float.h>
#include <limits.h>

#include "exec_test.h"

static const char *const SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def half_ops(a, b, out, BLOCK: tl.constexpr):\n"
    "    i = tl.arange(0, BLOCK)\n"
    "    x = tl.load(a + i)\n"
    "    y = tl.load(b + i)\n"
    "    tl.store(out + i * 6 + 0, x + y)\n"
    "    tl.store(out + i * 6 + 1, x - y)\n"
    "    tl.store(out + i * 6 + 2, x * y)\n"
    "    tl.store(out + i * 6 + 3, (x / y).to(out.dtype.element_ty))\n"
    "    tl.store(out + i * 6 + 4, x * 0.1)\n"
    "    tl.store(out + i * 6 + 5, tl.maximum(x, y))\n"
    "\n"
    "@triton.jit\n"
    "def types_of(a, b, out):\n"
    "    x = tl.load(a)\n"
    "    y = tl.load(b)\n"
    "    tl.static_assert((x * 2).dtype == x.dtype)\n"
    "    tl.static_assert((x * 2.5).dtype == x.dtype)\n"
    "    tl.static_assert((x / 2).dtype == tl.float32)\n"
    "    tl.static_assert((x + y).dtype == tl.float16)\n"
    "    tl.static_assert((x + 1.0).to(tl.int8).dtype == tl.int8)\n"
    "    tl.static_assert(a.dtype.element_ty == tl.float16)\n"
    "    tl.static_assert(a.type.element_ty.is_fp16())\n"
    "    tl.static_assert(x.dtype.primitive_bitwidth == 16)\n"
    "    tl.store(out, x + y)\n"
    "\n"
    "@triton.jit\n"
    "def small_ints(a, b, out, BLOCK: tl.constexpr):\n"
    "    i = tl.arange(0, BLOCK)\n"
    "    x = tl.load(a + i)\n"
    "    y = tl.load(b + i)\n"
    "    tl.store(out + i * 8 + 0, x + y)\n"
    "    tl.store(out + i * 8 + 1, x * y)\n"
    "    tl.store(out + i * 8 + 2, x + 1)\n"
    "    tl.store(out + i * 8 + 3, x // y)\n"
    "    tl.store(out + i * 8 + 4, x % y)\n"
    "    tl.store(out + i * 8 + 5, x >> 1)\n"
    "    tl.store(out + i * 8 + 6, x << 3)\n"
    "    tl.store(out + i * 8 + 7, tl.abs(x))\n"
    "\n"
    "@triton.jit\n"
    "def unsigned(a, b, out, flags, BLOCK: tl.constexpr):\n"
    "    i = tl.arange(0, BLOCK)\n"
    "    x = tl.load(a + i)\n"
    "    y = tl.load(b + i)\n"
    "    tl.store(out + i * 5 + 0, x - y)\n"
    "    tl.store(out + i * 5 + 1, x // y)\n"
    "    tl.store(out + i * 5 + 2, x >> 31)\n"
    "    tl.store(out + i * 5 + 3, tl.umulhi(x, y))\n"
    "    tl.store(out + i * 5 + 4, x * 3)\n"
    "    tl.store(flags + i, x < y)\n"
    "\n"
    "@triton.jit\n"
    "def wide(a, out, big, BLOCK: tl.constexpr):\n"
    "    i = tl.arange(0, BLOCK)\n"
    "    x = tl.load(a + i)\n"
    "    tl.store(out + i * 4 + 0, x * 3000000000)\n"
    "    tl.store(out + i * 4 + 1, x + big)\n"
    "    tl.store(out + i * 4 + 2, tl.umulhi(x, 0x9E3779B97F4A7C15))\n"
    "    tl.store(out + i * 4 + 3, (x ^ 0xFFFFFFFFFFFFFFFF))\n"
    "\n"
    "@triton.jit\n"
    "def casts(f, i8, u8, i32, h, bh, r, bits):\n"
    "    i = tl.arange(0, 8)\n"
    "    v = tl.load(f + i)\n"
    "    tl.store(i8 + i, v.to(tl.int8))\n"
    "    tl.store(u8 + i, v.to(tl.uint8))\n"
    "    tl.store(i32 + i, v.to(tl.int32))\n"
    "    tl.store(h + i, v.to(tl.float16))\n"
    "    tl.store(bh + i, v.to(tl.bfloat16))\n"
    "    tl.store(r + i, v.to(tl.float16, fp_downcast_rounding='rtz'))\n"
    "    tl.store(bits + i, v.to(tl.uint32, bitcast=True))\n"
    "\n"
    "@triton.jit\n"
    "def long_offsets(x, out, start):\n"
    "    i = tl.arange(0, 4)\n"
    "    p = x + (start + i.to(tl.int64))\n"
    "    tl.store(out + i, tl.load(p))\n"
    "\n"
    "@triton.jit\n"
    "def scalars(out, a, b, c, d):\n"
    "    tl.store(out + 0, a + 0.5)\n"
    "    tl.store(out + 1, b)\n"
    "    tl.store(out + 2, c.to(tl.float64))\n"
    "    tl.store(out + 3, d)\n"
    "\n"
    "@triton.jit\n"
    "def full_and_empty(out, e):\n"
    "    i = tl.arange(0, 4)\n"
    "    tl.store(out + i, tl.full((4,), 1.1, tl.float16) + tl.zeros((4,), tl.float16))\n"
    "    tl.store(e + i, tl.empty((4,), tl.float16))\n";

static MtCompiled *kern(MtCtx *c, const char *name, const char *sig) { return compile_text(c, "d.py", SRC, name, sig); }

static uint16_t h(float f) { return mt_f32_to_f16(f); }
static float hf(uint16_t x) { return mt_f16_to_f32(x); }
static uint16_t bh(float f) { return mt_f32_to_bf16(f); }
static float bf(uint16_t x) { return mt_bf16_to_f32(x); }

START_TEST(f16_rounds_once_per_operation)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "half_ops", "*fp16,*fp16,*fp16,8");
    float av[8] = {1.0f, 65504.0f, 0.1f, -3.25f, 1e-7f, 2049.0f, 3.0f, 0.0f};
    float bv[8] = {3.0f, 65504.0f, 0.2f, 0.333f, 1e-3f, 0.5f, -0.0f, -1.0f};
    uint16_t a[8], b[8], out[48];
    for (int i = 0; i < 8; i++) {
        a[i] = h(av[i]);
        b[i] = h(bv[i]);
    }
    MtKernelArg args[] = {arr(a, 8), arr(b, 8), arr(out, 48)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 8; i++) {
        float x = hf(a[i]), y = hf(b[i]);
        uint16_t want[6] = {h(x + y), h(x - y), h(x * y), h(x / y), h(x * hf(h(0.1f))),
                            (isnan(x) || x > y) ? a[i] : b[i]};
        for (int j = 0; j < 6; j++)
            ck_assert_msg(out[i * 6 + j] == want[j], "lane %d op %d: got 0x%04x, want 0x%04x", i, j, out[i * 6 + j],
                          want[j]);
    }
    ck_assert_uint_eq(out[1 * 6 + 0], 0x7c00); /* 65504 + 65504 overflows to inf */
    mt_ctx_free(c);
}
END_TEST

START_TEST(bf16_rounds_once_per_operation)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "half_ops", "*bf16,*bf16,*bf16,4");
    float av[4] = {1.0f, 3.0e38f, 0.1f, -7.5f}, bv[4] = {3.0f, 3.0e38f, 0.2f, 1e-30f};
    uint16_t a[4], b[4], out[24];
    for (int i = 0; i < 4; i++) {
        a[i] = bh(av[i]);
        b[i] = bh(bv[i]);
    }
    MtKernelArg args[] = {arr(a, 4), arr(b, 4), arr(out, 24)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 4; i++) {
        float x = bf(a[i]), y = bf(b[i]);
        uint16_t want[6] = {bh(x + y), bh(x - y), bh(x * y), bh(x / y), bh(x * bf(bh(0.1f))), x > y ? a[i] : b[i]};
        for (int j = 0; j < 6; j++)
            ck_assert_msg(out[i * 6 + j] == want[j], "lane %d op %d: got 0x%04x, want 0x%04x", i, j, out[i * 6 + j],
                          want[j]);
    }
    mt_ctx_free(c);
}
END_TEST

START_TEST(computation_types_follow_triton)
{
    /* the static_asserts are the test: x*2, x*2.5 stay f16, x/2 is f32, f16 + bf16 is f16 */
    MtCtx *c = mt_ctx_new(NULL);
    kern(c, "types_of", "*fp16,*bf16,*fp16");
    mt_ctx_free(c);
}
END_TEST

START_TEST(i8_wraps_in_its_width)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "small_ints", "*i8,*i8,*i8,8");
    int8_t a[8] = {127, -128, 100, -7, 7, -128, 1, -1}, b[8] = {1, -1, 100, 2, -2, 3, 127, 1};
    int8_t out[64];
    MtKernelArg args[] = {arr(a, 8), arr(b, 8), arr(out, 64)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 8; i++) {
        int x = a[i], y = b[i];
        int8_t want[8] = {(int8_t)(x + y), (int8_t)(x * y), (int8_t)(x + 1),
                          (int8_t)(y == -1 ? -x : x / y), (int8_t)(y == -1 ? 0 : x % y), (int8_t)(x >> 1),
                          (int8_t)(uint8_t)((unsigned)x << 3), (int8_t)(x < 0 ? -x : x)};
        for (int j = 0; j < 8; j++)
            ck_assert_msg(out[i * 8 + j] == want[j], "lane %d op %d: got %d, want %d", i, j, out[i * 8 + j], want[j]);
    }
    ck_assert_int_eq(out[0 * 8 + 0], -128); /* 127 + 1 wraps */
    ck_assert_int_eq(out[1 * 8 + 3], -128); /* -128 // -1 wraps to -128 */
    ck_assert_int_eq(out[5 * 8 + 7], -128); /* abs(-128) wraps */
    mt_ctx_free(c);
}
END_TEST

START_TEST(u32_is_unsigned)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "unsigned", "*u32,*u32,*u32,*i1,4");
    uint32_t a[4] = {1, 0x80000000u, 0xffffffffu, 0x9E3779B9u}, b[4] = {2, 3, 0xfffffffeu, 0xD2511F53u};
    uint32_t out[20];
    uint8_t flags[4];
    MtKernelArg args[] = {arr(a, 4), arr(b, 4), arr(out, 20), arr(flags, 4)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 4; i++) {
        uint32_t x = a[i], y = b[i];
        uint32_t want[5] = {x - y, x / y, x >> 31, (uint32_t)(((uint64_t)x * y) >> 32), x * 3u};
        for (int j = 0; j < 5; j++)
            ck_assert_msg(out[i * 5 + j] == want[j], "lane %d op %d: got %u, want %u", i, j, out[i * 5 + j], want[j]);
        ck_assert_int_eq(flags[i], x < y);
    }
    mt_ctx_free(c);
}
END_TEST

START_TEST(u64_and_big_constants)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "wide", "*u64,*u64,u64,2");
    uint64_t a[2] = {3, 0xF000000000000001ull}, out[8];
    MtKernelArg args[] = {arr(a, 2), arr(out, 8), {.i = (int64_t)0x8000000000000000ull}};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 2; i++) {
        uint64_t x = a[i];
        uint64_t want[4] = {x * 3000000000ull, x + 0x8000000000000000ull,
                            (uint64_t)(((unsigned __int128)x * 0x9E3779B97F4A7C15ull) >> 64), ~x};
        for (int j = 0; j < 4; j++)
            ck_assert_msg(out[i * 4 + j] == want[j], "lane %d op %d: got %llx, want %llx", i, j,
                          (unsigned long long)out[i * 4 + j], (unsigned long long)want[j]);
    }
    mt_ctx_free(c);
}
END_TEST

START_TEST(casts_saturate_and_round)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "casts", "*fp32,*i8,*u8,*i32,*fp16,*bf16,*fp16,*u32");
    float f[8] = {1.9f, -1.9f, 300.0f, -300.0f, NAN, 3e9f, 65520.0f, 1.0009f};
    int8_t i8[8];
    uint8_t u8[8];
    int32_t i32[8];
    uint16_t hh[8], bb[8], rz[8];
    uint32_t bits[8];
    MtKernelArg args[] = {arr(f, 8), arr(i8, 8), arr(u8, 8), arr(i32, 8), arr(hh, 8), arr(bb, 8), arr(rz, 8),
                          arr(bits, 8)};
    RUN_OK(c, k, 1, 1, args, 1);
    int8_t wi8[8] = {1, -1, 127, -128, 0, 127, 127, 1};
    uint8_t wu8[8] = {1, 0, 255, 0, 0, 255, 255, 1};
    int32_t wi32[8] = {1, -1, 300, -300, 0, INT32_MAX, 65520, 1};
    for (int i = 0; i < 8; i++) {
        ck_assert_msg(i8[i] == wi8[i], "i8[%d] = %d", i, i8[i]);
        ck_assert_msg(u8[i] == wu8[i], "u8[%d] = %d", i, u8[i]);
        ck_assert_msg(i32[i] == wi32[i], "i32[%d] = %d", i, i32[i]);
        if (!isnan(f[i])) {
            ck_assert_uint_eq(hh[i], h(f[i]));
            ck_assert_uint_eq(bb[i], bh(f[i]));
        }
        ck_assert_uint_eq(bits[i], bits_of(f[i]));
    }
    ck_assert_uint_eq(hh[6], 0x7c00);          /* 65520 (a tie above the largest half) rounds to inf */
    ck_assert_uint_eq(rz[6], 0x7bff);          /* toward zero: 65504 */
    ck_assert_uint_eq(hh[7], 0x3c01);          /* to nearest: 1 + 2^-10 */
    ck_assert_uint_eq(rz[7], 0x3c00);          /* toward zero: 1.0 */
    ck_assert_uint_eq(rz[1], h(-1.8994140625f)); /* -1.9 toward zero */
    mt_ctx_free(c);
}
END_TEST

START_TEST(i64_offsets_reach_past_2_to_the_31)
{
    /* an offset beyond i32, based on a pointer a long way before the data:
     * the interpreter only needs the difference to be in range, so a base of
     * -2^31 - 8 elements with start 2^31 + 8 lands on element 0 */
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "long_offsets", "*fp32,*fp32,i64");
    float x[4] = {1, 2, 3, 4}, out[4] = {0};
    MtKernelArg args[] = {arr(x, 4), arr(out, 4), {.i = 0}};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 4; i++)
        ck_assert_float_eq(out[i], x[i]);
    args[2].i = (int64_t)1 << 33;
    ck_assert_int_eq(run(c, k, 1, 1, args, 3, 1), MT_ERR_SOURCE);
    ck_assert_msg(strstr(all_diags(c), "reads x[8589934592]") != NULL, "%s", all_diags(c));
    mt_ctx_free(c);
}
END_TEST

START_TEST(scalar_parameters_of_every_kind)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "scalars", "*fp64,fp16,i8,bf16,u16");
    double out[4];
    MtKernelArg args[] = {arr(out, 4), {.f = 0.1}, {.i = -5}, {.f = 1.0 / 3.0}, {.i = 65535}};
    RUN_OK(c, k, 1, 1, args, 1);
    ck_assert_double_eq(out[0], (double)hf(h(hf(h(0.1f)) + 0.5f)));
    ck_assert_double_eq(out[1], -5.0);
    ck_assert_double_eq(out[2], (double)bf(bh(1.0f / 3.0f)));
    ck_assert_double_eq(out[3], 65535.0);
    /* launch checks use the parameter's type */
    args[2].i = 128;
    ck_assert_int_eq(run(c, k, 1, 1, args, 5, 1), MT_ERR_USAGE);
    ck_assert_msg(strstr(all_diags(c), "argument b: 128 does not fit in i8") != NULL, "%s", all_diags(c));
    mt_ctx_free(c);
}
END_TEST

START_TEST(factories_of_f16)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "full_and_empty", "*fp16,*fp16");
    uint16_t out[4], e[4];
    MtKernelArg args[] = {arr(out, 4), arr(e, 4)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(out[i], h(1.1f));
        ck_assert_uint_eq(e[i], 0x7ead); /* a quiet NaN with a visible payload */
    }
    mt_ctx_free(c);
}
END_TEST

/* Errors Triton raises for these types, each with its code. */
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

#define KERNEL(body) "import triton\nimport triton.language as tl\n@triton.jit\ndef k(a, b, out):\n" body

START_TEST(triton_type_errors)
{
    expect_error(KERNEL("    tl.store(out, tl.load(a) + -1)\n"), "*u32,*u32,*u32", "E0414",
                 "unsigned u32 and the negative constant -1");
    expect_error(KERNEL("    tl.store(out, tl.load(a) + 300)\n"), "*i8,*i8,*i8", "E0414",
                 "integer constant 300 does not fit in i8");
    expect_error(KERNEL("    tl.store(out, tl.load(a) // tl.load(b))\n"), "*i32,*u32,*i32", "E0401",
                 "they differ in signedness");
    expect_error(KERNEL("    tl.store(out, tl.exp(tl.load(a)))\n"), "*fp16,*fp16,*fp16", "E0405",
                 "tl.exp needs f32 or f64, got f16");
    expect_error(KERNEL("    tl.store(out, tl.load(a).to(tl.int16, bitcast=True))\n"), "*fp32,*i16,*i16", "E0417",
                 "cannot bitcast f32 (32 bits) to i16 (16 bits)");
    expect_error(KERNEL("    tl.store(out, tl.load(a).to(tl.int16, fp_downcast_rounding='rtz'))\n"),
                 "*fp32,*i16,*i16", "E0417", "fp_downcast_rounding applies only to conversions to a narrower float");
    expect_error(KERNEL("    tl.store(out, tl.load(a) << 1.0)\n"), "*i32,*i32,*i32", "E0401",
                 "'<<' needs integer operands");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("dtypes");
    TCase *t = tcase_create("dtypes");
    tcase_add_test(t, f16_rounds_once_per_operation);
    tcase_add_test(t, bf16_rounds_once_per_operation);
    tcase_add_test(t, computation_types_follow_triton);
    tcase_add_test(t, i8_wraps_in_its_width);
    tcase_add_test(t, u32_is_unsigned);
    tcase_add_test(t, u64_and_big_constants);
    tcase_add_test(t, casts_saturate_and_round);
    tcase_add_test(t, i64_offsets_reach_past_2_to_the_31);
    tcase_add_test(t, scalar_parameters_of_every_kind);
    tcase_add_test(t, factories_of_f16);
    tcase_add_test(t, triton_type_errors);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
