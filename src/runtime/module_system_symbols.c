/*
 * module_system_symbols.c -- the system-library symbol table: kernels linked statically into
 * the executable register (name, address) pairs at start-up; system-library modules look
 * names up here. The table never shrinks.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "module_system_symbols_internal.h"

typedef struct {
  void* address; /* may be NULL, hence boxed: the map reserves NULL for "absent" */
  char name[];   /* the map key */
} SystemSymbol;

static struct {
  pthread_rwlock_t lock;
  FfiStrMap symbols; /* name -> SystemSymbol* */
} g_system_symbols = {PTHREAD_RWLOCK_INITIALIZER, {NULL, 0, 0, 0}};

int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol) {
  if (name == NULL) {
    return ffi_raise("ValueError", "TVMFFIEnvModRegisterSystemLibSymbol: name is NULL");
  }
  size_t size = strlen(name);
  pthread_rwlock_wrlock(&g_system_symbols.lock);
  SystemSymbol* existing = (SystemSymbol*)ffi_str_map_get(&g_system_symbols.symbols, name, size);
  if (existing != NULL) {
    if (existing->address != symbol) {
      fprintf(stderr,
              "Warning: SystemLib symbol %s is overridden to a different address %p -> %p\n", name,
              existing->address, symbol);
    }
    existing->address = symbol;
    pthread_rwlock_unlock(&g_system_symbols.lock);
    return 0;
  }
  SystemSymbol* entry = (SystemSymbol*)malloc(sizeof(SystemSymbol) + size + 1);
  if (entry == NULL) {
    pthread_rwlock_unlock(&g_system_symbols.lock);
    return ffi_raise("MemoryError", "cannot register system library symbol %s", name);
  }
  entry->address = symbol;
  memcpy(entry->name, name, size + 1);
  if (ffi_str_map_put(&g_system_symbols.symbols, entry->name, size, entry) == NULL) {
    free(entry);
    pthread_rwlock_unlock(&g_system_symbols.lock);
    return -1;
  }
  pthread_rwlock_unlock(&g_system_symbols.lock);
  return 0;
}

void* ffi_system_symbol_lookup(const char* name) {
  pthread_rwlock_rdlock(&g_system_symbols.lock);
  SystemSymbol* entry =
      (SystemSymbol*)ffi_str_map_get(&g_system_symbols.symbols, name, strlen(name));
  void* address = entry != NULL ? entry->address : NULL;
  pthread_rwlock_unlock(&g_system_symbols.lock);
  return address;
}
