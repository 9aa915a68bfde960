/* plan.c: optimised SSA -> the interpreter's plan.
 *
 * requires: SSA that mt_verify accepts (types, shapes and scoping are
 * trusted here); produces: a Plan in the context's arena.
 *
 * Every value gets a fixed place in the per-thread frame, sized from its
 * type, so running a program instance allocates nothing. Constants and
 * parameters are written into each frame once per launch (presets).
 * expand_dims is a reshape of the same bytes, so its result shares its
 * operand's place. Operands whose type differs from the one an operation
 * computes in (the i32 of `x + 0.5`, a store's value of another type than
 * the pointee, a load's `other`) are converted by an explicit conversion
 * step (constants: converted once, here), so every kernel sees operands of
 * one type.
 *
 * Values that are the same in every program instance -- aranges, factory
 * blocks, and pure operations on them, on constants and on parameters --
 * are computed once per frame by the `init` steps instead of once per
 * program instance (a loop-invariant hoist over the whole grid). Integer
 * // and % stay where they are: they can fault, and a fault belongs to the
 * program instance that reaches it.
 *
 * Loops are planned in place: a `for` step is followed by its body's steps
 * and its `next` skips past them; the body ends with the yield's step.
 */
#include <string.h>

#include "interp.h"
#include "ssa/num.h"

typedef struct Val {
    uint32_t off;             /* data offset in the frame, NO_OFF until placed */
    uint32_t numel;
    int32_t shape[MT_MAX_RANK];
    uint8_t rank;
    uint8_t ek;               /* ElemKind */
    bool inv;                 /* the same in every program instance */
} Val;

typedef MT_VEC(Step) StepVec;

typedef struct Builder {
    MtCtx *c;
    const MtFunc *f;
    Val *vals;                /* per MtVal */
    uint32_t (*conv)[EK_COUNT_]; /* per constant: its place as another kind, 0 = none yet */
    uint64_t size;            /* frame bytes so far */
    StepVec init, main;
    MT_VEC(Preset) presets;
    MT_VEC(ParamSlot) params;
    const MtInst *loop;       /* the innermost `for` being planned */
    uint32_t lanes;           /* > 1 while planning a combine region: its scalars are vectors of lanes */
    bool no_hoist;            /* planning a region template: every step goes to main */
    int srank;                /* the shape of the step being built (set_shape) */
    int32_t sshape[MT_MAX_RANK];
} Builder;

static ElemKind kind_of(const MtType *t)
{
    const MtType *e = mt_ty_elem(t);
    return e->kind == TY_PTR ? EK_PTR : (ElemKind)e->dtype;
}

/* A new place for numel elements of kind ek, 64-byte aligned; a pointer
 * gets the line before its offsets for its buffer index. Past the frame
 * limit places are all 64 (the plan is then refused as a whole). */
static uint32_t place(Builder *b, ElemKind ek, uint64_t numel)
{
    uint64_t at = (b->size + 63) & ~(uint64_t)63;
    if (ek == EK_PTR)
        at += 64;
    b->size = at + numel * mt_interp_esize(ek);
    return b->size <= MT_INTERP_FRAME_LIMIT ? (uint32_t)at : 64;
}

static void set_type(Val *v, const MtType *t)
{
    v->ek = (uint8_t)kind_of(t);
    v->rank = (uint8_t)mt_ty_rank(t);
    v->shape[0] = v->shape[1] = 1;
    for (int d = 0; d < v->rank; d++)
        v->shape[d] = t->shape[d];
    int64_t n = mt_ty_numel(t);
    v->numel = n > 0 && (uint64_t)n < MT_INTERP_FRAME_LIMIT ? (uint32_t)n : (uint32_t)MT_INTERP_FRAME_LIMIT;
}

/* In a combine region (b->lanes > 1) a scalar is a vector of lanes. */
static void apply_lanes(const Builder *b, Val *x)
{
    if (b->lanes > 1 && x->rank == 0) {
        x->rank = 1;
        x->shape[0] = (int32_t)b->lanes;
        x->numel = b->lanes;
    }
}

/* Place a value defined by an instruction, a loop or a region. */
static Val *define(Builder *b, MtVal v, bool inv)
{
    Val *x = &b->vals[v];
    set_type(x, b->f->vals[v].ty);
    apply_lanes(b, x);
    x->off = place(b, (ElemKind)x->ek, x->numel);
    x->inv = inv;
    return x;
}

static void preset(Builder *b, uint32_t off, ElemKind ek, const void *bytes)
{
    Preset p = {.off = off, .size = (uint8_t)mt_interp_esize(ek)};
    memcpy(p.bytes, bytes, p.size);
    mt_vec_push(&b->c->arena, &b->presets, p);
}

/* A constant's bytes as kind ek: its value in its own type, converted by
 * tl.cast's rules. */
static void const_bytes(const MtValue *k, ElemKind ek, uint8_t out[8])
{
    MtNum x = mt_num_convert(mt_num_of_const(k->cst, k->ty), mt_ty_scalar((MtDtype)ek));
    mt_num_store(x, mt_ty_scalar((MtDtype)ek), out);
}

/* An operand: instruction results are placed by their definition;
 * constants and parameters get their place at their first use. */
static Val *value(Builder *b, MtVal v)
{
    Val *x = &b->vals[v];
    if (x->off != NO_OFF)
        return x;
    const MtValue *mv = &b->f->vals[v];
    if (mv->kind != VK_CONST && mv->kind != VK_PARAM)
        mt_ice(b->c, (MtSpan){0}, "interpreter: a value is used before its definition");
    set_type(x, mv->ty);
    x->off = place(b, (ElemKind)x->ek, 1);
    x->inv = true;
    if (mv->kind == VK_CONST) {
        uint8_t bytes[8];
        const_bytes(mv, (ElemKind)x->ek, bytes);
        preset(b, x->off, (ElemKind)x->ek, bytes);
    } else {
        ParamSlot p = {.off = x->off, .index = mv->index, .ek = x->ek};
        mt_vec_push(&b->c->arena, &b->params, p);
    }
    return x;
}

/* Append a step to the init or the main list; returns its index there. */
static uint32_t emit(Builder *b, bool inv, Step s)
{
    StepVec *v = inv ? &b->init : &b->main;
    s.next = v->n + 1;
    mt_vec_push(&b->c->arena, v, s);
    return v->n - 1;
}

/* v as kind ek: its own place, a converted constant, or the result of a
 * conversion step emitted now. */
