/*
 * visit_error_context.cc -- VisitErrorContext::FindAccessPaths of
 * tvm/ffi/extra/visit_error_context.h: a depth-first search from the root object through its
 * reflected fields, matching the recorded nodes by identity, outermost first.
 *
 * As in the reference: containers (array, list, map, dict) are passed through, adding an item
 * step, and are never matched themselves, so a container root yields no path; the other
 * built-in object kinds (strings, shapes, functions, tensors) are leaves; records may skip
 * levels (not every visit is instrumented), so an unrecorded node is simply passed through; a
 * full match reports the path of the innermost node and stops there; with allow_prefix_match,
 * a search that matched at least one record and reaches a node without child nodes reports
 * that node's path. The pattern is the record as it stands: a recorded container or string is
 * never matched, so a record holding one matches in full nowhere (only as a prefix), as in the
 * reference; an empty record finds nothing.
 *
 * It also records visits for the runtime's C engines (cxx_bridge.h): a node is appended to an
 * error's record as TVM_FFI_VISIT_END does, so errors of the runtime's structural walks carry
 * the same context as those of the reference's header-only engines.
 */
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/reflection/registry.h>

#include "../runtime/cxx_bridge.h"

#include <string>
#include <unordered_set>
#include <vector>

namespace tvm {
namespace ffi {
namespace {

using reflection::AccessPath;

class PathFinder {
 public:
  PathFinder(std::vector<const Object*> pattern, bool allow_prefix_match)
      : pattern_(std::move(pattern)), allow_prefix_match_(allow_prefix_match) {}

  Array<AccessPath> Find(const ObjectRef& root) {
    if (pattern_.empty()) return Array<AccessPath>();
    if (root.defined() && !IsContainer(root->type_index())) VisitNode(root, AccessPath::Root(), 0);
    return Array<AccessPath>(found_.begin(), found_.end());
  }

 private:
  static bool IsContainer(int32_t type_index) {
    return type_index == TypeIndex::kTVMFFIArray || type_index == TypeIndex::kTVMFFIList ||
           type_index == TypeIndex::kTVMFFIMap || type_index == TypeIndex::kTVMFFIDict;
  }

  // A node: an object of a type registered at run time (the runtime's own kinds other than
  // containers -- strings, shapes, functions, tensors -- are leaves). A node matches every
  // consecutive record of itself (a node recorded twice by nested visits). Returns whether a
  // path was reported at or below it.
  bool VisitNode(const ObjectRef& node, const AccessPath& path, size_t matched) {
    if (!on_path_.insert(node.get()).second) return false;  // a cycle back to an ancestor
    size_t now = matched;
    while (now < pattern_.size() && node.get() == pattern_[now]) ++now;
    bool reported = false;
    if (now == pattern_.size()) {
      found_.push_back(path);
      reported = true;
    } else {
      bool reached_child = false;
      reported = VisitFields(node, path, now, &reached_child);
      // A dead end after a partial match (below the root: a root without child nodes reports
      // nothing).
      if (!reached_child && allow_prefix_match_ && now > 0 && path->depth > 0) {
        found_.push_back(path);
        reported = true;
      }
    }
    on_path_.erase(node.get());
    return reported;
  }

