/*
 * tvm/ffi/any.h -- AnyView (a borrowed TVMFFIAny) and Any (an owned one), with typed access:
 *   cast<T>()      T or a TypeError naming both types
 *   try_cast<T>()  std::optional<T>, with the usual conversions (int -> float, ...)
 *   as<T>()        exact match only: const TObj* for object types, std::optional<T> otherwise
 */
#ifndef TVM_FFI_ANY_H_
#define TVM_FFI_ANY_H_

#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <cstring>
#include <optional>

namespace tvm {
namespace ffi {

class Any;
class AnyView;
namespace detail {
struct AnyUnsafe;
}  // namespace detail

/*! \brief Any/AnyView as values: a container of Any holds them as they are. */
template <>
struct TypeTraits<Any> : TypeTraitsBase {
  static void CopyToAnyView(const Any& v, TVMFFIAny* r);
  static void MoveToAny(Any v, TVMFFIAny* r);
  static bool CheckAnyStrict(const TVMFFIAny*) { return true; }
  static Any CopyFromAnyViewAfterCheck(const TVMFFIAny* s);
  static std::optional<Any> TryCastFromAnyView(const TVMFFIAny* s);
  static std::string TypeStr() { return "Any"; }
  static std::string TypeSchema() { return detail::QuoteTypeSchema(StaticTypeKey::kTVMFFIAny); }
};
template <>
struct TypeTraits<AnyView> : TypeTraitsBase {
  static constexpr bool storage_enabled = false;
  static void CopyToAnyView(const AnyView& v, TVMFFIAny* r);
  static void MoveToAny(const AnyView& v, TVMFFIAny* r);
  static bool CheckAnyStrict(const TVMFFIAny*) { return true; }
  static AnyView CopyFromAnyViewAfterCheck(const TVMFFIAny* s);
  static std::optional<AnyView> TryCastFromAnyView(const TVMFFIAny* s);
  static std::string TypeStr() { return "AnyView"; }
  static std::string TypeSchema() { return detail::QuoteTypeSchema(StaticTypeKey::kTVMFFIAny); }
};

namespace detail {
template <typename T>
[[noreturn]] TVM_FFI_NO_INLINE void ThrowCastError(const TVMFFIAny* src) {
  TVM_FFI_THROW(TypeError) << "Cannot convert from type `" << TypeTraitsNoCR<T>::GetMismatchTypeInfo(src)
                           << "` to `" << TypeTraitsNoCR<T>::TypeStr() << "`";
  TVM_FFI_UNREACHABLE();
}

template <typename T>
T CastFromAny(const TVMFFIAny* src) {
  using U = std::remove_cv_t<std::remove_reference_t<T>>;
  static_assert(TypeTraits<U>::convert_enabled, TVM_FFI_NOT_CONVERTIBLE_MESSAGE_);
  if constexpr (TypeTraits<U>::convert_enabled) {
    if (TypeTraits<U>::CheckAnyStrict(src)) return TypeTraits<U>::CopyFromAnyViewAfterCheck(src);
    std::optional<U> out = TypeTraits<U>::TryCastFromAnyView(src);
    if (!out.has_value()) ThrowCastError<U>(src);
    return *std::move(out);
  } else {
    TVM_FFI_UNREACHABLE();
  }
}

template <typename T>
std::optional<T> TryCastFromAny(const TVMFFIAny* src) {
  using U = std::remove_cv_t<std::remove_reference_t<T>>;
  static_assert(TypeTraits<U>::convert_enabled, TVM_FFI_NOT_CONVERTIBLE_MESSAGE_);
  if constexpr (TypeTraits<U>::convert_enabled) {
    if (TypeTraits<U>::CheckAnyStrict(src)) return TypeTraits<U>::CopyFromAnyViewAfterCheck(src);
    return TypeTraits<U>::TryCastFromAnyView(src);
  } else {
    return std::nullopt;
  }
}

/*! \brief Whether T's traits can move an owned value out of an Any (objects, mostly). */
template <typename T, typename = void>
struct HasMoveFromAny : std::false_type {};
template <typename T>
struct HasMoveFromAny<T, std::void_t<decltype(TypeTraits<T>::MoveFromAnyAfterCheck(
                             std::declval<TVMFFIAny*>()))>> : std::true_type {};

/*! \brief Same type index and same 8 payload bytes (identity for objects, bits for PODs). */
inline bool SameRawValue(const TVMFFIAny* a, const TVMFFIAny* b) noexcept {
  return a->type_index == b->type_index && a->zero_padding == b->zero_padding &&
         a->v_int64 == b->v_int64;
}

/*! \brief A T out of an owned Any known to hold one exactly: moved by the traits when they can
 * (no count traffic, the Any left None), else copied (the Any keeps its value). */
template <typename T>
T TakeAfterCheck(TVMFFIAny* src) {
  if constexpr (HasMoveFromAny<T>::value) {
    return TypeTraits<T>::MoveFromAnyAfterCheck(src);
  } else {
    return TypeTraits<T>::CopyFromAnyViewAfterCheck(src);
  }
}

template <typename T>
auto AsFromAny(const TVMFFIAny* src) {
  if constexpr (std::is_base_of_v<Object, T>) {
    const T* out = nullptr;
    if (src->type_index >= TypeIndex::kTVMFFIStaticObjectBegin &&
        IsObjectInstance<T>(src->type_index)) {
      out = static_cast<const T*>(reinterpret_cast<const Object*>(src->v_obj));
    }
    return out;
  } else {
    static_assert(TypeTraits<T>::convert_enabled, TVM_FFI_NOT_CONVERTIBLE_MESSAGE_);
    std::optional<T> out;
    if constexpr (TypeTraits<T>::convert_enabled) {
      if (TypeTraits<T>::CheckAnyStrict(src)) out = TypeTraits<T>::CopyFromAnyViewAfterCheck(src);
    }
    return out;
  }
}

/*! \brief Makes an owned copy of a view: raw strings become String, objects gain a ref. */
inline void CopyViewToOwned(const TVMFFIAny* view, TVMFFIAny* out) {
  if (view->type_index >= TypeIndex::kTVMFFIStaticObjectBegin) {
    *out = *view;
    ObjectIncRef(out->v_obj);
  } else if (view->type_index == TypeIndex::kTVMFFIRawStr) {
    *out = String(view->v_c_str).MoveToTVMFFIAny();
  } else if (view->type_index == TypeIndex::kTVMFFIByteArrayPtr) {
    const TVMFFIByteArray* a = static_cast<const TVMFFIByteArray*>(view->v_ptr);
    *out = Bytes(a->data, a->size).MoveToTVMFFIAny();
  } else if (view->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
    TVMFFIObject** slot = static_cast<TVMFFIObject**>(view->v_ptr);
    if (*slot == nullptr) TVM_FFI_THROW(RuntimeError) << "RValueRef already moved";
    out->type_index = (*slot)->type_index;
    out->zero_padding = 0;
    out->v_obj = *slot;
    *slot = nullptr;
  } else {
    *out = *view;
  }
}
}  // namespace detail

/*! \brief A borrowed value: 16 bytes, no ownership; valid while what it views lives. */
class AnyView {
 public:
  AnyView() noexcept { detail::ClearAny(&data_); }
  AnyView(const AnyView&) = default;
  AnyView& operator=(const AnyView&) = default;
  AnyView(const Any& other) noexcept;  // NOLINT(google-explicit-constructor)
  template <typename T, typename = std::enable_if_t<
                            TypeTraitsNoCR<T>::convert_enabled &&
                            !std::is_same_v<std::remove_cv_t<std::remove_reference_t<T>>, Any>>>
  AnyView(const T& value) {  // NOLINT(google-explicit-constructor)
    static_assert(!detail::ViewNeedsOwner<T>::value,
                  "this value has no FFI object to view (std::vector, std::map, std::function, "
                  "...): convert it to an owned tvm::ffi::Any first");
    TypeTraitsNoCR<T>::CopyToAnyView(value, &data_);
  }
  // String literals view as raw C strings.
  AnyView(const char* value) noexcept {  // NOLINT(google-explicit-constructor)
    TypeTraits<const char*>::CopyToAnyView(value, &data_);
  }

