/* eval.c: evaluating kernel expressions.
 *
 * An expression evaluates to a compile-time Python value when all its
 * inputs are known at compile time (folded here, with Python semantics),
 * and to a new expression node otherwise. Nodes are never shared between
 * two evaluations of the same source text: re-evaluating `a + k` in each
 * iteration of a static loop makes new nodes, as the seeds' tracer did,
 * and CSE merges duplicates later. This keeps SSA numbering identical to
 * the seed documents.
 *
 * Names resolve through the frame's scopes, then module-level names, then
 * Python builtins. Reading an outer runtime value from inside a runtime
 * loop records it as a capture of every loop crossed. */
#include <stdarg.h>
#include <string.h>

#include "fe.h"

MtDiagRec *fe_error(Fe *fe, MtSpan sp, const char *code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    MtDiagRec *d = mt_vdiag(fe->c, MT_SEV_ERROR, sp, code, fmt, ap);
    va_end(ap);
    if (fe->frame)
        mt_note_inline(fe->c, d, fe->frame->inl);
    return d;
}

MtExpr *fe_new(Fe *fe, MtExprKind kind, MtSpan sp, uint32_t nargs)
{
    return mt_expr_new(fe->c, fe->prog, kind, sp, fe->frame ? fe->frame->inl : 0, nargs);
}

MtExpr *fe_to_expr(Fe *fe, FValue v, MtSpan sp)
{
    MtExpr *e;
    switch ((FvKind)v.kind) {
    case FV_EXPR:
        return v.u.e;
    case FV_BOOL:
    case FV_INT:
    case FV_FLOAT:
        e = fe_new(fe, EX_CONST, sp, 0);
        e->u.cst.kind = v.kind == FV_BOOL ? CST_BOOL : v.kind == FV_FLOAT ? CST_FLOAT : v.big ? CST_UINT : CST_INT;
        e->u.cst.i = v.kind == FV_FLOAT ? 0 : v.u.i;
        py_as_double(v, &e->u.cst.f);
        return e;
    case FV_UNDEF:
        return NULL;
    default:
        fe_error(fe, sp, "E0416", "expected a number or a runtime value here, got %s %s", fv_kind_name(v),
                 fv_repr(fe->c, v));
        return NULL;
    }
}

MtExpr *fe_op(Fe *fe, MtOpcode op, MtSpan sp, uint32_t nargs)
{
    return mt_expr_op(fe->c, fe->prog, op, sp, fe->frame ? fe->frame->inl : 0, nargs);
}

FValue fe_binary(Fe *fe, MtOpcode op, FValue a, FValue b, MtSpan sp)
{
    MtExpr *x = fe_to_expr(fe, a, sp);
    MtExpr *y = fe_to_expr(fe, b, sp);
    if (!x || !y)
        return fv_undef();
    MtExpr *e = fe_op(fe, op, sp, 2);
    e->args[0] = x;
    e->args[1] = y;
    return fv_expr(e);
}

/* ---- names ------------------------------------------------------------------- */

static Binding *scope_find(Scope *s, const char *name)
{
    for (uint32_t i = s->names.n; i-- > 0;)
        if (strcmp(s->names.v[i].name, name) == 0)
            return &s->names.v[i];
    return NULL;
}

static void add_capture(Fe *fe, MtExprList *captures, MtExpr *e)
{
    for (uint32_t i = 0; i < captures->n; i++)
        if (captures->v[i] == e)
            return;
    mt_expr_list_push(fe->c, captures, e);
}

/* Every runtime value inside v (a tuple's items, a block pointer's parts). */
static void capture_parts(Fe *fe, MtExprList *captures, FValue v)
{
    if (v.kind == FV_EXPR) {
        add_capture(fe, captures, v.u.e);
    } else if (v.kind == FV_TUPLE) {
        for (uint32_t i = 0; i < v.u.tup.n; i++)
            capture_parts(fe, captures, v.u.tup.v[i]);
    } else if (v.kind == FV_BLOCKPTR) {
        const FeBlockPtr *bp = v.u.bp;
        capture_parts(fe, captures, bp->base);
        for (int d = 0; d < bp->rank; d++) {
            capture_parts(fe, captures, bp->shape[d]);
            capture_parts(fe, captures, bp->strides[d]);
            capture_parts(fe, captures, bp->offsets[d]);
        }
    }
}

