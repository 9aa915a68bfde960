/* check_language.c: the rest of Triton's API that real kernels use (issue
 * 12), on the interpreter, against references computed here in C:
 * Python's min() and max() on runtime values (tl.minimum / tl.maximum, as
 * Triton's code generator maps them), tl.dot on f16 and bf16 operands
 * (accumulated in f32), and the random numbers: tl.philox against the
 * published Philox4x32-10 and 4x64-10 known answers, tl.randint4x /
 * randint / rand / randn / rand4x / randn4x against a Philox written here
 * (bit for bit: the interpreter's f32 math is the C library's), and
 * Triton's low-memory dropout tutorial kernel; atomics (every operation,
 * dtype and mask, on several threads at once, Triton's float max/min
 * order, the old values they return) and the layer-norm backward tutorial
 * kernel with its spin lock; tl.device_print (and print()) lines as
 * Triton writes them, in program order on several threads, and
 * tl.device_assert's R0708. */
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
    "def dot_precision(a, b, ieee, tf32, x3):\n"
    "    m = tl.arange(0, 16)\n"
    "    x = tl.load(a + m[:, None] * 16 + m[None, :])\n"
    "    y = tl.load(b + m[:, None] * 16 + m[None, :])\n"
    "    tl.store(ieee + m[:, None] * 16 + m[None, :], tl.dot(x, y))\n"
    "    tl.store(tf32 + m[:, None] * 16 + m[None, :], tl.dot(x, y, input_precision=\"tf32\"))\n"
    "    tl.store(x3 + m[:, None] * 16 + m[None, :], tl.dot(x, y, allow_tf32=False))\n"
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
    "    tl.store(output_ptr + offsets, output, mask=mask)\n"
    "\n"
    "@triton.jit\n"
    "def counters(out, olds, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(olds + offs, tl.atomic_add(out + offs % 4, 1))\n"
    "    (out + 4).atomic_add(0.5 * (offs % 8), mask=offs % 2 == 0)\n"
    "\n"
    "@triton.jit\n"
    "def rmw(mem, val, olds, cmp, N: tl.constexpr, OP: tl.constexpr):\n"
    "    i = tl.arange(0, N)\n"
    "    v = tl.load(val + i)\n"
    "    m = i != 3\n"
    "    if OP == 'add':\n"
    "        o = tl.atomic_add(mem + i % 2, v, mask=m)\n"
    "    elif OP == 'max':\n"
    "        o = tl.atomic_max(mem + i % 2, v, mask=m, sem='relaxed')\n"
    "    elif OP == 'min':\n"
    "        o = tl.atomic_min(mem + i % 2, v, mask=m, scope='cta')\n"
    "    elif OP == 'and':\n"
    "        o = tl.atomic_and(mem + i % 2, v, mask=m)\n"
    "    elif OP == 'or':\n"
    "        o = tl.atomic_or(mem + i % 2, v, mask=m)\n"
    "    elif OP == 'xor':\n"
    "        o = tl.atomic_xor(mem + i % 2, v, mask=m)\n"
    "    elif OP == 'xchg':\n"
    "        o = tl.atomic_xchg(mem + i % 2, v, mask=m, sem='acquire', scope='sys')\n"
    "    else:\n"
    "        o = tl.atomic_cas(mem + i % 2, tl.load(cmp + i), v, sem='release')\n"
    "    tl.store(olds + i, o)\n"
    "\n"
    "@triton.jit\n"
    "def bad_atomic(p, q):\n"
    "    tl.atomic_add(p, 1, sem='seq_cst')\n"
    "\n"
    "@triton.jit\n"
    "def bad_atomic_dtype(p, OP: tl.constexpr):\n"
    "    if OP == 'max':\n"
    "        tl.atomic_max(p, 1.0)\n"
    "    else:\n"
    "        tl.atomic_and(p, 1)\n"
    "\n"
    "# Triton's tutorial 05 (layer norm), its backward kernel as written there\n"
    "@triton.jit\n"
    "def _layer_norm_bwd_dx_fused(DX,  # pointer to the input gradient\n"
    "                             DY,  # pointer to the output gradient\n"
    "                             DW,  # pointer to the partial sum of weights gradient\n"
    "                             DB,  # pointer to the partial sum of biases gradient\n"
    "                             X,  # pointer to the input\n"
    "                             W,  # pointer to the weights\n"
    "                             Mean,  # pointer to the mean\n"
    "                             Rstd,  # pointer to the 1/std\n"
    "                             Lock,  # pointer to the lock\n"
    "                             stride,  # how much to increase the pointer when moving by 1 row\n"
    "                             N,  # number of columns in X\n"
    "                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):\n"
    "    # Map the program id to the elements of X, DX, and DY it should compute.\n"
    "    row = tl.program_id(0)\n"
    "    cols = tl.arange(0, BLOCK_SIZE_N)\n"
    "    mask = cols < N\n"
    "    X += row * stride\n"
    "    DY += row * stride\n"
    "    DX += row * stride\n"
    "    # Offset locks and weights/biases gradient pointer for parallel reduction\n"
    "    lock_id = row % GROUP_SIZE_M\n"
    "    Lock += lock_id\n"
    "    Count = Lock + GROUP_SIZE_M\n"
    "    DW = DW + lock_id * N + cols\n"
    "    DB = DB + lock_id * N + cols\n"
    "    # Load data to SRAM\n"
    "    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)\n"
    "    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)\n"
    "    w = tl.load(W + cols, mask=mask).to(tl.float32)\n"
    "    mean = tl.load(Mean + row)\n"
    "    rstd = tl.load(Rstd + row)\n"
    "    # Compute dx\n"
    "    xhat = (x - mean) * rstd\n"
    "    wdy = w * dy\n"
    "    xhat = tl.where(mask, xhat, 0.)\n"
    "    wdy = tl.where(mask, wdy, 0.)\n"
    "    c1 = tl.sum(xhat * wdy, axis=0) / N\n"
    "    c2 = tl.sum(wdy, axis=0) / N\n"
    "    dx = (wdy - (xhat * c1 + c2)) * rstd\n"
    "    # Write dx\n"
    "    tl.store(DX + cols, dx, mask=mask)\n"
    "    # Accumulate partial sums for dw/db\n"
    "    partial_dw = (dy * xhat).to(w.dtype)\n"
    "    partial_db = (dy).to(w.dtype)\n"
    "    while tl.atomic_cas(Lock, 0, 1) == 1:\n"
    "        pass\n"
    "    count = tl.load(Count)\n"
    "    # First store doesn't accumulate\n"
    "    if count == 0:\n"
    "        tl.atomic_xchg(Count, 1)\n"
    "    else:\n"
    "        partial_dw += tl.load(DW, mask=mask)\n"
    "        partial_db += tl.load(DB, mask=mask)\n"
    "    tl.store(DW, partial_dw, mask=mask)\n"
    "    tl.store(DB, partial_db, mask=mask)\n"
    "\n"
    "    # need a barrier to ensure all threads finished before\n"
    "    # releasing the lock\n"
    "    tl.debug_barrier()\n"
    "\n"
    "    # Release the lock\n"
    "    tl.atomic_xchg(Lock, 0)\n"
    "\n"
    "@triton.jit\n"
    "def show(x_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    x = tl.load(x_ptr + offs, mask=offs < n, other=0)\n"
    "    tl.device_print('x', x)\n"
    "    print('sum', tl.sum(x), offs.to(tl.uint8) + 250, hex=True)\n"
    "    tl.device_assert(x < 7, 'x is too big', mask=offs < n)\n"
    "    b = tl.reshape(offs, (2, BLOCK // 2))\n"
    "    if tl.program_id(0) == 0:\n"
    "        tl.device_print('', b)\n";

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

