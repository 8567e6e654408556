/*
 * snapshot.h -- a snapshot of Python values holding one reference to each for as long as a
 * conversion runs (converting one value may run Python code that mutates the list or dict
 * they came from). Small snapshots live on the stack (snapshot.c).
 */
#ifndef TVM_FFI_PYTHON_SNAPSHOT_H_
#define TVM_FFI_PYTHON_SNAPSHOT_H_

#include "base.h"

#define CORE_SNAPSHOT_STACK 16
typedef struct {
  PyObject** items;
  Py_ssize_t size;
  PyObject* stack[CORE_SNAPSHOT_STACK];
} CoreSnapshot;

/* Of n values / of a dict's entries as k0, v0, k1, v1, ...: 0, or -1 with MemoryError. */
int core_snapshot_of_array(CoreSnapshot* s, PyObject* const* items, Py_ssize_t n);
int core_snapshot_of_dict(CoreSnapshot* s, PyObject* dict);
void core_snapshot_release(CoreSnapshot* s);

#endif /* TVM_FFI_PYTHON_SNAPSHOT_H_ */
