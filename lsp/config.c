/* config.c: editor settings, the project file, and the specialisation
 * the server compiles each kernel for.
 *
 * mytriton.json and its values follow mytriton/project.h's rules (shared
 * with the dashboard).
 *
 * The specialisation itself is found by the compiler's discovery
 * (mt_discover): the `# mytriton:` comment, the kernel's launches,
 * autotune configs, heuristics and defaults. The editor adds what it
 * knows at two tiers: the project file's per-kernel signature and
 * constexprs rank just below the comment (above launches and defaults:
 * you named the kernel), the project-wide constexprs and then the editor
 * setting mytriton.constexprs rank below everything the file says, for
 * tl.constexpr parameters only, so one table can serve kernels with
 * different parameters.
 *
 * The dashboard the "Open in dashboard" lens opens is one that runs: the
 * dashboardUrl setting when something accepts a connection there, or
 * else the `mytriton serve` whose runtime file says it serves the
 * document (mytriton/dashboard.h). Each address's answer is kept a few
 * seconds, so a lens request costs at most one connect of a fraction of a
 * second. */
#include "config.h"

#include "mytriton/dashboard.h"
#include "mytriton/project.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

void mt_lsp_settings_init(Settings *s)
{
    memset(s, 0, sizeof *s);
    s->last_stage = MT_STAGE_CUDA;
    s->inlay_hints = true;
    s->code_lens = true;
}

void mt_lsp_settings_free(Settings *s)
{
    cJSON_Delete(s->constexprs);
    free(s->rules_url);
    free(s->dashboard_url);
    for (int i = 0; i < DASHBOARD_CHECKS; i++)
        free(s->checks[i].url);
    mt_lsp_settings_init(s);
}

/* A URL setting: "" clears it; with_slash adds a final '/'. */
static void set_url(char **dst, const cJSON *v, bool with_slash)
{
    if (!cJSON_IsString(v))
        return;
    free(*dst);
    *dst = NULL;
    size_t n = strlen(v->valuestring);
    if (!n || !(*dst = malloc(n + 2)))
        return;
    memcpy(*dst, v->valuestring, n + 1);
    if (with_slash && (*dst)[n - 1] != '/')
        strcpy(*dst + n, "/");
}

void mt_lsp_settings_apply(Settings *s, const cJSON *section)
{
    if (!cJSON_IsObject(section))
        return;
    const cJSON *inner = cJSON_GetObjectItemCaseSensitive(section, "mytriton");
    if (cJSON_IsObject(inner))
        section = inner;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(section, "constexprs");
    if (cJSON_IsObject(v)) {
        cJSON_Delete(s->constexprs);
        s->constexprs = cJSON_Duplicate(v, true);
    }
    v = cJSON_GetObjectItemCaseSensitive(section, "stage");
    if (cJSON_IsString(v)) {
        int st = mt_stage_from_name(v->valuestring);
        if (st == MT_STAGE_SSA || st == MT_STAGE_LAYOUT || st == MT_STAGE_CUDA)
            s->last_stage = st;
    }
    v = cJSON_GetObjectItemCaseSensitive(section, "inlayHints");
    if (cJSON_IsBool(v))
        s->inlay_hints = cJSON_IsTrue(v);
    v = cJSON_GetObjectItemCaseSensitive(section, "codeLens");
    if (cJSON_IsBool(v))
        s->code_lens = cJSON_IsTrue(v);
    v = cJSON_GetObjectItemCaseSensitive(section, "inferredTypes");
    if (cJSON_IsString(v)) {
        static const char *const modes[] = {"hint", "diagnostic", "off"};
        for (int i = 0; i < 3; i++)
            if (!strcmp(v->valuestring, modes[i]))
                s->inferred_types = (InferredTypes)i;
    }
    v = cJSON_GetObjectItemCaseSensitive(section, "hoverMlir");
    if (cJSON_IsBool(v))
        s->hover_mlir = cJSON_IsTrue(v) ? HOVER_MLIR_ON : HOVER_MLIR_OFF;
    else if (cJSON_IsString(v)) {
        static const char *const modes[] = {"off", "mlir", "mlir-llvm"};
        for (int i = 0; i < 3; i++)
            if (!strcmp(v->valuestring, modes[i]))
                s->hover_mlir = (HoverMlir)i;
    }
    set_url(&s->rules_url, cJSON_GetObjectItemCaseSensitive(section, "rulesUrl"), true);
    set_url(&s->dashboard_url, cJSON_GetObjectItemCaseSensitive(section, "dashboardUrl"), false);
}

