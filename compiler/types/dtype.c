/* dtype.c: the element-type table (dtypes.def) as data: its rows, the
 * interned scalar type of each, the lookup of a dtype by any of its
 * spellings, and the spelling of a dtype as a constexpr value
 * (mt_dtype_literal: tl.float16, torch.bfloat16). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "half.h"
#include "type.h"

static const MtDtypeInfo rows[MT_DTYPE_COUNT] = {
#define DTYPE(id, ir, sig, tl, numpy, npy, cuda, mlir, cls, bits, size, mant, rank) \
    [MT_DT_##id] = {ir, sig, tl, numpy, npy, cuda, mlir, MT_DC_##cls, bits, size, mant, rank},
#include "mytriton/dtypes.def"
#undef DTYPE
};

const MtType mt_ty_scalars[MT_DTYPE_COUNT] = {
#define DTYPE(id, ...) [MT_DT_##id] = {.kind = TY_SCALAR, .dtype = MT_DT_##id},
#include "mytriton/dtypes.def"
#undef DTYPE
};

const MtDtypeInfo *mt_dtype_info(MtDtype d)
{
    return (unsigned)d < MT_DTYPE_COUNT ? &rows[d] : NULL;
}

bool mt_dtype_parse(const char *name, MtDtype *out)
{
    if (!name)
        return false;
    if (!strncmp(name, "tl.", 3))
        name += 3;
    for (int d = 0; d < MT_DTYPE_COUNT; d++) {
        const MtDtypeInfo *r = &rows[d];
        const char *names[] = {r->ir, r->sig, r->tl, r->numpy, r->npy};
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (names[k] && !strcmp(names[k], name)) {
                *out = (MtDtype)d;
                return true;
            }
    }
    return false;
}

/* The names a dtype value may have behind its prefix: every column of
 * dtypes.def that names a type in Python or in Triton (not the .npy
 * descriptors, nor a second "tl."). */
bool mt_dtype_literal(const char *text, MtDtype *out)
{
    static const char *const prefixes[] = {"triton.language.", "tl.", "torch."};
    if (!text)
        return false;
    const char *name = NULL;
    for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0] && !name; k++)
        if (!strncmp(text, prefixes[k], strlen(prefixes[k])))
            name = text + strlen(prefixes[k]);
    if (!name)
        return false;
    for (int d = 0; d < MT_DTYPE_COUNT; d++) {
        const MtDtypeInfo *r = &rows[d];
        const char *names[] = {r->tl, r->sig, r->ir, r->numpy};
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (names[k] && !strcmp(names[k], name)) {
                *out = (MtDtype)d;
                return true;
            }
    }
    return false;
}

/* ---- half precision (half.h has the conversions, inline for the interpreter) ---- */

float mt_f16_to_f32(uint16_t h) { return mt_half_to_float(h); }
uint16_t mt_f32_to_f16(float f) { return mt_float_to_half(f); }
float mt_bf16_to_f32(uint16_t h) { return mt_bfloat_to_float(h); }
uint16_t mt_f32_to_bf16(float f) { return mt_float_to_bfloat(f); }

double mt_float_round(MtDtype d, double v, bool toward_zero)
{
    switch (d) {
    case MT_DT_F64: return v;
    case MT_DT_F32: {
        float f = (float)v;
        if (toward_zero && !isnan(v) && fabs((double)f) > fabs(v))
            f = nextafterf(f, 0.0f);
        return f;
    }
    case MT_DT_F16:
    case MT_DT_BF16: {
        uint16_t h = d == MT_DT_F16 ? mt_double_to_half(v) : mt_double_to_bfloat(v);
        float r = d == MT_DT_F16 ? mt_f16_to_f32(h) : mt_bf16_to_f32(h);
        if (toward_zero && !isnan(v) && fabs((double)r) > fabs(v)) {
            /* one step toward zero in the target format */
            h = (uint16_t)(h - 1);
            r = d == MT_DT_F16 ? mt_f16_to_f32(h) : mt_bf16_to_f32(h);
        }
        return r;
    }
    case MT_DT_I1:
    case MT_DT_I8:
    case MT_DT_I16:
    case MT_DT_I32:
    case MT_DT_I64:
    case MT_DT_U8:
    case MT_DT_U16:
    case MT_DT_U32:
    case MT_DT_U64:
    case MT_DTYPE_COUNT: break;
    }
    return v;
}

