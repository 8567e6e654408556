/*
 * tvm/ffi/extra/stl.h -- standard library types as FFI values, so typed functions can take and
 * return them directly:
 *
 *   std::vector<T>, std::array<T, N>, std::tuple<T...>  <->  ffi.Array (vector also reads ffi.List)
 *   std::map<K, V>, std::unordered_map<K, V>              <->  ffi.Map
 *   std::optional<T>                                      <->  None or T (in type_traits.h:
 *                                                              the core headers copy optionals)
 *   std::variant<T...>                                    <->  the first alternative that fits
 *   std::function<R(Args...)>                             <->  ffi.Function
 *
 * Values are copied element by element at the boundary (an Array does not alias a vector). These
 * types are not stored inside FFI containers (storage_enabled is false): use Array/Map there.
 * Passing one to Function::operator() builds the object for the duration of the call.
 */
#ifndef TVM_FFI_EXTRA_STL_H_
#define TVM_FFI_EXTRA_STL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/container_detail.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>

#include <array>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace tvm {
namespace ffi {
namespace detail {

/*! \brief Shared by the traits that build a new object for every conversion to Any. */
struct STLTypeTrait : TypeTraitsBase {
  static constexpr bool storage_enabled = false;
  /*! \brief A view of such a value must own an object: callers keep one alive (function.h). */
  static constexpr bool view_makes_object = true;
  // Reading always converts element by element, so nothing is "stored as is".
  static bool CheckAnyStrict(const TVMFFIAny*) { return false; }

 protected:
  static void StoreObject(ObjectRef made, TVMFFIAny* result) {
    TVMFFIObject* obj = ObjectUnsafe::MoveObjectRefToTVMFFIObjectPtr(std::move(made));
    result->type_index = obj->type_index;
    result->zero_padding = 0;
    result->v_obj = obj;
  }
  /*! \brief One element read as T, or nullopt when it does not convert. */
  template <typename T>
  static std::optional<T> ReadElement(const Any& value) {
    if constexpr (std::is_same_v<T, Any>) {
      return value;
    } else {
      return detail::TryCastFromAny<T>(AnyUnsafe::TVMFFIAnyPtrFromAny(value));
    }
  }
  /*! \brief The elements of an Array or List (borrowed from the cell). */
  static const TVMFFISeqCell* SeqOf(const TVMFFIAny* src) {
    return reinterpret_cast<const TVMFFISeqCell*>(
        reinterpret_cast<const char*>(src->v_obj) + sizeof(TVMFFIObject));
  }
  static const Any& SeqItem(const TVMFFISeqCell* seq, size_t i) {
    return static_cast<const Any*>(seq->data)[i];
  }
  template <typename Range>
  static Array<Any> ArrayFrom(Range&& src) {
    Array<Any> out;
    out.reserve(static_cast<int64_t>(std::size(src)));
    for (auto&& item : src) {
      if constexpr (std::is_rvalue_reference_v<Range&&>) {
        out.push_back(Any(std::move(item)));
      } else {
        out.push_back(Any(item));
      }
    }
    return out;
  }
  template <typename Tuple>
  static Array<Any> ArrayFromTuple(Tuple&& src) {
    Array<Any> out;
    out.reserve(static_cast<int64_t>(std::tuple_size_v<std::decay_t<Tuple>>));
    std::apply([&](auto&&... items) { (out.push_back(Any(std::forward<decltype(items)>(items))), ...); },
               std::forward<Tuple>(src));
    return out;
  }
  template <typename MapType>
  static Map<Any, Any> MapFrom(MapType&& src) {
    std::vector<std::pair<Any, Any>> items;
    items.reserve(src.size());
    for (auto&& [key, value] : src) {
      if constexpr (std::is_rvalue_reference_v<MapType&&>) {
        items.emplace_back(Any(key), Any(std::move(value)));
      } else {
        items.emplace_back(Any(key), Any(value));
      }
    }
    return Map<Any, Any>(items.begin(), items.end());
  }
  /*! \brief An ffi.Map read into MapType, or nullopt when a key or value does not convert. */
  template <typename MapType>
  static std::optional<MapType> ReadMap(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFIMap) return std::nullopt;
    Array<Any> flat = MapItems(AnyView::CopyFromTVMFFIAny(*src), false);
    MapType out;
    for (size_t i = 0; i + 1 < flat.size(); i += 2) {
      auto key = ReadElement<typename MapType::key_type>(flat[static_cast<int64_t>(i)]);
      auto value = ReadElement<typename MapType::mapped_type>(flat[static_cast<int64_t>(i + 1)]);
      if (!key.has_value() || !value.has_value()) return std::nullopt;
      out.try_emplace(*std::move(key), *std::move(value));
    }
    return out;
  }
};

/*! \brief "name<T1, T2, ...>" and {"type":"name","args":[...]} for the STL traits. */
template <typename... Types>
std::string STLTypeStr(const char* name) {
  return ContainerTypeStr<Types...>(name);
}
template <typename... Types>
std::string STLTypeSchema(const char* name) {
  return ContainerTypeSchema<Types...>(name);
}
}  // namespace detail

