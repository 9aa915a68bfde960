/* launch_spec.c: reading launch specs, overriding them, deriving signatures
 * and binding them to a compiled kernel.
 *
 * cJSON parses the text; this file walks the tree and checks every field,
 * naming it in the message ("args.y.shape[0]: ..."). cJSON keeps only a
 * double for a number, but the spec needs what the literal was: 1000 is an
 * i32 argument and 1000.0 an fp32 one, as in Python, and integers must be
 * exact to 64 bits. Since cJSON builds objects and arrays in document order,
 * the k-th number node of a pre-order walk is the k-th number literal of the
 * text; a small scan outside string literals recovers each literal's text.
 *
 * Checking happens as early as it can: parse checks everything the JSON
 * alone decides (types, names, shapes, generator parameters, grid syntax);
 * bind checks what needs the kernel (argument types, dtypes of npy files,
 * grid values). Outputs are filled as they go and freed whole on error, so
 * a failed call never hands back half a spec or half a launch.
 */
#include "launch_spec.h"
#include "errbuf.h"
#include "fileio.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"

#define MAX_PATH_TEXT 160     /* "args.<name>.shape[7]" and the like */

/* Record what went wrong and where: field (a spec path, "" for none),
 * message, and the one-line text "field: message". */
__attribute__((format(printf, 4, 5)))
static MtStatus spec_fail(MtSpecError *e, MtStatus st, const char *field, const char *fmt, ...) {
    if (!e) return st;
    memset(e, 0, sizeof *e);
    e->status = st;
    snprintf(e->field, sizeof e->field, "%s", field ? field : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    snprintf(e->text, sizeof e->text, "%s%s%s", e->field, *e->field ? ": " : "", e->msg);
    return st;
}

static MtStatus nomem(MtSpecError *e) { return spec_fail(e, MT_ERR_NOMEM, NULL, "out of memory"); }

/* A problem with the argument `name`: field "args.<name>". */
__attribute__((format(printf, 4, 5)))
static MtStatus arg_fail(MtSpecError *e, MtStatus st, const char *name, const char *fmt, ...) {
    char field[MAX_PATH_TEXT], msg[sizeof e->msg];
    snprintf(field, sizeof field, "args.%.100s", name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return spec_fail(e, st, field, "%s", msg);
}

static bool is_ident(const char *s) {
    if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return false;
    for (s++; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

/* base_dir + "/" + rel, or rel itself when it is absolute or there is no base. */
static char *join_path(const char *base, const char *rel) {
    if (rel[0] == '/' || !base || !*base) return strdup(rel);
    size_t nb = strlen(base), nr = strlen(rel);
    bool slash = base[nb - 1] != '/';
    char *s = malloc(nb + slash + nr + 1);
    if (!s) return NULL;
    memcpy(s, base, nb);
    if (slash) s[nb] = '/';
    memcpy(s + nb + slash, rel, nr + 1);
    return s;
}

/* ---- parse context ------------------------------------------------------- */

typedef struct NumLit {
    const cJSON *node;
    const char *text;         /* the literal in the JSON text, not NUL-terminated */
    size_t len;
} NumLit;

typedef struct Ctx {
    NumLit *nums;
    size_t nnums;
    const char *base_dir;
    MtSpecError *e;
} Ctx;

/* A field of the spec is wrong. */
__attribute__((format(printf, 3, 4)))
static MtStatus fail(Ctx *c, const char *path, const char *fmt, ...) {
    char msg[sizeof c->e->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return spec_fail(c->e, MT_ERR_USAGE, path, "%s", msg);
}

static size_t count_numbers(const cJSON *v) {
    if (cJSON_IsNumber(v)) return 1;
    size_t n = 0;
    for (const cJSON *k = v->child; k; k = k->next) n += count_numbers(k);
    return n;
}

static void list_numbers(const cJSON *v, NumLit *nums, size_t *n) {
    if (cJSON_IsNumber(v)) nums[(*n)++].node = v;
    for (const cJSON *k = v->child; k; k = k->next) list_numbers(k, nums, n);
}

/* Pair each number node with its literal: the k-th literal outside strings
 * is the k-th number of the pre-order walk. Returns the literals seen. */
static size_t scan_literals(const char *s, NumLit *nums, size_t cap) {
    size_t k = 0;
    const char *p = s;
    while (*p) {
        if (*p == '"') {
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1]) p++;
            if (*p) p++;
        } else if (*p == '-' || (*p >= '0' && *p <= '9')) {
            const char *q = p;
            while (*q && strchr("0123456789+-.eE", *q)) q++;
            if (k < cap) {
                nums[k].text = p;
                nums[k].len = (size_t)(q - p);
            }
            k++;
            p = q;
        } else {
            p++;
        }
    }
    return k;
}

static const NumLit *literal(const Ctx *c, const cJSON *v) {
    for (size_t i = 0; i < c->nnums; i++)
        if (c->nums[i].node == v) return &c->nums[i];
    return NULL;
}

static bool literal_is_float(const NumLit *l) {
    return memchr(l->text, '.', l->len) || memchr(l->text, 'e', l->len) || memchr(l->text, 'E', l->len);
}

/* How a JSON value reads in a message: the literal, the string quoted, or
 * its kind. */
static const char *describe(const Ctx *c, const cJSON *v, char *buf, size_t n) {
    if (cJSON_IsNumber(v)) {
        const NumLit *l = literal(c, v);
        snprintf(buf, n, "%.*s", l ? (int)l->len : 0, l ? l->text : "");
    } else if (cJSON_IsString(v)) {
        snprintf(buf, n, "\"%.40s%s\"", v->valuestring, strlen(v->valuestring) > 40 ? "..." : "");
    } else if (cJSON_IsBool(v)) {
        snprintf(buf, n, "%s", cJSON_IsTrue(v) ? "true" : "false");
    } else if (cJSON_IsNull(v)) {
        snprintf(buf, n, "null");
    } else if (cJSON_IsArray(v)) {
        snprintf(buf, n, "a list");
    } else {
        snprintf(buf, n, "an object");
    }
    return buf;
}

#define GOT(c, v) describe((c), (v), got, sizeof got)

/* An integer literal (not 1.0, not 1e3) that fits in int64. */
static bool int_literal(const Ctx *c, const cJSON *v, int64_t *out) {
    if (!cJSON_IsNumber(v)) return false;
    const NumLit *l = literal(c, v);
    if (!l || literal_is_float(l) || l->len >= 64) return false;
    char buf[64];
    memcpy(buf, l->text, l->len);
    buf[l->len] = 0;
    errno = 0;
    char *end;
    long long x = strtoll(buf, &end, 10);
    if (errno || *end) return false;
    *out = x;
    return true;
}

/* A number, a bool or "nan"/"inf"/"-inf" as an MtScalar. Returns 1 when v is
 * such a scalar, 0 when it is something else (the caller says what it
 * expected), -1 when it is a number out of range (reported here). */
static int to_value(Ctx *c, const char *path, const cJSON *v, MtScalar *out) {
    char got[64];
    memset(out, 0, sizeof *out);
    if (cJSON_IsBool(v)) {
        out->kind = MT_SCALAR_BOOL;
        out->i = cJSON_IsTrue(v);
        out->f = (double)out->i;
        return 1;
    }
    if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        if (strcmp(s, "nan") && strcmp(s, "inf") && strcmp(s, "-inf")) return 0;
        out->kind = MT_SCALAR_FLOAT;
        out->f = s[0] == 'n' ? NAN : s[0] == '-' ? -INFINITY : INFINITY;
        return 1;
    }
    if (!cJSON_IsNumber(v)) return 0;
    const NumLit *l = literal(c, v);
    if (l && literal_is_float(l)) {
        if (!isfinite(v->valuedouble)) {
            fail(c, path, "number %s is out of range", GOT(c, v));
            return -1;
        }
        out->kind = MT_SCALAR_FLOAT;
        out->f = v->valuedouble;
        return 1;
    }
    if (!int_literal(c, v, &out->i)) {
        fail(c, path, "integer %s is out of range", GOT(c, v));
        return -1;
    }
    out->kind = MT_SCALAR_INT;
    out->f = (double)out->i;
    return 1;
}

/* Any number (int or float literal) as a double. */
static bool to_number(const Ctx *c, const cJSON *v, double *out) {
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) return false;
    int64_t i;
    *out = int_literal(c, v, &i) ? (double)i : v->valuedouble;
    return true;
}

/* Duplicate keys (cJSON keeps them all) and, when `keys` is given, keys
 * outside that list. */
static MtStatus check_keys(Ctx *c, const char *path, const cJSON *obj, const char *const *keys,
                           size_t nkeys) {
    for (const cJSON *k = obj->child; k; k = k->next) {
        for (const cJSON *j = obj->child; j != k; j = j->next)
            if (strcmp(j->string, k->string) == 0) return fail(c, path, "duplicate key '%s'", k->string);
        if (!keys) continue;
        size_t i = 0;
        while (i < nkeys && strcmp(keys[i], k->string) != 0) i++;
        if (i < nkeys) continue;
        char list[256] = "";
        for (i = 0; i < nkeys; i++) {
            strcat(list, i ? ", " : "");
            strcat(list, keys[i]);
        }
        return fail(c, path, "unknown key '%s' (expected one of: %s)", k->string, list);
    }
    return MT_OK;
}

/* ---- fields ----------------------------------------------------------------- */

static MtStatus dup_into(Ctx *c, char **dst, const char *s) {
    *dst = strdup(s);
    return *dst ? MT_OK : nomem(c->e);
}

static MtStatus string_field(Ctx *c, const char *path, const cJSON *v, const char *what, char **dst) {
    char got[64];
    if (!cJSON_IsString(v) || !*v->valuestring)
        return fail(c, path, "expected %s, got %s", what, GOT(c, v));
    return dup_into(c, dst, v->valuestring);
}

/* A non-negative count or an expression (bytes, flops) as expression text.
 * Float literals with an integral value (1.2e10) are counts too. */
static MtStatus count_field(Ctx *c, const char *path, const cJSON *v, char **dst) {
    char got[64], buf[32];
    if (cJSON_IsString(v)) {
        char msg[256];
        if (mt_grid_check(v->valuestring, msg, sizeof msg)) return fail(c, path, "%s", msg);
        return dup_into(c, dst, v->valuestring);
    }
    double d;
    if (!to_number(c, v, &d) || d < 0 || d != floor(d) || d >= 0x1p63)
        return fail(c, path, "expected a non-negative integer or an expression string, got %s", GOT(c, v));
    snprintf(buf, sizeof buf, "%" PRId64, (int64_t)d);
    return dup_into(c, dst, buf);
}

static MtStatus grid_field(Ctx *c, const cJSON *v, MtLaunchSpec *s) {
    char got[64], path[MAX_PATH_TEXT];
    if (!cJSON_IsArray(v))
        return fail(c, "grid", "expected a list of 1 to 3 integers or expression strings, got %s", GOT(c, v));
    int n = cJSON_GetArraySize(v);
    if (n < 1 || n > 3) return fail(c, "grid", "expected 1 to 3 entries, got %d", n);
    int d = 0;
    for (const cJSON *e = v->child; e; e = e->next, d++) {
        snprintf(path, sizeof path, "grid[%d]", d);
        int64_t i;
        if (cJSON_IsString(e)) {
            char msg[256];
            if (mt_grid_check(e->valuestring, msg, sizeof msg)) return fail(c, path, "%s", msg);
            if (dup_into(c, &s->grid[d], e->valuestring)) return MT_ERR_NOMEM;
        } else if (int_literal(c, e, &i)) {
            if (i < 1) return fail(c, path, "expected a positive integer, got %s", GOT(c, e));
            char buf[32];
            snprintf(buf, sizeof buf, "%" PRId64, i);
            if (dup_into(c, &s->grid[d], buf)) return MT_ERR_NOMEM;
        } else {
            return fail(c, path, "expected an integer or an expression string, got %s", GOT(c, e));
        }
        s->grid_dims = d + 1;
    }
    return MT_OK;
}

static MtStatus tolerance_field(Ctx *c, const cJSON *v, MtLaunchSpec *s) {
    static const char *const keys[] = {"rtol", "atol"};
    char got[64];
    if (!cJSON_IsObject(v))
        return fail(c, "tolerance", "expected an object {\"rtol\": R, \"atol\": A}, got %s", GOT(c, v));
    MtStatus st = check_keys(c, "tolerance", v, keys, 2);
    if (st) return st;
    for (const cJSON *k = v->child; k; k = k->next) {
        double d;
        char path[MAX_PATH_TEXT];
        snprintf(path, sizeof path, "tolerance.%s", k->string);
        if (!to_number(c, k, &d) || d < 0)
            return fail(c, path, "expected a non-negative number, got %s", GOT(c, k));
        *(strcmp(k->string, "rtol") == 0 ? &s->rtol : &s->atol) = d;
    }
    s->has_tolerance = true;
    return MT_OK;
}

/* A constexpr's string other than "nan", "inf", "-inf": a dtype when it
 * names one as -D does (mt_dtype_literal: "tl.float16", "torch.float32"),
 * otherwise a string constexpr. 1 done, -1 out of memory. */
static int string_value(Ctx *c, const char *text, MtScalar *out) {
    memset(out, 0, sizeof *out);
    if (mt_dtype_literal(text, &out->dtype)) {
        out->kind = MT_SCALAR_DTYPE;
        return 1;
    }
    out->kind = MT_SCALAR_STR;
    if (!(out->s = strdup(text))) {
        nomem(c->e);
        return -1;
    }
    return 1;
}

static MtStatus constexprs_field(Ctx *c, const cJSON *v, MtLaunchSpec *s) {
    char got[64];
    if (!cJSON_IsObject(v)) return fail(c, "constexprs", "expected an object of named values, got %s", GOT(c, v));
    MtStatus st = check_keys(c, "constexprs", v, NULL, 0);
    if (st) return st;
    size_t n = (size_t)cJSON_GetArraySize(v);
    if (n && !(s->constexprs = calloc(n, sizeof *s->constexprs))) return nomem(c->e);
    for (const cJSON *k = v->child; k; k = k->next) {
        char path[MAX_PATH_TEXT];
        snprintf(path, sizeof path, "constexprs.%.100s", k->string);
        if (!is_ident(k->string)) return fail(c, "constexprs", "'%s' is not a parameter name", k->string);
        MtSpecConst *e = &s->constexprs[s->nconstexprs++];
        if (dup_into(c, &e->name, k->string)) return MT_ERR_NOMEM;
        int r = to_value(c, path, k, &e->value);
        if (r < 0) return MT_ERR_USAGE;
        if (r == 0 && cJSON_IsString(k)) r = string_value(c, k->valuestring, &e->value);
        if (r < 0) return MT_ERR_NOMEM;
        if (r == 0)
            return fail(c, path, "expected a number, a bool or a string (a dtype such as \"tl.float16\", or a "
                                 "string constexpr such as \"leaky_relu\"), got %s", GOT(c, k));
    }
    return MT_OK;
}

/* {"dtype": ..., "shape": [...], "init": ..., parameters} */
static MtStatus generated_arg(Ctx *c, const char *path, const cJSON *v, MtSpecArg *a) {
    static const char *const keys[] = {"dtype", "shape", "init", "value", "low", "high", "mean", "std", "seed"};
    char got[64], sub[MAX_PATH_TEXT + 16];
    MtStatus st = check_keys(c, path, v, keys, sizeof keys / sizeof keys[0]);
    if (st) return st;
    MtArrayGen *g = &a->gen;
    a->kind = MT_SPEC_ARG_GENERATED;

    const cJSON *dtype = cJSON_GetObjectItemCaseSensitive(v, "dtype");
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(v, "shape");
    const cJSON *init = cJSON_GetObjectItemCaseSensitive(v, "init");
    if (!dtype) return fail(c, path, "missing 'dtype' (an array argument needs 'dtype' and 'shape', or 'npy')");
    snprintf(sub, sizeof sub, "%s.dtype", path);
    int dt = cJSON_IsString(dtype) ? mt_dtype_from_name(dtype->valuestring) : -1;
    if (dt < 0)
        return fail(c, sub,
                    "expected a dtype name (\"float32\", \"float16\", \"bfloat16\", \"int32\", \"int64\", "
                    "\"uint8\", \"bool\", ...), got %s",
                    GOT(c, dtype));
    g->dtype = (MtDtype)dt;

    if (!shape) return fail(c, path, "missing 'shape' (a list of dimensions, [] for a scalar)");
    snprintf(sub, sizeof sub, "%s.shape", path);
    if (!cJSON_IsArray(shape))
        return fail(c, sub, "expected a list of at most %d positive integers, got %s", MT_ARRAY_MAX_DIMS, GOT(c, shape));
    if (cJSON_GetArraySize(shape) > MT_ARRAY_MAX_DIMS)
        return fail(c, sub, "%d dimensions; at most %d are supported", cJSON_GetArraySize(shape), MT_ARRAY_MAX_DIMS);
    for (const cJSON *e = shape->child; e; e = e->next) {
        snprintf(sub, sizeof sub, "%s.shape[%d]", path, g->ndim);
        if (!int_literal(c, e, &g->shape[g->ndim]) || g->shape[g->ndim] < 1)
            return fail(c, sub, "expected a positive integer, got %s", GOT(c, e));
        g->ndim++;
    }

    g->init = MT_INIT_ZEROS;
    if (init) {
        snprintf(sub, sizeof sub, "%s.init", path);
        int in = cJSON_IsString(init) ? mt_init_from_name(init->valuestring) : -1;
        if (in < 0)
            return fail(c, sub, "expected one of zeros, ones, arange, constant, uniform, normal; got %s", GOT(c, init));
        g->init = (MtInit)in;
    }

    /* Each parameter belongs to one generator; a stray one is a mistake
     * (a "low" on a normal array would otherwise be silently ignored). */
    bool uniform_range = g->init == MT_INIT_UNIFORM && g->dtype != MT_DT_I1;
    g->b = g->init == MT_INIT_NORMAL || g->init == MT_INIT_UNIFORM ? 1 : 0;
    bool have_value = false, have_low = false, have_high = false;
    for (const cJSON *k = v->child; k; k = k->next) {
        const char *key = k->string;
        if (!strcmp(key, "dtype") || !strcmp(key, "shape") || !strcmp(key, "init")) continue;
        snprintf(sub, sizeof sub, "%s.%s", path, key);
        if (!strcmp(key, "value")) {
            if (g->init != MT_INIT_CONSTANT) return fail(c, sub, "only used with init 'constant'");
            MtScalar val;
            int r = to_value(c, sub, k, &val);
            if (r < 0) return MT_ERR_USAGE;
            if (r == 0)
                return fail(c, sub, "expected a number, a bool, \"nan\", \"inf\" or \"-inf\", got %s", GOT(c, k));
            g->a = val.f;
            have_value = true;
        } else if (!strcmp(key, "seed")) {
            if (g->init != MT_INIT_UNIFORM && g->init != MT_INIT_NORMAL)
                return fail(c, sub, "only used with init 'uniform' or 'normal'");
            int64_t seed;
            if (!int_literal(c, k, &seed) || seed < 0)
                return fail(c, sub, "expected a non-negative integer, got %s", GOT(c, k));
            g->seed = (uint64_t)seed;
        } else {
            bool range = !strcmp(key, "low") || !strcmp(key, "high");
            if (range && g->init == MT_INIT_UNIFORM && !uniform_range)
                return fail(c, sub, "not used by a bool 'uniform' array (fair coin flips)");
            if (range && !uniform_range) return fail(c, sub, "only used with init 'uniform'");
            if (!range && g->init != MT_INIT_NORMAL) return fail(c, sub, "only used with init 'normal'");
            double d;
            if (!to_number(c, k, &d)) return fail(c, sub, "expected a number, got %s", GOT(c, k));
            if (!strcmp(key, "low") || !strcmp(key, "mean")) g->a = d;
            else g->b = d;
            have_low |= !strcmp(key, "low");
            have_high |= !strcmp(key, "high");
        }
    }
    if (g->init == MT_INIT_CONSTANT && !have_value) return fail(c, path, "init 'constant' needs 'value'");
    /* [0, 1) is a fine default for floats, but for integers it is all
     * zeros: almost surely not what was meant. */
    if (uniform_range && g->dtype == MT_DT_I32 && !(have_low && have_high))
        return fail(c, path, "int32 'uniform' needs 'low' and 'high' (integers; high is excluded)");
    char msg[256];
    if (mt_array_gen_check(g, msg, sizeof msg)) return fail(c, path, "%s", msg);
    return MT_OK;
}

static MtStatus parse_arg(Ctx *c, const cJSON *v, MtSpecArg *a) {
    char got[64], path[MAX_PATH_TEXT], sub[MAX_PATH_TEXT + 16];
    snprintf(path, sizeof path, "args.%.100s", v->string);
    if (!is_ident(v->string)) return fail(c, "args", "'%s' is not a parameter name", v->string);
    if (dup_into(c, &a->name, v->string)) return MT_ERR_NOMEM;
    if (cJSON_IsObject(v)) {
        const cJSON *npy = cJSON_GetObjectItemCaseSensitive(v, "npy");
        if (!npy) return generated_arg(c, path, v, a);
        MtStatus st = check_keys(c, path, v, NULL, 0);
        if (st) return st;
        for (const cJSON *k = v->child; k; k = k->next)
            if (strcmp(k->string, "npy") != 0) {
                snprintf(sub, sizeof sub, "%s.%s", path, k->string);
                return fail(c, sub, "not allowed next to 'npy' (the file gives the dtype and shape)");
            }
        snprintf(sub, sizeof sub, "%s.npy", path);
        a->kind = MT_SPEC_ARG_NPY;
        if ((st = string_field(c, sub, npy, "a file name (a string)", &a->npy))) return st;
        if (!(a->npy_path = join_path(c->base_dir, a->npy))) return nomem(c->e);
        return MT_OK;
    }
    a->kind = MT_SPEC_ARG_SCALAR;
    int r = to_value(c, path, v, &a->value);
    if (r < 0) return MT_ERR_USAGE;
    if (r == 0)
        return fail(c, path,
                    "expected a number, a bool, \"nan\", \"inf\", \"-inf\" or an array object, got %s",
                    GOT(c, v));
    return MT_OK;
}

static MtStatus args_field(Ctx *c, const cJSON *v, MtLaunchSpec *s) {
    char got[64];
    if (!cJSON_IsObject(v)) return fail(c, "args", "expected an object of named arguments, got %s", GOT(c, v));
    MtStatus st = check_keys(c, "args", v, NULL, 0);
    if (st) return st;
    size_t n = (size_t)cJSON_GetArraySize(v);
    if (n && !(s->args = calloc(n, sizeof *s->args))) return nomem(c->e);
    for (const cJSON *k = v->child; k; k = k->next)
        if ((st = parse_arg(c, k, &s->args[s->nargs++]))) return st;
    return MT_OK;
}

static MtStatus parse_root(Ctx *c, const cJSON *root, MtLaunchSpec *s) {
    static const char *const keys[] = {"source", "kernel", "signature", "grid", "constexprs",
                                       "args", "bytes", "flops", "tolerance"};
    char got[64];
    if (!cJSON_IsObject(root)) return fail(c, NULL, "expected a JSON object at the top level, got %s", GOT(c, root));
    MtStatus st = check_keys(c, NULL, root, keys, sizeof keys / sizeof keys[0]);
    if (st) return st;
    for (const cJSON *k = root->child; k; k = k->next) {
        const char *key = k->string;
        if (!strcmp(key, "source")) {
            st = string_field(c, key, k, "a file name (a string)", &s->source);
            if (!st && !(s->source_path = join_path(c->base_dir, s->source))) st = nomem(c->e);
        } else if (!strcmp(key, "kernel")) {
            if (!cJSON_IsString(k) || !is_ident(k->valuestring))
                return fail(c, key, "expected a kernel name (a string), got %s", GOT(c, k));
            st = dup_into(c, &s->kernel, k->valuestring);
        } else if (!strcmp(key, "signature")) {
            st = string_field(c, key, k, "a string such as \"*fp32,*fp32,i32,256\"", &s->signature);
        } else if (!strcmp(key, "grid")) {
            st = grid_field(c, k, s);
        } else if (!strcmp(key, "constexprs")) {
            st = constexprs_field(c, k, s);
        } else if (!strcmp(key, "args")) {
            st = args_field(c, k, s);
        } else if (!strcmp(key, "bytes")) {
            st = count_field(c, key, k, &s->bytes);
        } else if (!strcmp(key, "flops")) {
            st = count_field(c, key, k, &s->flops);
        } else {
            st = tolerance_field(c, k, s);
        }
        if (st) return st;
    }
    if (!s->grid_dims) return fail(c, "grid", "missing (a list of 1 to 3 integers or expression strings)");
    for (size_t i = 0; i < s->nconstexprs; i++)
        for (size_t j = 0; j < s->nargs; j++)
            if (!strcmp(s->constexprs[i].name, s->args[j].name)) {
                char path[MAX_PATH_TEXT];
                snprintf(path, sizeof path, "constexprs.%.100s", s->args[j].name);
                return fail(c, path, "'%s' is also given in args; give it once", s->args[j].name);
            }
    return MT_OK;
}

/* Line and column (1-based, in bytes) of p in text. */
static void line_col(const char *text, const char *p, int *line, int *col) {
    *line = 1;
    const char *bol = text;
    for (const char *q = text; q < p; q++)
        if (*q == '\n') {
            (*line)++;
            bol = q + 1;
        }
    *col = (int)(p - bol) + 1;
}

static MtStatus parse_text(const char *text, const char *base_dir, MtLaunchSpec *s, MtSpecError *e) {
    memset(s, 0, sizeof *s);
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root) {
        /* cJSON points at the byte where it gave up (the NUL at the end
         * for text that stops early). */
        int line, col;
        line_col(text, end, &line, &col);
        int n = 0;
        while (end[n] && end[n] != '\n' && end[n] != '\r' && n < 20) n++;
        char where[64];
        if (!*end) snprintf(where, sizeof where, "at the end of the text");
        else if (!n) snprintf(where, sizeof where, "at the end of the line");
        else snprintf(where, sizeof where, "near '%.*s'", n, end);
        spec_fail(e, MT_ERR_USAGE, NULL, "invalid JSON %s", where);
        if (e) {
            e->line = line;
            e->col = col;
            snprintf(e->text, sizeof e->text, "%d:%d: %s", line, col, e->msg);
        }
        return MT_ERR_USAGE;
    }
    Ctx c = {.base_dir = base_dir, .e = e};
    MtStatus st = MT_OK;
    size_t n = count_numbers(root);
    if (n && !(c.nums = calloc(n, sizeof *c.nums))) st = nomem(e);
    if (!st) {
        size_t k = 0;
        list_numbers(root, c.nums, &k);
        c.nnums = n;
        if (scan_literals(text, c.nums, n) != n) st = fail(&c, NULL, "internal error: number literals out of step");
    }
    if (!st && (!(s->base_dir = strdup(base_dir ? base_dir : "")) || !(s->text = strdup(text)))) st = nomem(e);
    if (!st) st = parse_root(&c, root, s);
    free(c.nums);
    cJSON_Delete(root);
    if (st) mt_launch_spec_free(s);
    return st;
}

