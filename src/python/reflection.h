/*
 * reflection.h -- reflected fields and methods of FFI object types (reflection.c,
 * reflection_methods.c): FieldProperty, InstanceMethod, ConstructorInit, _type_info_raw,
 * _lookup_type_attr, _class_for_type_index.
 */
#ifndef TVM_FFI_PYTHON_REFLECTION_H_
#define TVM_FFI_PYTHON_REFLECTION_H_

#include "base.h"

/* Adds the types and module functions of both files to the module. */
int core_reflection_init(PyObject* module);
/* reflection_methods.c: InstanceMethod, ConstructorInit (called by core_reflection_init). */
int core_reflection_methods_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_REFLECTION_H_ */
