/* frontend.c: running a kernel's statements to build its expression tree.
 *
 * Statements execute once, in order. Compile-time control flow is
 * resolved here: `if` on a constant runs one branch, `for` over a
 * compile-time range (range with constant bounds, tl.static_range, a
 * constant tuple) is unrolled, helper calls are inlined in a frame of
 * their own, and a `return` ends the frame. A `for` over a range with a
 * runtime bound (or any tl.range) becomes a structured loop: its body runs
 * once in a scope of its own, names assigned in the body that existed
 * before the loop become loop-carried values, outer runtime values it
 * reads become captures, and names it creates do not escape.
 *
 * Anything else (runtime `if`, `while`, `break`, ...) is rejected with a
 * precise diagnostic; nothing is ever run as Python.
 *
 * A prefix analysis (Fe.cut, the first error of a whole compile) runs the
 * kernel's statements up to the cut only, entering the loop or `if` whose
 * body holds it, and keeps what they bound: an editor then shows the SSA
 * and layouts of the lines before an error. */
#include <string.h>

#include "fe.h"

static void exec_block(Fe *fe, const MtNodeList *body);
static void exec_stmt(Fe *fe, const MtNode *st);

/* A barrier on the continuation stack (see Cont). */
static uint32_t push_barrier(Fe *fe)
{
    Cont b = {NULL, 0};
    mt_vec_push(&fe->c->arena, &fe->conts, b);
    return fe->conts.n - 1;
}

void fe_add_root(Fe *fe, MtExpr *e)
{
    mt_expr_list_push(fe->c, fe->region->roots, e);
}

/* ---- the prefix analysis ------------------------------------------------------------ */

/* Whether the cut lies inside statement st of the kernel's own code (not
 * of a helper inlined into it). */
static bool holds_cut(const Fe *fe, const MtNode *st)
{
    return fe->cut && !fe->frame->caller && st->span.off < fe->cut && fe->cut < st->span.end;
}

/* Whether st runs in a prefix analysis: it ends before the cut, or it is a
 * loop or an `if` whose body (not its header) holds the cut. */
static bool before_cut(const Fe *fe, const MtNode *st)
{
    if (!fe->cut || fe->frame->caller || st->span.end <= fe->cut)
        return true;
    if (!holds_cut(fe, st))
        return false;
    const MtNodeList *b = st->kind == ND_FOR     ? &st->u.for_.body
                          : st->kind == ND_IF    ? &st->u.if_.body
                          : st->kind == ND_WHILE ? &st->u.while_.body
                                                 : NULL;
    return b && b->n && b->v[0]->span.off <= fe->cut;
}

/* The next statement of the list at conts[at] to run, or NULL at its end:
 * after a `return`, on cancellation, or at the cut (which ends the list
 * for good, so that no continuation resumes it). */
static const MtNode *next_stmt(Fe *fe, uint32_t at)
{
    Cont *ct = &fe->conts.v[at];
    if (ct->next >= ct->body->n || fe->frame->returned || mt_cancelled(fe->c))
        return NULL;
    const MtNode *st = ct->body->v[ct->next++];
    if (before_cut(fe, st))
        return st;
    ct->next = ct->body->n;
    return NULL;
}

static void keep_value(Fe *fe, FValue v, MtExprList *roots)
{
    switch ((FvKind)v.kind) {
    case FV_EXPR:
        if (v.u.e->kind == EX_PARAM || v.u.e->kind == EX_CONST)
            return;
        mt_expr_list_push(fe->c, roots, v.u.e);
        mt_expr_list_push(fe->c, &fe->prog->keep, v.u.e);
        return;
    case FV_TUPLE:
        for (uint32_t i = 0; i < v.u.tup.n; i++)
            keep_value(fe, v.u.tup.v[i], roots);
        return;
    case FV_BLOCKPTR: {
        const FeBlockPtr *bp = v.u.bp;
        keep_value(fe, bp->base, roots);
        for (int d = 0; d < bp->rank; d++) {
            keep_value(fe, bp->shape[d], roots);
            keep_value(fe, bp->strides[d], roots);
            keep_value(fe, bp->offsets[d], roots);
        }
        return;
    }
    default:
        return;
    }
}

/* The runtime values bound in scope s at the cut, kept in the region whose
 * roots are `roots`. Only scopes of the kernel and of runtime loops: a
 * branch's values leave it through the branch's results. */
static void keep_bound(Fe *fe, const Scope *s, MtExprList *roots)
{
    for (const Scope *o = s; o->parent; o = o->parent)
        if (!o->loop)
            return;
    for (uint32_t i = 0; i < s->names.n; i++)
        if (!s->names.v[i].loop_local && !s->names.v[i].branch_local)
            keep_value(fe, s->names.v[i].v, roots);
}

/* ---- assignment -------------------------------------------------------------------- */

static void assign_target(Fe *fe, const MtNode *t, FValue v, MtSpan value_span)
{
    if (v.kind == FV_UNDEF && t->kind == ND_NAME) {
        fe_assign(fe, t->u.name, v);
        return;
    }
    switch ((MtNodeKind)t->kind) {
    case ND_NAME:
        /* The induction variable of a runtime loop too (`start_n =
         * tl.multiple_of(start_n, BLOCK_N)`): a new value for the rest of
         * the iteration; the next one starts from the loop's value. */
        fe_assign(fe, t->u.name, v);
        return;
    case ND_TUPLE:
    case ND_LIST:
        if (v.kind == FV_UNDEF) {
            for (uint32_t i = 0; i < t->u.list.n; i++)
                assign_target(fe, t->u.list.v[i], v, value_span);
            return;
        }
        if (v.kind != FV_TUPLE || v.u.tup.n != t->u.list.n) {
            if (v.kind != FV_TUPLE)
                fe_error(fe, value_span, "E0209", "cannot unpack %s into %u names%s", fv_kind_name(v), t->u.list.n,
                         v.kind == FV_EXPR ? " (blocks cannot be unpacked)" : "");
            else
                fe_error(fe, value_span, "E0209", "cannot unpack %u values into %u names", v.u.tup.n, t->u.list.n);
            assign_target(fe, t, fv_undef(), value_span); /* no follow-up "undefined name" errors */
            return;
        }
        for (uint32_t i = 0; i < t->u.list.n; i++)
            assign_target(fe, t->u.list.v[i], v.u.tup.v[i], value_span);
        return;
    default:
        fe_error(fe, t->span, "E0209",
                 "cannot assign to %s in a kernel; assignment targets must be names or tuples of names",
                 t->kind == ND_SUBSCRIPT ? "a subscript" : t->kind == ND_ATTR ? "an attribute" : "this expression");
        return;
    }
}

/* ---- loops ----------------------------------------------------------------------------- */

typedef MT_VEC(const char *) NameVec;