/*! \brief std::vector<T> <-> Array (reads Array or List). */
template <typename T>
struct TypeTraits<std::vector<T>> : detail::STLTypeTrait {
  using Self = std::vector<T>;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIArray;
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) { MoveToAny(src, result); }
  static void MoveToAny(Self src, TVMFFIAny* result) {
    StoreObject(ArrayFrom(std::move(src)), result);
  }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFIArray && src->type_index != TypeIndex::kTVMFFIList) {
      return std::nullopt;
    }
    const TVMFFISeqCell* seq = SeqOf(src);
    Self out;
    out.reserve(static_cast<size_t>(seq->size));
    for (size_t i = 0; i < static_cast<size_t>(seq->size); ++i) {
      std::optional<T> item = ReadElement<T>(SeqItem(seq, i));
      if (!item.has_value()) return std::nullopt;
      out.emplace_back(*std::move(item));
    }
    return out;
  }
  static std::string TypeStr() { return detail::STLTypeStr<T>("std::vector"); }
  static std::string TypeSchema() { return detail::STLTypeSchema<T>("std::vector"); }
};

/*! \brief std::array<T, N> <-> an Array of exactly N elements. */
template <typename T, std::size_t N>
struct TypeTraits<std::array<T, N>> : detail::STLTypeTrait {
  static_assert(N > 0, "Zero-length std::array is not supported.");
  using Self = std::array<T, N>;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIArray;
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) { MoveToAny(src, result); }
  static void MoveToAny(Self src, TVMFFIAny* result) {
    StoreObject(ArrayFrom(std::move(src)), result);
  }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFIArray) return std::nullopt;
    const TVMFFISeqCell* seq = SeqOf(src);
    if (static_cast<size_t>(seq->size) != N) return std::nullopt;
    Self out;
    for (size_t i = 0; i < N; ++i) {
      std::optional<T> item = ReadElement<T>(SeqItem(seq, i));
      if (!item.has_value()) return std::nullopt;
      out[i] = *std::move(item);
    }
    return out;
  }
  static std::string TypeStr() {
    return "std::array<" + detail::Type2Str<T>::v() + ", " + std::to_string(N) + ">";
  }
  static std::string TypeSchema() {
    return "{\"type\":\"std::array\",\"args\":[" + detail::TypeSchemaOf<T>::v() + "," +
           std::to_string(N) + "]}";
  }
};

/*! \brief std::tuple<T...> <-> an Array of exactly sizeof...(T) elements. */
template <typename... Types>
struct TypeTraits<std::tuple<Types...>> : detail::STLTypeTrait {
  static_assert(sizeof...(Types) > 0, "Zero-length std::tuple is not supported.");
  using Self = std::tuple<Types...>;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIArray;
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) { MoveToAny(src, result); }
  static void MoveToAny(Self src, TVMFFIAny* result) {
    StoreObject(ArrayFromTuple(std::move(src)), result);
  }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFIArray) return std::nullopt;
    const TVMFFISeqCell* seq = SeqOf(src);
    if (static_cast<size_t>(seq->size) != sizeof...(Types)) return std::nullopt;
    return ReadAll(seq, std::index_sequence_for<Types...>{});
  }
  static std::string TypeStr() { return detail::STLTypeStr<Types...>("std::tuple"); }
  static std::string TypeSchema() { return detail::STLTypeSchema<Types...>("std::tuple"); }

 private:
  template <size_t... Is>
  static std::optional<Self> ReadAll(const TVMFFISeqCell* seq, std::index_sequence<Is...>) {
    std::tuple<std::optional<Types>...> items{ReadElement<Types>(SeqItem(seq, Is))...};
    if (!(std::get<Is>(items).has_value() && ...)) return std::nullopt;
    return Self(*std::move(std::get<Is>(items))...);
  }
};

/*! \brief std::map<K, V> <-> Map. */
template <typename K, typename V>
struct TypeTraits<std::map<K, V>> : detail::STLTypeTrait {
  using Self = std::map<K, V>;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIMap;
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) { MoveToAny(src, result); }
  static void MoveToAny(Self src, TVMFFIAny* result) { StoreObject(MapFrom(std::move(src)), result); }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) { return ReadMap<Self>(src); }
  static std::string TypeStr() { return detail::STLTypeStr<K, V>("std::map"); }
  static std::string TypeSchema() { return detail::STLTypeSchema<K, V>("std::map"); }
};

