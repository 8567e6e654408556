/*
 * container_content.c -- ==, hash() and `in` of Array, List, Map and Dict, by content.
 *
 * `==` is the runtime's ffi._ContentEqual. Equal containers must hash equal, so hash() follows
 * it through its companion ffi._ContentHash, and `x in seq` is ffi.ArrayContains /
 * ffi.ListContains, which compare with that same equality. All are called straight from the
 * type slots, without a Python frame.
 */
#include "container_content.h"

#include "call.h"
#include "error.h"
#include "globals.h"
#include "object.h"

/* A global function, looked up on first use and kept for the life of the process. */
typedef struct {
  const char* name;
  TVMFFIObjectHandle handle;
  PyObject* py_name; /* for error messages of argument conversion */
} GlobalFunc;

static GlobalFunc g_content_equal = {"ffi._ContentEqual", NULL, NULL};
static GlobalFunc g_content_hash = {"ffi._ContentHash", NULL, NULL};
static GlobalFunc g_array_contains = {"ffi.ArrayContains", NULL, NULL};
static GlobalFunc g_list_contains = {"ffi.ListContains", NULL, NULL};

static int resolve(GlobalFunc* func) {
  if (CORE_LIKELY(func->handle != NULL)) return 0;
  if (func->py_name == NULL && (func->py_name = PyUnicode_FromString(func->name)) == NULL) {
    return -1;
  }
  if (core_get_global_handle(func->name, &func->handle) != 0) return -1;
  if (func->handle == NULL) {
    PyErr_Format(PyExc_RuntimeError, "the runtime has no global function %s", func->name);
    return -1;
  }
  return 0;
}

/* func(a, b) for a global that answers a bool: 1 or 0, -1 with a Python error set. */
static int call_for_bool(GlobalFunc* func, PyObject* a, PyObject* b) {
  if (resolve(func) != 0) return -1;
  PyObject* args[2] = {a, b};
  TVMFFIAny result;
  result.type_index = kTVMFFINone;
  result.zero_padding = 0;
  result.v_int64 = 0;
  CoreFramework fw; /* the answer is a bool: no framework to hand results back to */
  if (core_call(func->handle, args, 2, func->py_name, &result, &fw) != 0) return -1;
  return result.type_index == kTVMFFIBool && result.v_int64 != 0;
}

Py_hash_t core_container_hash(PyObject* self) {
  TVMFFIObjectHandle handle = ((CoreObject*)self)->chandle;
  if (CORE_UNLIKELY(handle == NULL)) {
    PyErr_Format(PyExc_ValueError, "%s object has no FFI handle", Py_TYPE(self)->tp_name);
    return -1;
  }
  if (resolve(&g_content_hash) != 0) return -1;
  TVMFFIAny arg, result;
  arg.type_index = TVMFFIObjectGetTypeIndex(handle);
  arg.zero_padding = 0;
  arg.v_obj = handle;
  result.type_index = kTVMFFINone;
  result.zero_padding = 0;
  result.v_int64 = 0;
  int rc = TVMFFIFunctionCall(g_content_hash.handle, &arg, 1, &result);
  if (CORE_UNLIKELY(rc != 0)) {
    core_raise_from_rc(rc);
    return -1;
  }
  Py_hash_t h = (Py_hash_t)result.v_int64;
  return h == -1 ? -2 : h; /* -1 means "error" to Python */
}

int core_seq_contains(PyObject* self, PyObject* value) {
  /* `in` agrees with ==: a plain dict never equals a Map, though a call would convert it. */
  if (PyDict_Check(value)) return 0;
  TVMFFIObjectHandle handle = ((CoreObject*)self)->chandle;
  if (CORE_UNLIKELY(handle == NULL)) {
    PyErr_Format(PyExc_ValueError, "%s object has no FFI handle", Py_TYPE(self)->tp_name);
    return -1;
  }
  GlobalFunc* func =
      TVMFFIObjectGetTypeIndex(handle) == kTVMFFIList ? &g_list_contains : &g_array_contains;
  return call_for_bool(func, self, value);
}

PyObject* core_container_content_compare(PyObject* self, PyObject* other, int op) {
  int equal = call_for_bool(&g_content_equal, self, other);
  if (equal < 0) return NULL;
  return PyBool_FromLong(op == Py_EQ ? equal : !equal);
}
