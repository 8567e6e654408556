/*
 * error.c -- errors from C to Python, the Error type, and the kind tables.
 *
 * C -> Python: the error kind picks the exception class (ERROR_NAME_TO_TYPE; a kind nobody
 * registered, such as the InternalError of a failed check or a C++ std::exception, is a plain
 * RuntimeError, as in the reference; the kind stays readable on the Error), the message is kept
 * as is, the stored backtrace becomes traceback frames through the hook error.py installs, the
 * Error object rides along as `exc.__tvm_ffi_error__`, and the cause chain becomes `__cause__`.
 * When the error started as a Python exception (its extra_context holds that exception), the
 * very same exception object is raised again, with the frames it picked up on the C side.
 *
 * Python -> C (error_from_python.c): the kind comes from ERROR_TYPE_TO_NAME along the
 * exception's MRO, the message is str(exc), the backtrace is the Python traceback (most recent
 * call first) plus the C frames, and for exceptions leaving a callback the exception itself is
 * kept as extra_context.
 *
 * The default kinds (ERROR_NAME_TO_TYPE / ERROR_TYPE_TO_NAME) are listed once, in
 * core_error_init; tvm_ffi.error.register_error adds to the same tables.
 */
#include "error.h"

#include <string.h>

#include "fastcall_args.h"
#include "object.h"
#include "state.h"
#include "type_table.h"

static PyObject* g_hook_append = NULL;  /* with_append_backtrace(exc, text) -> exc, or NULL */
/* traceback -> backtrace text, or NULL for native_traceback_text (error.py installs none). */
static PyObject* g_hook_to_text = NULL;

/* ---- small helpers ---- */

static PyObject* bytes_to_str(const TVMFFIByteArray* bytes) {
  return PyUnicode_DecodeUTF8(bytes->data, (Py_ssize_t)bytes->size, "replace");
}

static int byte_array_equals(const TVMFFIByteArray* bytes, const char* text) {
  size_t n = strlen(text);
  return bytes->size == n && memcmp(bytes->data, text, n) == 0;
}

PyObject* core_error_table(const char* name) {
  PyObject* value = PyObject_GetAttrString(core_module, name);
  if (value == NULL) {
    PyErr_Clear();
    return NULL;
  }
  Py_DECREF(value); /* the module keeps it */
  return PyDict_Check(value) ? value : NULL;
}

void core_raise_arg_error(PyObject* exc_type, const CoreArgSite* site, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  PyObject* detail = PyUnicode_FromFormatV(fmt, ap);
  va_end(ap);
  if (detail == NULL) return;
  if (site == NULL || site->index == kCoreSiteConvert) {
    PyErr_Format(exc_type, "Cannot convert value to an FFI value: %U", detail);
  } else if (site->index == kCoreSiteCallbackResult) {
    PyErr_Format(exc_type, "Cannot convert the return value of a Python callback: %U", detail);
  } else if (site->func_name != NULL) {
    PyErr_Format(exc_type, "Cannot convert argument #%zd when calling `%U`: %U", site->index,
                 site->func_name, detail);
  } else {
    PyErr_Format(exc_type, "Cannot convert argument #%zd when calling function: %U",
                 site->index, detail);
  }
  Py_DECREF(detail);
}

/* ---- backtrace text <-> Python traceback ---- */

/* Plain-text traceback, most recent call first: `  File "f", line n, in func` lines, the
 * format tvm_ffi.error.parse_backtrace reads back (the one writer of that format). */
