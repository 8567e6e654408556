/*
 * args.c -- argument checks and result writers shared by the fixtures.
 *
 * Messages follow the reference's typed-function wording exactly, because Python tests match
 * them character for character (TESTING_FIXTURES.md section 1).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testing_internal.h"

int testing_raise(const char* kind, const char* fmt, ...) {
  char stack_buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(stack_buf, sizeof(stack_buf), fmt, ap);
  va_end(ap);
  if (n < 0) {
    TVMFFIErrorSetRaisedFromCStr(kind, "<unformattable error message>");
    return -1;
  }
  if ((size_t)n < sizeof(stack_buf)) {
    TVMFFIErrorSetRaisedFromCStr(kind, stack_buf);
    return -1;
  }
  /* Long messages (long type keys) get an exact-size heap buffer instead of being cut. */
  char* heap_buf = (char*)malloc((size_t)n + 1);
  if (heap_buf == NULL) {
    TVMFFIErrorSetRaisedFromCStr(kind, stack_buf);
    return -1;
  }
  va_start(ap, fmt);
  vsnprintf(heap_buf, (size_t)n + 1, fmt, ap);
  va_end(ap);
  TVMFFIErrorSetRaisedFromCStr(kind, heap_buf);
  free(heap_buf);
  return -1;
}

TVMFFIByteArray testing_type_key(int32_t type_index) {
  /* TVMFFIGetTypeInfo is fatal on unknown indices; the gaps of the static ranges are never
   * registered, so answer those here instead of exiting the process. */
  bool static_pod = type_index >= kTVMFFINone && type_index <= kTVMFFIUnchanged;
  bool static_obj = type_index >= kTVMFFIStaticObjectBegin && type_index < kTVMFFIStaticObjectEnd;
  if (static_pod || static_obj || type_index >= kTVMFFIDynObjectBegin) {
    return TVMFFIGetTypeInfo(type_index)->type_key;
  }
  TVMFFIByteArray unknown = {"<unknown>", 9};
  return unknown;
}

bool testing_is_instance(int32_t type_index, int32_t ancestor) {
  if (type_index == ancestor) return true;
  if (type_index < kTVMFFIStaticObjectBegin || ancestor < kTVMFFIStaticObjectBegin) return false;
  if (ancestor == kTVMFFIObject) return true;
  const TVMFFITypeInfo* actual = TVMFFIGetTypeInfo(type_index);
  const TVMFFITypeInfo* target = TVMFFIGetTypeInfo(ancestor);
  return actual->type_depth > target->type_depth &&
         actual->type_ancestors[target->type_depth]->type_index == ancestor;
}

int testing_type_mismatch(const TestingFixture* fx, int index, const char* expected,
                          int32_t actual_type_index) {
  TVMFFIByteArray actual = testing_type_key(actual_type_index);
  return testing_raise("TypeError",
                       "Mismatched type on argument #%d when calling: `%s`. Expected `%s` but got "
                       "`%.*s`",
                       index, fx->signature, expected, (int)actual.size, actual.data);
}

int testing_arity_mismatch(const TestingFixture* fx, int32_t num_args) {
  return testing_raise("TypeError",
                       "Mismatched number of arguments when calling: `%s`. Expected %d but got %d "
                       "arguments",
                       fx->signature, (int)fx->num_params, (int)num_args);
}

int testing_arg_int(const TestingFixture* fx, const TVMFFIAny* args, int index, int64_t* out) {
  int32_t tindex = args[index].type_index;
  if (tindex == kTVMFFIInt || tindex == kTVMFFIBool) {
    *out = args[index].v_int64;
    return 0;
  }
  return testing_type_mismatch(fx, index, "int", tindex);
}

int testing_arg_str(const TestingFixture* fx, const TVMFFIAny* args, int index,
                    TVMFFIByteArray* out) {
  const TVMFFIAny* value = &args[index];
  switch (value->type_index) {
    case kTVMFFIRawStr:
      out->data = value->v_c_str;
      out->size = strlen(value->v_c_str);
      return 0;
    case kTVMFFISmallStr:
      *out = TVMFFISmallBytesGetContentByteArray(value);
      return 0;
    case kTVMFFIStr:
      *out = *TVMFFIBytesGetByteArrayPtr(value->v_obj);
      return 0;
    default:
      return testing_type_mismatch(fx, index, "str", value->type_index);
  }
}

int testing_arg_object(const TestingFixture* fx, const TVMFFIAny* args, int index,
                       TVMFFIObject** out) {
  int32_t tindex = args[index].type_index;
  if (tindex >= kTVMFFIStaticObjectBegin && args[index].v_obj != NULL) {
    *out = args[index].v_obj;
    return 0;
  }
  return testing_type_mismatch(fx, index, "ffi.Object", tindex);
}

int testing_arg_tensor_or_none(const TestingFixture* fx, const TVMFFIAny* args, int index,
                               TVMFFIObject** out) {
  int32_t tindex = args[index].type_index;
  if (tindex == kTVMFFINone) {
    *out = NULL;
    return 0;
  }
  if (testing_is_instance(tindex, kTVMFFITensor) && args[index].v_obj != NULL) {
    *out = args[index].v_obj;
    return 0;
  }
  return testing_type_mismatch(fx, index, "ffi.Tensor", tindex);
}

void testing_ret_int(TVMFFIAny* result, int64_t value) {
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = value;
}

void testing_ret_bool(TVMFFIAny* result, bool value) {
  result->type_index = kTVMFFIBool;
  result->zero_padding = 0;
  result->v_int64 = value ? 1 : 0;
}
