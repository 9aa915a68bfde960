/* fileio.c: see fileio.h. The size limits are the table below; the rest
 * is POSIX: open with O_NONBLOCK and fstat before reading, lstat and
 * realpath to decide how an output is written, mkstemp + fsync + rename
 * for the replacements. */
#include "fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "errbuf.h"

static const struct {
    const char *name;
    uint64_t limit;
} kinds[MT_FILE_KIND_COUNT] = {
    [MT_FILE_SOURCE] = {"a kernel source", (uint64_t)8 << 20},
    [MT_FILE_SPEC] = {"a launch spec", (uint64_t)4 << 20},
    [MT_FILE_NPY] = {"a .npy file", (uint64_t)16 << 30},
    [MT_FILE_CACHE] = {"a kernel cache entry", (uint64_t)256 << 20},
    [MT_FILE_BASELINE] = {"a baseline", (uint64_t)64 << 20},
    [MT_FILE_PTX] = {"a PTX file", (uint64_t)256 << 20},
};

uint64_t mt_file_limit(MtFileKind kind) { return kinds[kind].limit; }
const char *mt_file_kind_name(MtFileKind kind) { return kinds[kind].name; }

/* "8 MiB", "512 bytes", or "8.0 MiB (8388609 bytes)" when not whole. */
static void size_text(uint64_t n, char *buf, size_t len)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
    if (n < 1024) {
        snprintf(buf, len, "%llu bytes", (unsigned long long)n);
        return;
    }
    double v = (double)n / 1024;
    int u = 0;
    while (v >= 1024 && u < 3) {
        v /= 1024;
        u++;
    }
    if (v == (double)(uint64_t)v)
        snprintf(buf, len, "%llu %s", (unsigned long long)v, units[u]);
    else
        snprintf(buf, len, "%.1f %s (%llu bytes)", v, units[u], (unsigned long long)n);
}

/* "a directory", "a FIFO", ... for a file that is not regular. */
static const char *what_is(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO (named pipe)";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a regular file";
}

/* A file of `size` bytes, or (size 0) a stream that went past the limit. */
static MtStatus too_big(const char *path, MtFileKind kind, uint64_t size, char *err, size_t errlen)
{
    char have[64], limit[64];
    size_text(size, have, sizeof have);
    size_text(kinds[kind].limit, limit, sizeof limit);
    if (size)
        mt_errf(err, errlen, "%s: is %s; %s may be at most %s", path, have, kinds[kind].name, limit);
    else
        mt_errf(err, errlen, "%s: is more than %s, the most %s may be", path, limit, kinds[kind].name);
    return MT_ERR_IO;
}

MtStatus mt_file_open(const char *path, MtFileKind kind, int *fd, uint64_t *size, char *err, size_t errlen)
{
    *fd = -1;
    *size = 0;
    if (!strcmp(path, "-")) {
        *fd = STDIN_FILENO;
        return MT_OK;
    }
    int f = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (f < 0) {
        mt_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return MT_ERR_IO;
    }
    struct stat st;
    if (fstat(f, &st) != 0) {
        mt_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        close(f);
        return MT_ERR_IO;
    }
    if (!S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode))
            mt_errf(err, errlen, "%s: is a directory", path);
        else
            mt_errf(err, errlen, "%s: is %s, not a regular file", path, what_is(st.st_mode));
        close(f);
        return MT_ERR_IO;
    }
    if ((uint64_t)st.st_size > kinds[kind].limit) {
        close(f);
        return too_big(path, kind, (uint64_t)st.st_size, err, errlen);
    }
    int flags = fcntl(f, F_GETFL);
    if (flags >= 0)
        fcntl(f, F_SETFL, flags & ~O_NONBLOCK);
    *fd = f;
    *size = (uint64_t)st.st_size;
    return MT_OK;
}

MtStatus mt_file_read(const char *path, MtFileKind kind, char **text, size_t *len, char *err, size_t errlen)
{
    *text = NULL;
    *len = 0;
    int fd;
    uint64_t size;
    MtStatus st = mt_file_open(path, kind, &fd, &size, err, errlen);
    if (st)
        return st;
    const char *name = strcmp(path, "-") ? path : "standard input";
    /* The size of a file and one byte more, to see the end without a
     * second allocation (a file may still grow or shrink while it is
     * read); doubling up to the limit for standard input. */
    uint64_t limit = kinds[kind].limit;
    size_t cap = size ? (size_t)size + 2 : 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            mt_errf(err, errlen, "%s: out of memory reading it", name);
            st = MT_ERR_NOMEM;
            break;
        }
        if (n + 1 == cap) {
            if (n > limit) {
                st = too_big(name, kind, size > limit ? n : 0, err, errlen);
                break;
            }
            cap = cap * 2 < limit + 2 ? cap * 2 : (size_t)limit + 2;
            char *nb = realloc(buf, cap);
            if (!nb)
                free(buf);
            buf = nb;
            continue;
        }
        ssize_t got = read(fd, buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            mt_errf(err, errlen, "%s: cannot read: %s", name, strerror(errno));
            st = MT_ERR_IO;
            break;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    if (fd != STDIN_FILENO)
        close(fd);
    if (!st && n > limit)
        st = too_big(name, kind, fd == STDIN_FILENO ? 0 : n, err, errlen);
    if (st) {
        free(buf);
        return st;
    }
    buf[n] = 0;
    *text = buf;
    *len = n;
    return MT_OK;
}

