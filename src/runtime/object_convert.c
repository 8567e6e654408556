/*
 * object_convert.c -- the `__ffi_convert__` type attribute of the runtime's own object types.
 *
 * A typed consumer (a reflected field's setter, TypeSchema.convert in Python) that is handed a
 * value of another type asks the target type's `__ffi_convert__` for one. For the core types:
 *  - a value already of the type (or a subtype) passes as it is;
 *  - ffi.Object takes any object; ffi.String/ffi.Bytes also take their inline and raw views;
 *  - None passes for the types whose C++ references are nullable (ffi.Object, ffi.Function,
 *    ffi.Tensor), as the reference's do;
 *  - an Array becomes a List and a List an Array (a new container with the same items), and
 *    likewise Map <-> Dict: the two are the immutable and mutable forms of one content;
 *  - ffi.Shape is also made from an Array or List of ints (what a Python list becomes);
 *  - anything else is a TypeError "Cannot cast from `X` to `Y`", Y spelled as the C++ type the
 *    reference names (`Array<Any>`, `Map<Any, Any>`, `str`, ...; other types by type key), so
 *    messages match whichever runtime a program runs on.
 * Other types that convert only their own values (the enum types) register the same function.
 * The function's `self` is the target type index.
 */
#include <stdlib.h>

#include "internal.h"
#include "type_registry_internal.h"

static int32_t target_of(void* self) { return (int32_t)(intptr_t)self; }

/* The C++ spelling of a target type: its container or string type for the core ones. */
static TVMFFIByteArray target_name(int32_t index) {
#define FFI_NAME(text) ((TVMFFIByteArray){text, sizeof(text) - 1})
  switch (index) {
    case kTVMFFIArray: return FFI_NAME("Array<Any>");
    case kTVMFFIList: return FFI_NAME("List<Any>");
    case kTVMFFIMap: return FFI_NAME("Map<Any, Any>");
    case kTVMFFIDict: return FFI_NAME("Dict<Any, Any>");
    case kTVMFFIStr: return FFI_NAME("str");
    case kTVMFFIBytes: return FFI_NAME("bytes");
    default: return ffi_type_key_of(index);
  }
#undef FFI_NAME
}

static int cannot_cast(int32_t from_index, int32_t to_index) {
  TVMFFIByteArray from = ffi_type_key_of(from_index), to = target_name(to_index);
  return ffi_raise("TypeError", "Cannot cast from `%.*s` to `%.*s`", (int)from.size, from.data,
                   (int)to.size, to.data);
}

/* A Shape of the ints in an Array/List; 1 when an item is not an int (no error raised). */
static int shape_of_sequence(TVMFFIObject* seq, TVMFFIAny* result) {
  TVMFFISeqCell* cell = ffi_seq_cell(seq);
  const TVMFFIAny* items = (const TVMFFIAny*)cell->data;
  int64_t* extents = (int64_t*)malloc((size_t)(cell->size > 0 ? cell->size : 1) * sizeof(int64_t));
  if (extents == NULL) return ffi_raise("MemoryError", "out of memory converting to ffi.Shape");
  for (int64_t i = 0; i < cell->size; ++i) {
    if (items[i].type_index != kTVMFFIInt) {
      free(extents);
      return 1;
    }
    extents[i] = items[i].v_int64;
  }
  TVMFFIObject* shape;
  int rc = ffi_shape_new(extents, (size_t)cell->size, &shape);
  free(extents);
  if (rc == 0) ffi_ret_object(result, shape);
  return rc;
}

/* The items of an Array/List in a new container of the other kind. */
static int sequence_as(int32_t target, TVMFFIObject* seq, TVMFFIAny* result) {
  TVMFFISeqCell* cell = ffi_seq_cell(seq);
  const TVMFFIAny* items = (const TVMFFIAny*)cell->data;
  TVMFFIObject* out;
  int rc = target == kTVMFFIArray ? ffi_array_new(items, cell->size, &out)
                                  : ffi_list_new_views(items, cell->size, &out);
  if (rc == 0) ffi_ret_object(result, out);
  return rc;
}