/* input_precision="tf32": each operand rounded to TF32 (10 mantissa bits,
 * ties away from zero, cvt.rna), the products summed in f32; "ieee" and
 * allow_tf32=False in full f32. */
START_TEST(dot_tf32_rounds_the_operands)
{
    enum { N = 16 };
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_src(c, "dot_precision", "*fp32,*fp32,*fp32,*fp32,*fp32");
    float a[N * N], b[N * N], ieee[N * N], tf32[N * N], full[N * N];
    for (int i = 0; i < N * N; i++) {
        /* 1 + 2^-12 rounds down to 1, 1 + 3 * 2^-12 up to 1 + 2^-10, and
         * 1 + 2^-11 (a tie) away from zero to 1 + 2^-10; the sign of -1.5
         * is kept */
        static const float vals[4] = {1.0f + 0x1p-12f, 1.0f + 0x3p-12f, -(1.0f + 0x1p-11f), -1.5f};
        a[i] = vals[i % 4];
        b[i] = (i / N) == (i % N) ? 1.0f : 0.0f; /* the identity: c = a */
    }
    MtKernelArg args[] = {arr(a, N * N), arr(b, N * N), arr(ieee, N * N), arr(tf32, N * N), arr(full, N * N)};
    RUN_OK(c, k, 1, 1, args, 1);
    static const float want[4] = {1.0f, 1.0f + 0x1p-10f, -(1.0f + 0x1p-10f), -1.5f};
    for (int i = 0; i < N * N; i++) {
        ck_assert_msg(ieee[i] == a[i] && full[i] == a[i], "ieee c[%d]: got %a and %a, want %a", i, (double)ieee[i],
                      (double)full[i], (double)a[i]);
        ck_assert_msg(tf32[i] == want[i % 4], "tf32 c[%d]: got %a, want %a", i, (double)tf32[i], (double)want[i % 4]);
    }
    /* the SSA says which dot is which */
    const char *ssa = mt_compiled_text(c, k, MT_STAGE_SSA);
    ck_assert_msg(strstr(ssa, "{precision=tf32}") && strstr(ssa, "dot") , "%s", ssa);
    mt_ctx_free(c);
}
END_TEST

