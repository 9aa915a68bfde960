/* query.h: what the editor queries share (query_names.c, query_values.c,
 * query_fixes.c, query_refactor.c; the public side is mt_query_* in
 * mytriton.h). Private to compiler/api. */
#ifndef MT_QUERY_H
#define MT_QUERY_H

#include "compiled.h"

/* ---- names (query_names.c) ---- */

typedef struct Bind {
    const char *name;
    MtQueryDefKind kind;
    MtSpan def;               /* the target name */
    MtSpan value;             /* right-hand side (zero when unknown) */
    uint32_t from;            /* byte offset from which uses see it */
} Bind;

typedef MT_VEC(Bind) Binds;

/* Bindings are collected into a fixed-size scratch array when no arena is
 * at hand (mt_query_definition takes a const module and no context). */
typedef struct BindSet {
    MtCtx *c;                 /* NULL: fixed storage only */
    Binds v;
    Bind fixed[256];
    uint32_t nfixed;
} BindSet;

/* The bindings of f (parameters, then every assignment and loop target in
 * source order), or of one block. */
void mt_query_bind_function(BindSet *s, const MtFuncDef *f);
void mt_query_bind_block(BindSet *s, const MtNodeList *body);
/* The binding that a use of `name` at `off` sees. */
const Bind *mt_query_resolve(Bind *v, uint32_t n, const char *name, uint32_t off);
/* What the name at `off` refers to (mt_query_definition with a BindSet). */
bool mt_query_def_at(BindSet *s, const MtModule *m, uint32_t off, MtQueryDef *out);
/* The index of the jit function around `off`, or -1. */
int mt_query_func_at(const MtModule *m, uint32_t off);
/* The syntax node of exactly range sp (of kind `kind`, -1 for any). */
const MtNode *mt_query_node_at(const MtModule *m, MtSpan sp, int kind);
/* A call's argument by position or keyword, or NULL. */
const MtNode *mt_query_call_arg(const MtNode *call, uint32_t pos, const char *kw);

static inline bool mt_query_contains(MtSpan sp, uint32_t off) { return sp.line && off >= sp.off && off < sp.end; }
static inline bool mt_query_same_range(MtSpan a, MtSpan b)
{
    return a.file == b.file && a.off == b.off && a.end == b.end;
}

/* ---- values (query_values.c) ---- */

/* The typed node a binding's value range made (names followed to their
 * binding, helper calls to what the helper returned), or NULL. */
const MtExpr *mt_query_value_node(MtCtx *c, const MtCompiled *k, MtSpan sp, int depth);

/* ---- edits (query_fixes.c, query_refactor.c) ---- */

typedef MT_VEC(MtQueryFix) MtQueryFixes;

/* Append a fix of one edit: replace [off, end) with text. */
void mt_query_add_fix(MtCtx *c, MtQueryFixes *fx, const char *title, const MtDiag *d, bool preferred, uint32_t off,
                      uint32_t end, const char *text);

#endif
