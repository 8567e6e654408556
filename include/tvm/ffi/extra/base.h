/*
 * tvm/ffi/extra/base.h -- TVM_FFI_EXTRA_CXX_API: marks the C++ functions of the extra
 * headers that libtvm_ffi.so defines (structural equality/hash, JSON, serialization, ...).
 * Unlike the rest of the C++ API these are not inline: they are part of the library's binary
 * interface under their C++ (mangled) names, the same names the reference library exports.
 */
#ifndef TVM_FFI_EXTRA_BASE_H_
#define TVM_FFI_EXTRA_BASE_H_

#include <tvm/ffi/c_api.h>

#ifndef TVM_FFI_EXTRA_CXX_API
#define TVM_FFI_EXTRA_CXX_API TVM_FFI_DLL
#endif

#endif  // TVM_FFI_EXTRA_BASE_H_