START_TEST(dot_precision_errors)
{
    MtCtx *c = mt_ctx_new(NULL);
    static const char *const bad[][2] = {
        {"tl.dot(x, y, input_precision=\"fp8\")", "input_precision \"fp8\" is not one of"},
        {"tl.dot(x, y, input_precision=\"tf32\", allow_tf32=True)", "input_precision or allow_tf32, not both"},
        {"tl.dot(x, y, input_precision=3)", "input_precision must be a string"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "import triton\nimport triton.language as tl\n@triton.jit\ndef k(a, o):\n"
                 "    m = tl.arange(0, 16)\n    x = tl.load(a + m[:, None] * 16 + m[None, :])\n    y = x\n"
                 "    tl.store(o + m[:, None] * 16 + m[None, :], %s)\n",
                 bad[i][0]);
        MtModule *m = NULL;
        MtCompiled *k = NULL;
        ck_assert_int_eq(mt_parse(c, "p.py", src, strlen(src), &m), MT_OK);
        MtSpec spec = {.signature = "*fp32,*fp32"};
        ck_assert_int_ne(mt_compile(c, m, &spec, &k), MT_OK);
        ck_assert_msg(strstr(all_diags(c), bad[i][1]) && strstr(all_diags(c), "E0410"), "%s: %s", bad[i][0],
                      all_diags(c));
    }
    mt_ctx_free(c);
}
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

/* ---- atomics ---------------------------------------------------------------------- */

/* 256 programs on 4 threads add 1 to four counters: each counter ends at
 * 256 * 16 / 4 and the old values it handed out are 0 .. that - 1, each
 * once; a masked add of f32 values converted to the i32 pointee. */
START_TEST(atomic_add_on_threads)
{
    enum { P = 256, B = 16, T = P * B, PER = T / 4 };
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_src(c, "counters", "*i32,*i32,16");
    int32_t out[5] = {0}, *olds = malloc(T * sizeof *olds);
    uint8_t *seen = calloc(4 * PER, 1);
    MtKernelArg args[] = {arr(out, 5), arr(olds, T)};
    RUN_OK(c, k, P, 1, args, 4);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(out[i], PER);
    for (int o = 0; o < T; o++) {
        int ctr = o % 4;
        ck_assert_msg(olds[o] >= 0 && olds[o] < PER && !seen[ctr * PER + olds[o]], "old value %d of lane %d", olds[o],
                      o);
        seen[ctr * PER + olds[o]] = 1;
    }
    /* even lanes add 0.5 * (offs % 8) = 0, 1, 2, 3 (converted to i32): 6 per 8 lanes */
    ck_assert_int_eq(out[4], T / 8 * 6);
    free(olds);
    free(seen);
    mt_ctx_free(c);
}
END_TEST

