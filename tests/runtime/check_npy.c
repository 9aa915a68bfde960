/* check_npy.c: MtArray and .npy reading/writing.
 *
 * Golden bytes come two ways: headers written out by hand here (what
 * numpy's format.py produces, spelled out), and files under data/ written
 * by numpy 1.24 itself (np.save and format.write_array with versions 2.0
 * and 3.0). Every rejection is checked by its exact message.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../test_util.h"
#include "npy.h"

static char err[512];

static void setup(void) {
    test_tmp_setup("mt_npy");
    err[0] = 0;
}

static void teardown(void) { test_tmp_teardown(); }

static const char *tmp(const char *name) { return test_tmp(name); }

static const char *data(const char *name) {
    static char p[1024];
    const char *slash = strrchr(__FILE__, '/');
    snprintf(p, sizeof p, "%.*s/data/%s", slash ? (int)(slash - __FILE__) : 1, slash ? __FILE__ : ".", name);
    return p;
}

static void put(const char *path, const void *bytes, size_t n) {
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

/* A file holding a string literal's bytes (without its NUL). */
#define PUT(name, lit) put(tmp(name), lit, sizeof lit - 1)

static size_t slurp(const char *path, unsigned char *buf, size_t cap) {
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

/* A version 1.0 file: magic, header dict padded as numpy pads it, data. */
static size_t npy_v1(unsigned char *buf, const char *dict, const void *payload, size_t n) {
    size_t len = strlen(dict);
    size_t total = (10 + len + 1 + 63) / 64 * 64;
    if (total == 10 + len + 1) total += 64;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)((total - 10) & 0xff);
    buf[9] = (unsigned char)((total - 10) >> 8);
    memset(buf + 10, ' ', total - 10);
    memcpy(buf + 10, dict, len);
    buf[total - 1] = '\n';
    memcpy(buf + total, payload, n);
    return total + n;
}

/* Write a hand-made file with `dict` and try to read it. */
static MtStatus read_dict(const char *dict, const void *payload, size_t n, MtArray **a) {
    unsigned char buf[1024];
    put(tmp("x.npy"), buf, npy_v1(buf, dict, payload, n));
    return mt_npy_read(tmp("x.npy"), a, err, sizeof err);
}

static void expect_reject(const char *dict, const void *payload, size_t n, const char *msg) {
    MtArray *a = (MtArray *)1;
    ck_assert_int_eq(read_dict(dict, payload, n, &a), MT_ERR_USAGE);
    ck_assert_ptr_null(a);
    char want[600];
    snprintf(want, sizeof want, "%s: %s", tmp("x.npy"), msg);
    ck_assert_str_eq(err, want);
}

/* ---- arrays ---------------------------------------------------------------- */

START_TEST(dtype_names_round_trip) {
    ck_assert_str_eq(mt_dtype_name(MT_DT_F32), "float32");
    ck_assert_str_eq(mt_dtype_name(MT_DT_I32), "int32");
    ck_assert_str_eq(mt_dtype_name(MT_DT_I1), "bool");
    ck_assert_int_eq(mt_dtype_from_name("float32"), MT_DT_F32);
    ck_assert_int_eq(mt_dtype_from_name("int32"), MT_DT_I32);
    ck_assert_int_eq(mt_dtype_from_name("bool"), MT_DT_I1);
    ck_assert_int_eq(mt_dtype_from_name("float64"), MT_DT_F64);
    ck_assert_int_eq(mt_dtype_from_name("bfloat16"), MT_DT_BF16);
    ck_assert_str_eq(mt_dtype_name(MT_DT_BF16), "bfloat16");
    ck_assert_int_eq(mt_dtype_from_name("complex64"), -1);
    ck_assert_int_eq(mt_dtype_from_name(NULL), -1);
    ck_assert_uint_eq(mt_dtype_size(MT_DT_F32), 4);
    ck_assert_uint_eq(mt_dtype_size(MT_DT_I1), 1);
}
END_TEST

