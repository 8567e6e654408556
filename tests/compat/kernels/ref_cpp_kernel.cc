// ref_cpp_kernel.cc -- a kernel written with the REFERENCE header-only C++ API
// (#include <tvm/ffi/tvm_ffi.h>), built against the reference headers and linked with
// `-ltvm_ffi` but no rpath: whichever libtvm_ffi.so the host process loaded serves it.
//
// Exports (TVM_FFI_DLL_EXPORT_TYPED_FUNC emits __tvm_ffi_<name> safe-call wrappers that unpack
// and type-check arguments, and turn C++ exceptions into -1 plus the thread-local error):
//   add_one(x: TensorView, y: TensorView)   y = x + 1 for 1-D float32 tensors
//   square(v: int64_t) -> int64_t
//   shout(s: String) -> String              upper-cased s followed by '!'
//
// Loading this library already talks to the runtime: static initializers of the headers call
// TVMFFITypeGetOrAllocIndex for the enum and reflection types they declare.
#include <tvm/ffi/tvm_ffi.h>

#include <cctype>
#include <cstdint>
#include <string>

namespace {

using tvm::ffi::String;
using tvm::ffi::TensorView;

bool IsFloat32(DLDataType dtype) {
  return dtype.code == kDLFloat && dtype.bits == 32 && dtype.lanes == 1;
}

void AddOne(TensorView x, TensorView y) {
  if (!IsFloat32(x.dtype()) || !IsFloat32(y.dtype())) {
    TVM_FFI_THROW(TypeError) << "add_one expects float32 tensors";
  }
  if (x.ndim() != 1 || y.ndim() != 1) {
    TVM_FFI_THROW(ValueError) << "add_one expects 1-D tensors, got ndim " << x.ndim() << " and "
                              << y.ndim();
  }
  if (x.size(0) != y.size(0)) {
    TVM_FFI_THROW(ValueError) << "add_one: shape mismatch, x has " << x.size(0)
                              << " elements but y has " << y.size(0);
  }
  if (!x.IsContiguous() || !y.IsContiguous()) {
    TVM_FFI_THROW(ValueError) << "add_one expects contiguous tensors";
  }
  const float* src = reinterpret_cast<const float*>(static_cast<const char*>(x.data_ptr()) +
                                                    x.byte_offset());
  float* dst = reinterpret_cast<float*>(static_cast<char*>(y.data_ptr()) + y.byte_offset());
  for (int64_t i = 0; i < x.size(0); ++i) dst[i] = src[i] + 1.0f;
}

int64_t Square(int64_t v) { return v * v; }

// Short results come back as small strings (inline in the Any), longer ones as string objects
// allocated (and later freed) by this library.
String Shout(String s) {
  std::string out(s.data(), s.size());
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  out += '!';
  return String(out);
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(square, Square);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(shout, Shout);
