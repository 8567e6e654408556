/*
 * tvm/ffi/object.h -- the object model: Object (header-first, no vtable, so an Object* is the
 * C handle), the intrusive pointers ObjectPtr/WeakObjectPtr, the reference base ObjectRef and
 * the macros that give a class its type key and runtime type index.
 */
#ifndef TVM_FFI_OBJECT_H_
#define TVM_FFI_OBJECT_H_

#include <tvm/ffi/base_detail.h>

#include <optional>
#include <string>
#include <string_view>

namespace tvm {
namespace ffi {

// The DLPack structs under their C names inside tvm::ffi too (docs write ffi::DLDevice).
using ::DLDataType;
using ::DLDevice;
using ::DLTensor;

/*! \brief The type index enum of the C ABI, usable as TypeIndex::kTVMFFIInt. */
using TypeIndex = ::TVMFFITypeIndex;

/*! \brief Type keys of the built-in types, as the runtime names them. */
struct StaticTypeKey {
  static constexpr const char* kTVMFFIAny = "Any";
  static constexpr const char* kTVMFFINone = "None";
  static constexpr const char* kTVMFFIBool = "bool";
  static constexpr const char* kTVMFFIInt = "int";
  static constexpr const char* kTVMFFIFloat = "float";
  static constexpr const char* kTVMFFIOpaquePtr = "void*";
  static constexpr const char* kTVMFFIDataType = "DataType";
  static constexpr const char* kTVMFFIDevice = "Device";
  static constexpr const char* kTVMFFIDLTensorPtr = "DLTensor*";
  static constexpr const char* kTVMFFIRawStr = "const char*";
  static constexpr const char* kTVMFFIByteArrayPtr = "TVMFFIByteArray*";
  static constexpr const char* kTVMFFIObjectRValueRef = "ObjectRValueRef";
  static constexpr const char* kTVMFFISmallStr = "ffi.SmallStr";
  static constexpr const char* kTVMFFISmallBytes = "ffi.SmallBytes";
  static constexpr const char* kTVMFFIObject = "ffi.Object";
  static constexpr const char* kTVMFFIStr = "ffi.String";
  static constexpr const char* kTVMFFIBytes = "ffi.Bytes";
  static constexpr const char* kTVMFFIError = "ffi.Error";
  static constexpr const char* kTVMFFIFunction = "ffi.Function";
  static constexpr const char* kTVMFFIShape = "ffi.Shape";
  static constexpr const char* kTVMFFITensor = "ffi.Tensor";
  static constexpr const char* kTVMFFIArray = "ffi.Array";
  static constexpr const char* kTVMFFIMap = "ffi.Map";
  static constexpr const char* kTVMFFIModule = "ffi.Module";
  static constexpr const char* kTVMFFIList = "ffi.List";
  static constexpr const char* kTVMFFIDict = "ffi.Dict";
  static constexpr const char* kTVMFFIBigInt = "ffi.BigInt";
  static constexpr const char* kTVMFFIUnchanged = "ffi.Unchanged";
  static constexpr const char* kTVMFFIVisitInterrupt = "ffi.VisitInterrupt";
  static constexpr const char* kTVMFFIOpaquePyObject = "ffi.OpaquePyObject";
};

/*! \brief The registered type key of a type index (asks the runtime's type table). */
inline std::string TypeIndexToTypeKey(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  return std::string(info->type_key.data, info->type_key.size);
}

namespace detail {
struct ObjectUnsafe;
template <typename TargetType>
bool IsObjectInstance(int32_t object_type_index);
/*! \brief Registers (or finds) a dynamic type; the runtime returns a stable index per key. */
TVM_FFI_COLD_CODE inline int32_t GetOrAllocTypeIndex(const char* type_key, int32_t static_index,
                                                     int32_t depth, int32_t child_slots,
                                                     bool can_overflow, int32_t parent_index) {
  TVMFFIByteArray key{type_key, CStrLen(type_key)};
  return TVMFFITypeGetOrAllocIndex(&key, static_index, depth, child_slots, can_overflow ? 1 : 0,
                                   parent_index);
}
}  // namespace detail

/*!
 * \brief Base of every FFI object. The C header is the first (and only) base member, so a
 * pointer to an Object is the TVMFFIObjectHandle the C API talks about.
 */
class Object {
 protected:
  TVMFFIObject header_;