START_TEST(array_new_is_zeroed_and_aligned) {
    int64_t shape[2] = {3, 5};
    MtArray *a = mt_array_new(MT_DT_I32, 2, shape);
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(a->numel, 15);
    ck_assert_uint_eq(a->nbytes, 60);
    ck_assert_uint_eq((uintptr_t)a->data % MT_ARRAY_ALIGN, 0);
    for (int i = 0; i < 15; i++) ck_assert_int_eq(((int32_t *)a->data)[i], 0);
    ck_assert_int_eq(a->shape[2], 0);
    mt_array_free(a);

    MtArray *s = mt_array_new(MT_DT_F32, 0, NULL);
    ck_assert_int_eq(s->numel, 1);
    ck_assert_uint_eq(s->nbytes, 4);
    mt_array_free(s);

    int64_t empty[1] = {0};
    MtArray *e = mt_array_new(MT_DT_F32, 1, empty);
    ck_assert_int_eq(e->numel, 0);
    ck_assert_ptr_nonnull(e->data);
    mt_array_free(e);
}
END_TEST

START_TEST(array_size_rejects_overflow) {
    int64_t numel;
    size_t nbytes;
    int64_t big[3] = {1 << 30, 1 << 30, 1 << 30};
    ck_assert(!mt_array_size(MT_DT_F32, 3, big, &numel, &nbytes));
    int64_t zero_big[4] = {0, 1 << 30, 1 << 30, 1 << 30}; /* empty, but absurd all the same */
    ck_assert(!mt_array_size(MT_DT_F32, 4, zero_big, &numel, &nbytes));
    int64_t neg[1] = {-1};
    ck_assert(!mt_array_size(MT_DT_F32, 1, neg, &numel, &nbytes));
    ck_assert(!mt_array_size(MT_DT_F32, 9, big, &numel, &nbytes));
    ck_assert_ptr_null(mt_array_new(MT_DT_F32, 3, big));
    int64_t edge[1] = {INT64_MAX / 4 + 1}; /* 2^61 floats: bytes beyond PTRDIFF_MAX */
    ck_assert(!mt_array_size(MT_DT_F32, 1, edge, &numel, &nbytes));
    ck_assert(mt_array_size(MT_DT_I1, 1, edge, &numel, &nbytes));
    ck_assert_int_eq(numel, INT64_MAX / 4 + 1);
}
END_TEST

/* ---- writing: golden bytes ---------------------------------------------------- */

START_TEST(write_matches_numpy_header_by_hand) {
    int64_t shape[1] = {3};
    MtArray *a = mt_array_new(MT_DT_F32, 1, shape);
    float *f = a->data;
    f[0] = 0.0f, f[1] = 1.0f, f[2] = 2.0f;
    ck_assert_int_eq(mt_npy_write(tmp("a.npy"), a, NULL, err, sizeof err), MT_OK);
    unsigned char got[256];
    size_t n = slurp(tmp("a.npy"), got, sizeof got);
    /* np.save('a.npy', np.arange(3, dtype=np.float32)): 128 header bytes
     * (length field 118 = 'v'), then 12 data bytes. */
    unsigned char want[140];
    const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
    memcpy(want, "\x93NUMPY\x01\x00v\x00", 10);
    memset(want + 10, ' ', 117);
    memcpy(want + 10, dict, strlen(dict));
    want[127] = '\n';
    memcpy(want + 128, "\x00\x00\x00\x00\x00\x00\x80\x3f\x00\x00\x00\x40", 12);
    ck_assert_uint_eq(n, 140);
    ck_assert_mem_eq(got, want, 140);
    mt_array_free(a);
}
END_TEST

