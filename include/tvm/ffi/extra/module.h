/*
 * tvm/ffi/extra/module.h -- Module: a loaded library, or any module kind a kernel or compiler
 * defines, and the functions it exports.
 *
 * ModuleObj is an abstract C++ class (spec/ABI.md section 4): its vtable pointer sits at +0 and
 * the Object header at +8, with the same virtual functions in the same order as the reference's,
 * so a module kind defined here (a subclass, made with make_object) and one defined against the
 * reference's headers are the same binary thing: both load and run on either runtime. Modules
 * the runtime makes itself (shared libraries, the system library) carry a vtable supplied by
 * libtvm_ffi.so whose functions forward to its ffi.Module* globals.
 *
 * The non-virtual members (lookups that also search the imports, ImportModule's cycle check,
 * ClearImports), ModuleObj's vtable and typeinfo, Module::LoadFromFile and
 * Module::VisitContextSymbols are defined in libtvm_ffi.so (exported C++ functions, as in the
 * reference), so a subclass needs nothing else from the runtime.
 */
#ifndef TVM_FFI_EXTRA_MODULE_H_
#define TVM_FFI_EXTRA_MODULE_H_

#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

namespace tvm {
namespace ffi {

class Module;

/*!
 * \brief A module: a named collection of functions, with optional imports (other modules its
 * lookups fall back to). Subclass it to define a module kind; every subclass shares the type
 * index ffi.Module.
 */
class TVM_FFI_EXTRA_CXX_API ModuleObj : public Object {
 public:
  /*! \brief The module kind ("library", "system_lib", or the subclass's own name). */
  virtual const char* kind() const = 0;
  /*! \brief Bitwise OR of Module::ModulePropertyMask values (none by default). */
  virtual int GetPropertyMask() const { return 0; }
  /*! \brief The function `name` this module defines itself, or nullopt. */
  virtual Optional<Function> GetFunction(const String& name) = 0;
  /*! \brief Whether GetFunction(name) finds a function; override when that is cheaper to tell. */
  virtual bool ImplementsFunction(const String& name) { return GetFunction(name).has_value(); }
  /*! \brief The docstring of function `name`, if the module keeps one. */
  virtual Optional<String> GetFunctionDoc(const String& name) {
    (void)name;
    return std::nullopt;
  }
  /*! \brief The metadata (a JSON text) of function `name`, if the module keeps it. */
  virtual Optional<String> GetFunctionMetadata(const String& name) {
    (void)name;
    return std::nullopt;
  }
  /*! \brief Writes the module to `file_name` in `format` (one of GetWriteFormats()). */
  virtual void WriteToFile(const String& file_name, const String& format) const {
    (void)file_name, (void)format;
    TVM_FFI_THROW(RuntimeError) << "Module[" << kind() << "] does not support WriteToFile";
  }
  /*! \brief The formats WriteToFile accepts (none by default). */
  virtual Array<String> GetWriteFormats() const { return Array<String>(); }
  /*! \brief The module as bytes, for modules that are kBinarySerializable. */
  virtual Bytes SaveToBytes() const {
    TVM_FFI_THROW(RuntimeError) << "Module[" << kind() << "] does not support SaveToBytes";
    TVM_FFI_UNREACHABLE();  // nvcc's front end does not see that the throw leaves
  }
  /*! \brief Source text of the module in `format`, or empty when it has none. */
  virtual String InspectSource(const String& format) const {
    (void)format;
    return String();
  }
  /*! \brief Appends `other` to the imports; RuntimeError if that would make an import cycle. */
  virtual void ImportModule(const Module& other);
  /*! \brief Drops every import. */
  virtual void ClearImports();

  /*! \brief GetFunction(name), then (with query_imports) the imports, depth first. */
  Optional<Function> GetFunction(const String& name, bool query_imports);
  /*! \brief ImplementsFunction(name), then (with query_imports) the imports. */
  bool ImplementsFunction(const String& name, bool query_imports);
  /*! \brief GetFunctionDoc(name), then (with query_imports) the imports. */
  Optional<String> GetFunctionDoc(const String& name, bool query_imports);
  /*! \brief GetFunctionMetadata(name), then (with query_imports) the imports. */
  Optional<String> GetFunctionMetadata(const String& name, bool query_imports);
  /*! \brief The imported modules, in import order. */
  const Array<Any>& imports() const { return this->imports_; }

  /*! \brief The runtime's access to the fields below (defined in libtvm_ffi.so). */
  struct InternalUnsafe;

  static constexpr int32_t _type_index = TypeIndex::kTVMFFIModule;
  static constexpr bool _type_mutable = true;
  // Final for the type system: C++ subclasses are module kinds, not new FFI types.
  static constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIModule, ModuleObj, Object);

  ModuleObj() = default;

 protected:
  /*!
   * \brief A module whose fields stay null: for a subclass instance that only lends its vtable
   * and is never used as a module (the runtime's own module kind does this).
   */
  explicit ModuleObj(UnsafeInit tag) : imports_(tag), import_lookup_cache_(tag) {}

  friend struct InternalUnsafe;

  /*! \brief The imported modules (each a Module). */
  Array<Any> imports_;

 private:
  // The runtime's cache for TVMFFIEnvModLookupFromImports on this module (the reference's
  // layout: 48 bytes in all); nothing else reads it.
  Map<String, Function> import_lookup_cache_;
};

/*! \brief A non-null reference to a module. */
class Module : public ObjectRef {
 public:
  /*! \brief Bits of ModuleObj::GetPropertyMask. */
  enum ModulePropertyMask : int {
    kBinarySerializable = 0b001,    // SaveToBytes works; a composite library can embed it
    kRunnable = 0b010,              // its functions can be called in this process
    kCompilationExportable = 0b100  // WriteToFile output can be linked into a shared library
  };
  explicit Module(const ObjectPtr<ModuleObj>& ptr) : ObjectRef(ptr) {
    TVM_FFI_ICHECK(ptr != nullptr);
  }
  /*! \brief Loads a shared library (or a file of any format with a registered loader). */
  TVM_FFI_EXTRA_CXX_API static Module LoadFromFile(const String& file_name);
  /*!
   * \brief Calls callback(name, address) for each context symbol registered with
   * TVMFFIEnvModRegisterContextSymbol, in registration order.
   */
  TVM_FFI_EXTRA_CXX_API static void VisitContextSymbols(
      const TypedFunction<void(String, void*)>& callback);

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Module, ObjectRef, ModuleObj);
};

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