static PyObject* native_traceback_text(PyObject* tb) {
  PyObject* lines = PyList_New(0);
  if (lines == NULL) return NULL;
  Py_XINCREF(tb);
  while (tb != NULL && tb != Py_None) {
    PyObject* frame = PyObject_GetAttrString(tb, "tb_frame");
    PyObject* lineno = PyObject_GetAttrString(tb, "tb_lineno");
    PyObject* code = frame != NULL ? PyObject_GetAttrString(frame, "f_code") : NULL;
    PyObject* file = code != NULL ? PyObject_GetAttrString(code, "co_filename") : NULL;
    PyObject* name = code != NULL ? PyObject_GetAttrString(code, "co_name") : NULL;
    PyObject* line = (file != NULL && name != NULL && lineno != NULL)
                         ? PyUnicode_FromFormat("  File \"%S\", line %S, in %S\n", file, lineno,
                                                name)
                         : NULL;
    Py_XDECREF(frame);
    Py_XDECREF(lineno);
    Py_XDECREF(code);
    Py_XDECREF(file);
    Py_XDECREF(name);
    PyObject* next = line != NULL ? PyObject_GetAttrString(tb, "tb_next") : NULL;
    Py_DECREF(tb);
    tb = next;
    if (line == NULL || PyList_Append(lines, line) != 0) {
      Py_XDECREF(line);
      Py_XDECREF(tb);
      Py_DECREF(lines);
      return NULL;
    }
    Py_DECREF(line);
  }
  Py_XDECREF(tb);
  if (PyList_Reverse(lines) != 0) {
    Py_DECREF(lines);
    return NULL;
  }
  PyObject* empty = PyUnicode_FromString("");
  PyObject* out = empty != NULL ? PyUnicode_Join(empty, lines) : NULL;
  Py_XDECREF(empty);
  Py_DECREF(lines);
  return out;
}

PyObject* core_exception_backtrace_text(PyObject* exc) {
  PyObject* tb = PyException_GetTraceback(exc);
  if (tb == NULL) {
    tb = Py_None;
    Py_INCREF(tb);
  }
  PyObject* text = g_hook_to_text != NULL ? PyObject_CallOneArg(g_hook_to_text, tb)
                                          : native_traceback_text(tb);
  Py_DECREF(tb);
  if (text == NULL || !PyUnicode_Check(text)) {
    Py_XDECREF(text);
    PyErr_Clear();
    text = PyUnicode_FromString("");
  }
  return text;
}

/* Adds the frames in `text` to exc's traceback; returns the (possibly new) exception. Steals
 * exc. Failures of the hook keep the exception without the extra frames. */
static PyObject* append_backtrace(PyObject* exc, PyObject* text) {
  if (text == NULL || PyUnicode_GET_LENGTH(text) == 0) return exc;
  if (g_hook_append != NULL) {
    PyObject* out = PyObject_CallFunctionObjArgs(g_hook_append, exc, text, NULL);
    if (out != NULL && PyExceptionInstance_Check(out)) {
      Py_DECREF(exc);
      return out;
    }
    Py_XDECREF(out);
    PyErr_Clear();
    return exc;
  }
  /* No hook (error.py not loaded): keep the text as a note (Python >= 3.11). */
  PyObject* note = PyUnicode_FromFormat("FFI backtrace (most recent call first):\n%U", text);
  if (note != NULL && PyObject_HasAttrString(exc, "add_note")) {
    PyObject* r = PyObject_CallMethod(exc, "add_note", "O", note);
    Py_XDECREF(r);
  }
  Py_XDECREF(note);
  PyErr_Clear();
  return exc;
}

/* ---- C -> Python ---- */

static PyObject* class_for_kind(PyObject* kind) {
  PyObject* table = core_error_table("ERROR_NAME_TO_TYPE");
  PyObject* cls = table != NULL ? PyDict_GetItemWithError(table, kind) : NULL;
  if (cls != NULL && PyExceptionClass_Check(cls)) return Py_NewRef(cls);
  PyErr_Clear();
  return Py_NewRef(PyExc_RuntimeError);
}

/* Owned CoreError wrapper for a borrowed error handle. */
static PyObject* wrap_error(TVMFFIObjectHandle handle) {
  TVMFFIObjectIncRef(handle);
  return core_object_from_handle(handle);
}

