/*
 * tvm/ffi/container/container_detail.h -- helpers shared by the container headers: iterator
 * adapters that convert each stored Any to the element type on dereference, compile-time
 * "can this type live in a container" checks, and the printed names of container types
 * ("Array<int>", "Tuple<int, str>").
 */
#ifndef TVM_FFI_CONTAINER_CONTAINER_DETAIL_H_
#define TVM_FFI_CONTAINER_CONTAINER_DETAIL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <iterator>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {
namespace detail {

/*!
 * \brief Iterates like TIter but yields Converter::convert(*it) (a value of
 * Converter::ResultType), so a container of Any can be walked as a container of T.
 */
template <typename Converter, typename TIter>
class IterAdapter {
 public:
  using difference_type = typename std::iterator_traits<TIter>::difference_type;
  using value_type = typename Converter::ResultType;
  using pointer = const typename Converter::ResultType*;
  using reference = const typename Converter::ResultType;
  using iterator_category = typename std::iterator_traits<TIter>::iterator_category;

  explicit IterAdapter(TIter iter) : iter_(iter) {}
  IterAdapter& operator++() {
    ++iter_;
    return *this;
  }
  IterAdapter& operator--() {
    --iter_;
    return *this;
  }
  IterAdapter operator++(int) {
    IterAdapter before = *this;
    ++iter_;
    return before;
  }
  IterAdapter operator--(int) {
    IterAdapter before = *this;
    --iter_;
    return before;
  }
  IterAdapter operator+(difference_type n) const { return IterAdapter(iter_ + n); }
  IterAdapter operator-(difference_type n) const { return IterAdapter(iter_ - n); }
  IterAdapter& operator+=(difference_type n) {
    iter_ += n;
    return *this;
  }
  IterAdapter& operator-=(difference_type n) {
    iter_ -= n;
    return *this;
  }
  /*! \brief Distance between two positions (random-access iterators only). */
  template <typename T = IterAdapter>
  std::enable_if_t<std::is_same_v<iterator_category, std::random_access_iterator_tag>,
                   typename T::difference_type>
  operator-(const IterAdapter& rhs) const {
    return iter_ - rhs.iter_;
  }
  bool operator==(IterAdapter other) const { return iter_ == other.iter_; }
  bool operator!=(IterAdapter other) const { return iter_ != other.iter_; }
  reference operator*() const { return Converter::convert(*iter_); }

 private:
  TIter iter_;
};

/*! \brief Like IterAdapter, walking TIter backwards: ++ moves to the previous element. */
template <typename Converter, typename TIter>
class ReverseIterAdapter {
 public:
  using difference_type = typename std::iterator_traits<TIter>::difference_type;
  using value_type = typename Converter::ResultType;
  using pointer = const typename Converter::ResultType*;
  using reference = const typename Converter::ResultType;
  using iterator_category = typename std::iterator_traits<TIter>::iterator_category;

  explicit ReverseIterAdapter(TIter iter) : iter_(iter) {}
  ReverseIterAdapter& operator++() {
    --iter_;
    return *this;
  }
  ReverseIterAdapter& operator--() {
    ++iter_;
    return *this;
  }
  ReverseIterAdapter operator++(int) {
    ReverseIterAdapter before = *this;
    --iter_;
    return before;
  }
  ReverseIterAdapter operator--(int) {
    ReverseIterAdapter before = *this;
    ++iter_;
    return before;
  }
  ReverseIterAdapter operator+(difference_type n) const { return ReverseIterAdapter(iter_ - n); }
  /*! \brief Distance between two positions (random-access iterators only). */
  template <typename T = ReverseIterAdapter>
  std::enable_if_t<std::is_same_v<iterator_category, std::random_access_iterator_tag>,
                   typename T::difference_type>
  operator-(const ReverseIterAdapter& rhs) const {
    return rhs.iter_ - iter_;
  }
  bool operator==(ReverseIterAdapter other) const { return iter_ == other.iter_; }
  bool operator!=(ReverseIterAdapter other) const { return iter_ != other.iter_; }
  reference operator*() const { return Converter::convert(*iter_); }

 private:
  TIter iter_;
};

/*! \brief T can be stored in a container (an owned Any): Any itself or a storage-enabled type. */
template <typename T>
inline constexpr bool storage_enabled_v = std::is_same_v<T, Any> || TypeTraits<T>::storage_enabled;

/*! \brief Every one of T... can be stored in a container. */
template <typename... T>
inline constexpr bool all_storage_enabled_v = (storage_enabled_v<T> && ...);

/*! \brief Every one of T... is an ObjectRef (sub)class. */
template <typename... T>
inline constexpr bool all_object_ref_v = (std::is_base_of_v<ObjectRef, T> && ...);

/*! \brief "Name<T1, T2, ...>" with each type's printed name. */
template <typename... Types>
std::string ContainerTypeStr(const char* name) {
  std::string out = std::string(name) + "<";
  size_t i = 0;
  ((out += (i++ != 0 ? ", " : "") + Type2Str<Types>::v()), ...);
  return out + ">";
}

/*! \brief The JSON type schema {"type": name, "args": [schema of each type]}. */
template <typename... Types>
std::string ContainerTypeSchema(const char* name) {
  std::string out = std::string("{\"type\":\"") + name + "\",\"args\":[";
  size_t i = 0;
  ((out += (i++ != 0 ? "," : "") + TypeTraitsNoCR<Types>::TypeSchema()), ...);
  return out + "]}";
}

}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_CONTAINER_DETAIL_H_
