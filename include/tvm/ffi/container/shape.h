/*
 * tvm/ffi/container/shape.h -- ShapeView (a borrowed {data, size} of int64) and Shape (an
 * immutable ffi.Shape object whose elements live inline after the cell, at +40).
 */
#ifndef TVM_FFI_CONTAINER_SHAPE_H_
#define TVM_FFI_CONTAINER_SHAPE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/memory.h>

#include <initializer_list>
#include <ostream>
#include <vector>

namespace tvm {
namespace ffi {

/*! \brief Non-owning view of int64 extents (a tensor's shape or strides). */
class ShapeView {
 public:
  ShapeView() noexcept = default;
  ShapeView(const int64_t* data, size_t size) noexcept : data_(data), size_(size) {}
  /*! \brief Views the list for the duration of the full expression (argument passing). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  ShapeView(std::initializer_list<int64_t> values) noexcept  // NOLINT
      : data_(values.begin()), size_(values.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  const int64_t* data() const noexcept { return data_; }
  size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  const int64_t* begin() const noexcept { return data_; }
  const int64_t* end() const noexcept { return data_ + size_; }
  int64_t operator[](size_t i) const noexcept { return data_[i]; }
  int64_t at(int64_t i) const {
    if (i < 0 || static_cast<size_t>(i) >= size_) {
      TVM_FFI_THROW(IndexError) << "indexing " << i << " on a shape of size " << size_;
    }
    return data_[i];
  }
  int64_t front() const { return at(0); }
  int64_t back() const { return at(static_cast<int64_t>(size_) - 1); }
  /*! \brief Product of the extents (1 for an empty shape). */
  int64_t Product() const noexcept {
    int64_t p = 1;
    for (size_t i = 0; i < size_; ++i) p *= data_[i];
    return p;
  }

 private:
  const int64_t* data_{nullptr};
  size_t size_{0};
};

inline bool operator==(ShapeView a, ShapeView b) noexcept {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}
inline bool operator!=(ShapeView a, ShapeView b) noexcept { return !(a == b); }

/*! \brief The ffi.Shape object: header, {data, size}, then the elements. */
class ShapeObj : public Object, public TVMFFIShapeCell {
 public:
  using index_type = int64_t;
  ShapeObj() : TVMFFIShapeCell{nullptr, 0} {}
  /*! \brief Product of the extents (1 for an empty shape). */
  int64_t Product() const noexcept { return ShapeView(data, size).Product(); }
  static constexpr int32_t _type_index = TypeIndex::kTVMFFIShape;
  static constexpr int32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = false;
  static constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIShape, ShapeObj, Object);
};

namespace detail {
/*!
 * \brief A shape object of `length` extents stored inline after it, left for the caller to
 * fill through *mutable_data (skipped when mutable_data is null).
 */
inline ObjectPtr<ShapeObj> MakeEmptyShape(size_t length, int64_t** mutable_data) {
  ObjectPtr<ShapeObj> obj = make_inplace_array_object<ShapeObj, int64_t>(length);
  int64_t* tail = reinterpret_cast<int64_t*>(reinterpret_cast<char*>(obj.get()) + sizeof(ShapeObj));
  obj->data = tail;
  obj->size = length;
  if (mutable_data != nullptr) *mutable_data = tail;
  return obj;
}

/*! \brief A shape object holding the integers of [first, last). */
template <typename It>
inline ObjectPtr<ShapeObj> MakeInplaceShape(It first, It last) {
  size_t n = 0;
  for (It it = first; it != last; ++it) ++n;
  int64_t* extents = nullptr;
  ObjectPtr<ShapeObj> obj = MakeEmptyShape(n, &extents);
  for (It it = first; it != last; ++it) *extents++ = static_cast<int64_t>(*it);
  return obj;
}

/*! \brief Writes the compact (row-major) strides of `shape`, in elements, to out_strides. */
inline void FillStridesFromShape(ShapeView shape, int64_t* out_strides) {
  int64_t stride = 1;
  for (size_t i = shape.size(); i > 0; --i) {
    out_strides[i - 1] = stride;
    stride *= shape[i - 1];
  }
}

/*! \brief A shape object holding the compact strides of `shape`. */
inline ObjectPtr<ShapeObj> MakeStridesFromShape(ShapeView shape) {
  int64_t* strides = nullptr;
  ObjectPtr<ShapeObj> obj = MakeEmptyShape(shape.size(), &strides);
  FillStridesFromShape(shape, strides);
  return obj;
}
}  // namespace detail

/*! \brief An immutable shape (never null: the default is the empty shape). */
class Shape : public ObjectRef {
 public:
  using index_type = ShapeObj::index_type;

