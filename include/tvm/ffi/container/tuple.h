/*
 * tvm/ffi/container/tuple.h -- Tuple<Types...>: a fixed-size heterogeneous value stored as an
 * ffi.Array, so it crosses the ABI (and reaches Python) as an Array of its items.
 */
#ifndef TVM_FFI_CONTAINER_TUPLE_H_
#define TVM_FFI_CONTAINER_TUPLE_H_

#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/container_detail.h>

#include <tuple>

namespace tvm {
namespace ffi {

namespace detail {
template <typename Self, typename... U>
struct IsOnlySelf : std::false_type {};
template <typename Self, typename U>
struct IsOnlySelf<Self, U> : std::is_same<std::decay_t<U>, Self> {};
}  // namespace detail

template <typename... Types>
class Tuple : public ObjectRef {
 public:
  using _ffi_custom_traits_tag = void;
  /*! \brief Element types are checked too: ArrayObj alone does not make a Tuple. */
  static constexpr bool _type_container_is_exact = false;
  static constexpr size_t kSize = sizeof...(Types);

  Tuple() : Tuple(Types()...) {}
  template <typename... UTypes,
            typename = std::enable_if_t<sizeof...(UTypes) == kSize && kSize != 0 &&
                                        !detail::IsOnlySelf<Tuple, UTypes...>::value>>
  explicit Tuple(UTypes&&... values) : ObjectRef(UnsafeInit{}) {
    Array<Any> items;
    items.reserve(static_cast<int64_t>(kSize));
    (items.push_back(Any(Types(std::forward<UTypes>(values)))), ...);
    data_ = detail::ObjectUnsafe::GetObjectPtr(items);
  }
  explicit Tuple(UnsafeInit tag) : ObjectRef(tag) {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Tuple)
  /*! \brief Upcast: a tuple whose items each fit these types shares its storage. */
  template <typename... UTypes,
            typename = std::enable_if_t<sizeof...(UTypes) == kSize &&
                                        (type_subsumes_v<Types, UTypes> && ...)>>
  Tuple(const Tuple<UTypes...>& other) : ObjectRef(other) {}  // NOLINT(runtime/explicit)
  template <typename... UTypes,
            typename = std::enable_if_t<sizeof...(UTypes) == kSize &&
                                        (type_subsumes_v<Types, UTypes> && ...)>>
  Tuple(Tuple<UTypes...>&& other) : ObjectRef(std::move(other)) {}  // NOLINT(runtime/explicit)
  template <typename... UTypes,
            typename = std::enable_if_t<sizeof...(UTypes) == kSize &&
                                        (type_subsumes_v<Types, UTypes> && ...)>>
  Tuple& operator=(const Tuple<UTypes...>& other) {
    ObjectRef::operator=(other);
    return *this;
  }
  template <typename... UTypes,
            typename = std::enable_if_t<sizeof...(UTypes) == kSize &&
                                        (type_subsumes_v<Types, UTypes> && ...)>>
  Tuple& operator=(Tuple<UTypes...>&& other) {
    ObjectRef::operator=(std::move(other));
    return *this;
  }
  const ArrayObj* get() const noexcept { return static_cast<const ArrayObj*>(data_.get()); }
  using ContainerType = ArrayObj;
  static constexpr bool _type_is_nullable = false;

