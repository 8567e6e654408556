// test_value_api.cc -- value semantics kernels rely on: Any identity (same_as), moving casts
// and strict as_or_throw, Optional comparisons and moves, Variant identity, Tuple structured
// bindings, deduction and mismatch text, reference types built from plain values
// (ObjectRefWithFallbackTraitsBase, StrictBool), 64-bit unsigned overflow, device and dtype
// strings, device equality, tensor PyTorch spellings and strided views, global function listing and removal,
// and calling a C safe-call symbol directly (Function::InvokeExternC).
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/tvm_ffi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

#include "check.h"

namespace ffi = tvm::ffi;

class ExprObj : public ffi::Object {
 public:
  ExprObj(std::string k, double v) : kind(std::move(k)), value(v) {}
  std::string kind;
  double value;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.value.Expr", ExprObj, ffi::Object);
};

class Expr : public ffi::ObjectRef {
 public:
  Expr(std::string kind, double value) : Expr(ffi::make_object<ExprObj>(std::move(kind), value)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Expr, ffi::ObjectRef, ExprObj);
};

// Expr arguments also accept bools, ints and floats, which become constant expressions.
namespace tvm {
namespace ffi {
template <>
inline constexpr bool use_default_type_traits_v<Expr> = false;
template <>
struct TypeTraits<Expr> : ObjectRefWithFallbackTraitsBase<Expr, StrictBool, int64_t, double> {
  static Expr ConvertFallbackValue(StrictBool v) { return Expr("bool", v ? 1.0 : 0.0); }
  static Expr ConvertFallbackValue(int64_t v) { return Expr("int", static_cast<double>(v)); }
  static Expr ConvertFallbackValue(double v) { return Expr("float", v); }
};
}  // namespace ffi
}  // namespace tvm

void test_references_built_from_plain_values() {
  CHECK_EQ(ffi::Any(true).cast<Expr>()->kind, std::string("bool"));  // StrictBool before int
  CHECK_EQ(ffi::Any(7).cast<Expr>()->kind, std::string("int"));
  CHECK_EQ(ffi::Any(0.5).cast<Expr>()->value, 0.5);
  Expr e("var", 1.0);
  CHECK(ffi::Any(e).cast<Expr>().same_as(e));  // an Expr stays itself
  CHECK(!ffi::Any("text").try_cast<Expr>().has_value());
  ffi::Function add = ffi::Function::FromTyped([](Expr a, Expr b) { return a->value + b->value; });
  CHECK_EQ(add(e, 2).cast<double>(), 3.0);
}

void test_any_identity_and_moves() {
  Expr e("var", 1.0);
  ffi::Any a = e;
  ffi::Any b = e;
  CHECK(a.same_as(b) && a.same_as(e));
  CHECK(!a.same_as(ffi::Any(Expr("var", 1.0))));
  CHECK(ffi::Any(3).same_as(ffi::Any(3)) && !ffi::Any(3).same_as(ffi::Any(3.0)));
  CHECK(ffi::AnyView(a).same_as(ffi::AnyView(e)));
  // Moving a cast out of an Any hands over its reference: no copy is left behind.
  Expr taken = std::move(a).cast<Expr>();
  CHECK(a == nullptr);  // NOLINT(bugprone-use-after-move)
  CHECK_EQ(taken.use_count(), 3);  // e, b, taken
  CHECK_EQ(std::move(b).as_or_throw<Expr>().use_count(), 3);
  CHECK_THROWS(ffi::Any(1).as_or_throw<double>(), "TypeError", "Cannot treat type `int` as type `float`");
  CHECK_EQ(ffi::AnyView(2.5).as_or_throw<double>(), 2.5);
  // Views swap and reset without touching reference counts.
  int32_t count = e.use_count();
  ffi::AnyView first(e), second(2.5);
  first.swap(second);
  CHECK(first.as_or_throw<double>() == 2.5 && second.same_as(ffi::AnyView(e)));
  second.reset();
  CHECK(second == nullptr);
  CHECK_EQ(e.use_count(), count);
}

void test_unsigned_values_that_do_not_fit_int64() {
  uint64_t too_big = static_cast<uint64_t>(INT64_MAX) + 1;
  CHECK_THROWS(ffi::Any{too_big}, "OverflowError", "is too large to fit in int64_t");
  CHECK_EQ(ffi::Any(static_cast<uint64_t>(INT64_MAX)).cast<int64_t>(), INT64_MAX);
}

