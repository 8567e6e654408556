/*
 * tvm/ffi/type_traits.h -- how a C++ type is stored in and read back from a TVMFFIAny.
 *
 * TypeTraits<T> (enabled: convert_enabled = true) provides:
 *   CopyToAnyView(const T&, TVMFFIAny*)   a borrowed view (no reference taken)
 *   MoveToAny(T, TVMFFIAny*)              an owned value (the Any takes the reference)
 *   CheckAnyStrict(const TVMFFIAny*)      the value is stored exactly as T stores it
 *   CopyFromAnyViewAfterCheck(src)        T from a value that passed CheckAnyStrict
 *   TryCastFromAnyView(src)               T from a compatible value (int -> float, ...), or nullopt
 *   TypeStr(), TypeSchema()               the names used in error messages and metadata
 * A type without traits cannot cross the boundary; using it fails with a static_assert.
 */
#ifndef TVM_FFI_TYPE_TRAITS_H_
#define TVM_FFI_TYPE_TRAITS_H_

#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>

#include <optional>
#include <string>
#include <type_traits>

namespace tvm {
namespace ffi {

/*! \brief The runtime's per-type record (key, ancestors, fields, methods, metadata). */
using TypeInfo = TVMFFITypeInfo;

template <typename T, typename = void>
struct TypeTraits {
  static constexpr bool convert_enabled = false;
  static constexpr bool storage_enabled = false;
};

template <typename T>
using TypeTraitsNoCR = TypeTraits<std::remove_const_t<std::remove_reference_t<T>>>;

/*!
 * \brief False for an ObjectRef class that brings its own TypeTraits specialization (set it to
 * false next to that specialization); the generic ObjectRef traits then stay out of the way.
 */
template <typename T>
inline constexpr bool use_default_type_traits_v = true;

class Any;
/*!
 * \brief Every SourceType value can be stored as a TargetType as it is, with no conversion
 * (TargetType is a base of SourceType, the same type, or Any). Containers and Expected
 * specialize it to reuse storage when their element types do.
 */
template <typename TargetType, typename SourceType, typename = void>
inline constexpr bool type_subsumes_v =
    std::is_base_of_v<TargetType, SourceType> || std::is_same_v<TargetType, SourceType>;
template <typename SourceType>
inline constexpr bool type_subsumes_v<Any, SourceType> = true;

/*! \brief Defaults shared by enabled traits. */
struct TypeTraitsBase {
  static constexpr bool convert_enabled = true;
  static constexpr bool storage_enabled = true;
  static constexpr int32_t field_static_type_index = -1;
  /*! \brief What to call the actual value in a "Expected X but got Y" message. */
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return TypeIndexToTypeKey(src->type_index);
  }
};

namespace detail {
template <typename T>
constexpr bool always_false_v = false;

/*! \brief Readable failure for types that cannot cross the FFI boundary. */
#define TVM_FFI_NOT_CONVERTIBLE_MESSAGE_                                                     \
  "this C++ type cannot be converted to or from tvm::ffi::Any: use bool, integers, floating " \
  "point, void*, DLDataType, DLDevice, String/std::string/const char*, Bytes, ObjectRef "     \
  "subclasses (Tensor, Function, Array, Map, ...), Optional, Variant, Tuple, Any or AnyView " \
  "(or specialize tvm::ffi::TypeTraits)"

TVM_FFI_INLINE void ClearAny(TVMFFIAny* a) noexcept {
  a->type_index = TypeIndex::kTVMFFINone;
  a->zero_padding = 0;
  a->v_int64 = 0;
}

/*! \brief `a` holds the object `obj` under its runtime type index, or None for a null `obj`
 * (no reference count change: the caller decides whether `a` owns it). */
TVM_FFI_INLINE void SetObjectOrNone(TVMFFIAny* a, TVMFFIObject* obj) noexcept {
  if (obj == nullptr) return ClearAny(a);
  a->type_index = obj->type_index;
  a->zero_padding = 0;
  a->v_obj = obj;
}

TVM_FFI_INLINE void SetPOD(TVMFFIAny* a, int32_t type_index, int64_t payload) noexcept {
  a->type_index = type_index;
  a->zero_padding = 0;
  a->v_int64 = payload;
}

/*! \brief References with their own TypeTraits (containers) declare `_ffi_custom_traits_tag`. */
template <typename T, typename = void>
struct HasCustomTraits : std::false_type {};
template <typename T>
struct HasCustomTraits<T, std::void_t<typename T::_ffi_custom_traits_tag>> : std::true_type {};

inline std::string QuoteTypeSchema(const char* type_key) {
  return std::string("{\"type\":\"") + type_key + "\"}";
}
}  // namespace detail

/*! \brief None <-> nullptr. */
template <>
struct TypeTraits<std::nullptr_t> : TypeTraitsBase {
  static void CopyToAnyView(std::nullptr_t, TVMFFIAny* r) { detail::ClearAny(r); }
  static void MoveToAny(std::nullptr_t, TVMFFIAny* r) { detail::ClearAny(r); }
  static bool CheckAnyStrict(const TVMFFIAny* s) { return s->type_index == TypeIndex::kTVMFFINone; }
  static std::nullptr_t CopyFromAnyViewAfterCheck(const TVMFFIAny*) { return nullptr; }
  static std::optional<std::nullptr_t> TryCastFromAnyView(const TVMFFIAny* s) {
    if (CheckAnyStrict(s)) return nullptr;
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFINone; }
  static std::string TypeSchema() { return detail::QuoteTypeSchema(StaticTypeKey::kTVMFFINone); }
};

/*! \brief bool: stored as kTVMFFIBool; ints convert (non-zero is true). */
template <>
struct TypeTraits<bool> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIBool;
  static void CopyToAnyView(bool v, TVMFFIAny* r) { detail::SetPOD(r, TypeIndex::kTVMFFIBool, v); }
  static void MoveToAny(bool v, TVMFFIAny* r) { CopyToAnyView(v, r); }
  static bool CheckAnyStrict(const TVMFFIAny* s) { return s->type_index == TypeIndex::kTVMFFIBool; }
  static bool CopyFromAnyViewAfterCheck(const TVMFFIAny* s) { return s->v_int64 != 0; }
  static std::optional<bool> TryCastFromAnyView(const TVMFFIAny* s) {
    if (s->type_index == TypeIndex::kTVMFFIBool || s->type_index == TypeIndex::kTVMFFIInt) {
      return s->v_int64 != 0;
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIBool; }
  static std::string TypeSchema() { return detail::QuoteTypeSchema(StaticTypeKey::kTVMFFIBool); }
};

/*!
 * \brief A bool that only a bool converts to: where `bool` would also take every int, a
 * StrictBool parameter (or fallback type) rejects ints, so an int overload or fallback can
 * see them instead.
 */
class StrictBool {
 public:
  StrictBool(bool value) : value_(value) {}  // NOLINT(google-explicit-constructor)
  operator bool() const { return value_; }   // NOLINT(google-explicit-constructor)

