/* emit.c: CUDA C++ for a kernel, following seeds ver3-ver16.
 *
 * The generated kernel is one flat CUDA block per program instance. Every
 * SSA value becomes what its layout says:
 *   - a scalar (program ids, parameters, reductions' results) is one C
 *     variable, the same in every thread: `int v0 = blockIdx.x;`
 *   - a block value distributed over the threads is one C variable per
 *     thread, `float v6 = (v5 ? x[v3] : 0.0f);`, or a register tile
 *     `float v23[2][1];` when each thread owns several elements (tl.dot
 *     kernels), written by small unrolled loops over r0/r1;
 *   - a rank-1 arange in a kernel of rank-2 tiles is a coordinate template
 *     that expand_dims turns into `int v3 = tile_i;`;
 *   - pointers are never materialised: `addptr x, %3` folds into the
 *     indexing `x[v3]` of the loads and stores that use it.
 * Values are named after their SSA numbers (v<N>), kernel parameters keep
 * their Python names, and every emitted line records the source line of
 * the operation it came from. Reductions are in reduce.c, tl.dot in
 * stage.c. */
#include <stdarg.h>
#include <string.h>

#include "emit.h"

void em_line(Em *e, const char *fmt, ...)
{
    mt_buf_indent(&e->body, 4 * e->indent);
    va_list ap;
    va_start(ap, fmt);
    mt_buf_vprintf(&e->body, fmt, ap);
    va_end(ap);
    mt_buf_putc(&e->body, '\n');
    mt_vec_push(&e->c->arena, &e->body_lines, e->cur_span);
    mt_vec_push(&e->c->arena, &e->body_inl, e->cur_inl);
}

void em_fail(Em *e, const MtInst *in, const char *code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    MtDiagRec *d = mt_vdiag(e->c, MT_SEV_ERROR, in->span, code, fmt, ap);
    va_end(ap);
    mt_note_inline(e->c, d, in->inl);
    e->failed = true;
}

static const MtValLayout *vl_of(Em *e, MtVal v) { return &e->li->vals[v]; }

static bool has_regs(Em *e, MtVal v)
{
    const MtValLayout *vl = vl_of(e, v);
    return vl->kind == VL_THREAD && (vl->regs[0] > 1 || vl->regs[1] > 1);
}

const char *em_ref(Em *e, MtVal v, const char *r0, const char *r1)
{
    const MtValue *x = &e->f->vals[v];
    if (x->kind == VK_CONST) {
        MtBuf b;
        mt_buf_init(&b, &e->c->arena);
        cu_literal(&b, x->cst, x->ty);
        return mt_buf_str(&b);
    }
    if (vl_of(e, v)->kind == VL_TEMPLATE) {
        /* A rank-1 coordinate met by a rank-2 operation broadcasts like a
         * row: it varies along the column axis. */
        return em_subst(e, em_template(e, v), em_coord(e, 1, r1));
    }
    const char *n = e->names[v];
    if (!n)
        return "/*unlowered*/0";
    if (!has_regs(e, v))
        return n;
    const MtValLayout *vl = vl_of(e, v);
    return mt_sprintf(e->c, "%s[%s][%s]", n, vl->regs[0] > 1 ? r0 : "0", vl->regs[1] > 1 ? r1 : "0");
}

const char *em_subst(Em *e, const char *tmpl, const char *coord)
{
    MtBuf b;
    mt_buf_init(&b, &e->c->arena);
    for (const char *p = tmpl; *p; p++) {
        if (*p == '@')
            mt_buf_puts(&b, coord);
        else
            mt_buf_putc(&b, *p);
    }
    return mt_buf_str(&b);
}

static bool is_float(Em *e, MtVal v) { return mt_ty_elem(e->f->vals[v].ty) == &mt_ty_f32; }

