/* check_discover.c: the specialisation discovery (api/discover.c,
 * api/host.c, api/host_eval.c) on real-style Triton host code: launches
 * with keywords and positional arguments, the dtypes of the tensors they
 * pass, @triton.autotune configs (literal lists, a host function that
 * returns them, comprehensions), @triton.heuristics, defaults, the
 * precedence of the `# mytriton:` comment and of tool values, dtype and
 * string values, and the I0901 fix that proposes values which compile. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mytriton/mytriton.h"

typedef struct Disc {
    MtCtx *c;
    MtModule *m;
    const MtDiscovery *d;
} Disc;

static Disc discover_with(const char *src, const char *kernel, const MtDiscoverOptions *opt)
{
    Disc x = {mt_ctx_new(NULL), NULL, NULL};
    ck_assert_ptr_nonnull(x.c);
    ck_assert_int_eq(mt_parse(x.c, "k.py", src, strlen(src), &x.m), MT_OK);
    ck_assert_int_eq(mt_discover(x.c, x.m, kernel, opt, &x.d), MT_OK);
    ck_assert_ptr_nonnull(x.d);
    return x;
}

static Disc discover(const char *src, const char *kernel) { return discover_with(src, kernel, NULL); }

static const MtFound *param(const Disc *x, const char *name)
{
    for (uint32_t i = 0; i < x->d->nparams; i++)
        if (!strcmp(x->d->params[i].name, name))
            return &x->d->params[i];
    ck_abort_msg("no parameter %s", name);
    return NULL;
}

static void check_value(const Disc *x, const char *name, MtOrigin o, const char *value)
{
    const MtFound *f = param(x, name);
    ck_assert_msg(f->origin == o, "%s: origin %s, expected %s", name, mt_origin_name(f->origin), mt_origin_name(o));
    if (value)
        ck_assert_str_eq(f->value, value);
    else
        ck_assert_ptr_null(f->value);
}

static const char *defines(const Disc *x)
{
    static char buf[1024]; /* test-only scratch */
    buf[0] = 0;
    for (size_t i = 0; i < x->d->spec.ndefines; i++) {
        size_t n = strlen(buf);
        snprintf(buf + n, sizeof buf - n, "%s%s=%s", i ? " " : "", x->d->spec.defines[i].name,
                 x->d->spec.defines[i].value);
    }
    return buf;
}

/* The kernel compiles (through the layouts) for the discovered spec. */
static void check_compiles(Disc *x)
{
    MtSpec spec = x->d->spec;
    spec.last_stage = MT_STAGE_LAYOUT;
    MtCompiled *k;
    MtStatus st = mt_compile(x->c, x->m, &spec, &k);
    for (size_t i = 0; st != MT_OK && i < mt_diag_count(x->c); i++)
        fprintf(stderr, "%s\n", mt_diag_render(x->c, mt_diag_at(x->c, i), false));
    ck_assert_int_eq(st, MT_OK);
}

static const char add_src[] =
    "import torch\n"
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "\n"
    "@triton.jit\n"
    "def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):\n"
    "    pid = tl.program_id(axis=0)\n"
    "    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
    "    mask = offsets < n_elements\n"
    "    x = tl.load(x_ptr + offsets, mask=mask)\n"
    "    y = tl.load(y_ptr + offsets, mask=mask)\n"
    "    tl.store(output_ptr + offsets, x + y, mask=mask)\n"
    "\n"
    "\n"
    "def add(x: torch.Tensor, y: torch.Tensor):\n"
    "    output = torch.empty_like(x)\n"
    "    n_elements = output.numel()\n"
    "    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )\n"
    "    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)\n"
    "    return output\n"
    "\n"
    "\n"
    "torch.manual_seed(0)\n"
    "size = 98432\n"
    "x = torch.rand(size, device='cuda')\n"
    "y = torch.rand(size, device='cuda')\n"
    "output_triton = add(x, y)\n";

/* Triton's first tutorial: the launch gives BLOCK_SIZE, and the tensors
 * (torch.rand, empty_like) are fp32; n_elements is an int. */
