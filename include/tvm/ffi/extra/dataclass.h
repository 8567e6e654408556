/*
 * tvm/ffi/extra/dataclass.h -- the reflection-driven value operations of dataclass-like objects
 * (the same ones Python's copy.deepcopy, repr, hash, ==, < use on FFI objects):
 *
 *   Any copy = DeepCopy(value);           String text = ReprPrint(value);
 *   int64_t h = RecursiveHash(value);     bool same = RecursiveEq(a, b);   RecursiveLt(a, b) ...
 *   std::cout << obj;                     // prints ReprPrint(obj)
 *
 * and the type attributes through which a type customises them (type_attr::kRepr, kHash, kEq,
 * kCompare). Each operation calls the runtime's global function of the same name ("ffi.DeepCopy",
 * "ffi.ReprPrint", "ffi.RecursiveHash", "ffi.RecursiveEq", ...), so it needs nothing beyond the
 * C API. A library that implements these functions itself defines
 * TVM_FFI_DATACLASS_DECLARE_ONLY before including this header to get the declarations alone.
 */
#ifndef TVM_FFI_EXTRA_DATACLASS_H_
#define TVM_FFI_EXTRA_DATACLASS_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/string.h>

#include <ostream>

namespace tvm {
namespace ffi {

#ifdef TVM_FFI_DATACLASS_DECLARE_ONLY
Any DeepCopy(const Any& value);
String ReprPrint(const Any& value);
int64_t RecursiveHash(const Any& value);
bool RecursiveEq(const Any& lhs, const Any& rhs);
bool RecursiveLt(const Any& lhs, const Any& rhs);
bool RecursiveLe(const Any& lhs, const Any& rhs);
bool RecursiveGt(const Any& lhs, const Any& rhs);
bool RecursiveGe(const Any& lhs, const Any& rhs);
#else
namespace detail {
/*! \brief The runtime global `name`, kept for the life of the process (never destroyed, so
 * exit-time destructors do not call into an unloaded runtime). */
inline const Function* LookupDataclassGlobal(const char* name) {
  Optional<Function> found = Function::GetGlobal(name);
  if (!found.has_value()) {
    TVM_FFI_THROW(RuntimeError) << "The runtime has no global function `" << name << "`";
  }
  return new Function(*std::move(found));
}
}  // namespace detail
#define TVM_FFI_DATACLASS_GLOBAL_(name)                                                  \
  (*[]() {                                                                               \
    static const ::tvm::ffi::Function* fn = ::tvm::ffi::detail::LookupDataclassGlobal(name); \
    return fn;                                                                           \
  }())

/*! \brief A copy of `value` and every object it reaches (objects without copy support throw). */
inline Any DeepCopy(const Any& value) { return TVM_FFI_DATACLASS_GLOBAL_("ffi.DeepCopy")(value); }

/*! \brief The repr text of `value` (cycles print "...", `__ffi_repr__` hooks honoured). */
inline String ReprPrint(const Any& value) {
  return TVM_FFI_DATACLASS_GLOBAL_("ffi.ReprPrint")(value).cast<String>();
}

/*! \brief A deterministic hash consistent with RecursiveEq (`__ffi_hash__` hooks honoured). */
inline int64_t RecursiveHash(const Any& value) {
  return TVM_FFI_DATACLASS_GLOBAL_("ffi.RecursiveHash")(value).cast<int64_t>();
}

/*! \brief Field-by-field equality (`__ffi_eq__` / `__ffi_compare__` hooks honoured). */
inline bool RecursiveEq(const Any& lhs, const Any& rhs) {
  return TVM_FFI_DATACLASS_GLOBAL_("ffi.RecursiveEq")(lhs, rhs).cast<bool>();
}
/*! \brief Field-by-field ordering: lhs < rhs. */
inline bool RecursiveLt(const Any& lhs, const Any& rhs) {
  return TVM_FFI_DATACLASS_GLOBAL_("ffi.RecursiveLt")(lhs, rhs).cast<bool>();
}
/*! \brief Field-by-field ordering: lhs <= rhs. */
inline bool RecursiveLe(const Any& lhs, const Any& rhs) {
  return TVM_FFI_DATACLASS_GLOBAL_("ffi.RecursiveLe")(lhs, rhs).cast<bool>();
}
/*! \brief Field-by-field ordering: lhs > rhs. */
inline bool RecursiveGt(const Any& lhs, const Any& rhs) {
  return TVM_FFI_DATACLASS_GLOBAL_("ffi.RecursiveGt")(lhs, rhs).cast<bool>();
}
/*! \brief Field-by-field ordering: lhs >= rhs. */
inline bool RecursiveGe(const Any& lhs, const Any& rhs) {
  return TVM_FFI_DATACLASS_GLOBAL_("ffi.RecursiveGe")(lhs, rhs).cast<bool>();
}
#undef TVM_FFI_DATACLASS_GLOBAL_
#endif  // TVM_FFI_DATACLASS_DECLARE_ONLY

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
