/*
 * module_system_lib.c -- the system library: one module per symbol prefix over the symbols of
 * module_system_symbols.c, created on first use and alive for the process.
 */
#include <stdlib.h>

#include "module_internal.h"

typedef struct {
  char* prefix;
  TVMFFIObject* module; /* owned for the process: the library, or the composite it describes */
} SystemLibEntry;

static struct {
  pthread_mutex_t lock;
  SystemLibEntry* items;
  size_t size, capacity;
} g_system_libs = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};

static TVMFFIObject* system_lib_find_locked(const char* prefix) {
  for (size_t i = 0; i < g_system_libs.size; ++i) {
    if (strcmp(g_system_libs.items[i].prefix, prefix) == 0) return g_system_libs.items[i].module;
  }
  return NULL;
}

/* Creation runs outside
 * the lock (it may call loaders that ask for a system library themselves); a racing creator's
 * module is dropped before its context pointer is published. */
int ffi_system_lib_get(const char* prefix, TVMFFIObject** out) {
  pthread_mutex_lock(&g_system_libs.lock);
  TVMFFIObject* m = system_lib_find_locked(prefix);
  if (m != NULL) ffi_incref(m);
  pthread_mutex_unlock(&g_system_libs.lock);
  if (m != NULL) {
    *out = m;
    return 0;
  }
  FfiModule* lib = ffi_module_new(NULL, prefix);
  if (lib == NULL) return -1;
  TVMFFIObject* fresh = NULL;
  void** ctx = NULL;
  if (ffi_library_module_finish(lib, "the system library", &fresh, &ctx) != 0) return -1;
  char* key = ffi_concat3(prefix, NULL, NULL);
  if (key == NULL) {
    ffi_decref(fresh);
    return -1;
  }
  pthread_mutex_lock(&g_system_libs.lock);
  m = system_lib_find_locked(prefix);
  int rc = 0;
  if (m == NULL) {
    if (g_system_libs.size == g_system_libs.capacity) {
      size_t capacity = g_system_libs.capacity ? 2 * g_system_libs.capacity : 4;
      SystemLibEntry* items =
          (SystemLibEntry*)realloc(g_system_libs.items, capacity * sizeof(SystemLibEntry));
      if (items == NULL) {
        rc = ffi_raise("MemoryError", "ffi.SystemLib: out of memory");
      } else {
        g_system_libs.items = items;
        g_system_libs.capacity = capacity;
      }
    }
    if (rc == 0) {
      g_system_libs.items[g_system_libs.size++] = (SystemLibEntry){key, fresh};
      key = NULL;
      m = fresh;
      fresh = NULL;
      /* lib is fresh or one of its imports */
      if (ctx != NULL) ffi_module_publish_library_ctx(lib, ctx);
    }
  }
  if (m != NULL) ffi_incref(m);
  pthread_mutex_unlock(&g_system_libs.lock);
  free(key);
  if (fresh != NULL) ffi_decref(fresh);
  if (rc != 0) return -1;
  *out = m;
  return 0;
}
