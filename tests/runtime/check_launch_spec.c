/* check_launch_spec.c: launch specs from JSON to a bound launch.
 *
 * The kernel side (MtKernelInfo from parsing, MtKernelParam from
 * compilation) is written out by hand for add_kernel(x, y, out, n, BLOCK),
 * so these tests need no compiler. Every rejection is checked by its exact
 * message, and every failed call by the emptiness of its output.
 */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../test_util.h"
#include "launch_spec.h"

static char err[1024];
static MtSpecError se;

static void setup(void) {
    test_tmp_setup("mt_spec");
    err[0] = 0;
}

static void teardown(void) { test_tmp_teardown(); }

static const char *tmp(const char *name) { return test_tmp(name); }

static void put_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* test_tmpdir/<name>: a 1-d array 0, 1, 2, ... of n elements */
static void put_npy(const char *name, MtDtype dt, int64_t n) {
    MtArrayGen g = {.dtype = dt, .ndim = 1, .shape = {n}, .init = MT_INIT_ARANGE};
    MtArray *a;
    ck_assert_int_eq(mt_array_generate(&g, &a, err, sizeof err), MT_OK);
    ck_assert_int_eq(mt_npy_write(tmp(name), a, NULL, err, sizeof err), MT_OK);
    mt_array_free(a);
}

static const char *add_spec =
    "{\"source\": \"add_kernel.py\", \"kernel\": \"add_kernel\",\n"
    " \"grid\": [\"cdiv(n, BLOCK)\"],\n"
    " \"constexprs\": {\"BLOCK\": 256},\n"
    " \"args\": {\"x\": {\"npy\": \"x.npy\"},\n"
    "          \"y\": {\"dtype\": \"float32\", \"shape\": [1000], \"init\": \"uniform\", \"low\": -1, \"high\": 1, \"seed\": 1},\n"
    "          \"out\": {\"dtype\": \"float32\", \"shape\": [1000], \"init\": \"zeros\"},\n"
    "          \"n\": 1000},\n"
    " \"bytes\": \"12 * n\", \"flops\": 1000, \"tolerance\": {\"rtol\": 1e-5, \"atol\": 1e-6}}\n";

/* add_kernel compiled with signature "*fp32,*fp32,*fp32,i32,256" */
static const MtKernelParam add_params[] = {
    {"x", "*fp32", NULL}, {"y", "*fp32", NULL}, {"out", "*fp32", NULL}, {"n", "i32", NULL}, {"BLOCK", NULL, "256"},
};

static const MtParamInfo add_info_params[] = {
    {.name = "x"}, {.name = "y"}, {.name = "out"}, {.name = "n"},
    {.name = "BLOCK", .constexpr_ = true, .annotation = "tl.constexpr"},
};
static const MtKernelInfo add_info = {.name = "add_kernel", .params = add_info_params, .nparams = 5};

static MtLaunchSpec parse_ok(const char *json) {
    MtLaunchSpec s;
    MtStatus st = mt_launch_spec_parse(json, test_tmpdir, &s, &se);
    ck_assert_msg(st == MT_OK, "%s", se.text);
    return s;
}

static void expect_parse_error(const char *json, const char *msg) {
    MtLaunchSpec s;
    memset(&s, 0xab, sizeof s);
    ck_assert_int_eq(mt_launch_spec_parse(json, "", &s, &se), MT_ERR_USAGE);
    ck_assert_str_eq(se.text, msg);
    ck_assert_ptr_null(s.args); /* emptied, safe to free */
    ck_assert_ptr_null(s.grid[0]);
    mt_launch_spec_free(&s);
}

/* A spec that only differs from a minimal one in its args. */
static void expect_arg_error(const char *args_json, const char *msg) {
    char json[1024];
    snprintf(json, sizeof json, "{\"grid\": [1], \"args\": %s}", args_json);
    expect_parse_error(json, msg);
}

/* ---- parsing ------------------------------------------------------------- */

START_TEST(parses_the_example) {
    MtLaunchSpec s = parse_ok(add_spec);
    ck_assert_str_eq(s.source, "add_kernel.py");
    ck_assert_str_eq(s.source_path, tmp("add_kernel.py"));
    ck_assert_str_eq(s.kernel, "add_kernel");
    ck_assert_ptr_null(s.signature);
    ck_assert_int_eq(s.grid_dims, 1);
    ck_assert_str_eq(s.grid[0], "cdiv(n, BLOCK)");
    ck_assert_uint_eq(s.nconstexprs, 1);
    ck_assert_str_eq(s.constexprs[0].name, "BLOCK");
    ck_assert_int_eq(s.constexprs[0].value.kind, MT_SCALAR_INT);
    ck_assert_int_eq(s.constexprs[0].value.i, 256);
    ck_assert_uint_eq(s.nargs, 4);
    ck_assert_str_eq(s.args[0].name, "x");
    ck_assert_int_eq(s.args[0].kind, MT_SPEC_ARG_NPY);
    ck_assert_str_eq(s.args[0].npy, "x.npy");
    ck_assert_str_eq(s.args[0].npy_path, tmp("x.npy"));
    ck_assert_int_eq(s.args[1].kind, MT_SPEC_ARG_GENERATED);
    ck_assert_int_eq(s.args[1].gen.dtype, MT_DT_F32);
    ck_assert_int_eq(s.args[1].gen.init, MT_INIT_UNIFORM);
    ck_assert_int_eq(s.args[1].gen.ndim, 1);
    ck_assert_int_eq(s.args[1].gen.shape[0], 1000);
    ck_assert_double_eq(s.args[1].gen.a, -1);
    ck_assert_double_eq(s.args[1].gen.b, 1);
    ck_assert_uint_eq(s.args[1].gen.seed, 1);
    ck_assert_int_eq(s.args[2].gen.init, MT_INIT_ZEROS);
    ck_assert_int_eq(s.args[3].kind, MT_SPEC_ARG_SCALAR);
    ck_assert_int_eq(s.args[3].value.i, 1000);
    ck_assert_str_eq(s.bytes, "12 * n");
    ck_assert_str_eq(s.flops, "1000");
    ck_assert(s.has_tolerance);
    ck_assert_double_eq(s.rtol, 1e-5);
    ck_assert_double_eq(s.atol, 1e-6);
    mt_launch_spec_free(&s);
    ck_assert_ptr_null(s.args);
}
END_TEST

