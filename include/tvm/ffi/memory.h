/*
 * tvm/ffi/memory.h -- allocating objects in this library: make_object and the in-place array
 * variant. The object's deleter lives in the allocating library, as the ABI expects; the
 * memory comes from ::operator new and goes back through ::operator delete.
 */
#ifndef TVM_FFI_MEMORY_H_
#define TVM_FFI_MEMORY_H_

#include <tvm/ffi/object.h>

#include <cstdlib>
#include <new>

namespace tvm {
namespace ffi {
namespace detail {

/*!
 * \brief Raw memory of `size` bytes aligned to `align` (a power of two), for buffers a library
 * manages itself; std::bad_alloc when none is left. Give it back with AlignedFree.
 */
inline void* AlignedAlloc(size_t size, size_t align) {
  void* ptr = nullptr;
#ifdef _MSC_VER
  ptr = _aligned_malloc(size, align);
#else
  if (align <= alignof(std::max_align_t)) {
    ptr = std::malloc(size);  // malloc already aligns this far
  } else if (posix_memalign(&ptr, align, size) != 0) {
    ptr = nullptr;
  }
#endif
  if (ptr == nullptr) throw std::bad_alloc();
  return ptr;
}

/*! \brief Frees memory from AlignedAlloc (null is fine). */
inline void AlignedFree(void* ptr) noexcept {
#ifdef _MSC_VER
  _aligned_free(ptr);
#else
  std::free(ptr);
#endif
}

/*!
 * \brief Memory for a T plus `bytes - sizeof(T)` tail bytes. Over-aligned types (alignas(64),
 * say) take the aligned operator new, and FreeObjectMemory gives it back the same way.
 */
template <typename T>
void* AllocObjectMemory(size_t bytes) {
  if constexpr (alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
    return ::operator new(bytes, std::align_val_t(alignof(T)));
  } else {
    return ::operator new(bytes);
  }
}
template <typename T>
void FreeObjectMemory(void* mem) noexcept {
  if constexpr (alignof(T) > __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
    ::operator delete(mem, std::align_val_t(alignof(T)));
  } else {
    ::operator delete(mem);
  }
}

/*! \brief Deleter of objects made by make_object<T>: destroy on strong, free on weak. */
template <typename T>
void ObjectDeleter(void* self, int flags) {
  Object* obj = reinterpret_cast<Object*>(self);
  T* typed = static_cast<T*>(obj);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) typed->~T();
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) FreeObjectMemory<T>(static_cast<void*>(typed));
}

template <typename T>
ObjectPtr<T> AdoptNewObject(T* typed) {
  TVMFFIObject* header = ObjectUnsafe::GetHeader(typed);
  header->combined_ref_count = kFreshCount;
  header->type_index = T::RuntimeTypeIndex();
  header->deleter = &ObjectDeleter<T>;
  return ObjectUnsafe::ObjectPtrFromOwned<T>(static_cast<Object*>(typed));
}

template <typename T>
constexpr void CheckAllocatable() {
  static_assert(std::is_base_of_v<Object, T>, "make_object<T>: T must derive from tvm::ffi::Object");
}
}  // namespace detail

/*! \brief The deleter an object header carries (TVMFFIObject::deleter): object, release flags. */
using FObjectDeleter = void (*)(void* obj, int flags);

/*! \brief Allocates a T (constructed from args) with one strong reference. */
template <typename T, typename... Args>
inline ObjectPtr<T> make_object(Args&&... args) {
  detail::CheckAllocatable<T>();
  void* mem = detail::AllocObjectMemory<T>(sizeof(T));
  T* typed;
  try {
    typed = new (mem) T(std::forward<Args>(args)...);
  } catch (...) {
    detail::FreeObjectMemory<T>(mem);
    throw;
  }
  return detail::AdoptNewObject(typed);
}

/*! \brief make_object<T>, typed as the never-null Arc<T>. */
template <typename T, typename... Args>
inline Arc<T> make_arc(Args&&... args) {
  return detail::ObjectUnsafe::ArcFromObjectPtr(make_object<T>(std::forward<Args>(args)...));
}

/*!
 * \brief Allocates a T followed by room for `num_elems` ElemType values (uninitialised);
 * the object's constructor and destructor manage that tail.
 */
template <typename T, typename ElemType, typename... Args>
inline ObjectPtr<T> make_inplace_array_object(size_t num_elems, Args&&... args) {
  detail::CheckAllocatable<T>();
  static_assert(sizeof(T) % alignof(ElemType) == 0, "tail elements would be misaligned");
  void* mem = detail::AllocObjectMemory<T>(sizeof(T) + num_elems * sizeof(ElemType));
  T* typed;
  try {
    typed = new (mem) T(std::forward<Args>(args)...);
  } catch (...) {
    detail::FreeObjectMemory<T>(mem);
    throw;
  }
  return detail::AdoptNewObject(typed);
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_MEMORY_H_
