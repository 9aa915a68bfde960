/* plugin.h: the interface between the compiler library and the MLIR
 * backend module (libmytriton-mlir.so).
 *
 * The MLIR backend links LLVM and MLIR (about 240 MB of shared libraries
 * whose loading costs every process a tenth of a second), so it is not
 * part of the compiler library: it is a module of its own that
 * compiler/mlir/codegen.c loads with dlopen the first time a compilation
 * asks for MLIR. Tools that never ask (the language server on CUDA, the
 * interpreter, a build on the GPU machine, where MLIR is absent) never pay
 * for it, and a build without MLIR is the same program with the backend
 * reported unavailable.
 *
 * The module reads the kernel layer directly (kernel/kir.h: plain data,
 * compiled from the same headers) and answers with heap-owned texts and
 * diagnostics that the host copies into its context and frees: the module
 * never touches the host's context or arena, so an out-of-memory unwind in
 * the host can never cross MLIR's C++ frames. The layout of the kernel
 * layer is checked on every call (abi and sizes), so a module from another
 * build is refused with a diagnostic instead of misreading memory. */
#ifndef MT_MLIR_PLUGIN_H
#define MT_MLIR_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "base/ctx.h"
#include "kernel/kir.h"

/* Bumped whenever this header or the kernel layer's structures change. */
#define MT_MLIR_ABI 1
#define MT_MLIR_ENTRY "mt_mlir_plugin"

enum {
    MT_MLIR_WANT_MLIR = 1u << 0,   /* the module as built (MT_STAGE_MLIR), with line marks */
    MT_MLIR_WANT_LLVM = 1u << 1,   /* after the GPU lowering passes (MT_STAGE_MLIR_LLVM), with line marks */
    MT_MLIR_WANT_PTX = 1u << 2,    /* gpu-module-to-binary's PTX */
};

typedef struct MtMlirRequest {
    uint32_t abi;                  /* MT_MLIR_ABI */
    uint32_t sizes[4];             /* sizeof KFunc, KStmt, KExpr, KVar as the host compiled them */
    const KFunc *f;
    const char *const *files;      /* path of each MtSpan.file (index 0: none) */
    uint32_t nfiles;
    const MtInlineSite *inl;       /* the context's inline sites (index 0: none) */
    uint32_t ninl;
    int sm;                        /* CUDA architecture, e.g. 90 */
    unsigned want;                 /* MT_MLIR_WANT_* */
    const char *toolkit;           /* the CUDA toolkit folder (libdevice); NULL: MLIR's own search */
} MtMlirRequest;

typedef struct MtMlirMark {
    uint32_t line;                 /* 1-based line of the text */
    MtSpan span;
    uint32_t inl;
} MtMlirMark;

typedef struct MtMlirText {
    char *text;                    /* NUL-terminated, or NULL */
    MtMlirMark *marks;             /* sorted by line */
    uint32_t nmarks;
} MtMlirText;

typedef struct MtMlirDiag {
    char code[8];                  /* a diags.def code, e.g. "E1002" */
    MtSpan span;                   /* zero when MLIR's location maps to no statement */
    uint32_t inl;
    char *msg;
} MtMlirDiag;

typedef struct MtMlirResult {
    MtMlirText mlir, llvm;
    char *ptx;
    MtMlirDiag *diags;
    uint32_t ndiags;
    double ms[3];                  /* build+verify+print, lowering passes, PTX */
} MtMlirResult;

typedef struct MtMlirPlugin {
    uint32_t abi;
    const char *version;           /* "MLIR 22.1.8" */
    /* The pass pipeline for sm (what the PTX depends on besides the module):
     * a static string per call, written into buf. */
    void (*pipeline)(int sm, const char *toolkit, char *buf, size_t len);
    /* 0: every wanted output made; -1: diagnostics say why. Always fills
     * *out, which free_result releases. */
    int (*run)(const MtMlirRequest *req, MtMlirResult *out);
    void (*free_result)(MtMlirResult *out);
} MtMlirPlugin;

typedef const MtMlirPlugin *(*MtMlirEntry)(void);

#endif
