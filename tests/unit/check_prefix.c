/* check_prefix.c: the prefix analysis (compiler/api/prefix.c): a kernel
 * that fails at a statement is compiled again up to it, so that the lines
 * before the error have their SSA and layouts; the cut follows loops and
 * helpers, and the part before the error keeps the whole compile's
 * parameter types. */
#include <check.h>
#include <string.h>

#include "mytriton/mytriton.h"

#define HEAD "import triton\nimport triton.language as tl\n@triton.jit\n"

/* The byte offset of needle in text. */
static uint32_t at(const char *text, const char *needle)
{
    const char *p = strstr(text, needle);
    ck_assert_msg(p != NULL, "'%s' not found", needle);
    return (uint32_t)(p - text);
}

typedef struct Fixture {
    MtCtx *c;
    MtModule *m;
    MtCompiled *whole, *prefix;
    MtStatus st;
} Fixture;

/* Compile text's kernel k as the editor does (types from use, values from
 * defaults), through the layouts, then its prefix. */
static Fixture compile_text(const char *text)
{
    Fixture f = {mt_ctx_new(NULL), NULL, NULL, NULL, MT_OK};
    ck_assert_int_eq(mt_parse(f.c, "p.py", text, strlen(text), &f.m), MT_OK);
    MtSpec spec = {.kernel = "k", .infer_params = true, .last_stage = MT_STAGE_LAYOUT};
    f.st = mt_compile(f.c, f.m, &spec, &f.whole);
    size_t ndiags = mt_diag_count(f.c);
    ck_assert_int_eq(mt_compile_prefix(f.c, f.whole, &spec, &f.prefix), MT_OK);
    ck_assert_uint_eq(mt_diag_count(f.c), ndiags); /* its diagnostics are dropped */
    return f;
}

static MtQueryValue value(MtCtx *c, MtCompiled *k, uint32_t off)
{
    MtQueryValue v;
    ck_assert_msg(mt_query_value_at(c, k, off, &v), "no value at %u", off);
    return v;
}

START_TEST(lines_before_a_type_error_get_ssa_and_layouts)
{
    static const char src[] = HEAD
        "def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr = 256):\n"
        "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
        "    x = tl.load(x_ptr + offs, mask=offs < n)\n"
        "    y = x + x_ptr\n"
        "    tl.store(out_ptr + offs, y, mask=offs < n)\n";
    Fixture f = compile_text(src);
    ck_assert_int_eq(f.st, MT_ERR_SOURCE);
    /* the whole compile has types, no SSA */
    MtQueryValue w = value(f.c, f.whole, at(src, "offs ="));
    ck_assert_ptr_nonnull(w.type);
    ck_assert_ptr_null(w.ssa);
    ck_assert_ptr_nonnull(f.prefix);
    ck_assert_uint_eq(mt_compiled_prefix_line(f.prefix), 7);
    ck_assert_uint_eq(mt_compiled_prefix_line(f.whole), 0);
    MtQueryValue v = value(f.c, f.prefix, at(src, "offs ="));
    ck_assert_str_eq(v.type, w.type);
    ck_assert_ptr_nonnull(strstr(v.ssa, "= add "));
    ck_assert_ptr_nonnull(v.layout);
    v = value(f.c, f.prefix, at(src, "x = tl.load"));
    ck_assert_ptr_nonnull(strstr(v.ssa, "= load "));
    ck_assert_ptr_nonnull(v.layout);
    const char *ops = mt_compiled_ops_for_line(f.c, f.prefix, 6);
    ck_assert_ptr_nonnull(ops);
    ck_assert_ptr_nonnull(strstr(ops, "load"));
    /* the failing line and the lines after it are not in the prefix */
    ck_assert_ptr_null(mt_compiled_ops_for_line(f.c, f.prefix, 7));
    ck_assert_ptr_null(mt_compiled_ops_for_line(f.c, f.prefix, 8));
    mt_ctx_free(f.c);
}
END_TEST

START_TEST(the_prefix_keeps_the_whole_kernels_parameter_types)
{
    /* out_ptr is a pointer because of the store after the error; in the
     * prefix alone it would be an i32 and `o` an integer add. */
    static const char src[] = HEAD
        "def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr = 128):\n"
        "    offs = tl.arange(0, BLOCK)\n"
        "    o = out_ptr + offs\n"
        "    bad = tl.load(x_ptr + offs) & 1\n"
        "    tl.store(o, bad)\n";
    Fixture f = compile_text(src);
    ck_assert_int_eq(f.st, MT_ERR_SOURCE);
    ck_assert_ptr_nonnull(f.prefix);
    ck_assert_uint_eq(mt_compiled_prefix_line(f.prefix), 7);
    MtQueryValue v = value(f.c, f.prefix, at(src, "o ="));
    ck_assert_ptr_nonnull(strstr(v.type, "ptr<f32>"));
    ck_assert_ptr_nonnull(strstr(v.ssa, "= addptr out_ptr, "));
    mt_ctx_free(f.c);
}
END_TEST

