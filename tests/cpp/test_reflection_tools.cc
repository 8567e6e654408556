// test_reflection_tools.cc -- reflection/accessor.h, creator.h, native_function.h, overload.h
// and extra/dataclass.h used from C++ (run plain and under ASan/UBSan): fields read and written
// by name, defaults and factories, objects created from maps, native and packed hooks, overload
// dispatch, and the dataclass value operations.
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/native_function.h>
#include <tvm/ffi/reflection/overload.h>
#include <tvm/ffi/tvm_ffi.h>

#include <sstream>
#include <string>

#include "check.h"

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

class CellObj : public ffi::Object {
 public:
  int64_t value = 0;
  ffi::Array<int64_t> history;
  ffi::String name;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("test.tools.Cell", CellObj, ffi::Object);
};

class TaggedCellObj : public CellObj {
 public:
  ffi::String tag;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.tools.TaggedCell", TaggedCellObj, CellObj);
};

class RangeObj : public ffi::Object {
 public:
  int64_t begin = 0;
  int64_t end = 0;
  explicit RangeObj(int64_t end) : end(end) {}
  RangeObj(int64_t begin, int64_t end) : begin(begin), end(end) {}
  int64_t Size() const { return end - begin; }
  bool Contains(int64_t x) const { return begin <= x && x < end; }
  bool ContainsText(ffi::String text) const { return Contains(static_cast<int64_t>(text.size())); }
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.tools.Range", RangeObj, ffi::Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<CellObj>()
      .def_rw("value", &CellObj::value)
      .def_rw("history", &CellObj::history,
              refl::default_factory(ffi::Function::FromTyped([]() { return ffi::Array<int64_t>{0}; })))
      .def_rw("name", &CellObj::name, refl::default_value(ffi::String("cell")))
      .def("bump", [](CellObj* self, int64_t by) { return self->value += by; }, "adds `by`");
  refl::ObjectDef<TaggedCellObj>().def_rw("tag", &TaggedCellObj::tag);
  refl::OverloadObjectDef<RangeObj>()
      .def(refl::init<int64_t>())
      .def(refl::init<int64_t, int64_t>())
      .def_ro("begin", &RangeObj::begin)
      .def_rw("end", &RangeObj::end)
      .def("contains", &RangeObj::Contains)
      .def("contains", &RangeObj::ContainsText)
      .def("size", &RangeObj::Size, "the number of values", refl::Metadata{{"pure", true}})
      .def_static("unit", []() { return int64_t{1}; })
      .def_static("unit", [](int64_t k) { return k; });
}

static void test_field_getter_setter_and_defaults() {
  ffi::ObjectPtr<CellObj> cell = ffi::make_object<CellObj>();
  refl::FieldSetter("test.tools.Cell", "value")(cell, 41);
  CHECK_EQ(cell->value, 41);
  CHECK_EQ(refl::FieldGetter("test.tools.Cell", "value")(cell).cast<int64_t>(), 41);
  CHECK_THROWS(refl::FieldSetter("test.tools.Cell", "value")(cell, "text"), "TypeError", "to `int`");
  CHECK_THROWS(refl::GetFieldInfo("test.tools.Cell", "nope"), "RuntimeError",
               "Cannot find field  `nope` in test.tools.Cell");

  const TVMFFIFieldInfo* history = refl::GetFieldInfo("test.tools.Cell", "history");
  refl::SetFieldToDefault(history, reinterpret_cast<char*>(cell.get()) + history->offset);
  CHECK_EQ(cell->history.size(), size_t{1});
  const TVMFFIFieldInfo* name = refl::GetFieldInfo("test.tools.Cell", "name");
  CHECK_EQ(refl::CallFieldSetterToDefault(name, reinterpret_cast<char*>(cell.get()) + name->offset), 0);
  CHECK(cell->name == "cell");

  std::string names;
  const ffi::TypeInfo* info = TVMFFIGetTypeInfo(TaggedCellObj::RuntimeTypeIndex());
  refl::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* f) { names += std::string(f->name.data, f->name.size) + ","; });
  CHECK_EQ(names, std::string("value,history,name,tag,"));
  bool stopped = refl::ForEachFieldInfoWithEarlyStop(
      info, [](const TVMFFIFieldInfo* f) { return std::string(f->name.data, f->name.size) == "name"; });
  CHECK(stopped);
}

