/* util.c: messages, file I/O and diagnostic printing shared by the
 * subcommands. The command's name is the one piece of process state: it
 * prefixes every message, so that all of them read "mytriton run: ...". */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char *command = "";
static int stdout_errno;      /* why the first failed write to stdout failed, when known */

void cli_set_command(const char *name) { command = name; }

static void message(const char *kind, const char *fmt, va_list ap)
{
    fprintf(stderr, "mytriton%s%s: %s", *command ? " " : "", command, kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message("", fmt, ap);
    va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message("warning: ", fmt, ap);
    va_end(ap);
}

int cli_option_error(int ch, char **argv, const char *help)
{
    const char *arg = argv[optind - 1];
    if (ch == ':')
        cli_error("option '%s' needs a value", arg);
    else if (arg && arg[0] == '-' && arg[1] == '-')
        cli_error("unknown option '%s'", arg);
    else
        cli_error("unknown option '-%c'", optopt ? optopt : '?');
    fprintf(stderr, "\n%s", help);
    return EXIT_TROUBLE;
}

int cli_finish_stdout(int rc)
{
    errno = 0;
    bool bad = fflush(stdout) != 0 || ferror(stdout);
    int e = stdout_errno ? stdout_errno : errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = true;
        e = errno;
    }
    if (!bad)
        return rc;
    if (e)
        cli_error("cannot write standard output: %s", strerror(e));
    else
        cli_error("cannot write standard output: a write failed");
    return EXIT_TROUBLE;
}

char *cli_read_file(const char *path, MtFileKind kind, size_t *len)
{
    char *text, err[1024];
    if (mt_file_read(path, kind, &text, len, err, sizeof err) != MT_OK) {
        cli_error("%s", err);
        return NULL;
    }
    return text;
}

bool cli_write_output(const char *path, const char *text, size_t len, const MtFileSet *inputs)
{
    if (!path || !strcmp(path, "-")) {
        if (fwrite(text, 1, len, stdout) != len && !stdout_errno)
            stdout_errno = errno;
        return true;
    }
    char err[1024];
    if (mt_file_write(path, text, len, inputs, err, sizeof err) != MT_OK) {
        cli_error("%s", err);
        return false;
    }
    return true;
}

void cli_cache_warning(MtKcache *cache)
{
    char msg[1024];
    if (cache && mt_kcache_warning(cache, msg, sizeof msg))
        cli_warn("%s", msg);
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

bool cli_parse_num_stages(const char *arg, int *out)
{
    char *end;
    long n = strtol(arg, &end, 10);
    if (!*arg || *end || n < 1 || n > MT_NUM_STAGES_MAX) {
        cli_error("--num-stages takes a number of stages from 1 to %d, got '%s'", MT_NUM_STAGES_MAX, arg);
        return false;
    }
    *out = (int)n;
    return true;
}
