/* cli.h: shared pieces of the mytriton command's subcommands. */
#ifndef MT_CLI_H
#define MT_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "mytriton/mytriton.h"

/* Exit codes: 0 success, 1 errors in the input (source, spec, mismatch),
 * 2 bad usage. */
enum { EXIT_OK = 0, EXIT_ERRORS = 1, EXIT_USAGE = 2 };

int cmd_compile(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_lsp(int argc, char **argv);

/* Read a whole file ("-" = stdin) into a malloc'ed, NUL-terminated buffer. */
char *cli_read_file(const char *path, size_t *len);
/* Write text to path atomically (temp file + rename), or to stdout for
 * NULL / "-". Returns false after printing an error. */
bool cli_write_output(const char *path, const char *text, size_t len);
/* Print every diagnostic of the context to stderr, compiler style, or in
 * the short golden-test form "error E0401 5:9-5:14: message" (no path). */
void cli_print_diags(MtCtx *c, bool color);
void cli_print_diags_short(MtCtx *c);
/* Whether to colour stderr: --color=always|never|auto. */
bool cli_color(const char *mode);
/* Parse "NAME=VALUE" into a define (pointers into arg). */
bool cli_parse_define(char *arg, MtDefine *out);

#endif
