/*
 * container/content_equal.c -- equality and hashing of FFI values by content, as Python's `==`,
 * `hash()` and `in` on Array/List/Map/Dict see them.
 *
 * Rules (the reference package's container equality): PODs compare by type and value (1, 1.0
 * and True differ), floats with NaN equal to NaN and -0.0 equal to 0.0; strings and bytes by
 * content; Shapes by extents; Array and List are both sequences and compare item by item;
 * Map compares with Map and Dict with Dict, entry by entry (keys matched as map keys); opaque
 * Python objects by the object they hold; every other object by identity (or its
 * `__any_equal__`). The hash agrees with that equality: equal
 * values hash equal (an Array and a List with equal items too).
 *
 * Nesting is bounded: equality raises RecursionError below kMaxDepth levels (two distinct
 * self-containing Lists), and hashing stops descending at kHashDepth levels, which keeps it
 * consistent with equality while bounding the work.
 */
#include <math.h>

#include "container_internal.h"

enum { kMaxDepth = 1000, kHashDepth = 32 };

#define HASH_MULT 0x100000001b3ULL /* FNV-1a 64-bit prime */

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * HASH_MULT; }

/* A final avalanche, so order-independent sums of entry hashes still spread well. */
static uint64_t avalanche(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}

static bool is_seq(int32_t index) { return index == kTVMFFIArray || index == kTVMFFIList; }
static bool is_map(int32_t index) { return index == kTVMFFIMap || index == kTVMFFIDict; }

static const TVMFFIShapeCell* shape_cell(const TVMFFIAny* value) {
  return (const TVMFFIShapeCell*)((const char*)value->v_obj + sizeof(TVMFFIObject));
}

/* The object an opaque (Python) object holds: two wrappers of one object are equal. */
static void* opaque_handle(const TVMFFIAny* value) {
  return TVMFFIOpaqueObjectGetCellPtr(value->v_obj)->handle;
}

static int equal_at(const TVMFFIAny* a, const TVMFFIAny* b, int depth);

static int seq_equal(TVMFFIObject* a, TVMFFIObject* b, int depth) {
  const TVMFFISeqCell* ca = ffi_seq_cell(a);
  const TVMFFISeqCell* cb = ffi_seq_cell(b);
  if (ca->size != cb->size) return 0;
  const TVMFFIAny* ia = (const TVMFFIAny*)ca->data;
  const TVMFFIAny* ib = (const TVMFFIAny*)cb->data;
  for (int64_t i = 0; i < ca->size; ++i) {
    int eq = equal_at(&ia[i], &ib[i], depth + 1);
    if (eq != 1) return eq;
  }
  return 1;
}

static int map_equal(TVMFFIObject* a, TVMFFIObject* b, int depth) {
  if (ffi_map_size(a) != ffi_map_size(b)) return 0;
  uint64_t cursor = 0;
  TVMFFIAny *key, *value;
  while (ffi_map_next(a, &cursor, &key, &value)) {
    const TVMFFIAny* other = ffi_map_lookup(b, key);
    if (other == NULL) return 0;
    int eq = equal_at(value, other, depth + 1);
    if (eq != 1) return eq;
  }
  return 1;
}

static bool float_equal(double x, double y) { return x == y || (isnan(x) && isnan(y)); }

static int equal_at(const TVMFFIAny* a, const TVMFFIAny* b, int depth) {
  if (depth > kMaxDepth) {
    return ffi_raise("RecursionError",
                     "maximum nesting depth (%d) exceeded while comparing FFI containers",
                     kMaxDepth);
  }
  int32_t ta = a->type_index, tb = b->type_index;
  if (ta == kTVMFFIFloat && tb == kTVMFFIFloat) return float_equal(a->v_float64, b->v_float64);
  if (ffi_is_object_index(ta) && ffi_is_object_index(tb) && a->v_obj != NULL &&
      b->v_obj != NULL) {
    if (a->v_obj == b->v_obj) return 1;
    if (is_seq(ta) && is_seq(tb)) return seq_equal(a->v_obj, b->v_obj, depth);
    if (is_map(ta) && ta == tb) return map_equal(a->v_obj, b->v_obj, depth);
    if (ta == kTVMFFIOpaquePyObject && tb == kTVMFFIOpaquePyObject) {
      return opaque_handle(a) == opaque_handle(b);
    }
    if (ta == kTVMFFIShape && tb == kTVMFFIShape) {
      const TVMFFIShapeCell *sa = shape_cell(a), *sb = shape_cell(b);
      return sa->size == sb->size &&
             (sa->size == 0 || memcmp(sa->data, sb->data, sa->size * sizeof(int64_t)) == 0);
    }
  }
  return ffi_any_equal(a, b);
}

