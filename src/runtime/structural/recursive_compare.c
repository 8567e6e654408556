/*
 * structural/recursive_compare.c -- ffi.RecursiveEq/Lt/Le/Gt/Ge (spec STRUCTURAL.md section
 * 3.10): the value comparison behind container `==` and dataclass eq/order. Containers compare
 * element-wise, objects field by field (skipping CompareOff fields) unless their type defines
 * `__ffi_eq__` / `__ffi_compare__`. Explicit stack; a cycle back to a pair being compared counts
 * as equal, and is an error when ordering. The pairs on the stack are told apart as pairs: one
 * object compared against two others in turn (a self-loop against a two-node cycle) opens two
 * pairs, and as pairs are finite every cycle closes.
 */
#include <math.h>
#include <stdlib.h>

#include "structural.h"

typedef struct {
  TVMFFIAny lhs, rhs; /* owned; for map entries lhs = key, rhs = lhs value */
  bool map_entry;
} Child;

typedef struct {
  TVMFFIObject *lhs, *rhs;
  size_t begin, count, next;
  size_t older_same_lhs; /* index + 1 of the next older frame on the same lhs; 0: none */
} Frame;

typedef struct {
  bool ordering;
  FfiPtrMap active; /* lhs -> index + 1 of the newest frame comparing it */
  FfiVec frames;
  FfiVec children;
} Cmp;

static int type_mismatch(const TVMFFIAny* a, const TVMFFIAny* b) {
  TVMFFIByteArray x = ffi_type_key_of(a->type_index), y = ffi_type_key_of(b->type_index);
  return ffi_raise("TypeError", "Cannot compare values of different types: %.*s vs %.*s",
                   (int)x.size, x.data, (int)y.size, y.data);
}

static int sign(int64_t v) { return (v > 0) - (v < 0); }

static int bytes_order(TVMFFIByteArray a, TVMFFIByteArray b) {
  size_t n = a.size < b.size ? a.size : b.size;
  for (size_t i = 0; i < n; ++i) { /* signed chars, as x86-64 C++ compares them */
    signed char x = (signed char)a.data[i], y = (signed char)b.data[i];
    if (x != y) return x < y ? -1 : 1;
  }
  return sign((int64_t)a.size - (int64_t)b.size);
}

static bool is_str_kind(int32_t t) { return ffi_is_str(t); }
static bool is_bytes_kind(int32_t t) { return ffi_is_bytes(t); }
static bool is_seq(int32_t t) { return t == kTVMFFIArray || t == kTVMFFIList; }
static bool is_map(int32_t t) { return t == kTVMFFIMap || t == kTVMFFIDict; }

/* The two's complement words of an int or BigInt, least significant first (minimal count). */
static TVMFFIByteArray integer_words(const TVMFFIAny* v) {
  if (v->type_index == kTVMFFIBigInt) return TVMFFIBigIntGetContentByteArray(v);
  TVMFFIByteArray one = {(const char*)&v->v_int64, sizeof(int64_t)};
  return one;
}

/* Numeric order of two ints/BigInts. Representations are minimal, so between numbers of one
 * sign the one with more words has the larger magnitude; at equal length the top word compares
 * signed and the words below it unsigned. */
static int integer_order(const TVMFFIAny* a, const TVMFFIAny* b) {
  TVMFFIByteArray x = integer_words(a), y = integer_words(b);
  size_t nx = x.size / sizeof(int64_t), ny = y.size / sizeof(int64_t);
  int64_t top_x = ffi_bigint_word(x.data, nx - 1), top_y = ffi_bigint_word(y.data, ny - 1);
  bool negative = top_x < 0;
  if (negative != (top_y < 0)) return negative ? -1 : 1;
  if (nx != ny) return (nx > ny) == negative ? -1 : 1;
  if (top_x != top_y) return top_x < top_y ? -1 : 1;
  for (size_t i = nx - 1; i-- > 0;) {
    uint64_t wx = (uint64_t)ffi_bigint_word(x.data, i), wy = (uint64_t)ffi_bigint_word(y.data, i);
    if (wx != wy) return wx < wy ? -1 : 1;
  }
  return 0;
}

static bool is_integer(int32_t t) { return t == kTVMFFIInt || t == kTVMFFIBigInt; }

