/* kcache.c: SHA-256, the compile key, the in-memory LRU map and the entry
 * files of the compile cache (see kcache.h for the contract).
 *
 * Entry file, format 1, all integers little-endian:
 *
 *   offset  size  field
 *        0     8  magic "MTKCACHE"
 *        8     4  format version (1)
 *       12     4  sm
 *       16    32  key (must equal the key the file is named after)
 *       48     8  PTX length      (bytes, no NUL)
 *       56     8  cubin length
 *       64     8  log length      (the NVRTC warnings, shown again on a hit)
 *       72    32  SHA-256 of the payload
 *      104     -  payload: PTX, cubin, log
 *
 * A file is valid only if its size is exactly 104 + the three lengths and
 * every field checks out; anything else (a torn write after a crash, a
 * truncated copy, a flipped bit) reads as a miss: a crash can leave a bad
 * file, never a wrong result. Entries are written through fileio.h's
 * MtOut (temporary file, fsync, rename); a folder that cannot be written
 * (read-only, full) turns the disk level read-only for the handle, with
 * one warning.
 *
 * Locking: one mutex guards the map and the counters. NVRTC and file I/O run
 * outside it, so a slow compile never blocks memory hits on other threads;
 * two threads missing on the same key both compile, and the second insert
 * finds the first and drops its copy.
 */
#include "kcache.h"
#include "errbuf.h"
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- SHA-256 ------------------------------------------------------------- */

static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void sha_block(uint32_t h[8], const uint8_t p[64])
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i];
        uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

void mt_sha256_init(MtSha256 *s)
{
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, h0, sizeof h0);
    s->nbytes = 0;
    s->nbuf = 0;
}

void mt_sha256_update(MtSha256 *s, const void *data, size_t n)
{
    const uint8_t *p = data;
    if (!n)   /* nothing (data may be NULL: an entry without a cubin) */
        return;
    s->nbytes += n;
    if (s->nbuf) {
        size_t take = 64 - s->nbuf < n ? 64 - s->nbuf : n;
        memcpy(s->buf + s->nbuf, p, take);
        s->nbuf += take;
        p += take;
        n -= take;
        if (s->nbuf < 64)
            return;
        sha_block(s->h, s->buf);
        s->nbuf = 0;
    }
    for (; n >= 64; p += 64, n -= 64)
        sha_block(s->h, p);
    memcpy(s->buf, p, n);
    s->nbuf = n;
}

