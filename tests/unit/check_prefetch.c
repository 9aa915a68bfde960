/* check_prefetch.c: the fast lowering's software pipelining (opt/prefetch.c)
 * on SSA read from text: a tl.dot loop's loads move one iteration ahead
 * (first iteration before the loop, masked by the loop running at all;
 * the next one before the dot, masked by its being in range), the tiles a
 * dot reads from shared-memory stages as many iterations ahead as asked,
 * and loops it must not touch stay as they are: a store in the body, no dot, an address
 * read from memory, a runtime step. The clone it runs on keeps the
 * original untouched. */
#include <check.h>

#include <stdlib.h>

#include "opt/passes.h"
#include "ssa/read.h"
#include "ssa/verify.h"

static const char *first_msg(MtCtx *c) { return mt_diag_count(c) ? mt_diag_at(c, 0)->msg : "(none)"; }

static MtFunc *read_ok(MtCtx *c, const char *text)
{
    MtFunc *f = mt_ssa_read(c, text, "in.ssa");
    ck_assert_msg(f != NULL, "input does not read: %s", first_msg(c));
    ck_assert_msg(mt_verify(c, f, "input"), "%s", first_msg(c));
    return f;
}

static void check_prefetch_ahead(const char *in, uint32_t ahead, const char *want)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, in);
    mt_prefetch(c, f, ahead);
    ck_assert_msg(mt_verify(c, f, "prefetch"), "%s", first_msg(c));
    ck_assert_str_eq(mt_ssa_write(c, f), want);
    mt_ctx_free(c);
}

/* One iteration ahead (num_stages 2); the depth asked for the tiles a
 * dot reads from shared-memory stages is the last tests' business. */
static void check_prefetch(const char *in, const char *want) { check_prefetch_ahead(in, 1, want); }

#define H "kernel k(a: ptr<f32>, b: ptr<f32>, out: ptr<f32>, K: i32)\n"
/* A's and B's tile pointers, and the store of the result */
#define TILES                                                                                                     \
    "%0 = zeros {shape=(16, 16), dtype=f32} : block<16x16 x f32>\n"                                               \
    "%1 = arange {start=0, end=16} : vector<16 x i32>\n"                                                          \
    "%2 = expand_dims %1 {axis=1} : block<16x1 x i32>\n"                                                          \
    "%3 = addptr a, %2 : block<16x1 x ptr<f32>>\n"                                                                \
    "%5 = arange {start=0, end=8} : vector<8 x i32>\n"                                                            \
    "%6 = expand_dims %5 {axis=0} : block<1x8 x i32>\n"                                                           \
    "%7 = addptr %3, %6 : block<16x8 x ptr<f32>>\n"                                                               \
    "%8 = expand_dims %5 {axis=1} : block<8x1 x i32>\n"                                                           \
    "%10 = addptr b, %8 : block<8x1 x ptr<f32>>\n"                                                                \
    "%12 = expand_dims %1 {axis=0} : block<1x16 x i32>\n"                                                         \
    "%13 = addptr %10, %12 : block<8x16 x ptr<f32>>\n"
#define LOOP                                                                                                      \
    "%24, %25, %26 = for %14 in range(0, K, 8) iter_args(%15 = %0, %16 = %7, %17 = %13) : block<16x16 x f32>, "   \
    "block<16x8 x ptr<f32>>, block<8x16 x ptr<f32>> {\n"
#define STORE                                                                                                     \
    "%31 = addptr out, %2 : block<16x1 x ptr<f32>>\n"                                                             \
    "%32 = addptr %31, %12 : block<16x16 x ptr<f32>>\n"                                                           \
    "store %32, %24, none\n"

