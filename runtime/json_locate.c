/* json_locate.c: see json_locate.h. A recursive scanner over the text:
 * skip_value() steps over any value; the walk follows one path segment
 * at a time, stepping over the members and elements it does not want. */
#include "json_locate.h"

#include <stddef.h>
#include <string.h>

static const char *skip_space(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

/* After the string starting at p (on its quote), or NULL. */
static const char *skip_string(const char *p)
{
    for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1])
            p++;
    return *p == '"' ? p + 1 : NULL;
}

/* After the value starting at p, or NULL; depth bounds nesting. */
static const char *skip_value(const char *p, int depth)
{
    p = skip_space(p);
    if (depth > 256)
        return NULL;
    if (*p == '"')
        return skip_string(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p = skip_space(p + 1);
        if (*p == close)
            return p + 1;
        for (;;) {
            if (close == '}') {
                if (*p != '"' || !(p = skip_string(p)))
                    return NULL;
                p = skip_space(p);
                if (*p++ != ':')
                    return NULL;
            }
            if (!(p = skip_value(p, depth + 1)))
                return NULL;
            p = skip_space(p);
            if (*p == close)
                return p + 1;
            if (*p++ != ',')
                return NULL;
            p = skip_space(p);
        }
    }
    const char *q = p;
    while (*q && (strchr("+-.eE", *q) || (*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'z')))
        q++;
    return q > p ? q : NULL;
}

/* One segment of the path: a key, or an index. */
typedef struct Seg {
    const char *key;
    size_t keylen;
    long index;               /* >= 0 for [N] */
} Seg;

static const char *next_seg(const char *path, Seg *s)
{
    if (*path == '.')
        path++;
    s->key = NULL;
    s->keylen = 0;
    s->index = -1;
    if (*path == '[') {
        long n = 0;
        for (path++; *path >= '0' && *path <= '9'; path++)
            n = n * 10 + (*path - '0');
        if (*path != ']')
            return NULL;
        s->index = n;
        return path + 1;
    }
    s->key = path;
    while (*path && *path != '.' && *path != '[')
        path++;
    s->keylen = (size_t)(path - s->key);
    return s->keylen ? path : NULL;
}

bool mt_json_locate(const char *text, const char *path, uint32_t *off, uint32_t *end)
{
    const char *p = skip_space(text);
    const char *key_at = NULL, *key_end = NULL; /* the member key the value belongs to */
    while (*path) {
        Seg s;
        if (!(path = next_seg(path, &s)))
            return false;
        if (s.key && *p == '{') {
            p = skip_space(p + 1);
            bool found = false;
            while (*p == '"') {
                const char *k = p, *ke = skip_string(p);
                if (!ke)
                    return false;
                p = skip_space(ke);
                if (*p++ != ':')
                    return false;
                p = skip_space(p);
                if ((size_t)(ke - k - 2) == s.keylen && !memcmp(k + 1, s.key, s.keylen)) {
                    key_at = k, key_end = ke, found = true;
                    break;
                }
                if (!(p = skip_value(p, 0)))
                    return false;
                p = skip_space(p);
                if (*p == ',')
                    p = skip_space(p + 1);
            }
            if (!found)
                return false;
        } else if (s.index >= 0 && *p == '[') {
            p = skip_space(p + 1);
            for (long i = 0; i < s.index; i++) {
                if (*p == ']' || !(p = skip_value(p, 0)))
                    return false;
                p = skip_space(p);
                if (*p++ != ',')
                    return false;
                p = skip_space(p);
            }
            if (*p == ']')
                return false;
            key_at = key_end = NULL;
        } else {
            return false;
        }
    }
    if (p == skip_space(text))
        return false; /* the empty path: the whole document */
    const char *ve = skip_value(p, 0);
    if (!ve)
        return false;
    bool compound = *p == '{' || *p == '[';
    if (compound && key_at) {
        *off = (uint32_t)(key_at - text);
        *end = (uint32_t)(key_end - text);
    } else {
        *off = (uint32_t)(p - text);
        *end = (uint32_t)((compound ? p + 1 : ve) - text);
    }
    return true;
}