void mt_sha256_final(MtSha256 *s, uint8_t digest[32])
{
    uint64_t bits = s->nbytes * 8;
    uint8_t pad[72] = {0x80};
    /* Pad to 56 mod 64, then the 64-bit big-endian bit length. */
    size_t npad = (s->nbuf < 56 ? 56 : 120) - s->nbuf;
    for (int i = 0; i < 8; i++)
        pad[npad + (size_t)i] = (uint8_t)(bits >> (56 - 8 * i));
    uint64_t keep = s->nbytes;
    mt_sha256_update(s, pad, npad + 8);
    s->nbytes = keep;
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(s->h[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
        digest[4 * i + 3] = (uint8_t)s->h[i];
    }
}

void mt_sha256(const void *data, size_t n, uint8_t digest[32])
{
    MtSha256 s;
    mt_sha256_init(&s);
    mt_sha256_update(&s, data, n);
    mt_sha256_final(&s, digest);
}

void mt_sha256_hex(const uint8_t digest[32], char hex[65])
{
    static const char xd[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        hex[2 * i] = xd[digest[i] >> 4];
        hex[2 * i + 1] = xd[digest[i] & 15];
    }
    hex[64] = '\0';
}

/* ---- the key --------------------------------------------------------------- */

enum { FORMAT_VERSION = 1, HEADER_SIZE = 104 };
static const char MAGIC[8] = {'M', 'T', 'K', 'C', 'A', 'C', 'H', 'E'};
/* Bounds what a read will allocate for a (possibly hostile) entry file. */
static const uint64_t MAX_PAYLOAD = (uint64_t)1 << 30;
static const size_t DEFAULT_MEMORY_LIMIT = (size_t)256 << 20;

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* Fields are length-prefixed so that ("-DA", "B") and ("-DAB") differ. */
static void hash_field(MtSha256 *s, const char *str)
{
    uint8_t len[8];
    size_t n = strlen(str);
    put_u64(len, n);
    mt_sha256_update(s, len, 8);
    mt_sha256_update(s, str, n);
}

static void hash_u32(MtSha256 *s, uint32_t v)
{
    uint8_t b[4];
    put_u32(b, v);
    mt_sha256_update(s, b, 4);
}

static const char *effective_name(const char *name)
{
    /* The name mt_nvrtc_compile will use: it appears in the PTX's .file
     * directives, so it is part of the key. */
    return name && *name ? name : "kernel.cu";
}

MtStatus mt_kcache_key(const char *src, const char *name, int sm, const char *const *opts,
                       size_t nopts, uint8_t key[32], char *err, size_t errlen)
{
    if (!src || (nopts && !opts)) {
        mt_errf(err, errlen, "mt_kcache_key(%s): no source or no option array", effective_name(name));
        return MT_ERR_USAGE;
    }
    for (size_t i = 0; i < nopts; i++) {
        if (!opts[i]) {
            mt_errf(err, errlen, "mt_kcache_key(%s): option %zu is NULL", effective_name(name), i);
            return MT_ERR_USAGE;
        }
    }
    int major = 0, minor = 0;
    if (mt_nvrtc_version(&major, &minor) != MT_OK) {
        mt_errf(err, errlen, "nvrtcVersion(%s): failed", effective_name(name));
        return MT_ERR_CUDA;
    }
    MtSha256 s;
    mt_sha256_init(&s);
    hash_field(&s, "mytriton-kcache");
    hash_u32(&s, FORMAT_VERSION);
    hash_field(&s, src);
    hash_field(&s, effective_name(name));
    hash_u32(&s, (uint32_t)sm);
    hash_u32(&s, (uint32_t)mt_nvrtc_ndefault_opts);
    for (size_t i = 0; i < mt_nvrtc_ndefault_opts; i++)
        hash_field(&s, mt_nvrtc_default_opts[i]);
    hash_u32(&s, (uint32_t)nopts);
    for (size_t i = 0; i < nopts; i++)
        hash_field(&s, opts[i]);
    hash_u32(&s, (uint32_t)major);
    hash_u32(&s, (uint32_t)minor);
    mt_sha256_final(&s, key);
    return MT_OK;
}

/* ---- the handle and its memory level ----------------------------------- */

typedef struct Entry Entry;
struct Entry {
    uint8_t key[32];
    MtNvrtcOutput out;
    size_t bytes;
    Entry *chain;               /* next in the bucket */
    Entry *newer, *older;       /* LRU list; k->newest is the head */
};

enum { NBUCKETS = 256 };        /* indexed by key[0]: SHA-256 bytes are uniform */

struct MtKcache {
    pthread_mutex_t mu;
    bool enabled;               /* false under MYTRITON_CACHE=0 */
    char *dir;                  /* NULL: no disk level */
    Entry *buckets[NBUCKETS];
    Entry *newest, *oldest;
    size_t limit;
    MtKcacheStats st;
    bool write_failed;          /* a disk write failed: the disk level only reads from now on */
    bool swept;                 /* stale temporary files were looked for */
    char warning[1024];
};

static bool env_off(const char *v)
{
    return v && (strcmp(v, "0") == 0 || strcasecmp(v, "off") == 0 ||
                 strcasecmp(v, "false") == 0 || strcasecmp(v, "no") == 0);
}

static char *join(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *p = malloc(na + nb + 2);
    if (p) {
        memcpy(p, a, na);
        p[na] = '/';
        memcpy(p + na + 1, b, nb + 1);
    }
    return p;
}

MtKcache *mt_kcache_open(const char *dir)
{
    MtKcache *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    pthread_mutex_init(&k->mu, NULL);
    k->limit = DEFAULT_MEMORY_LIMIT;
    k->enabled = !env_off(getenv("MYTRITON_CACHE"));
    if (!k->enabled)
        return k;
    const char *env;
    if (dir && *dir)
        k->dir = strdup(dir);
    else if ((env = getenv("MYTRITON_CACHE_DIR")) && *env)
        k->dir = strdup(env);
    else if ((env = getenv("XDG_CACHE_HOME")) && *env)
        k->dir = join(env, "mytriton");
    else if ((env = getenv("HOME")) && *env)
        k->dir = join(env, ".cache/mytriton");
    else
        return k;               /* nowhere to write: memory level only */
    if (!k->dir) {
        mt_kcache_close(k);
        return NULL;
    }
    return k;
}

static void free_entry(Entry *e)
{
    mt_nvrtc_output_free(&e->out);
    free(e);
}

void mt_kcache_close(MtKcache *k)
{
    if (!k)
        return;
    for (Entry *e = k->newest, *next; e; e = next) {
        next = e->older;
        free_entry(e);
    }
    pthread_mutex_destroy(&k->mu);
    free(k->dir);
    free(k);
}

const char *mt_kcache_dir(const MtKcache *k) { return k ? k->dir : NULL; }
bool mt_kcache_enabled(const MtKcache *k) { return k && k->enabled; }

void mt_kcache_stats(MtKcache *k, MtKcacheStats *out)
{
    pthread_mutex_lock(&k->mu);
    *out = k->st;
    pthread_mutex_unlock(&k->mu);
}

bool mt_kcache_warning(MtKcache *k, char *buf, size_t buflen)
{
    pthread_mutex_lock(&k->mu);
    bool any = k->warning[0] != '\0';
    if (buf && buflen)
        snprintf(buf, buflen, "%s", k->warning);
    pthread_mutex_unlock(&k->mu);
    return any;
}

static void lru_unlink(MtKcache *k, Entry *e)
{
    if (e->newer)
        e->newer->older = e->older;
    else
        k->newest = e->older;
    if (e->older)
        e->older->newer = e->newer;
    else
        k->oldest = e->newer;
    e->newer = e->older = NULL;
}

static void lru_push(MtKcache *k, Entry *e)
{
    e->newer = NULL;
    e->older = k->newest;
    if (k->newest)
        k->newest->newer = e;
    k->newest = e;
    if (!k->oldest)
        k->oldest = e;
}

static Entry *find(MtKcache *k, const uint8_t key[32])
{
    for (Entry *e = k->buckets[key[0]]; e; e = e->chain)
        if (memcmp(e->key, key, 32) == 0)
            return e;
    return NULL;
}

/* Drop oldest entries until the memory level fits its limit. mu held. */
static void evict(MtKcache *k)
{
    while (k->st.bytes > k->limit && k->oldest) {
        Entry *e = k->oldest;
        lru_unlink(k, e);
        Entry **pp = &k->buckets[e->key[0]];
        while (*pp != e)
            pp = &(*pp)->chain;
        *pp = e->chain;
        k->st.bytes -= e->bytes;
        k->st.entries--;
        k->st.evictions++;
        free_entry(e);
    }
}

void mt_kcache_set_memory_limit(MtKcache *k, size_t bytes)
{
    pthread_mutex_lock(&k->mu);
    k->limit = bytes;
    evict(k);
    pthread_mutex_unlock(&k->mu);
}

static MtStatus copy_output(MtNvrtcOutput *dst, const MtNvrtcOutput *src)
{
    memset(dst, 0, sizeof *dst);
    dst->ptx = malloc(src->ptx_len + 1);
    dst->cubin = malloc(src->cubin_len ? src->cubin_len : 1);
    dst->log = malloc(src->log_len + 1);
    if (!dst->ptx || !dst->cubin || !dst->log) {
        mt_nvrtc_output_free(dst);
        return MT_ERR_NOMEM;
    }
    memcpy(dst->ptx, src->ptx, src->ptx_len);
    dst->ptx[src->ptx_len] = '\0';
    if (src->cubin_len)
        memcpy(dst->cubin, src->cubin, src->cubin_len);
    memcpy(dst->log, src->log ? src->log : "", src->log_len);
    dst->log[src->log_len] = '\0';
    dst->ptx_len = src->ptx_len;
    dst->cubin_len = src->cubin_len;
    dst->log_len = src->log_len;
    dst->sm = src->sm;
    return MT_OK;
}

/* Keep a copy of `out` in memory. Out of memory here only costs a future
 * hit, so it is not an error. */
static void remember(MtKcache *k, const uint8_t key[32], const MtNvrtcOutput *out)
{
    size_t bytes = sizeof(Entry) + out->ptx_len + out->cubin_len + out->log_len;
    if (bytes > k->limit)
        return;
    Entry *e = calloc(1, sizeof *e);
    if (!e || copy_output(&e->out, out) != MT_OK) {
        free(e);
        return;
    }
    memcpy(e->key, key, 32);
    e->bytes = bytes;
    pthread_mutex_lock(&k->mu);
    if (find(k, key)) {
        pthread_mutex_unlock(&k->mu);   /* another thread was first */
        free_entry(e);
        return;
    }
    e->chain = k->buckets[key[0]];
    k->buckets[key[0]] = e;
    lru_push(k, e);
    k->st.bytes += bytes;
    k->st.entries++;
    evict(k);
    pthread_mutex_unlock(&k->mu);
}

/* ---- the disk level ---------------------------------------------------------- */

bool mt_kcache_entry_path(const MtKcache *k, const uint8_t key[32], char *buf, size_t buflen)
{
    if (!k || !k->dir)
        return false;
    char hex[65];
    mt_sha256_hex(key, hex);
    int n = snprintf(buf, buflen, "%s/%s.kc", k->dir, hex);
    return n > 0 && (size_t)n < buflen;
}

typedef enum { ENTRY_OK, ENTRY_ABSENT, ENTRY_CORRUPT, ENTRY_NOMEM } EntryRead;

static bool read_all(int fd, void *buf, size_t n)
{
    uint8_t *p = buf;
    while (n) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        p += r;
        n -= (size_t)r;
    }
    return true;
}

