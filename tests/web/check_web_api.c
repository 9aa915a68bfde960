/* check_web_api.c: the dashboard's JSON API, through a real HTTP client
 * (libcurl) against a server started on an ephemeral port for each test.
 *
 * Every endpoint; bad JSON, wrong field types, oversized bodies (declared
 * and chunked), unknown kernels and endpoints; path traversal (`..`,
 * absolute paths, encoded dots, a symbolic link out of the root); the
 * Host and Origin checks; the token in each of its four places; a
 * non-loopback address refused without a token; and runs end to end
 * through worker processes, with a worker that crashes, one that hangs
 * and one that runs out of memory each costing only their own request
 * while another request succeeds. Most tests use tests/web/fake_worker.py,
 * which speaks the worker protocol without running kernels; the "real"
 * case runs `mytriton worker` itself on the interpreter: real outputs, a
 * kernel that reads far out of bounds and one that never ends, each
 * failing alone while a parallel run succeeds. The GPU's own fault case
 * is tests/gpu (label gpu). */
#include <check.h>
#include <curl/curl.h>
#include <ftw.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "http_client.h"
#include "web.h"

#ifndef MT_FIXTURES
#error "MT_FIXTURES must name tests/web/fixtures"
#endif
#ifndef MT_FAKE_WORKER
#error "MT_FAKE_WORKER must name tests/web/fake_worker.py"
#endif
#ifndef MT_TUTORIAL
#error "MT_TUTORIAL must name tests/lsp/fixtures/tutorial"
#endif
#ifndef MT_FAKE_DRIVER_DIR
#error "MT_FAKE_DRIVER_DIR must name the fake libcuda.so.1's folder (empty without the CUDA toolkit)"
#endif
#ifndef MT_MYTRITON
#error "MT_MYTRITON must name the mytriton executable (the real worker)"
#endif

static char tmp[256], root[300], data[300], base[128];
static MtWebServer *srv;

static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    ck_assert_msg(in && out, "cannot copy %s to %s", from, to);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)))
        fwrite(buf, 1, n, out);
    fclose(in);
    fclose(out);
}

static MtWebServer *start(MtWebOptions o, char *err, size_t errlen)
{
    static const char *roots[1];
    roots[0] = root;
    o.roots = roots;
    o.nroots = 1;
    o.data_dir = data;
    if (!o.worker_exe)
        o.worker_exe = MT_FAKE_WORKER;
    if (!o.max_body)
        o.max_body = 256 << 10;
    if (!o.max_upload)
        o.max_upload = 64 << 10;
    if (!o.run_timeout_s)
        o.run_timeout_s = 3;
    return mt_web_start(&o, err, errlen);
}

static void setup_with(MtWebOptions o)
{
    snprintf(tmp, sizeof tmp, "/tmp/mtweb_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmp));
    snprintf(root, sizeof root, "%s/root", tmp);
    snprintf(data, sizeof data, "%s/data", tmp);
    ck_assert_int_eq(mkdir(root, 0700), 0);
    char to[400];
    static const char *const files[] = {"kernels.py", "faults.py", "interp_faults.py", "dtypes.py"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char from[400];
        snprintf(from, sizeof from, "%s/%s", MT_FIXTURES, files[i]);
        snprintf(to, sizeof to, "%s/%s", root, files[i]);
        copy_file(from, to);
    }
    snprintf(to, sizeof to, "%s/escape.py", root);
    ck_assert_int_eq(symlink("/etc/passwd", to), 0);
    snprintf(to, sizeof to, "%s/outside", root);
    ck_assert_int_eq(symlink("/", to), 0);
    snprintf(to, sizeof to, "%s/sub", root);
    ck_assert_int_eq(mkdir(to, 0700), 0);
    char err[512];
    srv = start(o, err, sizeof err);
    ck_assert_msg(srv != NULL, "server did not start: %s", err);
    snprintf(base, sizeof base, "http://127.0.0.1:%d", mt_web_port(srv));
}

static void setup(void) { setup_with((MtWebOptions){0}); }

static int remove_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)flag, (void)f;
    return remove(p);
}

static void teardown(void)
{
    mt_web_stop(srv);
    srv = NULL;
    nftw(tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *url(const char *path)
{
    static char u[2][2048];
    static int k;
    k ^= 1;
    snprintf(u[k], sizeof u[k], "%s%s", base, path);
    return u[k];
}

static cJSON *get_json(const char *path, long want)
{
    long status;
    cJSON *doc = http_get_json(url(path), &status);
    ck_assert_msg(status == want, "GET %s: status %ld, wanted %ld", path, status, want);
    ck_assert_ptr_nonnull(doc);
    return doc;
}

static cJSON *post_json(const char *path, const char *body, long want)
{
    long status;
    cJSON *doc = http_post_json(url(path), body, &status);
    ck_assert_msg(status == want, "POST %s %.200s: status %ld, wanted %ld", path, body, status, want);
    ck_assert_ptr_nonnull(doc);
    return doc;
}

static const char *error_code(const cJSON *doc)
{
    return cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "error"), "code"));
}

static const char *error_field(const cJSON *doc)
{
    return cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "error"), "field"));
}

static const char *str_of(const cJSON *o, const char *k) { return cJSON_GetStringValue(cJSON_GetObjectItem(o, k)); }

static void expect_error(const char *method, const char *path, const char *body, long status, const char *code)
{
    HttpResp r = http_request(method, url(path), body, body ? strlen(body) : 0, NULL, 0);
    ck_assert_msg(r.status == status, "%s %s: status %ld, wanted %ld (%s)", method, path, r.status, status, r.body);
    cJSON *doc = cJSON_Parse(r.body);
    ck_assert_msg(doc && error_code(doc) && !strcmp(error_code(doc), code), "%s %s: wanted error %s, got %s", method,
                  path, code, r.body);
    cJSON_Delete(doc);
    http_free(&r);
}

/* ---- the page, info, files ------------------------------------------------------ */

START_TEST(info_and_security_headers)
{
    HttpResp r = http_request("GET", url("/api/info"), NULL, 0, NULL, 0);
    ck_assert_int_eq(r.status, 200);
    char *csp = http_header(&r, "Content-Security-Policy");
    ck_assert_ptr_nonnull(csp);
    ck_assert_ptr_nonnull(strstr(csp, "default-src 'none'"));
    ck_assert_ptr_nonnull(strstr(csp, "script-src 'self'"));
    ck_assert_ptr_nonnull(strstr(csp, "frame-ancestors 'none'"));
    free(csp);
    char *nosniff = http_header(&r, "X-Content-Type-Options");
    ck_assert_str_eq(nosniff, "nosniff");
    free(nosniff);
    cJSON *doc = cJSON_Parse(r.body);
    ck_assert_int_gt(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "dtypes")), 2);
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(doc, "token_required")));
    ck_assert_ptr_nonnull(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "backends"), "cuda"));
    cJSON_Delete(doc);
    http_free(&r);
}
END_TEST

START_TEST(page_carries_its_nonce)
{
    HttpResp r = http_request("GET", url("/"), NULL, 0, NULL, 0);
    ck_assert_int_eq(r.status, 200);
    ck_assert_ptr_null(strstr(r.body, "{{nonce}}"));
    char *csp = http_header(&r, "Content-Security-Policy");
    const char *n = strstr(csp, "'nonce-");
    ck_assert_ptr_nonnull(n);
    char nonce[64];
    ck_assert_int_eq(sscanf(n + 7, "%63[0-9a-f]", nonce), 1);
    char meta[128];
    snprintf(meta, sizeof meta, "content=\"%s\"", nonce);
    ck_assert_ptr_nonnull(strstr(r.body, meta));
    free(csp);
    http_free(&r);
    r = http_request("GET", url("/app.js"), NULL, 0, NULL, 0);
    ck_assert_int_eq(r.status, 200);
    char *type = http_header(&r, "Content-Type");
    ck_assert_ptr_nonnull(strstr(type, "javascript"));
    free(type);
    http_free(&r);
    expect_error("GET", "/no-such-page.js", NULL, 404, "not_found");
}
END_TEST

START_TEST(files_lists_kernels_under_the_root)
{
    cJSON *doc = get_json("/api/files", 200);
    char *text = cJSON_PrintUnformatted(doc);
    ck_assert_ptr_nonnull(strstr(text, "kernels.py"));
    ck_assert_ptr_nonnull(strstr(text, "\"scale_kernel\""));
    ck_assert_ptr_nonnull(strstr(text, "\"twice\",\"line\":17,\"helper\":true"));
    ck_assert_ptr_null(strstr(text, "passwd"));
    free(text);
    cJSON_Delete(doc);
}
END_TEST

START_TEST(file_reads_only_under_the_root)
{
    char path[600];
    snprintf(path, sizeof path, "/api/file?path=%s/kernels.py", root);
    cJSON *doc = get_json(path, 200);
    ck_assert_ptr_nonnull(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(doc, "source")), "def add_kernel"));
    cJSON *k = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "kernels"), 0);
    ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(k, "directive")), "BLOCK=64");
    cJSON_Delete(doc);
    static const char *const refused[] = {
        "/api/file?path=/etc/passwd",
        "/api/file?path=../../../../../etc/passwd",
        "/api/file?path=%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/api/file?path=ROOT/../../../etc/passwd",
        "/api/file?path=ROOT/escape.py",
        "/api/file?path=ROOT/outside/etc/passwd",
        "/api/file?path=ROOT/sub",
        "/api/file?path=ROOT/missing.py",
        "/api/file?path=",
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        char p[700];
        const char *at = strstr(refused[i], "ROOT");
        if (at)
            snprintf(p, sizeof p, "%.*s%s%s", (int)(at - refused[i]), refused[i], root, at + 4);
        else
            snprintf(p, sizeof p, "%s", refused[i]);
        HttpResp r = http_request("GET", url(p), NULL, 0, NULL, 0);
        ck_assert_msg(r.status == 404 || r.status == 400, "%s: status %ld", p, r.status);
        ck_assert_msg(!strstr(r.body, "root:"), "%s leaked a file: %s", p, r.body);
        http_free(&r);
    }
    expect_error("GET", "/api/file", NULL, 400, "bad_field");
}
END_TEST

/* ---- compiling ------------------------------------------------------------------------------ */

static char *body_for(const char *kernel, const char *extra)
{
    static char b[1024];
    snprintf(b, sizeof b, "{\"path\": \"%s/kernels.py\", \"kernel\": \"%s\"%s}", root, kernel, extra);
    return b;
}

START_TEST(compile_links_every_stage_to_the_source)
{
    cJSON *doc = post_json("/api/compile", body_for("scale_kernel", ", \"passes\": true"), 200);
    ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(doc, "status")), "ok");
    ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(doc, "signature")), "*fp32,*fp32,i32,64");
    cJSON *lines = cJSON_GetObjectItem(doc, "lines");
    const char *ssa = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "stages"), "ssa"));
    /* the helper's multiply: its own line (18) and the call site (27) */
    const char *mul = strstr(ssa, ", 2.0 :");
    ck_assert_ptr_nonnull(mul);
    int line = 0;
    for (const char *p = ssa; p <= mul; p++)
        line += *p == '\n';
    cJSON *o = cJSON_GetArrayItem(cJSON_GetObjectItem(lines, "ssa"), line);
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "span"), "line")->valueint, 18);
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(o, "calls"), 0), "line")->valueint, 27);
    for (const char *s = "expr\0ssa-raw\0ssa\0layout\0cuda\0"; *s; s += strlen(s) + 1)
        ck_assert_msg(cJSON_GetArraySize(cJSON_GetObjectItem(lines, s)) > 3, "no lines for %s", s);
    cJSON *passes = cJSON_GetObjectItem(doc, "passes");
    ck_assert_int_ge(cJSON_GetArraySize(passes), 3);
    ck_assert_ptr_nonnull(cJSON_GetObjectItem(cJSON_GetArrayItem(passes, 0), "diff"));
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "kernel_info"), "threads")->valueint, 128); /* 4 programs of one warp per block (fast lowering) */
    cJSON_Delete(doc);
}
END_TEST

