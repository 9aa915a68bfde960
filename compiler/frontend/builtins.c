/* builtins.c: the builtins table (builtins.def) as data, and how the
 * frontend uses it: resolving a dotted path to a value, and binding a
 * call's arguments to a row's parameter list before its handler runs.
 *
 * Everything is found by its canonical dotted path ("triton.language.load",
 * "math.pi", "builtins.range"); module aliases from the file's imports and
 * the `mytriton` package name are normalised to these paths first, and the
 * math functions are found under tl.math and libdevice as well. Argument
 * binding follows Python (positional, then keywords, then defaults) with
 * Triton's parameter names, which the table spells out. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fe.h"

#define PATH_TRITON "triton."
#define PATH_TL "triton.language."
#define PATH_PY "builtins."
#define PATH_MATH "math."
#define PATH_LIBDEVICE "triton.language.extra.libdevice."
#define PATH_PROPAGATE_NAN "triton.language.PropagateNan."
#define PATH_EXTRA_CUDA "triton.language.extra.cuda."
#define SHOW_TRITON "triton."
#define SHOW_TL "tl."
#define SHOW_PY ""
#define SHOW_MATH "math."
#define SHOW_LIBDEVICE "libdevice."
#define SHOW_PROPAGATE_NAN "tl.PropagateNan."
#define SHOW_EXTRA_CUDA "tl.extra.cuda."
#define MODPATH_TRITON "triton"
#define MODPATH_TL "triton.language"
#define MODPATH_MATH "math"
#define MODPATH_LIBDEVICE "triton.language.extra.libdevice"
#define MODPATH_PROPAGATE_NAN "triton.language.PropagateNan"
#define MODPATH_EXTRA_CUDA "triton.language.extra.cuda"

typedef enum BuiltinId {
#define MODULE(mod)
#define FN(id, mod, name, params, handler, op, ret, doc, pdoc) B_##id,
#define CONST(mod, name, value)
#define MEMBER(name, fn)
#include "builtins.def"
#undef MODULE
#undef FN
#undef CONST
#undef MEMBER
    B_COUNT_
} BuiltinId;

typedef struct Row {
    MtApiEntry api;
    FeBuiltin fn;             /* MT_API_FUNCTION */
    int kind;                 /* FvKind of the value: FV_BUILTIN, FV_DTYPE, FV_FLOAT, FV_MODULE */
    MtDtype dtype;
    double f;
} Row;

