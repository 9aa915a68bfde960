/* cmd_lsp.c: `mytriton lsp` — the language server on stdin/stdout.
 *
 *   mytriton lsp [--stdio] [--rules-url URL] [--with CMD [ARG...]]
 *
 * The server itself is the mt_lsp library (lsp/); this file finds the
 * rule pages for diagnostic links (docs/rules/ next to the executable's
 * tree, unless --rules-url says otherwise) and ignores SIGPIPE so a client
 * that goes away ends the session through a failed write, not a signal. */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#ifdef MT_HAVE_LSP
#include "mytriton/lsp.h"
#endif

static const char help[] =
    "usage: mytriton lsp [--stdio] [--rules-url URL] [--with CMD [ARG...]]\n"
    "\n"
    "Run the mytriton language server (LSP 3.17, JSON-RPC on stdin/stdout).\n"
    "\n"
    "  --stdio            accepted for editors that pass it; stdio is the only transport\n"
    "  --rules-url URL    base of the rule pages linked from diagnostics\n"
    "                     (default: docs/rules/ of this installation, when found)\n"
    "  --with CMD ARG...  also run the language server CMD (the rest of the line, e.g.\n"
    "                     --with pylsp) and serve both as one: for editors that run one\n"
    "                     server per buffer (Emacs's eglot)\n"
    "  -h, --help         this help\n";

#ifdef MT_HAVE_LSP
/* file:///.../docs/rules/ for the tree this executable was built in or
 * installed to, or NULL. */
static char *find_rules(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = 0;
    static const char *const rel[] = {"/../docs/rules", "/../../docs/rules", "/../share/doc/mytriton/rules"};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        char cand[PATH_MAX + 64], real[PATH_MAX];
        snprintf(cand, sizeof cand, "%s%s", exe, rel[i]);
        struct stat st;
        if (stat(cand, &st) || !S_ISDIR(st.st_mode) || !realpath(cand, real))
            continue;
        char *url = malloc(strlen(real) + 16);
        if (url)
            sprintf(url, "file://%s/", real);
        return url;
    }
    return NULL;
}
#endif

int cmd_lsp(int argc, char **argv)
{
    const char *rules = NULL;
    char **with = NULL;
    for (int i = 1; i < argc && !with; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(help, stdout);
            return EXIT_OK;
        } else if (!strcmp(argv[i], "--stdio")) {
            continue;
        } else if (!strcmp(argv[i], "--rules-url") && i + 1 < argc) {
            rules = argv[++i];
        } else if (!strncmp(argv[i], "--rules-url=", 12)) {
            rules = argv[i] + 12;
        } else if (!strcmp(argv[i], "--with") && i + 1 < argc) {
            with = argv + i + 1; /* argv is NULL-terminated */
        } else {
            cli_error("unknown option '%s'", argv[i]);
            fprintf(stderr, "\n%s", help);
            return EXIT_TROUBLE;
        }
    }
#ifdef MT_HAVE_LSP
    signal(SIGPIPE, SIG_IGN);
    char *found = rules ? NULL : find_rules();
    MtLspOptions opt = {.rules_url = rules ? rules : found, .with = with};
    int status = mt_lsp_serve(STDIN_FILENO, STDOUT_FILENO, &opt);
    free(found);
    return status;
#else
    (void)rules;
    (void)with;
    cli_error("this build has no language server (lsp/ was not built)");
    return EXIT_TROUBLE;
#endif
}
