/*
 * structural/mutate_engine.c -- the runtime's structural mutators (ffi.StructuralMutator):
 *  - map, post-order: mutate(x) = callback(default(x)); pre-order: default(callback(x)), the
 *    callback's result descended (in place when it is a fresh, uniquely owned object);
 *  - mutate: the first matching callback owns the value (it calls mutator.mutate /
 *    default_mutate itself); unmatched values descend by default.
 * Callbacks run at every occurrence of a value. The variable remap (FreeVar/DAG identity ->
 * replacement) is keyed by object identity and holds its keys. The engine also keeps the set of
 * objects under descent, so a value that contains itself is a ValueError rather than unbounded
 * recursion, and it runs on one thread at a time.
 */
#include <stdlib.h>

#include "mutate.h"

typedef struct {
  FfiMutatorBase base;
  FfiMutateMode mode;
  int32_t num_entries;
  FfiMutateEntry* entries; /* malloc'ed, tried in order */
  /* The entry that matched the last value's type (NULL: none), as in visit.h's FfiVisitor. */
  int32_t match_type; /* -1 before the first value */
  const FfiMutateEntry* match_entry;
  FfiPtrMap remap;         /* var object -> index + 1 into remap_values; keys retained */
  FfiVec remap_values;     /* TVMFFIAny, owned */
  FfiPtrMap active;        /* objects whose default descent is running */
  _Atomic uintptr_t owner; /* token of the thread running a mutation with it, 0 when idle */
  int32_t depth;
} FfiMutator;

static int32_t g_mutator_index = -1;
int32_t ffi_mutator_type_index(void) { return g_mutator_index; }

static const FfiMutatorVTable kEngineVTable;

static FfiMutator* engine_of(FfiMutatorBase* m) {
  return m->vtable == &kEngineVTable ? (FfiMutator*)m : NULL;
}

/* ---- cycle guard ---- */

static int engine_enter_object(FfiMutatorBase* m, TVMFFIObject* obj) {
  FfiMutator* e = engine_of(m);
  if (e == NULL) return 0;
  if (ffi_ptr_map_find(&e->active, (uint64_t)(uintptr_t)obj) != NULL) {
    TVMFFIByteArray k = ffi_type_key_of(obj->type_index);
    return ffi_raise("ValueError",
                     "structural mutate: cycle detected, a `%.*s` contains itself", (int)k.size,
                     k.data);
  }
  return ffi_ptr_map_put(&e->active, (uint64_t)(uintptr_t)obj, 1);
}

static void engine_leave_object(FfiMutatorBase* m, TVMFFIObject* obj) {
  FfiMutator* e = engine_of(m);
  if (e != NULL) ffi_ptr_map_erase(&e->active, (uint64_t)(uintptr_t)obj);
}

/* ---- variable remap ---- */

static TVMFFIAny remap_key_error(void) {
  ffi_raise("TypeError", "Variable-remap key must be an object-backed value");
  return ffi_raw_from_raised();
}

static TVMFFIAny engine_remap_get(TVMFFIObject* mutator, TVMFFIAny var) {
  FfiMutator* e = (FfiMutator*)mutator;
  if (!ffi_is_object_index(var.type_index) || var.v_obj == NULL) return remap_key_error();
  uint64_t* slot = ffi_ptr_map_find(&e->remap, (uint64_t)(uintptr_t)var.v_obj);
  if (slot == NULL) return ffi_any_none();
  return ffi_any_retain((TVMFFIAny*)ffi_vec_at(&e->remap_values, (size_t)(*slot - 1)));
}

static TVMFFIAny engine_remap_set(TVMFFIObject* mutator, TVMFFIAny var, TVMFFIAny mapped) {
  FfiMutator* e = (FfiMutator*)mutator;
  if (!ffi_is_object_index(var.type_index) || var.v_obj == NULL) return remap_key_error();
  TVMFFIAny owned;
  if (TVMFFIAnyViewToOwnedAny(&mapped, &owned) != 0) return ffi_raw_from_raised();
  uint64_t* slot = ffi_ptr_map_find(&e->remap, (uint64_t)(uintptr_t)var.v_obj);
  if (slot != NULL) {
    TVMFFIAny* value = (TVMFFIAny*)ffi_vec_at(&e->remap_values, (size_t)(*slot - 1));
    TVMFFIAny old = *value;
    *value = owned;
    ffi_any_release(&old);
    return ffi_any_none();
  }
  TVMFFIAny* value = (TVMFFIAny*)ffi_vec_push(&e->remap_values);
  if (value == NULL ||
      ffi_ptr_map_put(&e->remap, (uint64_t)(uintptr_t)var.v_obj, e->remap_values.size) != 0) {
    if (value != NULL) e->remap_values.size -= 1;
    ffi_any_release(&owned);
    return ffi_raw_from_raised();
  }
  *value = owned;
  ffi_incref(var.v_obj);
  return ffi_any_none();
}

/* ---- callbacks ---- */

