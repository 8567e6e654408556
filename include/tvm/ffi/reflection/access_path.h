/*
 * tvm/ffi/reflection/access_path.h -- AccessStep / AccessPath: where a value sits inside an
 * object graph (root.field[3]["key"]...), as reported by StructuralEqual::GetFirstMismatch.
 * The objects are the runtime's ffi.reflection.AccessStep / ffi.reflection.AccessPath (same
 * layout); paths are immutable linked lists from the leaf up to the root.
 */
#ifndef TVM_FFI_REFLECTION_ACCESS_PATH_H_
#define TVM_FFI_REFLECTION_ACCESS_PATH_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace reflection {

/*! \brief What one step of a path reads. */
enum class AccessKind : int32_t {
  kAttr = 0,
  kArrayItem = 1,
  kMapItem = 2,
  kAttrMissing = 3,
  kArrayItemMissing = 4,
  kMapItemMissing = 5,
};

class AccessStep;

/*! \brief One step: a field name, an array index or a map key. */
class AccessStepObj : public Object {
 public:
  /*! \brief The kind of step. */
  AccessKind kind;
  /*! \brief Field name (String), index (int64_t) or map key. */
  Any key;

  AccessStepObj() = default;
  AccessStepObj(AccessKind kind, Any key) : kind(kind), key(std::move(key)) {}

  /*! \brief Same kind and equal key. */
  inline bool StepEqual(const AccessStep& other) const;

  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindConstTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.reflection.AccessStep", AccessStepObj, Object);
};

/*! \brief Reference to an AccessStepObj, with one factory per kind. */
class AccessStep : public ObjectRef {
 public:
  AccessStep(AccessKind kind, Any key)
      : ObjectRef(make_object<AccessStepObj>(kind, std::move(key))) {}

  static AccessStep Attr(String field_name) { return AccessStep(AccessKind::kAttr, std::move(field_name)); }
  static AccessStep AttrMissing(String field_name) {
    return AccessStep(AccessKind::kAttrMissing, std::move(field_name));
  }
  static AccessStep ArrayItem(int64_t index) { return AccessStep(AccessKind::kArrayItem, index); }
  static AccessStep ArrayItemMissing(int64_t index) {
    return AccessStep(AccessKind::kArrayItemMissing, index);
  }
  static AccessStep MapItem(Any key) { return AccessStep(AccessKind::kMapItem, std::move(key)); }
  static AccessStep MapItemMissing(Any key = nullptr) {
    return AccessStep(AccessKind::kMapItemMissing, std::move(key));
  }

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(AccessStep, ObjectRef, AccessStepObj);
};

inline bool AccessStepObj::StepEqual(const AccessStep& other) const {
  return kind == other->kind && AnyEqual()(key, other->key);
}

class AccessPath;

/*! \brief A path: its parent path (none at the root), its last step and its length. */
class AccessPathObj : public Object {
 public:
  /*! \brief The path without the last step; nullopt for the root. */
  Optional<ObjectRef> parent;
  /*! \brief The last step; nullopt for the root. */
  Optional<AccessStep> step;
  /*! \brief Number of steps. */
  int32_t depth;

  AccessPathObj() = default;
  AccessPathObj(Optional<ObjectRef> parent, Optional<AccessStep> step, int32_t depth)
      : parent(std::move(parent)), step(std::move(step)), depth(depth) {}

  inline Optional<AccessPath> GetParent() const;
  inline AccessPath Extend(AccessStep step) const;
  inline AccessPath Attr(String field_name) const;
  inline AccessPath AttrMissing(String field_name) const;
  inline AccessPath ArrayItem(int64_t index) const;
  inline AccessPath ArrayItemMissing(int64_t index) const;
  inline AccessPath MapItem(Any key) const;
  inline AccessPath MapItemMissing(Any key) const;
  /*! \brief The steps from the root to here. */
  inline Array<AccessStep> ToSteps() const;
  /*! \brief Same steps as `other`. */
  inline bool PathEqual(const AccessPath& other) const;
  /*! \brief `other` starts with this path's steps. */
  inline bool IsPrefixOf(const AccessPath& other) const;

  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindConstTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.reflection.AccessPath", AccessPathObj, Object);

