// test_visit_error_paths.cc -- where a failed structural walk went wrong: the ffi.VisitErrorContext
// the runtime's engines attach to an error (every object the error unwound through, innermost
// first, containers included, as the reference's header-only engines record it), the Expected
// forms of StructuralMap / StructuralMutate, and VisitErrorContext::FindAccessPaths turning a
// record into access paths. Expected paths are the reference's (measured with its 0.1.15 build).
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/extra/structural_mutate.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>
#include <vector>

#include "check.h"

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

class PNodeObj : public ffi::Object {
 public:
  ffi::String name;
  ffi::Any child;
  ffi::Array<ffi::Any> items;
  PNodeObj(ffi::String name, ffi::Any child, ffi::Array<ffi::Any> items)
      : name(std::move(name)), child(std::move(child)), items(std::move(items)) {}
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_visit_error_paths.PNode", PNodeObj, ffi::Object);
};

static ffi::ObjectRef Node(const char* name, ffi::Any child = ffi::Any(),
                           ffi::Array<ffi::Any> items = {}) {
  return ffi::ObjectRef(
      ffi::make_object<PNodeObj>(ffi::String(name), std::move(child), std::move(items)));
}

// The record's type keys, innermost first.
static std::vector<std::string> RecordedKeys(const ffi::Error& err) {
  std::vector<std::string> keys;
  ffi::Optional<ffi::VisitErrorContext> context = ffi::VisitErrorContext::TryGetFromError(err);
  if (!context.has_value()) return keys;
  for (const ffi::ObjectRef& node : (*context)->reverse_visit_pattern) {
    keys.push_back(node->GetTypeKey());
  }
  return keys;
}

// The depths of the paths FindAccessPaths reports for `record` (innermost first) under `root`.
static std::vector<int32_t> Depths(const ffi::ObjectRef& root, std::vector<ffi::ObjectRef> record,
                                   bool allow_prefix_match = false) {
  ffi::ObjectPtr<ffi::VisitErrorContextObj> context = ffi::make_object<ffi::VisitErrorContextObj>();
  for (const ffi::ObjectRef& node : record) context->reverse_visit_pattern.push_back(node);
  std::vector<int32_t> depths;
  for (const auto& path : ffi::VisitErrorContext::FindAccessPaths(
           root, ffi::VisitErrorContext(context), allow_prefix_match)) {
    depths.push_back(path->depth);
  }
  return depths;
}

static std::vector<int32_t> Depths(const ffi::ObjectRef& root, const ffi::Error& err,
                                   bool allow_prefix_match = false) {
  std::vector<ffi::ObjectRef> record;
  ffi::VisitErrorContext context = ffi::VisitErrorContext::TryGetFromError(err).value();
  for (const ffi::ObjectRef& node : context->reverse_visit_pattern) record.push_back(node);
  return Depths(root, record, allow_prefix_match);
}

using Keys = std::vector<std::string>;
using Ints = std::vector<int32_t>;

// root{child: a, items: [[bad]]}: the failing node sits below two arrays.
struct Sample {
  ffi::ObjectRef bad = Node("bad");
  ffi::ObjectRef root = Node("root", ffi::Any(Node("a")), {ffi::Any(ffi::Array<ffi::Any>{ffi::Any(bad)})});
};
const Keys kBadUnderArrays{"test_visit_error_paths.PNode", "ffi.Array", "ffi.Array",
                           "test_visit_error_paths.PNode"};

void test_walks_record_every_object_they_unwind_through() {
  Sample s;
  auto fail_on_bad = [](const PNodeObj* node) -> ffi::WalkResult {
    if (node->name == "bad") TVM_FFI_THROW(ValueError) << "bad node";
    return ffi::WalkResult::Advance();
  };
  for (int order = 0; order < 2; ++order) {
    try {
      if (order == 0) ffi::StructuralWalk<ffi::WalkOrder::kPreOrder>(s.root, fail_on_bad);
      if (order == 1) ffi::StructuralWalk<ffi::WalkOrder::kPostOrder>(s.root, fail_on_bad);
      CHECK(false);
    } catch (const ffi::Error& err) {
      CHECK(err.kind() == "ValueError" && err.message() == "bad node");
      CHECK(RecordedKeys(err) == kBadUnderArrays);
      // A recorded container is never matched, so the record matches in full nowhere; as a
      // prefix it ends at each dead end below the root (root.child, root.items[0][0]).
      CHECK(Depths(s.root, err).empty());
      CHECK((Depths(s.root, err, true) == Ints{1, 3}));
    }
  }
}

