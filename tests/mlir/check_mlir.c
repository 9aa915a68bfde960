/* check_mlir.c: the MLIR backend (compiler/mlir) without a GPU.
 *
 *  - Coverage: kernel layers built by hand that hold every expression kind
 *    on every dtype (every conversion between every pair of dtypes, every
 *    operator, math, shuffles, special registers, selects and logic that
 *    read memory) and every statement kind (masked and unmasked stores,
 *    vector loads and stores of 1- to 8-byte elements, if with values
 *    carried out, counted loops, loops whose bound the body changes,
 *    unsigned counters, while loops, both barriers, shared arrays, a
 *    register array indexed at run time, every atomic on every dtype the
 *    fast lowering gives it, under every sem and scope) go through the
 *    whole pipeline: the module verifies, lowers, makes PTX, and ptxas
 *    -arch=sm_90 accepts it.
 *  - Locations: lines of the mlir and mlir-llvm stages map back to the
 *    Python line that made them (mt_compiled_line_origin).
 *  - Diagnostics: a construct the backend cannot lower is E1002 at its
 *    statement; --codegen mlir with the seed lowering is E1005; an
 *    unavailable backend is E1001 with the loader's reason.
 *  - The runtime: MLIR PTX goes through the compile cache (a miss, then
 *    memory and disk hits), starts with the line naming what it was made
 *    from, and mt_cuda_ptx_check tells PTX for another kernel (E1006).
 * Semantics on the GPU: tests/gpu (the lead's H200 run). */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api/compiled.h"
#include "cuda_build.h"
#include "mlir/codegen.h"

#include "../test_util.h"

static const char *diags(MtCtx *c)
{
    static char buf[8192];
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; i < mt_diag_count(c) && at < sizeof buf; i++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s\n", mt_diag_render(c, mt_diag_at(c, i), false));
    return buf;
}

/* ptxas -arch=sm_90 accepts ptx. */
static void ptxas_accepts(const char *ptx, const char *what)
{
    char path[] = "/tmp/mt_mlir_XXXXXX.ptx";
    int fd = mkstemps(path, 4);
    ck_assert(fd >= 0);
    ck_assert_uint_eq((size_t)write(fd, ptx, strlen(ptx)), strlen(ptx));
    close(fd);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "'%s' -arch=sm_90 '%s' -o /dev/null", MT_PTXAS, path);
    int rc = system(cmd);
    unlink(path);
    ck_assert_msg(WIFEXITED(rc) && WEXITSTATUS(rc) == 0, "ptxas rejected the PTX of %s", what);
}

/* f through every stage to PTX that ptxas accepts. */
static void lower_ok(MtCtx *c, KFunc *f)
{
    MtCompiled k = {.kernel = f, .codegen = MT_CODEGEN_MLIR, .lowering = MT_LOWERING_FAST};
    ck_assert_msg(mt_mlir_stages(c, &k, MT_STAGE_MLIR_LLVM, 90) == MT_OK, "%s", diags(c));
    ck_assert_ptr_nonnull(k.text[MT_STAGE_MLIR]);
    ck_assert_ptr_nonnull(k.text[MT_STAGE_MLIR_LLVM]);
    const char *ptx;
    ck_assert_msg(mt_compiled_mlir_ptx(c, &k, 90, &ptx) == MT_OK, "%s", diags(c));
    ck_assert_msg(strstr(ptx, ".entry") != NULL, "%s", ptx);
    ptxas_accepts(ptx, f->name);
}

/* ---- building kernel layers --------------------------------------------------------- */

static const MtDtype all[] = {MT_DT_I1, MT_DT_I8,  MT_DT_I16,  MT_DT_I32, MT_DT_I64, MT_DT_U8, MT_DT_U16,
                              MT_DT_U32, MT_DT_U64, MT_DT_F16, MT_DT_BF16, MT_DT_F32, MT_DT_F64};
enum { NDT = sizeof all / sizeof all[0] };