FValue fe_lookup(Fe *fe, const char *name, MtSpan sp)
{
    Scope *crossed[64];
    int ncrossed = 0;
    for (Scope *s = fe->frame->scope; s; s = s->parent) {
        Binding *b = scope_find(s, name);
        if (b) {
            if (b->loop_local && b->branch_local) {
                MtDiagRec *d = fe_error(fe, sp, "E0310",
                                        "'%s' is defined only in one branch of the runtime `if` above; assign it "
                                        "in both branches (or before the `if`) to use it after",
                                        name);
                mt_note(fe->c, d, b->loop_span, "the runtime `if` whose branch defines '%s'", name);
                return fv_undef();
            }
            if (b->loop_local) {
                MtDiagRec *d = fe_error(fe, sp, "E0310",
                                        "'%s' is defined only inside the runtime loop above; assign it before "
                                        "the loop to carry its value out of the loop",
                                        name);
                mt_note(fe->c, d, b->loop_span, "the runtime loop that defines '%s'", name);
                return fv_undef();
            }
            for (int i = 0; i < ncrossed; i++)
                capture_parts(fe, crossed[i]->captures, b->v);
            return b->v;
        }
        if (s->captures && ncrossed < 64)
            crossed[ncrossed++] = s;
    }
    bool found;
    FValue g = fe_global(fe, name, sp, &found);
    if (found)
        return g;
    FValue bi = fe_resolve_path(fe, mt_sprintf(fe->c, "builtins.%s", name));
    if (bi.kind != FV_OPAQUE)
        return bi;
    fe_error(fe, sp, "E0301", "undefined name '%s'", name);
    return fv_undef();
}

void fe_assign(Fe *fe, const char *name, FValue v)
{
    Scope *s = fe->frame->scope;
    Binding *b = scope_find(s, name);
    if (b) {
        b->v = v;
        b->loop_local = b->branch_local = false;
        return;
    }
    Binding nb = {.name = name, .v = v};
    mt_vec_push(&fe->c->arena, &s->names, nb);
}

/* Module-level names: imports resolve to modules/builtins, constants are
 * evaluated (with the cycle guard) in a frame of their own, so their
 * names resolve at module level only. */
FValue fe_global(Fe *fe, const char *name, MtSpan sp, bool *found)
{
    const MtGlobal *g = mt_module_global(fe->m, name);
    *found = g != NULL;
    if (!g)
        return fv_undef();
    switch (g->kind) {
    case GL_MODULE:
    case GL_FROM:
        return fe_resolve_path(fe, g->target);
    case GL_JIT: {
        FValue v = {.kind = FV_FUNC};
        v.u.fn = g->fn;
        return v;
    }
    case GL_VALUE: {
        if (!g->value) {
            MtDiagRec *d = fe_error(fe, sp, "E0311", "module-level name '%s' is not a compile-time constant", name);
            mt_note(fe->c, d, g->span, "'%s' is defined here", name);
            return fv_undef();
        }
        for (uint32_t i = 0; i < fe->evaluating_globals.n; i++)
            if (strcmp(fe->evaluating_globals.v[i], name) == 0) {
                fe_error(fe, sp, "E0312", "module-level constant '%s' depends on itself", name);
                return fv_undef();
            }
        mt_vec_push(&fe->c->arena, &fe->evaluating_globals, name);
        Scope scope = {0};
        Frame frame = {.scope = &scope, .inl = fe->frame ? fe->frame->inl : 0, .caller = fe->frame,
                       .cont_base = fe->conts.n};
        Frame *saved = fe->frame;
        fe->frame = &frame;
        uint32_t ndiags = fe->c->diags.n, errors = fe->c->nerrors;
        FValue v = fe_eval(fe, g->value);
        fe->frame = saved;
        fe->evaluating_globals.n--;
        if (v.kind == FV_EXPR || fe->c->nerrors != errors) {
            /* Host code computes it: say that, not what failed inside. */
            mt_diag_truncate(fe->c, ndiags, errors);
            MtDiagRec *d = fe_error(fe, sp, "E0311", "module-level name '%s' is not a compile-time constant", name);
            mt_note(fe->c, d, g->span, "'%s' is defined here", name);
            return fv_undef();
        }
        return v;
    }
    case GL_OTHER: {
        FValue v = {.kind = FV_OPAQUE};
        v.u.s = name;
        return v;
    }
    }
    return fv_undef();
}

