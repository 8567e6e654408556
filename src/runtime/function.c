/*
 * function.c -- function objects and the process-wide registry of global functions.
 *
 * A function object is the header plus a TVMFFIFunctionCell whose safe_call receives the
 * object's own handle. Functions made from a C (resource, safe_call) pair go through a small
 * trampoline that hands the resource to the callee instead (the C function API). cpp_call
 * stays NULL: only reference C++ code may fill it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "builtin_args_internal.h"
#include "builtin_signatures_internal.h"
#include "error_internal.h"
#include "function_internal.h"
#include "function_object.h"
#include "object_api_internal.h"
#include "object_internal.h"
#include "str_map_internal.h"
#include "string_internal.h"
#include "type_registry_internal.h"

static void function_destroy(void* self) {
  FunctionObject* f = (FunctionObject*)self;
  if (f->resource_release != NULL) f->resource_release(f->resource);
}
FFI_DEFINE_DELETER(function_deleter, function_destroy)

static int call_with_resource(void* handle, const TVMFFIAny* args, int32_t num_args,
                              TVMFFIAny* result) {
  FunctionObject* f = (FunctionObject*)handle;
  return f->resource_call(f->resource, args, num_args, result);
}

int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call, void (*deleter)(void* self),
                         TVMFFIObjectHandle* out) {
  if (out == NULL) return ffi_raise("ValueError", "TVMFFIFunctionCreate: out is NULL");
  if (safe_call == NULL) return ffi_raise("ValueError", "TVMFFIFunctionCreate: safe_call is NULL");
  FunctionObject* f =
      (FunctionObject*)ffi_object_alloc(sizeof(FunctionObject), kTVMFFIFunction, function_deleter);
  if (f == NULL) return -1;
  f->cell.safe_call = call_with_resource;
  f->resource = self;
  f->resource_call = safe_call;
  f->resource_release = deleter;
  *out = f;
  return 0;
}

int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                       TVMFFIAny* result) {
  /* A tail call: the whole C API call is one indirect jump. (It therefore leaves no frame of its
   * own; backtraces find the FFI boundary at the frontend's frames instead.) */
  return TVMFFIFunctionGetCellPtr(func)->safe_call(func, args, num_args, result);
}

/* A built-in: safe_call receives the object itself and ignores it. */
static TVMFFIObject* builtin_new(TVMFFISafeCallType fn) {
  FunctionObject* f =
      (FunctionObject*)ffi_object_alloc(sizeof(FunctionObject), kTVMFFIFunction, function_deleter);
  if (f == NULL) return NULL;
  f->cell.safe_call = fn;
  return &f->header;
}

/* ---- the global registry: name -> (function, doc, metadata) ---- */

typedef struct {
  char* name; /* owned texts; `name` is also the map key */
  size_t name_size;
  TVMFFIObject* func;
  char* doc;
  char* metadata;
} GlobalEntry;

static struct {
  pthread_rwlock_t lock;
  FfiStrMap names; /* name -> GlobalEntry* */
} g_registry = {PTHREAD_RWLOCK_INITIALIZER, {NULL, 0, 0, 0}};

static char* dup_bytes(TVMFFIByteArray b) {
  char* out = (char*)malloc(b.size + 1);
  if (out == NULL) return NULL;
  if (b.size) memcpy(out, b.data, b.size);
  out[b.size] = '\0';
  return out;
}

static void entry_free(GlobalEntry* e) {
  if (e == NULL) return;
  free(e->name);
  free(e->doc);
  free(e->metadata);
  if (e->func != NULL) ffi_decref(e->func);
  free(e);
}

/* Registers func under name; takes a new reference to func. */
static int registry_set(TVMFFIByteArray name, TVMFFIObject* func, TVMFFIByteArray doc,
                        TVMFFIByteArray metadata, int allow_override) {
  if (name.data == NULL && name.size != 0) return ffi_raise("ValueError", "global function name is NULL");
  if (func == NULL || func->type_index != kTVMFFIFunction) {
    TVMFFIByteArray actual = ffi_type_key_of(func != NULL ? func->type_index : kTVMFFINone);
    return ffi_raise("TypeError", "Global Function `%.*s` must be an ffi.Function, got `%.*s`",
                     (int)name.size, name.data, (int)actual.size, actual.data);
  }
  GlobalEntry* fresh = (GlobalEntry*)calloc(1, sizeof(GlobalEntry));
  if (fresh != NULL) {
    fresh->name = dup_bytes(name);
    fresh->doc = dup_bytes(doc);
    fresh->metadata = dup_bytes(metadata);
    fresh->name_size = name.size;
  }
  if (fresh == NULL || fresh->name == NULL || fresh->doc == NULL || fresh->metadata == NULL) {
    entry_free(fresh);
    return ffi_raise("MemoryError", "cannot register global function");
  }
  pthread_rwlock_wrlock(&g_registry.lock);
  if (!allow_override && ffi_str_map_get(&g_registry.names, name.data, name.size) != NULL) {
    pthread_rwlock_unlock(&g_registry.lock);
    entry_free(fresh);
    return ffi_raise("RuntimeError", "Global Function `%.*s` is already registered",
                     (int)name.size, name.data);
  }
  ffi_incref(func);
  fresh->func = func;
  GlobalEntry* old = (GlobalEntry*)ffi_str_map_put(&g_registry.names, fresh->name, name.size, fresh);
  pthread_rwlock_unlock(&g_registry.lock);
  if (old == NULL) {
    entry_free(fresh);
    return -1;
  }
  if (old != fresh) entry_free(old);
  return 0;
}

