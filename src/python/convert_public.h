/*
 * convert_public.h -- tvm_ffi.convert (convert_public.c).
 */
#ifndef TVM_FFI_PYTHON_CONVERT_PUBLIC_H_
#define TVM_FFI_PYTHON_CONVERT_PUBLIC_H_

#include "base.h"

/* Adds `convert`, `_convert` and `_set_convert_rules` to the module. */
int core_convert_public_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_CONVERT_PUBLIC_H_ */
