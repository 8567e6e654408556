/* DLDataType <-> string: TVMFFIDataTypeFromString and TVMFFIDataTypeToString. */
#include "check.h"

/* ---- helpers ---- */

static int parse(const char* s, DLDataType* out) {
  TVMFFIByteArray text = check_ba(s);
  return TVMFFIDataTypeFromString(&text, out);
}

static DLDataType dt(int code, int bits, int lanes) {
  DLDataType d;
  d.code = (uint8_t)code;
  d.bits = (uint8_t)bits;
  d.lanes = (uint16_t)lanes;
  return d;
}

/* Views the content of an owned string Any (small or object form). */
static TVMFFIByteArray str_view(const TVMFFIAny* s) {
  if (s->type_index == kTVMFFISmallStr) return TVMFFISmallBytesGetContentByteArray(s);
  return *TVMFFIBytesGetByteArrayPtr(s->v_obj);
}

#define CHECK_PARSES(text_, code_, bits_, lanes_)             \
  do {                                                        \
    DLDataType got_ = dt(99, 99, 99);                         \
    CHECK_EQ_INT(parse(text_, &got_), 0);                     \
    if (!check_no_error_pending()) check_failures_in_test++;  \
    CHECK_EQ_INT(got_.code, code_);                           \
    CHECK_EQ_INT(got_.bits, bits_);                           \
    CHECK_EQ_INT(got_.lanes, lanes_);                         \
  } while (0)

#define CHECK_PRINTS(code_, bits_, lanes_, text_)                                 \
  do {                                                                            \
    DLDataType in_ = dt(code_, bits_, lanes_);                                    \
    TVMFFIAny out_;                                                               \
    memset(&out_, 0, sizeof(out_));                                               \
    CHECK_EQ_INT(TVMFFIDataTypeToString(&in_, &out_), 0);                         \
    CHECK(out_.type_index == kTVMFFISmallStr || out_.type_index == kTVMFFIStr);   \
    CHECK_BYTES_EQ(str_view(&out_), text_);                                       \
    release(&out_);                                                               \
  } while (0)

/* ---- FromString ---- */

static void test_parse_every_grammar_row(void) {
  CHECK_PARSES("", kDLOpaqueHandle, 0, 0);
  CHECK_PARSES("void", kDLOpaqueHandle, 0, 0);
  CHECK_PARSES("int", kDLInt, 32, 1);
  CHECK_PARSES("int8", kDLInt, 8, 1);
  CHECK_PARSES("i64", kDLInt, 64, 1);
  CHECK_PARSES("uint", kDLUInt, 32, 1);
  CHECK_PARSES("uint1", kDLUInt, 1, 1);
  CHECK_PARSES("u16", kDLUInt, 16, 1);
  CHECK_PARSES("float", kDLFloat, 32, 1);
  CHECK_PARSES("float16", kDLFloat, 16, 1);
  CHECK_PARSES("float8", kDLFloat, 8, 1); /* plain 8-bit float, not a float8_ variant */
  CHECK_PARSES("f64", kDLFloat, 64, 1);
  CHECK_PARSES("bfloat", kDLBfloat, 16, 1);
  CHECK_PARSES("bfloat16", kDLBfloat, 16, 1);
  CHECK_PARSES("bf16", kDLBfloat, 16, 1);
  CHECK_PARSES("bool", kDLBool, 8, 1);
  CHECK_PARSES("bool1", kDLBool, 1, 1);
  CHECK_PARSES("handle", kDLOpaqueHandle, 64, 1);
  CHECK_PARSES("handle32", kDLOpaqueHandle, 32, 1);
  /* Zero bits mean "the family's default", as in the reference. */
  CHECK_PARSES("int0", kDLInt, 32, 1);
  CHECK_PARSES("bool0", kDLBool, 8, 1);
  CHECK_PARSES("i0", kDLInt, 32, 1);
  /* Leading zeros are plain decimal. */
  CHECK_PARSES("int0000000000000000000008", kDLInt, 8, 1);
  CHECK_PARSES("uint255", kDLUInt, 255, 1);
}

