/* errbuf.h: the runtime's error messages. Runtime calls return a status
 * and write what went wrong into a caller's buffer (`char *err, size_t
 * errlen`); this is the one function that writes it. */
#ifndef MT_RUNTIME_ERRBUF_H
#define MT_RUNTIME_ERRBUF_H

#include <stddef.h>

/* printf into err (truncated to errlen); nothing when err is NULL or
 * errlen is 0. */
void mt_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
