/*
 * tensor_view.h -- ffi.Tensor objects made here over memory a Python object owns, kept alive
 * by a strong reference until the tensor dies (tensor_view.c).
 */
#ifndef TVM_FFI_PYTHON_TENSOR_VIEW_H_
#define TVM_FFI_PYTHON_TENSOR_VIEW_H_

#include "base.h"

/* From a DLTensor description (shape and strides are copied; NULL strides mean compact):
 * 0 or -1 with exception. */
int core_view_tensor_from_dltensor(PyObject* owner, const DLTensor* t, TVMFFIObjectHandle* out);
/* From what an exchange API's dltensor_from_py_object_no_sync writes for `owner`: 0, or -1
 * with exception (a RuntimeError when the framework failed without raising). */
int core_view_tensor_from_exchange(PyObject* owner, DLPackDLTensorFromPyObjectNoSync describe,
                                   TVMFFIObjectHandle* out);
/* From a CPU buffer with byte strides: 1 done, 0 when the strides are not whole elements
 * (nothing made), -1 error. */
int core_view_tensor_from_strided(PyObject* owner, void* data, DLDataType dtype, int32_t ndim,
                                  const Py_ssize_t* shape, const Py_ssize_t* byte_strides,
                                  int read_only, TVMFFIObjectHandle* out);
/* DLPack flags (READ_ONLY) of a view tensor; 0 for any other tensor. */
uint64_t core_view_tensor_flags(TVMFFIObjectHandle handle);
/* Releases `handle` right away when it is a view tensor whose only reference is the caller's
 * (the common case for call arguments), returning 1; 0 leaves it to TVMFFIObjectDecRef. The GIL
 * must be held: it spares the deleter's GIL round trip. */
int core_view_tensor_release_sole(TVMFFIObjectHandle handle);
int core_tensor_view_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_TENSOR_VIEW_H_ */
