/* tl_api.c: the supported triton.language surface, for hover, completion
 * and signature help.
 *
 * One row per function or dtype mytriton compiles, with Triton's parameter
 * names (the ones the compiler binds keywords by, see
 * compiler/frontend/builtins.c) and what mytriton does with each. Options
 * Triton accepts and mytriton ignores are not listed. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"

enum { K_FUNCTION = 3, K_CLASS = 7, K_CONSTANT = 21 };

#define FN(name, sig, ret, doc, kind, ...)                                                                    \
    {name, sig, ret, doc, (const TlParam[]){__VA_ARGS__},                                                    \
     (int)(sizeof((const TlParam[]){__VA_ARGS__}) / sizeof(TlParam)), kind}

static const TlFunc funcs[] = {
    FN("program_id", "tl.program_id(axis)", "i32",
       "The index of this program instance along grid axis 0, 1 or 2 (blockIdx in CUDA).", K_FUNCTION,
       {"axis", "0, 1 or 2; a compile-time constant"}),
    FN("arange", "tl.arange(start, end)", "vector<end-start x i32>",
       "The integers start, start+1, ..., end-1 as a rank-1 block. The length end - start must be a "
       "compile-time power of two (pad and mask the tail otherwise).",
       K_FUNCTION, {"start", "compile-time integer"}, {"end", "compile-time integer, end > start"}),
    FN("load", "tl.load(pointer, mask=None, other=None)", "a block of the pointee type, shaped like pointer",
       "Load from a pointer or a block of pointers. Lanes where mask is false are not read and take other "
       "(undefined without it).",
       K_FUNCTION, {"pointer", "pointer or block of pointers (base + offsets)"},
       {"mask", "bool block broadcastable to pointer; None: every lane is read"},
       {"other", "value for masked-off lanes, e.g. 0.0"}),
    FN("store", "tl.store(pointer, value, mask=None)", "None",
       "Store value (broadcast to the pointer's shape) through a pointer or block of pointers; lanes where "
       "mask is false are not written.",
       K_FUNCTION, {"pointer", "pointer or block of pointers"}, {"value", "number or block broadcastable to pointer"},
       {"mask", "bool block broadcastable to pointer"}),
    FN("zeros", "tl.zeros(shape, dtype)", "block<shape x dtype> of zeros",
       "A block filled with zeros; shape is an int or a tuple of at most two ints (compile-time).", K_FUNCTION,
       {"shape", "int or tuple of at most two ints"}, {"dtype", "tl.int1, tl.int32 or tl.float32"}),
    FN("full", "tl.full(shape, value, dtype)", "block<shape x dtype> filled with value",
       "A block filled with a scalar value.", K_FUNCTION, {"shape", "int or tuple of at most two ints"},
       {"value", "scalar fill value"}, {"dtype", "tl.int1, tl.int32 or tl.float32"}),
    FN("empty", "tl.empty(shape, dtype)", "block<shape x dtype>, uninitialised",
       "A block with undefined contents (reading it is W0801); meant to be overwritten.", K_FUNCTION,
       {"shape", "int or tuple of at most two ints"}, {"dtype", "tl.int1, tl.int32 or tl.float32"}),
    FN("where", "tl.where(condition, x, y)", "the broadcast of x and y",
       "Elementwise select: x where condition is true, y elsewhere. Use it instead of a runtime `if`.",
       K_FUNCTION, {"condition", "bool scalar or block"}, {"x", "value where true"}, {"y", "value where false"}),
    FN("maximum", "tl.maximum(x, y)", "the broadcast of x and y", "Elementwise maximum.", K_FUNCTION,
       {"x", "number or block"}, {"y", "number or block"}),
    FN("minimum", "tl.minimum(x, y)", "the broadcast of x and y", "Elementwise minimum.", K_FUNCTION,
       {"x", "number or block"}, {"y", "number or block"}),
    FN("exp", "tl.exp(x)", "f32, shaped like x", "Elementwise e**x on f32 values (convert integers first).",
       K_FUNCTION, {"x", "f32 scalar or block"}),
    FN("sum", "tl.sum(input, axis=None)", "the element type (a scalar)",
       "Sum of a rank-1 block (axis 0 or none), lowered as a shared-memory tree over the CUDA block.", K_FUNCTION,
       {"input", "rank-1 block"}, {"axis", "0 or None"}),
    FN("max", "tl.max(input, axis=None)", "the element type (a scalar)", "Maximum of a rank-1 block.", K_FUNCTION,
       {"input", "rank-1 block"}, {"axis", "0 or None"}),
    FN("min", "tl.min(input, axis=None)", "the element type (a scalar)", "Minimum of a rank-1 block.", K_FUNCTION,
       {"input", "rank-1 block"}, {"axis", "0 or None"}),
    FN("dot", "tl.dot(input, other, acc=None)", "block<M x N x f32>",
       "Matrix product of f32 blocks [M, K] and [K, N], plus acc when given; computed in full fp32, with "
       "operands staged through shared memory.",
       K_FUNCTION, {"input", "block<M x K x f32>"}, {"other", "block<K x N x f32>"},
       {"acc", "block<M x N x f32> to accumulate into"}),
    FN("expand_dims", "tl.expand_dims(input, axis)", "a rank-2 block",
       "Insert an axis of size 1: expand_dims(x, 1) is x[:, None], expand_dims(x, 0) is x[None, :].", K_FUNCTION,
       {"input", "rank-1 block"}, {"axis", "0 or 1, compile-time"}),
    FN("static_range", "tl.static_range(start, stop=None, step=1)", "a compile-time range",
       "A loop range unrolled at compile time; the induction variable is a constant in each copy.", K_FUNCTION,
       {"start", "compile-time int (the stop when alone)"}, {"stop", "compile-time int"},
       {"step", "compile-time int"}),
    FN("range", "tl.range(start, stop=None, step=1)", "a runtime range",
       "A loop that stays a loop (an scf.for-style region with loop-carried values), even with constant "
       "bounds.",
       K_FUNCTION, {"start", "int (the stop when alone)"}, {"stop", "int, may be a runtime value"},
       {"step", "positive compile-time int"}),
    FN("constexpr", "tl.constexpr", "a compile-time value",
       "Annotation of a kernel parameter whose value is known at compile time (block sizes, flags); the "
       "kernel is specialised for it.",
       K_CLASS, {"value", "compile-time value"}),
    FN("static_assert", "tl.static_assert(cond, msg='')", "None",
       "Fail the compilation (E0309) when a compile-time condition is false.", K_FUNCTION,
       {"cond", "compile-time condition"}, {"msg", "message shown on failure"}),
    FN("static_print", "tl.static_print(*values)", "None",
       "Print compile-time values while compiling (an information diagnostic in the editor).", K_FUNCTION,
       {"values", "compile-time values"}),
    FN("cdiv", "tl.cdiv(x, div)", "ceil(x / div)", "Ceiling division of integers, at compile time when possible.",
       K_FUNCTION, {"x", "int"}, {"div", "int"}),
    FN("int1", "tl.int1", "dtype", "Boolean element type (bool in SSA, *i1 pointers).", K_CONSTANT,
       {"", ""}),
    FN("int32", "tl.int32", "dtype", "32-bit integer element type (i32).", K_CONSTANT, {"", ""}),
    FN("float32", "tl.float32", "dtype", "32-bit float element type (f32).", K_CONSTANT, {"", ""}),
};

const TlFunc *mt_lsp_tl_at(size_t i) { return i < sizeof funcs / sizeof funcs[0] ? &funcs[i] : NULL; }

const TlFunc *mt_lsp_tl_find(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++)
        if (strlen(funcs[i].name) == len && !strncmp(funcs[i].name, name, len))
            return &funcs[i];
    return NULL;
}

static bool ident_char(char ch) { return isalnum((unsigned char)ch) || ch == '_'; }

/* Whether a line `import ... language as NAME` or `from ... import
 * language as NAME` binds the n-byte name at text+at: the fallback while
 * the code around the cursor does not parse. */
