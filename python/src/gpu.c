/* gpu.c: the process's GPU for Python launches.
 *
 * One MtCuda (device MYTRITON_DEVICE, default 0: its primary context, the
 * one torch and CuPy use, so their device pointers are valid here) and one
 * kernel cache (runtime/kcache.h: memory, then disk) serve every kernel of
 * the process; both are opened on the first GPU launch, under the GIL.
 * A machine without a driver or a device says so once, and every later
 * GPU call raises the same LaunchError.
 *
 * run_cuda is the hot path of `kernel[grid](...)`: the arguments are
 * marshalled straight into the parameter slots cuLaunchKernel reads, and
 * the launch is asynchronous on the caller's stream (torch's current
 * stream), as Triton's is. */
#include "ext.h"

#include <stdio.h>
#include <string.h>

#include "cuda_build.h"
#include "profiler.h"

/* Process-wide, guarded by the GIL. */
static MtCuda *gpu;
static MtKcache *cache;
static char gpu_error[1024];

static MtCuda *open_gpu(void)
{
    if (gpu || gpu_error[0])
        return gpu;
    char err[sizeof gpu_error];
    MtStatus st;
    Py_BEGIN_ALLOW_THREADS
    st = mt_cuda_open(&gpu, err, sizeof err);
    Py_END_ALLOW_THREADS
    if (st != MT_OK) {
        gpu = NULL;
        snprintf(gpu_error, sizeof gpu_error, "%s", err[0] ? err : "the GPU could not be opened");
    }
    return gpu;
}

static MtKcache *open_cache(void)
{
    if (!cache)
        cache = mt_kcache_open(NULL);
    return cache;
}

PyObject *mtpy_cuda_available(PyObject *self, PyObject *noargs)
{
    if (open_gpu())
        return Py_BuildValue("(Os)", Py_True, "");
    return Py_BuildValue("(Os)", Py_False, gpu_error);
}

PyObject *mtpy_cuda_device(PyObject *self, PyObject *noargs)
{
    if (!open_gpu())
        return PyErr_Format(MtPyLaunchError, "%s", gpu_error);
    const MtCudaDeviceInfo *d = mt_cuda_device_info(gpu);
    return Py_BuildValue("{s:s,s:i,s:(ii),s:i,s:K,s:i}", "name", d->name, "ordinal", d->ordinal, "capability",
                         d->cc_major, d->cc_minor, "sm_count", d->sm_count, "memory", (unsigned long long)d->total_mem,
                         "driver_version", d->driver_version);
}

PyObject *mtpy_cache_stats(PyObject *self, PyObject *noargs)
{
    MtKcache *k = open_cache();
    if (!k)
        return PyErr_NoMemory();
    MtKcacheStats s;
    mt_kcache_stats(k, &s);
    const char *dir = mt_kcache_dir(k);
    return Py_BuildValue("{s:K,s:K,s:K,s:K,s:z}", "memory_hits", (unsigned long long)s.memory_hits, "disk_hits",
                         (unsigned long long)s.disk_hits, "misses", (unsigned long long)s.misses, "disk_writes",
                         (unsigned long long)s.disk_writes, "dir", dir);
}

void mtpy_kernel_unload(KernelObject *k)
{
    if (k->mod && gpu) {
        char ignore[256];
        mt_cuda_module_unload(gpu, k->mod, ignore, sizeof ignore);
    }
    k->mod = NULL;
    k->fn = NULL;
}

/* NVRTC (through the cache), module load and function lookup, once per
 * kernel. A CUDA source NVRTC rejects is the compiler's diagnostic. */
