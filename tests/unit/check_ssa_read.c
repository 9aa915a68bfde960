/* check_ssa_read.c: the SSA text reader. Every seed listing under
 * data/ssa/ reads and prints back byte for byte; numbers are kept with
 * their gaps; literals get the documented constant kinds; malformed text
 * is one E0511 diagnostic at the right line:col, and SSA that is well
 * formed as text but invalid as SSA still reads (the verifier's job). */
#include <check.h>

#include "../test_util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ssa/read.h"

/* data/ssa/<name>, next to this file. */
static char *slurp(const char *name)
{
    char rel[256];
    snprintf(rel, sizeof rel, "data/ssa/%s", name);
    return test_read_beside(__FILE__, rel);
}

static const char *first_msg(MtCtx *c) { return mt_diag_count(c) ? mt_diag_at(c, 0)->msg : "(none)"; }

static void round_trip(const char *text)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = mt_ssa_read(c, text, "rt.ssa");
    ck_assert_msg(f != NULL, "read failed: %s", first_msg(c));
    ck_assert_uint_eq(mt_diag_count(c), 0);
    ck_assert_str_eq(mt_ssa_write(c, f), text);
    mt_ctx_free(c);
}

static const char *const seed_files[] = {
    "add_kernel.ssa", "softmax.ssa",      "row_sum.ssa",      "matrix_add_2d.ssa",  "factories.ssa",
    "dot.ssa",        "runtime_sum.ssa",  "two_carried.ssa",  "nested_loops.ssa",   "matmul_2d.ssa",
    "matmul_2d.opt.ssa",
};

START_TEST(seed_listings_round_trip)
{
    char *text = slurp(seed_files[_i]);
    round_trip(text);
    free(text);
}
END_TEST

START_TEST(literals_attributes_and_nesting_round_trip)
{
    round_trip("kernel lits(p: ptr<i32>, q: ptr<bool>, s: f32, t: bool)\n"
               "%0 = add -7, 2147483647 : i32\n"
               "%1 = add 1e-05, -0.0 : f32\n"
               "%2 = add inf, -inf : f32\n"
               "%3 = add nan, 1e+16 : f32\n"
               "%4 = select true, false, t : bool\n"
               "%5 = add s, 0.30000001192092896 : f32\n"
               "%6 = empty {shape=(4, 8), dtype=i32} : block<4x8 x i32>\n"
               "%7 = full 1 {shape=(4,), dtype=bool} : vector<4 x bool>\n"
               "%8 = load p, none, 3 : i32\n"
               "store q, %7, none\n"
               "for %9 in range(%0, %8, 4) {\n"
               "  %10 = addptr p, %9 : ptr<i32>\n"
               "  store %10, %9, none\n"
               "  yield\n"
               "}\n");
}
END_TEST

START_TEST(reductions_scans_shapes_round_trip)
{
    round_trip("kernel red(p: ptr<f32>)\n"
               "%0 = zeros {shape=(4, 8), dtype=f32} : block<4x8 x f32>\n"
               "%1 = sum %0 {axis=1} : vector<4 x f32>\n"
               "%2 = max %0 {axis=0, keep_dims} : block<1x8 x f32>\n"
               "%3 = cumsum %0 {axis=1, reverse} : block<4x8 x f32>\n"
               "%4 = permute %0 {order=(1, 0)} : block<8x4 x f32>\n"
               "%5 = reshape %0 : vector<32 x f32>\n"
               "%6 = broadcast %2 : block<4x8 x f32>\n"
               "%7 = expand_dims %0 {axis=1} : block<4x1x8 x f32>\n"
               "%8 = arange {start=0, end=8} : vector<8 x i32>\n"
               "%9 = xor_sum %8 : i32\n"
               "%15, %16 = reduce %1, %1 {axis=0} combine(%10, %11, %12, %13) : f32, f32 {\n"
               "  %14 = add %10, %12 : f32\n"
               "  yield %14, %11\n"
               "}\n"
               "%20 = scan %8 {axis=0, reverse} combine(%17, %18) : vector<8 x i32> {\n"
               "  %19 = mul %17, %18 : i32\n"
               "  yield %19\n"
               "}\n"
               "store p, %15, none\n");
}
END_TEST

