/* diff.c: a line diff between two printed stages (the SSA before and after
 * an optimisation pass), for the page's pass view.
 *
 * Common leading and trailing lines are matched first; the lines between
 * are aligned by a longest common subsequence (dynamic programming over
 * the two middles). Passes change a handful of lines of a few hundred, so
 * the middles are small; past WEB_DIFF_MAX_CELLS cells the middle is shown
 * as removed-then-added instead of aligned. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

enum { WEB_DIFF_MAX_CELLS = 4 << 20 };

typedef struct Lines {
    const char **at;          /* start of each line */
    size_t *len;              /* without the newline */
    size_t n;
} Lines;

static bool split(const char *text, Lines *out)
{
    size_t n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    if (*text && text[strlen(text) - 1] != '\n')
        n++;
    out->n = 0;
    out->at = malloc((n + 1) * sizeof *out->at);
    out->len = malloc((n + 1) * sizeof *out->len);
    if (!out->at || !out->len)
        return false;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        out->at[out->n] = p;
        out->len[out->n++] = len;
        p += len + (nl ? 1 : 0);
    }
    return true;
}

static void free_lines(Lines *l)
{
    free(l->at);
    free(l->len);
}

static bool same(const Lines *a, size_t i, const Lines *b, size_t j)
{
    return a->len[i] == b->len[j] && !memcmp(a->at[i], b->at[j], a->len[i]);
}

static void emit(cJSON *out, const char *op, const Lines *l, size_t i)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "op", op);
    char *t = strndup(l->at[i], l->len[i]);
    cJSON_AddStringToObject(o, "text", t ? t : "");
    free(t);
    cJSON_AddItemToArray(out, o);
}

cJSON *mt_web_diff_lines(const char *before, const char *after)
{
    Lines a, b;
    cJSON *out = cJSON_CreateArray();
    if (!split(before, &a) | !split(after, &b)) {
        free_lines(&a);
        free_lines(&b);
        return out;
    }
    size_t pre = 0, suf = 0;
    while (pre < a.n && pre < b.n && same(&a, pre, &b, pre))
        pre++;
    while (suf < a.n - pre && suf < b.n - pre && same(&a, a.n - 1 - suf, &b, b.n - 1 - suf))
        suf++;
    for (size_t i = 0; i < pre; i++)
        emit(out, "=", &a, i);
    size_t n = a.n - pre - suf, m = b.n - pre - suf;
    uint32_t *dp = n && m && (n + 1) * (m + 1) <= WEB_DIFF_MAX_CELLS ? calloc((n + 1) * (m + 1), sizeof *dp) : NULL;
    if (dp) {
        /* dp[i][j]: LCS length of a's middle from i and b's middle from j */
        for (size_t i = n; i-- > 0;)
            for (size_t j = m; j-- > 0;)
                dp[i * (m + 1) + j] = same(&a, pre + i, &b, pre + j)
                                          ? dp[(i + 1) * (m + 1) + j + 1] + 1
                                          : (dp[(i + 1) * (m + 1) + j] > dp[i * (m + 1) + j + 1]
                                                 ? dp[(i + 1) * (m + 1) + j]
                                                 : dp[i * (m + 1) + j + 1]);
        size_t i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && same(&a, pre + i, &b, pre + j)) {
                emit(out, "=", &a, pre + i++);
                j++;
            } else if (i < n && (j == m || dp[(i + 1) * (m + 1) + j] >= dp[i * (m + 1) + j + 1])) {
                emit(out, "-", &a, pre + i++);
            } else {
                emit(out, "+", &b, pre + j++);
            }
        }
        free(dp);
    } else {
        for (size_t i = 0; i < n; i++)
            emit(out, "-", &a, pre + i);
        for (size_t j = 0; j < m; j++)
            emit(out, "+", &b, pre + j);
    }
    for (size_t i = a.n - suf; i < a.n; i++)
        emit(out, "=", &a, i);
    free_lines(&a);
    free_lines(&b);
    return out;
}
