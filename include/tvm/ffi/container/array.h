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

  /*! \brief Room a default-constructed Array starts with, and the growth factor. */
  static constexpr int64_t kInitSize = 4;
  static constexpr int64_t kIncFactor = 2;

  /*! \brief An empty array with room for `capacity` elements inline. */
  static ObjectPtr<ArrayObj> Empty(int64_t capacity = kInitSize) {
    if (capacity < 0) TVM_FFI_THROW(ValueError) << "cannot make an Array of negative size";
    ObjectPtr<ArrayObj> p = make_inplace_array_object<ArrayObj, Any>(static_cast<size_t>(capacity));
    p->data = reinterpret_cast<char*>(p.get()) + sizeof(ArrayObj);
    p->TVMFFISeqCell::capacity = capacity;
    return p;
  }
  /*! \brief `n` copies of `value`. */
  static ObjectPtr<ArrayObj> CreateRepeated(int64_t n, const Any& value) {
    ObjectPtr<ArrayObj> p = Empty(n);
    for (int64_t i = 0; i < n; ++i) p->AppendInPlace(value);
    return p;
  }
  /*! \brief A new array of capacity `cap` holding copies of `from`'s elements. */
  static ObjectPtr<ArrayObj> CopyFrom(int64_t cap, ArrayObj* from) {
    if (static_cast<int64_t>(from->size()) > cap) {
      TVM_FFI_THROW(ValueError) << "Not enough capacity";
    }
    ObjectPtr<ArrayObj> p = Empty(cap);
    for (const Any& item : *from) p->AppendInPlace(item);
    return p;
  }
  /*! \brief Like CopyFrom, but takes the elements (`from` is left empty). */
  static ObjectPtr<ArrayObj> MoveFrom(int64_t cap, ArrayObj* from) {
    if (static_cast<int64_t>(from->size()) > cap) {
      TVM_FFI_THROW(ValueError) << "Not enough capacity";
    }
    ObjectPtr<ArrayObj> p = Empty(cap);
    for (Any& item : *from) p->AppendInPlace(std::move(item));
    from->clear();
    return p;
  }
  /*! \brief Appends within the capacity (the caller made room). */
  void AppendInPlace(Any value) {
    new (begin() + TVMFFISeqCell::size) Any(std::move(value));
    ++TVMFFISeqCell::size;
  }
};

/*! \brief make_object<ArrayObj>() gives a usable empty array (its elements live inline). */
template <>
inline ObjectPtr<ArrayObj> make_object<ArrayObj>() {
  return ArrayObj::Empty();
}

template <typename T = Any>
class Array : public ObjectRef {
 public:
  using value_type = T;
  using iterator = detail::SeqIterator<T>;
  using const_iterator = iterator;
  using reverse_iterator = detail::ReverseIterAdapter<detail::SeqValueConverter<T>, const Any*>;
  using _ffi_custom_traits_tag = void;