/* The entries of a Map/Dict in a new container of the other kind, in the same order. */
static int mapping_as(int32_t target, TVMFFIObject* map, TVMFFIAny* result) {
  TVMFFIObject* out;
  if (ffi_map_new_empty(target, &out) != 0) return -1;
  uint64_t cursor = 0;
  TVMFFIAny *key, *value;
  while (ffi_map_next(map, &cursor, &key, &value)) {
    if (ffi_map_set_views(out, key, value) != 0) {
      ffi_decref(out);
      return -1;
    }
  }
  ffi_ret_object(result, out);
  return 0;
}

static bool is_nullable(int32_t target) {
  return target == kTVMFFIObject || target == kTVMFFIFunction || target == kTVMFFITensor;
}

static int convert_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  int32_t target = target_of(self);
  if (ffi_check_type_member_args(target, "__ffi_convert__", num_args, 1) != 0) return -1;
  const TVMFFIAny* value = &args[0];
  int32_t t = value->type_index;
  bool is_object = ffi_is_object_index(t) && value->v_obj != NULL;
  if (is_object && (target == kTVMFFIObject || ffi_type_is_instance(t, target))) {
    return TVMFFIAnyViewToOwnedAny(value, result);
  }
  if ((target == kTVMFFIStr && (t == kTVMFFISmallStr || t == kTVMFFIRawStr)) ||
      (target == kTVMFFIBytes && (t == kTVMFFISmallBytes || t == kTVMFFIByteArrayPtr))) {
    return TVMFFIAnyViewToOwnedAny(value, result);
  }
  if (t == kTVMFFINone && is_nullable(target)) {
    result->type_index = kTVMFFINone;
    result->zero_padding = 0;
    result->v_int64 = 0;
    return 0;
  }
  if (is_object && ((target == kTVMFFIArray && t == kTVMFFIList) ||
                    (target == kTVMFFIList && t == kTVMFFIArray))) {
    return sequence_as(target, value->v_obj, result);
  }
  if (is_object && ((target == kTVMFFIMap && t == kTVMFFIDict) ||
                    (target == kTVMFFIDict && t == kTVMFFIMap))) {
    return mapping_as(target, value->v_obj, result);
  }
  if (target == kTVMFFIShape && is_object && (t == kTVMFFIArray || t == kTVMFFIList)) {
    int rc = shape_of_sequence(value->v_obj, result);
    if (rc <= 0) return rc;
  }
  return cannot_cast(t, target);
}

void ffi_register_convert_attr(int32_t type_index) {
  static const TVMFFIByteArray kName = {"__ffi_convert__", 15};
  TVMFFIObjectHandle f;
  if (TVMFFIFunctionCreate((void*)(intptr_t)type_index, convert_call, NULL, &f) != 0) {
    ffi_fatal("ffi_register_convert_attr", "function for type %d", (int)type_index);
  }
  TVMFFIAny v = ffi_any_from_object((TVMFFIObject*)f);
  if (TVMFFITypeRegisterAttr(type_index, &kName, &v) != 0) {
    ffi_fatal("ffi_register_convert_attr", "attribute of type %d", (int)type_index);
  }
  ffi_decref((TVMFFIObject*)f);
}

void ffi_register_object_convert_attrs(void) {
  static const int32_t kTargets[] = {kTVMFFIObject, kTVMFFIStr,    kTVMFFIBytes, kTVMFFIError,
                                     kTVMFFIFunction, kTVMFFIShape, kTVMFFITensor, kTVMFFIArray,
                                     kTVMFFIMap,    kTVMFFIList,   kTVMFFIDict};
  for (size_t i = 0; i < sizeof(kTargets) / sizeof(kTargets[0]); ++i) {
    ffi_register_convert_attr(kTargets[i]);
  }
}
