/* Modules: loading shared libraries, their functions, context symbols, the embedded library
 * binary, the system library, imports and the module global functions.
 * argv[1] is the directory holding the plugin libraries built from tests/c/plugins/. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"

static const char* g_plugin_dir = ".";

/* What the loader writes into a library's __tvm_ffi__library_ctx for module handle `mod`: the
 * address of the vtable slot before the header, as the reference's ModuleObj* is. */
static void* library_ctx_of(void* mod) { return (char*)mod - sizeof(void*); }

/* ---- small helpers ---- */

/* Calls a global function; *result is owned by the caller on success. */

static TVMFFIByteArray string_of(const TVMFFIAny* v) {
  TVMFFIByteArray b = {"", 0};
  if (v->type_index == kTVMFFISmallStr) {
    b.data = v->v_bytes;
    b.size = v->small_str_len;
  } else if (v->type_index == kTVMFFIStr) {
    b = *TVMFFIBytesGetByteArrayPtr(v->v_obj);
  }
  return b;
}

static const char* plugin(const char* name) {
  static char paths[8][1024];
  static int next = 0;
  char* out = paths[next++ % 8];
  snprintf(out, sizeof(paths[0]), "%s/%s", g_plugin_dir, name);
  return out;
}

/* Owned module handle for a plugin, NULL (with a failed CHECK) on error. */
static void* load(const char* name) {
  TVMFFIAny arg = any_str(plugin(name)), mod;
  int rc = call_global("ffi.ModuleLoadFromFile", &arg, 1, &mod);
  CHECK_EQ_INT(rc, 0);
  if (rc != 0) {
    check_no_error_pending();
    return NULL;
  }
  CHECK_EQ_INT(mod.type_index, kTVMFFIModule);
  return mod.v_obj;
}

/* Owned function or NULL (None). */
static void* get_function(void* mod, const char* name, int query_imports) {
  TVMFFIAny args[3] = {any_obj(mod), any_str(name), any_bool(query_imports)}, f;
  CHECK_EQ_INT(call_global("ffi.ModuleGetFunction", args, 3, &f), 0);
  if (f.type_index == kTVMFFINone) return NULL;
  CHECK_EQ_INT(f.type_index, kTVMFFIFunction);
  return f.v_obj;
}

static int64_t call_int(void* f, TVMFFIAny* args, int32_t n) {
  TVMFFIAny result = {0};
  int rc = TVMFFIFunctionCall(f, args, n, &result);
  CHECK_EQ_INT(rc, 0);
  if (rc != 0) {
    check_no_error_pending();
    return -1;
  }
  CHECK_EQ_INT(result.type_index, kTVMFFIInt);
  return result.v_int64;
}

static void* call_ptr(void* f) {
  TVMFFIAny result = {0};
  CHECK_EQ_INT(TVMFFIFunctionCall(f, NULL, 0, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFIOpaquePtr);
  return result.v_ptr;
}

/* Whether the plugin is still mapped into the process. */
static int is_loaded(const char* name) {
  void* h = dlopen(plugin(name), RTLD_LAZY | RTLD_NOLOAD);
  if (h != NULL) dlclose(h);
  return h != NULL;
}

/* Safe-call functions the test registers as system-library symbols and globals. */
static int add_k(void* handle, const TVMFFIAny* args, int32_t n, TVMFFIAny* result, int64_t k) {
  (void)handle;
  if (n != 1 || args[0].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "expects one int");
    return -1;
  }
  *result = any_int(args[0].v_int64 + k);
  return 0;
}
static int add_1000(void* h, const TVMFFIAny* a, int32_t n, TVMFFIAny* r) { return add_k(h, a, n, r, 1000); }
static int add_2000(void* h, const TVMFFIAny* a, int32_t n, TVMFFIAny* r) { return add_k(h, a, n, r, 2000); }
static int twice(void* h, const TVMFFIAny* a, int32_t n, TVMFFIAny* r) {
  (void)h;
  if (n != 1) return -1;
  *r = any_int(a[0].v_int64 * 2);
  return 0;
}
static int triple(void* h, const TVMFFIAny* a, int32_t n, TVMFFIAny* r) {
  (void)h;
  if (n != 1) return -1;
  *r = any_int(a[0].v_int64 * 3);
  return 0;
}
static int seven(void* h, const TVMFFIAny* a, int32_t n, TVMFFIAny* r) {
  (void)h, (void)a, (void)n;
  *r = any_int(7);
  return 0;
}

