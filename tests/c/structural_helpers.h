/*
 * structural_helpers.h -- helpers shared by the structural-service C tests: calling the
 * ffi.* globals with owned results, reading text results, building nested containers.
 */
#ifndef TVM_FFI_TESTS_STRUCTURAL_HELPERS_H_
#define TVM_FFI_TESTS_STRUCTURAL_HELPERS_H_

#include "check.h"

/* The content of a str result (small or heap). */
static inline TVMFFIByteArray text_of(const TVMFFIAny* v) {
  TVMFFIByteArray out = {"", 0};
  if (v->type_index == kTVMFFISmallStr) {
    out.data = v->v_bytes;
    out.size = v->small_str_len;
  } else if (v->type_index == kTVMFFIStr) {
    out = *TVMFFIBytesGetByteArrayPtr(v->v_obj);
  }
  return out;
}

/* Calls name(arg) and checks that it returns the text `expected`. */
#define CHECK_TEXT_RESULT(name, args, n, expected)                   \
  do {                                                               \
    TVMFFIAny r_;                                                    \
    CHECK(call_global(name, args, n, &r_) == 0);                     \
    CHECK(check_no_error_pending());                                 \
    CHECK_BYTES_EQ(text_of(&r_), expected);                          \
    release(&r_);                                                    \
  } while (0)

/* Owned Array/List of the given views. */
static inline TVMFFIAny make_container(const char* ctor, TVMFFIAny* items, int32_t n) {
  TVMFFIAny r;
  if (call_global(ctor, items, n, &r) != 0) memset(&r, 0, sizeof(r));
  return r;
}

/* A chain of `depth` single-element Lists around 0 (owned). */
static inline TVMFFIAny nested_lists(int depth) {
  TVMFFIAny value = any_int(0);
  for (int i = 0; i < depth; ++i) {
    TVMFFIAny next = make_container("ffi.List", &value, 1);
    release(&value);
    value = next;
  }
  return value;
}

#endif /* TVM_FFI_TESTS_STRUCTURAL_HELPERS_H_ */