typedef struct K {
    MtCtx *c;
    KFunc *f;
    KBuilder b;
    KVarId in[MT_DTYPE_COUNT], out[MT_DTYPE_COUNT];
    KVarId n;
    int next;                 /* a fresh output index per store */
} K;

static void k_init(K *k, MtCtx *c, const char *name, uint32_t threads, uint32_t ppb)
{
    memset(k, 0, sizeof *k);
    k->c = c;
    k->f = k_func_new(c, name);
    k->f->threads = threads;
    k->f->programs_per_block = ppb;
    for (int i = 0; i < NDT; i++) {
        k->in[all[i]] = k_param(c, k->f, mt_sprintf(c, "in_%s", mt_dtype_info(all[i])->ir), all[i], true);
        k->out[all[i]] = k_param(c, k->f, mt_sprintf(c, "out_%s", mt_dtype_info(all[i])->ir), all[i], true);
    }
    k->n = k_param(c, k->f, "n", MT_DT_I32, false);
    k->b = (KBuilder){.c = c, .f = k->f, .block = &k->f->body};
}

static const KExpr *tid(K *k) { return k_special(k->c, KS_TID); }

static const KExpr *ld(K *k, MtDtype dt) { return k_load(k->c, k->f, k->in[dt], tid(k), 1, 0); }

static void st(K *k, const KExpr *v)
{
    k_store(&k->b, k->out[v->dt], k_add(k->c, tid(k), k_int(k->c, MT_DT_I32, ++k->next)), v, NULL, 1);
}

static const KExpr *op(K *k, KOp o, MtDtype dt, const KExpr *a, const KExpr *b, const KExpr *c3)
{
    return k_op(k->c, o, dt, a, b, c3);
}

/* ---- coverage ---------------------------------------------------------------------- */

START_TEST(every_expression_on_every_dtype)
{
    MtCtx *c = mt_ctx_new(NULL);
    K k;
    k_init(&k, c, "expressions", 128, 1);
    for (int i = 0; i < NDT; i++) {
        MtDtype dt = all[i];
        const KExpr *x = ld(&k, dt), *y = ld(&k, dt);
        bool f = mt_dtype_info(dt)->cls == MT_DC_FLOAT, b = dt == MT_DT_I1;
        /* every conversion */
        for (int j = 0; j < NDT; j++)
            st(&k, k_cast(c, all[j], x));
        /* operators */
        static const KOp arith[] = {K_ADD, K_SUB, K_MUL, K_DIV, K_REM, K_MAX, K_MIN};
        for (size_t o = 0; !b && o < sizeof arith / sizeof *arith; o++)
            st(&k, op(&k, arith[o], dt, x, y, NULL));
        static const KOp bits[] = {K_BAND, K_BOR, K_BXOR};
        for (size_t o = 0; !f && o < sizeof bits / sizeof *bits; o++)
            st(&k, op(&k, bits[o], dt, x, y, NULL));
        if (!f && !b) {
            st(&k, op(&k, K_SHL, dt, x, y, NULL));
            st(&k, op(&k, K_SHR, dt, x, y, NULL));
            st(&k, op(&k, K_BNOT, dt, x, NULL, NULL));
        }
        if (!b) {
            st(&k, op(&k, K_NEG, dt, x, NULL, NULL));
            st(&k, op(&k, K_ABS, dt, x, NULL, NULL));
        }
        if (f) {
            st(&k, op(&k, K_FMAX, dt, x, y, NULL));
            st(&k, op(&k, K_FMIN, dt, x, y, NULL));
            st(&k, op(&k, K_FMA, dt, x, y, ld(&k, dt)));
            for (int m = 0; m < OPC_COUNT_; m++)
                if (mt_op_class(m) == OC_MATH) {
                    const KExpr *args[3] = {x, y, x};
                    st(&k, k_math(c, m, dt, args, mt_op_info[m].nargs));
                }
        }
        for (KOp o = K_LT; o <= K_NE; o++)
            st(&k, op(&k, o, dt, x, y, NULL));
        st(&k, k_shfl_xor(c, x, 1));
        st(&k, k_shfl_xor(c, x, 16));
        st(&k, op(&k, K_SELECT, dt, ld(&k, MT_DT_I1), x, y));
        /* a select whose operands read memory only when chosen */
        st(&k, op(&k, K_SELECT, dt, op(&k, K_LT, MT_DT_I32, tid(&k), k_ref(c, k.f, k.n), NULL), ld(&k, dt),
                  k_const(c, dt, (MtConst){.kind = CST_INT, .i = 7, .f = 7})));
        st(&k, k_const(c, dt, (MtConst){.kind = CST_FLOAT, .f = 1.5}));
    }
    /* logic, with and without memory on the right */
    const KExpr *p = ld(&k, MT_DT_I1), *q = ld(&k, MT_DT_I1);
    st(&k, op(&k, K_LAND, MT_DT_I1, p, q, NULL));
    st(&k, op(&k, K_LOR, MT_DT_I1, p, q, NULL));
    st(&k, op(&k, K_LNOT, MT_DT_I1, p, NULL, NULL));
    st(&k, op(&k, K_LAND, MT_DT_I1, op(&k, K_LT, MT_DT_I32, tid(&k), k_ref(c, k.f, k.n), NULL),
              op(&k, K_GT, MT_DT_F32, ld(&k, MT_DT_F32), k_const(c, MT_DT_F32, (MtConst){.kind = CST_FLOAT}), NULL),
              NULL));
    st(&k, op(&k, K_LOR, MT_DT_I1, p, ld(&k, MT_DT_I1), NULL));
    /* special registers */
    for (KSpecial s = KS_TID; s <= KS_WARP; s++)
        st(&k, k_special(c, s));
    /* a load whose index is unsigned, and a float constant NaN */
    st(&k, k_load(c, k.f, k.in[MT_DT_F32], k_cast(c, MT_DT_U32, tid(&k)), 1, 0));
    st(&k, k_const(c, MT_DT_F32, (MtConst){.kind = CST_FLOAT, .f = __builtin_nan("")}));
    lower_ok(c, k.f);
    mt_ctx_free(c);
}
END_TEST

