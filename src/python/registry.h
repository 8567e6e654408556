/*
 * registry.h -- module functions over the runtime's function and type registries
 * (registry.c).
 */
#ifndef TVM_FFI_PYTHON_REGISTRY_H_
#define TVM_FFI_PYTHON_REGISTRY_H_

#include "base.h"

int core_registry_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_REGISTRY_H_ */
