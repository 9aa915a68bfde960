/* check_web_lens.c: the language server's "Open in dashboard" lens is
 * shown only while a dashboard runs.
 *
 * A dashboard on an ephemeral port writes its runtime file
 * (mytriton/dashboard.h) into a private XDG_RUNTIME_DIR; `mytriton lsp`
 * (a real child process, through the LSP tests' client) then offers the
 * lens for a kernel under the dashboard's root, linking to the URL the
 * file gives, and not for one outside it; a stale file (its process gone)
 * is ignored even when it names a folder and an address that would do;
 * a configured dashboardUrl gives the lens while something answers there
 * and not when nothing does; once the dashboard stops, its file is gone
 * and so is the lens. `mytriton serve` itself writes the file (its pid,
 * its URL, its roots) and removes it when Ctrl-C stops it. */
#include <check.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "client.h"
#include "http_client.h"
#include "mytriton/dashboard.h"
#include "web.h"

#ifndef MT_MYTRITON
#error "MT_MYTRITON must name the mytriton executable"
#endif

static char tmp[64], rundir[128], root[128], other[128], data[128];

static const char kernel_text[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "\n"
    "@triton.jit\n"
    "def copy_kernel(x, out, n, BLOCK: tl.constexpr = 64):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(out + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)\n";

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void setup(void)
{
    snprintf(tmp, sizeof tmp, "/tmp/mtlens_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmp));
    snprintf(rundir, sizeof rundir, "%s/run", tmp);
    snprintf(root, sizeof root, "%s/root", tmp);
    snprintf(other, sizeof other, "%s/other", tmp);
    snprintf(data, sizeof data, "%s/data", tmp);
    ck_assert_int_eq(mkdir(rundir, 0700), 0);
    ck_assert_int_eq(mkdir(root, 0700), 0);
    ck_assert_int_eq(mkdir(other, 0700), 0);
    char path[256];
    snprintf(path, sizeof path, "%s/k.py", root);
    put(path, kernel_text);
    snprintf(path, sizeof path, "%s/k.py", other);
    put(path, kernel_text);
    setenv("XDG_RUNTIME_DIR", rundir, 1);
}

static int remove_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)flag, (void)f;
    return remove(p);
}

static void teardown(void) { nftw(tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS); }

static MtWebServer *start_dashboard(void)
{
    const char *roots[] = {root};
    MtWebOptions o = {.roots = roots, .nroots = 1, .data_dir = data, .worker_exe = MT_MYTRITON, .runtime_file = true};
    char err[512];
    MtWebServer *s = mt_web_start(&o, err, sizeof err);
    ck_assert_msg(s != NULL, "the dashboard did not start: %s", err);
    return s;
}

static char *runtime_path(long pid)
{
    static char path[256];
    char dir[200];
    ck_assert(mt_dashboard_runtime_dir(rundir, NULL, NULL, dir, sizeof dir));
    ck_assert(mt_dashboard_runtime_path(dir, pid, path, sizeof path));
    return path;
}

/* ---- the language server ---------------------------------------------------------------- */

static int next_id = 1;

/* Send a request and wait for its answer (notifications in between are
 * dropped); the answer's result. */
static cJSON *request(Client *c, const char *method, const char *params)
{
    int id = next_id++;
    char *msg = malloc(strlen(params) + 256);
    sprintf(msg, "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"%s\",\"params\":%s}", id, method, params);
    ck_assert(client_send(c, msg));
    free(msg);
    for (;;) {
        bool timed_out;
        cJSON *m = client_recv(c, 20000, &timed_out);
        ck_assert_msg(m, "no answer to %s", method);
        const cJSON *mid = cJSON_GetObjectItem(m, "id");
        if (cJSON_IsNumber(mid) && mid->valueint == id && !cJSON_GetObjectItem(m, "method")) {
            cJSON *r = cJSON_DetachItemFromObject(m, "result");
            cJSON_Delete(m);
            ck_assert_ptr_nonnull(r);
            return r;
        }
        cJSON_Delete(m);
    }
}

static void notify(Client *c, const char *method, const char *params)
{
    char *msg = malloc(strlen(params) + 256);
    sprintf(msg, "{\"jsonrpc\":\"2.0\",\"method\":\"%s\",\"params\":%s}", method, params);
    ck_assert(client_send(c, msg));
    free(msg);
}

static void start_lsp(Client *c)
{
    ck_assert(client_start(c, MT_MYTRITON, NULL));
    cJSON_Delete(request(c, "initialize", "{\"capabilities\":{}}"));
    notify(c, "initialized", "{}");
}

