/*
 * tvm/ffi/extra/structural_hash.h -- StructuralHash: a hash consistent with StructuralEqual
 * (reflection-driven, free variables optionally mapped by position).
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_HASH_H_
#define TVM_FFI_EXTRA_STRUCTURAL_HASH_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/function.h>

#include <cstdint>

namespace tvm {
namespace ffi {

/*! \brief Structural hash of a value, usable as a functor. */
class StructuralHash {
 public:
  /*!
   * \brief Hashes a value by structure.
   * \param value The value.
   * \param map_free_vars Whether free variables hash by position instead of identity.
   * \param skip_tensor_content Whether tensors hash by shape/dtype only.
   * \return The hash.
   */
  TVM_FFI_EXTRA_CXX_API static uint64_t Hash(const Any& value, bool map_free_vars = false,
                                             bool skip_tensor_content = false);
  /*! \brief Hash(value) with the default options. */
  uint64_t operator()(const Any& value) const { return Hash(value); }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_STRUCTURAL_HASH_H_