START_TEST(literals_keep_their_kind) {
    MtLaunchSpec s = parse_ok("{\"grid\": [1, 2, \"3\"], \"args\": {\"i\": 1000, \"f\": 1000.0, \"e\": 1e3, \"b\": true,"
                              " \"nan\": \"nan\", \"ninf\": \"-inf\", \"exact\": 9007199254740993, \"neg\": -0}}");
    ck_assert_int_eq(s.grid_dims, 3);
    ck_assert_str_eq(s.grid[1], "2");
    ck_assert_int_eq(s.args[0].value.kind, MT_SCALAR_INT);
    ck_assert_int_eq(s.args[1].value.kind, MT_SCALAR_FLOAT);
    ck_assert_double_eq(s.args[1].value.f, 1000);
    ck_assert_int_eq(s.args[2].value.kind, MT_SCALAR_FLOAT);
    ck_assert_int_eq(s.args[3].value.kind, MT_SCALAR_BOOL);
    ck_assert_int_eq(s.args[3].value.i, 1);
    ck_assert(isnan(s.args[4].value.f));
    ck_assert(isinf(s.args[5].value.f) && s.args[5].value.f < 0);
    ck_assert_int_eq(s.args[6].value.i, 9007199254740993LL); /* 2^53 + 1: not through a double */
    ck_assert_int_eq(s.args[7].value.kind, MT_SCALAR_INT);
    mt_launch_spec_free(&s);
}
END_TEST

START_TEST(paths_join_the_spec_folder) {
    MtLaunchSpec s;
    ck_assert_int_eq(mt_launch_spec_parse("{\"grid\": [1], \"args\": {\"a\": {\"npy\": \"/abs/a.npy\"}, \"b\": {\"npy\": \"sub/b.npy\"}}}",
                                          "specs/", &s, &se), MT_OK);
    ck_assert_str_eq(s.args[0].npy_path, "/abs/a.npy");
    ck_assert_str_eq(s.args[1].npy_path, "specs/sub/b.npy");
    mt_launch_spec_free(&s);
    ck_assert_int_eq(mt_launch_spec_parse("{\"grid\": [1], \"source\": \"k.py\"}", NULL, &s, &se), MT_OK);
    ck_assert_str_eq(s.source_path, "k.py");
    ck_assert_ptr_null(s.kernel);
    ck_assert_uint_eq(s.nargs, 0);
    ck_assert(!s.has_tolerance);
    mt_launch_spec_free(&s);
}
END_TEST

START_TEST(generated_parameters_and_defaults) {
    MtLaunchSpec s = parse_ok("{\"grid\": [1], \"args\": {"
                              "\"a\": {\"dtype\": \"float32\", \"shape\": [2, 3], \"init\": \"normal\", \"std\": 0.5},"
                              "\"b\": {\"dtype\": \"int32\", \"shape\": [], \"init\": \"constant\", \"value\": -4},"
                              "\"c\": {\"dtype\": \"bool\", \"shape\": [8], \"init\": \"uniform\", \"seed\": 9},"
                              "\"d\": {\"dtype\": \"float32\", \"shape\": [4], \"init\": \"uniform\"},"
                              "\"e\": {\"dtype\": \"float32\", \"shape\": [4], \"init\": \"constant\", \"value\": \"inf\"}}}");
    ck_assert_double_eq(s.args[0].gen.a, 0);
    ck_assert_double_eq(s.args[0].gen.b, 0.5);
    ck_assert_int_eq(s.args[0].gen.ndim, 2);
    ck_assert_int_eq(s.args[1].gen.ndim, 0);
    ck_assert_double_eq(s.args[1].gen.a, -4);
    ck_assert_uint_eq(s.args[2].gen.seed, 9);
    ck_assert_double_eq(s.args[3].gen.a, 0); /* [0, 1) */
    ck_assert_double_eq(s.args[3].gen.b, 1);
    ck_assert(isinf(s.args[4].gen.a));
    mt_launch_spec_free(&s);
}
END_TEST

START_TEST(json_syntax_errors_have_line_and_column) {
    expect_parse_error("{\n  \"grid\": [1],\n  \"args\": {,}\n}", "3:13: invalid JSON near '}'");
    expect_parse_error("{\"grid\": [1]} x", "1:15: invalid JSON near 'x'");
    expect_parse_error("{\"grid\": [1], \"args\": {\"n\": 1}", "1:31: invalid JSON at the end of the text");
    expect_parse_error("{\"grid\": [1], \"args\": {\"n\": tru}}", "1:29: invalid JSON near 'tru}}'");

    put_text(tmp("bad.json"), "{\n \"grid\": [1,]\n}\n");
    MtLaunchSpec s;
    ck_assert_int_eq(mt_launch_spec_load(tmp("bad.json"), &s, &se), MT_ERR_USAGE);
    char want[600];
    snprintf(want, sizeof want, "%s:2:13: invalid JSON near ']'", tmp("bad.json"));
    ck_assert_str_eq(se.text, want);
    /* the same, as data */
    ck_assert_int_eq(se.line, 2);
    ck_assert_int_eq(se.col, 13);
    ck_assert_str_eq(se.field, "");
    ck_assert_str_eq(se.msg, "invalid JSON near ']'");
}
END_TEST

START_TEST(top_level_errors) {
    expect_parse_error("[1]", "expected a JSON object at the top level, got a list");
    expect_parse_error("{\"gird\": [1]}",
                       "unknown key 'gird' (expected one of: source, kernel, signature, grid, constexprs, args, "
                       "bytes, flops, tolerance)");
    expect_parse_error("{\"args\": {}}", "grid: missing (a list of 1 to 3 integers or expression strings)");
    expect_parse_error("{\"grid\": [1], \"grid\": [2]}", "duplicate key 'grid'");
    expect_parse_error("{\"grid\": [1], \"kernel\": 3}", "kernel: expected a kernel name (a string), got 3");
    expect_parse_error("{\"grid\": [1], \"source\": \"\"}", "source: expected a file name (a string), got \"\"");
    expect_parse_error("{\"grid\": [1], \"signature\": false}",
                       "signature: expected a string such as \"*fp32,*fp32,i32,256\", got false");
}
END_TEST

START_TEST(grid_errors) {
    expect_parse_error("{\"grid\": 4}", "grid: expected a list of 1 to 3 integers or expression strings, got 4");
    expect_parse_error("{\"grid\": []}", "grid: expected 1 to 3 entries, got 0");
    expect_parse_error("{\"grid\": [1, 1, 1, 1]}", "grid: expected 1 to 3 entries, got 4");
    expect_parse_error("{\"grid\": [4, true]}", "grid[1]: expected an integer or an expression string, got true");
    expect_parse_error("{\"grid\": [2.5]}", "grid[0]: expected an integer or an expression string, got 2.5");
    expect_parse_error("{\"grid\": [0]}", "grid[0]: expected a positive integer, got 0");
    expect_parse_error("{\"grid\": [\"cdiv(n,\"]}", "grid[0]: unexpected end of expression in \"cdiv(n,\"");
    expect_parse_error("{\"grid\": [\"n / 2\"]}", "grid[0]: '/' is float division; use '//' at column 3 in \"n / 2\"");
}
END_TEST

