// A library that uses the reflection tools of the C++ headers (reflection/accessor.h,
// creator.h, native_function.h, overload.h) the way serializers, generic builders and bindings
// do, exposing what it sees as `tools.*` global functions. Built against our headers and against
// the reference headers, both builds must be observed alike
// (tests/compat/test_reflection_tool_headers.py, scripts/reflection_tools_observations.py).
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/native_function.h>
#include <tvm/ffi/reflection/overload.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

#include <cstdint>
#include <string>

namespace tools {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

// Fields with and without defaults; its __ffi_init__ is generated from the fields.
class PointObj : public ffi::Object {
 public:
  int64_t x = 0;
  int64_t y = 0;
  ffi::String label;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("tools.Point", PointObj, ffi::Object);
};

class Point : public ffi::ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Point, ffi::ObjectRef, PointObj);
};

// Inherits x, y, label; adds z.
class Point3Obj : public PointObj {
 public:
  double z = 0.0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tools.Point3", Point3Obj, PointObj);
};

// Overloaded constructors, methods and static methods.
class VecObj : public ffi::Object {
 public:
  int64_t a = 0;
  int64_t b = 0;

  explicit VecObj(int64_t a) : a(a), b(a) {}
  VecObj(int64_t a, int64_t b) : a(a), b(b) {}

  int64_t Sum() const { return a + b; }
  int64_t Scaled(int64_t k) const { return (a + b) * k; }
  double ScaledBy(double k) const { return static_cast<double>(a + b) * k; }
  // C++ overloads, told apart by refl::overload_cast when registered.
  int64_t Pick(int64_t i) const { return i == 0 ? a : b; }
  ffi::String Pick(ffi::String name) const { return name == "a" ? ffi::String("first") : ffi::String("second"); }
  int64_t Pick(int64_t i, int64_t fallback) { return i < 0 ? fallback : Pick(i); }

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("tools.Vec", VecObj, ffi::Object);
};

class Vec : public ffi::ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Vec, ffi::ObjectRef, VecObj);
};

int64_t Twice(int64_t x) { return 2 * x; }
int64_t Refuse(int64_t x) {
  if (x < 0) TVM_FFI_THROW(ValueError) << "negative input " << x;
  return x;
}

int64_t VecHash(const ffi::Any& value) { return value.cast<ffi::ObjectRef>().as<VecObj>()->a * 1000; }

const TVMFFITypeInfo* InfoOf(const ffi::String& type_key) {
  return TVMFFIGetTypeInfo(ffi::TypeKeyToIndex(std::string(type_key)));
}

ffi::Array<ffi::String> FieldNames(const ffi::String& type_key) {
  ffi::Array<ffi::String> names;
  refl::ForEachFieldInfo(InfoOf(type_key), [&](const TVMFFIFieldInfo* field) {
    names.push_back(ffi::String(field->name.data, field->name.size));
  });
  return names;
}

ffi::String FirstFieldWithDefault(const ffi::String& type_key) {
  ffi::String found("");
  bool stopped = refl::ForEachFieldInfoWithEarlyStop(InfoOf(type_key), [&](const TVMFFIFieldInfo* f) {
    if ((f->flags & kTVMFFIFieldFlagBitMaskHasDefault) == 0) return false;
    found = ffi::String(f->name.data, f->name.size);
    return true;
  });
  return stopped ? found : ffi::String("<none>");
}

ffi::Array<ffi::Any> AttrKeys() {
  constexpr TVMFFIByteArray kInitName = refl::AsByteArray(ffi::type_attr::kInit.name);
  return ffi::Array<ffi::Any>{
      ffi::String(ffi::type_attr::kNew.name),         ffi::String(ffi::type_attr::kInit.name),
      ffi::String(ffi::type_attr::kConvert.name),     ffi::String(ffi::type_attr::kConvertTypeSchema.name),
      ffi::String(ffi::type_attr::kShallowCopy.name), ffi::String(ffi::type_attr::kTypeFinal.name),
      ffi::String(ffi::type_attr::kAnyHash.name),     ffi::String(ffi::type_attr::kAnyEqual.name),
      static_cast<int64_t>(kInitName.size)};
}

