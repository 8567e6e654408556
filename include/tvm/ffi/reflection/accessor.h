/*
 * tvm/ffi/reflection/accessor.h -- reading the reflection tables the runtime keeps per type:
 *
 *   refl::FieldGetter get_x("demo.Point", "x");     Any x = get_x(point);
 *   refl::FieldSetter set_x("demo.Point", "x");     set_x(point, 3);
 *   Function norm = refl::GetMethod("demo.Point", "norm");
 *   refl::ForEachFieldInfo(info, [](const TVMFFIFieldInfo* f) { ... });   // parents first
 *   refl::TypeAttrColumn column(type_attr::kInit);  AnyView init = column[type_index];
 *
 * plus the typed attribute keys (AttrKey) of the attributes the runtime and Python use.
 * Everything reads TVMFFITypeInfo / TVMFFITypeAttrColumn through the C API.
 */
#ifndef TVM_FFI_REFLECTION_ACCESSOR_H_
#define TVM_FFI_REFLECTION_ACCESSOR_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/native_function.h>
#include <tvm/ffi/type_traits.h>

#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace tvm {
namespace ffi {
namespace reflection {

template <typename T>
struct AttrKey;

namespace detail {
/*! \brief True when the registered name equals the NUL-terminated `name`. */
inline bool NameEquals(const TVMFFIByteArray& registered, const char* name) {
  return std::strncmp(registered.data, name, registered.size) == 0 && name[registered.size] == '\0';
}
inline const TypeInfo* TypeInfoOfKey(std::string_view type_key) {
  return TVMFFIGetTypeInfo(TypeKeyToIndex(type_key));
}
}  // namespace detail

/*! \brief The field `field_name` registered on `type_key` itself; RuntimeError if none. */
inline const TVMFFIFieldInfo* GetFieldInfo(std::string_view type_key, const char* field_name) {
  const TypeInfo* info = detail::TypeInfoOfKey(type_key);
  for (int32_t i = 0; i < info->num_fields; ++i) {
    if (detail::NameEquals(info->fields[i].name, field_name)) return &info->fields[i];
  }
  TVM_FFI_THROW(RuntimeError) << "Cannot find field  `" << field_name << "` in " << type_key;
  TVM_FFI_UNREACHABLE();
}

/*!
 * \brief Runs the field's setter on `field_addr`: a TVMFFIFieldSetter, or (with
 * kTVMFFIFieldFlagBitSetterIsFunctionObj) a Function called as f(OpaquePtr(addr), value).
 * \return 0, or nonzero with the error raised in the runtime's thread-local slot.
 */
inline int CallFieldSetter(const TVMFFIFieldInfo* field_info, void* field_addr,
                           const TVMFFIAny* value) {
  if ((field_info->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) == 0) {
    return reinterpret_cast<TVMFFIFieldSetter>(field_info->setter)(field_addr, value);
  }
  TVMFFIAny args[2];
  args[0].type_index = TypeIndex::kTVMFFIOpaquePtr;
  args[0].zero_padding = 0;
  args[0].v_int64 = 0;
  args[0].v_ptr = field_addr;
  args[1] = *value;
  TVMFFIAny result;
  ffi::detail::ClearAny(&result);
  int rc = TVMFFIFunctionCall(static_cast<TVMFFIObjectHandle>(field_info->setter), args, 2, &result);
  if (rc == 0) ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&result);  // drop the result
  return rc;
}

/*! \brief Reads one reflected field of an object as an owned Any. */
class FieldGetter {
 public:
  explicit FieldGetter(const TVMFFIFieldInfo* field_info) : field_info_(field_info) {}
  FieldGetter(std::string_view type_key, const char* field_name)
      : FieldGetter(GetFieldInfo(type_key, field_name)) {}

  Any operator()(const Object* obj_ptr) const {
    TVMFFIAny result;
    ffi::detail::ClearAny(&result);
    void* addr = const_cast<char*>(reinterpret_cast<const char*>(obj_ptr)) + field_info_->offset;
    TVM_FFI_CHECK_SAFE_CALL(field_info_->getter(addr, &result));
    return ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&result);
  }
  Any operator()(const ObjectPtr<Object>& obj_ptr) const { return (*this)(obj_ptr.get()); }
  Any operator()(const ObjectRef& obj) const { return (*this)(obj.get()); }

