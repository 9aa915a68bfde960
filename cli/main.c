/* main.c: the mytriton command. Each subcommand lives in cmd_<name>.c and
 * returns the process exit status; only this file exits, after checking
 * that standard output took everything written to it. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: mytriton <command> [options]\n"
    "       mytriton --version\n"
    "\n"
    "commands:\n"
    "  compile FILE.py   compile a kernel and print its stages (ast, expr, ssa, ...)\n"
    "  check [PATH...]   compile every kernel in files and folders: the CI gate\n"
    "  run SPEC.json     run a launch spec on the CPU interpreter or the GPU and summarise its arrays\n"
    "  lsp               the language server for editors (JSON-RPC on stdin/stdout)\n"
    "  serve [PATH...]   the dashboard: edit, inspect, run and profile kernels in the browser\n"
    "  worker            run launches for a server: JSON lines on stdin/stdout, each in its own process\n"
    "\n"
    "Run 'mytriton <command> --help' for a command's options, 'mytriton --version' for the version.\n"
    "Exit status: 0 success, 1 errors in the inputs (source, spec, results), 2 the command could not\n"
    "run as asked (options, unreadable or unwritable files, no GPU).\n";

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"compile", cmd_compile},
    {"check", cmd_check},
    {"run", cmd_run},
    {"lsp", cmd_lsp},
    {"serve", cmd_serve},
    {"worker", cmd_worker},
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return EXIT_TROUBLE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage, stdout);
        return cli_finish_stdout(EXIT_OK);
    }
    if (!strcmp(argv[1], "--version")) {
        puts("mytriton " MT_VERSION);
        return cli_finish_stdout(EXIT_OK);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(argv[1], commands[i].name))
            continue;
        cli_set_command(commands[i].name);
        return cli_finish_stdout(commands[i].run(argc - 1, argv + 1));
    }
    cli_error("unknown command '%s'", argv[1]);
    fprintf(stderr, "\n%s", usage);
    return EXIT_TROUBLE;
}