MtStatus mt_launch_spec_parse(const char *json_text, const char *base_dir, MtLaunchSpec *spec, MtSpecError *e) {
    return parse_text(json_text, base_dir, spec, e);
}

MtStatus mt_launch_spec_load(const char *path, MtLaunchSpec *spec, MtSpecError *e) {
    memset(spec, 0, sizeof *spec);
    char *text, msg[sizeof e->msg];
    size_t n;
    MtStatus st = mt_file_read(path, MT_FILE_SPEC, &text, &n, msg, sizeof msg);
    if (st) {
        /* fileio's message starts with the path already. */
        spec_fail(e, st, NULL, "%s", msg);
        return st;
    }
    if (strlen(text) != n) {
        free(text);
        spec_fail(e, MT_ERR_USAGE, NULL, "not a text file (it contains a NUL byte)");
    } else {
        const char *slash = strrchr(path, '/');
        char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup("");
        st = dir ? parse_text(text, dir, spec, e) : nomem(e);
        free(dir);
        free(text);
        if (!st && !(spec->path = strdup(path))) {
            mt_launch_spec_free(spec);
            st = nomem(e);
        }
        if (!st) return MT_OK;
    }
    /* The path first: "spec.json:4:1: invalid JSON ...", "spec.json: grid: ...". */
    char *t = e ? malloc(strlen(path) + 3 + strlen(e->text)) : NULL;
    if (t) {
        sprintf(t, "%s%s%s", path, e->line ? ":" : ": ", e->text);
        snprintf(e->text, sizeof e->text, "%s", t);
        free(t);
    }
    return e ? e->status : MT_ERR_USAGE;
}

