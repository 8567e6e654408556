/*
 * dtype.h -- the DataType type and the public dtype class results come back as (dtype.c).
 */
#ifndef TVM_FFI_PYTHON_DTYPE_H_
#define TVM_FFI_PYTHON_DTYPE_H_

#include "base.h"

typedef struct {
  PyObject_HEAD
  DLDataType dtype;
} CoreDataType;

extern PyTypeObject CoreDataType_Type;

/* The registered public dtype class (borrowed), or NULL; set by _set_class_dtype. */
extern PyObject* core_dtype_class;

PyObject* core_dtype_result(DLDataType dtype);
/* Reads the DLDataType of a dtype-class instance; -1 with exception when malformed. */
int core_dtype_instance_value(PyObject* value, DLDataType* out);
/* Makes `cls` (a str subclass) the class of DataType results. */
int core_dtype_set_class(PyObject* cls);
int core_dtype_init_types(PyObject* module);

#endif /* TVM_FFI_PYTHON_DTYPE_H_ */
