/*
 * structural/recursive_hash.c -- ffi.RecursiveHash (spec STRUCTURAL.md section 3.10): the hash
 * consistent with ffi.RecursiveEq (containers' and dataclasses' __hash__). Explicit-stack
 * post-order walk; objects are memoised per call; a cycle back-edge contributes its type's key
 * hash.
 */
#include <stdlib.h>

#include "structural.h"

/* Children: FfiChild; a map value carries its key's hash (the key is hashed, not walked). */
typedef FfiChild Child;

typedef struct {
  TVMFFIObject* obj;
  size_t begin, count, next;
  size_t results_base;
} Frame;

typedef struct {
  FfiPtrMap memo;
  FfiPtrMap active;
  FfiVec frames;
  FfiVec children;
  FfiVec results; /* uint64_t */
} RHasher;

static bool is_seq(int32_t t) { return t == kTVMFFIArray || t == kTVMFFIList; }
static bool is_map(int32_t t) { return t == kTVMFFIMap || t == kTVMFFIDict; }

static bool leaf_hash(const TVMFFIAny* v, uint64_t* out) {
  TVMFFIByteArray s;
  int32_t t = v->type_index;
  switch (t) {
    case kTVMFFIFloat: {
      double d = v->v_float64 == 0.0 ? 0.0 : v->v_float64; /* -0.0 hashes as 0.0 */
      *out = ffi_hash_combine(kTVMFFIFloat, ffi_float_hash_bits(d));
      return true;
    }
    case kTVMFFIDataType:
      *out = ffi_hash_combine(ffi_hash_combine(ffi_hash_combine(kTVMFFIDataType, v->v_dtype.code),
                                               v->v_dtype.bits),
                              v->v_dtype.lanes);
      return true;
    case kTVMFFIDevice:
      *out = ffi_hash_combine(ffi_hash_combine(kTVMFFIDevice, (uint64_t)v->v_device.device_type),
                              (uint64_t)(int64_t)v->v_device.device_id);
      return true;
    default: break;
  }
  if (ffi_is_str(t)) {
    ffi_string_view(v, &s);
    *out = ffi_hash_combine(kTVMFFIStr, ffi_hash_bytes(s.data, s.size));
    return true;
  }
  if (ffi_is_bytes(t)) {
    ffi_string_view(v, &s);
    *out = ffi_hash_combine(kTVMFFIBytes, ffi_hash_bytes(s.data, s.size));
    return true;
  }
  if (!ffi_is_object_index(t) || v->v_obj == NULL) {
    *out = ffi_hash_combine((uint64_t)(int64_t)t, v->v_uint64);
    return true;
  }
  if (t == kTVMFFIBigInt) { /* its words' byte hash, as the reference's __ffi_hash__ hook */
    s = TVMFFIBigIntGetContentByteArray(v);
    *out = ffi_hash_bytes(s.data, s.size);
    return true;
  }
  if (t == kTVMFFIShape) {
    ffi_leaf_structural_hash(v, true, out);
    return true;
  }
  return false;
}

static int hash_value(RHasher* h, const TVMFFIAny* v, uint64_t* out);

static int fn_hash_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  if (ffi_check_num_args("RecursiveHash.fn_hash", num_args, 1) != 0) return -1;
  TVMFFIAny v;
  if (TVMFFIAnyViewToOwnedAny(&args[0], &v) != 0) return -1;
  uint64_t out;
  int rc = hash_value((RHasher*)self, &v, &out);
  ffi_any_release(&v);
  if (rc == 0) ffi_ret_int(result, (int64_t)out);
  return rc;
}

static int call_hook(RHasher* h, const TVMFFIAny* hook, TVMFFIObject* obj, uint64_t* out) {
  TVMFFIObject* fn;
  if (ffi_closure_new(h, fn_hash_call, NULL, &fn) != 0) return -1;
  TVMFFIAny args[2] = {ffi_any_from_object(obj), ffi_any_from_object(fn)};
  TVMFFIAny result;
  int rc = ffi_call(hook, args, 2, &result);
  ffi_decref(fn);
  if (rc != 0) return -1;
  if (result.type_index != kTVMFFIInt) {
    ffi_any_release(&result);
    return ffi_raise("TypeError", "__ffi_hash__ must return an int");
  }
  *out = (uint64_t)result.v_int64;
  return 0;
}

/* Hash of a map entry's key for ordering the entries (order-independent map hash). */
static int key_hash(RHasher* h, const TVMFFIAny* k, uint64_t* out) { return hash_value(h, k, out); }

