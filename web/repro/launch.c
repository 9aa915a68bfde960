/* launch.c: runs one mytriton kernel again, without mytriton: it loads the
 * kernel the dashboard compiled (kernel.cubin when the GPU is of its
 * architecture, else kernel.ptx, which the driver compiles), reads the
 * run's inputs from inputs/NAME.npy, launches the kernel with the run's
 * grid, block and arguments, writes every array to outputs/NAME.npy and
 * compares it with expected/NAME.npy (the arrays as the run left them)
 * with the run's tolerance: |got - want| <= atol + rtol * |want|, NaN
 * matching NaN, an infinity only itself.
 *
 *   cc launch.c -I/usr/local/cuda/include -lcuda -o launch
 *   ./launch [--device N] [FOLDER]       FOLDER: the archive's (default: .)
 *
 * One line says the verdict; the exit status is 0 when every array
 * matches, 1 when one differs, 2 on an error (no driver, no GPU, a file
 * that cannot be read, a CUDA call that fails: each named).
 *
 * Only the CUDA Driver API (cuda.h) and the C library are used. The part
 * between the two rules below was written by the dashboard from the run's
 * facts (the kernel's name, its parameters in order with their types, the
 * grid and the block); the rest is the same for every run. */
#include <cuda.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An element type as .npy files hold it. kind: 'b' bool, 'i' signed and
 * 'u' unsigned integers, 'f' IEEE float (half, single, double), 'B'
 * bfloat16 (numpy has none: its files hold float32, rounded to nearest
 * even on the way in, as mytriton reads them, and written back so). */
typedef struct Dtype {
    const char *name;         /* numpy's name, or "bfloat16" */
    const char *npy;          /* the descriptor of its files, without the byte-order mark: "f4", "b1" */
    size_t size;              /* bytes of one element in the kernel's memory */
    char kind;
} Dtype;

/* One runtime parameter of the kernel, in the kernel's order (NARGS of
 * them: the tl.constexpr parameters are compiled into the kernel). */
typedef struct Arg {
    const char *name;
    int dtype;                /* index into dtypes[] */
    int array;                /* 1: a pointer to an array read from inputs/NAME.npy */
    uint64_t bits;            /* a scalar: its value as the kernel takes it (little-endian, `size` bytes) */
} Arg;

/* ---- the run ------------------------------------------------------------------------- */
/*@RUN@*/
/* ---- the same for every run --------------------------------------------------------------- */

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("launch: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 2;
}

/* A failed Driver API call, named with the driver's words and what it
 * most likely means. */
static int cuda_error(CUresult r, const char *call)
{
    const char *name = NULL, *text = NULL;
    if (cuGetErrorName(r, &name) != CUDA_SUCCESS)
        name = NULL;
    if (cuGetErrorString(r, &text) != CUDA_SUCCESS)
        text = NULL;
    const char *hint = "";
    if ((int)r == 34) /* CUDA_ERROR_STUB_LIBRARY (CUDA 11.1 and later) */
        hint = ": this libcuda.so is the CUDA toolkit's stub, not the NVIDIA driver's libcuda.so.1; run it on a "
               "machine with the NVIDIA driver and a GPU";
    else if (r == CUDA_ERROR_NO_DEVICE)
        hint = ": the NVIDIA driver finds no GPU on this machine";
    else if ((int)r == 222) /* CUDA_ERROR_UNSUPPORTED_PTX_VERSION (CUDA 11.1 and later) */
        hint = ": the NVIDIA driver is older than the NVRTC that wrote kernel.ptx; update the driver";
    return fail("%s failed: %s (%d)%s%s%s", call, name ? name : "CUDA error", (int)r, text ? ": " : "",
                 text ? text : "", hint);
}

#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        CUresult r_ = (call);                                                                                          \
        if (r_ != CUDA_SUCCESS)                                                                                        \
            return cuda_error(r_, #call);                                                                              \
    } while (0)