static void test_parse_fixed_width_floats_in_every_spelling(void) {
  static const struct {
    const char* variant;
    int code;
    int bits;
    int width;
  } kCases[] = {
      {"e3m4", kDLFloat8_e3m4, 8, 8},       {"e4m3", kDLFloat8_e4m3, 8, 8},
      {"e4m3b11fnuz", kDLFloat8_e4m3b11fnuz, 8, 8},
      {"e4m3fn", kDLFloat8_e4m3fn, 8, 8},   {"e4m3fnuz", kDLFloat8_e4m3fnuz, 8, 8},
      {"e5m2", kDLFloat8_e5m2, 8, 8},       {"e5m2fnuz", kDLFloat8_e5m2fnuz, 8, 8},
      {"e8m0fnu", kDLFloat8_e8m0fnu, 8, 8}, {"e2m3fn", kDLFloat6_e2m3fn, 6, 6},
      {"e3m2fn", kDLFloat6_e3m2fn, 6, 6},   {"e2m1fn", kDLFloat4_e2m1fn, 4, 4},
  };
  static const char* const kSpellings[] = {"float", "fp", "f"};
  char text[64];
  for (size_t i = 0; i < sizeof(kCases) / sizeof(kCases[0]); ++i) {
    for (size_t s = 0; s < 3; ++s) {
      snprintf(text, sizeof(text), "%s%d_%s", kSpellings[s], kCases[i].width, kCases[i].variant);
      CHECK_PARSES(text, kCases[i].code, kCases[i].bits, 1);
      snprintf(text, sizeof(text), "%s%d_%sx4", kSpellings[s], kCases[i].width,
               kCases[i].variant);
      CHECK_PARSES(text, kCases[i].code, kCases[i].bits, 4);
    }
  }
  /* float4 packs two values per byte, so its lanes may also be written with an underscore. */
  CHECK_PARSES("float4_e2m1fn_x2", kDLFloat4_e2m1fn, 4, 2);
  CHECK_PARSES("fp4_e2m1fn_x2", kDLFloat4_e2m1fn, 4, 2);
  CHECK_PARSES("float8_e4m3fnx65535", kDLFloat8_e4m3fn, 8, 65535);
}

static void test_parse_lanes_and_scalable_vectors(void) {
  CHECK_PARSES("int32x4", kDLInt, 32, 4);
  CHECK_PARSES("intx2", kDLInt, 32, 2);
  CHECK_PARSES("boolx2", kDLBool, 8, 2);
  CHECK_PARSES("handlex4", kDLOpaqueHandle, 64, 4);
  CHECK_PARSES("float32x1", kDLFloat, 32, 1);
  CHECK_PARSES("float16x0001", kDLFloat, 16, 1);
  CHECK_PARSES("int8x65535", kDLInt, 8, 65535);
  /* Scalable vectors store -L as a 16-bit pattern. */
  CHECK_PARSES("int32xvscalex4", kDLInt, 32, 65532);
  CHECK_PARSES("f16xvscalex2", kDLFloat, 16, 65534);
  CHECK_PARSES("bfloat16xvscalex8", kDLBfloat, 16, 65528);
  CHECK_PARSES("boolxvscalex4", kDLBool, 8, 65532);
  CHECK_PARSES("int8xvscalex32768", kDLInt, 8, 32768);
  CHECK_PARSES("int8xvscalex1", kDLInt, 8, 65535);
}

