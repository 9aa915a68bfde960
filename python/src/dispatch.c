/* dispatch.c: kernel[grid](...) on the GPU without Python in between.
 *
 * mytriton.jit's JITFunction derives from Dispatcher, so `kernel[grid]`
 * is this file's subscript: a Launcher holding the kernel and the grid,
 * whose call binds the arguments to the parameters, makes the
 * specialisation key (classify.c), finds the compiled kernel in the
 * function's cache, evaluates a callable grid over the meta-parameters
 * and launches on the stream args.py's current_stream names -- the
 * common launch of a cached kernel on GPU tensors, in C.
 *
 * It is the fast form of JITFunction.run (jit.py), which holds the rules:
 * every other launch -- launch options (num_warps=, num_stages=,
 * warmup=), a kernel not compiled yet for the key, the interpreter, a
 * missing or unknown argument -- goes to run(*args, grid=grid, **kwargs),
 * which compiles, launches or raises. Nothing is decided here that run
 * would decide otherwise. */
#include "ext.h"

#include <string.h>

typedef struct DispatcherObject {
    PyObject_HEAD
    Py_ssize_t n;             /* parameters */
    uint8_t *flags;           /* classify's, per parameter */
    PyObject *names;          /* tuple of str */
    PyObject *defaults;       /* tuple: each parameter's default, or `empty` */
    PyObject *empty;          /* inspect.Parameter.empty: no default */
    PyObject *cache;          /* dict: (signature, backend, num_warps, num_stages) -> Kernel */
    PyObject *fast_types, *sig_of_dtype, *slow;
    PyObject *stream_of;      /* args.current_stream(device) */
    int interp;               /* every launch on the interpreter: run's path */
    PyTypeObject *launcher_type, *kernel_type; /* the module's (a subclass has no module) */
} DispatcherObject;

typedef struct LauncherObject {
    PyObject_HEAD
    DispatcherObject *d;
    PyObject *grid;
} LauncherObject;

enum { MAX_PARAMS = 256 };

/* ---- Dispatcher ---------------------------------------------------------- */

static int dispatcher_traverse(DispatcherObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE((PyObject *)self));
    Py_VISIT(self->names);
    Py_VISIT(self->defaults);
    Py_VISIT(self->empty);
    Py_VISIT(self->cache);
    Py_VISIT(self->fast_types);
    Py_VISIT(self->sig_of_dtype);
    Py_VISIT(self->slow);
    Py_VISIT(self->stream_of);
    Py_VISIT(self->launcher_type);
    Py_VISIT(self->kernel_type);
    return 0;
}

static int dispatcher_clear(DispatcherObject *self)
{
    Py_CLEAR(self->names);
    Py_CLEAR(self->defaults);
    Py_CLEAR(self->empty);
    Py_CLEAR(self->cache);
    Py_CLEAR(self->fast_types);
    Py_CLEAR(self->sig_of_dtype);
    Py_CLEAR(self->slow);
    Py_CLEAR(self->stream_of);
    Py_CLEAR(self->launcher_type);
    Py_CLEAR(self->kernel_type);
    return 0;
}

static void dispatcher_dealloc(DispatcherObject *self)
{
    PyTypeObject *tp = Py_TYPE((PyObject *)self);
    PyObject_GC_UnTrack(self);
    dispatcher_clear(self);
    PyMem_Free(self->flags);
    freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    tp_free(self);
    Py_DECREF(tp);
}

/* _dispatch(flags, names, defaults, empty, cache, fast_types, sig_of_dtype,
 * slow, stream_of, interp): what the launcher reads (jit.py). */
static PyObject *dispatcher_setup(PyObject *obj, PyTypeObject *cls, PyObject *const *argv, Py_ssize_t argc,
                                  PyObject *kwnames)
{
    DispatcherObject *self = (DispatcherObject *)obj;
    if (argc != 10 || kwnames)
        return PyErr_Format(PyExc_TypeError, "_dispatch takes 10 positional arguments");
    PyObject *flags = argv[0], *names = argv[1], *defaults = argv[2];
    int interp = PyObject_IsTrue(argv[9]);
    if (interp < 0)
        return NULL;
    if (!PyTuple_Check(flags) || !PyTuple_Check(names) || !PyTuple_Check(defaults) || !PyDict_Check(argv[4]) ||
        !PyAnySet_Check(argv[5]) || !PyDict_Check(argv[6]))
        return PyErr_Format(PyExc_TypeError, "_dispatch: bad arguments");
    Py_ssize_t n = PyTuple_Size(names);
    if (PyTuple_Size(flags) != n || PyTuple_Size(defaults) != n)
        return PyErr_Format(PyExc_ValueError, "_dispatch: %zd names, %zd flags, %zd defaults", n,
                            PyTuple_Size(flags), PyTuple_Size(defaults));
    MtPyState *st = PyType_GetModuleState(cls);
    uint8_t *fl = st ? PyMem_Malloc((size_t)n + 1) : NULL;
    if (!fl)
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    if (mtpy_flags_from_tuple(flags, fl, n) < 0) {
        PyMem_Free(fl);
        return NULL;
    }
    dispatcher_clear(self);
    PyMem_Free(self->flags);
    self->flags = fl;
    self->n = n;
    self->names = Py_NewRef(names);
    self->defaults = Py_NewRef(defaults);
    self->empty = Py_NewRef(argv[3]);
    self->cache = Py_NewRef(argv[4]);
    self->fast_types = Py_NewRef(argv[5]);
    self->sig_of_dtype = Py_NewRef(argv[6]);
    self->slow = Py_NewRef(argv[7]);
    self->stream_of = Py_NewRef(argv[8]);
    self->interp = interp;
    self->launcher_type = (PyTypeObject *)Py_NewRef((PyObject *)st->launcher_type);
    self->kernel_type = (PyTypeObject *)Py_NewRef((PyObject *)st->kernel_type);
    Py_RETURN_NONE;
}

