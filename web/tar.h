/* tar.h: a POSIX ustar archive written to a file descriptor (tar.c), for
 * the repro export. Regular files and folders only. */
#ifndef MT_WEB_TAR_H
#define MT_WEB_TAR_H

#include <stdbool.h>
#include <stddef.h>

typedef struct WebTar {
    int fd;
    long long mtime;
    char err[256];            /* the first failure */
    bool failed;
} WebTar;

void mt_web_tar_begin(WebTar *t, int fd);
/* A member `name` (a relative path of at most 255 bytes, split at a '/'
 * into ustar's prefix and name) holding len bytes of data. */
bool mt_web_tar_bytes(WebTar *t, const char *name, const void *data, size_t len);
/* A member copied from the regular file at `path`. */
bool mt_web_tar_file(WebTar *t, const char *name, const char *path);
/* The two zero blocks that end an archive; false when any step failed
 * (t->err says which). */
bool mt_web_tar_end(WebTar *t);

#endif
