/* entry.c: the MLIR backend module's entry point (plugin.h).
 *
 * One call builds one kernel in a context of its own (no threads of
 * MLIR's: the caller may be one of many compiling at once), verifies it,
 * prints what was asked, runs the GPU pipeline and hands back heap-owned
 * texts and diagnostics. MLIR's own diagnostics (verifier, passes, NVPTX)
 * are caught by a handler and reported at the statement whose location
 * they carry, under E1003 (the module does not verify) or E1004 (the
 * pipeline failed): both are mytriton bugs when they happen.
 *
 * Locations: each statement's source range becomes a FileLineColRange of
 * its file, wrapped in CallSite locations for the helper calls it was
 * inlined through (innermost call first), which is how MLIR spells
 * inlining; the module keeps every location it made with its statement,
 * so diagnostics and printed lines map back exactly. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mlir-c/Diagnostics.h>
#include <mlir-c/RegisterEverything.h>

#include "emit.h"

#define STR2(x) #x
#define STR(x) STR2(x)

/* ---- diagnostics -------------------------------------------------------------------- */

static void add_diag(MtMlirResult *out, const char *code, MtSpan span, uint32_t inl, const char *msg)
{
    MtMlirDiag *d = realloc(out->diags, (out->ndiags + 1) * sizeof *d);
    if (!d)
        return;
    out->diags = d;
    d = &out->diags[out->ndiags++];
    memset(d, 0, sizeof *d);
    snprintf(d->code, sizeof d->code, "%s", code);
    d->span = span;
    d->inl = inl;
    d->msg = strdup(msg);
}

void em_diag(Em *e, const char *code, MtSpan span, uint32_t inl, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    add_diag(e->out, code, span, inl, msg);
    e->failed = true;
}

void em_unsupported(Em *e, const char *what)
{
    MtSpan span = {0};
    uint32_t inl = 0;
    em_loc_find(e, e->loc, &span, &inl);
    em_diag(e, "E1002", span, inl, "the MLIR backend cannot lower %s yet (the CUDA backend can: --codegen cuda)", what);
}

bool em_loc_find(const Em *e, MlirLocation loc, MtSpan *span, uint32_t *inl)
{
    for (int depth = 0; depth < 8 && !mlirLocationIsNull(loc); depth++) {
        for (uint32_t i = e->nlocs; i-- > 0;)
            if (mlirLocationEqual(e->locs[i].loc, loc)) {
                *span = e->locs[i].span;
                *inl = e->locs[i].inl;
                return true;
            }
        /* a location MLIR derived from one of ours */
        if (mlirLocationIsAName(loc))
            loc = mlirLocationNameGetChildLoc(loc);
        else if (mlirLocationIsAFused(loc) && mlirLocationFusedGetNumLocations(loc) > 0) {
            MlirLocation first[mlirLocationFusedGetNumLocations(loc)];
            mlirLocationFusedGetLocations(loc, first);
            loc = first[0];
        } else
            return false;
    }
    return false;
}

static MlirLocation file_loc(Em *e, MtSpan s)
{
    if (!s.line || s.file >= e->req->nfiles || !e->req->files[s.file])
        return e->unknown;
    return mlirLocationFileLineColRangeGet(e->ctx, mlirStringRefCreateFromCString(e->req->files[s.file]), s.line, s.col,
                                           s.end_line ? s.end_line : s.line, s.end_col ? s.end_col : s.col);
}

/* The call sites of inline site `inl`, as a location (innermost first). */
static MlirLocation caller_loc(Em *e, uint32_t inl, int depth)
{
    const MtInlineSite *site = &e->req->inl[inl];
    MlirLocation here = file_loc(e, site->call);
    if (site->parent && site->parent < e->req->ninl && depth < 64)
        return mlirLocationCallSiteGet(here, caller_loc(e, site->parent, depth + 1));
    return here;
}

/* Remember that loc stands for the statement at span (a failed
 * allocation only loses the mark). */