/* ---- the project file ------------------------------------------------------------------- */

static char *read_text(const char *path, long long *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (cap - n < 4096) {
            cap = cap ? cap * 2 : 8192;
            if (cap > (16u << 20))
                break;
            char *b = realloc(buf, cap);
            if (!b)
                break;
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *size = (long long)n;
    }
    return buf;
}

/* "path: what" or "path:line: what", malloc'ed. */
static char *problem(const char *path, long long line, const char *what)
{
    size_t n = strlen(path) + strlen(what) + 32;
    char *s = malloc(n);
    if (!s)
        return NULL;
    if (line > 0)
        snprintf(s, n, "%s:%lld: %s", path, line, what);
    else
        snprintf(s, n, "%s: %s", path, what);
    return s;
}

static void project_clear(Project *p)
{
    free(p->path);
    cJSON_Delete(p->root);
    free(p->error);
    memset(p, 0, sizeof *p);
}

void mt_lsp_project_free(Project *p) { project_clear(p); }

static void project_load(Project *p, const char *path, const struct stat *st)
{
    project_clear(p);
    p->path = strdup(path);
    p->mtime = st->st_mtim;
    p->size = (long long)st->st_size;
    long long size = 0;
    char *text = read_text(path, &size);
    if (!text) {
        p->error = problem(path, 0, strerror(errno));
        return;
    }
    const char *end = NULL;
    p->root = cJSON_ParseWithOpts(text, &end, true);
    if (!p->root) {
        long long line = 1;
        for (const char *q = text; end && q < end; q++)
            line += *q == '\n';
        p->error = problem(path, line, "invalid JSON");
    } else {
        const char *where;
        const char *why = mt_project_problem(p->root, &where);
        if (why) {
            char what[512];
            snprintf(what, sizeof what, "%s%s%s", where, *where ? ": " : "", why);
            p->error = problem(path, 0, what);
            cJSON_Delete(p->root);
            p->root = NULL;
        }
    }
    free(text);
}

const Project *mt_lsp_project_for(Project *p, const char *doc_path)
{
    char dir[4096];
    if (!doc_path || doc_path[0] != '/' || strlen(doc_path) >= sizeof dir) {
        project_clear(p);
        return p;
    }
    strcpy(dir, doc_path);
    for (;;) {
        char *slash = strrchr(dir, '/');
        if (!slash)
            break;
        *slash = 0;
        char cand[4096 + 16];
        snprintf(cand, sizeof cand, "%s/mytriton.json", dir);
        struct stat st;
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode)) {
            bool same = p->path && !strcmp(p->path, cand) && p->mtime.tv_sec == st.st_mtim.tv_sec &&
                        p->mtime.tv_nsec == st.st_mtim.tv_nsec && p->size == (long long)st.st_size;
            if (!same)
                project_load(p, cand, &st);
            return p;
        }
        if (dir[0] == 0)
            break;
    }
    project_clear(p);
    return p;
}

/* ---- what the editor gives the discovery ---------------------------------------------------- */

static void add_given(DiscoverInput *in, const cJSON *values, MtGivenTier tier, const char *origin)
{
    const cJSON *v;
    cJSON_ArrayForEach(v, values)
    {
        size_t i = in->opt.ngiven;
        if (i >= DISCOVER_MAX_GIVEN || !v->string)
            continue;
        const char *text = mt_project_value_literal(v, in->values[i], sizeof in->values[i]);
        if (!text)
            continue;
        in->given[i] = (MtGiven){v->string, text, origin, tier};
        in->opt.ngiven = i + 1;
    }
}

void mt_lsp_discover_input(DiscoverInput *in, const MtKernelInfo *k, const Project *p, const Settings *s,
                           uint32_t config)
{
    memset(in, 0, sizeof *in);
    in->opt.given = in->given;
    in->opt.config = config;
    const cJSON *root = p ? p->root : NULL;
    const cJSON *entry = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "kernels"), k->name);
    const cJSON *sig = cJSON_GetObjectItemCaseSensitive(entry, "signature");
    if (cJSON_IsString(sig)) {
        in->opt.signature = sig->valuestring;
        in->opt.signature_origin = "mytriton.json";
    }
    add_given(in, cJSON_GetObjectItemCaseSensitive(entry, "constexprs"), MT_GIVEN_KERNEL, "mytriton.json");
    add_given(in, cJSON_GetObjectItemCaseSensitive(root, "constexprs"), MT_GIVEN_FALLBACK, "mytriton.json");
    add_given(in, s->constexprs, MT_GIVEN_FALLBACK, "the editor setting mytriton.constexprs");
}