/* Names a statement list assigns, including in nested blocks. */
static void collect_targets(MtCtx *c, const MtNode *t, NameVec *out)
{
    if (t->kind == ND_NAME) {
        for (uint32_t i = 0; i < out->n; i++)
            if (!strcmp(out->v[i], t->u.name))
                return;
        mt_vec_push(&c->arena, out, t->u.name);
    } else if (t->kind == ND_TUPLE || t->kind == ND_LIST) {
        for (uint32_t i = 0; i < t->u.list.n; i++)
            collect_targets(c, t->u.list.v[i], out);
    }
}

static void collect_targets_name(MtCtx *c, const char *name, NameVec *out)
{
    for (uint32_t i = 0; i < out->n; i++)
        if (!strcmp(out->v[i], name))
            return;
    mt_vec_push(&c->arena, out, name);
}

static void collect_assigned(MtCtx *c, const MtNodeList *body, NameVec *out)
{
    for (uint32_t i = 0; i < body->n; i++) {
        const MtNode *s = body->v[i];
        switch ((MtNodeKind)s->kind) {
        case ND_ASSIGN:
            for (uint32_t k = 0; k < s->u.assign.targets.n; k++)
                collect_targets(c, s->u.assign.targets.v[k], out);
            break;
        case ND_AUGASSIGN:
            collect_targets(c, s->u.aug.target, out);
            break;
        case ND_ANNASSIGN:
            if (s->u.ann.value)
                collect_targets(c, s->u.ann.target, out);
            break;
        case ND_FOR:
            collect_targets(c, s->u.for_.target, out);
            collect_assigned(c, &s->u.for_.body, out);
            break;
        case ND_IF:
            collect_assigned(c, &s->u.if_.body, out);
            collect_assigned(c, &s->u.if_.orelse, out);
            break;
        case ND_WHILE:
            collect_assigned(c, &s->u.while_.body, out);
            break;
        default:
            break;
        }
    }
}

/* Look a name up in the current frame's scopes only (not globals). */
static Binding *local_binding(Fe *fe, const char *name)
{
    for (Scope *s = fe->frame->scope; s; s = s->parent)
        for (uint32_t i = s->names.n; i-- > 0;)
            if (!strcmp(s->names.v[i].name, name))
                return &s->names.v[i];
    return NULL;
}

/* ---- carried values: numbers, runtime values, and tuples and block
 * pointers of them, one slot per part ------------------------------------------------------- */

typedef MT_VEC(FValue) FvVec;

/* The parts of v a loop or branch carries, in order; false when v has a
 * part no slot can hold (a dtype, a function, ...). */
static bool carried_parts(FValue v, FvVec *out, MtCtx *c)
{
    switch ((FvKind)v.kind) {
    case FV_EXPR:
    case FV_INT:
    case FV_FLOAT:
    case FV_BOOL:
        mt_vec_push(&c->arena, out, v);
        return true;
    case FV_TUPLE:
        for (uint32_t i = 0; i < v.u.tup.n; i++)
            if (!carried_parts(v.u.tup.v[i], out, c))
                return false;
        return true;
    case FV_BLOCKPTR: {
        const FeBlockPtr *bp = v.u.bp;
        mt_vec_push(&c->arena, out, bp->base);
        for (int d = 0; d < bp->rank; d++) {
            mt_vec_push(&c->arena, out, bp->shape[d]);
            mt_vec_push(&c->arena, out, bp->strides[d]);
            mt_vec_push(&c->arena, out, bp->offsets[d]);
        }
        return true;
    }
    default:
        return false;
    }
}

/* Whether b has the same structure as a (tuple lengths, block pointers'
 * ranks, block shapes and orders), so the same slots carry it. */
static bool same_structure(FValue a, FValue b)
{
    bool la = a.kind == FV_EXPR || fv_is_number(a), lb = b.kind == FV_EXPR || fv_is_number(b);
    if (la || lb)
        return la && lb;
    if (a.kind != b.kind)
        return false;
    if (a.kind == FV_TUPLE) {
        if (a.u.tup.n != b.u.tup.n)
            return false;
        for (uint32_t i = 0; i < a.u.tup.n; i++)
            if (!same_structure(a.u.tup.v[i], b.u.tup.v[i]))
                return false;
        return true;
    }
    if (a.kind == FV_BLOCKPTR) {
        if (a.u.bp->rank != b.u.bp->rank)
            return false;
        for (int d = 0; d < a.u.bp->rank; d++)
            if (a.u.bp->block[d] != b.u.bp->block[d] || a.u.bp->order[d] != b.u.bp->order[d])
                return false;
        return true;
    }
    return false;
}

/* A value of tmpl's structure whose parts are parts[*i], parts[*i + 1], ... */
static FValue rebuild(Fe *fe, FValue tmpl, MtExpr *const *parts, uint32_t *i)
{
    if (tmpl.kind == FV_TUPLE) {
        FValue t = tmpl;
        t.u.tup.v = mt_arena_alloc(&fe->c->arena, (tmpl.u.tup.n + 1) * sizeof *t.u.tup.v);
        for (uint32_t k = 0; k < tmpl.u.tup.n; k++)
            t.u.tup.v[k] = rebuild(fe, tmpl.u.tup.v[k], parts, i);
        return t;
    }
    if (tmpl.kind == FV_BLOCKPTR) {
        FeBlockPtr *bp = mt_arena_alloc(&fe->c->arena, sizeof *bp);
        *bp = *tmpl.u.bp;
        bp->base = fv_expr(parts[(*i)++]);
        for (int d = 0; d < bp->rank; d++) {
            bp->shape[d] = fv_expr(parts[(*i)++]);
            bp->strides[d] = fv_expr(parts[(*i)++]);
            bp->offsets[d] = fv_expr(parts[(*i)++]);
        }
        return (FValue){.kind = FV_BLOCKPTR, .u.bp = bp};
    }
    return fv_expr(parts[(*i)++]);
}

/* A name a runtime loop carries: its value before, as the template of its
 * slots first .. first + count - 1. */
typedef struct Carried {
    const char *name;
    FValue tmpl;
    uint32_t first, count;
} Carried;
typedef MT_VEC(Carried) CarriedVec;

/* The names of `assigned` that exist before a runtime loop, each with its
 * slots' initial values appended to inits; false after an error. */
