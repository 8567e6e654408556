/*
 * container.h -- C fast paths of the container classes (container.c).
 */
#ifndef TVM_FFI_PYTHON_CONTAINER_H_
#define TVM_FFI_PYTHON_CONTAINER_H_

#include "base.h"

/* SeqBase / MapBase. */
int core_container_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_CONTAINER_H_ */
