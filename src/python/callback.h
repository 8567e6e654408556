/*
 * callback.h -- Python callables as FFI functions (callback.c).
 */
#ifndef TVM_FFI_PYTHON_CALLBACK_H_
#define TVM_FFI_PYTHON_CALLBACK_H_

#include "base.h"

/* Wraps a Python callable as an owned FFI function handle. */
int core_make_py_function(PyObject* callable, TVMFFIObjectHandle* out);
/* _convert_to_ffi_func(pyfunc) -> Function */
PyObject* core_mod_convert_to_ffi_func(PyObject* self, PyObject* func);
/* _convert_to_ffi_func_in_framework(pyfunc, tensor_cls) -> Function (convert_func's tensor_cls) */
PyObject* core_mod_convert_to_ffi_func_in_framework(PyObject* self, PyObject* const* args,
                                                    Py_ssize_t nargs);
/* Registers the converter of callable arguments. */
int core_callback_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_CALLBACK_H_ */
