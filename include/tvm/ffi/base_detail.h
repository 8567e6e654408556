/*
 * tvm/ffi/base_detail.h -- compiler helpers shared by every C++ header of the API.
 * Kept to <type_traits>/<utility>/<cstdint> so that a kernel pays little for the include.
 */
#ifndef TVM_FFI_BASE_DETAIL_H_
#define TVM_FFI_BASE_DETAIL_H_

#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#if defined(__GNUC__) || defined(__clang__)
#define TVM_FFI_INLINE [[gnu::always_inline]] inline
#define TVM_FFI_NO_INLINE [[gnu::noinline]]
#define TVM_FFI_COLD_CODE [[gnu::cold]]
#define TVM_FFI_UNREACHABLE() __builtin_unreachable()
#define TVM_FFI_PREDICT_FALSE(cond) (__builtin_expect(static_cast<bool>(cond), 0))
#define TVM_FFI_PREDICT_TRUE(cond) (__builtin_expect(static_cast<bool>(cond), 1))
#define TVM_FFI_FUNC_SIG __PRETTY_FUNCTION__
#else
#define TVM_FFI_INLINE inline
#define TVM_FFI_NO_INLINE
#define TVM_FFI_COLD_CODE
#define TVM_FFI_UNREACHABLE() ((void)0)
#define TVM_FFI_PREDICT_FALSE(cond) (cond)
#define TVM_FFI_PREDICT_TRUE(cond) (cond)
#define TVM_FFI_FUNC_SIG __func__
#endif

#define TVM_FFI_STR_CONCAT_(a, b) a##b
#define TVM_FFI_STR_CONCAT(a, b) TVM_FFI_STR_CONCAT_(a, b)

// A function body run when the library is loaded (before main / at dlopen):
//   TVM_FFI_STATIC_INIT_BLOCK() { GlobalDef().def("x", f); }
#define TVM_FFI_STATIC_INIT_BLOCK_DEF_(Name) __attribute__((constructor)) static void Name()
#define TVM_FFI_STATIC_INIT_BLOCK() \
  TVM_FFI_STATIC_INIT_BLOCK_DEF_(TVM_FFI_STR_CONCAT(_TVMFFIStaticInitBlock, __COUNTER__))

// Tells the optimiser `cond` holds; undefined behaviour if it does not.
#if defined(__clang__)
#define TVM_FFI_UNSAFE_ASSUME(cond) __builtin_assume(cond)
#elif defined(__GNUC__)
#define TVM_FFI_UNSAFE_ASSUME(cond)       \
  do {                                    \
    if (!(cond)) __builtin_unreachable(); \
  } while (0)
#else
#define TVM_FFI_UNSAFE_ASSUME(cond) ((void)0)
#endif

// After storing a pointer in a TVMFFIAny: zeroes the payload's upper half where pointers are
// narrower than 64 bits, so v_int64 can hash and compare the value.
#define TVM_FFI_CLEAR_PTR_PADDING_IN_FFI_ANY(any)   \
  if constexpr (sizeof(void*) != sizeof(int64_t)) { \
    (any)->v_int64 = 0;                             \
  }

#define TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(TypeName) \
  TypeName(const TypeName&) = default;                       \
  TypeName(TypeName&&) = default;                            \
  TypeName& operator=(const TypeName&) = default;            \
  TypeName& operator=(TypeName&&) = default;

namespace tvm {
namespace ffi {

/*! \brief Tag for constructors that leave a reference uninitialised on purpose. */
struct UnsafeInit {};

namespace detail {
// The 64-bit combined count: low half strong, high half weak.
constexpr uint64_t kStrongOne = 1;
constexpr uint64_t kWeakOne = uint64_t(1) << 32;
constexpr uint64_t kFreshCount = kWeakOne | kStrongOne;

TVM_FFI_INLINE void ObjectIncRef(TVMFFIObject* obj) {
  __atomic_fetch_add(&obj->combined_ref_count, kStrongOne, __ATOMIC_RELAXED);
}

TVM_FFI_INLINE void ObjectDecRef(TVMFFIObject* obj) {
  uint64_t before = __atomic_fetch_sub(&obj->combined_ref_count, kStrongOne, __ATOMIC_RELEASE);
  if (before == kFreshCount) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (obj->deleter != nullptr) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskBoth);
  } else if ((before & 0xFFFFFFFFu) == 1) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (obj->deleter != nullptr) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskStrong);
    uint64_t weak_before =
        __atomic_fetch_sub(&obj->combined_ref_count, kWeakOne, __ATOMIC_RELEASE);
    if (weak_before == kWeakOne) {
      __atomic_thread_fence(__ATOMIC_ACQUIRE);
      if (obj->deleter != nullptr) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskWeak);
    }
  }
}

TVM_FFI_INLINE void ObjectIncWeakRef(TVMFFIObject* obj) {
  __atomic_fetch_add(&obj->combined_ref_count, kWeakOne, __ATOMIC_RELAXED);
}

TVM_FFI_INLINE void ObjectDecWeakRef(TVMFFIObject* obj) {
  uint64_t before = __atomic_fetch_sub(&obj->combined_ref_count, kWeakOne, __ATOMIC_RELEASE);
  if (before == kWeakOne) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (obj->deleter != nullptr) obj->deleter(obj, kTVMFFIObjectDeleterFlagBitMaskWeak);
  }
}

/*! \brief Adds a strong ref only while one is still held (weak -> strong promotion). */
TVM_FFI_INLINE bool ObjectTryPromoteWeak(TVMFFIObject* obj) {
  uint64_t old = __atomic_load_n(&obj->combined_ref_count, __ATOMIC_RELAXED);
  while ((old & 0xFFFFFFFFu) != 0) {
    if (__atomic_compare_exchange_n(&obj->combined_ref_count, &old, old + kStrongOne, true,
                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      return true;
    }
  }
  return false;
}

/*! \brief Length of a NUL-terminated string without <cstring>. */
TVM_FFI_INLINE constexpr size_t CStrLen(const char* s) {
  size_t n = 0;
  while (s[n] != '\0') ++n;
  return n;
}
}  // namespace detail

// Older kernels spell the internal namespace `details`; the reference keeps the alias too.
namespace details = detail;

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_BASE_DETAIL_H_
