/* workers.c: every kernel run happens in a worker process, supervised here.
 *
 * A worker is `EXE worker` (the mytriton binary itself unless configured):
 * it reads one JSON request per line on stdin and answers on stdout with
 * zero or more progress lines ({"event": ...}) and one final line (a
 * document with "result" or "error"). Whatever it writes on stderr is kept
 * (the last 4 KiB) to explain a crash.
 *
 * Pools: the interpreter queue has opt.interp_workers slots; each GPU
 * device found by the probe gets a queue with exactly one slot, so runs on
 * one GPU are serialised (timings are not disturbed by a second kernel,
 * and a faulting kernel's sticky CUDA error dies with its own worker). A
 * slot is a supervising thread with its worker process, started when
 * first needed and reused for later runs.
 *
 * What a bad kernel costs is that one request:
 *  - the worker crashes (a signal, an abort, the kernel's out-of-bounds
 *    store hitting something vital): end of its stdout; the request gets
 *    "the worker crashed (signal 11, SIGSEGV)" with its last stderr lines;
 *  - it hangs (an infinite loop): past opt.run_timeout_s it is killed
 *    (SIGKILL) and the request gets "stopped after N s";
 *  - it exhausts memory: interpreter workers run under an address-space
 *    limit (RLIMIT_AS, 8 GiB or half the machine's memory, whichever is
 *    less; not in sanitizer builds, whose shadow memory needs more), so
 *    allocations fail inside the worker and it reports the failure or dies
 *    of it -- either way the server's own memory is untouched.
 * In every case the process is reaped and the slot starts a fresh worker
 * for its next request; the server keeps serving.
 *
 * GPU probe: `EXE serve --probe-devices` in a child process lists the
 * devices as JSON (the server's own process never loads the CUDA driver).
 * Until it answers, GPU runs are refused with "still probing"; without a
 * GPU, with the probe's reason. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tool.h"
#include "workers.h"

extern char **environ;

#if defined(__SANITIZE_ADDRESS__)
#define WEB_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WEB_SANITIZED 1
#endif
#endif
#ifndef WEB_SANITIZED
#define WEB_SANITIZED 0
#endif

enum { WEB_ERR_TAIL = 4096, WEB_MAX_LINE = 64 << 20, WEB_WORKER_GRACE_S = 2 };

typedef struct Proc {
    pid_t pid;                /* 0: none running */
    int in_fd, out_fd, err_fd;
    char *line;               /* stdout bytes not yet ended by a newline */
    size_t len, cap;
    char tail[WEB_ERR_TAIL];  /* the last stderr bytes */
    size_t tail_len;
    int served;
} Proc;

typedef struct Node {
    WebTask t;
    struct Node *next;
} Node;

typedef struct Queue {
    int device;               /* -1: interpreter */
    Node *head, *tail;
    size_t n;
} Queue;

typedef struct Slot {
    WebWorkers *w;
    Queue *q;
    int index;
    pthread_t thread;
    bool started;
    Proc proc;
} Slot;

enum { PROBING, READY, UNAVAILABLE };

struct WebWorkers {
    MtWebServer *s;
    pthread_mutex_t lock;
    pthread_cond_t work;
    bool stop;
    Queue interp;
    Queue *gpu;               /* one per device, after the probe */
    int ngpu;
    Slot *slots;              /* interp slots, then one per GPU */
    int nslots;
    int probe;                /* PROBING, READY, UNAVAILABLE */
    char reason[1024];
    cJSON *devices;
    pthread_t probe_thread;
    char *exe;
};

/* ---- processes ------------------------------------------------------------------ */

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static rlim_t memory_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    rlim_t half = pages > 0 && size > 0 ? (rlim_t)pages * (rlim_t)size / 2 : 0;
    rlim_t cap = (rlim_t)8 << 30;
    return half && half < cap ? half : cap;
}

