// test_stl.cc -- extra/stl.h: std::vector/array/tuple/map/unordered_map/optional/variant/function
// as arguments and results of FFI functions, element conversions, failures and type names.
#include <tvm/ffi/extra/stl.h>
#include <tvm/ffi/tvm_ffi.h>

#include "check.h"

namespace ffi = tvm::ffi;

void test_vectors_and_arrays_cross_as_ffi_arrays() {
  ffi::Function sum = ffi::Function::FromTyped(
      [](const std::vector<int64_t>& xs) {
        int64_t total = 0;
        for (int64_t x : xs) total += x;
        return total;
      },
      "sum");
  CHECK_EQ(sum(std::vector<int64_t>{1, 2, 3}).cast<int64_t>(), 6);
  CHECK_EQ(sum(ffi::Array<int64_t>{4, 5}).cast<int64_t>(), 9);
  CHECK_EQ(sum(ffi::List<int64_t>{4, 6}).cast<int64_t>(), 10);  // a List reads as a vector too
  CHECK_EQ(sum(std::vector<int64_t>{}).cast<int64_t>(), 0);
  CHECK_THROWS(sum(ffi::Array<ffi::Any>{1, "x"}), "TypeError",
               "Expected `std::vector<int>` but got `ffi.Array`");
  CHECK_THROWS(sum(3), "TypeError", "Mismatched type on argument #0");

  ffi::Function reverse = ffi::Function::FromTyped([](std::vector<std::string> words) {
    return std::vector<std::string>(words.rbegin(), words.rend());
  });
  ffi::Array<ffi::String> reversed =
      reverse(std::vector<std::string>{"a", "b", "c"}).cast<ffi::Array<ffi::String>>();
  CHECK_EQ(reversed.size(), size_t{3});
  CHECK_EQ(std::string(reversed[0]), "c");
  std::vector<std::string> back = reverse(reversed).cast<std::vector<std::string>>();
  CHECK(back == (std::vector<std::string>{"a", "b", "c"}));

  // Nested: a vector of vectors becomes an Array of Arrays.
  ffi::Any nested = std::vector<std::vector<double>>{{1.5}, {2.0, 3.0}};
  CHECK_EQ(nested.cast<ffi::Array<ffi::Array<double>>>()[1][1], 3.0);
  CHECK(nested.cast<std::vector<std::vector<double>>>()[0] == std::vector<double>{1.5});

  ffi::Any fixed = std::array<int, 3>{7, 8, 9};
  CHECK((fixed.cast<std::array<int, 3>>() == std::array<int, 3>{{7, 8, 9}}));
  CHECK(!(fixed.try_cast<std::array<int, 2>>().has_value()));  // the length must match
  CHECK(!(ffi::Any(ffi::List<int64_t>{1, 2, 3}).try_cast<std::array<int, 3>>().has_value()));
}

void test_tuples_and_maps() {
  ffi::Function split = ffi::Function::FromTyped([](int64_t x) {
    return std::tuple<int64_t, std::string, bool>(x / 10, std::to_string(x % 10), x % 2 == 0);
  });
  auto [tens, last_digit, even] = split(42).cast<std::tuple<int64_t, std::string, bool>>();
  CHECK_EQ(tens, 4);
  CHECK_EQ(last_digit, std::string("2"));
  CHECK(even);
  CHECK(!(split(42).try_cast<std::tuple<int64_t, int64_t, bool>>().has_value()));
  CHECK(!(split(42).try_cast<std::tuple<int64_t, std::string>>().has_value()));
  CHECK_EQ((ffi::Any(std::tuple<int, double>(1, 2.5)).cast<ffi::Tuple<int, double>>().get<1>()),
           2.5);

  ffi::Function invert = ffi::Function::FromTyped([](const std::map<std::string, int64_t>& m) {
    std::unordered_map<int64_t, std::string> out;
    for (const auto& [key, value] : m) out[value] = key;
    return out;
  });
  std::map<std::string, int64_t> ages{{"ann", 31}, {"bob", 42}};
  ffi::Map<int64_t, ffi::String> inverted = invert(ages).cast<ffi::Map<int64_t, ffi::String>>();
  CHECK_EQ(inverted.size(), size_t{2});
  CHECK_EQ(std::string(inverted.at(42)), "bob");
  auto as_std = invert(ffi::Map<ffi::String, int64_t>{{"cy", 1}})
                    .cast<std::unordered_map<int64_t, std::string>>();
  CHECK_EQ(as_std.at(1), std::string("cy"));
  CHECK_THROWS(invert(ffi::Map<ffi::String, ffi::String>{{"a", "b"}}), "TypeError",
               "Expected `std::map<std::string, int>` but got `ffi.Map`");
  CHECK(!(ffi::Any(ffi::Array<int>{1}).try_cast<std::map<int, int>>().has_value()));
}

