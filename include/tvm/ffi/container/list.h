/*
 * tvm/ffi/container/list.h -- List<T>: a mutable sequence shared by reference (mutations are
 * seen by every holder). The element buffer is separate from the object and freed through the
 * cell's data_deleter, which growth keeps.
 */
#ifndef TVM_FFI_CONTAINER_LIST_H_
#define TVM_FFI_CONTAINER_LIST_H_

#include <tvm/ffi/container/array.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace tvm {
namespace ffi {

/*! \brief The ffi.List object. */
class ListObj : public SeqBaseObj {
 public:
  static constexpr int32_t _type_index = TypeIndex::kTVMFFIList;
  static constexpr int32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = false;
  static constexpr bool _type_final = true;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIList, ListObj, Object);

  /*! \brief Room a list grows to first, and the growth factor after that. */
  static constexpr int64_t kInitSize = 4;
  static constexpr int64_t kIncFactor = 2;

  static void FreeBuffer(void* data) { std::free(data); }

  /*! \brief An empty list with a malloc'ed buffer of `capacity` elements. */
  static ObjectPtr<ListObj> Empty(int64_t capacity = 0) {
    if (capacity < 0) TVM_FFI_THROW(ValueError) << "cannot construct a List of negative size";
    ObjectPtr<ListObj> p = make_object<ListObj>();
    p->Reserve(capacity);
    return p;
  }
  /*! \brief `n` copies of `value`. */
  static ObjectPtr<ListObj> CreateRepeated(int64_t n, const Any& value) {
    ObjectPtr<ListObj> p = Empty(n);
    for (int64_t i = 0; i < n; ++i) p->Append(value);
    return p;
  }
  /*! \brief Grows the buffer to at least `capacity`, moving the elements bitwise. */
  void Reserve(int64_t capacity) {
    if (capacity <= TVMFFISeqCell::capacity) return;
    void* fresh = std::malloc(static_cast<size_t>(capacity) * sizeof(TVMFFIAny));
    if (fresh == nullptr) throw std::bad_alloc();
    if (TVMFFISeqCell::size != 0) {
      std::memcpy(fresh, data, static_cast<size_t>(TVMFFISeqCell::size) * sizeof(TVMFFIAny));
    }
    // The old buffer goes back through whatever deleter its maker installed; ours is free().
    if (data_deleter != nullptr) data_deleter(data);
    if (data_deleter == nullptr) data_deleter = &FreeBuffer;
    data = fresh;
    TVMFFISeqCell::capacity = capacity;
  }
  void Append(Any value) {
    EnsureRoom(1);
    new (begin() + TVMFFISeqCell::size) Any(std::move(value));
    ++TVMFFISeqCell::size;
  }
  // A list grows its own buffer, so unlike SeqBaseObj's these never run out of room.
  using SeqBaseObj::insert;
  void insert(int64_t idx, Any item) {
    CheckInsertAt(idx);
    EnsureRoom(1);
    SeqBaseObj::insert(idx, std::move(item));
  }
  template <typename IterType>
  void insert(int64_t idx, IterType first, IterType last) {
    CheckInsertAt(idx);
    EnsureRoom(static_cast<int64_t>(std::distance(first, last)));
    SeqBaseObj::insert(idx, first, last);
  }
  void resize(int64_t n) {
    if (n > TVMFFISeqCell::size) EnsureRoom(n - TVMFFISeqCell::size);
    SeqBaseObj::resize(n);
  }

  /*! \brief Room for `extra` more elements, growing geometrically. */
  void EnsureRoom(int64_t extra) {
    int64_t need = TVMFFISeqCell::size + extra;
    if (need <= TVMFFISeqCell::capacity) return;
    int64_t cap = std::max<int64_t>(kInitSize, TVMFFISeqCell::capacity * kIncFactor);
    Reserve(std::max(cap, need));
  }
};

