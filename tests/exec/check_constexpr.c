/* check_constexpr.c: compile-time Python inside kernels, evaluated at
 * specialisation time as CPython would: type() compared with `is` and `==`,
 * isinstance() (bool is an int), over each kind of constexpr value. Each
 * case compiles the kernel for one value and runs it on the interpreter.
 *
 * Dtype and string constexprs reach a kernel through every way of giving
 * a value, all read by one rule (mt_literal_parse): a signature's value
 * entries (tl.float16, torch.bfloat16, 'leaky_relu', with commas and
 * Python's escapes inside the quotes), -D, the `# mytriton:` comment; a
 * bare dtype name (fp16) stays a type. */
#include "exec_test.h"

static const char *const SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def typed(out, VALUE: tl.constexpr):\n"
    "    tl.store(out, 1.0 if type(VALUE) is bool else 2.0)\n"
    "    tl.store(out + 1, 1.0 if type(VALUE) == int else 2.0)\n"
    "    tl.store(out + 2, 1.0 if isinstance(VALUE, float) else 2.0)\n"
    "    tl.store(out + 3, 1.0 if isinstance(VALUE, int) else 2.0)\n"
    "    tl.store(out + 4, 1.0 if isinstance(VALUE, (str, tuple)) else 2.0)\n"
    "    tl.store(out + 5, 1.0 if type(VALUE) is not float else 2.0)\n";

/* Run `typed` for VALUE = literal and compare out[0..5] with want (1 or 2). */
static void check_value(const char *literal, const char *want)
{
    MtCtx *c = mt_ctx_new(NULL);
    char sig[64];
    snprintf(sig, sizeof sig, "*fp32,%s", literal);
    MtCompiled *k = compile_text(c, "typed.py", SRC, "typed", sig);
    float out[6] = {0};
    MtKernelArg args[] = {arr(out, 6)};
    RUN_OK(c, k, 1, 1, args, 1);
    for (int i = 0; i < 6; i++)
        ck_assert_msg(out[i] == (float)(want[i] - '0'), "VALUE=%s: out[%d] = %g, want %c", literal, i, out[i],
                      want[i]);
    mt_ctx_free(c);
}

START_TEST(type_of_a_bool)
{
    check_value("True", "122121");
}
END_TEST

START_TEST(type_of_an_int)
{
    check_value("7", "212121");
}
END_TEST

START_TEST(type_of_a_float)
{
    check_value("2.5", "221222");
}
END_TEST

START_TEST(isinstance_rejects_what_is_not_a_type)
{
    MtCtx *c = mt_ctx_new(NULL);
    const char *src = "import triton\nimport triton.language as tl\n@triton.jit\n"
                      "def k(out, V: tl.constexpr):\n    tl.store(out, 1.0 if isinstance(V, 3) else 2.0)\n";
    MtModule *m;
    ck_assert_int_eq(mt_parse(c, "k.py", src, strlen(src), &m), MT_OK);
    MtSpec spec = {.kernel = "k", .signature = "*fp32,1"};
    MtCompiled *k;
    ck_assert_int_eq(mt_compile(c, m, &spec, &k), MT_ERR_SOURCE);
    ck_assert_str_eq(mt_diag_at(c, 0)->code, "E0306");
    mt_ctx_free(c);
}
END_TEST

/* ---- dtype and string constexprs ---------------------------------------------- */

