/* check_fileio.c: reading inputs and writing outputs without losing data
 * (runtime/fileio.h). Every refusal is checked by its exact message, and
 * every special file by what it still is afterwards. The FIFO tests would
 * block for ever (and time out) if an open or a read ever waited on a
 * FIFO. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../test_util.h"
#include "fileio.h"

static char err[1024];

static void setup(void)
{
    test_tmp_setup("mt_fileio");
    err[0] = 0;
}

static void teardown(void) { test_tmp_teardown(); }

static const char *tmp(const char *name) { return test_tmp(name); }

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static char *slurp(const char *path)
{
    char *text;
    size_t len;
    ck_assert_int_eq(mt_file_read(path, MT_FILE_SOURCE, &text, &len, err, sizeof err), MT_OK);
    return text;
}

static char *expect_msg(const char *path, const char *what)
{
    static char want[1024];
    snprintf(want, sizeof want, "%s: %s", path, what);
    return want;
}

/* ---- reading --------------------------------------------------------------- */

START_TEST(reads_a_regular_file_exactly)
{
    put(tmp("a.py"), "x = 1\n");
    char *text;
    size_t len;
    ck_assert_int_eq(mt_file_read(tmp("a.py"), MT_FILE_SOURCE, &text, &len, err, sizeof err), MT_OK);
    ck_assert_uint_eq(len, 6);
    ck_assert_str_eq(text, "x = 1\n");
    free(text);
    put(tmp("empty.py"), "");
    ck_assert_int_eq(mt_file_read(tmp("empty.py"), MT_FILE_SOURCE, &text, &len, err, sizeof err), MT_OK);
    ck_assert_uint_eq(len, 0);
    ck_assert_str_eq(text, "");
    free(text);
}
END_TEST

START_TEST(refuses_missing_folder_fifo_and_devices)
{
    char *text = (char *)1;
    size_t len;
    ck_assert_int_eq(mt_file_read(tmp("no.py"), MT_FILE_SOURCE, &text, &len, err, sizeof err), MT_ERR_IO);
    ck_assert_ptr_null(text);
    ck_assert_str_eq(err, expect_msg(tmp("no.py"), "cannot open: No such file or directory"));

    ck_assert_int_eq(mt_file_read(test_tmpdir, MT_FILE_SPEC, &text, &len, err, sizeof err), MT_ERR_IO);
    ck_assert_str_eq(err, expect_msg(test_tmpdir, "is a directory"));

    /* No writer: an open without O_NONBLOCK, or a read, would wait for ever. */
    ck_assert_int_eq(mkfifo(tmp("fifo.py"), 0600), 0);
    ck_assert_int_eq(mt_file_read(tmp("fifo.py"), MT_FILE_SOURCE, &text, &len, err, sizeof err), MT_ERR_IO);
    ck_assert_str_eq(err, expect_msg(tmp("fifo.py"), "is a FIFO (named pipe), not a regular file"));

    ck_assert_int_eq(mt_file_read("/dev/zero", MT_FILE_NPY, &text, &len, err, sizeof err), MT_ERR_IO);
    ck_assert_str_eq(err, "/dev/zero: is a character device, not a regular file");
}
END_TEST

