/* debug.c: tl.device_print and tl.device_assert on the interpreter.
 *
 * device_print writes Triton's lines (its PrintOp lowering's format):
 *     pid (<x>, <y>, <z>) idx (<i1>, <i2>, ...)<prefix>(operand <n>) <value>
 * one per element in row-major order, indices padded to the width of the
 * largest index of their dimension, "(operand n)" only when the print has
 * several operands, floats as %f, integers signed or not by their type
 * (hex=True: 0x and the bits, padded to the type's hex digits). The
 * frontend has already shaped the prefix as Triton does (" x: "). Lines go
 * to the thread's PrintOut, tagged with the program, and reach the caller
 * in program order after the launch (exec.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "types/half.h"

static bool grow(PrintOut *o, size_t more)
{
    if (o->len + more <= o->cap)
        return true;
    size_t cap = o->cap ? o->cap : 4096;
    while (cap < o->len + more)
        cap *= 2;
    char *t = realloc(o->text, cap);
    if (!t)
        return false;
    o->text = t;
    o->cap = cap;
    return true;
}

/* Start program x->program's part if the last part is another program's. */
static bool begin_program(Exec *x)
{
    PrintOut *o = x->out;
    if (o->nchunks && o->chunks[o->nchunks - 1].program == x->program)
        return true;
    if (o->nchunks == o->capchunks) {
        size_t cap = o->capchunks ? 2 * o->capchunks : 64;
        PrintChunk *c = realloc(o->chunks, cap * sizeof *c);
        if (!c)
            return false;
        o->chunks = c;
        o->capchunks = cap;
    }
    o->chunks[o->nchunks++] = (PrintChunk){x->program, o->len};
    return true;
}

static int digits(int64_t n)
{
    int d = 1;
    while (n >= 10) {
        n /= 10;
        d++;
    }
    return d;
}

/* The element at p of kind ek as printf would: %f, %i / %u (%lli / %llu), or hex. */
static int format_value(char *buf, size_t n, const char *p, uint8_t ek, bool hex)
{
    const MtType *t = mt_ty_scalar((MtDtype)ek);
    size_t es = mt_interp_esize(ek);
    if (hex) {
        uint64_t bits = 0;
        memcpy(&bits, p, es); /* little-endian: the low bytes */
        return snprintf(buf, n, "0x%0*" PRIx64, (int)(es * 2), bits);
    }
    if (mt_ty_is_float(t))
        return snprintf(buf, n, "%f", mt_dtype_get((MtDtype)ek, p, 0));
    if (ek == MT_DT_U64) {
        uint64_t v;
        memcpy(&v, p, 8);
        return snprintf(buf, n, "%" PRIu64, v);
    }
    if (ek == MT_DT_I64) {
        int64_t v;
        memcpy(&v, p, 8);
        return snprintf(buf, n, "%" PRId64, v);
    }
    return snprintf(buf, n, "%" PRId64, (int64_t)mt_dtype_get((MtDtype)ek, p, 0));
}

void mt_interp_print(Exec *x, const Step *s)
{
    PrintOut *o = x->out;
    if (!o || o->truncated)
        return;
    int rank = s->u.print.rank;
    int width[MT_MAX_RANK];
    int64_t numel = 1;
    for (int d = 0; d < rank; d++) {
        width[d] = digits(s->u.print.shape[d] - 1);
        numel *= s->u.print.shape[d];
    }
    size_t es = mt_interp_esize(s->u.print.ek);
    const char *base = x->mem + s->a[0];
    char line[512];
    for (int64_t i = 0; i < numel; i++) {
        int at = snprintf(line, sizeof line, "pid (%d, %d, %d) idx (", x->pid[0], x->pid[1], x->pid[2]);
        int64_t rest = i, stride = numel;
        for (int d = 0; d < rank; d++) {
            stride /= s->u.print.shape[d];
            at += snprintf(line + at, sizeof line - (size_t)at, "%s%*" PRId64, d ? ", " : "", width[d], rest / stride);
            rest %= stride;
        }
        at += snprintf(line + at, sizeof line - (size_t)at, ")%s", s->u.print.text);
        if (s->u.print.noperands > 1)
            at += snprintf(line + at, sizeof line - (size_t)at, "(operand %u) ", s->u.print.operand);
        char value[64];
        format_value(value, sizeof value, base + (size_t)i * es, s->u.print.ek, s->u.print.hex);
        size_t head = (size_t)at < sizeof line ? (size_t)at : sizeof line - 1;
        size_t vlen = strlen(value);
        if (o->len + head + vlen + 1 > MT_INTERP_PRINT_LIMIT) {
            o->truncated = true;
            return;
        }
        if (!begin_program(x) || !grow(o, head + vlen + 1)) {
            o->truncated = true;
            return;
        }
        memcpy(o->text + o->len, line, head);
        memcpy(o->text + o->len + head, value, vlen);
        o->len += head + vlen;
        o->text[o->len++] = '\n';
    }
}

int64_t mt_interp_assert(const Exec *x, const Step *s)
{
    size_t es = mt_interp_esize(s->u.print.ek);
    const char *cond = x->mem + s->a[0];
    const uint8_t *mask = s->a[1] != NO_OFF ? (const uint8_t *)(x->mem + s->a[1]) : NULL;
    for (uint32_t i = 0; i < s->n; i++) {
        if (mask && !mask[i])
            continue;
        uint64_t bits = 0;
        memcpy(&bits, cond + (size_t)i * es, es);
        if (!bits)
            return i;
    }
    return -1;
}