START_TEST(argument_errors) {
    expect_arg_error("{\"y\": {\"dtype\": \"float32\", \"shape\": [-3]}}", "args.y.shape[0]: expected a positive integer, got -3");
    expect_arg_error("{\"y\": {\"dtype\": \"float32\", \"shape\": [4, 2.0]}}", "args.y.shape[1]: expected a positive integer, got 2.0");
    expect_arg_error("{\"y\": {\"dtype\": \"float32\", \"shape\": 4}}", "args.y.shape: expected a list of at most 8 positive integers, got 4");
    expect_arg_error("{\"y\": {\"dtype\": \"float32\", \"shape\": [1,1,1,1,1,1,1,1,1]}}", "args.y.shape: 9 dimensions; at most 8 are supported");
    expect_arg_error("{\"y\": {\"dtype\": \"complex64\", \"shape\": [4]}}",
                     "args.y.dtype: expected a dtype name (\"float32\", \"float16\", \"bfloat16\", \"int32\", \"int64\", "
                     "\"uint8\", \"bool\", ...), got \"complex64\"");
    expect_arg_error("{\"y\": {\"shape\": [4]}}", "args.y: missing 'dtype' (an array argument needs 'dtype' and 'shape', or 'npy')");
    expect_arg_error("{\"y\": {\"dtype\": \"int32\"}}", "args.y: missing 'shape' (a list of dimensions, [] for a scalar)");
    expect_arg_error("{\"y\": {\"dtype\": \"int32\", \"shape\": [4], \"init\": \"randn\"}}",
                     "args.y.init: expected one of zeros, ones, arange, constant, uniform, normal; got \"randn\"");
    expect_arg_error("{\"y\": {\"dtype\": \"int32\", \"shape\": [4], \"fill\": 1}}",
                     "args.y: unknown key 'fill' (expected one of: dtype, shape, init, value, low, high, mean, std, seed)");
    expect_arg_error("{\"y\": {\"dtype\": \"float32\", \"shape\": [4], \"low\": 1}}", "args.y.low: only used with init 'uniform'");
    expect_arg_error("{\"y\": {\"dtype\": \"float32\", \"shape\": [4], \"init\": \"uniform\", \"std\": 1}}", "args.y.std: only used with init 'normal'");
    expect_arg_error("{\"y\": {\"dtype\": \"float32\", \"shape\": [4], \"init\": \"ones\", \"seed\": 1}}",
                     "args.y.seed: only used with init 'uniform' or 'normal'");
    expect_arg_error("{\"y\": {\"dtype\": \"float32\", \"shape\": [4], \"init\": \"arange\", \"value\": 1}}",
                     "args.y.value: only used with init 'constant'");
    expect_arg_error("{\"y\": {\"dtype\": \"bool\", \"shape\": [4], \"init\": \"uniform\", \"high\": 1}}",
                     "args.y.high: not used by a bool 'uniform' array (fair coin flips)");
    expect_arg_error("{\"y\": {\"dtype\": \"float32\", \"shape\": [4], \"init\": \"uniform\", \"low\": 1, \"high\": -1}}",
                     "args.y: low (1) must be below high (-1)");
    expect_arg_error("{\"y\": {\"dtype\": \"int32\", \"shape\": [4], \"init\": \"uniform\", \"high\": 10}}",
                     "args.y: int32 'uniform' needs 'low' and 'high' (integers; high is excluded)");
    expect_arg_error("{\"y\": {\"dtype\": \"int32\", \"shape\": [4], \"init\": \"constant\"}}", "args.y: init 'constant' needs 'value'");
    expect_arg_error("{\"y\": {\"dtype\": \"bool\", \"shape\": [4], \"init\": \"constant\", \"value\": 3}}",
                     "args.y: value 3 is not a bool (0 or 1)");
    expect_arg_error("{\"y\": {\"dtype\": \"float32\", \"shape\": [4], \"init\": \"normal\", \"seed\": -1}}",
                     "args.y.seed: expected a non-negative integer, got -1");
    expect_arg_error("{\"y\": {\"dtype\": \"float32\", \"shape\": [4], \"init\": \"normal\", \"mean\": \"nan\"}}",
                     "args.y.mean: expected a number, got \"nan\"");
    expect_arg_error("{\"x\": {\"npy\": \"x.npy\", \"dtype\": \"float32\"}}",
                     "args.x.dtype: not allowed next to 'npy' (the file gives the dtype and shape)");
    expect_arg_error("{\"x\": {\"npy\": 3}}", "args.x.npy: expected a file name (a string), got 3");
    expect_arg_error("{\"n\": \"lots\"}", "args.n: expected a number, a bool, \"nan\", \"inf\", \"-inf\" or an array object, got \"lots\"");
    expect_arg_error("{\"n\": null}", "args.n: expected a number, a bool, \"nan\", \"inf\", \"-inf\" or an array object, got null");
    expect_arg_error("{\"n\": [1, 2]}", "args.n: expected a number, a bool, \"nan\", \"inf\", \"-inf\" or an array object, got a list");
    expect_arg_error("{\"n\": 99999999999999999999}", "args.n: integer 99999999999999999999 is out of range");
    expect_arg_error("{\"s\": 1e999}", "args.s: number 1e999 is out of range");
    expect_arg_error("{\"x-y\": 1}", "args: 'x-y' is not a parameter name");
    expect_arg_error("{\"x\": 1, \"x\": 2}", "args: duplicate key 'x'");
    expect_arg_error("[]", "args: expected an object of named arguments, got a list");
}
END_TEST

START_TEST(other_field_errors) {
    expect_parse_error("{\"grid\": [1], \"constexprs\": {\"BLOCK\": [256]}}",
                       "constexprs.BLOCK: expected a number, a bool or a string (a dtype such as \"tl.float16\", or a "
                       "string constexpr such as \"leaky_relu\"), got a list");
    expect_parse_error("{\"grid\": [1], \"constexprs\": {\"ACT\": null}}",
                       "constexprs.ACT: expected a number, a bool or a string (a dtype such as \"tl.float16\", or a "
                       "string constexpr such as \"leaky_relu\"), got null");
    /* strings are for constexprs: an argument's string is still refused */
    expect_arg_error("{\"n\": \"tl.float16\"}",
                     "args.n: expected a number, a bool, \"nan\", \"inf\", \"-inf\" or an array object, got "
                     "\"tl.float16\"");
    expect_parse_error("{\"grid\": [1], \"constexprs\": {\"n\": 4}, \"args\": {\"n\": 4}}",
                       "constexprs.n: 'n' is also given in args; give it once");
    expect_parse_error("{\"grid\": [1], \"bytes\": -1}", "bytes: expected a non-negative integer or an expression string, got -1");
    expect_parse_error("{\"grid\": [1], \"flops\": 1.5}", "flops: expected a non-negative integer or an expression string, got 1.5");
    expect_parse_error("{\"grid\": [1], \"flops\": \"2 *\"}", "flops: unexpected end of expression in \"2 *\"");
    expect_parse_error("{\"grid\": [1], \"tolerance\": {\"rtol\": -1}}", "tolerance.rtol: expected a non-negative number, got -1");
    expect_parse_error("{\"grid\": [1], \"tolerance\": {\"eps\": 1}}", "tolerance: unknown key 'eps' (expected one of: rtol, atol)");
    expect_parse_error("{\"grid\": [1], \"tolerance\": 0.1}", "tolerance: expected an object {\"rtol\": R, \"atol\": A}, got 0.1");

    MtLaunchSpec s = parse_ok("{\"grid\": [1], \"bytes\": 1.2e10, \"tolerance\": {\"atol\": 0.5}}");
    ck_assert_str_eq(s.bytes, "12000000000");
    ck_assert_double_eq(s.rtol, 0);
    ck_assert_double_eq(s.atol, 0.5);
    mt_launch_spec_free(&s);
}
END_TEST

