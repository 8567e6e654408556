// extra_headers_kernel.cc -- exports functions written with the reference's "extra" headers
// (stl.h, expected.h, big_int.h, base64.h, dtype.h, endian.h); built against our headers and
// against the reference's, the two libraries must answer every call alike
// (tests/compat/test_extra_headers_both_ways.py).
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/endian.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/base64.h>
#include <tvm/ffi/extra/dtype.h>
#include <tvm/ffi/extra/stl.h>
#include <tvm/ffi/tvm_ffi.h>

#include <sstream>

namespace ffi = tvm::ffi;

int64_t StlSum(const std::vector<int64_t>& xs) {
  int64_t total = 0;
  for (int64_t x : xs) total += x;
  return total;
}
std::vector<std::string> StlReverse(std::vector<std::string> words) {
  return std::vector<std::string>(words.rbegin(), words.rend());
}
std::tuple<int64_t, std::string, bool> StlSplit(int64_t x) {
  return {x / 10, std::to_string(x % 10), x % 2 == 0};
}
std::unordered_map<int64_t, std::string> StlInvert(const std::map<std::string, int64_t>& m) {
  std::unordered_map<int64_t, std::string> out;
  for (const auto& [key, value] : m) out[value] = key;
  return out;
}
std::optional<std::string> StlOptional(std::optional<int64_t> x) {
  if (!x.has_value()) return std::nullopt;
  return "got " + std::to_string(*x);
}
int64_t StlVariant(const std::variant<int64_t, double, std::string>& v) {
  return static_cast<int64_t>(v.index());
}
int64_t StlApply(std::function<int64_t(int64_t, int64_t)> f, int64_t x) { return f(x, x + 1); }
double StlArray(std::array<double, 3> xs) { return xs[0] + xs[1] + xs[2]; }
std::vector<std::vector<int64_t>> StlNested(int64_t n) {
  std::vector<std::vector<int64_t>> out;
  for (int64_t i = 0; i < n; ++i) out.push_back(std::vector<int64_t>(static_cast<size_t>(i), i));
  return out;
}

ffi::Expected<int64_t> ExpectedDivide(int64_t a, int64_t b) {
  TVM_FFI_RET_CHECK_NE(b, 0, ValueError) << "cannot divide by zero";
  return a / b;
}
ffi::String CallExpected(ffi::Function f, int64_t x) {
  ffi::Expected<int64_t> r = f.CallExpected<int64_t>(x);
  if (r.is_ok()) return "ok:" + std::to_string(r.value());
  return "err:" + r.error().kind() + ":" + r.error().message();
}

ffi::String Base64Encode(ffi::Bytes data) { return ffi::Base64Encode(data); }
ffi::Bytes Base64Decode(ffi::String text) { return ffi::Base64Decode(text); }

std::vector<DLDataType> DtypeTraits() {
  return {ffi::dtype_trait<int8_t>::value,   ffi::dtype_trait<uint16_t>::value,
          ffi::dtype_trait<int32_t>::value,  ffi::dtype_trait<uint64_t>::value,
          ffi::dtype_trait<float>::value,    ffi::dtype_trait<double>::value,
          ffi::dtype_trait<bool>::value,     ffi::dtype_trait<__half>::value,
          ffi::dtype_trait<__nv_bfloat16>::value, ffi::dtype_trait<__nv_fp8_e4m3>::value,
          ffi::dtype_trait<__nv_fp4x2_e2m1>::value, ffi::dtype_trait<__hip_fp8_e5m2_fnuz>::value};
}

int64_t ByteSwap32(int64_t x) {
  uint32_t v = static_cast<uint32_t>(x);
  ffi::ByteSwap(&v, sizeof(v), 1);
  return static_cast<int64_t>(v);
}

std::vector<ffi::BigInt> BigIntOps(ffi::BigInt a, ffi::BigInt b) {
  using ffi::BigInt;
  std::vector<BigInt> out = {a + b, a - b, a * b, a & b, a | b, a ^ b, ~a, -a, a << 5, a >> 3,
                             ffi::min(a, b), ffi::max(a, b), BigInt(a < b), BigInt(a == b)};
  if (b != 0) {
    out.insert(out.end(), {a / b, a % b, ffi::floordiv(a, b), ffi::floormod(a, b)});
  }
  return out;
}
std::string BigIntText(ffi::BigInt a) {
  std::ostringstream os;
  os << a;
  return os.str();
}
double BigIntToDouble(ffi::BigInt a) { return static_cast<double>(a); }
ffi::BigInt BigIntFromDouble(double x) { return ffi::BigInt(x); }
ffi::BigInt BigIntParse(std::string text) {
  std::istringstream is(text);
  ffi::BigInt v;
  is >> v;
  return v;
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(stl_sum, StlSum);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(stl_reverse, StlReverse);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(stl_split, StlSplit);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(stl_invert, StlInvert);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(stl_optional, StlOptional);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(stl_variant, StlVariant);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(stl_apply, StlApply);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(stl_array, StlArray);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(stl_nested, StlNested);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(expected_divide, ExpectedDivide);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_expected, CallExpected);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(base64_encode, Base64Encode);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(base64_decode, Base64Decode);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(dtype_traits, DtypeTraits);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(byteswap32, ByteSwap32);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(bigint_ops, BigIntOps);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(bigint_text, BigIntText);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(bigint_to_double, BigIntToDouble);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(bigint_from_double, BigIntFromDouble);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(bigint_parse, BigIntParse);