/* ---- identities ------------------------------------------------------------ */

bool mt_fileset_add(MtFileSet *s, const char *path)
{
    struct stat st;
    if (!path || !strcmp(path, "-") || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return true;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        MtFileId *ids = realloc(s->ids, cap * sizeof *ids);
        if (!ids)
            return false;
        s->ids = ids;
        char **paths = realloc(s->paths, cap * sizeof *paths);
        if (!paths)
            return false;
        s->paths = paths;
        s->cap = cap;
    }
    if (!(s->paths[s->n] = strdup(path)))
        return false;
    s->ids[s->n++] = (MtFileId){(uint64_t)st.st_dev, (uint64_t)st.st_ino};
    return true;
}

const char *mt_fileset_find(const MtFileSet *s, const char *path)
{
    struct stat st;
    if (!s || stat(path, &st) != 0)
        return NULL;
    for (size_t i = 0; i < s->n; i++)
        if (s->ids[i].dev == (uint64_t)st.st_dev && s->ids[i].ino == (uint64_t)st.st_ino)
            return s->paths[i];
    return NULL;
}

void mt_fileset_free(MtFileSet *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->paths[i]);
    free(s->paths);
    free(s->ids);
    memset(s, 0, sizeof *s);
}

MtStatus mt_make_dirs(const char *dir, int mode, char *err, size_t errlen)
{
    char *p = strdup(dir);
    if (!p) {
        mt_errf(err, errlen, "%s: out of memory", dir);
        return MT_ERR_NOMEM;
    }
    MtStatus st = MT_OK;
    for (char *s = p + 1;; s++) {
        if (*s != '/' && *s)
            continue;
        char c = *s;
        *s = 0;
        struct stat sb;
        if (mkdir(p, (mode_t)mode) != 0 && !(errno == EEXIST && stat(p, &sb) == 0 && S_ISDIR(sb.st_mode))) {
            if (errno == EEXIST || errno == ENOTDIR)
                mt_errf(err, errlen, "cannot create the folder %s: %s is not a folder", dir, p);
            else
                mt_errf(err, errlen, "cannot create the folder %s: %s", dir, strerror(errno));
            st = MT_ERR_IO;
            break;
        }
        *s = c;
        if (!c)
            break;
    }
    free(p);
    return st;
}

bool mt_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* ---- writing --------------------------------------------------------------- */

/* NAME.tmp.PID.XXXXXX beside the output, created with O_EXCL (a retry
 * on a clash) and mode 0666, so the umask applies as for any new file. */
static MtStatus open_temp(MtOut *o, char *err, size_t errlen)
{
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    size_t n = strlen(o->path) + 48;
    if (!(o->tmp = malloc(n))) {
        mt_errf(err, errlen, "%s: out of memory", o->path);
        return MT_ERR_NOMEM;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15u ^ (uint64_t)(uintptr_t)o ^ (uint64_t)getpid() << 32;
    for (int attempt = 0; attempt < 100; attempt++) {
        char suffix[7];
        for (int i = 0; i < 6; i++, x /= 36)
            suffix[i] = digits[x % 36];
        suffix[6] = 0;
        x = x * 6364136223846793005u + 1442695040888963407u + (uint64_t)attempt;
        snprintf(o->tmp, n, "%s.tmp.%ld.%s", o->path, (long)getpid(), suffix);
        o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0666);
        if (o->fd >= 0 || errno != EEXIST)
            break;
    }
    if (o->fd < 0) {
        mt_errf(err, errlen, "%s: cannot create a temporary file beside it: %s", o->path, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        return MT_ERR_IO;
    }
    return MT_OK;
}

MtStatus mt_out_open(MtOut *o, const char *path, const MtFileSet *inputs, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    const char *clash = mt_fileset_find(inputs, path);
    if (clash) {
        mt_errf(err, errlen, "%s: refusing to overwrite %s, an input of this command", path, clash);
        return MT_ERR_IO;
    }
    /* A symlink: write its target (the link stays). A dangling one is
     * written through, which creates the target. */
    struct stat st;
    char real[PATH_MAX];
    bool exists = stat(path, &st) == 0;
    const char *target = path;
    struct stat lst;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) && exists && realpath(path, real))
        target = real;
    if (!(o->path = strdup(target))) {
        mt_errf(err, errlen, "%s: out of memory", path);
        return MT_ERR_NOMEM;
    }
    if (exists && S_ISDIR(st.st_mode)) {
        mt_errf(err, errlen, "%s: is a directory", path);
        mt_out_abort(o);
        return MT_ERR_IO;
    }
    if (exists && !S_ISREG(st.st_mode)) {
        /* /dev/null, a FIFO, a terminal: written as it is, never replaced. */
        o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (o->fd < 0) {
            mt_errf(err, errlen, "%s: cannot open for writing: %s", path, strerror(errno));
            mt_out_abort(o);
            return MT_ERR_IO;
        }
        return MT_OK;
    }
    if (!exists && lstat(path, &lst) == 0) {
        /* A dangling symlink. */
        o->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0666);
        if (o->fd < 0) {
            mt_errf(err, errlen, "%s: cannot create the file it links to: %s", path, strerror(errno));
            mt_out_abort(o);
            return MT_ERR_IO;
        }
        return MT_OK;
    }
    MtStatus s = open_temp(o, err, errlen);
    if (s) {
        mt_out_abort(o);
        return s;
    }
    /* A replaced file keeps its permissions. */
    if (exists)
        fchmod(o->fd, st.st_mode & 07777);
    return MT_OK;
}

