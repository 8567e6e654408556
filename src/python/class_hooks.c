/*
 * class_hooks.c -- the Python classes that Device and Tensor values come back as.
 *
 * Frameworks built on this package subclass tvm_ffi.Device / tvm_ffi.Tensor and install the
 * subclass with `_set_class_device` / `_set_class_tensor`, under the reference package's names.
 * From then on every Device result (call results, Tensor.device, tvm_ffi.device()) and every
 * Tensor result (call results, from_dlpack, container elements) is an instance of that
 * subclass. The module attributes `_CLASS_DEVICE` / `_CLASS_TENSOR` name the current classes.
 */
#include "class_hooks.h"

#include "device.h"
#include "tensor.h"
#include "type_table.h"

/* `cls` if it is a subclass of `base` (or `base` itself), else NULL with a TypeError. */
static PyTypeObject* require_subclass(PyObject* cls, PyTypeObject* base, const char* hook) {
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject*)cls, base)) {
    PyErr_Format(PyExc_TypeError, "%s() expects %s or a subclass of it, got %R", hook,
                 base->tp_name, cls);
    return NULL;
  }
  return (PyTypeObject*)cls;
}

static PyObject* mod_set_class_device(PyObject* module, PyObject* cls) {
  PyTypeObject* type = require_subclass(cls, &CoreDevice_Type, "_set_class_device");
  if (type == NULL || PyObject_SetAttrString(module, "_CLASS_DEVICE", cls) != 0) return NULL;
  Py_INCREF(type);
  Py_SETREF(core_device_class, type);
  Py_RETURN_NONE;
}

static PyObject* mod_set_class_tensor(PyObject* module, PyObject* cls) {
  if (require_subclass(cls, &CoreTensor_Type, "_set_class_tensor") == NULL) return NULL;
  /* Tensor results are made through the type table, like every other object type. */
  if (core_type_table_register(kTVMFFITensor, cls) != 0) return NULL;
  if (PyObject_SetAttrString(module, "_CLASS_TENSOR", cls) != 0) return NULL;
  Py_RETURN_NONE;
}

static PyMethodDef class_hook_methods[] = {
    {"_set_class_device", mod_set_class_device, METH_O,
     "Makes Device results instances of `cls` (a subclass of Device)."},
    {"_set_class_tensor", mod_set_class_tensor, METH_O,
     "Makes Tensor results instances of `cls` (a subclass of Tensor)."},
    {NULL, NULL, 0, NULL},
};

int core_class_hooks_init(PyObject* module) {
  Py_INCREF(core_device_class);
  if (PyModule_AddObjectRef(module, "_CLASS_DEVICE", (PyObject*)&CoreDevice_Type) < 0 ||
      PyModule_AddObjectRef(module, "_CLASS_TENSOR", (PyObject*)&CoreTensor_Type) < 0) {
    return -1;
  }
  return PyModule_AddFunctions(module, class_hook_methods);
}
