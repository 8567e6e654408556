/*
 * tvm/ffi/container/map_base.h -- what Map and Dict share. Their hash tables are built and
 * probed by the runtime (the ffi.Map* / ffi.Dict* global functions); this header only walks
 * the items in iteration order, reading the runtime map's small and dense layouts.
 */
#ifndef TVM_FFI_CONTAINER_MAP_BASE_H_
#define TVM_FFI_CONTAINER_MAP_BASE_H_

#include <tvm/ffi/container/array.h>
#include <tvm/ffi/function.h>

#include <cstring>
#include <utility>

namespace tvm {
namespace ffi {

/*! \brief Common layout of ffi.Map / ffi.Dict: header, data, size, slots, data_deleter. */
class MapBaseObj : public Object {
 public:
  size_t size() const noexcept { return static_cast<size_t>(size_); }
  bool empty() const noexcept { return size_ == 0; }

  /*! \brief Calls f(key, value) for every item in iteration (insertion) order. */
  template <typename F>
  void ForEachItem(F&& f) const {
    if (slots_ & kSmallTag) {  // small: `size_` key/value pairs in order
      const TVMFFIAny* kv = static_cast<const TVMFFIAny*>(data_);
      for (uint64_t i = 0; i < size_; ++i) f(kv[2 * i], kv[2 * i + 1]);
      return;
    }
    // Dense: blocks of 16 metadata bytes + 16 items {key, value, prev, next}; the items form
    // an insertion-ordered list starting at iter_list_head (+64 of the object).
    const char* self = reinterpret_cast<const char*>(this);
    uint64_t index;
    std::memcpy(&index, self + 64, sizeof(index));
    const char* blocks = static_cast<const char*>(data_);
    while (index != kNoIndex) {
      const char* item = blocks + (index / 16) * kBlockBytes + 16 + (index % 16) * kItemBytes;
      f(*reinterpret_cast<const TVMFFIAny*>(item), *reinterpret_cast<const TVMFFIAny*>(item + 16));
      std::memcpy(&index, item + 40, sizeof(index));
    }
  }

 protected:
  static constexpr uint64_t kSmallTag = uint64_t(1) << 63;
  static constexpr uint64_t kNoIndex = ~uint64_t(0);
  static constexpr size_t kItemBytes = 48;
  static constexpr size_t kBlockBytes = 16 + 16 * kItemBytes;
  void* data_{nullptr};
  uint64_t size_{0};
  uint64_t slots_{0};
  void (*data_deleter_)(void*){nullptr};
};

namespace detail {

/*!
 * \brief The runtime's container functions, looked up together on first use (a thread-safe
 * function-local static) and kept for the process lifetime.
 */
inline const Function& RuntimeGlobal(const char* name) {
  static constexpr const char* kNames[] = {
      "ffi.Map",         "ffi.MapGetItemOrMissing",  "ffi.MapCount",  "ffi.Dict",
      "ffi.DictGetItemOrMissing", "ffi.DictCount", "ffi.DictSetItem", "ffi.DictErase",
      "ffi.DictClear",   "ffi.GetInvalidObject"};
  constexpr size_t kCount = sizeof(kNames) / sizeof(kNames[0]);
  static Function* const* table = [] {
    Function** t = new Function*[kCount];  // intentionally never freed: used until exit
    for (size_t i = 0; i < kCount; ++i) t[i] = new Function(Function::GetGlobalRequired(kNames[i]));
    return t;
  }();
  for (size_t i = 0; i < kCount; ++i) {
    if (std::string_view(kNames[i]) == std::string_view(name)) return *table[i];
  }
  TVM_FFI_THROW(InternalError) << "not a container runtime function: " << name;
  TVM_FFI_UNREACHABLE();
}

/*! \brief The in-place changes of a Map held once that our runtime offers (MapInPlace). */
enum class MapInPlaceOp : int { kSetItem = 0, kErase = 1 };

/*!
 * \brief Our runtime's ffi._MapSetItemInPlace / ffi._MapEraseInPlace, or nullptr on a runtime
 * without them (the reference's), where Map::Set and Map::erase rebuild the map instead.
 */
inline const Function* MapInPlace(MapInPlaceOp op) {
  static const Function* const* table = [] {
    const Function** t = new const Function*[2];  // kept until exit, as RuntimeGlobal's
    const char* names[2] = {"ffi._MapSetItemInPlace", "ffi._MapEraseInPlace"};
    for (int i = 0; i < 2; ++i) {
      std::optional<Function> found = Function::GetGlobal(names[i]);
      t[i] = found.has_value() ? new Function(*std::move(found)) : nullptr;
    }
    return t;
  }();
  return table[static_cast<int>(op)];
}

/*! \brief The runtime's "missing" sentinel returned by *GetItemOrMissing. */
inline const Any& MissingSentinel() {
  static const Any* sentinel = new Any(RuntimeGlobal("ffi.GetInvalidObject")());
  return *sentinel;
}

inline bool IsMissing(const Any& v) {
  return v.type_index() >= TypeIndex::kTVMFFIStaticObjectBegin &&
         AnyUnsafe::TVMFFIAnyPtrFromAny(v)->v_obj ==
             AnyUnsafe::TVMFFIAnyPtrFromAny(MissingSentinel())->v_obj;
}

/*! \brief Flattened [k0, v0, k1, v1, ...] of a map or dict value, in iteration order. */
inline Array<Any> MapItems(AnyView map, bool /*is_dict*/) {
  TVMFFIAny raw = map.CopyToTVMFFIAny();
  const MapBaseObj* obj = static_cast<const MapBaseObj*>(reinterpret_cast<const Object*>(raw.v_obj));
  Array<Any> out;
  out.reserve(static_cast<int64_t>(2 * obj->size()));
  obj->ForEachItem([&out](const TVMFFIAny& key, const TVMFFIAny& value) {
    out.push_back(Any(AnyView::CopyFromTVMFFIAny(key)));
    out.push_back(Any(AnyView::CopyFromTVMFFIAny(value)));
  });
  return out;
}

/*!
 * \brief Iterator over a snapshot of the items, yielding std::pair<K, V> by value (so there is
 * no operator->: read `(*it).second`, as with the reference).
 */
template <typename K, typename V>
class MapIterator {
 public:
  using value_type = std::pair<K, V>;
  using difference_type = std::ptrdiff_t;
  using reference = const value_type;  // `for (auto& [k, v] : map)` binds it as const
  using pointer = void;
  using iterator_category = std::bidirectional_iterator_tag;

