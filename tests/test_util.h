/* test_util.h: helpers the Check suites share. */
#ifndef MT_TEST_UTIL_H
#define MT_TEST_UTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

#endif
