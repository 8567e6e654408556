/*
 * convert_args.c -- Python values -> TVMFFIAny views for calls.
 *
 * The commonest types are tested by exact type first (int, float, bool, None, str, Object);
 * every other value goes through the per-type dispatch table (dispatch.h), whose entry names
 * the converter: one lookup for a type seen before. This file owns the converters of the plain
 * kinds and of the Python protocols (__tvm_ffi_object__, __tvm_ffi_value__, __cuda_stream__,
 * ...). Whatever a view depends on that the caller does not already keep alive (new FFI
 * objects, results of protocol methods) goes to the call's temporaries (call_context.h).
 */
#include "convert_args.h"

#include "convert_value.h"
#include "device.h"
#include "dispatch.h"
#include "dtype.h"
#include "error.h"
#include "error_from_python.h"
#include "object.h"
#include "shape.h"
#include "stack_guard.h"
#include "state.h"

/* ---- protocol helpers ---- */

/* The protocol methods, by name; each name is interned on first use (PyObject_CallMethod with a
 * C string decoded and hashed it on every call: a third of the cost of passing a Shape). */
typedef enum {
  kProtoObject,
  kProtoOpaquePtr,
  kProtoCudaStream,
  kProtoDataType,
  kProtoDevice,
  kProtoInt,
  kProtoFloat,
  kProtoValue,
  kNumProtocols
} Protocol;

static const char* const kProtocolNames[kNumProtocols] = {
    "__tvm_ffi_object__", "__tvm_ffi_opaque_ptr__", "__cuda_stream__", "__dlpack_data_type__",
    "__dlpack_device__",  "__tvm_ffi_int__",        "__tvm_ffi_float__", "__tvm_ffi_value__",
};
static PyObject* g_protocol_names[kNumProtocols];

/* value.<protocol>() */
static PyObject* call_protocol(PyObject* value, Protocol which) {
  PyObject** name = &g_protocol_names[which];
  if (CORE_UNLIKELY(*name == NULL) &&
      (*name = PyUnicode_InternFromString(kProtocolNames[which])) == NULL) {
    return NULL;
  }
  return PyObject_CallMethodNoArgs(value, *name);
}

static int void_p_value(PyObject* value, void** out, const CoreArgSite* site, const char* what) {
  if (value == Py_None) {
    *out = NULL;
    return 0;
  }
  if (!PyLong_Check(value)) {
    core_raise_arg_error(PyExc_TypeError, site, "%s must give an int address, got `%s`", what,
                         Py_TYPE(value)->tp_name);
    return -1;
  }
  *out = PyLong_AsVoidPtr(value);
  return (*out == NULL && PyErr_Occurred()) ? -1 : 0;
}

static int set_opaque_ptr_from(PyObject* addr, TVMFFIAny* out, const CoreArgSite* site,
                               const char* what) {
  void* ptr;
  if (void_p_value(addr, &ptr, site, what) != 0) return -1;
  core_set_pod(out, kTVMFFIOpaquePtr);
  out->v_ptr = ptr;
  return 0;
}

/* Reads an int pair/triple from a tuple returned by a protocol method. */
static int int_tuple(PyObject* tuple, long long* vals, Py_ssize_t n, const CoreArgSite* site,
                     const char* what) {
  if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != n) {
    core_raise_arg_error(PyExc_TypeError, site, "%s must return a tuple of %zd ints, got `%s`",
                         what, n, Py_TYPE(tuple)->tp_name);
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    vals[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(tuple, i));
    if (vals[i] == -1 && PyErr_Occurred()) return -1;
  }
  return 0;
}

/* `__cuda_stream__()` returns (tag, address): the tag is the protocol version (an int) or a
 * name such as "cuda"; only the address is passed, as an opaque pointer. */
