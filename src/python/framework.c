/*
 * framework.c -- results of a call that took framework tensors (framework.h).
 */
#include "framework.h"

#include "convert_result.h"
#include "tensor.h"

PyTypeObject* core_container_types[2] = {NULL, NULL};

static inline int is_container(PyObject* obj) {
  return (core_container_types[0] != NULL && PyObject_TypeCheck(obj, core_container_types[0])) ||
         (core_container_types[1] != NULL && PyObject_TypeCheck(obj, core_container_types[1]));
}

void core_container_set_framework(PyObject* obj, const DLPackExchangeAPI* api) {
  if (is_container(obj) && ((CoreContainer*)obj)->dlpack_api == NULL) {
    ((CoreContainer*)obj)->dlpack_api = api;
  }
}

PyObject* core_any_to_py_in_framework(TVMFFIAny* owned, const DLPackExchangeAPI* api) {
  if (owned->type_index == kTVMFFITensor && owned->v_obj != NULL) {
    return core_tensor_result_to_framework(owned, api);
  }
  int32_t index = owned->type_index;
  PyObject* out = core_any_to_py(owned);
  /* Containers convert their elements on access: they remember the framework. */
  if (out != NULL && (index == kTVMFFIArray || index == kTVMFFIList || index == kTVMFFIMap ||
                      index == kTVMFFIDict)) {
    core_container_set_framework(out, api);
  }
  return out;
}

PyObject* core_view_to_py_in_framework(const TVMFFIAny* view, const DLPackExchangeAPI* api) {
  if (view->type_index < kTVMFFIStaticObjectBegin || view->v_obj == NULL) {
    return core_view_to_py(view);
  }
  TVMFFIAny owned = *view;
  TVMFFIObjectIncRef(owned.v_obj);
  return core_any_to_py_in_framework(&owned, api);
}