START_TEST(compile_ptx_is_linked_through_cuda)
{
    cJSON *doc = post_json("/api/compile", body_for("add_kernel", ", \"stages\": [\"cuda\", \"sass\"]"), 200);
    cJSON *ptx = cJSON_GetObjectItem(doc, "ptx");
    ck_assert_ptr_nonnull(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(ptx, "text")), ".entry add_kernel"));
    int linked = 0;
    cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(ptx, "lines")) linked += cJSON_GetObjectItem(e, "span") != NULL;
    ck_assert_int_gt(linked, 5);
    cJSON *sass = cJSON_GetObjectItem(doc, "sass");
    ck_assert(cJSON_GetObjectItem(sass, "text") || cJSON_GetObjectItem(sass, "unavailable"));
    /* the cubin's resources and the occupancy they give on sm_90, without a GPU */
    const cJSON *res = cJSON_GetObjectItem(ptx, "resources");
    ck_assert_msg(res, "no resources: %s", cJSON_PrintUnformatted(ptx));
    ck_assert_str_eq(str_of(res, "source"), "cubin");
    ck_assert_int_gt(cJSON_GetObjectItem(res, "registers")->valueint, 0);
    ck_assert_int_eq(cJSON_GetObjectItem(res, "shared_bytes")->valueint, 0);
    ck_assert_int_eq(cJSON_GetObjectItem(res, "threads")->valueint,
                     cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "kernel_info"), "threads")->valueint);
    const cJSON *occ = cJSON_GetObjectItem(ptx, "occupancy");
    ck_assert_str_eq(str_of(occ, "source"), "calculated");
    ck_assert_str_eq(str_of(occ, "limits"), "sm_90");
    ck_assert_int_gt(cJSON_GetObjectItem(occ, "blocks_per_sm")->valueint, 0);
    cJSON_Delete(doc);
    /* a cross-warp reduction's shared memory: the cubin holds what the compiler laid out */
    doc = post_json("/api/compile",
                    "{\"source\": \"import triton\\nimport triton.language as tl\\n\\n@triton.jit\\ndef "
                    "row_sum(x, out, BLOCK: tl.constexpr):\\n    offs = tl.arange(0, BLOCK)\\n    tl.store(out, "
                    "tl.sum(tl.load(x + offs)))\\n\", \"signature\": \"*fp32,*fp32,4096\", "
                    "\"stages\": [\"cuda\", \"ptx\"]}",
                    200);
    res = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "ptx"), "resources");
    const cJSON *info = cJSON_GetObjectItem(doc, "kernel_info");
    ck_assert_msg(res && info, "%.300s / %.300s", cJSON_PrintUnformatted(cJSON_GetObjectItem(doc, "diagnostics")),
                  cJSON_PrintUnformatted(cJSON_GetObjectItem(doc, "ptx")));
    int shared = cJSON_GetObjectItem(info, "shared_bytes")->valueint;
    ck_assert_int_gt(shared, 0);
    ck_assert_int_eq(cJSON_GetObjectItem(res, "shared_bytes")->valueint, shared);
    cJSON_Delete(doc);
}
END_TEST

/* Linked lines of a stage part ({"text", "lines"}): how many carry a span,
 * and whether one was inlined through a call on `call_line`. */
static int linked_lines(const cJSON *part, int call_line, bool *inlined)
{
    int linked = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(part, "lines"))
    {
        linked += cJSON_GetObjectItem(e, "span") != NULL;
        const cJSON *call = cJSON_GetArrayItem(cJSON_GetObjectItem(e, "calls"), 0);
        if (call && cJSON_GetObjectItem(call, "line")->valueint == call_line)
            *inlined = true;
    }
    return linked;
}

START_TEST(compile_mlir_stages_are_linked)
{
    cJSON *plain = post_json("/api/compile", body_for("scale_kernel", ", \"stages\": [\"ssa\"]"), 200);
    cJSON *doc = post_json("/api/compile", body_for("scale_kernel", ", \"stages\": [\"ssa\", \"mlir\", \"mlir-llvm\"]"), 200);
    ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(doc, "status")), "ok");
    /* the MLIR compile's own diagnostics stay out of the editor's */
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "diagnostics")),
                     cJSON_GetArraySize(cJSON_GetObjectItem(plain, "diagnostics")));
    cJSON_Delete(plain);
    for (const char *s = "mlir\0mlir-llvm\0"; *s; s += strlen(s) + 1) {
        cJSON *part = cJSON_GetObjectItem(doc, s);
        ck_assert_msg(part != NULL, "no %s part", s);
        const char *unavailable = cJSON_GetStringValue(cJSON_GetObjectItem(part, "unavailable"));
        if (unavailable) {
            /* a build without the MLIR backend: the pane says how to get it */
            ck_assert_ptr_nonnull(strstr(unavailable, "docs/mlir-backend.md"));
            continue;
        }
        const char *text = cJSON_GetStringValue(cJSON_GetObjectItem(part, "text"));
        ck_assert_msg(text && strstr(text, "gpu.module"), "%s: %s", s, cJSON_PrintUnformatted(part));
        ck_assert_ptr_nonnull(strstr(text, !strcmp(s, "mlir") ? "arith.mulf" : "llvm.fmul"));
        ck_assert_ptr_nonnull(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(part, "version")), "MLIR"));
        /* the helper's multiply is inlined through the call on line 27 */
        bool inlined = false;
        ck_assert_int_gt(linked_lines(part, 27, &inlined), 3);
        ck_assert_msg(inlined, "%s: no line inlined through the call on line 27", s);
    }
    /* the seed lowering has no kernel layer for MLIR: an error in the pane, not in the editor */
    cJSON_Delete(doc);
    doc = post_json("/api/compile",
                    body_for("scale_kernel", ", \"lowering\": \"seed\", \"stages\": [\"cuda\", \"mlir\"]"), 200);
    ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(doc, "status")), "ok");
    cJSON *part = cJSON_GetObjectItem(doc, "mlir");
    ck_assert(cJSON_GetObjectItem(part, "error") || cJSON_GetObjectItem(part, "unavailable"));
    cJSON_Delete(doc);
}
END_TEST

/* tests/exec/fast/dots.py's advancing_matmul_kernel: a K loop of tl.dot
 * whose tiles the fast lowering loads one iteration ahead. */
static const char dot_loop_body[] =
    "{\"source\": \"import triton\\nimport triton.language as tl\\n\\n@triton.jit\\n"
    "def mm(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):\\n"
    "    rm = tl.arange(0, BM)\\n    rn = tl.arange(0, BN)\\n    rk = tl.arange(0, BK)\\n"
    "    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]\\n    b_ptrs = b_ptr + rk[:, None] * BN + rn[None, :]\\n"
    "    acc = tl.zeros((BM, BN), dtype=tl.float32)\\n    for k in range(0, K, BK):\\n"
    "        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))\\n        a_ptrs += BK\\n"
    "        b_ptrs += BK * BN\\n    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)\\n\", "
    "\"signature\": \"*fp32,*fp32,*fp32,i32,32,32,16\", \"stages\": [\"kernel\", \"mlir\"]%s}";

/* Loads and copies into shared memory in the kernel layer before its
 * first loop. */
static int tiles_before_loop(const cJSON *doc)
{
    const char *text = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "stages"), "kernel"));
    ck_assert_ptr_nonnull(text);
    const char *loop = text;
    while ((loop = strchr(loop, '\n')) && strncmp(loop + 1 + strspn(loop + 1, " "), "for ", 4))
        loop++;
    ck_assert_ptr_nonnull(loop);
    int n = 0;
    for (const char *word = "load \0= cp.async\0"; *word; word += strlen(word) + 1)
        for (const char *p = strstr(text, word); p && p < loop; p = strstr(p + 1, word))
            n++;
    return n;
}

START_TEST(compile_takes_num_stages)
{
    char body[2048];
    snprintf(body, sizeof body, dot_loop_body, "");
    cJSON *piped = post_json("/api/compile", body, 200);
    ck_assert_int_gt(tiles_before_loop(piped), 0);
    snprintf(body, sizeof body, dot_loop_body, ", \"num_stages\": 1");
    cJSON *plain = post_json("/api/compile", body, 200);
    ck_assert_int_eq(tiles_before_loop(plain), 0);
    /* the MLIR stages are a compile of their own, with the same options */
    const char *mlir_piped = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(piped, "mlir"), "text"));
    const char *mlir_plain = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(plain, "mlir"), "text"));
    ck_assert((mlir_piped == NULL) == (mlir_plain == NULL));
    if (mlir_piped)
        ck_assert_str_ne(mlir_piped, mlir_plain);
    cJSON_Delete(piped);
    cJSON_Delete(plain);
    for (const char *v = "0\0" "9\0" "2.5\0" "\"2\"\0"; *v; v += strlen(v) + 1) {
        char extra[64];
        snprintf(extra, sizeof extra, ", \"num_stages\": %s", v);
        snprintf(body, sizeof body, dot_loop_body, extra);
        cJSON *doc = post_json("/api/compile", body, 400);
        ck_assert_str_eq(error_code(doc), "bad_field");
        ck_assert_str_eq(error_field(doc), "num_stages");
        ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "error"), "message")),
                         "num_stages must be a number of stages from 1 to 8");
        cJSON_Delete(doc);
    }
}
END_TEST

START_TEST(compile_errors_come_with_ranges_and_fixes)
{
    const char *body = "{\"source\": \"import triton\\nimport triton.language as tl\\n\\n@triton.jit\\n"
                       "def k(x, n, BLOCK: tl.constexpr):\\n    r = tl.arange(0, BLOCK)\\n"
                       "    mask = r < n & r >= 0\\n    tl.store(x + r, 0.0, mask=mask)\\n\","
                       " \"defines\": {\"BLOCK\": 16}}";
    cJSON *doc = post_json("/api/compile", body, 200);
    ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(doc, "status")), "error");
    cJSON *d = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "diagnostics"), 0);
    ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(d, "code")), "E0207");
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(d, "range"), "start"), "line")->valueint, 7);
    ck_assert_int_gt(cJSON_GetObjectItem(d, "from")->valueint, 0);
    cJSON *fix = cJSON_GetArrayItem(cJSON_GetObjectItem(d, "fixes"), 0);
    ck_assert_ptr_nonnull(fix);
    ck_assert_int_gt(cJSON_GetArraySize(cJSON_GetObjectItem(fix, "edits")), 0);
    cJSON_Delete(doc);
}
END_TEST

START_TEST(compile_rejects_bad_requests)
{
    expect_error("POST", "/api/compile", "{\"source\": ", 400, "bad_json");
    expect_error("POST", "/api/compile", "[1, 2]", 400, "bad_json");
    expect_error("POST", "/api/compile", "{} trailing", 400, "bad_json");
    expect_error("POST", "/api/compile", "", 400, "bad_json");
    expect_error("POST", "/api/compile", "{}", 400, "bad_field");
    expect_error("POST", "/api/compile", "{\"source\": 12}", 400, "bad_field");
    expect_error("POST", "/api/compile", "{\"source\": \"x\", \"defines\": [1]}", 400, "bad_field");
    expect_error("POST", "/api/compile", "{\"source\": \"x\", \"defines\": {\"B\": {}}}", 400, "bad_field");
    expect_error("POST", "/api/compile", "{\"source\": \"x\", \"stages\": [\"mlir-ish\"]}", 400, "bad_field");
    expect_error("POST", "/api/compile", "{\"source\": \"x\", \"sm\": \"90\"}", 400, "bad_field");
    expect_error("POST", "/api/compile", body_for("no_such_kernel", ""), 404, "unknown_kernel");
    char path[600];
    snprintf(path, sizeof path, "{\"path\": \"%s/escape.py\"}", root);
    expect_error("POST", "/api/compile", path, 404, "not_found");
    cJSON *doc = post_json("/api/compile", "{\"source\": \"x\", \"stages\": []}", 200);
    ck_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(doc, "status")), "error");
    cJSON_Delete(doc);
}
END_TEST

START_TEST(oversized_bodies_are_refused)
{
    size_t n = 300 << 10;
    char *big = malloc(n + 32);
    memset(big, ' ', n);
    memcpy(big, "{\"source\": \"", 12);
    memcpy(big + n - 2, "\"}", 3);
    HttpResp r = http_request("POST", url("/api/compile"), big, n, NULL, 0);
    ck_assert_int_eq(r.status, 413);
    http_free(&r);
    r = http_request("POST", url("/api/compile"), big, n, NULL, 1);   /* chunked: no length declared */
    ck_assert_int_eq(r.status, 413);
    http_free(&r);
    free(big);
    /* the server still serves */
    cJSON *doc = get_json("/api/info", 200);
    cJSON_Delete(doc);
}
END_TEST