static uint32_t as_kind(Builder *b, MtVal v, ElemKind ek)
{
    Val *x = value(b, v);
    if (x->ek == ek)
        return x->off;
    if (b->f->vals[v].kind == VK_CONST) {
        if (!b->conv[v][ek]) {
            uint8_t bytes[8];
            const_bytes(&b->f->vals[v], ek, bytes);
            b->conv[v][ek] = place(b, ek, 1);
            preset(b, b->conv[v][ek], ek, bytes);
        }
        return b->conv[v][ek];
    }
    Step s = {.kind = S_UNARY, .n = x->numel, .rows = 1, .cols = x->numel};
    s.u.un = mt_interp_convert_fn((ElemKind)x->ek, ek, false);
    s.a[0] = x->off;
    s.out = place(b, ek, x->numel);
    bool inv = x->inv;
    emit(b, inv, s);
    return s.out;
}

/* The result shape as rows x cols: the last dimension, and all the others
 * (a rank-1 block is one row). */
static void set_shape(Builder *b, Step *s, int rank, const int32_t *shape)
{
    s->rows = 1;
    for (int d = 0; d + 1 < rank; d++)
        s->rows *= (uint32_t)shape[d];
    s->cols = rank ? (uint32_t)shape[rank - 1] : 1;
    s->n = s->rows * s->cols;
    b->srank = rank;
    for (int d = 0; d < rank; d++)
        b->sshape[d] = shape[d];
}

/* A dense copy of x (at off, kind ek) broadcast to the step's shape: the
 * operand of a block of rank 3 or 4 that is neither the whole shape, one
 * element, one row nor one column. */
static uint32_t materialize(Builder *b, uint32_t off, const Val *x, ElemKind ek)
{
    Step c = {.kind = S_COPY, .out = NO_OFF, .a = {off, NO_OFF, NO_OFF}};
    c.osz = (uint8_t)mt_interp_esize(ek);
    c.u.copy.ptr = ek == EK_PTR;
    int r = b->srank, pad = 4 - r, lead = r - x->rank;
    int64_t stride = 1;
    for (int d = 3; d >= 0; d--) {
        int sd = d - pad;
        c.u.copy.n[d] = sd >= 0 ? b->sshape[sd] : 1;
        int xd = sd - lead;
        int32_t xn = xd >= 0 ? x->shape[xd] : 1;
        c.u.copy.ss[d] = xn == 1 ? 0 : stride;
        stride *= xn;
    }
    uint64_t numel = 1;
    for (int d = 0; d < r; d++)
        numel *= (uint64_t)b->sshape[d];
    c.n = (uint32_t)numel;
    c.out = place(b, ek, numel);
    emit(b, x->inv && !b->no_hoist, c);
    return c.out;
}

/* Operand i at `off`, with the shape of x, as kind ek: how it meets the
 * step's shape (set_shape), materialised when no mode fits. */
static void operand(Builder *b, Step *s, int i, uint32_t off, const Val *x, ElemKind ek)
{
    s->a[i] = off;
    s->asz[i] = (uint8_t)mt_interp_esize(ek);
    int r = b->srank, lead = r - x->rank;
    bool row = true, col = x->rank > 0;
    for (int d = 0; d + 1 < r; d++) {
        int32_t xn = d - lead >= 0 ? x->shape[d - lead] : 1;
        row &= xn == 1;
        col &= xn == b->sshape[d];
    }
    uint32_t last = x->rank ? (uint32_t)x->shape[x->rank - 1] : 1;
    row &= last == s->cols;
    col &= last == 1;
    if (x->numel == s->n) {
        s->mode[i] = BC_FULL;
    } else if (x->numel == 1) {
        s->mode[i] = BC_SCALAR;
    } else if (row) {
        s->mode[i] = BC_ROW;
    } else if (col) {
        s->mode[i] = BC_COL;
    } else {
        s->a[i] = materialize(b, off, x, ek);
        s->mode[i] = BC_FULL;
    }
}

/* After the operands: can the step run as one pass over n elements? */
static void finish(Step *s)
{
    s->flat = true;
    s->sc = 0;
    for (int i = 0; i < 3; i++) {
        if (s->a[i] == NO_OFF)
            continue;
        if (s->mode[i] == BC_SCALAR)
            s->sc |= 1u << i;
        else if (s->mode[i] != BC_FULL)
            s->flat = false;
    }
}

static Step new_step(StepKind kind, const MtInst *in)
{
    Step s = {.kind = (uint8_t)kind, .in = in, .out = NO_OFF, .a = {NO_OFF, NO_OFF, NO_OFF}};
    return s;
}

/* Operations that give the same result in every program instance when
 * their operands do, and cannot fault. */
static bool hoistable(int op)
{
    if (mt_op_class(op) == OC_ATOMIC || mt_op_class(op) == OC_DEBUG)
        return false;
    switch (op) {
    case OP_PROGRAM_ID:
    case OP_FLOORDIV:
    case OP_MOD:
    case OP_LOAD:
    case OP_STORE:
    case OP_FOR:
    case OP_YIELD:
    case OP_IF:
    case OP_WHILE:
    case OP_CONDITION:
    case OP_ASSUME:
        return false;
    default:
        return true;
    }
}

static bool invariant(Builder *b, const MtInst *in)
{
    if (b->no_hoist)
        return false;
    if (!hoistable(in->op))
        return false;
    for (uint32_t i = 0; i < in->nargs; i++)
        if (in->args[i] && !value(b, in->args[i])->inv)
            return false;
    return true;
}

/* The dtype an elementwise binary operation computes in: Triton's
 * computation type of its operands' types (integers divided by `/` in f32). */
static ElemKind compute_kind(Builder *b, const MtInst *in)
{
    const MtType *ct = mt_ty_computation(mt_ty_elem(mt_val_ty(b->f, in->args[0])), false,
                                         mt_ty_elem(mt_val_ty(b->f, in->args[1])), false,
                                         in->op == OP_DIV || in->op == OP_FLOORDIV || in->op == OP_MOD);
    if (!ct)
        mt_ice(b->c, in->span, "interpreter: operands without a computation type");
    if (in->op == OP_DIV && !mt_ty_is_float(ct))
        return MT_DT_F32;
    if (mt_op_class(in->op) == OC_MATH)
        return kind_of(in->ty);
    return (ElemKind)ct->dtype;
}

