/*
 * string.c -- string and bytes values.
 *
 * Up to 7 bytes live inline in the Any (SmallStr / SmallBytes: length at +4, bytes at +8, a NUL
 * after them, the rest zero); longer content is a heap object whose TVMFFIByteArray cell at +24
 * points at the characters stored right after it (+40), always NUL-terminated so that C++
 * c_str()-style readers work.
 */
#include <stdlib.h>

#include "internal.h"

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

/* ffi.String / ffi.Bytes: identity functions returning owned copies (used by tests). */
static int identity_string(const char* fname, int is_bytes, const TVMFFIAny* args,
                           int32_t num_args, TVMFFIAny* result) {
  if (ffi_check_num_args(fname, num_args, 1) != 0) return -1;
  TVMFFIByteArray view;
  int32_t t = args[0].type_index;
  bool ok = is_bytes ? (t == kTVMFFIByteArrayPtr || t == kTVMFFISmallBytes || t == kTVMFFIBytes)
                     : (t == kTVMFFIRawStr || t == kTVMFFISmallStr || t == kTVMFFIStr);
  if (!ok || !ffi_string_view(&args[0], &view)) {
    TVMFFIByteArray actual = ffi_type_key_of(t);
    return ffi_raise("TypeError",
                     "Mismatched type on argument #0 when calling: `%s`. Expected `%s` but got `%.*s`",
                     fname, is_bytes ? "ffi.Bytes" : "ffi.String", (int)actual.size, actual.data);
  }
  return ffi_string_make(view.data, view.size, is_bytes, result);
}

static int global_string(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  return identity_string("ffi.String", 0, args, num_args, result);
}

static int global_bytes(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  return identity_string("ffi.Bytes", 1, args, num_args, result);
}

void ffi_register_string_globals(void) {
  ffi_register_builtin("ffi.String", global_string);
  ffi_register_builtin("ffi.Bytes", global_bytes);
}
