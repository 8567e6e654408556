/*
 * object_services.h -- Object's pickling and copying, and OpaquePyObject wrapping, through the
 * runtime's global functions (object_services.c).
 */
#ifndef TVM_FFI_PYTHON_OBJECT_SERVICES_H_
#define TVM_FFI_PYTHON_OBJECT_SERVICES_H_

#include "base.h"

/* Adds the methods to Object (after core_object_init_types) and the module function. */
int core_object_services_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_OBJECT_SERVICES_H_ */
