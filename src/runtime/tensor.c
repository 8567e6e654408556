/*
 * tensor.c -- tensor objects (DLPack import and export, unsafe views) and shape objects.
 *
 * Layout: the object header, then the DLTensor at +24 that inline C++
 * reads directly, then private fields. A tensor is backed either by a producer's managed tensor
 * (legacy or versioned; its deleter runs exactly once when the tensor dies) or, for unsafe
 * views, by a strong reference to a source object. Tensors we make always carry strides when
 * ndim > 0: when the producer gives none, compact row-major strides are stored in the tail of
 * the same block.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

typedef enum {
  kBackingLegacy = 0,    /* DLManagedTensor */
  kBackingVersioned = 1, /* DLManagedTensorVersioned */
  kBackingView = 2,      /* TVMFFITensorCreateUnsafeView: holds `source` */
} TensorBacking;

typedef struct {
  TVMFFIObject header;
  DLTensor tensor;      /* +24, read inline by kernels */
  void* managed;        /* the producer's managed tensor (legacy or versioned), or NULL */
  TVMFFIObject* source; /* views: keeps the viewed memory alive */
  int32_t backing;      /* a TensorBacking */
  int64_t tail[];       /* compact strides, or a view's shape followed by its strides */
} TensorObject;

typedef struct {
  TVMFFIObject header;
  TVMFFIShapeCell cell;
  int64_t data[];
} ShapeObject;

/* ---- shape objects ---- */

static void shape_destroy(void* self) { (void)self; /* elements live in the same block */ }
FFI_DEFINE_DELETER(shape_deleter, shape_destroy)

/* A shape object with room for n extents, elements left zero. NULL after raising. */
static ShapeObject* shape_alloc(size_t n) {
  if (n > (SIZE_MAX - sizeof(ShapeObject)) / sizeof(int64_t)) {
    ffi_raise("MemoryError", "shape of %zu extents is too large", n);
    return NULL;
  }
  ShapeObject* obj = (ShapeObject*)ffi_object_alloc(sizeof(ShapeObject) + n * sizeof(int64_t),
                                                    kTVMFFIShape, shape_deleter);
  if (obj == NULL) return NULL;
  obj->cell.data = obj->data;
  obj->cell.size = n;
  return obj;
}

int ffi_shape_new(const int64_t* data, size_t n, TVMFFIObject** out) {
  if (data == NULL && n != 0) {
    return ffi_raise("ValueError", "ffi_shape_new: NULL data for %zu extents", n);
  }
  ShapeObject* obj = shape_alloc(n);
  if (obj == NULL) return -1;
  if (n != 0) memcpy(obj->data, data, n * sizeof(int64_t));
  *out = &obj->header;
  return 0;
}

/* ffi.Shape(*ints) -> Shape. Only ints: a bool or float extent is a caller mistake. */
static int shape_global(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  for (int32_t i = 0; i < num_args; ++i) {
    if (args[i].type_index != kTVMFFIInt) {
      TVMFFIByteArray key = ffi_type_key_of(args[i].type_index);
      return ffi_raise("ValueError",
                       "Expect shape to take list of int arguments, but argument #%d of "
                       "ffi.Shape is `%.*s`",
                       (int)i, (int)key.size, key.data);
    }
  }
  ShapeObject* obj = shape_alloc(num_args > 0 ? (size_t)num_args : 0);
  if (obj == NULL) return -1;
  for (int32_t i = 0; i < num_args; ++i) obj->data[i] = args[i].v_int64;
  ffi_ret_object(result, &obj->header);
  return 0;
}

void ffi_register_tensor_globals(void) { ffi_register_builtin("ffi.Shape", shape_global); }

/* ---- tensor objects ---- */

static void tensor_destroy(void* self) {
  TensorObject* obj = (TensorObject*)self;
  switch (obj->backing) {
    case kBackingLegacy: {
      DLManagedTensor* mt = (DLManagedTensor*)obj->managed;
      if (mt != NULL && mt->deleter != NULL) mt->deleter(mt);
      break;
    }
    case kBackingVersioned: {
      DLManagedTensorVersioned* mt = (DLManagedTensorVersioned*)obj->managed;
      if (mt != NULL && mt->deleter != NULL) mt->deleter(mt);
      break;
    }
    default:
      if (obj->source != NULL) ffi_decref(obj->source);
      break;
  }
  obj->managed = NULL;
  obj->source = NULL;
}
FFI_DEFINE_DELETER(tensor_deleter, tensor_destroy)