/* An error that unwound through a structural walk keeps the extra_context it had before in its
 * ffi.VisitErrorContext: prev_error_context, an object pointer at offset 32 (after the header and
 * the reverse_visit_pattern list). The type is registered on first use, so its index is looked
 * up until it exists. */
static TVMFFIObjectHandle context_before_visits(TVMFFIObjectHandle ctx) {
  static int32_t visit_context_index = -1;
  if (visit_context_index < 0) {
    TVMFFIByteArray key = {"ffi.VisitErrorContext", sizeof("ffi.VisitErrorContext") - 1};
    if (TVMFFITypeKeyToIndex(&key, &visit_context_index) != 0) {
      TVMFFIObjectHandle ignored = NULL;
      TVMFFIErrorMoveFromRaised(&ignored);
      if (ignored != NULL) TVMFFIObjectDecRef(ignored);
      visit_context_index = -1;
      return ctx;
    }
  }
  while (ctx != NULL && TVMFFIObjectGetTypeIndex(ctx) == visit_context_index) {
    ctx = *(TVMFFIObjectHandle*)((char*)ctx + sizeof(TVMFFIObject) + sizeof(void*));
  }
  return ctx;
}

/* The original exception of an error that started in Python, or NULL. Borrowed. */
static PyObject* original_exception(const TVMFFIErrorCell* cell) {
  TVMFFIObjectHandle ctx = context_before_visits(cell->extra_context);
  if (ctx == NULL || TVMFFIObjectGetTypeIndex(ctx) != kTVMFFIOpaquePyObject) return NULL;
  PyObject* held = (PyObject*)TVMFFIOpaqueObjectGetCellPtr(ctx)->handle;
  return (held != NULL && PyExceptionInstance_Check(held)) ? held : NULL;
}

static PyObject* error_to_exception(TVMFFIObjectHandle handle, PyObject* wrapper, int depth) {
  const TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(handle);
  PyObject* backtrace = bytes_to_str(&cell->backtrace);
  if (backtrace == NULL) return NULL;

  PyObject* original = original_exception(cell);
  if (original != NULL) {
    /* Its own traceback already has the Python frames stored first in the text: add only
     * what the C side appended after them. */
    Py_INCREF(original);
    PyObject* prefix = core_exception_backtrace_text(original);
    PyObject* rest = backtrace;
    Py_ssize_t n = PyUnicode_GET_LENGTH(prefix);
    if (n > 0 && PyUnicode_Tailmatch(backtrace, prefix, 0, n, -1) == 1) {
      rest = PyUnicode_Substring(backtrace, n, PyUnicode_GET_LENGTH(backtrace));
      Py_DECREF(backtrace);
      if (rest == NULL) PyErr_Clear();
    }
    Py_DECREF(prefix);
    PyObject* out = append_backtrace(original, rest);
    Py_XDECREF(rest);
    return out;
  }

  PyObject* kind = bytes_to_str(&cell->kind);
  PyObject* message = bytes_to_str(&cell->message);
  PyObject* cls = kind != NULL ? class_for_kind(kind) : NULL;
  PyObject* exc = (cls != NULL && message != NULL) ? PyObject_CallOneArg(cls, message) : NULL;
  if (exc != NULL && !PyExceptionInstance_Check(exc)) Py_CLEAR(exc);
  if (exc == NULL && message != NULL) {
    /* A registered class that cannot be built from the message: still raise something. */
    PyErr_Clear();
    exc = PyObject_CallOneArg(PyExc_RuntimeError, message);
  }
  Py_XDECREF(kind);
  Py_XDECREF(message);
  Py_XDECREF(cls);
  if (exc == NULL) {
    Py_DECREF(backtrace);
    return NULL;
  }
  exc = append_backtrace(exc, backtrace);
  Py_DECREF(backtrace);

  PyObject* owned_wrapper = wrapper != NULL ? (Py_INCREF(wrapper), wrapper) : wrap_error(handle);
  if (owned_wrapper == NULL || PyObject_SetAttrString(exc, "__tvm_ffi_error__", owned_wrapper)) {
    PyErr_Clear();
  }
  Py_XDECREF(owned_wrapper);

  TVMFFIObjectHandle cause = cell->cause_chain;
  if (cause != NULL && depth < CORE_MAX_CAUSE_DEPTH &&
      TVMFFIObjectGetTypeIndex(cause) == kTVMFFIError) {
    PyObject* cause_exc = error_to_exception(cause, NULL, depth + 1);
    if (cause_exc != NULL) {
      PyException_SetCause(exc, cause_exc); /* steals */
    } else {
      PyErr_Clear();
    }
  }
  return exc;
}

