/* strbuf.h: an arena-backed string builder used by every printer. */
#ifndef MT_STRBUF_H
#define MT_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#include "arena.h"

/* Where a printed line came from: printers mark each line they write with
 * the source range (and inline site, ctx->inl) of the operation it shows,
 * so tools can link stage lines to source lines without reading the text
 * back. Lines are 1-based; unmarked lines (headers, braces) have no entry. */
typedef struct MtLineMark {
    uint32_t line;
    MtSpan span;
    uint32_t inl;
} MtLineMark;
typedef MT_VEC(MtLineMark) MtLineMarks;   /* sorted by line */

typedef struct MtBuf {
    MtArena *ar;
    char *s;
    size_t n, cap;
    MtLineMarks *marks;       /* NULL: marks are not recorded */
    size_t counted;           /* bytes already scanned for newlines */
    uint32_t line;            /* 1-based line at `counted` */
} MtBuf;

void mt_buf_init(MtBuf *b, MtArena *ar);
void mt_buf_putc(MtBuf *b, char ch);
void mt_buf_puts(MtBuf *b, const char *s);
void mt_buf_putn(MtBuf *b, const char *s, size_t n);
void mt_buf_printf(MtBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mt_buf_vprintf(MtBuf *b, const char *fmt, va_list ap);
void mt_buf_indent(MtBuf *b, int spaces);
/* Record marks into `marks` from now on (its entries are kept). */
void mt_buf_record_marks(MtBuf *b, MtLineMarks *marks);
/* Mark the line being written (the first mark of a line wins). */
void mt_buf_mark(MtBuf *b, MtSpan span, uint32_t inl);
/* The NUL-terminated text so far (never NULL). */
const char *mt_buf_str(MtBuf *b);

/* Python repr() of a float: shortest round-trip digits, "inf", "nan",
 * exponent form outside [1e-4, 1e16). Writes at most 32 bytes. */
void mt_format_pyfloat(char out[32], double v);

/* The length of s up to its first character in `stops`, skipping quoted
 * parts ('a,b' or "a b"; a backslash escapes the next character inside
 * quotes): signature entries and `# mytriton:` items end at a comma or a
 * space that is not inside a string literal. */
size_t mt_unquoted_span(const char *s, const char *stops);

#endif
