/* check_interp.c: the interpreter's semantics, one rule per test, on small
 * kernels compiled from source: i32 wrap-around and C division, float
 * promotion and true division, the NaN and tie rules of maximum/minimum,
 * comparisons and logic, store and `other` conversions, masked accesses
 * that never touch memory, the CUDA tree order of reductions (and what it
 * does with NaN), tl.empty's poison, loops (zero trips, parallel yields,
 * loop-carried pointers, steps), dot's summation order, threads giving the
 * same bits, cancellation, and every launch check (R0703). Expected values
 * are written out or computed here with plain C. */
#include <float.h>
#include <limits.h>

#include "exec_test.h"

static const char *const SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def int_ops(a, b, out, BLOCK: tl.constexpr):\n"
    "    i = tl.arange(0, BLOCK)\n"
    "    x = tl.load(a + i)\n"
    "    y = tl.load(b + i)\n"
    "    tl.store(out + i * 8 + 0, x + y)\n"
    "    tl.store(out + i * 8 + 1, x - y)\n"
    "    tl.store(out + i * 8 + 2, x * y)\n"
    "    tl.store(out + i * 8 + 3, x // y)\n"
    "    tl.store(out + i * 8 + 4, x % y)\n"
    "    tl.store(out + i * 8 + 5, -x)\n"
    "    tl.store(out + i * 8 + 6, tl.maximum(x, y))\n"
    "    tl.store(out + i * 8 + 7, tl.minimum(x, y))\n"
    "\n"
    "@triton.jit\n"
    "def promote(a, f, out, BLOCK: tl.constexpr):\n"
    "    i = tl.arange(0, BLOCK)\n"
    "    x = tl.load(a + i)\n"
    "    g = tl.load(f + i)\n"
    "    tl.store(out + i * 4, x / 3)\n"
    "    tl.store(out + i * 4 + 1, x + g)\n"
    "    tl.store(out + i * 4 + 2, x * 0.5)\n"
    "    tl.store(out + i * 4 + 3, g / x)\n"
    "\n"
    "@triton.jit\n"
    "def extrema(a, b, out, BLOCK: tl.constexpr):\n"
    "    i = tl.arange(0, BLOCK)\n"
    "    x = tl.load(a + i)\n"
    "    y = tl.load(b + i)\n"
    "    tl.store(out + i * 2, tl.maximum(x, y))\n"
    "    tl.store(out + i * 2 + 1, tl.minimum(x, y))\n"
    "\n"
    "@triton.jit\n"
    "def logic(a, b, out, BLOCK: tl.constexpr):\n"
    "    i = tl.arange(0, BLOCK)\n"
    "    x = tl.load(a + i)\n"
    "    y = tl.load(b + i)\n"
    "    m = (x < y) & (y > 0.0)\n"
    "    tl.store(out + i, tl.where(m | (x != x), x, y))\n"
    "    tl.store(out + BLOCK + i, ~(i ^ 3))\n"
    "    tl.store(out + 2 * BLOCK + i, (x <= y) ^ (x >= y))\n"
    "    tl.store(out + 3 * BLOCK + i, tl.where(x == y, 1, 0.5))\n"
    "\n"
    "@triton.jit\n"
    "def to_int(x, out, flags, BLOCK: tl.constexpr):\n"
    "    i = tl.arange(0, BLOCK)\n"
    "    v = tl.load(x + i)\n"
    "    tl.store(out + i, v)\n"
    "    tl.store(flags + i, v)\n"
    "\n"
    "@triton.jit\n"
    "def int_to_float(a, out, BLOCK: tl.constexpr):\n"
    "    i = tl.arange(0, BLOCK)\n"
    "    tl.store(out + i, tl.load(a + i))\n"
    "\n"
    "@triton.jit\n"
    "def masked(x, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK) - 2\n"
    "    mask = (offs >= 0) & (offs < n)\n"
    "    v = tl.load(x + offs, mask=mask, other=-1.5)\n"
    "    tl.store(out + tl.arange(0, BLOCK), v)\n"
    "    tl.store(x + offs, v + 1, mask=mask)\n"
    "\n"
    "@triton.jit\n"
    "def reduce_rows(x, out, BLOCK: tl.constexpr):\n"
    "    row = tl.program_id(0)\n"
    "    v = tl.load(x + row * BLOCK + tl.arange(0, BLOCK))\n"
    "    tl.store(out + row * 3, tl.sum(v))\n"
    "    tl.store(out + row * 3 + 1, tl.max(v))\n"
    "    tl.store(out + row * 3 + 2, tl.min(v))\n"
    "\n"
    "@triton.jit\n"
    "def poison(f, i):\n"
    "    r = tl.arange(0, 4)\n"
    "    tl.store(f + r, tl.empty((4,), tl.float32))\n"
    "    tl.store(i + r, tl.empty((4,), tl.int32))\n"
    "\n"
    "@triton.jit\n"
    "def fills(out, flags, value):\n"
    "    r = tl.arange(0, 4)\n"
    "    tl.store(out + r, tl.full((4,), value, tl.int32))\n"
    "    tl.store(flags + r, tl.full((4,), value, tl.int1))\n"
    "\n"
    "@triton.jit\n"
    "def swap(out, n):\n"
    "    a = 1\n"
    "    b = 2\n"
    "    for i in range(n):\n"
    "        a, b = b, a\n"
    "    tl.store(out, a)\n"
    "    tl.store(out + 1, b)\n"
    "\n"
    "@triton.jit\n"
    "def walk(x, out, n):\n"
    "    p = x\n"
    "    acc = 0.0\n"
    "    for i in range(1, n, 3):\n"
    "        acc += tl.load(p) * i\n"
    "        p += 2\n"
    "    tl.store(out, acc)\n"
    "\n"
    "@triton.jit\n"
    "def nested(out, n, m):\n"
    "    total = 0\n"
    "    for i in range(n):\n"
    "        row = 0\n"
    "        for j in range(i, m):\n"
    "            row = row + j\n"
    "        total = total * 3 + row\n"
    "    tl.store(out, total)\n"
    "\n"
    "@triton.jit\n"
    "def matmul(a, b, c, M: tl.constexpr, K: tl.constexpr, N: tl.constexpr):\n"
    "    rm = tl.arange(0, M)[:, None]\n"
    "    rk = tl.arange(0, K)\n"
    "    rn = tl.arange(0, N)[None, :]\n"
    "    x = tl.load(a + rm * K + rk[None, :])\n"
    "    y = tl.load(b + rk[:, None] * N + rn)\n"
    "    tl.store(c + rm * N + rn, tl.dot(x, y))\n"
    "\n"
    "@triton.jit\n"
    "def flag_rows(x, out, BLOCK: tl.constexpr):\n"
    "    row = tl.program_id(0)\n"
    "    i = tl.arange(0, BLOCK)\n"
    "    tl.store(out + row * BLOCK + i, tl.load(x + row * BLOCK + i) & (i < 2))\n"
    "\n"
    "@triton.jit\n"
    "def huge(out):\n"
    "    tl.store(out, tl.zeros((65536, 65536), tl.float32))\n";

