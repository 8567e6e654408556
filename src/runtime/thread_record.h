/*
 * thread_record.h -- per-thread records that are freed when their thread exits (thread_record.c).
 *
 * A file keeps its per-thread state in a record reached through a _Thread_local pointer (the fast
 * path). The record is also registered under a pthread key, whose destructor frees it when the
 * thread exits: C's _Thread_local storage runs no destructor of its own.
 */
#ifndef TVM_FFI_RUNTIME_THREAD_RECORD_H_
#define TVM_FFI_RUNTIME_THREAD_RECORD_H_

#include <pthread.h>

#include "runtime_base.h"

typedef struct {
  void (*destroy)(void* record); /* frees a record and what it holds */
  _Atomic int ready;             /* `key` is created */
  pthread_key_t key;
} FfiThreadKey;

#define FFI_THREAD_KEY(destroy_fn) {(destroy_fn), 0, 0}

/* A zeroed record of `size` bytes for the calling thread, destroyed when the thread exits; NULL
 * when out of memory. The caller keeps it in its _Thread_local pointer. */
void* ffi_thread_record_new(FfiThreadKey* key, size_t size);

#endif /* TVM_FFI_RUNTIME_THREAD_RECORD_H_ */
