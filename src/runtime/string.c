/*
 * string.c -- string and bytes values.
 *
 * Up to 7 bytes live inline in the Any (SmallStr / SmallBytes: length at +4, bytes at +8, a NUL
 * after them, the rest zero); longer content is a heap object whose TVMFFIByteArray cell at +24
 * points at the characters stored right after it (+40), always NUL-terminated so that C++
 * c_str()-style readers work.
 */
#include <stdlib.h>

#include "error_internal.h"
#include "object_api_internal.h"
#include "object_internal.h"
#include "string_internal.h"

enum { kSmallStringMax = 7 };

typedef struct {
  TVMFFIObject header;
  TVMFFIByteArray cell;
  char data[];
} StringObject;

static void string_destroy(void* self) { (void)self; /* content lives in the same block */ }
FFI_DEFINE_DELETER(string_deleter, string_destroy)

int ffi_string_make(const char* data, size_t size, int is_bytes, TVMFFIAny* out) {
  if (data == NULL && size != 0) {
    return ffi_raise("ValueError", "%s of %zu bytes given a NULL data pointer",
                     is_bytes ? "bytes" : "string", size);
  }
  *out = ffi_any_none();
  if (size <= kSmallStringMax) {
    out->type_index = is_bytes ? kTVMFFISmallBytes : kTVMFFISmallStr;
    out->small_str_len = (uint32_t)size;
    if (size != 0) memcpy(out->v_bytes, data, size);
    return 0;
  }
  if (size > SIZE_MAX - sizeof(StringObject) - 1) {
    return ffi_raise("MemoryError", "string of %zu bytes is too large", size);
  }
  StringObject* obj = (StringObject*)ffi_object_alloc(
      sizeof(StringObject) + size + 1, is_bytes ? kTVMFFIBytes : kTVMFFIStr, string_deleter);
  if (obj == NULL) return -1;
  memcpy(obj->data, data, size);
  obj->data[size] = '\0';
  obj->cell.data = obj->data;
  obj->cell.size = size;
  out->type_index = obj->header.type_index;
  out->v_obj = &obj->header;
  return 0;
}

bool ffi_string_view(const TVMFFIAny* value, TVMFFIByteArray* out) {
  switch (value->type_index) {
    case kTVMFFIRawStr:
      out->data = value->v_c_str != NULL ? value->v_c_str : "";
      out->size = value->v_c_str != NULL ? strlen(value->v_c_str) : 0;
      return true;
    case kTVMFFIByteArrayPtr:
      if (value->v_ptr == NULL) return false;
      *out = *(const TVMFFIByteArray*)value->v_ptr;
      return true;
    case kTVMFFISmallStr:
    case kTVMFFISmallBytes:
      /* A length past the inline capacity would read beyond the 16-byte value. */
      if (ffi_small_len_corrupt(value)) return false;
      out->data = value->v_bytes;
      out->size = value->small_str_len;
      return true;
    case kTVMFFIStr:
    case kTVMFFIBytes:
      *out = *TVMFFIBytesGetByteArrayPtr(value->v_obj);
      return true;
    default:
      return false;
  }
}

int ffi_raise_small_len_corrupt(const char* fname, int32_t i, const TVMFFIAny* value) {
  return ffi_raise("ValueError",
                   "Corrupt argument #%d when calling: `%s`: an inline %s of length %u, but at most "
                   "%d bytes fit inline",
                   (int)i, fname, value->type_index == kTVMFFISmallBytes ? "bytes" : "string",
                   (unsigned)value->small_str_len, kSmallStringMax);
}

static int check_byte_array(const char* api, const TVMFFIByteArray* input, TVMFFIAny* out) {
  if (input == NULL || out == NULL) return ffi_raise("ValueError", "%s: input and out are required", api);
  return 0;
}

int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  if (check_byte_array("TVMFFIStringFromByteArray", input, out) != 0) return -1;
  return ffi_string_make(input->data, input->size, 0, out);
}

int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  if (check_byte_array("TVMFFIBytesFromByteArray", input, out) != 0) return -1;
  return ffi_string_make(input->data, input->size, 1, out);
}