  template <typename T>
  T cast() const {
    return detail::CastFromAny<T>(&data_);
  }
  template <typename T>
  std::optional<T> try_cast() const {
    return detail::TryCastFromAny<T>(&data_);
  }
  template <typename T>
  auto as() const {
    return detail::AsFromAny<T>(&data_);
  }
  /*! \brief The value as exactly a T (no conversion), or TypeError "Cannot treat type ...". */
  template <typename T>
  T as_or_throw() const {
    if constexpr (std::is_same_v<T, Any> || std::is_same_v<T, AnyView>) {
      return T(*this);
    } else {
      if (!TypeTraits<T>::CheckAnyStrict(&data_)) detail::ThrowCannotTreatAny<T>(&data_);
      return TypeTraits<T>::CopyFromAnyViewAfterCheck(&data_);
    }
  }
  /*! \brief Same stored value: the same object, or the same POD bits and type. */
  bool same_as(const AnyView& other) const noexcept {
    return detail::SameRawValue(&data_, &other.data_);
  }
  /*! \brief Same as cast<T>(); reads naturally in `T x = view;` style code. */
  template <typename T, typename = std::enable_if_t<TypeTraitsNoCR<T>::storage_enabled>>
  operator T() const {  // NOLINT(google-explicit-constructor)
    return cast<T>();
  }

