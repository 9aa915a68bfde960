/* documents.c: the text store of the open documents and the conversion
 * between LSP positions and byte offsets.
 *
 * Text is kept as the client sent it (bytes, possibly invalid UTF-8); the
 * line table is rebuilt after every edit, which is linear and cheap next
 * to a recompile. Lines end at \n, \r\n or \r, as in LSP and Python. */
#include "documents.h"
#include "server.h"

#include <stdlib.h>
#include <string.h>

size_t mt_lsp_utf8_char(const unsigned char *s, size_t n, unsigned *units)
{
    *units = 1;
    if (n == 0 || s[0] < 0x80)
        return 1;
    size_t len;
    uint32_t cp;
    if ((s[0] & 0xe0) == 0xc0) {
        len = 2;
        cp = s[0] & 0x1f;
    } else if ((s[0] & 0xf0) == 0xe0) {
        len = 3;
        cp = s[0] & 0x0f;
    } else if ((s[0] & 0xf8) == 0xf0) {
        len = 4;
        cp = s[0] & 0x07;
    } else {
        return 1;
    }
    if (len > n)
        return 1;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 1;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    /* Overlong forms, surrogates and values past U+10FFFF are invalid. */
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 1;
    *units = len == 4 ? 2 : 1;
    return len;
}

static bool index_lines(Doc *d)
{
    uint32_t n = 1;
    for (size_t i = 0; i < d->len; i++)
        if (d->text[i] == '\n' || (d->text[i] == '\r' && (i + 1 >= d->len || d->text[i + 1] != '\n')))
            n++;
    if (n > d->lines_cap) {
        uint32_t *nl = realloc(d->lines, (size_t)n * sizeof *nl);
        if (!nl)
            return false;
        d->lines = nl;
        d->lines_cap = n;
    }
    d->lines[0] = 0;
    uint32_t k = 1;
    for (size_t i = 0; i < d->len; i++)
        if (d->text[i] == '\n' || (d->text[i] == '\r' && (i + 1 >= d->len || d->text[i + 1] != '\n')))
            d->lines[k++] = (uint32_t)(i + 1);
    d->nlines = k;
    return true;
}

static bool reserve(Doc *d, size_t len)
{
    if (len + 1 <= d->cap)
        return true;
    size_t cap = d->cap ? d->cap : 256;
    while (cap < len + 1)
        cap *= 2;
    char *t = realloc(d->text, cap);
    if (!t)
        return false;
    d->text = t;
    d->cap = cap;
    return true;
}

bool mt_lsp_doc_set_text(Doc *d, const char *text, size_t len)
{
    if (len >= UINT32_MAX || !reserve(d, len))
        return false;
    memcpy(d->text, text, len);
    d->text[len] = 0;
    d->len = len;
    d->dirty = true;
    return index_lines(d);
}

bool mt_lsp_doc_edit(Doc *d, uint32_t off, uint32_t end, const char *text, size_t len)
{
    if (off > d->len)
        off = (uint32_t)d->len;
    if (end < off)
        end = off;
    if (end > d->len)
        end = (uint32_t)d->len;
    size_t nlen = d->len - (end - off) + len;
    if (nlen >= UINT32_MAX || !reserve(d, nlen))
        return false;
    memmove(d->text + off + len, d->text + end, d->len - end + 1);
    memcpy(d->text + off, text, len);
    d->len = nlen;
    d->dirty = true;
    return index_lines(d);
}

/* End of line `l`'s content (before its terminator). */
static uint32_t line_end(const Doc *d, uint32_t l)
{
    uint32_t e = l + 1 < d->nlines ? d->lines[l + 1] : (uint32_t)d->len;
    while (e > d->lines[l] && (d->text[e - 1] == '\n' || d->text[e - 1] == '\r'))
        e--;
    return e;
}

bool mt_lsp_doc_offset(const Doc *d, PosEncoding enc, int64_t line, int64_t character, uint32_t *off)
{
    if (line < 0 || character < 0)
        return false;
    if ((uint64_t)line >= d->nlines) {
        *off = (uint32_t)d->len;
        return true;
    }
    uint32_t p = d->lines[line], e = line_end(d, (uint32_t)line);
    const unsigned char *s = (const unsigned char *)d->text;
    int64_t units = 0;
    while (p < e && units < character) {
        unsigned u;
        size_t n = mt_lsp_utf8_char(s + p, e - p, &u);
        units += enc == ENC_UTF8 ? (int64_t)n : u;
        if (units > character)
            break; /* inside a character: stay at its start */
        p += (uint32_t)n;
    }
    *off = p;
    return true;
}

