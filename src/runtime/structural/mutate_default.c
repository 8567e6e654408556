/*
 * structural/mutate_default.c -- default structural mutation, shared by every mutator (the
 * runtime's engines and C++ engines built against the reference headers):
 *  - a type's `__s_maybe_inplace_mutate__` hook (in-place mode only) or `__s_mutate__` hook: a
 *    native function pointer with the ABI of mutate.h, or an ffi.Function (mutator, value);
 *  - Array/List/Map/Dict (native hooks registered here): items resp. map values, each through
 *    the mutator; copy-on-write builds one new container at the first change, in-place mode
 *    writes the changed slots of the (uniquely owned) container;
 *  - str/bytes/BigInt objects and every non-object value: unchanged;
 *  - other objects: FreeVar/DAG identities are looked up in the mutator's variable remap first;
 *    a FreeVar used outside a def region stays as it is; otherwise the reflected fields (not
 *    SEqHashIgnore ones; def fields in their def region) are mutated, and the object is copied
 *    through `__ffi_shallow_copy__` at the first changed field (the source is never written).
 *    FreeVar/DAG results are recorded in the remap, so later uses get the same replacement.
 * Hooks recurse on the C stack, so each level checks the stack and the runtime's engines refuse
 * a value that contains itself (ValueError) instead of looping.
 */
#include <stdlib.h>

#include "mutate.h"

static const char kMutateAttr[] = "__s_mutate__";
static const char kInplaceAttr[] = "__s_maybe_inplace_mutate__";

/* The hook columns, resolved once at registration (columns live for the process): every value
 * of a mutation looks its type up here. */
static const TVMFFITypeAttrColumn* g_mutate_column;
static const TVMFFITypeAttrColumn* g_inplace_column;

/* The engine's cycle guard (installed by mutate_engine.c at registration). */
static FfiMutatorObjectGuard g_guard;

void ffi_mutator_set_object_guard(FfiMutatorObjectGuard guard) { g_guard = guard; }

static int enter_object(FfiMutatorBase* m, TVMFFIObject* obj) {
  return g_guard.enter != NULL ? g_guard.enter(m, obj) : 0;
}

static void leave_object(FfiMutatorBase* m, TVMFFIObject* obj) {
  if (g_guard.leave != NULL) g_guard.leave(m, obj);
}

static const TVMFFIAny* column_get(const TVMFFITypeAttrColumn* column, int32_t type_index) {
  if (column == NULL || column->data == NULL) return NULL;
  int64_t i = (int64_t)type_index - column->begin_index;
  if (i < 0 || i >= column->size) return NULL;
  const TVMFFIAny* v = &column->data[i];
  return v->type_index == kTVMFFINone ? NULL : v;
}

TVMFFIAny ffi_raw_from_raised(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  return ffi_any_from_object((TVMFFIObject*)err);
}

int ffi_raw_to_result(TVMFFIAny raw, const TVMFFIAny* original, TVMFFIAny* out) {
  if (ffi_raw_is_error(&raw)) {
    TVMFFIErrorSetRaised(raw.v_obj);
    ffi_any_release(&raw);
    return -1;
  }
  if (ffi_is_unchanged(&raw)) return TVMFFIAnyViewToOwnedAny(original, out);
  *out = raw;
  return 0;
}

static TVMFFIAny raise_raw(const char* kind, const char* message) {
  ffi_raise(kind, "%s", message);
  return ffi_raw_from_raised();
}

TVMFFIAny ffi_mutator_mutate(FfiMutatorBase* m, TVMFFIAny value, int inplace) {
  if (inplace == FFI_INPLACE_ALLOW && ffi_is_object_index(value.type_index) && value.v_obj != NULL &&
      ffi_strong_count(value.v_obj) == 1) {
    return m->vtable->maybe_inplace_mutate(&m->header, value);
  }
  return m->vtable->mutate(&m->header, value);
}

/* ---- hooks ---- */

