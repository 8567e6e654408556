/*
 * object.c -- the object header protocol: reference counts, deleters, opaque objects, the
 * custom allocator hook, version and the init-once helpers for static handles.
 *
 * The refcount protocol runs inline in every C++ kernel, so this file must match it bit for bit
 * (refcount.h): strong count in the low 32 bits, weak count in the high 32 bits,
 * and all strong references together hold one weak reference.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

/* ---- refcounts ---- */

/* Runs the deleter protocol of an object whose last strong reference just went. */
static inline void release_now(TVMFFIObject* obj, uint64_t old_count) {
  if (old_count == FFI_FRESH_REFCOUNT) {
    /* Last strong reference and no weak ones: contents and memory go together. */
    atomic_thread_fence(memory_order_acquire);
    if (obj->deleter != NULL) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskBoth);
    return;
  }
  /* Last strong reference while weak references remain: destroy contents, then drop the weak
   * reference the strong ones held; whoever brings the weak count to zero frees the memory. */
  atomic_thread_fence(memory_order_acquire);
  void (*deleter)(void*, int) = obj->deleter;
  if (deleter != NULL) deleter(obj, kTVMFFIObjectDeleterFlagBitMaskStrong);
  uint64_t before =
      atomic_fetch_sub_explicit(ffi_refcount_word(obj), FFI_WEAK_ONE, memory_order_release);
  if (before == FFI_WEAK_ONE) {
    atomic_thread_fence(memory_order_acquire);
    if (deleter != NULL) deleter(obj, kTVMFFIObjectDeleterFlagBitMaskWeak);
  }
}

void ffi_object_release_slow(TVMFFIObject* obj, uint64_t old_count) { release_now(obj, old_count); }

/* A destroyer releases the object's children, whose destroyers release theirs: freeing a chain
 * of a million nested containers would nest a million C frames and overflow the stack. So
 * destroyers release children through ffi_decref_nested: up to a fixed depth of children dying
 * inside their owner's destruction, they go in place (children before their owner's memory, as
 * written); deeper, a child whose last strong reference went is queued on a thread-local list
 * that the outermost nested release drains one object at a time. Its strong count is already
 * zero, so nothing can reach it while it waits. Only a dying child touches the thread-local
 * state: releasing an object from outside, or a child that stays alive, costs nothing more. */
enum { kReleaseDepthLimit = 128 };
typedef struct {
  TVMFFIObject* obj;
  uint64_t old_count;
} PendingRelease;
typedef struct {
  int depth;
  PendingRelease* pending;
  size_t size, cap;
} ReleaseState;
static _Thread_local ReleaseState tls_release;

/* Queues a release for the outermost one to run; false when the queue cannot grow (the release
 * then runs in place, as deep as it must). */
static bool defer_release(ReleaseState* st, TVMFFIObject* obj, uint64_t old_count) {
  if (st->size == st->cap) {
    size_t cap = st->cap == 0 ? 256 : st->cap * 2;
    PendingRelease* grown = (PendingRelease*)realloc(st->pending, cap * sizeof(PendingRelease));
    if (grown == NULL) return false;
    st->pending = grown;
    st->cap = cap;
  }
  st->pending[st->size].obj = obj;
  st->pending[st->size].old_count = old_count;
  ++st->size;
  return true;
}

void ffi_release_nested_slow(TVMFFIObject* obj, uint64_t old_count) {
  ReleaseState* st = &tls_release;
  if (st->depth >= kReleaseDepthLimit && defer_release(st, obj, old_count)) return;
  ++st->depth;
  release_now(obj, old_count);
  if (st->depth == 1 && st->pending != NULL) {
    while (st->size > 0) {
      PendingRelease next = st->pending[--st->size];
      release_now(next.obj, next.old_count);
    }
    free(st->pending); /* deep releases are rare: no memory kept per thread */
    st->pending = NULL;
    st->cap = 0;
  }
  --st->depth;
}

/* Objects allocated by this runtime and not yet freed. Relaxed: it is a statistic, read by
 * leak tests once the program is quiescent. */
static _Atomic int64_t g_live_objects = 0;