static const Row rows[] = {
#define MODULE(mod) {.api = {MODPATH_##mod, MODPATH_##mod, MT_API_MODULE}, .kind = FV_MODULE},
#define FN(id, mod, name, params, handler, op, ret, doc, pdoc)                                                    \
    {.api = {PATH_##mod name, SHOW_##mod name, MT_API_FUNCTION, params, ret, doc, pdoc},                      \
     .fn = {B_##id, PATH_##mod name, params, b_##handler, op},                                                  \
     .kind = FV_BUILTIN},
#define CONST(mod, name, value)                                                                                    \
    {.api = {PATH_##mod name, SHOW_##mod name, MT_API_CONSTANT, NULL, "float", NULL, NULL}, .kind = FV_FLOAT, \
     .f = value},
#define MEMBER(name, fn)
#include "builtins.def"
#undef MODULE
#undef FN
#undef CONST
#undef MEMBER
#define DTYPE(id, ir, sig, tl, numpy, npy, cuda, mlir, cls, bits, size, mant, rank)                              \
    {.api = {PATH_TL tl, SHOW_TL tl, MT_API_DTYPE, NULL, "dtype", NULL, NULL}, .kind = FV_DTYPE,                \
     .dtype = MT_DT_##id},
#include "mytriton/dtypes.def"
#undef DTYPE
};

/* The tensor methods: x.name(...) is function row `fn` with x first. */
static const struct Member {
    const char *name;
    BuiltinId fn;
} members[] = {
#define MODULE(mod)
#define FN(id, mod, name, params, handler, op, ret, doc, pdoc)
#define CONST(mod, name, value)
#define MEMBER(name, fn) {name, B_##fn},
#include "builtins.def"
#undef MODULE
#undef FN
#undef CONST
#undef MEMBER
};

enum { NROWS = sizeof rows / sizeof rows[0] };

size_t mt_api_count(void) { return NROWS; }

const MtApiEntry *mt_api_at(size_t i) { return i < NROWS ? &rows[i].api : NULL; }

/* Modules whose functions are math functions: tl.math has the TL rows of
 * math.def, libdevice (under all the paths Triton versions gave it) has
 * those and its own, and tl.abs / tl.umulhi. */
static const char *const math_modules[] = {
    "triton.language.math.", "triton.language.extra.libdevice.", "triton.language.extra.cuda.libdevice.",
    "triton.language.libdevice.",
};

/* The row whose path is prefix + name. */
static const Row *find_in(const char *prefix, const char *name)
{
    size_t n = strlen(prefix);
    for (size_t i = 0; i < NROWS; i++)
        if (!strncmp(rows[i].api.path, prefix, n) && !strcmp(rows[i].api.path + n, name))
            return &rows[i];
    return NULL;
}

static const Row *find_row(const char *path)
{
    const Row *r = find_in("", path);
    if (r)
        return r;
    for (size_t m = 0; m < sizeof math_modules / sizeof math_modules[0]; m++) {
        size_t n = strlen(math_modules[m]);
        if (strncmp(path, math_modules[m], n) != 0)
            continue;
        const char *name = path + n;
        if (m > 0 && (r = find_in(PATH_LIBDEVICE, name)))
            return r;
        r = find_in(PATH_TL, name);
        return r && r->kind == FV_BUILTIN && r->fn.handler == b_elementwise ? r : NULL;
    }
    return NULL;
}

const MtApiEntry *mt_api_find(const char *path)
{
    char buf[256];
    if (!strncmp(path, SHOW_LIBDEVICE, strlen(SHOW_LIBDEVICE)) &&
        (size_t)snprintf(buf, sizeof buf, "%s%s", PATH_LIBDEVICE, path + strlen(SHOW_LIBDEVICE)) < sizeof buf)
        path = buf;
    if (!strncmp(path, "tl.", 3)) {
        for (size_t i = 0; i < NROWS; i++)
            if (!strcmp(rows[i].api.name, path))
                return &rows[i].api;
        return NULL;
    }
    const Row *r = find_row(path);
    return r ? &r->api : NULL;
}

static const char *display(Fe *fe, const char *path)
{
    if (!strncmp(path, PATH_TL, strlen(PATH_TL)))
        return mt_sprintf(fe->c, "tl.%s", path + strlen(PATH_TL));
    if (!strncmp(path, PATH_PY, strlen(PATH_PY)))
        return path + strlen(PATH_PY);
    if (!strncmp(path, PATH_LIBDEVICE, strlen(PATH_LIBDEVICE)))
        return path + strlen("triton.language.extra.");
    return path;
}

bool fe_is_module(const char *path)
{
    size_t n = strlen(path);
    for (size_t m = 0; m < sizeof math_modules / sizeof math_modules[0]; m++)
        if (!strncmp(math_modules[m], path, n) && math_modules[m][n] == '.')
            return true;
    for (size_t i = 0; i < NROWS; i++)
        if (rows[i].kind == FV_MODULE && !strcmp(rows[i].api.path, path))
            return true;
    return false;
}

FValue fe_resolve_path(Fe *fe, const char *path)
{
    if (!strncmp(path, "mytriton", 8) && (path[8] == 0 || path[8] == '.'))
        path = mt_sprintf(fe->c, "triton%s", path + 8);
    if (fe_is_module(path)) {
        FValue v = {.kind = FV_MODULE};
        v.u.s = mt_arena_strndup(&fe->c->arena, path, strlen(path));
        return v;
    }
    const Row *r = find_row(path);
    if (!r) {
        FValue v = {.kind = FV_OPAQUE};
        v.u.s = display(fe, path);
        return v;
    }
    FValue v = {.kind = (uint8_t)r->kind};
    switch ((FvKind)r->kind) {
    case FV_BUILTIN: v.u.builtin = &r->fn; break;
    case FV_FLOAT: v.u.f = r->f; break;
    case FV_DTYPE: v.u.dtype = mt_ty_scalar(r->dtype); break;
    default: break;
    }
    return v;
}

/* ---- argument binding ------------------------------------------------------------------ */

/* The next parameter of a list "a, b=None, c=()": its name and default
 * text (NULL when required). Returns false at the end. */
static bool next_param(Fe *fe, const char **s, const char **name, const char **def)
{
    const char *p = *s;
    while (*p == ' ' || *p == ',')
        p++;
    if (!*p)
        return false;
    const char *n = p;
    while (*p && *p != '=' && *p != ',')
        p++;
    *name = mt_arena_strndup(&fe->c->arena, n, (size_t)(p - n));
    *def = NULL;
    if (*p == '=') {
        const char *d = ++p;
        int depth = 0;
        while (*p && (depth || *p != ',')) {
            depth += *p == '(' || *p == '[';
            depth -= *p == ')' || *p == ']';
            p++;
        }
        *def = mt_arena_strndup(&fe->c->arena, d, (size_t)(p - d));
    }
    *s = p;
    return true;
}

/* A default as the table spells it: a literal, (), '' or a tl dtype name. */
static FValue default_value(Fe *fe, const char *text)
{
    if (!strcmp(text, "()")) {
        FValue t = {.kind = FV_TUPLE};
        return t;
    }
    if (!strcmp(text, "''")) {
        FValue s = {.kind = FV_STR};
        s.u.s = "";
        return s;
    }
    FValue v;
    if (py_parse_literal(fe->c, text, &v))
        return v;
    return fe_resolve_path(fe, mt_sprintf(fe->c, PATH_TL "%s", text));
}

/* Bind a call's arguments to bi's parameters; the first missing required
 * parameter, an unknown keyword or a duplicate is E0305. */
static bool bind(Fe *fe, const FeBuiltin *bi, const CallArgs *a, FeArgs *b, MtSpan sp)
{
    const char *fname = display(fe, bi->path);
    const char *s = bi->params, *name, *def;
    const char *defs[FE_MAX_PARAMS];
    while (b->n < FE_MAX_PARAMS && next_param(fe, &s, &name, &def)) {
        b->names[b->n] = name;
        defs[b->n++] = def;
    }
    uint32_t n = b->n;
    /* "*shape": the remaining positional arguments, as a tuple; the
     * parameters after it are keyword-only */
    uint32_t star = n;
    for (uint32_t i = 0; i < n && star == n; i++)
        if (b->names[i][0] == '*')
            star = i;
    if (star < n) {
        b->names[star]++;
        FValue t = {.kind = FV_TUPLE};
        uint32_t rest = a->npos > star ? a->npos - star : 0;
        t.u.tup.v = mt_arena_alloc(&fe->c->arena, (rest + 1) * sizeof *t.u.tup.v);
        for (uint32_t i = 0; i < rest; i++)
            t.u.tup.v[i] = a->pos[star + i];
        t.u.tup.n = rest;
        b->v[star] = t;
        b->sp[star] = rest ? mt_span_join(a->pos_span[star], a->pos_span[a->npos - 1]) : sp;
        b->given[star] = true;
    } else if (a->npos > n) {
        fe_error(fe, a->pos_span[n], "E0305", "%s takes at most %u positional argument%s, got %u", fname, n,
                 n == 1 ? "" : "s", a->npos);
        return false;
    }
    for (uint32_t i = 0; i < a->npos && i < star; i++) {
        b->v[i] = a->pos[i];
        b->sp[i] = a->pos_span[i];
        b->given[i] = true;
    }
    for (uint32_t k = 0; k < a->nkw; k++) {
        if (!a->kw_name[k]) {
            fe_error(fe, a->kw_span[k], "E0203", "keyword unpacking (**kwargs) is not supported in kernels");
            return false;
        }
        uint32_t j = n;
        for (uint32_t i = 0; i < n; i++)
            if (!strcmp(b->names[i], a->kw_name[k]))
                j = i;
        if (j == n) {
            fe_error(fe, a->kw_span[k], "E0305", "%s got an unexpected keyword argument '%s'", fname, a->kw_name[k]);
            return false;
        }
        if (b->given[j]) {
            fe_error(fe, a->kw_span[k], "E0305", "%s got multiple values for argument '%s'", fname, b->names[j]);
            return false;
        }
        b->v[j] = a->kw[k];
        b->sp[j] = a->kw_span[k];
        b->given[j] = true;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (b->given[i])
            continue;
        if (!defs[i]) {
            fe_error(fe, sp, "E0305", "%s missing required argument '%s'", fname, b->names[i]);
            return false;
        }
        b->v[i] = default_value(fe, defs[i]);
        b->sp[i] = sp;
    }
    return true;
}

const char *fe_builtin_name(const FeBuiltin *bi) { return bi->path; }

const char *fe_builtin_display(Fe *fe, const FeBuiltin *bi) { return display(fe, bi->path); }

FValue fe_call_builtin(Fe *fe, const FeBuiltin *bi, const CallArgs *a, MtSpan sp)
{
    FeArgs b = {.call = a};
    if (bi->params && !bind(fe, bi, a, &b, sp))
        return fv_undef();
    return bi->handler(fe, bi, &b, sp);
}

const FeBuiltin *fe_tensor_method(const char *name)
{
    for (size_t m = 0; m < sizeof members / sizeof members[0]; m++) {
        if (strcmp(members[m].name, name) != 0)
            continue;
        for (size_t i = 0; i < NROWS; i++)
            if (rows[i].kind == FV_BUILTIN && rows[i].fn.id == (int)members[m].fn)
                return &rows[i].fn;
    }
    return NULL;
}