START_TEST(actions_offer_refactorings)
{
    static const char src[] = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                              "def k(x, out, n, BLOCK: tl.constexpr):\n    offs = tl.arange(0, BLOCK)\n"
                              "    mask = offs < n\n    v = tl.load(x + offs)\n    tl.store(out + offs, v, mask=mask)\n";
    int at = (int)(strstr(src, "tl.load") - src);
    cJSON *req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "source", src);
    cJSON_AddNumberToObject(cJSON_AddObjectToObject(req, "defines"), "BLOCK", 16);
    cJSON_AddNumberToObject(req, "from", at);
    cJSON_AddNumberToObject(req, "to", at + 7);
    char *body = cJSON_PrintUnformatted(req);
    cJSON *doc = post_json("/api/actions", body, 200);
    cJSON *a = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "actions"), 0);
    ck_assert_msg(a != NULL, "no actions: %s", cJSON_PrintUnformatted(doc));
    ck_assert_ptr_nonnull(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(a, "title")), "mask"));
    cJSON_Delete(doc);
    cJSON_Delete(req);
    free(body);
    expect_error("POST", "/api/actions", "{\"source\": \"x\", \"from\": -1, \"to\": 2}", 400, "bad_field");
}
END_TEST

/* ---- the specialisation discovery ------------------------------------------------------------ */

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

static cJSON *finish_run(int id);

/* The discovery's entry for a parameter. */
static const cJSON *found_param(const cJSON *doc, const char *name)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "discovery"), "params"))
    {
        if (!strcmp(str_of(p, "name"), name))
            return p;
    }
    ck_abort_msg("the discovery has no parameter %s: %s", name, cJSON_PrintUnformatted(doc));
    return NULL;
}

static void expect_found(const cJSON *doc, const char *name, const char *origin, const char *note)
{
    const cJSON *p = found_param(doc, name);
    ck_assert_msg(!strcmp(str_of(p, "origin"), origin) && !strcmp(str_of(p, "note"), note),
                  "%s: origin %s, note '%s'; wanted %s, '%s'", name, str_of(p, "origin"), str_of(p, "note"), origin,
                  note);
}

static int count_code(const cJSON *doc, const char *code)
{
    int n = 0;
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItem(doc, "diagnostics")) n += str_of(d, "code") && !strcmp(str_of(d, "code"), code);
    return n;
}

static int count_severity(const cJSON *doc, const char *sev)
{
    int n = 0;
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItem(doc, "diagnostics")) n += !strcmp(str_of(d, "severity"), sev);
    return n;
}

static cJSON *compile_path(const char *file, const char *extra)
{
    char body[2048];
    snprintf(body, sizeof body, "{\"path\": \"%s/%s\", \"stages\": [\"ssa\"]%s}", root, file, extra);
    return post_json("/api/compile", body, 200);
}

/* Triton's tutorial matmul as it is (no `# mytriton:` comment): the
 * pointer types and the scalars come from its launch, the tile sizes from
 * its autotune configs, ACTIVATION from the launch's keyword; it compiles
 * on first open, and the answer says where each value came from. */
START_TEST(compile_discovers_a_tutorial_matmul)
{
    char from[400], to[400];
    snprintf(from, sizeof from, "%s/matmul.py", MT_TUTORIAL);
    snprintf(to, sizeof to, "%s/matmul.py", root);
    copy_file(from, to);
    static const char sig[] = "*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32,128,256,64,8,''";
    cJSON *doc = compile_path("matmul.py", "");
    ck_assert_str_eq(str_of(doc, "status"), "ok");
    ck_assert_str_eq(str_of(doc, "signature"), sig);
    ck_assert_int_eq(count_code(doc, "I0901"), 0);
    ck_assert_int_eq(count_severity(doc, "error"), 0);
    const cJSON *dv = cJSON_GetObjectItem(doc, "discovery");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(dv, "applied")));
    ck_assert_str_eq(str_of(dv, "kernel"), "matmul_kernel");
    ck_assert_int_eq(cJSON_GetObjectItem(dv, "missing")->valueint, 0);
    ck_assert_int_eq(cJSON_GetObjectItem(dv, "launches")->valueint, 1);
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(dv, "launch"), "line")->valueint, 88);
    ck_assert_int_eq(cJSON_GetObjectItem(dv, "nconfigs")->valueint, 3);
    ck_assert_int_eq(cJSON_GetObjectItem(dv, "config")->valueint, 0);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(dv, "project")));
    const cJSON *configs = cJSON_GetObjectItem(dv, "configs");
    ck_assert_int_eq(cJSON_GetArraySize(configs), 3);
    ck_assert_str_eq(str_of(cJSON_GetArrayItem(configs, 1), "text"),
                     "BLOCK_SIZE_M=64, BLOCK_SIZE_N=256, BLOCK_SIZE_K=32, GROUP_SIZE_M=8, num_stages=4, num_warps=4");
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(configs, 2), "span"), "line")->valueint,
                     17);
    expect_found(doc, "a_ptr", "launch", "from the launch at line 88: a (a tensor of fp16)");
    expect_found(doc, "stride_am", "launch", "from the launch at line 88: a.stride(0) (an int)");
    expect_found(doc, "BLOCK_SIZE_M", "autotune", "from autotune config 1 of 3: BLOCK_SIZE_M=128");
    expect_found(doc, "GROUP_SIZE_M", "autotune", "from autotune config 1 of 3: GROUP_SIZE_M=8");
    expect_found(doc, "ACTIVATION", "launch", "from the launch at line 88: ACTIVATION=activation");
    ck_assert_str_eq(str_of(found_param(doc, "a_ptr"), "type"), "*fp16");
    ck_assert_str_eq(str_of(found_param(doc, "ACTIVATION"), "value"), "''");
    /* the argument's range, in the editor's offsets */
    const cJSON *span = cJSON_GetObjectItem(found_param(doc, "stride_am"), "span");
    ck_assert_int_eq(cJSON_GetObjectItem(span, "line")->valueint, 91);
    ck_assert_ptr_nonnull(cJSON_GetObjectItem(span, "from"));
    /* the editor's text alone (the scratch file, no path) compiles the same */
    FILE *f = fopen(to, "r");
    char text[16384];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    cJSON *req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "source", text);
    char *body = cJSON_PrintUnformatted(req);
    cJSON *scratch = post_json("/api/compile", body, 200);
    ck_assert_str_eq(str_of(scratch, "signature"), sig);
    ck_assert_int_eq(count_code(scratch, "I0901"), 0);
    cJSON_Delete(scratch);
    free(body);
    cJSON_Delete(req);
    cJSON_Delete(doc);

    /* the third config */
    doc = compile_path("matmul.py", ", \"config\": 2");
    ck_assert_str_eq(str_of(doc, "signature"), "*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32,32,32,32,8,''");
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "discovery"), "config")->valueint, 2);
    expect_found(doc, "BLOCK_SIZE_N", "autotune", "from autotune config 3 of 3: BLOCK_SIZE_N=32");
    cJSON_Delete(doc);
    /* values typed into the page rank above the launch and the configs */
    doc = compile_path("matmul.py", ", \"defines\": {\"BLOCK_SIZE_K\": 16, \"ACTIVATION\": \"'leaky_relu'\"}");
    ck_assert_str_eq(str_of(doc, "signature"),
                     "*fp16,*fp16,*fp16,i32,i32,i32,i32,i32,i32,i32,i32,i32,128,256,16,8,'leaky_relu'");
    expect_found(doc, "BLOCK_SIZE_K", "override", "from the dashboard: BLOCK_SIZE_K=16");
    expect_found(doc, "BLOCK_SIZE_M", "autotune", "from autotune config 1 of 3: BLOCK_SIZE_M=128");
    cJSON_Delete(doc);
    /* a signature given is compiled as it is; the discovery is told but not applied */
    doc = compile_path("matmul.py", ", \"signature\": \"*fp32,*fp32,*fp32,i32,i32,i32,i32,i32,i32,i32,i32,i32,32,32,"
                                    "32,8,''\"");
    ck_assert_str_eq(str_of(doc, "signature"), "*fp32,*fp32,*fp32,i32,i32,i32,i32,i32,i32,i32,i32,i32,32,32,32,8,''");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "discovery"), "applied")));
    cJSON_Delete(doc);
    char bad[600];
    snprintf(bad, sizeof bad, "{\"path\": \"%s/matmul.py\", \"config\": -1}", root);
    expect_error("POST", "/api/compile", bad, 400, "bad_field");
    snprintf(bad, sizeof bad, "{\"path\": \"%s/matmul.py\", \"config\": \"1\"}", root);
    expect_error("POST", "/api/compile", bad, 400, "bad_field");

    /* a run takes the constexprs its spec leaves out from the discovery,
     * as the compile the page showed did */
    static const char spec[] =
        "\"config\": 2, \"spec\": {\"grid\": [1], \"args\": {\"a_ptr\": {\"dtype\": \"float16\", \"shape\": [32, 32]}, "
        "\"b_ptr\": {\"dtype\": \"float16\", \"shape\": [32, 32]}, \"c_ptr\": {\"dtype\": \"float16\", \"shape\": [32, "
        "32]}, \"M\": 32, \"N\": 32, \"K\": 32, \"stride_am\": 32, \"stride_ak\": 1, \"stride_bk\": 32, \"stride_bn\": "
        "1, \"stride_cm\": 32, \"stride_cn\": 1}}";
    char run[2048];
    snprintf(run, sizeof run, "{\"path\": \"%s/matmul.py\", %s}", root, spec);
    doc = post_json("/api/runs", run, 202);
    ck_assert_str_eq(str_of(doc, "signature"),
                     "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,i32,i32:16,i32,i32:16,i32,32,32,32,8,''");
    cJSON_Delete(finish_run(cJSON_GetObjectItem(doc, "id")->valueint));
    cJSON_Delete(doc);
}
END_TEST

/* Beside the file, under the root only: the project file of its folder
 * (an invalid one is reported and ignored), and the other modules of its
 * folder that launch the kernel (one that does not parse is skipped, its
 * errors not reported); a mytriton.json above the root is never read. */
START_TEST(compile_discovery_reads_the_project_file_and_package)
{
    char path[600];
    snprintf(path, sizeof path, "%s/pkg", root);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    static const char kernel[] = "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                                 "def scale(x, out, n, BLOCK: tl.constexpr, ALPHA: tl.constexpr):\n"
                                 "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                                 "    mask = offs < n\n"
                                 "    tl.store(out + offs, tl.load(x + offs, mask=mask) * ALPHA, mask=mask)\n";
    snprintf(path, sizeof path, "%s/pkg/kernels.py", root);
    write_text(path, kernel);
    snprintf(path, sizeof path, "%s/pkg/ops.py", root);
    write_text(path, "import torch\nimport triton\nfrom kernels import scale\n\n\ndef run(x):\n"
                     "    out = torch.empty_like(x)\n    n = 1024\n"
                     "    scale[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)\n    return out\n");
    snprintf(path, sizeof path, "%s/pkg/broken.py", root);
    write_text(path, "def (:\n    scale[1](x)\n");
    snprintf(path, sizeof path, "%s/pkg/mytriton.json", root);
    write_text(path, "{\"kernels\": {\"scale\": {\"constexprs\": {\"ALPHA\": 0.5}}}}\n");
    cJSON *doc = compile_path("pkg/kernels.py", "");
    ck_assert_str_eq(str_of(doc, "status"), "ok");
    ck_assert_str_eq(str_of(doc, "signature"), "*fp32,*fp32,i32,256,0.5");
    ck_assert_int_eq(count_severity(doc, "error"), 0);
    expect_found(doc, "BLOCK", "launch", "from the launch at ops.py:9: BLOCK=256");
    expect_found(doc, "n", "launch", "from the launch at ops.py:9: n (1024)");
    expect_found(doc, "ALPHA", "given", "from mytriton.json: ALPHA=0.5");
    const char *file = str_of(cJSON_GetObjectItem(found_param(doc, "BLOCK"), "span"), "file");
    ck_assert_msg(file && strstr(file, "pkg/ops.py"), "the launch's file: %s", file);
    const cJSON *dv = cJSON_GetObjectItem(doc, "discovery");
    ck_assert_ptr_nonnull(strstr(str_of(cJSON_GetObjectItem(dv, "project"), "path"), "pkg/mytriton.json"));
    ck_assert_ptr_null(cJSON_GetObjectItem(cJSON_GetObjectItem(dv, "project"), "error"));
    cJSON_Delete(doc);
    /* an invalid project file: named, its problem said, ignored */
    write_text(path, "{\"kernel\": {}}\n");
    doc = compile_path("pkg/kernels.py", "");
    dv = cJSON_GetObjectItem(doc, "discovery");
    const char *why = str_of(cJSON_GetObjectItem(dv, "project"), "error");
    ck_assert_msg(why && strstr(why, "kernel: unknown key"), "project error: %s", why);
    expect_found(doc, "BLOCK", "launch", "from the launch at ops.py:9: BLOCK=256");
    ck_assert_int_eq(count_code(doc, "I0901"), 1);
    cJSON_Delete(doc);
    /* above the root: not read */
    snprintf(path, sizeof path, "%s/mytriton.json", tmp);
    write_text(path, "{\"constexprs\": {\"ALPHA\": 2, \"BLOCK\": 32}}\n");
    snprintf(path, sizeof path, "%s/alone.py", root);
    write_text(path, kernel);
    doc = compile_path("alone.py", "");
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "discovery"), "project")));
    ck_assert_int_eq(count_code(doc, "I0901"), 2);
    expect_found(doc, "ALPHA", "none",
                 "no value: not given by a launch, an autotune config, a default or a `# mytriton:` comment");
    cJSON_Delete(doc);
    /* a project file's string that is a dtype is that dtype, as the
     * language server reads it (mytriton/project.h), not the string */
    snprintf(path, sizeof path, "%s/pkg/cast.py", root);
    write_text(path, "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                     "def cast(x, out, DT: tl.constexpr):\n    tl.store(out, tl.load(x).to(DT).to(tl.float32))\n");
    snprintf(path, sizeof path, "%s/pkg/mytriton.json", root);
    write_text(path, "{\"kernels\": {\"cast\": {\"signature\": \"*fp32,*fp32\", \"constexprs\": {\"DT\": \"tl.float16\"}}}}\n");
    doc = compile_path("pkg/cast.py", "");
    ck_assert_str_eq(str_of(doc, "status"), "ok");
    ck_assert_str_eq(str_of(doc, "signature"), "*fp32,*fp32,tl.float16");
    cJSON_Delete(doc);
}
END_TEST