  Shape() : Shape(ShapeView()) {}
  Shape(std::initializer_list<int64_t> values)  // NOLINT
      : Shape(ShapeView(values.begin(), values.size())) {}
  Shape(ShapeView values) : Shape(values.begin(), values.end()) {}  // NOLINT
  /*! \brief The extents of an Array<int64_t> (this is also how an Array converts to Shape). */
  Shape(const Array<int64_t>& values) : Shape(values.begin(), values.end()) {}  // NOLINT
  Shape(const std::vector<int64_t>& values)  // NOLINT
      : Shape(values.data(), values.data() + values.size()) {}
  /*! \brief From any other container of integers with begin()/end(). */
  template <typename Container,
            typename = decltype(std::declval<const Container&>().begin()),
            typename = std::enable_if_t<!std::is_convertible_v<const Container&, ShapeView> &&
                                        !std::is_base_of_v<ObjectRef, Container>>>
  explicit Shape(const Container& values) : Shape(values.begin(), values.end()) {}
  template <typename It, typename = decltype(*std::declval<It>())>
  Shape(It first, It last) : ObjectRef(detail::MakeInplaceShape(first, last)) {}
  /*! \brief The compact (row-major) strides of `shape`, in elements. */
  static Shape StridesFromShape(ShapeView shape) {
    return Shape(detail::MakeStridesFromShape(shape));
  }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Shape, ObjectRef, ShapeObj);

  ShapeView view() const noexcept { return ShapeView(get()->data, get()->size); }
  operator ShapeView() const noexcept { return view(); }  // NOLINT
  const int64_t* data() const noexcept { return get()->data; }
  size_t size() const noexcept { return get()->size; }
  bool empty() const noexcept { return size() == 0; }
  const int64_t* begin() const noexcept { return data(); }
  const int64_t* end() const noexcept { return data() + size(); }
  int64_t operator[](size_t i) const noexcept { return data()[i]; }
  int64_t at(int64_t i) const { return view().at(i); }
  int64_t front() const { return view().front(); }
  int64_t back() const { return view().back(); }
  int64_t Product() const noexcept { return view().Product(); }

 private:
  explicit Shape(ObjectPtr<ShapeObj> obj) : ObjectRef(std::move(obj)) {}
};

/*! \brief Prints "[2, 3]". */
inline std::ostream& operator<<(std::ostream& os, ShapeView shape) {
  os << '[';
  for (size_t i = 0; i < shape.size(); ++i) os << (i != 0 ? ", " : "") << shape[i];
  return os << ']';
}
/*! \brief Prints "[2, 3]". */
inline std::ostream& operator<<(std::ostream& os, const Shape& shape) { return os << shape.view(); }

/*!
 * \brief A Shape value is an ffi.Shape object; an Array or List of integers also converts
 * (into a new Shape), but a Shape never converts to an Array.
 */
template <>
inline constexpr bool use_default_type_traits_v<Shape> = false;
template <>
struct TypeTraits<Shape> : ObjectRefWithFallbackTraitsBase<Shape, Array<int64_t>> {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIShape;
  static Shape ConvertFallbackValue(Array<int64_t> items) { return Shape(std::move(items)); }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_SHAPE_H_