START_TEST(launch_keywords_and_argument_types)
{
    Disc x = discover(add_src, "add_kernel");
    ck_assert_uint_eq(x.d->nlaunches, 1);
    ck_assert_uint_eq(x.d->launch.line, 20);
    check_value(&x, "BLOCK_SIZE", MT_ORIGIN_LAUNCH, "1024");
    ck_assert_str_eq(param(&x, "BLOCK_SIZE")->where, "the launch at line 20");
    ck_assert_str_eq(param(&x, "BLOCK_SIZE")->detail, "BLOCK_SIZE=1024");
    const MtFound *out = param(&x, "output_ptr");
    ck_assert_int_eq(out->origin, MT_ORIGIN_LAUNCH);
    ck_assert_str_eq(out->type, "*fp32");
    ck_assert_str_eq(out->detail, "output");
    ck_assert_str_eq(out->seen, "a tensor of fp32");
    ck_assert_str_eq(param(&x, "x_ptr")->type, "*fp32");
    ck_assert_str_eq(param(&x, "n_elements")->type, "i32");
    ck_assert_uint_eq(x.d->nmissing, 0);
    ck_assert_str_eq(x.d->spec.signature, "*fp32,*fp32,*fp32,i32");
    ck_assert_str_eq(defines(&x), "BLOCK_SIZE=1024");
    check_compiles(&x);
    mt_ctx_free(x.c);
}
END_TEST

static const char matmul_src[] =
    "import torch\n"
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "def get_cuda_autotune_config():\n"
    "    return [\n"
    "        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 256, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8},\n"
    "                      num_stages=3, num_warps=8),\n"
    "        triton.Config({'BLOCK_SIZE_M': 32, 'BLOCK_SIZE_N': 32, 'BLOCK_SIZE_K': 32, 'GROUP_SIZE_M': 8},\n"
    "                      num_stages=5, num_warps=2),\n"
    "    ]\n"
    "\n"
    "def get_autotune_config():\n"
    "    return get_cuda_autotune_config()\n"
    "\n"
    "@triton.autotune(configs=get_autotune_config(), key=['M', 'N', 'K'])\n"
    "@triton.jit\n"
    "def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,\n"
    "                  stride_cm, stride_cn, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,\n"
    "                  BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr, ACTIVATION: tl.constexpr):\n"
    "    pid = tl.program_id(axis=0)\n"
    "\n"
    "def matmul(a, b, activation=\"\"):\n"
    "    M, K = a.shape\n"
    "    K, N = b.shape\n"
    "    c = torch.empty((M, N), device=a.device, dtype=torch.float16)\n"
    "    grid = lambda META: (triton.cdiv(M, META['BLOCK_SIZE_M']) * triton.cdiv(N, META['BLOCK_SIZE_N']), )\n"
    "    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),\n"
    "                        c.stride(0), c.stride(1), ACTIVATION=activation)\n"
    "    return c\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    a = torch.randn((512, 512), device='cuda', dtype=torch.float16)\n"
    "    b = torch.randn((512, 512), device='cuda', dtype=torch.float16)\n"
    "    triton_output = matmul(a, b, activation='leaky_relu')\n";

/* Triton's matmul tutorial: configs from a host function, a string
 * constexpr from the wrapper's caller, fp16 tensors recorded but (until
 * the compiler has fp16) left to inference, strides and sizes are ints. */