void test_device_strings() {
  DLDevice max_id = ffi::AnyView("cuda:2147483647").cast<DLDevice>();
  CHECK_EQ(max_id.device_id, 2147483647);
  CHECK(!ffi::AnyView("cuda:2147483648").try_cast<DLDevice>().has_value());
  CHECK(!ffi::AnyView("cuda:-1").try_cast<DLDevice>().has_value());
}

void test_dtype_strings_and_bytes() {
  DLDataType from_text = ffi::AnyView("float32").cast<DLDataType>();
  DLDataType from_bytes = ffi::Any(ffi::Bytes("int8")).cast<DLDataType>();
  CHECK(from_text.code == kDLFloat && from_text.bits == 32 && from_text.lanes == 1);
  CHECK(from_bytes.code == kDLInt && from_bytes.bits == 8);
  CHECK_THROWS(ffi::AnyView("not_a_dtype").cast<DLDataType>(), "ValueError", "unknown dtype");
}

void test_optional_comparisons_and_moves() {
  ffi::Optional<double> half = 0.5;
  ffi::Optional<double> none;
  CHECK(half == 0.5 && half != 1.0);
  CHECK(none != 0.5 && !(none == 0.5));
  CHECK(none == ffi::Optional<double>() && half != none);
  ffi::Optional<ffi::String> name = ffi::String("abc");
  CHECK(name == "abc" && name == ffi::String("abc") && name != "abd");
  ffi::Optional<Expr> expr = Expr("var", 1.0);
  CHECK_EQ(expr.use_count(), 1);
  Expr out = *std::move(expr);
  CHECK(!expr.has_value());  // NOLINT(bugprone-use-after-move)
  ffi::Any held = ffi::Optional<Expr>(out);
  ffi::Optional<Expr> back = std::move(held).cast<ffi::Optional<Expr>>();
  CHECK_EQ(back.use_count(), 2);  // out and back: the Any's reference moved over
}

// Optional's strict reads and identity, in every storage form.
void test_optional_strict_reads_and_identity() {
  ffi::Optional<Expr> expr = Expr("var", 2.0);
  if (const ExprObj* e = expr.as<ExprObj>()) CHECK_EQ(e->value, 2.0);
  CHECK(ffi::Optional<Expr>().as<ExprObj>() == nullptr);
  CHECK(!ffi::Optional<Expr>().as<int64_t>().has_value());  // an empty one reads as None
  CHECK(!ffi::Optional<ffi::Array<int64_t>>().as<ffi::Array<int64_t>>().has_value());
  CHECK_THROWS(ffi::Optional<ffi::Array<int64_t>>().as_or_throw<ffi::Array<int64_t>>(), "TypeError",
               "Cannot treat type `None` as type `Array<int>`");
  CHECK(expr.as<Expr>().has_value() && !expr.as<int64_t>().has_value());
  CHECK(expr.unique() && expr.same_as(expr) && !expr.same_as(ffi::Optional<Expr>(Expr("var", 2.0))));
  ffi::Optional<int64_t> count = 3;
  CHECK_EQ(*count.as<int64_t>(), 3);
  CHECK(!count.as<double>().has_value() && !ffi::Optional<int64_t>().as<int64_t>().has_value());
  ffi::Optional<ffi::String> name = ffi::String("abc");
  CHECK_EQ(name.as_or_throw<ffi::String>().size(), 3u);
  CHECK_THROWS(name.as_or_throw<int64_t>(), "TypeError", "Cannot treat");
  CHECK(name.same_as(name) && ffi::Optional<ffi::String>().same_as(ffi::Optional<ffi::String>()));
  ffi::Optional<ffi::ObjectPtr<ExprObj>> ptr = ffi::make_object<ExprObj>("c", 1.0);
  CHECK(ptr.unique() && ptr.same_as(ptr) && ptr.get()->value == 1.0);
}

// Types that are never stored but convert from other values (FallbackOnlyTraitsBase).
struct Celsius {
  double degrees;
};
namespace tvm {
namespace ffi {
template <>
struct TypeTraits<Celsius> : public FallbackOnlyTraitsBase<Celsius, int64_t, String> {
  static Celsius ConvertFallbackValue(int64_t v) { return Celsius{static_cast<double>(v)}; }
  static Celsius ConvertFallbackValue(String v) { return Celsius{std::stod(std::string(v))}; }
  static std::string TypeStr() { return "Celsius"; }
  static std::string TypeSchema() { return R"({"type":"Celsius"})"; }
};
}  // namespace ffi
}  // namespace tvm

