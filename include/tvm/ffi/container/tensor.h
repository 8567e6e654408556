/*
 * tvm/ffi/container/tensor.h -- tensors.
 *   TensorView  a by-value DLTensor (48 bytes, non-owning): the usual kernel parameter
 *   Tensor      an owning reference to a TensorObj (header + DLTensor at +24)
 * Metadata reads are inline; DLPack import/export and env allocation go through the C API.
 */
#ifndef TVM_FFI_CONTAINER_TENSOR_H_
#define TVM_FFI_CONTAINER_TENSOR_H_

#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/device.h>
#include <tvm/ffi/dtype.h>

namespace tvm {
namespace ffi {

/*! \brief Bytes taken by `numel` elements of `dtype` (sub-byte types round up). */
inline size_t GetDataSize(int64_t numel, DLDataType dtype) {
  return static_cast<size_t>((numel * dtype.bits * dtype.lanes + 7) / 8);
}
/*! \brief Bytes taken by the elements of a tensor. */
inline size_t GetDataSize(const DLTensor& tensor) {
  int64_t numel = 1;
  for (int32_t i = 0; i < tensor.ndim; ++i) numel *= tensor.shape[i];
  return GetDataSize(numel, tensor.dtype);
}

namespace detail {
// Newer reference headers declare GetDataSize here as well; code written for them compiles.
using ::tvm::ffi::GetDataSize;
}  // namespace detail

/*! \brief Row-major compactness; extent-1 dims are ignored and empty tensors are compact. */
inline bool IsContiguous(const DLTensor& t) {
  if (t.strides == nullptr) return true;
  int64_t expected = 1;
  for (int32_t i = t.ndim - 1; i >= 0; --i) {
    if (t.shape[i] == 0) return true;
  }
  for (int32_t i = t.ndim - 1; i >= 0; --i) {
    if (t.shape[i] == 1) continue;
    if (t.strides[i] != expected) return false;
    expected *= t.shape[i];
  }
  return true;
}

/*! \brief Devices whose data pointer is a plain address (offsets may be folded into it). */
inline bool IsDirectAddressDevice(const DLDevice& device) {
  return device.device_type <= kDLCUDAHost || device.device_type == kDLCUDAManaged ||
         device.device_type == kDLROCM || device.device_type == kDLROCMHost;
}

/*! \brief Whether the first element is aligned to `alignment` bytes. */
inline bool IsAligned(const DLTensor& t, size_t alignment) {
  if (t.data == nullptr) return t.byte_offset % alignment == 0;
  return (reinterpret_cast<uintptr_t>(t.data) + t.byte_offset) % alignment == 0;
}

namespace detail {
/*! \brief The tensor accessors shared by Tensor and TensorView, over a DLTensor. */
template <typename Derived>
class TensorAccessors {
 public:
  void* data_ptr() const noexcept { return T().data; }
  DLDevice device() const noexcept { return T().device; }
  int32_t ndim() const noexcept { return T().ndim; }
  DLDataType dtype() const noexcept { return T().dtype; }
  uint64_t byte_offset() const noexcept { return T().byte_offset; }
  ShapeView shape() const noexcept { return ShapeView(T().shape, static_cast<size_t>(T().ndim)); }
  /*! \brief Strides in elements; tensors made by the runtime always carry them. */
  ShapeView strides() const {
    if (T().strides == nullptr && T().ndim != 0) {
      TVM_FFI_THROW(ValueError) << "tensor has no strides array (compact row-major layout)";
    }
    return ShapeView(T().strides, static_cast<size_t>(T().ndim));
  }
  /*! \brief Extent of dimension `i`; negative `i` counts from the end. */
  int64_t size(int64_t i) const {
    return T().shape[Axis(i)];
  }
  int64_t stride(int64_t i) const {
    int64_t axis = Axis(i);
    if (T().strides == nullptr) {
      int64_t s = 1;
      for (int32_t d = T().ndim - 1; d > axis; --d) s *= T().shape[d];
      return s;
    }
    return T().strides[axis];
  }
  int64_t numel() const noexcept {
    int64_t n = 1;
    for (int32_t i = 0; i < T().ndim; ++i) n *= T().shape[i];
    return n;
  }
  bool IsContiguous() const noexcept { return ::tvm::ffi::IsContiguous(T()); }
  bool IsAligned(size_t alignment) const noexcept { return ::tvm::ffi::IsAligned(T(), alignment); }
  // The PyTorch spellings, for kernels ported from ATen code.
  int32_t dim() const noexcept { return ndim(); }
  ShapeView sizes() const noexcept { return shape(); }
  bool is_contiguous() const noexcept { return IsContiguous(); }

