// test_extra_headers.cc -- the extra headers whose functions libtvm_ffi.so exports (src/cxx_abi):
// access paths, structural equality/hash/key, JSON text and graphs, visit error contexts, and
// Module::VisitContextSymbols, used as a kernel author would.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/extra/serialization.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/extra/structural_key.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/reflection/access_path.h>

#include <string>
#include <unordered_map>

#include "check.h"

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

void test_access_paths() {
  refl::AccessPath root = refl::AccessPath::Root();
  refl::AccessPath path = root->Attr("body")->ArrayItem(2)->MapItem(ffi::String("k"));
  CHECK_EQ(path->depth, 3);
  ffi::Array<refl::AccessStep> steps = path->ToSteps();
  CHECK_EQ(steps.size(), 3u);
  CHECK(steps[0]->kind == refl::AccessKind::kAttr && steps[0]->key.cast<ffi::String>() == "body");
  CHECK(steps[1]->kind == refl::AccessKind::kArrayItem && steps[1]->key.cast<int64_t>() == 2);
  CHECK(steps[2]->StepEqual(refl::AccessStep::MapItem(ffi::String("k"))));
  refl::AccessPath rebuilt = refl::AccessPath::FromSteps(steps);
  CHECK(rebuilt->PathEqual(path) && !rebuilt.same_as(path));
  CHECK(root->IsPrefixOf(path) && path->GetParent().value()->IsPrefixOf(path));
  CHECK(!path->IsPrefixOf(path->GetParent().value()));
  CHECK(!root->GetParent().has_value());
  CHECK(!path->PathEqual(root->Attr("body")->ArrayItemMissing(2)->MapItemMissing(ffi::String("k"))));
}

void test_structural_equal_hash_and_key() {
  ffi::Array<ffi::Any> a{1, ffi::String("x"), ffi::Array<ffi::Any>{2, 3}};
  ffi::Array<ffi::Any> same{1, ffi::String("x"), ffi::Array<ffi::Any>{2, 3}};
  ffi::Array<ffi::Any> other{1, ffi::String("x"), ffi::Array<ffi::Any>{2, 4}};
  CHECK(ffi::StructuralEqual::Equal(a, same) && ffi::StructuralEqual()(a, same));
  CHECK(!ffi::StructuralEqual::Equal(a, other));
  CHECK(!ffi::StructuralEqual::GetFirstMismatch(a, same).has_value());
  ffi::Optional<refl::AccessPathPair> mismatch = ffi::StructuralEqual::GetFirstMismatch(a, other);
  CHECK(mismatch.has_value());
  CHECK(mismatch.value().get<0>()->PathEqual(refl::AccessPath::Root()->ArrayItem(2)->ArrayItem(1)));
  CHECK_EQ(ffi::StructuralHash::Hash(a), ffi::StructuralHash()(same));
  CHECK(ffi::StructuralHash::Hash(a) != ffi::StructuralHash::Hash(other));
  std::unordered_map<ffi::StructuralKey, int> counts;
  for (const ffi::Any& v : {ffi::Any(a), ffi::Any(same), ffi::Any(other)}) ++counts[ffi::StructuralKey(v)];
  CHECK_EQ(counts.size(), 2u);
  CHECK_EQ(counts[ffi::StructuralKey(a)], 2);
  CHECK(ffi::StructuralKey(a) == ffi::StructuralKey(same) && ffi::StructuralKey(a) != ffi::StructuralKey(other));
}

void test_json_text() {
  ffi::json::Value value = ffi::json::Parse("{\"a\": [1, 2.5, null, true]}");
  ffi::json::Array items = value.cast<ffi::json::Object>()[ffi::String("a")].cast<ffi::json::Array>();
  CHECK(items.size() == 4 && items[0].cast<int64_t>() == 1 && items[1].cast<double>() == 2.5);
  CHECK(ffi::json::Stringify(value) == "{\"a\":[1,2.5,null,true]}");
  CHECK(ffi::json::Stringify(ffi::json::Array{1}, 2) == "[\n  1\n]");
  ffi::String error;
  CHECK(ffi::json::Parse("[1,", &error) == nullptr && !error.empty());
  bool threw = false;
  try {
    ffi::json::Parse("[1,");
  } catch (const ffi::Error& err) {
    threw = err.kind() == "ValueError";
  }
  CHECK(threw);
}