int ffi_content_equal(const TVMFFIAny* a, const TVMFFIAny* b) { return equal_at(a, b, 0); }

static uint64_t hash_at(const TVMFFIAny* value, int depth) {
  int32_t index = value->type_index;
  if (index == kTVMFFIFloat) {
    double x = value->v_float64;
    if (isnan(x)) return mix(kTVMFFIFloat, 0x7ff8000000000000ULL); /* one hash for all NaNs */
    if (x == 0.0) x = 0.0;                                          /* -0.0 hashes as 0.0 */
    uint64_t bits;
    memcpy(&bits, &x, sizeof(bits));
    return mix(kTVMFFIFloat, bits);
  }
  if (!ffi_is_object_index(index) || value->v_obj == NULL) return ffi_any_hash(value);
  if (is_seq(index)) {
    const TVMFFISeqCell* cell = ffi_seq_cell(value->v_obj);
    uint64_t h = mix(kTVMFFIArray, (uint64_t)cell->size); /* Array and List alike */
    if (depth >= kHashDepth) return h;
    const TVMFFIAny* items = (const TVMFFIAny*)cell->data;
    for (int64_t i = 0; i < cell->size; ++i) h = mix(h, hash_at(&items[i], depth + 1));
    return avalanche(h);
  }
  if (is_map(index)) {
    uint64_t h = mix(kTVMFFIMap, (uint64_t)ffi_map_size(value->v_obj));
    if (depth >= kHashDepth) return h;
    /* Entry order does not matter to equality, so entries combine by a sum. */
    uint64_t sum = 0, cursor = 0;
    TVMFFIAny *key, *item;
    while (ffi_map_next(value->v_obj, &cursor, &key, &item)) {
      sum += avalanche(mix(ffi_any_hash(key), hash_at(item, depth + 1)));
    }
    return avalanche(mix(h, sum));
  }
  if (index == kTVMFFIOpaquePyObject) {
    return avalanche(mix(kTVMFFIOpaquePyObject, (uint64_t)(uintptr_t)opaque_handle(value)));
  }
  if (index == kTVMFFIShape) {
    const TVMFFIShapeCell* cell = shape_cell(value);
    uint64_t h = mix(kTVMFFIShape, (uint64_t)cell->size);
    for (size_t i = 0; i < cell->size; ++i) h = mix(h, (uint64_t)cell->data[i]);
    return avalanche(h);
  }
  return ffi_any_hash(value);
}

uint64_t ffi_content_hash(const TVMFFIAny* value) { return hash_at(value, 0); }

/* ---- global functions ---- */

static int global_content_equal(void* self, const TVMFFIAny* args, int32_t num_args,
                                TVMFFIAny* result) {
  (void)self;
  if (ffi_check_num_args("ffi._ContentEqual", num_args, 2) != 0) return -1;
  /* Views (raw strings, byte arrays) compare in their owned form. */
  TVMFFIAny a, b;
  if (TVMFFIAnyViewToOwnedAny(&args[0], &a) != 0) return -1;
  if (TVMFFIAnyViewToOwnedAny(&args[1], &b) != 0) {
    ffi_any_release(&a);
    return -1;
  }
  int eq = ffi_content_equal(&a, &b);
  ffi_any_release(&a);
  ffi_any_release(&b);
  if (eq < 0) return -1;
  ffi_ret_bool(result, eq == 1);
  return 0;
}

static int global_content_hash(void* self, const TVMFFIAny* args, int32_t num_args,
                               TVMFFIAny* result) {
  (void)self;
  if (ffi_check_num_args("ffi._ContentHash", num_args, 1) != 0) return -1;
  /* Objects (the common case: hash() of a container) are read in place; views such as raw
   * strings hash in their owned form. */
  if (ffi_is_object_index(args[0].type_index)) {
    ffi_ret_int(result, (int64_t)ffi_content_hash(&args[0]));
    return 0;
  }
  TVMFFIAny value;
  if (TVMFFIAnyViewToOwnedAny(&args[0], &value) != 0) return -1;
  uint64_t h = ffi_content_hash(&value);
  ffi_any_release(&value);
  ffi_ret_int(result, (int64_t)h);
  return 0;
}

void ffi_register_content_globals(void) {
  ffi_register_builtin("ffi._ContentEqual", global_content_equal);
  ffi_register_builtin("ffi._ContentHash", global_content_hash);
}