 private:
  bool value_;
};

template <>
struct TypeTraits<StrictBool> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIBool;
  static void CopyToAnyView(StrictBool v, TVMFFIAny* r) {
    detail::SetPOD(r, TypeIndex::kTVMFFIBool, static_cast<bool>(v));
  }
  static void MoveToAny(StrictBool v, TVMFFIAny* r) { CopyToAnyView(v, r); }
  static bool CheckAnyStrict(const TVMFFIAny* s) { return s->type_index == TypeIndex::kTVMFFIBool; }
  static StrictBool CopyFromAnyViewAfterCheck(const TVMFFIAny* s) { return s->v_int64 != 0; }
  static StrictBool MoveFromAnyAfterCheck(TVMFFIAny* s) { return CopyFromAnyViewAfterCheck(s); }
  static std::optional<StrictBool> TryCastFromAnyView(const TVMFFIAny* s) {
    if (CheckAnyStrict(s)) return CopyFromAnyViewAfterCheck(s);
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIBool; }
  static std::string TypeSchema() { return detail::QuoteTypeSchema(StaticTypeKey::kTVMFFIBool); }
};

namespace detail {
[[noreturn]] TVM_FFI_NO_INLINE inline void ThrowUnsignedOverflow(uint64_t value) {
  TVM_FFI_THROW(OverflowError) << "Integer value " << value
                               << " is too large to fit in int64_t. Cast it to int64_t first "
                                  "if the wrap-around is intended.";
  TVM_FFI_UNREACHABLE();
}
}  // namespace detail