 public:
  Object() noexcept { ResetHeader(); }
  // Copying an object copies its contents only; the copy starts with its own fresh header.
  Object(const Object&) noexcept { ResetHeader(); }
  Object(Object&&) noexcept { ResetHeader(); }
  Object& operator=(const Object&) noexcept { return *this; }
  Object& operator=(Object&&) noexcept { return *this; }

  /*! \brief The runtime type index of this object. */
  int32_t type_index() const noexcept { return header_.type_index; }
  /*! \brief The type key, e.g. "ffi.Tensor". */
  std::string GetTypeKey() const { return TypeIndexToTypeKey(header_.type_index); }
  /*! \brief The type key registered for `type_index`. */
  static std::string TypeIndex2Key(int32_t type_index) { return TypeIndexToTypeKey(type_index); }
  /*! \brief The type-key hash the runtime computed at registration. */
  uint64_t GetTypeKeyHash() const { return TVMFFIGetTypeInfo(header_.type_index)->type_key_hash; }
  /*! \brief Whether this object is a TargetType (or a subclass of it). */
  template <typename TargetType>
  bool IsInstance() const {
    return detail::IsObjectInstance<TargetType>(header_.type_index);
  }
  /*! \brief Strong reference count (racy; for tests and copy-on-write decisions). */
  uint64_t use_count() const noexcept {  // uint64_t, as the reference declares it
    return __atomic_load_n(&header_.combined_ref_count, __ATOMIC_RELAXED) & 0xFFFFFFFFu;
  }
  bool unique() const noexcept { return use_count() == 1; }

  static constexpr const char* _type_key = StaticTypeKey::kTVMFFIObject;
  static constexpr int32_t _type_index = TypeIndex::kTVMFFIObject;
  static constexpr int32_t _type_depth = 0;
  static constexpr int32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = true;
  static constexpr bool _type_final = false;
  static constexpr bool _type_mutable = false;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  static int32_t _GetOrAllocRuntimeTypeIndex() noexcept { return TypeIndex::kTVMFFIObject; }
  static int32_t RuntimeTypeIndex() noexcept { return TypeIndex::kTVMFFIObject; }

 private:
  void ResetHeader() noexcept {
    header_.combined_ref_count = 0;
    header_.type_index = 0;
    header_.__padding = 0;
    header_.deleter = nullptr;
  }
  friend struct detail::ObjectUnsafe;
};

/*! \brief Owning intrusive pointer to an object of type T. */
template <typename T>
class ObjectPtr {
 public:
  ObjectPtr() noexcept = default;
  ObjectPtr(std::nullptr_t) noexcept {}  // NOLINT(google-explicit-constructor)
  ObjectPtr(const ObjectPtr& other) noexcept : data_(other.data_) { IncRef(); }
  ObjectPtr(ObjectPtr&& other) noexcept : data_(other.data_) { other.data_ = nullptr; }
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  ObjectPtr(const ObjectPtr<U>& other) noexcept : data_(other.data_) {  // NOLINT
    IncRef();
  }
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  ObjectPtr(ObjectPtr<U>&& other) noexcept : data_(other.data_) {  // NOLINT
    other.data_ = nullptr;
  }
  ~ObjectPtr() { DecRef(); }

  ObjectPtr& operator=(ObjectPtr other) noexcept {
    swap(other);
    return *this;
  }
  void swap(ObjectPtr& other) noexcept { std::swap(data_, other.data_); }
  void reset() noexcept {
    DecRef();
    data_ = nullptr;
  }

