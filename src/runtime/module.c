/*
 * module.c -- module objects: their layout and lifetime, import lists, the library-ctx slot,
 * and symbol and function lookup. The other module files are listed, with their arrows, in
 * module_internal.h.
 *
 * A module object (type index kTVMFFIModule) has a private header-first layout: the
 * reference's C++ ModuleObj is only reached through virtual calls, never read inline by
 * kernels, so any layout works as long as every entry point agrees on it. The one exception is
 * the pointer-sized slot before the header, where C++ code built against the reference's
 * headers finds a vtable (cxx_bridge.h); the block therefore starts 8 bytes before the header.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "module_internal.h"

/* Weak: programs linked with the runtime's C sources alone (tests/fuzz) have no C++ shim; their
 * modules get a NULL vtable slot, which only reference-built C++ code would read. */
#pragma weak ffi_cxx_runtime_module_vptr

/* ------------------------------------------------------------------------------------------
 * small helpers
 * ------------------------------------------------------------------------------------------ */

char* ffi_concat3(const char* a, const char* b, const char* c) {
  size_t na = a ? strlen(a) : 0, nb = b ? strlen(b) : 0, nc = c ? strlen(c) : 0;
  char* out = (char*)malloc(na + nb + nc + 1);
  if (out == NULL) {
    ffi_raise("MemoryError", "cannot allocate a symbol name of %zu bytes", na + nb + nc + 1);
    return NULL;
  }
  memcpy(out, a ? a : "", na);
  memcpy(out + na, b ? b : "", nb);
  memcpy(out + na + nb, c ? c : "", nc);
  out[na + nb + nc] = '\0';
  return out;
}

char* ffi_cstr_from_bytes(const char* fname, const char* what, TVMFFIByteArray s) {
  if (s.size != 0 && memchr(s.data, '\0', s.size) != NULL) {
    ffi_raise("ValueError", "%s: %s must not contain NUL characters", fname, what);
    return NULL;
  }
  char* out = (char*)malloc(s.size + 1);
  if (out == NULL) {
    ffi_raise("MemoryError", "%s: cannot copy %s of %zu bytes", fname, what, s.size);
    return NULL;
  }
  if (s.size) memcpy(out, s.data, s.size);
  out[s.size] = '\0';
  return out;
}

TVMFFISafeCallType ffi_as_safe_call(void* symbol) {
  TVMFFISafeCallType fn;
  memcpy(&fn, &symbol, sizeof(fn));
  return fn;
}

int ffi_call_global(const char* name, TVMFFIAny* args, int32_t num_args, TVMFFIAny* result,
                       bool* found) {
  TVMFFIByteArray key = {name, strlen(name)};
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionGetGlobal(&key, &f) != 0) return -1;
  *found = f != NULL;
  if (f == NULL) return 0;
  *result = ffi_any_none();
  int rc = TVMFFIFunctionCall(f, args, num_args, result);
  ffi_decref((TVMFFIObject*)f);
  return rc;
}

/* ------------------------------------------------------------------------------------------
 * module objects
 * ------------------------------------------------------------------------------------------ */

_Static_assert(offsetof(FfiModule, imports) == FFI_MODULE_IMPORTS_OFFSET,
               "imports_ must stay where module_internal.h says");

pthread_mutex_t ffi_module_mutex = PTHREAD_MUTEX_INITIALIZER;

/* What a library's __tvm_ffi__library_ctx holds: the module as the reference's C++ code sees it,
 * a ModuleObj* (the vtable slot before our header), which TVMFFIEnvModLookupFromImports reads
 * (module_lookup.c). */
static void* library_ctx_of(FfiModule* m) {
  return m != NULL ? (char*)m - FFI_MODULE_VPTR_SLOT_SIZE : NULL;
}

/* Every module whose pointer was written into a __tvm_ffi__library_ctx. Loading the same file
 * twice yields one dlopen handle, hence one ctx slot, shared by two module objects: when the
 * one the slot names dies first, the slot is handed to a survivor instead of dangling. */
static FfiModule* g_ctx_owners = NULL;

void ffi_module_publish_library_ctx(FfiModule* m, void** slot) {
  pthread_mutex_lock(&ffi_module_mutex);
  *slot = library_ctx_of(m);
  m->ctx_slot = slot;
  m->ctx_prev = NULL;
  m->ctx_next = g_ctx_owners;
  if (g_ctx_owners != NULL) g_ctx_owners->ctx_prev = m;
  g_ctx_owners = m;
  pthread_mutex_unlock(&ffi_module_mutex);
}