static bool carried_names(Fe *fe, const NameVec *assigned, const char *skip, MtSpan header, const char *what,
                          CarriedVec *out, MtExprList *inits, NameVec *slot_names)
{
    MtCtx *c = fe->c;
    for (uint32_t i = 0; i < assigned->n; i++) {
        if (skip && !strcmp(assigned->v[i], skip))
            continue;
        Binding *b = local_binding(fe, assigned->v[i]);
        if (!b || b->loop_local)
            continue;
        if (b->v.kind == FV_UNDEF)
            return false;
        fe_lookup(fe, assigned->v[i], header); /* an outer value: captured by the enclosing loops and branches */
        FvVec parts = {0};
        if (!carried_parts(b->v, &parts, c)) {
            fe_error(fe, header, "E0412",
                     "'%s' is assigned in this %s, so it must be a number, a runtime value, or a tuple or block "
                     "pointer of them before the loop, not %s",
                     assigned->v[i], what, fv_kind_name(b->v));
            return false;
        }
        Carried k = {assigned->v[i], b->v, inits->n, parts.n};
        for (uint32_t p = 0; p < parts.n; p++) {
            MtExpr *e = fe_to_expr(fe, parts.v[p], header);
            if (!e)
                return false;
            mt_expr_list_push(c, inits, e);
            mt_vec_push(&c->arena, slot_names, assigned->v[i]);
        }
        mt_vec_push(&c->arena, out, k);
    }
    return true;
}

/* The slots' values at the end of a body from the names' bindings in
 * scope s (each of its template's structure); false after an error. */
static bool carried_yields(Fe *fe, Scope *s, const CarriedVec *cv, MtSpan header, MtExpr **yields)
{
    bool ok = true;
    for (uint32_t i = 0; i < cv->n; i++) {
        const Carried *k = &cv->v[i];
        Binding *b = NULL;
        for (uint32_t j = 0; j < s->names.n; j++)
            if (!strcmp(s->names.v[j].name, k->name))
                b = &s->names.v[j];
        FValue v = b ? b->v : fv_undef();
        if (v.kind == FV_UNDEF) {
            ok = false;
            continue;
        }
        if (!same_structure(k->tmpl, v)) {
            fe_error(fe, header, "E0412",
                     "'%s' is %s before the loop but %s at the end of the body; a loop-carried value keeps its "
                     "structure (tuple length, block pointer shape)",
                     k->name, fv_repr(fe->c, k->tmpl), fv_repr(fe->c, v));
            ok = false;
            continue;
        }
        FvVec parts = {0};
        carried_parts(v, &parts, fe->c);
        for (uint32_t p = 0; p < parts.n; p++)
            if (!(yields[k->first + p] = fe_to_expr(fe, parts.v[p], header)))
                ok = false;
    }
    return ok;
}

/* A runtime `for`: step is a positive constant, or step_val a runtime
 * value (assumed positive, as Triton's scf.for does). A negative constant
 * step runs the loop from stop to start and maps the induction variable
 * back (start + stop - iv), as Triton does. */
static void exec_runtime_for(Fe *fe, const MtNode *st, FValue start, FValue stop, int64_t step, FValue step_val)
{
    MtCtx *c = fe->c;
    MtSpan header = mt_span_join(st->u.for_.kw_span, st->u.for_.iter->span);
    bool negative = step_val.kind == FV_UNDEF && step < 0;
    if (negative) {
        FValue t = start;
        start = stop;
        stop = t;
        step = -step;
    }
    MtExpr *es = fe_to_expr(fe, start, st->u.for_.iter->span);
    MtExpr *ee = fe_to_expr(fe, stop, st->u.for_.iter->span);
    MtExpr *ep = step_val.kind == FV_UNDEF ? NULL : fe_to_expr(fe, step_val, st->u.for_.iter->span);
    if (!es || !ee || (step_val.kind != FV_UNDEF && !ep))
        return;
    const char *iv_name = st->u.for_.target->u.name;

    /* Carried values: names the body assigns that exist before the loop
     * (tuples and block pointers of them: one slot per part). */
    NameVec assigned = {0};
    collect_assigned(c, &st->u.for_.body, &assigned);
    CarriedVec cv = {0};
    MtExprList inits = {0};
    NameVec carried = {0}; /* per slot: the name it belongs to */
    if (!carried_names(fe, &assigned, iv_name, header, "runtime loop", &cv, &inits, &carried))
        return;

    MtExprLoop *loop = mt_arena_alloc(&c->arena, sizeof *loop);
    MtExpr *node = fe_new(fe, EX_FOR, header, 2 + carried.n + (ep != NULL));
    node->u.loop = loop;
    node->args[0] = es;
    node->args[1] = ee;
    if (ep)
        node->args[2 + carried.n] = ep;
    loop->node = node;
    loop->step = ep ? 0 : step;
    loop->dyn_step = ep != NULL;
    loop->span = header;
    loop->iv_name = iv_name;
    loop->ncarried = carried.n;
    loop->names = carried.v;
    loop->arg = mt_arena_alloc(&c->arena, (carried.n + 1) * sizeof *loop->arg);
    loop->yield = mt_arena_alloc(&c->arena, (carried.n + 1) * sizeof *loop->yield);
    loop->result = mt_arena_alloc(&c->arena, (carried.n + 1) * sizeof *loop->result);
    loop->iv = fe_new(fe, EX_LOOP_IV, st->u.for_.target->span, 0);
    loop->iv->u.loop = loop;

    Scope body = {.parent = fe->frame->scope, .loop = loop, .captures = &loop->captures};
    fe->frame->scope = &body;
    FValue ivv = fv_expr(loop->iv);
    if (negative) /* start + stop - iv, with the original start and stop */
        ivv = fe_binary(fe, OP_ADD, fe_binary(fe, OP_SUB, fv_expr(ee), ivv, header), fv_expr(es), header);
    fe_assign(fe, iv_name, ivv);
    for (uint32_t i = 0; i < carried.n; i++) {
        node->args[2 + i] = inits.v[i];
        MtExpr *arg = fe_new(fe, EX_LOOP_ARG, header, 0);
        arg->u.slot.loop = loop;
        arg->u.slot.index = i;
        loop->arg[i] = arg;
    }
    for (uint32_t i = 0; i < cv.n; i++) {
        uint32_t at = cv.v[i].first;
        fe_assign(fe, cv.v[i].name, rebuild(fe, cv.v[i].tmpl, loop->arg, &at));
    }
    Region region = {.roots = &loop->body, .parent = fe->region};
    fe->region = &region;
    fe->frame->runtime_loops++;
    exec_block(fe, &st->u.for_.body);
    fe->frame->runtime_loops--;
    if (holds_cut(fe, st))
        keep_bound(fe, &body, &loop->body);
    fe->region = region.parent;

    bool ok = carried_yields(fe, &body, &cv, header, loop->yield);
    fe->frame->scope = body.parent;

    /* Names created in the body leave tombstones; carried names now hold
     * the loop's results. */
    for (uint32_t k = 0; k < body.names.n; k++) {
        const char *name = body.names.v[k].name;
        bool is_carried = false;
        for (uint32_t i = 0; i < carried.n; i++)
            is_carried |= !strcmp(carried.v[i], name);
        if (is_carried || local_binding(fe, name))
            continue;
        Binding tomb = {.name = name, .loop_local = true, .loop_span = header};
        mt_vec_push(&c->arena, &fe->frame->scope->names, tomb);
    }
    for (uint32_t i = 0; i < carried.n; i++) {
        MtExpr *r = fe_new(fe, EX_LOOP_RESULT, header, 0);
        r->u.slot.loop = loop;
        r->u.slot.index = i;
        loop->result[i] = r;
    }
    for (uint32_t i = 0; i < cv.n; i++) {
        uint32_t at = cv.v[i].first;
        fe_assign(fe, cv.v[i].name, ok ? rebuild(fe, cv.v[i].tmpl, loop->result, &at) : fv_undef());
    }
    if (ok)
        fe_add_root(fe, node);
}