static const FfiMutateEntry* find_entry(FfiMutator* e, int32_t type_index) {
  if (type_index == e->match_type) return e->match_entry;
  const FfiMutateEntry* found = NULL;
  for (int32_t i = 0; i < e->num_entries; ++i) {
    if (ffi_visit_entry_matches(e->entries[i].type_index, type_index)) {
      found = &e->entries[i];
      break;
    }
  }
  e->match_type = type_index;
  e->match_entry = found;
  return found;
}

TVMFFIAny ffi_mutate_on_path(TVMFFIAny result, TVMFFIAny node) {
  if (ffi_raw_is_error(&result)) ffi_visit_error_record(result.v_obj, &node);
  return result;
}

/* Map callback: (value) or (value, def_region_kind). */
static TVMFFIAny call_map(FfiMutator* e, const FfiMutateEntry* entry, TVMFFIAny value) {
  TVMFFIAny args[2] = {value, ffi_any_none()};
  args[1].type_index = kTVMFFIInt;
  args[1].v_int64 = e->base.def_region;
  TVMFFIAny fn = ffi_any_from_object(entry->fn), result;
  if (ffi_call(&fn, args, entry->with_extra ? 2 : 1, &result) != 0) return ffi_raw_from_raised();
  return result;
}

static TVMFFIAny map_post(FfiMutator* e, TVMFFIAny value, int inplace) {
  TVMFFIAny out = ffi_mutator_default(&e->base, value, inplace);
  if (ffi_raw_is_error(&out)) return ffi_mutate_on_path(out, value);
  TVMFFIAny view = ffi_is_unchanged(&out) ? value : out;
  const FfiMutateEntry* entry = find_entry(e, view.type_index);
  if (entry == NULL) return out;
  /* Recorded as the value the callback saw: the one its children were mapped into. */
  TVMFFIAny mapped = ffi_mutate_on_path(call_map(e, entry, view), view);
  if (ffi_is_unchanged(&mapped)) return out;
  ffi_any_release(&out);
  return mapped;
}

static TVMFFIAny map_pre(FfiMutator* e, TVMFFIAny value, int inplace) {
  const FfiMutateEntry* entry = find_entry(e, value.type_index);
  if (entry == NULL) {
    return ffi_mutate_on_path(ffi_mutator_default(&e->base, value, inplace), value);
  }
  TVMFFIAny mapped = call_map(e, entry, value);
  if (ffi_raw_is_error(&mapped)) return ffi_mutate_on_path(mapped, value);
  TVMFFIAny descent = ffi_is_unchanged(&mapped) ? value : mapped;
  int mode = FFI_INPLACE_DISALLOW;
  if (inplace == FFI_INPLACE_ALLOW) {
    /* The input was unique on entry; a fresh replacement is unique when only we hold it. */
    mode = ffi_any_same(&descent, &value) ||
                   (ffi_is_object_index(descent.type_index) && descent.v_obj != NULL &&
                    ffi_strong_count(descent.v_obj) == 1)
               ? FFI_INPLACE_ALLOW
               : FFI_INPLACE_DISALLOW;
  }
  TVMFFIAny out = ffi_mutate_on_path(ffi_mutator_default(&e->base, descent, mode), value);
  if (ffi_raw_is_error(&out) || !ffi_is_unchanged(&out)) {
    ffi_any_release(&mapped);
    return out;
  }
  return mapped;
}

/* Mutate callback: (value, mutator) or (value, mutator, inplace_mode). */
static TVMFFIAny own(FfiMutator* e, TVMFFIAny value, int inplace) {
  const FfiMutateEntry* entry = find_entry(e, value.type_index);
  if (entry == NULL) {
    return ffi_mutate_on_path(ffi_mutator_default(&e->base, value, inplace), value);
  }
  TVMFFIAny args[3] = {value, ffi_any_from_object(&e->base.header), ffi_any_none()};
  args[2].type_index = kTVMFFIInt;
  args[2].v_int64 = inplace;
  TVMFFIAny fn = ffi_any_from_object(entry->fn), result;
  if (ffi_call(&fn, args, entry->with_extra ? 3 : 2, &result) != 0) {
    return ffi_mutate_on_path(ffi_raw_from_raised(), value);
  }
  return result;
}

static TVMFFIAny engine_dispatch(FfiMutator* e, TVMFFIAny value, int inplace) {
  /* Mutate callbacks re-enter the mutator (mutator.mutate(child)) with any value; otherwise only
   * objects have children to recurse into (the check reads thread-local state: skipped for the
   * many leaves). */
  if ((e->mode == FFI_MUTATE_OWN || ffi_is_object_index(value.type_index)) &&
      ffi_structural_check_stack("structural mutation nested too deeply") != 0) {
    return ffi_mutate_on_path(ffi_raw_from_raised(), value);
  }
  switch (e->mode) {
    case FFI_MUTATE_MAP_PRE:
      return map_pre(e, value, inplace);
    case FFI_MUTATE_MAP_POST:
      return map_post(e, value, inplace);
    default:
      return own(e, value, inplace);
  }
}

static TVMFFIAny engine_mutate(TVMFFIObject* mutator, TVMFFIAny value) {
  return engine_dispatch((FfiMutator*)mutator, value, FFI_INPLACE_DISALLOW);
}

