/* gpu_fault.c (label gpu): the dashboard on a GPU, through its HTTP API
 * with the real `mytriton worker`. A kernel that stores far outside its
 * array (2^40 elements on) fails its request with the driver's illegal
 * address error, and the next GPU request -- on the same device queue, in
 * a fresh worker -- succeeds with the right answer; so does one before
 * it. Then both measuring kernels of the roofline run profiled and POST
 * /api/ceilings keeps the device's copy bandwidth and fp32 rate, and the
 * examples' vector add (2^24 elements) and softmax (16384 rows of 1024)
 * run profiled: it prints their GB/s (the compiler's bytes, checked
 * against the hand count) against the measured copy ceiling, with their
 * occupancy and where it came from (figures for the closing
 * note). Last, the repro archive of a GPU add run: its launch.c, compiled
 * with the C compiler against cuda.h (MYTRITON_CUDA_INCLUDE, else the
 * toolkit's include folder found at configure time) and the driver,
 * must reproduce the run on the GPU ("launch: ok").
 *
 *   gpu_web_fault MYTRITON EXAMPLES_DIR
 *
 * Without a GPU (the server's probe finds none) it prints "SKIP: no CUDA
 * device (<why>)" and exits 77; MYTRITON_REQUIRE_CUDA=1 makes that a
 * failure. A program, not library code: printing and exit() are its job. */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "http_client.h"
#include "web.h"

#define CHECK(cond, ...)                                                                                              \
    do {                                                                                                              \
        if (!(cond)) {                                                                                                \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                           \
            fprintf(stderr, __VA_ARGS__);                                                                             \
            fputc('\n', stderr);                                                                                      \
            exit(1);                                                                                                  \
        }                                                                                                             \
    } while (0)

static char base[128];

static const char add_source[] =
    "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
    "def add_kernel(x, y, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)\n";

static const char far_source[] =
    "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
    "def far_store_kernel(x, far, BLOCK: tl.constexpr):\n"
    "    tl.store(x + far + tl.arange(0, BLOCK), 1.0)\n";

static const char *str_of(const cJSON *o, const char *k) { return cJSON_GetStringValue(cJSON_GetObjectItem(o, k)); }

static cJSON *post(const char *path, const char *body, long want)
{
    char u[256];
    snprintf(u, sizeof u, "%s%s", base, path);
    long status;
    cJSON *doc = http_post_json(u, body, &status);
    CHECK(status == want && doc, "POST %s: %ld, wanted %ld: %s", path, status, want,
          doc ? cJSON_PrintUnformatted(doc) : "(no JSON)");
    return doc;
}

static cJSON *get(const char *path, long want)
{
    char u[256];
    snprintf(u, sizeof u, "%s%s", base, path);
    long status;
    cJSON *doc = http_get_json(u, &status);
    CHECK(status == want && doc, "GET %s: %ld, wanted %ld", path, status, want);
    return doc;
}

/* Post a run, follow its events to the end, and fetch it. */
static cJSON *run(cJSON *req)
{
    char *body = cJSON_PrintUnformatted(req);
    cJSON *doc = post("/api/runs", body, 202);
    int id = cJSON_GetObjectItem(doc, "id")->valueint;
    cJSON_Delete(doc);
    free(body);
    char path[64], u[256];
    snprintf(path, sizeof path, "/api/events/%d", id);
    snprintf(u, sizeof u, "%s%s", base, path);
    char *events = http_events(u, 300);
    CHECK(events && strstr(events, "event: done"), "run %d: no done event: %s", id, events ? events : "");
    free(events);
    snprintf(path, sizeof path, "/api/runs/%d", id);
    return get(path, 200);
}

static cJSON *add_request(void)
{
    cJSON *req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "source", add_source);
    cJSON_AddStringToObject(req, "backend", "cuda");
    cJSON_AddItemToObject(req, "spec",
                          cJSON_Parse("{\"grid\": [\"cdiv(n, BLOCK)\"], \"constexprs\": {\"BLOCK\": 256}, \"args\": "
                                      "{\"x\": {\"dtype\": \"float32\", \"shape\": [100000], \"init\": \"arange\"}, "
                                      "\"y\": {\"dtype\": \"float32\", \"shape\": [100000], \"init\": \"ones\"}, "
                                      "\"out\": {\"dtype\": \"float32\", \"shape\": [100000]}, \"n\": 100000}}"));
    return req;
}