static EntryRead read_entry(const char *path, const uint8_t key[32], int sm, MtNvrtcOutput *out)
{
    memset(out, 0, sizeof *out);
    /* A folder, a FIFO or an oversized file where an entry belongs is a
     * corrupt entry: refused without reading (a FIFO would block), then
     * replaced by the rename of the fresh one. */
    int fd;
    uint64_t size;
    if (mt_file_open(path, MT_FILE_CACHE, &fd, &size, NULL, 0) != MT_OK)
        return access(path, F_OK) != 0 && errno == ENOENT ? ENTRY_ABSENT : ENTRY_CORRUPT;
    uint8_t h[HEADER_SIZE];
    EntryRead res = ENTRY_CORRUPT;
    uint8_t *payload = NULL;
    if (size < HEADER_SIZE || !read_all(fd, h, HEADER_SIZE))
        goto done;
    if (memcmp(h, MAGIC, 8) != 0 || get_u32(h + 8) != FORMAT_VERSION ||
        get_u32(h + 12) != (uint32_t)sm || memcmp(h + 16, key, 32) != 0)
        goto done;
    uint64_t nptx = get_u64(h + 48), ncubin = get_u64(h + 56), nlog = get_u64(h + 64);
    /* no cubin: PTX that the driver compiles when it loads it (the MLIR backend's) */
    if (nptx > MAX_PAYLOAD || ncubin > MAX_PAYLOAD || nlog > MAX_PAYLOAD || nptx == 0 ||
        size != HEADER_SIZE + nptx + ncubin + nlog)
        goto done;
    size_t n = (size_t)(nptx + ncubin + nlog);
    payload = malloc(n);
    if (!payload) {
        res = ENTRY_NOMEM;
        goto done;
    }
    if (!read_all(fd, payload, n))
        goto done;
    uint8_t digest[32];
    mt_sha256(payload, n, digest);
    if (memcmp(digest, h + 72, 32) != 0)
        goto done;
    MtNvrtcOutput view = {
        .ptx = (char *)payload, .ptx_len = (size_t)nptx,
        .cubin = payload + nptx, .cubin_len = (size_t)ncubin,
        .log = (char *)payload + nptx + ncubin, .log_len = (size_t)nlog,
        .sm = sm,
    };
    res = copy_output(out, &view) == MT_OK ? ENTRY_OK : ENTRY_NOMEM;
done:
    free(payload);
    close(fd);
    return res;
}