static void exec_for(Fe *fe, const MtNode *st)
{
    if (st->u.for_.orelse.n) {
        fe_error(fe, st->u.for_.orelse.v[0]->span, "E0205", "for/else is not supported in kernels");
        return;
    }
    const MtNode *target = st->u.for_.target;
    FValue it = fe_eval(fe, st->u.for_.iter);
    if (it.kind == FV_UNDEF)
        return;
    if (it.kind == FV_TUPLE) {
        uint32_t bar = push_barrier(fe);
        for (uint32_t i = 0; i < it.u.tup.n && !fe->frame->returned; i++) {
            if (++fe->unrolled > FE_MAX_UNROLL) {
                fe_error(fe, st->u.for_.iter->span, "E0308", "compile-time loops unroll more than %d iterations",
                         FE_MAX_UNROLL);
                break;
            }
            assign_target(fe, target, it.u.tup.v[i], st->u.for_.iter->span);
            exec_block(fe, &st->u.for_.body);
        }
        fe->conts.n = bar;
        return;
    }
    if (it.kind != FV_RANGE) {
        fe_error(fe, st->u.for_.iter->span, "E0205",
                 "kernels can loop over range(...), tl.range(...), tl.static_range(...) or a compile-time tuple, "
                 "not %s",
                 fv_kind_name(it));
        return;
    }
    FValue *bd = it.u.range.bounds;
    int64_t step = 0;
    if (bd[2].kind != FV_EXPR && !py_as_int(bd[2], &step)) {
        fe_error(fe, st->u.for_.iter->span, "E0411", "the step of a range must be an integer, got %s",
                 fv_kind_name(bd[2]));
        return;
    }
    if (bd[2].kind != FV_EXPR && step == 0) {
        fe_error(fe, st->u.for_.iter->span, "E0411", "range() step must not be zero");
        return;
    }
    bool runtime =
        bd[0].kind == FV_EXPR || bd[1].kind == FV_EXPR || bd[2].kind == FV_EXPR || it.u.range.kind == RANGE_TL;
    if (runtime) {
        if (it.u.range.kind == RANGE_STATIC) {
            fe_error(fe, st->u.for_.iter->span, "E0306",
                     "tl.static_range bounds must be compile-time integers; use range(...) for a runtime loop");
            return;
        }
        if (target->kind != ND_NAME) {
            fe_error(fe, target->span, "E0205", "the target of a runtime loop must be a plain name");
            return;
        }
        for (int i = 0; i < 3; i++)
            if (bd[i].kind != FV_EXPR && bd[i].kind != FV_INT && bd[i].kind != FV_BOOL) {
                fe_error(fe, st->u.for_.iter->span, "E0411", "range() bounds must be integers, got %s",
                         fv_kind_name(bd[i]));
                return;
            }
        exec_runtime_for(fe, st, bd[0], bd[1], step, bd[2].kind == FV_EXPR ? bd[2] : fv_undef());
        return;
    }
    int64_t start, stop;
    if (!py_as_int(bd[0], &start) || !py_as_int(bd[1], &stop)) {
        fe_error(fe, st->u.for_.iter->span, "E0411", "range() bounds must be integers");
        return;
    }
    uint32_t bar = push_barrier(fe);
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
        if (fe->frame->returned)
            break;
        if (++fe->unrolled > FE_MAX_UNROLL) {
            fe_error(fe, st->u.for_.iter->span, "E0308",
                     "compile-time loops unroll more than %d iterations; use tl.range(...) for a runtime loop",
                     FE_MAX_UNROLL);
            break;
        }
        assign_target(fe, target, fv_int(i), st->u.for_.iter->span);
        exec_block(fe, &st->u.for_.body);
    }
    fe->conts.n = bar;
}

/* ---- runtime if, while ------------------------------------------------------------------- */

/* A runtime condition as a scalar bool (Triton converts it: x != 0), or
 * NULL after an error. */
static MtExpr *runtime_cond(Fe *fe, FValue t, MtSpan sp, const char *what)
{
    MtExpr *e = fe_to_expr(fe, t, sp);
    const MtType *ty = e ? fe_type(fe, e) : NULL;
    if (!ty)
        return NULL;
    if (mt_ty_is_block(ty) || !mt_ty_is_scalar(ty)) {
        fe_error(fe, sp, "E0202",
                 "the condition of a runtime %s must be a scalar, got %s; use tl.where(cond, a, b) to select values "
                 "of a block, or a mask on tl.load/tl.store",
                 what, mt_ty_str(fe->c, ty));
        return NULL;
    }
    if (ty == &mt_ty_bool)
        return e;
    MtExpr *c = fe_op(fe, OP_CAST, sp, 1);
    c->args[0] = e;
    c->attr.dtype = &mt_ty_bool;
    c->hidden = true;
    return c;
}

static MtExprNest *new_nest(Fe *fe, MtOpcode op, MtSpan sp, uint32_t nargs, uint32_t nbodies)
{
    MtExprNest *x = mt_arena_alloc(&fe->c->arena, sizeof *x);
    MtExpr *node = fe_new(fe, EX_NEST, sp, nargs);
    node->op = (uint16_t)op;
    node->u.nest = x;
    x->node = node;
    x->nbodies = nbodies;
    return x;
}

static void nest_results(Fe *fe, MtExprNest *x, const char **names, uint32_t n, MtSpan sp)
{
    x->nresults = n;
    x->names = names;
    x->result = mt_arena_alloc(&fe->c->arena, (n + 1) * sizeof *x->result);
    for (uint32_t i = 0; i < n; i++) {
        MtExpr *r = fe_new(fe, EX_NEST_RESULT, sp, 0);
        r->u.nslot.nest = x;
        r->u.nslot.index = i;
        r->hidden = true; /* the value a name has after the statement, not a computation */
        x->result[i] = r;
    }
}

/* A branch's value of a name as a runtime value; a Python number takes the
 * other branch's type (Triton's weak typing), as it would in `tl.where`. */
static MtExpr *merge_value(Fe *fe, FValue v, FValue other, MtSpan sp)
{
    MtExpr *e = fe_to_expr(fe, v, sp);
    if (!e || e->kind != EX_CONST || other.kind != FV_EXPR)
        return e;
    const MtType *t = fe_type(fe, other.u.e);
    if (!t || !mt_ty_is_scalar(t))
        return e;
    MtExpr *k = fe_new(fe, EX_CONST, e->span, 0);
    k->u.cst = e->u.cst;
    k->ty = t;
    return k;
}

