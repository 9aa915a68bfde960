/* check_reduce.c: reductions, scans and shape operations on the
 * interpreter against references computed here in C: tl.sum / max / min
 * along each axis of rank-2 and rank-3 blocks with keep_dims, Triton's
 * result dtypes (i8 sums as i32, u8 maxima as i32, f16 sums as f16),
 * argmax / argmin with ties, xor_sum, tl.reduce with a @jit combine
 * (tuples included), cumsum / cumprod / associative_scan with reverse,
 * reshape / view / ravel / trans / permute / x.T / broadcast_to /
 * expand_dims / x[None, :, None], rank-3 broadcasting, softmax,
 * zeros_like / full_like and compile-time tuple slices. */
#include "exec_test.h"

static const char *const SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def axes(x, o, M: tl.constexpr, N: tl.constexpr):\n"
    "    rm = tl.arange(0, M)\n"
    "    rn = tl.arange(0, N)\n"
    "    v = tl.load(x + rm[:, None] * N + rn[None, :])\n"
    "    tl.store(o + rm, tl.sum(v, axis=1))\n"
    "    tl.store(o + M + rn, tl.sum(v, axis=0))\n"
    "    tl.store(o + M + N + rm, tl.max(v, 1))\n"
    "    tl.store(o + 2 * M + N + rn, tl.min(v, axis=-2))\n"
    "    k = tl.max(v, axis=1, keep_dims=True)\n"
    "    tl.static_assert(k.shape[0] == M and k.shape[1] == 1)\n"
    "    tl.store(o + 2 * M + 2 * N + rm[:, None], k)\n"
    "    tl.store(o + 3 * M + 2 * N, tl.sum(v))\n"
    "    tl.store(o + 3 * M + 2 * N + 1 + rn[None, :], tl.sum(v, keep_dims=True))\n"
    "\n"
    "@triton.jit\n"
    "def dtypes(a, b, c, o8, ou, oh):\n"
    "    i = tl.arange(0, 8)\n"
    "    x = tl.load(a + i)\n"
    "    y = tl.load(b + i)\n"
    "    z = tl.load(c + i)\n"
    "    tl.static_assert(tl.sum(x).dtype == tl.int32)\n"
    "    tl.static_assert(tl.max(y).dtype == tl.int32)\n"
    "    tl.static_assert(tl.sum(z).dtype == tl.float16)\n"
    "    tl.static_assert(tl.max(z).dtype == tl.float32)\n"
    "    tl.static_assert(tl.sum(x, dtype=tl.int8).dtype == tl.int8)\n"
    "    tl.static_assert(tl.cumsum(x).dtype == tl.int32)\n"
    "    tl.static_assert(tl.xor_sum(y).dtype == tl.uint8)\n"
    "    tl.store(o8, tl.sum(x))\n"
    "    tl.store(o8 + 1, tl.sum(x, dtype=tl.int8))\n"
    "    tl.store(ou, tl.max(y))\n"
    "    tl.store(ou + 1, tl.xor_sum(y))\n"
    "    tl.store(oh, tl.sum(z))\n"
    "\n"
    "@triton.jit\n"
    "def args(x, o, ox, M: tl.constexpr, N: tl.constexpr):\n"
    "    rm = tl.arange(0, M)\n"
    "    rn = tl.arange(0, N)\n"
    "    v = tl.load(x + rm[:, None] * N + rn[None, :])\n"
    "    tl.store(o + rm, tl.argmax(v, axis=1))\n"
    "    tl.store(o + M + rm, tl.argmin(v, axis=1))\n"
    "    tl.store(o + 2 * M + rm, tl.argmax(v, axis=1, tie_break_left=False))\n"
    "    tl.store(o + 3 * M + rn, v.argmax(0))\n"
    "    mx, ix = tl.max(v, axis=1, return_indices=True)\n"
    "    tl.store(o + 3 * M + N + rm, ix)\n"
    "    tl.store(ox + rm, mx)\n"
    "\n"
    "@triton.jit\n"
    "def mul_combine(a, b):\n"
    "    return a * b\n"
    "\n"
    "@triton.jit\n"
    "def maxloc(v1, i1, v2, i2):\n"
    "    better = (v1 > v2) | ((v1 == v2) & (i1 > i2))\n"
    "    return tl.where(better, v1, v2), tl.where(better, i1, i2)\n"
    "\n"
    "@triton.jit\n"
    "def running_max(a, b):\n"
    "    return tl.maximum(a, b)\n"
    "\n"
    "@triton.jit\n"
    "def combines(x, o, oi, M: tl.constexpr, N: tl.constexpr):\n"
    "    rm = tl.arange(0, M)\n"
    "    rn = tl.arange(0, N)\n"
    "    v = tl.load(x + rm[:, None] * N + rn[None, :])\n"
    "    tl.store(o + rm, tl.reduce(v, 1, mul_combine))\n"
    "    idx = tl.broadcast_to(rn[None, :], M, N)\n"
    "    mv, mi = tl.reduce((v, idx), 1, maxloc)\n"
    "    tl.store(o + M + rm, mv)\n"
    "    tl.store(oi + rm, mi)\n"
    "    s = tl.associative_scan(v, 1, running_max)\n"
    "    tl.store(o + 2 * M + rm[:, None] * N + rn[None, :], s)\n"
    "    r = v.associative_scan(0, mul_combine, reverse=True)\n"
    "    tl.store(o + 2 * M + M * N + rm[:, None] * N + rn[None, :], r)\n"
    "    tl.store(o + 2 * M + 2 * M * N + rn, tl.reduce(v, 0, mul_combine, keep_dims=True).ravel())\n"
    "\n"
    "@triton.jit\n"
    "def scans(x, o, M: tl.constexpr, N: tl.constexpr):\n"
    "    rm = tl.arange(0, M)\n"
    "    rn = tl.arange(0, N)\n"
    "    off = rm[:, None] * N + rn[None, :]\n"
    "    v = tl.load(x + off)\n"
    "    tl.store(o + off, tl.cumsum(v, axis=1))\n"
    "    tl.store(o + M * N + off, tl.cumsum(v, axis=0, reverse=True))\n"
    "    tl.store(o + 2 * M * N + off, tl.cumprod(v, 1))\n"
    "    tl.store(o + 3 * M * N + off, v.cumprod(axis=0, reverse=True))\n"
    "\n"
    "@triton.jit\n"
    "def shapes(x, o, M: tl.constexpr, N: tl.constexpr):\n"
    "    rm = tl.arange(0, M)\n"
    "    rn = tl.arange(0, N)\n"
    "    v = tl.load(x + rm[:, None] * N + rn[None, :])\n"
    "    t = tl.trans(v)\n"
    "    tl.store(o + rn[:, None] * M + rm[None, :], t)\n"
    "    tl.store(o + M * N + rn[:, None] * M + rm[None, :], v.T * 2)\n"
    "    p = tl.permute(v, 1, 0)\n"
    "    tl.store(o + 2 * M * N + rn[:, None] * M + rm[None, :], p + 1)\n"
    "    f = tl.reshape(v, (M * N,))\n"
    "    tl.store(o + 3 * M * N + tl.arange(0, M * N), f)\n"
    "    w = v.view(N, M)\n"
    "    tl.store(o + 4 * M * N + rn[:, None] * M + rm[None, :], w)\n"
    "    b = tl.broadcast_to(tl.sum(v, axis=1)[:, None], (M, N))\n"
    "    tl.store(o + 5 * M * N + rm[:, None] * N + rn[None, :], b)\n"
    "    e = tl.expand_dims(rn, (0, 2))\n"
    "    tl.static_assert(len(e.shape) == 3 and e.shape[1] == N and e.shape[2] == 1)\n"
    "    g = rn[None, :, None]\n"
    "    tl.static_assert(g.shape == e.shape)\n"
    "    tl.static_assert(v.shape[:-1] == [M] and v.shape[::-1] == [N, M])\n"
    "    z = tl.zeros_like(v) + tl.full_like(v, 3) + tl.full_like(v, 1.5, dtype=tl.float16).to(tl.float32)\n"
    "    tl.store(o + 6 * M * N + rm[:, None] * N + rn[None, :], z)\n"
    "\n"
    "@triton.jit\n"
    "def rank3(x, o, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):\n"
    "    ra = tl.arange(0, A)\n"
    "    rb = tl.arange(0, B)\n"
    "    rc = tl.arange(0, C)\n"
    "    off = ra[:, None, None] * (B * C) + rb[None, :, None] * C + rc[None, None, :]\n"
    "    v = tl.load(x + off)\n"
    "    w = v * rb[None, :, None] + rc[None, None, :]\n"
    "    tl.store(o + off, w)\n"
    "    s = tl.sum(w, axis=1)\n"
    "    tl.store(o + A * B * C + ra[:, None] * C + rc[None, :], s)\n"
    "    m = tl.max(w, axis=2, keep_dims=True)\n"
    "    tl.store(o + A * B * C + A * C + ra[:, None, None] * B + rb[None, :, None], m)\n"
    "    q = tl.permute(w, 2, 0, 1)\n"
    "    tl.store(o + 2 * A * B * C + rc[:, None, None] * (A * B) + ra[None, :, None] * B + rb[None, None, :], q)\n"
    "    c = tl.cumsum(w, axis=0)\n"
    "    tl.store(o + 3 * A * B * C + off, c)\n"
    "\n"
    "@triton.jit\n"
    "def soft(x, o, M: tl.constexpr, N: tl.constexpr):\n"
    "    rm = tl.arange(0, M)\n"
    "    rn = tl.arange(0, N)\n"
    "    v = tl.load(x + rm[:, None] * N + rn[None, :])\n"
    "    tl.store(o + rm[:, None] * N + rn[None, :], tl.softmax(v, dim=1, keep_dims=True))\n"
    "    tl.store(o + M * N + rm[:, None] * N + rn[None, :], v.softmax(keep_dims=True))\n";