START_TEST(if_while_and_runtime_steps_round_trip)
{
    round_trip("kernel cf(p: ptr<f32>, n: i32, s: i32, b: i64)\n"
               "%0 = cmp_gt n, 0 : bool\n"
               "%3, %4 = if %0 : f32, i32 {\n"
               "  %1 = add n, 1 : i32\n"
               "  yield 1.0, %1\n"
               "} else {\n"
               "  store p, 2.0, none\n"
               "  yield 2.0, n\n"
               "}\n"
               "if %0 {\n"
               "  yield\n"
               "} else {\n"
               "  yield\n"
               "}\n"
               "%11, %12 = while (%5 = 0, %6 = 0.0) : i32, f32 {\n"
               "  %7 = cmp_lt %5, n : bool\n"
               "  condition %7, %5, %6\n"
               "} do (%8, %9) {\n"
               "  %10 = add %8, 3 : i32\n"
               "  yield %10, %9\n"
               "}\n"
               "for %13 in range(0, n, s) {\n"
               "  yield\n"
               "}\n"
               "%14 = add b, 4 : i64\n"
               "for %15 in range(b, %14, 1) {\n"
               "  yield\n"
               "}\n"
               "store p, %3, none\n");
}
END_TEST

START_TEST(atomics_and_barrier_round_trip)
{
    round_trip("kernel at(p: ptr<i32>, f: ptr<f32>, m: bool)\n"
               "%0 = atomic_add p, 1, m {sem=acq_rel, scope=gpu} : i32\n"
               "%1 = atomic_max f, 2.5, none {sem=relaxed, scope=cta} : f32\n"
               "%2 = atomic_cas p, 0, 1 {sem=acquire, scope=sys} : i32\n"
               "%3 = atomic_xchg p, %0, none {sem=release, scope=gpu} : i32\n"
               "debug_barrier\n"
               "device_print %0, %1 {prefix=\" x \\\"q\\\\ \\x01: \", hex}\n"
               "%4 = cmp_gt %0, 0 : bool\n"
               "device_assert %4, m {msg=\"positive\"}\n"
               "device_assert %0, none {msg=\"\"}\n"
               "store p, %2, none\n");
    MtCtx *c = mt_ctx_new(NULL);
    ck_assert_ptr_null(mt_ssa_read(c, "kernel at(p: ptr<i32>)\n%0 = atomic_or p, 1, none {sem=seq_cst, scope=gpu} : i32\n",
                                   "bad.ssa"));
    ck_assert_msg(strstr(first_msg(c), "expected acq_rel, acquire, release or relaxed"), "%s", first_msg(c));
    mt_ctx_free(c);
}
END_TEST

START_TEST(numbers_are_kept_with_gaps)
{
    MtCtx *c = mt_ctx_new(NULL);
    const char *text = "kernel k(n: i32)\n"
                       "%3 = program_id {axis=2} : i32\n"
                       "%17 = add %3, n : i32\n";
    MtFunc *f = mt_ssa_read(c, text, "gaps.ssa");
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(mt_ssa_write(c, f), text);
    ck_assert_uint_eq(f->next_num, 18);
    ck_assert_str_eq(f->name, "k");
    ck_assert_uint_eq(f->nparams, 1);
    MtInst *add = f->body.v[1];
    ck_assert_ptr_eq(mt_val(f, add->dst)->def, add);
    ck_assert_uint_eq(mt_val(f, add->dst)->num, 17);
    ck_assert_ptr_eq(mt_val_ty(f, add->dst), &mt_ty_i32);
    ck_assert_int_eq(mt_val(f, add->args[1])->kind, VK_PARAM);
    ck_assert_int_eq(f->body.v[0]->attr.axis, 2);
    /* the seeds' loop: results numbered after the body, next_num past all */
    char *loop = slurp("runtime_sum.ssa");
    MtFunc *g = mt_ssa_read(c, loop, "runtime_sum.ssa");
    free(loop);
    ck_assert_ptr_nonnull(g);
    ck_assert_uint_eq(g->next_num, 6);
    MtForData *l = g->body.v[0]->loop;
    ck_assert_uint_eq(l->ncarried, 1);
    ck_assert_int_eq(l->step, 1);
    ck_assert_uint_eq(mt_val(g, l->iv)->num, 0);
    ck_assert_int_eq(mt_val(g, l->iter_args[0])->kind, VK_ARG);
    ck_assert_int_eq(mt_val(g, l->results[0])->kind, VK_RESULT);
    ck_assert_uint_eq(mt_val(g, l->results[0])->num, 5);
    ck_assert_ptr_eq(mt_val(g, l->results[0])->def, g->body.v[0]);
    ck_assert_ptr_eq(mt_val_ty(g, l->iv), &mt_ty_i32);
    ck_assert_ptr_eq(mt_val_ty(g, l->iter_args[0]), &mt_ty_f32);
    ck_assert_uint_eq(l->body.n, 4);
    mt_ctx_free(c);
}
END_TEST