void mt_launch_spec_free(MtLaunchSpec *s) {
    if (!s) return;
    free(s->path);
    free(s->text);
    free(s->source);
    free(s->source_path);
    free(s->kernel);
    free(s->signature);
    for (int i = 0; i < 3; i++) free(s->grid[i]);
    for (size_t i = 0; i < s->nconstexprs; i++) {
        free(s->constexprs[i].name);
        free(s->constexprs[i].value.s);
    }
    free(s->constexprs);
    for (size_t i = 0; i < s->nargs; i++) {
        free(s->args[i].name);
        free(s->args[i].npy);
        free(s->args[i].npy_path);
    }
    free(s->args);
    free(s->bytes);
    free(s->flops);
    free(s->base_dir);
    memset(s, 0, sizeof *s);
}

/* ---- --set ------------------------------------------------------------------- */

/* VALUE of NAME=VALUE: the spec's scalar forms, written as on a command line. */
static bool parse_value_text(const char *t, MtScalar *v) {
    memset(v, 0, sizeof *v);
    if (!strcmp(t, "true") || !strcmp(t, "True") || !strcmp(t, "false") || !strcmp(t, "False")) {
        v->kind = MT_SCALAR_BOOL;
        v->i = t[0] == 't' || t[0] == 'T';
        v->f = (double)v->i;
        return true;
    }
    v->kind = MT_SCALAR_FLOAT;
    if (!strcmp(t, "nan")) v->f = NAN;
    else if (!strcmp(t, "inf") || !strcmp(t, "+inf")) v->f = INFINITY;
    else if (!strcmp(t, "-inf")) v->f = -INFINITY;
    else {
        /* Decimal only: strtod would also take "0x1p3", "infinity", "nan(1)". */
        if (!*t || strspn(t, "0123456789+-.eE") != strlen(t)) return false;
        char *end;
        errno = 0;
        long long i = strtoll(t, &end, 10);
        if (!*end) {
            if (errno) return false;
            v->kind = MT_SCALAR_INT;
            v->i = i;
            v->f = (double)i;
            return true;
        }
        v->f = strtod(t, &end);
        if (*end || !isfinite(v->f)) return false;
    }
    return true;
}