 private:
  const TVMFFIFieldInfo* field_info_;
};

/*! \brief Writes one reflected field of an object, converting like a function argument. */
class FieldSetter {
 public:
  explicit FieldSetter(const TVMFFIFieldInfo* field_info) : field_info_(field_info) {}
  FieldSetter(std::string_view type_key, const char* field_name)
      : FieldSetter(GetFieldInfo(type_key, field_name)) {}

  void operator()(const Object* obj_ptr, AnyView value) const {
    void* addr = const_cast<char*>(reinterpret_cast<const char*>(obj_ptr)) + field_info_->offset;
    TVMFFIAny raw = value.CopyToTVMFFIAny();
    TVM_FFI_CHECK_SAFE_CALL(CallFieldSetter(field_info_, addr, &raw));
  }
  void operator()(const ObjectPtr<Object>& obj_ptr, AnyView value) const {
    (*this)(obj_ptr.get(), value);
  }
  void operator()(const ObjectRef& obj, AnyView value) const { (*this)(obj.get(), value); }

 private:
  const TVMFFIFieldInfo* field_info_;
};

/*! \brief One type-attribute column: `column[type_index]` is the value, None where unset. */
class TypeAttrColumn {
 public:
  explicit TypeAttrColumn(std::string_view attr_name) {
    TVMFFIByteArray name{attr_name.data(), attr_name.size()};
    column_ = TVMFFIGetTypeAttrColumn(&name);
    if (column_ == nullptr) {
      TVM_FFI_THROW(RuntimeError) << "Cannot find type attribute " << attr_name;
    }
  }
  template <typename T>
  explicit TypeAttrColumn(AttrKey<T> key) : TypeAttrColumn(std::string_view(key.name)) {}

  AnyView operator[](int32_t type_index) const {
    int32_t offset = type_index - column_->begin_index;
    if (offset < 0 || offset >= column_->size) return AnyView();
    return AnyView::CopyFromTVMFFIAny(column_->data[offset]);
  }

 private:
  const TVMFFITypeAttrColumn* column_;
};

/*! \brief The method `method_name` registered on `type_key` (the first of that name). */
inline const TVMFFIMethodInfo* GetMethodInfo(std::string_view type_key, const char* method_name) {
  const TypeInfo* info = detail::TypeInfoOfKey(type_key);
  for (int32_t i = 0; i < info->num_methods; ++i) {
    if (detail::NameEquals(info->methods[i].name, method_name)) return &info->methods[i];
  }
  TVM_FFI_THROW(RuntimeError) << "Cannot find method " << method_name << " in " << type_key;
  TVM_FFI_UNREACHABLE();
}

/*! \brief The Function of a reflected method (instance methods take `self` first). */
inline Function GetMethod(std::string_view type_key, const char* method_name) {
  return AnyView::CopyFromTVMFFIAny(GetMethodInfo(type_key, method_name)->method).cast<Function>();
}

/*!
 * \brief Sets a field that has kTVMFFIFieldFlagBitMaskHasDefault to its default (calling the
 * factory when the default comes from one), through the field's own setter.
 * \return 0, or nonzero with the error raised (e.g. a default of the wrong type).
 */
inline int CallFieldSetterToDefault(const TVMFFIFieldInfo* field_info, void* field_addr) {
  if ((field_info->flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory) == 0) {
    return CallFieldSetter(field_info, field_addr, &field_info->default_value_or_factory);
  }
  TVMFFIAny result;
  ffi::detail::ClearAny(&result);
  TVMFFIAny no_args;
  ffi::detail::ClearAny(&no_args);
  int rc = TVMFFIFunctionCall(field_info->default_value_or_factory.v_obj, &no_args, 0, &result);
  if (rc != 0) return rc;
  Any value = ffi::detail::AnyUnsafe::MoveTVMFFIAnyToAny(&result);
  return CallFieldSetter(field_info, field_addr, ffi::detail::AnyUnsafe::TVMFFIAnyPtrFromAny(value));
}

/*! \brief Sets a field to its default; throws what the setter or factory raised. */
inline void SetFieldToDefault(const TVMFFIFieldInfo* field_info, void* field_addr) {
  TVM_FFI_CHECK_SAFE_CALL(CallFieldSetterToDefault(field_info, field_addr));
}

