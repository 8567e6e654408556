/*
 * module.cc -- the library side of tvm/ffi/extra/module.h: ModuleObj's vtable and typeinfo,
 * its non-virtual members (GetFunction / ImplementsFunction / GetFunctionDoc /
 * GetFunctionMetadata with `query_imports`, ImportModule, ClearImports), and
 * Module::LoadFromFile / VisitContextSymbols, under the reference's mangled names.
 *
 * ModuleObj is a polymorphic C++ class: its vtable pointer sits at +0 and the Object header at
 * +8 (spec/ABI.md section 4). Kernels call `mod->GetFunction(name)` through that vtable. Two
 * kinds of module objects therefore meet here:
 *  - modules this runtime made (C structs, src/runtime/module.c): the runtime reserves the slot
 *    before their header and stores the vtable of RuntimeModule below, whose functions forward
 *    to the runtime's ffi.Module* globals;
 *  - ModuleObj subclasses defined by kernels (custom module kinds, the modules a compiler such
 *    as TVM builds), against our headers or the reference's: their own vtable implements the
 *    virtual functions, and the non-virtual functions here follow the reference's semantics over
 *    their `imports_` array. Every ffi.Module* global of the runtime reaches them through
 *    ffi_cxx_module_call below.
 */
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstring>
#include <exception>
#include <new>
#include <utility>
#include <vector>

#include "../runtime/cxx_bridge.h"
#include "cxx_abi_internal.h"

