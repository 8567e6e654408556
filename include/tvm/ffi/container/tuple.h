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
  const ArrayObj* get() const noexcept { return static_cast<const ArrayObj*>(data_.get()); }
  using ContainerType = ArrayObj;
  static constexpr bool _type_is_nullable = false;

  /*! \brief The I-th item. */
  template <size_t I>
  auto get() const {
    using T = std::tuple_element_t<I, std::tuple<Types...>>;
    return detail::ElementAs<T>((*get())[static_cast<int64_t>(I)]);
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
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIArray;
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
  static std::string TypeStr() { return detail::ContainerTypeStr<Types...>("Tuple"); }
  static std::string TypeSchema() { return detail::ContainerTypeSchema<Types...>("ffi.Tuple"); }

 private:
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

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_TUPLE_H_
