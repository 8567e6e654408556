/*
 * call_context.c -- the temporaries of one call and the framework scope around it.
 */
#include "call_context.h"

#include <string.h>

#include "callback_block.h"
#include "pending_error.h"
#include "tensor_view.h"

static int keep(CoreCallContext* ctx, uintptr_t entry) {
  if (CORE_UNLIKELY(ctx->size == ctx->cap)) {
    int cap = ctx->cap * 2;
    uintptr_t* grown = (uintptr_t*)PyMem_Malloc((size_t)cap * sizeof(uintptr_t));
    if (grown == NULL) return -1;
    memcpy(grown, ctx->items, (size_t)ctx->size * sizeof(uintptr_t));
    if (ctx->items != ctx->inline_items) PyMem_Free(ctx->items);
    ctx->items = grown;
    ctx->cap = cap;
  }
  ctx->items[ctx->size++] = entry;
  return 0;
}

int core_call_context_keep_handle(CoreCallContext* ctx, TVMFFIObjectHandle handle) {
  if (CORE_UNLIKELY(keep(ctx, (uintptr_t)handle) != 0)) {
    TVMFFIObjectDecRef(handle);
    PyErr_NoMemory();
    return -1;
  }
  return 0;
}

int core_call_context_keep_py(CoreCallContext* ctx, PyObject* obj) {
  if (CORE_UNLIKELY(keep(ctx, (uintptr_t)obj | 1u) != 0)) {
    Py_DECREF(obj);
    PyErr_NoMemory();
    return -1;
  }
  return 0;
}

void core_call_context_release(CoreCallContext* ctx) {
  /* A failed call releases its temporaries with its exception set (see pending_error.h). */
  CorePendingError pending;
  core_pending_error_save(&pending);
  for (int i = ctx->size - 1; i >= 0; --i) {
    uintptr_t entry = ctx->items[i];
    if (entry & 1u) {
      Py_DECREF((PyObject*)(entry & ~(uintptr_t)1u));
    } else if (!core_view_tensor_release_sole((TVMFFIObjectHandle)entry) &&
               !core_callback_block_release_sole((TVMFFIObjectHandle)entry)) {
      TVMFFIObjectDecRef((TVMFFIObjectHandle)entry);
    }
  }
  if (ctx->items != ctx->inline_items) PyMem_Free(ctx->items);
  ctx->size = 0;
  ctx->cap = CORE_INLINE_ARGS;
  ctx->items = ctx->inline_items;
  core_pending_error_restore(&pending);
}

void core_framework_scope_enter(const CoreFramework* fw, CoreFrameworkScope* scope) {
  const DLPackExchangeAPI* api = fw->api;
  scope->alloc_set = 0;
  scope->stream_set = 0;
  /* Failures here only mean the env keeps its defaults: the call itself still runs. */
  if (api->managed_tensor_allocator != NULL &&
      TVMFFIEnvSetDLPackManagedTensorAllocator(api->managed_tensor_allocator, 0,
                                               &scope->prev_alloc) == 0) {
    scope->alloc_set = 1;
  }
  const DLPackExchangeAPI* stream_api = fw->stream_api;
  if (stream_api != NULL) {
    DLDevice dev = fw->stream_device;
    void* stream = NULL;
    if (stream_api->current_work_stream(dev.device_type, dev.device_id, &stream) == 0 &&
        TVMFFIEnvSetStream(dev.device_type, dev.device_id, stream, &scope->prev_stream) == 0) {
      scope->stream_set = 1;
    }
  }
  if (!scope->alloc_set || (stream_api != NULL && !scope->stream_set)) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (err != NULL) TVMFFIObjectDecRef(err);
    PyErr_Clear();
  }
}

void core_framework_scope_exit(const CoreFramework* fw, const CoreFrameworkScope* scope) {
  if (scope->alloc_set) TVMFFIEnvSetDLPackManagedTensorAllocator(scope->prev_alloc, 0, NULL);
  if (scope->stream_set) {
    DLDevice dev = fw->stream_device;
    TVMFFIEnvSetStream(dev.device_type, dev.device_id, scope->prev_stream, NULL);
  }
}