static int push_result(RHasher* h, uint64_t v) {
  uint64_t* r = (uint64_t*)ffi_vec_push(&h->results);
  if (r == NULL) return -1;
  *r = v;
  return 0;
}

/* Starts an object: pushes a frame, or pushes its hash at once (hooks). */
static int push_object(RHasher* h, TVMFFIObject* obj) {
  int32_t t = obj->type_index;
  if ((int64_t)h->frames.size >= FFI_GRAPH_MAX_DEPTH) {
    return ffi_raise("ValueError", "RecursiveCompare: maximum stack depth (1048576) exceeded");
  }
  if (!is_seq(t) && !is_map(t)) {
    const TVMFFIAny* hook = ffi_type_attr(t, "__ffi_hash__");
    if (hook != NULL) {
      uint64_t v = 0;
      if (ffi_ptr_map_put(&h->active, (uint64_t)(uintptr_t)obj, 1) != 0 || call_hook(h, hook, obj, &v) != 0) return -1;
      ffi_ptr_map_erase(&h->active, (uint64_t)(uintptr_t)obj);
      if (ffi_ptr_map_put(&h->memo, (uint64_t)(uintptr_t)obj, v) != 0) return -1;
      return push_result(h, v);
    }
    if (ffi_type_attr(t, "__ffi_eq__") != NULL || ffi_type_attr(t, "__ffi_compare__") != NULL) {
      TVMFFIByteArray key = ffi_type_key_of(t);
      return ffi_raise("ValueError",
                       "RecursiveHash: type '%.*s' defines __ffi_eq__ or __ffi_compare__ but not "
                       "__ffi_hash__. Add a __ffi_hash__ hook to maintain the invariant "
                       "RecursiveEq(a,b) => RecursiveHash(a)==RecursiveHash(b).",
                       (int)key.size, key.data);
    }
  }
  size_t begin = h->children.size;
  int rc = 0;
  if (is_seq(t)) {
    TVMFFISeqCell* cell = ffi_seq_cell(obj);
    for (int64_t i = 0; rc == 0 && i < cell->size; ++i) {
      rc = ffi_children_push_view(&h->children, &ffi_seq_items(obj)[i], NULL);
    }
  } else if (is_map(t)) {
    uint64_t cursor = 0;
    TVMFFIAny *k, *v;
    while (rc == 0 && ffi_map_next(obj, &cursor, &k, &v)) {
      uint64_t kh;
      rc = key_hash(h, k, &kh);
      if (rc == 0) rc = ffi_children_push_view(&h->children, v, NULL);
      if (rc == 0) ((Child*)ffi_vec_top(&h->children))->keyhash = kh;
    }
  } else {
    rc = ffi_children_push_fields(&h->children, obj,
                                  kTVMFFIFieldFlagBitMaskCompareOff | kTVMFFIFieldFlagBitMaskHashOff);
  }
  if (rc == 0) rc = ffi_ptr_map_put(&h->active, (uint64_t)(uintptr_t)obj, 1);
  Frame* f = rc == 0 ? (Frame*)ffi_vec_push(&h->frames) : NULL;
  if (f == NULL) {
    ffi_children_drop(&h->children, begin);
    return -1;
  }
  f->obj = obj;
  f->begin = begin;
  f->count = h->children.size - begin;
  f->next = 0;
  f->results_base = h->results.size;
  return 0;
}

static int cmp_u64(const void* a, const void* b) {
  uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
  return x < y ? -1 : x > y;
}

static int fold_frame(RHasher* h, const Frame* f, uint64_t* out) {
  const Child* c = (const Child*)ffi_vec_at(&h->children, f->begin);
  const uint64_t* r = (const uint64_t*)ffi_vec_at(&h->results, f->results_base);
  int32_t t = f->obj->type_index;
  uint64_t hash = ffi_type_key_hash_of(t);
  if (is_seq(t)) {
    hash = ffi_hash_combine(hash, f->count);
    for (size_t i = 0; i < f->count; ++i) hash = ffi_hash_combine(hash, ffi_hash_combine(r[i], i));
  } else if (is_map(t)) {
    hash = ffi_hash_combine(hash, f->count);
    uint64_t* entries = (uint64_t*)malloc((f->count > 0 ? f->count : 1) * sizeof(uint64_t));
    if (entries == NULL) return ffi_raise("MemoryError", "out of memory in RecursiveHash");
    for (size_t i = 0; i < f->count; ++i) entries[i] = ffi_hash_combine(c[i].keyhash, r[i]);
    qsort(entries, f->count, sizeof(uint64_t), cmp_u64);
    for (size_t i = 0; i < f->count; ++i) hash = ffi_hash_combine(hash, entries[i]);
    free(entries);
  } else {
    for (size_t i = 0; i < f->count; ++i) hash = ffi_hash_combine(hash, r[i]);
  }
  *out = hash;
  return 0;
}

