/* check_verify.c: the SSA verifier, one case per rule.
 *
 * Each rule case is a function that breaks exactly that rule (written as
 * SSA text, or read and then damaged through the builder API where text
 * cannot express the damage) and the one diagnostic it must produce, code
 * and message. The seed listings under data/ssa/ and a set of edge cases
 * that are valid must verify without a diagnostic. */
#include <check.h>

#include "../test_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "ssa/read.h"
#include "ssa/verify.h"

#define H "kernel k(x: ptr<f32>, p: ptr<i32>, n: i32, s: f32, K: i32)\n"
#define ARANGE8 "%0 = arange {start=0, end=8} : vector<8 x i32>\n"

static char *slurp(const char *name)
{
    char rel[256];
    snprintf(rel, sizeof rel, "data/ssa/%s", name);
    return test_read_beside(__FILE__, rel);
}

/* "[E0501 msg] [E0503 msg] " for failure messages, in the context's arena. */
static const char *all_msgs(MtCtx *c)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    for (size_t i = 0; i < mt_diag_count(c); i++)
        mt_buf_printf(&b, "[%s %s] ", mt_diag_at(c, i)->code, mt_diag_at(c, i)->msg);
    return mt_buf_str(&b);
}

static MtFunc *read_ok(MtCtx *c, const char *text)
{
    MtFunc *f = mt_ssa_read(c, text, "v.ssa");
    ck_assert_msg(f != NULL, "does not read: %s", all_msgs(c));
    return f;
}

/* f fails verification with exactly one diagnostic: code, msg. */
static void expect_one(MtCtx *c, const MtFunc *f, const char *code, const char *msg)
{
    ck_assert_msg(!mt_verify(c, f, NULL), "verified, expected %s %s", code, msg);
    ck_assert_msg(mt_diag_count(c) == 1, "expected one diagnostic, got %s", all_msgs(c));
    ck_assert_str_eq(mt_diag_at(c, 0)->code, code);
    ck_assert_str_eq(mt_diag_at(c, 0)->msg, msg);
}

/* f fails verification and the first diagnostic is code, msg. */
static void expect_first(MtCtx *c, const MtFunc *f, const char *code, const char *msg)
{
    ck_assert_msg(!mt_verify(c, f, NULL), "verified, expected %s %s", code, msg);
    ck_assert_str_eq(mt_diag_at(c, 0)->code, code);
    ck_assert_str_eq(mt_diag_at(c, 0)->msg, msg);
}

typedef struct Rule {
    const char *name;
    const char *text;
    const char *code;
    const char *msg;
} Rule;

