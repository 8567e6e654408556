/*
 * object_api_internal.h -- allocation that raises MemoryError on failure (object_api.c).
 */
#ifndef TVM_FFI_RUNTIME_OBJECT_API_INTERNAL_H_
#define TVM_FFI_RUNTIME_OBJECT_API_INTERNAL_H_

#include "runtime_base.h"

/* Allocates `size` zeroed bytes (size >= sizeof(TVMFFIObject)) and initialises the header with
 * a fresh refcount. Returns NULL after raising MemoryError. */
TVMFFIObject* ffi_object_alloc(size_t size, int32_t type_index, void (*deleter)(void*, int));
/* ffi_object_alloc without zeroing the body, for objects that write every field they have
 * (an Array of n elements: zeroing would write each element twice). */
TVMFFIObject* ffi_object_alloc_uninit(size_t size, int32_t type_index,
                                      void (*deleter)(void*, int));

#endif /* TVM_FFI_RUNTIME_OBJECT_API_INTERNAL_H_ */