void test_optional_and_variant() {
  ffi::Function describe = ffi::Function::FromTyped([](std::optional<int64_t> x) {
    return x.has_value() ? std::optional<std::string>("got " + std::to_string(*x))
                         : std::optional<std::string>();
  });
  CHECK_EQ(describe(5).cast<std::string>(), std::string("got 5"));
  CHECK(describe(nullptr) == nullptr);
  CHECK(describe(std::optional<int64_t>()) == nullptr);
  CHECK_THROWS(describe("x"), "TypeError", "Expected `std::optional<int>` but got `const char*`");
  std::optional<std::optional<int>> none_read = ffi::Any().try_cast<std::optional<int>>();
  CHECK(none_read.has_value() && !none_read->has_value());

  using Number = std::variant<int64_t, double, std::string>;
  ffi::Function kind = ffi::Function::FromTyped([](const Number& v) -> int64_t {
    return static_cast<int64_t>(v.index());
  });
  CHECK_EQ(kind(1).cast<int64_t>(), 0);
  CHECK_EQ(kind(1.5).cast<int64_t>(), 1);  // an exact double is not narrowed to int
  CHECK_EQ(kind("s").cast<int64_t>(), 2);
  CHECK_THROWS(kind(nullptr), "TypeError", "std::variant<int, float, std::string>");
  ffi::Any stored = Number(std::string("text"));
  CHECK_EQ(std::get<std::string>(stored.cast<Number>()), std::string("text"));
  ffi::Any list_in_variant = std::variant<int, std::vector<int>>(std::vector<int>{1, 2});
  CHECK_EQ(list_in_variant.cast<ffi::Array<int>>().size(), size_t{2});
}

void test_std_function_round_trips_through_ffi_function() {
  std::function<int64_t(int64_t, int64_t)> mul = [](int64_t a, int64_t b) { return a * b; };
  ffi::Function apply = ffi::Function::FromTyped(
      [](std::function<int64_t(int64_t, int64_t)> f, int64_t x) { return f(x, x + 1); });
  CHECK_EQ(apply(mul, 3).cast<int64_t>(), 12);  // std::function -> ffi.Function -> std::function
  ffi::Any as_function = mul;
  CHECK_EQ(as_function.type_index(), ffi::TypeIndex::kTVMFFIFunction);
  auto back = as_function.cast<std::function<int64_t(int64_t, int64_t)>>();
  CHECK_EQ(back(6, 7), 42);
  // Errors of the wrapped function surface as thrown ffi::Error at the std::function call.
  ffi::Any wants_text = ffi::Function::FromTyped([](ffi::String s) { return s.size(); }, "size");
  auto mismatched = wants_text.cast<std::function<int64_t(int64_t)>>();
  CHECK_THROWS(mismatched(1), "TypeError", "Mismatched type on argument #0 when calling: `size");
  CHECK(!ffi::Any(1).try_cast<std::function<void()>>().has_value());
}

void test_type_names_and_schemas() {
  CHECK_EQ(ffi::TypeTraits<std::vector<int>>::TypeStr(), std::string("std::vector<int>"));
  CHECK_EQ((ffi::TypeTraits<std::array<float, 4>>::TypeStr()), std::string("std::array<float, 4>"));
  CHECK_EQ((ffi::TypeTraits<std::map<std::string, int>>::TypeStr()),
           std::string("std::map<std::string, int>"));
  CHECK_EQ((ffi::TypeTraits<std::function<void(int, double)>>::TypeStr()),
           std::string("std::function<void(int, float)>"));
  CHECK_EQ(ffi::TypeTraits<std::vector<int>>::TypeSchema(),
           std::string(R"({"type":"std::vector","args":[{"type":"int"}]})"));
  CHECK_EQ((ffi::TypeTraits<std::array<int, 2>>::TypeSchema()),
           std::string(R"({"type":"std::array","args":[{"type":"int"},2]})"));
  CHECK_EQ((ffi::TypeTraits<std::function<int(bool)>>::TypeSchema()),
           std::string(R"({"type":"std::function","named_args":{"return":[{"type":"int"}],"params":[{"type":"bool"}]}})"));
  CHECK_EQ((ffi::TypeTraits<std::optional<std::vector<int>>>::TypeStr()),
           std::string("std::optional<std::vector<int>>"));
  static_assert(!ffi::TypeTraits<std::vector<int>>::storage_enabled);
  static_assert(ffi::detail::ViewNeedsOwner<std::vector<int>>::value);
  static_assert(ffi::detail::ViewNeedsOwner<std::optional<std::map<int, int>>>::value);
  static_assert(!ffi::detail::ViewNeedsOwner<std::optional<int>>::value);
  // The signature of a typed function shows the STL types.
  ffi::Function f = ffi::Function::FromTyped([](std::vector<int>) {}, "takes_vector");
  CHECK_THROWS(f(1), "TypeError", "takes_vector(0: std::vector<int>) -> void");
}

int main() {
  RUN(test_vectors_and_arrays_cross_as_ffi_arrays);
  RUN(test_tuples_and_maps);
  RUN(test_optional_and_variant);
  RUN(test_std_function_round_trips_through_ffi_function);
  RUN(test_type_names_and_schemas);
  return CHECK_MAIN_RESULT();
}