  T* get() const noexcept { return data_; }
  T* operator->() const noexcept { return data_; }
  T& operator*() const noexcept { return *data_; }
  explicit operator bool() const noexcept { return data_ != nullptr; }
  int32_t use_count() const noexcept {
    return data_ != nullptr ? static_cast<int32_t>(data_->use_count()) : 0;
  }
  bool unique() const noexcept { return use_count() == 1; }

  bool operator==(const ObjectPtr& other) const noexcept { return data_ == other.data_; }
  bool operator!=(const ObjectPtr& other) const noexcept { return data_ != other.data_; }
  bool operator==(std::nullptr_t) const noexcept { return data_ == nullptr; }
  bool operator!=(std::nullptr_t) const noexcept { return data_ != nullptr; }

 private:
  void IncRef() noexcept {
    if (data_ != nullptr) detail::ObjectIncRef(Header(data_));
  }
  void DecRef() noexcept {
    if (data_ != nullptr) detail::ObjectDecRef(Header(data_));
  }
  static TVMFFIObject* Header(const T* p) noexcept {
    return reinterpret_cast<TVMFFIObject*>(const_cast<Object*>(static_cast<const Object*>(p)));
  }
  T* data_{nullptr};

  template <typename>
  friend class ObjectPtr;
  template <typename>
  friend class WeakObjectPtr;
  friend struct detail::ObjectUnsafe;
};

/*!
 * \brief An ObjectPtr that is never null: same layout and the same copy, move and upcast rules,
 * but nothing in its safe API makes an empty one (no default constructor, no reset). Use it
 * where "always an object" is part of the type, e.g. Array<Arc<T>> rejects None elements.
 * Only a moved-from Arc, or one made with UnsafeInit, is null; fill it before use.
 */
template <typename T>
class Arc : public ObjectPtr<T> {
 public:
  Arc() = delete;
  Arc(std::nullptr_t) = delete;
  Arc(const Arc&) = default;
  Arc(Arc&&) noexcept = default;
  Arc& operator=(const Arc&) = default;
  Arc& operator=(Arc&&) noexcept = default;
  template <typename U, std::enable_if_t<std::is_base_of_v<T, U>, int> = 0>
  Arc(const Arc<U>& other)  // NOLINT(google-explicit-constructor)
      : ObjectPtr<T>(static_cast<const ObjectPtr<U>&>(other)) {}
  template <typename U, std::enable_if_t<std::is_base_of_v<T, U>, int> = 0>
  Arc(Arc<U>&& other)  // NOLINT(google-explicit-constructor)
      : ObjectPtr<T>(std::move(static_cast<ObjectPtr<U>&>(other))) {}
  /*! \brief An empty Arc, for code that fills it right after (deserialisers, say). */
  explicit Arc(UnsafeInit) noexcept : ObjectPtr<T>(nullptr) {}

