/* prefix.c: the part of a kernel before its first error, compiled on its
 * own.
 *
 * One error anywhere in a kernel stops its compile before the SSA, so an
 * editor would show no SSA and no layout on any line, the lines before the
 * error included. The prefix analysis compiles the statements that run
 * before the whole compile's first error (mt_frontend's cut) through the
 * same stages, for the same specialisation: the whole compile's parameter
 * types are given as a signature, because the part before the error may
 * not hold the load or store a pointer's type was inferred from. Nothing
 * stores what those statements compute, so the values they bind are kept
 * (MtFunc.keep) and survive dead-code elimination. Its diagnostics are
 * dropped: they would repeat the whole compile's or follow from the cut
 * (values computed but never used).
 *
 * The layouts are those of the prefix: the fast lowering chooses warps
 * from the largest block of what it lowers, so a kernel whose larger
 * blocks come after the error may get fewer warps here (docs/limits.md). */
#include "compiled.h"

/* The earliest of an error's locations in k's statements: its own range
 * when that lies in the kernel's body, else the call of the inlined helper
 * it was raised in (the notes of the inline chain; the one in the kernel). */
static bool locate(const MtCompiled *k, const MtDiag *d, MtSpan *at)
{
    const MtFuncDef *fn = k->fn;
    uint32_t lo = fn->body.n ? fn->body.v[0]->span.off : fn->span.end, hi = fn->span.end;
    bool found = false;
    for (uint32_t i = 0; i <= d->nnotes; i++) {
        MtSpan sp = i ? d->notes[i - 1].span : d->span;
        if (!sp.line || sp.file != k->m->file || sp.off < lo || sp.off >= hi || (found && sp.off >= at->off))
            continue;
        *at = sp;
        found = true;
        if (!i)
            return true;
    }
    return found;
}

MtSpan mt_first_error(const MtCtx *c, const MtCompiled *k, uint32_t from)
{
    MtSpan best = {0};
    for (uint32_t i = from; i < c->diags.n; i++) {
        const MtDiag *d = &c->diags.v[i]->d;
        MtSpan at = {0};
        if (d->sev == MT_SEV_ERROR && locate(k, d, &at) && (!best.line || at.off < best.off))
            best = at;
    }
    return best;
}

typedef struct Job {
    const MtCompiled *failed;
    MtSpec spec;
    MtCompiled **out;
} Job;

static MtStatus prefix(MtCtx *c, void *ud)
{
    Job *j = ud;
    const char *sig = mt_compiled_respec(c, j->failed, NULL);
    if (sig)
        j->spec.signature = sig;
    return mt_compile_until(c, j->failed->m, &j->spec, j->failed->first_error, j->out);
}

MtStatus mt_compile_prefix(MtCtx *c, const MtCompiled *failed, const MtSpec *spec, MtCompiled **out)
{
    static const MtSpec defaults = {0};
    *out = NULL;
    spec = spec ? spec : &defaults;
    int last = spec->last_stage > MT_STAGE_AST ? spec->last_stage : MT_STAGE_SSA;
    bool whole = failed && failed->optimized && (failed->layout || failed->kernel || last < MT_STAGE_LAYOUT);
    if (!failed || !failed->prog || !failed->first_error.line || whole ||
        failed->first_error.off <= failed->fn->body.v[0]->span.off) /* nothing before it */
        return MT_OK;
    Job j = {failed, *spec, out};
    j.spec.kernel = failed->fn->name;
    j.spec.dump_passes = NULL;
    uint32_t ndiags = c->diags.n, nerrors = c->nerrors;
    MtStatus st = mt_protect(c, prefix, &j);
    mt_diag_truncate(c, ndiags, nerrors);
    if (*out && (!(*out)->func || !(*out)->func->body.n)) { /* nothing before the error computes a value */
        *out = NULL;
        return MT_OK;
    }
    return st;
}

uint32_t mt_compiled_prefix_line(const MtCompiled *k) { return k ? k->cut.line : 0; }
