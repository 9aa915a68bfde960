/* cfmt.c: how values are spelled in the generated CUDA C++: element
 * types, constants (shortest float spelling that reads back as the same
 * float, "0.0f"), and parameter names that cannot clash with C++ keywords
 * or the names the emitter generates. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

const char *cu_type(const MtType *t)
{
    const MtType *e = mt_ty_elem(t);
    /* a pointer value is lowered as its element index */
    return e->kind == TY_PTR ? "int" : mt_ty_info(e)->cuda;
}

/* Shortest digits that read back as the same float, in Python's style
 * ("0.0", "2.5", "1e-05"), so constants print as the seeds show them. */
static void float_spelling(char out[40], float v)
{
    char digits[40];
    for (int prec = 1; prec <= 9; prec++) {
        snprintf(digits, sizeof digits, "%.*e", prec - 1, (double)v);
        if (strtof(digits, NULL) == v)
            break;
    }
    mt_format_pyfloat(out, strtod(digits, NULL));
}

void cu_literal(MtBuf *b, MtConst k, const MtType *as)
{
    const MtType *e = mt_ty_elem(as);
    double f = k.kind == CST_FLOAT ? k.f : (double)k.i;
    if (e == &mt_ty_bool) {
        mt_buf_puts(b, f != 0 ? "true" : "false");
        return;
    }
    if (e == &mt_ty_i32) {
        mt_buf_printf(b, "%lld", (long long)(k.kind == CST_FLOAT ? (int64_t)k.f : k.i));
        return;
    }
    float v = (float)f;
    if (isnan(v)) {
        mt_buf_puts(b, "__int_as_float(0x7fffffff)");
    } else if (isinf(v)) {
        mt_buf_puts(b, v > 0 ? "__int_as_float(0x7f800000)" : "__int_as_float(0xff800000)");
    } else {
        char s[40];
        float_spelling(s, v);
        mt_buf_printf(b, "%sf", s);
    }
}

static bool generated_name(const char *n)
{
    static const char *const prefixes[] = {"v",   "s",    "reduce_smem_", "stride_", "dot_a_", "dot_b_",   "r",
                                           "c",   "red",  "base",         "acc",     "a",      "b",        "k",
                                           "i",   "dot_a", "dot_b",       "cvt_smem", "red_smem"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t l = strlen(prefixes[i]);
        if (strncmp(n, prefixes[i], l) == 0 && n[l] && strspn(n + l, "0123456789") == strlen(n + l))
            return true;
    }
    return !strcmp(n, "tile_i") || !strcmp(n, "tile_j") || !strcmp(n, "lane") || !strcmp(n, "warp") ||
           !strcmp(n, "slot") || !strncmp(n, "mt_", 3);
}

static bool cxx_keyword(const char *n)
{
    static const char *const kw[] = {
        "alignas", "alignof", "asm", "auto", "bool", "break", "case", "catch", "char", "class", "const",
        "constexpr", "const_cast", "continue", "decltype", "default", "delete", "do", "double", "dynamic_cast",
        "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if",
        "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "nullptr", "operator", "private",
        "protected", "public", "register", "reinterpret_cast", "return", "short", "signed", "sizeof", "static",
        "static_assert", "static_cast", "struct", "switch", "template", "this", "throw", "true", "try",
        "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "while",
        "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "min", "max"};
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (!strcmp(n, kw[i]))
            return true;
    return false;
}

const char *cu_param_name(MtCtx *c, const char *name)
{
    if (generated_name(name) || cxx_keyword(name))
        return mt_sprintf(c, "%s_", name);
    return name;
}
