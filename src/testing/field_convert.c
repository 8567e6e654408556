/*
 * field_convert.c -- typed conversions of fixture fields whose C++ type is more than its storage
 * kind: Optional<int>, Optional<str>, Array<int>, Array<str>, Map<str, int>,
 * Map<str, Array<int>>, Variant<str, Array<int>, Map<str, int>> and
 * Optional<Array<Variant<int, str>>> (testing.SchemaAllTypes).
 *
 * As a C++ setter converting through TypeTraits (the rules are container_convert.c's); a value
 * that does not convert raises TypeError "Cannot convert from type `<what>` to `<C++ type>`",
 * where <what> names a bad element the way the reference does (`Array[index 1: float]`,
 * `Map[K, some value is ffi.SmallStr]`).
 */
#include "testing_objects.h"

/* rc from a conversion: a mismatch becomes the TypeError naming `what`. */
static int refused(int rc, const TestingMismatch* bad, const char* container, const char* to) {
  if (rc != 1) return rc;
  char what[160];
  testing_mismatch_text(bad, container, what, sizeof(what));
  return testing_raise("TypeError", "Cannot convert from type `%s` to `%s`", what, to);
}

/* A scalar or Variant field: a mismatch names only the value's type. */
static int refused_plain(int rc, const TVMFFIAny* v, const char* to) {
  TestingMismatch bad = {TESTING_BAD_VALUE, -1, v->type_index};
  return refused(rc, &bad, "", to);
}

static int optional_elem(TestingElem e, const char* to, const TVMFFIAny* v, TVMFFIAny* out) {
  if (v->type_index == kTVMFFINone) return TVMFFIAnyViewToOwnedAny(v, out);
  return refused_plain(testing_convert_elem(e, v, out), v, to);
}

static int seq_field(TestingElem e, const char* to, const TVMFFIAny* v, TVMFFIAny* out) {
  TestingMismatch bad;
  return refused(testing_convert_seq(e, false, v, out, &bad), &bad, "Array", to);
}

static int map_field(TestingElem ke, TestingElem ve, const char* to, const TVMFFIAny* v,
                     TVMFFIAny* out) {
  TestingMismatch bad;
  return refused(testing_convert_map(ke, ve, false, v, out, &bad), &bad, "Map", to);
}

int testing_convert_opt_int(const TVMFFIAny* v, TVMFFIAny* out) {
  return optional_elem(TESTING_EL_INT, "Optional<int>", v, out);
}

int testing_convert_opt_str(const TVMFFIAny* v, TVMFFIAny* out) {
  return optional_elem(TESTING_EL_STR, "Optional<str>", v, out);
}

int testing_convert_arr_int(const TVMFFIAny* v, TVMFFIAny* out) {
  return seq_field(TESTING_EL_INT, "Array<int>", v, out);
}

int testing_convert_arr_str(const TVMFFIAny* v, TVMFFIAny* out) {
  return seq_field(TESTING_EL_STR, "Array<str>", v, out);
}

int testing_convert_map_str_int(const TVMFFIAny* v, TVMFFIAny* out) {
  return map_field(TESTING_EL_STR, TESTING_EL_INT, "Map<str, int>", v, out);
}

int testing_convert_map_str_arr_int(const TVMFFIAny* v, TVMFFIAny* out) {
  return map_field(TESTING_EL_STR, TESTING_EL_ARRAY_INT, "Map<str, Array<int>>", v, out);
}

/* Variant<str, Array<int>, Map<str, int>>: the alternatives in order. */
int testing_convert_variant_str_arr_map(const TVMFFIAny* v, TVMFFIAny* out) {
  TestingMismatch bad;
  int rc = testing_convert_elem(TESTING_EL_STR, v, out);
  if (rc == 1) rc = testing_convert_seq(TESTING_EL_INT, false, v, out, &bad);
  if (rc == 1) rc = testing_convert_map(TESTING_EL_STR, TESTING_EL_INT, false, v, out, &bad);
  return refused_plain(rc, v, "Variant<str, Array<int>, Map<str, int>>");
}

int testing_convert_opt_arr_variant(const TVMFFIAny* v, TVMFFIAny* out) {
  if (v->type_index == kTVMFFINone) return TVMFFIAnyViewToOwnedAny(v, out);
  return seq_field(TESTING_EL_INT_OR_STR, "Optional<Array<Variant<int, str>>>", v, out);
}
