/*
 * function.h -- the Function type: FFI functions called from Python (function.c).
 */
#ifndef TVM_FFI_PYTHON_FUNCTION_H_
#define TVM_FFI_PYTHON_FUNCTION_H_

#include "base.h"
#include "object.h"

typedef struct {
  CoreObject base;
  vectorcallfunc vectorcall; /* keeps or releases the GIL, see release_gil */
  PyObject* name;            /* registered global name (str) for messages, or NULL */
  int release_gil;           /* 1 release, 0 keep, -1 not decided yet (gil_policy.h) */
  PyObject* dict;            /* __dict__ (made on first use: f.__name__ = ..., as the reference) */
} CoreFunction;

extern PyTypeObject CoreFunction_Type;

/* Makes a Function wrapper (steals handle); `name` may be NULL. */
PyObject* core_function_from_handle(TVMFFIObjectHandle handle, PyObject* name);
int core_function_init_types(PyObject* module);

#endif /* TVM_FFI_PYTHON_FUNCTION_H_ */
