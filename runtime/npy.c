/* npy.c: MtArray storage and NumPy's .npy format (versions 1.0, 2.0, 3.0).
 *
 * A .npy file is a 6-byte magic "\x93NUMPY", a major and a minor version
 * byte, a little-endian header length (2 bytes in 1.0, 4 in 2.0 and 3.0),
 * the header itself -- a Python dict literal such as
 *     {'descr': '<f4', 'fortran_order': False, 'shape': (1000,), }
 * padded with spaces and ended by '\n' -- and then the raw elements.
 *
 * The header is parsed as the small piece of Python it is, not matched
 * against numpy's exact spelling: keys in any order, any spacing, an
 * optional trailing comma, either quote, Python 2's `10L` integers. What the
 * runtime cannot use (other dtypes, big-endian data, Fortran order, more than
 * 8 dimensions, sizes that overflow, missing bytes) is refused with a
 * message that names the file, the problem and what to do about it.
 *
 * Writing mirrors np.save byte for byte so files written here diff clean
 * against files written by numpy, and goes through a temporary file and
 * rename() so a crash or a full disk never leaves half an array behind.
 */
#include "npy.h"
#include "errbuf.h"
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the mytriton runtime stores elements little-endian, as .npy '<f4' files do"
#endif

static const char magic[6] = "\x93NUMPY";

/* Longest header accepted. numpy's own headers are under 200 bytes; the
 * cap keeps a corrupt length field from asking for gigabytes. */
#define MAX_HEADER (1u << 20)

/* ---- arrays -------------------------------------------------------------- */

const char *mt_dtype_name(MtDtype dt) {
    const MtDtypeInfo *d = mt_dtype_info(dt);
    return !d ? "?" : d->numpy ? d->numpy : d->tl;
}

int mt_dtype_from_name(const char *name) {
    for (int d = 0; name && d < MT_DTYPE_COUNT; d++)
        if (strcmp(name, mt_dtype_name((MtDtype)d)) == 0) return d;
    return -1;
}

MtStatus mt_array_to_bf16(MtArray *a, char *err, size_t errlen) {
    if (a->dtype != MT_DT_F32) {
        mt_errf(err, errlen, "bfloat16 data comes as float32, got %s", mt_dtype_name(a->dtype));
        return MT_ERR_USAGE;
    }
    const float *f = a->data;
    uint16_t *h = a->data; /* in place: element i is written after elements 0..i were read */
    for (int64_t i = 0; i < a->numel; i++) h[i] = mt_f32_to_bf16(f[i]);
    a->dtype = MT_DT_BF16;
    a->nbytes = (size_t)a->numel * 2;
    return MT_OK;
}

size_t mt_dtype_size(MtDtype dt) { return mt_dtype_info(dt)->size; }

char *mt_format_float(char out[32], double v, bool f32) {
    if (isnan(v)) return strcpy(out, "nan");
    if (isinf(v)) return strcpy(out, v < 0 ? "-inf" : "inf");
    if (f32) v = (float)v;
    int maxprec = f32 ? 9 : 17;
    int prec = 1;
    for (;; prec++) {
        snprintf(out, 32, "%.*e", prec - 1, v);
        double back = strtod(out, NULL);
        if (prec == maxprec || (f32 ? (float)back == v : back == v)) break;
    }
    int exp = atoi(strchr(out, 'e') + 1);
    if (exp < -4 || exp >= 16) return out;
    snprintf(out, 32, "%.*f", prec - 1 - exp > 0 ? prec - 1 - exp : 0, v);
    if (!strchr(out, '.')) strcat(out, ".0");
    return out;
}

bool mt_array_size(MtDtype dt, int ndim, const int64_t *shape, int64_t *numel, size_t *nbytes) {
    if (ndim < 0 || ndim > MT_ARRAY_MAX_DIMS) return false;
    int64_t n = 1;
    bool zero = false;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0) return false;
        if (shape[i] == 0) zero = true;
    }
    /* Multiply every dimension even when one is zero: a shape whose other
     * dimensions overflow is still absurd. */
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == 0) continue;
        if (n > INT64_MAX / shape[i]) return false;
        n *= shape[i];
    }
    size_t size = mt_dtype_size(dt);
    if ((uint64_t)n > (uint64_t)PTRDIFF_MAX / size) return false;
    if (zero) n = 0;
    if (numel) *numel = n;
    if (nbytes) *nbytes = (size_t)n * size;
    return true;
}

