/* fuzz_lsp.c: the language server's framing and message loop.
 *
 * The input is what a client writes to the server's standard input:
 * Content-Length headers, JSON-RPC bodies, anything. It is served from a
 * memory file through the server's public entry (mt_lsp_serve, mytriton/lsp.h)
 * exactly as `mytriton lsp` serves a pipe, with the replies going to
 * /dev/null; the loop must end (end of input, `exit`) without a crash,
 * a sanitizer report or a leak, however the bytes are framed. Documents
 * the input opens are compiled, hovered, completed and so on, so the
 * whole analysis runs under the fuzzer too. */
#define _GNU_SOURCE /* memfd_create */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "mytriton/lsp.h"

static int devnull = -1;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (devnull < 0)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 17)
        return 0;
    int in = memfd_create("fuzz.rpc", MFD_CLOEXEC);
    if (in < 0)
        return 0;
    if (write(in, data, size) == (ssize_t)size && lseek(in, 0, SEEK_SET) == 0) {
        MtLspOptions opt = {.rules_url = "file:///rules/"};
        mt_lsp_serve(in, devnull, &opt);
    }
    close(in);
    return 0;
}
