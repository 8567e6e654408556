/*
 * tvm/ffi/container/seq_base.h -- what Array and List share: the sequence object layout
 * (header + TVMFFISeqCell, elements are owned TVMFFIAny), element-typed iteration, and the
 * element checks behind their TypeTraits.
 */
#ifndef TVM_FFI_CONTAINER_SEQ_BASE_H_
#define TVM_FFI_CONTAINER_SEQ_BASE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/memory.h>

#include <cstdlib>
#include <initializer_list>

namespace tvm {
namespace ffi {

/*! \brief Sequence object body shared by ffi.Array and ffi.List. */
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
  const Any& at(int64_t i) const {
    if (i < 0 || i >= TVMFFISeqCell::size) {
      TVM_FFI_THROW(IndexError) << "Index " << i << " out of bounds " << TVMFFISeqCell::size;
    }
    return begin()[i];
  }
  const Any& operator[](int64_t i) const noexcept { return begin()[i]; }
};

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
  using reference = T;
  using pointer = void;
  using iterator_category = std::random_access_iterator_tag;

  explicit SeqIterator(const Any* p) noexcept : p_(p) {}
  T operator*() const { return ElementAs<T>(*p_); }
  T operator[](difference_type i) const { return ElementAs<T>(p_[i]); }
  SeqIterator& operator++() noexcept { ++p_; return *this; }
  SeqIterator operator++(int) noexcept { SeqIterator t = *this; ++p_; return t; }
  SeqIterator& operator--() noexcept { --p_; return *this; }
  SeqIterator operator+(difference_type n) const noexcept { return SeqIterator(p_ + n); }
  SeqIterator operator-(difference_type n) const noexcept { return SeqIterator(p_ - n); }
  SeqIterator& operator+=(difference_type n) noexcept { p_ += n; return *this; }
  difference_type operator-(const SeqIterator& o) const noexcept { return p_ - o.p_; }
  bool operator==(const SeqIterator& o) const noexcept { return p_ == o.p_; }
  bool operator!=(const SeqIterator& o) const noexcept { return p_ != o.p_; }
  bool operator<(const SeqIterator& o) const noexcept { return p_ < o.p_; }

 private:
  const Any* p_;
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
