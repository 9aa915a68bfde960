/* classify.c: the specialisation key of a launch, in C (the hot path).
 *
 * classify(flags, names, values, fast_types, sig_of_dtype, slow, interp)
 *     -> (signature, backend, launch args, device)
 *
 * One pass over the bound parameter values, as mytriton/args.py describes
 * (it holds the rules; this is their fast form): Python scalars, None and
 * constexprs of the common types are handled here, and so are tensors of
 * a type in `fast_types` (torch.Tensor and its subclasses, registered by
 * args.py the first time it sees them) whose dtype is in `sig_of_dtype`
 * and which live on the GPU. Everything else goes to `slow(value, index)`,
 * which returns (entry, launch arg or None, backend or None, device or
 * None) -- numpy arrays, CPU tensors, CuPy, DLPack, staging under
 * MYTRITON_INTERPRET=1 and the errors. flags[i]: 0 a runtime parameter, 1
 * a constexpr, 2 a runtime parameter in do_not_specialize.
 *
 * mtpy_classify_values is the pass itself: jit.py's run calls it through
 * classify, the launcher (dispatch.c) directly. */
#include "ext.h"

#include <string.h>

typedef struct Buf {
    char *p;
    size_t n, cap;
} Buf;

/* More text for the entry being written. */
static int append(Buf *b, const char *s, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = (b->cap + n) * 2;
        char *p = PyMem_Realloc(b->p, cap);
        if (!p) {
            PyErr_NoMemory();
            return -1;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    return 0;
}

/* A new entry: the comma before it, then its text. */
static int put(Buf *b, const char *s, size_t n)
{
    if (b->n && append(b, ",", 1) < 0)
        return -1;
    return append(b, s, n);
}

static int puts_(Buf *b, const char *s) { return put(b, s, strlen(s)); }

static int put_obj(Buf *b, PyObject *str)
{
    Py_ssize_t n;
    const char *s = str ? PyUnicode_AsUTF8AndSize(str, &n) : NULL;
    int r = s ? put(b, s, (size_t)n) : -1;
    Py_XDECREF(str);
    return r;
}

/* An int's entry: i32, i64 or u64, with :16 when divisible by 16; `1`
 * for a 1 (Triton's specialisation: the compiler folds it, and it is no
 * launch argument then: *constant). */
static int put_int(Buf *b, PyObject *v, bool specialize, bool *constant)
{
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred())
        return -1;
    *constant = specialize && !overflow && x == 1;
    if (*constant)
        return put(b, "1", 1);
    const char *t;
    bool div16;
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(v);
        if (u == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_Format(MtPyLaunchError, "the integer %R does not fit in 64 bits", v);
            return -1;
        }
        t = "u64";
        div16 = u % 16 == 0;
    } else if (overflow < 0) {
        PyErr_Format(MtPyLaunchError, "the integer %R does not fit in 64 bits", v);
        return -1;
    } else {
        t = x >= INT32_MIN && x <= INT32_MAX ? "i32" : "i64";
        div16 = x % 16 == 0 && x != 0;
    }
    if (put(b, t, 3) < 0)
        return -1;
    return specialize && div16 ? append(b, ":16", 3) : 0;
}

static PyObject *s_dtype, *s_data_ptr, *s_is_cuda, *s_get_device, *s_cuda;

static int intern_names(void)
{
    if (s_cuda)
        return 0;
    s_dtype = PyUnicode_InternFromString("dtype");
    s_data_ptr = PyUnicode_InternFromString("data_ptr");
    s_is_cuda = PyUnicode_InternFromString("is_cuda");
    s_get_device = PyUnicode_InternFromString("get_device");
    s_cuda = PyUnicode_InternFromString("cuda");
    return s_dtype && s_data_ptr && s_is_cuda && s_get_device && s_cuda ? 0 : -1;
}

PyObject *mtpy_cuda_name(void) { return intern_names() < 0 ? NULL : s_cuda; }