void test_maps_record_alike_and_have_expected_forms() {
  Sample s;
  auto fail_on_bad = [](const PNodeObj* node) -> ffi::Any {
    if (node->name == "bad") TVM_FFI_THROW(ValueError) << "bad map";
    return ffi::Any(ffi::GetRef<ffi::ObjectRef>(node));
  };
  CHECK_THROWS(ffi::StructuralMap<ffi::WalkOrder::kPreOrder>(s.root, fail_on_bad), "ValueError", "bad map");
  ffi::Expected<ffi::Any> post = ffi::StructuralMapExpected<ffi::WalkOrder::kPostOrder>(s.root, fail_on_bad);
  CHECK(post.is_err() && post.error().message() == "bad map");
  CHECK(RecordedKeys(post.error()) == kBadUnderArrays);
  ffi::Expected<ffi::Any> pre = ffi::StructuralMapExpected<ffi::WalkOrder::kPreOrder>(s.root, fail_on_bad);
  CHECK(pre.is_err() && RecordedKeys(pre.error()) == kBadUnderArrays);
  // A callback returning its failure as an Unexpected records the same way.
  ffi::Expected<ffi::Any> unexpected = ffi::StructuralMapExpected<ffi::WalkOrder::kPostOrder>(
      s.root, [](const PNodeObj*) -> ffi::Expected<ffi::Any> {
        return ffi::Unexpected(ffi::Error("TypeError", "refused", ""));
      });
  CHECK(unexpected.is_err() && unexpected.error().kind() == "TypeError");
  CHECK((Depths(s.root, unexpected.error()) == Ints{1}));  // the first node refused: root.child
  ffi::Expected<ffi::Any> fine =
      ffi::StructuralMapExpected<ffi::WalkOrder::kPostOrder>(ffi::Any(int64_t{1}),
                                                             [](int64_t v) { return v + 1; });
  CHECK(fine.is_ok() && fine.value().cast<int64_t>() == 2);
  ffi::Expected<ffi::Any> mutated = ffi::StructuralMutateExpected(
      s.root, [](const PNodeObj* node, ffi::StructuralMutatorObj* mutator) -> ffi::Expected<ffi::Any> {
        if (node->name == "bad") return ffi::Unexpected(ffi::Error("IndexError", "bad mutate", ""));
        ffi::ObjectRef self = ffi::GetRef<ffi::ObjectRef>(node);
        ffi::Expected<ffi::UnchangedOr<ffi::Any>> out = mutator->DefaultMutateExpected(self);
        if (out.is_err()) return ffi::Unexpected(out.error());
        return std::move(out).value().ValueOrUnchanged(ffi::Any(self));
      });
  CHECK(mutated.is_err() && mutated.error().kind() == "IndexError");
  // The root twice: its callback's default descent failed, then the callback itself.
  Keys twice = kBadUnderArrays;
  twice.push_back("test_visit_error_paths.PNode");
  CHECK(RecordedKeys(mutated.error()) == twice);
  CHECK((Depths(s.root, mutated.error(), true) == Ints{1, 3}));
}

