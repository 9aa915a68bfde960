/* check_kcache.c: the compile cache: SHA-256 against the FIPS 180 examples,
 * key sensitivity, memory and disk hits, corrupt entries recompiled,
 * concurrent writers in separate processes, threads on one handle, the
 * environment variables, eviction and write failures.
 *
 * Every test uses its own temporary folder; none touches ~/.cache. Check
 * runs each test in a child process, so setenv() in one test does not leak
 * into another. */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kcache.h"

static const char *src_a =
    "extern \"C\" __global__ void scale(float *x, float s, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) x[i] *= s;\n"
    "}\n";
static const char *src_b =
    "extern \"C\" __global__ void shift(float *x, float s, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) x[i] += s;\n"
    "}\n";

/* ---- helpers ------------------------------------------------------------- */

static char tmpdir[64];

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/mt-kcache-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    return remove(path);
}

static void remove_tmpdir(void)
{
    nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

static void hex_of(const char *msg, size_t n, char hex[65])
{
    uint8_t d[32];
    mt_sha256(msg, n, d);
    mt_sha256_hex(d, hex);
}

static void entry_path_of(MtKcache *k, const char *src, char *path, size_t n)
{
    uint8_t key[32];
    char err[256];
    ck_assert_int_eq(mt_kcache_key(src, "k.cu", 90, NULL, 0, key, err, sizeof err), MT_OK);
    ck_assert(mt_kcache_entry_path(k, key, path, n));
}

static MtKcacheHit compile_ok(MtKcache *k, const char *src, MtNvrtcOutput *out)
{
    MtKcacheHit hit = (MtKcacheHit)-1;
    char err[2048] = "";
    MtStatus st = mt_kcache_compile(k, src, "k.cu", 90, NULL, 0, out, &hit, err, sizeof err);
    ck_assert_msg(st == MT_OK, "compile failed: %s", err);
    ck_assert_ptr_nonnull(strstr(out->ptx, ".visible .entry"));
    ck_assert_int_eq(memcmp(out->cubin, "\x7f" "ELF", 4), 0);
    ck_assert_ptr_nonnull(out->log);
    return hit;
}

/* ---- SHA-256 ------------------------------------------------------------- */

START_TEST(sha256_fips_vectors)
{
    char hex[65];
    hex_of("abc", 3, hex);
    ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    hex_of("", 0, hex);
    ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    hex_of(m448, strlen(m448), hex);
    ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    const char *m896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                       "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
    hex_of(m896, strlen(m896), hex);
    ck_assert_str_eq(hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");

    /* One million 'a', fed in uneven pieces to exercise the block buffer. */
    MtSha256 s;
    mt_sha256_init(&s);
    char as[1024]; /* steps below stay under 1010 */
    memset(as, 'a', sizeof as);
    size_t left = 1000000, step = 1;
    while (left) {
        size_t n = step < left ? step : left;
        mt_sha256_update(&s, as, n);
        left -= n;
        step = step % 997 + 13;
    }
    uint8_t d[32];
    mt_sha256_final(&s, d);
    mt_sha256_hex(d, hex);
    ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

START_TEST(sha256_padding_boundaries)
{
    /* Lengths around the 55/56/64-byte padding edges, one-shot against
     * byte-by-byte. */
    uint8_t msg[130];
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 7 + 1);
    for (size_t n = 50; n <= 130; n++) {
        uint8_t a[32], b[32];
        mt_sha256(msg, n, a);
        MtSha256 s;
        mt_sha256_init(&s);
        for (size_t i = 0; i < n; i++)
            mt_sha256_update(&s, msg + i, 1);
        mt_sha256_final(&s, b);
        ck_assert_int_eq(memcmp(a, b, 32), 0);
    }
    /* 55 zero bytes and 56 zero bytes (one vs two padding blocks). */
    char hex[65];
    uint8_t zero[64] = {0};
    hex_of((const char *)zero, 55, hex);
    ck_assert_str_eq(hex, "02779466cdec163811d078815c633f21901413081449002f24aa3e80f0b88ef7");
    hex_of((const char *)zero, 56, hex);
    ck_assert_str_eq(hex, "d4817aa5497628e7c77e6b606107042bbba3130888c5f47a375e6179be789fbb");
}
END_TEST

/* ---- keys ---------------------------------------------------------------- */

START_TEST(key_depends_on_every_input)
{
    uint8_t base[32], k2[32];
    char err[256];
    const char *o1[] = {"-DA", "B"};
    const char *o2[] = {"-DAB"};
    ck_assert_int_eq(mt_kcache_key(src_a, "k.cu", 90, o1, 2, base, err, sizeof err), MT_OK);
    ck_assert_int_eq(mt_kcache_key(src_a, "k.cu", 90, o1, 2, k2, err, sizeof err), MT_OK);
    ck_assert_int_eq(memcmp(base, k2, 32), 0);
    ck_assert_int_eq(mt_kcache_key(src_b, "k.cu", 90, o1, 2, k2, err, sizeof err), MT_OK);
    ck_assert_int_ne(memcmp(base, k2, 32), 0);
    ck_assert_int_eq(mt_kcache_key(src_a, "j.cu", 90, o1, 2, k2, err, sizeof err), MT_OK);
    ck_assert_int_ne(memcmp(base, k2, 32), 0);
    ck_assert_int_eq(mt_kcache_key(src_a, "k.cu", 80, o1, 2, k2, err, sizeof err), MT_OK);
    ck_assert_int_ne(memcmp(base, k2, 32), 0);
    ck_assert_int_eq(mt_kcache_key(src_a, "k.cu", 90, o2, 1, k2, err, sizeof err), MT_OK);
    ck_assert_int_ne(memcmp(base, k2, 32), 0);
    ck_assert_int_eq(mt_kcache_key(src_a, "k.cu", 90, o1, 1, k2, err, sizeof err), MT_OK);
    ck_assert_int_ne(memcmp(base, k2, 32), 0);
    ck_assert_int_eq(mt_kcache_key(NULL, "k.cu", 90, NULL, 0, k2, err, sizeof err), MT_ERR_USAGE);
}
END_TEST

/* ---- memory and disk ----------------------------------------------------- */

START_TEST(miss_then_memory_hit_then_disk_hit)
{
    make_tmpdir();
    MtKcache *k = mt_kcache_open(tmpdir);
    ck_assert_ptr_nonnull(k);
    ck_assert_str_eq(mt_kcache_dir(k), tmpdir);
    MtNvrtcOutput a, b, c;
    ck_assert_int_eq(compile_ok(k, src_a, &a), MT_KCACHE_MISS);
    ck_assert_int_eq(compile_ok(k, src_a, &b), MT_KCACHE_MEMORY);
    ck_assert_uint_eq(a.ptx_len, b.ptx_len);
    ck_assert_str_eq(a.ptx, b.ptx);
    ck_assert_uint_eq(a.cubin_len, b.cubin_len);
    ck_assert_int_eq(memcmp(a.cubin, b.cubin, a.cubin_len), 0);
    ck_assert_str_eq(a.log, b.log);
    ck_assert_int_eq(b.sm, 90);
    MtKcacheStats st;
    mt_kcache_stats(k, &st);
    ck_assert_uint_eq(st.misses, 1);
    ck_assert_uint_eq(st.memory_hits, 1);
    ck_assert_uint_eq(st.disk_writes, 1);
    ck_assert_uint_eq(st.entries, 1);
    ck_assert_int_eq(count_files(tmpdir), 1);
    ck_assert(!mt_kcache_warning(k, NULL, 0));
    mt_kcache_close(k);

    /* A new handle has an empty memory level: the file answers. */
    k = mt_kcache_open(tmpdir);
    ck_assert_int_eq(compile_ok(k, src_a, &c), MT_KCACHE_DISK);
    ck_assert_str_eq(a.ptx, c.ptx);
    ck_assert_int_eq(memcmp(a.cubin, c.cubin, a.cubin_len), 0);
    mt_nvrtc_output_free(&c);
    ck_assert_int_eq(compile_ok(k, src_a, &c), MT_KCACHE_MEMORY);
    mt_kcache_stats(k, &st);
    ck_assert_uint_eq(st.disk_hits, 1);
    ck_assert_uint_eq(st.memory_hits, 1);
    ck_assert_uint_eq(st.misses, 0);
    /* Different options are a different entry. */
    const char *opts[] = {"-DUNUSED=1"};
    MtKcacheHit hit;
    char err[512];
    MtNvrtcOutput d;
    ck_assert_int_eq(mt_kcache_compile(k, src_a, "k.cu", 90, opts, 1, &d, &hit, err, sizeof err), MT_OK);
    ck_assert_int_eq(hit, MT_KCACHE_MISS);
    ck_assert_int_eq(count_files(tmpdir), 2);
    mt_kcache_close(k);
    mt_nvrtc_output_free(&a);
    mt_nvrtc_output_free(&b);
    mt_nvrtc_output_free(&c);
    mt_nvrtc_output_free(&d);
    remove_tmpdir();
}
END_TEST

/* Damage the entry file of src_a, then check that a fresh handle
 * recompiles, counts it corrupt, and leaves a valid file behind. */
static void check_damage_recovers(void (*damage)(const char *path))
{
    make_tmpdir();
    MtKcache *k = mt_kcache_open(tmpdir);
    MtNvrtcOutput a, b;
    ck_assert_int_eq(compile_ok(k, src_a, &a), MT_KCACHE_MISS);
    char path[256];
    entry_path_of(k, src_a, path, sizeof path);
    mt_kcache_close(k);
    damage(path);

    k = mt_kcache_open(tmpdir);
    ck_assert_int_eq(compile_ok(k, src_a, &b), MT_KCACHE_MISS);
    ck_assert_str_eq(a.ptx, b.ptx);
    MtKcacheStats st;
    mt_kcache_stats(k, &st);
    ck_assert_uint_eq(st.corrupt, 1);
    ck_assert_uint_eq(st.disk_writes, 1);
    mt_kcache_close(k);
    mt_nvrtc_output_free(&b);

    k = mt_kcache_open(tmpdir);
    ck_assert_int_eq(compile_ok(k, src_a, &b), MT_KCACHE_DISK);
    ck_assert_int_eq(memcmp(a.cubin, b.cubin, a.cubin_len), 0);
    ck_assert_int_eq(count_files(tmpdir), 1); /* no temporary files left */
    mt_kcache_close(k);
    mt_nvrtc_output_free(&a);
    mt_nvrtc_output_free(&b);
    remove_tmpdir();
}

static void truncate_half(const char *path)
{
    struct stat sb;
    ck_assert_int_eq(stat(path, &sb), 0);
    ck_assert_int_eq(truncate(path, sb.st_size / 2), 0);
}

static void flip_byte_at(const char *path, off_t off)
{
    int fd = open(path, O_RDWR);
    ck_assert_int_ge(fd, 0);
    unsigned char c;
    ck_assert_int_eq(pread(fd, &c, 1, off), 1);
    c ^= 0x20;
    ck_assert_int_eq(pwrite(fd, &c, 1, off), 1);
    close(fd);
}

static void flip_payload_byte(const char *path)
{
    struct stat sb;
    ck_assert_int_eq(stat(path, &sb), 0);
    flip_byte_at(path, sb.st_size - 100);
}

static void flip_magic_byte(const char *path) { flip_byte_at(path, 2); }
static void flip_length_byte(const char *path) { flip_byte_at(path, 56); }

static void append_garbage(const char *path)
{
    FILE *f = fopen(path, "ab");
    ck_assert_ptr_nonnull(f);
    fputs("trailing", f);
    fclose(f);
}

/* An entry that is a FIFO, or a symlink to a file elsewhere, is replaced
 * by a fresh file: never opened in place (a FIFO would block the compile
 * for ever) nor written through (the link's target stays as it was). */
static void check_special_entry_replaced(bool fifo)
{
    make_tmpdir();
    MtKcache *k = mt_kcache_open(tmpdir);
    MtNvrtcOutput a, b;
    ck_assert_int_eq(compile_ok(k, src_a, &a), MT_KCACHE_MISS);
    char path[256], outside[128];
    entry_path_of(k, src_a, path, sizeof path);
    mt_kcache_close(k);
    snprintf(outside, sizeof outside, "%s.outside", tmpdir);
    FILE *fp = fopen(outside, "w");
    ck_assert_ptr_nonnull(fp);
    fputs("not a cache entry\n", fp);
    fclose(fp);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(fifo ? mkfifo(path, 0600) : symlink(outside, path), 0);

    k = mt_kcache_open(tmpdir);
    alarm(20); /* a blocking open would hang here */
    ck_assert_int_eq(compile_ok(k, src_a, &b), MT_KCACHE_MISS);
    alarm(0);
    mt_kcache_close(k);
    struct stat st;
    ck_assert_int_eq(lstat(path, &st), 0);
    ck_assert_msg(S_ISREG(st.st_mode), "the entry is a regular file again");
    char text[64] = "";
    fp = fopen(outside, "r");
    ck_assert_ptr_nonnull(fgets(text, sizeof text, fp));
    fclose(fp);
    ck_assert_str_eq(text, "not a cache entry\n");
    k = mt_kcache_open(tmpdir);
    mt_nvrtc_output_free(&b);
    ck_assert_int_eq(compile_ok(k, src_a, &b), MT_KCACHE_DISK);
    mt_kcache_close(k);
    mt_nvrtc_output_free(&a);
    mt_nvrtc_output_free(&b);
    unlink(outside);
    remove_tmpdir();
}

START_TEST(fifo_entry_is_replaced) { check_special_entry_replaced(true); }
END_TEST

START_TEST(symlink_entry_is_replaced) { check_special_entry_replaced(false); }
END_TEST

START_TEST(truncated_entry_recompiles) { check_damage_recovers(truncate_half); }
END_TEST
START_TEST(flipped_payload_byte_recompiles) { check_damage_recovers(flip_payload_byte); }
END_TEST
START_TEST(flipped_magic_recompiles) { check_damage_recovers(flip_magic_byte); }
END_TEST
START_TEST(flipped_length_recompiles) { check_damage_recovers(flip_length_byte); }
END_TEST
START_TEST(trailing_bytes_recompile) { check_damage_recovers(append_garbage); }
END_TEST

START_TEST(concurrent_writers_in_processes)
{
    make_tmpdir();
    enum { NPROC = 4 };
    pid_t pids[NPROC];
    for (int i = 0; i < NPROC; i++) {
        pids[i] = fork();
        ck_assert_int_ge(pids[i], 0);
        if (pids[i] == 0) {
            MtKcache *k = mt_kcache_open(tmpdir);
            MtNvrtcOutput out;
            MtKcacheHit hit;
            char err[1024];
            int ok = k && mt_kcache_compile(k, src_b, "k.cu", 90, NULL, 0, &out, &hit, err,
                                            sizeof err) == MT_OK &&
                     strstr(out.ptx, ".visible .entry shift") != NULL;
            MtKcacheStats st;
            mt_kcache_stats(k, &st);
            ok = ok && st.disk_write_errors == 0 && st.corrupt == 0;
            if (ok)
                mt_nvrtc_output_free(&out);
            mt_kcache_close(k);
            _exit(ok ? 0 : 1);
        }
    }
    for (int i = 0; i < NPROC; i++) {
        int status = 0;
        ck_assert_int_eq(waitpid(pids[i], &status, 0), pids[i]);
        ck_assert(WIFEXITED(status));
        ck_assert_int_eq(WEXITSTATUS(status), 0);
    }
    ck_assert_int_eq(count_files(tmpdir), 1);
    MtKcache *k = mt_kcache_open(tmpdir);
    MtNvrtcOutput out;
    ck_assert_int_eq(compile_ok(k, src_b, &out), MT_KCACHE_DISK);
    MtKcacheStats st;
    mt_kcache_stats(k, &st);
    ck_assert_uint_eq(st.corrupt, 0);
    mt_nvrtc_output_free(&out);
    mt_kcache_close(k);
    remove_tmpdir();
}
END_TEST

typedef struct {
    MtKcache *k;
    int ok;
} ThreadArg;

static void *thread_body(void *p)
{
    ThreadArg *a = p;
    a->ok = 1;
    for (int i = 0; i < 10; i++) {
        MtNvrtcOutput out;
        char err[512];
        const char *src = i % 2 ? src_a : src_b;
        if (mt_kcache_compile(a->k, src, "k.cu", 90, NULL, 0, &out, NULL, err, sizeof err) != MT_OK) {
            a->ok = 0;
            return NULL;
        }
        mt_nvrtc_output_free(&out);
    }
    return NULL;
}

START_TEST(threads_share_one_handle)
{
    make_tmpdir();
    MtKcache *k = mt_kcache_open(tmpdir);
    enum { NT = 4 };
    pthread_t th[NT];
    ThreadArg args[NT];
    for (int i = 0; i < NT; i++) {
        args[i].k = k;
        ck_assert_int_eq(pthread_create(&th[i], NULL, thread_body, &args[i]), 0);
    }
    for (int i = 0; i < NT; i++) {
        pthread_join(th[i], NULL);
        ck_assert(args[i].ok);
    }
    MtKcacheStats st;
    mt_kcache_stats(k, &st);
    ck_assert_uint_eq(st.memory_hits + st.disk_hits + st.misses, NT * 10);
    ck_assert_uint_ge(st.misses, 2);
    ck_assert_uint_eq(st.entries, 2);
    ck_assert_uint_eq(st.corrupt, 0);
    mt_kcache_close(k);
    remove_tmpdir();
}
END_TEST

/* ---- environment, limits, failures --------------------------------------- */

START_TEST(cache_off_by_environment)
{
    make_tmpdir();
    setenv("MYTRITON_CACHE", "0", 1);
    MtKcache *k = mt_kcache_open(tmpdir);
    ck_assert(!mt_kcache_enabled(k));
    ck_assert_ptr_null(mt_kcache_dir(k));
    MtNvrtcOutput out;
    ck_assert_int_eq(compile_ok(k, src_a, &out), MT_KCACHE_MISS);
    mt_nvrtc_output_free(&out);
    ck_assert_int_eq(compile_ok(k, src_a, &out), MT_KCACHE_MISS);
    mt_nvrtc_output_free(&out);
    MtKcacheStats st;
    mt_kcache_stats(k, &st);
    ck_assert_uint_eq(st.misses, 2);
    ck_assert_uint_eq(st.entries, 0);
    ck_assert_int_eq(count_files(tmpdir), 0);
    mt_kcache_close(k);
    setenv("MYTRITON_CACHE", "1", 1);
    k = mt_kcache_open(tmpdir);
    ck_assert(mt_kcache_enabled(k));
    mt_kcache_close(k);
    remove_tmpdir();
}
END_TEST

START_TEST(folder_from_environment)
{
    make_tmpdir();
    char want[160];
    unsetenv("MYTRITON_CACHE");
    setenv("MYTRITON_CACHE_DIR", tmpdir, 1);
    MtKcache *k = mt_kcache_open(NULL);
    ck_assert_str_eq(mt_kcache_dir(k), tmpdir);
    mt_kcache_close(k);
    k = mt_kcache_open("/explicit/wins");
    ck_assert_str_eq(mt_kcache_dir(k), "/explicit/wins");
    mt_kcache_close(k);

    unsetenv("MYTRITON_CACHE_DIR");
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    k = mt_kcache_open(NULL);
    ck_assert_str_eq(mt_kcache_dir(k), "/xdg/mytriton");
    mt_kcache_close(k);

    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", tmpdir, 1);
    snprintf(want, sizeof want, "%s/.cache/mytriton", tmpdir);
    k = mt_kcache_open(NULL);
    ck_assert_str_eq(mt_kcache_dir(k), want);
    /* The nested folder is created on the first write. */
    MtNvrtcOutput out;
    ck_assert_int_eq(compile_ok(k, src_a, &out), MT_KCACHE_MISS);
    ck_assert_int_eq(count_files(want), 1);
    mt_nvrtc_output_free(&out);
    mt_kcache_close(k);

    unsetenv("HOME");
    k = mt_kcache_open(NULL);
    ck_assert_ptr_null(mt_kcache_dir(k)); /* memory level only */
    ck_assert(mt_kcache_enabled(k));
    mt_kcache_close(k);
    remove_tmpdir();
}
END_TEST

START_TEST(memory_limit_evicts_oldest)
{
    make_tmpdir();
    MtKcache *k = mt_kcache_open(tmpdir);
    MtNvrtcOutput a, b;
    compile_ok(k, src_a, &a);
    MtKcacheStats st;
    mt_kcache_stats(k, &st);
    /* Room for one entry of this size, not two. */
    mt_kcache_set_memory_limit(k, st.bytes + st.bytes / 2);
    compile_ok(k, src_b, &b);
    mt_kcache_stats(k, &st);
    ck_assert_uint_eq(st.entries, 1);
    ck_assert_uint_eq(st.evictions, 1);
    mt_nvrtc_output_free(&a);
    ck_assert_int_eq(compile_ok(k, src_a, &a), MT_KCACHE_DISK); /* evicted from memory */
    mt_nvrtc_output_free(&a);
    mt_kcache_set_memory_limit(k, 0);
    mt_kcache_stats(k, &st);
    ck_assert_uint_eq(st.entries, 0);
    ck_assert_uint_eq(st.bytes, 0);
    ck_assert_int_eq(compile_ok(k, src_a, &a), MT_KCACHE_DISK);
    mt_nvrtc_output_free(&a);
    mt_nvrtc_output_free(&b);
    mt_kcache_close(k);
    remove_tmpdir();
}
END_TEST

START_TEST(unwritable_folder_still_compiles)
{
    MtKcache *k = mt_kcache_open("/dev/null/mytriton-cache");
    MtNvrtcOutput out;
    ck_assert_int_eq(compile_ok(k, src_a, &out), MT_KCACHE_MISS);
    mt_nvrtc_output_free(&out);
    MtKcacheStats st;
    mt_kcache_stats(k, &st);
    ck_assert_uint_eq(st.disk_write_errors, 1);
    ck_assert_uint_eq(st.disk_writes, 0);
    char w[1024];
    ck_assert(mt_kcache_warning(k, w, sizeof w));
    ck_assert_str_eq(w, "the kernel cache cannot be written (cannot create the folder /dev/null/mytriton-cache: "
                        "/dev/null is not a folder): compiled kernels are not kept, so every run compiles again; set "
                        "MYTRITON_CACHE_DIR to a writable folder, or MYTRITON_CACHE=0");
    /* The memory level still works. */
    ck_assert_int_eq(compile_ok(k, src_a, &out), MT_KCACHE_MEMORY);
    mt_nvrtc_output_free(&out);
    /* After one failure the disk level stops trying: one warning, one error. */
    ck_assert_int_eq(compile_ok(k, src_b, &out), MT_KCACHE_MISS);
    mt_nvrtc_output_free(&out);
    mt_kcache_stats(k, &st);
    ck_assert_uint_eq(st.disk_write_errors, 1);
    mt_kcache_close(k);
}
END_TEST

START_TEST(compile_errors_are_not_cached)
{
    make_tmpdir();
    MtKcache *k = mt_kcache_open(tmpdir);
    const char *bad = "extern \"C\" __global__ void f(int *p) { p[0] = nope; }\n";
    for (int i = 0; i < 2; i++) {
        MtNvrtcOutput out;
        MtKcacheHit hit;
        char err[1024] = "";
        ck_assert_int_eq(mt_kcache_compile(k, bad, "bad.cu", 90, NULL, 0, &out, &hit, err, sizeof err),
                         MT_ERR_SOURCE);
        ck_assert_int_eq(hit, MT_KCACHE_MISS);
        ck_assert_ptr_nonnull(strstr(err, "bad.cu(1): error"));
        mt_nvrtc_output_free(&out);
    }
    ck_assert_int_eq(count_files(tmpdir), 0);
    /* Bad arguments reach NVRTC's own checks. */
    MtNvrtcOutput out;
    char err[256];
    ck_assert_int_eq(mt_kcache_compile(k, NULL, "x.cu", 90, NULL, 0, &out, NULL, err, sizeof err),
                     MT_ERR_USAGE);
    ck_assert_str_eq(err, "mt_nvrtc_compile(x.cu): no source");
    mt_kcache_close(k);
    remove_tmpdir();
}
END_TEST

int main(void)
{
    /* The tests decide the cache's environment themselves. */
    unsetenv("MYTRITON_CACHE");
    unsetenv("MYTRITON_CACHE_DIR");
    Suite *s = suite_create("kcache");
    TCase *sha = tcase_create("sha256");
    tcase_add_test(sha, sha256_fips_vectors);
    tcase_add_test(sha, sha256_padding_boundaries);
    suite_add_tcase(s, sha);
    TCase *tc = tcase_create("cache");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, key_depends_on_every_input);
    tcase_add_test(tc, miss_then_memory_hit_then_disk_hit);
    tcase_add_test(tc, fifo_entry_is_replaced);
    tcase_add_test(tc, symlink_entry_is_replaced);
    tcase_add_test(tc, truncated_entry_recompiles);
    tcase_add_test(tc, flipped_payload_byte_recompiles);
    tcase_add_test(tc, flipped_magic_recompiles);
    tcase_add_test(tc, flipped_length_recompiles);
    tcase_add_test(tc, trailing_bytes_recompile);
    tcase_add_test(tc, concurrent_writers_in_processes);
    tcase_add_test(tc, threads_share_one_handle);
    tcase_add_test(tc, cache_off_by_environment);
    tcase_add_test(tc, folder_from_environment);
    tcase_add_test(tc, memory_limit_evicts_oldest);
    tcase_add_test(tc, unwritable_folder_still_compiles);
    tcase_add_test(tc, compile_errors_are_not_cached);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
