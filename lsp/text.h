/* text.h: a growable malloc'ed string for building hover text, titles and
 * completion details. Allocation failures make the text empty-but-valid
 * (the reply degrades, the server goes on). */
#ifndef MT_LSP_TEXT_H
#define MT_LSP_TEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Text {
    char *s;
    size_t n, cap;
    bool failed;
} Text;

void text_puts(Text *t, const char *s);
void text_putn(Text *t, const char *s, size_t n);
void text_printf(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The string so far ("" when empty); stays owned by t. */
const char *text_str(Text *t);
void text_free(Text *t);

#endif