static TensorObject* tensor_alloc(size_t tail_count) {
  return (TensorObject*)ffi_object_alloc(sizeof(TensorObject) + tail_count * sizeof(int64_t),
                                         kTVMFFITensor, tensor_deleter);
}

/* Device memory the host can address directly, where data pointers themselves are aligned. */
static bool is_directly_addressable(int32_t device_type) {
  return device_type == kDLCPU || device_type == kDLCUDA || device_type == kDLCUDAHost ||
         device_type == kDLROCM || device_type == kDLROCMHost || device_type == kDLCUDAManaged;
}

/* Writes "[a, b, c]" (or "NULL") into buf, truncating quietly; for error messages only. */
static const char* format_extents(const int64_t* v, int32_t n, char* buf, size_t cap) {
  if (v == NULL) return "NULL";
  size_t at = 0;
  at += (size_t)snprintf(buf + at, cap - at, "[");
  for (int32_t i = 0; i < n && at < cap; ++i) {
    at += (size_t)snprintf(buf + at, cap - at, i == 0 ? "%" PRId64 : ", %" PRId64, v[i]);
  }
  if (at < cap) snprintf(buf + at, cap - at, "]");
  return buf;
}

/* Row-major contiguity: dims of extent 1 may have any stride; an empty tensor is contiguous. */
static bool is_contiguous(const DLTensor* t) {
  if (t->strides == NULL) return true;
  for (int32_t i = 0; i < t->ndim; ++i) {
    if (t->shape[i] == 0) return true;
  }
  int64_t expected = 1;
  for (int32_t i = t->ndim - 1; i >= 0; --i) {
    if (t->shape[i] == 1) continue;
    if (t->strides[i] != expected) return false;
    expected *= t->shape[i]; /* bounded by validate_layout */
  }
  return true;
}

/* Structural checks every imported DLTensor must pass, whatever the caller asked for. Also
 * makes sure the product of the non-zero extents fits in int64, so that no stride arithmetic
 * below can overflow (even for empty tensors, whose compact strides still multiply extents). */
static int validate_layout(const char* api, const DLTensor* t) {
  if (t->ndim < 0) return ffi_raise("ValueError", "%s: ndim must be >= 0, got %d", api, (int)t->ndim);
  /* lanes is 1 for scalars, L for vectors and (uint16)-L for scalable ones; 0 means no data. */
  if (t->dtype.lanes == 0) {
    return ffi_raise("ValueError", "%s: dtype (code=%d, bits=%d) has lanes = 0", api,
                     (int)t->dtype.code, (int)t->dtype.bits);
  }
  if (t->ndim > 0 && t->shape == NULL) {
    return ffi_raise("ValueError", "%s: shape is NULL while ndim is %d", api, (int)t->ndim);
  }
  int64_t product = 1;
  for (int32_t i = 0; i < t->ndim; ++i) {
    if (t->shape[i] < 0) {
      return ffi_raise("ValueError", "%s: shape[%d] is negative (%" PRId64 ")", api, (int)i,
                       t->shape[i]);
    }
    if (t->shape[i] > 1 && __builtin_mul_overflow(product, t->shape[i], &product)) {
      return ffi_raise("ValueError", "%s: the product of the extents overflows int64", api);
    }
  }
  return 0;
}

/* The checks of TVMFFITensorFromDLPack*: layout, alignment, contiguity. Failures leave
 * `from` with the caller. */
