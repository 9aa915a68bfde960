/* check_parser.c: the module walker, jit detection, the kernel parser and
 * mt_parse (syntax/parser.c, syntax/module.c, syntax/ast.c).
 *
 * Diagnostics are compared as "E0105 3:10-3:11 message" lines; node
 * checks assert kinds, fields and line:col spans. The data files live in
 * tests/unit/data/syntax/ next to this file. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/ctx.h"
#include "base/strbuf.h"
#include "syntax/parser.h"

typedef struct Parsed {
    MtCtx *c;
    MtModule *m;
    MtStatus st;
} Parsed;

static Parsed parsen(const char *src, size_t len)
{
    Parsed p = {mt_ctx_new(NULL), NULL, MT_OK};
    p.st = mt_parse(p.c, "t.py", src, len, &p.m);
    ck_assert_ptr_nonnull(p.m);
    return p;
}

static Parsed parse(const char *src) { return parsen(src, strlen(src)); }

/* A kernel `k(x)` whose body is `body` (lines indented by four spaces):
 * the body starts on line 3. */
static Parsed kernel_src(const char *body)
{
    static const char head[] = "@triton.jit\ndef k(x):\n";
    size_t n = strlen(body);
    char *src = malloc(sizeof head + n);
    memcpy(src, head, sizeof head - 1);
    memcpy(src + sizeof head - 1, body, n + 1);
    Parsed p = parse(src);
    free(src);
    return p;
}

static const char *span_text(MtCtx *c, MtSpan s)
{
    return mt_sprintf(c, "%u:%u-%u:%u", s.line, s.col, s.end_line, s.end_col);
}

static const char *diags(Parsed *p)
{
    MtBuf b;
    mt_buf_init(&b, &p->c->arena);
    for (size_t i = 0; i < mt_diag_count(p->c); i++) {
        const MtDiag *d = mt_diag_at(p->c, i);
        mt_buf_printf(&b, "%s %s %s\n", d->code, span_text(p->c, d->span), d->msg);
    }
    return mt_buf_str(&b);
}

#define SPAN(p, s) span_text((p)->c, (s))

static const MtFuncDef *fn0(Parsed *p)
{
    ck_assert_uint_ge(p->m->nfuncs, 1);
    return p->m->funcs[0];
}

/* Statement i of the first kernel. */
static const MtNode *stmt(Parsed *p, uint32_t i)
{
    const MtFuncDef *fn = fn0(p);
    ck_assert_uint_lt(i, fn->body.n);
    return fn->body.v[i];
}

/* The value of `y = <expr>` written as the kernel's statement i. */
static const MtNode *value_of(Parsed *p, uint32_t i)
{
    const MtNode *s = stmt(p, i);
    ck_assert_int_eq(s->kind, ND_ASSIGN);
    return s->u.assign.value;
}