 private:
  explicit Arc(ObjectPtr<T> ptr) noexcept : ObjectPtr<T>(std::move(ptr)) {}
  using ObjectPtr<T>::reset;
  using ObjectPtr<T>::swap;
  template <typename>
  friend class Arc;
  friend struct detail::ObjectUnsafe;
};

/*! \brief Non-owning pointer that can be promoted back to an ObjectPtr while the object lives. */
template <typename T>
class WeakObjectPtr {
 public:
  WeakObjectPtr() noexcept = default;
  WeakObjectPtr(const ObjectPtr<T>& strong) noexcept : data_(strong.data_) {  // NOLINT
    if (data_ != nullptr) detail::ObjectIncWeakRef(Header());
  }
  WeakObjectPtr(const WeakObjectPtr& other) noexcept : data_(other.data_) {
    if (data_ != nullptr) detail::ObjectIncWeakRef(Header());
  }
  WeakObjectPtr(WeakObjectPtr&& other) noexcept : data_(other.data_) { other.data_ = nullptr; }
  ~WeakObjectPtr() { reset(); }
  WeakObjectPtr& operator=(WeakObjectPtr other) noexcept {
    std::swap(data_, other.data_);
    return *this;
  }
  void reset() noexcept {
    if (data_ != nullptr) detail::ObjectDecWeakRef(Header());
    data_ = nullptr;
  }
  WeakObjectPtr(std::nullptr_t) noexcept {}  // NOLINT(google-explicit-constructor)
  void swap(WeakObjectPtr& other) noexcept { std::swap(data_, other.data_); }
  /*! \brief Strong references left (0 once the object is destroyed or for a null pointer). */
  int32_t use_count() const noexcept {
    if (data_ == nullptr) return 0;
    return static_cast<int32_t>(
        __atomic_load_n(&Header()->combined_ref_count, __ATOMIC_RELAXED) & 0xFFFFFFFFu);
  }
  /*! \brief A strong pointer, or null once the object has been destroyed. */
  ObjectPtr<T> lock() const noexcept {
    ObjectPtr<T> out;
    if (data_ != nullptr && detail::ObjectTryPromoteWeak(Header())) out.data_ = data_;
    return out;
  }
  bool expired() const noexcept {
    return data_ == nullptr ||
           (__atomic_load_n(&Header()->combined_ref_count, __ATOMIC_RELAXED) & 0xFFFFFFFFu) == 0;
  }

 private:
  TVMFFIObject* Header() const noexcept {
    return reinterpret_cast<TVMFFIObject*>(const_cast<Object*>(static_cast<const Object*>(data_)));
  }
  T* data_{nullptr};
};

/*! \brief Base of all typed references (Tensor, Function, Array, user types ...). */
class ObjectRef {
 public:
  ObjectRef() = default;
  explicit ObjectRef(ObjectPtr<Object> data) noexcept : data_(std::move(data)) {}
  explicit ObjectRef(UnsafeInit) noexcept {}
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(ObjectRef)

  bool defined() const noexcept { return data_ != nullptr; }
  const Object* get() const noexcept { return data_.get(); }
  const Object* operator->() const noexcept { return data_.get(); }
  bool same_as(const ObjectRef& other) const noexcept { return data_ == other.data_; }
  bool operator==(const ObjectRef& other) const noexcept { return data_ == other.data_; }
  bool operator!=(const ObjectRef& other) const noexcept { return data_ != other.data_; }
  bool operator<(const ObjectRef& other) const noexcept { return data_.get() < other.data_.get(); }
  int32_t use_count() const noexcept { return data_.use_count(); }
  bool unique() const noexcept { return data_.unique(); }
  /*! \brief Runtime type index; kTVMFFINone for an undefined reference. */
  int32_t type_index() const noexcept {
    return data_ != nullptr ? data_->type_index() : TypeIndex::kTVMFFINone;
  }
  std::string GetTypeKey() const { return TypeIndexToTypeKey(type_index()); }
  /*! \brief The object as a T, or nullptr when it is not one. */
  template <typename ObjectType, typename = std::enable_if_t<std::is_base_of_v<Object, ObjectType>>>
  const ObjectType* as() const noexcept {
    if (data_ != nullptr && data_->IsInstance<ObjectType>()) {
      return static_cast<const ObjectType*>(data_.get());
    }
    return nullptr;
  }
  /*!
   * \brief This reference as a RefType when its object is one (RefType's full type check, so
   * typed containers check their elements), else nullopt. A null reference gives a null
   * RefType when RefType is nullable. The rvalue form moves the reference out.
   * as_or_throw raises TypeError "Cannot treat type `A` as type `B`" instead of nullopt.
   * Defined in type_traits.h, next to the checks they use.
   */
  template <typename RefType, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, RefType>>>
  std::optional<RefType> as() const&;
  template <typename RefType, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, RefType>>>
  std::optional<RefType> as() &&;
  template <typename RefType, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, RefType>>>
  RefType as_or_throw() const&;
  template <typename RefType, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, RefType>>>
  RefType as_or_throw() &&;

