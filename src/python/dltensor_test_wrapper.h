/*
 * dltensor_test_wrapper.h -- core.DLTensorTestWrapper (dltensor_test_wrapper.c).
 */
#ifndef TVM_FFI_PYTHON_DLTENSOR_TEST_WRAPPER_H_
#define TVM_FFI_PYTHON_DLTENSOR_TEST_WRAPPER_H_

#include "base.h"

/* Readies the type and adds it to the module as DLTensorTestWrapper. */
int core_dltensor_test_wrapper_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_DLTENSOR_TEST_WRAPPER_H_ */
