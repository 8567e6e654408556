/*
 * globals.c -- how fixtures build containers: by calling the runtime's global functions
 * (ffi.Array, ffi.List, ffi.Map, ffi.Dict) from foreign C code, exactly as a kernel would, so
 * the tests also cover calling a runtime global through the C ABI.
 */
#include <string.h>

#include "testing_internal.h"

int testing_call_global(const char* name, const TVMFFIAny* args, int32_t num_args,
                        TVMFFIAny* result) {
  TVMFFIByteArray key = {name, strlen(name)};
  TVMFFIObjectHandle func = NULL;
  if (TVMFFIFunctionGetGlobal(&key, &func) != 0) return -1;
  if (func == NULL) return testing_raise("RuntimeError", "global function %s is missing", name);
  /* The call reads the arguments only; the C API just lacks the const. */
  int rc = TVMFFIFunctionCall(func, (TVMFFIAny*)args, num_args, result);
  TVMFFIObjectDecRef(func);
  return rc;
}

TVMFFIAny testing_view_object_or_none(TVMFFIObject* obj) {
  TVMFFIAny view;
  memset(&view, 0, sizeof(view)); /* type_index 0 is None */
  if (obj != NULL) {
    view.type_index = obj->type_index;
    view.v_obj = obj;
  }
  return view;
}

TVMFFIAny testing_view_int(int64_t value) {
  TVMFFIAny view;
  memset(&view, 0, sizeof(view));
  view.type_index = kTVMFFIInt;
  view.v_int64 = value;
  return view;
}

TVMFFIAny testing_view_cstr(const char* text) {
  TVMFFIAny view;
  memset(&view, 0, sizeof(view));
  view.type_index = kTVMFFIRawStr;
  view.v_c_str = text;
  return view;
}