static void* fn_address(TVMFFISafeCallType fn) {
  void* p;
  memcpy(&p, &fn, sizeof(p));
  return p;
}

static void register_global(const char* name, TVMFFISafeCallType fn) {
  void* f = NULL;
  TVMFFIByteArray key = check_ba(name);
  CHECK_EQ_INT(TVMFFIFunctionCreate(NULL, fn, NULL, &f), 0);
  CHECK_EQ_INT(TVMFFIFunctionSetGlobal(&key, f, 1), 0);
  TVMFFIObjectDecRef(f);
}

static void remove_global(const char* name) {
  TVMFFIAny arg = any_str(name), result;
  CHECK_EQ_INT(call_global("ffi.FunctionRemoveGlobal", &arg, 1, &result), 0);
  CHECK_EQ_INT(result.v_int64, 1);
}

static void* system_lib(const char* prefix) {
  TVMFFIAny arg = any_str(prefix), mod;
  CHECK_EQ_INT(call_global("ffi.SystemLib", &arg, prefix != NULL ? 1 : 0, &mod), 0);
  CHECK_EQ_INT(mod.type_index, kTVMFFIModule);
  return mod.v_obj;
}

static void import_module(void* mod, void* other, int expect_rc) {
  TVMFFIAny args[2] = {any_obj(mod), any_obj(other)}, result;
  CHECK_EQ_INT(call_global("ffi.ModuleImportModule", args, 2, &result), expect_rc);
}

/* ---- tests ---- */

