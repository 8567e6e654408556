/*
 * type_registry_internal.h -- the type table (type_registry.c) as the rest of the runtime uses it.
 */
#ifndef TVM_FFI_RUNTIME_TYPE_REGISTRY_INTERNAL_H_
#define TVM_FFI_RUNTIME_TYPE_REGISTRY_INTERNAL_H_

#include "runtime_base.h"

void ffi_type_registry_init(void);
/* Type key of an index for messages; "<unknown>" when not registered. Never fails. */
TVMFFIByteArray ffi_type_key_of(int32_t type_index);
/* True when `type_index` names a registered type (ffi_type_key_of says "<unknown>" otherwise;
 * a real key may have the same length, so the text is compared). */
static inline bool ffi_type_index_is_registered(int32_t type_index) {
  TVMFFIByteArray key = ffi_type_key_of(type_index);
  return !(key.size == 9 && memcmp(key.data, "<unknown>", 9) == 0);
}
/* True when `type_index` is `ancestor` or derives from it. */
bool ffi_type_is_instance(int32_t type_index, int32_t ancestor);


/* Every registered type key in index order: *out is malloc'ed (the caller frees it), the keys
 * are the registry's own and live for the process. */
int ffi_type_registry_collect_keys(TVMFFIByteArray** out, int64_t* count);

/* The hash stored in TVMFFITypeInfo.type_key_hash: libstdc++'s std::hash<std::string_view>
 * (64-bit _Hash_bytes, seed 0xc70f6907), so C++ readers comparing hashes agree with us. */
uint64_t ffi_type_key_hash(const char* data, size_t size);

#endif /* TVM_FFI_RUNTIME_TYPE_REGISTRY_INTERNAL_H_ */
