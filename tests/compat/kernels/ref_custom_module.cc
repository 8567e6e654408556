// ref_custom_module.cc -- a custom module kind defined the reference's way: a C++ subclass of
// tvm::ffi::ModuleObj (reference headers only; ours do not support subclassing). It needs
// ModuleObj's vtable/typeinfo and its exported non-virtual members from libtvm_ffi.so.
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/tvm_ffi.h>

namespace ffi = tvm::ffi;

namespace {

class EchoModuleObj : public ffi::ModuleObj {
 public:
  const char* kind() const final { return "echo"; }
  ffi::Optional<ffi::Function> GetFunction(const ffi::String& name) final {
    if (name != "echo") return std::nullopt;
    return ffi::Function::FromTyped([](ffi::String text) { return text; });
  }
  ffi::Optional<ffi::String> GetFunctionDoc(const ffi::String& name) final {
    if (name != "echo") return std::nullopt;
    return ffi::String("Returns its argument.");
  }
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
TVM_FFI_DLL_EXPORT_TYPED_FUNC(echo_inside, EchoInside);