/* the body: A masked along K, B not */
#define DOT_BODY                                                                                                  \
    "  %30 = cmp_lt %6, K : block<1x8 x bool>\n"                                                                  \
    "  %18 = load %16, %30, 0.0 : block<16x8 x f32>\n"                                                            \
    "  %19 = load %17, none, none : block<8x16 x f32>\n"                                                          \
    "  %20 = dot %18, %19 : block<16x16 x f32>\n"                                                                 \
    "  %21 = add %15, %20 : block<16x16 x f32>\n"                                                                 \
    "  %22 = addptr %16, 8 : block<16x8 x ptr<f32>>\n"                                                            \
    "  %23 = addptr %17, 128 : block<8x16 x ptr<f32>>\n"                                                          \
    "  yield %21, %22, %23\n"

START_TEST(dot_loop_loads_one_iteration_ahead)
{
    check_prefetch(H TILES LOOP
                   DOT_BODY
                   "}\n" STORE,
                   H TILES
                   "%33 = cmp_lt 0, K : bool\n"
                   "%34 = cmp_lt %6, K : block<1x8 x bool>\n"
                   "%35 = and %34, %33 : block<1x8 x bool>\n"
                   "%36 = load %7, %35, 0.0 : block<16x8 x f32>\n"
                   "%37 = load %13, %33, none : block<8x16 x f32>\n"
                   "%24, %25, %26, %46, %48 = for %14 in range(0, K, 8) iter_args(%15 = %0, %16 = %7, %17 = %13, "
                   "%45 = %36, %47 = %37) : block<16x16 x f32>, block<16x8 x ptr<f32>>, block<8x16 x ptr<f32>>, "
                   "block<16x8 x f32>, block<8x16 x f32> {\n"
                   "  %38 = add %14, 8 : i32\n"
                   "  %39 = cmp_lt %38, K : bool\n"
                   "  %40 = addptr %16, 8 : block<16x8 x ptr<f32>>\n"
                   "  %41 = and %34, %39 : block<1x8 x bool>\n"
                   "  %42 = load %40, %41, 0.0 : block<16x8 x f32>\n"
                   "  %43 = addptr %17, 128 : block<8x16 x ptr<f32>>\n"
                   "  %44 = load %43, %39, none : block<8x16 x f32>\n"
                   "  %20 = dot %45, %47 : block<16x16 x f32>\n"
                   "  %21 = add %15, %20 : block<16x16 x f32>\n"
                   "  yield %21, %40, %43, %42, %44\n"
                   "}\n" STORE);
}
END_TEST

/* A dot of f32 tiles as they are loaded reads them from stages on CUDA
 * cores too: asked for two, they go two iterations ahead (as the tensor
 * cores' tiles below); a tile the dot reads through arithmetic stays one
 * ahead, in registers. */
START_TEST(f32_dot_tiles_go_two_iterations_ahead)
{
    check_prefetch_ahead(H TILES LOOP DOT_BODY "}\n" STORE, 2, H TILES
                         "%33 = cmp_lt 0, K : bool\n"
                         "%34 = cmp_lt %6, K : block<1x8 x bool>\n"
                         "%35 = and %34, %33 : block<1x8 x bool>\n"
                         "%36 = load %7, %35, 0.0 : block<16x8 x f32>\n"
                         "%37 = load %13, %33, none : block<8x16 x f32>\n"
                         "%38 = add 0, 8 : i32\n"
                         "%39 = cmp_lt %38, K : bool\n"
                         "%40 = addptr %7, 8 : block<16x8 x ptr<f32>>\n"
                         "%42 = and %34, %39 : block<1x8 x bool>\n"
                         "%43 = load %40, %42, 0.0 : block<16x8 x f32>\n"
                         "%44 = addptr %13, 128 : block<8x16 x ptr<f32>>\n"
                         "%45 = load %44, %39, none : block<8x16 x f32>\n"
                         "%24, %25, %26, %58, %60, %62, %64 = for %14 in range(0, K, 8) iter_args(%15 = %0, %16 = %7, %17 = %13, %57 = %36, %59 = %43, %61 = %37, %63 = %45) : block<16x16 x f32>, block<16x8 x ptr<f32>>, block<8x16 x ptr<f32>>, block<16x8 x f32>, block<16x8 x f32>, block<8x16 x f32>, block<8x16 x f32> {\n"
                         "  %48 = add %14, 16 : i32\n"
                         "  %49 = cmp_lt %48, K : bool\n"
                         "  %50 = addptr %16, 8 : block<16x8 x ptr<f32>>\n"
                         "  %51 = addptr %50, 8 : block<16x8 x ptr<f32>>\n"
                         "  %52 = and %34, %49 : block<1x8 x bool>\n"
                         "  %53 = load %51, %52, 0.0 : block<16x8 x f32>\n"
                         "  %54 = addptr %17, 128 : block<8x16 x ptr<f32>>\n"
                         "  %55 = addptr %54, 128 : block<8x16 x ptr<f32>>\n"
                         "  %56 = load %55, %49, none : block<8x16 x f32>\n"
                         "  %20 = dot %57, %61 : block<16x16 x f32>\n"
                         "  %21 = add %15, %20 : block<16x16 x f32>\n"
                         "  yield %21, %50, %54, %59, %53, %63, %56\n"
                         "}\n" STORE);
}
END_TEST