static int set_cuda_stream(PyObject* pair, TVMFFIAny* out, const CoreArgSite* site) {
  if (!PyTuple_Check(pair)) {
    core_raise_arg_error(PyExc_TypeError, site,
                         "__cuda_stream__() must return a (tag, stream address) tuple, got `%s`",
                         Py_TYPE(pair)->tp_name);
    return -1;
  }
  if (PyTuple_GET_SIZE(pair) != 2) {
    core_raise_arg_error(PyExc_TypeError, site,
                         "__cuda_stream__() must return a (tag, stream address) tuple, got a "
                         "tuple of %zd items", PyTuple_GET_SIZE(pair));
    return -1;
  }
  PyObject* address = PyTuple_GET_ITEM(pair, 1);
  if (!PyLong_Check(address)) {
    core_raise_arg_error(PyExc_TypeError, site,
                         "__cuda_stream__() must return an int stream address, got `%s`",
                         Py_TYPE(address)->tp_name);
    return -1;
  }
  void* ptr = PyLong_AsVoidPtr(address);
  if (ptr == NULL && PyErr_Occurred()) return -1;
  core_set_pod(out, kTVMFFIOpaquePtr);
  out->v_ptr = ptr;
  return 0;
}

/* ---- converters, one per kind (see dispatch.h) ---- */

#define CONVERTER(name)                                                                \
  static int name(const CoreDispatchEntry* entry, PyObject* value, TVMFFIAny* out,      \
                  CoreCallContext* ctx)

int core_convert_opaque(PyObject* value, TVMFFIAny* out, CoreCallContext* ctx) {
  TVMFFIObjectHandle opaque;
  if (core_make_opaque(value, &opaque) != 0) return -1;
  return core_set_handle_temp(out, opaque, ctx);
}

CONVERTER(convert_opaque) { return core_convert_opaque(value, out, ctx); }

CONVERTER(convert_object) { return core_convert_object(value, out, ctx); }

CONVERTER(convert_rvalue_ref) {
  CoreObject* obj = (CoreObject*)((CoreRValueRef*)value)->obj;
  if (obj->chandle == NULL) {
    core_raise_arg_error(PyExc_ValueError, &ctx->site, "ObjectRValueRef was already moved");
    return -1;
  }
  out->type_index = kTVMFFIObjectRValueRef;
  out->zero_padding = 0;
  out->v_ptr = &obj->chandle;
  return 0;
}

CONVERTER(convert_object_protocol) {
  /* A Shape that already made its runtime object hands it over without a Python frame. */
  PyObject* obj = core_shape_made_object(value);
  if (obj == NULL) obj = call_protocol(value, kProtoObject);
  if (obj == NULL) return -1;
  if (core_call_context_keep_py(ctx, obj) != 0) return -1;
  if (!core_is_object(obj)) {
    core_raise_arg_error(PyExc_TypeError, &ctx->site,
                         "__tvm_ffi_object__() must return an FFI Object, got `%s`",
                         Py_TYPE(obj)->tp_name);
    return -1;
  }
  return core_convert_object(obj, out, ctx);
}

CONVERTER(convert_integral) {
  PyObject* index = PyNumber_Index(value);
  if (index == NULL) return -1;
  int rc = core_convert_exact_int(index, out, ctx);
  Py_DECREF(index);
  return rc;
}

CONVERTER(convert_real) {
  double v = PyFloat_AsDouble(value);
  if (v == -1.0 && PyErr_Occurred()) return -1;
  core_set_pod(out, kTVMFFIFloat);
  out->v_float64 = v;
  return 0;
}

CONVERTER(convert_data_type) {
  core_set_dtype(out, ((CoreDataType*)value)->dtype);
  return 0;
}

CONVERTER(convert_dtype_class) {
  DLDataType dtype;
  if (core_dtype_instance_value(value, &dtype) != 0) return -1;
  core_set_dtype(out, dtype);
  return 0;
}

CONVERTER(convert_framework_dtype) {
  PyObject* converted = PyObject_CallOneArg(core_dtype_class, value);
  if (converted == NULL) return -1;
  DLDataType dtype;
  int rc = core_dtype_instance_value(converted, &dtype);
  Py_DECREF(converted);
  if (rc != 0) return -1;
  core_set_dtype(out, dtype);
  return 0;
}

