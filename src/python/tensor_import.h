/*
 * tensor_import.h -- foreign tensors into ffi.Tensor: from_dlpack and tensor arguments
 * (tensor_import.c).
 */
#ifndef TVM_FFI_PYTHON_TENSOR_IMPORT_H_
#define TVM_FFI_PYTHON_TENSOR_IMPORT_H_

#include "base.h"

/* Adds from_dlpack and registers the tensor argument converters. */
int core_tensor_import_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_TENSOR_IMPORT_H_ */
