/*
 * reflection_internal.h -- what the reflection-driven constructors share
 * (reflection_create.c: ffi.MakeObjectFromPackedArgs; reflection_init.c: ffi._RegisterFFIInit).
 */
#ifndef TVM_FFI_RUNTIME_REFLECTION_INTERNAL_H_
#define TVM_FFI_RUNTIME_REFLECTION_INTERNAL_H_

#include "internal.h"

#define FFI_REFLECTION_MAX_FIELDS 256

/* Every field of a type, ancestors' first, with a per-field "already set" mark. */
typedef struct {
  const TVMFFIFieldInfo* items[FFI_REFLECTION_MAX_FIELDS];
  bool set[FFI_REFLECTION_MAX_FIELDS];
  int size;
} FfiFieldTable;

int ffi_reflection_collect_fields(const TVMFFITypeInfo* info, FfiFieldTable* out);
/* Writes `value` (a view) through the field's setter (pointer or FunctionObj). */
int ffi_reflection_set_field(TVMFFIObject* obj, const TVMFFIFieldInfo* field,
                             const TVMFFIAny* value);
/* Writes the field's reflection default (or factory result); TypeError when it has none. */
int ffi_reflection_fill_default(TVMFFIObject* obj, const TVMFFITypeInfo* info,
                                const TVMFFIFieldInfo* field);
/* An empty instance from the native creator or __ffi_new__ (owned). */
int ffi_reflection_create_empty(const TVMFFITypeInfo* info, TVMFFIObject** out);

/* Registers ffi._RegisterFFIInit (reflection_init.c). */
void ffi_register_reflection_init_globals(void);

#endif /* TVM_FFI_RUNTIME_REFLECTION_INTERNAL_H_ */