static void test_parse_bad_strings(void) {
  static const struct {
    const char* text;
    size_t size; /* 0: use strlen */
    const char* needle;
  } kCases[] = {
      {"complex64", 0, "unknown dtype `complex64`"},
      {"i", 0, "unknown dtype `i`"},
      {"bf", 0, "unknown dtype `bf`"},
      {"ix2", 0, "unknown dtype `ix2`"},
      {"fp16", 0, "unknown dtype `fp16`"},
      {"INT8", 0, "unknown dtype `INT8`"},
      {" int32", 0, "unknown dtype ` int32`"},
      {"int32 ", 0, "unknown dtype `int32 `"},
      {"int32x4x4", 0, "unknown dtype `int32x4x4`"},
      {"int32_x2", 0, "unknown dtype `int32_x2`"},
      {"voidx2", 0, "unknown dtype `voidx2`"},
      {"int32x0", 0, "lanes must be between 1 and 65535"},
      {"int32x65536", 0, "lanes must be between 1 and 65535"},
      {"int32x", 0, "expected the number of lanes"},
      {"int32xvscalex0", 0, "lanes must be between 1 and 65535"},
      {"int32xvscale", 0, "expected the number of lanes"},
      {"int256", 0, "bits must be at most 255"},
      {"int99999999999999999999999999", 0, "bits must be at most 255"},
      {"float8_e4m3fnxvscalex4", 0, "no scalable vector form"},
      {"float8_e4m3fn_x2", 0, "unknown dtype `float8_e4m3fn_x2`"},
      {"float8_e9m9", 0, "unknown fixed-width float variant"},
      {"float4_e2m1fn_", 0, "unknown dtype `float4_e2m1fn_`"},
      {"custom", 0, "expected `custom[<name>]`"},
      {"custom[abc", 0, "missing `]`"},
      {"int8\0x4", 7, "unknown dtype `int8\\x00x4`: contains a NUL byte"},
      {"\0", 1, "unknown dtype `\\x00`"},
  };
  for (size_t i = 0; i < sizeof(kCases) / sizeof(kCases[0]); ++i) {
    size_t size = kCases[i].size ? kCases[i].size : strlen(kCases[i].text);
    TVMFFIByteArray text = {kCases[i].text, size};
    DLDataType out = dt(7, 7, 7);
    CHECK_EQ_INT(TVMFFIDataTypeFromString(&text, &out), -1);
    CHECK_RAISED("ValueError", kCases[i].needle);
    /* out is untouched on failure */
    CHECK_EQ_INT(out.code, 7);
    CHECK_EQ_INT(out.lanes, 7);
  }
}

static void test_parse_long_input_is_cut_in_the_message(void) {
  char text[4096];
  memset(text, 'z', sizeof(text));
  memcpy(text, "int8x", 5);
  TVMFFIByteArray input = {text, sizeof(text)};
  DLDataType out;
  CHECK_EQ_INT(TVMFFIDataTypeFromString(&input, &out), -1);
  void* err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  CHECK(err != NULL);
  if (err != NULL) {
    TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
    CHECK_CONTAINS(cell->message, "unknown dtype `int8xzzz");
    CHECK_CONTAINS(cell->message, "...`");
    CHECK(cell->message.size < 400);
    TVMFFIObjectDecRef(err);
  }
}

static void test_parse_rejects_null_arguments(void) {
  DLDataType out;
  TVMFFIByteArray text = check_ba("int8");
  CHECK_EQ_INT(TVMFFIDataTypeFromString(NULL, &out), -1);
  CHECK_RAISED("ValueError", "TVMFFIDataTypeFromString");
  CHECK_EQ_INT(TVMFFIDataTypeFromString(&text, NULL), -1);
  CHECK_RAISED("ValueError", "TVMFFIDataTypeFromString");
  TVMFFIByteArray null_data = {NULL, 4};
  CHECK_EQ_INT(TVMFFIDataTypeFromString(&null_data, &out), -1);
  CHECK_RAISED("ValueError", "NULL data");
  /* An empty view may have a NULL data pointer: it is "void". */
  TVMFFIByteArray empty = {NULL, 0};
  CHECK_EQ_INT(TVMFFIDataTypeFromString(&empty, &out), 0);
  CHECK_EQ_INT(out.code, kDLOpaqueHandle);
  CHECK_EQ_INT(out.bits, 0);
  CHECK_EQ_INT(out.lanes, 0);
}

/* ---- ToString ---- */