 protected:
  /*!
   * \brief This tensor's DLTensor with another shape and strides (element units), starting
   * `element_offset` elements further; on plain-address devices the offset goes into `data`.
   */
  DLTensor StridedPrototype(ShapeView shape, ShapeView strides,
                            std::optional<int64_t> element_offset) const {
    if (shape.size() != strides.size()) {
      TVM_FFI_THROW(ValueError) << "as_strided: shape has " << shape.size()
                                << " entries but strides has " << strides.size();
    }
    int64_t offset = element_offset.value_or(0);
    if (offset < 0) TVM_FFI_THROW(ValueError) << "as_strided: negative element_offset " << offset;
    DLTensor out = T();
    out.shape = const_cast<int64_t*>(shape.data());
    out.strides = const_cast<int64_t*>(strides.data());
    out.ndim = static_cast<int32_t>(shape.size());
    out.byte_offset += GetDataSize(offset, out.dtype);
    if (out.byte_offset != 0 && IsDirectAddressDevice(out.device)) {
      out.data = static_cast<char*>(out.data) + out.byte_offset;
      out.byte_offset = 0;
    }
    return out;
  }

 private:
  const DLTensor& T() const noexcept { return static_cast<const Derived*>(this)->dltensor_(); }
  int64_t Axis(int64_t i) const {
    int64_t axis = i < 0 ? i + T().ndim : i;
    if (axis < 0 || axis >= T().ndim) {
      TVM_FFI_THROW(IndexError) << "dimension " << i << " is out of range for a tensor with ndim "
                                << T().ndim;
    }
    return axis;
  }
};
}  // namespace detail

/*! \brief The ffi.Tensor object: header then the DLTensor. */
class TensorObj : public Object, public DLTensor {
 public:
  TensorObj() : DLTensor{} {}
  static constexpr int32_t _type_index = TypeIndex::kTVMFFITensor;
  static constexpr int32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = false;
  static constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFITensor, TensorObj, Object);
  /*! \brief A new DLPack view of this tensor that holds a reference to it (the runtime makes it,
   * so its deleter stays valid whichever library calls it). */
  DLManagedTensor* ToDLPack() const {
    DLManagedTensor* out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITensorToDLPack(Handle(), &out));
    return out;
  }
  DLManagedTensorVersioned* ToDLPackVersioned() const {
    DLManagedTensorVersioned* out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITensorToDLPackVersioned(Handle(), &out));
    return out;
  }

 private:
  TVMFFIObjectHandle Handle() const {
    return const_cast<Object*>(static_cast<const Object*>(this));
  }
};