static MtCompiled *kern(MtCtx *c, const char *name, const char *sig) { return compile_text(c, "t.py", SRC, name, sig); }

static int32_t wrap(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }

START_TEST(i32_wraps_and_divides_like_c)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "int_ops", "*i32,*i32,*i32,8");
    int32_t a[8] = {INT32_MAX, INT32_MIN, 7, -7, -7, INT32_MIN, 123456789, 0};
    int32_t b[8] = {1, -1, -2, 2, -2, 2, 1000, 5};
    int32_t out[64];
    MtKernelArg args[] = {arr(a, 8), arr(b, 8), arr(out, 64)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 8; i++) {
        int64_t x = a[i], y = b[i];
        int32_t want[8] = {
            wrap(x + y), wrap(x - y), wrap(x * y),
            y == -1 ? wrap(-x) : (int32_t)(x / y), /* C truncation; INT_MIN // -1 == INT_MIN */
            y == -1 ? 0 : (int32_t)(x % y),        /* the dividend's sign; INT_MIN % -1 == 0 */
            wrap(-x), (int32_t)(x > y ? x : y), (int32_t)(x < y ? x : y),
        };
        for (int j = 0; j < 8; j++)
            ck_assert_msg(out[i * 8 + j] == want[j], "lane %d op %d: got %d, want %d", i, j, out[i * 8 + j], want[j]);
    }
    /* the spelled-out cases */
    ck_assert_int_eq(out[0 * 8 + 0], INT32_MIN);  /* INT_MAX + 1 */
    ck_assert_int_eq(out[1 * 8 + 3], INT32_MIN);  /* INT_MIN // -1 */
    ck_assert_int_eq(out[1 * 8 + 4], 0);          /* INT_MIN % -1 */
    ck_assert_int_eq(out[2 * 8 + 3], -3);         /* 7 // -2 truncates */
    ck_assert_int_eq(out[3 * 8 + 4], -1);         /* -7 % 2 */
    ck_assert_int_eq(out[1 * 8 + 5], INT32_MIN);  /* -INT_MIN */
    mt_ctx_free(c);
}
END_TEST

