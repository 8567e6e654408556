/*
 * tvm/ffi/extra/dataclass.h -- the reflection-driven value operations of dataclass-like objects
 * (the same ones Python's copy.deepcopy, repr, hash, ==, < use on FFI objects):
 *
 *   Any copy = DeepCopy(value);           String text = ReprPrint(value);
 *   int64_t h = RecursiveHash(value);     bool same = RecursiveEq(a, b);   RecursiveLt(a, b) ...
 *   std::cout << obj;                     // prints ReprPrint(obj)
 *
 * and the type attributes through which a type customises them (type_attr::kRepr, kHash, kEq,
 * kCompare). The operations are exported C++ functions of libtvm_ffi.so (ours forwards each to the
 * runtime's global of the same name: "ffi.DeepCopy", "ffi.ReprPrint", "ffi.RecursiveEq", ...).
 */
#ifndef TVM_FFI_EXTRA_DATACLASS_H_
#define TVM_FFI_EXTRA_DATACLASS_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/string.h>

#include <ostream>

namespace tvm {
namespace ffi {

/* Exported by libtvm_ffi.so (src/cxx_abi/dataclass_functions.cc), as by the reference's library,
 * so a kernel built against either header set runs on either runtime. */
/*! \brief A copy of `value` and every object it reaches (objects without copy support throw). */
TVM_FFI_EXTRA_CXX_API Any DeepCopy(const Any& value);
/*! \brief The repr text of `value` (cycles print "...", `__ffi_repr__` hooks honoured). */
TVM_FFI_EXTRA_CXX_API String ReprPrint(const Any& value);
/*! \brief Hash by content, consistent with RecursiveEq. */
TVM_FFI_EXTRA_CXX_API int64_t RecursiveHash(const Any& value);
/*! \brief Content comparisons of dataclass-like values (fields in order, containers by item). */
TVM_FFI_EXTRA_CXX_API bool RecursiveEq(const Any& lhs, const Any& rhs);
TVM_FFI_EXTRA_CXX_API bool RecursiveLt(const Any& lhs, const Any& rhs);
TVM_FFI_EXTRA_CXX_API bool RecursiveLe(const Any& lhs, const Any& rhs);
TVM_FFI_EXTRA_CXX_API bool RecursiveGt(const Any& lhs, const Any& rhs);
TVM_FFI_EXTRA_CXX_API bool RecursiveGe(const Any& lhs, const Any& rhs);

/*! \brief Streams the repr text. */
inline std::ostream& operator<<(std::ostream& os, const Any& value) { return os << ReprPrint(value); }
inline std::ostream& operator<<(std::ostream& os, const ObjectRef& value) {
  return os << ReprPrint(Any(value));
}
template <typename... V>
inline std::ostream& operator<<(std::ostream& os, const Variant<V...>& value) {
  return os << ReprPrint(Any(value));
}
template <typename T>
inline std::ostream& operator<<(std::ostream& os, const Optional<T>& value) {
  return os << ReprPrint(Any(value));
}

namespace type_attr {
/*! \brief Custom repr: hook(self, repr_of_nested_value) -> str. */
inline constexpr reflection::AttrKey<
    TypedFunction<String(const Object*, const TypedFunction<String(AnyView)>&)>>
    kRepr{"__ffi_repr__"};
/*! \brief Custom hash: hook(self, hash_of_nested_value) -> int. */
inline constexpr reflection::AttrKey<
    TypedFunction<int64_t(const Object*, const TypedFunction<int64_t(AnyView)>&)>>
    kHash{"__ffi_hash__"};
/*! \brief Custom equality: hook(lhs, rhs, eq_of_nested_values) -> bool. */
inline constexpr reflection::AttrKey<
    TypedFunction<bool(const Object*, const Object*, const TypedFunction<bool(AnyView, AnyView)>&)>>
    kEq{"__ffi_eq__"};
/*! \brief Custom three-way comparison: hook(lhs, rhs, cmp_of_nested_values) -> <0, 0 or >0. */
inline constexpr reflection::AttrKey<TypedFunction<int32_t(
    const Object*, const Object*, const TypedFunction<int32_t(AnyView, AnyView)>&)>>
    kCompare{"__ffi_compare__"};
}  // namespace type_attr

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_DATACLASS_H_
