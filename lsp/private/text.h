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

void mt_lsp_text_puts(Text *t, const char *s);
void mt_lsp_text_putn(Text *t, const char *s, size_t n);
void mt_lsp_text_printf(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The string so far ("" when empty); stays owned by t. */
const char *mt_lsp_text_str(Text *t);
void mt_lsp_text_free(Text *t);

#endif
