// test_extra_utils.cc -- extra/base64.h, extra/dtype.h, endian.h and container/container_detail.h.
#include <tvm/ffi/container/container_detail.h>
#include <tvm/ffi/endian.h>
#include <tvm/ffi/extra/base64.h>
#include <tvm/ffi/extra/dtype.h>
#include <tvm/ffi/tvm_ffi.h>

#include <cstring>
#include <vector>

#include "check.h"

namespace ffi = tvm::ffi;

std::string Encode(const std::string& raw) {
  return std::string(ffi::Base64Encode(TVMFFIByteArray{raw.data(), raw.size()}));
}
std::string Decode(const std::string& text) {
  ffi::Bytes out = ffi::Base64Decode(TVMFFIByteArray{text.data(), text.size()});
  return std::string(out.data(), out.size());
}

void test_base64_round_trips_rfc4648_vectors() {
  // RFC 4648 section 10 test vectors.
  const char* vectors[][2] = {{"", ""},           {"f", "Zg=="},         {"fo", "Zm8="},
                              {"foo", "Zm9v"},    {"foob", "Zm9vYg=="},  {"fooba", "Zm9vYmE="},
                              {"foobar", "Zm9vYmFy"}};
  for (const auto& v : vectors) {
    CHECK_EQ(Encode(v[0]), std::string(v[1]));
    CHECK_EQ(Decode(v[1]), std::string(v[0]));
  }
  std::string all_bytes;
  for (int i = 0; i < 256; ++i) all_bytes.push_back(static_cast<char>(i));
  CHECK_EQ(Decode(Encode(all_bytes)), all_bytes);
  CHECK_EQ(Encode(std::string("\xfb\xff", 2)), std::string("+/8="));
  // Bytes and String overloads.
  ffi::String text = ffi::Base64Encode(ffi::Bytes(std::string("hello")));
  CHECK_EQ(std::string(text), std::string("aGVsbG8="));
  ffi::Bytes raw = ffi::Base64Decode(text);
  CHECK_EQ(std::string(raw.data(), raw.size()), std::string("hello"));
}

void test_base64_rejects_malformed_text() {
  CHECK_THROWS(Decode("abc"), "ValueError", "not a multiple of 4");
  CHECK_THROWS(Decode("ab!d"), "ValueError", "unexpected character at offset 2");
  CHECK_THROWS(Decode("a==="), "ValueError", "unexpected character at offset 1");
  CHECK_THROWS(Decode("Zg==Zg=="), "ValueError", "unexpected character at offset 2");
}

void test_dtype_trait_names_element_types() {
  constexpr DLDataType f32 = ffi::dtype_trait<float>::value;
  static_assert(f32.code == kDLFloat && f32.bits == 32 && f32.lanes == 1);
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<double>::value)), "float64");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<int8_t>::value)), "int8");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<uint16_t>::value)), "uint16");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<int32_t>::value)), "int32");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<uint64_t>::value)), "uint64");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<long long>::value)), "int64");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<bool>::value)), "bool");
  // Accelerator element types are only declared: the traits work without CUDA/HIP headers.
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<__half>::value)), "float16");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<__nv_bfloat16>::value)),
           "bfloat16");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<__nv_fp8_e4m3>::value)),
           "float8_e4m3fn");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<__nv_fp8_e5m2>::value)),
           "float8_e5m2");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<__nv_fp8_e8m0>::value)),
           "float8_e8m0fnu");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<__nv_fp4_e2m1>::value)),
           "float4_e2m1fn");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<__nv_fp4x2_e2m1>::value)),
           "float4_e2m1fnx2");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<__hip_bfloat16>::value)),
           "bfloat16");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<hip_bfloat16>::value)),
           "bfloat16");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<__hip_fp8_e4m3>::value)),
           "float8_e4m3fn");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<__hip_fp8_e4m3_fnuz>::value)),
           "float8_e4m3fnuz");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<__hip_fp8_e5m2>::value)),
           "float8_e5m2");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<__hip_fp8_e5m2_fnuz>::value)),
           "float8_e5m2fnuz");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<__hip_fp4_e2m1>::value)),
           "float4_e2m1fn");
  CHECK_EQ(std::string(ffi::DLDataTypeToString(ffi::dtype_trait<__hip_fp4x2_e2m1>::value)),
           "float4_e2m1fnx2");
}

