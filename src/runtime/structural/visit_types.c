/*
 * structural/visit_types.c -- the object types of structural visiting: ffi.VisitInterrupt
 * (static index 77; one read-only Any field `value`, the payload handed back to the caller) and
 * ffi.StructuralVisitor (the active traversal context, never constructed from outside), plus
 * the `__s_visit__` type attribute of the four containers.
 *
 * The container hooks have the native hook ABI (visit.h), so a visitor of C++ code compiled
 * against the reference headers descends Array/List (elements in order) and Map/Dict (values
 * in iteration order; keys are not visited) on this runtime too. The runtime's own engines
 * recognise these hooks and descend containers with their explicit stack instead.
 */
#include <stdlib.h>

#include "visit.h"
#include "../type_define_internal.h"

typedef struct {
  TVMFFIObject header;
  TVMFFIAny value;
} InterruptObject;

_Static_assert(sizeof(InterruptObject) == 40 && offsetof(InterruptObject, value) == 24,
               "VisitInterruptObj layout");

static const char kVisitAttr[] = "__s_visit__";
static int32_t g_visitor_index = -1;

int32_t ffi_visitor_type_index(void) { return g_visitor_index; }

/* ---- ffi.VisitInterrupt ---- */

static void interrupt_destroy(void* self) { ffi_any_release_nested(&((InterruptObject*)self)->value); }
FFI_DEFINE_DELETER(interrupt_deleter, interrupt_destroy)

static int interrupt_alloc(TVMFFIObject** out) {
  TVMFFIObject* obj = ffi_object_alloc(sizeof(InterruptObject), kTVMFFIVisitInterrupt,
                                       interrupt_deleter);
  if (obj == NULL) return -1;
  ((InterruptObject*)obj)->value = ffi_any_none();
  *out = obj;
  return 0;
}

static int interrupt_create(TVMFFIObjectHandle* out) { return interrupt_alloc((TVMFFIObject**)out); }

int ffi_visit_interrupt_new(const TVMFFIAny* payload, TVMFFIObject** out) {
  TVMFFIAny value;
  if (TVMFFIAnyViewToOwnedAny(payload, &value) != 0) return -1;
  if (interrupt_alloc(out) != 0) {
    ffi_any_release(&value);
    return -1;
  }
  ((InterruptObject*)*out)->value = value;
  return 0;
}

/* ffi.VisitInterrupt(value) -> VisitInterrupt */
static int global_interrupt(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  TVMFFIObject* obj;
  if (ffi_check_num_args("ffi.VisitInterrupt(0: Any) -> ffi.VisitInterrupt", num_args, 1) != 0 ||
      ffi_visit_interrupt_new(&args[0], &obj) != 0) {
    return -1;
  }
  ffi_ret_object(result, obj);
  return 0;
}

/* __ffi_shallow_copy__(interrupt) -> a new interrupt holding the same value (copy.copy). */
static int interrupt_shallow_copy(void* self, const TVMFFIAny* args, int32_t num_args,
                                  TVMFFIAny* result) {
  (void)self;
  static const char kName[] = "ffi.VisitInterrupt.__ffi_shallow_copy__";
  TVMFFIObject* src;
  TVMFFIObject* obj;
  if (ffi_check_num_args(kName, num_args, 1) != 0 ||
      ffi_arg_object(kName, args, 0, kTVMFFIVisitInterrupt, &src) != 0 ||
      ffi_visit_interrupt_new(&((InterruptObject*)src)->value, &obj) != 0) {
    return -1;
  }
  ffi_ret_object(result, obj);
  return 0;
}

/* ---- container hooks with the native hook ABI ---- */

static TVMFFIAny raised_as_any(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  return ffi_any_from_object((TVMFFIObject*)err);
}

/* Visits each of n retained children through the visitor's vtable, releasing them all. */
static TVMFFIAny visit_children(TVMFFIObject* visitor, TVMFFIAny* items, int64_t n) {
  const FfiVisitorVTable* vtable = ((FfiVisitorBase*)visitor)->vtable;
  TVMFFIAny result = ffi_any_none();
  for (int64_t i = 0; i < n; ++i) {
    if (result.type_index == kTVMFFINone) result = vtable->visit(visitor, items[i]);
    ffi_any_release(&items[i]);
  }
  free(items);
  return result;
}