START_TEST(load_reads_relative_to_the_spec) {
    put_text(tmp("spec.json"), add_spec);
    MtLaunchSpec s;
    ck_assert_int_eq(mt_launch_spec_load(tmp("spec.json"), &s, &se), MT_OK);
    ck_assert_str_eq(s.base_dir, test_tmpdir);
    ck_assert_str_eq(s.args[0].npy_path, tmp("x.npy"));
    mt_launch_spec_free(&s);

    put_text(tmp("bad.json"), "{\"grid\": [1], \"args\": {\"y\": {\"dtype\": \"float32\", \"shape\": [-3]}}}");
    ck_assert_int_eq(mt_launch_spec_load(tmp("bad.json"), &s, &se), MT_ERR_USAGE);
    char want[600];
    snprintf(want, sizeof want, "%s: args.y.shape[0]: expected a positive integer, got -3", tmp("bad.json"));
    ck_assert_str_eq(se.text, want);
    /* the field apart from the message, for diagnostics that point into the spec */
    ck_assert_int_eq(se.status, MT_ERR_USAGE);
    ck_assert_str_eq(se.field, "args.y.shape[0]");
    ck_assert_str_eq(se.msg, "expected a positive integer, got -3");
    ck_assert_int_eq(se.line, 0);

    ck_assert_int_eq(mt_launch_spec_load(tmp("absent.json"), &s, &se), MT_ERR_IO);
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", tmp("absent.json"));
    ck_assert_str_eq(se.text, want);
}
END_TEST

/* Not a spec at all: refused before any read (a FIFO would block, a
 * device never end), with what the file is. */
START_TEST(load_refuses_folders_fifos_devices_and_huge_files) {
    MtLaunchSpec s;
    char want[600];
    ck_assert_int_eq(mt_launch_spec_load(test_tmpdir, &s, &se), MT_ERR_IO);
    snprintf(want, sizeof want, "%s: is a directory", test_tmpdir);
    ck_assert_str_eq(se.text, want);
    ck_assert_int_eq(mkfifo(tmp("fifo.json"), 0600), 0);
    ck_assert_int_eq(mt_launch_spec_load(tmp("fifo.json"), &s, &se), MT_ERR_IO);
    snprintf(want, sizeof want, "%s: is a FIFO (named pipe), not a regular file", tmp("fifo.json"));
    ck_assert_str_eq(se.text, want);
    ck_assert_int_eq(mt_launch_spec_load("/dev/zero", &s, &se), MT_ERR_IO);
    ck_assert_str_eq(se.text, "/dev/zero: is a character device, not a regular file");
    FILE *f = fopen(tmp("big.json"), "wb");
    ck_assert_int_eq(ftruncate(fileno(f), 5 << 20), 0);
    fclose(f);
    ck_assert_int_eq(mt_launch_spec_load(tmp("big.json"), &s, &se), MT_ERR_IO);
    snprintf(want, sizeof want, "%s: is 5 MiB; a launch spec may be at most 4 MiB", tmp("big.json"));
    ck_assert_str_eq(se.text, want);
}
END_TEST

/* The grid reaches past i32 offsets: named before a run. */
START_TEST(i32_overflow_of_the_grid_is_named) {
    MtLaunch l = {.grid = {8388608, 1, 1}, .grid_dims = 1};
    char msg[512];
    ck_assert(mt_launch_i32_overflow(&l, 256, msg, sizeof msg));
    ck_assert_str_eq(msg, "the grid has 8388608 programs of 256 elements each, more than an i32 offset reaches "
                          "(2147483647): offsets computed in i32, such as tl.program_id(0) * BLOCK, overflow and "
                          "wrap to negative values; use fewer programs, or compute offsets in int64");
    l.grid[0] = 8388607; /* 8388607 * 256 = 2^31 - 256: fits */
    ck_assert(!mt_launch_i32_overflow(&l, 256, msg, sizeof msg));
    l.grid[0] = 65536, l.grid[1] = 65535;
    ck_assert(mt_launch_i32_overflow(&l, 1, msg, sizeof msg));
    l.grid[0] = INT32_MAX, l.grid[1] = 65535, l.grid[2] = 65535; /* programs x elements overflows int64 */
    ck_assert(mt_launch_i32_overflow(&l, 1024, msg, sizeof msg));
}
END_TEST

/* ---- --set ------------------------------------------------------------------ */

START_TEST(set_overrides_scalars_and_constexprs) {
    MtLaunchSpec s = parse_ok(add_spec);
    ck_assert_int_eq(mt_launch_spec_set(&s, "n=2048", &se), MT_OK);
    ck_assert_int_eq(s.args[3].value.i, 2048);
    ck_assert_int_eq(mt_launch_spec_set(&s, "BLOCK=128", &se), MT_OK);
    ck_assert_int_eq(s.constexprs[0].value.i, 128);
    ck_assert_int_eq(mt_launch_spec_set(&s, "n=1e3", &se), MT_OK);
    ck_assert_int_eq(s.args[3].value.kind, MT_SCALAR_FLOAT);
    ck_assert_int_eq(mt_launch_spec_set(&s, "EVEN=True", &se), MT_OK);
    ck_assert_int_eq(mt_launch_spec_set(&s, "eps=-inf", &se), MT_OK);
    ck_assert_int_eq(mt_launch_spec_set(&s, "scale=0.5", &se), MT_OK);
    ck_assert_uint_eq(s.nconstexprs, 4);
    ck_assert_str_eq(s.constexprs[1].name, "EVEN");
    ck_assert_int_eq(s.constexprs[1].value.kind, MT_SCALAR_BOOL);
    ck_assert_int_eq(s.constexprs[1].value.i, 1);
    ck_assert(isinf(s.constexprs[2].value.f));
    ck_assert_double_eq(s.constexprs[3].value.f, 0.5);

    ck_assert_int_eq(mt_launch_spec_set(&s, "x=1", &se), MT_ERR_USAGE);
    ck_assert_str_eq(se.text, "x=1: argument 'x' is an array; only scalars and constexprs can be set");
    ck_assert_int_eq(mt_launch_spec_set(&s, "n=abc", &se), MT_ERR_USAGE);
    ck_assert_str_eq(se.text, "n=abc: 'abc' is not a number, a bool, nan, inf, a dtype (tl.float16) or a quoted "
                     "string ('leaky_relu')");
    ck_assert_int_eq(mt_launch_spec_set(&s, "n=0x10", &se), MT_ERR_USAGE);
    ck_assert_str_eq(se.text, "n=0x10: '0x10' is not a number, a bool, nan, inf, a dtype (tl.float16) or a quoted "
                     "string ('leaky_relu')");
    ck_assert_int_eq(mt_launch_spec_set(&s, "n=", &se), MT_ERR_USAGE);
    ck_assert_str_eq(se.text, "n=: '' is not a number, a bool, nan, inf, a dtype (tl.float16) or a quoted "
                     "string ('leaky_relu')");
    ck_assert_int_eq(mt_launch_spec_set(&s, "n", &se), MT_ERR_USAGE);
    ck_assert_str_eq(se.text, "'n': expected NAME=VALUE");
    ck_assert_int_eq(mt_launch_spec_set(&s, "2n=1", &se), MT_ERR_USAGE);
    ck_assert_str_eq(se.text, "'2n=1': '2n' is not a parameter name");
    mt_launch_spec_free(&s);
}
END_TEST