CONVERTER(convert_device) {
  core_set_device(out, ((CoreDevice*)value)->device);
  return 0;
}

CONVERTER(convert_native) { return core_convert_native(value, out, ctx); }

CONVERTER(convert_str) { return core_convert_str(value, out, ctx); }

CONVERTER(convert_bytes) { return core_convert_bytes_like(value, out, ctx); }

CONVERTER(convert_void_p) {
  PyObject* addr = PyObject_GetAttr(value, core_str_value);
  if (addr == NULL) return -1;
  int rc = set_opaque_ptr_from(addr, out, &ctx->site, "ctypes.c_void_p");
  Py_DECREF(addr);
  return rc;
}

CONVERTER(convert_opaque_ptr_protocol) {
  PyObject* addr = call_protocol(value, kProtoOpaquePtr);
  if (addr == NULL) return -1;
  int rc = set_opaque_ptr_from(addr, out, &ctx->site, "__tvm_ffi_opaque_ptr__()");
  Py_DECREF(addr);
  return rc;
}

CONVERTER(convert_cuda_stream) {
  PyObject* pair = call_protocol(value, kProtoCudaStream);
  if (pair == NULL) return -1;
  int rc = set_cuda_stream(pair, out, &ctx->site);
  Py_DECREF(pair);
  return rc;
}

CONVERTER(convert_exception) {
  TVMFFIObjectHandle err;
  if (core_error_from_py_exception(value, &err) != 0) return -1;
  return core_set_handle_temp(out, err, ctx);
}

CONVERTER(convert_dlpack_data_type) {
  PyObject* triple = call_protocol(value, kProtoDataType);
  if (triple == NULL) return -1;
  long long vals[3];
  int rc = int_tuple(triple, vals, 3, &ctx->site, "__dlpack_data_type__()");
  Py_DECREF(triple);
  if (rc != 0) return -1;
  DLDataType dtype = {(uint8_t)vals[0], (uint8_t)vals[1], (uint16_t)vals[2]};
  core_set_dtype(out, dtype);
  return 0;
}

CONVERTER(convert_dlpack_device) {
  PyObject* pair = call_protocol(value, kProtoDevice);
  if (pair == NULL) return -1;
  long long vals[2];
  int rc = int_tuple(pair, vals, 2, &ctx->site, "__dlpack_device__()");
  Py_DECREF(pair);
  if (rc != 0) return -1;
  core_set_device(out, TVMFFIDLDeviceFromIntPair((int32_t)vals[0], (int32_t)vals[1]));
  return 0;
}

CONVERTER(convert_int_protocol) {
  PyObject* v = call_protocol(value, kProtoInt);
  if (v == NULL) return -1;
  int rc;
  if (PyLong_Check(v)) {
    rc = core_convert_exact_int(v, out, ctx);
  } else {
    core_raise_arg_error(PyExc_TypeError, &ctx->site,
                         "__tvm_ffi_int__() must return an int, got `%s`", Py_TYPE(v)->tp_name);
    rc = -1;
  }
  Py_DECREF(v);
  return rc;
}

CONVERTER(convert_float_protocol) {
  PyObject* v = call_protocol(value, kProtoFloat);
  if (v == NULL) return -1;
  double d = PyFloat_AsDouble(v);
  Py_DECREF(v);
  if (d == -1.0 && PyErr_Occurred()) return -1;
  core_set_pod(out, kTVMFFIFloat);
  out->v_float64 = d;
  return 0;
}

/* The protocol's result is converted in turn and kept alive for the call. */
CONVERTER(convert_value_protocol) {
  PyObject* result = call_protocol(value, kProtoValue);
  if (result == NULL) return -1;
  if (core_call_context_keep_py(ctx, result) != 0) return -1;
  static const char kWhere[] = " while converting __tvm_ffi_value__";
  if (core_stack_guard_check(kWhere) != 0 || Py_EnterRecursiveCall(kWhere) != 0) return -1;
  int rc = core_convert_arg(result, out, ctx);
  Py_LeaveRecursiveCall();
  return rc;
}

