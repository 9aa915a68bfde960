/* check_signature.c: the compiled signature (mt_compiled_signature) is one
 * every later tool can replay: the runtime types, the specialised values
 * and the divisibility hints it was given, which decide the fast
 * lowering's vector accesses (a run that replays the signature without
 * them gets scalar loads). */
#include <check.h>
#include <string.h>

#include "mytriton/mytriton.h"

static const char src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def k(x, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(out + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)\n";

static void expect_replayed(const char *sig, const char *want)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    MtCompiled *k;
    ck_assert_int_eq(mt_parse(c, "k.py", src, strlen(src), &m), MT_OK);
    MtSpec spec = {.kernel = "k", .signature = sig};
    ck_assert_int_eq(mt_compile(c, m, &spec, &k), MT_OK);
    ck_assert_str_eq(mt_compiled_signature(c, k), want);
    /* and the replay compiles to the same signature */
    MtCompiled *again;
    spec.signature = want;
    ck_assert_int_eq(mt_compile(c, m, &spec, &again), MT_OK);
    ck_assert_str_eq(mt_compiled_signature(c, again), want);
    mt_ctx_free(c);
}

START_TEST(divisibility_hints_are_part_of_the_signature)
{
    expect_replayed("*fp32:16,*fp32:16,i32:16,1024", "*fp32:16,*fp32:16,i32:16,1024");
    expect_replayed("*fp32:16,*fp32,i32,1024", "*fp32:16,*fp32,i32,1024");
    expect_replayed("*fp32,*fp32,i32,1024", "*fp32,*fp32,i32,1024");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("signature");
    TCase *t = tcase_create("signature");
    tcase_add_test(t, divisibility_hints_are_part_of_the_signature);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