static bool alias_line(const Doc *d, uint32_t at, uint32_t n)
{
    for (uint32_t l = 0; l < d->nlines; l++) {
        const char *s = d->text + d->lines[l];
        const char *e = l + 1 < d->nlines ? d->text + d->lines[l + 1] : d->text + d->len;
        if (strncmp(s, "import ", 7) && strncmp(s, "from ", 5))
            continue;
        const char *lang = strstr(s, "language");
        const char *as = strstr(s, " as ");
        if (!lang || !as || lang > e || as > e || as < lang)
            continue;
        as += 4;
        if ((size_t)(e - as) >= n && !strncmp(as, d->text + at, n) && (as + n == e || !ident_char(as[n])))
            return true;
    }
    return false;
}

/* Whether the import that binds the name at `at` brings in triton.language. */
static bool imports_language(Doc *d, uint32_t at, uint32_t n)
{
    MtQueryDef def;
    if (!d->m || !mt_query_definition(d->m, at, &def) || def.def.end > d->len)
        return alias_line(d, at, n) || (n == 2 && !strncmp(d->text + at, "tl", 2));
    if (def.kind != MT_DEF_IMPORT)
        return false;
    /* The import statement's line: `import triton.language as tl`,
     * `from triton import language as tl`. */
    uint32_t b = def.def.off, e = def.def.end;
    while (b > 0 && d->text[b - 1] != '\n')
        b--;
    while (e < d->len && d->text[e] != '\n')
        e++;
    for (uint32_t i = b; i + 8 <= e; i++)
        if (!strncmp(d->text + i, "language", 8))
            return true;
    return false;
}

