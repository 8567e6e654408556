/*
 * convert_result.c -- TVMFFIAny -> Python values.
 *
 * One switch on the type index: plain values become Python scalars, strings and bytes become
 * str/bytes (String/Bytes when a heap object backs them), an opaque Python object comes back as
 * the very object that went in, and every other object is wrapped in the Python class the type
 * table gives for its index.
 */
#include "convert_result.h"

#include <string.h>

#include "bigint.h"
#include "device.h"
#include "dtype.h"
#include "pending_error.h"
#include "shape.h"
#include "state.h"
#include "string_types.h"
#include "tensor_view.h"
#include "type_table.h"

static PyObject* make_void_p(void* ptr) {
  if (ptr == NULL) return PyObject_CallNoArgs(core_ctypes_c_void_p);
  PyObject* addr = PyLong_FromVoidPtr(ptr);
  if (addr == NULL) return NULL;
  PyObject* out = PyObject_CallOneArg(core_ctypes_c_void_p, addr);
  Py_DECREF(addr);
  return out;
}

/* A DLTensor* (a callback's argument, or a result pointing at one) as a Tensor over its memory,
 * as the reference hands it out: shape and strides are copied, the data is borrowed and valid
 * only while its owner keeps it (for an argument, the duration of the callback). Passed back
 * into a call, it goes as that tensor, which DLTensor* and TensorView parameters accept. */
static PyObject* dltensor_result(const DLTensor* t) {
  if (t == NULL) Py_RETURN_NONE;
  TVMFFIObjectHandle handle = NULL;
  if (core_view_tensor_from_dltensor(Py_None, t, &handle) != 0) return NULL;
  return core_object_from_handle(handle);
}

static PyObject* object_result(TVMFFIAny* owned) {
  TVMFFIObjectHandle handle = owned->v_obj;
  int32_t tag = owned->type_index;
  owned->type_index = kTVMFFINone;
  owned->v_obj = NULL;
  if (CORE_UNLIKELY(handle == NULL)) Py_RETURN_NONE;
  int32_t type_index = TVMFFIObjectGetTypeIndex(handle);
  if (CORE_UNLIKELY(type_index != tag)) {
    /* A forged or corrupt object: trusting either index could read a layout it lacks. */
    PyErr_Format(PyExc_TypeError,
                 "an FFI value carries object type index %d but the object's header says %d",
                 (int)tag, (int)type_index);
    core_decref_keeping_error(handle);
    return NULL;
  }
  switch (type_index) {
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
      PyObject* out = core_int_from_bigint_words(words.data, words.size);
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
      return make_void_p(owned->v_ptr);
    case kTVMFFIDLTensorPtr:
      return dltensor_result((const DLTensor*)owned->v_ptr);
    case kTVMFFIDataType:
      return core_dtype_result(owned->v_dtype);
    case kTVMFFIDevice:
      return core_device_new(owned->v_device);
    case kTVMFFIRawStr:
      /* An owned value never borrows: the callee's C string may already be gone. */
      PyErr_SetString(PyExc_ValueError, "Return value cannot be RawStr");
      return NULL;
    case kTVMFFIByteArrayPtr:
      PyErr_SetString(PyExc_ValueError, "Return value cannot be ByteArrayPtr");
      return NULL;
    case kTVMFFIObjectRValueRef:
      PyErr_SetString(PyExc_ValueError, "Return value cannot be ObjectRValueRef");
      return NULL;
    default:
      break;
  }
  if (owned->type_index >= kTVMFFIStaticObjectBegin) return object_result(owned);
  PyErr_Format(PyExc_TypeError, "cannot convert an FFI value of type index %d to Python",
               (int)owned->type_index);
  return NULL;
}

PyObject* core_view_to_py(const TVMFFIAny* view) {
  /* Borrowed strings are fine in a view: the caller keeps them alive during the callback. */
  if (view->type_index == kTVMFFIRawStr) {
    if (view->v_c_str == NULL) Py_RETURN_NONE;
    return core_str_from_byte_array(view->v_c_str, strlen(view->v_c_str));
  }
  if (view->type_index == kTVMFFIByteArrayPtr) {
    const TVMFFIByteArray* bytes = (const TVMFFIByteArray*)view->v_ptr;
    if (bytes == NULL) Py_RETURN_NONE;
    return PyBytes_FromStringAndSize(bytes->data, (Py_ssize_t)bytes->size);
  }
  TVMFFIAny copy = *view;
  if (copy.type_index >= kTVMFFIStaticObjectBegin) {
    if (copy.v_obj != NULL) TVMFFIObjectIncRef(copy.v_obj);
  } else if (copy.type_index == kTVMFFIObjectRValueRef) {
    /* The caller moved the object into this call: the Python value takes the slot's reference
     * and the slot is left empty, as a C++ callee taking the value would leave it. */
    TVMFFIObjectHandle* slot = (TVMFFIObjectHandle*)copy.v_ptr;
    if (slot == NULL || *slot == NULL) Py_RETURN_NONE;
    copy.type_index = TVMFFIObjectGetTypeIndex(*slot);
    copy.v_obj = (TVMFFIObject*)*slot;
    *slot = NULL;
  }
  return core_any_to_py(&copy);
}
