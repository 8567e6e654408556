/*
 * container_convert.c -- converting a value to a typed C++ container or element type, as
 * TypeTraits does on the reference's fixtures: the one engine behind the typed parameters of
 * the schema fixtures (fixtures_schema.c) and the typed fields of testing.SchemaAllTypes
 * (field_convert.c). Each caller words its own error from the TestingMismatch returned here.
 *
 * Rules: a bool is an int; a List is an Array and a Dict a Map of the wanted element types (and
 * the other way round); an element that converts to something else makes a new container of
 * the converted elements, otherwise the value itself is kept (same object, no copy).
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "testing_internal.h"

static bool is_seq(int32_t t) { return t == kTVMFFIArray || t == kTVMFFIList; }
static bool is_map(int32_t t) { return t == kTVMFFIMap || t == kTVMFFIDict; }

/* The same value: a converted element equal to its input bit for bit. */
static bool same_bits(const TVMFFIAny* a, const TVMFFIAny* b) {
  return memcmp(a, b, sizeof(TVMFFIAny)) == 0;
}

static int mismatch(TestingMismatch* bad, TestingMismatchWhere where, int64_t index,
                    int32_t type_index) {
  bad->where = where;
  bad->index = index;
  bad->type_index = type_index;
  return 1;
}

/* One element: 0 converted into *out (owned), 1 does not convert, -1 raised. A nested
 * Array<int> that does not convert reports its bad element in *inner (else inner->index -1). */
static int elem_convert(TestingElem e, const TVMFFIAny* v, TVMFFIAny* out,
                        TestingMismatch* inner) {
  int32_t t = v->type_index;
  bool int_ok = e == TESTING_EL_INT || e == TESTING_EL_OPT_INT || e == TESTING_EL_INT_OR_STR;
  inner->index = -1;
  switch (e) {
    case TESTING_EL_ANY:
      return TVMFFIAnyViewToOwnedAny(v, out);
    case TESTING_EL_ARRAY_INT:
      return testing_convert_seq(TESTING_EL_INT, false, v, out, inner);
    default:
      break;
  }
  if (int_ok && (t == kTVMFFIInt || t == kTVMFFIBool)) {
    testing_ret_int(out, v->v_int64);
    return 0;
  }
  if ((e == TESTING_EL_OPT_INT && t == kTVMFFINone) ||
      ((e == TESTING_EL_STR || e == TESTING_EL_INT_OR_STR) && testing_is_str(t)) ||
      (e == TESTING_EL_OBJ && (t >= kTVMFFIStaticObjectBegin || t == kTVMFFINone))) {
    return TVMFFIAnyViewToOwnedAny(v, out);
  }
  return 1;
}

int testing_convert_elem(TestingElem e, const TVMFFIAny* v, TVMFFIAny* out) {
  TestingMismatch inner;
  return elem_convert(e, v, out, &inner);
}

int testing_convert_seq(TestingElem e, bool want_list, const TVMFFIAny* v, TVMFFIAny* out,
                        TestingMismatch* bad) {
  int32_t t = v->type_index;
  if (!is_seq(t)) return mismatch(bad, TESTING_BAD_VALUE, -1, t);
  int64_t n;
  const TVMFFIAny* items = testing_seq_items(v, &n);
  TVMFFIAny* converted = (TVMFFIAny*)calloc((size_t)n + 1, sizeof(TVMFFIAny));
  if (converted == NULL) return testing_raise("MemoryError", "out of memory");
  bool same = (t == kTVMFFIList) == want_list;
  int rc = 0;
  int64_t done = 0;
  for (; rc == 0 && done < n; ++done) {
    TestingMismatch inner;
    rc = elem_convert(e, &items[done], &converted[done], &inner);
    if (rc == 1) mismatch(bad, TESTING_BAD_ELEMENT, done, items[done].type_index);
    same = same && (rc != 0 || same_bits(&converted[done], &items[done]));
  }
  if (rc == 0) {
    rc = same ? TVMFFIAnyViewToOwnedAny(v, out)
              : testing_call_global(want_list ? "ffi.List" : "ffi.Array", converted, (int32_t)n,
                                    out);
  }
  testing_release_items(converted, done);
  return rc;
}

int testing_convert_map(TestingElem ke, TestingElem ve, bool want_dict, const TVMFFIAny* v,
                        TVMFFIAny* out, TestingMismatch* bad) {
  int32_t t = v->type_index;
  if (!is_map(t)) return mismatch(bad, TESTING_BAD_VALUE, -1, t);
  TVMFFIAny* flat;
  int64_t n;
  if (testing_map_items(v, &flat, &n) != 0) return -1;
  TVMFFIAny* converted = (TVMFFIAny*)calloc((size_t)(2 * n + 1), sizeof(TVMFFIAny));
  if (converted == NULL) {
    testing_release_items(flat, 2 * n);
    return testing_raise("MemoryError", "out of memory");
  }
  bool same = (t == kTVMFFIDict) == want_dict;
  int rc = 0;
  for (int64_t i = 0; rc == 0 && i < n; ++i) {
    const TVMFFIAny *key = &flat[2 * i], *value = &flat[2 * i + 1];
    TestingMismatch inner;
    rc = elem_convert(ke, key, &converted[2 * i], &inner);
    if (rc == 1) {
      mismatch(bad, TESTING_BAD_KEY, -1, key->type_index);
      break;
    }
    if (rc == 0) rc = elem_convert(ve, value, &converted[2 * i + 1], &inner);
    if (rc == 1 && inner.index >= 0) {
      mismatch(bad, TESTING_BAD_MAP_VALUE, inner.index, inner.type_index);
    } else if (rc == 1) {
      mismatch(bad, TESTING_BAD_MAP_VALUE, -1, value->type_index);
    }
    same = same && rc == 0 && same_bits(&converted[2 * i], key) &&
           same_bits(&converted[2 * i + 1], value);
  }
  if (rc == 0) {
    rc = same ? TVMFFIAnyViewToOwnedAny(v, out)
              : testing_call_global(want_dict ? "ffi.Dict" : "ffi.Map", converted,
                                    (int32_t)(2 * n), out);
  }
  testing_release_items(converted, 2 * n); /* slots never filled are zeroed: None */
  testing_release_items(flat, 2 * n);
  return rc;
}

void testing_mismatch_text(const TestingMismatch* bad, const char* container, char* buf,
                           size_t size) {
  TVMFFIByteArray k = testing_type_key(bad->type_index);
  int len = (int)k.size;
  long long at = (long long)bad->index;
  switch (bad->where) {
    case TESTING_BAD_VALUE:
      snprintf(buf, size, "%.*s", len, k.data);
      break;
    case TESTING_BAD_ELEMENT:
      snprintf(buf, size, "%s[index %lld: %.*s]", container, at, len, k.data);
      break;
    case TESTING_BAD_KEY:
      snprintf(buf, size, "%s[some key is %.*s, V]", container, len, k.data);
      break;
    case TESTING_BAD_MAP_VALUE:
      if (bad->index >= 0) {
        snprintf(buf, size, "%s[K, some value is Array[index %lld: %.*s]]", container, at, len,
                 k.data);
      } else {
        snprintf(buf, size, "%s[K, some value is %.*s]", container, len, k.data);
      }
      break;
  }
}
