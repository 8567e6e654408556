/*
 * serialization.cc -- ToJSONGraph / FromJSONGraph of tvm/ffi/extra/serialization.h, over the
 * runtime's ffi.ToJSONGraph and ffi.FromJSONGraph.
 */
#include <tvm/ffi/extra/serialization.h>

#include "cxx_abi_internal.h"

namespace tvm {
namespace ffi {

json::Value ToJSONGraph(const Any& value, const Any& metadata) {
  return TVM_FFI_CXX_ABI_GLOBAL("ffi.ToJSONGraph")(value, metadata);
}

Any FromJSONGraph(const json::Value& value) {
  return TVM_FFI_CXX_ABI_GLOBAL("ffi.FromJSONGraph")(value);
}

}  // namespace ffi
}  // namespace tvm
