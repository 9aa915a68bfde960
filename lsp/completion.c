/* completion.c: textDocument/completion and textDocument/signatureHelp
 * for the tl API (the compiler's builtins table, builtins.c).
 *
 * Completion answers after `tl.` (or any name that imports
 * triton.language) with the functions and dtypes the compiler binds;
 * signature help finds the innermost unclosed call of a tl function
 * around the cursor and marks the argument being typed, positional or
 * keyword. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"

static bool ident_char(char ch) { return isalnum((unsigned char)ch) || ch == '_'; }

static cJSON *doc_markup(Server *s, const MtApiEntry *f)
{
    char *md = mt_lsp_tl_markdown(f, s->markdown);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kind", s->markdown ? "markdown" : "plaintext");
    cJSON_AddStringToObject(o, "value", md ? md : f->doc ? f->doc : "");
    free(md);
    return o;
}

cJSON *mt_lsp_handle_completion(Server *s, const cJSON *params, RpcErr *err)
{
    Doc *d = mt_lsp_proto_doc(s, params, err);
    uint32_t off;
    if (!d || !mt_lsp_proto_offset(s, d, cJSON_GetObjectItemCaseSensitive(params, "position"), &off, err))
        return NULL;
    mt_lsp_analyse(s, d);
    cJSON *list = cJSON_CreateObject();
    cJSON_AddBoolToObject(list, "isIncomplete", false);
    cJSON *items = cJSON_AddArrayToObject(list, "items");
    uint32_t b = off;
    while (b > 0 && ident_char(d->text[b - 1]))
        b--;
    if (b == 0 || !mt_lsp_tl_module_at(d, b - 1))
        return list;
    for (size_t i = 0; i < mt_api_count(); i++) {
        const MtApiEntry *f = mt_api_at(i);
        const char *name = mt_lsp_tl_name(f);
        if (!name || strncmp(name, d->text + b, off - b))
            continue;
        cJSON *it = cJSON_CreateObject();
        cJSON_AddStringToObject(it, "label", name);
        cJSON_AddNumberToObject(it, "kind", mt_lsp_tl_kind(f));
        char *sig = mt_lsp_tl_signature(f);
        cJSON_AddStringToObject(it, "detail", sig ? sig : f->name);
        free(sig);
        cJSON_AddItemToObject(it, "documentation", doc_markup(s, f));
        cJSON_AddStringToObject(it, "insertText", name);
        cJSON_AddItemToArray(items, it);
    }
    return list;
}

/* The unclosed `(` before off, the number of top-level commas after it,
 * and a keyword being given (`name=`) in the current argument. An
 * unclosed [ or { is a display inside the argument: counting restarts
 * outside it. A `:` at the top level ends the search (a def or for
 * header: not inside a call). */
static bool enclosing_call(const Doc *d, uint32_t off, uint32_t *open, int *commas, uint32_t *kw, uint32_t *kwlen)
{
    int depth = 0;
    uint32_t arg = UINT32_MAX;
    *commas = 0;
    for (uint32_t p = off; p > 0 && off - p < 8192;) {
        char ch = d->text[--p];
        if (ch == ')' || ch == ']' || ch == '}') {
            depth++;
        } else if (ch == '[' || ch == '{') {
            if (depth == 0) {
                *commas = 0;
                arg = UINT32_MAX;
            } else {
                depth--;
            }
        } else if (ch == '(') {
            if (depth == 0) {
                *open = p;
                if (arg == UINT32_MAX)
                    arg = p + 1;
                uint32_t q = arg;
                while (q < off && isspace((unsigned char)d->text[q]))
                    q++;
                uint32_t n = q;
                while (n < off && ident_char(d->text[n]))
                    n++;
                uint32_t e = n;
                while (e < off && (d->text[e] == ' ' || d->text[e] == '\t'))
                    e++;
                *kw = q;
                *kwlen = e < off && d->text[e] == '=' && (e + 1 >= d->len || d->text[e + 1] != '=') ? n - q : 0;
                return true;
            }
            depth--;
        } else if (ch == ',' && depth == 0) {
            if (arg == UINT32_MAX)
                arg = p + 1;
            (*commas)++;
        } else if (ch == ':' && depth == 0) {
            return false;
        }
    }
    return false;
}

cJSON *mt_lsp_handle_signature_help(Server *s, const cJSON *params, RpcErr *err)
{
    Doc *d = mt_lsp_proto_doc(s, params, err);
    uint32_t off;
    if (!d || !mt_lsp_proto_offset(s, d, cJSON_GetObjectItemCaseSensitive(params, "position"), &off, err))
        return NULL;
    mt_lsp_analyse(s, d);
    uint32_t open, kw, kwlen;
    int commas;
    if (!enclosing_call(d, off, &open, &commas, &kw, &kwlen))
        return cJSON_CreateNull();
    uint32_t e = open, b = open;
    while (b > 0 && ident_char(d->text[b - 1]))
        b--;
    const MtApiEntry *f = b < e && b > 0 && mt_lsp_tl_module_at(d, b - 1) ? mt_lsp_tl_find(d->text + b, e - b) : NULL;
    if (!f || f->kind != MT_API_FUNCTION || !f->params)
        return cJSON_CreateNull();
    TlParam fp[32];
    int np = mt_lsp_tl_params(f, fp, 32);
    int active = commas;
    if (kwlen)
        for (int i = 0; i < np; i++)
            if (fp[i].len == kwlen && !strncmp(fp[i].name, d->text + kw, kwlen))
                active = i;
    char *label = mt_lsp_tl_signature(f);
    if (!label)
        return cJSON_CreateNull();
    cJSON *sig = cJSON_CreateObject();
    cJSON_AddStringToObject(sig, "label", label);
    cJSON_AddItemToObject(sig, "documentation", doc_markup(s, f));
    cJSON *ps = cJSON_AddArrayToObject(sig, "parameters");
    size_t open_at = strlen(f->name) + 1; /* fp[i].name points into f->params, which follows "name(" */
    for (int i = 0; i < np; i++) {
        size_t at = open_at + (size_t)(fp[i].name - f->params);
        cJSON *p = cJSON_CreateObject();
        cJSON *lab = cJSON_AddArrayToObject(p, "label");
        cJSON_AddItemToArray(lab, cJSON_CreateNumber((double)at));
        cJSON_AddItemToArray(lab, cJSON_CreateNumber((double)(at + fp[i].len)));
        if (fp[i].doclen) {
            cJSON *doc = cJSON_AddObjectToObject(p, "documentation");
            cJSON_AddStringToObject(doc, "kind", "plaintext");
            char text[512];
            snprintf(text, sizeof text, "%.*s", (int)fp[i].doclen, fp[i].doc);
            cJSON_AddStringToObject(doc, "value", text);
        }
        cJSON_AddItemToArray(ps, p);
    }
    free(label);
    cJSON *h = cJSON_CreateObject();
    cJSON *sigs = cJSON_AddArrayToObject(h, "signatures");
    cJSON_AddItemToArray(sigs, sig);
    cJSON_AddNumberToObject(h, "activeSignature", 0);
    cJSON_AddNumberToObject(h, "activeParameter", active < np ? active : np - 1);
    return h;
}