/*! \brief Integers (and enums): stored as kTVMFFIInt; bools convert. */
template <typename Int>
struct TypeTraits<Int, std::enable_if_t<(std::is_integral_v<Int> && !std::is_same_v<Int, bool>) ||
                                        std::is_enum_v<Int>>> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIInt;
  static void CopyToAnyView(Int v, TVMFFIAny* r) {
    if constexpr (std::is_unsigned_v<Int> && sizeof(Int) >= sizeof(int64_t)) {
      // A 64-bit unsigned value above INT64_MAX would silently turn negative.
      if (v > static_cast<Int>(INT64_MAX)) detail::ThrowUnsignedOverflow(static_cast<uint64_t>(v));
    }
    detail::SetPOD(r, TypeIndex::kTVMFFIInt, static_cast<int64_t>(v));
  }
  static void MoveToAny(Int v, TVMFFIAny* r) { CopyToAnyView(v, r); }
  static bool CheckAnyStrict(const TVMFFIAny* s) { return s->type_index == TypeIndex::kTVMFFIInt; }
  static Int CopyFromAnyViewAfterCheck(const TVMFFIAny* s) { return static_cast<Int>(s->v_int64); }
  static std::optional<Int> TryCastFromAnyView(const TVMFFIAny* s) {
    if (s->type_index == TypeIndex::kTVMFFIInt || s->type_index == TypeIndex::kTVMFFIBool) {
      return static_cast<Int>(s->v_int64);
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIInt; }
  static std::string TypeSchema() { return detail::QuoteTypeSchema(StaticTypeKey::kTVMFFIInt); }
};

/*! \brief Floating point: stored as kTVMFFIFloat; ints and bools convert. */
template <typename Float>
struct TypeTraits<Float, std::enable_if_t<std::is_floating_point_v<Float>>> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIFloat;
  static void CopyToAnyView(Float v, TVMFFIAny* r) {
    r->type_index = TypeIndex::kTVMFFIFloat;
    r->zero_padding = 0;
    r->v_float64 = static_cast<double>(v);
  }
  static void MoveToAny(Float v, TVMFFIAny* r) { CopyToAnyView(v, r); }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index == TypeIndex::kTVMFFIFloat;
  }
  static Float CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    return static_cast<Float>(s->v_float64);
  }
  static std::optional<Float> TryCastFromAnyView(const TVMFFIAny* s) {
    if (s->type_index == TypeIndex::kTVMFFIFloat) return static_cast<Float>(s->v_float64);
    if (s->type_index == TypeIndex::kTVMFFIInt || s->type_index == TypeIndex::kTVMFFIBool) {
      return static_cast<Float>(s->v_int64);
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIFloat; }
  static std::string TypeSchema() { return detail::QuoteTypeSchema(StaticTypeKey::kTVMFFIFloat); }
};

/*! \brief void*: stored as kTVMFFIOpaquePtr, a null pointer too (Python sees
 *  `ctypes.c_void_p(None)`, as from the reference's headers); None reads as nullptr. */
template <>
struct TypeTraits<void*> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIOpaquePtr;
  static void CopyToAnyView(void* v, TVMFFIAny* r) {
    r->type_index = TypeIndex::kTVMFFIOpaquePtr;
    r->zero_padding = 0;
    r->v_ptr = v;
  }
  static void MoveToAny(void* v, TVMFFIAny* r) { CopyToAnyView(v, r); }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index == TypeIndex::kTVMFFIOpaquePtr;
  }
  static void* CopyFromAnyViewAfterCheck(const TVMFFIAny* s) { return s->v_ptr; }
  static std::optional<void*> TryCastFromAnyView(const TVMFFIAny* s) {
    if (s->type_index == TypeIndex::kTVMFFIOpaquePtr) return s->v_ptr;
    if (s->type_index == TypeIndex::kTVMFFINone) return static_cast<void*>(nullptr);
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIOpaquePtr; }
  static std::string TypeSchema() {
    return detail::QuoteTypeSchema(StaticTypeKey::kTVMFFIOpaquePtr);
  }
};

