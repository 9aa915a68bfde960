/* worker.c: the worker's loop (worker.h, protocol in docs/runtime.md).
 *
 * The parent reads a line, checks it is a request it can carry out (a
 * malformed one is answered at once, without a child), forks, and waits
 * for the child's answer on a pipe with the request's time limit. The
 * child sets its memory and CPU limits, points its standard output at
 * standard error (nothing may write into the protocol but the answer),
 * runs the launch (run.h) and writes the answer line into the pipe. What
 * the parent relays is that line, or an error line it writes itself
 * when the child died (a signal: "crashed"), ran out of time ("timeout")
 * or ended without a complete answer ("internal"). The parent never
 * touches CUDA, so every child starts with a clean driver. */
#include "worker.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

enum { PROTOCOL = 1 };

static bool write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* ---- reading lines ---------------------------------------------------------------- */

typedef struct Lines {
    int fd;
    char *buf;
    size_t len, cap, start;   /* buf[start, len) is read but not yet returned */
    bool eof, failed;
} Lines;

/* The next line (without its '\n', NUL-terminated in place), or NULL at
 * the end of input. A line longer than MT_WORKER_MAX_LINE is returned cut,
 * with *too_long set, and the rest of it skipped. */
static char *next_line(Lines *l, size_t *n, bool *too_long)
{
    *too_long = false;
    for (;;) {
        char *nl = l->len > l->start ? memchr(l->buf + l->start, '\n', l->len - l->start) : NULL;
        if (nl || (l->eof && l->len > l->start)) {
            char *line = l->buf + l->start;
            size_t end = nl ? (size_t)(nl - l->buf) : l->len;
            *n = end - l->start;
            l->buf[end] = 0;
            l->start = nl ? end + 1 : l->len;
            return line;
        }
        if (l->eof)
            return NULL;
        if (l->start) {
            if (l->len > l->start)
                memmove(l->buf, l->buf + l->start, l->len - l->start);
            l->len -= l->start;
            l->start = 0;
        }
        if (l->len + 1 >= l->cap) {
            if (l->cap >= MT_WORKER_MAX_LINE) {
                /* Too long: drop what is buffered, up to the next newline. */
                *too_long = true;
                l->len = 0;
                char c;
                ssize_t r;
                while ((r = read(l->fd, &c, 1)) == 1 && c != '\n')
                    ;
                if (r <= 0)
                    l->eof = true;
                *n = 0;
                l->buf[0] = 0;
                return l->buf;
            }
            size_t cap = l->cap ? l->cap * 2 : 1 << 16;
            char *b = realloc(l->buf, cap);
            if (!b) {
                l->failed = l->eof = true;
                return NULL;
            }
            l->buf = b;
            l->cap = cap;
        }
        ssize_t r = read(l->fd, l->buf + l->len, l->cap - l->len - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            l->failed = true;
        if (r <= 0)
            l->eof = true;
        else
            l->len += (size_t)r;
    }
}

/* ---- answers ---------------------------------------------------------------------- */

/* {"id": ID, "ok": false, "error": {"code": CODE, "message": ...}} */
__attribute__((format(printf, 4, 5)))
static char *error_answer(const cJSON *id, const char *code, const char *signal_name, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "id", id ? cJSON_Duplicate(id, true) : cJSON_CreateNull());
    cJSON_AddBoolToObject(o, "ok", false);
    cJSON *e = cJSON_AddObjectToObject(o, "error");
    cJSON_AddStringToObject(e, "code", code);
    cJSON_AddStringToObject(e, "message", msg);
    if (signal_name)
        cJSON_AddStringToObject(e, "signal", signal_name);
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return s;
}

/* {"id": ID, "ok": true, "result": RESULT} around a result already in JSON. */
static char *ok_answer(const cJSON *id, const char *result)
{
    char *ids = id ? cJSON_PrintUnformatted(id) : NULL;
    const char *idtext = ids ? ids : "null";
    size_t n = strlen(idtext) + strlen(result) + 40;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "{\"id\":%s,\"ok\":true,\"result\":%s}", idtext, result);
    free(ids);
    return s;
}

/* ---- requests --------------------------------------------------------------------- */

typedef struct Request {
    const cJSON *id;
    MtRunRequest req;
    MtRunOptions opt;
    const char **sets;
    char *spec_text;          /* a "spec_json" object, printed */
    long timeout_ms, memory_mb, cpu_seconds;
} Request;

