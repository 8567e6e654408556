/*
 * container_content.h -- ==, hash() and `in` of the container base types by content
 * (container_content.c), behind their tp_richcompare / tp_hash / sq_contains slots in
 * container.c.
 */
#ifndef TVM_FFI_PYTHON_CONTAINER_CONTENT_H_
#define TVM_FFI_PYTHON_CONTAINER_CONTENT_H_

#include "base.h"

/* `self == other` (op Py_EQ) or `!=` (Py_NE) by the runtime's ffi._ContentEqual; `other` is
 * converted as a call argument is (a list or tuple becomes an Array). */
PyObject* core_container_content_compare(PyObject* self, PyObject* other, int op);
/* hash() of an Array/List/Map/Dict instance: ffi._ContentHash, agreeing with ==. */
Py_hash_t core_container_hash(PyObject* self);
/* `value in self` for an Array/List instance: ffi.ArrayContains / ffi.ListContains. */
int core_seq_contains(PyObject* self, PyObject* value);

#endif /* TVM_FFI_PYTHON_CONTAINER_CONTENT_H_ */
