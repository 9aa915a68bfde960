/* stages.c: the stage views of a compiled kernel for the page, each line
 * linked to the source.
 *
 * For the compiler's own stages the link is mt_compiled_line_origin (a fact
 * the printers recorded, including the helper calls a line was inlined
 * through). PTX and SASS come from NVRTC's cubin and a disassembler; their
 * lines are linked through the line tables those formats carry for the
 * generated CUDA (`.loc FILE LINE COL` directives in PTX, `//## File ...,
 * line N` comments in nvdisasm's --print-line-info output), and from the
 * CUDA line on to the source as above. The PTX part also carries what the
 * cubin says of the kernel's resources and the occupancy they give on the
 * target architecture, which needs no GPU. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api.h"
#include "cubin_info.h"
#include "cuda_build.h"
#include "diff.h"
#include "occupancy.h"
#include "tool.h"
#include "stages.h"

static cJSON *origin_json(const MtLineOrigin *o, const char *src, size_t len)
{
    cJSON *e = cJSON_CreateObject();
    const MtSpan *sp = &o->span;
    cJSON_AddItemToObject(e, "span",
                          mt_web_span_json(src, len, sp->off, sp->end, sp->line, sp->col, sp->end_line, sp->end_col));
    if (o->ncalls) {
        cJSON *calls = cJSON_AddArrayToObject(e, "calls");
        for (uint32_t i = 0; i < o->ncalls; i++) {
            const MtSpan *c = &o->calls[i];
            cJSON_AddItemToArray(calls,
                                 mt_web_span_json(src, len, c->off, c->end, c->line, c->col, c->end_line, c->end_col));
        }
    }
    return e;
}

static uint32_t count_lines(const char *text)
{
    uint32_t n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n + (*text && text[strlen(text) - 1] != '\n');
}

cJSON *mt_web_stage_lines(MtCtx *c, MtCompiled *k, MtStage stage, const char *src, size_t len)
{
    const char *text = mt_compiled_text(c, k, stage);
    if (!text)
        return NULL;
    cJSON *a = cJSON_CreateArray();
    uint32_t n = count_lines(text);
    for (uint32_t line = 1; line <= n; line++) {
        MtLineOrigin o;
        cJSON_AddItemToArray(a, mt_compiled_line_origin(c, k, stage, line, &o) ? origin_json(&o, src, len)
                                                                              : cJSON_CreateNull());
    }
    return a;
}

cJSON *mt_web_passes_json(MtCtx *c, MtCompiled *k, const char *src, size_t len)
{
    cJSON *a = cJSON_CreateArray();
    const char *prev = mt_compiled_text(c, k, MT_STAGE_SSA_RAW);
    for (size_t i = 0; i < mt_compiled_dump_count(k); i++) {
        const char *pass;
        const char *text = mt_compiled_dump(k, i, &pass);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "pass", pass);
        cJSON_AddStringToObject(o, "text", text);
        cJSON *lines = cJSON_AddArrayToObject(o, "lines");
        uint32_t n = count_lines(text);
        for (uint32_t line = 1; line <= n; line++) {
            MtLineOrigin lo;
            cJSON_AddItemToArray(lines, mt_compiled_dump_line_origin(c, k, i, line, &lo) ? origin_json(&lo, src, len)
                                                                                        : cJSON_CreateNull());
        }
        cJSON_AddItemToObject(o, "diff", mt_web_diff_lines(prev ? prev : "", text));
        bool changed = !prev || strcmp(prev, text);
        cJSON_AddBoolToObject(o, "changed", changed);
        cJSON_AddItemToArray(a, o);
        prev = text;
    }
    return a;
}

/* Lines of a text attributed to generated-CUDA lines by a line table:
 * cuda_of[i] is the CUDA line of line i+1 (0: none). */
static cJSON *lines_via_cuda(MtCtx *c, MtCompiled *k, const uint32_t *cuda_of, uint32_t n, const char *src,
                             size_t len)
{
    cJSON *a = cJSON_CreateArray();
    for (uint32_t i = 0; i < n; i++) {
        MtLineOrigin o;
        cJSON *e = cuda_of[i] && mt_compiled_line_origin(c, k, MT_STAGE_CUDA, cuda_of[i], &o)
                       ? origin_json(&o, src, len)
                       : NULL;
        if (e)
            cJSON_AddNumberToObject(e, "cuda_line", cuda_of[i]);
        else if (cuda_of[i]) {
            e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "cuda_line", cuda_of[i]);
        }
        cJSON_AddItemToArray(a, e ? e : cJSON_CreateNull());
    }
    return a;
}