/* A GPU tensor of a registered type: 1 done, 0 not this path, -1 error. */
static int fast_tensor(PyObject *v, PyObject *sig_of_dtype, bool specialize, Buf *b, PyObject *launch,
                       PyObject **device)
{
    PyObject *cuda = PyObject_GetAttr(v, s_is_cuda);
    if (!cuda)
        return -1;
    int on_gpu = cuda == Py_True;
    Py_DECREF(cuda);
    if (!on_gpu)
        return 0;
    PyObject *dt = PyObject_GetAttr(v, s_dtype);
    if (!dt)
        return -1;
    PyObject *sig = PyDict_GetItemWithError(sig_of_dtype, dt); /* borrowed */
    Py_DECREF(dt);
    if (!sig)
        return PyErr_Occurred() ? -1 : 0;
    PyObject *ptr = PyObject_CallMethodObjArgs(v, s_data_ptr, NULL);
    if (!ptr)
        return -1;
    unsigned long long p = PyLong_AsUnsignedLongLong(ptr);
    if (p == (unsigned long long)-1 && PyErr_Occurred()) {
        Py_DECREF(ptr);
        return -1;
    }
    if (!*device && !(*device = PyObject_CallMethodObjArgs(v, s_get_device, NULL))) {
        Py_DECREF(ptr);
        return -1;
    }
    int r = PyList_Append(launch, ptr);
    Py_DECREF(ptr);
    if (r < 0)
        return -1;
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(sig, &n);
    if (!s || put(b, "*", 1) < 0 || append(b, s, (size_t)n) < 0 ||
        (specialize && p % 16 == 0 && append(b, ":16", 3) < 0))
        return -1;
    return 1;
}

static void mixed(PyObject *names, Py_ssize_t i)
{
    PyErr_Format(MtPyLaunchError,
                 "argument %S: one launch cannot mix GPU tensors with CPU arrays (numpy and CPU torch tensors run "
                 "on the interpreter); move them to one device",
                 PyTuple_GetItem(names, i));
}

/* A constexpr's literal. */
static int put_constexpr(const MtPyClassifyRules *r, Buf *b, PyObject *v, Py_ssize_t i)
{
    PyTypeObject *tp = Py_TYPE(v);
    if (tp == &PyBool_Type)
        return puts_(b, v == Py_True ? "True" : "False");
    if (tp == &PyLong_Type)
        return put_obj(b, PyObject_Str(v));
    if (v == Py_None)
        return put(b, "None", 4);
    return put_obj(b, PyObject_CallFunction(r->slow, "On", v, i));
}

/* A runtime value args.py classifies: its (entry, launch arg or None,
 * backend or None, device or None). */
static int put_slow(const MtPyClassifyRules *r, Buf *b, PyObject *v, Py_ssize_t i, PyObject *launch,
                    PyObject **backend, PyObject **device)
{
    PyObject *t = PyObject_CallFunction(r->slow, "On", v, i);
    if (!t)
        return -1;
    PyObject *entry, *arg, *where, *dev;
    if (!PyArg_ParseTuple(t, "UOOO", &entry, &arg, &where, &dev)) {
        Py_DECREF(t);
        return -1;
    }
    Py_INCREF(entry);
    int rc = put_obj(b, entry);
    if (rc == 0 && arg != Py_None)
        rc = PyList_Append(launch, arg);
    if (rc == 0 && where != Py_None) {
        if (!*backend) {
            *backend = Py_NewRef(where);
        } else if (PyUnicode_Compare(*backend, where) != 0) {
            mixed(r->names, i);
            rc = -1;
        }
    }
    if (rc == 0 && dev != Py_None && !*device)
        *device = Py_NewRef(dev);
    Py_DECREF(t);
    return rc;
}