static void test_methods_and_type_attrs() {
  ffi::ObjectPtr<CellObj> cell = ffi::make_object<CellObj>();
  ffi::Function bump = refl::GetMethod("test.tools.Cell", "bump");
  CHECK_EQ(bump(ffi::ObjectRef(cell), 5).cast<int64_t>(), 5);
  CHECK_EQ(std::string(refl::GetMethodInfo("test.tools.Cell", "bump")->doc.data), std::string("adds `by`"));
  CHECK_THROWS(refl::GetMethod("test.tools.Cell", "missing"), "RuntimeError", "Cannot find method missing");

  int32_t index = CellObj::RuntimeTypeIndex();
  refl::TypeAttrColumn inits(ffi::type_attr::kInit);
  CHECK(ffi::type_attr::kInit.ValueFrom(inits[index]).has_value());
  CHECK(!ffi::type_attr::kInit.ValueFrom(inits[1 << 20]).has_value());  // beyond the column: None
  CHECK_THROWS(ffi::type_attr::kTypeFinal.ValueFrom(inits[index]), "TypeError", "__ffi_type_final__");
  CHECK_THROWS(refl::TypeAttrColumn("no.such.attr"), "RuntimeError", "Cannot find type attribute");
  constexpr TVMFFIByteArray kName = refl::AsByteArray("__ffi_init__");
  CHECK_EQ(kName.size, size_t{12});
}

static void test_object_creator() {
  refl::ObjectCreator make("test.tools.TaggedCell");
  ffi::Any made = make(ffi::Map<ffi::String, ffi::Any>{{"value", 3}, {"tag", ffi::String("t")}});
  const TaggedCellObj* cell = made.as<TaggedCellObj>();
  CHECK(cell != nullptr);
  CHECK_EQ(cell->value, 3);
  CHECK(cell->name == "cell" && cell->tag == "t" && cell->history.size() == 1);
  CHECK_THROWS(make(ffi::Map<ffi::String, ffi::Any>{{"tag", ffi::String("t")}}), "TypeError",
               "Required field `value` not set in type `test.tools.TaggedCell`");
  CHECK_THROWS(make(ffi::Map<ffi::String, ffi::Any>{{"value", 1}, {"tag", ffi::String("")}, {"x", 1}}),
               "TypeError", "does not have field `x`");
  CHECK_THROWS(make(ffi::Map<ffi::String, ffi::Any>{{"value", ffi::String("v")}, {"tag", ffi::String("")}}),
               "TypeError", "to `int`");
  CHECK_THROWS(refl::ObjectCreator("test.tools.Range"), "RuntimeError", "does not support default constructor");
  CHECK(ffi::HasCreator(TVMFFIGetTypeInfo(CellObj::RuntimeTypeIndex())));
  ffi::ObjectPtr<ffi::Object> empty = ffi::CreateEmptyObject(TVMFFIGetTypeInfo(CellObj::RuntimeTypeIndex()));
  CHECK_EQ(static_cast<CellObj*>(empty.get())->value, 0);
  CHECK_THROWS(refl::details::FFIConvertFromAnyViewToObjectRef<ffi::Function>(ffi::AnyView(made)), "TypeError",
               "Cannot cast from `test.tools.TaggedCell`");
}

static int64_t Square(int64_t x) { return x * x; }
static int64_t Reject(int64_t) { TVM_FFI_THROW(IndexError) << "rejected"; }

static void test_native_function_hooks() {
  using View = refl::NativeFunctionView<int64_t(int64_t)>;
  using Owned = refl::NativeFunction<int64_t(int64_t)>;
  View native = View::FromNative<&Square>();
  CHECK_EQ(native(7), 49);
  CHECK_THROWS(View::FromNative<&Reject>()(1), "IndexError", "rejected");
  ffi::TypedFunction<int64_t(int64_t)> packed([](int64_t x) { return x - 1; });
  CHECK_EQ(View(packed)(7), 6);
  Owned owned(packed);
  packed = nullptr;  // the owner keeps the function alive
  CHECK_EQ(owned(7), 6);
  ffi::Any stored = owned;
  CHECK_EQ(stored.cast<Owned>()(1), 0);
  ffi::TypedFunction<ffi::String(int64_t)> wrong_result([](int64_t) { return ffi::String("x"); });
  ffi::Function wrong = wrong_result;
  ffi::Any as_hook = wrong;
  CHECK_THROWS(as_hook.cast<Owned>()(1), "TypeError", "Packed hook result type mismatch");
  CHECK(!ffi::Any(int64_t{1}).try_cast<Owned>().has_value());
}

