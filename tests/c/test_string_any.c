/* Strings, bytes and view-to-owned Any conversion. */
#include "check.h"

static void test_short_strings_are_stored_inline(void) {
  TVMFFIByteArray abc = check_ba("abc");
  TVMFFIAny out;
  memset(&out, 0x5A, sizeof(out));
  CHECK_EQ_INT(TVMFFIStringFromByteArray(&abc, &out), 0);
  CHECK_EQ_INT(out.type_index, kTVMFFISmallStr);
  CHECK_EQ_INT(out.small_str_len, 3);
  /* "abc" then NUL then zeros: the bytes hash and compare as raw memory. */
  const char expect[8] = {'a', 'b', 'c', 0, 0, 0, 0, 0};
  CHECK(memcmp(out.v_bytes, expect, 8) == 0);
  TVMFFIByteArray seven = check_ba("1234567");
  CHECK_EQ_INT(TVMFFIBytesFromByteArray(&seven, &out), 0);
  CHECK_EQ_INT(out.type_index, kTVMFFISmallBytes);
  CHECK_BYTES_EQ(TVMFFISmallBytesGetContentByteArray(&out), "1234567");
}

static void test_empty_string_is_small(void) {
  TVMFFIByteArray empty = {NULL, 0};
  TVMFFIAny out;
  CHECK_EQ_INT(TVMFFIStringFromByteArray(&empty, &out), 0);
  CHECK_EQ_INT(out.type_index, kTVMFFISmallStr);
  CHECK_EQ_INT(out.small_str_len, 0);
  CHECK_EQ_INT(out.v_uint64, 0);
}

static void test_long_strings_are_nul_terminated_objects(void) {
  TVMFFIByteArray text = check_ba("12345678");
  TVMFFIAny out;
  CHECK_EQ_INT(TVMFFIStringFromByteArray(&text, &out), 0);
  CHECK_EQ_INT(out.type_index, kTVMFFIStr);
  CHECK_EQ_INT(out.zero_padding, 0);
  TVMFFIByteArray* cell = TVMFFIBytesGetByteArrayPtr(out.v_obj);
  CHECK_BYTES_EQ(*cell, "12345678");
  CHECK_EQ_INT(cell->data[cell->size], '\0');
  CHECK(cell->data == (const char*)out.v_obj + 40); /* content right after the cell */
  CHECK_EQ_INT(check_strong_count(out.v_obj), 1);
  TVMFFIObjectDecRef(out.v_obj);

  const char with_nul[9] = {'a', 0, 'b', 'c', 'd', 'e', 'f', 'g', 'h'};
  TVMFFIByteArray bin = {with_nul, 9};
  CHECK_EQ_INT(TVMFFIBytesFromByteArray(&bin, &out), 0);
  CHECK_EQ_INT(out.type_index, kTVMFFIBytes);
  cell = TVMFFIBytesGetByteArrayPtr(out.v_obj);
  CHECK_EQ_INT(cell->size, 9);
  CHECK(memcmp(cell->data, with_nul, 9) == 0);
  TVMFFIObjectDecRef(out.v_obj);
}

static void test_string_from_byte_array_rejects_null_arguments(void) {
  TVMFFIAny out;
  CHECK_EQ_INT(TVMFFIStringFromByteArray(NULL, &out), -1);
  CHECK_RAISED("ValueError", "TVMFFIStringFromByteArray");
  TVMFFIByteArray bad = {NULL, 3};
  CHECK_EQ_INT(TVMFFIBytesFromByteArray(&bad, &out), -1);
  CHECK_RAISED("ValueError", "NULL data pointer");
}

static void test_view_to_owned_copies_raw_strings(void) {
  TVMFFIAny view = {0}, owned;
  view.type_index = kTVMFFIRawStr;
  view.v_c_str = "hi";
  CHECK_EQ_INT(TVMFFIAnyViewToOwnedAny(&view, &owned), 0);
  CHECK_EQ_INT(owned.type_index, kTVMFFISmallStr);
  CHECK_BYTES_EQ(TVMFFISmallBytesGetContentByteArray(&owned), "hi");
  view.v_c_str = "a longer raw string";
  CHECK_EQ_INT(TVMFFIAnyViewToOwnedAny(&view, &owned), 0);
  CHECK_EQ_INT(owned.type_index, kTVMFFIStr);
  CHECK(TVMFFIBytesGetByteArrayPtr(owned.v_obj)->data != view.v_c_str);
  TVMFFIObjectDecRef(owned.v_obj);
}

static void test_view_to_owned_copies_byte_arrays(void) {
  TVMFFIByteArray bytes = check_ba("0123456789");
  TVMFFIAny view = {0}, owned;
  view.type_index = kTVMFFIByteArrayPtr;
  view.v_ptr = &bytes;
  CHECK_EQ_INT(TVMFFIAnyViewToOwnedAny(&view, &owned), 0);
  CHECK_EQ_INT(owned.type_index, kTVMFFIBytes);
  CHECK_BYTES_EQ(*TVMFFIBytesGetByteArrayPtr(owned.v_obj), "0123456789");
  TVMFFIObjectDecRef(owned.v_obj);
}

static void test_view_to_owned_adds_a_reference_to_objects(void) {
  TVMFFIByteArray text = check_ba("heap string value");
  TVMFFIAny str, owned;
  CHECK_EQ_INT(TVMFFIStringFromByteArray(&text, &str), 0);
  CHECK_EQ_INT(TVMFFIAnyViewToOwnedAny(&str, &owned), 0);
  CHECK(owned.v_obj == str.v_obj);
  CHECK_EQ_INT(check_strong_count(str.v_obj), 2);
  TVMFFIObjectDecRef(owned.v_obj);
  TVMFFIObjectDecRef(str.v_obj);
}

