/*
 * fixtures_array.c -- container-with-tensor builders that need only Array
 * (TESTING_FIXTURES.md 1.3). They build through the global `ffi.Array`, exactly as a kernel
 * would, so the tests also cover calling a runtime global from foreign C code.
 */
#include "testing_internal.h"

/* Calls the global ffi.Array(items...) into *result (owned). */
static int make_array(const TVMFFIAny* items, int32_t num_items, TVMFFIAny* result) {
  static const TVMFFIByteArray kName = {"ffi.Array", 9};
  TVMFFIObjectHandle ctor = NULL;
  if (TVMFFIFunctionGetGlobal(&kName, &ctor) != 0) return -1;
  if (ctor == NULL) return testing_raise("RuntimeError", "global function ffi.Array is missing");
  int rc = TVMFFIFunctionCall(ctor, (TVMFFIAny*)items, num_items, result);
  TVMFFIObjectDecRef(ctor);
  return rc;
}

/* A borrowed view of the tensor argument (None stays None: the slot is nullable). */
static TVMFFIAny tensor_view(TVMFFIObject* tensor) {
  TVMFFIAny view = {0};
  if (tensor != NULL) {
    view.type_index = tensor->type_index;
    view.v_obj = tensor;
  }
  return view;
}

static TVMFFIAny int_view(int64_t value) {
  TVMFFIAny view = {0};
  view.type_index = kTVMFFIInt;
  view.v_int64 = value;
  return view;
}

static int testing_make_array_with_tensor(const TestingFixture* fx, const TVMFFIAny* args,
                                          TVMFFIAny* result) {
  TVMFFIObject* tensor;
  if (testing_arg_tensor_or_none(fx, args, 0, &tensor) != 0) return -1;
  TVMFFIAny items[1] = {tensor_view(tensor)};
  return make_array(items, 1, result);
}

static int testing_make_array_with_mixed(const TestingFixture* fx, const TVMFFIAny* args,
                                         TVMFFIAny* result) {
  TVMFFIObject* tensor;
  int64_t value;
  if (testing_arg_tensor_or_none(fx, args, 0, &tensor) != 0 ||
      testing_arg_int(fx, args, 1, &value) != 0) {
    return -1;
  }
  TVMFFIAny hello = {0};
  hello.type_index = kTVMFFIRawStr;
  hello.v_c_str = "hello";
  TVMFFIAny items[3] = {tensor_view(tensor), int_view(value), hello};
  return make_array(items, 3, result);
}

static int testing_make_nested_array_with_tensor(const TestingFixture* fx,
                                                 const TVMFFIAny* args, TVMFFIAny* result) {
  TVMFFIObject* tensor;
  if (testing_arg_tensor_or_none(fx, args, 0, &tensor) != 0) return -1;
  TVMFFIAny inner_items[2] = {tensor_view(tensor), int_view(42)};
  TVMFFIAny inner = {0};
  if (make_array(inner_items, 2, &inner) != 0) return -1;
  TVMFFIAny outer_items[2] = {inner, tensor_view(tensor)};
  int rc = make_array(outer_items, 2, result);
  TVMFFIObjectDecRef(inner.v_obj); /* the outer array holds its own reference */
  return rc;
}

static int testing_make_empty_array_with_tensor_input(const TestingFixture* fx,
                                                      const TVMFFIAny* args, TVMFFIAny* result) {
  TVMFFIObject* tensor;
  if (testing_arg_tensor_or_none(fx, args, 0, &tensor) != 0) return -1;
  return make_array(NULL, 0, result);
}

const TestingFixture kTestingArrayFixtures[] = {
    {"testing.make_array_with_tensor", "testing.make_array_with_tensor(0: ffi.Tensor) -> Array<Any>",
     SCHEMA_FN(T_ARRAY_ANY, T_TENSOR), 1, testing_make_array_with_tensor, NULL},
    {"testing.make_array_with_mixed",
     "testing.make_array_with_mixed(0: ffi.Tensor, 1: int) -> Array<Any>",
     SCHEMA_FN(T_ARRAY_ANY, T_TENSOR "," T_INT), 2, testing_make_array_with_mixed, NULL},
    {"testing.make_nested_array_with_tensor",
     "testing.make_nested_array_with_tensor(0: ffi.Tensor) -> Array<Any>",
     SCHEMA_FN(T_ARRAY_ANY, T_TENSOR), 1, testing_make_nested_array_with_tensor, NULL},
    {"testing.make_empty_array_with_tensor_input",
     "testing.make_empty_array_with_tensor_input(0: ffi.Tensor) -> Array<Any>",
     SCHEMA_FN(T_ARRAY_ANY, T_TENSOR), 1, testing_make_empty_array_with_tensor_input, NULL},
};
const int kTestingNumArrayFixtures = (int)(sizeof(kTestingArrayFixtures) /
                                           sizeof(kTestingArrayFixtures[0]));
