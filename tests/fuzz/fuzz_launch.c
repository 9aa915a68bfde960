/* fuzz_launch.c: launch specs, signatures, grid expressions and .npy
 * files.
 *
 * The first byte of the input picks what the rest is:
 *   0  a launch spec (JSON), read against a sandbox folder holding a few
 *      .npy files, its signature derived for a kernel of a fixed module,
 *      compiled, bound (inputs generated or read) and, when the grid is
 *      small, run in the interpreter;
 *   1  a grid expression, checked and evaluated over a few names; an
 *      expression that evaluates must also pass the syntax check;
 *   2  the bytes of a .npy file: its header and data are read; a file
 *      that reads is written back and must read back identical;
 *   3  a signature (the second byte picks the kernel) to compile with;
 *   4  --set assignments, one per line, applied to a fixed spec before
 *      binding.
 * Generated arrays past a megabyte and grids of more than 64 programs
 * are not carried out: they would only measure the allocator and the
 * interpreter's loop. */
#define _GNU_SOURCE /* memfd_create */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "array.h"
#include "fuzz.h"
#include "grid.h"
#include "launch_spec.h"
#include "npy.h"

enum { WATCHDOG_MS = 2000, MAX_GEN_BYTES = 1 << 20, MAX_PROGRAMS = 64 };

static const char module_src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def add_kernel(x, y, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)\n"
    "\n"
    "@triton.jit\n"
    "def where_kernel(flags, ints, out, scale, n, ROWS: tl.constexpr, COLS: tl.constexpr):\n"
    "    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]\n"
    "    c = tl.program_id(1) * COLS + tl.arange(0, COLS)[None, :]\n"
    "    m = (r < n) & (c < n)\n"
    "    f = tl.load(flags + r * n + c, mask=m, other=0)\n"
    "    v = tl.load(ints + r * n + c, mask=m, other=0)\n"
    "    tl.store(out + r * n + c, tl.where(f, v * scale, 0.0), mask=m)\n"
    "\n"
    "@triton.jit\n"
    "def sum_kernel(x, out, n, BLOCK: tl.constexpr):\n"
    "    acc = tl.zeros((BLOCK,), dtype=tl.float32)\n"
    "    for start in range(0, n, BLOCK):\n"
    "        offs = start + tl.arange(0, BLOCK)\n"
    "        acc += tl.load(x + offs, mask=offs < n, other=0.0)\n"
    "    tl.store(out + tl.program_id(0), tl.sum(acc, axis=0))\n";

static const char fixed_spec[] =
    "{\"kernel\": \"add_kernel\", \"grid\": [\"cdiv(n, BLOCK)\"], \"constexprs\": {\"BLOCK\": 16},\n"
    " \"args\": {\"x\": {\"npy\": \"x.npy\"}, \"y\": {\"dtype\": \"float32\", \"shape\": [40], \"init\": \"normal\"},\n"
    "          \"out\": {\"dtype\": \"float32\", \"shape\": [40], \"init\": \"zeros\"}, \"n\": 40}}";

static char sandbox[64];

static void put_npy(const char *name, MtDtype dt, int ndim, const int64_t *shape)
{
    char path[128], err[256];
    MtArrayGen g = {.dtype = dt, .ndim = ndim, .init = MT_INIT_ARANGE};
    memcpy(g.shape, shape, sizeof *shape * (size_t)ndim);
    MtArray *a = NULL;
    snprintf(path, sizeof path, "%s/%s", sandbox, name);
    if (mt_array_generate(&g, &a, err, sizeof err) == MT_OK)
        mt_npy_write(path, a, NULL, err, sizeof err);
    mt_array_free(a);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(sandbox, sizeof sandbox, "/tmp/mt-fuzz-launch-XXXXXX");
    if (!mkdtemp(sandbox)) {
        perror("fuzz_launch: mkdtemp");
        abort();
    }
    put_npy("x.npy", MT_DT_F32, 1, (const int64_t[]){40});
    put_npy("ints.npy", MT_DT_I32, 2, (const int64_t[]){4, 4});
    put_npy("flags.npy", MT_DT_I1, 2, (const int64_t[]){4, 4});
    put_npy("empty.npy", MT_DT_F32, 1, (const int64_t[]){0});
    return 0;
}