static const char *const ACT_SRC =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def act(x, out, n, DTYPE: tl.constexpr, ACTIVATION: tl.constexpr, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    v = tl.load(x + offs, mask=mask)\n"
    "    if ACTIVATION == 'leaky_relu':\n"
    "        v = tl.where(v >= 0, v, v * 0.125)\n"
    "    elif ACTIVATION == 'relu':\n"
    "        v = tl.maximum(v, 0.0)\n"
    "    elif ACTIVATION != 'none':\n"
    "        v = v * 0.0 + len(ACTIVATION)\n"
    "    tl.store(out + offs, v.to(DTYPE).to(tl.float32), mask=mask)\n";

enum { ACT_N = 50 };

/* What act computes, in C: the activation, then a round trip through dtype. */
static float act_ref(float v, MtDtype dt, const char *activation)
{
    if (!strcmp(activation, "leaky_relu"))
        v = v >= 0 ? v : v * 0.125f;
    else if (!strcmp(activation, "relu"))
        v = v > 0 ? v : 0.0f;
    else if (strcmp(activation, "none"))
        v = (float)strlen(activation);
    return dt == MT_DT_F16 ? mt_f16_to_f32(mt_f32_to_f16(v)) : dt == MT_DT_BF16 ? mt_bf16_to_f32(mt_f32_to_bf16(v)) : v;
}

/* Compile act for `spec` (signature, defines) and check it against act_ref. */
static void check_act(MtSpec spec, MtDtype dt, const char *activation, const char *resolved)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m = NULL;
    MtCompiled *k = NULL;
    ck_assert_int_eq(mt_parse(c, "act.py", ACT_SRC, strlen(ACT_SRC), &m), MT_OK);
    spec.kernel = "act";
    ck_assert_msg(mt_compile(c, m, &spec, &k) == MT_OK, "%s: %s", spec.signature, all_diags(c));
    if (resolved)
        ck_assert_str_eq(mt_compiled_signature(c, k), resolved);
    float *x = random_floats(ACT_N, 11, -3.0f, 3.0f), out[ACT_N];
    MtKernelArg args[] = {arr(x, ACT_N), arr(out, ACT_N), i32(ACT_N)};
    RUN_OK(c, k, 2, 1, args, 1);
    for (int i = 0; i < ACT_N; i++) {
        float want = act_ref(x[i], dt, activation);
        ck_assert_msg(bits_of(out[i]) == bits_of(want), "%s: out[%d] = %.9g, want %.9g", spec.signature, i, out[i],
                      want);
    }
    free(x);
    mt_ctx_free(c);
}

START_TEST(dtype_values_in_a_signature_select_the_cast)
{
    /* every module prefix -D accepts; the resolved signature writes tl.NAME, which reads back the same */
    check_act((MtSpec){.signature = "*fp32,*fp32,i32,tl.float16,'none',32"}, MT_DT_F16, "none",
              "*fp32,*fp32,i32,tl.float16,'none',32");
    check_act((MtSpec){.signature = "*fp32,*fp32,i32,torch.bfloat16,'none',32"}, MT_DT_BF16, "none",
              "*fp32,*fp32,i32,tl.bfloat16,'none',32");
    check_act((MtSpec){.signature = "*fp32,*fp32,i32,triton.language.fp16,'none',32"}, MT_DT_F16, "none", NULL);
    check_act((MtSpec){.signature = "*fp32,*fp32,i32, tl.float32 ,'none',32"}, MT_DT_F32, "none", NULL);
    check_act((MtSpec){.signature = "*fp32,*fp32,i32,tl.bfloat16,'none',32"}, MT_DT_BF16, "none",
              "*fp32,*fp32,i32,tl.bfloat16,'none',32");
}
END_TEST

START_TEST(string_values_in_a_signature_select_the_activation)
{
    check_act((MtSpec){.signature = "*fp32,*fp32,i32,tl.float32,'leaky_relu',32"}, MT_DT_F32, "leaky_relu",
              "*fp32,*fp32,i32,tl.float32,'leaky_relu',32");
    check_act((MtSpec){.signature = "*fp32,*fp32,i32,tl.float16,\"relu\",32"}, MT_DT_F16, "relu",
              "*fp32,*fp32,i32,tl.float16,'relu',32");
    /* commas and spaces inside the quotes belong to the string, not to the signature */
    check_act((MtSpec){.signature = "*fp32,*fp32,i32,tl.float32,'a, b,c',32"}, MT_DT_F32, "a, b,c",
              "*fp32,*fp32,i32,tl.float32,'a, b,c',32");
    /* Python's escapes, as repr() writes them: 'it\'s' has 4 characters, '\x41\u00e9' 3 bytes */
    check_act((MtSpec){.signature = "*fp32,*fp32,i32,tl.float32,'it\\'s',32"}, MT_DT_F32, "it's",
              "*fp32,*fp32,i32,tl.float32,'it\\'s',32");
    check_act((MtSpec){.signature = "*fp32,*fp32,i32,tl.float32,'\\x41\\u00e9',32"}, MT_DT_F32, "A\xc3\xa9", NULL);
    check_act((MtSpec){.signature = "*fp32,*fp32,i32,tl.float32,'a\\nb\\\\',32"}, MT_DT_F32, "a\nb\\",
              "*fp32,*fp32,i32,tl.float32,'a\\nb\\\\',32");
}
END_TEST

