/* cubin_info.c: registers, shared memory and stack frame of a kernel, read
 * from its cubin (cubin_info.h).
 *
 * A cubin is a little-endian ELF64. Its .nv.info section holds attributes
 * about every function, its .nv.info.<kernel> section attributes about one
 * kernel; each attribute is a format byte, an attribute byte and a value:
 *   EIFMT_NVAL (1)  no value (two padding bytes)
 *   EIFMT_BVAL (2)  one byte (then a padding byte)
 *   EIFMT_HVAL (3)  a 16-bit value
 *   EIFMT_SVAL (4)  a 16-bit size, then that many bytes
 * The attributes read here are SVAL ones: EIATTR_REGCOUNT (0x2f) and
 * EIATTR_FRAME_SIZE (0x11) in .nv.info, each {u32 function symbol, u32
 * value}; EIATTR_MAX_THREADS (0x05) in .nv.info.<kernel>, {u32 x, y, z}.
 * Static shared memory is the size of the section .nv.shared.<kernel>,
 * less the system's reserved shared memory where the cubin places it in
 * that section: from sm_90, ptxas puts it at the section's start (the
 * symbol .nv.reservedSmem.offset0 marks it) and reports only the kernel's
 * own bytes, as `ptxas -v` and the occupancy rules count them; its size is
 * the 1 KiB per block every GPU from sm_80 reserves
 * (CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK). */
#include "cubin_info.h"

#include <stdint.h>
#include <string.h>

enum {
    EIFMT_NVAL = 1,
    EIFMT_BVAL = 2,
    EIFMT_HVAL = 3,
    EIFMT_SVAL = 4,
    EIATTR_MAX_THREADS = 0x05,
    EIATTR_FRAME_SIZE = 0x11,
    EIATTR_REGCOUNT = 0x2f,
    SHT_SYMTAB = 2,
    RESERVED_SMEM = 1024,
};

typedef struct Elf {
    const uint8_t *b;
    size_t len;
    uint64_t shoff;
    uint16_t shentsize, shnum, shstrndx;
} Elf;

typedef struct Section {
    const char *name;
    uint32_t type, link;
    uint64_t off, size;
} Section;

static uint16_t u16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t u64(const uint8_t *p) { return u32(p) | (uint64_t)u32(p + 4) << 32; }

static bool fits(const Elf *e, uint64_t off, uint64_t n) { return off <= e->len && n <= e->len - off; }

/* The NUL-terminated string at off of the string table at [base, base + size). */
static const char *string_at(const Elf *e, uint64_t base, uint64_t size, uint64_t off)
{
    if (off >= size || !fits(e, base, size))
        return NULL;
    const char *s = (const char *)e->b + base + off;
    return memchr(s, 0, size - off) ? s : NULL;
}

static bool section(const Elf *e, uint16_t i, Section *out)
{
    uint64_t at = e->shoff + (uint64_t)i * e->shentsize;
    if (i >= e->shnum || !fits(e, at, 64))
        return false;
    const uint8_t *h = e->b + at;
    out->type = u32(h + 4);
    out->off = u64(h + 0x18);
    out->size = u64(h + 0x20);
    out->link = u32(h + 0x28);
    Section strs;
    uint64_t sat = e->shoff + (uint64_t)e->shstrndx * e->shentsize;
    if (e->shstrndx >= e->shnum || !fits(e, sat, 64))
        return false;
    strs.off = u64(e->b + sat + 0x18);
    strs.size = u64(e->b + sat + 0x20);
    out->name = string_at(e, strs.off, strs.size, u32(h));
    return out->name != NULL;
}

static bool find_section(const Elf *e, const char *prefix, const char *name, Section *out)
{
    size_t n = strlen(prefix);
    for (uint16_t i = 0; i < e->shnum; i++)
        if (section(e, i, out) && !strncmp(out->name, prefix, n) && !strcmp(out->name + n, name))
            return true;
    return false;
}

/* The index of symbol `name` in the symbol table, or -1. */
static int64_t symbol(const Elf *e, const char *name)
{
    Section st, strs;
    for (uint16_t i = 0; i < e->shnum; i++) {
        if (!section(e, i, &st) || st.type != SHT_SYMTAB || !fits(e, st.off, st.size) ||
            !section(e, (uint16_t)st.link, &strs))
            continue;
        for (uint64_t k = 0; k < st.size / 24; k++) {
            const char *s = string_at(e, strs.off, strs.size, u32(e->b + st.off + k * 24));
            if (s && !strcmp(s, name))
                return (int64_t)k;
        }
    }
    return -1;
}

/* The value of SVAL attribute `attr` in section s: for a per-function
 * attribute ({u32 symbol, u32 value}) the one of symbol `sym`, else (sym
 * < 0) its first `n` words into v. */
static bool attribute(const Elf *e, const Section *s, uint8_t attr, int64_t sym, uint32_t *v, int n)
{
    if (!fits(e, s->off, s->size))
        return false;
    const uint8_t *p = e->b + s->off, *end = p + s->size;
    while (end - p >= 2) {
        uint8_t fmt = p[0], a = p[1];
        if ((fmt != EIFMT_NVAL && fmt != EIFMT_BVAL && fmt != EIFMT_HVAL && fmt != EIFMT_SVAL) || end - p < 4)
            return false;
        uint16_t size = fmt == EIFMT_SVAL ? u16(p + 2) : 0;
        const uint8_t *val = p + 4;
        if (end - val < size)
            return false;
        if (fmt == EIFMT_SVAL && a == attr) {
            if (sym >= 0 && size >= 8 && u32(val) == (uint64_t)sym) {
                *v = u32(val + 4);
                return true;
            }
            if (sym < 0 && size >= 4 * n) {
                for (int i = 0; i < n; i++)
                    v[i] = u32(val + 4 * i);
                return true;
            }
        }
        p = val + size;
    }
    return false;
}

bool mt_cubin_resources(const void *image, size_t len, const char *name, MtCubinResources *out)
{
    memset(out, 0, sizeof *out);
    const uint8_t *b = image;
    if (!image || len < 64 || memcmp(b, "\x7f" "ELF", 4) || b[4] != 2 || b[5] != 1)
        return false;
    Elf e = {b, len, u64(b + 0x28), u16(b + 0x3a), u16(b + 0x3c), u16(b + 0x3e)};
    if (e.shentsize < 64)
        return false;
    int64_t sym = symbol(&e, name);
    Section info, s;
    uint32_t v, threads[3];
    if (sym < 0 || !find_section(&e, ".nv.info", "", &info) || !attribute(&e, &info, EIATTR_REGCOUNT, sym, &v, 1))
        return false;
    out->registers = (int)v;
    if (attribute(&e, &info, EIATTR_FRAME_SIZE, sym, &v, 1))
        out->local_bytes = (int)v;
    if (find_section(&e, ".nv.shared.", name, &s)) {
        uint64_t reserved = symbol(&e, ".nv.reservedSmem.offset0") >= 0 && s.size >= RESERVED_SMEM ? RESERVED_SMEM : 0;
        out->shared_bytes = (int)(s.size - reserved);
    }
    if (find_section(&e, ".nv.info.", name, &s) && attribute(&e, &s, EIATTR_MAX_THREADS, -1, threads, 3))
        out->max_threads_per_block = (int)(threads[0] * threads[1] * threads[2]);
    return true;
}
