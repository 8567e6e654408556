/*
 * any.c -- turning a borrowed Any (a view) into an owned one.
 *
 * Views may point at memory the callee does not own (raw C strings, byte-array pointers) or
 * offer an object for the taking (rvalue refs); an owned Any never does either, so those are
 * copied or stolen here (TVMFFIAnyViewToOwnedAny).
 */
#include "error_internal.h"
#include "object_internal.h"
#include "string_internal.h"

int TVMFFIAnyViewToOwnedAny(const TVMFFIAny* any_view, TVMFFIAny* out) {
  if (any_view == NULL || out == NULL) {
    return ffi_raise("ValueError", "TVMFFIAnyViewToOwnedAny: any_view and out are required");
  }
  int32_t type_index = any_view->type_index;
  if (ffi_is_object_index(type_index)) {
    if (any_view->v_obj != NULL) ffi_incref(any_view->v_obj);
    *out = *any_view;
    return 0;
  }
  switch (type_index) {
    case kTVMFFIRawStr: {
      if (any_view->v_c_str == NULL) return ffi_raise("ValueError", "raw string view is NULL");
      return ffi_string_make(any_view->v_c_str, strlen(any_view->v_c_str), 0, out);
    }
    case kTVMFFIByteArrayPtr: {
      const TVMFFIByteArray* bytes = (const TVMFFIByteArray*)any_view->v_ptr;
      if (bytes == NULL) return ffi_raise("ValueError", "byte array view is NULL");
      return ffi_string_make(bytes->data, bytes->size, 1, out);
    }
    case kTVMFFIObjectRValueRef: {
      TVMFFIObject** slot = (TVMFFIObject**)any_view->v_ptr;
      if (slot == NULL || *slot == NULL) return ffi_raise("RuntimeError", "RValueRef already moved");
      *out = ffi_any_from_object(*slot);
      *slot = NULL;
      return 0;
    }
    case kTVMFFISmallStr:
    case kTVMFFISmallBytes:
      if (ffi_small_len_corrupt(any_view)) {
        return ffi_raise_small_len_corrupt("TVMFFIAnyViewToOwnedAny", 0, any_view);
      }
      *out = *any_view;
      return 0;
    default:
      /* POD values, and DLTensor* (still a non-owning pointer). */
      *out = *any_view;
      return 0;
  }
}