static TVMFFIAny call_hook(FfiMutatorBase* m, const TVMFFIAny* hook, TVMFFIAny value,
                           const char* attr) {
  if (hook->type_index == kTVMFFIOpaquePtr) return ((FfiMutateFn)hook->v_ptr)(&m->header, value);
  if (hook->type_index != kTVMFFIFunction) {
    ffi_raise("TypeError", "%s must be a direct hook pointer or ffi.Function", attr);
    return ffi_raw_from_raised();
  }
  TVMFFIAny args[2];
  args[0] = ffi_any_from_object(&m->header);
  args[1] = value;
  TVMFFIAny result;
  if (ffi_call(hook, args, 2, &result) != 0) return ffi_raw_from_raised();
  return result;
}

/* ---- reflected fields ---- */

typedef struct {
  FfiMutatorBase* m;
  TVMFFIAny source;       /* borrowed */
  const TVMFFIAny* copy_fn; /* __ffi_shallow_copy__ */
  TVMFFIObject* copy;     /* owned, made at the first change */
} FieldsCtx;

static int make_copy(FieldsCtx* c) {
  TVMFFIAny copied;
  if (ffi_call(c->copy_fn, &c->source, 1, &copied) != 0) return -1;
  if (!ffi_is_object_index(copied.type_index) || copied.v_obj == NULL ||
      copied.type_index != c->source.type_index || copied.v_obj == c->source.v_obj) {
    ffi_any_release(&copied);
    return ffi_raise("TypeError",
                     "Shallow copy callback must return a distinct object with the same type as "
                     "its input");
  }
  c->copy = copied.v_obj;
  return 0;
}

static int mutate_field(const TVMFFIFieldInfo* field, void* ctx) {
  FieldsCtx* c = (FieldsCtx*)ctx;
  if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) return 0;
  TVMFFIAny old;
  if (ffi_field_get(c->source.v_obj, field, &old) != 0) return -1;
  int32_t region = field->flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple    ? kTVMFFIDefRegionKindSimple
                   : field->flags & kTVMFFIFieldFlagBitMaskSEqHashDefPattern ? kTVMFFIDefRegionKindPattern
                                                                             : -1;
  int32_t saved = region >= 0 ? ffi_mutator_enter_region(c->m, region) : c->m->def_region;
  TVMFFIAny raw = ffi_mutator_mutate(c->m, old, FFI_INPLACE_DISALLOW);
  c->m->def_region = saved;
  int rc = 0;
  if (ffi_raw_is_error(&raw)) {
    TVMFFIErrorSetRaised(raw.v_obj);
    ffi_any_release(&raw);
    rc = -1;
  } else if (!ffi_raw_keeps(&raw, &old)) {
    if (field->setter == NULL) {
      TVMFFIByteArray k = ffi_type_key_of(c->source.type_index);
      rc = ffi_raise("TypeError",
                     "Cannot structurally mutate field `%.*s` of type `%.*s` because it does not "
                     "define a setter",
                     (int)field->name.size, field->name.data, (int)k.size, k.data);
    } else if (c->copy != NULL || (rc = make_copy(c)) == 0) {
      rc = ffi_field_set(c->copy, field, &raw);
    }
  }
  ffi_any_release(&raw);
  ffi_any_release(&old);
  return rc;
}

static TVMFFIAny mutate_fields(FfiMutatorBase* m, TVMFFIAny value, int kind) {
  const TVMFFIAny* copy_fn = ffi_type_attr(value.type_index, "__ffi_shallow_copy__");
  if (copy_fn == NULL || copy_fn->type_index != kTVMFFIFunction) {
    return raise_raw("TypeError", "__ffi_shallow_copy__ must be an ffi.Function");
  }
  if (enter_object(m, value.v_obj) != 0) return ffi_raw_from_raised();
  FieldsCtx c = {m, value, copy_fn, NULL};
  /* A variable's own fields (its type annotation) are uses, not definitions. */
  int32_t saved = m->def_region;
  if (saved == kTVMFFIDefRegionKindSimple && kind == kTVMFFISEqHashKindFreeVar) {
    m->def_region = kTVMFFIDefRegionKindNone;
  }
  int rc = ffi_for_each_field(value.type_index, mutate_field, &c);
  m->def_region = saved;
  leave_object(m, value.v_obj);
  if (rc != 0) {
    if (c.copy != NULL) ffi_decref(c.copy);
    return ffi_raw_from_raised();
  }
  return c.copy != NULL ? ffi_any_from_object(c.copy) : ffi_unchanged();
}

