/* check_cost.c: mt_query_cost, the bytes and FLOPs of one program
 * (mytriton/cost.h's rule), with every figure worked out by hand: the
 * examples' vector add, softmax and tiled matmul with its runtime K loop,
 * and small kernels for each part of the rule (compile-time loops, loops
 * whose trip count the launch's values give or do not give, branches,
 * atomics, integer arithmetic, fused multiply-adds, scans). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mytriton/cost.h"

#ifndef MT_EXAMPLES_DIR
#error "MT_EXAMPLES_DIR must name examples/"
#endif

typedef struct Fixture {
    MtCtx *c;
    MtCompiled *k;
    char *text;
} Fixture;

static char *read_example(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", MT_EXAMPLES_DIR, name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    char *b = calloc(1, 1 << 16);
    size_t n = fread(b, 1, (1 << 16) - 1, f);
    fclose(f);
    b[n] = 0;
    return b;
}

static Fixture compile(const char *text, const char *kernel, const char *sig)
{
    Fixture f = {mt_ctx_new(NULL), NULL, strdup(text)};
    MtModule *m;
    ck_assert_int_eq(mt_parse(f.c, "k.py", f.text, strlen(f.text), &m), MT_OK);
    MtSpec spec = {.kernel = kernel, .signature = sig};
    MtStatus st = mt_compile(f.c, m, &spec, &f.k);
    ck_assert_msg(st == MT_OK, "%s: %s", kernel, mt_error_count(f.c) ? mt_diag_render(f.c, mt_diag_at(f.c, 0), false)
                                                                        : mt_status_name(st));
    return f;
}

static Fixture compile_example(const char *file, const char *kernel, const char *sig)
{
    char *text = read_example(file);
    Fixture f = compile(text, kernel, sig);
    free(text);
    return f;
}

static void done(Fixture *f)
{
    mt_ctx_free(f->c);
    free(f->text);
}

static MtCost cost(Fixture *f, const MtCostValue *values, size_t n, const int64_t grid[3])
{
    MtCostInput in = {.values = values, .nvalues = n};
    if (grid)
        memcpy(in.grid, grid, sizeof in.grid);
    MtCost c;
    ck_assert(mt_query_cost(f->c, f->k, &in, &c));
    return c;
}

static void expect_counts(MtCounts got, int64_t load, int64_t store, int64_t flops)
{
    ck_assert_int_eq(got.load_bytes, load);
    ck_assert_int_eq(got.store_bytes, store);
    ck_assert_int_eq(got.flops, flops);
}

/* x + y over 256 fp32 elements: two loads of 1 KiB, a store of 1 KiB, 256
 * additions; masked (the last block), so the bytes are an upper bound. */
START_TEST(vector_add_moves_three_blocks_and_adds_once_per_element)
{
    Fixture f = compile_example("add_kernel.py", "add_kernel", "*fp32,*fp32,*fp32,i32,256");
    MtCost c = cost(&f, NULL, 0, NULL);
    expect_counts(c.per_program, 2048, 1024, 256);
    ck_assert(c.masked);
    ck_assert(!c.branches);
    ck_assert_uint_eq(c.nloops, 0);
    done(&f);
    /* integer addition is no FLOP */
    f = compile_example("add_kernel.py", "add_kernel", "*i32,*i32,*i32,i32,256");
    expect_counts(cost(&f, NULL, 0, NULL).per_program, 2048, 1024, 0);
    done(&f);
}
END_TEST

/* A row of 1024: max (1023 comparisons), x - max (1024), exp (1024), sum
 * (1023), / (1024). */
START_TEST(softmax_counts_its_reductions_and_elementwise_math)
{
    Fixture f = compile_example("softmax.py", "softmax_kernel", "*fp32,*fp32,i32,1024");
    MtCost c = cost(&f, NULL, 0, NULL);
    expect_counts(c.per_program, 4096, 4096, 1023 + 1024 + 1024 + 1023 + 1024);
    ck_assert(c.masked);
    ck_assert_uint_eq(c.nloops, 0);
    done(&f);
}
END_TEST

/* for k_base in range(0, K, 16) with 8x16 and 16x8 fp32 tiles: 512 + 512
 * bytes loaded and one 8x8x16 dot (2048 FLOPs; the accumulation adds
 * nothing) per iteration, then the 8x8 tile stored. K = 64 is 4
 * iterations, K = 65 five; without K the loop's figures are per
 * iteration, and the loop says why. */
