/* check_scan.c: from the command line's paths to the files `check` reads.
 *
 * A file named on the command line is checked whatever its extension; a
 * folder is walked recursively for *.py files, skipping hidden folders
 * (.git, .venv, ...), __pycache__, node_modules and build* folders (build
 * trees hold copies of sources), and not following symbolic links to
 * folders, so a link cycle cannot make the walk endless. Each file gets two
 * names: the path as reached from the command line (what compiler-style
 * text shows, clickable in a terminal) and its path relative to the root
 * (what SARIF, JUnit, JSON and GitHub annotations carry, so reports from
 * different working folders and machines agree). The root is --root, else
 * the top of the git work tree around the current folder, else the current
 * folder. The list is sorted by relative path and the same file named twice
 * is checked once, so reports do not depend on readdir's order. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_report.h"
#include "cli.h"

typedef struct Found {
    char *path;   /* as reached */
    char *real;   /* realpath */
} Found;

typedef struct Walk {
    CkReport *r;
    Found *v;
    size_t n, cap;
} Walk;

static bool skipped_dir(const char *name)
{
    return name[0] == '.' || !strcmp(name, "__pycache__") || !strcmp(name, "node_modules") ||
           !strncmp(name, "build", 5);
}

static bool is_py(const char *name)
{
    size_t n = strlen(name);
    return n > 3 && !strcmp(name + n - 3, ".py");
}

static char *join(CkReport *r, const char *dir, const char *name)
{
    if (!strcmp(dir, "."))
        return ck_strdup(r, name);
    size_t n = strlen(dir) + strlen(name) + 2;
    char *s = ck_alloc(r, n);
    snprintf(s, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
    return s;
}

static void add(Walk *w, char *path)
{
    char *real = realpath(path, NULL);
    if (!real) {
        free(path);
        return; /* vanished while walking */
    }
    ck_reserve(w->r, (void **)&w->v, &w->cap, w->n + 1, sizeof *w->v);
    w->v[w->n].path = path;
    w->v[w->n].real = real;
    w->n++;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool walk(Walk *w, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        cli_error("cannot read folder %s: %s", dir, strerror(errno));
        return false;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        ck_reserve(w->r, (void **)&names, &cap, n + 1, sizeof *names);
        names[n++] = ck_strdup(w->r, e->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_name);
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        char *path = join(w->r, dir, names[i]);
        struct stat st;
        if (lstat(path, &st) != 0) {
            free(path);
        } else if (S_ISDIR(st.st_mode)) {
            if (!skipped_dir(names[i]))
                ok &= walk(w, path);
            free(path);
        } else if (is_py(names[i]) && (S_ISREG(st.st_mode) || (S_ISLNK(st.st_mode) && stat(path, &st) == 0 &&
                                                                S_ISREG(st.st_mode)))) {
            add(w, path);
        } else {
            free(path);
        }
        free(names[i]);
    }
    free(names);
    return ok;
}

/* The top of the git work tree around the current folder, else it. */
static char *default_root(CkReport *r)
{
    char *cwd = getcwd(NULL, 0);
    if (!cwd)
        ck_oom(r);
    size_t n = strlen(cwd);
    char *probe = ck_alloc(r, n + 8);
    for (size_t end = n; end > 0;) {
        snprintf(probe, n + 8, "%.*s/.git", (int)end, cwd);
        if (access(probe, F_OK) == 0) {
            char *top = ck_strndup(r, cwd, end ? end : 1);
            free(probe);
            free(cwd);
            return top;
        }
        while (end > 0 && cwd[end - 1] != '/')
            end--;
        if (end > 0)
            end--; /* drop the slash */
    }
    free(probe);
    char *top = ck_strdup(r, cwd);
    free(cwd);
    return top;
}

static int cmp_found(const void *a, const void *b)
{
    const Found *x = a, *y = b;
    return strcmp(x->real, y->real);
}

/* The path of `real` relative to `root`, or NULL when it lies outside. */
static const char *relative(const char *root, const char *real)
{
    size_t n = strlen(root);
    if (n == 1 && root[0] == '/')
        return real + 1;
    if (strncmp(real, root, n) == 0 && real[n] == '/')
        return real + n + 1;
    return NULL;
}

bool ck_scan(CkReport *r, char **paths, int npaths, const char *root)
{
    if (root) {
        r->root = realpath(root, NULL);
        if (!r->root) {
            cli_error("--root %s: %s", root, strerror(errno));
            return false;
        }
    } else {
        r->root = default_root(r);
    }
    Walk w = {r, NULL, 0, 0};
    static char *const here[] = {"."};
    if (npaths == 0) {
        paths = (char **)here;
        npaths = 1;
    }
    bool ok = true;
    for (int i = 0; i < npaths && ok; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0) {
            cli_error("%s: %s", paths[i], strerror(errno));
            ok = false;
        } else if (S_ISDIR(st.st_mode)) {
            ok = walk(&w, paths[i]);
        } else {
            add(&w, ck_strdup(r, paths[i]));
        }
    }
    if (w.n)
        qsort(w.v, w.n, sizeof *w.v, cmp_found);
    for (size_t i = 0; ok && i < w.n; i++) {
        if (i == 0 || strcmp(w.v[i].real, w.v[i - 1].real)) {
            const char *rel = relative(r->root, w.v[i].real);
            ck_add_file(r, w.v[i].path, rel ? rel : w.v[i].real, rel != NULL);
        }
    }
    for (size_t i = 0; i < w.n; i++) {
        free(w.v[i].path);
        free(w.v[i].real);
    }
    free(w.v);
    return ok;
}
