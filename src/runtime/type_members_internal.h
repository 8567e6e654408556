/*
 * type_members_internal.h -- start-up of what is registered on types (type_members.c).
 */
#ifndef TVM_FFI_RUNTIME_TYPE_MEMBERS_INTERNAL_H_
#define TVM_FFI_RUNTIME_TYPE_MEMBERS_INTERNAL_H_

#include <stdint.h>

/* ffi.Object's metadata and the __any_hash__ / __any_equal__ columns; init.c calls it right
 * after ffi_type_registry_init, before anything else can register a type. */
void ffi_type_members_init(void);

/* How many attribute columns have been created so far (acquire load): a lookup that found no
 * column is still valid while this count is unchanged, which lets callers cache misses. */
uint64_t ffi_type_attr_column_count(void);

#endif /* TVM_FFI_RUNTIME_TYPE_MEMBERS_INTERNAL_H_ */
