/* ssa.c: building SSA functions, the op table, and whole-function walks. */
#include "ssa.h"

#include <string.h>

const MtOpInfo mt_op_info[OPC_COUNT_] = {
#define OP(id, text, nargs, flags, cls, py) [OP_##id] = {text, nargs, flags, OC_##cls, py},
#include "ops.def"
#undef OP
};

const char *const mt_mem_sem_names[MT_SEM_COUNT_] = {"acq_rel", "acquire", "release", "relaxed"};
const char *const mt_mem_scope_names[MT_SCOPE_COUNT_] = {"gpu", "cta", "sys"};

const char *mt_atomic_refusal(int op, const MtType *pointee)
{
    int bits = mt_ty_bits(pointee);
    bool is_float = mt_ty_is_float(pointee);
    if (op == OP_ATOMIC_CAS)
        return !mt_ty_is_bool(pointee) && bits >= 16 ? NULL : "elements of 16, 32 or 64 bits";
    if (mt_ty_is_bool(pointee) || bits < 16 || (bits == 16 && !is_float))
        return "elements of 32 or 64 bits, or f16 and bf16 in tl.atomic_add";
    if (bits == 16 && op != OP_ATOMIC_ADD)
        return "f16 and bf16 only in tl.atomic_add and tl.atomic_cas";
    if ((op == OP_ATOMIC_AND || op == OP_ATOMIC_OR || op == OP_ATOMIC_XOR) && is_float)
        return "integers";
    return NULL;
}

static MtVal push_value(MtCtx *c, MtFunc *f, MtValue v)
{
    if (f->nvals == f->capvals) {
        uint32_t cap = f->capvals ? f->capvals * 2 : 64;
        f->vals = mt_arena_grow(&c->arena, f->vals, f->nvals, cap, sizeof *f->vals);
        f->capvals = cap;
    }
    f->vals[f->nvals] = v;
    return f->nvals++;
}

MtFunc *mt_func_new(MtCtx *c, const char *name)
{
    MtFunc *f = mt_arena_alloc(&c->arena, sizeof *f);
    f->name = name;
    MtValue none = {.kind = VK_NONE};
    push_value(c, f, none);
    return f;
}

MtVal mt_func_param(MtCtx *c, MtFunc *f, const char *name, const MtType *ty)
{
    MtValue v = {.kind = VK_PARAM, .ty = ty, .name = name, .index = f->nparams, .num = UINT32_MAX, .div = 1};
    MtVal id = push_value(c, f, v);
    f->params = mt_arena_grow(&c->arena, f->params, f->nparams, f->nparams + 1, sizeof *f->params);
    f->params[f->nparams++] = id;
    return id;
}

MtVal mt_func_const(MtCtx *c, MtFunc *f, MtConst k, const MtType *ty)
{
    MtValue v = {.kind = VK_CONST, .ty = ty, .cst = k, .num = UINT32_MAX};
    return push_value(c, f, v);
}

MtVal mt_func_value(MtCtx *c, MtFunc *f, MtValKind kind, const MtType *ty)
{
    MtValue v = {.kind = (uint8_t)kind, .ty = ty, .num = f->next_num++};
    return push_value(c, f, v);
}

void mt_region_push(MtCtx *c, MtRegion *r, MtInst *in)
{
    mt_vec_push(&c->arena, r, in);
}

MtInst *mt_inst_new(MtCtx *c, MtFunc *f, MtRegion *r, MtOpcode op, const MtType *ty,
                    const MtVal *args, uint32_t nargs, MtSpan span, uint32_t inl)
{
    MtInst *in = mt_arena_alloc(&c->arena, sizeof *in);
    in->op = (uint16_t)op;
    in->ty = ty;
    in->span = span;
    in->inl = inl;
    in->nargs = nargs;
    if (nargs) {
        in->args = mt_arena_alloc(&c->arena, nargs * sizeof *in->args);
        memcpy(in->args, args, nargs * sizeof *in->args);
    }
    if (ty) {
        in->dst = mt_func_value(c, f, VK_INST, ty);
        f->vals[in->dst].def = in;
    }
    if (r)
        mt_region_push(c, r, in);
    return in;
}

MtInst *mt_for_new(MtCtx *c, MtFunc *f, MtRegion *r, const MtVal *start_stop_inits, uint32_t ncarried,
                   int64_t step, MtVal step_val, MtSpan span, uint32_t inl)
{
    MtInst *in = mt_inst_new(c, f, r, OP_FOR, NULL, start_stop_inits, 2 + ncarried + (step_val != 0), span, inl);
    if (step_val)
        in->args[2 + ncarried] = step_val;
    MtForData *l = mt_arena_alloc(&c->arena, sizeof *l);
    in->loop = l;
    l->step = step_val ? 0 : step;
    l->dyn_step = step_val != 0;
    l->ncarried = ncarried;
    const MtType *ivt = f->vals[start_stop_inits[0]].ty;
    l->iv = mt_func_value(c, f, VK_IV, ivt && mt_ty_is_scalar(ivt) && !mt_ty_is_bool(ivt) ? ivt : &mt_ty_i32);
    f->vals[l->iv].def = in;
    l->iter_args = mt_arena_alloc(&c->arena, (ncarried + 1) * sizeof *l->iter_args);
    l->results = mt_arena_alloc(&c->arena, (ncarried + 1) * sizeof *l->results);
    for (uint32_t i = 0; i < ncarried; i++) {
        const MtType *ty = f->vals[start_stop_inits[2 + i]].ty;
        l->iter_args[i] = mt_func_value(c, f, VK_ARG, ty);
        f->vals[l->iter_args[i]].def = in;
        f->vals[l->iter_args[i]].index = i;
    }
    return in;
}