START_TEST(matmul_multiplies_its_k_loop_by_the_trip_count_of_the_launch)
{
    Fixture f = compile_example("dot.py", "matmul_kernel", "*fp32,*fp32,*fp32,i32,i32,i32,8,8,16");
    MtCostValue v[] = {{.name = "M", .i = 100}, {.name = "N", .i = 100}, {.name = "K", .i = 64}};
    MtCost c = cost(&f, v, 3, NULL);
    expect_counts(c.per_program, 4 * 1024, 256, 4 * 2048);
    ck_assert_uint_eq(c.nloops, 0);
    ck_assert(c.masked);
    v[2].i = 65;
    expect_counts(cost(&f, v, 3, NULL).per_program, 5 * 1024, 256, 5 * 2048);
    v[2].i = 0;
    expect_counts(cost(&f, v, 3, NULL).per_program, 0, 256, 0);
    c = cost(&f, v, 2, NULL);
    expect_counts(c.per_program, 1024, 256, 2048);
    ck_assert_uint_eq(c.nloops, 1);
    ck_assert_str_eq(c.loops[0].why, "its end reads K, which the launch does not give");
    expect_counts(c.loops[0].per_iteration, 1024, 0, 2048);
    ck_assert_uint_eq(c.loops[0].span.line, 27);
    done(&f);
}
END_TEST

static const char loops_src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def fixed(out, BLOCK: tl.constexpr, STEPS: tl.constexpr):\n"
    "    acc = tl.zeros((BLOCK,), tl.float32)\n"
    "    for i in range(STEPS):\n"
    "        acc = tl.fma(acc, 2.0, 1.0)\n"
    "    for i in tl.static_range(2):\n"
    "        acc = acc * 0.5\n"
    "    tl.store(out + tl.arange(0, BLOCK), acc)\n"
    "\n"
    "@triton.jit\n"
    "def tiles(x, out, K, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    acc = tl.zeros((BLOCK,), tl.float32)\n"
    "    for k in range(0, tl.cdiv(K, BLOCK)):\n"
    "        acc += tl.load(x + k * BLOCK + offs)\n"
    "    tl.store(out + offs, acc)\n"
    "\n"
    "@triton.jit\n"
    "def per_pid(x, out, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    acc = tl.zeros((BLOCK,), tl.float32)\n"
    "    for i in range(tl.program_id(0)):\n"
    "        acc += tl.load(x + offs)\n"
    "    for j in range(tl.num_programs(0)):\n"
    "        acc = acc - 1.0\n"
    "    tl.store(out + offs, acc)\n"
    "\n"
    "@triton.jit\n"
    "def until(x, out, n):\n"
    "    i = 0\n"
    "    acc = 0.0\n"
    "    while i < n:\n"
    "        acc = acc + tl.load(x + i)\n"
    "        i += 1\n"
    "    tl.store(out, acc)\n"
    "\n"
    "@triton.jit\n"
    "def branch(x, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    v = tl.load(x + offs)\n"
    "    if n > 10:\n"
    "        v = tl.exp(v) * 2.0\n"
    "    tl.store(out + offs, v)\n"
    "\n"
    "@triton.jit\n"
    "def counters(hist, x, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    tl.atomic_add(hist + offs, tl.load(x + offs), mask=offs < 100)\n"
    "    tl.store(x + offs, tl.cumsum(tl.load(x + offs)))\n";

/* range(STEPS) with a constexpr multiplies its body (tl.fma: 2 FLOPs per
 * element); a static range is unrolled by the frontend, each copy counted. */
START_TEST(compile_time_loops_multiply_their_bodies)
{
    Fixture f = compile(loops_src, "fixed", "*fp32,128,3");
    MtCost c = cost(&f, NULL, 0, NULL);
    expect_counts(c.per_program, 0, 512, 3 * 2 * 128 + 2 * 128);
    ck_assert(!c.masked);
    ck_assert_uint_eq(c.nloops, 0);
    done(&f);
}
END_TEST

/* range(0, tl.cdiv(K, BLOCK)) folds with the launch's K: K = 100, BLOCK 16
 * is 7 tiles of 64 bytes and 16 additions. */
