/* nvrtc_compile.c: one NVRTC compile per call, producing PTX and a cubin together.
 *
 * The flow is create program -> compile with the default options plus the
 * caller's -> copy out log, PTX and cubin -> destroy. Every exit path
 * destroys the program, and every failure names the NVRTC call, its result
 * name and the program, because the caller (CLI, dashboard, LSP) shows the
 * message as it is. The log is always copied out, also on success, since
 * NVRTC warnings are worth showing next to the kernel.
 *
 * Nothing here is global except the constant default options.
 */
#include "nvrtc_compile.h"
#include "errbuf.h"

#include <nvrtc.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mt_nvrtc_default_opts[] = {"-default-device", "--std=c++17", "-lineinfo"};
const size_t mt_nvrtc_ndefault_opts = sizeof mt_nvrtc_default_opts / sizeof mt_nvrtc_default_opts[0];

/* Options that choose the target. Refused in extra_opts: the architecture
 * is the `sm` argument, so that the cache key and MtNvrtcOutput.sm agree
 * with what was built. */
static bool is_arch_option(const char *o)
{
    static const char *const names[] = {"--gpu-architecture", "-arch", "--gpu-name"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i]);
        if (strncmp(o, names[i], n) == 0 && (o[n] == '\0' || o[n] == '=' || o[n] == ' '))
            return true;
    }
    return false;
}

void mt_nvrtc_output_free(MtNvrtcOutput *out)
{
    if (!out)
        return;
    free(out->ptx);
    free(out->cubin);
    free(out->log);
    memset(out, 0, sizeof *out);
}

MtStatus mt_nvrtc_version(int *major, int *minor)
{
    int ma = 0, mi = 0;
    if (nvrtcVersion(&ma, &mi) != NVRTC_SUCCESS)
        return MT_ERR_CUDA;
    if (major)
        *major = ma;
    if (minor)
        *minor = mi;
    return MT_OK;
}

/* Copy the program's log into out->log (always allocated, "" when empty). */
static MtStatus copy_log(nvrtcProgram prog, const char *name, MtNvrtcOutput *out, char *err,
                         size_t errlen)
{
    size_t n = 0;
    nvrtcResult r = nvrtcGetProgramLogSize(prog, &n);
    if (r != NVRTC_SUCCESS) {
        mt_errf(err, errlen, "nvrtcGetProgramLogSize(%s): %s", name, nvrtcGetErrorString(r));
        return MT_ERR_CUDA;
    }
    /* n counts the terminating NUL; an empty log is reported as 1. */
    out->log = malloc(n ? n : 1);
    if (!out->log) {
        mt_errf(err, errlen, "nvrtc(%s): out of memory for a %zu-byte log", name, n);
        return MT_ERR_NOMEM;
    }
    out->log[0] = '\0';
    if (n > 1) {
        r = nvrtcGetProgramLog(prog, out->log);
        if (r != NVRTC_SUCCESS) {
            mt_errf(err, errlen, "nvrtcGetProgramLog(%s): %s", name, nvrtcGetErrorString(r));
            return MT_ERR_CUDA;
        }
    }
    out->log_len = strlen(out->log);
    return MT_OK;
}

static MtStatus copy_ptx(nvrtcProgram prog, const char *name, int sm, MtNvrtcOutput *out,
                         char *err, size_t errlen)
{
    size_t n = 0;
    nvrtcResult r = nvrtcGetPTXSize(prog, &n);
    if (r != NVRTC_SUCCESS) {
        mt_errf(err, errlen, "nvrtcGetPTXSize(%s): %s", name, nvrtcGetErrorString(r));
        return MT_ERR_CUDA;
    }
    if (n <= 1) {
        mt_errf(err, errlen, "nvrtcGetPTX(%s): NVRTC returned no PTX for sm_%d", name, sm);
        return MT_ERR_CUDA;
    }
    out->ptx = malloc(n);
    if (!out->ptx) {
        mt_errf(err, errlen, "nvrtcGetPTX(%s): out of memory for %zu bytes", name, n);
        return MT_ERR_NOMEM;
    }
    r = nvrtcGetPTX(prog, out->ptx);
    if (r != NVRTC_SUCCESS) {
        mt_errf(err, errlen, "nvrtcGetPTX(%s): %s", name, nvrtcGetErrorString(r));
        return MT_ERR_CUDA;
    }
    out->ptx[n - 1] = '\0';
    out->ptx_len = strlen(out->ptx);
    return MT_OK;
}