START_TEST(write_matches_files_numpy_wrote) {
    static const char *const files[] = {"f32_2x3.npy", "i32_5.npy", "bool_scalar.npy"};
    for (size_t i = 0; i < 3; i++) {
        MtArray *a;
        ck_assert_int_eq(mt_npy_read(data(files[i]), &a, err, sizeof err), MT_OK);
        ck_assert_int_eq(mt_npy_write(tmp("copy.npy"), a, NULL, err, sizeof err), MT_OK);
        unsigned char want[512], got[512];
        size_t nw = slurp(data(files[i]), want, sizeof want);
        size_t ng = slurp(tmp("copy.npy"), got, sizeof got);
        ck_assert_uint_eq(ng, nw);
        ck_assert_mem_eq(got, want, nw);
        mt_array_free(a);
    }
}
END_TEST

START_TEST(write_leaves_no_temporary_behind) {
    int64_t shape[2] = {4, 4};
    MtArray *a = mt_array_new(MT_DT_I1, 2, shape);
    ck_assert_int_eq(mt_npy_write(tmp("b.npy"), a, NULL, err, sizeof err), MT_OK);
    ck_assert_int_eq(mt_npy_write(tmp("b.npy"), a, NULL, err, sizeof err), MT_OK); /* replaces */
    DIR *d = opendir(test_tmpdir);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            ck_assert_str_eq(e->d_name, "b.npy");
            files++;
        }
    closedir(d);
    ck_assert_int_eq(files, 1);
    mt_array_free(a);
}
END_TEST

START_TEST(write_into_missing_folder_fails_cleanly) {
    int64_t shape[1] = {2};
    MtArray *a = mt_array_new(MT_DT_F32, 1, shape);
    ck_assert_int_eq(mt_npy_write(tmp("nope/out.npy"), a, NULL, err, sizeof err), MT_ERR_IO);
    char want[600];
    snprintf(want, sizeof want, "%s: cannot create a temporary file beside it: No such file or directory",
             tmp("nope/out.npy"));
    ck_assert_str_eq(err, want);
    mt_array_free(a);
}
END_TEST

/* ---- reading --------------------------------------------------------------- */

START_TEST(round_trip_every_dtype) {
    int64_t shape[3] = {2, 3, 4};
    static const MtDtype dts[] = {MT_DT_F32, MT_DT_I32, MT_DT_I1};
    for (int t = 0; t < 3; t++) {
        MtArray *a = mt_array_new(dts[t], 3, shape);
        unsigned char *b = a->data;
        for (size_t i = 0; i < a->nbytes; i++) b[i] = dts[t] == MT_DT_I1 ? (unsigned char)(i % 3 == 0) : (unsigned char)(i * 7);
        ck_assert_int_eq(mt_npy_write(tmp("r.npy"), a, NULL, err, sizeof err), MT_OK);
        MtArray *r;
        ck_assert_int_eq(mt_npy_read(tmp("r.npy"), &r, err, sizeof err), MT_OK);
        ck_assert_int_eq(r->dtype, dts[t]);
        ck_assert_int_eq(r->ndim, 3);
        ck_assert_int_eq(r->shape[0], 2);
        ck_assert_int_eq(r->shape[1], 3);
        ck_assert_int_eq(r->shape[2], 4);
        ck_assert_uint_eq(r->nbytes, a->nbytes);
        ck_assert_mem_eq(r->data, a->data, a->nbytes);
        mt_array_free(a);
        mt_array_free(r);
    }
}
END_TEST

START_TEST(round_trip_scalar_and_empty) {
    MtArray *s = mt_array_new(MT_DT_F32, 0, NULL);
    *(float *)s->data = -0.5f;
    ck_assert_int_eq(mt_npy_write(tmp("s.npy"), s, NULL, err, sizeof err), MT_OK);
    MtArray *r;
    ck_assert_int_eq(mt_npy_read(tmp("s.npy"), &r, err, sizeof err), MT_OK);
    ck_assert_int_eq(r->ndim, 0);
    ck_assert_float_eq(*(float *)r->data, -0.5f);
    mt_array_free(r);
    mt_array_free(s);

    int64_t shape[2] = {0, 5};
    MtArray *e = mt_array_new(MT_DT_I32, 2, shape);
    ck_assert_int_eq(mt_npy_write(tmp("e.npy"), e, NULL, err, sizeof err), MT_OK);
    ck_assert_int_eq(mt_npy_read(tmp("e.npy"), &r, err, sizeof err), MT_OK);
    ck_assert_int_eq(r->numel, 0);
    ck_assert_int_eq(r->shape[1], 5);
    mt_array_free(r);
    mt_array_free(e);
}
END_TEST