static bool spawn_worker(Slot *sl, char *err, size_t errlen)
{
    Proc *p = &sl->proc;
    int in[2], out[2], er[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(er, O_CLOEXEC)) {
        snprintf(err, errlen, "cannot start a worker: pipe: %s", strerror(errno));
        return false;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, er[1], 2);
    char device[32];
    size_t nenv = 0;
    while (environ[nenv])
        nenv++;
    char **env = calloc(nenv + 2, sizeof *env);
    if (!env) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    size_t k = 0;
    for (size_t i = 0; i < nenv; i++)
        if (strncmp(environ[i], "MYTRITON_DEVICE=", 16))
            env[k++] = environ[i];
    if (sl->q->device >= 0) {
        snprintf(device, sizeof device, "MYTRITON_DEVICE=%d", sl->q->device);
        env[k++] = device;
    }
    char *argv[] = {sl->w->exe, "worker", NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, sl->w->exe, &fa, NULL, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    close(in[0]);
    close(out[1]);
    close(er[1]);
    if (rc) {
        close(in[1]);
        close(out[0]);
        close(er[0]);
        snprintf(err, errlen, "cannot start the worker %s: %s", sl->w->exe, strerror(rc));
        return false;
    }
    if (sl->q->device < 0 && !WEB_SANITIZED) {
        struct rlimit lim = {memory_limit(), memory_limit()};
        prlimit(pid, RLIMIT_AS, &lim, NULL);
    }
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    pthread_mutex_lock(&sl->w->lock);
    p->pid = pid;
    pthread_mutex_unlock(&sl->w->lock);
    p->in_fd = in[1];
    p->out_fd = out[0];
    p->err_fd = er[0];
    p->len = 0;
    p->tail_len = 0;
    p->served = 0;
    mt_web_log(sl->w->s, "worker %d started (%s, pid %d)", sl->index,
               sl->q->device < 0 ? "interpreter" : "gpu", (int)pid);
    return true;
}

static const char *signal_name(int sig)
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {{SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"},
                 {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGPIPE, "SIGPIPE"}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (names[i].sig == sig)
            return names[i].name;
    return "a signal";
}

/* Kill (when `kill_it`) and reap the worker; describe how it ended. */
static void end_worker(Slot *sl, bool kill_it, char *how, size_t howlen)
{
    Proc *p = &sl->proc;
    if (!p->pid)
        return;
    if (kill_it)
        kill(p->pid, SIGKILL);
    close_fd(&p->in_fd);
    int status = 0;
    while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (how && WIFSIGNALED(status))
        snprintf(how, howlen, "signal %d, %s", WTERMSIG(status), signal_name(WTERMSIG(status)));
    else if (how)
        snprintf(how, howlen, "exit status %d", WEXITSTATUS(status));
    close_fd(&p->out_fd);
    close_fd(&p->err_fd);
    mt_web_log(sl->w->s, "worker %d (pid %d) ended: %s", sl->index, (int)p->pid, how ? how : "stopped");
    pthread_mutex_lock(&sl->w->lock);
    p->pid = 0;
    pthread_mutex_unlock(&sl->w->lock);
}

static void keep_tail(Proc *p, const char *buf, size_t n)
{
    if (n >= WEB_ERR_TAIL) {
        buf += n - (WEB_ERR_TAIL - 1);
        n = WEB_ERR_TAIL - 1;
    }
    if (p->tail_len + n >= WEB_ERR_TAIL) {
        size_t drop = p->tail_len + n - (WEB_ERR_TAIL - 1);
        memmove(p->tail, p->tail + drop, p->tail_len - drop);
        p->tail_len -= drop;
    }
    memcpy(p->tail + p->tail_len, buf, n);
    p->tail_len += n;
    p->tail[p->tail_len] = 0;
}

static bool write_all(int fd, const char *s, size_t n, double deadline)
{
    while (n) {
        ssize_t w = write(fd, s, n);
        if (w > 0) {
            s += w;
            n -= (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno == EAGAIN) {
            double left = deadline - mt_web_now();
            struct pollfd pfd = {fd, POLLOUT, 0};
            if (left <= 0 || poll(&pfd, 1, (int)(left * 1000) + 1) < 0)
                return false;
            continue;
        }
        return false;
    }
    return true;
}

/* ---- one task --------------------------------------------------------------------- */

typedef enum Outcome { GOT_RESULT, DIED, TIMED_OUT, STOPPING } Outcome;

/* Handle complete stdout lines; true once the final one arrived (*final). */
static bool take_lines(Slot *sl, const WebTask *t, cJSON **final)
{
    Proc *p = &sl->proc;
    char *start = p->line;
    for (char *nl; (nl = memchr(start, '\n', p->len - (size_t)(start - p->line)));) {
        *nl = 0;
        cJSON *doc = cJSON_Parse(start);
        start = nl + 1;
        if (!doc)
            continue;   /* not a protocol line: ignored */
        if (cJSON_GetObjectItemCaseSensitive(doc, "result") || cJSON_GetObjectItemCaseSensitive(doc, "error")) {
            *final = doc;
            p->len = 0;
            return true;
        }
        if (t->progress)
            t->progress(t->ud, doc);
        else
            cJSON_Delete(doc);
    }
    size_t rest = p->len - (size_t)(start - p->line);
    memmove(p->line, start, rest);
    p->len = rest;
    return false;
}

static Outcome converse(Slot *sl, const WebTask *t, const char *line, double deadline, cJSON **final)
{
    Proc *p = &sl->proc;
    if (!write_all(p->in_fd, line, strlen(line), deadline))
        return DIED;
    bool out_open = true;
    while (out_open) {
        if (atomic_load(&sl->w->s->stopping))
            return STOPPING;
        double left = deadline - mt_web_now();
        if (left <= 0)
            return TIMED_OUT;
        struct pollfd pfd[2] = {{p->out_fd, POLLIN, 0}, {p->err_fd, POLLIN, 0}};
        int n = poll(pfd, p->err_fd >= 0 ? 2 : 1, left > 0.5 ? 500 : (int)(left * 1000) + 1);
        if (n < 0 && errno != EINTR)
            return DIED;
        if (n <= 0)
            continue;
        if (p->err_fd >= 0 && (pfd[1].revents & (POLLIN | POLLHUP))) {
            char buf[4096];
            ssize_t got = read(p->err_fd, buf, sizeof buf);
            if (got > 0)
                keep_tail(p, buf, (size_t)got);
            else if (got == 0)
                close_fd(&p->err_fd);
        }
        if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            if (p->cap - p->len < 65536) {
                size_t cap = p->cap ? p->cap * 2 : 1 << 17;
                char *nb = cap <= WEB_MAX_LINE ? realloc(p->line, cap) : NULL;
                if (!nb)
                    return DIED;
                p->line = nb;
                p->cap = cap;
            }
            ssize_t got = read(p->out_fd, p->line + p->len, p->cap - p->len - 1);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                out_open = false;
                continue;
            }
            p->len += (size_t)got;
            p->line[p->len] = 0;
            if (take_lines(sl, t, final))
                return GOT_RESULT;
        }
    }
    /* stdout closed: let stderr drain briefly for the crash message */
    for (int i = 0; i < 20 && p->err_fd >= 0; i++) {
        struct pollfd pfd = {p->err_fd, POLLIN, 0};
        if (poll(&pfd, 1, 50) <= 0)
            break;
        char buf[4096];
        ssize_t got = read(p->err_fd, buf, sizeof buf);
        if (got <= 0)
            break;
        keep_tail(p, buf, (size_t)got);
    }
    return DIED;
}

/* The last few lines of the worker's stderr, for a crash message. */
static void stderr_lines(const Proc *p, char *out, size_t n)
{
    out[0] = 0;
    if (!p->tail_len)
        return;
    const char *s = p->tail;
    int lines = 0;
    for (const char *q = p->tail + p->tail_len; q > p->tail && lines < 6; q--)
        if (q[-1] == '\n' && q != p->tail + p->tail_len && ++lines == 6)
            s = q;
    snprintf(out, n, "; its last output: %s", s);
    size_t len = strlen(out);
    while (len && (out[len - 1] == '\n' || out[len - 1] == ' '))
        out[--len] = 0;
}

static void run_task(Slot *sl, WebTask *t)
{
    MtWebServer *s = sl->w->s;
    char err[WEB_ERR_TAIL + 512] = "", how[128];
    cJSON *id = cJSON_GetObjectItemCaseSensitive(t->request, "id");
    if (!id)
        cJSON_AddNumberToObject(t->request, "id", (double)t->id);
    /* The worker stops a launch past the run time limit itself (and stays);
     * the supervisor's own deadline, a little later, is for a worker that
     * does not. */
    if (!cJSON_GetObjectItemCaseSensitive(t->request, "timeout_ms"))
        cJSON_AddNumberToObject(t->request, "timeout_ms", s->opt.run_timeout_s * 1000);
    char *json = cJSON_PrintUnformatted(t->request);
    size_t n = json ? strlen(json) : 0;
    char *line = json ? malloc(n + 2) : NULL;
    if (!line) {
        cJSON_free(json);
        t->done(t->ud, NULL, "out of memory");
        return;
    }
    memcpy(line, json, n);
    memcpy(line + n, "\n", 2);
    cJSON_free(json);
    if (!sl->proc.pid && !spawn_worker(sl, err, sizeof err)) {
        free(line);
        t->done(t->ud, NULL, err);
        return;
    }
    if (t->started) {
        char who[64];
        snprintf(who, sizeof who, "%s worker %d (pid %d)", sl->q->device < 0 ? "interpreter" : "gpu", sl->index,
                 (int)sl->proc.pid);
        t->started(t->ud, who);
    }
    cJSON *final = NULL;
    Outcome o = converse(sl, t, line, mt_web_now() + s->opt.run_timeout_s + WEB_WORKER_GRACE_S, &final);
    free(line);
    char tail[WEB_ERR_TAIL + 64];
    switch (o) {
    case GOT_RESULT:
        sl->proc.served++;
        t->done(t->ud, final, NULL);
        return;
    case TIMED_OUT:
        end_worker(sl, true, how, sizeof how);
        snprintf(err, sizeof err,
                 "the run took longer than %.0f s and was stopped (an infinite loop?); its worker was replaced "
                 "(start the dashboard with a larger --run-timeout to allow more)",
                 s->opt.run_timeout_s);
        break;
    case STOPPING:
        end_worker(sl, true, how, sizeof how);
        snprintf(err, sizeof err, "the dashboard is stopping");
        break;
    case DIED:
        stderr_lines(&sl->proc, tail, sizeof tail);
        end_worker(sl, true, how, sizeof how);
        snprintf(err, sizeof err, "the worker running this kernel crashed (%s) and was replaced%s", how, tail);
        break;
    }
    t->done(t->ud, NULL, err);
}

/* ---- slots and queues ----------------------------------------------------------------- */

static void *slot_main(void *arg)
{
    Slot *sl = arg;
    WebWorkers *w = sl->w;
    for (;;) {
        pthread_mutex_lock(&w->lock);
        while (!w->stop && !sl->q->head)
            pthread_cond_wait(&w->work, &w->lock);
        if (w->stop) {
            pthread_mutex_unlock(&w->lock);
            break;
        }
        Node *node = sl->q->head;
        sl->q->head = node->next;
        if (!sl->q->head)
            sl->q->tail = NULL;
        sl->q->n--;
        pthread_mutex_unlock(&w->lock);
        run_task(sl, &node->t);
        cJSON_Delete(node->t.request);
        free(node);
    }
    end_worker(sl, true, NULL, 0);
    free(sl->proc.line);
    return NULL;
}

static bool start_slot(Slot *sl, WebWorkers *w, Queue *q, int index)
{
    memset(sl, 0, sizeof *sl);
    sl->w = w;
    sl->q = q;
    sl->index = index;
    sl->proc.in_fd = sl->proc.out_fd = sl->proc.err_fd = -1;
    sl->started = pthread_create(&sl->thread, NULL, slot_main, sl) == 0;
    return sl->started;
}

/* The GPU probe: `EXE serve --probe-devices` prints {"devices": [...]} or
 * {"error": "..."}; then one queue and one slot per device. */
static void *probe_main(void *arg)
{
    WebWorkers *w = arg;
    char *argv[] = {w->exe, "serve", "--probe-devices", NULL};
    WebToolResult r;
    mt_web_run_tool(argv, 60.0, 1 << 20, &r);
    cJSON *doc = r.out ? cJSON_Parse(r.out) : NULL;
    cJSON *devs = cJSON_GetObjectItemCaseSensitive(doc, "devices");
    pthread_mutex_lock(&w->lock);
    if (cJSON_IsArray(devs) && cJSON_GetArraySize(devs) > 0 && !w->stop) {
        int n = cJSON_GetArraySize(devs);
        w->gpu = calloc((size_t)n, sizeof *w->gpu);
        for (int i = 0; w->gpu && i < n; i++) {
            w->gpu[i].device = i;
            if (start_slot(&w->slots[w->nslots], w, &w->gpu[i], w->nslots))
                w->nslots++;
        }
        w->ngpu = w->gpu ? n : 0;
        w->devices = cJSON_DetachItemViaPointer(doc, devs);
        w->probe = w->ngpu ? READY : UNAVAILABLE;
    } else {
        const char *why = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "error"));
        snprintf(w->reason, sizeof w->reason, "%s",
                 why ? why : r.error[0] ? r.error : "the device probe gave no answer");
        w->probe = UNAVAILABLE;
    }
    pthread_mutex_unlock(&w->lock);
    mt_web_log(w->s, "GPU probe: %s", w->probe == READY ? "ready" : w->reason);
    cJSON_Delete(doc);
    free(r.out);
    return NULL;
}