/* PTX: `.loc FILE LINE COL` sets the CUDA line of the instructions after
 * it, until the next .loc or the end of the function. */
static uint32_t *ptx_line_table(const char *ptx, uint32_t *n)
{
    *n = count_lines(ptx);
    uint32_t *t = calloc(*n + 1, sizeof *t);
    if (!t)
        return NULL;
    uint32_t cur = 0, i = 0;
    for (const char *p = ptx; *p && i < *n; i++) {
        const char *q = p;
        while (*q == ' ' || *q == '\t')
            q++;
        unsigned file, line;
        if (!strncmp(q, ".loc", 4) && sscanf(q + 4, "%u %u", &file, &line) == 2)
            cur = line;
        else if (*q == '}')
            cur = 0;
        else if (*q && *q != '\n' && *q != '/' && *q != '.' && *q != '$')
            t[i] = cur;
        const char *nl = strchr(p, '\n');
        p = nl ? nl + 1 : p + strlen(p);
    }
    return t;
}

/* nvdisasm -g: a `//## File "...", line N` comment sets the CUDA line of
 * the instructions below it. */
static uint32_t *sass_line_table(const char *sass, uint32_t *n)
{
    *n = count_lines(sass);
    uint32_t *t = calloc(*n + 1, sizeof *t);
    if (!t)
        return NULL;
    uint32_t cur = 0, i = 0;
    for (const char *p = sass; *p && i < *n; i++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        const char *mark = strstr(p, "//## File");
        const char *line = mark && mark < p + len ? strstr(mark, ", line ") : NULL;
        if (line && line < p + len)
            cur = (uint32_t)strtoul(line + 7, NULL, 10);
        else if (memchr(p, ';', len) && strstr(p, "/*") && strstr(p, "/*") < p + len)
            t[i] = cur;
        p = nl ? nl + 1 : p + len;
    }
    return t;
}

static void add_text_with_lines(cJSON *o, MtCtx *c, MtCompiled *k, const char *text, uint32_t *(*table)(const char *, uint32_t *),
                                const char *src, size_t len)
{
    cJSON_AddStringToObject(o, "text", text);
    uint32_t n;
    uint32_t *t = table(text, &n);
    if (t)
        cJSON_AddItemToObject(o, "lines", lines_via_cuda(c, k, t, n, src, len));
    free(t);
}

char *mt_web_find_sass_tool(const char *configured)
{
    const char *env = getenv("MYTRITON_NVDISASM");
    if (configured && *configured)
        return access(configured, X_OK) ? NULL : strdup(configured);
    if (env && *env && !access(env, X_OK))
        return strdup(env);
    static const char *const names[] = {"nvdisasm", "cuobjdump"};
    const char *path = getenv("PATH");
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        for (const char *p = path; p && *p;) {
            size_t n = strcspn(p, ":");
            char cand[4096];
            snprintf(cand, sizeof cand, "%.*s/%s", (int)n, p, names[i]);
            if (n && !access(cand, X_OK))
                return strdup(cand);
            p += n + (p[n] == ':');
        }
        char cuda[256];
        snprintf(cuda, sizeof cuda, "/usr/local/cuda/bin/%s", names[i]);
        if (!access(cuda, X_OK))
            return strdup(cuda);
    }
    return NULL;
}

static const char sass_help[] =
    "SASS needs a disassembler, and none was found: install the CUDA toolkit's nvdisasm (or cuobjdump) -- "
    "Triton's pip package carries both in triton/backends/nvidia/bin -- and put it on PATH, set "
    "MYTRITON_NVDISASM=/path/to/nvdisasm, or start the dashboard with --sass-tool /path/to/nvdisasm.";

