/* cli.h: shared pieces of the mytriton command's subcommands. */
#ifndef MT_CLI_H
#define MT_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "fileio.h"
#include "kcache.h"
#include "mytriton/mytriton.h"

/* Exit statuses, one rule for every command (docs/cli.md):
 *  0  success;
 *  1  the inputs were read and something in them is wrong: errors in a
 *     kernel source, a launch spec or a .npy file, a runtime fault, a
 *     mismatch, a failing check, a kernel NVRTC or the GPU rejects;
 *  2  the command could not do what was asked: bad options or option
 *     values, an input that cannot be read (missing, a folder, a FIFO,
 *     over its size limit), an output that cannot be written (standard
 *     output included), no CUDA driver or device, out of memory. */
enum { EXIT_OK = 0, EXIT_ERRORS = 1, EXIT_TROUBLE = 2 };

int cmd_compile(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_lsp(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_worker(int argc, char **argv);

/* The command being run, for the prefix of every message: "mytriton
 * compile: ..." (main sets it before calling the command). */
void cli_set_command(const char *name);
/* "mytriton <command>: message" on stderr; cli_warn adds "warning: ". */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A getopt_long error (optstring starting with ':'): ':' a missing value,
 * '?' an unknown option. Prints it and the help; returns EXIT_TROUBLE. */
int cli_option_error(int ch, char **argv, const char *help);
/* Flush standard output and check that everything written to it arrived
 * (a full disk, a closed pipe): otherwise say so and turn rc into
 * EXIT_TROUBLE. main calls it after every command. */
int cli_finish_stdout(int rc);

/* Read a whole file ("-" = stdin) of a kind (fileio.h: regular files
 * within the kind's size limit) into a malloc'ed, NUL-terminated buffer;
 * NULL after printing why. */
char *cli_read_file(const char *path, MtFileKind kind, size_t *len);
/* Write text to stdout (path NULL or "-"; errors surface in
 * cli_finish_stdout), or to path through fileio.h's rules (atomic
 * replacement, special files in place, never over one of `inputs`).
 * Returns false after printing an error. */
bool cli_write_output(const char *path, const char *text, size_t len, const MtFileSet *inputs);
/* The kernel cache's warning (a folder that cannot be written), once. */
void cli_cache_warning(MtKcache *cache);
/* Print every diagnostic of the context to stderr, compiler style, or in
 * the short golden-test form "error E0401 5:9-5:14: message" (no path). */
void cli_print_diags(MtCtx *c, bool color);
void cli_print_diags_short(MtCtx *c);
/* Whether to colour stderr: --color=always|never|auto. */
bool cli_color(const char *mode);
/* Parse "NAME=VALUE" into a define (pointers into arg). */
bool cli_parse_define(char *arg, MtDefine *out);
/* --num-stages's value, 1 to MT_NUM_STAGES_MAX (compile and run alike);
 * false after printing why not. */
bool cli_parse_num_stages(const char *arg, int *out);

#endif
