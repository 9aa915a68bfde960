/* util.c: file I/O and diagnostic printing shared by the subcommands. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

char *cli_read_file(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) {
        fprintf(stderr, "mytriton: cannot open %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fprintf(stderr, "mytriton: out of memory reading %s\n", path);
            break;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
        if (n + 1 == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    bool err = ferror(f);
    if (f != stdin)
        fclose(f);
    if (!buf)
        return NULL;
    if (err) {
        fprintf(stderr, "mytriton: cannot read %s: %s\n", path, strerror(errno));
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

bool cli_write_output(const char *path, const char *text, size_t len)
{
    if (!path || !strcmp(path, "-")) {
        fwrite(text, 1, len, stdout);
        return !ferror(stdout);
    }
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 32);
    if (!tmp)
        return false;
    snprintf(tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = false;
    if (ok && rename(tmp, path) != 0)
        ok = false;
    if (!ok) {
        fprintf(stderr, "mytriton: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
    }
    free(tmp);
    return ok;
}

void cli_print_diags(MtCtx *c, bool color)
{
    for (size_t i = 0; i < mt_diag_count(c); i++)
        fputs(mt_diag_render(c, mt_diag_at(c, i), color), stderr);
}

void cli_print_diags_short(MtCtx *c)
{
    for (size_t i = 0; i < mt_diag_count(c); i++) {
        const MtDiag *d = mt_diag_at(c, i);
        fprintf(stderr, "%s %s %u:%u-%u:%u: %s\n", mt_severity_name(d->sev), d->code ? d->code : "-", d->span.line, d->span.col,
                d->span.end_line, d->span.end_col, d->msg);
        for (uint32_t k = 0; k < d->nnotes; k++) {
            const MtSpan *s = &d->notes[k].span;
            fprintf(stderr, "  note %u:%u-%u:%u: %s\n", s->line, s->col, s->end_line, s->end_col, d->notes[k].msg);
        }
    }
}

bool cli_color(const char *mode)
{
    if (mode && !strcmp(mode, "always"))
        return true;
    if (mode && !strcmp(mode, "never"))
        return false;
    const char *nc = getenv("NO_COLOR");
    return isatty(2) && !(nc && *nc);
}

bool cli_parse_define(char *arg, MtDefine *out)
{
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        return false;
    *eq = 0;
    out->name = arg;
    out->value = eq + 1;
    return true;
}