/*!
 * \brief The traits of an ObjectRef subclass: the value is an object whose type is the
 * reference's ContainerType (or a subclass); None is accepted for nullable references.
 * A reference with its own conversions derives its TypeTraits from this base (or from
 * ObjectRefWithFallbackTraitsBase below) and marks use_default_type_traits_v false.
 */
template <typename TRef>
struct ObjectRefTypeTraitsBase : TypeTraitsBase {
  using ContainerType = typename TRef::ContainerType;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIObject;
  static void CopyToAnyView(const TRef& v, TVMFFIAny* r) {
    detail::SetObjectOrNone(r, detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(v));
  }
  static void MoveToAny(TRef v, TVMFFIAny* r) {
    detail::SetObjectOrNone(r, detail::ObjectUnsafe::MoveObjectRefToTVMFFIObjectPtr(std::move(v)));
  }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    if (s->type_index == TypeIndex::kTVMFFINone) return TRef::_type_is_nullable;
    return s->type_index >= TypeIndex::kTVMFFIStaticObjectBegin &&
           detail::IsObjectInstance<ContainerType>(s->type_index);
  }
  static TRef CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    if (s->type_index == TypeIndex::kTVMFFINone) {
      return detail::ObjectUnsafe::ObjectRefFromObjectPtr<TRef>(ObjectPtr<Object>());
    }
    return detail::ObjectUnsafe::ObjectRefFromUnowned<TRef>(s->v_obj);
  }
  /*! \brief Takes the reference out of `s`, leaving None behind (no count traffic). */
  static TRef MoveFromAnyAfterCheck(TVMFFIAny* s) {
    if (s->type_index == TypeIndex::kTVMFFINone) {
      return detail::ObjectUnsafe::ObjectRefFromObjectPtr<TRef>(ObjectPtr<Object>());
    }
    TRef out = detail::ObjectUnsafe::ObjectRefFromObjectPtr<TRef>(
        detail::ObjectUnsafe::ObjectPtrFromOwned<Object>(s->v_obj));
    detail::ClearAny(s);
    return out;
  }
  static std::optional<TRef> TryCastFromAnyView(const TVMFFIAny* s) {
    if (ObjectRefTypeTraitsBase::CheckAnyStrict(s)) return CopyFromAnyViewAfterCheck(s);
    return std::nullopt;
  }
  static std::string TypeStr() { return ContainerType::_type_key; }
  static std::string TypeSchema() { return detail::QuoteTypeSchema(ContainerType::_type_key); }
};

/*! \brief Every ObjectRef subclass without traits of its own. */
template <typename TRef>
struct TypeTraits<TRef, std::enable_if_t<std::is_base_of_v<ObjectRef, TRef> &&
                                         !std::is_base_of_v<Error, TRef> &&
                                         !detail::HasCustomTraits<TRef>::value &&
                                         use_default_type_traits_v<TRef>>>
    : ObjectRefTypeTraitsBase<TRef> {};

/*!
 * \brief Traits for a reference that can also be made from plain values (an expression type
 * built from a number, say). The specialisation derives from this base and defines
 * `static TRef ConvertFallbackValue(F)` for each fallback type F; a value that is not already
 * a TRef converts through the first fallback type that accepts it, in the order listed.
 */
