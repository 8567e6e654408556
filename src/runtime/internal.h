/*
 * internal.h -- everything the runtime's C files share, in one include. Nothing here is
 * exported: the library is built with hidden visibility and only the TVMFFI* entry points of the
 * public headers leave it.
 *
 * The core files include only the *_internal.h headers below that they use, so that they
 * depend on each other one way, each on the files before it: object (refcounts, quiet
 * allocation) < error (raising) < str_map, object_api (allocation that raises) < string < any <
 * type_registry < builtin_args < function (builtin_signatures, a table, needs none of them).
 * The *_globals.c files (the built-ins of those concepts) and everything else stand above them
 * and include this umbrella.
 */
#ifndef TVM_FFI_RUNTIME_INTERNAL_H_
#define TVM_FFI_RUNTIME_INTERNAL_H_

#include "runtime_base.h"
#include "object_internal.h"
#include "error_internal.h"
#include "object_api_internal.h"
#include "str_map_internal.h"
#include "string_internal.h"
#include "type_registry_internal.h"
#include "builtin_args_internal.h"
#include "builtin_signatures_internal.h"
#include "function_internal.h"

/* ------------------------------------------------------------------------------------------
 * Per-area start-up hooks, called once by init.c in dependency order.
 * ------------------------------------------------------------------------------------------ */

void ffi_register_function_globals(void);   /* function.c */
void ffi_register_string_globals(void);     /* string_globals.c */
void ffi_register_object_globals(void);     /* object_globals.c */
void ffi_register_array_globals(void);      /* container/array.c: ffi.Array* */
void ffi_register_tensor_globals(void);     /* tensor.c */
void ffi_register_module_globals(void);     /* module_globals.c */
void ffi_register_reflection_globals(void); /* reflection_create.c */
void ffi_register_structural_globals(void); /* structural/register.c */
void ffi_register_py_class_globals(void);   /* py_class.c */
void ffi_register_object_convert_attrs(void); /* object_convert.c: __ffi_convert__ of core types */
void ffi_register_type_final_attrs(void);    /* type_final.c: __ffi_type_final__ of runtime types */
/* object_convert.c: registers the __ffi_convert__ that lets a type's own values pass (and the
 * core types' few conversions) for `type_index`. */
void ffi_register_convert_attr(int32_t type_index);

/* container/array.c: a new Array holding owned copies of n views. */
int ffi_array_new(const TVMFFIAny* items, int64_t n, TVMFFIObject** out);
/* tensor.c: a new Shape object copying n extents. */
int ffi_shape_new(const int64_t* data, size_t n, TVMFFIObject** out);
/* Word i of a BigInt payload (int64 words, least significant first), which a foreign producer
 * need not have 8-byte aligned. */
static inline int64_t ffi_bigint_word(const char* words, size_t i) {
  int64_t w;
  memcpy(&w, words + i * sizeof(int64_t), sizeof(int64_t));
  return w;
}


/* Sequence cells (Array, List) sit right after the header; only the cell is ABI. */
static inline TVMFFISeqCell* ffi_seq_cell(TVMFFIObject* obj) {
  return (TVMFFISeqCell*)((char*)obj + sizeof(TVMFFIObject));
}
static inline TVMFFIAny* ffi_seq_items(TVMFFIObject* obj) {
  return (TVMFFIAny*)ffi_seq_cell(obj)->data;
}
/* container/list.c: a new List holding owned copies of n views; appending steals value. */
int ffi_list_new_views(const TVMFFIAny* views, int64_t n, TVMFFIObject** out);
int ffi_list_append_owned(TVMFFIObject* list, TVMFFIAny value);
/* container/map.c, for Map (72) and Dict (76) alike: an empty one; insert-or-overwrite stealing
 * key and value; size; iteration in insertion order (start with *cursor = 0); lookup of an
 * owned key (NULL when absent). */
int ffi_map_new_empty(int32_t type_index, TVMFFIObject** out);
int ffi_map_set(TVMFFIObject* map, TVMFFIAny key, TVMFFIAny value);
/* The same with owned copies of two views (the views stay the caller's). */
int ffi_map_set_views(TVMFFIObject* map, const TVMFFIAny* key, const TVMFFIAny* value);
int64_t ffi_map_size(TVMFFIObject* map);
bool ffi_map_next(TVMFFIObject* map, uint64_t* cursor, TVMFFIAny** key, TVMFFIAny** value);
TVMFFIAny* ffi_map_lookup(TVMFFIObject* map, const TVMFFIAny* key);

#endif /* TVM_FFI_RUNTIME_INTERNAL_H_ */