/* A NUL-terminated copy of the input past its selector byte. */
static char *text_of(const uint8_t *data, size_t size)
{
    char *t = malloc(size + 1);
    if (t) {
        memcpy(t, data, size);
        t[size] = 0;
    }
    return t;
}

static bool small_enough(const MtLaunchSpec *s)
{
    size_t total = 0;
    for (size_t i = 0; i < s->nargs; i++) {
        const MtSpecArg *a = &s->args[i];
        int64_t numel;
        size_t nbytes;
        if (a->kind != MT_SPEC_ARG_GENERATED)
            continue;
        if (!mt_array_size(a->gen.dtype, a->gen.ndim, a->gen.shape, &numel, &nbytes) || nbytes > MAX_GEN_BYTES)
            return false;
        total += nbytes;
    }
    return total <= MAX_GEN_BYTES;
}

static void run_launch(MtCtx *c, MtCompiled *k, const MtLaunch *l)
{
    int64_t programs;
    if (__builtin_mul_overflow(l->grid[0], l->grid[1], &programs) ||
        __builtin_mul_overflow(programs, l->grid[2], &programs) || programs > MAX_PROGRAMS)
        return;
    MtKernelArg *args = calloc(l->nargs + 1, sizeof *args);
    if (!args)
        return;
    for (size_t i = 0; i < l->nargs; i++) {
        const MtLaunchArg *a = &l->args[i];
        args[i].name = a->name;
        if (a->kind == MT_ARG_ARRAY) {
            args[i].data = a->array->data;
            args[i].numel = (size_t)a->array->numel;
        } else if (a->kind == MT_ARG_F32) {
            args[i].f = a->fval;
        } else {
            args[i].i = a->ival;
        }
    }
    MtInterpOptions opt = {.threads = 1};
    mt_interpret(c, k, l->grid, args, l->nargs, &opt);
    free(args);
}

/* Signature, compile, bind and run a parsed spec against the fixed module. */
static void launch(MtLaunchSpec *s)
{
    MtSpecError e;
    MtCtx *c = mt_ctx_new(NULL);
    if (!c)
        return;
    fuzz_watch(c, WATCHDOG_MS);
    MtModule *m = NULL;
    if (mt_parse(c, "kernels.py", module_src, sizeof module_src - 1, &m) != MT_OK)
        abort(); /* the fixed module is valid */
    const MtKernelInfo *ki = mt_module_find_kernel(m, s->kernel ? s->kernel : "add_kernel");
    char *sig = NULL;
    if (ki)
        mt_launch_spec_signature(s, ki, &sig, &e);
    MtSpec spec = {.kernel = ki ? ki->name : NULL, .signature = sig && *sig ? sig : NULL};
    MtCompiled *k = NULL;
    if (sig && mt_compile(c, m, &spec, &k) == MT_OK && small_enough(s)) {
        size_t np = mt_compiled_param_count(k);
        MtKernelParam *params = calloc(np + 1, sizeof *params);
        for (size_t i = 0; params && i < np; i++)
            params[i] = *mt_compiled_param(k, i);
        MtLaunch l;
        if (params && mt_launch_bind(s, params, np, &l, &e) == MT_OK) {
            run_launch(c, k, &l);
            mt_launch_free(&l);
        }
        free(params);
    }
    free(sig);
    fuzz_unwatch();
    mt_ctx_free(c);
}

static void fuzz_spec(const char *text)
{
    MtLaunchSpec s;
    MtSpecError e;
    if (mt_launch_spec_parse(text, sandbox, &s, &e) == MT_OK)
        launch(&s);
    mt_launch_spec_free(&s);
}

