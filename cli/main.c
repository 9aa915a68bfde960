/* main.c: the mytriton command. Each subcommand lives in cmd_<name>.c and
 * returns the process exit status; only this file exits. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: mytriton <command> [options]\n"
    "\n"
    "commands:\n"
    "  compile FILE.py   compile a kernel and print its stages (ast, expr, ssa, ...)\n"
    "  check [PATH...]   compile every kernel in files and folders: the CI gate\n"
    "  run SPEC.json     run a launch spec in the CPU interpreter and summarise its arrays\n"
    "  lsp               the language server for editors (JSON-RPC on stdin/stdout)\n"
    "\n"
    "Run 'mytriton <command> --help' for a command's options.\n";

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        puts("mytriton 0.1.0");
        return EXIT_OK;
    }
    if (!strcmp(argv[1], "compile"))
        return cmd_compile(argc - 1, argv + 1);
    if (!strcmp(argv[1], "check"))
        return cmd_check(argc - 1, argv + 1);
    if (!strcmp(argv[1], "run"))
        return cmd_run(argc - 1, argv + 1);
    if (!strcmp(argv[1], "lsp"))
        return cmd_lsp(argc - 1, argv + 1);
    fprintf(stderr, "mytriton: unknown command '%s'\n\n%s", argv[1], usage);
    return EXIT_USAGE;
}
