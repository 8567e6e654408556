// test_module.cc -- extra/module.h: loading a kernel library built against our headers and
// reaching its exported functions, metadata and docs; a module kind defined here as a ModuleObj
// subclass, as a compiler defines its compiled modules. argv[1] is the directory of the built
// plugins (plugins/cpp_kernel.cc).
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/tvm_ffi.h>

#include "check.h"

namespace ffi = tvm::ffi;

static std::string plugin_dir;

void test_load_and_call() {
  ffi::Module mod = ffi::Module::LoadFromFile(plugin_dir + "/cpp_kernel.so");
  CHECK(std::string(mod->kind()) == "library");
  CHECK(mod->GetPropertyMask() & ffi::Module::kRunnable);
  ffi::Function scale = mod->GetFunction("scale").value();
  CHECK_EQ(scale(10, 2.5).cast<int64_t>(), 25);
  CHECK_THROWS(scale("x", 1.0), "TypeError",
               "Mismatched type on argument #0 when calling: `scale(0: int, 1: float) -> int`");
  CHECK(mod->ImplementsFunction("describe"));
  CHECK(!mod->GetFunction("missing").has_value());
  CHECK_EQ(mod->GetFunction("main").value()(41).cast<int64_t>(), 42);
  // The library's static initializer registered a global when it was loaded.
  CHECK(ffi::Function::GetGlobalRequired("test.cpp_kernel.loaded")().cast<bool>());
}

void test_metadata_and_doc() {
  ffi::Module mod = ffi::Module::LoadFromFile(plugin_dir + "/cpp_kernel.so");
  ffi::Optional<ffi::String> meta = mod->GetFunctionMetadata("scale");
  CHECK(meta.has_value());
  CHECK(std::string(meta.value()).find("\\\"params\\\":[{\\\"type\\\":\\\"int\\\"},{\\\"type\\\":\\\"float\\\"}]") !=
        std::string::npos);
  CHECK(mod->GetFunctionDoc("scale").value() == "Scales x by factor, rounding toward zero.");
  CHECK(!mod->GetFunctionDoc("describe").has_value());
}

// A module kind of our own: one function, "scale_by", bound to the module's factor.
class ScalerModuleObj : public ffi::ModuleObj {
 public:
  explicit ScalerModuleObj(int64_t factor) : factor_(factor) {}
  const char* kind() const final { return "scaler"; }
  int GetPropertyMask() const final { return ffi::Module::kRunnable; }
  ffi::Optional<ffi::Function> GetFunction(const ffi::String& name) final {
    if (name != "scale_by") return std::nullopt;
    int64_t factor = factor_;
    return ffi::Function::FromTyped([factor](int64_t x) { return x * factor; });
  }
  ffi::Optional<ffi::String> GetFunctionDoc(const ffi::String& name) final {
    if (name != "scale_by") return std::nullopt;
    return ffi::String("Multiplies by the module's factor.");
  }

 private:
  int64_t factor_;
};

static ffi::Module MakeScaler(int64_t factor) {
  return ffi::Module(ffi::make_object<ScalerModuleObj>(factor));
}

void test_module_subclass() {
  static_assert(sizeof(ffi::ModuleObj) == 48, "vtable pointer, header, imports, lookup cache");
  ffi::Module mod = MakeScaler(3);
  CHECK(std::string(mod->kind()) == "scaler");
  CHECK(mod->GetPropertyMask() == ffi::Module::kRunnable);
  CHECK_EQ(mod->GetFunction("scale_by").value()(5).cast<int64_t>(), 15);
  CHECK(!mod->GetFunction("missing").has_value());
  CHECK(mod->ImplementsFunction("scale_by") && !mod->ImplementsFunction("missing"));
  CHECK(mod->GetFunctionDoc("scale_by").value() == "Multiplies by the module's factor.");
  CHECK(!mod->GetFunctionMetadata("scale_by").has_value());
  CHECK_EQ(mod->GetWriteFormats().size(), 0);
  CHECK(mod->InspectSource("").empty());
  CHECK_THROWS(mod->SaveToBytes(), "RuntimeError", "Module[scaler] does not support SaveToBytes");
  CHECK_THROWS(mod->WriteToFile("out.txt", "txt"), "RuntimeError",
               "Module[scaler] does not support WriteToFile");
  // The object is an ffi.Module to the runtime: its globals answer through the vtable.
  ffi::Function kind_of = ffi::Function::GetGlobalRequired("ffi.ModuleGetKind");
  CHECK(kind_of(mod).cast<ffi::String>() == "scaler");
  ffi::Any as_any = mod;
  CHECK(as_any.type_index() == ffi::TypeIndex::kTVMFFIModule);
  CHECK(as_any.cast<ffi::Module>()->GetFunction("scale_by").has_value());
}

void test_module_subclass_imports() {
  ffi::Module outer = MakeScaler(2);
  ffi::Module library = ffi::Module::LoadFromFile(plugin_dir + "/cpp_kernel.so");
  CHECK(!outer->GetFunction("scale", true).has_value());
  outer->ImportModule(library);
  CHECK_EQ(outer->imports().size(), 1);
  CHECK(!outer->GetFunction("scale", false).has_value());
  CHECK_EQ(outer->GetFunction("scale", true).value()(10, 2.5).cast<int64_t>(), 25);
  CHECK(outer->ImplementsFunction("scale", true) && !outer->ImplementsFunction("scale", false));
  CHECK(outer->GetFunctionDoc("scale", true).value() == "Scales x by factor, rounding toward zero.");
  CHECK(outer->GetFunctionMetadata("scale", true).has_value());
  // Its own functions come first.
  CHECK_EQ(outer->GetFunction("scale_by", true).value()(4).cast<int64_t>(), 8);
  // A runtime-made module can import a subclass instance too, and lookups reach into it.
  ffi::Module inner = MakeScaler(7);
  library->ImportModule(inner);
  CHECK_EQ(library->GetFunction("scale_by", true).value()(1).cast<int64_t>(), 7);
  // imports() reads the runtime's own import array of a module it made (same offset).
  CHECK_EQ(library->imports().size(), 1);
  CHECK(library->imports()[0].cast<ffi::Module>().get() == inner.get());
  // Cycles are refused, whichever kind of module closes them.
  CHECK_THROWS(inner->ImportModule(outer), "RuntimeError", "Cyclic dependency");
  outer->ClearImports();
  CHECK_EQ(outer->imports().size(), 0);
  CHECK(!outer->GetFunction("scale", true).has_value());
  library->ClearImports();
}

void test_missing_library() {
  CHECK_THROWS(ffi::Module::LoadFromFile(plugin_dir + "/no_such_library.so"), "RuntimeError",
               "no_such_library.so");
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <plugin dir>\n", argv[0]);
    return 2;
  }
  plugin_dir = argv[1];
  RUN(test_load_and_call);
  RUN(test_metadata_and_doc);
  RUN(test_module_subclass);
  RUN(test_module_subclass_imports);
  RUN(test_missing_library);
  return CHECK_MAIN_RESULT();
}
