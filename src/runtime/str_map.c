/*
 * str_map.c -- the runtime's one string-keyed hash map (type keys, attribute columns, global
 * function names, system-library symbols).
 *
 * Open addressing with linear probing, power-of-two capacity, load factor at most one half.
 * Keys are borrowed: each value owns the bytes its key points at. Removal leaves a tombstone so
 * probe chains stay intact; growth drops tombstones. Callers provide the locking.
 */
#include <stdlib.h>

#include "error_internal.h"
#include "str_map_internal.h"

enum { kInitialCapacity = 64 };

/* Marks a removed slot: not empty (probing continues past it), not a value. */
static char g_tombstone;
#define TOMBSTONE ((void*)&g_tombstone)

uint64_t ffi_str_hash(const char* data, size_t size) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a: short keys, no alignment needs */
  for (size_t i = 0; i < size; ++i) {
    h ^= (unsigned char)data[i];
    h *= 1099511628211ull;
  }
  return h;
}

/* The slot holding key, or the empty slot that ends its probe chain. */
static FfiStrMapSlot* probe(FfiStrMapSlot* slots, size_t capacity, const char* key, size_t size,
                            uint64_t hash) {
  size_t mask = capacity - 1;
  for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
    FfiStrMapSlot* slot = &slots[i];
    if (slot->value == NULL) return slot;
    if (slot->value != TOMBSTONE && slot->hash == hash && slot->size == size &&
        memcmp(slot->key, key, size) == 0) {
      return slot;
    }
  }
}

void* ffi_str_map_get(const FfiStrMap* map, const char* key, size_t size) {
  if (map->capacity == 0) return NULL;
  return probe(map->slots, map->capacity, key, size, ffi_str_hash(key, size))->value;
}

static int grow(FfiStrMap* map) {
  size_t capacity = map->capacity == 0 ? kInitialCapacity : map->capacity * 2;
  while (map->count * 2 >= capacity) capacity *= 2;
  FfiStrMapSlot* slots = (FfiStrMapSlot*)calloc(capacity, sizeof(FfiStrMapSlot));
  if (slots == NULL) return ffi_raise("MemoryError", "cannot grow a hash map to %zu slots", capacity);
  for (size_t i = 0; i < map->capacity; ++i) {
    FfiStrMapSlot* old = &map->slots[i];
    if (old->value != NULL && old->value != TOMBSTONE) {
      *probe(slots, capacity, old->key, old->size, old->hash) = *old;
    }
  }
  free(map->slots);
  map->slots = slots;
  map->capacity = capacity;
  map->used = map->count;
  return 0;
}

void* ffi_str_map_put(FfiStrMap* map, const char* key, size_t size, void* value) {
  if ((map->used + 1) * 2 > map->capacity && grow(map) != 0) return NULL;
  uint64_t hash = ffi_str_hash(key, size);
  FfiStrMapSlot* slot = probe(map->slots, map->capacity, key, size, hash);
  void* old = slot->value;
  if (old == NULL) {
    map->count++;
    map->used++;
  }
  slot->key = key;
  slot->size = size;
  slot->hash = hash;
  slot->value = value;
  return old != NULL ? old : value;
}

void* ffi_str_map_remove(FfiStrMap* map, const char* key, size_t size) {
  if (map->capacity == 0) return NULL;
  FfiStrMapSlot* slot = probe(map->slots, map->capacity, key, size, ffi_str_hash(key, size));
  void* old = slot->value;
  if (old == NULL) return NULL;
  slot->value = TOMBSTONE;
  map->count--;
  return old;
}

void* ffi_str_map_next(const FfiStrMap* map, size_t* cursor) {
  while (*cursor < map->capacity) {
    void* value = map->slots[(*cursor)++].value;
    if (value != NULL && value != TOMBSTONE) return value;
  }
  return NULL;
}
