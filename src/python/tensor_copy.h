/*
 * tensor_copy.h -- compact host copies of tensors for __dlpack__(copy=True) (tensor_copy.c).
 */
#ifndef TVM_FFI_PYTHON_TENSOR_COPY_H_
#define TVM_FFI_PYTHON_TENSOR_COPY_H_

#include "base.h"

/* A row-major copy of the CPU tensor `src` in one new allocation, flagged IS_COPIED and
 * writable; its deleter frees it. NULL with BufferError (not a CPU tensor, sub-byte elements)
 * or MemoryError. */
DLManagedTensorVersioned* core_tensor_copy_versioned(const DLTensor* src);
/* The same in the legacy (unversioned) struct. */
DLManagedTensor* core_tensor_copy_legacy(const DLTensor* src);

#endif /* TVM_FFI_PYTHON_TENSOR_COPY_H_ */
