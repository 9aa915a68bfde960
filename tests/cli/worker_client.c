/* worker_client.c: `mytriton worker` through a real client, as a server
 * would use it (docs/runtime.md): start it on two pipes, read its hello,
 * send JSON lines, read the answers. Cases:
 *   run        a spec file runs; the answer carries the run result; the
 *              launch options (num_stages here) are taken
 *   inline     a spec and a source given in the request (an editor's buffer)
 *   pipelined  several requests written at once come back in order
 *   bad        malformed lines and requests get bad-request answers, and
 *              the worker goes on
 *   timeout    a launch that runs too long is stopped: a timeout answer
 *   crash      a launch whose process dies (SIGABRT sent to it from here,
 *              SIGXCPU from its cpu_seconds) gets a crashed answer, and the
 *              next request runs
 *   shutdown   the shutdown request ends the worker with status 0, as
 *              does the end of its input
 *   usage: worker_client MYTRITON SOURCE_DIR CASE */
#include <cjson/cJSON.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *mytriton, *source_dir;

#define CHECK(cond, ...)                                                                                              \
    do {                                                                                                              \
        if (!(cond)) {                                                                                                \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                           \
            fprintf(stderr, __VA_ARGS__);                                                                             \
            fputc('\n', stderr);                                                                                      \
            exit(1);                                                                                                  \
        }                                                                                                             \
    } while (0)

typedef struct Worker {
    pid_t pid;
    FILE *in;                 /* what we write: the worker's stdin */
    FILE *out;                /* what we read: the worker's stdout */
} Worker;