static void retract_library_ctx(FfiModule* m) {
  pthread_mutex_lock(&ffi_module_mutex);
  if (m->ctx_prev != NULL) m->ctx_prev->ctx_next = m->ctx_next;
  if (m->ctx_next != NULL) m->ctx_next->ctx_prev = m->ctx_prev;
  if (g_ctx_owners == m) g_ctx_owners = m->ctx_next;
  if (*m->ctx_slot == library_ctx_of(m)) {
    FfiModule* heir = g_ctx_owners;
    while (heir != NULL && heir->ctx_slot != m->ctx_slot) heir = heir->ctx_next;
    *m->ctx_slot = library_ctx_of(heir);
  }
  pthread_mutex_unlock(&ffi_module_mutex);
}

static void module_destroy(void* self) {
  FfiModule* m = (FfiModule*)self;
  /* The library is still mapped here: dlclose comes last. */
  if (m->ctx_slot != NULL) retract_library_ctx(m);
  /* Everything that might point into the library goes before the library itself. */
  if (m->imports != NULL) ffi_decref(m->imports);
  for (size_t i = 0; i < m->cache_size; ++i) {
    free(m->cache[i].name);
    ffi_decref(m->cache[i].func);
  }
  free(m->cache);
  free(m->symbol_prefix);
  if (m->dl_handle != NULL) dlclose(m->dl_handle);
}

/* Like FFI_DEFINE_DELETER, for the block that starts with the vtable pointer slot. */
static void module_deleter(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) module_destroy(self);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) {
    ffi_object_free_prefixed(self, FFI_MODULE_VPTR_SLOT_SIZE);
  }
}

int ffi_module_is_runtime_made(const TVMFFIObject* module) {
  return module->deleter == module_deleter;
}

const char* ffi_module_kind_cstr(const TVMFFIObject* module) {
  return ((const FfiModule*)module)->kind;
}

/* A new library module. Takes ownership of dl_handle (closed on failure too) and copies the
 * prefix. */
FfiModule* ffi_module_new(void* dl_handle, const char* system_prefix) {
  FfiModule* m = (FfiModule*)ffi_object_alloc_prefixed_quiet(
      FFI_MODULE_VPTR_SLOT_SIZE, sizeof(FfiModule), kTVMFFIModule, module_deleter);
  if (m == NULL) {
    if (dl_handle != NULL) dlclose(dl_handle);
    ffi_raise("MemoryError", "failed to allocate a module object");
    return NULL;
  }
  /* The C++ view (cxx_bridge.h): reference-built kernels call virtual functions through it. */
  const void* vptr = ffi_cxx_runtime_module_vptr != NULL ? ffi_cxx_runtime_module_vptr() : NULL;
  memcpy((char*)m - FFI_MODULE_VPTR_SLOT_SIZE, &vptr, sizeof(vptr));
  m->kind = "library";
  m->dl_handle = dl_handle;
  if (system_prefix != NULL &&
      (m->symbol_prefix = ffi_concat3(system_prefix, NULL, NULL)) == NULL) {
    ffi_decref(&m->header);
    return NULL;
  }
  if (ffi_array_new(NULL, 0, &m->imports) != 0) {
    ffi_decref(&m->header);
    return NULL;
  }
  return m;
}

/* Borrowed module argument: ffi.Module or a subclass, made here or defined in C++ by a loaded
 * library (the operations below dispatch on which). */
int ffi_module_arg(const char* fname, const TVMFFIAny* args, int32_t i, TVMFFIObject** out) {
  return ffi_arg_object(fname, args, i, kTVMFFIModule, out);
}

/* Weak: without the C++ shim (tests/fuzz links the C sources alone) there is no C++ module. */
#pragma weak ffi_cxx_module_call

int ffi_module_cxx_call(TVMFFIObject* module, FfiCxxModuleOp op, const FfiCxxModuleArgs* in,
                        TVMFFIAny* result) {
  *result = ffi_any_none();
  if (ffi_cxx_module_call == NULL) {
    return ffi_raise("TypeError", "this build of the runtime cannot operate on modules "
                     "implemented in C++ by a loaded library");
  }
  return ffi_cxx_module_call(module, op, in, result);
}

/* ---- imports ---- */

/* The import array of a module of either kind: both keep it at the same offset (a C++ module's
 * `imports_`, which a moved-from array could leave NULL). Caller holds ffi_module_mutex. */