static void expect_good_add(const char *when)
{
    cJSON *req = add_request();
    cJSON *r = run(req);
    CHECK(!strcmp(str_of(r, "status"), "ok"), "%s: the add run: %s (%s)", when, str_of(r, "status"),
          str_of(r, "error") ? str_of(r, "error") : "");
    const cJSON *a;
    double sum = -1;
    cJSON_ArrayForEach(a, cJSON_GetObjectItem(cJSON_GetObjectItem(r, "result"), "arrays"))
    {
        if (!strcmp(str_of(a, "name"), "out"))
            sum = cJSON_GetObjectItem(cJSON_GetObjectItem(a, "stats"), "sum")->valuedouble;
    }
    /* sum(arange(100000) + 1) = 100000 * 100001 / 2, to float32's rounding */
    CHECK(sum > 5.0000e9 && sum < 5.0002e9, "%s: out sums to %f", when, sum);
    printf("ok   %s: the add run on %s: out sums to %.6g\n", when,
           str_of(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "result"), "device"), "name"), sum);
    cJSON_Delete(r);
    cJSON_Delete(req);
}

/* The archive of a GPU add run, extracted under tmp; its launch.c built
 * and run on the GPU. */
static void expect_repro_reproduces(const char *tmp)
{
    cJSON *req = add_request();
    cJSON *r = run(req);
    CHECK(!strcmp(str_of(r, "status"), "ok"), "the add run for the repro: %s", str_of(r, "status"));
    char u[256], file[4200], cmd[8400];
    snprintf(u, sizeof u, "%s/api/runs/%d/repro", base, cJSON_GetObjectItem(r, "id")->valueint);
    cJSON_Delete(r);
    cJSON_Delete(req);
    HttpResp t = http_request("GET", u, NULL, 0, NULL, 0);
    CHECK(t.status == 200 && t.len > 512, "GET %s: %ld", u, t.status);
    snprintf(file, sizeof file, "%s/repro.tar", tmp);
    FILE *f = fopen(file, "wb");
    CHECK(f && fwrite(t.body, 1, t.len, f) == t.len && fclose(f) == 0, "writing %s", file);
    http_free(&t);
    const char *inc = getenv("MYTRITON_CUDA_INCLUDE");
    if (!inc || !*inc)
        inc = MT_CUDA_INCLUDE;
    snprintf(file, sizeof file, "%s/cuda.h", inc);
    if (access(file, R_OK) || system("cc --version > /dev/null 2>&1")) {
        printf("note the repro's launch.c was not built: %s (set MYTRITON_CUDA_INCLUDE to a folder with cuda.h)\n",
               access(file, R_OK) ? "no cuda.h" : "no C compiler (cc)");
        return;
    }
    /* the archive's one folder holds launch.c; -l:libcuda.so.1 is the driver itself (no libcuda.so link here) */
    snprintf(cmd, sizeof cmd,
             "cd %s && mkdir repro && tar -xf repro.tar -C repro && cd repro/* && "
             "cc -Wall -Werror launch.c -I'%s' -l:libcuda.so.1 -o launch > cc.out 2>&1 && ./launch > launch.out 2>&1; "
             "cat cc.out launch.out 2>/dev/null",
             tmp, inc);
    FILE *p = popen(cmd, "r");
    CHECK(p, "popen");
    char out[8192];
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    int rc = pclose(p);
    CHECK(rc == 0 && strstr(out, "launch: ok: add_kernel reproduces the run"), "the repro's launch.c: %s", out);
    printf("ok   the repro archive's launch.c, built with cc, reproduces the run on the GPU: %s",
           strstr(out, "launch: ok"));
}

