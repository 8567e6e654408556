/*
 * shape.h -- ffi.Shape results and int64 tuples (shape.c).
 */
#ifndef TVM_FFI_PYTHON_SHAPE_H_
#define TVM_FFI_PYTHON_SHAPE_H_

#include "base.h"

/* An owned ffi.Shape handle (stolen) as the registered Shape class (a tuple subclass), or as
 * a plain Object before one is registered. */
PyObject* core_shape_from_handle(TVMFFIObjectHandle handle);
/* A Shape instance (plain tuple before the class is registered) of n extents, whose runtime
 * object is made only when it is passed to a function. */
PyObject* core_shape_from_dims(const int64_t* dims, int32_t n);
/* An instance of `cls` (tuple or a tuple subclass) holding the n ints. */
PyObject* core_int64_tuple(PyTypeObject* cls, const int64_t* values, Py_ssize_t n);
/* The runtime object an instance of the registered Shape class (exactly that class) already
 * holds, as a new reference; NULL (no error set) for anything else, or before it is made. */
PyObject* core_shape_made_object(PyObject* value);
/* The registered Shape class (borrowed), or NULL before registration. */
PyTypeObject* core_shape_class(void);
/* _set_class_shape(cls): the tuple subclass that ffi.Shape results come back as. */
PyObject* core_mod_set_class_shape(PyObject* self, PyObject* cls);

#endif /* TVM_FFI_PYTHON_SHAPE_H_ */