enum { WEB_MAX_GPUS = 64 };

WebWorkers *mt_web_workers_new(MtWebServer *s, char *err, size_t errlen)
{
    WebWorkers *w = calloc(1, sizeof *w);
    char exe[PATH_MAX];
    ssize_t n = s->opt.worker_exe ? 0 : readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0)
        exe[n] = 0;
    if (!w || !(w->exe = strdup(s->opt.worker_exe ? s->opt.worker_exe : n > 0 ? exe : "mytriton")) ||
        !(w->slots = calloc((size_t)s->opt.interp_workers + WEB_MAX_GPUS, sizeof *w->slots))) {
        if (w)
            free(w->exe);
        free(w);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    w->s = s;
    w->interp.device = -1;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->work, NULL);
    pthread_mutex_lock(&w->lock);
    for (int i = 0; i < s->opt.interp_workers; i++)
        if (start_slot(&w->slots[w->nslots], w, &w->interp, w->nslots))
            w->nslots++;
    w->probe = PROBING;
    if (pthread_create(&w->probe_thread, NULL, probe_main, w)) {
        w->probe = UNAVAILABLE;
        snprintf(w->reason, sizeof w->reason, "the device probe could not start");
    }
    pthread_mutex_unlock(&w->lock);
    return w;
}

static void fail_queue(Queue *q, const char *why)
{
    for (Node *n = q->head, *next; n; n = next) {
        next = n->next;
        n->t.done(n->t.ud, NULL, why);
        cJSON_Delete(n->t.request);
        free(n);
    }
    q->head = q->tail = NULL;
    q->n = 0;
}