void test_fallback_only_types_convert_from_their_fallbacks() {
  CHECK_EQ(ffi::Any(int64_t{20}).cast<Celsius>().degrees, 20.0);
  CHECK_EQ(ffi::Any(ffi::String("21.5")).cast<Celsius>().degrees, 21.5);
  CHECK(!ffi::Any(1.5).try_cast<Celsius>().has_value());
  ffi::Function warm = ffi::Function::FromTyped([](Celsius c) { return c.degrees > 25; });
  CHECK(warm(ffi::String("30")).cast<bool>());
  CHECK_THROWS(warm(1.5), "TypeError", "Celsius");
}

void test_dtype_abbreviations() {
  CHECK(ffi::DTypeAbbrev(DLDataType{kDLFloat, 32, 1}) == "f32");
  CHECK(ffi::DTypeAbbrev(DLDataType{kDLBfloat, 16, 4}) == "bf16x4");
  CHECK(ffi::DTypeAbbrev(DLDataType{kDLUInt, 8, 1}) == "u8");
  CHECK(ffi::DTypeAbbrev(DLDataType{kDLBool, 8, 1}) == "bool");
  CHECK(ffi::DTypeAbbrev(DLDataType{kDLFloat8_e4m3fn, 8, 1}) == "f8_e4m3fn");
  CHECK(ffi::DTypeAbbrev(DLDataType{kDLInt, 32, static_cast<uint16_t>(-4)}) == "i32xvscalex4");
  CHECK(ffi::DTypeAbbrev(DLDataType{kDLOpaqueHandle, 0, 0}) == "void");
  CHECK(ffi::DTypeAbbrev(DLDataType{kDLOpaqueHandle, 64, 1}) == "handle");
  CHECK_THROWS(ffi::DTypeAbbrev(DLDataType{100, 8, 1}), "ValueError", "unknown type_code=100");
}

void test_variant_identity() {
  static_assert(ffi::Variant<int64_t, ffi::String>::variant_contains_v<ffi::String>);
  static_assert(!ffi::Variant<int64_t, ffi::String>::variant_contains_v<Expr>);
  Expr e("var", 1.0);
  ffi::Variant<Expr, ffi::Array<Expr>> one = e;
  ffi::Variant<Expr, ffi::Array<Expr>> same = e;
  CHECK(one.same_as(same));
  std::unordered_map<ffi::Variant<Expr, ffi::Array<Expr>>, int, ffi::ObjectPtrHash,
                     ffi::ObjectPtrEqual>
      seen;
  seen[one] = 1;
  CHECK_EQ(seen.count(same), 1u);
  Expr moved = std::move(one).get<Expr>();
  CHECK_EQ(moved.use_count(), 4);  // e, same, the map key, moved (one gave its reference up)
  static_assert(ffi::type_subsumes_v<ffi::Variant<int64_t, double>, int64_t>);
}

void test_tuple_bindings_and_mismatch_text() {
  ffi::Tuple<int64_t, ffi::String> pair(1, "one");
  auto [number, word] = pair;
  CHECK_EQ(number, 1);
  CHECK(word == "one");
  CHECK_EQ(ffi::get<1>(pair), ffi::String("one"));
  using Pair = ffi::Tuple<int64_t, ffi::String>;
  ffi::Any short_list = ffi::Array<ffi::Any>{1};
  TVMFFIAny raw = short_list.CopyToTVMFFIAny();
  CHECK_EQ(ffi::TypeTraits<Pair>::GetMismatchTypeInfo(&raw), std::string("Array[size=1]"));
  ffi::Function take = ffi::Function::FromTyped([](Pair p) { return ffi::get<0>(p); });
  CHECK_THROWS(take(ffi::Array<ffi::Any>{1.5, "x"}), "TypeError", "but got `Array[index 0: float]`");
}

struct MallocAlloc {
  void AllocData(DLTensor* t) { t->data = std::malloc(ffi::GetDataSize(*t)); }
  void FreeData(DLTensor* t) { std::free(t->data); }
};

static int AddOne(void*, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  if (num_args != 1 || args[0].type_index != ffi::TypeIndex::kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "add_one takes one int");
    return -1;
  }
  result->type_index = ffi::TypeIndex::kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = args[0].v_int64 + 1;
  return 0;
}

