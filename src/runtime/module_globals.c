/*
 * module_globals.c -- the ffi.Module* global functions frontends call (load, system library,
 * function lookup, metadata and docs, imports, keep-alive set) and the reflected `imports_`
 * field.
 */
#include <stdlib.h>

#include "module_internal.h"

enum { kPropertyBinarySerializable = 1, kPropertyRunnable = 2 };

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
 * global functions
 * ------------------------------------------------------------------------------------------ */

static int global_load_from_file(void* self, const TVMFFIAny* args, int32_t num_args,
                                 TVMFFIAny* result) {
  (void)self;
  static const char* kName = "ffi.ModuleLoadFromFile";
  TVMFFIByteArray path_view;
  if (ffi_check_num_args(kName, num_args, 1) != 0 || ffi_arg_str(kName, args, 0, &path_view) != 0) {
    return -1;
  }
  char* path = ffi_cstr_from_bytes(kName, "the path", path_view);
  if (path == NULL) return -1;
  int rc = ffi_module_load_from_file(path, result);
  free(path);
  return rc;
}

static int global_load_so(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  static const char* kName = FFI_LOADER_FROM_FILE "so";
  TVMFFIByteArray path_view, fmt;
  if (ffi_check_num_args_range(kName, num_args, 1, 2) != 0 ||
      ffi_arg_str(kName, args, 0, &path_view) != 0 ||
      (num_args > 1 && ffi_arg_str(kName, args, 1, &fmt) != 0)) {
    return -1;
  }
  char* path = ffi_cstr_from_bytes(kName, "the path", path_view);
  if (path == NULL) return -1;
  TVMFFIObject* m;
  int rc = ffi_load_shared_library(path, &m);
  free(path);
  if (rc != 0) return -1;
  ffi_ret_object(result, m);
  return 0;
}

static int global_system_lib(void* self, const TVMFFIAny* args, int32_t num_args,
                             TVMFFIAny* result) {
  (void)self;
  static const char* kName = "ffi.SystemLib";
  TVMFFIByteArray prefix_view = {"", 0};
  if (ffi_check_num_args_range(kName, num_args, 0, 1) != 0 ||
      (num_args == 1 && ffi_arg_str(kName, args, 0, &prefix_view) != 0)) {
    return -1;
  }
  char* prefix = ffi_cstr_from_bytes(kName, "the symbol prefix", prefix_view);
  if (prefix == NULL) return -1;
  TVMFFIObject* m;
  int rc = ffi_system_lib_get(prefix, &m);
  free(prefix);
  if (rc != 0) return -1;
  ffi_ret_object(result, m);
  return 0;
}

/* Every global below takes a module of either kind: one this runtime made, or a ModuleObj
 * subclass a loaded library defined in C++ (TVM's compiled modules, say), which the C++ shim
 * drives through its own virtual functions (ffi_module_cxx_call). */

/* Shared argument parsing of the (mod, name[, query_imports]) queries. */
static int query_args(const char* fname, const TVMFFIAny* args, int32_t num_args,
                      TVMFFIObject** m, char** name, bool* query_imports) {
  TVMFFIByteArray name_view;
  *query_imports = false;
  if (ffi_check_num_args_range(fname, num_args, 2, 3) != 0 || ffi_module_arg(fname, args, 0, m) != 0 ||
      ffi_arg_str(fname, args, 1, &name_view) != 0 ||
      (num_args > 2 && ffi_arg_bool(fname, args, 2, query_imports) != 0)) {
    return -1;
  }
  *name = ffi_cstr_from_bytes(fname, "the function name", name_view);
  return *name != NULL ? 0 : -1;
}

static int global_get_function(void* self, const TVMFFIAny* args, int32_t num_args,
                               TVMFFIAny* result) {
  (void)self;
  TVMFFIObject* m;
  char* name;
  bool query_imports;
  if (query_args("ffi.ModuleGetFunction", args, num_args, &m, &name, &query_imports) != 0) {
    return -1;
  }
  TVMFFIObject* f = NULL;
  int rc = ffi_module_get_function(m, name, query_imports, &f);
  free(name);
  if (rc != 0) return -1;
  *result = ffi_any_from_object(f); /* None when absent */
  return 0;
}

static int global_implements_function(void* self, const TVMFFIAny* args, int32_t num_args,
                                      TVMFFIAny* result) {
  (void)self;
  TVMFFIObject* m;
  char* name;
  bool query_imports, found;
  if (query_args("ffi.ModuleImplementsFunction", args, num_args, &m, &name, &query_imports) != 0) {
    return -1;
  }
  int rc = ffi_module_implements(m, name, query_imports, &found);
  free(name);
  if (rc != 0) return -1;
  ffi_ret_bool(result, found);
  return 0;
}