typedef struct BranchOut {
    Scope scope;
    bool returned;
    FValue ret;
} BranchOut;

/* Run one branch of a runtime if (its statements, or one expression when
 * expr is set) in a scope and region of its own. */
static void run_branch(Fe *fe, MtExprNest *x, uint32_t k, const MtNodeList *stmts, const MtNode *expr,
                       FValue *value, BranchOut *out)
{
    out->scope = (Scope){.parent = fe->frame->scope, .captures = &x->captures};
    fe->frame->scope = &out->scope;
    Region rg = {.roots = &x->body[k].roots, .parent = fe->region};
    fe->region = &rg;
    if (expr)
        *value = fe_eval(fe, expr);
    else
        exec_block(fe, stmts);
    fe->region = rg.parent;
    fe->frame->scope = out->scope.parent;
}

static Binding *scope_binding(Scope *s, const char *name)
{
    for (uint32_t i = s->names.n; i-- > 0;)
        if (!strcmp(s->names.v[i].name, name))
            return &s->names.v[i];
    return NULL;
}

/* A runtime `if` without `return` in its branches: an if nest whose
 * results are the names either branch assigns, when both paths give them
 * a value. */
static void exec_runtime_if(Fe *fe, const MtNode *st, MtExpr *cond)
{
    MtCtx *c = fe->c;
    MtSpan header = st->u.if_.test->span;
    MtExprNest *x = new_nest(fe, OP_IF, header, 1, 2);
    x->node->args[0] = cond;
    uint32_t bar = push_barrier(fe);
    BranchOut br[2];
    for (uint32_t k = 0; k < 2; k++)
        run_branch(fe, x, k, k ? &st->u.if_.orelse : &st->u.if_.body, NULL, NULL, &br[k]);
    fe->conts.n = bar;
    NameVec assigned = {0};
    for (uint32_t k = 0; k < 2; k++)
        for (uint32_t i = 0; i < br[k].scope.names.n; i++)
            collect_targets_name(c, br[k].scope.names.v[i].name, &assigned);
    NameVec names = {0};
    CarriedVec merged = {0};
    MT_VEC(FValue) vals[2] = {{0}, {0}};
    for (uint32_t i = 0; i < assigned.n; i++) {
        const char *name = assigned.v[i];
        Binding *outer = local_binding(fe, name);
        FValue v[2];
        bool have[2];
        for (uint32_t k = 0; k < 2; k++) {
            Binding *b = scope_binding(&br[k].scope, name);
            have[k] = b ? !b->loop_local : outer && !outer->loop_local;
            v[k] = b ? b->v : outer ? outer->v : fv_undef();
        }
        if (!have[0] || !have[1]) {
            Binding tomb = {.name = name, .loop_local = true, .branch_local = true, .loop_span = header};
            mt_vec_push(&c->arena, &fe->frame->scope->names, tomb);
            continue;
        }
        if (v[0].kind == FV_UNDEF || v[1].kind == FV_UNDEF) {
            fe_assign(fe, name, fv_undef());
            continue;
        }
        if (v[0].kind != FV_EXPR && v[0].kind != FV_TUPLE && v[0].kind != FV_BLOCKPTR && py_equal(v[0], v[1])) {
            fe_assign(fe, name, v[0]); /* the same compile-time value on both paths */
            continue;
        }
        FvVec parts[2] = {{0}, {0}};
        bool ok = true;
        for (uint32_t k = 0; k < 2; k++)
            if (!carried_parts(v[k], &parts[k], c)) {
                fe_error(fe, header, "E0419",
                         "'%s' is %s on one path of this runtime `if`; only numbers, runtime values and tuples "
                         "or block pointers of them can differ between its branches",
                         name, fv_kind_name(v[k]));
                ok = false;
            }
        if (ok && !same_structure(v[0], v[1])) {
            fe_error(fe, header, "E0419", "'%s' is %s after the then branch but %s after the else branch", name,
                     fv_repr(c, v[0]), fv_repr(c, v[1]));
            ok = false;
        }
        if (!ok) {
            fe_assign(fe, name, fv_undef());
            continue;
        }
        Carried k = {name, v[0], names.n, parts[0].n};
        mt_vec_push(&c->arena, &merged, k);
        for (uint32_t p = 0; p < parts[0].n; p++) {
            mt_vec_push(&c->arena, &names, name);
            mt_vec_push(&c->arena, &vals[0], parts[0].v[p]);
            mt_vec_push(&c->arena, &vals[1], parts[1].v[p]);
        }
    }
    nest_results(fe, x, names.v, names.n, header);
    for (uint32_t k = 0; k < 2; k++) {
        x->body[k].nyield = names.n;
        x->body[k].yield = mt_arena_alloc(&c->arena, (names.n + 1) * sizeof *x->body[k].yield);
    }
    bool ok = true;
    for (uint32_t i = 0; i < names.n; i++)
        for (uint32_t k = 0; k < 2; k++) {
            x->body[k].yield[i] = merge_value(fe, vals[k].v[i], vals[1 - k].v[i], header);
            ok &= x->body[k].yield[i] != NULL;
        }
    for (uint32_t i = 0; i < merged.n; i++) {
        uint32_t at = merged.v[i].first;
        fe_assign(fe, merged.v[i].name, ok ? rebuild(fe, merged.v[i].tmpl, x->result, &at) : fv_undef());
    }
    if (ok)
        fe_add_root(fe, x->node);
}

/* `a if cond else b` on a runtime condition: an if nest of one result. */
FValue fe_runtime_ifexp(Fe *fe, const MtNode *n, FValue t)
{
    MtExpr *cond = runtime_cond(fe, t, n->u.ifexp.test->span, "conditional expression");
    if (!cond)
        return fv_undef();
    MtExprNest *x = new_nest(fe, OP_IF, n->span, 1, 2);
    x->node->args[0] = cond;
    FValue v[2];
    BranchOut br[2];
    uint32_t bar = push_barrier(fe);
    for (uint32_t k = 0; k < 2; k++)
        run_branch(fe, x, k, NULL, k ? n->u.ifexp.orelse : n->u.ifexp.body, &v[k], &br[k]);
    fe->conts.n = bar;
    if (v[0].kind == FV_UNDEF || v[1].kind == FV_UNDEF)
        return fv_undef();
    const char **names = mt_arena_alloc(&fe->c->arena, sizeof *names);
    names[0] = "the conditional expression";
    nest_results(fe, x, names, 1, n->span);
    for (uint32_t k = 0; k < 2; k++) {
        x->body[k].nyield = 1;
        x->body[k].yield = mt_arena_alloc(&fe->c->arena, sizeof *x->body[k].yield);
        if (!(x->body[k].yield[0] = merge_value(fe, v[k], v[1 - k], n->span)))
            return fv_undef();
    }
    fe_add_root(fe, x->node);
    return fv_expr(x->result[0]);
}

