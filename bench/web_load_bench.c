/* web_load_bench.c: the dashboard under load -- N concurrent compile
 * requests through its HTTP API, with the latency of each.
 *
 *   web_load_bench [--requests N] [--rounds R] [--stages LIST] [EXAMPLES_DIR]
 *
 * Starts the dashboard's server in this process (as `mytriton serve`
 * does: libmicrohttpd, a thread per connection, compile slots) on an
 * ephemeral loopback port, with EXAMPLES_DIR (default: examples) as its
 * root. Each round, N client threads (libcurl) wait at a barrier and then
 * all POST /api/compile at once, each for one of the examples' kernels in
 * turn, with the page's usual stages (expr, ssa-raw, ssa, layout, kernel,
 * cuda). It prints, per round, the errors (any status but 200, or a
 * compile that did not finish "ok") and the latency percentiles p50, p90,
 * p99 and max of the N requests, and the wall time of the round.
 * Compiles run on the request threads, at most twice the CPUs at once
 * (at least 4: the server's compile slots); the others wait for a slot. Round 1
 * is the first compile of each kernel in a fresh server; later rounds are
 * the same requests again. Figures, not a test: nothing is asserted (the
 * exit status is 1 only when a request failed). */
#include <curl/curl.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../tests/web/http_client.h"
#include "bench_util.h"
#include "web.h"

typedef struct Kernel {
    char path[512];
    char name[128];
} Kernel;

typedef struct Client {
    pthread_t t;
    const char *url;
    char *body;
    double seconds;
    int failed;               /* 0: ok */
    char why[256];
} Client;

static pthread_barrier_t start_line;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void *client(void *arg)
{
    Client *c = arg;
    pthread_barrier_wait(&start_line);
    double t0 = now();
    HttpResp r = http_request("POST", c->url, c->body, strlen(c->body), NULL, 0);
    c->seconds = now() - t0;
    cJSON *doc = r.status == 200 ? cJSON_Parse(r.body) : NULL;
    const char *status = cJSON_GetStringValue(cJSON_GetObjectItem(doc, "status"));
    c->failed = !status || strcmp(status, "ok");
    if (c->failed)
        snprintf(c->why, sizeof c->why, "HTTP %ld: %.200s", r.status, r.body ? r.body : "");
    cJSON_Delete(doc);
    http_free(&r);
    return NULL;
}

/* Every kernel of the examples that has a spec beside it (so it compiles
 * on its own): NAME.json or FILE.NAME.json next to FILE.py. */
static size_t find_kernels(const char *dir, Kernel *out, size_t max)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d)) && n < max;) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json"))
            continue;
        char spec[1024];
        snprintf(spec, sizeof spec, "%s/%s", dir, e->d_name);
        size_t slen;
        char *text = bench_read_file(spec, &slen);
        cJSON *doc = text ? cJSON_Parse(text) : NULL;
        const char *src = cJSON_GetStringValue(cJSON_GetObjectItem(doc, "source"));
        const char *kernel = cJSON_GetStringValue(cJSON_GetObjectItem(doc, "kernel"));
        if (src && kernel && !strchr(src, '/')) {
            snprintf(out[n].path, sizeof out[n].path, "%s/%s", dir, src);
            snprintf(out[n].name, sizeof out[n].name, "%s", kernel);
            n++;
        }
        cJSON_Delete(doc);
        free(text);
    }
    closedir(d);
    return n;
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double percentile(const double *sorted, int n, double p)
{
    int i = (int)(p / 100.0 * n + 0.999999) - 1;
    return sorted[i < 0 ? 0 : i >= n ? n - 1 : i];
}

int main(int argc, char **argv)
{
    int requests = 100, rounds = 3;
    const char *dir = "examples";
    const char *stages = "\"expr\", \"ssa-raw\", \"ssa\", \"layout\", \"kernel\", \"cuda\"";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--requests") && i + 1 < argc)
            requests = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--stages") && i + 1 < argc)
            stages = argv[++i];
        else if (argv[i][0] != '-')
            dir = argv[i];
        else {
            fprintf(stderr, "usage: web_load_bench [--requests N] [--rounds R] [--stages '\"ssa\", ...'] [EXAMPLES_DIR]\n");
            return 2;
        }
    }
    if (requests < 1 || requests > 1000 || rounds < 1) {
        fprintf(stderr, "web_load_bench: --requests takes 1 to 1000, --rounds at least 1\n");
        return 2;
    }
    Kernel kernels[128];
    size_t nk = find_kernels(dir, kernels, 128);
    if (!nk) {
        fprintf(stderr, "web_load_bench: no kernels with specs in %s (run it from the repository, or name the examples)\n",
                dir);
        return 2;
    }
    char data[] = "/tmp/mytriton-load-XXXXXX", err[512];
    if (!mkdtemp(data)) {
        perror("mkdtemp");
        return 2;
    }
    const char *roots[] = {dir};
    /* the workers (and the GPU probe) are this build's mytriton; compiles never use them */
    MtWebOptions o = {.roots = roots, .nroots = 1, .data_dir = data, .worker_exe = MT_MYTRITON};
    MtWebServer *s = mt_web_start(&o, err, sizeof err);
    if (!s) {
        fprintf(stderr, "web_load_bench: the server did not start: %s\n", err);
        return 2;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    char url[128];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/api/compile", mt_web_port(s));
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    printf("web_load_bench: %d concurrent POST /api/compile per round, %zu example kernels in turn, stages [%s], "
           "%ld CPUs\n",
           requests, nk, stages, cpus);
    Client *c = calloc((size_t)requests, sizeof *c);
    double *lat = calloc((size_t)requests, sizeof *lat);
    int total_failed = 0;
    for (int i = 0; i < requests; i++) {
        const Kernel *k = &kernels[(size_t)i % nk];
        c[i].url = url;
        if (asprintf(&c[i].body, "{\"path\": \"%s\", \"kernel\": \"%s\", \"stages\": [%s]}", k->path, k->name,
                     stages) < 0)
            return 2;
    }
    for (int round = 1; round <= rounds; round++) {
        pthread_barrier_init(&start_line, NULL, (unsigned)requests + 1);
        for (int i = 0; i < requests; i++)
            pthread_create(&c[i].t, NULL, client, &c[i]);
        double t0 = now();
        pthread_barrier_wait(&start_line);
        int failed = 0;
        for (int i = 0; i < requests; i++) {
            pthread_join(c[i].t, NULL);
            lat[i] = c[i].seconds * 1e3;
            if (c[i].failed && failed++ < 3)
                fprintf(stderr, "  request %d failed: %s\n", i, c[i].why);
        }
        double wall = now() - t0;
        pthread_barrier_destroy(&start_line);
        qsort(lat, (size_t)requests, sizeof *lat, by_double);
        printf("round %d%s: %d requests, %d errors, latency p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms; "
               "all done in %.2f s (%.0f compiles/s)\n",
               round, round == 1 ? " (fresh server)" : "", requests, failed, percentile(lat, requests, 50),
               percentile(lat, requests, 90), percentile(lat, requests, 99), lat[requests - 1], wall,
               requests / wall);
        total_failed += failed;
    }
    for (int i = 0; i < requests; i++)
        free(c[i].body);
    free(c);
    free(lat);
    mt_web_stop(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", data);
    if (system(cmd))
        fprintf(stderr, "web_load_bench: could not remove %s\n", data);
    curl_global_cleanup();
    return total_failed ? 1 : 0;
}