START_TEST(reads_numpy_files_of_each_version) {
    MtArray *a;
    ck_assert_int_eq(mt_npy_read(data("f32_2x3.npy"), &a, err, sizeof err), MT_OK);
    ck_assert_int_eq(a->dtype, MT_DT_F32);
    ck_assert_int_eq(a->ndim, 2);
    float *f = a->data;
    for (int i = 0; i < 6; i++) ck_assert_float_eq(f[i], i * 0.5f - 1);
    mt_array_free(a);

    ck_assert_int_eq(mt_npy_read(data("i32_5.npy"), &a, err, sizeof err), MT_OK);
    int32_t *p = a->data;
    ck_assert_int_eq(p[0], INT32_MIN);
    ck_assert_int_eq(p[4], INT32_MAX);
    mt_array_free(a);

    ck_assert_int_eq(mt_npy_read(data("bool_scalar.npy"), &a, err, sizeof err), MT_OK);
    ck_assert_int_eq(a->dtype, MT_DT_I1);
    ck_assert_int_eq(a->ndim, 0);
    ck_assert_int_eq(*(unsigned char *)a->data, 1);
    mt_array_free(a);

    static const char *const versions[] = {"f32_3_v2.npy", "f32_3_v3.npy"};
    for (int v = 0; v < 2; v++) {
        MtNpyInfo info;
        ck_assert_int_eq(mt_npy_read_header(data(versions[v]), &info, err, sizeof err), MT_OK);
        ck_assert_int_eq(info.version, v + 2);
        ck_assert_uint_eq(info.data_offset, 128);
        ck_assert_int_eq(mt_npy_read(data(versions[v]), &a, err, sizeof err), MT_OK);
        f = a->data;
        ck_assert_float_eq(f[0], 1.5f);
        ck_assert_float_eq(f[1], -2.25f);
        ck_assert_float_eq(f[2], 3.0f);
        mt_array_free(a);
    }
}
END_TEST

START_TEST(header_dict_is_parsed_not_matched) {
    int32_t v[2] = {7, -7};
    MtArray *a;
    /* keys in another order, odd spacing, double quotes, no trailing comma,
     * a Python 2 long, '=' byte order */
    ck_assert_int_eq(read_dict("{ \"shape\" : ( 2L , ) ,'fortran_order':False,  'descr':'=i4'}", v, 8, &a), MT_OK);
    ck_assert_int_eq(a->dtype, MT_DT_I32);
    ck_assert_int_eq(a->ndim, 1);
    ck_assert_int_eq(a->shape[0], 2);
    ck_assert_int_eq(((int32_t *)a->data)[1], -7);
    mt_array_free(a);

    ck_assert_int_eq(read_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", v, 4, &a), MT_OK);
    ck_assert_int_eq(a->ndim, 0);
    ck_assert_int_eq(a->numel, 1);
    mt_array_free(a);

    ck_assert_int_eq(read_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (2)}", v, 8, &a), MT_OK);
    ck_assert_int_eq(a->ndim, 1);
    mt_array_free(a);
}
END_TEST

START_TEST(bool_bytes_are_normalised_and_any_order_accepted) {
    unsigned char b[3] = {0, 1, 7};
    MtArray *a;
    ck_assert_int_eq(read_dict("{'descr': '>b1', 'fortran_order': False, 'shape': (3,), }", b, 3, &a), MT_OK);
    ck_assert_int_eq(((unsigned char *)a->data)[2], 1);
    mt_array_free(a);
}
END_TEST

START_TEST(trailing_bytes_are_ignored_like_np_load) {
    float f[3] = {1, 2, 3};
    MtArray *a;
    ck_assert_int_eq(read_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f, 12, &a), MT_OK);
    ck_assert_int_eq(a->numel, 2);
    mt_array_free(a);
}
END_TEST

