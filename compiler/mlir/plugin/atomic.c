/* atomic.c: the kernel layer's atomics (KST_ATOMIC) as LLVM atomics.
 *
 * A read-modify-write is llvm.atomicrmw, atomic_cas llvm.cmpxchg (the
 * old value is element 0 of its result pair). LLVM 22's NVPTX backend
 * keeps cmpxchg's orderings and syncscope (atom.acq_rel.cta.cas.b32), but
 * prints every atomicrmw as a relaxed atom at GPU scope, whatever its
 * ordering and syncscope say. An atomicrmw is therefore built monotonic,
 * and its ordering comes from fences at the atomic's scope: a release
 * (or acq_rel) fence before it, an acquire fence after it, which are
 * PTX's release and acquire patterns (fence.acq_rel.gpu; atom.relaxed).
 * GPU scope is at least what scope='cta' asks; scope='sys' is more, so a
 * read-modify-write at system scope is a loop of system-scope cmpxchg
 * (read, combine, swap if unchanged) instead. A masked atomic is an
 * scf.if whose other branch yields 0, as the kernel layer says. */
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/LLVM.h>

#include "emit.h"

/* LLVM's AtomicOrdering and AtomicBinOp, as the dialect's attributes hold them. */
enum { ORD_MONOTONIC = 2, ORD_ACQUIRE = 4, ORD_RELEASE = 5, ORD_ACQ_REL = 6 };
enum { BIN_XCHG = 0, BIN_ADD = 1, BIN_AND = 3, BIN_OR = 5, BIN_XOR = 6, BIN_MAX = 7, BIN_MIN = 8, BIN_UMAX = 9,
       BIN_UMIN = 10, BIN_FADD = 11 };

static int bin_op(int op, MtDtype dt)
{
    bool u = dt_is_unsigned(dt);
    switch (op) {
    case OP_ATOMIC_ADD: return dt_is_float(dt) ? BIN_FADD : BIN_ADD;
    case OP_ATOMIC_MAX: return u ? BIN_UMAX : BIN_MAX;
    case OP_ATOMIC_MIN: return u ? BIN_UMIN : BIN_MIN;
    case OP_ATOMIC_AND: return BIN_AND;
    case OP_ATOMIC_OR: return BIN_OR;
    case OP_ATOMIC_XOR: return BIN_XOR;
    default: return BIN_XCHG;
    }
}

/* The syncscope of MtMemScope (gpu, cta, sys): NULL for the system, LLVM's default. */
static const char *syncscope(int scope)
{
    return scope == MT_SCOPE_GPU ? "device" : scope == MT_SCOPE_CTA ? "block" : NULL;
}

static int attrs_with_scope(Em *e, MlirNamedAttribute *na, int n, int scope)
{
    const char *s = syncscope(scope);
    if (s)
        na[n++] = named(e, "syncscope", attr_str(e, s));
    return n;
}

static void fence(Em *e, int ordering, int scope)
{
    MlirNamedAttribute na[2] = {named(e, "ordering", attr_i64(e, ordering))};
    op_make(e, "llvm.fence", 0, NULL, 0, NULL, attrs_with_scope(e, na, 1, scope), na, 0, NULL);
}

/* cmpxchg addr, cmp, v: the old value and whether it swapped. */
static MlirValue cmpxchg(Em *e, MlirValue addr, MlirValue cmp, MlirValue v, int success, int failure, int scope,
                         MlirValue *swapped)
{
    MlirType t = mlirValueGetType(v), fields[2] = {t, ty_int(e, 1)};
    MlirType pair = mlirLLVMStructTypeLiteralGet(e->ctx, 2, fields, false);
    MlirValue opd[3] = {addr, cmp, v};
    MlirNamedAttribute na[3] = {named(e, "success_ordering", attr_i64(e, success)),
                                named(e, "failure_ordering", attr_i64(e, failure))};
    MlirValue r = op_value(e, "llvm.cmpxchg", pair, 3, opd, attrs_with_scope(e, na, 2, scope), na);
    int64_t pos[2] = {0, 1};
    MlirNamedAttribute p0 = named(e, "position", mlirDenseI64ArrayGet(e->ctx, 1, pos));
    MlirNamedAttribute p1 = named(e, "position", mlirDenseI64ArrayGet(e->ctx, 1, pos + 1));
    if (swapped)
        *swapped = op_value(e, "llvm.extractvalue", ty_int(e, 1), 1, &r, 1, &p1);
    return op_value(e, "llvm.extractvalue", t, 1, &r, 1, &p0);
}

/* op(old, v) in dt, as the atomic computes it. */
static MlirValue combine(Em *e, int op, MtDtype dt, MlirValue old, MlirValue v)
{
    MlirType t = ty_of(e, dt);
    bool u = dt_is_unsigned(dt);
    switch (op) {
    case OP_ATOMIC_ADD: return op2(e, dt_is_float(dt) ? "arith.addf" : "arith.addi", t, old, v);
    case OP_ATOMIC_MAX: return op2(e, u ? "arith.maxui" : "arith.maxsi", t, old, v);
    case OP_ATOMIC_MIN: return op2(e, u ? "arith.minui" : "arith.minsi", t, old, v);
    case OP_ATOMIC_AND: return op2(e, "arith.andi", t, old, v);
    case OP_ATOMIC_OR: return op2(e, "arith.ori", t, old, v);
    case OP_ATOMIC_XOR: return op2(e, "arith.xori", t, old, v);
    default: return v;
    }
}

