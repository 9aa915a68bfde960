/* linear.c: building and relating linear layouts (see linear.h). */
#include "linear.h"

#include <stdio.h>
#include <string.h>

static int log2i(int32_t v)
{
    int n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

static bool is_zero(const int32_t *v, int rank)
{
    for (int d = 0; d < rank; d++)
        if (v[d])
            return false;
    return true;
}

/* Append a register bit, dropping zero ones (compact layouts). */
static void add_reg(MtLinear *l, const int32_t *v)
{
    if (is_zero(v, l->rank) || l->nreg >= MT_LL_MAX_REG)
        return;
    memcpy(l->reg[l->nreg++], v, sizeof l->reg[0]);
}

/* A basis vector along d of `value` (zero when it falls outside the shape:
 * the layout wraps there). */
static void unit(const MtLinear *l, int d, int32_t value, int32_t *v)
{
    memset(v, 0, sizeof(int32_t) * MT_LL_MAX_RANK);
    v[d] = value < l->shape[d] ? value : 0;
}

MtLinear mt_ll_blocked(int rank, const int32_t *shape, const int32_t *spt, const int32_t *tpw, const int32_t *wpc,
                       const int8_t *order)
{
    MtLinear l;
    memset(&l, 0, sizeof l);
    l.rank = (uint8_t)rank;
    for (int d = 0; d < rank; d++)
        l.shape[d] = shape[d];
    int32_t v[MT_LL_MAX_RANK];
    for (int k = 0; k < rank; k++) {
        int d = order[k];
        for (int b = 0; b < log2i(spt[d]); b++) {
            unit(&l, d, 1 << b, v);
            add_reg(&l, v);
        }
    }
    int lane = 0, warp = 0;
    for (int k = 0; k < rank; k++) {
        int d = order[k];
        for (int b = 0; b < log2i(tpw[d]) && lane < MT_LL_LANES; b++)
            unit(&l, d, spt[d] << b, l.lane[lane++]);
    }
    for (int k = 0; k < rank; k++) {
        int d = order[k];
        for (int b = 0; b < log2i(wpc[d]) && warp < MT_LL_MAX_WARP; b++)
            unit(&l, d, (spt[d] * tpw[d]) << b, l.warp[warp++]);
    }
    l.nwarp = (uint8_t)warp;
    for (int k = 0; k < rank; k++) {
        int d = order[k];
        for (int32_t t = spt[d] * tpw[d] * wpc[d]; t < shape[d]; t <<= 1) {
            unit(&l, d, t, v);
            add_reg(&l, v);
        }
    }
    return l;
}

MtLinear mt_ll_default(int rank, const int32_t *shape, int esize, int warps)
{
    int32_t last = shape[rank - 1];
    int32_t vec = 16 / (esize > 0 ? esize : 4);
    if (vec > last)
        vec = last;
    if (vec < 1)
        vec = 1;
    if (rank == 1) {
        int32_t spt[1] = {vec}, tpw[1] = {32}, wpc[1] = {warps};
        int8_t order[1] = {0};
        return mt_ll_blocked(1, shape, spt, tpw, wpc, order);
    }
    int32_t t1 = last / vec;
    if (t1 > 32)
        t1 = 32;
    if (t1 < 1)
        t1 = 1;
    int32_t t0 = 32 / t1;
    int32_t w0 = shape[0] / t0;
    if (w0 > warps)
        w0 = warps;
    if (w0 < 1)
        w0 = 1;
    int32_t spt[2] = {1, vec}, tpw[2] = {t0, t1}, wpc[2] = {w0, warps / w0};
    int8_t order[2] = {1, 0};
    return mt_ll_blocked(2, shape, spt, tpw, wpc, order);
}

/* A copy of l with each basis vector passed through f (which may zero
 * components or remove a dimension), register bits compacted. */
static MtLinear remap(const MtLinear *l, int rank, const int32_t *shape, int drop, int insert)
{
    MtLinear r;
    memset(&r, 0, sizeof r);
    r.rank = (uint8_t)rank;
    for (int d = 0; d < rank; d++)
        r.shape[d] = shape[d];
    r.nwarp = l->nwarp;
#define MAP(dst, src)                                                                                   \
    do {                                                                                                \
        int k_ = 0;                                                                                     \
        for (int d_ = 0; d_ < l->rank; d_++) {                                                          \
            if (d_ == drop)                                                                             \
                continue;                                                                               \
            if (k_ == insert)                                                                           \
                (dst)[k_++] = 0;                                                                        \
            (dst)[k_] = k_ < rank && r.shape[k_] == 1 ? 0 : (src)[d_];                                  \
            k_++;                                                                                       \
        }                                                                                               \
        if (k_ == insert)                                                                               \
            (dst)[k_++] = 0;                                                                            \
    } while (0)
    for (int i = 0; i < l->nreg; i++) {
        int32_t v[MT_LL_MAX_RANK] = {0};
        MAP(v, l->reg[i]);
        add_reg(&r, v);
    }
    for (int i = 0; i < MT_LL_LANES; i++)
        MAP(r.lane[i], l->lane[i]);
    for (int i = 0; i < l->nwarp; i++)
        MAP(r.warp[i], l->warp[i]);
#undef MAP
    return r;
}

MtLinear mt_ll_slice(const MtLinear *l, int dim)
{
    int32_t shape[MT_LL_MAX_RANK] = {0};
    int k = 0;
    for (int d = 0; d < l->rank; d++)
        if (d != dim)
            shape[k++] = l->shape[d];
    return remap(l, l->rank - 1, shape, dim, -1);
}

MtLinear mt_ll_expand(const MtLinear *l, int dim)
{
    int32_t shape[MT_LL_MAX_RANK] = {0};
    int k = 0;
    for (int d = 0; d <= l->rank; d++)
        shape[d] = d == dim ? 1 : l->shape[k++];
    return remap(l, l->rank + 1, shape, -1, dim);
}

MtLinear mt_ll_project(const MtLinear *l, int rank, const int32_t *shape)
{
    return remap(l, rank, shape, -1, -1);
}

MtLinear mt_ll_permute(const MtLinear *l, const int8_t *order)
{
    MtLinear r = *l;
    for (int d = 0; d < l->rank; d++) {
        r.shape[d] = l->shape[order[d]];
        for (int i = 0; i < l->nreg; i++)
            r.reg[i][d] = l->reg[i][order[d]];
        for (int i = 0; i < MT_LL_LANES; i++)
            r.lane[i][d] = l->lane[i][order[d]];
        for (int i = 0; i < l->nwarp; i++)
            r.warp[i][d] = l->warp[i][order[d]];
    }
    return r;
}

bool mt_ll_equal(const MtLinear *a, const MtLinear *b)
{
    if (a->rank != b->rank || a->nreg != b->nreg || a->nwarp != b->nwarp)
        return false;
    size_t vec = sizeof(int32_t) * MT_LL_MAX_RANK;
    for (int d = 0; d < a->rank; d++)
        if (a->shape[d] != b->shape[d])
            return false;
    for (int i = 0; i < a->nreg; i++)
        if (memcmp(a->reg[i], b->reg[i], vec))
            return false;
    for (int i = 0; i < MT_LL_LANES; i++)
        if (memcmp(a->lane[i], b->lane[i], vec))
            return false;
    for (int i = 0; i < a->nwarp; i++)
        if (memcmp(a->warp[i], b->warp[i], vec))
            return false;
    return true;
}

void mt_ll_reg_offset(const MtLinear *l, uint32_t r, int32_t *off)
{
    for (int d = 0; d < l->rank; d++)
        off[d] = 0;
    for (int i = 0; i < l->nreg; i++)
        if (r >> i & 1)
            for (int d = 0; d < l->rank; d++)
                off[d] ^= l->reg[i][d];
}

bool mt_ll_reg_map(const MtLinear *from, const MtLinear *to, uint32_t *map)
{
    if (from->rank != to->rank || from->nwarp != to->nwarp)
        return false;
    MtLinear p = mt_ll_project(to, from->rank, from->shape);
    if (!mt_ll_equal(&p, from))
        return false;
    /* Which register bit of `from` each register bit of `to` becomes. */
    int which[MT_LL_MAX_REG];
    for (int i = 0; i < to->nreg; i++) {
        int32_t v[MT_LL_MAX_RANK] = {0};
        for (int d = 0; d < to->rank; d++)
            v[d] = from->shape[d] == 1 ? 0 : to->reg[i][d];
        which[i] = -1;
        for (int j = 0; j < from->nreg && !is_zero(v, to->rank); j++)
            if (!memcmp(v, from->reg[j], sizeof v))
                which[i] = j;
    }
    for (uint32_t r = 0; r < mt_ll_nregs(to); r++) {
        uint32_t m = 0;
        for (int i = 0; i < to->nreg; i++)
            if ((r >> i & 1) && which[i] >= 0)
                m |= 1u << which[i];
        map[r] = m;
    }
    return true;
}

bool mt_ll_lane_broadcast(const MtLinear *l, int i) { return is_zero(l->lane[i], l->rank); }

bool mt_ll_warp_broadcast(const MtLinear *l, int i) { return is_zero(l->warp[i], l->rank); }

/* How many distinct coordinates along d the given basis vectors span. */
static int32_t span_along(const int32_t (*v)[MT_LL_MAX_RANK], int n, int d)
{
    int32_t k = 1;
    for (int i = 0; i < n; i++)
        if (v[i][d])
            k *= 2;
    return k;
}

void mt_ll_describe(const MtLinear *l, char *out, unsigned outlen)
{
    unsigned n = 0;
#define PUT(...) n += (unsigned)snprintf(out + n, n < outlen ? outlen - n : 0, __VA_ARGS__)
    const char *what[] = {"per thread", "lanes", "warps"};
    bool replicated = false;
    for (int i = 0; i < MT_LL_LANES; i++)
        replicated |= mt_ll_lane_broadcast(l, i);
    for (int i = 0; i < l->nwarp; i++)
        replicated |= mt_ll_warp_broadcast(l, i);
    for (int kind = 0; kind < 3; kind++) {
        PUT("%s", kind ? ", " : "");
        for (int d = 0; d < l->rank; d++) {
            int32_t k = kind == 0 ? span_along(l->reg, l->nreg, d) : kind == 1 ? span_along(l->lane, MT_LL_LANES, d)
                                                                                : span_along(l->warp, l->nwarp, d);
            PUT(d ? "x%d" : "%d", k);
        }
        if (!l->rank)
            PUT("1");
        PUT(kind ? "" : " %s", kind ? "" : what[0]);
        if (kind)
            PUT(" %s", what[kind]);
    }
#undef PUT
    if (replicated && n < outlen)
        snprintf(out + n, outlen - n, ", replicated");
}
