/*
 * structural/structural_hash.c -- ffi.StructuralHash(value, map_free_vars, skip_tensor_content)
 * (spec STRUCTURAL.md sections 3.2-3.6; formulas bit-exact with the reference).
 *
 * Explicit-stack post-order walk. Each container/object frame owns copies of its children; a
 * finished child pushes its hash on a result stack and the frame folds its children's results
 * when done. Objects are memoised (a shared sub-object hashes once, so DAGs take linear time);
 * meeting an object that is still being hashed (a cycle) raises ValueError.
 */
#include <stdlib.h>

#include "structural.h"
#include "structural_rules.h"


typedef struct {
  TVMFFIAny value;  /* owned, or borrowed from an immutable Array/Map parent */
  uint64_t keyhash; /* map entries */
  int region;
  bool key_only; /* map keys sharing a hash: only the key hash is folded */
  bool owned;
} Child;

typedef struct {
  TVMFFIObject* obj;
  int region;
  int kind; /* TVMFFISEqHashKind of reflected objects, -1 for containers */
  size_t begin, count, next;
  size_t results_base;
  bool owned; /* the walk holds a reference to obj (see ffi_may_be_shared) */
} Frame;

typedef struct {
  bool map_free_vars;
  bool skip_tensor_content;
  FfiPtrMap memo;   /* object -> hash */
  FfiPtrMap active; /* objects on the stack, once tracked */
  bool track_cycles; /* set when the stack first gets deeper than kCycleTrackDepth */
  FfiVec frames;
  FfiVec children;
  FfiVec results; /* uint64_t */
  uint64_t free_var_counter;
  uint64_t dag_counter;
  int hook_region; /* region of the object whose __s_hash__ hook runs */
} Hasher;

static int raise_unsupported(int32_t type_index, int kind) {
  TVMFFIByteArray key = ffi_type_key_of(type_index);
  if (kind < 0) {
    return ffi_raise("TypeError",
                     "Type metadata is not set for type `%.*s`, so StructuralHash is not "
                     "supported for this type",
                     (int)key.size, key.data);
  }
  return ffi_raise("TypeError",
                   "_type_s_eq_hash_kind is not set for type `%.*s`, so StructuralHash is not "
                   "supported for this type",
                   (int)key.size, key.data);
}

/* ---- frames ---- */

/* Children of immutable containers are borrowed: the container keeps them alive and cannot
 * change while it is walked. Everything else is retained. */
static int add_child_ref(Hasher* h, const TVMFFIAny* view, int region, uint64_t keyhash,
                         bool key_only, bool borrow) {
  Child* c = (Child*)ffi_vec_push_uninit(&h->children);
  if (c == NULL) return -1;
  c->value = borrow ? *view : ffi_any_retain(view);
  c->owned = !borrow;
  c->region = region;
  c->keyhash = keyhash;
  c->key_only = key_only;
  return 0;
}

/* Only mutable values can close a cycle, so only they are tracked while open. And only from
 * this depth on: a cycle makes the stack grow without bound, so it still gets caught (a few
 * frames later), while the common shallow walk skips a map insert and erase per object. */
static bool is_mutable(int32_t t) { return t != kTVMFFIArray && t != kTVMFFIMap; }
enum { kCycleTrackDepth = 64 };

typedef struct {
  Hasher* h;
  TVMFFIObject* obj;
  int region;
} FieldCtx;

static int add_field_child(const TVMFFIFieldInfo* field, void* ctx_) {
  FieldCtx* ctx = (FieldCtx*)ctx_;
  if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) return 0;
  TVMFFIAny v;
  if (ffi_field_get(ctx->obj, field, &v) != 0) return -1;
  Child* c = (Child*)ffi_vec_push_uninit(&ctx->h->children);
  if (c == NULL) {
    ffi_any_release(&v);
    return -1;
  }
  c->value = v; /* the read's reference becomes the child's */
  c->owned = true;
  c->region = ffi_field_region(field, ctx->region);
  c->keyhash = 0;
  c->key_only = false;
  return 0;
}

