/*
 * structural/structural_rules.h -- the rules for DAG and free-var nodes (spec STRUCTURAL.md
 * sections 3.4-3.5), shared by the structural walks (structural_eq.c, structural_hash.c) and
 * their direct paths (structural_direct.c), so that both give the same answers.
 *
 * Both memoise a value only when it may be met again, and hash maps in key-hash order.
 *
 * Equality binds each DAG / free-var node to its counterpart, one to one in both directions:
 * a node met again is equal only to the node it was bound to. A free var is equal to another
 * only inside a definition region (a field flagged as defining, or map_free_vars), and is not
 * itself a definition site for its own fields. Hashing gives DAG nodes, and free vars inside
 * a definition region, the order in which they were finished, and other free vars their
 * address.
 */
#ifndef TVM_FFI_RUNTIME_STRUCTURAL_STRUCTURAL_RULES_H_
#define TVM_FFI_RUNTIME_STRUCTURAL_STRUCTURAL_RULES_H_

#include <stdlib.h>

#include "graph_util.h"

/* A value held once (by the parent being visited) cannot be met again: no memo entry.
 * `owned`: one of the references is the visitor's own (a field read), not counted. */
static inline bool ffi_may_be_shared(TVMFFIObject* obj, bool owned) {
  return ffi_strong_count(obj) > (owned ? 2 : 1);
}

/* A map entry as hashing orders it: by the hash of its key. Entries of equal key hash fold
 * only that hash, so their order among themselves does not matter. */
typedef struct {
  uint64_t keyhash;
  const TVMFFIAny* value;
} FfiMapEntry;

static inline int ffi_map_entry_cmp(const void* a, const void* b) {
  uint64_t x = ((const FfiMapEntry*)a)->keyhash, y = ((const FfiMapEntry*)b)->keyhash;
  return x < y ? -1 : x > y;
}

/* Sorts by key hash (insertion sort for the usual small map). */
static inline void ffi_sort_map_entries(FfiMapEntry* e, int64_t n) {
  if (n > 16) {
    qsort(e, (size_t)n, sizeof(FfiMapEntry), ffi_map_entry_cmp);
    return;
  }
  for (int64_t i = 1; i < n; ++i) {
    FfiMapEntry x = e[i];
    int64_t j = i;
    for (; j > 0 && e[j - 1].keyhash > x.keyhash; --j) e[j] = e[j - 1];
    e[j] = x;
  }
}

/* The def region a field's flags open inside `region` (a pattern region stays one). */
static inline int ffi_field_region(const TVMFFIFieldInfo* field, int region) {
  if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashDefPattern) return kTVMFFIDefRegionKindPattern;
  if ((field->flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple) &&
      region != kTVMFFIDefRegionKindPattern) {
    return kTVMFFIDefRegionKindSimple;
  }
  return region;
}

/* True for the kinds equality binds (and hashing numbers). */
static inline bool ffi_seq_binds(int kind) {
  return kind == kTVMFFISEqHashKindDAGNode || kind == kTVMFFISEqHashKindFreeVar;
}

/* Equality of a pair of binding kind met before: 1 equal, 0 unequal, -1 neither side bound. */
static inline int ffi_sequal_bound(FfiPtrMap* lhs_bound, FfiPtrMap* rhs_bound, TVMFFIObject* lo,
                                   TVMFFIObject* ro) {
  uint64_t* bound = ffi_ptr_map_find(lhs_bound, (uint64_t)(uintptr_t)lo);
  if (bound != NULL) return *bound == (uint64_t)(uintptr_t)ro;
  return ffi_ptr_map_find(rhs_bound, (uint64_t)(uintptr_t)ro) != NULL ? 0 : -1;
}

/* The region a node's children are compared in: a free var defines nothing below itself. */
static inline int ffi_sequal_child_region(int kind, int region) {
  return kind == kTVMFFISEqHashKindFreeVar && region == kTVMFFIDefRegionKindSimple
             ? (int)kTVMFFIDefRegionKindNone
             : region;
}

/* Two distinct free vars whose fields matched are still unequal outside a definition region. */
static inline bool ffi_sequal_free_var_mismatch(int kind, TVMFFIObject* lo, TVMFFIObject* ro,
                                                int region) {
  return kind == kTVMFFISEqHashKindFreeVar && lo != ro && region == kTVMFFIDefRegionKindNone;
}

/* Binds a pair found equal, both ways; -1 after raising MemoryError. */
static inline int ffi_sequal_bind(FfiPtrMap* lhs_bound, FfiPtrMap* rhs_bound, TVMFFIObject* lo,
                                  TVMFFIObject* ro) {
  if (ffi_ptr_map_put(lhs_bound, (uint64_t)(uintptr_t)lo, (uint64_t)(uintptr_t)ro) != 0) return -1;
  return ffi_ptr_map_put(rhs_bound, (uint64_t)(uintptr_t)ro, (uint64_t)(uintptr_t)lo);
}

/* A map key as the other side names it: an object key bound to a counterpart (`bindings`:
 * lhs_bound for lhs keys, rhs_bound for rhs keys) becomes that counterpart; others stay. */
static inline TVMFFIAny ffi_sequal_bound_key(FfiPtrMap* bindings, const TVMFFIAny* key) {
  if (bindings->count != 0 && ffi_is_object_index(key->type_index) && key->v_obj != NULL) {
    uint64_t* bound = ffi_ptr_map_find(bindings, (uint64_t)(uintptr_t)key->v_obj);
    if (bound != NULL) {
      TVMFFIAny out = *key;
      out.v_obj = (TVMFFIObject*)(uintptr_t)*bound;
      out.type_index = out.v_obj->type_index;
      return out;
    }
  }
  return *key;
}

/* The hash of a finished node of `kind` whose fields folded to `hash`. */
static inline uint64_t ffi_shash_finish(int kind, int region, uint64_t hash,
                                        const TVMFFIObject* obj, uint64_t* dag_counter,
                                        uint64_t* free_var_counter) {
  if (kind == kTVMFFISEqHashKindDAGNode) return ffi_hash_combine(hash, (*dag_counter)++);
  if (kind != kTVMFFISEqHashKindFreeVar) return hash;
  return region != kTVMFFIDefRegionKindNone ? ffi_hash_combine(hash, (*free_var_counter)++)
                                            : ffi_hash_combine(hash, (uint64_t)(uintptr_t)obj);
}

#endif /* TVM_FFI_RUNTIME_STRUCTURAL_STRUCTURAL_RULES_H_ */