static const char *string_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Read the request's fields; NULL on success, else an error answer. */
static char *read_request(const cJSON *root, Request *q)
{
    static const char *const keys[] = {"id", "method", "spec", "spec_json", "base_dir", "source", "source_path",
                                       "set", "timeout_ms", "memory_mb", "cpu_seconds"};
    static const char *const option_keys[] = {"backend", "threads", "compare", "profile", "lowering", "num_warps",
                                              "num_stages", "codegen", "ptx", "expect", "dump", "rtol", "atol"};
    const cJSON *k;
    cJSON_ArrayForEach(k, root)
    {
        bool known = false;
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            known |= !strcmp(keys[i], k->string);
        for (size_t i = 0; i < sizeof option_keys / sizeof option_keys[0]; i++)
            known |= !strcmp(option_keys[i], k->string);
        if (!known)
            return error_answer(q->id, "bad-request", NULL, "unknown key '%s'", k->string);
    }
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(root, "spec");
    const cJSON *spec_json = cJSON_GetObjectItemCaseSensitive(root, "spec_json");
    if (spec && !cJSON_IsString(spec))
        return error_answer(q->id, "bad-request", NULL, "spec: expected the path of a launch spec (a string)");
    if (spec_json && !cJSON_IsString(spec_json) && !cJSON_IsObject(spec_json))
        return error_answer(q->id, "bad-request", NULL, "spec_json: expected a launch spec (an object or its text)");
    if (!spec && !spec_json)
        return error_answer(q->id, "bad-request", NULL, "a run needs 'spec' (a file) or 'spec_json' (the spec)");
    q->req.spec_path = spec ? spec->valuestring : NULL;
    if (cJSON_IsObject(spec_json)) {
        if (!(q->spec_text = cJSON_PrintUnformatted(spec_json)))
            return error_answer(q->id, "internal", NULL, "out of memory");
        q->req.spec_json = q->spec_text;
    } else if (spec_json) {
        q->req.spec_json = spec_json->valuestring;
    }
    q->req.base_dir = string_of(root, "base_dir");
    q->req.source_text = string_of(root, "source");
    q->req.source_len = q->req.source_text ? strlen(q->req.source_text) : 0;
    q->req.source_path = string_of(root, "source_path");
    const cJSON *sets = cJSON_GetObjectItemCaseSensitive(root, "set");
    if (sets) {
        if (!cJSON_IsArray(sets))
            return error_answer(q->id, "bad-request", NULL, "set: expected a list of \"NAME=VALUE\" strings");
        q->sets = calloc((size_t)cJSON_GetArraySize(sets) + 1, sizeof *q->sets);
        if (!q->sets)
            return error_answer(q->id, "internal", NULL, "out of memory");
        cJSON_ArrayForEach(k, sets)
        {
            if (!cJSON_IsString(k))
                return error_answer(q->id, "bad-request", NULL, "set: expected a list of \"NAME=VALUE\" strings");
            q->sets[q->req.nsets++] = k->valuestring;
        }
        q->req.sets = q->sets;
    }
    static const char *const limits[] = {"timeout_ms", "memory_mb", "cpu_seconds"};
    long *limit_of[] = {&q->timeout_ms, &q->memory_mb, &q->cpu_seconds};
    q->timeout_ms = MT_WORKER_DEFAULT_TIMEOUT_MS;
    for (int i = 0; i < 3; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, limits[i]);
        if (!v)
            continue;
        if (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble > 1e9 || v->valuedouble != (long)v->valuedouble)
            return error_answer(q->id, "bad-request", NULL, "%s: expected a whole number from 1 to 1000000000",
                                limits[i]);
        *limit_of[i] = (long)v->valuedouble;
    }
    /* The run's options, as `mytriton run`'s. */
    cJSON_ArrayForEach(k, root)
    {
        size_t i = 0;
        while (i < sizeof option_keys / sizeof option_keys[0] && strcmp(option_keys[i], k->string))
            i++;
        if (i == sizeof option_keys / sizeof option_keys[0])
            continue;
        const char *key = k->string;
        if (!strcmp(key, "backend")) {
            if (!cJSON_IsString(k) || (strcmp(k->valuestring, "interp") && strcmp(k->valuestring, "cuda")))
                return error_answer(q->id, "bad-request", NULL, "backend: expected \"interp\" or \"cuda\"");
            q->opt.backend = strcmp(k->valuestring, "cuda") ? MT_RUN_INTERP : MT_RUN_CUDA;
        } else if (!strcmp(key, "compare")) {
            if (!cJSON_IsBool(k))
                return error_answer(q->id, "bad-request", NULL, "compare: expected true or false");
            q->opt.compare = cJSON_IsTrue(k);
        } else if (!strcmp(key, "threads") || !strcmp(key, "profile")) {
            int hi = key[0] == 't' ? 4096 : 100000;
            if (!cJSON_IsNumber(k) || k->valuedouble < 0 || k->valuedouble > hi || k->valuedouble != (int)k->valuedouble)
                return error_answer(q->id, "bad-request", NULL, "%s: expected a whole number from 0 to %d", key,
                                    hi);
            *(key[0] == 't' ? &q->opt.threads : &q->opt.profile) = (int)k->valuedouble;
        } else if (!strcmp(key, "num_warps")) {
            int w = cJSON_IsNumber(k) ? (int)k->valuedouble : 0;
            if (w < 1 || w > 32 || (w & (w - 1)) || k->valuedouble != w)
                return error_answer(q->id, "bad-request", NULL, "num_warps: expected a power of two from 1 to 32");
            q->opt.num_warps = w;
        } else if (!strcmp(key, "num_stages")) {
            if (!cJSON_IsNumber(k) || k->valuedouble < 1 || k->valuedouble > MT_NUM_STAGES_MAX ||
                k->valuedouble != (int)k->valuedouble)
                return error_answer(q->id, "bad-request", NULL, "num_stages: expected a whole number from 1 to %d",
                                    MT_NUM_STAGES_MAX);
            q->opt.num_stages = (int)k->valuedouble;
        } else if (!strcmp(key, "codegen")) {
            if (!cJSON_IsString(k) || (q->opt.codegen = mt_codegen_from_name(k->valuestring)) < 0)
                return error_answer(q->id, "bad-request", NULL, "codegen: expected \"cuda\" or \"mlir\"");
        } else if (!strcmp(key, "ptx")) {
            if (!cJSON_IsString(k))
                return error_answer(q->id, "bad-request", NULL, "ptx: expected a file (a string)");
            q->opt.ptx_path = k->valuestring;
        } else if (!strcmp(key, "lowering")) {
            if (!cJSON_IsString(k) || (q->opt.lowering = mt_lowering_from_name(k->valuestring)) < 0)
                return error_answer(q->id, "bad-request", NULL, "lowering: expected \"seed\" or \"fast\"");
        } else if (!strcmp(key, "expect") || !strcmp(key, "dump")) {
            if (!cJSON_IsString(k))
                return error_answer(q->id, "bad-request", NULL, "%s: expected a folder (a string)", key);
            *(key[0] == 'e' ? &q->opt.expect_dir : &q->opt.dump_dir) = k->valuestring;
        } else {
            if (!cJSON_IsNumber(k) || k->valuedouble < 0)
                return error_answer(q->id, "bad-request", NULL, "%s: expected a non-negative number", key);
            if (key[0] == 'r')
                q->opt.rtol = k->valuedouble, q->opt.has_rtol = true;
            else
                q->opt.atol = k->valuedouble, q->opt.has_atol = true;
        }
    }
    return NULL;
}

