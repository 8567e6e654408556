/*
 * module_load.c -- library loading: context symbols written into every library loaded
 * afterwards, dlopen of shared libraries, the composite module a library's
 * __tvm_ffi__library_bin describes (parsed by module_library_bin.c), and loading a file
 * through the loader registered for its extension.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>

#include "elf_check.h"
#include "module_internal.h"
#include "module_library_bin.h"

static TVMFFIAny raw_str_view(const char* s) {
  TVMFFIAny v = ffi_any_none();
  v.type_index = kTVMFFIRawStr;
  v.v_c_str = s;
  return v;
}

/* ------------------------------------------------------------------------------------------
 * context symbols: (name, value) pairs written into every library loaded afterwards
 * ------------------------------------------------------------------------------------------ */

typedef struct {
  char* name;
  void* value;
} ContextSymbol;

static struct {
  pthread_mutex_t lock;
  ContextSymbol* items;
  size_t size, capacity;
} g_context_symbols = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};

int TVMFFIEnvModRegisterContextSymbol(const char* name, void* symbol) {
  if (name == NULL) {
    return ffi_raise("ValueError", "TVMFFIEnvModRegisterContextSymbol: name is NULL");
  }
  char* copy = ffi_concat3(name, NULL, NULL);
  if (copy == NULL) return -1;
  pthread_mutex_lock(&g_context_symbols.lock);
  if (g_context_symbols.size == g_context_symbols.capacity) {
    size_t capacity = g_context_symbols.capacity ? g_context_symbols.capacity * 2 : 8;
    ContextSymbol* items =
        (ContextSymbol*)realloc(g_context_symbols.items, capacity * sizeof(ContextSymbol));
    if (items == NULL) {
      pthread_mutex_unlock(&g_context_symbols.lock);
      free(copy);
      return ffi_raise("MemoryError", "TVMFFIEnvModRegisterContextSymbol: out of memory");
    }
    g_context_symbols.items = items;
    g_context_symbols.capacity = capacity;
  }
  /* Appended, not replaced: applied in order, so a later registration of a name wins. */
  g_context_symbols.items[g_context_symbols.size++] = (ContextSymbol){copy, symbol};
  pthread_mutex_unlock(&g_context_symbols.lock);
  return 0;
}

int ffi_module_visit_context_symbols(int (*visit)(void* ctx, const char* name, void* address),
                                     void* ctx) {
  /* A snapshot, so `visit` may register symbols or load libraries itself. */
  pthread_mutex_lock(&g_context_symbols.lock);
  size_t n = g_context_symbols.size;
  ContextSymbol* copy = (ContextSymbol*)malloc((n ? n : 1) * sizeof(ContextSymbol));
  int rc = 0;
  for (size_t i = 0; copy != NULL && rc == 0 && i < n; ++i) {
    copy[i].value = g_context_symbols.items[i].value;
    if ((copy[i].name = ffi_concat3(g_context_symbols.items[i].name, NULL, NULL)) == NULL) {
      n = i;
      rc = -1;
    }
  }
  pthread_mutex_unlock(&g_context_symbols.lock);
  if (copy == NULL) return ffi_raise("MemoryError", "out of memory listing context symbols");
  for (size_t i = 0; rc == 0 && i < n; ++i) rc = visit(ctx, copy[i].name, copy[i].value);
  for (size_t i = 0; i < n; ++i) free(copy[i].name);
  free(copy);
  return rc;
}

/* ------------------------------------------------------------------------------------------
 * composite modules described by __tvm_ffi__library_bin
 * ------------------------------------------------------------------------------------------ */

