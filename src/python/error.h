/*
 * error.h -- errors from C to Python, argument errors, and the Error type (error.c).
 */
#ifndef TVM_FFI_PYTHON_ERROR_H_
#define TVM_FFI_PYTHON_ERROR_H_

#include "base.h"

extern PyTypeObject CoreError_Type;

/* Where a value is converted, for error messages: the function name (str, or NULL for
 * "function") and the position of the top-level argument, or one of the kinds below. */
typedef struct {
  PyObject* func_name;
  Py_ssize_t index;
} CoreArgSite;

enum {
  kCoreSiteCallbackResult = -1, /* the return value of a Python callback */
  kCoreSiteConvert = -2,        /* a value given to tvm_ffi.convert */
};

/* After a non-zero return code: raises the Python exception for it and returns NULL. */
PyObject* core_raise_from_rc(int rc);
/* Raises a Python exception from an owned Error handle (stolen). Returns NULL. */
PyObject* core_raise_from_error(TVMFFIObjectHandle error);
/* Builds (without raising) the Python exception for a borrowed Error handle. */
PyObject* core_error_to_py_exception(TVMFFIObjectHandle error, PyObject* error_wrapper);
/* Raises `exc_type` for `site`: "Cannot convert argument #i when calling `name`: msg". */
void core_raise_arg_error(PyObject* exc_type, const CoreArgSite* site, const char* fmt, ...);

/* An error cause chain is a tree walked recursively; bound it against pathological input. */
#define CORE_MAX_CAUSE_DEPTH 64

/* Shared by the two directions (error.c, error_from_python.c): a borrowed kind table of the
 * module ("ERROR_NAME_TO_TYPE" / "ERROR_TYPE_TO_NAME"; error.py mutates them in place, a
 * rebinding is honoured) or NULL; the Python frames of an exception as backtrace text (never
 * fails: "" on trouble). */
PyObject* core_error_table(const char* name);
PyObject* core_exception_backtrace_text(PyObject* exc);

/* Module functions (listed in extension.c). */
PyObject* core_mod_set_error_hooks(PyObject* self, PyObject* args);
int core_error_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_ERROR_H_ */