static void test_print_table(void) {
  CHECK_PRINTS(kDLOpaqueHandle, 0, 0, "");
  CHECK_PRINTS(kDLOpaqueHandle, 64, 1, "handle");
  CHECK_PRINTS(kDLOpaqueHandle, 32, 4, "handle"); /* neither bits nor lanes printed */
  CHECK_PRINTS(kDLBool, 8, 1, "bool");
  CHECK_PRINTS(kDLBool, 8, 4, "boolx4");
  CHECK_PRINTS(kDLBool, 1, 1, "bool1");
  CHECK_PRINTS(kDLInt, 32, 1, "int32");
  CHECK_PRINTS(kDLUInt, 8, 1, "uint8");
  CHECK_PRINTS(kDLFloat, 16, 4, "float16x4");
  CHECK_PRINTS(kDLBfloat, 16, 1, "bfloat16");
  CHECK_PRINTS(kDLInt, 0, 1, "int0");
  CHECK_PRINTS(kDLFloat8_e4m3fn, 8, 1, "float8_e4m3fn");
  CHECK_PRINTS(kDLFloat8_e4m3fn, 16, 2, "float8_e4m3fnx2"); /* bits never printed */
  CHECK_PRINTS(kDLFloat6_e3m2fn, 6, 1, "float6_e3m2fn");
  CHECK_PRINTS(kDLFloat4_e2m1fn, 4, 2, "float4_e2m1fnx2");
  /* Lanes 0, 1 and 65535 (-1 as int16) print nothing; other negatives are scalable. */
  CHECK_PRINTS(kDLInt, 8, 0, "int8");
  CHECK_PRINTS(kDLInt, 8, 65535, "int8");
  CHECK_PRINTS(kDLInt, 8, 32767, "int8x32767");
  CHECK_PRINTS(kDLInt, 8, 32768, "int8xvscalex32768");
  CHECK_PRINTS(kDLFloat, 32, 65532, "float32xvscalex4");
  CHECK_PRINTS(kDLFloat8_e5m2, 8, 65534, "float8_e5m2xvscalex2");
}

static void test_print_returns_owned_strings(void) {
  DLDataType f32 = dt(kDLFloat, 32, 1);
  TVMFFIAny out;
  memset(&out, 0, sizeof(out));
  CHECK_EQ_INT(TVMFFIDataTypeToString(&f32, &out), 0);
  CHECK_EQ_INT(out.type_index, kTVMFFISmallStr); /* 7 characters fit inline */
  CHECK_EQ_INT(out.small_str_len, 7); /* shares its slot with zero_padding */
  CHECK(memcmp(out.v_bytes, "float32", 7) == 0);

  DLDataType long_name = dt(kDLFloat8_e4m3b11fnuz, 8, 16);
  CHECK_EQ_INT(TVMFFIDataTypeToString(&long_name, &out), 0);
  CHECK_EQ_INT(out.type_index, kTVMFFIStr);
  CHECK_EQ_INT(check_strong_count(out.v_obj), 1);
  TVMFFIByteArray* cell = TVMFFIBytesGetByteArrayPtr(out.v_obj);
  CHECK_BYTES_EQ(*cell, "float8_e4m3b11fnuzx16");
  CHECK_EQ_INT(cell->data[cell->size], '\0');
  TVMFFIObjectDecRef(out.v_obj); /* the only reference: freed here (checked by ASan/LSan) */
}

static void test_print_errors(void) {
  static const int kBadCodes[] = {kDLComplex, 18, 100, 128};
  for (size_t i = 0; i < sizeof(kBadCodes) / sizeof(kBadCodes[0]); ++i) {
    DLDataType d = dt(kBadCodes[i], 64, 1);
    TVMFFIAny out;
    memset(&out, 0, sizeof(out));
    char needle[64];
    snprintf(needle, sizeof(needle), "DLDataType contains unknown type_code=%d", kBadCodes[i]);
    CHECK_EQ_INT(TVMFFIDataTypeToString(&d, &out), -1);
    CHECK_RAISED("ValueError", needle);
    CHECK_EQ_INT(out.type_index, kTVMFFINone);
  }
  DLDataType d = dt(kDLInt, 8, 1);
  TVMFFIAny out;
  CHECK_EQ_INT(TVMFFIDataTypeToString(NULL, &out), -1);
  CHECK_RAISED("ValueError", "TVMFFIDataTypeToString");
  CHECK_EQ_INT(TVMFFIDataTypeToString(&d, NULL), -1);
  CHECK_RAISED("ValueError", "TVMFFIDataTypeToString");
}

/* ---- round trips ---- */

/* ToString then FromString gives back the same DLDataType for every value the grammar can
 * express: nonzero bits for the sized families, the fixed bits of the float8/6/4 codes (which
 * have no scalable form), lanes other than 0 and 65535 (which print nothing), and handles as
 * 64 bits x 1 lane (their bits and lanes are not printed). */