/* Builds a module from one serialized blob through ffi.Module.load_from_bytes.<kind>. */
static int load_from_bytes(const char* origin, TVMFFIByteArray kind, TVMFFIByteArray blob,
                           TVMFFIObject** out) {
  char* kind_name = ffi_cstr_from_bytes(FFI_SYMBOL_LIBRARY_BIN, "a module kind", kind);
  if (kind_name == NULL) return -1;
  char* loader = ffi_concat3(FFI_LOADER_FROM_BYTES, kind_name, NULL);
  free(kind_name);
  if (loader == NULL) return -1;
  TVMFFIAny arg, result = ffi_any_none();
  bool found = false;
  int rc = ffi_string_make(blob.data, blob.size, 1, &arg);
  if (rc == 0) {
    rc = ffi_call_global(loader, &arg, 1, &result, &found);
    ffi_any_release(&arg);
  }
  if (rc == 0 && !found) {
    rc = ffi_raise("RuntimeError",
                   "Library binary of %s contains a module of kind `%.*s` but its loader `%s` is "
                   "not registered in the global registry",
                   origin, (int)kind.size, kind.data, loader);
  } else if (rc == 0 && !ffi_any_is_module(&result)) {
    TVMFFIByteArray actual = ffi_type_key_of(result.type_index);
    ffi_any_release(&result);
    rc = ffi_raise("TypeError", "%s returned `%.*s`, expected `ffi.Module`", loader,
                   (int)actual.size, actual.data);
  }
  free(loader);
  if (rc != 0) return -1;
  *out = result.v_obj; /* usually a C++ module of the loader's own kind */
  return 0;
}

/* Size of the data symbol at `address` when the dynamic symbol table records one, else 0. */
static uint64_t dl_symbol_size(const void* address) {
  Dl_info info;
  const ElfW(Sym)* sym = NULL;
  if (dladdr1(address, &info, (void**)&sym, RTLD_DL_SYMENT) == 0 || sym == NULL) return 0;
  if (info.dli_saddr != address) return 0;
  return (uint64_t)sym->st_size;
}

/* How many bytes of `bin` may be read. A shared library's symbol table records the symbol's
 * size; the system library's symbols come without one, so its own size field is trusted. */
static uint64_t library_bin_size(FfiModule* lib, const unsigned char* bin) {
  uint64_t known = ffi_module_is_system_lib(lib) ? 0 : dl_symbol_size(bin);
  if (known != 0) return known;
  uint64_t declared = 0;
  for (int i = 7; i >= 0; --i) declared = (declared << 8) | bin[i];
  return declared > UINT64_MAX - 8 ? UINT64_MAX : declared + 8;
}

/* Builds the composite module described by `bin` (which lives in lib's memory, so lib must
 * stay alive meanwhile): "_lib" is `lib` itself, other kinds go through their loaders. *root
 * is owned, node 0 of the description; *lib_used tells whether lib is part of it. */
static int load_library_bin(FfiModule* lib, const char* origin, const unsigned char* bin,
                            uint64_t size, TVMFFIObject** root, bool* lib_used) {
  *lib_used = false;
  FfiLibraryBin desc;
  if (ffi_library_bin_parse(bin, size, origin, &desc) != 0) return -1;
  int rc = 0;
  TVMFFIObject** nodes =
      (TVMFFIObject**)calloc((size_t)desc.num_modules, sizeof(TVMFFIObject*));
  if (nodes == NULL) {
    rc = ffi_raise("MemoryError", "cannot load %llu modules", (unsigned long long)desc.num_modules);
  }
  for (uint64_t i = 0; rc == 0 && i < desc.num_modules; ++i) {
    const FfiLibraryBinNode* node = &desc.nodes[i];
    if (node->is_lib) {
      ffi_incref(&lib->header);
      nodes[i] = &lib->header;
      *lib_used = true;
    } else {
      rc = load_from_bytes(origin, node->kind, node->blob, &nodes[i]);
    }
  }
  for (uint64_t i = 0; rc == 0 && i < desc.num_modules; ++i) {
    for (uint64_t j = desc.indptr[i]; rc == 0 && j < desc.indptr[i + 1]; ++j) {
      rc = ffi_module_import(nodes[i], nodes[desc.children[j]]);
    }
  }
  if (rc == 0) {
    *root = nodes[0];
    ffi_incref(nodes[0]);
  }
  for (uint64_t i = 0; nodes != NULL && i < desc.num_modules; ++i) {
    if (nodes[i] != NULL) ffi_decref(nodes[i]);
  }
  free(nodes);
  ffi_library_bin_free(&desc);
  return rc;
}

/* ------------------------------------------------------------------------------------------
 * turning a freshly opened library into its (possibly composite) module
 * ------------------------------------------------------------------------------------------ */