/* ---- expressions ----------------------------------------------------------------- */

/* The operation of a Python operator token on runtime values: the op
 * table's entry spelled like it. */
static bool binop_of(MtOp tok, MtOpcode *out)
{
    const char *text = mt_op_text(tok);
    for (int op = 0; op < OPC_COUNT_; op++) {
        MtOpClass cls = mt_op_class(op);
        if ((cls == OC_ARITH || cls == OC_BITWISE || cls == OC_COMPARE) && mt_op_is_symbol(op) &&
            !strcmp(mt_op_info[op].py, text)) {
            *out = (MtOpcode)op;
            return true;
        }
    }
    return false;
}

static bool is_runtime(FValue v) { return v.kind == FV_EXPR; }

FValue fe_eval_binop(Fe *fe, MtOp op, FValue a, FValue b, MtSpan sp)
{
    if (a.kind == FV_UNDEF || b.kind == FV_UNDEF)
        return fv_undef();
    if (!is_runtime(a) && !is_runtime(b))
        return py_binop(fe, op, a, b, sp);
    MtOpcode bop;
    if (!binop_of(op, &bop)) {
        if (op == OP_AT)
            fe_error(fe, sp, "E0401", "'@' is not supported on runtime values; use tl.dot(a, b)");
        else if (op == OP_DSTAR)
            fe_error(fe, sp, "E0401",
                     "'**' is not supported on runtime values (Triton tensors have no power operator); multiply, "
                     "or use libdevice.pow(x, y)");
        else
            fe_error(fe, sp, "E0401", "operator '%s' is not supported on runtime values", mt_op_text(op));
        return fv_undef();
    }
    return fe_binary(fe, bop, a, b, sp);
}

static FValue eval_compare(Fe *fe, const MtNode *n)
{
    uint32_t count = n->u.cmp.items.n;
    FValue *vals = mt_arena_alloc(&fe->c->arena, count * sizeof *vals);
    bool runtime = false;
    for (uint32_t i = 0; i < count; i++) {
        vals[i] = fe_eval(fe, n->u.cmp.items.v[i]);
        if (vals[i].kind == FV_UNDEF)
            return fv_undef();
        runtime |= is_runtime(vals[i]);
    }
    if (!runtime) {
        FValue r = fv_bool(true);
        for (uint32_t i = 0; i + 1 < count; i++) {
            r = py_compare(fe, n->u.cmp.ops[i], n->u.cmp.negated[i], vals[i], vals[i + 1], n->span);
            if (r.kind != FV_BOOL || !r.u.i)
                return r;
        }
        return r;
    }
    if (count > 2) {
        for (uint32_t i = 1; i + 1 < count; i++) {
            const MtNode *mid = n->u.cmp.items.v[i];
            if (mid->kind == ND_BINOP && (mid->u.bin.op == OP_AMP || mid->u.bin.op == OP_VBAR)) {
                fe_error(fe, n->span, "E0207",
                         "'%s' binds tighter than comparisons, so this means a < (b %s c) < d; wrap each "
                         "comparison in parentheses: (a < b) %s (c < d)",
                         mt_op_text(mid->u.bin.op), mt_op_text(mid->u.bin.op), mt_op_text(mid->u.bin.op));
                return fv_undef();
            }
        }
        fe_error(fe, n->span, "E0206",
                 "chained comparisons on runtime values are not supported; combine the comparisons with &, each "
                 "in parentheses");
        return fv_undef();
    }
    int op = n->u.cmp.ops[0];
    if (op == -KW_IS)
        return py_compare(fe, op, n->u.cmp.negated[0], vals[0], vals[1], n->span);
    if (op == -KW_IN) {
        fe_error(fe, n->span, "E0401", "'in' is not supported on runtime values");
        return fv_undef();
    }
    return fe_eval_binop(fe, (MtOp)op, vals[0], vals[1], n->span);
}

