// test_reflection.cc -- reflection/registry.h: a reflected object type (fields with offsets,
// getters and setters, methods, constructor) and global functions with type-schema metadata.
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

#include <cstring>

#include "check.h"

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

class PointObj : public ffi::Object {
 public:
  int64_t x = 0;
  double y = 0;
  ffi::String label;
  PointObj() = default;
  PointObj(int64_t x, double y) : x(x), y(y) {}
  int64_t Shifted(int64_t k) const { return x + k; }
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.cpp.Point", PointObj, ffi::Object);
};

class Point : public ffi::ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Point, ffi::ObjectRef, PointObj);
};

// Fields with the reference's field traits and no explicit constructor: the runtime generates
// __ffi_init__ over the fields when the ObjectDef is done.
class OptionsObj : public ffi::Object {
 public:
  int64_t level = 0;
  ffi::String tag;
  ffi::Array<int64_t> sizes;
  int64_t cache = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.cpp.Options", OptionsObj, ffi::Object);
};

class SealedObj : public ffi::Object {
 public:
  int64_t v = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.cpp.Sealed", SealedObj, ffi::Object);
};

// A user field extra, through the extension point the reference documents: it adjusts the
// record the field is registered with and adds a metadata entry.
struct Unit : public refl::InfoTrait {
  explicit Unit(const char* name) : name(name) {}
  void Apply(refl::FieldInfoBuilder* info) const {
    info->flags |= kTVMFFIFieldFlagBitMaskReprOff;
    info->metadata_.emplace_back("unit", ffi::String(name));
  }
  const char* name;
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<OptionsObj>()
      .def_rw("level", &OptionsObj::level, refl::kw_only(true), refl::default_value(2))
      .def_rw("tag", &OptionsObj::tag, refl::repr(false), refl::compare(false), refl::hash(false))
      .def_rw("sizes", &OptionsObj::sizes,
              refl::default_factory(ffi::Function::FromTyped([]() { return ffi::Array<int64_t>{1, 2}; })))
      .def_rw("cache", &OptionsObj::cache, refl::init(false), refl::AttachFieldFlag::SEqHashIgnore());
  refl::ObjectDef<SealedObj>(refl::init(false)).def_ro("v", &SealedObj::v);
  refl::ObjectDef<PointObj>()
      .def(refl::init<int64_t, double>())
      .def_ro("x", &PointObj::x, "the x coordinate")
      .def_rw("y", &PointObj::y, refl::default_value(1.5), Unit("px"))
      .def_rw("label", &PointObj::label, refl::Metadata{{"max_len", 16}, {"note", "a \"name\""}})
      .def("shifted", &PointObj::Shifted, refl::Metadata{{"pure", true}})
      .def_static("origin", []() { return Point(ffi::make_object<PointObj>(0, 0.0)); });
  refl::GlobalDef()
      .def("test.cpp.add", [](int64_t a, int64_t b) { return a + b; }, "adds two ints",
           refl::Metadata{{"commutative", true}})
      .def("test.cpp.Point.shifted", &PointObj::Shifted);  // member functions take the object first
}

const TVMFFIFieldInfo* FindField(const TVMFFITypeInfo* info, const char* name) {
  for (int32_t i = 0; i < info->num_fields; ++i) {
    if (info->fields[i].name.size == std::strlen(name) &&
        std::memcmp(info->fields[i].name.data, name, info->fields[i].name.size) == 0) {
      return &info->fields[i];
    }
  }
  return nullptr;
}

const TVMFFIMethodInfo* FindMethod(const TVMFFITypeInfo* info, const char* name) {
  for (int32_t i = 0; i < info->num_methods; ++i) {
    if (info->methods[i].name.size == std::strlen(name) &&
        std::memcmp(info->methods[i].name.data, name, info->methods[i].name.size) == 0) {
      return &info->methods[i];
    }
  }
  return nullptr;
}

