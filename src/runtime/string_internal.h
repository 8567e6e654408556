/*
 * string_internal.h -- string and bytes values (string.c).
 */
#ifndef TVM_FFI_RUNTIME_STRING_INTERNAL_H_
#define TVM_FFI_RUNTIME_STRING_INTERNAL_H_

#include "runtime_base.h"

/* Makes an owned string (is_bytes = 0) or bytes (is_bytes = 1) Any from a copy of data:
 * the small inline form for up to 7 bytes, a heap object otherwise. */
int ffi_string_make(const char* data, size_t size, int is_bytes, TVMFFIAny* out);

/* Views the content of any string-like value (RawStr, SmallStr, Str, ByteArrayPtr, SmallBytes,
 * Bytes). Returns false if value holds something else. */
bool ffi_string_view(const TVMFFIAny* value, TVMFFIByteArray* out);

/* True for a SmallStr/SmallBytes whose length claims more than the 7 inline bytes (a value
 * forged or corrupted by foreign code); such values are refused, never read. */
static inline bool ffi_small_len_corrupt(const TVMFFIAny* value) {
  return (value->type_index == kTVMFFISmallStr || value->type_index == kTVMFFISmallBytes) &&
         value->small_str_len > 7;
}
/* Raises ValueError naming argument i of fname as such a corrupt inline string. */
int ffi_raise_small_len_corrupt(const char* fname, int32_t i, const TVMFFIAny* value);

#endif /* TVM_FFI_RUNTIME_STRING_INTERNAL_H_ */
