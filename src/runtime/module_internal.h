/*
 * module_internal.h -- what the module files of the runtime share.
 *
 * Module objects (type index kTVMFFIModule) made here use a private, header-first layout owned
 * by module.c. Kernels see them as the C++ class ModuleObj (extra/module.h) through the vtable
 * slot before the header (cxx_bridge.h) and read one field inline: `imports_` (an ffi.Array of
 * the imported modules), which the reference also reflects read-only. Ours sits at the same
 * offset (header +24), which the type registry describes as an 8-byte object-reference field
 * for Python's `Module.imports`.
 *
 * The files and their one-way arrows:
 *   module_system_symbols.c  name -> address table of statically linked kernels (leaf)
 *   module_library_bin.c     parser of __tvm_ffi__library_bin bytes (leaf, fuzzed)
 *   module.c                 module objects, imports, symbol/function lookup  -> system symbols
 *   module_lookup.c          TVMFFIEnvModLookupFromImports and its caches      -> module.c
 *   module_load.c            dlopen, context symbols, composite modules        -> module.c, parser
 *   module_system_lib.c      one system-library module per prefix              -> module_load.c
 *   module_globals.c         the ffi.Module* global functions                  -> all of the above
 *
 * Locking: one process-wide mutex (ffi_module_mutex) guards every module's import list, lookup
 * cache and library-ctx ownership; it is only held for short, non-reentrant sections (never
 * across calls into kernels, loaders or the global registry). The context-symbol list, the
 * system-library symbol table, the per-prefix system libraries and the keep-alive set have
 * their own locks.
 */
#ifndef TVM_FFI_RUNTIME_MODULE_INTERNAL_H_
#define TVM_FFI_RUNTIME_MODULE_INTERNAL_H_

#include <pthread.h>

#include "cxx_bridge.h"
#include "internal.h"

/* Offset of the `imports_` field: a strong reference to an ffi.Array (never NULL). */
#define FFI_MODULE_IMPORTS_OFFSET 24

/* Symbol names a library may export. */
#define FFI_SYMBOL_PREFIX "__tvm_ffi_"
#define FFI_SYMBOL_LIBRARY_CTX "__tvm_ffi__library_ctx"
#define FFI_SYMBOL_METADATA_PREFIX "__tvm_ffi__metadata_"
#define FFI_SYMBOL_DOC_PREFIX "__tvm_ffi__doc_"
/* Global-registry names of the per-format module loaders. */
#define FFI_LOADER_FROM_FILE "ffi.Module.load_from_file."
#define FFI_LOADER_FROM_BYTES "ffi.Module.load_from_bytes."

/* One entry of the lookup cache used by TVMFFIEnvModLookupFromImports (runtime-made modules; a
 * C++ module keeps its own Map, module.c). Entries are never removed while the module lives:
 * callers hold borrowed pointers to the functions. */
typedef struct {
  char* name;
  TVMFFIObject* func; /* owned */
} FfiModuleLookupEntry;

/* A module object. All modules made here are "library" modules; a shared library stays loaded
 * until its module object dies, and every Function handed out holds a strong reference to the
 * module it came from. */
typedef struct FfiModule {
  TVMFFIObject header;
  TVMFFIObject* imports;        /* +24: owned ffi.Array of modules, replaced (copy-on-write) */
  const char* kind;             /* static text */
  void* dl_handle;              /* dlopen handle; NULL for the system library */
  char* symbol_prefix;          /* system library prefix; NULL for shared libraries */
  FfiModuleLookupEntry* cache;  /* guarded by ffi_module_mutex */
  size_t cache_size, cache_capacity;
  /* The library's __tvm_ffi__library_ctx when it points (or pointed) here, and the links of
   * the list of ctx owners; see ffi_module_publish_library_ctx. Guarded by ffi_module_mutex. */
  void** ctx_slot;
  struct FfiModule* ctx_prev;
  struct FfiModule* ctx_next;
} FfiModule;

extern pthread_mutex_t ffi_module_mutex;

/* ---- small helpers (module.c) ---- */

/* malloc'ed concatenation of up to three NUL-terminated parts (NULL parts are skipped);
 * raises MemoryError and returns NULL on failure. */
char* ffi_concat3(const char* a, const char* b, const char* c);
/* NUL-terminated malloc'ed copy of a string argument; a ValueError naming `fname` for text
 * with embedded NULs (it cannot be a symbol or a path). */
char* ffi_cstr_from_bytes(const char* fname, const char* what, TVMFFIByteArray s);
/* Function pointers travel through void*; POSIX guarantees the round trip. */
TVMFFISafeCallType ffi_as_safe_call(void* symbol);
/* Calls a global function by name; *found = false (and 0 returned) when it is not registered. */
int ffi_call_global(const char* name, TVMFFIAny* args, int32_t num_args, TVMFFIAny* result,
                    bool* found);

