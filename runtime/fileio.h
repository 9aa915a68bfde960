/* fileio.h: reading inputs and writing outputs without losing data.
 *
 * Every file mytriton reads or writes goes through here, so the rules
 * hold everywhere (the CLI's commands, `run --dump`, .npy files, the
 * kernel cache):
 *
 * Reading. An input must be a regular file (standard input may be a pipe)
 * no larger than the limit of its kind (MtFileKind, the table in
 * fileio.c, docs/cli.md): a folder, a FIFO, a device or /dev/zero is
 * refused at once with a message naming the file and what it is, never
 * read for ever. Files are opened with O_NONBLOCK and checked with fstat
 * before the first read, so a FIFO cannot block the open either.
 *
 * Writing (MtOut). Where the output path is a regular file or does not
 * exist yet, the bytes go to a temporary file in the same folder
 * (NAME.tmp.PID.XXXXXX), which is flushed to disk and renamed over NAME:
 * readers see the old file or the whole new one, and a failed write
 * leaves the old file as it was. A symlink is followed: its target is
 * replaced that way and the link stays a link. Special files (/dev/null,
 * a FIFO, a terminal) are written in place, never replaced. A folder is
 * refused. An output that is one of the command's inputs (the same device
 * and inode, whatever the path says: `compile k.py -o k.py`, a symlink to
 * the source, `--dump` into the folder of an `npy` argument) is refused
 * before anything is written.
 *
 * Temporary files of a process that died between write and rename stay
 * behind; mt_tmp_sweep() removes the stale ones of a folder.
 *
 * Errors come back as MT_ERR_IO (the file cannot be read or written as
 * asked) or MT_ERR_NOMEM, with a message that starts with the path:
 *   "src: is a directory"
 *   "big.py: is 23.0 MiB; a kernel source may be at most 8 MiB"
 *   "k.py: refusing to overwrite k.py, an input of this command"
 */
#ifndef MT_RUNTIME_FILEIO_H
#define MT_RUNTIME_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mytriton/mytriton.h"

/* What a file is read as; each kind has a size limit (mt_file_limit). */
typedef enum MtFileKind {
    MT_FILE_SOURCE,           /* a kernel's .py file */
    MT_FILE_SPEC,             /* a launch spec */
    MT_FILE_NPY,              /* a .npy array */
    MT_FILE_CACHE,            /* a kernel cache entry */
    MT_FILE_BASELINE,         /* a `check` baseline */
    MT_FILE_PTX,              /* PTX made earlier (`run --ptx`) */
    MT_FILE_KIND_COUNT
} MtFileKind;

/* The largest file of a kind, in bytes, and its name in messages
 * ("a kernel source"). */
uint64_t mt_file_limit(MtFileKind kind);
const char *mt_file_kind_name(MtFileKind kind);

/* Open `path` for reading as a `kind` ("-": standard input, which may be
 * a pipe or a terminal; its size is checked while reading). On MT_OK *fd
 * is open and blocking, *size the file's size (0 for standard input). */
MtStatus mt_file_open(const char *path, MtFileKind kind, int *fd, uint64_t *size, char *err, size_t errlen);

/* Read a whole file (see mt_file_open) into a malloc'ed buffer with a NUL
 * after the last byte. */
MtStatus mt_file_read(const char *path, MtFileKind kind, char **text, size_t *len, char *err, size_t errlen);

/* The identity of a file: its device and inode. */
typedef struct MtFileId {
    uint64_t dev, ino;
} MtFileId;

/* The inputs of a command, which its outputs must not replace. */
typedef struct MtFileSet {
    MtFileId *ids;
    char **paths;             /* as given, for messages */
    size_t n, cap;
} MtFileSet;

/* Add `path` (nothing happens for a file that does not exist, standard
 * input or a special file). false only when out of memory. */
bool mt_fileset_add(MtFileSet *s, const char *path);
/* The path of the member that `path` is (same device and inode), or NULL. */
const char *mt_fileset_find(const MtFileSet *s, const char *path);
void mt_fileset_free(MtFileSet *s);

/* One output file being written. */
typedef struct MtOut {
    int fd;
    char *path;               /* what is being replaced or written: the symlink's target for a symlink */
    char *tmp;                /* the temporary file, or NULL when writing in place */
    int error;                /* the first errno of a write, 0 if none */
} MtOut;

/* Start writing `path`. `inputs` (may be NULL) are files it must not
 * replace. A new file gets the permissions 0666 & ~umask, as a shell
 * redirection gives; a replaced file keeps its own. */
MtStatus mt_out_open(MtOut *o, const char *path, const MtFileSet *inputs, char *err, size_t errlen);
/* Start writing `path`, a file of mytriton's own (a cache entry): always
 * through a temporary file renamed over the name, so whatever is there (a
 * FIFO, a symlink, a damaged entry) is replaced, never written through. */
MtStatus mt_out_open_private(MtOut *o, const char *path, char *err, size_t errlen);
/* Append bytes; errors are remembered and reported by mt_out_close. */
void mt_out_write(MtOut *o, const void *data, size_t n);
/* Finish: flush, close and rename into place. On failure the temporary
 * file is removed and the old file left as it was. */
MtStatus mt_out_close(MtOut *o, char *err, size_t errlen);
/* Give up: remove the temporary file (an in-place write stays as far as it got). */
void mt_out_abort(MtOut *o);

/* mt_out_open + mt_out_write + mt_out_close. */
MtStatus mt_file_write(const char *path, const void *data, size_t n, const MtFileSet *inputs, char *err,
                       size_t errlen);

/* Remove the stale temporary files (NAME.tmp.PID.XXXXXX) of folder `dir`:
 * those more than 10 minutes old whose process is no longer running
 * here, and any more than a day old (process ids are reused). Returns how
 * many were removed; a folder that cannot be read is no error. */
size_t mt_tmp_sweep(const char *dir);

/* mkdir -p: create `dir` and the folders above it that are missing, with
 * `mode` (the umask applies). MT_ERR_IO with a message naming the folder
 * that could not be made. */
MtStatus mt_make_dirs(const char *dir, int mode, char *err, size_t errlen);

/* Whether `a` and `b` name the same existing folder (or file). */
bool mt_same_file(const char *a, const char *b);

#endif