START_TEST(refuses_files_over_the_limit_of_their_kind)
{
    ck_assert_uint_eq(mt_file_limit(MT_FILE_SOURCE), 8u << 20);
    ck_assert_uint_eq(mt_file_limit(MT_FILE_SPEC), 4u << 20);
    /* Sparse files: the size is what counts, nothing is read. */
    int fd = open(tmp("big.py"), O_WRONLY | O_CREAT, 0600);
    ck_assert_int_eq(ftruncate(fd, (8 << 20) + 1), 0);
    close(fd);
    char *text;
    size_t len;
    ck_assert_int_eq(mt_file_read(tmp("big.py"), MT_FILE_SOURCE, &text, &len, err, sizeof err), MT_ERR_IO);
    ck_assert_str_eq(err, expect_msg(tmp("big.py"), "is 8.0 MiB (8388609 bytes); a kernel source may be at most 8 MiB"));
    fd = open(tmp("huge.json"), O_WRONLY | O_CREAT, 0600);
    ck_assert_int_eq(ftruncate(fd, (off_t)23 << 20), 0);
    close(fd);
    ck_assert_int_eq(mt_file_read(tmp("huge.json"), MT_FILE_SPEC, &text, &len, err, sizeof err), MT_ERR_IO);
    ck_assert_str_eq(err, expect_msg(tmp("huge.json"), "is 23 MiB; a launch spec may be at most 4 MiB"));
    /* Exactly at the limit is fine. */
    fd = open(tmp("edge.py"), O_WRONLY | O_CREAT, 0600);
    ck_assert_int_eq(ftruncate(fd, 8 << 20), 0);
    close(fd);
    ck_assert_int_eq(mt_file_read(tmp("edge.py"), MT_FILE_SOURCE, &text, &len, err, sizeof err), MT_OK);
    ck_assert_uint_eq(len, 8u << 20);
    free(text);
}
END_TEST

/* Standard input has no size up front: the limit applies while reading. */
START_TEST(standard_input_is_limited_while_read)
{
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    pid_t child = fork();
    if (child == 0) {
        close(p[0]);
        static char block[1 << 16];
        memset(block, 'x', sizeof block);
        for (int i = 0; i < 200; i++) /* 12.5 MiB */
            if (write(p[1], block, sizeof block) < 0)
                break;
        _exit(0);
    }
    close(p[1]);
    int saved = dup(0);
    dup2(p[0], 0);
    close(p[0]);
    char *text;
    size_t len;
    MtStatus st = mt_file_read("-", MT_FILE_SOURCE, &text, &len, err, sizeof err);
    dup2(saved, 0);
    close(saved);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    ck_assert_int_eq(st, MT_ERR_IO);
    ck_assert_str_eq(err, "standard input: is more than 8 MiB, the most a kernel source may be");
}
END_TEST

/* ---- writing --------------------------------------------------------------- */