START_TEST(tile_read_through_arithmetic_stays_one_ahead)
{
    check_prefetch_ahead(H TILES LOOP
                         "  %18 = load %16, none, none : block<16x8 x f32>\n"
                         "  %27 = mul %18, 2.0 : block<16x8 x f32>\n"
                         "  %19 = load %17, none, none : block<8x16 x f32>\n"
                         "  %20 = dot %27, %19 : block<16x16 x f32>\n"
                         "  %21 = add %15, %20 : block<16x16 x f32>\n"
                         "  %22 = addptr %16, 8 : block<16x8 x ptr<f32>>\n"
                         "  %23 = addptr %17, 128 : block<8x16 x ptr<f32>>\n"
                         "  yield %21, %22, %23\n"
                         "}\n" STORE,
                         2, H TILES
                         "%33 = cmp_lt 0, K : bool\n"
                         "%34 = load %7, %33, none : block<16x8 x f32>\n"
                         "%35 = load %13, %33, none : block<8x16 x f32>\n"
                         "%36 = add 0, 8 : i32\n"
                         "%37 = cmp_lt %36, K : bool\n"
                         "%38 = addptr %13, 128 : block<8x16 x ptr<f32>>\n"
                         "%39 = load %38, %37, none : block<8x16 x f32>\n"
                         "%24, %25, %26, %50, %52, %54 = for %14 in range(0, K, 8) iter_args(%15 = %0, %16 = %7, %17 = %13, %49 = %34, %51 = %35, %53 = %39) : block<16x16 x f32>, block<16x8 x ptr<f32>>, block<8x16 x ptr<f32>>, block<16x8 x f32>, block<8x16 x f32>, block<8x16 x f32> {\n"
                         "  %27 = mul %49, 2.0 : block<16x8 x f32>\n"
                         "  %40 = add %14, 8 : i32\n"
                         "  %41 = cmp_lt %40, K : bool\n"
                         "  %42 = addptr %16, 8 : block<16x8 x ptr<f32>>\n"
                         "  %43 = load %42, %41, none : block<16x8 x f32>\n"
                         "  %44 = add %14, 16 : i32\n"
                         "  %45 = cmp_lt %44, K : bool\n"
                         "  %46 = addptr %17, 128 : block<8x16 x ptr<f32>>\n"
                         "  %47 = addptr %46, 128 : block<8x16 x ptr<f32>>\n"
                         "  %48 = load %47, %45, none : block<8x16 x f32>\n"
                         "  %20 = dot %27, %51 : block<16x16 x f32>\n"
                         "  %21 = add %15, %20 : block<16x16 x f32>\n"
                         "  yield %21, %42, %46, %43, %53, %48\n"
                         "}\n" STORE);
}
END_TEST

/* Loops the pass leaves alone come out as they went in. */
static void unchanged(const char *text) { check_prefetch(text, text); }

/* The tiles of a tensor-core dot (f16 tiles widened by casts) go two
 * iterations ahead, carried through two slots each: the body reads the
 * first, the second passes its tile on, and the loads of iteration k + 2
 * (masked by its being in range) fill it; the first two iterations' tiles
 * are loaded before the loop, iteration by iteration. */