void test_invoke_extern_c() {
  CHECK_EQ(ffi::Function::InvokeExternC(nullptr, AddOne, 41).cast<int>(), 42);
  CHECK_THROWS(ffi::Function::InvokeExternC(nullptr, AddOne, "x"), "TypeError", "takes one int");
}

void test_tensor_torch_spellings_and_strided_views() {
  std::vector<float> data{0, 1, 2, 3, 4, 5};
  int64_t shape[2] = {2, 3};
  int64_t strides[2] = {3, 1};
  DLTensor dl{data.data(), DLDevice{kDLCPU, 0}, 2, DLDataType{kDLFloat, 32, 1}, shape, strides, 0};
  ffi::TensorView view(&dl);
  CHECK_EQ(view.dim(), 2);
  CHECK_EQ(view.sizes()[1], 3);
  CHECK(view.is_contiguous());
  // The second column as a 1-d view: 2 elements, stride 3, starting one element in.
  int64_t col_shape[1] = {2};
  int64_t col_strides[1] = {3};
  ffi::TensorView column = view.as_strided(ffi::ShapeView(col_shape, 1), ffi::ShapeView(col_strides, 1), 1);
  CHECK_EQ(static_cast<float*>(column.data_ptr())[column.stride(0)], 4.0f);
  CHECK(!column.is_contiguous());
  CHECK_THROWS(view.as_strided(ffi::ShapeView(col_shape, 1), ffi::ShapeView(strides, 2)), "ValueError",
               "strides has 2");
  // A Tensor view copies shape and strides and keeps the source alive.
  ffi::Tensor column_tensor;
  {
    ffi::Tensor owner = ffi::Tensor::FromNDAlloc(MallocAlloc(), {2, 3}, DLDataType{kDLFloat, 32, 1},
                                                 DLDevice{kDLCPU, 0});
    for (int i = 0; i < 6; ++i) static_cast<float*>(owner.data_ptr())[i] = static_cast<float>(i);
    int64_t tmp_shape[1] = {2};
    int64_t tmp_strides[1] = {3};
    column_tensor = owner.as_strided(ffi::ShapeView(tmp_shape, 1), ffi::ShapeView(tmp_strides, 1), 2);
    tmp_shape[0] = 99;  // copied: the view does not see this
  }
  CHECK_EQ(column_tensor.size(0), 2);
  CHECK_EQ(static_cast<float*>(column_tensor.data_ptr())[3], 5.0f);  // the owner is still alive
}

void test_device_equality_yields_to_user_operators() {
  DLDevice a{kDLCPU, 0};
  CHECK(a == (DLDevice{kDLCPU, 0}) && a != (DLDevice{kDLCUDA, 0}));
}

void test_global_function_names_and_removal() {
  ffi::Function::SetGlobal("test.value.temp", ffi::Function::FromTyped([]() { return 1; }));
  std::vector<ffi::String> names = ffi::Function::ListGlobalNames();
  CHECK(std::find(names.begin(), names.end(), ffi::String("test.value.temp")) != names.end());
  ffi::Function::RemoveGlobal("test.value.temp");
  CHECK(!ffi::Function::GetGlobal("test.value.temp").has_value());
  CHECK_EQ(ffi::Object::TypeIndex2Key(ffi::TypeIndex::kTVMFFIArray), std::string("ffi.Array"));
  auto triple = ffi::Tuple(std::string("a"), 1, 2.5);  // deduced Tuple<std::string, int, double>
  static_assert(std::is_same_v<decltype(triple), ffi::Tuple<std::string, int, double>>);
  CHECK_EQ(triple.get<2>(), 2.5);
}

int main() {
  RUN(test_references_built_from_plain_values);
  RUN(test_any_identity_and_moves);
  RUN(test_unsigned_values_that_do_not_fit_int64);
  RUN(test_device_strings);
  RUN(test_dtype_strings_and_bytes);
  RUN(test_optional_comparisons_and_moves);
  RUN(test_optional_strict_reads_and_identity);
  RUN(test_fallback_only_types_convert_from_their_fallbacks);
  RUN(test_dtype_abbreviations);
  RUN(test_variant_identity);
  RUN(test_tuple_bindings_and_mismatch_text);
  RUN(test_invoke_extern_c);
  RUN(test_tensor_torch_spellings_and_strided_views);
  RUN(test_device_equality_yields_to_user_operators);
  RUN(test_global_function_names_and_removal);
  return CHECK_MAIN_RESULT();
}
