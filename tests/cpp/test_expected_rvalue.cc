// test_expected_rvalue.cc -- expected.h (Expected/Unexpected, CallExpected, TVM_FFI_RET_CHECK*)
// and rvalue_ref.h (moving an object reference into a callee through the C ABI).
#include <tvm/ffi/tvm_ffi.h>

#include "check.h"

namespace ffi = tvm::ffi;

ffi::Expected<int64_t> SafeDivide(int64_t a, int64_t b) {
  TVM_FFI_RET_CHECK(b != 0, ValueError) << "cannot divide " << a << " by zero";
  return a / b;
}

ffi::Expected<void> CheckRange(int64_t x) {
  TVM_FFI_RET_CHECK_GE(x, 0, IndexError) << "negative";
  TVM_FFI_RET_CHECK_LT(x, 10, IndexError) << "too large";
  TVM_FFI_RET_ICHECK_NE(x, 7) << "seven";
  return {};
}

ffi::Expected<ffi::String> Describe(int64_t x) {
  if (x < 0) return TVM_FFI_UNEXPECTED(ValueError) << "negative: " << x;
  return ffi::String("value " + std::to_string(x));
}

void test_expected_holds_a_value_or_an_error() {
  ffi::Expected<int64_t> ok = SafeDivide(7, 2);
  CHECK(ok.is_ok() && ok.has_value() && !ok.is_err());
  CHECK_EQ(ok.value(), 3);
  CHECK_EQ(ok.type_index(), ffi::TypeIndex::kTVMFFIInt);
  CHECK_EQ(ok.value_or(-1), 3);
  CHECK_THROWS(ok.error(), "RuntimeError", "Bad expected access");

  ffi::Expected<int64_t> bad = SafeDivide(1, 0);
  CHECK(bad.is_err() && !bad.has_value());
  CHECK_EQ(bad.type_index(), ffi::TypeIndex::kTVMFFIError);
  CHECK_EQ(bad.error().kind(), std::string("ValueError"));
  CHECK(bad.error().message().find("Check failed: (b != 0) is false: cannot divide 1 by zero") !=
        std::string::npos);
  CHECK(bad.error().backtrace().find("SafeDivide") != std::string::npos);
  CHECK_EQ(bad.value_or(-1), -1);
  CHECK_THROWS(bad.value(), "ValueError", "cannot divide");
  CHECK_THROWS(std::move(bad).value(), "ValueError", "cannot divide");

  ffi::Expected<ffi::String> text = Describe(3);
  CHECK_EQ(std::string(std::move(text).value()), "value 3");
  CHECK_EQ(Describe(-2).error().message(), std::string("negative: -2"));
  ffi::Expected<int64_t> from_unexpected = ffi::Unexpected(ffi::Error("KeyError", "k", ""));
  CHECK_EQ(std::move(from_unexpected).error().kind(), std::string("KeyError"));
  ffi::Unexpected<ffi::Error> wrapped(ffi::Error("TypeError", "t", ""));
  CHECK_EQ(wrapped.error().kind(), std::string("TypeError"));
}

void test_expected_void_and_binary_checks() {
  CHECK(CheckRange(3).is_ok());
  CheckRange(3).value();  // no throw
  CHECK_EQ(CheckRange(3).type_index(), ffi::TypeIndex::kTVMFFINone);
  ffi::Error low = CheckRange(-1).error();
  CHECK_EQ(low.kind(), std::string("IndexError"));
  CHECK(low.message().find("Check failed: x >= 0 (-1 vs. 0) : negative") != std::string::npos);
  CHECK(CheckRange(12).error().message().find("x < 10 (12 vs. 10) : too large") !=
        std::string::npos);
  CHECK_EQ(CheckRange(7).error().kind(), std::string("InternalError"));
  CHECK_THROWS(CheckRange(-5).value(), "IndexError", "negative");
  CHECK_THROWS(CheckRange(1).error(), "RuntimeError", "Bad expected access");
}