const char *em_elementwise(Em *e, const MtInst *in, const char *const *o)
{
    MtCtx *c = e->c;
    bool result_bool = in->ty && mt_ty_elem(in->ty) == &mt_ty_bool;
    bool result_float = in->ty && mt_ty_elem(in->ty) == &mt_ty_f32;
    if (mt_op_class(in->op) == OC_MATH) {
        static const char *const fn[OPC_COUNT_] = {
#define MATH(id, name, nargs, dtypes, api, c32, c64, chalf, cuda32, cuda64, params, doc) [OP_##id] = cuda32,
#include "ssa/math.def"
#undef MATH
        };
        MtBuf b;
        mt_buf_init(&b, &c->arena);
        mt_buf_printf(&b, "%s(", fn[in->op]);
        for (uint32_t i = 0; i < in->nargs; i++)
            mt_buf_printf(&b, i ? ", %s" : "%s", o[i]);
        mt_buf_putc(&b, ')');
        return mt_buf_str(&b);
    }
    switch (in->op) {
    case OP_ADD: return mt_sprintf(c, "(%s + %s)", o[0], o[1]);
    case OP_SUB: return mt_sprintf(c, "(%s - %s)", o[0], o[1]);
    case OP_MUL: return mt_sprintf(c, "(%s * %s)", o[0], o[1]);
    case OP_DIV:
        if (!is_float(e, in->args[0]) && !is_float(e, in->args[1]))
            return mt_sprintf(c, "((float)%s / (float)%s)", o[0], o[1]);
        return mt_sprintf(c, "(%s / %s)", o[0], o[1]);
    case OP_FLOORDIV: return mt_sprintf(c, "(%s / %s)", o[0], o[1]);
    case OP_MOD: return mt_sprintf(c, "(%s %% %s)", o[0], o[1]);
    case OP_AND: return mt_sprintf(c, result_bool ? "(%s && %s)" : "(%s & %s)", o[0], o[1]);
    case OP_OR: return mt_sprintf(c, result_bool ? "(%s || %s)" : "(%s | %s)", o[0], o[1]);
    case OP_XOR: return mt_sprintf(c, result_bool ? "(%s != %s)" : "(%s ^ %s)", o[0], o[1]);
    case OP_CMP_LT: return mt_sprintf(c, "(%s < %s)", o[0], o[1]);
    case OP_CMP_LE: return mt_sprintf(c, "(%s <= %s)", o[0], o[1]);
    case OP_CMP_GT: return mt_sprintf(c, "(%s > %s)", o[0], o[1]);
    case OP_CMP_GE: return mt_sprintf(c, "(%s >= %s)", o[0], o[1]);
    case OP_CMP_EQ: return mt_sprintf(c, "(%s == %s)", o[0], o[1]);
    case OP_CMP_NE: return mt_sprintf(c, "(%s != %s)", o[0], o[1]);
    case OP_MAXIMUM:
    case OP_MINIMUM: {
        /* NaN propagates; equal values take the right-hand operand. */
        const char *rel = in->op == OP_MAXIMUM ? ">" : "<";
        if (!result_float)
            return mt_sprintf(c, "(%s %s %s ? %s : %s)", o[0], rel, o[1], o[0], o[1]);
        return mt_sprintf(c, "((%s%s%s%s %s %s) ? %s : %s)", is_float(e, in->args[0]) ? "isnan(" : "",
                          is_float(e, in->args[0]) ? o[0] : "", is_float(e, in->args[0]) ? ") || " : "", o[0], rel,
                          o[1], o[0], o[1]);
    }
    case OP_NEG: return mt_sprintf(c, "(-%s)", o[0]);
    case OP_NOT: return mt_sprintf(c, result_bool ? "(!%s)" : "(~%s)", o[0]);
    case OP_SELECT: return mt_sprintf(c, "(%s ? %s : %s)", o[0], o[1], o[2]);
    default: return "/*unsupported*/0";
    }
}

const char *em_template(Em *e, MtVal v)
{
    if (e->tmpl[v])
        return e->tmpl[v];
    const MtValue *x = &e->f->vals[v];
    if (x->kind != VK_INST)
        return NULL;
    const MtInst *in = x->def;
    if (in->op == OP_ARANGE) {
        e->tmpl[v] = in->attr.start ? mt_sprintf(e->c, "(%lld + @)", (long long)in->attr.start) : "@";
        return e->tmpl[v];
    }
    if (!(mt_op_info[in->op].flags & F_ELEM) || in->op == OP_ADDPTR)
        return NULL;
    const char *ops[3];
    for (uint32_t i = 0; i < in->nargs; i++) {
        MtVal a = in->args[i];
        ops[i] = e->f->vals[a].ty->kind == TY_BLOCK ? em_template(e, a) : em_ref(e, a, "0", "0");
        if (!ops[i])
            return NULL;
    }
    e->tmpl[v] = em_elementwise(e, in, ops);
    return e->tmpl[v];
}

/* ---- per-thread values ------------------------------------------------------------------ */

typedef const char *(*ExprFn)(Em *e, const MtInst *in, const char *r0, const char *r1);