namespace tvm {
namespace ffi {

static_assert(sizeof(ModuleObj) == 48, "ModuleObj is 48 bytes, as in the reference");
static_assert(sizeof(Module) == sizeof(void*), "Module is one pointer");
static_assert(sizeof(Array<Any>) == sizeof(TVMFFIObject*), "Array<Any> is one pointer");

/*! \brief Conversions between the C++ view of a module and its runtime object. */
struct ModuleObj::InternalUnsafe {
  static TVMFFIObject* Header(const ModuleObj* m) {
    return detail::ObjectUnsafe::GetHeader(static_cast<const Object*>(m));
  }
  static ModuleObj* FromHeader(TVMFFIObject* header) {
    return static_cast<ModuleObj*>(detail::ObjectUnsafe::ObjectFromHandle(header));
  }
  /*! \brief A new reference to the module, to pass to the runtime's globals. */
  static ObjectRef Ref(const ModuleObj* m) {
    return ObjectRef(detail::ObjectUnsafe::ObjectPtrFromUnowned<Object>(Header(m)));
  }
  static Module ModuleRef(ModuleObj* m) {
    return Module(detail::ObjectUnsafe::ObjectPtrFromUnowned<ModuleObj>(Header(m)));
  }
  static bool IsRuntimeMade(const ModuleObj* m) { return ffi_module_is_runtime_made(Header(m)) != 0; }
  /*! \brief The `imports_` array of a kernel-defined module. */
  static Array<Any>& Imports(ModuleObj* m) { return m->imports_; }
  /*! \brief The imported modules of a kernel-defined module. */
  static std::vector<ModuleObj*> ImportedModules(ModuleObj* m) {
    std::vector<ModuleObj*> out;
    for (const Any& item : m->imports_) {
      out.push_back(FromHeader(detail::ObjectUnsafe::GetHeader(item.cast<ObjectRef>().get())));
    }
    return out;
  }
};

using ModuleAccess = ModuleObj::InternalUnsafe;

namespace {

/*!
 * \brief The C++ view of the modules this runtime made. Never constructed as a module: the
 * runtime allocates those in C and stores this class's vtable pointer before their header.
 */
class RuntimeModule final : public ModuleObj {
 public:
  RuntimeModule() : ModuleObj(UnsafeInit{}) {}
  const char* kind() const final { return ffi_module_kind_cstr(ModuleAccess::Header(this)); }
  int GetPropertyMask() const final {
    return TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleGetPropertyMask")(Self()).cast<int>();
  }
  Optional<Function> GetFunction(const String& name) final {
    return TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleGetFunction")(Self(), name, false)
        .cast<Optional<Function>>();
  }
  bool ImplementsFunction(const String& name) final {
    return TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleImplementsFunction")(Self(), name, false).cast<bool>();
  }
  Optional<String> GetFunctionDoc(const String& name) final {
    return TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleGetFunctionDoc")(Self(), name, false)
        .cast<Optional<String>>();
  }
  Optional<String> GetFunctionMetadata(const String& name) final {
    return TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleGetFunctionMetadata")(Self(), name, false)
        .cast<Optional<String>>();
  }
  void WriteToFile(const String& file_name, const String& format) const final {
    TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleWriteToFile")(Self(), file_name, format);
  }
  Array<String> GetWriteFormats() const final {
    return TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleGetWriteFormats")(Self()).cast<Array<String>>();
  }
  // SaveToBytes: the inherited RuntimeError (no module kind of this runtime has a bytes form).
  String InspectSource(const String& format) const final {
    return TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleInspectSource")(Self(), format).cast<String>();
  }
  void ImportModule(const Module& other) final {
    TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleImportModule")(Self(), static_cast<const ObjectRef&>(other));
  }
  void ClearImports() final { TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleClearImports")(Self()); }

 private:
  ObjectRef Self() const { return ModuleAccess::Ref(this); }
};

}  // namespace

extern "C" const void* ffi_cxx_runtime_module_vptr(void) {
  // The vtable pointer RuntimeModule's constructor writes, read from one instance built once in
  // static storage (its fields null, nothing allocated; never used as an object).
  static const void* vptr = [] {
    alignas(RuntimeModule) static unsigned char storage[sizeof(RuntimeModule)];
    RuntimeModule* probe = new (storage) RuntimeModule();
    const void* value;
    std::memcpy(&value, static_cast<void*>(probe), sizeof(value));
    return value;
  }();
  return vptr;
}

// ---- the exported non-virtual members: runtime-made modules go to the runtime's globals,
// kernel-defined ones get the reference's behaviour (own lookup first, then the imports) ----

Optional<Function> ModuleObj::GetFunction(const String& name, bool query_imports) {
  if (ModuleAccess::IsRuntimeMade(this)) {
    return TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleGetFunction")(ModuleAccess::Ref(this), name,
                                                           query_imports)
        .cast<Optional<Function>>();
  }
  Optional<Function> own = this->GetFunction(name);
  if (own.has_value() || !query_imports) return own;
  for (ModuleObj* child : ModuleAccess::ImportedModules(this)) {
    Optional<Function> found = child->GetFunction(name, true);
    if (found.has_value()) return found;
  }
  return std::nullopt;
}

bool ModuleObj::ImplementsFunction(const String& name, bool query_imports) {
  if (ModuleAccess::IsRuntimeMade(this)) {
    return TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleImplementsFunction")(ModuleAccess::Ref(this), name,
                                                                  query_imports)
        .cast<bool>();
  }
  if (this->ImplementsFunction(name)) return true;
  if (!query_imports) return false;
  for (ModuleObj* child : ModuleAccess::ImportedModules(this)) {
    if (child->ImplementsFunction(name, true)) return true;
  }
  return false;
}

Optional<String> ModuleObj::GetFunctionDoc(const String& name, bool query_imports) {
  if (ModuleAccess::IsRuntimeMade(this)) {
    return TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleGetFunctionDoc")(ModuleAccess::Ref(this), name,
                                                              query_imports)
        .cast<Optional<String>>();
  }
  Optional<String> own = this->GetFunctionDoc(name);
  if (own.has_value() || !query_imports) return own;
  for (ModuleObj* child : ModuleAccess::ImportedModules(this)) {
    Optional<String> found = child->GetFunctionDoc(name, true);
    if (found.has_value()) return found;
  }
  return std::nullopt;
}

Optional<String> ModuleObj::GetFunctionMetadata(const String& name, bool query_imports) {
  if (ModuleAccess::IsRuntimeMade(this)) {
    return TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleGetFunctionMetadata")(ModuleAccess::Ref(this), name,
                                                                   query_imports)
        .cast<Optional<String>>();
  }
  Optional<String> own = this->GetFunctionMetadata(name);
  if (own.has_value() || !query_imports) return own;
  for (ModuleObj* child : ModuleAccess::ImportedModules(this)) {
    Optional<String> found = child->GetFunctionMetadata(name, true);
    if (found.has_value()) return found;
  }
  return std::nullopt;
}