/* VALUE of NAME=VALUE that is not a number: a dtype or a quoted string,
 * read as -D reads them (mt_literal_parse). MT_ERR_USAGE when it is
 * neither (nothing recorded in e), MT_ERR_NOMEM. */
static MtStatus constexpr_text(const char *t, MtScalar *v, MtSpecError *e) {
    memset(v, 0, sizeof *v);
    MtCtx *c = mt_ctx_new(NULL);
    if (!c) return nomem(e);
    MtLiteral lit;
    MtStatus st = MT_ERR_USAGE;
    if (mt_literal_parse(c, t, &lit) && lit.kind == MT_LITERAL_DTYPE) {
        v->kind = MT_SCALAR_DTYPE;
        v->dtype = lit.dtype;
        st = MT_OK;
    } else if (lit.kind == MT_LITERAL_STR && lit.s) {
        v->kind = MT_SCALAR_STR;
        st = (v->s = strdup(lit.s)) ? MT_OK : nomem(e);
    }
    mt_ctx_free(c);
    return st;
}

MtStatus mt_launch_spec_set(MtLaunchSpec *s, const char *asg, MtSpecError *e) {
    const char *eq = strchr(asg, '=');
    char name[128];
    size_t nlen = eq ? (size_t)(eq - asg) : 0;
    if (!eq || nlen >= sizeof name) {
        return spec_fail(e, MT_ERR_USAGE, NULL, "'%s': expected NAME=VALUE", asg);
    }
    memcpy(name, asg, nlen);
    name[nlen] = 0;
    if (!is_ident(name)) {
        return spec_fail(e, MT_ERR_USAGE, NULL, "'%s': '%s' is not a parameter name", asg, name);
    }
    MtScalar v;
    MtStatus st = MT_OK;
    if (!parse_value_text(eq + 1, &v) && (st = constexpr_text(eq + 1, &v, e)) != MT_OK) {
        if (st == MT_ERR_NOMEM) return st;
        return spec_fail(e, MT_ERR_USAGE, NULL,
                         "%s: '%s' is not a number, a bool, nan, inf, a dtype (tl.float16) or a quoted string "
                         "('leaky_relu')", asg, eq + 1);
    }
    for (size_t i = 0; i < s->nargs; i++)
        if (!strcmp(s->args[i].name, name)) {
            if (s->args[i].kind != MT_SPEC_ARG_SCALAR) {
                free(v.s);
                return spec_fail(e, MT_ERR_USAGE, NULL,
                                 "%s: argument '%s' is an array; only scalars and constexprs can be set", asg, name);
            }
            if (v.kind == MT_SCALAR_STR || v.kind == MT_SCALAR_DTYPE) {
                free(v.s);
                return spec_fail(e, MT_ERR_USAGE, NULL,
                                 "%s: argument '%s' is a runtime scalar; only constexprs take a %s", asg, name,
                                 v.kind == MT_SCALAR_STR ? "string" : "dtype");
            }
            s->args[i].value = v;
            return MT_OK;
        }
    for (size_t i = 0; i < s->nconstexprs; i++)
        if (!strcmp(s->constexprs[i].name, name)) {
            free(s->constexprs[i].value.s);
            s->constexprs[i].value = v;
            return MT_OK;
        }
    MtSpecConst *grown = realloc(s->constexprs, (s->nconstexprs + 1) * sizeof *grown);
    if (!grown) {
        free(v.s);
        return nomem(e);
    }
    s->constexprs = grown;
    if (!(grown[s->nconstexprs].name = strdup(name))) {
        free(v.s);
        return nomem(e);
    }
    grown[s->nconstexprs++].value = v;
    return MT_OK;
}

