/*
 * class_hooks.h -- the Python classes Device and Tensor results are made as (class_hooks.c):
 * the reference package's `_set_class_device` / `_set_class_tensor` hooks.
 */
#ifndef TVM_FFI_PYTHON_CLASS_HOOKS_H_
#define TVM_FFI_PYTHON_CLASS_HOOKS_H_

#include "base.h"

/* Adds _set_class_device, _set_class_tensor, _CLASS_DEVICE and _CLASS_TENSOR to the module. */
int core_class_hooks_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_CLASS_HOOKS_H_ */