static void plan_binary(Builder *b, const MtInst *in, bool inv)
{
    Val *x = value(b, in->args[0]), *y = value(b, in->args[1]);
    ElemKind ct = compute_kind(b, in);
    bool div = (in->op == OP_FLOORDIV || in->op == OP_MOD) && !mt_ty_is_float(mt_ty_scalar((MtDtype)ct));
    Step s = new_step(div ? S_DIV : S_BINARY, in);
    uint32_t xa = as_kind(b, in->args[0], ct), ya = as_kind(b, in->args[1], ct);
    Val *r = define(b, in->dst, inv);
    set_shape(b, &s, r->rank, r->shape);
    operand(b, &s, 0, xa, x, ct);
    operand(b, &s, 1, ya, y, ct);
    s.out = r->off;
    s.osz = (uint8_t)mt_interp_esize((ElemKind)r->ek);
    if (div)
        s.u.div = mt_interp_div_fn(in->op, ct);
    else
        s.u.bin = mt_interp_binary_fn(in->op, ct);
    if (div ? !s.u.div : !s.u.bin)
        mt_ice(b->c, in->span, "interpreter: no kernel for this operation and type");
    finish(&s);
    emit(b, inv, s);
}

/* Offsets narrower than 32 bits (and i32) add as i32, wider ones and u32
 * as i64: a signed offset is sign-extended, an unsigned one zero-extended,
 * as Triton's addptr does. */
static void plan_addptr(Builder *b, const MtInst *in, bool inv)
{
    Val *p = value(b, in->args[0]), *o = value(b, in->args[1]);
    const MtType *ot = mt_ty_elem(mt_val_ty(b->f, in->args[1]));
    ElemKind ok = mt_ty_bits(ot) < 32 || ot->dtype == MT_DT_I32 ? MT_DT_I32 : MT_DT_I64;
    Step s = new_step(S_ADDPTR, in);
    uint32_t oa = as_kind(b, in->args[1], ok);
    Val *r = define(b, in->dst, inv);
    set_shape(b, &s, r->rank, r->shape);
    operand(b, &s, 0, p->off, p, EK_PTR);
    operand(b, &s, 1, oa, o, ok);
    s.out = r->off;
    s.osz = 8;
    s.u.bin = mt_interp_addptr_fn(ok);
    finish(&s);
    emit(b, inv, s);
}

static void plan_unary(Builder *b, const MtInst *in, bool inv)
{
    Val *x = value(b, in->args[0]);
    Step s = new_step(S_UNARY, in);
    Val *r = define(b, in->dst, inv);
    s.n = s.cols = r->numel;
    s.rows = 1;
    s.a[0] = x->off;
    s.out = r->off;
    if (mt_op_class(in->op) == OC_CAST)
        s.u.un = mt_interp_convert_fn((ElemKind)x->ek, (ElemKind)r->ek, in->attr.mode == MT_ROUND_RTZ);
    else
        s.u.un = mt_interp_unary_fn(in->op, (ElemKind)x->ek);
    if (!s.u.un)
        mt_ice(b->c, in->span, "interpreter: no kernel for this operation and type");
    emit(b, inv, s);
}

/* A result that is its operand's bytes seen as another type or shape
 * (expand_dims, bitcast, abs of an unsigned value): it shares the place. */
static void plan_alias(Builder *b, const MtInst *in)
{
    Val src = *value(b, in->args[0]);
    Val *r = &b->vals[in->dst];
    set_type(r, in->ty);
    if (src.numel != 1)
        apply_lanes(b, r);
    r->off = src.off;
    r->inv = src.inv;
}

static void plan_select(Builder *b, const MtInst *in, bool inv)
{
    ElemKind rk = kind_of(in->ty);
    Val *cnd = value(b, in->args[0]), *x = value(b, in->args[1]), *y = value(b, in->args[2]);
    Step s = new_step(S_SELECT, in);
    uint32_t xa = as_kind(b, in->args[1], rk), ya = as_kind(b, in->args[2], rk);
    Val *r = define(b, in->dst, inv);
    set_shape(b, &s, r->rank, r->shape);
    operand(b, &s, 0, cnd->off, cnd, MT_DT_I1);
    operand(b, &s, 1, xa, x, rk);
    operand(b, &s, 2, ya, y, rk);
    s.out = r->off;
    s.osz = (uint8_t)mt_interp_esize(rk);
    s.u.sel = mt_interp_select_fn(s.osz);
    finish(&s);
    emit(b, inv, s);
}

/* math.def rows of three operands: all of the result's type. */
static void plan_ternary(Builder *b, const MtInst *in, bool inv)
{
    ElemKind rk = kind_of(in->ty);
    Val *v[3];
    uint32_t at[3];
    for (int i = 0; i < 3; i++) {
        v[i] = value(b, in->args[i]);
        at[i] = as_kind(b, in->args[i], rk);
    }
    Step s = new_step(S_TERNARY, in);
    Val *r = define(b, in->dst, inv);
    set_shape(b, &s, r->rank, r->shape);
    for (int i = 0; i < 3; i++)
        operand(b, &s, i, at[i], v[i], rk);
    s.out = r->off;
    s.osz = (uint8_t)mt_interp_esize(rk);
    if (!(s.u.tern = mt_interp_ternary_fn(in->op, rk)))
        mt_ice(b->c, in->span, "interpreter: no kernel for this operation and type");
    finish(&s);
    emit(b, inv, s);
}

/* The broadcast shape of an instruction's present operands. */
static void broadcast_shape(Builder *b, const MtInst *in, int *rank, int32_t shape[MT_MAX_RANK])
{
    MtType acc = mt_ty_i32;
    for (uint32_t i = 0; i < in->nargs; i++) {
        if (!in->args[i])
            continue;
        int r;
        int32_t sh[MT_MAX_RANK];
        if (!mt_broadcast(&acc, mt_val_ty(b->f, in->args[i]), &r, sh))
            mt_ice(b->c, in->span, "interpreter: operands do not broadcast");
        acc.kind = r ? TY_BLOCK : TY_SCALAR;
        acc.rank = (uint8_t)r;
        for (int d = 0; d < r; d++)
            acc.shape[d] = sh[d];
    }
    *rank = acc.rank;
    for (int d = 0; d < acc.rank; d++)
        shape[d] = acc.shape[d];
}

static ElemKind pointee_kind(Builder *b, MtVal ptr)
{
    const MtType *pt = mt_ty_elem(mt_val_ty(b->f, ptr));
    return kind_of(pt->elem);
}

