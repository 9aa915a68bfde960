/* py_builtins.c: the handlers of the compile-time builtins of builtins.def:
 * Python's (len, min, max, abs, int, float, bool), the math module's, and
 * triton's host helpers (cdiv, next_power_of_2). They compute values with
 * Python's semantics; only cdiv also accepts runtime values (and then
 * builds the same arithmetic as nodes). */
#include <math.h>
#include <string.h>

#include "fe.h"

static FValue py_minmax(Fe *fe, const CallArgs *a, MtSpan sp, bool is_max)
{
    FValue *items = a->pos;
    uint32_t n = a->npos;
    if (n == 1 && a->pos[0].kind == FV_TUPLE) {
        items = a->pos[0].u.tup.v;
        n = a->pos[0].u.tup.n;
    }
    if (n == 0 || a->nkw) {
        fe_error(fe, sp, "E0305", "%s() needs at least one argument and no keywords", is_max ? "max" : "min");
        return fv_undef();
    }
    FValue best = items[0];
    for (uint32_t i = 0; i < n; i++) {
        if (best.kind == FV_EXPR || items[i].kind == FV_EXPR) {
            /* On runtime values Python's min and max are tl.minimum and
             * tl.maximum, as in Triton's code generator (pairwise, left to
             * right, for more than two arguments). */
            if (i)
                best = fe_binary(fe, is_max ? OP_MAXIMUM : OP_MINIMUM, best, items[i], sp);
            if (best.kind == FV_UNDEF)
                return best;
            continue;
        }
        if (i) {
            FValue gt = py_compare(fe, OP_GT, false, items[i], best, sp);
            if (gt.kind == FV_UNDEF)
                return gt;
            if (gt.u.i == is_max)
                best = items[i];
        }
    }
    return best;
}

FValue b_py_min(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp) { return py_minmax(fe, a->call, sp, false); }

FValue b_py_max(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp) { return py_minmax(fe, a->call, sp, true); }

FValue b_len(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const CallArgs *c = a->call;
    if (c->npos == 1 && !c->nkw && c->pos[0].kind == FV_TUPLE)
        return fv_int(c->pos[0].u.tup.n);
    if (c->npos == 1 && !c->nkw && c->pos[0].kind == FV_STR)
        return fv_int((int64_t)strlen(c->pos[0].u.s));
    fe_error(fe, sp, "E0306", "len() needs a compile-time tuple, list or string");
    return fv_undef();
}

FValue b_abs(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const CallArgs *c = a->call;
    if (c->npos == 1 && !c->nkw && fv_is_number(c->pos[0]))
        return c->pos[0].kind == FV_FLOAT ? fv_float(fabs(c->pos[0].u.f))
                                          : fv_int(c->pos[0].u.i < 0 ? -c->pos[0].u.i : c->pos[0].u.i);
    fe_error(fe, sp, "E0304", "abs() needs one compile-time number");
    return fv_undef();
}

FValue b_int(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const CallArgs *c = a->call;
    if (c->npos == 1 && !c->nkw && fv_is_number(c->pos[0]))
        return fv_int(c->pos[0].kind == FV_FLOAT ? (int64_t)c->pos[0].u.f : c->pos[0].u.i);
    if (c->npos == 1 && !c->nkw && c->pos[0].kind == FV_STR) {
        FValue lit;
        if (py_parse_literal(fe->c, c->pos[0].u.s, &lit) && lit.kind == FV_INT)
            return lit;
    }
    fe_error(fe, sp, "E0306", "int() needs one compile-time number or integer string");
    return fv_undef();
}