/* Whether (lhs, rhs) is a pair on the stack: the frames on lhs, newest first. */
static bool pair_is_open(Cmp* c, TVMFFIObject* lhs, TVMFFIObject* rhs) {
  uint64_t* newest = ffi_ptr_map_find(&c->active, (uint64_t)(uintptr_t)lhs);
  for (size_t at = newest != NULL ? (size_t)*newest : 0; at != 0;) {
    const Frame* f = (const Frame*)ffi_vec_at(&c->frames, at - 1);
    if (f->rhs == rhs) return true;
    at = f->older_same_lhs;
  }
  return false;
}

/* Compares values that need no frame; *needs_frame for container/object pairs. */
static int compare_now(Cmp* c, const TVMFFIAny* a, const TVMFFIAny* b, int* out, bool* needs_frame) {
  *needs_frame = false;
  *out = 0;
  int32_t ta = a->type_index, tb = b->type_index;
  if (ta == kTVMFFINone || tb == kTVMFFINone) {
    *out = (ta != kTVMFFINone) - (tb != kTVMFFINone);
    return 0;
  }
  TVMFFIByteArray sa, sb;
  if ((is_str_kind(ta) && is_str_kind(tb)) || (is_bytes_kind(ta) && is_bytes_kind(tb))) {
    ffi_string_view(a, &sa);
    ffi_string_view(b, &sb);
    *out = bytes_order(sa, sb);
    return 0;
  }
  if ((ta == kTVMFFIBigInt || tb == kTVMFFIBigInt) && is_integer(ta) && is_integer(tb)) {
    *out = integer_order(a, b); /* int vs BigInt is ordered numerically too */
    return 0;
  }
  if (ta != tb) {
    if (!c->ordering) {
      *out = 1;
      return 0;
    }
    return type_mismatch(a, b);
  }
  switch (ta) {
    case kTVMFFIBool:
    case kTVMFFIInt:
      *out = (a->v_int64 > b->v_int64) - (a->v_int64 < b->v_int64);
      return 0;
    case kTVMFFIFloat: {
      double x = a->v_float64, y = b->v_float64;
      if (x != x || y != y) {
        if (c->ordering) return ffi_raise("TypeError", "Cannot order NaN values");
        *out = (x != x && y != y) ? 0 : 1;
        return 0;
      }
      *out = (x > y) - (x < y);
      return 0;
    }
    case kTVMFFIDataType: {
      DLDataType x = a->v_dtype, y = b->v_dtype;
      *out = x.code != y.code ? sign((int)x.code - (int)y.code)
             : x.bits != y.bits ? sign((int)x.bits - (int)y.bits)
                                : sign((int)x.lanes - (int)y.lanes);
      return 0;
    }
    case kTVMFFIDevice: {
      DLDevice x = a->v_device, y = b->v_device;
      *out = x.device_type != y.device_type ? sign((int)x.device_type - (int)y.device_type)
                                            : sign((int64_t)x.device_id - (int64_t)y.device_id);
      return 0;
    }
    default: break;
  }
  if (!ffi_is_object_index(ta)) {
    if (a->v_uint64 == b->v_uint64) return 0;
    if (!c->ordering) {
      *out = 1;
      return 0;
    }
    TVMFFIByteArray k = ffi_type_key_of(ta);
    return ffi_raise("TypeError", "Cannot order values of type %.*s", (int)k.size, k.data);
  }
  if (a->v_obj == b->v_obj) return 0;
  if (ta == kTVMFFIShape) {
    const TVMFFIShapeCell* x = (const TVMFFIShapeCell*)((char*)a->v_obj + sizeof(TVMFFIObject));
    const TVMFFIShapeCell* y = (const TVMFFIShapeCell*)((char*)b->v_obj + sizeof(TVMFFIObject));
    size_t n = x->size < y->size ? x->size : y->size;
    for (size_t i = 0; i < n; ++i) {
      if (x->data[i] != y->data[i]) {
        *out = x->data[i] < y->data[i] ? -1 : 1;
        return 0;
      }
    }
    *out = sign((int64_t)x->size - (int64_t)y->size);
    return 0;
  }
  if (pair_is_open(c, a->v_obj, b->v_obj)) {
    if (c->ordering) return ffi_raise("ValueError", "RecursiveCompare: cyclic reference detected in ordering");
    return 0; /* a back-edge on the same pair: isomorphic so far */
  }
  *needs_frame = true;
  return 0;
}

