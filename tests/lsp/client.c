/* client.c: the test client of client.h. The server runs as a real child
 * process on pipes, as an editor would run it, so a crash is an exit
 * status the tests see rather than a crashed test. */
#define _GNU_SOURCE
#include "client.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

bool client_start(Client *c, const char *server, char *const extra_args[])
{
    memset(c, 0, sizeof *c);
    int in[2], out[2];
    if (pipe(in) || pipe(out))
        return false;
    signal(SIGPIPE, SIG_IGN);
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        char *argv[16] = {(char *)server, (char *)"lsp"};
        int k = 2;
        for (int i = 0; extra_args && extra_args[i] && k < 15; i++)
            argv[k++] = extra_args[i];
        argv[k] = NULL;
        execv(server, argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    c->pid = pid;
    c->to = in[1];
    c->from = out[0];
    return true;
}

bool client_send_raw(Client *c, const char *bytes, size_t n)
{
    while (n) {
        ssize_t w = write(c->to, bytes, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        bytes += w;
        n -= (size_t)w;
    }
    return true;
}

bool client_send(Client *c, const char *json)
{
    char head[64];
    int hn = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", strlen(json));
    return client_send_raw(c, head, (size_t)hn) && client_send_raw(c, json, strlen(json));
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A whole message in the buffer: its body, consumed. */
static cJSON *take(Client *c)
{
    char *end = c->len ? memmem(c->buf, c->len, "\r\n\r\n", 4) : NULL;
    if (!end)
        return NULL;
    long n = -1;
    const char *h = strstr(c->buf, "Content-Length:");
    if (h && h < end)
        n = strtol(h + 15, NULL, 10);
    size_t start = (size_t)(end - c->buf) + 4;
    if (n < 0 || c->len < start + (size_t)n)
        return NULL;
    char saved = c->buf[start + n];
    c->buf[start + n] = 0;
    cJSON *j = cJSON_Parse(c->buf + start);
    c->buf[start + n] = saved;
    memmove(c->buf, c->buf + start + n, c->len - start - (size_t)n);
    c->len -= start + (size_t)n;
    if (!j)
        j = cJSON_CreateString("<invalid JSON from the server>");
    return j;
}

cJSON *client_recv(Client *c, int timeout_ms, bool *timed_out)
{
    long long deadline = now_ms() + timeout_ms;
    *timed_out = false;
    for (;;) {
        if (c->len) {
            c->buf[c->len] = 0;
            cJSON *j = take(c);
            if (j)
                return j;
        }
        if (c->eof)
            return NULL;
        long long left = deadline - now_ms();
        if (left <= 0) {
            *timed_out = true;
            return NULL;
        }
        struct pollfd p = {.fd = c->from, .events = POLLIN};
        if (poll(&p, 1, (int)left) <= 0)
            continue;
        if (c->cap - c->len < 65536) {
            c->cap = c->cap ? c->cap * 2 : 262144;
            c->buf = realloc(c->buf, c->cap);
            if (!c->buf)
                return NULL;
        }
        ssize_t r = read(c->from, c->buf + c->len, c->cap - c->len - 1);
        if (r <= 0)
            c->eof = true;
        else
            c->len += (size_t)r;
    }
}

bool client_alive(Client *c)
{
    int st;
    return c->pid > 0 && waitpid(c->pid, &st, WNOHANG) == 0;
}

int client_finish(Client *c, int timeout_ms)
{
    if (c->to >= 0)
        close(c->to);
    c->to = -1;
    long long deadline = now_ms() + timeout_ms;
    int st = 0, status = -1;
    for (;;) {
        pid_t r = waitpid(c->pid, &st, WNOHANG);
        if (r == c->pid) {
            status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            break;
        }
        if (now_ms() > deadline) {
            kill(c->pid, SIGKILL);
            waitpid(c->pid, &st, 0);
            break;
        }
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    close(c->from);
    free(c->buf);
    c->buf = NULL;
    c->pid = 0;
    return status;
}

bool json_match(const cJSON *want, const cJSON *got, char *where, size_t n)
{
    if (cJSON_IsString(want) && !strcmp(want->valuestring, "*"))
        return got != NULL;
    if (!got) {
        snprintf(where, n, "missing");
        return false;
    }
    if (cJSON_IsString(want) && want->valuestring[0] == '~') {
        if (cJSON_IsString(got) && strstr(got->valuestring, want->valuestring + 1))
            return true;
        snprintf(where, n, "does not contain \"%s\"", want->valuestring + 1);
        return false;
    }
    if (cJSON_IsObject(want)) {
        if (!cJSON_IsObject(got)) {
            snprintf(where, n, "not an object");
            return false;
        }
        for (const cJSON *w = want->child; w; w = w->next) {
            char sub[512];
            if (!json_match(w, cJSON_GetObjectItemCaseSensitive(got, w->string), sub, sizeof sub)) {
                snprintf(where, n, ".%s%s%s", w->string, sub[0] == '.' || sub[0] == '[' ? "" : ": ", sub);
                return false;
            }
        }
        return true;
    }
    if (cJSON_IsArray(want)) {
        /* A last element "..." lets more elements follow. */
        const cJSON *last = cJSON_GetArrayItem(want, cJSON_GetArraySize(want) - 1);
        bool prefix = cJSON_IsString(last) && !strcmp(last->valuestring, "...");
        int nw = cJSON_GetArraySize(want) - prefix;
        if (!cJSON_IsArray(got) || (prefix ? cJSON_GetArraySize(got) < nw : nw != cJSON_GetArraySize(got))) {
            snprintf(where, n, "expected an array of %s%d, got %s%d", prefix ? "at least " : "", nw,
                     cJSON_IsArray(got) ? "" : "a non-array ", cJSON_IsArray(got) ? cJSON_GetArraySize(got) : 0);
            return false;
        }
        int i = 0;
        for (const cJSON *w = want->child, *g = got->child; w && i < nw; w = w->next, g = g->next, i++) {
            char sub[512];
            if (!json_match(w, g, sub, sizeof sub)) {
                snprintf(where, n, "[%d]%s%s", i, sub[0] == '.' || sub[0] == '[' ? "" : ": ", sub);
                return false;
            }
        }
        return true;
    }
    if (cJSON_Compare(want, got, true))
        return true;
    char *g = cJSON_PrintUnformatted(got);
    snprintf(where, n, "got %.200s", g ? g : "?");
    cJSON_free(g);
    return false;
}
