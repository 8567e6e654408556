/*
 * module.c -- modules: shared libraries loaded with dlopen, the system library of statically
 * linked kernels, the embedded composite-module description (__tvm_ffi__library_bin), import
 * trees, and the module-related parts of the environment API (spec/ABI.md sections 5.8, 7, 8.4).
 *
 * A module object (type index kTVMFFIModule) has a private header-first layout: the reference's
 * C++ ModuleObj is only reached through virtual calls, never read inline by kernels, so any
 * layout works as long as every entry point below agrees on it. All modules made here are
 * "library" modules; a shared library stays loaded until its module object dies, and every
 * Function handed out holds a strong reference to the module it came from.
 *
 * Locking: one process-wide mutex (g_module_mutex) guards every module's import list and lookup
 * cache; it is only held for short, non-reentrant sections (never across calls into kernels,
 * loaders or the global registry). The context-symbol list, the system-library symbol table,
 * the per-prefix system libraries and the keep-alive set have their own locks.
 */
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "elf_check.h"
#include "internal.h"
#include "module_internal.h"

#define SYMBOL_PREFIX "__tvm_ffi_"
#define SYMBOL_LIBRARY_CTX "__tvm_ffi__library_ctx"
#define SYMBOL_LIBRARY_BIN "__tvm_ffi__library_bin"
#define SYMBOL_METADATA_PREFIX "__tvm_ffi__metadata_"
#define SYMBOL_DOC_PREFIX "__tvm_ffi__doc_"
#define LOADER_FROM_FILE "ffi.Module.load_from_file."
#define LOADER_FROM_BYTES "ffi.Module.load_from_bytes."

enum { kPropertyBinarySerializable = 1, kPropertyRunnable = 2 };

/* ------------------------------------------------------------------------------------------
 * small helpers
 * ------------------------------------------------------------------------------------------ */

/* malloc'ed concatenation of up to three NUL-terminated parts (NULL parts are skipped);
 * raises MemoryError and returns NULL on failure. */
