/* check_query.c: the editor queries (compiler/api/query_*.c), by job:
 * names (what a name refers to), values (types, SSA, layouts, the kernel
 * summary), fixes for diagnostics (from the syntax and the diagnostics'
 * facts, never from their wording) and load/store refactorings. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "mytriton/mytriton.h"

static const char src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "SCALE = 2.0\n"
    "\n"
    "@triton.jit\n"
    "def twice(v):\n"
    "    return v * SCALE\n"
    "\n"
    "@triton.jit\n"
    "def k(x, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    ok = offs < n\n"
    "    v = tl.load(x + offs)\n"
    "    w = tl.load(x + offs, mask=ok)\n"
    "    for i in range(0, n):\n"
    "        v = v + 1.0\n"
    "    tl.store(out + offs, twice(v) + w, mask=ok)\n";

/* The byte offset of the nth (0-based) occurrence of needle in text. */
static uint32_t at(const char *text, const char *needle, int nth)
{
    const char *p = strstr(text, needle);
    while (p && nth-- > 0)
        p = strstr(p + 1, needle);
    ck_assert_msg(p != NULL, "'%s' not found", needle);
    return (uint32_t)(p - text);
}

static const char *span_text(const char *text, MtSpan sp, char *buf, size_t n)
{
    size_t len = sp.end - sp.off < n - 1 ? sp.end - sp.off : n - 1;
    memcpy(buf, text + sp.off, len);
    buf[len] = 0;
    return buf;
}

typedef struct Fixture {
    MtCtx *c;
    MtModule *m;
    MtCompiled *k;
} Fixture;

static Fixture parse_text(const char *text)
{
    Fixture f = {mt_ctx_new(NULL), NULL, NULL};
    ck_assert_int_eq(mt_parse(f.c, "q.py", text, strlen(text), &f.m), MT_OK);
    return f;
}

/* want < 0: any status (a warning's fix) */
static Fixture compile_text(const char *text, const char *sig, int want)
{
    Fixture f = parse_text(text);
    MtSpec spec = {.kernel = "k", .signature = sig, .last_stage = MT_STAGE_CUDA};
    MtStatus st = mt_compile(f.c, f.m, &spec, &f.k);
    if (want >= 0)
        ck_assert_int_eq(st, want);
    return f;
}

/* ---- names ---- */

START_TEST(names_resolve_to_the_binding_a_use_sees)
{
    Fixture f = parse_text(src);
    char buf[128];
    MtQueryDef d;
    /* `offs` in `ok = offs < n`: the assignment on the line before. */
    ck_assert(mt_query_definition(f.m, at(src, "offs < n", 0), &d));
    ck_assert_int_eq(d.kind, MT_DEF_LOCAL);
    ck_assert_str_eq(d.name, "offs");
    ck_assert_uint_eq(d.def.off, at(src, "offs = ", 0));
    ck_assert_str_eq(span_text(src, d.value, buf, sizeof buf), "tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)");
    /* `v` inside the loop sees the loop body's own assignment only after it. */
    ck_assert(mt_query_definition(f.m, at(src, "twice(v) +", 0) + 6, &d));
    ck_assert_uint_eq(d.def.off, at(src, "v = v + 1.0", 0));
    /* parameters, loop targets, module constants, jit functions, imports */
    ck_assert(mt_query_definition(f.m, at(src, "< n", 0) + 2, &d));
    ck_assert_int_eq(d.kind, MT_DEF_PARAM);
    ck_assert(mt_query_definition(f.m, at(src, "i in range", 0), &d));
    ck_assert_int_eq(d.kind, MT_DEF_LOOP);
    ck_assert_str_eq(span_text(src, d.value, buf, sizeof buf), "range(0, n)");
    ck_assert(mt_query_definition(f.m, at(src, "SCALE\n", 0), &d));
    ck_assert_int_eq(d.kind, MT_DEF_GLOBAL);
    ck_assert_str_eq(span_text(src, d.value, buf, sizeof buf), "2.0");
    ck_assert(mt_query_definition(f.m, at(src, "twice(v) +", 0), &d));
    ck_assert_int_eq(d.kind, MT_DEF_FUNCTION);
    ck_assert_uint_eq(d.def.off, at(src, "twice(v):", 0));
    ck_assert(mt_query_definition(f.m, at(src, "tl.load", 0), &d));
    ck_assert_int_eq(d.kind, MT_DEF_IMPORT);
    /* not on a name, outside every jit function */
    ck_assert(!mt_query_definition(f.m, at(src, "1.0", 0) + 1, &d) || d.kind == MT_DEF_NONE);
    ck_assert(!mt_query_definition(f.m, at(src, "SCALE =", 0), &d));
    ck_assert(!mt_query_definition(NULL, 0, &d));
    mt_ctx_free(f.c);
}
END_TEST

