/*
 * globals.c -- lookups of runtime global functions by name.
 */
#include "globals.h"

#include <string.h>

#include "error.h"

int core_get_global_handle_sized(const char* name, size_t size, TVMFFIObjectHandle* out) {
  TVMFFIByteArray key = {name, size};
  *out = NULL;
  if (TVMFFIFunctionGetGlobal(&key, out) != 0) {
    *out = NULL;
    core_raise_from_rc(-1);
    return -1;
  }
  return 0;
}

int core_get_global_handle(const char* name, TVMFFIObjectHandle* out) {
  return core_get_global_handle_sized(name, strlen(name), out);
}

int core_cached_global(TVMFFIObjectHandle* slot, const char* name) {
  if (*slot != NULL) return 0;
  return core_get_global_handle(name, slot);
}