static const Rule rules[] = {
    /* ---- E0501: definitions and scope ---- */
    {"operand_none", H "%0 = add none, 1 : i32\n", "E0501", "add operand 1 is none"},
    {"store_value_none", H "store x, none, none\n", "E0501", "store operand 2 is none"},
    {"for_bound_none", H "for %0 in range(0, none, 1) {\n  yield\n}\n", "E0501", "for operand 2 is none"},
    {"use_before_definition", H "%0 = add %1, 1 : i32\n%1 = program_id {axis=0} : i32\n", "E0501",
     "add operand 1 (%1) is used before its definition"},
    {"self_use", H "%0 = add %0, 1 : i32\n", "E0501", "add operand 1 (%0) is used before its definition"},
    {"never_defined", H "%0 = add n, %7 : i32\n", "E0501", "add operand 2 (%7) is never defined"},
    {"body_value_after_loop", H "for %0 in range(0, K, 1) {\n  %1 = addptr x, %0 : ptr<f32>\n  yield\n}\n"
                                "store %1, 1.0, none\n",
     "E0501", "store operand 1 (%1) is used outside the loop body that defines it"},
    {"induction_variable_after_loop", H "for %0 in range(0, K, 1) {\n  yield\n}\n%1 = add %0, 1 : i32\n", "E0501",
     "add operand 1 (%0) is used outside the loop body that defines it"},
    {"region_argument_after_loop",
     H "%3 = for %0 in range(0, K, 1) iter_args(%1 = 0.0) : f32 {\n  %2 = add %1, 1.0 : f32\n  yield %2\n}\n"
       "store x, %1, none\n",
     "E0501", "store operand 2 (%1) is used outside the loop body that defines it"},
    {"induction_variable_before_loop", H "%1 = add %0, 1 : i32\nfor %0 in range(0, K, 1) {\n  yield\n}\n", "E0501",
     "add operand 1 (%0) is used before its definition"},
    {"result_inside_its_body",
     H "%3 = for %0 in range(0, K, 1) iter_args(%1 = 0.0) : f32 {\n  %2 = add %3, 1.0 : f32\n  yield %2\n}\n",
     "E0501", "add operand 1 (%3) is used before its definition"},
    {"result_as_its_own_init", H "%3 = for %0 in range(0, K, 1) iter_args(%1 = %3) : f32 {\n  yield %1\n}\n", "E0501",
     "for operand 3 (%3) is used before its definition"},
    {"sibling_loop_value", H "for %0 in range(0, K, 1) {\n  %1 = add %0, 1 : i32\n  yield\n}\n"
                             "for %2 in range(0, K, 1) {\n  %3 = add %1, %2 : i32\n  yield\n}\n",
     "E0501", "add operand 1 (%1) is used outside the loop body that defines it"},
    {"inner_body_value_in_outer_body",
     H "for %0 in range(0, K, 1) {\n  for %1 in range(0, K, 1) {\n    %2 = add %0, %1 : i32\n    yield\n  }\n"
       "  %3 = add %2, 1 : i32\n  yield\n}\n",
     "E0501", "add operand 1 (%2) is used outside the loop body that defines it"},
    {"defined_twice", H "%0 = program_id {axis=0} : i32\n%0 = program_id {axis=1} : i32\n", "E0501",
     "program_id defines %0 a second time"},

    /* ---- E0502: result declarations ---- */
    {"store_with_result", H "%0 = store x, 1.0, none\n", "E0502", "store must not have a result"},
    {"yield_with_result", H "%2 = for %0 in range(0, K, 1) iter_args(%1 = 0) : i32 {\n  %3 = yield %1\n}\n",
     "E0502", "yield must not have a result"},
    {"missing_result_value", H "add n, 1 : i32\n", "E0502", "add has no result value"},
    {"missing_result_type", H "%0 = add n, 1\n", "E0502", "add result %0 has no type"},

    /* ---- elementwise: E0503 operands, E0502 result element, E0504 shapes ---- */
    {"add_pointer", H "%0 = add x, 1 : i32\n", "E0503",
     "add requires numeric operands, got ptr<f32> as operand 1"},
    {"mul_pointer_rhs", H "%0 = mul 2, p : i32\n", "E0503",
     "mul requires numeric operands, got ptr<i32> as operand 2"},
    {"bool_plus_bool_is_bool", H "%0 = add true, false : i32\n", "E0502", "add result type is i32, expected bool"},
    {"add_promotes_to_f32", H "%0 = add n, s : i32\n", "E0502", "add result type is i32, expected f32"},
    {"maximum_promotes", H "%0 = maximum true, n : bool\n", "E0502", "maximum result type is bool, expected i32"},
    {"div_is_f32", H "%0 = div n, 2 : i32\n", "E0502", "div result type is i32, expected f32"},
    {"floordiv_f32", H "%0 = floordiv n, s : i32\n", "E0503",
     "floordiv requires integer or bool operands, got f32 as operand 2"},
    {"mod_f32_is_f32", H "%0 = mod s, 2 : i32\n", "E0502", "mod result type is i32, expected f32"},
    {"mod_signedness", H "%0 = mod n, 3:u32 : i32\n", "E0503",
     "mod requires operands of the same signedness, got i32 and u32"},
    {"and_f32", H "%0 = and true, s : bool\n", "E0503", "and requires integer or bool operands, got f32 as operand 2"},
    {"xor_pointer", H "%0 = xor x, 1 : i32\n", "E0503", "xor requires integer or bool operands, got ptr<f32> as operand 1"},
    {"or_of_bool_and_i32_is_i32", H "%0 = or true, n : bool\n", "E0502", "or result type is bool, expected i32"},
    {"and_of_bools_is_bool", H "%0 = and true, false : i32\n", "E0502", "and result type is i32, expected bool"},
    {"cmp_is_bool", H "%0 = cmp_lt n, 1 : i32\n", "E0502", "cmp_lt result type is i32, expected bool"},
    {"cmp_pointer", H "%0 = cmp_eq x, x : bool\n", "E0503",
     "cmp_eq requires numeric operands, got ptr<f32> as operand 1"},
    {"neg_pointer", H "%0 = neg x : ptr<f32>\n", "E0503", "neg requires a numeric operand, got ptr<f32>"},
    {"neg_keeps_type", H "%0 = neg n : f32\n", "E0502", "neg result type is f32, expected i32"},
    {"not_f32", H "%0 = not s : f32\n", "E0503", "not requires a bool or integer operand, got f32"},
    {"exp_i32", H "%0 = exp n : f32\n", "E0503", "exp requires float operands, got i32"},
    {"exp_i32_block", H ARANGE8 "%1 = exp %0 : vector<8 x f32>\n", "E0503", "exp requires float operands, got vector<8 x i32>"},
    {"select_condition", H "%0 = select n, 1, 2 : i32\n", "E0503",
     "select requires a bool condition, got i32 as operand 1"},
    {"select_pointer_and_number", H "%0 = select true, x, 1 : ptr<f32>\n", "E0503",
     "select requires two values of one pointer type, got ptr<f32> and i32"},
    {"select_promotes", H "%0 = select true, 1, s : i32\n", "E0502", "select result type is i32, expected f32"},
    {"select_broadcasts_condition", H ARANGE8 "%1 = cmp_lt %0, n : vector<8 x bool>\n%2 = select %1, 1, 2 : i32\n",
     "E0504", "select result type is i32, but its operands broadcast to vector<8 x i32>"},
    {"operands_do_not_broadcast", H ARANGE8 "%1 = arange {start=0, end=16} : vector<16 x i32>\n"
                                            "%2 = add %0, %1 : vector<16 x i32>\n",
     "E0504", "add operands do not broadcast: vector<8 x i32> (operand 1), vector<16 x i32> (operand 2)"},
    {"rank2_operands_do_not_broadcast",
     H ARANGE8 "%1 = expand_dims %0 {axis=1} : block<8x1 x i32>\n%2 = arange {start=0, end=4} : vector<4 x i32>\n"
               "%3 = expand_dims %2 {axis=1} : block<4x1 x i32>\n%4 = sub %1, %3 : block<8x1 x i32>\n",
     "E0504", "sub operands do not broadcast: block<8x1 x i32> (operand 1), block<4x1 x i32> (operand 2)"},
    {"result_shape_differs", H ARANGE8 "%1 = add %0, 1 : vector<16 x i32>\n", "E0504",
     "add result type is vector<16 x i32>, but its operands broadcast to vector<8 x i32>"},
    {"rank2_result_shape_differs",
     H ARANGE8 "%1 = expand_dims %0 {axis=1} : block<8x1 x i32>\n%2 = expand_dims %0 {axis=0} : block<1x8 x i32>\n"
               "%3 = mul %1, %2 : block<8x1 x i32>\n",
     "E0504", "mul result type is block<8x1 x i32>, but its operands broadcast to block<8x8 x i32>"},
    {"addptr_base", H "%0 = addptr n, 1 : i32\n", "E0505", "addptr requires a pointer, got i32 as operand 1"},
    {"addptr_offset_f32", H "%0 = addptr x, s : ptr<f32>\n", "E0505",
     "addptr requires an integer offset, got f32 as operand 2"},
    {"addptr_offset_pointer", H "%0 = addptr x, p : ptr<f32>\n", "E0505",
     "addptr requires an integer offset, got ptr<i32> as operand 2"},
    {"addptr_result_element", H "%0 = addptr x, 1 : ptr<i32>\n", "E0505",
     "addptr result type is ptr<i32>, expected ptr<f32>"},
    {"addptr_result_shape", H ARANGE8 "%1 = addptr x, %0 : ptr<f32>\n", "E0504",
     "addptr result type is ptr<f32>, but its operands broadcast to vector<8 x ptr<f32>>"},

    /* ---- E0505: loads and stores ---- */
    {"load_pointer", H "%0 = load n, none, none : i32\n", "E0505", "load requires a pointer, got i32 as operand 1"},
    {"load_mask_bool", H ARANGE8 "%1 = addptr x, %0 : vector<8 x ptr<f32>>\n%2 = load %1, %0, none : vector<8 x f32>\n",
     "E0505", "load requires a bool mask, got vector<8 x i32> as operand 2"},
    {"load_other_numeric", H "%0 = load x, none, x : f32\n", "E0505",
     "load requires a numeric other value, got ptr<f32> as operand 3"},
    {"load_result_is_the_pointee", H "%0 = load p, none, none : f32\n", "E0505",
     "load result type is f32, expected i32"},
    {"load_operands_broadcast",
     H ARANGE8 "%1 = addptr x, %0 : vector<8 x ptr<f32>>\n%2 = arange {start=0, end=16} : vector<16 x i32>\n"
               "%3 = cmp_lt %2, n : vector<16 x bool>\n%4 = load %1, %3, 0.0 : vector<8 x f32>\n",
     "E0505",
     "load operands do not broadcast: vector<8 x ptr<f32>> (operand 1), vector<16 x bool> (operand 2), "
     "f32 (operand 3)"},
    {"load_result_shape", H ARANGE8 "%1 = cmp_lt %0, n : vector<8 x bool>\n%2 = load x, %1, none : f32\n", "E0505",
     "load result type is f32, but its operands broadcast to vector<8 x f32>"},
    {"store_pointer", H "store n, 1, none\n", "E0505", "store requires a pointer, got i32 as operand 1"},
    {"store_value_pointer", H "store x, x, none\n", "E0505",
     "store requires a numeric value, got ptr<f32> as operand 2"},
    {"store_mask_bool", H "store x, 1.0, s\n", "E0505", "store requires a bool mask, got f32 as operand 3"},
    {"store_operands_broadcast",
     H ARANGE8 "%1 = addptr x, %0 : vector<8 x ptr<f32>>\n%2 = arange {start=0, end=16} : vector<16 x i32>\n"
               "store %1, %2, none\n",
     "E0505", "store operands do not broadcast: vector<8 x ptr<f32>> (operand 1), vector<16 x i32> (operand 2)"},

    /* ---- E0509: reductions ---- */
    {"sum_of_scalar", H "%0 = sum s : f32\n", "E0509", "sum requires a block, got f32"},
    {"max_of_rank2_result", H "%0 = zeros {shape=(4, 8), dtype=f32} : block<4x8 x f32>\n%1 = max %0 : f32\n",
     "E0509", "max result type is f32, expected vector<8 x f32>"},
    {"max_axis_range", H "%0 = zeros {shape=(4, 8), dtype=f32} : block<4x8 x f32>\n"
                         "%1 = max %0 {axis=2} : vector<4 x f32>\n",
     "E0510", "max axis 2 is out of range for block<4x8 x f32>"},
    {"sum_keep_dims", H "%0 = zeros {shape=(4, 8), dtype=f32} : block<4x8 x f32>\n"
                        "%1 = sum %0 {axis=1, keep_dims} : vector<4 x f32>\n",
     "E0509", "sum result type is vector<4 x f32>, expected block<4x1 x f32>"},
    {"xor_sum_of_floats", H "%0 = zeros {shape=(8,), dtype=f32} : vector<8 x f32>\n%1 = xor_sum %0 : f32\n",
     "E0509", "xor_sum requires integer elements, got vector<8 x f32>"},
    {"cumsum_result", H ARANGE8 "%1 = cumsum %0 {axis=0} : i32\n", "E0509",
     "cumsum result type is i32, expected vector<8 x i32>"},
    {"reshape_numel", H ARANGE8 "%1 = reshape %0 : block<4x4 x i32>\n", "E0502",
     "reshape of vector<8 x i32> to block<4x4 x i32> changes the number of elements"},
    {"permute_order", H "%0 = zeros {shape=(4, 8), dtype=f32} : block<4x8 x f32>\n"
                        "%1 = permute %0 {order=(0, 0)} : block<4x4 x f32>\n",
     "E0510", "permute order (0, 0) is not a permutation of the dimensions of block<4x8 x f32>"},
    {"broadcast_dims", H ARANGE8 "%1 = broadcast %0 : vector<16 x i32>\n", "E0504",
     "broadcast of vector<8 x i32> to vector<16 x i32>: dimensions of size 1 may grow, others must match"},
    {"reduce_combine_arity", H ARANGE8 "%4 = reduce %0 {axis=0} combine(%1, %2) : i32 {\n  %3 = add %1, %2 : i32\n"
                               "  yield %3, %3\n}\n",
     "E0506", "yield has 2 operands, but reduce combine region yields 1 value"},
    {"reduce_combine_scalar_only", H ARANGE8 "%4 = reduce %0 {axis=0} combine(%1, %2) : i32 {\n"
                                     "  %3 = zeros {shape=(2,), dtype=i32} : vector<2 x i32>\n  yield %1\n}\n",
     "E0506", "zeros in the combine region of reduce: a combine region computes on scalars only"},
    {"scan_result", H ARANGE8 "%4 = scan %0 {axis=0} combine(%1, %2) : i32 {\n  %3 = add %1, %2 : i32\n"
                      "  yield %3\n}\n",
     "E0509", "scan result %4 has type i32, expected vector<8 x i32>"},
    {"sum_width_power_of_two", H "%0 = zeros {shape=(6,), dtype=f32} : vector<6 x f32>\n%1 = sum %0 : f32\n",
     "E0509", "sum requires a power-of-two width, got vector<6 x f32>"},
    {"min_of_bool", H "%0 = zeros {shape=(8,), dtype=bool} : vector<8 x bool>\n%1 = min %0 : bool\n", "E0509",
     "min requires numeric elements, got vector<8 x bool>"},
    {"sum_of_pointers", H ARANGE8 "%1 = addptr x, %0 : vector<8 x ptr<f32>>\n%2 = sum %1 : ptr<f32>\n", "E0509",
     "sum requires numeric elements, got vector<8 x ptr<f32>>"},
    {"sum_result_is_the_element", H ARANGE8 "%1 = sum %0 : f32\n", "E0509", "sum result type is f32, expected i32"},

    /* ---- E0510: attributes ---- */
    {"program_id_axis", H "%0 = program_id {axis=3} : i32\n", "E0510", "program_id axis must be 0, 1 or 2, got 3"},
    {"program_id_negative_axis", H "%0 = program_id {axis=-1} : i32\n", "E0510",
     "program_id axis must be 0, 1 or 2, got -1"},
    {"program_id_result", H "%0 = program_id {axis=0} : f32\n", "E0510", "program_id result type is f32, expected i32"},
    {"arange_order", H "%0 = arange {start=4, end=2} : vector<2 x i32>\n", "E0510",
     "arange requires 0 <= start < end, got start=4, end=2"},
    {"arange_negative_start", H "%0 = arange {start=-2, end=6} : vector<8 x i32>\n", "E0510",
     "arange requires 0 <= start < end, got start=-2, end=6"},
    {"arange_empty", H "%0 = arange {start=3, end=3} : vector<1 x i32>\n", "E0510",
     "arange requires 0 <= start < end, got start=3, end=3"},
    {"arange_power_of_two", H "%0 = arange {start=0, end=6} : vector<6 x i32>\n", "E0510",
     "arange length 6 is not a power of two"},
    {"arange_result", H "%0 = arange {start=8, end=16} : vector<16 x i32>\n", "E0510",
     "arange result type is vector<16 x i32>, expected vector<8 x i32>"},

    /* ---- expand_dims: E0503 operand, E0510 axis, E0502 result ---- */
    {"expand_dims_of_scalar", H "%0 = expand_dims n {axis=0} : block<1x1 x i32>\n", "E0502",
     "expand_dims result type is block<1x1 x i32>, expected vector<1 x i32>"},
    {"expand_dims_of_rank2", H "%0 = zeros {shape=(4, 8), dtype=f32} : block<4x8 x f32>\n"
                               "%1 = expand_dims %0 {axis=0} : block<1x4 x f32>\n",
     "E0502", "expand_dims result type is block<1x4 x f32>, expected block<1x4x8 x f32>"},
    {"expand_dims_axis", H ARANGE8 "%1 = expand_dims %0 {axis=2} : block<8x1 x i32>\n", "E0510",
     "expand_dims axis must be 0 to 1, got 2"},
    {"expand_dims_result_shape", H ARANGE8 "%1 = expand_dims %0 {axis=1} : block<1x8 x i32>\n", "E0502",
     "expand_dims result type is block<1x8 x i32>, expected block<8x1 x i32>"},
    {"expand_dims_keeps_element", H ARANGE8 "%1 = expand_dims %0 {axis=0} : block<1x8 x f32>\n", "E0502",
     "expand_dims result type is block<1x8 x f32>, expected block<1x8 x i32>"},

    /* ---- E0507: factories ---- */
    {"zeros_rank_0", H "%0 = zeros {shape=(), dtype=f32} : f32\n", "E0507", "zeros rank must be 1 to 4, got 0"},
    {"zeros_zero_dimension", H "%0 = zeros {shape=(0,), dtype=f32} : vector<8 x f32>\n", "E0507",
     "zeros shape (0,) has a non-positive dimension"},
    {"empty_negative_dimension", H "%0 = empty {shape=(4, -2), dtype=i32} : block<4x2 x i32>\n", "E0507",
     "empty shape (4, -2) has a non-positive dimension"},
    {"full_pointer_dtype", H "%0 = full 1.0 {shape=(8,), dtype=ptr<f32>} : vector<8 x ptr<f32>>\n", "E0507",
     "full dtype must be a scalar type, got ptr<f32>"},
    {"zeros_result_element", H "%0 = zeros {shape=(8,), dtype=f32} : vector<8 x i32>\n", "E0507",
     "zeros result type is vector<8 x i32>, expected vector<8 x f32>"},
    {"zeros_result_shape", H "%0 = zeros {shape=(4, 8), dtype=f32} : block<8x4 x f32>\n", "E0507",
     "zeros result type is block<8x4 x f32>, expected block<4x8 x f32>"},
    {"full_block_fill", H "%0 = zeros {shape=(8,), dtype=f32} : vector<8 x f32>\n"
                          "%1 = full %0 {shape=(8,), dtype=f32} : vector<8 x f32>\n",
     "E0507", "full requires a scalar fill value, got vector<8 x f32>"},
    {"full_pointer_fill", H "%0 = full x {shape=(8,), dtype=f32} : vector<8 x f32>\n", "E0507",
     "full requires a scalar fill value, got ptr<f32>"},

    /* ---- E0508: dot ---- */
    {"dot_rank1", H "%0 = zeros {shape=(16,), dtype=f32} : vector<16 x f32>\n"
                    "%1 = zeros {shape=(16, 8), dtype=f32} : block<16x8 x f32>\n%2 = dot %0, %1 : block<1x8 x f32>\n",
     "E0508", "dot requires a rank-2 f32 block, got vector<16 x f32> as operand 1"},
    {"dot_i32", H "%0 = zeros {shape=(4, 16), dtype=f32} : block<4x16 x f32>\n"
                  "%1 = zeros {shape=(16, 8), dtype=i32} : block<16x8 x i32>\n%2 = dot %0, %1 : block<4x8 x f32>\n",
     "E0508", "dot requires a rank-2 f32 block, got block<16x8 x i32> as operand 2"},
    {"dot_scalar", H "%0 = dot s, s : f32\n", "E0508", "dot requires a rank-2 f32 block, got f32 as operand 1"},
    {"dot_inner_dimensions", H "%0 = zeros {shape=(4, 16), dtype=f32} : block<4x16 x f32>\n"
                               "%1 = zeros {shape=(8, 8), dtype=f32} : block<8x8 x f32>\n"
                               "%2 = dot %0, %1 : block<4x8 x f32>\n",
     "E0508", "dot inner dimensions differ: block<4x16 x f32> and block<8x8 x f32>"},
    {"dot_result", H "%0 = zeros {shape=(4, 16), dtype=f32} : block<4x16 x f32>\n"
                     "%1 = zeros {shape=(16, 8), dtype=f32} : block<16x8 x f32>\n"
                     "%2 = dot %0, %1 : block<4x16 x f32>\n",
     "E0508", "dot result type is block<4x16 x f32>, expected block<4x8 x f32>"},

    /* ---- E0506: loop regions ---- */
    {"for_start_f32", H "for %0 in range(s, K, 1) {\n  yield\n}\n", "E0506", "for start must be a scalar i32, got f32"},
    {"for_stop_block", H ARANGE8 "for %1 in range(0, %0, 1) {\n  yield\n}\n", "E0506",
     "for stop must be a scalar i32, got vector<8 x i32>"},
    {"for_step_zero", H "for %0 in range(0, K, 0) {\n  yield\n}\n", "E0506", "for step must be positive, got 0"},
    {"for_step_negative", H "for %0 in range(0, K, -1) {\n  yield\n}\n", "E0506", "for step must be positive, got -1"},
    {"for_init_type", H "%3 = for %0 in range(0, K, 1) iter_args(%1 = 0) : f32 {\n  %2 = add %1, 1.0 : f32\n"
                        "  yield %2\n}\n",
     "E0506", "for iter_arg %1 has type f32, but its init value 0 has type i32"},
    {"for_empty_body", H "for %0 in range(0, K, 1) {\n}\n", "E0506", "for body is empty; it must end with yield"},
    {"for_missing_yield", H "for %0 in range(0, K, 1) {\n  %1 = add %0, 1 : i32\n}\n", "E0506",
     "for body must end with yield"},
    {"yield_not_last", H "for %0 in range(0, K, 1) {\n  yield\n  yield\n}\n", "E0506",
     "yield must be the last instruction of its region"},
    {"yield_outside_a_loop", H "yield\n", "E0506", "yield outside a region"},
    {"if_condition_type", H "if n {\n  yield\n} else {\n  yield\n}\n", "E0506",
     "if condition must be a scalar bool, got i32"},
    {"if_yield_type", H "%0 = cmp_gt n, 0 : bool\n%1 = if %0 : f32 {\n  yield 1.0\n} else {\n  yield n\n}\n",
     "E0506", "yield operand 1 (n) has type i32, expected f32"},
    {"while_condition_last", H "%3 = while (%0 = 0) : i32 {\n  %1 = cmp_lt %0, n : bool\n} do (%2) {\n"
                             "  yield %2\n}\n",
     "E0506", "while condition region must end with condition"},
    {"while_body_yield", H "%4 = while (%0 = 0) : i32 {\n  %1 = cmp_lt %0, n : bool\n  condition %1, %0\n"
                         "} do (%2) {\n  %3 = add %2, 1.0 : f32\n  yield %3\n}\n",
     "E0506", "yield operand 1 (%3) has type f32, expected i32"},
    {"atomic_result_type", H "%0 = atomic_add x, 1.0, none {sem=acq_rel, scope=gpu} : i32\n", "E0502",
     "atomic_add result type is i32, expected f32"},
    {"atomic_pointer", H "%0 = atomic_xchg n, 1, none {sem=acq_rel, scope=gpu} : i32\n", "E0505",
     "atomic_xchg requires a pointer, got i32 as operand 1"},
    {"atomic_float_and", H "%0 = atomic_and x, 1.0, none {sem=acq_rel, scope=gpu} : f32\n", "E0505",
     "atomic_and on f32 memory: it takes integers"},
    {"condition_outside_while", H "%0 = cmp_lt n, 1 : bool\ncondition %0\n", "E0506",
     "condition outside the first region of a while"},
    {"for_step_type", H "for %0 in range(0, K, s) {\n  yield\n}\n", "E0506",
     "for step must be a scalar i32, got f32"},
    {"yield_count", H "%2 = for %0 in range(0, K, 1) iter_args(%1 = 0.0) : f32 {\n  yield %1, %1\n}\n", "E0506",
     "yield has 2 operands, but its for carries 1 value"},
    {"yield_count_zero", H "%2 = for %0 in range(0, K, 1) iter_args(%1 = 0.0) : f32 {\n  yield\n}\n", "E0506",
     "yield has 0 operands, but its for carries 1 value"},
    {"yield_type", H "%3 = for %0 in range(0, K, 1) iter_args(%1 = 0.0) : f32 {\n  %2 = add %0, 1 : i32\n"
                     "  yield %2\n}\n",
     "E0506", "yield operand 1 (%2) has type i32, but iter_arg %1 has type f32"},
    {"nested_inner_step", H "for %0 in range(0, K, 1) {\n  for %1 in range(%0, K, 0) {\n    yield\n  }\n  yield\n}\n",
     "E0506", "for step must be positive, got 0"},
    {"nested_inner_yield_type",
     H "%6 = for %0 in range(0, K, 1) iter_args(%1 = 0) : i32 {\n"
       "  %5 = for %2 in range(0, K, 1) iter_args(%3 = %1) : i32 {\n    %4 = add %3, 1.0 : f32\n    yield %4\n  }\n"
       "  yield %5\n}\n",
     "E0506", "yield operand 1 (%4) has type f32, but iter_arg %3 has type i32"},
};