static int get_text(const char* fname, FfiModuleText which, const TVMFFIAny* args,
                    int32_t num_args, TVMFFIAny* result) {
  TVMFFIObject* m;
  char* name;
  bool query_imports;
  if (query_args(fname, args, num_args, &m, &name, &query_imports) != 0) return -1;
  int rc = ffi_module_get_text(m, which, name, query_imports, result);
  free(name);
  return rc;
}

static int global_get_function_metadata(void* self, const TVMFFIAny* args, int32_t num_args,
                                        TVMFFIAny* result) {
  (void)self;
  return get_text("ffi.ModuleGetFunctionMetadata", kFfiModuleTextMetadata, args, num_args,
                  result);
}

static int global_get_function_doc(void* self, const TVMFFIAny* args, int32_t num_args,
                                   TVMFFIAny* result) {
  (void)self;
  return get_text("ffi.ModuleGetFunctionDoc", kFfiModuleTextDoc, args, num_args, result);
}

/* The module argument of a one-argument global; *ours is it in this runtime's layout, NULL for
 * a C++ module. */
static int single_module_arg(const char* fname, const TVMFFIAny* args, int32_t num_args,
                             TVMFFIObject** m, FfiModule** ours) {
  if (ffi_check_num_args(fname, num_args, 1) != 0 || ffi_module_arg(fname, args, 0, m) != 0) {
    return -1;
  }
  *ours = ffi_module_runtime_made(*m);
  return 0;
}

static int global_get_kind(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  TVMFFIObject* m;
  FfiModule* ours;
  if (single_module_arg("ffi.ModuleGetKind", args, num_args, &m, &ours) != 0) return -1;
  if (ours == NULL) {
    FfiCxxModuleArgs in = {0};
    return ffi_module_cxx_call(m, kFfiCxxModuleKind, &in, result);
  }
  return ffi_string_make(ours->kind, strlen(ours->kind), 0, result);
}

static int global_get_property_mask(void* self, const TVMFFIAny* args, int32_t num_args,
                                    TVMFFIAny* result) {
  (void)self;
  TVMFFIObject* m;
  FfiModule* ours;
  if (single_module_arg("ffi.ModuleGetPropertyMask", args, num_args, &m, &ours) != 0) return -1;
  if (ours == NULL) {
    FfiCxxModuleArgs in = {0};
    return ffi_module_cxx_call(m, kFfiCxxModulePropertyMask, &in, result);
  }
  ffi_ret_int(result, kPropertyBinarySerializable | kPropertyRunnable);
  return 0;
}