/* for (iv = start; iv < stop; iv += step) body, with body built by fn */
static KStmt *loop(K *k, KVarId iv, const KExpr *start, const KExpr *stop, int64_t step)
{
    KStmt *s = k_stmt(&k->b, KST_FOR);
    s->u.for_.iv = iv;
    s->u.for_.start = start;
    s->u.for_.stop = stop;
    s->u.for_.step = step;
    return s;
}

START_TEST(every_statement)
{
    MtCtx *c = mt_ctx_new(NULL);
    K k;
    k_init(&k, c, "statements", 128, 1);
    KBlock *top = &k.f->body;
    KVarId acc = k_var(c, k.f, KV_LOCAL, MT_DT_F32, 0, "acc");
    k_decl(&k.b, acc, k_const(c, MT_DT_F32, (MtConst){.kind = CST_FLOAT}));
    const KExpr *in_range = op(&k, K_LT, MT_DT_I32, tid(&k), k_ref(c, k.f, k.n), NULL);
    /* vector loads and stores of every element size, masked or not, with or without `other` */
    static const MtDtype vdt[] = {MT_DT_I1, MT_DT_F16, MT_DT_BF16, MT_DT_F32, MT_DT_I64, MT_DT_F64, MT_DT_U8};
    for (size_t i = 0; i < sizeof vdt / sizeof *vdt; i++) {
        MtDtype dt = vdt[i];
        int vec = (int)(16 / mt_dtype_info(dt)->size);
        KVarId r = k_var(c, k.f, KV_REGS, dt, (uint32_t)vec, mt_sprintf(c, "r%zu", i));
        k_decl(&k.b, r, NULL);
        const KExpr *base = k_mul(c, tid(&k), k_int(c, MT_DT_I32, vec));
        const KExpr **other = mt_arena_alloc(&c->arena, (size_t)vec * sizeof *other);
        for (int j = 0; j < vec; j++)
            other[j] = k_int(c, dt, j);
        k_vload(&k.b, r, 0, k.in[dt], base, vec, in_range, i % 2 ? other : NULL);
        k_vstore(&k.b, k.out[dt], base, r, 0, vec, i % 3 ? in_range : NULL);
        k_vload(&k.b, r, 0, k.in[dt], base, vec, NULL, NULL);
        k_vstore(&k.b, k.out[dt], base, r, 0, vec, NULL);
        k_store(&k.b, k.out[dt], base, k_elem(c, k.f, r, k_int(c, MT_DT_I32, vec - 1)), in_range, 1);
    }
    /* if/else assigning registers declared outside */
    KVarId r = k_var(c, k.f, KV_REGS, MT_DT_F32, 2, "pair");
    k_decl(&k.b, r, NULL);
    KStmt *s = k_stmt(&k.b, KST_IF);
    s->u.if_.cond = in_range;
    k.b.block = &s->u.if_.then;
    k_set(&k.b, acc, NULL, ld(&k, MT_DT_F32));
    k_set(&k.b, r, k_int(c, MT_DT_I32, 0), ld(&k, MT_DT_F32));
    k.b.block = &s->u.if_.els;
    k_set(&k.b, r, k_int(c, MT_DT_I32, 1), ld(&k, MT_DT_F32));
    k.b.block = top;
    /* if without else */
    s = k_stmt(&k.b, KST_IF);
    s->u.if_.cond = in_range;
    k.b.block = &s->u.if_.then;
    k_set(&k.b, acc, NULL, op(&k, K_ADD, MT_DT_F32, k_ref(c, k.f, acc), k_elem(c, k.f, r, k_int(c, MT_DT_I32, 1)), NULL));
    k.b.block = top;
    /* a counted loop carrying two registers, with a shared array and barriers inside */
    KVarId sh = k_var(c, k.f, KV_SHARED, MT_DT_F32, 128, "smem");
    KBuilder sb = {.c = c, .f = k.f, .block = &k.f->shared};
    k_decl(&sb, sh, NULL);
    KVarId i = k_var(c, k.f, KV_LOCAL, MT_DT_I32, 0, "i");
    s = loop(&k, i, k_int(c, MT_DT_I32, 0), k_ref(c, k.f, k.n), 2);
    k.b.block = &s->u.for_.body;
    k_set(&k.b, sh, tid(&k), k_ref(c, k.f, acc));
    k_barrier(&k.b);
    k_set(&k.b, acc, NULL, op(&k, K_ADD, MT_DT_F32, k_ref(c, k.f, acc),
                              k_elem(c, k.f, sh, op(&k, K_BXOR, MT_DT_I32, tid(&k), k_ref(c, k.f, i), NULL)), NULL));
    k_set(&k.b, r, k_int(c, MT_DT_I32, 0), k_ref(c, k.f, acc));
    k_barrier(&k.b);
    k.b.block = top;
    /* a loop whose bound the body changes, and one with an unsigned counter */
    KVarId lim = k_var(c, k.f, KV_LOCAL, MT_DT_I32, 0, "lim");
    k_decl(&k.b, lim, k_ref(c, k.f, k.n));
    KVarId j = k_var(c, k.f, KV_LOCAL, MT_DT_I32, 0, "j");
    s = loop(&k, j, k_int(c, MT_DT_I32, 0), k_ref(c, k.f, lim), 1);
    k.b.block = &s->u.for_.body;
    k_set(&k.b, lim, NULL, op(&k, K_SUB, MT_DT_I32, k_ref(c, k.f, lim), k_int(c, MT_DT_I32, 1), NULL));
    k_set(&k.b, acc, NULL, op(&k, K_MUL, MT_DT_F32, k_ref(c, k.f, acc), k_elem(c, k.f, r, k_int(c, MT_DT_I32, 0)), NULL));
    k.b.block = top;
    KVarId u = k_var(c, k.f, KV_LOCAL, MT_DT_U32, 0, "u");
    s = loop(&k, u, k_int(c, MT_DT_U32, 0), k_cast(c, MT_DT_U32, k_ref(c, k.f, k.n)), 1);
    k.b.block = &s->u.for_.body;
    k_set(&k.b, acc, NULL, op(&k, K_ADD, MT_DT_F32, k_ref(c, k.f, acc), k_cast(c, MT_DT_F32, k_ref(c, k.f, u)), NULL));
    k.b.block = top;
    /* while, carrying acc */
    s = k_stmt(&k.b, KST_WHILE);
    s->u.while_.cond = op(&k, K_LT, MT_DT_F32, k_ref(c, k.f, acc), k_const(c, MT_DT_F32, (MtConst){.kind = CST_FLOAT, .f = 100}), NULL);
    k.b.block = &s->u.while_.body;
    k_set(&k.b, acc, NULL, op(&k, K_ADD, MT_DT_F32, k_ref(c, k.f, acc), k_const(c, MT_DT_F32, (MtConst){.kind = CST_FLOAT, .f = 1}), NULL));
    k.b.block = top;
    /* a register array indexed at run time lives in memory */
    KVarId d = k_var(c, k.f, KV_REGS, MT_DT_I1, 4, "dyn");
    k_decl(&k.b, d, NULL);
    k_set(&k.b, d, op(&k, K_BAND, MT_DT_I32, tid(&k), k_int(c, MT_DT_I32, 3), NULL), in_range);
    k_stmt(&k.b, KST_BLANK);
    st(&k, k_elem(c, k.f, d, op(&k, K_BAND, MT_DT_I32, k_ref(c, k.f, k.n), k_int(c, MT_DT_I32, 3), NULL)));
    st(&k, k_ref(c, k.f, acc));
    lower_ok(c, k.f);

    /* programs of one warp each synchronise with __syncwarp */
    K w;
    k_init(&w, c, "warp_barrier", 128, 4);
    k_barrier(&w.b);
    st(&w, ld(&w, MT_DT_F32));
    lower_ok(c, w.f);
    mt_ctx_free(c);
}
END_TEST

