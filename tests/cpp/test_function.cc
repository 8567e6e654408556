// test_function.cc -- function.h: typed and packed functions, calls in both directions through
// the C ABI, the global registry, argument errors, and TVM_FFI_DLL_EXPORT_TYPED_FUNC.
#include <tvm/ffi/function.h>

#include "check.h"

namespace ffi = tvm::ffi;

int64_t AddInts(int64_t a, int64_t b) { return a + b; }
ffi::String Greet(const ffi::String& name, ffi::Optional<int64_t> times) {
  std::string out;
  for (int64_t i = 0; i < times.value_or(1); ++i) out += "hi " + std::string(name) + ";";
  return ffi::String(out);
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_ints, AddInts);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(greet, Greet);

void test_typed_function_calls() {
  ffi::Function add = ffi::Function::FromTyped(AddInts, "add");
  CHECK_EQ(add(2, 3).cast<int64_t>(), 5);
  CHECK_EQ(add(true, 3).cast<int64_t>(), 4);  // bool is accepted where int is expected
  ffi::TypedFunction<int64_t(int64_t, int64_t)> typed = add;
  CHECK_EQ(typed(10, 20), 30);
  ffi::TypedFunction<double(double)> half = [](double x) { return x / 2; };
  CHECK_EQ(half(3), 1.5);
  CHECK(add->cpp_call == nullptr);  // foreign callers must use safe_call
}

void test_argument_errors_name_the_function_and_types() {
  ffi::Function add = ffi::Function::FromTyped(AddInts, "add");
  CHECK_THROWS(add("x", 1), "TypeError",
               "Mismatched type on argument #0 when calling: `add(0: int, 1: int) -> int`. "
               "Expected `int` but got `const char*`");
  CHECK_THROWS(add(1), "TypeError",
               "Mismatched number of arguments when calling: `add(0: int, 1: int) -> int`. "
               "Expected 2 but got 1 arguments");
  ffi::Function greet = ffi::Function::FromTyped(Greet, "greet");
  CHECK_THROWS(greet("a", 1.5), "TypeError",
               "`greet(0: str, 1: Optional<int>) -> str`. Expected `Optional<int>` but got `float`");
}

void test_packed_functions_and_callbacks() {
  ffi::Function sum = ffi::Function::FromPacked([](ffi::PackedArgs args, ffi::Any* rv) {
    int64_t total = 0;
    for (int i = 0; i < args.size(); ++i) total += args[i].cast<int64_t>();
    *rv = total;
  });
  CHECK_EQ(sum(1, 2, 3, 4).cast<int64_t>(), 10);
  CHECK_EQ(sum().cast<int64_t>(), 0);
  // A function taking a function: errors raised in the callback come back as they were.
  ffi::Function apply = ffi::Function::FromTyped(
      [](ffi::Function f, int64_t x) { return f(x).cast<int64_t>() * 2; }, "apply");
  CHECK_EQ(apply(ffi::Function::FromTyped([](int64_t v) { return v + 1; }), 4).cast<int64_t>(), 10);
  ffi::Function failing = ffi::Function::FromTyped([](int64_t) -> int64_t {
    TVM_FFI_THROW(KeyError) << "from the callback";
    return 0;
  });
  CHECK_THROWS(apply(failing, 1), "KeyError", "from the callback");
}

// A stateful callable built in place: the caller keeps a pointer to it for as long as the
// function lives (e.g. to read what the calls accumulated).
struct Counter {
  explicit Counter(int64_t start) : total(start) {}
  void operator()(const ffi::AnyView* args, int32_t num_args, ffi::Any* rv) {
    for (int32_t i = 0; i < num_args; ++i) total += args[i].cast<int64_t>();
    *rv = total;
  }
  int64_t total;
};

void test_packed_function_built_in_place() {
  auto [counter, state] = ffi::Function::FromPackedInplace<Counter>(100);
  CHECK_EQ(counter(1, 2).cast<int64_t>(), 103);
  CHECK_EQ(counter(7).cast<int64_t>(), 110);
  CHECK_EQ(state->total, 110);
  ffi::Function copy = counter;  // the same function object, so the same callable
  copy(1);
  CHECK_EQ(state->total, 111);
}

void test_calls_through_the_c_abi() {
  ffi::Function add = ffi::Function::FromTyped(AddInts, "add");
  TVMFFIAny args[2], result;
  args[0].type_index = kTVMFFIInt, args[0].zero_padding = 0, args[0].v_int64 = 40;
  args[1] = args[0];
  result.type_index = kTVMFFINone, result.zero_padding = 0, result.v_int64 = 0;
  TVMFFIObjectHandle handle = ffi::detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(add);
  CHECK_EQ(TVMFFIFunctionCall(handle, args, 2, &result), 0);
  CHECK_EQ(result.type_index, kTVMFFIInt);
  CHECK_EQ(result.v_int64, 80);
}

