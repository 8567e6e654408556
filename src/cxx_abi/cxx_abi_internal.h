/*
 * cxx_abi_internal.h -- what the src/cxx_abi files share: the runtime global functions they
 * forward to, looked up once.
 */
#ifndef TVM_FFI_CXX_ABI_INTERNAL_H_
#define TVM_FFI_CXX_ABI_INTERNAL_H_

#include <tvm/ffi/function.h>

namespace tvm {
namespace ffi {
namespace cxx_abi {

/*!
 * \brief The runtime global `name` (registered by src/runtime at load), looked up on first use.
 * Deliberately leaked: an exported function may still run during static destruction.
 */
#define TVM_FFI_CXX_ABI_GLOBAL(name)                                                              \
  ([]() -> const ::tvm::ffi::Function& {                                                         \
    static const ::tvm::ffi::Function* f = new ::tvm::ffi::Function(                             \
        ::tvm::ffi::Function::GetGlobalRequired(name));                                          \
    return *f;                                                                                    \
  }())

}  // namespace cxx_abi
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CXX_ABI_INTERNAL_H_
