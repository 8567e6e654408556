/*
 * type_define_internal.h -- how the runtime defines its own object types (type_define.c).
 *
 * The runtime's C object types (access paths, structural keys, enums, visit interrupts) are
 * registered through the same public calls a C++ library makes with the reflection headers, and
 * with what those headers add (a `__ffi_new__` from the native creator, a type schema on every
 * field and method), so Python reflects them like any C++ type. Start-up only: a failure is
 * fatal. Every function these helpers register gets its type index as its `self` handle.
 */
#ifndef TVM_FFI_RUNTIME_TYPE_DEFINE_INTERNAL_H_
#define TVM_FFI_RUNTIME_TYPE_DEFINE_INTERNAL_H_

#include <stdbool.h>

#include "internal.h"

/* The type index a function registered here was made for (its `self`). */
static inline int32_t ffi_defined_type_of(void* self) { return (int32_t)(intptr_t)self; }

/* A type `key` directly under `parent` (ffi.Object or a type defined before it), with a native
 * creator, the object's total size and its structural eq/hash kind (TVMFFISEqHashKind). Registers
 * `__ffi_new__` (an empty instance from the creator), as the reference's headers do. */
int32_t ffi_define_type(const char* key, int32_t parent, TVMFFIObjectCreator creator,
                        int32_t total_size, int kind);

/* A field. `schema` is its type schema JSON (`{"type":"int"}`), which becomes the field's
 * `{"type_schema": ...}` metadata as typed C++ fields carry it. `flags` are the
 * kTVMFFIFieldFlagBitMask* bits; with ...HasDefault the default is None. */
typedef struct {
  const char* name;
  const char* doc; /* NULL: none */
  const char* schema;
  int64_t flags;
  int64_t offset, size;
  TVMFFIFieldGetter get;
  TVMFFIFieldSetter set; /* NULL: read-only */
  int32_t static_index;  /* the field's static type index (kTVMFFIAny for any value) */
} FfiFieldDef;
void ffi_define_field(int32_t type_index, const FfiFieldDef* def);

/* A safe-call function as the type attribute `attr` (`__ffi_repr__`, `__ffi_shallow_copy__`). */
void ffi_define_attr_fn(int32_t type_index, const char* attr, TVMFFISafeCallType fn);

/* A (static) method with `doc` (or NULL); its metadata is the signature table's entry
 * "<type key>.<name>" (builtin_signatures.c) when there is one. */
void ffi_define_method(int32_t type_index, const char* name, TVMFFISafeCallType fn, bool is_static,
                       const char* doc);

/* `__ffi_init__`: a static method with `doc` (or NULL) and the type attribute of that name, one
 * function for both. */
void ffi_define_init(int32_t type_index, TVMFFISafeCallType fn, const char* doc);

/* Getters and setters of the common field layouts: int32, int64, Any, and an object pointer
 * (NULL = None, as Python-defined classes store object fields). The int setters take int or bool. */
int ffi_field_get_i32(void* addr, TVMFFIAny* out);
int ffi_field_set_i32(void* addr, const TVMFFIAny* v);
int ffi_field_get_i64(void* addr, TVMFFIAny* out);
int ffi_field_set_i64(void* addr, const TVMFFIAny* v);
int ffi_field_get_any(void* addr, TVMFFIAny* out);
int ffi_field_set_any(void* addr, const TVMFFIAny* v);
int ffi_field_get_obj(void* addr, TVMFFIAny* out);

#endif /* TVM_FFI_RUNTIME_TYPE_DEFINE_INTERNAL_H_ */