START_TEST(rule)
{
    const Rule *r = &rules[_i];
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, r->text);
    ck_assert_msg(!mt_verify(c, f, NULL), "%s: verified", r->name);
    ck_assert_msg(mt_diag_count(c) == 1, "%s: expected one diagnostic, got %s", r->name, all_msgs(c));
    ck_assert_msg(!strcmp(mt_diag_at(c, 0)->code, r->code) && !strcmp(mt_diag_at(c, 0)->msg, r->msg),
                  "%s: expected [%s %s], got %s", r->name, r->code, r->msg, all_msgs(c));
    mt_ctx_free(c);
}
END_TEST

/* ---- damage the text cannot express: through the builder API ---------------- */

START_TEST(for_with_type)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "for %0 in range(0, K, 1) {\n  yield\n}\n");
    f->body.v[0]->ty = &mt_ty_i32;
    expect_one(c, f, "E0502", "for must not declare a result type or value; its results are in the loop");
    mt_ctx_free(c);
}
END_TEST

START_TEST(declared_type_differs_from_value_type)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = add n, 1 : i32\n");
    f->body.v[0]->ty = &mt_ty_f32;
    expect_one(c, f, "E0502", "add declares result type f32, but its result %0 has type i32");
    mt_ctx_free(c);
}
END_TEST