START_TEST(autotune_configs_from_a_host_function)
{
    Disc x = discover(matmul_src, "matmul_kernel");
    ck_assert_uint_eq(x.d->nconfigs, 2);
    ck_assert_uint_eq(x.d->config, 0);
    ck_assert_uint_eq(x.d->config_span.line, 7);
    ck_assert_str_eq(x.d->config_text,
                     "BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, GROUP_SIZE_M=8, num_stages=3, num_warps=8");
    check_value(&x, "BLOCK_SIZE_M", MT_ORIGIN_AUTOTUNE, "128");
    check_value(&x, "GROUP_SIZE_M", MT_ORIGIN_AUTOTUNE, "8");
    ck_assert_str_eq(param(&x, "BLOCK_SIZE_N")->where, "autotune config 1 of 2");
    check_value(&x, "ACTIVATION", MT_ORIGIN_LAUNCH, "'leaky_relu'");
    const MtFound *c = param(&x, "c_ptr");
    ck_assert_str_eq(c->detail, "c");
    ck_assert_str_eq(c->seen, "a tensor of fp16");
    /* Either the compiler knows fp16 (then it is the type), or it is
     * recorded as not compilable yet and the parameter is inferred. */
    ck_assert_msg((c->type && !strcmp(c->type, "*fp16") && !c->unsupported_type) ||
                      (!c->type && c->unsupported_type && !strcmp(c->unsupported_type, "*fp16")),
                  "c_ptr: type %s, unsupported %s", c->type ? c->type : "-",
                  c->unsupported_type ? c->unsupported_type : "-");
    ck_assert_str_eq(param(&x, "a_ptr")->detail, "a");
    ck_assert_str_eq(param(&x, "stride_am")->detail, "a.stride(0)");
    ck_assert_str_eq(param(&x, "stride_am")->seen, "an int");
    ck_assert_str_eq(param(&x, "M")->type, "i32");
    ck_assert_str_eq(param(&x, "stride_cn")->type, "i32");
    mt_ctx_free(x.c);

    MtDiscoverOptions opt = {.config = 1};
    x = discover_with(matmul_src, "matmul_kernel", &opt);
    ck_assert_uint_eq(x.d->config, 1);
    check_value(&x, "BLOCK_SIZE_M", MT_ORIGIN_AUTOTUNE, "32");
    ck_assert_str_eq(param(&x, "BLOCK_SIZE_N")->where, "autotune config 2 of 2");
    mt_ctx_free(x.c);
    opt.config = 7; /* clamped to the last */
    x = discover_with(matmul_src, "matmul_kernel", &opt);
    ck_assert_uint_eq(x.d->config, 1);
    mt_ctx_free(x.c);
}
END_TEST

static const char softmax_src[] =
    "import numpy as np\n"
    "import triton\n"
    "import triton.language as tl\n"
    "from triton import Config\n"
    "\n"
    "configs = [Config({'BLOCK': b}, num_warps=w) for b in [64, 128] for w in (4, 8) if b * w <= 512]\n"
    "\n"
    "@triton.autotune(configs, key=['n_cols'])\n"
    "@triton.heuristics({'EVEN': lambda args: args['n_cols'] % args['BLOCK'] == 0,\n"
    "                    'ROWS': lambda args: triton.next_power_of_2(args['n_rows'])})\n"
    "@triton.jit\n"
    "def softmax(out_ptr, in_ptr, n_rows, n_cols, BLOCK: tl.constexpr, EVEN: tl.constexpr,\n"
    "            ROWS: tl.constexpr, SCALE: tl.constexpr = 1.0):\n"
    "    pass\n"
    "\n"
    "def run(x):\n"
    "    y = np.empty_like(x)\n"
    "    softmax[(x.shape[0],)](y, x.astype(np.float32), 100, 256)\n"
    "\n"
    "run(np.random.randn(100, 256).astype(np.float32))\n";

/* A comprehension of configs, heuristics evaluated on the launch's
 * literal arguments and the config's values, numpy arrays, a default. */
START_TEST(comprehensions_heuristics_and_numpy)
{
    Disc x = discover(softmax_src, "softmax");
    ck_assert_uint_eq(x.d->nconfigs, 3); /* (64,4) (64,8) (128,4): b * w <= 512 */
    ck_assert_str_eq(x.d->config_text, "BLOCK=64, num_warps=4");
    check_value(&x, "BLOCK", MT_ORIGIN_AUTOTUNE, "64");
    check_value(&x, "EVEN", MT_ORIGIN_HEURISTICS, "True");
    check_value(&x, "ROWS", MT_ORIGIN_HEURISTICS, "128");
    check_value(&x, "SCALE", MT_ORIGIN_DEFAULT, "1.0");
    ck_assert_str_eq(param(&x, "in_ptr")->type, "*fp32");
    ck_assert_str_eq(param(&x, "out_ptr")->detail, "y");
    ck_assert_str_eq(param(&x, "out_ptr")->seen, "a tensor of fp32");
    ck_assert_str_eq(param(&x, "n_rows")->type, "i32");
    ck_assert_str_eq(defines(&x), "BLOCK=64 EVEN=True ROWS=128");
    mt_ctx_free(x.c);
    MtDiscoverOptions opt = {.config = 2};
    x = discover_with(softmax_src, "softmax", &opt);
    check_value(&x, "BLOCK", MT_ORIGIN_AUTOTUNE, "128");
    check_value(&x, "EVEN", MT_ORIGIN_HEURISTICS, "True");
    mt_ctx_free(x.c);
}
END_TEST

