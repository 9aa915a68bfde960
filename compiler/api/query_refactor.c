/* query_refactor.c: refactorings of loads and stores an editor offers
 * for a range (mask= from a Boolean block bound before the call, other=
 * for a masked load). Runs under mt_protect; results live in the
 * context's arena. */
#include <string.h>

#include "query.h"

/* ---- load / store refactorings -------------------------------------------------------------- */

static const char *zero_of(const MtType *ptr)
{
    const MtType *e = mt_ty_elem(ptr);
    const MtType *pointee = e->kind == TY_PTR ? e->elem : e;
    return pointee == &mt_ty_f32 ? "0.0" : pointee == &mt_ty_bool ? "False" : "0";
}

/* Where to insert a keyword argument: before the call's closing
 * parenthesis, after a comma if the arguments lack a trailing one. */
static bool insertion(const char *text, const MtNode *call, uint32_t *at, const char **sep)
{
    uint32_t end = call->span.end;
    if (end == 0 || text[end - 1] != ')')
        return false;
    uint32_t p = end - 1;
    while (p > call->span.off && (text[p - 1] == ' ' || text[p - 1] == '\n' || text[p - 1] == '\t' || text[p - 1] == '\r'))
        p--;
    *at = p;
    *sep = text[p - 1] == ',' || text[p - 1] == '(' ? (text[p - 1] == ',' ? " " : "") : ", ";
    return true;
}

/* Names bound before `call` in its function to a Boolean block that
 * broadcasts to the pointer's shape. */
static uint32_t mask_names(MtCtx *c, MtCompiled *k, const MtFuncDef *f, const MtNode *call, const MtType *ptr,
                           const char **names, uint32_t max)
{
    BindSet s = {.c = c};
    mt_query_bind_function(&s, f);
    uint32_t n = 0;
    for (uint32_t i = s.v.n; i-- > 0 && n < max;) {
        const Bind *b = &s.v.v[i];
        if (b->kind != MT_DEF_LOCAL || b->from > call->span.off || mt_query_resolve(s.v.v, s.v.n, b->name, call->span.off) != b)
            continue;
        const MtExpr *e = mt_query_value_node(c, k, b->value, 0);
        int rank;
        int32_t shape[MT_MAX_RANK];
        if (!e || mt_ty_elem(e->ty) != &mt_ty_bool || !mt_ty_is_block(e->ty) || !mt_broadcast(e->ty, ptr, &rank, shape))
            continue;
        if (rank != mt_ty_rank(ptr) || memcmp(shape, ptr->shape, (size_t)rank * sizeof *shape))
            continue;
        names[n++] = b->name;
    }
    return n;
}

typedef struct ActionJob {
    MtCompiled *k;
    uint32_t off, end;
    MtQueryFixes out;
} ActionJob;

static void memory_actions(MtCtx *c, ActionJob *j, const MtExpr *e, const char *text)
{
    bool load = e->op == OP_LOAD;
    const MtNode *call = mt_query_node_at(j->k->m, e->span, ND_CALL);
    int fi = mt_query_func_at(j->k->m, e->span.off);
    if (!call || fi < 0)
        return;
    const MtType *ptr = e->args[0]->ty;
    bool has_mask = mt_query_call_arg(call, load ? 1 : 2, "mask") != NULL;
    bool has_other = load && mt_query_call_arg(call, 2, "other") != NULL;
    uint32_t at;
    const char *sep;
    if (!insertion(text, call, &at, &sep))
        return;
    if (has_mask && load && !has_other) {
        const char *z = zero_of(ptr);
        mt_query_add_fix(c, &j->out, mt_sprintf(c, "Add other=%s (masked-off lanes are undefined without it)", z), NULL, false,
                at, at, mt_sprintf(c, "%sother=%s", sep, z));
        return;
    }
    if (has_mask || !mt_ty_is_block(ptr))
        return;
    const char *names[3];
    uint32_t n = mask_names(c, j->k, j->k->m->funcs[fi], call, ptr, names, 3);
    for (uint32_t i = 0; i < n; i++) {
        const char *title = load ? mt_sprintf(c, "Add mask=%s, other=%s to this tl.load", names[i], zero_of(ptr))
                                 : mt_sprintf(c, "Add mask=%s to this tl.store", names[i]);
        const char *ins = load && !has_other ? mt_sprintf(c, "%smask=%s, other=%s", sep, names[i], zero_of(ptr))
                                             : mt_sprintf(c, "%smask=%s", sep, names[i]);
        mt_query_add_fix(c, &j->out, title, NULL, false, at, at, ins);
    }
}

static MtStatus action_job(MtCtx *c, void *ud)
{
    ActionJob *j = ud;
    const MtFile *f = mt_ctx_file(c, j->k->m->file);
    if (!f)
        return MT_OK;
    MtSpan seen = {0};
    for (uint32_t i = 0; i < j->k->prog->all.n; i++) {
        const MtExpr *e = j->k->prog->all.v[i];
        if (e->kind != EX_OP || (e->op != OP_LOAD && e->op != OP_STORE) || !e->ty || e->span.file != j->k->m->file ||
            e->span.end > f->len || e->span.off > j->end || e->span.end < j->off || mt_query_same_range(e->span, seen))
            continue;
        if (!e->args[0] || !e->args[0]->ty)
            continue;
        seen = e->span;
        memory_actions(c, j, e, f->text);
    }
    return MT_OK;
}

size_t mt_query_actions(MtCtx *c, MtCompiled *k, uint32_t off, uint32_t end, const MtQueryFix **out)
{
    *out = NULL;
    if (!k || !k->prog)
        return 0;
    ActionJob j = {k, off, end, {0}};
    if (mt_protect(c, action_job, &j) != MT_OK)
        return 0;
    *out = j.out.v;
    return j.out.n;
}