void test_json_graph_round_trip() {
  ffi::Array<ffi::Any> shared{1, 2};
  ffi::Map<ffi::String, ffi::Any> value{{"x", shared}, {"y", shared}};
  ffi::json::Value graph = ffi::ToJSONGraph(value, ffi::Map<ffi::String, ffi::Any>{{"v", 1}});
  ffi::Any back = ffi::FromJSONGraph(graph);
  CHECK(ffi::StructuralEqual::Equal(back, value));
  auto map = back.cast<ffi::Map<ffi::String, ffi::Any>>();
  CHECK(map["x"].cast<ffi::ObjectRef>().same_as(map["y"].cast<ffi::ObjectRef>()));
}

// A visit down `chain` that fails at its last node.
void Descend(const ffi::Array<ffi::ObjectRef>& chain, size_t i) {
  if (i >= chain.size()) return;
  if (i + 1 < chain.size()) {
    TVM_FFI_VISIT_BEGIN();
    Descend(chain, i + 1);
    TVM_FFI_VISIT_END(chain[i]);
    return;
  }
  TVM_FFI_VISIT_THROW(TypeError, chain[i]) << "bad leaf";
}

// The same walk returning its failure instead of throwing it.
ffi::Expected<int> DescendExpected(const ffi::Array<ffi::ObjectRef>& chain) {
  TVM_FFI_VISIT_BEGIN();
  Descend(chain, 1);
  return 0;
  TVM_FFI_VISIT_END_RETURN_EXPECTED(chain[0]);
}

void test_visit_error_context() {
  ffi::Array<ffi::Any> leaf{1};
  ffi::Array<ffi::Any> mid{leaf};
  ffi::Array<ffi::ObjectRef> chain{mid, leaf};
  try {
    Descend(chain, 0);
    CHECK(false);
  } catch (const ffi::Error& err) {
    CHECK(err.kind() == "TypeError" && err.message() == "bad leaf");
    ffi::Optional<ffi::VisitErrorContext> context = ffi::VisitErrorContext::TryGetFromError(err);
    CHECK(context.has_value());
    CHECK_EQ((*context)->reverse_visit_pattern.size(), 2u);
    CHECK((*context)->reverse_visit_pattern[0].same_as(leaf));
    // Containers are passed through, never matched: an array root has no path (as the reference).
    CHECK_EQ(ffi::VisitErrorContext::FindAccessPaths(mid, *context).size(), 0u);
  }
  ffi::Expected<int> failed = DescendExpected(chain);
  CHECK(failed.is_err() && failed.error().message() == "bad leaf");
  ffi::Optional<ffi::VisitErrorContext> recorded =
      ffi::VisitErrorContext::TryGetFromError(failed.error());
  CHECK(recorded.has_value() && (*recorded)->reverse_visit_pattern.size() == 2u);
  CHECK((*recorded)->reverse_visit_pattern[1].same_as(mid));
  ffi::Error plain("ValueError", "no record", "");
  CHECK(!ffi::VisitErrorContext::TryGetFromError(plain).has_value());
}

void test_visit_context_symbols() {
  static int marker = 0;
  CHECK_EQ(TVMFFIEnvModRegisterContextSymbol("test_extra_headers.marker", &marker), 0);
  int seen = 0;
  ffi::Module::VisitContextSymbols([&](ffi::String name, void* address) {
    if (name == "test_extra_headers.marker" && address == &marker) ++seen;
  });
  CHECK_EQ(seen, 1);
}

int main() {
  RUN(test_access_paths);
  RUN(test_structural_equal_hash_and_key);
  RUN(test_json_text);
  RUN(test_json_graph_round_trip);
  RUN(test_visit_error_context);
  RUN(test_visit_context_symbols);
  return CHECK_MAIN_RESULT();
}
