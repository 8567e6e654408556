/*
 * registry.c -- the module functions over the runtime's registries: global functions (look up,
 * register a Python callable or a Function) and types (register a Python class for a type
 * index, type key <-> index, ancestors).
 */
#include "registry.h"

#include "callback.h"
#include "error.h"
#include "function.h"
#include "globals.h"
#include "object.h"
#include "type_table.h"

/* ---- global functions ---- */

static PyObject* mod_get_global_func(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 2) {
    PyErr_Format(PyExc_TypeError, "_get_global_func(name, allow_missing) takes 2 arguments, got %zd",
                 nargs);
    return NULL;
  }
  if (!PyUnicode_Check(args[0])) {
    PyErr_Format(PyExc_TypeError, "get_global_func: expected a function name (str), got %s",
                 Py_TYPE(args[0])->tp_name);
    return NULL;
  }
  int allow_missing = PyObject_IsTrue(args[1]);
  if (allow_missing < 0) return NULL;
  Py_ssize_t size;
  const char* name = PyUnicode_AsUTF8AndSize(args[0], &size);
  if (name == NULL) return NULL;
  TVMFFIObjectHandle handle;
  if (core_get_global_handle_sized(name, (size_t)size, &handle) != 0) return NULL;
  if (handle == NULL) {
    if (allow_missing) Py_RETURN_NONE;
    PyErr_Format(PyExc_ValueError, "Cannot find global function %U", args[0]);
    return NULL;
  }
  return core_function_from_handle(handle, args[0]);
}

static PyObject* mod_register_global_func(PyObject* self, PyObject* const* args,
                                          Py_ssize_t nargs) {
  (void)self;
  if (nargs != 3 || !PyUnicode_Check(args[0])) {
    PyErr_SetString(PyExc_TypeError,
                    "_register_global_func(name: str, func: Callable | Function, override: bool)");
    return NULL;
  }
  int override = PyObject_IsTrue(args[2]);
  if (override < 0) return NULL;
  Py_ssize_t size;
  const char* name = PyUnicode_AsUTF8AndSize(args[0], &size);
  if (name == NULL) return NULL;
  PyObject* func = args[1];
  TVMFFIObjectHandle handle;
  if (PyObject_TypeCheck(func, &CoreFunction_Type) && ((CoreObject*)func)->chandle != NULL) {
    handle = ((CoreObject*)func)->chandle;
    TVMFFIObjectIncRef(handle);
  } else if (PyCallable_Check(func)) {
    if (core_make_py_function(func, &handle) != 0) return NULL;
  } else {
    PyErr_Format(PyExc_TypeError,
                 "_register_global_func() expects a callable or a Function, got `%s`",
                 Py_TYPE(func)->tp_name);
    return NULL;
  }
  TVMFFIByteArray key = {name, (size_t)size};
  if (TVMFFIFunctionSetGlobal(&key, handle, override) != 0) {
    TVMFFIObjectDecRef(handle);
    return core_raise_from_rc(-1);
  }
  return core_function_from_handle(handle, args[0]);
}

/* ---- types ---- */

static int check_known(int32_t type_index) {
  if (core_type_table_is_known(type_index)) return 0;
  int rc = type_index >= 0 ? core_type_table_scan_runtime() : 0;
  if (rc != 0) return core_raise_from_rc(rc), -1;
  if (core_type_table_is_known(type_index)) return 0;
  PyErr_Format(PyExc_ValueError, "type index %d is not registered in the FFI runtime",
               (int)type_index);
  return -1;
}

static int parse_index(PyObject* arg, int32_t* out) {
  long v = PyLong_AsLong(arg);
  if (v == -1 && PyErr_Occurred()) return -1;
  if (v < INT32_MIN || v > INT32_MAX) {
    PyErr_Format(PyExc_ValueError, "type index %ld is out of range", v);
    return -1;
  }
  *out = (int32_t)v;
  return check_known(*out);
}

static PyObject* mod_register_object_class(PyObject* self, PyObject* args) {
  (void)self;
  PyObject *index_obj, *cls;
  if (!PyArg_ParseTuple(args, "OO:_register_object_class", &index_obj, &cls)) return NULL;
  int32_t type_index;
  if (parse_index(index_obj, &type_index) != 0) return NULL;
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject*)cls, &CoreObject_Type)) {
    PyErr_Format(PyExc_TypeError,
                 "_register_object_class() expects a subclass of tvm_ffi Object, got %R", cls);
    return NULL;
  }
  if (core_type_table_register(type_index, cls) != 0) return NULL;
  Py_RETURN_NONE;
}

static PyObject* mod_object_type_key_to_index(PyObject* self, PyObject* key) {
  (void)self;
  Py_ssize_t size;
  const char* data = PyUnicode_AsUTF8AndSize(key, &size);
  if (data == NULL) return NULL;
  TVMFFIByteArray bytes = {data, (size_t)size};
  int32_t index;
  if (TVMFFITypeKeyToIndex(&bytes, &index) != 0) {
    TVMFFIErrorMoveFromRaised(NULL);
    Py_RETURN_NONE;
  }
  core_type_table_mark_known(index);
  return PyLong_FromLong(index);
}

static PyObject* mod_type_index_to_key(PyObject* self, PyObject* index_obj) {
  (void)self;
  int32_t type_index;
  if (parse_index(index_obj, &type_index) != 0) return NULL;
  return core_type_key_str(TVMFFIGetTypeInfo(type_index));
}

static PyObject* mod_type_index_ancestors(PyObject* self, PyObject* index_obj) {
  (void)self;
  int32_t type_index;
  if (parse_index(index_obj, &type_index) != 0) return NULL;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  PyObject* out = PyList_New(info->type_depth);
  if (out == NULL) return NULL;
  for (int32_t d = 0; d < info->type_depth; ++d) {
    PyObject* v = PyLong_FromLong(info->type_ancestors[d]->type_index);
    if (v == NULL) {
      Py_DECREF(out);
      return NULL;
    }
    PyList_SET_ITEM(out, d, v);
  }
  return out;
}

static PyMethodDef registry_methods[] = {
    {"_get_global_func", (PyCFunction)(void (*)(void))mod_get_global_func, METH_FASTCALL,
     "_get_global_func($module, name, allow_missing, /)\n--\n\nThe global function `name`, or None."},
    {"_register_global_func", (PyCFunction)(void (*)(void))mod_register_global_func,
     METH_FASTCALL, "_register_global_func($module, name, func, override, /)\n--\n\nRegisters `func` globally."},
    {"_register_object_class", mod_register_object_class, METH_VARARGS,
     "_register_object_class(type_index, cls): results of that type become cls instances."},
    {"_object_type_key_to_index", mod_object_type_key_to_index, METH_O,
     "Type index of a type key, or None."},
    {"_type_index_to_key", mod_type_index_to_key, METH_O, "Type key of a type index."},
    {"_type_index_ancestors", mod_type_index_ancestors, METH_O,
     "Type indices of the ancestors of a type, root first."},
    {NULL, NULL, 0, NULL},
};

int core_registry_init(PyObject* module) { return PyModule_AddFunctions(module, registry_methods); }
