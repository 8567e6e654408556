/*
 * tvm/ffi/reflection/creator.h -- making an object of a reflected type from its type key and a
 * map of field values, the way deserializers and generic builders do:
 *
 *   refl::ObjectCreator make("demo.Point");
 *   Any p = make(Map<String, Any>{{"x", 1}, {"y", 2}});   // omitted fields take their defaults
 *
 * The empty object comes from the type's native creator (metadata->creator) or, for types
 * defined in Python, its `__ffi_new__` type attribute; fields are then set through their setters.
 */
#ifndef TVM_FFI_REFLECTION_CREATOR_H_
#define TVM_FFI_REFLECTION_CREATOR_H_

#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/string.h>

#include <string>
#include <string_view>

namespace tvm {
namespace ffi {

namespace detail {
/*! \brief The `__ffi_new__` Function of a type, or None. */
inline AnyView FFINewAttrOf(const TVMFFITypeInfo* type_info) {
  constexpr TVMFFIByteArray kName = reflection::AsByteArray(type_attr::kNew.name);
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&kName);
  if (column == nullptr) return AnyView();
  int32_t offset = type_info->type_index - column->begin_index;
  if (offset < 0 || offset >= column->size) return AnyView();
  return AnyView::CopyFromTVMFFIAny(column->data[offset]);
}
inline std::string TypeKeyOf(const TVMFFITypeInfo* type_info) {
  return std::string(type_info->type_key.data, type_info->type_key.size);
}
}  // namespace detail

/*!
 * \brief A new, zero-initialised object of the type: its native creator, else `__ffi_new__`.
 * \throws RuntimeError when the type has neither.
 */
inline ObjectPtr<Object> CreateEmptyObject(const TVMFFITypeInfo* type_info) {
  if (type_info->metadata != nullptr && type_info->metadata->creator != nullptr) {
    TVMFFIObjectHandle handle = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(type_info->metadata->creator(&handle));
    return detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(static_cast<TVMFFIObject*>(handle));
  }
  if (auto make = type_attr::kNew.ValueFrom(detail::FFINewAttrOf(type_info))) {
    ObjectRef made = (*make)();
    return detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(
        detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(made));
  }
  TVM_FFI_THROW(RuntimeError) << "Type `" << detail::TypeKeyOf(type_info)
                              << "` does not support reflection creation"
                              << " (no native creator or __ffi_new__ type attr)";
  TVM_FFI_UNREACHABLE();
}

/*! \brief Whether CreateEmptyObject can make an object of this type. */
inline bool HasCreator(const TVMFFITypeInfo* type_info) {
  if (type_info->metadata != nullptr && type_info->metadata->creator != nullptr) return true;
  return detail::FFINewAttrOf(type_info).type_index() == TypeIndex::kTVMFFIFunction;
}

namespace reflection {

namespace detail {
/*! \brief Converts a value to TObjectRef (as a function argument would), or throws TypeError. */
template <typename TObjectRef>
TObjectRef FFIConvertFromAnyViewToObjectRef(AnyView input) {
  TVMFFIAny raw = input.CopyToTVMFFIAny();
  if (auto converted = TypeTraits<TObjectRef>::TryCastFromAnyView(&raw)) return *std::move(converted);
  TVM_FFI_THROW(TypeError) << "Cannot cast from `" << TypeIndexToTypeKey(raw.type_index) << "` to `"
                           << TypeTraits<TObjectRef>::TypeStr() << "`";
  TVM_FFI_UNREACHABLE();
}
}  // namespace detail

/*! \brief The older spelling of `detail`, kept for code written against it. */
namespace details = detail;

/*! \brief Creates objects of one reflected type from maps of field values. */
class ObjectCreator {
 public:
  explicit ObjectCreator(std::string_view type_key)
      : ObjectCreator(TVMFFIGetTypeInfo(TypeKeyToIndex(type_key))) {}
  explicit ObjectCreator(const TVMFFITypeInfo* type_info) : type_info_(type_info) {
    if (!HasCreator(type_info)) {
      TVM_FFI_THROW(RuntimeError) << "Type `" << ffi::detail::TypeKeyOf(type_info)
                                  << "` does not support default constructor, "
                                  << "as a result cannot be created via reflection";
    }
  }

  /*!
   * \brief An object whose fields (inherited ones included) are taken from `fields`; a field
   * missing from the map takes its default.
   * \throws TypeError for a missing field without default, an unknown field name, or a value
   * the field's setter rejects.
   */
  Any operator()(const Map<String, Any>& fields) const {
    ObjectPtr<Object> obj = CreateEmptyObject(type_info_);
    size_t used = 0;
    ForEachFieldInfo(type_info_, [&](const TVMFFIFieldInfo* field) {
      String name(field->name.data, field->name.size);
      void* addr = reinterpret_cast<char*>(obj.get()) + field->offset;
      if (fields.count(name) != 0) {
        Any value = fields[name];
        TVM_FFI_CHECK_SAFE_CALL(
            CallFieldSetter(field, addr, ffi::detail::AnyUnsafe::TVMFFIAnyPtrFromAny(value)));
        ++used;
      } else if ((field->flags & kTVMFFIFieldFlagBitMaskHasDefault) != 0) {
        SetFieldToDefault(field, addr);
      } else {
        TVM_FFI_THROW(TypeError) << "Required field `" << name << "` not set in type `"
                                 << ffi::detail::TypeKeyOf(type_info_) << "`";
      }
    });
    if (used != fields.size()) ThrowUnknownField(fields);
    return ObjectRef(std::move(obj));
  }

 private:
  [[noreturn]] void ThrowUnknownField(const Map<String, Any>& fields) const {
    for (const auto& item : fields) {
      const String& name = item.first;
      bool known = ForEachFieldInfoWithEarlyStop(type_info_, [&](const TVMFFIFieldInfo* field) {
        return name.compare(std::string_view(field->name.data, field->name.size)) == 0;
      });
      if (!known) {
        TVM_FFI_THROW(TypeError) << "Type `" << ffi::detail::TypeKeyOf(type_info_)
                                 << "` does not have field `" << name << "`";
      }
    }
    TVM_FFI_THROW(InternalError) << "ObjectCreator: field count mismatch";
    TVM_FFI_UNREACHABLE();
  }

  const TVMFFITypeInfo* type_info_;
};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_REFLECTION_CREATOR_H_