void test_string_callbacks_see_small_and_heap_strings() {
  ffi::Array<ffi::Any> values{ffi::Any(ffi::String("ab")), ffi::Any(ffi::String(std::string(40, 'x'))),
                              ffi::Any(int64_t{3}), ffi::Any(ffi::Bytes("b"))};
  std::vector<size_t> sizes;
  ffi::StructuralWalk<ffi::WalkOrder::kPreOrder>(values, [&](ffi::String s) -> ffi::WalkResult {
    sizes.push_back(s.size());
    return ffi::WalkResult::Advance();
  });
  CHECK((sizes == std::vector<size_t>{2, 40}));
  int bytes = 0;
  ffi::StructuralWalk<ffi::WalkOrder::kPreOrder>(values, [&](ffi::Bytes) -> ffi::WalkResult {
    ++bytes;
    return ffi::WalkResult::Advance();
  });
  CHECK_EQ(bytes, 1);
  ffi::Any mapped = ffi::StructuralMap<ffi::WalkOrder::kPostOrder>(
      values, [](ffi::String s) { return ffi::String(std::string(s) + "!"); });
  CHECK(mapped.cast<ffi::Array<ffi::Any>>()[0].cast<ffi::String>() == "ab!");
  // A failing string is recorded (it is an object), and is never matched: no full path.
  ffi::ObjectRef root = Node(std::string(40, 'x').c_str());
  ffi::Expected<ffi::Any> failed = ffi::StructuralMapExpected<ffi::WalkOrder::kPostOrder>(
      root, [](ffi::String) -> ffi::Expected<ffi::Any> {
        return ffi::Unexpected(ffi::Error("ValueError", "bad str", ""));
      });
  CHECK(failed.is_err());
  CHECK((RecordedKeys(failed.error()) == Keys{"ffi.String", "test_visit_error_paths.PNode"}));
  CHECK(Depths(root, failed.error()).empty() && Depths(root, failed.error(), true).empty());
}

void test_find_access_paths_rules() {
  ffi::ObjectRef stranger = Node("stranger"), leaf = Node("leaf");
  ffi::ObjectRef mid = Node("mid", ffi::Any(leaf));
  ffi::ObjectRef root = Node("root", ffi::Any(mid));
  CHECK((Depths(root, {leaf, mid, root}) == Ints{2}));
  CHECK((Depths(root, {leaf}) == Ints{2}));  // records may skip levels
  CHECK((Depths(root, {root}) == Ints{0}));
  CHECK(Depths(root, {}).empty() && Depths(root, {}, true).empty());  // an empty record: nothing
  CHECK((Depths(root, {mid, mid, root}) == Ints{1}));  // a node recorded twice matches both
  CHECK((Depths(root, {root, root}) == Ints{0}));
  CHECK(Depths(root, {stranger, mid, root}).empty());
  CHECK((Depths(root, {stranger, mid, root}, true) == Ints{2}));
  CHECK(Depths(root, {stranger}, true).empty());  // nothing matched: no prefix either
  // Built-in kinds other than containers are leaves, never matched; a root with no child node is
  // no dead end to report.
  ffi::Any leaves[] = {ffi::Any(int64_t{1}), ffi::Any(ffi::String(std::string(40, 'x'))),
                       ffi::Any(ffi::Shape({1, 2})),
                       ffi::Any(ffi::Function::FromTyped([](int x) { return x; }))};
  for (const ffi::Any& kind : leaves) {
    ffi::ObjectRef holder = Node("holder", kind);
    CHECK(Depths(holder, {stranger, holder}, true).empty());
    if (kind.type_index() >= ffi::TypeIndex::kTVMFFIStaticObjectBegin) {
      CHECK(Depths(holder, {kind.cast<ffi::ObjectRef>(), holder}).empty());
    }
  }
  ffi::ObjectRef deep = Node("deep", ffi::Any(int64_t{3}));
  ffi::ObjectRef above = Node("above", ffi::Any(deep));
  CHECK((Depths(above, {stranger, deep, above}, true) == Ints{1}));  // a matched dead end
}

int main() {
  refl::ObjectDef<PNodeObj>()
      .def_ro("name", &PNodeObj::name)
      .def_ro("child", &PNodeObj::child)
      .def_ro("items", &PNodeObj::items);
  RUN(test_walks_record_every_object_they_unwind_through);
  RUN(test_maps_record_alike_and_have_expected_forms);
  RUN(test_string_callbacks_see_small_and_heap_strings);
  RUN(test_find_access_paths_rules);
  return CHECK_MAIN_RESULT();
}
