/*
 * tvm/ffi/container/list.h -- List<T>: a mutable sequence shared by reference (mutations are
 * seen by every holder). The element buffer is separate from the object and freed through the
 * cell's data_deleter, which growth keeps.
 */
#ifndef TVM_FFI_CONTAINER_LIST_H_
#define TVM_FFI_CONTAINER_LIST_H_

#include <tvm/ffi/container/array.h>

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

  static void FreeBuffer(void* data) { std::free(data); }

  /*! \brief An empty list with a malloc'ed buffer of `capacity` elements. */
  static ObjectPtr<ListObj> Empty(int64_t capacity) {
    ObjectPtr<ListObj> p = make_object<ListObj>();
    p->Reserve(capacity);
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
    if (TVMFFISeqCell::size == TVMFFISeqCell::capacity) {
      Reserve(TVMFFISeqCell::capacity < 4 ? 4 : 2 * TVMFFISeqCell::capacity);
    }
    new (begin() + TVMFFISeqCell::size) Any(std::move(value));
    ++TVMFFISeqCell::size;
  }
};

template <typename T = Any>
class List : public ObjectRef {
 public:
  using value_type = T;
  using iterator = detail::SeqIterator<T>;
  using const_iterator = iterator;
  using _ffi_custom_traits_tag = void;

  List() : ObjectRef(ListObj::Empty(0)) {}
  List(std::initializer_list<T> values) : List(values.begin(), values.end()) {}
  template <typename It, typename = decltype(*std::declval<It>()),
            typename = std::enable_if_t<!std::is_integral_v<It>>>
  List(It first, It last) : ObjectRef(ListObj::Empty(0)) {
    for (It it = first; it != last; ++it) Obj()->Append(Any(T(*it)));
  }
  template <typename Container, typename = decltype(std::declval<const Container&>().begin()),
            typename = std::enable_if_t<!std::is_base_of_v<ObjectRef, Container>>>
  List(const Container& values) : List(values.begin(), values.end()) {}  // NOLINT
  explicit List(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  explicit List(UnsafeInit tag) : ObjectRef(tag) {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(List)
  ListObj* get() const noexcept { return Obj(); }
  ListObj* operator->() const noexcept { return Obj(); }
  using ContainerType = ListObj;
  static constexpr bool _type_is_nullable = false;

  size_t size() const noexcept { return Obj()->size(); }
  bool empty() const noexcept { return size() == 0; }
  T operator[](int64_t i) const { return detail::ElementAs<T>(Obj()->at(i)); }
  T at(int64_t i) const { return detail::ElementAs<T>(Obj()->at(i)); }
  T front() const { return at(0); }
  T back() const { return at(static_cast<int64_t>(size()) - 1); }
  iterator begin() const noexcept { return iterator(Obj()->begin()); }
  iterator end() const noexcept { return iterator(Obj()->end()); }

  void push_back(const T& value) { Obj()->Append(Any(value)); }
  template <typename... Args>
  void emplace_back(Args&&... args) {
    push_back(T(std::forward<Args>(args)...));
  }
  void pop_back() {
    if (empty()) TVM_FFI_THROW(IndexError) << "pop_back on an empty List";
    ListObj* p = Obj();
    p->begin()[p->TVMFFISeqCell::size - 1].~Any();
    --p->TVMFFISeqCell::size;
  }
  void Set(int64_t i, T value) { Checked(i) = Any(std::move(value)); }
  void insert(iterator pos, const T& value) {
    int64_t at = pos - begin();
    ListObj* p = Obj();
    p->Append(Any(value));
    Any* items = p->begin();
    for (int64_t i = p->TVMFFISeqCell::size - 1; i > at; --i) items[i].swap(items[i - 1]);
  }
  void erase(iterator pos) {
    int64_t at = pos - begin();
    Checked(at);
    Any* items = Obj()->begin();
    for (int64_t i = at; i + 1 < static_cast<int64_t>(size()); ++i) items[i].swap(items[i + 1]);
    pop_back();
  }
  void clear() {
    while (!empty()) pop_back();
  }
  void reserve(int64_t n) { Obj()->Reserve(n); }
  void resize(int64_t n) {
    while (static_cast<int64_t>(size()) > n) pop_back();
    while (static_cast<int64_t>(size()) < n) Obj()->Append(Any());
  }

 private:
  ListObj* Obj() const noexcept {
    return const_cast<ListObj*>(static_cast<const ListObj*>(data_.get()));
  }
  Any& Checked(int64_t i) {
    if (i < 0 || static_cast<size_t>(i) >= size()) {
      TVM_FFI_THROW(IndexError) << "Index " << i << " out of bounds " << size();
    }
    return Obj()->begin()[i];
  }
};

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
