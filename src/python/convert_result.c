/*
 * convert_result.c -- TVMFFIAny -> Python values.
 *
 * One switch on the type index: plain values become Python scalars, strings and bytes become
 * str/bytes (String/Bytes when a heap object backs them), an opaque Python object comes back as
 * the very object that went in, and every other object is wrapped in the Python class the type
 * table gives for its index.
 */
#include "core.h"

/* ---- ints beyond int64 (ffi.BigInt) ---- */

static PyObject* signed_kwargs(void) {
  PyObject* kwargs = PyDict_New();
  if (kwargs != NULL && PyDict_SetItemString(kwargs, "signed", Py_True) != 0) Py_CLEAR(kwargs);
  return kwargs;
}

PyObject* core_int_to_bytes(PyObject* value, size_t nbytes) {
  PyObject* method = PyObject_GetAttrString(value, "to_bytes");
  if (method == NULL) return NULL;
  PyObject* args = Py_BuildValue("(ns)", (Py_ssize_t)nbytes, "little");
  PyObject* kwargs = signed_kwargs();
  PyObject* out = (args != NULL && kwargs != NULL) ? PyObject_Call(method, args, kwargs) : NULL;
  Py_XDECREF(args);
  Py_XDECREF(kwargs);
  Py_DECREF(method);
  return out;
}

PyObject* core_int_from_bytes(const char* data, size_t size) {
  PyObject* raw = PyBytes_FromStringAndSize(data, (Py_ssize_t)size);
  if (raw == NULL) return NULL;
#if PY_BIG_ENDIAN
  /* Words are native-endian, least significant word first: make the whole thing little. */
  char* p = PyBytes_AS_STRING(raw);
  for (size_t w = 0; w + 8 <= size; w += 8) {
    for (int i = 0; i < 4; ++i) {
      char c = p[w + i];
      p[w + i] = p[w + 7 - i];
      p[w + 7 - i] = c;
    }
  }
#endif
  PyObject* method = PyObject_GetAttrString((PyObject*)&PyLong_Type, "from_bytes");
  PyObject* args = Py_BuildValue("(Ns)", raw, "little");
  PyObject* kwargs = signed_kwargs();
  PyObject* out = (method != NULL && args != NULL && kwargs != NULL)
                      ? PyObject_Call(method, args, kwargs)
                      : NULL;
  Py_XDECREF(method);
  Py_XDECREF(args);
  Py_XDECREF(kwargs);
  return out;
}

/* ---- objects ---- */

PyObject* core_object_new_of_class(PyTypeObject* cls, TVMFFIObjectHandle handle) {
  PyObject* obj = cls->tp_new(cls, core_empty_tuple, NULL);
  if (CORE_UNLIKELY(obj == NULL)) {
    core_decref_keeping_error(handle);
    return NULL;
  }
  if (CORE_UNLIKELY(!core_is_object(obj))) {
    PyErr_Format(PyExc_TypeError, "%s.__new__ returned `%s`, not an FFI Object", cls->tp_name,
                 Py_TYPE(obj)->tp_name);
    Py_DECREF(obj);
    core_decref_keeping_error(handle);
    return NULL;
  }
  CoreObject* self = (CoreObject*)obj;
  TVMFFIObjectHandle old = self->chandle;
  self->chandle = handle;
  if (old != NULL) TVMFFIObjectDecRef(old);
  return obj;
}

PyObject* core_object_from_handle(TVMFFIObjectHandle handle) {
  PyTypeObject* cls = core_class_for_index(TVMFFIObjectGetTypeIndex(handle));
  if (CORE_UNLIKELY(cls == NULL)) {
    core_decref_keeping_error(handle);
    return NULL;
  }
  return core_object_new_of_class(cls, handle);
}

static PyObject* make_void_p(void* ptr) {
  if (ptr == NULL) return PyObject_CallNoArgs(core_ctypes_c_void_p);
  PyObject* addr = PyLong_FromVoidPtr(ptr);
  if (addr == NULL) return NULL;
  PyObject* out = PyObject_CallOneArg(core_ctypes_c_void_p, addr);
  Py_DECREF(addr);
  return out;
}