#undef CONVERTER

/* ---- entry points ---- */

int core_convert_arg(PyObject* value, TVMFFIAny* out, CoreCallContext* ctx) {
  PyTypeObject* t = Py_TYPE(value);
  if (t == &PyLong_Type) return core_convert_exact_int(value, out, ctx);
  if (t == &PyFloat_Type) {
    out->type_index = kTVMFFIFloat;
    out->zero_padding = 0;
    out->v_float64 = PyFloat_AS_DOUBLE(value);
    return 0;
  }
  if (t == &PyBool_Type) {
    out->type_index = kTVMFFIBool;
    out->zero_padding = 0;
    out->v_int64 = value == Py_True;
    return 0;
  }
  if (value == Py_None) {
    core_set_pod(out, kTVMFFINone);
    return 0;
  }
  if (t == &PyUnicode_Type) return core_convert_str(value, out, ctx);
  if (t == &CoreRegisteredObject_Type) return core_convert_object(value, out, ctx);
  /* Everything else by its type's entry: a framework tensor type seen before, a list, a
   * Function, ... cost one table lookup. */
  CoreDispatchEntry scratch;
  const CoreDispatchEntry* entry = core_dispatch_lookup(t, &scratch);
  if (CORE_UNLIKELY(entry == NULL)) return -1;
  /* A copy: a converter that runs Python code may have the table slot reused meanwhile. */
  CoreDispatchEntry held = *entry;
  return held.convert(&held, value, out, ctx);
}

int core_py_to_owned_any(PyObject* value, TVMFFIAny* out, const CoreArgSite* site) {
  CoreCallContext ctx;
  core_call_context_init(&ctx, site->func_name, site->index);
  TVMFFIAny view;
  int rc = core_convert_arg(value, &view, &ctx);
  if (CORE_LIKELY(rc == 0) && view.type_index <= kTVMFFIDevice) {
    *out = view; /* None, numbers, pointers, dtypes, devices: the view is the value */
  } else if (rc == 0 && TVMFFIAnyViewToOwnedAny(&view, out) != 0) {
    core_raise_from_rc(-1);
    rc = -1;
  }
  if (ctx.size != 0) core_call_context_release(&ctx);
  if (rc != 0) core_set_pod(out, kTVMFFINone);
  return rc;
}

int core_convert_init(void) {
  static const struct {
    CoreArgKind kind;
    CoreArgConverter convert;
  } kConverters[] = {
      {kCoreArgOpaque, convert_opaque},
      {kCoreArgObject, convert_object},
      {kCoreArgRValueRef, convert_rvalue_ref},
      {kCoreArgObjectProtocol, convert_object_protocol},
      {kCoreArgIntegral, convert_integral},
      {kCoreArgReal, convert_real},
      {kCoreArgDataType, convert_data_type},
      {kCoreArgDTypeClass, convert_dtype_class},
      {kCoreArgFrameworkDType, convert_framework_dtype},
      {kCoreArgDevice, convert_device},
      {kCoreArgNativeStr, convert_native},
      {kCoreArgNativeBytes, convert_native},
      {kCoreArgStr, convert_str},
      {kCoreArgBytes, convert_bytes},
      {kCoreArgVoidP, convert_void_p},
      {kCoreArgOpaquePtrProtocol, convert_opaque_ptr_protocol},
      {kCoreArgCudaStream, convert_cuda_stream},
      {kCoreArgException, convert_exception},
      {kCoreArgDLPackDataType, convert_dlpack_data_type},
      {kCoreArgDLPackDevice, convert_dlpack_device},
      {kCoreArgIntProtocol, convert_int_protocol},
      {kCoreArgFloatProtocol, convert_float_protocol},
      {kCoreArgValueProtocol, convert_value_protocol},
  };
  for (size_t i = 0; i < sizeof(kConverters) / sizeof(kConverters[0]); ++i) {
    core_dispatch_register(kConverters[i].kind, kConverters[i].convert);
  }
  return 0;
}