void test_endian_swap_and_host_order() {
  uint32_t word = 0x01020304;
  unsigned char first;
  std::memcpy(&first, &word, 1);
  CHECK_EQ(TVM_FFI_LITTLE_ENDIAN, first == 0x04 ? 1 : 0);
  CHECK_EQ(TVM_FFI_IO_NO_ENDIAN_SWAP, TVM_FFI_LITTLE_ENDIAN == TVM_FFI_IO_USE_LITTLE_ENDIAN);
  uint32_t words[2] = {0x11223344u, 0xAABBCCDDu};
  ffi::ByteSwap(words, sizeof(uint32_t), 2);
  CHECK_EQ(words[0], 0x44332211u);
  CHECK_EQ(words[1], 0xDDCCBBAAu);
  uint16_t half = 0x0102;
  ffi::ByteSwap(&half, 2, 1);
  CHECK_EQ(half, 0x0201);
  uint8_t bytes[3] = {1, 2, 3};
  ffi::ByteSwap(bytes, 1, 3);  // single bytes: nothing to swap
  CHECK_EQ(bytes[2], 3);
}

struct TimesTen {
  using ResultType = int64_t;
  static int64_t convert(int v) { return int64_t{v} * 10; }
};

void test_container_detail_iterators_and_names() {
  std::vector<int> values{1, 2, 3};
  using It = ffi::detail::IterAdapter<TimesTen, std::vector<int>::const_iterator>;
  It begin(values.cbegin()), end(values.cend());
  CHECK_EQ(end - begin, 3);
  CHECK_EQ(*begin, 10);
  CHECK_EQ(*(begin + 2), 30);
  It it = begin;
  CHECK_EQ(*(it++), 10);
  CHECK_EQ(*it, 20);
  ++it;
  it -= 2;
  CHECK(it == begin);
  it += 1;
  CHECK_EQ(*(it - 1), 10);
  CHECK_EQ(*(--it + 1), 20);
  CHECK(it != end);
  int64_t total = 0;
  for (It i = begin; i != end; ++i) total += *i;
  CHECK_EQ(total, 60);

  using Rev = ffi::detail::ReverseIterAdapter<TimesTen, std::vector<int>::const_iterator>;
  Rev rbegin(values.cend() - 1), rend(values.cbegin() - 1);
  CHECK_EQ(*rbegin, 30);
  CHECK_EQ(rend - rbegin, 3);
  Rev r = rbegin;
  CHECK_EQ(*(r++), 30);
  CHECK_EQ(*(r + 1), 10);
  r--;
  CHECK(r == rbegin);
  CHECK_EQ(*(++r), 20);
  CHECK_EQ(*(--r), 30);
  CHECK(r != rend);

  static_assert(ffi::detail::storage_enabled_v<ffi::Any>);
  static_assert(ffi::detail::storage_enabled_v<int>);
  static_assert(!ffi::detail::storage_enabled_v<ffi::AnyView>);
  static_assert(ffi::detail::all_storage_enabled_v<int, ffi::String, ffi::Array<int>>);
  static_assert(!ffi::detail::all_storage_enabled_v<int, ffi::AnyView>);
  static_assert(ffi::detail::all_object_ref_v<ffi::Map<int, int>, ffi::Array<int>, ffi::Function>);
  static_assert(!ffi::detail::all_object_ref_v<ffi::Array<int>, int>);
  CHECK_EQ((ffi::detail::ContainerTypeStr<int, ffi::String, ffi::Array<double>>("Tuple")),
           std::string("Tuple<int, str, Array<float>>"));
  CHECK_EQ((ffi::detail::ContainerTypeSchema<int, bool>("Tuple")),
           std::string(R"({"type":"Tuple","args":[{"type":"int"},{"type":"bool"}]})"));
}

int main() {
  RUN(test_base64_round_trips_rfc4648_vectors);
  RUN(test_base64_rejects_malformed_text);
  RUN(test_dtype_trait_names_element_types);
  RUN(test_endian_swap_and_host_order);
  RUN(test_container_detail_iterators_and_names);
  return CHECK_MAIN_RESULT();
}
