/*
 * framework.c -- results of a call that took framework tensors (framework.h).
 */
#include "framework.h"

#include "convert_result.h"
#include "convert_value.h"
#include "dispatch.h"
#include "error.h"
#include "globals.h"
#include "tensor.h"

static inline int is_container(PyObject* obj) { return core_is_container_type(Py_TYPE(obj)); }

/* The device whose stream a container of framework tensors asks for: its first non-CPU tensor's,
 * found in one native walk (ffi.ContainerFindFirstNonCPUDevice); the CPU when there is none. */
static int find_stream_device(PyObject* container, DLDevice* out) {
  static TVMFFIObjectHandle scan = NULL;
  if (core_cached_global(&scan, "ffi.ContainerFindFirstNonCPUDevice") != 0) return -1;
  TVMFFIAny arg = {0};
  arg.type_index = TVMFFIObjectGetTypeIndex(((CoreObject*)container)->chandle);
  arg.v_obj = (TVMFFIObject*)((CoreObject*)container)->chandle;
  TVMFFIAny result = {0};
  if (TVMFFIFunctionCall(scan, &arg, 1, &result) != 0) {
    core_raise_from_rc(-1);
    return -1;
  }
  out->device_type = kDLCPU;
  out->device_id = 0;
  if (result.type_index == kTVMFFIDevice) *out = result.v_device;
  return 0;
}

static int convert_container(const CoreDispatchEntry* entry, PyObject* value, TVMFFIAny* out,
                             CoreCallContext* ctx) {
  (void)entry;
  const DLPackExchangeAPI* api = ((CoreContainer*)value)->dlpack_api;
  if (CORE_UNLIKELY(api != NULL)) {
    if (ctx->fw.api == NULL) ctx->fw.api = api;
    /* Returned by a call in a framework: its tensors' stream serves this call too, as for the
     * tensors themselves and for Python lists of them. */
    if (ctx->fw.stream_api == NULL && api->current_work_stream != NULL) {
      DLDevice device;
      if (find_stream_device(value, &device) != 0) return -1;
      core_call_context_note_framework(ctx, api, device);
    }
  }
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