static int add_child(Cmp* c, const TVMFFIAny* l, const TVMFFIAny* r, bool map_entry) {
  Child* ch = (Child*)ffi_vec_push(&c->children);
  if (ch == NULL) return -1;
  ch->lhs = ffi_any_retain(l);
  ch->rhs = ffi_any_retain(r);
  ch->map_entry = map_entry;
  return 0;
}

typedef struct {
  Cmp* c;
  TVMFFIObject *lhs, *rhs;
} FieldCtx;

static int add_field_child(const TVMFFIFieldInfo* field, void* ctx_) {
  FieldCtx* ctx = (FieldCtx*)ctx_;
  if (field->flags & kTVMFFIFieldFlagBitMaskCompareOff) return 0;
  TVMFFIAny l, r;
  if (ffi_field_get(ctx->lhs, field, &l) != 0) return -1;
  if (ffi_field_get(ctx->rhs, field, &r) != 0) {
    ffi_any_release(&l);
    return -1;
  }
  int rc = add_child(ctx->c, &l, &r, false);
  ffi_any_release(&l);
  ffi_any_release(&r);
  return rc;
}

static void drop_children(Cmp* c, size_t begin) {
  for (size_t i = begin; i < c->children.size; ++i) {
    Child* ch = (Child*)ffi_vec_at(&c->children, i);
    ffi_any_release(&ch->lhs);
    ffi_any_release(&ch->rhs);
  }
  c->children.size = begin;
}

static void pop_frame(Cmp* c) {
  Frame* f = (Frame*)ffi_vec_top(&c->frames);
  drop_children(c, f->begin);
  if (f->older_same_lhs != 0) { /* lhs is still open: an older frame is now its newest */
    *ffi_ptr_map_find(&c->active, (uint64_t)(uintptr_t)f->lhs) = f->older_same_lhs;
  } else {
    ffi_ptr_map_erase(&c->active, (uint64_t)(uintptr_t)f->lhs);
  }
  c->frames.size -= 1;
}

static int compare_values(Cmp* c, const TVMFFIAny* a, const TVMFFIAny* b, int* out);

/* ---- hooks: __ffi_eq__(lhs, rhs, fn_eq) -> bool, __ffi_compare__(lhs, rhs, fn_cmp) -> int ---- */

static int fn_compare_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  Cmp* c = (Cmp*)self;
  if (ffi_check_num_args("RecursiveCompare.fn", num_args, 2) != 0) return -1;
  TVMFFIAny l, r;
  if (TVMFFIAnyViewToOwnedAny(&args[0], &l) != 0) return -1;
  if (TVMFFIAnyViewToOwnedAny(&args[1], &r) != 0) {
    ffi_any_release(&l);
    return -1;
  }
  int out;
  int rc = compare_values(c, &l, &r, &out);
  ffi_any_release(&l);
  ffi_any_release(&r);
  if (rc != 0) return -1;
  if (c->ordering) {
    ffi_ret_int(result, out);
  } else {
    ffi_ret_bool(result, out == 0);
  }
  return 0;
}

/* Runs a hook on the pair; *handled = false when the type has none for this mode. */
static int try_hook(Cmp* c, TVMFFIObject* lhs, TVMFFIObject* rhs, int* out, bool* handled) {
  *handled = false;
  const TVMFFIAny* hook = NULL;
  bool eq_hook = false;
  if (!c->ordering) {
    hook = ffi_type_attr(lhs->type_index, "__ffi_eq__");
    eq_hook = hook != NULL;
  }
  if (hook == NULL) hook = ffi_type_attr(lhs->type_index, "__ffi_compare__");
  if (hook == NULL) return 0;
  *handled = true;
  TVMFFIObject* fn;
  bool saved = c->ordering;
  c->ordering = !eq_hook; /* fn_eq answers equality, fn_cmp an ordering */
  if (ffi_closure_new(c, fn_compare_call, NULL, &fn) != 0) {
    c->ordering = saved;
    return -1;
  }
  TVMFFIAny args[3] = {ffi_any_from_object(lhs), ffi_any_from_object(rhs), ffi_any_from_object(fn)};
  TVMFFIAny result;
  int rc = ffi_call(hook, args, 3, &result);
  ffi_decref(fn);
  c->ordering = saved;
  if (rc != 0) return -1;
  if (result.type_index != kTVMFFIInt && result.type_index != kTVMFFIBool) {
    ffi_any_release(&result);
    return ffi_raise("TypeError", "%s must return %s", eq_hook ? "__ffi_eq__" : "__ffi_compare__",
                     eq_hook ? "a bool" : "an int");
  }
  *out = eq_hook ? (result.v_int64 != 0 ? 0 : 1) : sign(result.v_int64);
  return 0;
}

