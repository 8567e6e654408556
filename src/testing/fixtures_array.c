/*
 * fixtures_array.c -- container-with-tensor builders that need only Array
 * (TESTING_FIXTURES.md 1.3). They build through the global `ffi.Array` (see globals.c).
 */
#include "testing_internal.h"

static int make_array(const TVMFFIAny* items, int32_t num_items, TVMFFIAny* result) {
  return testing_call_global("ffi.Array", items, num_items, result);
}

static int testing_make_array_with_tensor(const TestingFixture* fx, const TVMFFIAny* args,
                                          TVMFFIAny* result) {
  TVMFFIObject* tensor;
  if (testing_arg_tensor_or_none(fx, args, 0, &tensor) != 0) return -1;
  TVMFFIAny items[1] = {testing_view_object_or_none(tensor)};
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
  TVMFFIAny items[3] = {testing_view_object_or_none(tensor), testing_view_int(value),
                        testing_view_cstr("hello")};
  return make_array(items, 3, result);
}

static int testing_make_nested_array_with_tensor(const TestingFixture* fx,
                                                 const TVMFFIAny* args, TVMFFIAny* result) {
  TVMFFIObject* tensor;
  if (testing_arg_tensor_or_none(fx, args, 0, &tensor) != 0) return -1;
  TVMFFIAny inner_items[2] = {testing_view_object_or_none(tensor), testing_view_int(42)};
  TVMFFIAny inner = {0};
  if (make_array(inner_items, 2, &inner) != 0) return -1;
  TVMFFIAny outer_items[2] = {inner, testing_view_object_or_none(tensor)};
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