/* Every atomic the fast lowering makes: each operation on each dtype it
 * gives that operation, masked or not, into a local or a register element,
 * under the memory semantics and scopes in turn; then add and cas (the
 * two built differently: atomicrmw between fences, cmpxchg) under every
 * semantics at every scope. */
START_TEST(every_atomic)
{
    static const struct {
        int op;
        MtDtype dt[8];
        int n;
    } rows[] = {
        {OP_ATOMIC_ADD, {MT_DT_I32, MT_DT_U32, MT_DT_I64, MT_DT_U64, MT_DT_F16, MT_DT_BF16, MT_DT_F32, MT_DT_F64}, 8},
        {OP_ATOMIC_MAX, {MT_DT_I32, MT_DT_U32, MT_DT_I64, MT_DT_U64}, 4},
        {OP_ATOMIC_MIN, {MT_DT_I32, MT_DT_U32, MT_DT_I64, MT_DT_U64}, 4},
        {OP_ATOMIC_AND, {MT_DT_I32, MT_DT_U64}, 2},
        {OP_ATOMIC_OR, {MT_DT_U32, MT_DT_I64}, 2},
        {OP_ATOMIC_XOR, {MT_DT_I32, MT_DT_U64}, 2},
        {OP_ATOMIC_XCHG, {MT_DT_I32, MT_DT_U32, MT_DT_I64, MT_DT_U64}, 4},
        {OP_ATOMIC_CAS, {MT_DT_I16, MT_DT_U16, MT_DT_I32, MT_DT_U32, MT_DT_I64, MT_DT_U64}, 6},
    };
    MtCtx *c = mt_ctx_new(NULL);
    K k;
    k_init(&k, c, "atomics", 128, 1);
    const KExpr *in_range = op(&k, K_LT, MT_DT_I32, tid(&k), k_ref(c, k.f, k.n), NULL);
    int turn = 0;
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++)
        for (int i = 0; i < rows[r].n; i++, turn++) {
            MtDtype dt = rows[r].dt[i];
            bool into_regs = turn % 2;
            KVarId dst = k_var(c, k.f, into_regs ? KV_REGS : KV_LOCAL, dt, into_regs ? 2 : 0, mt_sprintf(c, "old%d", turn));
            k_decl(&k.b, dst, NULL);
            KAtomic a = {.ptr = k.in[dt], .dst = dst, .index = tid(&k), .value = ld(&k, dt),
                         .cmp = rows[r].op == OP_ATOMIC_CAS ? ld(&k, dt) : NULL, .mask = turn % 3 ? in_range : NULL,
                         .dst_index = into_regs ? k_int(c, MT_DT_I32, 1) : NULL, .op = (uint16_t)rows[r].op,
                         .dt = (uint8_t)dt, .sem = (uint8_t)(turn % MT_SEM_COUNT_),
                         .scope = (uint8_t)(turn / MT_SEM_COUNT_ % MT_SCOPE_COUNT_)};
            k_atomic(&k.b, &a);
            st(&k, into_regs ? k_elem(c, k.f, dst, k_int(c, MT_DT_I32, 1)) : k_ref(c, k.f, dst));
        }
    static const int both[] = {OP_ATOMIC_ADD, OP_ATOMIC_CAS};
    for (int b = 0; b < 2; b++)
        for (int sem = 0; sem < MT_SEM_COUNT_; sem++)
            for (int scope = 0; scope < MT_SCOPE_COUNT_; scope++) {
                KVarId dst = k_var(c, k.f, KV_LOCAL, MT_DT_I32, 0, mt_sprintf(c, "s%d_%d_%d", b, sem, scope));
                k_decl(&k.b, dst, NULL);
                KAtomic a = {.ptr = k.out[MT_DT_I32], .dst = dst, .index = tid(&k), .value = ld(&k, MT_DT_I32),
                             .cmp = both[b] == OP_ATOMIC_CAS ? k_int(c, MT_DT_I32, 0) : NULL, .mask = in_range,
                             .op = (uint16_t)both[b], .dt = MT_DT_I32, .sem = (uint8_t)sem, .scope = (uint8_t)scope};
                k_atomic(&k.b, &a);
                st(&k, k_ref(c, k.f, dst));
            }
    lower_ok(c, k.f);
    mt_ctx_free(c);
}
END_TEST