static void test_load_library_and_call_its_function(void) {
  void* mod = load("kernel_lib.so");
  if (mod == NULL) return;
  CHECK_EQ_INT(check_strong_count(mod), 1);

  TVMFFIAny arg = any_obj(mod), result;
  CHECK_EQ_INT(call_global("ffi.ModuleGetKind", &arg, 1, &result), 0);
  CHECK_BYTES_EQ(string_of(&result), "library");
  release(&result);
  CHECK_EQ_INT(call_global("ffi.ModuleGetPropertyMask", &arg, 1, &result), 0);
  CHECK_EQ_INT(result.v_int64, 3); /* binary serializable | runnable */

  void* add_one = get_function(mod, "add_one", 0);
  CHECK(add_one != NULL);
  CHECK_EQ_INT(check_strong_count(mod), 2); /* the function holds the module */
  TVMFFIAny x = any_int(41);
  CHECK_EQ_INT(call_int(add_one, &x, 1), 42);
  /* Errors raised by the kernel come back unchanged. */
  result = any_int(0);
  CHECK_EQ_INT(TVMFFIFunctionCall(add_one, NULL, 0, &result), -1);
  CHECK_RAISED("TypeError", "add_one expects one int");

  /* A missing symbol is None, not an error. */
  CHECK(get_function(mod, "no_such_function", 1) == NULL);
  CHECK(check_no_error_pending());

  TVMFFIAny q[3] = {any_obj(mod), any_str("add_one"), any_bool(0)};
  CHECK_EQ_INT(call_global("ffi.ModuleImplementsFunction", q, 3, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFIBool);
  CHECK_EQ_INT(result.v_int64, 1);
  q[1] = any_str("no_such_function");
  CHECK_EQ_INT(call_global("ffi.ModuleImplementsFunction", q, 3, &result), 0);
  CHECK_EQ_INT(result.v_int64, 0);
  /* query_imports may be left out. */
  CHECK_EQ_INT(call_global("ffi.ModuleImplementsFunction", q, 2, &result), 0);
  CHECK_EQ_INT(result.v_int64, 0);

  TVMFFIObjectDecRef(add_one);
  CHECK_EQ_INT(check_strong_count(mod), 1);
  TVMFFIObjectDecRef(mod);
}

static void test_function_keeps_module_and_library_alive(void) {
  TVMFFIAny args[2] = {any_str(plugin("kernel_lib.so")), any_str("so")}, mod;
  /* The format loader can be called directly too. */
  CHECK_EQ_INT(call_global("ffi.Module.load_from_file.so", args, 2, &mod), 0);
  CHECK_EQ_INT(mod.type_index, kTVMFFIModule);
  void* add_one = get_function(mod.v_obj, "add_one", 0);
  CHECK(is_loaded("kernel_lib.so"));
  TVMFFIObjectDecRef(mod.v_obj); /* only the function holds the module now */
  TVMFFIAny x = any_int(1);
  CHECK_EQ_INT(call_int(add_one, &x, 1), 2);
  CHECK(is_loaded("kernel_lib.so"));
  TVMFFIObjectDecRef(add_one); /* last reference: module dies, library is closed */
  CHECK(!is_loaded("kernel_lib.so"));
}

static void test_context_symbols_and_library_ctx_are_written(void) {
  static int marker;
  CHECK_EQ_INT(TVMFFIEnvModRegisterContextSymbol("test_module_context_symbol", &marker), 0);
  /* Names the library does not export are skipped. */
  CHECK_EQ_INT(TVMFFIEnvModRegisterContextSymbol("test_module_symbol_nobody_has", &marker), 0);
  CHECK_EQ_INT(TVMFFIEnvModRegisterContextSymbol(NULL, &marker), -1);
  CHECK_RAISED("ValueError", "name");

  void* mod = load("kernel_lib.so");
  if (mod == NULL) return;
  void* get_ctx = get_function(mod, "get_context_symbol", 0);
  void* get_library_ctx = get_function(mod, "get_library_ctx", 0);
  CHECK(call_ptr(get_ctx) == &marker);
  CHECK(call_ptr(get_library_ctx) == library_ctx_of(mod)); /* the module, as C++ sees it */
  TVMFFIObjectDecRef(get_ctx);
  TVMFFIObjectDecRef(get_library_ctx);
  TVMFFIObjectDecRef(mod);
}

static void test_lookup_from_imports_inside_a_kernel(void) {
  CHECK_EQ_INT(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_imp_twice", fn_address(twice)), 0);
  register_global("testmodule.triple", triple);
  void* mod = load("kernel_lib.so");
  if (mod == NULL) return;
  void* lib = system_lib("imp_");
  import_module(mod, lib, 0);

  void* call_imported = get_function(mod, "call_imported", 0);
  TVMFFIAny args[2] = {any_str("twice"), any_int(21)};
  CHECK_EQ_INT(call_int(call_imported, args, 2), 42); /* found in the imported system lib */
  args[0] = any_str("testmodule.triple");
  args[1] = any_int(5);
  CHECK_EQ_INT(call_int(call_imported, args, 2), 15); /* falls back to the global registry */
  args[0] = any_str("nope");
  TVMFFIAny result = {0};
  CHECK_EQ_INT(TVMFFIFunctionCall(call_imported, args, 2, &result), -1);
  CHECK_RAISED("RuntimeError", "Cannot find function nope in the imported modules or global registry.");

  /* Borrowed results, cached per module: the same handle every time, no reference taken. The
   * context is what the loader writes into __tvm_ffi__library_ctx: the module as the reference's
   * C++ code sees it (ModuleObj*, its vtable slot before the header). */
  void *f1 = NULL, *f2 = NULL;
  void* ctx = library_ctx_of(mod);
  CHECK_EQ_INT(TVMFFIEnvModLookupFromImports(ctx, "twice", &f1), 0);
  uint32_t count = check_strong_count(f1);
  CHECK_EQ_INT(TVMFFIEnvModLookupFromImports(ctx, "twice", &f2), 0);
  CHECK(f1 == f2);
  CHECK_EQ_INT(check_strong_count(f1), count);

  /* ModuleGetFunction only looks into imports when asked. */
  CHECK(get_function(mod, "twice", 0) == NULL);
  void* via_imports = get_function(mod, "twice", 1);
  CHECK(via_imports != NULL);
  TVMFFIAny x = any_int(4);
  CHECK_EQ_INT(call_int(via_imports, &x, 1), 8);
  TVMFFIObjectDecRef(via_imports);

  CHECK_EQ_INT(TVMFFIEnvModLookupFromImports(NULL, "twice", &f1), -1);
  CHECK_RAISED("ValueError", "library_ctx");
  CHECK_EQ_INT(TVMFFIEnvModLookupFromImports(library_ctx_of(call_imported), "twice", &f1), -1);
  CHECK_RAISED("TypeError", "not a module");

  TVMFFIObjectDecRef(call_imported);
  TVMFFIObjectDecRef(lib);
  TVMFFIObjectDecRef(mod);
  remove_global("testmodule.triple");
}

typedef struct {
  void* mod;
  void* found;
  int rc;
} LookupJob;

static void* lookup_thread(void* arg) {
  LookupJob* job = (LookupJob*)arg;
  for (int i = 0; i < 200 && job->rc == 0; ++i) {
    job->rc = TVMFFIEnvModLookupFromImports(library_ctx_of(job->mod), "twice_mt", &job->found);
  }
  return NULL;
}

static void test_lookup_from_imports_is_thread_safe(void) {
  CHECK_EQ_INT(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_mt_twice_mt", fn_address(twice)), 0);
  void* mod = load("kernel_lib.so");
  if (mod == NULL) return;
  void* lib = system_lib("mt_");
  import_module(mod, lib, 0);
  enum { kThreads = 8 };
  pthread_t threads[kThreads];
  LookupJob jobs[kThreads];
  for (int i = 0; i < kThreads; ++i) {
    jobs[i] = (LookupJob){mod, NULL, 0};
    pthread_create(&threads[i], NULL, lookup_thread, &jobs[i]);
  }
  for (int i = 0; i < kThreads; ++i) pthread_join(threads[i], NULL);
  for (int i = 0; i < kThreads; ++i) {
    CHECK_EQ_INT(jobs[i].rc, 0);
    CHECK(jobs[i].found == jobs[0].found); /* every thread sees the one cached function */
  }
  TVMFFIObjectDecRef(lib);
  TVMFFIObjectDecRef(mod);
}

static void test_function_metadata_and_doc(void) {
  void* mod = load("kernel_lib.so");
  if (mod == NULL) return;
  TVMFFIAny q[3] = {any_obj(mod), any_str("add_one"), any_bool(0)}, result;
  CHECK_EQ_INT(call_global("ffi.ModuleGetFunctionMetadata", q, 3, &result), 0);
  CHECK_CONTAINS(string_of(&result), "type_schema");
  release(&result);
  CHECK_EQ_INT(call_global("ffi.ModuleGetFunctionDoc", q, 3, &result), 0);
  CHECK_BYTES_EQ(string_of(&result), "Adds one to an integer.");
  release(&result);
  q[1] = any_str("call_imported"); /* exported without metadata or doc */
  CHECK_EQ_INT(call_global("ffi.ModuleGetFunctionMetadata", q, 3, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFINone);
  CHECK_EQ_INT(call_global("ffi.ModuleGetFunctionDoc", q, 3, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFINone);
  q[1] = any_str("get_library_ctx"); /* its doc getter returns an int */
  CHECK_EQ_INT(call_global("ffi.ModuleGetFunctionDoc", q, 3, &result), -1);
  CHECK_RAISED("TypeError", "__tvm_ffi__doc_get_library_ctx");

  /* Through an importer, only with query_imports. */
  void* empty = system_lib("meta_nothing_");
  import_module(empty, mod, 0);
  TVMFFIAny q2[3] = {any_obj(empty), any_str("add_one"), any_bool(0)};
  CHECK_EQ_INT(call_global("ffi.ModuleGetFunctionDoc", q2, 3, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFINone);
  q2[2] = any_bool(1);
  CHECK_EQ_INT(call_global("ffi.ModuleGetFunctionDoc", q2, 3, &result), 0);
  CHECK_BYTES_EQ(string_of(&result), "Adds one to an integer.");
  release(&result);
  TVMFFIAny clear = any_obj(empty);
  CHECK_EQ_INT(call_global("ffi.ModuleClearImports", &clear, 1, &result), 0);
  TVMFFIObjectDecRef(empty);
  TVMFFIObjectDecRef(mod);
}

static void test_load_errors_name_the_path(void) {
  TVMFFIAny arg, result;
  const char* missing = plugin("does_not_exist.so");
  arg = any_str(missing);
  CHECK_EQ_INT(call_global("ffi.ModuleLoadFromFile", &arg, 1, &result), -1);
  {
    void* err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    CHECK(err != NULL);
    if (err != NULL) {
      TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
      CHECK_BYTES_EQ(cell->kind, "RuntimeError");
      CHECK_CONTAINS(cell->message, "Failed to load dynamic shared library");
      CHECK_CONTAINS(cell->message, missing);
      TVMFFIObjectDecRef(err);
    }
  }

  /* A file that is not a shared library. */
  const char* bogus = plugin("not_a_library.so");
  FILE* fp = fopen(bogus, "w");
  CHECK(fp != NULL);
  if (fp != NULL) {
    fputs("this is not an ELF file\n", fp);
    fclose(fp);
  }
  arg = any_str(bogus);
  CHECK_EQ_INT(call_global("ffi.ModuleLoadFromFile", &arg, 1, &result), -1);
  CHECK_RAISED("RuntimeError", bogus);
  remove(bogus);

  arg = any_str("/tmp/some.dir/library_without_extension");
  CHECK_EQ_INT(call_global("ffi.ModuleLoadFromFile", &arg, 1, &result), -1);
  CHECK_RAISED("RuntimeError", "Failed to get file format from /tmp/some.dir/library_without_extension");

  arg = any_str("/tmp/kernel.unknownfmt");
  CHECK_EQ_INT(call_global("ffi.ModuleLoadFromFile", &arg, 1, &result), -1);
  CHECK_RAISED("RuntimeError", "ffi.Module.load_from_file.unknownfmt");

  /* dll / dylib / dso are served by the `so` loader. */
  arg = any_str("/nonexistent/kernel.dylib");
  CHECK_EQ_INT(call_global("ffi.ModuleLoadFromFile", &arg, 1, &result), -1);
  CHECK_RAISED("RuntimeError", "Failed to load dynamic shared library /nonexistent/kernel.dylib");

  arg = any_int(3);
  CHECK_EQ_INT(call_global("ffi.ModuleLoadFromFile", &arg, 1, &result), -1);
  CHECK_RAISED("TypeError", "ffi.ModuleLoadFromFile");
  CHECK_EQ_INT(call_global("ffi.ModuleLoadFromFile", NULL, 0, &result), -1);
  CHECK_RAISED("TypeError", "Mismatched number of arguments");
  arg = any_str("");
  CHECK_EQ_INT(call_global("ffi.Module.load_from_file.so", &arg, 1, &result), -1);
  CHECK_RAISED("ValueError", "empty");
}

/* ffi.Module.load_from_bytes.testblob: checks the blob and answers with a system library. */
static int g_blob_loads = 0;
static int load_testblob(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)h;
  g_blob_loads++;
  if (n != 1 || args[0].type_index != kTVMFFISmallBytes || args[0].small_str_len != 5 ||
      memcmp(args[0].v_bytes, "hello", 5) != 0) {
    TVMFFIErrorSetRaisedFromCStr("ValueError", "testblob loader expects b\"hello\"");
    return -1;
  }
  TVMFFIAny prefix = any_str("blob_");
  return call_global("ffi.SystemLib", &prefix, 1, result);
}

static void test_library_bin_builds_the_import_tree(void) {
  register_global("ffi.Module.load_from_bytes.testblob", load_testblob);
  CHECK_EQ_INT(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_blob_from_blob", fn_address(seven)), 0);
  g_blob_loads = 0;
  void* root = load("bin_lib.so");
  if (root == NULL) return;
  CHECK_EQ_INT(g_blob_loads, 1);
  /* Node 0 is the library itself... */
  void* own = get_function(root, "own_fn", 0);
  CHECK(own != NULL);
  if (own != NULL) CHECK_EQ_INT(call_int(own, NULL, 0), 100);
  /* ...and it imports node 1, the module the bytes loader produced. */
  CHECK(get_function(root, "from_blob", 0) == NULL);
  void* from_blob = get_function(root, "from_blob", 1);
  CHECK(from_blob != NULL);
  if (from_blob != NULL) CHECK_EQ_INT(call_int(from_blob, NULL, 0), 7);
  /* The kernel reaches it through its library context. */
  void* call_imported = get_function(root, "call_imported", 0);
  TVMFFIAny name = any_str("from_blob");
  CHECK_EQ_INT(call_int(call_imported, &name, 1), 7);
  TVMFFIObjectDecRef(call_imported);
  TVMFFIObjectDecRef(from_blob);
  TVMFFIObjectDecRef(own);
  TVMFFIObjectDecRef(root);
  CHECK(!is_loaded("bin_lib.so"));
}

static void expect_bin_error(const char* name, const char* kind, const char* needle) {
  TVMFFIAny arg = any_str(plugin(name)), result;
  CHECK_EQ_INT(call_global("ffi.ModuleLoadFromFile", &arg, 1, &result), -1);
  CHECK_RAISED(kind, needle);
  CHECK(!is_loaded(name)); /* nothing of a failed load stays behind */
}

static void test_library_bin_errors_are_clean(void) {
  expect_bin_error("bin_truncated_lib.so", "RuntimeError", "import tree indptr");
  expect_bin_error("bin_truncated_kind_lib.so", "RuntimeError", "module kind");
  expect_bin_error("bin_oversize_lib.so", "RuntimeError", "declares 4000 payload bytes");
  expect_bin_error("bin_bad_child_lib.so", "RuntimeError", "child index 5");
  expect_bin_error("bin_unknown_kind_lib.so", "RuntimeError", "ffi.Module.load_from_bytes.noloadr");
  expect_bin_error("bin_cyclic_lib.so", "RuntimeError", "Cyclic dependency detected during import");
  remove_global("ffi.Module.load_from_bytes.testblob");
  /* Without its loader the valid library cannot be assembled either. */
  expect_bin_error("bin_lib.so", "RuntimeError", "ffi.Module.load_from_bytes.testblob");
}

/* ffi.Module.load_from_bytes.fz: any blob becomes a fresh module of kernel_lib. */
static int load_fz(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)h, (void)args, (void)n;
  TVMFFIAny path = any_str(plugin("kernel_lib.so"));
  return call_global("ffi.ModuleLoadFromFile", &path, 1, result);
}

/* Appends a little-endian u64. */
static size_t put_u64(unsigned char* p, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[at + i] = (unsigned char)(v >> (8 * i));
  return at + 8;
}

static size_t put_str(unsigned char* p, size_t at, const char* s) {
  at = put_u64(p, at, strlen(s));
  memcpy(p + at, s, strlen(s));
  return at + strlen(s);
}

/* Mutated descriptions go through the system library, whose symbols carry no size: the parser
 * is bounded only by the declared payload, placed exactly at the end of a heap block so that
 * AddressSanitizer catches any read past it. */
static void test_library_bin_parser_survives_fuzzing(void) {
  register_global("ffi.Module.load_from_bytes.fz", load_fz);
  unsigned char seed[256];
  size_t n = 8;
  n = put_u64(seed, n, 4); /* indptr: 3 modules */
  n = put_u64(seed, n, 0);
  n = put_u64(seed, n, 2);
  n = put_u64(seed, n, 3);
  n = put_u64(seed, n, 3);
  n = put_u64(seed, n, 3); /* children: 0 -> 1, 2; 1 -> 2 */
  n = put_u64(seed, n, 1);
  n = put_u64(seed, n, 2);
  n = put_u64(seed, n, 2);
  n = put_str(seed, n, "_lib");
  n = put_str(seed, n, "fz");
  n = put_str(seed, n, "blob-one");
  n = put_str(seed, n, "fz");
  n = put_str(seed, n, "");
  put_u64(seed, 0, n - 8);

  uint64_t rng = 0x9E3779B97F4A7C15ull;
  int ok = 0, failed = 0;
  for (int iter = 0; iter < 1500; ++iter) {
    size_t len = n;
    unsigned char buf[256];
    memcpy(buf, seed, n);
    int flips = iter == 0 ? 0 : 1 + (int)(rng % 2);
    for (int k = 0; k < flips; ++k) {
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      size_t at = 8 + (size_t)((rng >> 33) % (n - 8));
      size_t field = at & ~(size_t)7; /* the u64 fields of the tree are 8-byte aligned */
      switch ((rng >> 20) % 8) {
        case 0: buf[at] ^= (unsigned char)(1u << ((rng >> 8) % 8)); break;
        case 1: buf[at] = (unsigned char)(rng >> 40); break;
        case 2: len = at; break; /* truncate */
        default: /* a small count, length or index in an aligned field */
          if (field + 8 <= len) put_u64(buf, field, (rng >> 12) % 6);
          break;
      }
    }
    put_u64(buf, 0, len - 8);
    unsigned char* block = (unsigned char*)malloc(len);
    memcpy(block, buf, len);
    char prefix[32], symbol[96];
    snprintf(prefix, sizeof(prefix), "fuzz%d_", iter);
    snprintf(symbol, sizeof(symbol), "%s__tvm_ffi__library_bin", prefix);
    CHECK_EQ_INT(TVMFFIEnvModRegisterSystemLibSymbol(symbol, block), 0);
    TVMFFIAny arg = any_str(prefix), mod;
    if (call_global("ffi.SystemLib", &arg, 1, &mod) == 0) {
      ok++;
      CHECK_EQ_INT(mod.type_index, kTVMFFIModule);
      release(&mod);
    } else {
      failed++;
      void* err = NULL;
      TVMFFIErrorMoveFromRaised(&err);
      CHECK(err != NULL);
      if (err != NULL) TVMFFIObjectDecRef(err);
    }
    /* Modules copy what they need; the table entry is never looked up again (unique prefix). */
    free(block);
  }
  CHECK(ok > 0);
  CHECK(failed > 0);
  remove_global("ffi.Module.load_from_bytes.fz");
}

static void test_system_lib_with_prefix(void) {
  CHECK_EQ_INT(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_sysA_add", fn_address(add_1000)), 0);
  CHECK_EQ_INT(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_plain", fn_address(seven)), 0);
  void* a = system_lib("sysA_");
  void* a_again = system_lib("sysA_");
  CHECK(a == a_again); /* one module per prefix for the process */
  void* unprefixed = system_lib(NULL);
  CHECK(unprefixed != a);

  void* add = get_function(a, "add", 0); /* "__tvm_ffi_" + prefix + name */
  TVMFFIAny x = any_int(1);
  if (add != NULL) CHECK_EQ_INT(call_int(add, &x, 1), 1001);
  void* plain = get_function(a, "plain", 0); /* falls back to "__tvm_ffi_" + name */
  if (plain != NULL) CHECK_EQ_INT(call_int(plain, NULL, 0), 7);
  CHECK(get_function(unprefixed, "add", 0) == NULL);
  void* full = get_function(unprefixed, "sysA_add", 0);
  CHECK(full != NULL);

  /* Same address again is silent; a different one warns and wins. */
  CHECK_EQ_INT(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_sysA_add", fn_address(add_1000)), 0);
  CHECK_EQ_INT(TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi_sysA_add", fn_address(add_2000)), 0);
  void* add2 = get_function(a, "add", 0);
  if (add2 != NULL) CHECK_EQ_INT(call_int(add2, &x, 1), 2001);
  CHECK_EQ_INT(TVMFFIEnvModRegisterSystemLibSymbol(NULL, NULL), -1);
  CHECK_RAISED("ValueError", "name");

  TVMFFIAny bad = any_int(1), result;
  CHECK_EQ_INT(call_global("ffi.SystemLib", &bad, 1, &result), -1);
  CHECK_RAISED("TypeError", "ffi.SystemLib");

  TVMFFIObjectDecRef(add);
  TVMFFIObjectDecRef(add2);
  TVMFFIObjectDecRef(plain);
  TVMFFIObjectDecRef(full);
  TVMFFIObjectDecRef(a);
  TVMFFIObjectDecRef(a_again);
  TVMFFIObjectDecRef(unprefixed);
}

static void test_system_lib_context_symbols(void) {
  static void* library_ctx = NULL;
  static void* context_slot = NULL;
  static int marker;
  CHECK_EQ_INT(TVMFFIEnvModRegisterContextSymbol("test_sys_context", &marker), 0);
  /* Prefixed names win over plain ones for the system library's own symbols. */
  CHECK_EQ_INT(TVMFFIEnvModRegisterSystemLibSymbol("sysB___tvm_ffi__library_ctx", &library_ctx), 0);
  CHECK_EQ_INT(TVMFFIEnvModRegisterSystemLibSymbol("sysB_test_sys_context", &context_slot), 0);
  void* b = system_lib("sysB_");
  CHECK(library_ctx == library_ctx_of(b));
  CHECK(context_slot == &marker);
  TVMFFIObjectDecRef(b);
}

static void test_imports_reject_cycles(void) {
  void* m1 = load("kernel_lib.so");
  void* m2 = load("kernel_lib.so"); /* same library, second module object */
  if (m1 == NULL || m2 == NULL) return;
  CHECK(m1 != m2);
  import_module(m1, m2, 0);
  CHECK_EQ_INT(check_strong_count(m2), 2);
  import_module(m2, m1, -1);
  CHECK_RAISED("RuntimeError", "Cyclic dependency detected during import");
  import_module(m1, m1, -1);
  CHECK_RAISED("RuntimeError", "Cyclic dependency detected during import");
  TVMFFIAny arg = any_obj(m1), result;
  CHECK_EQ_INT(call_global("ffi.ModuleClearImports", &arg, 1, &result), 0);
  CHECK_EQ_INT(check_strong_count(m2), 1);
  /* Now the other direction is fine. */
  import_module(m2, m1, 0);
  arg = any_obj(m2);
  CHECK_EQ_INT(call_global("ffi.ModuleClearImports", &arg, 1, &result), 0);
  CHECK_EQ_INT(check_strong_count(m1), 1);

  /* Both modules share the library's context slot; it names the later one, and when that one
   * dies first the slot moves to the survivor instead of dangling. */
  void* get_ctx = get_function(m1, "get_library_ctx", 0);
  CHECK(call_ptr(get_ctx) == library_ctx_of(m2));
  TVMFFIObjectDecRef(m2);
  CHECK(call_ptr(get_ctx) == library_ctx_of(m1));
  TVMFFIObjectDecRef(get_ctx);
  TVMFFIObjectDecRef(m1);

  TVMFFIAny not_module[2] = {any_int(1), any_int(2)};
  CHECK_EQ_INT(call_global("ffi.ModuleImportModule", not_module, 2, &result), -1);
  CHECK_RAISED("TypeError", "ffi.ModuleImportModule");
}

static void test_globals_keep_modules_alive(void) {
  void* mod = load("kernel_lib.so");
  if (mod == NULL) return;
  TVMFFIAny arg = any_obj(mod), result;
  CHECK_EQ_INT(call_global("ffi.ModuleGlobalsAdd", &arg, 1, &result), 0);
  CHECK_EQ_INT(check_strong_count(mod), 2);
  CHECK_EQ_INT(call_global("ffi.ModuleGlobalsAdd", &arg, 1, &result), 0); /* a set */
  CHECK_EQ_INT(check_strong_count(mod), 2);
  CHECK_EQ_INT(call_global("ffi.ModuleGlobalsRemove", &arg, 1, &result), 0);
  CHECK_EQ_INT(check_strong_count(mod), 1);
  CHECK_EQ_INT(call_global("ffi.ModuleGlobalsRemove", &arg, 1, &result), 0); /* no-op */
  CHECK_EQ_INT(check_strong_count(mod), 1);
  TVMFFIObjectDecRef(mod);
}

static void test_library_modules_cannot_be_written(void) {
  void* mod = load("kernel_lib.so");
  if (mod == NULL) return;
  TVMFFIAny args[3] = {any_obj(mod), any_str("out.o"), any_str("o")}, result;
  CHECK_EQ_INT(call_global("ffi.ModuleGetWriteFormats", args, 1, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFIArray);
  CHECK_EQ_INT(((TVMFFISeqCell*)((char*)result.v_obj + sizeof(TVMFFIObject)))->size, 0);
  release(&result);
  args[1] = any_str("");
  CHECK_EQ_INT(call_global("ffi.ModuleInspectSource", args, 2, &result), 0);
  CHECK_BYTES_EQ(string_of(&result), "");
  args[1] = any_str("out.o");
  CHECK_EQ_INT(call_global("ffi.ModuleWriteToFile", args, 3, &result), -1);
  CHECK_RAISED("RuntimeError", "Module[library] does not support WriteToFile");
  TVMFFIAny bad = any_int(0);
  CHECK_EQ_INT(call_global("ffi.ModuleGetKind", &bad, 1, &result), -1);
  CHECK_RAISED("TypeError", "ffi.ModuleGetKind");
  TVMFFIObjectDecRef(mod);
}

static void test_module_function_rejects_an_occupied_result_slot(void) {
  void* mod = load("kernel_lib.so");
  if (mod == NULL) return;
  void* add_one = get_function(mod, "add_one", 0);
  TVMFFIAny x = any_int(1);
  TVMFFIAny result = any_obj(mod); /* caller bug: result must start below 64 */
  CHECK_EQ_INT(TVMFFIFunctionCall(add_one, &x, 1, &result), -1);
  CHECK_RAISED("InternalError", "result");
  CHECK_EQ_INT(check_strong_count(mod), 2); /* untouched */
  TVMFFIObjectDecRef(add_one);
  TVMFFIObjectDecRef(mod);
}

int main(int argc, char** argv) {
  if (argc > 1) g_plugin_dir = argv[1];
  RUN(test_load_library_and_call_its_function);
  RUN(test_function_keeps_module_and_library_alive);
  RUN(test_context_symbols_and_library_ctx_are_written);
  RUN(test_lookup_from_imports_inside_a_kernel);
  RUN(test_lookup_from_imports_is_thread_safe);
  RUN(test_function_metadata_and_doc);
  RUN(test_load_errors_name_the_path);
  RUN(test_library_bin_builds_the_import_tree);
  RUN(test_library_bin_errors_are_clean);
  RUN(test_library_bin_parser_survives_fuzzing);
  RUN(test_system_lib_with_prefix);
  RUN(test_system_lib_context_symbols);
  RUN(test_imports_reject_cycles);
  RUN(test_globals_keep_modules_alive);
  RUN(test_library_modules_cannot_be_written);
  RUN(test_module_function_rejects_an_occupied_result_slot);
  return CHECK_MAIN_RESULT();
}