/* Pushes the hash of a value needing no frame; *needs_frame otherwise. */
static int hash_now(RHasher* h, const TVMFFIAny* v, bool* needs_frame) {
  uint64_t out;
  *needs_frame = false;
  if (!leaf_hash(v, &out)) {
    uint64_t key = (uint64_t)(uintptr_t)v->v_obj;
    uint64_t* memo = ffi_ptr_map_find(&h->memo, key);
    if (memo != NULL) {
      out = *memo;
    } else if (ffi_ptr_map_find(&h->active, key) != NULL) {
      out = ffi_type_key_hash_of(v->type_index); /* cycle back-edge */
    } else {
      *needs_frame = true;
      return 0;
    }
  }
  return push_result(h, out);
}

static int run(RHasher* h, size_t base) {
  while (h->frames.size > base) {
    Frame* f = (Frame*)ffi_vec_top(&h->frames);
    if (f->next < f->count) {
      TVMFFIAny v = ((const Child*)ffi_vec_at(&h->children, f->begin + f->next))->value;
      f->next += 1;
      bool needs_frame;
      if (hash_now(h, &v, &needs_frame) != 0) return -1;
      if (needs_frame && push_object(h, v.v_obj) != 0) return -1;
      continue;
    }
    uint64_t hash = 0;
    if (fold_frame(h, f, &hash) != 0) return -1;
    TVMFFIObject* obj = f->obj;
    h->results.size = f->results_base;
    ffi_children_drop(&h->children, f->begin);
    h->frames.size -= 1;
    ffi_ptr_map_erase(&h->active, (uint64_t)(uintptr_t)obj);
    if (ffi_ptr_map_put(&h->memo, (uint64_t)(uintptr_t)obj, hash) != 0 || push_result(h, hash) != 0) return -1;
  }
  return 0;
}

static int hash_value(RHasher* h, const TVMFFIAny* v, uint64_t* out) {
  size_t base = h->frames.size, results = h->results.size;
  bool needs_frame;
  int rc = hash_now(h, v, &needs_frame);
  if (rc == 0 && needs_frame) {
    rc = push_object(h, v->v_obj);
    if (rc == 0) rc = run(h, base);
  }
  if (rc != 0) {
    while (h->frames.size > base) {
      Frame* f = (Frame*)ffi_vec_top(&h->frames);
      ffi_ptr_map_erase(&h->active, (uint64_t)(uintptr_t)f->obj);
      ffi_children_drop(&h->children, f->begin);
      h->frames.size -= 1;
    }
    h->results.size = results;
    return -1;
  }
  *out = *(uint64_t*)ffi_vec_top(&h->results);
  h->results.size = results;
  return 0;
}

int ffi_recursive_hash(const TVMFFIAny* value, uint64_t* out) {
  RHasher h;
  memset(&h, 0, sizeof(h));
  ffi_ptr_map_init(&h.memo);
  ffi_ptr_map_init(&h.active);
  Frame frames[8]; /* small values hash without allocating */
  Child children[16];
  uint64_t results[16];
  ffi_vec_init_inline(&h.frames, sizeof(Frame), frames, 8);
  ffi_vec_init_inline(&h.children, sizeof(Child), children, 16);
  ffi_vec_init_inline(&h.results, sizeof(uint64_t), results, 16);
  int rc = hash_value(&h, value, out);
  ffi_ptr_map_free(&h.memo);
  ffi_ptr_map_free(&h.active);
  ffi_vec_free(&h.frames);
  ffi_vec_free(&h.children);
  ffi_vec_free(&h.results);
  return rc;
}

static int global_recursive_hash(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  if (ffi_check_num_args("ffi.RecursiveHash", num_args, 1) != 0) return -1;
  TVMFFIAny v;
  if (TVMFFIAnyViewToOwnedAny(&args[0], &v) != 0) return -1;
  uint64_t hash;
  int rc = ffi_recursive_hash(&v, &hash);
  ffi_any_release(&v);
  if (rc == 0) ffi_ret_int(result, (int64_t)hash);
  return rc;
}

void ffi_register_recursive_hash_globals(void) {
  ffi_register_builtin("ffi.RecursiveHash", global_recursive_hash);
}