  int32_t type_index() const noexcept { return data_.type_index; }
  std::string GetTypeKey() const { return TypeIndexToTypeKey(data_.type_index); }
  bool operator==(std::nullptr_t) const noexcept {
    return data_.type_index == TypeIndex::kTVMFFINone;
  }
  bool operator!=(std::nullptr_t) const noexcept { return !(*this == nullptr); }
  /*! \brief Views None again (a view owns nothing, so nothing is released). */
  void reset() noexcept { detail::ClearAny(&data_); }
  void swap(AnyView& other) noexcept { std::swap(data_, other.data_); }
  TVMFFIAny CopyToTVMFFIAny() const noexcept { return data_; }
  static AnyView CopyFromTVMFFIAny(TVMFFIAny data) noexcept {
    AnyView out;
    out.data_ = data;
    return out;
  }

 private:
  TVMFFIAny data_;
  friend class Any;
  friend struct detail::AnyUnsafe;
};

/*! \brief An owned value: objects inside hold one strong reference. */
class Any {
 public:
  Any() noexcept { detail::ClearAny(&data_); }
  Any(std::nullptr_t) noexcept { detail::ClearAny(&data_); }  // NOLINT
  Any(const Any& other) { detail::CopyViewToOwned(&other.data_, &data_); }
  Any(Any&& other) noexcept : data_(other.data_) { detail::ClearAny(&other.data_); }
  Any(const AnyView& view) { detail::CopyViewToOwned(&view.data_, &data_); }  // NOLINT
  template <typename T,
            typename = std::enable_if_t<
                TypeTraitsNoCR<T>::convert_enabled &&
                !std::is_same_v<std::remove_cv_t<std::remove_reference_t<T>>, Any> &&
                !std::is_same_v<std::remove_cv_t<std::remove_reference_t<T>>, AnyView>>>
  Any(T&& value) {  // NOLINT(google-explicit-constructor)
    TypeTraitsNoCR<T>::MoveToAny(std::forward<T>(value), &data_);
  }
  Any(const char* value) {  // NOLINT(google-explicit-constructor)
    TypeTraits<const char*>::MoveToAny(value, &data_);
  }
  ~Any() { reset(); }

  Any& operator=(const Any& other) {
    Any copy(other);
    swap(copy);
    return *this;
  }
  Any& operator=(Any&& other) noexcept {
    Any moved(std::move(other));
    swap(moved);
    return *this;
  }
  template <typename T>
  Any& operator=(T&& value) {
    Any tmp(std::forward<T>(value));
    swap(tmp);
    return *this;
  }
  void swap(Any& other) noexcept { std::swap(data_, other.data_); }
  void reset() noexcept {
    if (data_.type_index >= TypeIndex::kTVMFFIStaticObjectBegin) detail::ObjectDecRef(data_.v_obj);
    detail::ClearAny(&data_);
  }

