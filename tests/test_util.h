/* test_util.h: helpers the Check suites share. */
#ifndef MT_TEST_UTIL_H
#define MT_TEST_UTIL_H

#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mytriton/mytriton.h"

/* The whole file, NUL-terminated (malloc'ed); fails the test when it
 * cannot be read. `len` may be NULL. */
static inline char *test_read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    ck_assert_msg(fp != NULL, "cannot open %s", path);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(s, 1, (size_t)n, fp), (size_t)n);
    s[n] = 0;
    fclose(fp);
    if (len)
        *len = (size_t)n;
    return s;
}

/* A file in the folder of the test's source (pass __FILE__). */
static inline char *test_read_beside(const char *source_file, const char *rel)
{
    char path[4096];
    const char *slash = strrchr(source_file, '/');
    int dir = slash ? (int)(slash - source_file + 1) : 0;
    snprintf(path, sizeof path, "%.*s%s", dir, source_file, rel);
    return test_read_file(path, NULL);
}

/* A scratch folder per test (Check fixtures): test_tmp_setup creates
 * /tmp/PREFIX_XXXXXX, test_tmp_teardown removes it and its files, and
 * test_tmp names a file in it (two names at a time stay valid). */
static char test_tmpdir[64];

static inline void test_tmp_setup(const char *prefix)
{
    snprintf(test_tmpdir, sizeof test_tmpdir, "/tmp/%s_XXXXXX", prefix);
    ck_assert_ptr_nonnull(mkdtemp(test_tmpdir));
}

static inline void test_tmp_teardown(void)
{
    DIR *d = opendir(test_tmpdir);
    struct dirent *e;
    char p[512];
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(p, sizeof p, "%s/%s", test_tmpdir, e->d_name);
            unlink(p);
        }
    if (d)
        closedir(d);
    rmdir(test_tmpdir);
}

static inline const char *test_tmp(const char *name)
{
    static char p[2][256];
    static int k;
    k ^= 1;
    snprintf(p[k], sizeof p[k], "%s/%s", test_tmpdir, name);
    return p[k];
}

/* The kernel that spec names in the module src, compiled in c as spec
 * asks; fails the test when it does not compile. */
static inline MtCompiled *test_compile(MtCtx *c, const char *src, const MtSpec *spec)
{
    MtModule *m;
    MtCompiled *k;
    ck_assert_int_eq(mt_parse(c, "k.py", src, strlen(src), &m), MT_OK);
    ck_assert_int_eq(mt_compile(c, m, spec, &k), MT_OK);
    return k;
}

/* The text of stage `stage` of k, copied into out (cap bytes). */
static inline const char *test_copy_text(MtCtx *c, MtCompiled *k, MtStage stage, char *out, size_t cap)
{
    const char *text = mt_compiled_text(c, k, stage);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_lt(strlen(text), cap);
    strcpy(out, text);
    return out;
}

/* The text of stage `stage` of kernel `kernel` of src compiled through
 * MT_STAGE_CUDA (the fast lowering) for signature sig on num_warps warps
 * (0: the lowering's choice), copied into out (cap bytes). */
static inline const char *test_stage_text(const char *src, const char *kernel, const char *sig, int num_warps,
                                          MtStage stage, char *out, size_t cap)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtSpec spec = {.kernel = kernel, .signature = sig, .last_stage = MT_STAGE_CUDA, .num_warps = num_warps};
    test_copy_text(c, test_compile(c, src, &spec), stage, out, cap);
    mt_ctx_free(c);
    return out;
}

/* How many times word occurs in text (not overlapping). */
static inline int test_count(const char *text, const char *word)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, word)); p += strlen(word))
        n++;
    return n;
}

#endif