START_TEST(constant_kinds)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = mt_ssa_read(c,
                            "kernel k()\n"
                            "%0 = add 3, 3.0 : f32\n"
                            "%1 = add 1e5, -2 : f32\n"
                            "%2 = and true, false : bool\n"
                            "%3 = add inf, nan : f32\n",
                            "k.ssa");
    ck_assert_ptr_nonnull(f);
    const MtValue *a = mt_val(f, f->body.v[0]->args[0]), *b = mt_val(f, f->body.v[0]->args[1]);
    ck_assert_int_eq(a->kind, VK_CONST);
    ck_assert_int_eq(a->cst.kind, CST_INT);
    ck_assert_int_eq(a->cst.i, 3);
    ck_assert_ptr_eq(a->ty, &mt_ty_i32);
    ck_assert_int_eq(b->cst.kind, CST_FLOAT);
    ck_assert_ptr_eq(b->ty, &mt_ty_f32);
    ck_assert_double_eq(b->cst.f, 3.0);
    const MtValue *e = mt_val(f, f->body.v[1]->args[0]), *m = mt_val(f, f->body.v[1]->args[1]);
    ck_assert_int_eq(e->cst.kind, CST_FLOAT);
    ck_assert_double_eq(e->cst.f, 1e5);
    ck_assert_int_eq(m->cst.kind, CST_INT);
    ck_assert_int_eq(m->cst.i, -2);
    const MtValue *t = mt_val(f, f->body.v[2]->args[0]), *fa = mt_val(f, f->body.v[2]->args[1]);
    ck_assert_int_eq(t->cst.kind, CST_BOOL);
    ck_assert_int_eq(t->cst.i, 1);
    ck_assert_int_eq(fa->cst.i, 0);
    ck_assert_ptr_eq(t->ty, &mt_ty_bool);
    ck_assert(isinf(mt_val(f, f->body.v[3]->args[0])->cst.f));
    ck_assert(isnan(mt_val(f, f->body.v[3]->args[1])->cst.f));
    mt_ctx_free(c);
}
END_TEST

START_TEST(whitespace_is_free_and_printing_normalises)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = mt_ssa_read(c,
                            "kernel   k( x :ptr< f32 > , n:i32 )\n"
                            "\n"
                            "%0=program_id{axis=0}:i32\n"
                            "   %1  =  zeros {shape = (4,8) , dtype = f32} : block< 4x8 x f32 >\n"
                            "%2 = arange {start=0, end=8} : vector<8 x i32>\n"
                            "%3 = addptr x,%2:vector<8 x ptr<f32>>   \n"
                            "store %3 ,0.0, none",
                            "ws.ssa");
    ck_assert_msg(f != NULL, "%s", first_msg(c));
    ck_assert_str_eq(mt_ssa_write(c, f), "kernel k(x: ptr<f32>, n: i32)\n"
                                         "%0 = program_id {axis=0} : i32\n"
                                         "%1 = zeros {shape=(4, 8), dtype=f32} : block<4x8 x f32>\n"
                                         "%2 = arange {start=0, end=8} : vector<8 x i32>\n"
                                         "%3 = addptr x, %2 : vector<8 x ptr<f32>>\n"
                                         "store %3, 0.0, none\n");
    mt_ctx_free(c);
}
END_TEST

