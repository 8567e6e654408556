// test_module.cc -- extra/module.h: loading a kernel library built against our headers and
// reaching its exported functions, metadata and docs. argv[1] is the directory of the built
// plugins (plugins/cpp_kernel.cc).
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/tvm_ffi.h>

#include "check.h"

namespace ffi = tvm::ffi;

static std::string plugin_dir;

void test_load_and_call() {
  ffi::Module mod = ffi::Module::LoadFromFile(plugin_dir + "/cpp_kernel.so");
  CHECK(mod->kind() == "library");
  CHECK(mod->GetPropertyMask() & ffi::Module::kRunnable);
  ffi::Function scale = mod->GetFunction("scale").value();
  CHECK_EQ(scale(10, 2.5).cast<int64_t>(), 25);
  CHECK_THROWS(scale("x", 1.0), "TypeError",
               "Mismatched type on argument #0 when calling: `scale(0: int, 1: float) -> int`");
  CHECK(mod->ImplementsFunction("describe"));
  CHECK(!mod.GetFunction("missing").has_value());
  CHECK_EQ(mod.GetFunction("main").value()(41).cast<int64_t>(), 42);
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
  RUN(test_missing_library);
  return CHECK_MAIN_RESULT();
}
