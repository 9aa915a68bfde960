/* tl_atomic.c: tl.atomic_add / max / min / and / or / xor / xchg / cas.
 * An atomic is a side effect with a value (the old contents): a root in
 * program order, like a store, whose node later expressions use. Types and the dtypes each operation takes are type
 * inference's job (Triton's atom_red_typechecking_impl rules). */
#include <string.h>

#include "fe.h"

/* sem= and scope=: None (the default) or one of Triton's names. */
static bool mem_option(Fe *fe, FValue v, MtSpan sp, const char *const *names, int n, const char *what, uint8_t *out)
{
    *out = 0;
    if (v.kind == FV_NONE)
        return true;
    for (int i = 0; v.kind == FV_STR && i < n; i++)
        if (!strcmp(v.u.s, names[i])) {
            *out = (uint8_t)i;
            return true;
        }
    MtBuf b;
    mt_buf_init(&b, &fe->c->arena);
    for (int i = 0; i < n; i++)
        mt_buf_printf(&b, "%s'%s'", i ? ", " : "", names[i]);
    fe_error(fe, sp, "E0305", "memory %s %s is not supported; use one of %s (or leave it out)", what,
             fv_repr(fe->c, v), mt_buf_str(&b));
    return false;
}

/* The atomic node over pointer a->v[0] and operands 1 and 2 (value and mask,
 * or cmp and value), with sem (a->v[sem]) and scope (the next one). */
static FValue atomic_node(Fe *fe, const FeBuiltin *bi, const FeArgs *a, uint32_t sem, MtSpan sp)
{
    uint8_t s, k;
    if (!mem_option(fe, a->v[sem], a->sp[sem], mt_mem_sem_names, MT_SEM_COUNT_, "semantic", &s) ||
        !mem_option(fe, a->v[sem + 1], a->sp[sem + 1], mt_mem_scope_names, MT_SCOPE_COUNT_, "scope", &k))
        return fv_undef();
    if (a->v[0].kind == FV_BLOCKPTR) {
        fe_error(fe, a->sp[0], "E0406", "%s needs a pointer or a block of pointers, not a block pointer",
                 fe_builtin_display(fe, bi));
        return fv_undef();
    }
    MtExpr *args[3] = {NULL, NULL, NULL};
    for (uint32_t i = 0; i < 3; i++)
        if (a->v[i].kind != FV_NONE && !(args[i] = fe_to_expr(fe, a->v[i], a->sp[i])))
            return fv_undef();
    if (!args[0] || !args[1])
        return fv_undef();
    fe_mark_pointer(fe, args[0]);
    MtExpr *e = fe_op(fe, (MtOpcode)bi->op, sp, 3);
    memcpy(e->args, args, sizeof args);
    e->attr.sem = s;
    e->attr.scope = k;
    fe_add_root(fe, e);
    return fv_expr(e);
}

/* tl.atomic_<op>(pointer, val, mask=None, sem=None, scope=None) */
FValue b_atomic(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp) { return atomic_node(fe, bi, a, 3, sp); }

/* tl.atomic_cas(pointer, cmp, val, sem=None, scope=None) */
FValue b_atomic_cas(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    if (a->v[2].kind == FV_NONE) {
        fe_error(fe, sp, "E0305", "tl.atomic_cas needs a value to swap in");
        return fv_undef();
    }
    return atomic_node(fe, bi, a, 3, sp);
}
