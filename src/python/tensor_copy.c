/*
 * tensor_copy.c -- __dlpack__(copy=True): the producer copies (the array API's rule), so a
 * consumer such as np.from_dlpack(t, copy=True) gets memory no one else writes.
 *
 * The copy is one allocation: the managed-tensor struct, the shape, then the data at a 64-byte
 * boundary (the alignment the runtime's allocator gives), laid out row-major (strides NULL).
 * Only host memory is copied here; a device tensor raises BufferError, which the DLPack
 * protocol names for an export the producer cannot make.
 */
#include "tensor_copy.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { kCopyAlign = 64 };

typedef union {
  DLManagedTensorVersioned versioned;
  DLManagedTensor legacy;
} CopyHeader;

static void free_versioned(DLManagedTensorVersioned* self) { free(self); }
static void free_legacy(DLManagedTensor* self) { free(self); }

/* Bytes per element, or 0 for sub-byte element types (packed: no element-wise copy). */
static size_t element_bytes(DLDataType dtype) {
  size_t bits = (size_t)dtype.bits * (size_t)dtype.lanes;
  return bits % 8 == 0 ? bits / 8 : 0;
}

/* Copies dimension `dim` onward of `src` (at byte address `from`) to the row-major `*to`. */
static void copy_strided(const DLTensor* src, int32_t dim, const char* from, char** to,
                         size_t elem) {
  int64_t extent = src->shape[dim];
  int64_t stride = src->strides[dim] * (int64_t)elem;
  if (dim == src->ndim - 1) {
    for (int64_t i = 0; i < extent; ++i, from += stride, *to += elem) memcpy(*to, from, elem);
    return;
  }
  for (int64_t i = 0; i < extent; ++i, from += stride) copy_strided(src, dim + 1, from, to, elem);
}

/* Whether `src` is laid out row-major already (size-1 dimensions may have any stride). */
static bool is_row_major(const DLTensor* src) {
  if (src->strides == NULL) return true;
  int64_t expected = 1;
  for (int32_t i = src->ndim - 1; i >= 0; --i) {
    if (src->shape[i] != 1 && src->strides[i] != expected) return false;
    expected *= src->shape[i];
  }
  return true;
}

/* The block holding the header (left zeroed), the shape and the copied data; *made describes
 * the copy, for the caller to place in its header. */
static CopyHeader* make_copy(const DLTensor* src, DLTensor* made) {
  if (src->device.device_type != kDLCPU) {
    PyErr_Format(PyExc_BufferError,
                 "__dlpack__(copy=True): only CPU tensors are copied here, this one is on device "
                 "type %d",
                 (int)src->device.device_type);
    return NULL;
  }
  size_t elem = element_bytes(src->dtype);
  if (elem == 0) {
    PyErr_SetString(PyExc_BufferError,
                    "__dlpack__(copy=True): elements smaller than a byte cannot be copied");
    return NULL;
  }
  size_t numel = 1;
  for (int32_t i = 0; i < src->ndim; ++i) {
    /* A producer's shape is not trusted: a product past memory would wrap the copy's size. */
    int64_t extent = src->shape[i];
    if (extent < 0 || (extent > 0 && numel > (SIZE_MAX / 2 / elem) / (size_t)extent)) {
      PyErr_SetString(PyExc_MemoryError, "__dlpack__(copy=True): the tensor is too large to copy");
      return NULL;
    }
    numel *= (size_t)extent;
  }
  size_t shape_end = sizeof(CopyHeader) + (size_t)src->ndim * sizeof(int64_t);
  size_t data_at = (shape_end + kCopyAlign - 1) / kCopyAlign * kCopyAlign;
  void* memory = NULL;
  if (posix_memalign(&memory, kCopyAlign, data_at + numel * elem) != 0) {
    PyErr_NoMemory();
    return NULL;
  }
  CopyHeader* block = (CopyHeader*)memory;
  memset(block, 0, sizeof(CopyHeader));
  int64_t* shape = (int64_t*)((char*)block + sizeof(CopyHeader));
  char* data = (char*)block + data_at;
  if (src->ndim > 0) memcpy(shape, src->shape, (size_t)src->ndim * sizeof(int64_t));
  const char* from = (const char*)src->data + src->byte_offset;
  if (numel > 0 && is_row_major(src)) {
    memcpy(data, from, numel * elem);
  } else if (numel > 0) {
    char* to = data;
    copy_strided(src, 0, from, &to, elem);
  }
  *made = (DLTensor){.data = data, .device = src->device, .ndim = src->ndim,
                     .dtype = src->dtype, .shape = src->ndim > 0 ? shape : NULL,
                     .strides = NULL, .byte_offset = 0};
  return block;
}

DLManagedTensorVersioned* core_tensor_copy_versioned(const DLTensor* src) {
  DLTensor made;
  CopyHeader* block = make_copy(src, &made);
  if (block == NULL) return NULL;
  DLManagedTensorVersioned* mt = &block->versioned;
  mt->version.major = DLPACK_MAJOR_VERSION;
  mt->version.minor = DLPACK_MINOR_VERSION;
  mt->deleter = free_versioned;
  mt->flags = DLPACK_FLAG_BITMASK_IS_COPIED;
  mt->dl_tensor = made;
  return mt;
}

DLManagedTensor* core_tensor_copy_legacy(const DLTensor* src) {
  DLTensor made;
  CopyHeader* block = make_copy(src, &made);
  if (block == NULL) return NULL;
  DLManagedTensor* mt = &block->legacy;
  mt->deleter = free_legacy;
  mt->dl_tensor = made;
  return mt;
}