START_TEST(dtype_and_string_values_from_defines_and_the_comment)
{
    MtDefine defs[] = {{"DTYPE", "torch.float16"}, {"ACTIVATION", "'leaky_relu'"}, {"BLOCK", "64"}};
    check_act((MtSpec){.signature = "*fp32,*fp32,i32", .defines = defs, .ndefines = 3}, MT_DT_F16, "leaky_relu",
              "*fp32,*fp32,i32,tl.float16,'leaky_relu',64");

    /* the comment: a quoted value may hold spaces */
    MtCtx *c = mt_ctx_new(NULL);
    const char *src = "import triton\nimport triton.language as tl\n"
                      "# mytriton: DTYPE=tl.bfloat16 NAME='a b' signature=*fp32\n"
                      "@triton.jit\n"
                      "def k(out, DTYPE: tl.constexpr, NAME: tl.constexpr):\n"
                      "    tl.store(out, (1.0 / 3.0 + len(NAME)).to(DTYPE).to(tl.float32))\n";
    MtModule *m;
    ck_assert_int_eq(mt_parse(c, "k.py", src, strlen(src), &m), MT_OK);
    MtSpec spec = {.kernel = "k"};
    MtCompiled *k;
    ck_assert_msg(mt_compile(c, m, &spec, &k) == MT_OK, "%s", all_diags(c));
    ck_assert_str_eq(mt_compiled_signature(c, k), "*fp32,tl.bfloat16,'a b'");
    float out[1];
    MtKernelArg args[] = {arr(out, 1)};
    RUN_OK(c, k, 1, 1, args, 1);
    ck_assert(out[0] == mt_bf16_to_f32(mt_f32_to_bf16(1.0f / 3.0f + 3.0f)));
    mt_ctx_free(c);
}
END_TEST

/* From -D (or the editor's settings) and the comment, a value that is no
 * literal is a string, as in the project file: ACTIVATION=leaky_relu. A
 * signature entry stays strict: a bare word is a type or an error. */
START_TEST(bare_words_from_defines_and_the_comment_are_strings)
{
    MtDefine defs[] = {{"DTYPE", "tl.float16"}, {"ACTIVATION", "leaky_relu"}, {"BLOCK", "64"}};
    check_act((MtSpec){.signature = "*fp32,*fp32,i32", .defines = defs, .ndefines = 3}, MT_DT_F16, "leaky_relu",
              "*fp32,*fp32,i32,tl.float16,'leaky_relu',64");
    MtCtx *c = mt_ctx_new(NULL);
    const char *src = "import triton\nimport triton.language as tl\n"
                      "# mytriton: NAME=abc signature=*fp32\n"
                      "@triton.jit\n"
                      "def k(out, NAME: tl.constexpr):\n"
                      "    tl.store(out, len(NAME) * 1.0)\n";
    MtModule *m;
    ck_assert_int_eq(mt_parse(c, "k.py", src, strlen(src), &m), MT_OK);
    MtSpec spec = {.kernel = "k"};
    MtCompiled *k;
    ck_assert_msg(mt_compile(c, m, &spec, &k) == MT_OK, "%s", all_diags(c));
    ck_assert_str_eq(mt_compiled_signature(c, k), "*fp32,'abc'");
    spec.signature = "*fp32,abc";
    ck_assert_int_ne(mt_compile(c, m, &spec, &k), MT_OK);
    ck_assert_msg(strstr(all_diags(c), "E0303"), "%s", all_diags(c));
    mt_ctx_free(c);
}
END_TEST

/* A bare dtype name in a signature is a type: an error for a constexpr, a
 * runtime scalar of that type otherwise; with its module it is a value,
 * for any parameter (it specialises a runtime one, as 256 does). */
START_TEST(a_bare_dtype_name_is_a_type)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    ck_assert_int_eq(mt_parse(c, "act.py", ACT_SRC, strlen(ACT_SRC), &m), MT_OK);
    MtSpec spec = {.kernel = "act", .signature = "*fp32,*fp32,i32,fp16,'none',32"};
    MtCompiled *k;
    ck_assert_int_eq(mt_compile(c, m, &spec, &k), MT_ERR_USAGE);
    ck_assert_str_eq(mt_diag_at(c, 0)->code, "E0303");
    ck_assert_str_eq(mt_diag_at(c, 0)->msg, "'DTYPE' is a tl.constexpr: its signature entry must be a value such as "
                                            "256, 'relu' or tl.float16, not the type 'fp16'");
    mt_ctx_free(c);

    c = mt_ctx_new(NULL);
    const char *src = "import triton\nimport triton.language as tl\n@triton.jit\n"
                      "def k(out, a, D):\n    tl.static_assert(D == tl.float16)\n"
                      "    tl.static_assert(a.dtype == tl.float16)\n    tl.store(out, a.to(tl.float32))\n";
    k = compile_text(c, "k.py", src, "k", "*fp32,float16,torch.float16");
    ck_assert_str_eq(mt_compiled_signature(c, k), "*fp32,fp16,tl.float16");
    float out[1];
    MtKernelArg args[] = {arr(out, 1), f32(2.1)};
    RUN_OK(c, k, 1, 1, args, 1);
    ck_assert(out[0] == mt_f16_to_f32(mt_f32_to_f16(2.1f)));
    mt_ctx_free(c);

    /* two prefixes, or a .npy descriptor, are no dtype */
    c = mt_ctx_new(NULL);
    ck_assert_int_eq(mt_parse(c, "act.py", ACT_SRC, strlen(ACT_SRC), &m), MT_OK);
    spec.signature = "*fp32,*fp32,i32,tl.torch.float16,'none',32";
    ck_assert_int_eq(mt_compile(c, m, &spec, &k), MT_ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(all_diags(c), "cannot use 'tl.torch.float16' (signature entry) as the value of 'DTYPE'"));
    mt_ctx_free(c);
}
END_TEST

