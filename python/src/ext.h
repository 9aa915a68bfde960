/* ext.h: the pieces of the CPython extension module mytriton._C.
 *
 * The extension is a thin layer over the compiler library (mytriton.h)
 * and the runtime (run.h and the layers under it). It knows nothing of
 * torch or numpy: the Python package (python/mytriton/) turns tensors and
 * arrays into what the calls below take -- buffer-protocol objects or
 * (address, element count) pairs for the interpreter, device addresses for
 * the GPU -- and the specialisation key. What lives here is what must be
 * fast or must be C: compiling, the interpreter, marshalling arguments and
 * the Driver API launch on a caller's stream, CUPTI timings.
 *
 * Process-wide state (the CUDA handle, the kernel cache) lives in gpu.c,
 * guarded by the GIL; every compiled kernel owns its own MtCtx.
 *
 * The extension keeps to CPython's limited API (Py_LIMITED_API, set by
 * python/CMakeLists.txt: 3.11), so the one build, _C.abi3.so, imports
 * under every later Python too: no static type objects, no macros that
 * reach into a list's or a tuple's struct. */
#ifndef MT_PY_EXT_H
#define MT_PY_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>

#include "cuda_driver.h"
#include "kcache.h"
#include "mytriton/mytriton.h"

/* How one runtime parameter is passed. */
typedef enum ArgKind {
    ARG_PTR,                  /* *dtype: a host buffer (interpreter) or a device address (GPU) */
    ARG_INT,                  /* signed or unsigned integer scalar of `size` bytes */
    ARG_FLOAT,                /* floating-point scalar of `size` bytes */
    ARG_BOOL,                 /* i1: one byte */
} ArgKind;

typedef struct ArgInfo {
    ArgKind kind;
    MtDtype dtype;            /* the scalar's type, or the pointee's */
    uint8_t size;             /* bytes of a scalar; of one element for a pointer */
    const char *name;         /* the parameter (arena-owned) */
    const char *type;         /* "*fp32", "i64", ... (arena-owned) */
} ArgInfo;

/* mytriton._C.Kernel: one compiled specialisation. */
typedef struct KernelObject {
    PyObject_HEAD
    MtCtx *c;
    MtCompiled *k;
    bool cuda_stage;          /* compiled through MT_STAGE_CUDA (launchable on the GPU) */
    ArgInfo *args;            /* runtime parameters, in order */
    size_t nargs;
    MtLaunchShape shape;      /* when cuda_stage */
    MtCudaModule *mod;        /* loaded on the first GPU launch */
    MtCudaFunc *fn;
    const char *cubin_from;   /* "compiled", "memory cache", "disk cache" */
    pthread_mutex_t lock;     /* one interpreter run at a time per context (it adds diagnostics) */
} KernelObject;

/* The module's state: the types it makes at import. The stable ABI has no
 * static type objects, so they are heap types made from a PyType_Spec; a
 * Kernel reaches them through its type's module. */
typedef struct MtPyState {
    PyTypeObject *kernel_type;  /* mytriton._C.Kernel */
    PyTypeObject *diag_type;    /* mytriton.Diagnostic */
    PyTypeObject *dispatcher_type; /* mytriton._C.Dispatcher */
    PyTypeObject *launcher_type;   /* mytriton._C.Launcher: a dispatcher and a grid */
} MtPyState;

static inline MtPyState *mtpy_kernel_state(KernelObject *k)
{
    return PyType_GetModuleState(Py_TYPE((PyObject *)k));
}

/* A list or a tuple (what PySequence_Fast returns) through the limited
 * API, which has no PySequence_Fast_GET_* macros. Borrowed references. */
static inline Py_ssize_t mtpy_seq_size(PyObject *seq)
{
    return PyList_Check(seq) ? PyList_Size(seq) : PyTuple_Size(seq);
}

static inline PyObject *mtpy_seq_item(PyObject *seq, Py_ssize_t i)
{
    return PyList_Check(seq) ? PyList_GetItem(seq, i) : PyTuple_GetItem(seq, i);
}

/* Exceptions: mytriton.MytritonError and its two kinds. */
extern PyObject *MtPyError, *MtPyCompilationError, *MtPyLaunchError;

