/*
 * state.h -- process-wide values of the extension made once at import (state.c): the module
 * object, ctypes.c_void_p, interned attribute names and the empty tuple. All borrowed.
 */
#ifndef TVM_FFI_PYTHON_STATE_H_
#define TVM_FFI_PYTHON_STATE_H_

#include "base.h"

/* The _core module object, for attributes Python code may rebind (the error tables). */
extern PyObject* core_module;
extern PyObject* core_ctypes_c_void_p;
extern PyObject* core_str_cached_object; /* "_tvm_ffi_cached_object" */
extern PyObject* core_str_dtype_attr;    /* "_tvm_ffi_dtype" */
extern PyObject* core_str_value;         /* "value" */
extern PyObject* core_empty_tuple;

int core_state_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_STATE_H_ */