void em_reg_loops_open(Em *e, const int32_t *regs, const char **r0, const char **r1)
{
    *r0 = "0";
    *r1 = "0";
    if (regs[0] > 1) {
        em_line(e, "#pragma unroll");
        em_line(e, "for (int r0 = 0; r0 < %d; ++r0) {", regs[0]);
        e->indent++;
        *r0 = "r0";
    }
    if (regs[1] > 1) {
        em_line(e, "#pragma unroll");
        em_line(e, "for (int r1 = 0; r1 < %d; ++r1) {", regs[1]);
        e->indent++;
        *r1 = "r1";
    }
}

void em_reg_loops_close(Em *e, const int32_t *regs)
{
    for (int i = 0; i < 2; i++)
        if (regs[i] > 1) {
            e->indent--;
            em_line(e, "}");
        }
}

static void per_thread(Em *e, const MtInst *in, ExprFn fn)
{
    MtVal v = in->dst;
    const char *name = mt_sprintf(e->c, "v%u", e->f->vals[v].num);
    const char *ty = cu_type(in->ty);
    e->names[v] = name;
    if (!has_regs(e, v)) {
        em_line(e, "%s %s = %s;", ty, name, fn(e, in, "0", "0"));
        return;
    }
    const MtValLayout *vl = vl_of(e, v);
    em_line(e, "%s %s[%d][%d];", ty, name, vl->regs[0], vl->regs[1]);
    const char *r0, *r1;
    em_reg_loops_open(e, vl->regs, &r0, &r1);
    em_line(e, "%s[%s][%s] = %s;", name, r0, r1, fn(e, in, r0, r1));
    em_reg_loops_close(e, vl->regs);
}

static const char *elementwise_at(Em *e, const MtInst *in, const char *r0, const char *r1)
{
    const char *ops[3];
    for (uint32_t i = 0; i < in->nargs; i++)
        ops[i] = em_ref(e, in->args[i], r0, r1);
    return em_elementwise(e, in, ops);
}

const char *em_coord(Em *e, int axis, const char *r)
{
    const char *base = axis == 0 ? "tile_i" : "tile_j";
    if (e->li->reg.registers[axis] <= 1)
        return base;
    return mt_sprintf(e->c, "(%s + %s * %d)", base, r, e->li->kernel.threads[axis]);
}

static const char *expand_at(Em *e, const MtInst *in, const char *r0, const char *r1)
{
    /* axis=1 inserts a column axis: the values vary along rows (tile_i). */
    int along = in->attr.axis == 1 ? 0 : 1;
    return em_subst(e, em_template(e, in->args[0]), em_coord(e, along, along == 0 ? r0 : r1));
}

static const char *arange_at(Em *e, const MtInst *in, const char *r0, const char *r1)
{
    (void)r0;
    (void)r1;
    if (in->attr.start)
        return mt_sprintf(e->c, "(%lld + threadIdx.x)", (long long)in->attr.start);
    return "threadIdx.x";
}

static const char *load_other(Em *e, const MtInst *in)
{
    MtBuf b;
    mt_buf_init(&b, &e->c->arena);
    MtVal o = in->args[2];
    if (!o) {
        MtConst zero = {.kind = CST_INT};
        cu_literal(&b, zero, in->ty);
    } else if (e->f->vals[o].kind == VK_CONST) {
        cu_literal(&b, e->f->vals[o].cst, in->ty);
    } else {
        return NULL;
    }
    return mt_buf_str(&b);
}

/* base[index] for a pointer value; a bare pointer parameter is base[0]. */
static const char *ptr_access(Em *e, MtVal p, const char *r0, const char *r1)
{
    if (e->f->vals[p].kind == VK_PARAM)
        return mt_sprintf(e->c, "%s[0]", e->names[p]);
    return mt_sprintf(e->c, "%s[%s]", e->names[e->ptr_base[p]], em_ref(e, p, r0, r1));
}

static const char *load_at(Em *e, const MtInst *in, const char *r0, const char *r1)
{
    const char *access = ptr_access(e, in->args[0], r0, r1);
    if (!in->args[1])
        return access;
    const char *other = load_other(e, in);
    if (!other)
        other = em_ref(e, in->args[2], r0, r1);
    return mt_sprintf(e->c, "(%s ? %s : %s)", em_ref(e, in->args[1], r0, r1), access, other);
}