START_TEST(result_of_wrong_kind)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = add n, 1 : i32\n");
    mt_val(f, f->body.v[0]->dst)->kind = VK_ARG;
    expect_one(c, f, "E0502", "add result %0 is a region argument, not an instruction result");
    mt_ctx_free(c);
}
END_TEST

START_TEST(malformed_declared_type)
{
    static const MtType bogus = {.kind = 42};
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = add n, 1 : i32\n");
    f->body.v[0]->ty = &bogus;
    expect_one(c, f, "E0502", "add declares a malformed result type");
    mt_ctx_free(c);
}
END_TEST

START_TEST(numbers_are_unique)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = program_id {axis=0} : i32\n%1 = program_id {axis=1} : i32\n");
    mt_val(f, f->body.v[1]->dst)->num = 0;
    expect_one(c, f, "E0501", "program_id result %0 reuses the number of another value");
    mt_ctx_free(c);
}
END_TEST

START_TEST(numbers_below_next_num)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = program_id {axis=0} : i32\n%1 = program_id {axis=1} : i32\n");
    f->next_num = 1;
    expect_one(c, f, "E0501", "program_id result %1 is numbered at or past the function's next number %1");
    mt_ctx_free(c);
}
END_TEST

START_TEST(operand_handle_out_of_range)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = add n, 1 : i32\n");
    f->body.v[0]->args[0] = 999;
    char want[128];
    snprintf(want, sizeof want, "add operand 1 refers to value #999, but the function has %u values", f->nvals);
    expect_one(c, f, "E0501", want);
    mt_ctx_free(c);
}
END_TEST

