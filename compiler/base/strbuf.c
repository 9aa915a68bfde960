/* strbuf.c: growable strings in the arena, and Python-style float repr so
 * printed IR reads exactly like the seed documents ("0.0", "2.5", "-inf"). */
#include "strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mt_buf_init(MtBuf *b, MtArena *ar)
{
    b->ar = ar;
    b->s = NULL;
    b->n = b->cap = 0;
    b->marks = NULL;
    b->counted = 0;
    b->line = 1;
}

static void reserve(MtBuf *b, size_t extra)
{
    if (b->n + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap * 2 : 256;
    while (cap < b->n + extra + 1)
        cap *= 2;
    b->s = mt_arena_grow(b->ar, b->s, b->n, cap, 1);
    b->cap = cap;
}

void mt_buf_putn(MtBuf *b, const char *s, size_t n)
{
    reserve(b, n);
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

void mt_buf_putc(MtBuf *b, char ch) { mt_buf_putn(b, &ch, 1); }
void mt_buf_puts(MtBuf *b, const char *s) { mt_buf_putn(b, s, strlen(s)); }

void mt_buf_vprintf(MtBuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n <= 0)
        return;
    reserve(b, (size_t)n);
    vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
    b->n += (size_t)n;
}

void mt_buf_printf(MtBuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mt_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void mt_buf_indent(MtBuf *b, int spaces)
{
    for (int i = 0; i < spaces; i++)
        mt_buf_putc(b, ' ');
}

void mt_buf_record_marks(MtBuf *b, MtLineMarks *marks) { b->marks = marks; }

void mt_buf_mark(MtBuf *b, MtSpan span, uint32_t inl)
{
    if (!b->marks)
        return;
    for (; b->counted < b->n; b->counted++)
        b->line += b->s[b->counted] == '\n';
    if (b->marks->n && b->marks->v[b->marks->n - 1].line == b->line)
        return;
    MtLineMark m = {b->line, span, inl};
    mt_vec_push(b->ar, b->marks, m);
}

const char *mt_buf_str(MtBuf *b)
{
    if (!b->s)
        mt_buf_putn(b, "", 0);
    return b->s;
}

void mt_format_pyfloat(char out[32], double v)
{
    if (isnan(v)) {
        strcpy(out, "nan");
        return;
    }
    if (isinf(v)) {
        strcpy(out, v < 0 ? "-inf" : "inf");
        return;
    }
    /* Shortest precision that round-trips, like Python's repr. */
    char digits[40];
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(digits, sizeof digits, "%.*e", prec - 1, v);
        if (strtod(digits, NULL) == v)
            break;
    }
    /* digits = [-]d[.ddd]e[+-]XX */
    char mant[24];
    int mn = 0, neg = 0;
    const char *p = digits;
    if (*p == '-') {
        neg = 1;
        p++;
    }
    for (; *p && *p != 'e'; p++)
        if (*p != '.')
            mant[mn++] = *p;
    mant[mn] = 0;
    int exp10 = atoi(p + 1);
    while (mn > 1 && mant[mn - 1] == '0')
        mant[--mn] = 0;

    char *o = out;
    if (neg)
        *o++ = '-';
    if (exp10 < -4 || exp10 >= 16) {
        *o++ = mant[0];
        if (mn > 1) {
            *o++ = '.';
            memcpy(o, mant + 1, (size_t)mn - 1);
            o += mn - 1;
        }
        sprintf(o, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
        return;
    }
    if (exp10 < 0) {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -exp10 - 1; i++)
            *o++ = '0';
        memcpy(o, mant, (size_t)mn);
        o += mn;
    } else {
        for (int i = 0; i <= exp10; i++)
            *o++ = i < mn ? mant[i] : '0';
        *o++ = '.';
        if (mn > exp10 + 1) {
            memcpy(o, mant + exp10 + 1, (size_t)(mn - exp10 - 1));
            o += mn - exp10 - 1;
        } else {
            *o++ = '0';
        }
    }
    *o = 0;
}

size_t mt_unquoted_span(const char *s, const char *stops)
{
    char quote = 0;
    size_t i = 0;
    for (; s[i]; i++) {
        if (quote) {
            if (s[i] == '\\' && s[i + 1])
                i++;
            else if (s[i] == quote)
                quote = 0;
        } else if (s[i] == '\'' || s[i] == '"') {
            quote = s[i];
        } else if (strchr(stops, s[i])) {
            break;
        }
    }
    return i;
}
