/*
 * base.h -- what every file of the tvm_ffi._core extension starts from: the Python and ABI
 * headers, branch hints, and the conventions below. Each concept has its own header
 * (object.h, error.h, call.h, ...); a file includes the ones it uses. README.md maps them.
 *
 * The extension is the per-call hot path between Python and TVMFFIAny. Everything has hidden
 * visibility (the module is built with -fvisibility=hidden); only PyInit__core leaves it.
 *
 * Conventions:
 *  - Functions returning int: 0 ok, -1 with a Python exception set.
 *  - Functions returning PyObject*: a new reference, or NULL with a Python exception set.
 *  - "owned" Any: holds one strong reference when it is an object; "view": borrowed.
 */
#ifndef TVM_FFI_PYTHON_BASE_H_
#define TVM_FFI_PYTHON_BASE_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

#define CORE_LIKELY(x) __builtin_expect(!!(x), 1)
#define CORE_UNLIKELY(x) __builtin_expect(!!(x), 0)

#if PY_VERSION_HEX < 0x030A0000
/* Python 3.9 (still supported) lacks these 3.10 functions; same contracts. */
static inline int PyModule_AddObjectRef(PyObject* module, const char* name, PyObject* value) {
  Py_XINCREF(value);
  if (PyModule_AddObject(module, name, value) < 0) {
    Py_XDECREF(value);
    return -1;
  }
  return 0;
}

static inline PyObject* Py_NewRef(PyObject* object) {
  Py_INCREF(object);
  return object;
}
#endif

/* Up to this many arguments travel in stack arrays: a call allocates nothing. */
#define CORE_INLINE_ARGS 8

/* False once the interpreter is finalizing: deleters that run from the runtime's own
 * teardown must then leak their Python reference instead of taking the GIL. */
static inline int core_python_alive(void) {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsInitialized() && !Py_IsFinalizing();
#else
  return Py_IsInitialized() && !_Py_IsFinalizing();
#endif
}

#endif /* TVM_FFI_PYTHON_BASE_H_ */
