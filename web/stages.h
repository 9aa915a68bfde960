/* stages.h: stage views with their source links (stages.c). */
#ifndef MT_WEB_STAGES_H
#define MT_WEB_STAGES_H

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
/* The disassembler to use: `configured`, $MYTRITON_NVDISASM, nvdisasm or
 * cuobjdump on PATH or in /usr/local/cuda/bin; malloc'ed, or NULL. */
char *mt_web_find_sass_tool(const char *configured);

#endif
