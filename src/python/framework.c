/*
 * framework.c -- results of a call that took framework tensors (framework.h).
 */
#include "framework.h"

#include "convert_result.h"
#include "convert_value.h"
#include "dispatch.h"
#include "tensor.h"

static inline int is_container(PyObject* obj) { return core_is_container_type(Py_TYPE(obj)); }

static int convert_container(const CoreDispatchEntry* entry, PyObject* value, TVMFFIAny* out,
                             TVMFFIByteArray* bytes_slot, CoreCallContext* ctx) {
  (void)entry;
  (void)bytes_slot;
  const DLPackExchangeAPI* api = ((CoreContainer*)value)->dlpack_api;
  if (CORE_UNLIKELY(api != NULL) && ctx->fw.api == NULL) ctx->fw.api = api;
  return core_convert_object(value, out, ctx);
}

int core_framework_init(void) {
  core_dispatch_register(kCoreArgContainer, convert_container);
  return 0;
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