static TVMFFIAny engine_mutate_inplace(TVMFFIObject* mutator, TVMFFIAny value) {
  return engine_dispatch((FfiMutator*)mutator, value, FFI_INPLACE_ALLOW);
}

static const FfiMutatorVTable kEngineVTable = {engine_mutate, engine_mutate_inplace,
                                               engine_remap_get, engine_remap_set};

/* ---- lifetime ---- */

static void mutator_destroy(void* self) {
  FfiMutator* e = (FfiMutator*)self;
  for (int32_t i = 0; i < e->num_entries; ++i) ffi_decref_nested(e->entries[i].fn);
  free(e->entries);
  for (size_t i = 0; i < e->remap.capacity; ++i) {
    if (e->remap.slots[i].key != 0) ffi_decref_nested((TVMFFIObject*)(uintptr_t)e->remap.slots[i].key);
  }
  for (size_t i = 0; i < e->remap_values.size; ++i) {
    ffi_any_release_nested((TVMFFIAny*)ffi_vec_at(&e->remap_values, i));
  }
  ffi_ptr_map_free(&e->remap);
  ffi_vec_free(&e->remap_values);
  ffi_ptr_map_free(&e->active);
}
FFI_DEFINE_DELETER(mutator_deleter, mutator_destroy)

int ffi_mutator_new(FfiMutateMode mode, FfiMutateEntry* entries, int32_t num_entries,
                    FfiMutatorBase** out) {
  FfiMutator* e =
      (FfiMutator*)ffi_object_alloc(sizeof(FfiMutator), g_mutator_index, mutator_deleter);
  if (e == NULL) {
    for (int32_t i = 0; i < num_entries; ++i) ffi_decref(entries[i].fn);
    free(entries);
    return -1;
  }
  e->base.vtable = &kEngineVTable;
  e->base.def_region = kTVMFFIDefRegionKindNone;
  e->mode = mode;
  e->num_entries = num_entries;
  e->entries = entries;
  e->match_type = -1; /* no value has this type index */
  e->match_entry = NULL;
  ffi_ptr_map_init(&e->remap);
  ffi_vec_init(&e->remap_values, sizeof(TVMFFIAny));
  ffi_ptr_map_init(&e->active);
  atomic_init(&e->owner, 0);
  *out = &e->base;
  return 0;
}

/* A mutator that escaped to Python may be used from another thread; its state is not shared
 * safely, so a second thread is refused while the first runs. */
static _Thread_local char t_thread_token;

static int enter_engine(FfiMutator* e) {
  uintptr_t me = (uintptr_t)&t_thread_token, idle = 0;
  if (atomic_load_explicit(&e->owner, memory_order_acquire) != me &&
      !atomic_compare_exchange_strong(&e->owner, &idle, me)) {
    return ffi_raise("RuntimeError",
                     "this ffi.StructuralMutator is running a mutation on another thread");
  }
  e->depth += 1;
  return 0;
}

static void leave_engine(FfiMutator* e) {
  if (--e->depth == 0) atomic_store_explicit(&e->owner, 0, memory_order_release);
}

int ffi_mutator_run(FfiMutatorBase* m, TVMFFIAny root, TVMFFIAny* out) {
  FfiMutator* e = engine_of(m);
  if (e != NULL && enter_engine(e) != 0) {
    ffi_any_release(&root);
    return -1;
  }
  TVMFFIAny raw = ffi_mutator_mutate(m, root, FFI_INPLACE_ALLOW);
  if (e != NULL) leave_engine(e);
  int rc = ffi_raw_to_result(raw, &root, out);
  ffi_any_release(&root);
  return rc;
}

/* Guards a call into any mutator from a global (mutator.mutate(...) etc.). */
int ffi_mutator_enter(FfiMutatorBase* m) {
  FfiMutator* e = engine_of(m);
  return e != NULL ? enter_engine(e) : 0;
}

void ffi_mutator_leave(FfiMutatorBase* m) {
  FfiMutator* e = engine_of(m);
  if (e != NULL) leave_engine(e);
}

void ffi_register_mutate_types(void) {
  /* The C++ headers declare ffi.StructuralMutator as a mutable child of ffi.Object; asking for
   * the same key with the same parent there returns this index. */
  TVMFFIByteArray key = {"ffi.StructuralMutator", strlen("ffi.StructuralMutator")};
  g_mutator_index = TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 1, kTVMFFIObject);
  TVMFFITypeMetadata md;
  memset(&md, 0, sizeof(md));
  /* No creator: mutators exist only while a mutation supplies them. */
  md.total_size = (int32_t)sizeof(FfiMutatorBase);
  md.structural_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  if (TVMFFITypeRegisterMetadata(g_mutator_index, &md) != 0) {
    ffi_fatal("mutate_engine", "metadata of ffi.StructuralMutator");
  }
  FfiMutatorObjectGuard guard = {engine_enter_object, engine_leave_object};
  ffi_mutator_set_object_guard(guard);
  ffi_register_mutate_hooks();
}