static void stop_lsp(Client *c)
{
    cJSON_Delete(request(c, "shutdown", "null"));
    notify(c, "exit", "null");
    ck_assert_int_eq(client_finish(c, 10000), 0);
}

static void open_doc(Client *c, const char *dir)
{
    cJSON *p = cJSON_CreateObject(), *td = cJSON_AddObjectToObject(p, "textDocument");
    char uri[300];
    snprintf(uri, sizeof uri, "file://%s/k.py", dir);
    cJSON_AddStringToObject(td, "uri", uri);
    cJSON_AddStringToObject(td, "languageId", "python");
    cJSON_AddNumberToObject(td, "version", 1);
    cJSON_AddStringToObject(td, "text", kernel_text);
    char *text = cJSON_PrintUnformatted(p);
    notify(c, "textDocument/didOpen", text);
    free(text);
    cJSON_Delete(p);
}

static void configure(Client *c, const char *url)
{
    char params[512];
    snprintf(params, sizeof params, "{\"settings\":{\"mytriton\":{\"dashboardUrl\":\"%s\"}}}", url);
    notify(c, "workspace/didChangeConfiguration", params);
}

/* The "Open in dashboard" lens's URL for the document in dir, or NULL
 * (malloc'ed). */
static char *dashboard_lens(Client *c, const char *dir)
{
    char params[400];
    snprintf(params, sizeof params, "{\"textDocument\":{\"uri\":\"file://%s/k.py\"}}", dir);
    cJSON *lenses = request(c, "textDocument/codeLens", params);
    char *url = NULL;
    const cJSON *l;
    cJSON_ArrayForEach(l, lenses)
    {
        const cJSON *cmd = cJSON_GetObjectItem(l, "command");
        if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(cmd, "command")), "mytriton.openDashboard"))
            url = strdup(cJSON_GetStringValue(
                cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(cmd, "arguments"), 0), "url")));
    }
    ck_assert_int_ge(cJSON_GetArraySize(lenses), 2); /* the kernel's own lenses are there either way */
    cJSON_Delete(lenses);
    return url;
}

static void expect_lens(Client *c, const char *dir, const char *base)
{
    char want[600];
    snprintf(want, sizeof want, "%s#file=%s/k.py&kernel=copy_kernel", base, dir);
    char *got = dashboard_lens(c, dir);
    ck_assert_msg(got && !strcmp(got, want), "the lens for %s: %s, wanted %s", dir, got ? got : "(none)", want);
    free(got);
}

static void expect_no_lens(Client *c, const char *dir)
{
    char *got = dashboard_lens(c, dir);
    ck_assert_msg(!got, "a lens for %s while no dashboard serves it: %s", dir, got);
}

/* A pid no process has: a child that has exited and been reaped. */
static long dead_pid(void)
{
    pid_t p = fork();
    if (p == 0)
        _exit(0);
    waitpid(p, NULL, 0);
    return (long)p;
}

/* A port nothing listens on. */
static int closed_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    getsockname(fd, (struct sockaddr *)&a, &len);
    close(fd);
    return ntohs(a.sin_port);
}

START_TEST(the_lens_follows_a_running_dashboard)
{
    MtWebServer *s = start_dashboard();
    const char *url = mt_web_url(s);
    /* the runtime file: this process, its URL, its root */
    char path[256];
    snprintf(path, sizeof path, "%s", runtime_path((long)getpid()));
    ck_assert_int_eq(access(path, R_OK), 0);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 077, 0);

    /* a stale file naming the other folder and the live address: its process is gone */
    long gone = dead_pid();
    cJSON *stale_doc = mt_dashboard_runtime_doc(url, gone, (const char *const[]){other}, 1);
    char *stale_text = cJSON_Print(stale_doc);
    char stale[256];
    snprintf(stale, sizeof stale, "%s", runtime_path(gone));
    put(stale, stale_text);
    free(stale_text);
    cJSON_Delete(stale_doc);

    Client c;
    start_lsp(&c);
    open_doc(&c, root);
    open_doc(&c, other);
    expect_lens(&c, root, url);
    expect_no_lens(&c, other);

    /* a configured address that answers gives the lens, for any file */
    configure(&c, url);
    expect_lens(&c, other, url);
    /* one where nothing listens does not */
    char closed[64];
    snprintf(closed, sizeof closed, "http://127.0.0.1:%d", closed_port());
    configure(&c, closed);
    expect_no_lens(&c, root);

    /* the dashboard stops: its file goes, and the lens with it */
    configure(&c, "");
    mt_web_stop(s);
    ck_assert_int_ne(access(path, F_OK), 0);
    expect_no_lens(&c, root);
    stop_lsp(&c);
}
END_TEST