START_TEST(int_and_float_promote_to_float)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "promote", "*i32,*fp32,*fp32,4");
    int32_t a[4] = {7, -7, 16777217, 0};
    float g[4] = {0.5f, 0.25f, 1.0f, 1e-8f};
    float out[16];
    MtKernelArg args[] = {arr(a, 4), arr(g, 4), arr(out, 16)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 4; i++) {
        float x = (float)a[i];
        float want[4] = {x / 3.0f, x + g[i], x * 0.5f, g[i] / x};
        assert_same_bits(out + i * 4, want, 4, "promote");
    }
    ck_assert(isinf(out[3 * 4 + 3])); /* 1e-8 / 0: float division, no fault */
    mt_ctx_free(c);
}
END_TEST

START_TEST(maximum_minimum_propagate_nan_and_pick_the_right_operand_on_ties)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "extrema", "*fp32,*fp32,*fp32,8");
    float a[8] = {NAN, 1.0f, -0.0f, 0.0f, 2.0f, -INFINITY, 3.0f, NAN};
    float b[8] = {1.0f, NAN, 0.0f, -0.0f, 2.0f, 5.0f, -1.0f, NAN};
    float out[16];
    MtKernelArg args[] = {arr(a, 8), arr(b, 8), arr(out, 16)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 8; i++) {
        float want[2] = {(isnan(a[i]) || a[i] > b[i]) ? a[i] : b[i], (isnan(a[i]) || a[i] < b[i]) ? a[i] : b[i]};
        assert_same_bits(out + i * 2, want, 2, "extrema");
    }
    ck_assert(isnan(out[0]) && isnan(out[1]));                    /* NaN on the left */
    ck_assert(isnan(out[2]) && isnan(out[3]));                    /* NaN on the right */
    ck_assert(!signbit(out[4]) && !signbit(out[5]));              /* max/min(-0.0, 0.0) = 0.0: the right one */
    ck_assert(signbit(out[6]) && signbit(out[7]));                /* max/min(0.0, -0.0) = -0.0 */
    mt_ctx_free(c);
}
END_TEST

START_TEST(comparisons_logic_and_select)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "logic", "*fp32,*fp32,*fp32,4");
    float a[4] = {1.0f, NAN, -2.0f, 4.0f};
    float b[4] = {2.0f, 1.0f, -1.0f, 4.0f};
    float out[16];
    MtKernelArg args[] = {arr(a, 4), arr(b, 4), arr(out, 16)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 4; i++) {
        int m = (a[i] < b[i]) & (b[i] > 0.0f);
        float want[4] = {m | (a[i] != a[i]) ? a[i] : b[i], (float)~(i ^ 3), (float)((a[i] <= b[i]) ^ (a[i] >= b[i])),
                         a[i] == b[i] ? 1.0f : 0.5f};
        for (int j = 0; j < 4; j++) {
            float got = out[j * 4 + i];
            ck_assert_msg(bits_of(got) == bits_of(want[j]), "lane %d part %d: got %g want %g", i, j, (double)got,
                          (double)want[j]);
        }
    }
    ck_assert_float_eq(out[4 * 2 + 1], 0.0f); /* NaN <= 1 and NaN >= 1 are both false */
    mt_ctx_free(c);
}
END_TEST

