/*
 * visit_error_context.cc -- VisitErrorContext::FindAccessPaths of
 * tvm/ffi/extra/visit_error_context.h: a depth-first search from the root object through its
 * reflected fields, matching the recorded nodes by identity, outermost first.
 *
 * As in the reference: containers (array, list, map, dict) are passed through, adding an item
 * step, and are never matched themselves, so a container root yields no path; records may skip
 * levels (not every visit is instrumented), so an unrecorded node is simply passed through; a
 * full match reports the path of the innermost node and stops there; with allow_prefix_match,
 * a search that matched at least one record and reaches a node without child nodes reports
 * that node's path.
 */
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/reflection/registry.h>

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
    if (root.defined() && !IsContainer(root->type_index())) VisitNode(root, AccessPath::Root(), 0);
    return Array<AccessPath>(found_.begin(), found_.end());
  }

 private:
  static bool IsContainer(int32_t type_index) {
    return type_index == TypeIndex::kTVMFFIArray || type_index == TypeIndex::kTVMFFIList ||
           type_index == TypeIndex::kTVMFFIMap || type_index == TypeIndex::kTVMFFIDict;
  }

  // A node: an object that is neither a container nor a string. Returns whether a path was
  // reported at or below it.
  bool VisitNode(const ObjectRef& node, const AccessPath& path, size_t matched) {
    if (!on_path_.insert(node.get()).second) return false;  // a cycle back to an ancestor
    bool hit = matched < pattern_.size() && node.get() == pattern_[matched];
    size_t now = hit ? matched + 1 : matched;
    bool reported = false;
    if (now == pattern_.size()) {
      found_.push_back(path);
      reported = true;
    } else {
      bool reached_child = false;
      reported = VisitFields(node, path, now, &reached_child);
      if (!reached_child && allow_prefix_match_ && now > 0) {
        found_.push_back(path);  // a dead end after a partial match
        reported = true;
      }
    }
    on_path_.erase(node.get());
    return reported;
  }

  // Any field or item value: nodes are visited, containers passed through, the rest skipped.
  bool VisitValue(const Any& value, const AccessPath& path, size_t matched, bool* reached_child) {
    int32_t type_index = value.type_index();
    if (type_index < TypeIndex::kTVMFFIStaticObjectBegin || type_index == TypeIndex::kTVMFFIStr ||
        type_index == TypeIndex::kTVMFFIBytes) {
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
