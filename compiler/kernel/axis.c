/* axis.c: what is known of a value's elements along each dimension, for
 * vectorising loads and stores (Triton's AxisInfo).
 *
 * For every SSA value and every dimension d, three powers of two:
 *   contig  runs of this many consecutive elements along d hold consecutive
 *           values (x, x+1, ...): offsets from tl.arange;
 *   div     the first element of each such run is a multiple of this (for
 *           pointers: its byte address is);
 *   cnst    runs of this many elements along d are equal (a scalar or a
 *           broadcast dimension: the whole size).
 * The facts come from constants, the signature's ":16" hints, tl.arange,
 * program ids and the tl.multiple_of / max_contiguous / max_constancy
 * hints, and flow through +, -, *, %, expand_dims, broadcasting, pointer
 * offsets, comparisons and & / |; any other block knows nothing (1, 1, 1)
 * and any other scalar is constant. Loop-carried values start from their
 * initial value and meet their yielded one until nothing changes; an if's
 * results meet both branches' yields.
 *
 * A load or store of `vec` consecutive elements per access is valid when
 * the pointer's runs are at least vec long and vec * size bytes aligned,
 * and the mask (and `other`) are constant over each run. */
#include "lower.h"

#include <string.h>

enum { BIG = 1 << 30 };