static char *data_file(const char *name, size_t *len)
{
    const char *slash = strrchr(__FILE__, '/');
    int dir = slash ? (int)(slash - __FILE__) : 0;
    char path[4096];
    snprintf(path, sizeof path, "%.*s%sdata/syntax/%s", dir, __FILE__, slash ? "/" : "", name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    s[n] = 0;
    *len = (size_t)n;
    return s;
}

/* ---- the realistic file -------------------------------------------------------- */

START_TEST(host_file_has_two_kernels_and_no_diagnostics)
{
    size_t len;
    char *src = data_file("host_and_kernels.py", &len);
    Parsed p = parsen(src, len);
    ck_assert_str_eq(diags(&p), "");
    ck_assert_int_eq(p.st, MT_OK);
    ck_assert_uint_eq(mt_module_kernel_count(p.m), 2);

    const MtKernelInfo *add = mt_module_kernel(p.m, 0);
    ck_assert_str_eq(add->name, "add_kernel");
    ck_assert_str_eq(SPAN(&p, add->span), "61:1-67:60");
    ck_assert_str_eq(SPAN(&p, add->name_span), "62:5-62:15");
    ck_assert_str_eq(add->directive, "BLOCK=256");
    ck_assert_str_eq(SPAN(&p, add->directive_span), "60:1-60:22");
    ck_assert_uint_eq(add->nparams, 5);
    static const char *const names[] = {"x", "y", "out", "n", "BLOCK"};
    for (int i = 0; i < 5; i++) {
        ck_assert_str_eq(add->params[i].name, names[i]);
        ck_assert_int_eq(add->params[i].constexpr_, i == 4);
        ck_assert_ptr_null(add->params[i].default_text);
    }
    ck_assert_str_eq(add->params[4].annotation, "tl.constexpr");
    ck_assert_str_eq(SPAN(&p, add->params[4].span), "62:30-62:49");
    ck_assert_ptr_null(add->params[0].annotation);

    const MtKernelInfo *sm = mt_module_find_kernel(p.m, "softmax_kernel");
    ck_assert_ptr_eq(sm, mt_module_kernel(p.m, 1));
    ck_assert_str_eq(SPAN(&p, sm->span), "100:1-109:90"); /* from @triton.autotune */
    ck_assert_ptr_null(sm->directive);
    ck_assert_str_eq(sm->params[3].default_text, "128");
    ck_assert(sm->params[3].constexpr_);
    ck_assert_uint_eq(p.m->funcs[1]->body.n, 7);
    ck_assert_ptr_null(mt_module_find_kernel(p.m, "launch"));
    ck_assert_ptr_null(mt_module_kernel(p.m, 2));
    mt_ctx_free(p.c);
    free(src);
}
END_TEST

static void check_global(Parsed *p, const char *name, MtGlobalKind kind, const char *target)
{
    const MtGlobal *g = mt_module_global(p->m, name);
    ck_assert_msg(g != NULL, "global %s missing", name);
    ck_assert_msg(g->kind == kind, "global %s: kind %d, want %d", name, g->kind, kind);
    if (target)
        ck_assert_str_eq(g->target, target);
}

START_TEST(host_file_globals)
{
    size_t len;
    char *src = data_file("host_and_kernels.py", &len);
    Parsed p = parsen(src, len);
    check_global(&p, "annotations", GL_FROM, "__future__.annotations");
    check_global(&p, "osp", GL_MODULE, "os.path");
    check_global(&p, "sys", GL_MODULE, "sys");
    check_global(&p, "math", GL_MODULE, "math");
    check_global(&p, "Optional", GL_FROM, "typing.Optional");
    check_global(&p, "triton", GL_MODULE, "triton");
    check_global(&p, "tl", GL_MODULE, "triton.language");
    check_global(&p, "ceil_div", GL_FROM, "triton.cdiv");
    check_global(&p, "BLOCK_DEFAULT", GL_VALUE, NULL);
    check_global(&p, "EPS", GL_VALUE, NULL);
    check_global(&p, "SCALE", GL_OTHER, NULL);
    check_global(&p, "OFFSET", GL_OTHER, NULL);
    check_global(&p, "LIMIT", GL_VALUE, NULL);
    check_global(&p, "MAX_ROWS", GL_VALUE, NULL);
    check_global(&p, "counter", GL_OTHER, NULL); /* counter += 1 came last */
    check_global(&p, "LaunchConfig", GL_OTHER, NULL);
    check_global(&p, "describe", GL_OTHER, NULL);
    check_global(&p, "fetch_all", GL_OTHER, NULL);
    check_global(&p, "launch", GL_OTHER, NULL);
    check_global(&p, "add_kernel", GL_JIT, NULL);
    check_global(&p, "i", GL_OTHER, NULL);
    check_global(&p, "name", GL_OTHER, NULL);
    check_global(&p, "log_file", GL_OTHER, NULL);
    const MtGlobal *g = mt_module_global(&p.m[0], "BLOCK_DEFAULT");
    ck_assert_int_eq(g->value->kind, ND_INT);
    ck_assert_int_eq(g->value->u.num.i, 1024);
    ck_assert_str_eq(SPAN(&p, g->span), "25:1-25:14");
    ck_assert_double_eq(mt_module_global(p.m, "EPS")->value->u.num.f, 1e-5);
    ck_assert_int_eq(mt_module_global(p.m, "LIMIT")->value->kind, ND_BINOP);
    ck_assert_ptr_eq(mt_module_global(p.m, "LIMIT")->value, mt_module_global(p.m, "MAX_ROWS")->value);
    ck_assert_str_eq(mt_module_global(p.m, "CONFIG")->value->u.unsup.what, "dict display");
    ck_assert_str_eq(mt_module_global(p.m, "square")->value->u.unsup.what, "lambda");
    ck_assert_ptr_eq(mt_module_global(p.m, "add_kernel")->fn, p.m->funcs[0]);
    /* names bound inside functions, classes and the __main__ block are not module globals */
    ck_assert_ptr_null(mt_module_global(p.m, "config"));
    ck_assert_ptr_null(mt_module_global(p.m, "squares"));
    ck_assert_ptr_null(mt_module_global(p.m, "block"));
    ck_assert_ptr_null(mt_module_global(p.m, "nope"));
    mt_ctx_free(p.c);
    free(src);
}
END_TEST

START_TEST(constructs_file_parses_without_diagnostics)
{
    size_t len;
    char *src = data_file("kernel_constructs.py", &len);
    Parsed p = parsen(src, len);
    ck_assert_str_eq(diags(&p), "");
    ck_assert_int_eq(p.st, MT_OK);
    ck_assert_uint_eq(p.m->nfuncs, 2);
    const MtFuncDef *h = p.m->funcs[0];
    ck_assert_uint_eq(h->body.n, 60);
    ck_assert_uint_eq(h->nparams, 6);
    static const MtParamKind kinds[] = {PARAM_NORMAL, PARAM_NORMAL, PARAM_NORMAL, PARAM_VARARGS,
                                        PARAM_KWONLY, PARAM_KWARGS};
    static const char *const names[] = {"a", "b", "c", "rest", "scale", "options"};
    for (int i = 0; i < 6; i++) {
        ck_assert_str_eq(h->params[i].name, names[i]);
        ck_assert_int_eq(h->params[i].kind, kinds[i]);
    }
    ck_assert_str_eq(SPAN(&p, h->params[2].span), "6:23-6:33");
    ck_assert_str_eq(SPAN(&p, h->params[2].name_span), "6:23-6:24");
    ck_assert_str_eq(SPAN(&p, h->params[3].span), "6:35-6:40");
    ck_assert_int_eq(h->params[1].default_->kind, ND_INT);
    ck_assert_str_eq(SPAN(&p, h->def_span), "6:1-6:86");
    ck_assert_str_eq(SPAN(&p, h->span), "5:1-98:16");
    ck_assert_str_eq(mt_module_kernel(p.m, 1)->params[4].default_text, "1024");
    mt_ctx_free(p.c);
    free(src);
}
END_TEST

/* ---- jit detection ---------------------------------------------------------- */

START_TEST(jit_decorator_forms)
{
    static const struct { const char *src; uint32_t kernels; } cases[] = {
        {"import triton\n@triton.jit\ndef k(): pass\n", 1},
        {"import triton as tr\n@tr.jit\ndef k(): pass\n", 1},
        {"import mytriton\n@mytriton.jit\ndef k(): pass\n", 1},
        {"import mytriton as triton\n@triton.jit\ndef k(): pass\n", 1},
        {"from triton import jit\n@jit\ndef k(): pass\n", 1},
        {"from triton import jit as J\n@J\ndef k(): pass\n", 1},
        {"from mytriton import jit as J\n@J()\ndef k(): pass\n", 1},
        {"import triton\n@triton.jit(debug=True)\ndef k(): pass\n", 1},
        {"import triton\n@triton.jit()\ndef k(): pass\n", 1},
        {"@jit\ndef k(): pass\n", 1},
        {"@jit()\ndef k(): pass\n", 1},
        {"@triton.jit\ndef k(): pass\n", 1},
        {"@mytriton.jit\ndef k(): pass\n", 1},
        {"import triton.language as tl\n@triton.jit\ndef k(): pass\n", 1},
        {"import triton\n@triton.autotune(configs=[],\n    key=['n'])\n@triton.heuristics({'B': lambda a: 1})\n"
         "@triton.jit\ndef k(): pass\n", 1},
        {"import triton\n@triton.jit\n@functools.cache\ndef k(): pass\n", 1},
        {"def setup():\n    import triton as tr\n@tr.jit\ndef k(): pass\n", 1},
        {"try:\n    import triton\nexcept ImportError:\n    import mytriton as triton\n@triton.jit\ndef k(): pass\n", 1},
        {"@tr.jit\ndef k(): pass\nimport triton as tr\n", 1},
        {"\xEF\xBB\xBFimport triton as tr\n@tr.jit\ndef k(): pass\n", 1},
        {"import triton\n@triton.jit\ndef a(): pass\n@triton.jit\ndef b(): pass\ndef c(): pass\n", 2},
        /* not kernels */
        {"from numba import jit\n@jit\ndef k(): pass\n", 0},
        {"import numba as triton\n@triton.jit\ndef k(): pass\n", 0},
        {"from .triton import jit\n@jit\ndef k(): pass\n", 0},
        {"@tr.jit\ndef k(): pass\n", 0},
        {"import triton\n@triton.autotune(configs=[])\ndef k(): pass\n", 0},
        {"import triton\n@triton.jit.inner\ndef k(): pass\n", 0},
        {"import triton\n@triton.jit[0]\ndef k(): pass\n", 0},
        {"import triton\ndef k(): pass\n", 0},
        {"import triton\ndef outer():\n    @triton.jit\n    def inner(): pass\n", 0},
        {"import triton\nclass C:\n    @triton.jit\n    def m(self): pass\n", 0},
        {"import triton\nif True:\n    @triton.jit\n    def k(): pass\n", 0},
        {"import triton\n@triton.jit\nasync def k(): pass\n", 0},
        {"import triton\n@triton.jit\nclass K: pass\n", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Parsed p = parse(cases[i].src);
        ck_assert_msg(p.m->nfuncs == cases[i].kernels, "case %zu: %u kernels, want %u:\n%s", i, p.m->nfuncs,
                      cases[i].kernels, cases[i].src);
        ck_assert_str_eq(diags(&p), "");
        mt_ctx_free(p.c);
    }
}
END_TEST

START_TEST(non_jit_bodies_are_not_parsed)
{
    /* garbage inside a plain function is the interpreter's business */
    Parsed p = parse("def host():\n    x = = 1\n    return (]\nclass C:\n    y = ) +\n@triton.jit\ndef k():\n    pass\n");
    ck_assert_uint_eq(p.m->nfuncs, 1);
    ck_assert_str_eq(diags(&p), "E0105 3:13-3:14 closing parenthesis ']' does not match opening parenthesis '('\n"
                                "E0105 5:9-5:10 unmatched ')'\n");
    mt_ctx_free(p.c);

    p = parse("def host():\n    x = = 1\n    if:\n        weird = 2\nx = (1 +)\n");
    ck_assert_str_eq(diags(&p), "");
    ck_assert_int_eq(p.st, MT_OK);
    mt_ctx_free(p.c);
}
END_TEST

/* ---- module-level bindings --------------------------------------------------- */

START_TEST(module_globals)
{
    Parsed p = parse("import a.b.c\n"
                     "import a.b as x, os\n"
                     "from a.b import c as d, e\n"
                     "from . import rel\n"
                     "from ..pkg.mod import (f,\n    g as h)\n"
                     "from m import *\n"
                     "N = 1\n"
                     "A = B = 2\n"
                     "P, (Q, *R) = 1, (2, 3)\n"
                     "T: int = 5\n"
                     "U: int\n"
                     "V += 1\n"
                     "W = a if b\n"
                     "obj.attr = 3; arr[0] = 4\n"
                     "type Alias = int\n"
                     "for loop_i, loop_j in pairs: pass\n"
                     "with open(f) as fh, ctx() as (w1, w2):\n    pass\n"
                     "if cond:\n    hidden = 1\n"
                     "try:\n    hidden2 = 2\nexcept E:\n    pass\n"
                     "def fn(): pass\n"
                     "class Cls: pass\n"
                     "async def afn(): pass\n"
                     "L = lambda v=1: v\n"
                     "N = 3\n");
    ck_assert_str_eq(diags(&p), "");
    check_global(&p, "a", GL_MODULE, "a");
    check_global(&p, "x", GL_MODULE, "a.b");
    check_global(&p, "os", GL_MODULE, "os");
    check_global(&p, "d", GL_FROM, "a.b.c");
    check_global(&p, "e", GL_FROM, "a.b.e");
    check_global(&p, "rel", GL_FROM, ".rel");
    check_global(&p, "f", GL_FROM, "..pkg.mod.f");
    check_global(&p, "h", GL_FROM, "..pkg.mod.g");
    ck_assert_ptr_null(mt_module_global(p.m, "g"));
    ck_assert_str_eq(SPAN(&p, mt_module_global(p.m, "h")->span), "6:10-6:11");
    ck_assert_str_eq(SPAN(&p, mt_module_global(p.m, "a")->span), "1:8-1:9");
    check_global(&p, "N", GL_VALUE, NULL);
    ck_assert_int_eq(mt_module_global(p.m, "N")->value->u.num.i, 3);
    check_global(&p, "A", GL_VALUE, NULL);
    check_global(&p, "B", GL_VALUE, NULL);
    ck_assert_ptr_eq(mt_module_global(p.m, "A")->value, mt_module_global(p.m, "B")->value);
    check_global(&p, "P", GL_OTHER, NULL);
    check_global(&p, "Q", GL_OTHER, NULL);
    check_global(&p, "R", GL_OTHER, NULL);
    check_global(&p, "T", GL_VALUE, NULL);
    ck_assert_int_eq(mt_module_global(p.m, "T")->value->u.num.i, 5);
    ck_assert_ptr_null(mt_module_global(p.m, "U"));
    check_global(&p, "V", GL_OTHER, NULL);
    check_global(&p, "W", GL_VALUE, NULL);
    ck_assert_ptr_null(mt_module_global(p.m, "W")->value);
    ck_assert_ptr_null(mt_module_global(p.m, "obj"));
    ck_assert_ptr_null(mt_module_global(p.m, "arr"));
    check_global(&p, "Alias", GL_OTHER, NULL);
    check_global(&p, "loop_i", GL_OTHER, NULL);
    check_global(&p, "loop_j", GL_OTHER, NULL);
    check_global(&p, "fh", GL_OTHER, NULL);
    check_global(&p, "w1", GL_OTHER, NULL);
    check_global(&p, "w2", GL_OTHER, NULL);
    ck_assert_ptr_null(mt_module_global(p.m, "hidden"));
    ck_assert_ptr_null(mt_module_global(p.m, "hidden2"));
    check_global(&p, "fn", GL_OTHER, NULL);
    check_global(&p, "Cls", GL_OTHER, NULL);
    check_global(&p, "afn", GL_OTHER, NULL);
    check_global(&p, "L", GL_VALUE, NULL);
    ck_assert_str_eq(mt_module_global(p.m, "L")->value->u.unsup.what, "lambda");
    /* one entry per name, ordered by each name's last binding: N is last */
    ck_assert_uint_eq(p.m->nglobals, 27);
    ck_assert_str_eq(p.m->globals[p.m->nglobals - 1].name, "N");
    ck_assert_str_eq(SPAN(&p, p.m->globals[p.m->nglobals - 1].span), "30:1-30:2");
    mt_ctx_free(p.c);
}
END_TEST

START_TEST(later_bindings_replace_earlier_ones)
{
    Parsed p = parse("import triton\nK = 1\n@triton.jit\ndef K(): pass\nk2 = 5\n@triton.jit\ndef k2(): pass\n"
                     "def k2(): pass\n");
    check_global(&p, "K", GL_JIT, NULL);
    check_global(&p, "k2", GL_OTHER, NULL);
    ck_assert_uint_eq(p.m->nfuncs, 2);
    mt_ctx_free(p.c);

    p = parse("import triton\n@triton.jit\ndef k(x): pass\n@triton.jit\ndef k(x, y): pass\n");
    ck_assert_uint_eq(mt_module_find_kernel(p.m, "k")->nparams, 2);
    ck_assert_ptr_eq(mt_module_find_kernel(p.m, "k"), mt_module_kernel(p.m, 1));
    mt_ctx_free(p.c);
}
END_TEST

/* ---- directives ------------------------------------------------------------ */

START_TEST(directive_comments)
{
    Parsed p = parse("# unrelated\n\n# Adds vectors.\n#   mytriton: BLOCK=128  \n# mytriton:num_warps=4\n"
                     "@triton.autotune(configs=[])\n# mytriton: ignored=1\n@triton.jit\ndef k(): pass\n");
    const MtKernelInfo *k = mt_module_kernel(p.m, 0);
    ck_assert_str_eq(k->directive, "BLOCK=128 num_warps=4");
    ck_assert_str_eq(SPAN(&p, k->directive_span), "4:1-5:23");
    ck_assert_str_eq(fn0(&p)->directive, "BLOCK=128 num_warps=4");
    mt_ctx_free(p.c);

    static const char *const none[] = {
        "# mytriton: BLOCK=1\n\n@triton.jit\ndef k(): pass\n",          /* a blank line in between */
        "x = 1  # mytriton: BLOCK=1\n@triton.jit\ndef k(): pass\n",     /* not on its own line */
        "# mytriton BLOCK=1\n@triton.jit\ndef k(): pass\n",             /* no colon */
        "@triton.jit\n# mytriton: BLOCK=1\ndef k(): pass\n",            /* below the decorator */
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        p = parse(none[i]);
        ck_assert_msg(mt_module_kernel(p.m, 0)->directive == NULL, "no directive in case %zu", i);
        mt_ctx_free(p.c);
    }
}
END_TEST

/* ---- statements ------------------------------------------------------------ */

START_TEST(assignment_forms)
{
    Parsed p = kernel_src("    a = b = c\n    a, b = f()\n    t: int = 1\n    u: int\n    x = yield\n");
    const MtNode *s = stmt(&p, 0);
    ck_assert_int_eq(s->kind, ND_ASSIGN);
    ck_assert_uint_eq(s->u.assign.targets.n, 2);
    ck_assert_str_eq(s->u.assign.targets.v[1]->u.name, "b");
    ck_assert_str_eq(s->u.assign.value->u.name, "c");
    ck_assert_str_eq(SPAN(&p, s->span), "3:5-3:14");
    s = stmt(&p, 1);
    ck_assert_int_eq(s->u.assign.targets.v[0]->kind, ND_TUPLE);
    ck_assert_str_eq(SPAN(&p, s->u.assign.targets.v[0]->span), "4:5-4:9");
    ck_assert_int_eq(s->u.assign.value->kind, ND_CALL);
    s = stmt(&p, 2);
    ck_assert_int_eq(s->kind, ND_ANNASSIGN);
    ck_assert_str_eq(s->u.ann.annotation->u.name, "int");
    ck_assert_int_eq(s->u.ann.value->u.num.i, 1);
    s = stmt(&p, 3);
    ck_assert_int_eq(s->kind, ND_ANNASSIGN);
    ck_assert_ptr_null(s->u.ann.value);
    ck_assert_str_eq(stmt(&p, 4)->u.assign.value->u.unsup.what, "yield expression");
    ck_assert_str_eq(diags(&p), "");
    mt_ctx_free(p.c);
}
END_TEST

START_TEST(augmented_assignment_ops)
{
    Parsed p = kernel_src("    x += 1; x -= 1; x *= 1; x /= 1; x //= 1; x %= 1; x **= 1\n"
                          "    x &= 1; x |= 1; x ^= 1; x <<= 1; x >>= 1; x @= 1\n");
    static const MtOp want[] = {OP_PLUS, OP_MINUS, OP_STAR, OP_SLASH, OP_DSLASH, OP_PERCENT, OP_DSTAR,
                                OP_AMP, OP_VBAR, OP_CARET, OP_LSHIFT, OP_RSHIFT, OP_AT};
    ck_assert_uint_eq(fn0(&p)->body.n, 13);
    for (uint32_t i = 0; i < 13; i++) {
        const MtNode *s = stmt(&p, i);
        ck_assert_int_eq(s->kind, ND_AUGASSIGN);
        ck_assert_int_eq(s->u.aug.op, want[i]);
        ck_assert_str_eq(s->u.aug.target->u.name, "x");
    }
    ck_assert_str_eq(SPAN(&p, stmt(&p, 4)->span), "3:37-3:44");
    mt_ctx_free(p.c);
}
END_TEST

START_TEST(simple_statements)
{
    Parsed p = kernel_src("    \"\"\"doc\"\"\"\n    pass; return\n    return a, b\n    assert a, \"msg\"\n"
                          "    for i in r:\n        break\n        continue\n");
    ck_assert_int_eq(stmt(&p, 0)->kind, ND_EXPR_STMT);
    ck_assert_str_eq(stmt(&p, 0)->u.expr->u.str.s, "doc");
    ck_assert_int_eq(stmt(&p, 1)->kind, ND_PASS);
    ck_assert_int_eq(stmt(&p, 2)->kind, ND_RETURN);
    ck_assert_ptr_null(stmt(&p, 2)->u.expr);
    ck_assert_str_eq(SPAN(&p, stmt(&p, 2)->span), "4:11-4:17");
    ck_assert_int_eq(stmt(&p, 3)->u.expr->kind, ND_TUPLE);
    ck_assert_str_eq(SPAN(&p, stmt(&p, 3)->u.expr->span), "5:12-5:16");
    ck_assert_int_eq(stmt(&p, 4)->kind, ND_ASSERT);
    ck_assert_str_eq(stmt(&p, 4)->u.assert_.msg->u.str.s, "msg");
    const MtNode *f = stmt(&p, 5);
    ck_assert_int_eq(f->u.for_.body.v[0]->kind, ND_BREAK);
    ck_assert_int_eq(f->u.for_.body.v[1]->kind, ND_CONTINUE);
    ck_assert_str_eq(diags(&p), "");
    mt_ctx_free(p.c);
}
END_TEST

START_TEST(if_elif_else_chain)
{
    Parsed p = kernel_src("    if a:\n        x = 1\n    elif b:\n        x = 2\n    elif c: x = 3\n    else:\n"
                          "        x = 4\n        y = 5\n    z = 6\n");
    const MtNode *s = stmt(&p, 0);
    ck_assert_int_eq(s->kind, ND_IF);
    ck_assert(!s->u.if_.elif);
    ck_assert_str_eq(SPAN(&p, s->span), "3:5-10:14");
    ck_assert_uint_eq(s->u.if_.orelse.n, 1);
    const MtNode *e1 = s->u.if_.orelse.v[0];
    ck_assert_int_eq(e1->kind, ND_IF);
    ck_assert(e1->u.if_.elif);
    ck_assert_str_eq(e1->u.if_.test->u.name, "b");
    ck_assert_str_eq(SPAN(&p, e1->span), "5:5-10:14");
    const MtNode *e2 = e1->u.if_.orelse.v[0];
    ck_assert(e2->u.if_.elif);
    ck_assert_str_eq(SPAN(&p, e2->u.if_.body.v[0]->span), "7:13-7:18");
    ck_assert_uint_eq(e2->u.if_.orelse.n, 2);
    ck_assert_int_eq(e2->u.if_.orelse.v[0]->kind, ND_ASSIGN);
    ck_assert_str_eq(SPAN(&p, stmt(&p, 1)->span), "11:5-11:10");
    ck_assert_str_eq(diags(&p), "");
    mt_ctx_free(p.c);
}
END_TEST

START_TEST(for_and_while_loops)
{
    Parsed p = kernel_src("    for i, (j, k) in zip(a, b):\n        acc += i\n    else:\n        pass\n"
                          "    while n > 0:\n        n -= 1\n    else:\n        n = 0\n    for k in tl.static_range(0, K): acc += k\n");
    const MtNode *f = stmt(&p, 0);
    ck_assert_int_eq(f->kind, ND_FOR);
    ck_assert_str_eq(SPAN(&p, f->u.for_.kw_span), "3:5-3:8");
    ck_assert_int_eq(f->u.for_.target->kind, ND_TUPLE);
    ck_assert_str_eq(SPAN(&p, f->u.for_.target->span), "3:9-3:18");
    ck_assert_int_eq(f->u.for_.iter->kind, ND_CALL);
    ck_assert_uint_eq(f->u.for_.body.n, 1);
    ck_assert_int_eq(f->u.for_.orelse.v[0]->kind, ND_PASS);
    ck_assert_str_eq(SPAN(&p, f->span), "3:5-6:13");
    const MtNode *w = stmt(&p, 1);
    ck_assert_int_eq(w->kind, ND_WHILE);
    ck_assert_int_eq(w->u.while_.test->kind, ND_COMPARE);
    ck_assert_uint_eq(w->u.while_.orelse.n, 1);
    ck_assert_str_eq(SPAN(&p, w->span), "7:5-10:14");
    const MtNode *f2 = stmt(&p, 2);
    ck_assert_str_eq(SPAN(&p, f2->span), "11:5-11:45");
    ck_assert_int_eq(f2->u.for_.body.v[0]->kind, ND_AUGASSIGN);
    ck_assert_str_eq(diags(&p), "");
    mt_ctx_free(p.c);
}
END_TEST

START_TEST(function_header_spans)
{
    Parsed p = parse("import triton\n\n@triton.jit(debug=True)\ndef kern(\n    x,\n    BLOCK: tl.constexpr = 64,\n"
                     "    *, flag=False,\n) -> None:\n    pass\n");
    const MtFuncDef *fn = fn0(&p);
    ck_assert_str_eq(fn->name, "kern");
    ck_assert_str_eq(SPAN(&p, fn->span), "3:1-9:9");
    ck_assert_str_eq(SPAN(&p, fn->def_span), "4:1-8:11");
    ck_assert_str_eq(SPAN(&p, fn->name_span), "4:5-4:9");
    ck_assert_uint_eq(fn->nparams, 3);
    ck_assert_str_eq(SPAN(&p, fn->params[1].span), "6:5-6:29");
    ck_assert_int_eq(fn->params[1].annotation->kind, ND_ATTR);
    ck_assert_int_eq(fn->params[1].default_->u.num.i, 64);
    ck_assert_int_eq(fn->params[2].kind, PARAM_KWONLY);
    ck_assert_int_eq(fn->params[2].default_->kind, ND_FALSE);
    const MtKernelInfo *k = mt_module_kernel(p.m, 0);
    ck_assert_str_eq(k->params[1].default_text, "64");
    ck_assert(k->params[1].constexpr_);
    ck_assert(!k->params[2].constexpr_);
    ck_assert_str_eq(diags(&p), "");
    mt_ctx_free(p.c);
}
END_TEST

START_TEST(constexpr_annotations)
{
    Parsed p = parse("@jit\ndef k(a: tl.constexpr, b: triton.language.constexpr, c: constexpr, d: \"tl.constexpr\",\n"
                     "      e: int, f: constexpr_like, g: tl.constexpr(), h: x.y.constexpr, i: 'constexpr'): pass\n");
    static const bool want[] = {1, 1, 1, 1, 0, 0, 0, 1, 1};
    const MtKernelInfo *k = mt_module_kernel(p.m, 0);
    ck_assert_uint_eq(k->nparams, 9);
    for (int i = 0; i < 9; i++)
        ck_assert_msg(k->params[i].constexpr_ == want[i], "param %s", k->params[i].name);
    ck_assert_str_eq(k->params[3].annotation, "\"tl.constexpr\"");
    mt_ctx_free(p.c);
}
END_TEST

/* ---- expressions ----------------------------------------------------------- */

START_TEST(operator_precedence)
{
    Parsed p = kernel_src("    y = -x**2\n    y = 2**-1**2\n    y = a or b and not c or d\n    y = a - b - c\n"
                          "    y = a | b ^ c & d << e + f * g\n    y = not a == b\n    y = a if b else c if d else e\n");
    const MtNode *v = value_of(&p, 0);
    ck_assert_int_eq(v->kind, ND_UNARY);
    ck_assert_int_eq(v->u.un.op, OP_MINUS);
    ck_assert_int_eq(v->u.un.operand->u.bin.op, OP_DSTAR);
    ck_assert_str_eq(SPAN(&p, v->span), "3:9-3:14");
    v = value_of(&p, 1); /* 2 ** (-(1 ** 2)) */
    ck_assert_int_eq(v->u.bin.op, OP_DSTAR);
    ck_assert_int_eq(v->u.bin.rhs->kind, ND_UNARY);
    ck_assert_int_eq(v->u.bin.rhs->u.un.operand->u.bin.op, OP_DSTAR);
    v = value_of(&p, 2);
    ck_assert_int_eq(v->kind, ND_BOOLOP);
    ck_assert_int_eq(v->u.boolop.op, KW_OR);
    ck_assert_uint_eq(v->u.boolop.items.n, 3);
    const MtNode *and_ = v->u.boolop.items.v[1];
    ck_assert_int_eq(and_->u.boolop.op, KW_AND);
    ck_assert_int_eq(and_->u.boolop.items.v[1]->u.un.op, -1);
    ck_assert_str_eq(SPAN(&p, and_->span), "5:14-5:25");
    v = value_of(&p, 3); /* (a - b) - c */
    ck_assert_int_eq(v->u.bin.lhs->kind, ND_BINOP);
    ck_assert_str_eq(v->u.bin.rhs->u.name, "c");
    v = value_of(&p, 4);
    ck_assert_int_eq(v->u.bin.op, OP_VBAR);
    ck_assert_int_eq(v->u.bin.rhs->u.bin.op, OP_CARET);
    ck_assert_int_eq(v->u.bin.rhs->u.bin.rhs->u.bin.op, OP_AMP);
    ck_assert_int_eq(v->u.bin.rhs->u.bin.rhs->u.bin.rhs->u.bin.op, OP_LSHIFT);
    ck_assert_int_eq(v->u.bin.rhs->u.bin.rhs->u.bin.rhs->u.bin.rhs->u.bin.op, OP_PLUS);
    ck_assert_int_eq(v->u.bin.rhs->u.bin.rhs->u.bin.rhs->u.bin.rhs->u.bin.rhs->u.bin.op, OP_STAR);
    v = value_of(&p, 5);
    ck_assert_int_eq(v->u.un.op, -1);
    ck_assert_int_eq(v->u.un.operand->kind, ND_COMPARE);
    v = value_of(&p, 6);
    ck_assert_int_eq(v->kind, ND_IFEXP);
    ck_assert_str_eq(v->u.ifexp.body->u.name, "a");
    ck_assert_str_eq(v->u.ifexp.test->u.name, "b");
    ck_assert_int_eq(v->u.ifexp.orelse->kind, ND_IFEXP);
    ck_assert_str_eq(diags(&p), "");
    mt_ctx_free(p.c);
}
END_TEST

START_TEST(comparison_chains)
{
    Parsed p = kernel_src("    y = a < b <= c > d >= e == f != g in h not in i is j is not k\n");
    const MtNode *v = value_of(&p, 0);
    ck_assert_int_eq(v->kind, ND_COMPARE);
    ck_assert_uint_eq(v->u.cmp.items.n, 11);
    static const int ops[] = {OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, -KW_IN, -KW_IN, -KW_IS, -KW_IS};
    static const bool neg[] = {0, 0, 0, 0, 0, 0, 0, 1, 0, 1};
    for (int i = 0; i < 10; i++) {
        ck_assert_int_eq(v->u.cmp.ops[i], ops[i]);
        ck_assert_int_eq(v->u.cmp.negated[i], neg[i]);
    }
    ck_assert_str_eq(v->u.cmp.items.v[10]->u.name, "k");
    ck_assert_str_eq(SPAN(&p, v->span), "3:9-3:66");
    mt_ctx_free(p.c);
}
END_TEST

START_TEST(calls_and_keywords)
{
    Parsed p = kernel_src("    y = tl.load(x + o, *extra, mask=m, other=0.0, **kw)\n");
    const MtNode *v = value_of(&p, 0);
    ck_assert_int_eq(v->kind, ND_CALL);
    ck_assert_str_eq(SPAN(&p, v->span), "3:9-3:56");
    ck_assert_int_eq(v->u.call.fn->kind, ND_ATTR);
    ck_assert_str_eq(v->u.call.fn->u.attr.name, "load");
    ck_assert_str_eq(SPAN(&p, v->u.call.fn->u.attr.name_span), "3:12-3:16");
    ck_assert_str_eq(SPAN(&p, v->u.call.fn->span), "3:9-3:16");
    ck_assert_uint_eq(v->u.call.args.n, 2);
    ck_assert_int_eq(v->u.call.args.v[0]->kind, ND_BINOP);
    const MtNode *star = v->u.call.args.v[1];
    ck_assert_str_eq(star->u.unsup.what, "starred expression");
    ck_assert_str_eq(SPAN(&p, star->span), "3:24-3:30");
    ck_assert_str_eq(star->u.unsup.inner->u.name, "extra");
    ck_assert_uint_eq(v->u.call.nkw, 3);
    ck_assert_str_eq(v->u.call.kw[0].name, "mask");
    ck_assert_str_eq(SPAN(&p, v->u.call.kw[0].span), "3:32-3:38");
    ck_assert_str_eq(v->u.call.kw[0].value->u.name, "m");
    ck_assert_str_eq(v->u.call.kw[1].name, "other");
    ck_assert_int_eq(v->u.call.kw[1].value->kind, ND_FLOAT);
    ck_assert_ptr_null(v->u.call.kw[2].name);
    ck_assert_str_eq(SPAN(&p, v->u.call.kw[2].span), "3:51-3:55");
    ck_assert_str_eq(v->u.call.kw[2].value->u.unsup.what, "keyword unpacking");
    ck_assert_str_eq(SPAN(&p, v->u.call.kw[2].value->span), "3:51-3:55");
    mt_ctx_free(p.c);
}
END_TEST

START_TEST(subscripts_and_slices)
{
    Parsed p = kernel_src("    y = x[:, None]\n    y = x[None, :]\n    y = x[1:2:3]\n    y = x[i]\n    y = x[a:, ::2,]\n");
    const MtNode *v = value_of(&p, 0);
    ck_assert_int_eq(v->kind, ND_SUBSCRIPT);
    ck_assert_str_eq(SPAN(&p, v->span), "3:9-3:19");
    const MtNode *ix = v->u.sub.index;
    ck_assert_int_eq(ix->kind, ND_TUPLE);
    ck_assert_str_eq(SPAN(&p, ix->span), "3:11-3:18");
    ck_assert_uint_eq(ix->u.list.n, 2);
    ck_assert_int_eq(ix->u.list.v[0]->kind, ND_SLICE);
    ck_assert_ptr_null(ix->u.list.v[0]->u.slice.lo);
    ck_assert_ptr_null(ix->u.list.v[0]->u.slice.hi);
    ck_assert_ptr_null(ix->u.list.v[0]->u.slice.step);
    ck_assert_str_eq(SPAN(&p, ix->u.list.v[0]->span), "3:11-3:12");
    ck_assert_int_eq(ix->u.list.v[1]->kind, ND_NONE);
    ix = value_of(&p, 1)->u.sub.index;
    ck_assert_int_eq(ix->u.list.v[0]->kind, ND_NONE);
    ck_assert_int_eq(ix->u.list.v[1]->kind, ND_SLICE);
    ix = value_of(&p, 2)->u.sub.index;
    ck_assert_int_eq(ix->kind, ND_SLICE);
    ck_assert_int_eq(ix->u.slice.lo->u.num.i, 1);
    ck_assert_int_eq(ix->u.slice.hi->u.num.i, 2);
    ck_assert_int_eq(ix->u.slice.step->u.num.i, 3);
    ck_assert_str_eq(SPAN(&p, ix->span), "5:11-5:16");
    ck_assert_int_eq(value_of(&p, 3)->u.sub.index->kind, ND_NAME);
    ix = value_of(&p, 4)->u.sub.index;
    ck_assert_uint_eq(ix->u.list.n, 2);
    ck_assert_ptr_null(ix->u.list.v[0]->u.slice.hi);
    ck_assert_int_eq(ix->u.list.v[1]->u.slice.step->u.num.i, 2);
    ck_assert_str_eq(diags(&p), "");
    mt_ctx_free(p.c);
}
END_TEST

START_TEST(atoms_and_parentheses)
{
    Parsed p = kernel_src("    y = (a)\n    y = (a + b) * c\n    y = ()\n    y = (a,)\n    y = a, b\n    y = [1, 2.5, True]\n"
                          "    y = \"con\" 'cat' \"\"\"en\"\"\"\n    y = None, False, ...\n    y = 99999999999999999999\n"
                          "    y = ((x))[0]\n");
    const MtNode *v = value_of(&p, 0);
    ck_assert_int_eq(v->kind, ND_NAME);
    ck_assert_str_eq(SPAN(&p, v->span), "3:10-3:11"); /* the group keeps the inner span */
    v = value_of(&p, 1);
    ck_assert_str_eq(SPAN(&p, v->span), "4:9-4:20");
    ck_assert_str_eq(SPAN(&p, v->u.bin.lhs->span), "4:10-4:15");
    v = value_of(&p, 2);
    ck_assert_int_eq(v->kind, ND_TUPLE);
    ck_assert_uint_eq(v->u.list.n, 0);
    ck_assert_str_eq(SPAN(&p, v->span), "5:9-5:11");
    v = value_of(&p, 3);
    ck_assert_uint_eq(v->u.list.n, 1);
    ck_assert_str_eq(SPAN(&p, v->span), "6:9-6:13");
    v = value_of(&p, 4);
    ck_assert_uint_eq(v->u.list.n, 2);
    ck_assert_str_eq(SPAN(&p, v->span), "7:9-7:13");
    v = value_of(&p, 5);
    ck_assert_int_eq(v->kind, ND_LIST);
    ck_assert_int_eq(v->u.list.v[1]->kind, ND_FLOAT);
    ck_assert_double_eq(v->u.list.v[1]->u.num.f, 2.5);
    ck_assert_int_eq(v->u.list.v[2]->kind, ND_TRUE);
    v = value_of(&p, 6);
    ck_assert_int_eq(v->kind, ND_STR);
    ck_assert_str_eq(v->u.str.s, "concaten");
    ck_assert_uint_eq(v->u.str.len, 8);
    ck_assert_str_eq(SPAN(&p, v->span), "9:9-9:29");
    v = value_of(&p, 7);
    ck_assert_int_eq(v->u.list.v[0]->kind, ND_NONE);
    ck_assert_int_eq(v->u.list.v[1]->kind, ND_FALSE);
    ck_assert_int_eq(v->u.list.v[2]->kind, ND_ELLIPSIS);
    v = value_of(&p, 8);
    ck_assert_int_eq(v->kind, ND_INT);
    ck_assert(v->u.num.overflow);
    v = value_of(&p, 9);
    ck_assert_str_eq(SPAN(&p, v->span), "12:9-12:17");
    ck_assert_str_eq(SPAN(&p, v->u.sub.value->span), "12:11-12:12");
    ck_assert_str_eq(diags(&p), "");
    mt_ctx_free(p.c);
}
END_TEST

/* Each line, alone in a kernel body, must parse without a diagnostic and
 * contain an unsupported node with this construct name and span. */
START_TEST(unsupported_constructs)
{
    static const struct { const char *body; MtNodeKind kind; const char *what, *span; } cases[] = {
        {"    y = lambda v, *w, k=1, **kw: v\n", ND_UNSUPPORTED, "lambda", "3:9-3:35"},
        {"    y = [i for i in r if i]\n", ND_UNSUPPORTED, "list comprehension", "3:9-3:28"},
        {"    y = {i for i in r}\n", ND_UNSUPPORTED, "set comprehension", "3:9-3:23"},
        {"    y = {i: j for i, j in r}\n", ND_UNSUPPORTED, "dict comprehension", "3:9-3:29"},
        {"    y = (i for i in r)\n", ND_UNSUPPORTED, "generator expression", "3:9-3:23"},
        {"    y = f(i for i in r)\n", ND_UNSUPPORTED, "generator expression", "3:11-3:23"},
        {"    y = {}\n", ND_UNSUPPORTED, "dict display", "3:9-3:11"},
        {"    y = {'a': 1, **d}\n", ND_UNSUPPORTED, "dict display", "3:9-3:22"},
        {"    y = {1, 2}\n", ND_UNSUPPORTED, "set display", "3:9-3:15"},
        {"    y = (n := 1)\n", ND_UNSUPPORTED, "assignment expression", "3:10-3:16"},
        {"    if (n := f()) > 1: pass\n", ND_UNSUPPORTED, "assignment expression", "3:9-3:17"},
        {"    y = f'{x!r:>{w}}'\n", ND_UNSUPPORTED, "f-string", "3:9-3:22"},
        {"    y = 'a' f\"{x}\"\n", ND_UNSUPPORTED, "f-string", "3:9-3:19"},
        {"    y = b'a' b'b'\n", ND_UNSUPPORTED, "bytes literal", "3:9-3:18"},
        {"    y = 2.5j\n", ND_UNSUPPORTED, "complex literal", "3:9-3:13"},
        {"    y = f(*a)\n", ND_UNSUPPORTED, "starred expression", "3:11-3:13"},
        {"    a, *b = c\n", ND_UNSUPPORTED, "starred expression", "3:8-3:10"},
        {"    y = [*a, 1]\n", ND_UNSUPPORTED, "starred expression", "3:10-3:12"},
        {"    y = f(**kw)\n", ND_UNSUPPORTED, "keyword unpacking", "3:11-3:15"},
        {"    y = await z\n", ND_UNSUPPORTED, "await expression", "3:9-3:16"},
        {"    y = yield z\n", ND_UNSUPPORTED, "yield expression", "3:9-3:16"},
        {"    yield from z\n", ND_UNSUPPORTED, "yield expression", "3:5-3:17"},
        {"    y = (yield)\n", ND_UNSUPPORTED, "yield expression", "3:10-3:15"},
        {"    del a, b[0]\n", ND_UNSUPPORTED_STMT, "del statement", "3:5-3:16"},
        {"    global g\n", ND_UNSUPPORTED_STMT, "global statement", "3:5-3:13"},
        {"    nonlocal g\n", ND_UNSUPPORTED_STMT, "nonlocal statement", "3:5-3:15"},
        {"    import a.b as c\n", ND_UNSUPPORTED_STMT, "import statement", "3:5-3:20"},
        {"    from a import (b,\n        c)\n", ND_UNSUPPORTED_STMT, "import statement", "3:5-4:11"},
        {"    raise E(\"x\") from None\n", ND_UNSUPPORTED_STMT, "raise statement", "3:5-3:27"},
        {"    with a as b, c:\n        pass\n        pass\n", ND_UNSUPPORTED_STMT, "with statement", "3:5-5:13"},
        {"    try:\n        x\n    except E as e:\n        y\n    else:\n        z\n    finally:\n        w\n",
         ND_UNSUPPORTED_STMT, "try statement", "3:5-10:10"},
        {"    def f(a):\n        return a\n", ND_UNSUPPORTED_STMT, "function definition", "3:5-4:17"},
        {"    class C(B):\n        x = 1\n", ND_UNSUPPORTED_STMT, "class definition", "3:5-4:14"},
        {"    @dec(1)\n    def f(): pass\n", ND_UNSUPPORTED_STMT, "decorator", "3:5-4:18"},
        {"    async def f():\n        await g\n", ND_UNSUPPORTED_STMT, "async statement", "3:5-4:16"},
        {"    async for i in g:\n        pass\n    else:\n        pass\n", ND_UNSUPPORTED_STMT, "async statement",
         "3:5-6:13"},
        {"    async with g:\n        pass\n", ND_UNSUPPORTED_STMT, "async statement", "3:5-4:13"},
        {"    match x:\n        case [a, *b]:\n            pass\n        case _:\n            pass\n",
         ND_UNSUPPORTED_STMT, "match statement", "3:5-7:17"},
        {"    type T[U] = list[U]\n", ND_UNSUPPORTED_STMT, "type alias statement", "3:5-3:24"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Parsed p = kernel_src(cases[i].body);
        ck_assert_msg(mt_diag_count(p.c) == 0, "%s: %s", cases[i].body, diags(&p));
        const char *want = mt_sprintf(p.c, "%s %s @%s\n", mt_node_kind_name(cases[i].kind), cases[i].what, cases[i].span);
        const char *tree = mt_ast_print(p.c, fn0(&p));
        ck_assert_msg(strstr(tree, want) != NULL, "%s: want %s in\n%s", cases[i].body, want, tree);
        mt_ctx_free(p.c);
    }
}
END_TEST

START_TEST(soft_keywords_stay_names)
{
    Parsed p = kernel_src("    match = 1\n    match(x)\n    type = 2\n    type(x)\n    case = match.case\n    _ = 3\n");
    ck_assert_str_eq(diags(&p), "");
    ck_assert_uint_eq(fn0(&p)->body.n, 6);
    ck_assert_int_eq(stmt(&p, 0)->kind, ND_ASSIGN);
    ck_assert_int_eq(stmt(&p, 1)->u.expr->kind, ND_CALL);
    ck_assert_int_eq(stmt(&p, 3)->u.expr->kind, ND_CALL);
    ck_assert_str_eq(stmt(&p, 5)->u.assign.targets.v[0]->u.name, "_");
    mt_ctx_free(p.c);
}
END_TEST

/* ---- syntax errors --------------------------------------------------------- */

START_TEST(syntax_errors)
{
    static const struct { const char *body, *diags; } cases[] = {
        {"    if x y:\n        pass\n", "E0105 3:10-3:11 expected ':' after 'if' condition\n"},
        {"    if x\n        pass\n", "E0105 3:9-3:9 expected ':' after 'if' condition\n"},
        {"    while x  # loop\n        pass\n", "E0105 3:12-3:12 expected ':' after 'while' condition\n"},
        {"    for i in range(3)\n        pass\n", "E0105 3:22-3:22 expected ':' after 'for' statement\n"},
        {"    for i range(3):\n        pass\n", "E0105 3:11-3:16 expected 'in' after the 'for' target, found 'range'\n"},
        {"    y = (1 + )\n", "E0105 3:14-3:15 expected an expression, found ')'\n"},
        {"    y = \n", "E0105 3:8-3:8 expected an expression, found end of line\n"},
        {"    y = 1 xyz\n", "E0105 3:11-3:14 invalid syntax: unexpected 'xyz'\n"},
        {"    x := 1\n", "E0105 3:7-3:9 invalid syntax: unexpected ':='\n"},
        {"    y = f(a b)\n", "E0105 3:13-3:14 expected ',' or ')' in the argument list, found 'b'\n"},
        {"    y = [a b]\n", "E0105 3:12-3:13 expected ',' or ']', found 'b'\n"},
        {"    y = (a b)\n", "E0105 3:12-3:13 expected ',' or ')', found 'b'\n"},
        {"    y = x[1 2]\n", "E0105 3:13-3:14 expected ',' or ']' in the subscript, found '2'\n"},
        {"    y = x.1\n", "E0105 3:10-3:12 invalid syntax: unexpected '.1'\n"},
        {"    y = x.if\n", "E0105 3:11-3:13 expected an attribute name after '.', found 'if'\n"},
        {"    y = a if b\n", "E0105 3:15-3:15 expected 'else' after 'if' expression, found end of line\n"},
        {"    y = else\n", "E0105 3:9-3:13 expected an expression, found 'else'\n"},
        {"    f() = 1\n", "E0105 3:5-3:8 cannot assign to function call\n"},
        {"    1 = x\n", "E0105 3:5-3:6 cannot assign to literal\n"},
        {"    a + b = c\n", "E0105 3:5-3:10 cannot assign to expression\n"},
        {"    [a, f()] = c\n", "E0105 3:9-3:12 cannot assign to function call\n"},
        {"    for f() in r:\n        pass\n", "E0105 3:9-3:12 cannot assign to function call\n"},
        {"    a, b += 1\n", "E0105 3:5-3:9 'tuple' is an illegal expression for augmented assignment\n"},
        {"    (a, b): int = 1\n", "E0105 3:5-3:11 only single target (not tuple) can be annotated\n"},
        {"    f(x=1, 2)\n", "E0105 3:12-3:13 positional argument follows keyword argument\n"},
        {"    f(**k, 2)\n", "E0105 3:12-3:13 positional argument follows keyword argument unpacking\n"},
        {"    f(**k, *a)\n", "E0105 3:12-3:14 iterable argument unpacking follows keyword argument unpacking\n"},
        {"    f(a.b=1)\n", "E0105 3:7-3:10 expression cannot contain assignment, perhaps you meant \"==\"?\n"},
        {"    f(x for x in y, 1)\n", "E0105 3:7-3:19 generator expression must be parenthesized\n"},
        {"    y = \"a\" b\"b\"\n", "E0105 3:9-3:17 cannot mix bytes and nonbytes literals\n"},
        {"    y = (*a)\n", "E0105 3:10-3:12 cannot use starred expression here\n"},
        {"    y = lambda x 1\n", "E0105 3:18-3:19 expected ':' after the lambda parameters\n"},
        {"    y = {1: 2, 3}\n", "E0105 3:17-3:18 expected ':' after the dictionary key, found '}'\n"},
        {"    y = [x for x y]\n", "E0105 3:18-3:19 expected 'in' after the comprehension target, found 'y'\n"},
        {"    else:\n        pass\n", "E0105 3:5-3:9 expected an expression, found 'else'\n"},
        {"    for i in r:\n    pass\n", "E0104 4:5-4:9 expected an indented block after 'for' statement on line 3\n"},
        {"    if a:\n        pass\n    else:\n    pass\n",
         "E0104 6:5-6:9 expected an indented block after 'else' statement on line 5\n"},
        {"    x = 1\n        y = 2\n", "E0104 4:9-4:9 unexpected indent\n"},
        {"    return $\n", "E0101 3:12-3:13 invalid character '$' (U+0024)\n"},
        {"    y = f(x\n    z = 1\n", "E0106 3:10-3:11 '(' was never closed\n"},
        {"    y = [1, 2)\n", "E0105 3:14-3:15 closing parenthesis ')' does not match opening parenthesis '['\n"},
        {"    y = 012\n", "E0103 3:9-3:12 leading zeros in decimal integer literals are not permitted; use an 0o "
                         "prefix for octal integers\n"},
        {"    y = 'abc\n", "E0102 3:9-3:13 unterminated string literal\n"},
        {"    if a:\n            b\n        c\n",
         "E0104 5:9-5:9 unindent does not match any outer indentation level\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Parsed p = kernel_src(cases[i].body);
        ck_assert_msg(strcmp(diags(&p), cases[i].diags) == 0, "case %zu:\n%sgot:\n%swant:\n%s", i, cases[i].body,
                      diags(&p), cases[i].diags);
        ck_assert_int_eq(p.st, MT_ERR_SOURCE);
        ck_assert_uint_eq(p.m->nfuncs, 1);
        mt_ctx_free(p.c);
    }
}
END_TEST

START_TEST(header_errors)
{
    static const struct { const char *src, *diags; } cases[] = {
        {"@jit\ndef k(x, x): pass\n", "E0105 2:10-2:11 duplicate argument 'x' in function definition\n"},
        {"@jit\ndef k(a=1, b): pass\n", "E0105 2:12-2:13 parameter without a default follows parameter with a default\n"},
        {"@jit\ndef k(*): pass\n", "E0105 2:7-2:8 named arguments must follow bare *\n"},
        {"@jit\ndef k(a, *, **kw): pass\n", "E0105 2:10-2:11 named arguments must follow bare *\n"},
        {"@jit\ndef k(*a, *b): pass\n", "E0105 2:11-2:12 * argument may appear only once\n"},
        {"@jit\ndef k(**kw, a): pass\n", "E0105 2:13-2:14 expected ')' after the var-keyword parameter, found 'a'\n"},
        {"@jit\ndef k(/, a): pass\n", "E0105 2:7-2:8 at least one argument must precede /\n"},
        {"@jit\ndef k(*args=1): pass\n", "E0105 2:12-2:13 var-positional argument cannot have default value\n"},
        {"@jit\ndef k(1): pass\n", "E0105 2:7-2:8 expected a parameter name, found '1'\n"},
        {"@jit\ndef k x: pass\n", "E0105 2:7-2:8 expected '(' after the function name, found 'x'\n"},
        {"@jit\ndef k(x) pass\n", "E0105 2:10-2:14 expected ':' after the function signature\n"},
        {"@jit\ndef k(x):\npass\n", "E0104 3:1-3:5 expected an indented block after function definition on line 2\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Parsed p = parse(cases[i].src);
        ck_assert_msg(strcmp(diags(&p), cases[i].diags) == 0, "case %zu:\n%sgot:\n%swant:\n%s", i, cases[i].src,
                      diags(&p), cases[i].diags);
        ck_assert_uint_eq(p.m->nfuncs, 1);
        mt_ctx_free(p.c);
    }
    /* a broken header keeps the indented body, and its errors are reported too */
    Parsed p = parse("@jit\ndef k(x) -> :\n    a = 1\n    b = )\n");
    ck_assert_str_eq(diags(&p), "E0105 4:9-4:10 unmatched ')'\n"
                                "E0105 2:13-2:14 expected an expression, found ':'\n");
    ck_assert_uint_eq(fn0(&p)->body.n, 1);
    ck_assert_str_eq(SPAN(&p, fn0(&p)->def_span), "2:1-2:12");
    mt_ctx_free(p.c);
}
END_TEST

START_TEST(recovery_reports_each_statement_once)
{
    /* two independent errors: two diagnostics, the good statements stay */
    Parsed p = kernel_src("    a = (1 + )\n    b = 2\n    c = 3 4\n    d = 5\n");
    ck_assert_str_eq(diags(&p), "E0105 3:14-3:15 expected an expression, found ')'\n"
                                "E0105 5:11-5:12 invalid syntax: unexpected '4'\n");
    ck_assert_uint_eq(fn0(&p)->body.n, 2);
    ck_assert_str_eq(stmt(&p, 0)->u.assign.targets.v[0]->u.name, "b");
    ck_assert_str_eq(stmt(&p, 1)->u.assign.targets.v[0]->u.name, "d");
    mt_ctx_free(p.c);

    /* at most one error per statement, and `;`-separated ones go with it */
    p = kernel_src("    y = (1 + ) + (2 + ) + f(a b); z = 1 2\n    w = 1\n");
    ck_assert_str_eq(diags(&p), "E0105 3:14-3:15 expected an expression, found ')'\n");
    mt_ctx_free(p.c);

    /* an error in a compound header: its block is still checked, its else is not a stray statement */
    p = kernel_src("    if a b:\n        x = )\n    elif c:\n        pass\n    else:\n        y = (\n        ]\n    z = 1\n");
    ck_assert_str_eq(diags(&p), "E0105 4:13-4:14 unmatched ')'\n"
                                "E0105 9:9-9:10 closing parenthesis ']' does not match opening parenthesis '(' on line 8\n"
                                "E0105 3:10-3:11 expected ':' after 'if' condition\n");
    ck_assert_uint_eq(fn0(&p)->body.n, 1);
    ck_assert_str_eq(stmt(&p, 0)->u.assign.targets.v[0]->u.name, "z");
    mt_ctx_free(p.c);

    /* an unterminated string inside a call: one error, and what follows still parses */
    p = kernel_src("    y = f(x, \"abc)\n    z = 1\n@jit\ndef k2():\n    pass\n");
    ck_assert_str_eq(diags(&p), "E0102 3:14-3:19 unterminated string literal\n");
    ck_assert_uint_eq(p.m->nfuncs, 2);
    ck_assert_uint_eq(fn0(&p)->body.n, 1);
    ck_assert_str_eq(stmt(&p, 0)->u.assign.targets.v[0]->u.name, "z");
    mt_ctx_free(p.c);

    /* errors in two kernels, and the host code between them stays silent */
    p = parse("@jit\ndef a():\n    x = = 1\nhost = = 2\n@jit\ndef b():\n    y = f(,)\n");
    ck_assert_str_eq(diags(&p), "E0105 3:9-3:10 expected an expression, found '='\n"
                                "E0105 7:11-7:12 expected an expression, found ','\n");
    ck_assert_uint_eq(p.m->nfuncs, 2);
    mt_ctx_free(p.c);
}
END_TEST

/* ---- robustness ------------------------------------------------------------ */

static char *repeat_src(const char *head, const char *open, int n, const char *mid, const char *close, const char *tail)
{
    size_t lo = strlen(open), lc = strlen(close), lh = strlen(head), lm = strlen(mid), lt = strlen(tail);
    char *s = malloc(lh + (lo + lc) * (size_t)n + lm + lt + 1), *o = s;
    memcpy(o, head, lh);
    o += lh;
    for (int i = 0; i < n; i++, o += lo)
        memcpy(o, open, lo);
    memcpy(o, mid, lm);
    o += lm;
    for (int i = 0; i < n; i++, o += lc)
        memcpy(o, close, lc);
    memcpy(o, tail, lt + 1);
    return s;
}

START_TEST(deep_nesting_is_capped)
{
    static const struct { const char *open, *close; } shapes[] = {
        {"(", ")"}, {"[", "]"}, {"-", ""}, {"not ", ""}, {"2**", ""}, {"f(", ")"}, {"x[", "]"},
        {"lambda: ", ""}, {"a if b else ", ""}, {"{1: ", "}"},
        /* built in a loop, but as deep in the tree as the others */
        {"1+", ""}, {"", "()"}, {"", ".a"}, {"", "[0]"},
    };
    static const int depths[] = {90, 1000, 100000};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        for (int d = 0; d < 3; d++) {
            int n = depths[d];
            char *src = repeat_src("@jit\ndef k():\n    y = ", shapes[i].open, n, "x", shapes[i].close, "\n    z = 2\n");
            Parsed p = parse(src);
            if (d == 0) {
                ck_assert_msg(mt_diag_count(p.c) == 0, "shape %zu depth %d: %s", i, n, diags(&p));
            } else {
                ck_assert_uint_eq(mt_diag_count(p.c), 1);
                ck_assert_str_eq(mt_diag_at(p.c, 0)->msg, "expression nested too deeply");
                ck_assert_str_eq(mt_diag_at(p.c, 0)->code, "E0105");
                ck_assert_uint_eq(fn0(&p)->body.n, 1); /* z = 2 survives */
            }
            mt_ctx_free(p.c);
            free(src);
        }
    }
    /* module level: quietly not a value */
    char *src = repeat_src("X = ", "(", 100000, "1", ")", "\n");
    Parsed p = parse(src);
    ck_assert_str_eq(diags(&p), "");
    ck_assert_ptr_null(mt_module_global(p.m, "X")->value);
    mt_ctx_free(p.c);
    free(src);
}
END_TEST

START_TEST(deep_blocks_are_capped)
{
    enum { LEVELS = 300 };
    MtBuf b;
    MtCtx *scratch = mt_ctx_new(NULL);
    mt_buf_init(&b, &scratch->arena);
    mt_buf_puts(&b, "@jit\ndef k():\n");
    for (int i = 1; i <= LEVELS; i++) {
        mt_buf_indent(&b, i);
        mt_buf_puts(&b, "if a:\n");
    }
    mt_buf_indent(&b, LEVELS + 1);
    mt_buf_puts(&b, "pass\n x = 1\n");
    Parsed p = parse(mt_buf_str(&b));
    ck_assert_uint_eq(mt_diag_count(p.c), 1);
    ck_assert_str_eq(mt_diag_at(p.c, 0)->msg, "block nested too deeply");
    ck_assert_uint_eq(fn0(&p)->body.n, 2);
    mt_ctx_free(p.c);

    /* each elif nests the tree one level deeper: long chains are capped too */
    mt_buf_init(&b, &scratch->arena);
    mt_buf_puts(&b, "@jit\ndef k():\n    if a: pass\n");
    for (int i = 0; i < 150; i++)
        mt_buf_puts(&b, "    elif a: pass\n");
    mt_buf_puts(&b, "    else: pass\n    z = 1\n");
    p = parse(mt_buf_str(&b));
    ck_assert_str_eq(diags(&p), "E0105 103:5-103:9 too many 'elif' branches\n");
    ck_assert_uint_eq(fn0(&p)->body.n, 1); /* the chain is dropped, z = 1 stays */
    mt_ctx_free(p.c);

    /* the same depth in host code is skipped without a word */
    mt_buf_init(&b, &scratch->arena);
    for (int i = 0; i < 5000; i++) {
        mt_buf_indent(&b, i);
        mt_buf_puts(&b, "if a:\n");
    }
    mt_buf_indent(&b, 5000);
    mt_buf_puts(&b, "pass\n@jit\ndef k():\n    pass\n");
    p = parse(mt_buf_str(&b));
    ck_assert_str_eq(diags(&p), "");
    ck_assert_uint_eq(p.m->nfuncs, 1);
    mt_ctx_free(p.c);
    mt_ctx_free(scratch);
}
END_TEST

static double seconds_since(const struct timespec *a)
{
    struct timespec b;
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (double)(b.tv_sec - a->tv_sec) + (double)(b.tv_nsec - a->tv_nsec) / 1e9;
}

/* Inputs built to hit a quadratic corner stay linear: a def with 50,000
 * parameters (duplicate check), a literal with 200,000 bad escapes. */
START_TEST(pathological_sizes_stay_fast)
{
    MtCtx *scratch = mt_ctx_new(NULL);
    MtBuf b;
    mt_buf_init(&b, &scratch->arena);
    mt_buf_puts(&b, "@jit\ndef k(p0");
    for (int i = 1; i < 50000; i++)
        mt_buf_printf(&b, ", p%d", i);
    mt_buf_puts(&b, ", p7): pass\n");
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    Parsed p = parse(mt_buf_str(&b));
    ck_assert_uint_eq(mt_diag_count(p.c), 1);
    ck_assert_str_eq(mt_diag_at(p.c, 0)->msg, "duplicate argument 'p7' in function definition");
    ck_assert_uint_eq(mt_diag_at(p.c, 0)->span.off, b.n - 10); /* the last "p7" */
    mt_ctx_free(p.c);

    mt_buf_init(&b, &scratch->arena);
    mt_buf_puts(&b, "x = '");
    for (int i = 0; i < 200000; i++)
        mt_buf_puts(&b, "\\xZ");
    mt_buf_puts(&b, "'\n");
    p = parse(mt_buf_str(&b));
    ck_assert_uint_eq(mt_error_count(p.c), 200000);
    ck_assert_uint_eq(mt_diag_count(p.c), MT_MAX_ERRORS);
    mt_ctx_free(p.c);
    double s = seconds_since(&t0);
    ck_assert_msg(s < 5.0, "took %.2f s", s);
    mt_ctx_free(scratch);
}
END_TEST

/* mt_parse must return, with a sane status and in-range diagnostics, on any
 * input: every prefix of two real files, and byte-mutated variants. */
static void check_sane(const char *src, size_t len)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m = NULL;
    MtStatus st = mt_parse(c, "fuzz.py", src, len, &m);
    ck_assert(st == MT_OK || st == MT_ERR_SOURCE);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(st == MT_OK, mt_error_count(c) == 0);
    for (size_t i = 0; i < mt_diag_count(c); i++) {
        const MtDiag *d = mt_diag_at(c, i);
        ck_assert(strncmp(d->code, "E01", 3) == 0);
        ck_assert(d->span.off <= d->span.end && d->span.end <= len);
        ck_assert(d->span.line >= 1 && d->span.col >= 1);
    }
    for (size_t i = 0; i < mt_module_kernel_count(m); i++) {
        ck_assert_ptr_nonnull(mt_module_kernel(m, i)->name);
        ck_assert_ptr_nonnull(mt_ast_print(c, m->funcs[i]));
    }
    mt_ctx_free(c);
}

START_TEST(fuzz_truncations_and_mutations)
{
    static const char *const files[] = {"host_and_kernels.py", "kernel_constructs.py"};
    static const char alphabet[] = "()[]{}:,;.\n\t \"'#\\0a@=*fb\x80\xff";
    for (int f = 0; f < 2; f++) {
        size_t len;
        char *src = data_file(files[f], &len);
        for (size_t n = 0; n <= len; n += 1 + (n > 3000))
            check_sane(src, n);
        char *mut = malloc(len + 2);
        uint32_t seed = 12345u + (uint32_t)f;
        for (int round = 0; round < 600; round++) {
            memcpy(mut, src, len);
            size_t n = len;
            for (int k = 0; k < 1 + round % 4; k++) {
                seed = seed * 1103515245u + 12345u;
                size_t at = (seed >> 8) % n;
                char ch = alphabet[(seed >> 3) % (sizeof alphabet - 1)];
                switch (seed % 3) {
                case 0: mut[at] = ch; break;
                case 1: memmove(mut + at, mut + at + 1, n - at - 1); n--; break;
                default: memmove(mut + at + 1, mut + at, n - at); mut[at] = ch; n++; break;
                }
                if (n >= len + 1)
                    break;
            }
            check_sane(mut, n);
        }
        free(mut);
        free(src);
    }
}
END_TEST

/* ---- the public entry ------------------------------------------------------- */

typedef struct FailAlloc {
    long left;                /* allocations that may still succeed */
} FailAlloc;

static void *failing_realloc(void *ud, void *ptr, size_t old, size_t n)
{
    FailAlloc *fa = ud;
    (void)old;
    if (n == 0) {
        free(ptr);
        return NULL;
    }
    if (fa->left-- <= 0)
        return NULL;
    return realloc(ptr, n);
}

START_TEST(out_of_memory_is_a_status)
{
    size_t len;
    char *src = data_file("host_and_kernels.py", &len);
    MtStatus st = MT_ERR_NOMEM;
    long limit;
    for (limit = 1; st == MT_ERR_NOMEM && limit < 10000; limit++) {
        FailAlloc fa = {limit};
        MtAlloc a = {failing_realloc, &fa};
        MtCtx *c = mt_ctx_new(&a);
        ck_assert_ptr_nonnull(c);
        MtModule *m = (MtModule *)&fa;
        st = mt_parse(c, "oom.py", src, len, &m);
        if (st == MT_ERR_NOMEM)
            ck_assert_ptr_null(m);
        else
            ck_assert_uint_eq(mt_module_kernel_count(m), 2);
        mt_ctx_free(c);
    }
    ck_assert_int_eq(st, MT_OK);
    ck_assert_int_gt(limit, 3);
    free(src);
}
END_TEST

START_TEST(parse_api_edges)
{
    MtCtx *c = mt_ctx_new(NULL);
    MtModule *m;
    ck_assert_int_eq(mt_parse(c, NULL, NULL, 0, &m), MT_OK);
    ck_assert_uint_eq(mt_module_kernel_count(m), 0);
    ck_assert_ptr_null(mt_module_kernel(m, 0));
    ck_assert_ptr_null(mt_module_find_kernel(m, "k"));
    ck_assert_ptr_null(mt_module_global(m, "k"));
    ck_assert_str_eq(mt_file_path(c, m->file), "<input>");
    ck_assert_uint_eq(mt_module_kernel_count(NULL), 0);
    /* errors: MT_ERR_SOURCE, and the module is still there */
    ck_assert_int_eq(mt_parse(c, "bad.py", "@jit\ndef k(:\n    pass\n", 22, &m), MT_ERR_SOURCE);
    ck_assert_uint_eq(mt_module_kernel_count(m), 1);
    /* a second file in the same context gets its own index; earlier errors do not leak into its status */
    ck_assert_int_eq(mt_parse(c, "good.py", "x = 1\n", 6, &m), MT_OK);
    ck_assert_uint_eq(m->file, 3);
    ck_assert_str_eq(mt_file_path(c, 3), "good.py");
    mt_ctx_free(c);

    for (int k = 0; k < ND_KIND_COUNT_; k++) {
        const char *name = mt_node_kind_name((MtNodeKind)k);
        ck_assert_str_ne(name, "?");
        for (int j = 0; j < k; j++)
            ck_assert_str_ne(name, mt_node_kind_name((MtNodeKind)j));
    }
    ck_assert_str_eq(mt_node_kind_name(ND_KIND_COUNT_), "?");
    ck_assert_str_eq(mt_node_kind_name(ND_BINOP), "BinOp");
}
END_TEST

/* Host code for tools: the module keeps its tokens, mt_parse_host_expr
 * parses a token range quietly, and dict displays keep their entries. */
START_TEST(host_expressions)
{
    Parsed p = parse("import triton\n"
                     "def launch(x):\n"
                     "    k[grid](x, 3, BLOCK={'A': 1, **base}['A'])\n"
                     "    bad = (1 +\n"
                     "           )\n");
    ck_assert_uint_gt(p.m->ntoks, 10);
    ck_assert_int_eq(p.m->toks[p.m->ntoks - 1].kind, TK_EOF);
    uint32_t from = 0, to = 0;
    for (uint32_t i = 0; i < p.m->ntoks; i++)
        if (p.m->toks[i].kind == TK_NAME && !strcmp(p.m->toks[i].text, "k"))
            from = i;
    for (to = from; p.m->toks[to].kind != TK_NEWLINE; to++)
        ;
    const MtNode *call = mt_parse_host_expr(p.c, p.m, from, to);
    ck_assert_ptr_nonnull(call);
    ck_assert_int_eq(call->kind, ND_CALL);
    ck_assert_int_eq(call->u.call.fn->kind, ND_SUBSCRIPT);
    ck_assert_uint_eq(call->u.call.args.n, 2);
    ck_assert_uint_eq(call->u.call.nkw, 1);
    ck_assert_str_eq(call->u.call.kw[0].name, "BLOCK");
    const MtNode *dict = call->u.call.kw[0].value->u.sub.value;
    ck_assert_str_eq(dict->u.unsup.what, "dict display");
    ck_assert_uint_eq(dict->u.unsup.items.n, 4);
    ck_assert_int_eq(dict->u.unsup.items.v[0]->kind, ND_STR);
    ck_assert_int_eq(dict->u.unsup.items.v[1]->u.num.i, 1);
    ck_assert_ptr_null(dict->u.unsup.items.v[2]);
    ck_assert_str_eq(dict->u.unsup.items.v[3]->u.name, "base");
    ck_assert_str_eq(SPAN(&p, call->span), "3:5-3:47");
    /* a range that does not parse, or stops inside an expression: NULL, quietly */
    ck_assert_ptr_null(mt_parse_host_expr(p.c, p.m, from, to - 1));
    for (from = to; p.m->toks[from].kind != TK_NAME || strcmp(p.m->toks[from].text, "bad"); from++)
        ;
    for (to = from; p.m->toks[to].kind != TK_NEWLINE; to++)
        ;
    ck_assert_ptr_null(mt_parse_host_expr(p.c, p.m, from + 2, to));
    ck_assert_ptr_null(mt_parse_host_expr(p.c, p.m, 0, p.m->ntoks));
    ck_assert_uint_eq(mt_diag_count(p.c), 0);
    mt_ctx_free(p.c);
}
END_TEST

static Suite *parser_suite(void)
{
    Suite *s = suite_create("parser");
    TCase *tc = tcase_create("parser");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, host_file_has_two_kernels_and_no_diagnostics);
    tcase_add_test(tc, host_file_globals);
    tcase_add_test(tc, constructs_file_parses_without_diagnostics);
    tcase_add_test(tc, jit_decorator_forms);
    tcase_add_test(tc, non_jit_bodies_are_not_parsed);
    tcase_add_test(tc, module_globals);
    tcase_add_test(tc, later_bindings_replace_earlier_ones);
    tcase_add_test(tc, directive_comments);
    tcase_add_test(tc, assignment_forms);
    tcase_add_test(tc, augmented_assignment_ops);
    tcase_add_test(tc, simple_statements);
    tcase_add_test(tc, if_elif_else_chain);
    tcase_add_test(tc, for_and_while_loops);
    tcase_add_test(tc, function_header_spans);
    tcase_add_test(tc, constexpr_annotations);
    tcase_add_test(tc, operator_precedence);
    tcase_add_test(tc, comparison_chains);
    tcase_add_test(tc, calls_and_keywords);
    tcase_add_test(tc, subscripts_and_slices);
    tcase_add_test(tc, atoms_and_parentheses);
    tcase_add_test(tc, unsupported_constructs);
    tcase_add_test(tc, soft_keywords_stay_names);
    tcase_add_test(tc, syntax_errors);
    tcase_add_test(tc, header_errors);
    tcase_add_test(tc, recovery_reports_each_statement_once);
    tcase_add_test(tc, deep_nesting_is_capped);
    tcase_add_test(tc, deep_blocks_are_capped);
    tcase_add_test(tc, pathological_sizes_stay_fast);
    tcase_add_test(tc, fuzz_truncations_and_mutations);
    tcase_add_test(tc, out_of_memory_is_a_status);
    tcase_add_test(tc, parse_api_edges);
    tcase_add_test(tc, host_expressions);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(parser_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