  using ContainerType = Object;
  static constexpr bool _type_is_nullable = true;
  /*! \brief Whether every object of ContainerType (and only those) fits this reference type. */
  static constexpr bool _type_container_is_exact = true;

 protected:
  /*! \brief The object, writable: for subclasses whose methods mutate their own node. */
  Object* get_mutable() const noexcept { return data_.get(); }

  ObjectPtr<Object> data_;
  friend struct detail::ObjectUnsafe;
};

/*! \brief Whether T is an object type (specialise it for a type still incomplete at use). */
template <typename T>
inline constexpr bool is_object_subclass_v = std::is_base_of_v<Object, T>;

/*!
 * \brief Whether every ObjectType object fits RefType with no run-time check: true when
 * RefType's container type is exact and ObjectType derives from it. A reference type that
 * accepts several unrelated object types specialises this to say which. Defined only for
 * ObjectRef subclasses (not Optional, which holds "none" besides the object).
 */
template <typename RefType, typename ObjectType,
          typename = std::enable_if_t<std::is_base_of_v<ObjectRef, RefType> &&
                                      std::is_base_of_v<Object, ObjectType>>>
inline constexpr bool object_ref_contains_v =
    RefType::_type_container_is_exact &&
    std::is_base_of_v<typename RefType::ContainerType, ObjectType>;

/*! \brief Hash and equality of references by identity (for std containers). */
template <typename... V>
class Variant;

struct ObjectPtrHash {
  size_t operator()(const ObjectRef& a) const noexcept {
    return reinterpret_cast<size_t>(a.get());
  }
  template <typename T>
  size_t operator()(const ObjectPtr<T>& a) const noexcept {
    return reinterpret_cast<size_t>(a.get());
  }
  /*! \brief For a Variant of object references (defined in container/variant.h). */
  template <typename... V>
  size_t operator()(const Variant<V...>& a) const noexcept;
};
struct ObjectPtrEqual {
  bool operator()(const ObjectRef& a, const ObjectRef& b) const noexcept { return a.same_as(b); }
  template <typename T>
  bool operator()(const ObjectPtr<T>& a, const ObjectPtr<T>& b) const noexcept {
    return a == b;
  }
  template <typename... V>
  bool operator()(const Variant<V...>& a, const Variant<V...>& b) const noexcept;
};

namespace detail {

/*! \brief Conversions between handles, pointers and references that bypass ref-count safety. */
struct ObjectUnsafe {
  static TVMFFIObject* GetHeader(const Object* obj) noexcept {
    return const_cast<TVMFFIObject*>(&obj->header_);
  }
  static Object* ObjectFromHandle(void* handle) noexcept {
    return reinterpret_cast<Object*>(handle);
  }
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromOwned(Object* raw) noexcept {
    ObjectPtr<T> out;
    out.data_ = static_cast<T*>(raw);
    return out;
  }
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromOwned(TVMFFIObject* raw) noexcept {
    return ObjectPtrFromOwned<T>(reinterpret_cast<Object*>(raw));
  }
  /*! \brief Wraps a pointer known to be non-null as an Arc. */
  template <typename T>
  static Arc<T> ArcFromObjectPtr(ObjectPtr<T>&& ptr) noexcept {
    return Arc<T>(std::move(ptr));
  }
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromUnowned(Object* raw) noexcept {
    if (raw != nullptr) ObjectIncRef(GetHeader(raw));
    return ObjectPtrFromOwned<T>(raw);
  }
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromUnowned(TVMFFIObject* raw) noexcept {
    return ObjectPtrFromUnowned<T>(reinterpret_cast<Object*>(raw));
  }
  /*! \brief Releases the pointer's reference to the caller as a raw header. */
  template <typename T>
  static TVMFFIObject* MoveObjectPtrToTVMFFIObjectPtr(ObjectPtr<T>&& ptr) noexcept {
    T* raw = ptr.data_;
    ptr.data_ = nullptr;
    return raw == nullptr ? nullptr : GetHeader(raw);
  }
  static TVMFFIObject* MoveObjectRefToTVMFFIObjectPtr(ObjectRef&& ref) noexcept {
    return MoveObjectPtrToTVMFFIObjectPtr(std::move(ref.data_));
  }
  static TVMFFIObject* TVMFFIObjectPtrFromObjectRef(const ObjectRef& ref) noexcept {
    return ref.data_ == nullptr ? nullptr : GetHeader(ref.data_.get());
  }
  template <typename T>
  static TVMFFIObject* TVMFFIObjectPtrFromObjectPtr(const ObjectPtr<T>& ptr) noexcept {
    return ptr.data_ == nullptr ? nullptr : GetHeader(ptr.data_);
  }
  template <typename T>
  static const ObjectPtr<Object>& GetObjectPtr(const T& ref) noexcept {
    return ref.data_;
  }
  template <typename TRef, typename TObj>
  static TRef ObjectRefFromObjectPtr(ObjectPtr<TObj> ptr) noexcept {
    TRef out(UnsafeInit{});
    out.data_ = std::move(ptr);
    return out;
  }
  template <typename TRef>
  static TRef ObjectRefFromUnowned(TVMFFIObject* raw) noexcept {
    return ObjectRefFromObjectPtr<TRef>(ObjectPtrFromUnowned<Object>(raw));
  }
  template <typename TRef>
  static TRef ObjectRefFromOwned(TVMFFIObject* raw) noexcept {
    return ObjectRefFromObjectPtr<TRef>(ObjectPtrFromOwned<Object>(raw));
  }
  static void IncRefObjectHandle(TVMFFIObjectHandle handle) noexcept {
    if (handle != nullptr) ObjectIncRef(static_cast<TVMFFIObject*>(handle));
  }
  /*! \brief The object a handle points at, as T*, with no reference taken. */
  template <typename T>
  static T* RawObjectPtrFromUnowned(TVMFFIObject* raw) noexcept {
    return static_cast<T*>(reinterpret_cast<Object*>(raw));  // through Object: T may lay out apart
  }
  static Object* RawObjectPtrFromObjectRef(const ObjectRef& ref) noexcept { return ref.data_.data_; }
  /*! \brief The reference's pointer as ObjectPtr<T> (shared, or moved out of an rvalue). */
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromObjectRef(const ObjectRef& ref) noexcept {
    return ObjectPtrFromUnowned<T>(ref.data_.data_);
  }
  template <typename T>
  static ObjectPtr<T> ObjectPtrFromObjectRef(ObjectRef&& ref) noexcept {
    Object* raw = ref.data_.data_;
    ref.data_.data_ = nullptr;
    return ObjectPtrFromOwned<T>(raw);
  }
  /*! \brief The allocation header placed just before an object made by the runtime allocator. */
  static TVMFFIObjectAllocHeader* GetObjectAllocHeaderFromPtr(void* ptr) noexcept {
    return reinterpret_cast<TVMFFIObjectAllocHeader*>(static_cast<char*>(ptr) -
                                                      sizeof(TVMFFIObjectAllocHeader));
  }
  static void DecRefObjectHandle(TVMFFIObjectHandle handle) noexcept {
    if (handle != nullptr) ObjectDecRef(static_cast<TVMFFIObject*>(handle));
  }
};

/*!
 * \brief Whether an object of runtime type `object_type_index` is a TargetType: equal index,
 * within the reserved child slots, or (when children may overflow) an ancestor walk.
 */
template <typename TargetType>
inline bool IsObjectInstance(int32_t object_type_index) {
  static_assert(std::is_base_of_v<Object, TargetType>, "IsInstance needs an Object subclass");
  if constexpr (std::is_same_v<std::remove_cv_t<TargetType>, Object>) {
    return true;
  } else {
    const int32_t target = TargetType::RuntimeTypeIndex();
    if (object_type_index == target) return true;
    if constexpr (TargetType::_type_final) {
      return false;
    } else {
      if (object_type_index < target) return false;
      if constexpr (TargetType::_type_child_slots != 0) {
        if (object_type_index <= target + static_cast<int32_t>(TargetType::_type_child_slots)) return true;
      }
      if constexpr (!TargetType::_type_child_slots_can_overflow) {
        return false;
      } else {
        const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(object_type_index);
        return info->type_depth > TargetType::_type_depth &&
               info->type_ancestors[TargetType::_type_depth]->type_index == target;
      }
    }
  }
}
}  // namespace detail

/*! \brief Returns a reference to an object we hold a pointer to (adds a strong ref). */
template <typename RefType, typename ObjType>
inline RefType GetRef(const ObjType* ptr) {
  static_assert(std::is_base_of_v<typename RefType::ContainerType, ObjType>,
                "GetRef: the object type is not the reference's ContainerType or a subclass");
  return detail::ObjectUnsafe::ObjectRefFromObjectPtr<RefType>(
      detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(
          const_cast<Object*>(static_cast<const Object*>(ptr))));
}

/*! \brief The ObjectPtr behind a reference. */
template <typename ObjType>
inline ObjectPtr<ObjType> GetObjectPtr(const ObjectRef& ref) {
  const ObjectPtr<Object>& ptr = detail::ObjectUnsafe::GetObjectPtr(ref);
  return detail::ObjectUnsafe::ObjectPtrFromUnowned<ObjType>(const_cast<Object*>(ptr.get()));
}

/*!
 * \brief A new strong reference to an object known by its address, typed as BaseType (one of its
 * bases): how an object method keeps itself alive, `GetObjectPtr<Object>(this)`.
 */
template <typename BaseType, typename ObjType>
inline ObjectPtr<BaseType> GetObjectPtr(ObjType* ptr) {
  static_assert(std::is_base_of_v<BaseType, std::remove_cv_t<ObjType>>,
                "GetObjectPtr<BaseType>(ptr): BaseType must be a base of the pointed-to type");
  return detail::ObjectUnsafe::ObjectPtrFromUnowned<BaseType>(
      const_cast<Object*>(static_cast<const Object*>(ptr)));
}

}  // namespace ffi
}  // namespace tvm

