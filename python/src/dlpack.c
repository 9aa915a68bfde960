/* dlpack.c: reading a DLPack capsule (mytriton._C.dlpack_info).
 *
 * An object with __dlpack__ and __dlpack_device__ (any array library's
 * tensors: CuPy, JAX, MXNet, torch, numpy ...) hands out a PyCapsule
 * named "dltensor" holding a DLManagedTensor. The launch needs only its
 * address, element type, shape and strides while the object it came from
 * stays alive (the launch's arguments hold it), so the capsule is read
 * and left as it is: it is not renamed "used_dltensor", and its
 * destructor calls the producer's deleter when it is collected, as the
 * DLPack protocol has it for a consumer that does not take ownership.
 *
 * The structs below are DLPack's ABI (dlpack.h, stable since 0.2; the
 * legacy unversioned capsule that __dlpack__() returns when no max_version
 * is asked for). */
#include "ext.h"

typedef struct DLDevice {
    int32_t device_type;      /* kDLCPU 1, kDLCUDA 2, kDLCUDAHost 3, kDLCUDAManaged 13, ... */
    int32_t device_id;
} DLDevice;

typedef struct DLDataType {
    uint8_t code;             /* kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBfloat 4, kDLBool 6, ... */
    uint8_t bits;
    uint16_t lanes;
} DLDataType;

typedef struct DLTensor {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides;         /* in elements; NULL: compact row-major */
    uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

static PyObject *int64_tuple(const int64_t *v, int32_t n)
{
    PyObject *t = PyTuple_New(n);
    for (int32_t i = 0; t && i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (!x) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SetItem(t, i, x);
    }
    return t;
}

PyObject *mtpy_dlpack_info(PyObject *self, PyObject *capsule)
{
    if (!PyCapsule_IsValid(capsule, "dltensor"))
        return PyErr_Format(MtPyLaunchError,
                            "__dlpack__() did not return a DLPack capsule named \"dltensor\" (one already used, "
                            "or a versioned one); pass the array itself");
    const DLManagedTensor *m = PyCapsule_GetPointer(capsule, "dltensor");
    if (!m)
        return NULL;
    const DLTensor *t = &m->dl_tensor;
    if (t->ndim < 0 || (t->ndim > 0 && !t->shape))
        return PyErr_Format(MtPyLaunchError, "a DLPack tensor with %d dimensions and no shape", (int)t->ndim);
    PyObject *shape = int64_tuple(t->shape, t->ndim);
    PyObject *strides = !shape ? NULL : t->strides ? int64_tuple(t->strides, t->ndim) : Py_NewRef(Py_None);
    if (!strides) {
        Py_XDECREF(shape);
        return NULL;
    }
    unsigned long long addr = (unsigned long long)(uintptr_t)t->data + t->byte_offset;
    return Py_BuildValue("(K(iii)NN(ii))", addr, (int)t->dtype.code, (int)t->dtype.bits, (int)t->dtype.lanes, shape,
                         strides, (int)t->device.device_type, (int)t->device.device_id);
}