/* A runtime operand of `and` / `or` / `not`: Triton's logical_and /
 * logical_or / not_ take bool (tl.int1) values only. */
static bool bool_operand(Fe *fe, FValue v, const char *what, MtSpan sp)
{
    const MtType *t = fe_type(fe, v.u.e);
    if (!t)
        return false;
    if (mt_ty_is_bool(mt_ty_elem(t)))
        return true;
    fe_error(fe, sp, "E0206",
             "'%s' on runtime values needs bool operands, got %s; compare first (x != 0), or use %s for a "
             "bitwise operation",
             what, mt_ty_str(fe->c, t), !strcmp(what, "not") ? "~" : !strcmp(what, "and") ? "&" : "|");
    return false;
}

/* `a and b`: Python's short-circuit on compile-time values; once a runtime
 * value is involved every operand is evaluated and combined with & (|),
 * as Triton's logical_and (logical_or) does. */
static FValue eval_boolop(Fe *fe, const MtNode *n)
{
    bool is_and = n->u.boolop.op == KW_AND;
    const char *what = is_and ? "and" : "or";
    FValue v = fv_undef();
    bool runtime = false;
    for (uint32_t i = 0; i < n->u.boolop.items.n; i++) {
        const MtNode *item = n->u.boolop.items.v[i];
        FValue x = fe_eval(fe, item);
        if (x.kind == FV_UNDEF)
            return x;
        if (!runtime && !is_runtime(x)) {
            bool ok;
            bool t = py_truth(fe, x, item->span, &ok);
            if (!ok)
                return fv_undef();
            v = x;
            if (is_and ? !t : t)
                return v;
            continue;
        }
        if (is_runtime(x) && !bool_operand(fe, x, what, item->span))
            return fv_undef();
        if (!runtime) {
            /* the compile-time operands before did not decide it */
            runtime = true;
            v = x;
            continue;
        }
        v = fe_binary(fe, is_and ? OP_AND : OP_OR, v, x, n->span);
        if (v.kind == FV_UNDEF)
            return v;
    }
    return v;
}

static FValue eval_unary(Fe *fe, const MtNode *n)
{
    FValue a = fe_eval(fe, n->u.un.operand);
    if (!is_runtime(a))
        return py_unary(fe, n->u.un.op, a, n->span);
    switch (n->u.un.op) {
    case OP_PLUS:
        return a;
    case OP_MINUS:
    case OP_TILDE: {
        MtExpr *e = fe_op(fe, n->u.un.op == OP_MINUS ? OP_NEG : OP_NOT, n->span, 1);
        e->args[0] = a.u.e;
        return fv_expr(e);
    }
    default: {
        if (!bool_operand(fe, a, "not", n->span))
            return fv_undef();
        MtExpr *e = fe_op(fe, OP_NOT, n->span, 1);
        e->args[0] = a.u.e;
        return fv_expr(e);
    }
    }
}

static bool is_full_slice(const MtNode *n)
{
    return n->kind == ND_SLICE && !n->u.slice.lo && !n->u.slice.hi && !n->u.slice.step;
}

