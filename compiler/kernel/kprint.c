/* kprint.c: the kernel layer as text (`mytriton compile --emit kernel`).
 *
 * What one thread of a block runs, in the IR's own terms: a header with
 * the launch shape, then the shared buffers, the prologue and the body,
 * one statement per line with element types spelled as the SSA spells
 * them and operations named after their kernel-layer opcodes:
 *
 *   kernel add_kernel: 128 threads = 1 program x 4 warps, 0 B shared
 *   params x: ptr<f32>, y: ptr<f32>, out: ptr<f32>, n: i32, mt_grid_x: i32, ...
 *   i32 lane = and(tid, 31)
 *   f32 v3[8]
 *   v3[0] = select(v2[0], load x[v1[0]], 0.0)
 */
#include "kir.h"

#include "base/strbuf.h"

static const char *const opname[K_COUNT_] = {
    [K_NEG] = "neg",   [K_BNOT] = "not",   [K_LNOT] = "lnot", [K_ABS] = "abs",   [K_ADD] = "add",
    [K_SUB] = "sub",   [K_MUL] = "mul",    [K_DIV] = "div",   [K_REM] = "rem",   [K_BAND] = "and",
    [K_BOR] = "or",    [K_BXOR] = "xor",   [K_SHL] = "shl",   [K_SHR] = "shr",   [K_LAND] = "land",
    [K_LOR] = "lor",   [K_LT] = "lt",      [K_LE] = "le",     [K_GT] = "gt",     [K_GE] = "ge",
    [K_EQ] = "eq",     [K_NE] = "ne",      [K_MAX] = "max",   [K_MIN] = "min",   [K_FMAX] = "fmax",
    [K_FMIN] = "fmin", [K_FMA] = "fma",    [K_SELECT] = "select",
};

static const char *tyname(MtDtype dt) { return mt_dtype_info(dt)->ir; }

static void expr(MtBuf *b, const KFunc *f, const KExpr *e)
{
    switch ((KOp)e->op) {
    case K_CONST:
        mt_const_print(b, e->u.c);
        return;
    case K_VAR:
        mt_buf_puts(b, k_var_at(f, e->u.var)->name);
        return;
    case K_ELEM:
        mt_buf_printf(b, "%s[", k_var_at(f, e->u.var)->name);
        expr(b, f, e->a[0]);
        mt_buf_putc(b, ']');
        return;
    case K_SPECIAL: {
        static const char *const sp[] = {"tid", "block.x", "block.y", "block.z", "lane", "warp"};
        mt_buf_puts(b, sp[e->u.special]);
        return;
    }
    case K_CAST:
        mt_buf_printf(b, "%s(", tyname((MtDtype)e->dt));
        expr(b, f, e->a[0]);
        mt_buf_putc(b, ')');
        return;
    case K_MATH:
        mt_buf_printf(b, "%s(", mt_op_info[e->u.math].text);
        break;
    case K_LOAD:
        mt_buf_printf(b, "load %s[", k_var_at(f, e->u.var)->name);
        expr(b, f, e->a[0]);
        mt_buf_putc(b, ']');
        return;
    case K_SHFL_XOR:
        mt_buf_puts(b, "shfl_xor(");
        expr(b, f, e->a[0]);
        mt_buf_printf(b, ", %u)", e->u.lane_mask);
        return;
    case K_COUNT_:
        mt_buf_puts(b, "?");
        return;
    default:
        mt_buf_printf(b, "%s(", opname[e->op]);
        break;
    }
    for (int i = 0; i < e->nargs; i++) {
        if (i)
            mt_buf_puts(b, ", ");
        expr(b, f, e->a[i]);
    }
    mt_buf_putc(b, ')');
}

static void block(MtBuf *b, const KFunc *f, const KBlock *blk, int indent);

