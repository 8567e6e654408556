/*
 * call_context.h -- CoreCallContext, the state of one call from Python into the FFI
 * (call_context.c): the temporaries its argument views depend on, the framework its tensors
 * came from, and the site named by conversion errors. The convert-and-call routine that fills
 * and releases it lives in call.c; converters (convert_args.c, tensor_import.c) only add to it.
 */
#ifndef TVM_FFI_PYTHON_CALL_CONTEXT_H_
#define TVM_FFI_PYTHON_CALL_CONTEXT_H_

#include "base.h"
#include "error.h"

/* What a call learned about framework tensors among its arguments, nested containers
 * included: their allocator and stream serve the call, and its tensor results go back to that
 * framework. */
typedef struct {
  const DLPackExchangeAPI* api;        /* exchange API of the first framework tensor */
  const DLPackExchangeAPI* stream_api; /* ... and of the first non-CPU one (device below) */
  DLDevice stream_device;
} CoreFramework;

typedef struct {
  /* Temporaries released after the call on every path: FFI handles or, tagged with the low
   * bit, PyObject references. */
  int size;
  int cap;
  uintptr_t* items;
  uintptr_t inline_items[CORE_INLINE_ARGS];
  CoreFramework fw;
  CoreArgSite site;
} CoreCallContext;

static inline void core_call_context_init(CoreCallContext* ctx, PyObject* func_name,
                                          Py_ssize_t index) {
  ctx->size = 0;
  ctx->cap = CORE_INLINE_ARGS;
  ctx->items = ctx->inline_items;
  ctx->fw.api = NULL;
  ctx->fw.stream_api = NULL;
  ctx->site.func_name = func_name;
  ctx->site.index = index;
}

/* Both steal the reference; on failure they release it and raise MemoryError. */
int core_call_context_keep_handle(CoreCallContext* ctx, TVMFFIObjectHandle handle);
int core_call_context_keep_py(CoreCallContext* ctx, PyObject* obj);
/* Releases the temporaries (the context can be reused afterwards). */
void core_call_context_release(CoreCallContext* ctx);

/* Records the framework of an argument tensor that came through exchange API `api`. */
static inline void core_call_context_note_framework(CoreCallContext* ctx,
                                                    const DLPackExchangeAPI* api,
                                                    DLDevice device) {
  if (ctx->fw.api == NULL) ctx->fw.api = api;
  if (ctx->fw.stream_api == NULL && api->current_work_stream != NULL &&
      device.device_type != kDLCPU) {
    ctx->fw.stream_api = api;
    ctx->fw.stream_device = device;
  }
}

/* Keeps the first framework seen: `from` (a nested container's arguments) fills what `into`
 * still lacks. */
static inline void core_framework_merge(CoreFramework* into, const CoreFramework* from) {
  if (into->api == NULL) into->api = from->api;
  if (into->stream_api == NULL && from->stream_api != NULL) {
    into->stream_api = from->stream_api;
    into->stream_device = from->stream_device;
  }
}

/* Around a call whose arguments came from a framework (fw->api set): its allocator and stream
 * become the env's for the call. */
typedef struct {
  DLPackManagedTensorAllocator prev_alloc;
  void* prev_stream;
  int alloc_set, stream_set;
} CoreFrameworkScope;
void core_framework_scope_enter(const CoreFramework* fw, CoreFrameworkScope* scope);
void core_framework_scope_exit(const CoreFramework* fw, const CoreFrameworkScope* scope);

#endif /* TVM_FFI_PYTHON_CALL_CONTEXT_H_ */