START_TEST(operand_is_an_empty_slot)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = program_id {axis=0} : i32\n%1 = add %0, 1 : i32\n");
    MtVal x = f->body.v[0]->dst;
    f->body.v[0] = f->body.v[1];
    f->body.n = 1;
    mt_val(f, x)->kind = VK_NONE;
    char want[128];
    snprintf(want, sizeof want, "add operand 1 refers to value #%u, an empty value slot", x);
    expect_one(c, f, "E0501", want);
    mt_ctx_free(c);
}
END_TEST

START_TEST(definition_links_back)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = program_id {axis=0} : i32\n");
    mt_val(f, f->body.v[0]->dst)->def = NULL;
    expect_one(c, f, "E0501", "program_id result %0 does not link back to its defining program_id");
    mt_ctx_free(c);
}
END_TEST

START_TEST(same_instruction_twice)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = program_id {axis=0} : i32\n");
    mt_region_push(c, &f->body, f->body.v[0]);
    expect_one(c, f, "E0501", "program_id defines %0 a second time");
    mt_ctx_free(c);
}
END_TEST

START_TEST(null_instruction)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = program_id {axis=0} : i32\n%1 = program_id {axis=1} : i32\n");
    f->body.v[1] = NULL;
    expect_one(c, f, "E0501", "region holds a null instruction at position 2");
    mt_ctx_free(c);
}
END_TEST

