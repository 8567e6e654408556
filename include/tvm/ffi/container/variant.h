/*
 * tvm/ffi/container/variant.h -- Variant<V...>: one of several FFI types, stored as an Any
 * (16 bytes). Arguments match the first alternative stored exactly, else the first that converts.
 */
#ifndef TVM_FFI_CONTAINER_VARIANT_H_
#define TVM_FFI_CONTAINER_VARIANT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/tuple.h>

namespace tvm {
namespace ffi {

template <typename... V>
class Variant {
  static_assert(sizeof...(V) >= 1, "Variant needs at least one alternative");

 public:
  /*! \brief A Variant's value may be any alternative: no single exact container type. */
  static constexpr bool _type_container_is_exact = false;
  template <typename T>
  static constexpr bool kIsAlternative = (std::is_same_v<std::decay_t<T>, V> || ...);
  /*! \brief Whether a T is stored unchanged by one of the alternatives (the reference's name). */
  template <typename T>
  static constexpr bool variant_contains_v = (type_subsumes_v<V, T> || ...);

  template <typename T, typename = std::enable_if_t<(std::is_constructible_v<V, T&&> || ...) &&
                                                    !std::is_same_v<std::decay_t<T>, Variant>>>
  Variant(T&& value) : data_(Pick<T, V...>(std::forward<T>(value))) {}  // NOLINT
  Variant(const Variant&) = default;
  Variant(Variant&&) = default;
  Variant& operator=(const Variant&) = default;
  Variant& operator=(Variant&&) = default;

  /*! \brief The value as T (one of the alternatives); TypeError when it holds another. */
  template <typename T>
  T get() const& {
    static_assert(kIsAlternative<T>, "Variant::get<T>: T is not one of the alternatives");
    return data_.cast<T>();
  }
  /*! \brief Exact-match access, as Any::as<T>(). */
  template <typename T>
  auto as() const {
    return data_.as<T>();
  }
  template <typename T>
  std::optional<T> try_cast() const {
    return data_.try_cast<T>();
  }
  /*! \brief The value as T, moved out of this Variant (which is left None). */
  template <typename T>
  T get() && {
    static_assert(kIsAlternative<T>, "Variant::get<T>: T is not one of the alternatives");
    return std::move(data_).template cast<T>();
  }
  /*! \brief Same stored value: identical object, or equal POD bits. */
  bool same_as(const Variant& other) const noexcept { return data_.same_as(other.data_); }
  std::string GetTypeKey() const { return data_.GetTypeKey(); }
  const Any& as_any() const noexcept { return data_; }
  int32_t type_index() const noexcept { return data_.type_index(); }

 private:
  template <typename T, typename First, typename... Rest>
  static Any Pick(T&& value) {
    if constexpr (std::is_constructible_v<First, T&&>) {
      return Any(First(std::forward<T>(value)));
    } else {
      return Pick<T, Rest...>(std::forward<T>(value));
    }
  }
  explicit Variant(Any data, UnsafeInit) : data_(std::move(data)) {}
  Any data_;
  template <typename T, typename>
  friend struct TypeTraits;
};

template <typename... V>
struct TypeTraits<Variant<V...>> : TypeTraitsBase {
  using Self = Variant<V...>;
  static void CopyToAnyView(const Self& v, TVMFFIAny* r) { *r = v.as_any().CopyToTVMFFIAny(); }
  static void MoveToAny(Self v, TVMFFIAny* r) {
    *r = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(v.data_));
  }
  static bool CheckAnyStrict(const TVMFFIAny* s) { return (TypeTraits<V>::CheckAnyStrict(s) || ...); }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    return Self(Any(AnyView::CopyFromTVMFFIAny(*s)), UnsafeInit{});
  }
  /*! \brief Takes the value out of `s` (left None): no reference count traffic. */
  static Self MoveFromAnyAfterCheck(TVMFFIAny* s) {
    return Self(detail::AnyUnsafe::MoveTVMFFIAnyToAny(s), UnsafeInit{});
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* s) {
    if (CheckAnyStrict(s)) return CopyFromAnyViewAfterCheck(s);
    std::optional<Self> out;
    ((out.has_value() ? void() : TryOne<V>(s, &out)), ...);
    return out;
  }
  static std::string TypeStr() { return detail::ContainerTypeStr<V...>("Variant"); }
  static std::string TypeSchema() { return detail::ContainerTypeSchema<V...>("Variant"); }

 private:
  template <typename T>
  static void TryOne(const TVMFFIAny* s, std::optional<Self>* out) {
    if (std::optional<T> v = TypeTraits<T>::TryCastFromAnyView(s)) {
      *out = Self(Any(*std::move(v)), UnsafeInit{});
    }
  }
};

/*! \brief A Variant stores, unchanged, any value one of its alternatives stores unchanged. */
template <typename... V, typename T>
inline constexpr bool type_subsumes_v<Variant<V...>, T> = (type_subsumes_v<V, T> || ...);

namespace detail {
/*!
 * \brief Identity hash and equality of a Variant whose alternatives are all object references
 * (so std::unordered_map<Variant<A, B>, V, ObjectPtrHash, ObjectPtrEqual> works).
 */
template <typename... V>
struct VariantObjectIdentity {
  static_assert((std::is_base_of_v<ObjectRef, V> && ...),
                "ObjectPtrHash/ObjectPtrEqual on a Variant need every alternative to be an ObjectRef");
  static const void* Of(const Variant<V...>& v) noexcept {
    const TVMFFIAny* raw = detail::AnyUnsafe::TVMFFIAnyPtrFromAny(v.as_any());
    return raw->type_index >= TypeIndex::kTVMFFIStaticObjectBegin ? raw->v_obj : nullptr;
  }
};
}  // namespace detail

template <typename... V>
size_t ObjectPtrHash::operator()(const Variant<V...>& a) const noexcept {
  return reinterpret_cast<size_t>(detail::VariantObjectIdentity<V...>::Of(a));
}
template <typename... V>
bool ObjectPtrEqual::operator()(const Variant<V...>& a, const Variant<V...>& b) const noexcept {
  return detail::VariantObjectIdentity<V...>::Of(a) == detail::VariantObjectIdentity<V...>::Of(b);
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_VARIANT_H_