bool mt_lsp_tl_module_at(Doc *d, uint32_t dot)
{
    if (dot == 0 || dot >= d->len || d->text[dot] != '.')
        return false;
    uint32_t e = dot, b = dot;
    while (b > 0 && ident_char(d->text[b - 1]))
        b--;
    if (b == e)
        return false;
    if (e - b == 8 && !strncmp(d->text + b, "language", 8) && b > 0 && d->text[b - 1] == '.')
        return true; /* triton.language.x */
    if (b > 0 && d->text[b - 1] == '.')
        return false;
    return imports_language(d, b, e - b);
}

bool mt_lsp_tl_attribute(Doc *d, uint32_t off, uint32_t *start, uint32_t *end, const TlFunc **f)
{
    if (off > d->len)
        return false;
    uint32_t b = off, e = off;
    while (b > 0 && ident_char(d->text[b - 1]))
        b--;
    while (e < d->len && ident_char(d->text[e]))
        e++;
    if (b == e || b == 0 || !mt_lsp_tl_module_at(d, b - 1))
        return false;
    *f = mt_lsp_tl_find(d->text + b, e - b);
    *start = b;
    *end = e;
    return *f != NULL;
}

char *mt_lsp_tl_markdown(const TlFunc *f, bool markdown)
{
    size_t cap = 4096;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    int n = markdown ? snprintf(s, cap, "```python\n%s\n```\n%s\n\n*returns* %s", f->signature, f->doc, f->returns)
                     : snprintf(s, cap, "%s\n%s\nreturns %s", f->signature, f->doc, f->returns);
    for (int i = 0; i < f->nparams && n > 0 && (size_t)n < cap; i++)
        if (f->params[i].name[0])
            n += snprintf(s + n, cap - (size_t)n, markdown ? "%s- `%s`: %s" : "%s- %s: %s", i ? "\n" : "\n\n",
                          f->params[i].name, f->params[i].doc);
    return s;
}
