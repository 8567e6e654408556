/*
 * structural/deep_copy.c -- ffi.DeepCopy(value) (spec STRUCTURAL.md section 4.1).
 *
 * Explicit-stack walk. Immutable leaves (POD, strings, bytes, shapes, big integers, enum
 * members) are shared, not copied. Mutable containers (List, Dict) and reflected objects
 * (cloned through their `__ffi_shallow_copy__` type attribute) get their copy when first met
 * and are remembered before their children are visited, so sharing and cycles through them are
 * kept. Array and Map copies are built once their children are copied; a child that refers back
 * to an Array/Map still being copied holds the original for a moment and is patched to the copy
 * in a final pass. A map key that is such an original is patched by re-inserting the map's
 * entries in their order (keys hash by identity, so a key cannot be swapped in place).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../container/container_internal.h"
#include "structural.h"

#define PENDING ((uint64_t)1) /* an Array/Map whose copy is not built yet */

/* Children and results are FfiChild stacks: a child is an original value; a result is its copy,
 * `mark`ed while it is still the original of an Array/Map whose copy is not built yet. */
typedef FfiChild Slot;

typedef struct {
  TVMFFIObject* orig;
  TVMFFIObject* copy; /* List/Dict/objects: made on entry; Array/Map: NULL until done */
  size_t begin, count, next;
  size_t results_base;
} Frame;

typedef struct {
  TVMFFIObject* target; /* the copy holding a placeholder */
  int64_t index;        /* sequence position, or -1 */
  TVMFFIAny key;        /* map key (owned), or None */
  const TVMFFIFieldInfo* field;
  TVMFFIObject* orig; /* the Array/Map whose copy goes there; NULL: target's keys hold some */
} Patch;

typedef struct {
  FfiPtrMap memo; /* original -> copy (owned by `owned`), or PENDING */
  FfiVec owned;   /* TVMFFIObject*: one reference to every copy */
  FfiVec frames;
  FfiVec children;
  FfiVec results;
  FfiVec patches;
  int32_t enum_index;
} Copier;

static bool shared_as_is(Copier* c, const TVMFFIAny* v) {
  int32_t t = v->type_index;
  if (!ffi_is_object_index(t) || v->v_obj == NULL) return true;
  if (t == kTVMFFIStr || t == kTVMFFIBytes || t == kTVMFFIShape || t == kTVMFFIBigInt) return true;
  return c->enum_index >= 0 && ffi_type_is_instance(t, c->enum_index);
}

static int own(Copier* c, TVMFFIObject* copy) {
  TVMFFIObject** slot = (TVMFFIObject**)ffi_vec_push(&c->owned);
  if (slot == NULL) return -1;
  ffi_incref(copy);
  *slot = copy;
  return 0;
}

static int remember(Copier* c, TVMFFIObject* orig, TVMFFIObject* copy) {
  if (own(c, copy) != 0) return -1;
  return ffi_ptr_map_put(&c->memo, (uint64_t)(uintptr_t)orig, (uint64_t)(uintptr_t)copy);
}

static int shallow_copy(TVMFFIObject* obj, TVMFFIObject** out) {
  const TVMFFIAny* fn = ffi_type_attr(obj->type_index, "__ffi_shallow_copy__");
  if (fn == NULL) {
    TVMFFIByteArray key = ffi_type_key_of(obj->type_index);
    return ffi_raise("RuntimeError",
                     "Check failed: (copy_fn.has_value()) is false: Cannot deep copy object of "
                     "type \"%.*s\" because it is not copy-constructible",
                     (int)key.size, key.data);
  }
  TVMFFIAny arg = ffi_any_from_object(obj), result;
  if (ffi_call(fn, &arg, 1, &result) != 0) return -1;
  if (!ffi_is_object_index(result.type_index) || result.v_obj == NULL) {
    ffi_any_release(&result);
    return ffi_raise("TypeError", "__ffi_shallow_copy__ must return an object");
  }
  *out = result.v_obj;
  return 0;
}