  // Any field or item value: nodes are visited, containers passed through, the rest skipped.
  bool VisitValue(const Any& value, const AccessPath& path, size_t matched, bool* reached_child) {
    int32_t type_index = value.type_index();
    if (type_index < TypeIndex::kTVMFFIStaticObjectBegin ||
        (type_index < TypeIndex::kTVMFFIDynObjectBegin && !IsContainer(type_index))) {
      return false;
    }
    bool reported = false;
    int64_t i = 0;
    switch (type_index) {
      case TypeIndex::kTVMFFIArray:
        for (const Any& item : value.cast<Array<Any>>()) {
          reported |= VisitValue(item, path->ArrayItem(i++), matched, reached_child);
        }
        return reported;
      case TypeIndex::kTVMFFIList:
        for (const Any& item : value.cast<List<Any>>()) {
          reported |= VisitValue(item, path->ArrayItem(i++), matched, reached_child);
        }
        return reported;
      case TypeIndex::kTVMFFIMap:
        for (const auto& kv : value.cast<Map<Any, Any>>()) {
          reported |= VisitValue(kv.second, path->MapItem(kv.first), matched, reached_child);
        }
        return reported;
      case TypeIndex::kTVMFFIDict:
        for (const auto& kv : value.cast<Dict<Any, Any>>()) {
          reported |= VisitValue(kv.second, path->MapItem(kv.first), matched, reached_child);
        }
        return reported;
      default:
        *reached_child = true;
        return VisitNode(value.cast<ObjectRef>(), path, matched);
    }
  }

  // The reflected fields, the ancestors' first (the order reflection lists them in).
  bool VisitFields(const ObjectRef& node, const AccessPath& path, size_t matched, bool* reached_child) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(node->type_index());
    if (info == nullptr) return false;
    char* base = reinterpret_cast<char*>(detail::ObjectUnsafe::GetHeader(node.get()));
    bool reported = false;
    for (int32_t depth = 0; depth <= info->type_depth; ++depth) {
      const TVMFFITypeInfo* level = depth < info->type_depth ? info->type_ancestors[depth] : info;
      for (int32_t i = 0; level != nullptr && i < level->num_fields; ++i) {
        const TVMFFIFieldInfo& field = level->fields[i];
        if (field.getter == nullptr) continue;
        Any child;
        TVM_FFI_CHECK_SAFE_CALL(field.getter(base + field.offset, reinterpret_cast<TVMFFIAny*>(&child)));
        String name(std::string(field.name.data, field.name.size));
        reported |= VisitValue(child, path->Attr(name), matched, reached_child);
      }
    }
    return reported;
  }

  std::vector<const Object*> pattern_;  // outermost first
  bool allow_prefix_match_;
  std::unordered_set<const Object*> on_path_;
  std::vector<AccessPath> found_;
};

}  // namespace

Array<reflection::AccessPath> VisitErrorContext::FindAccessPaths(const ObjectRef& root,
                                                                 const VisitErrorContext& visit_context,
                                                                 bool allow_prefix_match) {
  std::vector<const Object*> pattern;
  const List<ObjectRef>& recorded = visit_context->reverse_visit_pattern;
  for (int64_t i = static_cast<int64_t>(recorded.size()) - 1; i >= 0; --i) pattern.push_back(recorded[i].get());
  return PathFinder(std::move(pattern), allow_prefix_match).Find(root);
}

// The record's reflection, as the reference's library registers it (read-only fields, and the
// type's finality for binding generators), and FindAccessPaths as a global function for Python.
TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::ObjectDef<VisitErrorContextObj>()
      .def_ro("reverse_visit_pattern", &VisitErrorContextObj::reverse_visit_pattern)
      .def_ro("prev_error_context", &VisitErrorContextObj::prev_error_context);
  reflection::GlobalDef().def("ffi.VisitErrorContext.FindAccessPaths",
                              [](ObjectRef root, VisitErrorContext context, bool allow_prefix_match) {
                                return VisitErrorContext::FindAccessPaths(root, context,
                                                                          allow_prefix_match);
                              });
}

}  // namespace ffi
}  // namespace tvm

extern "C" void ffi_cxx_visit_error_record(TVMFFIObject* error, TVMFFIObject* node) {
  using tvm::ffi::detail::ObjectUnsafe;
  try {
    tvm::ffi::Error err = ObjectUnsafe::ObjectRefFromUnowned<tvm::ffi::Error>(error);
    tvm::ffi::detail::UpdateVisitErrorContext(
        err, ObjectUnsafe::ObjectRefFromUnowned<tvm::ffi::ObjectRef>(node));
  } catch (...) {  // out of memory: the error goes on without this record
  }
}