  MapIterator() = default;  // a singular iterator, as a std container's default one
  MapIterator(Array<Any> items, int64_t pos) : items_(std::move(items)), pos_(pos) {}
  const value_type operator*() const {
    return value_type(ElementAs<K>(items_.GetArrayObj()->at(2 * pos_)),
                      ElementAs<V>(items_.GetArrayObj()->at(2 * pos_ + 1)));
  }
  void operator->() const = delete;
  MapIterator& operator++() noexcept {
    ++pos_;
    return *this;
  }
  MapIterator operator++(int) noexcept {
    MapIterator before = *this;
    ++pos_;
    return before;
  }
  MapIterator& operator--() noexcept {
    --pos_;
    return *this;
  }
  MapIterator operator--(int) noexcept {
    MapIterator before = *this;
    --pos_;
    return before;
  }
  // Only the position counts: end() carries no snapshot, and the items are in a fixed order.
  bool operator==(const MapIterator& o) const noexcept { return pos_ == o.pos_; }
  bool operator!=(const MapIterator& o) const noexcept { return pos_ != o.pos_; }

 private:
  Array<Any> items_;
  int64_t pos_ = 0;
};

/*! \brief The position of `key` among the flattened items (runtime key equality), or -1. */
template <typename K>
inline int64_t FindItem(const Array<Any>& items, const K& key) {
  Any probe(key);
  for (size_t i = 0; i < items.size(); i += 2) {
    if (AnyEqual()(items.GetArrayObj()->at(static_cast<int64_t>(i)), probe)) {
      return static_cast<int64_t>(i / 2);
    }
  }
  return -1;
}

/*! \brief Checks (and converts) every key and value of a Map/Dict value. */
template <typename K, typename V>
inline bool MapItemsStrict(const TVMFFIAny* s, bool is_dict) {
  if constexpr (std::is_same_v<K, Any> && std::is_same_v<V, Any>) {
    return true;
  } else {
    Array<Any> items = MapItems(AnyView::CopyFromTVMFFIAny(*s), is_dict);
    for (size_t i = 0; i < items.size(); i += 2) {
      const TVMFFIAny* k = AnyUnsafe::TVMFFIAnyPtrFromAny(items.GetArrayObj()->at(i));
      const TVMFFIAny* v = AnyUnsafe::TVMFFIAnyPtrFromAny(items.GetArrayObj()->at(i + 1));
      if (!TypeTraits<K>::CheckAnyStrict(k) || !TypeTraits<V>::CheckAnyStrict(v)) return false;
    }
    return true;
  }
}

template <typename T>
inline std::optional<Any> ConvertItem(const Any& item) {
  const TVMFFIAny* raw = AnyUnsafe::TVMFFIAnyPtrFromAny(item);
  if (TypeTraits<T>::CheckAnyStrict(raw)) return item;
  if (std::optional<T> v = TypeTraits<T>::TryCastFromAnyView(raw)) return Any(*std::move(v));
  return std::nullopt;
}

/*! \brief Items converted to K and V, flattened; nullopt when one does not convert. */
template <typename K, typename V>
inline std::optional<Array<Any>> ConvertMapItems(const TVMFFIAny* s, bool is_dict) {
  Array<Any> items = MapItems(AnyView::CopyFromTVMFFIAny(*s), is_dict);
  Array<Any> out;
  out.reserve(static_cast<int64_t>(items.size()));
  for (size_t i = 0; i < items.size(); i += 2) {
    std::optional<Any> k = ConvertItem<K>(items.GetArrayObj()->at(i));
    std::optional<Any> v = ConvertItem<V>(items.GetArrayObj()->at(i + 1));
    if (!k || !v) return std::nullopt;
    out.push_back(*std::move(k));
    out.push_back(*std::move(v));
  }
  return out;
}

/*! \brief Builds a new ffi.Map / ffi.Dict from flattened items through the runtime. */
inline Any MakeMap(const Array<Any>& items, bool is_dict) {
  const size_t n = items.size();
  AnyView stack_args[16];
  AnyView* args = n <= 16 ? stack_args : new AnyView[n];
  for (size_t i = 0; i < n; ++i) args[i] = items.GetArrayObj()->at(static_cast<int64_t>(i));
  Any rv;
  try {
    RuntimeGlobal(is_dict ? "ffi.Dict" : "ffi.Map").CallPacked(args, static_cast<int32_t>(n), &rv);
  } catch (...) {
    if (args != stack_args) delete[] args;
    throw;
  }
  if (args != stack_args) delete[] args;
  return rv;
}

template <typename K, typename V>
inline std::string MapMismatch(const char* kind, const TVMFFIAny* s, bool is_dict) {
  if (s->type_index != TypeIndex::kTVMFFIMap && s->type_index != TypeIndex::kTVMFFIDict) {
    return TypeIndexToTypeKey(s->type_index);
  }
  Array<Any> items = MapItems(AnyView::CopyFromTVMFFIAny(*s), is_dict);
  for (size_t i = 0; i < items.size(); i += 2) {
    if (!ConvertItem<K>(items.GetArrayObj()->at(i))) {
      return std::string(kind) + "[some key is " +
             TypeTraits<K>::GetMismatchTypeInfo(AnyUnsafe::TVMFFIAnyPtrFromAny(items.GetArrayObj()->at(i))) + ", V]";
    }
    if (!ConvertItem<V>(items.GetArrayObj()->at(i + 1))) {
      return std::string(kind) + "[K, some value is " +
             TypeTraits<V>::GetMismatchTypeInfo(
                 AnyUnsafe::TVMFFIAnyPtrFromAny(items.GetArrayObj()->at(i + 1))) + "]";
    }
  }
  return TypeIndexToTypeKey(s->type_index);
}

/*!
 * \brief TypeTraits of Map<K, V> and Dict<K, V> (Ref): the two differ only in their type index
 *  and name. Either converts from the other when its keys and values do (a new container
 *  when any had to be converted).
 */
template <typename Ref, typename K, typename V, bool kIsDict>
struct MapLikeTypeTraits : TypeTraitsBase {
  static constexpr int32_t kTypeIndex = kIsDict ? TypeIndex::kTVMFFIDict : TypeIndex::kTVMFFIMap;
  // A field of this type registers as "some object", as with the reference's headers.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIObject;
  static constexpr const char* kName = kIsDict ? "Dict" : "Map";
  static void CopyToAnyView(const Ref& v, TVMFFIAny* r) {
    r->type_index = kTypeIndex;
    r->zero_padding = 0;
    r->v_obj = ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(v);
  }
  static void MoveToAny(Ref v, TVMFFIAny* r) {
    r->type_index = kTypeIndex;
    r->zero_padding = 0;
    r->v_obj = ObjectUnsafe::MoveObjectRefToTVMFFIObjectPtr(std::move(v));
  }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index == kTypeIndex && MapItemsStrict<K, V>(s, kIsDict);
  }
  static Ref CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    return ObjectUnsafe::ObjectRefFromUnowned<Ref>(s->v_obj);
  }
  static std::optional<Ref> TryCastFromAnyView(const TVMFFIAny* s) {
    if (s->type_index != TypeIndex::kTVMFFIMap && s->type_index != TypeIndex::kTVMFFIDict) {
      return std::nullopt;
    }
    if (CheckAnyStrict(s)) return CopyFromAnyViewAfterCheck(s);
    std::optional<Array<Any>> items =
        ConvertMapItems<K, V>(s, s->type_index == TypeIndex::kTVMFFIDict);
    if (!items.has_value()) return std::nullopt;
    Any made = MakeMap(*items, kIsDict);
    return ObjectUnsafe::ObjectRefFromUnowned<Ref>(AnyUnsafe::TVMFFIAnyPtrFromAny(made)->v_obj);
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* s) {
    return MapMismatch<K, V>(kName, s, s->type_index == TypeIndex::kTVMFFIDict);
  }
  static std::string TypeStr() {
    return std::string(kName) + "<" + Type2Str<K>::v() + ", " + Type2Str<V>::v() + ">";
  }
  static std::string TypeSchema() {
    return std::string("{\"type\":\"ffi.") + kName + "\",\"args\":[" +
           TypeTraitsNoCR<K>::TypeSchema() + "," + TypeTraitsNoCR<V>::TypeSchema() + "]}";
  }
};

/*! \brief Takes over the object of an owned Any made by MakeMap into `data`. */
inline void AdoptMapObject(Any made, ObjectPtr<Object>* data) {
  TVMFFIAny raw = AnyUnsafe::MoveAnyToTVMFFIAny(std::move(made));
  *data = ObjectUnsafe::ObjectPtrFromOwned<Object>(raw.v_obj);
}

}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_MAP_BASE_H_
