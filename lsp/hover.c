/* hover.c: textDocument/hover.
 *
 * What a kernel author wants to see at a position, most specific first:
 *  - on a `tl.` function or dtype: its signature and what mytriton does;
 *  - on a name or expression of a compiled kernel: its type and shape,
 *    where a parameter's value or type came from (a launch, an autotune
 *    config, ...), what made it, the SSA instruction that computes it and
 *    its CUDA layout, then every SSA op the whole source line became
 *    (for a kernel stopped at an error, on the lines before it, from the
 *    part of the kernel before the error: Kernel.prefix) and, with the
 *    setting hoverMlir, the MLIR it became (mlir.c);
 *  - on a rule code (in a comment, say) or inside a diagnostic's range:
 *    the rule's title and explanation.
 * Sections are joined; nothing found is a null result. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"
#include "text.h"

static void code_block(Text *t, bool md, const char *lang, const char *body)
{
    if (md)
        mt_lsp_text_printf(t, "```%s\n%s%s```\n", lang, body, body[0] && body[strlen(body) - 1] == '\n' ? "" : "\n");
    else
        mt_lsp_text_printf(t, "%s%s", body, body[0] && body[strlen(body) - 1] == '\n' ? "" : "\n");
}

static void sep(Text *t, bool md)
{
    if (t->n)
        mt_lsp_text_puts(t, md ? "\n---\n" : "\n");
}

static void rule_section(Text *t, bool md, const MtRule *r)
{
    sep(t, md);
    if (md)
        mt_lsp_text_printf(t, "**%s** `%s`: %s\n\n%s\n", r->code, r->name, r->title, r->help);
    else
        mt_lsp_text_printf(t, "%s %s: %s\n%s\n", r->code, r->name, r->title, r->help);
}

/* Where a parameter's value or type came from (the discovery). */
static void origin_section(Server *s, const Kernel *k, const MtFound *f, Text *t)
{
    bool md = s->markdown;
    const char *em = md ? "*" : "";
    if (f->unsupported_type) {
        mt_lsp_text_printf(t, md ? "\n%s passes `%s` (%s): mytriton cannot compile `%s` yet, so the type shown is "
                                   "inferred from its use\n"
                                 : "\n%s passes %s (%s): mytriton cannot compile %s yet, so the type shown is "
                                   "inferred from its use\n",
                           f->where, f->detail ? f->detail : "it", f->seen ? f->seen : "?", f->unsupported_type);
        return;
    }
    switch (f->origin) {
    case MT_ORIGIN_NONE:
        if (f->constexpr_)
            mt_lsp_text_puts(t, "\nno value: not given by a launch, an autotune config, a default or a "
                                "`# mytriton:` comment\n");
        else
            mt_lsp_text_printf(t, "\n%sinferred from its use%s (no launch shows its type)\n", em, em);
        return;
    case MT_ORIGIN_DEFAULT:
        mt_lsp_text_printf(t, "\n%sfrom its default%s\n", em, em);
        return;
    default: break;
    }
    mt_lsp_text_printf(t, "\n%sfrom %s%s", em, f->where ? f->where : mt_origin_name(f->origin), em);
    if (f->detail)
        mt_lsp_text_printf(t, md ? ": `%s`" : ": %s", f->detail);
    if (f->seen)
        mt_lsp_text_printf(t, " (%s)", f->seen);
    if (f->origin == MT_ORIGIN_AUTOTUNE && k->disc->nconfigs > 1)
        mt_lsp_text_puts(t, " (the code lens above the kernel picks another)");
    mt_lsp_text_puts(t, "\n");
}

/* A stage's lines in a code block, the first MLIR_LINES of them: an
 * unrolled line of a large kernel makes hundreds. */
enum { MLIR_LINES = 40 };