static FValue eval_subscript(Fe *fe, const MtNode *n)
{
    FValue v = fe_eval(fe, n->u.sub.value);
    if (v.kind == FV_UNDEF)
        return v;
    const MtNode *ix = n->u.sub.index;
    if (is_runtime(v)) {
        /* Triton's tensor.__getitem__: each None inserts an axis of size 1
         * where it stands, each `:` keeps one */
        const MtNode *one[1] = {ix};
        const MtNode *const *items = ix->kind == ND_TUPLE ? (const MtNode *const *)ix->u.list.v : one;
        uint32_t ni = ix->kind == ND_TUPLE ? ix->u.list.n : 1;
        MtExpr *x = fe_to_expr(fe, v, n->span);
        if (!x)
            return fv_undef();
        for (uint32_t d = 0; d < ni; d++) {
            if (is_full_slice(items[d]))
                continue;
            if (items[d]->kind != ND_NONE) {
                fe_error(fe, items[d]->span, "E0208",
                         "unsupported subscript of a block: only None (a new axis) and `:` (an axis kept) are "
                         "supported, as in x[:, None]");
                return fv_undef();
            }
            MtExpr *e = fe_op(fe, OP_EXPAND_DIMS, n->span, 1);
            e->attr.axis = (int)d;
            e->args[0] = x;
            x = e;
        }
        return fv_expr(x);
    }
    if (ix->kind == ND_SLICE && v.kind == FV_TUPLE) {
        /* t[lo:hi:step] of a compile-time tuple (x.shape[:-1]) */
        int64_t len = v.u.tup.n, b[3] = {0, len, 1};
        const MtNode *parts[3] = {ix->u.slice.lo, ix->u.slice.hi, ix->u.slice.step};
        for (int k = 2; k >= 0; k--) {
            if (!parts[k])
                continue;
            if (!fe_static_int(fe, fe_eval(fe, parts[k]), parts[k]->span, "a slice bound", &b[k]))
                return fv_undef();
        }
        if (b[2] == 0) {
            fe_error(fe, ix->span, "E0312", "slice step cannot be zero");
            return fv_undef();
        }
        if (b[2] < 0) {
            if (!parts[0])
                b[0] = len - 1;
            if (!parts[1])
                b[1] = -len - 1;
        }
        for (int k = 0; k < 2; k++) {
            if (b[k] < 0)
                b[k] += len;
            int64_t lo = b[2] < 0 ? -1 : 0, hi = b[2] < 0 ? len - 1 : len;
            b[k] = b[k] < lo ? lo : b[k] > hi ? hi : b[k];
        }
        FValue t = {.kind = FV_TUPLE, .is_list = v.is_list};
        t.u.tup.v = mt_arena_alloc(&fe->c->arena, ((size_t)len + 1) * sizeof *t.u.tup.v);
        for (int64_t i = b[0]; b[2] > 0 ? i < b[1] : i > b[1]; i += b[2])
            t.u.tup.v[t.u.tup.n++] = v.u.tup.v[i];
        return t;
    }
    FValue k = fe_eval(fe, ix);
    if (k.kind == FV_UNDEF)
        return k;
    int64_t i;
    if ((v.kind == FV_TUPLE || v.kind == FV_STR) && py_as_int(k, &i)) {
        int64_t len = v.kind == FV_TUPLE ? v.u.tup.n : (int64_t)strlen(v.u.s);
        if (i < 0)
            i += len;
        if (i < 0 || i >= len) {
            fe_error(fe, ix->span, "E0312", "index %lld out of range for %s of length %lld", (long long)k.u.i,
                     fv_kind_name(v), (long long)len);
            return fv_undef();
        }
        if (v.kind == FV_TUPLE)
            return v.u.tup.v[i];
        return (FValue){.kind = FV_STR, .u.s = mt_arena_strndup(&fe->c->arena, v.u.s + i, 1)};
    }
    fe_error(fe, n->span, "E0208", "cannot subscript %s with %s at compile time", fv_kind_name(v), fv_kind_name(k));
    return fv_undef();
}