/*! \brief Calls `callback(field_info)` for every field, inherited ones first (root to leaf). */
template <typename Callback>
inline void ForEachFieldInfo(const TypeInfo* type_info, Callback callback) {
  static_assert(std::is_void_v<decltype(callback(type_info->fields))>, "Callback must return void");
  for (int32_t depth = 1; depth < type_info->type_depth; ++depth) {
    const TVMFFITypeInfo* ancestor = type_info->type_ancestors[depth];
    for (int32_t i = 0; i < ancestor->num_fields; ++i) callback(ancestor->fields + i);
  }
  for (int32_t i = 0; i < type_info->num_fields; ++i) callback(type_info->fields + i);
}

/*! \brief As ForEachFieldInfo, stopping at the first callback that returns true. */
template <typename Callback>
inline bool ForEachFieldInfoWithEarlyStop(const TypeInfo* type_info, Callback callback) {
  for (int32_t depth = 1; depth < type_info->type_depth; ++depth) {
    const TVMFFITypeInfo* ancestor = type_info->type_ancestors[depth];
    for (int32_t i = 0; i < ancestor->num_fields; ++i) {
      if (callback(ancestor->fields + i)) return true;
    }
  }
  for (int32_t i = 0; i < type_info->num_fields; ++i) {
    if (callback(type_info->fields + i)) return true;
  }
  return false;
}

/*! \brief A string literal as a TVMFFIByteArray, usable in constant expressions. */
inline constexpr TVMFFIByteArray AsByteArray(const char* s) {
  return TVMFFIByteArray{s, std::char_traits<char>::length(s)};
}

/*! \brief The name of a type attribute together with the type of its values. */
template <typename T>
struct AttrKey {
  using ValueType = T;
  /*! \brief NUL-terminated; must outlive the key. */
  const char* name;

  /*! \brief nullopt for None (attribute absent); a present value of another type is an error
   * (no conversion is tried). */
  std::optional<ValueType> ValueFrom(AnyView value) const {
    if (value == nullptr) return std::nullopt;
    TVMFFIAny raw = value.CopyToTVMFFIAny();
    if (TypeTraits<ValueType>::CheckAnyStrict(&raw)) {
      return TypeTraits<ValueType>::CopyFromAnyViewAfterCheck(&raw);
    }
    TVM_FFI_THROW(TypeError) << "Type attribute `" << name << "` holds `"
                             << TypeTraits<ValueType>::GetMismatchTypeInfo(&raw) << "`, expected `"
                             << TypeTraits<ValueType>::TypeStr() << "`";
    TVM_FFI_UNREACHABLE();
  }
};

}  // namespace reflection

/*! \brief The type attributes the runtime, the C++ headers and the Python package share. */
namespace type_attr {
/*! \brief Allocates an empty (zero-initialised) instance. */
inline constexpr reflection::AttrKey<TypedFunction<ObjectRef()>> kNew{"__ffi_new__"};
/*! \brief Creates and initialises an instance (keyword arguments after a KWARGS marker). */
inline constexpr reflection::AttrKey<Function> kInit{"__ffi_init__"};
/*! \brief Converts a value to the registered reference type. */
inline constexpr reflection::AttrKey<TypedFunction<Any(AnyView)>> kConvert{"__ffi_convert__"};
/*! \brief Type schema of the values kConvert accepts. */
inline constexpr reflection::AttrKey<Any> kConvertTypeSchema{"__ffi_convert_type_schema__"};
/*! \brief A new instance with the same field values (copy.copy, copy.replace). */
inline constexpr reflection::AttrKey<TypedFunction<ObjectRef(const Object*)>> kShallowCopy{
    "__ffi_shallow_copy__"};
/*! \brief Whether the type is final (no subtypes). */
inline constexpr reflection::AttrKey<bool> kTypeFinal{"__ffi_type_final__"};
/*! \brief Hash of a value used as a Map/Dict key. */
inline constexpr reflection::AttrKey<reflection::NativeFunctionView<int64_t(const Any&)>> kAnyHash{
    "__any_hash__"};
/*! \brief Equality of values used as Map/Dict keys. */
inline constexpr reflection::AttrKey<reflection::NativeFunctionView<bool(const Any&, const Any&)>>
    kAnyEqual{"__any_equal__"};
}  // namespace type_attr

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_REFLECTION_ACCESSOR_H_