/* ---- signature ------------------------------------------------------------------ */

static const MtSpecArg *find_arg(const MtLaunchSpec *s, const char *name) {
    for (size_t i = 0; i < s->nargs; i++)
        if (!strcmp(s->args[i].name, name)) return &s->args[i];
    return NULL;
}

static const MtSpecConst *find_const(const MtLaunchSpec *s, const char *name) {
    for (size_t i = 0; i < s->nconstexprs; i++)
        if (!strcmp(s->constexprs[i].name, name)) return &s->constexprs[i];
    return NULL;
}

/* "x, y, out, n, BLOCK" */
static void param_list(char *buf, size_t n, const char *const *names, size_t count) {
    size_t k = 0;
    buf[0] = 0;
    for (size_t i = 0; i < count && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "", names[i]);
}

/* A value as a signature literal: 256, True, 0.5, tl.float16 (a string
 * is written by value_literal_alloc). */
static bool value_literal(const MtScalar *v, char out[40]) {
    if (v->kind == MT_SCALAR_INT) snprintf(out, 40, "%" PRId64, v->i);
    else if (v->kind == MT_SCALAR_BOOL) snprintf(out, 40, "%s", v->i ? "True" : "False");
    else if (v->kind == MT_SCALAR_DTYPE) snprintf(out, 40, "tl.%s", mt_dtype_info(v->dtype)->tl);
    else if (v->kind == MT_SCALAR_STR || !isfinite(v->f)) return false;
    else mt_format_float(out, v->f, false);
    return true;
}

