/* package.c: the other modules of a document's folder, where a package
 * launches the kernels a module defines (`ops.py` launching the kernels
 * of `kernels.py`).
 *
 * Asked only when a kernel of the document has no launch in its own file.
 * Every other `.py` file of the folder that names one of the document's
 * kernels is parsed into the document's context (its own text when it is
 * open in the editor, else the file on disk; at most MAX_FILES files of at
 * most MAX_BYTES each), for the discovery to search. Their diagnostics are
 * theirs: the document's views keep to its own file
 * (mt_lsp_diag_in_doc). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"

enum { MAX_FILES = 32, MAX_BYTES = 1 << 20 };

static char *read_small(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(MAX_BYTES + 1);
    size_t n = buf ? fread(buf, 1, MAX_BYTES + 1, f) : 0;
    fclose(f);
    if (!buf || n > MAX_BYTES) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

static bool names_a_kernel(const Doc *d, const char *text)
{
    for (size_t i = 0; i < d->nkernels; i++)
        if (strstr(text, d->kernels[i].info->name))
            return true;
    return false;
}

size_t mt_lsp_package_modules(Server *s, Doc *d, const MtModule ***out)
{
    *out = NULL;
    const char *slash = d->path ? strrchr(d->path, '/') : NULL;
    if (!slash || d->path[0] != '/')
        return 0;
    char *dir = strndup(d->path, (size_t)(slash - d->path) + 1);
    DIR *dh = dir ? opendir(dir) : NULL;
    const MtModule **mods = calloc(MAX_FILES + 1, sizeof *mods);
    size_t n = 0;
    struct dirent *e;
    while (dh && mods && n < MAX_FILES && (e = readdir(dh)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".py") || !strcmp(e->d_name, slash + 1))
            continue;
        char *path = malloc(strlen(dir) + len + 1);
        if (!path)
            break;
        sprintf(path, "%s%s", dir, e->d_name);
        char *uri = mt_lsp_path_to_uri(path);
        const Doc *open = uri ? mt_lsp_docs_find(&s->docs, uri) : NULL;
        size_t tlen = open ? open->len : 0;
        char *text = open ? NULL : read_small(path, &tlen);
        const char *src = open ? open->text : text;
        MtModule *m = NULL;
        if (src && names_a_kernel(d, src))
            mt_parse(d->ctx, path, src, tlen, &m);
        if (m)
            mods[n++] = m;
        free(text);
        free(uri);
        free(path);
    }
    if (dh)
        closedir(dh);
    free(dir);
    if (!n) {
        free(mods);
        return 0;
    }
    *out = mods;
    return n;
}

bool mt_lsp_diag_in_doc(const Doc *d, const MtDiag *g)
{
    return !g->span.file || !d->nkernels || g->span.file == d->kernels[0].info->span.file;
}
