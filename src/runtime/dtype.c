/*
 * dtype.c -- DLDataType <-> string (TVMFFIDataTypeFromString / TVMFFIDataTypeToString).
 *
 * Grammar accepted by TVMFFIDataTypeFromString:
 *   ""  |  "void"                                   -> opaque handle, 0 bits, 0 lanes
 *   <family>[<bits>]<lanes>                         family: int uint float bfloat bool handle
 *   <alias><bits><lanes>                            alias: i u f bf (bits required)
 *   (float|fp|f)(8|6|4)_<variant>["x"<L>]           fixed-width floats; float4 also "_x"<L>
 *   custom[<name>][<bits>]<lanes>                   code from global dtype.get_custom_type_code
 *   <lanes> := "" | "x"<L> | "xvscalex"<L>          L in 1..65535; scalable stores (uint16)(-L)
 * A missing or zero <bits> means the family's default (32; bfloat 16, bool 8, handle 64).
 *
 * The input is an arbitrary (data, size) byte range from the caller, so the parser never reads
 * past `size`, rejects NUL bytes, and saturates numbers instead of overflowing.
 */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

enum {
  kCustomCodeBegin = 129,      /* DLExtDataTypeCode kDLExtCustomBegin */
  kMaxBits = 255,              /* DLDataType.bits is a uint8_t */
  kMaxLanes = 65535,           /* DLDataType.lanes is a uint16_t */
  kMessageShownBytes = 128,    /* longer inputs are cut in error messages */
};

/* Fixed-width float formats: the name fixes both code and bits. Names all start "floatN_". */
typedef struct {
  uint8_t code;
  uint8_t bits;
  const char* name;
} FixedFloat;

static const FixedFloat kFixedFloats[] = {
    {kDLFloat8_e3m4, 8, "float8_e3m4"},
    {kDLFloat8_e4m3, 8, "float8_e4m3"},
    {kDLFloat8_e4m3b11fnuz, 8, "float8_e4m3b11fnuz"},
    {kDLFloat8_e4m3fn, 8, "float8_e4m3fn"},
    {kDLFloat8_e4m3fnuz, 8, "float8_e4m3fnuz"},
    {kDLFloat8_e5m2, 8, "float8_e5m2"},
    {kDLFloat8_e5m2fnuz, 8, "float8_e5m2fnuz"},
    {kDLFloat8_e8m0fnu, 8, "float8_e8m0fnu"},
    {kDLFloat6_e2m3fn, 6, "float6_e2m3fn"},
    {kDLFloat6_e3m2fn, 6, "float6_e3m2fn"},
    {kDLFloat4_e2m1fn, 4, "float4_e2m1fn"},
};
enum { kFixedFloatCount = sizeof(kFixedFloats) / sizeof(kFixedFloats[0]) };
static const size_t kFixedPrefixLen = 7; /* strlen("float8_") */

/* Families whose bits are written as a number after the name. */
typedef struct {
  const char* prefix;
  uint8_t code;
  uint8_t default_bits;
  bool needs_bits; /* the short aliases are only recognised with digits after them */
} Family;

/* Order matters: full names before the one- and two-letter aliases that prefix them. */
static const Family kFamilies[] = {
    {"int", kDLInt, 32, false},      {"uint", kDLUInt, 32, false},
    {"float", kDLFloat, 32, false},  {"bfloat", kDLBfloat, 16, false},
    {"bool", kDLBool, 8, false},     {"handle", kDLOpaqueHandle, 64, false},
    {"i", kDLInt, 32, true},         {"u", kDLUInt, 32, true},
    {"f", kDLFloat, 32, true},       {"bf", kDLBfloat, 16, true},
};
enum { kFamilyCount = sizeof(kFamilies) / sizeof(kFamilies[0]) };

/* ---- error reporting ---- */

/* Copies at most kMessageShownBytes of s into buf, escaping bytes that are not printable ASCII
 * so that NULs and control characters stay visible in the message. */
static void escape_for_message(const char* s, size_t n, char* buf, size_t cap) {
  size_t shown = n < kMessageShownBytes ? n : kMessageShownBytes;
  size_t w = 0;
  for (size_t i = 0; i < shown && w + 5 < cap; ++i) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c < 0x7f) {
      buf[w++] = (char)c;
    } else {
      w += (size_t)snprintf(buf + w, cap - w, "\\x%02x", c);
    }
  }
  if (shown < n && w + 4 < cap) {
    memcpy(buf + w, "...", 3);
    w += 3;
  }
  buf[w] = '\0';
}