/* Triton's fused-attention tutorial: configs from a comprehension whose
 * num_stages depend on `is_hip()` (the target is CUDA), filtered by a host
 * function that reads the Config's kwargs and options and returns under an
 * `if`; and the matmul tutorial's `if is_cuda(): return ...` choice. */
static const char filtered_src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "def is_hip():\n"
    "    return triton.runtime.driver.active.get_current_target().backend == 'hip'\n"
    "\n"
    "def is_cuda():\n"
    "    return triton.runtime.driver.active.get_current_target().backend == 'cuda'\n"
    "\n"
    "configs = [\n"
    "    triton.Config({'BLOCK_M': BM, 'BLOCK_N': BN}, num_stages=s, num_warps=w) \\\n"
    "    for BM in [64, 128]\\\n"
    "    for BN in [32, 64]\\\n"
    "    for s in ([1] if is_hip() else [3, 4, 7])\\\n"
    "    for w in [4, 8]\\\n"
    "]\n"
    "\n"
    "def keep(conf):\n"
    "    BLOCK_M = conf.kwargs['BLOCK_M']\n"
    "    BLOCK_N = conf.kwargs['BLOCK_N']\n"
    "    if (BLOCK_M * BLOCK_N < 128 * 128 and conf.num_warps == 8):\n"
    "        return False\n"
    "    return True\n"
    "\n"
    "def pick():\n"
    "    if is_hip():\n"
    "        return [triton.Config({'BLOCK_M': 16, 'BLOCK_N': 16})]\n"
    "    if is_cuda(): return [c for c in filter(keep, configs) if c.num_stages == 7]\n"
    "    return []\n"
    "\n"
    "@triton.autotune(list(filter(keep, configs)), key=['N'])\n"
    "@triton.jit\n"
    "def attn(x, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):\n"
    "    pass\n"
    "\n"
    "@triton.autotune(pick(), key=['N'])\n"
    "@triton.jit\n"
    "def stages_7(x, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):\n"
    "    pass\n";

START_TEST(filtered_configs_and_conditional_returns)
{
    Disc x = discover(filtered_src, "attn");
    /* 24 configs, less the 12 with 8 warps (every tile is under 128x128) */
    ck_assert_uint_eq(x.d->nconfigs, 12);
    ck_assert_str_eq(x.d->config_text, "BLOCK_M=64, BLOCK_N=32, num_stages=3, num_warps=4");
    check_value(&x, "BLOCK_M", MT_ORIGIN_AUTOTUNE, "64");
    mt_ctx_free(x.c);
    MtDiscoverOptions opt = {.config = 11};
    x = discover_with(filtered_src, "attn", &opt);
    ck_assert_str_eq(x.d->config_text, "BLOCK_M=128, BLOCK_N=64, num_stages=7, num_warps=4");
    mt_ctx_free(x.c);
    x = discover(filtered_src, "stages_7");
    ck_assert_uint_eq(x.d->nconfigs, 4);
    ck_assert_str_eq(x.d->config_text, "BLOCK_M=64, BLOCK_N=32, num_stages=7, num_warps=4");
    mt_ctx_free(x.c);
}
END_TEST

static const char precedence_src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "# mytriton: A=1 sig=*i32\n"
    "@triton.autotune([triton.Config({'A': 2, 'B': 2, 'C': 2, 'D': 2})], key=[])\n"
    "@triton.jit\n"
    "def k(x, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, F: tl.constexpr, G: tl.constexpr, H,\n"
    "      D: tl.constexpr = 4, E: tl.constexpr = 5):\n"
    "    pass\n"
    "\n"
    "def go(t):\n"
    "    k[(1,)](t.half(), A=3, B=3, H=2.5)\n"
    "    k[(1,)](t, A=9)\n";

/* Signature and comment first, then tool values, the launch, the config,
 * the default, the fallback; a positional tensor converted by .half(). */