START_TEST(rejects_unsupported_dtypes) {
    float f[4] = {0};
    expect_reject("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", f, 16,
                  "dtype '<c8' (complex64) is not supported; save bool, integer (8 to 64 bits) or float (16, 32, 64 bits) arrays");
    expect_reject("{'descr': '<U5', 'fortran_order': False, 'shape': (1,), }", f, 16,
                  "dtype '<U5' (str) is not supported; save bool, integer (8 to 64 bits) or float (16, 32, 64 bits) arrays");
    expect_reject("{'descr': '<q9', 'fortran_order': False, 'shape': (1,), }", f, 16,
                  "dtype '<q9' is not supported; save bool, integer (8 to 64 bits) or float (16, 32, 64 bits) arrays");
    expect_reject("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", f, 4,
                  "dtype is a structured (record) dtype; save bool, integer (8 to 64 bits) or float (16, 32, 64 bits) arrays");
    expect_reject("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", f, 8,
                  "dtype '>f4' is big-endian; save it little-endian (a.astype('<f4'))");
}
END_TEST

START_TEST(rejects_numpy_files_it_cannot_use) {
    MtArray *a;
    char want[1200];
    ck_assert_int_eq(mt_npy_read(data("f64_2.npy"), &a, err, sizeof err), MT_OK);
    ck_assert_int_eq(a->dtype, MT_DT_F64);
    mt_array_free(a);
    ck_assert_int_eq(mt_npy_read(data("c64_2.npy"), &a, err, sizeof err), MT_ERR_USAGE);
    snprintf(want, sizeof want, "%s: dtype '<c8' (complex64) is not supported; save bool, integer (8 to 64 bits) or float (16, 32, 64 bits) arrays",
             data("c64_2.npy"));
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(mt_npy_read(data("i32_big_endian.npy"), &a, err, sizeof err), MT_ERR_USAGE);
    snprintf(want, sizeof want, "%s: dtype '>i4' is big-endian; save it little-endian (a.astype('<i4'))",
             data("i32_big_endian.npy"));
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(mt_npy_read(data("f32_fortran.npy"), &a, err, sizeof err), MT_ERR_USAGE);
    snprintf(want, sizeof want, "%s: fortran_order is True; save a C-ordered array (np.ascontiguousarray(a))",
             data("f32_fortran.npy"));
    ck_assert_str_eq(err, want);
}
END_TEST

START_TEST(rejects_bad_shapes) {
    float f[4] = {0};
    expect_reject("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4), }", f, 16,
                  "shape (4294967296, 4294967296, 4) is too large (its size overflows)");
    expect_reject("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", f, 16,
                  "shape dimension 99999999999999999999 is too large");
    expect_reject("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 1, 1), }", f, 4,
                  "shape has more than 8 dimensions");
    expect_reject("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3), }", f, 4,
                  "shape has a negative dimension -3");
}
END_TEST