START_TEST(tensor_core_tiles_go_two_iterations_ahead)
{
    check_prefetch_ahead(
        "kernel k(a: ptr<f16>, b: ptr<f16>, out: ptr<f32>, K: i32)\n"
        "%0 = zeros {shape=(16, 16), dtype=f32} : block<16x16 x f32>\n"
        "%1 = arange {start=0, end=16} : vector<16 x i32>\n"
        "%2 = expand_dims %1 {axis=1} : block<16x1 x i32>\n"
        "%3 = addptr a, %2 : block<16x1 x ptr<f16>>\n"
        "%6 = expand_dims %1 {axis=0} : block<1x16 x i32>\n"
        "%7 = addptr %3, %6 : block<16x16 x ptr<f16>>\n"
        "%13 = addptr b, %2 : block<16x1 x ptr<f16>>\n"
        "%14 = addptr %13, %6 : block<16x16 x ptr<f16>>\n"
        "%24, %25, %26 = for %15 in range(0, K, 16) iter_args(%16 = %0, %17 = %7, %18 = %14) : block<16x16 x f32>, block<16x16 x ptr<f16>>, block<16x16 x ptr<f16>> {\n"
        "  %19 = load %17, none, none : block<16x16 x f16>\n"
        "  %20 = cast %19 : block<16x16 x f32>\n"
        "  %21 = load %18, none, none : block<16x16 x f16>\n"
        "  %22 = cast %21 : block<16x16 x f32>\n"
        "  %23 = dot %20, %22 : block<16x16 x f32>\n"
        "  %27 = add %16, %23 : block<16x16 x f32>\n"
        "  %28 = addptr %17, 16 : block<16x16 x ptr<f16>>\n"
        "  %29 = addptr %18, 256 : block<16x16 x ptr<f16>>\n"
        "  yield %27, %28, %29\n"
        "}\n"
        "%31 = addptr out, %2 : block<16x1 x ptr<f32>>\n"
        "%32 = addptr %31, %6 : block<16x16 x ptr<f32>>\n"
        "store %32, %24, none\n",
        2,
        "kernel k(a: ptr<f16>, b: ptr<f16>, out: ptr<f32>, K: i32)\n"
        "%0 = zeros {shape=(16, 16), dtype=f32} : block<16x16 x f32>\n"
        "%1 = arange {start=0, end=16} : vector<16 x i32>\n"
        "%2 = expand_dims %1 {axis=1} : block<16x1 x i32>\n"
        "%3 = addptr a, %2 : block<16x1 x ptr<f16>>\n"
        "%6 = expand_dims %1 {axis=0} : block<1x16 x i32>\n"
        "%7 = addptr %3, %6 : block<16x16 x ptr<f16>>\n"
        "%13 = addptr b, %2 : block<16x1 x ptr<f16>>\n"
        "%14 = addptr %13, %6 : block<16x16 x ptr<f16>>\n"
        "%33 = cmp_lt 0, K : bool\n"
        "%34 = load %7, %33, none : block<16x16 x f16>\n"
        "%35 = load %14, %33, none : block<16x16 x f16>\n"
        "%36 = add 0, 16 : i32\n"
        "%37 = cmp_lt %36, K : bool\n"
        "%38 = addptr %7, 16 : block<16x16 x ptr<f16>>\n"
        "%39 = load %38, %37, none : block<16x16 x f16>\n"
        "%40 = addptr %14, 256 : block<16x16 x ptr<f16>>\n"
        "%41 = load %40, %37, none : block<16x16 x f16>\n"
        "%24, %25, %26, %53, %55, %57, %59 = for %15 in range(0, K, 16) iter_args(%16 = %0, %17 = %7, %18 = %14, %52 = %34, %54 = %39, %56 = %35, %58 = %41) : block<16x16 x f32>, block<16x16 x ptr<f16>>, block<16x16 x ptr<f16>>, block<16x16 x f16>, block<16x16 x f16>, block<16x16 x f16>, block<16x16 x f16> {\n"
        "  %20 = cast %52 : block<16x16 x f32>\n"
        "  %22 = cast %56 : block<16x16 x f32>\n"
        "  %44 = add %15, 32 : i32\n"
        "  %45 = cmp_lt %44, K : bool\n"
        "  %46 = addptr %17, 16 : block<16x16 x ptr<f16>>\n"
        "  %47 = addptr %46, 16 : block<16x16 x ptr<f16>>\n"
        "  %48 = load %47, %45, none : block<16x16 x f16>\n"
        "  %49 = addptr %18, 256 : block<16x16 x ptr<f16>>\n"
        "  %50 = addptr %49, 256 : block<16x16 x ptr<f16>>\n"
        "  %51 = load %50, %45, none : block<16x16 x f16>\n"
        "  %23 = dot %20, %22 : block<16x16 x f32>\n"
        "  %27 = add %16, %23 : block<16x16 x f32>\n"
        "  yield %27, %46, %49, %54, %48, %58, %51\n"
        "}\n"
        "%31 = addptr out, %2 : block<16x1 x ptr<f32>>\n"
        "%32 = addptr %31, %6 : block<16x16 x ptr<f32>>\n"
        "store %32, %24, none\n");
}
END_TEST