/* ---- who may ask -------------------------------------------------------------------------- */

static long status_with(const char *method, const char *path, const char *const *headers)
{
    HttpResp r = http_request(method, url(path), NULL, 0, headers, 0);
    long s = r.status;
    http_free(&r);
    return s;
}

START_TEST(host_and_origin_are_checked)
{
    static const char *const evil_host[] = {"Host: evil.example", NULL};
    static const char *const rebinding[] = {"Host: 127.0.0.1.evil.example", NULL};
    static const char *const evil_origin[] = {"Origin: http://evil.example", NULL};
    static const char *const null_origin[] = {"Origin: null", NULL};
    static const char *const cross_site[] = {"Sec-Fetch-Site: cross-site", NULL};
    ck_assert_int_eq(status_with("GET", "/api/info", evil_host), 403);
    ck_assert_int_eq(status_with("GET", "/api/info", rebinding), 403);
    ck_assert_int_eq(status_with("GET", "/", evil_host), 403);
    ck_assert_int_eq(status_with("GET", "/api/info", evil_origin), 403);
    ck_assert_int_eq(status_with("GET", "/api/info", null_origin), 403);
    ck_assert_int_eq(status_with("GET", "/api/info", cross_site), 403);
    char same[200], localhost[64];
    snprintf(same, sizeof same, "Origin: %s", base);
    snprintf(localhost, sizeof localhost, "Host: localhost:%d", mt_web_port(srv));
    const char *const ok_origin[] = {same, NULL};
    const char *const ok_host[] = {localhost, NULL};
    ck_assert_int_eq(status_with("GET", "/api/info", ok_origin), 200);
    ck_assert_int_eq(status_with("GET", "/api/info", ok_host), 200);
}
END_TEST

START_TEST(unknown_endpoints_and_methods)
{
    expect_error("GET", "/api/nothing", NULL, 404, "not_found");
    expect_error("DELETE", "/api/info", NULL, 405, "method_not_allowed");
    expect_error("GET", "/api/compile", NULL, 405, "method_not_allowed");
    expect_error("PUT", "/", NULL, 405, "method_not_allowed");
    expect_error("GET", "/api/info", "{\"x\": 1}", 400, "unexpected_body");
    expect_error("GET", "/api/events/xyz", NULL, 404, "not_found");
    expect_error("GET", "/api/events/999", NULL, 404, "not_found");
    expect_error("GET", "/api/runs/999", NULL, 404, "not_found");
    expect_error("GET", "/api/runs/-3", NULL, 404, "not_found");
}
END_TEST

static void setup_token(void) { setup_with((MtWebOptions){.token = "s3cret-token"}); }

START_TEST(token_is_enforced)
{
    static const char *const bearer[] = {"Authorization: Bearer s3cret-token", NULL};
    static const char *const header[] = {"X-Mytriton-Token: s3cret-token", NULL};
    static const char *const cookie[] = {"Cookie: mytriton_token=s3cret-token", NULL};
    static const char *const wrong[] = {"Authorization: Bearer s3cret-tokem", NULL};
    static const char *const longer[] = {"X-Mytriton-Token: s3cret-token-and-more", NULL};
    ck_assert_int_eq(status_with("GET", "/api/info", NULL), 401);
    ck_assert_int_eq(status_with("GET", "/", NULL), 401);
    ck_assert_int_eq(status_with("GET", "/api/info", wrong), 401);
    ck_assert_int_eq(status_with("GET", "/api/info", longer), 401);
    ck_assert_int_eq(status_with("GET", "/api/info", bearer), 200);
    ck_assert_int_eq(status_with("GET", "/api/info", header), 200);
    ck_assert_int_eq(status_with("GET", "/api/info", cookie), 200);
    ck_assert_int_eq(status_with("GET", "/api/info?token=s3cret-token", NULL), 200);
    HttpResp r = http_request("GET", url("/?token=s3cret-token"), NULL, 0, NULL, 0);
    ck_assert_int_eq(r.status, 303);
    char *set = http_header(&r, "Set-Cookie");
    ck_assert_ptr_nonnull(strstr(set, "mytriton_token=s3cret-token"));
    ck_assert_ptr_nonnull(strstr(set, "HttpOnly"));
    ck_assert_ptr_nonnull(strstr(set, "SameSite=Strict"));
    free(set);
    http_free(&r);
    ck_assert_ptr_nonnull(strstr(mt_web_url(srv), "?token=s3cret-token"));
}
END_TEST

START_TEST(non_loopback_needs_a_token)
{
    char err[512];
    MtWebServer *s = start((MtWebOptions){.host = "0.0.0.0"}, err, sizeof err);
    ck_assert_ptr_null(s);
    ck_assert_ptr_nonnull(strstr(err, "token"));
    s = start((MtWebOptions){.host = "0.0.0.0", .generate_token = true}, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    ck_assert_ptr_nonnull(strstr(mt_web_url(s), "?token="));
    char u[128];
    snprintf(u, sizeof u, "http://127.0.0.1:%d/api/info", mt_web_port(s));
    HttpResp r = http_request("GET", u, NULL, 0, NULL, 0);
    ck_assert_int_eq(r.status, 401);
    http_free(&r);
    mt_web_stop(s);
}
END_TEST

/* ---- runs ---------------------------------------------------------------------------------- */

static const char run_spec[] =
    "\"spec\": {\"grid\": [\"cdiv(n, BLOCK)\"], \"args\": {\"x\": {\"dtype\": \"float32\", \"shape\": [100], "
    "\"init\": \"uniform\"}, \"y\": {\"dtype\": \"float32\", \"shape\": [100]}, \"out\": {\"dtype\": \"float32\", "
    "\"shape\": [100]}, \"n\": 100}}";

static const char fault_spec[] =
    "\"spec\": {\"grid\": [1], \"args\": {\"x\": {\"dtype\": \"float32\", \"shape\": [16]}, \"n\": 16}}";

/* Start a run; its id. */
static int start_run(const char *file, const char *kernel, const char *spec)
{
    char body[2048];
    snprintf(body, sizeof body, "{\"path\": \"%s/%s\", \"kernel\": \"%s\", %s}", root, file, kernel, spec);
    cJSON *doc = post_json("/api/runs", body, 202);
    int id = cJSON_GetObjectItem(doc, "id")->valueint;
    cJSON_Delete(doc);
    return id;
}

/* Follow the run's events to the end; its final run record. */
static cJSON *finish_run(int id)
{
    char path[64];
    snprintf(path, sizeof path, "/api/events/%d", id);
    char *events = http_events(url(path), 30);
    ck_assert_msg(strstr(events, "event: done"), "no done event for run %d: %s", id, events);
    free(events);
    snprintf(path, sizeof path, "/api/runs/%d", id);
    return get_json(path, 200);
}

START_TEST(run_end_to_end)
{
    int id = start_run("kernels.py", "add_kernel", run_spec);
    char path[256];
    snprintf(path, sizeof path, "/api/events/%d", id);
    char *events = http_events(url(path), 30);
    ck_assert_ptr_nonnull(strstr(events, "event: queued"));
    ck_assert_ptr_nonnull(strstr(events, "event: started"));
    ck_assert_ptr_nonnull(strstr(events, "event: progress"));
    ck_assert_ptr_nonnull(strstr(events, "event: done\ndata: {\"status\":\"ok\"}"));
    free(events);
    cJSON *run = finish_run(id);
    ck_assert_str_eq(str_of(run, "status"), "ok");
    ck_assert_str_eq(str_of(run, "signature"), "*fp32:16,*fp32:16,*fp32:16,i32,64");
    ck_assert_ptr_nonnull(strstr(str_of(run, "source"), "def add_kernel"));
    cJSON *arrays = cJSON_GetObjectItem(cJSON_GetObjectItem(run, "result"), "arrays");
    ck_assert_int_eq(cJSON_GetArraySize(arrays), 3);
    cJSON *outs = cJSON_GetObjectItem(run, "outputs");
    ck_assert_int_eq(cJSON_GetArraySize(outs), 3);
    HttpResp r = http_request("GET", url(str_of(cJSON_GetArrayItem(outs, 0), "url")), NULL, 0, NULL, 0);
    ck_assert_int_eq(r.status, 200);
    ck_assert(r.len > 10 && !memcmp(r.body, "\x93NUMPY", 6));
    char *disp = http_header(&r, "Content-Disposition");
    ck_assert_ptr_nonnull(strstr(disp, "attachment"));
    free(disp);
    http_free(&r);
    cJSON_Delete(run);
    /* a second look at the events after the end: the one done event */
    events = http_events(url(path), 10);
    ck_assert_ptr_nonnull(strstr(events, "event: done"));
    free(events);
    cJSON *list = get_json("/api/runs", 200);
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(list, "runs"), 0), "id")->valueint, id);
    cJSON_Delete(list);
    snprintf(path, sizeof path, "/api/runs/%d/outputs/../../history.sqlite3", id);
    HttpResp bad = http_request("GET", url(path), NULL, 0, NULL, 0);
    ck_assert_int_eq(bad.status, 404);
    http_free(&bad);
    snprintf(path, sizeof path, "/api/runs/%d", id);
    HttpResp d = http_request("DELETE", url(path), NULL, 0, NULL, 0);
    ck_assert_int_eq(d.status, 200);
    http_free(&d);
    expect_error("GET", path, NULL, 404, "not_found");
}
END_TEST

