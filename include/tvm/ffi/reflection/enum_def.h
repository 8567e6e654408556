/*
 * tvm/ffi/reflection/enum_def.h -- registering the members of an enum type from C++, usually
 * in a TVM_FFI_STATIC_INIT_BLOCK:
 *
 *   refl::EnumDef<ModeObj>("fast").set_attr("cost", 1);   // int index = registration order
 *   refl::EnumDef<LevelObj>("high", 10);                  // IntEnum: an explicit int index
 *
 * Each EnumDef makes one member and records it in the type's EnumState (made and registered as
 * the `__ffi_enum__` type attribute on first use), so Python enum classes bound to the type
 * (tvm_ffi.dataclasses.Enum) and any other library see the same singletons.
 */
#ifndef TVM_FFI_REFLECTION_ENUM_DEF_H_
#define TVM_FFI_REFLECTION_ENUM_DEF_H_

#include <tvm/ffi/enum.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/accessor.h>

#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {
namespace reflection {

template <typename EnumClsObj, typename = std::enable_if_t<std::is_base_of_v<EnumObj, EnumClsObj>>>
class EnumDef {
 public:
  /*! \brief Whether a member with str index `name` exists (registers nothing). */
  static bool IsDefined(const String& name) {
    EnumStateObj* state = ffi::detail::FindEnumState(EnumClsObj::_GetOrAllocRuntimeTypeIndex());
    return state != nullptr && state->indexes.count(Any(name)) != 0;
  }

  /*! \brief A member named `str_index`; its int index is its registration order. */
  explicit EnumDef(const char* str_index) : type_index_(EnumClsObj::_GetOrAllocRuntimeTypeIndex()) {
    static_assert(!std::is_base_of_v<IntEnumObj, EnumClsObj>,
                  "IntEnum members need an explicit int index: EnumDef<T>(name, index)");
    EnumState state = EnsureState();
    Register(state, static_cast<int64_t>(state->entries.size()), String(str_index));
  }

  /*! \brief An IntEnum member named `str_index` whose int index (and value) is `int_index`. */
  EnumDef(const char* str_index, int64_t int_index)
      : type_index_(EnumClsObj::_GetOrAllocRuntimeTypeIndex()) {
    static_assert(std::is_base_of_v<IntEnumObj, EnumClsObj>,
                  "only IntEnum members take an explicit int index");
    Register(EnsureState(), int_index, String(str_index));
  }

  /*! \brief Sets attribute `name` of this member (column `attrs[name]`, made on first use). */
  template <typename T>
  EnumDef& set_attr(const char* name, T value) {
    Dict<String, Dict<ObjectRef, Any>> attrs = EnsureState()->attrs;
    Dict<ObjectRef, Any> column = attrs.Get(String(name)).value_or(Dict<ObjectRef, Any>());
    attrs.Set(String(name), column);
    column.Set(member_, Any(std::move(value)));
    return *this;
  }
  /*! \brief A typed attribute: `value` is first made into the key's value type. */
  template <typename T, typename Value>
  EnumDef& set_attr(AttrKey<T> key, Value&& value) {
    return set_attr(key.name, T(std::forward<Value>(value)));
  }
  /*! \brief A native hook (a NativeFunctionView key) bound to the function Fn. */
  template <auto Fn, typename T>
  EnumDef& set_native_fn_attr(AttrKey<T> key) {
    return set_attr(key, T::template FromNative<Fn>());
  }

 private:
  void Register(const EnumState& state, int64_t int_index, String str_index) {
    Dict<Any, ObjectRef> indexes = state->indexes;
    if (indexes.count(Any(int_index)) != 0 || indexes.count(Any(str_index)) != 0) {
      TVM_FFI_THROW(ValueError) << "Duplicate enum index for type `" << EnumClsObj::_type_key << "`";
    }
    ObjectPtr<EnumClsObj> obj = make_object<EnumClsObj>();  // a fresh member of the type
    obj->_int_index = int_index;
    obj->_str_index = str_index;
    member_ = ObjectRef(std::move(obj));
    List<ObjectRef> entries = state->entries;
    entries.push_back(member_);
    indexes.Set(Any(int_index), member_);
    indexes.Set(Any(std::move(str_index)), member_);
  }

  EnumState EnsureState() {
    if (EnumStateObj* found = ffi::detail::FindEnumState(type_index_)) {
      return ffi::detail::ObjectUnsafe::ObjectRefFromObjectPtr<EnumState>(
          ffi::detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(found));
    }
    EnumState state = ffi::detail::ObjectUnsafe::ObjectRefFromObjectPtr<EnumState>(
        make_object<EnumStateObj>());
    const char* key = ffi::detail::kEnumStateAttr;
    TVMFFIByteArray name{key, ffi::detail::CStrLen(key)};
    TVMFFIAny value = AnyView(state).CopyToTVMFFIAny();
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(type_index_, &name, &value));
    return state;
  }

  int32_t type_index_;
  ObjectRef member_;
};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_REFLECTION_ENUM_DEF_H_