static MtCompiled *kern(MtCtx *c, const char *name, const char *sig) { return compile_text(c, "r.py", SRC, name, sig); }

enum { M = 4, N = 8 };

static void fill(float *v, int n, uint64_t seed)
{
    Rng r = {seed};
    for (int i = 0; i < n; i++)
        v[i] = (float)(int)rng_float(&r, -8, 8) * 0.5f; /* small exact values: ties happen */
}

START_TEST(sums_maxima_along_each_axis)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "axes", "*fp32,*fp32,4,8");
    float x[M * N], o[3 * M + 2 * N + 1 + N];
    fill(x, M * N, 1);
    MtKernelArg a[] = {arr(x, M * N), arr(o, sizeof o / sizeof o[0])};
    RUN_OK(c, k, 1, 1, a, 1);
    float total = 0;
    for (int i = 0; i < M; i++) {
        float s = 0, mx = -INFINITY;
        for (int j = 0; j < N; j++) {
            s += x[i * N + j];
            mx = fmaxf(mx, x[i * N + j]);
        }
        ck_assert_float_eq(o[i], s); /* small halves: every order gives the exact sum */
        ck_assert_float_eq(o[M + N + i], mx);
        ck_assert_float_eq(o[2 * M + 2 * N + i], mx);
        total += s;
    }
    for (int j = 0; j < N; j++) {
        float s = 0, mn = INFINITY;
        for (int i = 0; i < M; i++) {
            s += x[i * N + j];
            mn = fminf(mn, x[i * N + j]);
        }
        ck_assert_float_eq(o[M + j], s);
        ck_assert_float_eq(o[2 * M + N + j], mn);
    }
    ck_assert_float_eq(o[3 * M + 2 * N], total);
    for (int j = 0; j < N; j++)
        ck_assert_float_eq(o[3 * M + 2 * N + 1 + j], total);
    mt_ctx_free(c);
}
END_TEST

