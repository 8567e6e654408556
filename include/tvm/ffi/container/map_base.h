/*
 * tvm/ffi/container/map_base.h -- what Map and Dict share. The runtime builds and changes their
 * hash tables (the ffi.Map* / ffi.Dict* global functions); this header reads them in place, as
 * the layout is part of the ABI: lookups probe the table as the runtime's inserts placed the
 * keys (AnyHash, the probe jumps below), and iterators walk the items in insertion order.
 */
#ifndef TVM_FFI_CONTAINER_MAP_BASE_H_
#define TVM_FFI_CONTAINER_MAP_BASE_H_

#include <tvm/ffi/container/array.h>
#include <tvm/ffi/function.h>

#include <cstring>
#include <utility>

namespace tvm {
namespace ffi {

namespace detail {
/*! \brief Distances of the dense table's probe jumps (ABI: metadata bits 0..6 index them). */
inline constexpr uint64_t kMapProbeJumps[126] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 21, 28, 36, 45, 55, 66, 78, 91, 105,
    120, 136, 153, 171, 190, 210, 231, 253, 276, 300, 325, 351, 378, 406, 435, 465, 496, 528, 561,
    595, 630, 666, 703, 741, 780, 820, 861, 903, 946, 990, 1035, 1081, 1128, 1176, 1225, 1275,
    1326, 1378, 1431, 1485, 1540, 1596, 1653, 1711, 1770, 1830, 1891, 1953, 2016, 2080, 2145, 2211,
    2278, 2346, 2415, 2485, 2556, 2628, 8515, 19110, 42778, 96141, 216153, 486591, 1092981,
    2458653, 5532801, 12442566, 27993903, 62983476, 141717030, 318844378, 717352503, 1614057336,
    3631522476, 8170957530, 18384510628, 41364789378, 93070452520, 209408356380, 471168559170,
    1060128894105, 2385289465695, 5366898840628, 12075518705635, 27169915244790, 61132312065111,
    137547689707000, 309482283181501, 696335127828753, 1566753995631385, 3525196511162271,
    7931691992677701, 17846306936293605, 40154190677507445, 90346928918121501,
    203280589587557251, 457381325854679626, 1029107982097042876, 2315492959180353330,
    5209859154120846435};
}  // namespace detail

/*!
 * \brief Common layout of ffi.Map / ffi.Dict: header, data, size, slots, data_deleter (then, in
 * the dense layout, fib_shift at +56 and the insertion list's head and tail at +64 and +72).
 *
 * An item is named by its position: an index into a small map's pairs or a dense map's slot
 * number; kNoIndex is past the end. Positions stay valid until the map changes.
 */
class MapBaseObj : public Object {
 public:
  static constexpr uint64_t kNoIndex = ~uint64_t(0);

  size_t size() const noexcept { return static_cast<size_t>(size_); }
  bool empty() const noexcept { return size_ == 0; }

  uint64_t FirstPos() const noexcept {
    if (size_ == 0) return kNoIndex;
    return IsSmall() ? 0 : DenseWord(64);
  }
  uint64_t LastPos() const noexcept {
    if (size_ == 0) return kNoIndex;
    return IsSmall() ? size_ - 1 : DenseWord(72);
  }
  uint64_t NextPos(uint64_t pos) const noexcept {
    if (IsSmall()) return pos + 1 < size_ ? pos + 1 : kNoIndex;
    uint64_t next;
    std::memcpy(&next, Item(pos) + 40, sizeof(next));
    return next;
  }
  /*! \brief The item before `pos`; the last one before kNoIndex (so `--end()` works). */
  uint64_t PrevPos(uint64_t pos) const noexcept {
    if (pos == kNoIndex) return LastPos();
    if (IsSmall()) return pos == 0 ? kNoIndex : pos - 1;
    uint64_t prev;
    std::memcpy(&prev, Item(pos) + 32, sizeof(prev));
    return prev;
  }
  const TVMFFIAny* KeyAt(uint64_t pos) const noexcept {
    return reinterpret_cast<const TVMFFIAny*>(Item(pos));
  }
  const TVMFFIAny* ValueAt(uint64_t pos) const noexcept {
    return reinterpret_cast<const TVMFFIAny*>(Item(pos) + sizeof(TVMFFIAny));
  }
  /*! \brief The position of `key` (runtime key equality), or kNoIndex. */
  uint64_t FindPos(const TVMFFIAny& key) const {
    if (IsSmall()) {
      for (uint64_t i = 0; i < size_; ++i) {
        if (AnyEqual::Equal(key, *KeyAt(i))) return i;
      }
      return kNoIndex;
    }
    if (size_ == 0 || data_ == nullptr) return kNoIndex;
    uint32_t fib_shift;
    std::memcpy(&fib_shift, reinterpret_cast<const char*>(this) + 56, sizeof(fib_shift));
    uint64_t pos = (uint64_t(11400714819323198485ULL) * AnyHash::Hash(key)) >> fib_shift;
    // Only a chain's head sits in its home slot (metadata bit 7 clear); empty slots have it set.
    if (Meta(pos) & 0x80) return kNoIndex;
    while (true) {
      if (AnyEqual::Equal(key, *KeyAt(pos))) return pos;
      uint8_t jump = Meta(pos) & 0x7F;
      if (jump == 0) return kNoIndex;
      pos = (pos + detail::kMapProbeJumps[jump]) & (slots_ - 1);
    }
  }

