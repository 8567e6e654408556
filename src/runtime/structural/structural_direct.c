/*
 * structural/structural_direct.c -- the direct paths ffi_structural_equal and
 * ffi_structural_hash try before their walks (structural_eq.c, structural_hash.c).
 *
 * Most values compared or hashed are trees of objects, Arrays/Lists, Maps/Dicts and leaves, a
 * few levels deep. Their comparison needs the walk's state (a memo of shared values, the
 * DAG / free-var bindings or numbering) but not its explicit stack, so this file handles them
 * by C recursion, reading fields straight into locals (the walks keep a frame per node and an
 * owned, stacked copy of every child, and cost about twice as much per node).
 *
 * Rules, so that whatever this answers is what the walk would answer:
 *  - Values are visited in the walk's order (fields ancestors' first, items in order, map
 *    entries in lhs order or by key hash, lengths after items), with the same def regions and
 *    the same binding rules (structural_rules.h), so the first difference found is the walk's
 *    first mismatch, and hashes fold the same child hashes and numbers in the same order.
 *  - Anything else ends the direct path as undecided and the walk starts over, from scratch:
 *    types with an __s_equal__/__s_hash__ hook (user code), types without structural metadata,
 *    failed tensor content reads (the walk raises their errors), when hashing object map keys
 *    (hashed through the walk's memo), and depth past kDirectMaxDepth. The last bounds the C
 *    stack (a deliberate, bounded exception to the explicit-stack rule of graph_util.h) and
 *    leaves cycle detection to the walk: a cycle recurses until it reaches that depth.
 *  - Values are borrowed where they are held by a value being visited (items, fields stored in
 *    this runtime's layouts), owned where a field getter hands out a reference; no user code
 *    runs while a borrowed value is in use (and the callers hold the GIL).
 */
#include <stdlib.h>

#include "structural.h"
#include "structural_rules.h"

enum { kDirectMaxDepth = 128 };

typedef struct {
  bool skip_tensor_content;
  const char* hook_name; /* the hook that sends a type to the walk */
  FfiPtrMap memo; /* equal: lhs -> rhs of shared pairs found equal; hash: object -> hash */
  FfiPtrMap lhs_bound, rhs_bound;          /* equal: the DAG / free-var bijection */
  uint64_t dag_counter, free_var_counter; /* hash: numbering of DAG nodes and defined vars */
  /* The last object type met and what lookup_node_info said of it: trees repeat a few types. */
  int32_t last_type;
  int last_kind;
  const TVMFFITypeInfo* last_info;
} Direct;

static void direct_init(Direct* d, bool skip_tensor_content, const char* hook_name) {
  d->skip_tensor_content = skip_tensor_content;
  d->hook_name = hook_name;
  ffi_ptr_map_init(&d->memo);
  ffi_ptr_map_init(&d->lhs_bound);
  ffi_ptr_map_init(&d->rhs_bound);
  d->dag_counter = d->free_var_counter = 0;
  d->last_type = -1;
  d->last_kind = 0;
  d->last_info = NULL;
}

static void direct_free(Direct* d) {
  ffi_ptr_map_free(&d->memo);
  ffi_ptr_map_free(&d->lhs_bound);
  ffi_ptr_map_free(&d->rhs_bound);
}

/* The type info of an object type the direct paths may enter, or NULL (undecided): one with a
 * structural kind and without a hook. */
static const TVMFFITypeInfo* lookup_node_info(int32_t t, int* kind, const char* hook_name) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(t);
  *kind = 0;
  if (info == NULL || info->metadata == NULL) return NULL;
  *kind = (int)info->metadata->structural_eq_hash_kind;
  if (*kind <= kTVMFFISEqHashKindUnsupported) return NULL;
  return ffi_type_attr(t, hook_name) == NULL ? info : NULL;
}

static const TVMFFITypeInfo* node_info(Direct* d, int32_t t, int* kind) {
  if (t != d->last_type) {
    d->last_info = lookup_node_info(t, &d->last_kind, d->hook_name);
    d->last_type = t;
  }
  *kind = d->last_kind;
  return d->last_info;
}

/* ---- equality ---- */

static FfiDirectOutcome compare(Direct* d, const TVMFFIAny* l, const TVMFFIAny* r, bool owned,
                                int region, int depth);

