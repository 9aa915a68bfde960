/* check_line_origin.c: mt_compiled_line_origin, the link from each printed
 * stage line back to the source, helpers' inline chains included. */
#include <check.h>
#include <string.h>

#include "mytriton/mytriton.h"

/* Line numbers matter below: the helper's body is line 6, the call line 12,
 * the loop lines 13-14. */
static const char src[] =
    "import triton\n"                                         /* 1 */
    "import triton.language as tl\n"                          /* 2 */
    "\n"                                                      /* 3 */
    "@triton.jit\n"                                           /* 4 */
    "def twice(v):\n"                                         /* 5 */
    "    return v * 2.0\n"                                    /* 6 */
    "\n"                                                      /* 7 */
    "@triton.jit\n"                                           /* 8 */
    "def k(x, out, n, BLOCK: tl.constexpr):\n"                /* 9 */
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n" /* 10 */
    "    v = tl.load(x + offs, mask=offs < n, other=0.0)\n"   /* 11 */
    "    w = twice(v)\n"                                      /* 12 */
    "    for i in range(0, n):\n"                             /* 13 */
    "        w = w + 1.0\n"                                   /* 14 */
    "    tl.store(out + offs, w, mask=offs < n)\n";           /* 15 */

typedef struct Fixture {
    MtCtx *c;
    MtCompiled *k;
} Fixture;

static Fixture compile_with(const char *dump, int lowering)
{
    Fixture f = {mt_ctx_new(NULL), NULL};
    MtModule *m;
    ck_assert_int_eq(mt_parse(f.c, "t.py", src, sizeof src - 1, &m), MT_OK);
    MtSpec spec = {.kernel = "k", .signature = "*fp32,*fp32,i32,64", .last_stage = MT_STAGE_CUDA,
                   .dump_passes = dump, .lowering = lowering};
    ck_assert_int_eq(mt_compile(f.c, m, &spec, &f.k), MT_OK);
    return f;
}

static Fixture compile(const char *dump) { return compile_with(dump, MT_LOWERING_SEED); }

/* The 1-based line of `text` that contains `needle`, or 0. */
static uint32_t line_of(const char *text, const char *needle)
{
    const char *p = strstr(text, needle);
    if (!p)
        return 0;
    uint32_t line = 1;
    for (const char *q = text; q < p; q++)
        line += *q == '\n';
    return line;
}

static void expect_line(Fixture *f, MtStage stage, const char *needle, uint32_t src_line, uint32_t call_line)
{
    const char *text = mt_compiled_text(f->c, f->k, stage);
    ck_assert_ptr_nonnull(text);
    uint32_t line = line_of(text, needle);
    ck_assert_msg(line, "%s: no line with '%s'", mt_stage_name(stage), needle);
    MtLineOrigin o;
    ck_assert_msg(mt_compiled_line_origin(f->c, f->k, stage, line, &o), "%s line %u has no origin",
                  mt_stage_name(stage), line);
    ck_assert_uint_eq(o.span.line, src_line);
    if (call_line) {
        ck_assert_uint_eq(o.ncalls, 1);
        ck_assert_uint_eq(o.calls[0].line, call_line);
    } else {
        ck_assert_uint_eq(o.ncalls, 0);
    }
}

START_TEST(ssa_lines_name_their_source)
{
    Fixture f = compile(NULL);
    expect_line(&f, MT_STAGE_SSA, "program_id", 10, 0);
    expect_line(&f, MT_STAGE_SSA, "load", 11, 0);
    expect_line(&f, MT_STAGE_SSA, ", 2.0 :", 6, 12);      /* inlined from twice() */
    expect_line(&f, MT_STAGE_SSA, "for %", 13, 0);
    expect_line(&f, MT_STAGE_SSA_RAW, ", 2.0 :", 6, 12);
    expect_line(&f, MT_STAGE_EXPR, "tl.load", 11, 0);
    expect_line(&f, MT_STAGE_EXPR, "* 2.0", 6, 12);
    expect_line(&f, MT_STAGE_CUDA, "blockIdx.x", 10, 0);
    expect_line(&f, MT_STAGE_CUDA, "* 2.0f", 6, 12);
    mt_ctx_free(f.c);
}
END_TEST