static void plan_load(Builder *b, const MtInst *in)
{
    ElemKind ek = pointee_kind(b, in->args[0]);
    Val *p = value(b, in->args[0]);
    Val *m = in->args[1] ? value(b, in->args[1]) : NULL;
    Val *o = in->args[2] ? value(b, in->args[2]) : NULL;
    uint32_t oa = o ? as_kind(b, in->args[2], ek) : NO_OFF;
    Step s = new_step(S_LOAD, in);
    Val *r = define(b, in->dst, false);
    set_shape(b, &s, r->rank, r->shape);
    operand(b, &s, 0, p->off, p, EK_PTR);
    if (m)
        operand(b, &s, 1, m->off, m, MT_DT_I1);
    if (o)
        operand(b, &s, 2, oa, o, ek);
    s.out = r->off;
    s.osz = (uint8_t)mt_interp_esize(ek);
    s.u.load = mt_interp_load_fn(s.osz, ek == MT_DT_I1);
    emit(b, false, s);
}

static void plan_store(Builder *b, const MtInst *in)
{
    ElemKind ek = pointee_kind(b, in->args[0]);
    Val *p = value(b, in->args[0]), *v = value(b, in->args[1]);
    Val *m = in->args[2] ? value(b, in->args[2]) : NULL;
    uint32_t va = as_kind(b, in->args[1], ek);
    Step s = new_step(S_STORE, in);
    int rank;
    int32_t shape[MT_MAX_RANK];
    broadcast_shape(b, in, &rank, shape);
    set_shape(b, &s, rank, shape);
    operand(b, &s, 0, p->off, p, EK_PTR);
    operand(b, &s, 1, va, v, ek);
    if (m)
        operand(b, &s, 2, m->off, m, MT_DT_I1);
    s.osz = (uint8_t)mt_interp_esize(ek);
    s.u.store = mt_interp_store_fn(s.osz);
    emit(b, false, s);
}

/* atomic_*: operands converted to the pointee type (atomic_cas: cmp and
 * value), the mask as bool; the old values as the result. */
static void plan_atomic(Builder *b, const MtInst *in)
{
    ElemKind ek = pointee_kind(b, in->args[0]);
    bool cas = in->op == OP_ATOMIC_CAS;
    Val *p = value(b, in->args[0]), *v = value(b, in->args[1]);
    Val *m = in->args[2] ? value(b, in->args[2]) : NULL;
    uint32_t va = as_kind(b, in->args[1], ek);
    uint32_t ma = m ? (cas ? as_kind(b, in->args[2], ek) : m->off) : NO_OFF;
    Step s = new_step(S_ATOMIC, in);
    Val *r = define(b, in->dst, false);
    set_shape(b, &s, r->rank, r->shape);
    operand(b, &s, 0, p->off, p, EK_PTR);
    operand(b, &s, 1, va, v, ek);
    if (m)
        operand(b, &s, 2, ma, m, cas ? ek : MT_DT_I1);
    s.out = r->off;
    s.osz = (uint8_t)mt_interp_esize(ek);
    s.u.atomic.op = in->op;
    s.u.atomic.ek = ek;
    emit(b, false, s);
}

/* device_print: a step per operand (its elements, its shape). */
static void plan_print(Builder *b, const MtInst *in)
{
    for (uint32_t i = 0; i < in->nargs; i++) {
        Val *x = value(b, in->args[i]);
        Step s = new_step(S_PRINT, in);
        s.a[0] = x->off;
        s.n = x->numel;
        s.u.print.text = in->attr.text ? in->attr.text : "";
        s.u.print.ek = x->ek;
        s.u.print.rank = (uint8_t)mt_ty_rank(mt_val_ty(b->f, in->args[i]));
        for (int d = 0; d < s.u.print.rank; d++)
            s.u.print.shape[d] = x->shape[d];
        s.u.print.operand = (uint16_t)i;
        s.u.print.noperands = (uint16_t)in->nargs;
        s.u.print.hex = in->attr.flags & MT_HEX;
        emit(b, false, s);
    }
}

/* device_assert: the condition and the mask, dense in their broadcast shape. */
static void plan_assert(Builder *b, const MtInst *in)
{
    Val *c = value(b, in->args[0]);
    Val *m = in->args[1] ? value(b, in->args[1]) : NULL;
    Step s = new_step(S_ASSERT, in);
    int rank;
    int32_t shape[MT_MAX_RANK];
    broadcast_shape(b, in, &rank, shape);
    set_shape(b, &s, rank, shape);
    s.a[0] = c->numel == s.n ? c->off : materialize(b, c->off, c, (ElemKind)c->ek);
    if (m)
        s.a[1] = m->numel == s.n ? m->off : materialize(b, m->off, m, MT_DT_I1);
    s.u.print.text = in->attr.text ? in->attr.text : "";
    s.u.print.ek = c->ek;
    s.u.print.rank = (uint8_t)rank;
    for (int d = 0; d < rank; d++)
        s.u.print.shape[d] = shape[d];
    emit(b, false, s);
}

/* x's shape around `axis` as (outer, n, inner): the dimensions before it,
 * its length, the dimensions after it. */
static void split_axis(const Val *x, int axis, uint32_t *outer, uint32_t *n, uint32_t *inner)
{
    *outer = *inner = 1;
    for (int d = 0; d < axis; d++)
        *outer *= (uint32_t)x->shape[d];
    *n = (uint32_t)x->shape[axis];
    for (int d = axis + 1; d < x->rank; d++)
        *inner *= (uint32_t)x->shape[d];
}

static void plan_reduce(Builder *b, const MtInst *in, bool inv)
{
    Val *x = value(b, in->args[0]);
    Step s = new_step(S_REDUCE, in);
    s.a[0] = x->off;
    split_axis(x, in->attr.axis, &s.u.red.outer, &s.u.red.n, &s.u.red.inner);
    s.n = x->numel;
    s.a[1] = place(b, (ElemKind)x->ek, s.u.red.n > 1 ? (uint64_t)s.u.red.n / 2 * s.u.red.inner : 1);
    if (!(s.u.red.fn = mt_interp_reduce_fn(in->op, (ElemKind)x->ek)))
        mt_ice(b->c, in->span, "interpreter: no reduction for this type");
    s.out = define(b, in->dst, inv)->off;
    emit(b, inv, s);
}