static cJSON *sass_json(const MtWebServer *s, MtCtx *c, MtCompiled *k, const MtNvrtcOutput *out, const char *src,
                        size_t len)
{
    cJSON *o = cJSON_CreateObject();
    if (!s->sass_tool) {
        cJSON_AddStringToObject(o, "unavailable", sass_help);
        return o;
    }
    char path[PATH_MAX], err[512];
    snprintf(path, sizeof path, "%s/tmp", s->data_dir);
    if (!mt_web_mkdirs(path, err, sizeof err)) {
        cJSON_AddStringToObject(o, "error", err);
        return o;
    }
    snprintf(path, sizeof path, "%s/tmp/sass-XXXXXX", s->data_dir);
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, out->cubin, out->cubin_len) != (ssize_t)out->cubin_len) {
        cJSON_AddStringToObject(o, "error", "cannot write the cubin for the disassembler");
        if (fd >= 0) {
            close(fd);
            unlink(path);
        }
        return o;
    }
    close(fd);
    const char *base = strrchr(s->sass_tool, '/');
    base = base ? base + 1 : s->sass_tool;
    bool nvdisasm = !strncmp(base, "nvdisasm", 8);
    char *argv_nv[] = {s->sass_tool, "--print-code", "--print-line-info", path, NULL};
    char *argv_cuobj[] = {s->sass_tool, "-sass", path, NULL};
    WebToolResult r;
    mt_web_run_tool(nvdisasm ? argv_nv : argv_cuobj, 30.0, 16 << 20, &r);
    unlink(path);
    cJSON_AddStringToObject(o, "tool", s->sass_tool);
    if (!r.ok) {
        cJSON_AddStringToObject(o, "error", r.error[0] ? r.error : "the disassembler failed");
        if (r.out)
            cJSON_AddStringToObject(o, "output", r.out);
    } else if (nvdisasm) {
        add_text_with_lines(o, c, k, r.out, sass_line_table, src, len);
    } else {
        cJSON_AddStringToObject(o, "text", r.out);
        cJSON_AddStringToObject(o, "note", "cuobjdump prints no line table: use nvdisasm to link SASS lines to the source");
    }
    free(r.out);
    return o;
}

/* What the cubin says of the kernel's registers, shared memory and stack
 * (cubin_info.c: `ptxas -v`'s figures, read as data), and the occupancy
 * they give on the architecture it was compiled for, calculated with that
 * architecture's limits: the figures of a compile, with no GPU to ask. A
 * GPU run has the driver's own (GET /api/runs/ID). */
static void add_resources(cJSON *ptx, MtCompiled *k, const MtNvrtcOutput *out, int sm)
{
    MtCubinResources r;
    MtLaunchShape shape;
    if (!mt_cubin_resources(out->cubin, out->cubin_len, mt_compiled_kernel_name(k), &r) ||
        !mt_compiled_launch_shape(k, &shape))
        return;
    cJSON *o = cJSON_AddObjectToObject(ptx, "resources");
    cJSON_AddStringToObject(o, "source", "cubin");
    cJSON_AddNumberToObject(o, "registers", r.registers);
    cJSON_AddNumberToObject(o, "shared_bytes", r.shared_bytes);
    cJSON_AddNumberToObject(o, "local_bytes", r.local_bytes);
    cJSON_AddNumberToObject(o, "max_threads_per_block", r.max_threads_per_block);
    cJSON_AddNumberToObject(o, "threads", shape.threads);
    WebSmLimits l;
    WebOccupancy occ;
    if (!mt_web_sm_limits_for_arch(sm, &l))
        return;
    if (mt_web_occupancy(&l, (int)shape.threads, r.registers, r.shared_bytes + (int)shape.dynamic_shared_bytes, &occ)) {
        cJSON *j = mt_web_occupancy_json(&occ, "calculated");
        char arch[32];
        snprintf(arch, sizeof arch, "sm_%d", sm);
        cJSON_AddStringToObject(j, "limits", arch);
        cJSON_AddItemToObject(ptx, "occupancy", j);
    }
}

