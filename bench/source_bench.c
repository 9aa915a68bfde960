/* source_bench.c: how parsing scales with the size of a source file, in
 * time and in memory per source byte.
 *
 * Three shapes of file, each at several sizes up to the CLI's source
 * limit (8 MiB, runtime/fileio.h):
 *   lexer    the lexer's stress text (strings, f-strings, numbers of every
 *            kind, brackets, comments) repeated, with no jit function:
 *            what the 10,000-line lexer test used to time
 *   host     plain host code (one statement a line), no jit function
 *   kernels  many small @triton.jit kernels; one of them is compiled
 * For each: the best of three mt_parse runs (milliseconds and MB/s), and
 * the most memory the compiler held at once (a counting MtAlloc: every
 * byte of its arena, tokens and trees included), per source byte. The
 * `mytriton` command adds one copy of the file (it reads it into a buffer
 * of exactly its size and frees it after parsing). Prints figures; never
 * fails on them.
 *
 *   source_bench [MAX_MIB]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mytriton/mytriton.h"

typedef struct Counter {
    size_t now, peak;
} Counter;

static void *counting_realloc(void *ud, void *ptr, size_t old, size_t size)
{
    Counter *c = ud;
    c->now += size;
    c->now -= ptr ? old : 0;
    if (c->now > c->peak)
        c->peak = c->now;
    if (!size) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, size);
}

static const char lexer_unit[] =
    "    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)  # where\n"
    "    mask = (offsets < n) & (offsets >= 0)\n"
    "    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)\n"
    "    s = f\"{x!r:>10}\" + 'text' + \"\"\"doc\"\"\"\n"
    "    if x:\n"
    "        y = [1_000, 0x1F, 1e-3, 2.5j]\n"
    "\n"
    "def k(a, b):\n"
    "    return a ** b // 3\n"
    "    pass\n";

static const char host_unit[] = "result = compute_something(alpha, beta, gamma) + [1, 2, 3]  # host code\n";

/* The i-th repetition of each shape. */
static int lexer_text(char *buf, size_t n, size_t i)
{
    (void)i;
    return snprintf(buf, n, "%s", lexer_unit);
}

static int host_text(char *buf, size_t n, size_t i)
{
    (void)i;
    return snprintf(buf, n, "%s", host_unit);
}

static int kernel_text(char *buf, size_t n, size_t i)
{
    return snprintf(buf, n,
                    "@triton.jit\n"
                    "def add_kernel_%06zu(x, y, out, n, BLOCK: tl.constexpr = 256):\n"
                    "    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                    "    mask = offsets < n\n"
                    "    tl.store(out + offsets, tl.load(x + offsets, mask=mask) + tl.load(y + offsets, mask=mask), "
                    "mask=mask)\n"
                    "\n",
                    i);
}

typedef int (*Unit)(char *buf, size_t n, size_t i);

/* About `bytes` of text: the imports, then `unit` repeated. */
static char *make_source(Unit unit, size_t bytes, size_t *len)
{
    size_t cap = bytes + 4096, n = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    n += (size_t)snprintf(s, cap, "import triton\nimport triton.language as tl\n\n");
    for (size_t i = 0; n < bytes; i++) {
        int w = unit(s + n, cap - n, i);
        if (w < 0 || (size_t)w >= cap - n)
            break;
        n += (size_t)w;
    }
    *len = n;
    return s;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void measure(const char *shape, Unit unit, size_t bytes, bool compile)
{
    size_t len;
    char *src = make_source(unit, bytes, &len);
    if (!src)
        return;
    double best = 1e30;
    size_t peak = 0;
    int ok = 1;
    for (int run = 0; run < 3; run++) {
        Counter cnt = {0, 0};
        MtAlloc a = {counting_realloc, &cnt};
        MtCtx *c = mt_ctx_new(&a);
        MtModule *m = NULL;
        double t0 = now_ms();
        MtStatus st = mt_parse(c, "bench.py", src, len, &m);
        double ms = now_ms() - t0;
        if (st != MT_OK)
            ok = 0;
        if (compile && m) {
            MtSpec spec = {.kernel = "add_kernel_000000", .infer_params = true};
            MtCompiled *k;
            if (mt_compile(c, m, &spec, &k) != MT_OK)
                ok = 0;
        }
        if (ms < best)
            best = ms;
        if (cnt.peak > peak)
            peak = cnt.peak;
        mt_ctx_free(c);
    }
    printf("%-8s %10.2f %10.1f %10.1f %12.1f %8.1f%s\n", shape, (double)len / (1 << 20), best,
           (double)len / (1 << 20) / (best / 1e3), (double)peak / (1 << 20), (double)peak / (double)len,
           ok ? "" : "  (errors)");
    free(src);
}

int main(int argc, char **argv)
{
    double max_mib = argc > 1 ? atof(argv[1]) : 8;
    printf("mt_parse by file size: best of 3 runs; memory = the most the compiler held, per source byte\n");
    printf("%-8s %10s %10s %10s %12s %8s\n", "shape", "MiB", "parse ms", "MB/s", "memory MiB", "B/byte");
    /* 10,000 lines of the lexer text first: the lexer test's old case. */
    measure("lexer", lexer_text, (sizeof lexer_unit - 1) * 1000, false);
    static const double sizes[] = {0.5, 2, 8};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && sizes[i] <= max_mib; i++) {
        size_t bytes = (size_t)(sizes[i] * (1 << 20));
        measure("lexer", lexer_text, bytes, false);
        measure("host", host_text, bytes, false);
        measure("kernels", kernel_text, bytes, true);
    }
    return 0;
}
