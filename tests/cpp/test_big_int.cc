// test_big_int.cc -- big_int.h: BigInt arithmetic against identities over many operands (small,
// near the int64 limits, multi-word, negative), conversions, errors and the FFI boundary.
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/function.h>

#include <sstream>
#include <vector>

#include "check.h"

namespace ffi = tvm::ffi;
using ffi::BigInt;

std::string Str(const BigInt& v) {
  std::ostringstream os;
  os << v;
  return os.str();
}
BigInt Parse(const std::string& text) {
  std::istringstream is(text);
  BigInt v;
  is >> v;
  return v;
}

std::vector<BigInt> Operands() {
  BigInt two64 = BigInt(1) << 64;
  std::vector<BigInt> out = {0, 1, -1, 2, -7, 12345, INT64_MAX, INT64_MIN, BigInt(INT64_MAX) + 1,
                             BigInt(INT64_MIN) - 1, two64, -two64, two64 - 1, two64 * two64 + 3,
                             Parse("-98765432109876543210987654321098765432109876543210")};
  return out;
}

void test_known_values_print_and_parse() {
  BigInt a = BigInt(1) << 100;
  CHECK_EQ(Str(a), std::string("1267650600228229401496703205376"));
  CHECK_EQ(Str(a * a), std::string("1606938044258990275541962092341162602522202993782792835301376"));
  CHECK_EQ(Str(-a - 1), std::string("-1267650600228229401496703205377"));
  CHECK_EQ(Str(~a), std::string("-1267650600228229401496703205377"));
  CHECK_EQ(Str(BigInt(INT64_MAX) + 1), std::string("9223372036854775808"));
  CHECK_EQ(Str(BigInt(INT64_MIN) * -1), std::string("9223372036854775808"));
  CHECK_EQ(Str(BigInt(UINT64_MAX)), std::string("18446744073709551615"));
  BigInt p = 3;
  for (int i = 0; i < 200; ++i) p *= 3;
  CHECK_EQ(Str(p % 1000000007), std::string("408954495"));  // 3**201 % (10**9 + 7) in Python
  CHECK(Parse(Str(p)) == p);
  CHECK(Parse("+42") == 42);
  std::istringstream bad("abc");
  BigInt untouched = 5;
  bad >> untouched;
  CHECK(bad.fail());
  CHECK(untouched == 5);
}

void test_arithmetic_identities_hold_for_all_operands() {
  std::vector<BigInt> ops = Operands();
  for (const BigInt& a : ops) {
    CHECK(a + 0 == a && a - a == 0 && a * 1 == a && -(-a) == a && ~~a == a);
    CHECK(~a == -a - 1);
    CHECK(Parse(Str(a)) == a);
    for (const BigInt& b : ops) {
      CHECK((a + b) - b == a);
      CHECK(a * b == b * a);
      CHECK((a + b) * 3 == a * 3 + b * 3);
      CHECK((a & b) + (a | b) == a + b);
      CHECK((a ^ b) == (a | b) - (a & b));
      CHECK((a < b) == (b > a) && (a <= b) == !(a > b) && (a == b) == !(a != b));
      CHECK(ffi::min(a, b) <= ffi::max(a, b));
      if (b == 0) continue;
      BigInt q = a / b, r = a % b;
      CHECK(q * b + r == a);
      CHECK(r == 0 || (r < 0) == (a < 0));  // truncation: the remainder takes a's sign
      CHECK(ffi::truncdiv(a, b) == q && ffi::truncmod(a, b) == r);
      BigInt fq = ffi::floordiv(a, b), fr = ffi::floormod(a, b);
      CHECK(fq * b + fr == a);
      CHECK(fr == 0 || (fr < 0) == (b < 0));  // flooring: the remainder takes b's sign
    }
    for (int shift : {0, 1, 13, 63, 64, 65, 130}) {
      BigInt power = BigInt(1) << shift;
      CHECK((a << shift) == a * power);
      CHECK((a >> shift) == ffi::floordiv(a, power));
    }
  }
}

void test_mixed_int64_overloads_and_compound_assignment() {
  BigInt x = 10;
  CHECK(x + 5 == 15 && 5 + x == 15 && x - 20 == -10 && 3 * x == 30 && 100 / x == 10);
  CHECK(7 % BigInt(3) == 1 && BigInt(-7) % 3 == -1 && ffi::floormod(-7, BigInt(3)) == 2);
  CHECK(ffi::floordiv(BigInt(-7), 2) == -4 && (BigInt(-7) >> 1) == -4);
  CHECK(x > 3 && 3 < x && x >= 10 && 10 <= x && x != 11);
  x += BigInt(INT64_MAX);
  x -= 1;
  x *= 2;
  CHECK_EQ(Str(x), std::string("18446744073709551632"));
  x /= 4;
  x %= BigInt(1) << 62;
  x <<= 3;
  x >>= 1;
  x &= 0xFFFF;
  x |= 0x10000;
  x ^= 1;
  CHECK(x == 65553);  // Python: same steps on 10
  BigInt c = INT64_MAX;
  CHECK(c++ == INT64_MAX && c == BigInt(INT64_MAX) + 1);
  CHECK(--c == INT64_MAX && ++c > INT64_MAX);
  CHECK(c-- > INT64_MAX && c == INT64_MAX);
  BigInt s = 5, t = BigInt(1) << 80;
  std::swap(s, t);
  CHECK(s == BigInt(1) << 80 && t == 5);
  CHECK(+s == s);
}

