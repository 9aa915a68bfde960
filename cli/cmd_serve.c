/* cmd_serve.c: `mytriton serve` -- the dashboard.
 *
 *   mytriton serve [PATH...] [--host H] [--port P] [--token T] [--open] [--data DIR] ...
 *
 * The server is the mt_web library (web/); this file reads the options,
 * makes a token when the address is not loopback and none was given,
 * starts the server, prints its URL, optionally opens a browser, and waits
 * for Ctrl-C (SIGINT) or SIGTERM to stop it cleanly. SIGINT and SIGTERM
 * are blocked before the server's threads start (they inherit the mask)
 * and taken with sigwait here, so no handler runs on a server thread.
 *
 * `mytriton serve --probe-devices` is the server's own GPU probe: it
 * prints {"devices": [...]} or {"error": "..."} and exits, so that the
 * CUDA driver is loaded in a short-lived child, never in the server. */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cuda_driver.h"
#ifdef MT_HAVE_WEB
#include "web.h"
#endif

static const char help[] =
    "usage: mytriton serve [PATH...] [options]\n"
    "\n"
    "Serve the dashboard: edit the kernels of PATH (files or folders; default: the current folder),\n"
    "see every stage linked to the source, run them on the CPU interpreter or the GPU, profile them.\n"
    "\n"
    "  --host H              address to listen on (default 127.0.0.1); any other than loopback needs a token\n"
    "  --port P              port (default 8765; 0: any free port)\n"
    "  --token T             require this token on every request (default: none on loopback,\n"
    "                        a random one, printed in the URL, elsewhere)\n"
    "  --allow-host NAME     also accept NAME in the Host header (a proxy's name); repeatable\n"
    "  --open                open the dashboard in the default browser\n"
    "  --data DIR            run history, uploads and measured ceilings (default:\n"
    "                        $XDG_DATA_HOME/mytriton/dashboard, else ~/.local/share/mytriton/dashboard)\n"
    "  --workers N           interpreter runs at once (default 2); each GPU runs one at a time\n"
    "  --run-timeout S       stop a run after S seconds (default 120)\n"
    "  --compile-timeout S   stop a compile after S seconds (default 20)\n"
    "  --sass-tool PATH      nvdisasm or cuobjdump for the SASS view (default: $MYTRITON_NVDISASM or PATH)\n"
    "  --worker PROGRAM      run kernels with `PROGRAM worker` (default: this mytriton)\n"
    "  --quiet               no request log on stderr\n"
    "  -h, --help            this help\n"
    "\n"
    "The API and the page are described in docs/dashboard.md.\n";