PyObject* core_error_to_py_exception(TVMFFIObjectHandle error, PyObject* error_wrapper) {
  return error_to_exception(error, error_wrapper, 0);
}

static PyObject* raise_exception_object(PyObject* exc) {
  PyErr_SetObject((PyObject*)Py_TYPE(exc), exc);
  Py_DECREF(exc);
  return NULL;
}

PyObject* core_raise_from_error(TVMFFIObjectHandle error) {
  const TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(error);
  if (byte_array_equals(&cell->kind, "EnvErrorAlreadySet")) {
    TVMFFIObjectDecRef(error);
    if (!PyErr_Occurred()) {
      PyErr_SetString(PyExc_RuntimeError,
                      "FFI call reported EnvErrorAlreadySet but no Python exception is pending");
    }
    return NULL;
  }
  PyObject* wrapper = core_object_from_handle(error);
  if (wrapper == NULL) return NULL;
  PyObject* exc = core_error_to_py_exception(((CoreObject*)wrapper)->chandle, wrapper);
  Py_DECREF(wrapper);
  if (exc == NULL) return NULL;
  return raise_exception_object(exc);
}

PyObject* core_raise_from_rc(int rc) {
  TVMFFIObjectHandle error = NULL;
  TVMFFIErrorMoveFromRaised(&error);
  if (rc == -2 && PyErr_Occurred()) {
    if (error != NULL) TVMFFIObjectDecRef(error);
    return NULL;
  }
  if (error != NULL) {
    /* EnvErrorAlreadySet defers to the pending exception; any other error replaces it. */
    if (!byte_array_equals(&TVMFFIErrorGetCellPtr(error)->kind, "EnvErrorAlreadySet")) {
      PyErr_Clear();
    }
    return core_raise_from_error(error);
  }
  if (!PyErr_Occurred()) {
    PyErr_Format(PyExc_RuntimeError,
                 "FFI call failed with return code %d but raised no error", rc);
  }
  return NULL;
}

/* ---- the Error type ---- */

static int error_init(PyObject* op, PyObject* args, PyObject* kwds) {
  static char* kwlist[] = {"kind", "message", "backtrace", NULL};
  const char *kind, *message, *backtrace;
  Py_ssize_t kind_n, message_n, backtrace_n;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "s#s#s#:Error", kwlist, &kind, &kind_n, &message,
                                   &message_n, &backtrace, &backtrace_n)) {
    return -1;
  }
  TVMFFIByteArray k = {kind, (size_t)kind_n}, m = {message, (size_t)message_n},
                  b = {backtrace, (size_t)backtrace_n};
  TVMFFIObjectHandle handle;
  if (TVMFFIErrorCreate(&k, &m, &b, &handle) != 0) {
    PyErr_SetString(PyExc_MemoryError, "cannot create an FFI error object");
    return -1;
  }
  CoreObject* self = (CoreObject*)op;
  TVMFFIObjectHandle old = self->chandle;
  self->chandle = handle;
  if (old != NULL) TVMFFIObjectDecRef(old);
  return 0;
}

static const TVMFFIErrorCell* error_cell(PyObject* op) {
  TVMFFIObjectHandle handle = ((CoreObject*)op)->chandle;
  if (handle == NULL) {
    PyErr_SetString(PyExc_ValueError, "this Error has no FFI handle (NULL)");
    return NULL;
  }
  return TVMFFIErrorGetCellPtr(handle);
}