/* No hook: POD values stay, reflected objects go field by field with variable remapping. */
static TVMFFIAny default_reflected(FfiMutatorBase* m, TVMFFIAny value) {
  if (!ffi_is_object_index(value.type_index) || value.v_obj == NULL) return ffi_unchanged();
  int kind = ffi_type_seq_kind(value.type_index);
  bool is_var = kind == kTVMFFISEqHashKindFreeVar, is_dag = kind == kTVMFFISEqHashKindDAGNode;
  if (is_var || is_dag) {
    TVMFFIAny mapped = m->vtable->var_remap_get(&m->header, value);
    if (mapped.type_index != kTVMFFINone) return mapped; /* a replacement or an error */
  }
  if (is_var && m->def_region == kTVMFFIDefRegionKindNone) return ffi_unchanged();
  TVMFFIAny result = mutate_fields(m, value, kind);
  if (ffi_raw_is_error(&result)) return result;
  if (is_dag || (is_var && (m->def_region == kTVMFFIDefRegionKindPattern ||
                            !ffi_is_unchanged(&result)))) {
    /* The input itself stands for "unchanged" here: the marker never leaves the runtime
     * through var_remap_get. */
    TVMFFIAny set = m->vtable->var_remap_set(&m->header, value,
                                             ffi_is_unchanged(&result) ? value : result);
    if (set.type_index != kTVMFFINone) {
      ffi_any_release(&result);
      return set;
    }
  }
  return result;
}

TVMFFIAny ffi_mutator_default(FfiMutatorBase* m, TVMFFIAny value, int inplace) {
  if (ffi_is_object_index(value.type_index) &&
      ffi_structural_check_stack("structural mutation nested too deeply") != 0) {
    return ffi_raw_from_raised();
  }
  if (inplace == FFI_INPLACE_ALLOW) {
    const TVMFFIAny* hook = column_get(g_inplace_column, value.type_index);
    if (hook != NULL) return call_hook(m, hook, value, kInplaceAttr);
  }
  const TVMFFIAny* hook = column_get(g_mutate_column, value.type_index);
  if (hook != NULL) return call_hook(m, hook, value, kMutateAttr);
  return default_reflected(m, value);
}

/* ---- container hooks (native hook ABI) ---- */

/* Copy-on-write: children are held while they are mutated (a callback may change a shared
 * List); the copy is made at the first changed item. */
static TVMFFIAny seq_mutate(TVMFFIObject* mutator, TVMFFIAny value) {
  FfiMutatorBase* m = (FfiMutatorBase*)mutator;
  if (enter_object(m, value.v_obj) != 0) return ffi_raw_from_raised();
  TVMFFIObject* copy = NULL;
  TVMFFIAny result = ffi_unchanged();
  for (int64_t i = 0; i < ffi_seq_cell(value.v_obj)->size; ++i) {
    TVMFFIAny item = ffi_any_retain(&ffi_seq_items(value.v_obj)[i]);
    TVMFFIAny raw = ffi_mutator_mutate(m, item, FFI_INPLACE_DISALLOW);
    if (ffi_raw_is_error(&raw)) {
      ffi_any_release(&item);
      result = raw;
      break;
    }
    if (!ffi_raw_keeps(&raw, &item) && copy == NULL) {
      TVMFFISeqCell* cell = ffi_seq_cell(value.v_obj);
      int rc = value.type_index == kTVMFFIList
                   ? ffi_list_new_views((const TVMFFIAny*)cell->data, cell->size, &copy)
                   : ffi_array_new((const TVMFFIAny*)cell->data, cell->size, &copy);
      if (rc != 0) {
        ffi_any_release(&raw);
        ffi_any_release(&item);
        result = ffi_raw_from_raised();
        break;
      }
    }
    if (!ffi_raw_keeps(&raw, &item) && i < ffi_seq_cell(copy)->size) {
      TVMFFIAny* slot = &ffi_seq_items(copy)[i];
      ffi_any_release(slot);
      *slot = raw;
    } else {
      ffi_any_release(&raw);
    }
    ffi_any_release(&item);
  }
  leave_object(m, value.v_obj);
  if (ffi_raw_is_error(&result)) {
    if (copy != NULL) ffi_decref(copy);
    return result;
  }
  return copy != NULL ? ffi_any_from_object(copy) : ffi_unchanged();
}