/* ---- files ---------------------------------------------------------------------------------- */

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    unsigned char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            size_t more = cap ? cap * 2 : 1 << 16;
            unsigned char *b = realloc(buf, more + 1);
            if (!b) {
                free(buf);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            buf = b;
            cap = more;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

/* A .npy array: its descriptor (without the byte-order mark), shape and data. */
typedef struct Npy {
    char descr[16];
    int ndim;
    long long shape[8];
    size_t numel;
    unsigned char *file;      /* the whole file; data points into it */
    unsigned char *data;
    size_t nbytes;
} Npy;

/* The value of 'key' in a .npy header dictionary, or NULL. */
static const char *header_value(const char *h, const char *key)
{
    const char *p = strstr(h, key);
    if (!p)
        return NULL;
    p = strchr(p + strlen(key), ':');
    if (!p)
        return NULL;
    p++;
    while (*p == ' ')
        p++;
    return p;
}

/* Read a .npy file (format 1, 2 or 3; C order; little-endian or one-byte
 * elements). 0, or an exit status with the message printed. */
static int npy_read(const char *path, Npy *out)
{
    memset(out, 0, sizeof *out);
    size_t len;
    unsigned char *b = read_file(path, &len);
    if (!b)
        return fail("cannot read %s: %s", path, strerror(errno));
    out->file = b;
    if (len < 10 || memcmp(b, "\x93NUMPY", 6))
        return fail("%s is not a .npy file", path);
    size_t hlen, at;
    if (b[6] == 1) {
        hlen = (size_t)b[8] | (size_t)b[9] << 8;
        at = 10;
    } else if ((b[6] == 2 || b[6] == 3) && len >= 12) {
        hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
        at = 12;
    } else {
        return fail("%s: .npy format version %d is not one this program reads", path, b[6]);
    }
    if (hlen > len - at)
        return fail("%s: its header runs past the end of the file", path);
    char header[4096];
    if (hlen >= sizeof header)
        return fail("%s: its header is too long", path);
    memcpy(header, b + at, hlen);
    header[hlen] = 0;
    const char *d = header_value(header, "'descr'");
    const char *fo = header_value(header, "'fortran_order'");
    const char *sh = header_value(header, "'shape'");
    if (!d || (*d != '\'' && *d != '"') || !fo || !sh || *sh != '(')
        return fail("%s: its header lacks 'descr', 'fortran_order' or 'shape'", path);
    const char *q = d + 1;
    if (*q == '<' || *q == '|' || *q == '=')
        q++;
    else if (*q == '>')
        return fail("%s holds big-endian data, which this program does not read", path);
    size_t dl = strcspn(q, "'\"");
    if (dl == 0 || dl >= sizeof out->descr)
        return fail("%s: unreadable 'descr'", path);
    memcpy(out->descr, q, dl);
    out->descr[dl] = 0;
    if (!strncmp(fo, "True", 4))
        return fail("%s is in Fortran order; write it in C order (numpy.ascontiguousarray)", path);
    out->numel = 1;
    for (const char *p = sh + 1; *p && *p != ')';) {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == ')')
            break;
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || v < 0 || out->ndim == 8)
            return fail("%s: unreadable 'shape'", path);
        out->shape[out->ndim++] = v;
        if (v && out->numel > SIZE_MAX / (size_t)v)
            return fail("%s: its shape is too large", path);
        out->numel *= (size_t)v;
        p = end;
    }
    size_t esize = (size_t)atoi(out->descr + 1);
    if (esize == 0 || out->numel > SIZE_MAX / esize)
        return fail("%s: unreadable 'descr' '%s'", path, out->descr);
    out->nbytes = out->numel * esize;
    if (len - at - hlen < out->nbytes)
        return fail("%s holds %zu data bytes; its header says %zu", path, len - at - hlen, out->nbytes);
    out->data = b + at + hlen;
    return 0;
}

