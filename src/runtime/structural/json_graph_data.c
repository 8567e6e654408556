/*
 * structural/json_graph_data.c -- decoders of a JSON graph node's data that need nothing of the
 * walk: int arrays (Shape, Device), base64 (Bytes), decimal big integers (BigInt), inline field
 * values, and making an empty object of a type to fill. Errors carry the reference's messages.
 */
#include <stdlib.h>

#include "json_graph.h"

int ffi_json_graph_convert_error(const TVMFFIAny* v, const char* to) {
  TVMFFIByteArray key = ffi_type_key_of(v->type_index);
  return ffi_raise("TypeError", "Cannot convert from type `%.*s` to `%s`", (int)key.size, key.data, to);
}

int ffi_json_graph_int_array(const TVMFFIAny* data, const char* what, int64_t** out, int64_t* n) {
  if (data->type_index != kTVMFFIArray) return ffi_json_graph_convert_error(data, what);
  *n = ffi_seq_cell(data->v_obj)->size;
  *out = (int64_t*)malloc((size_t)(*n > 0 ? *n : 1) * sizeof(int64_t));
  if (*out == NULL) return ffi_raise("MemoryError", "out of memory decoding a JSON graph");
  for (int64_t i = 0; i < *n; ++i) {
    const TVMFFIAny* item = &ffi_seq_items(data->v_obj)[i];
    if (item->type_index != kTVMFFIInt) {
      TVMFFIByteArray key = ffi_type_key_of(item->type_index);
      free(*out);
      return ffi_raise("TypeError", "Cannot convert from type `Array[index %lld: %.*s]` to `%s`",
                       (long long)i, (int)key.size, key.data, what);
    }
    (*out)[i] = item->v_int64;
  }
  return 0;
}

static int b64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

int ffi_json_graph_base64(TVMFFIByteArray s, TVMFFIAny* out) {
  const char* bad = "Check failed: (bytes.size %% 4 == 0) is false: invalid base64 encoding";
  if (s.size % 4 != 0) return ffi_raise("RuntimeError", bad);
  unsigned char* buf = (unsigned char*)malloc(s.size / 4 * 3 + 1);
  if (buf == NULL) return ffi_raise("MemoryError", "out of memory decoding base64");
  size_t n = 0;
  for (size_t i = 0; i < s.size; i += 4) {
    int v[4];
    for (int k = 0; k < 4; ++k) {
      char c = s.data[i + k];
      v[k] = (c == '=' && i + 4 == s.size && k >= 2) ? -2 : b64_value(c);
      if (v[k] == -1 || (k == 3 && v[2] == -2 && v[3] != -2)) {
        free(buf);
        return ffi_raise("RuntimeError", bad);
      }
    }
    buf[n++] = (unsigned char)((v[0] << 2) | (v[1] >> 4));
    if (v[2] >= 0) buf[n++] = (unsigned char)(((v[1] & 15) << 4) | (v[2] >> 2));
    if (v[3] >= 0) buf[n++] = (unsigned char)(((v[2] & 3) << 6) | v[3]);
  }
  int rc = ffi_string_make((const char*)buf, n, 1, out);
  free(buf);
  return rc;
}

/* Decimal string -> int or BigInt (two's complement words). */
int ffi_json_graph_bigint(TVMFFIByteArray s, TVMFFIAny* out) {
  size_t i = 0;
  bool neg = false;
  if (i < s.size && (s.data[i] == '-' || s.data[i] == '+')) neg = s.data[i++] == '-';
  if (i == s.size) return ffi_raise("ValueError", "Invalid decimal string for ffi.BigInt");
  size_t cap = (s.size - i) / 9 + 2;
  uint32_t* limbs = (uint32_t*)calloc(cap * 2 + 2, sizeof(uint32_t));
  if (limbs == NULL) return ffi_raise("MemoryError", "out of memory decoding a big integer");
  size_t n = 1;
  for (; i < s.size; ++i) {
    char c = s.data[i];
    if (c < '0' || c > '9') {
      free(limbs);
      return ffi_raise("ValueError", "Invalid decimal string for ffi.BigInt");
    }
    uint64_t carry = (uint64_t)(c - '0');
    for (size_t k = 0; k < n; ++k) {
      uint64_t v = (uint64_t)limbs[k] * 10 + carry;
      limbs[k] = (uint32_t)v;
      carry = v >> 32;
    }
    if (carry != 0) limbs[n++] = (uint32_t)carry;
  }
  n += 1; /* room for the sign bit */
  if (n % 2 != 0) n += 1;
  if (neg) {
    uint64_t carry = 1;
    for (size_t k = 0; k < n; ++k) {
      uint64_t v = (uint64_t)(uint32_t)~limbs[k] + carry;
      limbs[k] = (uint32_t)v;
      carry = v >> 32;
    }
  }
  TVMFFIByteArray words = {(const char*)limbs, n * 4};
  int rc = TVMFFIBigIntFromByteArray(&words, out);
  free(limbs);
  return rc;
}

int ffi_json_graph_create_empty(int32_t t, TVMFFIObject** out) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(t);
  if (info != NULL && info->metadata != NULL && info->metadata->creator != NULL) {
    TVMFFIObjectHandle h = NULL;
    if (info->metadata->creator(&h) != 0) return -1;
    *out = (TVMFFIObject*)h;
    return 0;
  }
  const TVMFFIAny* fn = ffi_type_attr(t, "__ffi_new__");
  if (fn == NULL) {
    TVMFFIByteArray key = ffi_type_key_of(t);
    return ffi_raise("RuntimeError",
                     "Type `%.*s` does not support reflection creation (no native creator or "
                     "__ffi_new__ type attr)",
                     (int)key.size, key.data);
  }
  TVMFFIAny result;
  if (ffi_call(fn, NULL, 0, &result) != 0) return -1;
  if (!ffi_is_object_index(result.type_index) || result.v_obj == NULL) {
    ffi_any_release(&result);
    return ffi_raise("TypeError", "__ffi_new__ must return an object");
  }
  *out = result.v_obj;
  return 0;
}

int ffi_json_graph_number(const TVMFFIAny* v, int32_t type_index, TVMFFIAny* out) {
  *out = ffi_any_none();
  bool integral = v->type_index == kTVMFFIInt || v->type_index == kTVMFFIBool;
  if (type_index == kTVMFFIFloat) {
    if (!integral && v->type_index != kTVMFFIFloat) return ffi_json_graph_convert_error(v, "float");
    out->type_index = kTVMFFIFloat;
    out->v_float64 = integral ? (double)v->v_int64 : v->v_float64;
    return 0;
  }
  bool to_bool = type_index == kTVMFFIBool;
  if (!integral) return ffi_json_graph_convert_error(v, to_bool ? "bool" : "int");
  out->type_index = type_index;
  out->v_int64 = to_bool ? v->v_int64 != 0 : v->v_int64;
  return 0;
}

int ffi_json_graph_inline_value(const TVMFFIFieldInfo* field, const TVMFFIAny* v, TVMFFIAny* out) {
  *out = ffi_any_none();
  switch (field->field_static_type_index) {
    case kTVMFFINone: return 0;
    case kTVMFFIInt:
    case kTVMFFIBool:
    case kTVMFFIFloat: return ffi_json_graph_number(v, field->field_static_type_index, out);
    default: { /* DataType */
      TVMFFIByteArray s;
      if (!ffi_is_str(v->type_index)) return ffi_json_graph_convert_error(v, "str");
      ffi_string_view(v, &s);
      out->type_index = kTVMFFIDataType;
      return TVMFFIDataTypeFromString(&s, &out->v_dtype);
    }
  }
}