static Worker start(void)
{
    int to[2], from[2];
    CHECK(pipe(to) == 0 && pipe(from) == 0, "pipe");
    Worker w;
    w.pid = fork();
    CHECK(w.pid >= 0, "fork");
    if (w.pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[1]);
        close(from[0]);
        if (chdir(source_dir) != 0)
            _exit(126);
        execl(mytriton, mytriton, "worker", (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    w.in = fdopen(to[1], "w");
    w.out = fdopen(from[0], "r");
    return w;
}

static void send_line(Worker *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(w->in, fmt, ap);
    va_end(ap);
    fputc('\n', w->in);
    fflush(w->in);
}

/* The next line, parsed. */
static cJSON *line_of(Worker *w)
{
    static char line[1 << 22];
    CHECK(fgets(line, sizeof line, w->out) != NULL, "the worker closed its output");
    CHECK(strchr(line, '\n') != NULL, "a line without a newline: %s", line);
    cJSON *j = cJSON_Parse(line);
    CHECK(cJSON_IsObject(j), "not a JSON object: %s", line);
    return j;
}

/* The next answer (a line with "result" or "error"), after the progress
 * lines before it. */
static cJSON *answer(Worker *w)
{
    for (;;) {
        cJSON *j = line_of(w);
        if (cJSON_GetObjectItemCaseSensitive(j, "result") || cJSON_GetObjectItemCaseSensitive(j, "error"))
            return j;
        const cJSON *ev = cJSON_GetObjectItemCaseSensitive(j, "event");
        CHECK(cJSON_IsString(ev) && !strcmp(ev->valuestring, "started"), "neither an answer nor a progress line");
        cJSON_Delete(j);
    }
}

/* The progress line of a run that has just been sent: its process. */
static pid_t started(Worker *w)
{
    cJSON *j = line_of(w);
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(j, "event");
    CHECK(cJSON_IsString(ev) && !strcmp(ev->valuestring, "started"), "no started event");
    pid_t pid = (pid_t)cJSON_GetObjectItemCaseSensitive(j, "pid")->valuedouble;
    cJSON_Delete(j);
    return pid;
}

static const char *str(const cJSON *o, const char *path)
{
    /* "a.b.c" through objects */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    const cJSON *v = o;
    for (char *k = strtok(buf, "."); k && v; k = strtok(NULL, "."))
        v = cJSON_GetObjectItemCaseSensitive(v, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static bool ok(const cJSON *a) { return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "ok")); }
static const cJSON *result(const cJSON *a) { return cJSON_GetObjectItemCaseSensitive(a, "result"); }

static int finish(Worker *w)
{
    fclose(w->in);
    int status;
    CHECK(waitpid(w->pid, &status, 0) == w->pid, "waitpid");
    fclose(w->out);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A kernel that loops n times: two billion iterations keep the
 * interpreter busy for minutes. JSON-escaped, for "source". */
static const char spin_source[] =
    "import triton\\nimport triton.language as tl\\n\\n\\n@triton.jit\\ndef spin(out, n):\\n    acc = 0\\n"
    "    for i in range(n):\\n        acc += i % 7\\n    tl.store(out, acc)\\n";
#define SPIN_SPEC "{\"grid\": [1], \"args\": {\"out\": {\"dtype\": \"int32\", \"shape\": [1]}, \"n\": 2000000000}}"

int main(int argc, char **argv)
{
    CHECK(argc == 4, "usage: worker_client MYTRITON SOURCE_DIR CASE");
    mytriton = argv[1];
    source_dir = argv[2];
    const char *c = argv[3];
    signal(SIGPIPE, SIG_IGN);
    Worker w = start();
    cJSON *hello = line_of(&w);
    CHECK(!strcmp(str(hello, "event"), "ready") && !strcmp(str(hello, "worker"), "mytriton") &&
              num(hello, "protocol") == 1 && num(hello, "pid") == w.pid,
          "hello: %s", cJSON_PrintUnformatted(hello));
    cJSON_Delete(hello);

    if (!strcmp(c, "run")) {
        send_line(&w, "{\"id\": 1, \"spec\": \"examples/add_kernel.json\", \"threads\": 1}");
        CHECK(started(&w) > 0, "started");
        cJSON *a = answer(&w);
        CHECK(ok(a) && num(a, "id") == 1, "%s", cJSON_PrintUnformatted(a));
        CHECK(num(result(a), "threads") == 1, "threads passed");
        const cJSON *r = result(a);
        CHECK(!strcmp(str(r, "outcome"), "ok") && !strcmp(str(r, "kernel"), "add_kernel"), "result");
        const cJSON *arrays = cJSON_GetObjectItemCaseSensitive(r, "arrays");
        CHECK(cJSON_GetArraySize(arrays) == 3, "three arrays");
        CHECK(!strcmp(str(cJSON_GetArrayItem(arrays, 2), "fnv1a"), "ec6c735d8b99f939"), "out's hash");
        cJSON_Delete(a);
        send_line(&w, "{\"id\": 3, \"spec\": \"examples/add_kernel.json\", \"num_stages\": 1, \"num_warps\": 2}");
        CHECK(started(&w) > 0, "started");
        a = answer(&w);
        CHECK(ok(a) && !strcmp(str(result(a), "outcome"), "ok"), "num_stages: %s", cJSON_PrintUnformatted(a));
        cJSON_Delete(a);
        /* A wrong spec is a result too, with its diagnostic located in the spec. */
        send_line(&w, "{\"id\": 2, \"spec\": \"tests/exec/data/bad_grid.json\"}");
        a = answer(&w);
        r = result(a);
        CHECK(ok(a) && !strcmp(str(r, "outcome"), "failed") && num(r, "exit_status") == 1, "bad grid");
        const cJSON *d = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "diagnostics"), 0);
        CHECK(!strcmp(str(d, "code"), "R0704") && !strcmp(str(d, "field"), "grid[0]") && num(d, "line") == 4 &&
                  num(d, "col") == 12,
              "diagnostic: %s", cJSON_PrintUnformatted(d));
        cJSON_Delete(a);
    } else if (!strcmp(c, "inline")) {
        send_line(&w,
                  "{\"id\": \"ed\", \"source\": \"%s\", \"source_path\": \"buffer.py\", \"spec_json\": "
                  "{\"grid\": [1], \"args\": {\"out\": {\"dtype\": \"int32\", \"shape\": [1]}, \"n\": 10}}}",
                  spin_source);
        cJSON *a = answer(&w);
        CHECK(ok(a) && !strcmp(str(a, "id"), "ed"), "%s", cJSON_PrintUnformatted(a));
        const cJSON *r = result(a);
        CHECK(!strcmp(str(r, "outcome"), "ok") && !strcmp(str(r, "source"), "buffer.py"), "inline result");
        const cJSON *out = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "arrays"), 0);
        CHECK(!strcmp(str(out, "preview"), "[24]"), "sum of i %% 7 for i < 10 is 24, got %s", str(out, "preview"));
        cJSON_Delete(a);
    } else if (!strcmp(c, "pipelined")) {
        for (int i = 0; i < 5; i++)
            send_line(&w, "{\"id\": %d, \"spec\": \"examples/copy_kernel.json\", \"set\": [\"n=%d\"]}", i, 10 + i);
        for (int i = 0; i < 5; i++) {
            cJSON *a = answer(&w);
            CHECK(ok(a) && num(a, "id") == i, "answer %d: %s", i, cJSON_PrintUnformatted(a));
            cJSON_Delete(a);
        }
    } else if (!strcmp(c, "bad")) {
        static const struct { const char *line, *message; } bad[] = {
            {"not json", "a request is one JSON object on one line"},
            {"[1, 2]", "a request is one JSON object on one line"},
            {"{\"id\": 9}", "a run needs 'spec' (a file) or 'spec_json' (the spec)"},
            {"{\"id\": 9, \"spec\": 3}", "spec: expected the path of a launch spec (a string)"},
            {"{\"id\": 9, \"spec\": \"s.json\", \"colour\": 1}", "unknown key 'colour'"},
            {"{\"id\": 9, \"spec\": \"s.json\", \"backend\": \"tpu\"}", "backend: expected \"interp\" or \"cuda\""},
            {"{\"id\": 9, \"spec\": \"s.json\", \"options\": {}}", "unknown key 'options'"},
            {"{\"id\": 9, \"spec\": \"s.json\", \"timeout_ms\": -5}", "timeout_ms: expected a whole number from 1 to 1000000000"},
            {"{\"id\": 9, \"spec\": \"s.json\", \"num_stages\": 0}", "num_stages: expected a whole number from 1 to 8"},
            {"{\"id\": 9, \"spec\": \"s.json\", \"num_stages\": 9}", "num_stages: expected a whole number from 1 to 8"},
            {"{\"id\": 9, \"spec\": \"s.json\", \"num_stages\": 2.5}", "num_stages: expected a whole number from 1 to 8"},
            {"{\"id\": 9, \"spec\": \"s.json\", \"num_stages\": \"2\"}", "num_stages: expected a whole number from 1 to 8"},
            {"{\"id\": 9, \"spec\": \"s.json\", \"num_stages\": 1e300}", "num_stages: expected a whole number from 1 to 8"},
            {"{\"id\": 9, \"method\": \"dance\"}", "unknown method 'dance' (methods: run, ping, shutdown)"},
        };
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            send_line(&w, "%s", bad[i].line);
            cJSON *a = answer(&w);
            CHECK(!ok(a) && !strcmp(str(a, "error.code"), "bad-request"), "%s -> %s", bad[i].line,
                  cJSON_PrintUnformatted(a));
            CHECK(!strcmp(str(a, "error.message"), bad[i].message), "%s -> %s", bad[i].line, str(a, "error.message"));
            cJSON_Delete(a);
        }
        send_line(&w, "{\"id\": 10, \"method\": \"ping\"}");
        cJSON *a = answer(&w);
        CHECK(ok(a) && num(a, "id") == 10, "alive after bad requests");
        cJSON_Delete(a);
    } else if (!strcmp(c, "timeout")) {
        double t0 = now_s();
        send_line(&w, "{\"id\": 1, \"source\": \"%s\", \"spec_json\": %s, \"timeout_ms\": 300}", spin_source, SPIN_SPEC);
        cJSON *a = answer(&w);
        double took = now_s() - t0;
        CHECK(!ok(a) && !strcmp(str(a, "error.code"), "timeout"), "%s", cJSON_PrintUnformatted(a));
        CHECK(took < 20, "the timeout took %.1f s", took);
        cJSON_Delete(a);
        send_line(&w, "{\"id\": 2, \"spec\": \"examples/add_kernel.json\"}");
        a = answer(&w);
        CHECK(ok(a) && !strcmp(str(result(a), "outcome"), "ok"), "alive after a timeout");
        cJSON_Delete(a);
    } else if (!strcmp(c, "crash")) {
        send_line(&w, "{\"id\": 1, \"source\": \"%s\", \"spec_json\": %s, \"timeout_ms\": 60000}", spin_source,
                  SPIN_SPEC);
        pid_t victim = started(&w);
        CHECK(victim > 0 && victim != w.pid, "no process for the launch");
        kill(victim, SIGABRT); /* (ASan builds catch SIGSEGV themselves) */
        cJSON *a = answer(&w);
        CHECK(!ok(a) && !strcmp(str(a, "error.code"), "crashed") && !strcmp(str(a, "error.signal"), "SIGABRT"), "%s",
              cJSON_PrintUnformatted(a));
        cJSON_Delete(a);
        send_line(&w, "{\"id\": 2, \"source\": \"%s\", \"spec_json\": %s, \"cpu_seconds\": 1}", spin_source, SPIN_SPEC);
        a = answer(&w);
        CHECK(!ok(a) && !strcmp(str(a, "error.code"), "crashed") && !strcmp(str(a, "error.signal"), "SIGXCPU"), "%s",
              cJSON_PrintUnformatted(a));
        cJSON_Delete(a);
        send_line(&w, "{\"id\": 3, \"spec\": \"examples/add_kernel.json\"}");
        a = answer(&w);
        CHECK(ok(a) && !strcmp(str(result(a), "outcome"), "ok"), "alive after crashes");
        cJSON_Delete(a);
    } else if (!strcmp(c, "shutdown")) {
        send_line(&w, "{\"id\": 1, \"method\": \"shutdown\"}");
        cJSON *a = answer(&w);
        CHECK(ok(a) && num(a, "id") == 1, "shutdown answered");
        cJSON_Delete(a);
        CHECK(finish(&w) == 0, "exit status after shutdown");
        Worker w2 = start();
        cJSON_Delete(line_of(&w2));
        CHECK(finish(&w2) == 0, "exit status at the end of input");
        printf("worker %s: ok\n", c);
        return 0;
    } else {
        CHECK(0, "unknown case %s", c);
    }
    CHECK(finish(&w) == 0, "exit status at the end of input");
    printf("worker %s: ok\n", c);
    return 0;
}