static void test_round_trip_all_codes_bits_lanes(void) {
  static const int kBits[] = {1, 2, 4, 6, 8, 16, 32, 64, 128, 255};
  static const int kLanes[] = {1, 2, 3, 4, 16, 255, 32767, 32768, 65000, 65532, 65534};
  int checked = 0;
  for (int code = 0; code <= kDLFloat4_e2m1fn; ++code) {
    if (code == kDLComplex) continue;
    for (size_t b = 0; b < sizeof(kBits) / sizeof(kBits[0]); ++b) {
      for (size_t l = 0; l < sizeof(kLanes) / sizeof(kLanes[0]); ++l) {
        DLDataType in = dt(code, kBits[b], kLanes[l]);
        if (code >= kDLFloat8_e3m4) {
          if ((int16_t)in.lanes < -1) continue; /* no scalable form for float8/6/4 */
          in.bits = code >= kDLFloat4_e2m1fn ? 4 : code >= kDLFloat6_e2m3fn ? 6 : 8;
        }
        if (code == kDLOpaqueHandle) { /* prints as plain "handle", which means 64 x 1 */
          in.bits = 64;
          in.lanes = 1;
        }
        TVMFFIAny text;
        memset(&text, 0, sizeof(text));
        CHECK_EQ_INT(TVMFFIDataTypeToString(&in, &text), 0);
        DLDataType back = dt(99, 99, 99);
        TVMFFIByteArray view = str_view(&text);
        CHECK_EQ_INT(TVMFFIDataTypeFromString(&view, &back), 0);
        if (memcmp(&in, &back, sizeof(in)) != 0) {
          fprintf(stderr, "round trip of (%d,%d,%d) via \"%.*s\" gave (%d,%d,%d)\n", in.code,
                  in.bits, in.lanes, (int)view.size, view.data, back.code, back.bits, back.lanes);
          check_failures_in_test++;
        }
        release(&text);
        ++checked;
      }
    }
  }
  CHECK(checked > 1000);
  CHECK(check_no_error_pending());
}

static void test_round_trip_every_alias(void) {
  /* Each alias parses to the same value as its canonical spelling, which prints canonically. */
  static const char* const kPairs[][2] = {
      {"i8", "int8"},           {"u32", "uint32"},           {"f16x4", "float16x4"},
      {"bf16", "bfloat16"},     {"bfloat", "bfloat16"},      {"int", "int32"},
      {"uint", "uint32"},       {"float", "float32"},        {"bool8", "bool"},
      {"handle64", "handle"},   {"void", ""},                {"fp8_e5m2", "float8_e5m2"},
      {"f8_e4m3fnuz", "float8_e4m3fnuz"}, {"fp6_e2m3fn", "float6_e2m3fn"},
      {"f4_e2m1fn_x2", "float4_e2m1fnx2"}, {"i32xvscalex4", "int32xvscalex4"},
  };
  for (size_t i = 0; i < sizeof(kPairs) / sizeof(kPairs[0]); ++i) {
    DLDataType a = dt(0, 0, 0), b = dt(1, 1, 1);
    CHECK_EQ_INT(parse(kPairs[i][0], &a), 0);
    CHECK_EQ_INT(parse(kPairs[i][1], &b), 0);
    CHECK(memcmp(&a, &b, sizeof(a)) == 0);
    TVMFFIAny text;
    memset(&text, 0, sizeof(text));
    CHECK_EQ_INT(TVMFFIDataTypeToString(&a, &text), 0);
    CHECK_BYTES_EQ(str_view(&text), kPairs[i][1]);
    release(&text);
  }
}

/* ---- custom[...] types through the frontend's global functions ---- */

static int g_custom_mode = 0; /* 0 normal, 1 wrong return types, 2 raise, 3 code out of range */