static void loc_add(Em *e, MlirLocation loc, MtSpan span, uint32_t inl)
{
    if (e->nlocs == e->caplocs) {
        uint32_t cap = e->caplocs ? e->caplocs * 2 : 64;
        LocRec *r = realloc(e->locs, cap * sizeof *r);
        if (!r)
            return;
        e->locs = r;
        e->caplocs = cap;
    }
    e->locs[e->nlocs++] = (LocRec){loc, span, inl};
}

MlirLocation em_stmt_loc(Em *e, MtSpan span, uint32_t inl)
{
    if (e->nlocs && e->last_stmt < e->nlocs && e->locs[e->last_stmt].inl == inl &&
        !memcmp(&e->locs[e->last_stmt].span, &span, sizeof span))
        return e->locs[e->last_stmt].loc;
    MlirLocation loc = file_loc(e, span);
    if (mlirLocationEqual(loc, e->unknown))
        return loc;
    if (inl && inl < e->req->ninl)
        loc = mlirLocationCallSiteGet(loc, caller_loc(e, inl, 0));
    e->last_stmt = e->nlocs;
    loc_add(e, loc, span, inl);
    return loc;
}

MlirLocation em_named_loc(Em *e, const char *name, MlirLocation loc)
{
    MtSpan span = {0};
    uint32_t inl = 0;
    MlirLocation named = mlirLocationNameGet(e->ctx, mlirStringRefCreateFromCString(name), loc);
    if (em_loc_find(e, loc, &span, &inl))
        loc_add(e, named, span, inl);
    return named;
}

void em_slot_name(const Em *e, uint32_t s, char *buf, size_t len)
{
    KVarId v = e->slot_var[s];
    const KVar *x = k_var_at(e->f, v);
    if (x->kind == KV_REGS)
        snprintf(buf, len, "%s_%u", x->name, s - e->slot[v]);
    else
        snprintf(buf, len, "%s", x->name);
}

typedef struct DiagCtx {
    Em *e;
    const char *code;
} DiagCtx;

static void to_str(MlirStringRef r, void *ud) { str_add(ud, r.data, r.length); }

static MlirLogicalResult on_diag(MlirDiagnostic d, void *ud)
{
    DiagCtx *dc = ud;
    if (mlirDiagnosticGetSeverity(d) != MlirDiagnosticError)
        return mlirLogicalResultSuccess();
    Str msg = {0};
    mlirDiagnosticPrint(d, to_str, &msg);
    for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d) && i < 2 && msg.n < 600; i++) {
        Str note = {0};
        mlirDiagnosticPrint(mlirDiagnosticGetNote(d, i), to_str, &note);
        /* "see current operation: <the whole module>" says nothing the location does not */
        if (note.s && strncmp(note.s, "see current operation", 21)) {
            str_add(&msg, "; ", 2);
            str_add(&msg, note.s, note.n);
        }
        str_free(&note);
    }
    if (msg.n > 800)
        msg.s[800] = 0;
    MtSpan span = {0};
    uint32_t inl = 0;
    em_loc_find(dc->e, mlirDiagnosticGetLocation(d), &span, &inl);
    char text[1024];
    snprintf(text, sizeof text, "%s: %s",
             !strcmp(dc->code, "E1003") ? "the MLIR built for this kernel does not verify (a mytriton bug)"
                                        : "MLIR's GPU pipeline failed",
             msg.s ? msg.s : "");
    add_diag(dc->e->out, dc->code, span, inl, text);
    dc->e->failed = true;
    str_free(&msg);
    return mlirLogicalResultSuccess();
}

/* ---- the entry point -------------------------------------------------------------------- */

static pthread_once_t passes_once = PTHREAD_ONCE_INIT;
static void register_passes(void) { mlirRegisterAllPasses(); }

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void pipeline(int sm, const char *toolkit, char *buf, size_t len)
{
    em_pipeline_text(sm, em_toolkit(toolkit), buf, len);
}