namespace detail {
/*! \brief A tensor whose data comes from a user allocator; shape and strides follow it. */
template <typename TNDAlloc>
class TensorObjFromNDAlloc : public TensorObj {
 public:
  template <typename... ExtraArgs>
  TensorObjFromNDAlloc(TNDAlloc alloc, ShapeView shape, const int64_t* strides, DLDataType dtype,
                       DLDevice device, ExtraArgs&&... extra)
      : alloc_(std::move(alloc)) {
    int64_t* own = reinterpret_cast<int64_t*>(reinterpret_cast<char*>(this) + sizeof(*this));
    int32_t nd = static_cast<int32_t>(shape.size());
    int64_t running = 1;
    for (int32_t i = nd - 1; i >= 0; --i) {
      own[i] = shape[i];
      own[nd + i] = strides != nullptr ? strides[i] : running;
      running *= shape[i];
    }
    this->data = nullptr;
    this->device = device;
    this->ndim = nd;
    this->dtype = dtype;
    this->shape = own;
    this->strides = own + nd;
    this->byte_offset = 0;
    alloc_.AllocData(static_cast<DLTensor*>(this), std::forward<ExtraArgs>(extra)...);
  }
  ~TensorObjFromNDAlloc() { alloc_.FreeData(static_cast<DLTensor*>(this)); }

 private:
  TNDAlloc alloc_;
};
}  // namespace detail

/*! \brief Owning reference to a tensor. */
class Tensor : public ObjectRef, public detail::TensorAccessors<Tensor> {
 public:
  Tensor() = default;
  explicit Tensor(ObjectPtr<TensorObj> n) : ObjectRef(std::move(n)) {}
  explicit Tensor(UnsafeInit tag) : ObjectRef(tag) {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Tensor)
  TensorObj* operator->() const noexcept { return get(); }
  TensorObj* get() const noexcept {
    return const_cast<TensorObj*>(static_cast<const TensorObj*>(data_.get()));
  }
  using ContainerType = TensorObj;
  static constexpr bool _type_is_nullable = true;