START_TEST(result_dtypes_follow_triton)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "dtypes", "*i8,*u8,*fp16,*i32,*i32,*fp16");
    int8_t a[8] = {100, 100, 100, 100, -3, 2, 1, 0};
    uint8_t b[8] = {200, 3, 255, 7, 9, 1, 0, 4};
    uint16_t h[8], oh[1];
    for (int i = 0; i < 8; i++)
        h[i] = mt_f32_to_f16(1000.0f + (float)i);
    int32_t o8[2], ou[2];
    MtKernelArg args[] = {arr(a, 8), arr(b, 8), arr(h, 8), arr(o8, 2), arr(ou, 2), arr(oh, 1)};
    RUN_OK(c, k, 1, 1, args, 1);
    ck_assert_int_eq(o8[0], 400);          /* summed in i32: no wrap */
    ck_assert_int_eq(o8[1], (int8_t)400);  /* dtype=tl.int8 wraps */
    ck_assert_int_eq(ou[0], 255);
    ck_assert_int_eq(ou[1], 200 ^ 3 ^ 255 ^ 7 ^ 9 ^ 1 ^ 0 ^ 4);
    /* f16 sums in f16, rounding each step of the tree */
    float s[8];
    for (int i = 0; i < 8; i++)
        s[i] = mt_f16_to_f32(h[i]);
    for (int w = 4; w >= 1; w /= 2)
        for (int i = 0; i < w; i++)
            s[i] = mt_f16_to_f32(mt_f32_to_f16(s[i] + s[i + w]));
    ck_assert_uint_eq(oh[0], mt_f32_to_f16(s[0]));
    mt_ctx_free(c);
}
END_TEST

