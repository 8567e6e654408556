/*
 * structural/graph_util.c -- buffers, pointer maps and reflection helpers shared by the
 * structural services (see graph_util.h).
 */
#include "graph_util.h"

#include "../type_define_internal.h"
#include "../type_members_internal.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- byte buffer ---- */

int ffi_buf_reserve_slow(FfiBuf* b, size_t extra) {
  size_t cap = b->capacity < 64 ? 64 : b->capacity;
  while (cap < b->size + extra) cap *= 2;
  char* data = (char*)realloc(b->data, cap);
  if (data == NULL) return ffi_raise("MemoryError", "out of memory for %zu bytes of text", cap);
  b->data = data;
  b->capacity = cap;
  return 0;
}

int ffi_buf_printf(FfiBuf* b, const char* fmt, ...) {
  char small[128];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof(small), fmt, ap);
  va_end(ap);
  if (n < 0) return ffi_raise("RuntimeError", "formatting failed");
  if ((size_t)n < sizeof(small)) return ffi_buf_append(b, small, (size_t)n);
  if (ffi_buf_reserve(b, (size_t)n + 1) != 0) return -1;
  va_start(ap, fmt);
  vsnprintf(b->data + b->size, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->size += (size_t)n;
  return 0;
}

int ffi_buf_put_i64(FfiBuf* b, int64_t v) {
  char digits[24];
  size_t n = 0;
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  do {
    digits[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (v < 0) digits[n++] = '-';
  if (ffi_buf_reserve(b, n) != 0) return -1;
  while (n > 0) b->data[b->size++] = digits[--n];
  return 0;
}

void ffi_buf_free(FfiBuf* b) {
  free(b->data);
  b->data = NULL;
  b->size = b->capacity = 0;
}

int ffi_buf_to_str(FfiBuf* b, TVMFFIAny* out) {
  int rc = ffi_string_make(b->data != NULL ? b->data : "", b->size, 0, out);
  ffi_buf_free(b);
  return rc;
}

/* ---- vector ---- */

int ffi_vec_grow(FfiVec* v) {
  size_t cap = v->capacity < 16 ? 16 : v->capacity * 2;
  char* data = v->data == v->inline_data ? (char*)malloc(cap * v->elem)
                                         : (char*)realloc(v->data, cap * v->elem);
  if (data == NULL) {
    return ffi_raise("MemoryError", "out of memory for a traversal stack of %zu entries", cap);
  }
  if (v->data == v->inline_data && v->size > 0) memcpy(data, v->data, v->size * v->elem);
  v->data = data;
  v->capacity = cap;
  return 0;
}

void ffi_vec_free(FfiVec* v) {
  if (v->data != v->inline_data) free(v->data);
  v->data = NULL;
  v->size = v->capacity = 0;
}

/* ---- pointer map (linear probing, backward-shift deletion) ---- */

static int ptr_map_grow(FfiPtrMap* m) {
  size_t cap = m->capacity * 2;
  FfiPtrSlot* slots = (FfiPtrSlot*)calloc(cap, sizeof(FfiPtrSlot));
  if (slots == NULL) return ffi_raise("MemoryError", "out of memory for a map of %zu entries", cap);
  for (size_t i = 0; i < m->capacity; ++i) {
    if (m->slots[i].key == 0) continue;
    size_t j = ffi_ptr_slot_of(m->slots[i].key, cap);
    while (slots[j].key != 0) j = (j + 1) & (cap - 1);
    slots[j] = m->slots[i];
  }
  if (m->slots != m->inline_slots) free(m->slots);
  m->slots = slots;
  m->capacity = cap;
  return 0;
}

int ffi_ptr_map_put(FfiPtrMap* m, uint64_t key, uint64_t value) {
  if (m->capacity == 0) { /* first use: the inline slots (see ffi_ptr_map_init) */
    memset(m->inline_slots, 0, sizeof(m->inline_slots));
    m->capacity = FFI_PTR_MAP_INLINE;
  }
  if ((m->count + 1) * 2 > m->capacity && ptr_map_grow(m) != 0) return -1;
  size_t i = ffi_ptr_slot_of(key, m->capacity);
  while (m->slots[i].key != 0 && m->slots[i].key != key) i = (i + 1) & (m->capacity - 1);
  if (m->slots[i].key == 0) m->count += 1;
  m->slots[i].key = key;
  m->slots[i].value = value;
  return 0;
}

void ffi_ptr_map_erase(FfiPtrMap* m, uint64_t key) {
  if (m->count == 0) return;
  size_t mask = m->capacity - 1;
  size_t i = ffi_ptr_slot_of(key, m->capacity);
  while (m->slots[i].key != key) {
    if (m->slots[i].key == 0) return;
    i = (i + 1) & mask;
  }
  m->slots[i].key = 0;
  m->count -= 1;
  /* Shift later members of the cluster back so lookups never stop early. */
  for (size_t j = (i + 1) & mask; m->slots[j].key != 0; j = (j + 1) & mask) {
    size_t home = ffi_ptr_slot_of(m->slots[j].key, m->capacity);
    bool movable = (i <= j) ? (home <= i || home > j) : (home <= i && home > j);
    if (movable) {
      m->slots[i] = m->slots[j];
      m->slots[j].key = 0;
      i = j;
    }
  }
}

void ffi_ptr_map_free(FfiPtrMap* m) {
  if (m->slots != m->inline_slots) free(m->slots);
  m->slots = m->inline_slots;
  m->capacity = 0;
  m->count = 0;
}

/* ---- hashing ---- */

uint64_t ffi_type_key_hash_of(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  return info != NULL ? info->type_key_hash : 0;
}

/* ---- reflection ---- */

int ffi_for_each_field(int32_t type_index, FfiFieldVisitor visit, void* ctx) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == NULL) return 0;
  FfiFieldIter it = ffi_field_iter(info);
  for (const TVMFFIFieldInfo* field; (field = ffi_field_next(&it)) != NULL;) {
    int rc = visit(field, ctx);
    if (rc != 0) return rc;
  }
  return 0;
}