START_TEST(invalid_ssa_still_reads)
{
    /* use before definition, an undefined value, a missing result type, a
     * store with a result, a yield at top level: syntax only */
    const char *text = "kernel k(x: ptr<f32>)\n"
                       "%1 = add %2, %9 : i32\n"
                       "%2 = add %1, 1\n"
                       "%3 = store x, 1.0, none\n"
                       "yield %3\n"
                       "%4 = sum 1 : f32\n";
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = mt_ssa_read(c, text, "bad.ssa");
    ck_assert_msg(f != NULL, "%s", first_msg(c));
    ck_assert_str_eq(mt_ssa_write(c, f), text);
    ck_assert_ptr_null(mt_val_ty(f, f->body.v[0]->args[1]));  /* %9: never defined */
    ck_assert_ptr_null(f->body.v[1]->ty);
    mt_ctx_free(c);
}
END_TEST

/* Each malformed text: exactly one E0511 at line:col with this message. */
typedef struct Bad {
    const char *text;
    uint32_t line, col;
    const char *msg;
} Bad;

static const Bad bad[] = {
    {"%0 = program_id {axis=0} : i32\n", 1, 1, "expected the header 'kernel name(param: type, ...)'"},
    {"kernel k(x: ptr<f32>, x: i32)\n", 1, 23, "duplicate parameter 'x'"},
    {"kernel k(none: i32)\n", 1, 10, "'none' is a reserved operand name"},
    {"kernel k(v: vector<4 x f32>)\n", 1, 13, "parameters are scalars or pointers"},
    {"kernel k()\n%0 = frob 1 : i32\n", 2, 6, "unknown operation 'frob'"},
    {"kernel k()\n%0 = add y, 1 : i32\n", 2, 10, "unknown name 'y': not a parameter of the kernel"},
    {"kernel k()\n%0 = add 1, 99999999999999999999 : i32\n", 2, 13,
     "integer constant 99999999999999999999 does not fit in 64 bits"},
    {"kernel k()\n%0 = add 1, 2:vector<2 x i32> : i32\n", 2, 30, "a constant's type is a scalar type"},
    {"kernel k()\n%0 = add 1.2.3, 1 : f32\n", 2, 10, "malformed number"},
    {"kernel k()\n%0 = add 12abc, 1 : f32\n", 2, 10, "malformed number"},
    {"kernel k()\n%0 = add 1, 2 : vector<8 x ptr<ptr<f32>>>\n", 2, 28, "pointers point to scalars"},
    {"kernel k()\n%0 = zeros {shape=(8,), dtype=f32} : block<8 x f32>\n", 2, 38, "block types have two or more dimensions"},
    {"kernel k()\n%0 = zeros {shape=(8,), dtype=f32} : vector<0 x f32>\n", 2, 45,
     "expected a positive block dimension, got 0"},
    {"kernel k()\n%0 = zeros {shape=(2, 2, 2, 2, 2), dtype=f32} : vector<8 x f32>\n", 2, 32,
     "shapes have at most 4 dimensions"},
    {"kernel k()\n%0 = program_id : i32\n", 2, 17, "program_id needs its attributes {...}"},
    {"kernel k()\n%0 = add 1, 2 {axis=0} : i32\n", 2, 15, "add takes no attributes"},
    {"kernel k()\n%0 = arange {start=0, stop=8} : vector<8 x i32>\n", 2, 23, "expected 'end='"},
    {"kernel k()\n%0 = add 1, 2 : i32 junk\n", 2, 21, "expected the end of the line"},
    {"kernel k()\n%0, %1 = add 1, 2 : i32\n", 2, 1, "add defines one value; only for, if, while, reduce and scan define several"},
    {"kernel k(K: i32)\nfor %0 in range(0, K, 1) {\n  yield\n", 4, 1, "missing '}' closing the for on line 2"},
    {"kernel k()\n}\n", 2, 1, "'}' without an open region"},
    {"kernel k(K: i32)\n%5, %6 = for %0 in range(0, K, 1) iter_args(%1 = 0.0) : f32 {\n  yield %1\n}\n", 2, 1,
     "for defines 2 results but carries 1 value"},
    {"kernel k(K: i32)\n%5 = for %0 in range(0, K, 1) iter_args(%1 = 0.0) : f32, i32 {\n  yield %1\n}\n", 2, 1,
     "for carries 1 value but declares 2 types"},
    {"kernel k(K: i32)\nfor %0 in range(0, K) {\n  yield\n}\n", 2, 21, "expected ','"},
    {"kernel k(K: i32)\n%0 = add K, 1 : i32\nfor %0 in range(0, K, 1) {\n  yield\n}\n", 3, 5,
     "%0 is already defined as an instruction result"},
    {"kernel k()\n%99999999 = add 1, 2 : i32\n", 2, 2, "expected a value number up to 16777216, got 99999999"},
    {"kernel k()\n%0 = add 1, : i32\n", 2, 13, "expected an operand"},
};

