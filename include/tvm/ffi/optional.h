/*
 * tvm/ffi/optional.h -- Optional<T>: a T or None, in the reference's layouts. Object references,
 * ObjectPtr and Arc: one pointer, null meaning None (8 bytes). Values an Any stores as they are
 * (numbers, strings, DLDataType, DLDevice, Variant, ...): an Any (16 bytes). Other types (views,
 * std containers, nested Optionals): std::optional.
 */
#ifndef TVM_FFI_OPTIONAL_H_
#define TVM_FFI_OPTIONAL_H_

#include <tvm/ffi/any.h>

#include <optional>

namespace tvm {
namespace ffi {

template <typename T, typename = void>
class Optional;

template <typename T>
inline constexpr bool is_optional_type_v = false;
template <typename T>
inline constexpr bool is_optional_type_v<Optional<T>> = true;

namespace detail {
/*!
 * \brief The comparisons every Optional layout shares. Empty equals only empty; two values
 * compare with T's own operator, so `Optional<String>("a") == "a"` compares text and a
 * symbolic expression type may return its own result type (hence `auto`). Identical object
 * references are equal without asking T.
 */
template <typename Derived, typename T>
class OptionalComparisons {
 public:
  auto operator==(const Derived& other) const {
    using R = decltype(std::declval<const T&>() == std::declval<const T&>());
    if (Identical(other)) return R(true);
    if (self().has_value() && other.has_value()) return R(*self() == *other);
    return R(self().has_value() == other.has_value());
  }
  auto operator!=(const Derived& other) const {
    using R = decltype(std::declval<const T&>() != std::declval<const T&>());
    if (Identical(other)) return R(false);
    if (self().has_value() && other.has_value()) return R(*self() != *other);
    return R(self().has_value() != other.has_value());
  }
  auto operator==(const std::optional<T>& other) const {
    using R = decltype(std::declval<const T&>() == std::declval<const T&>());
    if (self().has_value() && other.has_value()) return R(*self() == *other);
    return R(self().has_value() == other.has_value());
  }
  auto operator!=(const std::optional<T>& other) const {
    using R = decltype(std::declval<const T&>() != std::declval<const T&>());
    if (self().has_value() && other.has_value()) return R(*self() != *other);
    return R(self().has_value() != other.has_value());
  }
  /*! \brief Against a plain value: an empty Optional equals no value. */
  template <typename U, typename = std::enable_if_t<!is_optional_type_v<std::decay_t<U>> &&
                                                    !std::is_same_v<std::decay_t<U>, std::nullopt_t> &&
                                                    !std::is_same_v<std::decay_t<U>, std::nullptr_t>>>
  auto operator==(const U& other) const {
    using R = decltype(std::declval<const T&>() == other);
    if (!self().has_value()) return R(false);
    return R(*self() == other);
  }
  template <typename U, typename = std::enable_if_t<!is_optional_type_v<std::decay_t<U>> &&
                                                    !std::is_same_v<std::decay_t<U>, std::nullopt_t> &&
                                                    !std::is_same_v<std::decay_t<U>, std::nullptr_t>>>
  auto operator!=(const U& other) const {
    using R = decltype(std::declval<const T&>() != other);
    if (!self().has_value()) return R(true);
    return R(*self() != other);
  }
  bool operator==(std::nullopt_t) const noexcept { return !self().has_value(); }
  bool operator!=(std::nullopt_t) const noexcept { return self().has_value(); }
  bool operator==(std::nullptr_t) const noexcept { return !self().has_value(); }
  bool operator!=(std::nullptr_t) const noexcept { return self().has_value(); }

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
  bool Identical(const Derived& other) const {
    if constexpr (std::is_base_of_v<ObjectRef, T>) {
      return self().unsafe_ref().same_as(other.unsafe_ref());
    } else {
      return false;
    }
  }
};
}  // namespace detail

template <typename T, typename>
class Optional : public detail::OptionalComparisons<Optional<T>, T> {
 public:
  using ContainerType = void;
  using value_type = T;
  Optional() = default;
  Optional(std::nullopt_t) noexcept {}                   // NOLINT
  Optional(std::nullptr_t) noexcept {}                   // NOLINT
  Optional(T value) : data_(std::move(value)) {}         // NOLINT
  Optional(std::optional<T> value) : data_(std::move(value)) {}  // NOLINT
  template <typename U, typename = std::enable_if_t<std::is_constructible_v<T, U&&> &&
                                                    !std::is_same_v<std::decay_t<U>, T> &&
                                                    !std::is_same_v<std::decay_t<U>, Optional>>>
  Optional(U&& value) : data_(T(std::forward<U>(value))) {}  // NOLINT
  Optional& operator=(std::nullopt_t) noexcept {
    data_.reset();
    return *this;
  }

