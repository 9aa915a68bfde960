/* compile.c: mytriton._C.compile and the Kernel object it returns.
 *
 * compile(path, text, kernel, signature, defines=(), stage="ssa",
 *         num_warps=0, num_stages=0, lowering=None, sm=90) -> Kernel
 *
 * parses the whole file (so the kernel's helpers and module-level
 * constexprs are there, and every diagnostic points into the user's own
 * .py file) and compiles one kernel for one specialisation: the
 * Triton-AOT-style signature the Python layer builds from the launch's
 * arguments ("*fp32:16,*fp32:16,*fp32:16,i32,256"). stage "ssa" is enough
 * for the interpreter; "cuda" goes on to the CUDA source the GPU needs.
 * Errors raise mytriton.CompilationError carrying the diagnostics. Each
 * Kernel owns its context: nothing is shared between specialisations. */
#include "ext.h"

#include <string.h>

static void kernel_dealloc(KernelObject *self)
{
    PyTypeObject *tp = Py_TYPE((PyObject *)self);
    mtpy_kernel_unload(self);
    if (self->c)
        mt_ctx_free(self->c);
    PyMem_Free(self->args);
    pthread_mutex_destroy(&self->lock);
    freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    tp_free(self);
    Py_DECREF(tp); /* an instance of a heap type holds a reference to it */
}

/* How each runtime parameter is passed, from its signature type. */
static int describe_args(KernelObject *self)
{
    size_t n = mt_compiled_param_count(self->k), nrt = 0;
    for (size_t i = 0; i < n; i++)
        nrt += mt_compiled_param(self->k, i)->type != NULL;
    self->args = PyMem_Calloc(nrt + 1, sizeof *self->args);
    if (!self->args) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const MtKernelParam *p = mt_compiled_param(self->k, i);
        if (!p->type)
            continue;
        ArgInfo *a = &self->args[self->nargs++];
        a->name = p->name;
        a->type = p->type;
        bool ptr = p->type[0] == '*';
        char buf[32];
        size_t len = strcspn(p->type + ptr, ":");
        if (len >= sizeof buf || (memcpy(buf, p->type + ptr, len), buf[len] = 0, !mt_dtype_parse(buf, &a->dtype))) {
            PyErr_Format(MtPyCompilationError, "parameter %s has a type the runtime does not know: %s", p->name,
                         p->type);
            return -1;
        }
        const MtDtypeInfo *di = mt_dtype_info(a->dtype);
        a->size = di->size;
        a->kind = ptr ? ARG_PTR : di->cls == MT_DC_BOOL ? ARG_BOOL : di->cls == MT_DC_FLOAT ? ARG_FLOAT : ARG_INT;
    }
    return 0;
}