/* diag.c: the compiler's diagnostics as Python values. */
int mtpy_diag_init(PyObject *module);
/* The diagnostics of c from index `from` on as a list of
 * mytriton.Diagnostic; NULL with an exception set when out of memory. */
PyObject *mtpy_diag_list(MtPyState *st, MtCtx *c, size_t from);
/* Raise `type` with the rendered errors of c from `from` on (the message)
 * and .diagnostics (every one, warnings included). `fallback` is the
 * message when there is no error diagnostic. Returns NULL. */
PyObject *mtpy_raise_diags(MtPyState *st, PyObject *type, MtCtx *c, size_t from, const char *fallback);

/* compile.c: the Kernel type (into the module and its state), and
 * mytriton._C.compile(...) -> Kernel. */
int mtpy_kernel_init(PyObject *module);
PyObject *mtpy_compile(PyObject *self, PyObject *args, PyObject *kw);

/* classify.c: a launch's signature and arguments (mytriton/args.py's
 * rules, fast), for mytriton._C.classify(...) and the launcher. */
typedef struct MtPyClassifyRules {
    const uint8_t *flags;     /* per parameter: 0 runtime, 1 constexpr, 2 do_not_specialize */
    PyObject *names;          /* tuple of the parameters' names */
    PyObject *fast_types;     /* set of tensor types classified here */
    PyObject *sig_of_dtype;   /* dict: a tensor's dtype -> its signature name */
    PyObject *slow;           /* slow(value, index): args.py's rules for the rest */
    int interp;               /* MYTRITON_INTERPRET=1 */
} MtPyClassifyRules;

typedef struct MtPyClassified {
    PyObject *signature;      /* str: the specialisation key's entries */
    PyObject *backend;        /* "cuda", "interp" or NULL (only scalars) */
    PyObject *launch;         /* list: the runtime arguments as the C launch takes them */
    PyObject *device;         /* the tensors' device ordinal, or NULL */
} MtPyClassified;

/* One pass over the n bound values (borrowed); 0, or -1 with an
 * exception set. out owns its references (mtpy_classified_clear). */
int mtpy_classify_values(const MtPyClassifyRules *r, PyObject *const *values, Py_ssize_t n, MtPyClassified *out);
void mtpy_classified_clear(MtPyClassified *c);
/* A tuple of n flags (0 to 2) into bytes; -1 with an exception set. */
int mtpy_flags_from_tuple(PyObject *tuple, uint8_t *flags, Py_ssize_t n);
/* The interned str "cuda" (borrowed), NULL with an exception set. */
PyObject *mtpy_cuda_name(void);
PyObject *mtpy_classify(PyObject *self, PyObject *const *args, Py_ssize_t nargs);

/* dispatch.c: the Dispatcher type JITFunction derives from, whose
 * kernel[grid](...) runs the common launch without Python in between. */
int mtpy_dispatch_init(PyObject *module);

/* dlpack.c: dlpack_info(capsule): a DLPack tensor's address, dtype,
 * shape, strides and device. */
PyObject *mtpy_dlpack_info(PyObject *self, PyObject *capsule);

/* interp.c: Kernel.run_interp(grid, args). */
PyObject *mtpy_run_interp(KernelObject *self, PyObject *args);

/* gpu.c: the process's GPU, Kernel.run_cuda(grid, args, stream), and
 * the CUPTI timer behind mytriton.testing.do_bench. */
PyObject *mtpy_cuda_available(PyObject *self, PyObject *noargs);
PyObject *mtpy_cuda_device(PyObject *self, PyObject *noargs);
PyObject *mtpy_run_cuda(KernelObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *mtpy_profile(PyObject *self, PyObject *args, PyObject *kw);
PyObject *mtpy_cache_stats(PyObject *self, PyObject *noargs);
void mtpy_kernel_unload(KernelObject *k);

/* interp.c: a launch grid (1 to 3 ints) as three positive int64s; -1 with
 * an exception set when it is not one. */
int mtpy_grid(PyObject *grid, int64_t out[3]);
/* Raise LaunchError: argument a wants `expected` and o is not one (the
 * message names o's type and replaces any exception set). Returns -1. */
int mtpy_arg_error(const ArgInfo *a, const char *expected, PyObject *o);

#endif
