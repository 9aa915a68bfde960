/* supported.c: what the seed CUDA lowering can lower, checked before any
 * layout is assigned.
 *
 * The language reaches further than the seed lowering (dtypes beyond bool,
 * i32 and f32; casts, shifts, math beyond exp; blocks of rank 3 and 4;
 * ...): the interpreter runs all of it, and a kernel the CUDA backend cannot
 * lower yet gets one located E0603 at its first such operation instead of
 * reaching code that does not know it. The table below is the seed
 * lowering's vocabulary; an operation outside it, or a value of another
 * type, is refused. */
#include "assign.h"

static bool seed_op(const MtInst *in)
{
    switch (in->op) {
    case OP_PROGRAM_ID:
    case OP_ARANGE:
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_DIV:
    case OP_FLOORDIV:
    case OP_MOD:
    case OP_AND:
    case OP_OR:
    case OP_XOR:
    case OP_CMP_LT:
    case OP_CMP_LE:
    case OP_CMP_GT:
    case OP_CMP_GE:
    case OP_CMP_EQ:
    case OP_CMP_NE:
    case OP_MAXIMUM:
    case OP_MINIMUM:
    case OP_NEG:
    case OP_NOT:
    case OP_EXP:
    case OP_SELECT:
    case OP_ADDPTR:
    case OP_LOAD:
    case OP_STORE:
    case OP_SUM:
    case OP_MAX:
    case OP_MIN:
    case OP_EXPAND_DIMS:
    case OP_ZEROS:
    case OP_FULL:
    case OP_EMPTY:
    case OP_FOR:
    case OP_YIELD:
        return true;
    case OP_DOT:
        return in->nargs == 2;
    default:
        return false;
    }
}

/* bool, i32 and f32 scalars, pointers to them, blocks of rank 1 or 2 of them */
static bool seed_type(const MtType *t)
{
    if (!t || t->kind == TY_VOID)
        return true;
    if (mt_ty_rank(t) > 2)
        return false;
    const MtType *e = mt_ty_elem(t);
    if (e->kind == TY_PTR)
        e = e->elem;
    return e == &mt_ty_bool || e == &mt_ty_i32 || e == &mt_ty_f32;
}

typedef struct Check {
    MtCtx *c;
    const MtFunc *f;
    bool ok;
} Check;

static void check_inst(MtInst *in, void *ud)
{
    Check *k = ud;
    if (!k->ok)
        return;
    const char *what = NULL;
    const MtType *x = in->nargs && in->args[0] ? mt_val_ty(k->f, in->args[0]) : NULL;
    bool rank1_only = mt_op_class(in->op) == OC_REDUCE || in->op == OP_EXPAND_DIMS;
    if (!seed_op(in))
        what = mt_sprintf(k->c, "'%s'", mt_op_info[in->op].text);
    else if (in->op == OP_DOT && in->attr.mode == MT_DOT_TF32)
        what = "tl.dot with input_precision=\"tf32\"";
    else if (in->op == OP_FOR && (in->loop->dyn_step || mt_val_ty(k->f, in->loop->iv) != &mt_ty_i32))
        what = "a loop with a runtime step or a non-i32 induction variable";
    else if (rank1_only && (!x || mt_ty_rank(x) != 1 || in->attr.flags))
        what = mt_sprintf(k->c, "'%s' of %s", mt_op_info[in->op].text, x ? mt_ty_str(k->c, x) : "a scalar");
    else if (!seed_type(in->ty))
        what = mt_sprintf(k->c, "a value of type %s", mt_ty_str(k->c, in->ty));
    for (uint32_t i = 0; !what && i < in->nargs; i++)
        if (in->args[i] && !seed_type(mt_val_ty(k->f, in->args[i])))
            what = mt_sprintf(k->c, "a value of type %s", mt_ty_str(k->c, mt_val_ty(k->f, in->args[i])));
    if (!what)
        return;
    MtDiagRec *d = mt_error(k->c, in->span, "E0603",
                            "%s is not supported by the CUDA backend yet; the interpreter runs it (mytriton run "
                            "--backend interp)",
                            what);
    mt_note_inline(k->c, d, in->inl);
    k->ok = false;
}

bool mt_layout_supported(MtCtx *c, const MtFunc *f)
{
    Check k = {c, f, true};
    for (uint32_t i = 0; i < f->nparams; i++)
        if (!seed_type(mt_val_ty(f, f->params[i]))) {
            mt_error(c, (MtSpan){0}, "E0603",
                     "parameter %s of type %s is not supported by the CUDA backend yet; the interpreter runs it "
                     "(mytriton run --backend interp)",
                     f->vals[f->params[i]].name, mt_ty_str(c, mt_val_ty(f, f->params[i])));
            return false;
        }
    mt_func_walk((MtFunc *)f, check_inst, &k);
    return k.ok;
}