static int defines_from(PyObject *seq, MtDefine **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (!seq || seq == Py_None)
        return 0;
    PyObject *fast = PySequence_Fast(seq, "defines must be a sequence of (name, value) pairs");
    if (!fast)
        return -1;
    Py_ssize_t len = mtpy_seq_size(fast);
    MtDefine *d = PyMem_Calloc((size_t)len + 1, sizeof *d);
    if (!d) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *item = mtpy_seq_item(fast, i);
        /* the strings stay alive: the caller keeps the sequence until mt_compile returns */
        if (!PyArg_ParseTuple(item, "ss;defines must be (name, value) string pairs", &d[i].name, &d[i].value)) {
            PyMem_Free(d);
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    *out = d;
    *n = (size_t)len;
    return 0;
}

PyObject *mtpy_compile(PyObject *self_, PyObject *args, PyObject *kw)
{
    static char *names[] = {"path", "text", "kernel", "signature", "defines", "stage", "num_warps", "num_stages",
                            "lowering", "sm", NULL};
    const char *path, *text, *kernel, *signature = NULL, *stage = "ssa", *lowering = NULL;
    Py_ssize_t len;
    PyObject *defs = NULL;
    int num_warps = 0, num_stages = 0, sm = 90;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "ss#s|zOsiizi:compile", names, &path, &text, &len, &kernel, &signature,
                                     &defs, &stage, &num_warps, &num_stages, &lowering, &sm))
        return NULL;
    int st_last = mt_stage_from_name(stage);
    if (st_last != MT_STAGE_SSA && st_last != MT_STAGE_CUDA)
        return PyErr_Format(PyExc_ValueError, "stage must be 'ssa' or 'cuda', not '%s'", stage);
    int low = lowering ? mt_lowering_from_name(lowering) : MT_LOWERING_DEFAULT;
    if (low < 0)
        return PyErr_Format(PyExc_ValueError, "lowering must be 'seed' or 'fast', not '%s'", lowering);
    MtDefine *defines;
    size_t ndefines;
    if (defines_from(defs, &defines, &ndefines) < 0)
        return NULL;
    MtPyState *mst = PyModule_GetState(self_);
    KernelObject *self = (KernelObject *)PyType_GenericAlloc(mst->kernel_type, 0); /* zeroed */
    if (!self) {
        PyMem_Free(defines);
        return NULL;
    }
    self->cuda_stage = st_last == MT_STAGE_CUDA;
    pthread_mutex_init(&self->lock, NULL);
    if (!(self->c = mt_ctx_new(NULL))) {
        PyMem_Free(defines);
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    MtModule *m = NULL;
    MtStatus st;
    MtSpec spec = {.kernel = kernel, .signature = signature, .defines = defines, .ndefines = ndefines,
                   .last_stage = st_last, .sm = sm, .lowering = low, .num_warps = num_warps,
                   .num_stages = num_stages};
    Py_BEGIN_ALLOW_THREADS
    st = mt_parse(self->c, path, text, (size_t)len, &m);
    if (st == MT_OK)
        st = mt_compile(self->c, m, &spec, &self->k);
    Py_END_ALLOW_THREADS
    PyMem_Free(defines);
    if (st == MT_ERR_NOMEM) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    if (st != MT_OK) {
        mtpy_raise_diags(mst, MtPyCompilationError, self->c, 0, mt_status_name(st));
        Py_DECREF(self);
        return NULL;
    }
    if (self->cuda_stage)
        mt_compiled_launch_shape(self->k, &self->shape);
    if (describe_args(self) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* ---- Kernel's attributes ----------------------------------------------------- */

static PyObject *kernel_params(KernelObject *self, void *closure)
{
    size_t n = mt_compiled_param_count(self->k);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        const MtKernelParam *p = mt_compiled_param(self->k, i);
        PyObject *t = Py_BuildValue("(szz)", p->name, p->type, p->value);
        if (!t) {
            Py_CLEAR(list);
            break;
        }
        PyList_SetItem(list, (Py_ssize_t)i, t);
    }
    return list;
}

static PyObject *kernel_signature(KernelObject *self, void *closure)
{
    return PyUnicode_FromString(mt_compiled_signature(self->c, self->k));
}

static PyObject *kernel_name(KernelObject *self, void *closure)
{
    return PyUnicode_FromString(mt_compiled_kernel_name(self->k));
}

static PyObject *kernel_launch_shape(KernelObject *self, void *closure)
{
    if (!self->cuda_stage)
        Py_RETURN_NONE;
    return Py_BuildValue("{s:I,s:I,s:K,s:O}", "threads", self->shape.threads, "programs_per_block",
                         self->shape.programs_per_block, "shared_bytes", (unsigned long long)self->shape.shared_bytes,
                         "grid_params", self->shape.grid_params ? Py_True : Py_False);
}

static PyObject *kernel_warnings(KernelObject *self, void *closure)
{
    return mtpy_diag_list(mtpy_kernel_state(self), self->c, 0);
}

static PyObject *kernel_cubin_from(KernelObject *self, void *closure)
{
    if (!self->cubin_from)
        Py_RETURN_NONE;
    return PyUnicode_FromString(self->cubin_from);
}

/* text(stage): a printed stage ("ssa", "cuda", "layout", ...), or None. */
static PyObject *kernel_text(KernelObject *self, PyObject *arg)
{
    const char *name = PyUnicode_AsUTF8AndSize(arg, NULL);
    if (!name)
        return NULL;
    int s = mt_stage_from_name(name);
    if (s < 0)
        return PyErr_Format(PyExc_ValueError, "unknown stage '%s' (ast, expr, ssa-raw, ssa, layout, kernel, cuda)",
                            name);
    pthread_mutex_lock(&self->lock);
    const char *t = mt_compiled_text(self->c, self->k, (MtStage)s);
    pthread_mutex_unlock(&self->lock);
    if (!t)
        Py_RETURN_NONE;
    return PyUnicode_FromString(t);
}

static PyMethodDef kernel_methods[] = {
    {"text", (PyCFunction)kernel_text, METH_O, "text(stage) -> the printed stage ('ssa', 'cuda', ...) or None"},
    {"run_interp", (PyCFunction)mtpy_run_interp, METH_VARARGS,
     "run_interp(grid, args): run on the CPU interpreter; args are the runtime arguments in order: "
     "buffer-protocol objects or (address, element count) pairs for pointers, numbers for scalars"},
    {"run_cuda", (PyCFunction)(void (*)(void))mtpy_run_cuda, METH_FASTCALL,
     "run_cuda(grid, args, stream): launch on the GPU, asynchronously on `stream` (a CUstream as an int, 0: "
     "the default stream); args: device addresses for pointers, numbers for scalars"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef kernel_getset[] = {
    {"params", (getter)kernel_params, NULL, "every parameter: (name, type or None, specialised value or None)", NULL},
    {"signature", (getter)kernel_signature, NULL, "the resolved signature", NULL},
    {"name", (getter)kernel_name, NULL, "the kernel's name", NULL},
    {"launch_shape", (getter)kernel_launch_shape, NULL, "threads per block and programs per block (GPU builds)",
     NULL},
    {"diagnostics", (getter)kernel_warnings, NULL, "what the compiler and the runs reported (warnings, faults)", NULL},
    {"cubin_from", (getter)kernel_cubin_from, NULL, "where the GPU code came from, after the first GPU launch", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot kernel_slots[] = {
    {Py_tp_dealloc, kernel_dealloc},
    {Py_tp_doc, (void *)"One compiled specialisation of a kernel (made by mytriton._C.compile)."},
    {Py_tp_methods, kernel_methods},
    {Py_tp_getset, kernel_getset},
    {0, NULL},
};

/* Immutable and not instantiable from Python, as the static type was. */
static PyType_Spec kernel_spec = {
    .name = "mytriton._C.Kernel",
    .basicsize = sizeof(KernelObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = kernel_slots,
};

int mtpy_kernel_init(PyObject *module)
{
    MtPyState *st = PyModule_GetState(module);
    st->kernel_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &kernel_spec, NULL);
    if (!st->kernel_type)
        return -1;
    return PyModule_AddType(module, st->kernel_type);
}