static int load(KernelObject *self)
{
    if (!self->cuda_stage) {
        PyErr_SetString(MtPyLaunchError, "this specialisation was compiled for the interpreter only");
        return -1;
    }
    const MtCudaDeviceInfo *d = mt_cuda_device_info(gpu);
    MtNvrtcOutput out = {0};
    MtKcacheHit hit = MT_KCACHE_MISS;
    MtStatus st;
    size_t from = mt_diag_count(self->c);
    Py_BEGIN_ALLOW_THREADS
    pthread_mutex_lock(&self->lock);
    st = mt_cuda_build(self->c, self->k, open_cache(), d->cc_major * 10 + d->cc_minor, &out, &hit);
    pthread_mutex_unlock(&self->lock);
    Py_END_ALLOW_THREADS
    if (st != MT_OK) {
        mt_nvrtc_output_free(&out);
        mtpy_raise_diags(mtpy_kernel_state(self), MtPyCompilationError, self->c, from, "the CUDA build failed");
        return -1;
    }
    char err[1024] = "";
    const char *name = mt_compiled_kernel_name(self->k);
    st = mt_cuda_module_load(gpu, out.cubin_len ? out.cubin : (const void *)out.ptx, name, &self->mod, err, sizeof err);
    mt_nvrtc_output_free(&out);
    if (st == MT_OK)
        st = mt_cuda_module_function(gpu, self->mod, name, &self->fn, err, sizeof err);
    if (st != MT_OK) {
        mtpy_kernel_unload(self);
        PyErr_Format(MtPyLaunchError, "%s", err);
        return -1;
    }
    self->cubin_from = hit == MT_KCACHE_MEMORY ? "memory cache" : hit == MT_KCACHE_DISK ? "disk cache" : "compiled";
    return 0;
}

/* One argument into its 8-byte parameter slot. */
static int marshal(const ArgInfo *a, PyObject *o, uint64_t *slot)
{
    *slot = 0;
    if (a->kind == ARG_FLOAT) {
        double v = PyFloat_AsDouble(o);
        if (v == -1.0 && PyErr_Occurred())
            return -1;
        if (a->size == 8) {
            memcpy(slot, &v, 8);
        } else if (a->size == 4) {
            float f = (float)v;
            memcpy(slot, &f, 4);
        } else {
            uint16_t h = a->dtype == MT_DT_BF16 ? mt_f32_to_bf16((float)v) : mt_f32_to_f16((float)v);
            memcpy(slot, &h, 2);
        }
        return 0;
    }
    if (a->kind == ARG_PTR) {
        /* the common case first: a device address as a Python int */
        unsigned long long p = PyLong_Check(o) ? PyLong_AsUnsignedLongLong(o) : (unsigned long long)-1;
        if (p == (unsigned long long)-1 && (PyErr_Occurred() || !PyLong_Check(o)))
            return mtpy_arg_error(a, "a device address (int)", o);
        *slot = p;
        return 0;
    }
    int overflow;
    long long v = PyLong_Check(o) ? PyLong_AsLongLongAndOverflow(o, &overflow) : 0;
    if (!PyLong_Check(o)) {
        PyObject *idx = PyNumber_Index(o);
        if (!idx)
            return mtpy_arg_error(a, "an integer", o);
        v = PyLong_AsLongLongAndOverflow(idx, &overflow);
        Py_DECREF(idx);
    }
    if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        PyErr_Format(MtPyLaunchError, "argument %s (%s): %R does not fit in 64 bits", a->name, a->type, o);
        return -1;
    }
    if (a->kind == ARG_BOOL)
        v = v != 0;
    memcpy(slot, &v, a->size); /* little-endian: the low bytes */
    return 0;
}

#define MAX_ARGS 128

