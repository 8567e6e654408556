/*
 * tvm/ffi/container/seq_base.h -- what Array and List share: the sequence object layout
 * (header + TVMFFISeqCell, elements are owned TVMFFIAny), element-typed iteration, and the
 * element checks behind their TypeTraits.
 */
#ifndef TVM_FFI_CONTAINER_SEQ_BASE_H_
#define TVM_FFI_CONTAINER_SEQ_BASE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/container_detail.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/optional.h>

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <iterator>

namespace tvm {
namespace ffi {

/*!
 * \brief Sequence object body shared by ffi.Array and ffi.List.
 *
 * The in-place edits below work within the current capacity: a growing edit (insert, resize)
 * throws rather than write past it. ListObj hides them with versions that grow the buffer
 * first; an ArrayObj never grows in place (Array<T> copies into a bigger object instead).
 */
class SeqBaseObj : public Object, public TVMFFISeqCell {
 public:
  SeqBaseObj() : TVMFFISeqCell{nullptr, 0, 0, nullptr} {}
  SeqBaseObj(const SeqBaseObj&) = delete;
  ~SeqBaseObj() {
    Any* items = begin();
    for (int64_t i = 0; i < TVMFFISeqCell::size; ++i) items[i].~Any();
    if (data_deleter != nullptr) data_deleter(data);
  }
  size_t size() const noexcept { return static_cast<size_t>(TVMFFISeqCell::size); }
  size_t capacity() const noexcept { return static_cast<size_t>(TVMFFISeqCell::capacity); }
  bool empty() const noexcept { return TVMFFISeqCell::size == 0; }
  Any* begin() const noexcept { return static_cast<Any*>(data); }
  Any* end() const noexcept { return begin() + TVMFFISeqCell::size; }
  const Any& at(int64_t i) const { return begin()[CheckIndex(i)]; }
  const Any& operator[](int64_t i) const { return begin()[CheckIndex(i)]; }
  const Any& front() const {
    if (empty()) TVM_FFI_THROW(IndexError) << "front() on an empty sequence";
    return begin()[0];
  }
  const Any& back() const {
    if (empty()) TVM_FFI_THROW(IndexError) << "back() on an empty sequence";
    return end()[-1];
  }

  /*! \brief Replaces element i (IndexError when out of bounds). */
  void SetItem(int64_t i, Any item) { begin()[CheckIndex(i)] = std::move(item); }
  /*! \brief Replaces element i; the caller has checked the bounds. */
  void SetItemAfterCheck(int64_t i, Any item) { begin()[i] = std::move(item); }
  /*! \brief Releases every element (the capacity stays). */
  void clear() { ShrinkTo(0); }
  void pop_back() {
    if (empty()) TVM_FFI_THROW(IndexError) << "pop_back on an empty sequence";
    ShrinkTo(TVMFFISeqCell::size - 1);
  }
  /*! \brief Removes element idx, shifting the tail left. */
  void erase(int64_t idx) {
    CheckIndex(idx);
    std::move(begin() + idx + 1, end(), begin() + idx);
    ShrinkTo(TVMFFISeqCell::size - 1);
  }
  /*! \brief Removes [first, last); an empty range is a no-op, a bad one an IndexError. */
  void erase(int64_t first, int64_t last) {
    if (first == last) return;
    if (first < 0 || first > last || last > TVMFFISeqCell::size) {
      TVM_FFI_THROW(IndexError) << "Erase range [" << first << ", " << last << ") out of bounds "
                                << TVMFFISeqCell::size;
    }
    std::move(begin() + last, end(), begin() + first);
    ShrinkTo(TVMFFISeqCell::size - (last - first));
  }
  /*! \brief Inserts `item` before position idx (0 <= idx <= size). */
  void insert(int64_t idx, Any item) {
    CheckInsertAt(idx);
    GrowBy(1);
    std::move_backward(begin() + idx, end() - 1, end());
    begin()[idx] = std::move(item);
  }
  /*! \brief Inserts [first, last) before position idx, each element stored as Any(*it). */
  template <typename IterType>
  void insert(int64_t idx, IterType first, IterType last) {
    int64_t count = static_cast<int64_t>(std::distance(first, last));
    if (count == 0) return;
    CheckInsertAt(idx);
    GrowBy(count);
    std::move_backward(begin() + idx, end() - count, end());
    for (Any* dst = begin() + idx; first != last; ++first, ++dst) *dst = Any(*first);
  }
  /*! \brief Reverses the elements in place. */
  void Reverse() { std::reverse(begin(), end()); }
  /*! \brief Truncates, or pads with None (ValueError for a negative size). */
  void resize(int64_t n) {
    if (n < 0) TVM_FFI_THROW(ValueError) << "Cannot resize to negative size " << n;
    if (n < TVMFFISeqCell::size) {
      ShrinkTo(n);
    } else {
      GrowBy(n - TVMFFISeqCell::size);
    }
  }

