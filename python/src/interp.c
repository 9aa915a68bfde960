/* interp.c: Kernel.run_interp(grid, args): a launch on the CPU interpreter.
 *
 * Pointer arguments are host memory: an object with the buffer protocol
 * (a C-contiguous, writable numpy array: the interpreter stores into it in
 * place) or an (address, element count) pair (a CPU torch tensor, whose
 * storage the caller keeps alive). The interpreter bounds-checks every
 * access against the element count, so a fault is a LaunchError with the
 * compiler's report (R0701 at the load or store that made it), never a
 * stray write. The GIL is released while the programs run. */
#include "ext.h"

#include <string.h>

int mtpy_grid(PyObject *grid, int64_t out[3])
{
    out[0] = out[1] = out[2] = 1;
    PyObject *fast = PySequence_Fast(grid, "the grid must be a tuple of 1 to 3 ints");
    if (!fast)
        return -1;
    Py_ssize_t n = mtpy_seq_size(fast);
    if (n < 1 || n > 3) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "the grid must have 1 to 3 dimensions, got %zd", n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long long v = PyLong_AsLongLong(mtpy_seq_item(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < 0 || v > INT32_MAX) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "grid[%zd] is %lld: each dimension must be 0 to 2**31-1", i, v);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(fast);
    return 0;
}

int mtpy_arg_error(const ArgInfo *a, const char *expected, PyObject *o)
{
    PyErr_Clear();
    PyObject *name = PyType_GetName(Py_TYPE(o));
    if (name) {
        PyErr_Format(MtPyLaunchError, "argument %s (%s): %s expected, got %U", a->name, a->type, expected, name);
        Py_DECREF(name);
    }
    return -1;
}

/* One pointer argument's host memory. */
static int host_buffer(const ArgInfo *a, PyObject *o, MtKernelArg *ka, Py_buffer *view, bool *have_view)
{
    if (PyTuple_Check(o) && PyTuple_Size(o) == 2) {
        unsigned long long addr = PyLong_AsUnsignedLongLong(PyTuple_GetItem(o, 0));
        long long numel = addr == (unsigned long long)-1 && PyErr_Occurred()
                              ? -1
                              : PyLong_AsLongLong(PyTuple_GetItem(o, 1));
        if (PyErr_Occurred())
            return -1;
        if (numel < 0 || (numel > 0 && !addr)) {
            PyErr_Format(MtPyLaunchError, "argument %s: (address, element count) = (%llu, %lld) is not a buffer",
                         a->name, addr, numel);
            return -1;
        }
        ka->data = (void *)(uintptr_t)addr;
        ka->numel = (size_t)numel;
        return 0;
    }
    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyObject *type, *value, *tb;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_Format(MtPyLaunchError, "argument %s (%s): the interpreter needs a writable C-contiguous buffer: %S",
                     a->name, a->type, value ? value : Py_None);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
        return -1;
    }
    *have_view = true;
    if (view->itemsize != a->size) {
        PyErr_Format(MtPyLaunchError, "argument %s (%s): elements of %zd bytes, the kernel reads %d-byte ones",
                     a->name, a->type, view->itemsize, (int)a->size);
        return -1;
    }
    ka->data = view->buf;
    ka->numel = (size_t)(view->len / view->itemsize);
    return 0;
}

static int scalar(const ArgInfo *a, PyObject *o, MtKernelArg *ka)
{
    if (a->kind == ARG_FLOAT) {
        ka->f = PyFloat_AsDouble(o);
        if (ka->f == -1.0 && PyErr_Occurred())
            return -1;
        return 0;
    }
    PyObject *idx = PyNumber_Index(o);
    if (!idx)
        return mtpy_arg_error(a, "an integer", o);
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(idx, &overflow);
    if (overflow > 0 && a->dtype == MT_DT_U64) {
        v = (long long)PyLong_AsUnsignedLongLong(idx); /* above INT64_MAX: as its bits */
        overflow = 0;
    }
    Py_DECREF(idx);
    if (overflow) {
        PyErr_Format(MtPyLaunchError, "argument %s (%s): %S does not fit in 64 bits", a->name, a->type, o);
        return -1;
    }
    if (v == -1 && PyErr_Occurred())
        return -1;
    ka->i = v;
    return 0;
}

PyObject *mtpy_run_interp(KernelObject *self, PyObject *args)
{
    PyObject *grid_obj, *list;
    if (!PyArg_ParseTuple(args, "OO:run_interp", &grid_obj, &list))
        return NULL;
    int64_t grid[3];
    if (mtpy_grid(grid_obj, grid) < 0)
        return NULL;
    PyObject *fast = PySequence_Fast(list, "args must be a sequence");
    if (!fast)
        return NULL;
    size_t n = (size_t)mtpy_seq_size(fast);
    if (n != self->nargs) {
        Py_DECREF(fast);
        return PyErr_Format(MtPyLaunchError, "%s takes %zu runtime arguments, got %zu",
                            mt_compiled_kernel_name(self->k), self->nargs, n);
    }
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0) {
        Py_DECREF(fast);
        Py_RETURN_NONE; /* an empty grid launches nothing, as in Triton */
    }
    MtKernelArg *ka = PyMem_Calloc(n + 1, sizeof *ka);
    Py_buffer *views = PyMem_Calloc(n + 1, sizeof *views);
    bool *have = PyMem_Calloc(n + 1, sizeof *have);
    PyObject *ret = NULL;
    if (!ka || !views || !have) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        const ArgInfo *a = &self->args[i];
        PyObject *o = mtpy_seq_item(fast, (Py_ssize_t)i);
        ka[i].name = a->name;
        if ((a->kind == ARG_PTR ? host_buffer(a, o, &ka[i], &views[i], &have[i]) : scalar(a, o, &ka[i])) < 0)
            goto done;
    }
    MtStatus st;
    size_t from;
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&self->lock);
    from = mt_diag_count(self->c);
    MtInterpOptions io = {0};
    st = mt_interpret(self->c, self->k, grid, ka, n, &io);
    pthread_mutex_unlock(&self->lock);
    Py_END_ALLOW_THREADS
    if (st == MT_ERR_NOMEM)
        PyErr_NoMemory();
    else if (st != MT_OK) {
        /* rendering allocates in the context's arena: not while another run adds to it */
        pthread_mutex_lock(&self->lock);
        mtpy_raise_diags(mtpy_kernel_state(self), MtPyLaunchError, self->c, from, mt_status_name(st));
        pthread_mutex_unlock(&self->lock);
    } else
        ret = Py_NewRef(Py_None);
done:
    for (size_t i = 0; have && i < n; i++)
        if (have[i])
            PyBuffer_Release(&views[i]);
    PyMem_Free(ka);
    PyMem_Free(views);
    PyMem_Free(have);
    Py_DECREF(fast);
    return ret;
}
