/*
 * object.c -- the object header protocol: reference counts, deleters, and allocation that
 * raises nothing (error objects are made this way; object_api.c adds the raising kind, opaque
 * objects, the custom allocator hook, version and init-once).
 *
 * The refcount protocol runs inline in every C++ kernel, so this file must match it bit for bit
 * (refcount.h): strong count in the low 32 bits, weak count in the high 32 bits,
 * and all strong references together hold one weak reference.
 */
#include <stdlib.h>

#include "object_internal.h"

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

TVMFFIObject* ffi_object_alloc_quiet(size_t size, int32_t type_index,
                                     void (*deleter)(void*, int)) {
  return object_header_init((TVMFFIObject*)calloc(1, size), type_index, deleter);
}

TVMFFIObject* ffi_object_alloc_uninit_quiet(size_t size, int32_t type_index,
                                            void (*deleter)(void*, int)) {
  return object_header_init((TVMFFIObject*)malloc(size), type_index, deleter);
}

TVMFFIObject* ffi_object_alloc_prefixed_quiet(size_t prefix, size_t size, int32_t type_index,
                                              void (*deleter)(void*, int)) {
  char* block = (char*)calloc(1, prefix + size);
  return block == NULL ? NULL : object_header_init((TVMFFIObject*)(block + prefix), type_index, deleter);
}

void ffi_object_free_prefixed(void* obj, size_t prefix) {
  if (obj == NULL) return;
  atomic_fetch_sub_explicit(&g_live_objects, 1, memory_order_relaxed);
  free((char*)obj - prefix);
}

int64_t ffi_live_object_count(void) {
  return atomic_load_explicit(&g_live_objects, memory_order_relaxed);
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