/* The two measuring kernels, profiled, then the ceilings; the copy GB/s. */
static double measure_ceilings(void)
{
    cJSON *doc = get("/api/ceilings?device=0", 200);
    int ids[2];
    const cJSON *k;
    int i = 0;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(doc, "kernels"))
    {
        cJSON *req = cJSON_CreateObject();
        cJSON_AddStringToObject(req, "source", str_of(k, "source"));
        cJSON_AddStringToObject(req, "kernel", str_of(k, "kernel"));
        cJSON_AddStringToObject(req, "signature", str_of(k, "signature"));
        cJSON_AddItemToObject(req, "spec", cJSON_Duplicate(cJSON_GetObjectItem(k, "spec"), true));
        cJSON_AddStringToObject(req, "backend", "cuda");
        cJSON_AddNumberToObject(req, "device", 0);
        cJSON_AddNumberToObject(req, "profile", 50);
        cJSON_AddFalseToObject(req, "keep_outputs");
        cJSON *r = run(req);
        CHECK(!strcmp(str_of(r, "status"), "ok"), "the %s kernel: %s", str_of(k, "name"), str_of(r, "error"));
        CHECK(cJSON_GetObjectItem(r, "occupancy") && cJSON_GetObjectItem(cJSON_GetObjectItem(r, "occupancy"), "fraction"),
              "no occupancy for the %s run", str_of(k, "name"));
        /* cuOccupancyMaxActiveBlocksPerMultiprocessor answered, and the calculation agrees with it */
        CHECK(!strcmp(str_of(cJSON_GetObjectItem(r, "occupancy"), "source"), "driver") &&
                  !cJSON_GetObjectItem(cJSON_GetObjectItem(r, "occupancy"), "calculated_blocks_per_sm"),
              "the %s run's occupancy is not the driver's, or the calculation disagrees: %s", str_of(k, "name"),
              cJSON_PrintUnformatted(cJSON_GetObjectItem(r, "occupancy")));
        char *occ = cJSON_PrintUnformatted(cJSON_GetObjectItem(r, "occupancy"));
        printf("     the %s kernel: registers %d, occupancy %s\n", str_of(k, "name"),
               cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "result"), "device"), "registers")->valueint,
               occ);
        free(occ);
        ids[i++] = cJSON_GetObjectItem(r, "id")->valueint;
        cJSON_Delete(r);
        cJSON_Delete(req);
    }
    cJSON_Delete(doc);
    char body[128];
    snprintf(body, sizeof body, "{\"device\": 0, \"copy_run\": %d, \"fma_run\": %d}", ids[0], ids[1]);
    doc = post("/api/ceilings", body, 201);
    cJSON *c = cJSON_GetObjectItem(doc, "ceilings");
    double gbs = cJSON_GetObjectItem(c, "copy_gbs")->valuedouble, tf = cJSON_GetObjectItem(c, "fp32_tflops")->valuedouble;
    const cJSON *copy = cJSON_GetObjectItem(c, "copy"), *fma = cJSON_GetObjectItem(c, "fma");
    printf("ok   ceilings of %s: copy %.1f GB/s (%.0f bytes, best %.2f us, median %.2f us), fp32 FMA %.2f TFLOP/s "
           "(%.0f FLOPs, best %.2f us, median %.2f us) (timer %s)\n",
           str_of(c, "device"), gbs, cJSON_GetObjectItem(copy, "bytes")->valuedouble,
           cJSON_GetObjectItem(copy, "best_ns")->valuedouble / 1e3,
           cJSON_GetObjectItem(copy, "median_ns")->valuedouble / 1e3,
           tf, cJSON_GetObjectItem(fma, "flops")->valuedouble, cJSON_GetObjectItem(fma, "best_ns")->valuedouble / 1e3,
           cJSON_GetObjectItem(fma, "median_ns")->valuedouble / 1e3, str_of(copy, "timer"));
    CHECK(gbs > 10 && tf > 0.1, "implausible ceilings");
    cJSON_Delete(doc);
    return gbs;
}

/* The resources the dashboard reads from NVRTC's cubin without a GPU (the
 * compile view's, cubin_info.c) are the ones the driver reports for the
 * same kernel loaded on the GPU: registers and static shared memory. */
