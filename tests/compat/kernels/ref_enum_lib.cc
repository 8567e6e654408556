// An extension library declaring enums the way users of the reference package do: enum object
// types over ffi::EnumObj / ffi::IntEnumObj / ffi::StrEnumObj whose members are registered with
// refl::EnumDef (members, canonical indices, an extensible attribute), built against the
// REFERENCE's headers and used from OUR Python package on OUR runtime
// (tests/compat/test_ref_enum_lib_on_our_runtime.py).
#include <tvm/ffi/enum.h>
#include <tvm/ffi/reflection/enum_def.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

#include <cstdint>

namespace demo {

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

class DirectionObj : public ffi::EnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("demo.Direction", DirectionObj, ffi::EnumObj);
};

class LevelObj : public ffi::IntEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("demo.Level", LevelObj, ffi::IntEnumObj);
};

class UnitObj : public ffi::StrEnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("demo.Unit", UnitObj, ffi::StrEnumObj);
};

// A holder with a field of each payload enum.
class ReadingObj : public ffi::Object {
 public:
  ffi::IntEnum level{ffi::UnsafeInit{}};
  ffi::StrEnum unit{ffi::UnsafeInit{}};
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("demo.Reading", ReadingObj, ffi::Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<DirectionObj>(refl::init(false));
  refl::ObjectDef<LevelObj>(refl::init(false));
  refl::ObjectDef<UnitObj>(refl::init(false));
  refl::ObjectDef<ReadingObj>().def_rw("level", &ReadingObj::level).def_rw("unit", &ReadingObj::unit);
  refl::EnumDef<DirectionObj>("North").set_attr("degrees", 0);
  refl::EnumDef<DirectionObj>("East").set_attr("degrees", 90);
  refl::EnumDef<DirectionObj>("South").set_attr("degrees", 180);
  refl::EnumDef<LevelObj>("low", 1);
  refl::EnumDef<LevelObj>("high", 10);
  refl::EnumDef<UnitObj>("Meter");
  refl::EnumDef<UnitObj>("Second");
  refl::GlobalDef()
      .def("demo.direction_by_name",
           [](const ffi::String& name) {
             return ffi::EnumObj::_GetByStrIndex<DirectionObj>(name);
           })
      .def("demo.level_by_value",
           [](int64_t value) { return ffi::EnumObj::_GetByIntIndex<LevelObj>(value); })
      .def("demo.is_defined",
           [](const ffi::String& name) { return refl::EnumDef<DirectionObj>::IsDefined(name); })
      .def("demo.describe", [](const ffi::Enum& member) {
        return ffi::String(std::string(member->_str_index) + "#" +
                           std::to_string(member->_int_index));
      });
}

}  // namespace demo