static TVMFFIObject* imports_locked(TVMFFIObject* m) {
  TVMFFIObject* arr;
  memcpy(&arr, (char*)m + FFI_MODULE_IMPORTS_OFFSET, sizeof(arr));
  return arr;
}

static int64_t imports_size(TVMFFIObject* arr) { return arr != NULL ? ffi_seq_cell(arr)->size : 0; }

/* A strong reference to the current import list, so it can be walked without the lock; an empty
 * list for a C++ module without one. NULL with the error raised when that cannot be made. */
TVMFFIObject* ffi_module_imports_snapshot(TVMFFIObject* m) {
  pthread_mutex_lock(&ffi_module_mutex);
  TVMFFIObject* arr = imports_locked(m);
  if (arr != NULL) ffi_incref(arr);
  pthread_mutex_unlock(&ffi_module_mutex);
  if (arr == NULL && ffi_array_new(NULL, 0, &arr) != 0) return NULL;
  return arr;
}

/* True when `target` is reachable from `start` through imports (start included).
 * Caller holds ffi_module_mutex. Returns -1 on allocation failure. */
static int reaches_locked(TVMFFIObject* start, TVMFFIObject* target) {
  size_t capacity = 16, size = 0, top = 0;
  TVMFFIObject** seen = (TVMFFIObject**)malloc(capacity * sizeof(TVMFFIObject*));
  if (seen == NULL) return ffi_raise("MemoryError", "cannot check the import graph");
  seen[size++] = start;
  int found = 0;
  /* `seen` doubles as the work list: entries before `top` are expanded. */
  while (top < size && !found) {
    TVMFFIObject* n = seen[top++];
    if (n == target) {
      found = 1;
      break;
    }
    TVMFFIObject* arr = imports_locked(n);
    for (int64_t i = 0; i < imports_size(arr); ++i) {
      TVMFFIObject* next = ffi_module_import_at(arr, i);
      bool known = false;
      for (size_t k = 0; k < size && !known; ++k) known = seen[k] == next;
      if (known) continue;
      if (size == capacity) {
        TVMFFIObject** grown =
            (TVMFFIObject**)realloc(seen, 2 * capacity * sizeof(TVMFFIObject*));
        if (grown == NULL) {
          free(seen);
          return ffi_raise("MemoryError", "cannot check the import graph");
        }
        seen = grown;
        capacity *= 2;
      }
      seen[size++] = next;
    }
  }
  free(seen);
  return found;
}

int ffi_module_reaches(TVMFFIObject* from, TVMFFIObject* target) {
  pthread_mutex_lock(&ffi_module_mutex);
  int found = reaches_locked(from, target);
  pthread_mutex_unlock(&ffi_module_mutex);
  return found;
}

/* Appends `other` to m's imports unless that would close a cycle. A C++ module imports
 * through its own ImportModule. */
int ffi_module_import(TVMFFIObject* module, TVMFFIObject* other) {
  FfiModule* m = ffi_module_runtime_made(module);
  if (m == NULL) {
    FfiCxxModuleArgs in = {.other = other};
    TVMFFIAny ignored;
    if (ffi_module_cxx_call(module, kFfiCxxModuleImportModule, &in, &ignored) != 0) return -1;
    ffi_any_release(&ignored);
    return 0;
  }
  pthread_mutex_lock(&ffi_module_mutex);
  int cyclic = reaches_locked(other, module);
  if (cyclic != 0) {
    pthread_mutex_unlock(&ffi_module_mutex);
    return cyclic < 0 ? -1 : ffi_raise("RuntimeError", "Cyclic dependency detected during import");
  }
  TVMFFIObject* old = m->imports;
  TVMFFISeqCell* cell = ffi_seq_cell(old);
  int64_t n = cell->size;
  TVMFFIAny* items = (TVMFFIAny*)malloc((size_t)(n + 1) * sizeof(TVMFFIAny));
  TVMFFIObject* grown = NULL;
  int rc = -1;
  if (items == NULL) {
    ffi_raise("MemoryError", "ffi.ModuleImportModule: out of memory");
  } else {
    if (n) memcpy(items, cell->data, (size_t)n * sizeof(TVMFFIAny));
    items[n] = ffi_any_from_object(other); /* a view: the array takes its own ref */
    rc = ffi_array_new(items, n + 1, &grown);
    free(items);
  }
  if (rc == 0) m->imports = grown;
  pthread_mutex_unlock(&ffi_module_mutex);
  if (rc == 0) ffi_decref(old);
  return rc;
}

