/*
 * container/map_hash.c -- AnyHash and AnyEqual, the key rules of Map and Dict.
 *
 * Kernels compiled against the reference headers run these functions inline on our maps, so
 * every value must hash to exactly what they compute, or a key inserted here is not found there.
 */
#include <stdlib.h>

#include "../hash.h"
#include "container_internal.h"

void ffi_container_buffer_free(void* data) { free(data); }

static const TVMFFIByteArray* heap_bytes(const TVMFFIAny* value) {
  return (const TVMFFIByteArray*)((const char*)value->v_obj + sizeof(TVMFFIObject));
}

/* The callback registered for value's type under attr_name, or NULL. */
static const TVMFFIAny* custom_callback(const char* attr_name, int32_t type_index) {
  TVMFFIByteArray name = {attr_name, strlen(attr_name)};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  if (column == NULL) return NULL;
  int32_t offset = type_index - column->begin_index;
  if (offset < 0 || offset >= column->size) return NULL;
  const TVMFFIAny* cb = &column->data[offset];
  return cb->type_index == kTVMFFINone ? NULL : cb;
}

/* Calls a callback (an OpaquePtr `TVMFFIAny (*)(const TVMFFIAny*[, const TVMFFIAny*])`, the
 * C view of the C++ `(const Any&...)` signature, or a Function) and reads an int or bool result.
 * Returns false on any failure, dropping the raised error. */
static bool call_custom(const TVMFFIAny* cb, const TVMFFIAny* args, int32_t nargs, int64_t* out) {
  TVMFFIAny result = ffi_any_none();
  if (cb->type_index == kTVMFFIOpaquePtr && cb->v_ptr != NULL) {
    if (nargs == 1) {
      result = ((TVMFFIAny(*)(const TVMFFIAny*))cb->v_ptr)(&args[0]);
    } else {
      result = ((TVMFFIAny(*)(const TVMFFIAny*, const TVMFFIAny*))cb->v_ptr)(&args[0], &args[1]);
    }
  } else if (cb->type_index == kTVMFFIFunction) {
    if (TVMFFIFunctionCall(cb->v_obj, (TVMFFIAny*)args, nargs, &result) != 0) {
      ffi_discard_raised();
      return false;
    }
  } else {
    return false;
  }
  if (result.type_index == kTVMFFIInt || result.type_index == kTVMFFIBool) {
    *out = result.v_int64;
    return true;
  }
  ffi_any_release(&result);
  return false;
}

uint64_t ffi_any_hash(const TVMFFIAny* value) {
  int32_t index = value->type_index;
  switch (index) {
    case kTVMFFISmallStr:
      return ffi_hash_combine(kTVMFFIStr, ffi_mod_mersenne31(value->v_uint64));
    case kTVMFFISmallBytes:
      return ffi_hash_combine(kTVMFFIBytes, ffi_mod_mersenne31(value->v_uint64));
    case kTVMFFIStr:
    case kTVMFFIBytes: {
      const TVMFFIByteArray* bytes = heap_bytes(value);
      return ffi_hash_combine((uint64_t)index, ffi_hash_bytes(bytes->data, bytes->size));
    }
    default:
      break;
  }
  if (ffi_is_object_index(index)) {
    const TVMFFIAny* cb = custom_callback("__any_hash__", index);
    int64_t custom;
    if (cb != NULL && call_custom(cb, value, 1, &custom)) {
      return ffi_hash_combine((uint64_t)(int64_t)index, (uint64_t)custom);
    }
  }
  return ffi_hash_combine((uint64_t)(int64_t)index, value->v_uint64);
}

/* Content of a small or heap string/bytes value. */
static TVMFFIByteArray string_content(const TVMFFIAny* value) {
  if (value->type_index == kTVMFFISmallStr || value->type_index == kTVMFFISmallBytes) {
    TVMFFIByteArray small = {value->v_bytes, value->small_str_len};
    return small;
  }
  return *heap_bytes(value);
}

static bool content_equal(const TVMFFIAny* lhs, const TVMFFIAny* rhs) {
  TVMFFIByteArray a = string_content(lhs), b = string_content(rhs);
  return a.size == b.size && (a.size == 0 || memcmp(a.data, b.data, a.size) == 0);
}

static bool is_str(int32_t i) { return i == kTVMFFIStr || i == kTVMFFISmallStr; }
static bool is_bytes(int32_t i) { return i == kTVMFFIBytes || i == kTVMFFISmallBytes; }

bool ffi_any_equal(const TVMFFIAny* lhs, const TVMFFIAny* rhs) {
  if (memcmp(lhs, rhs, sizeof(TVMFFIAny)) == 0) return true;
  int32_t a = lhs->type_index, b = rhs->type_index;
  if (a == b) {
    if (a == kTVMFFIStr || a == kTVMFFIBytes) return content_equal(lhs, rhs);
    if (!ffi_is_object_index(a)) return false;
    const TVMFFIAny* cb = custom_callback("__any_equal__", a);
    TVMFFIAny args[2] = {*lhs, *rhs};
    int64_t equal;
    return cb != NULL && call_custom(cb, args, 2, &equal) && equal != 0;
  }
  if ((is_str(a) && is_str(b)) || (is_bytes(a) && is_bytes(b))) return content_equal(lhs, rhs);
  return false;
}