static void apply_context_symbols(FfiModule* lib) {
  pthread_mutex_lock(&g_context_symbols.lock);
  for (size_t i = 0; i < g_context_symbols.size; ++i) {
    void** slot = (void**)ffi_module_symbol(lib, g_context_symbols.items[i].name);
    if (slot != NULL) *slot = g_context_symbols.items[i].value;
  }
  pthread_mutex_unlock(&g_context_symbols.lock);
}

/* lib stays alive as long as root does whenever *ctx_slot is set. */
int ffi_library_module_finish(FfiModule* lib, const char* origin, TVMFFIObject** root,
                              void*** ctx_slot) {
  apply_context_symbols(lib);
  const unsigned char* bin = (const unsigned char*)ffi_module_symbol(lib, FFI_SYMBOL_LIBRARY_BIN);
  void** ctx = (void**)ffi_module_symbol(lib, FFI_SYMBOL_LIBRARY_CTX);
  bool lib_used = true;
  int rc = 0;
  if (bin != NULL) {
    rc = load_library_bin(lib, origin, bin, library_bin_size(lib, bin), root, &lib_used);
  } else {
    *root = &lib->header;
    ffi_incref(&lib->header);
  }
  *ctx_slot = rc == 0 && lib_used ? ctx : NULL;
  ffi_decref(&lib->header);
  return rc;
}

int ffi_load_shared_library(const char* path, TVMFFIObject** out) {
  if (path[0] == '\0') {
    return ffi_raise("ValueError", FFI_LOADER_FROM_FILE "so: the library path is empty");
  }
  /* A library mapped already is handed out again without reading its file: the check guards
   * dlopen's mapping, which does not happen then (and loading a loaded library stays cheap). */
  void* handle = dlopen(path, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
  if (handle == NULL) {
    if (ffi_elf_check_file(path) != 0) return -1; /* a truncated file would SIGBUS in dlopen */
    /* dlerror() is per thread; clear anything stale so the message is ours. */
    (void)dlerror();
    handle = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
  }
  if (handle == NULL) {
    const char* reason = dlerror();
    /* Worded as the reference words it; tests and users match on this text. */
    return ffi_raise("RuntimeError", "Failed to load dynamic shared library %s %s", path,
                     reason != NULL ? reason : "unknown dlopen error");
  }
  FfiModule* lib = ffi_module_new(handle, NULL);
  if (lib == NULL) return -1;
  void** ctx = NULL;
  if (ffi_library_module_finish(lib, path, out, &ctx) != 0) return -1;
  if (ctx != NULL) ffi_module_publish_library_ctx(lib, ctx);
  return 0;
}

/* Format of a path: the text after the last '.' of the file name, with the aliases of `so`. */
static int file_format(const char* path, const char** out) {
  const char* base = strrchr(path, '/');
  base = base != NULL ? base + 1 : path;
  const char* dot = strrchr(base, '.');
  if (dot == NULL || dot[1] == '\0') {
    return ffi_raise("RuntimeError", "Failed to get file format from %s: the file name has no "
                     "extension", path);
  }
  const char* fmt = dot + 1;
  if (strcmp(fmt, "dll") == 0 || strcmp(fmt, "dylib") == 0 || strcmp(fmt, "dso") == 0) fmt = "so";
  *out = fmt;
  return 0;
}

int ffi_module_load_from_file(const char* path, TVMFFIAny* result) {
  const char* fmt = NULL;
  if (file_format(path, &fmt) != 0) return -1;
  char* loader = ffi_concat3(FFI_LOADER_FROM_FILE, fmt, NULL);
  if (loader == NULL) return -1;
  TVMFFIAny args[2] = {raw_str_view(path), raw_str_view(fmt)};
  bool found = false;
  int rc = ffi_call_global(loader, args, 2, result, &found);
  if (rc == 0 && !found) {
    rc = ffi_raise("RuntimeError", "Loader for `.%s` files is not registered, resolved to (%s) in "
                   "the global registry. Ensure that the runtime code for this format is loaded "
                   "and that you are on the right hardware architecture.", fmt, loader);
  } else if (rc == 0 && !ffi_any_is_module(result)) {
    TVMFFIByteArray actual = ffi_type_key_of(result->type_index);
    ffi_any_release(result);
    rc = ffi_raise("TypeError", "%s returned `%.*s`, expected `ffi.Module`", loader,
                   (int)actual.size, actual.data);
  }
  free(loader);
  return rc;
}
