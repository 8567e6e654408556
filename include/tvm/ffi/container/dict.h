/*
 * tvm/ffi/container/dict.h -- Dict<K, V>: a mutable hash map shared by reference (Set and
 * erase change the object every holder sees). Operations go through the runtime.
 */
#ifndef TVM_FFI_CONTAINER_DICT_H_
#define TVM_FFI_CONTAINER_DICT_H_

#include <tvm/ffi/container/map.h>

namespace tvm {
namespace ffi {

/*! \brief The ffi.Dict object. */
class DictObj : public MapBaseObj {
 public:
  static constexpr int32_t _type_index = TypeIndex::kTVMFFIDict;
  static constexpr int32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = false;
  static constexpr bool _type_final = true;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIDict, DictObj, Object);
};

template <typename K = Any, typename V = Any>
class Dict : public ObjectRef {
 public:
  using key_type = K;
  using mapped_type = V;
  using iterator = detail::MapIterator<K, V>;
  using _ffi_custom_traits_tag = void;

  Dict() : ObjectRef(UnsafeInit{}) { Adopt(detail::MakeMap(Array<Any>(), true)); }
  Dict(std::initializer_list<std::pair<K, V>> items) : Dict(items.begin(), items.end()) {}
  template <typename It, typename = decltype(std::declval<It>()->first)>
  Dict(It first, It last) : Dict() {
    for (It it = first; it != last; ++it) Set(K(it->first), V(it->second));
  }
  template <typename Container, typename = decltype(std::declval<const Container&>().begin()->first),
            typename = std::enable_if_t<!std::is_base_of_v<ObjectRef, Container>>>
  Dict(const Container& items) : Dict(items.begin(), items.end()) {}  // NOLINT
  explicit Dict(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  explicit Dict(UnsafeInit tag) : ObjectRef(tag) {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Dict)
  /*!
   * \brief Another handle on a Dict<KU, VU> whose keys and values are valid K and V values:
   * the same object, so mutations through either are seen by both.
   */
  template <typename KU, typename VU,
            typename = std::enable_if_t<type_subsumes_v<K, KU> && type_subsumes_v<V, VU>>>
  Dict(const Dict<KU, VU>& other) : ObjectRef(other) {}  // NOLINT
  template <typename KU, typename VU,
            typename = std::enable_if_t<type_subsumes_v<K, KU> && type_subsumes_v<V, VU>>>
  Dict(Dict<KU, VU>&& other) : ObjectRef(std::move(other)) {}  // NOLINT
  template <typename KU, typename VU,
            typename = std::enable_if_t<type_subsumes_v<K, KU> && type_subsumes_v<V, VU>>>
  Dict& operator=(const Dict<KU, VU>& other) {
    ObjectRef::operator=(other);
    return *this;
  }
  template <typename KU, typename VU,
            typename = std::enable_if_t<type_subsumes_v<K, KU> && type_subsumes_v<V, VU>>>
  Dict& operator=(Dict<KU, VU>&& other) {
    ObjectRef::operator=(std::move(other));
    return *this;
  }
  DictObj* get() const noexcept {
    return const_cast<DictObj*>(static_cast<const DictObj*>(data_.get()));
  }
  DictObj* operator->() const noexcept { return get(); }
  using ContainerType = DictObj;
  // a typed container also checks its elements, so being a DictObj is not enough
  static constexpr bool _type_container_is_exact = false;
  static constexpr bool _type_is_nullable = false;

  size_t size() const noexcept { return get()->size(); }
  bool empty() const noexcept { return size() == 0; }
  size_t count(const K& key) const {
    return detail::FindMapPos(get(), key) == MapBaseObj::kNoIndex ? 0 : 1;
  }
  const V at(const K& key) const {
    std::optional<V> v = Get(key);
    if (!v.has_value()) TVM_FFI_THROW(KeyError) << "key is not in Dict";
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

  /*! \brief Inserts or replaces in place. */
  void Set(const K& key, const V& value) {
    detail::RuntimeGlobal("ffi.DictSetItem")(*this, key, value);
  }
  /*! \brief Removes in place (no-op when absent). */
  void erase(const K& key) {
    if (count(key) != 0) detail::RuntimeGlobal("ffi.DictErase")(*this, key);
  }
  void clear() { detail::RuntimeGlobal("ffi.DictClear")(*this); }

 private:
  void Adopt(Any made) { detail::AdoptMapObject(std::move(made), &data_); }
};

/*! \brief Dict<K, V> can share a Dict<KU, VU>'s object when K, V can share KU, VU's storage. */
template <typename K, typename V, typename KU, typename VU>
inline constexpr bool type_subsumes_v<Dict<K, V>, Dict<KU, VU>> =
    type_subsumes_v<K, KU> && type_subsumes_v<V, VU>;

template <typename K, typename V>
struct TypeTraits<Dict<K, V>> : detail::MapLikeTypeTraits<Dict<K, V>, K, V, true> {};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_DICT_H_