/* ---- signature ------------------------------------------------------------------ */

static char *sig_of(const char *json, const MtKernelInfo *k) {
    MtLaunchSpec s = parse_ok(json);
    char *sig = NULL;
    MtStatus st = mt_launch_spec_signature(&s, k, &sig, &se);
    ck_assert_int_eq(st == MT_OK, sig != NULL);
    mt_launch_spec_free(&s);
    return sig;
}

START_TEST(signature_is_derived_from_arguments) {
    put_npy("x.npy", MT_DT_F32, 1000);
    char *sig = sig_of(add_spec, &add_info);
    ck_assert_str_eq(sig, "*fp32:16,*fp32:16,*fp32:16,i32,256"); /* arrays are 16-byte aligned; n = 1000 is not a multiple of 16 */
    free(sig);

    put_npy("xi.npy", MT_DT_I32, 4);
    sig = sig_of("{\"grid\": [1], \"args\": {\"x\": {\"npy\": \"xi.npy\"}, \"y\": {\"dtype\": \"bool\", \"shape\": [4]},"
                 " \"out\": {\"dtype\": \"int32\", \"shape\": [4]}, \"n\": 2.5}}", &add_info);
    ck_assert_str_eq(sig, "*i32:16,*i1:16,*i32:16,fp32"); /* BLOCK left to its default: dropped at the end */
    free(sig);

    /* constexprs: float and bool literals; a constexpr naming a runtime
     * parameter specialises it */
    sig = sig_of("{\"grid\": [1], \"constexprs\": {\"BLOCK\": 1e-5, \"n\": true},"
                 " \"args\": {\"x\": {\"npy\": \"x.npy\"}, \"y\": {\"npy\": \"x.npy\"}, \"out\": {\"npy\": \"x.npy\"}}}", &add_info);
    ck_assert_str_eq(sig, "*fp32:16,*fp32:16,*fp32:16,True,1e-05");
    free(sig);

    /* a constexpr given among the args; one left to its default in the middle */
    static const MtParamInfo p2[] = {{.name = "A", .constexpr_ = true}, {.name = "x"}, {.name = "B", .constexpr_ = true}, {.name = "flag"}};
    static const MtKernelInfo k2 = {.name = "k2", .params = p2, .nparams = 4};
    sig = sig_of("{\"grid\": [1], \"args\": {\"B\": 2.0, \"x\": {\"npy\": \"x.npy\"}, \"flag\": false}}", &k2);
    ck_assert_str_eq(sig, ",*fp32:16,2.0,i1");
    free(sig);

    sig = sig_of("{\"grid\": [1], \"signature\": \"*fp32,i32\"}", &add_info);
    ck_assert_str_eq(sig, "*fp32,i32");
    free(sig);
}
END_TEST

START_TEST(signature_errors) {
    put_npy("x.npy", MT_DT_F32, 4);
    ck_assert_ptr_null(sig_of("{\"grid\": [1], \"args\": {\"x\": {\"npy\": \"x.npy\"}}}", &add_info));
    ck_assert_str_eq(se.text, "args: missing argument 'y' of kernel add_kernel");
    ck_assert_ptr_null(sig_of("{\"grid\": [1], \"args\": {\"z\": 1}}", &add_info));
    ck_assert_str_eq(se.text, "args.z: kernel add_kernel has no parameter 'z' (its parameters: x, y, out, n, BLOCK)");
    ck_assert_ptr_null(sig_of("{\"grid\": [1], \"constexprs\": {\"BLOK\": 1}}", &add_info));
    ck_assert_str_eq(se.text, "constexprs.BLOK: kernel add_kernel has no parameter 'BLOK' (its parameters: x, y, out, n, BLOCK)");
    ck_assert_ptr_null(sig_of("{\"grid\": [1], \"constexprs\": {\"BLOCK\": \"nan\"}, \"args\": {\"x\": {\"npy\": \"x.npy\"},"
                              " \"y\": {\"npy\": \"x.npy\"}, \"out\": {\"npy\": \"x.npy\"}, \"n\": 4}}", &add_info));
    ck_assert_str_eq(se.text, "constexprs.BLOCK: nan has no literal form for a signature");
    ck_assert_ptr_null(sig_of("{\"grid\": [1], \"args\": {\"x\": {\"npy\": \"x.npy\"}, \"y\": {\"npy\": \"x.npy\"},"
                              " \"out\": {\"npy\": \"x.npy\"}, \"n\": 4, \"BLOCK\": {\"npy\": \"x.npy\"}}}", &add_info));
    ck_assert_str_eq(se.text, "args.BLOCK: constexpr BLOCK takes a number, a bool or a string, not an array");
    ck_assert_ptr_null(sig_of("{\"grid\": [1], \"args\": {\"x\": {\"npy\": \"x.npy\"}, \"y\": {\"npy\": \"x.npy\"},"
                              " \"out\": {\"npy\": \"x.npy\"}, \"n\": 3000000000}}", &add_info));
    ck_assert_str_eq(se.text, "args.n: 3000000000 does not fit in i32");
    ck_assert_ptr_null(sig_of("{\"grid\": [1], \"args\": {\"x\": {\"npy\": \"nope.npy\"}}}", &add_info));
    char want[600];
    snprintf(want, sizeof want, "args.x.npy: %s: cannot open: No such file or directory", tmp("nope.npy"));
    ck_assert_str_eq(se.text, want);
}
END_TEST

/* ---- dtype and string constexprs ------------------------------------------------ */

/* act(x, out, n, DTYPE, ACTIVATION, BLOCK): a dtype and a string constexpr */
static const MtParamInfo act_info_params[] = {
    {.name = "x"}, {.name = "out"}, {.name = "n"},
    {.name = "DTYPE", .constexpr_ = true}, {.name = "ACTIVATION", .constexpr_ = true},
    {.name = "BLOCK", .constexpr_ = true},
};
static const MtKernelInfo act_info = {.name = "act", .params = act_info_params, .nparams = 6};