/* Raises ValueError "unknown dtype `<s>`" plus an optional reason; returns -1. */
static int bad_dtype(const char* s, size_t n, const char* reason) {
  char shown[kMessageShownBytes * 4 + 8];
  escape_for_message(s, n, shown, sizeof(shown));
  if (reason == NULL) return ffi_raise("ValueError", "unknown dtype `%s`", shown);
  return ffi_raise("ValueError", "unknown dtype `%s`: %s", shown, reason);
}

/* ---- small scanning helpers over (s, n) ---- */

static bool has_prefix_at(const char* s, size_t n, size_t pos, const char* lit) {
  size_t len = strlen(lit);
  return pos <= n && n - pos >= len && memcmp(s + pos, lit, len) == 0;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Reads a run of decimal digits at *pos (any length, leading zeros allowed). The value
 * saturates at limit + 1, so "too large" is detectable without overflow. Returns the number
 * of digits read. */
static size_t scan_number(const char* s, size_t n, size_t* pos, uint32_t limit, uint32_t* value) {
  size_t start = *pos;
  uint64_t v = 0;
  while (*pos < n && is_digit(s[*pos])) {
    v = v * 10 + (uint64_t)(s[*pos] - '0');
    if (v > (uint64_t)limit) v = (uint64_t)limit + 1;
    ++*pos;
  }
  *value = (uint32_t)v;
  return *pos - start;
}

/* Parses the lanes suffix starting at pos, which must run to the end of the string. */
static int parse_lanes(const char* s, size_t n, size_t pos, bool allow_scalable,
                       uint16_t* lanes) {
  if (pos == n) {
    *lanes = 1;
    return 0;
  }
  bool scalable = false;
  if (has_prefix_at(s, n, pos, "xvscalex")) {
    if (!allow_scalable) return bad_dtype(s, n, "this type has no scalable vector form");
    scalable = true;
    pos += 8;
  } else if (s[pos] == 'x') {
    pos += 1;
  } else {
    return bad_dtype(s, n, NULL);
  }
  uint32_t count = 0;
  if (scan_number(s, n, &pos, kMaxLanes, &count) == 0) {
    return bad_dtype(s, n, "expected the number of lanes after `x`");
  }
  if (pos != n) return bad_dtype(s, n, NULL);
  if (count == 0 || count > kMaxLanes) {
    return bad_dtype(s, n, "lanes must be between 1 and 65535");
  }
  /* A scalable vector of vscale * L lanes is stored as the 16-bit pattern of -L. */
  *lanes = scalable ? (uint16_t)(0x10000u - count) : (uint16_t)count;
  return 0;
}

/* Parses optional bits then the lanes suffix, from pos to the end. */
static int parse_bits_and_lanes(const char* s, size_t n, size_t pos, uint8_t code,
                                uint8_t default_bits, bool needs_bits, DLDataType* out) {
  uint32_t bits = 0;
  size_t digits = scan_number(s, n, &pos, kMaxBits, &bits);
  if (digits == 0 && needs_bits) return bad_dtype(s, n, NULL);
  if (bits > kMaxBits) return bad_dtype(s, n, "bits must be at most 255");
  uint16_t lanes = 0;
  if (parse_lanes(s, n, pos, true, &lanes) != 0) return -1;
  out->code = code;
  out->bits = bits == 0 ? default_bits : (uint8_t)bits;
  out->lanes = lanes;
  return 0;
}

/* ---- fixed-width floats: float8_*, float6_*, float4_* and their fp/f spellings ---- */

/* Returns the width (8, 6 or 4) if s starts with one of the fixed-float prefixes, else 0. */
static int fixed_float_width(const char* s, size_t n, size_t* pos) {
  static const char* const kSpellings[] = {"float", "fp", "f"};
  for (size_t i = 0; i < 3; ++i) {
    size_t len = strlen(kSpellings[i]);
    if (!has_prefix_at(s, n, 0, kSpellings[i]) || n < len + 2 || s[len + 1] != '_') continue;
    char w = s[len];
    if (w == '8' || w == '6' || w == '4') {
      *pos = len + 2;
      return w - '0';
    }
  }
  return 0;
}

static int parse_fixed_float(const char* s, size_t n, size_t pos, int width, DLDataType* out) {
  /* Longest variant wins: "e4m3fnuz" must not stop at "e4m3fn" or "e4m3". */
  const FixedFloat* best = NULL;
  size_t best_len = 0;
  for (size_t i = 0; i < kFixedFloatCount; ++i) {
    if (kFixedFloats[i].bits != width) continue;
    const char* variant = kFixedFloats[i].name + kFixedPrefixLen;
    size_t len = strlen(variant);
    if (len > best_len && has_prefix_at(s, n, pos, variant)) {
      best = &kFixedFloats[i];
      best_len = len;
    }
  }
  if (best == NULL) return bad_dtype(s, n, "unknown fixed-width float variant");
  pos += best_len;
  /* float4 lanes may also be written "_x2" (two values share a byte). */
  if (best->code == kDLFloat4_e2m1fn && has_prefix_at(s, n, pos, "_x")) pos += 1;
  uint16_t lanes = 0;
  if (parse_lanes(s, n, pos, false, &lanes) != 0) return -1;
  out->code = best->code;
  out->bits = best->bits;
  out->lanes = lanes;
  return 0;
}

/* ---- custom[<name>] via the frontend-provided global functions ---- */

/* Calls global function `fname` with one argument. *found is false (and nothing raised) when
 * the function is not registered. result is an owned Any on success. */
static int call_global1(const char* fname, TVMFFIAny* arg, TVMFFIAny* result, bool* found) {
  TVMFFIByteArray name = {fname, strlen(fname)};
  TVMFFIObjectHandle func = NULL;
  *found = false;
  *result = ffi_any_none();
  if (TVMFFIFunctionGetGlobal(&name, &func) != 0) return -1;
  if (func == NULL) return 0;
  *found = true;
  int rc = TVMFFIFunctionCall(func, arg, 1, result);
  ffi_decref((TVMFFIObject*)func);
  return rc;
}

static int parse_custom(const char* s, size_t n, DLDataType* out) {
  size_t open = 6; /* strlen("custom") */
  if (open >= n || s[open] != '[') return bad_dtype(s, n, "expected `custom[<name>]`");
  const char* close = memchr(s + open + 1, ']', n - open - 1);
  if (close == NULL) return bad_dtype(s, n, "missing `]` after the custom type name");
  size_t name_len = (size_t)(close - (s + open + 1));
  /* The callee gets a NUL-terminated raw string; the input has no NULs (checked earlier). */
  char* name = (char*)malloc(name_len + 1);
  if (name == NULL) return ffi_raise("MemoryError", "TVMFFIDataTypeFromString: out of memory");
  memcpy(name, s + open + 1, name_len);
  name[name_len] = '\0';
  TVMFFIAny arg = ffi_any_none();
  arg.type_index = kTVMFFIRawStr;
  arg.v_c_str = name;
  TVMFFIAny result;
  bool found = false;
  int rc = call_global1("dtype.get_custom_type_code", &arg, &result, &found);
  free(name);
  if (rc != 0) return rc;
  if (!found) {
    return bad_dtype(s, n,
                     "custom types need the global function `dtype.get_custom_type_code`, "
                     "which is not registered");
  }
  if (result.type_index != kTVMFFIInt) {
    TVMFFIByteArray key = ffi_type_key_of(result.type_index);
    ffi_any_release(&result);
    return ffi_raise("TypeError", "dtype.get_custom_type_code must return an int, got %.*s",
                     (int)key.size, key.data);
  }
  int64_t code = result.v_int64;
  if (code < 0 || code > 255) {
    return ffi_raise("ValueError",
                     "dtype.get_custom_type_code returned %lld for `%.*s`, expected 0..255",
                     (long long)code, (int)name_len, s + open + 1);
  }
  size_t pos = (size_t)(close - s) + 1;
  return parse_bits_and_lanes(s, n, pos, (uint8_t)code, 32, false, out);
}

/* ---- TVMFFIDataTypeFromString ---- */

static int parse_dtype(const char* s, size_t n, DLDataType* out) {
  if (n == 0 || (n == 4 && memcmp(s, "void", 4) == 0)) {
    out->code = kDLOpaqueHandle;
    out->bits = 0;
    out->lanes = 0;
    return 0;
  }
  if (memchr(s, '\0', n) != NULL) return bad_dtype(s, n, "contains a NUL byte");
  size_t pos = 0;
  int width = fixed_float_width(s, n, &pos);
  if (width != 0) return parse_fixed_float(s, n, pos, width, out);
  if (has_prefix_at(s, n, 0, "custom")) return parse_custom(s, n, out);
  for (size_t i = 0; i < kFamilyCount; ++i) {
    const Family* f = &kFamilies[i];
    if (!has_prefix_at(s, n, 0, f->prefix)) continue;
    return parse_bits_and_lanes(s, n, strlen(f->prefix), f->code, f->default_bits,
                                f->needs_bits, out);
  }
  return bad_dtype(s, n, NULL);
}

int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out) {
  if (str == NULL || out == NULL) {
    return ffi_raise("ValueError", "TVMFFIDataTypeFromString: str and out must not be NULL");
  }
  if (str->data == NULL && str->size != 0) {
    return ffi_raise("ValueError", "TVMFFIDataTypeFromString: str has size %zu but NULL data",
                     str->size);
  }
  DLDataType parsed;
  if (parse_dtype(str->data, str->size, &parsed) != 0) return -1;
  *out = parsed;
  return 0;
}