static int32_t gcd(int32_t a, int32_t b)
{
    while (b) {
        int32_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int32_t min32(int32_t a, int32_t b) { return a < b ? a : b; }

/* The largest power of two dividing v (0: BIG). */
static int32_t pow2_div(int64_t v)
{
    if (!v)
        return BIG;
    int32_t p = 1;
    while (!(v & p) && p < BIG)
        p <<= 1;
    return p;
}

static int rank_of(const MtType *t) { return t && t->kind == TY_BLOCK ? t->rank : 0; }

/* The facts of a scalar: one run, divisibility div, constant everywhere. */
static LAxis scalar(int32_t div)
{
    LAxis a;
    for (int d = 0; d < MT_LL_MAX_RANK; d++) {
        a.contig[d] = 1;
        a.div[d] = div;
        a.cnst[d] = BIG;
    }
    return a;
}

/* The facts of a value nothing is known about: a block's elements may all
 * differ; a scalar is one value. */
static LAxis unknown(const MtType *t)
{
    LAxis a = scalar(1);
    for (int d = 0; d < rank_of(t); d++)
        a.cnst[d] = 1;
    return a;
}

/* The largest power of two dividing a hint's value for dimension d. */
static int32_t hint_of(const MtInst *in, int d)
{
    return pow2_div(in->attr.shape[in->attr.rank > 1 ? d : 0]);
}

/* v's facts seen from a result of shape `t` (broadcast: a size-1 dimension
 * of v, or a missing one, is constant along the result's). */
static LAxis seen_as(const LAxis *info, const MtFunc *f, MtVal v, const MtType *t)
{
    const MtType *vt = mt_val_ty(f, v);
    LAxis a = info[v];
    int rv = rank_of(vt), rt = rank_of(t);
    LAxis r = scalar(a.div[0]);
    for (int d = 0; d < rt; d++) {
        int dv = d - (rt - rv);
        if (dv < 0 || vt->shape[dv] == 1) {
            r.contig[d] = 1;
            r.div[d] = dv < 0 ? a.div[0] : a.div[dv];
            r.cnst[d] = BIG;
        } else {
            r.contig[d] = a.contig[dv];
            r.div[d] = a.div[dv];
            r.cnst[d] = a.cnst[dv];
        }
    }
    return r;
}

static LAxis meet(LAxis a, LAxis b)
{
    for (int d = 0; d < MT_LL_MAX_RANK; d++) {
        a.contig[d] = min32(a.contig[d], b.contig[d]);
        a.div[d] = gcd(a.div[d], b.div[d]);
        a.cnst[d] = min32(a.cnst[d], b.cnst[d]);
    }
    return a;
}

static bool same(const LAxis *a, const LAxis *b) { return !memcmp(a, b, sizeof *a); }

static LAxis inst_axis(Lw *L, const MtInst *in)
{
    const MtFunc *f = L->f;
    const MtType *t = in->ty;
    int rank = rank_of(t);
    LAxis x[3], r = unknown(t);
    for (uint32_t i = 0; i < in->nargs && i < 3; i++)
        x[i] = in->args[i] ? seen_as(L->axis, f, in->args[i], t) : scalar(BIG);
    switch (in->op) {
    case OP_ARANGE:
        r.contig[0] = (int32_t)(in->attr.end - in->attr.start);
        r.div[0] = pow2_div(in->attr.start);
        r.cnst[0] = 1;
        return r;
    case OP_ZEROS:
    case OP_FULL:
        return in->op == OP_FULL ? seen_as(L->axis, f, in->args[0], t) : scalar(BIG);
    case OP_PROGRAM_ID:
        return scalar(1);
    case OP_MULTIPLE_OF:
    case OP_MAX_CONTIGUOUS:
    case OP_MAX_CONSTANCY:
        r = L->axis[in->args[0]];
        for (int d = 0; d < (rank ? rank : 1); d++) {
            int32_t *fact = in->op == OP_MULTIPLE_OF ? r.div : in->op == OP_MAX_CONTIGUOUS ? r.contig : r.cnst;
            fact[d] = hint_of(in, d);
        }
        return r;
    case OP_EXPAND_DIMS: {
        const LAxis *a = &L->axis[in->args[0]];
        int k = 0;
        for (int d = 0; d < rank; d++) {
            if (d == in->attr.axis) {
                r.contig[d] = 1;
                r.div[d] = a->div[0];
                r.cnst[d] = BIG;
            } else {
                r.contig[d] = a->contig[k];
                r.div[d] = a->div[k];
                r.cnst[d] = a->cnst[k];
                k++;
            }
        }
        return r;
    }
    case OP_ADD:
    case OP_SUB:
    case OP_ADDPTR: {
        int32_t scale = 1;
        if (in->op == OP_ADDPTR)
            scale = mt_ty_info(mt_ty_elem(mt_val_ty(f, in->args[0]))->elem)->size;
        for (int d = 0; d < MT_LL_MAX_RANK; d++) {
            int32_t c0 = min32(x[0].contig[d], x[1].cnst[d]), c1 = in->op == OP_SUB ? 1 : min32(x[1].contig[d], x[0].cnst[d]);
            r.contig[d] = c0 > c1 ? c0 : c1;
            int32_t d1 = x[1].div[d] >= BIG / scale ? BIG : x[1].div[d] * scale;
            r.div[d] = gcd(x[0].div[d], d1);
            r.cnst[d] = min32(x[0].cnst[d], x[1].cnst[d]);
        }
        return r;
    }
    case OP_MUL:
        /* a stride specialised to 1 keeps the offsets' facts, on either
         * side (the SSA keeps `mul 1, x` as the seeds do) */
        for (int i = 0; i < 2; i++)
            if (mt_val_is_int(f, in->args[i], 1) && mt_val_ty(f, in->args[1 - i]) == t)
                return x[1 - i];
        for (int d = 0; d < MT_LL_MAX_RANK; d++) {
            int64_t p = (int64_t)x[0].div[d] * x[1].div[d];
            r.div[d] = p >= BIG ? BIG : (int32_t)p;
            r.cnst[d] = min32(x[0].cnst[d], x[1].cnst[d]);
            r.contig[d] = 1;
        }
        return r;
    case OP_MOD:
        /* a run of consecutive values starting at a multiple of g, modulo a
         * constant multiple of g, wraps only at multiples of g (Triton's
         * rule for `(pid * BN + tl.arange(0, BN)) % N`) */
        for (int d = 0; d < MT_LL_MAX_RANK; d++) {
            int32_t g = gcd(x[0].div[d], x[1].div[d]);
            r.contig[d] = x[1].cnst[d] >= x[0].contig[d] ? min32(x[0].contig[d], g) : 1;
            r.div[d] = g;
            r.cnst[d] = min32(x[0].cnst[d], x[1].cnst[d]);
        }
        return r;
    case OP_CMP_LT:
    case OP_CMP_LE:
    case OP_CMP_GT:
    case OP_CMP_GE:
    case OP_CMP_EQ:
    case OP_CMP_NE:
        /* a run of consecutive values starting at a multiple of g against a
         * constant multiple of g: the comparison holds for all of it or for
         * none of it (g = gcd of both divisibilities) */
        for (int d = 0; d < MT_LL_MAX_RANK; d++) {
            int32_t g = gcd(x[0].div[d], x[1].div[d]);
            int32_t k = min32(x[0].cnst[d], x[1].cnst[d]);
            int32_t k0 = min32(min32(x[0].contig[d], x[1].cnst[d]), g);
            int32_t k1 = min32(min32(x[1].contig[d], x[0].cnst[d]), g);
            r.cnst[d] = k > k0 ? (k > k1 ? k : k1) : (k0 > k1 ? k0 : k1);
            r.contig[d] = 1;
            r.div[d] = 1;
        }
        return r;
    case OP_AND:
    case OP_OR:
    case OP_SELECT:
        for (int d = 0; d < rank; d++) {
            r.cnst[d] = min32(x[0].cnst[d], x[1].cnst[d]);
            if (in->op == OP_SELECT)
                r.cnst[d] = min32(r.cnst[d], x[2].cnst[d]);
        }
        return r;
    default:
        return r;
    }
}

static void axis_region(Lw *L, const MtRegion *r);

/* Carried values: from their initial facts, met with the yielded ones
 * until nothing changes (facts only shrink, so this ends; eight rounds
 * bound it). `run` analyses the body and names what it yields. */
typedef const MtVal *(*Body)(Lw *L, const MtInst *in);

static void carried_fixpoint(Lw *L, const MtInst *in, MtVal *carried, uint32_t n, Body run)
{
    for (int round = 0; round < 8; round++) {
        const MtVal *next = run(L, in);
        bool changed = false;
        for (uint32_t i = 0; i < n; i++) {
            LAxis m = meet(L->axis[carried[i]], L->axis[next[i]]);
            changed |= !same(&m, &L->axis[carried[i]]);
            L->axis[carried[i]] = m;
        }
        if (!changed)
            return;
    }
}

static const MtInst *last(const MtRegion *r) { return r->v[r->n - 1]; }

static const MtVal *for_body(Lw *L, const MtInst *in)
{
    axis_region(L, &in->loop->body);
    return last(&in->loop->body)->args;
}

/* A while: the "before" region's arguments are carried; its condition
 * forwards values (args[1..]) to the "after" region, which yields the next
 * carried values. */
static const MtVal *while_body(Lw *L, const MtInst *in)
{
    const MtNest *n = in->nest;
    axis_region(L, &n->body[0].insts);
    const MtInst *cond = last(&n->body[0].insts);
    for (uint32_t i = 0; i < n->body[1].nargs; i++)
        L->axis[n->body[1].args[i]] = L->axis[cond->args[1 + i]];
    axis_region(L, &n->body[1].insts);
    return last(&n->body[1].insts)->args;
}

static void axis_nest(Lw *L, const MtInst *in)
{
    const MtNest *n = in->nest;
    if (in->op == OP_WHILE) {
        for (uint32_t i = 0; i < n->body[0].nargs; i++)
            L->axis[n->body[0].args[i]] = L->axis[in->args[i]];
        carried_fixpoint(L, in, n->body[0].args, n->body[0].nargs, while_body);
        const MtInst *cond = last(&n->body[0].insts);
        for (uint32_t i = 0; i < n->nresults; i++)
            L->axis[n->results[i]] = L->axis[cond->args[1 + i]];
        return;
    }
    for (uint32_t k = 0; k < n->nbodies; k++)
        axis_region(L, &n->body[k].insts);
    for (uint32_t i = 0; i < n->nresults; i++)
        L->axis[n->results[i]] = in->op == OP_IF ? meet(L->axis[last(&n->body[0].insts)->args[i]],
                                                         L->axis[last(&n->body[1].insts)->args[i]])
                                                  : unknown(mt_val_ty(L->f, n->results[i]));
}

static void axis_for(Lw *L, const MtInst *in)
{
    const MtForData *l = in->loop;
    /* start, start + step, ...: multiples of both */
    L->axis[l->iv] = scalar(gcd(L->axis[in->args[0]].div[0], pow2_div(l->step)));
    for (uint32_t i = 0; i < l->ncarried; i++)
        L->axis[l->iter_args[i]] = L->axis[in->args[2 + i]];
    carried_fixpoint(L, in, l->iter_args, l->ncarried, for_body);
    for (uint32_t i = 0; i < l->ncarried; i++)
        L->axis[l->results[i]] = L->axis[l->iter_args[i]];
}

static void axis_region(Lw *L, const MtRegion *r)
{
    for (uint32_t i = 0; i < r->n; i++) {
        const MtInst *in = r->v[i];
        if (in->loop)
            axis_for(L, in);
        else if (in->nest)
            axis_nest(L, in);
        else if (in->dst)
            L->axis[in->dst] = inst_axis(L, in);
    }
}

void lw_axis_analysis(Lw *L)
{
    const MtFunc *f = L->f;
    L->axis = mt_arena_alloc(&L->c->arena, (f->nvals + 1) * sizeof *L->axis);
    for (uint32_t v = 1; v < f->nvals; v++) {
        const MtValue *x = &f->vals[v];
        if (x->kind == VK_CONST)
            L->axis[v] = scalar(x->cst.kind == CST_FLOAT ? 1 : pow2_div(x->cst.i));
        else if (x->kind == VK_PARAM)
            L->axis[v] = scalar(x->div ? (int32_t)x->div : 1);
        else
            L->axis[v] = unknown(x->ty);
    }
    axis_region(L, &f->body);
}