/* A read-modify-write at system scope: swap in op(old, v) while the
 * element still holds old (on its bits: cmpxchg takes integers). */
static MlirValue rmw_loop(Em *e, const KAtomic *a, MlirValue addr, MlirValue v)
{
    MtDtype dt = (MtDtype)a->dt;
    MlirType it = ty_int(e, dt_bits(dt)), vt = ty_of(e, dt);
    bool flt = dt_is_float(dt);
    MlirNamedAttribute la[2] = {named(e, "alignment", attr_i64(e, dt_bits(dt) / 8)),
                                named(e, "ordering", attr_i64(e, ORD_MONOTONIC))};
    MlirValue init = op_value(e, "llvm.load", it, 1, &addr, 2, la);
    MlirBlock saved = e->block, before, after;
    MlirRegion r[2] = {region_new(e, 1, &it, &before), region_new(e, 1, &it, &after)};
    e->block = before;
    MlirValue expect = mlirBlockGetArgument(before, 0);
    MlirValue cur = flt ? op1(e, "arith.bitcast", vt, expect) : expect;
    MlirValue next = combine(e, a->op, dt, cur, v);
    if (flt)
        next = op1(e, "arith.bitcast", it, next);
    MlirValue swapped, got = cmpxchg(e, addr, expect, next, ORD_MONOTONIC, ORD_MONOTONIC, MT_SCOPE_SYS, &swapped);
    MlirValue cargs[2] = {op2(e, "arith.xori", ty_int(e, 1), swapped, c_intw(e, 1, 1)), got};
    op_make(e, "scf.condition", 0, NULL, 2, cargs, 0, NULL, 0, NULL);
    e->block = after;
    MlirValue again = mlirBlockGetArgument(after, 0);
    op_make(e, "scf.yield", 0, NULL, 1, &again, 0, NULL, 0, NULL);
    e->block = saved;
    MlirValue old = mlirOperationGetResult(op_make(e, "scf.while", 1, &it, 1, &init, 0, NULL, 2, r), 0);
    return flt ? op1(e, "arith.bitcast", vt, old) : old;
}

/* The atomic itself, for a thread whose mask holds. */
static MlirValue atomic_body(Em *e, const KAtomic *a)
{
    MtDtype dt = (MtDtype)a->dt;
    MlirValue addr = elem_addr(e, a->ptr, ex(e, a->index), (MtDtype)a->index->dt);
    MlirValue v = ex_as(e, a->value, dt);
    bool releases = a->sem == MT_SEM_ACQ_REL || a->sem == MT_SEM_RELEASE;
    bool acquires = a->sem == MT_SEM_ACQ_REL || a->sem == MT_SEM_ACQUIRE;
    if (a->op == OP_ATOMIC_CAS) {
        /* cmpxchg keeps its orderings through LLVM: no fences */
        static const int success[MT_SEM_COUNT_] = {ORD_ACQ_REL, ORD_ACQUIRE, ORD_RELEASE, ORD_MONOTONIC};
        static const int failure[MT_SEM_COUNT_] = {ORD_ACQUIRE, ORD_ACQUIRE, ORD_MONOTONIC, ORD_MONOTONIC};
        return cmpxchg(e, addr, ex_as(e, a->cmp, dt), v, success[a->sem], failure[a->sem], a->scope, NULL);
    }
    if (releases)
        fence(e, acquires ? ORD_ACQ_REL : ORD_RELEASE, a->scope);
    MlirValue old;
    if (a->scope == MT_SCOPE_SYS) {
        old = rmw_loop(e, a, addr, v);
    } else {
        MlirValue opd[2] = {addr, v};
        MlirNamedAttribute na[3] = {named(e, "bin_op", attr_i64(e, bin_op(a->op, dt))),
                                    named(e, "ordering", attr_i64(e, ORD_MONOTONIC))};
        old = op_value(e, "llvm.atomicrmw", ty_of(e, dt), 2, opd, attrs_with_scope(e, na, 2, a->scope), na);
    }
    if (acquires)
        fence(e, ORD_ACQUIRE, a->scope);
    return old;
}

MlirValue em_atomic(Em *e, const KAtomic *a)
{
    if (!a->mask)
        return atomic_body(e, a);
    MtDtype dt = (MtDtype)a->dt;
    MlirType t = ty_of(e, dt);
    MlirLocation loc = e->loc;
    MlirValue c = to_bool(e, ex(e, a->mask), (MtDtype)a->mask->dt);
    MlirBlock saved = e->block, tb, eb;
    MlirRegion r[2] = {region_new(e, 0, NULL, &tb), region_new(e, 0, NULL, &eb)};
    e->block = tb;
    MlirValue old = atomic_body(e, a);
    e->loc = loc;
    op_make(e, "scf.yield", 0, NULL, 1, &old, 0, NULL, 0, NULL);
    e->block = eb;
    MlirValue zero = c_zero(e, dt);
    op_make(e, "scf.yield", 0, NULL, 1, &zero, 0, NULL, 0, NULL);
    e->block = saved;
    return mlirOperationGetResult(op_make(e, "scf.if", 1, &t, 1, &c, 0, NULL, 2, r), 0);
}
