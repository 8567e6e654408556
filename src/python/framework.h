/*
 * framework.h -- results of a call that took framework tensors (framework.c): tensors go back
 * as that framework's tensors, and containers remember the framework (its DLPack exchange API)
 * for the elements they hand out later, at any depth.
 */
#ifndef TVM_FFI_PYTHON_FRAMEWORK_H_
#define TVM_FFI_PYTHON_FRAMEWORK_H_

#include "base.h"
#include "dispatch.h"
#include "object.h"

/* Instances of the container base types (container.c) and their Python subclasses. */
typedef struct {
  CoreObject base;
  const DLPackExchangeAPI* dlpack_api; /* framework of the call that returned it, or NULL */
} CoreContainer;

/* Registers the converter of container arguments: one returned in a framework's call brings
 * that framework into the calls it is passed to, so their results go back to it as well. */
int core_framework_init(void);

/* Makes an Array/List/Map/Dict instance convert its tensor elements to the framework of
 * `api` (no-op for other objects or when already set). */
void core_container_set_framework(PyObject* obj, const DLPackExchangeAPI* api);

/* As core_any_to_py / core_view_to_py, in the framework of `api`. */
PyObject* core_any_to_py_in_framework(TVMFFIAny* owned, const DLPackExchangeAPI* api);
PyObject* core_view_to_py_in_framework(const TVMFFIAny* view, const DLPackExchangeAPI* api);

#endif /* TVM_FFI_PYTHON_FRAMEWORK_H_ */
