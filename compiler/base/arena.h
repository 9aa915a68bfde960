/* arena.h: region allocation for one compilation.
 *
 * Every token, AST node, type, expression node, SSA value, string and
 * diagnostic of a compilation lives in the context's arena and dies with it
 * in one call (QBE's per-function pool). Allocations are zeroed and 16-byte
 * aligned. When the caller's allocator fails, the arena longjmps to the
 * context's protected call (see ctx.h), so callers never check for NULL.
 */
#ifndef MT_ARENA_H
#define MT_ARENA_H

#include <stddef.h>

#include "mytriton/mytriton.h"

typedef struct MtChunk MtChunk;

typedef struct MtArena {
    MtChunk *head;            /* newest chunk first */
    MtChunk *spare;           /* chunks kept by mt_arena_reset for reuse */
    size_t spare_bytes;
    const MtAlloc *alloc;
    void (*oom)(void *ud);    /* called when an allocation fails; must not return */
    void *oom_ud;
    size_t total;             /* bytes obtained from the allocator */
} MtArena;

void mt_arena_init(MtArena *ar, const MtAlloc *alloc, void (*oom)(void *), void *oom_ud);
void *mt_arena_alloc(MtArena *ar, size_t n);
/* Grow an arena array: returns a new block of new_n elements holding the
 * first old_n of `p` (the old block is simply left behind). */
void *mt_arena_grow(MtArena *ar, void *p, size_t old_n, size_t new_n, size_t elem);
char *mt_arena_strdup(MtArena *ar, const char *s);
char *mt_arena_strndup(MtArena *ar, const char *s, size_t n);
/* Drop everything allocated; up to MT_ARENA_KEEP bytes of chunks are kept
 * for the next compilation (the LSP recompiles on every keystroke: no
 * malloc or page faults in the steady state). */
void mt_arena_reset(MtArena *ar);
enum { MT_ARENA_KEEP = 8 << 20 };
void mt_arena_free(MtArena *ar);

/* Growable arena array: `T *v; uint32_t n, cap;`. */
#define MT_VEC(T) struct { T *v; uint32_t n, cap; }
#define mt_vec_push(ar, vec, x)                                                  \
    do {                                                                         \
        if ((vec)->n == (vec)->cap) {                                            \
            uint32_t nc_ = (vec)->cap ? (vec)->cap * 2 : 8;                     \
            (vec)->v = mt_arena_grow((ar), (vec)->v, (vec)->n, nc_, sizeof *(vec)->v); \
            (vec)->cap = nc_;                                                    \
        }                                                                        \
        (vec)->v[(vec)->n++] = (x);                                              \
    } while (0)

#endif