static const char *fill_at(Em *e, const MtInst *in, const char *r0, const char *r1)
{
    MtBuf b;
    mt_buf_init(&b, &e->c->arena);
    if (in->op == OP_ZEROS) {
        MtConst zero = {.kind = CST_INT};
        cu_literal(&b, zero, in->ty);
        return mt_buf_str(&b);
    }
    return em_ref(e, in->args[0], r0, r1);
}

static const char *ptr_add_at(Em *e, const MtInst *in, const char *r0, const char *r1)
{
    return mt_sprintf(e->c, "(%s + %s)", em_ref(e, in->args[0], r0, r1), em_ref(e, in->args[1], r0, r1));
}

static void emit_addptr(Em *e, const MtInst *in)
{
    MtVal p = in->args[0], v = in->dst;
    const MtValue *px = &e->f->vals[p];
    if (px->kind == VK_PARAM) {
        /* x + offsets: the pointer is x indexed by the offset value itself. */
        e->ptr_base[v] = p;
        e->names[v] = e->f->vals[in->args[1]].kind == VK_CONST ? em_ref(e, in->args[1], "0", "0")
                                                              : e->names[in->args[1]];
        if (e->f->vals[in->args[1]].kind != VK_CONST && has_regs(e, in->args[1]) != has_regs(e, v)) {
            per_thread(e, in, ptr_add_at);
            e->ptr_base[v] = p;
        }
        return;
    }
    e->ptr_base[v] = e->ptr_base[p];
    per_thread(e, in, ptr_add_at);
    /* per_thread typed the index after the pointer; indices are ints. */
}

static void emit_store(Em *e, const MtInst *in)
{
    int32_t regs[2] = {1, 1};
    for (uint32_t i = 0; i < 3; i++)
        if (in->args[i] && has_regs(e, in->args[i]))
            for (int d = 0; d < 2; d++)
                if (vl_of(e, in->args[i])->regs[d] > regs[d])
                    regs[d] = vl_of(e, in->args[i])->regs[d];
    const char *r0, *r1;
    em_reg_loops_open(e, regs, &r0, &r1);
    const char *target = ptr_access(e, in->args[0], r0, r1);
    const char *value = em_ref(e, in->args[1], r0, r1);
    if (in->args[2]) {
        em_line(e, "if (%s) {", em_ref(e, in->args[2], r0, r1));
        e->indent++;
        em_line(e, "%s = %s;", target, value);
        e->indent--;
        em_line(e, "}");
    } else {
        em_line(e, "%s = %s;", target, value);
    }
    em_reg_loops_close(e, regs);
}

static void emit_region(Em *e, const MtRegion *r);

static void copy_tile(Em *e, const char *dst, MtVal src, const int32_t *regs)
{
    const char *r0, *r1;
    em_reg_loops_open(e, regs, &r0, &r1);
    em_line(e, "%s[%s][%s] = %s;", dst, r0, r1, em_ref(e, src, r0, r1));
    em_reg_loops_close(e, regs);
}

