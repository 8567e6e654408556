/*
 * container/list.c -- the mutable ffi.List (type index 75).
 *
 * Layout (TVMFFISeqCell): header + TVMFFISeqCell at +24; the elements live in
 * a separate malloc'ed buffer freed through data_deleter. Kernels grow a List inline: they
 * allocate with ::operator new and free the old buffer through the data_deleter they find, then
 * keep it, so ours is plain free() (which also accepts NULL). Lists that kernels made arrive
 * here with their own data_deleter; whoever replaces a buffer frees it with the deleter found.
 */
#include <stdlib.h>

#include "container_internal.h"

#define LIST_INIT_CAPACITY 4

typedef struct {
  TVMFFIObject header;
  TVMFFISeqCell cell;
} ListObject;

_Static_assert(sizeof(ListObject) == 56, "ListObj is 56 bytes");
_Static_assert(offsetof(ListObject, cell) == 24, "List cell must start at +24");

static TVMFFIAny* list_items(ListObject* list) { return (TVMFFIAny*)list->cell.data; }

static void list_destroy(void* self) {
  ListObject* list = (ListObject*)self;
  for (int64_t i = 0; i < list->cell.size; ++i) ffi_any_release_nested(&list_items(list)[i]);
  list->cell.size = 0;
  if (list->cell.data_deleter != NULL) list->cell.data_deleter(list->cell.data);
  list->cell.data = NULL;
  list->cell.capacity = 0;
}
FFI_DEFINE_DELETER(list_deleter, list_destroy)

/* Makes room for at least `capacity` elements, moving them into a new malloc'ed buffer. */
static int list_reserve(ListObject* list, int64_t capacity) {
  if (capacity <= list->cell.capacity) return 0;
  if ((uint64_t)capacity > SIZE_MAX / sizeof(TVMFFIAny)) {
    return ffi_raise("MemoryError", "ffi.List: cannot reserve %lld elements", (long long)capacity);
  }
  TVMFFIAny* data = (TVMFFIAny*)malloc((size_t)capacity * sizeof(TVMFFIAny));
  if (data == NULL) {
    return ffi_raise("MemoryError", "ffi.List: out of memory for %lld elements",
                     (long long)capacity);
  }
  if (list->cell.size > 0) memcpy(data, list->cell.data, (size_t)list->cell.size * sizeof(TVMFFIAny));
  if (list->cell.data_deleter != NULL) list->cell.data_deleter(list->cell.data);
  list->cell.data = data;
  list->cell.capacity = capacity;
  list->cell.data_deleter = ffi_container_buffer_free;
  return 0;
}

/* Room for `extra` more elements, doubling like the C++ List does. */
static int list_grow_for(ListObject* list, int64_t extra) {
  int64_t need = list->cell.size + extra;
  if (need <= list->cell.capacity) return 0;
  int64_t capacity = list->cell.capacity > 0 ? list->cell.capacity : LIST_INIT_CAPACITY;
  while (capacity < need) capacity *= 2;
  return list_reserve(list, capacity);
}

static int list_new(ListObject** out) {
  ListObject* list = (ListObject*)ffi_object_alloc(sizeof(ListObject), kTVMFFIList, list_deleter);
  if (list == NULL) return -1;
  list->cell.data_deleter = ffi_container_buffer_free;
  *out = list;
  return 0;
}

/* Inserts owned copies of n views at position `at` (0 <= at <= size). */
static int list_insert_views(ListObject* list, int64_t at, const TVMFFIAny* views, int64_t n) {
  if (n == 0) return 0;
  if (list_grow_for(list, n) != 0) return -1;
  TVMFFIAny* items = list_items(list);
  TVMFFIAny* owned = (TVMFFIAny*)malloc((size_t)n * sizeof(TVMFFIAny));
  if (owned == NULL) return ffi_raise("MemoryError", "ffi.List: out of memory");
  for (int64_t i = 0; i < n; ++i) {
    if (TVMFFIAnyViewToOwnedAny(&views[i], &owned[i]) != 0) {
      for (int64_t j = 0; j < i; ++j) ffi_any_release(&owned[j]);
      free(owned);
      return -1;
    }
  }
  memmove(&items[at + n], &items[at], (size_t)(list->cell.size - at) * sizeof(TVMFFIAny));
  memcpy(&items[at], owned, (size_t)n * sizeof(TVMFFIAny));
  list->cell.size += n;
  free(owned);
  return 0;
}