template <typename TRef, typename... FallbackTypes>
struct ObjectRefWithFallbackTraitsBase : ObjectRefTypeTraitsBase<TRef> {
  static std::optional<TRef> TryCastFromAnyView(const TVMFFIAny* s) {
    if (std::optional<TRef> ref = ObjectRefTypeTraitsBase<TRef>::TryCastFromAnyView(s)) return ref;
    return TryFallbackTypes<FallbackTypes...>(s);
  }
  template <typename First, typename... Rest>
  static std::optional<TRef> TryFallbackTypes(const TVMFFIAny* s) {
    // bool would also take every int (ints convert to bool); StrictBool takes only bools.
    static_assert(!std::is_same_v<First, bool>, "use tvm::ffi::StrictBool as a fallback, not bool");
    if (std::optional<First> value = TypeTraits<First>::TryCastFromAnyView(s)) {
      return TypeTraits<TRef>::ConvertFallbackValue(*std::move(value));
    }
    if constexpr (sizeof...(Rest) > 0) {
      return TryFallbackTypes<Rest...>(s);
    } else {
      return std::nullopt;
    }
  }
};

namespace detail {
/*! \brief An unqualified object type, complete or declared object via is_object_subclass_v. */
template <typename T>
inline constexpr bool kPlainObjectType =
    is_object_subclass_v<T> && std::is_same_v<T, std::remove_cv_t<T>>;
}  // namespace detail

/*!
 * \brief ObjectPtr<T> as a value: an object that is a T (by runtime ancestry), or None for a
 * null pointer. Its schema is therefore Optional<T's key>.
 */
template <typename TObject>
struct TypeTraits<ObjectPtr<TObject>, std::enable_if_t<detail::kPlainObjectType<TObject>>>
    : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIObject;
  static void CopyToAnyView(const ObjectPtr<TObject>& v, TVMFFIAny* r) {
    detail::SetObjectOrNone(r, detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectPtr(v));
  }
  static void MoveToAny(ObjectPtr<TObject> v, TVMFFIAny* r) {
    detail::SetObjectOrNone(r, detail::ObjectUnsafe::MoveObjectPtrToTVMFFIObjectPtr(std::move(v)));
  }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    if (s->type_index == TypeIndex::kTVMFFINone) return true;
    return s->type_index >= TypeIndex::kTVMFFIStaticObjectBegin &&
           detail::IsObjectInstance<TObject>(s->type_index);
  }
  static ObjectPtr<TObject> CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    if (s->type_index == TypeIndex::kTVMFFINone) return nullptr;
    return detail::ObjectUnsafe::ObjectPtrFromUnowned<TObject>(s->v_obj);
  }
  static ObjectPtr<TObject> MoveFromAnyAfterCheck(TVMFFIAny* s) {
    if (s->type_index == TypeIndex::kTVMFFINone) return nullptr;
    ObjectPtr<TObject> out = detail::ObjectUnsafe::ObjectPtrFromOwned<TObject>(s->v_obj);
    detail::ClearAny(s);
    return out;
  }
  static std::optional<ObjectPtr<TObject>> TryCastFromAnyView(const TVMFFIAny* s) {
    if (CheckAnyStrict(s)) return CopyFromAnyViewAfterCheck(s);
    return std::nullopt;
  }
  static std::string TypeStr() { return TObject::_type_key; }
  static std::string TypeSchema() {
    return "{\"type\":\"Optional\",\"args\":[" + detail::QuoteTypeSchema(TObject::_type_key) + "]}";
  }
};

/*! \brief Arc<T> as a value: like ObjectPtr<T>, but None is not a T. */
template <typename TObject>
struct TypeTraits<Arc<TObject>, std::enable_if_t<detail::kPlainObjectType<TObject>>>
    : TypeTraitsBase {
  using PtrTraits = TypeTraits<ObjectPtr<TObject>>;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIObject;
  static void CopyToAnyView(const Arc<TObject>& v, TVMFFIAny* r) { PtrTraits::CopyToAnyView(v, r); }
  static void MoveToAny(Arc<TObject> v, TVMFFIAny* r) { PtrTraits::MoveToAny(std::move(v), r); }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index >= TypeIndex::kTVMFFIStaticObjectBegin &&
           detail::IsObjectInstance<TObject>(s->type_index);
  }
  static Arc<TObject> CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    return detail::ObjectUnsafe::ArcFromObjectPtr(PtrTraits::CopyFromAnyViewAfterCheck(s));
  }
  static Arc<TObject> MoveFromAnyAfterCheck(TVMFFIAny* s) {
    return detail::ObjectUnsafe::ArcFromObjectPtr(PtrTraits::MoveFromAnyAfterCheck(s));
  }
  static std::optional<Arc<TObject>> TryCastFromAnyView(const TVMFFIAny* s) {
    if (CheckAnyStrict(s)) return CopyFromAnyViewAfterCheck(s);
    return std::nullopt;
  }
  static std::string TypeStr() { return TObject::_type_key; }
  static std::string TypeSchema() { return detail::QuoteTypeSchema(TObject::_type_key); }
};