static void free_result(MtMlirResult *out)
{
    free(out->mlir.text);
    free(out->mlir.marks);
    free(out->llvm.text);
    free(out->llvm.marks);
    free(out->ptx);
    for (uint32_t i = 0; i < out->ndiags; i++)
        free(out->diags[i].msg);
    free(out->diags);
    memset(out, 0, sizeof *out);
}

static void em_free(Em *e)
{
    free(e->param);
    free(e->slot);
    free(e->env);
    free(e->slot_dt);
    free(e->slot_var);
    free(e->mem);
    free(e->in_memory);
    for (uint32_t i = 0; i < e->ndecls; i++)
        free(e->decls[i]);
    free(e->decls);
    free(e->locs);
}

static int run(const MtMlirRequest *req, MtMlirResult *out)
{
    memset(out, 0, sizeof *out);
    Em e = {.req = req, .f = req->f, .out = out};
    if (req->abi != MT_MLIR_ABI || req->sizes[0] != sizeof(KFunc) || req->sizes[1] != sizeof(KStmt) ||
        req->sizes[2] != sizeof(KExpr) || req->sizes[3] != sizeof(KVar)) {
        add_diag(out, "E1001", (MtSpan){0}, 0,
                 "the MLIR backend module is from another build of mytriton (its kernel-layer layout differs): "
                 "rebuild and reinstall mytriton");
        return -1;
    }
    pthread_once(&passes_once, register_passes);
    MlirDialectRegistry reg = mlirDialectRegistryCreate();
    mlirRegisterAllDialects(reg);
    e.ctx = mlirContextCreateWithRegistry(reg, false);
    mlirDialectRegistryDestroy(reg);
    mlirRegisterAllLLVMTranslations(e.ctx);
    static const char *const dialects[] = {"builtin", "gpu", "arith", "math", "scf", "llvm", "nvvm"};
    for (size_t i = 0; i < sizeof dialects / sizeof *dialects; i++)
        mlirContextGetOrLoadDialect(e.ctx, mlirStringRefCreateFromCString(dialects[i]));
    e.unknown = mlirLocationUnknownGet(e.ctx);
    DiagCtx dc = {&e, "E1003"};
    MlirDiagnosticHandlerID h = mlirContextAttachDiagnosticHandler(e.ctx, on_diag, &dc, NULL);

    double t0 = now_ms();
    bool ok = em_build(&e);
    MlirOperation mod = mlirModuleGetOperation(e.module);
    if (ok && !mlirOperationVerify(mod)) {
        if (!e.failed)
            em_diag(&e, "E1003", (MtSpan){0}, 0, "the MLIR built for this kernel does not verify (a mytriton bug)");
        ok = false;
    }
    if (ok && (req->want & MT_MLIR_WANT_MLIR))
        ok = em_print(&e, mod, &out->mlir);
    double t1 = now_ms();
    dc.code = "E1004";
    if (ok && (req->want & (MT_MLIR_WANT_LLVM | MT_MLIR_WANT_PTX)))
        ok = em_lower(&e);
    if (ok && (req->want & MT_MLIR_WANT_LLVM))
        ok = em_print(&e, mod, &out->llvm);
    double t2 = now_ms();
    if (ok && (req->want & MT_MLIR_WANT_PTX))
        ok = em_ptx(&e, &out->ptx);
    double t3 = now_ms();
    out->ms[0] = t1 - t0;
    out->ms[1] = t2 - t1;
    out->ms[2] = t3 - t2;

    if (!mlirModuleIsNull(e.module))
        mlirModuleDestroy(e.module);
    mlirContextDetachDiagnosticHandler(e.ctx, h);
    mlirContextDestroy(e.ctx);
    em_free(&e);
    return ok && !e.failed ? 0 : -1;
}

static const MtMlirPlugin plugin = {
    .abi = MT_MLIR_ABI,
    .version = "MLIR " STR(MT_MLIR_VERSION),
    .pipeline = pipeline,
    .run = run,
    .free_result = free_result,
};

__attribute__((visibility("default"))) const MtMlirPlugin *mt_mlir_plugin(void);
const MtMlirPlugin *mt_mlir_plugin(void) { return &plugin; }