FValue b_float(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const CallArgs *c = a->call;
    if (c->npos != 1 || c->nkw) {
        fe_error(fe, sp, "E0305", "float() takes exactly one argument");
        return fv_undef();
    }
    FValue v = c->pos[0];
    double f;
    if (py_as_double(v, &f))
        return fv_float(f);
    if (v.kind == FV_STR) {
        char buf[32];
        size_t n = 0;
        for (const char *p = v.u.s; *p && n + 1 < sizeof buf; p++)
            if (*p != ' ')
                buf[n++] = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
        buf[n] = 0;
        const char *s = buf[0] == '+' || buf[0] == '-' ? buf + 1 : buf;
        double sign = buf[0] == '-' ? -1 : 1;
        if (!strcmp(s, "inf") || !strcmp(s, "infinity"))
            return fv_float(sign * INFINITY);
        if (!strcmp(s, "nan"))
            return fv_float(NAN);
        FValue lit;
        if (py_parse_literal(fe->c, v.u.s, &lit) && py_as_double(lit, &f))
            return fv_float(f);
        fe_error(fe, sp, "E0312", "could not convert string to float: '%s'", v.u.s);
        return fv_undef();
    }
    fe_error(fe, sp, "E0306", "float() needs a compile-time number or string, got %s", fv_kind_name(v));
    return fv_undef();
}

FValue b_bool(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const CallArgs *c = a->call;
    if (c->npos != 1 || c->nkw) {
        fe_error(fe, sp, "E0305", "bool() takes exactly one argument");
        return fv_undef();
    }
    bool ok;
    bool t = py_truth(fe, c->pos[0], c->pos_span[0], &ok);
    return ok ? fv_bool(t) : fv_undef();
}

/* math.sqrt, math.log, ...: one compile-time number. */
FValue b_pymath(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const CallArgs *c = a->call;
    double x;
    if (c->npos != 1 || c->nkw || !py_as_double(c->pos[0], &x)) {
        fe_error(fe, sp, "E0306", "%s() needs one compile-time number", fe_builtin_name(bi));
        return fv_undef();
    }
    const char *name = bi->path + strlen("math.");
    if (!strcmp(name, "sqrt"))
        return fv_float(sqrt(x));
    if (!strcmp(name, "log"))
        return fv_float(log(x));
    if (!strcmp(name, "log2"))
        return fv_float(log2(x));
    if (!strcmp(name, "exp"))
        return fv_float(exp(x));
    if (!strcmp(name, "floor"))
        return fv_int((int64_t)floor(x));
    return fv_int((int64_t)ceil(x));
}

/* triton.cdiv / tl.cdiv: (x + div - 1) // div, folded when both are known. */
FValue b_cdiv(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    if (a->v[0].kind != FV_EXPR && a->v[1].kind != FV_EXPR) {
        FValue s = py_binop(fe, OP_PLUS, a->v[0], a->v[1], sp);
        s = py_binop(fe, OP_MINUS, s, fv_int(1), sp);
        return py_binop(fe, OP_DSLASH, s, a->v[1], sp);
    }
    FValue s = fe_binary(fe, OP_ADD, a->v[0], a->v[1], sp);
    s = fe_binary(fe, OP_SUB, s, fv_int(1), sp);
    return fe_binary(fe, OP_FLOORDIV, s, a->v[1], sp);
}

FValue b_next_pow2(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    int64_t i;
    if (!fe_static_int(fe, a->v[0], a->sp[0], "triton.next_power_of_2 argument", &i))
        return fv_undef();
    int64_t p = 1;
    while (p < i && p < ((int64_t)1 << 62))
        p <<= 1;
    return fv_int(p);
}

/* ---- types -------------------------------------------------------------------- */

/* The Python type of a compile-time value, as the builtin that names it
 * (int, float, bool, str, tuple, list); other values get an opaque type
 * that compares equal to none of them. */