  Array() : ObjectRef(ArrayObj::Empty()) {}
  Array(std::initializer_list<T> values) : Array(values.begin(), values.end()) {}
  template <typename It, typename = decltype(*std::declval<It>()),
            typename = std::enable_if_t<!std::is_integral_v<It>>>
  Array(It first, It last) : ObjectRef(UnsafeInit{}) {
    Assign(first, last);
  }
  /*! \brief From any container with begin()/end() (std::vector<T>, ...). */
  template <typename Container, typename = decltype(std::declval<const Container&>().begin()),
            typename = std::enable_if_t<!std::is_base_of_v<ObjectRef, Container>>>
  Array(const Container& values) : Array(values.begin(), values.end()) {}  // NOLINT
  /*! \brief `n` copies of `value`. */
  explicit Array(size_t n, const T& value)
      : ObjectRef(ArrayObj::CreateRepeated(static_cast<int64_t>(n), Any(value))) {}
  explicit Array(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  explicit Array(UnsafeInit tag) : ObjectRef(tag) {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Array)
  /*!
   * \brief Shares an Array<U> whose elements are already valid T values (Array<Any> from
   * Array<int>, Array<Base> from Array<Derived>): no copy, the same object.
   */
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U>>>
  Array(const Array<U>& other) : ObjectRef(other) {}  // NOLINT
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U>>>
  Array(Array<U>&& other) : ObjectRef(std::move(other)) {}  // NOLINT
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U>>>
  Array& operator=(const Array<U>& other) {
    ObjectRef::operator=(other);
    return *this;
  }
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U>>>
  Array& operator=(Array<U>&& other) {
    ObjectRef::operator=(std::move(other));
    return *this;
  }

  const ArrayObj* get() const noexcept { return static_cast<const ArrayObj*>(data_.get()); }
  const ArrayObj* operator->() const noexcept { return get(); }
  ArrayObj* GetArrayObj() const noexcept { return const_cast<ArrayObj*>(get()); }
  using ContainerType = ArrayObj;
  // a typed container also checks its elements, so being a ArrayObj is not enough
  static constexpr bool _type_container_is_exact = false;
  static constexpr bool _type_is_nullable = false;

  size_t size() const noexcept { return data_ == nullptr ? 0 : get()->size(); }
  size_t capacity() const noexcept { return data_ == nullptr ? 0 : get()->capacity(); }
  bool empty() const noexcept { return size() == 0; }
  // Elements are read as `const T` values, as with the reference: `auto& x = arr[0]` and
  // `for (auto& x : arr)` bind a const reference to the value read.
  const T operator[](int64_t i) const { return detail::ElementAs<T>(Obj()->at(i)); }
  const T at(int64_t i) const { return detail::ElementAs<T>(Obj()->at(i)); }
  const T front() const { return detail::ElementAs<T>(Obj()->front()); }
  const T back() const { return detail::ElementAs<T>(Obj()->back()); }
  iterator begin() const noexcept { return iterator(data_ == nullptr ? nullptr : get()->begin()); }
  iterator end() const noexcept { return iterator(data_ == nullptr ? nullptr : get()->end()); }
  reverse_iterator rbegin() const { return reverse_iterator(Obj()->end() - 1); }
  reverse_iterator rend() const { return reverse_iterator(Obj()->begin() - 1); }

  void push_back(const T& value) { Writable(size() + 1)->AppendInPlace(Any(value)); }
  template <typename... Args>
  void emplace_back(Args&&... args) {
    push_back(T(std::forward<Args>(args)...));
  }
  void pop_back() { CopyOnWrite()->pop_back(); }
  void Set(int64_t i, T value) { CopyOnWrite()->SetItem(i, Any(std::move(value))); }
  void insert(iterator pos, const T& value) {
    int64_t at = pos - begin();
    Writable(size() + 1)->insert(at, Any(value));
  }
  /*! \brief Inserts [first, last) before `pos` (each element converted to T). */
  template <typename It, typename = decltype(*std::declval<It>())>
  void insert(iterator pos, It first, It last) {
    if (first == last) return;
    int64_t at = pos - begin();
    Array<T> items(first, last);  // also makes inserting a range of this array safe
    Writable(size() + items.size())->insert(at, items.GetArrayObj()->begin(),
                                            items.GetArrayObj()->end());
  }
  void erase(iterator pos) {
    int64_t at = pos - begin();
    CopyOnWrite()->erase(at);
  }
  /*! \brief Removes [first, last). */
  void erase(iterator first, iterator last) {
    if (first == last) return;
    int64_t from = first - begin();
    int64_t to = last - begin();
    CopyOnWrite()->erase(from, to);
  }
  /*! \brief Empties the array, in place when this is the only holder. */
  void clear() {
    if (empty()) return;
    if (data_.unique()) {
      GetArrayObj()->clear();
    } else {
      data_ = ArrayObj::Empty();
    }
  }
  /*! \brief Makes room for `n` elements (a new object of exactly that capacity if short). */
  void reserve(int64_t n) {
    if (data_ == nullptr || n > static_cast<int64_t>(capacity())) SwitchContainer(n);
  }
  /*! \brief Truncates, or pads with None (a default T reads back as T's None value). */
  void resize(int64_t n) {
    if (n < 0) TVM_FFI_THROW(ValueError) << "cannot resize an Array to negative size";
    if (n == static_cast<int64_t>(size())) return;
    Writable(static_cast<size_t>(n))->resize(n);
  }
  /*! \brief Replaces the contents with [first, last) (reusing the object when unique and big
   * enough). */
  template <typename It>
  void Assign(It first, It last) {
    int64_t n = static_cast<int64_t>(std::distance(first, last));
    if (n < 0) TVM_FFI_THROW(ValueError) << "cannot construct an Array of negative size";
    ArrayObj* p = GetArrayObj();
    if (p != nullptr && data_.unique() && p->TVMFFISeqCell::capacity >= n) {
      p->clear();
    } else {
      data_ = ArrayObj::Empty(n);
      p = GetArrayObj();
    }
    for (; first != last; ++first) p->AppendInPlace(Any(T(*first)));
  }

  /*! \brief This array's object, first copied when shared (copy-on-write). */
  ArrayObj* CopyOnWrite() { return Writable(size()); }

  /*!
   * \brief The array after applying `fmap` to each element. When U may share T's storage and
   * every result is the very element it came from, this array itself is returned.
   */
  template <typename F, typename U = std::decay_t<std::invoke_result_t<F, T>>>
  Array<U> Map(F fmap) const {
    return Array<U>(MapObject<U>(data_, fmap));
  }
  /*!
   * \brief Replaces each element with fmutate(element). A sole holder is updated in place, and
   * fmutate then receives each element as its only reference (so it may mutate it freely).
   */
  template <typename F, typename = std::enable_if_t<std::is_same_v<T, std::invoke_result_t<F, T>>>>
  void MutateByApply(F fmutate) {
    data_ = MapObject<T>(std::move(data_), fmutate);
  }

  /*! \brief One Array<T> of the arguments, each a T or an Array<T> (spliced in). */
  template <typename... Args>
  static Array<T> Agregate(Args... args) {
    Array<T> out;
    out.reserve(static_cast<int64_t>((int64_t{0} + ... + CountOf(args))));
    (out.AppendOne(std::move(args)), ...);
    return out;
  }

 private:
  template <typename>
  friend class Array;

  ArrayObj* Obj() const {
    if (data_ == nullptr) TVM_FFI_THROW(IndexError) << "cannot index a null array";
    return GetArrayObj();
  }
  /*! \brief Moves (sole holder) or copies the elements into a new object of capacity `cap`. */
  ArrayObj* SwitchContainer(int64_t cap) {
    ArrayObj* cur = GetArrayObj();
    if (cur == nullptr) {
      data_ = ArrayObj::Empty(cap);
    } else if (data_.unique()) {
      data_ = ArrayObj::MoveFrom(cap, cur);
    } else {
      data_ = ArrayObj::CopyFrom(cap, cur);
    }
    return GetArrayObj();
  }
  /*! \brief This array's object, made unique and with room for `need` elements. */
  ArrayObj* Writable(size_t need) {
    ArrayObj* cur = GetArrayObj();
    if (cur != nullptr && data_.unique() && cur->capacity() >= need) return cur;
    // Grow geometrically when out of room; a shared array is copied at its current capacity.
    int64_t cap = cur == nullptr ? 0 : static_cast<int64_t>(cur->capacity());
    if (cur != nullptr && cur->capacity() < need) cap *= ArrayObj::kIncFactor;
    if (cap < static_cast<int64_t>(need)) cap = static_cast<int64_t>(need);
    if (cap < ArrayObj::kInitSize) cap = ArrayObj::kInitSize;
    return SwitchContainer(cap);
  }

  static int64_t CountOf(const T&) { return 1; }
  static int64_t CountOf(const Array<T>& items) { return static_cast<int64_t>(items.size()); }
  void AppendOne(T value) { push_back(value); }
  void AppendOne(const Array<T>& items) { insert(end(), items.begin(), items.end()); }

  template <typename U, typename F>
  static ObjectPtr<Object> MapObject(ObjectPtr<Object> data, F& fmap) {
    if (data == nullptr) return data;
    ArrayObj* arr = static_cast<ArrayObj*>(data.get());
    if constexpr (std::is_same_v<T, U>) {
      if (data.unique()) {
        for (Any& slot : *arr) {
          T value = detail::ElementAs<T>(slot);
          slot = Any();  // drop the array's reference before fmap sees the element
          slot = Any(fmap(std::move(value)));
        }
        return data;
      }
    }
    const int64_t n = static_cast<int64_t>(arr->size());
    int64_t i = 0;
    ObjectPtr<ArrayObj> out;
    if constexpr (is_valid_iterator_v<T, U*> || is_valid_iterator_v<U, T*>) {
      // Keep the input while every result is the element itself; copy from the first change.
      for (; i < n; ++i) {
        Any mapped(U(fmap(detail::ElementAs<T>(arr->begin()[i]))));
        if (arr->begin()[i].same_as(mapped)) continue;  // the same object, or equal POD bits
        out = ArrayObj::Empty(n);
        for (int64_t j = 0; j < i; ++j) out->AppendInPlace(arr->begin()[j]);
        out->AppendInPlace(std::move(mapped));
        ++i;
        break;
      }
      if (out == nullptr) return data;
    } else {
      out = ArrayObj::Empty(n);
    }
    for (; i < n; ++i) out->AppendInPlace(Any(U(fmap(detail::ElementAs<T>(arr->begin()[i])))));
    return out;
  }
};

/*! \brief Array<T> can share an Array<U>'s storage when T can share U's. */
template <typename T, typename U>
inline constexpr bool type_subsumes_v<Array<T>, Array<U>> = type_subsumes_v<T, U>;

/*! \brief lhs followed by rhs (neither argument's holders see a change). */
template <typename T, typename = std::enable_if_t<std::is_same_v<T, Any> ||
                                                  TypeTraits<T>::convert_enabled>>
inline Array<T> Concat(Array<T> lhs, const Array<T>& rhs) {
  lhs.insert(lhs.end(), rhs.begin(), rhs.end());
  return lhs;
}

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
