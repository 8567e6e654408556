// cxx_abi_kernel.cc -- one kernel source that calls every C++ function libtvm_ffi.so exports
// (structural equality/hash, JSON, JSON graphs, deep copy/repr/recursive compare, modules,
// context symbols, VisitErrorContext::FindAccessPaths) and catches the library's
// tvm::ffi::Error. Built against OUR headers and against the REFERENCE's;
// test_cxx_abi_kernel.py runs each build on each runtime.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/extra/serialization.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/extra/structural_key.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/reflection/access_path.h>
#include <tvm/ffi/tvm_ffi.h>

#include <string>
#include <unordered_set>

namespace tvm {
namespace ffi {
// The reference declares these in tvm/ffi/extra/dataclass.h (exported by the library).
Any DeepCopy(const Any& value);
String ReprPrint(const Any& value);
int64_t RecursiveHash(const Any& value);
bool RecursiveEq(const Any& lhs, const Any& rhs);
bool RecursiveLt(const Any& lhs, const Any& rhs);
bool RecursiveLe(const Any& lhs, const Any& rhs);
bool RecursiveGt(const Any& lhs, const Any& rhs);
bool RecursiveGe(const Any& lhs, const Any& rhs);
}  // namespace ffi
}  // namespace tvm

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

namespace {

// "a.b[1]{key}" from a path's steps, read through the inline AccessPath API.
std::string FormatPath(const refl::AccessPath& path) {
  std::string out = "<root>";
  for (const refl::AccessStep& step : path->ToSteps()) {
    switch (step->kind) {
      case refl::AccessKind::kAttr:
        out += "." + std::string(step->key.cast<ffi::String>());
        break;
      case refl::AccessKind::kArrayItem:
        out += "[" + std::to_string(step->key.cast<int64_t>()) + "]";
        break;
      case refl::AccessKind::kArrayItemMissing:
        out += "[" + std::to_string(step->key.cast<int64_t>()) + "?]";
        break;
      default:
        out += "{" + std::to_string(static_cast<int>(step->kind)) + "}";
    }
  }
  return out;
}

bool StructuralEqual(ffi::Any lhs, ffi::Any rhs, bool map_free_vars) {
  return ffi::StructuralEqual::Equal(lhs, rhs, map_free_vars) && ffi::StructuralEqual()(lhs, lhs);
}

ffi::String FirstMismatch(ffi::Any lhs, ffi::Any rhs) {
  ffi::Optional<refl::AccessPathPair> paths = ffi::StructuralEqual::GetFirstMismatch(lhs, rhs);
  if (!paths.has_value()) return "equal";
  return FormatPath(paths.value().get<0>()) + " vs " + FormatPath(paths.value().get<1>());
}

int64_t StructuralHash(ffi::Any value, bool map_free_vars) {
  uint64_t hash = ffi::StructuralHash::Hash(value, map_free_vars);
  if (!map_free_vars && hash != ffi::StructuralHash()(value)) TVM_FFI_THROW(RuntimeError) << "functor";
  return static_cast<int64_t>(hash);
}

// Distinct StructuralKeys among the values: a std::unordered_set hashes and compares them.
int64_t DistinctStructuralKeys(ffi::Array<ffi::Any> values) {
  std::unordered_set<ffi::StructuralKey> keys;
  for (const ffi::Any& value : values) keys.insert(ffi::StructuralKey(value));
  return static_cast<int64_t>(keys.size());
}

ffi::Array<bool> RecursiveCompare(ffi::Any lhs, ffi::Any rhs) {
  return {ffi::RecursiveEq(lhs, rhs), ffi::RecursiveLt(lhs, rhs), ffi::RecursiveLe(lhs, rhs),
          ffi::RecursiveGt(lhs, rhs), ffi::RecursiveGe(lhs, rhs)};
}

int64_t RecursiveHash(ffi::Any value) { return ffi::RecursiveHash(value); }
ffi::Any DeepCopy(ffi::Any value) { return ffi::DeepCopy(value); }
ffi::String ReprPrint(ffi::Any value) { return ffi::ReprPrint(value); }

ffi::Any JsonParse(ffi::String text) { return ffi::json::Parse(text); }

// The message json::Parse reports through its out-parameter instead of throwing ("" when ok).
ffi::String JsonParseError(ffi::String text) {
  ffi::String error;
  ffi::json::Value value = ffi::json::Parse(text, &error);
  if (!error.empty() && value != nullptr) TVM_FFI_THROW(RuntimeError) << "value after an error";
  return error;
}

// The kind of the tvm::ffi::Error the library throws, caught here across the library boundary.
ffi::String JsonParseCaughtKind(ffi::String text) {
  try {
    ffi::json::Parse(text);
  } catch (const ffi::Error& err) {
    return err.kind();
  }
  return "no error";
}

ffi::String JsonStringify(ffi::Any value, ffi::Optional<int> indent) {
  return ffi::json::Stringify(value, indent);
}

ffi::Any ToJSONGraph(ffi::Any value, ffi::Any metadata) { return ffi::ToJSONGraph(value, metadata); }
ffi::Any FromJSONGraph(ffi::Any graph) { return ffi::FromJSONGraph(graph); }

// Loads `path` and reports what the module says about `name`, calling the function with 20.
ffi::Array<ffi::Any> ModuleQuery(ffi::String path, ffi::String name) {
  ffi::Module mod = ffi::Module::LoadFromFile(path);
  ffi::Optional<ffi::Function> own = mod->GetFunction(name);
  ffi::Optional<ffi::Function> with_imports = mod->GetFunction(name, true);
  ffi::Optional<ffi::String> doc = mod->GetFunctionDoc(name, true);
  ffi::Optional<ffi::String> metadata = mod->GetFunctionMetadata(name, true);
  ffi::Any called = own.has_value() ? (*own)(20) : ffi::Any(nullptr);
  return {ffi::String(mod->kind()), own.has_value(), with_imports.has_value(),
          mod->ImplementsFunction(name, false), doc.has_value(), metadata.has_value(), called};
}

// `main_path` imports `dep_path`: `name` (defined by dep only) is found through the imports
// until ClearImports.
ffi::Array<bool> ModuleImports(ffi::String main_path, ffi::String dep_path, ffi::String name) {
  ffi::Module main = ffi::Module::LoadFromFile(main_path);
  ffi::Module dep = ffi::Module::LoadFromFile(dep_path);
  bool before = main->GetFunction(name, true).has_value();
  main->ImportModule(dep);
  bool imported = main->GetFunction(name, true).has_value();
  bool not_own = !main->GetFunction(name, false).has_value();
  main->ClearImports();
  bool cleared = main->GetFunction(name, true).has_value();
  return {before, imported, not_own, cleared};
}

// Registers a context symbol, then finds it again through Module::VisitContextSymbols.
int64_t ContextSymbols(ffi::String name) {
  static int marker = 0;
  if (TVMFFIEnvModRegisterContextSymbol(name.c_str(), &marker) != 0) TVM_FFI_THROW(RuntimeError);
  int64_t matches = 0;
  ffi::Module::VisitContextSymbols([&](ffi::String symbol, void* address) {
    if (symbol == name && address == &marker) ++matches;
  });
  return matches;
}

// A visit that descends through `chain` (outermost first) and fails at its last node: the
// innermost node seeds the error's record, each enclosing level appends its own.
void Descend(const ffi::Array<ffi::ObjectRef>& chain, size_t i) {
  if (i + 1 == chain.size()) {
    TVM_FFI_VISIT_THROW(ValueError, chain[i]) << "bad node at depth " << i;
  }
  TVM_FFI_VISIT_BEGIN();
  Descend(chain, i + 1);
  TVM_FFI_VISIT_END(chain[i]);
}

// The paths from `root` FindAccessPaths reports for the visit's error; with `rethrow` the error
// goes on to the caller instead.
ffi::Array<ffi::String> VisitErrorPaths(ffi::ObjectRef root, ffi::Array<ffi::ObjectRef> chain, bool rethrow) {
  try {
    Descend(chain, 0);
  } catch (const ffi::Error& err) {
    if (rethrow) throw;
    ffi::Optional<ffi::VisitErrorContext> context = ffi::VisitErrorContext::TryGetFromError(err);
    if (!context.has_value()) TVM_FFI_THROW(RuntimeError) << "no visit context";
    if ((*context)->reverse_visit_pattern.size() != chain.size()) TVM_FFI_THROW(RuntimeError) << "record";
    ffi::Array<ffi::String> out;
    for (const auto& path : ffi::VisitErrorContext::FindAccessPaths(root, *context)) {
      out.push_back(FormatPath(path));
    }
    return out;
  }
  return {};
}

// FindAccessPaths for a record given innermost first, as "<root>..." strings.
ffi::Array<ffi::String> FindAccessPaths(ffi::ObjectRef root, ffi::Array<ffi::ObjectRef> innermost_first,
                                        bool allow_prefix_match) {
  ffi::VisitErrorContext context = ffi::detail::MakeVisitErrorContext(innermost_first[0]);
  for (size_t i = 1; i < innermost_first.size(); ++i) {
    context->reverse_visit_pattern.push_back(innermost_first[i]);
  }
  ffi::Array<ffi::String> out;
  for (const auto& path : ffi::VisitErrorContext::FindAccessPaths(root, context, allow_prefix_match)) {
    out.push_back(FormatPath(path));
  }
  return out;
}

int64_t AddOne(int64_t x) { return x + 1; }

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(structural_equal, StructuralEqual);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(first_mismatch, FirstMismatch);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(structural_hash, StructuralHash);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(distinct_structural_keys, DistinctStructuralKeys);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(recursive_compare, RecursiveCompare);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(recursive_hash, RecursiveHash);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(deep_copy, DeepCopy);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(repr_print, ReprPrint);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(json_parse, JsonParse);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(json_parse_error, JsonParseError);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(json_parse_caught_kind, JsonParseCaughtKind);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(json_stringify, JsonStringify);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(to_json_graph, ToJSONGraph);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(from_json_graph, FromJSONGraph);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(module_query, ModuleQuery);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(module_imports, ModuleImports);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(context_symbols, ContextSymbols);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(visit_error_paths, VisitErrorPaths);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(find_access_paths, FindAccessPaths);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