// Which attributes a type has, read through TypeAttrColumn and AttrKey::ValueFrom.
ffi::Array<ffi::Any> TypeAttrs(const ffi::String& type_key) {
  int32_t index = ffi::TypeKeyToIndex(std::string(type_key));
  refl::TypeAttrColumn init_column(ffi::type_attr::kInit);
  refl::TypeAttrColumn new_column("__ffi_new__");
  std::optional<ffi::Function> init = ffi::type_attr::kInit.ValueFrom(init_column[index]);
  std::optional<ffi::TypedFunction<ffi::ObjectRef()>> make = ffi::type_attr::kNew.ValueFrom(new_column[index]);
  return ffi::Array<ffi::Any>{init.has_value(), make.has_value(), ffi::HasCreator(InfoOf(type_key))};
}

// A type attribute as stored (None where the type has none).
ffi::Any TypeAttr(const ffi::String& type_key, const ffi::String& name) {
  return ffi::Any(refl::TypeAttrColumn(std::string(name))[ffi::TypeKeyToIndex(std::string(type_key))]);
}

// The native __any_hash__ hook of a value's type, called through its AttrKey.
int64_t AnyHashHook(ffi::Any value) {
  refl::TypeAttrColumn column(ffi::type_attr::kAnyHash);
  auto hook = ffi::type_attr::kAnyHash.ValueFrom(column[value.type_index()]);
  if (!hook.has_value()) TVM_FFI_THROW(ValueError) << "no __any_hash__ hook";
  return (*hook)(value);
}

// Calls the hooks a NativeFunctionView / NativeFunction can hold: native, throwing, packed.
ffi::Array<ffi::Any> NativeHooks(int64_t x) {
  using Hook = refl::NativeFunctionView<int64_t(int64_t)>;
  using OwnedHook = refl::NativeFunction<int64_t(int64_t)>;
  Hook native = Hook::FromNative<&Twice>();
  ffi::TypedFunction<int64_t(int64_t)> packed([](int64_t v) { return v + 100; });
  Hook borrowed(packed);
  OwnedHook owned = OwnedHook::FromNative<&Twice>();
  OwnedHook owned_packed(packed);
  // A hook stored as a type-attribute value travels as an Any.
  ffi::Any stored = owned_packed;
  OwnedHook restored = stored.cast<OwnedHook>();
  ffi::Any stored_view = native;
  Hook restored_view = stored_view.cast<Hook>();
  return ffi::Array<ffi::Any>{native(x), borrowed(x), owned(x), owned_packed(x), restored(x),
                              restored_view(x), OwnedHook::From(native)(x)};
}

