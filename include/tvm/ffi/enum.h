/*
 * tvm/ffi/enum.h -- enum types whose members are registered singletons (ffi.Enum and its
 * payload variants ffi.IntEnum / ffi.StrEnum). The runtime registers these base types; a
 * library derives its own enum object type and registers members with
 * reflection::EnumDef (tvm/ffi/reflection/enum_def.h):
 *
 *   class ModeObj : public tvm::ffi::EnumObj {
 *    public:
 *     TVM_FFI_DECLARE_OBJECT_INFO_FINAL("my.Mode", ModeObj, tvm::ffi::EnumObj);
 *   };
 *   Enum fast = EnumObj::_GetByStrIndex<ModeObj>("fast");
 *
 * Members live in one EnumState per enum type, stored as the type attribute `__ffi_enum__`.
 */
#ifndef TVM_FFI_ENUM_H_
#define TVM_FFI_ENUM_H_

#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

class Enum;

/*! \brief The members of one enum type: in order, by canonical index, and their attributes. */
class EnumStateObj : public Object {
 public:
  List<ObjectRef> entries;                  /*!< members in registration order */
  Dict<Any, ObjectRef> indexes;             /*!< int index and str index -> member */
  Dict<String, Dict<ObjectRef, Any>> attrs; /*!< attribute name -> (member -> value) */

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.EnumState", EnumStateObj, Object);
};

class EnumState : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(EnumState, ObjectRef, EnumStateObj);
};

namespace detail {
/*! \brief Name of the type attribute holding an enum type's EnumState. */
inline constexpr const char* kEnumStateAttr = "__ffi_enum__";

/*! \brief The EnumState registered for `type_index`, or nullptr (borrowed). */
inline EnumStateObj* FindEnumState(int32_t type_index) {
  TVMFFIByteArray name{kEnumStateAttr, CStrLen(kEnumStateAttr)};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  if (column == nullptr || type_index < column->begin_index ||
      type_index - column->begin_index >= column->size) {
    return nullptr;
  }
  const TVMFFIAny& value = column->data[type_index - column->begin_index];
  if (value.type_index != EnumStateObj::_GetOrAllocRuntimeTypeIndex()) return nullptr;
  return reinterpret_cast<EnumStateObj*>(value.v_obj);
}
}  // namespace detail

/*! \brief A member: its canonical int index (`_int_index`) and str index (`_str_index`). */
class EnumObj : public Object {
 public:
  int64_t _int_index = 0;
  String _str_index;

  EnumObj() = default;
  EnumObj(int64_t int_index, String str_index)
      : _int_index(int_index), _str_index(std::move(str_index)) {}

  /*! \brief The registered member of EnumClsObj with int index `index` (ValueError if none). */
  template <typename EnumClsObj>
  static Enum _GetByIntIndex(int64_t index);
  /*! \brief The registered member of EnumClsObj with str index `index` (ValueError if none). */
  template <typename EnumClsObj>
  static Enum _GetByStrIndex(const String& index);
  static Enum _GetByIntIndex(int32_t type_index, int64_t index);
  static Enum _GetByStrIndex(int32_t type_index, const String& index);

  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUniqueInstance;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.Enum", EnumObj, Object);
};

class Enum : public ObjectRef {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Enum, ObjectRef, EnumObj);
};

/*! \brief Members whose `value` is their int index. */
class IntEnumObj : public EnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.IntEnum", IntEnumObj, EnumObj);
};

class IntEnum : public Enum {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(IntEnum, Enum, IntEnumObj);
};

/*! \brief Members whose `value` (and name) is their str index. */
class StrEnumObj : public EnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.StrEnum", StrEnumObj, EnumObj);
};

class StrEnum : public Enum {
 public:
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StrEnum, Enum, StrEnumObj);
};

namespace detail {
template <typename Index>
inline Enum EnumByIndex(int32_t type_index, const Index& index) {
  if (EnumStateObj* state = FindEnumState(type_index)) {
    if (Optional<ObjectRef> member = state->indexes.Get(Any(index))) {
      return ObjectUnsafe::ObjectRefFromObjectPtr<Enum>(GetObjectPtr<Object>(*member));
    }
  }
  TVM_FFI_THROW(ValueError) << "Enum `" << TypeIndexToTypeKey(type_index)
                            << "` has no instance with index " << index;
  TVM_FFI_UNREACHABLE();
}
}  // namespace detail

template <typename EnumClsObj>
inline Enum EnumObj::_GetByIntIndex(int64_t index) {
  static_assert(std::is_base_of_v<EnumObj, EnumClsObj>, "EnumClsObj must derive from EnumObj");
  return detail::EnumByIndex(EnumClsObj::_GetOrAllocRuntimeTypeIndex(), index);
}
template <typename EnumClsObj>
inline Enum EnumObj::_GetByStrIndex(const String& index) {
  static_assert(std::is_base_of_v<EnumObj, EnumClsObj>, "EnumClsObj must derive from EnumObj");
  return detail::EnumByIndex(EnumClsObj::_GetOrAllocRuntimeTypeIndex(), index);
}
inline Enum EnumObj::_GetByIntIndex(int32_t type_index, int64_t index) {
  return detail::EnumByIndex(type_index, index);
}
inline Enum EnumObj::_GetByStrIndex(int32_t type_index, const String& index) {
  return detail::EnumByIndex(type_index, index);
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_ENUM_H_