static MtStatus copy_cubin(nvrtcProgram prog, const char *name, int sm, MtNvrtcOutput *out,
                           char *err, size_t errlen)
{
    size_t n = 0;
    nvrtcResult r = nvrtcGetCUBINSize(prog, &n);
    if (r != NVRTC_SUCCESS) {
        mt_errf(err, errlen, "nvrtcGetCUBINSize(%s): %s", name, nvrtcGetErrorString(r));
        return MT_ERR_CUDA;
    }
    if (n == 0) {
        mt_errf(err, errlen, "nvrtcGetCUBIN(%s): NVRTC returned no cubin for sm_%d", name, sm);
        return MT_ERR_CUDA;
    }
    out->cubin = malloc(n);
    if (!out->cubin) {
        mt_errf(err, errlen, "nvrtcGetCUBIN(%s): out of memory for %zu bytes", name, n);
        return MT_ERR_NOMEM;
    }
    r = nvrtcGetCUBIN(prog, out->cubin);
    if (r != NVRTC_SUCCESS) {
        mt_errf(err, errlen, "nvrtcGetCUBIN(%s): %s", name, nvrtcGetErrorString(r));
        return MT_ERR_CUDA;
    }
    out->cubin_len = n;
    return MT_OK;
}

MtStatus mt_nvrtc_compile(const char *src, const char *program_name, int sm,
                          const char *const *extra_opts, size_t nopts,
                          MtNvrtcOutput *out, char *err, size_t errlen)
{
    const char *name = program_name && *program_name ? program_name : "kernel.cu";
    if (!out) {
        mt_errf(err, errlen, "mt_nvrtc_compile(%s): no output structure", name);
        return MT_ERR_USAGE;
    }
    memset(out, 0, sizeof *out);
    if (!src) {
        mt_errf(err, errlen, "mt_nvrtc_compile(%s): no source", name);
        return MT_ERR_USAGE;
    }
    if (nopts && !extra_opts) {
        mt_errf(err, errlen, "mt_nvrtc_compile(%s): %zu options but no option array", name, nopts);
        return MT_ERR_USAGE;
    }
    for (size_t i = 0; i < nopts; i++) {
        if (!extra_opts[i]) {
            mt_errf(err, errlen, "mt_nvrtc_compile(%s): option %zu is NULL", name, i);
            return MT_ERR_USAGE;
        }
        if (is_arch_option(extra_opts[i])) {
            mt_errf(err, errlen,
                    "mt_nvrtc_compile(%s): option '%s' sets the architecture; pass it as sm instead",
                    name, extra_opts[i]);
            return MT_ERR_USAGE;
        }
    }

    size_t nall = mt_nvrtc_ndefault_opts + 1 + nopts;
    const char **opts = malloc(nall * sizeof *opts);
    if (!opts) {
        mt_errf(err, errlen, "mt_nvrtc_compile(%s): out of memory", name);
        return MT_ERR_NOMEM;
    }
    /* sm 90 builds for sm_90a, the architecture-specific target: the fast
     * lowering's warpgroup tensor-core instructions (wgmma) exist only
     * there, and the code is for the one device it was asked for anyway */
    char arch[48];
    snprintf(arch, sizeof arch, "--gpu-architecture=sm_%d%s", sm, sm == 90 ? "a" : "");
    size_t k = 0;
    opts[k++] = arch;
    for (size_t i = 0; i < mt_nvrtc_ndefault_opts; i++)
        opts[k++] = mt_nvrtc_default_opts[i];
    for (size_t i = 0; i < nopts; i++)
        opts[k++] = extra_opts[i];

    nvrtcProgram prog;
    nvrtcResult r = nvrtcCreateProgram(&prog, src, name, 0, NULL, NULL);
    if (r != NVRTC_SUCCESS) {
        free(opts);
        mt_errf(err, errlen, "nvrtcCreateProgram(%s): %s", name, nvrtcGetErrorString(r));
        return r == NVRTC_ERROR_OUT_OF_MEMORY ? MT_ERR_NOMEM : MT_ERR_CUDA;
    }
    nvrtcResult cr = nvrtcCompileProgram(prog, (int)nall, opts);
    free(opts);

    MtStatus st = copy_log(prog, name, out, err, errlen);
    if (st == MT_OK && cr != NVRTC_SUCCESS) {
        /* The log is the message: the caller maps its first
         * "name(line): error:" back to the kernel source. */
        mt_errf(err, errlen, "nvrtcCompileProgram(%s): %s\n%s", name, nvrtcGetErrorString(cr),
                out->log);
        /* An invalid option is the caller's mistake, not the source's. */
        st = cr == NVRTC_ERROR_COMPILATION ? MT_ERR_SOURCE
           : cr == NVRTC_ERROR_INVALID_OPTION ? MT_ERR_USAGE
           : cr == NVRTC_ERROR_OUT_OF_MEMORY ? MT_ERR_NOMEM : MT_ERR_CUDA;
    }
    if (st == MT_OK)
        st = copy_ptx(prog, name, sm, out, err, errlen);
    if (st == MT_OK)
        st = copy_cubin(prog, name, sm, out, err, errlen);
    nvrtcDestroyProgram(&prog);

    if (st != MT_OK) {
        /* Keep only the log, for display; PTX or cubin of a failed call
         * must not be mistaken for a result. */
        char *log = out->log;
        size_t log_len = out->log_len;
        out->log = NULL;
        mt_nvrtc_output_free(out);
        out->log = log;
        out->log_len = log_len;
        return st;
    }
    out->sm = sm;
    return MT_OK;
}

