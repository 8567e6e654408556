/*
 * type_registry_globals.c -- ffi.GetRegisteredTypeKeys, the type registry's built-in.
 */
#include <stdlib.h>

#include "internal.h"
#include "type_registry_globals_internal.h"

static int get_registered_type_keys(void* self, const TVMFFIAny* args, int32_t num_args,
                                    TVMFFIAny* result) {
  (void)self;
  (void)args;
  if (ffi_check_num_args("ffi.GetRegisteredTypeKeys", num_args, 0) != 0) return -1;
  TVMFFIByteArray* keys = NULL;
  int64_t n = 0;
  if (ffi_type_registry_collect_keys(&keys, &n) != 0) return -1;
  TVMFFIAny* items = (TVMFFIAny*)calloc((size_t)(n == 0 ? 1 : n), sizeof(TVMFFIAny));
  int rc = items != NULL ? 0
                         : ffi_raise("MemoryError", "ffi.GetRegisteredTypeKeys: out of memory");
  int64_t made = 0;
  for (; rc == 0 && made < n; ++made) {
    rc = ffi_string_make(keys[made].data, keys[made].size, 0, &items[made]);
    if (rc != 0) break;
  }
  TVMFFIObject* array = NULL;
  if (rc == 0) rc = ffi_array_new(items, n, &array);
  for (int64_t i = 0; i < made; ++i) ffi_any_release(&items[i]);
  free(items);
  free(keys);
  if (rc != 0) return -1;
  ffi_ret_object(result, array);
  return 0;
}

void ffi_register_type_globals(void) {
  ffi_register_builtin("ffi.GetRegisteredTypeKeys", get_registered_type_keys);
}