/* ---- elements as doubles ------------------------------------------------------- */

double mt_dtype_get(MtDtype d, const void *base, size_t i)
{
    const MtDtypeInfo *r = mt_dtype_info(d);
    const unsigned char *p = (const unsigned char *)base + i * (r ? r->size : 0);
    union { int8_t i8; int16_t i16; int32_t i32; int64_t i64; uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;
            float f; double g; } u;
    memcpy(&u, p, r ? r->size : 0);
    switch (d) {
    case MT_DT_I1: return u.u8 != 0;
    case MT_DT_I8: return u.i8;
    case MT_DT_I16: return u.i16;
    case MT_DT_I32: return u.i32;
    case MT_DT_I64: return (double)u.i64;
    case MT_DT_U8: return u.u8;
    case MT_DT_U16: return u.u16;
    case MT_DT_U32: return u.u32;
    case MT_DT_U64: return (double)u.u64;
    case MT_DT_F16: return mt_f16_to_f32(u.u16);
    case MT_DT_BF16: return mt_bf16_to_f32(u.u16);
    case MT_DT_F32: return u.f;
    case MT_DT_F64: return u.g;
    case MT_DTYPE_COUNT: break;
    }
    return 0;
}

/* Integer conversion as a GPU's cvt.rzi.sat: toward zero, saturating at
 * the type's range, NaN to 0. */
static int64_t sat_int(double v, double lo, double hi)
{
    if (isnan(v))
        return 0;
    if (v <= lo)
        return (int64_t)lo;
    if (v >= hi)
        return (int64_t)hi;
    return (int64_t)v;
}

static uint64_t sat_uint(double v, double hi)
{
    if (isnan(v) || v <= 0)
        return 0;
    if (v >= hi)
        return v >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)hi;
    return (uint64_t)v;
}

void mt_dtype_set(MtDtype d, void *base, size_t i, double v)
{
    const MtDtypeInfo *r = mt_dtype_info(d);
    if (!r)
        return;
    unsigned char *p = (unsigned char *)base + i * r->size;
    union { int8_t i8; int16_t i16; int32_t i32; int64_t i64; uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;
            float f; double g; } u;
    switch (d) {
    case MT_DT_I1: u.u8 = v != 0; break;
    case MT_DT_I8: u.i8 = (int8_t)sat_int(v, INT8_MIN, INT8_MAX); break;
    case MT_DT_I16: u.i16 = (int16_t)sat_int(v, INT16_MIN, INT16_MAX); break;
    case MT_DT_I32: u.i32 = (int32_t)sat_int(v, INT32_MIN, INT32_MAX); break;
    case MT_DT_I64: u.i64 = v >= 9223372036854775807.0 ? INT64_MAX : sat_int(v, -9223372036854775808.0, 0x1p63); break;
    case MT_DT_U8: u.u8 = (uint8_t)sat_uint(v, UINT8_MAX); break;
    case MT_DT_U16: u.u16 = (uint16_t)sat_uint(v, UINT16_MAX); break;
    case MT_DT_U32: u.u32 = (uint32_t)sat_uint(v, UINT32_MAX); break;
    case MT_DT_U64: u.u64 = sat_uint(v, 0x1p64); break;
    case MT_DT_F16: u.u16 = mt_f32_to_f16((float)mt_float_round(d, v, false)); break;
    case MT_DT_BF16: u.u16 = mt_f32_to_bf16((float)mt_float_round(d, v, false)); break;
    case MT_DT_F32: u.f = (float)v; break;
    case MT_DT_F64: u.g = v; break;
    case MT_DTYPE_COUNT: return;
    }
    memcpy(p, &u, r->size);
}