START_TEST(helpers_are_the_called_jit_functions)
{
    Fixture f = parse_text(src);
    ck_assert(mt_query_is_helper(f.m, 0));  /* twice */
    ck_assert(!mt_query_is_helper(f.m, 1)); /* k */
    ck_assert(!mt_query_is_helper(f.m, 2));
    ck_assert(!mt_query_is_helper(NULL, 0));
    mt_ctx_free(f.c);
}
END_TEST

/* ---- values ---- */

START_TEST(values_give_types_ssa_and_layouts)
{
    Fixture f = compile_text(src, "*fp32,*fp32,i32,64", MT_OK);
    MtQueryValue v;
    ck_assert(mt_query_value_at(f.c, f.k, at(src, "offs < n", 0), &v));
    ck_assert_str_eq(v.name, "offs");
    ck_assert_ptr_nonnull(strstr(v.type, "64"));
    ck_assert_ptr_nonnull(v.ssa);
    ck_assert_ptr_nonnull(v.layout);
    /* a constexpr has its value, not a type */
    ck_assert(mt_query_value_at(f.c, f.k, at(src, "BLOCK +", 0), &v));
    ck_assert_str_eq(v.what, "constexpr");
    ck_assert_str_eq(v.value, "64");
    /* a helper's parameter is what the call passes */
    ck_assert(mt_query_value_at(f.c, f.k, at(src, "v * SCALE", 0), &v));
    ck_assert_str_eq(v.what, "helper parameter");
    ck_assert_ptr_nonnull(v.type);
    /* an expression: the innermost typed node around the offset */
    ck_assert(mt_query_value_at(f.c, f.k, at(src, "tl.arange(0, BLOCK)", 0) + 3, &v));
    ck_assert_ptr_null(v.name);
    ck_assert_str_eq(v.what, "tl.arange(0, 64)");
    /* outside the kernel: nothing */
    ck_assert(!mt_query_value_at(f.c, f.k, at(src, "SCALE =", 0), &v));
    ck_assert(!mt_query_value_at(f.c, NULL, 0, &v));
    mt_ctx_free(f.c);
}
END_TEST

START_TEST(assignments_in_source_order_once_each)
{
    Fixture f = compile_text(src, "*fp32,*fp32,i32,64", MT_OK);
    const MtQueryValue *a;
    size_t n = mt_query_assignments(f.c, f.k, &a);
    ck_assert_uint_ge(n, 5);
    for (size_t i = 1; i < n; i++)
        ck_assert_uint_lt(a[i - 1].span.off, a[i].span.off);
    ck_assert_str_eq(a[0].name, "offs");
    bool loop_v = false;
    for (size_t i = 0; i < n; i++)
        loop_v |= a[i].span.off == at(src, "v = v + 1.0", 0);
    ck_assert(loop_v);
    mt_ctx_free(f.c);
}
END_TEST

START_TEST(kernel_summary_from_the_lowering)
{
    Fixture f = compile_text(src, "*fp32,*fp32,i32,64", MT_OK);
    MtQueryKernel q;
    ck_assert(mt_query_kernel(f.k, &q));
    ck_assert_int_gt(q.threads, 0);
    ck_assert_int_eq(q.rank, 1);
    ck_assert_int_eq(q.tile[0], 64);
    ck_assert_int_ge(q.shared_bytes, 0);
    ck_assert_int_eq(q.elements_per_thread * q.threads / q.programs_per_block >= 64, 1);
    ck_assert(!mt_query_kernel(NULL, &q));
    ck_assert_int_eq(q.shared_bytes, -1);
    mt_ctx_free(f.c);
}
END_TEST