static int lookup(void *ud, const char *name, int64_t *value)
{
    static const struct { const char *name; int64_t value; } names[] = {
        {"n", 1000}, {"BLOCK", 256}, {"M", 4096}, {"N", 3}, {"zero", 0},
        {"neg", -7}, {"big", INT64_MAX}, {"small", INT64_MIN},
    };
    (void)ud;
    if (!strcmp(name, "x") || !strcmp(name, "eps"))
        return MT_GRID_NOT_INT;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(name, names[i].name)) {
            *value = names[i].value;
            return MT_GRID_FOUND;
        }
    return MT_GRID_UNKNOWN;
}

static void fuzz_grid(const char *text)
{
    char err[512];
    int64_t v;
    MtStatus checked = mt_grid_check(text, err, sizeof err);
    MtStatus evaluated = mt_grid_eval(text, lookup, NULL, &v, err, sizeof err);
    if (evaluated == MT_OK && checked != MT_OK)
        abort(); /* the syntax check refused what evaluates */
}

static bool same_array(const MtArray *a, const MtArray *b)
{
    return a->dtype == b->dtype && a->ndim == b->ndim && !memcmp(a->shape, b->shape, sizeof a->shape) &&
           a->nbytes == b->nbytes && !memcmp(a->data, b->data, a->nbytes);
}

static void fuzz_npy(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz.npy", 0);
    if (fd < 0)
        return;
    char path[64], err[512];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    if (write(fd, data, size) == (ssize_t)size) {
        MtNpyInfo info;
        MtArray *a = NULL, *back = NULL;
        mt_npy_read_header(path, &info, err, sizeof err);
        if (mt_npy_read(path, &a, err, sizeof err) == MT_OK) {
            char out[128];
            snprintf(out, sizeof out, "%s/roundtrip.npy", sandbox);
            if (mt_npy_write(out, a, NULL, err, sizeof err) != MT_OK || mt_npy_read(out, &back, err, sizeof err) != MT_OK ||
                !same_array(a, back))
                abort(); /* what reads must write and read back the same */
        }
        mt_array_free(a);
        mt_array_free(back);
    }
    close(fd);
}

static void fuzz_signature(uint8_t which, const char *sig)
{
    static const char *const kernels[] = {"add_kernel", "where_kernel", "sum_kernel"};
    MtCtx *c = mt_ctx_new(NULL);
    if (!c)
        return;
    fuzz_watch(c, WATCHDOG_MS);
    MtModule *m = NULL;
    if (mt_parse(c, "kernels.py", module_src, sizeof module_src - 1, &m) != MT_OK)
        abort();
    MtSpec spec = {.kernel = kernels[which % 3], .signature = sig, .last_stage = MT_STAGE_CUDA};
    MtCompiled *k = NULL;
    if (mt_compile(c, m, &spec, &k) == MT_OK) {
        mt_compiled_signature(c, k);
        fuzz_interpret(c, k);
    }
    for (size_t i = 0; i < mt_diag_count(c); i++)
        mt_diag_render(c, mt_diag_at(c, i), false);
    fuzz_unwatch();
    mt_ctx_free(c);
}

static void fuzz_set(char *lines)
{
    MtLaunchSpec s;
    MtSpecError e;
    if (mt_launch_spec_parse(fixed_spec, sandbox, &s, &e) != MT_OK)
        abort();
    for (char *line = strtok(lines, "\n"); line; line = strtok(NULL, "\n"))
        mt_launch_spec_set(&s, line, &e);
    launch(&s);
    mt_launch_spec_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 1 << 16)
        return 0;
    uint8_t mode = data[0] % 5;
    if (mode == 2) {
        fuzz_npy(data + 1, size - 1);
        return 0;
    }
    if (mode == 3 && size < 2)
        return 0;
    char *text = mode == 3 ? text_of(data + 2, size - 2) : text_of(data + 1, size - 1);
    if (!text)
        return 0;
    switch (mode) {
    case 0: fuzz_spec(text); break;
    case 1: fuzz_grid(text); break;
    case 3: fuzz_signature(data[1], text); break;
    case 4: fuzz_set(text); break;
    }
    free(text);
    return 0;
}