static void stmt(MtBuf *b, const KFunc *f, const KStmt *s, int indent)
{
    mt_buf_indent(b, 2 * indent);
    mt_buf_mark(b, s->span, s->inl);
    switch ((KStmtKind)s->kind) {
    case KST_DECL: {
        const KVar *v = k_var_at(f, s->u.set.var);
        mt_buf_printf(b, "%s%s %s", v->kind == KV_SHARED ? "shared " : "", tyname((MtDtype)v->dt), v->name);
        if (v->kind == KV_REGS || v->kind == KV_SHARED)
            mt_buf_printf(b, "[%u]", v->n);
        if (v->kind == KV_SHARED)
            mt_buf_printf(b, " at +%u", v->offset);
        if (s->u.set.value) {
            mt_buf_puts(b, " = ");
            expr(b, f, s->u.set.value);
        }
        break;
    }
    case KST_SET:
        mt_buf_puts(b, k_var_at(f, s->u.set.var)->name);
        if (s->u.set.index) {
            mt_buf_putc(b, '[');
            expr(b, f, s->u.set.index);
            mt_buf_putc(b, ']');
        }
        mt_buf_puts(b, " = ");
        expr(b, f, s->u.set.value);
        break;
    case KST_STORE:
        mt_buf_printf(b, "store %s[", k_var_at(f, s->u.store.ptr)->name);
        expr(b, f, s->u.store.index);
        mt_buf_puts(b, "] = ");
        expr(b, f, s->u.store.value);
        if (s->u.store.mask) {
            mt_buf_puts(b, " if ");
            expr(b, f, s->u.store.mask);
        }
        break;
    case KST_VLOAD:
    case KST_VSTORE: {
        const char *var = k_var_at(f, s->u.vec.var)->name, *ptr = k_var_at(f, s->u.vec.ptr)->name;
        if (s->kind == KST_VLOAD)
            mt_buf_printf(b, "%s[%u:%u] = load%u %s[", var, s->u.vec.first, s->u.vec.first + s->u.vec.vec, s->u.vec.vec, ptr);
        else
            mt_buf_printf(b, "store%u %s[", s->u.vec.vec, ptr);
        expr(b, f, s->u.vec.index);
        if (s->kind == KST_VLOAD)
            mt_buf_putc(b, ']');
        else
            mt_buf_printf(b, "] = %s[%u:%u]", var, s->u.vec.first, s->u.vec.first + s->u.vec.vec);
        if (s->u.vec.mask) {
            mt_buf_puts(b, " if ");
            expr(b, f, s->u.vec.mask);
        }
        if (s->kind == KST_VLOAD && s->u.vec.other) {
            mt_buf_puts(b, " else (");
            for (int i = 0; i < s->u.vec.vec; i++) {
                if (i)
                    mt_buf_puts(b, ", ");
                expr(b, f, s->u.vec.other[i]);
            }
            mt_buf_putc(b, ')');
        }
        break;
    }
    case KST_IF:
        mt_buf_puts(b, "if ");
        expr(b, f, s->u.if_.cond);
        mt_buf_puts(b, " {\n");
        block(b, f, &s->u.if_.then, indent + 1);
        if (s->u.if_.els.n) {
            mt_buf_indent(b, 2 * indent);
            mt_buf_puts(b, "} else {\n");
            block(b, f, &s->u.if_.els, indent + 1);
        }
        mt_buf_indent(b, 2 * indent);
        mt_buf_putc(b, '}');
        break;
    case KST_FOR:
        mt_buf_printf(b, "for %s in range(", k_var_at(f, s->u.for_.iv)->name);
        expr(b, f, s->u.for_.start);
        mt_buf_puts(b, ", ");
        expr(b, f, s->u.for_.stop);
        mt_buf_printf(b, ", %lld)", (long long)s->u.for_.step);
        if (s->u.for_.unroll)
            mt_buf_printf(b, s->u.for_.unroll < 0 ? " unroll" : " unroll %d", s->u.for_.unroll);
        mt_buf_puts(b, " {\n");
        block(b, f, &s->u.for_.body, indent + 1);
        mt_buf_indent(b, 2 * indent);
        mt_buf_putc(b, '}');
        break;
    case KST_WHILE:
        mt_buf_puts(b, "while ");
        expr(b, f, s->u.while_.cond);
        mt_buf_puts(b, " {\n");
        block(b, f, &s->u.while_.body, indent + 1);
        mt_buf_indent(b, 2 * indent);
        mt_buf_putc(b, '}');
        break;
    case KST_BARRIER:
        mt_buf_puts(b, "barrier");
        break;
    case KST_CP_ASYNC:
        /* stage7[at] = cp.async16 a_ptr[index] if mask */
        mt_buf_printf(b, "%s[", k_var_at(f, s->u.cp.smem)->name);
        expr(b, f, s->u.cp.smem_at);
        mt_buf_printf(b, "] = cp.async%u %s[", s->u.cp.bytes, k_var_at(f, s->u.cp.ptr)->name);
        expr(b, f, s->u.cp.index);
        mt_buf_putc(b, ']');
        if (s->u.cp.mask) {
            mt_buf_puts(b, " if ");
            expr(b, f, s->u.cp.mask);
        }
        break;
    case KST_CP_COMMIT:
        mt_buf_puts(b, "cp.async.commit");
        break;
    case KST_CP_WAIT:
        mt_buf_printf(b, "cp.async.wait %u", s->u.pending);
        break;
    case KST_PROXY_FENCE:
        mt_buf_puts(b, "fence.proxy.async");
        break;
    case KST_WGMMA:
        /* wgmma.m64n128k16.f16 acc[0:64] += stage[at] swizzle 128 sbo 1024 x stage5[at] swizzle 128 lbo 8192 sbo 1024
         * wgmma.m64n128k8.tf32 acc[0:64] += fa[0:4] x stage[at] k-major swizzle 128 sbo 1024 */
        mt_buf_printf(b, "wgmma.m64n%uk%d.%s %s[%u:%u] += %s[", s->u.wg.n, k_wgmma_k(s),
                      s->u.wg.in_dt == MT_DT_F32 ? "tf32" : tyname((MtDtype)s->u.wg.in_dt),
                      k_var_at(f, s->u.wg.acc)->name, s->u.wg.acc_first, s->u.wg.acc_first + s->u.wg.n / 2u,
                      k_var_at(f, s->u.wg.a)->name);
        if (s->u.wg.a_in_regs) {
            mt_buf_printf(b, "%u:%u] x %s[", s->u.wg.a_first, s->u.wg.a_first + 4, k_var_at(f, s->u.wg.b)->name);
        } else {
            expr(b, f, s->u.wg.a_at);
            mt_buf_printf(b, "] swizzle %u sbo %u x %s[", s->u.wg.a_swizzle, s->u.wg.a_sbo, k_var_at(f, s->u.wg.b)->name);
        }
        expr(b, f, s->u.wg.b_at);
        if (s->u.wg.b_k_major)
            mt_buf_printf(b, "] k-major swizzle %u sbo %u", s->u.wg.b_swizzle, s->u.wg.b_sbo);
        else
            mt_buf_printf(b, "] swizzle %u lbo %u sbo %u", s->u.wg.b_swizzle, s->u.wg.b_lbo, s->u.wg.b_sbo);
        break;
    case KST_WGMMA_FENCE:
        mt_buf_printf(b, "wgmma.fence %s", k_var_at(f, s->u.wg.acc)->name);
        break;
    case KST_WGMMA_COMMIT:
        mt_buf_puts(b, "wgmma.commit");
        break;
    case KST_WGMMA_WAIT:
        mt_buf_printf(b, "wgmma.wait %u %s%s", s->u.wg.pending, k_var_at(f, s->u.wg.acc)->name, s->u.wg.more ? " more" : "");
        break;
    case KST_LDMATRIX:
        /* fa3[0:4] = ldmatrix.x4.f16 dot_a[row address] */
        mt_buf_printf(b, "%s[%u:%u] = ldmatrix.x%u%s.%s %s[", k_var_at(f, s->u.ldm.dst)->name, s->u.ldm.first,
                      s->u.ldm.first + s->u.ldm.count, s->u.ldm.count, s->u.ldm.trans ? ".trans" : "",
                      tyname((MtDtype)s->u.ldm.dt), k_var_at(f, s->u.ldm.smem)->name);
        expr(b, f, s->u.ldm.row_at);
        mt_buf_putc(b, ']');
        break;
    case KST_MMA:
        /* mma.m16n8k16.f16 acc[8+0:4] += fa3[4:8] x fb4[2:4] */
        mt_buf_printf(b, "mma.m16n8k%d.%s %s[", k_mma_k(s), s->u.mma.in_dt == MT_DT_F32 ? "tf32" : tyname((MtDtype)s->u.mma.in_dt),
                      k_var_at(f, s->u.mma.acc)->name);
        expr(b, f, s->u.mma.index);
        mt_buf_printf(b, "+0:4] += %s[%u:%u] x %s[%u:%u]", k_var_at(f, s->u.mma.a)->name, s->u.mma.a_first,
                      s->u.mma.a_first + 4, k_var_at(f, s->u.mma.b)->name, s->u.mma.b_first, s->u.mma.b_first + 2);
        break;
    case KST_ATOMIC: {
        /* v3[0] = atomic_cas.i32 lock[0], 0, 1 if m acq_rel gpu */
        const KAtomic *a = &s->u.atomic;
        mt_buf_puts(b, k_var_at(f, a->dst)->name);
        if (a->dst_index) {
            mt_buf_putc(b, '[');
            expr(b, f, a->dst_index);
            mt_buf_putc(b, ']');
        }
        mt_buf_printf(b, " = %s.%s %s[", mt_op_info[a->op].text, tyname((MtDtype)a->dt), k_var_at(f, a->ptr)->name);
        expr(b, f, a->index);
        mt_buf_puts(b, "], ");
        if (a->cmp) {
            expr(b, f, a->cmp);
            mt_buf_puts(b, ", ");
        }
        expr(b, f, a->value);
        if (a->mask) {
            mt_buf_puts(b, " if ");
            expr(b, f, a->mask);
        }
        mt_buf_printf(b, " %s %s", mt_mem_sem_names[a->sem], mt_mem_scope_names[a->scope]);
        break;
    }
    case KST_BLANK:
        break;
    }
    mt_buf_putc(b, '\n');
}