/* Write the entry through fileio's MtOut: a temporary file beside its
 * final name, renamed into place, so readers see the old file or the new
 * one, and of concurrent writers of the same key the last rename wins
 * with a complete file. The first write of a handle also removes stale
 * temporary files that killed writers left in the folder. */
static MtStatus write_entry(MtKcache *k, const char *path, const uint8_t key[32], const MtNvrtcOutput *out,
                            char *err, size_t errlen)
{
    /* Folders private to the user: their cubins are loaded into the GPU unchecked. */
    MtStatus st = mt_make_dirs(k->dir, 0700, err, errlen);
    if (st)
        return st;
    if (!k->swept) {
        k->swept = true;
        mt_tmp_sweep(k->dir);
    }
    uint8_t h[HEADER_SIZE] = {0};
    memcpy(h, MAGIC, 8);
    put_u32(h + 8, FORMAT_VERSION);
    put_u32(h + 12, (uint32_t)out->sm);
    memcpy(h + 16, key, 32);
    put_u64(h + 48, out->ptx_len);
    put_u64(h + 56, out->cubin_len);
    put_u64(h + 64, out->log_len);
    MtSha256 s;
    mt_sha256_init(&s);
    mt_sha256_update(&s, out->ptx, out->ptx_len);
    mt_sha256_update(&s, out->cubin, out->cubin_len);
    mt_sha256_update(&s, out->log ? out->log : "", out->log_len);
    mt_sha256_final(&s, h + 72);
    MtOut o;
    if ((st = mt_out_open_private(&o, path, err, errlen)))
        return st;
    mt_out_write(&o, h, HEADER_SIZE);
    mt_out_write(&o, out->ptx, out->ptx_len);
    mt_out_write(&o, out->cubin, out->cubin_len);
    mt_out_write(&o, out->log ? out->log : "", out->log_len);
    return mt_out_close(&o, err, errlen);
}

