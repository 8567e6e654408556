/*
 * tvm/ffi/extra/structural_equal.h -- StructuralEqual: equality of values by structure
 * (reflection-driven), and the access paths of the first difference.
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_EQUAL_H_
#define TVM_FFI_EXTRA_STRUCTURAL_EQUAL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/access_path.h>

namespace tvm {
namespace ffi {

/*! \brief Structural equality of two values, usable as a functor. */
class StructuralEqual {
 public:
  /*!
   * \brief Compares two values by structure.
   * \param lhs The left value.
   * \param rhs The right value.
   * \param map_free_vars Whether free variables may be mapped onto each other.
   * \param skip_tensor_content Whether tensors compare by shape/dtype only.
   * \return Whether they are equal.
   */
  TVM_FFI_EXTRA_CXX_API static bool Equal(const Any& lhs, const Any& rhs,
                                          bool map_free_vars = false,
                                          bool skip_tensor_content = false);
  /*!
   * \brief The paths (in lhs, in rhs) of the first difference.
   * \param lhs The left value.
   * \param rhs The right value.
   * \param map_free_vars Whether free variables may be mapped onto each other.
   * \param skip_tensor_content Whether tensors compare by shape/dtype only.
   * \return The pair of paths, or nullopt when the values are equal.
   */
  TVM_FFI_EXTRA_CXX_API static Optional<reflection::AccessPathPair> GetFirstMismatch(
      const Any& lhs, const Any& rhs, bool map_free_vars = false, bool skip_tensor_content = false);
  /*! \brief Equal(lhs, rhs) with the default options. */
  bool operator()(const Any& lhs, const Any& rhs) const { return Equal(lhs, rhs, false, false); }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_STRUCTURAL_EQUAL_H_
