/*
 * tvm/ffi/container/array.h -- Array<T>: an immutable-by-sharing sequence (copy-on-write).
 * Elements are owned Any values; objects this library makes keep them inline at +56.
 */
#ifndef TVM_FFI_CONTAINER_ARRAY_H_
#define TVM_FFI_CONTAINER_ARRAY_H_

#include <tvm/ffi/container/seq_base.h>

namespace tvm {
namespace ffi {

/*! \brief The ffi.Array object. */
class ArrayObj : public SeqBaseObj {
 public:
  static constexpr int32_t _type_index = TypeIndex::kTVMFFIArray;
  static constexpr int32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = false;
  static constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIArray, ArrayObj, Object);

  /*! \brief An empty array with room for `capacity` elements inline. */
  static ObjectPtr<ArrayObj> Empty(int64_t capacity) {
    ObjectPtr<ArrayObj> p = make_inplace_array_object<ArrayObj, Any>(static_cast<size_t>(capacity));
    p->data = reinterpret_cast<char*>(p.get()) + sizeof(ArrayObj);
    p->TVMFFISeqCell::capacity = capacity;
    return p;
  }
};

template <typename T = Any>
class Array : public ObjectRef {
 public:
  using value_type = T;
  using iterator = detail::SeqIterator<T>;
  using const_iterator = iterator;
  using _ffi_custom_traits_tag = void;