START_TEST(precedence)
{
    MtGiven given[] = {
        {"C", "6", "-D", MT_GIVEN_OVERRIDE},
        {"A", "7", "mytriton.json", MT_GIVEN_KERNEL},
        {"B", "7", "mytriton.json", MT_GIVEN_KERNEL},
        {"E", "8", "the editor settings", MT_GIVEN_FALLBACK},
        {"F", "8", "the editor settings", MT_GIVEN_FALLBACK},
        {"H", "8", "the editor settings", MT_GIVEN_FALLBACK},
    };
    MtDiscoverOptions opt = {.given = given, .ngiven = 6, .signature = "*fp32,,,,,,i32", .signature_origin = "x"};
    Disc x = discover_with(precedence_src, "k", &opt);
    ck_assert_uint_eq(x.d->nlaunches, 2);
    const MtFound *p = param(&x, "x");
    ck_assert_int_eq(p->origin, MT_ORIGIN_SIGNATURE); /* the comment's sig= beats the tool's */
    ck_assert_str_eq(p->type, "*i32");
    check_value(&x, "A", MT_ORIGIN_DIRECTIVE, "1");
    check_value(&x, "B", MT_ORIGIN_GIVEN, "7");
    check_value(&x, "C", MT_ORIGIN_OVERRIDE, "6");
    check_value(&x, "D", MT_ORIGIN_AUTOTUNE, "2");
    check_value(&x, "E", MT_ORIGIN_DEFAULT, "5");
    check_value(&x, "F", MT_ORIGIN_FALLBACK, "8");
    ck_assert_str_eq(param(&x, "F")->where, "the editor settings");
    check_value(&x, "G", MT_ORIGIN_NONE, NULL);
    /* a runtime parameter: the tool's signature entry beats the launch's
     * float (and fallbacks are for constexprs only) */
    const MtFound *h = param(&x, "H");
    ck_assert_int_eq(h->origin, MT_ORIGIN_SIGNATURE);
    ck_assert_str_eq(h->type, "i32");
    ck_assert_uint_eq(x.d->nmissing, 1);
    ck_assert_str_eq(x.d->spec.signature, "*i32,,,,,,i32");
    ck_assert_str_eq(defines(&x), "A=1 B=7 C=6 F=8 D=2");
    mt_ctx_free(x.c);
}
END_TEST

/* Nothing gives BLOCK_M / BLOCK_N: I0901, and the fix proposes the largest
 * power of two that compiles (a 128x128 tile is over 1024 threads). */
START_TEST(fix_proposes_values_that_compile)
{
    static const char src[] =
        "import triton\n"
        "import triton.language as tl\n"
        "\n"
        "\n"
        "@triton.jit\n"
        "def tile(x, out, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, EVEN_N: tl.constexpr):\n"
        "    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)\n"
        "    cols = tl.arange(0, BLOCK_N)\n"
        "    mask = (rows[:, None] < M) & (cols[None, :] < N)\n"
        "    offs = rows[:, None] * stride + cols[None, :]\n"
        "    tl.store(out + offs, tl.load(x + offs, mask=mask, other=0.0) * 2.0, mask=mask)\n";
    Disc x = discover(src, "tile");
    ck_assert_uint_eq(x.d->nmissing, 3);
    MtSpec spec = x.d->spec;
    MtCompiled *k;
    ck_assert_int_eq(mt_compile(x.c, x.m, &spec, &k), MT_ERR_USAGE);
    const MtDiag *i0901 = NULL;
    for (size_t i = 0; i < mt_diag_count(x.c); i++)
        if (!strcmp(mt_diag_at(x.c, i)->code, "I0901") && !i0901)
            i0901 = mt_diag_at(x.c, i);
    ck_assert_ptr_nonnull(i0901);
    const MtQueryFix *fix;
    ck_assert_uint_eq(mt_discover_fix(x.c, x.m, x.d, i0901, 0, &fix), 1);
    ck_assert_str_eq(fix->title, "Specialise with `# mytriton: BLOCK_M=128 BLOCK_N=128 EVEN_N=False` (compiles)");
    ck_assert_ptr_eq(fix->diag, i0901);
    ck_assert_uint_eq(fix->nedits, 1);
    ck_assert_uint_eq(fix->edits[0].off, strstr(src, "@triton.jit") - src);
    ck_assert_str_eq(fix->edits[0].text, "# mytriton: BLOCK_M=128 BLOCK_N=128 EVEN_N=False\n");
    /* the fixed file compiles */
    char fixed[2048];
    size_t at = fix->edits[0].off;
    snprintf(fixed, sizeof fixed, "%.*s%s%s", (int)at, src, fix->edits[0].text, src + at);
    Disc y = discover(fixed, "tile");
    ck_assert_uint_eq(y.d->nmissing, 0);
    check_compiles(&y);
    mt_ctx_free(y.c);
    mt_ctx_free(x.c);
}
END_TEST