/* The fast lowering's kernel layer and CUDA are linked the same way. */
START_TEST(fast_lowering_lines_name_their_source)
{
    Fixture f = compile_with(NULL, MT_LOWERING_FAST);
    const char *cuda = mt_compiled_text(f.c, f.k, MT_STAGE_CUDA);
    uint32_t n = 0, linked = 0, helper = 0;
    for (const char *p = cuda; *p; p++)
        n += *p == '\n';
    for (uint32_t line = 1; line <= n; line++) {
        MtLineOrigin o;
        if (!mt_compiled_line_origin(f.c, f.k, MT_STAGE_CUDA, line, &o))
            continue;
        linked++;
        if (o.span.line == 6) {
            ck_assert_uint_eq(o.ncalls, 1);
            ck_assert_uint_eq(o.calls[0].line, 12);
            helper++;
        }
    }
    ck_assert_uint_gt(linked, 5);
    ck_assert_uint_gt(helper, 0);
    const char *kernel = mt_compiled_text(f.c, f.k, MT_STAGE_KERNEL);
    ck_assert_ptr_nonnull(kernel);
    MtLineOrigin o;
    bool any = false;
    for (uint32_t line = 1; line < 200 && !any; line++)
        any = mt_compiled_line_origin(f.c, f.k, MT_STAGE_KERNEL, line, &o);
    ck_assert(any);
    mt_ctx_free(f.c);
}
END_TEST

START_TEST(loop_closing_line_belongs_to_the_loop)
{
    Fixture f = compile(NULL);
    const char *ssa = mt_compiled_text(f.c, f.k, MT_STAGE_SSA);
    uint32_t close = line_of(ssa, "\n}") + 1;
    MtLineOrigin o;
    ck_assert(mt_compiled_line_origin(f.c, f.k, MT_STAGE_SSA, close, &o));
    ck_assert_uint_eq(o.span.line, 13);
    mt_ctx_free(f.c);
}
END_TEST

START_TEST(headers_and_out_of_range_have_none)
{
    Fixture f = compile(NULL);
    MtLineOrigin o;
    ck_assert(!mt_compiled_line_origin(f.c, f.k, MT_STAGE_EXPR, 1, &o));   /* "kernel k(...)" */
    ck_assert(!mt_compiled_line_origin(f.c, f.k, MT_STAGE_LAYOUT, 1, &o)); /* "kernel layout: ..." */
    ck_assert(!mt_compiled_line_origin(f.c, f.k, MT_STAGE_CUDA, 1, &o));   /* extern "C" */
    ck_assert(!mt_compiled_line_origin(f.c, f.k, MT_STAGE_SSA, 0, &o));
    ck_assert(!mt_compiled_line_origin(f.c, f.k, MT_STAGE_SSA, 100000, &o));
    ck_assert(!mt_compiled_line_origin(f.c, f.k, MT_STAGE_MLIR, 1, &o));
    ck_assert(!mt_compiled_line_origin(f.c, f.k, MT_STAGE_AST, 1, &o));
    mt_ctx_free(f.c);
}
END_TEST

START_TEST(every_layout_value_line_has_an_origin)
{
    Fixture f = compile(NULL);
    const char *text = mt_compiled_text(f.c, f.k, MT_STAGE_LAYOUT);
    uint32_t line = 1, values = 0;
    for (const char *p = text; *p; p++) {
        if ((p == text || p[-1] == '\n') && *p == '%') {
            MtLineOrigin o;
            ck_assert_msg(mt_compiled_line_origin(f.c, f.k, MT_STAGE_LAYOUT, line, &o), "layout line %u", line);
            values++;
        }
        line += *p == '\n';
    }
    ck_assert_uint_gt(values, 3);
    mt_ctx_free(f.c);
}
END_TEST

START_TEST(pass_dumps_have_origins)
{
    Fixture f = compile("all");
    ck_assert_uint_gt(mt_compiled_dump_count(f.k), 0);
    for (size_t i = 0; i < mt_compiled_dump_count(f.k); i++) {
        const char *text = mt_compiled_dump(f.k, i, NULL);
        MtLineOrigin o;
        ck_assert(mt_compiled_dump_line_origin(f.c, f.k, i, line_of(text, "program_id"), &o));
        ck_assert_uint_eq(o.span.line, 10);
    }
    MtLineOrigin o;
    ck_assert(!mt_compiled_dump_line_origin(f.c, f.k, mt_compiled_dump_count(f.k), 1, &o));
    mt_ctx_free(f.c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("line_origin");
    TCase *t = tcase_create("core");
    tcase_add_test(t, ssa_lines_name_their_source);
    tcase_add_test(t, fast_lowering_lines_name_their_source);
    tcase_add_test(t, loop_closing_line_belongs_to_the_loop);
    tcase_add_test(t, headers_and_out_of_range_have_none);
    tcase_add_test(t, every_layout_value_line_has_an_origin);
    tcase_add_test(t, pass_dumps_have_origins);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