void test_fields_are_registered_with_offsets_and_accessors() {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(PointObj::RuntimeTypeIndex());
  CHECK_EQ(info->num_fields, 3);
  CHECK_EQ(info->metadata->total_size, static_cast<int32_t>(sizeof(PointObj)));
  CHECK(info->metadata->creator != nullptr);
  Point p(ffi::make_object<PointObj>(3, 2.5));
  char* base = reinterpret_cast<char*>(p.get());
  CHECK_EQ(base + FindField(info, "x")->offset, reinterpret_cast<char*>(&p->x));
  CHECK_EQ(base + FindField(info, "label")->offset, reinterpret_cast<char*>(&p->label));
  const TVMFFIFieldInfo* x = FindField(info, "x");
  CHECK_EQ(x->flags & kTVMFFIFieldFlagBitMaskWritable, 0);
  CHECK_EQ(std::string(x->doc.data, x->doc.size), "the x coordinate");
  CHECK_EQ(x->field_static_type_index, ffi::TypeIndex::kTVMFFIInt);
  TVMFFIAny out;
  CHECK_EQ(x->getter(base + x->offset, &out), 0);
  CHECK_EQ(out.v_int64, 3);
  const TVMFFIFieldInfo* y = FindField(info, "y");
  CHECK(y->flags & kTVMFFIFieldFlagBitMaskHasDefault);
  CHECK_EQ(y->default_value_or_factory.v_float64, 1.5);
  TVMFFIAny value;
  value.type_index = kTVMFFIInt, value.zero_padding = 0, value.v_int64 = 4;  // int -> double
  CHECK_EQ(reinterpret_cast<TVMFFIFieldSetter>(y->setter)(base + y->offset, &value), 0);
  CHECK_EQ(p->y, 4.0);
  const TVMFFIFieldInfo* label = FindField(info, "label");
  // A String field is a 16-byte Any-layout cell: runtimes (the reference's included) read
  // field_static_type_index >= kTVMFFIStaticObjectBegin as an 8-byte object pointer, so it says Any.
  CHECK_EQ(label->field_static_type_index, ffi::TypeIndex::kTVMFFIAny);
  CHECK_EQ(label->size, 16);
  value.type_index = kTVMFFIRawStr, value.v_c_str = "a label longer than seven";
  CHECK_EQ(reinterpret_cast<TVMFFIFieldSetter>(label->setter)(base + label->offset, &value), 0);
  CHECK(p->label == "a label longer than seven");
  value.type_index = kTVMFFIFloat, value.v_float64 = 1.0;
  CHECK_EQ(reinterpret_cast<TVMFFIFieldSetter>(label->setter)(base + label->offset, &value), -1);
  CHECK_EQ(ffi::detail::MoveFromSafeCallRaised().kind(), "TypeError");
}

void test_methods_and_constructor() {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(PointObj::RuntimeTypeIndex());
  ffi::Function init = ffi::AnyView::CopyFromTVMFFIAny(FindMethod(info, "__ffi_init__")->method)
                           .cast<ffi::Function>();
  Point p = init(7, 0.5).cast<Point>();
  CHECK_EQ(p->x, 7);
  ffi::Function shifted =
      ffi::AnyView::CopyFromTVMFFIAny(FindMethod(info, "shifted")->method).cast<ffi::Function>();
  CHECK_EQ(shifted(p, 3).cast<int64_t>(), 10);
  CHECK_THROWS(shifted(1, 3), "TypeError", "Expected `test.cpp.Point` but got `int`");
  const TVMFFIMethodInfo* origin = FindMethod(info, "origin");
  CHECK(origin->flags & kTVMFFIFieldFlagBitMaskIsStaticMethod);
  Point o = ffi::AnyView::CopyFromTVMFFIAny(origin->method).cast<ffi::Function>()().cast<Point>();
  CHECK_EQ(o->x, 0);
  // The creator makes a default instance (used by the frontend's __ffi_new__).
  TVMFFIObjectHandle made = nullptr;
  CHECK_EQ(info->metadata->creator(&made), 0);
  Point fresh = ffi::detail::ObjectUnsafe::ObjectRefFromOwned<Point>(static_cast<TVMFFIObject*>(made));
  CHECK_EQ(fresh->y, 0.0);
}

