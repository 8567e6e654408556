/*
 * module_lookup.c -- TVMFFIEnvModLookupFromImports: what a library's code calls, through its
 * __tvm_ffi__library_ctx, to reach a function of its module's imports (then of the global
 * registry); the result is borrowed, kept alive by a per-module cache.
 *
 * A library context is the module as the reference's C++ code sees it (a ModuleObj*, whose
 * vtable pointer comes first): the address of the vtable slot before the object header. The
 * loader writes that for the modules it makes (module.c), and C++ modules that publish
 * themselves (TVM's JIT-compiled LLVM modules) pass `this`, so both are read alike here.
 */
#include <stdlib.h>
#include <string.h>

#include "module_internal.h"

/* ---- the per-module cache of the functions it hands out borrowed ----
 * A runtime-made module keeps an array of (name, function). A C++ module has its own slot for
 * this, the reference's `import_lookup_cache_` (a Map<String, Function> at header +32, which
 * only this function uses): the runtime swaps in a grown copy of that map, so functions handed
 * out earlier stay owned by the map that replaced it. Both are guarded by ffi_module_mutex. */

#define FFI_CXX_MODULE_LOOKUP_CACHE_OFFSET 32

static TVMFFIObject** cxx_cache_slot(TVMFFIObject* module) {
  return (TVMFFIObject**)((char*)module + FFI_CXX_MODULE_LOOKUP_CACHE_OFFSET);
}

static TVMFFIObject* cache_find_locked(TVMFFIObject* module, const char* name) {
  FfiModule* m = ffi_module_runtime_made(module);
  if (m == NULL) {
    TVMFFIObject* cache = *cxx_cache_slot(module);
    if (cache == NULL) return NULL;
    uint64_t cursor = 0;
    TVMFFIAny *k, *v;
    TVMFFIByteArray wanted = {name, strlen(name)};
    while (ffi_map_next(cache, &cursor, &k, &v)) {
      TVMFFIByteArray have;
      if (ffi_string_view(k, &have) && have.size == wanted.size &&
          memcmp(have.data, wanted.data, wanted.size) == 0) {
        return v->type_index == kTVMFFIFunction ? v->v_obj : NULL;
      }
    }
    return NULL;
  }
  for (size_t i = 0; i < m->cache_size; ++i) {
    if (strcmp(m->cache[i].name, name) == 0) return m->cache[i].func;
  }
  return NULL;
}

/* A copy of `old` (may be NULL) with name -> func added (func's reference stolen on success). */
static int cxx_cache_grown(TVMFFIObject* old, const char* name, TVMFFIObject* func,
                           TVMFFIObject** out) {
  TVMFFIObject* fresh;
  if (ffi_map_new_empty(kTVMFFIMap, &fresh) != 0) return -1;
  uint64_t cursor = 0;
  TVMFFIAny *k, *v;
  while (old != NULL && ffi_map_next(old, &cursor, &k, &v)) {
    TVMFFIAny key = *k, value = *v;
    if (ffi_is_object_index(key.type_index) && key.v_obj != NULL) ffi_incref(key.v_obj);
    if (ffi_is_object_index(value.type_index) && value.v_obj != NULL) ffi_incref(value.v_obj);
    if (ffi_map_set(fresh, key, value) != 0) {
      ffi_decref(fresh);
      return -1;
    }
  }
  TVMFFIAny key;
  if (ffi_string_make(name, strlen(name), 0, &key) != 0 ||
      ffi_map_set(fresh, key, ffi_any_from_object(func)) != 0) {
    ffi_decref(fresh);
    return -1;
  }
  *out = fresh;
  return 0;
}

/* Stores func (stolen) under name unless another thread got there first; returns the cached
 * function, borrowed. */
static int cache_insert(TVMFFIObject* module, const char* name, TVMFFIObject* func,
                        TVMFFIObject** out) {
  FfiModule* m = ffi_module_runtime_made(module);
  char* key = m != NULL ? ffi_concat3(name, NULL, NULL) : NULL;
  if (m != NULL && key == NULL) {
    ffi_decref(func);
    return -1;
  }
  pthread_mutex_lock(&ffi_module_mutex);
  TVMFFIObject* existing = cache_find_locked(module, name);
  TVMFFIObject* replaced = NULL;
  int rc = 0;
  if (existing == NULL && m == NULL) {
    TVMFFIObject** slot = cxx_cache_slot(module);
    TVMFFIObject* grown = NULL;
    rc = cxx_cache_grown(*slot, name, func, &grown);
    if (rc == 0) {
      replaced = *slot;
      *slot = grown;
      existing = func;
      func = NULL;
    }
  }
  if (existing == NULL && m != NULL && m->cache_size == m->cache_capacity) {
    size_t capacity = m->cache_capacity ? 2 * m->cache_capacity : 4;
    FfiModuleLookupEntry* cache =
        (FfiModuleLookupEntry*)realloc(m->cache, capacity * sizeof(FfiModuleLookupEntry));
    if (cache == NULL) {
      rc = ffi_raise("MemoryError", "TVMFFIEnvModLookupFromImports: out of memory");
    } else {
      m->cache = cache;
      m->cache_capacity = capacity;
    }
  }
  if (rc == 0 && existing == NULL) {
    m->cache[m->cache_size++] = (FfiModuleLookupEntry){key, func};
    key = NULL;
    existing = func;
    func = NULL;
  }
  pthread_mutex_unlock(&ffi_module_mutex);
  free(key);
  if (func != NULL) ffi_decref(func);
  if (replaced != NULL) ffi_decref(replaced); /* its functions live on in the grown copy */
  *out = existing;
  return rc;
}

int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx, const char* func_name,
                                  TVMFFIObjectHandle* out) {
  if (library_ctx == NULL || func_name == NULL || out == NULL) {
    return ffi_raise("ValueError",
                     "TVMFFIEnvModLookupFromImports: library_ctx, func_name and out are required");
  }
  /* library_ctx is a ModuleObj* (see library_ctx_of): the object header follows the vtable. */
  TVMFFIObject* module = (TVMFFIObject*)((char*)library_ctx + FFI_MODULE_VPTR_SLOT_SIZE);
  if (!ffi_is_object_index(module->type_index) ||
      !ffi_type_is_instance(module->type_index, kTVMFFIModule)) {
    return ffi_raise("TypeError", "TVMFFIEnvModLookupFromImports: library_ctx is not a module "
                     "(type index %d)", (int)module->type_index);
  }
  pthread_mutex_lock(&ffi_module_mutex);
  TVMFFIObject* cached = cache_find_locked(module, func_name);
  pthread_mutex_unlock(&ffi_module_mutex);
  if (cached != NULL) {
    *out = cached;
    return 0;
  }
  TVMFFIObject* found = NULL;
  TVMFFIObject* imports = ffi_module_imports_snapshot(module);
  if (imports == NULL) return -1;
  int rc = 0;
  for (int64_t i = 0; i < ffi_seq_cell(imports)->size && rc == 0 && found == NULL; ++i) {
    rc = ffi_module_get_function(ffi_module_import_at(imports, i), func_name, true, &found);
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
  if (cache_insert(module, func_name, found, &borrowed) != 0) return -1;
  *out = borrowed;
  return 0;
}