START_TEST(operand_list_missing)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = add n, 1 : i32\n");
    f->body.v[0]->args = NULL;
    expect_one(c, f, "E0501", "add has 2 operands but no operand list");
    mt_ctx_free(c);
}
END_TEST

START_TEST(operand_count)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = add n, 1, 2 : i32\n");
    expect_one(c, f, "E0503", "add takes 2 operands, got 3");
    mt_ctx_free(c);
}
END_TEST

START_TEST(unknown_opcode)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "store x, 1.0, none\n");
    f->body.v[0]->op = 999;
    expect_one(c, f, "E0503", "unknown opcode 999");
    mt_ctx_free(c);
}
END_TEST

START_TEST(float_constant_never_has_an_integer_type)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = add n, 1 : i32\n");
    MtConst half = {.kind = CST_FLOAT, .f = 0.5};
    f->body.v[0]->args[1] = mt_func_const(c, f, half, &mt_ty_i32);
    expect_one(c, f, "E0503", "add operand 2: constant 0.5 has type i32, which a float constant cannot have");
    mt_ctx_free(c);
}
END_TEST

START_TEST(parameter_without_type)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = add n, 1 : i32\n");
    mt_val(f, f->params[2])->ty = NULL;
    expect_one(c, f, "E0503", "add operand 1: parameter n has type <no type>; parameters are scalars or pointers");
    mt_ctx_free(c);
}
END_TEST