 protected:
  int64_t CheckIndex(int64_t i) const {
    if (i < 0 || i >= TVMFFISeqCell::size) {
      TVM_FFI_THROW(IndexError) << "Index " << i << " out of bounds " << TVMFFISeqCell::size;
    }
    return i;
  }
  void CheckInsertAt(int64_t idx) const {
    if (idx < 0 || idx > TVMFFISeqCell::size) {
      TVM_FFI_THROW(IndexError) << "Index " << idx << " out of bounds [0, " << TVMFFISeqCell::size
                                << "]";
    }
  }
  /*! \brief Appends `count` None elements within the capacity. */
  void GrowBy(int64_t count) {
    if (TVMFFISeqCell::size + count > TVMFFISeqCell::capacity) {
      TVM_FFI_THROW(ValueError) << "Sequence of capacity " << TVMFFISeqCell::capacity
                                << " cannot hold " << TVMFFISeqCell::size + count
                                << " elements; reserve room first";
    }
    // size grows one element at a time so the destructor always sees constructed slots
    for (; count > 0; --count) new (begin() + TVMFFISeqCell::size++) Any();
  }
  /*! \brief Destroys the elements from position n on. */
  void ShrinkTo(int64_t n) {
    while (TVMFFISeqCell::size > n) begin()[--TVMFFISeqCell::size].~Any();
  }
};

/*!
 * \brief is_valid_iterator_v<T, It>: *It yields T, a subclass of T, or T is Any (Optional<T>
 * takes what T takes), so its values can be stored in a sequence of T without conversion.
 */
template <typename T, typename IterType>
struct is_valid_iterator
    : std::bool_constant<std::is_base_of_v<
                             T, std::remove_cv_t<std::remove_reference_t<
                                    decltype(*std::declval<IterType>())>>> ||
                         std::is_same_v<T, std::remove_cv_t<std::remove_reference_t<
                                               decltype(*std::declval<IterType>())>>>> {};
template <typename T, typename IterType>
struct is_valid_iterator<Optional<T>, IterType> : is_valid_iterator<T, IterType> {};
template <typename IterType>
struct is_valid_iterator<Any, IterType> : std::true_type {};
template <typename T, typename IterType>
inline constexpr bool is_valid_iterator_v = is_valid_iterator<T, IterType>::value;

namespace detail {

/*! \brief Element read as T: exact values are copied, others converted. */
template <typename T>
inline T ElementAs(const Any& item) {
  if constexpr (std::is_same_v<T, Any>) {
    return item;
  } else {
    const TVMFFIAny* raw = AnyUnsafe::TVMFFIAnyPtrFromAny(item);
    if (TypeTraits<T>::CheckAnyStrict(raw)) return TypeTraits<T>::CopyFromAnyViewAfterCheck(raw);
    return item.cast<T>();
  }
}

/*! \brief Random-access iterator that reads elements as T. */
template <typename T>
class SeqIterator {
 public:
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using reference = const T;  // a value read from the slot; `auto&` binds it as const
  using pointer = void;
  using iterator_category = std::random_access_iterator_tag;