MtStatus mt_out_open_private(MtOut *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    if (!(o->path = strdup(path))) {
        mt_errf(err, errlen, "%s: out of memory", path);
        return MT_ERR_NOMEM;
    }
    MtStatus s = open_temp(o, err, errlen);
    if (s)
        mt_out_abort(o);
    return s;
}

void mt_out_write(MtOut *o, const void *data, size_t n)
{
    const char *p = data;
    while (n && !o->error && o->fd >= 0) {
        ssize_t w = write(o->fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            o->error = w < 0 ? errno : EIO;
            break;
        }
        p += w;
        n -= (size_t)w;
    }
}

void mt_out_abort(MtOut *o)
{
    if (o->fd > STDERR_FILENO)
        close(o->fd);
    if (o->tmp)
        unlink(o->tmp);
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
    o->fd = -1;
}

MtStatus mt_out_close(MtOut *o, char *err, size_t errlen)
{
    const char *what = "write";
    int e = o->error;
    if (!e && o->tmp && fsync(o->fd) != 0) {
        e = errno;
        what = "fsync";
    }
    if (o->fd > STDERR_FILENO) {
        if (close(o->fd) != 0 && !e) {
            e = errno;
            what = "close";
        }
        o->fd = -1;
    }
    if (!e && o->tmp && rename(o->tmp, o->path) != 0) {
        e = errno;
        what = "rename";
    }
    if (e) {
        mt_errf(err, errlen, "%s: cannot write (%s): %s", o->path, what, strerror(e));
        mt_out_abort(o);
        return MT_ERR_IO;
    }
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
    o->fd = -1;
    return MT_OK;
}

MtStatus mt_file_write(const char *path, const void *data, size_t n, const MtFileSet *inputs, char *err,
                       size_t errlen)
{
    MtOut o;
    MtStatus st = mt_out_open(&o, path, inputs, err, errlen);
    if (st)
        return st;
    mt_out_write(&o, data, n);
    return mt_out_close(&o, err, errlen);
}

/* ---- stale temporary files ---------------------------------------------------- */

enum { STALE_DEAD_S = 10 * 60, STALE_ANY_S = 24 * 60 * 60 };

/* The process id in "NAME.tmp.PID.XXXXXX", or 0 when the name is not one
 * of ours. */
static long temp_pid(const char *name)
{
    const char *t = NULL;
    for (const char *p = strstr(name, ".tmp."); p; p = strstr(p + 1, ".tmp."))
        t = p;
    if (!t)
        return 0;
    char *end;
    long pid = strtol(t + 5, &end, 10);
    if (pid <= 0 || *end != '.' || strlen(end + 1) != 6)
        return 0;
    return pid;
}

size_t mt_tmp_sweep(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    size_t removed = 0;
    time_t now = time(NULL);
    int dfd = dirfd(d);
    for (struct dirent *e; (e = readdir(d));) {
        long pid = temp_pid(e->d_name);
        struct stat st;
        if (!pid || fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        double age = difftime(now, st.st_mtime);
        bool dead = pid != (long)getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
        if ((dead && age > STALE_DEAD_S) || age > STALE_ANY_S)
            removed += unlinkat(dfd, e->d_name, 0) == 0;
    }
    closedir(d);
    return removed;
}