/*! \brief Pointer storage is shared when the pointee types are (Arc never holds None). */
template <typename Base, typename Derived>
inline constexpr bool type_subsumes_v<ObjectPtr<Base>, ObjectPtr<Derived>> =
    std::is_base_of_v<Base, Derived>;
template <typename Base, typename Derived>
inline constexpr bool type_subsumes_v<Arc<Base>, Arc<Derived>> = std::is_base_of_v<Base, Derived>;
template <typename Base, typename Derived>
inline constexpr bool type_subsumes_v<ObjectPtr<Base>, Arc<Derived>> =
    std::is_base_of_v<Base, Derived>;

/*! \brief Error is an ObjectRef too, but never null. */
template <>
struct TypeTraits<Error> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIError;
  static void CopyToAnyView(const Error& v, TVMFFIAny* r) {
    r->type_index = TypeIndex::kTVMFFIError;
    r->zero_padding = 0;
    r->v_obj = detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(v);
  }
  static void MoveToAny(Error v, TVMFFIAny* r) {
    r->type_index = TypeIndex::kTVMFFIError;
    r->zero_padding = 0;
    r->v_obj = detail::ObjectUnsafe::MoveObjectRefToTVMFFIObjectPtr(std::move(v));
  }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index == TypeIndex::kTVMFFIError;
  }
  static Error CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    return detail::ObjectUnsafe::ObjectRefFromUnowned<Error>(s->v_obj);
  }
  static std::optional<Error> TryCastFromAnyView(const TVMFFIAny* s) {
    if (CheckAnyStrict(s)) return CopyFromAnyViewAfterCheck(s);
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIError; }
  static std::string TypeSchema() { return detail::QuoteTypeSchema(StaticTypeKey::kTVMFFIError); }
};

/*! \brief Pointers to objects (borrowed in views, a new reference when stored). */
template <typename TObj>
struct TypeTraits<TObj*, std::enable_if_t<std::is_base_of_v<Object, TObj>>> : TypeTraitsBase {
  static void CopyToAnyView(TObj* v, TVMFFIAny* r) {
    detail::SetObjectOrNone(r, v == nullptr ? nullptr : detail::ObjectUnsafe::GetHeader(v));
  }
  static void MoveToAny(TObj* v, TVMFFIAny* r) {
    CopyToAnyView(v, r);
    if (v != nullptr) detail::ObjectIncRef(r->v_obj);
  }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index >= TypeIndex::kTVMFFIStaticObjectBegin &&
           detail::IsObjectInstance<std::remove_cv_t<TObj>>(s->type_index);
  }
  static TObj* CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    return static_cast<TObj*>(reinterpret_cast<Object*>(s->v_obj));
  }
  static std::optional<TObj*> TryCastFromAnyView(const TVMFFIAny* s) {
    if (CheckAnyStrict(s)) return CopyFromAnyViewAfterCheck(s);
    return std::nullopt;
  }
  static std::string TypeStr() { return std::remove_cv_t<TObj>::_type_key; }
  static std::string TypeSchema() {
    return detail::QuoteTypeSchema(std::remove_cv_t<TObj>::_type_key);
  }
};