START_TEST(stores_convert_to_the_pointee_type)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "to_int", "*fp32,*i32,*i1,8");
    float x[8] = {1.9f, -1.9f, NAN, 3e9f, -3e9f, INFINITY, -0.0f, 0.5f};
    int32_t out[8];
    uint8_t flags[8];
    MtKernelArg args[] = {arr(x, 8), arr(out, 8), arr(flags, 8)};
    RUN_OK(c, k, 1, 1, args, 1);
    int32_t want[8] = {1, -1, 0, INT32_MAX, INT32_MIN, INT32_MAX, 0, 0};
    uint8_t want_flags[8] = {1, 1, 1, 1, 1, 1, 0, 1};
    for (int i = 0; i < 8; i++) {
        ck_assert_msg(out[i] == want[i], "i32[%d]: got %d, want %d", i, out[i], want[i]);
        ck_assert_msg(flags[i] == want_flags[i], "i1[%d]: got %d, want %d", i, flags[i], want_flags[i]);
    }

    k = kern(c, "int_to_float", "*i32,*fp32,4");
    int32_t a[4] = {16777217, -3, INT32_MAX, 0};
    float f[4];
    MtKernelArg args2[] = {arr(a, 4), arr(f, 4)};
    RUN_OK(c, k, 1, 1, args2, 1);
    float wantf[4] = {16777216.0f, -3.0f, 2147483648.0f, 0.0f};
    assert_same_bits(f, wantf, 4, "i32 -> f32");
    mt_ctx_free(c);
}
END_TEST

START_TEST(masked_lanes_never_touch_memory)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "masked", "*i32,*i32,i32,8");
    /* lanes read x[-2 .. 5]; the mask allows 0 .. n-1 only. other = -1.5
     * becomes -1 in an i32 load (truncation toward zero). */
    int32_t x[3] = {10, 20, 30};
    int32_t out[8];
    MtKernelArg args[] = {arr(x, 3), arr(out, 8), i32(3)};
    RUN_OK(c, k, 1, 1, args, 1);
    int32_t want[8] = {-1, -1, 10, 20, 30, -1, -1, -1};
    for (int i = 0; i < 8; i++)
        ck_assert_msg(out[i] == want[i], "lane %d: got %d, want %d", i, out[i], want[i]);
    ck_assert_int_eq(x[0], 11);
    ck_assert_int_eq(x[2], 31);

    /* a buffer with no elements at all, every lane masked off: no access */
    x[0] = 10;
    MtKernelArg none[] = {arr(NULL, 0), arr(out, 8), i32(0)};
    RUN_OK(c, k, 1, 1, none, 1);
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(out[i], -1);
    mt_ctx_free(c);
}
END_TEST

/* The CUDA lowering's shared-memory tree, written out independently. */
static float tree(const float *v, int n, int op)
{
    float s[64];
    memcpy(s, v, (size_t)n * sizeof *s);
    for (int stride = n / 2; stride > 0; stride >>= 1)
        for (int i = 0; i < stride; i++)
            s[i] = op == 0 ? s[i] + s[i + stride] : op == 1 ? fmaxf(s[i], s[i + stride]) : fminf(s[i], s[i + stride]);
    return s[0];
}

