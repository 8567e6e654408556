/*
 * convert_value.h -- Python values of the plain kinds -> TVMFFIAny views (convert_value.c):
 * ints (BigInt beyond int64), str and bytes (borrowed UTF-8 / byte views), FFI objects, and
 * the small setters every converter uses.
 */
#ifndef TVM_FFI_PYTHON_CONVERT_VALUE_H_
#define TVM_FFI_PYTHON_CONVERT_VALUE_H_

#include "base.h"
#include "call_context.h"

#if PY_VERSION_HEX < 0x030B0000
#include <longintrepr.h> /* PyLongObject's digits (Python.h includes it from 3.11 on) */
#endif

static inline void core_set_pod(TVMFFIAny* out, int32_t type_index) {
  out->type_index = type_index;
  out->zero_padding = 0;
  out->v_uint64 = 0;
}

static inline void core_set_object_view(TVMFFIAny* out, TVMFFIObjectHandle handle) {
  out->type_index = TVMFFIObjectGetTypeIndex(handle);
  out->zero_padding = 0;
  out->v_obj = (TVMFFIObject*)handle;
}

static inline void core_set_device(TVMFFIAny* out, DLDevice device) {
  out->type_index = kTVMFFIDevice;
  out->zero_padding = 0;
  out->v_device = device;
}

static inline void core_set_dtype(TVMFFIAny* out, DLDataType dtype) {
  core_set_pod(out, kTVMFFIDataType);
  out->v_dtype = dtype;
}

/* Adopts an owned Any into the call's temporaries and leaves a view of it in *out. */
int core_set_owned_temp(TVMFFIAny* out, TVMFFIAny* owned, CoreCallContext* ctx);
/* Adopts an owned handle likewise. */
int core_set_handle_temp(TVMFFIAny* out, TVMFFIObjectHandle handle, CoreCallContext* ctx);

/* An int beyond int64: ffi.BigInt. */
int core_convert_bigint(PyObject* value, TVMFFIAny* out, CoreCallContext* ctx);

/* Ints of one digit (|v| < 2**30, nearly every int an argument carries) are read straight
 * from the object; the general conversion is a call and a loop over digits. */
static inline int core_small_int_value(PyObject* value, int64_t* out) {
#if PY_VERSION_HEX >= 0x030C0000
  if (!PyUnstable_Long_IsCompact((PyLongObject*)value)) return 0;
  *out = (int64_t)PyUnstable_Long_CompactValue((PyLongObject*)value);
  return 1;
#else
  Py_ssize_t size = Py_SIZE(value); /* the sign and the number of digits */
  if (size < -1 || size > 1) return 0;
  *out = (int64_t)size * (int64_t)((PyLongObject*)value)->ob_digit[0];
  return 1;
#endif
}

/* An exact int (or the result of __index__). */
static inline int core_convert_exact_int(PyObject* value, TVMFFIAny* out, CoreCallContext* ctx) {
  int64_t small;
  if (CORE_LIKELY(core_small_int_value(value, &small))) {
    out->type_index = kTVMFFIInt;
    out->zero_padding = 0;
    out->v_int64 = small;
    return 0;
  }
  int overflow;
  long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
  if (CORE_LIKELY(!overflow)) {
    if (v == -1 && PyErr_Occurred()) return -1;
    out->type_index = kTVMFFIInt;
    out->zero_padding = 0;
    out->v_int64 = (int64_t)v;
    return 0;
  }
  return core_convert_bigint(value, out, ctx);
}

/* A str as a SmallStr (up to 7 bytes) or a String object kept for the call. */
int core_convert_str(PyObject* value, TVMFFIAny* out, CoreCallContext* ctx);
/* bytes / bytearray content as SmallBytes (up to 7 bytes) or a Bytes object kept for the call. */
int core_convert_bytes_like(PyObject* value, TVMFFIAny* out, CoreCallContext* ctx);
/* String / Bytes instances: their cached FFI object when they have one, else the content. */
int core_convert_native(PyObject* value, TVMFFIAny* out, CoreCallContext* ctx);
/* An FFI Object wrapper: a view of its handle. */
int core_convert_object(PyObject* value, TVMFFIAny* out, CoreCallContext* ctx);

#endif /* TVM_FFI_PYTHON_CONVERT_VALUE_H_ */