enum { RN = 8 };

/* One launch of rmw (one program: lanes in order) on two memory words. */
static void run_rmw(const char *op, const char *ty, void *mem, const void *val, void *olds, const void *cmp,
                    size_t esize)
{
    MtCtx *c = mt_ctx_new(NULL);
    char sig[128];
    snprintf(sig, sizeof sig, "*%s,*%s,*%s,*%s,8,'%s'", ty, ty, ty, ty, op);
    MtCompiled *k = compile_src(c, "rmw", sig);
    char zero[RN * 8] = {0};
    MtKernelArg args[] = {arr(mem, 2), arr((void *)val, RN), arr(olds, RN), arr(cmp ? (void *)cmp : zero, RN)};
    (void)esize;
    RUN_OK(c, k, 1, 1, args, 1);
    mt_ctx_free(c);
}

/* Integer operations against plain C, lane by lane (lane 3 masked off: no
 * effect, old value 0). */
START_TEST(atomic_integer_operations)
{
    static const char *const ops[] = {"add", "max", "min", "and", "or", "xor", "xchg", "cas"};
    const int32_t val[RN] = {5, -7, 100, 9, -2, 0x7fffffff, 3, 1};
    const int32_t cmp[RN] = {10, -3, 15, 0, 0, -7, 7, 0};
    for (int o = 0; o < 8; o++) {
        int32_t mem[2] = {10, -3}, olds[RN], want[2] = {10, -3}, wold[RN];
        run_rmw(ops[o], "i32", mem, val, olds, cmp, 4);
        for (int i = 0; i < RN; i++) {
            int32_t *w = &want[i % 2], v = val[i];
            if (i == 3 && o != 7) {
                wold[i] = 0;
                continue;
            }
            wold[i] = *w;
            switch (o) {
            case 0: *w = (int32_t)((uint32_t)*w + (uint32_t)v); break;
            case 1: *w = v > *w ? v : *w; break;
            case 2: *w = v < *w ? v : *w; break;
            case 3: *w &= v; break;
            case 4: *w |= v; break;
            case 5: *w ^= v; break;
            case 6: *w = v; break;
            default: *w = *w == cmp[i] ? v : *w; break;
            }
        }
        for (int i = 0; i < RN; i++)
            ck_assert_msg(olds[i] == wold[i], "atomic_%s lane %d: old %d, want %d", ops[o], i, olds[i], wold[i]);
        ck_assert_msg(mem[0] == want[0] && mem[1] == want[1], "atomic_%s: memory %d %d, want %d %d", ops[o], mem[0],
                      mem[1], want[0], want[1]);
    }
    /* unsigned max and min compare as unsigned; i64 adds wrap in 64 bits */
    uint32_t umem[2] = {5, 5}, uval[RN] = {0xfffffff0u, 1, 7, 0, 3, 9, 2, 4}, uold[RN];
    run_rmw("max", "u32", umem, uval, uold, NULL, 4);
    ck_assert_uint_eq(umem[0], 0xfffffff0u);
    ck_assert_uint_eq(umem[1], 9);
    run_rmw("min", "u32", umem, uval, uold, NULL, 4);
    ck_assert_uint_eq(umem[0], 2);
    ck_assert_uint_eq(umem[1], 1);
    int64_t lmem[2] = {INT64_MAX, 0}, lval[RN] = {1, 2, 3, 4, 5, 6, 7, 8}, lold[RN];
    run_rmw("add", "i64", lmem, lval, lold, NULL, 8);
    ck_assert(lmem[0] == INT64_MIN + 15 && lmem[1] == 2 + 6 + 8);
    ck_assert(lold[2] == INT64_MIN && lold[3] == 0);
}
END_TEST