void mt_for_finish(MtCtx *c, MtFunc *f, MtInst *in)
{
    MtForData *l = in->loop;
    for (uint32_t i = 0; i < l->ncarried; i++) {
        const MtType *ty = f->vals[l->iter_args[i]].ty;
        l->results[i] = mt_func_value(c, f, VK_RESULT, ty);
        f->vals[l->results[i]].def = in;
        f->vals[l->results[i]].index = i;
    }
}

MtInst *mt_nest_new(MtCtx *c, MtFunc *f, MtRegion *r, MtOpcode op, const MtVal *args, uint32_t nargs,
                    uint32_t nbodies, const uint32_t *nbody_args, const MtType *const *argtys, MtSpan span,
                    uint32_t inl)
{
    MtInst *in = mt_inst_new(c, f, r, op, NULL, args, nargs, span, inl);
    MtNest *n = mt_arena_alloc(&c->arena, sizeof *n);
    in->nest = n;
    n->nbodies = nbodies;
    uint32_t t = 0;
    for (uint32_t k = 0; k < nbodies; k++) {
        MtBody *b = &n->body[k];
        b->nargs = nbody_args[k];
        b->args = mt_arena_alloc(&c->arena, (b->nargs + 1) * sizeof *b->args);
        for (uint32_t i = 0; i < b->nargs; i++) {
            b->args[i] = mt_func_value(c, f, VK_ARG, argtys[t++]);
            f->vals[b->args[i]].def = in;
            f->vals[b->args[i]].index = i;
        }
    }
    return in;
}

void mt_nest_finish(MtCtx *c, MtFunc *f, MtInst *in, const MtType *const *tys, uint32_t n)
{
    MtNest *x = in->nest;
    x->nresults = n;
    x->results = mt_arena_alloc(&c->arena, (n + 1) * sizeof *x->results);
    for (uint32_t i = 0; i < n; i++) {
        x->results[i] = mt_func_value(c, f, VK_RESULT, tys[i]);
        f->vals[x->results[i]].def = in;
        f->vals[x->results[i]].index = i;
    }
}

/* ---- walks ------------------------------------------------------------------ */

static void walk_region(MtRegion *r, void (*fn)(MtInst *, void *), void *ud)
{
    for (uint32_t i = 0; i < r->n; i++) {
        fn(r->v[i], ud);
        for (uint32_t k = 0; k < mt_inst_nregions(r->v[i]); k++)
            walk_region(mt_inst_region(r->v[i], k), fn, ud);
    }
}

void mt_func_walk(MtFunc *f, void (*fn)(MtInst *in, void *ud), void *ud)
{
    walk_region(&f->body, fn, ud);
}

typedef struct Repl {
    MtVal from, to;
} Repl;

static void replace_in(MtInst *in, void *ud)
{
    const Repl *r = ud;
    for (uint32_t i = 0; i < in->nargs; i++)
        if (in->args[i] == r->from)
            in->args[i] = r->to;
}

void mt_func_replace_uses(MtFunc *f, MtVal from, MtVal to)
{
    Repl r = {from, to};
    mt_func_walk(f, replace_in, &r);
}

static void count_in(MtInst *in, void *ud)
{
    uint32_t *uses = ud;
    for (uint32_t i = 0; i < in->nargs; i++)
        if (in->args[i])
            uses[in->args[i]]++;
}

uint32_t *mt_func_use_counts(MtCtx *c, const MtFunc *f)
{
    uint32_t *uses = mt_arena_alloc(&c->arena, (f->nvals + 1) * sizeof *uses);
    mt_func_walk((MtFunc *)f, count_in, uses);
    return uses;
}

const MtInst *mt_region_only_user(const MtRegion *r, MtVal v, const uint32_t *uses)
{
    if (uses[v] != 1)
        return NULL;
    for (uint32_t i = 0; i < r->n; i++)
        for (uint32_t q = 0; q < r->v[i]->nargs; q++)
            if (r->v[i]->args[q] == v)
                return r->v[i];
    return NULL;
}

void mt_for_remove_slot(MtFunc *f, MtInst *in, uint32_t i)
{
    MtForData *l = in->loop;
    MtInst *y = l->body.v[l->body.n - 1];
    for (uint32_t k = i; k + 1 < l->ncarried; k++) {
        in->args[2 + k] = in->args[3 + k];
        y->args[k] = y->args[k + 1];
        l->iter_args[k] = l->iter_args[k + 1];
        l->results[k] = l->results[k + 1];
        f->vals[l->iter_args[k]].index = k;
        f->vals[l->results[k]].index = k;
    }
    if (l->dyn_step)
        in->args[2 + l->ncarried - 1] = in->args[2 + l->ncarried];
    l->ncarried--;
    in->nargs--;
    y->nargs--;
}
