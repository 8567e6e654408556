/*
 * type_table.h -- FFI type index -> Python class (type_table.c).
 */
#ifndef TVM_FFI_PYTHON_TYPE_TABLE_H_
#define TVM_FFI_PYTHON_TYPE_TABLE_H_

#include "base.h"

/* Borrowed class for objects of `type_index` (registered, nearest registered ancestor, or an
 * auto-generated fallback). NULL with exception on failure. */
PyTypeObject* core_class_for_index(int32_t type_index);
/* Wraps an owned object handle into its Python class (steals handle). */
PyObject* core_object_from_handle(TVMFFIObjectHandle handle);
/* Results of `type_index` (and of unregistered subtypes) become instances of `cls`. */
int core_type_table_register(int32_t type_index, PyObject* cls);
/* Whether the runtime is known to have `type_index` (TVMFFIGetTypeInfo ends the process on an
 * unknown index, so indices that come from Python are checked first), and recording one. */
int core_type_table_is_known(int32_t type_index);
void core_type_table_mark_known(int32_t type_index);
/* Marks every type the runtime has registered (a walk of ffi.GetRegisteredTypeKeys). 0, or the
 * non-zero FFI return code with the runtime's error still raised there (no Python exception). */
int core_type_table_scan_runtime(void);
/* The type key of a runtime type as str. */
PyObject* core_type_key_str(const TVMFFITypeInfo* info);
int core_type_table_init(void);

#endif /* TVM_FFI_PYTHON_TYPE_TABLE_H_ */
