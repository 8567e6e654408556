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
  DictObj* get() const noexcept {
    return const_cast<DictObj*>(static_cast<const DictObj*>(data_.get()));
  }
  DictObj* operator->() const noexcept { return get(); }
  using ContainerType = DictObj;
  static constexpr bool _type_is_nullable = false;

  size_t size() const noexcept { return get()->size(); }
  bool empty() const noexcept { return size() == 0; }
  size_t count(const K& key) const {
    return detail::RuntimeGlobal("ffi.DictCount")(*this, key).template cast<int64_t>();
  }
  V at(const K& key) const {
    Optional<V> v = Get(key);
    if (!v.has_value()) TVM_FFI_THROW(KeyError) << "key is not in Dict";
    return *std::move(v);
  }
  V operator[](const K& key) const { return at(key); }
  Optional<V> Get(const K& key) const {
    Any v = detail::RuntimeGlobal("ffi.DictGetItemOrMissing")(*this, key);
    if (detail::IsMissing(v)) return Optional<V>();
    return detail::ElementAs<V>(v);
  }
  iterator begin() const { return iterator(detail::MapItems(*this, true), 0); }
  iterator end() const { return iterator(Array<Any>(), static_cast<int64_t>(size())); }

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

template <typename K, typename V>
struct TypeTraits<Dict<K, V>> : detail::MapLikeTypeTraits<Dict<K, V>, K, V, true> {};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_DICT_H_