int mtpy_classify_values(const MtPyClassifyRules *r, PyObject *const *values, Py_ssize_t n, MtPyClassified *out)
{
    memset(out, 0, sizeof *out);
    if (intern_names() < 0)
        return -1;
    Buf b = {0};
    PyObject *launch = PyList_New(0), *device = NULL, *backend = NULL;
    if (!launch)
        return -1;
    int rc = 0;
    for (Py_ssize_t i = 0; i < n && rc == 0; i++) {
        PyObject *v = values[i];
        PyTypeObject *tp = Py_TYPE(v);
        uint8_t flag = r->flags[i];
        bool specialize = flag != 2;
        if (flag == 1) {
            rc = put_constexpr(r, &b, v, i);
        } else if (v == Py_None) {
            rc = put(&b, "None", 4);
        } else if (tp == &PyBool_Type) {
            rc = put(&b, "i1", 2);
            if (rc == 0)
                rc = PyList_Append(launch, v);
        } else if (tp == &PyLong_Type) {
            bool constant;
            rc = put_int(&b, v, specialize, &constant);
            if (rc == 0 && !constant)
                rc = PyList_Append(launch, v);
        } else if (tp == &PyFloat_Type) {
            rc = put(&b, "fp32", 4);
            if (rc == 0)
                rc = PyList_Append(launch, v);
        } else {
            int fast = 0;
            if (!r->interp && PySet_Contains(r->fast_types, (PyObject *)tp) == 1) {
                fast = fast_tensor(v, r->sig_of_dtype, specialize, &b, launch, &device);
                if (fast > 0 && backend && backend != s_cuda && PyUnicode_Compare(backend, s_cuda) != 0) {
                    mixed(r->names, i);
                    fast = -1;
                }
                if (fast > 0 && !backend)
                    backend = Py_NewRef(s_cuda);
            }
            rc = fast < 0 ? -1 : fast ? 0 : put_slow(r, &b, v, i, launch, &backend, &device);
        }
    }
    PyObject *sig = rc == 0 ? PyUnicode_FromStringAndSize(b.p ? b.p : "", (Py_ssize_t)b.n) : NULL;
    PyMem_Free(b.p);
    if (!sig) {
        Py_DECREF(launch);
        Py_XDECREF(device);
        Py_XDECREF(backend);
        return -1;
    }
    out->signature = sig;
    out->backend = backend;
    out->launch = launch;
    out->device = device;
    return 0;
}

void mtpy_classified_clear(MtPyClassified *c)
{
    Py_CLEAR(c->signature);
    Py_CLEAR(c->backend);
    Py_CLEAR(c->launch);
    Py_CLEAR(c->device);
}

/* A flags tuple as bytes (into `flags`, room for n). */
int mtpy_flags_from_tuple(PyObject *tuple, uint8_t *flags, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        long f = PyLong_AsLong(PyTuple_GetItem(tuple, i));
        if (f < 0 || f > 2)
            return PyErr_Occurred() ? -1 : (PyErr_Format(PyExc_ValueError, "classify: flag %ld", f), -1);
        flags[i] = (uint8_t)f;
    }
    return 0;
}

PyObject *mtpy_classify(PyObject *self, PyObject *const *argv, Py_ssize_t argc)
{
    if (argc != 7)
        return PyErr_Format(PyExc_TypeError, "classify takes 7 arguments");
    PyObject *flags = argv[0], *names = argv[1], *values = argv[2];
    int interp = PyObject_IsTrue(argv[6]);
    if (!PyTuple_Check(flags) || !PyTuple_Check(names) || PyTuple_Size(names) != PyTuple_Size(flags) ||
        !PyList_Check(values) || !PyAnySet_Check(argv[3]) || !PyDict_Check(argv[4]) || interp < 0)
        return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_TypeError, "classify: bad arguments");
    Py_ssize_t n = PyList_Size(values);
    if (PyTuple_Size(flags) != n)
        return PyErr_Format(PyExc_TypeError, "classify: %zd flags for %zd values", PyTuple_Size(flags), n);
    uint8_t *fl = PyMem_Malloc((size_t)n + 1);
    PyObject **vals = PyMem_Malloc(((size_t)n + 1) * sizeof *vals);
    PyObject *ret = NULL;
    if (!fl || !vals) {
        PyErr_NoMemory();
    } else if (mtpy_flags_from_tuple(flags, fl, n) == 0) {
        for (Py_ssize_t i = 0; i < n; i++)
            vals[i] = PyList_GetItem(values, i); /* borrowed */
        MtPyClassifyRules r = {fl, names, argv[3], argv[4], argv[5], interp};
        MtPyClassified c;
        if (mtpy_classify_values(&r, vals, n, &c) == 0) {
            ret = Py_BuildValue("(OOOO)", c.signature, c.backend ? c.backend : Py_None, c.launch,
                                c.device ? c.device : Py_None);
            mtpy_classified_clear(&c);
        }
    }
    PyMem_Free(fl);
    PyMem_Free(vals);
    return ret;
}