START_TEST(unsupported_is_located)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    const char *src = "x = 1\n";
    ck_assert(mt_parse(c, "u.py", src, strlen(src), &m) == MT_OK);
    K k;
    k_init(&k, c, "bad", 32, 1);
    k.b.span = (MtSpan){.file = 1, .off = 0, .end = 1, .line = 1, .col = 1, .end_line = 1, .end_col = 2};
    k_set(&k.b, k.n, NULL, k_int(c, MT_DT_I32, 1));   /* an assignment to a parameter */
    MtCompiled kc = {.kernel = k.f, .codegen = MT_CODEGEN_MLIR};
    ck_assert_int_eq(mt_mlir_stages(c, &kc, MT_STAGE_MLIR, 90), MT_ERR_SOURCE);
    const MtDiag *dg = mt_diag_at(c, mt_diag_count(c) - 1);
    ck_assert_str_eq(dg->code, "E1002");
    ck_assert_uint_eq(dg->span.line, 1);
    ck_assert_ptr_nonnull(strstr(dg->msg, "cannot lower"));
    mt_ctx_free(c);
}
END_TEST

/* ---- through the public API ---------------------------------------------------------- */

static MtCompiled *compile(MtCtx *c, const char *example, const char *kernel, MtSpec *spec, MtStatus want)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/%s", MT_SOURCE_DIR, example);
    size_t len;
    char *text = test_read_file(path, &len);
    MtModule *m;
    ck_assert(mt_parse(c, path, text, len, &m) == MT_OK);
    free(text);
    spec->kernel = kernel;
    MtCompiled *k = NULL;
    ck_assert_msg(mt_compile(c, m, spec, &k) == want, "%s", diags(c));
    return k;
}