/* The first I0901 of x's compile. */
static const MtDiag *first_i0901(Disc *x)
{
    MtSpec spec = x->d->spec;
    MtCompiled *k;
    ck_assert_int_eq(mt_compile(x->c, x->m, &spec, &k), MT_ERR_USAGE);
    for (size_t i = 0; i < mt_diag_count(x->c); i++)
        if (!strcmp(mt_diag_at(x->c, i)->code, "I0901"))
            return mt_diag_at(x->c, i);
    ck_abort_msg("no I0901");
    return NULL;
}

/* Pointers typed *fp32 from their use fail tl.dot's dtype rule whatever
 * BLOCK is (the kernel computes in f16): the fix tries them as fp16, says
 * so, and the fixed file compiles. A comment that gives a signature
 * already is not second-guessed. */
START_TEST(fix_guesses_pointer_dtypes_for_a_dtype_rule)
{
    static const char src[] =
        "import triton\n"
        "import triton.language as tl\n"
        "\n"
        "\n"
        "@triton.jit\n"
        "def mm(a, n, b, c, BLOCK: tl.constexpr):\n"
        "    r = tl.arange(0, BLOCK)\n"
        "    offs = r[:, None] * BLOCK + r[None, :]\n"
        "    p = tl.load(a + offs).to(tl.float16)\n"
        "    acc = tl.dot(p, tl.load(b + offs))\n"
        "    tl.store(c + offs, acc, mask=offs < n)\n";
    Disc x = discover(src, "mm");
    const MtDiag *i0901 = first_i0901(&x);
    const MtQueryFix *fix;
    ck_assert_uint_eq(mt_discover_fix(x.c, x.m, x.d, i0901, 0, &fix), 1);
    /* c, whose store follows the failed dot, is left to its use (and
     * *fp32 takes the f32 result) */
    ck_assert_str_eq(fix->edits[0].text, "# mytriton: BLOCK=128 sig=*fp16,,*fp16\n");
    ck_assert_str_eq(fix->guess, "a and b point to fp16");
    ck_assert_str_eq(fix->title, "Specialise with `# mytriton: BLOCK=128 sig=*fp16,,*fp16` (compiles; guessed: a and "
                                 "b point to fp16)");
    char fixed[2048];
    size_t at = fix->edits[0].off;
    snprintf(fixed, sizeof fixed, "%.*s%s%s", (int)at, src, fix->edits[0].text, src + at);
    Disc y = discover(fixed, "mm");
    ck_assert_uint_eq(y.d->nmissing, 0);
    ck_assert_str_eq(param(&y, "b")->type, "*fp16");
    ck_assert_ptr_null(param(&y, "n")->type);
    ck_assert_ptr_null(param(&y, "c")->type);
    check_compiles(&y);
    mt_ctx_free(y.c);
    mt_ctx_free(x.c);

    /* sig= in the comment: no guess, and no candidate compiles */
    snprintf(fixed, sizeof fixed, "%.*s# mytriton: sig=*fp32\n%s", (int)at, src, src + at);
    Disc z = discover(fixed, "mm");
    i0901 = first_i0901(&z);
    ck_assert_uint_eq(mt_discover_fix(z.c, z.m, z.d, i0901, 0, &fix), 0);
    mt_ctx_free(z.c);
}
END_TEST