void test_expected_conversions_and_as_or_error() {
  ffi::Expected<ffi::Array<int64_t>> arr = ffi::Array<int64_t>{1, 2};
  ffi::Expected<ffi::ObjectRef> as_object = arr;  // Array is an ObjectRef: storage reused
  CHECK(as_object.is_ok());
  ffi::Expected<ffi::Any> as_any = SafeDivide(9, 3);
  CHECK_EQ(as_any.value().cast<int64_t>(), 3);
  ffi::Expected<double> widened = SafeDivide(9, 3);  // int64 -> double converts
  CHECK_EQ(widened.value(), 3.0);
  ffi::Expected<double> widened_error = SafeDivide(9, 0);
  CHECK(widened_error.is_err());

  ffi::Expected<ffi::Any> any_int = ffi::Any(5);
  CHECK_EQ(any_int.as_or_error<int64_t>().value(), 5);
  ffi::Expected<ffi::String> not_a_string = any_int.as_or_error<ffi::String>();
  CHECK_EQ(not_a_string.error().kind(), std::string("TypeError"));
  CHECK_EQ(not_a_string.error().message(), std::string("Cannot treat type `int` as type `str`"));
  CHECK(ffi::Expected<ffi::Any>(ffi::Error("E", "m", "")).as_or_error<int64_t>().is_err());

  using Unsafe = ffi::detail::ExpectedUnsafe;
  TVMFFIAny raw = Unsafe::MoveToTVMFFIAny(SafeDivide(8, 2));
  CHECK_EQ(raw.type_index, ffi::TypeIndex::kTVMFFIInt);
  ffi::Expected<int64_t> back = Unsafe::MoveFromTVMFFIAny<int64_t>(raw);
  CHECK_EQ((Unsafe::ValueAs<int64_t>(back)), 4);
  CHECK_EQ(Unsafe::GetData(back).cast<int64_t>(), 4);
  static_assert(ffi::detail::is_expected_v<ffi::Expected<int>>);
  static_assert(ffi::detail::is_unexpected_v<ffi::Unexpected<ffi::Error>>);
  static_assert(ffi::type_subsumes_v<ffi::Expected<ffi::ObjectRef>, ffi::Expected<ffi::Array<int>>>);
  static_assert(!ffi::type_subsumes_v<ffi::Expected<int>, ffi::Expected<double>>);
}

void test_expected_crosses_the_abi() {
  // A function returning Expected returns its value, or the Error as a value (not raised).
  ffi::Function divide = ffi::Function::FromTyped(SafeDivide, "safe_divide");
  CHECK_EQ(divide(6, 3).cast<int64_t>(), 2);
  ffi::Any failed = divide(6, 0);
  CHECK_EQ(failed.type_index(), ffi::TypeIndex::kTVMFFIError);
  // Expected<T> parameters accept a T or an Error.
  ffi::Function describe = ffi::Function::FromTyped(
      [](ffi::Expected<int64_t> x) { return x.is_ok() ? x.value() : int64_t{-1}; });
  CHECK_EQ(describe(5).cast<int64_t>(), 5);
  CHECK_EQ(describe(ffi::Error("ValueError", "v", "")).cast<int64_t>(), -1);
  CHECK_THROWS(describe("text"), "TypeError", "Expected `Expected<int>` but got `const char*`");
  CHECK_EQ(ffi::TypeTraits<ffi::Expected<int64_t>>::TypeSchema(),
           std::string(R"({"type":"Expected","args":[{"type":"int"},{"type":"ffi.Error"}]})"));
  CHECK_EQ(ffi::TypeTraits<ffi::Expected<void>>::TypeStr(), std::string("Expected<void>"));
}

void test_call_expected_never_throws_callee_errors() {
  ffi::Function add = ffi::Function::FromTyped([](int64_t a, int64_t b) { return a + b; }, "add");
  ffi::Expected<int64_t> sum = add.CallExpected<int64_t>(1, 2);
  CHECK_EQ(sum.value(), 3);
  ffi::Expected<ffi::Any> raw = add.CallExpected(1, 2);
  CHECK_EQ(raw.value().cast<int64_t>(), 3);
  ffi::Expected<int64_t> bad_args = add.CallExpected<int64_t>(1);
  CHECK_EQ(bad_args.error().kind(), std::string("TypeError"));
  CHECK(bad_args.error().message().find("Mismatched number of arguments") != std::string::npos);
  ffi::Expected<ffi::String> wrong_type = add.CallExpected<ffi::String>(1, 2);
  CHECK_EQ(wrong_type.error().message(),
           std::string("CallExpected: result type mismatch, expected str, but got int"));
  ffi::Expected<void> not_void = add.CallExpected<void>(1, 2);
  CHECK_EQ(not_void.error().message(),
           std::string("CallExpected: result type mismatch, expected void, but got int"));
  ffi::Function nothing = ffi::Function::FromTyped([]() {});
  CHECK(nothing.CallExpected<void>().is_ok());
  ffi::Function thrower = ffi::Function::FromTyped(
      []() -> int64_t { TVM_FFI_THROW(KeyError) << "missing"; });
  ffi::Expected<int64_t> thrown = thrower.CallExpected<int64_t>();
  CHECK_EQ(thrown.error().kind(), std::string("KeyError"));
  CHECK_EQ(thrown.error().message(), std::string("missing"));
  // A returned (not raised) Error is a failure too.
  ffi::Function divide = ffi::Function::FromTyped(SafeDivide);
  CHECK_EQ(divide.CallExpected<int64_t>(1, 0).error().kind(), std::string("ValueError"));
}