static void plan_scan(Builder *b, const MtInst *in, bool inv)
{
    Val *x = value(b, in->args[0]);
    Step s = new_step(S_SCAN, in);
    s.a[0] = x->off;
    split_axis(x, in->attr.axis, &s.u.scan.outer, &s.u.scan.n, &s.u.scan.inner);
    s.u.scan.reverse = in->attr.flags & MT_REVERSE;
    s.n = x->numel;
    if (!(s.u.scan.fn = mt_interp_scan_fn(in->op, (ElemKind)x->ek)))
        mt_ice(b->c, in->span, "interpreter: no scan for this type");
    s.out = define(b, in->dst, inv)->off;
    emit(b, inv, s);
}

/* A strided copy of src (dense, of shape sh) into dst, dense in the
 * order given: dst dimension d is src dimension order[d] (n: 1 to 4 dims). */
static void emit_copy(Builder *b, bool inv, const MtInst *in, uint32_t dst, uint32_t src, ElemKind ek, int n,
                      const int32_t *sh, const int *order)
{
    Step c = new_step(S_COPY, in);
    c.a[0] = src;
    c.out = dst;
    c.osz = (uint8_t)mt_interp_esize(ek);
    c.u.copy.ptr = ek == EK_PTR;
    int64_t stride[MT_MAX_RANK];
    int64_t st = 1;
    for (int d = n - 1; d >= 0; d--) {
        stride[d] = st;
        st *= sh[d];
    }
    for (int d = 0; d < 4; d++) {
        int k = d - (4 - n);
        c.u.copy.n[d] = k >= 0 ? sh[order[k]] : 1;
        c.u.copy.ss[d] = k >= 0 ? stride[order[k]] : 0;
    }
    c.n = (uint32_t)st;
    emit(b, inv, c);
}

/* broadcast and permute: a strided copy; reshape and expand_dims share
 * their operand's bytes. */
static void plan_shape(Builder *b, const MtInst *in, bool inv)
{
    if (in->op == OP_RESHAPE || in->op == OP_EXPAND_DIMS) {
        plan_alias(b, in);
        return;
    }
    Val *x = value(b, in->args[0]);
    Val *r = define(b, in->dst, inv);
    if (in->op == OP_PERMUTE) {
        int order[MT_MAX_RANK];
        for (int d = 0; d < r->rank; d++)
            order[d] = in->attr.shape[d];
        emit_copy(b, inv, in, r->off, x->off, (ElemKind)x->ek, x->rank, x->shape, order);
        return;
    }
    Step c = new_step(S_COPY, in);
    c.a[0] = x->off;
    c.out = r->off;
    c.osz = (uint8_t)mt_interp_esize((ElemKind)x->ek);
    c.u.copy.ptr = x->ek == EK_PTR;
    int64_t st = 1;
    for (int d = 3; d >= 0; d--) {
        int k = d - (4 - r->rank);
        int32_t xn = k >= 0 && x->rank ? x->shape[k] : 1;
        c.u.copy.n[d] = k >= 0 ? r->shape[k] : 1;
        c.u.copy.ss[d] = xn == 1 ? 0 : st;
        st *= xn;
    }
    c.n = r->numel;
    emit(b, inv, c);
}

static void plan_inst(Builder *b, const MtInst *in);

/* Plan a combine region's instructions (not its yield) as steps over
 * vectors of `lanes`, cut out of the main list as a template; *yield_at
 * gets, per yielded value, a fresh vector the template's last steps copy
 * it into. */
static Step *plan_template(Builder *b, const MtInst *nest, uint32_t lanes, uint32_t *nsteps, uint32_t *yield_at)
{
    const MtBody *body = &nest->nest->body[0];
    uint32_t saved_lanes = b->lanes;
    bool saved_hoist = b->no_hoist;
    b->lanes = lanes;
    b->no_hoist = true;
    for (uint32_t i = 0; i < body->nargs; i++)
        define(b, body->args[i], false);
    uint32_t start = b->main.n;
    const MtRegion *r = &body->insts;
    for (uint32_t i = 0; i + 1 < r->n; i++)
        plan_inst(b, r->v[i]);
    const MtInst *y = r->v[r->n - 1];
    for (uint32_t i = 0; i < y->nargs; i++) {
        const MtType *et = mt_ty_elem(mt_val_ty(b->f, y->args[i]));
        ElemKind ek = kind_of(et);
        Val *v = value(b, y->args[i]);
        uint32_t at = place(b, ek, lanes);
        Step c = new_step(v->numel == lanes ? S_COPY : S_FILL, y);
        c.a[0] = v->off;
        c.out = at;
        c.n = lanes;
        c.osz = (uint8_t)mt_interp_esize(ek);
        c.u.copy.ptr = ek == EK_PTR;
        if (c.kind == S_COPY) {
            for (int d = 0; d < 4; d++) {
                c.u.copy.n[d] = d == 3 ? (int32_t)lanes : 1;
                c.u.copy.ss[d] = d == 3;
            }
        }
        emit(b, false, c);
        yield_at[i] = at;
    }
    *nsteps = b->main.n - start;
    Step *t = mt_arena_alloc(&b->c->arena, (*nsteps + 1) * sizeof *t);
    memcpy(t, b->main.v + start, *nsteps * sizeof *t);
    b->main.n = start;
    b->lanes = saved_lanes;
    b->no_hoist = saved_hoist;
    return t;
}

/* The template's steps again, over `lanes` instead of the `planned` lanes. */
static void emit_template(Builder *b, const Step *t, uint32_t n, uint32_t planned, uint32_t lanes)
{
    for (uint32_t i = 0; i < n; i++) {
        Step s = t[i];
        if (s.n == planned && lanes != planned) {
            s.n = s.cols = lanes;
            s.rows = 1;
            if (s.kind == S_COPY)
                s.u.copy.n[3] = (int32_t)lanes;
        }
        emit(b, false, s);
    }
}

/* A contiguous run of `count` elements of kind ek from src to dst. */
static void emit_run(Builder *b, const MtInst *in, uint32_t dst, uint32_t src, ElemKind ek, uint32_t count,
                     uint32_t outer, uint32_t stride)
{
    Step c = new_step(S_COPY, in);
    c.a[0] = src;
    c.out = dst;
    c.osz = (uint8_t)mt_interp_esize(ek);
    c.u.copy.ptr = ek == EK_PTR;
    int32_t n[4] = {1, 1, (int32_t)outer, (int32_t)count};
    int64_t ss[4] = {0, 0, stride, 1};
    memcpy(c.u.copy.n, n, sizeof n);
    memcpy(c.u.copy.ss, ss, sizeof ss);
    c.n = outer * count;
    emit(b, false, c);
}