static int fail(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

static int custom_code_fn(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  if (num_args != 1 || args[0].type_index != kTVMFFIRawStr) {
    return fail("TypeError", "custom_code_fn: expected one raw string");
  }
  if (g_custom_mode == 2) return fail("KeyError", "no such custom type");
  if (g_custom_mode == 1) {
    result->type_index = kTVMFFIFloat;
    result->v_float64 = 1.5;
    return 0;
  }
  result->type_index = kTVMFFIInt;
  result->v_int64 = g_custom_mode == 3 ? 300 : (strcmp(args[0].v_c_str, "posit") == 0 ? 130 : 131);
  return 0;
}

static int custom_name_fn(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  if (num_args != 1 || args[0].type_index != kTVMFFIInt) {
    return fail("TypeError", "custom_name_fn: expected one int");
  }
  if (g_custom_mode == 2) return fail("KeyError", "no such custom code");
  if (g_custom_mode == 1) {
    result->type_index = kTVMFFIInt;
    result->v_int64 = 1;
    return 0;
  }
  /* A name longer than 7 bytes comes back as a Str object that ToString must release. */
  TVMFFIByteArray name = check_ba(args[0].v_int64 == 130 ? "posit" : "a_long_custom_name");
  return TVMFFIStringFromByteArray(&name, result);
}

static void register_global(const char* name, TVMFFISafeCallType fn) {
  TVMFFIObjectHandle f = NULL;
  CHECK_EQ_INT(TVMFFIFunctionCreate(NULL, fn, NULL, &f), 0);
  TVMFFIByteArray key = check_ba(name);
  CHECK_EQ_INT(TVMFFIFunctionSetGlobal(&key, f, 1), 0);
  TVMFFIObjectDecRef(f); /* the registry keeps its own reference */
}

static void test_custom_types_without_frontend_functions(void) {
  DLDataType out;
  CHECK_EQ_INT(parse("custom[posit]16", &out), -1);
  CHECK_RAISED("ValueError", "dtype.get_custom_type_code");
  DLDataType d = dt(130, 16, 1);
  TVMFFIAny text;
  memset(&text, 0, sizeof(text));
  CHECK_EQ_INT(TVMFFIDataTypeToString(&d, &text), -1);
  CHECK_RAISED("ValueError", "dtype.get_custom_type_name");
}

static void test_custom_types_with_frontend_functions(void) {
  register_global("dtype.get_custom_type_code", custom_code_fn);
  register_global("dtype.get_custom_type_name", custom_name_fn);
  g_custom_mode = 0;
  CHECK_PARSES("custom[posit]", 130, 32, 1);
  CHECK_PARSES("custom[posit]16", 130, 16, 1);
  CHECK_PARSES("custom[posit]16x4", 130, 16, 4);
  CHECK_PARSES("custom[other]xvscalex4", 131, 32, 65532);
  CHECK_PARSES("custom[]8", 131, 8, 1);
  /* Custom names print without bits, like the other named codes. */
  CHECK_PRINTS(130, 16, 4, "custom[posit]x4");
  CHECK_PRINTS(131, 8, 1, "custom[a_long_custom_name]");
  CHECK_PRINTS(255, 8, 65534, "custom[a_long_custom_name]xvscalex2");

  DLDataType out;
  CHECK_EQ_INT(parse("custom[posit]16q", &out), -1);
  CHECK_RAISED("ValueError", "unknown dtype `custom[posit]16q`");

  DLDataType d = dt(130, 16, 1);
  TVMFFIAny text;
  memset(&text, 0, sizeof(text));
  g_custom_mode = 1;
  CHECK_EQ_INT(parse("custom[posit]", &out), -1);
  CHECK_RAISED("TypeError", "dtype.get_custom_type_code must return an int, got float");
  CHECK_EQ_INT(TVMFFIDataTypeToString(&d, &text), -1);
  CHECK_RAISED("TypeError", "dtype.get_custom_type_name must return a str, got int");
  g_custom_mode = 2; /* the callee's own error comes back unchanged */
  CHECK_EQ_INT(parse("custom[posit]", &out), -1);
  CHECK_RAISED("KeyError", "no such custom type");
  CHECK_EQ_INT(TVMFFIDataTypeToString(&d, &text), -1);
  CHECK_RAISED("KeyError", "no such custom code");
  g_custom_mode = 3;
  CHECK_EQ_INT(parse("custom[posit]", &out), -1);
  CHECK_RAISED("ValueError", "returned 300 for `posit`, expected 0..255");
  g_custom_mode = 0;
}

int main(void) {
  RUN(test_parse_every_grammar_row);
  RUN(test_parse_fixed_width_floats_in_every_spelling);
  RUN(test_parse_lanes_and_scalable_vectors);
  RUN(test_parse_bad_strings);
  RUN(test_parse_long_input_is_cut_in_the_message);
  RUN(test_parse_rejects_null_arguments);
  RUN(test_print_table);
  RUN(test_print_returns_owned_strings);
  RUN(test_print_errors);
  RUN(test_round_trip_all_codes_bits_lanes);
  RUN(test_round_trip_every_alias);
  RUN(test_custom_types_without_frontend_functions);
  RUN(test_custom_types_with_frontend_functions);
  return CHECK_MAIN_RESULT();
}