START_TEST(argmax_argmin_ties)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "args", "*fp32,*i32,*fp32,4,8");
    float x[M * N] = {1, 5, 5, 2, 0, 5, -1, 3,  /* max 5 at 1, 2, 5 */
                      -2, -2, 0, 0, 1, 1, -2, 1, /* min -2 at 0, 1, 6 */
                      7, 6, 5, 4, 3, 2, 1, 0,     2, 2, 2, 2, 2, 2, 2, 2};
    int32_t o[3 * M + N + M];
    float ox[M];
    MtKernelArg a[] = {arr(x, M * N), arr(o, sizeof o / sizeof o[0]), arr(ox, M)};
    RUN_OK(c, k, 1, 1, a, 1);
    int amax[M] = {1, 4, 0, 0}, amin[M] = {6, 0, 7, 0};
    for (int i = 0; i < M; i++) {
        ck_assert_int_eq(o[i], amax[i]);
        ck_assert_int_eq(o[M + i], amin[i]);
        ck_assert_int_eq(o[3 * M + N + i], amax[i]);
        ck_assert_float_eq(ox[i], x[i * N + amax[i]]);
    }
    /* row 0: max 5 at indices 1, 2, 5; row 3: all equal. Without the
     * left tie-break the tree picks one of them */
    ck_assert(o[2 * M] == 1 || o[2 * M] == 2 || o[2 * M] == 5);
    ck_assert(o[2 * M + 3] >= 0 && o[2 * M + 3] < N);
    for (int j = 0; j < N; j++) {
        int best = 0;
        for (int i = 1; i < M; i++)
            if (x[i * N + j] > x[best * N + j])
                best = i;
        ck_assert_int_eq(o[3 * M + j], best);
    }
    mt_ctx_free(c);
}
END_TEST

START_TEST(reduce_and_scan_with_combine_functions)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "combines", "*fp32,*fp32,*i32,4,8");
    float x[M * N], o[2 * M + 2 * M * N + N];
    int32_t oi[M];
    fill(x, M * N, 7);
    for (int i = 0; i < M * N; i++)
        if (x[i] == 0)
            x[i] = 0.5f;
    MtKernelArg a[] = {arr(x, M * N), arr(o, sizeof o / sizeof o[0]), arr(oi, M)};
    RUN_OK(c, k, 1, 1, a, 1);
    for (int i = 0; i < M; i++) {
        /* the tree: pairs (j, j+4), then (j, j+2), then (0, 1) */
        float t[N];
        for (int j = 0; j < N; j++)
            t[j] = x[i * N + j];
        for (int w = N / 2; w >= 1; w /= 2)
            for (int j = 0; j < w; j++)
                t[j] = t[j] * t[j + w];
        ck_assert_float_eq(o[i], t[0]);
        int best = 0;
        for (int j = 1; j < N; j++)
            if (x[i * N + j] >= x[i * N + best])
                best = j; /* maxloc prefers the larger index on ties */
        ck_assert_float_eq(o[M + i], x[i * N + best]);
        ck_assert_int_eq(oi[i], best);
        float run = -INFINITY;
        for (int j = 0; j < N; j++) {
            run = fmaxf(run, x[i * N + j]);
            ck_assert_float_eq(o[2 * M + i * N + j], run);
        }
    }
    for (int j = 0; j < N; j++) {
        float p = 1;
        for (int i = M - 1; i >= 0; i--) {
            p = i == M - 1 ? x[i * N + j] : p * x[i * N + j];
            ck_assert_float_eq(o[2 * M + M * N + i * N + j], p);
        }
        float t[M];
        for (int i = 0; i < M; i++)
            t[i] = x[i * N + j];
        for (int w = M / 2; w >= 1; w /= 2)
            for (int i = 0; i < w; i++)
                t[i] = t[i] * t[i + w];
        ck_assert_float_eq(o[2 * M + 2 * M * N + j], t[0]);
    }
    mt_ctx_free(c);
}
END_TEST

