/*
 * container/map_layout.h -- the memory of an ffi.Map / ffi.Dict object (spec/ABI.md 4.4), which
 * kernels built against the reference headers read and write inline. Shared by the runtime
 * (map.c builds and probes it) and by the Python extension (src/python/map_walk.c walks it), as
 * function_object.h is.
 *
 * Bit 63 of `slots` tags the small layout: `data` -> key/value pairs in insertion order. The
 * dense layout: `data` -> blocks of MAP_BLOCK_SLOTS metadata bytes and as many items; `prev` and
 * `next` link the items in insertion order from `iter_head` (UINT64_MAX ends the list).
 */
#ifndef TVM_FFI_RUNTIME_CONTAINER_MAP_LAYOUT_H_
#define TVM_FFI_RUNTIME_CONTAINER_MAP_LAYOUT_H_

#include <stddef.h>
#include <stdint.h>
#include <tvm/ffi/c_api.h>

#define MAP_SMALL_TAG ((uint64_t)1 << 63)
#define MAP_BLOCK_SLOTS 16

typedef struct {
  TVMFFIObject header;
  void* data;
  uint64_t size;
  uint64_t slots;
  void (*data_deleter)(void*);
  uint32_t fib_shift; /* dense only, like the three fields below */
  uint32_t padding;
  uint64_t iter_head;
  uint64_t iter_tail;
} MapObject;

typedef struct {
  TVMFFIAny key;
  TVMFFIAny value;
} MapPair;

typedef struct {
  TVMFFIAny key;
  TVMFFIAny value;
  uint64_t prev;
  uint64_t next;
} MapItem;

typedef struct {
  uint8_t meta[MAP_BLOCK_SLOTS];
  MapItem items[MAP_BLOCK_SLOTS];
} MapBlock;

_Static_assert(offsetof(MapObject, data) == 24 && offsetof(MapObject, slots) == 40, "map base");
_Static_assert(offsetof(MapObject, fib_shift) == 56 && offsetof(MapObject, iter_tail) == 72,
               "dense fields at +56..+80");
_Static_assert(sizeof(MapPair) == 32 && sizeof(MapItem) == 48, "pair/item sizes");
_Static_assert(sizeof(MapBlock) == 784, "block size");

#endif /* TVM_FFI_RUNTIME_CONTAINER_MAP_LAYOUT_H_ */
