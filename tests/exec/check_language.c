/* check_language.c: the rest of Triton's API that real kernels use (issue
 * 12), on the interpreter, against references computed here in C:
 * Python's min() and max() on runtime values (tl.minimum / tl.maximum, as
 * Triton's code generator maps them), tl.dot on f16 and bf16 operands
 * (accumulated in f32), and the random numbers: tl.philox against the
 * published Philox4x32-10 and 4x64-10 known answers, tl.randint4x /
 * randint / rand / randn / rand4x / randn4x against a Philox written here
 * (bit for bit: the interpreter's f32 math is the C library's), and
 * Triton's low-memory dropout tutorial kernel. */
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
    "    tl.store(c + i[:, None] * 16 + i[None, :], tl.dot(x, x, out_dtype=tl.bfloat16))\n"
    "\n"
    "@triton.jit\n"
    "def philox_kat(seed, c0, c1, c2, c3, out):\n"
    "    i = tl.arange(0, 1)\n"
    "    r = tl.philox(seed, tl.load(c0 + i), tl.load(c1 + i), tl.load(c2 + i), tl.load(c3 + i))\n"
    "    for k in tl.static_range(4):\n"
    "        tl.static_assert(r[k].dtype == tl.uint32)\n"
    "        tl.store(out + i * 4 + k, r[k])\n"
    "\n"
    "@triton.jit\n"
    "def philox64_kat(out):\n"
    "    z = tl.zeros((1,), tl.uint64)\n"
    "    r0, r1, r2, r3 = tl.philox(0, z, z, z, z)\n"
    "    i = tl.arange(0, 1)\n"
    "    tl.store(out + i, r0)\n"
    "    tl.store(out + i + 1, r1)\n"
    "    tl.store(out + i + 2, r2)\n"
    "    tl.store(out + i + 3, r3)\n"
    "\n"
    "@triton.jit\n"
    "def streams(seed, ints, one, uni, nrm, uni4, nrm4, uni64, N: tl.constexpr):\n"
    "    off = tl.program_id(0) * N + tl.arange(0, N)\n"
    "    a, b, c, d = tl.randint4x(seed, off)\n"
    "    tl.store(ints + off * 4 + 0, a)\n"
    "    tl.store(ints + off * 4 + 1, b)\n"
    "    tl.store(ints + off * 4 + 2, c)\n"
    "    tl.store(ints + off * 4 + 3, d)\n"
    "    tl.store(one + off, tl.randint(seed, off))\n"
    "    tl.store(uni + off, tl.rand(seed, off))\n"
    "    tl.store(nrm + off, tl.randn(seed, off))\n"
    "    u = tl.rand4x(seed, off)\n"
    "    n = tl.randn4x(seed, off)\n"
    "    for k in tl.static_range(4):\n"
    "        tl.store(uni4 + off * 4 + k, u[k])\n"
    "        tl.store(nrm4 + off * 4 + k, n[k])\n"
    "    tl.store(uni64 + off, tl.rand(seed, off.to(tl.int64)))\n"
    "\n"
    "# Triton's tutorial 04, as written there\n"
    "@triton.jit\n"
    "def _seeded_dropout(\n"
    "    x_ptr,\n"
    "    output_ptr,\n"
    "    n_elements,\n"
    "    p,\n"
    "    seed,\n"
    "    BLOCK_SIZE: tl.constexpr,\n"
    "):\n"
    "    # compute memory offsets of elements handled by this instance\n"
    "    pid = tl.program_id(axis=0)\n"
    "    block_start = pid * BLOCK_SIZE\n"
    "    offsets = block_start + tl.arange(0, BLOCK_SIZE)\n"
    "    # load data from x\n"
    "    mask = offsets < n_elements\n"
    "    x = tl.load(x_ptr + offsets, mask=mask)\n"
    "    # randomly prune it\n"
    "    random = tl.rand(seed, offsets)\n"
    "    x_keep = random > p\n"
    "    # write-back\n"
    "    output = tl.where(x_keep, x / (1 - p), 0.0)\n"
    "    tl.store(output_ptr + offsets, output, mask=mask)\n";

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

/* ---- random numbers ---------------------------------------------------------------- */

