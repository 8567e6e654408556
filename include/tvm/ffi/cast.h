/*
 * tvm/ffi/cast.h -- checked conversions between references: Downcast<T>(ref) and GetRef.
 */
#ifndef TVM_FFI_CAST_H_
#define TVM_FFI_CAST_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/optional.h>

namespace tvm {
namespace ffi {

/*!
 * \brief `ref` as a SubRef; TypeError when the object is of another type. A null reference
 * casts only to a nullable SubRef.
 */
template <typename SubRef, typename BaseRef,
          typename = std::enable_if_t<std::is_base_of_v<ObjectRef, BaseRef>>>
inline SubRef Downcast(BaseRef ref) {
  static_assert(std::is_base_of_v<ObjectRef, SubRef>, "Downcast target must be an ObjectRef type");
  if (ref.defined()) {
    if (!ref->template IsInstance<typename SubRef::ContainerType>()) {
      TVM_FFI_THROW(TypeError) << "Downcast from " << ref->GetTypeKey() << " to "
                               << SubRef::ContainerType::_type_key << " failed.";
    }
  } else if (!SubRef::_type_is_nullable) {
    TVM_FFI_THROW(TypeError) << "Downcast from nullptr to not nullable reference of "
                             << SubRef::ContainerType::_type_key;
  }
  return detail::ObjectUnsafe::ObjectRefFromObjectPtr<SubRef>(
      detail::ObjectUnsafe::GetObjectPtr(ref));
}

/*! \brief Downcast of an Any / AnyView value (same as cast<T>()). */
template <typename T>
inline T Downcast(const Any& value) {
  return value.cast<T>();
}
template <typename T>
inline T Downcast(const AnyView& value) {
  return value.cast<T>();
}

/*! \brief Downcast keeping None as an empty Optional. */
template <typename SubRef, typename BaseRef>
inline Optional<SubRef> Downcast(const Optional<BaseRef>& ref) {
  if (!ref.has_value()) return Optional<SubRef>();
  return Downcast<SubRef>(ref.value());
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CAST_H_
