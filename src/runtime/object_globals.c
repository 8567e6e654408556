/*
 * object_globals.c -- the object built-ins: the MISSING / KWARGS sentinels of the Python layer
 * and ffi.LiveObjectCount (leak tests).
 */
#include "internal.h"

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
  ffi_ret_int(result, ffi_live_object_count());
  return 0;
}

void ffi_register_object_globals(void) {
  ffi_register_builtin("ffi.LiveObjectCount", live_object_count);
  ffi_register_builtin("ffi.GetInvalidObject", get_invalid_object);
  ffi_register_builtin("ffi.GetKwargsObject", get_kwargs_object);
}

/* The printed form of the MISSING / KWARGS sentinels (repr.c); NULL for any other object. */
const char* ffi_sentinel_repr(const TVMFFIObject* obj) {
  if (obj == &g_invalid_object) return "<MISSING>";
  if (obj == &g_kwargs_object) return "<KWARGS>";
  return NULL;
}
