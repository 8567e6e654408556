/* ffi._ContentEqual / ffi._ContentHash and the containment checks built on them: containers by
 * content (Array and List alike, Map with Map, Dict with Dict), PODs strictly by type, NaN and
 * -0.0 as Python's == sees them, a hash that agrees, and a bounded depth for cycles. */
#include <math.h>
#include <stdint.h>

#include "check.h"

static void* make(const char* ctor, TVMFFIAny* items, int32_t n) {
  TVMFFIAny out;
  CHECK_EQ_INT(call_global(ctor, items, n, &out), 0);
  return out.v_obj;
}

static int equal(TVMFFIAny a, TVMFFIAny b) {
  TVMFFIAny args[2] = {a, b}, result;
  int rc = call_global("ffi._ContentEqual", args, 2, &result);
  if (rc != 0) return -1;
  CHECK_EQ_INT(result.type_index, kTVMFFIBool);
  return (int)result.v_int64;
}

static int64_t hash(TVMFFIAny a) {
  TVMFFIAny result;
  CHECK_EQ_INT(call_global("ffi._ContentHash", &a, 1, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFIInt);
  return result.v_int64;
}

/* Equal both ways, with equal hashes. */
static void check_same(TVMFFIAny a, TVMFFIAny b) {
  CHECK_EQ_INT(equal(a, b), 1);
  CHECK_EQ_INT(equal(b, a), 1);
  CHECK(hash(a) == hash(b));
}

static void test_pods_compare_strictly_by_type(void) {
  check_same(any_int(3), any_int(3));
  CHECK_EQ_INT(equal(any_int(1), any_float(1.0)), 0);
  CHECK_EQ_INT(equal(any_int(1), any_bool(1)), 0);
  check_same(any_float(NAN), any_float(NAN));
  check_same(any_float(-0.0), any_float(0.0));
  check_same(any_str("abc"), any_str("abc"));
  check_same(any_str("a string longer than seven bytes"), any_str("a string longer than seven bytes"));
  CHECK_EQ_INT(equal(any_str("abc"), any_str("abd")), 0);
}

static void test_sequences_compare_by_content(void) {
  TVMFFIAny inner_items[2] = {any_int(1), any_str("a string longer than seven bytes")};
  void* a1 = make("ffi.Array", inner_items, 2);
  void* a2 = make("ffi.Array", inner_items, 2);
  void* l1 = make("ffi.List", inner_items, 2);
  check_same(any_obj(a1), any_obj(a2));
  check_same(any_obj(a1), any_obj(l1)); /* Array and List are both sequences */
  TVMFFIAny outer1[2] = {any_obj(a1), any_float(2.5)}, outer2[2] = {any_obj(l1), any_float(2.5)};
  void* n1 = make("ffi.Array", outer1, 2);
  void* n2 = make("ffi.Array", outer2, 2);
  check_same(any_obj(n1), any_obj(n2));
  TVMFFIAny shorter[1] = {any_int(1)};
  void* s = make("ffi.Array", shorter, 1);
  CHECK_EQ_INT(equal(any_obj(a1), any_obj(s)), 0);
  TVMFFIObjectDecRef(s);
  /* containment uses the same equality */
  TVMFFIAny args[2] = {any_obj(n1), any_obj(a2)}, result;
  CHECK_EQ_INT(call_global("ffi.ArrayContains", args, 2, &result), 0);
  CHECK_EQ_INT(result.v_int64, 1);
  void* holder = make("ffi.List", outer1, 2);
  args[0] = any_obj(holder);
  CHECK_EQ_INT(call_global("ffi.ListContains", args, 2, &result), 0);
  CHECK_EQ_INT(result.v_int64, 1);
  TVMFFIObjectDecRef(holder);
  TVMFFIObjectDecRef(n1);
  TVMFFIObjectDecRef(n2);
  TVMFFIObjectDecRef(a1);
  TVMFFIObjectDecRef(a2);
  TVMFFIObjectDecRef(l1);
}

static void test_maps_compare_entries_in_any_order(void) {
  TVMFFIAny list_items[1] = {any_int(7)};
  void* value = make("ffi.Array", list_items, 1);
  void* value2 = make("ffi.List", list_items, 1);
  TVMFFIAny kv1[4] = {any_str("x"), any_obj(value), any_int(2), any_float(0.5)};
  TVMFFIAny kv2[4] = {any_int(2), any_float(0.5), any_str("x"), any_obj(value2)};
  void* m1 = make("ffi.Map", kv1, 4);
  void* m2 = make("ffi.Map", kv2, 4);
  void* d1 = make("ffi.Dict", kv1, 4);
  check_same(any_obj(m1), any_obj(m2));
  CHECK_EQ_INT(equal(any_obj(m1), any_obj(d1)), 0); /* Map and Dict are different kinds */
  TVMFFIAny kv3[4] = {any_str("x"), any_obj(value), any_int(2), any_float(0.25)};
  void* m3 = make("ffi.Map", kv3, 4);
  CHECK_EQ_INT(equal(any_obj(m1), any_obj(m3)), 0);
  TVMFFIObjectDecRef(m1);
  TVMFFIObjectDecRef(m2);
  TVMFFIObjectDecRef(m3);
  TVMFFIObjectDecRef(d1);
  TVMFFIObjectDecRef(value);
  TVMFFIObjectDecRef(value2);
}

static void test_cycles_are_bounded(void) {
  void* l1 = make("ffi.List", NULL, 0);
  void* l2 = make("ffi.List", NULL, 0);
  TVMFFIAny r;
  TVMFFIAny args[2] = {any_obj(l1), any_obj(l1)};
  CHECK_EQ_INT(call_global("ffi.ListAppend", args, 2, &r), 0);
  args[0] = any_obj(l2), args[1] = any_obj(l2);
  CHECK_EQ_INT(call_global("ffi.ListAppend", args, 2, &r), 0);
  CHECK_EQ_INT(equal(any_obj(l1), any_obj(l1)), 1); /* the same object: no descent */
  CHECK(hash(any_obj(l1)) == hash(any_obj(l2)));     /* depth-bounded, and equal */
  CHECK_EQ_INT(equal(any_obj(l1), any_obj(l2)), -1);
  CHECK_RAISED("RecursionError", "maximum nesting depth");
  /* break the cycles so both are freed */
  TVMFFIAny clear = any_obj(l1);
  CHECK_EQ_INT(call_global("ffi.ListClear", &clear, 1, &r), 0);
  clear = any_obj(l2);
  CHECK_EQ_INT(call_global("ffi.ListClear", &clear, 1, &r), 0);
  TVMFFIObjectDecRef(l1);
  TVMFFIObjectDecRef(l2);
}

int main(void) {
  RUN(test_pods_compare_strictly_by_type);
  RUN(test_sequences_compare_by_content);
  RUN(test_maps_compare_entries_in_any_order);
  RUN(test_cycles_are_bounded);
  return CHECK_MAIN_RESULT();
}