/* Library modules have no source and no write formats: an empty list and an empty text. */
static int global_get_write_formats(void* self, const TVMFFIAny* args, int32_t num_args,
                                    TVMFFIAny* result) {
  (void)self;
  TVMFFIObject* m;
  FfiModule* ours;
  if (single_module_arg("ffi.ModuleGetWriteFormats", args, num_args, &m, &ours) != 0) return -1;
  if (ours == NULL) {
    FfiCxxModuleArgs in = {0};
    return ffi_module_cxx_call(m, kFfiCxxModuleWriteFormats, &in, result);
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
  TVMFFIObject* m;
  TVMFFIByteArray fmt = {"", 0};
  if (ffi_check_num_args_range(kName, num_args, 1, 2) != 0 || ffi_module_arg(kName, args, 0, &m) != 0 ||
      (num_args > 1 && ffi_arg_str(kName, args, 1, &fmt) != 0)) {
    return -1;
  }
  if (ffi_module_runtime_made(m) != NULL) return ffi_string_make("", 0, 0, result);
  char* format = ffi_cstr_from_bytes(kName, "the format", fmt);
  if (format == NULL) return -1;
  FfiCxxModuleArgs in = {.text = format};
  int rc = ffi_module_cxx_call(m, kFfiCxxModuleInspectSource, &in, result);
  free(format);
  return rc;
}

static int global_write_to_file(void* self, const TVMFFIAny* args, int32_t num_args,
                                TVMFFIAny* result) {
  (void)self;
  static const char* kName = "ffi.ModuleWriteToFile";
  TVMFFIObject* m;
  TVMFFIByteArray file, fmt = {"", 0};
  if (ffi_check_num_args_range(kName, num_args, 2, 3) != 0 || ffi_module_arg(kName, args, 0, &m) != 0 ||
      ffi_arg_str(kName, args, 1, &file) != 0 ||
      (num_args > 2 && ffi_arg_str(kName, args, 2, &fmt) != 0)) {
    return -1;
  }
  FfiModule* ours = ffi_module_runtime_made(m);
  if (ours != NULL) {
    return ffi_raise("RuntimeError", "Module[%s] does not support WriteToFile", ours->kind);
  }
  char* file_name = ffi_cstr_from_bytes(kName, "the file name", file);
  char* format = file_name != NULL ? ffi_cstr_from_bytes(kName, "the format", fmt) : NULL;
  int rc = -1;
  if (format != NULL) {
    FfiCxxModuleArgs in = {.text = file_name, .format = format};
    rc = ffi_module_cxx_call(m, kFfiCxxModuleWriteToFile, &in, result);
  }
  free(file_name);
  free(format);
  return rc;
}

static int global_import_module(void* self, const TVMFFIAny* args, int32_t num_args,
                                TVMFFIAny* result) {
  (void)self;
  (void)result;
  static const char* kName = "ffi.ModuleImportModule";
  TVMFFIObject *m, *other;
  if (ffi_check_num_args(kName, num_args, 2) != 0 || ffi_module_arg(kName, args, 0, &m) != 0 ||
      ffi_module_arg(kName, args, 1, &other) != 0) {
    return -1;
  }
  return ffi_module_import(m, other);
}

static int global_clear_imports(void* self, const TVMFFIAny* args, int32_t num_args,
                                TVMFFIAny* result) {
  (void)self;
  (void)result;
  TVMFFIObject* m;
  FfiModule* ours;
  if (single_module_arg("ffi.ModuleClearImports", args, num_args, &m, &ours) != 0) return -1;
  return ffi_module_clear_imports(m);
}

static int global_globals_add(void* self, const TVMFFIAny* args, int32_t num_args,
                              TVMFFIAny* result) {
  (void)self;
  (void)result;
  TVMFFIObject* m;
  FfiModule* ours;
  if (single_module_arg("ffi.ModuleGlobalsAdd", args, num_args, &m, &ours) != 0) return -1;
  return kept_modules_add(m);
}

static int global_globals_remove(void* self, const TVMFFIAny* args, int32_t num_args,
                                 TVMFFIAny* result) {
  (void)self;
  (void)result;
  TVMFFIObject* m;
  FfiModule* ours;
  if (single_module_arg("ffi.ModuleGlobalsRemove", args, num_args, &m, &ours) != 0) return -1;
  kept_modules_remove(m);
  return 0;
}

/* Getter of the reflected field `imports_`: a consistent snapshot of the import list (a C++
 * module keeps its `imports_` at the same offset). */
static int imports_field_getter(void* field_addr, TVMFFIAny* result) {
  TVMFFIObject* m = (TVMFFIObject*)((char*)field_addr - FFI_MODULE_IMPORTS_OFFSET);
  TVMFFIObject* imports = ffi_module_imports_snapshot(m);
  if (imports == NULL) return -1;
  *result = ffi_any_from_object(imports);
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
  info.metadata.data = "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Array\\\",\\\"args\\\":[{\\\"type\\\":\\\"Any\\\"}]}\"}";
  info.metadata.size = strlen(info.metadata.data);
  info.size = sizeof(TVMFFIObject*);
  info.alignment = _Alignof(TVMFFIObject*);
  info.offset = FFI_MODULE_IMPORTS_OFFSET;
  info.getter = imports_field_getter;
  info.default_value_or_factory = ffi_any_none();
  info.field_static_type_index = kTVMFFIArray;
  if (TVMFFITypeRegisterField(kTVMFFIModule, &info) != 0) {
    ffi_fatal("runtime start-up", "cannot reflect the imports_ field of ffi.Module");
  }
  /* The size of a module as C++ sees it (the reference's ModuleObj: vtable pointer, header,
   * imports_, lookup cache), so layout tools can tell its bytes are not all reflected. */
  TVMFFITypeMetadata md;
  memset(&md, 0, sizeof(md));
  md.total_size = 48;
  if (TVMFFITypeRegisterMetadata(kTVMFFIModule, &md) != 0) {
    ffi_fatal("runtime start-up", "cannot register the metadata of ffi.Module");
  }
}

void ffi_register_module_globals(void) {
  register_imports_field();
  ffi_register_builtin("ffi.ModuleLoadFromFile", global_load_from_file);
  ffi_register_builtin(FFI_LOADER_FROM_FILE "so", global_load_so);
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