static void block(MtBuf *b, const KFunc *f, const KBlock *blk, int indent)
{
    for (uint32_t i = 0; i < blk->n; i++)
        stmt(b, f, blk->v[i], indent);
}

const char *mt_kir_print(MtCtx *c, const KFunc *f, MtLineMarks *marks)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    if (marks)
        mt_buf_record_marks(&b, marks);
    uint32_t per = f->threads / f->programs_per_block;
    mt_buf_printf(&b, "kernel %s: %u threads = %u program%s x %u warp%s, %llu B shared\n", f->name, f->threads,
                  f->programs_per_block, f->programs_per_block == 1 ? "" : "s", per / 32, per / 32 == 1 ? "" : "s",
                  (unsigned long long)f->shared_bytes);
    mt_buf_puts(&b, "params ");
    for (uint32_t i = 0; i < f->params.n; i++) {
        const KVar *v = k_var_at(f, f->params.v[i]);
        mt_buf_printf(&b, "%s%s: %s%s%s", i ? ", " : "", v->name, v->ptr ? "ptr<" : "", tyname((MtDtype)v->dt),
                      v->ptr ? ">" : "");
    }
    mt_buf_putc(&b, '\n');
    block(&b, f, &f->shared, 0);
    block(&b, f, &f->prologue, 0);
    block(&b, f, &f->body, 0);
    return mt_buf_str(&b);
}
