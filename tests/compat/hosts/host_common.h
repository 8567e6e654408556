/*
 * host_common.h -- what the compatibility host programs share: a tiny check kit, loading a
 * kernel symbol as an FFI function, building argument values and CPU float32 tensors, and
 * reading raised errors.
 *
 * It uses only the stable C ABI, so it compiles against OUR headers (run_on_ours.c) and against
 * the REFERENCE headers (run_on_ref.c) alike. The reference c_api.h offers the cell accessors
 * (TVMFFIErrorGetCellPtr, ...) only to C++, hence the explicit offset arithmetic below: every
 * cell starts right after the 24-byte object header.
 *
 * Define _GNU_SOURCE before including any system header (dladdr, dl_iterate_phdr).
 */
#ifndef TVM_FFI_TESTS_COMPAT_HOST_COMMON_H_
#define TVM_FFI_TESTS_COMPAT_HOST_COMMON_H_

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

/* ---- checks: a failed EXPECT prints where and why; main returns the failed-test count ---- */

static int host_failures_in_test = 0;
static int host_failed_tests = 0;

#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: EXPECT failed: %s\n", __FILE__, __LINE__, #cond); \
      host_failures_in_test++;                                                 \
    }                                                                          \
  } while (0)

#define EXPECT_EQ_INT(a, b)                                                                  \
  do {                                                                                       \
    long long expect_a_ = (long long)(a), expect_b_ = (long long)(b);                        \
    if (expect_a_ != expect_b_) {                                                            \
      fprintf(stderr, "%s:%d: EXPECT failed: %s == %s (%lld vs %lld)\n", __FILE__, __LINE__, \
              #a, #b, expect_a_, expect_b_);                                                 \
      host_failures_in_test++;                                                               \
    }                                                                                        \
  } while (0)

#define EXPECT_BYTES_EQ(byte_array, cstr)                                                   \
  do {                                                                                      \
    TVMFFIByteArray expect_ba_ = (byte_array);                                              \
    const char* expect_s_ = (cstr);                                                         \
    if (expect_ba_.size != strlen(expect_s_) ||                                             \
        memcmp(expect_ba_.data, expect_s_, expect_ba_.size) != 0) {                         \
      fprintf(stderr, "%s:%d: EXPECT failed: %s == \"%s\" (got \"%.*s\")\n", __FILE__,      \
              __LINE__, #byte_array, expect_s_, (int)expect_ba_.size, expect_ba_.data);     \
      host_failures_in_test++;                                                              \
    }                                                                                       \
  } while (0)

#define EXPECT_CONTAINS(byte_array, cstr)                                                   \
  do {                                                                                      \
    TVMFFIByteArray expect_ba_ = (byte_array);                                              \
    const char* expect_s_ = (cstr);                                                         \
    if (!host_contains(expect_ba_, expect_s_)) {                                            \
      fprintf(stderr, "%s:%d: EXPECT failed: \"%.*s\" contains \"%s\"\n", __FILE__,         \
              __LINE__, (int)expect_ba_.size, expect_ba_.data, expect_s_);                  \
      host_failures_in_test++;                                                              \
    }                                                                                       \
  } while (0)

#define RUN(test_fn)                                 \
  do {                                               \
    host_failures_in_test = 0;                       \
    test_fn();                                       \
    if (host_failures_in_test) {                     \
      fprintf(stderr, "FAILED %s\n", #test_fn);      \
      host_failed_tests++;                           \
    } else {                                         \
      printf("ok %s\n", #test_fn);                   \
    }                                                \
    fflush(stdout);                                  \
  } while (0)

static inline int host_contains(TVMFFIByteArray haystack, const char* needle) {
  size_t n = strlen(needle);
  for (size_t i = 0; i + n <= haystack.size; ++i) {
    if (memcmp(haystack.data + i, needle, n) == 0) return 1;
  }
  return 0;
}

static inline TVMFFIByteArray host_ba(const char* s) {
  TVMFFIByteArray b;
  b.data = s;
  b.size = strlen(s);
  return b;
}

/* ---- objects: every cell sits right after the 24-byte header ---- */

static inline void* host_cell(void* obj) { return (char*)obj + sizeof(TVMFFIObject); }

static inline uint32_t host_strong_count(void* obj) {
  return (uint32_t)(((TVMFFIObject*)obj)->combined_ref_count & 0xFFFFFFFFu);
}

/* The runtime's type key for a type index (what mismatch messages are expected to name). */
static inline TVMFFIByteArray host_type_key(int32_t type_index) {
  return TVMFFIGetTypeInfo(type_index)->type_key;
}

/* Copies a type key into a NUL-terminated buffer so it can be part of a needle. */
static inline const char* host_type_key_cstr(int32_t type_index, char* buf, size_t cap) {
  TVMFFIByteArray key = host_type_key(type_index);
  snprintf(buf, cap, "%.*s", (int)key.size, key.data);
  return buf;
}

/* ---- values ---- */

static inline TVMFFIAny host_any_none(void) {
  TVMFFIAny v;
  memset(&v, 0, sizeof v);
  v.type_index = kTVMFFINone;
  return v;
}

static inline TVMFFIAny host_any_int(int64_t x) {
  TVMFFIAny v = host_any_none();
  v.type_index = kTVMFFIInt;
  v.v_int64 = x;
  return v;
}

static inline TVMFFIAny host_any_bool(int x) {
  TVMFFIAny v = host_any_none();
  v.type_index = kTVMFFIBool;
  v.v_int64 = x != 0;
  return v;
}

static inline TVMFFIAny host_any_float(double x) {
  TVMFFIAny v = host_any_none();
  v.type_index = kTVMFFIFloat;
  v.v_float64 = x;
  return v;
}

static inline TVMFFIAny host_any_dltensor(DLTensor* t) {
  TVMFFIAny v = host_any_none();
  v.type_index = kTVMFFIDLTensorPtr;
  v.v_ptr = t;
  return v;
}

static inline TVMFFIAny host_any_raw_str(const char* s) {
  TVMFFIAny v = host_any_none();
  v.type_index = kTVMFFIRawStr;
  v.v_c_str = s;
  return v;
}

/* A borrowed view of an object (the caller keeps its reference). */
static inline TVMFFIAny host_any_object(void* obj) {
  TVMFFIAny v = host_any_none();
  v.type_index = ((TVMFFIObject*)obj)->type_index;
  v.v_obj = (TVMFFIObject*)obj;
  return v;
}

/* The bytes of an owned string value: small strings inline, string objects in their cell. */
static inline TVMFFIByteArray host_string_bytes(const TVMFFIAny* v) {
  if (v->type_index == kTVMFFISmallStr) {
    TVMFFIByteArray b;
    b.data = v->v_bytes;
    b.size = v->small_str_len;
    return b;
  }
  return *(TVMFFIByteArray*)host_cell(v->v_obj);
}

/* ---- errors ---- */

/* Takes the pending error (owned) or NULL. */
static inline void* host_take_error(void) {
  void* err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  return err;
}

static inline TVMFFIErrorCell* host_error_cell(void* err) {
  return (TVMFFIErrorCell*)host_cell(err);
}

/* Prints and releases an unexpected pending error; true when the call succeeded cleanly. */
static inline int host_ok(int rc) {
  if (rc == 0) return 1;
  void* err = host_take_error();
  fprintf(stderr, "call failed with %d", rc);
  if (err != NULL) {
    TVMFFIErrorCell* cell = host_error_cell(err);
    fprintf(stderr, ": %.*s: %.*s", (int)cell->kind.size, cell->kind.data,
            (int)cell->message.size, cell->message.data);
    TVMFFIObjectDecRef(err);
  }
  fprintf(stderr, "\n");
  return 0;
}

/* Expects a failed call (-1) with an error of `kind` whose message contains `needle`. */
#define EXPECT_RAISED(rc_, kind_, needle_)                                   \
  do {                                                                       \
    EXPECT_EQ_INT((rc_), -1);                                                \
    void* expect_err_ = host_take_error();                                   \
    EXPECT(expect_err_ != NULL);                                             \
    if (expect_err_ != NULL) {                                               \
      EXPECT_EQ_INT(((TVMFFIObject*)expect_err_)->type_index, kTVMFFIError); \
      EXPECT_BYTES_EQ(host_error_cell(expect_err_)->kind, (kind_));          \
      EXPECT_CONTAINS(host_error_cell(expect_err_)->message, (needle_));     \
      TVMFFIObjectDecRef(expect_err_);                                       \
    }                                                                        \
  } while (0)

/* ---- tensors: 1-D float32 CPU vectors owned by the host ---- */

#define HOST_VECTOR_CAPACITY 8

typedef struct {
  float data[HOST_VECTOR_CAPACITY];
  int64_t shape[1];
  int64_t strides[1];
  DLTensor dl;
} HostVector;

/* Fills v with start, start+1, ...; dl describes the first n elements. */
static inline void host_vector_init(HostVector* v, int64_t n, float start) {
  memset(v, 0, sizeof *v);
  for (int64_t i = 0; i < n; ++i) v->data[i] = start + (float)i;
  v->shape[0] = n;
  v->strides[0] = 1;
  v->dl.data = v->data;
  v->dl.device.device_type = kDLCPU;
  v->dl.device.device_id = 0;
  v->dl.ndim = 1;
  v->dl.dtype.code = kDLFloat;
  v->dl.dtype.bits = 32;
  v->dl.dtype.lanes = 1;
  v->dl.shape = v->shape;
  v->dl.strides = v->strides;
  v->dl.byte_offset = 0;
}

/* DLPack producer side: a versioned managed tensor over a HostVector whose deleter counts. */
static int host_dlpack_deleter_calls = 0;

static void host_dlpack_deleter(DLManagedTensorVersioned* self) {
  host_dlpack_deleter_calls++;
  free(self);
}

/* An owned Tensor object made by the runtime from a DLPack capsule over `v` (borrows v's data);
 * NULL, with the runtime's error printed, if the runtime refuses it. */
static inline void* host_tensor_object(HostVector* v) {
  DLManagedTensorVersioned* managed = (DLManagedTensorVersioned*)calloc(1, sizeof *managed);
  if (managed == NULL) return NULL;
  managed->version.major = DLPACK_MAJOR_VERSION;
  managed->version.minor = DLPACK_MINOR_VERSION;
  managed->dl_tensor = v->dl;
  managed->deleter = host_dlpack_deleter;
  void* tensor = NULL;
  if (!host_ok(TVMFFITensorFromDLPackVersioned(managed, 0, 0, &tensor))) {
    free(managed); /* on failure the producer keeps ownership */
    return NULL;
  }
  return tensor;
}

/* ---- calling ---- */

/* Calls an FFI function; `result` is pre-set to None as the calling convention requires. */
static inline int host_call(void* func, TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  *result = host_any_none();
  return TVMFFIFunctionCall(func, args, num_args, result);
}

/* Releases an owned result value (objects only; everything else is inline). */
static inline void host_release(TVMFFIAny* value) {
  if (value->type_index >= kTVMFFIStaticObjectBegin && value->v_obj != NULL) {
    TVMFFIObjectDecRef(value->v_obj);
  }
  *value = host_any_none();
}

/* ---- kernels ---- */

/* Loads a kernel library like the reference loader does (the library stays loaded). */
static inline void* host_open_kernel(const char* path) {
  void* lib = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
  if (lib == NULL) fprintf(stderr, "dlopen(%s) failed: %s\n", path, dlerror());
  return lib;
}

/* Wraps the exported symbol __tvm_ffi_<name> as an owned FFI function (resource handle NULL,
 * as the loader passes it). */
static inline void* host_kernel_function(void* lib, const char* name) {
  char symbol[256];
  snprintf(symbol, sizeof symbol, "__tvm_ffi_%s", name);
  void* sym = dlsym(lib, symbol);
  if (sym == NULL) {
    fprintf(stderr, "dlsym(%s) failed: %s\n", symbol, dlerror());
    return NULL;
  }
  TVMFFISafeCallType safe_call;
  memcpy(&safe_call, &sym, sizeof safe_call); /* object -> function pointer, as POSIX allows */
  void* func = NULL;
  if (!host_ok(TVMFFIFunctionCreate(NULL, safe_call, NULL, &func))) return NULL;
  return func;
}

/* ---- which runtime serves this process ---- */

/* The file that defines TVMFFIFunctionCall in this process. */
static inline const char* host_runtime_path(void) {
  Dl_info info;
  void* addr;
  int (*fn)(TVMFFIObjectHandle, TVMFFIAny*, int32_t, TVMFFIAny*) = TVMFFIFunctionCall;
  memcpy(&addr, &fn, sizeof addr);
  if (dladdr(addr, &info) == 0 || info.dli_fname == NULL) return "";
  return info.dli_fname;
}

static inline int host_same_file(const char* a, const char* b) {
  char ra[PATH_MAX], rb[PATH_MAX];
  if (realpath(a, ra) == NULL || realpath(b, rb) == NULL) return 0;
  return strcmp(ra, rb) == 0;
}

typedef struct {
  int count;
  char paths[4][PATH_MAX];
} HostLoadedRuntimes;

static int host_collect_runtime(struct dl_phdr_info* info, size_t size, void* data) {
  (void)size;
  HostLoadedRuntimes* found = (HostLoadedRuntimes*)data;
  const char* name = info->dlpi_name;
  const char* base = strrchr(name, '/');
  base = base ? base + 1 : name;
  if (strncmp(base, "libtvm_ffi", 10) == 0 && strstr(base, "testing") == NULL) {
    if (found->count < 4) snprintf(found->paths[found->count], PATH_MAX, "%s", name);
    found->count++;
  }
  return 0;
}

/* Expects exactly one libtvm_ffi*.so mapped into the process, and that it is `expected`. */
static inline void host_expect_only_runtime(const char* expected) {
  HostLoadedRuntimes found;
  memset(&found, 0, sizeof found);
  dl_iterate_phdr(host_collect_runtime, &found);
  EXPECT_EQ_INT(found.count, 1);
  for (int i = 0; i < found.count && i < 4; ++i) {
    if (!host_same_file(found.paths[i], expected)) {
      fprintf(stderr, "unexpected runtime mapped: %s (expected %s)\n", found.paths[i], expected);
      host_failures_in_test++;
    }
  }
  const char* serving = host_runtime_path();
  if (!host_same_file(serving, expected)) {
    fprintf(stderr, "TVMFFIFunctionCall comes from %s, expected %s\n", serving, expected);
    host_failures_in_test++;
  }
}

#endif /* TVM_FFI_TESTS_COMPAT_HOST_COMMON_H_ */
