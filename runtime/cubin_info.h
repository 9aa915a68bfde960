/* cubin_info.h: a kernel's resources read from its cubin, without a GPU.
 *
 * What `ptxas -v` reports and cuFuncGetAttribute answers once the cubin is
 * loaded -- registers per thread, static shared memory, the stack frame --
 * is recorded in the cubin itself: the EIATTR attributes of its .nv.info
 * sections (the register count per function symbol, the frame size, the
 * launch bounds) and the size of its .nv.shared.<kernel> section. The
 * dashboard reads them where there is no GPU to ask (its compile view's
 * occupancy); on a GPU the driver's own figures are used. The layout is
 * NVIDIA's (the same one cuobjdump --dump-resource-usage reads); every
 * offset is checked, and a cubin this reader does not understand gives
 * false, never a wrong figure. */
#ifndef MT_RUNTIME_CUBIN_INFO_H
#define MT_RUNTIME_CUBIN_INFO_H

#include <stdbool.h>
#include <stddef.h>

typedef struct MtCubinResources {
    int registers;            /* per thread (EIATTR_REGCOUNT) */
    int shared_bytes;         /* static shared memory per block (.nv.shared.<kernel>) */
    int local_bytes;          /* stack frame per thread (EIATTR_FRAME_SIZE) */
    int max_threads_per_block; /* __launch_bounds__ (EIATTR_MAX_THREADS); 0 when the kernel has none */
} MtCubinResources;

/* The resources of kernel `name` (its symbol) in the cubin image (an ELF
 * of NVRTC or ptxas). false when the image is not such a cubin or has no
 * register count for that kernel. */
bool mt_cubin_resources(const void *image, size_t len, const char *name, MtCubinResources *out);

#endif
