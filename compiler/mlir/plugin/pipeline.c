/* pipeline.c: MLIR's GPU pipeline through the C API's pass manager.
 *
 *   nvvm-attach-target{chip=sm_XX O=3}         the gpu.module gets #nvvm.target
 *   gpu.module(canonicalize, cse,              fold and share what the direct transcription repeats
 *              convert-scf-to-cf,              structured control flow to blocks
 *              convert-gpu-to-nvvm,            gpu, arith, math, cf to the LLVM and NVVM dialects
 *                                              (math functions become libdevice calls)
 *              reconcile-unrealized-casts)
 *   ensure-debug-info-scope-on-llvm-func{emission-kind=DebugDirectivesOnly}
 *                                              line tables only: PTX .loc lines point at the
 *                                              Python source (what NVRTC's -lineinfo gives)
 *   ------------------------------------------ MT_STAGE_MLIR_LLVM is printed here
 *   gpu-module-to-binary{format=isa toolkit=CUDA}
 *                                              LLVM IR, libdevice linked, optimised at O3,
 *                                              NVPTX's PTX as a #gpu.object
 *
 * LLVM's default floating-point options allow no contraction: a*b+c stays
 * two rounded operations (add.rn, mul.rn) unless the kernel layer asked
 * for an fma, matching the CUDA backend's --fmad=false.
 *
 * Passes are registered once per process (MLIR's pass registry is a
 * process-wide table: entry.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/Dialect/GPU.h>
#include <mlir-c/Pass.h>

#include "emit.h"

void em_pipeline_text(int sm, const char *toolkit, char *buf, size_t len)
{
    snprintf(buf, len,
             "builtin.module(nvvm-attach-target{chip=sm_%d O=3},"
             "gpu.module(canonicalize,cse,convert-scf-to-cf,convert-gpu-to-nvvm,reconcile-unrealized-casts),"
             "ensure-debug-info-scope-on-llvm-func{emission-kind=DebugDirectivesOnly})"
             " | builtin.module(gpu-module-to-binary{format=isa toolkit=%s})",
             sm, toolkit);
}

static void to_str(MlirStringRef r, void *ud) { str_add(ud, r.data, r.length); }

static bool run_pipeline(Em *e, const char *text)
{
    MlirPassManager pm = mlirPassManagerCreate(e->ctx);
    Str err = {0};
    MlirLogicalResult parsed = mlirParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                                     mlirStringRefCreateFromCString(text), to_str, &err);
    bool ok = mlirLogicalResultIsSuccess(parsed);
    if (!ok)
        em_diag(e, "E1004", (MtSpan){0}, 0, "the MLIR pass pipeline '%s' did not parse: %s", text, err.s ? err.s : "");
    else
        ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(e->module)));
    if (!ok && !e->out->ndiags)
        em_diag(e, "E1004", (MtSpan){0}, 0, "MLIR's GPU pipeline failed on this kernel (a mytriton bug)");
    str_free(&err);
    mlirPassManagerDestroy(pm);
    return ok;
}

bool em_lower(Em *e)
{
    char pipe[1024], *bar;
    em_pipeline_text(e->req->sm, "", pipe, sizeof pipe);
    if ((bar = strstr(pipe, " | ")))
        *bar = 0;
    return run_pipeline(e, pipe);
}

/* The toolkit folder: the request's, else $CUDA_HOME, $CUDA_PATH, the
 * toolkit CMake found, /usr/local/cuda. */
const char *em_toolkit(const char *requested)
{
    const char *t = requested;
    if (!t || !*t)
        t = getenv("CUDA_HOME");
    if (!t || !*t)
        t = getenv("CUDA_PATH");
#ifdef MT_CUDA_TOOLKIT_DIR
    if (!t || !*t)
        t = MT_CUDA_TOOLKIT_DIR;
#endif
    return t && *t ? t : "/usr/local/cuda";
}

/* Whether the lowered module declares a libdevice function (__nv_*):
 * the backend's own calls and those MLIR made of math operations. */
static bool calls_libdevice(Em *e)
{
    MlirBlock body = mlirModuleGetBody(e->module);
    for (MlirOperation g = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(g); g = mlirOperationGetNextInBlock(g)) {
        if (mlirOperationGetNumRegions(g) != 1 || mlirRegionIsNull(mlirOperationGetRegion(g, 0)))
            continue;
        MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0));
        for (MlirOperation o = mlirBlockIsNull(b) ? (MlirOperation){NULL} : mlirBlockGetFirstOperation(b);
             !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
            MlirAttribute name = mlirOperationGetAttributeByName(o, mlirStringRefCreateFromCString("sym_name"));
            if (mlirAttributeIsNull(name) || !mlirAttributeIsAString(name))
                continue;
            MlirStringRef s = mlirStringAttrGetValue(name);
            if (s.length > 5 && !memcmp(s.data, "__nv_", 5))
                return true;
        }
    }
    return false;
}

bool em_ptx(Em *e, char **ptx)
{
    *ptx = NULL;
    const char *tk = em_toolkit(e->req->toolkit);
    char libdevice[1024];
    snprintf(libdevice, sizeof libdevice, "%s/nvvm/libdevice/libdevice.10.bc", tk);
    if (calls_libdevice(e) && access(libdevice, R_OK) != 0) {
        em_diag(e, "E1004", (MtSpan){0}, 0,
                "the kernel calls CUDA math functions and libdevice is not at %s: set CUDA_HOME to the CUDA toolkit",
                libdevice);
        return false;
    }
    char pipe[1024];
    /* without libdevice the toolkit is not needed (and MLIR refuses a missing folder) */
    if (access(tk, F_OK) == 0)
        snprintf(pipe, sizeof pipe, "builtin.module(gpu-module-to-binary{format=isa toolkit=%s})", tk);
    else
        snprintf(pipe, sizeof pipe, "builtin.module(gpu-module-to-binary{format=isa})");
    if (!run_pipeline(e, pipe))
        return false;
    MlirBlock body = mlirModuleGetBody(e->module);
    for (MlirOperation o = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
        MlirAttribute objs = mlirOperationGetAttributeByName(o, mlirStringRefCreateFromCString("objects"));
        if (mlirAttributeIsNull(objs) || !mlirAttributeIsAArray(objs) || mlirArrayAttrGetNumElements(objs) < 1)
            continue;
        MlirAttribute obj = mlirArrayAttrGetElement(objs, 0);
        if (!mlirAttributeIsAGPUObjectAttr(obj))
            continue;
        MlirStringRef s = mlirGPUObjectAttrGetObject(obj);
        *ptx = malloc(s.length + 1);
        if (*ptx) {
            memcpy(*ptx, s.data, s.length);
            (*ptx)[s.length] = 0;
        }
        return *ptx != NULL;
    }
    em_diag(e, "E1004", (MtSpan){0}, 0, "gpu-module-to-binary produced no PTX object (a mytriton bug)");
    return false;
}