static int count_one(const TVMFFIFieldInfo* field, void* ctx) {
  (void)field;
  *(int32_t*)ctx += 1;
  return 0;
}

int32_t ffi_count_fields(int32_t type_index) {
  int32_t n = 0;
  ffi_for_each_field(type_index, count_one, &n);
  return n;
}

int ffi_field_get(TVMFFIObject* obj, const TVMFFIFieldInfo* field, TVMFFIAny* out) {
  *out = ffi_any_none();
  if (field->getter == NULL) {
    return ffi_raise("RuntimeError", "field `%.*s` has no getter", (int)field->name.size,
                     field->name.data);
  }
  return field->getter((char*)obj + field->offset, out);
}

int ffi_field_view(TVMFFIObject* obj, const TVMFFIFieldInfo* field, TVMFFIAny* out, bool* owned) {
  void* addr = (char*)obj + field->offset;
  *owned = false;
  if (field->getter == ffi_field_get_any) {
    *out = *(const TVMFFIAny*)addr;
    return 0;
  }
  if (field->getter == ffi_field_get_obj) {
    TVMFFIObject* value = *(TVMFFIObject**)addr;
    *out = value != NULL ? ffi_any_from_object(value) : ffi_any_none();
    return 0;
  }
  *owned = true;
  return ffi_field_get(obj, field, out);
}

int ffi_field_set(TVMFFIObject* obj, const TVMFFIFieldInfo* field, const TVMFFIAny* value) {
  void* addr = (char*)obj + field->offset;
  if (field->setter == NULL) {
    return ffi_raise("RuntimeError", "field `%.*s` has no setter", (int)field->name.size,
                     field->name.data);
  }
  if (field->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) {
    TVMFFIAny args[2];
    args[0] = ffi_any_none();
    args[0].type_index = kTVMFFIOpaquePtr;
    args[0].v_ptr = addr;
    args[1] = *value;
    TVMFFIAny result = ffi_any_none();
    int rc = TVMFFIFunctionCall(field->setter, args, 2, &result);
    ffi_any_release(&result);
    return rc;
  }
  return ((TVMFFIFieldSetter)field->setter)(addr, value);
}

