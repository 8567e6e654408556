// test_layout.cc -- the C++ classes that mirror ABI objects and values have the sizes and field
// offsets of spec/ABI.md sections 3, 4 and 4.6 (checked at compile time; main reports them).
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/extra/structural_key.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/access_path.h>

#include <cstddef>

#include "check.h"

namespace ffi = tvm::ffi;

// Offset of a base-class subobject or member from the object header, without offsetof (the
// classes are not standard-layout).
template <typename Obj, typename Cell>
std::ptrdiff_t CellOffset() {
  alignas(Obj) static unsigned char storage[sizeof(Obj)];
  Obj* obj = reinterpret_cast<Obj*>(storage);
  return reinterpret_cast<char*>(static_cast<Cell*>(obj)) -
         reinterpret_cast<char*>(static_cast<ffi::Object*>(obj));
}

// Offset of a data member from the object header.
template <typename Obj, typename Member>
std::ptrdiff_t FieldOffset(Member Obj::*field) {
  alignas(Obj) static unsigned char storage[sizeof(Obj)];
  Obj* obj = reinterpret_cast<Obj*>(storage);
  return reinterpret_cast<char*>(&(obj->*field)) - reinterpret_cast<char*>(static_cast<ffi::Object*>(obj));
}

// Values (ABI.md 4.6).
static_assert(sizeof(ffi::Any) == 16 && sizeof(ffi::AnyView) == 16);
static_assert(sizeof(ffi::String) == 16 && sizeof(ffi::Bytes) == 16);
static_assert(sizeof(ffi::ObjectRef) == 8 && sizeof(ffi::Tensor) == 8 && sizeof(ffi::Function) == 8);
static_assert(sizeof(ffi::Array<int>) == 8 && sizeof(ffi::List<int>) == 8);
static_assert(sizeof(ffi::Map<int, int>) == 8 && sizeof(ffi::Dict<int, int>) == 8);
static_assert(sizeof(ffi::Shape) == 8 && sizeof(ffi::ObjectPtr<ffi::Object>) == 8);
static_assert(sizeof(ffi::Optional<ffi::Tensor>) == 8);
// Optionals of values are an Any (the reference's layout): exported functions take them by
// reference (json::Stringify's indent) or return them (ModuleObj::GetFunctionDoc).
static_assert(sizeof(ffi::Optional<int>) == 16 && sizeof(ffi::Optional<double>) == 16);
static_assert(sizeof(ffi::Optional<bool>) == 16 && sizeof(ffi::Optional<ffi::String>) == 16);
static_assert(sizeof(ffi::Optional<ffi::Bytes>) == 16);
static_assert(sizeof(ffi::Variant<int, ffi::String>) == 16);
static_assert(sizeof(ffi::TensorView) == 48 && sizeof(ffi::ShapeView) == 16);
// Objects (ABI.md 4): header 24 bytes, cell right after it.
static_assert(sizeof(ffi::Object) == 24);
static_assert(sizeof(ffi::StringObj) == 40 && sizeof(ffi::BytesObj) == 40);
static_assert(sizeof(ffi::ShapeObj) == 40);
static_assert(sizeof(ffi::FunctionObj) == 40);
static_assert(sizeof(ffi::TensorObj) == 72);
static_assert(sizeof(ffi::ErrorObj) == 96);
static_assert(sizeof(ffi::ArrayObj) == 56 && sizeof(ffi::ListObj) == 56);
static_assert(sizeof(ffi::MapObj) == 56 && sizeof(ffi::DictObj) == 56);

void test_cells_start_after_the_header() {
  CHECK_EQ((CellOffset<ffi::StringObj, TVMFFIByteArray>()), 24);
  CHECK_EQ((CellOffset<ffi::BytesObj, TVMFFIByteArray>()), 24);
  CHECK_EQ((CellOffset<ffi::ShapeObj, TVMFFIShapeCell>()), 24);
  CHECK_EQ((CellOffset<ffi::FunctionObj, TVMFFIFunctionCell>()), 24);
  CHECK_EQ((CellOffset<ffi::TensorObj, DLTensor>()), 24);
  CHECK_EQ((CellOffset<ffi::ErrorObj, TVMFFIErrorCell>()), 24);
  CHECK_EQ((CellOffset<ffi::ArrayObj, TVMFFISeqCell>()), 24);
  CHECK_EQ((CellOffset<ffi::ListObj, TVMFFISeqCell>()), 24);
}

void test_optional_values_are_an_any() {
  ffi::Optional<int> none;
  ffi::Optional<int> three = 3;
  ffi::Optional<ffi::String> text = "abc";
  CHECK_EQ(reinterpret_cast<const TVMFFIAny*>(&none)->type_index, ffi::TypeIndex::kTVMFFINone);
  CHECK_EQ(reinterpret_cast<const TVMFFIAny*>(&three)->type_index, ffi::TypeIndex::kTVMFFIInt);
  CHECK_EQ(reinterpret_cast<const TVMFFIAny*>(&three)->v_int64, 3);
  CHECK_EQ(reinterpret_cast<const TVMFFIAny*>(&text)->type_index, ffi::TypeIndex::kTVMFFISmallStr);
  CHECK(text.value() == "abc" && *three == 3 && !none.has_value());
}

void test_extra_header_objects_match_the_runtime_layout() {
  // Field offsets from the header, as src/runtime/structural lays these objects out.
  namespace refl = ffi::reflection;
  CHECK_EQ(sizeof(refl::AccessStepObj), 48u);
  CHECK_EQ(FieldOffset(&refl::AccessStepObj::key), 32);
  CHECK_EQ(sizeof(refl::AccessPathObj), 48u);
  CHECK_EQ(FieldOffset(&refl::AccessPathObj::parent), 24);
  CHECK_EQ(FieldOffset(&refl::AccessPathObj::depth), 40);
  CHECK_EQ(sizeof(ffi::StructuralKeyObj), 48u);
  CHECK_EQ(FieldOffset(&ffi::StructuralKeyObj::hash_i64), 40);
  CHECK_EQ(sizeof(ffi::VisitErrorContextObj), 40u);
}

void test_reference_values_hold_the_handle() {
  ffi::Shape shape{1, 2};
  void* handle = *reinterpret_cast<void**>(&shape);
  CHECK_EQ(handle, static_cast<const void*>(shape.get()));
  ffi::Any any = shape;
  TVMFFIAny raw = any.CopyToTVMFFIAny();
  CHECK_EQ(raw.type_index, ffi::TypeIndex::kTVMFFIShape);
  CHECK_EQ(raw.zero_padding, 0u);
  CHECK_EQ(static_cast<void*>(raw.v_obj), handle);
}

int main() {
  RUN(test_cells_start_after_the_header);
  RUN(test_optional_values_are_an_any);
  RUN(test_extra_header_objects_match_the_runtime_layout);
  RUN(test_reference_values_hold_the_handle);
  return CHECK_MAIN_RESULT();
}