/* Any value as a signature literal, strings included ('leaky_relu', quoted
 * as the compiler reads it back: mt_literal_quote); malloc'ed. NULL with
 * *nomem false: nan or an infinity, which have no literal. */
static char *value_literal_alloc(const MtScalar *v, bool *nomem) {
    char buf[40];
    char *out = NULL;
    *nomem = false;
    if (v->kind == MT_SCALAR_STR) {
        size_t n = mt_literal_quote(NULL, 0, v->s);
        if ((out = malloc(n + 1))) mt_literal_quote(out, n + 1, v->s);
    } else if (value_literal(v, buf)) {
        out = strdup(buf);
    } else {
        return NULL;
    }
    *nomem = !out;
    return out;
}

/* "*fp32:16", "*bf16:16", "*i64:16", ...: dtypes.def's signature spelling
 * of a runtime-allocated array (aligned, so a multiple of 16). */
static void dtype_pointer_type(MtDtype dt, char out[40]) { snprintf(out, 40, "*%s:16", mt_dtype_info(dt)->sig); }

/* The signature entry of one runtime parameter from its argument, with
 * Triton's ":16" where the value is a multiple of 16: the arrays the
 * runtime allocates are (64 bytes on the host, 256 on the device), and
 * integers that are let the compiler vectorise row accesses. */
static MtStatus entry_for_arg(const MtSpecArg *a, char out[40], MtSpecError *e) {
    char path[MAX_PATH_TEXT];
    snprintf(path, sizeof path, "args.%.100s%s", a->name, a->kind == MT_SPEC_ARG_NPY ? ".npy" : "");
    if (a->kind == MT_SPEC_ARG_GENERATED) {
        dtype_pointer_type(a->gen.dtype, out);
    } else if (a->kind == MT_SPEC_ARG_NPY) {
        MtNpyInfo info;
        char msg[512];
        MtStatus st = mt_npy_read_header(a->npy_path, &info, msg, sizeof msg);
        if (st) return spec_fail(e, st, path, "%s", msg);
        dtype_pointer_type(info.dtype, out);
    } else if (a->value.kind == MT_SCALAR_INT) {
        if (a->value.i < INT32_MIN || a->value.i > INT32_MAX) {
            return spec_fail(e, MT_ERR_USAGE, path, "%" PRId64 " does not fit in i32", a->value.i);
        }
        snprintf(out, 40, a->value.i % 16 ? "i32" : "i32:16");
    } else {
        snprintf(out, 40, "%s", a->value.kind == MT_SCALAR_FLOAT ? "fp32" : "i1");
    }
    return MT_OK;
}

MtStatus mt_launch_spec_signature(const MtLaunchSpec *s, const MtKernelInfo *k, char **out, MtSpecError *e) {
    *out = NULL;
    if (s->signature) {
        if (!(*out = strdup(s->signature))) return nomem(e);
        return MT_OK;
    }
    const char *names[64];
    size_t np = k->nparams < 64 ? k->nparams : 64;
    for (size_t i = 0; i < np; i++) names[i] = k->params[i].name;
    char plist[512];
    param_list(plist, sizeof plist, names, np);
    /* Every argument and constexpr must name a parameter. */
    for (size_t pass = 0; pass < 2; pass++) {
        size_t n = pass ? s->nconstexprs : s->nargs;
        for (size_t i = 0; i < n; i++) {
            const char *nm = pass ? s->constexprs[i].name : s->args[i].name;
            size_t j = 0;
            while (j < k->nparams && strcmp(k->params[j].name, nm)) j++;
            if (j == k->nparams) {
                char field[MAX_PATH_TEXT];
                snprintf(field, sizeof field, "%s.%.100s", pass ? "constexprs" : "args", nm);
                return spec_fail(e, MT_ERR_USAGE, field, "kernel %s has no parameter '%s' (its parameters: %s)",
                                 k->name, nm, plist);
            }
        }
    }
    size_t cap = 41 * (k->nparams + 1), len = 0, keep = 0;
    char *sig = malloc(cap);
    if (!sig) return nomem(e);
    sig[0] = 0;
    MtStatus st = MT_OK;
    for (uint32_t i = 0; i < k->nparams && !st; i++) {
        const MtParamInfo *p = &k->params[i];
        const MtSpecConst *cv = find_const(s, p->name);
        const MtSpecArg *a = find_arg(s, p->name);
        char fixed[40] = "", *lit = NULL;
        const char *entry = fixed;
        if (cv || (p->constexpr_ && a && a->kind == MT_SPEC_ARG_SCALAR)) {
            const MtScalar *v = cv ? &cv->value : &a->value;
            bool oom;
            if ((entry = lit = value_literal_alloc(v, &oom)) == NULL) {
                char field[MAX_PATH_TEXT];
                snprintf(field, sizeof field, "%s.%.100s", cv ? "constexprs" : "args", p->name);
                st = oom ? nomem(e)
                         : spec_fail(e, MT_ERR_USAGE, field, "%s has no literal form for a signature",
                                     v->f != v->f ? "nan" : "an infinity");
                entry = "";
            }
        } else if (p->constexpr_) {
            if (a)
                st = arg_fail(e, MT_ERR_USAGE, p->name,
                              "constexpr %s takes a number, a bool or a string, not an array", p->name);
        } else if (!a) {
            st = spec_fail(e, MT_ERR_USAGE, "args", "missing argument '%s' of kernel %s", p->name, k->name);
        } else {
            st = entry_for_arg(a, fixed, e);
        }
        size_t need = len + strlen(entry) + 2;
        if (!st && need > cap) {
            char *grown = realloc(sig, cap = need * 2);
            if (!grown) st = nomem(e);
            else sig = grown;
        }
        if (!st) {
            len += (size_t)snprintf(sig + len, cap - len, "%s%s", i ? "," : "", entry);
            if (*entry) keep = len;
        }
        free(lit);
    }
    if (st) {
        free(sig);
        return st;
    }
    sig[keep] = 0;
    *out = sig;
    return MT_OK;
}

