/*
 * structural/value_text.c -- printed forms of leaf values shared by ReprPrint and access-path
 * reprs: numbers, strings, bytes, dtypes, devices, shapes, tensors, big integers.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "value_text.h"

static const char* device_name(int32_t device_type) {
  switch (device_type) {
    case 1: return "cpu";
    case 2: return "cuda";
    case 3: return "cuda_host";
    case 4: return "opencl";
    case 7: return "vulkan";
    case 8: return "metal";
    case 9: return "vpi";
    case 10: return "rocm";
    case 11: return "rocm_host";
    case 12: return "ext_dev";
    case 13: return "cuda_managed";
    case 14: return "oneapi";
    case 15: return "webgpu";
    case 16: return "hexagon";
    case 17: return "maia";
    case 18: return "trn";
    default: return "unknown";
  }
}

int ffi_text_device(FfiBuf* b, DLDevice dev) {
  return ffi_buf_printf(b, "%s:%d", device_name((int32_t)dev.device_type), (int)dev.device_id);
}

int ffi_text_dtype(FfiBuf* b, DLDataType dtype) {
  TVMFFIAny s = ffi_any_none();
  if (TVMFFIDataTypeToString(&dtype, &s) != 0) return -1;
  TVMFFIByteArray view;
  int rc = ffi_string_view(&s, &view) ? ffi_buf_append(b, view.data, view.size) : 0;
  ffi_any_release(&s);
  return rc;
}

/* Length of the valid UTF-8 sequence at p (2..4), or 0. */
static size_t utf8_sequence(const unsigned char* p, size_t left, uint32_t* cp) {
  size_t n;
  uint32_t c;
  if (p[0] >= 0xC2 && p[0] <= 0xDF) {
    n = 2;
    c = p[0] & 0x1F;
  } else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
    n = 3;
    c = p[0] & 0x0F;
  } else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
    n = 4;
    c = p[0] & 0x07;
  } else {
    return 0;
  }
  if (left < n) return 0;
  for (size_t i = 1; i < n; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    c = (c << 6) | (p[i] & 0x3F);
  }
  if ((n == 3 && (c < 0x800 || (c >= 0xD800 && c <= 0xDFFF))) || (n == 4 && (c < 0x10000 || c > 0x10FFFF))) {
    return 0;
  }
  *cp = c;
  return n;
}

int ffi_text_str(FfiBuf* b, const char* data, size_t size) {
  if (ffi_buf_reserve(b, size + 2) != 0 || ffi_buf_puts(b, "\"") != 0) return -1;
  const unsigned char* p = (const unsigned char*)data;
  for (size_t i = 0; i < size;) {
    unsigned char c = p[i];
    int rc = 0;
    if (c == '\n') rc = ffi_buf_puts(b, "\\n");
    else if (c == '\t') rc = ffi_buf_puts(b, "\\t");
    else if (c == '\r') rc = ffi_buf_puts(b, "\\r");
    else if (c == '\\') rc = ffi_buf_puts(b, "\\\\");
    else if (c == '"') rc = ffi_buf_puts(b, "\\\"");
    else if (c < 0x20 || c == 0x7F) rc = ffi_buf_printf(b, "\\x%02x", c);
    else if (c < 0x80) rc = ffi_buf_append(b, (const char*)&p[i], 1);
    else {
      uint32_t cp;
      size_t n = utf8_sequence(p + i, size - i, &cp);
      if (n == 0) {
        rc = ffi_buf_printf(b, "\\x%02x", c);
      } else {
        rc = n == 4 ? ffi_buf_printf(b, "\\U%08" PRIx32, cp) : ffi_buf_printf(b, "\\u%04" PRIx32, cp);
        i += n;
        if (rc != 0) return -1;
        continue;
      }
    }
    if (rc != 0) return -1;
    i += 1;
  }
  return ffi_buf_puts(b, "\"");
}

int ffi_text_bytes(FfiBuf* b, const char* data, size_t size) {
  if (ffi_buf_puts(b, "b\"") != 0) return -1;
  for (size_t i = 0; i < size; ++i) {
    unsigned char c = (unsigned char)data[i];
    int rc = (c >= 0x20 && c <= 0x7E && c != '"' && c != '\\') ? ffi_buf_append(b, (const char*)&c, 1)
                                                             : ffi_buf_printf(b, "\\x%02x", c);
    if (rc != 0) return -1;
  }
  return ffi_buf_puts(b, "\"");
}