START_TEST(runs_refuse_what_cannot_start)
{
    char body[2048];
    snprintf(body, sizeof body, "{\"path\": \"%s/kernels.py\", \"kernel\": \"add_kernel\", \"spec\": {\"args\": {}}}", root);
    cJSON *doc = post_json("/api/runs", body, 400);
    ck_assert_str_eq(error_code(doc), "bad_spec");
    ck_assert_ptr_nonnull(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "error"), "message")), "grid"));
    cJSON_Delete(doc);
    snprintf(body, sizeof body, "{\"path\": \"%s/kernels.py\", \"kernel\": \"add_kernel\", \"spec\": {\"grid\": [1], \"source\": \"x.py\"}}", root);
    doc = post_json("/api/runs", body, 400);
    ck_assert_str_eq(error_field(doc), "spec.source");
    cJSON_Delete(doc);
    snprintf(body, sizeof body, "{\"path\": \"%s/kernels.py\", \"kernel\": \"add_kernel\", \"spec\": {\"grid\": [1], \"args\": {\"x\": {\"upload\": \"../../etc/passwd\"}}}}", root);
    doc = post_json("/api/runs", body, 400);
    ck_assert_str_eq(error_field(doc), "spec.args.x.upload");
    cJSON_Delete(doc);
    snprintf(body, sizeof body, "{\"path\": \"%s/kernels.py\", \"kernel\": \"add_kernel\", \"backend\": \"tpu\", %s}", root, run_spec);
    doc = post_json("/api/runs", body, 400);
    ck_assert_str_eq(error_field(doc), "backend");
    cJSON_Delete(doc);
    snprintf(body, sizeof body, "{\"path\": \"%s/kernels.py\", \"kernel\": \"add_kernel\", \"profile\": 5, %s}", root, run_spec);
    doc = post_json("/api/runs", body, 400);
    ck_assert_str_eq(error_field(doc), "profile");
    cJSON_Delete(doc);
    /* a kernel that does not compile: the diagnostics come back at once */
    doc = post_json("/api/runs",
                    "{\"source\": \"import triton\\n@triton.jit\\ndef k(x):\\n    tl.store(x, undefined_name)\\n\", "
                    "\"spec\": {\"grid\": [1], \"args\": {\"x\": {\"dtype\": \"float32\", \"shape\": [1]}}}}",
                    422);
    ck_assert_str_eq(error_code(doc), "compile");
    ck_assert_int_gt(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "diagnostics")), 0);
    cJSON_Delete(doc);
    /* no GPU: the probe says so, and a GPU run is refused with its reason */
    for (int i = 0; i < 100; i++) {
        cJSON *info = get_json("/api/info", 200);
        const char *state = str_of(cJSON_GetObjectItem(cJSON_GetObjectItem(info, "backends"), "cuda"), "state");
        bool probing = !strcmp(state, "probing");
        cJSON_Delete(info);
        if (!probing)
            break;
        usleep(50000);
    }
    snprintf(body, sizeof body, "{\"path\": \"%s/kernels.py\", \"kernel\": \"add_kernel\", \"backend\": \"cuda\", %s}", root, run_spec);
    doc = post_json("/api/runs", body, 503);
    ck_assert_ptr_nonnull(strstr(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "error"), "message")), "no GPU"));
    cJSON_Delete(doc);
}
END_TEST

typedef struct Parallel {
    int id;
    cJSON *run;
} Parallel;

static void *good_run(void *arg)
{
    Parallel *p = arg;
    p->run = finish_run(p->id);
    return NULL;
}

/* A faulting run fails alone: a good run started next to it succeeds, and
 * so does one started after it (on a fresh worker). */
static void fault_costs_one_request(const char *kernel, const char *want)
{
    int bad = start_run("faults.py", kernel, fault_spec);
    Parallel good = {start_run("kernels.py", "add_kernel", run_spec), NULL};
    pthread_t t;
    pthread_create(&t, NULL, good_run, &good);
    cJSON *run = finish_run(bad);
    pthread_join(t, NULL);
    ck_assert_str_eq(str_of(run, "status"), "error");
    ck_assert_msg(strstr(str_of(run, "error"), want), "%s: error '%s' lacks '%s'", kernel, str_of(run, "error"), want);
    ck_assert_str_eq(str_of(good.run, "status"), "ok");
    cJSON_Delete(run);
    cJSON_Delete(good.run);
    for (int i = 0; i < 3; i++) {
        cJSON *after = finish_run(start_run("kernels.py", "add_kernel", run_spec));
        ck_assert_str_eq(str_of(after, "status"), "ok");
        cJSON_Delete(after);
    }
}

START_TEST(crashing_worker_costs_one_request)
{
    fault_costs_one_request("crash_kernel", "crashed (signal 11, SIGSEGV)");
}
END_TEST

START_TEST(hanging_worker_costs_one_request)
{
    fault_costs_one_request("hang_kernel", "longer than 3 s");
}
END_TEST

START_TEST(worker_errors_are_reported)
{
    fault_costs_one_request("error_kernel", "made-up error");
}
END_TEST

/* ---- the real worker (mytriton worker, the interpreter) ----------------------------------- */

static void setup_real(void) { setup_with((MtWebOptions){.worker_exe = MT_MYTRITON, .interp_workers = 2}); }

static double array_sum(const cJSON *run, const char *name)
{
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItem(cJSON_GetObjectItem(run, "result"), "arrays"))
    {
        if (!strcmp(str_of(a, "name"), name))
            return cJSON_GetObjectItem(cJSON_GetObjectItem(a, "stats"), "sum")->valuedouble;
    }
    ck_abort_msg("the run has no array %s", name);
    return 0;
}

static const char add_spec[] =
    "\"spec\": {\"grid\": [\"cdiv(n, BLOCK)\"], \"args\": {\"x\": {\"dtype\": \"float32\", \"shape\": [1000], "
    "\"init\": \"arange\"}, \"y\": {\"dtype\": \"float32\", \"shape\": [1000], \"init\": \"ones\"}, \"out\": "
    "{\"dtype\": \"float32\", \"shape\": [1000], \"init\": \"zeros\"}, \"n\": 1000}}";

static const char interp_fault_spec[] =
    "\"spec\": {\"grid\": [1], \"args\": {\"x\": {\"dtype\": \"float32\", \"shape\": [16]}, \"out\": "
    "{\"dtype\": \"float32\", \"shape\": [16]}, \"n\": 16}}";

/* A real run: out = arange(1000) + 1 sums to 499500 + 1000. */
static void expect_real_add(const cJSON *run)
{
    ck_assert_msg(!strcmp(str_of(run, "status"), "ok"), "the add run: %s (%s)", str_of(run, "status"),
                  str_of(run, "error") ? str_of(run, "error") : "");
    ck_assert_double_eq_tol(array_sum(run, "out"), 500500.0, 1e-3);
    ck_assert_double_eq_tol(array_sum(run, "x"), 499500.0, 1e-3);
}

static double num_of(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItem(o, k);
    ck_assert_msg(cJSON_IsNumber(v), "%s is not a number in %s", k, cJSON_PrintUnformatted(o));
    return v->valuedouble;
}

/* The compiler's counts of kernels.py's add_kernel (BLOCK 64, fp32): two
 * loads of 256 bytes and a store of 256 per program, 64 additions, masked;
 * `programs` of them. */
static void expect_add_cost(const cJSON *cost, int programs)
{
    const cJSON *pp = cJSON_GetObjectItem(cost, "per_program");
    ck_assert_msg(pp, "no per-program cost: %s", cJSON_PrintUnformatted(cost));
    ck_assert_double_eq(num_of(pp, "load_bytes"), 512);
    ck_assert_double_eq(num_of(pp, "store_bytes"), 256);
    ck_assert_double_eq(num_of(pp, "bytes"), 768);
    ck_assert_double_eq(num_of(pp, "flops"), 64);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cost, "masked")));
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(cost, "exact")));
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(cost, "loops")), 0);
    ck_assert_double_eq(num_of(cost, "programs"), programs);
    ck_assert_double_eq(num_of(cost, "bytes"), 768.0 * programs);
    ck_assert_str_eq(str_of(cost, "bytes_from"), "compiler");
    ck_assert_double_eq(num_of(cost, "flops"), 64.0 * programs);
    ck_assert_str_eq(str_of(cost, "flops_from"), "compiler");
}

START_TEST(real_worker_runs_the_interpreter)
{
    cJSON *run = finish_run(start_run("kernels.py", "add_kernel", add_spec));
    expect_real_add(run);
    ck_assert_str_eq(str_of(cJSON_GetObjectItem(run, "result"), "outcome"), "ok");
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(run, "outputs")), 3);
    ck_assert_ptr_null(cJSON_GetObjectItem(run, "occupancy")); /* the interpreter has none */
    expect_add_cost(cJSON_GetObjectItem(run, "cost"), 16);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(cJSON_GetObjectItem(run, "cost"), "gbps"))); /* not profiled */
    cJSON_Delete(run);
    /* the lowering options go to the worker, which takes them */
    char with_options[1024];
    snprintf(with_options, sizeof with_options, "\"num_warps\": 2, \"num_stages\": 1, %s", add_spec);
    run = finish_run(start_run("kernels.py", "add_kernel", with_options));
    expect_real_add(run);
    cJSON_Delete(run);
    /* a launch the spec gets wrong is an error run naming the field */
    char spec[512];
    snprintf(spec, sizeof spec, "\"spec\": {\"grid\": [\"cdiv(m, BLOCK)\"], \"args\": {\"x\": {\"dtype\": \"float32\", "
             "\"shape\": [4]}, \"y\": {\"dtype\": \"float32\", \"shape\": [4]}, \"out\": {\"dtype\": \"float32\", "
             "\"shape\": [4]}, \"n\": 4}}");
    run = finish_run(start_run("kernels.py", "add_kernel", spec));
    ck_assert_str_eq(str_of(run, "status"), "error");
    ck_assert_msg(strstr(str_of(run, "error"), "unknown name 'm'") && strstr(str_of(run, "error"), "R0704"),
                  "error: %s", str_of(run, "error"));
    cJSON_Delete(run);
}
END_TEST

static double array_stat(const cJSON *run, const char *name, const char *stat)
{
    const cJSON *a;
    cJSON_ArrayForEach(a, cJSON_GetObjectItem(cJSON_GetObjectItem(run, "result"), "arrays"))
    {
        if (!strcmp(str_of(a, "name"), name))
            return cJSON_GetObjectItem(cJSON_GetObjectItem(a, "stats"), stat)->valuedouble;
    }
    ck_abort_msg("the run has no array %s", name);
    return 0;
}

/* A run's "defines" become the spec's constexprs by the spec's rule: a
 * dtype by its name, a string as a JSON string; the worker compiles them
 * into the signature and the activation is applied (x in [-4, 4): out's
 * minimum is at least -0.5). */
static void expect_act_run(const char *defines)
{
    char body[2048];
    snprintf(body, sizeof body,
             "{\"path\": \"%s/kernels.py\", \"kernel\": \"act_kernel\", \"defines\": %s, \"spec\": {\"grid\": "
             "[\"cdiv(n, BLOCK)\"], \"args\": {\"x\": {\"dtype\": \"float32\", \"shape\": [100], \"init\": "
             "\"uniform\", \"low\": -4, \"high\": 4}, \"out\": {\"dtype\": \"float32\", \"shape\": [100]}, "
             "\"n\": 100}}}",
             root, defines);
    cJSON *doc = post_json("/api/runs", body, 202);
    cJSON *run = finish_run(cJSON_GetObjectItem(doc, "id")->valueint);
    cJSON_Delete(doc);
    ck_assert_msg(!strcmp(str_of(run, "status"), "ok"), "%s: %s", defines, str_of(run, "error"));
    ck_assert_str_eq(str_of(run, "signature"), "*fp32:16,*fp32:16,i32,tl.float16,'leaky_relu',64");
    ck_assert_double_lt(array_stat(run, "x", "min"), -3.0);
    ck_assert_double_ge(array_stat(run, "out", "min"), -0.5);
    cJSON_Delete(run);
}

START_TEST(real_worker_runs_dtype_and_string_defines)
{
    expect_act_run("{\"DTYPE\": \"tl.float16\", \"ACTIVATION\": \"'leaky_relu'\"}");
    expect_act_run("{\"DTYPE\": \"torch.float16\", \"ACTIVATION\": \"\\\"leaky_relu\\\"\"}");
    /* a string that is no literal is that string, as in the project file */
    expect_act_run("{\"DTYPE\": \"tl.float16\", \"ACTIVATION\": \"leaky_relu\"}");
}
END_TEST

/* A faulting interpreter run fails alone: a run started beside it gets its
 * right answer, and so does one started after it. */
static void real_fault_costs_one_request(const char *kernel, const char *want)
{
    int bad = start_run("interp_faults.py", kernel, interp_fault_spec);
    Parallel good = {start_run("kernels.py", "add_kernel", add_spec), NULL};
    pthread_t t;
    pthread_create(&t, NULL, good_run, &good);
    cJSON *run = finish_run(bad);
    pthread_join(t, NULL);
    ck_assert_str_eq(str_of(run, "status"), "error");
    ck_assert_msg(strstr(str_of(run, "error"), want), "%s: error '%s' lacks '%s'", kernel, str_of(run, "error"), want);
    expect_real_add(good.run);
    cJSON_Delete(run);
    cJSON_Delete(good.run);
    cJSON *after = finish_run(start_run("kernels.py", "add_kernel", add_spec));
    expect_real_add(after);
    cJSON_Delete(after);
}