START_TEST(value_without_type_is_reported_once)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = add n, 1 : i32\n%1 = add %0, 1 : i32\n");
    mt_val(f, f->body.v[0]->dst)->ty = NULL;
    expect_one(c, f, "E0502", "add result %0 has no type");
    mt_ctx_free(c);
}
END_TEST

/* ---- loops through the builder ------------------------------------------------- */

static const char *const LOOP = H "%5 = for %0 in range(0, K, 1) iter_args(%1 = 0.0) : f32 {\n"
                                  "  %2 = addptr x, %0 : ptr<f32>\n"
                                  "  %3 = load %2, none, none : f32\n"
                                  "  %4 = add %1, %3 : f32\n"
                                  "  yield %4\n"
                                  "}\n"
                                  "store x, %5, none\n";

START_TEST(induction_variable_type)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, LOOP);
    mt_val(f, f->body.v[0]->loop->iv)->ty = &mt_ty_f32;
    expect_first(c, f, "E0506", "for induction variable %0 has type f32, expected i32");
    mt_ctx_free(c);
}
END_TEST

START_TEST(induction_variable_kind)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, LOOP);
    mt_val(f, f->body.v[0]->loop->iv)->kind = VK_INST;
    expect_first(c, f, "E0506", "for induction variable %0 is an instruction result, not an induction variable");
    mt_ctx_free(c);
}
END_TEST

START_TEST(result_type_matches_iter_arg)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, LOOP);
    mt_val(f, f->body.v[0]->loop->results[0])->ty = &mt_ty_i32;
    expect_one(c, f, "E0506", "for result %5 has type i32, but iter_arg %1 has type f32");
    mt_ctx_free(c);
}
END_TEST

START_TEST(iter_arg_slot)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, LOOP);
    mt_val(f, f->body.v[0]->loop->iter_args[0])->index = 1;
    expect_one(c, f, "E0506", "for iter_arg %1 is bound to slot 1, but is iter_arg 0");
    mt_ctx_free(c);
}
END_TEST

START_TEST(for_operand_count)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, LOOP);
    f->body.v[0]->nargs = 2;
    expect_one(c, f, "E0506", "for has 2 operands, expected 3 (start, stop and one init per carried value)");
    mt_ctx_free(c);
}
END_TEST

START_TEST(for_without_region)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, LOOP);
    f->body.v[0]->loop = NULL;
    expect_first(c, f, "E0506", "for has no loop region");
    ck_assert_str_eq(mt_diag_at(c, 1)->msg, "store operand 2 (%5) is never defined");
    mt_ctx_free(c);
}
END_TEST

START_TEST(region_on_a_plain_op)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = add n, 1 : i32\n");
    f->body.v[0]->loop = mt_arena_alloc(&c->arena, sizeof(MtForData));
    expect_one(c, f, "E0506", "add carries a loop region");
    mt_ctx_free(c);
}
END_TEST

START_TEST(carried_arrays_missing)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, LOOP);
    f->body.v[0]->loop->iter_args = NULL;
    expect_first(c, f, "E0506", "for carries 1 value but has no iter_args or results");
    mt_ctx_free(c);
}
END_TEST

START_TEST(loop_inside_itself)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, LOOP);
    MtInst *loop = f->body.v[0];
    mt_region_push(c, &loop->loop->body, loop);
    ck_assert(!mt_verify(c, f, NULL));
    bool found = false;
    for (size_t i = 0; i < mt_diag_count(c); i++)
        found |= !strcmp(mt_diag_at(c, i)->msg, "for appears twice in the function");
    ck_assert_msg(found, "%s", all_msgs(c));
    mt_ctx_free(c);
}
END_TEST

START_TEST(body_list_missing)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, LOOP);
    f->body.v[0]->loop->body.v = NULL;
    expect_first(c, f, "E0501", "region has 4 instructions but no instruction list");
    mt_ctx_free(c);
}
END_TEST

START_TEST(no_value_table)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc f = {0};
    expect_one(c, &f, "E0501", "function has no value table");
    mt_ctx_free(c);
}
END_TEST