/* Philox4x32-10 (Salmon et al. 2011, as Random123 and Triton run it). */
static void philox32(const uint32_t ctr[4], uint32_t k0, uint32_t k1, uint32_t out[4])
{
    uint32_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]};
    for (int r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
        uint32_t n[4] = {(uint32_t)(p1 >> 32) ^ c[1] ^ k0, (uint32_t)p1, (uint32_t)(p0 >> 32) ^ c[3] ^ k1, (uint32_t)p0};
        memcpy(c, n, sizeof c);
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    memcpy(out, c, sizeof c);
}

static void philox64(const uint64_t ctr[4], uint64_t k0, uint64_t k1, uint64_t out[4])
{
    uint64_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]};
    for (int r = 0; r < 10; r++) {
        unsigned __int128 p0 = (unsigned __int128)0xD2E7470EE14C6C93u * c[0];
        unsigned __int128 p1 = (unsigned __int128)0xCA5A826395121157u * c[2];
        uint64_t n[4] = {(uint64_t)(p1 >> 64) ^ c[1] ^ k0, (uint64_t)p1, (uint64_t)(p0 >> 64) ^ c[3] ^ k1,
                         (uint64_t)p0};
        memcpy(c, n, sizeof c);
        k0 += 0x9E3779B97F4A7C15u;
        k1 += 0xBB67AE8584CAA73Bu;
    }
    memcpy(out, c, sizeof c);
}

/* Triton's uint_to_uniform_float and pair_uniform_to_normal, in f32. */
static float uniform32(uint32_t u)
{
    int32_t x = (int32_t)u;
    x = x < 0 ? (int32_t)(-(int64_t)x - 1) : x;
    return (float)x * (float)4.6566127342e-10;
}

static float uniform64(uint64_t u)
{
    int64_t x = (int64_t)u;
    x = x < 0 ? -(x + 1) : x;
    return (float)x * (float)1.0842020432385337e-19;
}

static void normal_pair(float u1, float u2, float out[2])
{
    u1 = fmaxf((float)1.0e-7, u1);
    float th = (float)6.283185307179586 * u2;
    float r = sqrtf(-2.0f * logf(u1));
    out[0] = r * cosf(th);
    out[1] = r * sinf(th);
}