void mt_web_workers_free(WebWorkers *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    bool probing = w->probe == PROBING;
    w->stop = true;
    for (int i = 0; i < w->nslots; i++)
        if (w->slots[i].proc.pid)
            kill(w->slots[i].proc.pid, SIGKILL);
    pthread_cond_broadcast(&w->work);
    pthread_mutex_unlock(&w->lock);
    (void)probing;
    pthread_join(w->probe_thread, NULL);
    for (int i = 0; i < w->nslots; i++)
        if (w->slots[i].started)
            pthread_join(w->slots[i].thread, NULL);
    fail_queue(&w->interp, "the dashboard is stopping");
    for (int i = 0; i < w->ngpu; i++)
        fail_queue(&w->gpu[i], "the dashboard is stopping");
    cJSON_Delete(w->devices);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->work);
    free(w->gpu);
    free(w->slots);
    free(w->exe);
    free(w);
}

bool mt_web_workers_submit(WebWorkers *w, const WebTask *t, char *err, size_t errlen)
{
    Node *node = calloc(1, sizeof *node);
    if (!node) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    node->t = *t;
    pthread_mutex_lock(&w->lock);
    Queue *q = NULL;
    if (t->device < 0)
        q = &w->interp;
    else if (w->probe == PROBING)
        snprintf(err, errlen, "the GPU is still being probed; try again in a moment");
    else if (w->probe == UNAVAILABLE)
        snprintf(err, errlen, "no GPU: %s (the interpreter backend runs everywhere)", w->reason);
    else if (t->device >= w->ngpu)
        snprintf(err, errlen, "no GPU %d: this machine has %d", t->device, w->ngpu);
    else
        q = &w->gpu[t->device];
    if (q && w->stop) {
        snprintf(err, errlen, "the dashboard is stopping");
        q = NULL;
    }
    if (!q) {
        pthread_mutex_unlock(&w->lock);
        free(node);
        return false;
    }
    if (t->queued)
        t->queued(t->ud, (int)q->n);
    if (q->tail)
        q->tail->next = node;
    else
        q->head = node;
    q->tail = node;
    q->n++;
    pthread_cond_broadcast(&w->work);
    pthread_mutex_unlock(&w->lock);
    return true;
}

cJSON *mt_web_workers_info(WebWorkers *w)
{
    cJSON *o = cJSON_CreateObject();
    pthread_mutex_lock(&w->lock);
    cJSON *in = cJSON_AddObjectToObject(o, "interp");
    cJSON_AddNumberToObject(in, "workers", w->s->opt.interp_workers);
    cJSON_AddNumberToObject(in, "queued", (double)w->interp.n);
    cJSON *cu = cJSON_AddObjectToObject(o, "cuda");
    cJSON_AddStringToObject(cu, "state", w->probe == PROBING ? "probing" : w->probe == READY ? "ready" : "unavailable");
    if (w->devices)
        cJSON_AddItemToObject(cu, "devices", cJSON_Duplicate(w->devices, true));
    if (w->probe == UNAVAILABLE)
        cJSON_AddStringToObject(cu, "reason", w->reason);
    pthread_mutex_unlock(&w->lock);
    return o;
}