/* Write `data` as a version 1 .npy file of descr (without its mark) and shape. */
static int npy_write(const char *path, const char *descr, const Npy *like, const void *data, size_t nbytes)
{
    char header[512];
    int n = snprintf(header, sizeof header, "{'descr': '%s%s', 'fortran_order': False, 'shape': (",
                     descr[0] == 'b' || descr[1] == '1' ? "|" : "<", descr);
    for (int i = 0; i < like->ndim; i++)
        n += snprintf(header + n, sizeof header - (size_t)n, "%lld%s", like->shape[i],
                      like->ndim == 1 ? "," : i + 1 < like->ndim ? ", " : "");
    n += snprintf(header + n, sizeof header - (size_t)n, "), }");
    size_t total = 10 + (size_t)n + 1, pad = (64 - total % 64) % 64;
    size_t hlen = (size_t)n + pad + 1;
    FILE *f = fopen(path, "wb");
    if (!f)
        return fail("cannot write %s: %s", path, strerror(errno));
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(hlen & 0xff), (unsigned char)(hlen >> 8)};
    int bad = fwrite(pre, 1, 10, f) != 10 || fwrite(header, 1, (size_t)n, f) != (size_t)n;
    for (size_t i = 0; i < pad && !bad; i++)
        bad = fputc(' ', f) == EOF;
    bad = bad || fputc('\n', f) == EOF || fwrite(data, 1, nbytes, f) != nbytes;
    if (fclose(f) || bad)
        return fail("cannot write %s: %s", path, strerror(errno));
    return 0;
}

/* ---- element values --------------------------------------------------------------------------- */

static float bits_to_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (exp == 0x1f)
        return bits_to_float(sign | 0x7f800000u | man << 13);
    if (exp == 0) {
        if (man == 0)
            return bits_to_float(sign);
        float v = (float)man / 16777216.0f; /* man * 2^-24 */
        return sign ? -v : v;
    }
    return bits_to_float(sign | (exp + 112) << 23 | man << 13);
}

/* float32 to bfloat16, rounding to nearest even (NaN stays NaN). */
static uint16_t float_to_bf16(uint32_t u)
{
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)(u >> 16 | 0x40);
    return (uint16_t)((u + 0x7fffu + (u >> 16 & 1)) >> 16);
}

/* Element i of a file's data (descr without its mark) as a double. */
static double element(const char *descr, const unsigned char *data, size_t i)
{
    size_t size = (size_t)atoi(descr + 1);
    const unsigned char *p = data + i * size;
    uint64_t u = 0;
    for (size_t k = 0; k < size; k++)
        u |= (uint64_t)p[k] << (8 * k);
    switch (descr[0]) {
    case 'b': return u != 0;
    case 'u': return (double)u;
    case 'i': {
        if (size < 8 && (u >> (8 * size - 1)) & 1)
            u |= ~(uint64_t)0 << (8 * size);
        int64_t s;
        memcpy(&s, &u, 8);
        return (double)s;
    }
    case 'f':
        if (size == 2)
            return half_to_float((uint16_t)u);
        if (size == 4)
            return bits_to_float((uint32_t)u);
        {
            double d;
            memcpy(&d, &u, 8);
            return d;
        }
    }
    return 0;
}

static int is_nan(double x) { return x != x; }
static int is_inf(double x) { return x == x && x - x != x - x; }
static double magnitude(double x) { return x < 0 ? -x : x; }

/* ---- the launch -------------------------------------------------------------------------------- */

typedef struct Buffer {
    Npy in;                   /* the input file */
    void *host;               /* the kernel's bytes (a bfloat16 array converted from its float32 file) */
    size_t nbytes;
    CUdeviceptr dev;
} Buffer;

/* Compare an array with expected/NAME.npy; 1 when it matches, 0 when not,
 * -1 when there is no such file, an error status below -1. */
