/*
 * reflection.h -- reflected fields and type information of FFI object types (reflection.c):
 * FieldProperty, _type_info_raw, _lookup_type_attr, _class_for_type_index.
 */
#ifndef TVM_FFI_PYTHON_REFLECTION_H_
#define TVM_FFI_PYTHON_REFLECTION_H_

#include "base.h"

/* Adds FieldProperty and the module functions to the module. */
int core_reflection_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_REFLECTION_H_ */