cJSON *mt_web_nvrtc_stages(const MtWebServer *s, MtCtx *c, MtCompiled *k, int sm, bool sass, const char *src,
                           size_t len, cJSON **sass_out)
{
    MtNvrtcOutput out;
    MtKcacheHit hit = MT_KCACHE_MISS;
    double t0 = mt_web_now();
    MtStatus st = mt_cuda_build(c, k, s->kcache, sm, &out, &hit);
    cJSON *ptx = cJSON_CreateObject();
    *sass_out = NULL;
    cJSON_AddNumberToObject(ptx, "ms", (mt_web_now() - t0) * 1e3);
    cJSON_AddStringToObject(ptx, "cache", hit == MT_KCACHE_MISS ? "miss" : hit == MT_KCACHE_MEMORY ? "memory" : "disk");
    cJSON_AddNumberToObject(ptx, "sm", sm);
    if (st != MT_OK) {
        cJSON_AddStringToObject(ptx, "error", "NVRTC did not compile the generated CUDA: see the diagnostics");
        return ptx;
    }
    add_text_with_lines(ptx, c, k, out.ptx, ptx_line_table, src, len);
    cJSON_AddNumberToObject(ptx, "cubin_bytes", (double)out.cubin_len);
    add_resources(ptx, k, &out, sm);
    if (sass)
        *sass_out = sass_json(s, c, k, &out, src, len);
    mt_nvrtc_output_free(&out);
    return ptx;
}

static cJSON *message_part(const char *key, const char *text)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, key, text);
    return o;
}

void mt_web_mlir_stages(MtWebServer *s, MtCtx *c, MtCompiled *k, const WebKernelReq *q, bool llvm, cJSON *doc)
{
    static const MtStage stages[] = {MT_STAGE_MLIR, MT_STAGE_MLIR_LLVM};
    size_t nstages = llvm ? 2 : 1;
    MtCtx *m2c = mt_ctx_new(NULL);
    const char *why = "out of memory";
    if (!m2c || !mt_mlir_available(m2c, &why)) {
        char text[1024];
        snprintf(text, sizeof text,
                 "The MLIR stages need the MLIR backend, which is not available here: %s. docs/mlir-backend.md "
                 "says how to build it (MLIR's development package, then reconfigure).",
                 why);
        for (size_t i = 0; i < nstages; i++)
            cJSON_AddItemToObject(doc, mt_stage_name(stages[i]), message_part("unavailable", text));
        mt_ctx_free(m2c);
        return;
    }
    MtModule *m = NULL;
    MtCompiled *mk = NULL;
    MtSpec spec = {.kernel = mt_compiled_kernel_name(k),
                   .signature = mt_compiled_signature(c, k),
                   .last_stage = stages[nstages - 1],
                   .sm = q->sm,
                   .lowering = q->lowering,
                   .num_warps = q->num_warps,
                   .num_stages = q->num_stages,
                   .codegen = MT_CODEGEN_MLIR};
    MtStatus st = mt_parse(m2c, q->path, q->source, q->len, &m);
    if (st == MT_OK) {
        mt_web_compile_begin(s, m2c);
        st = mt_compile(m2c, m, &spec, &mk);
        mt_web_compile_end(s, m2c);
    }
    const char *version = mt_mlir_version(m2c);
    for (size_t i = 0; i < nstages; i++) {
        const char *text = st == MT_OK ? mt_compiled_text(m2c, mk, stages[i]) : NULL;
        cJSON *part;
        if (text) {
            part = cJSON_CreateObject();
            cJSON_AddStringToObject(part, "text", text);
            cJSON_AddItemToObject(part, "lines", mt_web_stage_lines(m2c, mk, stages[i], q->source, q->len));
            cJSON_AddStringToObject(part, "version", version ? version : "MLIR");
        } else if (st == MT_CANCELLED) {
            part = message_part("error", "the MLIR compile took too long and was stopped");
        } else if (mt_error_count(m2c) && !strcmp(mt_diag_at(m2c, 0)->code, "E1001")) {
            /* the backend's module cannot serve this build */
            char why_text[2048];
            snprintf(why_text, sizeof why_text, "%s\nThe MLIR stages need a working MLIR backend: docs/mlir-backend.md says how "
                     "to build it.", mt_diag_render(m2c, mt_diag_at(m2c, 0), false));
            part = message_part("unavailable", why_text);
        } else {
            part = message_part("error", mt_error_count(m2c) ? mt_diag_render(m2c, mt_diag_at(m2c, 0), false)
                                                             : "the MLIR code generator made no text");
        }
        cJSON_AddItemToObject(doc, mt_stage_name(stages[i]), part);
    }
    mt_ctx_free(m2c);
}
