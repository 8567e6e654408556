/*
 * structural/structural_leaf.c -- structural hash and equality of the values compared without
 * looking at other values: POD, strings, bytes, big integers, shapes and tensors (spec
 * STRUCTURAL.md sections 3.2 and 3.6).
 */
#include "structural.h"

uint64_t ffi_float_hash_bits(double v) {
  uint64_t bits;
  if (v != v) return 0x7ff8000000000000ULL;
  memcpy(&bits, &v, sizeof(bits));
  return bits;
}

/* Tensor content is hashed only when CPU and contiguous. */
int ffi_tensor_content(TVMFFIObject* obj, const char* what, const char** data, size_t* size) {
  const DLTensor* t = (const DLTensor*)((char*)obj + sizeof(TVMFFIObject));
  if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost) {
    return ffi_raise("RuntimeError", "Check failed: can only %s CPU tensor", what);
  }
  int64_t expect = 1;
  size_t numel = 1;
  for (int32_t i = t->ndim - 1; i >= 0; --i) {
    if (t->strides != NULL && t->shape[i] != 1 && t->strides[i] != expect) {
      return ffi_raise("RuntimeError", "Check failed: (lhs.IsContiguous()) is false: Can only %s contiguous tensor", what);
    }
    expect *= t->shape[i];
    numel *= (size_t)t->shape[i];
  }
  *size = numel * (((size_t)t->dtype.bits * t->dtype.lanes + 7) / 8);
  *data = (const char*)t->data + t->byte_offset;
  return 0;
}

int ffi_leaf_structural_hash(const TVMFFIAny* v, bool skip_tensor_content, uint64_t* out) {
  TVMFFIByteArray s;
  int32_t t = v->type_index;
  if (t == kTVMFFIFloat) {
    *out = ffi_hash_combine(kTVMFFIFloat, ffi_float_hash_bits(v->v_float64));
  } else if (ffi_is_str(t)) {
    ffi_string_view(v, &s);
    *out = ffi_hash_combine(kTVMFFIStr, ffi_hash_bytes(s.data, s.size));
  } else if (t == kTVMFFIBytes) {
    ffi_string_view(v, &s);
    *out = ffi_hash_combine(kTVMFFIBytes, ffi_hash_bytes(s.data, s.size));
  } else if (t == kTVMFFIBigInt) {
    TVMFFIByteArray words = TVMFFIBigIntGetContentByteArray(v);
    *out = ffi_hash_combine(kTVMFFIBigInt, ffi_hash_bytes(words.data, words.size));
  } else if (t == kTVMFFIShape) {
    const TVMFFIShapeCell* cell = (const TVMFFIShapeCell*)((char*)v->v_obj + sizeof(TVMFFIObject));
    uint64_t h = ffi_hash_combine(ffi_type_key_hash_of(kTVMFFIShape), cell->size);
    for (size_t i = 0; i < cell->size; ++i) h = ffi_hash_combine(h, (uint64_t)cell->data[i]);
    *out = h;
  } else if (t == kTVMFFITensor) {
    const DLTensor* dl = (const DLTensor*)((char*)v->v_obj + sizeof(TVMFFIObject));
    uint64_t h = ffi_hash_combine(ffi_type_key_hash_of(kTVMFFITensor), (uint64_t)dl->ndim);
    for (int32_t i = 0; i < dl->ndim; ++i) h = ffi_hash_combine(h, (uint64_t)dl->shape[i]);
    uint64_t dt = (uint64_t)dl->dtype.code | ((uint64_t)dl->dtype.bits << 8) |
                  ((uint64_t)dl->dtype.lanes << 16);
    h = ffi_hash_combine(h, dt);
    if (!skip_tensor_content) {
      const char* data;
      size_t size;
      if (ffi_tensor_content(v->v_obj, "hash", &data, &size) != 0) return -1;
      h = ffi_hash_combine(h, ffi_hash_bytes(data, size));
    }
    *out = h;
  } else {
    /* None, int, bool, dtype, device, small bytes, pointers: the 8-byte payload. */
    *out = ffi_hash_combine((uint64_t)(int64_t)t, v->v_uint64);
  }
  return 0;
}

bool ffi_leaf_structural_equal(const TVMFFIAny* a, const TVMFFIAny* b, bool skip_tensor_content,
                       int* error) {
  int32_t ta = a->type_index, tb = b->type_index;
  TVMFFIByteArray sa, sb;
  *error = 0;
  if ((ffi_is_str(ta) && ffi_is_str(tb)) || (ffi_is_bytes(ta) && ffi_is_bytes(tb))) {
    ffi_string_view(a, &sa);
    ffi_string_view(b, &sb);
    return sa.size == sb.size && memcmp(sa.data, sb.data, sa.size) == 0;
  }
  if (ta != tb) return false;
  if (ta == kTVMFFIFloat) {
    if (a->v_float64 != a->v_float64) return b->v_float64 != b->v_float64;
    return a->v_uint64 == b->v_uint64;
  }
  if (!ffi_is_object_index(ta)) return a->v_uint64 == b->v_uint64;
  if (a->v_obj == b->v_obj) return true;
  if (ta == kTVMFFIBigInt) {
    sa = TVMFFIBigIntGetContentByteArray(a);
    sb = TVMFFIBigIntGetContentByteArray(b);
    return sa.size == sb.size && memcmp(sa.data, sb.data, sa.size) == 0;
  }
  if (ta == kTVMFFIShape) {
    const TVMFFIShapeCell* ca = (const TVMFFIShapeCell*)((char*)a->v_obj + sizeof(TVMFFIObject));
    const TVMFFIShapeCell* cb = (const TVMFFIShapeCell*)((char*)b->v_obj + sizeof(TVMFFIObject));
    return ca->size == cb->size && memcmp(ca->data, cb->data, ca->size * sizeof(int64_t)) == 0;
  }
  if (ta == kTVMFFITensor) {
    const DLTensor* x = (const DLTensor*)((char*)a->v_obj + sizeof(TVMFFIObject));
    const DLTensor* y = (const DLTensor*)((char*)b->v_obj + sizeof(TVMFFIObject));
    if (x->ndim != y->ndim || memcmp(x->shape, y->shape, (size_t)x->ndim * sizeof(int64_t)) != 0 ||
        x->dtype.code != y->dtype.code || x->dtype.bits != y->dtype.bits ||
        x->dtype.lanes != y->dtype.lanes) {
      return false;
    }
    if (skip_tensor_content) return true;
    const char *da, *db;
    size_t na, nb;
    if (ffi_tensor_content(a->v_obj, "compare", &da, &na) != 0 ||
        ffi_tensor_content(b->v_obj, "compare", &db, &nb) != 0) {
      *error = -1;
      return false;
    }
    return na == nb && memcmp(da, db, na) == 0;
  }
  return false;
}

