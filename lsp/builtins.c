/* builtins.c: the triton.language API for hover, completion and
 * signature help, from the compiler's builtins table (mt_api_*): the
 * same rows the frontend binds, so the editor offers exactly what
 * compiles, with Triton's parameter lists and mytriton's notes.
 *
 * What stays here is how a document names the module: `tl`, any alias
 * an import gives triton.language (`import triton.language as lang`,
 * `from triton import language as tl`), or `triton.language` itself. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"
#include "text.h"

enum { K_MODULE = 9, K_FUNCTION = 3, K_CLASS = 7, K_CONSTANT = 21 };

static const char tl_path[] = "triton.language.";

static bool ident_char(char ch) { return isalnum((unsigned char)ch) || ch == '_'; }

/* Whether a line `import ... language as NAME` or `from ... import
 * language as NAME` binds the n-byte name at text+at: the fallback while
 * the code around the cursor does not parse. */
static bool alias_line(const Doc *d, uint32_t at, uint32_t n)
{
    for (uint32_t l = 0; l < d->nlines; l++) {
        const char *s = d->text + d->lines[l];
        const char *e = l + 1 < d->nlines ? d->text + d->lines[l + 1] : d->text + d->len;
        if (strncmp(s, "import ", 7) && strncmp(s, "from ", 5))
            continue;
        const char *lang = strstr(s, "language");
        const char *as = strstr(s, " as ");
        if (!lang || !as || lang > e || as > e || as < lang)
            continue;
        as += 4;
        if ((size_t)(e - as) >= n && !strncmp(as, d->text + at, n) && (as + n == e || !ident_char(as[n])))
            return true;
    }
    return false;
}

/* Whether the import that binds the name at `at` brings in triton.language. */
static bool imports_language(Doc *d, uint32_t at, uint32_t n)
{
    MtQueryDef def;
    if (!d->m || !mt_query_definition(d->m, at, &def) || def.def.end > d->len)
        return alias_line(d, at, n) || (n == 2 && !strncmp(d->text + at, "tl", 2));
    if (def.kind != MT_DEF_IMPORT)
        return false;
    /* The import statement's line: `import triton.language as tl`,
     * `from triton import language as tl`. */
    uint32_t b = def.def.off, e = def.def.end;
    while (b > 0 && d->text[b - 1] != '\n')
        b--;
    while (e < d->len && d->text[e] != '\n')
        e++;
    for (uint32_t i = b; i + 8 <= e; i++)
        if (!strncmp(d->text + i, "language", 8))
            return true;
    return false;
}

bool mt_lsp_tl_module_at(Doc *d, uint32_t dot)
{
    if (dot == 0 || dot >= d->len || d->text[dot] != '.')
        return false;
    uint32_t e = dot, b = dot;
    while (b > 0 && ident_char(d->text[b - 1]))
        b--;
    if (b == e)
        return false;
    if (e - b == 8 && !strncmp(d->text + b, "language", 8) && b > 0 && d->text[b - 1] == '.')
        return true; /* triton.language.x */
    if (b > 0 && d->text[b - 1] == '.')
        return false;
    return imports_language(d, b, e - b);
}

const MtApiEntry *mt_lsp_tl_find(const char *name, size_t len)
{
    char path[128];
    if (len + sizeof tl_path >= sizeof path)
        return NULL;
    snprintf(path, sizeof path, "%s%.*s", tl_path, (int)len, name);
    return mt_api_find(path);
}

const char *mt_lsp_tl_name(const MtApiEntry *e)
{
    return strncmp(e->path, tl_path, sizeof tl_path - 1) || strchr(e->path + sizeof tl_path - 1, '.')
               ? NULL
               : e->path + sizeof tl_path - 1;
}