static void stage_lines(Text *t, bool md, const char *body)
{
    const char *p = body;
    uint32_t n = 0, more = 0;
    for (; *p; p++)
        if (*p == '\n' && ++n == MLIR_LINES)
            break;
    for (const char *q = *p ? p + 1 : p; *q; q++)
        more += *q == '\n';
    Text head = {0};
    mt_lsp_text_putn(&head, body, (size_t)(*p ? p + 1 - body : p - body));
    code_block(t, md, "mlir", mt_lsp_text_str(&head));
    mt_lsp_text_free(&head);
    if (more)
        mt_lsp_text_printf(t, md ? "*and %u more line%s*\n" : "(and %u more line%s)\n", more, more == 1 ? "" : "s");
}

/* The MLIR that source line `line` became (the setting hoverMlir), from
 * kernel k compiled again through the MLIR backend on the first hover
 * that asks (mlir.c); one line saying why when it cannot be made. */
static void mlir_section(Server *s, MtCtx *ctx, Kernel *k, uint32_t line, Text *t)
{
    bool md = s->markdown;
    if (k->status != MT_OK) {
        mt_lsp_text_puts(t, md ? "\n**MLIR** not shown: the kernel does not compile (see its diagnostics)\n"
                               : "MLIR: not shown: the kernel does not compile (see its diagnostics)\n");
        return;
    }
    bool llvm = s->settings.hover_mlir == HOVER_MLIR_LLVM;
    const KernelMlir *x = mt_lsp_kernel_mlir(ctx, k, llvm ? MT_STAGE_MLIR_LLVM : MT_STAGE_MLIR);
    if (!x)
        return;
    if (!x->k) {
        const MtDiag *g = x->why;
        const char *msg = g && g->msg ? g->msg : "the MLIR backend could not build this kernel";
        size_t n = strcspn(msg, "\n");
        if (md)
            mt_lsp_text_printf(t, "\n**MLIR** not shown%s%s%s: %.*s\n", g ? " (`" : "", g ? g->code : "", g ? "`)" : "",
                               (int)n, msg);
        else
            mt_lsp_text_printf(t, "MLIR: not shown%s%s%s: %.*s\n", g ? " (" : "", g ? g->code : "", g ? ")" : "",
                               (int)n, msg);
        return;
    }
    const char *lines = mt_compiled_stage_for_line(x->ctx, x->k, MT_STAGE_MLIR, line);
    if (lines) {
        mt_lsp_text_printf(t, md ? "\n**Line %u** in MLIR:\n" : "line %u in MLIR:\n", line);
        stage_lines(t, md, lines);
    }
    lines = llvm ? mt_compiled_stage_for_line(x->ctx, x->k, MT_STAGE_MLIR_LLVM, line) : NULL;
    if (lines) {
        mt_lsp_text_printf(t, md ? "\n**Line %u** in MLIR after the GPU lowering passes (`mlir-llvm`):\n"
                                 : "line %u in MLIR after the GPU lowering passes (mlir-llvm):\n",
                           line);
        stage_lines(t, md, lines);
    }
}

/* The value behind a position: v from kernel k of an analysis in ctx
 * (the current one, or the last good one for a line that did not change);
 * `line` is the 1-based source line in that analysis's text. */
