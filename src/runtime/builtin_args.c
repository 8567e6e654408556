/*
 * builtin_args.c -- argument checks for the runtime's own global functions.
 *
 * Every mismatch is a TypeError that names the function, the argument index, the expected and
 * the actual type key, in the same shape as the reference's messages, so Python users see the
 * same text whichever runtime answered.
 */
#include "builtin_args_internal.h"
#include "builtin_signatures_internal.h"
#include "error_internal.h"
#include "string_internal.h"
#include "type_registry_internal.h"

int ffi_raise_arg_mismatch(const char* fname, int32_t i, const char* expected,
                           int32_t actual_index) {
  TVMFFIByteArray actual = ffi_type_key_of(actual_index);
  const char* callee = ffi_builtin_display_name(fname);
  char param[256];
  /* The parameter's C++ type text ("str", "List<Any>") as the signature spells it. */
  if (callee != fname && ffi_builtin_param_text(callee, i, param, sizeof(param))) expected = param;
  return ffi_raise("TypeError",
                   "Mismatched type on argument #%d when calling: `%s`. Expected `%s` but got `%.*s`",
                   (int)i, callee, expected, (int)actual.size, actual.data);
}

int ffi_check_num_args(const char* fname, int32_t num_args, int32_t expected) {
  if (num_args == expected) return 0;
  return ffi_raise("TypeError",
                   "Mismatched number of arguments when calling: `%s`. Expected %d but got %d "
                   "arguments",
                   ffi_builtin_display_name(fname), (int)expected, (int)num_args);
}

int ffi_check_type_member_args(int32_t type_index, const char* member, int32_t num_args,
                               int32_t expected) {
  if (num_args == expected) return 0;
  TVMFFIByteArray key = ffi_type_key_of(type_index);
  return ffi_raise("TypeError",
                   "Mismatched number of arguments when calling: `%.*s.%s`. Expected %d but got %d "
                   "arguments",
                   (int)key.size, key.data, member, (int)expected, (int)num_args);
}

int ffi_check_num_args_range(const char* fname, int32_t num_args, int32_t lo, int32_t hi) {
  if (num_args >= lo && num_args <= hi) return 0;
  return ffi_raise("TypeError",
                   "Mismatched number of arguments when calling: `%s`. Expected %d to %d but got "
                   "%d arguments",
                   ffi_builtin_display_name(fname), (int)lo, (int)hi, (int)num_args);
}

int ffi_arg_int(const char* fname, const TVMFFIAny* args, int32_t i, int64_t* out) {
  int32_t t = args[i].type_index;
  if (t != kTVMFFIInt && t != kTVMFFIBool) return ffi_raise_arg_mismatch(fname, i, "int", t);
  *out = args[i].v_int64;
  return 0;
}

int ffi_arg_bool(const char* fname, const TVMFFIAny* args, int32_t i, bool* out) {
  int32_t t = args[i].type_index;
  if (t != kTVMFFIInt && t != kTVMFFIBool) return ffi_raise_arg_mismatch(fname, i, "bool", t);
  *out = args[i].v_int64 != 0;
  return 0;
}

int ffi_arg_str(const char* fname, const TVMFFIAny* args, int32_t i, TVMFFIByteArray* out) {
  int32_t t = args[i].type_index;
  if (ffi_small_len_corrupt(&args[i])) return ffi_raise_small_len_corrupt(fname, i, &args[i]);
  if ((t != kTVMFFIRawStr && t != kTVMFFISmallStr && t != kTVMFFIStr) ||
      !ffi_string_view(&args[i], out)) {
    return ffi_raise_arg_mismatch(fname, i, "ffi.String", t);
  }
  return 0;
}

int ffi_arg_ptr(const char* fname, const TVMFFIAny* args, int32_t i, void** out) {
  switch (args[i].type_index) {
    case kTVMFFINone:
      *out = NULL;
      return 0;
    case kTVMFFIOpaquePtr:
      *out = args[i].v_ptr;
      return 0;
    case kTVMFFIInt: /* addresses handed over as integers */
      *out = (void*)(intptr_t)args[i].v_int64;
      return 0;
    default:
      return ffi_raise_arg_mismatch(fname, i, "void*", args[i].type_index);
  }
}

int ffi_arg_object(const char* fname, const TVMFFIAny* args, int32_t i, int32_t type_index,
                   TVMFFIObject** out) {
  int32_t t = args[i].type_index;
  if (!ffi_is_object_index(t) || args[i].v_obj == NULL || !ffi_type_is_instance(t, type_index)) {
    TVMFFIByteArray expected = ffi_type_key_of(type_index);
    char expected_buf[256];
    size_t n = expected.size < sizeof(expected_buf) - 1 ? expected.size : sizeof(expected_buf) - 1;
    memcpy(expected_buf, expected.data, n);
    expected_buf[n] = '\0';
    return ffi_raise_arg_mismatch(fname, i, expected_buf, t);
  }
  *out = args[i].v_obj;
  return 0;
}
