/* fuzz.h: what the fuzz targets share.
 *
 * Each target (fuzz_<name>.c) defines LLVMFuzzerTestOneInput, the entry
 * libFuzzer calls with one input, and LLVMFuzzerInitialize. The same
 * file is linked two ways (tests/fuzz/CMakeLists.txt):
 *   - with libFuzzer (-fsanitize=fuzzer, clang, MT_FUZZ=ON): the fuzzer,
 *     run by `make fuzz` and CI (docs/testing.md);
 *   - with replay.c (any compiler, every build): a plain program that
 *     feeds it every file of the seed corpus and of the regression inputs,
 *     which the normal test suite runs.
 *
 * The watchdog bounds the work one input may cause: it cancels the
 * compilation context (mt_ctx_cancel) once the input has run for the
 * given time, and the compiler and the interpreter stop at their next
 * check. An input that loops for ever in the interpreter is then a
 * cancelled run, not a fuzzer timeout, while one that hangs where
 * nothing checks still is (that is a bug worth finding). */
#ifndef MT_TESTS_FUZZ_H
#define MT_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "mytriton/mytriton.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Cancel `c` after `ms` milliseconds unless fuzz_unwatch() comes first. */
void fuzz_watch(MtCtx *c, unsigned ms);
void fuzz_unwatch(void);

/* Run a compiled kernel (compiled through MT_STAGE_SSA at least) on a
 * tiny grid with small zero-based buffers for its pointer parameters and
 * small values for its scalars: a fault is a diagnostic, never a crash. */
void fuzz_interpret(MtCtx *c, MtCompiled *k);

#endif