START_TEST(cumsum_cumprod_both_ways)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "scans", "*fp32,*fp32,4,8");
    float x[M * N], o[4 * M * N];
    fill(x, M * N, 3);
    MtKernelArg a[] = {arr(x, M * N), arr(o, sizeof o / sizeof o[0])};
    RUN_OK(c, k, 1, 1, a, 1);
    for (int i = 0; i < M; i++) {
        float s = 0, p = 1;
        for (int j = 0; j < N; j++) {
            s = j ? s + x[i * N + j] : x[i * N + j];
            p = j ? p * x[i * N + j] : x[i * N + j];
            ck_assert_float_eq(o[i * N + j], s);
            ck_assert_float_eq(o[2 * M * N + i * N + j], p);
        }
    }
    for (int j = 0; j < N; j++) {
        float s = 0, p = 1;
        for (int i = M - 1; i >= 0; i--) {
            s = i == M - 1 ? x[i * N + j] : s + x[i * N + j];
            p = i == M - 1 ? x[i * N + j] : p * x[i * N + j];
            ck_assert_float_eq(o[M * N + i * N + j], s);
            ck_assert_float_eq(o[3 * M * N + i * N + j], p);
        }
    }
    mt_ctx_free(c);
}
END_TEST

START_TEST(reshape_permute_broadcast)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "shapes", "*fp32,*fp32,4,8");
    float x[M * N], o[7 * M * N];
    for (int i = 0; i < M * N; i++)
        x[i] = (float)i;
    MtKernelArg a[] = {arr(x, M * N), arr(o, sizeof o / sizeof o[0])};
    RUN_OK(c, k, 1, 1, a, 1);
    for (int i = 0; i < M; i++) {
        float s = 0;
        for (int j = 0; j < N; j++)
            s += x[i * N + j];
        for (int j = 0; j < N; j++) {
            float v = x[i * N + j];
            ck_assert_float_eq(o[j * M + i], v);
            ck_assert_float_eq(o[M * N + j * M + i], 2 * v);
            ck_assert_float_eq(o[2 * M * N + j * M + i], v + 1);
            ck_assert_float_eq(o[3 * M * N + i * N + j], v);
            ck_assert_float_eq(o[4 * M * N + i * N + j], v); /* the view keeps the row-major order */
            ck_assert_float_eq(o[5 * M * N + i * N + j], s);
            ck_assert_float_eq(o[6 * M * N + i * N + j], 4.5f);
        }
    }
    mt_ctx_free(c);
}
END_TEST

START_TEST(rank3_blocks)
{
    enum { A = 2, B = 4, C = 8 };
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "rank3", "*fp32,*fp32,2,4,8");
    float x[A * B * C], o[4 * A * B * C];
    fill(x, A * B * C, 11);
    MtKernelArg args[] = {arr(x, A * B * C), arr(o, sizeof o / sizeof o[0])};
    RUN_OK(c, k, 1, 1, args, 2);
    float w[A][B][C];
    for (int a = 0; a < A; a++)
        for (int b = 0; b < B; b++)
            for (int cc = 0; cc < C; cc++) {
                w[a][b][cc] = x[(a * B + b) * C + cc] * (float)b + (float)cc;
                ck_assert_float_eq(o[(a * B + b) * C + cc], w[a][b][cc]);
                ck_assert_float_eq(o[2 * A * B * C + (cc * A + a) * B + b], w[a][b][cc]);
            }
    for (int a = 0; a < A; a++)
        for (int cc = 0; cc < C; cc++) {
            float t[B];
            for (int b = 0; b < B; b++)
                t[b] = w[a][b][cc];
            for (int h = B / 2; h >= 1; h /= 2)
                for (int b = 0; b < h; b++)
                    t[b] = t[b] + t[b + h];
            ck_assert_float_eq(o[A * B * C + a * C + cc], t[0]);
        }
    for (int a = 0; a < A; a++)
        for (int b = 0; b < B; b++) {
            float m = -INFINITY;
            for (int cc = 0; cc < C; cc++)
                m = fmaxf(m, w[a][b][cc]);
            ck_assert_float_eq(o[A * B * C + A * C + a * B + b], m);
        }
    for (int b = 0; b < B; b++)
        for (int cc = 0; cc < C; cc++) {
            float s = 0;
            for (int a = 0; a < A; a++) {
                s = a ? s + w[a][b][cc] : w[a][b][cc];
                ck_assert_float_eq(o[3 * A * B * C + (a * B + b) * C + cc], s);
            }
        }
    mt_ctx_free(c);
}
END_TEST