static int push_object(Copier* c, TVMFFIObject* orig) {
  if ((int64_t)c->frames.size >= FFI_GRAPH_MAX_DEPTH) {
    return ffi_raise("ValueError", "DeepCopy: maximum stack depth (1048576) exceeded");
  }
  int32_t t = orig->type_index;
  TVMFFIObject* copy = NULL;
  size_t begin = c->children.size;
  int rc = 0;
  /* List, Dict and objects are made on entry (cycles may point back at them); Array and Map
   * are built from their copied children when the frame finishes. */
  if (t == kTVMFFIList) {
    rc = ffi_list_new_views(NULL, 0, &copy);
  } else if (t == kTVMFFIDict) {
    rc = ffi_map_new_empty(kTVMFFIDict, &copy);
  } else if (t != kTVMFFIArray && t != kTVMFFIMap) {
    rc = shallow_copy(orig, &copy);
  }
  if (rc == 0) rc = ffi_children_push_all(&c->children, orig);
  if (rc == 0) {
    rc = copy != NULL ? remember(c, orig, copy)
                      : ffi_ptr_map_put(&c->memo, (uint64_t)(uintptr_t)orig, PENDING);
  }
  if (copy != NULL) ffi_decref(copy); /* `owned` keeps it */
  Frame* f = rc == 0 ? (Frame*)ffi_vec_push(&c->frames) : NULL;
  if (f == NULL) {
    ffi_children_drop(&c->children, begin);
    return -1;
  }
  f->orig = orig;
  f->copy = copy;
  f->begin = begin;
  f->count = c->children.size - begin;
  f->next = 0;
  f->results_base = c->results.size;
  return 0;
}

/* The copy of a child that needs no frame; *needs_frame otherwise. */
static int copy_now(Copier* c, const TVMFFIAny* v, bool* needs_frame) {
  *needs_frame = false;
  Slot* r;
  if (shared_as_is(c, v)) {
    r = (Slot*)ffi_vec_push(&c->results);
    if (r == NULL) return -1;
    r->value = ffi_any_retain(v);
    return 0;
  }
  uint64_t* memo = ffi_ptr_map_find(&c->memo, (uint64_t)(uintptr_t)v->v_obj);
  if (memo == NULL) {
    *needs_frame = true;
    return 0;
  }
  r = (Slot*)ffi_vec_push(&c->results);
  if (r == NULL) return -1;
  if (*memo == PENDING) {
    r->value = ffi_any_retain(v);
    r->mark = true;
  } else {
    TVMFFIObject* copy = (TVMFFIObject*)(uintptr_t)*memo;
    ffi_incref(copy);
    r->value = ffi_any_from_object(copy);
  }
  return 0;
}

static int add_patch(Copier* c, TVMFFIObject* target, int64_t index, const TVMFFIAny* key,
                     const TVMFFIFieldInfo* field, TVMFFIObject* orig) {
  Patch* p = (Patch*)ffi_vec_push(&c->patches);
  if (p == NULL) return -1;
  p->target = target;
  p->index = index;
  p->key = key != NULL ? ffi_any_retain(key) : ffi_any_none();
  p->field = field;
  p->orig = orig;
  return 0;
}

