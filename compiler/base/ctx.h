/* ctx.h: the compilation context. All state of one compilation hangs off
 * an MtCtx (Lua's lua_State): the arena, the file table, the diagnostics,
 * the inline-site table, the cancel flag and the protected-call jump
 * buffer. Library code never touches anything else that is mutable. */
#ifndef MT_CTX_H
#define MT_CTX_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "arena.h"
#include "mytriton/mytriton.h"

typedef struct MtFile {
    const char *path;
    const char *text;         /* NUL-terminated copy */
    size_t len;
    uint32_t *line_off;       /* byte offset of each line start, 0-based index */
    uint32_t nlines;
} MtFile;

/* A call of a jit helper that was inlined: diagnostics on nodes created
 * inside it get a note pointing at each call site up the chain. */
typedef struct MtInlineSite {
    MtSpan call;
    const char *callee;
    uint32_t parent;          /* enclosing inline site, 0 = the kernel itself */
} MtInlineSite;

typedef struct MtDiagRec {
    MtDiag d;
    MT_VEC(MtNote) notes;
    MT_VEC(MtDiagFact) facts;
} MtDiagRec;

struct MtCtx {
    MtArena arena;
    MtAlloc alloc;
    bool has_alloc;
    MT_VEC(MtFile) files;     /* index 0 is a dummy: file 0 = no file */
    MT_VEC(MtDiagRec *) diags;
    uint32_t nerrors;
    MT_VEC(MtInlineSite) inl; /* index 0 is a dummy */
    const char *kernel;       /* kernel being compiled, for MtDiag.kernel */
    void *types;              /* type interner (types/type.c) */
    atomic_bool cancel;
    jmp_buf *jmp;             /* innermost protected call, or NULL */
};

enum { MT_MAX_ERRORS = 100 };

/* Run fn(c, ud) under a protected call: out-of-memory and mt_throw() unwind
 * to here and come back as a status. Nested calls are fine. */
MtStatus mt_protect(MtCtx *c, MtStatus (*fn)(MtCtx *c, void *ud), void *ud);
_Noreturn void mt_throw(MtCtx *c, MtStatus st);
/* An internal invariant failed: report "internal compiler error" at sp and
 * unwind to the protected call with MT_ERR_SOURCE. */
_Noreturn void mt_ice(MtCtx *c, MtSpan sp, const char *what);
bool mt_cancelled(MtCtx *c);

/* Files */
uint32_t mt_ctx_add_file(MtCtx *c, const char *path, const char *text, size_t len);
const MtFile *mt_ctx_file(const MtCtx *c, uint32_t file);
/* Span for [off, end) of a file, computing line/col from the line table. */
MtSpan mt_span_of(const MtCtx *c, uint32_t file, uint32_t off, uint32_t end);
/* The smallest span covering both (same file assumed). */
MtSpan mt_span_join(MtSpan a, MtSpan b);

/* Diagnostics: record and continue. Each returns the new diagnostic so
 * notes can be attached; nothing is recorded past MT_MAX_ERRORS errors
 * (the returned pointer is then a scratch record). */
MtDiagRec *mt_diag(MtCtx *c, MtSeverity sev, MtSpan sp, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
MtDiagRec *mt_vdiag(MtCtx *c, MtSeverity sev, MtSpan sp, const char *code, const char *fmt, va_list ap);
#define mt_error(c, sp, code, ...) mt_diag((c), MT_SEV_ERROR, (sp), (code), __VA_ARGS__)
#define mt_warning(c, sp, code, ...) mt_diag((c), MT_SEV_WARNING, (sp), (code), __VA_ARGS__)
void mt_note(MtCtx *c, MtDiagRec *d, MtSpan sp, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Attach a fact (MtDiagFact: data for tools, never parsed from the message). */
void mt_diag_set_fact(MtCtx *c, MtDiagRec *d, const char *name, int64_t value);
/* Go back to an earlier state of the diagnostics: the first `ndiags` kept
 * and the error count restored (speculative work that is reported
 * differently, e.g. a module constant that fails to evaluate). */
void mt_diag_truncate(MtCtx *c, uint32_t ndiags, uint32_t nerrors);
/* Append "in <helper> called from here" notes for an inline chain. */
void mt_note_inline(MtCtx *c, MtDiagRec *d, uint32_t inl);
uint32_t mt_inline_push(MtCtx *c, MtSpan call, const char *callee, uint32_t parent);

/* printf into the arena */
char *mt_sprintf(MtCtx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
