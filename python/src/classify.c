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
 * None) -- numpy arrays, CPU tensors, CuPy, staging under
 * MYTRITON_INTERPRET=1 and the errors. flags[i]: 0 a runtime parameter, 1
 * a constexpr, 2 a runtime parameter in do_not_specialize. */
#include "ext.h"

#include <stdio.h>
#include <string.h>

typedef struct Buf {
    char *p;
    size_t n, cap;
} Buf;

static int put(Buf *b, const char *s, size_t n)
{
    if (b->n + n + 2 > b->cap) {
        size_t cap = (b->cap + n + 2) * 2;
        char *p = PyMem_Realloc(b->p, cap);
        if (!p) {
            PyErr_NoMemory();
            return -1;
        }
        b->p = p;
        b->cap = cap;
    }
    if (b->n)
        b->p[b->n++] = ',';
    memcpy(b->p + b->n, s, n);
    b->n += n;
    return 0;
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

/* An int's entry: i32, i64 or u64, with :16 when divisible by 16. */
static int put_int(Buf *b, PyObject *v, bool specialize)
{
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred())
        return -1;
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
    char buf[8];
    snprintf(buf, sizeof buf, "%s%s", t, specialize && div16 ? ":16" : "");
    return puts_(b, buf);
}

static PyObject *s_dtype, *s_data_ptr, *s_is_cuda, *s_get_device;

static int intern_names(void)
{
    if (s_dtype)
        return 0;
    s_dtype = PyUnicode_InternFromString("dtype");
    s_data_ptr = PyUnicode_InternFromString("data_ptr");
    s_is_cuda = PyUnicode_InternFromString("is_cuda");
    s_get_device = PyUnicode_InternFromString("get_device");
    return s_dtype && s_data_ptr && s_is_cuda && s_get_device ? 0 : -1;
}

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
    if (!s)
        return -1;
    char buf[32];
    snprintf(buf, sizeof buf, "*%.*s%s", (int)n, s, specialize && p % 16 == 0 ? ":16" : "");
    return puts_(b, buf) < 0 ? -1 : 1;
}

static void mixed(PyObject *names, Py_ssize_t i)
{
    PyErr_Format(MtPyLaunchError,
                 "argument %S: one launch cannot mix GPU tensors with CPU arrays (numpy and CPU torch tensors run "
                 "on the interpreter); move them to one device",
                 PyTuple_GetItem(names, i));
}

PyObject *mtpy_classify(PyObject *self, PyObject *const *argv, Py_ssize_t argc)
{
    if (argc != 7)
        return PyErr_Format(PyExc_TypeError, "classify takes 7 arguments");
    PyObject *flags = argv[0], *names = argv[1], *values = argv[2], *fast_types = argv[3], *sig_of_dtype = argv[4],
             *slow = argv[5];
    int interp = PyObject_IsTrue(argv[6]);
    if (!PyTuple_Check(flags) || !PyTuple_Check(names) || PyTuple_Size(names) != PyTuple_Size(flags) ||
        !PyList_Check(values) || !PyDict_Check(sig_of_dtype) || interp < 0 || intern_names() < 0)
        return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_TypeError, "classify: bad arguments");
    Py_ssize_t n = PyList_Size(values), nflags = PyTuple_Size(flags);
    if (nflags != n)
        return PyErr_Format(PyExc_TypeError, "classify: %zd flags for %zd values", nflags, n);
    Buf b = {0};
    PyObject *launch = PyList_New(0), *device = NULL, *backend = NULL, *ret = NULL;
    if (!launch)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyList_GetItem(values, i);             /* borrowed, as the macros were */
        long flag = PyLong_AsLong(PyTuple_GetItem(flags, i));
        PyTypeObject *tp = Py_TYPE(v);
        bool specialize = flag != 2;
        if (flag == 1) {                       /* a constexpr: its literal */
            int r;
            if (tp == &PyBool_Type)
                r = puts_(&b, v == Py_True ? "True" : "False");
            else if (tp == &PyLong_Type)
                r = put_obj(&b, PyObject_Str(v));
            else if (v == Py_None)
                r = puts_(&b, "None");
            else
                r = put_obj(&b, PyObject_CallFunction(slow, "On", v, i));
            if (r < 0)
                goto done;
            continue;
        }
        int r = 0;
        if (v == Py_None) {
            r = puts_(&b, "None");
        } else if (tp == &PyBool_Type) {
            r = puts_(&b, "i1");
            if (r == 0)
                r = PyList_Append(launch, v);
        } else if (tp == &PyLong_Type) {
            r = put_int(&b, v, specialize);
            if (r == 0)
                r = PyList_Append(launch, v);
        } else if (tp == &PyFloat_Type) {
            r = puts_(&b, "fp32");
            if (r == 0)
                r = PyList_Append(launch, v);
        } else {
            int fast = 0;
            if (!interp && PySet_Contains(fast_types, (PyObject *)tp) == 1) {
                fast = fast_tensor(v, sig_of_dtype, specialize, &b, launch, &device);
                if (fast < 0)
                    goto done;
                if (fast && backend && PyUnicode_CompareWithASCIIString(backend, "cuda") != 0) {
                    mixed(names, i);
                    goto done;
                }
                if (fast && !backend && !(backend = PyUnicode_InternFromString("cuda")))
                    goto done;
            }
            if (!fast) {
                /* (entry, launch arg or None, backend or None, device or None) */
                PyObject *t = PyObject_CallFunction(slow, "On", v, i);
                if (!t)
                    goto done;
                PyObject *entry, *arg, *where, *dev;
                if (!PyArg_ParseTuple(t, "UOOO", &entry, &arg, &where, &dev)) {
                    Py_DECREF(t);
                    goto done;
                }
                Py_INCREF(entry);
                r = put_obj(&b, entry);
                if (r == 0 && arg != Py_None)
                    r = PyList_Append(launch, arg);
                if (r == 0 && where != Py_None) {
                    if (!backend) {
                        backend = Py_NewRef(where);
                    } else if (PyUnicode_Compare(backend, where) != 0) {
                        mixed(names, i);
                        r = -1;
                    }
                }
                if (r == 0 && dev != Py_None && !device)
                    device = Py_NewRef(dev);
                Py_DECREF(t);
            }
        }
        if (r < 0)
            goto done;
    }
    {
        PyObject *sig = PyUnicode_FromStringAndSize(b.p ? b.p : "", (Py_ssize_t)b.n);
        if (sig)
            ret = Py_BuildValue("(NOOO)", sig, backend ? backend : Py_None, launch, device ? device : Py_None);
    }
done:
    PyMem_Free(b.p);
    Py_DECREF(launch);
    Py_XDECREF(device);
    Py_XDECREF(backend);
    return ret;
}
