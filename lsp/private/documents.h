/* documents.h: the open documents, their text, and LSP positions.
 *
 * A document owns its text (the client's latest version after every
 * incremental edit), a line table, one MtCtx holding the last analysis
 * of that text (module, compiled kernels, diagnostics), and the last good
 * analysis (fallback.c). LSP
 * positions are 0-based lines and characters counted in the negotiated
 * encoding: UTF-16 code units (the default) or bytes (UTF-8). A byte that
 * is not part of valid UTF-8 counts as one unit in either encoding, so
 * invalid text still maps both ways. */
#ifndef MT_LSP_DOCUMENTS_H
#define MT_LSP_DOCUMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mytriton/mytriton.h"

typedef enum PosEncoding { ENC_UTF16, ENC_UTF8 } PosEncoding;

/* A kernel compiled again through the MLIR backend, for hovers (mlir.c):
 * made on the first hover that asks for it, in a context of its own, and
 * kept with the analysis its kernel belongs to. */
typedef struct KernelMlir {
    MtCtx *ctx;               /* the compile's context (the analysed text parsed again), or NULL: not tried */
    MtCompiled *k;            /* NULL when the compile failed */
    int last_stage;           /* what it was compiled through: MT_STAGE_MLIR or MT_STAGE_MLIR_LLVM */
    const MtDiag *why;        /* its first error when it failed (E1001: the backend is unavailable), or NULL */
} KernelMlir;

/* One jit function of the analysed module. */
typedef struct Kernel {
    const MtKernelInfo *info;
    bool helper;              /* called by another jit function: compiled inlined, not alone */
    bool compiled;            /* mt_compile ran for it */
    MtStatus status;
    const MtDiscovery *disc;  /* where its specialisation came from (kernels only), or NULL */
    MtCompiled *k;            /* what the compile produced (may lack late stages), or NULL */
    /* When k stopped at an error before its SSA or layouts: the part of the
     * kernel before its first error, compiled on its own (mt_compile_prefix),
     * for hovers on the lines before it; else NULL. */
    MtCompiled *prefix;
    KernelMlir mlir;          /* its MLIR, when a hover asked for it */
} Kernel;

/* One analysis of a document's text: its context and what it holds. */
typedef struct Analysis {
    MtCtx *ctx;
    MtModule *m;
    Kernel *kernels;
    size_t nkernels;
} Analysis;

typedef struct Doc {
    char *uri;
    char *path;               /* local path of a file: URI, else the URI */
    char *text;               /* NUL-terminated */
    size_t len, cap;
    uint32_t *lines;          /* byte offset of each line start */
    uint32_t nlines, lines_cap;
    int64_t version;
    MtCtx *ctx;               /* the last analysis; reset before each one */
    MtModule *m;              /* NULL before the first analysis or when parsing failed hard */
    Kernel *kernels;
    size_t nkernels;
    Analysis good;            /* the last analysis where every kernel compiled to a typed tree (fallback.c) */
    bool map_valid;           /* positions on unchanged lines map between the text and good's */
    uint32_t map_prefix, map_suffix; /* bytes of unchanged whole lines at the start and at the end */
    size_t map_old_len;       /* length of good's text */
    bool dirty;               /* text or settings changed since the last analysis */
    bool published;           /* diagnostics of the last analysis were sent */
    char *config_error;       /* problem with the project file of the last analysis, or NULL */
} Doc;

typedef struct Docs {
    Doc **v;
    size_t n, cap;
} Docs;

Doc *mt_lsp_docs_open(Docs *ds, const char *uri, const char *text, size_t len, int64_t version);
Doc *mt_lsp_docs_find(const Docs *ds, const char *uri);
void mt_lsp_docs_close(Docs *ds, const char *uri);
void mt_lsp_docs_free(Docs *ds);

/* Replace bytes [off, end) with text (an incremental change); end < off
 * is treated as an empty range at off. */
bool mt_lsp_doc_edit(Doc *d, uint32_t off, uint32_t end, const char *text, size_t len);
bool mt_lsp_doc_set_text(Doc *d, const char *text, size_t len);

/* LSP position -> byte offset. A character past the end of its line means
 * the line's end, a line past the last means the end of the text (as the
 * specification asks); negative values are rejected. */
bool mt_lsp_doc_offset(const Doc *d, PosEncoding enc, int64_t line, int64_t character, uint32_t *off);
/* Byte offset -> LSP position (offsets inside a character round down). */
void mt_lsp_doc_position(const Doc *d, PosEncoding enc, uint32_t off, uint32_t *line, uint32_t *character);
/* The 0-based line holding byte offset off. */
uint32_t mt_lsp_doc_line_of(const Doc *d, uint32_t off);

/* Length of the UTF-8 sequence starting at s (at most n bytes): 1-4, or 1
 * for an invalid byte. *units is its length in UTF-16 code units. */
size_t mt_lsp_utf8_char(const unsigned char *s, size_t n, unsigned *units);

/* The local path of a file:// URI (percent-decoded), or NULL. malloc'ed. */
char *mt_lsp_uri_to_path(const char *uri);
/* file:// URI of an absolute path, percent-encoding what needs it. malloc'ed. */
char *mt_lsp_path_to_uri(const char *path);

#endif