START_TEST(new_file_appears_whole_with_umask_permissions)
{
    mode_t old = umask(027);
    ck_assert_int_eq(mt_file_write(tmp("out.txt"), "hello\n", 6, NULL, err, sizeof err), MT_OK);
    umask(old);
    char *text = slurp(tmp("out.txt"));
    ck_assert_str_eq(text, "hello\n");
    free(text);
    struct stat st;
    ck_assert_int_eq(stat(tmp("out.txt"), &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0640);
}
END_TEST

START_TEST(replaced_file_keeps_its_permissions)
{
    put(tmp("out.txt"), "old");
    ck_assert_int_eq(chmod(tmp("out.txt"), 0604), 0);
    ck_assert_int_eq(mt_file_write(tmp("out.txt"), "new", 3, NULL, err, sizeof err), MT_OK);
    char *text = slurp(tmp("out.txt"));
    ck_assert_str_eq(text, "new");
    free(text);
    struct stat st;
    ck_assert_int_eq(stat(tmp("out.txt"), &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0604);
}
END_TEST

START_TEST(symlink_stays_a_link_and_its_target_is_written)
{
    put(tmp("target.txt"), "old");
    ck_assert_int_eq(symlink("target.txt", tmp("link.txt")), 0);
    ck_assert_int_eq(mt_file_write(tmp("link.txt"), "new", 3, NULL, err, sizeof err), MT_OK);
    struct stat st;
    ck_assert_int_eq(lstat(tmp("link.txt"), &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    char *text = slurp(tmp("target.txt"));
    ck_assert_str_eq(text, "new");
    free(text);
    /* A dangling link: the target is created through it. */
    ck_assert_int_eq(symlink("made.txt", tmp("dangling.txt")), 0);
    ck_assert_int_eq(mt_file_write(tmp("dangling.txt"), "made", 4, NULL, err, sizeof err), MT_OK);
    ck_assert_int_eq(lstat(tmp("dangling.txt"), &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    text = slurp(tmp("made.txt"));
    ck_assert_str_eq(text, "made");
    free(text);
}
END_TEST

static void *drain(void *path)
{
    static char got[64];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(got, 1, sizeof got - 1, f) : 0;
    got[n] = 0;
    if (f)
        fclose(f);
    return got;
}

START_TEST(special_files_are_written_in_place)
{
    ck_assert_int_eq(mkfifo(tmp("fifo"), 0600), 0);
    char path[256];
    snprintf(path, sizeof path, "%s", tmp("fifo"));
    pthread_t reader;
    ck_assert_int_eq(pthread_create(&reader, NULL, drain, path), 0);
    ck_assert_int_eq(mt_file_write(path, "through", 7, NULL, err, sizeof err), MT_OK);
    void *got;
    pthread_join(reader, &got);
    ck_assert_str_eq(got, "through");
    struct stat st;
    ck_assert_int_eq(lstat(path, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
    /* A character device stays one; /dev/full reports its error. */
    ck_assert_int_eq(mt_file_write("/dev/full", "x", 1, NULL, err, sizeof err), MT_ERR_IO);
    ck_assert_str_eq(err, "/dev/full: cannot write (write): No space left on device");
    ck_assert_int_eq(lstat("/dev/full", &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
}
END_TEST

START_TEST(folder_is_refused)
{
    ck_assert_int_eq(mt_file_write(test_tmpdir, "x", 1, NULL, err, sizeof err), MT_ERR_IO);
    ck_assert_str_eq(err, expect_msg(test_tmpdir, "is a directory"));
}
END_TEST

START_TEST(inputs_are_never_replaced)
{
    put(tmp("k.py"), "source");
    ck_assert_int_eq(symlink("k.py", tmp("alias.py")), 0);
    ck_assert_int_eq(link(tmp("k.py"), tmp("hard.py")), 0);
    MtFileSet in = {0};
    ck_assert(mt_fileset_add(&in, tmp("k.py")));
    ck_assert(mt_fileset_add(&in, tmp("not-there.py"))); /* ignored */
    ck_assert(mt_fileset_add(&in, "-"));                  /* ignored */
    ck_assert_uint_eq(in.n, 1);
    char want[600];
    static const char *const names[] = {"k.py", "alias.py", "hard.py"};
    for (int i = 0; i < 3; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s", tmp(names[i]));
        ck_assert_int_eq(mt_file_write(path, "output", 6, &in, err, sizeof err), MT_ERR_IO);
        snprintf(want, sizeof want, "%s: refusing to overwrite %s, an input of this command", path, tmp("k.py"));
        ck_assert_str_eq(err, want);
    }
    char *text = slurp(tmp("k.py"));
    ck_assert_str_eq(text, "source");
    free(text);
    ck_assert_int_eq(mt_file_write(tmp("other.txt"), "output", 6, &in, err, sizeof err), MT_OK);
    mt_fileset_free(&in);
}
END_TEST

START_TEST(failed_write_keeps_the_old_file)
{
    put(tmp("keep.txt"), "old");
    MtOut o;
    ck_assert_int_eq(mt_out_open(&o, tmp("keep.txt"), NULL, err, sizeof err), MT_OK);
    mt_out_write(&o, "half", 4);
    mt_out_abort(&o);
    char *text = slurp(tmp("keep.txt"));
    ck_assert_str_eq(text, "old");
    free(text);
    /* and leaves no temporary file */
    DIR *d = opendir(test_tmpdir);
    for (struct dirent *e; (e = readdir(d));)
        ck_assert_msg(!strstr(e->d_name, ".tmp."), "left %s", e->d_name);
    closedir(d);
}
END_TEST

/* ---- stale temporary files -------------------------------------------------- */

static void put_aged(const char *name, long age_s)
{
    put(tmp(name), "partial");
    struct timeval tv[2];
    gettimeofday(&tv[0], NULL);
    tv[0].tv_sec -= age_s;
    tv[1] = tv[0];
    ck_assert_int_eq(utimes(tmp(name), tv), 0);
}

static bool exists(const char *name) { return access(tmp(name), F_OK) == 0; }

START_TEST(stale_temporary_files_are_swept)
{
    /* A process id that is surely not running: a child that has exited. */
    pid_t dead = fork();
    if (dead == 0)
        _exit(0);
    waitpid(dead, NULL, 0);
    char name[128];
    long me = (long)getpid();
    snprintf(name, sizeof name, "a.npy.tmp.%ld.abc123", (long)dead);
    put_aged(name, 20 * 60); /* dead writer, 20 minutes: stale */
    char dead_old[128];
    snprintf(dead_old, sizeof dead_old, "%s", name);
    snprintf(name, sizeof name, "b.npy.tmp.%ld.abc123", (long)dead);
    put_aged(name, 30); /* dead writer, 30 s: maybe still being renamed */
    char dead_new[128];
    snprintf(dead_new, sizeof dead_new, "%s", name);
    snprintf(name, sizeof name, "c.npy.tmp.%ld.abc123", me);
    put_aged(name, 20 * 60); /* a live writer (this one) */
    char live[128];
    snprintf(live, sizeof live, "%s", name);
    snprintf(name, sizeof name, "d.npy.tmp.%ld.abc123", me);
    put_aged(name, 2 * 24 * 3600); /* two days: stale whatever the id */
    char ancient[128];
    snprintf(ancient, sizeof ancient, "%s", name);
    put_aged("e.tmp.notes", 3 * 24 * 3600); /* not one of ours */
    put_aged("f.npy", 3 * 24 * 3600);

    ck_assert_uint_eq(mt_tmp_sweep(test_tmpdir), 2);
    ck_assert(!exists(dead_old));
    ck_assert(exists(dead_new));
    ck_assert(exists(live));
    ck_assert(!exists(ancient));
    ck_assert(exists("e.tmp.notes"));
    ck_assert(exists("f.npy"));
    ck_assert_uint_eq(mt_tmp_sweep(tmp("no-such-folder")), 0);
}
END_TEST

START_TEST(same_file_sees_through_links)
{
    ck_assert_int_eq(symlink(test_tmpdir, tmp("alias")), 0);
    ck_assert(mt_same_file(test_tmpdir, tmp("alias")));
    ck_assert(!mt_same_file(test_tmpdir, "/"));
    ck_assert(!mt_same_file(tmp("none"), tmp("none")));
}
END_TEST

static Suite *fileio_suite(void)
{
    Suite *s = suite_create("fileio");
    TCase *tc = tcase_create("fileio");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, reads_a_regular_file_exactly);
    tcase_add_test(tc, refuses_missing_folder_fifo_and_devices);
    tcase_add_test(tc, refuses_files_over_the_limit_of_their_kind);
    tcase_add_test(tc, standard_input_is_limited_while_read);
    tcase_add_test(tc, new_file_appears_whole_with_umask_permissions);
    tcase_add_test(tc, replaced_file_keeps_its_permissions);
    tcase_add_test(tc, symlink_stays_a_link_and_its_target_is_written);
    tcase_add_test(tc, special_files_are_written_in_place);
    tcase_add_test(tc, folder_is_refused);
    tcase_add_test(tc, inputs_are_never_replaced);
    tcase_add_test(tc, failed_write_keeps_the_old_file);
    tcase_add_test(tc, stale_temporary_files_are_swept);
    tcase_add_test(tc, same_file_sees_through_links);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(fileio_suite());
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
