/*
 * error.h -- errors in both directions and the Error type (error.c).
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
/* Turns the pending Python exception into an FFI error in the thread-local slot (clears the
 * Python error). */
void core_set_raised_from_pyerr(void);
/* Makes an owned FFI Error handle for a Python exception (kind, message, Python backtrace;
 * without the exception itself, see error.c). */
int core_error_from_py_exception(PyObject* exc, TVMFFIObjectHandle* out);
/* Raises `exc_type` for `site`: "Cannot convert argument #i when calling `name`: msg". */
void core_raise_arg_error(PyObject* exc_type, const CoreArgSite* site, const char* fmt, ...);

/* Module functions (listed in extension.c). */
PyObject* core_mod_set_error_hooks(PyObject* self, PyObject* args);
PyObject* core_mod_convert_to_ffi_error(PyObject* self, PyObject* exc);
int core_error_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_ERROR_H_ */
