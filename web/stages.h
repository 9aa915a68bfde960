/* stages.h: stage views with their source links (stages.c). */
#ifndef MT_WEB_STAGES_H
#define MT_WEB_STAGES_H

#include "api.h"
#include "mytriton/mytriton.h"
#include "web_int.h"

/* One entry per line of the stage's text: null, or {"span": RANGE,
 * "calls": [RANGE...]} where RANGE is mt_web_span_json's form. NULL when
 * the stage did not run. */
cJSON *mt_web_stage_lines(MtCtx *c, MtCompiled *k, MtStage stage, const char *src, size_t len);
/* [{"pass", "text", "lines", "diff", "changed"}]: each pass dump, its
 * links, and its diff to the SSA before it (the first to ssa-raw). */
cJSON *mt_web_passes_json(MtCtx *c, MtCompiled *k, const char *src, size_t len);
/* NVRTC: {"text", "lines", "ms", "cache", "sm", "cubin_bytes"} or {"error"};
 * with `sass`, *sass_out gets {"text", "lines", "tool"}, {"unavailable":
 * how to enable it} or {"error"}. Failures are also diagnostics in c. */
cJSON *mt_web_nvrtc_stages(const MtWebServer *s, MtCtx *c, MtCompiled *k, int sm, bool sass, const char *src,
                           size_t len, cJSON **sass_out);
/* The MLIR code generator's stages of the kernel k (compiled in c with the
 * CUDA code generator from the request q) as doc["mlir"] and, with `llvm`, doc["mlir-llvm"]:
 * each {"text", "lines", "version"}, {"unavailable": why and how to
 * enable it} or {"error": the first diagnostic}. A compile of its own, in
 * a context of its own, so that MLIR's diagnostics never mix with the
 * editor's and a machine without the MLIR backend still shows the rest. */
void mt_web_mlir_stages(MtWebServer *s, MtCtx *c, MtCompiled *k, const WebKernelReq *q, bool llvm, cJSON *doc);
/* The disassembler to use: `configured`, $MYTRITON_NVDISASM, nvdisasm or
 * cuobjdump on PATH or in /usr/local/cuda/bin; malloc'ed, or NULL. */
char *mt_web_find_sass_tool(const char *configured);

#endif
