/*
 * fixtures_containers.c -- container-with-tensor builders that need List, Map or Dict
 * (TESTING_FIXTURES.md 1.3). Like the Array ones they build through the runtime globals
 * (ffi.List, ffi.Map, ffi.Dict, ffi.Array; see globals.c). Map and Dict keep the insertion
 * order the spec lists, which the tests check.
 */
#include "testing_internal.h"

/* ffi.Map and ffi.Dict take flat `k0, v0, k1, v1, ...` arguments; keys are string views. */
#define KEY(text) testing_view_cstr(text)

static int testing_make_list_with_tensor(const TestingFixture* fx, const TVMFFIAny* args,
                                         TVMFFIAny* result) {
  TVMFFIObject* tensor;
  int64_t value;
  if (testing_arg_tensor_or_none(fx, args, 0, &tensor) != 0 ||
      testing_arg_int(fx, args, 1, &value) != 0) {
    return -1;
  }
  TVMFFIAny items[2] = {testing_view_object_or_none(tensor), testing_view_int(value)};
  return testing_call_global("ffi.List", items, 2, result);
}

static int testing_make_map_with_tensor(const TestingFixture* fx, const TVMFFIAny* args,
                                        TVMFFIAny* result) {
  TVMFFIObject* tensor;
  if (testing_arg_tensor_or_none(fx, args, 0, &tensor) != 0) return -1;
  TVMFFIAny kvs[6] = {KEY("tensor"), testing_view_object_or_none(tensor),
                      KEY("value"),  testing_view_int(42),
                      KEY("name"),   testing_view_cstr("test")};
  return testing_call_global("ffi.Map", kvs, 6, result);
}

static int testing_make_dict_with_tensor(const TestingFixture* fx, const TVMFFIAny* args,
                                         TVMFFIAny* result) {
  TVMFFIObject* tensor;
  if (testing_arg_tensor_or_none(fx, args, 0, &tensor) != 0) return -1;
  TVMFFIAny kvs[4] = {KEY("tensor"), testing_view_object_or_none(tensor),
                      KEY("value"), testing_view_int(42)};
  return testing_call_global("ffi.Dict", kvs, 4, result);
}

static int testing_make_nested_map_with_tensor(const TestingFixture* fx, const TVMFFIAny* args,
                                               TVMFFIAny* result) {
  TVMFFIObject* first;
  TVMFFIObject* second;
  if (testing_arg_tensor_or_none(fx, args, 0, &first) != 0 ||
      testing_arg_tensor_or_none(fx, args, 1, &second) != 0) {
    return -1;
  }
  TVMFFIAny array_items[2] = {testing_view_object_or_none(first),
                              testing_view_object_or_none(second)};
  TVMFFIAny array = {0};
  if (testing_call_global("ffi.Array", array_items, 2, &array) != 0) return -1;
  TVMFFIAny inner_kvs[2] = {KEY("t"), testing_view_object_or_none(first)};
  TVMFFIAny inner = {0};
  if (testing_call_global("ffi.Map", inner_kvs, 2, &inner) != 0) {
    TVMFFIObjectDecRef(array.v_obj);
    return -1;
  }
  TVMFFIAny kvs[6] = {KEY("array"), array, KEY("map"), inner, KEY("scalar"),
                      testing_view_int(99)};
  int rc = testing_call_global("ffi.Map", kvs, 6, result);
  /* The outer map holds its own references to both. */
  TVMFFIObjectDecRef(array.v_obj);
  TVMFFIObjectDecRef(inner.v_obj);
  return rc;
}

const TestingFixture kTestingContainerFixtures[] = {
    {"testing.make_list_with_tensor",
     "testing.make_list_with_tensor(0: ffi.Tensor, 1: int) -> List<Any>",
     SCHEMA_FN(T_LIST_ANY, T_TENSOR "," T_INT), 2, testing_make_list_with_tensor, NULL},
    {"testing.make_map_with_tensor",
     "testing.make_map_with_tensor(0: ffi.Tensor) -> Map<str, Any>",
     SCHEMA_FN(T_MAP_STR_ANY, T_TENSOR), 1, testing_make_map_with_tensor, NULL},
    {"testing.make_dict_with_tensor",
     "testing.make_dict_with_tensor(0: ffi.Tensor) -> Dict<str, Any>",
     SCHEMA_FN(T_DICT_STR_ANY, T_TENSOR), 1, testing_make_dict_with_tensor, NULL},
    {"testing.make_nested_map_with_tensor",
     "testing.make_nested_map_with_tensor(0: ffi.Tensor, 1: ffi.Tensor) -> Map<str, Any>",
     SCHEMA_FN(T_MAP_STR_ANY, T_TENSOR "," T_TENSOR), 2, testing_make_nested_map_with_tensor,
     NULL},
};
const int kTestingNumContainerFixtures = (int)(sizeof(kTestingContainerFixtures) /
                                               sizeof(kTestingContainerFixtures[0]));
