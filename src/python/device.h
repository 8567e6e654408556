/*
 * device.h -- the Device type (device.c).
 */
#ifndef TVM_FFI_PYTHON_DEVICE_H_
#define TVM_FFI_PYTHON_DEVICE_H_

#include "base.h"

typedef struct {
  PyObject_HEAD
  DLDevice device;
} CoreDevice;

extern PyTypeObject CoreDevice_Type;

PyObject* core_device_new(DLDevice device);
/* The class Device results are made as: CoreDevice_Type, or the subclass installed with
 * _set_class_device (class_hooks.c); a strong reference. */
extern PyTypeObject* core_device_class;
int core_device_init_types(PyObject* module);

#endif /* TVM_FFI_PYTHON_DEVICE_H_ */
