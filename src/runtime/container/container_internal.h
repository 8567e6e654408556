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

/* Registers the ffi.List*, ffi.Map* and ffi.Dict* global functions (called once by init.c). */
void ffi_register_map_list_globals(void);
/* list.c: the ffi.List* part of it. */
void ffi_register_list_globals(void);

#endif /* TVM_FFI_RUNTIME_CONTAINER_INTERNAL_H_ */