static void emit_for(Em *e, const MtInst *in)
{
    const MtForData *l = in->loop;
    const MtFunc *f = e->f;
    for (uint32_t k = 0; k < l->ncarried; k++) {
        MtVal arg = l->iter_args[k], init = in->args[2 + k];
        const char *name = mt_sprintf(e->c, "v%u", f->vals[arg].num);
        e->names[arg] = name;
        if (mt_ty_is_ptr(f->vals[arg].ty)) {
            e->ptr_base[arg] = f->vals[init].kind == VK_PARAM ? init : e->ptr_base[init];
            if (has_regs(e, arg)) {
                em_fail(e, in, "E0603", "loop-carried pointer tiles are not supported by the CUDA backend");
                return;
            }
            em_line(e, "int %s = %s;", name, f->vals[init].kind == VK_PARAM ? "0" : em_ref(e, init, "0", "0"));
        } else if (has_regs(e, arg)) {
            const MtValLayout *vl = vl_of(e, arg);
            em_line(e, "%s %s[%d][%d];", cu_type(f->vals[arg].ty), name, vl->regs[0], vl->regs[1]);
            copy_tile(e, name, init, vl->regs);
        } else {
            em_line(e, "%s %s = %s;", cu_type(f->vals[arg].ty), name, em_ref(e, init, "0", "0"));
        }
    }
    const char *iv = mt_sprintf(e->c, "v%u", f->vals[l->iv].num);
    e->names[l->iv] = iv;
    em_line(e, "for (int %s = %s; %s < %s; %s += %lld) {", iv, em_ref(e, in->args[0], "0", "0"), iv,
            em_ref(e, in->args[1], "0", "0"), iv, (long long)l->step);
    e->indent++;
    e->loop_depth++;
    emit_region(e, &l->body);
    e->loop_depth--;
    const MtInst *y = l->body.v[l->body.n - 1];
    /* A yield that reads another slot's region argument must not see it
     * already overwritten: go through temporaries then. */
    bool hazard = false;
    for (uint32_t k = 0; k < l->ncarried; k++)
        for (uint32_t j = 0; j < l->ncarried; j++)
            hazard |= j != k && y->args[k] == l->iter_args[j];
    for (uint32_t k = 0; k < l->ncarried && !e->failed; k++) {
        MtVal arg = l->iter_args[k], yv = y->args[k];
        if (yv == arg)
            continue;
        if (mt_ty_is_ptr(f->vals[arg].ty) && e->ptr_base[yv] != e->ptr_base[arg]) {
            em_fail(e, in, "E0603", "a loop-carried pointer must keep pointing into the same argument");
            return;
        }
        if (has_regs(e, arg)) {
            if (hazard) {
                em_fail(e, in, "E0603", "swapping loop-carried register tiles is not supported by the CUDA backend");
                return;
            }
            copy_tile(e, e->names[arg], yv, vl_of(e, arg)->regs);
        } else if (hazard) {
            em_line(e, "%s mt_next%u = %s;", mt_ty_is_ptr(f->vals[arg].ty) ? "int" : cu_type(f->vals[arg].ty), k,
                    em_ref(e, yv, "0", "0"));
        } else {
            em_line(e, "%s = %s;", e->names[arg], em_ref(e, yv, "0", "0"));
        }
    }
    if (hazard)
        for (uint32_t k = 0; k < l->ncarried; k++)
            if (y->args[k] != l->iter_args[k])
                em_line(e, "%s = mt_next%u;", e->names[l->iter_args[k]], k);
    e->indent--;
    em_line(e, "}");
    for (uint32_t k = 0; k < l->ncarried; k++) {
        MtVal arg = l->iter_args[k], res = l->results[k];
        e->ptr_base[res] = e->ptr_base[arg];
        if (has_regs(e, arg) || mt_ty_is_ptr(f->vals[arg].ty)) {
            e->names[res] = e->names[arg]; /* the region argument holds the final value */
            continue;
        }
        e->names[res] = mt_sprintf(e->c, "v%u", f->vals[res].num);
        em_line(e, "%s %s = %s;", cu_type(f->vals[res].ty), e->names[res], e->names[arg]);
    }
}

static bool lowered_per_thread(Em *e, MtVal v)
{
    uint8_t k = vl_of(e, v)->kind;
    return k == VL_THREAD || k == VL_UNIFORM;
}

static void emit_inst(Em *e, const MtInst *in)
{
    e->cur_span = in->span;
    e->cur_inl = in->inl;
    MtVal v = in->dst;
    switch (in->op) {
    case OP_PROGRAM_ID:
        e->names[v] = mt_sprintf(e->c, "v%u", e->f->vals[v].num);
        em_line(e, "int %s = blockIdx.%c;", e->names[v], "xyz"[in->attr.axis]);
        return;
    case OP_ARANGE:
        if (lowered_per_thread(e, v))
            per_thread(e, in, arange_at);
        return;
    case OP_EXPAND_DIMS:
        if (!lowered_per_thread(e, v))
            return;
        if (!em_template(e, in->args[0])) {
            em_fail(e, in, "E0603", "expand_dims can only expand an arange-based coordinate in the CUDA backend");
            return;
        }
        per_thread(e, in, expand_at);
        return;
    case OP_ADDPTR:
        if (lowered_per_thread(e, v))
            emit_addptr(e, in);
        return;
    case OP_LOAD:
        if (lowered_per_thread(e, v))
            per_thread(e, in, load_at);
        return;
    case OP_STORE:
        emit_store(e, in);
        return;
    case OP_SUM:
    case OP_MAX:
    case OP_MIN:
        em_reduce(e, in);
        return;
    case OP_ZEROS:
    case OP_FULL:
        if (lowered_per_thread(e, v))
            per_thread(e, in, fill_at);
        return;
    case OP_EMPTY:
        if (lowered_per_thread(e, v)) {
            e->names[v] = mt_sprintf(e->c, "v%u", e->f->vals[v].num);
            if (has_regs(e, v))
                em_line(e, "%s %s[%d][%d];", cu_type(in->ty), e->names[v], vl_of(e, v)->regs[0], vl_of(e, v)->regs[1]);
            else
                em_line(e, "%s %s;", cu_type(in->ty), e->names[v]);
        }
        return;
    case OP_DOT:
        em_dot(e, in);
        return;
    case OP_FOR:
        emit_for(e, in);
        return;
    case OP_YIELD:
        return;
    default:
        if ((mt_op_info[in->op].flags & F_ELEM) && v && lowered_per_thread(e, v))
            per_thread(e, in, elementwise_at);
        return;
    }
}

