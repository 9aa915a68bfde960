/* tl_debug.c: the debugging operations that run in the kernel:
 * tl.debug_barrier, tl.device_print (and Python's print, which Triton's
 * code generator maps to it) and tl.device_assert. Each is a side effect
 * in program order (a root). Compile-time printing and assertions
 * (tl.static_print, tl.static_assert) are tl_builtins.c's. */
#include <string.h>

#include "fe.h"

/* tl.extra.cuda.gdc_wait / gdc_launch_dependents: grids never overlap here */
FValue b_gdc(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp) { return fv_none(); }

FValue b_debug_barrier(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    if (a->call->npos || a->call->nkw) {
        fe_error(fe, sp, "E0305", "tl.debug_barrier() takes no arguments");
        return fv_undef();
    }
    fe_add_root(fe, fe_op(fe, OP_DEBUG_BARRIER, sp, 0));
    return fv_none();
}

/* Triton's shaping of a print prefix: it ends with ": " and, when longer
 * than that, starts with " " ("x" prints as "... idx (3) x: 1.5"). */
static const char *print_prefix(Fe *fe, const char *p)
{
    size_t n = strlen(p);
    char *s = mt_arena_alloc(&fe->c->arena, n + 4);
    memcpy(s, p, n + 1);
    if (!n || s[n - 1] != ' ')
        s[n++] = ' ';
    if (n < 2 || s[n - 2] != ':') {
        s[n - 1] = ':';
        s[n++] = ' ';
    }
    s[n] = 0;
    return n > 2 && s[0] != ' ' ? mt_sprintf(fe->c, " %s", s) : s;
}

/* tl.device_print(prefix, *args, hex=False); print(prefix, *args) is the
 * same (a first argument that is not a string is a value: no prefix).
 * Compile-time numbers are printed as the values Triton makes of them. */
FValue b_device_print(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const CallArgs *c = a->call;
    bool hex = false;
    for (uint32_t k = 0; k < c->nkw; k++) {
        bool ok = true;
        if (strcmp(c->kw_name[k], "hex") != 0 || (hex = py_truth(fe, c->kw[k], c->kw_span[k], &ok), !ok)) {
            if (ok)
                fe_error(fe, c->kw_span[k], "E0305", "%s takes no keyword but hex, got %s",
                         fe_builtin_display(fe, bi), c->kw_name[k]);
            return fv_undef();
        }
    }
    uint32_t first = c->npos && c->pos[0].kind == FV_STR ? 1 : 0;
    if (c->npos == first) {
        fe_error(fe, sp, "E0305", "%s needs a value to print after its prefix", fe_builtin_display(fe, bi));
        return fv_undef();
    }
    MtExpr *e = fe_op(fe, OP_DEVICE_PRINT, sp, c->npos - first);
    for (uint32_t k = first; k < c->npos; k++)
        if (!(e->args[k - first] = fe_to_expr(fe, c->pos[k], c->pos_span[k])))
            return fv_undef();
    e->attr.text = print_prefix(fe, first ? c->pos[0].u.s : "");
    e->attr.flags = hex ? MT_HEX : 0;
    fe_add_root(fe, e);
    return fv_none();
}

/* tl.device_assert(cond, msg='', mask=None) */
FValue b_device_assert(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    if (a->v[1].kind != FV_STR) {
        fe_error(fe, a->sp[1], "E0305", "tl.device_assert message must be a string, got %s", fv_repr(fe->c, a->v[1]));
        return fv_undef();
    }
    MtExpr *cond = fe_to_expr(fe, a->v[0], a->sp[0]);
    MtExpr *mask = a->v[2].kind == FV_NONE ? NULL : fe_to_expr(fe, a->v[2], a->sp[2]);
    if (!cond || (a->v[2].kind != FV_NONE && !mask))
        return fv_undef();
    MtExpr *e = fe_op(fe, OP_DEVICE_ASSERT, sp, 2);
    e->args[0] = cond;
    e->args[1] = mask;
    e->attr.text = a->v[1].u.s;
    fe_add_root(fe, e);
    return fv_none();
}