START_TEST(real_far_read_costs_one_request)
{
    real_fault_costs_one_request("far_read_kernel", "reads x[1000000000], but x has 16 elements [R0701]");
}
END_TEST

START_TEST(real_endless_loop_costs_one_request)
{
    real_fault_costs_one_request("endless_kernel", "ran for more than 3000 ms");
}
END_TEST

/* A float32 .npy of n zeros, as np.save writes it (header padded to 64). */
static char *npy_zeros(int count, size_t *len)
{
    char header[128];
    int h = snprintf(header, sizeof header, "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }", count);
    int pad = 64 - (10 + h + 1) % 64;
    size_t hl = (size_t)(h + pad + 1);
    *len = 10 + hl + 4 * (size_t)count;
    char *b = calloc(1, *len);
    memcpy(b, "\x93NUMPY\x01\x00", 8);
    b[8] = (char)(hl & 0xff);
    b[9] = (char)(hl >> 8);
    memcpy(b + 10, header, (size_t)h);
    memset(b + 10 + h, ' ', (size_t)pad);
    b[10 + hl - 1] = '\n';
    return b;
}

/* ---- ceilings ------------------------------------------------------------------------------- */

/* Wait for the GPU probe to answer; the state it ended in. */
static const char *probe_state(void)
{
    static char state[32];
    for (int i = 0; i < 200; i++) {
        cJSON *info = get_json("/api/info", 200);
        snprintf(state, sizeof state, "%s",
                 str_of(cJSON_GetObjectItem(cJSON_GetObjectItem(info, "backends"), "cuda"), "state"));
        cJSON_Delete(info);
        if (strcmp(state, "probing"))
            return state;
        usleep(50000);
    }
    return state;
}

/* A ceiling kernel's entry in the GET /api/ceilings answer. */
static const cJSON *ceiling_kernel(const cJSON *doc, const char *name)
{
    const cJSON *k;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(doc, "kernels")) if (!strcmp(str_of(k, "name"), name)) return k;
    ck_abort_msg("no ceiling kernel %s", name);
    return NULL;
}

/* Run a ceiling kernel as the page does (its signature, no outputs kept),
 * with `spec` (NULL: its own); the finished run. */
static cJSON *run_ceiling_kernel(const cJSON *k, const cJSON *spec, const char *backend, int profile)
{
    cJSON *req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "source", str_of(k, "source"));
    cJSON_AddStringToObject(req, "kernel", str_of(k, "kernel"));
    cJSON_AddStringToObject(req, "signature", str_of(k, "signature"));
    cJSON_AddItemToObject(req, "spec", cJSON_Duplicate(spec ? spec : cJSON_GetObjectItem(k, "spec"), true));
    cJSON_AddStringToObject(req, "backend", backend);
    cJSON_AddFalseToObject(req, "keep_outputs");
    if (profile)
        cJSON_AddNumberToObject(req, "profile", profile);
    char *body = cJSON_PrintUnformatted(req);
    cJSON *doc = post_json("/api/runs", body, 202);
    int id = cJSON_GetObjectItem(doc, "id")->valueint;
    cJSON_Delete(doc);
    free(body);
    cJSON_Delete(req);
    return finish_run(id);
}

static void post_ceilings(int copy_run, int fma_run, long want, const char *code, const char *field)
{
    char body[128];
    snprintf(body, sizeof body, "{\"device\": 0, \"copy_run\": %d, \"fma_run\": %d}", copy_run, fma_run);
    cJSON *doc = post_json("/api/ceilings", body, want);
    if (code) {
        ck_assert_str_eq(error_code(doc), code);
        ck_assert_msg(!strcmp(error_field(doc), field), "%s: %s", body, cJSON_PrintUnformatted(doc));
    }
    cJSON_Delete(doc);
}

START_TEST(ceilings_need_a_gpu)
{
    ck_assert_str_eq(probe_state(), "unavailable");
    cJSON *doc = get_json("/api/ceilings", 503);
    ck_assert_str_eq(error_code(doc), "no_gpu");
    const char *msg = str_of(cJSON_GetObjectItem(doc, "error"), "message");
    ck_assert_msg(strstr(msg, "measured on a GPU") && strstr(msg, "the fake worker has no GPU"), "%s", msg);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "kernels")), 2);
    /* without a device to size them for, the kernels come without a spec */
    ck_assert_ptr_null(cJSON_GetObjectItem(ceiling_kernel(doc, "copy"), "spec"));
    cJSON_Delete(doc);
    doc = post_json("/api/ceilings", "{\"copy_run\": 1, \"fma_run\": 2}", 503);
    ck_assert_str_eq(error_code(doc), "no_gpu");
    cJSON_Delete(doc);
    expect_error("GET", "/api/ceilings?device=x", NULL, 400, "bad_field");
}
END_TEST

/* The variable stays set until the probe (started in the background) has answered. */
static void setup_fake_gpu(void)
{
    setenv("FAKE_WORKER_GPU", "1", 1);
    setup();
}

static void teardown_fake_gpu(void)
{
    teardown();
    unsetenv("FAKE_WORKER_GPU");
}

/* The fake GPU times every launch at 1000 ns, so the ceilings are the
 * compiler's counts of the kernels sized for the fake's 132 SMs and 143 GB
 * over 1000 ns: 2^28 fp32 elements copied (2^31 bytes), and 64 programs
 * per SM of 1024 elements of 7 + 256 x 32 FLOPs. What matters here is the
 * bookkeeping (the real kernels' figures come from a real GPU: tests/gpu). */
START_TEST(ceilings_come_from_two_checked_runs)
{
    ck_assert_str_eq(probe_state(), "ready");
    cJSON *doc = get_json("/api/ceilings?device=0", 200);
    ck_assert_str_eq(str_of(doc, "name"), "Fake GPU");
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(doc, "ceilings")));
    cJSON *copy = run_ceiling_kernel(ceiling_kernel(doc, "copy"), NULL, "cuda", 5);
    cJSON *fma = run_ceiling_kernel(ceiling_kernel(doc, "fma"), NULL, "cuda", 5);
    cJSON *unprofiled = run_ceiling_kernel(ceiling_kernel(doc, "copy"), NULL, "cuda", 0);
    cJSON *spec = cJSON_Duplicate(cJSON_GetObjectItem(ceiling_kernel(doc, "fma"), "spec"), true);
    cJSON_AddNumberToObject(spec, "flops", 1e15); /* an override cannot make a ceiling */
    cJSON *inflated = run_ceiling_kernel(ceiling_kernel(doc, "fma"), spec, "cuda", 5);
    int c = cJSON_GetObjectItem(copy, "id")->valueint, f = cJSON_GetObjectItem(fma, "id")->valueint;
    ck_assert_str_eq(str_of(copy, "status"), "ok");
    ck_assert_str_eq(str_of(fma, "status"), "ok");
    /* runs that are not the measuring kernels, as they are, profiled, are refused */
    post_ceilings(f, f, 422, "bad_run", "copy_run");
    post_ceilings(c, c, 422, "bad_run", "fma_run");
    post_ceilings(cJSON_GetObjectItem(unprofiled, "id")->valueint, f, 422, "bad_run", "copy_run");
    post_ceilings(c, cJSON_GetObjectItem(inflated, "id")->valueint, 422, "bad_run", "fma_run");
    post_ceilings(c, 99999, 404, "not_found", "fma_run");
    cJSON_Delete(doc);
    doc = post_json("/api/ceilings", "{\"device\": 0, \"copy_run\": \"1\", \"fma_run\": 2}", 400);
    ck_assert_str_eq(error_field(doc), "copy_run");
    cJSON_Delete(doc);
    post_ceilings(c, f, 201, NULL, NULL);
    doc = get_json("/api/ceilings", 200);
    cJSON *ceil = cJSON_GetObjectItem(doc, "ceilings");
    ck_assert_str_eq(str_of(ceil, "device"), "Fake GPU");
    ck_assert_double_eq_tol(cJSON_GetObjectItem(ceil, "copy_gbs")->valuedouble, 2147483648 / 1000.0, 1e-6);
    ck_assert_double_eq_tol(cJSON_GetObjectItem(ceil, "fp32_tflops")->valuedouble,
                            132 * 64 * 1024 * (7 + 256 * 32.0) / 1000.0 / 1e3, 1e-9);
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(ceil, "copy"), "run")->valueint, c);
    ck_assert_double_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(ceil, "copy"), "bytes")->valuedouble, 2147483648.0);
    ck_assert_double_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(ceil, "copy"), "best_ns")->valuedouble, 1000);
    /* a GPU run's occupancy: the driver's 12 blocks of 128 threads, which the calculation (40 registers on
     * the probe's sm_90 limits) explains */
    char path[64];
    snprintf(path, sizeof path, "/api/runs/%d", c);
    cJSON *got = get_json(path, 200);
    cJSON *occ = cJSON_GetObjectItem(got, "occupancy");
    ck_assert_msg(occ && cJSON_GetObjectItem(occ, "blocks_per_sm"), "%s", cJSON_PrintUnformatted(occ));
    ck_assert_int_eq(cJSON_GetObjectItem(occ, "blocks_per_sm")->valueint, 12);
    ck_assert_double_eq_tol(cJSON_GetObjectItem(occ, "fraction")->valuedouble, 0.75, 1e-9);
    ck_assert_str_eq(str_of(occ, "limit"), "registers");
    ck_assert_str_eq(str_of(occ, "source"), "driver");
    ck_assert_ptr_null(cJSON_GetObjectItem(occ, "calculated_blocks_per_sm"));
    cJSON_Delete(got);
    snprintf(path, sizeof path, "/api/runs/%d", cJSON_GetObjectItem(unprofiled, "id")->valueint);
    got = get_json(path, 200);
    ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(got, "occupancy"), "warps_per_sm")->valueint, 48);
    cJSON_Delete(got);
    ck_assert_ptr_nonnull(str_of(ceil, "measured"));
    cJSON_Delete(doc);
    expect_error("GET", "/api/ceilings?device=3", NULL, 404, "not_found");
    cJSON_Delete(copy);
    cJSON_Delete(fma);
    cJSON_Delete(unprofiled);
    cJSON_Delete(inflated);
    cJSON_Delete(spec);
}
END_TEST

/* A profiled run's GB/s and TFLOP/s are the compiler's counts times the
 * programs over the median launch (the fake GPU's 1000 ns); a spec's own
 * "bytes" replaces the compiler's total, and says so. */
START_TEST(profiled_runs_get_rates_from_the_compilers_counts)
{
    ck_assert_str_eq(probe_state(), "ready");
    static const char spec[] =
        "\"backend\": \"cuda\", \"profile\": 5, \"spec\": {\"grid\": [16], \"args\": {\"x\": {\"dtype\": "
        "\"float32\", \"shape\": [1000]}, \"y\": {\"dtype\": \"float32\", \"shape\": [1000]}, \"out\": "
        "{\"dtype\": \"float32\", \"shape\": [1000]}, \"n\": 1000}}";
    cJSON *run = finish_run(start_run("kernels.py", "add_kernel", spec));
    ck_assert_str_eq(str_of(run, "status"), "ok");
    const cJSON *cost = cJSON_GetObjectItem(run, "cost");
    expect_add_cost(cost, 16);
    ck_assert_double_eq_tol(num_of(cost, "gbps"), 12288 / 1000.0, 1e-9);
    ck_assert_double_eq_tol(num_of(cost, "tflops"), 1024 / 1000.0 / 1e3, 1e-12);
    cJSON_Delete(run);
    char with_bytes[1024];
    snprintf(with_bytes, sizeof with_bytes, "%.*s, \"bytes\": 8000}", (int)strlen(spec) - 1, spec);
    run = finish_run(start_run("kernels.py", "add_kernel", with_bytes));
    cost = cJSON_GetObjectItem(run, "cost");
    ck_assert_double_eq(num_of(cost, "bytes"), 8000);
    ck_assert_str_eq(str_of(cost, "bytes_from"), "spec");
    ck_assert_double_eq_tol(num_of(cost, "gbps"), 8.0, 1e-9);
    ck_assert_str_eq(str_of(cost, "flops_from"), "compiler");
    cJSON_Delete(run);
}
END_TEST