/* The line of `text` holding `needle` (1-based), or 0. */
static uint32_t line_of(const char *text, const char *needle)
{
    const char *p = strstr(text, needle);
    if (!p)
        return 0;
    uint32_t line = 1;
    for (const char *q = text; q < p; q++)
        line += *q == '\n';
    return line;
}

START_TEST(lines_map_to_python)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtSpec spec = {.codegen = MT_CODEGEN_MLIR, .last_stage = MT_STAGE_MLIR_LLVM};
    MtCompiled *k = compile(c, "softmax.py", "softmax_kernel", &spec, MT_OK);
    ck_assert_int_eq(mt_compiled_codegen(k), MT_CODEGEN_MLIR);
    const char *py = mt_file_text(c, 1, NULL);
    uint32_t exp_line = line_of(py, "tl.exp(");
    ck_assert_uint_gt(exp_line, 0);
    static const MtStage stages[] = {MT_STAGE_MLIR, MT_STAGE_MLIR_LLVM};
    for (int s = 0; s < 2; s++) {
        const char *text = mt_compiled_text(c, k, stages[s]);
        ck_assert_ptr_nonnull(text);
        uint32_t l = line_of(text, "llvm.call @__nv_expf");
        ck_assert_msg(l > 0, "no call of __nv_expf in the %s stage", mt_stage_name(stages[s]));
        MtLineOrigin o;
        ck_assert(mt_compiled_line_origin(c, k, stages[s], l, &o));
        ck_assert_uint_eq(o.span.line, exp_line);
    }
    /* what a hover shows: the MLIR of the tl.exp line */
    const char *hover = mt_compiled_stage_for_line(c, k, MT_STAGE_MLIR, exp_line);
    ck_assert_msg(hover && strstr(hover, "@__nv_expf") && !strstr(hover, "arith.divf"), "%.300s", hover);
    ck_assert_ptr_null(mt_compiled_stage_for_line(c, k, MT_STAGE_MLIR, 1));
    /* the loop's header line takes the loop's mark */
    MtCompiled *mm = compile(c, "matmul_2d_runtime.py", "matmul_2d_runtime_kernel", &spec, MT_OK);
    const char *text = mt_compiled_text(c, mm, MT_STAGE_MLIR);
    uint32_t l = line_of(text, "scf.for");
    MtLineOrigin o;
    ck_assert_msg(l > 0 && mt_compiled_line_origin(c, mm, MT_STAGE_MLIR, l, &o), "no marked scf.for line");
    ck_assert_ptr_nonnull(strstr(mt_file_text(c, o.span.file, NULL) + 0, "for "));
    mt_ctx_free(c);
}
END_TEST

