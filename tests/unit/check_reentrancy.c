/* check_reentrancy.c: the library's contracts under stress.
 *  - out of memory: an allocator that fails the Nth allocation, for every
 *    N until a compile succeeds; each attempt must return MT_ERR_NOMEM
 *    (never crash or leak, which the ASan build checks) and the context
 *    must stay usable after mt_ctx_reset;
 *  - threads: several threads compile every example kernel at once, each
 *    with its own context, and must all print exactly what one thread
 *    prints alone (no shared mutable state in the library). */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../test_util.h"
#include "mytriton/mytriton.h"

#ifndef MT_EXAMPLES_DIR
#error "MT_EXAMPLES_DIR must name the examples folder"
#endif

typedef struct Failing {
    long allocations;         /* successful allocations so far */
    long fail_at;             /* the allocation that fails (1-based) */
} Failing;

static void *failing_realloc(void *ud, void *ptr, size_t old, size_t n)
{
    Failing *f = ud;
    (void)old;
    if (n == 0) {
        free(ptr);
        return NULL;
    }
    if (++f->allocations == f->fail_at)
        return NULL;
    return realloc(ptr, n);
}

static char *slurp(const char *name, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", MT_EXAMPLES_DIR, name);
    return test_read_file(path, len);
}

/* Compile through CUDA; the status of the first call that failed. */
static MtStatus compile_all(MtCtx *c, const char *text, size_t len, const char *kernel, const char **out)
{
    MtModule *m;
    MtCompiled *k;
    MtStatus st = mt_parse(c, "example.py", text, len, &m);
    if (st != MT_OK)
        return st;
    MtSpec spec = {.kernel = kernel, .last_stage = MT_STAGE_CUDA};
    st = mt_compile(c, m, &spec, &k);
    if (st == MT_OK && out)
        *out = mt_compiled_text(c, k, MT_STAGE_CUDA);
    return st;
}

START_TEST(out_of_memory_at_every_allocation)
{
    size_t len;
    char *text = slurp("dot.py", &len);
    long n;
    for (n = 1; n < 100000; n++) {
        Failing f = {0, n};
        MtAlloc a = {failing_realloc, &f};
        MtCtx *c = mt_ctx_new(&a);
        if (!c)
            continue; /* the context itself was the failing allocation */
        MtStatus st = compile_all(c, text, len, "matmul_kernel", NULL);
        if (st == MT_OK) {
            mt_ctx_free(c);
            break;
        }
        ck_assert_msg(st == MT_ERR_NOMEM, "allocation %ld failed but the compile returned %s", n, mt_status_name(st));
        /* The context is still usable after a reset (the failure is past). */
        f.fail_at = -1;
        mt_ctx_reset(c);
        ck_assert_int_eq(compile_all(c, text, len, "matmul_kernel", NULL), MT_OK);
        mt_ctx_free(c);
    }
    /* The arena takes memory in chunks, so a compile makes only a handful
     * of allocations; every one of them must have failed cleanly once. */
    ck_assert_msg(n > 5 && n < 100000, "the compile succeeded at allocation %ld", n);
    free(text);
}
END_TEST

static const struct {
    const char *file, *kernel;
} kernels[] = {
    {"add_kernel.py", "add_kernel"},     {"softmax.py", "softmax_kernel"},
    {"matmul_2d.py", "matmul_2d_kernel"}, {"matmul_2d_runtime.py", "matmul_2d_runtime_kernel"},
    {"dot.py", "matmul_kernel"},         {"long_row_sum.py", "long_row_sum_kernel"},
};
enum { NKERNELS = sizeof kernels / sizeof kernels[0], NTHREADS = 4, ROUNDS = 15 };

typedef struct Job {
    char *text[NKERNELS];
    size_t len[NKERNELS];
    char *expected[NKERNELS];
    int mismatches;
} Job;

static void *worker(void *ud)
{
    Job *j = ud;
    MtCtx *c = mt_ctx_new(NULL);
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < NKERNELS; i++) {
            mt_ctx_reset(c);
            const char *cuda = NULL;
            if (compile_all(c, j->text[i], j->len[i], kernels[i].kernel, &cuda) != MT_OK ||
                strcmp(cuda, j->expected[i]) != 0)
                __atomic_add_fetch(&j->mismatches, 1, __ATOMIC_RELAXED);
        }
    mt_ctx_free(c);
    return NULL;
}

START_TEST(threads_compile_independently)
{
    Job j = {0};
    MtCtx *c = mt_ctx_new(NULL);
    for (int i = 0; i < NKERNELS; i++) {
        j.text[i] = slurp(kernels[i].file, &j.len[i]);
        mt_ctx_reset(c);
        const char *cuda = NULL;
        ck_assert_int_eq(compile_all(c, j.text[i], j.len[i], kernels[i].kernel, &cuda), MT_OK);
        j.expected[i] = strdup(cuda);
    }
    mt_ctx_free(c);
    pthread_t t[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, worker, &j), 0);
    for (int i = 0; i < NTHREADS; i++)
        pthread_join(t[i], NULL);
    ck_assert_int_eq(j.mismatches, 0);
    for (int i = 0; i < NKERNELS; i++) {
        free(j.text[i]);
        free(j.expected[i]);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("reentrancy");
    TCase *t = tcase_create("contracts");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, out_of_memory_at_every_allocation);
    tcase_add_test(t, threads_compile_independently);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
