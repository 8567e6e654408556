/*
 * builtin_args_internal.h -- argument and result helpers of the built-in functions (builtin_args.c).
 */
#ifndef TVM_FFI_RUNTIME_BUILTIN_ARGS_INTERNAL_H_
#define TVM_FFI_RUNTIME_BUILTIN_ARGS_INTERNAL_H_

#include "object_internal.h"

/* Argument helpers for built-in functions. `fname` names the function in error messages;
 * errors are TypeError naming the argument index, the expected and the actual type. */
int ffi_check_num_args(const char* fname, int32_t num_args, int32_t expected);
/* The same for a function registered on a type (a type attribute or method): the message names
 * it `<type key>.<member>`, where `member` may carry its signature ("__ffi_new__() -> ..."). */
int ffi_check_type_member_args(int32_t type_index, const char* member, int32_t num_args,
                               int32_t expected);
/* The same for functions whose trailing parameters are optional: lo to hi arguments. */
int ffi_check_num_args_range(const char* fname, int32_t num_args, int32_t lo, int32_t hi);
/* The TypeError for argument i of `fname` not being `expected` (the signature's own parameter
 * text wins where the function has a known signature). Always -1. */
int ffi_raise_arg_mismatch(const char* fname, int32_t i, const char* expected,
                           int32_t actual_index);
int ffi_arg_int(const char* fname, const TVMFFIAny* args, int32_t i, int64_t* out);
int ffi_arg_bool(const char* fname, const TVMFFIAny* args, int32_t i, bool* out);
int ffi_arg_str(const char* fname, const TVMFFIAny* args, int32_t i, TVMFFIByteArray* out);
int ffi_arg_ptr(const char* fname, const TVMFFIAny* args, int32_t i, void** out);
/* Borrowed object of type `type_index` (or a subtype); kTVMFFIObject accepts any object. */
int ffi_arg_object(const char* fname, const TVMFFIAny* args, int32_t i, int32_t type_index,
                   TVMFFIObject** out);

/* Result helpers: result is an owned Any the caller zero-initialised. */
static inline void ffi_ret_int(TVMFFIAny* result, int64_t v) {
  *result = ffi_any_none();
  result->type_index = kTVMFFIInt;
  result->v_int64 = v;
}
static inline void ffi_ret_bool(TVMFFIAny* result, bool v) {
  *result = ffi_any_none();
  result->type_index = kTVMFFIBool;
  result->v_int64 = v ? 1 : 0;
}
/* Steals obj. */
static inline void ffi_ret_object(TVMFFIAny* result, TVMFFIObject* obj) {
  *result = ffi_any_from_object(obj);
}

#endif /* TVM_FFI_RUNTIME_BUILTIN_ARGS_INTERNAL_H_ */
