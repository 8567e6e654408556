/*
 * str_map_internal.h -- string-keyed hash map; values are non-NULL pointers that own their key bytes (str_map.c).
 */
#ifndef TVM_FFI_RUNTIME_STR_MAP_INTERNAL_H_
#define TVM_FFI_RUNTIME_STR_MAP_INTERNAL_H_

#include "runtime_base.h"

typedef struct {
  const char* key;
  size_t size;
  uint64_t hash;
  void* value; /* NULL = empty */
} FfiStrMapSlot;

typedef struct {
  FfiStrMapSlot* slots;
  size_t capacity; /* power of two, or 0 before the first insert */
  size_t count;    /* live entries */
  size_t used;     /* live entries + tombstones */
} FfiStrMap;

uint64_t ffi_str_hash(const char* data, size_t size);
/* The value stored under key, or NULL. */
void* ffi_str_map_get(const FfiStrMap* map, const char* key, size_t size);
/* Stores value under key (key must stay valid while stored). Returns the value previously
 * stored there when there was one (the caller disposes of it), else `value`; NULL after raising
 * MemoryError. */
void* ffi_str_map_put(FfiStrMap* map, const char* key, size_t size, void* value);
/* Removes key; returns its value (the caller disposes of it) or NULL when absent. */
void* ffi_str_map_remove(FfiStrMap* map, const char* key, size_t size);
/* Iteration: start with *cursor = 0; returns the next value, NULL at the end. */
void* ffi_str_map_next(const FfiStrMap* map, size_t* cursor);

#endif /* TVM_FFI_RUNTIME_STR_MAP_INTERNAL_H_ */
