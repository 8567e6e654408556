/*
 * json.cc -- json::Parse / json::Stringify of tvm/ffi/extra/json.h, over the runtime's
 * ffi.json.Parse and ffi.json.Stringify.
 */
#include <tvm/ffi/extra/json.h>

#include "cxx_abi_internal.h"

namespace tvm {
namespace ffi {
namespace json {

Value Parse(const String& json_str, String* error_msg) {
  if (error_msg == nullptr) return TVM_FFI_CXX_ABI_GLOBAL("ffi.json.Parse")(json_str);
  try {
    Value value = TVM_FFI_CXX_ABI_GLOBAL("ffi.json.Parse")(json_str);
    *error_msg = String();
    return value;
  } catch (const Error& err) {
    // The caller asked for the message instead of the exception.
    *error_msg = err.message();
    return Value(nullptr);
  }
}

String Stringify(const Value& value, const Optional<int>& indent) {
  return TVM_FFI_CXX_ABI_GLOBAL("ffi.json.Stringify")(value, indent).cast<String>();
}

}  // namespace json
}  // namespace ffi
}  // namespace tvm