START_TEST(an_error_in_a_loop_body_cuts_the_body)
{
    static const char src[] = HEAD
        "def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr = 64):\n"
        "    offs = tl.arange(0, BLOCK)\n"
        "    acc = tl.zeros([BLOCK], dtype=tl.float32)\n"
        "    for i in range(0, n):\n"
        "        v = tl.load(x_ptr + i * BLOCK + offs)\n"
        "        acc += v\n"
        "        w = v + x_ptr\n"
        "    tl.store(out_ptr + offs, acc)\n";
    Fixture f = compile_text(src);
    ck_assert_int_eq(f.st, MT_ERR_SOURCE);
    ck_assert_ptr_nonnull(f.prefix);
    ck_assert_uint_eq(mt_compiled_prefix_line(f.prefix), 10);
    /* v is the body's own: kept inside the loop */
    MtQueryValue v = value(f.c, f.prefix, at(src, "v = tl.load"));
    ck_assert_ptr_nonnull(strstr(v.ssa, "= load "));
    ck_assert_ptr_nonnull(v.layout);
    v = value(f.c, f.prefix, at(src, "acc += v"));
    ck_assert_ptr_nonnull(strstr(v.ssa, "= add "));
    ck_assert_ptr_nonnull(mt_compiled_ops_for_line(f.c, f.prefix, 8));
    ck_assert_ptr_null(mt_compiled_ops_for_line(f.c, f.prefix, 10));
    mt_ctx_free(f.c);
}
END_TEST

START_TEST(an_error_in_a_helper_cuts_at_its_call)
{
    static const char src[] = HEAD
        "def bad(v, p):\n"
        "    return v + p\n"
        "@triton.jit\n"
        "def k(x_ptr, out_ptr, BLOCK: tl.constexpr = 64):\n"
        "    offs = tl.arange(0, BLOCK)\n"
        "    x = tl.load(x_ptr + offs)\n"
        "    y = bad(x, x_ptr)\n"
        "    tl.store(out_ptr + offs, y)\n";
    Fixture f = compile_text(src);
    ck_assert_int_eq(f.st, MT_ERR_SOURCE);
    ck_assert_ptr_nonnull(f.prefix);
    ck_assert_uint_eq(mt_compiled_prefix_line(f.prefix), 10);
    MtQueryValue v = value(f.c, f.prefix, at(src, "x = tl.load"));
    ck_assert_ptr_nonnull(strstr(v.ssa, "= load "));
    mt_ctx_free(f.c);
}
END_TEST

/* An editor compiles every kernel of a file in one context: the helper's
 * error is each kernel's, so the second kernel has a call to cut at too. */
START_TEST(a_helper_error_reached_from_two_kernels_cuts_both)
{
    static const char src[] = HEAD
        "def bad(v, p):\n"
        "    return v + p\n"
        "@triton.jit\n"
        "def ka(x_ptr, out_ptr, BLOCK: tl.constexpr = 64):\n"
        "    x = tl.load(x_ptr + tl.arange(0, BLOCK))\n"
        "    tl.store(out_ptr + tl.arange(0, BLOCK), bad(x, x_ptr))\n"
        "@triton.jit\n"
        "def kb(x_ptr, out_ptr, BLOCK: tl.constexpr = 64):\n"
        "    x = tl.load(x_ptr + tl.arange(0, BLOCK))\n"
        "    tl.store(out_ptr + tl.arange(0, BLOCK), bad(x, x_ptr))\n";
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    ck_assert_int_eq(mt_parse(c, "p.py", src, strlen(src), &m), MT_OK);
    static const char *const kernels[] = {"ka", "kb"};
    static const uint32_t lines[] = {9, 13};
    for (int i = 0; i < 2; i++) {
        MtSpec spec = {.kernel = kernels[i], .infer_params = true, .last_stage = MT_STAGE_LAYOUT};
        MtCompiled *k, *p;
        ck_assert_int_eq(mt_compile(c, m, &spec, &k), MT_ERR_SOURCE);
        ck_assert_int_eq(mt_compile_prefix(c, k, &spec, &p), MT_OK);
        ck_assert_ptr_nonnull(p);
        ck_assert_uint_eq(mt_compiled_prefix_line(p), lines[i]);
    }
    mt_ctx_free(c);
}
END_TEST

START_TEST(nothing_to_add)
{
    /* a kernel that compiles */
    Fixture f = compile_text(HEAD "def k(x_ptr, BLOCK: tl.constexpr = 64):\n"
                                  "    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)\n");
    ck_assert_int_eq(f.st, MT_OK);
    ck_assert_ptr_null(f.prefix);
    mt_ctx_free(f.c);
    /* an error in its first statement: nothing before it */
    f = compile_text(HEAD "def k(x_ptr, BLOCK: tl.constexpr = 64):\n"
                          "    y = x_ptr + 1.5\n"
                          "    tl.store(x_ptr + tl.arange(0, BLOCK), y)\n");
    ck_assert_int_eq(f.st, MT_ERR_SOURCE);
    ck_assert_ptr_null(f.prefix);
    mt_ctx_free(f.c);
    /* no specialisation: no tree */
    f = compile_text(HEAD "def k(x_ptr, BLOCK: tl.constexpr):\n"
                          "    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)\n");
    ck_assert_int_ne(f.st, MT_OK);
    ck_assert_ptr_null(f.prefix);
    MtCompiled *none;
    ck_assert_int_eq(mt_compile_prefix(f.c, NULL, NULL, &none), MT_OK);
    ck_assert_ptr_null(none);
    mt_ctx_free(f.c);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("prefix");
    TCase *t = tcase_create("prefix");
    tcase_add_test(t, lines_before_a_type_error_get_ssa_and_layouts);
    tcase_add_test(t, the_prefix_keeps_the_whole_kernels_parameter_types);
    tcase_add_test(t, an_error_in_a_loop_body_cuts_the_body);
    tcase_add_test(t, an_error_in_a_helper_cuts_at_its_call);
    tcase_add_test(t, a_helper_error_reached_from_two_kernels_cuts_both);
    tcase_add_test(t, nothing_to_add);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
