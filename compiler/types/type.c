/* type.c: interning, broadcasting, promotion and printing of types. */
#include "type.h"

#include <string.h>

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
            !memcmp(t->shape, proto->shape, sizeof t->shape))
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

bool mt_ty_same_shape(const MtType *a, const MtType *b)
{
    if (mt_ty_rank(a) != mt_ty_rank(b))
        return false;
    for (int i = 0; i < mt_ty_rank(a); i++)
        if (a->shape[i] != b->shape[i])
            return false;
    return true;
}

int mt_ty_kind(const MtType *t)
{
    switch (mt_ty_info(t)->cls) {
    case MT_DC_BOOL: return 0;
    case MT_DC_SINT:
    case MT_DC_UINT: return 1;
    case MT_DC_FLOAT: return 2;
    }
    return 2;
}

/* Integers by C's usual arithmetic conversions (Triton's
 * integer_promote_impl): the same signedness picks the wider; otherwise
 * the unsigned one wins at equal or greater width. */
static const MtType *integer_promote(const MtType *a, const MtType *b)
{
    bool ua = mt_ty_is_unsigned(a), ub = mt_ty_is_unsigned(b);
    int wa = mt_ty_bits(a), wb = mt_ty_bits(b);
    if (ua == ub)
        return wa > wb ? a : b;
    if (ua)
        return wa >= wb ? a : b;
    return wb >= wa ? b : a;
}

const MtType *mt_ty_computation(const MtType *a, bool a_weak, const MtType *b, bool b_weak, bool div_or_mod)
{
    if (!mt_ty_is_scalar(a) || !mt_ty_is_scalar(b))
        return NULL;
    if (a_weak != b_weak) {
        const MtType *scalar = a_weak ? a : b, *tensor = a_weak ? b : a;
        if (mt_ty_kind(scalar) <= mt_ty_kind(tensor)) {
            if (div_or_mod && (tensor->dtype == MT_DT_F16 || tensor->dtype == MT_DT_BF16))
                return mt_ty_scalar(MT_DT_F32);
            return tensor;
        }
    }
    MtDtype x = (MtDtype)a->dtype, y = (MtDtype)b->dtype;
    const MtDtypeInfo *ix = mt_dtype_info(x), *iy = mt_dtype_info(y);
    if (ix->rank || iy->rank) {
        /* the float of higher rank (dtypes.def); a 16-bit one divides in
         * f32 (PTX has no f16 division), and bf16 meets anything but
         * bf16 in f32 */
        MtDtype w = ix->rank >= iy->rank ? x : y;
        if (mt_dtype_info(w)->bits == 16 && (div_or_mod || (w == MT_DT_BF16 && x != y)))
            return mt_ty_scalar(MT_DT_F32);
        return mt_ty_scalar(w);
    }
    if (div_or_mod && !mt_ty_is_bool(a) && !mt_ty_is_bool(b) && mt_ty_is_unsigned(a) != mt_ty_is_unsigned(b))
        return NULL;
    return integer_promote(a, b);
}

const MtType *mt_ty_promote(const MtType *a, const MtType *b) { return mt_ty_computation(a, false, b, false, false); }

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
