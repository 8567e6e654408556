/*
 * state.c -- the extension's process-wide values (state.h), made once at import.
 */
#include "state.h"

PyObject* core_module = NULL;
PyObject* core_ctypes_c_void_p = NULL;
PyObject* core_str_cached_object = NULL;
PyObject* core_str_dtype_attr = NULL;
PyObject* core_str_value = NULL;
PyObject* core_empty_tuple = NULL;

int core_state_init(PyObject* module) {
  Py_INCREF(module);
  core_module = module; /* kept for the process: error tables are read from it */
  core_str_cached_object = PyUnicode_InternFromString("_tvm_ffi_cached_object");
  core_str_dtype_attr = PyUnicode_InternFromString("_tvm_ffi_dtype");
  core_str_value = PyUnicode_InternFromString("value");
  core_empty_tuple = PyTuple_New(0);
  if (core_str_cached_object == NULL || core_str_dtype_attr == NULL || core_str_value == NULL ||
      core_empty_tuple == NULL) {
    return -1;
  }
  PyObject* ctypes = PyImport_ImportModule("ctypes");
  if (ctypes == NULL) return -1;
  core_ctypes_c_void_p = PyObject_GetAttrString(ctypes, "c_void_p");
  Py_DECREF(ctypes);
  return core_ctypes_c_void_p != NULL ? 0 : -1;
}
