/* specialize.c: binding a kernel's parameters for one compilation.
 *
 * Each parameter gets, in this order of precedence:
 *   1. its entry in the Triton-AOT-style signature ("*fp32,*fp32,i32,256"):
 *      a type (runtime parameter) or a literal (specialised constant:
 *      256, 'relu', tl.float16; py_parse_literal, the rule -D follows);
 *   2. a named value (-D NAME=VALUE);
 *   3. a value from the kernel's `# mytriton: NAME=VALUE ...` directive;
 *   4. its Python default value;
 *   5. otherwise a runtime parameter whose type is inferred from its use
 *      (a pointer when it addresses a load or store, i32 otherwise) —
 *      except tl.constexpr parameters, which must get a value.
 * The result is written into the kernel frame's scope and into the
 * program's parameter tables (params, sig). */
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

#include "base/strbuf.h"
#include "fe.h"

typedef struct Named {
    const char *name;
    const char *value;
    bool used;
} Named;

static bool is_constexpr_annotation(const MtNode *a)
{
    if (!a)
        return false;
    if (a->kind == ND_NAME)
        return !strcmp(a->u.name, "constexpr");
    if (a->kind == ND_ATTR)
        return !strcmp(a->u.attr.name, "constexpr");
    if (a->kind == ND_STR)
        return strstr(a->u.str.s, "constexpr") != NULL;
    return false;
}

static char *trim(MtCtx *c, const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    return mt_arena_strndup(&c->arena, s, n);
}

/* Split a signature at commas outside quotes (empty entries are kept:
 * "…,,256"; a string entry may hold commas: "'a,b'"). */
static char **split_signature(MtCtx *c, const char *sig, uint32_t *n)
{
    uint32_t count = 1;
    for (const char *p = sig; *p; p++)
        count += *p == ',';
    char **out = mt_arena_alloc(&c->arena, (count + 1) * sizeof *out);
    uint32_t k = 0;
    for (const char *p = sig;; p++) {
        size_t len = mt_unquoted_span(p, ",");
        out[k++] = trim(c, p, len);
        p += len;
        if (!*p)
            break;
    }
    if (k == 1 && !out[0][0])
        k = 0;
    *n = k;
    return out;
}

/* Signature type spellings, Triton's AOT ones ("*fp16", "i64", "u8",
 * "*bf16", "fp32") or any other spelling of a dtype, optionally with a
 * divisibility hint (":16", stored in *div; 1 without one). Returns 1 for a type, 0 when
 * `s` is not a type name (so it is a literal), -1 for a Triton type
 * mytriton lacks (the fp8 formats) or a malformed hint. A dtype with its
 * module, tl.float16 or torch.float32, is a value (mt_dtype_literal), as
 * in -D: the entry of a dtype constexpr. */
static int parse_sig_type(MtCtx *c, const char *s, const MtType **out, uint32_t *div)
{
    char buf[32];
    size_t n = strcspn(s, ":");
    *div = 1;
    if (n >= sizeof buf || s[0] == '\'' || s[0] == '"')
        return 0;
    memcpy(buf, s, n);
    buf[n] = 0;
    bool ptr = buf[0] == '*';
    const char *t = ptr ? buf + 1 : buf;
    MtDtype d;
    if (!ptr && mt_dtype_literal(buf, &d))
        return s[n] == ':' ? -1 : 0; /* a value takes no divisibility hint */
    if (!mt_dtype_parse(t, &d))
        return ptr || !strncmp(t, "fp8", 3) ? -1 : 0;
    if (s[n] == ':') {
        char *end;
        long v = strtol(s + n + 1, &end, 10);
        if (*end || v <= 0 || v > (1 << 30))
            return -1;
        *div = (uint32_t)v;
    }
    *out = ptr ? mt_ty_ptr(c, mt_ty_scalar(d)) : mt_ty_scalar(d);
    return 1;
}

/* `# mytriton: BLOCK=256 signature=*fp32,*fp32,i32` */
static Named *parse_directive(Fe *fe, const MtFuncDef *k, uint32_t *n, const char **sig)
{
    MtCtx *c = fe->c;
    *n = 0;
    if (!k->directive)
        return NULL;
    const char *s = k->directive;
    uint32_t cap = 1;
    for (const char *p = s; *p; p++)
        cap += *p == '=';
    Named *out = mt_arena_alloc(&c->arena, cap * sizeof *out);
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == ',')
            s++;
        if (!*s)
            break;
        size_t len = mt_unquoted_span(s, " \t");
        const char *item = mt_arena_strndup(&c->arena, s, len);
        s += len;
        const char *eq = strchr(item, '=');
        if (!eq || eq == item) {
            mt_warning(c, k->directive_span, "E0303",
                       "ignoring '%s' in the mytriton directive: expected NAME=VALUE items", item);
            continue;
        }
        const char *name = mt_arena_strndup(&c->arena, item, (size_t)(eq - item));
        const char *value = eq + 1;
        if (!strcmp(name, "signature") || !strcmp(name, "sig")) {
            *sig = value;
            continue;
        }
        size_t vl = strlen(value);
        while (vl && value[vl - 1] == ',')
            vl--;
        out[*n].name = name;
        out[*n].value = mt_arena_strndup(&c->arena, value, vl);
        (*n)++;
    }
    return out;
}