static char* concat3(const char* a, const char* b, const char* c) {
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

/* NUL-terminated copy of a string argument; names with embedded NULs cannot be symbols or
 * paths, so they are rejected here with a ValueError naming the function. */
static char* cstr_from_bytes(const char* fname, const char* what, TVMFFIByteArray s) {
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

static TVMFFIAny raw_str_view(const char* s) {
  TVMFFIAny v = ffi_any_none();
  v.type_index = kTVMFFIRawStr;
  v.v_c_str = s;
  return v;
}

static int check_num_args_range(const char* fname, int32_t num_args, int32_t lo, int32_t hi) {
  if (num_args >= lo && num_args <= hi) return 0;
  return ffi_raise("TypeError",
                   "Mismatched number of arguments when calling: `%s`. Expected %d to %d but got "
                   "%d arguments",
                   fname, (int)lo, (int)hi, (int)num_args);
}

/* Function pointers travel through void*; POSIX guarantees the round trip. */
static TVMFFISafeCallType as_safe_call(void* symbol) {
  TVMFFISafeCallType fn;
  memcpy(&fn, &symbol, sizeof(fn));
  return fn;
}

/* Calls a global function by name; *found = false (and 0 returned) when it is not registered. */
static int call_global(const char* name, TVMFFIAny* args, int32_t num_args, TVMFFIAny* result,
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
  if (name == NULL) return ffi_raise("ValueError", "TVMFFIEnvModRegisterContextSymbol: name is NULL");
  char* copy = concat3(name, NULL, NULL);
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

/* ------------------------------------------------------------------------------------------
 * system-library symbol table: name -> address, never shrinks
 * ------------------------------------------------------------------------------------------ */

typedef struct {
  void* address; /* may be NULL, hence boxed: the map reserves NULL for "absent" */
  char name[];   /* the map key */
} SystemSymbol;

static struct {
  pthread_rwlock_t lock;
  FfiStrMap symbols; /* name -> SystemSymbol* */
} g_system_symbols = {PTHREAD_RWLOCK_INITIALIZER, {NULL, 0, 0, 0}};

int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol) {
  if (name == NULL) {
    return ffi_raise("ValueError", "TVMFFIEnvModRegisterSystemLibSymbol: name is NULL");
  }
  size_t size = strlen(name);
  pthread_rwlock_wrlock(&g_system_symbols.lock);
  SystemSymbol* existing = (SystemSymbol*)ffi_str_map_get(&g_system_symbols.symbols, name, size);
  if (existing != NULL) {
    if (existing->address != symbol) {
      fprintf(stderr, "Warning: SystemLib symbol %s is overridden to a different address %p -> %p\n",
              name, existing->address, symbol);
    }
    existing->address = symbol;
    pthread_rwlock_unlock(&g_system_symbols.lock);
    return 0;
  }
  SystemSymbol* entry = (SystemSymbol*)malloc(sizeof(SystemSymbol) + size + 1);
  if (entry == NULL) {
    pthread_rwlock_unlock(&g_system_symbols.lock);
    return ffi_raise("MemoryError", "cannot register system library symbol %s", name);
  }
  entry->address = symbol;
  memcpy(entry->name, name, size + 1);
  if (ffi_str_map_put(&g_system_symbols.symbols, entry->name, size, entry) == NULL) {
    free(entry);
    pthread_rwlock_unlock(&g_system_symbols.lock);
    return -1;
  }
  pthread_rwlock_unlock(&g_system_symbols.lock);
  return 0;
}

static void* system_symbol_lookup(const char* name) {
  pthread_rwlock_rdlock(&g_system_symbols.lock);
  SystemSymbol* entry = (SystemSymbol*)ffi_str_map_get(&g_system_symbols.symbols, name, strlen(name));
  void* address = entry != NULL ? entry->address : NULL;
  pthread_rwlock_unlock(&g_system_symbols.lock);
  return address;
}

/* ------------------------------------------------------------------------------------------
 * module objects
 * ------------------------------------------------------------------------------------------ */

/* One entry of the lookup cache used by TVMFFIEnvModLookupFromImports. Entries are never
 * removed while the module lives: callers hold borrowed pointers to the functions. */
typedef struct {
  char* name;
  TVMFFIObject* func; /* owned */
} LookupEntry;

typedef struct ModuleObject {
  TVMFFIObject header;
  TVMFFIObject* imports; /* +24: owned ffi.Array of modules, replaced (copy-on-write) */
  const char* kind;      /* static text */
  void* dl_handle;       /* dlopen handle; NULL for the system library */
  char* symbol_prefix;   /* system library prefix; NULL for shared libraries */
  LookupEntry* cache;    /* guarded by g_module_mutex */
  size_t cache_size, cache_capacity;
  /* The library's __tvm_ffi__library_ctx when it points (or pointed) here, and the links of
   * g_ctx_owners; see publish_library_ctx. Guarded by g_module_mutex. */
  void** ctx_slot;
  struct ModuleObject* ctx_prev;
  struct ModuleObject* ctx_next;
} ModuleObject;

_Static_assert(offsetof(ModuleObject, imports) == FFI_MODULE_IMPORTS_OFFSET,
               "imports_ must stay where module_internal.h says");

static pthread_mutex_t g_module_mutex = PTHREAD_MUTEX_INITIALIZER;

/* Every module whose pointer was written into a __tvm_ffi__library_ctx. Loading the same file
 * twice yields one dlopen handle, hence one ctx slot, shared by two module objects: when the
 * one the slot names dies first, the slot is handed to a survivor instead of dangling. */
static ModuleObject* g_ctx_owners = NULL;

static void publish_library_ctx(ModuleObject* m, void** slot) {
  pthread_mutex_lock(&g_module_mutex);
  *slot = m;
  m->ctx_slot = slot;
  m->ctx_prev = NULL;
  m->ctx_next = g_ctx_owners;
  if (g_ctx_owners != NULL) g_ctx_owners->ctx_prev = m;
  g_ctx_owners = m;
  pthread_mutex_unlock(&g_module_mutex);
}

static void retract_library_ctx(ModuleObject* m) {
  pthread_mutex_lock(&g_module_mutex);
  if (m->ctx_prev != NULL) m->ctx_prev->ctx_next = m->ctx_next;
  if (m->ctx_next != NULL) m->ctx_next->ctx_prev = m->ctx_prev;
  if (g_ctx_owners == m) g_ctx_owners = m->ctx_next;
  if (*m->ctx_slot == m) {
    ModuleObject* heir = g_ctx_owners;
    while (heir != NULL && heir->ctx_slot != m->ctx_slot) heir = heir->ctx_next;
    *m->ctx_slot = heir;
  }
  pthread_mutex_unlock(&g_module_mutex);
}

static void module_destroy(void* self) {
  ModuleObject* m = (ModuleObject*)self;
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
FFI_DEFINE_DELETER(module_deleter, module_destroy)

/* A new library module. Takes ownership of dl_handle (closed on failure too) and copies the
 * prefix. */
static ModuleObject* module_new(void* dl_handle, const char* system_prefix) {
  ModuleObject* m =
      (ModuleObject*)ffi_object_alloc(sizeof(ModuleObject), kTVMFFIModule, module_deleter);
  if (m == NULL) {
    if (dl_handle != NULL) dlclose(dl_handle);
    return NULL;
  }
  m->kind = "library";
  m->dl_handle = dl_handle;
  if (system_prefix != NULL && (m->symbol_prefix = concat3(system_prefix, NULL, NULL)) == NULL) {
    ffi_decref(&m->header);
    return NULL;
  }
  if (ffi_array_new(NULL, 0, &m->imports) != 0) {
    ffi_decref(&m->header);
    return NULL;
  }
  return m;
}

static bool is_system_lib(const ModuleObject* m) { return m->dl_handle == NULL; }

/* Borrowed module argument. Only this file makes kTVMFFIModule objects, so the exact index
 * guarantees the layout above. */
static int arg_module(const char* fname, const TVMFFIAny* args, int32_t i, ModuleObject** out) {
  TVMFFIObject* obj;
  if (ffi_arg_object(fname, args, i, kTVMFFIModule, &obj) != 0) return -1;
  if (obj->type_index != kTVMFFIModule) {
    return ffi_raise("TypeError", "%s: argument #%d is a subclass of ffi.Module this runtime did "
                     "not create (type index %d)", fname, (int)i, (int)obj->type_index);
  }
  *out = (ModuleObject*)obj;
  return 0;
}

/* ---- imports ---- */

static TVMFFISeqCell* array_cell(TVMFFIObject* arr) {
  return (TVMFFISeqCell*)((char*)arr + sizeof(TVMFFIObject));
}

static ModuleObject* array_module_at(TVMFFIObject* arr, int64_t i) {
  return (ModuleObject*)((TVMFFIAny*)array_cell(arr)->data)[i].v_obj;
}

/* A strong reference to the current import list, so it can be walked without the lock. */
static TVMFFIObject* imports_snapshot(ModuleObject* m) {
  pthread_mutex_lock(&g_module_mutex);
  TVMFFIObject* arr = m->imports;
  ffi_incref(arr);
  pthread_mutex_unlock(&g_module_mutex);
  return arr;
}

/* True when `target` is reachable from `start` through imports (start included).
 * Caller holds g_module_mutex. Returns -1 on allocation failure. */
static int reaches_locked(ModuleObject* start, ModuleObject* target) {
  size_t capacity = 16, size = 0, top = 0;
  ModuleObject** seen = (ModuleObject**)malloc(capacity * sizeof(ModuleObject*));
  if (seen == NULL) return ffi_raise("MemoryError", "cannot check the import graph");
  seen[size++] = start;
  int found = 0;
  /* `seen` doubles as the work list: entries before `top` are expanded. */
  while (top < size && !found) {
    ModuleObject* n = seen[top++];
    if (n == target) {
      found = 1;
      break;
    }
    TVMFFIObject* arr = n->imports;
    for (int64_t i = 0; i < array_cell(arr)->size; ++i) {
      ModuleObject* next = array_module_at(arr, i);
      bool known = false;
      for (size_t k = 0; k < size && !known; ++k) known = seen[k] == next;
      if (known) continue;
      if (size == capacity) {
        ModuleObject** grown = (ModuleObject**)realloc(seen, 2 * capacity * sizeof(ModuleObject*));
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

/* Appends `other` to m's imports unless that would close a cycle. */
static int module_import(ModuleObject* m, ModuleObject* other) {
  pthread_mutex_lock(&g_module_mutex);
  int cyclic = reaches_locked(other, m);
  if (cyclic != 0) {
    pthread_mutex_unlock(&g_module_mutex);
    return cyclic < 0 ? -1 : ffi_raise("RuntimeError", "Cyclic dependency detected during import");
  }
  TVMFFIObject* old = m->imports;
  TVMFFISeqCell* cell = array_cell(old);
  int64_t n = cell->size;
  TVMFFIAny* items = (TVMFFIAny*)malloc((size_t)(n + 1) * sizeof(TVMFFIAny));
  TVMFFIObject* grown = NULL;
  int rc = -1;
  if (items == NULL) {
    ffi_raise("MemoryError", "ffi.ModuleImportModule: out of memory");
  } else {
    if (n) memcpy(items, cell->data, (size_t)n * sizeof(TVMFFIAny));
    items[n] = ffi_any_from_object(&other->header); /* a view: the array takes its own ref */
    rc = ffi_array_new(items, n + 1, &grown);
    free(items);
  }
  if (rc == 0) m->imports = grown;
  pthread_mutex_unlock(&g_module_mutex);
  if (rc == 0) ffi_decref(old);
  return rc;
}

static int module_clear_imports(ModuleObject* m) {
  TVMFFIObject* empty;
  if (ffi_array_new(NULL, 0, &empty) != 0) return -1;
  pthread_mutex_lock(&g_module_mutex);
  TVMFFIObject* old = m->imports;
  m->imports = empty;
  pthread_mutex_unlock(&g_module_mutex);
  ffi_decref(old);
  return 0;
}

/* ---- symbols and functions ---- */

/* Raw symbol lookup. The system library tries `prefix + name`, then `name`. */
static void* module_symbol(ModuleObject* m, const char* name) {
  if (!is_system_lib(m)) return dlsym(m->dl_handle, name);
  if (m->symbol_prefix[0] != '\0') {
    char* prefixed = concat3(m->symbol_prefix, name, NULL);
    if (prefixed == NULL) return NULL;
    void* address = system_symbol_lookup(prefixed);
    free(prefixed);
    if (address != NULL) return address;
  }
  return system_symbol_lookup(name);
}

/* Address of exported function `name`: "__tvm_ffi_" + name; the system library tries
 * "__tvm_ffi_" + prefix + name first. NULL when absent. */
static void* module_function_symbol(ModuleObject* m, const char* name) {
  if (is_system_lib(m) && m->symbol_prefix[0] != '\0') {
    char* symbol = concat3(SYMBOL_PREFIX, m->symbol_prefix, name);
    if (symbol == NULL) return NULL;
    void* address = system_symbol_lookup(symbol);
    free(symbol);
    if (address != NULL) return address;
  }
  char* symbol = concat3(SYMBOL_PREFIX, name, NULL);
  if (symbol == NULL) return NULL;
  void* address = is_system_lib(m) ? system_symbol_lookup(symbol) : dlsym(m->dl_handle, symbol);
  free(symbol);
  return address;
}

/* Resource of a Function wrapping an exported symbol: the module keeps the code loaded. */
typedef struct {
  ModuleObject* module; /* strong reference */
  TVMFFISafeCallType call;
} ModuleFunction;

static int module_function_call(void* self, const TVMFFIAny* args, int32_t num_args,
                                TVMFFIAny* result) {
  ModuleFunction* mf = (ModuleFunction*)self;
  /* The callee overwrites result without releasing it (spec section 3.1). */
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

static int wrap_symbol(ModuleObject* m, void* symbol, TVMFFIObject** out) {
  ModuleFunction* mf = (ModuleFunction*)malloc(sizeof(ModuleFunction));
  if (mf == NULL) return ffi_raise("MemoryError", "cannot wrap a module function");
  mf->module = m;
  mf->call = as_safe_call(symbol);
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
 * form a reference cycle (the wrapper holds the module), and dlsym is cheap. */
static int module_get_function(ModuleObject* m, const char* name, bool query_imports,
                               TVMFFIObject** out) {
  *out = NULL;
  void* symbol = module_function_symbol(m, name);
  if (symbol != NULL) return wrap_symbol(m, symbol, out);
  if (!query_imports) return 0;
  TVMFFIObject* imports = imports_snapshot(m);
  int rc = 0;
  for (int64_t i = 0; i < array_cell(imports)->size && rc == 0 && *out == NULL; ++i) {
    rc = module_get_function(array_module_at(imports, i), name, true, out);
  }
  ffi_decref(imports);
  return rc;
}

static bool module_implements(ModuleObject* m, const char* name, bool query_imports) {
  if (module_function_symbol(m, name) != NULL) return true;
  if (!query_imports) return false;
  TVMFFIObject* imports = imports_snapshot(m);
  bool found = false;
  for (int64_t i = 0; i < array_cell(imports)->size && !found; ++i) {
    found = module_implements(array_module_at(imports, i), name, true);
  }
  ffi_decref(imports);
  return found;
}

/* Calls the optional zero-argument symbol `symbol_prefix + name` that returns a String
 * (metadata JSON or docstring). *out stays None when no module has the symbol. */
static int module_get_text(ModuleObject* m, const char* symbol_prefix, const char* name,
                           bool query_imports, TVMFFIAny* out) {
  *out = ffi_any_none();
  char* symbol_name = concat3(symbol_prefix, name, NULL);
  if (symbol_name == NULL) return -1;
  void* symbol = module_symbol(m, symbol_name);
  if (symbol != NULL) {
    int rc = as_safe_call(symbol)(NULL, NULL, 0, out);
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
  TVMFFIObject* imports = imports_snapshot(m);
  int rc = 0;
  for (int64_t i = 0; i < array_cell(imports)->size && rc == 0; ++i) {
    rc = module_get_text(array_module_at(imports, i), symbol_prefix, name, true, out);
    if (out->type_index != kTVMFFINone) break;
  }
  ffi_decref(imports);
  return rc;
}

/* ------------------------------------------------------------------------------------------
 * __tvm_ffi__library_bin: the composite-module description (spec/ABI.md section 7.3)
 * ------------------------------------------------------------------------------------------ */

/* Reads little-endian u64 fields from the declared window only; never past `size`. */
typedef struct {
  const unsigned char* data;
  uint64_t size;
  uint64_t pos;
  const char* origin; /* the library, for messages */
} BinReader;

static uint64_t load_u64_le(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

static int bin_truncated(const BinReader* r, const char* what, uint64_t need) {
  return ffi_raise("RuntimeError",
                   SYMBOL_LIBRARY_BIN " of %s is malformed: %s at offset %llu needs %llu bytes but "
                   "only %llu of the declared %llu payload bytes remain",
                   r->origin, what, (unsigned long long)r->pos, (unsigned long long)need,
                   (unsigned long long)(r->size - r->pos), (unsigned long long)r->size);
}

static int bin_read_u64(BinReader* r, const char* what, uint64_t* out) {
  if (r->size - r->pos < 8) return bin_truncated(r, what, 8);
  *out = load_u64_le(r->data + r->pos);
  r->pos += 8;
  return 0;
}

/* A vec<u64>; *out is malloc'ed (at least one element so an empty vector is not NULL). */
static int bin_read_vec(BinReader* r, const char* what, uint64_t** out, uint64_t* count) {
  if (bin_read_u64(r, what, count) != 0) return -1;
  if (*count > (r->size - r->pos) / 8) {
    return bin_truncated(r, what, *count > UINT64_MAX / 8 ? UINT64_MAX : *count * 8);
  }
  *out = (uint64_t*)malloc((size_t)(*count ? *count : 1) * sizeof(uint64_t));
  if (*out == NULL) return ffi_raise("MemoryError", "cannot read %s", what);
  for (uint64_t i = 0; i < *count; ++i) (*out)[i] = load_u64_le(r->data + r->pos + 8 * i);
  r->pos += 8 * *count;
  return 0;
}

/* A length-prefixed byte string, viewed in place. */
static int bin_read_bytes(BinReader* r, const char* what, TVMFFIByteArray* out) {
  uint64_t len;
  if (bin_read_u64(r, what, &len) != 0) return -1;
  if (len > r->size - r->pos) return bin_truncated(r, what, len);
  out->data = (const char*)r->data + r->pos;
  out->size = (size_t)len;
  r->pos += len;
  return 0;
}

/* Builds a module from one serialized blob through ffi.Module.load_from_bytes.<kind>. */
static int load_from_bytes(const char* origin, TVMFFIByteArray kind, TVMFFIByteArray blob,
                           ModuleObject** out) {
  char* kind_name = cstr_from_bytes(SYMBOL_LIBRARY_BIN, "a module kind", kind);
  if (kind_name == NULL) return -1;
  char* loader = concat3(LOADER_FROM_BYTES, kind_name, NULL);
  free(kind_name);
  if (loader == NULL) return -1;
  TVMFFIAny arg, result = ffi_any_none();
  bool found = false;
  int rc = ffi_string_make(blob.data, blob.size, 1, &arg);
  if (rc == 0) {
    rc = call_global(loader, &arg, 1, &result, &found);
    ffi_any_release(&arg);
  }
  if (rc == 0 && !found) {
    rc = ffi_raise("RuntimeError",
                   "Library binary of %s contains a module of kind `%.*s` but its loader `%s` is "
                   "not registered in the global registry",
                   origin, (int)kind.size, kind.data, loader);
  } else if (rc == 0 && result.type_index != kTVMFFIModule) {
    TVMFFIByteArray actual = ffi_type_key_of(result.type_index);
    ffi_any_release(&result);
    rc = ffi_raise("TypeError", "%s returned `%.*s`, expected `ffi.Module`", loader,
                   (int)actual.size, actual.data);
  }
  free(loader);
  if (rc != 0) return -1;
  *out = (ModuleObject*)result.v_obj;
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

/* Validated CSR import tree of the description. */
typedef struct {
  uint64_t* indptr;
  uint64_t* children;
  uint64_t num_modules;
} ImportTree;

static int bin_read_tree(BinReader* r, ImportTree* tree) {
  uint64_t num_indptr = 0, num_children = 0;
  if (bin_read_vec(r, "the import tree indptr", &tree->indptr, &num_indptr) != 0) return -1;
  if (bin_read_vec(r, "the import tree child indices", &tree->children, &num_children) != 0) {
    return -1;
  }
  if (num_indptr < 2) {
    return ffi_raise("RuntimeError", SYMBOL_LIBRARY_BIN " of %s is malformed: the import tree "
                     "describes no module (indptr has %llu entries)", r->origin,
                     (unsigned long long)num_indptr);
  }
  tree->num_modules = num_indptr - 1;
  for (uint64_t i = 0; i < tree->num_modules; ++i) {
    if (tree->indptr[i] > tree->indptr[i + 1] || tree->indptr[i + 1] > num_children) {
      return ffi_raise("RuntimeError", SYMBOL_LIBRARY_BIN " of %s is malformed: import tree "
                       "indptr[%llu..%llu] = [%llu, %llu] is not a range within %llu child indices",
                       r->origin, (unsigned long long)i, (unsigned long long)i + 1,
                       (unsigned long long)tree->indptr[i], (unsigned long long)tree->indptr[i + 1],
                       (unsigned long long)num_children);
    }
  }
  for (uint64_t j = 0; j < num_children; ++j) {
    if (tree->children[j] >= tree->num_modules) {
      return ffi_raise("RuntimeError", SYMBOL_LIBRARY_BIN " of %s is malformed: child index %llu "
                       "at position %llu is out of range for %llu modules",
                       r->origin, (unsigned long long)tree->children[j], (unsigned long long)j,
                       (unsigned long long)tree->num_modules);
    }
  }
  return 0;
}

/* Loads every node of the description: "_lib" is `lib` itself, other kinds go through their
 * loaders. *lib_used tells whether the library module is part of the result. */
static int bin_load_nodes(BinReader* r, ModuleObject* lib, ModuleObject** nodes, uint64_t count,
                          bool* lib_used) {
  for (uint64_t i = 0; i < count; ++i) {
    TVMFFIByteArray kind, blob;
    if (bin_read_bytes(r, "a module kind", &kind) != 0) return -1;
    if (kind.size == 4 && memcmp(kind.data, "_lib", 4) == 0) {
      if (lib == NULL) {
        return ffi_raise("RuntimeError", SYMBOL_LIBRARY_BIN " of %s is malformed: `_lib` node "
                         "without a host library", r->origin);
      }
      if (*lib_used) {
        return ffi_raise("RuntimeError", SYMBOL_LIBRARY_BIN " of %s is malformed: more than one "
                         "`_lib` node (second at node %llu)", r->origin, (unsigned long long)i);
      }
      ffi_incref(&lib->header);
      nodes[i] = lib;
      *lib_used = true;
      continue;
    }
    if (bin_read_bytes(r, "a module blob", &blob) != 0) return -1;
    if (load_from_bytes(r->origin, kind, blob, &nodes[i]) != 0) return -1;
  }
  return 0;
}

/* Builds the composite module described by `bin` (which lives in lib's memory, so lib must
 * stay alive meanwhile). *root is owned; node 0 of the description. */
static int process_library_bin(ModuleObject* lib, const char* origin, const unsigned char* bin,
                               uint64_t known_size, ModuleObject** root, bool* lib_used) {
  *lib_used = false;
  if (known_size != 0 && known_size < 8) {
    return ffi_raise("RuntimeError", SYMBOL_LIBRARY_BIN " of %s is malformed: the symbol has %llu "
                     "bytes, fewer than its 8-byte size field", origin,
                     (unsigned long long)known_size);
  }
  uint64_t nbytes = load_u64_le(bin);
  if (known_size != 0 && nbytes > known_size - 8) {
    return ffi_raise("RuntimeError", SYMBOL_LIBRARY_BIN " of %s is malformed: it declares %llu "
                     "payload bytes but the symbol only has %llu after the size field", origin,
                     (unsigned long long)nbytes, (unsigned long long)(known_size - 8));
  }
  BinReader r = {bin + 8, nbytes, 0, origin};
  ImportTree tree = {NULL, NULL, 0};
  ModuleObject** nodes = NULL;
  int rc = bin_read_tree(&r, &tree);
  if (rc == 0) {
    nodes = (ModuleObject**)calloc((size_t)tree.num_modules, sizeof(ModuleObject*));
    if (nodes == NULL) rc = ffi_raise("MemoryError", "cannot load %llu modules",
                                      (unsigned long long)tree.num_modules);
  }
  if (rc == 0) rc = bin_load_nodes(&r, lib, nodes, tree.num_modules, lib_used);
  for (uint64_t i = 0; rc == 0 && i < tree.num_modules; ++i) {
    for (uint64_t j = tree.indptr[i]; rc == 0 && j < tree.indptr[i + 1]; ++j) {
      rc = module_import(nodes[i], nodes[tree.children[j]]);
    }
  }
  if (rc == 0) {
    *root = nodes[0];
    ffi_incref(&nodes[0]->header);
  }
  for (uint64_t i = 0; nodes != NULL && i < tree.num_modules; ++i) {
    if (nodes[i] != NULL) ffi_decref(&nodes[i]->header);
  }
  free(nodes);
  free(tree.indptr);
  free(tree.children);
  return rc;
}

/* ------------------------------------------------------------------------------------------
 * turning a freshly opened library into its (possibly composite) module (section 7.2, 4-6)
 * ------------------------------------------------------------------------------------------ */

static void apply_context_symbols(ModuleObject* lib) {
  pthread_mutex_lock(&g_context_symbols.lock);
  for (size_t i = 0; i < g_context_symbols.size; ++i) {
    void** slot = (void**)module_symbol(lib, g_context_symbols.items[i].name);
    if (slot != NULL) *slot = g_context_symbols.items[i].value;
  }
  pthread_mutex_unlock(&g_context_symbols.lock);
}

/* Consumes `lib`. On success *root is the owned result and *ctx_slot, when non-NULL, is the
 * library's __tvm_ffi__library_ctx that should receive `lib` once the caller keeps the result
 * (lib stays alive as long as root does whenever *ctx_slot is set). */
static int library_module_finish(ModuleObject* lib, const char* origin, ModuleObject** root,
                                 void*** ctx_slot) {
  apply_context_symbols(lib);
  const unsigned char* bin = (const unsigned char*)module_symbol(lib, SYMBOL_LIBRARY_BIN);
  void** ctx = (void**)module_symbol(lib, SYMBOL_LIBRARY_CTX);
  bool lib_used = true;
  int rc = 0;
  if (bin != NULL) {
    uint64_t known_size = is_system_lib(lib) ? 0 : dl_symbol_size(bin);
    rc = process_library_bin(lib, origin, bin, known_size, root, &lib_used);
  } else {
    *root = lib;
    ffi_incref(&lib->header);
  }
  *ctx_slot = rc == 0 && lib_used ? ctx : NULL;
  ffi_decref(&lib->header);
  return rc;
}

/* The `.so` loader: dlopen, then the steps shared with the system library. */
static int load_shared_library(const char* path, ModuleObject** out) {
  if (path[0] == '\0') {
    return ffi_raise("ValueError", LOADER_FROM_FILE "so: the library path is empty");
  }
  if (ffi_elf_check_file(path) != 0) return -1; /* a truncated file would SIGBUS inside dlopen */
  /* dlerror() is per thread; clear anything stale so the message is ours. */
  (void)dlerror();
  void* handle = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
  if (handle == NULL) {
    const char* reason = dlerror();
    return ffi_raise("RuntimeError", "cannot open %s: %s", path,
                     reason != NULL ? reason : "unknown dlopen error");
  }
  ModuleObject* lib = module_new(handle, NULL);
  if (lib == NULL) return -1;
  void** ctx = NULL;
  if (library_module_finish(lib, path, out, &ctx) != 0) return -1;
  if (ctx != NULL) publish_library_ctx(lib, ctx);
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

static int module_load_from_file(const char* path, TVMFFIAny* result) {
  const char* fmt = NULL;
  if (file_format(path, &fmt) != 0) return -1;
  char* loader = concat3(LOADER_FROM_FILE, fmt, NULL);
  if (loader == NULL) return -1;
  TVMFFIAny args[2] = {raw_str_view(path), raw_str_view(fmt)};
  bool found = false;
  int rc = call_global(loader, args, 2, result, &found);
  if (rc == 0 && !found) {
    rc = ffi_raise("RuntimeError", "Loader for `.%s` files is not registered, resolved to (%s) in "
                   "the global registry. Ensure that the runtime code for this format is loaded "
                   "and that you are on the right hardware architecture.", fmt, loader);
  } else if (rc == 0 && result->type_index != kTVMFFIModule) {
    TVMFFIByteArray actual = ffi_type_key_of(result->type_index);
    ffi_any_release(result);
    rc = ffi_raise("TypeError", "%s returned `%.*s`, expected `ffi.Module`", loader,
                   (int)actual.size, actual.data);
  }
  free(loader);
  return rc;
}

/* ------------------------------------------------------------------------------------------
 * the system library: one module per prefix, alive for the process
 * ------------------------------------------------------------------------------------------ */

typedef struct {
  char* prefix;
  ModuleObject* module; /* owned for the process */
} SystemLibEntry;

static struct {
  pthread_mutex_t lock;
  SystemLibEntry* items;
  size_t size, capacity;
} g_system_libs = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};

static ModuleObject* system_lib_find_locked(const char* prefix) {
  for (size_t i = 0; i < g_system_libs.size; ++i) {
    if (strcmp(g_system_libs.items[i].prefix, prefix) == 0) return g_system_libs.items[i].module;
  }
  return NULL;
}

/* Owned reference to the module for `prefix`, creating it on first use. Creation runs outside
 * the lock (it may call loaders that ask for a system library themselves); a racing creator's
 * module is dropped before its context pointer is published. */
static int system_lib_get(const char* prefix, ModuleObject** out) {
  pthread_mutex_lock(&g_system_libs.lock);
  ModuleObject* m = system_lib_find_locked(prefix);
  if (m != NULL) ffi_incref(&m->header);
  pthread_mutex_unlock(&g_system_libs.lock);
  if (m != NULL) {
    *out = m;
    return 0;
  }
  ModuleObject* lib = module_new(NULL, prefix);
  if (lib == NULL) return -1;
  ModuleObject* fresh = NULL;
  void** ctx = NULL;
  if (library_module_finish(lib, "the system library", &fresh, &ctx) != 0) return -1;
  char* key = concat3(prefix, NULL, NULL);
  if (key == NULL) {
    ffi_decref(&fresh->header);
    return -1;
  }
  pthread_mutex_lock(&g_system_libs.lock);
  m = system_lib_find_locked(prefix);
  int rc = 0;
  if (m == NULL) {
    if (g_system_libs.size == g_system_libs.capacity) {
      size_t capacity = g_system_libs.capacity ? 2 * g_system_libs.capacity : 4;
      SystemLibEntry* items =
          (SystemLibEntry*)realloc(g_system_libs.items, capacity * sizeof(SystemLibEntry));
      if (items == NULL) {
        rc = ffi_raise("MemoryError", "ffi.SystemLib: out of memory");
      } else {
        g_system_libs.items = items;
        g_system_libs.capacity = capacity;
      }
    }
    if (rc == 0) {
      g_system_libs.items[g_system_libs.size++] = (SystemLibEntry){key, fresh};
      key = NULL;
      m = fresh;
      fresh = NULL;
      if (ctx != NULL) publish_library_ctx(lib, ctx); /* lib is fresh or one of its imports */
    }
  }
  if (m != NULL) ffi_incref(&m->header);
  pthread_mutex_unlock(&g_system_libs.lock);
  free(key);
  if (fresh != NULL) ffi_decref(&fresh->header);
  if (rc != 0) return -1;
  *out = m;
  return 0;
}

/* ------------------------------------------------------------------------------------------
 * TVMFFIEnvModLookupFromImports: imports first, then the global registry; cached per module
 * ------------------------------------------------------------------------------------------ */

static TVMFFIObject* cache_find_locked(ModuleObject* m, const char* name) {
  for (size_t i = 0; i < m->cache_size; ++i) {
    if (strcmp(m->cache[i].name, name) == 0) return m->cache[i].func;
  }
  return NULL;
}

/* Stores func (stolen) under name unless another thread got there first; returns the cached
 * function, borrowed. */
static int cache_insert(ModuleObject* m, const char* name, TVMFFIObject* func,
                        TVMFFIObject** out) {
  char* key = concat3(name, NULL, NULL);
  if (key == NULL) {
    ffi_decref(func);
    return -1;
  }
  pthread_mutex_lock(&g_module_mutex);
  TVMFFIObject* existing = cache_find_locked(m, name);
  int rc = 0;
  if (existing == NULL && m->cache_size == m->cache_capacity) {
    size_t capacity = m->cache_capacity ? 2 * m->cache_capacity : 4;
    LookupEntry* cache = (LookupEntry*)realloc(m->cache, capacity * sizeof(LookupEntry));
    if (cache == NULL) {
      rc = ffi_raise("MemoryError", "TVMFFIEnvModLookupFromImports: out of memory");
    } else {
      m->cache = cache;
      m->cache_capacity = capacity;
    }
  }
  if (rc == 0 && existing == NULL) {
    m->cache[m->cache_size++] = (LookupEntry){key, func};
    key = NULL;
    existing = func;
    func = NULL;
  }
  pthread_mutex_unlock(&g_module_mutex);
  free(key);
  if (func != NULL) ffi_decref(func);
  *out = existing;
  return rc;
}

int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx, const char* func_name,
                                  TVMFFIObjectHandle* out) {
  if (library_ctx == NULL || func_name == NULL || out == NULL) {
    return ffi_raise("ValueError",
                     "TVMFFIEnvModLookupFromImports: library_ctx, func_name and out are required");
  }
  ModuleObject* m = (ModuleObject*)library_ctx;
  if (m->header.type_index != kTVMFFIModule) {
    return ffi_raise("TypeError", "TVMFFIEnvModLookupFromImports: library_ctx is not a module "
                     "(type index %d)", (int)m->header.type_index);
  }
  pthread_mutex_lock(&g_module_mutex);
  TVMFFIObject* cached = cache_find_locked(m, func_name);
  pthread_mutex_unlock(&g_module_mutex);
  if (cached != NULL) {
    *out = cached;
    return 0;
  }
  TVMFFIObject* found = NULL;
  TVMFFIObject* imports = imports_snapshot(m);
  int rc = 0;
  for (int64_t i = 0; i < array_cell(imports)->size && rc == 0 && found == NULL; ++i) {
    rc = module_get_function(array_module_at(imports, i), func_name, true, &found);
  }
  ffi_decref(imports);
  if (rc != 0) return -1;
  if (found == NULL) {
    TVMFFIByteArray key = {func_name, strlen(func_name)};
    if (TVMFFIFunctionGetGlobal(&key, (TVMFFIObjectHandle*)&found) != 0) return -1;
  }
  if (found == NULL) {
    return ffi_raise("RuntimeError",
                     "Cannot find function %s in the imported modules or global registry.",
                     func_name);
  }
  TVMFFIObject* borrowed;
  if (cache_insert(m, func_name, found, &borrowed) != 0) return -1;
  *out = borrowed;
  return 0;
}

/* ------------------------------------------------------------------------------------------
 * process keep-alive set (ffi.ModuleGlobalsAdd / ffi.ModuleGlobalsRemove)
 * ------------------------------------------------------------------------------------------ */

static struct {
  pthread_mutex_t lock;
  TVMFFIObject** items; /* owned */
  size_t size, capacity;
} g_kept_modules = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};

static int kept_modules_add(TVMFFIObject* m) {
  int rc = 0;
  pthread_mutex_lock(&g_kept_modules.lock);
  for (size_t i = 0; i < g_kept_modules.size; ++i) {
    if (g_kept_modules.items[i] == m) goto done;
  }
  if (g_kept_modules.size == g_kept_modules.capacity) {
    size_t capacity = g_kept_modules.capacity ? 2 * g_kept_modules.capacity : 8;
    TVMFFIObject** items =
        (TVMFFIObject**)realloc(g_kept_modules.items, capacity * sizeof(TVMFFIObject*));
    if (items == NULL) {
      rc = ffi_raise("MemoryError", "ffi.ModuleGlobalsAdd: out of memory");
      goto done;
    }
    g_kept_modules.items = items;
    g_kept_modules.capacity = capacity;
  }
  ffi_incref(m);
  g_kept_modules.items[g_kept_modules.size++] = m;
done:
  pthread_mutex_unlock(&g_kept_modules.lock);
  return rc;
}

static void kept_modules_remove(TVMFFIObject* m) {
  bool found = false;
  pthread_mutex_lock(&g_kept_modules.lock);
  for (size_t i = 0; i < g_kept_modules.size && !found; ++i) {
    if (g_kept_modules.items[i] != m) continue;
    g_kept_modules.items[i] = g_kept_modules.items[--g_kept_modules.size];
    found = true;
  }
  pthread_mutex_unlock(&g_kept_modules.lock);
  /* Released outside the lock: it may unload a library. */
  if (found) ffi_decref(m);
}

/* ------------------------------------------------------------------------------------------
 * global functions (spec/ABI.md section 8.4)
 * ------------------------------------------------------------------------------------------ */

static int global_load_from_file(void* self, const TVMFFIAny* args, int32_t num_args,
                                 TVMFFIAny* result) {
  (void)self;
  static const char* kName = "ffi.ModuleLoadFromFile";
  TVMFFIByteArray path_view;
  if (ffi_check_num_args(kName, num_args, 1) != 0 || ffi_arg_str(kName, args, 0, &path_view) != 0) {
    return -1;
  }
  char* path = cstr_from_bytes(kName, "the path", path_view);
  if (path == NULL) return -1;
  int rc = module_load_from_file(path, result);
  free(path);
  return rc;
}

static int global_load_so(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  static const char* kName = LOADER_FROM_FILE "so";
  TVMFFIByteArray path_view, fmt;
  if (check_num_args_range(kName, num_args, 1, 2) != 0 ||
      ffi_arg_str(kName, args, 0, &path_view) != 0 ||
      (num_args > 1 && ffi_arg_str(kName, args, 1, &fmt) != 0)) {
    return -1;
  }
  char* path = cstr_from_bytes(kName, "the path", path_view);
  if (path == NULL) return -1;
  ModuleObject* m;
  int rc = load_shared_library(path, &m);
  free(path);
  if (rc != 0) return -1;
  ffi_ret_object(result, &m->header);
  return 0;
}

static int global_system_lib(void* self, const TVMFFIAny* args, int32_t num_args,
                             TVMFFIAny* result) {
  (void)self;
  static const char* kName = "ffi.SystemLib";
  TVMFFIByteArray prefix_view = {"", 0};
  if (check_num_args_range(kName, num_args, 0, 1) != 0 ||
      (num_args == 1 && ffi_arg_str(kName, args, 0, &prefix_view) != 0)) {
    return -1;
  }
  char* prefix = cstr_from_bytes(kName, "the symbol prefix", prefix_view);
  if (prefix == NULL) return -1;
  ModuleObject* m;
  int rc = system_lib_get(prefix, &m);
  free(prefix);
  if (rc != 0) return -1;
  ffi_ret_object(result, &m->header);
  return 0;
}

/* Shared argument parsing of the (mod, name[, query_imports]) queries. */
static int query_args(const char* fname, const TVMFFIAny* args, int32_t num_args,
                      ModuleObject** m, char** name, bool* query_imports) {
  TVMFFIByteArray name_view;
  *query_imports = false;
  if (check_num_args_range(fname, num_args, 2, 3) != 0 || arg_module(fname, args, 0, m) != 0 ||
      ffi_arg_str(fname, args, 1, &name_view) != 0 ||
      (num_args > 2 && ffi_arg_bool(fname, args, 2, query_imports) != 0)) {
    return -1;
  }
  *name = cstr_from_bytes(fname, "the function name", name_view);
  return *name != NULL ? 0 : -1;
}

static int global_get_function(void* self, const TVMFFIAny* args, int32_t num_args,
                               TVMFFIAny* result) {
  (void)self;
  ModuleObject* m;
  char* name;
  bool query_imports;
  if (query_args("ffi.ModuleGetFunction", args, num_args, &m, &name, &query_imports) != 0) return -1;
  TVMFFIObject* f = NULL;
  int rc = module_get_function(m, name, query_imports, &f);
  free(name);
  if (rc != 0) return -1;
  *result = ffi_any_from_object(f); /* None when absent */
  return 0;
}

static int global_implements_function(void* self, const TVMFFIAny* args, int32_t num_args,
                                      TVMFFIAny* result) {
  (void)self;
  ModuleObject* m;
  char* name;
  bool query_imports;
  if (query_args("ffi.ModuleImplementsFunction", args, num_args, &m, &name, &query_imports) != 0) {
    return -1;
  }
  ffi_ret_bool(result, module_implements(m, name, query_imports));
  free(name);
  return 0;
}

static int get_text(const char* fname, const char* symbol_prefix, const TVMFFIAny* args,
                    int32_t num_args, TVMFFIAny* result) {
  ModuleObject* m;
  char* name;
  bool query_imports;
  if (query_args(fname, args, num_args, &m, &name, &query_imports) != 0) return -1;
  int rc = module_get_text(m, symbol_prefix, name, query_imports, result);
  free(name);
  return rc;
}

static int global_get_function_metadata(void* self, const TVMFFIAny* args, int32_t num_args,
                                        TVMFFIAny* result) {
  (void)self;
  return get_text("ffi.ModuleGetFunctionMetadata", SYMBOL_METADATA_PREFIX, args, num_args, result);
}

static int global_get_function_doc(void* self, const TVMFFIAny* args, int32_t num_args,
                                   TVMFFIAny* result) {
  (void)self;
  return get_text("ffi.ModuleGetFunctionDoc", SYMBOL_DOC_PREFIX, args, num_args, result);
}

static int global_get_kind(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  ModuleObject* m;
  if (ffi_check_num_args("ffi.ModuleGetKind", num_args, 1) != 0 ||
      arg_module("ffi.ModuleGetKind", args, 0, &m) != 0) {
    return -1;
  }
  return ffi_string_make(m->kind, strlen(m->kind), 0, result);
}

static int global_get_property_mask(void* self, const TVMFFIAny* args, int32_t num_args,
                                    TVMFFIAny* result) {
  (void)self;
  ModuleObject* m;
  if (ffi_check_num_args("ffi.ModuleGetPropertyMask", num_args, 1) != 0 ||
      arg_module("ffi.ModuleGetPropertyMask", args, 0, &m) != 0) {
    return -1;
  }
  ffi_ret_int(result, kPropertyBinarySerializable | kPropertyRunnable);
  return 0;
}

/* Library modules have no source and no write formats: an empty list and an empty text. */
static int global_get_write_formats(void* self, const TVMFFIAny* args, int32_t num_args,
                                    TVMFFIAny* result) {
  (void)self;
  ModuleObject* m;
  if (ffi_check_num_args("ffi.ModuleGetWriteFormats", num_args, 1) != 0 ||
      arg_module("ffi.ModuleGetWriteFormats", args, 0, &m) != 0) {
    return -1;
  }
  TVMFFIObject* formats;
  if (ffi_array_new(NULL, 0, &formats) != 0) return -1;
  ffi_ret_object(result, formats);
  return 0;
}

static int global_inspect_source(void* self, const TVMFFIAny* args, int32_t num_args,
                                 TVMFFIAny* result) {
  (void)self;
  static const char* kName = "ffi.ModuleInspectSource";
  ModuleObject* m;
  TVMFFIByteArray fmt;
  if (check_num_args_range(kName, num_args, 1, 2) != 0 || arg_module(kName, args, 0, &m) != 0 ||
      (num_args > 1 && ffi_arg_str(kName, args, 1, &fmt) != 0)) {
    return -1;
  }
  return ffi_string_make("", 0, 0, result);
}

static int global_write_to_file(void* self, const TVMFFIAny* args, int32_t num_args,
                                TVMFFIAny* result) {
  (void)self;
  (void)result;
  static const char* kName = "ffi.ModuleWriteToFile";
  ModuleObject* m;
  TVMFFIByteArray file, fmt;
  if (check_num_args_range(kName, num_args, 2, 3) != 0 || arg_module(kName, args, 0, &m) != 0 ||
      ffi_arg_str(kName, args, 1, &file) != 0 ||
      (num_args > 2 && ffi_arg_str(kName, args, 2, &fmt) != 0)) {
    return -1;
  }
  return ffi_raise("RuntimeError", "Module[%s] does not support WriteToFile", m->kind);
}

static int global_import_module(void* self, const TVMFFIAny* args, int32_t num_args,
                                TVMFFIAny* result) {
  (void)self;
  (void)result;
  static const char* kName = "ffi.ModuleImportModule";
  ModuleObject *m, *other;
  if (ffi_check_num_args(kName, num_args, 2) != 0 || arg_module(kName, args, 0, &m) != 0 ||
      arg_module(kName, args, 1, &other) != 0) {
    return -1;
  }
  return module_import(m, other);
}

static int global_clear_imports(void* self, const TVMFFIAny* args, int32_t num_args,
                                TVMFFIAny* result) {
  (void)self;
  (void)result;
  ModuleObject* m;
  if (ffi_check_num_args("ffi.ModuleClearImports", num_args, 1) != 0 ||
      arg_module("ffi.ModuleClearImports", args, 0, &m) != 0) {
    return -1;
  }
  return module_clear_imports(m);
}

static int global_globals_add(void* self, const TVMFFIAny* args, int32_t num_args,
                              TVMFFIAny* result) {
  (void)self;
  (void)result;
  ModuleObject* m;
  if (ffi_check_num_args("ffi.ModuleGlobalsAdd", num_args, 1) != 0 ||
      arg_module("ffi.ModuleGlobalsAdd", args, 0, &m) != 0) {
    return -1;
  }
  return kept_modules_add(&m->header);
}

static int global_globals_remove(void* self, const TVMFFIAny* args, int32_t num_args,
                                 TVMFFIAny* result) {
  (void)self;
  (void)result;
  ModuleObject* m;
  if (ffi_check_num_args("ffi.ModuleGlobalsRemove", num_args, 1) != 0 ||
      arg_module("ffi.ModuleGlobalsRemove", args, 0, &m) != 0) {
    return -1;
  }
  kept_modules_remove(&m->header);
  return 0;
}

/* Getter of the reflected field `imports_`: a consistent snapshot of the import list. */
static int imports_field_getter(void* field_addr, TVMFFIAny* result) {
  ModuleObject* m = (ModuleObject*)((char*)field_addr - FFI_MODULE_IMPORTS_OFFSET);
  *result = ffi_any_from_object(imports_snapshot(m));
  return 0;
}

/* Reflects `imports_` (read-only) so frontends can list a module's imports. */
static void register_imports_field(void) {
  TVMFFIFieldInfo info;
  memset(&info, 0, sizeof(info));
  info.name.data = "imports_";
  info.name.size = strlen("imports_");
  info.doc.data = "Modules imported by this module, in import order.";
  info.doc.size = strlen(info.doc.data);
  info.metadata.data = "{}";
  info.metadata.size = 2;
  info.size = sizeof(TVMFFIObject*);
  info.alignment = _Alignof(TVMFFIObject*);
  info.offset = FFI_MODULE_IMPORTS_OFFSET;
  info.getter = imports_field_getter;
  info.default_value_or_factory = ffi_any_none();
  info.field_static_type_index = kTVMFFIArray;
  if (TVMFFITypeRegisterField(kTVMFFIModule, &info) != 0) {
    ffi_fatal("runtime start-up", "cannot reflect the imports_ field of ffi.Module");
  }
}

void ffi_register_module_globals(void) {
  register_imports_field();
  ffi_register_builtin("ffi.ModuleLoadFromFile", global_load_from_file);
  ffi_register_builtin(LOADER_FROM_FILE "so", global_load_so);
  ffi_register_builtin("ffi.SystemLib", global_system_lib);
  ffi_register_builtin("ffi.ModuleGetFunction", global_get_function);
  ffi_register_builtin("ffi.ModuleImplementsFunction", global_implements_function);
  ffi_register_builtin("ffi.ModuleGetFunctionMetadata", global_get_function_metadata);
  ffi_register_builtin("ffi.ModuleGetFunctionDoc", global_get_function_doc);
  ffi_register_builtin("ffi.ModuleGetKind", global_get_kind);
  ffi_register_builtin("ffi.ModuleGetPropertyMask", global_get_property_mask);
  ffi_register_builtin("ffi.ModuleGetWriteFormats", global_get_write_formats);
  ffi_register_builtin("ffi.ModuleInspectSource", global_inspect_source);
  ffi_register_builtin("ffi.ModuleWriteToFile", global_write_to_file);
  ffi_register_builtin("ffi.ModuleImportModule", global_import_module);
  ffi_register_builtin("ffi.ModuleClearImports", global_clear_imports);
  ffi_register_builtin("ffi.ModuleGlobalsAdd", global_globals_add);
  ffi_register_builtin("ffi.ModuleGlobalsRemove", global_globals_remove);
}
