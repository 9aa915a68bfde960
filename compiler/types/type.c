/* type.c: interning, broadcasting, promotion and printing of types. */
#include "type.h"

#include "base/strbuf.h"

const MtType mt_ty_void = {.kind = TY_VOID};

/* The intern list lives in the arena; the context holds its head record,
 * allocated on first use and dropped with the arena on reset. */
typedef struct Interner {
    const MtType *head;
} Interner;

static Interner *interner(MtCtx *c)
{
    if (!c->types)
        c->types = mt_arena_alloc(&c->arena, sizeof(Interner));
    return c->types;
}

static const MtType *intern(MtCtx *c, const MtType *proto)
{
    Interner *in = interner(c);
    for (const MtType *t = in->head; t; t = t->next) {
        if (t->kind == proto->kind && t->rank == proto->rank && t->dtype == proto->dtype && t->elem == proto->elem &&
            t->shape[0] == proto->shape[0] && t->shape[1] == proto->shape[1])
            return t;
    }
    MtType *t = mt_arena_alloc(&c->arena, sizeof *t);
    *t = *proto;
    t->next = in->head;
    in->head = t;
    return t;
}

const MtType *mt_ty_ptr(MtCtx *c, const MtType *pointee)
{
    MtType p = {.kind = TY_PTR, .elem = pointee};
    return intern(c, &p);
}

const MtType *mt_ty_block(MtCtx *c, const MtType *elem, int rank, const int32_t *shape)
{
    if (rank == 0)
        return elem;
    MtType p = {.kind = TY_BLOCK, .rank = (uint8_t)rank, .elem = elem};
    for (int i = 0; i < rank; i++)
        p.shape[i] = shape[i];
    return intern(c, &p);
}

const MtType *mt_ty_with_shape(MtCtx *c, const MtType *elem, const MtType *shape_of)
{
    if (!shape_of || shape_of->kind != TY_BLOCK)
        return elem;
    return mt_ty_block(c, elem, shape_of->rank, shape_of->shape);
}

int64_t mt_ty_numel(const MtType *t)
{
    if (t->kind != TY_BLOCK)
        return 1;
    int64_t n = 1;
    for (int i = 0; i < t->rank; i++)
        n *= t->shape[i];
    return n;
}

bool mt_broadcast(const MtType *a, const MtType *b, int *rank, int32_t shape[MT_MAX_RANK])
{
    int ra = mt_ty_rank(a), rb = mt_ty_rank(b);
    int r = ra > rb ? ra : rb;
    for (int i = 0; i < r; i++) {
        /* align on the right */
        int ia = i - (r - ra), ib = i - (r - rb);
        int32_t da = ia >= 0 ? a->shape[ia] : 1;
        int32_t db = ib >= 0 ? b->shape[ib] : 1;
        if (da != db && da != 1 && db != 1)
            return false;
        shape[i] = da == 1 ? db : da;
    }
    *rank = r;
    return true;
}

/* Triton's computation type of two element types (its
 * computation_type_impl without the Python-scalar rule, which belongs to
 * the caller): f64 > f32 > f16 > bf16 among floats (f16 with bf16 gives
 * f32), any float over any integer, and integers by C's usual arithmetic
 * conversions (the wider wins; at equal width unsigned wins). */
const MtType *mt_ty_promote(const MtType *a, const MtType *b)
{
    if (!mt_ty_is_scalar(a) || !mt_ty_is_scalar(b))
        return NULL;
    if (a == b)
        return a;
    const MtDtypeInfo *x = mt_ty_info(a), *y = mt_ty_info(b);
    bool fa = x->cls == MT_DC_FLOAT, fb = y->cls == MT_DC_FLOAT;
    if (fa || fb) {
        if (a->dtype == MT_DT_F64 || b->dtype == MT_DT_F64)
            return mt_ty_scalar(MT_DT_F64);
        if (a->dtype == MT_DT_F32 || b->dtype == MT_DT_F32)
            return mt_ty_scalar(MT_DT_F32);
        if (fa && fb)             /* f16 with bf16 */
            return mt_ty_scalar(MT_DT_F32);
        return fa ? a : b;
    }
    bool ua = x->cls == MT_DC_UINT, ub = y->cls == MT_DC_UINT;
    if (ua == ub || ua)
        return x->bits >= y->bits ? a : b;
    return y->bits >= x->bits ? b : a;
}

static const char *scalar_name(const MtType *t)
{
    switch ((MtTypeKind)t->kind) {
    case TY_SCALAR: return mt_ty_info(t)->ir;
    case TY_VOID: return "void";
    case TY_PTR:
    case TY_BLOCK: break;
    }
    return "?";
}

void mt_ty_print(MtBuf *b, const MtType *t)
{
    switch (t->kind) {
    case TY_PTR:
        mt_buf_puts(b, "ptr<");
        mt_ty_print(b, t->elem);
        mt_buf_putc(b, '>');
        return;
    case TY_BLOCK:
        if (t->rank == 1) {
            mt_buf_printf(b, "vector<%d x ", t->shape[0]);
        } else {
            mt_buf_puts(b, "block<");
            for (int i = 0; i < t->rank; i++)
                mt_buf_printf(b, i ? "x%d" : "%d", t->shape[i]);
            mt_buf_puts(b, " x ");
        }
        mt_ty_print(b, t->elem);
        mt_buf_putc(b, '>');
        return;
    default:
        mt_buf_puts(b, scalar_name(t));
    }
}

const char *mt_ty_str(MtCtx *c, const MtType *t)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    mt_ty_print(&b, t);
    return mt_buf_str(&b);
}

static const char *const ptr_sig[MT_DTYPE_COUNT] = {
#define DTYPE(id, ir, sig, ...) [MT_DT_##id] = "*" sig,
#include "mytriton/dtypes.def"
#undef DTYPE
};

const char *mt_ty_sig(const MtType *t)
{
    if (mt_ty_is_scalar(t))
        return mt_ty_info(t)->sig;
    if (t->kind == TY_PTR && mt_ty_is_scalar(t->elem))
        return ptr_sig[t->elem->dtype];
    return "?";
}

void mt_shape_print(MtBuf *b, int rank, const int32_t *shape)
{
    mt_buf_putc(b, '(');
    for (int i = 0; i < rank; i++)
        mt_buf_printf(b, i ? ", %d" : "%d", shape[i]);
    if (rank == 1)
        mt_buf_putc(b, ',');
    mt_buf_putc(b, ')');
}