void test_global_registry() {
  ffi::Function::SetGlobal("test.cpp.add", ffi::Function::FromTyped(AddInts, "test.cpp.add"));
  CHECK_EQ(ffi::Function::GetGlobalRequired("test.cpp.add")(1, 1).cast<int64_t>(), 2);
  CHECK(!ffi::Function::GetGlobal("test.cpp.missing").has_value());
  // A std::optional, as the reference declares it: `->` reaches the Function itself.
  static_assert(std::is_same_v<decltype(ffi::Function::GetGlobal("test.cpp.add")),
                               std::optional<ffi::Function>>);
  std::optional<ffi::Function> add = ffi::Function::GetGlobal(std::string("test.cpp.add"));
  CHECK(add->get() != nullptr);
  CHECK_EQ((*add)(2, 3).cast<int64_t>(), 5);
  CHECK(ffi::Function::GetGlobal(ffi::String("test.cpp.add")).has_value());
  CHECK(ffi::Function::GetGlobal(std::string_view("test.cpp.add")).has_value());
  CHECK(ffi::Function() == nullptr && *add != nullptr);
  // The object-level call, as reference-style code spells it.
  ffi::AnyView args[2] = {int64_t{4}, int64_t{5}};
  ffi::Any rv;
  static_cast<const ffi::FunctionObj*>(add->get())->CallPacked(args, 2, &rv);
  CHECK_EQ(rv.cast<int64_t>(), 9);
  CHECK_THROWS(static_cast<const ffi::FunctionObj*>(add->get())->CallPacked(args, 1, &rv),
               "TypeError", "test.cpp.add");
  CHECK_EQ(ffi::Function::GetGlobalRequired(std::string("test.cpp.add"))(1, 2).cast<int64_t>(), 3);
  CHECK_THROWS(ffi::Function::GetGlobalRequired("test.cpp.missing"), "ValueError",
               "test.cpp.missing");
  CHECK_THROWS(ffi::Function::SetGlobal("test.cpp.add", ffi::Function::FromTyped(AddInts)),
               "RuntimeError", "already registered");
  ffi::Function::SetGlobal("test.cpp.add", ffi::Function::FromTyped(Greet), /*override=*/true);
}

void test_exported_symbols_follow_the_safe_call_convention() {
  TVMFFIAny args[2], result;
  args[0].type_index = kTVMFFIRawStr, args[0].zero_padding = 0, args[0].v_c_str = "bob";
  args[1].type_index = kTVMFFIInt, args[1].zero_padding = 0, args[1].v_int64 = 2;
  result.type_index = kTVMFFINone, result.zero_padding = 0, result.v_int64 = 0;
  CHECK_EQ(__tvm_ffi_greet(nullptr, args, 2, &result), 0);
  ffi::Any out = ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&result);
  CHECK(out.cast<ffi::String>() == "hi bob;hi bob;");
  CHECK_EQ(__tvm_ffi_add_ints(nullptr, args, 2, &result), -1);
  ffi::Error err = ffi::detail::MoveFromSafeCallRaised();
  CHECK_EQ(err.kind(), "TypeError");
  CHECK_EQ(err.message(),
           "Mismatched type on argument #0 when calling: `add_ints(0: int, 1: int) -> int`. "
           "Expected `int` but got `const char*`");
}

void test_signature_and_schema() {
  using Info = ffi::detail::FunctionInfo<decltype(Greet)>;
  CHECK_EQ(Info::Sig(), "(0: str, 1: Optional<int>) -> str");
  CHECK_EQ(Info::TypeSchema(),
           "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[{\"type\":\"ffi.String\"}],"
           "\"params\":[{\"type\":\"ffi.String\"},{\"type\":\"Optional\",\"args\":[{\"type\":\"int\"}]}]}}");
}

int main() {
  RUN(test_packed_function_built_in_place);
  RUN(test_typed_function_calls);
  RUN(test_argument_errors_name_the_function_and_types);
  RUN(test_packed_functions_and_callbacks);
  RUN(test_calls_through_the_c_abi);
  RUN(test_global_registry);
  RUN(test_exported_symbols_follow_the_safe_call_convention);
  RUN(test_signature_and_schema);
  return CHECK_MAIN_RESULT();
}