  /*! \brief Calls f(key, value) for every item in iteration (insertion) order. */
  template <typename F>
  void ForEachItem(F&& f) const {
    for (uint64_t pos = FirstPos(); pos != kNoIndex; pos = NextPos(pos)) f(*KeyAt(pos), *ValueAt(pos));
  }

 protected:
  static constexpr uint64_t kSmallTag = uint64_t(1) << 63;
  static constexpr size_t kItemBytes = 48;  // key, value, prev, next
  static constexpr size_t kBlockBytes = 16 + 16 * kItemBytes;  // 16 metadata bytes, 16 items
  bool IsSmall() const noexcept { return (slots_ & kSmallTag) != 0; }
  uint64_t DenseWord(size_t offset) const noexcept {
    uint64_t word;
    std::memcpy(&word, reinterpret_cast<const char*>(this) + offset, sizeof(word));
    return word;
  }
  const char* Item(uint64_t pos) const noexcept {
    const char* data = static_cast<const char*>(data_);
    if (IsSmall()) return data + pos * 2 * sizeof(TVMFFIAny);
    return data + (pos / 16) * kBlockBytes + 16 + (pos % 16) * kItemBytes;
  }
  uint8_t Meta(uint64_t pos) const noexcept {
    return static_cast<const uint8_t*>(data_)[(pos / 16) * kBlockBytes + pos % 16];
  }
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
      "ffi.Map", "ffi.Dict", "ffi.DictSetItem", "ffi.DictErase", "ffi.DictClear"};
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
 * \brief Iterator over the items in place, yielding std::pair<K, V> by value (so there is no
 * operator->: read `(*it).second`, as with the reference). Changing the map invalidates it.
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
  MapIterator(const MapBaseObj* map, uint64_t pos) noexcept : map_(map), pos_(pos) {}
  const value_type operator*() const {
    return value_type(ElementAs<K>(AsAny(map_->KeyAt(pos_))), ElementAs<V>(AsAny(map_->ValueAt(pos_))));
  }
  void operator->() const = delete;
  MapIterator& operator++() noexcept {
    pos_ = map_->NextPos(pos_);
    return *this;
  }
  MapIterator operator++(int) noexcept {
    MapIterator before = *this;
    ++*this;
    return before;
  }
  MapIterator& operator--() noexcept {
    pos_ = map_->PrevPos(pos_);
    return *this;
  }
  MapIterator operator--(int) noexcept {
    MapIterator before = *this;
    --*this;
    return before;
  }
  bool operator==(const MapIterator& o) const noexcept { return pos_ == o.pos_ && map_ == o.map_; }
  bool operator!=(const MapIterator& o) const noexcept { return !(*this == o); }

 private:
  // The map's slots hold owned values laid out as Any is.
  static const Any& AsAny(const TVMFFIAny* slot) noexcept { return *reinterpret_cast<const Any*>(slot); }
  static_assert(sizeof(Any) == sizeof(TVMFFIAny), "an Any is its TVMFFIAny");
  const MapBaseObj* map_ = nullptr;
  uint64_t pos_ = MapBaseObj::kNoIndex;
};

/*! \brief The position of `key` in `map`, converted as the runtime's lookups convert it. */
template <typename K>
inline uint64_t FindMapPos(const MapBaseObj* map, const K& key) {
  AnyView probe(key);
  return map->FindPos(probe.CopyToTVMFFIAny());
}

/*! \brief The value of `key` in `map` read as V, or nullopt when absent. */
template <typename V, typename K>
inline std::optional<V> MapGet(const MapBaseObj* map, const K& key) {
  uint64_t pos = FindMapPos(map, key);
  if (pos == MapBaseObj::kNoIndex) return std::nullopt;
  return ElementAs<V>(*reinterpret_cast<const Any*>(map->ValueAt(pos)));
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