void test_rvalue_ref_moves_into_the_callee() {
  // The callee takes the caller's only reference, so it may modify the array in place.
  ffi::Function append = ffi::Function::FromTyped(
      [](ffi::RValueRef<ffi::Array<int64_t>> ref) {
        ffi::Array<int64_t> arr = *std::move(ref);
        bool sole_owner = arr.use_count() == 1;
        arr.push_back(42);
        return ffi::Tuple<bool, ffi::Array<int64_t>>(sole_owner, arr);
      });
  ffi::Array<int64_t> mine{1, 2};
  ffi::RValueRef<ffi::Array<int64_t>> moved(std::move(mine));
  auto out = append(moved).cast<ffi::Tuple<bool, ffi::Array<int64_t>>>();
  bool in_place = out.get<0>();
  ffi::Array<int64_t> result = out.get<1>();
  CHECK(in_place);  // the callee holds the only reference: no copy on write
  CHECK_EQ(result.size(), size_t{3});
  CHECK_EQ(result[2], 42);
  CHECK_THROWS(append(moved), "RuntimeError", "RValueRef already moved");
  // A plain (shared) array is accepted too; the callee then copies before writing.
  ffi::Array<int64_t> shared{5};
  auto copied = append(shared).cast<ffi::Tuple<bool, ffi::Array<int64_t>>>();
  bool copied_in_place = copied.get<0>();
  ffi::Array<int64_t> grown = copied.get<1>();
  CHECK(!copied_in_place);
  CHECK_EQ(shared.size(), size_t{1});
  CHECK_EQ(grown.size(), size_t{2});
  // Wrong element types: the slot is left alone and the error names the RValueRef.
  ffi::Function wants_strings = ffi::Function::FromTyped(
      [](ffi::RValueRef<ffi::Map<ffi::String, int64_t>> ref) { return (*std::move(ref)).size(); },
      "wants_strings");
  ffi::Array<int64_t> not_a_map{1};
  ffi::RValueRef<ffi::Array<int64_t>> kept(std::move(not_a_map));
  CHECK_THROWS(wants_strings(kept), "TypeError", "but got `RValueRef<ffi.Array>`");
  CHECK_EQ((*std::move(kept)).size(), size_t{1});
  // A callee taking the plain type owns a copy of the moved object.
  ffi::Function length = ffi::Function::FromTyped([](ffi::Any a) { return a.cast<ffi::Array<int64_t>>().size(); });
  ffi::RValueRef<ffi::Array<int64_t>> once(ffi::Array<int64_t>{7, 8, 9});
  CHECK_EQ(length(once).cast<int64_t>(), 3);
  using Traits = ffi::TypeTraits<ffi::RValueRef<ffi::Array<int64_t>>>;
  CHECK_EQ(Traits::TypeStr(), std::string("RValueRef<Array<int>>"));
  CHECK_EQ(Traits::TypeSchema(),
           std::string(R"({"type":"ObjectRValueRef","args":[{"type":"ffi.Array","args":[{"type":"int"}]}]})"));
}

int main() {
  RUN(test_expected_holds_a_value_or_an_error);
  RUN(test_expected_void_and_binary_checks);
  RUN(test_expected_conversions_and_as_or_error);
  RUN(test_expected_crosses_the_abi);
  RUN(test_call_expected_never_throws_callee_errors);
  RUN(test_rvalue_ref_moves_into_the_callee);
  return CHECK_MAIN_RESULT();
}