/* mt_literal_parse and mt_literal_quote, the rule itself: what each front door reads. */
START_TEST(the_literal_rule)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtLiteral lit;
    ck_assert(mt_literal_parse(c, "tl.float16", &lit) && lit.kind == MT_LITERAL_DTYPE && lit.dtype == MT_DT_F16);
    ck_assert(mt_literal_parse(c, "torch.bool", &lit) && lit.kind == MT_LITERAL_DTYPE && lit.dtype == MT_DT_I1);
    ck_assert(mt_literal_parse(c, " tl.int64 ", &lit) && lit.dtype == MT_DT_I64);
    ck_assert(!mt_literal_parse(c, "float16", &lit));
    ck_assert(!mt_literal_parse(c, "tl.<f2", &lit));
    ck_assert(!mt_literal_parse(c, "tl.float_16", &lit));
    ck_assert(mt_literal_parse(c, "'leaky_relu'", &lit) && lit.kind == MT_LITERAL_STR);
    ck_assert_str_eq(lit.s, "leaky_relu");
    ck_assert(mt_literal_parse(c, "'\\101\\t\\U0001F600\\q'", &lit));
    ck_assert_str_eq(lit.s, "A\t\xf0\x9f\x98\x80\\q");
    ck_assert(!mt_literal_parse(c, "'\\x00'", &lit)); /* a NUL cannot be in a C string */
    ck_assert(!mt_literal_parse(c, "'\\xg1'", &lit));
    ck_assert(!mt_literal_parse(c, "'a'b'", &lit));
    ck_assert(mt_literal_parse(c, "1_000", &lit) && lit.kind == MT_LITERAL_INT && lit.i == 1000);
    ck_assert(mt_literal_parse(NULL, "'x'", &lit) && lit.kind == MT_LITERAL_STR && !lit.s);
    char buf[64];
    ck_assert_uint_eq(mt_literal_quote(buf, sizeof buf, "it's\x01\\"), 13);
    ck_assert_str_eq(buf, "'it\\'s\\x01\\\\'");
    ck_assert(mt_literal_parse(c, buf, &lit));
    ck_assert_str_eq(lit.s, "it's\x01\\");
    ck_assert_uint_eq(mt_literal_quote(buf, 4, "abcdef"), 8); /* truncated as snprintf truncates */
    ck_assert_str_eq(buf, "'ab");
    ck_assert_uint_eq(mt_literal_from_text(buf, sizeof buf, "leaky_relu"), 12);
    ck_assert_str_eq(buf, "'leaky_relu'");
    mt_literal_from_text(buf, sizeof buf, "torch.float32");
    ck_assert_str_eq(buf, "torch.float32");
    mt_literal_from_text(buf, sizeof buf, "1e-5");
    ck_assert_str_eq(buf, "1e-5");
    mt_ctx_free(c);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("constexpr");
    TCase *tc = tcase_create("python");
    tcase_add_test(tc, type_of_a_bool);
    tcase_add_test(tc, type_of_an_int);
    tcase_add_test(tc, type_of_a_float);
    tcase_add_test(tc, isinstance_rejects_what_is_not_a_type);
    suite_add_tcase(s, tc);
    TCase *dt = tcase_create("dtypes_and_strings");
    tcase_add_test(dt, dtype_values_in_a_signature_select_the_cast);
    tcase_add_test(dt, string_values_in_a_signature_select_the_activation);
    tcase_add_test(dt, dtype_and_string_values_from_defines_and_the_comment);
    tcase_add_test(dt, bare_words_from_defines_and_the_comment_are_strings);
    tcase_add_test(dt, a_bare_dtype_name_is_a_type);
    tcase_add_test(dt, the_literal_rule);
    suite_add_tcase(s, dt);
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
