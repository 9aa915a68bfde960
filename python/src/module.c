/* module.c: the mytriton._C module: its functions, the Kernel type, the
 * exceptions, and the compiler's tables the Python layer is built from
 * (the tl API and the dtypes, so the names importable from
 * mytriton.language are exactly the ones the compiler binds). */
#include "ext.h"

#include <string.h>

static const char *api_kind(MtApiKind k)
{
    switch (k) {
    case MT_API_MODULE: return "module";
    case MT_API_FUNCTION: return "function";
    case MT_API_DTYPE: return "dtype";
    case MT_API_CONSTANT: return "constant";
    }
    return "?";
}

/* api() -> [(path, name, kind, params, doc)]: mt_api_at's table. */
static PyObject *api(PyObject *self, PyObject *noargs)
{
    size_t n = mt_api_count();
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        const MtApiEntry *e = mt_api_at(i);
        PyObject *t = Py_BuildValue("(ssszz)", e->path, e->name, api_kind(e->kind), e->params, e->doc);
        if (!t) {
            Py_CLEAR(list);
            break;
        }
        PyList_SetItem(list, (Py_ssize_t)i, t);
    }
    return list;
}

/* dtypes() -> [(tl name, signature name, numpy name, bits, class)]. */
static PyObject *dtypes(PyObject *self, PyObject *noargs)
{
    static const char *const cls[] = {"bool", "int", "uint", "float"};
    PyObject *list = PyList_New(MT_DTYPE_COUNT);
    for (int i = 0; list && i < MT_DTYPE_COUNT; i++) {
        const MtDtypeInfo *d = mt_dtype_info((MtDtype)i);
        PyObject *t = Py_BuildValue("(sssis)", d->tl, d->sig, d->numpy, (int)d->bits, cls[d->cls]);
        if (!t) {
            Py_CLEAR(list);
            break;
        }
        PyList_SetItem(list, i, t);
    }
    return list;
}

/* rule(code) -> (name, title, help) or None. */
static PyObject *rule(PyObject *self, PyObject *arg)
{
    const char *code = PyUnicode_AsUTF8AndSize(arg, NULL);
    if (!code)
        return NULL;
    const MtRule *r = mt_rule_find(code);
    if (!r)
        Py_RETURN_NONE;
    return Py_BuildValue("(sss)", r->name, r->title, r->help);
}

static PyMethodDef module_methods[] = {
    {"compile", (PyCFunction)(void (*)(void))mtpy_compile, METH_VARARGS | METH_KEYWORDS,
     "compile(path, text, kernel, signature, defines=(), stage='ssa', num_warps=0, num_stages=0, lowering=None, "
     "sm=90) -> Kernel"},
    {"classify", (PyCFunction)(void (*)(void))mtpy_classify, METH_FASTCALL,
     "classify(flags, names, values, fast_types, sig_of_dtype, slow, interp) -> (signature, backend, launch args, "
     "device): mytriton/args.py's rules, fast"},
    {"dlpack_info", mtpy_dlpack_info, METH_O,
     "dlpack_info(capsule) -> (address, (code, bits, lanes), shape, strides or None, (device type, id)): a "
     "DLPack tensor, read without consuming the capsule"},
    {"api", api, METH_NOARGS, "the kernel language's names: [(path, name, kind, params, doc)]"},
    {"dtypes", dtypes, METH_NOARGS, "the element types: [(tl name, signature name, numpy name, bits, class)]"},
    {"rule", rule, METH_O, "rule(code) -> (name, title, help) of a diagnostic code, or None"},
    {"cuda_available", mtpy_cuda_available, METH_NOARGS,
     "cuda_available() -> (bool, why not): opens the GPU on the first call"},
    {"cuda_device", mtpy_cuda_device, METH_NOARGS, "the GPU's name, ordinal, capability, SMs, memory"},
    {"profile", (PyCFunction)(void (*)(void))mtpy_profile, METH_VARARGS | METH_KEYWORDS,
     "profile(fn, warmup=3, iters=10) -> (timer, [ns per call], note)"},
    {"cache_stats", mtpy_cache_stats, METH_NOARGS, "the kernel cache's hits, misses and folder"},
    {NULL, NULL, 0, NULL},
};

/* The state's types, to the garbage collector: each holds its module. */
static int module_traverse(PyObject *m, visitproc visit, void *arg)
{
    MtPyState *st = PyModule_GetState(m);
    Py_VISIT(st->kernel_type);
    Py_VISIT(st->diag_type);
    Py_VISIT(st->dispatcher_type);
    Py_VISIT(st->launcher_type);
    return 0;
}

static int module_clear(PyObject *m)
{
    MtPyState *st = PyModule_GetState(m);
    Py_CLEAR(st->kernel_type);
    Py_CLEAR(st->diag_type);
    Py_CLEAR(st->dispatcher_type);
    Py_CLEAR(st->launcher_type);
    return 0;
}

static void module_free(void *m) { module_clear(m); }

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "mytriton._C",
    .m_doc = "mytriton's compiler and runtime, as the Python package uses them (python/src/ext.h).",
    .m_size = sizeof(MtPyState),
    .m_methods = module_methods,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC PyInit__C(void);
PyMODINIT_FUNC PyInit__C(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    if (mtpy_kernel_init(m) < 0 || mtpy_diag_init(m) < 0 || mtpy_dispatch_init(m) < 0 || PyModule_AddStringConstant(m, "version", "0.1.0") < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