static int compare(const Arg *a, const char *descr, const Npy *got)
{
    char path[600];
    snprintf(path, sizeof path, "expected/%s.npy", a->name);
    if (access(path, F_OK))
        return -1;
    Npy want;
    int st = npy_read(path, &want);
    if (st) {
        free(want.file);
        return -st;
    }
    int ok = 1;
    if (strcmp(want.descr, descr) || want.ndim != got->ndim || memcmp(want.shape, got->shape, sizeof want.shape)) {
        printf("  %s: %s holds %s data of another shape or type than the kernel's %s array\n", a->name, path,
               want.descr, descr);
        free(want.file);
        return 0;
    }
    size_t bad = 0, first = 0;
    double max_err = 0, first_got = 0, first_want = 0;
    for (size_t i = 0; i < want.numel; i++) {
        double g = element(descr, got->data, i), w = element(descr, want.data, i), diff;
        int match;
        if (is_nan(g) || is_nan(w)) {
            match = is_nan(g) && is_nan(w);
            diff = match ? 0 : 1.0 / 0.0;
        } else if (is_inf(g) || is_inf(w)) {
            match = g == w;
            diff = match ? 0 : 1.0 / 0.0;
        } else {
            diff = magnitude(g - w);
            match = diff <= run_atol + run_rtol * magnitude(w);
        }
        if (diff > max_err)
            max_err = diff;
        if (!match && bad++ == 0) {
            first = i;
            first_got = g;
            first_want = w;
        }
    }
    if (bad) {
        printf("  %s: %zu of %zu elements differ from %s; the first, element %zu: got %.9g, want %.9g "
               "(largest difference %.9g)\n",
               a->name, bad, want.numel, path, first, first_got, first_want, max_err);
        ok = 0;
    } else {
        printf("  %s: %zu elements match %s (largest difference %.9g)\n", a->name, want.numel, path, max_err);
    }
    free(want.file);
    return ok;
}

