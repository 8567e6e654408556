/*
 * structural_entry.h -- structural_hash / structural_equal in C (structural_entry.c).
 */
#ifndef TVM_FFI_PYTHON_STRUCTURAL_ENTRY_H_
#define TVM_FFI_PYTHON_STRUCTURAL_ENTRY_H_

#include "base.h"

/* Adds structural_hash and structural_equal to the module. */
int core_structural_entry_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_STRUCTURAL_ENTRY_H_ */