namespace detail {
/*!
 * \brief Types whose traits set `view_makes_object` (std::vector, std::map, ... from
 * extra/stl.h) cannot be viewed without building an object that someone must own: Function
 * calls keep such objects for the call; a bare AnyView of one does not compile.
 */
template <typename T, typename = void>
struct ViewNeedsOwner : std::false_type {};
template <typename T>
struct ViewNeedsOwner<T, std::void_t<decltype(TypeTraitsNoCR<T>::view_makes_object)>>
    : std::bool_constant<TypeTraitsNoCR<T>::view_makes_object> {};
}  // namespace detail

namespace detail {
/*! \brief The name of a type in signatures and mismatch messages. */
template <typename T>
struct Type2Str {
  static std::string v() { return TypeTraitsNoCR<T>::TypeStr(); }
};
template <>
struct Type2Str<void> {
  static std::string v() { return "void"; }
};
}  // namespace detail

/*! \brief std::optional<T> <-> None or a T. */
template <typename T>
struct TypeTraits<std::optional<T>> : TypeTraitsBase {
  using Self = std::optional<T>;
  static constexpr bool storage_enabled = false;
  static constexpr bool view_makes_object = detail::ViewNeedsOwner<T>::value;
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    if (!src.has_value()) return detail::ClearAny(result);
    TypeTraitsNoCR<T>::CopyToAnyView(*src, result);
  }
  static void MoveToAny(Self src, TVMFFIAny* result) {
    if (!src.has_value()) return detail::ClearAny(result);
    TypeTraitsNoCR<T>::MoveToAny(*std::move(src), result);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFINone || TypeTraitsNoCR<T>::CheckAnyStrict(src);
  }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return std::nullopt;
    return TypeTraitsNoCR<T>::CopyFromAnyViewAfterCheck(src);
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return Self(std::nullopt);
    if (TypeTraitsNoCR<T>::CheckAnyStrict(src)) {
      return Self(TypeTraitsNoCR<T>::CopyFromAnyViewAfterCheck(src));
    }
    if (std::optional<T> value = TypeTraitsNoCR<T>::TryCastFromAnyView(src)) {
      return Self(*std::move(value));
    }
    return std::nullopt;  // not a T: the conversion fails (distinct from a None result)
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    return TypeTraitsNoCR<T>::GetMismatchTypeInfo(src);
  }
  static std::string TypeStr() { return "std::optional<" + detail::Type2Str<T>::v() + ">"; }
  static std::string TypeSchema() { return "{\"type\":\"std::optional\",\"args\":[" + TypeTraitsNoCR<T>::TypeSchema() + "]}"; }
};


/*! \brief Static type index a field of type T records (kTVMFFIAny when T has no traits). */
template <typename T, typename = void>
struct TypeToFieldStaticTypeIndex {
  static constexpr int32_t value = TypeIndex::kTVMFFIAny;
};
template <typename T>
struct TypeToFieldStaticTypeIndex<T, std::enable_if_t<TypeTraits<T>::convert_enabled>> {
  static constexpr int32_t value = TypeTraits<T>::field_static_type_index;
};

/*!
 * \brief Runtime type index of T's values (the static index for POD values, the registered
 * index for object references); `TypeToRuntimeTypeIndex<T>::v()`.
 */
template <typename T, typename = void>
struct TypeToRuntimeTypeIndex {
  static int32_t v() {
    return TypeToFieldStaticTypeIndex<std::remove_cv_t<std::remove_reference_t<T>>>::value;
  }
};
template <typename T>
struct TypeToRuntimeTypeIndex<T, std::enable_if_t<std::is_base_of_v<ObjectRef, T>>> {
  static int32_t v() { return T::ContainerType::RuntimeTypeIndex(); }
};
template <typename TObject>
struct TypeToRuntimeTypeIndex<ObjectPtr<TObject>,
                              std::enable_if_t<detail::kPlainObjectType<TObject>>> {
  static int32_t v() { return TObject::RuntimeTypeIndex(); }
};
template <typename TObject>
struct TypeToRuntimeTypeIndex<Arc<TObject>, std::enable_if_t<detail::kPlainObjectType<TObject>>> {
  static int32_t v() { return TObject::RuntimeTypeIndex(); }
};