void test_conversions() {
  CHECK(static_cast<bool>(BigInt(1) << 70) && !static_cast<bool>(BigInt(0)));
  CHECK_EQ(static_cast<int64_t>(BigInt(-3)), -3);
  CHECK_THROWS(static_cast<int64_t>(BigInt(1) << 64), "OverflowError", "BigInt does not fit int64_t");
  CHECK(BigInt(300).as<uint8_t>() == std::nullopt);
  CHECK(BigInt(-1).as<uint32_t>() == std::nullopt);
  CHECK(BigInt(-128).as<int8_t>() == int8_t{-128});
  CHECK(BigInt(UINT64_MAX).as<uint64_t>() == UINT64_MAX);
  CHECK(BigInt(UINT64_MAX).as<int64_t>() == std::nullopt);
  CHECK((BigInt(1) << 64).as<uint64_t>() == std::nullopt);

  CHECK(BigInt(2.9) == 2 && BigInt(-2.9) == -2);
  CHECK(BigInt(1e30) == Parse("1000000000000000019884624838656"));  // exact value of the double
  CHECK(BigInt(-9223372036854775808.0) == INT64_MIN);
  CHECK(BigInt(9223372036854775808.0) == BigInt(INT64_MAX) + 1);
  CHECK_THROWS(BigInt(std::numeric_limits<double>::quiet_NaN()), "ValueError", "Cannot convert NaN to BigInt");
  CHECK_THROWS(BigInt(std::numeric_limits<double>::infinity()), "OverflowError", "Cannot convert infinity to BigInt");
  CHECK_EQ(static_cast<double>(BigInt(1) << 100), 1267650600228229401496703205376.0);
  CHECK_EQ(static_cast<double>(-(BigInt(1) << 1023)), -std::ldexp(1.0, 1023));
  // Round half to even: 2^53 + 1 sits between two doubles and rounds to the even one.
  CHECK_EQ(static_cast<double>((BigInt(1) << 80) * ((BigInt(1) << 53) + 1)), std::ldexp(1.0, 133));
  CHECK_EQ(static_cast<double>((BigInt(1) << 80) * ((BigInt(1) << 53) + 3)),
           std::ldexp(9007199254740996.0, 80));
  CHECK_THROWS(static_cast<double>(BigInt(1) << 1024), "OverflowError", "does not fit finite double");

  CHECK_EQ(BigInt(42).hash(), uint64_t{42});
  BigInt wide = (BigInt(1) << 90) + 5;
  CHECK_EQ(wide.hash(), ((BigInt(1) << 90) + 5).hash());
  CHECK_EQ(std::hash<BigInt>()(wide), static_cast<size_t>(wide.hash()));
}

void test_errors() {
  CHECK_THROWS(BigInt(1) / 0, "ZeroDivisionError", "Division by zero");
  CHECK_THROWS(ffi::floormod(BigInt(1) << 70, BigInt(0)), "ZeroDivisionError", "Division by zero");
  CHECK_THROWS(BigInt(1) << -1, "ValueError", "Negative BigInt shift count");
  CHECK_THROWS(BigInt(1) >> (BigInt(-1) << 70), "ValueError", "Negative BigInt shift count");
  CHECK_THROWS(BigInt(1) << (BigInt(1) << 70), "OverflowError", "BigInt shift count is too large");
  CHECK((BigInt(-5) >> (BigInt(1) << 20)) == -1);
}

void test_crosses_the_ffi_boundary() {
  ffi::Function square = ffi::Function::FromTyped([](const BigInt& x) { return x * x; }, "square");
  CHECK_EQ(square(3).cast<int64_t>(), 9);  // results that fit travel as plain ints
  CHECK_EQ(square(3).type_index(), ffi::TypeIndex::kTVMFFIInt);
  ffi::Any big = square(BigInt(1) << 40);
  CHECK_EQ(big.type_index(), ffi::TypeIndex::kTVMFFIBigInt);
  CHECK(big.cast<BigInt>() == BigInt(1) << 80);
  CHECK(square(true).cast<BigInt>() == 1);  // bools read as integers
  CHECK_THROWS(square(1.5), "TypeError", "Expected `BigInt` but got `float`");
  CHECK_THROWS(big.cast<int64_t>(), "TypeError", "Cannot convert from type `ffi.BigInt` to `int`");
  CHECK_EQ(ffi::TypeTraits<BigInt>::TypeSchema(), std::string(R"({"type":"ffi.BigInt"})"));
  ffi::Any copy = big;  // shares the immutable object
  CHECK(copy.cast<BigInt>() == big.cast<BigInt>());
  BigInt::ArrayView words = ffi::detail::BigIntUnsafe::GetArrayView(big.cast<BigInt>());
  CHECK_EQ(words.size(), size_t{2});
  CHECK_EQ(words[1], int64_t{1} << 16);
  // ABI layout (spec/ABI.md): header (24 bytes), the word count at +24, the words from +32.
  TVMFFIAny raw = big.CopyToTVMFFIAny();
  const char* object = reinterpret_cast<const char*>(raw.v_obj);
  CHECK_EQ(reinterpret_cast<const char*>(&words[0]), object + 32);
  CHECK_EQ(*reinterpret_cast<const size_t*>(object + 24), size_t{2});
  static_assert(sizeof(BigInt) == sizeof(TVMFFIAny), "a BigInt is one Any cell");
  CHECK(ffi::detail::BigIntUnsafe::CheckInt64(BigInt(7)) &&
        ffi::detail::BigIntUnsafe::GetInt64(BigInt(7)) == 7);
}

int main() {
  RUN(test_known_values_print_and_parse);
  RUN(test_arithmetic_identities_hold_for_all_operands);
  RUN(test_mixed_int64_overloads_and_compound_assignment);
  RUN(test_conversions);
  RUN(test_errors);
  RUN(test_crosses_the_ffi_boundary);
  return CHECK_MAIN_RESULT();
}