START_TEST(reductions_follow_the_cuda_tree)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "reduce_rows", "*fp32,*fp32,8");
    float x[5][8] = {
        /* tree order: (1e8 + -1e8) + (1 + 1) ... differs from a left-to-right sum */
        {1e8f, 1.0f, 1.0f, 1.0f, -1e8f, 1.0f, 1.0f, 1.0f},
        /* fmaxf / fminf ignore a NaN operand: NaN elements drop out */
        {NAN, 1.0f, 3.0f, 2.0f, -5.0f, NAN, 0.5f, 4.0f},
        {NAN, NAN, NAN, NAN, NAN, NAN, NAN, 7.0f},
        {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN},
        {-INFINITY, -INFINITY, 2.0f, -INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY},
    };
    float out[15];
    MtKernelArg args[] = {arr(x, 40), arr(out, 15)};
    RUN_OK(c, k, 5, 1, args, 2);
    for (int r = 0; r < 5; r++) {
        float want[3] = {tree(x[r], 8, 0), tree(x[r], 8, 1), tree(x[r], 8, 2)};
        assert_same_bits(out + r * 3, want, 3, "row");
    }
    ck_assert_float_eq(out[0], 6.0f);                 /* a sequential float sum gives 3.0 */
    ck_assert_float_eq(out[4], 4.0f);                 /* max ignoring the NaNs */
    ck_assert_float_eq(out[5], -5.0f);
    ck_assert(isnan(out[6]));                         /* the sum sees the NaN */
    ck_assert_float_eq(out[7], 7.0f);                 /* one number among NaNs is the max and the min */
    ck_assert_float_eq(out[8], 7.0f);
    ck_assert(isnan(out[10]) && isnan(out[11]));      /* all NaN: NaN */
    ck_assert_float_eq(out[13], 2.0f);

    k = kern(c, "reduce_rows", "*i32,*i32,4");
    int32_t xi[4] = {INT32_MAX, 1, -3, 9};
    int32_t oi[3];
    MtKernelArg args2[] = {arr(xi, 4), arr(oi, 3)};
    RUN_OK(c, k, 1, 1, args2, 1);
    ck_assert_int_eq(oi[0], wrap((int64_t)INT32_MAX + 1 - 3 + 9));
    ck_assert_int_eq(oi[1], INT32_MAX);
    ck_assert_int_eq(oi[2], -3);
    mt_ctx_free(c);
}
END_TEST

START_TEST(empty_blocks_hold_visible_poison)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "poison", "*fp32,*i32");
    float f[4];
    int32_t i[4];
    MtKernelArg args[] = {arr(f, 4), arr(i, 4)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int j = 0; j < 4; j++) {
        ck_assert_uint_eq(bits_of(f[j]), 0x7fc00badu);
        ck_assert(isnan(f[j]));
        ck_assert_int_eq(i[j], 0x7fbadbad);
    }
    mt_ctx_free(c);
}
END_TEST

START_TEST(full_converts_its_fill_value)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "fills", "*i32,*i1,fp32");
    int32_t out[4];
    uint8_t flags[4];
    MtKernelArg args[] = {arr(out, 4), arr(flags, 4), f32(-2.75)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int j = 0; j < 4; j++) {
        ck_assert_int_eq(out[j], -2);
        ck_assert_int_eq(flags[j], 1);
    }
    mt_ctx_free(c);
}
END_TEST

START_TEST(loops_carry_values_in_parallel_and_run_zero_times)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "swap", "*i32,i32");
    int32_t out[2];
    for (int n = -2; n <= 5; n++) {
        MtKernelArg args[] = {arr(out, 2), i32(n)};
        RUN_OK(c, k, 1, 1, args, 1);
        int odd = n > 0 && n % 2;
        ck_assert_int_eq(out[0], odd ? 2 : 1);
        ck_assert_int_eq(out[1], odd ? 1 : 2);
    }

    /* a loop-carried pointer, a start and a step */
    k = kern(c, "walk", "*fp32,*fp32,i32");
    float x[16];
    for (int i = 0; i < 16; i++)
        x[i] = (float)(i + 1) * 0.5f;
    float acc;
    for (int n = 0; n <= 20; n++) {
        MtKernelArg args[] = {arr(x, 16), arr(&acc, 1), i32(n)};
        RUN_OK(c, k, 1, 1, args, 1);
        float want = 0.0f;
        int p = 0;
        for (int i = 1; i < n; i += 3, p += 2)
            want = want + x[p] * (float)i;
        ck_assert_msg(bits_of(acc) == bits_of(want), "n=%d: got %g, want %g", n, (double)acc, (double)want);
    }

    /* past the end: trip t reads x[2t], so the ninth reads x[16] */
    MtKernelArg far[] = {arr(x, 16), arr(&acc, 1), i32(30)};
    ck_assert_int_eq(run(c, k, 1, 1, far, 3, 1), MT_ERR_SOURCE);
    ck_assert_str_eq(mt_diag_at(c, 0)->msg,
                     "out-of-bounds load in walk: program (0, 0, 0) reads x[16], but x has 16 elements");

    k = kern(c, "nested", "*i32,i32,i32");
    for (int n = 0; n < 4; n++) {
        for (int m = 0; m < 4; m++) {
            MtKernelArg args[] = {arr(out, 1), i32(n), i32(m)};
            RUN_OK(c, k, 1, 1, args, 1);
            int32_t total = 0;
            for (int i = 0; i < n; i++) {
                int32_t row = 0;
                for (int j = i; j < m; j++)
                    row += j;
                total = total * 3 + row;
            }
            ck_assert_int_eq(out[0], total);
        }
    }
    mt_ctx_free(c);
}
END_TEST

