/*
 * type_registry_internal.h -- what type_registry.c offers the rest of the runtime beyond
 * internal.h.
 */
#ifndef TVM_FFI_RUNTIME_TYPE_REGISTRY_INTERNAL_H_
#define TVM_FFI_RUNTIME_TYPE_REGISTRY_INTERNAL_H_

#include <stddef.h>
#include <stdint.h>

/* Registers the type registry's built-in global functions (ffi.GetRegisteredTypeKeys).
 * init.c calls it once the type table exists. */
void ffi_register_type_globals(void);

/* The hash stored in TVMFFITypeInfo.type_key_hash: libstdc++'s std::hash<std::string_view>
 * (64-bit _Hash_bytes, seed 0xc70f6907), so C++ readers comparing hashes agree with us. */
uint64_t ffi_type_key_hash(const char* data, size_t size);

#endif /* TVM_FFI_RUNTIME_TYPE_REGISTRY_INTERNAL_H_ */