// ---- type declaration macros (used inside object classes) ----

// Built-in type whose index is fixed by the ABI (the class defines _type_index itself).
#define TVM_FFI_DECLARE_OBJECT_INFO_STATIC(TypeKey, TypeName, ParentType)                        \
  static constexpr const char* _type_key = TypeKey;                                             \
  static constexpr int32_t _type_depth = ParentType::_type_depth + 1;                           \
  static int32_t _GetOrAllocRuntimeTypeIndex() {                                                \
    static_assert(!ParentType::_type_final, "the parent type is declared final");               \
    static int32_t tindex [[maybe_unused]] = ::tvm::ffi::detail::GetOrAllocTypeIndex(           \
        TypeName::_type_key, TypeName::_type_index, TypeName::_type_depth,                      \
        TypeName::_type_child_slots, TypeName::_type_child_slots_can_overflow,                  \
        ParentType::_GetOrAllocRuntimeTypeIndex());                                             \
    return TypeName::_type_index;                                                               \
  }                                                                                             \
  static int32_t RuntimeTypeIndex() noexcept { return TypeName::_type_index; }

// Type whose index the runtime assigns at load time, keyed by _type_key (already declared).
#define TVM_FFI_DECLARE_OBJECT_INFO_PREDEFINED_TYPE_KEY(TypeName, ParentType)                    \
  static constexpr int32_t _type_depth = ParentType::_type_depth + 1;                           \
  TVM_FFI_COLD_CODE static int32_t _GetOrAllocRuntimeTypeIndex() {                              \
    static_assert(!ParentType::_type_final, "the parent type is declared final");               \
    static_assert(TypeName::_type_child_slots == 0 || ParentType::_type_child_slots == 0 ||     \
                      TypeName::_type_child_slots < ParentType::_type_child_slots,              \
                  "a type must reserve fewer child slots than its parent");                     \
    static const int32_t tindex = ::tvm::ffi::detail::GetOrAllocTypeIndex(                      \
        TypeName::_type_key, -1, TypeName::_type_depth, TypeName::_type_child_slots,            \
        TypeName::_type_child_slots_can_overflow, ParentType::_GetOrAllocRuntimeTypeIndex());   \
    return tindex;                                                                              \
  }                                                                                             \
  static inline const int32_t _type_index = _GetOrAllocRuntimeTypeIndex();                      \
  static int32_t RuntimeTypeIndex() noexcept { return _GetOrAllocRuntimeTypeIndex(); }