  template <typename T>
  T cast() const& {
    return detail::CastFromAny<T>(&data_);
  }
  /*! \brief cast<T>() that moves a held object out (no count traffic), leaving None. */
  template <typename T>
  T cast() && {
    using U = std::remove_cv_t<std::remove_reference_t<T>>;
    if constexpr (std::is_same_v<U, Any>) {
      return std::move(*this);
    } else {
      if (TypeTraits<U>::CheckAnyStrict(&data_)) return detail::TakeAfterCheck<U>(&data_);
      return detail::CastFromAny<T>(&data_);
    }
  }
  template <typename T>
  std::optional<T> try_cast() const {
    return detail::TryCastFromAny<T>(&data_);
  }
  template <typename T>
  auto as() const& {
    return detail::AsFromAny<T>(&data_);
  }
  /*! \brief as<T>() that moves a held object out when it matches. */
  template <typename T>
  auto as() && {
    if constexpr (std::is_base_of_v<Object, T>) {
      return detail::AsFromAny<T>(&data_);  // a borrowed pointer: nothing to move
    } else {
      std::optional<T> out;
      if (TypeTraits<T>::CheckAnyStrict(&data_)) out = detail::TakeAfterCheck<T>(&data_);
      return out;
    }
  }
  /*! \brief The value as exactly a T (no conversion), or TypeError "Cannot treat type ...". */
  template <typename T>
  T as_or_throw() const& {
    return AnyView(*this).template as_or_throw<T>();
  }
  template <typename T>
  T as_or_throw() && {
    if constexpr (std::is_same_v<T, Any>) {
      return std::move(*this);
    } else {
      if (!TypeTraits<T>::CheckAnyStrict(&data_)) detail::ThrowCannotTreatAny<T>(&data_);
      return detail::TakeAfterCheck<T>(&data_);
    }
  }
  template <typename T, typename = std::enable_if_t<TypeTraitsNoCR<T>::storage_enabled>>
  operator T() const {  // NOLINT(google-explicit-constructor)
    return cast<T>();
  }
  /*! \brief Same stored value: the same object, or the same POD bits and type. */
  bool same_as(const Any& other) const noexcept { return detail::SameRawValue(&data_, &other.data_); }
  /*! \brief Holds exactly this object (or None, for a null reference). */
  bool same_as(const ObjectRef& other) const noexcept {
    if (!other.defined()) return data_.type_index == TypeIndex::kTVMFFINone;
    return data_.type_index >= TypeIndex::kTVMFFIStaticObjectBegin &&
           reinterpret_cast<const Object*>(data_.v_obj) == other.get();
  }

  int32_t type_index() const noexcept { return data_.type_index; }
  std::string GetTypeKey() const { return TypeIndexToTypeKey(data_.type_index); }
  bool has_value() const noexcept { return data_.type_index != TypeIndex::kTVMFFINone; }
  bool operator==(std::nullptr_t) const noexcept {
    return data_.type_index == TypeIndex::kTVMFFINone;
  }
  bool operator!=(std::nullptr_t) const noexcept { return !(*this == nullptr); }
  TVMFFIAny CopyToTVMFFIAny() const noexcept { return data_; }

