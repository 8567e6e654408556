/*
 * container.h -- C fast paths of the container classes: their common base and construction,
 * and the sequences (container.c); the maps build on it (container_map.c).
 */
#ifndef TVM_FFI_PYTHON_CONTAINER_H_
#define TVM_FFI_PYTHON_CONTAINER_H_

#include "base.h"
#include "convert_result.h"
#include "framework.h"

/* CContainerBase, the common base of SeqBase and MapBase (ready after core_container_init). */
extern PyTypeObject CoreContainerBase_Type;

/* CContainerBase and SeqBase. */
int core_container_init(PyObject* module);

/* The one optional argument of a container constructor (*items NULL when absent); `keyword` is
 * its name, as the reference's (input_list for sequences, input_dict for maps). */
int core_container_parse_items(PyObject* args, PyObject* kwargs, const char* fmt, char* keyword,
                               PyObject** items);
/* Calls the class's constructor (the Function its `_ffi_ctor` names) with `args` and makes the
 * instance own the result. 0, or -1 with exception. */
int core_container_construct_from(PyObject* self, PyObject* const* args, Py_ssize_t nargs);

/* An owned element (one a runtime call returned) as a Python value, in the container's
 * framework when it has one; takes the reference. */
static inline PyObject* core_container_owned_element_to_py(PyObject* self, TVMFFIAny* owned) {
  const DLPackExchangeAPI* api = ((CoreContainer*)self)->dlpack_api;
  if (CORE_UNLIKELY(api != NULL)) return core_any_to_py_in_framework(owned, api);
  return core_any_to_py(owned);
}

/* An element read in place (a view into the container's storage) as a new Python value, in
 * the container's framework when it has one. */
static inline PyObject* core_container_element_to_py(PyObject* self, const TVMFFIAny* view) {
  const DLPackExchangeAPI* api = ((CoreContainer*)self)->dlpack_api;
  if (CORE_UNLIKELY(api != NULL)) return core_view_to_py_in_framework(view, api);
  return core_view_to_py(view);
}

#endif /* TVM_FFI_PYTHON_CONTAINER_H_ */