#define TVM_FFI_DECLARE_OBJECT_INFO(TypeKey, TypeName, ParentType) \
  static constexpr const char* _type_key = TypeKey;                \
  TVM_FFI_DECLARE_OBJECT_INFO_PREDEFINED_TYPE_KEY(TypeName, ParentType)

#define TVM_FFI_DECLARE_OBJECT_INFO_FINAL(TypeKey, TypeName, ParentType) \
  static constexpr int32_t _type_child_slots [[maybe_unused]] = 0;       \
  static constexpr bool _type_final [[maybe_unused]] = true;             \
  TVM_FFI_DECLARE_OBJECT_INFO(TypeKey, TypeName, ParentType)

// A C++ view of an object type that another library registers: only looks the key up (at first
// use; tvm::ffi::TypeKeyToIndex from function.h, which throws when the key is unknown) and never
// allocates a type index. TypeDepth is the type's depth in the registered hierarchy.
#define TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP(RegisteredKey, TypeDepth)               \
  static constexpr const char* _type_key = RegisteredKey;                          \
  static constexpr int32_t _type_depth = TypeDepth;                                \
  static constexpr bool _type_mutable = true;                                      \
  static constexpr bool _type_final = false;                                       \
  static constexpr uint32_t _type_child_slots = 0;                                 \
  static constexpr bool _type_child_slots_can_overflow = true;                     \
  static int32_t RuntimeTypeIndex() {                                              \
    static const int32_t type_index = ::tvm::ffi::TypeKeyToIndex(RegisteredKey);   \
    return type_index;                                                             \
  }

