/*
 * error_from_python.h -- Python exceptions as FFI errors (error_from_python.c).
 */
#ifndef TVM_FFI_PYTHON_ERROR_FROM_PYTHON_H_
#define TVM_FFI_PYTHON_ERROR_FROM_PYTHON_H_

#include "base.h"

/* Turns the pending Python exception into an FFI error in the thread-local slot (clears the
 * Python error). For a callback's exception: the error keeps the exception itself. */
void core_set_raised_from_pyerr(void);
/* Makes an owned FFI Error handle for a Python exception (kind, message, Python backtrace;
 * without the exception itself, see error_from_python.c). */
int core_error_from_py_exception(PyObject* exc, TVMFFIObjectHandle* out);
/* _convert_to_ffi_error(exc) -> Error */
PyObject* core_mod_convert_to_ffi_error(PyObject* self, PyObject* exc);

#endif /* TVM_FFI_PYTHON_ERROR_FROM_PYTHON_H_ */