START_TEST(values_survive_errors_before_them)
{
    static const char broken[] = "import triton\n"
                                 "import triton.language as tl\n"
                                 "@triton.jit\n"
                                 "def k(x, BLOCK: tl.constexpr):\n"
                                 "    offs = tl.arange(0, BLOCK)\n"
                                 "    y = tl.load(offs)\n";
    Fixture f = compile_text(broken, "*fp32,32", MT_ERR_SOURCE);
    MtQueryValue v;
    ck_assert_ptr_nonnull(f.k);
    ck_assert(mt_query_value_at(f.c, f.k, at(broken, "offs)", 0), &v));
    ck_assert_ptr_nonnull(strstr(v.type, "32"));
    mt_ctx_free(f.c);
}
END_TEST

/* ---- fixes ---- */

/* The first diagnostic with code, after compiling text. */
static const MtDiag *diag_with(Fixture *f, const char *code)
{
    for (size_t i = 0; i < mt_diag_count(f->c); i++)
        if (!strcmp(mt_diag_at(f->c, i)->code, code))
            return mt_diag_at(f->c, i);
    ck_abort_msg("no %s", code);
    return NULL;
}

static const char *apply(const char *text, const MtQueryFix *fx, char *buf, size_t n)
{
    ck_assert_uint_eq(fx->nedits, 1);
    const MtQueryEdit *e = &fx->edits[0];
    snprintf(buf, n, "%.*s%s%s", (int)e->off, text, e->text, text + e->end);
    return buf;
}

static const char *fixed(const char *text, const char *code, const char *sig, char *buf, size_t n)
{
    Fixture f = compile_text(text, sig, -1);
    const MtQueryFix *fx;
    const MtDiag *d = diag_with(&f, code);
    ck_assert_uint_ge(mt_query_fixes(f.c, f.m, d, &fx), 1);
    ck_assert(fx[0].preferred);
    ck_assert_ptr_eq(fx[0].diag, d);
    apply(text, &fx[0], buf, n);
    mt_ctx_free(f.c);
    return buf;
}

#define KERNEL_HEAD "import triton\nimport triton.language as tl\n@triton.jit\ndef k(x, n, BLOCK: tl.constexpr):\n"

START_TEST(fix_precedence_and_logic)
{
    char buf[512];
    ck_assert_str_eq(fixed(KERNEL_HEAD "    o = tl.arange(0, BLOCK)\n    m = o < n & o > 2\n"
                                       "    tl.store(x + o, 1.0, mask=m)\n",
                           "E0207", "*fp32,i32,16", buf, sizeof buf),
                     KERNEL_HEAD "    o = tl.arange(0, BLOCK)\n    m = (o < n) & (o > 2)\n"
                                 "    tl.store(x + o, 1.0, mask=m)\n");
    ck_assert_str_eq(fixed(KERNEL_HEAD "    o = tl.arange(0, BLOCK)\n    m = 1 < o < n\n"
                                       "    tl.store(x + o, 1.0, mask=m)\n",
                           "E0206", "*fp32,i32,16", buf, sizeof buf),
                     KERNEL_HEAD "    o = tl.arange(0, BLOCK)\n    m = (1 < o) & (o < n)\n"
                                 "    tl.store(x + o, 1.0, mask=m)\n");
    ck_assert_str_eq(fixed(KERNEL_HEAD "    o = tl.arange(0, BLOCK)\n    m = not o\n"
                                       "    tl.store(x + o, 1.0, mask=m)\n",
                           "E0206", "*fp32,i32,16", buf, sizeof buf),
                     KERNEL_HEAD "    o = tl.arange(0, BLOCK)\n    m = ~o\n"
                                 "    tl.store(x + o, 1.0, mask=m)\n");
}
END_TEST