START_TEST(rejects_bad_headers) {
    float f[4] = {0};
    expect_reject("{'descr': '<f4', 'shape': (2,), }", f, 8, "header lacks the 'fortran_order' key");
    expect_reject("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", f, 8,
                  "unexpected header key 'x' (a .npy header holds exactly 'descr', 'fortran_order' and 'shape')");
    expect_reject("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", f, 8,
                  "header key 'descr' appears twice");
    expect_reject("{'descr' '<f4', 'fortran_order': False, 'shape': (2,), }", f, 8,
                  "malformed header: expected ':' at column 10: {'descr' '<f4', 'fortran_order': False, 'shape': (2,), }");
    expect_reject("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), }", f, 8,
                  "malformed header: expected True or False for 'fortran_order' at column 35: "
                  "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), }");
    expect_reject("{'descr': '<f4', 'fortran_order': False, 'shape': [2], }", f, 8,
                  "malformed header: expected a tuple for 'shape' at column 51: "
                  "{'descr': '<f4', 'fortran_order': False, 'shape': [2], }");
    expect_reject("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x", f, 8,
                  "malformed header: unexpected text after the dict at column 59: "
                  "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x");
}
END_TEST

/* A NUL inside a header string once cut it short: '<f4\0<f8' read as float32. */
START_TEST(rejects_a_nul_in_the_header) {
    float f[4] = {0};
    static const char dict[] = "{'descr': '<f4\0<f8', 'fortran_order': False, 'shape': (2,), }";
    unsigned char buf[512];
    size_t len = sizeof dict - 1, total = (10 + len + 1 + 63) / 64 * 64;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)((total - 10) & 0xff);
    buf[9] = (unsigned char)((total - 10) >> 8);
    memcpy(buf + 10, dict, len);
    memset(buf + 10 + len, ' ', total - 10 - len);
    buf[total - 1] = '\n';
    memcpy(buf + total, f, 8);
    put(tmp("nul.npy"), buf, total + 8);
    MtArray *a = NULL;
    ck_assert_int_eq(mt_npy_read(tmp("nul.npy"), &a, err, sizeof err), MT_ERR_USAGE);
    ck_assert_ptr_null(a);
    char want[600];
    snprintf(want, sizeof want,
             "%s: the header holds a NUL byte (at byte 14 of its text); a .npy header is printable text (corrupt file?)",
             tmp("nul.npy"));
    ck_assert_str_eq(err, want);
}
END_TEST

/* A FIFO or a device is refused at once; reading one would block or never end. */
START_TEST(rejects_fifos_and_devices_without_blocking) {
    MtArray *a;
    MtNpyInfo info;
    ck_assert_int_eq(mkfifo(tmp("f.npy"), 0600), 0);
    ck_assert_int_eq(mt_npy_read(tmp("f.npy"), &a, err, sizeof err), MT_ERR_IO);
    char want[600];
    snprintf(want, sizeof want, "%s: is a FIFO (named pipe), not a regular file", tmp("f.npy"));
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(mt_npy_read_header(tmp("f.npy"), &info, err, sizeof err), MT_ERR_IO);
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(mt_npy_read("/dev/zero", &a, err, sizeof err), MT_ERR_IO);
    ck_assert_str_eq(err, "/dev/zero: is a character device, not a regular file");
}
END_TEST

START_TEST(rejects_truncated_data) {
    float f[4] = {0};
    expect_reject("{'descr': '<f4', 'fortran_order': False, 'shape': (1000,), }", f, 16,
                  "truncated data: shape (1000,) float32 needs 4000 bytes, the file holds 16");
}
END_TEST

