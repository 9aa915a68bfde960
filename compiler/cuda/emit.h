/* emit.h: SSA + layouts -> CUDA C++ (see emit.c), and the internals shared
 * by the emitter's files (emit.c: kernel and per-thread operations,
 * reduce.c: shared-memory reductions, stage.c: tl.dot staging and the
 * CUDA-core FMA loop, cfmt.c: literals, types and names). */
#ifndef MT_CUDA_EMIT_H
#define MT_CUDA_EMIT_H

#include "base/strbuf.h"
#include "layout/assign.h"
#include "ssa/ssa.h"

/* The generated source and, for each of its lines, the source range of the
 * operation that produced it (a zero span for the signature, braces and
 * prologue). */
typedef struct MtCudaSource {
    const char *text;
    MtSpan *line_span;        /* indexed by CUDA line, 1-based (entry 0 unused) */
    uint32_t *line_inl;       /* the same lines' inline sites (ctx->inl), 0 = the kernel */
    uint32_t nlines;
    uint64_t shared_bytes;    /* the __shared__ arrays it declares */
} MtCudaSource;

/* Emit the kernel. Operations the backend cannot lower are E0603/E0605
 * diagnostics at their source range; returns NULL then. */
MtCudaSource *mt_cuda_emit(MtCtx *c, const MtFunc *f, const MtLayoutInfo *li);

/* ---- internals ---------------------------------------------------------------------- */

typedef struct Em {
    MtCtx *c;
    const MtFunc *f;
    const MtLayoutInfo *li;
    MtBuf shared;             /* __shared__ declarations, emitted first */
    uint64_t shared_bytes;    /* their size */
    MtBuf body;
    int indent;
    MT_VEC(MtSpan) body_lines; /* source range per body line */
    MT_VEC(uint32_t) body_inl; /* inline site per body line */
    MtSpan cur_span;          /* source range of the instruction being emitted */
    uint32_t cur_inl;         /* and its inline site */
    const char **names;       /* per value: C name of a lowered value ("v3", a parameter) */
    MtVal *ptr_base;          /* per pointer value: its parameter */
    const char **tmpl;        /* per rank-1 coordinate vector: expression with '@' for the coordinate */
    const char **stage_names; /* per value: its name inside the current cooperative copy loop */
    uint32_t *stage_gen;      /* per value: the copy loop stage_names[v] belongs to */
    uint32_t gen;             /* current copy loop */
    int loop_depth;           /* runtime loops around the current instruction */
    bool failed;
} Em;

/* Start a body line at the current indentation (records its source line). */
void em_line(Em *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void em_fail(Em *e, const MtInst *in, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* cfmt.c */
const char *cu_type(const MtType *t);          /* element C type: float, int, bool (int for pointer indices) */
void cu_literal(MtBuf *b, MtConst k, const MtType *as); /* 256, 0.0f, true, __int_as_float(...) */
/* A kernel parameter's C name: its Python name unless that clashes with
 * C++ or the generated names (then with a trailing underscore). */
const char *cu_param_name(MtCtx *c, const char *name);

/* emit.c: element (r0, r1) of a lowered value, as a C expression. `r` are
 * the register index expressions ("r0", "0"); for pointers, the index. */
const char *em_ref(Em *e, MtVal v, const char *r0, const char *r1);
/* The unrolled loops over a value's registers around one statement:
 * open sets r0 and r1 to the index expressions ("r0", or "0" for an axis of
 * one register, which gets no loop); close ends them. */
void em_reg_loops_open(Em *e, const int32_t *regs, const char **r0, const char **r1);
void em_reg_loops_close(Em *e, const int32_t *regs);
/* A thread's coordinate along a tile axis, for register index r. */
const char *em_coord(Em *e, int axis, const char *r);
/* The coordinate-vector template of a rank-1 arange-based value. */
const char *em_template(Em *e, MtVal v);
/* Substitute `coord` for '@' in a template. */
const char *em_subst(Em *e, const char *tmpl, const char *coord);
/* The expression for an elementwise operation on operand expressions. */
const char *em_elementwise(Em *e, const MtInst *in, const char *const *ops);

/* reduce.c, stage.c */
void em_reduce(Em *e, const MtInst *in);
void em_dot(Em *e, const MtInst *in);

#endif