static FValue eval_attr(Fe *fe, const MtNode *n)
{
    FValue v = fe_eval(fe, n->u.attr.value);
    switch ((FvKind)v.kind) {
    case FV_UNDEF:
        return v;
    case FV_MODULE:
        return fe_resolve_path(fe, mt_sprintf(fe->c, "%s.%s", v.u.s, n->u.attr.name));
    case FV_OPAQUE: {
        FValue r = {.kind = FV_OPAQUE};
        r.u.s = mt_sprintf(fe->c, "%s.%s", v.u.s, n->u.attr.name);
        return r;
    }
    case FV_EXPR:
    case FV_BLOCKPTR:
    case FV_DTYPE:
        return fe_value_attr(fe, v, n->u.attr.name, n->u.attr.name_span);
    case FV_BOOL:
    case FV_INT:
    case FV_FLOAT:
        /* A number assigned in a kernel is a Triton tensor (code_generator's
         * to_tensor on assignment): `zero = 0.0; zero.to(x.dtype)`. */
        return fe_value_attr(fe, fv_expr(fe_to_expr(fe, v, n->u.attr.value->span)), n->u.attr.name,
                             n->u.attr.name_span);
    default:
        fe_error(fe, n->u.attr.name_span, "E0304", "%s has no attribute '%s' in kernels", fv_kind_name(v),
                 n->u.attr.name);
        return fv_undef();
    }
}

static FValue eval_call(Fe *fe, const MtNode *n)
{
    FValue fn = fe_eval(fe, n->u.call.fn);
    if (fn.kind == FV_UNDEF)
        return fn;
    CallArgs a = {.call = n};
    a.npos = n->u.call.args.n;
    a.pos = mt_arena_alloc(&fe->c->arena, (a.npos + 1) * sizeof *a.pos);
    a.pos_span = mt_arena_alloc(&fe->c->arena, (a.npos + 1) * sizeof *a.pos_span);
    for (uint32_t i = 0; i < a.npos; i++) {
        a.pos[i] = fe_eval(fe, n->u.call.args.v[i]);
        a.pos_span[i] = n->u.call.args.v[i]->span;
        if (a.pos[i].kind == FV_UNDEF)
            return fv_undef();
    }
    a.nkw = n->u.call.nkw;
    a.kw = mt_arena_alloc(&fe->c->arena, (a.nkw + 1) * sizeof *a.kw);
    a.kw_name = mt_arena_alloc(&fe->c->arena, (a.nkw + 1) * sizeof *a.kw_name);
    a.kw_span = mt_arena_alloc(&fe->c->arena, (a.nkw + 1) * sizeof *a.kw_span);
    for (uint32_t i = 0; i < a.nkw; i++) {
        a.kw[i] = fe_eval(fe, n->u.call.kw[i].value);
        a.kw_name[i] = n->u.call.kw[i].name;
        a.kw_span[i] = n->u.call.kw[i].span;
        if (a.kw[i].kind == FV_UNDEF)
            return fv_undef();
    }
    switch ((FvKind)fn.kind) {
    case FV_BUILTIN:
        return fe_call_builtin(fe, fn.u.builtin, &a, n->span);
    case FV_FUNC:
        return fe_call_jit(fe, fn.u.fn, &a, n->span);
    case FV_METHOD:
        return fe_call_method(fe, fn, &a, n->span);
    case FV_DTYPE:
        /* tl.float32(x): x as a tensor of that dtype, as libraries write
         * accumulators (`m = tl.float32(-float("inf"))`) */
        if (a.npos == 1 && !a.nkw && mt_ty_is_scalar(fn.u.dtype) && (fv_is_number(a.pos[0]) || a.pos[0].kind == FV_EXPR)) {
            MtExpr *x = fe_to_expr(fe, a.pos[0], a.pos_span[0]);
            MtExpr *e = x ? fe_cast(fe, x, fn.u.dtype, MT_ROUND_RTNE, false, n->span) : NULL;
            return e ? fv_expr(e) : fv_undef();
        }
        fe_error(fe, n->u.call.fn->span, "E0307", "a dtype called in a kernel takes one number or runtime value: %s(x)",
                 fv_repr(fe->c, fn));
        return fv_undef();
    case FV_OPAQUE:
        if (!strncmp(fn.u.s, "tl.", 3) || !strncmp(fn.u.s, "triton.", 7))
            fe_error(fe, n->u.call.fn->span, "E0304",
                     "%s is not supported by mytriton (see docs/language.md for the supported tl functions)",
                     fn.u.s);
        else
            fe_error(fe, n->u.call.fn->span, "E0304",
                     "'%s' cannot be called from a kernel: only tl functions, @triton.jit functions of this file "
                     "and compile-time builtins can (see docs/language.md)",
                     fn.u.s);
        return fv_undef();
    default:
        fe_error(fe, n->u.call.fn->span, "E0307", "%s is not callable in a kernel", fv_kind_name(fn));
        return fv_undef();
    }
}