  /*! \brief The DLTensor inside the object (valid while the tensor lives). */
  DLTensor* GetDLTensorPtr() const noexcept { return static_cast<DLTensor*>(get()); }
  /*!
   * \brief A new Tensor over this one's memory with `shape` and `strides` (copied into the
   * view), starting `element_offset` elements in; it keeps this tensor alive.
   */
  Tensor as_strided(ShapeView shape, ShapeView strides,
                    std::optional<int64_t> element_offset = std::nullopt) const {
    DLTensor prototype = StridedPrototype(shape, strides, element_offset);
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITensorCreateUnsafeView(
        detail::ObjectUnsafe::TVMFFIObjectPtrFromObjectRef(*this), &prototype, &out));
    return Tensor(detail::ObjectUnsafe::ObjectPtrFromOwned<TensorObj>(static_cast<TVMFFIObject*>(out)));
  }

  /*! \brief Allocates through the environment (e.g. the framework's allocator). */
  static Tensor FromEnvAlloc(int (*env_alloc)(DLTensor*, TVMFFIObjectHandle*), ShapeView shape,
                             DLDataType dtype, DLDevice device) {
    DLTensor prototype{};
    prototype.device = device;
    prototype.ndim = static_cast<int32_t>(shape.size());
    prototype.dtype = dtype;
    prototype.shape = const_cast<int64_t*>(shape.data());
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(env_alloc(&prototype, &out));
    return detail::ObjectUnsafe::ObjectRefFromOwned<Tensor>(static_cast<TVMFFIObject*>(out));
  }
  /*! \brief Allocates with `alloc.AllocData(DLTensor*, extra...)`; `alloc.FreeData` frees. */
  template <typename TNDAlloc, typename... ExtraArgs>
  static Tensor FromNDAlloc(TNDAlloc alloc, ShapeView shape, DLDataType dtype, DLDevice device,
                            ExtraArgs&&... extra) {
    return FromNDAllocImpl(std::move(alloc), shape, nullptr, dtype, device,
                           std::forward<ExtraArgs>(extra)...);
  }
  /*! \brief FromNDAlloc with explicit strides (in elements). */
  template <typename TNDAlloc, typename... ExtraArgs>
  static Tensor FromNDAllocStrided(TNDAlloc alloc, ShapeView shape, ShapeView strides,
                                   DLDataType dtype, DLDevice device, ExtraArgs&&... extra) {
    if (strides.size() != shape.size()) {
      TVM_FFI_THROW(ValueError) << "strides has " << strides.size() << " entries but shape has "
                                << shape.size();
    }
    return FromNDAllocImpl(std::move(alloc), shape, strides.data(), dtype, device,
                           std::forward<ExtraArgs>(extra)...);
  }
  /*! \brief Takes ownership of a legacy DLPack tensor (its deleter runs when this dies). */
  static Tensor FromDLPack(DLManagedTensor* from, size_t require_alignment = 0,
                           bool require_contiguous = false) {
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITensorFromDLPack(from, static_cast<int32_t>(require_alignment),
                                                   require_contiguous ? 1 : 0, &out));
    return detail::ObjectUnsafe::ObjectRefFromOwned<Tensor>(static_cast<TVMFFIObject*>(out));
  }
  /*! \brief Takes ownership of a versioned DLPack tensor. */
  static Tensor FromDLPackVersioned(DLManagedTensorVersioned* from, size_t require_alignment = 0,
                                    bool require_contiguous = false) {
    TVMFFIObjectHandle out = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITensorFromDLPackVersioned(
        from, static_cast<int32_t>(require_alignment), require_contiguous ? 1 : 0, &out));
    return detail::ObjectUnsafe::ObjectRefFromOwned<Tensor>(static_cast<TVMFFIObject*>(out));
  }
  /*! \brief A new DLPack tensor holding a reference to this one (see TensorObj::ToDLPack). */
  DLManagedTensor* ToDLPack() const { return Checked()->ToDLPack(); }
  DLManagedTensorVersioned* ToDLPackVersioned() const { return Checked()->ToDLPackVersioned(); }

 private:
  template <typename TNDAlloc, typename... ExtraArgs>
  static Tensor FromNDAllocImpl(TNDAlloc alloc, ShapeView shape, const int64_t* strides,
                                DLDataType dtype, DLDevice device, ExtraArgs&&... extra) {
    using Impl = detail::TensorObjFromNDAlloc<TNDAlloc>;
    for (int64_t extent : shape) {
      if (extent < 0) TVM_FFI_THROW(ValueError) << "negative extent in shape " << shape;
    }
    ObjectPtr<Impl> obj = make_inplace_array_object<Impl, int64_t>(
        2 * shape.size(), std::move(alloc), shape, strides, dtype, device,
        std::forward<ExtraArgs>(extra)...);
    return Tensor(ObjectPtr<TensorObj>(std::move(obj)));
  }
  /*! \brief The object; ValueError for an undefined tensor. */
  const TensorObj* Checked() const {
    if (!defined()) TVM_FFI_THROW(ValueError) << "the tensor is undefined (null)";
    return get();
  }
  const DLTensor& dltensor_() const noexcept { return *static_cast<const DLTensor*>(get()); }
  friend class detail::TensorAccessors<Tensor>;
};

/*! \brief A non-owning tensor: a copy of the DLTensor (shape/strides still point at the source). */
class TensorView : public detail::TensorAccessors<TensorView> {
 public:
  TensorView(const DLTensor* tensor) : tensor_(*tensor) {}  // NOLINT
  TensorView(const Tensor& tensor) : tensor_(*tensor.GetDLTensorPtr()) {}  // NOLINT
  TensorView(const TensorView&) = default;
  TensorView& operator=(const TensorView&) = default;
  TensorView(Tensor&&) = delete;  // would view a tensor that is about to die
  /*! \brief The viewed DLTensor (this copy). */
  const DLTensor* GetDLTensorPtr() const noexcept { return &tensor_; }
  const DLTensor* operator->() const noexcept { return &tensor_; }
  /*!
   * \brief A view with `shape` and `strides`, starting `element_offset` elements in. Nothing is
   * copied: both arrays and the data must outlive the returned view.
   */
  TensorView as_strided(ShapeView shape, ShapeView strides,
                        std::optional<int64_t> element_offset = std::nullopt) const {
    DLTensor prototype = StridedPrototype(shape, strides, element_offset);
    return TensorView(&prototype);
  }