START_TEST(loop_that_stores_is_left_alone)
{
    /* a load moved above the store could read what the store writes */
    unchanged(H TILES LOOP
              "  %18 = load %16, none, none : block<16x8 x f32>\n"
              "  %19 = load %17, none, none : block<8x16 x f32>\n"
              "  %20 = dot %18, %19 : block<16x16 x f32>\n"
              "  %21 = add %15, %20 : block<16x16 x f32>\n"
              "  store %16, %18, none\n"
              "  %22 = addptr %16, 8 : block<16x8 x ptr<f32>>\n"
              "  %23 = addptr %17, 128 : block<8x16 x ptr<f32>>\n"
              "  yield %21, %22, %23\n"
              "}\n" STORE);
}
END_TEST

START_TEST(loop_without_a_dot_is_left_alone)
{
    unchanged(H "%0 = arange {start=0, end=8} : vector<8 x i32>\n"
                "%1 = addptr a, %0 : vector<8 x ptr<f32>>\n"
                "%5 = for %2 in range(0, K, 1) iter_args(%3 = 0.0) : f32 {\n"
                "  %4 = load %1, none, none : vector<8 x f32>\n"
                "  %7 = sum %4 : f32\n"
                "  %8 = add %3, %7 : f32\n"
                "  yield %8\n"
                "}\n"
                "store out, %5, none\n");
}
END_TEST

START_TEST(address_read_from_memory_is_not_moved)
{
    /* B's rows come from an index loaded in the body: the index load moves
     * ahead with A's (its address is the iteration's), but the tile load
     * whose address it gives cannot be recomputed and stays */
    check_prefetch(H TILES
                   "%24, %25 = for %14 in range(0, K, 8) iter_args(%15 = %0, %16 = %7) : block<16x16 x f32>, "
                   "block<16x8 x ptr<f32>> {\n"
                   "  %18 = load %16, none, none : block<16x8 x f32>\n"
                   "  %40 = addptr b, %14 : ptr<f32>\n"
                   "  %41 = load %40, none, none : f32\n"
                   "  %42 = cast %41 : i32\n"
                   "  %43 = addptr %13, %42 : block<8x16 x ptr<f32>>\n"
                   "  %19 = load %43, none, none : block<8x16 x f32>\n"
                   "  %20 = dot %18, %19 : block<16x16 x f32>\n"
                   "  %21 = add %15, %20 : block<16x16 x f32>\n"
                   "  %22 = addptr %16, 8 : block<16x8 x ptr<f32>>\n"
                   "  yield %21, %22\n"
                   "}\n" STORE,
                   H TILES
                   "%44 = cmp_lt 0, K : bool\n"
                   "%45 = load %7, %44, none : block<16x8 x f32>\n"
                   "%46 = addptr b, 0 : ptr<f32>\n"
                   "%47 = load %46, %44, none : f32\n"
                   "%24, %25, %55, %57 = for %14 in range(0, K, 8) iter_args(%15 = %0, %16 = %7, %54 = %45, "
                   "%56 = %47) : block<16x16 x f32>, block<16x8 x ptr<f32>>, block<16x8 x f32>, f32 {\n"
                   "  %42 = cast %56 : i32\n"
                   "  %43 = addptr %13, %42 : block<8x16 x ptr<f32>>\n"
                   "  %19 = load %43, none, none : block<8x16 x f32>\n"
                   "  %48 = add %14, 8 : i32\n"
                   "  %49 = cmp_lt %48, K : bool\n"
                   "  %50 = addptr %16, 8 : block<16x8 x ptr<f32>>\n"
                   "  %51 = load %50, %49, none : block<16x8 x f32>\n"
                   "  %52 = addptr b, %48 : ptr<f32>\n"
                   "  %53 = load %52, %49, none : f32\n"
                   "  %20 = dot %54, %19 : block<16x16 x f32>\n"
                   "  %21 = add %15, %20 : block<16x16 x f32>\n"
                   "  yield %21, %50, %51, %53\n"
                   "}\n" STORE);
}
END_TEST