/* Children of a Map/Dict: entries with an order-independent key hash, sorted by it. */
static int add_map_children(Hasher* h, TVMFFIObject* map, int region) {
  int64_t n = ffi_map_size(map);
  FfiMapEntry* entries = (FfiMapEntry*)malloc((size_t)(n > 0 ? n : 1) * sizeof(FfiMapEntry));
  if (entries == NULL) return ffi_raise("MemoryError", "out of memory hashing a map");
  size_t m = 0;
  uint64_t cursor = 0;
  TVMFFIAny *k, *v;
  while (ffi_map_next(map, &cursor, &k, &v)) {
    uint64_t kh;
    if (ffi_structural_is_leaf(k)) {
      if (ffi_leaf_structural_hash(k, h->skip_tensor_content, &kh) != 0) {
        free(entries);
        return -1;
      }
    } else {
      uint64_t* memo = ffi_ptr_map_find(&h->memo, (uint64_t)(uintptr_t)k->v_obj);
      if (memo == NULL) continue; /* an object key not hashed yet: skipped */
      kh = *memo;
    }
    entries[m].keyhash = kh;
    entries[m].value = v;
    m += 1;
  }
  ffi_sort_map_entries(entries, (int64_t)m);
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < m;) {
    size_t j = i + 1;
    while (j < m && entries[j].keyhash == entries[i].keyhash) ++j;
    rc = add_child_ref(h, entries[i].value, region, entries[i].keyhash, j - i > 1,
                       map->type_index == kTVMFFIMap);
    i = j;
  }
  free(entries);
  return rc;
}

static void drop_children(Hasher* h, size_t begin) {
  for (size_t i = begin; i < h->children.size; ++i) {
    Child* c = (Child*)ffi_vec_at(&h->children, i);
    if (c->owned) ffi_any_release(&c->value);
  }
  h->children.size = begin;
}

static int call_hook(Hasher* h, const TVMFFIAny* hook, TVMFFIObject* obj, int region,
                     uint64_t* out);
static int finish_object(Hasher* h, TVMFFIObject* obj, bool owned, int kind, int region,
                         uint64_t hash, uint64_t* out);

/* Tracks obj as open, once tracking has started (see kCycleTrackDepth). */
static int track_open(Hasher* h, TVMFFIObject* obj) {
  if (!h->track_cycles && (int64_t)h->frames.size >= kCycleTrackDepth) {
    h->track_cycles = true; /* deep enough to be a cycle: every open mutable object from now */
    for (size_t i = 0; i < h->frames.size; ++i) {
      TVMFFIObject* open = ((const Frame*)ffi_vec_at(&h->frames, i))->obj;
      if (is_mutable(open->type_index) &&
          ffi_ptr_map_put(&h->active, (uint64_t)(uintptr_t)open, 1) != 0) {
        return -1;
      }
    }
  }
  if (!h->track_cycles || !is_mutable(obj->type_index)) return 0;
  return ffi_ptr_map_put(&h->active, (uint64_t)(uintptr_t)obj, 1);
}

/* Starts hashing obj: pushes a frame, or finishes at once (hooks). */
static int push_object(Hasher* h, TVMFFIObject* obj, bool owned, int region) {
  if ((int64_t)h->frames.size >= FFI_GRAPH_MAX_DEPTH) {
    return ffi_raise("ValueError", "StructuralHash: maximum stack depth (1048576) exceeded");
  }
  int32_t t = obj->type_index;
  int kind = -1;
  if (t != kTVMFFIArray && t != kTVMFFIList && t != kTVMFFIMap && t != kTVMFFIDict) {
    kind = ffi_type_seq_kind(t);
    if (kind <= 0) return raise_unsupported(t, kind);
  }
  if (track_open(h, obj) != 0) return -1;
  if (kind > 0) {
    const TVMFFIAny* hook = ffi_type_attr(t, "__s_hash__");
    if (hook != NULL) {
      uint64_t hash = 0;
      if (call_hook(h, hook, obj, region, &hash) != 0) return -1;
      ffi_ptr_map_erase(&h->active, (uint64_t)(uintptr_t)obj);
      uint64_t* r = (uint64_t*)ffi_vec_push_uninit(&h->results);
      if (r == NULL) return -1;
      return finish_object(h, obj, owned, kind, region, hash, r);
    }
  }
  size_t begin = h->children.size;
  int rc = 0;
  if (t == kTVMFFIArray || t == kTVMFFIList) {
    TVMFFISeqCell* cell = ffi_seq_cell(obj);
    for (int64_t i = 0; rc == 0 && i < cell->size; ++i) {
      rc = add_child_ref(h, &ffi_seq_items(obj)[i], region, 0, false, t == kTVMFFIArray);
    }
  } else if (t == kTVMFFIMap || t == kTVMFFIDict) {
    rc = add_map_children(h, obj, region);
  } else {
    FieldCtx ctx = {h, obj, region};
    rc = ffi_for_each_field(t, add_field_child, &ctx);
  }
  Frame* f = rc == 0 ? (Frame*)ffi_vec_push_uninit(&h->frames) : NULL;
  if (f == NULL) {
    drop_children(h, begin);
    return -1;
  }
  f->obj = obj;
  f->region = region;
  f->kind = kind;
  f->begin = begin;
  f->count = h->children.size - begin;
  f->next = 0;
  f->results_base = h->results.size;
  f->owned = owned;
  return 0;
}