static void test_view_to_owned_steals_rvalue_refs(void) {
  TVMFFIByteArray text = check_ba("moved heap string");
  TVMFFIAny str, owned;
  CHECK_EQ_INT(TVMFFIStringFromByteArray(&text, &str), 0);
  TVMFFIObject* slot = str.v_obj;
  TVMFFIAny view = {0};
  view.type_index = kTVMFFIObjectRValueRef;
  view.v_ptr = &slot;
  CHECK_EQ_INT(TVMFFIAnyViewToOwnedAny(&view, &owned), 0);
  CHECK(slot == NULL);
  CHECK(owned.v_obj == str.v_obj);
  CHECK_EQ_INT(owned.type_index, kTVMFFIStr);
  CHECK_EQ_INT(check_strong_count(owned.v_obj), 1);
  CHECK_EQ_INT(TVMFFIAnyViewToOwnedAny(&view, &owned), -1);
  CHECK_RAISED("RuntimeError", "RValueRef already moved");
  TVMFFIObjectDecRef(str.v_obj);
}

static void test_view_to_owned_copies_pod_bits(void) {
  TVMFFIAny view = {0}, owned;
  view.type_index = kTVMFFIDLTensorPtr; /* still a non-owning pointer afterwards */
  view.v_ptr = (void*)0x1000;
  CHECK_EQ_INT(TVMFFIAnyViewToOwnedAny(&view, &owned), 0);
  CHECK(memcmp(&view, &owned, sizeof(view)) == 0);
  view.type_index = kTVMFFIFloat;
  view.v_float64 = 2.5;
  CHECK_EQ_INT(TVMFFIAnyViewToOwnedAny(&view, &owned), 0);
  CHECK(memcmp(&view, &owned, sizeof(view)) == 0);
  CHECK_EQ_INT(TVMFFIAnyViewToOwnedAny(NULL, &owned), -1);
  CHECK_RAISED("ValueError", "TVMFFIAnyViewToOwnedAny");
}

static void test_string_and_bytes_globals_round_trip(void) {
  const char* names[2] = {"ffi.String", "ffi.Bytes"};
  for (int k = 0; k < 2; ++k) {
    void* f = NULL;
    TVMFFIByteArray name = check_ba(names[k]);
    CHECK_EQ_INT(TVMFFIFunctionGetGlobal(&name, &f), 0);
    CHECK(f != NULL);
    TVMFFIByteArray payload = check_ba("round trip payload");
    TVMFFIAny arg = {0}, result = {0};
    if (k == 0) {
      arg.type_index = kTVMFFIRawStr;
      arg.v_c_str = payload.data;
    } else {
      arg.type_index = kTVMFFIByteArrayPtr;
      arg.v_ptr = &payload;
    }
    CHECK_EQ_INT(TVMFFIFunctionCall(f, &arg, 1, &result), 0);
    CHECK_EQ_INT(result.type_index, k == 0 ? kTVMFFIStr : kTVMFFIBytes);
    CHECK_BYTES_EQ(*TVMFFIBytesGetByteArrayPtr(result.v_obj), "round trip payload");
    TVMFFIObjectDecRef(result.v_obj);
    TVMFFIAny wrong = {0};
    wrong.type_index = kTVMFFIInt;
    result.type_index = kTVMFFINone;
    CHECK_EQ_INT(TVMFFIFunctionCall(f, &wrong, 1, &result), -1);
    CHECK_RAISED("TypeError", "argument #0");
    TVMFFIObjectDecRef(f);
  }
}

/* A forged inline string claiming 200 bytes must be refused, not read past its 16 bytes. */
static void test_inline_strings_longer_than_seven_bytes_are_refused(void) {
  for (int k = 0; k < 2; ++k) {
    TVMFFIAny forged = {0};
    forged.type_index = k == 0 ? kTVMFFISmallStr : kTVMFFISmallBytes;
    forged.small_str_len = 200;
    TVMFFIAny result = {0};
    CHECK_EQ_INT(call_global(k == 0 ? "ffi.String" : "ffi.Bytes", &forged, 1, &result), -1);
    CHECK_RAISED("ValueError", "length 200, but at most 7 bytes fit inline");
    CHECK_EQ_INT(result.type_index, kTVMFFINone);
    CHECK_EQ_INT(TVMFFIAnyViewToOwnedAny(&forged, &result), -1);
    CHECK_RAISED("ValueError", "length 200");
  }
  TVMFFIAny seven = {0};
  seven.type_index = kTVMFFISmallStr;
  seven.small_str_len = 7;
  memcpy(seven.v_bytes, "abcdefg", 7);
  TVMFFIAny result = {0};
  CHECK_EQ_INT(call_global("ffi.String", &seven, 1, &result), 0);
  CHECK_BYTES_EQ(TVMFFISmallBytesGetContentByteArray(&result), "abcdefg");
}

int main(void) {
  RUN(test_short_strings_are_stored_inline);
  RUN(test_empty_string_is_small);
  RUN(test_long_strings_are_nul_terminated_objects);
  RUN(test_string_from_byte_array_rejects_null_arguments);
  RUN(test_view_to_owned_copies_raw_strings);
  RUN(test_view_to_owned_copies_byte_arrays);
  RUN(test_view_to_owned_adds_a_reference_to_objects);
  RUN(test_view_to_owned_steals_rvalue_refs);
  RUN(test_view_to_owned_copies_pod_bits);
  RUN(test_string_and_bytes_globals_round_trip);
  RUN(test_inline_strings_longer_than_seven_bytes_are_refused);
  return CHECK_MAIN_RESULT();
}
