/* check_fast.c: the fast lowering against the interpreter, without a GPU.
 *
 * Every launch spec of examples/ and of tests/exec/fast/ (kernels that pin
 * the lowering on the language's breadth) is compiled with the fast
 * lowering through CUDA, run in the kernel-layer simulator (every thread of
 * every block in lockstep: layouts, shuffles, shared memory and masks as
 * the generated CUDA has them) and in the interpreter on the same inputs,
 * and every output array is compared. Integer and bool outputs must be
 * identical. Float outputs may differ where the fast lowering sums in
 * another order (reductions by registers, shuffles and warps instead of
 * the seed tree; tl.dot with fused multiply-adds): they must agree to a
 * relative 1e-5 of the largest magnitude of the output (a few units in the
 * last place of fp32 over the short sums of the examples). Where a spec
 * sets a tolerance (its GPU comparison's), a float output of any width may
 * also differ within it: an fp16 output rounded from fp32 sums taken in
 * another order can land on the neighbouring fp16 value (fused attention);
 * specs without one, such as the conversions', stay bit for bit. Both run the
 * programs one after another (the interpreter on one thread), so the spin
 * locks of tests/exec/fast/atomics.py are taken in the same order; within
 * a program the two order the atomics on one element differently, so
 * those specs compare only what no order changes. Every kernel's shared
 * memory must fit in the 48 KiB a block may declare (ptxas refuses more).
 * The NVRTC test of the same kernels is tests/cuda; on a GPU, tests/gpu
 * runs them. */
#include <dirent.h>

#include "exec_test.h"

#include "launch_spec.h"

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Run the interpreter (sim false) or the simulator on fresh inputs bound
 * from the spec, the kernel compiled for num_warps (0: the default);
 * returns the launch (caller frees) with the outputs. */
static MtLaunch run_spec(const char *path, bool sim, bool may_skip, int num_warps, char **signature_out, double tol[2])
{
    MtLaunchSpec spec;
    MtSpecError se;
    ck_assert_msg(mt_launch_spec_load(path, &spec, &se) == MT_OK, "%s", se.text);
    const char *src = spec.source_path;
    size_t len;
    char *text = read_text(src, &len);
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    ck_assert_msg(mt_parse(c, src, text, len, &m) == MT_OK, "%s: %s", path, all_diags(c));
    const MtKernelInfo *ki = spec.kernel ? mt_module_find_kernel(m, spec.kernel) : mt_module_kernel(m, 0);
    ck_assert_msg(ki != NULL, "%s: kernel", path);
    char *sig = NULL;
    ck_assert_msg(mt_launch_spec_signature(&spec, ki, &sig, &se) == MT_OK, "%s: %s", path, se.text);
    MtSpec cs = {.kernel = ki->name, .signature = sig, .lowering = MT_LOWERING_FAST, .last_stage = MT_STAGE_CUDA,
                  .num_warps = num_warps};
    MtCompiled *k;
    MtStatus cst = mt_compile(c, m, &cs, &k);
    if (cst != MT_OK && may_skip && strstr(all_diags(c), "[E0603]")) {
        /* the language runs ahead of the fast lowering: a located refusal is fine */
        printf("skip %s: %s", path, all_diags(c));
        free(text);
        mt_ctx_free(c);
        mt_launch_spec_free(&spec);
        free(sig);
        return (MtLaunch){0};
    }
    ck_assert_msg(cst == MT_OK, "%s: %s", path, all_diags(c));
    /* what a block may declare statically (ptxas refuses more), or what
     * an H200's block may have dynamically */
    MtLaunchShape shape;
    ck_assert(mt_compiled_launch_shape(k, &shape));
    ck_assert_msg(shape.shared_bytes <= (shape.dynamic_shared_bytes ? 227 : 48) * 1024,
                  "%s: %llu B of %s shared memory per block, more than a block may have", path,
                  (unsigned long long)shape.shared_bytes, shape.dynamic_shared_bytes ? "dynamic" : "static");
    size_t np = mt_compiled_param_count(k);
    MtKernelParam *params = malloc((np + 1) * sizeof *params);
    for (size_t i = 0; i < np; i++)
        params[i] = *mt_compiled_param(k, i);
    MtLaunch launch;
    ck_assert_msg(mt_launch_bind(&spec, params, np, &launch, &se) == MT_OK, "%s: %s", path, se.text);
    MtKernelArg *args = calloc(launch.nargs + 1, sizeof *args);
    for (size_t i = 0; i < launch.nargs; i++) {
        const MtLaunchArg *a = &launch.args[i];
        if (a->kind == MT_ARG_ARRAY)
            args[i] = arr(a->array->data, (size_t)a->array->numel);
        else if (a->kind == MT_ARG_F32)
            args[i] = f32(a->fval);
        else
            args[i] = i32(a->ival);
    }
    MtStatus st = sim ? mt_simulate(c, k, launch.grid, args, launch.nargs)
                      : mt_interpret(c, k, launch.grid, args, launch.nargs, &(MtInterpOptions){.threads = 1});
    ck_assert_msg(st == MT_OK, "%s (%s): %s", path, sim ? "simulator" : "interpreter", all_diags(c));
    if (signature_out)
        *signature_out = strdup(sig);
    if (tol && spec.has_tolerance) {
        tol[0] = spec.rtol;
        tol[1] = spec.atol;
    }
    free(args);
    free(params);
    free(sig);
    free(text);
    mt_ctx_free(c);
    mt_launch_spec_free(&spec);
    return launch;
}