static PyObject* error_get_kind(PyObject* op, void* closure) {
  (void)closure;
  const TVMFFIErrorCell* cell = error_cell(op);
  return cell != NULL ? bytes_to_str(&cell->kind) : NULL;
}

static PyObject* error_get_message(PyObject* op, void* closure) {
  (void)closure;
  const TVMFFIErrorCell* cell = error_cell(op);
  return cell != NULL ? bytes_to_str(&cell->message) : NULL;
}

static PyObject* error_get_backtrace(PyObject* op, void* closure) {
  (void)closure;
  const TVMFFIErrorCell* cell = error_cell(op);
  return cell != NULL ? bytes_to_str(&cell->backtrace) : NULL;
}

static PyObject* error_get_extra_context(PyObject* op, void* closure) {
  (void)closure;
  const TVMFFIErrorCell* cell = error_cell(op);
  if (cell == NULL) return NULL;
  if (cell->extra_context == NULL) Py_RETURN_NONE;
  /* The exception a Python callback raised, as itself; any other object as its wrapper. */
  if (TVMFFIObjectGetTypeIndex(cell->extra_context) == kTVMFFIOpaquePyObject) {
    PyObject* held = (PyObject*)TVMFFIOpaqueObjectGetCellPtr(cell->extra_context)->handle;
    if (held == NULL) Py_RETURN_NONE;
    Py_INCREF(held);
    return held;
  }
  TVMFFIObjectIncRef(cell->extra_context);
  return core_object_from_handle(cell->extra_context);
}

static PyObject* error_update_backtrace(PyObject* op, PyObject* const* args, Py_ssize_t nargs,
                                        PyObject* kwnames) {
  PyObject* text;
  if (core_bind_one_fastcall("update_backtrace", "backtrace", args, nargs, kwnames, &text) != 0) {
    return NULL;
  }
  const TVMFFIErrorCell* cell = error_cell(op);
  if (cell == NULL) return NULL;
  Py_ssize_t size;
  const char* data = PyUnicode_AsUTF8AndSize(text, &size);
  if (data == NULL) return NULL;
  TVMFFIByteArray view = {data, (size_t)size};
  TVMFFIObjectHandle handle = ((CoreObject*)op)->chandle;
  cell->update_backtrace(handle, &view, kTVMFFIBacktraceUpdateModeReplace);
  Py_RETURN_NONE;
}

static PyObject* error_py_error(PyObject* op, PyObject* unused) {
  (void)unused;
  if (error_cell(op) == NULL) return NULL;
  return core_error_to_py_exception(((CoreObject*)op)->chandle, op);
}

static PyObject* error_reduce(PyObject* op, PyObject* unused) {
  (void)unused;
  const TVMFFIErrorCell* cell = error_cell(op);
  if (cell == NULL) return NULL;
  return Py_BuildValue("(O(NNN))", (PyObject*)Py_TYPE(op), bytes_to_str(&cell->kind),
                       bytes_to_str(&cell->message), bytes_to_str(&cell->backtrace));
}