/* Whether statements contain a `return` (in nested blocks too). */
static bool has_return(const MtNodeList *l)
{
    for (uint32_t i = 0; i < l->n; i++) {
        const MtNode *s = l->v[i];
        switch ((MtNodeKind)s->kind) {
        case ND_RETURN: return true;
        case ND_IF:
            if (has_return(&s->u.if_.body) || has_return(&s->u.if_.orelse))
                return true;
            break;
        case ND_FOR:
            if (has_return(&s->u.for_.body))
                return true;
            break;
        case ND_WHILE:
            if (has_return(&s->u.while_.body))
                return true;
            break;
        default: break;
        }
    }
    return false;
}

/* A runtime `if` with a `return` in a branch: whatever follows the `if`
 * in the function runs on the paths that do not return, so it moves into
 * both branches (each branch then runs to the end of the function), and
 * the function's value is the if's result. Not inside loops: their bodies
 * are regions that run again. */
static void exec_returning_if(Fe *fe, const MtNode *st, MtExpr *cond)
{
    MtCtx *c = fe->c;
    Frame *fr = fe->frame;
    MtSpan header = st->u.if_.test->span;
    if (fr->runtime_loops) {
        fe_error(fe, st->span, "E0204", "`return` inside a runtime `if` within a runtime loop is not supported");
        return;
    }
    uint32_t base = fr->cont_base, top = fe->conts.n;
    for (uint32_t i = base; i < top; i++)
        if (!fe->conts.v[i].body) {
            fe_error(fe, st->span, "E0204",
                     "`return` inside a runtime `if` is supported where the rest of the function is plain "
                     "statements, not inside a compile-time loop or another runtime `if` without a return");
            return;
        }
    Cont *saved = mt_arena_alloc(&c->arena, (top - base + 1) * sizeof *saved);
    memcpy(saved, fe->conts.v + base, (top - base) * sizeof *saved);
    MtExprNest *x = new_nest(fe, OP_IF, header, 1, 2);
    x->node->args[0] = cond;
    BranchOut br[2];
    for (uint32_t k = 0; k < 2; k++) {
        memcpy(fe->conts.v + base, saved, (top - base) * sizeof *saved);
        fe->conts.n = top;
        br[k].scope = (Scope){.parent = fr->scope, .captures = &x->captures};
        fr->scope = &br[k].scope;
        Region rg = {.roots = &x->body[k].roots, .parent = fe->region};
        fe->region = &rg;
        exec_block(fe, k ? &st->u.if_.orelse : &st->u.if_.body);
        /* then the rest of the function, innermost statement list first */
        for (uint32_t i = top; i-- > base && !fr->returned;)
            for (const MtNode *next; (next = next_stmt(fe, i));)
                exec_stmt(fe, next);
        br[k].returned = fr->returned;
        br[k].ret = fr->returned ? fr->ret : fv_none();
        fr->returned = false;
        fe->region = rg.parent;
        fr->scope = br[k].scope.parent;
    }
    memcpy(fe->conts.v + base, saved, (top - base) * sizeof *saved);
    fe->conts.n = top;
    FValue r = fv_none();
    bool value0 = br[0].ret.kind != FV_NONE, value1 = br[1].ret.kind != FV_NONE;
    if (br[0].ret.kind == FV_UNDEF || br[1].ret.kind == FV_UNDEF) {
        r = fv_undef();
    } else if (value0 != value1) {
        fe_error(fe, st->span, "E0204",
                 "one path through this runtime `if` returns a value and the other does not; return a value on "
                 "both");
        r = fv_undef();
    } else if (value0) {
        const char **names = mt_arena_alloc(&c->arena, sizeof *names);
        names[0] = "the returned value";
        nest_results(fe, x, names, 1, header);
        for (uint32_t k = 0; k < 2; k++) {
            x->body[k].nyield = 1;
            x->body[k].yield = mt_arena_alloc(&c->arena, sizeof *x->body[k].yield);
            x->body[k].yield[0] = merge_value(fe, br[k].ret, br[1 - k].ret, header);
            if (!x->body[k].yield[0])
                r = fv_undef();
        }
        if (r.kind != FV_UNDEF)
            r = fv_expr(x->result[0]);
    }
    if (r.kind != FV_UNDEF)
        fe_add_root(fe, x->node);
    fr->returned = true;
    fr->ret = r;
    fr->ret_span = st->span;
}

/* `while cond:` on a runtime condition: a while nest. Names the body
 * assigns that exist before are carried; the condition is evaluated on
 * the carried values, the body on the values the condition passed on. */