/* ---- compile through the cache ------------------------------------------------ */

typedef struct Nvrtc {
    const char *src, *name;
    int sm;
    const char *const *opts;
    size_t nopts;
} Nvrtc;

static MtStatus nvrtc_build(void *ud, MtNvrtcOutput *out, char *err, size_t errlen)
{
    const Nvrtc *n = ud;
    return mt_nvrtc_compile(n->src, n->name, n->sm, n->opts, n->nopts, out, err, errlen);
}

MtStatus mt_kcache_compile(MtKcache *k, const char *src, const char *name, int sm,
                           const char *const *opts, size_t nopts, MtNvrtcOutput *out,
                           MtKcacheHit *hit, char *err, size_t errlen)
{
    Nvrtc n = {src, name, sm, opts, nopts};
    uint8_t key[32];
    /* With arguments that cannot be keyed, NVRTC decides (and reports bad
     * arguments itself). */
    bool keyed = mt_kcache_key(src, name, sm, opts, nopts, key, NULL, 0) == MT_OK;
    return mt_kcache_build(k, keyed ? key : NULL, sm, effective_name(name), nvrtc_build, &n, out, hit, err, errlen);
}

MtStatus mt_kcache_build(MtKcache *k, const uint8_t *key, int sm, const char *name, MtKcacheBuilder build, void *ud,
                         MtNvrtcOutput *out, MtKcacheHit *hit, char *err, size_t errlen)
{
    if (hit)
        *hit = MT_KCACHE_MISS;
    /* Without a handle, with the cache off, or without a key, build. */
    if (!k || !k->enabled || !out || !key) {
        MtStatus st = build(ud, out, err, errlen);
        if (k && st == MT_OK) {
            pthread_mutex_lock(&k->mu);
            k->st.misses++;
            pthread_mutex_unlock(&k->mu);
        }
        return st;
    }
    memset(out, 0, sizeof *out);

    pthread_mutex_lock(&k->mu);
    Entry *e = find(k, key);
    if (e) {
        lru_unlink(k, e);
        lru_push(k, e);
        MtStatus st = copy_output(out, &e->out);
        if (st == MT_OK)
            k->st.memory_hits++;
        pthread_mutex_unlock(&k->mu);
        if (st != MT_OK) {
            mt_errf(err, errlen, "mt_kcache_build(%s): out of memory copying a cached entry", name);
            return st;
        }
        if (hit)
            *hit = MT_KCACHE_MEMORY;
        return MT_OK;
    }
    pthread_mutex_unlock(&k->mu);

    char *path = NULL;
    if (k->dir) {
        size_t np = strlen(k->dir) + 72;
        path = malloc(np);
        if (!path || !mt_kcache_entry_path(k, key, path, np)) {
            free(path);
            mt_errf(err, errlen, "mt_kcache_build(%s): out of memory", name);
            return MT_ERR_NOMEM;
        }
        EntryRead r = read_entry(path, key, sm, out);
        if (r == ENTRY_OK) {
            free(path);
            remember(k, key, out);
            pthread_mutex_lock(&k->mu);
            k->st.disk_hits++;
            pthread_mutex_unlock(&k->mu);
            if (hit)
                *hit = MT_KCACHE_DISK;
            return MT_OK;
        }
        if (r == ENTRY_CORRUPT) {
            pthread_mutex_lock(&k->mu);
            k->st.corrupt++;
            pthread_mutex_unlock(&k->mu);
        }
    }

    MtStatus st = build(ud, out, err, errlen);
    if (st != MT_OK) {
        free(path);
        return st;
    }
    /* After one failed write (a read-only or full folder) the disk level
     * only reads: the warning says so once. */
    pthread_mutex_lock(&k->mu);
    bool write = path && !k->write_failed;
    pthread_mutex_unlock(&k->mu);
    char why[512];
    MtStatus wst = write ? write_entry(k, path, key, out, why, sizeof why) : MT_OK;
    remember(k, key, out);
    pthread_mutex_lock(&k->mu);
    k->st.misses++;
    if (write && !wst)
        k->st.disk_writes++;
    if (wst) {
        k->st.disk_write_errors++;
        if (!k->write_failed)
            snprintf(k->warning, sizeof k->warning,
                     "the kernel cache cannot be written (%s): compiled kernels are not kept, so every run "
                     "compiles again; set MYTRITON_CACHE_DIR to a writable folder, or MYTRITON_CACHE=0",
                     why);
        k->write_failed = true;
    }
    pthread_mutex_unlock(&k->mu);
    free(path);
    return MT_OK;
}
