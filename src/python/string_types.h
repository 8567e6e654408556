/*
 * string_types.h -- String (a str subclass) and Bytes (a bytes subclass) that remember the
 * heap string object they came from (string_types.c).
 */
#ifndef TVM_FFI_PYTHON_STRING_TYPES_H_
#define TVM_FFI_PYTHON_STRING_TYPES_H_

#include "base.h"

typedef struct {
  PyUnicodeObject base;
  PyObject* cached; /* CoreObject or Py_None */
} CoreString;

/* String and Bytes are heap types made at start-up (core_string_init_types); NULL before. */
extern PyTypeObject* core_string_type;
extern PyTypeObject* core_bytes_type;

/* The cached FFI object of a String/Bytes instance (borrowed), or NULL (no exception). */
PyObject* core_native_cached_object(PyObject* value);
/* String/Bytes instance from an owned heap string/bytes handle (stolen). */
PyObject* core_string_from_handle(TVMFFIObjectHandle handle, int is_bytes);
PyObject* core_str_from_byte_array(const char* data, size_t size);
int core_string_init_types(PyObject* module);

#endif /* TVM_FFI_PYTHON_STRING_TYPES_H_ */
