/*
 * container/container_internal.h -- what the List/Map/Dict files share: the hashing and equality
 * rules of map keys (AnyHash / AnyEqual) and the buffer deleter that C++ kernels may call.
 */
#ifndef TVM_FFI_RUNTIME_CONTAINER_INTERNAL_H_
#define TVM_FFI_RUNTIME_CONTAINER_INTERNAL_H_

#include "../internal.h"

/* Frees a separately allocated container buffer (List data, map storage). Kernels call the
 * data_deleter of a foreign List on buffers they got from ::operator new, so this must be
 * plain free() and must accept NULL. */
void ffi_container_buffer_free(void* data);

/* AnyHash / AnyEqual of owned values (no raw-string views), bit-identical to the inline C++
 * functors: maps built here are probed by kernels and vice versa. Objects whose type defines
 * `__any_hash__` / `__any_equal__` use those; if such a callback fails, the error is dropped and
 * identity hashing/equality is used instead, because a map operation cannot unwind midway. */
uint64_t ffi_any_hash(const TVMFFIAny* value);
bool ffi_any_equal(const TVMFFIAny* lhs, const TVMFFIAny* rhs);

/* content_equal.c: equality as Python's `==` on containers sees it (1 equal, 0 not, -1 error
 * raised: nesting too deep) and a hash that agrees with it; ffi._ContentEqual/_ContentHash. */
int ffi_content_equal(const TVMFFIAny* lhs, const TVMFFIAny* rhs);
uint64_t ffi_content_hash(const TVMFFIAny* value);
void ffi_register_content_globals(void);

/* Positions of a Map/Dict's entries in insertion order (map.c), for map_globals.c; a position
 * stays valid until the map is changed. FFI_MAP_NO_POS: absent, or past the last entry. */
#define FFI_MAP_NO_POS UINT64_MAX
uint64_t ffi_map_find_pos(TVMFFIObject* map, const TVMFFIAny* key);
uint64_t ffi_map_first_pos(TVMFFIObject* map);
uint64_t ffi_map_after_pos(TVMFFIObject* map, uint64_t pos);
bool ffi_map_pos_valid(TVMFFIObject* map, uint64_t pos);
TVMFFIAny* ffi_map_key_at(TVMFFIObject* map, uint64_t pos);
TVMFFIAny* ffi_map_value_at(TVMFFIObject* map, uint64_t pos);
void ffi_map_erase_pos(TVMFFIObject* map, uint64_t pos);
/* Empties a Dict in place (fresh small storage); -1 after raising MemoryError. */
int ffi_map_clear(TVMFFIObject* map);

/* Register the ffi.Map* and ffi.Dict* (map_globals.c) and the ffi.List* (list.c) global functions
 * (called once by init.c). */
void ffi_register_map_globals(void);
void ffi_register_list_globals(void);
/* ffi.ContainerFindFirstNonCPUDevice (device_scan.c). */
void ffi_register_device_scan_globals(void);

#endif /* TVM_FFI_RUNTIME_CONTAINER_INTERNAL_H_ */