static void test_overloads() {
  ffi::Function init = refl::GetMethod("test.tools.Range", "__ffi_init__");
  ffi::ObjectRef one = init(5).cast<ffi::ObjectRef>();
  ffi::ObjectRef two = init(2, 5).cast<ffi::ObjectRef>();
  CHECK_EQ(one.as<RangeObj>()->Size(), 5);
  CHECK_EQ(two.as<RangeObj>()->begin, 2);
  CHECK_THROWS(init(1, 2, 3), "TypeError",
               "No matching overload found when calling: `test.tools.Range.__ffi_init__` with 3 arguments");
  ffi::Function contains = refl::GetMethod("test.tools.Range", "contains");
  CHECK(contains(two, 3).cast<bool>());
  CHECK(contains(two, ffi::String("abc")).cast<bool>());
  CHECK_THROWS(contains(two, 1.5), "TypeError", "Overload #1: Mismatched type on argument #1");
  ffi::Function unit = refl::GetMethod("test.tools.Range", "unit");
  CHECK_EQ(unit().cast<int64_t>(), 1);
  CHECK_EQ(unit(9).cast<int64_t>(), 9);
  // a single signature keeps the plain typed-function errors
  CHECK_THROWS(refl::GetMethod("test.tools.Range", "size")(two, 1), "TypeError",
               "Mismatched number of arguments when calling: `test.tools.Range.size");
  // the constructor type attribute is the same overloaded function
  refl::TypeAttrColumn inits(ffi::type_attr::kInit);
  ffi::Function attr = inits[RangeObj::RuntimeTypeIndex()].cast<ffi::Function>();
  CHECK_EQ(attr(1, 4).cast<ffi::ObjectRef>().as<RangeObj>()->Size(), 3);
  // doc strings and refl::Metadata entries reach the registered method info
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(RangeObj::RuntimeTypeIndex());
  int found = 0;
  for (int32_t i = 0; i < info->num_methods; ++i) {
    std::string name(info->methods[i].name.data, info->methods[i].name.size);
    if (name != "size") continue;
    ++found;
    std::string meta(info->methods[i].metadata.data, info->methods[i].metadata.size);
    CHECK(std::string(info->methods[i].doc.data, info->methods[i].doc.size) == "the number of values");
    CHECK(meta.size() > 13 && meta.compare(meta.size() - 13, 13, R"(,"pure":true})") == 0);
  }
  CHECK_EQ(found, 1);
}

static void test_dataclass_operations() {
  ffi::ObjectPtr<CellObj> cell = ffi::make_object<CellObj>();
  cell->value = 2;
  cell->name = "c";
  ffi::Any a = ffi::ObjectRef(cell);
  ffi::Any copy = ffi::DeepCopy(a);
  CHECK(!copy.cast<ffi::ObjectRef>().same_as(a.cast<ffi::ObjectRef>()));
  CHECK(ffi::RecursiveEq(a, copy));
  CHECK_EQ(ffi::RecursiveHash(a), ffi::RecursiveHash(copy));
  const_cast<CellObj*>(copy.as<CellObj>())->value = 3;
  CHECK(ffi::RecursiveLt(a, copy) && ffi::RecursiveLe(a, copy));
  CHECK(ffi::RecursiveGt(copy, a) && ffi::RecursiveGe(copy, a));
  CHECK(!ffi::RecursiveEq(a, copy));
  std::string text = std::string(ffi::ReprPrint(a));
  CHECK(text.find("test.tools.Cell(") == 0 && text.find("value=2") != std::string::npos);
  std::ostringstream os;
  os << ffi::Any(int64_t{5}) << ";" << ffi::Optional<int64_t>() << ";" << ffi::ObjectRef(cell);
  CHECK_EQ(os.str(), "5;None;" + text);
  CHECK_EQ(std::string(ffi::type_attr::kRepr.name) + ffi::type_attr::kHash.name + ffi::type_attr::kEq.name +
               ffi::type_attr::kCompare.name,
           std::string("__ffi_repr____ffi_hash____ffi_eq____ffi_compare__"));
}

int main() {
  RUN(test_field_getter_setter_and_defaults);
  RUN(test_methods_and_type_attrs);
  RUN(test_object_creator);
  RUN(test_native_function_hooks);
  RUN(test_overloads);
  RUN(test_dataclass_operations);
  return CHECK_MAIN_RESULT();
}
