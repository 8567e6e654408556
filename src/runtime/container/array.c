/*
 * container/array.c -- the immutable ffi.Array (type index 71).
 *
 * Layout (TVMFFISeqCell), read inline by C++ kernels: the object header,
 * a TVMFFISeqCell at +24, and the elements stored inline right after it at +56, so data_deleter
 * stays NULL. Every element is a 16-byte owned Any (never a raw string or rvalue ref).
 * An array is never mutated after construction; C++ copies it before writing.
 */
#include <stdlib.h>

#include "container_internal.h"

typedef struct {
  TVMFFIObject header;
  TVMFFISeqCell cell;
  TVMFFIAny items[];
} ArrayObject;

_Static_assert(offsetof(ArrayObject, cell) == 24, "Array cell must start at +24");
_Static_assert(offsetof(ArrayObject, items) == 56, "Array elements must start at +56");

/* Releases the elements in use; the block itself goes with the weak flag. */
static void array_destroy(void* self) {
  ArrayObject* arr = (ArrayObject*)self;
  for (int64_t i = 0; i < arr->cell.size; ++i) ffi_any_release_nested(&arr->items[i]);
  arr->cell.size = 0;
}
FFI_DEFINE_DELETER(array_deleter, array_destroy)

int ffi_array_new(const TVMFFIAny* items, int64_t n, TVMFFIObject** out) {
  if (out == NULL) return ffi_raise("ValueError", "ffi_array_new: out is NULL");
  if (n < 0 || (n > 0 && items == NULL)) {
    return ffi_raise("ValueError", "ffi_array_new: invalid element list (n = %lld, items = %p)",
                     (long long)n, (const void*)items);
  }
  if ((uint64_t)n > (SIZE_MAX - sizeof(ArrayObject)) / sizeof(TVMFFIAny)) {
    return ffi_raise("MemoryError", "ffi.Array: %lld elements do not fit in memory", (long long)n);
  }
  ArrayObject* arr = (ArrayObject*)ffi_object_alloc_uninit(
      sizeof(ArrayObject) + (size_t)n * sizeof(TVMFFIAny), kTVMFFIArray, array_deleter);
  if (arr == NULL) return -1;
  arr->cell.data = arr->items;
  arr->cell.size = 0;
  arr->cell.capacity = n;
  arr->cell.data_deleter = NULL;
  /* size counts converted elements, so a failure midway releases exactly those. */
  for (int64_t i = 0; i < n; ++i) {
    if (TVMFFIAnyViewToOwnedAny(&items[i], &arr->items[i]) != 0) {
      ffi_decref(&arr->header);
      return -1;
    }
    arr->cell.size = i + 1;
  }
  *out = &arr->header;
  return 0;
}

/* ---- global functions ---- */

/* Readers go through cell.data, not the inline tail: arrays made by C++ kernels arrive here
 * too, and only the cell is part of the ABI. */
static const TVMFFIAny* array_items(const ArrayObject* arr) {
  return (const TVMFFIAny*)arr->cell.data;
}

static int array_arg(const char* fname, const TVMFFIAny* args, ArrayObject** out) {
  TVMFFIObject* obj;
  if (ffi_arg_object(fname, args, 0, kTVMFFIArray, &obj) != 0) return -1;
  *out = (ArrayObject*)obj;
  return 0;
}

static int global_array(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  TVMFFIObject* arr;
  if (ffi_array_new(args, num_args, &arr) != 0) return -1;
  ffi_ret_object(result, arr);
  return 0;
}

static int global_array_get_item(void* self, const TVMFFIAny* args, int32_t num_args,
                                 TVMFFIAny* result) {
  (void)self;
  static const char* kName = "ffi.ArrayGetItem";
  ArrayObject* arr;
  int64_t i;
  if (ffi_check_num_args(kName, num_args, 2) != 0 || array_arg(kName, args, &arr) != 0 ||
      ffi_arg_int(kName, args, 1, &i) != 0) {
    return -1;
  }
  /* Negative indices are the Python layer's business; here they are out of range. */
  if (i < 0 || i >= arr->cell.size) {
    return ffi_raise("IndexError", "Index %lld out of bounds %lld", (long long)i,
                     (long long)arr->cell.size);
  }
  return TVMFFIAnyViewToOwnedAny(&array_items(arr)[i], result);
}

static int global_array_size(void* self, const TVMFFIAny* args, int32_t num_args,
                             TVMFFIAny* result) {
  (void)self;
  static const char* kName = "ffi.ArraySize";
  ArrayObject* arr;
  if (ffi_check_num_args(kName, num_args, 1) != 0 || array_arg(kName, args, &arr) != 0) return -1;
  ffi_ret_int(result, arr->cell.size);
  return 0;
}

static int global_array_contains(void* self, const TVMFFIAny* args, int32_t num_args,
                                 TVMFFIAny* result) {
  (void)self;
  static const char* kName = "ffi.ArrayContains";
  ArrayObject* arr;
  if (ffi_check_num_args(kName, num_args, 2) != 0 || array_arg(kName, args, &arr) != 0) return -1;
  /* The needle may be a view (raw string, byte array); its owned form compares like a key. */
  TVMFFIAny needle;
  if (TVMFFIAnyViewToOwnedAny(&args[1], &needle) != 0) return -1;
  bool found = false;
  const TVMFFIAny* items = array_items(arr);
  for (int64_t i = 0; i < arr->cell.size && !found; ++i) found = ffi_any_equal(&items[i], &needle);
  ffi_any_release(&needle);
  ffi_ret_bool(result, found);
  return 0;
}

void ffi_register_array_globals(void) {
  ffi_register_builtin("ffi.Array", global_array);
  ffi_register_builtin("ffi.ArrayGetItem", global_array_get_item);
  ffi_register_builtin("ffi.ArraySize", global_array_size);
  ffi_register_builtin("ffi.ArrayContains", global_array_contains);
}