START_TEST(runtime_bounds_fold_with_the_launch_values)
{
    Fixture f = compile(loops_src, "tiles", "*fp32,*fp32,i32,16");
    MtCostValue k = {.name = "K", .i = 100};
    MtCost c = cost(&f, &k, 1, NULL);
    expect_counts(c.per_program, 7 * 64, 64, 7 * 16);
    ck_assert_uint_eq(c.nloops, 0);
    ck_assert(!c.masked);
    /* a value of the wrong kind is no value */
    k.flt = true, k.f = 100.0;
    ck_assert_uint_eq(cost(&f, &k, 1, NULL).nloops, 1);
    done(&f);
}
END_TEST

/* A loop over tl.program_id differs between programs: per iteration, with
 * the reason; one over tl.num_programs is known once the grid is. */
START_TEST(program_dependent_loops_are_per_iteration)
{
    Fixture f = compile(loops_src, "per_pid", "*fp32,*fp32,32");
    MtCost c = cost(&f, NULL, 0, NULL);
    ck_assert_uint_eq(c.nloops, 2);
    ck_assert_str_eq(c.loops[0].why, "its end depends on tl.program_id");
    expect_counts(c.loops[0].per_iteration, 128, 0, 32);
    ck_assert_str_eq(c.loops[1].why, "its end depends on tl.num_programs, and the grid is not given");
    expect_counts(c.per_program, 128, 128, 32 + 32);
    int64_t grid[3] = {5, 1, 1};
    c = cost(&f, NULL, 0, grid);
    ck_assert_uint_eq(c.nloops, 1);
    expect_counts(c.per_program, 128, 128, 32 + 5 * 32);
    done(&f);
}
END_TEST

START_TEST(while_loops_are_per_iteration)
{
    Fixture f = compile(loops_src, "until", "*fp32,*fp32,i32");
    MtCostValue n = {.name = "n", .i = 10};
    MtCost c = cost(&f, &n, 1, NULL);
    ck_assert_uint_eq(c.nloops, 1);
    ck_assert_str_eq(c.loops[0].why, "a while loop: it runs until its condition is false");
    expect_counts(c.loops[0].per_iteration, 4, 0, 1);
    expect_counts(c.per_program, 4, 4, 1);
    done(&f);
}
END_TEST

/* `if n > 10` is decided by n; without it the larger branch counts. */
START_TEST(branches_follow_the_values_or_take_the_larger)
{
    Fixture f = compile(loops_src, "branch", "*fp32,*fp32,i32,64");
    MtCostValue n = {.name = "n", .i = 11};
    MtCost c = cost(&f, &n, 1, NULL);
    expect_counts(c.per_program, 256, 256, 128);
    ck_assert(!c.branches);
    n.i = 3;
    c = cost(&f, &n, 1, NULL);
    expect_counts(c.per_program, 256, 256, 0);
    ck_assert(!c.branches);
    c = cost(&f, NULL, 0, NULL);
    expect_counts(c.per_program, 256, 256, 128);
    ck_assert(c.branches);
    done(&f);
}
END_TEST

/* An atomic reads and writes its elements (masked: an upper bound); its
 * own addition is no FLOP; a cumsum of 64 is 63 additions. */
START_TEST(atomics_count_both_ways_and_scans_their_steps)
{
    Fixture f = compile(loops_src, "counters", "*fp32,*fp32,64");
    MtCost c = cost(&f, NULL, 0, NULL);
    expect_counts(c.per_program, 256 + 256 + 256, 256 + 256, 63);
    ck_assert(c.masked);
    done(&f);
}
END_TEST

START_TEST(nothing_to_count_without_ssa)
{
    MtCost c;
    MtCtx *ctx = mt_ctx_new(NULL);
    ck_assert(!mt_query_cost(ctx, NULL, NULL, &c));
    ck_assert_int_eq(c.per_program.flops, 0);
    mt_ctx_free(ctx);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cost");
    TCase *t = tcase_create("cost");
    tcase_add_test(t, vector_add_moves_three_blocks_and_adds_once_per_element);
    tcase_add_test(t, softmax_counts_its_reductions_and_elementwise_math);
    tcase_add_test(t, matmul_multiplies_its_k_loop_by_the_trip_count_of_the_launch);
    tcase_add_test(t, compile_time_loops_multiply_their_bodies);
    tcase_add_test(t, runtime_bounds_fold_with_the_launch_values);
    tcase_add_test(t, program_dependent_loops_are_per_iteration);
    tcase_add_test(t, while_loops_are_per_iteration);
    tcase_add_test(t, branches_follow_the_values_or_take_the_larger);
    tcase_add_test(t, atomics_count_both_ways_and_scans_their_steps);
    tcase_add_test(t, nothing_to_count_without_ssa);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