bool mt_nvrtc_first_error(const char *log, int *line, char *msg, size_t msglen)
{
    if (line)
        *line = 0;
    if (msg && msglen)
        msg[0] = '\0';
    if (!log)
        return false;
    for (const char *p = log; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        /* Search this line for "error: " preceded by nothing, a space
         * ("catastrophic error: ", "fatal error: ") or ": " (after the
         * location). Warnings contain "warning" instead and are skipped. */
        const char *text = NULL;
        for (const char *q = p; q < p + len && !text; q++) {
            /* "error: " cannot span lines: it holds no '\n'. */
            if ((q == p || q[-1] == ' ') && strncmp(q, "error: ", 7) == 0)
                text = q + 7;
        }
        if (text) {
            int ln = 0;
            /* "name(12): ..." : the location is the last "(digits)" before ": ". */
            const char *colon = strstr(p, "): ");
            if (colon && colon < text) {
                const char *open = colon;
                while (open > p && open[-1] >= '0' && open[-1] <= '9')
                    open--;
                if (open > p && open < colon && open[-1] == '(')
                    ln = atoi(open);
            }
            if (line)
                *line = ln;
            if (msg && msglen) {
                size_t n = (size_t)(p + len - text);
                if (n >= msglen)
                    n = msglen - 1;
                memcpy(msg, text, n);
                msg[n] = '\0';
                /* Windows-style logs end lines in "\r". */
                if (n && msg[n - 1] == '\r')
                    msg[n - 1] = '\0';
            }
            return true;
        }
        p = eol ? eol + 1 : p + len;
    }
    return false;
}
