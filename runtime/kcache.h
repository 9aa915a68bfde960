/* kcache.h: a content-addressed cache in front of mt_nvrtc_compile.
 *
 * NVRTC takes a few hundred milliseconds per kernel; the dashboard, `bench`
 * and repeated `run`s compile the same generated CUDA over and over. The
 * cache keys each compile by the SHA-256 of everything that decides its
 * output (CUDA source, program name, architecture, default and caller
 * options, NVRTC version, cache format) and keeps the result at two levels:
 *
 *  - memory: a map inside the MtKcache handle, guarded by a mutex so that
 *    one handle can serve many threads (the dashboard's workers), bounded
 *    in bytes with least-recently-used eviction;
 *  - disk: one file per entry in the cache folder, written to a temporary
 *    file in that folder and renamed into place, so concurrent writers
 *    (several processes compiling the same kernel) never expose a partial
 *    entry. Every read verifies magic, format version, key, lengths and the
 *    payload's SHA-256; a corrupt or truncated entry counts as a miss, is
 *    recompiled and overwritten.
 *
 * Folder: the `dir` given to mt_kcache_open, else $MYTRITON_CACHE_DIR, else
 * $XDG_CACHE_HOME/mytriton, else $HOME/.cache/mytriton. MYTRITON_CACHE=0
 * turns both levels off (every call compiles). Compile errors are never
 * cached: the next call reports them afresh from NVRTC.
 */
#ifndef MT_RUNTIME_KCACHE_H
#define MT_RUNTIME_KCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nvrtc_compile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- SHA-256 (FIPS 180-4) ------------------------------------------------ */

typedef struct MtSha256 {
    uint32_t h[8];
    uint64_t nbytes;        /* total bytes hashed so far */
    uint8_t buf[64];        /* pending partial block */
    size_t nbuf;
} MtSha256;

void mt_sha256_init(MtSha256 *s);
void mt_sha256_update(MtSha256 *s, const void *data, size_t n);
void mt_sha256_final(MtSha256 *s, uint8_t digest[32]);
void mt_sha256(const void *data, size_t n, uint8_t digest[32]);
/* Lower-case hex, NUL-terminated (65 bytes). */
void mt_sha256_hex(const uint8_t digest[32], char hex[65]);

/* ---- the cache ----------------------------------------------------------- */

typedef enum MtKcacheHit {
    MT_KCACHE_MISS,     /* compiled now (also every call when the cache is off) */
    MT_KCACHE_MEMORY,   /* found in this handle's map */
    MT_KCACHE_DISK,     /* read from a verified entry file */
} MtKcacheHit;

typedef struct MtKcacheStats {
    uint64_t memory_hits, disk_hits, misses;
    uint64_t corrupt;          /* entry files rejected (bad magic/length/digest) */
    uint64_t disk_writes, disk_write_errors;
    uint64_t evictions;        /* memory entries dropped for the byte limit */
    size_t entries, bytes;     /* what the memory level holds now */
} MtKcacheStats;

typedef struct MtKcache MtKcache;

/* Open a cache using `dir` (NULL: the environment, see above). The folder
 * is created on the first write. Returns NULL only when out of memory. */
MtKcache *mt_kcache_open(const char *dir);
void mt_kcache_close(MtKcache *k);

/* mt_nvrtc_compile through the cache: same arguments and results; *hit
 * (may be NULL) says where the output came from. A failed disk write does
 * not fail the call (the compile succeeded); it is counted, becomes the
 * handle's warning, and the handle stops writing to disk (a read-only or
 * full folder fails every time). */
MtStatus mt_kcache_compile(MtKcache *k, const char *src, const char *name, int sm,
                           const char *const *opts, size_t nopts, MtNvrtcOutput *out,
                           MtKcacheHit *hit, char *err, size_t errlen);

/* The cache in front of any builder of PTX (and a cubin): `key` is the
 * SHA-256 of everything that decides the output (NULL: no caching), `name`
 * names the kernel in messages. On a miss, build(ud, out, err, errlen)
 * makes the output, which is kept when it succeeds. An output without a
 * cubin (cubin_len 0) is PTX for the driver to compile when loading it:
 * the MLIR backend's (runtime/cuda_build.c). */
typedef MtStatus (*MtKcacheBuilder)(void *ud, MtNvrtcOutput *out, char *err, size_t errlen);
MtStatus mt_kcache_build(MtKcache *k, const uint8_t *key, int sm, const char *name, MtKcacheBuilder build, void *ud,
                         MtNvrtcOutput *out, MtKcacheHit *hit, char *err, size_t errlen);

/* The key of a compile, as mt_kcache_compile computes it. */
MtStatus mt_kcache_key(const char *src, const char *name, int sm, const char *const *opts,
                       size_t nopts, uint8_t key[32], char *err, size_t errlen);

/* Path of the entry file for `key`, into buf. Returns false when the disk
 * level is off or buf is too small. */
bool mt_kcache_entry_path(const MtKcache *k, const uint8_t key[32], char *buf, size_t buflen);

/* The folder in use, or NULL when the disk level is off. */
const char *mt_kcache_dir(const MtKcache *k);
/* False when MYTRITON_CACHE=0 turned the cache off. */
bool mt_kcache_enabled(const MtKcache *k);

void mt_kcache_stats(MtKcache *k, MtKcacheStats *out);
/* Bound the memory level (default 256 MiB); evicts at once if over. 0
 * keeps nothing in memory. */
void mt_kcache_set_memory_limit(MtKcache *k, size_t bytes);
/* Copy the warning about the first failed disk write into buf (a
 * sentence for the user: what failed, that every compile is now cold,
 * what to do); false when every write succeeded. Tools print it once. */
bool mt_kcache_warning(MtKcache *k, char *buf, size_t buflen);

#ifdef __cplusplus
}
#endif

#endif