static PyObject *new_launcher(DispatcherObject *d, PyObject *grid);

static PyObject *dispatcher_subscript(DispatcherObject *self, PyObject *grid)
{
    return new_launcher(self, grid);
}

static PyMethodDef dispatcher_methods[] = {
    {"_dispatch", (PyCFunction)(void (*)(void))dispatcher_setup, METH_METHOD | METH_FASTCALL | METH_KEYWORDS,
     "_dispatch(flags, names, defaults, empty, cache, fast_types, sig_of_dtype, slow, stream_of, interp): "
     "what kernel[grid](...) reads"},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot dispatcher_slots[] = {
    {Py_tp_dealloc, dispatcher_dealloc},
    {Py_tp_traverse, dispatcher_traverse},
    {Py_tp_clear, dispatcher_clear},
    {Py_tp_methods, dispatcher_methods},
    {Py_mp_subscript, dispatcher_subscript},
    {Py_tp_doc, (void *)"The base of mytriton.jit's kernels: kernel[grid] is a Launcher (python/src/dispatch.c)."},
    {0, NULL},
};

static PyType_Spec dispatcher_spec = {
    .name = "mytriton._C.Dispatcher",
    .basicsize = sizeof(DispatcherObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = dispatcher_slots,
};

/* ---- Launcher ------------------------------------------------------------ */

static PyObject *new_launcher(DispatcherObject *d, PyObject *grid)
{
    if (!d->launcher_type)
        return PyErr_Format(PyExc_TypeError, "this kernel was not set up for launches (Dispatcher._dispatch)");
    allocfunc alloc = (allocfunc)PyType_GetSlot(d->launcher_type, Py_tp_alloc);
    LauncherObject *l = (LauncherObject *)alloc(d->launcher_type, 0);
    if (!l)
        return NULL;
    l->d = (DispatcherObject *)Py_NewRef((PyObject *)d);
    l->grid = Py_NewRef(grid);
    return (PyObject *)l;
}

static int launcher_traverse(LauncherObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE((PyObject *)self));
    Py_VISIT(self->d);
    Py_VISIT(self->grid);
    return 0;
}

static int launcher_clear(LauncherObject *self)
{
    Py_CLEAR(self->d);
    Py_CLEAR(self->grid);
    return 0;
}

static void launcher_dealloc(LauncherObject *self)
{
    PyTypeObject *tp = Py_TYPE((PyObject *)self);
    PyObject_GC_UnTrack(self);
    launcher_clear(self);
    freefunc tp_free = (freefunc)PyType_GetSlot(tp, Py_tp_free);
    tp_free(self);
    Py_DECREF(tp);
}

/* The n parameter values of a call (borrowed): positional ones, then
 * keywords, then defaults. 1 bound, 0 not a call the launcher binds (run
 * raises or takes launch options), -1 error. */
static int bind(DispatcherObject *d, PyObject *args, PyObject *kwargs, PyObject **values)
{
    Py_ssize_t nargs = PyTuple_Size(args), used = 0;
    if (nargs > d->n)
        return 0;
    for (Py_ssize_t i = 0; i < nargs; i++)
        values[i] = PyTuple_GetItem(args, i);
    for (Py_ssize_t i = nargs; i < d->n; i++) {
        PyObject *v = kwargs ? PyDict_GetItemWithError(kwargs, PyTuple_GetItem(d->names, i)) : NULL;
        if (v) {
            used++;
        } else if (PyErr_Occurred()) {
            return -1;
        } else {
            v = PyTuple_GetItem(d->defaults, i);
            if (v == d->empty)
                return 0;
        }
        values[i] = v;
    }
    return !kwargs || used == PyDict_Size(kwargs);
}

/* The launch grid: a tuple as it is; a callable called with the
 * meta-parameters (every parameter's value, num_warps and num_stages
 * None); a list made a tuple, anything else a 1-tuple (run's rule). */
static PyObject *grid_of(DispatcherObject *d, PyObject *grid, PyObject *const *values)
{
    if (PyTuple_Check(grid))
        return Py_NewRef(grid);
    PyObject *g;
    if (PyCallable_Check(grid)) {
        PyObject *meta = PyDict_New();
        if (!meta)
            return NULL;
        for (Py_ssize_t i = 0; i < d->n; i++)
            if (PyDict_SetItem(meta, PyTuple_GetItem(d->names, i), values[i]) < 0) {
                Py_DECREF(meta);
                return NULL;
            }
        if (PyDict_SetItemString(meta, "num_warps", Py_None) < 0 ||
            PyDict_SetItemString(meta, "num_stages", Py_None) < 0) {
            Py_DECREF(meta);
            return NULL;
        }
        g = PyObject_CallFunctionObjArgs(grid, meta, NULL);
        Py_DECREF(meta);
        if (!g || PyTuple_Check(g))
            return g;
    } else {
        g = Py_NewRef(grid);
    }
    PyObject *t = PyList_Check(g) ? PyList_AsTuple(g) : PyTuple_Pack(1, g);
    Py_DECREF(g);
    return t;
}

/* The cached kernel of a classified launch on the GPU (borrowed), NULL
 * when run must take it (not the GPU, not compiled yet, or an error). */
static PyObject *cached_kernel(DispatcherObject *d, const MtPyClassified *c)
{
    PyObject *cuda = mtpy_cuda_name();
    if (!cuda || !c->backend || (c->backend != cuda && PyUnicode_Compare(c->backend, cuda) != 0))
        return NULL;
    PyObject *key = PyTuple_Pack(4, c->signature, cuda, Py_None, Py_None);
    if (!key)
        return NULL;
    PyObject *k = PyDict_GetItemWithError(d->cache, key);
    Py_DECREF(key);
    return k && PyObject_TypeCheck(k, d->kernel_type) ? k : NULL;
}

/* The launch, when it is the common one: 1 launched (*kernel set), 0
 * run's to do, -1 error. */
static int fast_launch(DispatcherObject *d, PyObject *grid, PyObject *args, PyObject *kwargs, PyObject **kernel)
{
    if (d->interp || d->n > MAX_PARAMS)
        return 0;
    PyObject *values[MAX_PARAMS + 1];
    int r = bind(d, args, kwargs, values);
    if (r <= 0)
        return r;
    MtPyClassifyRules rules = {d->flags, d->names, d->fast_types, d->sig_of_dtype, d->slow, 0};
    MtPyClassified c;
    if (mtpy_classify_values(&rules, values, d->n, &c) < 0)
        return -1;
    PyObject *k = cached_kernel(d, &c);
    if (!k) {
        mtpy_classified_clear(&c);
        return PyErr_Occurred() ? -1 : 0;
    }
    Py_INCREF(k);
    PyObject *g = grid_of(d, grid, values);
    PyObject *stream = g ? PyObject_CallFunctionObjArgs(d->stream_of, c.device ? c.device : Py_None, NULL) : NULL;
    PyObject *done = NULL;
    if (stream) {
        PyObject *argv[3] = {g, c.launch, stream};
        done = mtpy_run_cuda((KernelObject *)k, argv, 3);
    }
    Py_XDECREF(g);
    Py_XDECREF(stream);
    mtpy_classified_clear(&c);
    if (!done) {
        Py_DECREF(k);
        return -1;
    }
    Py_DECREF(done);
    *kernel = k;
    return 1;
}

/* run(*args, grid=grid, **kwargs): every launch the fast path leaves. */
static PyObject *run(LauncherObject *self, PyObject *args, PyObject *kwargs)
{
    PyObject *fn = PyObject_GetAttrString((PyObject *)self->d, "run");
    PyObject *kw = !fn ? NULL : kwargs ? PyDict_Copy(kwargs) : PyDict_New();
    PyObject *ret = NULL;
    if (kw && PyDict_SetItemString(kw, "grid", self->grid) == 0)
        ret = PyObject_Call(fn, args, kw);
    Py_XDECREF(fn);
    Py_XDECREF(kw);
    return ret;
}

static PyObject *launcher_call(LauncherObject *self, PyObject *args, PyObject *kwargs)
{
    PyObject *kernel = NULL;
    int r = fast_launch(self->d, self->grid, args, kwargs, &kernel);
    return r > 0 ? kernel : r < 0 ? NULL : run(self, args, kwargs);
}

static PyType_Slot launcher_slots[] = {
    {Py_tp_dealloc, launcher_dealloc},
    {Py_tp_traverse, launcher_traverse},
    {Py_tp_clear, launcher_clear},
    {Py_tp_call, launcher_call},
    {Py_tp_doc, (void *)"kernel[grid]: call it with the kernel's arguments to launch (python/src/dispatch.c)."},
    {0, NULL},
};

static PyType_Spec launcher_spec = {
    .name = "mytriton._C.Launcher",
    .basicsize = sizeof(LauncherObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = launcher_slots,
};

int mtpy_dispatch_init(PyObject *module)
{
    MtPyState *st = PyModule_GetState(module);
    st->dispatcher_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &dispatcher_spec, NULL);
    if (!st->dispatcher_type || PyModule_AddType(module, st->dispatcher_type) < 0)
        return -1;
    st->launcher_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &launcher_spec, NULL);
    if (!st->launcher_type)
        return -1;
    return PyModule_AddType(module, st->launcher_type);
}