static FfiDirectOutcome compare_items(Direct* d, TVMFFIObject* lo, TVMFFIObject* ro, int region,
                                      int depth) {
  const TVMFFISeqCell *a = ffi_seq_cell(lo), *b = ffi_seq_cell(ro);
  int64_t n = a->size < b->size ? a->size : b->size;
  const TVMFFIAny *litems = ffi_seq_items(lo), *ritems = ffi_seq_items(ro);
  for (int64_t i = 0; i < n; ++i) {
    bool equal;
    if (ffi_leaf_equal_quick(&litems[i], &ritems[i], &equal)) {
      if (!equal) return kFfiDirectUnequal;
      continue;
    }
    FfiDirectOutcome o = compare(d, &litems[i], &ritems[i], false, region, depth);
    if (o != kFfiDirectEqual) return o;
  }
  return a->size == b->size ? kFfiDirectEqual : kFfiDirectUnequal;
}

static FfiDirectOutcome compare_fields(Direct* d, const TVMFFITypeInfo* info, TVMFFIObject* lo,
                                       TVMFFIObject* ro, int region, int depth) {
  FfiFieldIter it = ffi_field_iter(info);
  for (const TVMFFIFieldInfo* field; (field = ffi_field_next(&it)) != NULL;) {
    if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) continue;
    TVMFFIAny l, r;
    bool lowned, rowned;
    if (ffi_field_view(lo, field, &l, &lowned) != 0) return kFfiDirectUndecided;
    if (ffi_field_view(ro, field, &r, &rowned) != 0) {
      if (lowned) ffi_any_release(&l);
      return kFfiDirectUndecided;
    }
    FfiDirectOutcome o = compare(d, &l, &r, lowned, ffi_field_region(field, region), depth);
    if (lowned) ffi_any_release(&l);
    if (rowned) ffi_any_release(&r);
    if (o != kFfiDirectEqual) return o;
  }
  return kFfiDirectEqual;
}

/* Each lhs entry's key (as rhs names it, through the bindings) looked up in rhs, in lhs order,
 * its value compared; the sizes after all entries. */
static FfiDirectOutcome compare_entries(Direct* d, TVMFFIObject* lo, TVMFFIObject* ro, int region,
                                        int depth) {
  uint64_t cursor = 0;
  TVMFFIAny *k, *v;
  while (ffi_map_next(lo, &cursor, &k, &v)) {
    TVMFFIAny rk = ffi_sequal_bound_key(&d->lhs_bound, k);
    const TVMFFIAny* rv = ffi_map_lookup(ro, &rk);
    if (rv == NULL) return kFfiDirectUnequal;
    FfiDirectOutcome o = compare(d, v, rv, false, region, depth);
    if (o != kFfiDirectEqual) return o;
  }
  return ffi_map_size(lo) == ffi_map_size(ro) ? kFfiDirectEqual : kFfiDirectUnequal;
}