static void expect_cubin_matches_driver(const char *path, const cJSON *r, const char *what)
{
    const cJSON *dev = cJSON_GetObjectItem(cJSON_GetObjectItem(r, "result"), "device");
    cJSON *req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "path", path);
    cJSON_AddStringToObject(req, "signature", str_of(r, "signature"));
    cJSON *stages = cJSON_AddArrayToObject(req, "stages");
    cJSON_AddItemToArray(stages, cJSON_CreateString("cuda"));
    cJSON_AddItemToArray(stages, cJSON_CreateString("ptx"));
    char *body = cJSON_PrintUnformatted(req);
    cJSON *doc = post("/api/compile", body, 200);
    const cJSON *res = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "ptx"), "resources");
    CHECK(res && cJSON_GetObjectItem(res, "registers")->valueint == cJSON_GetObjectItem(dev, "registers")->valueint &&
              cJSON_GetObjectItem(res, "shared_bytes")->valueint == cJSON_GetObjectItem(dev, "shared_bytes")->valueint,
          "%s: the cubin says %s, the driver %s", what, cJSON_PrintUnformatted(res), cJSON_PrintUnformatted(dev));
    printf("ok   %s: the cubin's resources are the driver's (%d registers, %d B shared)\n", what,
           cJSON_GetObjectItem(res, "registers")->valueint, cJSON_GetObjectItem(res, "shared_bytes")->valueint);
    free(body);
    cJSON_Delete(doc);
    cJSON_Delete(req);
}

/* An example kernel profiled over 50 launches: its GB/s (the compiler's
 * bytes, `want` of them) against the copy ceiling. */
static void profile_example(const char *examples, const char *file, const char *spec, const char *what, double want,
                            double ceiling)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", examples, file);
    cJSON *req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "path", path);
    cJSON_AddStringToObject(req, "backend", "cuda");
    cJSON_AddNumberToObject(req, "profile", 50);
    cJSON_AddBoolToObject(req, "compare", true);
    cJSON_AddItemToObject(req, "spec", cJSON_Parse(spec));
    cJSON *r = run(req);
    CHECK(!strcmp(str_of(r, "status"), "ok"), "%s: %s (%s)", what, str_of(r, "status"), str_of(r, "error"));
    const cJSON *res = cJSON_GetObjectItem(r, "result");
    const cJSON *prof = cJSON_GetObjectItem(res, "profile");
    const cJSON *cost = cJSON_GetObjectItem(r, "cost");
    double median = cJSON_GetObjectItem(prof, "median_ns")->valuedouble;
    const cJSON *bytes = cJSON_GetObjectItem(cost, "bytes"), *gbps = cJSON_GetObjectItem(cost, "gbps");
    CHECK(cJSON_IsNumber(bytes) && bytes->valuedouble == want && cJSON_IsNumber(gbps),
          "%s: the compiler's bytes %s, wanted %.0f", what, cJSON_PrintUnformatted(cost), want);
    char *occ = cJSON_PrintUnformatted(cJSON_GetObjectItem(r, "occupancy"));
    printf("ok   %s: median %.2f us over %d launches (%s), %.0f bytes (the compiler's), %.1f GB/s = %.1f%% of the "
           "measured copy ceiling; shared %d B, local %d B, registers %d, occupancy %s\n",
           what, median / 1e3, cJSON_GetObjectItem(prof, "launches")->valueint, str_of(prof, "timer"),
           bytes->valuedouble, gbps->valuedouble, 100 * gbps->valuedouble / ceiling,
           cJSON_GetObjectItem(cJSON_GetObjectItem(res, "device"), "shared_bytes")->valueint,
           cJSON_GetObjectItem(cJSON_GetObjectItem(res, "device"), "local_bytes")->valueint,
           cJSON_GetObjectItem(cJSON_GetObjectItem(res, "device"), "registers")->valueint, occ);
    free(occ);
    expect_cubin_matches_driver(path, r, what);
    cJSON_Delete(r);
    cJSON_Delete(req);
}