int ffi_module_clear_imports(TVMFFIObject* module) {
  FfiModule* m = ffi_module_runtime_made(module);
  if (m == NULL) {
    FfiCxxModuleArgs in = {0};
    TVMFFIAny ignored;
    if (ffi_module_cxx_call(module, kFfiCxxModuleClearImports, &in, &ignored) != 0) return -1;
    ffi_any_release(&ignored);
    return 0;
  }
  TVMFFIObject* empty;
  if (ffi_array_new(NULL, 0, &empty) != 0) return -1;
  pthread_mutex_lock(&ffi_module_mutex);
  TVMFFIObject* old = m->imports;
  m->imports = empty;
  pthread_mutex_unlock(&ffi_module_mutex);
  ffi_decref(old);
  return 0;
}

/* ---- symbols and functions ---- */

/* Raw symbol lookup. The system library tries `prefix + name`, then `name`. */
void* ffi_module_symbol(FfiModule* m, const char* name) {
  if (!ffi_module_is_system_lib(m)) return dlsym(m->dl_handle, name);
  if (m->symbol_prefix[0] != '\0') {
    char* prefixed = ffi_concat3(m->symbol_prefix, name, NULL);
    if (prefixed == NULL) return NULL;
    void* address = ffi_system_symbol_lookup(prefixed);
    free(prefixed);
    if (address != NULL) return address;
  }
  return ffi_system_symbol_lookup(name);
}

/* Address of exported function `name`: "__tvm_ffi_" + name; the system library tries
 * "__tvm_ffi_" + prefix + name first. NULL when absent. */
static void* module_function_symbol(FfiModule* m, const char* name) {
  if (ffi_module_is_system_lib(m) && m->symbol_prefix[0] != '\0') {
    char* symbol = ffi_concat3(FFI_SYMBOL_PREFIX, m->symbol_prefix, name);
    if (symbol == NULL) return NULL;
    void* address = ffi_system_symbol_lookup(symbol);
    free(symbol);
    if (address != NULL) return address;
  }
  char* symbol = ffi_concat3(FFI_SYMBOL_PREFIX, name, NULL);
  if (symbol == NULL) return NULL;
  void* address = ffi_module_is_system_lib(m) ? ffi_system_symbol_lookup(symbol)
                                              : dlsym(m->dl_handle, symbol);
  free(symbol);
  return address;
}

/* Resource of a Function wrapping an exported symbol: the module keeps the code loaded. */
typedef struct {
  FfiModule* module; /* strong reference */
  TVMFFISafeCallType call;
} ModuleFunction;

static int module_function_call(void* self, const TVMFFIAny* args, int32_t num_args,
                                TVMFFIAny* result) {
  ModuleFunction* mf = (ModuleFunction*)self;
  /* The callee overwrites result without releasing it (the caller zero-initialises it). */
  if (FFI_UNLIKELY(result->type_index >= kTVMFFIStaticObjectBegin)) {
    return ffi_raise("InternalError", "module function called with a result slot that holds an "
                     "object (type index %d); initialise it to None", (int)result->type_index);
  }
  return mf->call(NULL, args, num_args, result);
}

static void module_function_release(void* self) {
  ModuleFunction* mf = (ModuleFunction*)self;
  ffi_decref(&mf->module->header);
  free(mf);
}

static int wrap_symbol(FfiModule* m, void* symbol, TVMFFIObject** out) {
  ModuleFunction* mf = (ModuleFunction*)malloc(sizeof(ModuleFunction));
  if (mf == NULL) return ffi_raise("MemoryError", "cannot wrap a module function");
  mf->module = m;
  mf->call = ffi_as_safe_call(symbol);
  ffi_incref(&m->header);
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionCreate(mf, module_function_call, module_function_release, &f) != 0) {
    module_function_release(mf);
    return -1;
  }
  *out = (TVMFFIObject*)f;
  return 0;
}

/* Owned Function for `name` (searching imports depth-first in order when asked), or *out =
 * NULL when nobody exports it. A fresh wrapper each time: caching it in the module itself would
 * form a reference cycle (the wrapper holds the module), and dlsym is cheap. A C++ module
 * answers through its own GetFunction (which walks its own imports). */
