/*
 * globals.c -- how fixtures build containers: by calling the runtime's global functions
 * (ffi.Array, ffi.List, ffi.Map, ffi.Dict) from foreign C code, exactly as a kernel would, so
 * the tests also cover calling a runtime global through the C ABI.
 */
#include <stdlib.h>
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

int testing_map_items(const TVMFFIAny* map, TVMFFIAny** flat, int64_t* n) {
  bool dict = map->type_index == kTVMFFIDict;
  TVMFFIAny size = {0}, iter = {0};
  *flat = NULL;
  *n = 0;
  if (testing_call_global(dict ? "ffi.DictSize" : "ffi.MapSize", map, 1, &size) != 0) return -1;
  TVMFFIAny* items = (TVMFFIAny*)calloc((size_t)(2 * size.v_int64 + 1), sizeof(TVMFFIAny));
  if (items == NULL) return testing_raise("MemoryError", "out of memory");
  int rc = 0;
  if (size.v_int64 > 0) {
    rc = testing_call_global(dict ? "ffi.DictForwardIterFunctor" : "ffi.MapForwardIterFunctor",
                             map, 1, &iter);
  }
  for (int64_t i = 0; rc == 0 && i < size.v_int64; ++i) {
    TVMFFIAny op0 = testing_view_int(0), op1 = testing_view_int(1), op2 = testing_view_int(2);
    TVMFFIAny more = {0};
    rc = TVMFFIFunctionCall(iter.v_obj, &op0, 1, &items[2 * i]);
    if (rc == 0) rc = TVMFFIFunctionCall(iter.v_obj, &op1, 1, &items[2 * i + 1]);
    if (rc == 0 && i + 1 < size.v_int64) rc = TVMFFIFunctionCall(iter.v_obj, &op2, 1, &more);
  }
  if (iter.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(iter.v_obj);
  if (rc != 0) {
    testing_release_items(items, 2 * size.v_int64);
    return -1;
  }
  *flat = items;
  *n = size.v_int64;
  return 0;
}

void testing_release_items(TVMFFIAny* items, int64_t n) {
  for (int64_t i = 0; items != NULL && i < n; ++i) testing_release_value(&items[i]);
  free(items);
}

void testing_release_value(TVMFFIAny* value) {
  if (value->type_index >= kTVMFFIStaticObjectBegin && value->v_obj != NULL) {
    TVMFFIObjectDecRef(value->v_obj);
  }
  memset(value, 0, sizeof(*value));
}
