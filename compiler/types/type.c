/* type.c: interning, broadcasting, promotion and printing of types. */
#include "type.h"

#include "base/strbuf.h"

const MtType mt_ty_bool = {.kind = TY_BOOL};
const MtType mt_ty_i32 = {.kind = TY_I32};
const MtType mt_ty_f32 = {.kind = TY_F32};
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
        if (t->kind == proto->kind && t->rank == proto->rank && t->elem == proto->elem &&
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

const MtType *mt_ty_promote(const MtType *a, const MtType *b)
{
    if (a->kind > TY_F32 || b->kind > TY_F32)
        return NULL;
    return a->kind >= b->kind ? a : b;
}

static const char *scalar_name(const MtType *t)
{
    switch (t->kind) {
    case TY_BOOL: return "bool";
    case TY_I32: return "i32";
    case TY_F32: return "f32";
    case TY_VOID: return "void";
    default: return "?";
    }
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

const char *mt_ty_sig(const MtType *t)
{
    switch (t->kind) {
    case TY_BOOL: return "i1";
    case TY_I32: return "i32";
    case TY_F32: return "fp32";
    case TY_PTR:
        switch (t->elem->kind) {
        case TY_BOOL: return "*i1";
        case TY_I32: return "*i32";
        default: return "*fp32";
        }
    default: return "?";
    }
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
