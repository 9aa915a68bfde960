/* tar.c: POSIX ustar (IEEE Std 1003.1, pax's ustar interchange format):
 * each member is a 512-byte header -- name, mode, owner, size and time as
 * NUL-terminated octal, the header's checksum, magic "ustar\0" "00" --
 * followed by its data padded to a multiple of 512 bytes; two zero blocks
 * end the archive. GNU tar, bsdtar and Python's tarfile read it. Sizes up
 * to 8 GiB - 1 fit the 11 octal digits. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tar.h"

enum { BLOCK = 512 };

void mt_web_tar_begin(WebTar *t, int fd)
{
    memset(t, 0, sizeof *t);
    t->fd = fd;
    t->mtime = (long long)time(NULL);
}

/* "<what><subject>: <strerror(errno)>" */
static bool fail(WebTar *t, const char *what, const char *subject)
{
    if (!t->failed)
        snprintf(t->err, sizeof t->err, "%s%s: %s", what, subject, strerror(errno));
    t->failed = true;
    return false;
}

static bool put(WebTar *t, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t n = write(t->fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return fail(t, "cannot write the archive", "");
        p += n;
        len -= (size_t)n;
    }
    return true;
}

static bool pad(WebTar *t, size_t len)
{
    static const char zeros[BLOCK];
    size_t rest = len % BLOCK;
    return !rest || put(t, zeros, BLOCK - rest);
}

static bool header(WebTar *t, const char *name, unsigned long long size)
{
    unsigned char h[BLOCK] = {0};
    size_t n = strlen(name);
    const char *base = name;
    if (n > 100) {
        /* the prefix takes the folders up to a '/' that leaves at most 100 bytes */
        const char *slash = NULL;
        for (const char *p = name; *p; p++)
            if (*p == '/' && (size_t)(p - name) <= 155 && n - (size_t)(p - name) - 1 <= 100)
                slash = slash ? slash : p;
        if (!slash) {
            errno = ENAMETOOLONG;
            return fail(t, "", name);
        }
        memcpy(h + 345, name, (size_t)(slash - name));
        base = slash + 1;
    }
    if (size > 077777777777ULL) {
        errno = EFBIG;
        return fail(t, "", name);
    }
    memcpy(h, base, strlen(base));
    snprintf((char *)h + 100, 8, "%07o", 0644);
    snprintf((char *)h + 108, 8, "%07o", 0);
    snprintf((char *)h + 116, 8, "%07o", 0);
    snprintf((char *)h + 124, 12, "%011llo", size);
    snprintf((char *)h + 136, 12, "%011llo", (unsigned long long)t->mtime);
    h[156] = '0';
    memcpy(h + 257, "ustar", 6);
    memcpy(h + 263, "00", 2);
    memcpy(h + 265, "mytriton", 8);
    memcpy(h + 297, "mytriton", 8);
    memset(h + 148, ' ', 8);
    unsigned sum = 0;
    for (size_t i = 0; i < BLOCK; i++)
        sum += h[i];
    snprintf((char *)h + 148, 8, "%06o", sum);
    return put(t, h, BLOCK);
}

bool mt_web_tar_bytes(WebTar *t, const char *name, const void *data, size_t len)
{
    return !t->failed && header(t, name, len) && put(t, data, len) && pad(t, len);
}

bool mt_web_tar_file(WebTar *t, const char *name, const char *path)
{
    if (t->failed)
        return false;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return fail(t, "cannot read ", path);
    }
    bool ok = header(t, name, (unsigned long long)st.st_size);
    char buf[1 << 16];
    unsigned long long left = (unsigned long long)st.st_size;
    while (ok && left) {
        ssize_t n = read(fd, buf, left < sizeof buf ? left : sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (!n)
                errno = EIO;
            ok = fail(t, "cannot read ", path);
            break;
        }
        ok = put(t, buf, (size_t)n);
        left -= (unsigned long long)n;
    }
    close(fd);
    return ok && pad(t, (size_t)st.st_size);
}

bool mt_web_tar_end(WebTar *t)
{
    static const char zeros[2 * BLOCK];
    return !t->failed && put(t, zeros, sizeof zeros);
}
