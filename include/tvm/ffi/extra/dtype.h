/*
 * tvm/ffi/extra/dtype.h -- dtype_trait<T>::value: the DLDataType of a C++ element type, for
 * kernels that check a tensor's dtype against their template parameter. Covers the standard
 * integer and floating types, bool, and the CUDA/HIP half, bfloat16, fp8 and fp4 types (declared
 * here only by name, so no CUDA or HIP header is needed).
 */
#ifndef TVM_FFI_EXTRA_DTYPE_H_
#define TVM_FFI_EXTRA_DTYPE_H_

#include <dlpack/dlpack.h>
#include <tvm/ffi/base_detail.h>

#include <cstdint>
#include <type_traits>

// CUDA element types (cuda_fp16.h, cuda_bf16.h, cuda_fp8.h, cuda_fp4.h).
struct __half;
struct __nv_bfloat16;
struct __nv_fp8_e4m3;
struct __nv_fp8_e5m2;
struct __nv_fp8_e8m0;
struct __nv_fp4_e2m1;
struct __nv_fp4x2_e2m1;
// HIP element types (hip_bf16.h, hip_fp8.h, hip_fp4.h).
struct __hip_bfloat16;
struct hip_bfloat16;
struct __hip_fp8_e4m3;
struct __hip_fp8_e4m3_fnuz;
struct __hip_fp8_e5m2;
struct __hip_fp8_e5m2_fnuz;
struct __hip_fp4_e2m1;
struct __hip_fp4x2_e2m1;

namespace tvm {
namespace ffi {

/*!
 * \brief The DLDataType of element type T as `static constexpr DLDataType value`; types without
 * a specialization have no `value`, so using them fails to compile.
 */
template <typename T>
struct dtype_trait {};

namespace detail {
namespace dtypes {
/*! \brief A DLDataType of one lane. */
constexpr DLDataType Scalar(uint8_t code, uint8_t bits, uint16_t lanes = 1) {
  return DLDataType{code, bits, lanes};
}
/*! \brief Signed integers are kDLInt, unsigned kDLUInt, with the type's width in bits. */
template <typename T>
struct integer_trait {
  static constexpr DLDataType value =
      Scalar(std::is_signed_v<T> ? kDLInt : kDLUInt, static_cast<uint8_t>(sizeof(T) * 8));
};
/*! \brief IEEE floating types are kDLFloat with the type's width in bits. */
template <typename T>
struct float_trait {
  static constexpr DLDataType value = Scalar(kDLFloat, static_cast<uint8_t>(sizeof(T) * 8));
};
/*! \brief A fixed dtype for an opaque element type. */
template <uint8_t Code, uint8_t Bits, uint16_t Lanes = 1>
struct fixed_trait {
  static constexpr DLDataType value = Scalar(Code, Bits, Lanes);
};
}  // namespace dtypes
}  // namespace detail

// clang-format off
template <> struct dtype_trait<signed char> : detail::dtypes::integer_trait<signed char> {};
template <> struct dtype_trait<unsigned char> : detail::dtypes::integer_trait<unsigned char> {};
template <> struct dtype_trait<signed short> : detail::dtypes::integer_trait<signed short> {};
template <> struct dtype_trait<unsigned short> : detail::dtypes::integer_trait<unsigned short> {};
template <> struct dtype_trait<signed int> : detail::dtypes::integer_trait<signed int> {};
template <> struct dtype_trait<unsigned int> : detail::dtypes::integer_trait<unsigned int> {};
template <> struct dtype_trait<signed long> : detail::dtypes::integer_trait<signed long> {};
template <> struct dtype_trait<unsigned long> : detail::dtypes::integer_trait<unsigned long> {};
template <> struct dtype_trait<signed long long> : detail::dtypes::integer_trait<signed long long> {};
template <> struct dtype_trait<unsigned long long>
    : detail::dtypes::integer_trait<unsigned long long> {};
template <> struct dtype_trait<float> : detail::dtypes::float_trait<float> {};
template <> struct dtype_trait<double> : detail::dtypes::float_trait<double> {};
// bool is one byte per element in DLPack.
template <> struct dtype_trait<bool> : detail::dtypes::fixed_trait<kDLBool, 8> {};

template <> struct dtype_trait<__half> : detail::dtypes::fixed_trait<kDLFloat, 16> {};
template <> struct dtype_trait<__nv_bfloat16> : detail::dtypes::fixed_trait<kDLBfloat, 16> {};
template <> struct dtype_trait<__nv_fp8_e4m3> : detail::dtypes::fixed_trait<kDLFloat8_e4m3fn, 8> {};
template <> struct dtype_trait<__nv_fp8_e5m2> : detail::dtypes::fixed_trait<kDLFloat8_e5m2, 8> {};
template <> struct dtype_trait<__nv_fp8_e8m0>
    : detail::dtypes::fixed_trait<kDLFloat8_e8m0fnu, 8> {};
template <> struct dtype_trait<__nv_fp4_e2m1> : detail::dtypes::fixed_trait<kDLFloat4_e2m1fn, 4> {};
// Two fp4 values packed in one byte: two lanes of 4 bits.
template <> struct dtype_trait<__nv_fp4x2_e2m1>
    : detail::dtypes::fixed_trait<kDLFloat4_e2m1fn, 4, 2> {};

template <> struct dtype_trait<__hip_bfloat16> : detail::dtypes::fixed_trait<kDLBfloat, 16> {};
template <> struct dtype_trait<hip_bfloat16> : detail::dtypes::fixed_trait<kDLBfloat, 16> {};
template <> struct dtype_trait<__hip_fp8_e4m3>
    : detail::dtypes::fixed_trait<kDLFloat8_e4m3fn, 8> {};
template <> struct dtype_trait<__hip_fp8_e4m3_fnuz>
    : detail::dtypes::fixed_trait<kDLFloat8_e4m3fnuz, 8> {};
template <> struct dtype_trait<__hip_fp8_e5m2> : detail::dtypes::fixed_trait<kDLFloat8_e5m2, 8> {};
template <> struct dtype_trait<__hip_fp8_e5m2_fnuz>
    : detail::dtypes::fixed_trait<kDLFloat8_e5m2fnuz, 8> {};
template <> struct dtype_trait<__hip_fp4_e2m1>
    : detail::dtypes::fixed_trait<kDLFloat4_e2m1fn, 4> {};
template <> struct dtype_trait<__hip_fp4x2_e2m1>
    : detail::dtypes::fixed_trait<kDLFloat4_e2m1fn, 4, 2> {};
// clang-format on

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_DTYPE_H_
