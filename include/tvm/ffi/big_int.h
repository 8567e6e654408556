/*
 * tvm/ffi/big_int.h -- BigInt: an immutable integer of any size that crosses the ABI as an int
 * (kTVMFFIInt) whenever it fits int64_t and as an ffi.BigInt object otherwise, like Python's int.
 *
 * Arithmetic has unbounded signed semantics: + - * never overflow, / and % truncate toward zero,
 * floordiv/floormod round the quotient down, bitwise operators act on infinite two's complement,
 * >> rounds down. Division by zero throws ZeroDivisionError, negative shift counts ValueError.
 * Results that fit int64_t take a fast path with no allocation; wider ones are computed on
 * 32-bit limbs (detail::big_int_ops) and normalized by the runtime (TVMFFIBigIntFromByteArray).
 */
#ifndef TVM_FFI_BIG_INT_H_
#define TVM_FFI_BIG_INT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <istream>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

class BigInt;

namespace detail {
struct BigIntUnsafe;
/*! \brief ffi.BigInt object: header, word count, then the words (least significant first). */
class BigIntObj : public Object {
 public:
  BigIntObj(const BigIntObj&) = delete;
  BigIntObj& operator=(const BigIntObj&) = delete;
  static constexpr int32_t _type_index = TypeIndex::kTVMFFIBigInt;
  static constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC("ffi.BigInt", BigIntObj, Object);

 private:
  size_t size_;  // at +24 (spec/ABI.md); the words follow at +32
  friend struct BigIntUnsafe;
};
}  // namespace detail

/*! \brief An integer of unbounded size (see the file comment for the semantics). */
class BigInt {
 public:
  /*! \brief Borrowed int64 words, least significant first, two's complement. */
  class ArrayView {
   public:
    ArrayView(const int64_t* data, size_t size) : data_(data), size_(size) {}
    const int64_t& operator[](size_t i) const { return data_[i]; }
    size_t size() const { return size_; }

   private:
    const int64_t* data_;
    size_t size_;
  };

  /*! \brief Zero. */
  BigInt() noexcept { Reset(); }
  /*! \brief Any integer of at most 64 bits, exactly (uint64 values above INT64_MAX included). */
  template <typename Int, std::enable_if_t<(std::is_integral_v<Int> && sizeof(Int) <= 8), int> = 0>
  BigInt(Int value) : BigInt() {  // NOLINT(google-explicit-constructor)
    if constexpr (std::is_unsigned_v<Int> && sizeof(Int) == 8) {
      if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        int64_t words[2] = {static_cast<int64_t>(value), 0};
        *this = FromWords(words, 2);
        return;
      }
    }
    data_.v_int64 = static_cast<int64_t>(value);
  }
  /*! \brief A finite double truncated toward zero; NaN: ValueError, infinity: OverflowError. */
  explicit BigInt(double value);
  BigInt(const BigInt& other) : data_(other.data_) {
    if (!IsInline()) detail::ObjectUnsafe::IncRefObjectHandle(data_.v_obj);
  }
  BigInt(BigInt&& other) noexcept : data_(other.data_) { other.Reset(); }
  ~BigInt() { Release(); }
  BigInt& operator=(const BigInt& other) {
    BigInt(other).swap(*this);
    return *this;
  }
  BigInt& operator=(BigInt&& other) noexcept {
    BigInt(std::move(other)).swap(*this);
    return *this;
  }
  void swap(BigInt& other) noexcept { std::swap(data_, other.data_); }

  /*! \brief Non-zero. */
  explicit operator bool() const noexcept { return !IsInline() || data_.v_int64 != 0; }
  /*! \brief The value; OverflowError when it does not fit int64_t. */
  explicit operator int64_t() const {
    if (!IsInline()) TVM_FFI_THROW(OverflowError) << "BigInt does not fit int64_t";
    return data_.v_int64;
  }
  /*! \brief The nearest double; OverflowError beyond the finite range. */
  explicit operator double() const;
  /*! \brief The value as Int, or nullopt when it does not fit. */
  template <typename Int, std::enable_if_t<(std::is_integral_v<Int> && sizeof(Int) <= 8), int> = 0>
  std::optional<Int> as() const;
  /*! \brief A hash equal for equal values (an int's own value when it fits int64_t). */
  uint64_t hash() const;

  BigInt& operator+=(const BigInt& rhs);
  BigInt& operator-=(const BigInt& rhs);
  BigInt& operator*=(const BigInt& rhs);
  BigInt& operator/=(const BigInt& rhs);
  BigInt& operator%=(const BigInt& rhs);
  BigInt& operator&=(const BigInt& rhs);
  BigInt& operator|=(const BigInt& rhs);
  BigInt& operator^=(const BigInt& rhs);
  BigInt& operator<<=(const BigInt& rhs);
  BigInt& operator>>=(const BigInt& rhs);
  BigInt& operator++();
  BigInt& operator--();
  BigInt operator++(int);
  BigInt operator--(int);

 private:
  bool IsInline() const noexcept { return data_.type_index == TypeIndex::kTVMFFIInt; }
  void Reset() noexcept {
    data_.type_index = TypeIndex::kTVMFFIInt;
    data_.zero_padding = 0;
    data_.v_int64 = 0;
  }
  void Release() noexcept {
    if (!IsInline()) detail::ObjectUnsafe::DecRefObjectHandle(data_.v_obj);
    Reset();
  }
  /*! \brief From two's complement words (any length); the runtime picks the canonical form. */
  static BigInt FromWords(const int64_t* words, size_t n) {
    TVMFFIByteArray bytes{reinterpret_cast<const char*>(words), n * sizeof(int64_t)};
    BigInt out;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIBigIntFromByteArray(&bytes, &out.data_));
    return out;
  }

  TVMFFIAny data_;  // kTVMFFIInt, or an owned kTVMFFIBigInt object
  friend struct detail::BigIntUnsafe;
  friend struct TypeTraits<BigInt>;
};

namespace detail {
/*! \brief Raw access to BigInt's representation. */
struct BigIntUnsafe {
  static bool CheckInt64(const BigInt& value) { return value.IsInline(); }
  static bool CheckInt64(const int64_t&) { return true; }
  static int64_t GetInt64(const BigInt& value) { return value.data_.v_int64; }
  static int64_t GetInt64(const int64_t& value) { return value; }
  static BigInt::ArrayView GetArrayView(const BigInt& value) { return GetArrayView(&value.data_); }
  static BigInt::ArrayView GetArrayView(const int64_t& value) { return {&value, 1}; }
  static BigInt::ArrayView GetArrayView(const TVMFFIAny* value) {
    TVMFFIByteArray bytes = TVMFFIBigIntGetContentByteArray(value);
    return {reinterpret_cast<const int64_t*>(bytes.data), bytes.size / sizeof(int64_t)};
  }
  static BigInt FromWords(const std::vector<int64_t>& words) {
    return BigInt::FromWords(words.data(), words.size());
  }
};
}  // namespace detail

}  // namespace ffi
}  // namespace tvm

#include <tvm/ffi/big_int_ops.h>  // IWYU pragma: export

#endif  // TVM_FFI_BIG_INT_H_