/* Starts comparing two objects of the same type: decided at once or a frame. */
static int push_pair(Cmp* c, TVMFFIObject* lhs, TVMFFIObject* rhs, int* out, bool* pushed) {
  *pushed = false;
  *out = 0;
  int32_t t = lhs->type_index;
  if ((int64_t)c->frames.size >= FFI_GRAPH_MAX_DEPTH) {
    return ffi_raise("ValueError", "RecursiveCompare: maximum stack depth (1048576) exceeded");
  }
  size_t begin = c->children.size;
  int rc = 0;
  if (is_seq(t)) {
    int64_t nl = ffi_seq_cell(lhs)->size, nr = ffi_seq_cell(rhs)->size;
    int64_t n = nl < nr ? nl : nr;
    if (!c->ordering && nl != nr) {
      *out = 1;
      return 0;
    }
    for (int64_t i = 0; rc == 0 && i < n; ++i) {
      rc = add_child(c, &ffi_seq_items(lhs)[i], &ffi_seq_items(rhs)[i], false);
    }
  } else if (is_map(t)) {
    if (ffi_map_size(lhs) != ffi_map_size(rhs)) {
      if (c->ordering) return ffi_raise("TypeError", "Cannot order Map/Dict values");
      *out = 1;
      return 0;
    }
    uint64_t cursor = 0;
    TVMFFIAny *k, *v;
    /* Ordering looks every key up first: a key missing on the right fails the ordering before
     * any value is compared (whose type mismatch would otherwise be reported), as the
     * reference's does. Equality needs no first pass: either way the maps are unequal. */
    while (c->ordering && ffi_map_next(lhs, &cursor, &k, &v)) {
      if (ffi_map_lookup(rhs, k) == NULL) return ffi_raise("TypeError", "Cannot order Map/Dict values");
    }
    cursor = 0;
    while (rc == 0 && ffi_map_next(lhs, &cursor, &k, &v)) rc = add_child(c, k, v, true);
  } else {
    bool handled;
    if (try_hook(c, lhs, rhs, out, &handled) != 0 || handled) return handled ? 0 : -1;
    FieldCtx ctx = {c, lhs, rhs};
    rc = ffi_for_each_field(t, add_field_child, &ctx);
  }
  uint64_t* newest = ffi_ptr_map_find(&c->active, (uint64_t)(uintptr_t)lhs);
  size_t older = newest != NULL ? (size_t)*newest : 0;
  Frame* f = rc == 0 ? (Frame*)ffi_vec_push(&c->frames) : NULL;
  if (f != NULL && ffi_ptr_map_put(&c->active, (uint64_t)(uintptr_t)lhs, c->frames.size) != 0) {
    c->frames.size -= 1;
    f = NULL;
  }
  if (f == NULL) {
    drop_children(c, begin);
    return -1;
  }
  f->lhs = lhs;
  f->rhs = rhs;
  f->begin = begin;
  f->count = c->children.size - begin;
  f->next = 0;
  f->older_same_lhs = older;
  *pushed = true;
  return 0;
}

/* Unwinds to base with a nonzero result; ordering through a map is an error. */
static int propagate(Cmp* c, size_t base, int result, int* out) {
  while (c->frames.size > base) {
    Frame* f = (Frame*)ffi_vec_top(&c->frames);
    bool map = is_map(f->lhs->type_index);
    pop_frame(c);
    if (map && c->ordering) {
      while (c->frames.size > base) pop_frame(c);
      return ffi_raise("TypeError", "Cannot order Map/Dict values");
    }
  }
  *out = result;
  return 0;
}

