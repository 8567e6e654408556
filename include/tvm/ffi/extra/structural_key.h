/*
 * tvm/ffi/extra/structural_key.h -- StructuralKey: a value wrapped so that hashing and ==
 * are structural, e.g. as the key of std::unordered_map or ffi::Map.
 */
#ifndef TVM_FFI_EXTRA_STRUCTURAL_KEY_H_
#define TVM_FFI_EXTRA_STRUCTURAL_KEY_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/memory.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>

namespace tvm {
namespace ffi {

/*! \brief The ffi.StructuralKey object: the value and its structural hash (computed once). */
class StructuralKeyObj : public Object {
 public:
  /*! \brief The wrapped value. */
  Any key;
  /*! \brief StructuralHash::Hash(key), as a signed integer. */
  int64_t hash_i64{0};

  StructuralKeyObj() = default;
  explicit StructuralKeyObj(Any value)
      : key(std::move(value)), hash_i64(static_cast<int64_t>(StructuralHash::Hash(key))) {}

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.StructuralKey", StructuralKeyObj, Object);
};

/*! \brief Reference to a StructuralKeyObj; == compares the wrapped values structurally. */
class StructuralKey : public ObjectRef {
 public:
  explicit StructuralKey(Any key) : ObjectRef(make_object<StructuralKeyObj>(std::move(key))) {}

  bool operator==(const StructuralKey& other) const {
    if (same_as(other)) return true;
    if (get()->hash_i64 != other->hash_i64) return false;  // cheap rejection first
    return StructuralEqual::Equal(get()->key, other->key);
  }
  bool operator!=(const StructuralKey& other) const { return !(*this == other); }

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StructuralKey, ObjectRef, StructuralKeyObj);
};

}  // namespace ffi
}  // namespace tvm

namespace std {
/*! \brief std::hash of a StructuralKey: its structural hash. */
template <>
struct hash<tvm::ffi::StructuralKey> {
  size_t operator()(const tvm::ffi::StructuralKey& key) const {
    return static_cast<size_t>(static_cast<uint64_t>(key->hash_i64));
  }
};
}  // namespace std

#endif  // TVM_FFI_EXTRA_STRUCTURAL_KEY_H_