/* Applies the DAG / free-var step and memoises. */
static int finish_object(Hasher* h, TVMFFIObject* obj, bool owned, int kind, int region,
                         uint64_t hash, uint64_t* out) {
  *out = ffi_shash_finish(kind, region, hash, obj, &h->dag_counter, &h->free_var_counter);
  if (!ffi_may_be_shared(obj, owned)) return 0;
  return ffi_ptr_map_put(&h->memo, (uint64_t)(uintptr_t)obj, *out);
}

static uint64_t fold_frame(Hasher* h, const Frame* f) {
  const Child* c = (const Child*)ffi_vec_at(&h->children, f->begin);
  const uint64_t* r = (const uint64_t*)ffi_vec_at(&h->results, f->results_base);
  int32_t t = f->obj->type_index;
  uint64_t hash = ffi_type_key_hash_of(t);
  if (t == kTVMFFIArray || t == kTVMFFIList) {
    hash = ffi_hash_combine(hash, (uint64_t)ffi_seq_cell(f->obj)->size);
    for (size_t i = 0; i < f->count; ++i) hash = ffi_hash_combine(hash, r[i]);
  } else if (t == kTVMFFIMap || t == kTVMFFIDict) {
    hash = ffi_hash_combine(hash, (uint64_t)ffi_map_size(f->obj));
    for (size_t i = 0; i < f->count; ++i) {
      hash = ffi_hash_combine(hash, c[i].keyhash);
      if (!c[i].key_only) hash = ffi_hash_combine(hash, r[i]);
    }
  } else {
    for (size_t i = 0; i < f->count; ++i) hash = ffi_hash_combine(hash, r[i]);
  }
  return hash;
}

/* Pushes the hash of a child that needs no frame; *pushed = false when it needs one. */
static int hash_child_now(Hasher* h, const Child* c, bool* done) {
  *done = true;
  uint64_t value = 0;
  if (c->key_only) {
    value = 0;
  } else if (ffi_structural_is_leaf(&c->value)) {
    if (ffi_leaf_structural_hash(&c->value, h->skip_tensor_content, &value) != 0) return -1;
  } else {
    uint64_t key = (uint64_t)(uintptr_t)c->value.v_obj;
    if (!ffi_may_be_shared(c->value.v_obj, c->owned)) {
      *done = false;
      return 0;
    }
    uint64_t* memo = ffi_ptr_map_find(&h->memo, key);
    if (memo != NULL) {
      value = *memo;
    } else if (ffi_ptr_map_find(&h->active, key) != NULL) {
      TVMFFIByteArray k = ffi_type_key_of(c->value.type_index);
      return ffi_raise("ValueError",
                       "StructuralHash: cycle detected, a `%.*s` contains itself", (int)k.size,
                       k.data);
    } else {
      *done = false;
      return 0;
    }
  }
  uint64_t* r = (uint64_t*)ffi_vec_push_uninit(&h->results);
  if (r == NULL) return -1;
  *r = value;
  return 0;
}

static int run(Hasher* h, size_t base) {
  while (h->frames.size > base) {
    Frame* f = (Frame*)ffi_vec_top(&h->frames);
    if (f->next < f->count) {
      Child c = *(const Child*)ffi_vec_at(&h->children, f->begin + f->next);
      f->next += 1;
      bool done;
      if (hash_child_now(h, &c, &done) != 0) return -1;
      if (!done && push_object(h, c.value.v_obj, c.owned, c.region) != 0) return -1;
      continue;
    }
    uint64_t hash = fold_frame(h, f);
    TVMFFIObject* obj = f->obj;
    bool owned = f->owned;
    int kind = f->kind, region = f->region;
    h->results.size = f->results_base;
    drop_children(h, f->begin);
    h->frames.size -= 1;
    if (h->track_cycles && is_mutable(obj->type_index)) {
      ffi_ptr_map_erase(&h->active, (uint64_t)(uintptr_t)obj);
    }
    uint64_t* r = (uint64_t*)ffi_vec_push_uninit(&h->results);
    if (r == NULL || finish_object(h, obj, owned, kind, region, hash, r) != 0) return -1;
  }
  return 0;
}