static const char *param_list(Fe *fe, const MtFuncDef *k)
{
    MtBuf b;
    mt_buf_init(&b, &fe->c->arena);
    for (uint32_t i = 0; i < k->nparams; i++)
        mt_buf_printf(&b, i ? ", %s" : "%s", k->params[i].name);
    return mt_buf_str(&b);
}

/* A bare word: letters, digits, '_' and '-' (relu, leaky_relu, gelu-tanh),
 * not a name with a module (tl.float33 is a misspelt dtype, not a string). */
static bool bare_word(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '-'))
            return false;
    return true;
}

/* A constexpr's value. From -D or the editor (a define) and from the
 * `# mytriton:` comment, a bare word that is no literal is a string
 * (MODE=relu is 'relu'), as a project file's string would be. */
static bool literal(Fe *fe, const char *text, const char *what, const char *param, MtSpan sp, bool bare_strings,
                    FValue *out)
{
    if (py_parse_literal(fe->c, text, out))
        return true;
    char quoted[512];
    if (bare_strings && bare_word(text) && mt_literal_from_text(quoted, sizeof quoted, text) < sizeof quoted &&
        py_parse_literal(fe->c, quoted, out))
        return true;
    fe_error(fe, sp, "E0303",
             "cannot use '%s' (%s) as the value of '%s': expected an integer, a float, True, False, None, a "
             "quoted string or a dtype such as tl.float16",
             text, what, param);
    return false;
}