/* The known answers of Random123's kat_vectors for philox4x32_10 and philox4x64_10. */
START_TEST(philox_known_answers)
{
    static const uint32_t ctr[3][4] = {{0, 0, 0, 0},
                                       {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
                                       {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}};
    static const uint32_t key[3][2] = {{0, 0}, {0xffffffffu, 0xffffffffu}, {0xa4093822u, 0x299f31d0u}};
    static const uint32_t want[3][4] = {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
                                        {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
                                        {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}};
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_src(c, "philox_kat", "i64,*u32,*u32,*u32,*u32,*u32");
    for (int v = 0; v < 3; v++) {
        uint32_t c0 = ctr[v][0], c1 = ctr[v][1], c2 = ctr[v][2], c3 = ctr[v][3], out[4] = {0}, mine[4];
        int64_t seed = (int64_t)(((uint64_t)key[v][1] << 32) | key[v][0]);
        MtKernelArg args[] = {{.i = seed}, arr(&c0, 1), arr(&c1, 1), arr(&c2, 1), arr(&c3, 1), arr(out, 4)};
        RUN_OK(c, k, 1, 1, args, 1);
        philox32(ctr[v], key[v][0], key[v][1], mine);
        for (int i = 0; i < 4; i++)
            ck_assert_msg(out[i] == want[v][i] && mine[i] == want[v][i], "vector %d word %d: got 0x%08x, want 0x%08x",
                          v, i, out[i], want[v][i]);
    }
    MtCompiled *k64 = compile_src(c, "philox64_kat", "*u64");
    uint64_t out64[4] = {0};
    MtKernelArg args64[] = {arr(out64, 4)};
    RUN_OK(c, k64, 1, 1, args64, 1);
    static const uint64_t want64[4] = {0x16554d9eca36314cu, 0xdb20fe9d672d0fdcu, 0xd7e772cee186176bu,
                                       0x7e68b68aec7ba23bu};
    for (int i = 0; i < 4; i++)
        ck_assert_msg(out64[i] == want64[i], "philox4x64 word %d: got 0x%016llx", i, (unsigned long long)out64[i]);
    mt_ctx_free(c);
}
END_TEST

static void check_streams(int64_t seed)
{
    enum { N = 64, G = 3, T = N * G };
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_src(c, "streams", "i32,*u32,*u32,*fp32,*fp32,*fp32,*fp32,*fp32,64");
    static uint32_t ints[T * 4], one[T];
    static float uni[T], nrm[T], uni4[T * 4], nrm4[T * 4], uni64[T];
    MtKernelArg args[] = {{.i = seed},      arr(ints, T * 4), arr(one, T),      arr(uni, T),
                          arr(nrm, T),      arr(uni4, T * 4), arr(nrm4, T * 4), arr(uni64, T)};
    RUN_OK(c, k, G, 1, args, 2);
    uint32_t lo = (uint32_t)(uint64_t)seed, hi = (uint32_t)((uint64_t)seed >> 32); /* seed.to(tl.uint64) */
    for (uint32_t o = 0; o < T; o++) {
        uint32_t ctr[4] = {o, 0, 0, 0}, r[4];
        philox32(ctr, lo, hi, r);
        float u[4], n[4];
        for (int i = 0; i < 4; i++) {
            ck_assert_msg(ints[o * 4 + i] == r[i], "seed %lld offset %u draw %d: got 0x%08x, want 0x%08x",
                          (long long)seed, o, i, ints[o * 4 + i], r[i]);
            u[i] = uniform32(r[i]);
        }
        normal_pair(u[0], u[1], n);
        normal_pair(u[2], u[3], n + 2);
        ck_assert_uint_eq(one[o], r[0]);
        ck_assert_msg(bits_of(uni[o]) == bits_of(u[0]) && uni[o] >= 0.0f && uni[o] < 1.0f,
                      "rand offset %u: got %.9g, want %.9g", o, (double)uni[o], (double)u[0]);
        ck_assert_msg(bits_of(nrm[o]) == bits_of(n[0]), "randn offset %u: got %.9g, want %.9g", o, (double)nrm[o],
                      (double)n[0]);
        assert_same_bits(uni4 + o * 4, u, 4, "rand4x");
        assert_same_bits(nrm4 + o * 4, n, 4, "randn4x");
        uint64_t ctr64[4] = {o, 0, 0, 0}, r64[4];
        philox64(ctr64, (uint64_t)seed, 0, r64); /* 64-bit counters: the key is (seed, 0) */
        ck_assert_msg(bits_of(uni64[o]) == bits_of(uniform64(r64[0])), "rand of i64 offset %u: got %.9g, want %.9g", o,
                      (double)uni64[o], (double)uniform64(r64[0]));
    }
    mt_ctx_free(c);
}

START_TEST(random_streams_are_tritons) { check_streams(123); }
END_TEST

START_TEST(random_streams_of_a_negative_seed) { check_streams(-5); }
END_TEST

/* Triton's low-memory dropout tutorial: the same mask for the same seed,
 * the reference's values bit for bit. */
START_TEST(tutorial_seeded_dropout)
{
    enum { N = 3000, BLOCK = 1024 };
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_src(c, "_seeded_dropout", "*fp32,*fp32,i32,fp32,i32,1024");
    float *x = random_floats(N, 4, -2, 2), out[N], again[N];
    const float p = 0.5f;
    MtKernelArg args[] = {arr(x, N), arr(out, N), i32(N), f32(p), i32(123)};
    RUN_OK(c, k, (N + BLOCK - 1) / BLOCK, 1, args, 2);
    MtKernelArg args2[] = {arr(x, N), arr(again, N), i32(N), f32(p), i32(123)};
    RUN_OK(c, k, (N + BLOCK - 1) / BLOCK, 1, args2, 1);
    assert_same_bits(again, out, N, "the same seed");
    int kept = 0;
    for (uint32_t o = 0; o < N; o++) {
        uint32_t ctr[4] = {o, 0, 0, 0}, r[4];
        philox32(ctr, 123, 0, r);
        float want = uniform32(r[0]) > p ? x[o] / (1.0f - p) : 0.0f;
        kept += uniform32(r[0]) > p;
        ck_assert_msg(bits_of(out[o]) == bits_of(want), "dropout[%u]: got %.9g, want %.9g", o, (double)out[o],
                      (double)want);
    }
    ck_assert_msg(kept > N * 45 / 100 && kept < N * 55 / 100, "kept %d of %d", kept, N);
    free(x);
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
    tcase_add_test(t, philox_known_answers);
    tcase_add_test(t, random_streams_are_tritons);
    tcase_add_test(t, random_streams_of_a_negative_seed);
    tcase_add_test(t, tutorial_seeded_dropout);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