/* `--probe-devices`: every device the driver opens, as JSON on stdout. */
static int probe_devices(void)
{
    char err[1024] = "";
    printf("{\"devices\": [");
    int n = 0;
    for (; n < 64; n++) {
        char dev[16];
        snprintf(dev, sizeof dev, "%d", n);
        setenv("MYTRITON_DEVICE", dev, 1);
        MtCuda *cu;
        if (mt_cuda_open(&cu, err, sizeof err) != MT_OK)
            break;
        const MtCudaDeviceInfo *d = mt_cuda_device_info(cu);
        printf("%s{\"ordinal\": %d, \"name\": \"", n ? ", " : "", d->ordinal);
        for (const char *p = d->name; *p; p++)
            if (*p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
                putchar(*p);
        printf("\", \"cc\": \"%d.%d\", \"sm_count\": %d, \"memory_bytes\": %zu, \"smem_per_sm\": %d, "
               "\"regs_per_block\": %d, \"regs_per_sm\": %d, \"threads_per_sm\": %d, \"blocks_per_sm\": %d, "
               "\"smem_reserved_per_block\": %d, \"warp_size\": %d, \"l2_bytes\": %d, \"driver\": %d}",
               d->cc_major, d->cc_minor, d->sm_count, d->total_mem, d->smem_per_sm, d->regs_per_block, d->regs_per_sm,
               d->threads_per_sm, d->blocks_per_sm, d->smem_reserved_per_block, d->warp_size, d->l2_bytes,
               d->driver_version);
        mt_cuda_close(cu);
    }
    printf("]");
    if (!n) {
        printf(", \"error\": \"");
        for (const char *p = err; *p; p++)
            if (*p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
                putchar(*p);
        printf("\"");
    }
    printf("}\n");
    return EXIT_OK;
}

#ifdef MT_HAVE_WEB
static void log_line(void *ud, const char *line)
{
    (void)ud;
    char when[32];
    time_t t = time(NULL);
    struct tm tm;
    strftime(when, sizeof when, "%H:%M:%S", localtime_r(&t, &tm));
    fprintf(stderr, "[%s] %s\n", when, line);
}

static void open_browser(const char *url)
{
    extern char **environ;
    char *argv[] = {"xdg-open", (char *)url, NULL};
    pid_t pid;
    if (posix_spawnp(&pid, "xdg-open", NULL, NULL, argv, environ)) {
        cli_warn("--open: no xdg-open here; open %s yourself", url);
        return;
    }
    int status;
    waitpid(pid, &status, 0);
}

static bool parse_seconds(const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    if (*s && !*end && !errno && *out > 0 && *out <= 86400)
        return true;
    cli_error("%s expects seconds from 0 to 86400, got '%s'", opt, s);
    return false;
}
#endif

int cmd_serve(int argc, char **argv)
{
    enum { OPT_HOST = 256, OPT_PORT, OPT_TOKEN, OPT_ALLOW, OPT_OPEN, OPT_DATA, OPT_WORKERS, OPT_RUN_TIMEOUT,
           OPT_COMPILE_TIMEOUT, OPT_SASS, OPT_WORKER, OPT_QUIET, OPT_PROBE };
    static const struct option opts[] = {
        {"host", required_argument, 0, OPT_HOST},
        {"port", required_argument, 0, OPT_PORT},
        {"token", required_argument, 0, OPT_TOKEN},
        {"allow-host", required_argument, 0, OPT_ALLOW},
        {"open", no_argument, 0, OPT_OPEN},
        {"data", required_argument, 0, OPT_DATA},
        {"workers", required_argument, 0, OPT_WORKERS},
        {"run-timeout", required_argument, 0, OPT_RUN_TIMEOUT},
        {"compile-timeout", required_argument, 0, OPT_COMPILE_TIMEOUT},
        {"sass-tool", required_argument, 0, OPT_SASS},
        {"worker", required_argument, 0, OPT_WORKER},
        {"quiet", no_argument, 0, OPT_QUIET},
        {"probe-devices", no_argument, 0, OPT_PROBE},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
#ifdef MT_HAVE_WEB
    MtWebOptions o = {.port = 8765};
    const char **allow = calloc((size_t)argc + 1, sizeof *allow);
    bool open = false, quiet = false;
    if (!allow) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
#endif
    int ch, status = EXIT_OK;
    optind = 1;
    while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (ch == OPT_PROBE)
            return probe_devices();
        if (ch == 'h') {
            fputs(help, stdout);
            return EXIT_OK;
        }
#ifdef MT_HAVE_WEB
        char *end;
        long n;
        switch (ch) {
        case OPT_HOST: o.host = optarg; break;
        case OPT_PORT:
            n = strtol(optarg, &end, 10);
            if (!*optarg || *end || n < 0 || n > 65535) {
                cli_error("--port expects 0 to 65535, got '%s'", optarg);
                status = EXIT_TROUBLE;
            }
            o.port = (int)n;
            break;
        case OPT_TOKEN: o.token = optarg; break;
        case OPT_ALLOW: allow[o.nallow_hosts++] = optarg; break;
        case OPT_OPEN: open = true; break;
        case OPT_DATA: o.data_dir = optarg; break;
        case OPT_WORKERS:
            n = strtol(optarg, &end, 10);
            if (!*optarg || *end || n < 1 || n > 256) {
                cli_error("--workers expects 1 to 256, got '%s'", optarg);
                status = EXIT_TROUBLE;
            }
            o.interp_workers = (int)n;
            break;
        case OPT_RUN_TIMEOUT:
            if (!parse_seconds("--run-timeout", optarg, &o.run_timeout_s))
                status = EXIT_TROUBLE;
            break;
        case OPT_COMPILE_TIMEOUT:
            if (!parse_seconds("--compile-timeout", optarg, &o.compile_timeout_s))
                status = EXIT_TROUBLE;
            break;
        case OPT_SASS: o.sass_tool = optarg; break;
        case OPT_WORKER: o.worker_exe = optarg; break;
        case OPT_QUIET: quiet = true; break;
        default:
            free(allow);
            return cli_option_error(ch, argv, help);
        }
#else
        status = EXIT_TROUBLE;
#endif
    }
#ifndef MT_HAVE_WEB
    (void)status;
    cli_error("this build has no dashboard (libmicrohttpd was not found when it was built)");
    return EXIT_TROUBLE;
#else
    if (status != EXIT_OK) {
        fputs(help, stderr);
        free(allow);
        return status;
    }
    o.roots = (const char *const *)(argv + optind);
    o.nroots = (size_t)(argc - optind);
    o.allow_hosts = allow;
    if (!quiet)
        o.log = log_line;
    o.generate_token = true;
    o.runtime_file = true;
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    char err[1024];
    MtWebServer *s = mt_web_start(&o, err, sizeof err);
    if (!s) {
        cli_error("%s", err);
        free(allow);
        return EXIT_TROUBLE;
    }
    printf("mytriton dashboard: %s\n", mt_web_url(s));
    printf("  data in %s; Ctrl-C stops\n", mt_web_data_dir(s));
    fflush(stdout);
    if (open)
        open_browser(mt_web_url(s));
    int sig;
    sigwait(&stop, &sig);
    cli_error("stopping (%s)", sig == SIGINT ? "Ctrl-C" : "SIGTERM");
    mt_web_stop(s);
    free(allow);
    return EXIT_OK;
#endif
}
