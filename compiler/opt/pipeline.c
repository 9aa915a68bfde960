/* pipeline.c: the optimisation pipeline, QBE's main loop with ssacheck
 * after every pass.
 *
 * The lowered function is verified first (stage "lowering"), then each
 * pass runs and is followed by the optional dump hook (the CLI's `-d
 * fold,cse` and the dashboard's per-pass views) and by the verifier under
 * the pass's name, so a malformed rewrite is reported as "after cse: ..."
 * at the instruction it broke and the pipeline stops there. Cancellation
 * is checked between passes, as SQLite checks its progress callback.
 */
#include "opt/passes.h"

#include "ssa/verify.h"

/* The passes in order, and their names (one array, as -d and the dump
 * hook need them). */
static const char *const pass_names[] = {"fold", "cse", "dce"};
static void (*const pass_run[])(MtCtx *c, MtFunc *f) = {mt_fold, mt_cse, mt_dce};

enum { NPASSES = sizeof pass_names / sizeof pass_names[0] };

_Static_assert(sizeof pass_run / sizeof pass_run[0] == NPASSES, "one name per pass");

const char *const *mt_pass_names(size_t *n)
{
    *n = NPASSES;
    return pass_names;
}

MtStatus mt_optimize(MtCtx *c, MtFunc *f, void (*dump)(const char *pass, const MtFunc *f, void *ud), void *ud)
{
    if (mt_cancelled(c))
        return MT_CANCELLED;
    if (!mt_verify(c, f, "lowering"))
        return MT_ERR_SOURCE;
    for (size_t i = 0; i < NPASSES; i++) {
        if (mt_cancelled(c))
            return MT_CANCELLED;
        pass_run[i](c, f);
        if (dump)
            dump(pass_names[i], f, ud);
        if (!mt_verify(c, f, pass_names[i]))
            return MT_ERR_SOURCE;
    }
    return MT_OK;
}