  /*! \brief The I-th item. */
  template <size_t I>
  auto get() const& {
    using T = std::tuple_element_t<I, std::tuple<Types...>>;
    const Any& item = (*get())[static_cast<int64_t>(I)];
    if constexpr (std::is_base_of_v<ObjectRef, T>) {
      // A slot emptied by the rvalue get below reads as the empty reference.
      if (item == nullptr) {
        return detail::ObjectUnsafe::ObjectRefFromObjectPtr<T>(ObjectPtr<Object>());
      }
    }
    return detail::ElementAs<T>(item);
  }
  /*! \brief The I-th item of a tuple about to go away: moved out (its slot left None) when
   * this is the only reference, so `auto [a, b] = std::move(t)` takes no extra counts. */
  template <size_t I>
  auto get() && {
    using T = std::tuple_element_t<I, std::tuple<Types...>>;
    if (!data_.unique()) return std::as_const(*this).template get<I>();
    Any* slot = get()->begin() + I;
    if constexpr (std::is_same_v<T, Any>) {
      return T(std::move(*slot));
    } else {
      TVMFFIAny* raw = const_cast<TVMFFIAny*>(detail::AnyUnsafe::TVMFFIAnyPtrFromAny(*slot));
      if (!TypeTraits<T>::CheckAnyStrict(raw)) return slot->cast<T>();
      T out = detail::TakeAfterCheck<T>(raw);
      *slot = Any();  // a value the traits could only copy is released here
      return out;
    }
  }
  /*! \brief Replaces the I-th item (copy-on-write, like Array). */
  template <size_t I, typename U>
  void Set(U&& value) {
    using T = std::tuple_element_t<I, std::tuple<Types...>>;
    Array<Any> items = detail::ObjectUnsafe::ObjectRefFromObjectPtr<Array<Any>>(data_);
    items.Set(static_cast<int64_t>(I), Any(T(std::forward<U>(value))));
    data_ = detail::ObjectUnsafe::GetObjectPtr(items);
  }
};


template <typename... Types>
struct TypeTraits<Tuple<Types...>> : TypeTraitsBase {
  using Self = Tuple<Types...>;
  // A field of this type registers as "some object", as with the reference's headers.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIObject;
  static void CopyToAnyView(const Self& v, TVMFFIAny* r) {
    r->type_index = TypeIndex::kTVMFFIArray;
    r->zero_padding = 0;
    r->v_obj = detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(v);
  }
  static void MoveToAny(Self v, TVMFFIAny* r) {
    r->type_index = TypeIndex::kTVMFFIArray;
    r->zero_padding = 0;
    r->v_obj = detail::ObjectUnsafe::MoveObjectRefToTVMFFIObjectPtr(std::move(v));
  }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    if (s->type_index != TypeIndex::kTVMFFIArray) return false;
    const TVMFFISeqCell* cell = detail::SeqCellOf<Any>(s);
    if (cell->size != static_cast<int64_t>(sizeof...(Types))) return false;
    const TVMFFIAny* items = static_cast<const TVMFFIAny*>(cell->data);
    return StrictAt(items, std::index_sequence_for<Types...>{});
  }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    return detail::ObjectUnsafe::ObjectRefFromUnowned<Self>(s->v_obj);
  }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* s) {
    if (CheckAnyStrict(s)) return CopyFromAnyViewAfterCheck(s);
    if (s->type_index != TypeIndex::kTVMFFIArray && s->type_index != TypeIndex::kTVMFFIList) {
      return std::nullopt;
    }
    const TVMFFISeqCell* cell = detail::SeqCellOf<Any>(s);
    if (cell->size != static_cast<int64_t>(sizeof...(Types))) return std::nullopt;
    return ConvertAt(static_cast<const TVMFFIAny*>(cell->data), std::index_sequence_for<Types...>{});
  }
  /*! \brief "Array[size=3]" for a wrong length, "Array[index 1: float]" for a bad element. */
  static std::string GetMismatchTypeInfo(const TVMFFIAny* s) {
    if (s->type_index != TypeIndex::kTVMFFIArray) return TypeTraitsBase::GetMismatchTypeInfo(s);
    const TVMFFISeqCell* cell = detail::SeqCellOf<Any>(s);
    if (cell->size != static_cast<int64_t>(sizeof...(Types))) {
      return "Array[size=" + std::to_string(cell->size) + "]";
    }
    std::string out;
    MismatchAt(static_cast<const TVMFFIAny*>(cell->data), &out, std::index_sequence_for<Types...>{});
    return out.empty() ? TypeTraitsBase::GetMismatchTypeInfo(s) : out;
  }
  static std::string TypeStr() { return detail::ContainerTypeStr<Types...>("Tuple"); }
  // "Tuple", as the reference headers write it (Python reads it as `tuple`).
  static std::string TypeSchema() { return detail::ContainerTypeSchema<Types...>("Tuple"); }

 private:
  template <size_t... Is>
  static void MismatchAt(const TVMFFIAny* items, std::string* out, std::index_sequence<Is...>) {
    ((out->empty() && !detail::TryCastFromAny<Types>(items + Is).has_value()
          ? void(*out = "Array[index " + std::to_string(Is) + ": " +
                        TypeTraitsNoCR<Types>::GetMismatchTypeInfo(items + Is) + "]")
          : void()),
     ...);
  }
  template <size_t... Is>
  static bool StrictAt(const TVMFFIAny* items, std::index_sequence<Is...>) {
    return (TypeTraits<Types>::CheckAnyStrict(items + Is) && ...);
  }
  template <size_t... Is>
  static std::optional<Self> ConvertAt(const TVMFFIAny* items, std::index_sequence<Is...>) {
    std::tuple<std::optional<Types>...> parts{
        detail::TryCastFromAny<Types>(items + Is)...};
    if (!(std::get<Is>(parts).has_value() && ...)) return std::nullopt;
    return Self(*std::move(std::get<Is>(parts))...);
  }
};

/*! \brief Tuples of equal arity whose elements subsume element-wise share storage. */
template <typename... T, typename... U>
inline constexpr bool
    type_subsumes_v<Tuple<T...>, Tuple<U...>, std::enable_if_t<sizeof...(T) == sizeof...(U)>> =
        (type_subsumes_v<T, U> && ...);

/*! \brief `Tuple(a, 1, 2.0)` deduces Tuple<A, int, double>. */
template <typename... UTypes>
Tuple(UTypes&&...) -> Tuple<std::remove_cv_t<std::remove_reference_t<UTypes>>...>;

/*! \brief `get<I>(t)` found by argument-dependent lookup, as for std::tuple. */
template <size_t I, typename... Types>
auto get(const Tuple<Types...>& t) -> std::tuple_element_t<I, std::tuple<Types...>> {
  return t.template get<I>();
}
template <size_t I, typename... Types>
auto get(Tuple<Types...>&& t) -> std::tuple_element_t<I, std::tuple<Types...>> {
  return std::move(t).template get<I>();
}

}  // namespace ffi
}  // namespace tvm

// Structured bindings: `auto [a, b] = tuple;`
template <typename... Types>
struct std::tuple_size<::tvm::ffi::Tuple<Types...>>
    : std::integral_constant<size_t, sizeof...(Types)> {};
template <size_t I, typename... Types>
struct std::tuple_element<I, ::tvm::ffi::Tuple<Types...>> {
  using type = std::tuple_element_t<I, std::tuple<Types...>>;
};

#endif  // TVM_FFI_CONTAINER_TUPLE_H_