/* Removes [start, stop), releasing the elements. */
static void list_erase_range(ListObject* list, int64_t start, int64_t stop) {
  TVMFFIAny* items = list_items(list);
  for (int64_t i = start; i < stop; ++i) ffi_any_release(&items[i]);
  memmove(&items[start], &items[stop], (size_t)(list->cell.size - stop) * sizeof(TVMFFIAny));
  list->cell.size -= stop - start;
}

/* ---- argument helpers ---- */

static int list_arg(const char* fname, const TVMFFIAny* args, int32_t i, ListObject** out) {
  TVMFFIObject* obj;
  if (ffi_arg_object(fname, args, i, kTVMFFIList, &obj) != 0) return -1;
  *out = (ListObject*)obj;
  return 0;
}

/* Index argument i, checked against [0, limit). */
static int index_arg(const char* fname, const TVMFFIAny* args, int32_t i, int64_t limit,
                     int64_t* out) {
  if (ffi_arg_int(fname, args, i, out) != 0) return -1;
  if (*out < 0 || *out >= limit) {
    return ffi_raise("IndexError", "%s: index %lld out of bounds for size %lld", fname,
                     (long long)*out, (long long)limit);
  }
  return 0;
}

/* Range arguments i, i+1 with 0 <= start <= stop <= size. */
static int range_args(const char* fname, const TVMFFIAny* args, int32_t i, int64_t size,
                      int64_t* start, int64_t* stop) {
  if (ffi_arg_int(fname, args, i, start) != 0 || ffi_arg_int(fname, args, i + 1, stop) != 0) {
    return -1;
  }
  if (*start < 0 || *stop < *start || *stop > size) {
    return ffi_raise("IndexError", "%s: invalid range [%lld, %lld) for size %lld", fname,
                     (long long)*start, (long long)*stop, (long long)size);
  }
  return 0;
}

/* ---- global functions ---- */

#define LIST_GLOBAL(fn)                                                              \
  static int fn(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result)

LIST_GLOBAL(global_list) {
  (void)self;
  ListObject* list;
  if (list_new(&list) != 0) return -1;
  if (list_insert_views(list, 0, args, num_args) != 0) {
    ffi_decref(&list->header);
    return -1;
  }
  ffi_ret_object(result, &list->header);
  return 0;
}

LIST_GLOBAL(global_list_get_item) {
  (void)self;
  static const char* kName = "ffi.ListGetItem";
  ListObject* list;
  int64_t i;
  if (ffi_check_num_args(kName, num_args, 2) != 0 || list_arg(kName, args, 0, &list) != 0 ||
      index_arg(kName, args, 1, list->cell.size, &i) != 0) {
    return -1;
  }
  return TVMFFIAnyViewToOwnedAny(&list_items(list)[i], result);
}

LIST_GLOBAL(global_list_set_item) {
  (void)self;
  static const char* kName = "ffi.ListSetItem";
  ListObject* list;
  int64_t i;
  TVMFFIAny value;
  if (ffi_check_num_args(kName, num_args, 3) != 0 || list_arg(kName, args, 0, &list) != 0 ||
      index_arg(kName, args, 1, list->cell.size, &i) != 0 ||
      TVMFFIAnyViewToOwnedAny(&args[2], &value) != 0) {
    return -1;
  }
  TVMFFIAny old = list_items(list)[i];
  list_items(list)[i] = value;
  ffi_any_release(&old); /* after the store: old may own the list itself */
  *result = ffi_any_none();
  return 0;
}