int mt_lsp_tl_kind(const MtApiEntry *e)
{
    switch (e->kind) {
    case MT_API_MODULE: return K_MODULE;
    case MT_API_FUNCTION: return !strcmp(e->path, "triton.language.constexpr") ? K_CLASS : K_FUNCTION;
    case MT_API_DTYPE:
    case MT_API_CONSTANT: return K_CONSTANT;
    }
    return K_FUNCTION;
}

/* "tl.load(pointer, mask=None, ...)"; a function taking any arguments
 * shows `*args`. */
static void signature(Text *t, const MtApiEntry *e)
{
    if (e->kind != MT_API_FUNCTION || !strcmp(e->path, "triton.language.constexpr"))
        mt_lsp_text_puts(t, e->name);
    else
        mt_lsp_text_printf(t, "%s(%s)", e->name, e->params ? e->params : "*args");
}

char *mt_lsp_tl_signature(const MtApiEntry *e)
{
    Text t = {0};
    signature(&t, e);
    char *s = t.failed ? NULL : strdup(mt_lsp_text_str(&t));
    mt_lsp_text_free(&t);
    return s;
}

char *mt_lsp_tl_markdown(const MtApiEntry *e, bool markdown)
{
    Text t = {0};
    if (markdown)
        mt_lsp_text_puts(&t, "```python\n");
    signature(&t, e);
    mt_lsp_text_printf(&t, markdown ? "\n```\n%s" : "\n%s", e->doc ? e->doc : "");
    if (e->returns && e->returns[0])
        mt_lsp_text_printf(&t, markdown ? "\n\n*returns* %s" : "\nreturns %s", e->returns);
    const char *p = e->param_docs;
    for (bool first = true; p && *p; first = false) {
        size_t n = strcspn(p, "\n"), colon = strcspn(p, ":");
        if (colon < n)
            mt_lsp_text_printf(&t, markdown ? "%s- `%.*s`:%.*s" : "%s- %.*s:%.*s", first ? "\n\n" : "\n",
                               (int)colon, p, (int)(n - colon - 1), p + colon + 1);
        p += n + (p[n] == '\n');
    }
    char *s = t.failed ? NULL : strdup(mt_lsp_text_str(&t));
    mt_lsp_text_free(&t);
    return s;
}

int mt_lsp_tl_params(const MtApiEntry *e, TlParam *out, int max)
{
    int n = 0;
    const char *p = e->params;
    while (p && *p && n < max) {
        p += strspn(p, " ");
        size_t len = 0;
        int depth = 0;
        while (p[len] && (depth > 0 || p[len] != ',')) {
            depth += (p[len] == '(' || p[len] == '[') - (p[len] == ')' || p[len] == ']');
            len++;
        }
        const char *name = p + strspn(p, "*");
        size_t nlen = 0;
        while (name + nlen < p + len && ident_char(name[nlen]))
            nlen++;
        out[n] = (TlParam){name, nlen, "", 0};
        for (const char *d = e->param_docs; d && *d;) { /* its line of param_docs */
            size_t dl = strcspn(d, "\n");
            if (dl > nlen && !strncmp(d, name, nlen) && d[nlen] == ':') {
                out[n].doc = d + nlen + 1 + (d[nlen + 1] == ' ');
                out[n].doclen = dl - (size_t)(out[n].doc - d);
            }
            d += dl + (d[dl] == '\n');
        }
        n++;
        p += len + (p[len] == ',');
    }
    return n;
}

bool mt_lsp_tl_attribute(Doc *d, uint32_t off, uint32_t *start, uint32_t *end, const MtApiEntry **f)
{
    if (off > d->len)
        return false;
    uint32_t b = off, e = off;
    while (b > 0 && ident_char(d->text[b - 1]))
        b--;
    while (e < d->len && ident_char(d->text[e]))
        e++;
    if (b == e || b == 0 || !mt_lsp_tl_module_at(d, b - 1))
        return false;
    *f = mt_lsp_tl_find(d->text + b, e - b);
    *start = b;
    *end = e;
    return *f != NULL;
}