int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f, int allow_override) {
  if (name == NULL) return ffi_raise("ValueError", "TVMFFIFunctionSetGlobal: name is NULL");
  TVMFFIByteArray empty = {"", 0};
  return registry_set(*name, (TVMFFIObject*)f, empty, empty, allow_override);
}

int TVMFFIFunctionSetGlobalFromMethodInfo(const TVMFFIMethodInfo* method_info, int allow_override) {
  if (method_info == NULL) {
    return ffi_raise("ValueError", "TVMFFIFunctionSetGlobalFromMethodInfo: method_info is NULL");
  }
  const TVMFFIAny* method = &method_info->method;
  if (method->type_index != kTVMFFIFunction) {
    TVMFFIByteArray actual = ffi_type_key_of(method->type_index);
    return ffi_raise("TypeError", "Global Function `%.*s`: method must be an ffi.Function, got `%.*s`",
                     (int)method_info->name.size, method_info->name.data, (int)actual.size,
                     actual.data);
  }
  return registry_set(method_info->name, method->v_obj, method_info->doc, method_info->metadata,
                      allow_override);
}

int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out) {
  if (name == NULL || out == NULL) {
    return ffi_raise("ValueError", "TVMFFIFunctionGetGlobal: name and out are required");
  }
  *out = NULL;
  pthread_rwlock_rdlock(&g_registry.lock);
  GlobalEntry* e = (GlobalEntry*)ffi_str_map_get(&g_registry.names, name->data, name->size);
  if (e != NULL) {
    ffi_incref(e->func);
    *out = e->func;
  }
  pthread_rwlock_unlock(&g_registry.lock);
  return 0;
}

void ffi_register_builtin(const char* name, TVMFFISafeCallType fn) {
  TVMFFIObject* f = builtin_new(fn);
  TVMFFIByteArray name_ba = {name, strlen(name)};
  TVMFFIByteArray empty = {"", 0};
  const FfiBuiltinSignature* sig = ffi_builtin_signature(name);
  TVMFFIByteArray meta = empty;
  if (sig != NULL) meta = (TVMFFIByteArray){sig->metadata, strlen(sig->metadata)};
  if (f == NULL || registry_set(name_ba, f, empty, meta, 0) != 0) {
    ffi_fatal("runtime start-up", "cannot register built-in global function %s", name);
  }
  ffi_decref(f);
}

/* ---- built-in globals about functions ---- */

/* A snapshot of the registered names, served by index. */
typedef struct {
  size_t count;
  char** names;
  size_t* sizes;
} NameList;

static void name_list_free(void* ptr) {
  NameList* list = (NameList*)ptr;
  for (size_t i = 0; i < list->count; ++i) free(list->names[i]);
  free(list->names);
  free(list->sizes);
  free(list);
}

static int name_list_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  NameList* list = (NameList*)self;
  int64_t i;
  if (ffi_check_num_args("ffi.FunctionListGlobalNamesFunctor.<functor>", num_args, 1) != 0 ||
      ffi_arg_int("ffi.FunctionListGlobalNamesFunctor.<functor>", args, 0, &i) != 0) {
    return -1;
  }
  if (i == -1) {
    ffi_ret_int(result, (int64_t)list->count);
    return 0;
  }
  if (i < 0 || (uint64_t)i >= list->count) {
    return ffi_raise("IndexError", "global function name index %lld out of range [0, %zu)",
                     (long long)i, list->count);
  }
  return ffi_string_make(list->names[i], list->sizes[i], 0, result);
}

