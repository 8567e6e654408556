/*
 * extension.c -- tvm_ffi._core: module init and the small module-level functions that belong
 * to no other file.
 *
 * The extension links libtvm_ffi.so (RPATH $ORIGIN/lib), so importing it alone also loads the
 * runtime; tvm_ffi/__init__.py loads it first with RTLD_GLOBAL anyway.
 */
#include "base.h"
#include "call.h"
#include "callback.h"
#include "cany.h"
#include "class_hooks.h"
#include "container.h"
#include "container_map.h"
#include "convert_args.h"
#include "convert_public.h"
#include "convert_result.h"
#include "device.h"
#include "dispatch.h"
#include "dltensor_test_wrapper.h"
#include "dtype.h"
#include "error.h"
#include "error_from_python.h"
#include "framework.h"
#include "function.h"
#include "gil_policy.h"
#include "globals.h"
#include "object.h"
#include "object_services.h"
#include "reflection.h"
#include "reflection_methods.h"
#include "registry.h"
#include "shape.h"
#include "state.h"
#include "string_types.h"
#include "structural_entry.h"
#include "tensor.h"
#include "tensor_import.h"
#include "type_table.h"

/* A stream given as an int address, None, or anything with an int `.value` (c_void_p). */
static int stream_address(PyObject* stream, void** out) {
  if (stream == Py_None) {
    *out = NULL;
    return 0;
  }
  PyObject* addr = PyLong_Check(stream) ? (Py_INCREF(stream), stream)
                                        : PyObject_GetAttr(stream, core_str_value);
  if (addr == NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) {
    PyErr_Clear();
    addr = Py_NewRef(Py_Ellipsis); /* neither an int nor a c_void_p: refused below */
  }
  if (addr == NULL) return -1;
  if (addr == Py_None) {
    *out = NULL;
  } else if (PyLong_Check(addr)) {
    *out = PyLong_AsVoidPtr(addr);
  } else {
    PyErr_Format(PyExc_TypeError, "stream must be an int address, got `%s`",
                 Py_TYPE(stream)->tp_name);
  }
  Py_DECREF(addr);
  return PyErr_Occurred() ? -1 : 0;
}

/* The (device_type, device_id) pair leading the arguments of the two stream functions. */
static int device_args(PyObject* const* args, Py_ssize_t nargs, Py_ssize_t expected,
                       const char* name, int* device_type, int* device_id) {
  if (nargs != expected) {
    PyErr_Format(PyExc_TypeError, "%s() takes exactly %zd arguments (%zd given)", name, expected,
                 nargs);
    return -1;
  }
  long type = PyLong_AsLong(args[0]);
  if (type == -1 && PyErr_Occurred()) return -1;
  long id = PyLong_AsLong(args[1]);
  if (id == -1 && PyErr_Occurred()) return -1;
  if (type < 0 || id < 0 || type > INT32_MAX || id > INT32_MAX) {
    PyErr_Format(PyExc_ValueError, "%s: device (%ld, %ld) must have a type and an id in [0, 2**31)",
                 name, type, id);
    return -1;
  }
  *device_type = (int)type;
  *device_id = (int)id;
  return 0;
}

/* Both are METH_FASTCALL: stream contexts call them on every entry and exit. */
static PyObject* mod_env_set_current_stream(PyObject* self, PyObject* const* args,
                                            Py_ssize_t nargs) {
  (void)self;
  int device_type, device_id;
  if (device_args(args, nargs, 3, "_env_set_current_stream", &device_type, &device_id) != 0) {
    return NULL;
  }
  void* stream = NULL;
  if (stream_address(args[2], &stream) != 0) return NULL;
  TVMFFIStreamHandle previous = NULL;
  if (TVMFFIEnvSetStream(device_type, device_id, stream, &previous) != 0) {
    return core_raise_from_rc(-1);
  }
  return PyLong_FromVoidPtr(previous);
}

static PyObject* mod_env_get_current_stream(PyObject* self, PyObject* const* args,
                                            Py_ssize_t nargs) {
  (void)self;
  int device_type, device_id;
  if (device_args(args, nargs, 2, "_env_get_current_stream", &device_type, &device_id) != 0) {
    return NULL;
  }
  return PyLong_FromVoidPtr(TVMFFIEnvGetStream(device_type, device_id));
}

