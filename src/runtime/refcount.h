/*
 * refcount.h -- the layout of TVMFFIObject.combined_ref_count: strong count in the low 32 bits,
 * weak count in the high 32 bits. Shared by the runtime and by the Python extension, which
 * makes tensor objects of its own (src/python/tensor_view.c).
 */
#ifndef TVM_FFI_RUNTIME_REFCOUNT_H_
#define TVM_FFI_RUNTIME_REFCOUNT_H_

#include <stdint.h>

#define FFI_STRONG_ONE ((uint64_t)1)
#define FFI_WEAK_ONE ((uint64_t)1 << 32)
/* A fresh object: one strong reference plus the weak reference all strong ones share. */
#define FFI_FRESH_REFCOUNT (FFI_WEAK_ONE | FFI_STRONG_ONE)

#endif /* TVM_FFI_RUNTIME_REFCOUNT_H_ */