/* Floats: add rounds once per lane in the element type; max and min order
 * as Triton's lowering does (by the bits: -0.0 < 0.0); f16 and bf16 add;
 * cas compares bits. */
START_TEST(atomic_float_operations)
{
    float mem[2] = {0.0f, -0.0f}, olds[RN];
    const float val[RN] = {-0.0f, 0.0f, 1.5f, 99.0f, -2.0f, -1.0f, 0.25f, -3.0f};
    run_rmw("max", "fp32", mem, val, olds, NULL, 4);
    /* word 0: 0.0 then -0.0 (stays 0.0), 1.5, -2, 0.25 -> 1.5; word 1: -0.0, 0.0 -> 0.0, -1, -3 -> 0.0 */
    ck_assert(bits_of(mem[0]) == bits_of(1.5f) && bits_of(mem[1]) == bits_of(0.0f));
    ck_assert(bits_of(olds[0]) == bits_of(0.0f) && bits_of(olds[1]) == bits_of(-0.0f) && olds[3] == 0.0f);
    float mn[2] = {0.0f, -0.0f};
    run_rmw("min", "fp32", mn, val, olds, NULL, 4);
    /* word 0: 0.0, -0.0 -> -0.0, 1.5, -2 -> -2, 0.25; word 1: -0.0, 0.0 (stays -0.0), -1, -3 -> -3 */
    ck_assert(bits_of(mn[0]) == bits_of(-2.0f) && bits_of(mn[1]) == bits_of(-3.0f));
    ck_assert(bits_of(olds[2]) == bits_of(-0.0f) && bits_of(olds[5]) == bits_of(-0.0f));
    float add[2] = {1.0f, 0.0f};
    const float tiny[RN] = {0x1p-24f, 1.0f, 0x1p-24f, 5.0f, 0x1p-24f, 2.0f, 0x1p-24f, 3.0f};
    run_rmw("add", "fp32", add, tiny, olds, NULL, 4);
    ck_assert(add[0] == 1.0f && add[1] == 6.0f); /* 1 + 2^-24 rounds to 1 each time, in f32 */
    _Float16 h[2] = {2048, 0}, hv[RN] = {1, 1, 1, 1, 1, 1, 1, 1}, hold[RN];
    run_rmw("add", "fp16", h, hv, hold, NULL, 2);
    ck_assert(h[0] == 2048 && h[1] == 3); /* 2048 + 1 rounds to even (2048) in f16 */
    uint16_t b[2] = {0x3f80 /* 1.0 */, 0}, bv[RN], bold[RN];
    for (int i = 0; i < RN; i++)
        bv[i] = 0x3f80;
    run_rmw("add", "bf16", b, bv, bold, NULL, 2);
    ck_assert_uint_eq(b[0], 0x40a0); /* 1 + 4 = 5.0 */
    ck_assert_uint_eq(bold[6], 0x4080); /* 4.0 before the last add (lanes 0, 2, 4, 6 add to word 0) */
    double d[2] = {0.5, 1e300}, dv[RN] = {1, 2, 3, 4, 5, 6, 7, 8}, dold[RN];
    run_rmw("max", "fp64", d, dv, dold, NULL, 8);
    ck_assert(d[0] == 7.0 && d[1] == 1e300);
    float cm[2] = {-0.0f, 2.0f}, cv[RN] = {5, 6, 7, 8, 9, 10, 11, 12}, cc[RN] = {0.0f, 2.0f, -0.0f, 0, 0, 6.0f, 0, 0};
    run_rmw("cas", "fp32", cm, cv, olds, cc, 4);
    /* lane 0: 0.0 is not -0.0 bit for bit: no swap; lane 2: swaps in 7; lane 1: 2 -> 6; lane 5: 6 -> 10 */
    ck_assert(cm[0] == 7.0f && cm[1] == 10.0f);
}
END_TEST

