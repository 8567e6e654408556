/*
 * convert_value.c -- the plain kinds of argument conversion (convert_value.h). A str is passed
 * as a borrowed UTF-8 view: CPython caches the UTF-8 form inside the str, so no string object
 * is made per call.
 */
#include "convert_value.h"

#include <string.h>

#include "bigint.h"
#include "error.h"
#include "object.h"
#include "string_types.h"

int core_set_owned_temp(TVMFFIAny* out, TVMFFIAny* owned, CoreCallContext* ctx) {
  if (owned->type_index >= kTVMFFIStaticObjectBegin) {
    if (core_call_context_keep_handle(ctx, owned->v_obj) != 0) return -1;
  }
  *out = *owned;
  return 0;
}

int core_set_handle_temp(TVMFFIAny* out, TVMFFIObjectHandle handle, CoreCallContext* ctx) {
  if (core_call_context_keep_handle(ctx, handle) != 0) return -1;
  core_set_object_view(out, handle);
  return 0;
}

int core_convert_bigint(PyObject* value, TVMFFIAny* out, CoreCallContext* ctx) {
  TVMFFIAny owned;
  size_t bits = 0;
  int rc = core_bigint_from_int(value, &owned, &bits);
  if (rc < 0) return -1;
  if (rc > 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    core_raise_arg_error(PyExc_ValueError, &ctx->site, "int of %zu bits does not fit ffi.BigInt",
                         bits);
    if (err != NULL) TVMFFIObjectDecRef(err);
    return -1;
  }
  return core_set_owned_temp(out, &owned, ctx);
}

/* Text arguments travel as the ABI's string values, as the reference binding passes them: up
 * to 7 bytes inline (SmallStr / SmallBytes), longer ones as a String / Bytes object made for the
 * call. This deviates from ARCHITECTURE.md's "str as a borrowed UTF-8 view" on purpose: C
 * callees written against the reference accept only kTVMFFISmallStr/kTVMFFIStr (and the bytes
 * pair) for Python text and reject a RawStr / ByteArrayPtr view (found with the test suite of
 * apache-tvm-ffi-orcjit). The cost is one allocation per argument longer than 7 bytes. */
static int convert_text(const char* data, Py_ssize_t size, int32_t small_index,
                        int (*make)(const TVMFFIByteArray*, TVMFFIAny*), TVMFFIAny* out,
                        CoreCallContext* ctx) {
  if (size <= 7) {
    out->type_index = small_index;
    out->small_str_len = (uint32_t)size;
    out->v_uint64 = 0;
    memcpy(out->v_bytes, data, (size_t)size);
    return 0;
  }
  TVMFFIByteArray bytes = {data, (size_t)size};
  TVMFFIAny owned;
  if (make(&bytes, &owned) != 0) {
    core_raise_from_rc(-1);
    return -1;
  }
  return core_set_owned_temp(out, &owned, ctx);
}

int core_convert_str(PyObject* value, TVMFFIAny* out, CoreCallContext* ctx) {
  Py_ssize_t size;
  const char* data = PyUnicode_AsUTF8AndSize(value, &size);
  if (CORE_UNLIKELY(data == NULL)) {
    if (PyErr_ExceptionMatches(PyExc_UnicodeError)) {
      PyObject *type, *val, *tb;
      PyErr_Fetch(&type, &val, &tb);
      core_raise_arg_error(PyExc_ValueError, &ctx->site, "str cannot be encoded as UTF-8 (%S)",
                           val != NULL ? val : Py_None);
      Py_XDECREF(type);
      Py_XDECREF(val);
      Py_XDECREF(tb);
    }
    return -1;
  }
  return convert_text(data, size, kTVMFFISmallStr, TVMFFIStringFromByteArray, out, ctx);
}

int core_convert_bytes_like(PyObject* value, TVMFFIAny* out, CoreCallContext* ctx) {
  if (PyBytes_Check(value)) {
    return convert_text(PyBytes_AS_STRING(value), PyBytes_GET_SIZE(value), kTVMFFISmallBytes,
                        TVMFFIBytesFromByteArray, out, ctx);
  }
  return convert_text(PyByteArray_AS_STRING(value), PyByteArray_GET_SIZE(value),
                      kTVMFFISmallBytes, TVMFFIBytesFromByteArray, out, ctx);
}

int core_convert_native(PyObject* value, TVMFFIAny* out, CoreCallContext* ctx) {
  PyObject* cached = core_native_cached_object(value);
  if (cached != NULL && ((CoreObject*)cached)->chandle != NULL) {
    core_set_object_view(out, ((CoreObject*)cached)->chandle);
    return 0;
  }
  if (PyUnicode_Check(value)) return core_convert_str(value, out, ctx);
  return core_convert_bytes_like(value, out, ctx);
}

int core_convert_object(PyObject* value, TVMFFIAny* out, CoreCallContext* ctx) {
  TVMFFIObjectHandle handle = ((CoreObject*)value)->chandle;
  if (CORE_UNLIKELY(handle == NULL)) {
    core_raise_arg_error(PyExc_ValueError, &ctx->site, "`%s` object has no FFI handle (NULL)",
                         Py_TYPE(value)->tp_name);
    return -1;
  }
  core_set_object_view(out, handle);
  return 0;
}
