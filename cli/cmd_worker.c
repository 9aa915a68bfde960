/* cmd_worker.c: `mytriton worker` -- launches for a server, one JSON
 * line per request on stdin, one per answer on stdout (runtime/worker.h;
 * the protocol is in docs/runtime.md). Each launch runs in a child
 * process of its own, so a crash or a hang costs one answer, not the
 * worker, and never the server that started it. */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "worker.h"

static const char help[] =
    "usage: mytriton worker\n"
    "\n"
    "Serve launches over standard input and output for a server (the dashboard): each line\n"
    "in is a JSON request ({\"id\": 1, \"spec\": \"k.json\", \"backend\": \"interp\", \"timeout_ms\": 10000}),\n"
    "each answer a line out ({\"id\": 1, \"ok\": true, \"result\": {...}}), in order, after progress lines\n"
    "({\"event\": ...}). Every launch\n"
    "runs in a process of its own under the request's limits (timeout_ms, memory_mb, cpu_seconds):\n"
    "a launch that crashes or times out gets an error answer and the worker goes on.\n"
    "docs/runtime.md describes the protocol.\n"
    "\n"
    "  -h, --help   this help\n"
    "\n"
    "Exit status: 0 at the end of input or after a shutdown request, 1 when the client went\n"
    "away (standard output cannot be written), 2 bad options.\n";

int cmd_worker(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(help, stdout);
            return EXIT_OK;
        }
        cli_error("unknown option '%s'", argv[i]);
        fprintf(stderr, "\n%s", help);
        return EXIT_TROUBLE;
    }
    /* A client that goes away ends the worker through a failed write. */
    signal(SIGPIPE, SIG_IGN);
    return mt_worker_serve(STDIN_FILENO, STDOUT_FILENO);
}
