/* check_ast_print.c: the `--emit ast` printer (syntax/ast_print.c).
 *
 * Two kernels are compared with their expected tree embedded here; the
 * kernels of tests/unit/data/syntax/host_and_kernels.py are compared with
 * host_and_kernels.ast next to it. MT_UPDATE_GOLDEN=1 rewrites that file
 * instead (review the diff like code). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ctx.h"
#include "base/strbuf.h"
#include "syntax/parser.h"

/* Every jit function of `src`, printed one after the other. */
static char *print_all(const char *src, size_t len)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    ck_assert_int_eq(mt_parse(c, "t.py", src, len, &m), MT_OK);
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    for (uint32_t i = 0; i < m->nfuncs; i++)
        mt_buf_puts(&b, mt_ast_print(c, m->funcs[i]));
    char *out = strdup(mt_buf_str(&b));
    mt_ctx_free(c);
    return out;
}

static void assert_prints(const char *src, const char *want)
{
    char *got = print_all(src, strlen(src));
    ck_assert_str_eq(got, want);
    free(got);
}

START_TEST(small_kernel)
{
    static const char src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "\n"
    "# mytriton: BLOCK=128\n"
    "@triton.jit\n"
    "def scale_kernel(x, out, n, alpha: float = 2.5, *, BLOCK: tl.constexpr = 128):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = (offs < n) & (offs >= 0)\n"
    "    acc: tl.tensor = tl.zeros((BLOCK,), tl.float32)\n"
    "    for k in tl.static_range(0, 4):\n"
    "        acc += tl.load(x + offs, mask=mask, other=0.0) * alpha\n"
    "    if BLOCK > 64:\n"
    "        acc = acc * 2\n"
    "    elif BLOCK == 64:\n"
    "        pass\n"
    "    else:\n"
    "        acc = -acc\n"
    "    tl.store(out + offs[:, None], acc if BLOCK else None, mask=mask)\n";
    static const char want[] =
    "FunctionDef scale_kernel @6:1-19:69\n"
    "  directive BLOCK=128 @5:1-5:22\n"
    "  param x @7:18-7:19\n"
    "  param out @7:21-7:24\n"
    "  param n @7:26-7:27\n"
    "  param alpha: float = 2.5 @7:29-7:47\n"
    "  param BLOCK: tl.constexpr = 128 (keyword-only) @7:52-7:77\n"
    "  Assign @8:5-8:58\n"
    "    target Name offs @8:5-8:9\n"
    "    BinOp + @8:12-8:58\n"
    "      BinOp * @8:12-8:36\n"
    "        Call @8:12-8:28\n"
    "          Attribute program_id @8:12-8:25\n"
    "            Name tl @8:12-8:14\n"
    "          Int 0 @8:26-8:27\n"
    "        Name BLOCK @8:31-8:36\n"
    "      Call @8:39-8:58\n"
    "        Attribute arange @8:39-8:48\n"
    "          Name tl @8:39-8:41\n"
    "        Int 0 @8:49-8:50\n"
    "        Name BLOCK @8:52-8:57\n"
    "  Assign @9:5-9:36\n"
    "    target Name mask @9:5-9:9\n"
    "    BinOp & @9:12-9:36\n"
    "      Compare < @9:13-9:21\n"
    "        Name offs @9:13-9:17\n"
    "        Name n @9:20-9:21\n"
    "      Compare >= @9:26-9:35\n"
    "        Name offs @9:26-9:30\n"
    "        Int 0 @9:34-9:35\n"
    "  AnnAssign @10:5-10:52\n"
    "    target Name acc @10:5-10:8\n"
    "    annotation Attribute tensor @10:10-10:19\n"
    "      Name tl @10:10-10:12\n"
    "    Call @10:22-10:52\n"
    "      Attribute zeros @10:22-10:30\n"
    "        Name tl @10:22-10:24\n"
    "      Tuple @10:31-10:39\n"
    "        Name BLOCK @10:32-10:37\n"
    "      Attribute float32 @10:41-10:51\n"
    "        Name tl @10:41-10:43\n"
    "  For @11:5-12:63\n"
    "    target Name k @11:9-11:10\n"
    "    iter Call @11:14-11:35\n"
    "      Attribute static_range @11:14-11:29\n"
    "        Name tl @11:14-11:16\n"
    "      Int 0 @11:30-11:31\n"
    "      Int 4 @11:33-11:34\n"
    "    body\n"
    "      AugAssign += @12:9-12:63\n"
    "        target Name acc @12:9-12:12\n"
    "        BinOp * @12:16-12:63\n"
    "          Call @12:16-12:55\n"
    "            Attribute load @12:16-12:23\n"
    "              Name tl @12:16-12:18\n"
    "            BinOp + @12:24-12:32\n"
    "              Name x @12:24-12:25\n"
    "              Name offs @12:28-12:32\n"
    "            keyword mask @12:34-12:43\n"
    "              Name mask @12:39-12:43\n"
    "            keyword other @12:45-12:54\n"
    "              Float 0.0 @12:51-12:54\n"
    "          Name alpha @12:58-12:63\n"
    "  If @13:5-18:19\n"
    "    test Compare > @13:8-13:18\n"
    "      Name BLOCK @13:8-13:13\n"
    "      Int 64 @13:16-13:18\n"
    "    body\n"
    "      Assign @14:9-14:22\n"
    "        target Name acc @14:9-14:12\n"
    "        BinOp * @14:15-14:22\n"
    "          Name acc @14:15-14:18\n"
    "          Int 2 @14:21-14:22\n"
    "    orelse\n"
    "      If elif @15:5-18:19\n"
    "        test Compare == @15:10-15:21\n"
    "          Name BLOCK @15:10-15:15\n"
    "          Int 64 @15:19-15:21\n"
    "        body\n"
    "          Pass @16:9-16:13\n"
    "        orelse\n"
    "          Assign @18:9-18:19\n"
    "            target Name acc @18:9-18:12\n"
    "            UnaryOp - @18:15-18:19\n"
    "              Name acc @18:16-18:19\n"
    "  ExprStmt @19:5-19:69\n"
    "    Call @19:5-19:69\n"
    "      Attribute store @19:5-19:13\n"
    "        Name tl @19:5-19:7\n"
    "      BinOp + @19:14-19:33\n"
    "        Name out @19:14-19:17\n"
    "        Subscript @19:20-19:33\n"
    "          Name offs @19:20-19:24\n"
    "          Tuple @19:25-19:32\n"
    "            Slice @19:25-19:26\n"
    "            None @19:28-19:32\n"
    "      IfExp @19:35-19:57\n"
    "        body Name acc @19:35-19:38\n"
    "        test Name BLOCK @19:42-19:47\n"
    "        orelse None @19:53-19:57\n"
    "      keyword mask @19:59-19:68\n"
    "        Name mask @19:64-19:68\n";
    assert_prints(src, want);
}
END_TEST