  explicit SeqIterator(const Any* p) noexcept : p_(p) {}
  const T operator*() const { return ElementAs<T>(*p_); }
  const T operator[](difference_type i) const { return ElementAs<T>(p_[i]); }
  SeqIterator& operator++() noexcept { ++p_; return *this; }
  SeqIterator operator++(int) noexcept { SeqIterator t = *this; ++p_; return t; }
  SeqIterator& operator--() noexcept { --p_; return *this; }
  SeqIterator operator--(int) noexcept { SeqIterator t = *this; --p_; return t; }
  SeqIterator operator+(difference_type n) const noexcept { return SeqIterator(p_ + n); }
  SeqIterator operator-(difference_type n) const noexcept { return SeqIterator(p_ - n); }
  friend SeqIterator operator+(difference_type n, SeqIterator it) noexcept { return it + n; }
  SeqIterator& operator+=(difference_type n) noexcept { p_ += n; return *this; }
  SeqIterator& operator-=(difference_type n) noexcept { p_ -= n; return *this; }
  difference_type operator-(const SeqIterator& o) const noexcept { return p_ - o.p_; }
  bool operator==(const SeqIterator& o) const noexcept { return p_ == o.p_; }
  bool operator!=(const SeqIterator& o) const noexcept { return p_ != o.p_; }
  bool operator<(const SeqIterator& o) const noexcept { return p_ < o.p_; }
  bool operator>(const SeqIterator& o) const noexcept { return p_ > o.p_; }
  bool operator<=(const SeqIterator& o) const noexcept { return p_ <= o.p_; }
  bool operator>=(const SeqIterator& o) const noexcept { return p_ >= o.p_; }

 private:
  const Any* p_;
};

/*! \brief Element converter for the IterAdapter family (reverse iteration). */
template <typename T>
struct SeqValueConverter {
  using ResultType = T;
  static T convert(const Any& item) { return ElementAs<T>(item); }
};

/*! \brief Whether every element is stored exactly as T (no conversion needed). */
template <typename T>
inline bool AllElementsStrict(const TVMFFISeqCell* cell) {
  if constexpr (std::is_same_v<T, Any>) {
    return true;
  } else {
    const TVMFFIAny* items = static_cast<const TVMFFIAny*>(cell->data);
    for (int64_t i = 0; i < cell->size; ++i) {
      if (!TypeTraits<T>::CheckAnyStrict(items + i)) return false;
    }
    return true;
  }
}

template <typename T>
inline const TVMFFISeqCell* SeqCellOf(const TVMFFIAny* src) {
  return static_cast<const TVMFFISeqCell*>(
      static_cast<const SeqBaseObj*>(reinterpret_cast<const Object*>(src->v_obj)));
}

/*! \brief "Array[index 2: float]": the first element that is not a T. */
template <typename T>
inline std::string SeqMismatch(const char* kind, const TVMFFIAny* src) {
  if (src->type_index != TypeIndex::kTVMFFIArray && src->type_index != TypeIndex::kTVMFFIList) {
    return TypeIndexToTypeKey(src->type_index);
  }
  const TVMFFISeqCell* cell = SeqCellOf<T>(src);
  const TVMFFIAny* items = static_cast<const TVMFFIAny*>(cell->data);
  for (int64_t i = 0; i < cell->size; ++i) {
    if (TypeTraits<T>::CheckAnyStrict(items + i)) continue;
    if (TypeTraits<T>::TryCastFromAnyView(items + i).has_value()) continue;
    return std::string(kind) + "[index " + std::to_string(i) + ": " +
           TypeTraits<T>::GetMismatchTypeInfo(items + i) + "]";
  }
  return TypeIndexToTypeKey(src->type_index);
}

}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_SEQ_BASE_H_
