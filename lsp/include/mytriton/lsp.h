/* mytriton/lsp.h: the mytriton language server as a library (mt_lsp), run by
 * `mytriton lsp` and by the benchmark over pipes. */
#ifndef MT_LSP_H
#define MT_LSP_H

typedef struct MtLspOptions {
    /* Base URI of the rule pages (docs/rules/), ending in '/', used for
     * each diagnostic's codeDescription; NULL: diagnostics carry none
     * unless the client's settings give one. */
    const char *rules_url;
    /* Another language server to run beside mytriton as one session (the
     * user's Python server, for clients that run one server per buffer):
     * its argv, NULL-terminated; NULL: none. */
    char *const *with;
} MtLspOptions;

/* Serve LSP 3.17 on the two descriptors until `exit` or end of input.
 * Returns the process exit status the specification asks for: 0 after
 * shutdown + exit, 1 otherwise. */
int mt_lsp_serve(int in_fd, int out_fd, const MtLspOptions *opt);

#endif