static int check_import(const char* api, const DLTensor* t, int32_t require_alignment,
                        int32_t require_contiguous) {
  if (validate_layout(api, t) != 0) return -1;
  if (require_alignment < 0) {
    return ffi_raise("ValueError", "%s: require_alignment must be >= 0, got %d", api,
                     (int)require_alignment);
  }
  if (require_alignment != 0) {
    uint64_t align = (uint64_t)require_alignment;
    if (is_directly_addressable(t->device.device_type)) {
      uint64_t addr = (uint64_t)(uintptr_t)t->data + t->byte_offset;
      if (addr % align != 0) {
        return ffi_raise("RuntimeError",
                         "%s: Data is not aligned to %d bytes: data %p + byte_offset %" PRIu64
                         " = 0x%" PRIx64,
                         api, (int)require_alignment, t->data, t->byte_offset, addr);
      }
    } else if (t->byte_offset % align != 0) {
      return ffi_raise("RuntimeError",
                       "%s: Data is not aligned to %d bytes: byte_offset %" PRIu64
                       " on device type %d",
                       api, (int)require_alignment, t->byte_offset, (int)t->device.device_type);
    }
  }
  if (require_contiguous && !is_contiguous(t)) {
    char shape_buf[160], strides_buf[160];
    return ffi_raise("RuntimeError", "%s: Tensor is not contiguous: shape %s, strides %s", api,
                     format_extents(t->shape, t->ndim, shape_buf, sizeof(shape_buf)),
                     format_extents(t->strides, t->ndim, strides_buf, sizeof(strides_buf)));
  }
  return 0;
}

static void fill_compact_strides(const int64_t* shape, int32_t ndim, int64_t* strides) {
  int64_t stride = 1;
  for (int32_t i = ndim - 1; i >= 0; --i) {
    strides[i] = stride;
    if (shape[i] > 1) stride *= shape[i]; /* bounded by validate_layout */
  }
}

/* Wraps a validated managed tensor; `t` points at its dl_tensor. Takes ownership on success. */
static int wrap_managed(void* managed, TensorBacking backing, const DLTensor* t,
                        TVMFFIObjectHandle* out) {
  bool need_strides = t->strides == NULL && t->ndim > 0;
  TensorObject* obj = tensor_alloc(need_strides ? (size_t)t->ndim : 0);
  if (obj == NULL) return -1;
  obj->tensor = *t;
  if (need_strides) {
    fill_compact_strides(t->shape, t->ndim, obj->tail);
    obj->tensor.strides = obj->tail;
  }
  obj->managed = managed;
  obj->backing = backing;
  *out = obj;
  return 0;
}

int TVMFFITensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                           int32_t require_contiguous, TVMFFIObjectHandle* out) {
  static const char* api = "TVMFFITensorFromDLPack";
  if (from == NULL || out == NULL) return ffi_raise("ValueError", "%s: from and out are required", api);
  if (check_import(api, &from->dl_tensor, require_alignment, require_contiguous) != 0) return -1;
  return wrap_managed(from, kBackingLegacy, &from->dl_tensor, out);
}

int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* from, int32_t require_alignment,
                                    int32_t require_contiguous, TVMFFIObjectHandle* out) {
  static const char* api = "TVMFFITensorFromDLPackVersioned";
  if (from == NULL || out == NULL) return ffi_raise("ValueError", "%s: from and out are required", api);
  if (from->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED) {
    return ffi_raise("RuntimeError",
                     "%s: Subbyte type padded is not yet supported (flags 0x%" PRIx64
                     " has DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED)",
                     api, from->flags);
  }
  if (check_import(api, &from->dl_tensor, require_alignment, require_contiguous) != 0) return -1;
  return wrap_managed(from, kBackingVersioned, &from->dl_tensor, out);
}

static int check_tensor_handle(const char* api, TVMFFIObjectHandle from, const void* out) {
  if (from == NULL || out == NULL) return ffi_raise("ValueError", "%s: from and out are required", api);
  int32_t index = ((TVMFFIObject*)from)->type_index;
  if (index != kTVMFFITensor) {
    TVMFFIByteArray key = ffi_type_key_of(index);
    return ffi_raise("TypeError", "%s: expected `ffi.Tensor` but got `%.*s`", api, (int)key.size,
                     key.data);
  }
  return 0;
}