int64_t NativeRefuse(int64_t x) {
  return refl::NativeFunction<int64_t(int64_t)>::FromNative<&Refuse>()(x);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<PointObj>()
      .def_ro("x", &PointObj::x, "the x coordinate")
      .def_rw("y", &PointObj::y, refl::default_value(int64_t{7}))
      .def_rw("label", &PointObj::label, refl::default_value(ffi::String("origin")))
      .def("norm1", [](const PointObj* self) { return self->x + self->y; }, "x + y")
      .def_type_attr("tools.kind", ffi::String("point"))
      .def_type_attr("tools.norm_attr", [](const PointObj* self) { return self->x * self->y; })
      .def_convert<Point>();
  refl::ObjectDef<Point3Obj>().def_rw("z", &Point3Obj::z, refl::default_value(0.5));
  refl::OverloadObjectDef<VecObj>()
      .def(refl::init<int64_t>())
      .def(refl::init<int64_t, int64_t>())
      .def_ro("a", &VecObj::a)
      .def_rw("b", &VecObj::b)
      .def("total", &VecObj::Sum)
      .def("total", &VecObj::Scaled)
      .def("scaled", &VecObj::ScaledBy)
      .def_static("describe", [](int64_t n) { return ffi::String("int " + std::to_string(n)); })
      .def_static("describe", [](ffi::String s) { return ffi::String("str " + std::string(s)); })
      .def_static("describe", [](int64_t n, int64_t m) { return n * m; })
      .def("pick", refl::overload_cast<int64_t>(&VecObj::Pick, refl::const_))
      .def("pick", refl::overload_cast<ffi::String>(&VecObj::Pick, refl::const_))
      .def("pick", refl::overload_cast<int64_t, int64_t>(&VecObj::Pick));
  refl::TypeAttrDef<VecObj>()
      .def("tools.kind", ffi::String("vec"))
      .def("tools.first", [](const VecObj* self) { return self->a; })
      .attr(ffi::type_attr::kConvertTypeSchema, ffi::String("int"))
      .attr("tools.rank", int64_t{1})
      .native_fn_attr<&VecHash>(ffi::type_attr::kAnyHash)
      .def_convert<Vec>();
  refl::EnsureTypeAttrColumn("tools.never_set");
  refl::EnsureTypeAttrColumn(refl::AttrKey<int64_t>{"tools.never_set_typed"});

  refl::GlobalDef()
      .def("tools.get_field",
           [](ffi::ObjectRef obj, ffi::String type_key, ffi::String name) {
             return refl::FieldGetter(std::string(type_key), name.c_str())(obj);
           })
      .def("tools.set_field",
           [](ffi::ObjectRef obj, ffi::String type_key, ffi::String name, ffi::Any value) {
             refl::FieldSetter(std::string(type_key), name.c_str())(obj, value);
             return obj;
           })
      .def("tools.field_doc",
           [](ffi::String type_key, ffi::String name) {
             const TVMFFIFieldInfo* f = refl::GetFieldInfo(std::string(type_key), name.c_str());
             return ffi::String(f->doc.data, f->doc.size);
           })
      .def("tools.reset_field",
           [](ffi::ObjectRef obj, ffi::String type_key, ffi::String name) {
             const TVMFFIFieldInfo* f = refl::GetFieldInfo(std::string(type_key), name.c_str());
             void* addr = reinterpret_cast<char*>(const_cast<ffi::Object*>(obj.get())) + f->offset;
             refl::SetFieldToDefault(f, addr);
             return obj;
           })
      .def("tools.set_raw",
           [](ffi::ObjectRef obj, ffi::String type_key, ffi::String name, ffi::Any value) {
             const TVMFFIFieldInfo* f = refl::GetFieldInfo(std::string(type_key), name.c_str());
             void* addr = reinterpret_cast<char*>(const_cast<ffi::Object*>(obj.get())) + f->offset;
             TVMFFIAny raw = ffi::AnyView(value).CopyToTVMFFIAny();
             int rc = refl::CallFieldSetter(f, addr, &raw);
             if (rc != 0) {
               ffi::Error err = ffi::details::MoveFromSafeCallRaised();
               return ffi::String("failed: " + err.kind());
             }
             return ffi::String("ok " + std::to_string(refl::CallFieldSetterToDefault(f, addr)));
           })
      .def("tools.field_names", FieldNames)
      .def("tools.first_field_with_default", FirstFieldWithDefault)
      .def("tools.method_doc",
           [](ffi::String type_key, ffi::String name) {
             const TVMFFIMethodInfo* m = refl::GetMethodInfo(std::string(type_key), name.c_str());
             return ffi::String(m->doc.data, m->doc.size);
           })
      .def_packed("tools.call_method",
                  [](ffi::PackedArgs args, ffi::Any* rv) {
                    ffi::Function method = refl::GetMethod(args[0].cast<std::string>(),
                                                           args[1].cast<std::string>().c_str());
                    method.CallPacked(args.Slice(2), rv);
                  })
      .def("tools.create",
           [](ffi::String type_key, ffi::Map<ffi::String, ffi::Any> fields) {
             return refl::ObjectCreator(std::string(type_key))(fields);
           })
      .def("tools.create_empty",
           [](ffi::String type_key) { return ffi::ObjectRef(ffi::CreateEmptyObject(InfoOf(type_key))); })
      .def("tools.type_attrs", TypeAttrs)
      .def("tools.attr_keys", AttrKeys)
      .def("tools.to_point",
           [](ffi::AnyView value) { return refl::detail::FFIConvertFromAnyViewToObjectRef<Point>(value); })
      .def("tools.type_attr", TypeAttr)
      .def("tools.any_hash_hook", AnyHashHook)
      .def("tools.native_hooks", NativeHooks)
      .def("tools.native_refuse", NativeRefuse);
}

}  // namespace tools