/* tl.reduce: the tree of the other reductions along the axis, level by
 * level: the first halves of the rows are the accumulated values, the
 * second halves the next ones, and the combine region runs over all of
 * them as vectors. */
static void plan_reduce_nest(Builder *b, const MtInst *in)
{
    uint32_t n = in->nargs;
    const Val *x0 = value(b, in->args[0]);
    uint32_t outer, len, inner;
    split_axis(x0, in->attr.axis, &outer, &len, &inner);
    uint32_t *cur = mt_arena_alloc(&b->c->arena, (n + 1) * sizeof *cur);
    ElemKind *ek = mt_arena_alloc(&b->c->arena, (n + 1) * sizeof *ek);
    for (uint32_t i = 0; i < n; i++) {
        Val *x = value(b, in->args[i]);
        cur[i] = x->off;
        ek[i] = (ElemKind)x->ek;
    }
    if (len > 1) {
        uint32_t planned = outer * (len / 2) * inner, nsteps;
        uint32_t *yat = mt_arena_alloc(&b->c->arena, (n + 1) * sizeof *yat);
        Step *t = plan_template(b, in, planned, &nsteps, yat);
        const MtBody *body = &in->nest->body[0];
        for (uint32_t w = len; w > 1; w /= 2) {
            uint32_t h = w / 2;
            for (uint32_t i = 0; i < n; i++) {
                size_t es = mt_interp_esize(ek[i]);
                emit_run(b, in, b->vals[body->args[i]].off, cur[i], ek[i], h * inner, outer, w * inner);
                emit_run(b, in, b->vals[body->args[n + i]].off, cur[i] + (uint32_t)(h * inner * es), ek[i],
                         h * inner, outer, w * inner);
            }
            emit_template(b, t, nsteps, planned, outer * h * inner);
            for (uint32_t i = 0; i < n; i++)
                cur[i] = yat[i];
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        Val *r = &b->vals[in->nest->results[i]];
        set_type(r, mt_val_ty(b->f, in->nest->results[i]));
        r->off = cur[i];
        r->inv = false;
    }
}

/* tl.associative_scan: the operands with the axis first (a copy), each
 * position combined with the previous result as vectors over the other
 * dimensions, then the result back in the operands' order. */
static void plan_scan_nest(Builder *b, const MtInst *in)
{
    uint32_t n = in->nargs;
    const Val *x0 = value(b, in->args[0]);
    uint32_t outer, len, inner;
    split_axis(x0, in->attr.axis, &outer, &len, &inner);
    uint32_t lanes = outer * inner;
    bool rev = in->attr.flags & MT_REVERSE;
    int32_t sh3[3] = {(int32_t)outer, (int32_t)len, (int32_t)inner};
    int axis_first[3] = {1, 0, 2}, back[3] = {1, 0, 2};
    uint32_t *xt = mt_arena_alloc(&b->c->arena, (2 * n + 1) * sizeof *xt), *rt = xt + n;
    ElemKind *ek = mt_arena_alloc(&b->c->arena, (n + 1) * sizeof *ek);
    for (uint32_t i = 0; i < n; i++) {
        Val *x = value(b, in->args[i]);
        ek[i] = (ElemKind)x->ek;
        xt[i] = place(b, ek[i], x->numel);
        rt[i] = place(b, ek[i], x->numel);
        emit_copy(b, false, in, xt[i], x->off, ek[i], 3, sh3, axis_first);
        size_t es = mt_interp_esize(ek[i]);
        uint32_t first = (uint32_t)((rev ? len - 1 : 0) * lanes * es);
        emit_run(b, in, rt[i] + first, xt[i] + first, ek[i], lanes, 1, 0);
    }
    uint32_t nsteps;
    uint32_t *yat = mt_arena_alloc(&b->c->arena, (n + 1) * sizeof *yat);
    Step *t = plan_template(b, in, lanes, &nsteps, yat);
    const MtBody *body = &in->nest->body[0];
    for (uint32_t k = 1; k < len; k++) {
        uint32_t j = rev ? len - 1 - k : k, p = rev ? j + 1 : j - 1;
        for (uint32_t i = 0; i < n; i++) {
            size_t es = mt_interp_esize(ek[i]);
            emit_run(b, in, b->vals[body->args[i]].off, rt[i] + (uint32_t)(p * lanes * es), ek[i], lanes, 1, 0);
            emit_run(b, in, b->vals[body->args[n + i]].off, xt[i] + (uint32_t)(j * lanes * es), ek[i], lanes, 1, 0);
        }
        emit_template(b, t, nsteps, lanes, lanes);
        for (uint32_t i = 0; i < n; i++)
            emit_run(b, in, rt[i] + (uint32_t)(j * lanes * mt_interp_esize(ek[i])), yat[i], ek[i], lanes, 1, 0);
    }
    int32_t shl[3] = {(int32_t)len, (int32_t)outer, (int32_t)inner};
    for (uint32_t i = 0; i < n; i++) {
        Val *r = define(b, in->nest->results[i], false);
        emit_copy(b, false, in, r->off, rt[i], ek[i], 3, shl, back);
    }
}

/* tl.empty's contents: a quiet NaN with a visible payload, an unlikely
 * integer, true. */
static uint64_t poison(ElemKind ek)
{
    switch ((MtDtype)ek) {
    case MT_DT_I1: return 1;
    case MT_DT_I8:
    case MT_DT_U8: return 0xad;
    case MT_DT_I16:
    case MT_DT_U16: return 0x7bad;
    case MT_DT_I32:
    case MT_DT_U32: return 0x7fbadbadu;
    case MT_DT_I64:
    case MT_DT_U64: return 0x7fbadbad7fbadbadull;
    case MT_DT_F16: return 0x7ead;
    case MT_DT_BF16: return 0x7fad;
    case MT_DT_F32: return 0x7fc00badu;
    case MT_DT_F64: return 0x7ff8000000000badull;
    case MT_DTYPE_COUNT: break;
    }
    return 0;
}

static void plan_factory(Builder *b, const MtInst *in, bool inv)
{
    ElemKind ek = kind_of(in->attr.dtype);
    Step s = new_step(in->op == OP_ZEROS ? S_ZEROS : S_FILL, in);
    if (in->op == OP_FULL)
        s.a[0] = as_kind(b, in->args[0], ek);
    s.u.pattern = poison(ek);
    Val *r = define(b, in->dst, inv);
    s.out = r->off;
    s.n = r->numel;
    s.osz = (uint8_t)mt_interp_esize(ek);
    emit(b, inv, s);
}

static void plan_dot(Builder *b, const MtInst *in, bool inv)
{
    Val *x = value(b, in->args[0]), *y = value(b, in->args[1]);
    Step s = new_step(S_DOT, in);
    s.a[0] = x->off;
    s.a[1] = y->off;
    Val *r = define(b, in->dst, inv);
    set_shape(b, &s, r->rank, r->shape);
    s.u.dot.k = (uint32_t)x->shape[1];
    s.u.dot.tf32 = in->attr.mode == MT_DOT_TF32;
    s.out = r->off;
    emit(b, inv, s);
}

/* A copy of value v's bytes (with a pointer's buffer index). */
static Copy copy_of(const Val *from, const Val *to)
{
    uint32_t bytes = to->numel * (uint32_t)mt_interp_esize((ElemKind)to->ek);
    if (to->ek == EK_PTR)
        return (Copy){from->off - 8, to->off - 8, bytes + 8};
    return (Copy){from->off, to->off, bytes};
}

static void plan_region(Builder *b, const MtRegion *r);

static void plan_for(Builder *b, const MtInst *in)
{
    const MtForData *l = in->loop;
    uint32_t n = l->ncarried;
    Step s = new_step(S_FOR, in);
    s.a[0] = value(b, in->args[0])->off;
    s.a[1] = value(b, in->args[1])->off;
    s.a[2] = l->dyn_step ? value(b, in->args[2 + n])->off : NO_OFF;
    s.u.loop.step = l->step;
    s.u.loop.ivk = (uint8_t)kind_of(mt_val_ty(b->f, l->iv));
    s.u.loop.iv = define(b, l->iv, false)->off;
    Copy *init = mt_arena_alloc(&b->c->arena, (n + 1) * sizeof *init);
    Copy *result = mt_arena_alloc(&b->c->arena, (n + 1) * sizeof *result);
    for (uint32_t i = 0; i < n; i++) {
        Val *from = value(b, in->args[2 + i]);
        init[i] = copy_of(from, define(b, l->iter_args[i], false));
    }
    s.u.loop.init = init;
    s.u.loop.result = result;
    s.u.loop.ncopies = n;
    uint32_t at = emit(b, false, s);
    b->main.v[at].u.loop.body = b->main.n;
    const MtInst *outer = b->loop;
    b->loop = in;
    plan_region(b, &l->body);
    b->loop = outer;
    b->main.v[at].next = b->main.n;
    for (uint32_t i = 0; i < n; i++)
        result[i] = copy_of(&b->vals[l->iter_args[i]], define(b, l->results[i], false));
}

/* Whether copy a's source bytes overlap copy b's target bytes. */
static bool overlaps(const Copy *a, const Copy *b) { return a->src < b->dst + b->bytes && b->dst < a->src + a->bytes; }

/* yield: the values for the next iteration are copied into the region
 * arguments as one parallel assignment. A value that is itself a region
 * argument (or a reshape of one) could be overwritten before it is read,
 * so then every value goes through a staging area first. */
static void plan_yield_to(Builder *b, const MtInst *in, const MtVal *vals, uint32_t nvals, const MtVal *targets)
{
    Copy *copies = mt_arena_alloc(&b->c->arena, (nvals + 1) * sizeof *copies);
    uint32_t n = 0, total = 0;
    for (uint32_t i = 0; i < nvals; i++) {
        Copy cp = copy_of(value(b, vals[i]), &b->vals[targets[i]]);
        if (cp.src != cp.dst) {
            copies[n++] = cp;
            total += cp.bytes;
        }
    }
    bool clash = false;
    for (uint32_t i = 0; i < n && !clash; i++)
        for (uint32_t j = 0; j < n && !clash; j++)
            clash = overlaps(&copies[i], &copies[j]);
    Step s = new_step(S_YIELD, in);
    s.u.yield.copies = copies;
    s.u.yield.ncopies = n;
    s.u.yield.staging = clash ? place(b, MT_DT_I1, total) : NO_OFF;
    emit(b, false, s);
}

static void plan_yield(Builder *b, const MtInst *in)
{
    plan_yield_to(b, in, in->args, in->nargs, b->loop->loop->iter_args);
}

/* Copies of n values into n places (loop inits, forwarded values). */
static Copy *copies_of(Builder *b, const MtVal *from, const MtVal *to, uint32_t n)
{
    Copy *c = mt_arena_alloc(&b->c->arena, (n + 1) * sizeof *c);
    for (uint32_t i = 0; i < n; i++)
        c[i] = copy_of(value(b, from[i]), &b->vals[to[i]]);
    return c;
}

/* The instructions of a region before its terminator. */
static void plan_body(Builder *b, const MtRegion *r)
{
    for (uint32_t i = 0; i + 1 < r->n; i++)
        plan_inst(b, r->v[i]);
}

/* if: the step, then the then-region's steps and copies of its yield into
 * the results, then the else-region's. */
static void plan_if(Builder *b, const MtInst *in)
{
    const MtNest *x = in->nest;
    Step s = new_step(S_IF, in);
    s.a[0] = value(b, in->args[0])->off;
    for (uint32_t i = 0; i < x->nresults; i++)
        define(b, x->results[i], false);
    uint32_t at = emit(b, false, s);
    for (uint32_t k = 0; k < 2; k++) {
        if (k)
            b->main.v[at].u.branch.mid = b->main.n;
        const MtRegion *r = &x->body[k].insts;
        plan_body(b, r);
        const MtInst *y = r->v[r->n - 1];
        plan_yield_to(b, y, y->args, y->nargs, x->results);
    }
    b->main.v[at].next = b->main.n;
}

/* while: inits into the condition region's arguments; each round runs the
 * condition region, then (while it holds) copies the forwarded values into
 * the body's arguments and runs the body, whose yield copies the next
 * carried values back; at the end the forwarded values are the results. */
static void plan_while(Builder *b, const MtInst *in)
{
    const MtNest *x = in->nest;
    uint32_t n = in->nargs, m = x->nresults;
    for (uint32_t i = 0; i < n; i++)
        define(b, x->body[0].args[i], false);
    for (uint32_t i = 0; i < m; i++) {
        define(b, x->body[1].args[i], false);
        define(b, x->results[i], false);
    }
    Step s = new_step(S_WHILE, in);
    s.u.wloop.init = copies_of(b, in->args, x->body[0].args, n);
    s.u.wloop.ninit = n;
    uint32_t at = emit(b, false, s);
    const MtRegion *cr = &x->body[0].insts;
    plan_body(b, cr);
    const MtInst *c = cr->v[cr->n - 1];
    b->main.v[at].a[0] = value(b, c->args[0])->off;
    b->main.v[at].u.wloop.fwd = copies_of(b, c->args + 1, x->body[1].args, m);
    b->main.v[at].u.wloop.result = copies_of(b, c->args + 1, x->results, m);
    b->main.v[at].u.wloop.nfwd = m;
    b->main.v[at].u.wloop.body = b->main.n;
    const MtRegion *br = &x->body[1].insts;
    plan_body(b, br);
    const MtInst *y = br->v[br->n - 1];
    plan_yield_to(b, y, y->args, y->nargs, x->body[0].args);
    b->main.v[at].next = b->main.n;
}

static void plan_inst(Builder *b, const MtInst *in)
{
    if (in->op == OP_FOR) {
        plan_for(b, in);
        return;
    }
    if (in->op == OP_YIELD) {
        plan_yield(b, in);
        return;
    }
    if (in->op == OP_IF) {
        plan_if(b, in);
        return;
    }
    if (in->op == OP_WHILE) {
        plan_while(b, in);
        return;
    }
    bool inv = invariant(b, in);
    switch (in->op) {
    case OP_PROGRAM_ID:
    case OP_NUM_PROGRAMS: {
        Step s = new_step(in->op == OP_PROGRAM_ID ? S_PROGRAM_ID : S_NUM_PROGRAMS, in);
        s.u.axis = in->attr.axis;
        s.out = define(b, in->dst, false)->off;
        emit(b, false, s);
        return;
    }
    case OP_ARANGE: {
        Step s = new_step(S_ARANGE, in);
        s.u.start = (int32_t)in->attr.start;
        Val *r = define(b, in->dst, inv);
        s.out = r->off;
        s.n = r->numel;
        emit(b, inv, s);
        return;
    }
    case OP_ADDPTR: plan_addptr(b, in, inv); return;
    case OP_NEG:
        if (mt_ty_is_bool(mt_ty_elem(in->ty)))
            plan_alias(b, in); /* 0 - x in one bit is x */
        else
            plan_unary(b, in, inv);
        return;
    case OP_NOT:
    case OP_CAST: plan_unary(b, in, inv); return;
    case OP_ABS:
        if (mt_ty_is_unsigned(mt_ty_elem(in->ty)))
            plan_alias(b, in);
        else
            plan_unary(b, in, inv);
        return;
    case OP_BITCAST: plan_alias(b, in); return;
    case OP_SELECT: plan_select(b, in, inv); return;
    case OP_LOAD: plan_load(b, in); return;
    case OP_STORE: plan_store(b, in); return;
    case OP_ATOMIC_ADD:
    case OP_ATOMIC_MAX:
    case OP_ATOMIC_MIN:
    case OP_ATOMIC_AND:
    case OP_ATOMIC_OR:
    case OP_ATOMIC_XOR:
    case OP_ATOMIC_XCHG:
    case OP_ATOMIC_CAS: plan_atomic(b, in); return;
    case OP_DEBUG_BARRIER: return; /* a program runs on one thread: nothing to wait for */
    case OP_DEVICE_PRINT: plan_print(b, in); return;
    case OP_DEVICE_ASSERT: plan_assert(b, in); return;
    case OP_SUM:
    case OP_MAX:
    case OP_MIN:
    case OP_XOR_SUM: plan_reduce(b, in, inv); return;
    case OP_CUMSUM:
    case OP_CUMPROD: plan_scan(b, in, inv); return;
    case OP_REDUCE: plan_reduce_nest(b, in); return;
    case OP_SCAN: plan_scan_nest(b, in); return;
    case OP_EXPAND_DIMS:
    case OP_RESHAPE:
    case OP_PERMUTE:
    case OP_BROADCAST: plan_shape(b, in, inv); return;
    case OP_MULTIPLE_OF:
    case OP_MAX_CONTIGUOUS:
    case OP_MAX_CONSTANCY: plan_alias(b, in); return; /* facts for the GPU: the value itself */
    case OP_ASSUME: return;                           /* not checked, as in Triton */
    case OP_ZEROS:
    case OP_FULL:
    case OP_EMPTY: plan_factory(b, in, inv); return;
    case OP_DOT: plan_dot(b, in, inv); return;
    default:
        if (mt_op_class(in->op) == OC_MATH && in->nargs == 1) {
            plan_unary(b, in, inv);
            return;
        }
        if (mt_op_class(in->op) == OC_MATH && in->nargs == 3) {
            plan_ternary(b, in, inv);
            return;
        }
        if (mt_op_info[in->op].flags & F_ELEM) {
            plan_binary(b, in, inv);
            return;
        }
        mt_ice(b->c, in->span, "interpreter: unknown operation");
    }
}

static void plan_region(Builder *b, const MtRegion *r)
{
    for (uint32_t i = 0; i < r->n; i++)
        plan_inst(b, r->v[i]);
}

bool mt_interp_plan(MtCtx *c, const MtFunc *f, Plan *out)
{
    Builder b = {.c = c, .f = f, .size = 64};
    b.vals = mt_arena_alloc(&c->arena, (f->nvals + 1) * sizeof *b.vals);
    b.conv = mt_arena_alloc(&c->arena, (f->nvals + 1) * sizeof *b.conv);
    for (uint32_t v = 0; v < f->nvals; v++)
        b.vals[v].off = NO_OFF;
    plan_region(&b, &f->body);
    if (b.size > MT_INTERP_FRAME_LIMIT) {
        out->frame_size = (size_t)b.size;
        return false;
    }
    uint64_t work = 0;
    for (uint32_t i = 0; i < b.main.n; i++) {
        const Step *s = &b.main.v[i];
        work += s->kind == S_DOT ? (uint64_t)s->n * s->u.dot.k : s->n ? s->n : 1;
    }
    *out = (Plan){
        .frame_size = (size_t)b.size,
        .init = b.init.v,
        .ninit = b.init.n,
        .main = b.main.v,
        .nmain = b.main.n,
        .presets = b.presets.v,
        .npresets = b.presets.n,
        .params = b.params.v,
        .nparams = b.params.n,
        .work = work,
    };
    return true;
}
