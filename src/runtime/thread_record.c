/*
 * thread_record.c -- per-thread records freed at thread exit (thread_record.h).
 *
 * Keys are made on first use, under one lock shared by every key (it is taken once per key); the
 * ready flag, set after the key exists, lets later calls skip the lock.
 */
#include "thread_record.h"

#include <stdlib.h>

static pthread_mutex_t g_key_lock = PTHREAD_MUTEX_INITIALIZER;

static bool key_ready(FfiThreadKey* key) {
  if (atomic_load_explicit(&key->ready, memory_order_acquire)) return true;
  pthread_mutex_lock(&g_key_lock);
  if (!atomic_load_explicit(&key->ready, memory_order_relaxed) &&
      pthread_key_create(&key->key, key->destroy) == 0) {
    atomic_store_explicit(&key->ready, 1, memory_order_release);
  }
  pthread_mutex_unlock(&g_key_lock);
  return atomic_load_explicit(&key->ready, memory_order_acquire);
}

void* ffi_thread_record_new(FfiThreadKey* key, size_t size) {
  if (!key_ready(key)) return NULL;
  void* record = calloc(1, size);
  if (record == NULL) return NULL;
  if (pthread_setspecific(key->key, record) != 0) {
    free(record);
    return NULL;
  }
  return record;
}