namespace detail {
template <typename T>
[[noreturn]] TVM_FFI_NO_INLINE void ThrowCannotTreatAny(const TVMFFIAny* src) {
  TVM_FFI_THROW(TypeError) << "Cannot treat type `" << TypeTraits<T>::GetMismatchTypeInfo(src)
                           << "` as type `" << TypeTraits<T>::TypeStr() << "`";
  TVM_FFI_UNREACHABLE();
}

/*! \brief A borrowed Any holding `obj` (None for null), so a reference type can check it. */
inline TVMFFIAny AnyViewOfObject(const Object* obj) noexcept {
  TVMFFIAny view;
  SetObjectOrNone(&view, obj == nullptr ? nullptr : ObjectUnsafe::GetHeader(obj));
  return view;
}

/*! \brief Whether RefType's full check accepts `obj`; null passes only a nullable RefType. */
template <typename RefType>
bool RefTypeAccepts(const Object* obj) {
  if (obj == nullptr) return RefType::_type_is_nullable;
  TVMFFIAny view = AnyViewOfObject(obj);
  return TypeTraits<RefType>::CheckAnyStrict(&view);
}
}  // namespace detail

template <typename RefType, typename>
std::optional<RefType> ObjectRef::as() const& {
  if (!detail::RefTypeAccepts<RefType>(data_.get())) return std::nullopt;
  return detail::ObjectUnsafe::ObjectRefFromObjectPtr<RefType>(data_);
}

template <typename RefType, typename>
std::optional<RefType> ObjectRef::as() && {
  if (!detail::RefTypeAccepts<RefType>(data_.get())) return std::nullopt;
  return detail::ObjectUnsafe::ObjectRefFromObjectPtr<RefType>(std::move(data_));
}

template <typename RefType, typename>
RefType ObjectRef::as_or_throw() const& {
  if (std::optional<RefType> ref = as<RefType>()) return *std::move(ref);
  TVMFFIAny view = detail::AnyViewOfObject(data_.get());
  detail::ThrowCannotTreatAny<RefType>(&view);
}

template <typename RefType, typename>
RefType ObjectRef::as_or_throw() && {
  if (std::optional<RefType> ref = std::move(*this).template as<RefType>()) return *std::move(ref);
  TVMFFIAny view = detail::AnyViewOfObject(data_.get());
  detail::ThrowCannotTreatAny<RefType>(&view);
}

/*!
 * \brief Traits of a type that is never stored in an Any but converts from other values: a
 * TypeTraits<T> specialization derives from FallbackOnlyTraitsBase<T, F1, F2, ...> and defines
 * `static T ConvertFallbackValue(Fi)` for each Fi (tried in order) plus TypeStr/TypeSchema.
 * Such a T can be a function parameter or a cast<T>() target, not a return value.
 */
template <typename T, typename... FallbackTypes>
struct FallbackOnlyTraitsBase : public TypeTraitsBase {
  static constexpr bool storage_enabled = false;
  static bool CheckAnyStrict(const TVMFFIAny*) noexcept { return false; }  // never stored as T
  static T CopyFromAnyViewAfterCheck(const TVMFFIAny*) { TVM_FFI_UNREACHABLE(); }
  static std::optional<T> TryCastFromAnyView(const TVMFFIAny* src) {
    return TryFallbackTypes<FallbackTypes...>(src);
  }
  template <typename Fallback, typename... Rest>
  static std::optional<T> TryFallbackTypes(const TVMFFIAny* src) {
    static_assert(!std::is_same_v<Fallback, bool>,
                  "bool as a fallback would also take ints; use tvm::ffi::StrictBool");
    using FT = TypeTraits<Fallback>;
    std::optional<Fallback> value = FT::CheckAnyStrict(src)
                                        ? std::optional<Fallback>(FT::CopyFromAnyViewAfterCheck(src))
                                        : FT::TryCastFromAnyView(src);
    if (value.has_value()) return TypeTraits<T>::ConvertFallbackValue(*std::move(value));
    if constexpr (sizeof...(Rest) > 0) {
      return TryFallbackTypes<Rest...>(src);
    } else {
      return std::nullopt;
    }
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_TYPE_TRAITS_H_