/* Builds/fills the copy of the top frame from its children's copies. */
static int finish_frame(Copier* c, Frame* f) {
  Slot* r = (Slot*)ffi_vec_at(&c->results, f->results_base);
  const Slot* ch = (const Slot*)ffi_vec_at(&c->children, f->begin);
  int32_t t = f->orig->type_index;
  int rc = 0;
  if (t == kTVMFFIArray) {
    TVMFFIAny* items = (TVMFFIAny*)malloc((f->count > 0 ? f->count : 1) * sizeof(TVMFFIAny));
    if (items == NULL) return ffi_raise("MemoryError", "out of memory in DeepCopy");
    for (size_t i = 0; i < f->count; ++i) items[i] = r[i].value;
    rc = ffi_array_new(items, (int64_t)f->count, &f->copy);
    free(items);
    for (size_t i = 0; rc == 0 && i < f->count; ++i) {
      if (r[i].mark) rc = add_patch(c, f->copy, (int64_t)i, NULL, NULL, r[i].value.v_obj);
    }
  } else if (t == kTVMFFIList) {
    for (size_t i = 0; rc == 0 && i < f->count; ++i) {
      if (r[i].mark) rc = add_patch(c, f->copy, (int64_t)i, NULL, NULL, r[i].value.v_obj);
      if (rc == 0) rc = ffi_list_append_owned(f->copy, ffi_any_retain(&r[i].value));
    }
  } else if (t == kTVMFFIMap || t == kTVMFFIDict) {
    if (t == kTVMFFIMap) rc = ffi_map_new_empty(kTVMFFIMap, &f->copy);
    bool pending_key = false;
    for (size_t i = 0; rc == 0 && i + 1 < f->count; i += 2) {
      pending_key = pending_key || r[i].mark;
      if (r[i + 1].mark) rc = add_patch(c, f->copy, -1, &r[i].value, NULL, r[i + 1].value.v_obj);
      if (rc == 0) rc = ffi_map_set(f->copy, ffi_any_retain(&r[i].value), ffi_any_retain(&r[i + 1].value));
    }
    if (rc == 0 && pending_key) rc = add_patch(c, f->copy, -1, NULL, NULL, NULL);
  } else {
    for (size_t i = 0; rc == 0 && i < f->count; ++i) {
      if (r[i].mark) {
        rc = add_patch(c, f->copy, -1, NULL, ch[i].field, r[i].value.v_obj);
      } else if (r[i].value.type_index != ch[i].value.type_index ||
                 r[i].value.v_uint64 != ch[i].value.v_uint64) {
        rc = ffi_field_set(f->copy, ch[i].field, &r[i].value);
      }
    }
  }
  if (rc == 0 && (t == kTVMFFIArray || t == kTVMFFIMap)) {
    rc = remember(c, f->orig, f->copy);
    ffi_decref(f->copy); /* `owned` keeps it */
  }
  return rc;
}

static int run(Copier* c) {
  while (c->frames.size > 0) {
    Frame* f = (Frame*)ffi_vec_top(&c->frames);
    if (f->next < f->count) {
      TVMFFIAny v = ((const Slot*)ffi_vec_at(&c->children, f->begin + f->next))->value;
      f->next += 1;
      bool needs_frame;
      if (copy_now(c, &v, &needs_frame) != 0) return -1;
      if (needs_frame && push_object(c, v.v_obj) != 0) return -1;
      continue;
    }
    if (finish_frame(c, f) != 0) return -1;
    TVMFFIObject* copy = f->copy;
    ffi_children_drop(&c->results, f->results_base);
    ffi_children_drop(&c->children, f->begin);
    c->frames.size -= 1;
    Slot* r = (Slot*)ffi_vec_push(&c->results);
    if (r == NULL) return -1;
    ffi_incref(copy);
    r->value = ffi_any_from_object(copy);
  }
  return 0;
}

/* The finished copy of `key` when it is an Array/Map original left as a placeholder, else NULL. */
static TVMFFIObject* copy_of_placeholder(Copier* c, const TVMFFIAny* key) {
  if (key->type_index != kTVMFFIArray && key->type_index != kTVMFFIMap) return NULL;
  uint64_t* memo = ffi_ptr_map_find(&c->memo, (uint64_t)(uintptr_t)key->v_obj);
  return memo == NULL || *memo == PENDING ? NULL : (TVMFFIObject*)(uintptr_t)*memo;
}

/* Re-inserts a copied map's entries in order, each placeholder key replaced by its copy. */
static int rekey_map(Copier* c, TVMFFIObject* map) {
  int64_t n = ffi_map_size(map);
  TVMFFIAny* entries = (TVMFFIAny*)malloc((size_t)(n > 0 ? 2 * n : 1) * sizeof(TVMFFIAny));
  if (entries == NULL) return ffi_raise("MemoryError", "out of memory in DeepCopy");
  uint64_t cursor = 0;
  TVMFFIAny *key, *value;
  int64_t count = 0;
  while (count < n && ffi_map_next(map, &cursor, &key, &value)) {
    TVMFFIObject* copy = copy_of_placeholder(c, key);
    if (copy != NULL) ffi_incref(copy);
    entries[2 * count] = copy != NULL ? ffi_any_from_object(copy) : ffi_any_retain(key);
    entries[2 * count + 1] = ffi_any_retain(value);
    ++count;
  }
  int rc = ffi_map_clear(map);
  for (int64_t i = 0; i < count; ++i) {
    if (rc == 0) {
      rc = ffi_map_set(map, entries[2 * i], entries[2 * i + 1]);
    } else {
      ffi_any_release(&entries[2 * i]);
      ffi_any_release(&entries[2 * i + 1]);
    }
  }
  free(entries);
  return rc;
}