START_TEST(malformed_text_is_one_e0511)
{
    const Bad *b = &bad[_i];
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = mt_ssa_read(c, b->text, "bad.ssa");
    ck_assert_ptr_null(f);
    ck_assert_uint_eq(mt_diag_count(c), 1);
    const MtDiag *d = mt_diag_at(c, 0);
    ck_assert_str_eq(d->code, "E0511");
    ck_assert_str_eq(d->msg, b->msg);
    ck_assert_uint_eq(d->span.line, b->line);
    ck_assert_uint_eq(d->span.col, b->col);
    ck_assert_str_eq(mt_file_path(c, d->span.file), "bad.ssa");
    mt_ctx_free(c);
}
END_TEST

START_TEST(diagnostics_render_against_the_text)
{
    MtCtx *c = mt_ctx_new(NULL);
    ck_assert_ptr_null(mt_ssa_read(c, "kernel k()\n%0 = add 1, 2 : i65\n", "t.ssa"));
    const char *r = mt_diag_render(c, mt_diag_at(c, 0), false);
    ck_assert_msg(strstr(r, "t.ssa:2:17") != NULL, "%s", r);
    ck_assert_msg(strstr(r, "%0 = add 1, 2 : i65") != NULL, "%s", r);
    ck_assert_msg(strstr(r, "expected a type") != NULL, "%s", r);
    mt_ctx_free(c);
}
END_TEST

START_TEST(instruction_spans_cover_their_line)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = mt_ssa_read(c, "kernel k(K: i32)\nfor %0 in range(0, K, 1) {\n  %1 = add %0, 1 : i32\n  yield\n}\n",
                            "s.ssa");
    ck_assert_ptr_nonnull(f);
    MtInst *loop = f->body.v[0], *add = loop->loop->body.v[0];
    ck_assert_uint_eq(loop->span.line, 2);
    ck_assert_uint_eq(loop->span.col, 1);
    ck_assert_uint_eq(loop->span.end_col, 27);
    ck_assert_uint_eq(add->span.line, 3);
    ck_assert_uint_eq(add->span.col, 3);
    ck_assert_uint_eq(add->span.end_col, 23);
    mt_ctx_free(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ssa_read");
    TCase *rt = tcase_create("round_trip");
    tcase_add_loop_test(rt, seed_listings_round_trip, 0, (int)(sizeof seed_files / sizeof seed_files[0]));
    tcase_add_test(rt, literals_attributes_and_nesting_round_trip);
    tcase_add_test(rt, reductions_scans_shapes_round_trip);
    tcase_add_test(rt, if_while_and_runtime_steps_round_trip);
    tcase_add_test(rt, atomics_and_barrier_round_trip);
    tcase_add_test(rt, numbers_are_kept_with_gaps);
    tcase_add_test(rt, constant_kinds);
    tcase_add_test(rt, whitespace_is_free_and_printing_normalises);
    tcase_add_test(rt, invalid_ssa_still_reads);
    tcase_add_test(rt, instruction_spans_cover_their_line);
    suite_add_tcase(s, rt);
    TCase *err = tcase_create("malformed");
    tcase_add_loop_test(err, malformed_text_is_one_e0511, 0, (int)(sizeof bad / sizeof bad[0]));
    tcase_add_test(err, diagnostics_render_against_the_text);
    suite_add_tcase(s, err);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
