// custom_module.cc -- a custom module kind: a C++ subclass of tvm::ffi::ModuleObj, as compilers
// such as TVM define theirs; written once, built against either package's headers. It needs
// ModuleObj's vtable/typeinfo and its exported non-virtual members from libtvm_ffi.so, and
// registers a bytes loader (ffi.Module.load_from_bytes.echo) so
// that a composite library (custom_module_bin.cc) can embed an echo module.
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

#include <fstream>
#include <string>

#include "call_from_imports.h"

namespace ffi = tvm::ffi;

namespace {

class EchoModuleObj : public ffi::ModuleObj {
 public:
  explicit EchoModuleObj(ffi::String greeting = "hello") : greeting_(std::move(greeting)) {}
  const char* kind() const final { return "echo"; }
  int GetPropertyMask() const final {
    return ffi::Module::kBinarySerializable | ffi::Module::kCompilationExportable;
  }
  ffi::Optional<ffi::Function> GetFunction(const ffi::String& name) final {
    if (name == "greeting") {
      ffi::String greeting = greeting_;
      return ffi::Function::FromTyped([greeting]() { return greeting; });
    }
    if (name == "call_from_imports") {
      // As TVM's JIT-compiled modules do: the module is its own library context, and its code
      // reaches its imports (then the global registry) through TVMFFIEnvModLookupFromImports.
      ffi::ModuleObj* self = this;
      return ffi::Function::FromPacked([self](ffi::PackedArgs args, ffi::Any* rv) {
        ffi::String target = args[0].cast<ffi::String>();
        *rv = CallFromImports(self, target.c_str(), reinterpret_cast<const TVMFFIAny*>(args.data() + 1),
                              static_cast<int32_t>(args.size() - 1));
      });
    }
    if (name != "echo") return std::nullopt;
    return ffi::Function::FromTyped([](ffi::String text) { return text; });
  }
  ffi::Array<ffi::String> GetWriteFormats() const final { return {"txt"}; }
  ffi::String InspectSource(const ffi::String& format) const final {
    return "echo source (" + std::string(format) + ")";
  }
  void WriteToFile(const ffi::String& file_name, const ffi::String& format) const final {
    if (format != "txt") TVM_FFI_THROW(ValueError) << "echo writes only txt, not " << format;
    std::ofstream(std::string(file_name)) << std::string(greeting_);
  }
  ffi::Optional<ffi::String> GetFunctionDoc(const ffi::String& name) final {
    if (name != "echo") return std::nullopt;
    return ffi::String("Returns its argument.");
  }

 private:
  ffi::String greeting_;
};

ffi::Module MakeEcho() { return ffi::Module(ffi::make_object<EchoModuleObj>()); }

// The module used inside the kernel: its own lookups, imports of a loaded library, a cyclic
// import refused, and ClearImports.
ffi::Array<ffi::Any> EchoInside(ffi::String library, ffi::String library_function) {
  ffi::Module echo = MakeEcho();
  ffi::Any echoed = (*echo->GetFunction("echo", true))(ffi::String("hi"));
  bool before = echo->GetFunction(library_function, true).has_value();
  echo->ImportModule(ffi::Module::LoadFromFile(library));
  bool imported = echo->GetFunction(library_function, true).has_value() &&
                  echo->ImplementsFunction(library_function, true) &&
                  !echo->ImplementsFunction(library_function, false);
  ffi::Module other = MakeEcho();
  other->ImportModule(echo);
  ffi::String cycle = "accepted";
  try {
    echo->ImportModule(other);
  } catch (const ffi::Error& err) {
    cycle = err.kind() + ": " + err.message();
  }
  echo->ClearImports();
  bool cleared = !echo->GetFunction(library_function, true).has_value();
  ffi::Optional<ffi::String> doc = echo->GetFunctionDoc("echo", true);
  return {echoed, before, imported, cycle, cleared, doc.value_or("none"), ffi::String(echo->kind())};
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_echo, MakeEcho);

// The loader a composite library's "echo" node goes through: the blob is the greeting.
TVM_FFI_STATIC_INIT_BLOCK() {
  tvm::ffi::reflection::GlobalDef().def("ffi.Module.load_from_bytes.echo", [](ffi::Bytes blob) {
    return ffi::Module(ffi::make_object<EchoModuleObj>(ffi::String(blob.data(), blob.size())));
  });
}
TVM_FFI_DLL_EXPORT_TYPED_FUNC(echo_inside, EchoInside);