int ffi_module_get_function(TVMFFIObject* module, const char* name, bool query_imports,
                            TVMFFIObject** out) {
  *out = NULL;
  FfiModule* m = ffi_module_runtime_made(module);
  if (m == NULL) {
    FfiCxxModuleArgs in = {.text = name, .query_imports = query_imports};
    TVMFFIAny found;
    if (ffi_module_cxx_call(module, kFfiCxxModuleGetFunction, &in, &found) != 0) return -1;
    if (found.type_index == kTVMFFIFunction) *out = found.v_obj;
    return 0;
  }
  void* symbol = module_function_symbol(m, name);
  if (symbol != NULL) return wrap_symbol(m, symbol, out);
  if (!query_imports) return 0;
  TVMFFIObject* imports = ffi_module_imports_snapshot(module);
  if (imports == NULL) return -1;
  int rc = 0;
  for (int64_t i = 0; i < ffi_seq_cell(imports)->size && rc == 0 && *out == NULL; ++i) {
    rc = ffi_module_get_function(ffi_module_import_at(imports, i), name, true, out);
  }
  ffi_decref(imports);
  return rc;
}

int ffi_module_implements(TVMFFIObject* module, const char* name, bool query_imports,
                          bool* out) {
  *out = false;
  FfiModule* m = ffi_module_runtime_made(module);
  if (m == NULL) {
    FfiCxxModuleArgs in = {.text = name, .query_imports = query_imports};
    TVMFFIAny found;
    if (ffi_module_cxx_call(module, kFfiCxxModuleImplementsFunction, &in, &found) != 0) return -1;
    *out = found.type_index == kTVMFFIBool && found.v_int64 != 0;
    return 0;
  }
  if (module_function_symbol(m, name) != NULL) {
    *out = true;
    return 0;
  }
  if (!query_imports) return 0;
  TVMFFIObject* imports = ffi_module_imports_snapshot(module);
  if (imports == NULL) return -1;
  int rc = 0;
  for (int64_t i = 0; i < ffi_seq_cell(imports)->size && rc == 0 && !*out; ++i) {
    rc = ffi_module_implements(ffi_module_import_at(imports, i), name, true, out);
  }
  ffi_decref(imports);
  return rc;
}

/* The symbol prefix under which a library exports each kind of text, and the C++ query. */
static const char* text_symbol_prefix(FfiModuleText which) {
  return which == kFfiModuleTextDoc ? FFI_SYMBOL_DOC_PREFIX : FFI_SYMBOL_METADATA_PREFIX;
}

static FfiCxxModuleOp text_cxx_op(FfiModuleText which) {
  return which == kFfiModuleTextDoc ? kFfiCxxModuleGetFunctionDoc
                                    : kFfiCxxModuleGetFunctionMetadata;
}

/* Calls the optional zero-argument symbol `prefix + name` that returns a String (metadata JSON
 * or docstring). *out stays None when no module has the symbol. */
int ffi_module_get_text(TVMFFIObject* module, FfiModuleText which, const char* name,
                        bool query_imports, TVMFFIAny* out) {
  *out = ffi_any_none();
  FfiModule* m = ffi_module_runtime_made(module);
  if (m == NULL) {
    FfiCxxModuleArgs in = {.text = name, .query_imports = query_imports};
    return ffi_module_cxx_call(module, text_cxx_op(which), &in, out);
  }
  char* symbol_name = ffi_concat3(text_symbol_prefix(which), name, NULL);
  if (symbol_name == NULL) return -1;
  void* symbol = ffi_module_symbol(m, symbol_name);
  if (symbol != NULL) {
    int rc = ffi_as_safe_call(symbol)(NULL, NULL, 0, out);
    if (rc == 0 && out->type_index != kTVMFFISmallStr && out->type_index != kTVMFFIStr) {
      TVMFFIByteArray actual = ffi_type_key_of(out->type_index);
      ffi_any_release(out);
      rc = ffi_raise("TypeError", "%s returned `%.*s`, expected a string", symbol_name,
                     (int)actual.size, actual.data);
    }
    free(symbol_name);
    return rc == 0 ? 0 : -1;
  }
  free(symbol_name);
  if (!query_imports) return 0;
  TVMFFIObject* imports = ffi_module_imports_snapshot(module);
  if (imports == NULL) return -1;
  int rc = 0;
  for (int64_t i = 0; i < ffi_seq_cell(imports)->size && rc == 0; ++i) {
    rc = ffi_module_get_text(ffi_module_import_at(imports, i), which, name, true, out);
    if (out->type_index != kTVMFFINone) break;
  }
  ffi_decref(imports);
  return rc;
}