static void exec_while(Fe *fe, const MtNode *st)
{
    MtCtx *c = fe->c;
    MtSpan header = st->u.while_.test->span;
    if (st->u.while_.orelse.n) {
        fe_error(fe, st->u.while_.orelse.v[0]->span, "E0205", "while/else is not supported in kernels");
        return;
    }
    NameVec assigned = {0};
    collect_assigned(c, &st->u.while_.body, &assigned);
    CarriedVec cv = {0};
    MtExprList inits = {0};
    NameVec carried = {0};
    if (!carried_names(fe, &assigned, NULL, header, "while loop", &cv, &inits, &carried))
        return;
    for (uint32_t i = 0; i < inits.n; i++)
        if (!fe_type(fe, inits.v[i]))
            return;
    uint32_t n = carried.n;
    MtExprNest *x = new_nest(fe, OP_WHILE, header, n, 2);
    nest_results(fe, x, carried.v, n, header);
    for (uint32_t k = 0; k < 2; k++) {
        x->body[k].nargs = n;
        x->body[k].arg = mt_arena_alloc(&c->arena, (n + 1) * sizeof *x->body[k].arg);
        for (uint32_t i = 0; i < n; i++) {
            MtExpr *p = fe_new(fe, EX_NEST_ARG, header, 0);
            p->u.nslot.nest = x;
            p->u.nslot.body = k;
            p->u.nslot.index = i;
            p->ty = fe_type(fe, inits.v[i]);
            x->body[k].arg[i] = p;
        }
    }
    for (uint32_t i = 0; i < n; i++)
        x->node->args[i] = inits.v[i];
    uint32_t bar = push_barrier(fe);
    /* the condition, on the carried values */
    Scope cs = {.parent = fe->frame->scope, .captures = &x->captures};
    fe->frame->scope = &cs;
    for (uint32_t i = 0; i < cv.n; i++) {
        uint32_t at = cv.v[i].first;
        fe_assign(fe, cv.v[i].name, rebuild(fe, cv.v[i].tmpl, x->body[0].arg, &at));
    }
    Region cr = {.roots = &x->body[0].roots, .parent = fe->region};
    fe->region = &cr;
    FValue t = fe_eval(fe, st->u.while_.test);
    MtExpr *cond = NULL;
    if (t.kind != FV_UNDEF && t.kind != FV_EXPR) {
        fe_error(fe, header, "E0201",
                 "`while` on a compile-time condition is not supported; loop with range(...) or tl.static_range");
    } else if (t.kind == FV_EXPR) {
        cond = runtime_cond(fe, t, header, "`while`");
    }
    fe->region = cr.parent;
    fe->frame->scope = cs.parent;
    x->body[0].nyield = n + 1;
    x->body[0].yield = mt_arena_alloc(&c->arena, (n + 2) * sizeof *x->body[0].yield);
    x->body[0].yield[0] = cond;
    for (uint32_t i = 0; i < n; i++)
        x->body[0].yield[1 + i] = x->body[0].arg[i];
    /* the body, on the values the condition passed on */
    Scope bs = {.parent = fe->frame->scope, .captures = &x->captures};
    fe->frame->scope = &bs;
    for (uint32_t i = 0; i < cv.n; i++) {
        uint32_t at = cv.v[i].first;
        fe_assign(fe, cv.v[i].name, rebuild(fe, cv.v[i].tmpl, x->body[1].arg, &at));
    }
    Region brg = {.roots = &x->body[1].roots, .parent = fe->region};
    fe->region = &brg;
    fe->frame->runtime_loops++;
    exec_block(fe, &st->u.while_.body);
    fe->frame->runtime_loops--;
    fe->region = brg.parent;
    x->body[1].nyield = n;
    x->body[1].yield = mt_arena_alloc(&c->arena, (n + 1) * sizeof *x->body[1].yield);
    bool ok = carried_yields(fe, &bs, &cv, header, x->body[1].yield) && cond != NULL;
    fe->frame->scope = bs.parent;
    fe->conts.n = bar;
    for (uint32_t k = 0; k < bs.names.n; k++) {
        const char *name = bs.names.v[k].name;
        bool is_carried = false;
        for (uint32_t i = 0; i < n; i++)
            is_carried |= !strcmp(carried.v[i], name);
        if (is_carried || local_binding(fe, name))
            continue;
        Binding tomb = {.name = name, .loop_local = true, .loop_span = header};
        mt_vec_push(&c->arena, &fe->frame->scope->names, tomb);
    }
    for (uint32_t i = 0; i < cv.n; i++) {
        uint32_t at = cv.v[i].first;
        fe_assign(fe, cv.v[i].name, ok ? rebuild(fe, cv.v[i].tmpl, x->result, &at) : fv_undef());
    }
    if (ok)
        fe_add_root(fe, x->node);
}

/* ---- statements -------------------------------------------------------------------------- */

static void exec_stmt(Fe *fe, const MtNode *st)
{
    switch ((MtNodeKind)st->kind) {
    case ND_EXPR_STMT:
        fe_eval(fe, st->u.expr);
        return;
    case ND_ASSIGN: {
        FValue v = fe_eval(fe, st->u.assign.value);
        for (uint32_t i = 0; i < st->u.assign.targets.n; i++)
            assign_target(fe, st->u.assign.targets.v[i], v, st->u.assign.value->span);
        return;
    }
    case ND_AUGASSIGN: {
        const MtNode *t = st->u.aug.target;
        if (t->kind != ND_NAME) {
            fe_error(fe, t->span, "E0209", "augmented assignment needs a plain name as target");
            return;
        }
        FValue cur = fe_lookup(fe, t->u.name, t->span);
        FValue rhs = fe_eval(fe, st->u.aug.value);
        assign_target(fe, t, fe_eval_binop(fe, st->u.aug.op, cur, rhs, st->span), st->span);
        return;
    }
    case ND_ANNASSIGN:
        if (st->u.ann.value)
            assign_target(fe, st->u.ann.target, fe_eval(fe, st->u.ann.value), st->u.ann.value->span);
        return;
    case ND_FOR:
        exec_for(fe, st);
        return;
    case ND_IF: {
        FValue t = fe_eval(fe, st->u.if_.test);
        if (t.kind == FV_UNDEF)
            return;
        if (t.kind == FV_EXPR) {
            MtExpr *cond = runtime_cond(fe, t, st->u.if_.test->span, "`if`");
            if (!cond)
                return;
            if (has_return(&st->u.if_.body) || has_return(&st->u.if_.orelse))
                exec_returning_if(fe, st, cond);
            else
                exec_runtime_if(fe, st, cond);
            return;
        }
        bool ok;
        bool truth = py_truth(fe, t, st->u.if_.test->span, &ok);
        if (ok)
            exec_block(fe, truth ? &st->u.if_.body : &st->u.if_.orelse);
        return;
    }
    case ND_WHILE:
        exec_while(fe, st);
        return;
    case ND_RETURN:
        if (fe->frame->runtime_loops) {
            fe_error(fe, st->span, "E0204", "`return` inside a runtime loop is not supported");
            return;
        }
        fe->frame->ret = st->u.expr ? fe_eval(fe, st->u.expr) : fv_none();
        fe->frame->ret_span = st->span;
        fe->frame->returned = true;
        return;
    case ND_PASS:
        return;
    case ND_BREAK:
    case ND_CONTINUE:
        fe_error(fe, st->span, "E0204", "`%s` is not supported in kernels; compute a mask instead",
                 st->kind == ND_BREAK ? "break" : "continue");
        return;
    case ND_ASSERT: {
        FValue t = fe_eval(fe, st->u.assert_.test);
        if (t.kind == FV_UNDEF)
            return;
        if (t.kind == FV_EXPR) {
            fe_error(fe, st->u.assert_.test->span, "E0201",
                     "`assert` on a runtime value is not supported; use tl.static_assert for compile-time checks");
            return;
        }
        bool ok;
        if (!py_truth(fe, t, st->u.assert_.test->span, &ok) && ok) {
            FValue m = st->u.assert_.msg ? fe_eval(fe, st->u.assert_.msg) : fv_none();
            fe_error(fe, st->span, "E0309", "assertion failed%s%s", m.kind == FV_STR ? ": " : "",
                     m.kind == FV_STR ? m.u.s : "");
        }
        return;
    }
    case ND_UNSUPPORTED_STMT:
        fe_error(fe, st->span, "E0201", "%s is not supported in kernels", st->u.unsup.what);
        return;
    default:
        fe_error(fe, st->span, "E0201", "this statement is not supported in kernels");
        return;
    }
}

static void exec_block(Fe *fe, const MtNodeList *body)
{
    Cont ct = {body, 0};
    mt_vec_push(&fe->c->arena, &fe->conts, ct);
    uint32_t at = fe->conts.n - 1;
    for (const MtNode *st; (st = next_stmt(fe, at));)
        exec_stmt(fe, st);
    fe->conts.n = at;
}


/* ---- helper calls ------------------------------------------------------------------------- */

