/*
 * type_registry_entry.h -- the type table's entries and the helpers that type_registry.c (the
 * indices, keys and ancestors) shares with type_members.c (what is registered on a type:
 * fields, methods, metadata, attribute columns). Private to those two files.
 */
#ifndef TVM_FFI_RUNTIME_TYPE_REGISTRY_ENTRY_H_
#define TVM_FFI_RUNTIME_TYPE_REGISTRY_ENTRY_H_

#include "runtime_base.h"

typedef struct TypeEntry {
  TVMFFITypeInfo info;      /* first: TVMFFIGetTypeInfo returns &entry->info */
  int64_t num_slots;        /* indices reserved: itself plus its child slots */
  int64_t allocated_slots;  /* of those, taken by itself and its children so far */
  bool can_overflow;        /* children may take global indices once the slots run out */
  int32_t fields_capacity;
  int32_t methods_capacity;
  TVMFFITypeMetadata metadata; /* storage behind info.metadata once registered */
} TypeEntry;

#define KEY_ARGS(entry) (int)(entry)->info.type_key.size, (entry)->info.type_key.data

/* The one process-wide rwlock every mutation of the table holds (readers of published arrays
 * need none). */
void ffi_type_registry_lock(bool write);
void ffi_type_registry_unlock(void);

/* The entry of a type index, or NULL; lock-free. */
TypeEntry* ffi_type_entry_at(int32_t type_index);
/* The same, raising InternalError for an unknown index (api names the entry point). */
TypeEntry* ffi_type_entry_or_raise(const char* api, int32_t type_index);

/* An owned, NUL-terminated copy of bytes (empty input gives a static ""), and its release. */
int ffi_type_copy_bytes(const char* what, TVMFFIByteArray in, TVMFFIByteArray* out);
void ffi_type_free_bytes(TVMFFIByteArray* b);
/* ValueError unless b is non-NULL with data for its size. */
int ffi_type_check_byte_array(const char* api, const char* arg, const TVMFFIByteArray* b);
/* Returns an array with room for `needed` elements: `old` itself when it has room, else a
 * larger zeroed copy (old one retired, never freed: lock-free readers may hold it). NULL when
 * out of memory. Call with the write lock held. */
void* ffi_type_array_reserve(const void* old, int32_t count, int32_t* capacity, int64_t needed,
                             size_t elem_size);

#endif /* TVM_FFI_RUNTIME_TYPE_REGISTRY_ENTRY_H_ */
