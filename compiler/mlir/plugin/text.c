/* text.c: a module printed, each line marked with the source range of the
 * statement whose operation it shows.
 *
 * MLIR's printer lays the text out; it has no interface that says which
 * operation a line shows. The backend made every location itself, so it
 * asks the printer a second time with locations shown (pretty form: each
 * operation's `loc(...)` at the end of its line, a region operation's
 * after its closing brace) and looks each line's trailing location up
 * among the locations it made, printed by the same printer
 * (mlirLocationPrint): an exact match of the printer's own rendering of a
 * known value, no parsing. Both prints lay out the same lines. A region
 * operation's header line takes the mark of its closing line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

void str_add(Str *s, const char *p, size_t n)
{
    if (s->oom)
        return;
    if (s->n + n + 1 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 4096;
        while (cap < s->n + n + 1)
            cap *= 2;
        char *q = realloc(s->s, cap);
        if (!q) {
            s->oom = true;
            return;
        }
        s->s = q;
        s->cap = cap;
    }
    memcpy(s->s + s->n, p, n);
    s->n += n;
    s->s[s->n] = 0;
}

void str_printf(Str *s, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0)
        str_add(s, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

void str_free(Str *s)
{
    free(s->s);
    memset(s, 0, sizeof *s);
}

static void to_str(MlirStringRef r, void *ud) { str_add(ud, r.data, r.length); }

static void print(MlirOperation op, bool locs, Str *out)
{
    MlirOpPrintingFlags fl = mlirOpPrintingFlagsCreate();
    mlirOpPrintingFlagsPrintNameLocAsPrefix(fl);
    if (locs) {
        /* inline, in the form mlirLocationPrint gives (no #loc aliases) */
        mlirOpPrintingFlagsEnableDebugInfo(fl, true, false);
        mlirOpPrintingFlagsUseLocalScope(fl);
    }
    mlirOperationPrintWithFlags(op, fl, to_str, out);
    mlirOpPrintingFlagsDestroy(fl);
    while (out->n && out->s[out->n - 1] == '\n')   /* one newline at the end, whatever the flags */
        out->s[--out->n] = 0;
    str_add(out, "\n", 1);
}

/* Line starts of s (0-terminated lines replace the newlines). */
static char **split(char *s, uint32_t *n)
{
    uint32_t cap = 64;
    char **lines = malloc(cap * sizeof *lines);
    *n = 0;
    for (char *p = s; lines && *p;) {
        if (*n == cap) {
            char **q = realloc(lines, (cap *= 2) * sizeof *lines);
            if (!q) {
                free(lines);
                return NULL;
            }
            lines = q;
        }
        lines[(*n)++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = 0;
        p = nl + 1;
    }
    return lines;
}

static const char *trim(const char *s)
{
    while (*s == ' ')
        s++;
    return s;
}

static bool ends_with_brace(const char *s)
{
    size_t n = strlen(s);
    return n && s[n - 1] == '{';
}

bool em_print(Em *e, MlirOperation op, MtMlirText *out)
{
    Str plain = {0}, dbg = {0};
    print(op, false, &plain);
    print(op, true, &dbg);
    out->text = plain.s ? strdup(plain.s) : NULL;
    /* the printed form of every location the backend made */
    char **locstr = calloc(e->nlocs + 1, sizeof *locstr);
    for (uint32_t i = 0; locstr && i < e->nlocs; i++) {
        Str ls = {0};
        str_add(&ls, " ", 1);
        mlirLocationPrint(e->locs[i].loc, to_str, &ls);
        locstr[i] = ls.s;
    }
    uint32_t np = 0, nd = 0;
    char **pl = plain.s ? split(plain.s, &np) : NULL, **dl = dbg.s ? split(dbg.s, &nd) : NULL;
    bool ok = out->text && locstr && pl && dl && !plain.oom && !dbg.oom;
    if (ok && np == nd) {
        out->marks = calloc(np + 1, sizeof *out->marks);
        uint32_t *stack = calloc(np + 1, sizeof *stack), depth = 0;
        int32_t *mark_of = malloc((np + 1) * sizeof *mark_of);
        for (uint32_t l = 0; out->marks && stack && mark_of && l < np; l++) {
            mark_of[l] = -1;
            size_t len = strlen(dl[l]);
            for (uint32_t i = 0; i < e->nlocs && mark_of[l] < 0; i++) {
                size_t k = locstr[i] ? strlen(locstr[i]) : 0;
                if (k && k <= len && !memcmp(dl[l] + len - k, locstr[i], k))
                    mark_of[l] = (int32_t)i;
            }
            const char *t = trim(pl[l]);
            if (*t == '}' && !ends_with_brace(t)) {
                uint32_t head = depth ? stack[--depth] : l;
                if (mark_of[l] >= 0 && mark_of[head] < 0)
                    mark_of[head] = mark_of[l];
            } else if (*t != '}' && ends_with_brace(t)) {
                stack[depth++] = l;
            }
        }
        for (uint32_t l = 0; out->marks && stack && mark_of && l < np; l++)
            if (mark_of[l] >= 0) {
                const LocRec *r = &e->locs[mark_of[l]];
                out->marks[out->nmarks++] = (MtMlirMark){l + 1, r->span, r->inl};
            }
        free(stack);
        free(mark_of);
    }
    for (uint32_t i = 0; locstr && i < e->nlocs; i++)
        free(locstr[i]);
    free(locstr);
    free(pl);
    free(dl);
    str_free(&plain);
    str_free(&dbg);
    if (!ok)
        em_diag(e, "E1004", (MtSpan){0}, 0, "the MLIR backend ran out of memory printing the module");
    return ok;
}