// Reference-class boilerplate: constructors, operator->/get() typed as ObjectName.
#define TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(TypeName, ParentType, ObjectName)           \
  explicit TypeName(::tvm::ffi::UnsafeInit tag) : ParentType(tag) {}                             \
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(TypeName)                                          \
  using __PtrType =                                                                              \
      std::conditional_t<(ObjectName::_type_mutable), ObjectName*, const ObjectName*>;           \
  __PtrType operator->() const { return static_cast<__PtrType>(data_.get()); }                   \
  __PtrType get() const { return static_cast<__PtrType>(data_.get()); }                          \
  [[maybe_unused]] static constexpr bool _type_is_nullable = false;                              \
  using ContainerType = ObjectName

#define TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(TypeName, ParentType, ObjectName)              \
  TypeName() = default;                                                                          \
  explicit TypeName(::tvm::ffi::ObjectPtr<ObjectName> n) : ParentType(std::move(n)) {}           \
  explicit TypeName(::tvm::ffi::UnsafeInit tag) : ParentType(tag) {}                             \
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(TypeName)                                          \
  using __PtrType =                                                                              \
      std::conditional_t<(ObjectName::_type_mutable), ObjectName*, const ObjectName*>;           \
  __PtrType operator->() const { return static_cast<__PtrType>(data_.get()); }                   \
  __PtrType get() const { return static_cast<__PtrType>(data_.get()); }                          \
  [[maybe_unused]] static constexpr bool _type_is_nullable = true;                               \
  using ContainerType = ObjectName

#endif  // TVM_FFI_OBJECT_H_