bool fe_specialize(Fe *fe, const MtFuncDef *k)
{
    MtCtx *c = fe->c;
    MtExprProgram *prog = fe->prog;
    const MtSpec *spec = fe->spec;
    MtSpan at = k->def_span;
    bool ok = true;

    const char *dsig = NULL;
    uint32_t ndir;
    Named *dir = parse_directive(fe, k, &ndir, &dsig);
    const char *sigtext = spec->signature ? spec->signature : dsig;
    uint32_t nsig = 0;
    char **sig = sigtext ? split_signature(c, sigtext, &nsig) : NULL;
    if (nsig > k->nparams) {
        fe_error(fe, at, "E0303", "the signature \"%s\" has %u entries but '%s' has %u parameters (%s)", sigtext, nsig,
                 k->name, k->nparams, param_list(fe, k));
        return false;
    }
    for (size_t d = 0; d < spec->ndefines; d++) {
        bool known = false;
        for (uint32_t i = 0; i < k->nparams; i++)
            known |= !strcmp(k->params[i].name, spec->defines[d].name);
        if (!known) {
            fe_error(fe, at, "E0303", "-D %s: '%s' has no parameter named '%s' (parameters: %s)", spec->defines[d].name,
                     k->name, spec->defines[d].name, param_list(fe, k));
            ok = false;
        }
    }
    for (uint32_t d = 0; d < ndir; d++) {
        bool known = false;
        for (uint32_t i = 0; i < k->nparams; i++)
            known |= !strcmp(k->params[i].name, dir[d].name);
        if (!known)
            mt_warning(c, k->directive_span, "E0303", "the mytriton directive names '%s', which is not a parameter of "
                       "'%s'", dir[d].name, k->name);
    }
    if (!ok)
        return false;

    prog->nsig = k->nparams;
    prog->sig = mt_arena_alloc(&c->arena, (k->nparams + 1) * sizeof *prog->sig);
    prog->sig_param = mt_arena_alloc(&c->arena, (k->nparams + 1) * sizeof *prog->sig_param);
    prog->params = mt_arena_alloc(&c->arena, (k->nparams + 1) * sizeof *prog->params);
    prog->inferred = mt_arena_alloc(&c->arena, (k->nparams + 1) * sizeof *prog->inferred);
    fe->addresses = mt_arena_alloc(&c->arena, (k->nparams + 1) * sizeof *fe->addresses);

    for (uint32_t i = 0; i < k->nparams; i++) {
        const MtParam *p = &k->params[i];
        bool cexpr = is_constexpr_annotation(p->annotation);
        const MtType *ty = NULL;
        uint32_t div = 1;
        FValue v = fv_undef();
        bool have = false;
        prog->sig[i].name = p->name;
        if (p->kind != PARAM_NORMAL) {
            fe_error(fe, p->span, "E0305", "kernel parameters cannot be *args, **kwargs or keyword-only");
            ok = false;
            continue;
        }
        const char *entry = i < nsig && sig[i][0] ? sig[i] : NULL;
        const char *define = NULL;
        for (size_t d = 0; d < spec->ndefines; d++)
            if (!strcmp(spec->defines[d].name, p->name))
                define = spec->defines[d].value;
        const char *dval = NULL;
        for (uint32_t d = 0; d < ndir; d++)
            if (!strcmp(dir[d].name, p->name))
                dval = dir[d].value;

        if (entry) {
            int t = parse_sig_type(c, entry, &ty, &div);
            if (t < 0) {
                fe_error(fe, p->span, "E0303",
                         "signature entry %u '%s' for '%s' is not a type mytriton supports: pointers *fp16, *bf16, "
                         "*fp32, *fp64, *i1, *i8 ... *i64, *u8 ... *u64 and the same scalars, with an optional "
                         "divisibility hint such as :16",
                         i + 1, entry, p->name);
                ok = false;
                continue;
            }
            if (t > 0 && cexpr) {
                fe_error(fe, p->span, "E0303",
                         "'%s' is a tl.constexpr: its signature entry must be a value such as 256, 'relu' or "
                         "tl.float16, not the type '%s'",
                         p->name, entry);
                ok = false;
                continue;
            }
            if (t == 0) {
                if (!cexpr && !py_parse_literal(c, entry, &v)) {
                    /* a runtime parameter's entry is a type, or a value to specialise on */
                    fe_error(fe, p->span, "E0303",
                             "signature entry %u '%s' for '%s' is neither a type (*fp32, *fp16, i32, i64, fp32, ... "
                             "with an optional :16) nor a value to specialise on (an integer, a float, True, False, "
                             "None, a quoted string or a dtype such as tl.float16)",
                             i + 1, entry, p->name);
                    ok = false;
                    continue;
                }
                if (cexpr && !literal(fe, entry, "signature entry", p->name, p->span, false, &v)) {
                    ok = false;
                    continue;
                }
                have = true;
            }
        } else if (define) {
            if (!literal(fe, define, "a -D value or editor setting", p->name, p->span, true, &v)) {
                ok = false;
                continue;
            }
            have = true;
        } else if (dval) {
            if (!literal(fe, dval, "the `# mytriton:` comment's value", p->name, k->directive_span, true, &v)) {
                ok = false;
                continue;
            }
            have = true;
        } else if (p->default_) {
            v = fe_eval(fe, p->default_);
            if (v.kind == FV_UNDEF) {
                ok = false;
                continue;
            }
            if (v.kind == FV_EXPR) {
                fe_error(fe, p->default_->span, "E0306", "the default value of '%s' must be a compile-time constant",
                         p->name);
                ok = false;
                continue;
            }
            if (!cexpr && fv_is_number(v)) {
                /* A runtime parameter with a numeric default: its type. */
                ty = mt_const_natural_type(fe_to_expr(fe, v, p->span)->u.cst);
            } else {
                have = true;
            }
        } else if (cexpr) {
            if (spec->infer_params) {
                mt_diag(c, MT_SEV_INFO, p->name_span, "I0901",
                        "'%s' needs a value to compile '%s': give it a default (%s: tl.constexpr = VALUE), a "
                        "`# mytriton: %s=VALUE` comment above the kernel, or a launch in its file",
                        p->name, k->name, p->name, p->name);
            } else {
                fe_error(fe, p->name_span, "E0302",
                         "no value for tl.constexpr parameter '%s' of '%s': give it in the signature, with -D %s=VALUE, "
                         "as a default value, or in a `# mytriton: %s=VALUE` comment above the kernel",
                         p->name, k->name, p->name, p->name);
            }
            ok = false;
            continue;
        }

        if (have) {
            prog->sig[i].value = fv_repr(c, v);
            fe_assign(fe, p->name, v);
            continue;
        }
        MtExpr *e = fe_new(fe, EX_PARAM, p->name_span, 0);
        e->u.param.name = p->name;
        e->u.param.index = prog->nparams;
        e->u.param.ty = ty;
        e->u.param.div = div;
        prog->inferred[prog->nparams] = !ty;
        bool named = false;
        for (uint32_t n = 0; n < fe->pointer_names.n && !named; n++)
            named = !strcmp(fe->pointer_names.v[n], p->name);
        if (!ty && fe->int_pointers && fe->int_pointers[prog->nparams])
            e->u.param.ty = mt_ty_ptr(c, &mt_ty_i32);
        else if (!ty && ((fe->pointers && fe->pointers[prog->nparams]) || named))
            e->u.param.ty = mt_ty_ptr(c, &mt_ty_f32);
        prog->params[prog->nparams++] = e;
        prog->sig_param[i] = e;
        fe_assign(fe, p->name, fv_expr(e));
    }
    return ok;
}
