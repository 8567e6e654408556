/*
 * dataclass_functions.cc -- DeepCopy, ReprPrint, RecursiveHash and RecursiveEq/Lt/Le/Gt/Ge
 * (the functions the reference declares in tvm/ffi/extra/dataclass.h), over the runtime's
 * ffi.DeepCopy, ffi.ReprPrint, ffi.RecursiveHash and ffi.Recursive{Eq,Lt,Le,Gt,Ge}.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/string.h>

#include <cstdint>

#include "cxx_abi_internal.h"

namespace tvm {
namespace ffi {

Any DeepCopy(const Any& value) { return TVM_FFI_CXX_ABI_GLOBAL("ffi.DeepCopy")(value); }

String ReprPrint(const Any& value) {
  return TVM_FFI_CXX_ABI_GLOBAL("ffi.ReprPrint")(value).cast<String>();
}

int64_t RecursiveHash(const Any& value) {
  return TVM_FFI_CXX_ABI_GLOBAL("ffi.RecursiveHash")(value).cast<int64_t>();
}

bool RecursiveEq(const Any& lhs, const Any& rhs) {
  return TVM_FFI_CXX_ABI_GLOBAL("ffi.RecursiveEq")(lhs, rhs).cast<bool>();
}

bool RecursiveLt(const Any& lhs, const Any& rhs) {
  return TVM_FFI_CXX_ABI_GLOBAL("ffi.RecursiveLt")(lhs, rhs).cast<bool>();
}

bool RecursiveLe(const Any& lhs, const Any& rhs) {
  return TVM_FFI_CXX_ABI_GLOBAL("ffi.RecursiveLe")(lhs, rhs).cast<bool>();
}

bool RecursiveGt(const Any& lhs, const Any& rhs) {
  return TVM_FFI_CXX_ABI_GLOBAL("ffi.RecursiveGt")(lhs, rhs).cast<bool>();
}

bool RecursiveGe(const Any& lhs, const Any& rhs) {
  return TVM_FFI_CXX_ABI_GLOBAL("ffi.RecursiveGe")(lhs, rhs).cast<bool>();
}

}  // namespace ffi
}  // namespace tvm
