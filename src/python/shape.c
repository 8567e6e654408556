/*
 * shape.c -- ffi.Shape results as the registered Shape class (a tuple subclass), and tuples of
 * int64 extents.
 */
#include "shape.h"

#include "object.h"
#include "type_table.h"

static PyObject* shape_class = NULL; /* the Python Shape class, or NULL before registration */
static PyObject* g_str_object_attr = NULL; /* "_tvm_ffi_object", where a Shape keeps its object */

PyObject* core_shape_from_handle(TVMFFIObjectHandle handle) {
  if (shape_class == NULL) return core_object_from_handle(handle);
  /* What Shape._from_object(dims, holder) does, without calling into Python: the tuple
   * subclass filled in place, the runtime object in its attribute. */
  TVMFFIShapeCell* cell = TVMFFIShapeGetCellPtr(handle);
  PyObject* out = core_int64_tuple((PyTypeObject*)shape_class, cell->data, (Py_ssize_t)cell->size);
  if (out == NULL) {
    TVMFFIObjectDecRef(handle);
    return NULL;
  }
  PyObject* holder = core_object_new_of_class(&CoreRegisteredObject_Type, handle);
  if (holder == NULL || PyObject_SetAttr(out, g_str_object_attr, holder) != 0) {
    Py_XDECREF(holder);
    Py_DECREF(out);
    return NULL;
  }
  Py_DECREF(holder);
  return out;
}

PyObject* core_shape_made_object(PyObject* value) {
  if (shape_class == NULL || Py_TYPE(value) != (PyTypeObject*)shape_class) return NULL;
  PyObject* obj = PyObject_GetAttr(value, g_str_object_attr); /* the class says None until made */
  if (obj == NULL || !PyObject_TypeCheck(obj, &CoreObject_Type)) {
    Py_XDECREF(obj);
    PyErr_Clear();
    return NULL;
  }
  return obj;
}

PyObject* core_int64_tuple(PyTypeObject* cls, const int64_t* values, Py_ssize_t n) {
  /* A tuple subclass instance is filled in place, as tuple's own constructor does. */
  PyObject* out = cls == &PyTuple_Type ? PyTuple_New(n) : cls->tp_alloc(cls, n);
  if (out == NULL) return NULL;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* v = PyLong_FromLongLong(values[i]);
    if (v == NULL) {
      Py_DECREF(out);
      return NULL;
    }
    PyTuple_SET_ITEM(out, i, v);
  }
  return out;
}

PyObject* core_shape_from_dims(const int64_t* dims, int32_t n) {
  PyTypeObject* cls = shape_class != NULL ? (PyTypeObject*)shape_class : &PyTuple_Type;
  return core_int64_tuple(cls, dims, n);
}

PyTypeObject* core_shape_class(void) { return (PyTypeObject*)shape_class; }

PyObject* core_mod_set_class_shape(PyObject* self, PyObject* cls) {
  (void)self;
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject*)cls, &PyTuple_Type)) {
    PyErr_Format(PyExc_TypeError, "_set_class_shape() expects a tuple subclass, got %R", cls);
    return NULL;
  }
  if (g_str_object_attr == NULL) {
    g_str_object_attr = PyUnicode_InternFromString("_tvm_ffi_object");
    if (g_str_object_attr == NULL) return NULL;
  }
  Py_INCREF(cls);
  Py_XSETREF(shape_class, cls);
  Py_RETURN_NONE;
}