/* ---- TVMFFIDataTypeToString ---- */

/* Name of a built-in code (bits not included); NULL for codes without one (complex, gaps). */
static const char* builtin_code_name(uint8_t code) {
  switch (code) {
    case kDLInt: return "int";
    case kDLUInt: return "uint";
    case kDLFloat: return "float";
    case kDLOpaqueHandle: return "handle";
    case kDLBfloat: return "bfloat";
    case kDLBool: return "bool";
    default: break;
  }
  for (size_t i = 0; i < kFixedFloatCount; ++i) {
    if (kFixedFloats[i].code == code) return kFixedFloats[i].name;
  }
  return NULL;
}

/* Asks the frontend for a custom code's name. On success *holder owns the returned string
 * and *name views it. */
static int custom_code_name(uint8_t code, TVMFFIAny* holder, TVMFFIByteArray* name) {
  TVMFFIAny arg = ffi_any_none();
  arg.type_index = kTVMFFIInt;
  arg.v_int64 = code;
  bool found = false;
  int rc = call_global1("dtype.get_custom_type_name", &arg, holder, &found);
  if (rc != 0) return rc;
  if (!found) {
    return ffi_raise("ValueError",
                     "DLDataType has custom type_code=%d, but the global function "
                     "`dtype.get_custom_type_name` is not registered",
                     (int)code);
  }
  if ((holder->type_index != kTVMFFISmallStr && holder->type_index != kTVMFFIStr) ||
      !ffi_string_view(holder, name)) {
    TVMFFIByteArray key = ffi_type_key_of(holder->type_index);
    ffi_any_release(holder);
    return ffi_raise("TypeError", "dtype.get_custom_type_name must return a str, got %.*s",
                     (int)key.size, key.data);
  }
  return 0;
}