/* DLPACK_FLAG_BITMASK_READ_ONLY when `from` is one of our tensors imported from a read-only
 * versioned producer: exporting it again must not make the memory writable. (Tensors made
 * elsewhere, by kernels or other libraries, carry no flag this runtime could read.) */
static uint64_t read_only_flag(TVMFFIObjectHandle from) {
  const TensorObject* obj = (const TensorObject*)from;
  if (obj->header.deleter != tensor_deleter || obj->backing != kBackingVersioned) return 0;
  const DLManagedTensorVersioned* mt = (const DLManagedTensorVersioned*)obj->managed;
  return mt != NULL ? (mt->flags & DLPACK_FLAG_BITMASK_READ_ONLY) : 0;
}

/* Exported managed tensors hold one strong reference to the tensor in manager_ctx. */
static void exported_legacy_deleter(DLManagedTensor* self) {
  ffi_decref((TVMFFIObject*)self->manager_ctx);
  free(self);
}

static void exported_versioned_deleter(DLManagedTensorVersioned* self) {
  ffi_decref((TVMFFIObject*)self->manager_ctx);
  free(self);
}

int TVMFFITensorToDLPack(TVMFFIObjectHandle from, DLManagedTensor** out) {
  if (check_tensor_handle("TVMFFITensorToDLPack", from, out) != 0) return -1;
  /* malloc, not calloc: glibc's calloc skips the per-thread cache, and every field is set. */
  DLManagedTensor* mt = (DLManagedTensor*)malloc(sizeof(DLManagedTensor));
  if (mt == NULL) return ffi_raise("MemoryError", "TVMFFITensorToDLPack: out of memory");
  *mt = (DLManagedTensor){0};
  mt->dl_tensor = ((TensorObject*)from)->tensor;
  mt->manager_ctx = from;
  mt->deleter = exported_legacy_deleter;
  ffi_incref((TVMFFIObject*)from);
  *out = mt;
  return 0;
}

int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle from, DLManagedTensorVersioned** out) {
  if (check_tensor_handle("TVMFFITensorToDLPackVersioned", from, out) != 0) return -1;
  DLManagedTensorVersioned* mt =
      (DLManagedTensorVersioned*)malloc(sizeof(DLManagedTensorVersioned));
  if (mt == NULL) return ffi_raise("MemoryError", "TVMFFITensorToDLPackVersioned: out of memory");
  *mt = (DLManagedTensorVersioned){0};
  mt->version.major = DLPACK_MAJOR_VERSION;
  mt->version.minor = DLPACK_MINOR_VERSION;
  mt->manager_ctx = from;
  mt->deleter = exported_versioned_deleter;
  mt->flags = read_only_flag(from);
  mt->dl_tensor = ((TensorObject*)from)->tensor;
  ffi_incref((TVMFFIObject*)from);
  *out = mt;
  return 0;
}

int TVMFFITensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype,
                                 TVMFFIObjectHandle* out) {
  static const char* api = "TVMFFITensorCreateUnsafeView";
  if (source == NULL || prototype == NULL || out == NULL) {
    return ffi_raise("ValueError", "%s: source, prototype and out are required", api);
  }
  if (validate_layout(api, prototype) != 0) return -1;
  int32_t ndim = prototype->ndim;
  if (ndim > 0 && prototype->strides == NULL) {
    return ffi_raise("ValueError", "%s: prototype strides must not be NULL (ndim %d)", api,
                     (int)ndim);
  }
  TensorObject* obj = tensor_alloc(2 * (size_t)ndim);
  if (obj == NULL) return -1;
  obj->tensor = *prototype;
  if (ndim > 0) {
    memcpy(obj->tail, prototype->shape, (size_t)ndim * sizeof(int64_t));
    memcpy(obj->tail + ndim, prototype->strides, (size_t)ndim * sizeof(int64_t));
    obj->tensor.shape = obj->tail;
    obj->tensor.strides = obj->tail + ndim;
  } else {
    obj->tensor.shape = NULL;
    obj->tensor.strides = NULL;
  }
  obj->backing = kBackingView;
  obj->source = (TVMFFIObject*)source;
  ffi_incref(obj->source);
  *out = obj;
  return 0;
}