START_TEST(dot_sums_over_increasing_k_from_zero)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "matmul", "*fp32,*fp32,*fp32,4,16,8");
    float *a = random_floats(4 * 16, 11, -1.0f, 1.0f), *b = random_floats(16 * 8, 12, -1.0f, 1.0f);
    a[0] = 1e8f; /* makes the summation order visible */
    b[0] = 1.0f;
    a[16] = -1e8f;
    float out[32], want[32];
    MtKernelArg args[] = {arr(a, 64), arr(b, 128), arr(out, 32)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) {
            float s = 0.0f;
            for (int kk = 0; kk < 16; kk++) {
                float p = a[i * 16 + kk] * b[kk * 8 + j];
                s = s + p;
            }
            want[i * 8 + j] = s;
        }
    assert_same_bits(out, want, 32, "dot");
    free(a);
    free(b);
    mt_ctx_free(c);
}
END_TEST

START_TEST(bool_buffers_read_any_nonzero_byte_as_true)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "flag_rows", "*i1,*i1,4");
    uint8_t x[4] = {0, 7, 255, 1}, out[4];
    MtKernelArg args[] = {arr(x, 4), arr(out, 4)};
    RUN_OK(c, k, 1, 1, args, 1);
    uint8_t want[4] = {0, 1, 0, 0};
    ck_assert_mem_eq(out, want, 4);
    mt_ctx_free(c);
}
END_TEST

START_TEST(threads_give_the_same_bits)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_example(c, "softmax.py", "softmax_kernel", "*fp32,*fp32,i32,256");
    int rows = 301, cols = 200;
    float *x = random_floats((size_t)rows * cols, 5, -20.0f, 20.0f);
    float *o1 = malloc((size_t)rows * cols * sizeof *o1), *o4 = malloc((size_t)rows * cols * sizeof *o4);
    MtKernelArg a1[] = {arr(x, (size_t)rows * cols), arr(o1, (size_t)rows * cols), i32(cols)};
    MtKernelArg a4[] = {arr(x, (size_t)rows * cols), arr(o4, (size_t)rows * cols), i32(cols)};
    RUN_OK(c, k, rows, 1, a1, 1);
    RUN_OK(c, k, rows, 1, a4, 4);
    assert_same_bits(o4, o1, (size_t)rows * cols, "softmax 4 threads");
    RUN_OK(c, k, rows, 1, a4, 0);
    assert_same_bits(o4, o1, (size_t)rows * cols, "softmax, a thread per core");
    free(x);
    free(o1);
    free(o4);
    mt_ctx_free(c);
}
END_TEST

START_TEST(a_cancelled_context_stops_the_run)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "swap", "*i32,i32");
    int32_t out[2] = {0, 0};
    MtKernelArg args[] = {arr(out, 2), i32(3)};
    mt_ctx_cancel(c);
    ck_assert_int_eq(run(c, k, 100, 1, args, 2, 2), MT_CANCELLED);
    ck_assert_int_eq(out[0], 0);
    mt_ctx_free(c);
}
END_TEST