START_TEST(atomic_errors)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m = NULL;
    MtCompiled *k = NULL;
    ck_assert_int_eq(mt_parse(c, "language.py", SRC, strlen(SRC), &m), MT_OK);
    static const struct {
        const char *kernel, *sig, *want;
    } cases[] = {
        {"bad_atomic", "*i32,*i32", "memory semantic 'seq_cst' is not supported; use one of 'acq_rel', 'acquire'"},
        {"bad_atomic_dtype", "*fp16,'max'", "tl.atomic_max does not support f16 memory; it takes f16 and bf16 only in"},
        {"bad_atomic_dtype", "*fp32,'and'", "tl.atomic_and does not support f32 memory; it takes integers"},
        {"bad_atomic_dtype", "*i8,'and'", "tl.atomic_and does not support i8 memory"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        MtSpec spec = {.kernel = cases[i].kernel, .signature = cases[i].sig};
        ck_assert_int_ne(mt_compile(c, m, &spec, &k), MT_OK);
        ck_assert_msg(strstr(all_diags(c), cases[i].want), "%s: %s", cases[i].sig, all_diags(c));
    }
    mt_ctx_free(c);
}
END_TEST

/* Triton's layer-norm backward kernel: 96 rows share 4 buffers under spin
 * locks (tl.atomic_cas / tl.atomic_xchg), on 4 threads: dx as the
 * reference computes it, DW and DB the sums of their rows' partial
 * products (in whatever order the locks gave), every lock released and
 * every count 1. */
START_TEST(tutorial_layer_norm_backward)
{
    enum { M = 96, N = 50, G = 4, BN = 64 };
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_src(c, "_layer_norm_bwd_dx_fused",
                                "*fp32,*fp32,*fp32,*fp32,*fp32,*fp32,*fp32,*fp32,*i32,i32,i32,4,64");
    float *x = random_floats(M * N, 1, -2, 2), *dy = random_floats(M * N, 2, -1, 1), *w = random_floats(N, 3, 0, 1);
    float mean[M], rstd[M], *dx = calloc(M * N, sizeof *dx), dw[G * N] = {0}, db[G * N] = {0};
    int32_t locks[2 * G] = {0};
    for (int r = 0; r < M; r++) {
        double s = 0, q = 0;
        for (int j = 0; j < N; j++)
            s += x[r * N + j];
        mean[r] = (float)(s / N);
        for (int j = 0; j < N; j++)
            q += (x[r * N + j] - mean[r]) * (x[r * N + j] - mean[r]);
        rstd[r] = (float)(1 / sqrt(q / N + 1e-5));
    }
    MtKernelArg args[] = {arr(dx, M * N), arr(dy, M * N), arr(dw, G * N), arr(db, G * N), arr(x, M * N), arr(w, N),
                          arr(mean, M),   arr(rstd, M),   arr(locks, 2 * G), i32(N), i32(N)};
    RUN_OK(c, k, M, 1, args, 4);
    double rdw[G * N] = {0}, rdb[G * N] = {0};
    for (int r = 0; r < M; r++) {
        double c1 = 0, c2 = 0, xh[N], wd[N];
        for (int j = 0; j < N; j++) {
            xh[j] = (x[r * N + j] - mean[r]) * rstd[r];
            wd[j] = (double)w[j] * dy[r * N + j];
            c1 += xh[j] * wd[j];
            c2 += wd[j];
        }
        c1 /= N;
        c2 /= N;
        for (int j = 0; j < N; j++) {
            double want = (wd[j] - (xh[j] * c1 + c2)) * rstd[r];
            ck_assert_msg(fabs(dx[r * N + j] - want) <= 1e-4 + 1e-4 * fabs(want), "dx[%d][%d]: %g, want %g", r, j,
                          (double)dx[r * N + j], want);
            rdw[(r % G) * N + j] += dy[r * N + j] * xh[j];
            rdb[(r % G) * N + j] += dy[r * N + j];
        }
    }
    assert_close(dw, rdw, G * N, 1e-4, 1e-4, "dw");
    assert_close(db, rdb, G * N, 1e-4, 1e-4, "db");
    for (int i = 0; i < G; i++)
        ck_assert_msg(locks[i] == 0 && locks[G + i] == 1, "lock %d: %d, count %d", i, locks[i], locks[G + i]);
    free(x);
    free(dy);
    free(w);
    free(dx);
    mt_ctx_free(c);
}
END_TEST