/* In place: the container is uniquely owned, so its items are borrowed (keeping their own
 * uniqueness visible) and changed slots are overwritten. */
static TVMFFIAny seq_mutate_inplace(TVMFFIObject* mutator, TVMFFIAny value) {
  FfiMutatorBase* m = (FfiMutatorBase*)mutator;
  if (enter_object(m, value.v_obj) != 0) return ffi_raw_from_raised();
  TVMFFIAny result = ffi_unchanged();
  for (int64_t i = 0; i < ffi_seq_cell(value.v_obj)->size; ++i) {
    TVMFFIAny item = ffi_seq_items(value.v_obj)[i];
    TVMFFIAny raw = ffi_mutator_mutate(m, item, FFI_INPLACE_ALLOW);
    if (ffi_raw_is_error(&raw)) {
      result = raw;
      break;
    }
    if (!ffi_raw_keeps(&raw, &item) && i < ffi_seq_cell(value.v_obj)->size) {
      TVMFFIAny* slot = &ffi_seq_items(value.v_obj)[i];
      TVMFFIAny old = *slot;
      *slot = raw;
      ffi_any_release(&old);
    } else {
      ffi_any_release(&raw);
    }
  }
  leave_object(m, value.v_obj);
  return result;
}

typedef struct {
  TVMFFIAny key, value;
} Entry;

/* Copies n entries of a snapshot into a new map of the same kind, in order. */
static int copy_entries(int32_t type_index, const Entry* entries, int64_t n, TVMFFIObject** out) {
  if (ffi_map_new_empty(type_index, out) != 0) return -1;
  for (int64_t j = 0; j < n; ++j) {
    if (ffi_map_set(*out, ffi_any_retain(&entries[j].key), ffi_any_retain(&entries[j].value)) != 0) {
      ffi_decref(*out);
      *out = NULL;
      return -1;
    }
  }
  return 0;
}

/* Mutates the values of a snapshot; the copy is made at the first change. */
static TVMFFIAny map_mutate_entries(FfiMutatorBase* m, int32_t type_index, const Entry* entries,
                                    int64_t n) {
  TVMFFIObject* copy = NULL;
  for (int64_t i = 0; i < n; ++i) {
    TVMFFIAny raw = ffi_mutator_mutate(m, entries[i].value, FFI_INPLACE_DISALLOW);
    if (!ffi_raw_is_error(&raw) && ffi_raw_keeps(&raw, &entries[i].value)) {
      ffi_any_release(&raw);
      continue;
    }
    if (!ffi_raw_is_error(&raw) && copy == NULL && copy_entries(type_index, entries, n, &copy) != 0) {
      ffi_any_release(&raw);
      raw = ffi_raw_from_raised();
    }
    if (!ffi_raw_is_error(&raw) && ffi_map_set(copy, ffi_any_retain(&entries[i].key), raw) != 0) {
      raw = ffi_raw_from_raised();
    }
    if (ffi_raw_is_error(&raw)) {
      if (copy != NULL) ffi_decref(copy);
      return raw;
    }
  }
  return copy != NULL ? ffi_any_from_object(copy) : ffi_unchanged();
}