MtArray *mt_array_new(MtDtype dt, int ndim, const int64_t *shape) {
    int64_t numel;
    size_t nbytes;
    if (!mt_array_size(dt, ndim, shape, &numel, &nbytes)) return NULL;
    /* aligned_alloc wants a multiple of the alignment; one line at least so
     * that data is never NULL. */
    size_t cap = (nbytes + MT_ARRAY_ALIGN - 1) / MT_ARRAY_ALIGN * MT_ARRAY_ALIGN;
    if (cap < nbytes) return NULL;
    if (cap == 0) cap = MT_ARRAY_ALIGN;
    MtArray *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->data = aligned_alloc(MT_ARRAY_ALIGN, cap);
    if (!a->data) {
        free(a);
        return NULL;
    }
    memset(a->data, 0, cap);
    a->dtype = dt;
    a->ndim = ndim;
    for (int i = 0; i < ndim; i++) a->shape[i] = shape[i];
    a->numel = numel;
    a->nbytes = nbytes;
    return a;
}

void mt_array_free(MtArray *a) {
    if (!a) return;
    free(a->data);
    free(a);
}

/* Python's repr of a shape tuple: "()", "(3,)", "(2, 3)". */
static void shape_repr(char *out, size_t n, int ndim, const int64_t *shape) {
    size_t k = 0;
    k += (size_t)snprintf(out + k, n - k, "(");
    for (int i = 0; i < ndim && k < n; i++)
        k += (size_t)snprintf(out + k, n - k, "%s%" PRId64, i ? ", " : "", shape[i]);
    if (k < n) snprintf(out + k, n - k, ndim == 1 ? ",)" : ")");
}

/* ---- header dict parser ---------------------------------------------------- */

typedef struct Hdr {
    const char *s, *p, *end;  /* header text, cursor, end (trailing '\n' and padding included) */
    const char *path;
    char *err;
    size_t errlen;
} Hdr;

/* "malformed header: <what> at column C: <header text>". */
static MtStatus hdr_fail(Hdr *h, const char *what) {
    const char *e = h->end;
    while (e > h->s && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\r' || e[-1] == '\t')) e--;
    int len = (int)(e - h->s);
    bool cut = len > 100;
    mt_errf(h->err, h->errlen, "%s: malformed header: %s at column %d: %.*s%s", h->path, what,
            (int)(h->p - h->s) + 1, cut ? 100 : len, h->s, cut ? "..." : "");
    return MT_ERR_USAGE;
}

static void hdr_space(Hdr *h) {
    while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' || *h->p == '\r')) h->p++;
}

static bool hdr_eat(Hdr *h, char c) {
    hdr_space(h);
    if (h->p < h->end && *h->p == c) {
        h->p++;
        return true;
    }
    return false;
}

/* string = "'" chars "'" | '"' chars '"'   (no escapes: numpy never writes any) */
static MtStatus hdr_string(Hdr *h, char *out, size_t n) {
    hdr_space(h);
    if (h->p >= h->end || (*h->p != '\'' && *h->p != '"')) return hdr_fail(h, "expected a string");
    char q = *h->p++;
    const char *start = h->p;
    while (h->p < h->end && *h->p != q && *h->p != '\\' && *h->p != '\n') h->p++;
    if (h->p >= h->end || *h->p != q) return hdr_fail(h, "unterminated string");
    size_t len = (size_t)(h->p - start);
    h->p++;
    if (len >= n) {
        h->p = start;
        return hdr_fail(h, "string too long");
    }
    memcpy(out, start, len);
    out[len] = 0;
    return MT_OK;
}

/* int = digits ["L"]   (dimensions are never negative) */
static MtStatus hdr_int(Hdr *h, int64_t *out) {
    hdr_space(h);
    const char *start = h->p;
    if (h->p < h->end && *h->p == '-') {
        const char *digits = ++h->p;
        while (h->p < h->end && *h->p >= '0' && *h->p <= '9') h->p++;
        if (h->p == digits) return hdr_fail(h, "expected an integer");
        mt_errf(h->err, h->errlen, "%s: shape has a negative dimension -%.*s", h->path,
                (int)(h->p - digits), digits);
        return MT_ERR_USAGE;
    }
    if (h->p >= h->end || *h->p < '0' || *h->p > '9') return hdr_fail(h, "expected an integer");
    uint64_t v = 0;
    bool big = false;
    while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
        unsigned d = (unsigned)(*h->p++ - '0');
        if (v > ((uint64_t)INT64_MAX - d) / 10) big = true;
        else v = v * 10 + d;
    }
    if (big) {
        mt_errf(h->err, h->errlen, "%s: shape dimension %.*s is too large", h->path,
                (int)(h->p - start), start);
        return MT_ERR_USAGE;
    }
    if (h->p < h->end && (*h->p == 'L' || *h->p == 'l')) h->p++;
    *out = (int64_t)v;
    return MT_OK;
}