 private:
  TVMFFIAny data_;
  friend class AnyView;
  friend struct detail::AnyUnsafe;
};

inline AnyView::AnyView(const Any& other) noexcept : data_(other.data_) {}

static_assert(sizeof(Any) == sizeof(TVMFFIAny) && sizeof(AnyView) == sizeof(TVMFFIAny),
              "Any/AnyView must be exactly one TVMFFIAny");
static_assert(std::is_trivially_copyable_v<AnyView>, "AnyView is passed like the C struct");

namespace detail {
/*! \brief Moves between Any and raw TVMFFIAny without touching reference counts. */
struct AnyUnsafe : ObjectUnsafe {
  static TVMFFIAny MoveAnyToTVMFFIAny(Any&& any) noexcept {
    TVMFFIAny out = any.data_;
    ClearAny(&any.data_);
    return out;
  }
  static Any MoveTVMFFIAnyToAny(TVMFFIAny* data) noexcept {
    Any out;
    out.data_ = *data;
    ClearAny(data);
    return out;
  }
  /*! \brief Adopts a raw value whose reference the caller hands over (no slot to clear). */
  static Any MoveTVMFFIAnyRawToAny(TVMFFIAny raw) noexcept {
    Any out;
    out.data_ = raw;
    return out;
  }
  static const TVMFFIAny* TVMFFIAnyPtrFromAny(const Any& any) noexcept { return &any.data_; }
  /*! \brief CheckAnyStrict on a borrowed value (no reference taken). */
  template <typename T>
  static bool CheckAnyViewStrict(const AnyView& view) {
    if constexpr (std::is_same_v<T, Any>) {
      return true;
    } else {
      return TypeTraitsNoCR<T>::CheckAnyStrict(&view.data_);
    }
  }
  template <typename T>
  static T MoveFromAnyAfterCheck(Any&& any) {
    if constexpr (std::is_same_v<T, Any>) {
      return std::move(any);
    } else {
      T out = TakeAfterCheck<std::remove_cv_t<std::remove_reference_t<T>>>(&any.data_);
      any.reset();  // a copied value's reference goes; a moved one left None
      return out;
    }
  }
  /*! \brief The object an Any/AnyView known to hold a TObject points at (no reference taken). */
  template <typename TObject = Object>
  static TObject* RawObjectPtrFromAnyAfterCheck(const Any& any) noexcept {
    return RawObjectPtrFromUnowned<TObject>(any.data_.v_obj);
  }
  template <typename TObject = Object>
  static TObject* RawObjectPtrFromAnyViewAfterCheck(const AnyView& view) noexcept {
    return RawObjectPtrFromUnowned<TObject>(view.data_.v_obj);
  }
  template <typename T>
  static std::string GetMismatchTypeInfo(const Any& any) {
    return TypeTraitsNoCR<T>::GetMismatchTypeInfo(&any.data_);
  }
  template <typename T>
  static bool CheckAnyStrict(const Any& any) {
    return TypeTraitsNoCR<T>::CheckAnyStrict(&any.data_);
  }
  template <typename T>
  static T CopyFromAnyViewAfterCheck(const Any& any) {
    return TypeTraitsNoCR<T>::CopyFromAnyViewAfterCheck(&any.data_);
  }
};
}  // namespace detail

namespace detail {
/*!
 * \brief Calls the Function stored as type attribute `attr` for `a`'s type with (a) or (a, *b);
 * nullopt when the type has none (native C++ hooks of other libraries are not callable here).
 */
inline std::optional<Any> CallTypeAttr(const char* attr, const TVMFFIAny& a, const TVMFFIAny* b);
}  // namespace detail

/*! \brief Hash of a value, the same the runtime's maps use. */
struct AnyHash {
  uint64_t operator()(const Any& value) const { return Hash(value.CopyToTVMFFIAny()); }
  uint64_t operator()(const AnyView& value) const { return Hash(value.CopyToTVMFFIAny()); }
  static uint64_t Combine(uint64_t key, uint64_t value) {
    return key ^ (value + 0x9e3779b9 + (key << 6) + (key >> 2));
  }
  /*! \brief Content hash of bytes: 8-byte little-endian words folded modulo 2^31 - 1. */
  static uint64_t HashBytes(const char* data, size_t size) {
    constexpr uint64_t kMultiplier = 1099511628211ULL, kModulus = 2147483647ULL;
    uint64_t result = 0;
    for (size_t i = 0; i < size; i += 8) {
      uint64_t word = 0;
      std::memcpy(&word, data + i, size - i < 8 ? size - i : 8);
      result = (result * kMultiplier + word) % kModulus;
    }
    return result;
  }
  static uint64_t Hash(const TVMFFIAny& v) {
    switch (v.type_index) {
      case TypeIndex::kTVMFFISmallStr:
        return Combine(TypeIndex::kTVMFFIStr, v.v_uint64 % 2147483647ULL);
      case TypeIndex::kTVMFFISmallBytes:
        return Combine(TypeIndex::kTVMFFIBytes, v.v_uint64 % 2147483647ULL);
      case TypeIndex::kTVMFFIStr:
      case TypeIndex::kTVMFFIBytes: {
        const TVMFFIByteArray* cell = TVMFFIBytesGetByteArrayPtr(v.v_obj);
        return Combine(v.type_index, HashBytes(cell->data, cell->size));
      }
      default:
        break;
    }
    if (v.type_index >= TypeIndex::kTVMFFIStaticObjectBegin) {
      if (std::optional<Any> custom = detail::CallTypeAttr("__any_hash__", v, nullptr)) {
        return Combine(v.type_index, static_cast<uint64_t>(custom->cast<int64_t>()));
      }
    }
    return Combine(v.type_index, v.v_uint64);
  }
};

/*! \brief Equality of values as the runtime's maps compare keys. */
struct AnyEqual {
  bool operator()(const Any& a, const Any& b) const {
    return Equal(a.CopyToTVMFFIAny(), b.CopyToTVMFFIAny());
  }
  bool operator()(const AnyView& a, const AnyView& b) const {
    return Equal(a.CopyToTVMFFIAny(), b.CopyToTVMFFIAny());
  }
  static bool Equal(const TVMFFIAny& a, const TVMFFIAny& b) {
    if (a.type_index == b.type_index && a.zero_padding == b.zero_padding &&
        a.v_uint64 == b.v_uint64) {
      return true;
    }
    int32_t ka = StringKind(a.type_index), kb = StringKind(b.type_index);
    if (ka != 0 && ka == kb) {
      TVMFFIByteArray x = Content(a), y = Content(b);
      return x.size == y.size && (x.size == 0 || std::memcmp(x.data, y.data, x.size) == 0);
    }
    if (a.type_index == b.type_index && a.type_index >= TypeIndex::kTVMFFIStaticObjectBegin) {
      if (std::optional<Any> custom = detail::CallTypeAttr("__any_equal__", a, &b)) {
        return custom->cast<bool>();
      }
    }
    return false;
  }