/* Writes the bits and lanes suffix of dtype into buf (room for 32 bytes); returns its length. */
static size_t format_suffix(const DLDataType* dtype, char* buf) {
  size_t w = 0;
  /* Only the families whose width varies print it; plain 8-bit bool is just "bool". */
  bool print_bits = dtype->code < kDLFloat8_e3m4 && !(dtype->code == kDLBool && dtype->bits == 8);
  if (print_bits) w += (size_t)snprintf(buf + w, 32 - w, "%u", (unsigned)dtype->bits);
  int16_t lanes = (int16_t)dtype->lanes;
  if (lanes > 1) {
    w += (size_t)snprintf(buf + w, 32 - w, "x%d", (int)lanes);
  } else if (lanes < -1) {
    w += (size_t)snprintf(buf + w, 32 - w, "xvscalex%d", -(int)lanes);
  }
  return w;
}

/* The result uses the small inline form for up to 7 characters, as the ABI asks (the
 * reference always allocates a Str object; readers accept both forms). */
int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out) {
  if (dtype == NULL || out == NULL) {
    return ffi_raise("ValueError", "TVMFFIDataTypeToString: dtype and out must not be NULL");
  }
  if (dtype->code == kDLOpaqueHandle && dtype->bits == 0 && dtype->lanes == 0) {
    return ffi_string_make("", 0, 0, out); /* void */
  }
  TVMFFIAny custom_holder = ffi_any_none();
  TVMFFIByteArray name;
  bool custom = dtype->code >= kCustomCodeBegin;
  if (custom) {
    if (custom_code_name(dtype->code, &custom_holder, &name) != 0) return -1;
  } else {
    name.data = builtin_code_name(dtype->code);
    if (name.data == NULL) {
      return ffi_raise("ValueError", "DLDataType contains unknown type_code=%d",
                       (int)dtype->code);
    }
    name.size = strlen(name.data);
  }
  char suffix[32];
  size_t suffix_len = dtype->code == kDLOpaqueHandle ? 0 : format_suffix(dtype, suffix);
  /* "custom[" + name + "]" + suffix; a custom name can be any length. */
  size_t total = name.size + suffix_len + (custom ? 8 : 0);
  char stack_buf[64];
  char* buf = total <= sizeof(stack_buf) ? stack_buf : (char*)malloc(total);
  int rc = -1;
  if (buf == NULL) {
    ffi_raise("MemoryError", "TVMFFIDataTypeToString: out of memory for %zu bytes", total);
  } else {
    size_t w = 0;
    if (custom) {
      memcpy(buf, "custom[", 7);
      w = 7;
    }
    memcpy(buf + w, name.data, name.size);
    w += name.size;
    if (custom) buf[w++] = ']';
    memcpy(buf + w, suffix, suffix_len);
    w += suffix_len;
    rc = ffi_string_make(buf, w, 0, out);
    if (buf != stack_buf) free(buf);
  }
  ffi_any_release(&custom_holder);
  return rc;
}
