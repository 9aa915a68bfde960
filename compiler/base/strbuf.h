/* strbuf.h: an arena-backed string builder used by every printer. */
#ifndef MT_STRBUF_H
#define MT_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#include "arena.h"

typedef struct MtBuf {
    MtArena *ar;
    char *s;
    size_t n, cap;
} MtBuf;

void mt_buf_init(MtBuf *b, MtArena *ar);
void mt_buf_putc(MtBuf *b, char ch);
void mt_buf_puts(MtBuf *b, const char *s);
void mt_buf_putn(MtBuf *b, const char *s, size_t n);
void mt_buf_printf(MtBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mt_buf_vprintf(MtBuf *b, const char *fmt, va_list ap);
void mt_buf_indent(MtBuf *b, int spaces);
/* The NUL-terminated text so far (never NULL). */
const char *mt_buf_str(MtBuf *b);

/* Python repr() of a float: shortest round-trip digits, "inf", "nan",
 * exponent form outside [1e-4, 1e16). Writes at most 32 bytes. */
void mt_format_pyfloat(char out[32], double v);

#endif