PyObject *mtpy_run_cuda(KernelObject *self, PyObject *const *argv, Py_ssize_t argc)
{
    if (argc != 3)
        return PyErr_Format(PyExc_TypeError, "run_cuda(grid, args, stream) takes 3 arguments, got %zd", argc);
    int64_t grid[3];
    if (mtpy_grid(argv[0], grid) < 0)
        return NULL;
    if (!PyTuple_Check(argv[1]) && !PyList_Check(argv[1]))
        return PyErr_Format(PyExc_TypeError, "args must be a tuple or a list");
    unsigned long long stream = PyLong_AsUnsignedLongLong(argv[2]);
    if (stream == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    if (!open_gpu())
        return PyErr_Format(MtPyLaunchError, "%s", gpu_error);
    if (!self->fn && load(self) < 0)
        return NULL;
    Py_ssize_t n = mtpy_seq_size(argv[1]);
    if ((size_t)n != self->nargs)
        return PyErr_Format(MtPyLaunchError, "%s takes %zu runtime arguments, got %zd",
                            mt_compiled_kernel_name(self->k), self->nargs, n);
    if (n > MAX_ARGS)
        return PyErr_Format(MtPyLaunchError, "at most %d runtime arguments", MAX_ARGS);
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
        Py_RETURN_NONE; /* an empty grid launches nothing, as in Triton */
    uint64_t slots[MAX_ARGS + 3];
    void *params[MAX_ARGS + 3];
    for (Py_ssize_t i = 0; i < n; i++) {
        if (marshal(&self->args[i], mtpy_seq_item(argv[1], i), &slots[i]) < 0)
            return NULL;
        params[i] = &slots[i];
    }
    /* a block runs programs_per_block programs along x; the kernel is told
     * the program grid to skip the last block's extra ones (as cuda_run.c) */
    unsigned ppb = self->shape.programs_per_block ? self->shape.programs_per_block : 1;
    unsigned g[3] = {(unsigned)((grid[0] + ppb - 1) / ppb), (unsigned)grid[1], (unsigned)grid[2]};
    if (self->shape.grid_params)
        for (int d = 0; d < 3; d++) {
            int32_t v = (int32_t)grid[d];
            slots[n + d] = 0;
            memcpy(&slots[n + d], &v, 4);
            params[n + d] = &slots[n + d];
        }
    unsigned block[3] = {self->shape.threads, 1, 1};
    char err[1024];
    MtStatus st = mt_cuda_make_current(gpu, err, sizeof err);
    if (st == MT_OK)
        st = mt_cuda_launch_stream(gpu, self->fn, mt_compiled_kernel_name(self->k), g, block,
                                   (unsigned)self->shape.dynamic_shared_bytes,
                                   (void *)(uintptr_t)stream, params, err, sizeof err);
    if (st != MT_OK)
        return PyErr_Format(MtPyLaunchError, "%s", err);
    Py_RETURN_NONE;
}

/* ---- timing: mytriton.testing.do_bench ------------------------------------------ */

typedef struct Bench {
    PyObject *fn;
    bool failed;              /* fn raised: the exception is set */
} Bench;

static MtStatus call_fn(void *ud, char *err, size_t errlen)
{
    Bench *b = ud;
    PyObject *r = PyObject_CallNoArgs(b->fn);
    if (!r) {
        b->failed = true;
        snprintf(err, errlen, "the benchmarked function raised an exception");
        return MT_ERR_USAGE;
    }
    Py_DECREF(r);
    return MT_OK;
}

/* profile(fn, warmup, iters) -> (timer, [ns per call], note): the GPU time
 * of the kernels each call of fn launches (CUPTI: the sum of their
 * durations; else CUDA events around the call on the default stream). */
PyObject *mtpy_profile(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"fn", "warmup", "iters", NULL};
    PyObject *fn;
    int warmup = 3, iters = 10;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|ii:profile", names, &fn, &warmup, &iters))
        return NULL;
    if (warmup < 0 || iters < 1)
        return PyErr_Format(PyExc_ValueError, "warmup must be >= 0 and iters >= 1");
    if (!open_gpu())
        return PyErr_Format(MtPyLaunchError, "%s", gpu_error);
    Bench b = {fn, false};
    MtProfile p;
    char err[1024] = "";
    MtStatus st = mt_cuda_make_current(gpu, err, sizeof err);
    if (st == MT_OK)
        st = mt_profile(gpu, call_fn, &b, warmup, iters, &p, err, sizeof err);
    if (b.failed) {
        if (st == MT_OK)
            mt_profile_free(&p);
        return NULL;
    }
    if (st != MT_OK)
        return PyErr_Format(MtPyLaunchError, "%s", err);
    PyObject *ns = PyList_New((Py_ssize_t)p.n);
    for (size_t i = 0; ns && i < p.n; i++)
        PyList_SetItem(ns, (Py_ssize_t)i, PyLong_FromUnsignedLongLong(p.ns[i]));
    PyObject *ret = ns ? Py_BuildValue("(sNs)", p.timer, ns, p.note) : NULL;
    mt_profile_free(&p);
    return ret;
}