LIST_GLOBAL(global_list_size) {
  (void)self;
  static const char* kName = "ffi.ListSize";
  ListObject* list;
  if (ffi_check_num_args(kName, num_args, 1) != 0 || list_arg(kName, args, 0, &list) != 0) return -1;
  ffi_ret_int(result, list->cell.size);
  return 0;
}

LIST_GLOBAL(global_list_contains) {
  (void)self;
  static const char* kName = "ffi.ListContains";
  ListObject* list;
  TVMFFIAny needle;
  if (ffi_check_num_args(kName, num_args, 2) != 0 || list_arg(kName, args, 0, &list) != 0 ||
      TVMFFIAnyViewToOwnedAny(&args[1], &needle) != 0) {
    return -1;
  }
  bool found = false;
  for (int64_t i = 0; i < list->cell.size && !found; ++i) {
    found = ffi_any_equal(&list_items(list)[i], &needle);
  }
  ffi_any_release(&needle);
  ffi_ret_bool(result, found);
  return 0;
}

LIST_GLOBAL(global_list_append) {
  (void)self;
  static const char* kName = "ffi.ListAppend";
  ListObject* list;
  if (ffi_check_num_args(kName, num_args, 2) != 0 || list_arg(kName, args, 0, &list) != 0 ||
      list_insert_views(list, list->cell.size, &args[1], 1) != 0) {
    return -1;
  }
  *result = ffi_any_none();
  return 0;
}

LIST_GLOBAL(global_list_insert) {
  (void)self;
  static const char* kName = "ffi.ListInsert";
  ListObject* list;
  int64_t i;
  if (ffi_check_num_args(kName, num_args, 3) != 0 || list_arg(kName, args, 0, &list) != 0 ||
      index_arg(kName, args, 1, list->cell.size + 1, &i) != 0 ||
      list_insert_views(list, i, &args[2], 1) != 0) {
    return -1;
  }
  *result = ffi_any_none();
  return 0;
}

LIST_GLOBAL(global_list_pop) {
  (void)self;
  static const char* kName = "ffi.ListPop";
  ListObject* list;
  int64_t i;
  if (ffi_check_num_args(kName, num_args, 2) != 0 || list_arg(kName, args, 0, &list) != 0 ||
      index_arg(kName, args, 1, list->cell.size, &i) != 0) {
    return -1;
  }
  TVMFFIAny* items = list_items(list);
  *result = items[i]; /* the reference moves to the caller */
  memmove(&items[i], &items[i + 1], (size_t)(list->cell.size - i - 1) * sizeof(TVMFFIAny));
  list->cell.size -= 1;
  return 0;
}

LIST_GLOBAL(global_list_erase) {
  (void)self;
  static const char* kName = "ffi.ListErase";
  ListObject* list;
  int64_t i;
  if (ffi_check_num_args(kName, num_args, 2) != 0 || list_arg(kName, args, 0, &list) != 0 ||
      index_arg(kName, args, 1, list->cell.size, &i) != 0) {
    return -1;
  }
  ffi_incref(&list->header); /* an element may hold the last other reference to the list */
  list_erase_range(list, i, i + 1);
  ffi_decref(&list->header);
  *result = ffi_any_none();
  return 0;
}

LIST_GLOBAL(global_list_erase_range) {
  (void)self;
  static const char* kName = "ffi.ListEraseRange";
  ListObject* list;
  int64_t start, stop;
  if (ffi_check_num_args(kName, num_args, 3) != 0 || list_arg(kName, args, 0, &list) != 0 ||
      range_args(kName, args, 1, list->cell.size, &start, &stop) != 0) {
    return -1;
  }
  ffi_incref(&list->header);
  list_erase_range(list, start, stop);
  ffi_decref(&list->header);
  *result = ffi_any_none();
  return 0;
}