/* Counts a fresh block (NULL passes through) and writes its header: one strong reference. */
static TVMFFIObject* object_header_init(TVMFFIObject* obj, int32_t type_index,
                                        void (*deleter)(void*, int)) {
  if (obj == NULL) return NULL;
  atomic_fetch_add_explicit(&g_live_objects, 1, memory_order_relaxed);
  obj->combined_ref_count = FFI_FRESH_REFCOUNT;
  obj->type_index = type_index;
  obj->__padding = 0;
  obj->deleter = deleter;
  return obj;
}

static TVMFFIObject* raise_alloc_failure(size_t size, int32_t type_index) {
  ffi_raise("MemoryError", "failed to allocate %zu bytes for an object of type index %d", size,
            (int)type_index);
  return NULL;
}

TVMFFIObject* ffi_object_alloc_quiet(size_t size, int32_t type_index,
                                     void (*deleter)(void*, int)) {
  return object_header_init((TVMFFIObject*)calloc(1, size), type_index, deleter);
}

TVMFFIObject* ffi_object_alloc_uninit(size_t size, int32_t type_index,
                                      void (*deleter)(void*, int)) {
  TVMFFIObject* obj = object_header_init((TVMFFIObject*)malloc(size), type_index, deleter);
  return obj != NULL ? obj : raise_alloc_failure(size, type_index);
}

TVMFFIObject* ffi_object_alloc(size_t size, int32_t type_index, void (*deleter)(void*, int)) {
  TVMFFIObject* obj = ffi_object_alloc_quiet(size, type_index, deleter);
  return obj != NULL ? obj : raise_alloc_failure(size, type_index);
}

void ffi_object_free(void* obj) {
  if (obj == NULL) return;
  atomic_fetch_sub_explicit(&g_live_objects, 1, memory_order_relaxed);
  free(obj);
}

int TVMFFIObjectIncRef(TVMFFIObjectHandle handle) {
  if (handle != NULL) ffi_incref((TVMFFIObject*)handle);
  return 0;
}

int TVMFFIObjectDecRef(TVMFFIObjectHandle handle) {
  if (handle != NULL) ffi_decref((TVMFFIObject*)handle);
  return 0;
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

/* ---- sentinel singletons used by the Python layer: MISSING and KWARGS ---- */

static TVMFFIObject g_invalid_object = {FFI_STRONG_ONE, kTVMFFIObject, 0, {NULL}};
static TVMFFIObject g_kwargs_object = {FFI_STRONG_ONE, kTVMFFIObject, 0, {NULL}};

/* Both live for the process (NULL deleter), so references handed out need no bookkeeping. */
static int get_invalid_object(void* self, const TVMFFIAny* args, int32_t num_args,
                              TVMFFIAny* result) {
  (void)self;
  (void)args;
  if (ffi_check_num_args("ffi.GetInvalidObject", num_args, 0) != 0) return -1;
  ffi_incref(&g_invalid_object);
  ffi_ret_object(result, &g_invalid_object);
  return 0;
}

static int get_kwargs_object(void* self, const TVMFFIAny* args, int32_t num_args,
                             TVMFFIAny* result) {
  (void)self;
  (void)args;
  if (ffi_check_num_args("ffi.GetKwargsObject", num_args, 0) != 0) return -1;
  ffi_incref(&g_kwargs_object);
  ffi_ret_object(result, &g_kwargs_object);
  return 0;
}

/* ffi.LiveObjectCount() -> int: objects made by this runtime that are still alive. */
static int live_object_count(void* self, const TVMFFIAny* args, int32_t num_args,
                             TVMFFIAny* result) {
  (void)self;
  (void)args;
  if (ffi_check_num_args("ffi.LiveObjectCount", num_args, 0) != 0) return -1;
  ffi_ret_int(result, atomic_load_explicit(&g_live_objects, memory_order_relaxed));
  return 0;
}

void ffi_register_object_globals(void) {
  ffi_register_builtin("ffi.LiveObjectCount", live_object_count);
  ffi_register_builtin("ffi.GetInvalidObject", get_invalid_object);
  ffi_register_builtin("ffi.GetKwargsObject", get_kwargs_object);
}