/* Host code that cannot be read gives nothing, quietly. */
START_TEST(unreadable_host_code_is_quiet)
{
    static const char src[] =
        "import triton\n"
        "import triton.language as tl\n"
        "@triton.autotune(configs=make_configs(), key=[])\n"
        "@triton.heuristics(values=HEURISTICS)\n"
        "@triton.jit\n"
        "def k(x, BLOCK: tl.constexpr):\n"
        "    pass\n"
        "def f(n):\n"
        "    k[grid](*args, BLOCK=n)\n"
        "    k[grid](x, BLOCK=f(n))\n"
        "x = = 3\n";
    Disc x = discover(src, "k");
    ck_assert_uint_eq(x.d->nconfigs, 0);
    ck_assert_uint_eq(x.d->nlaunches, 2);
    check_value(&x, "BLOCK", MT_ORIGIN_NONE, NULL);
    ck_assert_uint_eq(mt_diag_count(x.c), 0);
    ck_assert_int_eq(mt_discover(x.c, x.m, "nope", NULL, &x.d), MT_ERR_USAGE);
    mt_ctx_free(x.c);
}
END_TEST

static const char values_src[] =
    "import torch\n"
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "# mytriton: NAME='two words'\n"
    "@triton.jit\n"
    "def k(x, y, n, DTYPE: tl.constexpr, ACC: tl.constexpr, ACTIVATION: tl.constexpr, NAME: tl.constexpr,\n"
    "      OUT: tl.constexpr, BLOCK: tl.constexpr = 64):\n"
    "    o = tl.arange(0, BLOCK)\n"
    "    v = tl.load(x + o, mask=o < n).to(ACC)\n"
    "    if ACTIVATION == 'leaky_relu':\n"
    "        v = tl.where(v >= 0, v, v * 0.125)\n"
    "    tl.store(y + o, (v + len(NAME)).to(DTYPE).to(OUT), mask=o < n)\n"
    "\n"
    "def go(x, y):\n"
    "    k[(1,)](x, y, x.numel(), DTYPE=torch.float16, ACC=tl.float32, ACTIVATION='leaky_relu')\n";

/* Dtype and string values from a launch, the comment and the tool's
 * signature are read by the compiler's rule: a launch's dtype is written
 * tl.NAME, a signature entry tl.bfloat16 is a value (not a type), and a
 * quoted value with a space stays one item of the comment. */
START_TEST(dtype_and_string_values)
{
    MtDiscoverOptions opt = {.signature = ",,,,,,,tl.bfloat16", .signature_origin = "mytriton.json"};
    Disc x = discover_with(values_src, "k", &opt);
    check_value(&x, "DTYPE", MT_ORIGIN_LAUNCH, "tl.float16");
    check_value(&x, "ACC", MT_ORIGIN_LAUNCH, "tl.float32");
    check_value(&x, "ACTIVATION", MT_ORIGIN_LAUNCH, "'leaky_relu'");
    check_value(&x, "NAME", MT_ORIGIN_DIRECTIVE, "'two words'");
    const MtFound *out = param(&x, "OUT");
    ck_assert_int_eq(out->origin, MT_ORIGIN_SIGNATURE);
    ck_assert_str_eq(out->value, "tl.bfloat16");
    ck_assert_ptr_null(out->type);
    ck_assert_uint_eq(x.d->nmissing, 0);
    MtSpec spec = x.d->spec;
    spec.last_stage = MT_STAGE_SSA;
    MtCompiled *kc;
    MtStatus st = mt_compile(x.c, x.m, &spec, &kc);
    for (size_t i = 0; st != MT_OK && i < mt_diag_count(x.c); i++)
        fprintf(stderr, "%s\n", mt_diag_render(x.c, mt_diag_at(x.c, i), false));
    ck_assert_int_eq(st, MT_OK);
    ck_assert_str_eq(mt_compiled_signature(x.c, kc),
                     "*fp32,*fp32,i32,tl.float16,tl.float32,'leaky_relu','two words',tl.bfloat16,64");
    mt_ctx_free(x.c);
}
END_TEST

static Suite *discover_suite(void)
{
    Suite *s = suite_create("discover");
    TCase *tc = tcase_create("discover");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, launch_keywords_and_argument_types);
    tcase_add_test(tc, autotune_configs_from_a_host_function);
    tcase_add_test(tc, comprehensions_heuristics_and_numpy);
    tcase_add_test(tc, filtered_configs_and_conditional_returns);
    tcase_add_test(tc, precedence);
    tcase_add_test(tc, fix_proposes_values_that_compile);
    tcase_add_test(tc, fix_guesses_pointer_dtypes_for_a_dtype_rule);
    tcase_add_test(tc, unreadable_host_code_is_quiet);
    tcase_add_test(tc, dtype_and_string_values);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(discover_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