LIST_GLOBAL(global_list_replace_slice) {
  (void)self;
  static const char* kName = "ffi.ListReplaceSlice";
  ListObject *list, *repl;
  int64_t start, stop;
  if (ffi_check_num_args(kName, num_args, 4) != 0 || list_arg(kName, args, 0, &list) != 0 ||
      range_args(kName, args, 1, list->cell.size, &start, &stop) != 0 ||
      list_arg(kName, args, 3, &repl) != 0) {
    return -1;
  }
  /* Snapshot the replacement first: it may be the list itself. */
  int64_t n = repl->cell.size;
  TVMFFIAny* copy = (TVMFFIAny*)malloc((size_t)(n > 0 ? n : 1) * sizeof(TVMFFIAny));
  if (copy == NULL) return ffi_raise("MemoryError", "%s: out of memory", kName);
  if (n > 0) memcpy(copy, repl->cell.data, (size_t)n * sizeof(TVMFFIAny));
  ffi_incref(&list->header);
  int rc = list_insert_views(list, stop, copy, n); /* new owned copies hold their own refs */
  if (rc == 0) list_erase_range(list, start, stop);
  ffi_decref(&list->header);
  free(copy);
  if (rc != 0) return -1;
  *result = ffi_any_none();
  return 0;
}

LIST_GLOBAL(global_list_reverse) {
  (void)self;
  static const char* kName = "ffi.ListReverse";
  ListObject* list;
  if (ffi_check_num_args(kName, num_args, 1) != 0 || list_arg(kName, args, 0, &list) != 0) return -1;
  TVMFFIAny* items = list_items(list);
  for (int64_t i = 0, j = list->cell.size - 1; i < j; ++i, --j) {
    TVMFFIAny t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
  *result = ffi_any_none();
  return 0;
}

LIST_GLOBAL(global_list_clear) {
  (void)self;
  static const char* kName = "ffi.ListClear";
  ListObject* list;
  if (ffi_check_num_args(kName, num_args, 1) != 0 || list_arg(kName, args, 0, &list) != 0) return -1;
  ffi_incref(&list->header);
  list_erase_range(list, 0, list->cell.size);
  ffi_decref(&list->header);
  *result = ffi_any_none();
  return 0;
}

LIST_GLOBAL(global_list_reserve) {
  (void)self;
  static const char* kName = "ffi.ListReserve";
  ListObject* list;
  int64_t n;
  if (ffi_check_num_args(kName, num_args, 2) != 0 || list_arg(kName, args, 0, &list) != 0 ||
      ffi_arg_int(kName, args, 1, &n) != 0) {
    return -1;
  }
  if (n < 0) return ffi_raise("ValueError", "%s: capacity must be >= 0, got %lld", kName, (long long)n);
  if (list_reserve(list, n) != 0) return -1;
  *result = ffi_any_none();
  return 0;
}

void ffi_register_list_globals(void) {
  ffi_register_builtin("ffi.List", global_list);
  ffi_register_builtin("ffi.ListGetItem", global_list_get_item);
  ffi_register_builtin("ffi.ListSetItem", global_list_set_item);
  ffi_register_builtin("ffi.ListSize", global_list_size);
  ffi_register_builtin("ffi.ListContains", global_list_contains);
  ffi_register_builtin("ffi.ListAppend", global_list_append);
  ffi_register_builtin("ffi.ListInsert", global_list_insert);
  ffi_register_builtin("ffi.ListPop", global_list_pop);
  ffi_register_builtin("ffi.ListErase", global_list_erase);
  ffi_register_builtin("ffi.ListEraseRange", global_list_erase_range);
  ffi_register_builtin("ffi.ListReplaceSlice", global_list_replace_slice);
  ffi_register_builtin("ffi.ListReverse", global_list_reverse);
  ffi_register_builtin("ffi.ListClear", global_list_clear);
  ffi_register_builtin("ffi.ListReserve", global_list_reserve);
}