int main(int argc, char **argv)
{
    CHECK(argc == 3, "usage: gpu_web_fault MYTRITON EXAMPLES_DIR");
    char examples[4096];
    CHECK(realpath(argv[2], examples), "%s: no such folder", argv[2]);
    char tmp[] = "/tmp/mytriton-gpu-web-XXXXXX", err[512];
    CHECK(mkdtemp(tmp), "mkdtemp");
    curl_global_init(CURL_GLOBAL_DEFAULT);
    const char *roots[] = {tmp, examples};
    MtWebOptions o = {.roots = roots, .nroots = 2, .data_dir = tmp, .worker_exe = argv[1], .run_timeout_s = 120};
    MtWebServer *s = mt_web_start(&o, err, sizeof err);
    CHECK(s, "the server did not start: %s", err);
    snprintf(base, sizeof base, "http://127.0.0.1:%d", mt_web_port(s));
    /* the probe: ready, or no GPU */
    const char *state = "probing";
    cJSON *info = NULL;
    for (int i = 0; i < 600 && !strcmp(state, "probing"); i++) {
        cJSON_Delete(info);
        info = get("/api/info", 200);
        state = str_of(cJSON_GetObjectItem(cJSON_GetObjectItem(info, "backends"), "cuda"), "state");
        if (!strcmp(state, "probing"))
            usleep(100000);
    }
    if (strcmp(state, "ready")) {
        const char *why = str_of(cJSON_GetObjectItem(cJSON_GetObjectItem(info, "backends"), "cuda"), "reason");
        const char *req = getenv("MYTRITON_REQUIRE_CUDA");
        mt_web_stop(s);
        if (req && !strcmp(req, "1")) {
            fprintf(stderr, "FAIL: MYTRITON_REQUIRE_CUDA=1 but no CUDA device (%s)\n", why ? why : state);
            return 1;
        }
        printf("SKIP: no CUDA device (%s)\n", why ? why : state);
        return 77;
    }
    cJSON_Delete(info);

    expect_good_add("before the fault");
    cJSON *req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "source", far_source);
    cJSON_AddStringToObject(req, "signature", "*fp32,i64,32");
    cJSON_AddStringToObject(req, "backend", "cuda");
    cJSON_AddItemToObject(req, "spec",
                          cJSON_Parse("{\"grid\": [1], \"args\": {\"x\": {\"dtype\": \"float32\", \"shape\": [32]}, "
                                      "\"far\": 1099511627776}}"));
    cJSON *bad = run(req);
    const char *error = str_of(bad, "error");
    CHECK(!strcmp(str_of(bad, "status"), "error") && error && (strstr(error, "ILLEGAL_ADDRESS") || strstr(error, "illegal")),
          "the far store: status %s, error %s", str_of(bad, "status"), error ? error : "(none)");
    printf("ok   the far store failed its request: %s\n", error);
    cJSON_Delete(bad);
    cJSON_Delete(req);
    expect_good_add("after the fault");
    double ceiling = measure_ceilings();
    profile_example(examples, "add_kernel.py",
                    "{\"grid\": [\"cdiv(n, BLOCK)\"], \"constexprs\": {\"BLOCK\": 1024}, \"args\": {\"x\": "
                    "{\"dtype\": \"float32\", \"shape\": [16777216], \"init\": \"uniform\"}, \"y\": {\"dtype\": "
                    "\"float32\", \"shape\": [16777216], \"init\": \"uniform\"}, \"out\": {\"dtype\": \"float32\", "
                    "\"shape\": [16777216]}, \"n\": 16777216}}",
                    "vector add (n = 2^24)", 12.0 * 16777216, ceiling);
    profile_example(examples, "softmax.py",
                    "{\"grid\": [16384], \"constexprs\": {\"BLOCK\": 1024}, \"args\": {\"x\": {\"dtype\": "
                    "\"float32\", \"shape\": [16384, 1024], \"init\": \"normal\", \"seed\": 24}, \"out\": "
                    "{\"dtype\": \"float32\", \"shape\": [16384, 1024]}, \"n_cols\": 1024}}",
                    "softmax (16384 x 1024)", 8.0 * 16384 * 1024, ceiling);
    expect_repro_reproduces(tmp);
    mt_web_stop(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (system(cmd))
        fprintf(stderr, "could not remove %s\n", tmp);
    curl_global_cleanup();
    printf("gpu web: ok\n");
    return 0;
}