static int apply_patches(Copier* c) {
  /* Values first: their patches find their entries under the keys as first inserted. */
  for (size_t i = 0; i < c->patches.size; ++i) {
    Patch* p = (Patch*)ffi_vec_at(&c->patches, i);
    if (p->orig == NULL) continue;
    uint64_t* memo = ffi_ptr_map_find(&c->memo, (uint64_t)(uintptr_t)p->orig);
    if (memo == NULL || *memo == PENDING) continue;
    TVMFFIObject* copy = (TVMFFIObject*)(uintptr_t)*memo;
    TVMFFIAny value = ffi_any_from_object(copy);
    if (p->field != NULL) {
      if (ffi_field_set(p->target, p->field, &value) != 0) return -1;
    } else if (p->index >= 0) {
      TVMFFIAny* slot = &ffi_seq_items(p->target)[p->index];
      ffi_incref(copy);
      ffi_any_release(slot);
      *slot = value;
    } else {
      TVMFFIAny* slot = ffi_map_lookup(p->target, &p->key);
      if (slot != NULL) {
        ffi_incref(copy);
        ffi_any_release(slot);
        *slot = value;
      }
    }
  }
  for (size_t i = 0; i < c->patches.size; ++i) {
    Patch* p = (Patch*)ffi_vec_at(&c->patches, i);
    if (p->orig == NULL && rekey_map(c, p->target) != 0) return -1;
  }
  return 0;
}

int ffi_deep_copy(const TVMFFIAny* value, TVMFFIAny* result) {
  Copier c;
  memset(&c, 0, sizeof(c));
  ffi_ptr_map_init(&c.memo);
  /* Small copies walk in stack buffers and allocate only their results. */
  TVMFFIObject* owned[16];
  Frame frames[8];
  Slot children[16], results[16];
  ffi_vec_init_inline(&c.owned, sizeof(TVMFFIObject*), owned, 16);
  ffi_vec_init_inline(&c.frames, sizeof(Frame), frames, 8);
  ffi_vec_init_inline(&c.children, sizeof(Slot), children, 16);
  ffi_vec_init_inline(&c.results, sizeof(Slot), results, 16);
  ffi_vec_init(&c.patches, sizeof(Patch));
  TVMFFIByteArray enum_key = {"ffi.Enum", 8};
  if (TVMFFITypeKeyToIndex(&enum_key, &c.enum_index) != 0) {
    ffi_discard_raised();
    c.enum_index = -1;
  }
  bool needs_frame;
  int rc = copy_now(&c, value, &needs_frame);
  if (rc == 0 && needs_frame) {
    rc = push_object(&c, value->v_obj);
    if (rc == 0) rc = run(&c);
  }
  if (rc == 0) rc = apply_patches(&c);
  if (rc == 0) *result = ffi_any_retain(&((Slot*)ffi_vec_top(&c.results))->value);
  while (c.frames.size > 0) c.frames.size -= 1;
  ffi_children_drop(&c.children, 0);
  ffi_children_drop(&c.results, 0);
  for (size_t i = 0; i < c.patches.size; ++i) ffi_any_release(&((Patch*)ffi_vec_at(&c.patches, i))->key);
  for (size_t i = 0; i < c.owned.size; ++i) ffi_decref(*(TVMFFIObject**)ffi_vec_at(&c.owned, i));
  ffi_ptr_map_free(&c.memo);
  ffi_vec_free(&c.owned);
  ffi_vec_free(&c.frames);
  ffi_vec_free(&c.children);
  ffi_vec_free(&c.results);
  ffi_vec_free(&c.patches);
  return rc;
}

static int global_deep_copy(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  if (ffi_check_num_args("ffi.DeepCopy", num_args, 1) != 0) return -1;
  TVMFFIAny v;
  if (TVMFFIAnyViewToOwnedAny(&args[0], &v) != 0) return -1;
  int rc = ffi_deep_copy(&v, result);
  ffi_any_release(&v);
  return rc;
}

void ffi_register_deep_copy_globals(void) { ffi_register_builtin("ffi.DeepCopy", global_deep_copy); }