static FValue eval_seq(Fe *fe, const MtNode *n)
{
    FValue t = {.kind = FV_TUPLE, .is_list = n->kind == ND_LIST};
    t.u.tup.n = n->u.list.n;
    t.u.tup.v = mt_arena_alloc(&fe->c->arena, (t.u.tup.n + 1) * sizeof(FValue));
    for (uint32_t i = 0; i < n->u.list.n; i++) {
        t.u.tup.v[i] = fe_eval(fe, n->u.list.v[i]);
        if (t.u.tup.v[i].kind == FV_UNDEF)
            return fv_undef();
    }
    return t;
}

/* An integer literal beyond INT64_MAX: a u64 constant when it fits (the
 * Philox constants do), read back from the source text. */
static FValue big_literal(Fe *fe, const MtNode *n)
{
    size_t len;
    const char *text = mt_file_text(fe->c, n->span.file, &len);
    FValue v;
    if (text && n->span.end <= len &&
        py_parse_literal(fe->c, mt_arena_strndup(&fe->c->arena, text + n->span.off, n->span.end - n->span.off), &v) &&
        v.kind == FV_INT)
        return v;
    fe_error(fe, n->span, "E0312", "integer literal is too large (more than 64 bits)");
    return fv_undef();
}

FValue fe_eval(Fe *fe, const MtNode *n)
{
    switch ((MtNodeKind)n->kind) {
    case ND_NAME:
        return fe_lookup(fe, n->u.name, n->span);
    case ND_INT:
        if (n->u.num.overflow)
            return big_literal(fe, n);
        return fv_int(n->u.num.i);
    case ND_FLOAT:
        return fv_float(n->u.num.f);
    case ND_STR:
        return (FValue){.kind = FV_STR, .u.s = n->u.str.s};
    case ND_TRUE:
        return fv_bool(true);
    case ND_FALSE:
        return fv_bool(false);
    case ND_NONE:
        return fv_none();
    case ND_BINOP:
        return fe_eval_binop(fe, n->u.bin.op, fe_eval(fe, n->u.bin.lhs), fe_eval(fe, n->u.bin.rhs), n->span);
    case ND_UNARY:
        return eval_unary(fe, n);
    case ND_BOOLOP:
        return eval_boolop(fe, n);
    case ND_COMPARE:
        return eval_compare(fe, n);
    case ND_CALL:
        return eval_call(fe, n);
    case ND_ATTR:
        return eval_attr(fe, n);
    case ND_SUBSCRIPT:
        return eval_subscript(fe, n);
    case ND_SLICE:
        return (FValue){.kind = FV_SLICE};
    case ND_TUPLE:
    case ND_LIST:
        return eval_seq(fe, n);
    case ND_IFEXP: {
        FValue t = fe_eval(fe, n->u.ifexp.test);
        if (t.kind == FV_UNDEF)
            return t;
        if (is_runtime(t))
            return fe_runtime_ifexp(fe, n, t);
        bool ok;
        bool truth = py_truth(fe, t, n->u.ifexp.test->span, &ok);
        if (!ok)
            return fv_undef();
        return fe_eval(fe, truth ? n->u.ifexp.body : n->u.ifexp.orelse);
    }
    case ND_UNSUPPORTED:
        fe_error(fe, n->span, "E0203", "%s is not supported in kernels", n->u.unsup.what);
        return fv_undef();
    case ND_ELLIPSIS:
        fe_error(fe, n->span, "E0203", "'...' is not supported in kernels");
        return fv_undef();
    default:
        fe_error(fe, n->span, "E0105", "expected an expression");
        return fv_undef();
    }
}
