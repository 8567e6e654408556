/*
 * pending_error.h -- dropping FFI references while a Python exception may be pending.
 *
 * Releasing a handle can run arbitrary deleters, and some run Python code: a DLPack producer
 * written in Python/ctypes, an opaque Python object's last reference. Python code must not run
 * with an exception set (CPython then reports "SystemError: ... returned NULL without setting an
 * exception" or loses the error), so the pending exception is put aside around the release and
 * restored after it. Error-free paths pay one PyErr_Occurred() test.
 */
#ifndef TVM_FFI_PYTHON_PENDING_ERROR_H_
#define TVM_FFI_PYTHON_PENDING_ERROR_H_

#include "base.h"

typedef struct {
#if PY_VERSION_HEX >= 0x030C0000
  PyObject* exc;
#else
  PyObject *type, *value, *tb;
#endif
  int saved;
} CorePendingError;

/* Puts the pending exception (if any) aside. */
static inline void core_pending_error_save(CorePendingError* p) {
  p->saved = PyErr_Occurred() != NULL;
  if (!p->saved) return;
#if PY_VERSION_HEX >= 0x030C0000
  p->exc = PyErr_GetRaisedException();
#else
  PyErr_Fetch(&p->type, &p->value, &p->tb);
#endif
}

/* Restores it; an exception raised meanwhile (by a deleter) is reported as unraisable. */
static inline void core_pending_error_restore(CorePendingError* p) {
  if (!p->saved) return;
  if (PyErr_Occurred()) PyErr_WriteUnraisable(NULL);
#if PY_VERSION_HEX >= 0x030C0000
  PyErr_SetRaisedException(p->exc);
#else
  PyErr_Restore(p->type, p->value, p->tb);
#endif
}

/* TVMFFIObjectDecRef with any pending exception kept aside while deleters run. */
static inline void core_decref_keeping_error(TVMFFIObjectHandle handle) {
  CorePendingError pending;
  core_pending_error_save(&pending);
  TVMFFIObjectDecRef(handle);
  core_pending_error_restore(&pending);
}

#endif /* TVM_FFI_PYTHON_PENDING_ERROR_H_ */