/* shape = "(" [int ("," int)* [","]] ")"   (also "(3)": unambiguous, if not a tuple) */
static MtStatus hdr_shape(Hdr *h, int *ndim, int64_t *shape) {
    if (!hdr_eat(h, '(')) return hdr_fail(h, "expected a tuple for 'shape'");
    int n = 0;
    while (!hdr_eat(h, ')')) {
        int64_t d = 0;
        MtStatus st = hdr_int(h, &d);
        if (st) return st;
        if (n == MT_ARRAY_MAX_DIMS) {
            mt_errf(h->err, h->errlen, "%s: shape has more than %d dimensions", h->path,
                    MT_ARRAY_MAX_DIMS);
            return MT_ERR_USAGE;
        }
        shape[n++] = d;
        if (!hdr_eat(h, ',')) {
            if (!hdr_eat(h, ')')) return hdr_fail(h, "expected ',' or ')' in 'shape'");
            break;
        }
    }
    *ndim = n;
    return MT_OK;
}

/* Names for the dtypes people save by accident, to say what the file holds. */
static const char *numpy_type_name(const char *code) {
    static const struct { const char *code, *name; } names[] = {
        {"f2", "float16"}, {"f8", "float64"}, {"f16", "float128"}, {"f12", "float96"},
        {"i1", "int8"}, {"i2", "int16"}, {"i8", "int64"},
        {"u1", "uint8"}, {"u2", "uint16"}, {"u4", "uint32"}, {"u8", "uint64"},
        {"c8", "complex64"}, {"c16", "complex128"}, {"c32", "complex256"}, {"O", "object"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(code, names[i].code) == 0) return names[i].name;
    switch (code[0]) {
    case 'U': return "str";
    case 'S': return "bytes";
    case 'V': return "void";
    case 'M': return "datetime64";
    case 'm': return "timedelta64";
    }
    return NULL;
}

/* descr: an optional byte-order character then a type code. '<' is what
 * numpy writes; '=' and '|' mean native, which is little-endian here. */
static MtStatus hdr_descr(Hdr *h, const char *descr, MtDtype *dt) {
    const char *code = descr;
    char order = 0;
    if (*code && strchr("<>|=", *code)) order = *code++;
    bool found = false;
    for (int d = 0; d < MT_DTYPE_COUNT && !found; d++) {
        const char *npy = mt_dtype_info((MtDtype)d)->npy;
        if (npy && strcmp(code, npy + 1) == 0) {
            *dt = (MtDtype)d;
            found = true;
        }
    }
    if (!found) {
        const char *name = numpy_type_name(code);
        if (name)
            mt_errf(h->err, h->errlen,
                    "%s: dtype '%s' (%s) is not supported; save bool, integer (8 to 64 bits) or float "
                    "(16, 32, 64 bits) arrays",
                    h->path, descr, name);
        else
            mt_errf(h->err, h->errlen,
                    "%s: dtype '%s' is not supported; save bool, integer (8 to 64 bits) or float (16, 32, 64 "
                    "bits) arrays",
                    h->path, descr);
        return MT_ERR_USAGE;
    }
    if (order == '>' && mt_dtype_size(*dt) > 1) {
        mt_errf(h->err, h->errlen,
                "%s: dtype '%s' is big-endian; save it little-endian (a.astype('<%s'))", h->path,
                descr, code);
        return MT_ERR_USAGE;
    }
    return MT_OK;
}

/* dict = "{" [item ("," item)* [","]] "}"
 * item = string ":" value          exactly the keys descr, fortran_order, shape */
static MtStatus hdr_dict(Hdr *h, MtNpyInfo *info) {
    enum { DESCR = 1, FORTRAN = 2, SHAPE = 4 };
    unsigned seen = 0;
    if (!hdr_eat(h, '{')) return hdr_fail(h, "expected '{'");
    while (!hdr_eat(h, '}')) {
        char key[32];
        MtStatus st = hdr_string(h, key, sizeof key);
        if (st) return st;
        if (!hdr_eat(h, ':')) return hdr_fail(h, "expected ':'");
        unsigned bit = strcmp(key, "descr") == 0           ? DESCR
                       : strcmp(key, "fortran_order") == 0 ? FORTRAN
                       : strcmp(key, "shape") == 0         ? SHAPE
                                                           : 0;
        if (!bit) {
            mt_errf(h->err, h->errlen,
                    "%s: unexpected header key '%s' (a .npy header holds exactly 'descr', "
                    "'fortran_order' and 'shape')",
                    h->path, key);
            return MT_ERR_USAGE;
        }
        if (seen & bit) {
            mt_errf(h->err, h->errlen, "%s: header key '%s' appears twice", h->path, key);
            return MT_ERR_USAGE;
        }
        seen |= bit;
        hdr_space(h);
        if (bit == DESCR) {
            if (h->p < h->end && *h->p == '[') {
                mt_errf(h->err, h->errlen,
                        "%s: dtype is a structured (record) dtype; save bool, integer (8 to 64 bits) or float (16, 32, 64 bits) arrays",
                        h->path);
                return MT_ERR_USAGE;
            }
            char descr[32];
            if ((st = hdr_string(h, descr, sizeof descr)) || (st = hdr_descr(h, descr, &info->dtype)))
                return st;
        } else if (bit == FORTRAN) {
            if ((size_t)(h->end - h->p) >= 4 && memcmp(h->p, "True", 4) == 0) {
                mt_errf(h->err, h->errlen,
                        "%s: fortran_order is True; save a C-ordered array (np.ascontiguousarray(a))",
                        h->path);
                return MT_ERR_USAGE;
            }
            if ((size_t)(h->end - h->p) < 5 || memcmp(h->p, "False", 5) != 0)
                return hdr_fail(h, "expected True or False for 'fortran_order'");
            h->p += 5;
        } else if ((st = hdr_shape(h, &info->ndim, info->shape))) {
            return st;
        }
        if (!hdr_eat(h, ',')) {
            if (!hdr_eat(h, '}')) return hdr_fail(h, "expected ',' or '}'");
            break;
        }
    }
    hdr_space(h);
    if (h->p != h->end) return hdr_fail(h, "unexpected text after the dict");
    static const char *const names[] = {"descr", "fortran_order", "shape"};
    for (unsigned i = 0; i < 3; i++)
        if (!(seen & (1u << i))) {
            mt_errf(h->err, h->errlen, "%s: header lacks the '%s' key", h->path, names[i]);
            return MT_ERR_USAGE;
        }
    return MT_OK;
}

/* ---- reading --------------------------------------------------------------- */

static MtStatus read_fail_io(FILE *f, const char *path, char *err, size_t errlen) {
    mt_errf(err, errlen, "%s: read error: %s", path, strerror(ferror(f) ? errno : EIO));
    return MT_ERR_IO;
}

/* Parse the preamble and header of an open file positioned at its start;
 * leaves the file at the first element. */
static MtStatus read_header(FILE *f, const char *path, MtNpyInfo *info, char *err, size_t errlen) {
    memset(info, 0, sizeof *info);
    unsigned char pre[12];
    size_t got = fread(pre, 1, 8, f);
    if (got < 8 && ferror(f)) return read_fail_io(f, path, err, errlen);
    if (got < 6 || memcmp(pre, magic, 6) != 0) {
        mt_errf(err, errlen, "%s: not a .npy file (bad magic)", path);
        return MT_ERR_USAGE;
    }
    if (got < 8) {
        mt_errf(err, errlen, "%s: truncated header", path);
        return MT_ERR_USAGE;
    }
    int major = pre[6], minor = pre[7];
    if (major < 1 || major > 3 || minor != 0) {
        mt_errf(err, errlen, "%s: .npy format version %d.%d is not supported (1.0, 2.0 and 3.0 are)",
                path, major, minor);
        return MT_ERR_USAGE;
    }
    size_t lensize = major == 1 ? 2 : 4;
    if (fread(pre + 8, 1, lensize, f) != lensize) {
        if (ferror(f)) return read_fail_io(f, path, err, errlen);
        mt_errf(err, errlen, "%s: truncated header", path);
        return MT_ERR_USAGE;
    }
    uint32_t hlen = (uint32_t)pre[8] | (uint32_t)pre[9] << 8;
    if (lensize == 4) hlen |= (uint32_t)pre[10] << 16 | (uint32_t)pre[11] << 24;
    if (hlen > MAX_HEADER) {
        mt_errf(err, errlen, "%s: header length %" PRIu32 " is implausible (corrupt file?)", path, hlen);
        return MT_ERR_USAGE;
    }
    char *text = malloc(hlen + 1);
    if (!text) {
        mt_errf(err, errlen, "%s: out of memory reading the header", path);
        return MT_ERR_NOMEM;
    }
    got = fread(text, 1, hlen, f);
    if (got != hlen) {
        free(text);
        if (ferror(f)) return read_fail_io(f, path, err, errlen);
        mt_errf(err, errlen, "%s: truncated header (%zu of %" PRIu32 " bytes)", path, got, hlen);
        return MT_ERR_USAGE;
    }
    text[hlen] = 0;
    const char *nul = memchr(text, 0, hlen);
    if (nul) {
        mt_errf(err, errlen, "%s: the header holds a NUL byte (at byte %zu of its text); a .npy header is "
                "printable text (corrupt file?)", path, (size_t)(nul - text));
        free(text);
        return MT_ERR_USAGE;
    }
    Hdr h = {.s = text, .p = text, .end = text + hlen, .path = path, .err = err, .errlen = errlen};
    MtStatus st = hdr_dict(&h, info);
    free(text);
    if (st) return st;

    size_t nbytes;
    if (!mt_array_size(info->dtype, info->ndim, info->shape, NULL, &nbytes)) {
        char shp[256];
        shape_repr(shp, sizeof shp, info->ndim, info->shape);
        mt_errf(err, errlen, "%s: shape %s is too large (its size overflows)", path, shp);
        return MT_ERR_USAGE;
    }
    info->version = major;
    info->data_offset = 8 + lensize + hlen;

    /* Check the size before allocating, so a truncated file costs nothing
     * and a header promising terabytes is refused without trying. */
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode)) {
        uint64_t have = (uint64_t)sb.st_size > info->data_offset ? (uint64_t)sb.st_size - info->data_offset : 0;
        if (have < nbytes) {
            char shp[256];
            shape_repr(shp, sizeof shp, info->ndim, info->shape);
            mt_errf(err, errlen,
                    "%s: truncated data: shape %s %s needs %zu bytes, the file holds %" PRIu64, path,
                    shp, mt_dtype_name(info->dtype), nbytes, have);
            return MT_ERR_USAGE;
        }
    }
    return MT_OK;
}

