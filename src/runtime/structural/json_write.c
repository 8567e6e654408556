/*
 * structural/json_write.c -- the compact JSON writer (ffi.json.Stringify, spec STRUCTURAL.md
 * section 1.9) and the number and string formatting the JSON graph writer shares (section 1.5).
 * Containers are written with an explicit stack, so deep values cannot overflow the C stack,
 * and a container met again while it is still open is a cycle, reported as an error.
 */
#include <math.h>
#include <stdio.h>

#include "json_text.h"

int ffi_json_write_float(FfiBuf* b, double v) {
  if (v != v) return ffi_buf_puts(b, "NaN");
  if (isinf(v)) return ffi_buf_puts(b, v > 0 ? "Infinity" : "-Infinity");
  if (v == floor(v) && fabs(v) < 9007199254740992.0) return ffi_buf_printf(b, "%.1f", v);
  return ffi_buf_printf(b, "%.17g", v);
}

int ffi_json_write_string(FfiBuf* b, const char* data, size_t size) {
  if (ffi_buf_reserve(b, size + 2) != 0) return -1;
  b->data[b->size++] = '"';
  size_t run = 0; /* bytes copied verbatim since the last escape */
  for (size_t i = 0; i < size; ++i) {
    unsigned char c = (unsigned char)data[i];
    const char* esc = NULL;
    char hex[8];
    switch (c) {
      case '"': esc = "\\\""; break;
      case '\\': esc = "\\\\"; break;
      case '/': esc = "\\/"; break;
      case '\b': esc = "\\b"; break;
      case '\f': esc = "\\f"; break;
      case '\n': esc = "\\n"; break;
      case '\r': esc = "\\r"; break;
      case '\t': esc = "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          snprintf(hex, sizeof(hex), "\\u%04x", c);
          esc = hex;
        }
    }
    if (esc == NULL) {
      run += 1;
      continue;
    }
    if (ffi_buf_append(b, data + i - run, run) != 0 || ffi_buf_puts(b, esc) != 0) return -1;
    run = 0;
  }
  if (ffi_buf_append(b, data + size - run, run) != 0) return -1;
  return ffi_buf_puts(b, "\"");
}

static int raise_unsupported(int32_t type_index) {
  TVMFFIByteArray k = ffi_type_key_of(type_index);
  return ffi_raise("ValueError", "Unsupported type: `%.*s`", (int)k.size, k.data);
}

typedef struct {
  TVMFFIObject* obj;
  uint64_t cursor; /* maps: iteration cursor; sequences: next index */
  bool first;
} WFrame;

/* Writes one scalar, or pushes a frame for a container (its opening written). */
static int write_item(FfiBuf* b, const TVMFFIAny* v, FfiVec* stack, FfiPtrMap* open) {
  TVMFFIByteArray s;
  switch (v->type_index) {
    case kTVMFFINone: return ffi_buf_puts(b, "null");
    case kTVMFFIBool: return ffi_buf_puts(b, v->v_int64 ? "true" : "false");
    case kTVMFFIInt: return ffi_buf_put_i64(b, v->v_int64);
    case kTVMFFIFloat: return ffi_json_write_float(b, v->v_float64);
    default: break;
  }
  if (ffi_is_str(v->type_index) || v->type_index == kTVMFFIRawStr) {
    ffi_string_view(v, &s);
    return ffi_json_write_string(b, s.data, s.size);
  }
  int32_t t = v->type_index;
  if (t != kTVMFFIArray && t != kTVMFFIList && t != kTVMFFIMap) return raise_unsupported(t);
  if ((int64_t)stack->size >= FFI_GRAPH_MAX_DEPTH) {
    return ffi_raise("ValueError", "json.Stringify: maximum nesting depth (1048576) exceeded");
  }
  if (ffi_ptr_map_find(open, (uint64_t)(uintptr_t)v->v_obj) != NULL) {
    return ffi_raise("ValueError", "json.Stringify: a container contains itself");
  }
  if (ffi_ptr_map_put(open, (uint64_t)(uintptr_t)v->v_obj, 1) != 0) return -1;
  WFrame* f = (WFrame*)ffi_vec_push(stack);
  if (f == NULL) return -1;
  f->obj = v->v_obj;
  f->first = true;
  return ffi_buf_puts(b, t == kTVMFFIMap ? "{" : "[");
}

int ffi_json_stringify(const TVMFFIAny* value, FfiBuf* out) {
  FfiVec stack;
  FfiPtrMap open;
  WFrame frames[8]; /* shallow values nest without allocating */
  ffi_vec_init_inline(&stack, sizeof(WFrame), frames, 8);
  ffi_ptr_map_init(&open);
  int rc = write_item(out, value, &stack, &open);
  while (rc == 0 && stack.size > 0) {
    WFrame* f = (WFrame*)ffi_vec_top(&stack);
    TVMFFIObject* obj = f->obj;
    bool first = f->first;
    f->first = false;
    if (obj->type_index == kTVMFFIMap) {
      TVMFFIAny *k, *v;
      if (!ffi_map_next(obj, &f->cursor, &k, &v)) {
        ffi_ptr_map_erase(&open, (uint64_t)(uintptr_t)obj);
        stack.size -= 1;
        rc = ffi_buf_puts(out, "}");
        continue;
      }
      TVMFFIByteArray s;
      if (!ffi_is_str(k->type_index) || !ffi_string_view(k, &s)) {
        TVMFFIByteArray key = ffi_type_key_of(k->type_index);
        rc = ffi_raise("ValueError", "Expect key to be string, got `%.*s`", (int)key.size, key.data);
        break;
      }
      rc = (first ? 0 : ffi_buf_puts(out, ",")) || ffi_json_write_string(out, s.data, s.size) ||
           ffi_buf_puts(out, ":") ? -1 : 0;
      if (rc == 0) rc = write_item(out, v, &stack, &open);
    } else {
      TVMFFISeqCell* cell = ffi_seq_cell(obj);
      if ((int64_t)f->cursor >= cell->size) {
        ffi_ptr_map_erase(&open, (uint64_t)(uintptr_t)obj);
        stack.size -= 1;
        rc = ffi_buf_puts(out, "]");
        continue;
      }
      const TVMFFIAny* item = &ffi_seq_items(obj)[f->cursor++];
      rc = first ? 0 : ffi_buf_puts(out, ",");
      if (rc == 0) rc = write_item(out, item, &stack, &open);
    }
  }
  ffi_vec_free(&stack);
  ffi_ptr_map_free(&open);
  return rc;
}

