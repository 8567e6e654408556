/*
 * string_globals.c -- ffi.String and ffi.Bytes, the string built-ins.
 */
#include "internal.h"

/* ffi.String / ffi.Bytes: identity functions returning owned copies (used by tests). */
static int identity_string(const char* fname, int is_bytes, const TVMFFIAny* args,
                           int32_t num_args, TVMFFIAny* result) {
  if (ffi_check_num_args(fname, num_args, 1) != 0) return -1;
  TVMFFIByteArray view;
  int32_t t = args[0].type_index;
  bool ok = is_bytes ? (t == kTVMFFIByteArrayPtr || t == kTVMFFISmallBytes || t == kTVMFFIBytes)
                     : (t == kTVMFFIRawStr || t == kTVMFFISmallStr || t == kTVMFFIStr);
  if (ok && ffi_small_len_corrupt(&args[0])) return ffi_raise_small_len_corrupt(fname, 0, &args[0]);
  if (!ok || !ffi_string_view(&args[0], &view)) {
    return ffi_raise_arg_mismatch(fname, 0, is_bytes ? "bytes" : "str", t);
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