static PyMethodDef error_methods[] = {
    {"update_backtrace", (PyCFunction)(void (*)(void))error_update_backtrace,
     METH_FASTCALL | METH_KEYWORDS,
     "update_backtrace($self, backtrace)\n"
     "--\n"
     "\n"
     "Replace the stored backtrace text.\n"
     "\n"
     "Parameters\n"
     "----------\n"
     "backtrace : str\n"
     "    The new backtrace, most recent frame last."},
    {"py_error", error_py_error, METH_NOARGS,
     "py_error($self, /)\n"
     "--\n"
     "\n"
     "Make the Python exception this error raises as.\n"
     "\n"
     "Returns\n"
     "-------\n"
     "BaseException\n"
     "    An instance of the class registered for the error's kind, carrying its message and\n"
     "    backtrace."},
    {"__reduce__", error_reduce, METH_NOARGS, "Pickles as (kind, message, backtrace)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef error_getset[] = {
    {"kind", error_get_kind, NULL, "Error kind, e.g. 'ValueError'.", NULL},
    {"message", error_get_message, NULL, "Error message.", NULL},
    {"backtrace", error_get_backtrace, NULL, "Backtrace text, most recent call first.", NULL},
    {"extra_context", error_get_extra_context, NULL,
     "Object attached by the raiser (the original exception for Python errors), or None.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject CoreError_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.Error",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Error(kind, message, backtrace)\n--\n\nAn FFI error object.",
    .tp_init = error_init,
    .tp_methods = error_methods,
    .tp_getset = error_getset,
};

/* ---- module functions ---- */

PyObject* core_mod_set_error_hooks(PyObject* self, PyObject* args) {
  (void)self;
  PyObject *append, *to_text;
  if (!PyArg_ParseTuple(args, "OO:_set_error_hooks", &append, &to_text)) return NULL;
  if ((append != Py_None && !PyCallable_Check(append)) ||
      (to_text != Py_None && !PyCallable_Check(to_text))) {
    PyErr_SetString(PyExc_TypeError, "_set_error_hooks() expects two callables (or None)");
    return NULL;
  }
  Py_XSETREF(g_hook_append, append == Py_None ? NULL : (Py_INCREF(append), append));
  Py_XSETREF(g_hook_to_text, to_text == Py_None ? NULL : (Py_INCREF(to_text), to_text));
  Py_RETURN_NONE;
}

int core_error_init(PyObject* module) {
  PyObject* name_to_type = PyDict_New();
  PyObject* type_to_name = PyDict_New();
  if (name_to_type == NULL || type_to_name == NULL) goto fail;
  /* The reference's kinds, and RecursionError (a RuntimeError), which this runtime raises for
   * input nested too deeply. Other Python classes take the kind of their nearest listed base
   * (OverflowError and OSError none: "RuntimeError"). */
  struct {
    const char* name;
    PyObject* cls;
  } defaults[] = {
      {"RuntimeError", PyExc_RuntimeError},     {"ValueError", PyExc_ValueError},
      {"TypeError", PyExc_TypeError},           {"AttributeError", PyExc_AttributeError},
      {"KeyError", PyExc_KeyError},             {"IndexError", PyExc_IndexError},
      {"AssertionError", PyExc_AssertionError}, {"MemoryError", PyExc_MemoryError},
      {"RecursionError", PyExc_RecursionError},
  };
  for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); ++i) {
    PyObject* name = PyUnicode_FromString(defaults[i].name);
    int ok = name != NULL && PyDict_SetItem(name_to_type, name, defaults[i].cls) == 0 &&
             PyDict_SetItem(type_to_name, defaults[i].cls, name) == 0;
    Py_XDECREF(name);
    if (!ok) goto fail;
  }
  CoreError_Type.tp_base = &CoreObject_Type;
  if (PyType_Ready(&CoreError_Type) < 0 || core_type_declare_empty_slots(&CoreError_Type) != 0 ||
      core_type_table_register(kTVMFFIError, (PyObject*)&CoreError_Type) != 0) {
    goto fail;
  }
  Py_INCREF(&CoreError_Type);
  if (PyModule_AddObject(module, "Error", (PyObject*)&CoreError_Type) < 0) {
    Py_DECREF(&CoreError_Type);
    goto fail;
  }
  if (PyModule_AddObject(module, "ERROR_NAME_TO_TYPE", name_to_type) < 0) goto fail;
  name_to_type = NULL;
  if (PyModule_AddObject(module, "ERROR_TYPE_TO_NAME", type_to_name) < 0) goto fail;
  return 0;
fail:
  Py_XDECREF(name_to_type);
  Py_XDECREF(type_to_name);
  return -1;
}