FValue fe_call_jit(Fe *fe, const MtFuncDef *fn, const CallArgs *a, MtSpan sp)
{
    if (fe->depth >= FE_MAX_INLINE_DEPTH) {
        fe_error(fe, sp, "E0307", "calls nest more than %d deep; is '%s' recursive?", FE_MAX_INLINE_DEPTH, fn->name);
        return fv_undef();
    }
    for (Frame *f = fe->frame; f; f = f->caller)
        if (f->fn == fn) {
            fe_error(fe, sp, "E0307", "'%s' calls itself; recursion cannot be inlined", fn->name);
            return fv_undef();
        }
    Scope scope = {0};
    Frame frame = {.fn = fn, .scope = &scope, .caller = fe->frame, .cont_base = fe->conts.n};
    frame.inl = mt_inline_push(fe->c, sp, fn->name, fe->frame ? fe->frame->inl : 0);

    /* Bind arguments as Python does; defaults evaluate at module level. */
    FValue *vals = mt_arena_alloc(&fe->c->arena, (fn->nparams + 1) * sizeof *vals);
    bool *given = mt_arena_alloc(&fe->c->arena, fn->nparams + 1);
    uint32_t npos = 0;
    for (uint32_t i = 0; i < fn->nparams; i++)
        if (fn->params[i].kind != PARAM_NORMAL) {
            fe_error(fe, fn->params[i].span, "E0305", "helpers with *args, **kwargs or keyword-only parameters "
                     "cannot be inlined");
            return fv_undef();
        }
    if (a->npos > fn->nparams) {
        fe_error(fe, sp, "E0305", "'%s' takes %u argument%s, got %u", fn->name, fn->nparams,
                 fn->nparams == 1 ? "" : "s", a->npos);
        return fv_undef();
    }
    for (; npos < a->npos; npos++) {
        vals[npos] = a->pos[npos];
        given[npos] = true;
    }
    for (uint32_t k = 0; k < a->nkw; k++) {
        uint32_t j = fn->nparams;
        for (uint32_t i = 0; i < fn->nparams; i++)
            if (a->kw_name[k] && !strcmp(fn->params[i].name, a->kw_name[k]))
                j = i;
        if (j == fn->nparams) {
            fe_error(fe, a->kw_span[k], "E0305", "'%s' got an unexpected keyword argument '%s'", fn->name,
                     a->kw_name[k] ? a->kw_name[k] : "**");
            return fv_undef();
        }
        if (given[j]) {
            fe_error(fe, a->kw_span[k], "E0305", "'%s' got multiple values for argument '%s'", fn->name,
                     fn->params[j].name);
            return fv_undef();
        }
        vals[j] = a->kw[k];
        given[j] = true;
    }
    for (uint32_t i = 0; i < fn->nparams; i++)
        if (!given[i] && !fn->params[i].default_) {
            fe_error(fe, sp, "E0305", "'%s' missing required argument '%s'", fn->name, fn->params[i].name);
            return fv_undef();
        }
    Frame *caller = fe->frame;
    fe->frame = &frame;
    fe->depth++;
    for (uint32_t i = 0; i < fn->nparams; i++)
        fe_assign(fe, fn->params[i].name, given[i] ? vals[i] : fe_eval(fe, fn->params[i].default_));
    exec_block(fe, &fn->body);
    fe->depth--;
    fe->frame = caller;
    return frame.returned ? frame.ret : fv_none();
}

/* ---- entry --------------------------------------------------------------------------------- */

/* p.dtype.element_ty or p.type.element_ty with p a parameter of the kernel:
 * p is a pointer (editor mode types it so before the first question). */
typedef struct PtrScan {
    Fe *fe;
    const MtFuncDef *kernel;
} PtrScan;

static bool scan_element_ty(const MtNode *n, void *ud)
{
    PtrScan *s = ud;
    if (n->kind != ND_ATTR || strcmp(n->u.attr.name, "element_ty") != 0)
        return true;
    const MtNode *t = n->u.attr.value;
    if (!t || t->kind != ND_ATTR || (strcmp(t->u.attr.name, "dtype") != 0 && strcmp(t->u.attr.name, "type") != 0))
        return true;
    const MtNode *p = t->u.attr.value;
    if (!p || p->kind != ND_NAME)
        return true;
    for (uint32_t i = 0; i < s->kernel->nparams; i++)
        if (!strcmp(s->kernel->params[i].name, p->u.name))
            mt_vec_push(&s->fe->c->arena, &s->fe->pointer_names, p->u.name);
    return true;
}

static MtExprProgram *run(MtCtx *c, const MtModule *m, const MtFuncDef *kernel, const MtSpec *spec,
                          bool *needs_value, Fe *fe)
{
    PtrScan scan = {fe, kernel};
    fe->c = c;
    mt_ast_walk_body(kernel, scan_element_ty, &scan);
    MtExprProgram *prog = mt_arena_alloc(&c->arena, sizeof *prog);
    prog->kernel = kernel->name;
    prog->report_inferred = spec->infer_params;
    Scope scope = {0};
    Frame frame = {.fn = kernel, .scope = &scope};
    Region region = {.roots = &prog->roots};
    fe->c = c;
    fe->m = m;
    fe->spec = spec;
    fe->prog = prog;
    fe->frame = &frame;
    fe->region = &region;
    uint32_t errors = c->nerrors;
    *needs_value = false;
    if (!fe_specialize(fe, kernel)) {
        *needs_value = c->nerrors == errors;
        return NULL;
    }
    exec_block(fe, &kernel->body);
    if (frame.returned && frame.ret.kind != FV_NONE && frame.ret.kind != FV_UNDEF)
        fe_error(fe, frame.ret_span, "E0204", "a kernel cannot return a value (it writes results with tl.store)");
    if (fe->cut)
        keep_bound(fe, &scope, &prog->roots);
    fe->frame = NULL;
    prog->partial = c->nerrors != errors;
    return prog;
}

/* In editor mode a parameter without a type is a pointer when it
 * addresses memory; a question about its type asked before that use
 * (x.dtype) typed it i32, or its loaded values are indices (so it is
 * *i32, not *fp32), so the kernel runs again with what the first run
 * learned, and only the second run's diagnostics remain. */
MtExprProgram *mt_frontend(MtCtx *c, const MtModule *m, const MtFuncDef *kernel, const MtSpec *spec, uint32_t cut,
                           bool *needs_value)
{
    uint32_t ndiags = c->diags.n, errors = c->nerrors;
    Fe fe = {.cut = cut};
    MtExprProgram *prog = run(c, m, kernel, spec, needs_value, &fe);
    bool *ints = spec->infer_params ? fe_index_pointers(c, prog) : NULL;
    if (!fe.retype_pointers && !ints)
        return prog;
    mt_diag_truncate(c, ndiags, errors);
    Fe again = {.pointers = fe.addresses, .int_pointers = ints, .cut = cut};
    return run(c, m, kernel, spec, needs_value, &again);
}
