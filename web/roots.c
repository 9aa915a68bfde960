/* roots.c: the files the dashboard may read, and nothing else.
 *
 * `mytriton serve PATH...` names files and folders; each becomes a root,
 * kept as its realpath. A path in a request (relative to the folder the
 * server started in, or absolute) is resolved with realpath -- which
 * follows every symbolic link and removes every `..` -- and accepted only
 * when the result is a root file or lies inside a root folder, and is a
 * regular file. So `../../etc/passwd`, an absolute path elsewhere, and a
 * link inside a root that points outside it are all refused the same way,
 * and the refusal does not say whether the file exists. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mytriton/mytriton.h"
#include "web_int.h"

bool mt_web_roots_init(WebRoots *r, const char *const *paths, size_t n, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (!getcwd(r->base, sizeof r->base)) {
        snprintf(err, errlen, "cannot read the current folder: %s", strerror(errno));
        return false;
    }
    if (!(r->v = calloc(n ? n : 1, sizeof *r->v))) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        char real[PATH_MAX];
        struct stat st;
        if (!realpath(paths[i], real) || stat(real, &st)) {
            snprintf(err, errlen, "%s: %s", paths[i], strerror(errno));
            return false;
        }
        if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
            snprintf(err, errlen, "%s: not a file or a folder", paths[i]);
            return false;
        }
        if (!(r->v[r->n].real = strdup(real))) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        r->v[r->n++].is_dir = S_ISDIR(st.st_mode);
    }
    return true;
}

void mt_web_roots_free(WebRoots *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->v[i].real);
    free(r->v);
    memset(r, 0, sizeof *r);
}

static bool inside(const WebRoot *root, const char *real)
{
    size_t n = strlen(root->real);
    if (!root->is_dir)
        return !strcmp(root->real, real);
    if (strncmp(root->real, real, n))
        return false;
    return real[n] == '/' || (n == 1 && root->real[0] == '/');
}

bool mt_web_roots_resolve(const WebRoots *r, const char *path, char real[PATH_MAX], char *err, size_t errlen)
{
    static const char refused[] = "is not a file under the dashboard's folders";
    char joined[PATH_MAX * 2];
    if (!path || !*path || strlen(path) >= PATH_MAX || memchr(path, 0, strlen(path))) {
        snprintf(err, errlen, "a file path is needed");
        return false;
    }
    if (path[0] == '/')
        snprintf(joined, sizeof joined, "%s", path);
    else
        snprintf(joined, sizeof joined, "%s/%s", r->base, path);
    struct stat st;
    if (!realpath(joined, real) || stat(real, &st) || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%.200s %s", path, refused);
        return false;
    }
    for (size_t i = 0; i < r->n; i++)
        if (inside(&r->v[i], real))
            return true;
    snprintf(err, errlen, "%.200s %s", path, refused);
    return false;
}

char *mt_web_roots_display(const WebRoots *r, const char *real)
{
    size_t n = strlen(r->base);
    if (!strncmp(real, r->base, n) && real[n] == '/')
        return strdup(real + n + 1);
    return strdup(real);
}

char *mt_web_read_file(const char *real, size_t max, size_t *len, char *err, size_t errlen)
{
    int fd = open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "cannot read the file: %s", fd < 0 ? strerror(errno) : "not a regular file");
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    if ((size_t)st.st_size > max) {
        snprintf(err, errlen, "the file has %lld bytes, more than the limit of %zu", (long long)st.st_size, max);
        close(fd);
        return NULL;
    }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    while (buf && got < (size_t)st.st_size) {
        ssize_t k = read(fd, buf + got, (size_t)st.st_size - got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    close(fd);
    if (!buf) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    buf[got] = 0;
    *len = got;
    return buf;
}

/* ---- listing ------------------------------------------------------------------- */

typedef struct Walk {
    const WebRoots *r;
    cJSON *files;
    size_t count, limit;
} Walk;

static bool skipped_dir(const char *name)
{
    static const char *const skip[] = {"node_modules", "__pycache__", "build", "build-asan", "dist", "venv"};
    if (name[0] == '.')
        return true;
    for (size_t i = 0; i < sizeof skip / sizeof *skip; i++)
        if (!strcmp(name, skip[i]))
            return true;
    return false;
}

static void add_file(Walk *w, const char *real)
{
    size_t len;
    char err[256];
    char *text = mt_web_read_file(real, WEB_MAX_SOURCE, &len, err, sizeof err);
    if (!text)
        return;
    if (!strstr(text, "jit")) {
        free(text);
        return;
    }
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    char *shown = mt_web_roots_display(w->r, real);
    if (c && shown && mt_parse(c, shown, text, len, &m) == MT_OK && mt_module_kernel_count(m)) {
        cJSON *f = cJSON_CreateObject();
        cJSON_AddStringToObject(f, "path", shown);
        cJSON *ks = cJSON_AddArrayToObject(f, "kernels");
        for (size_t i = 0; i < mt_module_kernel_count(m); i++) {
            const MtKernelInfo *ki = mt_module_kernel(m, i);
            cJSON *k = cJSON_CreateObject();
            cJSON_AddStringToObject(k, "name", ki->name);
            cJSON_AddNumberToObject(k, "line", ki->name_span.line);
            cJSON_AddBoolToObject(k, "helper", mt_query_is_helper(m, i));
            cJSON_AddItemToArray(ks, k);
        }
        cJSON_AddItemToArray(w->files, f);
        w->count++;
    }
    free(shown);
    mt_ctx_free(c);
    free(text);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void walk(Walk *w, const char *dir, int depth)
{
    if (depth > 8 || w->count >= w->limit)
        return;
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            char **nn = realloc(names, (cap = cap ? cap * 2 : 32) * sizeof *nn);
            if (!nn)
                break;
            names = nn;
        }
        if (!(names[n] = strdup(e->d_name)))
            break;
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        char path[PATH_MAX];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (w->count < w->limit && !lstat(path, &st)) {
            size_t len = strlen(names[i]);
            if (S_ISDIR(st.st_mode) && !skipped_dir(names[i]))
                walk(w, path, depth + 1);
            else if (S_ISREG(st.st_mode) && len > 3 && !strcmp(names[i] + len - 3, ".py"))
                add_file(w, path);
        }
        free(names[i]);
    }
    free(names);
}

cJSON *mt_web_roots_list(const WebRoots *r, size_t limit)
{
    Walk w = {r, cJSON_CreateArray(), 0, limit};
    for (size_t i = 0; i < r->n; i++) {
        if (r->v[i].is_dir)
            walk(&w, r->v[i].real, 0);
        else
            add_file(&w, r->v[i].real);
    }
    return w.files;
}