/* Children are copied first: a callback may change a List or Dict while it is visited. */
static TVMFFIAny seq_visit_hook(TVMFFIObject* visitor, TVMFFIAny value) {
  TVMFFISeqCell* cell = ffi_seq_cell(value.v_obj);
  int64_t n = cell->size;
  TVMFFIAny* items = (TVMFFIAny*)malloc((size_t)(n > 0 ? n : 1) * sizeof(TVMFFIAny));
  if (items == NULL) {
    ffi_raise("MemoryError", "out of memory visiting a sequence");
    return raised_as_any();
  }
  for (int64_t i = 0; i < n; ++i) items[i] = ffi_any_retain(&ffi_seq_items(value.v_obj)[i]);
  return visit_children(visitor, items, n);
}

static TVMFFIAny map_visit_hook(TVMFFIObject* visitor, TVMFFIAny value) {
  int64_t n = ffi_map_size(value.v_obj);
  TVMFFIAny* items = (TVMFFIAny*)malloc((size_t)(n > 0 ? n : 1) * sizeof(TVMFFIAny));
  if (items == NULL) {
    ffi_raise("MemoryError", "out of memory visiting a map");
    return raised_as_any();
  }
  uint64_t cursor = 0;
  TVMFFIAny *k, *v;
  int64_t m = 0;
  while (m < n && ffi_map_next(value.v_obj, &cursor, &k, &v)) items[m++] = ffi_any_retain(v);
  return visit_children(visitor, items, m);
}

static void set_hook(int32_t type_index, FfiVisitFn fn) {
  TVMFFIAny v = ffi_any_none();
  v.type_index = kTVMFFIOpaquePtr;
  v.v_ptr = (void*)fn;
  TVMFFIByteArray name = {kVisitAttr, sizeof(kVisitAttr) - 1};
  if (TVMFFITypeRegisterAttr(type_index, &name, &v) != 0) ffi_fatal("visit_types", "%s", kVisitAttr);
}

const TVMFFIAny* ffi_visit_hook_of(int32_t type_index) { return ffi_type_attr(type_index, kVisitAttr); }

bool ffi_visit_hook_is_builtin(const TVMFFIAny* hook) {
  return hook->type_index == kTVMFFIOpaquePtr &&
         (hook->v_ptr == (void*)seq_visit_hook || hook->v_ptr == (void*)map_visit_hook);
}

/* ---- registration ---- */

void ffi_register_visit_types(void) {
  int32_t index = ffi_define_type("ffi.VisitInterrupt", kTVMFFIObject, interrupt_create,
                                  (int32_t)sizeof(InterruptObject), kTVMFFISEqHashKindUnsupported);
  if (index != kTVMFFIVisitInterrupt) ffi_fatal("visit_types", "ffi.VisitInterrupt index %d", index);
  ffi_define_field(index, &(FfiFieldDef){.name = "value", .schema = "{\"type\":\"Any\"}",
                                         .flags = kTVMFFIFieldFlagBitMaskHasDefault,
                                         .offset = offsetof(InterruptObject, value), .size = 16,
                                         .get = ffi_field_get_any, .set = ffi_field_set_any,
                                         .static_index = kTVMFFIAny});
  ffi_define_attr_fn(index, "__ffi_shallow_copy__", interrupt_shallow_copy);
  ffi_register_builtin("ffi.VisitInterrupt", global_interrupt);

  /* The C++ headers declare ffi.StructuralVisitor as a mutable child of ffi.Object; asking for
   * the same key with the same parent there returns this index. */
  TVMFFIByteArray key = {"ffi.StructuralVisitor", strlen("ffi.StructuralVisitor")};
  g_visitor_index = TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 1, kTVMFFIObject);
  TVMFFITypeMetadata md;
  memset(&md, 0, sizeof(md));
  /* No creator: visitors exist only while a traversal supplies them. */
  md.total_size = (int32_t)sizeof(FfiVisitorBase);
  md.structural_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  if (TVMFFITypeRegisterMetadata(g_visitor_index, &md) != 0) {
    ffi_fatal("visit_types", "metadata of ffi.StructuralVisitor");
  }

  set_hook(kTVMFFIArray, seq_visit_hook);
  set_hook(kTVMFFIList, seq_visit_hook);
  set_hook(kTVMFFIMap, map_visit_hook);
  set_hook(kTVMFFIDict, map_visit_hook);
}