static int list_global_names_functor(void* self, const TVMFFIAny* args, int32_t num_args,
                                     TVMFFIAny* result) {
  (void)self;
  (void)args;
  if (ffi_check_num_args("ffi.FunctionListGlobalNamesFunctor", num_args, 0) != 0) return -1;
  NameList* list = (NameList*)calloc(1, sizeof(NameList));
  if (list == NULL) return ffi_raise("MemoryError", "cannot list global functions");
  pthread_rwlock_rdlock(&g_registry.lock);
  size_t live = g_registry.names.count;
  list->names = (char**)calloc(live ? live : 1, sizeof(char*));
  list->sizes = (size_t*)calloc(live ? live : 1, sizeof(size_t));
  bool ok = list->names != NULL && list->sizes != NULL;
  size_t cursor = 0;
  GlobalEntry* e;
  while (ok && (e = (GlobalEntry*)ffi_str_map_next(&g_registry.names, &cursor)) != NULL) {
    TVMFFIByteArray name = {e->name, e->name_size};
    list->names[list->count] = dup_bytes(name);
    list->sizes[list->count] = e->name_size;
    ok = list->names[list->count] != NULL;
    if (ok) list->count++;
  }
  pthread_rwlock_unlock(&g_registry.lock);
  TVMFFIObjectHandle functor = NULL;
  if (!ok) {
    name_list_free(list);
    return ffi_raise("MemoryError", "cannot list global functions");
  }
  if (TVMFFIFunctionCreate(list, name_list_call, name_list_free, &functor) != 0) {
    name_list_free(list);
    return -1;
  }
  ffi_ret_object(result, (TVMFFIObject*)functor);
  return 0;
}

static int remove_global(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  TVMFFIByteArray name;
  if (ffi_check_num_args("ffi.FunctionRemoveGlobal", num_args, 1) != 0 ||
      ffi_arg_str("ffi.FunctionRemoveGlobal", args, 0, &name) != 0) {
    return -1;
  }
  pthread_rwlock_wrlock(&g_registry.lock);
  GlobalEntry* removed = (GlobalEntry*)ffi_str_map_remove(&g_registry.names, name.data, name.size);
  pthread_rwlock_unlock(&g_registry.lock);
  entry_free(removed);
  ffi_ret_bool(result, removed != NULL);
  return 0;
}

static int get_global_metadata(void* self, const TVMFFIAny* args, int32_t num_args,
                               TVMFFIAny* result) {
  (void)self;
  TVMFFIByteArray name;
  if (ffi_check_num_args("ffi.GetGlobalFuncMetadata", num_args, 1) != 0 ||
      ffi_arg_str("ffi.GetGlobalFuncMetadata", args, 0, &name) != 0) {
    return -1;
  }
  pthread_rwlock_rdlock(&g_registry.lock);
  GlobalEntry* e = (GlobalEntry*)ffi_str_map_get(&g_registry.names, name.data, name.size);
  int rc;
  if (e == NULL) {
    rc = ffi_raise("RuntimeError", "Global Function is not found: %.*s", (int)name.size, name.data);
  } else {
    /* Entries registered without metadata report an empty JSON object. */
    const char* text = e->metadata[0] != '\0' ? e->metadata : "{}";
    rc = ffi_string_make(text, strlen(text), 0, result);
  }
  pthread_rwlock_unlock(&g_registry.lock);
  return rc;
}

static int function_from_extern_c(void* self, const TVMFFIAny* args, int32_t num_args,
                                  TVMFFIAny* result) {
  (void)self;
  static const char* kName = "ffi.FunctionFromExternC";
  void *resource, *safe_call, *deleter;
  if (ffi_check_num_args(kName, num_args, 3) != 0 || ffi_arg_ptr(kName, args, 0, &resource) != 0 ||
      ffi_arg_ptr(kName, args, 1, &safe_call) != 0 || ffi_arg_ptr(kName, args, 2, &deleter) != 0) {
    return -1;
  }
  if (safe_call == NULL) return ffi_raise("ValueError", "%s: safe_call (argument #1) is NULL", kName);
  TVMFFIObjectHandle f = NULL;
  /* Function pointers travel as void*; POSIX guarantees the round trip. */
  TVMFFISafeCallType call;
  void (*release)(void*);
  memcpy(&call, &safe_call, sizeof(call));
  memcpy(&release, &deleter, sizeof(release));
  if (TVMFFIFunctionCreate(resource, call, release, &f) != 0) return -1;
  ffi_ret_object(result, (TVMFFIObject*)f);
  return 0;
}

void ffi_register_function_globals(void) {
  ffi_register_builtin("ffi.FunctionListGlobalNamesFunctor", list_global_names_functor);
  ffi_register_builtin("ffi.FunctionRemoveGlobal", remove_global);
  ffi_register_builtin("ffi.GetGlobalFuncMetadata", get_global_metadata);
  ffi_register_builtin("ffi.FunctionFromExternC", function_from_extern_c);
}
