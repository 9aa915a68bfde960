/* tool.c: run a short-lived helper program and collect its output.
 *
 * posix_spawn (safe from a threaded server, unlike fork + exec with
 * arbitrary work in between), stdin from /dev/null, stdout and stderr into
 * one pipe read with poll until it closes, the deadline passes (then the
 * child is killed) or the output passes its limit (likewise). The child is
 * always reaped. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tool.h"
#include "web_int.h"

extern char **environ;

void mt_web_run_tool(char *const argv[], double timeout_s, size_t max_out, WebToolResult *r)
{
    memset(r, 0, sizeof *r);
    int p[2];
    if (pipe2(p, O_CLOEXEC)) {
        snprintf(r->error, sizeof r->error, "pipe: %s", strerror(errno));
        return;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, p[1], 1);
    posix_spawn_file_actions_adddup2(&fa, p[1], 2);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(p[1]);
    if (rc) {
        close(p[0]);
        snprintf(r->error, sizeof r->error, "cannot run %s: %s", argv[0], strerror(rc));
        return;
    }
    size_t cap = 1 << 16;
    r->out = malloc(cap);
    double deadline = mt_web_now() + timeout_s;
    bool killed = false;
    while (r->out) {
        double left = deadline - mt_web_now();
        if (left <= 0) {
            snprintf(r->error, sizeof r->error, "%s took longer than %.0f s and was stopped", argv[0], timeout_s);
            killed = true;
            break;
        }
        struct pollfd pfd = {p[0], POLLIN, 0};
        int n = poll(&pfd, 1, (int)(left * 1000) + 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            continue;
        if (r->len + 4096 + 1 > cap) {
            char *nb = realloc(r->out, cap *= 2);
            if (!nb) {
                free(r->out);
                r->out = NULL;
                break;
            }
            r->out = nb;
        }
        ssize_t got = read(p[0], r->out + r->len, cap - r->len - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        r->len += (size_t)got;
        if (r->len > max_out) {
            snprintf(r->error, sizeof r->error, "%s wrote more than %zu bytes and was stopped", argv[0], max_out);
            killed = true;
            break;
        }
    }
    close(p[0]);
    if (killed || !r->out)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (r->out)
        r->out[r->len] = 0;
    else
        snprintf(r->error, sizeof r->error, "out of memory reading %s", argv[0]);
    if (killed || !r->out)
        return;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        r->ok = true;
    else if (WIFEXITED(status))
        snprintf(r->error, sizeof r->error, "%s exited with status %d", argv[0], WEXITSTATUS(status));
    else
        snprintf(r->error, sizeof r->error, "%s was killed by signal %d", argv[0], WTERMSIG(status));
}