static FValue type_of(Fe *fe, FValue v)
{
    const char *name;
    switch ((FvKind)v.kind) {
    case FV_BOOL: name = "bool"; break;
    case FV_INT: name = "int"; break;
    case FV_FLOAT: name = "float"; break;
    case FV_STR: name = "str"; break;
    case FV_TUPLE: name = v.is_list ? "list" : "tuple"; break;
    case FV_NONE: name = NULL; break;
    case FV_EXPR: {
        FValue t = {.kind = FV_OPAQUE};
        t.u.s = "tl.tensor";
        return t;
    }
    default: {
        FValue t = {.kind = FV_OPAQUE};
        t.u.s = mt_sprintf(fe->c, "<class '%s'>", fv_kind_name(v));
        return t;
    }
    }
    if (!name) {
        FValue t = {.kind = FV_OPAQUE};
        t.u.s = "NoneType";
        return t;
    }
    return fe_resolve_path(fe, mt_sprintf(fe->c, "builtins.%s", name));
}

static bool one_arg(Fe *fe, const CallArgs *c, const char *fname, MtSpan sp)
{
    if (c->npos == 1 && !c->nkw)
        return true;
    fe_error(fe, sp, "E0305", "%s() takes exactly one argument", fname);
    return false;
}

FValue b_type(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    return one_arg(fe, a->call, "type", sp) ? type_of(fe, a->call->pos[0]) : fv_undef();
}

/* The builtin named builtins.<name>. */
static const FeBuiltin *py_builtin(Fe *fe, const char *name)
{
    return fe_resolve_path(fe, mt_sprintf(fe->c, "builtins.%s", name)).u.builtin;
}

/* Whether v is an instance of the type t (a builtin type; bool is an int). */
static bool instance_of(Fe *fe, FValue v, FValue t)
{
    FValue vt = type_of(fe, v);
    if (vt.kind == FV_BUILTIN && vt.u.builtin == t.u.builtin)
        return true;
    return v.kind == FV_BOOL && t.u.builtin == py_builtin(fe, "int");
}

static bool is_type(Fe *fe, FValue t)
{
    static const char *const types[] = {"int", "float", "bool", "str", "tuple", "list"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (t.kind == FV_BUILTIN && t.u.builtin == py_builtin(fe, types[i]))
            return true;
    return false;
}

FValue b_isinstance(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    const CallArgs *c = a->call;
    if (c->npos != 2 || c->nkw) {
        fe_error(fe, sp, "E0305", "isinstance() takes exactly two arguments");
        return fv_undef();
    }
    FValue t = c->pos[1];
    FValue *types = &c->pos[1];
    uint32_t n = 1;
    if (t.kind == FV_TUPLE) {
        types = t.u.tup.v;
        n = t.u.tup.n;
    }
    bool yes = false;
    for (uint32_t i = 0; i < n; i++) {
        if (!is_type(fe, types[i])) {
            fe_error(fe, c->pos_span[1], "E0306",
                     "isinstance() in a kernel takes int, float, bool, str, tuple or list (or a tuple of them), got "
                     "%s",
                     fv_repr(fe->c, types[i]));
            return fv_undef();
        }
        yes |= instance_of(fe, c->pos[0], types[i]);
    }
    return fv_bool(yes);
}

FValue b_str(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    if (!one_arg(fe, a->call, "str", sp))
        return fv_undef();
    FValue v = a->call->pos[0];
    if (v.kind == FV_STR)
        return v;
    if (v.kind == FV_EXPR) {
        fe_error(fe, sp, "E0306", "str() needs a compile-time value");
        return fv_undef();
    }
    FValue s = {.kind = FV_STR};
    s.u.s = fv_repr(fe->c, v);
    return s;
}

/* tuple(x), list(x) of a compile-time tuple or list. */
FValue b_tuple(Fe *fe, const FeBuiltin *bi, const FeArgs *a, MtSpan sp)
{
    bool list = bi == py_builtin(fe, "list");
    const char *fname = list ? "list" : "tuple";
    if (!one_arg(fe, a->call, fname, sp))
        return fv_undef();
    FValue v = a->call->pos[0];
    if (v.kind != FV_TUPLE) {
        fe_error(fe, sp, "E0306", "%s() in a kernel needs a compile-time tuple or list, got %s", fname,
                 fv_kind_name(v));
        return fv_undef();
    }
    v.is_list = list;
    return v;
}
