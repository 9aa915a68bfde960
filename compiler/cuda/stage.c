/* stage.c: tl.dot on CUDA cores (seeds ver14-16).
 *
 * Both operands are matrix tiles, usually loaded from global memory.
 * Instead of one element per thread, all threads copy them cooperatively
 * into shared memory: thread t takes linear positions t, t + T, t + 2T, ...
 * of the row-major tile and evaluates the operand there -- it is built
 * from loads, aranges and scalars, so any position can be computed (layout
 * inference checked that) -- masked-off positions of a load taking its
 * `other`, 0.0 for canonical loads, so edge tiles need no divergent
 * barriers. A barrier, then each thread accumulates its output
 * registers with an FMA-free multiply-add loop over K in increasing order
 * (the interpreter's order), and a second barrier before a runtime K loop
 * may overwrite the tiles. */
#include "emit.h"

static const char *at_pos(Em *e, MtVal v);

/* A load at one tile position: masked-off positions take `other` (0 when
 * absent), so edge tiles are zero-filled by the canonical loads. */
static const char *load_at_pos(Em *e, const MtInst *ld)
{
    const char *idx = at_pos(e, ld->args[0]);
    MtVal p = ld->args[0];
    const char *base = e->names[e->f->vals[p].kind == VK_PARAM ? p : e->ptr_base[p]];
    const char *access = mt_sprintf(e->c, "%s[%s]", base, e->f->vals[p].kind == VK_PARAM ? "0" : idx);
    if (!ld->args[1])
        return access;
    MtBuf other;
    mt_buf_init(&other, &e->c->arena);
    if (!ld->args[2]) {
        MtConst zero = {.kind = CST_INT};
        cu_literal(&other, zero, ld->ty);
    } else if (e->f->vals[ld->args[2]].kind == VK_CONST) {
        cu_literal(&other, e->f->vals[ld->args[2]].cst, ld->ty);
    } else {
        mt_buf_puts(&other, at_pos(e, ld->args[2]));
    }
    return mt_sprintf(e->c, "(%s ? %s : %s)", at_pos(e, ld->args[1]), access, mt_buf_str(&other));
}

/* A staged value's C expression at tile position (mt_row, mt_col),
 * emitting a temporary for each block value once per copy loop. */
static const char *at_pos(Em *e, MtVal v)
{
    const MtFunc *f = e->f;
    const MtValue *x = &f->vals[v];
    if (!x->ty || x->ty->kind != TY_BLOCK)
        return em_ref(e, v, "0", "0");
    if (e->stage_gen[v] == e->gen)
        return e->stage_names[v];
    const MtInst *in = x->def;
    const char *expr;
    if (x->ty->rank == 1) {
        /* A rank-1 coordinate used directly broadcasts along columns. */
        expr = em_subst(e, em_template(e, v), "mt_col");
    } else if (in->op == OP_EXPAND_DIMS) {
        expr = em_subst(e, em_template(e, in->args[0]), in->attr.axis == 1 ? "mt_row" : "mt_col");
    } else if (in->op == OP_ZEROS) {
        MtBuf z;
        mt_buf_init(&z, &e->c->arena);
        MtConst zero = {.kind = CST_INT};
        cu_literal(&z, zero, x->ty);
        expr = mt_buf_str(&z);
    } else if (in->op == OP_LOAD) {
        expr = load_at_pos(e, in);
    } else if (in->op == OP_FULL) {
        expr = em_ref(e, in->args[0], "0", "0");
    } else if (in->op == OP_ADDPTR) {
        MtVal p = in->args[0];
        const char *off = at_pos(e, in->args[1]);
        if (f->vals[p].kind == VK_PARAM) {
            e->ptr_base[v] = p;
            expr = off;
        } else {
            const char *base_idx = at_pos(e, p);
            e->ptr_base[v] = e->ptr_base[p];
            expr = mt_sprintf(e->c, "(%s + %s)", base_idx, off);
        }
    } else {
        const char *ops[3];
        for (uint32_t i = 0; i < in->nargs; i++)
            ops[i] = at_pos(e, in->args[i]);
        expr = em_elementwise(e, in, ops);
    }
    const char *name = mt_sprintf(e->c, "s%u", x->num);
    em_line(e, "%s %s = %s;", cu_type(x->ty), name, expr);
    e->stage_names[v] = name;
    e->stage_gen[v] = e->gen;
    return name;
}