uint32_t mt_lsp_doc_line_of(const Doc *d, uint32_t off)
{
    uint32_t lo = 0, hi = d->nlines;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (d->lines[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

void mt_lsp_doc_position(const Doc *d, PosEncoding enc, uint32_t off, uint32_t *line, uint32_t *character)
{
    if (off > d->len)
        off = (uint32_t)d->len;
    uint32_t l = mt_lsp_doc_line_of(d, off);
    uint32_t p = d->lines[l], e = line_end(d, l);
    if (off > e)
        off = e;
    const unsigned char *s = (const unsigned char *)d->text;
    uint32_t units = 0;
    while (p < off) {
        unsigned u;
        size_t n = mt_lsp_utf8_char(s + p, e - p, &u);
        if (p + n > off)
            break;
        units += enc == ENC_UTF8 ? (uint32_t)n : u;
        p += (uint32_t)n;
    }
    *line = l;
    *character = units;
}

/* ---- URIs ---------------------------------------------------------------------------- */

static int hexval(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

char *mt_lsp_uri_to_path(const char *uri)
{
    if (strncmp(uri, "file://", 7))
        return NULL;
    const char *p = uri + 7;
    if (*p != '/') { /* file://host/path: skip the authority */
        p = strchr(p, '/');
        if (!p)
            return NULL;
    }
    char *out = malloc(strlen(p) + 1);
    if (!out)
        return NULL;
    size_t k = 0;
    for (; *p && *p != '?' && *p != '#'; p++) {
        if (*p == '%' && hexval(p[1]) >= 0 && hexval(p[2]) >= 0) {
            out[k++] = (char)(hexval(p[1]) * 16 + hexval(p[2]));
            p += 2;
        } else {
            out[k++] = *p;
        }
    }
    out[k] = 0;
    return out;
}

char *mt_lsp_path_to_uri(const char *path)
{
    static const char keep[] = "/-._~!$&'()*+,;=:@";
    size_t n = strlen(path);
    char *out = malloc(7 + 3 * n + 1);
    if (!out)
        return NULL;
    memcpy(out, "file://", 7);
    size_t k = 7;
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr(keep, *p)) {
            out[k++] = (char)*p;
        } else {
            static const char hex[] = "0123456789ABCDEF";
            out[k++] = '%';
            out[k++] = hex[*p >> 4];
            out[k++] = hex[*p & 15];
        }
    }
    out[k] = 0;
    return out;
}

/* ---- the store --------------------------------------------------------------------------- */

static void doc_free(Doc *d)
{
    if (!d)
        return;
    mt_ctx_free(d->ctx);
    mt_lsp_analysis_free(&d->good);
    free(d->uri);
    free(d->path);
    free(d->text);
    free(d->lines);
    mt_lsp_kernels_free(d->kernels, d->nkernels);
    free(d->config_error);
    free(d);
}

Doc *mt_lsp_docs_find(const Docs *ds, const char *uri)
{
    for (size_t i = 0; i < ds->n; i++)
        if (!strcmp(ds->v[i]->uri, uri))
            return ds->v[i];
    return NULL;
}

Doc *mt_lsp_docs_open(Docs *ds, const char *uri, const char *text, size_t len, int64_t version)
{
    mt_lsp_docs_close(ds, uri); /* a second didOpen replaces the document */
    if (ds->n == ds->cap) {
        size_t cap = ds->cap ? ds->cap * 2 : 8;
        Doc **v = realloc(ds->v, cap * sizeof *v);
        if (!v)
            return NULL;
        ds->v = v;
        ds->cap = cap;
    }
    Doc *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->uri = strdup(uri);
    d->path = mt_lsp_uri_to_path(uri);
    if (!d->path)
        d->path = strdup(uri);
    d->ctx = mt_ctx_new(NULL);
    d->version = version;
    if (!d->uri || !d->path || !d->ctx || !mt_lsp_doc_set_text(d, text, len)) {
        doc_free(d);
        return NULL;
    }
    ds->v[ds->n++] = d;
    return d;
}

void mt_lsp_docs_close(Docs *ds, const char *uri)
{
    for (size_t i = 0; i < ds->n; i++)
        if (!strcmp(ds->v[i]->uri, uri)) {
            doc_free(ds->v[i]);
            ds->v[i] = ds->v[--ds->n];
            return;
        }
}

void mt_lsp_docs_free(Docs *ds)
{
    for (size_t i = 0; i < ds->n; i++)
        doc_free(ds->v[i]);
    free(ds->v);
    memset(ds, 0, sizeof *ds);
}