static void value_section(Server *s, MtCtx *ctx, Kernel *k, const MtQueryValue *v, uint32_t line, Text *t)
{
    bool md = s->markdown;
    Text head = {0};
    if (v->name)
        mt_lsp_text_printf(&head, "%s: ", v->name);
    if (v->type)
        mt_lsp_text_puts(&head, v->type);
    else if (v->value)
        mt_lsp_text_printf(&head, "%s = %s", v->what, v->value);
    else
        mt_lsp_text_puts(&head, v->what);
    if (v->type && v->value)
        mt_lsp_text_printf(&head, " = %s", v->value);
    code_block(t, md, "python", mt_lsp_text_str(&head));
    mt_lsp_text_free(&head);
    if (v->type) {
        mt_lsp_text_printf(t, md ? "*%s*" : "%s", v->what);
        if (v->instances > 1)
            mt_lsp_text_printf(t, ", %u instances (unrolled or inlined more than once)", v->instances);
        mt_lsp_text_printf(t, md ? " in `%s`\n" : " in %s\n", k->info->name);
    }
    const MtFound *f = v->name && (!strcmp(v->what, "constexpr") || !strcmp(v->what, "parameter"))
                           ? mt_lsp_found_named(k, v->name) : NULL;
    if (f)
        origin_section(s, k, f, t);
    /* A kernel stopped at an error before its SSA or layouts: a line
     * before the error has those of the part of the kernel before it. */
    MtCompiled *from = k->k;
    MtQueryValue pv;
    uint32_t cut = mt_compiled_prefix_line(k->prefix);
    bool own = v->span.off >= k->info->span.off && v->span.off < k->info->span.end;
    if (k->prefix && !(own && line >= cut) && mt_query_value_at(ctx, k->prefix, v->span.off, &pv) &&
        (pv.ssa || pv.layout)) {
        from = k->prefix;
        v = &pv;
    }
    if (v->ssa) {
        mt_lsp_text_puts(t, md ? "\n**SSA** " : "SSA: ");
        mt_lsp_text_printf(t, md ? "`%s`\n" : "%s\n", v->ssa);
    }
    if (v->layout) {
        mt_lsp_text_puts(t, md ? "\n**Layout** " : "layout: ");
        mt_lsp_text_printf(t, "%s\n", v->layout);
    }
    const char *ops = mt_compiled_ops_for_line(ctx, from, line);
    if (ops && ops[0]) {
        mt_lsp_text_printf(t, md ? "\n**Line %u** became:\n" : "line %u became:\n", line);
        code_block(t, md, "", ops); /* mytriton's SSA (docs/ir.md), not MLIR */
    }
    if (from != k->k)
        mt_lsp_text_printf(t, md ? "\n*SSA and layout from the part of `%s` before the error at line %u*\n"
                                 : "(SSA and layout from the part of %s before the error at line %u)\n",
                           k->info->name, cut);
    if (s->settings.hover_mlir != HOVER_MLIR_OFF)
        mlir_section(s, ctx, k, line, t);
}

/* The kernel's specialisation and resources, on its name. */
static void kernel_section(Server *s, Doc *d, const Kernel *k, Text *t)
{
    bool md = s->markdown;
    const char *sig = k->k ? mt_compiled_signature(d->ctx, k->k) : NULL;
    Text head = {0};
    mt_lsp_text_printf(&head, "%s %s(%s)", k->helper ? "helper" : "kernel", k->info->name, sig ? sig : "...");
    code_block(t, md, "python", mt_lsp_text_str(&head));
    mt_lsp_text_free(&head);
    MtQueryKernel q;
    if (k->k && mt_query_kernel(k->k, &q))
        mt_lsp_text_printf(t, "%d threads per block, %lld element%s per thread, %lld bytes of shared memory\n", q.threads,
                    (long long)q.elements_per_thread, q.elements_per_thread == 1 ? "" : "s",
                    (long long)(q.shared_bytes < 0 ? 0 : q.shared_bytes));
    else if (k->helper)
        mt_lsp_text_puts(t, "inlined into the kernels that call it\n");
    else
        mt_lsp_text_puts(t, "not compiled: see the diagnostics\n");
}

static bool rule_char(char ch) { return isupper((unsigned char)ch) || isdigit((unsigned char)ch); }