START_TEST(fix_arange_comes_from_the_facts)
{
    static const char text[] = KERNEL_HEAD "    o = tl.arange(0, 100)\n    tl.store(x + o, 1.0, mask=o < n)\n";
    Fixture f = compile_text(text, "*fp32,i32,16", MT_ERR_SOURCE);
    const MtDiag *d = diag_with(&f, "E0413");
    int64_t start, end;
    ck_assert(mt_diag_fact(d, "arange_start", &start));
    ck_assert(mt_diag_fact(d, "arange_padded_end", &end));
    ck_assert_int_eq(start, 0);
    ck_assert_int_eq(end, 128);
    ck_assert(!mt_diag_fact(d, "no_such_fact", &end));
    const MtQueryFix *fx;
    ck_assert_uint_eq(mt_query_fixes(f.c, f.m, d, &fx), 1);
    char buf[512];
    ck_assert_str_eq(apply(text, &fx[0], buf, sizeof buf),
                     KERNEL_HEAD "    o = tl.arange(0, 128)\n    tl.store(x + o, 1.0, mask=o < n)\n");
    /* The same code, place and wording without the facts (another
     * context, which only parsed the file): no fix, since nothing is read
     * back out of a message. */
    Fixture g = parse_text(text);
    const MtDiag *bare = mt_diag_add(g.c, MT_SEV_ERROR, d->span, "E0413", "%s", d->msg);
    ck_assert_uint_eq(bare->nfacts, 0);
    ck_assert_uint_eq(mt_query_fixes(g.c, g.m, bare, &fx), 0);
    ck_assert_uint_eq(mt_query_fixes(g.c, g.m, NULL, &fx), 0);
    mt_ctx_free(g.c);
    mt_ctx_free(f.c);
}
END_TEST

/* ---- refactorings ---- */

START_TEST(refactor_loads_and_stores)
{
    Fixture f = compile_text(src, "*fp32,*fp32,i32,64", MT_OK);
    const MtQueryFix *fx;
    char buf[2048];
    /* an unmasked load, with a Boolean block `ok` of its shape bound before */
    uint32_t load = at(src, "tl.load(x + offs)", 0);
    size_t n = mt_query_actions(f.c, f.k, load, load, &fx);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(fx[0].title, "Add mask=ok, other=0.0 to this tl.load");
    ck_assert_ptr_null(fx[0].diag);
    ck_assert_ptr_nonnull(strstr(apply(src, &fx[0], buf, sizeof buf), "tl.load(x + offs, mask=ok, other=0.0)"));
    /* a masked load without other= */
    uint32_t masked = at(src, "tl.load(x + offs, mask=ok)", 0);
    n = mt_query_actions(f.c, f.k, masked, masked, &fx);
    ck_assert_uint_eq(n, 1);
    ck_assert_ptr_nonnull(strstr(apply(src, &fx[0], buf, sizeof buf), "tl.load(x + offs, mask=ok, other=0.0)"));
    /* the masked store: nothing to offer */
    uint32_t store = at(src, "tl.store", 0);
    ck_assert_uint_eq(mt_query_actions(f.c, f.k, store, store, &fx), 0);
    ck_assert_uint_eq(mt_query_actions(f.c, NULL, 0, 0, &fx), 0);
    mt_ctx_free(f.c);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("query");
    TCase *names = tcase_create("names");
    tcase_add_test(names, names_resolve_to_the_binding_a_use_sees);
    tcase_add_test(names, helpers_are_the_called_jit_functions);
    suite_add_tcase(s, names);
    TCase *values = tcase_create("values");
    tcase_add_test(values, values_give_types_ssa_and_layouts);
    tcase_add_test(values, assignments_in_source_order_once_each);
    tcase_add_test(values, kernel_summary_from_the_lowering);
    tcase_add_test(values, values_survive_errors_before_them);
    suite_add_tcase(s, values);
    TCase *fixes = tcase_create("fixes");
    tcase_add_test(fixes, fix_precedence_and_logic);
    tcase_add_test(fixes, fix_arange_comes_from_the_facts);
    suite_add_tcase(s, fixes);
    TCase *refactor = tcase_create("refactor");
    tcase_add_test(refactor, refactor_loads_and_stores);
    suite_add_tcase(s, refactor);
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