START_TEST(runtime_step_is_left_alone)
{
    unchanged(H TILES
              "%24, %25 = for %14 in range(0, K, K) iter_args(%15 = %0, %16 = %7) : block<16x16 x f32>, "
              "block<16x8 x ptr<f32>> {\n"
              "  %18 = load %16, none, none : block<16x8 x f32>\n"
              "  %19 = load %13, none, none : block<8x16 x f32>\n"
              "  %20 = dot %18, %19 : block<16x16 x f32>\n"
              "  %21 = add %15, %20 : block<16x16 x f32>\n"
              "  %22 = addptr %16, 8 : block<16x8 x ptr<f32>>\n"
              "  yield %21, %22\n"
              "}\n" STORE);
}
END_TEST

START_TEST(clone_keeps_the_original)
{
    const char *text = H TILES LOOP
        "  %18 = load %16, none, none : block<16x8 x f32>\n"
        "  %19 = load %17, none, none : block<8x16 x f32>\n"
        "  %20 = dot %18, %19 : block<16x16 x f32>\n"
        "  %21 = add %15, %20 : block<16x16 x f32>\n"
        "  %22 = addptr %16, 8 : block<16x8 x ptr<f32>>\n"
        "  %23 = addptr %17, 128 : block<8x16 x ptr<f32>>\n"
        "  yield %21, %22, %23\n"
        "}\n" STORE;
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, text);
    MtFunc *g = mt_func_clone(c, f);
    mt_prefetch(c, g, 2);
    ck_assert_msg(mt_verify(c, g, "prefetch"), "%s", first_msg(c));
    ck_assert_msg(mt_verify(c, f, "original"), "%s", first_msg(c));
    ck_assert_str_eq(mt_ssa_write(c, f), text);
    ck_assert_str_ne(mt_ssa_write(c, g), text);
    /* the values the two share keep their numbers and types */
    for (MtVal v = 1; v < f->nvals; v++)
        ck_assert_ptr_eq(mt_val_ty(f, v), mt_val_ty(g, v));
    mt_ctx_free(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("prefetch");
    TCase *t = tcase_create("prefetch");
    tcase_add_test(t, dot_loop_loads_one_iteration_ahead);
    tcase_add_test(t, f32_dot_tiles_go_two_iterations_ahead);
    tcase_add_test(t, tile_read_through_arithmetic_stays_one_ahead);
    tcase_add_test(t, tensor_core_tiles_go_two_iterations_ahead);
    tcase_add_test(t, loop_that_stores_is_left_alone);
    tcase_add_test(t, loop_without_a_dot_is_left_alone);
    tcase_add_test(t, address_read_from_memory_is_not_moved);
    tcase_add_test(t, runtime_step_is_left_alone);
    tcase_add_test(t, clone_keeps_the_original);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