static void stage(Em *e, MtVal operand, const char *buf, int32_t rows, int32_t cols)
{
    int32_t threads = mt_kernel_layout_threads(&e->li->kernel);
    e->gen++;
    em_line(e, "for (int mt_t = threadIdx.x; mt_t < %d; mt_t += %d) {", rows * cols, threads);
    e->indent++;
    em_line(e, "int mt_row = mt_t / %d;", cols);
    em_line(e, "int mt_col = mt_t %% %d;", cols);
    em_line(e, "%s[mt_t] = %s;", buf, at_pos(e, operand));
    e->indent--;
    em_line(e, "}");
}

void em_dot(Em *e, const MtInst *in)
{
    const MtFunc *f = e->f;
    uint32_t id = f->vals[in->dst].num;
    const MtType *at = f->vals[in->args[0]].ty, *bt = f->vals[in->args[1]].ty;
    int32_t m = at->shape[0], k = at->shape[1], n = bt->shape[1];
    const char *a = mt_sprintf(e->c, "dot_a_%u", id), *b = mt_sprintf(e->c, "dot_b_%u", id);
    mt_buf_printf(&e->shared, "    __shared__ float %s[%d];\n", a, m * k);
    mt_buf_printf(&e->shared, "    __shared__ float %s[%d];\n", b, k * n);
    e->shared_bytes += (uint64_t)(m * k + k * n) * sizeof(float);
    stage(e, in->args[0], a, m, k);
    stage(e, in->args[1], b, k, n);
    em_line(e, "__syncthreads();");

    /* Each thread's registers as an outer product per k: R0 values of A
     * and R1 of B read once from shared memory, R0 x R1 multiply-adds.
     * Every register still sums over k in increasing order from 0.0f. */
    const MtValLayout *vl = &e->li->vals[in->dst];
    const char *name = mt_sprintf(e->c, "v%u", id);
    e->names[in->dst] = name;
    bool regs = vl->regs[0] > 1 || vl->regs[1] > 1;
    const char *r0, *r1;
    if (regs)
        em_line(e, "float %s[%d][%d];", name, vl->regs[0], vl->regs[1]);
    else
        em_line(e, "float %s;", name);
    const char *acc = regs ? mt_sprintf(e->c, "%s[%s][%s]", name, vl->regs[0] > 1 ? "r0" : "0",
                                        vl->regs[1] > 1 ? "r1" : "0")
                           : name;
    em_reg_loops_open(e, vl->regs, &r0, &r1);
    em_line(e, "%s = 0.0f;", acc);
    em_reg_loops_close(e, vl->regs);
    em_line(e, "#pragma unroll");
    em_line(e, "for (int mt_k = 0; mt_k < %d; ++mt_k) {", k);
    e->indent++;
    int32_t row_regs[2] = {vl->regs[0], 1}, col_regs[2] = {1, vl->regs[1]};
    em_line(e, "float mt_a[%d], mt_b[%d];", vl->regs[0], vl->regs[1]);
    em_reg_loops_open(e, row_regs, &r0, &r1);
    em_line(e, "mt_a[%s] = %s[%s * %d + mt_k];", r0, a, em_coord(e, 0, r0), k);
    em_reg_loops_close(e, row_regs);
    em_reg_loops_open(e, col_regs, &r0, &r1);
    em_line(e, "mt_b[%s] = %s[mt_k * %d + %s];", r1, b, n, em_coord(e, 1, r1));
    em_reg_loops_close(e, col_regs);
    em_reg_loops_open(e, vl->regs, &r0, &r1);
    em_line(e, "%s += mt_a[%s] * mt_b[%s];", acc, r0, r1);
    em_reg_loops_close(e, vl->regs);
    e->indent--;
    em_line(e, "}");
    em_line(e, "__syncthreads();");
}
