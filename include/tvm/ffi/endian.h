/*
 * tvm/ffi/endian.h -- the byte order of the host and of serialized data, and an in-place byte
 * swap. Serialized FFI data is little-endian unless TVM_FFI_IO_USE_LITTLE_ENDIAN is set to 0;
 * TVM_FFI_IO_NO_ENDIAN_SWAP tells whether bytes can be copied as they are.
 */
#ifndef TVM_FFI_ENDIAN_H_
#define TVM_FFI_ENDIAN_H_

#include <cstddef>
#include <cstdint>

#ifndef TVM_FFI_IO_USE_LITTLE_ENDIAN
#define TVM_FFI_IO_USE_LITTLE_ENDIAN 1
#endif

// A build system that knows the target's byte order passes TVM_FFI_CMAKE_LITTLE_ENDIAN; otherwise
// the compiler's predefined order macros answer (GCC, Clang and ICC define __BYTE_ORDER__).
#ifdef TVM_FFI_CMAKE_LITTLE_ENDIAN
#define TVM_FFI_LITTLE_ENDIAN TVM_FFI_CMAKE_LITTLE_ENDIAN
#elif defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
#define TVM_FFI_LITTLE_ENDIAN (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#elif defined(_WIN32) || defined(__APPLE__) || defined(__EMSCRIPTEN__) || defined(__hexagon__)
#define TVM_FFI_LITTLE_ENDIAN 1
#elif defined(__GLIBC__) || defined(__GNU_LIBRARY__) || defined(__ANDROID__)
#include <endian.h>
#define TVM_FFI_LITTLE_ENDIAN (__BYTE_ORDER == __LITTLE_ENDIAN)
#elif defined(__FreeBSD__) || defined(__OpenBSD__)
#include <sys/endian.h>
#define TVM_FFI_LITTLE_ENDIAN (_BYTE_ORDER == _LITTLE_ENDIAN)
#else
#error "tvm/ffi/endian.h: cannot tell the byte order; define TVM_FFI_CMAKE_LITTLE_ENDIAN to 0 or 1"
#endif

/*! \brief 1 when serialized bytes already have the host's order. */
#define TVM_FFI_IO_NO_ENDIAN_SWAP (TVM_FFI_LITTLE_ENDIAN == TVM_FFI_IO_USE_LITTLE_ENDIAN)

namespace tvm {
namespace ffi {

/*!
 * \brief Reverses the bytes of each of `num_elems` consecutive elements of `elem_bytes` bytes.
 * \param data The first element; modified in place.
 * \param elem_bytes The size of one element (1 leaves the data unchanged).
 * \param num_elems How many elements to swap.
 */
inline void ByteSwap(void* data, size_t elem_bytes, size_t num_elems) {
  uint8_t* elem = static_cast<uint8_t*>(data);
  for (size_t n = 0; n < num_elems; ++n, elem += elem_bytes) {
    for (size_t lo = 0, hi = elem_bytes; lo + 1 < hi; ++lo, --hi) {
      uint8_t tmp = elem[lo];
      elem[lo] = elem[hi - 1];
      elem[hi - 1] = tmp;
    }
  }
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_ENDIAN_H_
