/*
 * object_api.c -- object services that may fail: allocation raising MemoryError, opaque
 * objects, the custom allocator hook, version and the init-once helpers for static handles.
 * They raise through error.c, which itself allocates with object.c's quiet allocator.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "error_internal.h"
#include "object_api_internal.h"
#include "object_internal.h"

/* ---- allocation that raises ---- */

static TVMFFIObject* raise_alloc_failure(size_t size, int32_t type_index) {
  ffi_raise("MemoryError", "failed to allocate %zu bytes for an object of type index %d", size,
            (int)type_index);
  return NULL;
}

TVMFFIObject* ffi_object_alloc(size_t size, int32_t type_index, void (*deleter)(void*, int)) {
  TVMFFIObject* obj = ffi_object_alloc_quiet(size, type_index, deleter);
  return obj != NULL ? obj : raise_alloc_failure(size, type_index);
}

TVMFFIObject* ffi_object_alloc_uninit(size_t size, int32_t type_index,
                                      void (*deleter)(void*, int)) {
  TVMFFIObject* obj = ffi_object_alloc_uninit_quiet(size, type_index, deleter);
  return obj != NULL ? obj : raise_alloc_failure(size, type_index);
}

/* ---- opaque objects: a foreign handle (a PyObject* for Python) with its own release ---- */

typedef struct {
  TVMFFIObject header;
  TVMFFIOpaqueObjectCell cell;
  void (*release)(void* handle);
} OpaqueObject;

static void opaque_destroy(void* self) {
  OpaqueObject* obj = (OpaqueObject*)self;
  if (obj->release != NULL) obj->release(obj->cell.handle);
}
FFI_DEFINE_DELETER(opaque_deleter, opaque_destroy)

int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index, void (*deleter)(void* handle),
                             TVMFFIObjectHandle* out) {
  if (out == NULL) return ffi_raise("ValueError", "TVMFFIObjectCreateOpaque: out is NULL");
  if (type_index != kTVMFFIOpaquePyObject) {
    return ffi_raise("RuntimeError",
                     "Only kTVMFFIOpaquePyObject is supported for now, got type index %d",
                     (int)type_index);
  }
  OpaqueObject* obj =
      (OpaqueObject*)ffi_object_alloc(sizeof(OpaqueObject), type_index, opaque_deleter);
  if (obj == NULL) return -1;
  obj->cell.handle = handle;
  obj->release = deleter;
  *out = obj;
  return 0;
}

/* ---- custom allocator for object bodies ----
 * Default layout: [base ... | size_t offset | delete_space | body ...] with the body
 * max(16, alignment) bytes after the malloc'ed base, so delete_space can find the base again. */

static void default_delete_space(void* body) {
  size_t offset = *(size_t*)((char*)body - 2 * sizeof(void*));
  free((char*)body - offset);
}

static void* default_allocate(size_t size, size_t alignment, int32_t type_index, void* context) {
  (void)context;
  size_t offset = 2 * sizeof(void*);
  if (alignment > offset) offset = alignment;
  if ((offset & (offset - 1)) != 0) {
    ffi_raise("ValueError", "object alignment %zu is not a power of two (type index %d)",
              alignment, (int)type_index);
    return NULL;
  }
  size_t total = size + offset;
  total = (total + offset - 1) / offset * offset;
  char* base = (char*)aligned_alloc(offset, total);
  if (base == NULL) {
    ffi_raise("MemoryError", "failed to allocate %zu bytes for type index %d", size,
              (int)type_index);
    return NULL;
  }
  char* body = base + offset;
  *(size_t*)(body - 2 * sizeof(void*)) = offset;
  ((TVMFFIObjectAllocHeader*)(body - sizeof(TVMFFIObjectAllocHeader)))->delete_space =
      default_delete_space;
  return body;
}

static TVMFFICustomAllocator g_default_allocator = {default_allocate, NULL};
static TVMFFICustomAllocator* _Atomic g_custom_allocator = &g_default_allocator;

TVMFFICustomAllocator* TVMFFIGetCustomAllocator(void) {
  return atomic_load_explicit(&g_custom_allocator, memory_order_acquire);
}

int TVMFFISetCustomAllocator(TVMFFICustomAllocator* allocator) {
  if (allocator != NULL && allocator->allocate == NULL) {
    return ffi_raise("ValueError", "TVMFFISetCustomAllocator: allocate must not be NULL");
  }
  atomic_store_explicit(&g_custom_allocator, allocator != NULL ? allocator : &g_default_allocator,
                        memory_order_release);
  return 0;
}

/* ---- version ---- */

void TVMFFIGetVersion(TVMFFIVersion* out_version) {
  if (out_version == NULL) return;
  out_version->major = TVM_FFI_VERSION_MAJOR;
  out_version->minor = TVM_FFI_VERSION_MINOR;
  out_version->patch = TVM_FFI_VERSION_PATCH;
}

/* ---- init-once for static handles: double-checked under one process-wide mutex ---- */

static pthread_mutex_t g_init_once_mutex = PTHREAD_MUTEX_INITIALIZER;

int TVMFFIHandleInitOnce(void** handle_addr, int (*init_func)(void** result)) {
  if (handle_addr == NULL || init_func == NULL) {
    return ffi_raise("ValueError", "TVMFFIHandleInitOnce: handle_addr and init_func are required");
  }
  _Atomic(void*)* slot = (_Atomic(void*)*)handle_addr;
  if (atomic_load_explicit(slot, memory_order_acquire) != NULL) return 0;
  pthread_mutex_lock(&g_init_once_mutex);
  int rc = 0;
  if (atomic_load_explicit(slot, memory_order_relaxed) == NULL) {
    void* result = NULL;
    rc = init_func(&result);
    if (rc == 0) {
      if (result == NULL) {
        rc = ffi_raise("RuntimeError", "init_func must return a non-NULL handle");
      } else {
        atomic_store_explicit(slot, result, memory_order_release);
      }
    }
  }
  pthread_mutex_unlock(&g_init_once_mutex);
  return rc;
}

int TVMFFIHandleDeinitOnce(void** handle_addr, int (*deinit_func)(void* handle)) {
  if (handle_addr == NULL) {
    return ffi_raise("ValueError", "TVMFFIHandleDeinitOnce: handle_addr is required");
  }
  void* old = atomic_exchange_explicit((_Atomic(void*)*)handle_addr, NULL, memory_order_acq_rel);
  if (old == NULL || deinit_func == NULL) return 0;
  return deinit_func(old);
}