/* ---- module objects and imports (module.c) ---- */

/* A new library module. Takes ownership of dl_handle (closed on failure too) and copies the
 * prefix. */
FfiModule* ffi_module_new(void* dl_handle, const char* system_prefix);
static inline bool ffi_module_is_system_lib(const FfiModule* m) { return m->dl_handle == NULL; }
/* Whether the value is a module: ffi.Module or a C++ subclass registered under it. */
static inline bool ffi_any_is_module(const TVMFFIAny* value) {
  return ffi_is_object_index(value->type_index) && value->v_obj != NULL &&
         ffi_type_is_instance(value->type_index, kTVMFFIModule);
}
/* Borrowed module argument #i of a built-in function: ffi.Module or a subclass, of either kind
 * (made here, or a ModuleObj subclass defined in C++ by a loaded library). */
int ffi_module_arg(const char* fname, const TVMFFIAny* args, int32_t i, TVMFFIObject** out);
/* The module as this runtime's layout, or NULL for a module defined in C++ by a loaded library
 * (whose layout is its own: the operations below reach it through ffi_module_cxx_call). */
static inline FfiModule* ffi_module_runtime_made(TVMFFIObject* module) {
  return ffi_module_is_runtime_made(module) ? (FfiModule*)module : NULL;
}
/* ffi_cxx_module_call (cxx_bridge.h), or a TypeError in builds without the C++ shim. *result
 * starts as None. */
int ffi_module_cxx_call(TVMFFIObject* module, FfiCxxModuleOp op, const FfiCxxModuleArgs* in,
                        TVMFFIAny* result);
/* A strong reference to the current import list (either kind of module), so it can be walked
 * without the lock; NULL with the error raised on allocation failure. */
TVMFFIObject* ffi_module_imports_snapshot(TVMFFIObject* m);
/* The i-th module of an import list (an ffi.Array of modules), borrowed. */
static inline TVMFFIObject* ffi_module_import_at(TVMFFIObject* imports, int64_t i) {
  return ((TVMFFIAny*)ffi_seq_cell(imports)->data)[i].v_obj;
}
/* Appends `other` to the module's imports unless that would close a cycle. */
int ffi_module_import(TVMFFIObject* module, TVMFFIObject* other);
int ffi_module_clear_imports(TVMFFIObject* module);
/* Points the library's ctx slot at m; the slot is handed on to a survivor when m dies. */
void ffi_module_publish_library_ctx(FfiModule* m, void** slot);

/* ---- symbols and functions (module.c) ---- */

/* Raw symbol lookup. The system library tries `prefix + name`, then `name`. */
void* ffi_module_symbol(FfiModule* m, const char* name);
/* The texts a library may attach to an exported function. */
typedef enum { kFfiModuleTextDoc, kFfiModuleTextMetadata } FfiModuleText;

/* Owned Function for exported `name` (searching imports depth-first when asked), or *out =
 * NULL when nobody exports it. Modules of either kind. */
int ffi_module_get_function(TVMFFIObject* module, const char* name, bool query_imports,
                            TVMFFIObject** out);
int ffi_module_implements(TVMFFIObject* module, const char* name, bool query_imports, bool* out);
/* The function's docstring or metadata JSON (a library's zero-argument `__tvm_ffi__doc_` /
 * `__tvm_ffi__metadata_` symbol returning a String). *out stays None when no module has it. */
int ffi_module_get_text(TVMFFIObject* module, FfiModuleText which, const char* name,
                        bool query_imports, TVMFFIAny* out);

/* ---- the system-library symbol table (module_system_symbols.c) ---- */

#include "module_system_symbols_internal.h"

/* ---- library loading (module_load.c) ---- */

/* Consumes `lib`: applies the context symbols and builds the (possibly composite) module the
 * library describes. On success *root is owned and *ctx_slot, when non-NULL, is the library's
 * __tvm_ffi__library_ctx that should receive `lib` once the caller keeps the result. */
int ffi_library_module_finish(FfiModule* lib, const char* origin, TVMFFIObject** root,
                              void*** ctx_slot);
/* The `.so` loader: dlopen, then ffi_library_module_finish. */
int ffi_load_shared_library(const char* path, TVMFFIObject** out);
/* Loads `path` through the loader registered for its file extension. */
int ffi_module_load_from_file(const char* path, TVMFFIAny* result);

/* ---- the system library (module_system_lib.c) ---- */

/* Owned reference to the system-library module for `prefix`, created on first use. */
int ffi_system_lib_get(const char* prefix, TVMFFIObject** out);

#endif /* TVM_FFI_RUNTIME_MODULE_INTERNAL_H_ */
