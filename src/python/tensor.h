/*
 * tensor.h -- the Tensor type, DLPack export, and tensor results in a framework (tensor.c).
 */
#ifndef TVM_FFI_PYTHON_TENSOR_H_
#define TVM_FFI_PYTHON_TENSOR_H_

#include "base.h"

/* DLPack capsule names, before and after a consumer took ownership. */
#define CORE_CAPSULE_LEGACY "dltensor"
#define CORE_CAPSULE_VERSIONED "dltensor_versioned"
#define CORE_CAPSULE_LEGACY_USED "used_dltensor"
#define CORE_CAPSULE_VERSIONED_USED "used_dltensor_versioned"

extern PyTypeObject CoreTensor_Type;

/* An owned ffi.Tensor handle (stolen) as an instance of the registered Tensor class. */
PyObject* core_tensor_wrap(TVMFFIObjectHandle handle);
/* An owned tensor Any (stolen) as a tensor of the framework whose exchange API is `api`. */
PyObject* core_tensor_result_to_framework(TVMFFIAny* owned, const DLPackExchangeAPI* api);
int core_tensor_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_TENSOR_H_ */