static int run(int ordinal)
{
    CHECK(cuInit(0));
    int count = 0, version = 0;
    CHECK(cuDeviceGetCount(&count));
    if (ordinal >= count)
        return fail("there is no GPU %d (this machine has %d)", ordinal, count);
    CUdevice dev;
    CHECK(cuDeviceGet(&dev, ordinal));
    char devname[256];
    int major = 0, minor = 0;
    CHECK(cuDeviceGetName(devname, sizeof devname, dev));
    CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    CHECK(cuDriverGetVersion(&version));
    CUcontext ctx;
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));

    /* The cubin when the GPU is of its architecture, else the PTX. */
    CUmodule mod = NULL;
    const char *loaded = NULL;
    size_t len;
    unsigned char *image = major * 10 + minor == kernel_sm ? read_file("kernel.cubin", &len) : NULL;
    if (image && cuModuleLoadData(&mod, image) == CUDA_SUCCESS)
        loaded = "kernel.cubin";
    free(image);
    if (!mod) {
        if (!(image = read_file("kernel.ptx", &len)))
            return fail("cannot read kernel.ptx: %s", strerror(errno));
        static char jit_log[8192];
        CUjit_option opt[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
        void *val[] = {jit_log, (void *)(uintptr_t)sizeof jit_log};
        CUresult r = cuModuleLoadDataEx(&mod, image, 2, opt, val);
        free(image);
        if (r != CUDA_SUCCESS) {
            if (jit_log[0])
                fprintf(stderr, "%s\n", jit_log);
            return cuda_error(r, "cuModuleLoadDataEx(kernel.ptx)");
        }
        loaded = "kernel.ptx";
    }
    CUfunction fn;
    CHECK(cuModuleGetFunction(&fn, mod, kernel_name));
    printf("launch: %s on GPU %d (%s, sm_%d%d, driver %d.%d) from %s\n", kernel_name, ordinal, devname, major, minor,
           version / 1000, version % 1000 / 10, loaded);

    /* The arguments, in the kernel's order; the program grid after them
     * when the kernel takes it. */
    static Buffer buf[NARGS + 1];
    static uint64_t scalar[NARGS + 1];
    static int32_t grid_arg[3];
    static void *params[NARGS + 4];
    for (size_t i = 0; i < NARGS; i++) {
        const Arg *a = &args[i];
        const Dtype *t = &dtypes[a->dtype];
        if (!a->array) {
            scalar[i] = a->bits;
            params[i] = &scalar[i];
            continue;
        }
        char path[600];
        snprintf(path, sizeof path, "inputs/%s.npy", a->name);
        Buffer *b = &buf[i];
        int st = npy_read(path, &b->in);
        if (st)
            return st;
        if (strcmp(b->in.descr, t->npy))
            return fail("%s holds '%s' data; parameter %s takes %s (its files hold '%s')", path, b->in.descr, a->name,
                         t->name, t->npy);
        b->nbytes = b->in.numel * t->size;
        if (t->kind == 'B') {
            uint16_t *h = malloc(b->nbytes ? b->nbytes : 1);
            if (!h)
                return fail("out of memory for %s", path);
            for (size_t k = 0; k < b->in.numel; k++) {
                uint32_t u;
                memcpy(&u, b->in.data + 4 * k, 4);
                h[k] = float_to_bf16(u);
            }
            b->host = h;
        } else {
            b->host = b->in.data;
        }
        CHECK(cuMemAlloc(&b->dev, b->nbytes ? b->nbytes : 1));
        if (b->nbytes)
            CHECK(cuMemcpyHtoD(b->dev, b->host, b->nbytes));
        params[i] = &b->dev;
    }
    if (grid_params)
        for (int d = 0; d < 3; d++) {
            grid_arg[d] = (int32_t)programs[d];
            params[NARGS + (size_t)d] = &grid_arg[d];
        }

    /* past 48 KiB a kernel's dynamic shared memory is opted into */
    if (dynamic_shared_bytes > 48 * 1024)
        CHECK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dynamic_shared_bytes));
    CHECK(cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], dynamic_shared_bytes, NULL,
                         params, NULL));
    CHECK(cuCtxSynchronize());

    /* Every array back, to outputs/, and against expected/. */
    if (mkdir("outputs", 0777) && errno != EEXIST)
        return fail("cannot make outputs/: %s", strerror(errno));
    int compared = 0, differ = 0;
    for (size_t i = 0; i < NARGS; i++) {
        const Arg *a = &args[i];
        const Dtype *t = &dtypes[a->dtype];
        Buffer *b = &buf[i];
        if (!a->array)
            continue;
        unsigned char *host = malloc(b->nbytes ? b->nbytes : 1);
        if (!host)
            return fail("out of memory for %s", a->name);
        if (b->nbytes)
            CHECK(cuMemcpyDtoH(host, b->dev, b->nbytes));
        Npy got = b->in;
        got.data = host;
        unsigned char *file_data = host;
        if (t->kind == 'B') { /* written as float32, as numpy reads it */
            if (!(file_data = malloc(4 * b->in.numel + 1)))
                return fail("out of memory for %s", a->name);
            for (size_t k = 0; k < b->in.numel; k++) {
                uint32_t u = (uint32_t)(host[2 * k] | host[2 * k + 1] << 8) << 16;
                memcpy(file_data + 4 * k, &u, 4);
            }
            got.data = file_data;
        }
        char path[600];
        snprintf(path, sizeof path, "outputs/%s.npy", a->name);
        int st = npy_write(path, t->npy, &b->in, file_data, b->in.numel * (size_t)atoi(t->npy + 1));
        if (st)
            return st;
        int c = compare(a, t->npy, &got);
        if (c < -1)
            return -c;
        if (c >= 0) {
            compared++;
            differ += c == 0;
        }
        if (file_data != host)
            free(file_data);
        free(host);
    }
    if (!compared) {
        printf("launch: ran %s; expected/ holds none of its arrays, so nothing was compared (outputs/ has them)\n",
               kernel_name);
        return 0;
    }
    if (differ) {
        printf("launch: MISMATCH: %d of %d arrays differ from expected/ (rtol %g, atol %g)\n", differ, compared,
               run_rtol, run_atol);
        return 1;
    }
    printf("launch: ok: %s reproduces the run: %d array%s match%s expected/ (rtol %g, atol %g)\n", kernel_name,
           compared, compared == 1 ? "" : "s", compared == 1 ? "es" : "", run_rtol, run_atol);
    return 0;
}

int main(int argc, char **argv)
{
    int ordinal = 0;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--device") && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 0 || v > 1024)
                return fail("--device takes a GPU number, not '%s'", argv[i]);
            ordinal = (int)v;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: %s [--device N] [FOLDER]\nruns %s as the mytriton run did, from FOLDER (the archive's; "
                   "default: the current folder), and compares its arrays with FOLDER/expected/\n",
                   argv[0], kernel_name);
            return 0;
        } else if (argv[i][0] == '-' || dir) {
            return fail("unknown argument '%s' (usage: %s [--device N] [FOLDER])", argv[i], argv[0]);
        } else {
            dir = argv[i];
        }
    }
    if (dir && chdir(dir))
        return fail("cannot enter %s: %s", dir, strerror(errno));
    return run(ordinal);
}