static PyMethodDef module_methods[] = {
    {"_convert_to_ffi_func", core_mod_convert_to_ffi_func, METH_O,
     "Wraps a Python callable as a Function (callable from any thread)."},
    {"_convert_to_ffi_func_in_framework", (PyCFunction)(void (*)(void))core_mod_convert_to_ffi_func_in_framework,
     METH_FASTCALL, "As _convert_to_ffi_func, delivering tensor arguments as tensor_cls tensors."},
    {"_convert_to_ffi_error", core_mod_convert_to_ffi_error, METH_O,
     "The FFI Error for a Python exception."},
    {"_set_error_hooks", core_mod_set_error_hooks, METH_VARARGS,
     "_set_error_hooks(with_append_backtrace, traceback_to_backtrace_str)"},
    {"_set_class_dtype", core_mod_set_class_dtype, METH_O,
     "Sets the public dtype class used for DataType results."},
    {"_set_class_shape", core_mod_set_class_shape, METH_O,
     "Sets the tuple subclass that ffi.Shape results come back as."},
    {"_env_set_current_stream", (PyCFunction)(void (*)(void))mod_env_set_current_stream,
     METH_FASTCALL,
     "Sets this thread's stream for a device; returns the previous one."},
    {"_env_get_current_stream", (PyCFunction)(void (*)(void))mod_env_get_current_stream,
     METH_FASTCALL,
     "This thread's stream for a device (0 when unset)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_moduledef = {
    PyModuleDef_HEAD_INIT,
    .m_name = "tvm_ffi._core",
    .m_doc = "CPython fast path of tvm_ffi: Function calls and value conversion.",
    .m_size = -1,
    .m_methods = module_methods,
};

/* MISSING / KWARGS: the runtime's sentinel objects, or None without the runtime globals. */
static int add_sentinel(PyObject* module, const char* attr, const char* global_name) {
  TVMFFIObjectHandle func;
  if (core_get_global_handle(global_name, &func) != 0) return -1;
  PyObject* value;
  if (func == NULL) {
    Py_INCREF(Py_None);
    value = Py_None;
  } else {
    TVMFFIAny result = {0};
    int rc = TVMFFIFunctionCall(func, NULL, 0, &result);
    TVMFFIObjectDecRef(func);
    value = rc == 0 ? core_any_to_py(&result) : core_raise_from_rc(rc);
    if (value == NULL) return -1;
  }
  return PyModule_AddObject(module, attr, value) < 0 ? (Py_DECREF(value), -1) : 0;
}

PyMODINIT_FUNC PyInit__core(void) {
  PyObject* module = PyModule_Create(&core_moduledef);
  if (module == NULL) return NULL;
  /* Bottom up: each file's types before the files above it register into them. */
  if (core_state_init(module) != 0 || core_gil_policy_init() != 0 ||
      core_object_init_types(module) != 0 ||
      core_type_table_init() != 0 || core_error_init(module) != 0 ||
      core_string_init_types(module) != 0 || core_device_init_types(module) != 0 ||
      core_dtype_init_types(module) != 0 || core_dispatch_init() != 0 ||
      core_convert_init() != 0 || core_framework_init() != 0 || core_tensor_init(module) != 0 ||
      core_tensor_import_init(module) != 0 ||
      core_dltensor_test_wrapper_init(module) != 0 || core_call_init() != 0 ||
      core_container_init(module) != 0 || core_container_map_init(module) != 0 ||
      core_class_hooks_init(module) != 0 ||
      core_function_init_types(module) != 0 || core_object_services_init(module) != 0 ||
      core_callback_init(module) != 0 || core_convert_public_init(module) != 0 ||
      core_registry_init(module) != 0 ||
      core_reflection_init(module) != 0 || core_cany_init(module) != 0 ||
      core_reflection_methods_init(module) != 0 || core_structural_entry_init(module) != 0 ||
      add_sentinel(module, "MISSING", "ffi.GetInvalidObject") != 0 ||
      add_sentinel(module, "KWARGS", "ffi.GetKwargsObject") != 0) {
    Py_CLEAR(core_module);
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