/* A regular file within the .npy size limit, as a stdio stream. */
static FILE *open_npy(const char *path, MtStatus *st, char *err, size_t errlen) {
    int fd;
    uint64_t size;
    if ((*st = mt_file_open(path, MT_FILE_NPY, &fd, &size, err, errlen))) return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        *st = MT_ERR_NOMEM;
        mt_errf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

MtStatus mt_npy_read_header(const char *path, MtNpyInfo *info, char *err, size_t errlen) {
    MtStatus st;
    FILE *f = open_npy(path, &st, err, errlen);
    if (!f) {
        memset(info, 0, sizeof *info);
        return st;
    }
    st = read_header(f, path, info, err, errlen);
    fclose(f);
    return st;
}

MtStatus mt_npy_read(const char *path, MtArray **out, char *err, size_t errlen) {
    *out = NULL;
    MtStatus st;
    FILE *f = open_npy(path, &st, err, errlen);
    if (!f) return st;
    MtNpyInfo info;
    st = read_header(f, path, &info, err, errlen);
    if (st) {
        fclose(f);
        return st;
    }
    MtArray *a = mt_array_new(info.dtype, info.ndim, info.shape);
    if (!a) {
        fclose(f);
        mt_errf(err, errlen, "%s: out of memory for the array's data", path);
        return MT_ERR_NOMEM;
    }
    size_t got = fread(a->data, 1, a->nbytes, f);
    if (got != a->nbytes) {
        /* Only a file that shrank since the size check, or a pipe, gets here. */
        if (ferror(f)) st = read_fail_io(f, path, err, errlen);
        else {
            char shp[256];
            shape_repr(shp, sizeof shp, a->ndim, a->shape);
            mt_errf(err, errlen, "%s: truncated data: shape %s %s needs %zu bytes, the file holds %zu",
                    path, shp, mt_dtype_name(a->dtype), a->nbytes, got);
            st = MT_ERR_USAGE;
        }
        fclose(f);
        mt_array_free(a);
        return st;
    }
    fclose(f);
    if (a->dtype == MT_DT_I1) {
        unsigned char *b = a->data;
        for (int64_t i = 0; i < a->numel; i++) b[i] = b[i] != 0;
    }
    *out = a;
    return MT_OK;
}

/* ---- writing --------------------------------------------------------------- */

/* The header np.save writes for `a`, preamble included; returns its length
 * (under 400 + 10 + 64 bytes, as the dict is cut at 400). */
static size_t build_header(const MtArray *a, char buf[512]) {
    char shp[256];
    shape_repr(shp, sizeof shp, a->ndim, a->shape);
    char dict[400];
    int len = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
                       mt_dtype_info(a->dtype)->npy, shp);
    /* format.py _wrap_header: pad with spaces so that magic + version +
     * length + dict + '\n' is a multiple of 64; an exact fit still gets 64.
     * numpy >= 1.23 first appends 21 - len(str(shape[0])) spaces of room to
     * grow the first axis in place. That cannot move the 64-byte boundary
     * here: it would take a dict of at least 97 characters, i.e. seven further
     * dimensions with 27 digits between them, a size that overflows and is
     * refused by numpy and by mt_array_size alike. So the bytes agree with
     * every numpy version without those spaces being written. */
    size_t hlen = (size_t)len + 1;
    size_t pad = 64 - (10 + hlen) % 64;
    size_t total = 10 + hlen + pad;
    memcpy(buf, magic, 6);
    buf[6] = 1;
    buf[7] = 0;
    buf[8] = (char)((hlen + pad) & 0xff);
    buf[9] = (char)((hlen + pad) >> 8);
    memcpy(buf + 10, dict, (size_t)len);
    memset(buf + 10 + len, ' ', pad);
    buf[total - 1] = '\n';
    return total;
}