/* Hash of one value with the walk state (used by the entry point and by hooks). */
static int hash_value(Hasher* h, const TVMFFIAny* v, int region, uint64_t* out) {
  size_t base = h->frames.size;
  size_t results = h->results.size;
  Child c = {*v, 0, region, false, false};
  bool done;
  int rc = hash_child_now(h, &c, &done);
  if (rc == 0 && !done) {
    rc = push_object(h, v->v_obj, false, region);
    if (rc == 0) rc = run(h, base);
  }
  if (rc != 0) {
    while (h->frames.size > base) {
      Frame* f = (Frame*)ffi_vec_top(&h->frames);
      drop_children(h, f->begin);
      h->frames.size -= 1;
    }
    h->results.size = results;
    return -1;
  }
  *out = *(uint64_t*)ffi_vec_top(&h->results);
  h->results.size = results;
  return 0;
}

/* ---- __s_hash__ hooks: hook(self, init_hash, fn_hash), fn_hash(value, init_hash, region) ---- */

static int fn_hash_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  const char* fname = "StructuralHash.fn_hash";
  int64_t init = 0, region = 0;
  if (num_args != 2 && ffi_check_num_args(fname, num_args, 3) != 0) return -1;
  if (ffi_arg_int(fname, args, 1, &init) != 0) return -1;
  if (num_args == 3 && ffi_arg_int(fname, args, 2, &region) != 0) return -1;
  Hasher* h = (Hasher*)self;
  TVMFFIAny v;
  if (TVMFFIAnyViewToOwnedAny(&args[0], &v) != 0) return -1;
  int current = h->hook_region;
  int use = region == kTVMFFIDefRegionKindPattern ? (int)kTVMFFIDefRegionKindPattern
            : region == kTVMFFIDefRegionKindSimple && current != kTVMFFIDefRegionKindPattern
                ? (int)kTVMFFIDefRegionKindSimple
                : current;
  uint64_t out;
  int rc = hash_value(h, &v, use, &out);
  ffi_any_release(&v);
  if (rc != 0) return -1;
  ffi_ret_int(result, (int64_t)ffi_hash_combine((uint64_t)init, out));
  return 0;
}

static int call_hook(Hasher* h, const TVMFFIAny* hook, TVMFFIObject* obj, int region,
                     uint64_t* out) {
  TVMFFIObject* fn;
  if (ffi_closure_new(h, fn_hash_call, NULL, &fn) != 0) return -1;
  int saved_region = h->hook_region;
  h->hook_region = region;
  TVMFFIAny args[3] = {ffi_any_from_object(obj), ffi_any_none(), ffi_any_from_object(fn)};
  args[1].type_index = kTVMFFIInt;
  args[1].v_int64 = (int64_t)ffi_type_key_hash_of(obj->type_index);
  TVMFFIAny result;
  int rc = ffi_call(hook, args, 3, &result);
  ffi_decref(fn);
  h->hook_region = saved_region;
  if (rc != 0) return -1;
  if (result.type_index != kTVMFFIInt) {
    ffi_any_release(&result);
    return ffi_raise("TypeError", "__s_hash__ must return an int");
  }
  *out = (uint64_t)result.v_int64;
  return 0;
}

/* ---- entry point ---- */

int ffi_structural_hash(const TVMFFIAny* value, bool map_free_vars, bool skip_tensor_content,
                        uint64_t* out) {
  if (ffi_structural_is_leaf(value)) return ffi_leaf_structural_hash(value, skip_tensor_content, out);
  /* Trees are hashed by the direct path; the walk runs for what it leaves undecided. */
  if (ffi_structural_hash_direct(value, map_free_vars, skip_tensor_content, out)) return 0;
  Hasher h; /* every member set below (a memset of the inline maps cost more) */
  ffi_ptr_map_init(&h.memo);
  ffi_ptr_map_init(&h.active);
  h.track_cycles = false;
  h.free_var_counter = 0;
  h.dag_counter = 0;
  h.hook_region = kTVMFFIDefRegionKindNone;
  h.map_free_vars = map_free_vars;
  h.skip_tensor_content = skip_tensor_content;
  Frame frames[8];
  Child children[32];
  uint64_t results[32];
  ffi_vec_init_inline(&h.frames, sizeof(Frame), frames, 8);
  ffi_vec_init_inline(&h.children, sizeof(Child), children, 32);
  ffi_vec_init_inline(&h.results, sizeof(uint64_t), results, 32);
  int region = map_free_vars ? kTVMFFIDefRegionKindPattern : kTVMFFIDefRegionKindNone;
  int rc = hash_value(&h, value, region, out);
  ffi_ptr_map_free(&h.memo);
  ffi_ptr_map_free(&h.active);
  ffi_vec_free(&h.frames);
  ffi_vec_free(&h.children);
  ffi_vec_free(&h.results);
  return rc;
}