/* Copy-on-write over a snapshot of the entries (a callback may change a shared Dict). */
static TVMFFIAny map_mutate(TVMFFIObject* mutator, TVMFFIAny value) {
  FfiMutatorBase* m = (FfiMutatorBase*)mutator;
  int64_t n = ffi_map_size(value.v_obj);
  Entry* entries = (Entry*)malloc((size_t)(n > 0 ? n : 1) * sizeof(Entry));
  if (entries == NULL) return raise_raw("MemoryError", "out of memory mutating a map");
  uint64_t cursor = 0;
  TVMFFIAny *k, *v;
  int64_t count = 0;
  while (count < n && ffi_map_next(value.v_obj, &cursor, &k, &v)) {
    entries[count].key = ffi_any_retain(k);
    entries[count++].value = ffi_any_retain(v);
  }
  TVMFFIAny result;
  if (enter_object(m, value.v_obj) != 0) {
    result = ffi_raw_from_raised();
  } else {
    result = map_mutate_entries(m, value.type_index, entries, count);
    leave_object(m, value.v_obj);
  }
  for (int64_t i = 0; i < count; ++i) {
    ffi_any_release(&entries[i].key);
    ffi_any_release(&entries[i].value);
  }
  free(entries);
  return result;
}

static TVMFFIAny map_mutate_inplace(TVMFFIObject* mutator, TVMFFIAny value) {
  FfiMutatorBase* m = (FfiMutatorBase*)mutator;
  if (enter_object(m, value.v_obj) != 0) return ffi_raw_from_raised();
  TVMFFIAny result = ffi_unchanged();
  uint64_t cursor = 0;
  TVMFFIAny *k, *v;
  while (ffi_map_next(value.v_obj, &cursor, &k, &v)) {
    TVMFFIAny raw = ffi_mutator_mutate(m, *v, FFI_INPLACE_ALLOW);
    if (ffi_raw_is_error(&raw)) {
      result = raw;
      break;
    }
    if (!ffi_raw_keeps(&raw, v)) {
      TVMFFIAny old = *v;
      *v = raw;
      ffi_any_release(&old);
    } else {
      ffi_any_release(&raw);
    }
  }
  leave_object(m, value.v_obj);
  return result;
}

/* Immutable leaves (str, bytes, BigInt objects). */
static TVMFFIAny leaf_mutate(TVMFFIObject* mutator, TVMFFIAny value) {
  (void)mutator;
  (void)value;
  return ffi_unchanged();
}

static void set_hook(int32_t type_index, const char* attr, FfiMutateFn fn) {
  TVMFFIAny v = ffi_any_none();
  v.type_index = kTVMFFIOpaquePtr;
  v.v_ptr = (void*)fn;
  TVMFFIByteArray name = {attr, strlen(attr)};
  if (TVMFFITypeRegisterAttr(type_index, &name, &v) != 0) ffi_fatal("mutate_default", "%s", attr);
}

void ffi_register_mutate_hooks(void) {
  static const int32_t leaves[] = {kTVMFFIStr, kTVMFFIBytes, kTVMFFIBigInt};
  for (size_t i = 0; i < sizeof(leaves) / sizeof(leaves[0]); ++i) {
    set_hook(leaves[i], kMutateAttr, leaf_mutate);
    set_hook(leaves[i], kInplaceAttr, leaf_mutate);
  }
  set_hook(kTVMFFIArray, kMutateAttr, seq_mutate);
  set_hook(kTVMFFIArray, kInplaceAttr, seq_mutate_inplace);
  set_hook(kTVMFFIList, kMutateAttr, seq_mutate);
  set_hook(kTVMFFIList, kInplaceAttr, seq_mutate_inplace);
  set_hook(kTVMFFIMap, kMutateAttr, map_mutate);
  set_hook(kTVMFFIMap, kInplaceAttr, map_mutate_inplace);
  set_hook(kTVMFFIDict, kMutateAttr, map_mutate);
  set_hook(kTVMFFIDict, kInplaceAttr, map_mutate_inplace);
  TVMFFIByteArray mutate_name = {kMutateAttr, sizeof(kMutateAttr) - 1};
  TVMFFIByteArray inplace_name = {kInplaceAttr, sizeof(kInplaceAttr) - 1};
  g_mutate_column = TVMFFIGetTypeAttrColumn(&mutate_name);
  g_inplace_column = TVMFFIGetTypeAttrColumn(&inplace_name);
}