static int run(Cmp* c, size_t base, int* out) {
  while (c->frames.size > base) {
    Frame* f = (Frame*)ffi_vec_top(&c->frames);
    if (f->next < f->count) {
      Child* ch = (Child*)ffi_vec_at(&c->children, f->begin + f->next);
      f->next += 1;
      TVMFFIAny l = ch->lhs, r = ch->rhs;
      if (ch->map_entry) {
        const TVMFFIAny* found = ffi_map_lookup(f->rhs, &ch->lhs);
        if (found == NULL) {
          if (c->ordering) {
            while (c->frames.size > base) pop_frame(c);
            return ffi_raise("TypeError", "Cannot order Map/Dict values");
          }
          return propagate(c, base, 1, out);
        }
        l = ch->rhs;
        r = *found;
      }
      int result;
      bool needs_frame, pushed;
      if (compare_now(c, &l, &r, &result, &needs_frame) != 0) goto fail;
      if (needs_frame) {
        if (push_pair(c, l.v_obj, r.v_obj, &result, &pushed) != 0) goto fail;
        if (pushed) continue;
      }
      if (result != 0) return propagate(c, base, result, out);
      continue;
    }
    int result = 0;
    if (is_seq(f->lhs->type_index)) {
      result = sign(ffi_seq_cell(f->lhs)->size - ffi_seq_cell(f->rhs)->size);
    }
    pop_frame(c);
    if (result != 0) return propagate(c, base, result, out);
  }
  *out = 0;
  return 0;
fail:
  while (c->frames.size > base) pop_frame(c);
  return -1;
}

static int compare_values(Cmp* c, const TVMFFIAny* a, const TVMFFIAny* b, int* out) {
  bool needs_frame, pushed;
  if (compare_now(c, a, b, out, &needs_frame) != 0) return -1;
  if (!needs_frame) return 0;
  size_t base = c->frames.size;
  if (push_pair(c, a->v_obj, b->v_obj, out, &pushed) != 0) return -1;
  return pushed ? run(c, base, out) : 0;
}

int ffi_recursive_compare(const TVMFFIAny* a, const TVMFFIAny* b, bool ordering, int* out) {
  Cmp c;
  memset(&c, 0, sizeof(c));
  ffi_ptr_map_init(&c.active);
  c.ordering = ordering;
  Frame frames[8]; /* small comparisons allocate nothing */
  Child children[16];
  ffi_vec_init_inline(&c.frames, sizeof(Frame), frames, 8);
  ffi_vec_init_inline(&c.children, sizeof(Child), children, 16);
  int rc = compare_values(&c, a, b, out);
  while (c.frames.size > 0) pop_frame(&c);
  ffi_ptr_map_free(&c.active);
  ffi_vec_free(&c.frames);
  ffi_vec_free(&c.children);
  return rc;
}

/* ---- global functions ---- */

enum { kOpEq, kOpLt, kOpLe, kOpGt, kOpGe };

static int recursive_op(const char* fname, int op, const TVMFFIAny* args, int32_t num_args,
                        TVMFFIAny* result) {
  if (ffi_check_num_args(fname, num_args, 2) != 0) return -1;
  TVMFFIAny a, b;
  if (TVMFFIAnyViewToOwnedAny(&args[0], &a) != 0) return -1;
  if (TVMFFIAnyViewToOwnedAny(&args[1], &b) != 0) {
    ffi_any_release(&a);
    return -1;
  }
  int cmp;
  int rc = ffi_recursive_compare(&a, &b, op != kOpEq, &cmp);
  ffi_any_release(&a);
  ffi_any_release(&b);
  if (rc != 0) return -1;
  bool value = op == kOpEq ? cmp == 0 : op == kOpLt ? cmp < 0 : op == kOpLe ? cmp <= 0 : op == kOpGt ? cmp > 0 : cmp >= 0;
  ffi_ret_bool(result, value);
  return 0;
}

#define RECURSIVE_GLOBAL(fn, name, op)                                                          \
  static int fn(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {     \
    (void)self;                                                                               \
    return recursive_op(name, op, args, num_args, result);                                   \
  }
RECURSIVE_GLOBAL(global_eq, "ffi.RecursiveEq", kOpEq)
RECURSIVE_GLOBAL(global_lt, "ffi.RecursiveLt", kOpLt)
RECURSIVE_GLOBAL(global_le, "ffi.RecursiveLe", kOpLe)
RECURSIVE_GLOBAL(global_gt, "ffi.RecursiveGt", kOpGt)
RECURSIVE_GLOBAL(global_ge, "ffi.RecursiveGe", kOpGe)

void ffi_register_recursive_compare_globals(void) {
  ffi_register_builtin("ffi.RecursiveEq", global_eq);
  ffi_register_builtin("ffi.RecursiveLt", global_lt);
  ffi_register_builtin("ffi.RecursiveLe", global_le);
  ffi_register_builtin("ffi.RecursiveGt", global_gt);
  ffi_register_builtin("ffi.RecursiveGe", global_ge);
}