/*! \brief std::unordered_map<K, V> <-> Map. */
template <typename K, typename V>
struct TypeTraits<std::unordered_map<K, V>> : detail::STLTypeTrait {
  using Self = std::unordered_map<K, V>;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIMap;
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) { MoveToAny(src, result); }
  static void MoveToAny(Self src, TVMFFIAny* result) { StoreObject(MapFrom(std::move(src)), result); }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) { return ReadMap<Self>(src); }
  static std::string TypeStr() { return detail::STLTypeStr<K, V>("std::unordered_map"); }
  static std::string TypeSchema() { return detail::STLTypeSchema<K, V>("std::unordered_map"); }
};

/*! \brief std::variant<T...> <-> a value of the first alternative that accepts it. */
template <typename... Types>
struct TypeTraits<std::variant<Types...>> : TypeTraitsBase {
  using Self = std::variant<Types...>;
  static constexpr bool storage_enabled = false;
  static constexpr bool view_makes_object = (detail::ViewNeedsOwner<Types>::value || ...);
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) {
    std::visit([&](const auto& v) { TypeTraitsNoCR<decltype(v)>::CopyToAnyView(v, result); }, src);
  }
  static void MoveToAny(Self src, TVMFFIAny* result) {
    std::visit([&](auto&& v) { TypeTraitsNoCR<decltype(v)>::MoveToAny(std::move(v), result); },
               std::move(src));
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return (TypeTraitsNoCR<Types>::CheckAnyStrict(src) || ...);
  }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return *FirstMatch<0, true>(src);
  }
  /*! \brief Exact matches win over conversions (a float stays a float in variant<int, double>). */
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    if (std::optional<Self> exact = FirstMatch<0, true>(src)) return exact;
    return FirstMatch<0, false>(src);
  }
  static std::string TypeStr() { return detail::STLTypeStr<Types...>("std::variant"); }
  static std::string TypeSchema() { return detail::STLTypeSchema<Types...>("std::variant"); }

 private:
  template <size_t I, bool kStrict>
  static std::optional<Self> FirstMatch(const TVMFFIAny* src) {
    if constexpr (I == sizeof...(Types)) {
      return std::nullopt;
    } else {
      using Alt = std::variant_alternative_t<I, Self>;
      if constexpr (kStrict) {
        if (TypeTraitsNoCR<Alt>::CheckAnyStrict(src)) {
          return Self(std::in_place_index<I>, TypeTraitsNoCR<Alt>::CopyFromAnyViewAfterCheck(src));
        }
      } else {
        if (std::optional<Alt> value = TypeTraitsNoCR<Alt>::TryCastFromAnyView(src)) {
          return Self(std::in_place_index<I>, *std::move(value));
        }
      }
      return FirstMatch<I + 1, kStrict>(src);
    }
  }
};

/*! \brief std::function<R(Args...)> <-> Function (a C++ callable becomes a new ffi.Function). */
template <typename R, typename... Args>
struct TypeTraits<std::function<R(Args...)>> : detail::STLTypeTrait {
  using Self = std::function<R(Args...)>;
  using Typed = TypedFunction<R(Args...)>;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIFunction;
  static void CopyToAnyView(const Self& src, TVMFFIAny* result) { MoveToAny(src, result); }
  static void MoveToAny(Self src, TVMFFIAny* result) {
    TypeTraits<Typed>::MoveToAny(Typed(std::move(src)), result);
  }
  static Self CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return *TryCastFromAnyView(src); }
  static std::optional<Self> TryCastFromAnyView(const TVMFFIAny* src) {
    std::optional<Typed> typed = TypeTraits<Typed>::TryCastFromAnyView(src);
    if (!typed.has_value()) return std::nullopt;
    return Self([fn = *std::move(typed)](Args... args) -> R {
      return fn(std::forward<Args>(args)...);
    });
  }
  static std::string TypeStr() {
    std::string out = "std::function<" + detail::Type2Str<R>::v() + "(";
    size_t i = 0;
    ((out += (i++ != 0 ? ", " : "") + detail::Type2Str<Args>::v()), ...);
    return out + ")>";
  }
  static std::string TypeSchema() {
    std::string out = "{\"type\":\"std::function\",\"named_args\":{\"return\":[" +
                      detail::TypeSchemaOf<R>::v() + "],\"params\":[";
    size_t i = 0;
    ((out += (i++ != 0 ? "," : "") + detail::TypeSchemaOf<Args>::v()), ...);
    return out + "]}}";
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_STL_H_