/* `owned`: the caller holds a reference of its own to l (a field read), not counted as sharing. */
static FfiDirectOutcome compare(Direct* d, const TVMFFIAny* l, const TVMFFIAny* r, bool owned,
                                int region, int depth) {
  bool lleaf = ffi_structural_is_leaf(l), rleaf = ffi_structural_is_leaf(r);
  if (lleaf || rleaf) {
    if (!(lleaf && rleaf)) return kFfiDirectUnequal;
    int error;
    bool eq = ffi_leaf_structural_equal(l, r, d->skip_tensor_content, &error);
    return error != 0 ? kFfiDirectUndecided : eq ? kFfiDirectEqual : kFfiDirectUnequal;
  }
  int32_t t = l->type_index;
  if (t != r->type_index) return kFfiDirectUnequal;
  TVMFFIObject *lo = l->v_obj, *ro = r->v_obj;
  bool sequence = t == kTVMFFIArray || t == kTVMFFIList;
  bool map = t == kTVMFFIMap || t == kTVMFFIDict;
  const TVMFFITypeInfo* info = NULL;
  int kind = -1; /* containers */
  if (!sequence && !map) {
    if ((info = node_info(d, t, &kind)) == NULL) return kFfiDirectUndecided;
    if (kind == kTVMFFISEqHashKindUniqueInstance) {
      return lo == ro ? kFfiDirectEqual : kFfiDirectUnequal;
    }
    if (lo == ro && kind == kTVMFFISEqHashKindConstTreeNode) return kFfiDirectEqual;
  }
  bool binds = ffi_seq_binds(kind);
  if (binds) {
    int bound = ffi_sequal_bound(&d->lhs_bound, &d->rhs_bound, lo, ro);
    if (bound >= 0) return bound == 1 ? kFfiDirectEqual : kFfiDirectUnequal;
  }
  bool shared = !binds && ffi_may_be_shared(lo, owned);
  if (shared) {
    uint64_t* memo = ffi_ptr_map_find(&d->memo, (uint64_t)(uintptr_t)lo);
    if (memo != NULL && *memo == (uint64_t)(uintptr_t)ro) return kFfiDirectEqual;
  }
  if (depth >= kDirectMaxDepth) return kFfiDirectUndecided;
  int child_region = ffi_sequal_child_region(kind, region);
  FfiDirectOutcome o = sequence ? compare_items(d, lo, ro, child_region, depth + 1)
                       : map    ? compare_entries(d, lo, ro, child_region, depth + 1)
                                : compare_fields(d, info, lo, ro, child_region, depth + 1);
  if (o != kFfiDirectEqual) return o;
  if (ffi_sequal_free_var_mismatch(kind, lo, ro, region)) return kFfiDirectUnequal;
  int rc = binds    ? ffi_sequal_bind(&d->lhs_bound, &d->rhs_bound, lo, ro)
           : shared ? ffi_ptr_map_put(&d->memo, (uint64_t)(uintptr_t)lo, (uint64_t)(uintptr_t)ro)
                    : 0;
  return rc == 0 ? kFfiDirectEqual : kFfiDirectUndecided;
}

FfiDirectOutcome ffi_structural_equal_direct(const TVMFFIAny* lhs, const TVMFFIAny* rhs,
                                             bool map_free_vars, bool skip_tensor_content) {
  Direct d;
  direct_init(&d, skip_tensor_content, "__s_equal__");
  int region = map_free_vars ? kTVMFFIDefRegionKindPattern : kTVMFFIDefRegionKindNone;
  FfiDirectOutcome o = compare(&d, lhs, rhs, false, region, 0);
  direct_free(&d);
  return o;
}

/* ---- hash ---- */

/* 0 with *out set, or 1: undecided. */
static int hash_value(Direct* d, const TVMFFIAny* v, bool owned, int region, int depth,
                      uint64_t* out);

static int hash_items(Direct* d, TVMFFIObject* obj, int region, int depth, uint64_t* out) {
  const TVMFFISeqCell* cell = ffi_seq_cell(obj);
  uint64_t hash = ffi_hash_combine(ffi_type_key_hash_of(obj->type_index), (uint64_t)cell->size);
  const TVMFFIAny* items = ffi_seq_items(obj);
  for (int64_t i = 0; i < cell->size; ++i) {
    uint64_t item;
    if (!ffi_leaf_hash_quick(&items[i], &item) &&
        hash_value(d, &items[i], false, region, depth, &item) != 0) {
      return 1;
    }
    hash = ffi_hash_combine(hash, item);
  }
  *out = hash;
  return 0;
}

/* Folds the entries of a map of leaf keys as the walk does: sorted by key hash; a key hash
 * shared by several entries folds once, without their values. Object keys (hashed through the
 * walk's memo) are left to the walk. `entries` has room for every entry. */
static int hash_sorted_entries(Direct* d, TVMFFIObject* obj, FfiMapEntry* entries, int region,
                               int depth, uint64_t* out) {
  int64_t n = ffi_map_size(obj), m = 0;
  uint64_t cursor = 0;
  TVMFFIAny *k, *v;
  while (m < n && ffi_map_next(obj, &cursor, &k, &v)) {
    if (!ffi_leaf_hash_quick(k, &entries[m].keyhash) &&
        (!ffi_structural_is_leaf(k) ||
         ffi_leaf_structural_hash(k, d->skip_tensor_content, &entries[m].keyhash) != 0)) {
      return 1;
    }
    entries[m++].value = v;
  }
  ffi_sort_map_entries(entries, m);
  uint64_t hash = ffi_hash_combine(ffi_type_key_hash_of(obj->type_index), (uint64_t)n);
  for (int64_t i = 0; i < m;) {
    int64_t j = i + 1;
    while (j < m && entries[j].keyhash == entries[i].keyhash) ++j;
    hash = ffi_hash_combine(hash, entries[i].keyhash);
    if (j - i == 1) {
      uint64_t value;
      if (hash_value(d, entries[i].value, false, region, depth, &value) != 0) return 1;
      hash = ffi_hash_combine(hash, value);
    }
    i = j;
  }
  *out = hash;
  return 0;
}

