/* fuzz_web.c: the dashboard's HTTP request handling.
 *
 * The input is what a client sends on one connection: request lines,
 * headers, bodies, anything. One server (web/, the code `mytriton serve`
 * runs) is started for the whole process on an ephemeral loopback port,
 * with a root holding one kernel file (kernels.py, which requests name
 * relative to the root) and a data folder of its own, both removed at
 * exit. Each input is written to a fresh connection, whose write side is
 * shut once an answer starts (or after 20 ms), and the answer is read to
 * its end (at most 5 s).
 * libmicrohttpd parses the HTTP; everything after it is the dashboard's:
 * the guard (Host, Origin, token), routing, body limits, uploads, every
 * JSON endpoint (compiles included), the run history, the event streams,
 * repro archives. It must answer or close without a crash, a sanitizer
 * report or a leak, whatever the bytes.
 *
 * Runs go nowhere: the worker program is /bin/false, so a run is
 * accepted, recorded and fails at once ("the worker ... exited"), and the
 * GPU probe finds no device. Bodies are limited to 64 KiB, compiles and
 * runs to 2 s. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "web.h"
#include "fuzz.h"

static MtWebServer *srv;
static char tmp[64];

static const char kernel[] =
    "import triton\nimport triton.language as tl\n\n\n# mytriton: BLOCK=64\n@triton.jit\n"
    "def add_kernel(x, y, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)\n";

static void stop(void)
{
    mt_web_stop(srv);
    srv = NULL;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (tmp[0] && system(cmd))
        fprintf(stderr, "fuzz_web: could not remove %s\n", tmp);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    signal(SIGPIPE, SIG_IGN);
    snprintf(tmp, sizeof tmp, "/tmp/mytriton-fuzz-web-XXXXXX");
    if (!mkdtemp(tmp))
        abort();
    static char root[96], data[96];
    char path[128];
    snprintf(root, sizeof root, "%s/root", tmp);
    snprintf(data, sizeof data, "%s/data", tmp);
    snprintf(path, sizeof path, "%s/kernels.py", root);
    FILE *f = NULL;
    if (mkdir(root, 0700) || !(f = fopen(path, "w")) || fputs(kernel, f) < 0 || fclose(f))
        abort();
    static const char *roots[1];
    roots[0] = root;
    MtWebOptions o = {.roots = roots,
                      .nroots = 1,
                      .data_dir = data,
                      .worker_exe = "/bin/false",
                      .run_timeout_s = 2,
                      .compile_timeout_s = 2,
                      .max_body = 64 << 10,
                      .max_upload = 64 << 10};
    /* relative paths in requests ("kernels.py") start at the folder the server starts in */
    char err[512], here[4096];
    if (!getcwd(here, sizeof here) || chdir(root))
        abort();
    srv = mt_web_start(&o, err, sizeof err);
    if (chdir(here))
        abort();
    if (!srv) {
        fprintf(stderr, "fuzz_web: the server did not start: %s\n", err);
        abort();
    }
    atexit(stop);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 17)
        return 0;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    struct timeval tv = {.tv_sec = 5};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)mt_web_port(srv))};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0) {
        for (size_t off = 0; off < size;) {
            ssize_t n = send(fd, data + off, size - off, MSG_NOSIGNAL);
            if (n <= 0)
                break;
            off += (size_t)n;
        }
        /* Give a complete request a moment to be answered before the
         * write side closes: libmicrohttpd drops a request whose client
         * has half-closed before the handler replied. */
        struct pollfd p = {.fd = fd, .events = POLLIN};
        poll(&p, 1, 20);
        shutdown(fd, SHUT_WR);
        char buf[65536];
        while (recv(fd, buf, sizeof buf, 0) > 0)
            ;
    }
    close(fd);
    return 0;
}