START_TEST(seed_lowering_is_refused)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtSpec spec = {.codegen = MT_CODEGEN_MLIR, .lowering = MT_LOWERING_SEED, .last_stage = MT_STAGE_MLIR};
    compile(c, "add_kernel.py", "add_kernel", &spec, MT_ERR_USAGE);
    ck_assert_str_eq(mt_diag_at(c, 0)->code, "E1005");
    mt_ctx_free(c);
}
END_TEST

START_TEST(unavailable_backend)
{
    setenv("MYTRITON_MLIR_PLUGIN", "/nonexistent/libmytriton-mlir.so", 1);
    MtCtx *c = mt_ctx_new(NULL);
    const char *why = NULL;
    ck_assert(!mt_mlir_available(c, &why));
    ck_assert_ptr_nonnull(strstr(why, "/nonexistent"));
    ck_assert_ptr_null(mt_mlir_version(c));
    MtSpec spec = {.codegen = MT_CODEGEN_MLIR, .last_stage = MT_STAGE_MLIR};
    MtCompiled *k = compile(c, "add_kernel.py", "add_kernel", &spec, MT_ERR_USAGE);
    ck_assert_str_eq(mt_diag_at(c, mt_diag_count(c) - 1)->code, "E1001");
    /* the stages before MLIR are still there */
    ck_assert_ptr_nonnull(mt_compiled_text(c, k, MT_STAGE_KERNEL));
    unsetenv("MYTRITON_MLIR_PLUGIN");
    ck_assert(mt_mlir_available(c, &why));
    ck_assert_ptr_nonnull(mt_mlir_version(c));
    mt_ctx_free(c);
}
END_TEST