/* Small maps sort on the stack (kept small: the recursion may nest maps 128 deep). */
enum { kInlineMapEntries = 16 };

static int hash_entries(Direct* d, TVMFFIObject* obj, int region, int depth, uint64_t* out) {
  int64_t n = ffi_map_size(obj);
  FfiMapEntry inline_entries[kInlineMapEntries];
  FfiMapEntry* entries = n <= kInlineMapEntries
                             ? inline_entries
                             : (FfiMapEntry*)malloc((size_t)n * sizeof(FfiMapEntry));
  if (entries == NULL) return 1; /* the walk raises the MemoryError */
  int rc = hash_sorted_entries(d, obj, entries, region, depth, out);
  if (entries != inline_entries) free(entries);
  return rc;
}

static int hash_fields(Direct* d, const TVMFFITypeInfo* info, TVMFFIObject* obj, int region,
                       int depth, uint64_t* out) {
  uint64_t hash = info->type_key_hash;
  FfiFieldIter it = ffi_field_iter(info);
  for (const TVMFFIFieldInfo* field; (field = ffi_field_next(&it)) != NULL;) {
    if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) continue;
    TVMFFIAny v;
    uint64_t h;
    bool owned;
    if (ffi_field_view(obj, field, &v, &owned) != 0) return 1;
    int rc = hash_value(d, &v, owned, ffi_field_region(field, region), depth, &h);
    if (owned) ffi_any_release(&v);
    if (rc != 0) return 1;
    hash = ffi_hash_combine(hash, h);
  }
  *out = hash;
  return 0;
}

static int hash_value(Direct* d, const TVMFFIAny* v, bool owned, int region, int depth,
                      uint64_t* out) {
  if (ffi_leaf_hash_quick(v, out)) return 0;
  if (ffi_structural_is_leaf(v)) {
    return ffi_leaf_structural_hash(v, d->skip_tensor_content, out) != 0;
  }
  int32_t t = v->type_index;
  TVMFFIObject* obj = v->v_obj;
  bool sequence = t == kTVMFFIArray || t == kTVMFFIList;
  bool map = t == kTVMFFIMap || t == kTVMFFIDict;
  const TVMFFITypeInfo* info = NULL;
  int kind = -1; /* containers */
  if (!sequence && !map && (info = node_info(d, t, &kind)) == NULL) return 1;
  bool shared = ffi_may_be_shared(obj, owned);
  if (shared) {
    uint64_t* memo = ffi_ptr_map_find(&d->memo, (uint64_t)(uintptr_t)obj);
    if (memo != NULL) {
      *out = *memo;
      return 0;
    }
  }
  if (depth >= kDirectMaxDepth) return 1;
  int rc = sequence ? hash_items(d, obj, region, depth + 1, out)
           : map    ? hash_entries(d, obj, region, depth + 1, out)
                    : hash_fields(d, info, obj, region, depth + 1, out);
  if (rc != 0) return 1;
  *out = ffi_shash_finish(kind, region, *out, obj, &d->dag_counter, &d->free_var_counter);
  return shared && ffi_ptr_map_put(&d->memo, (uint64_t)(uintptr_t)obj, *out) != 0;
}

bool ffi_structural_hash_direct(const TVMFFIAny* value, bool map_free_vars,
                                bool skip_tensor_content, uint64_t* out) {
  Direct d;
  direct_init(&d, skip_tensor_content, "__s_hash__");
  int region = map_free_vars ? kTVMFFIDefRegionKindPattern : kTVMFFIDefRegionKindNone;
  int rc = hash_value(&d, value, false, region, 0, out);
  direct_free(&d);
  return rc == 0;
}