/* ---- device_print, device_assert ----------------------------------------------------- */

typedef struct Printed {
    char text[8192];
    int calls;
} Printed;

static void keep(void *ud, const char *text, size_t len)
{
    Printed *p = ud;
    ck_assert_uint_lt(len, sizeof p->text);
    memcpy(p->text, text, len);
    p->text[len] = 0;
    p->calls++;
}

/* Triton's format (its PrintOp lowering and device_print's prefix shaping),
 * programs in order although 3 threads run them. */
START_TEST(device_print_lines)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_src(c, "show", "*fp32,i32,4");
    float x[12];
    for (int i = 0; i < 12; i++)
        x[i] = (float)i * 0.5f;
    Printed out = {0};
    MtKernelArg args[] = {arr(x, 12), i32(12)};
    int64_t grid[3] = {3, 1, 1};
    MtInterpOptions opt = {.threads = 3, .print = keep, .print_ud = &out};
    ck_assert_int_eq(mt_interpret(c, k, grid, args, 2, &opt), MT_OK);
    ck_assert_int_eq(out.calls, 1);
    const char *want = "pid (0, 0, 0) idx (0) x: 0.000000\n"
                       "pid (0, 0, 0) idx (1) x: 0.500000\n"
                       "pid (0, 0, 0) idx (2) x: 1.000000\n"
                       "pid (0, 0, 0) idx (3) x: 1.500000\n"
                       "pid (0, 0, 0) idx () sum: (operand 0) 0x40400000\n"
                       "pid (0, 0, 0) idx (0) sum: (operand 1) 0xfa\n"
                       "pid (0, 0, 0) idx (1) sum: (operand 1) 0xfb\n"
                       "pid (0, 0, 0) idx (2) sum: (operand 1) 0xfc\n"
                       "pid (0, 0, 0) idx (3) sum: (operand 1) 0xfd\n"
                       "pid (0, 0, 0) idx (0, 0): 0\n"
                       "pid (0, 0, 0) idx (0, 1): 1\n"
                       "pid (0, 0, 0) idx (1, 0): 2\n"
                       "pid (0, 0, 0) idx (1, 1): 3\n"
                       "pid (1, 0, 0) idx (0) x: 2.000000\n";
    ck_assert_msg(!strncmp(out.text, want, strlen(want)), "got:\n%s", out.text);
    ck_assert_msg(strstr(out.text, "pid (2, 0, 0) idx (3) sum: (operand 1) 0x05\n") &&
                      out.text[strlen(out.text) - 1] == '\n',
                  "got:\n%s", out.text);
    mt_ctx_free(c);
}
END_TEST

START_TEST(device_assert_fails_with_r0708)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = compile_src(c, "show", "*fp32,i32,4");
    float x[12];
    for (int i = 0; i < 12; i++)
        x[i] = (float)i;
    MtKernelArg args[] = {arr(x, 12), i32(12)};
    ck_assert_int_eq(run(c, k, 3, 1, args, 2, 2), MT_ERR_SOURCE);
    ck_assert_msg(strstr(all_diags(c), "device assertion failed in show at language.py:") &&
                      strstr(all_diags(c), ", program (1, 0, 0), element 3: x is too big [R0708]"),
                  "%s", all_diags(c));
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
    tcase_add_test(t, dot_tf32_rounds_the_operands);
    tcase_add_test(t, dot_precision_errors);
    tcase_add_test(t, philox_known_answers);
    tcase_add_test(t, random_streams_are_tritons);
    tcase_add_test(t, random_streams_of_a_negative_seed);
    tcase_add_test(t, tutorial_seeded_dropout);
    tcase_add_test(t, atomic_add_on_threads);
    tcase_add_test(t, atomic_integer_operations);
    tcase_add_test(t, atomic_float_operations);
    tcase_add_test(t, atomic_errors);
    tcase_add_test(t, tutorial_layer_norm_backward);
    tcase_add_test(t, device_print_lines);
    tcase_add_test(t, device_assert_fails_with_r0708);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
