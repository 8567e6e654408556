/*
 * cany.h -- CAny, an owned FFI value held by Python (cany.c).
 */
#ifndef TVM_FFI_PYTHON_CANY_H_
#define TVM_FFI_PYTHON_CANY_H_

#include "base.h"

/* Adds CAny and _to_py_class_value to the module. */
int core_cany_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_CANY_H_ */
