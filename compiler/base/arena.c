/* arena.c: chunked bump allocator. Large requests get a chunk of their own
 * so the common small allocation stays a pointer bump. */
#include "arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK_SIZE = 64 * 1024, ALIGN = 16 };

struct MtChunk {
    MtChunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

static void *sys_realloc(const MtAlloc *a, void *p, size_t old, size_t n)
{
    if (a && a->realloc)
        return a->realloc(a->ud, p, old, n);
    if (n == 0) {
        free(p);
        return NULL;
    }
    return realloc(p, n);
}

void mt_arena_init(MtArena *ar, const MtAlloc *alloc, void (*oom)(void *), void *oom_ud)
{
    memset(ar, 0, sizeof *ar);
    ar->alloc = alloc;
    ar->oom = oom;
    ar->oom_ud = oom_ud;
}

static MtChunk *new_chunk(MtArena *ar, size_t min)
{
    for (MtChunk **pp = &ar->spare; *pp; pp = &(*pp)->next)
        if ((*pp)->cap >= min) {
            MtChunk *ch = *pp;
            *pp = ch->next;
            ar->spare_bytes -= sizeof *ch + ch->cap;
            ch->used = 0;
            return ch;
        }
    size_t cap = min > CHUNK_SIZE ? min : CHUNK_SIZE;
    MtChunk *ch = sys_realloc(ar->alloc, NULL, 0, sizeof *ch + cap);
    if (!ch) {
        if (ar->oom)
            ar->oom(ar->oom_ud);
        abort(); /* unreachable: oom() longjmps */
    }
    ch->used = 0;
    ch->cap = cap;
    ar->total += sizeof *ch + cap;
    return ch;
}

void *mt_arena_alloc(MtArena *ar, size_t n)
{
    n = (n + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (n == 0)
        n = ALIGN;
    MtChunk *ch = ar->head;
    if (!ch || ch->cap - ch->used < n) {
        if (n > CHUNK_SIZE / 4 && ch) {
            /* A big block gets its own chunk, linked behind the head so the
             * head's free space is not wasted. */
            MtChunk *big = new_chunk(ar, n);
            big->next = ch->next;
            ch->next = big;
            big->used = n;
            memset(big->data, 0, n);
            return big->data;
        }
        ch = new_chunk(ar, n);
        ch->next = ar->head;
        ar->head = ch;
    }
    void *p = ch->data + ch->used;
    ch->used += n;
    memset(p, 0, n);
    return p;
}

void *mt_arena_grow(MtArena *ar, void *p, size_t old_n, size_t new_n, size_t elem)
{
    void *q = mt_arena_alloc(ar, new_n * elem);
    if (p && old_n)
        memcpy(q, p, (old_n < new_n ? old_n : new_n) * elem);
    return q;
}

char *mt_arena_strndup(MtArena *ar, const char *s, size_t n)
{
    char *d = mt_arena_alloc(ar, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

char *mt_arena_strdup(MtArena *ar, const char *s)
{
    return mt_arena_strndup(ar, s, strlen(s));
}

void mt_arena_reset(MtArena *ar)
{
    for (MtChunk *ch = ar->head; ch;) {
        MtChunk *next = ch->next;
        if (ar->spare_bytes + sizeof *ch + ch->cap <= MT_ARENA_KEEP) {
            ch->next = ar->spare;
            ar->spare = ch;
            ar->spare_bytes += sizeof *ch + ch->cap;
        } else {
            ar->total -= sizeof *ch + ch->cap;
            sys_realloc(ar->alloc, ch, sizeof *ch + ch->cap, 0);
        }
        ch = next;
    }
    ar->head = NULL;
}

static void free_list(MtArena *ar, MtChunk *ch)
{
    while (ch) {
        MtChunk *next = ch->next;
        sys_realloc(ar->alloc, ch, sizeof *ch + ch->cap, 0);
        ch = next;
    }
}

void mt_arena_free(MtArena *ar)
{
    free_list(ar, ar->head);
    free_list(ar, ar->spare);
    ar->head = ar->spare = NULL;
    ar->spare_bytes = ar->total = 0;
}