/* A GPU run's repro command carries the run's lowering options. */
START_TEST(repro_keeps_the_lowering_options)
{
    ck_assert_str_eq(probe_state(), "ready");
    char spec[1024];
    snprintf(spec, sizeof spec, "\"backend\": \"cuda\", \"num_warps\": 2, \"num_stages\": 1, %s", run_spec);
    int id = start_run("kernels.py", "add_kernel", spec);
    cJSON *run = finish_run(id);
    ck_assert_str_eq(str_of(run, "status"), "ok");
    cJSON_Delete(run);
    char path[64];
    snprintf(path, sizeof path, "/api/runs/%d/repro", id);
    HttpResp r = http_request("GET", url(path), NULL, 0, NULL, 0);
    ck_assert_int_eq(r.status, 200);
    static const char want[] = "\nmytriton run spec.json --backend cuda --num-warps 2 --num-stages 1 --expect expected\n";
    ck_assert_msg(memmem(r.body, r.len, want, strlen(want)), "the README lacks:%s", want);
    http_free(&r);
}
END_TEST

/* The ceiling kernels compute what they say, on the interpreter at a
 * small size: the copy's out is its x; the FMA kernel's out is its four
 * chains' sum, each chain v -> 0.999 v + 0.001 four times an iteration from
 * i * 1e-9 + 0, 0.25, 0.5, 0.75; and the compiler counts exactly what
 * the ceilings divide: 8 bytes an element copied, 7 + 32 x iters FLOPs an
 * element of the FMA kernel. */
START_TEST(real_ceiling_kernels_are_right)
{
    probe_state();
    long status;
    cJSON *doc = http_get_json(url("/api/ceilings"), &status); /* 200 on a GPU machine, else 503: both list them */
    ck_assert_msg(status == 200 || status == 503, "GET /api/ceilings: %ld", status);
    cJSON *spec = cJSON_Parse("{\"grid\": [2], \"args\": {\"x\": {\"dtype\": \"float32\", \"shape\": [8192], "
                              "\"init\": \"arange\"}, \"out\": {\"dtype\": \"float32\", \"shape\": [8192], \"init\": "
                              "\"zeros\"}}}");
    cJSON *run = run_ceiling_kernel(ceiling_kernel(doc, "copy"), spec, "interp", 0);
    ck_assert_msg(!strcmp(str_of(run, "status"), "ok"), "copy: %s", str_of(run, "error"));
    ck_assert_double_eq_tol(array_sum(run, "out"), 8191.0 * 8192 / 2, 1e-3);
    const cJSON *cost = cJSON_GetObjectItem(run, "cost");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cost, "exact")));
    ck_assert_double_eq(num_of(cost, "bytes"), 8192 * 8);
    cJSON_Delete(run);
    cJSON_Delete(spec);
    spec = cJSON_Parse("{\"grid\": [4], \"args\": {\"out\": {\"dtype\": \"float32\", \"shape\": [4096], \"init\": "
                       "\"zeros\"}, \"iters\": 3}}");
    run = run_ceiling_kernel(ceiling_kernel(doc, "fma"), spec, "interp", 0);
    ck_assert_msg(!strcmp(str_of(run, "status"), "ok"), "fma: %s", str_of(run, "error"));
    double sum = 0;
    for (int i = 0; i < 4096; i++) {
        float a = (float)i * 1e-9f, v[4] = {a, a + 0.25f, a + 0.5f, a + 0.75f};
        for (int k = 0; k < 3 * 4; k++)
            for (int c = 0; c < 4; c++)
                v[c] = fmaf(v[c], 0.999f, 0.001f);
        sum += (v[0] + v[1]) + v[2] + v[3];
    }
    ck_assert_double_eq_tol(array_sum(run, "out"), sum, sum * 1e-6);
    cost = cJSON_GetObjectItem(run, "cost");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cost, "exact")));
    ck_assert_double_eq(num_of(cJSON_GetObjectItem(cost, "per_program"), "flops"), 1024 * (7 + 32 * 3));
    ck_assert_double_eq(num_of(cost, "flops"), 4 * 1024 * (7 + 32 * 3));
    ck_assert_double_eq(num_of(cost, "bytes"), 4096 * 4);
    cJSON_Delete(run);
    cJSON_Delete(spec);
    cJSON_Delete(doc);
}
END_TEST

/* The archive's launch.c: generated from the run's facts (the kernel's
 * name, its parameters in order, grid and block), it compiles with the
 * system's cc against the CUDA headers with -Wall -Werror, and run without
 * a GPU it fails cleanly naming the driver: the dynamic loader's message
 * when there is no libcuda.so.1 at all, its own (exit 2) when the loaded
 * libcuda is the toolkit's stub. On a machine with a GPU it must pass. */
static void check_launcher(const char *dir)
{
    char file[700], cmd[2048], text[65536];
    snprintf(file, sizeof file, "%s/launch.c", dir);
    FILE *f = fopen(file, "r");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    ck_assert_msg(strstr(text, "static const char kernel_name[] = \"add_kernel\";") &&
                      strstr(text, "static const long long programs[3] = {16, 1, 1};") &&
                      strstr(text, "static const unsigned block[3] = {128, 1, 1};") &&
                      strstr(text, "    {\"x\", 0, 1, 0}, /* *fp32 x: inputs/x.npy */\n"
                                   "    {\"y\", 0, 1, 0}, /* *fp32 y: inputs/y.npy */\n"
                                   "    {\"out\", 0, 1, 0}, /* *fp32 out: inputs/out.npy */\n"
                                   "    {\"n\", 1, 0, 0x3e8ull}, /* i32 n = 1000 */\n") &&
                      !strstr(text, "/*@RUN@*/"),
                  "launch.c's facts: %.3000s", strstr(text, "---- the run") ? strstr(text, "---- the run") : text);
    snprintf(file, sizeof file, "%s/README.md", dir);
    f = fopen(file, "r");
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    ck_assert_ptr_nonnull(strstr(text, "cc launch.c -I/usr/local/cuda/include -lcuda -o launch\n./launch\n"));
    if (access("/usr/local/cuda/include/cuda.h", R_OK) || access("/usr/local/cuda/lib64/stubs/libcuda.so", R_OK)) {
        fprintf(stderr, "real_repro_reproduces_the_run: no CUDA toolkit in /usr/local/cuda: launch.c not compiled\n");
        return;
    }
    snprintf(cmd, sizeof cmd,
             "cd %s && cc -Wall -Werror launch.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64/stubs -lcuda "
             "-o launch > cc.out 2>&1",
             dir);
    int rc = system(cmd);
    snprintf(file, sizeof file, "%s/cc.out", dir);
    f = fopen(file, "r");
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    ck_assert_msg(rc == 0 && n == 0, "cc launch.c: exit %d: %s", rc, text);
    /* as it is: no driver here (the loader says so), or a GPU (it passes) */
    snprintf(cmd, sizeof cmd, "cd %s && ./launch > launch.out 2>&1", dir);
    rc = system(cmd);
    snprintf(file, sizeof file, "%s/launch.out", dir);
    f = fopen(file, "r");
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    ck_assert_msg(WIFEXITED(rc), "./launch did not exit: %d: %s", rc, text);
    if (WEXITSTATUS(rc) == 0)
        ck_assert_msg(strstr(text, "launch: ok: add_kernel reproduces the run: 3 arrays match expected/"), "%s", text);
    else
        ck_assert_msg(strstr(text, "libcuda.so.1") || strstr(text, "cuInit"), "./launch: exit %d: %s",
                      WEXITSTATUS(rc), text);
    /* the toolkit's stub as the driver: its own message, exit 2 */
    snprintf(cmd, sizeof cmd,
             "cd %s && mkdir -p stub && ln -sf /usr/local/cuda/lib64/stubs/libcuda.so stub/libcuda.so.1 && "
             "LD_LIBRARY_PATH=stub ./launch > launch.out 2>&1",
             dir);
    rc = system(cmd);
    f = fopen(file, "r");
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    ck_assert_msg(WIFEXITED(rc) && WEXITSTATUS(rc) == 2 &&
                      strstr(text, "launch: error: cuInit(0) failed") && strstr(text, "stub"),
                  "./launch with the stub libcuda: %d: %s", rc, text);
    if (!*MT_FAKE_DRIVER_DIR)
        return;
    /* A fake driver (fake_libcuda.c) runs no kernel but checks the launch
     * against kernel.ptx's .entry and logs it: the run's grid and block,
     * three device arrays, n = 1000 as four bytes, the program grid. The
     * arrays come back unchanged, so out (zeros) differs from the expected
     * x + y and the verdict is a mismatch naming it. */
    snprintf(cmd, sizeof cmd, "cd %s && FAKE_CUDA_LOG=fake.log LD_LIBRARY_PATH=%s ./launch > launch.out 2>&1", dir,
             MT_FAKE_DRIVER_DIR);
    rc = system(cmd);
    f = fopen(file, "r");
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    ck_assert_msg(WIFEXITED(rc) && WEXITSTATUS(rc) == 1, "./launch on the fake driver: %d: %s", rc, text);
    ck_assert_msg(strstr(text, "launch: add_kernel on GPU 0 (Fake GPU, sm_80, driver 13.0) from kernel.ptx\n") &&
                      strstr(text, "  x: 1000 elements match expected/x.npy") &&
                      strstr(text, "  out: 1000 of 1000 elements differ from expected/out.npy; the first, element 0: "
                                   "got 0, want 1") &&
                      strstr(text, "launch: MISMATCH: 1 of 3 arrays differ from expected/ (rtol 1e-05, atol 1e-06)"),
                  "./launch on the fake driver: %s", text);
    char log[1024];
    snprintf(file, sizeof file, "%s/fake.log", dir);
    f = fopen(file, "r");
    ck_assert_ptr_nonnull(f);
    n = fread(log, 1, sizeof log - 1, f);
    fclose(f);
    log[n] = 0;
    ck_assert_str_eq(log, "launch add_kernel grid 4 1 1 block 128 1 1 shared 0 params 7\n"
                          "param 0 ptr 4000 bytes\nparam 1 ptr 4000 bytes\nparam 2 ptr 4000 bytes\n"
                          "param 3 4 e8030000\nparam 4 4 10000000\nparam 5 4 01000000\nparam 6 4 01000000\n");
    /* outputs/ holds the arrays as .npy files mytriton reads: with the
     * zeros as the expected out, every array matches and it exits 0 */
    snprintf(cmd, sizeof cmd,
             "cd %s && cmp outputs/x.npy inputs/x.npy && cp inputs/out.npy expected/out.npy && FAKE_CUDA_LOG=fake.log "
             "LD_LIBRARY_PATH=%s ./launch > launch.out 2>&1",
             dir, MT_FAKE_DRIVER_DIR);
    rc = system(cmd);
    snprintf(file, sizeof file, "%s/launch.out", dir);
    f = fopen(file, "r");
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    ck_assert_msg(WIFEXITED(rc) && WEXITSTATUS(rc) == 0 &&
                      strstr(text, "launch: ok: add_kernel reproduces the run: 3 arrays match expected/"),
                  "./launch with out's expected as zeros: %d: %s", rc, text);
    /* mytriton reads them back: --expect outputs compares (exit 1: out is
     * the fake's zeros), it does not fail to read them (exit 2) */
    snprintf(cmd, sizeof cmd, "cd %s && %s run spec.json --expect outputs > expect.out 2>&1", dir, MT_MYTRITON);
    rc = system(cmd);
    ck_assert_msg(WIFEXITED(rc) && WEXITSTATUS(rc) == 1, "mytriton run --expect outputs: %d", rc);
}

/* The repro archive of an interpreter run: extracted with tar, its README's
 * command runs the launch again with `mytriton` alone and finds every array
 * as the run left it; an altered expected array makes the command fail;
 * its standalone launch.c compiles (check_launcher). */
/* Run id's repro archive, extracted in tmp: its folder into dir. */
static void fetch_repro(int id, char *dir, size_t dirlen)
{
    char path[128], file[1024], cmd[2048];
    snprintf(path, sizeof path, "/api/runs/%d/repro", id);
    HttpResp r = http_request("GET", url(path), NULL, 0, NULL, 0);
    ck_assert_int_eq(r.status, 200);
    char *type = http_header(&r, "Content-Type"), *disp = http_header(&r, "Content-Disposition");
    ck_assert_str_eq(type, "application/x-tar");
    snprintf(file, sizeof file, "mytriton-run%d.tar", id);
    ck_assert_msg(disp && strstr(disp, file), "Content-Disposition: %s", disp);
    free(type);
    free(disp);
    snprintf(file, sizeof file, "%s/repro.tar", tmp);
    FILE *f = fopen(file, "wb");
    ck_assert_int_eq(fwrite(r.body, 1, r.len, f), r.len);
    fclose(f);
    http_free(&r);
    snprintf(cmd, sizeof cmd, "tar -xf %s -C %s", file, tmp);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(dir, dirlen, "%s/mytriton-run%d", tmp, id);
}

