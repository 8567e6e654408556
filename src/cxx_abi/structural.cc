/*
 * structural.cc -- StructuralEqual::Equal / GetFirstMismatch and StructuralHash::Hash of
 * tvm/ffi/extra/structural_{equal,hash}.h, over the runtime's ffi.StructuralEqual,
 * ffi.GetFirstStructuralMismatch and ffi.StructuralHash.
 */
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>

#include "cxx_abi_internal.h"

namespace tvm {
namespace ffi {

bool StructuralEqual::Equal(const Any& lhs, const Any& rhs, bool map_free_vars,
                            bool skip_tensor_content) {
  return TVM_FFI_CXX_ABI_GLOBAL("ffi.StructuralEqual")(lhs, rhs, map_free_vars, skip_tensor_content)
      .cast<bool>();
}

Optional<reflection::AccessPathPair> StructuralEqual::GetFirstMismatch(const Any& lhs, const Any& rhs,
                                                                       bool map_free_vars,
                                                                       bool skip_tensor_content) {
  return TVM_FFI_CXX_ABI_GLOBAL("ffi.GetFirstStructuralMismatch")(lhs, rhs, map_free_vars,
                                                                   skip_tensor_content)
      .cast<Optional<reflection::AccessPathPair>>();
}

uint64_t StructuralHash::Hash(const Any& value, bool map_free_vars, bool skip_tensor_content) {
  // The runtime returns the 64 hash bits as a signed integer.
  return static_cast<uint64_t>(
      TVM_FFI_CXX_ABI_GLOBAL("ffi.StructuralHash")(value, map_free_vars, skip_tensor_content)
          .cast<int64_t>());
}

}  // namespace ffi
}  // namespace tvm