/* `mytriton serve` writes the file while it serves and removes it on Ctrl-C. */
START_TEST(serve_writes_and_removes_its_runtime_file)
{
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", 1);
        dup2(null, 1);
        dup2(null, 2);
        execl(MT_MYTRITON, MT_MYTRITON, "serve", root, "--port", "0", "--data", data, "--quiet", (char *)NULL);
        _exit(127);
    }
    char *path = runtime_path((long)pid);
    cJSON *doc = NULL;
    for (int i = 0; i < 200 && !doc; i++) {
        FILE *f = fopen(path, "r");
        if (f) {
            char text[4096];
            size_t n = fread(text, 1, sizeof text - 1, f);
            fclose(f);
            text[n] = 0;
            doc = cJSON_Parse(text);
        }
        if (!doc)
            usleep(50000);
    }
    ck_assert_msg(doc, "no runtime file %s", path);
    MtDashboardRuntime r;
    ck_assert(mt_dashboard_runtime_read(doc, &r));
    ck_assert_int_eq(r.pid, pid);
    char real[4096];
    ck_assert_ptr_nonnull(realpath(root, real));
    ck_assert_str_eq(cJSON_GetArrayItem(r.roots, 0)->valuestring, real);
    /* the URL is the server's */
    char info[512];
    snprintf(info, sizeof info, "%sapi/info", r.url);
    long status;
    cJSON *answer = http_get_json(info, &status);
    ck_assert_int_eq(status, 200);
    cJSON_Delete(answer);
    cJSON_Delete(doc);
    kill(pid, SIGINT);
    int ws;
    ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
    ck_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    ck_assert_int_ne(access(path, F_OK), 0);
}
END_TEST

/* The file's rules: where it lives, its name, what a reader accepts, which
 * files a dashboard serves. */
START_TEST(runtime_file_rules)
{
    char dir[128];
    ck_assert(mt_dashboard_runtime_dir("/run/user/1000", "/c", "/h", dir, sizeof dir));
    ck_assert_str_eq(dir, "/run/user/1000/mytriton");
    ck_assert(mt_dashboard_runtime_dir("", "/c", "/h", dir, sizeof dir));
    ck_assert_str_eq(dir, "/c/mytriton/runtime");
    ck_assert(mt_dashboard_runtime_dir("relative", NULL, "/h", dir, sizeof dir));
    ck_assert_str_eq(dir, "/h/.cache/mytriton/runtime");
    ck_assert(!mt_dashboard_runtime_dir(NULL, NULL, NULL, dir, sizeof dir));
    ck_assert(mt_dashboard_runtime_name("dashboard-42.json"));
    ck_assert(!mt_dashboard_runtime_name("dashboard-.json"));
    ck_assert(!mt_dashboard_runtime_name("dashboard-4x.json"));
    ck_assert(!mt_dashboard_runtime_name("dashboard-42.json.tmp.abc"));
    cJSON *doc = mt_dashboard_runtime_doc("http://127.0.0.1:8765/", 42, (const char *const[]){"/k", "/a/f.py"}, 2);
    MtDashboardRuntime r;
    ck_assert(mt_dashboard_runtime_read(doc, &r));
    ck_assert(mt_dashboard_serves(&r, "/k/x.py"));
    ck_assert(mt_dashboard_serves(&r, "/k/sub/x.py"));
    ck_assert(mt_dashboard_serves(&r, "/a/f.py"));
    ck_assert(!mt_dashboard_serves(&r, "/kk/x.py"));
    ck_assert(!mt_dashboard_serves(&r, "/a/f.py2"));
    cJSON_ReplaceItemInObject(doc, "pid", cJSON_CreateString("42"));
    ck_assert(!mt_dashboard_runtime_read(doc, &r));
    cJSON_ReplaceItemInObject(doc, "pid", cJSON_CreateNumber(42));
    cJSON_ReplaceItemInObject(doc, "version", cJSON_CreateNumber(2));
    ck_assert(!mt_dashboard_runtime_read(doc, &r));
    cJSON_Delete(doc);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("web_lens");
    TCase *t = tcase_create("lens");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 60);
    tcase_add_test(t, the_lens_follows_a_running_dashboard);
    tcase_add_test(t, serve_writes_and_removes_its_runtime_file);
    tcase_add_test(t, runtime_file_rules);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