/* ---- launch checks ---------------------------------------------------------------------- */

START_TEST(launch_checks_arguments_and_grid)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_example(c, "add_kernel.py", "add_kernel", "*fp32,*fp32,*fp32,i32,256");
    float x[4] = {0};
    MtKernelArg three[] = {arr(x, 4), arr(x, 4), arr(x, 4)};
    ck_assert_int_eq(run(c, k, 1, 1, three, 3, 1), MT_ERR_USAGE);
    ck_assert_uint_eq(mt_diag_count(c), 1);
    const MtDiag *d = mt_diag_at(c, 0);
    ck_assert_str_eq(d->code, "R0703");
    ck_assert_str_eq(d->msg, "add_kernel takes 4 runtime arguments (x, y, out, n), got 3");
    ck_assert_uint_eq(d->span.line, 12); /* the kernel's name */
    ck_assert_uint_eq(d->span.col, 5);

    mt_ctx_reset(c);
    k = compile_example(c, "add_kernel.py", "add_kernel", "*fp32,*fp32,*fp32,i32,256");
    MtKernelArg bad[] = {arr(NULL, 4), arr(x, 4), arr(x, 4), i32(5000000000)};
    ck_assert_int_eq(run(c, k, 0, 1, bad, 4, 1), MT_ERR_USAGE);
    ck_assert_uint_eq(mt_diag_count(c), 3);
    ck_assert_str_eq(mt_diag_at(c, 0)->msg, "argument x: no buffer for its 4 elements");
    ck_assert_str_eq(mt_diag_at(c, 1)->msg, "argument n: 5000000000 does not fit in i32");
    ck_assert_str_eq(mt_diag_at(c, 2)->msg,
                     "grid dimension 0 of (0, 1, 1) is 0; it must be between 1 and 2147483647");

    /* 2^32 elements: more than a frame holds */
    mt_ctx_reset(c);
    k = kern(c, "huge", "*fp32");
    MtKernelArg one[] = {arr(x, 1)};
    ck_assert_int_eq(run(c, k, 1, 1, one, 1, 1), MT_ERR_USAGE);
    ck_assert_str_eq(mt_diag_at(c, 0)->code, "R0703");
    const char *msg = mt_diag_at(c, 0)->msg;
    ck_assert_msg(!strncmp(msg, "huge needs ", 11) && strstr(msg, " bytes for the values of one program instance; "
                                                                  "the interpreter allows 2147483648"),
                  "%s", msg);
    ck_assert_float_eq(x[0], 0.0f);

    mt_ctx_reset(c);
    ck_assert_int_eq(mt_interpret(c, NULL, (int64_t[3]){1, 1, 1}, NULL, 0, NULL), MT_ERR_USAGE);
    ck_assert_str_eq(mt_diag_at(c, 0)->msg, "mt_interpret needs a kernel compiled through the ssa stage");
    mt_ctx_free(c);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("interp");
    TCase *tc = tcase_create("semantics");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, i32_wraps_and_divides_like_c);
    tcase_add_test(tc, int_and_float_promote_to_float);
    tcase_add_test(tc, maximum_minimum_propagate_nan_and_pick_the_right_operand_on_ties);
    tcase_add_test(tc, comparisons_logic_and_select);
    tcase_add_test(tc, stores_convert_to_the_pointee_type);
    tcase_add_test(tc, masked_lanes_never_touch_memory);
    tcase_add_test(tc, reductions_follow_the_cuda_tree);
    tcase_add_test(tc, empty_blocks_hold_visible_poison);
    tcase_add_test(tc, full_converts_its_fill_value);
    tcase_add_test(tc, loops_carry_values_in_parallel_and_run_zero_times);
    tcase_add_test(tc, dot_sums_over_increasing_k_from_zero);
    tcase_add_test(tc, bool_buffers_read_any_nonzero_byte_as_true);
    tcase_add_test(tc, threads_give_the_same_bits);
    tcase_add_test(tc, a_cancelled_context_stops_the_run);
    tcase_add_test(tc, launch_checks_arguments_and_grid);
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