/* ---- binding ---------------------------------------------------------------------- */

void mt_launch_free(MtLaunch *l) {
    if (!l) return;
    for (size_t i = 0; i < l->nargs; i++) {
        free(l->args[i].name);
        free(l->args[i].type);
        free(l->args[i].npy_path);
        mt_array_free(l->args[i].array);
    }
    free(l->args);
    memset(l, 0, sizeof *l);
}

/* A specialised parameter's Python literal: True/False, an integer, a float. */
static bool literal_value(const char *t, MtScalar *v) { return t && parse_value_text(t, v); }

/* A parameter type ("*fp16", "i64", "fp32", "i1", ...): an array of a
 * dtype, or a scalar: a bool, an integer (MT_ARG_I32 carries every integer
 * width) or a float (MT_ARG_F32 every float width). */
static bool param_type(const char *t, MtArgKind *kind, MtDtype *dt) {
    bool ptr = t[0] == '*';
    if (!mt_dtype_parse(ptr ? t + 1 : t, dt)) return false;
    const MtDtypeInfo *d = mt_dtype_info(*dt);
    *kind = ptr ? MT_ARG_ARRAY : d->cls == MT_DC_BOOL ? MT_ARG_I1 : d->cls == MT_DC_FLOAT ? MT_ARG_F32 : MT_ARG_I32;
    return true;
}

/* The range of an integer dtype (u64's top half is given as negative int64 bits). */
static void int_range(MtDtype dt, int64_t *lo, int64_t *hi) {
    const MtDtypeInfo *d = mt_dtype_info(dt);
    if (d->bits == 64) {
        *lo = INT64_MIN;
        *hi = INT64_MAX;
    } else if (d->cls == MT_DC_UINT) {
        *lo = 0;
        *hi = ((int64_t)1 << d->bits) - 1;
    } else {
        *lo = -((int64_t)1 << (d->bits - 1));
        *hi = ((int64_t)1 << (d->bits - 1)) - 1;
    }
}

/* The largest finite value of a float dtype. */
static double float_max(MtDtype dt) {
    switch (dt) {
    case MT_DT_F16: return 65504.0;
    case MT_DT_BF16: return 0x1.fep127;
    case MT_DT_F32: return 3.4028234663852886e38;
    case MT_DT_I1:
    case MT_DT_I8:
    case MT_DT_I16:
    case MT_DT_I32:
    case MT_DT_I64:
    case MT_DT_U8:
    case MT_DT_U16:
    case MT_DT_U32:
    case MT_DT_U64:
    case MT_DT_F64:
    case MT_DTYPE_COUNT: break;
    }
    return 1.7976931348623157e308;
}

static const char *value_text(const MtScalar *v, char out[40]) {
    if (v->kind == MT_SCALAR_STR) mt_literal_quote(out, 40, v->s);
    else if (!value_literal(v, out)) snprintf(out, 40, "%s", v->f != v->f ? "nan" : v->f < 0 ? "-inf" : "inf");
    return out;
}

/* Check a scalar argument against its parameter's type and store it. */
static MtStatus bind_scalar(const MtSpecArg *a, const MtKernelParam *p, MtLaunchArg *la, MtSpecError *e) {
    const MtScalar *v = &a->value;
    char t[40];
    value_text(v, t);
    if (v->kind == MT_SCALAR_STR || v->kind == MT_SCALAR_DTYPE)
        return arg_fail(e, MT_ERR_USAGE, a->name, "parameter %s (%s) needs a number, got %s", p->name, p->type, t);
    if (la->kind == MT_ARG_I32) {
        if (v->kind != MT_SCALAR_INT) {
            return arg_fail(e, MT_ERR_USAGE, a->name, "parameter %s (%s) needs an integer, got %s", p->name, p->type, t);
        }
        int64_t lo, hi;
        int_range(la->dtype, &lo, &hi);
        if (v->i < lo || v->i > hi) {
            return arg_fail(e, MT_ERR_USAGE, a->name, "%s is out of the %s range of parameter %s", t, p->type, p->name);
        }
        la->ival = v->i;
    } else if (la->kind == MT_ARG_F32) {
        if (v->kind == MT_SCALAR_BOOL) {
            return arg_fail(e, MT_ERR_USAGE, a->name, "parameter %s (%s) needs a number, got %s", p->name, p->type, t);
        }
        if (isfinite(v->f) && fabs(v->f) > float_max(la->dtype)) {
            return arg_fail(e, MT_ERR_USAGE, a->name, "%s is out of the %s range of parameter %s", t, p->type, p->name);
        }
        la->fval = v->f;
    } else {
        if (v->kind == MT_SCALAR_FLOAT || (v->kind == MT_SCALAR_INT && v->i != 0 && v->i != 1)) {
            return arg_fail(e, MT_ERR_USAGE, a->name, "parameter %s (i1) needs a bool (or 0 or 1), got %s", p->name, t);
        }
        la->ival = v->i;
    }
    return MT_OK;
}

/* Load or generate an array argument and check its dtype. */
static MtStatus bind_array(const MtSpecArg *a, const MtKernelParam *p, MtDtype want, MtLaunchArg *la,
                           MtSpecError *e) {
    char msg[512];
    MtStatus st;
    if (a->kind == MT_SPEC_ARG_GENERATED) {
        if (a->gen.dtype != want) {
            return arg_fail(e, MT_ERR_USAGE, a->name, "%s array expected for parameter %s (%s), got %s",
                            mt_dtype_name(want), p->name, p->type, mt_dtype_name(a->gen.dtype));
        }
        st = mt_array_generate(&a->gen, &la->array, msg, sizeof msg);
    } else {
        st = mt_npy_read(a->npy_path, &la->array, msg, sizeof msg);
        if (!st && want == MT_DT_BF16 && la->array->dtype == MT_DT_F32) {
            /* numpy has no bfloat16: float32 data is rounded (to nearest even) on the way in */
            st = mt_array_to_bf16(la->array, msg, sizeof msg);
        }
        if (!st && la->array->dtype != want) {
            return arg_fail(e, MT_ERR_USAGE, a->name, "%s array expected for parameter %s (%s), got %s (%s)%s",
                            mt_dtype_name(want), p->name, p->type, mt_dtype_name(la->array->dtype), a->npy,
                            want == MT_DT_BF16 ? "; give bfloat16 data as a float32 .npy" : "");
        }
        if (!st && !(la->npy_path = strdup(a->npy_path))) return nomem(e);
    }
    if (!st) return MT_OK;
    if (a->kind == MT_SPEC_ARG_GENERATED) return arg_fail(e, st, a->name, "%s", msg);
    char field[MAX_PATH_TEXT];
    snprintf(field, sizeof field, "args.%.100s.npy", a->name);
    return spec_fail(e, st, field, "%s", msg);
}

typedef struct Names {
    const MtLaunch *l;
    const MtKernelParam *params;
    size_t nparams;
} Names;