static void emit_region(Em *e, const MtRegion *r)
{
    for (uint32_t i = 0; i < r->n && !e->failed; i++)
        emit_inst(e, r->v[i]);
}

static const char *param_type(MtCtx *c, const MtType *t)
{
    if (t->kind == TY_PTR)
        return mt_sprintf(c, "%s*", mt_ty_info(t->elem)->cuda);
    return cu_type(t);
}

MtCudaSource *mt_cuda_emit(MtCtx *c, const MtFunc *f, const MtLayoutInfo *li)
{
    Em e = {.c = c, .f = f, .li = li};
    mt_buf_init(&e.shared, &c->arena);
    mt_buf_init(&e.body, &c->arena);
    e.indent = 1;
    e.names = mt_arena_alloc(&c->arena, (f->nvals + 1) * sizeof *e.names);
    e.ptr_base = mt_arena_alloc(&c->arena, (f->nvals + 1) * sizeof *e.ptr_base);
    e.tmpl = mt_arena_alloc(&c->arena, (f->nvals + 1) * sizeof *e.tmpl);
    e.stage_names = mt_arena_alloc(&c->arena, (f->nvals + 1) * sizeof *e.stage_names);
    e.stage_gen = mt_arena_alloc(&c->arena, (f->nvals + 1) * sizeof *e.stage_gen);
    for (uint32_t i = 0; i < f->nparams; i++)
        e.names[f->params[i]] = cu_param_name(c, f->vals[f->params[i]].name);
    emit_region(&e, &f->body);
    if (e.failed)
        return NULL;

    MtBuf out;
    mt_buf_init(&out, &c->arena);
    MT_VEC(MtSpan) lines = {0};
    MtSpan none = {0};
    mt_vec_push(&c->arena, &lines, none); /* line 0 unused */
    mt_buf_printf(&out, "extern \"C\" __global__\nvoid %s(", f->name);
    mt_vec_push(&c->arena, &lines, none);
    for (uint32_t i = 0; i < f->nparams; i++)
        mt_buf_printf(&out, "%s%s %s", i ? ", " : "", param_type(c, f->vals[f->params[i]].ty), e.names[f->params[i]]);
    mt_buf_puts(&out, ") {\n");
    mt_vec_push(&c->arena, &lines, none);
    if (e.shared.n) {
        mt_buf_puts(&out, mt_buf_str(&e.shared));
        for (const char *p = mt_buf_str(&e.shared); *p; p++)
            if (*p == '\n')
                mt_vec_push(&c->arena, &lines, none);
        mt_buf_putc(&out, '\n');
        mt_vec_push(&c->arena, &lines, none);
    }
    if (li->kernel.rank == 2) {
        mt_buf_printf(&out, "    int tile_i = threadIdx.x / %d;\n    int tile_j = threadIdx.x %% %d;\n",
                      li->kernel.threads[1], li->kernel.threads[1]);
        mt_vec_push(&c->arena, &lines, none);
        mt_vec_push(&c->arena, &lines, none);
    }
    mt_buf_puts(&out, mt_buf_str(&e.body));
    for (uint32_t i = 0; i < e.body_lines.n; i++)
        mt_vec_push(&c->arena, &lines, e.body_lines.v[i]);
    mt_buf_puts(&out, "}\n");
    mt_vec_push(&c->arena, &lines, none);

    MtCudaSource *src = mt_arena_alloc(&c->arena, sizeof *src);
    src->text = mt_buf_str(&out);
    src->line_span = lines.v;
    src->nlines = lines.n - 1;
    src->shared_bytes = e.shared_bytes;
    /* Body lines are the last ones before the closing brace. */
    src->line_inl = mt_arena_alloc(&c->arena, lines.n * sizeof *src->line_inl);
    uint32_t body_start = lines.n - 1 - e.body_inl.n;
    for (uint32_t i = 0; i < e.body_inl.n; i++)
        src->line_inl[body_start + i] = e.body_inl.v[i];
    return src;
}