START_TEST(stage_prefix)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, H "%0 = add none, 1 : i32\n");
    ck_assert(!mt_verify(c, f, "cse"));
    ck_assert_str_eq(mt_diag_at(c, 0)->msg, "after cse: add operand 1 is none");
    ck_assert_uint_eq(mt_diag_at(c, 0)->span.line, 2);
    ck_assert_uint_eq(mt_diag_at(c, 0)->span.col, 1);
    mt_ctx_free(c);
}
END_TEST

/* ---- valid functions ------------------------------------------------------------- */

static const char *const seed_files[] = {
    "add_kernel.ssa", "softmax.ssa",     "row_sum.ssa",      "matrix_add_2d.ssa", "factories.ssa",    "dot.ssa",
    "runtime_sum.ssa", "two_carried.ssa", "nested_loops.ssa", "matmul_2d.ssa",     "matmul_2d.opt.ssa",
};

START_TEST(seed_listing_verifies)
{
    char *text = slurp(seed_files[_i]);
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, text);
    ck_assert_msg(mt_verify(c, f, "lowering"), "%s: %s", seed_files[_i], all_msgs(c));
    ck_assert_uint_eq(mt_diag_count(c), 0);
    mt_ctx_free(c);
    free(text);
}
END_TEST

static const char *const valid[] = {
    H "%0 = addptr x, true : ptr<f32>\n",
    H "%0 = full n {shape=(4, 2), dtype=f32} : block<4x2 x f32>\n",
    H "%0 = full true {shape=(8,), dtype=i32} : vector<8 x i32>\n",
    H "%0 = select true, false, true : bool\n%1 = and %0, n : i32\n%2 = or %0, %0 : bool\n",
    H "%0 = div n, n : f32\n%1 = floordiv true, n : i32\n%2 = mod n, true : i32\n%3 = not n : i32\n",
    H "%0 = maximum n, s : f32\n%1 = minimum true, true : bool\n%2 = neg s : f32\n%3 = cmp_ne true, s : bool\n",
    H ARANGE8 "%1 = cmp_lt %0, n : vector<8 x bool>\n%2 = load x, %1, 1 : vector<8 x f32>\nstore p, %2, %1\n",
    H ARANGE8 "%1 = addptr x, %0 : vector<8 x ptr<f32>>\n%2 = expand_dims %1 {axis=1} : block<8x1 x ptr<f32>>\n"
              "%3 = expand_dims %0 {axis=0} : block<1x8 x i32>\n%4 = addptr %2, %3 : block<8x8 x ptr<f32>>\n"
              "%5 = empty {shape=(8, 8), dtype=f32} : block<8x8 x f32>\nstore %4, %5, none\n",
    H "%0 = arange {start=4, end=8} : vector<4 x i32>\n%1 = sum %0 : i32\n%2 = max %0 : i32\n",
    H "for %0 in range(n, K, 3) {\n  %1 = addptr x, %0 : ptr<f32>\n  store %1, %0, none\n  yield\n}\n",
    H "%0 = program_id {axis=2} : i32\n%3 = for %1 in range(0, K, 1) iter_args(%2 = %0) : i32 {\n"
      "  yield %0\n}\n%4 = add %3, %0 : i32\n",
};

START_TEST(valid_edge_case_verifies)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtFunc *f = read_ok(c, valid[_i]);
    ck_assert_msg(mt_verify(c, f, NULL), "case %d: %s", _i, all_msgs(c));
    ck_assert_uint_eq(mt_diag_count(c), 0);
    mt_ctx_free(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("verify");
    TCase *r = tcase_create("rules");
    tcase_add_loop_test(r, rule, 0, (int)(sizeof rules / sizeof rules[0]));
    suite_add_tcase(s, r);
    TCase *b = tcase_create("builder");
    tcase_add_test(b, for_with_type);
    tcase_add_test(b, declared_type_differs_from_value_type);
    tcase_add_test(b, result_of_wrong_kind);
    tcase_add_test(b, malformed_declared_type);
    tcase_add_test(b, numbers_are_unique);
    tcase_add_test(b, numbers_below_next_num);
    tcase_add_test(b, operand_handle_out_of_range);
    tcase_add_test(b, operand_is_an_empty_slot);
    tcase_add_test(b, definition_links_back);
    tcase_add_test(b, same_instruction_twice);
    tcase_add_test(b, null_instruction);
    tcase_add_test(b, operand_list_missing);
    tcase_add_test(b, operand_count);
    tcase_add_test(b, unknown_opcode);
    tcase_add_test(b, float_constant_never_has_an_integer_type);
    tcase_add_test(b, parameter_without_type);
    tcase_add_test(b, value_without_type_is_reported_once);
    tcase_add_test(b, induction_variable_type);
    tcase_add_test(b, induction_variable_kind);
    tcase_add_test(b, result_type_matches_iter_arg);
    tcase_add_test(b, iter_arg_slot);
    tcase_add_test(b, for_operand_count);
    tcase_add_test(b, for_without_region);
    tcase_add_test(b, region_on_a_plain_op);
    tcase_add_test(b, carried_arrays_missing);
    tcase_add_test(b, loop_inside_itself);
    tcase_add_test(b, body_list_missing);
    tcase_add_test(b, no_value_table);
    tcase_add_test(b, stage_prefix);
    suite_add_tcase(s, b);
    TCase *v = tcase_create("valid");
    tcase_add_loop_test(v, seed_listing_verifies, 0, (int)(sizeof seed_files / sizeof seed_files[0]));
    tcase_add_loop_test(v, valid_edge_case_verifies, 0, (int)(sizeof valid / sizeof valid[0]));
    suite_add_tcase(s, v);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