/* Read a file of the archive's folder into text (NUL-terminated). */
static void read_into(const char *dir, const char *name, char *text, size_t cap)
{
    char file[1024];
    snprintf(file, sizeof file, "%s/%s", dir, name);
    FILE *f = fopen(file, "r");
    ck_assert_msg(f != NULL, "no %s", file);
    size_t n = fread(text, 1, cap - 1, f);
    fclose(f);
    text[n] = 0;
}

START_TEST(real_repro_reproduces_the_run)
{
    int id = start_run("kernels.py", "add_kernel", add_spec);
    cJSON *run = finish_run(id);
    expect_real_add(run);
    cJSON_Delete(run);
    char file[1024], dir[600], cmd[2048];
    FILE *f;
    fetch_repro(id, dir, sizeof dir);
    static const char *const members[] = {"kernel.py",      "spec.json",    "README.md",      "kernel.cu",
                                          "kernel.ptx",     "kernel.cubin", "launch.c",       "inputs/x.npy",
                                          "inputs/y.npy",   "inputs/out.npy", "expected/out.npy", "expected/x.npy"};
    for (size_t i = 0; i < sizeof members / sizeof *members; i++) {
        snprintf(file, sizeof file, "%s/%s", dir, members[i]);
        ck_assert_msg(access(file, R_OK) == 0, "the archive lacks %s", members[i]);
    }
    /* the README's command, with this build's mytriton */
    snprintf(file, sizeof file, "%s/README.md", dir);
    f = fopen(file, "r");
    char readme[8192];
    size_t n = fread(readme, 1, sizeof readme - 1, f);
    fclose(f);
    readme[n] = 0;
    const char *line = strstr(readme, "\nmytriton run spec.json");
    ck_assert_msg(line != NULL, "README: %s", readme);
    line += strlen("\nmytriton");
    int len = (int)strcspn(line, "\n");
    ck_assert_ptr_nonnull(strstr(readme, "--expect expected"));
    snprintf(cmd, sizeof cmd, "cd %s && %s%.*s > run.out 2>&1", dir, MT_MYTRITON, len, line);
    int rc = system(cmd);
    ck_assert_msg(rc == 0, "%s: exit %d", cmd, rc);
    /* the spec names files only: the inputs are the archive's */
    snprintf(file, sizeof file, "%s/spec.json", dir);
    f = fopen(file, "r");
    n = fread(readme, 1, sizeof readme - 1, f);
    fclose(f);
    readme[n] = 0;
    ck_assert_msg(strstr(readme, "\"inputs/x.npy\"") && !strstr(readme, "arange"), "spec.json: %s", readme);
    check_launcher(dir);
    /* a wrong expected array is caught: the command compares */
    snprintf(cmd, sizeof cmd, "cp %s/expected/x.npy %s/expected/out.npy", dir, dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "cd %s && %s%.*s > run.out 2>&1", dir, MT_MYTRITON, len, line);
    rc = system(cmd);
    ck_assert_msg(WIFEXITED(rc) && WEXITSTATUS(rc) == 1, "with a wrong expected/out.npy: %d", rc);
    expect_error("GET", "/api/runs/99999/repro", NULL, 404, "not_found");
}
END_TEST

/* A launcher for every kind of argument: half, bfloat16, int64 and bool
 * arrays, an int64 and an fp32 scalar. launch.c names each with its dtype
 * and the scalars' bytes, compiles with -Wall -Wextra -Werror against the
 * CUDA headers and the toolkit's stub libcuda, and on the fake driver
 * passes what the PTX's .entry declares: 8 bytes of n, 4 of scale. */
START_TEST(real_repro_launcher_passes_every_dtype)
{
    static const char spec[] =
        "\"signature\": \"*fp16:16,*bf16:16,*i64:16,*i1,i64,fp32,64\", \"spec\": {\"grid\": [1], \"args\": {\"h\": "
        "{\"dtype\": \"float16\", \"shape\": [64], \"init\": \"arange\"}, \"b\": {\"dtype\": \"bfloat16\", "
        "\"shape\": [64]}, \"q\": {\"dtype\": \"int64\", \"shape\": [64], \"init\": \"arange\"}, \"flag\": "
        "{\"dtype\": \"bool\", \"shape\": [64]}, \"n\": 64, \"scale\": 0.5}}";
    int id = start_run("dtypes.py", "mixed_kernel", spec);
    cJSON *run = finish_run(id);
    ck_assert_msg(!strcmp(str_of(run, "status"), "ok"), "%s", str_of(run, "error"));
    ck_assert_double_eq_tol(array_sum(run, "q"), 63 * 64 / 2 + 64 * 64, 1e-9);
    ck_assert_double_eq_tol(array_sum(run, "b"), 63 * 64 / 4.0, 1e-9);
    cJSON_Delete(run);
    char dir[600], text[65536], cmd[2048];
    fetch_repro(id, dir, sizeof dir);
    read_into(dir, "launch.c", text, sizeof text);
    ck_assert_msg(strstr(text, "    {\"h\", 0, 1, 0}, /* *fp16 h: inputs/h.npy */\n"
                               "    {\"b\", 1, 1, 0}, /* *bf16 b: inputs/b.npy */\n"
                               "    {\"q\", 2, 1, 0}, /* *i64 q: inputs/q.npy */\n"
                               "    {\"flag\", 3, 1, 0}, /* *i1 flag: inputs/flag.npy */\n"
                               "    {\"n\", 2, 0, 0x40ull}, /* i64 n = 64 */\n"
                               "    {\"scale\", 4, 0, 0x3f000000ull}, /* fp32 scale = 0.5 */\n"),
                  "launch.c's arguments: %.2000s",
                  strstr(text, "static const Dtype") ? strstr(text, "static const Dtype") : text);
    if (access("/usr/local/cuda/include/cuda.h", R_OK) || access("/usr/local/cuda/lib64/stubs/libcuda.so", R_OK) ||
        !*MT_FAKE_DRIVER_DIR) {
        fprintf(stderr, "real_repro_launcher_passes_every_dtype: no CUDA toolkit: launch.c not compiled\n");
        return;
    }
    snprintf(cmd, sizeof cmd,
             "cd %s && cc -Wall -Wextra -Werror launch.c -I/usr/local/cuda/include -L/usr/local/cuda/lib64/stubs "
             "-lcuda -o launch > cc.out 2>&1 && FAKE_CUDA_LOG=fake.log LD_LIBRARY_PATH=%s ./launch > launch.out 2>&1",
             dir, MT_FAKE_DRIVER_DIR);
    int rc = system(cmd);
    read_into(dir, "launch.out", text, sizeof text);
    /* the fake runs nothing: b keeps its zeros, q its arange, and the verdict names them */
    ck_assert_msg(WIFEXITED(rc) && WEXITSTATUS(rc) == 1 && strstr(text, "  h: 64 elements match expected/h.npy") &&
                      strstr(text, "  b: ") && strstr(text, "launch: MISMATCH: "),
                  "./launch: %d: %s", rc, text);
    read_into(dir, "fake.log", text, sizeof text);
    ck_assert_str_eq(text, "launch mixed_kernel grid 1 1 1 block 128 1 1 shared 0 params 9\n"
                           "param 0 ptr 128 bytes\nparam 1 ptr 128 bytes\nparam 2 ptr 512 bytes\nparam 3 ptr 64 bytes\n"
                           "param 4 8 4000000000000000\nparam 5 4 0000003f\nparam 6 4 01000000\nparam 7 4 01000000\n"
                           "param 8 4 01000000\n");
}
END_TEST

START_TEST(uploads_are_checked)
{
    size_t n;
    char *npy = npy_zeros(2, &n);
    HttpResp r = http_request("POST", url("/api/uploads"), npy, n, (const char *const[]){"Content-Type: application/octet-stream", NULL}, 0);
    ck_assert_msg(r.status == 201, "%ld %s", r.status, r.body);
    cJSON *doc = cJSON_Parse(r.body);
    ck_assert_str_eq(str_of(doc, "dtype"), "float32");
    ck_assert_int_eq(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "shape"), 0)->valueint, 2);
    ck_assert_int_eq(strlen(str_of(doc, "upload")), 64);
    /* a run may use it */
    char spec[512];
    snprintf(spec, sizeof spec,
             "\"spec\": {\"grid\": [1], \"args\": {\"x\": {\"upload\": \"%s\"}, \"n\": 2}}", str_of(doc, "upload"));
    cJSON *run = finish_run(start_run("faults.py", "crash_kernel", spec));
    ck_assert_str_eq(str_of(run, "status"), "error");
    cJSON_Delete(run);
    cJSON_Delete(doc);
    http_free(&r);
    free(npy);
    r = http_request("POST", url("/api/uploads"), "not an npy file", 15, (const char *const[]){"Content-Type: application/octet-stream", NULL}, 0);
    ck_assert_int_eq(r.status, 422);
    http_free(&r);
    char *big = calloc(1, 70 << 10);
    r = http_request("POST", url("/api/uploads"), big, 70 << 10, (const char *const[]){"Content-Type: application/octet-stream", NULL}, 0);
    ck_assert_int_eq(r.status, 413);
    http_free(&r);
    free(big);
}
END_TEST

int main(void)
{
    curl_global_init(CURL_GLOBAL_DEFAULT);
    Suite *s = suite_create("web_api");
    TCase *t = tcase_create("api");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 60);
    tcase_add_test(t, info_and_security_headers);
    tcase_add_test(t, page_carries_its_nonce);
    tcase_add_test(t, files_lists_kernels_under_the_root);
    tcase_add_test(t, file_reads_only_under_the_root);
    tcase_add_test(t, compile_links_every_stage_to_the_source);
    tcase_add_test(t, compile_ptx_is_linked_through_cuda);
    tcase_add_test(t, compile_mlir_stages_are_linked);
    tcase_add_test(t, compile_takes_num_stages);
    tcase_add_test(t, compile_errors_come_with_ranges_and_fixes);
    tcase_add_test(t, compile_rejects_bad_requests);
    tcase_add_test(t, oversized_bodies_are_refused);
    tcase_add_test(t, actions_offer_refactorings);
    tcase_add_test(t, compile_discovers_a_tutorial_matmul);
    tcase_add_test(t, compile_discovery_reads_the_project_file_and_package);
    tcase_add_test(t, host_and_origin_are_checked);
    tcase_add_test(t, unknown_endpoints_and_methods);
    tcase_add_test(t, non_loopback_needs_a_token);
    tcase_add_test(t, run_end_to_end);
    tcase_add_test(t, runs_refuse_what_cannot_start);
    tcase_add_test(t, crashing_worker_costs_one_request);
    tcase_add_test(t, hanging_worker_costs_one_request);
    tcase_add_test(t, worker_errors_are_reported);
    tcase_add_test(t, uploads_are_checked);
    tcase_add_test(t, ceilings_need_a_gpu);
    suite_add_tcase(s, t);
    TCase *real = tcase_create("real");
    tcase_add_checked_fixture(real, setup_real, teardown);
    tcase_set_timeout(real, 60);
    tcase_add_test(real, real_worker_runs_the_interpreter);
    tcase_add_test(real, real_worker_runs_dtype_and_string_defines);
    tcase_add_test(real, real_ceiling_kernels_are_right);
    tcase_add_test(real, real_repro_reproduces_the_run);
    tcase_add_test(real, real_repro_launcher_passes_every_dtype);
    tcase_add_test(real, real_far_read_costs_one_request);
    tcase_add_test(real, real_endless_loop_costs_one_request);
    suite_add_tcase(s, real);
    TCase *gpu = tcase_create("fake_gpu");
    tcase_add_checked_fixture(gpu, setup_fake_gpu, teardown_fake_gpu);
    tcase_set_timeout(gpu, 60);
    tcase_add_test(gpu, ceilings_come_from_two_checked_runs);
    tcase_add_test(gpu, repro_keeps_the_lowering_options);
    tcase_add_test(gpu, profiled_runs_get_rates_from_the_compilers_counts);
    suite_add_tcase(s, gpu);
    TCase *tok = tcase_create("token");
    tcase_add_checked_fixture(tok, setup_token, teardown);
    tcase_add_test(tok, token_is_enforced);
    suite_add_tcase(s, tok);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    curl_global_cleanup();
    return failed ? 1 : 0;
}
