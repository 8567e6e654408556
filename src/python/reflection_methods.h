/*
 * reflection_methods.h -- InstanceMethod and ConstructorInit, the callables register_object puts
 * on reflected classes (reflection_methods.c).
 */
#ifndef TVM_FFI_PYTHON_REFLECTION_METHODS_H_
#define TVM_FFI_PYTHON_REFLECTION_METHODS_H_

#include "base.h"

/* Adds InstanceMethod and ConstructorInit to the module. */
int core_reflection_methods_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_REFLECTION_METHODS_H_ */
