/*
 * field_convert.c -- typed conversions of fixture fields whose C++ type is more than its storage
 * kind: Optional<int>, Optional<str>, Array<int>, Array<str>, Map<str, int>,
 * Map<str, Array<int>>, Variant<str, Array<int>, Map<str, int>> and
 * Optional<Array<Variant<int, str>>> (testing.SchemaAllTypes).
 *
 * As a C++ setter converting through TypeTraits: a bool is an int, a List an Array and a Dict a
 * Map of the wanted element types, elements converting make a new container, and a value that
 * does not convert raises TypeError "Cannot convert from type `<what>` to `<C++ type>`", where
 * <what> names a bad element the way the reference does (`Array[index 1: float]`,
 * `Map[K, some value is ffi.SmallStr]`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testing_objects.h"

typedef enum { EL_INT, EL_STR, EL_INT_OR_STR, EL_ARR_INT } Elem;

/* 0: converted (owned *out); 1: does not convert (nothing raised); -1: error raised. */
typedef int Outcome;

static bool is_seq(int32_t t) { return t == kTVMFFIArray || t == kTVMFFIList; }

static Outcome seq_convert(Elem e, const TVMFFIAny* v, TVMFFIAny* out, int64_t* bad_at);

static Outcome elem_convert(Elem e, const TVMFFIAny* v, TVMFFIAny* out) {
  int32_t t = v->type_index;
  if ((e == EL_INT || e == EL_INT_OR_STR) && (t == kTVMFFIInt || t == kTVMFFIBool)) {
    testing_ret_int(out, v->v_int64);
    return 0;
  }
  if ((e == EL_STR || e == EL_INT_OR_STR) && testing_is_str(t)) return TVMFFIAnyViewToOwnedAny(v, out);
  if (e == EL_ARR_INT) {
    int64_t bad_at;
    return seq_convert(EL_INT, v, out, &bad_at);
  }
  return 1;
}

/* An Array of converted elements; `v` itself when it is an Array needing no conversion. */
static Outcome seq_convert(Elem e, const TVMFFIAny* v, TVMFFIAny* out, int64_t* bad_at) {
  *bad_at = -1;
  if (!is_seq(v->type_index)) return 1;
  int64_t n;
  const TVMFFIAny* items = testing_seq_items(v, &n);
  TVMFFIAny* converted = (TVMFFIAny*)calloc((size_t)n + 1, sizeof(TVMFFIAny));
  if (converted == NULL) return testing_raise("MemoryError", "out of memory");
  Outcome rc = 0;
  bool same = v->type_index == kTVMFFIArray;
  int64_t done = 0;
  for (; rc == 0 && done < n; ++done) {
    rc = elem_convert(e, &items[done], &converted[done]);
    if (rc == 1) *bad_at = done;
    /* a converted element differs from its input unless it is the same POD or object */
    if (rc == 0 && (converted[done].type_index != items[done].type_index ||
                    converted[done].v_int64 != items[done].v_int64)) {
      same = false;
    }
  }
  if (rc == 0) {
    rc = same ? TVMFFIAnyViewToOwnedAny(v, out)
              : testing_call_global("ffi.Array", converted, (int32_t)n, out);
  }
  testing_release_items(converted, done);
  return rc;
}

/* A Map of converted entries (keys `ke`, values `ve`); `v` itself when nothing converts.
 * On a bad entry, `detail` names it. */
static Outcome map_convert(Elem ke, Elem ve, const TVMFFIAny* v, TVMFFIAny* out, char* detail,
                           size_t detail_size) {
  int32_t t = v->type_index;
  if (t != kTVMFFIMap && t != kTVMFFIDict) return 1;
  TVMFFIAny* flat;
  int64_t n;
  if (testing_map_items(v, &flat, &n) != 0) return -1;
  TVMFFIAny* converted = (TVMFFIAny*)calloc((size_t)(2 * n + 1), sizeof(TVMFFIAny));
  if (converted == NULL) {
    testing_release_items(flat, 2 * n);
    return testing_raise("MemoryError", "out of memory");
  }
  Outcome rc = 0;
  bool same = t == kTVMFFIMap;
  for (int64_t i = 0; rc == 0 && i < n; ++i) {
    const TVMFFIAny *key = &flat[2 * i], *value = &flat[2 * i + 1];
    Outcome krc = elem_convert(ke, key, &converted[2 * i]);
    Outcome vrc = krc == 0 ? elem_convert(ve, value, &converted[2 * i + 1]) : krc;
    if (krc == 1 || vrc == 1) {
      const TVMFFIAny* bad = krc == 1 ? key : value;
      TVMFFIByteArray k = testing_type_key(bad->type_index);
      int64_t bad_at = -1;
      TVMFFIAny ignored = {0};
      if (krc != 1 && ve == EL_ARR_INT && seq_convert(EL_INT, bad, &ignored, &bad_at) == 1 &&
          bad_at >= 0) {
        int64_t m;
        k = testing_type_key(testing_seq_items(bad, &m)[bad_at].type_index);
        snprintf(detail, detail_size, "Map[K, some value is Array[index %lld: %.*s]]",
                 (long long)bad_at, (int)k.size, k.data);
      } else {
        snprintf(detail, detail_size, krc == 1 ? "Map[some key is %.*s, V]" : "Map[K, some value is %.*s]",
                 (int)k.size, k.data);
      }
      testing_release_value(&ignored);
      rc = 1;
    } else if (krc != 0 || vrc != 0) {
      rc = krc != 0 ? krc : vrc;
    } else {
      /* a converted entry differs from its input unless it holds the same bits */
      same = same && converted[2 * i].type_index == key->type_index &&
             converted[2 * i].v_int64 == key->v_int64 &&
             converted[2 * i + 1].type_index == value->type_index &&
             converted[2 * i + 1].v_int64 == value->v_int64;
    }
  }
  if (rc == 0) {
    rc = same ? TVMFFIAnyViewToOwnedAny(v, out)
              : testing_call_global("ffi.Map", converted, (int32_t)(2 * n), out);
  }
  testing_release_items(converted, 2 * n); /* zeroed slots are None */
  testing_release_items(flat, 2 * n);
  return rc;
}