  bool has_value() const noexcept { return data_.has_value(); }
  explicit operator bool() const noexcept { return data_.has_value(); }
  const T& value() const& {
    if (!data_.has_value()) TVM_FFI_THROW(RuntimeError) << "Back optional access";
    return *data_;
  }
  T value() && {
    if (!data_.has_value()) TVM_FFI_THROW(RuntimeError) << "Back optional access";
    return std::move(*data_);
  }
  template <typename U>
  T value_or(U&& fallback) const {
    return data_.has_value() ? *data_ : T(std::forward<U>(fallback));
  }
  const T& operator*() const& { return *data_; }
  T operator*() && { return std::move(*data_); }
  const T* operator->() const { return &*data_; }

 private:
  std::optional<T> data_;
};

namespace detail {
/*! \brief ObjectPtr<O> and Arc<O>: their Optional is one nullable pointer. */
template <typename T>
struct ObjectPointee {};
template <typename O>
struct ObjectPointee<ObjectPtr<O>> {
  using type = O;
};
template <typename O>
struct ObjectPointee<Arc<O>> {
  using type = O;
};
template <typename T, typename = void>
inline constexpr bool kIsObjectPointer = false;
template <typename T>
inline constexpr bool kIsObjectPointer<T, std::void_t<typename ObjectPointee<T>::type>> = true;

/*!
 * \brief Values whose Optional is stored as one Any, None meaning nullopt: every type an Any
 * stores as it is (numbers, strings, DLDataType, DLDevice, Variant, ...) other than object
 * references and pointers (nullable already) and Any itself. This is the reference's layout
 * (16 bytes). A nested Optional keeps the std::optional form, so Optional(Optional<T>()) stays
 * distinct from an empty outer Optional.
 */
template <typename T>
inline constexpr bool kOptionalInAny =
    TypeTraits<T>::storage_enabled && !std::is_base_of_v<ObjectRef, T> && !kIsObjectPointer<T> &&
    !is_optional_type_v<T> && !std::is_same_v<T, Any>;
}  // namespace detail

/*!
 * \brief Optional of a value an Any stores as it is (see kOptionalInAny): an Any, None meaning
 * nullopt. This is the reference's 16-byte layout, so such values keep their meaning when they
 * cross a library boundary by reference (e.g. json::Stringify's `indent`) or sit in an object
 * field. Values are returned by copy.
 */
template <typename T>
class Optional<T, std::enable_if_t<detail::kOptionalInAny<T>>>
    : public detail::OptionalComparisons<Optional<T>, T> {
 public:
  using ContainerType = void;
  using value_type = T;
  Optional() = default;
  Optional(std::nullopt_t) noexcept {}   // NOLINT
  Optional(std::nullptr_t) noexcept {}   // NOLINT
  Optional(T value) : data_(value) {}    // NOLINT
  Optional(std::optional<T> value) {     // NOLINT
    if (value.has_value()) data_ = *value;
  }
  /*! \brief From anything T is made from (e.g. a string literal for Optional<String>). */
  template <typename U, typename = std::enable_if_t<std::is_constructible_v<T, U&&> &&
                                                    !std::is_same_v<std::decay_t<U>, T> &&
                                                    !std::is_same_v<std::decay_t<U>, Optional> &&
                                                    !std::is_same_v<std::decay_t<U>, std::nullopt_t> &&
                                                    !std::is_same_v<std::decay_t<U>, std::nullptr_t>>>
  Optional(U&& value) : data_(T(std::forward<U>(value))) {}  // NOLINT
  Optional& operator=(std::nullopt_t) noexcept {
    data_ = Any();
    return *this;
  }

  bool has_value() const noexcept { return data_.type_index() != TypeIndex::kTVMFFINone; }
  explicit operator bool() const noexcept { return has_value(); }
  T value() const {
    if (!has_value()) TVM_FFI_THROW(RuntimeError) << "Back optional access";
    return data_.cast<T>();
  }
  template <typename U>
  T value_or(U&& fallback) const {
    return has_value() ? data_.cast<T>() : T(std::forward<U>(fallback));
  }
  T operator*() const { return data_.cast<T>(); }
  /*! \brief The value as exactly a U (no conversion; nullopt reads as None), as Any::as<U>(). */
  template <typename U>
  auto as() const {
    return data_.template as<U>();
  }
  /*! \brief The value as exactly a U, or TypeError "Cannot treat type ...". */
  template <typename U>
  U as_or_throw() const {
    return data_.template as_or_throw<U>();
  }
  /*! \brief Same stored value (both empty, or the same POD bits or object). */
  bool same_as(const Optional& other) const noexcept { return data_.same_as(other.data_); }

 private:
  Any data_;
};

/*! \brief Optional of an ObjectPtr<O> or Arc<O>: one pointer, null meaning None. */
template <typename P>
class Optional<P, std::enable_if_t<detail::kIsObjectPointer<P>>>
    : public detail::OptionalComparisons<Optional<P>, P> {
  using Pointee = typename detail::ObjectPointee<P>::type;

 public:
  using ContainerType = void;
  using value_type = P;
  Optional() = default;
  Optional(std::nullopt_t) noexcept {}  // NOLINT
  Optional(std::nullptr_t) noexcept {}  // NOLINT
  Optional(P value) : data_(std::move(value)) {}  // NOLINT
  template <typename U, typename = std::enable_if_t<std::is_constructible_v<P, U&&> &&
                                                    !std::is_same_v<std::decay_t<U>, P> &&
                                                    !std::is_same_v<std::decay_t<U>, Optional> &&
                                                    !std::is_same_v<std::decay_t<U>, std::nullopt_t> &&
                                                    !std::is_same_v<std::decay_t<U>, std::nullptr_t>>>
  Optional(U&& value) : data_(P(std::forward<U>(value))) {}  // NOLINT
  Optional& operator=(std::nullopt_t) noexcept {
    data_.reset();
    return *this;
  }

  bool has_value() const noexcept { return data_ != nullptr; }
  explicit operator bool() const noexcept { return has_value(); }
  P value() const {
    if (!has_value()) TVM_FFI_THROW(RuntimeError) << "Back optional access";
    return Get();
  }
  template <typename U>
  P value_or(U&& fallback) const {
    return has_value() ? Get() : P(std::forward<U>(fallback));
  }
  P operator*() const { return Get(); }
  Pointee* operator->() const noexcept { return data_.get(); }
  Pointee* get() const noexcept { return data_.get(); }
  int32_t use_count() const noexcept { return data_.use_count(); }
  bool unique() const noexcept { return data_.unique(); }
  bool same_as(const Optional& other) const noexcept { return data_ == other.data_; }
  bool same_as(const ObjectRef& other) const noexcept { return data_.get() == other.get(); }

 private:
  P Get() const {
    if constexpr (std::is_same_v<P, ObjectPtr<Pointee>>) {
      return data_;
    } else {
      return detail::ObjectUnsafe::ArcFromObjectPtr(ObjectPtr<Pointee>(data_));
    }
  }
  ObjectPtr<Pointee> data_;
};

/*! \brief Optional of an object reference: the null reference means None. */
template <typename T>
class Optional<T, std::enable_if_t<std::is_base_of_v<ObjectRef, T>>>
    : public detail::OptionalComparisons<Optional<T>, T> {
 public:
  using ContainerType = typename T::ContainerType;
  using value_type = T;
  static constexpr bool _type_container_is_exact = T::_type_container_is_exact;
  Optional() : data_(UnsafeInit{}) {}
  Optional(std::nullopt_t) : data_(UnsafeInit{}) {}  // NOLINT
  Optional(std::nullptr_t) : data_(UnsafeInit{}) {}  // NOLINT
  Optional(T value) : data_(std::move(value)) {}     // NOLINT
  Optional(std::optional<T> value) : data_(UnsafeInit{}) {  // NOLINT
    if (value.has_value()) data_ = std::move(*value);
  }
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  Optional(const Optional<U>& other) : data_(UnsafeInit{}) {  // NOLINT
    if (other.has_value()) data_ = other.value();
  }
  Optional& operator=(std::nullopt_t) {
    data_ = T(UnsafeInit{});
    return *this;
  }

  bool has_value() const noexcept { return data_.defined(); }
  bool defined() const noexcept { return data_.defined(); }
  explicit operator bool() const noexcept { return data_.defined(); }
  const T& value() const& {
    if (!data_.defined()) TVM_FFI_THROW(RuntimeError) << "Back optional access";
    return data_;
  }
  T value() && {
    if (!data_.defined()) TVM_FFI_THROW(RuntimeError) << "Back optional access";
    return std::move(data_);
  }
  T value_or(T fallback) const { return data_.defined() ? data_ : fallback; }
  const T& operator*() const& { return data_; }
  /*! \brief Moves the reference out, leaving this Optional empty. */
  T operator*() && { return std::move(data_); }
  auto operator->() const { return data_.operator->(); }
  auto get() const { return data_.get(); }
  bool same_as(const ObjectRef& other) const { return data_.same_as(other); }
  bool same_as(const Optional& other) const { return data_.same_as(other.data_); }
  int32_t use_count() const noexcept { return data_.use_count(); }
  bool unique() const noexcept { return data_.unique(); }
  /*!
   * \brief The object as a U: for an object type, `const U*` (nullptr when empty or another
   * type), otherwise what AnyView::as<U>() gives for the reference (an empty one reads as None).
   */
  template <typename U>
  auto as() const {
    if constexpr (std::is_base_of_v<Object, U>) {
      return data_.template as<U>();
    } else {
      return ViewOrNone().template as<U>();
    }
  }
  /*! \brief The reference as exactly a U, or TypeError "Cannot treat type ...". */
  template <typename U>
  U as_or_throw() const {
    return ViewOrNone().template as_or_throw<U>();
  }
  /*! \brief The (possibly null) reference itself. */
  const T& unsafe_ref() const noexcept { return data_; }

 private:
  /*! \brief A view of the reference; None when empty (T's own view would read the null). */
  AnyView ViewOrNone() const { return data_.defined() ? AnyView(data_) : AnyView(); }
  T data_;
};

template <typename T>
struct TypeTraits<Optional<T>> : TypeTraitsBase {
  using Inner = TypeTraits<T>;
  static void CopyToAnyView(const Optional<T>& v, TVMFFIAny* r) {
    if (!v.has_value()) return detail::ClearAny(r);
    Inner::CopyToAnyView(*v, r);
  }
  static void MoveToAny(Optional<T> v, TVMFFIAny* r) {
    if (!v.has_value()) return detail::ClearAny(r);
    Inner::MoveToAny(std::move(v).value(), r);
  }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index == TypeIndex::kTVMFFINone || Inner::CheckAnyStrict(s);
  }
  static Optional<T> CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    if (s->type_index == TypeIndex::kTVMFFINone) return Optional<T>();
    return Inner::CopyFromAnyViewAfterCheck(s);
  }
  /*! \brief Moves a held object out of `s` (left None) when T's traits can. */
  static Optional<T> MoveFromAnyAfterCheck(TVMFFIAny* s) {
    if (s->type_index == TypeIndex::kTVMFFINone) return Optional<T>();
    if constexpr (detail::HasMoveFromAny<T>::value) {
      return Inner::MoveFromAnyAfterCheck(s);
    } else {
      Optional<T> out = Inner::CopyFromAnyViewAfterCheck(s);
      detail::AnyUnsafe::MoveTVMFFIAnyToAny(s);  // drops the value `s` held
      return out;
    }
  }
  static std::optional<Optional<T>> TryCastFromAnyView(const TVMFFIAny* s) {
    if (s->type_index == TypeIndex::kTVMFFINone) return Optional<T>();
    if (Inner::CheckAnyStrict(s)) return Optional<T>(Inner::CopyFromAnyViewAfterCheck(s));
    if (std::optional<T> v = Inner::TryCastFromAnyView(s)) return Optional<T>(*std::move(v));
    return std::nullopt;
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* s) {
    return Inner::GetMismatchTypeInfo(s);
  }
  static std::string TypeStr() { return "Optional<" + Inner::TypeStr() + ">"; }
  static std::string TypeSchema() {
    return "{\"type\":\"Optional\",\"args\":[" + Inner::TypeSchema() + "]}";
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_OPTIONAL_H_