std::string Text(TVMFFIByteArray bytes) { return std::string(bytes.data, bytes.size); }
bool EndsWith(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// refl::Metadata entries follow the type schema in the registered JSON, in order.
void test_user_metadata_follows_the_type_schema() {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(PointObj::RuntimeTypeIndex());
  CHECK(Text(FindField(info, "label")->metadata) ==
        R"({"type_schema":"{\"type\":\"ffi.String\"}","max_len":16,"note":"a \"name\""})");
  CHECK(Text(FindField(info, "x")->metadata) == R"({"type_schema":"{\"type\":\"int\"}"})");
  const TVMFFIFieldInfo* y = FindField(info, "y");  // Unit("px") applied itself
  CHECK(Text(y->metadata) == R"({"type_schema":"{\"type\":\"float\"}","unit":"px"})");
  CHECK((y->flags & kTVMFFIFieldFlagBitMaskReprOff) != 0);
  CHECK((y->flags & kTVMFFIFieldFlagBitMaskHasDefault) != 0);
  std::string shifted = Text(FindMethod(info, "shifted")->metadata);
  CHECK(shifted.rfind("{\"type_schema\":", 0) == 0);
  CHECK(EndsWith(shifted, R"(,"pure":true})"));
  std::string add = ffi::Function::GetGlobalRequired("ffi.GetGlobalFuncMetadata")("test.cpp.add")
                        .cast<ffi::String>();
  CHECK(EndsWith(add, R"(,"commutative":true})"));
  CHECK_THROWS(refl::detail::WithUserMetadata("{}", refl::Metadata{{"bad", 1.5}}), "TypeError",
               "Metadata can be only int, bool or string, but on key `bad`, the type is float");
}

void test_global_def_metadata() {
  ffi::Function add = ffi::Function::GetGlobalRequired("test.cpp.add");
  CHECK_EQ(add(2, 5).cast<int64_t>(), 7);
  ffi::Optional<ffi::Function> get_meta = ffi::Function::GetGlobal("ffi.GetGlobalFuncMetadata");
  CHECK(get_meta.has_value());
  std::string meta = get_meta.value()("test.cpp.add").cast<ffi::String>();
  CHECK(meta.find("type_schema") != std::string::npos);
  CHECK(meta.find("named_args") != std::string::npos);
  Point p(ffi::make_object<PointObj>(2, 0.0));
  CHECK_EQ(ffi::Function::GetGlobalRequired("test.cpp.Point.shifted")(p, 5).cast<int64_t>(), 7);
}

bool HasInitAttr(int32_t type_index) {
  TVMFFIByteArray name{"__ffi_init__", 12};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  if (column == nullptr || type_index < column->begin_index ||
      type_index - column->begin_index >= static_cast<int32_t>(column->size)) {
    return false;
  }
  return column->data[type_index - column->begin_index].type_index == ffi::TypeIndex::kTVMFFIFunction;
}

void test_field_traits_and_generated_constructor() {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(OptionsObj::RuntimeTypeIndex());
  CHECK(FindField(info, "level")->flags & kTVMFFIFieldFlagBitMaskKwOnly);
  CHECK(FindField(info, "level")->flags & kTVMFFIFieldFlagBitMaskHasDefault);
  int64_t tag_flags = FindField(info, "tag")->flags;
  CHECK(tag_flags & kTVMFFIFieldFlagBitMaskReprOff);
  CHECK(tag_flags & kTVMFFIFieldFlagBitMaskCompareOff);
  CHECK(tag_flags & kTVMFFIFieldFlagBitMaskHashOff);
  CHECK(!(tag_flags & kTVMFFIFieldFlagBitMaskHasDefault));
  const TVMFFIFieldInfo* sizes = FindField(info, "sizes");
  CHECK(sizes->flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory);
  CHECK_EQ(sizes->default_value_or_factory.type_index, ffi::TypeIndex::kTVMFFIFunction);
  CHECK(FindField(info, "cache")->flags & kTVMFFIFieldFlagBitMaskInitOff);
  CHECK(FindField(info, "cache")->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore);
  // No explicit constructor: the runtime generated one (ffi._RegisterFFIInit); refl::init(false)
  // on the ObjectDef: none at all.
  CHECK(HasInitAttr(OptionsObj::RuntimeTypeIndex()));
  CHECK(!HasInitAttr(SealedObj::RuntimeTypeIndex()));
  CHECK(FindMethod(TVMFFIGetTypeInfo(SealedObj::RuntimeTypeIndex()), "__ffi_init__") == nullptr);
}

// A type that, like most TVM_FFI_DECLARE_OBJECT_INFO types, has no default constructor but an
// UnsafeInit one: reflection can still create it (ObjectCreator, __ffi_new__, the generated
// __ffi_init__), filling fields from values or their defaults.
class BagObj : public ffi::Object {
 public:
  int64_t count;
  ffi::Array<int64_t> items;
  explicit BagObj(ffi::UnsafeInit) {}
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.cpp.Bag", BagObj, ffi::Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<BagObj>()
      .def_ro("count", &BagObj::count, refl::DefaultValue(int64_t{7}))
      .def_ro("items", &BagObj::items,
              refl::DefaultFactory(ffi::Function::FromTyped([]() { return ffi::Array<int64_t>(); })));
}

void test_field_offsets_from_the_object_header() {
  // The first field of a class right after the header sits at sizeof(TVMFFIObject).
  CHECK_EQ(refl::GetFieldByteOffsetToObject(&PointObj::x), int64_t{sizeof(TVMFFIObject)});
  CHECK_EQ(refl::GetFieldByteOffsetToObject(&PointObj::y), int64_t{sizeof(TVMFFIObject) + 8});
  // The registered offsets are the same numbers.
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(PointObj::RuntimeTypeIndex());
  CHECK_EQ(FindField(info, "y")->offset, refl::GetFieldByteOffsetToObject(&PointObj::y));
}

void test_unsafe_init_types_are_creatable_with_fresh_defaults() {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(BagObj::RuntimeTypeIndex());
  CHECK(info->metadata->creator != nullptr);
  const TVMFFIFieldInfo* items = FindField(info, "items");
  CHECK(items->flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory);
  CHECK(HasInitAttr(BagObj::RuntimeTypeIndex()));
  refl::ObjectCreator make("test.cpp.Bag");
  ffi::Any a = make(ffi::Map<ffi::String, ffi::Any>{{"count", 3}});
  ffi::Any b = make(ffi::Map<ffi::String, ffi::Any>());
  CHECK_EQ(a.as<BagObj>()->count, 3);
  CHECK_EQ(b.as<BagObj>()->count, 7);
  // The factory runs once per object: no shared default container.
  CHECK(a.as<BagObj>()->items.get() != b.as<BagObj>()->items.get());
  ffi::Any given = make(ffi::Map<ffi::String, ffi::Any>{{"items", ffi::Array<int64_t>{1, 2}}});
  CHECK_EQ(given.as<BagObj>()->items.size(), 2u);
}

int main() {
  RUN(test_user_metadata_follows_the_type_schema);
  RUN(test_fields_are_registered_with_offsets_and_accessors);
  RUN(test_methods_and_constructor);
  RUN(test_global_def_metadata);
  RUN(test_field_traits_and_generated_constructor);
  RUN(test_field_offsets_from_the_object_header);
  RUN(test_unsafe_init_types_are_creatable_with_fresh_defaults);
  return CHECK_MAIN_RESULT();
}