static void compare_spec(const char *path, bool may_skip, int num_warps)
{
    char *sig = NULL;
    double tol[2] = {-1, -1}; /* the spec's rtol, atol; negative: none */
    MtLaunch want = run_spec(path, false, may_skip, num_warps, &sig, tol);
    MtLaunch got = run_spec(path, true, may_skip, num_warps, NULL, NULL);
    if (!want.args || !got.args) {
        free(sig);
        mt_launch_free(&want);
        mt_launch_free(&got);
        return;
    }
    for (size_t i = 0; i < want.nargs; i++) {
        const MtArray *w = want.args[i].array, *g = got.args[i].array;
        if (want.args[i].kind != MT_ARG_ARRAY)
            continue;
        double scale = 0;
        for (int64_t j = 0; j < w->numel; j++) {
            double v = fabs(mt_dtype_get(w->dtype, w->data, (size_t)j));
            if (isfinite(v) && v > scale)
                scale = v;
        }
        for (int64_t j = 0; j < w->numel; j++) {
            double a = mt_dtype_get(w->dtype, w->data, (size_t)j), b = mt_dtype_get(g->dtype, g->data, (size_t)j);
            bool same = a == b || (isnan(a) && isnan(b));
            bool close = w->dtype == MT_DT_F32 && fabs(a - b) <= 1e-5 * scale;
            if (mt_dtype_info(w->dtype)->cls == MT_DC_FLOAT && tol[0] >= 0 && fabs(a - b) <= tol[1] + tol[0] * fabs(a))
                close = true;
            ck_assert_msg(same || close, "%s (%s): %s[%lld] is %.9g in the simulator, %.9g in the interpreter", path,
                          sig, want.args[i].name, (long long)j, b, a);
        }
    }
    free(sig);
    mt_launch_free(&want);
    mt_launch_free(&got);
}

/* Every .json spec of the source folder `sub`, in name order. */
static void compare_folder(const char *sub, bool may_skip, size_t at_least)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", MT_SOURCE_DIR, sub);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    char *names[256];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 256;) {
        size_t l = strlen(e->d_name);
        if (l > 5 && !strcmp(e->d_name + l - 5, ".json"))
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    ck_assert_uint_ge(n, at_least);
    for (size_t i = 0; i < n; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        compare_spec(path, may_skip, 0);
        free(names[i]);
    }
}

/* The examples may use what the fast lowering refuses (E0603, located). */
START_TEST(every_example_spec_matches_the_interpreter) { compare_folder("examples", true, 10); }
END_TEST

/* The lowering's own cases must lower. */
START_TEST(every_fast_case_lowers_and_matches_the_interpreter) { compare_folder("tests/exec/fast", false, 3); }
END_TEST

/* Two warpgroups split a warpgroup dot's result (num_warps=8): along
 * the wgmma's columns (a 64 x 512 f16 tile, a 64 x 64 TF32 one) or its
 * rows (TF32 64 x 128: rows are N there). */
START_TEST(warpgroup_dots_split_over_eight_warps)
{
    static const char *const specs[] = {"wgmma_wide", "wgmma_tf32", "wgmma_tf32_wide"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/tests/exec/fast/dots.pipelined_matmul_kernel.%s.json", MT_SOURCE_DIR, specs[i]);
        compare_spec(path, false, 8);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("fast");
    TCase *tc = tcase_create("examples");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, every_example_spec_matches_the_interpreter);
    tcase_add_test(tc, every_fast_case_lowers_and_matches_the_interpreter);
    tcase_add_test(tc, warpgroup_dots_split_over_eight_warps);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
