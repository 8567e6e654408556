/*
 * tvm/ffi/big_int_ops.h -- the arithmetic, conversions and TypeTraits of BigInt (included by
 * big_int.h; not meant to be included alone).
 *
 * Values wider than int64 are handled as sign and magnitude, the magnitude in 32-bit limbs
 * (least significant first), so every product fits uint64_t on any compiler. Division is the
 * schoolbook shift-and-subtract over bits for general divisors and limb-by-limb for small ones.
 */
#ifndef TVM_FFI_BIG_INT_OPS_H_
#define TVM_FFI_BIG_INT_OPS_H_

#include <tvm/ffi/big_int.h>

#include <algorithm>

namespace tvm {
namespace ffi {
namespace detail {
namespace big_int_ops {

using Limbs = std::vector<uint32_t>;

/*! \brief A value as sign and magnitude (no trailing zero limbs; zero is empty). */
struct SignMag {
  bool negative = false;
  Limbs mag;
};

inline void Trim(Limbs* x) {
  while (!x->empty() && x->back() == 0) x->pop_back();
}

/*! \brief The two's complement words of a value as sign and magnitude. */
inline SignMag ToSignMag(BigInt::ArrayView words) {
  SignMag out;
  out.negative = words[words.size() - 1] < 0;
  uint64_t carry = 1;
  for (size_t i = 0; i < words.size(); ++i) {
    uint64_t w = static_cast<uint64_t>(words[i]);
    if (out.negative) {  // magnitude = ~x + 1
      w = ~w + carry;
      carry = (carry == 1 && w == 0) ? 1 : 0;
    }
    out.mag.push_back(static_cast<uint32_t>(w));
    out.mag.push_back(static_cast<uint32_t>(w >> 32));
  }
  Trim(&out.mag);
  return out;
}

inline SignMag ToSignMag(const BigInt& value) {
  return ToSignMag(BigIntUnsafe::GetArrayView(value));
}

/*! \brief Sign and magnitude back to a canonical BigInt. */
inline BigInt FromSignMag(bool negative, const Limbs& mag) {
  std::vector<int64_t> words((mag.size() + 1) / 2 + 1, 0);  // one extra word keeps the sign bit
  for (size_t i = 0; i < mag.size(); ++i) {
    uint64_t w = static_cast<uint64_t>(words[i / 2]) | (static_cast<uint64_t>(mag[i]) << (32 * (i % 2)));
    words[i / 2] = static_cast<int64_t>(w);
  }
  if (negative) {
    uint64_t carry = 1;
    for (int64_t& word : words) {
      uint64_t w = ~static_cast<uint64_t>(word) + carry;
      carry = (carry == 1 && w == 0) ? 1 : 0;
      word = static_cast<int64_t>(w);
    }
  }
  return BigIntUnsafe::FromWords(words);
}

inline int CompareMag(const Limbs& a, const Limbs& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

inline Limbs AddMag(const Limbs& a, const Limbs& b) {
  Limbs out(std::max(a.size(), b.size()) + 1, 0);
  uint64_t carry = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    uint64_t sum = carry + (i < a.size() ? a[i] : 0) + (i < b.size() ? b[i] : 0);
    out[i] = static_cast<uint32_t>(sum);
    carry = sum >> 32;
  }
  Trim(&out);
  return out;
}

/*! \brief a - b for |a| >= |b|. */
inline Limbs SubMag(const Limbs& a, const Limbs& b) {
  Limbs out(a.size(), 0);
  int64_t borrow = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    int64_t diff = static_cast<int64_t>(a[i]) - (i < b.size() ? b[i] : 0) - borrow;
    borrow = diff < 0 ? 1 : 0;
    out[i] = static_cast<uint32_t>(diff + (borrow << 32));
  }
  Trim(&out);
  return out;
}

inline Limbs MulMag(const Limbs& a, const Limbs& b) {
  if (a.empty() || b.empty()) return {};
  Limbs out(a.size() + b.size(), 0);
  for (size_t i = 0; i < a.size(); ++i) {
    uint64_t carry = 0;
    for (size_t j = 0; j < b.size(); ++j) {
      uint64_t cur = static_cast<uint64_t>(a[i]) * b[j] + out[i + j] + carry;
      out[i + j] = static_cast<uint32_t>(cur);
      carry = cur >> 32;
    }
    out[i + b.size()] = static_cast<uint32_t>(carry);
  }
  Trim(&out);
  return out;
}

/*! \brief Quotient and remainder of magnitudes; b must be non-zero. */
inline std::pair<Limbs, Limbs> DivModMag(const Limbs& a, const Limbs& b) {
  if (CompareMag(a, b) < 0) return {Limbs{}, a};
  if (b.size() == 1) {  // limb-by-limb short division
    Limbs q(a.size(), 0);
    uint64_t rem = 0;
    for (size_t i = a.size(); i-- > 0;) {
      uint64_t cur = (rem << 32) | a[i];
      q[i] = static_cast<uint32_t>(cur / b[0]);
      rem = cur % b[0];
    }
    Trim(&q);
    Limbs r;
    if (rem != 0) r.push_back(static_cast<uint32_t>(rem));
    return {q, r};
  }
  Limbs q(a.size(), 0), r;
  for (size_t bit = a.size() * 32; bit-- > 0;) {
    // r = r * 2 + next bit of a
    uint32_t carry = (a[bit / 32] >> (bit % 32)) & 1u;
    for (uint32_t& limb : r) {
      uint32_t next = limb >> 31;
      limb = (limb << 1) | carry;
      carry = next;
    }
    if (carry != 0) r.push_back(carry);
    if (CompareMag(r, b) >= 0) {
      r = SubMag(r, b);
      q[bit / 32] |= 1u << (bit % 32);
    }
  }
  Trim(&q);
  return {q, r};
}

inline BigInt Add(const BigInt& a, const BigInt& b, bool negate_b) {
  SignMag x = ToSignMag(a), y = ToSignMag(b);
  if (negate_b && !y.mag.empty()) y.negative = !y.negative;
  if (x.negative == y.negative) return FromSignMag(x.negative, AddMag(x.mag, y.mag));
  if (CompareMag(x.mag, y.mag) >= 0) return FromSignMag(x.negative, SubMag(x.mag, y.mag));
  return FromSignMag(y.negative, SubMag(y.mag, x.mag));
}

inline BigInt Mul(const BigInt& a, const BigInt& b) {
  SignMag x = ToSignMag(a), y = ToSignMag(b);
  return FromSignMag(x.negative != y.negative, MulMag(x.mag, y.mag));
}

/*! \brief Truncating or flooring quotient and remainder. */
inline std::pair<BigInt, BigInt> DivMod(const BigInt& a, const BigInt& b, bool floor) {
  SignMag x = ToSignMag(a), y = ToSignMag(b);
  if (y.mag.empty()) TVM_FFI_THROW(ZeroDivisionError) << "Division by zero";
  auto [q, r] = DivModMag(x.mag, y.mag);
  bool q_negative = x.negative != y.negative;
  if (floor && q_negative && !r.empty()) {  // round the quotient down, move r to b's sign
    q = AddMag(q, Limbs{1});
    r = SubMag(y.mag, r);
    return {FromSignMag(true, q), FromSignMag(y.negative, r)};
  }
  return {FromSignMag(q_negative, q), FromSignMag(x.negative, r)};
}

inline int Compare(const BigInt& a, const BigInt& b) {
  SignMag x = ToSignMag(a), y = ToSignMag(b);
  if (x.negative != y.negative) return x.negative ? -1 : 1;
  int c = CompareMag(x.mag, y.mag);
  return x.negative ? -c : c;
}

/*! \brief Word i of a two's complement value, sign-extended beyond its length. */
inline int64_t WordAt(BigInt::ArrayView x, size_t i) {
  return i < x.size() ? x[i] : (x[x.size() - 1] < 0 ? -1 : 0);
}

template <typename Op>
BigInt Bitwise(const BigInt& a, const BigInt& b, Op op) {
  BigInt::ArrayView x = BigIntUnsafe::GetArrayView(a), y = BigIntUnsafe::GetArrayView(b);
  std::vector<int64_t> out(std::max(x.size(), y.size()));
  for (size_t i = 0; i < out.size(); ++i) out[i] = op(WordAt(x, i), WordAt(y, i));
  return BigIntUnsafe::FromWords(out);
}

/*! \brief A shift count as size_t: ValueError when negative, OverflowError when huge. */
inline size_t ShiftCount(const BigInt& count) {
  if (Compare(count, BigInt(0)) < 0) TVM_FFI_THROW(ValueError) << "Negative BigInt shift count";
  std::optional<uint64_t> n = count.as<uint64_t>();
  if (!n.has_value() || *n > (std::numeric_limits<size_t>::max() >> 8)) {
    TVM_FFI_THROW(OverflowError) << "BigInt shift count is too large";
  }
  return static_cast<size_t>(*n);
}

inline BigInt ShiftLeft(const BigInt& a, size_t count) {
  BigInt::ArrayView x = BigIntUnsafe::GetArrayView(a);
  size_t whole = count / 64, part = count % 64;
  std::vector<int64_t> out(x.size() + whole + 1, 0);
  for (size_t i = 0; i < x.size() + 1; ++i) {
    uint64_t lo = static_cast<uint64_t>(WordAt(x, i));
    uint64_t below = i == 0 ? 0 : static_cast<uint64_t>(WordAt(x, i - 1));
    uint64_t w = part == 0 ? lo : (lo << part) | (below >> (64 - part));
    out[i + whole] = static_cast<int64_t>(w);
  }
  return BigIntUnsafe::FromWords(out);
}

/*! \brief Arithmetic shift right: rounds toward negative infinity. */
inline BigInt ShiftRight(const BigInt& a, size_t count) {
  BigInt::ArrayView x = BigIntUnsafe::GetArrayView(a);
  size_t whole = count / 64, part = count % 64;
  if (whole >= x.size()) return BigInt(x[x.size() - 1] < 0 ? -1 : 0);
  std::vector<int64_t> out(x.size() - whole);
  for (size_t i = 0; i < out.size(); ++i) {
    uint64_t lo = static_cast<uint64_t>(WordAt(x, i + whole));
    uint64_t hi = static_cast<uint64_t>(WordAt(x, i + whole + 1));
    out[i] = static_cast<int64_t>(part == 0 ? lo : (lo >> part) | (hi << (64 - part)));
  }
  return BigIntUnsafe::FromWords(out);
}

inline std::string ToString(const BigInt& value) {
  SignMag x = ToSignMag(value);
  if (x.mag.empty()) return "0";
  std::string digits;
  Limbs billion{1000000000u};
  while (!x.mag.empty()) {
    auto [q, r] = DivModMag(x.mag, billion);
    uint32_t chunk = r.empty() ? 0 : r[0];
    for (int i = 0; i < 9 && (chunk != 0 || !q.empty()); ++i, chunk /= 10) {
      digits.push_back(static_cast<char>('0' + chunk % 10));
    }
    x.mag = std::move(q);
  }
  if (x.negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

/*! \brief Round-to-nearest-even double of a magnitude (its top 64 bits plus a sticky bit). */
inline double ToDouble(const BigInt& value) {
  SignMag x = ToSignMag(value);
  size_t bits = x.mag.size() * 32;
  while (bits > 0 && ((x.mag[(bits - 1) / 32] >> ((bits - 1) % 32)) & 1u) == 0) --bits;
  auto bit = [&](size_t i) -> uint64_t { return (x.mag[i / 32] >> (i % 32)) & 1u; };
  uint64_t top = 0;
  size_t take = std::min<size_t>(bits, 64), shift = bits - take;
  for (size_t i = 0; i < take; ++i) top |= bit(shift + i) << i;
  for (size_t i = 0; i < shift && (top & 1u) == 0; ++i) top |= bit(i);  // sticky
  double out = std::ldexp(static_cast<double>(top), static_cast<int>(shift));
  if (std::isinf(out)) TVM_FFI_THROW(OverflowError) << "BigInt does not fit finite double";
  return x.negative ? -out : out;
}

// int64 fast paths: true when the exact result does not fit (then the limb path runs).
inline bool AddOverflow(int64_t a, int64_t b, int64_t* out) {
  uint64_t r = static_cast<uint64_t>(a) + static_cast<uint64_t>(b);
  *out = static_cast<int64_t>(r);
  return (a >= 0) == (b >= 0) && (*out >= 0) != (a >= 0);
}
inline bool SubOverflow(int64_t a, int64_t b, int64_t* out) {
  uint64_t r = static_cast<uint64_t>(a) - static_cast<uint64_t>(b);
  *out = static_cast<int64_t>(r);
  return (a >= 0) != (b >= 0) && (*out >= 0) != (a >= 0);
}
inline bool MulOverflow(int64_t a, int64_t b, int64_t* out) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  if (a == 0 || b == 0) {
    *out = 0;
    return false;
  }
  if ((a == -1 && b == kMin) || (b == -1 && a == kMin)) return true;
  bool overflow = (a > 0) == (b > 0) ? (a > 0 ? a > kMax / b : a < kMax / b)
                                     : (a > 0 ? b < kMin / a : a < kMin / b);
  if (!overflow) *out = a * b;
  return overflow;
}

}  // namespace big_int_ops
}  // namespace detail

inline BigInt::BigInt(double value) : BigInt() {
  if (std::isnan(value)) TVM_FFI_THROW(ValueError) << "Cannot convert NaN to BigInt";
  if (std::isinf(value)) TVM_FFI_THROW(OverflowError) << "Cannot convert infinity to BigInt";
  constexpr double kTwo63 = 9223372036854775808.0;
  if (value >= -kTwo63 && value < kTwo63) {
    data_.v_int64 = static_cast<int64_t>(value);
    return;
  }
  // |value| >= 2^63 is an integer: its 53-bit significand shifted left.
  int exponent = 0;
  double significand = std::frexp(std::fabs(value), &exponent);
  BigInt mantissa(static_cast<int64_t>(std::ldexp(significand, 53)));
  BigInt magnitude = detail::big_int_ops::ShiftLeft(mantissa, static_cast<size_t>(exponent - 53));
  *this = value < 0 ? detail::big_int_ops::Add(BigInt(0), magnitude, true) : magnitude;
}

inline BigInt::operator double() const {
  if (IsInline()) return static_cast<double>(data_.v_int64);
  return detail::big_int_ops::ToDouble(*this);
}

template <typename Int, std::enable_if_t<(std::is_integral_v<Int> && sizeof(Int) <= 8), int>>
std::optional<Int> BigInt::as() const {
  if (IsInline()) {
    int64_t v = data_.v_int64;
    if constexpr (std::is_signed_v<Int>) {
      if (v < std::numeric_limits<Int>::min() || v > std::numeric_limits<Int>::max()) return std::nullopt;
    } else {
      if (v < 0 || static_cast<uint64_t>(v) > std::numeric_limits<Int>::max()) return std::nullopt;
    }
    return static_cast<Int>(v);
  }
  if constexpr (std::is_unsigned_v<Int> && sizeof(Int) == 8) {
    ArrayView words = detail::BigIntUnsafe::GetArrayView(*this);
    if (words.size() == 2 && words[1] == 0) return static_cast<Int>(static_cast<uint64_t>(words[0]));
  }
  return std::nullopt;
}

inline uint64_t BigInt::hash() const {
  if (IsInline()) return static_cast<uint64_t>(data_.v_int64);
  ArrayView words = detail::BigIntUnsafe::GetArrayView(*this);
  return AnyHash::HashBytes(reinterpret_cast<const char*>(&words[0]), words.size() * sizeof(int64_t));
}

// Each binary operator comes as (BigInt, BigInt), (BigInt, int64_t) and (int64_t, BigInt), so
// mixing with plain integers needs no conversion to BigInt on the fast path.
#define TVM_FFI_BIGINT_BINARY_OVERLOADS_(Return, Name, Impl)                           \
  inline Return Name(const BigInt& a, const BigInt& b) { return Impl(a, b); }          \
  inline Return Name(const BigInt& a, int64_t b) { return Impl(a, BigInt(b)); }        \
  inline Return Name(int64_t a, const BigInt& b) { return Impl(BigInt(a), b); }

namespace detail {
namespace big_int_ops {
using U = BigIntUnsafe;
#define TVM_FFI_BIGINT_CHECKED_(Impl, FastOverflow, Slow)                               \
  inline BigInt Impl(const BigInt& a, const BigInt& b) {                               \
    int64_t r;                                                                          \
    if (U::CheckInt64(a) && U::CheckInt64(b) &&                                         \
        !FastOverflow(U::GetInt64(a), U::GetInt64(b), &r)) {                            \
      return BigInt(r);                                                                 \
    }                                                                                   \
    return Slow;                                                                        \
  }
TVM_FFI_BIGINT_CHECKED_(AddImpl, AddOverflow, Add(a, b, false))
TVM_FFI_BIGINT_CHECKED_(SubImpl, SubOverflow, Add(a, b, true))
TVM_FFI_BIGINT_CHECKED_(MulImpl, MulOverflow, Mul(a, b))
#undef TVM_FFI_BIGINT_CHECKED_
inline BigInt TruncDivImpl(const BigInt& a, const BigInt& b) { return DivMod(a, b, false).first; }
inline BigInt TruncModImpl(const BigInt& a, const BigInt& b) { return DivMod(a, b, false).second; }
inline BigInt FloorDivImpl(const BigInt& a, const BigInt& b) { return DivMod(a, b, true).first; }
inline BigInt FloorModImpl(const BigInt& a, const BigInt& b) { return DivMod(a, b, true).second; }
inline BigInt AndImpl(const BigInt& a, const BigInt& b) {
  return Bitwise(a, b, [](int64_t x, int64_t y) { return x & y; });
}
inline BigInt OrImpl(const BigInt& a, const BigInt& b) {
  return Bitwise(a, b, [](int64_t x, int64_t y) { return x | y; });
}
inline BigInt XorImpl(const BigInt& a, const BigInt& b) {
  return Bitwise(a, b, [](int64_t x, int64_t y) { return x ^ y; });
}
inline BigInt ShlImpl(const BigInt& a, const BigInt& b) { return ShiftLeft(a, ShiftCount(b)); }
inline BigInt ShrImpl(const BigInt& a, const BigInt& b) { return ShiftRight(a, ShiftCount(b)); }
inline BigInt MinImpl(const BigInt& a, const BigInt& b) { return Compare(a, b) <= 0 ? a : b; }
inline BigInt MaxImpl(const BigInt& a, const BigInt& b) { return Compare(a, b) >= 0 ? a : b; }
inline int CompareImpl(const BigInt& a, const BigInt& b) {
  if (U::CheckInt64(a) && U::CheckInt64(b)) {
    int64_t x = U::GetInt64(a), y = U::GetInt64(b);
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  return Compare(a, b);
}
inline bool EqImpl(const BigInt& a, const BigInt& b) { return CompareImpl(a, b) == 0; }
inline bool NeImpl(const BigInt& a, const BigInt& b) { return CompareImpl(a, b) != 0; }
inline bool LtImpl(const BigInt& a, const BigInt& b) { return CompareImpl(a, b) < 0; }
inline bool LeImpl(const BigInt& a, const BigInt& b) { return CompareImpl(a, b) <= 0; }
inline bool GtImpl(const BigInt& a, const BigInt& b) { return CompareImpl(a, b) > 0; }
inline bool GeImpl(const BigInt& a, const BigInt& b) { return CompareImpl(a, b) >= 0; }
}  // namespace big_int_ops
}  // namespace detail

TVM_FFI_BIGINT_BINARY_OVERLOADS_(BigInt, operator+, detail::big_int_ops::AddImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(BigInt, operator-, detail::big_int_ops::SubImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(BigInt, operator*, detail::big_int_ops::MulImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(BigInt, operator/, detail::big_int_ops::TruncDivImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(BigInt, operator%, detail::big_int_ops::TruncModImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(BigInt, truncdiv, detail::big_int_ops::TruncDivImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(BigInt, truncmod, detail::big_int_ops::TruncModImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(BigInt, floordiv, detail::big_int_ops::FloorDivImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(BigInt, floormod, detail::big_int_ops::FloorModImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(BigInt, operator&, detail::big_int_ops::AndImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(BigInt, operator|, detail::big_int_ops::OrImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(BigInt, operator^, detail::big_int_ops::XorImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(BigInt, operator<<, detail::big_int_ops::ShlImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(BigInt, operator>>, detail::big_int_ops::ShrImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(BigInt, min, detail::big_int_ops::MinImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(BigInt, max, detail::big_int_ops::MaxImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(bool, operator==, detail::big_int_ops::EqImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(bool, operator!=, detail::big_int_ops::NeImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(bool, operator<, detail::big_int_ops::LtImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(bool, operator<=, detail::big_int_ops::LeImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(bool, operator>, detail::big_int_ops::GtImpl)
TVM_FFI_BIGINT_BINARY_OVERLOADS_(bool, operator>=, detail::big_int_ops::GeImpl)
#undef TVM_FFI_BIGINT_BINARY_OVERLOADS_

inline BigInt operator+(const BigInt& value) { return value; }
inline BigInt operator-(const BigInt& value) { return BigInt(0) - value; }
inline BigInt operator~(const BigInt& value) { return BigInt(-1) - value; }  // ~x == -x - 1

inline BigInt& BigInt::operator+=(const BigInt& rhs) { return *this = *this + rhs; }
inline BigInt& BigInt::operator-=(const BigInt& rhs) { return *this = *this - rhs; }
inline BigInt& BigInt::operator*=(const BigInt& rhs) { return *this = *this * rhs; }
inline BigInt& BigInt::operator/=(const BigInt& rhs) { return *this = *this / rhs; }
inline BigInt& BigInt::operator%=(const BigInt& rhs) { return *this = *this % rhs; }
inline BigInt& BigInt::operator&=(const BigInt& rhs) { return *this = *this & rhs; }
inline BigInt& BigInt::operator|=(const BigInt& rhs) { return *this = *this | rhs; }
inline BigInt& BigInt::operator^=(const BigInt& rhs) { return *this = *this ^ rhs; }
inline BigInt& BigInt::operator<<=(const BigInt& rhs) { return *this = *this << rhs; }
inline BigInt& BigInt::operator>>=(const BigInt& rhs) { return *this = *this >> rhs; }
inline BigInt& BigInt::operator++() { return *this += 1; }
inline BigInt& BigInt::operator--() { return *this -= 1; }
inline BigInt BigInt::operator++(int) {
  BigInt old = *this;
  ++*this;
  return old;
}
inline BigInt BigInt::operator--(int) {
  BigInt old = *this;
  --*this;
  return old;
}

/*! \brief Reads an optionally signed decimal integer; sets failbit when there is no digit. */
inline std::istream& operator>>(std::istream& is, BigInt& value) {
  std::istream::sentry sentry(is);
  if (!sentry) return is;
  bool negative = false;
  if (is.peek() == '+' || is.peek() == '-') negative = is.get() == '-';
  BigInt result;
  bool any_digit = false;
  while (is.good()) {
    int c = is.peek();
    if (c < '0' || c > '9') break;
    is.get();
    any_digit = true;
    result = result * 10 + (c - '0');
  }
  if (!any_digit) {
    is.setstate(std::ios::failbit);
  } else {
    value = negative ? -result : result;
  }
  return is;
}

/*! \brief Writes the value in decimal. */
inline std::ostream& operator<<(std::ostream& os, const BigInt& value) {
  if (detail::BigIntUnsafe::CheckInt64(value)) return os << detail::BigIntUnsafe::GetInt64(value);
  return os << detail::big_int_ops::ToString(value);
}

/*! \brief BigInt is stored as an int when it fits and as an ffi.BigInt otherwise; bools read. */
template <>
struct TypeTraits<BigInt> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;
  static void CopyToAnyView(const BigInt& src, TVMFFIAny* result) { *result = src.data_; }
  static void MoveToAny(BigInt src, TVMFFIAny* result) {
    *result = src.data_;
    src.Reset();
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIInt || src->type_index == TypeIndex::kTVMFFIBigInt;
  }
  static BigInt CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    BigInt out;
    out.data_ = *src;
    if (!out.IsInline()) detail::ObjectUnsafe::IncRefObjectHandle(out.data_.v_obj);
    return out;
  }
  static std::optional<BigInt> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    if (src->type_index == TypeIndex::kTVMFFIBool) return BigInt(src->v_int64);
    return std::nullopt;
  }
  static std::string TypeStr() { return "BigInt"; }
  static std::string TypeSchema() { return R"({"type":"ffi.BigInt"})"; }
};

}  // namespace ffi
}  // namespace tvm

namespace std {
template <>
inline void swap(tvm::ffi::BigInt& a, tvm::ffi::BigInt& b) noexcept {
  a.swap(b);
}
template <>
struct hash<tvm::ffi::BigInt> {
  size_t operator()(const tvm::ffi::BigInt& value) const { return static_cast<size_t>(value.hash()); }
};
}  // namespace std

#endif  // TVM_FFI_BIG_INT_OPS_H_
