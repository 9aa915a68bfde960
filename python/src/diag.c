/* diag.c: the compiler's one diagnostic type (MtDiag) as a Python value,
 * and the exceptions that carry them.
 *
 * A mytriton.Diagnostic is a named tuple: severity, code, message, file,
 * line, col, end_line, end_col (1-based; 0 when there is no place),
 * rendered (what the CLI prints: "file:line:col: error: message [CODE]",
 * the source line and a caret). A CompilationError's message is the
 * rendered text of its errors, so a traceback shows the kernel's own line. */
#include "ext.h"

#include <string.h>

PyObject *MtPyError, *MtPyCompilationError, *MtPyLaunchError;

static PyStructSequence_Field diag_fields[] = {
    {"severity", "'error', 'warning', 'info' or 'note'"},
    {"code", "the rule code (docs/rules/), e.g. 'E0401', or None"},
    {"message", "what is wrong, without the place"},
    {"file", "the file it is about, or None"},
    {"line", "1-based line, 0 when there is no place"},
    {"col", "1-based column (bytes)"},
    {"end_line", "the range's last line"},
    {"end_col", "exclusive end column"},
    {"rendered", "the compiler's rendering: place, message, source line and caret"},
    {NULL, NULL},
};

static PyStructSequence_Desc diag_desc = {
    "mytriton.Diagnostic",
    "A compiler or runtime diagnostic with its place in the kernel's source.",
    diag_fields,
    9,
};

int mtpy_diag_init(PyObject *module)
{
    MtPyState *st = PyModule_GetState(module);
    if (!(st->diag_type = PyStructSequence_NewType(&diag_desc)) || PyModule_AddType(module, st->diag_type) < 0)
        return -1;
    MtPyError = PyErr_NewExceptionWithDoc("mytriton.MytritonError",
                                          "Base class of mytriton's errors; .diagnostics lists what the "
                                          "compiler or the runtime reported.",
                                          NULL, NULL);
    MtPyCompilationError = PyErr_NewExceptionWithDoc(
        "mytriton.CompilationError",
        "The kernel does not compile: its message is the compiler's diagnostics, with the file, line and "
        "column in the kernel's source.",
        MtPyError, NULL);
    MtPyLaunchError = PyErr_NewExceptionWithDoc(
        "mytriton.LaunchError",
        "A launch failed: an out-of-bounds access or a division by zero on the interpreter (with the "
        "source line that made it), a CUDA error, arguments that do not fit the kernel.",
        MtPyError, NULL);
    if (!MtPyError || !MtPyCompilationError || !MtPyLaunchError)
        return -1;
    Py_INCREF(MtPyError);
    Py_INCREF(MtPyCompilationError);
    Py_INCREF(MtPyLaunchError);
    if (PyModule_AddObject(module, "MytritonError", MtPyError) < 0 ||
        PyModule_AddObject(module, "CompilationError", MtPyCompilationError) < 0 ||
        PyModule_AddObject(module, "LaunchError", MtPyLaunchError) < 0)
        return -1;
    return 0;
}

static PyObject *str_or_none(const char *s)
{
    if (s)
        return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
    Py_RETURN_NONE;
}

static PyObject *diag_value(MtPyState *st, MtCtx *c, const MtDiag *d)
{
    PyObject *t = PyStructSequence_New(st->diag_type);
    if (!t)
        return NULL;
    const char *file = d->span.file ? mt_file_path(c, d->span.file) : NULL;
    PyObject *items[9] = {
        str_or_none(mt_severity_name(d->sev)),
        str_or_none(d->code),
        str_or_none(d->msg),
        str_or_none(file),
        PyLong_FromUnsignedLong(d->span.line),
        PyLong_FromUnsignedLong(d->span.col),
        PyLong_FromUnsignedLong(d->span.end_line),
        PyLong_FromUnsignedLong(d->span.end_col),
        str_or_none(mt_diag_render(c, d, false)),
    };
    for (int i = 0; i < 9; i++) {
        if (!items[i]) {
            for (int j = 0; j < 9; j++)
                Py_XDECREF(items[j]);
            Py_DECREF(t);
            return NULL;
        }
        PyStructSequence_SetItem(t, i, items[i]);
    }
    return t;
}

PyObject *mtpy_diag_list(MtPyState *st, MtCtx *c, size_t from)
{
    size_t n = mt_diag_count(c);
    PyObject *list = PyList_New(0);
    for (size_t i = from; list && i < n; i++) {
        PyObject *v = diag_value(st, c, mt_diag_at(c, i));
        if (!v || PyList_Append(list, v) < 0) {
            Py_XDECREF(v);
            Py_CLEAR(list);
            break;
        }
        Py_DECREF(v);
    }
    return list;
}

PyObject *mtpy_raise_diags(MtPyState *st, PyObject *type, MtCtx *c, size_t from, const char *fallback)
{
    PyObject *list = mtpy_diag_list(st, c, from);
    if (!list)
        return NULL;
    /* the message: every error, rendered, in order */
    PyObject *parts = PyList_New(0);
    size_t n = mt_diag_count(c);
    for (size_t i = from; parts && i < n; i++) {
        const MtDiag *d = mt_diag_at(c, i);
        if (d->sev != MT_SEV_ERROR)
            continue;
        PyObject *s = str_or_none(mt_diag_render(c, d, false));
        if (!s || PyList_Append(parts, s) < 0)
            Py_CLEAR(parts);
        Py_XDECREF(s);
    }
    PyObject *msg = NULL;
    if (parts && PyList_Size(parts) == 0)
        msg = PyUnicode_FromString(fallback);
    else if (parts) {
        PyObject *sep = PyUnicode_FromString("");
        msg = sep ? PyUnicode_Join(sep, parts) : NULL;
        Py_XDECREF(sep);
    }
    Py_XDECREF(parts);
    PyObject *exc = msg ? PyObject_CallFunctionObjArgs(type, msg, NULL) : NULL;
    Py_XDECREF(msg);
    if (exc && PyObject_SetAttrString(exc, "diagnostics", list) == 0)
        PyErr_SetObject(type, exc);
    Py_XDECREF(exc);
    Py_DECREF(list);
    return NULL;
}
