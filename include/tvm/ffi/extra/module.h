/*
 * tvm/ffi/extra/module.h -- Module: a loaded library (or any runtime module) and its functions.
 * The module object belongs to the runtime; every operation is a runtime global function
 * (ffi.ModuleLoadFromFile, ffi.ModuleGetFunction, ...), so code using this header needs only
 * the C API of libtvm_ffi.so. Defining new module kinds in C++ is not supported here.
 */
#ifndef TVM_FFI_EXTRA_MODULE_H_
#define TVM_FFI_EXTRA_MODULE_H_

#include <tvm/ffi/container/array.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

namespace tvm {
namespace ffi {

// A runtime global function looked up once per use site (thread-safe local static, kept
// for the process lifetime so no destructor runs after the runtime is gone).
#define TVM_FFI_MODULE_GLOBAL_(Name)                                              \
  []() -> const ::tvm::ffi::Function& {                                           \
    static const ::tvm::ffi::Function* f =                                        \
        new ::tvm::ffi::Function(::tvm::ffi::Function::GetGlobalRequired(Name)); \
    return *f;                                                                    \
  }()

class Module;

/*! \brief The ffi.Module object (opaque: its layout belongs to the runtime). */
class ModuleObj : public Object {
 public:
  static constexpr int32_t _type_index = TypeIndex::kTVMFFIModule;
  static constexpr int32_t _type_child_slots = 0;
  static constexpr bool _type_child_slots_can_overflow = false;
  static constexpr bool _type_final = true;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIModule, ModuleObj, Object);

  /*! \brief The module kind ("library", "system_lib", ...). */
  String kind() const { return TVM_FFI_MODULE_GLOBAL_("ffi.ModuleGetKind")(Self()).cast<String>(); }
  int GetPropertyMask() const {
    return TVM_FFI_MODULE_GLOBAL_("ffi.ModuleGetPropertyMask")(Self()).cast<int>();
  }
  /*! \brief The exported function `name`, or None. */
  Optional<Function> GetFunction(const String& name, bool query_imports = false) const {
    return TVM_FFI_MODULE_GLOBAL_("ffi.ModuleGetFunction")(Self(), name, query_imports)
        .cast<Optional<Function>>();
  }
  bool ImplementsFunction(const String& name, bool query_imports = false) const {
    return TVM_FFI_MODULE_GLOBAL_("ffi.ModuleImplementsFunction")(Self(), name, query_imports)
        .cast<bool>();
  }
  Optional<String> GetFunctionDoc(const String& name, bool query_imports = false) const {
    return TVM_FFI_MODULE_GLOBAL_("ffi.ModuleGetFunctionDoc")(Self(), name, query_imports)
        .cast<Optional<String>>();
  }
  Optional<String> GetFunctionMetadata(const String& name, bool query_imports = false) const {
    return TVM_FFI_MODULE_GLOBAL_("ffi.ModuleGetFunctionMetadata")(Self(), name, query_imports)
        .cast<Optional<String>>();
  }
  Array<String> GetWriteFormats() const {
    return TVM_FFI_MODULE_GLOBAL_("ffi.ModuleGetWriteFormats")(Self()).cast<Array<String>>();
  }
  String InspectSource(const String& format = "") const {
    return TVM_FFI_MODULE_GLOBAL_("ffi.ModuleInspectSource")(Self(), format).cast<String>();
  }
  void WriteToFile(const String& file_name, const String& format) const {
    TVM_FFI_MODULE_GLOBAL_("ffi.ModuleWriteToFile")(Self(), file_name, format);
  }
  inline void ImportModule(const Module& other) const;
  void ClearImports() const { TVM_FFI_MODULE_GLOBAL_("ffi.ModuleClearImports")(Self()); }

 private:
  const ModuleObj* Self() const noexcept { return this; }
};

/*! \brief A reference to a module. */
class Module : public ObjectRef {
 public:
  enum ModulePropertyMask : int {
    kBinarySerializable = 0b001,
    kRunnable = 0b010,
    kCompilationExportable = 0b100
  };
  explicit Module(ObjectPtr<ModuleObj> ptr) : ObjectRef(std::move(ptr)) {
    TVM_FFI_ICHECK(data_ != nullptr);
  }
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Module, ObjectRef, ModuleObj);

  /*! \brief Loads a shared library (or any format with a registered loader). */
  static Module LoadFromFile(const String& file_name) {
    return TVM_FFI_MODULE_GLOBAL_("ffi.ModuleLoadFromFile")(file_name).cast<Module>();
  }
  /*!
   * \brief Calls callback(name, address) for each context symbol registered with
   * TVMFFIEnvModRegisterContextSymbol, in registration order.
   * \param callback The visitor.
   * \note Defined by libtvm_ffi.so (an exported C++ function, as in the reference).
   */
  TVM_FFI_EXTRA_CXX_API static void VisitContextSymbols(
      const TypedFunction<void(String, void*)>& callback);
  /*! \brief Shorthand for (*this)->GetFunction(name, query_imports). */
  Optional<Function> GetFunction(const String& name, bool query_imports = false) const {
    return get()->GetFunction(name, query_imports);
  }
};

inline void ModuleObj::ImportModule(const Module& other) const {
  TVM_FFI_MODULE_GLOBAL_("ffi.ModuleImportModule")(Self(), other);
}

/*! \brief Symbol names a module library exports or is given. */
namespace symbol {
constexpr const char* tvm_ffi_symbol_prefix = "__tvm_ffi_";
constexpr const char* tvm_ffi_main = "__tvm_ffi_main";
constexpr const char* tvm_ffi_library_ctx = "__tvm_ffi__library_ctx";
constexpr const char* tvm_ffi_library_bin = "__tvm_ffi__library_bin";
constexpr const char* tvm_ffi_metadata_prefix = "__tvm_ffi__metadata_";
constexpr const char* tvm_ffi_doc_prefix = "__tvm_ffi__doc_";
}  // namespace symbol

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_MODULE_H_