  Array() : ObjectRef(ArrayObj::Empty(0)) {}
  Array(std::initializer_list<T> values) : Array(values.begin(), values.end()) {}
  template <typename It, typename = decltype(*std::declval<It>()),
            typename = std::enable_if_t<!std::is_integral_v<It>>>
  Array(It first, It last) : ObjectRef(UnsafeInit{}) {
    int64_t n = 0;
    for (It it = first; it != last; ++it) ++n;
    ObjectPtr<ArrayObj> p = ArrayObj::Empty(n);
    for (It it = first; it != last; ++it) Append(p.get(), Any(T(*it)));
    data_ = std::move(p);
  }
  /*! \brief From any container with begin()/end() (std::vector<T>, ...). */
  template <typename Container, typename = decltype(std::declval<const Container&>().begin()),
            typename = std::enable_if_t<!std::is_base_of_v<ObjectRef, Container>>>
  Array(const Container& values) : Array(values.begin(), values.end()) {}  // NOLINT
  /*! \brief `n` copies of `value`. */
  Array(size_t n, const T& value) : ObjectRef(UnsafeInit{}) {
    ObjectPtr<ArrayObj> p = ArrayObj::Empty(static_cast<int64_t>(n));
    for (size_t i = 0; i < n; ++i) Append(p.get(), Any(value));
    data_ = std::move(p);
  }
  explicit Array(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  explicit Array(UnsafeInit tag) : ObjectRef(tag) {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Array)
  const ArrayObj* get() const noexcept { return static_cast<const ArrayObj*>(data_.get()); }
  const ArrayObj* operator->() const noexcept { return get(); }
  ArrayObj* GetArrayObj() const noexcept { return const_cast<ArrayObj*>(get()); }
  using ContainerType = ArrayObj;
  static constexpr bool _type_is_nullable = false;

  size_t size() const noexcept { return data_ == nullptr ? 0 : get()->size(); }
  bool empty() const noexcept { return size() == 0; }
  T operator[](int64_t i) const { return detail::ElementAs<T>(get()->at(i)); }
  T at(int64_t i) const { return detail::ElementAs<T>(get()->at(i)); }
  T front() const { return at(0); }
  T back() const { return at(static_cast<int64_t>(size()) - 1); }
  iterator begin() const noexcept { return iterator(data_ == nullptr ? nullptr : get()->begin()); }
  iterator end() const noexcept { return iterator(data_ == nullptr ? nullptr : get()->end()); }

  void push_back(const T& value) { Append(Writable(size() + 1), Any(value)); }
  template <typename... Args>
  void emplace_back(Args&&... args) {
    push_back(T(std::forward<Args>(args)...));
  }
  void pop_back() {
    if (empty()) TVM_FFI_THROW(IndexError) << "pop_back on an empty Array";
    ArrayObj* p = Writable(size());
    p->begin()[p->TVMFFISeqCell::size - 1].~Any();
    --p->TVMFFISeqCell::size;
  }
  void Set(int64_t i, T value) {
    if (i < 0 || static_cast<size_t>(i) >= size()) {
      TVM_FFI_THROW(IndexError) << "Index " << i << " out of bounds " << size();
    }
    Writable(size())->begin()[i] = Any(std::move(value));
  }
  void insert(iterator pos, const T& value) {
    int64_t at = pos - begin();
    ArrayObj* p = Writable(size() + 1);
    Append(p, Any(value));
    Any* items = p->begin();
    for (int64_t i = p->TVMFFISeqCell::size - 1; i > at; --i) items[i].swap(items[i - 1]);
  }
  void erase(iterator pos) {
    int64_t at = pos - begin();
    ArrayObj* p = Writable(size());
    Any* items = p->begin();
    for (int64_t i = at; i + 1 < p->TVMFFISeqCell::size; ++i) items[i].swap(items[i + 1]);
    pop_back();
  }
  void clear() {
    if (!empty()) data_ = ArrayObj::Empty(0);
  }
  void reserve(int64_t n) { Writable(static_cast<size_t>(n)); }
  void resize(int64_t n) {
    while (static_cast<int64_t>(size()) > n) pop_back();
    if (static_cast<int64_t>(size()) < n) {
      ArrayObj* p = Writable(static_cast<size_t>(n));
      while (p->TVMFFISeqCell::size < n) Append(p, Any());
    }
  }
  /*! \brief The array after applying `fmap` to each element. */
  template <typename F, typename U = std::decay_t<std::invoke_result_t<F, T>>>
  Array<U> Map(F fmap) const {
    Array<U> out;
    out.reserve(static_cast<int64_t>(size()));
    for (T item : *this) out.push_back(fmap(item));
    return out;
  }

 private:
  static void Append(ArrayObj* p, Any value) {
    new (p->begin() + p->TVMFFISeqCell::size) Any(std::move(value));
    ++p->TVMFFISeqCell::size;
  }
  /*! \brief This array's object, made unique and with room for `need` elements. */
  ArrayObj* Writable(size_t need) {
    ArrayObj* cur = GetArrayObj();
    if (cur != nullptr && cur->unique() && cur->capacity() >= need) return cur;
    // Grow geometrically when out of room; a shared array is copied at its current capacity.
    int64_t cap = cur == nullptr ? 0 : static_cast<int64_t>(cur->capacity());
    if (cur != nullptr && cur->capacity() < need) cap *= 2;
    if (cap < static_cast<int64_t>(need)) cap = static_cast<int64_t>(need);
    if (cap < 4) cap = 4;
    ObjectPtr<ArrayObj> p = ArrayObj::Empty(cap);
    if (cur != nullptr) {
      if (cur->unique()) {  // steal the elements; the old object then releases none
        Any* src = cur->begin();
        for (int64_t i = 0; i < cur->TVMFFISeqCell::size; ++i) Append(p.get(), std::move(src[i]));
      } else {
        for (const Any& item : *cur) Append(p.get(), item);
      }
    }
    data_ = std::move(p);
    return GetArrayObj();
  }
};

template <typename T>
struct TypeTraits<Array<T>> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIArray;
  static void CopyToAnyView(const Array<T>& v, TVMFFIAny* r) {
    r->type_index = TypeIndex::kTVMFFIArray;
    r->zero_padding = 0;
    r->v_obj = detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(v);
  }
  static void MoveToAny(Array<T> v, TVMFFIAny* r) {
    r->type_index = TypeIndex::kTVMFFIArray;
    r->zero_padding = 0;
    r->v_obj = detail::ObjectUnsafe::MoveObjectRefToTVMFFIObjectPtr(std::move(v));
  }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index == TypeIndex::kTVMFFIArray &&
           detail::AllElementsStrict<T>(detail::SeqCellOf<T>(s));
  }
  static Array<T> CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    return detail::ObjectUnsafe::ObjectRefFromUnowned<Array<T>>(s->v_obj);
  }
  /*! \brief Arrays and Lists whose elements all convert to T (a new Array when any had to). */
  static std::optional<Array<T>> TryCastFromAnyView(const TVMFFIAny* s) {
    if (s->type_index != TypeIndex::kTVMFFIArray && s->type_index != TypeIndex::kTVMFFIList) {
      return std::nullopt;
    }
    if (CheckAnyStrict(s)) return CopyFromAnyViewAfterCheck(s);
    const TVMFFISeqCell* cell = detail::SeqCellOf<T>(s);
    const TVMFFIAny* items = static_cast<const TVMFFIAny*>(cell->data);
    Array<T> out;
    out.reserve(cell->size);
    for (int64_t i = 0; i < cell->size; ++i) {
      if constexpr (std::is_same_v<T, Any>) {
        out.push_back(Any(AnyView::CopyFromTVMFFIAny(items[i])));
      } else {
        std::optional<T> item = TypeTraits<T>::CheckAnyStrict(items + i)
                                    ? std::optional<T>(TypeTraits<T>::CopyFromAnyViewAfterCheck(items + i))
                                    : TypeTraits<T>::TryCastFromAnyView(items + i);
        if (!item.has_value()) return std::nullopt;
        out.push_back(*std::move(item));
      }
    }
    return out;
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* s) {
    return detail::SeqMismatch<T>("Array", s);
  }
  static std::string TypeStr() { return "Array<" + detail::Type2Str<T>::v() + ">"; }
  static std::string TypeSchema() {
    return "{\"type\":\"ffi.Array\",\"args\":[" + TypeTraitsNoCR<T>::TypeSchema() + "]}";
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_ARRAY_H_