static int grid_lookup(void *ud, const char *name, int64_t *value) {
    const Names *nm = ud;
    for (size_t i = 0; i < nm->l->nargs; i++) {
        const MtLaunchArg *a = &nm->l->args[i];
        if (strcmp(a->name, name)) continue;
        if (a->kind != MT_ARG_I32 && a->kind != MT_ARG_I1) return MT_GRID_NOT_INT;
        *value = a->ival;
        return MT_GRID_FOUND;
    }
    for (size_t i = 0; i < nm->nparams; i++) {
        const MtKernelParam *p = &nm->params[i];
        if (p->type || strcmp(p->name, name)) continue;
        MtScalar v;
        if (!literal_value(p->value, &v) || v.kind == MT_SCALAR_FLOAT) return MT_GRID_NOT_INT;
        *value = v.i;
        return MT_GRID_FOUND;
    }
    return MT_GRID_UNKNOWN;
}

static MtStatus eval_count(const char *what, const char *expr, Names *nm, int64_t *out, MtSpecError *e) {
    char msg[512];
    if (!expr) {
        *out = -1;
        return MT_OK;
    }
    if (mt_grid_eval(expr, grid_lookup, nm, out, msg, sizeof msg))
        return spec_fail(e, MT_ERR_USAGE, what, "%s", msg);
    if (*out < 0)
        return spec_fail(e, MT_ERR_USAGE, what, "%s is %" PRId64 "; a count cannot be negative", expr, *out);
    return MT_OK;
}

static MtStatus bind(const MtLaunchSpec *s, const MtKernelParam *params, size_t np, MtLaunch *l, MtSpecError *e) {
    char kname[160];
    if (s->kernel) snprintf(kname, sizeof kname, "kernel %.140s", s->kernel);
    else snprintf(kname, sizeof kname, "the kernel");
    for (size_t i = 0; i < s->nargs; i++) {
        size_t j = 0;
        while (j < np && strcmp(params[j].name, s->args[i].name)) j++;
        if (j < np) continue;
        const char *names[64];
        size_t n = np < 64 ? np : 64;
        for (size_t q = 0; q < n; q++) names[q] = params[q].name;
        char plist[512];
        param_list(plist, sizeof plist, names, n);
        return arg_fail(e, MT_ERR_USAGE, s->args[i].name, "%s has no parameter '%s' (its parameters: %s)", kname,
                        s->args[i].name, plist);
    }
    size_t nrt = 0;
    for (size_t i = 0; i < np; i++) nrt += params[i].type != NULL;
    if (nrt && !(l->args = calloc(nrt, sizeof *l->args))) return nomem(e);
    for (size_t i = 0; i < np; i++) {
        const MtKernelParam *p = &params[i];
        const MtSpecArg *a = find_arg(s, p->name);
        if (!p->type) {
            /* Specialised: an argument of that name must say the same. */
            MtScalar pv;
            if (!a) continue;
            if (a->kind != MT_SPEC_ARG_SCALAR || !literal_value(p->value, &pv) ||
                !(pv.f == a->value.f || (pv.f != pv.f && a->value.f != a->value.f))) {
                char t[40];
                return arg_fail(e, MT_ERR_USAGE, p->name, "%s is specialised with %s=%s, but args gives %s", kname,
                                p->name, p->value ? p->value : "?",
                                a->kind == MT_SPEC_ARG_SCALAR ? value_text(&a->value, t) : "an array");
            }
            continue;
        }
        MtLaunchArg *la = &l->args[l->nargs++];
        MtDtype dt;
        if (!param_type(p->type, &la->kind, &dt)) {
            return spec_fail(e, MT_ERR_USAGE, NULL, "parameter %s of %s has type '%s', which launches do not support",
                             p->name, kname, p->type);
        }
        la->dtype = dt;
        if (!(la->name = strdup(p->name)) || !(la->type = strdup(p->type))) return nomem(e);
        if (!a) return spec_fail(e, MT_ERR_USAGE, "args", "missing argument '%s' (%s) of %s", p->name, p->type, kname);
        bool want_array = la->kind == MT_ARG_ARRAY;
        if (want_array != (a->kind != MT_SPEC_ARG_SCALAR)) {
            char t[40];
            if (want_array)
                return arg_fail(e, MT_ERR_USAGE, a->name,
                                "parameter %s (%s) takes an array ({\"npy\": ...} or {\"dtype\": ..., \"shape\": ...}), "
                                "got %s", p->name, p->type, value_text(&a->value, t));
            return arg_fail(e, MT_ERR_USAGE, a->name, "parameter %s (%s) takes a scalar, got an array", p->name,
                            p->type);
        }
        MtStatus st = want_array ? bind_array(a, p, dt, la, e) : bind_scalar(a, p, la, e);
        if (st) return st;
    }

    Names nm = {.l = l, .params = params, .nparams = np};
    static const int64_t limits[3] = {INT32_MAX, 65535, 65535}; /* CUDA's gridDim limits */
    l->grid_dims = s->grid_dims;
    for (int d = 0; d < 3; d++) {
        l->grid[d] = 1;
        if (d >= s->grid_dims) continue;
        char what[16], msg[512];
        snprintf(what, sizeof what, "grid[%d]", d);
        if (mt_grid_eval(s->grid[d], grid_lookup, &nm, &l->grid[d], msg, sizeof msg))
            return spec_fail(e, MT_ERR_USAGE, what, "%s", msg);
        if (l->grid[d] < 1 || l->grid[d] > limits[d])
            return spec_fail(e, MT_ERR_USAGE, what, "%s is %" PRId64 "; it must be between 1 and %" PRId64, s->grid[d],
                             l->grid[d], limits[d]);
    }
    MtStatus st = eval_count("bytes", s->bytes, &nm, &l->bytes, e);
    if (!st) st = eval_count("flops", s->flops, &nm, &l->flops, e);
    return st;
}

void mt_launch_arg_bytes(const MtLaunchArg *a, uint64_t *slot) {
    *slot = 0;
    if (a->kind == MT_ARG_F32)
        mt_dtype_set(a->dtype, slot, 0, a->fval);
    else
        memcpy(slot, &a->ival, mt_dtype_info(a->dtype)->size); /* little-endian: the low bytes */
}

bool mt_launch_i32_overflow(const MtLaunch *l, int64_t per_program, char *msg, size_t msglen) {
    int64_t programs, elements;
    bool over = __builtin_mul_overflow(l->grid[0], l->grid[1], &programs) ||
                __builtin_mul_overflow(programs, l->grid[2], &programs) ||
                __builtin_mul_overflow(programs, per_program > 0 ? per_program : 1, &elements) || elements > INT32_MAX;
    if (!over) return false;
    mt_errf(msg, msglen,
            "the grid has %" PRId64 " programs of %" PRId64 " elements each, more than an i32 offset reaches "
            "(2147483647): offsets computed in i32, such as tl.program_id(0) * BLOCK, overflow and wrap to "
            "negative values; use fewer programs, or compute offsets in int64",
            programs, per_program);
    return true;
}

MtStatus mt_launch_bind(const MtLaunchSpec *spec, const MtKernelParam *params, size_t nparams, MtLaunch *out,
                        MtSpecError *e) {
    memset(out, 0, sizeof *out);
    MtStatus st = bind(spec, params, nparams, out, e);
    if (st) mt_launch_free(out);
    return st;
}