START_TEST(string_constexprs_name_dtypes_or_are_strings) {
    /* a string naming a dtype as -D does is that dtype; any other is a string; "nan" stays a float */
    MtLaunchSpec s = parse_ok("{\"grid\": [1], \"constexprs\": {\"A\": \"tl.float16\", \"B\": \"torch.bfloat16\","
                              " \"C\": \"triton.language.fp32\", \"D\": \"leaky_relu\", \"E\": \"float16\","
                              " \"F\": \"tl.float33\", \"G\": \"nan\", \"H\": \"\"}}");
    ck_assert_uint_eq(s.nconstexprs, 8);
    ck_assert_int_eq(s.constexprs[0].value.kind, MT_SCALAR_DTYPE);
    ck_assert_int_eq(s.constexprs[0].value.dtype, MT_DT_F16);
    ck_assert_int_eq(s.constexprs[1].value.kind, MT_SCALAR_DTYPE);
    ck_assert_int_eq(s.constexprs[1].value.dtype, MT_DT_BF16);
    ck_assert_int_eq(s.constexprs[2].value.dtype, MT_DT_F32);
    ck_assert_int_eq(s.constexprs[3].value.kind, MT_SCALAR_STR);
    ck_assert_str_eq(s.constexprs[3].value.s, "leaky_relu");
    /* without its module a dtype name is a string, as in -D and signatures */
    ck_assert_int_eq(s.constexprs[4].value.kind, MT_SCALAR_STR);
    ck_assert_str_eq(s.constexprs[5].value.s, "tl.float33");
    ck_assert_int_eq(s.constexprs[6].value.kind, MT_SCALAR_FLOAT);
    ck_assert_str_eq(s.constexprs[7].value.s, "");
    mt_launch_spec_free(&s);
}
END_TEST

START_TEST(signature_writes_dtype_and_string_constexprs) {
    put_npy("x.npy", MT_DT_F32, 4);
    char *sig = sig_of("{\"grid\": [1], \"constexprs\": {\"DTYPE\": \"torch.float16\", \"ACTIVATION\": \"leaky_relu\","
                       " \"BLOCK\": 64}, \"args\": {\"x\": {\"npy\": \"x.npy\"}, \"out\": {\"npy\": \"x.npy\"}, \"n\": 4}}",
                       &act_info);
    ck_assert_str_eq(sig, "*fp32:16,*fp32:16,i32,tl.float16,'leaky_relu',64");
    free(sig);
    /* quotes, backslashes, commas and newlines are written so the compiler reads the same string back */
    sig = sig_of("{\"grid\": [1], \"constexprs\": {\"ACTIVATION\": \"it's a,b\\\\c\\n\"}, \"args\": {\"x\": {\"npy\": "
                 "\"x.npy\"}, \"out\": {\"npy\": \"x.npy\"}, \"n\": 4}}",
                 &act_info);
    ck_assert_str_eq(sig, "*fp32:16,*fp32:16,i32,,'it\\'s a,b\\\\c\\n'");
    free(sig);
    /* a long string grows the signature */
    char json[2048], want[2048], longs[1001];
    memset(longs, 'a', 1000);
    longs[1000] = 0;
    snprintf(json, sizeof json, "{\"grid\": [1], \"constexprs\": {\"ACTIVATION\": \"%s\"}, \"args\": {\"x\": {\"npy\": "
             "\"x.npy\"}, \"out\": {\"npy\": \"x.npy\"}, \"n\": 4}}", longs);
    snprintf(want, sizeof want, "*fp32:16,*fp32:16,i32,,'%s'", longs);
    sig = sig_of(json, &act_info);
    ck_assert_str_eq(sig, want);
    free(sig);
}
END_TEST

START_TEST(set_takes_dtypes_and_quoted_strings_for_constexprs) {
    MtLaunchSpec s = parse_ok("{\"grid\": [1], \"constexprs\": {\"ACTIVATION\": \"relu\"}, \"args\": {\"n\": 4}}");
    ck_assert_int_eq(mt_launch_spec_set(&s, "ACTIVATION='leaky_relu'", &se), MT_OK);
    ck_assert_int_eq(s.constexprs[0].value.kind, MT_SCALAR_STR);
    ck_assert_str_eq(s.constexprs[0].value.s, "leaky_relu");
    ck_assert_int_eq(mt_launch_spec_set(&s, "ACTIVATION=tl.bfloat16", &se), MT_OK); /* the string is freed */
    ck_assert_int_eq(s.constexprs[0].value.kind, MT_SCALAR_DTYPE);
    ck_assert_int_eq(s.constexprs[0].value.dtype, MT_DT_BF16);
    ck_assert_int_eq(mt_launch_spec_set(&s, "DTYPE=torch.float32", &se), MT_OK);
    ck_assert_int_eq(s.constexprs[1].value.dtype, MT_DT_F32);
    ck_assert_int_eq(mt_launch_spec_set(&s, "NAME=\"a b\"", &se), MT_OK);
    ck_assert_str_eq(s.constexprs[2].value.s, "a b");
    /* a bare word is not a string, as with -D */
    ck_assert_int_eq(mt_launch_spec_set(&s, "ACTIVATION=relu", &se), MT_ERR_USAGE);
    ck_assert_str_eq(se.text, "ACTIVATION=relu: 'relu' is not a number, a bool, nan, inf, a dtype (tl.float16) or a "
                              "quoted string ('leaky_relu')");
    ck_assert_int_eq(mt_launch_spec_set(&s, "n=tl.float16", &se), MT_ERR_USAGE);
    ck_assert_str_eq(se.text, "n=tl.float16: argument 'n' is a runtime scalar; only constexprs take a dtype");
    ck_assert_int_eq(mt_launch_spec_set(&s, "n='x'", &se), MT_ERR_USAGE);
    ck_assert_str_eq(se.text, "n='x': argument 'n' is a runtime scalar; only constexprs take a string");
    mt_launch_spec_free(&s);
}
END_TEST

/* ---- binding ---------------------------------------------------------------------- */

static MtLaunchSpec spec_with(const char *args_json, const char *grid) {
    char json[2048];
    snprintf(json, sizeof json, "{\"kernel\": \"add_kernel\", \"grid\": [%s], \"args\": %s}", grid, args_json);
    return parse_ok(json);
}

#define GOOD_XY "\"x\": {\"npy\": \"x.npy\"}, \"y\": {\"dtype\": \"float32\", \"shape\": [1000], \"init\": \"ones\"}, " \
                "\"out\": {\"dtype\": \"float32\", \"shape\": [1000]}"

static void expect_bind_error(const char *args_json, const char *grid, MtStatus want_st, const char *msg) {
    MtLaunchSpec s = spec_with(args_json, grid);
    MtLaunch l;
    ck_assert_int_eq(mt_launch_bind(&s, add_params, 5, &l, &se), want_st);
    ck_assert_str_eq(se.text, msg);
    ck_assert_ptr_null(l.args); /* nothing half-done */
    ck_assert_uint_eq(l.nargs, 0);
    mt_launch_spec_free(&s);
}