int ffi_text_bigint(FfiBuf* b, const TVMFFIAny* value) {
  TVMFFIByteArray content = TVMFFIBigIntGetContentByteArray(value);
  size_t words = content.size / 8;
  if (words == 0) return ffi_buf_puts(b, "0");
  /* Magnitude as 32-bit limbs, least significant first. */
  size_t n = words * 2;
  uint32_t* limbs = (uint32_t*)malloc(n * sizeof(uint32_t));
  char* digits = (char*)malloc(n * 10 + 2);
  if (limbs == NULL || digits == NULL) {
    free(limbs);
    free(digits);
    return ffi_raise("MemoryError", "out of memory printing a big integer");
  }
  memcpy(limbs, content.data, words * 8);
  bool negative = (limbs[n - 1] & 0x80000000u) != 0;
  if (negative) { /* two's complement negate */
    uint64_t carry = 1;
    for (size_t i = 0; i < n; ++i) {
      uint64_t v = (uint64_t)(uint32_t)~limbs[i] + carry;
      limbs[i] = (uint32_t)v;
      carry = v >> 32;
    }
  }
  size_t nd = 0;
  size_t top = n;
  while (top > 0 && limbs[top - 1] == 0) --top;
  while (top > 0) {
    uint64_t rem = 0;
    for (size_t i = top; i-- > 0;) {
      uint64_t cur = (rem << 32) | limbs[i];
      limbs[i] = (uint32_t)(cur / 1000000000u);
      rem = cur % 1000000000u;
    }
    while (top > 0 && limbs[top - 1] == 0) --top;
    for (int k = 0; k < 9 && (top > 0 || rem != 0); ++k) {
      digits[nd++] = (char)('0' + rem % 10);
      rem /= 10;
    }
  }
  if (nd == 0) digits[nd++] = '0';
  if (negative) digits[nd++] = '-';
  int rc = ffi_buf_reserve(b, nd);
  if (rc == 0) {
    for (size_t i = nd; i-- > 0;) b->data[b->size++] = digits[i];
  }
  free(limbs);
  free(digits);
  return rc;
}

int ffi_text_shape_dims(FfiBuf* b, const int64_t* dims, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if ((i != 0 && ffi_buf_append(b, ", ", 2) != 0) || ffi_buf_put_i64(b, dims[i]) != 0) return -1;
  }
  return 0;
}

int ffi_text_tensor(FfiBuf* b, TVMFFIObject* obj) {
  const DLTensor* t = (const DLTensor*)((char*)obj + sizeof(TVMFFIObject));
  if (ffi_text_dtype(b, t->dtype) != 0 || ffi_buf_puts(b, "[") != 0 ||
      ffi_text_shape_dims(b, t->shape, t->ndim > 0 ? (size_t)t->ndim : 0) != 0 ||
      ffi_buf_puts(b, "]@") != 0) {
    return -1;
  }
  return ffi_text_device(b, t->device);
}

int ffi_text_leaf(FfiBuf* b, const TVMFFIAny* v) {
  TVMFFIByteArray s;
  switch (v->type_index) {
    case kTVMFFINone: return ffi_buf_puts(b, "None");
    case kTVMFFIBool: return ffi_buf_puts(b, v->v_int64 ? "True" : "False");
    case kTVMFFIInt: return ffi_buf_put_i64(b, v->v_int64); /* no printf: arrays of ints are common */
    case kTVMFFIFloat: return ffi_buf_printf(b, "%g", v->v_float64);
    case kTVMFFIDataType: return ffi_text_dtype(b, v->v_dtype);
    case kTVMFFIDevice: return ffi_text_device(b, v->v_device);
    case kTVMFFIBigInt: return ffi_text_bigint(b, v);
    case kTVMFFITensor: return ffi_text_tensor(b, v->v_obj);
    case kTVMFFIShape: {
      const TVMFFIShapeCell* cell = (const TVMFFIShapeCell*)((char*)v->v_obj + sizeof(TVMFFIObject));
      if (ffi_buf_puts(b, "Shape(") != 0 || ffi_text_shape_dims(b, cell->data, cell->size) != 0) {
        return -1;
      }
      return ffi_buf_puts(b, ")");
    }
    default: break;
  }
  if (ffi_is_str(v->type_index) || v->type_index == kTVMFFIRawStr) {
    ffi_string_view(v, &s);
    return ffi_text_str(b, s.data, s.size);
  }
  if (ffi_is_bytes(v->type_index) || v->type_index == kTVMFFIByteArrayPtr) {
    ffi_string_view(v, &s);
    return ffi_text_bytes(b, s.data, s.size);
  }
  TVMFFIByteArray key = ffi_type_key_of(v->type_index);
  return ffi_buf_append(b, key.data, key.size);
}

bool ffi_text_is_leaf(const TVMFFIAny* v) {
  int32_t t = v->type_index;
  if (!ffi_is_object_index(t) || v->v_obj == NULL) return true;
  return t == kTVMFFIStr || t == kTVMFFIBytes || t == kTVMFFIBigInt || t == kTVMFFIShape ||
         t == kTVMFFITensor;
}