START_TEST(rejects_bad_magic_version_and_short_files) {
    MtArray *a;
    char want[600];
    PUT("m.npy", "PK\x03\x04 this is a zip");
    ck_assert_int_eq(mt_npy_read(tmp("m.npy"), &a, err, sizeof err), MT_ERR_USAGE);
    snprintf(want, sizeof want, "%s: not a .npy file (bad magic)", tmp("m.npy"));
    ck_assert_str_eq(err, want);

    PUT("v.npy", "\x93NUMPY\x04\x00\x10\x00\x00\x00");
    ck_assert_int_eq(mt_npy_read(tmp("v.npy"), &a, err, sizeof err), MT_ERR_USAGE);
    snprintf(want, sizeof want, "%s: .npy format version 4.0 is not supported (1.0, 2.0 and 3.0 are)", tmp("v.npy"));
    ck_assert_str_eq(err, want);

    PUT("t.npy", "\x93NUMPY\x01");
    ck_assert_int_eq(mt_npy_read(tmp("t.npy"), &a, err, sizeof err), MT_ERR_USAGE);
    snprintf(want, sizeof want, "%s: truncated header", tmp("t.npy"));
    ck_assert_str_eq(err, want);

    PUT("h.npy", "\x93NUMPY\x01\x00\x76\x00{'descr'");
    ck_assert_int_eq(mt_npy_read(tmp("h.npy"), &a, err, sizeof err), MT_ERR_USAGE);
    snprintf(want, sizeof want, "%s: truncated header (8 of 118 bytes)", tmp("h.npy"));
    ck_assert_str_eq(err, want);

    PUT("l.npy", "\x93NUMPY\x02\x00\xff\xff\xff\x7f");
    ck_assert_int_eq(mt_npy_read(tmp("l.npy"), &a, err, sizeof err), MT_ERR_USAGE);
    snprintf(want, sizeof want, "%s: header length 2147483647 is implausible (corrupt file?)", tmp("l.npy"));
    ck_assert_str_eq(err, want);
}
END_TEST

START_TEST(missing_file_is_an_io_error) {
    MtArray *a;
    MtNpyInfo info;
    ck_assert_int_eq(mt_npy_read(tmp("absent.npy"), &a, err, sizeof err), MT_ERR_IO);
    char want[600];
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", tmp("absent.npy"));
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(mt_npy_read_header(tmp("absent.npy"), &info, err, sizeof err), MT_ERR_IO);
    ck_assert_str_eq(err, want);
}
END_TEST

START_TEST(read_header_reports_layout) {
    MtNpyInfo info;
    ck_assert_int_eq(mt_npy_read_header(data("i32_5.npy"), &info, err, sizeof err), MT_OK);
    ck_assert_int_eq(info.dtype, MT_DT_I32);
    ck_assert_int_eq(info.ndim, 1);
    ck_assert_int_eq(info.shape[0], 5);
    ck_assert_int_eq(info.version, 1);
    ck_assert_uint_eq(info.data_offset, 128);
}
END_TEST

static Suite *npy_suite(void) {
    Suite *s = suite_create("npy");
    TCase *t = tcase_create("npy");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, dtype_names_round_trip);
    tcase_add_test(t, array_new_is_zeroed_and_aligned);
    tcase_add_test(t, array_size_rejects_overflow);
    tcase_add_test(t, write_matches_numpy_header_by_hand);
    tcase_add_test(t, write_matches_files_numpy_wrote);
    tcase_add_test(t, write_leaves_no_temporary_behind);
    tcase_add_test(t, write_into_missing_folder_fails_cleanly);
    tcase_add_test(t, round_trip_every_dtype);
    tcase_add_test(t, round_trip_scalar_and_empty);
    tcase_add_test(t, reads_numpy_files_of_each_version);
    tcase_add_test(t, header_dict_is_parsed_not_matched);
    tcase_add_test(t, bool_bytes_are_normalised_and_any_order_accepted);
    tcase_add_test(t, trailing_bytes_are_ignored_like_np_load);
    tcase_add_test(t, rejects_unsupported_dtypes);
    tcase_add_test(t, rejects_numpy_files_it_cannot_use);
    tcase_add_test(t, rejects_bad_shapes);
    tcase_add_test(t, rejects_bad_headers);
    tcase_add_test(t, rejects_a_nul_in_the_header);
    tcase_add_test(t, rejects_fifos_and_devices_without_blocking);
    tcase_add_test(t, rejects_truncated_data);
    tcase_add_test(t, rejects_bad_magic_version_and_short_files);
    tcase_add_test(t, missing_file_is_an_io_error);
    tcase_add_test(t, read_header_reports_layout);
    suite_add_tcase(s, t);
    return s;
}

int main(void) {
    SRunner *sr = srunner_create(npy_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