/* ---- the runtime: cache and PTX files --------------------------------------------------- */

START_TEST(ptx_through_the_cache)
{
    char dir[] = "/tmp/mt_mlir_cache_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    MtCtx *c = mt_ctx_new(NULL);
    MtSpec spec = {.codegen = MT_CODEGEN_MLIR, .last_stage = MT_STAGE_MLIR};
    MtCompiled *k = compile(c, "add_kernel.py", "add_kernel", &spec, MT_OK);
    MtKcacheHit hits[3];
    MtNvrtcOutput out[3];
    for (int i = 0; i < 3; i++) {
        MtKcache *cache = mt_kcache_open(dir);
        ck_assert_msg(mt_cuda_build(c, k, cache, 90, &out[i], &hits[i]) == MT_OK, "%s", diags(c));
        if (i == 0) {
            MtNvrtcOutput again;
            MtKcacheHit h;
            ck_assert(mt_cuda_build(c, k, cache, 90, &again, &h) == MT_OK);
            ck_assert_int_eq(h, MT_KCACHE_MEMORY);
            mt_nvrtc_output_free(&again);
        }
        mt_kcache_close(cache);
    }
    /* a fresh handle (as a new process) reads the entry back */
    ck_assert_int_eq(hits[0], MT_KCACHE_MISS);
    ck_assert_int_eq(hits[1], MT_KCACHE_DISK);
    ck_assert_int_eq(hits[2], MT_KCACHE_DISK);
    ck_assert_uint_eq(out[0].cubin_len, 0);
    ck_assert_str_eq(out[0].ptx, out[1].ptx);
    char origin[256];
    ck_assert(mt_cuda_ptx_origin(c, k, 90, origin, sizeof origin));
    ck_assert(!strncmp(out[0].ptx, origin, strlen(origin)));
    ptxas_accepts(out[0].ptx, "add_kernel");
    ck_assert_int_eq(mt_cuda_ptx_check(c, k, 90, out[0].ptx, "add.ptx"), MT_OK);
    ck_assert_int_eq(mt_cuda_ptx_check(c, k, 0, out[0].ptx, "add.ptx"), MT_OK);
    ck_assert_int_eq(mt_cuda_ptx_check(c, k, 80, out[0].ptx, "add.ptx"), MT_ERR_SOURCE);
    MtCompiled *other = compile(c, "copy_kernel.py", "copy_kernel", &spec, MT_OK);
    ck_assert_int_eq(mt_cuda_ptx_check(c, other, 0, out[0].ptx, "add.ptx"), MT_ERR_SOURCE);
    ck_assert_str_eq(mt_diag_at(c, mt_diag_count(c) - 1)->code, "E1006");
    for (int i = 0; i < 3; i++)
        mt_nvrtc_output_free(&out[i]);
    mt_ctx_free(c);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mlir");
    TCase *t = tcase_create("backend");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, every_expression_on_every_dtype);
    tcase_add_test(t, every_statement);
    tcase_add_test(t, every_atomic);
    tcase_add_test(t, unsupported_is_located);
    tcase_add_test(t, lines_map_to_python);
    tcase_add_test(t, seed_lowering_is_refused);
    tcase_add_test(t, unavailable_backend);
    tcase_add_test(t, ptx_through_the_cache);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
