/* util.c: small helpers of the dashboard server: positions for the page's
 * editor, folders and atomic file writes in the data folder, hashes, time.
 *
 * Positions: the compiler counts bytes (1-based byte columns); the page's
 * editor (CodeMirror, JavaScript strings) counts UTF-16 code units. Every
 * range the server sends carries both, converted here from the source
 * text, so the page never re-derives one from the other. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kcache.h"
#include "web_int.h"

/* UTF-16 units of the UTF-8 sequence starting with byte b (invalid bytes
 * count one unit each, as a decoder replacing them would). */
static size_t units(unsigned char b, size_t *seq)
{
    if (b < 0xC0) {
        *seq = 1;
        return 1;
    }
    if (b < 0xE0) {
        *seq = 2;
        return 1;
    }
    if (b < 0xF0) {
        *seq = 3;
        return 1;
    }
    *seq = 4;
    return 2;
}

size_t mt_web_utf16_offset(const char *text, size_t len, size_t byte_off)
{
    size_t u = 0;
    for (size_t i = 0; i < len && i < byte_off;) {
        size_t seq;
        u += units((unsigned char)text[i], &seq);
        i += seq;
    }
    return u;
}

size_t mt_web_byte_offset(const char *text, size_t len, size_t utf16_off)
{
    size_t u = 0, i = 0;
    while (i < len && u < utf16_off) {
        size_t seq;
        u += units((unsigned char)text[i], &seq);
        i += seq;
    }
    return i < len ? i : len;
}

cJSON *mt_web_span_json(const char *text, size_t len, uint32_t off, uint32_t end, uint32_t line, uint32_t col,
                        uint32_t end_line, uint32_t end_col)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "line", line);
    cJSON_AddNumberToObject(o, "col", col);
    cJSON_AddNumberToObject(o, "end_line", end_line);
    cJSON_AddNumberToObject(o, "end_col", end_col);
    if (text) {
        cJSON_AddNumberToObject(o, "from", (double)mt_web_utf16_offset(text, len, off));
        cJSON_AddNumberToObject(o, "to", (double)mt_web_utf16_offset(text, len, end > off ? end : off));
    }
    return o;
}

bool mt_web_mkdirs(const char *path, char *err, size_t errlen)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        snprintf(err, errlen, "path too long: %.100s...", path);
        return false;
    }
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || !*p) {
            char saved = *p;
            *p = 0;
            if (mkdir(buf, 0700) && errno != EEXIST) {
                snprintf(err, errlen, "cannot create the folder %s: %s", buf, strerror(errno));
                return false;
            }
            *p = saved;
            if (!saved)
                break;
        }
    }
    struct stat st;
    if (stat(buf, &st) || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s is not a folder", buf);
        return false;
    }
    return true;
}

bool mt_web_write_file(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    const char *p = data;
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, p + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    bool ok = done == len && fsync(fd) == 0;
    int saved = errno;
    if (close(fd))
        ok = false;
    if (ok && rename(tmp, path) == 0)
        return true;
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(ok ? errno : saved));
    unlink(tmp);
    return false;
}

void mt_web_sha256_hex(const void *data, size_t len, char hex[65])
{
    uint8_t d[32];
    mt_sha256(data, len, d);
    mt_sha256_hex(d, hex);
}

double mt_web_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