/* ---- running one request in a child --------------------------------------------------- */

static const char *signal_name(int sig)
{
    static const struct { int sig; const char *name; } names[] = {
        {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
        {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGXCPU, "SIGXCPU"}, {SIGTERM, "SIGTERM"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            return names[i].name;
    return "a signal";
}

static void child(const Request *q, int fd)
{
    dup2(STDERR_FILENO, STDOUT_FILENO);
    if (q->memory_mb) {
        struct rlimit rl = {(rlim_t)q->memory_mb << 20, (rlim_t)q->memory_mb << 20};
        setrlimit(RLIMIT_AS, &rl);
    }
    if (q->cpu_seconds) {
        struct rlimit rl = {(rlim_t)q->cpu_seconds, (rlim_t)q->cpu_seconds + 1};
        setrlimit(RLIMIT_CPU, &rl);
    }
    MtRunResult *r = mt_run(&q->req, &q->opt);
    char *json = r ? mt_run_result_json(r, false) : NULL;
    char *answer = json ? ok_answer(q->id, json) : error_answer(q->id, "internal", NULL, "out of memory");
    bool ok = answer && write_all(fd, answer, strlen(answer)) && write_all(fd, "\n", 1);
    _exit(ok ? 0 : 3);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Fork, run, and collect the child's answer (or say why there is none).
 * Once the child runs, a progress line says so ({"event": "started"},
 * with its pid) on out_fd. */
static char *run_in_child(const Request *q, int out_fd)
{
    int p[2];
    if (pipe(p) != 0)
        return error_answer(q->id, "internal", NULL, "pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return error_answer(q->id, "internal", NULL, "fork: %s", strerror(errno));
    }
    if (pid == 0) {
        close(p[0]);
        child(q, p[1]);
    }
    close(p[1]);
    char *ids = q->id ? cJSON_PrintUnformatted(q->id) : NULL, started[256];
    snprintf(started, sizeof started, "{\"id\":%s,\"event\":\"started\",\"pid\":%ld}\n",
             ids && strlen(ids) < 128 ? ids : "null", (long)pid);
    free(ids);
    write_all(out_fd, started, strlen(started));
    char *out = NULL;
    size_t len = 0, cap = 0;
    bool timed_out = false, nomem = false;
    double deadline = now_ms() + (double)q->timeout_ms;
    for (;;) {
        double left = deadline - now_ms();
        if (left <= 0) {
            timed_out = true;
            break;
        }
        struct pollfd pf = {.fd = p[0], .events = POLLIN};
        int pr = poll(&pf, 1, left > 1e6 ? 1000000 : (int)left + 1);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr == 0)
            continue;
        if (len + 4096 > cap) {
            char *b = realloc(out, cap = cap ? cap * 2 : 1 << 16);
            if (!b) {
                nomem = true;
                break;
            }
            out = b;
        }
        ssize_t r = read(p[0], out + len, cap - len - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    close(p[0]);
    if (timed_out || nomem)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    char *answer;
    if (timed_out)
        answer = error_answer(q->id, "timeout", NULL,
                              "the launch ran for more than %ld ms (the request's timeout_ms); the worker stopped it",
                              q->timeout_ms);
    else if (nomem)
        answer = error_answer(q->id, "internal", NULL, "out of memory reading the answer");
    else if (WIFSIGNALED(status))
        answer = error_answer(q->id, "crashed", signal_name(WTERMSIG(status)),
                              "the launch's process died of %s (%s)%s", signal_name(WTERMSIG(status)),
                              strsignal(WTERMSIG(status)),
                              WTERMSIG(status) == SIGXCPU ? ": it used more than the request's cpu_seconds" : "");
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !len || out[len - 1] != '\n')
        answer = error_answer(q->id, "internal", NULL, "the launch's process ended without an answer (exit status %d)",
                              WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    else {
        out[len - 1] = 0; /* the caller adds the newline */
        return out;
    }
    free(out);
    return answer;
}

/* ---- the loop ------------------------------------------------------------------------ */

/* The answer to one line; *stop is set by "shutdown". */
static char *answer_line(const char *line, size_t n, bool too_long, bool *stop, int out_fd)
{
    if (too_long)
        return error_answer(NULL, "bad-request", NULL, "the request is longer than %zu bytes", MT_WORKER_MAX_LINE);
    cJSON *root = cJSON_ParseWithLength(line, n);
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return error_answer(NULL, "bad-request", NULL, "a request is one JSON object on one line");
    }
    Request q = {.id = cJSON_GetObjectItemCaseSensitive(root, "id")};
    const char *method = string_of(root, "method");
    char *answer = NULL;
    if (!method || !strcmp(method, "run")) {
        if (!(answer = read_request(root, &q)))
            answer = run_in_child(&q, out_fd);
    } else if (!strcmp(method, "ping") || !strcmp(method, "shutdown")) {
        *stop = method[0] == 's';
        answer = ok_answer(q.id, "{}");
    } else {
        answer = error_answer(q.id, "bad-request", NULL, "unknown method '%s' (methods: run, ping, shutdown)", method);
    }
    free(q.sets);
    free(q.spec_text);
    cJSON_Delete(root);
    return answer;
}

int mt_worker_serve(int in_fd, int out_fd)
{
    char hello[128];
    snprintf(hello, sizeof hello, "{\"event\":\"ready\",\"worker\":\"mytriton\",\"protocol\":%d,\"pid\":%ld}\n",
             PROTOCOL, (long)getpid());
    if (!write_all(out_fd, hello, strlen(hello)))
        return 1;
    Lines l = {.fd = in_fd};
    bool stop = false, ok = true;
    while (ok && !stop) {
        size_t n;
        bool too_long;
        char *line = next_line(&l, &n, &too_long);
        if (!line)
            break;
        if (!n && !too_long)
            continue; /* blank lines are allowed between requests */
        char *answer = answer_line(line, n, too_long, &stop, out_fd);
        ok = answer && write_all(out_fd, answer, strlen(answer)) && write_all(out_fd, "\n", 1);
        free(answer);
    }
    free(l.buf);
    return ok && !l.failed ? 0 : 1;
}