/* ---- the running dashboard ------------------------------------------------------------ */

enum { CONNECT_TIMEOUT_MS = 200 };
static const double check_keep_s = 3.0;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Whether something accepts a TCP connection at url's host and port
 * ("http://HOST[:PORT]/...", HOST maybe [IPv6]), within the timeout. */
static bool accepts(const char *url)
{
    char host[256], port[16] = "80";
    if (strncmp(url, "http://", 7))
        return false;
    const char *h = url + 7, *end;
    if (*h == '[') {
        end = strchr(h, ']');
        if (!end)
            return false;
        snprintf(host, sizeof host, "%.*s", (int)(end - h - 1), h + 1);
        end++;
    } else {
        end = h + strcspn(h, ":/?#");
        snprintf(host, sizeof host, "%.*s", (int)(end - h), h);
    }
    if (*end == ':')
        snprintf(port, sizeof port, "%.*s", (int)strcspn(end + 1, "/?#"), end + 1);
    struct addrinfo hints = {.ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV}, *res = NULL;
    if (!*host || getaddrinfo(host, port, &hints, &res))
        return false;
    bool up = false;
    for (struct addrinfo *a = res; a && !up; a = a->ai_next) {
        int fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0)
            continue;
        if (!connect(fd, a->ai_addr, a->ai_addrlen)) {
            up = true;
        } else if (errno == EINPROGRESS) {
            struct pollfd p = {fd, POLLOUT, 0};
            int err = 0;
            socklen_t len = sizeof err;
            up = poll(&p, 1, CONNECT_TIMEOUT_MS) == 1 && !getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) && !err;
        }
        close(fd);
    }
    freeaddrinfo(res);
    return up;
}

/* accepts(url), from the last few seconds' answer when there is one. */
static bool answers(Settings *s, const char *url)
{
    double t = now_s();
    DashboardCheck *slot = &s->checks[0];
    for (int i = 0; i < DASHBOARD_CHECKS; i++) {
        DashboardCheck *c = &s->checks[i];
        if (c->url && !strcmp(c->url, url) && t - c->at < check_keep_s)
            return c->up;
        if (!c->url || c->at < slot->at)
            slot = c;
    }
    free(slot->url);
    slot->url = strdup(url);
    slot->at = t;
    slot->up = accepts(url);
    return slot->up;
}

static bool alive(long pid) { return kill((pid_t)pid, 0) == 0 || errno == EPERM; }

/* The address of a running `mytriton serve` that serves `real` (a real
 * path), from the runtime files; the first by file name when several do. */
static char *served_by(Settings *s, const char *real)
{
    char dir[PATH_MAX];
    if (!mt_dashboard_runtime_dir(getenv("XDG_RUNTIME_DIR"), getenv("XDG_CACHE_HOME"), getenv("HOME"), dir,
                                  sizeof dir))
        return NULL;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char *best = NULL, best_name[NAME_MAX + 1] = "";
    for (struct dirent *e; (e = readdir(d));) {
        if (!mt_dashboard_runtime_name(e->d_name) || (best && strcmp(e->d_name, best_name) > 0))
            continue;
        char path[PATH_MAX + NAME_MAX + 2];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        long long size;
        char *text = read_text(path, &size);
        cJSON *doc = text ? cJSON_Parse(text) : NULL;
        MtDashboardRuntime r;
        if (doc && mt_dashboard_runtime_read(doc, &r) && alive(r.pid) && mt_dashboard_serves(&r, real) &&
            answers(s, r.url)) {
            free(best);
            best = strdup(r.url);
            snprintf(best_name, sizeof best_name, "%s", e->d_name);
        }
        cJSON_Delete(doc);
        free(text);
    }
    closedir(d);
    return best;
}

char *mt_lsp_dashboard_for(Settings *s, const char *path)
{
    if (s->dashboard_url) {
        if (!answers(s, s->dashboard_url))
            return NULL;
        /* the page's address: "http://host:port" gets its "/" */
        const char *u = s->dashboard_url, *rest = strstr(u, "://");
        bool bare = rest && !strchr(rest + 3, '/') && !strchr(rest + 3, '?');
        size_t n = strlen(u);
        char *out = malloc(n + 2);
        if (out)
            snprintf(out, n + 2, "%s%s", u, bare ? "/" : "");
        return out;
    }
    char real[PATH_MAX];
    if (!path || path[0] != '/')
        return NULL;
    return served_by(s, realpath(path, real) ? real : path);
}