START_TEST(softmax_rows)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtCompiled *k = kern(c, "soft", "*fp32,*fp32,4,8");
    float x[M * N], o[2 * M * N];
    Rng r = {5};
    for (int i = 0; i < M * N; i++)
        x[i] = rng_float(&r, -4, 4);
    MtKernelArg a[] = {arr(x, M * N), arr(o, sizeof o / sizeof o[0])};
    RUN_OK(c, k, 1, 1, a, 1);
    for (int i = 0; i < M; i++) {
        double mx = -INFINITY, s = 0;
        for (int j = 0; j < N; j++)
            mx = fmax(mx, x[i * N + j]);
        for (int j = 0; j < N; j++)
            s += exp(x[i * N + j] - mx);
        for (int j = 0; j < N; j++)
            ck_assert_double_eq_tol(o[i * N + j], exp(x[i * N + j] - mx) / s, 1e-6);
    }
    for (int j = 0; j < N; j++) {
        double mx = -INFINITY, s = 0;
        for (int i = 0; i < M; i++)
            mx = fmax(mx, x[i * N + j]);
        for (int i = 0; i < M; i++)
            s += exp(x[i * N + j] - mx);
        for (int i = 0; i < M; i++)
            ck_assert_double_eq_tol(o[M * N + i * N + j], exp(x[i * N + j] - mx) / s, 1e-6);
    }
    mt_ctx_free(c);
}
END_TEST

static void expect_error(const char *body, const char *sig, const char *code, const char *text)
{
    char src[2048];
    snprintf(src, sizeof src,
             "import triton\nimport triton.language as tl\n@triton.jit\ndef bad(a, b, c, d):\n    return a\n"
             "@triton.jit\ndef k(x, o):\n    i = tl.arange(0, 8)\n    v = tl.load(x + i)\n%s",
             body);
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    ck_assert_int_eq(mt_parse(c, "e.py", src, strlen(src), &m), MT_OK);
    MtSpec spec = {.kernel = "k", .signature = sig};
    MtCompiled *k;
    ck_assert_int_ne(mt_compile(c, m, &spec, &k), MT_OK);
    const char *d = all_diags(c);
    ck_assert_msg(strstr(d, code) && strstr(d, text), "want %s '%s', got %s", code, text, d);
    mt_ctx_free(c);
}

START_TEST(errors)
{
    expect_error("    tl.store(o, tl.sum(v, axis=1))\n", "*fp32,*fp32", "E0408",
                 "tl.sum axis 1 is out of range for vector<8 x f32>");
    expect_error("    tl.store(o, tl.xor_sum(v))\n", "*fp32,*fp32", "E0408", "tl.xor_sum needs integers");
    expect_error("    tl.store(o, tl.reduce((v, v), 0, bad)[0])\n", "*fp32,*fp32", "E0408",
                 "the combine function of tl.reduce returns 1 value for 2 operands");
    expect_error("    tl.store(o + i, tl.reshape(v, (4, 4)).ravel())\n", "*fp32,*fp32", "E0418",
                 "cannot reshape vector<8 x f32> (8 elements) to (4, 4) (16 elements)");
    expect_error("    tl.store(o + i, tl.permute(v, 1, 0))\n", "*fp32,*fp32", "E0418",
                 "tl.permute order (1, 0) is not a permutation of the 1 dimensions");
    expect_error("    tl.store(o + i, tl.broadcast_to(v, (2, 8)))\n", "*fp32,*fp32", "E0418",
                 "cannot broadcast vector<8 x f32> to (2, 8)");
    expect_error("    tl.store(o + i, v.T)\n", "*fp32,*fp32", "E0418", ".T transposes rank-2 blocks");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("reduce");
    TCase *t = tcase_create("reduce");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, sums_maxima_along_each_axis);
    tcase_add_test(t, result_dtypes_follow_triton);
    tcase_add_test(t, argmax_argmin_ties);
    tcase_add_test(t, reduce_and_scan_with_combine_functions);
    tcase_add_test(t, cumsum_cumprod_both_ways);
    tcase_add_test(t, reshape_permute_broadcast);
    tcase_add_test(t, rank3_blocks);
    tcase_add_test(t, softmax_rows);
    tcase_add_test(t, errors);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
