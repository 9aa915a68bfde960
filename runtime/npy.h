/* npy.h: host arrays and their .npy files.
 *
 * An MtArray is the host side of one kernel buffer argument: a dense,
 * C-ordered block of float32, int32 or bool elements. It is what the CPU
 * interpreter reads and writes, what the GPU runtime copies to and from the
 * device, and what `mytriton run` loads from and saves to NumPy's .npy
 * format, so a kernel's inputs can come from Python and its outputs go back.
 *
 * Contract:
 *  - The runtime is little-endian only (checked at compile time); element
 *    bytes are stored exactly as a .npy file holds them.
 *  - Every function reports failure as an MtStatus plus a message in the
 *    caller's buffer `err` (of `errlen` bytes, always NUL-terminated when
 *    errlen > 0) that names the file and the problem. Nothing prints,
 *    nothing exits, nothing keeps global state.
 */
#ifndef MT_RUNTIME_NPY_H
#define MT_RUNTIME_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fileio.h"
#include "mytriton/mytriton.h"

#define MT_ARRAY_MAX_DIMS 8
#define MT_ARRAY_ALIGN 64     /* data alignment: one cache line, any vector load */

/* Element types are the compiler's MtDtype (dtypes.def): every one of them,
 * stored as its .npy descriptor says ('<f2' float16, '<f4' float32, '<i8'
 * int64, '|u1' uint8, '|b1' bool as one byte 0 or 1, ...). numpy has no
 * bfloat16: a bf16 array is read from a float32 .npy (mt_array_to_bf16
 * rounds it) and written as one. */

typedef struct MtArray {
    MtDtype dtype;
    int ndim;                 /* 0 (a scalar) .. MT_ARRAY_MAX_DIMS */
    int64_t shape[MT_ARRAY_MAX_DIMS]; /* entries past ndim are 0 */
    int64_t numel;            /* product of shape (1 when ndim == 0) */
    size_t nbytes;            /* numel * element size */
    void *data;               /* owned; MT_ARRAY_ALIGN-aligned, never NULL, even when numel == 0 */
} MtArray;

/* numpy's name of a dtype: "float32", "int32", "bool"; "bfloat16" for bf16. */
const char *mt_dtype_name(MtDtype dt);
/* The dtype called `name` (one of the names above), or -1. */
int mt_dtype_from_name(const char *name);
/* Turn a float32 array into a bfloat16 one in place, rounding each value
 * to nearest even (MT_ERR_USAGE for another dtype). */
MtStatus mt_array_to_bf16(MtArray *a, char *err, size_t errlen);
/* Bytes per element. */
size_t mt_dtype_size(MtDtype dt);

/* Python's repr() of v: the fewest significant digits that read back as v,
 * fixed notation for exponents -4..15 and scientific beyond, always
 * recognisably a float ("0.1", "1000.0", "1e-05", "-0.0", "nan", "-inf").
 * With f32, the fewest digits that read back as the float32 nearest v (how
 * numpy prints float32 values). Writes at most 32 bytes; returns out. */
char *mt_format_float(char out[32], double v, bool f32);

/* Element count and byte size of a shape. Returns false when ndim is out of
 * 0..MT_ARRAY_MAX_DIMS, a dimension is negative, or the sizes overflow
 * (numel beyond INT64_MAX or nbytes beyond PTRDIFF_MAX); shape may be NULL
 * when ndim == 0. */
bool mt_array_size(MtDtype dt, int ndim, const int64_t *shape, int64_t *numel, size_t *nbytes);

/* A zero-filled array. NULL when mt_array_size() rejects the shape or memory
 * runs out; callers that need to tell those apart check the shape first. */
MtArray *mt_array_new(MtDtype dt, int ndim, const int64_t *shape);
void mt_array_free(MtArray *a);

/* What a .npy header says, without the data. */
typedef struct MtNpyInfo {
    MtDtype dtype;
    int ndim;
    int64_t shape[MT_ARRAY_MAX_DIMS];
    int version;              /* format major version: 1, 2 or 3 */
    size_t data_offset;       /* bytes before the first element */
} MtNpyInfo;

/* Read the header of `path` and check it describes an array this runtime
 * accepts (format 1.0, 2.0 or 3.0; a dtype of dtypes.def, little-endian; C order;
 * at most 8 dimensions; a size that fits; a header of printable text, no
 * NUL byte) and that the file holds all of its data. MT_ERR_IO when the
 * file cannot be opened or read, or is not a regular file within the
 * .npy size limit (fileio.h); MT_ERR_USAGE when its contents are not such
 * an array. */
MtStatus mt_npy_read_header(const char *path, MtNpyInfo *info, char *err, size_t errlen);

/* Read a whole .npy file. Bool elements are normalised to 0 or 1. Bytes
 * after the data are ignored, as np.load ignores them (a file written by
 * several np.save calls holds several arrays; this reads the first). On
 * failure *out is NULL; MT_ERR_NOMEM when the array cannot be allocated. */
MtStatus mt_npy_read(const char *path, MtArray **out, char *err, size_t errlen);

/* Write `a` as format 1.0, byte for byte what np.save writes for the same
 * array (sorted keys, header padded with spaces to a multiple of 64 bytes,
 * ended by '\n'). With at most 8 dimensions
 * the header never outgrows 1.0's 65535 bytes, so 2.0 is never needed.
 * The file appears atomically (fileio.h: a temporary file in the same
 * folder, fsync'ed and renamed over `path`), so readers see the old file
 * or the complete new one, never part of one; `inputs` (may be NULL) are
 * files it must not replace. */
MtStatus mt_npy_write(const char *path, const MtArray *a, const MtFileSet *inputs, char *err, size_t errlen);

#endif