cJSON *mt_lsp_handle_hover(Server *s, const cJSON *params, RpcErr *err)
{
    Doc *d = mt_lsp_proto_doc(s, params, err);
    uint32_t off;
    if (!d || !mt_lsp_proto_offset(s, d, cJSON_GetObjectItemCaseSensitive(params, "position"), &off, err))
        return NULL;
    mt_lsp_analyse(s, d);
    bool md = s->markdown;
    Text t = {0};
    uint32_t rb = off, re = off;

    uint32_t wb = off, we = off;
    while (wb > 0 && rule_char(d->text[wb - 1]))
        wb--;
    while (we < d->len && rule_char(d->text[we]))
        we++;
    char word[8] = {0};
    if (we - wb == 5) {
        memcpy(word, d->text + wb, 5);
        const MtRule *r = mt_rule_find(word);
        if (r) {
            rule_section(&t, md, r);
            rb = wb;
            re = we;
        }
    }

    const MtApiEntry *tf;
    uint32_t fb, fe;
    MtQueryValue v;
    Kernel *k, *gk;
    uint32_t old;
    const Kernel *fk;
    const MtFound *f;
    if (!t.n && mt_lsp_tl_attribute(d, off, &fb, &fe, &tf)) {
        char *doc = mt_lsp_tl_markdown(tf, md);
        if (doc)
            mt_lsp_text_puts(&t, doc);
        free(doc);
        mt_lsp_text_puts(&t, "\n");
        rb = fb;
        re = fe;
    } else if (!t.n && (k = mt_lsp_kernel_with_value(d, off, &v)) != NULL) {
        const Kernel *named = NULL;
        if (v.name && !strcmp(v.what, "jit function"))
            for (size_t i = 0; i < d->nkernels; i++)
                if (!strcmp(d->kernels[i].info->name, v.name))
                    named = &d->kernels[i];
        if (named)
            kernel_section(s, d, named, &t);
        else
            value_section(s, d->ctx, k, &v, mt_lsp_doc_line_of(d, off) + 1, &t);
        rb = v.span.off;
        re = v.span.end;
    } else if (!t.n && (k = mt_lsp_kernel_at(d, off)) != NULL && (gk = mt_lsp_good_kernel(d, k)) != NULL &&
               mt_lsp_to_good(d, off, &old) && mt_query_value_at(d->good.ctx, gk->k, old, &v) &&
               mt_lsp_from_good(d, v.span.off, &rb) && mt_lsp_from_good(d, v.span.end, &re)) {
        /* The kernel has no complete analysis now (an error while typing):
         * the last good one, on a line that did not change. */
        value_section(s, d->good.ctx, gk, &v, v.span.line, &t);
        mt_lsp_text_puts(&t, md ? "\n*from the last analysis without errors*\n"
                                : "(from the last analysis without errors)\n");
    } else if (!t.n && (k = mt_lsp_kernel_at(d, off)) != NULL && off >= k->info->name_span.off &&
               off < k->info->name_span.end) {
        kernel_section(s, d, k, &t);
        rb = k->info->name_span.off;
        re = k->info->name_span.end;
    } else if (!t.n && (f = mt_lsp_found_at(d, off, &fk)) != NULL) {
        /* A parameter of a kernel that did not compile: what was found for it. */
        Text head = {0};
        mt_lsp_text_printf(&head, "%s: %s", f->name, f->value ? "constexpr" : f->type ? f->type : "parameter");
        if (f->value)
            mt_lsp_text_printf(&head, " = %s", f->value);
        code_block(&t, md, "python", mt_lsp_text_str(&head));
        mt_lsp_text_free(&head);
        origin_section(s, fk, f, &t);
    }

    /* Diagnostics here: their rules. */
    const MtRule *shown[8];
    size_t nshown = 0;
    for (size_t i = 0; i < mt_diag_count(d->ctx) && nshown < 8; i++) {
        const MtDiag *g = mt_diag_at(d->ctx, i);
        if (!mt_lsp_diag_shown(s, d, g) || !g->span.line || off < g->span.off || off >= g->span.end)
            continue;
        const MtRule *r = mt_rule_find(g->code);
        bool dup = !r;
        for (size_t j = 0; j < nshown && !dup; j++)
            dup = shown[j] == r;
        if (dup || (word[0] && r && !strcmp(r->code, word)))
            continue;
        shown[nshown++] = r;
        rule_section(&t, md, r);
    }
    if (!t.n || t.failed) {
        mt_lsp_text_free(&t);
        return cJSON_CreateNull();
    }
    cJSON *h = cJSON_CreateObject();
    cJSON *c = cJSON_AddObjectToObject(h, "contents");
    cJSON_AddStringToObject(c, "kind", md ? "markdown" : "plaintext");
    cJSON_AddStringToObject(c, "value", mt_lsp_text_str(&t));
    if (re > rb)
        cJSON_AddItemToObject(h, "range", mt_lsp_proto_range(s, d, rb, re));
    mt_lsp_text_free(&t);
    return h;
}