template <typename T = Any>
class List : public ObjectRef {
 public:
  using value_type = T;
  using iterator = detail::SeqIterator<T>;
  using const_iterator = iterator;
  using reverse_iterator = detail::ReverseIterAdapter<detail::SeqValueConverter<T>, const Any*>;
  using _ffi_custom_traits_tag = void;

  List() : ObjectRef(ListObj::Empty(0)) {}
  List(std::initializer_list<T> values) : List(values.begin(), values.end()) {}
  template <typename It, typename = decltype(*std::declval<It>()),
            typename = std::enable_if_t<!std::is_integral_v<It>>>
  List(It first, It last) : ObjectRef(ListObj::Empty(0)) {
    Assign(first, last);
  }
  template <typename Container, typename = decltype(std::declval<const Container&>().begin()),
            typename = std::enable_if_t<!std::is_base_of_v<ObjectRef, Container>>>
  List(const Container& values) : List(values.begin(), values.end()) {}  // NOLINT
  /*! \brief `n` copies of `value`. */
  explicit List(size_t n, const T& value)
      : ObjectRef(ListObj::CreateRepeated(static_cast<int64_t>(n), Any(value))) {}
  explicit List(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  explicit List(UnsafeInit tag) : ObjectRef(tag) {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(List)
  /*!
   * \brief Another handle on a List<U> whose elements are valid T values (List<Any> from
   * List<int>): the same object, so mutations through either are seen by both.
   */
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U>>>
  List(const List<U>& other) : ObjectRef(other) {}  // NOLINT
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U>>>
  List(List<U>&& other) : ObjectRef(std::move(other)) {}  // NOLINT
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U>>>
  List& operator=(const List<U>& other) {
    ObjectRef::operator=(other);
    return *this;
  }
  template <typename U, typename = std::enable_if_t<type_subsumes_v<T, U>>>
  List& operator=(List<U>&& other) {
    ObjectRef::operator=(std::move(other));
    return *this;
  }

  ListObj* get() const noexcept { return Obj(); }
  ListObj* operator->() const noexcept { return Obj(); }
  ListObj* GetListObj() const noexcept { return Obj(); }
  using ContainerType = ListObj;
  // a typed container also checks its elements, so being a ListObj is not enough
  static constexpr bool _type_container_is_exact = false;
  static constexpr bool _type_is_nullable = false;

  size_t size() const noexcept { return data_ == nullptr ? 0 : Obj()->size(); }
  size_t capacity() const noexcept { return data_ == nullptr ? 0 : Obj()->capacity(); }
  bool empty() const noexcept { return size() == 0; }
  // `const T` values, as Array's (see there).
  const T operator[](int64_t i) const { return detail::ElementAs<T>(Checked()->at(i)); }
  const T at(int64_t i) const { return detail::ElementAs<T>(Checked()->at(i)); }
  const T front() const { return detail::ElementAs<T>(Checked()->front()); }
  const T back() const { return detail::ElementAs<T>(Checked()->back()); }
  iterator begin() const { return iterator(Checked()->begin()); }
  iterator end() const { return iterator(Checked()->end()); }
  reverse_iterator rbegin() const { return reverse_iterator(Checked()->end() - 1); }
  reverse_iterator rend() const { return reverse_iterator(Checked()->begin() - 1); }

  void push_back(const T& value) { Ensured()->Append(Any(value)); }
  template <typename... Args>
  void emplace_back(Args&&... args) {
    push_back(T(std::forward<Args>(args)...));
  }
  void pop_back() { Checked()->pop_back(); }
  void Set(int64_t i, T value) { Checked()->SetItem(i, Any(std::move(value))); }
  void insert(iterator pos, const T& value) {
    int64_t at = pos - begin();
    Checked()->insert(at, Any(value));
  }
  /*! \brief Inserts [first, last) before `pos` (each element converted to T). */
  template <typename It, typename = decltype(*std::declval<It>())>
  void insert(iterator pos, It first, It last) {
    if (first == last) return;
    int64_t at = pos - begin();
    Array<T> items(first, last);  // a snapshot, so inserting this list's own range is safe
    Checked()->insert(at, items.GetArrayObj()->begin(), items.GetArrayObj()->end());
  }
  void erase(iterator pos) { Checked()->erase(pos - begin()); }
  /*! \brief Removes [first, last). */
  void erase(iterator first, iterator last) {
    if (first == last) return;
    Checked()->erase(first - begin(), last - begin());
  }
  void clear() {
    if (data_ != nullptr) Obj()->clear();
  }
  void reserve(int64_t n) { Ensured()->Reserve(n); }
  /*! \brief Truncates, or pads with None (ValueError for a negative size). */
  void resize(int64_t n) {
    if (n < 0) TVM_FFI_THROW(ValueError) << "cannot resize a List to negative size";
    Ensured()->resize(n);
  }
  /*! \brief Replaces the contents with [first, last), in the same (shared) object. */
  template <typename It>
  void Assign(It first, It last) {
    int64_t n = static_cast<int64_t>(std::distance(first, last));
    if (n < 0) TVM_FFI_THROW(ValueError) << "cannot construct a List of negative size";
    ListObj* p = Ensured();
    p->clear();
    p->Reserve(n);
    for (; first != last; ++first) p->Append(Any(T(*first)));
  }

 private:
  ListObj* Obj() const noexcept {
    return const_cast<ListObj*>(static_cast<const ListObj*>(data_.get()));
  }
  ListObj* Checked() const {
    if (data_ == nullptr) TVM_FFI_THROW(IndexError) << "cannot index a null list";
    return Obj();
  }
  /*! \brief The list object, made first for a null (UnsafeInit) handle. */
  ListObj* Ensured() {
    if (data_ == nullptr) data_ = ListObj::Empty(0);
    return Obj();
  }
};

/*! \brief List<T> can share a List<U>'s object when T can share U's storage. */
template <typename T, typename U>
inline constexpr bool type_subsumes_v<List<T>, List<U>> = type_subsumes_v<T, U>;

template <typename T>
struct TypeTraits<List<T>> : TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIList;
  static void CopyToAnyView(const List<T>& v, TVMFFIAny* r) {
    r->type_index = TypeIndex::kTVMFFIList;
    r->zero_padding = 0;
    r->v_obj = detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(v);
  }
  static void MoveToAny(List<T> v, TVMFFIAny* r) {
    r->type_index = TypeIndex::kTVMFFIList;
    r->zero_padding = 0;
    r->v_obj = detail::ObjectUnsafe::MoveObjectRefToTVMFFIObjectPtr(std::move(v));
  }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index == TypeIndex::kTVMFFIList &&
           detail::AllElementsStrict<T>(detail::SeqCellOf<T>(s));
  }
  static List<T> CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    return detail::ObjectUnsafe::ObjectRefFromUnowned<List<T>>(s->v_obj);
  }
  /*! \brief Lists and Arrays whose elements convert to T (copied into a new List if needed). */
  static std::optional<List<T>> TryCastFromAnyView(const TVMFFIAny* s) {
    if (s->type_index != TypeIndex::kTVMFFIArray && s->type_index != TypeIndex::kTVMFFIList) {
      return std::nullopt;
    }
    if (CheckAnyStrict(s)) return CopyFromAnyViewAfterCheck(s);
    std::optional<Array<T>> items = TypeTraits<Array<T>>::TryCastFromAnyView(s);
    if (!items.has_value()) return std::nullopt;
    return List<T>(items->begin(), items->end());
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* s) {
    return detail::SeqMismatch<T>("List", s);
  }
  static std::string TypeStr() { return "List<" + detail::Type2Str<T>::v() + ">"; }
  static std::string TypeSchema() {
    return "{\"type\":\"ffi.List\",\"args\":[" + TypeTraitsNoCR<T>::TypeSchema() + "]}";
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_LIST_H_