START_TEST(every_node_form)
{
    static const char src[] =
    "@jit\n"
    "def forms(a, *args, k=1, **kw):\n"
    "    s = \"a\\\"b\\\\\\n\\x01é\" 'c'\n"
    "    f = 1e-05 + 1e16 + 0.1\n"
    "    i = 99999999999999999999\n"
    "    c = a < b not in d is not e\n"
    "    u = not ~a and b or a // b @ c\n"
    "    a **= 2\n"
    "    x = a[1:2:3, :]\n"
    "    while a:\n"
    "        break\n"
    "    else:\n"
    "        continue\n"
    "    for q in r:\n"
    "        pass\n"
    "    else:\n"
    "        pass\n"
    "    assert a, \"m\"\n"
    "    return\n"
    "    return *a, [True, False, None, ...]\n"
    "    f(*a, **kw)\n"
    "    with a:\n"
    "        pass\n";
    static const char want[] =
    "FunctionDef forms @1:1-23:13\n"
    "  param a @2:11-2:12\n"
    "  param *args @2:14-2:19\n"
    "  param k = 1 (keyword-only) @2:21-2:24\n"
    "  param **kw @2:26-2:30\n"
    "  Assign @3:5-3:29\n"
    "    target Name s @3:5-3:6\n"
    "    Str \"a\\\"b\\\\\\n\\x01éc\" @3:9-3:29\n"
    "  Assign @4:5-4:27\n"
    "    target Name f @4:5-4:6\n"
    "    BinOp + @4:9-4:27\n"
    "      BinOp + @4:9-4:21\n"
    "        Float 1e-05 @4:9-4:14\n"
    "        Float 1e+16 @4:17-4:21\n"
    "      Float 0.1 @4:24-4:27\n"
    "  Assign @5:5-5:29\n"
    "    target Name i @5:5-5:6\n"
    "    Int (beyond int64) @5:9-5:29\n"
    "  Assign @6:5-6:32\n"
    "    target Name c @6:5-6:6\n"
    "    Compare <, not in, is not @6:9-6:32\n"
    "      Name a @6:9-6:10\n"
    "      Name b @6:13-6:14\n"
    "      Name d @6:22-6:23\n"
    "      Name e @6:31-6:32\n"
    "  Assign @7:5-7:35\n"
    "    target Name u @7:5-7:6\n"
    "    BoolOp or @7:9-7:35\n"
    "      BoolOp and @7:9-7:21\n"
    "        UnaryOp not @7:9-7:15\n"
    "          UnaryOp ~ @7:13-7:15\n"
    "            Name a @7:14-7:15\n"
    "        Name b @7:20-7:21\n"
    "      BinOp @ @7:25-7:35\n"
    "        BinOp // @7:25-7:31\n"
    "          Name a @7:25-7:26\n"
    "          Name b @7:30-7:31\n"
    "        Name c @7:34-7:35\n"
    "  AugAssign **= @8:5-8:12\n"
    "    target Name a @8:5-8:6\n"
    "    Int 2 @8:11-8:12\n"
    "  Assign @9:5-9:20\n"
    "    target Name x @9:5-9:6\n"
    "    Subscript @9:9-9:20\n"
    "      Name a @9:9-9:10\n"
    "      Tuple @9:11-9:19\n"
    "        Slice @9:11-9:16\n"
    "          lo Int 1 @9:11-9:12\n"
    "          hi Int 2 @9:13-9:14\n"
    "          step Int 3 @9:15-9:16\n"
    "        Slice @9:18-9:19\n"
    "  While @10:5-13:17\n"
    "    test Name a @10:11-10:12\n"
    "    body\n"
    "      Break @11:9-11:14\n"
    "    orelse\n"
    "      Continue @13:9-13:17\n"
    "  For @14:5-17:13\n"
    "    target Name q @14:9-14:10\n"
    "    iter Name r @14:14-14:15\n"
    "    body\n"
    "      Pass @15:9-15:13\n"
    "    orelse\n"
    "      Pass @17:9-17:13\n"
    "  Assert @18:5-18:18\n"
    "    test Name a @18:12-18:13\n"
    "    msg Str \"m\" @18:15-18:18\n"
    "  Return @19:5-19:11\n"
    "  Return @20:5-20:40\n"
    "    Tuple @20:12-20:40\n"
    "      Unsupported starred expression @20:12-20:14\n"
    "        Name a @20:13-20:14\n"
    "      List @20:16-20:40\n"
    "        True @20:17-20:21\n"
    "        False @20:23-20:28\n"
    "        None @20:30-20:34\n"
    "        Ellipsis @20:36-20:39\n"
    "  ExprStmt @21:5-21:16\n"
    "    Call @21:5-21:16\n"
    "      Name f @21:5-21:6\n"
    "      Unsupported starred expression @21:7-21:9\n"
    "        Name a @21:8-21:9\n"
    "      keyword ** @21:11-21:15\n"
    "        Unsupported keyword unpacking @21:11-21:15\n"
    "          Name kw @21:13-21:15\n"
    "  UnsupportedStmt with statement @22:5-23:13\n";
    assert_prints(src, want);
}
END_TEST

