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

/* Register the ffi.Map* and ffi.Dict* (map.c) and the ffi.List* (list.c) global functions
 * (called once by init.c). */
void ffi_register_map_globals(void);
void ffi_register_list_globals(void);

#endif /* TVM_FFI_RUNTIME_CONTAINER_INTERNAL_H_ */
