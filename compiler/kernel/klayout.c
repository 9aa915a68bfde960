/* klayout.c: the fast lowering's layouts in words (`--emit layout`,
 * hovers, the JSON export): the launch shape, then each block value's home
 * layout, or that it is recomputed where each consumer needs it. */
#include "kir.h"
#include "layout/assign.h"

typedef struct Ctx {
    MtCtx *c;
    const KFunc *kf;
} Ctx;

static const char *describe(void *ud, MtVal v)
{
    Ctx *x = ud;
    const KFunc *kf = x->kf;
    if (v >= kf->nvalues)
        return "";
    if (kf->value_cheap[v])
        return "recomputed where used, in each consumer's layout";
    const MtLinear *ll = kf->value_home[v];
    if (!ll)
        return "uniform";
    char buf[256];
    mt_ll_describe(ll, buf, sizeof buf);
    return mt_sprintf(x->c, "%u registers: %s", mt_ll_nregs(ll), buf);
}

const char *mt_kir_layout_describe(MtCtx *c, const KFunc *kf, const MtFunc *f, MtVal v)
{
    if (!kf || !v || v >= kf->nvalues || !f->vals[v].ty || f->vals[v].ty->kind != TY_BLOCK)
        return NULL;
    Ctx x = {c, kf};
    return describe(&x, v);
}

const char *mt_kir_layout_print(MtCtx *c, const KFunc *kf, const MtFunc *f, MtLineMarks *marks)
{
    MtBuf b;
    mt_buf_init(&b, &c->arena);
    mt_buf_record_marks(&b, marks);
    uint32_t per = kf->threads / kf->programs_per_block;
    mt_buf_printf(&b, "kernel layout: %u threads per block = %u program%s x %u warp%s, %llu B shared\n", kf->threads,
                  kf->programs_per_block, kf->programs_per_block == 1 ? "" : "s", per / 32, per / 32 == 1 ? "" : "s",
                  (unsigned long long)kf->shared_bytes);
    Ctx x = {c, kf};
    mt_layout_print_values(&b, f, describe, &x);
    return mt_buf_str(&b);
}