START_TEST(unsupported_nodes_and_elif)
{
    assert_prints("@jit\ndef k(x):\n    y = lambda v: v\n    if a: pass\n    elif b: pass\n    elif c: pass\n",
                  "FunctionDef k @1:1-6:17\n"
                  "  param x @2:7-2:8\n"
                  "  Assign @3:5-3:20\n"
                  "    target Name y @3:5-3:6\n"
                  "    Unsupported lambda @3:9-3:20\n"
                  "      Name v @3:19-3:20\n"
                  "  If @4:5-6:17\n"
                  "    test Name a @4:8-4:9\n"
                  "    body\n"
                  "      Pass @4:11-4:15\n"
                  "    orelse\n"
                  "      If elif @5:5-6:17\n"
                  "        test Name b @5:10-5:11\n"
                  "        body\n"
                  "          Pass @5:13-5:17\n"
                  "        orelse\n"
                  "          If elif @6:5-6:17\n"
                  "            test Name c @6:10-6:11\n"
                  "            body\n"
                  "              Pass @6:13-6:17\n");
}
END_TEST

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    s[n] = 0;
    *len = (size_t)n;
    return s;
}

START_TEST(host_file_golden)
{
    const char *slash = strrchr(__FILE__, '/');
    int dir = slash ? (int)(slash - __FILE__) + 1 : 0;
    char py[4096], ast[4096];
    snprintf(py, sizeof py, "%.*sdata/syntax/host_and_kernels.py", dir, __FILE__);
    snprintf(ast, sizeof ast, "%.*sdata/syntax/host_and_kernels.ast", dir, __FILE__);
    size_t len, alen;
    char *src = read_file(py, &len);
    ck_assert_msg(src != NULL, "cannot read %s", py);
    char *got = print_all(src, len);
    const char *update = getenv("MT_UPDATE_GOLDEN");
    if (update && *update && strcmp(update, "0") != 0) {
        FILE *f = fopen(ast, "wb");
        ck_assert_msg(f != NULL, "cannot write %s", ast);
        fputs(got, f);
        fclose(f);
    }
    char *want = read_file(ast, &alen);
    ck_assert_msg(want != NULL, "cannot read %s (MT_UPDATE_GOLDEN=1 creates it)", ast);
    ck_assert_str_eq(got, want);
    free(want);
    free(got);
    free(src);
}
END_TEST

static Suite *ast_print_suite(void)
{
    Suite *s = suite_create("ast_print");
    TCase *tc = tcase_create("ast_print");
    tcase_add_test(tc, small_kernel);
    tcase_add_test(tc, every_node_form);
    tcase_add_test(tc, unsupported_nodes_and_elif);
    tcase_add_test(tc, host_file_golden);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(ast_print_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
