/* bench_util.h: what the benchmark programs share. */
#ifndef MT_BENCH_UTIL_H
#define MT_BENCH_UTIL_H

#include <stddef.h>

/* The whole file, NUL-terminated (malloc'ed), or NULL. */
char *bench_read_file(const char *path, size_t *len);

#endif
