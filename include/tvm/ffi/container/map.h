/*
 * tvm/ffi/container/map.h -- Map<K, V>: an immutable-by-sharing hash map (copy-on-write: Set and
 * erase never change a map another holder shares; Set inserts in place into one held only here).
 * Lookups, construction and insertion go through the runtime (see map_base.h).
 */
#ifndef TVM_FFI_CONTAINER_MAP_H_
#define TVM_FFI_CONTAINER_MAP_H_

#include <tvm/ffi/container/map_base.h>

namespace tvm {
namespace ffi {

/*! \brief The ffi.Map object. */
class MapObj : public MapBaseObj {
 public:
  static constexpr int32_t _type_index = TypeIndex::kTVMFFIMap;
  static constexpr int32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = false;
  static constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIMap, MapObj, Object);
};

template <typename K = Any, typename V = Any>
class Map : public ObjectRef {
 public:
  using key_type = K;
  using mapped_type = V;
  using iterator = detail::MapIterator<K, V>;
  using _ffi_custom_traits_tag = void;

  Map() : ObjectRef(UnsafeInit{}) { Adopt(detail::MakeMap(Array<Any>(), false)); }
  Map(std::initializer_list<std::pair<K, V>> items) : Map(items.begin(), items.end()) {}
  template <typename It, typename = decltype(std::declval<It>()->first)>
  Map(It first, It last) : ObjectRef(UnsafeInit{}) {
    Array<Any> flat;
    for (It it = first; it != last; ++it) {
      flat.push_back(Any(K(it->first)));
      flat.push_back(Any(V(it->second)));
    }
    Adopt(detail::MakeMap(flat, false));
  }
  /*! \brief From std::map / std::unordered_map and friends. */
  template <typename Container, typename = decltype(std::declval<const Container&>().begin()->first),
            typename = std::enable_if_t<!std::is_base_of_v<ObjectRef, Container>>>
  Map(const Container& items) : Map(items.begin(), items.end()) {}  // NOLINT
  explicit Map(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  explicit Map(UnsafeInit tag) : ObjectRef(tag) {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Map)
  /*! \brief Shares a Map<KU, VU> whose keys and values are already valid K and V values. */
  template <typename KU, typename VU,
            typename = std::enable_if_t<type_subsumes_v<K, KU> && type_subsumes_v<V, VU>>>
  Map(const Map<KU, VU>& other) : ObjectRef(other) {}  // NOLINT
  template <typename KU, typename VU,
            typename = std::enable_if_t<type_subsumes_v<K, KU> && type_subsumes_v<V, VU>>>
  Map(Map<KU, VU>&& other) : ObjectRef(std::move(other)) {}  // NOLINT
  template <typename KU, typename VU,
            typename = std::enable_if_t<type_subsumes_v<K, KU> && type_subsumes_v<V, VU>>>
  Map& operator=(const Map<KU, VU>& other) {
    ObjectRef::operator=(other);
    return *this;
  }
  template <typename KU, typename VU,
            typename = std::enable_if_t<type_subsumes_v<K, KU> && type_subsumes_v<V, VU>>>
  Map& operator=(Map<KU, VU>&& other) {
    ObjectRef::operator=(std::move(other));
    return *this;
  }
  const MapObj* get() const noexcept { return static_cast<const MapObj*>(data_.get()); }
  const MapObj* operator->() const noexcept { return get(); }
  using ContainerType = MapObj;
  // a typed container also checks its elements, so being a MapObj is not enough
  static constexpr bool _type_container_is_exact = false;
  static constexpr bool _type_is_nullable = false;

  size_t size() const noexcept { return get()->size(); }
  bool empty() const noexcept { return size() == 0; }
  size_t count(const K& key) const {
    return detail::FindMapPos(get(), key) == MapBaseObj::kNoIndex ? 0 : 1;
  }
  /*! \brief The value for `key`; KeyError when absent. */
  const V at(const K& key) const {
    std::optional<V> v = Get(key);
    if (!v.has_value()) TVM_FFI_THROW(KeyError) << "key is not in Map";
    return *std::move(v);
  }
  const V operator[](const K& key) const { return at(key); }
  /*! \brief The value for `key`, or std::nullopt when absent. */
  std::optional<V> Get(const K& key) const { return detail::MapGet<V>(get(), key); }
  /*! \brief Iteration reads the items in place, in insertion order; changing the map invalidates it. */
  iterator begin() const { return iterator(get(), get()->FirstPos()); }
  iterator end() const { return iterator(get(), MapBaseObj::kNoIndex); }
  /*! \brief The item with `key`, or end(). */
  iterator find(const K& key) const { return iterator(get(), detail::FindMapPos(get(), key)); }

  /*!
   * \brief Copy-on-write insert or replace: a Map shared with other holders is copied first, then
   * the runtime inserts in place (amortised O(1)); on a runtime without that function the map is
   * rebuilt with the new item.
   */
  void Set(const K& key, const V& value) {
    if (const Function* in_place = detail::MapInPlace(detail::MapInPlaceOp::kSetItem)) {
      CopyIfShared();
      (*in_place)(*this, key, value);
      return;
    }
    Array<Any> items = detail::MapItems(*this, false);
    items.push_back(Any(key));  // the runtime keeps the last value of a repeated key
    items.push_back(Any(value));
    Adopt(detail::MakeMap(items, false));
  }
  /*! \brief Copy-on-write removal (no-op when absent); the runtime decides key equality. */
  void erase(const K& key) {
    if (count(key) == 0) return;
    if (const Function* in_place = detail::MapInPlace(detail::MapInPlaceOp::kErase)) {
      CopyIfShared();
      (*in_place)(*this, key);
      return;
    }
    Any scratch = detail::MakeMap(detail::MapItems(*this, false), true);
    detail::RuntimeGlobal("ffi.DictErase")(scratch, key);
    Adopt(detail::MakeMap(detail::MapItems(scratch, true), false));
  }
  void clear() { Adopt(detail::MakeMap(Array<Any>(), false)); }

 private:
  void Adopt(Any made) { detail::AdoptMapObject(std::move(made), &data_); }
  /*! \brief Copy-on-write: a map another holder shares is replaced by a copy held only here. */
  void CopyIfShared() {
    if (!unique()) Adopt(detail::MakeMap(detail::MapItems(*this, false), false));
  }
};

/*! \brief Map<K, V> can share a Map<KU, VU>'s object when K, V can share KU, VU's storage. */
template <typename K, typename V, typename KU, typename VU>
inline constexpr bool type_subsumes_v<Map<K, V>, Map<KU, VU>> =
    type_subsumes_v<K, KU> && type_subsumes_v<V, VU>;

/*! \brief rhs's items set into lhs (rhs wins on a shared key); copy-on-write, like Set. */
template <typename K, typename V>
inline Map<K, V> Merge(Map<K, V> lhs, const Map<K, V>& rhs) {
  for (const auto& item : rhs) lhs.Set(item.first, item.second);
  return lhs;
}

template <typename K, typename V>
struct TypeTraits<Map<K, V>> : detail::MapLikeTypeTraits<Map<K, V>, K, V, false> {};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_MAP_H_