/* numpy has no bfloat16: such an array is written as the float32 .npy of
 * its values (exactly, as every bf16 value is a float32). */
static MtStatus write_bf16(const char *path, const MtArray *a, const MtFileSet *inputs, char *err, size_t errlen) {
    MtArray *f = mt_array_new(MT_DT_F32, a->ndim, a->shape);
    if (!f) {
        mt_errf(err, errlen, "%s: out of memory", path);
        return MT_ERR_NOMEM;
    }
    const uint16_t *h = a->data;
    float *v = f->data;
    for (int64_t i = 0; i < a->numel; i++) v[i] = mt_bf16_to_f32(h[i]);
    MtStatus st = mt_npy_write(path, f, inputs, err, errlen);
    mt_array_free(f);
    return st;
}

MtStatus mt_npy_write(const char *path, const MtArray *a, const MtFileSet *inputs, char *err, size_t errlen) {
    if (a->dtype == MT_DT_BF16) return write_bf16(path, a, inputs, err, errlen);
    char header[512];
    size_t hn = build_header(a, header);
    MtOut o;
    MtStatus st = mt_out_open(&o, path, inputs, err, errlen);
    if (st) return st;
    mt_out_write(&o, header, hn);
    mt_out_write(&o, a->data, a->nbytes);
    return mt_out_close(&o, err, errlen);
}
