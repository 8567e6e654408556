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
  template <typename T>
  static constexpr bool kIsAlternative = (std::is_same_v<std::decay_t<T>, V> || ...);

  template <typename T, typename = std::enable_if_t<(std::is_constructible_v<V, T&&> || ...) &&
                                                    !std::is_same_v<std::decay_t<T>, Variant>>>
  Variant(T&& value) : data_(Pick<T, V...>(std::forward<T>(value))) {}  // NOLINT
  Variant(const Variant&) = default;
  Variant(Variant&&) = default;
  Variant& operator=(const Variant&) = default;
  Variant& operator=(Variant&&) = default;

  /*! \brief The value as T (one of the alternatives); TypeError when it holds another. */
  template <typename T>
  T get() const {
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
    TypeTraits<Any>::MoveToAny(v.as_any(), r);
  }
  static bool CheckAnyStrict(const TVMFFIAny* s) { return (TypeTraits<V>::CheckAnyStrict(s) || ...); }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    return Self(Any(AnyView::CopyFromTVMFFIAny(*s)), UnsafeInit{});
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

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_VARIANT_H_
