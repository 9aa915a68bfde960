/* text.c: the growable string of text.h. */
#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool grow(Text *t, size_t more)
{
    if (t->failed)
        return false;
    if (t->n + more + 1 <= t->cap)
        return true;
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->n + more + 1)
        cap *= 2;
    char *s = realloc(t->s, cap);
    if (!s) {
        t->failed = true;
        return false;
    }
    t->s = s;
    t->cap = cap;
    return true;
}

void mt_lsp_text_putn(Text *t, const char *s, size_t n)
{
    if (!grow(t, n))
        return;
    memcpy(t->s + t->n, s, n);
    t->n += n;
    t->s[t->n] = 0;
}

void mt_lsp_text_puts(Text *t, const char *s) { mt_lsp_text_putn(t, s, strlen(s)); }

void mt_lsp_text_printf(Text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !grow(t, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(t->s + t->n, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->n += (size_t)n;
}

const char *mt_lsp_text_str(Text *t) { return t->s && !t->failed ? t->s : ""; }

void mt_lsp_text_free(Text *t)
{
    free(t->s);
    memset(t, 0, sizeof *t);
}