// The key function: ModuleObj's vtable and typeinfo are emitted (and exported) here.
void ModuleObj::ImportModule(const Module& other) {
  if (ModuleAccess::IsRuntimeMade(this)) {
    TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleImportModule")(ModuleAccess::Ref(this),
                                                     static_cast<const ObjectRef&>(other));
    return;
  }
  int cyclic = ffi_module_reaches(detail::ObjectUnsafe::GetHeader(other.get()),
                                  ModuleAccess::Header(this));
  TVM_FFI_CHECK_SAFE_CALL(cyclic < 0 ? -1 : 0);
  if (cyclic != 0) {
    TVM_FFI_THROW(RuntimeError) << "Cyclic dependency detected during import";
  }
  ModuleAccess::Imports(this).push_back(static_cast<const ObjectRef&>(other));
}

void ModuleObj::ClearImports() {
  if (ModuleAccess::IsRuntimeMade(this)) {
    TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleClearImports")(ModuleAccess::Ref(this));
    return;
  }
  ModuleAccess::Imports(this) = Array<Any>();
}

// ---- the runtime's ffi.Module* globals on kernel-defined modules (cxx_bridge.h) ----

extern "C" int ffi_cxx_module_call(TVMFFIObject* module, FfiCxxModuleOp op,
                                   const FfiCxxModuleArgs* in, TVMFFIAny* result) {
  TVM_FFI_SAFE_CALL_BEGIN();
  ModuleObj* m = ModuleAccess::FromHeader(module);
  bool imports = in->query_imports != 0;
  Any out;
  switch (op) {
    case kFfiCxxModuleGetFunction:
      out = m->GetFunction(String(in->text), imports);
      break;
    case kFfiCxxModuleImplementsFunction:
      out = m->ImplementsFunction(String(in->text), imports);
      break;
    case kFfiCxxModuleGetFunctionDoc:
      out = m->GetFunctionDoc(String(in->text), imports);
      break;
    case kFfiCxxModuleGetFunctionMetadata:
      out = m->GetFunctionMetadata(String(in->text), imports);
      break;
    case kFfiCxxModuleKind:
      out = String(m->kind());
      break;
    case kFfiCxxModulePropertyMask:
      out = static_cast<int64_t>(m->GetPropertyMask());
      break;
    case kFfiCxxModuleWriteFormats:
      out = m->GetWriteFormats();
      break;
    case kFfiCxxModuleInspectSource:
      out = m->InspectSource(String(in->text));
      break;
    case kFfiCxxModuleWriteToFile:
      m->WriteToFile(String(in->text), String(in->format));
      break;
    case kFfiCxxModuleImportModule:
      m->ImportModule(ModuleAccess::ModuleRef(ModuleAccess::FromHeader(in->other)));
      break;
    case kFfiCxxModuleClearImports:
      m->ClearImports();
      break;
  }
  *result = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(out));
  TVM_FFI_SAFE_CALL_END();
}

// ---- Module ----

Module Module::LoadFromFile(const String& file_name) {
  return TVM_FFI_CXX_ABI_GLOBAL("ffi.ModuleLoadFromFile")(file_name).cast<Module>();
}

namespace {
struct VisitState {
  const TypedFunction<void(String, void*)>* callback;
  std::exception_ptr error;  // a C++ exception from the callback, rethrown after the walk
};
}  // namespace

void Module::VisitContextSymbols(const TypedFunction<void(String, void*)>& callback) {
  VisitState state{&callback, nullptr};
  int rc = ffi_module_visit_context_symbols(
      [](void* ctx, const char* name, void* address) -> int {
        VisitState* st = static_cast<VisitState*>(ctx);
        try {
          (*st->callback)(String(name), address);
          return 0;
        } catch (...) {
          st->error = std::current_exception();
          return -1;
        }
      },
      &state);
  if (state.error) std::rethrow_exception(state.error);
  TVM_FFI_CHECK_SAFE_CALL(rc);
}

}  // namespace ffi
}  // namespace tvm