 private:
  const DLTensor& dltensor_() const noexcept { return tensor_; }
  DLTensor tensor_;
  friend class detail::TensorAccessors<TensorView>;
};
static_assert(sizeof(TensorView) == sizeof(DLTensor), "TensorView is exactly a DLTensor");

/*! \brief Bytes taken by the elements of a tensor (ValueError for an undefined Tensor). */
inline size_t GetDataSize(const Tensor& tensor) {
  if (!tensor.defined()) TVM_FFI_THROW(ValueError) << "the tensor is undefined (null)";
  return GetDataSize(*tensor.GetDLTensorPtr());
}
inline size_t GetDataSize(const TensorView& tensor) { return GetDataSize(*tensor.GetDLTensorPtr()); }

namespace detail {
/*! \brief The DLTensor behind a value: a DLTensor* view or a Tensor object; else nullptr. */
inline const DLTensor* DLTensorFromAny(const TVMFFIAny* s) {
  if (s->type_index == TypeIndex::kTVMFFIDLTensorPtr) return static_cast<const DLTensor*>(s->v_ptr);
  if (s->type_index == TypeIndex::kTVMFFITensor) return TVMFFITensorGetDLTensorPtr(s->v_obj);
  return nullptr;
}
}  // namespace detail

template <>
struct TypeTraits<TensorView> : TypeTraitsBase {
  static constexpr bool storage_enabled = false;
  static void CopyToAnyView(const TensorView& v, TVMFFIAny* r) {
    r->type_index = TypeIndex::kTVMFFIDLTensorPtr;
    r->zero_padding = 0;
    r->v_ptr = const_cast<DLTensor*>(v.GetDLTensorPtr());
  }
  // An owning Any would keep a pointer into a view that owns nothing (often a temporary).
  static void MoveToAny(const TensorView&, TVMFFIAny*) {
    TVM_FFI_THROW(RuntimeError)
        << "TensorView cannot be held in Any as it does not retain ownership, use Tensor instead";
  }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index == TypeIndex::kTVMFFIDLTensorPtr;
  }
  static TensorView CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    return TensorView(static_cast<const DLTensor*>(s->v_ptr));
  }
  static std::optional<TensorView> TryCastFromAnyView(const TVMFFIAny* s) {
    if (const DLTensor* t = detail::DLTensorFromAny(s)) return TensorView(t);
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIDLTensorPtr; }
  static std::string TypeSchema() {
    return detail::QuoteTypeSchema(StaticTypeKey::kTVMFFIDLTensorPtr);
  }
};

template <>
struct TypeTraits<DLTensor*> : TypeTraitsBase {
  static constexpr bool storage_enabled = false;
  static void CopyToAnyView(DLTensor* v, TVMFFIAny* r) {
    r->type_index = TypeIndex::kTVMFFIDLTensorPtr;
    r->zero_padding = 0;
    r->v_ptr = v;
  }
  // An owning Any cannot keep the memory behind a raw pointer alive; AnyView can pass it.
  static void MoveToAny(DLTensor*, TVMFFIAny*) {
    TVM_FFI_THROW(RuntimeError)
        << "DLTensor* cannot be held in Any as it does not retain ownership, use Tensor instead";
  }
  static bool CheckAnyStrict(const TVMFFIAny* s) {
    return s->type_index == TypeIndex::kTVMFFIDLTensorPtr;
  }
  static DLTensor* CopyFromAnyViewAfterCheck(const TVMFFIAny* s) {
    return static_cast<DLTensor*>(s->v_ptr);
  }
  static std::optional<DLTensor*> TryCastFromAnyView(const TVMFFIAny* s) {
    if (const DLTensor* t = detail::DLTensorFromAny(s)) return const_cast<DLTensor*>(t);
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIDLTensorPtr; }
  static std::string TypeSchema() {
    return detail::QuoteTypeSchema(StaticTypeKey::kTVMFFIDLTensorPtr);
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_TENSOR_H_