START_TEST(bind_the_example) {
    put_npy("x.npy", MT_DT_F32, 1000);
    MtLaunchSpec s = parse_ok(add_spec);
    MtLaunch l;
    ck_assert_int_eq(mt_launch_bind(&s, add_params, 5, &l, &se), MT_OK);
    ck_assert_int_eq(l.grid_dims, 1);
    ck_assert_int_eq(l.grid[0], 4);
    ck_assert_int_eq(l.grid[1], 1);
    ck_assert_int_eq(l.grid[2], 1);
    ck_assert_int_eq(l.bytes, 12000);
    ck_assert_int_eq(l.flops, 1000);
    ck_assert_uint_eq(l.nargs, 4);
    ck_assert_str_eq(l.args[0].name, "x");
    ck_assert_str_eq(l.args[0].type, "*fp32");
    ck_assert_int_eq(l.args[0].kind, MT_ARG_ARRAY);
    ck_assert_str_eq(l.args[0].npy_path, tmp("x.npy"));
    ck_assert_float_eq(((float *)l.args[0].array->data)[999], 999.0f);
    ck_assert_ptr_null(l.args[1].npy_path);
    ck_assert_int_eq(l.args[1].array->numel, 1000);
    float y0 = ((float *)l.args[1].array->data)[0];
    ck_assert(y0 >= -1 && y0 < 1);
    ck_assert_str_eq(l.args[2].name, "out");
    ck_assert_int_eq(l.args[3].kind, MT_ARG_I32);
    ck_assert_int_eq(l.args[3].ival, 1000);
    mt_launch_free(&l);
    ck_assert_ptr_null(l.args);
    mt_launch_spec_free(&s);
}
END_TEST

START_TEST(bind_scalars_of_each_type) {
    static const MtKernelParam params[] = {{"a", "i32", NULL}, {"b", "fp32", NULL}, {"c", "i1", NULL}, {"d", "fp32", NULL},
                                           {"e", "i1", NULL}, {"M", NULL, "True"}, {"K", NULL, "0.5"}};
    MtLaunchSpec s = parse_ok("{\"grid\": [\"a * M\", \"2\", \"max(a, c)\"], \"args\": {\"a\": -3, \"b\": 2, \"c\": true,"
                              " \"d\": \"nan\", \"e\": 0, \"K\": 0.5}, \"flops\": \"a * -1\"}");
    MtLaunch l;
    ck_assert_int_eq(mt_launch_bind(&s, params, 7, &l, &se), MT_ERR_USAGE);
    ck_assert_str_eq(se.text, "grid[0]: a * M is -3; it must be between 1 and 2147483647");
    mt_launch_spec_free(&s);

    s = parse_ok("{\"grid\": [\"-a * M\", \"2\", \"max(a, c)\"], \"args\": {\"a\": -3, \"b\": 2, \"c\": true,"
                 " \"d\": \"nan\", \"e\": 0, \"K\": 0.5}, \"flops\": \"a * -1\"}");
    ck_assert_int_eq(mt_launch_bind(&s, params, 7, &l, &se), MT_OK);
    ck_assert_int_eq(l.grid_dims, 3);
    ck_assert_int_eq(l.grid[0], 3);
    ck_assert_int_eq(l.grid[1], 2);
    ck_assert_int_eq(l.grid[2], 1);
    ck_assert_int_eq(l.bytes, -1);
    ck_assert_int_eq(l.flops, 3);
    ck_assert_int_eq(l.args[0].ival, -3);
    ck_assert_double_eq(l.args[1].fval, 2);
    ck_assert_int_eq(l.args[2].kind, MT_ARG_I1);
    ck_assert_int_eq(l.args[2].ival, 1);
    ck_assert(isnan(l.args[3].fval));
    ck_assert_int_eq(l.args[4].ival, 0);
    ck_assert_uint_eq(l.nargs, 5);
    mt_launch_free(&l);
    mt_launch_spec_free(&s);
}
END_TEST