 private:
  static int32_t StringKind(int32_t type_index) {
    if (type_index == TypeIndex::kTVMFFIStr || type_index == TypeIndex::kTVMFFISmallStr) return 1;
    if (type_index == TypeIndex::kTVMFFIBytes || type_index == TypeIndex::kTVMFFISmallBytes) return 2;
    return 0;
  }
  static TVMFFIByteArray Content(const TVMFFIAny& v) {
    if (v.type_index < TypeIndex::kTVMFFIStaticObjectBegin) {
      return TVMFFISmallBytesGetContentByteArray(&v);
    }
    return *TVMFFIBytesGetByteArrayPtr(v.v_obj);
  }
};

namespace detail {
inline std::optional<Any> CallTypeAttr(const char* attr, const TVMFFIAny& a, const TVMFFIAny* b) {
  TVMFFIByteArray name{attr, CStrLen(attr)};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  if (column == nullptr || a.type_index < column->begin_index ||
      a.type_index >= column->begin_index + column->size) {
    return std::nullopt;
  }
  const TVMFFIAny& entry = column->data[a.type_index - column->begin_index];
  if (entry.type_index != TypeIndex::kTVMFFIFunction) return std::nullopt;
  TVMFFIAny args[2] = {a, b != nullptr ? *b : a};
  TVMFFIAny result;
  ClearAny(&result);
  const TVMFFIFunctionCell* cell = TVMFFIFunctionGetCellPtr(entry.v_obj);
  if (cell->safe_call(entry.v_obj, args, b != nullptr ? 2 : 1, &result) != 0) {
    throw MoveFromSafeCallRaised();
  }
  return AnyUnsafe::MoveTVMFFIAnyToAny(&result);
}
}  // namespace detail

inline void TypeTraits<Any>::CopyToAnyView(const Any& v, TVMFFIAny* r) {
  *r = v.CopyToTVMFFIAny();
}
inline void TypeTraits<Any>::MoveToAny(Any v, TVMFFIAny* r) {
  *r = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(v));
}
inline Any TypeTraits<Any>::CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
  return Any(AnyView::CopyFromTVMFFIAny(*s));
}
inline std::optional<Any> TypeTraits<Any>::TryCastFromAnyView(const TVMFFIAny* s) {
  return CopyFromAnyViewAfterCheck(s);
}
inline void TypeTraits<AnyView>::CopyToAnyView(const AnyView& v, TVMFFIAny* r) {
  *r = v.CopyToTVMFFIAny();
}
inline void TypeTraits<AnyView>::MoveToAny(const AnyView& v, TVMFFIAny* r) {
  TVMFFIAny view = v.CopyToTVMFFIAny();
  detail::CopyViewToOwned(&view, r);
}
inline AnyView TypeTraits<AnyView>::CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
  return AnyView::CopyFromTVMFFIAny(*s);
}
inline std::optional<AnyView> TypeTraits<AnyView>::TryCastFromAnyView(const TVMFFIAny* s) {
  return CopyFromAnyViewAfterCheck(s);
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_ANY_H_