/* Columns live for the process once created, so each name's column is looked up (under the
 * registry lock) only until it exists; call sites pass string literals. A name with no column
 * (most types define no hooks) is remembered with the column count it was missed at, and
 * looked up again only after another column has been created: otherwise every structural
 * step asking for a hook nobody registered took the registry lock and hashed the name. */
#define ATTR_CACHE_SIZE 32
static struct {
  const char* _Atomic name;
  const TVMFFITypeAttrColumn* _Atomic column;
  _Atomic uint64_t missed_at; /* column count + 1 at a miss; 0: none recorded */
} g_attr_cache[ATTR_CACHE_SIZE];

static const TVMFFITypeAttrColumn* attr_column(const char* name) {
  size_t h = ((uintptr_t)name >> 3) % ATTR_CACHE_SIZE;
  if (atomic_load_explicit(&g_attr_cache[h].name, memory_order_acquire) == name) {
    const TVMFFITypeAttrColumn* cached =
        atomic_load_explicit(&g_attr_cache[h].column, memory_order_acquire);
    if (cached != NULL) return cached;
    uint64_t missed_at = atomic_load_explicit(&g_attr_cache[h].missed_at, memory_order_acquire);
    if (missed_at != 0 && missed_at - 1 == ffi_type_attr_column_count()) return NULL;
  }
  uint64_t count = ffi_type_attr_column_count(); /* read before looking: a miss holds as of it */
  TVMFFIByteArray key = {name, strlen(name)};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&key);
  static const char kClaimed[1] = {0};
  const char* expected = NULL;
  /* The first thread claims the slot and publishes (column or miss, then name); a slot taken
   * by another name leaves this one uncached (correct, just slower). */
  if (atomic_compare_exchange_strong(&g_attr_cache[h].name, &expected, kClaimed)) {
    atomic_store_explicit(&g_attr_cache[h].column, column, memory_order_release);
    atomic_store_explicit(&g_attr_cache[h].missed_at, column == NULL ? count + 1 : 0,
                          memory_order_release);
    atomic_store_explicit(&g_attr_cache[h].name, name, memory_order_release);
  } else if (expected == name) { /* ours: record the column found, or the newer miss */
    if (column != NULL) {
      atomic_store_explicit(&g_attr_cache[h].column, column, memory_order_release);
    } else {
      atomic_store_explicit(&g_attr_cache[h].missed_at, count + 1, memory_order_release);
    }
  }
  return column;
}

const TVMFFIAny* ffi_type_attr(int32_t type_index, const char* name) {
  const TVMFFITypeAttrColumn* column = attr_column(name);
  if (column == NULL || column->data == NULL) return NULL;
  int64_t i = (int64_t)type_index - column->begin_index;
  if (i < 0 || i >= column->size) return NULL;
  const TVMFFIAny* v = &column->data[i];
  return v->type_index == kTVMFFINone ? NULL : v;
}

int ffi_type_seq_kind(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == NULL || info->metadata == NULL) return -1;
  return (int)info->metadata->structural_eq_hash_kind;
}

int ffi_call(const TVMFFIAny* fn, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  *result = ffi_any_none();
  if (fn->type_index != kTVMFFIFunction || fn->v_obj == NULL) {
    TVMFFIByteArray k = ffi_type_key_of(fn->type_index);
    return ffi_raise("TypeError", "expected a function, got `%.*s`", (int)k.size, k.data);
  }
  return TVMFFIFunctionCall(fn->v_obj, (TVMFFIAny*)args, num_args, result);
}

int ffi_closure_new(void* data, TVMFFISafeCallType call, void (*free_data)(void*),
                    TVMFFIObject** out) {
  return TVMFFIFunctionCreate(data, call, free_data, (TVMFFIObjectHandle*)out);
}