START_TEST(bind_argument_errors) {
    put_npy("x.npy", MT_DT_F32, 1000);
    put_npy("xi.npy", MT_DT_I32, 1000);
    expect_bind_error("{" GOOD_XY "}", "1", MT_ERR_USAGE, "args: missing argument 'n' (i32) of kernel add_kernel");
    expect_bind_error("{" GOOD_XY ", \"n\": 1, \"z\": 2}", "1", MT_ERR_USAGE,
                      "args.z: kernel add_kernel has no parameter 'z' (its parameters: x, y, out, n, BLOCK)");
    expect_bind_error("{\"x\": {\"npy\": \"xi.npy\"}, \"y\": {\"npy\": \"x.npy\"}, \"out\": {\"npy\": \"x.npy\"}, \"n\": 1}", "1",
                      MT_ERR_USAGE, "args.x: float32 array expected for parameter x (*fp32), got int32 (xi.npy)");
    expect_bind_error("{\"x\": {\"npy\": \"x.npy\"}, \"y\": {\"dtype\": \"int32\", \"shape\": [4]}, \"out\": {\"npy\": \"x.npy\"}, \"n\": 1}",
                      "1", MT_ERR_USAGE, "args.y: float32 array expected for parameter y (*fp32), got int32");
    expect_bind_error("{\"x\": 3, \"y\": {\"npy\": \"x.npy\"}, \"out\": {\"npy\": \"x.npy\"}, \"n\": 1}", "1", MT_ERR_USAGE,
                      "args.x: parameter x (*fp32) takes an array ({\"npy\": ...} or {\"dtype\": ..., \"shape\": ...}), got 3");
    expect_bind_error("{" GOOD_XY ", \"n\": {\"npy\": \"xi.npy\"}}", "1", MT_ERR_USAGE,
                      "args.n: parameter n (i32) takes a scalar, got an array");
    expect_bind_error("{" GOOD_XY ", \"n\": 1000.0}", "1", MT_ERR_USAGE, "args.n: parameter n (i32) needs an integer, got 1000.0");
    expect_bind_error("{" GOOD_XY ", \"n\": true}", "1", MT_ERR_USAGE, "args.n: parameter n (i32) needs an integer, got True");
    expect_bind_error("{" GOOD_XY ", \"n\": 3000000000}", "1", MT_ERR_USAGE, "args.n: 3000000000 is out of the i32 range of parameter n");
    expect_bind_error("{" GOOD_XY ", \"n\": 1, \"BLOCK\": 128}", "1", MT_ERR_USAGE,
                      "args.BLOCK: kernel add_kernel is specialised with BLOCK=256, but args gives 128");
    char want[600];
    snprintf(want, sizeof want, "args.x.npy: %s: cannot open: No such file or directory", tmp("gone.npy"));
    expect_bind_error("{\"x\": {\"npy\": \"gone.npy\"}, \"y\": {\"npy\": \"x.npy\"}, \"out\": {\"npy\": \"x.npy\"}, \"n\": 1}", "1",
                      MT_ERR_IO, want);

    static const MtKernelParam fp[] = {{"s", "fp32", NULL}, {"f", "i1", NULL}, {"w", "fp8e5", NULL}};
    static const struct { const char *args, *msg; } cases[] = {
        {"{\"s\": true, \"f\": 1, \"w\": 1}", "args.s: parameter s (fp32) needs a number, got True"},
        {"{\"s\": 1e39, \"f\": 1, \"w\": 1}", "args.s: 1e+39 is out of the fp32 range of parameter s"},
        {"{\"s\": 1, \"f\": 2, \"w\": 1}", "args.f: parameter f (i1) needs a bool (or 0 or 1), got 2"},
        {"{\"s\": 1, \"f\": 0.0, \"w\": 1}", "args.f: parameter f (i1) needs a bool (or 0 or 1), got 0.0"},
        {"{\"s\": 1, \"f\": 1, \"w\": 1}", "parameter w of the kernel has type 'fp8e5', which launches do not support"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char json[512];
        snprintf(json, sizeof json, "{\"grid\": [1], \"args\": %s}", cases[i].args);
        MtLaunchSpec s = parse_ok(json);
        MtLaunch l;
        ck_assert_int_eq(mt_launch_bind(&s, fp, 3, &l, &se), MT_ERR_USAGE);
        ck_assert_str_eq(se.text, cases[i].msg);
        ck_assert_ptr_null(l.args);
        mt_launch_spec_free(&s);
    }
}
END_TEST

START_TEST(bind_grid_errors) {
    put_npy("x.npy", MT_DT_F32, 1000);
    expect_bind_error("{" GOOD_XY ", \"n\": 1000}", "\"cdiv(n, BLOK)\"", MT_ERR_USAGE,
                      "grid[0]: unknown name 'BLOK' at column 9 in \"cdiv(n, BLOK)\"");
    expect_bind_error("{" GOOD_XY ", \"n\": 1000}", "\"n // 2000\"", MT_ERR_USAGE,
                      "grid[0]: n // 2000 is 0; it must be between 1 and 2147483647");
    expect_bind_error("{" GOOD_XY ", \"n\": 1000}", "1, \"n * 70\"", MT_ERR_USAGE,
                      "grid[1]: n * 70 is 70000; it must be between 1 and 65535");
    expect_bind_error("{" GOOD_XY ", \"n\": 1000}", "\"x\"", MT_ERR_USAGE, "grid[0]: 'x' is not an integer at column 1 in \"x\"");
    expect_bind_error("{" GOOD_XY ", \"n\": 0}", "\"BLOCK // n\"", MT_ERR_USAGE,
                      "grid[0]: division by zero at column 7 in \"BLOCK // n\"");

    MtLaunchSpec s = parse_ok("{\"grid\": [1], \"bytes\": \"n - 2000\", \"args\": {" GOOD_XY ", \"n\": 1000}}");
    MtLaunch l;
    ck_assert_int_eq(mt_launch_bind(&s, add_params, 5, &l, &se), MT_ERR_USAGE);
    ck_assert_str_eq(se.text, "bytes: n - 2000 is -1000; a count cannot be negative");
    ck_assert_ptr_null(l.args);
    mt_launch_spec_free(&s);
}
END_TEST

START_TEST(bind_accepts_agreeing_specialised_values) {
    put_npy("x.npy", MT_DT_F32, 1000);
    MtLaunchSpec s = spec_with("{" GOOD_XY ", \"n\": 1000, \"BLOCK\": 256}", "\"cdiv(n, meta['BLOCK'])\"");
    MtLaunch l;
    ck_assert_int_eq(mt_launch_bind(&s, add_params, 5, &l, &se), MT_OK);
    ck_assert_int_eq(l.grid[0], 4);
    ck_assert_uint_eq(l.nargs, 4);
    mt_launch_free(&l);
    mt_launch_spec_free(&s);
}
END_TEST

/* Each scalar in its parameter's bytes: widths and encodings of the
 * dtype, not of i32 / f32 (cuLaunchKernel copies sizeof(param) bytes). */
START_TEST(scalar_arguments_take_their_dtype_bytes) {
    static const struct {
        MtArgKind kind;
        MtDtype dt;
        int64_t i;
        double f;
        uint64_t want;
    } cases[] = {
        {MT_ARG_I32, MT_DT_I32, -2, 0, 0xfffffffeu},
        {MT_ARG_I32, MT_DT_I64, -2, 0, 0xfffffffffffffffeu},
        {MT_ARG_I32, MT_DT_I64, (int64_t)1 << 40, 0, (uint64_t)1 << 40},
        {MT_ARG_I32, MT_DT_U8, 255, 0, 0xff},
        {MT_ARG_I32, MT_DT_I16, -1, 0, 0xffff},
        {MT_ARG_I1, MT_DT_I1, 1, 0, 1},
        {MT_ARG_F32, MT_DT_F32, 0, 1.5, 0x3fc00000u},
        {MT_ARG_F32, MT_DT_F16, 0, 1.5, 0x3e00},
        {MT_ARG_F32, MT_DT_BF16, 0, -2.0, 0xc000},
        {MT_ARG_F32, MT_DT_F64, 0, 0.1, 0x3fb999999999999au},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        MtLaunchArg a = {.kind = cases[i].kind, .dtype = cases[i].dt, .ival = cases[i].i, .fval = cases[i].f};
        uint64_t slot = 0xdeadbeefdeadbeefu;
        mt_launch_arg_bytes(&a, &slot);
        ck_assert_msg(slot == cases[i].want, "case %zu (%s): got %#llx, want %#llx", i, mt_dtype_info(cases[i].dt)->ir,
                      (unsigned long long)slot, (unsigned long long)cases[i].want);
    }
}
END_TEST

static Suite *launch_spec_suite(void) {
    Suite *s = suite_create("launch_spec");
    TCase *t = tcase_create("launch_spec");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, parses_the_example);
    tcase_add_test(t, literals_keep_their_kind);
    tcase_add_test(t, paths_join_the_spec_folder);
    tcase_add_test(t, generated_parameters_and_defaults);
    tcase_add_test(t, json_syntax_errors_have_line_and_column);
    tcase_add_test(t, top_level_errors);
    tcase_add_test(t, grid_errors);
    tcase_add_test(t, argument_errors);
    tcase_add_test(t, other_field_errors);
    tcase_add_test(t, load_reads_relative_to_the_spec);
    tcase_add_test(t, load_refuses_folders_fifos_devices_and_huge_files);
    tcase_add_test(t, i32_overflow_of_the_grid_is_named);
    tcase_add_test(t, set_overrides_scalars_and_constexprs);
    tcase_add_test(t, signature_is_derived_from_arguments);
    tcase_add_test(t, signature_errors);
    tcase_add_test(t, string_constexprs_name_dtypes_or_are_strings);
    tcase_add_test(t, signature_writes_dtype_and_string_constexprs);
    tcase_add_test(t, set_takes_dtypes_and_quoted_strings_for_constexprs);
    tcase_add_test(t, bind_the_example);
    tcase_add_test(t, bind_scalars_of_each_type);
    tcase_add_test(t, bind_argument_errors);
    tcase_add_test(t, bind_grid_errors);
    tcase_add_test(t, bind_accepts_agreeing_specialised_values);
    tcase_add_test(t, scalar_arguments_take_their_dtype_bytes);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(launch_spec_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