static int refuse(const TVMFFIAny* v, const char* detail, const char* to) {
  TVMFFIByteArray k = testing_type_key(v->type_index);
  if (detail != NULL && detail[0] != '\0') {
    return testing_raise("TypeError", "Cannot convert from type `%s` to `%s`", detail, to);
  }
  return testing_raise("TypeError", "Cannot convert from type `%.*s` to `%s`", (int)k.size, k.data,
                       to);
}

static int seq_field(Elem e, const char* to, const TVMFFIAny* v, TVMFFIAny* out) {
  int64_t bad_at;
  Outcome rc = seq_convert(e, v, out, &bad_at);
  if (rc != 1) return rc;
  char detail[160] = "";
  if (bad_at >= 0) {
    int64_t n;
    TVMFFIByteArray k = testing_type_key(testing_seq_items(v, &n)[bad_at].type_index);
    snprintf(detail, sizeof(detail), "Array[index %lld: %.*s]", (long long)bad_at, (int)k.size,
             k.data);
  }
  return refuse(v, detail, to);
}

static int map_field(Elem ke, Elem ve, const char* to, const TVMFFIAny* v, TVMFFIAny* out) {
  char detail[160] = "";
  Outcome rc = map_convert(ke, ve, v, out, detail, sizeof(detail));
  return rc == 1 ? refuse(v, detail, to) : rc;
}

int testing_convert_opt_int(const TVMFFIAny* v, TVMFFIAny* out) {
  if (v->type_index == kTVMFFINone) return TVMFFIAnyViewToOwnedAny(v, out);
  Outcome rc = elem_convert(EL_INT, v, out);
  return rc == 1 ? refuse(v, NULL, "Optional<int>") : rc;
}

int testing_convert_opt_str(const TVMFFIAny* v, TVMFFIAny* out) {
  if (v->type_index == kTVMFFINone) return TVMFFIAnyViewToOwnedAny(v, out);
  Outcome rc = elem_convert(EL_STR, v, out);
  return rc == 1 ? refuse(v, NULL, "Optional<str>") : rc;
}

int testing_convert_arr_int(const TVMFFIAny* v, TVMFFIAny* out) {
  return seq_field(EL_INT, "Array<int>", v, out);
}

int testing_convert_arr_str(const TVMFFIAny* v, TVMFFIAny* out) {
  return seq_field(EL_STR, "Array<str>", v, out);
}

int testing_convert_map_str_int(const TVMFFIAny* v, TVMFFIAny* out) {
  return map_field(EL_STR, EL_INT, "Map<str, int>", v, out);
}

int testing_convert_map_str_arr_int(const TVMFFIAny* v, TVMFFIAny* out) {
  return map_field(EL_STR, EL_ARR_INT, "Map<str, Array<int>>", v, out);
}

/* Variant<str, Array<int>, Map<str, int>>: the alternatives in order; a mismatch names only the
 * value's type. */
int testing_convert_variant_str_arr_map(const TVMFFIAny* v, TVMFFIAny* out) {
  Outcome rc = elem_convert(EL_STR, v, out);
  int64_t bad_at;
  if (rc == 1) rc = seq_convert(EL_INT, v, out, &bad_at);
  char detail[160];
  if (rc == 1) rc = map_convert(EL_STR, EL_INT, v, out, detail, sizeof(detail));
  return rc == 1 ? refuse(v, NULL, "Variant<str, Array<int>, Map<str, int>>") : rc;
}

int testing_convert_opt_arr_variant(const TVMFFIAny* v, TVMFFIAny* out) {
  if (v->type_index == kTVMFFINone) return TVMFFIAnyViewToOwnedAny(v, out);
  return seq_field(EL_INT_OR_STR, "Optional<Array<Variant<int, str>>>", v, out);
}