 private:
  const AccessPathObj* ParentObj() const {
    return parent.has_value() ? static_cast<const AccessPathObj*>((*parent).get()) : nullptr;
  }
  // Walks both equally deep paths up in lockstep; shared tails end the walk early.
  static bool SameSteps(const AccessPathObj* lhs, const AccessPathObj* rhs) {
    if (lhs->depth != rhs->depth) return false;
    while (lhs != rhs && lhs->depth > 0) {
      if (!(*lhs->step)->StepEqual(*rhs->step)) return false;
      lhs = lhs->ParentObj();
      rhs = rhs->ParentObj();
    }
    return true;
  }
};

/*! \brief Reference to an AccessPathObj. */
class AccessPath : public ObjectRef {
 public:
  /*! \brief The empty path. */
  static AccessPath Root() { return AccessPath(make_object<AccessPathObj>(std::nullopt, std::nullopt, 0)); }
  /*! \brief The path of the given steps, from the root. */
  template <typename Iter>
  static AccessPath FromSteps(Iter begin, Iter end) {
    AccessPath path = Root();
    for (Iter it = begin; it != end; ++it) path = path->Extend(*it);
    return path;
  }
  static AccessPath FromSteps(const Array<AccessStep>& steps) { return FromSteps(steps.begin(), steps.end()); }

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(AccessPath, ObjectRef, AccessPathObj);

 private:
  friend class AccessPathObj;
  explicit AccessPath(ObjectPtr<AccessPathObj> ptr) : ObjectRef(std::move(ptr)) {}
};

/*! \brief Paths in the left and the right value (StructuralEqual::GetFirstMismatch). */
using AccessPathPair = Tuple<AccessPath, AccessPath>;

inline Optional<AccessPath> AccessPathObj::GetParent() const {
  if (!parent.has_value()) return std::nullopt;
  return GetRef<AccessPath>(ParentObj());
}
inline AccessPath AccessPathObj::Extend(AccessStep next) const {
  return AccessPath(make_object<AccessPathObj>(GetRef<AccessPath>(this), std::move(next), depth + 1));
}
inline AccessPath AccessPathObj::Attr(String field_name) const {
  return Extend(AccessStep::Attr(std::move(field_name)));
}
inline AccessPath AccessPathObj::AttrMissing(String field_name) const {
  return Extend(AccessStep::AttrMissing(std::move(field_name)));
}
inline AccessPath AccessPathObj::ArrayItem(int64_t index) const { return Extend(AccessStep::ArrayItem(index)); }
inline AccessPath AccessPathObj::ArrayItemMissing(int64_t index) const {
  return Extend(AccessStep::ArrayItemMissing(index));
}
inline AccessPath AccessPathObj::MapItem(Any key) const { return Extend(AccessStep::MapItem(std::move(key))); }
inline AccessPath AccessPathObj::MapItemMissing(Any key) const {
  return Extend(AccessStep::MapItemMissing(std::move(key)));
}
inline Array<AccessStep> AccessPathObj::ToSteps() const {
  std::vector<AccessStep> leaf_first;
  leaf_first.reserve(depth);
  for (const AccessPathObj* node = this; node->depth > 0; node = node->ParentObj()) {
    leaf_first.push_back(*node->step);
  }
  return Array<AccessStep>(leaf_first.rbegin(), leaf_first.rend());
}
inline bool AccessPathObj::PathEqual(const AccessPath& other) const { return SameSteps(this, other.get()); }
inline bool AccessPathObj::IsPrefixOf(const AccessPath& other) const {
  if (depth > other->depth) return false;
  const AccessPathObj* node = other.get();
  while (node->depth > depth) node = node->ParentObj();
  return SameSteps(this, node);
}

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_REFLECTION_ACCESS_PATH_H_
