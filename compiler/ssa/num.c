/* num.c: exact scalar values and Triton's conversions (see num.h). */
#include "num.h"

#include <math.h>
#include <string.h>

__int128 mt_num_wrap(__int128 v, const MtType *t)
{
    if (mt_ty_is_bool(t))
        return v & 1;
    int bits = mt_ty_bits(t);
    unsigned __int128 m = ((unsigned __int128)1 << bits) - 1;
    unsigned __int128 u = (unsigned __int128)v & m;
    if (!mt_ty_is_unsigned(t) && (u >> (bits - 1)) & 1)
        return (__int128)u - ((__int128)1 << bits);
    return (__int128)u;
}

MtNum mt_num_convert(MtNum x, const MtType *t)
{
    MtNum r = {.flt = mt_ty_is_float(t)};
    if (r.flt) {
        r.f = mt_float_round((MtDtype)t->dtype, x.flt ? x.f : (double)x.i, false);
        return r;
    }
    if (!x.flt) {
        r.i = mt_ty_is_bool(t) ? x.i != 0 : mt_num_wrap(x.i, t);
        return r;
    }
    if (mt_ty_is_bool(t)) {
        r.i = x.f != 0;
        return r;
    }
    int bits = mt_ty_bits(t);
    __int128 lo = mt_ty_is_unsigned(t) ? 0 : -((__int128)1 << (bits - 1));
    __int128 hi = mt_ty_is_unsigned(t) ? ((__int128)1 << bits) - 1 : ((__int128)1 << (bits - 1)) - 1;
    double v = trunc(x.f);
    r.i = isnan(v) ? 0 : v <= (double)lo ? lo : v >= (double)hi ? hi : (__int128)v;
    return r;
}

MtNum mt_num_of_const(MtConst k, const MtType *t)
{
    MtNum x = {.flt = k.kind == CST_FLOAT, .f = k.f};
    x.i = k.kind == CST_UINT ? (__int128)(uint64_t)k.i : (__int128)k.i;
    return mt_num_convert(x, t);
}

MtConst mt_num_const(MtNum x, const MtType *t)
{
    MtConst k = {0};
    if (mt_ty_is_float(t)) {
        k.kind = CST_FLOAT;
        k.f = x.f;
    } else {
        k.kind = mt_ty_is_bool(t) ? CST_BOOL : x.i > INT64_MAX ? CST_UINT : CST_INT;
        k.i = (int64_t)(uint64_t)x.i;
        k.f = (double)x.i;
    }
    return k;
}

void mt_num_store(MtNum x, const MtType *t, void *out)
{
    MtDtype d = (MtDtype)t->dtype;
    if (x.flt) {
        mt_dtype_set(d, out, 0, x.f);
        return;
    }
    uint64_t bits = (uint64_t)x.i;
    memcpy(out, &bits, mt_dtype_info(d)->size); /* little-endian: the low bytes */
}