static PyObject* object_result(TVMFFIAny* owned) {
  TVMFFIObjectHandle handle = owned->v_obj;
  owned->type_index = kTVMFFINone;
  owned->v_obj = NULL;
  if (CORE_UNLIKELY(handle == NULL)) Py_RETURN_NONE;
  switch (TVMFFIObjectGetTypeIndex(handle)) {
    case kTVMFFIStr:
      return core_string_from_handle(handle, 0);
    case kTVMFFIBytes:
      return core_string_from_handle(handle, 1);
    case kTVMFFIShape:
      return core_shape_from_handle(handle);
    case kTVMFFIOpaquePyObject: {
      PyObject* held = (PyObject*)TVMFFIOpaqueObjectGetCellPtr(handle)->handle;
      if (held == NULL) held = Py_None;
      Py_INCREF(held);
      TVMFFIObjectDecRef(handle);
      return held;
    }
    case kTVMFFIBigInt: {
      TVMFFIAny view;
      view.type_index = kTVMFFIBigInt;
      view.zero_padding = 0;
      view.v_obj = (TVMFFIObject*)handle;
      TVMFFIByteArray words = TVMFFIBigIntGetContentByteArray(&view);
      PyObject* out = core_int_from_bytes(words.data, words.size);
      TVMFFIObjectDecRef(handle);
      return out;
    }
    default:
      return core_object_from_handle(handle);
  }
}

PyObject* core_any_to_py(TVMFFIAny* owned) {
  switch (owned->type_index) {
    case kTVMFFINone:
      Py_RETURN_NONE;
    case kTVMFFIInt:
      return PyLong_FromLongLong(owned->v_int64);
    case kTVMFFIBool:
      return PyBool_FromLong(owned->v_int64 != 0);
    case kTVMFFIFloat:
      return PyFloat_FromDouble(owned->v_float64);
    case kTVMFFISmallStr:
      return core_str_from_byte_array(owned->v_bytes, owned->small_str_len);
    case kTVMFFISmallBytes:
      return PyBytes_FromStringAndSize(owned->v_bytes, owned->small_str_len);
    case kTVMFFIOpaquePtr:
    case kTVMFFIDLTensorPtr:
      return make_void_p(owned->v_ptr);
    case kTVMFFIDataType:
      return core_dtype_result(owned->v_dtype);
    case kTVMFFIDevice:
      return core_device_new(owned->v_device);
    case kTVMFFIRawStr:
      if (owned->v_c_str == NULL) Py_RETURN_NONE;
      return core_str_from_byte_array(owned->v_c_str, strlen(owned->v_c_str));
    case kTVMFFIByteArrayPtr: {
      const TVMFFIByteArray* bytes = (const TVMFFIByteArray*)owned->v_ptr;
      if (bytes == NULL) Py_RETURN_NONE;
      return PyBytes_FromStringAndSize(bytes->data, (Py_ssize_t)bytes->size);
    }
    default:
      break;
  }
  if (owned->type_index >= kTVMFFIStaticObjectBegin) return object_result(owned);
  PyErr_Format(PyExc_TypeError, "cannot convert an FFI value of type index %d to Python",
               (int)owned->type_index);
  return NULL;
}

PyObject* core_view_to_py(const TVMFFIAny* view) {
  TVMFFIAny copy = *view;
  if (copy.type_index >= kTVMFFIStaticObjectBegin) {
    if (copy.v_obj != NULL) TVMFFIObjectIncRef(copy.v_obj);
  } else if (copy.type_index == kTVMFFIObjectRValueRef) {
    /* Borrow the object behind the slot; the caller keeps its reference. */
    TVMFFIObjectHandle* slot = (TVMFFIObjectHandle*)copy.v_ptr;
    if (slot == NULL || *slot == NULL) Py_RETURN_NONE;
    TVMFFIObjectIncRef(*slot);
    copy.type_index = TVMFFIObjectGetTypeIndex(*slot);
    copy.v_obj = (TVMFFIObject*)*slot;
  }
  return core_any_to_py(&copy);
}

/* ---- results of calls that took framework tensors ---- */

PyObject* core_any_to_py_in_framework(TVMFFIAny* owned, const void* dlpack_api) {
  if (owned->type_index == kTVMFFITensor && owned->v_obj != NULL) {
    return core_tensor_result_to_framework(owned, dlpack_api);
  }
  int32_t index = owned->type_index;
  PyObject* out = core_any_to_py(owned);
  /* Containers convert their elements on access: they remember the framework. */
  if (out != NULL && (index == kTVMFFIArray || index == kTVMFFIList || index == kTVMFFIMap ||
                      index == kTVMFFIDict)) {
    core_container_set_framework(out, dlpack_api);
  }
  return out;
}

PyObject* core_view_to_py_in_framework(const TVMFFIAny* view, const void* dlpack_api) {
  if (view->type_index < kTVMFFIStaticObjectBegin || view->v_obj == NULL) {
    return core_view_to_py(view);
  }
  TVMFFIAny owned = *view;
  TVMFFIObjectIncRef(owned.v_obj);
  return core_any_to_py_in_framework(&owned, dlpack_api);
}
